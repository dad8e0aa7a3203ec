// SPDX-License-Identifier: MIT
#include "core/asm/printedshape_p.h"

#include "core/asm/linescan_p.h"

#include <algorithm>
#include <charconv>

namespace gcnlens::detail {

namespace {

// A value as the printer spells it: LLVM's formatHex (lower case, no padding) or formatDec.
std::string_view spell(char (&buffer)[24], std::uint64_t value, bool hex)
{
    char* at = buffer;
    if (hex) {
        *at++ = '0';
        *at++ = 'x';
    }
    const auto result = std::to_chars(at, buffer + sizeof buffer, value, hex ? 16 : 10);
    return {buffer, std::size_t(result.ptr - buffer)};
}

// Whether text[at, at + length) stands as a word of its own: no identifier character on either
// side (nor a register's '[' after it, nor a minus sign before a number).
bool standsAlone(std::string_view text, std::size_t at, std::size_t length, bool number)
{
    const std::size_t end = at + length;
    if (at > 0 && (isIdentifierChar(text[at - 1]) || (number && text[at - 1] == '-')))
        return false;
    return end == text.size() || !(isIdentifierChar(text[end]) || text[end] == '[');
}

} // namespace

void appendRegisterName(std::string& out, RegKind kind, int first, int count)
{
    // Written into a buffer and appended at once (a memcpy call per number and a push_back per
    // character were a sixtieth of a plain-text listing; issue #18).
    char name[32];
    std::size_t size = 0;
    const auto number = [&](int n) { size = std::size_t(std::to_chars(name + size, name + sizeof name, n).ptr - name); };
    name[size++] = kind == RegKind::VGPR ? 'v' : kind == RegKind::SGPR ? 's' : 'a';
    if (count == 1) {
        number(first);
    } else {
        name[size++] = '[';
        number(first);
        name[size++] = ':';
        number(first + count - 1);
        name[size++] = ']';
    }
    out.append(name, size);
}

void PrintedShape::learn(InternedString mnemonic, std::string_view operands, Names names, std::span<const std::uint64_t> values)
{
    state_ = State::Refused;
    struct Found {
        std::size_t at, length;
        Hole hole;
        std::uint32_t token;
    };
    std::vector<Found> found;
    std::vector<bool> claimed(operands.size(), false);
    const auto claim = [&](std::size_t at, std::size_t length) {
        std::fill(claimed.begin() + std::ptrdiff_t(at), claimed.begin() + std::ptrdiff_t(at + length), true);
    };
    const auto unclaimed = [&](std::size_t at, std::size_t length) {
        return std::none_of(claimed.begin() + std::ptrdiff_t(at), claimed.begin() + std::ptrdiff_t(at + length),
                            [](bool c) { return c; });
    };
    // Registers: every whole-word occurrence of a token's name is that token (two tokens of one
    // name are one register in every line of the shape: the shape key says which are equal).
    for (std::size_t t = 0; t < names.size(); ++t) {
        const std::string_view name = names[t];
        if (name.empty())
            return;
        bool seen = false;
        for (std::size_t at = operands.find(name); at != std::string_view::npos; at = operands.find(name, at + 1)) {
            if (!unclaimed(at, name.size())) {
                seen = seen || (claimed[at] && std::any_of(found.begin(), found.end(), [&](const Found& f) {
                                    return f.at == at && f.length == name.size();
                                }));
                continue;
            }
            if (!standsAlone(operands, at, name.size(), false))
                continue; // checked below: no token's name may stay in the fixed text
            found.push_back({at, name.size(), Hole::Register, std::uint32_t(t)});
            claim(at, name.size());
            seen = true;
        }
        if (!seen)
            return; // printed in some other form
    }
    // Values: exactly one spelling, once, as a word of its own.
    for (std::size_t v = 0; v < values.size(); ++v) {
        int occurrences = 0;
        Found value {};
        for (const bool hex : {true, false}) {
            char buffer[24];
            const std::string_view spelt = spell(buffer, values[v], hex);
            for (std::size_t at = operands.find(spelt); at != std::string_view::npos; at = operands.find(spelt, at + 1)) {
                if (!unclaimed(at, spelt.size()))
                    continue;
                ++occurrences;
                value = {at, spelt.size(), hex ? Hole::Hex : Hole::Decimal, std::uint32_t(v)};
            }
        }
        if (occurrences != 1 || !standsAlone(operands, value.at, value.length, true))
            return;
        found.push_back(value);
        claim(value.at, value.length);
    }
    // No token's name left in the fixed text, even inside a word (v1 in "v1.l"): the printer wrote
    // that register some way this reading does not know.
    for (const std::string_view name : names)
        for (std::size_t at = operands.find(name); at != std::string_view::npos; at = operands.find(name, at + 1))
            if (!claimed[at])
                return;

    std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.at < b.at; });
    fixed_.clear();
    parts_.clear();
    learntHoles_.clear();
    std::size_t from = 0;
    for (const Found& f : found) {
        fixed_.append(operands.substr(from, f.at - from));
        parts_.push_back({std::uint32_t(f.at - from), f.hole, false, f.token});
        learntHoles_.emplace_back(operands.substr(f.at, f.length));
        from = f.at + f.length;
    }
    fixed_.append(operands.substr(from));
    mnemonic_ = mnemonic;
    state_ = State::Learnt;
}

