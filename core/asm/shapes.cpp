// SPDX-License-Identifier: MIT
#include "core/asm/shapes_p.h"

#include "core/asm/fastpaths.h"
#include "core/asm/printedshape_p.h"
#include "core/asm/sourcemap.h"
#include "core/support/hash.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace gcnlens::detail {

// Whether an integer operand may be an inline constant (or one half of a packed one) for some
// operand type: its 32-, 16-bit or packed pattern is an inline integer (-16..64) or float (±0.5,
// ±1, ±2, ±4, 1/2π in f32, f16, bf16, or as the high word of an f64). Such values stay in the
// shape's text: the assembler decides inline constant or literal from them.
bool mayBeInlineConstant(std::uint64_t v)
{
    const auto inline16 = [](std::uint32_t h) {
        static constexpr std::uint16_t kPatterns[] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400,
                                                      0x3118, 0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4080, 0xc080, 0x3e22};
        return h <= 64 || (h >= 0xfff0 && h <= 0xffff)
            || std::find(std::begin(kPatterns), std::end(kPatterns), h) != std::end(kPatterns);
    };
    static constexpr std::uint32_t kPatterns32[] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
                                                    0x40800000, 0xc0800000, 0x3e22f983, 0x3fe00000, 0xbfe00000, 0x3ff00000,
                                                    0xbff00000, 0x40100000, 0xc0100000, 0x3fc45f30};
    if (v > 0xffffffffu)
        return true; // (64-bit values are not substituted at all)
    const auto lo = std::uint32_t(v & 0xffff), hi = std::uint32_t(v >> 16);
    return v <= 64 || v >= 0xfffffff0u || (v <= 0xffff && inline16(lo)) || (lo == hi && inline16(lo))
        || std::find(std::begin(kPatterns32), std::end(kPatterns32), std::uint32_t(v)) != std::end(kPatterns32);
}

namespace {

// A register operand written as a plain register: v5, s[8:11], a[0:3], v[7].
struct RegToken {
    RegKind kind = RegKind::VGPR;
    int first = 0, count = 1;
};

// Parses a plain register at code[at]; false when there is none (or one LLVM would reject for
// its index, which must then go through the assembler for its diagnostic).
bool parseRegisterToken(std::string_view code, std::size_t at, RegToken& token, std::size_t& end)
{
    const char prefix = code[at];
    token.kind = prefix == 'v' ? RegKind::VGPR : prefix == 's' ? RegKind::SGPR : RegKind::AGPR;
    if ((prefix != 'v' && prefix != 's' && prefix != 'a') || (at > 0 && isWordChar(code[at - 1])))
        return false;
    const auto number = [&](std::size_t& i, int& value) {
        const std::size_t begin = i;
        while (i < code.size() && std::isdigit(static_cast<unsigned char>(code[i])))
            ++i;
        if (i == begin || i - begin > 3 || (code[begin] == '0' && i - begin > 1))
            return false; // no digits, or a spelling (v007) a shape must not hide
        std::from_chars(code.data() + begin, code.data() + i, value);
        return true;
    };
    std::size_t i = at + 1;
    int first = 0, last = 0;
    if (i < code.size() && code[i] == '[') {
        ++i;
        if (!number(i, first))
            return false;
        last = first;
        if (i < code.size() && code[i] == ':') {
            ++i;
            if (!number(i, last))
                return false;
        }
        if (i >= code.size() || code[i] != ']')
            return false;
        ++i;
    } else {
        if (!number(i, first))
            return false;
        last = first;
        if (i < code.size() && isWordChar(code[i]))
            return false; // v1e5, s0x…: not a register
    }
    // Indices every GCN target accepts (VGPR/AGPR 0-255, SGPR 0-101): anything else goes to LLVM.
    const int limit = token.kind == RegKind::SGPR ? 101 : 255;
    if (last < first || last > limit)
        return false;
    token.first = first;
    token.count = last - first + 1;
    end = i;
    return true;
}

// A whole-operand integer (decimal without leading zeros, or 0x hex) that is not possibly an inline
// constant: its value, put into the MCInst like a register (see planShapes). Its class goes into the
// shape instead: bit length and low two bits, which decide every range and alignment check
// (isInt<N>/isUInt<N>, multiples of 2 and 4), so lines of one shape take the same path through
// the parser and encoder (issue #18's value classes).
bool valueToken(std::string_view code, std::size_t at, std::size_t end, std::uint64_t& value)
{
    const auto separator = [](char c) { return c == ' ' || c == '\t' || c == ','; };
    if (at == 0 || !(separator(code[at - 1]) || code[at - 1] == ':') || (end < code.size() && !separator(code[end])))
        return false;
    std::string_view word = code.substr(at, end - at);
    int base = 10;
    if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
        word.remove_prefix(2);
        base = 16;
    } else if (word.empty() || word[0] == '0'
               || !std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return false;
    }
    const auto [last, ec] = std::from_chars(word.data(), word.data() + word.size(), value, base);
    return ec == std::errc() && last == word.data() + word.size() && !mayBeInlineConstant(value);
}

