// SPDX-License-Identifier: MIT
#include "core/asm/splice_p.h"

#include "core/asm/linescan_p.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace gcnlens::detail {

namespace {

std::size_t commonPrefix(std::string_view a, std::string_view b)
{
    const std::size_t n = std::min(a.size(), b.size());
    constexpr std::size_t block = 4096;
    std::size_t i = 0;
    while (i + block <= n && std::memcmp(a.data() + i, b.data() + i, block) == 0)
        i += block;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

std::size_t commonSuffix(std::string_view a, std::string_view b, std::size_t limit)
{
    constexpr std::size_t block = 4096;
    std::size_t s = 0;
    while (s + block <= limit && std::memcmp(a.data() + a.size() - s - block, b.data() + b.size() - s - block, block) == 0)
        s += block;
    while (s < limit && a[a.size() - 1 - s] == b[b.size() - 1 - s])
        ++s;
    return s;
}

} // namespace

LineEdit diffLines(std::string_view before, std::string_view after)
{
    LineEdit edit;
    const std::size_t p = commonPrefix(before, after);
    if (p == before.size() && p == after.size()) {
        edit.identical = true;
        return edit;
    }
    const std::size_t newline = p == 0 ? std::string_view::npos : before.rfind('\n', p - 1);
    const std::size_t lineStart = newline == std::string_view::npos ? 0 : newline + 1;
    edit.prefixLines = int(countNewlines(before.substr(0, lineStart)));
    // The common tail may not reach back into the equal lines at the front.
    const std::size_t s = commonSuffix(before, after, std::min(before.size(), after.size()) - lineStart);
    const std::size_t tailOld = before.size() - s, tailNew = after.size() - s;
    const auto startsLine = [](std::string_view text, std::size_t at) { return at == 0 || text[at - 1] == '\n'; };
    // The first line that lies wholly in the common tail, in both texts.
    std::size_t equalFrom = std::string_view::npos;
    if (startsLine(before, tailOld) && startsLine(after, tailNew)) {
        equalFrom = tailOld;
    } else if (const auto n = before.find('\n', tailOld); n != std::string_view::npos) {
        equalFrom = n + 1;
    }
    std::size_t oldEnd = before.size(), newEnd = after.size();
    bool oldEmpty = false, newEmpty = false;
    if (equalFrom != std::string_view::npos) {
        const std::size_t equalFromNew = equalFrom + after.size() - before.size();
        oldEmpty = equalFrom == lineStart;
        newEmpty = equalFromNew == lineStart;
        oldEnd = oldEmpty ? lineStart : equalFrom - 1;
        newEnd = newEmpty ? lineStart : equalFromNew - 1;
    }
    edit.oldText = before.substr(lineStart, oldEnd - lineStart);
    edit.newText = after.substr(lineStart, newEnd - lineStart);
    edit.oldCount = oldEmpty ? 0 : int(countNewlines(edit.oldText)) + 1;
    edit.newCount = newEmpty ? 0 : int(countNewlines(edit.newText)) + 1;
    return edit;
}

// Splices the re-assembled lines [first, first + newCount) into the previous program, which had
// [first, first + oldCount) there. Returns false, having changed nothing, when the edit needs a
// full run after all. Work is proportional to the edit, plus one pass over later instructions
// when the edit moves them (a different size or line count).
bool splice(Program& program, Program& mini, int first, int oldCount, int newCount, const std::vector<std::string_view>& newLines,
            bool layoutBarrierAfter, RegisterTally& registers)
{
    auto& insts = program.instructions;
    auto& byLine = program.lineToInstructions;
    const int lastOld = first + oldCount - 1; // 1-based lines
    // The instructions of the old lines: one contiguous run.
    std::size_t begin = insts.size(), end = 0, onLines = 0;
    for (auto it = byLine.lowerBound(first); it != byLine.end() && it->first <= lastOld; ++it)
        for (const int index : it->second) {
            begin = std::min(begin, std::size_t(index));
            end = std::max(end, std::size_t(index) + 1);
            ++onLines;
        }
    if (onLines == 0) {
        // Nothing was emitted from the old lines: insert before the first instruction after them.
        const auto next = byLine.lowerBound(lastOld + 1);
        begin = end = next == byLine.end() ? insts.size() : std::size_t(next->second.front());
    } else if (onLines != end - begin) {
        return false; // not contiguous
    }
    // Lines and instructions must agree in order around the edit (they do outside .rept bodies).
    if ((begin > 0 && insts[begin - 1].line >= first) || (end < insts.size() && insts[end].line <= lastOld))
        return false;

    const std::uint64_t at = begin < insts.size() ? program.sectionOffset(insts[begin])
        : insts.empty()                           ? 0
                                                  : program.sectionOffset(insts.back()) + std::uint64_t(insts.back().size);
    std::uint64_t oldBytes = 0;
    for (std::size_t i = begin; i < end; ++i)
        oldBytes += std::uint64_t(insts[i].size);

    std::vector<Instruction>& added = mini.instructions;
    // A half-typed line keeps the size it had while it still assembled (program.h).
    // (A placeholder that already inherited a size passes it on while the user keeps typing.)
    if (oldCount == 1 && newCount == 1 && added.size() == 1 && added[0].placeholder && end - begin == 1) {
        added[0].size = insts[begin].size;
        added[0].operands = "assumed " + std::to_string(added[0].size) + " bytes (its size before this edit)";
    }
    std::uint64_t newBytes = 0;
    for (const auto& inst : added)
        newBytes += std::uint64_t(inst.size);
    const std::int64_t deltaBytes = std::int64_t(newBytes) - std::int64_t(oldBytes);
    const int deltaLines = newCount - oldCount;
    const int deltaCount = int(added.size()) - int(end - begin);

    // Alignment padding after the edit would change size with the offsets: leave that to a full run.
    if (deltaBytes != 0 && layoutBarrierAfter)
        return false;

    // The kernel the edit lies in: the one around it whose entry line comes before it (code
    // before any entry label forms a kernel that starts at its first line). An edit in front of
    // every kernel, where a fresh run would start a new one, takes the full run.
    const auto unlabelled = [&](int k) { return program.kernels[std::size_t(k)].name.starts_with('('); };
    int kernel = -1;
    for (const std::size_t neighbour : {begin, begin - 1})
        if (neighbour < insts.size()) {
            const int candidate = insts[neighbour].kernel;
            const int entry = candidate >= 0 ? program.kernels[std::size_t(candidate)].line : 0;
            if (candidate >= 0 && (entry < first || (unlabelled(candidate) && entry <= first))
                && (kernel < 0 || program.kernels[std::size_t(candidate)].line > program.kernels[std::size_t(kernel)].line))
                kernel = candidate;
        }
    if (kernel < 0)
        return false;
    // A kernel without instructions whose entry lies between that one's and the edit ("b:" with
    // nothing after it yet) is where a fresh run puts the new lines: a full run decides (fuzz_frontend 5c37ab3a).
    const int chosenEntry = program.kernels[std::size_t(kernel)].line;
    for (std::size_t k = 0; k < program.kernels.size(); ++k)
        if (int(k) != kernel && program.kernels[k].line > chosenEntry && program.kernels[k].line < first)
            return false;
    // An unlabelled kernel exists only while it has instructions.
    if (unlabelled(kernel)
        && program.kernels[std::size_t(kernel)].endInstruction - program.kernels[std::size_t(kernel)].firstInstruction
                + deltaCount
            <= 0)
        return false;
    // Code before any label forms the kernel "(top)" only while a fresh run meets an instruction
    // before the first label: an edit that removes the instructions ahead of a label makes that
    // label the kernel (programbuild.cpp; fuzz_frontend 1229bf61). (Insertions ahead of a
    // labelled first kernel were refused above.)
    if (program.kernels[std::size_t(kernel)].name == "(top)"
        && begin == std::size_t(program.kernels[std::size_t(kernel)].firstInstruction)) {
        const int newFirstLine = !added.empty() ? first + added.front().line - 1
            : end < insts.size()                ? insts[end].line + deltaLines
                                                : 0;
        if (newFirstLine > 0 && std::any_of(program.labels.begin(), program.labels.end(), [&](const Label& l) {
                return (l.line > lastOld ? l.line + deltaLines : l.line) <= newFirstLine;
            }))
            return false;
    }
    const std::uint64_t kernelStart = program.kernels[std::size_t(kernel)].sectionOffset;
    for (auto& inst : added) {
        const int lineIndex = first + inst.line - 1; // mini lines are 1-based
        inst.line = lineIndex;
        const std::string_view text = newLines[std::size_t(lineIndex - first)];
        std::size_t b = 0;
        while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b])))
            ++b;
        inst.columnBegin = int(b);
        inst.columnEnd = int(b + codeOf(text.substr(b)).size());
        const std::uint64_t miniOffset = inst.offset;
        inst.offset = mini.sectionOffset(inst) + at - kernelStart;
        inst.kernel = kernel;
        // A raw branch offset ("s_cbranch_execz 6") counts from the instruction (fuzz_frontend 90232f43).
        if (inst.targetLabel().empty() && inst.targetOffset())
            inst.setTargetOffset(*inst.targetOffset() - miniOffset + inst.offset);
    }

    if (insts.size() + added.size() == end - begin)
        return false; // the program becomes empty: a full run says so
    // A label after the edit keeps its kernel: its offset in it moves with the edit when that is
    // the edited kernel, whose start stays (fuzz_frontend 25be84ca: "done:" at the end of one
    // kernel, at the offset where the next one began once the edit took 4 bytes away). Its kernel
    // is the one it was measured from; a later kernel that started at the same offset would
    // leave that open: a full run then.
    const std::uint64_t editedStart = program.kernels[std::size_t(kernel)].sectionOffset;
    if (deltaBytes != 0)
        for (std::size_t k = 0; k < program.kernels.size(); ++k)
            if (int(k) != kernel && program.kernels[k].line > lastOld && program.kernels[k].sectionOffset == editedStart)
                return false;

    // From here on the splice cannot fail.
    for (std::size_t i = begin; i < end; ++i)
        registers.add(insts[i], -1);
    for (const auto& inst : added)
        registers.add(inst, +1);
    registers.store(program);

    const bool moves = deltaBytes != 0 || deltaLines != 0;
    if (moves)
        for (std::size_t i = end; i < insts.size(); ++i) {
            // (A later kernel's instructions move with its start, below.)
            Instruction& inst = insts[i];
            if (inst.kernel == kernel) {
                inst.offset = std::uint64_t(std::int64_t(inst.offset) + deltaBytes);
                if (inst.targetLabel().empty() && inst.targetOffset())
                    inst.setTargetOffset(std::uint64_t(std::int64_t(*inst.targetOffset()) + deltaBytes));
            }
            // (Instructions are not always in line order: .rept output stands on the .rept line.)
            if (inst.line > lastOld)
                inst.line += deltaLines;
        }
    if (deltaCount == 0) {
        std::move(added.begin(), added.end(), insts.begin() + std::ptrdiff_t(begin));
    } else {
        insts.erase(insts.begin() + std::ptrdiff_t(begin), insts.begin() + std::ptrdiff_t(end));
        insts.insert(insts.begin() + std::ptrdiff_t(begin), std::make_move_iterator(added.begin()),
                     std::make_move_iterator(added.end()));
    }
    const std::size_t addedEnd = begin + (end - begin) + std::size_t(deltaCount);

    // line → instructions: drop the old lines, renumber what follows, add the new lines.
    std::vector<std::pair<int, int>> addedByLine;
    for (std::size_t i = begin; i < addedEnd; ++i)
        addedByLine.emplace_back(insts[i].line, int(i));
    byLine.splice(first, lastOld, deltaLines, int(end), deltaCount, addedByLine);

    for (auto& label : program.labels)
        if (label.line > lastOld) {
            if (label.sectionOffset - label.offset == editedStart)
                label.offset = std::uint64_t(std::int64_t(label.offset) + deltaBytes);
            label.sectionOffset = std::uint64_t(std::int64_t(label.sectionOffset) + deltaBytes);
            label.line += deltaLines;
        }
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
        Kernel& other = program.kernels[k];
        if (int(k) == kernel) {
            other.endInstruction += deltaCount;
            if (unlabelled(kernel))
                other.line = insts[std::size_t(other.firstInstruction)].line;
        } else if (other.line > lastOld) {
            other.sectionOffset = std::uint64_t(std::int64_t(other.sectionOffset) + deltaBytes);
            other.firstInstruction += deltaCount;
            other.endInstruction += deltaCount;
            other.line += deltaLines;
        }
    }
    if (deltaBytes != 0 || deltaCount != 0)
        for (auto& label : program.labels) {
            // The first instruction at or after the label (instructions are in offset order).
            const auto next =
                std::lower_bound(insts.begin(), insts.end(), label.sectionOffset,
                                 [&](const Instruction& i, std::uint64_t offset) { return program.sectionOffset(i) < offset; });
            label.instruction = next == insts.end() ? -1 : int(next - insts.begin());
        }

    std::vector<Diagnostic> diagnostics;
    bool inserted = false;
    const auto addMini = [&] {
        for (Diagnostic d : mini.diagnostics) {
            d.line = first + d.line - 1;
            diagnostics.push_back(std::move(d));
        }
        inserted = true;
    };
    for (auto& d : program.diagnostics) {
        if (d.line >= first && d.line <= lastOld)
            continue;
        if (d.line > lastOld) {
            if (!inserted)
                addMini();
            d.line += deltaLines;
        }
        diagnostics.push_back(std::move(d));
    }
    if (!inserted)
        addMini();
    program.diagnostics = std::move(diagnostics);
    for (auto& directive : program.directives)
        if (directive.line > lastOld)
            directive.line += deltaLines;

    // Branch targets: everywhere when something moved, else only in the replaced lines.
    std::unordered_map<std::string, std::size_t> labelIndex;
    for (std::size_t l = 0; l < program.labels.size(); ++l)
        labelIndex[program.labels[l].name] = l;
    if (deltaBytes != 0 || deltaCount != 0)
        resolveBranches(program, labelIndex);
    else
        resolveBranches(program, labelIndex, begin, addedEnd);
    return true;
}