void PrintedShape::appendHole(std::string& out, const Part& part, Names names, std::span<const std::uint64_t> values) const
{
    if (part.hole == Hole::Register) {
        out.append(names[part.token]);
        return;
    }
    char buffer[24];
    out.append(spell(buffer, values[part.token], part.hole == Hole::Hex));
}

void PrintedShape::write(std::string& out, Names names, std::span<const std::uint64_t> values) const
{
    out.clear();
    std::size_t from = 0;
    for (const Part& part : parts_) {
        out.append(fixed_, from, part.fixedLength);
        from += part.fixedLength;
        appendHole(out, part, names, values);
    }
    out.append(fixed_, from);
}

bool PrintedShape::sameAsLearnt(std::size_t part, Names names, std::span<const std::uint64_t> values) const
{
    const Part& p = parts_[part];
    if (p.hole == Hole::Register)
        return names[p.token] == learntHoles_[part];
    char buffer[24];
    return spell(buffer, values[p.token], p.hole == Hole::Hex) == learntHoles_[part];
}

bool PrintedShape::covers(Names names, std::span<const std::uint64_t> values) const
{
    if (state_ != State::Learnt)
        return false;
    for (std::size_t p = 0; p < parts_.size(); ++p)
        if (!parts_[p].proven && !sameAsLearnt(p, names, values))
            return false;
    return true;
}

void PrintedShape::check(std::string_view written, InternedString mnemonic, std::string_view printed, Names names,
                         std::span<const std::uint64_t> values)
{
    if (state_ != State::Learnt)
        return;
    if (written != printed || mnemonic != mnemonic_) {
        state_ = State::Refused;
        return;
    }
    for (std::size_t p = 0; p < parts_.size(); ++p)
        if (!parts_[p].proven && !sameAsLearnt(p, names, values))
            parts_[p].proven = true;
}

void ShapeTokens::nameViews()
{
    names.clear();
    for (std::size_t t = 0, from = 0; t < nameEnds.size(); from = nameEnds[t++])
        names.push_back(std::string_view(nameText).substr(from, nameEnds[t] - from));
}

void ShapeText::ready()
{
    if (!ready_) {
        read_(context_, tokens_);
        ready_ = true;
    }
}

bool ShapeText::text(InternedString& mnemonic, std::string_view& operands)
{
    if (shape_.state() != PrintedShape::State::Learnt)
        return false;
    ready();
    if (!shape_.covers(tokens_.names, tokens_.values))
        return false;
    shape_.write(written_, tokens_.names, tokens_.values);
    mnemonic = shape_.mnemonic();
    operands = written_;
    return true;
}

void ShapeText::printed(InternedString mnemonic, std::string_view operands)
{
    if (shape_.state() == PrintedShape::State::Refused)
        return;
    ready();
    if (shape_.state() == PrintedShape::State::Unlearnt) {
        shape_.learn(mnemonic, operands, tokens_.names, tokens_.values);
        return;
    }
    shape_.write(written_, tokens_.names, tokens_.values);
    shape_.check(written_, mnemonic, operands, tokens_.names, tokens_.values);
}

} // namespace gcnlens::detail