// The names the source defines (macros, symbols, labels, --defsym), with a filter on their first
// characters and lengths in front: every word of every line is asked, and almost none is a name
// (the set's lookup was a sixth of the shape of a plain-text line; issue #18).
class DefinedNames {
public:
    void insert(std::string_view name)
    {
        names_.insert(name);
        if (!name.empty()) {
            firstChars_ |= std::uint64_t(1) << (static_cast<unsigned char>(name.front()) & 63);
            lengths_ |= std::uint64_t(1) << std::min<std::size_t>(name.size(), 63);
        }
    }
    bool contains(std::string_view word) const
    {
        return !word.empty() && (firstChars_ >> (static_cast<unsigned char>(word.front()) & 63) & 1)
            && (lengths_ >> std::min<std::size_t>(word.size(), 63) & 1) && names_.contains(word);
    }

private:
    std::unordered_set<std::string_view, TextHash> names_;
    std::uint64_t firstChars_ = 0, lengths_ = 0; // bit (c & 63) of each first character; bit min(length, 63)
};

// The shape of an instruction line: its text with each plain register replaced by its kind, its
// width, its alignment (SGPR tuples, GFX90A VGPRs) and how it overlaps the registers
// before it (the constant-bus limit counts distinct SGPRs). Lines of one shape differ only in
// register numbers, which the encoder puts into fixed fields; everything the assembler decides
// from the text (encoding, VOP3 promotion, literal, size, errors) depends only on the shape.
// False when the line mentions a name the source defines (its value may change between lines).
// The line's register and value tokens are appended to `tokens` and `values` (the shape pass
// keeps every line's there; a false return leaves some behind, for the caller to drop).
bool lineShape(std::string_view code, const DefinedNames& definedNames, std::string& key, std::vector<RegToken>& tokens,
               std::vector<std::uint64_t>& values)
{
    key.clear();
    const std::size_t firstToken = tokens.size();
    std::size_t i = 0;
    while (i < code.size()) {
        if (!isWordChar(code[i])) { // a run of other characters, as it is (a string or an escape: no shape)
            std::size_t end = i + 1;
            while (end < code.size() && !isWordChar(code[end]))
                ++end;
            const std::string_view run = code.substr(i, end - i);
            if (run.find_first_of("\"\\") != std::string_view::npos)
                return false;
            key.append(run);
            i = end;
            continue;
        }
        RegToken token;
        std::size_t end = 0;
        if (parseRegisterToken(code, i, token, end)) {
            appendRegisterShape(key, token.kind, token.first, token.count, std::span(tokens).subspan(firstToken));
            tokens.push_back(token);
            i = end;
            continue;
        }
        std::size_t wordEnd = i;
        while (wordEnd < code.size() && isWordChar(code[wordEnd]))
            ++wordEnd;
        const std::string_view word = code.substr(i, wordEnd - i);
        if (definedNames.contains(word))
            return false;
        std::uint64_t value = 0;
        if (fastPaths().valueClasses && valueToken(code, i, wordEnd, value)) {
            appendValueClass(key, value);
            values.push_back(value);
        } else {
            key.append(word);
        }
        i = wordEnd;
    }
    return true;
}

