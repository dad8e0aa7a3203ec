// SPDX-License-Identifier: MIT
// Fix-its (docs/model.md §8). Candidates are built as line operations on the source (insert lines,
// move one line, replace a span), each measured by the real front-end and the judging passes (on a
// kernel's prefix where that holds, see KernelPrefix); the best passing one is offered. Moves only
// cross instructions the moved one is register-independent of (Instruction::defs/uses), never a
// label, a branch other than the one being fixed, an s_waitcnt or any other SOPP but s_nop, and
// never move memory or state instructions.
#include "core/model/fixits.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <exception>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <sstream>
#include <thread>
#include <tuple>

namespace gcnlens {

namespace {

struct Lines {
    std::vector<std::string> lines;
    bool finalNewline = true;
};

Lines splitLines(const std::string& text)
{
    Lines out;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = text.find('\n', at);
        if (end == std::string::npos) {
            out.lines.push_back(text.substr(at));
            out.finalNewline = false;
            break;
        }
        out.lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

bool isFetchRule(const std::string& rule)
{
    return rule == "fetch-align" || rule == "fetch-straddle";
}
bool isHazardRule(const std::string& rule)
{
    return rule.rfind("W-", 0) == 0;
}

// A candidate: the edits, and where each original line lands after them (index = old line).
struct Candidate {
    std::string kind;
    std::string summary;
    std::vector<TextEdit> edits;
    std::vector<int> lineMap;
};

std::vector<int> identityMap(int lineCount)
{
    std::vector<int> map(lineCount + 2);
    for (int l = 0; l < int(map.size()); ++l)
        map[l] = l;
    return map;
}

std::string indentOf(const std::string& line)
{
    std::size_t n = 0;
    while (n < line.size() && (line[n] == ' ' || line[n] == '\t'))
        ++n;
    return line.substr(0, n);
}

Candidate insertBefore(const Lines& src, int line, const std::vector<std::string>& newLines, std::string kind,
                       std::string summary)
{
    Candidate c {std::move(kind), std::move(summary), {}, identityMap(int(src.lines.size()))};
    const std::string indent = line <= int(src.lines.size()) ? indentOf(src.lines[line - 1]) : std::string();
    std::string text;
    for (const std::string& l : newLines)
        text += indent + l + "\n";
    c.edits.push_back({line, 0, line, 0, text});
    for (int l = line; l < int(c.lineMap.size()); ++l)
        c.lineMap[l] = l + int(newLines.size());
    return c;
}

// Moves `moved` lines (ascending, kept in their order) so that they come right before line
// `before` of the original text.
Candidate moveLines(const Lines& src, const std::vector<int>& moved, int before, std::string summary)
{
    const int n = int(src.lines.size());
    Candidate c {"move", std::move(summary), {}, identityMap(n)};
    std::string text;
    for (int l : moved) {
        c.edits.push_back({l, 0, l + 1, 0, {}});
        text += src.lines[l - 1] + "\n";
    }
    c.edits.push_back({before, 0, before, 0, text});
    std::vector<int> order; // the new text's lines, as old line numbers
    for (int l = 1; l <= n + 1; ++l) {
        if (l == before)
            order.insert(order.end(), moved.begin(), moved.end());
        if (l <= n && !std::count(moved.begin(), moved.end(), l))
            order.push_back(l);
    }
    for (int at = 0; at < int(order.size()); ++at)
        c.lineMap[order[at]] = at + 1;
    return c;
}

Candidate moveLine(const Lines& src, int from, int before, std::string summary)
{
    return moveLines(src, {from}, before, std::move(summary));
}

bool overlaps(const RegRange& a, const RegRange& b)
{
    // VCC is SGPRs 106/107; anything near them counts as touching it (conservative).
    if ((a.kind == RegKind::VCC && b.kind == RegKind::SGPR) || (b.kind == RegKind::VCC && a.kind == RegKind::SGPR)) {
        const RegRange& s = a.kind == RegKind::SGPR ? a : b;
        return s.first + s.count > 104;
    }
    if (a.kind != b.kind)
        return false;
    return a.first < b.first + b.count && b.first < a.first + a.count;
}

bool anyOverlap(std::span<const RegRange> a, std::span<const RegRange> b)
{
    for (const RegRange& x : a)
        for (const RegRange& y : b)
            if (overlaps(x, y))
                return true;
    return false;
}

// No register dependency between the two in either order (RAW, WAR, WAW).
bool independent(const Instruction& j, const Instruction& x)
{
    return !anyOverlap(j.defs, x.defs) && !anyOverlap(j.defs, x.uses) && !anyOverlap(j.uses, x.defs);
}

bool mnemonicHasAny(const std::string& m, std::initializer_list<const char*> parts)
{
    for (const char* p : parts)
        if (m.find(p) != std::string::npos)
            return true;
    return false;
}

// Instructions whose effect depends on their place beyond registers: the PC, modes, the
// scheduler, messages, traps, memory ordering.
bool isPlaceSensitive(const std::string& m)
{
    return mnemonicHasAny(m, {"getpc",   "setpc",  "swappc",  "rfe",    "setreg",    "getreg",  "gpr_idx",  "setprio",
                              "sethalt", "sleep",  "trap",    "icache", "waitcnt",   "barrier", "sendmsg",  "cbranch",
                              "call",    "endpgm", "setkill", "ttrace", "perflevel", "s_set_",  "s_denorm", "s_round"});
}

bool aluFamily(Family f)
{
    switch (f) {
    case Family::SOP1:
    case Family::SOP2:
    case Family::SOPK:
    case Family::SOPC:
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VOP3:
    case Family::VOP3P:
    case Family::SDWA:
    case Family::DPP:
        return true;
    default:
        return false;
    }
}

// Kernel-scoped runs (docs/model.md §8). In a file of several kernels a candidate's edits lie in
// the finding's kernel k, and LLVM reads the text in order: the text through kernel k+1's entry
// label assembles to the same kernels 0…k whether the rest follows or not, unless something there
// refers forward past that point. That is tried once per kernel on the unedited text: the prefix
// must give exactly the whole run's kernels 0…k, their labels and diagnostics, and kernel k+1's
// start. A candidate's edits add no symbol, so its prefix then stands for its whole text up to
// the cut. Past the cut nothing changes while kernel k+1 still starts where it did (checked on
// each run): the same text at the same offsets, and every pass works per kernel (the timing pass
// restarts at each kernel, the CFG has a region per kernel, a branch out of one is an exit).
struct KernelPrefix {
    bool usable = false;
    int cutLine = 0;           // kernel k+1's entry-label line, the last line of the prefix
    std::size_t cutOffset = 0; // the prefix's length in the unedited text
    std::string nextKernel;    // kernel k+1's name
    std::uint64_t nextStart = 0;
    int errors = 0;            // errors of the unedited prefix
    long long laterCycles = 0; // single-wave cycles of kernels k+1… (timing-model.md §5)
};

// The kernels' prefixes, shared by the findings (and the threads) of one search: each kernel's
// is tried once, by the first finding that asks.
class Prefixes {
public:
    template <typename Make> const KernelPrefix& of(int kernel, Make make)
    {
        Slot* slot = nullptr;
        {
            const std::lock_guard lock(mutex_);
            slot = &slots_[kernel]; // map nodes stay where they are
        }
        std::call_once(slot->once, [&] { slot->prefix = make(); });
        return slot->prefix;
    }
    int usable() const
    {
        const std::lock_guard lock(mutex_);
        return int(std::count_if(slots_.begin(), slots_.end(), [](const auto& s) { return s.second.prefix.usable; }));
    }

private:
    struct Slot {
        std::once_flag once;
        KernelPrefix prefix;
    };
    mutable std::mutex mutex_;
    std::map<int, Slot> slots_;
};

struct Context {
    const std::string& source;
    const Analysis& analysis;
    const AnalysisRequest& request;
    const AssembleFunction& assemble;
    const FindingRef& finding;
    const Lines& src;
    const std::set<int>& labelLines;
    int errors;                   // the unedited program's errors
    Prefixes* prefixes = nullptr; // none: every candidate on the whole text
    FixItStats* stats = nullptr;
    bool alone = false; // one finding searched (the window's preview): no other shares a prefix's first run
};

// The instruction is alone on its line and written there (not from a macro, .rept or include).
bool ownLine(const Context& ctx, int index)
{
    const Instruction& in = ctx.analysis.program.instructions[index];
    if (in.fromExpansion || in.line <= 0 || in.line > int(ctx.src.lines.size()))
        return false;
    const auto it = ctx.analysis.program.lineToInstructions.find(in.line);
    return it != ctx.analysis.program.lineToInstructions.end() && it->second.size() == 1;
}

bool movable(const Context& ctx, int index)
{
    const Instruction& in = ctx.analysis.program.instructions[index];
    if (!ownLine(ctx, index) || in.isData || in.placeholder || in.branch != BranchKind::None || ctx.labelLines.count(in.line))
        return false;
    if (in.mnemonic == "s_nop")
        return true;
    return aluFamily(in.family) && !isPlaceSensitive(in.mnemonic);
}

bool crossable(const Context& ctx, int index)
{
    const Instruction& in = ctx.analysis.program.instructions[index];
    if (!ownLine(ctx, index) || in.isData || in.placeholder || in.branch != BranchKind::None)
        return false;
    if (in.family == Family::SOPP && in.mnemonic != "s_nop")
        return false;
    return !isPlaceSensitive(in.mnemonic);
}

bool blankOrComment(const std::string& line)
{
    const std::size_t at = line.find_first_not_of(" \t\r");
    if (at == std::string::npos)
        return true;
    return line[at] == ';' || line[at] == '#' || line.compare(at, 2, "//") == 0;
}

// Lines (first, last] hold no label, and the lines between the instructions are blank or comments.
bool plainSpan(const Context& ctx, int firstIndex, int lastIndex)
{
    const auto& ins = ctx.analysis.program.instructions;
    const int kernel = ins[firstIndex].kernel;
    std::set<int> instructionLines;
    for (int i = firstIndex; i <= lastIndex; ++i) {
        if (ins[i].kernel != kernel)
            return false;
        instructionLines.insert(ins[i].line);
    }
    const int from = ins[firstIndex].line, to = ins[lastIndex].line;
    if (from >= to)
        return false;
    for (int l = from; l <= to; ++l) {
        if (ctx.labelLines.count(l) && l != from)
            return false;
        if (!instructionLines.count(l) && !blankOrComment(ctx.src.lines[l - 1]))
            return false;
    }
    return true;
}

// The registers J writes are dead where the branch goes: on the taken path they are written
// before any read, or the wave ends. Straight-line scan from the target; anything else (another
// branch first, the kernel's end) refuses (conservative).
bool deadAtTarget(const Context& ctx, const Instruction& branch, const Instruction& j)
{
    const auto& ins = ctx.analysis.program.instructions;
    if (branch.targetIndex() < 0)
        return false;
    std::vector<RegRange> pending = j.defs.toVector();
    for (int i = branch.targetIndex(); i < int(ins.size()) && i < branch.targetIndex() + 64; ++i) {
        const Instruction& x = ins[i];
        if (x.kernel != branch.kernel)
            return false;
        if (anyOverlap(pending, x.uses))
            return false;
        std::erase_if(pending, [&](const RegRange& r) {
            return std::any_of(x.defs.begin(), x.defs.end(), [&](const RegRange& d) {
                return d.kind == r.kind && d.first <= r.first && r.first + r.count <= d.first + d.count;
            });
        });
        if (pending.empty() || x.branch == BranchKind::Return)
            return true;
        if (x.branch != BranchKind::None)
            return false;
    }
    return false;
}

std::string statementText(const Context& ctx, const Instruction& in)
{
    const std::string& line = ctx.src.lines[in.line - 1];
    const int end = std::min<int>(in.columnEnd, int(line.size()));
    return in.columnBegin < end ? line.substr(in.columnBegin, end - in.columnBegin) : std::string();
}

std::string shortName(const Instruction& in)
{
    return in.mnemonic + (in.operands.empty() ? "" : " " + in.operands);
}

// 1-dword spellings of a 2-dword instruction for LLVM's encoder to judge: the mnemonic without an
// explicit _e64 (LLVM picks the shortest encoding that holds the operands), and a `lit(x)` written
// as x (an inline constant where the value is one). Kept only if LLVM encodes it in 4 bytes as the
// same operation on the same registers (checked in evaluate()).
std::vector<Candidate> shortEncodings(const Context& ctx, int index)
{
    std::vector<Candidate> out;
    const Instruction& in = ctx.analysis.program.instructions[index];
    if (in.size != 8 || !ownLine(ctx, index))
        return out;
    const std::string text = statementText(ctx, in);
    const auto replaceSpan = [&](std::size_t at, std::size_t length, const std::string& with, std::string summary) {
        Candidate c {"short-encoding", std::move(summary), {}, identityMap(int(ctx.src.lines.size()))};
        const int column = in.columnBegin + int(at);
        c.edits.push_back({in.line, column, in.line, column + int(length), with});
        out.push_back(std::move(c));
    };
    const std::size_t nameEnd = text.find_first_of(" \t");
    const std::string name = text.substr(0, nameEnd);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, "_e64") == 0) {
        replaceSpan(name.size() - 4, 4, "", "use the 1-dword encoding: " + name.substr(0, name.size() - 4));
        replaceSpan(name.size() - 4, 4, "_e32", "use the 1-dword encoding: " + name.substr(0, name.size() - 4) + "_e32");
    }
    for (std::size_t at = text.find("lit("); at != std::string::npos; at = text.find("lit(", at + 1)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_'))
            continue;
        const std::size_t close = text.find(')', at);
        if (close == std::string::npos)
            break;
        const std::string value = text.substr(at + 4, close - at - 4);
        replaceSpan(at, close + 1 - at, value, "write " + value + " as an inline constant");
    }
    return out;
}

// The text's mnemonic as LLVM names the 32-bit encoding: v_add_f32_e64 → v_add_f32_e32.
std::string e32Name(std::string m)
{
    if (m.size() > 4 && m.compare(m.size() - 4, 4, "_e64") == 0)
        m.replace(m.size() - 4, 4, "_e32");
    return m;
}

bool sameRegisters(std::vector<RegRange> a, std::vector<RegRange> b)
{
    const auto key = [](const RegRange& r) { return std::tuple(int(r.kind), r.first, r.count); };
    const auto less = [&](const RegRange& x, const RegRange& y) { return key(x) < key(y); };
    std::sort(a.begin(), a.end(), less);
    std::sort(b.begin(), b.end(), less);
    a.erase(std::unique(a.begin(), a.end()), a.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    return a == b;
}

int errorCount(const Program& p)
{
    return int(std::count_if(p.diagnostics.begin(), p.diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

// The passes a candidate is judged by, as analyzeProgram runs them: the timing pass (the penalty
// and the totals) and the checks on the CFG. Liveness, LDS and occupancy decide nothing here, and
// were a third of each candidate's analysis.
Analysis analyzeForFixIt(Program program, const AnalysisRequest& request)
{
    Analysis analysis;
    analysis.program = std::move(program);
    analysis.timing = analyzeTiming(analysis.program, request.timing, request.branches);
    analysis.cfg = buildCfg(analysis.program);
    analysis.checks = analyzeChecks(analysis.program, analysis.cfg, request.timing);
    return analysis;
}

// Where 1-based `line` starts in `text` (its length past the last line).
std::size_t lineStart(const std::string& text, int line)
{
    std::size_t at = 0;
    for (int l = 1; l < line; ++l) {
        const std::size_t newline = text.find('\n', at);
        if (newline == std::string::npos)
            return text.size();
        at = newline + 1;
    }
    return at;
}

// Where the prefix's last line, kernel k+1's entry label (at `cutLine` of the text it was cut
// from), lies in the code section; ~0 when it is not there.
std::uint64_t nextStartIn(const Program& part, const KernelPrefix& prefix, int cutLine)
{
    for (auto it = part.labels.rbegin(); it != part.labels.rend(); ++it)
        if (it->line == cutLine && it->name == prefix.nextKernel)
            return it->sectionOffset;
    return ~std::uint64_t {0};
}

// Kernel `k`'s prefix, tried on the unedited text.
KernelPrefix tryPrefix(const Context& ctx, int k)
{
    KernelPrefix prefix;
    const Program& whole = ctx.analysis.program;
    const TimingResult& timing = ctx.analysis.timing;
    if (k < 0 || k + 1 >= int(whole.kernels.size()) || timing.kernelTotals.size() != whole.kernels.size())
        return prefix;
    // The file's total is the kernels' sum (no instruction outside a kernel).
    long long sum = 0, later = 0;
    for (std::size_t j = 0; j < timing.kernelTotals.size(); ++j) {
        sum += timing.kernelTotals[j].singleWaveCycles;
        if (int(j) > k)
            later += timing.kernelTotals[j].singleWaveCycles;
    }
    const Kernel& next = whole.kernels[std::size_t(k + 1)];
    if (sum != timing.totals.singleWaveCycles || next.line <= whole.kernels[std::size_t(k)].line)
        return prefix;
    prefix.cutLine = next.line;
    prefix.cutOffset = lineStart(ctx.source, next.line + 1);
    prefix.nextKernel = next.name;
    prefix.nextStart = next.sectionOffset;
    prefix.laterCycles = later;
    if (ctx.stats)
        ++ctx.stats->prefixRuns;
    const Program part = ctx.assemble(ctx.source.substr(0, prefix.cutOffset));
    const int end = whole.kernels[std::size_t(k)].endInstruction;
    const auto upToCut = [&](const auto& items) {
        return std::count_if(items.begin(), items.end(), [&](const auto& item) { return item.line <= prefix.cutLine; });
    };
    bool same = int(part.instructions.size()) == end && int(part.kernels.size()) >= k + 1
        && std::equal(part.instructions.begin(), part.instructions.end(), whole.instructions.begin())
        && std::equal(part.kernels.begin(), part.kernels.begin() + k + 1, whole.kernels.begin())
        && std::ssize(part.diagnostics) == upToCut(whole.diagnostics) && std::ssize(part.labels) == upToCut(whole.labels);
    for (std::size_t i = 0; same && i < part.diagnostics.size(); ++i)
        same = part.diagnostics[i] == whole.diagnostics[i];
    for (std::size_t i = 0; same && i < part.labels.size(); ++i) {
        const Label &a = part.labels[i], &b = whole.labels[i];
        // The entry label of kernel k+1 has no instruction after it in the prefix.
        same = a.name == b.name && a.line == b.line && a.sectionOffset == b.sectionOffset
            && (a.instruction == b.instruction || a.line == prefix.cutLine);
    }
    prefix.usable = same && nextStartIn(part, prefix, prefix.cutLine) == prefix.nextStart;
    prefix.errors = errorCount(part);
    return prefix;
}

// For a finding searched alone: the prefix's first run, the candidates on it and the fix measured
// again on the whole text cost less, by the text's length, than the candidates on the whole text.
bool prefixPays(const Context& ctx, int candidates)
{
    const Program& whole = ctx.analysis.program;
    const int f = ctx.finding.instruction;
    if (f < 0 || f >= int(whole.instructions.size()) || ctx.source.empty())
        return false;
    const int k = whole.instructions[std::size_t(f)].kernel;
    if (k < 0 || k + 1 >= int(whole.kernels.size()))
        return false;
    const double share = double(lineStart(ctx.source, whole.kernels[std::size_t(k + 1)].line + 1)) / double(ctx.source.size());
    return share * (candidates + 1) + 1 < candidates;
}

// Measures one candidate: on kernel k's prefix when `scoped` and the prefix holds (then
// *onPrefix), else on the whole text.
std::optional<FixIt> evaluate(const Context& ctx, const Candidate& c, bool scoped, bool* onPrefix = nullptr)
{
    const FindingRef& f = ctx.finding;
    const auto mapLine = [&](int line) { return line > 0 && line < int(c.lineMap.size()) ? c.lineMap[line] : line; };
    AnalysisRequest request = ctx.request;
    request.branches.byLine.clear();
    for (const auto& [line, direction] : ctx.request.branches.byLine)
        request.branches.byLine[mapLine(line)] = direction;
    const KernelPrefix* prefix = nullptr;
    if (scoped && ctx.prefixes && f.instruction >= 0) {
        const int kernel = ctx.analysis.program.instructions[std::size_t(f.instruction)].kernel;
        const KernelPrefix& p = ctx.prefixes->of(kernel, [&] { return tryPrefix(ctx, kernel); });
        const bool beforeCut = std::all_of(c.edits.begin(), c.edits.end(), [&](const TextEdit& e) {
            return e.endLine < p.cutLine || (e.endLine == p.cutLine && e.endColumn == 0);
        });
        if (p.usable && beforeCut)
            prefix = &p;
    }
    if (onPrefix)
        *onPrefix = prefix != nullptr;
    std::string edited = applyEdits(ctx.source, c.edits);
    if (prefix)
        edited.resize(prefix->cutOffset + edited.size() - ctx.source.size());
    Program program = ctx.assemble(edited);
    if (ctx.stats)
        ++(prefix ? ctx.stats->prefixRuns : ctx.stats->wholeRuns);
    if (errorCount(program) > (prefix ? prefix->errors : ctx.errors))
        return std::nullopt;
    // Past the cut the file is unchanged only while kernel k+1 starts where it did: else the
    // whole text decides.
    if (prefix && nextStartIn(program, *prefix, mapLine(prefix->cutLine)) != prefix->nextStart)
        return evaluate(ctx, c, false, onPrefix);
    const Analysis after = analyzeForFixIt(std::move(program), request);
    const int line = mapLine(f.line);

    // The finding is gone.
    if (isHazardRule(f.rule)) {
        for (const HazardFinding& h : after.checks.hazards)
            if (h.rule == f.rule && h.line == line)
                return std::nullopt;
    } else {
        const auto it = after.program.lineToInstructions.find(line);
        if (it == after.program.lineToInstructions.end())
            return std::nullopt;
        for (int i : it->second)
            for (const Penalty& p : after.timing.instructions[i].penalties())
                if (p.rule == f.rule)
                    return std::nullopt;
        if (c.kind == "short-encoding") {
            // Equivalence as LLVM's encoder decides it: one instruction, 4 bytes, the 32-bit
            // encoding of the same operation, the same registers read and written.
            const Instruction& old = ctx.analysis.program.instructions[f.instruction];
            if (it->second.size() != 1)
                return std::nullopt;
            const Instruction& now = after.program.instructions[it->second.front()];
            const bool sameOperation = now.mnemonic == e32Name(old.mnemonic) || now.mnemonic == old.mnemonic;
            if (now.size != 4 || !sameOperation || !sameRegisters(old.defs.toVector(), now.defs.toVector())
                || !sameRegisters(old.uses.toVector(), now.uses.toVector()))
                return std::nullopt;
        }
    }
    // No new hazard or s_waitcnt finding: every finding after is one before, at its moved line.
    std::multiset<std::pair<std::string, int>> before;
    bool skippedFixed = false;
    for (const HazardFinding& h : ctx.analysis.checks.hazards) {
        if (!skippedFixed && h.rule == f.rule && h.line == f.line) {
            skippedFixed = true;
            continue;
        }
        before.insert({h.rule, mapLine(h.line)});
    }
    for (const WaitcntFinding& w : ctx.analysis.checks.waits)
        before.insert({w.rule, mapLine(w.line)});
    const auto take = [&](const std::string& rule, int at) {
        const auto it = before.find({rule, at});
        if (it == before.end())
            return false;
        before.erase(it);
        return true;
    };
    for (const HazardFinding& h : after.checks.hazards)
        if (!take(h.rule, h.line))
            return std::nullopt;
    for (const WaitcntFinding& w : after.checks.waits)
        if (!take(w.rule, w.line))
            return std::nullopt;

    FixIt fix;
    fix.finding = f;
    fix.kind = c.kind;
    fix.summary = c.summary;
    fix.edits = c.edits;
    fix.cyclesBefore = ctx.analysis.timing.totals.singleWaveCycles;
    fix.cyclesAfter = after.timing.totals.singleWaveCycles + (prefix ? prefix->laterCycles : 0);
    // A fetch or branch fix is offered for its gain; a hazard fix for correctness, whatever it costs.
    if (!isHazardRule(f.rule) && fix.delta() >= 0)
        return std::nullopt;
    return fix;
}

constexpr int kMoveReach = 4; // how far a moved instruction may come from

std::vector<Candidate> candidates(const Context& ctx)
{
    std::vector<Candidate> out;
    const FindingRef& f = ctx.finding;
    const auto& ins = ctx.analysis.program.instructions;
    if (f.instruction < 0 || f.instruction >= int(ins.size()))
        return out;
    const Instruction& target = ins[f.instruction];
    const int nlines = int(ctx.src.lines.size());
    if (target.line <= 0 || target.line > nlines)
        return out;
    const auto lineName = [&](const Instruction& in) { return "line " + std::to_string(in.line) + " (" + shortName(in) + ")"; };

    if (isHazardRule(f.rule)) {
        for (const HazardFinding& h : ctx.analysis.checks.hazards) {
            if (h.rule != f.rule || h.instruction != f.instruction || h.fix.empty())
                continue;
            std::vector<std::string> nops;
            std::istringstream in(h.fix);
            for (std::string l; std::getline(in, l);)
                nops.push_back(l);
            std::string joined;
            for (const std::string& n : nops)
                joined += (joined.empty() ? "" : ", ") + n;
            out.push_back(insertBefore(ctx.src, target.line, nops, "insert-nop",
                                       "insert " + joined + " before line " + std::to_string(target.line)));
            break;
        }
        return out;
    }

    if (isFetchRule(f.rule)) {
        for (Candidate& c : shortEncodings(ctx, f.instruction))
            out.push_back(std::move(c));
        if (ownLine(ctx, f.instruction) && !ctx.labelLines.count(target.line)) {
            // An instruction before it moves after it: it starts one instruction earlier.
            for (int j = f.instruction - 1; j >= 0 && j >= f.instruction - kMoveReach; --j) {
                bool ok = movable(ctx, j) && plainSpan(ctx, j, f.instruction);
                for (int x = j + 1; ok && x <= f.instruction; ++x)
                    ok = crossable(ctx, x) && independent(ins[j], ins[x]);
                if (ok)
                    out.push_back(moveLine(ctx.src, ins[j].line, target.line + 1,
                                           "move " + lineName(ins[j]) + " after line " + std::to_string(target.line)));
            }
            // An instruction after it moves before it: it starts one instruction later.
            for (int j = f.instruction + 1; j < int(ins.size()) && j <= f.instruction + kMoveReach; ++j) {
                bool ok = movable(ctx, j) && plainSpan(ctx, f.instruction, j);
                for (int x = f.instruction; ok && x < j; ++x)
                    ok = crossable(ctx, x) && independent(ins[j], ins[x]);
                if (ok)
                    out.push_back(moveLine(ctx.src, ins[j].line, target.line,
                                           "move " + lineName(ins[j]) + " before line " + std::to_string(target.line)));
            }
        }
        for (int k = 1; k <= 2; ++k)
            out.push_back(insertBefore(ctx.src, target.line, std::vector<std::string>(k, "s_nop 0"), "insert-nop",
                                       "insert " + std::to_string(k) + " s_nop 0 before line " + std::to_string(target.line)));
        return out;
    }

    if (f.rule == "branch-position" && target.branch == BranchKind::Conditional && ownLine(ctx, f.instruction)) {
        // Instructions before the branch move after it, in their order: they then run on the
        // fall-through path only, so what they write must be dead where the branch goes, and each
        // must be independent of everything it crosses (the branch included). The nearest k such
        // instructions, k = 1…3: one dword rarely brings the branch back to slot 3.
        std::vector<int> chosen; // descending
        for (int j = f.instruction - 1; j >= 0 && j >= f.instruction - 6 && chosen.size() < 3; --j) {
            if (!movable(ctx, j) || !deadAtTarget(ctx, target, ins[j]) || !plainSpan(ctx, j, f.instruction))
                continue;
            bool ok = true;
            for (int x = j + 1; ok && x <= f.instruction; ++x)
                ok = std::count(chosen.begin(), chosen.end(), x) || independent(ins[j], ins[x]);
            if (!ok)
                continue;
            chosen.push_back(j);
            std::vector<int> lines;
            std::string names;
            for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) {
                lines.push_back(ins[*it].line);
                names += (names.empty() ? "" : ", ") + lineName(ins[*it]);
            }
            out.push_back(moveLines(ctx.src, lines, target.line + 1,
                                    "move " + names + " after the branch on line " + std::to_string(target.line)));
        }
        // Or s_nops push the branch into the next fetch block's first half.
        const int slot = fetchPlace(ctx.analysis.program.instructions[f.instruction]).slot;
        if (slot >= 4)
            out.push_back(
                insertBefore(ctx.src, target.line, std::vector<std::string>(8 - slot, "s_nop 0"), "insert-nop",
                             "insert " + std::to_string(8 - slot) + " s_nop 0 before line " + std::to_string(target.line)));
    }
    return out;
}

} // namespace

std::vector<FindingRef> fixableFindings(const Analysis& analysis)
{
    std::vector<FindingRef> out;
    for (const HazardFinding& h : analysis.checks.hazards)
        out.push_back({h.rule, h.instruction, h.line});
    for (std::size_t i = 0; i < analysis.timing.instructions.size() && i < analysis.program.instructions.size(); ++i)
        for (const Penalty& p : analysis.timing.instructions[i].penalties())
            if (isFetchRule(p.rule) || p.rule == "branch-position")
                out.push_back({p.rule, int(i), analysis.program.instructions[i].line});
    std::stable_sort(out.begin(), out.end(), [](const FindingRef& a, const FindingRef& b) { return a.line < b.line; });
    return out;
}

std::vector<FindingRef> fixableFindingsOnLine(const Analysis& analysis, int line)
{
    std::vector<FindingRef> out;
    for (FindingRef& f : fixableFindings(analysis))
        if (f.line == line)
            out.push_back(std::move(f));
    return out;
}

namespace {

std::optional<FixIt> bestFixIt(const Context& ctx)
{
    const std::vector<Candidate> all = candidates(ctx);
    struct Choice {
        std::optional<FixIt> fix;
        const Candidate* from = nullptr;
        bool onPrefix = false;
    };
    const auto best = [&](bool scoped) {
        Choice chosen;
        for (const Candidate& c : all) {
            bool onPrefix = false;
            std::optional<FixIt> fix = evaluate(ctx, c, scoped, &onPrefix);
            if (fix && (!chosen.fix || fix->delta() < chosen.fix->delta()))
                chosen = {std::move(fix), &c, onPrefix};
        }
        return chosen;
    };
    Choice chosen = best(ctx.prefixes != nullptr && (!ctx.alone || prefixPays(ctx, int(all.size()))));
    if (!chosen.onPrefix)
        return std::move(chosen.fix);
    // The fix offered is measured on the whole text, whatever chose it.
    std::optional<FixIt> whole = evaluate(ctx, *chosen.from, false);
    if (whole && whole == chosen.fix)
        return whole;
    if (ctx.stats)
        ++ctx.stats->prefixMismatches;
    return std::move(best(false).fix);
}

} // namespace

// What every finding of one search reads of the unedited text: made once.
std::set<int> labelLinesOf(const Program& program)
{
    std::set<int> lines;
    for (const Label& label : program.labels)
        lines.insert(label.line);
    return lines;
}

std::optional<FixIt> findFixIt(const std::string& source, const Analysis& analysis, const AnalysisRequest& request,
                               const FindingRef& finding, const AssembleFunction& assemble, FixItStats* stats)
{
    Prefixes prefixes;
    const Lines lines = splitLines(source);
    const std::set<int> labelLines = labelLinesOf(analysis.program);
    const int errors = errorCount(analysis.program);
    const Context ctx {source, analysis, request, assemble, finding, lines, labelLines, errors, &prefixes, stats, /*alone=*/true};
    return bestFixIt(ctx);
}

std::vector<FixIt> findFixIts(const std::string& source, const Analysis& analysis, const AnalysisRequest& request,
                              const AssembleFunction& assemble, const FixItSearch& search, FixItStats* stats)
{
    std::vector<FindingRef> findings = fixableFindings(analysis);
    if (stats)
        stats->fixable += int(findings.size());
    if (int(findings.size()) > search.maxFindings)
        findings.resize(std::size_t(std::max(search.maxFindings, 0)));
    std::vector<std::optional<FixIt>> found(findings.size());
    Prefixes prefixes;
    const Lines lines = splitLines(source);
    const std::set<int> labelLines = labelLinesOf(analysis.program);
    const int errors = errorCount(analysis.program);
    // Each thread takes the next finding; a finding's result does not depend on which thread
    // measured it or in what order.
    std::atomic<std::size_t> next {0};
    const int threads = search.makeAssemble ? std::clamp(search.threads, 1, std::max(int(findings.size()), 1)) : 1;
    std::vector<FixItStats> counts(static_cast<std::size_t>(threads));
    std::vector<std::exception_ptr> failures(static_cast<std::size_t>(threads));
    Prefixes* scopes = search.kernelScoped ? &prefixes : nullptr;
    std::mutex progressMutex;
    int done = 0;
    const auto work = [&](int thread) {
        FixItStats& count = counts[std::size_t(thread)];
        try {
            const AssembleFunction own = thread ? search.makeAssemble() : AssembleFunction();
            const AssembleFunction& assembleWith = thread ? own : assemble;
            for (std::size_t i; (i = next++) < findings.size();) {
                const Context ctx {source, analysis,   request, assembleWith, findings[i],
                                   lines,  labelLines, errors,  scopes,       &count};
                found[i] = bestFixIt(ctx);
                if (search.progress) {
                    const std::lock_guard lock(progressMutex);
                    search.progress(++done, int(findings.size()));
                }
            }
        } catch (...) {
            failures[std::size_t(thread)] = std::current_exception();
            next = findings.size(); // the others stop after their current finding
        }
    };
    {
        std::vector<std::jthread> pool;
        for (int t = 1; t < threads; ++t)
            pool.emplace_back(work, t);
        work(0);
    }
    for (const std::exception_ptr& failure : failures)
        if (failure)
            std::rethrow_exception(failure);
    std::vector<FixIt> out;
    for (std::optional<FixIt>& fix : found)
        if (fix)
            out.push_back(std::move(*fix));
    if (stats) {
        for (const FixItStats& c : counts) {
            stats->wholeRuns += c.wholeRuns;
            stats->prefixRuns += c.prefixRuns;
            stats->prefixMismatches += c.prefixMismatches;
        }
        stats->scopedKernels += prefixes.usable();
    }
    return out;
}

std::string applyEdits(const std::string& text, const std::vector<TextEdit>& edits)
{
    std::vector<std::size_t> starts {0, 0}; // starts[l] = offset of line l (1-based)
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n')
            starts.push_back(i + 1);
    if (starts.back() != text.size())
        starts.push_back(text.size());
    const auto offset = [&](int line, int column) {
        if (line < 1)
            return std::size_t(0);
        if (line >= int(starts.size()))
            return text.size();
        return std::min(text.size(), starts[line] + std::size_t(std::max(column, 0)));
    };
    std::vector<std::tuple<std::size_t, std::size_t, const std::string*>> spans;
    for (const TextEdit& e : edits)
        spans.emplace_back(offset(e.line, e.column), offset(e.endLine, e.endColumn), &e.text);
    std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
    std::string out = text;
    for (const auto& [begin, end, with] : spans)
        out.replace(begin, std::max(begin, end) - begin, *with);
    return out;
}

std::string deltaText(long long delta)
{
    return (delta > 0 ? "+" : "") + std::to_string(delta) + " cycles";
}

std::string unifiedDiff(const std::string& path, const std::string& text, const std::vector<FixIt>& fixits, int context,
                        int* leftOut)
{
    const Lines old = splitLines(text);
    const int oldN = int(old.lines.size());
    std::vector<const FixIt*> ordered;
    for (const FixIt& f : fixits)
        ordered.push_back(&f);
    const auto firstLine = [](const FixIt* f) {
        int l = 1 << 30;
        for (const TextEdit& e : f->edits)
            l = std::min(l, e.line);
        return l;
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](auto* a, auto* b) { return firstLine(a) < firstLine(b); });

    std::ostringstream out;
    out << "--- a/" << path << "\n+++ b/" << path << "\n";
    int previousEnd = 0; // old lines [0, previousEnd) belong to emitted hunks
    int shift = 0;       // new − old line count so far
    int skipped = 0;
    const std::string noNewline = "\\ No newline at end of file\n";
    for (const FixIt* f : ordered) {
        const Lines now = splitLines(applyEdits(text, f->edits));
        const int newN = int(now.lines.size());
        int prefix = 0;
        while (prefix < oldN && prefix < newN && old.lines[prefix] == now.lines[prefix])
            ++prefix;
        int suffix = 0;
        while (suffix < oldN - prefix && suffix < newN - prefix && old.lines[oldN - 1 - suffix] == now.lines[newN - 1 - suffix])
            ++suffix;
        // Keep the last line in the changed region when only its final newline differs.
        if (suffix > 0 && old.finalNewline != now.finalNewline)
            suffix = 0;
        const int oldEnd = oldN - suffix, newEnd = newN - suffix;
        const int start = std::max(0, prefix - context);
        if (start < previousEnd || (prefix == oldEnd && prefix == newEnd)) {
            ++skipped;
            continue;
        }
        const int oldStop = std::min(oldN, oldEnd + context), newStop = newEnd + (oldStop - oldEnd);
        // LCS of the changed region, to show a move as one line out and one in.
        const int n = oldEnd - prefix, m = newEnd - prefix;
        std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
        for (int i = n - 1; i >= 0; --i)
            for (int j = m - 1; j >= 0; --j)
                lcs[i][j] = old.lines[prefix + i] == now.lines[prefix + j] ? lcs[i + 1][j + 1] + 1
                                                                           : std::max(lcs[i + 1][j], lcs[i][j + 1]);
        std::ostringstream body;
        const auto emit = [&](char mark, const std::string& line, bool oldLast, bool newLast) {
            body << mark << line << "\n";
            if ((mark == '-' && oldLast && !old.finalNewline) || (mark == '+' && newLast && !now.finalNewline)
                || (mark == ' ' && ((oldLast && !old.finalNewline) || (newLast && !now.finalNewline))))
                body << noNewline;
        };
        for (int l = start; l < prefix; ++l)
            emit(' ', old.lines[l], l == oldN - 1, l == newN - 1);
        int i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && old.lines[prefix + i] == now.lines[prefix + j]) {
                emit(' ', old.lines[prefix + i], prefix + i == oldN - 1, prefix + j == newN - 1);
                ++i, ++j;
            } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
                emit('-', old.lines[prefix + i], prefix + i == oldN - 1, false);
                ++i;
            } else {
                emit('+', now.lines[prefix + j], false, prefix + j == newN - 1);
                ++j;
            }
        }
        for (int l = oldEnd; l < oldStop; ++l)
            emit(' ', old.lines[l], l == oldN - 1, newEnd + (l - oldEnd) == newN - 1);
        const int oldCount = oldStop - start, newCount = newStop - start;
        const auto range = [](int first, int count) {
            return std::to_string(count == 0 ? first : first + 1) + "," + std::to_string(count);
        };
        out << "@@ -" << range(start, oldCount) << " +" << range(start + shift, newCount) << " @@ " << f->finding.rule << " line "
            << f->finding.line << ": " << deltaText(f->delta()) << ", " << f->summary << "\n"
            << body.str();
        shift += newCount - oldCount;
        previousEnd = oldStop;
    }
    if (leftOut)
        *leftOut = skipped;
    return out.str();
}

} // namespace gcnlens