std::uint64_t programDigest(const Program& program)
{
    // FNV-1a over what a splice moves: counts, the kernels' ranges, the last instruction's place,
    // the register usage. O(kernels), so that both ends can afford it on every keystroke.
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xff;
            h *= 1099511628211ull;
        }
    };
    mix(program.instructions.size());
    mix(program.labels.size());
    mix(program.diagnostics.size());
    mix(program.directives.size());
    mix(program.kernels.size());
    for (const auto& k : program.kernels) {
        mix(std::uint64_t(k.firstInstruction));
        mix(std::uint64_t(k.endInstruction));
        mix(std::uint64_t(k.line));
        mix(k.sectionOffset);
    }
    if (!program.instructions.empty()) {
        const Instruction& last = program.instructions.back();
        mix(program.sectionOffset(last));
        mix(std::uint64_t(last.size));
        mix(std::uint64_t(last.line));
    }
    const RegisterUsage& r = program.registers;
    mix(std::uint64_t(r.maxVgpr));
    mix(std::uint64_t(r.maxSgpr));
    mix(std::uint64_t(r.maxAgpr));
    return h;
}

bool SpliceStep::apply(Program& program, RegisterTally& registers) const
{
    Program lines = mini; // splice() moves the instructions out
    std::string_view text(region);
    if (!text.empty() && text.back() == '\n')
        text.remove_suffix(1);
    const std::vector<std::string_view> newLines = newCount ? splitLines(text) : std::vector<std::string_view> {};
    if (int(newLines.size()) != newCount || !splice(program, lines, first, oldCount, newCount, newLines, barrierAfter, registers))
        return false;
    return programDigest(program) == digest;
}

} // namespace gcnlens::detail