// Shape keys to shape numbers: open addressing over a power-of-two table (an unordered_map's
// modulo and node per lookup were a quarter of the pass's own time, asked once per line).
class ShapeIndex {
public:
    // The number of `key`'s shape, and whether it is new (numbered on from 0).
    std::pair<int, bool> findOrAdd(const std::string& key)
    {
        if ((keys_.size() + 1) * 2 > slots_.size())
            grow();
        const std::size_t hash = hashBytes(key.data(), key.size());
        for (std::size_t at = hash & (slots_.size() - 1);; at = (at + 1) & (slots_.size() - 1)) {
            const int shape = slots_[at];
            if (shape < 0) {
                slots_[at] = int(keys_.size());
                keys_.push_back(key);
                return {slots_[at], true};
            }
            if (keys_[std::size_t(shape)] == key)
                return {shape, false};
        }
    }

private:
    void grow()
    {
        std::vector<int> old = std::move(slots_);
        slots_.assign(std::max<std::size_t>(64, old.size() * 2), -1);
        for (const int shape : old) {
            if (shape < 0)
                continue;
            const std::string& key = keys_[std::size_t(shape)];
            std::size_t at = hashBytes(key.data(), key.size()) & (slots_.size() - 1);
            while (slots_[at] >= 0)
                at = (at + 1) & (slots_.size() - 1);
            slots_[at] = shape;
        }
    }
    std::vector<int> slots_;        // shape numbers, -1 empty
    std::vector<std::string> keys_; // by shape number
};

} // namespace

// The shape pass (issue #2's hint): an instruction's encoding depends on its shape, not on its
// register numbers, so each shape is assembled once, in a separate run of LLVM over one line
// per shape, and every line of that shape is encoded by the real encoder from that MCInst with
// its own registers put in. Lines it cannot vouch for (outside plain code, naming a symbol,
// a shape that drew any diagnostic or came out with a symbolic operand) stay with the assembler.
// Returns the text for the main run, with the planned lines replaced (see ShapePlan).
std::string planShapes(TargetKit& kit, const GpuTarget& gpu, std::string_view text, const LineScan& scan,
                       const AssembleOptions& options, ShapePlan& plan, std::span<const std::string_view> lines)
{
    plan = ShapePlan {};
    if (scan.includes || scan.computedNames || scan.kernelScopeSymbols)
        return {};
    DefinedNames definedNames;
    for (const auto* list : {&scan.macroNames, &scan.assignedSymbols, &scan.labels})
        for (const auto& name : *list)
            definedNames.insert(name);
    for (const auto& defsym : options.defsyms)
        definedNames.insert(defsym.first);

    // A line of some shape; its register and value tokens are ranges of the shared arrays below
    // (a pair of vectors per line cost more in allocations than the shape key).
    struct Candidate {
        std::size_t line;
        int shape;
        std::uint32_t firstToken, tokenCount;
        std::uint32_t firstValue, valueCount; // value tokens (valueToken), in text order
    };
    struct Shape {
        std::string_view code;      // of its first line
        std::size_t firstCandidate; // that line, whose registers the template run saw
        std::unique_ptr<llvm::MCInst> inst;
        const llvm::MCSubtargetInfo* subtarget = nullptr;
        struct Slot {
            unsigned operand;
            std::size_t token;
            int count;
        };
        std::vector<Slot> slots;                                  // register operands that come from the line's own registers
        std::vector<std::pair<unsigned, std::size_t>> valueSlots; // (operand, value token): immediates from the line
        bool usable = false;
        PrintedShape printed; // its lines' text, once known
    };
    std::vector<std::string_view> ownLines;
    if (lines.empty()) {
        ownLines = splitLines(text);
        lines = ownLines;
    }
    if (lines.size() != scan.plain.size())
        return {};
    std::vector<Candidate> candidates;
    std::vector<RegToken> candidateTokens;
    std::vector<std::uint64_t> candidateValues;
    candidates.reserve(lines.size());
    candidateTokens.reserve(lines.size() * 3); // (about three registers a line: no regrowth, and
    candidateValues.reserve(lines.size());     // pages reserved are not touched until used)
    std::vector<Shape> shapes;
    ShapeIndex shapeIndex;
    std::string key;
    for (std::size_t l = 0; l < lines.size(); ++l) {
        if (!scan.plain[l])
            continue;
        const std::string_view code = codeOf(lines[l]);
        const auto firstToken = std::uint32_t(candidateTokens.size()), firstValue = std::uint32_t(candidateValues.size());
        if (code.empty() || !SourceMap::codeIsInstruction(code)
            || !lineShape(code, definedNames, key, candidateTokens, candidateValues)) {
            candidateTokens.resize(firstToken);
            candidateValues.resize(firstValue);
            continue;
        }
        const auto [shape, added] = shapeIndex.findOrAdd(key);
        if (added)
            shapes.push_back(Shape {code, candidates.size(), nullptr, nullptr, {}, {}, false, {}});
        candidates.push_back(Candidate {l, shape, firstToken, std::uint32_t(candidateTokens.size()) - firstToken, firstValue,
                                        std::uint32_t(candidateValues.size()) - firstValue});
    }
    // (Even when every shape is new the pass costs little: each line is parsed once, in the
    // shape run, and the main run parses a .skip in its place.)
    if (candidates.size() < kShapePassMinimumLines)
        return {};

    // One line per shape, assembled on its own.
    std::string templates = ".text\n";
    for (const auto& shape : shapes) {
        templates.append(shape.code);
        templates += '\n';
    }
    AssemblerSession session(kit, gpu, options, templates, "<shapes>");
    if (!session.error.empty())
        return {};
    session.streamer->keepInsts = true;
    session.run();
    std::vector<int> emitted(shapes.size(), 0);
    std::vector<bool> diagnosed(shapes.size(), false);
    for (const auto& d : session.diagnostics) {
        if (d.bufferId != 1 || d.bufferLine < 2 || std::size_t(d.bufferLine - 2) >= shapes.size())
            return {}; // a diagnostic the pass cannot pin to one shape: leave everything to the assembler
        diagnosed[std::size_t(d.bufferLine - 2)] = true;
    }
    for (auto& e : session.streamer->emissions) {
        if (e.kind != Emission::Instr || e.bufferId != 1 || !e.mcInst)
            continue;
        const auto line = session.sources.FindLineNumber(llvm::SMLoc::getFromPointer(e.loc), 1);
        if (line < 2 || line - 2 >= shapes.size())
            continue;
        Shape& shape = shapes[line - 2];
        if (++emitted[line - 2] == 1) {
            shape.inst = std::move(e.mcInst);
            shape.subtarget = e.subtarget;
        }
    }
    // Which operands carry the line's registers: matched by register, through the template's own
    // tokens (its first line). Any register LLVM made that is not one of them, and is not fixed
    // text (vcc, exec, ttmp…), means the shape is not understood: it stays with the assembler.
    for (std::size_t s = 0; s < shapes.size(); ++s) {
        Shape& shape = shapes[s];
        if (!shape.inst || emitted[s] != 1 || diagnosed[s])
            continue;
        const Candidate& first = candidates[shape.firstCandidate];
        const std::span<const RegToken> own(candidateTokens.data() + first.firstToken, first.tokenCount);
        bool usable = true;
        std::vector<bool> used(own.size(), false);
        for (unsigned i = 0; i < shape.inst->getNumOperands() && usable; ++i) {
            const llvm::MCOperand& op = shape.inst->getOperand(i);
            if (op.isExpr() || op.isInst()) {
                usable = false;
            } else if (op.isReg() && op.getReg()) {
                const auto& range = kit.reg(op.getReg());
                if (!range || (range->kind != RegKind::VGPR && range->kind != RegKind::SGPR && range->kind != RegKind::AGPR))
                    continue; // fixed text: the same register in every line of the shape
                const auto match = std::find_if(own.begin(), own.end(), [&](const RegToken& t) {
                    return t.kind == range->kind && t.first == range->first && t.count == range->count;
                });
                usable = match != own.end() && kit.registerNamed(range->kind, range->first, range->count) == op.getReg();
                if (usable)
                    shape.slots.push_back({i, std::size_t(match - own.begin()), int(range->count)});
                for (std::size_t t = 0; t < own.size(); ++t)
                    used[t] =
                        used[t] || (own[t].kind == range->kind && own[t].first == range->first && own[t].count == range->count);
            }
        }
        // And the other way round: each register-looking word must be an operand. (In
        // "image_load … a16", a16 is a flag; with a17 there the line is an error.)
        shape.usable = usable && std::all_of(used.begin(), used.end(), [](bool u) { return u; });
        // Each value token must be exactly one immediate operand holding exactly that value (not
        // scaled, negated or split by the parser), and no two tokens may share a value: then the
        // line's own value goes into that operand and the encoder does the rest.
        const std::span<const std::uint64_t> ownValues(candidateValues.data() + first.firstValue, first.valueCount);
        for (std::size_t t = 0; t < ownValues.size() && shape.usable; ++t) {
            const auto value = std::int64_t(ownValues[t]);
            int matches = 0;
            unsigned at = 0;
            for (unsigned i = 0; i < shape.inst->getNumOperands(); ++i)
                if (shape.inst->getOperand(i).isImm() && shape.inst->getOperand(i).getImm() == value) {
                    ++matches;
                    at = i;
                }
            const bool shared = std::count(ownValues.begin(), ownValues.end(), ownValues[t]) > 1;
            shape.usable = matches == 1 && !shared;
            if (shape.usable)
                shape.valueSlots.emplace_back(at, t);
        }
    }

    // Encode every line of a usable shape, and write the text LLVM parses instead.
    std::vector<std::int64_t> plannedSize(lines.size(), -1);
    plan.instructions.reserve(candidates.size());
    plan.lineOffsets.reserve(candidates.size());
    // A candidate's tokens for its ShapeText.
    struct LineTokens {
        const Candidate* candidate;
        const std::vector<RegToken>* registers;
        const std::vector<std::uint64_t>* values;
        static void read(const void* context, ShapeTokens& tokens)
        {
            const auto& line = *static_cast<const LineTokens*>(context);
            tokens.read(std::span(line.registers->data() + line.candidate->firstToken, line.candidate->tokenCount),
                        std::span(line.values->data() + line.candidate->firstValue, line.candidate->valueCount));
        }
    };
    ShapeTokens lineTokens;
    std::string written;
    for (auto& candidate : candidates) {
        Shape& shape = shapes[std::size_t(candidate.shape)];
        if (!shape.usable)
            continue;
        // The shape's own instruction takes each line's registers and values in turn (every slot
        // is written for every line; a copy per line was an eighth of the pass's own time).
        llvm::MCInst& inst = *shape.inst;
        bool ok = true;
        for (const auto& slot : shape.slots) {
            const RegToken& token = candidateTokens[candidate.firstToken + slot.token];
            const unsigned reg = kit.registerNamed(token.kind, token.first, slot.count);
            ok = ok && reg != 0;
            if (ok)
                inst.getOperand(slot.operand).setReg(reg);
        }
        if (!ok)
            continue;
        for (const auto& [operand, token] : shape.valueSlots)
            inst.getOperand(operand).setImm(std::int64_t(candidateValues[candidate.firstValue + token]));
        Emission e; // described here, kept as a PlannedInstruction (what a program takes of it)
        if (!fastPaths().printedShapes || shape.printed.state() == PrintedShape::State::Refused) {
            session.streamer->describe(inst, *shape.subtarget, e);
        } else {
            const LineTokens line {&candidate, &candidateTokens, &candidateValues};
            ShapeText text(shape.printed, lineTokens, &LineTokens::read, &line, written);
            session.streamer->describe(inst, *shape.subtarget, e, &text);
        }
        plannedSize[candidate.line] = e.size;
        plan.instructions.emplace_back(e);
        plan.lineOffsets.push_back(candidate.line);
    }
    if (plan.instructions.empty())
        return {};

    std::string parsed;
    parsed.reserve(text.size());
    std::size_t next = 0; // into plan.instructions
    for (std::size_t l = 0; l < lines.size(); ++l) {
        if (l > 0)
            parsed += '\n';
        if (plannedSize[l] < 0) {
            parsed.append(lines[l]);
            continue;
        }
        ShapePlan::Run run;
        run.first = next;
        std::int64_t bytes = 0;
        std::size_t end = l;
        while (end < lines.size() && plannedSize[end] >= 0) {
            bytes += plannedSize[end];
            ++end;
        }
        run.count = end - l;
        // The run's first line says ".skip <its bytes>"; its other lines are empty, inside a block
        // comment that opens after the .skip and closes on the run's last line. The line ends stay
        // (every location's line number holds), but LLVM's lexer passes them as one comment: an
        // empty statement per line was 3% of a 100k-line plain-text listing (issue #18).
        run.lineBegin = parsed.size();
        plan.lineOffsets[next++] = parsed.size();
        parsed += ".skip " + std::to_string(bytes);
        run.lineEnd = parsed.size();
        if (end - l > 1) {
            parsed += " /*";
            for (std::size_t k = l + 1; k < end; ++k) // (each line's offset: one newline on)
                plan.lineOffsets[next++] = parsed.size() + (k - l);
            parsed.append(end - l - 1, '\n');
            parsed += "*/";
        }
        plan.runs.push_back(run);
        l = end - 1;
    }
    return parsed;
}

} // namespace gcnlens::detail
