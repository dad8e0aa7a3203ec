// SPDX-License-Identifier: MIT
// The assembler stage's entry points: assemble() and the editor's FrontEnd. LLVM's AMDGPU
// assembler (MC layer) decides every size and encoding; the files beside this one only listen to
// what it emits (streamer), build the Program from it (programbuild), encode repeated shapes
// (shapes) and splice edits in (splice).
#include "core/asm/assembler.h"

#include "core/asm/guard_p.h"
#include "core/asm/linescan_p.h"
#include "core/asm/programbuild_p.h"
#include "core/asm/shapes_p.h"
#include "core/asm/sourcemap.h"
#include "core/asm/splice_p.h"
#include "core/asm/watch_p.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace gcnlens {

using namespace detail;

namespace {

std::string optionsKey(const AssembleOptions& options)
{
    std::string key = options.gpu + '\n' + options.fileName + '\n';
    for (const auto& dir : options.includeDirs)
        key += "I" + dir + '\n';
    for (const auto& [name, value] : options.defsyms)
        key += "D" + name + '=' + std::to_string(value) + '\n';
    key += options.reuseShapes ? "shapes\n" : "";
    key += "dialect" + std::to_string(int(options.dialect)) + std::string(clrxFormatName(options.clrx.format))
        + (options.clrx.is64bit ? "64" : "32") + std::to_string(options.clrx.driverVersion) + (options.gpuFromSource ? "src" : "")
        + '\n';
    const AssembleLimits& l = options.limits; // (the time limit does not change the program)
    key += "L" + std::to_string(l.instructions) + ',' + std::to_string(l.bytes) + ',' + std::to_string(l.includeDepth) + ','
        + std::to_string(l.incbinBytes) + (options.allowAnyInclude ? ",any\n" : "\n");
    return key;
}

// Diagnostics in line order (stable: LLVM's order within a line stays). The source map's notes
// come before LLVM's diagnostics otherwise, and the incremental splice, which puts the edited
// lines' diagnostics in line order, would then disagree with a fresh run (issue #12, fuzz_frontend
// 8ae3775c).
// Also: LLVM reads the text with a blank line after it (AssemblerSession), so what it reports at
// the end of the text ("unmatched .ifs or .elses") stays on the line after the text's last newline.
void settleDiagnostics(std::vector<Diagnostic>& diagnostics, std::string_view source)
{
    const int end = int(countNewlines(source)) + 1;
    for (Diagnostic& d : diagnostics)
        d.line = std::min(d.line, end);
    std::stable_sort(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
}

// The line scan reads the text's structure (blocks, sections, comments, error recovery across line
// ends) by mirroring LLVM's lexer and parser; the full run is the witness of what LLVM really did.
// A plain line with code is one LLVM read at the top level: an instruction or placeholder of its
// own, not from an expansion. One that made none was read inside something the scan did not see
// (a body whose closing directive LLVM did not take: ".endm?", fuzz_frontend a2aaaf4b), so an
// edit of it takes the full run. A blank or comment line proves nothing by itself: it is in the
// context of the non-blank line before it, which is the context of the one after it, so it stays
// plain when either neighbour is a witnessed line (the start of the text counts, the end not).
void confirmPlainLines(LineScan& scan, const Program& program, const std::vector<std::string_view>& lines)
{
    const std::size_t count = std::min(lines.size(), scan.plain.size());
    std::vector<bool> witnessed(count, false);
    for (const Instruction& instruction : program.instructions)
        if (!instruction.fromExpansion && !instruction.isData && instruction.line >= 1 && std::size_t(instruction.line) <= count)
            witnessed[std::size_t(instruction.line - 1)] = true;
    std::vector<bool> blank(count);
    for (std::size_t i = 0; i < count; ++i) {
        blank[i] = trimmedFront(codeOf(lines[i])).empty();
        if (!blank[i])
            witnessed[i] = witnessed[i] && scan.plain[i];
    }
    std::vector<bool> afterWitness(count, false); // the nearest non-blank line before is witnessed
    for (std::size_t i = 0, previous = std::size_t(-1); i < count; ++i) {
        afterWitness[i] = previous == std::size_t(-1) || witnessed[previous];
        if (!blank[i])
            previous = i;
    }
    bool beforeWitness = false; // the nearest non-blank line after is witnessed
    for (std::size_t i = count; i-- > 0;) {
        if (blank[i])
            scan.plain[i] = scan.plain[i] && (afterWitness[i] || beforeWitness);
        else {
            scan.plain[i] = witnessed[i];
            beforeWitness = witnessed[i];
        }
    }
}

// whole: the text is the user's whole source (not a region the incremental path re-assembles).
// scan: the line scan of `source`, which learns the lines the source map reads by their context.
// sourceLines: splitLines(source), when the caller has them (each pass split the text anew).
Program assembleWith(TargetKit& kit, const GpuTarget& gpu, std::string_view source, const AssembleOptions& options, bool whole,
                     LineScan* scan = nullptr, int lineBase = 0, std::span<const std::string_view> sourceLines = {})
{
    Program program;
    program.gpu = gpu;

    SourceMap map(source, sourceLines);
    // Lines the source map reads by their context are no lines an edit may re-assemble alone.
    const auto markBlocks = [&map](LineScan& lines) {
        for (const int line : map.blockLines())
            if (std::size_t(line - 1) < lines.plain.size())
                lines.plain[std::size_t(line - 1)] = false;
    };
    if (scan)
        markBlocks(*scan);
    for (const auto& note : map.notes())
        program.diagnostics.push_back(note);
    if (const auto& [line, processor] = map.declaredIsa(); whole && line > 0 && processor != gpu.processor)
        program.diagnostics.push_back({Severity::Warning,
                                       line,
                                       map.firstColumn(line),
                                       "the source is written for " + processor + " but is analysed for " + gpu.targetId
                                           + " (choose the GPU with --gpu " + processor + ")",
                                       {}});

    // The text LLVM sees: CLRX-only directives blanked (same length, so columns and lines hold),
    // and lines the shape pass encoded replaced by skips of their size.
    std::string_view text = map.assemblerText();
    // Expansions over the limits and includes the user did not allow never reach LLVM (guard_p.h).
    std::string guarded;
    if (whole && guardText(text, options, guarded, program.diagnostics))
        text = guarded;
    ShapePlan plan;
    std::string planned;
    // The source's lines are the text's while nothing replaced it (no copy was made).
    const bool sameLines = !sourceLines.empty() && text.data() == source.data() && text.size() == source.size();
    const std::size_t newlines = sameLines ? sourceLines.size() - 1 : countNewlines(text);
    if (options.reuseShapes && newlines >= kShapePassMinimumLines) {
        LineScan ownScan;
        if (!scan) {
            ownScan = scanLines(splitLines(source));
            markBlocks(ownScan);
            scan = &ownScan;
        }
        planned = planShapes(kit, gpu, text, *scan, options, plan, sameLines ? sourceLines : std::span<const std::string_view>());
        if (!plan.runs.empty())
            text = planned;
    }

    AssemblerSession session(kit, gpu, options, text, options.fileName);
    if (!session.error.empty()) {
        program.diagnostics.push_back({Severity::Error, 0, 0, session.error, {}});
        return program;
    }
    if (!plan.runs.empty()) {
        plan.base = session.textStart();
        session.streamer->plan = &plan;
        program.shapeReused = int(plan.instructions.size());
    }
    session.streamer->limits = &options.limits;
    if (runWatch.progress) { // in the worker: publish the lines reached (watch_p.h)
        runWatch.start(session.parser(), session.textStart(), session.textStart() + text.size(), lineBase);
        // A limit crossed ends the run here: what was emitted so far, the error, and the worker exits.
        if (whole && runWatch.finish)
            session.streamer->onLimit = [&] {
                runWatch.stop();
                session.streamer->resolveFixups();
                buildProgram(program, session.streamer->emissions, session.diagnostics, session.streamer->functionSymbols, map,
                             session.sources, plan.instructions);
                settleDiagnostics(program.diagnostics, source);
                runWatch.finish(program);
            };
    }
    session.run();
    runWatch.stop();
    // A run stopped at a limit records nothing after the line that crossed it, and an edit anywhere
    // may move that line: no line is one an edit may re-assemble alone (fuzz_frontend 5567ea71).
    if (scan && session.streamer->stopped())
        scan->plain.assign(scan->plain.size(), false);
    session.streamer->resolveFixups();
    buildProgram(program, session.streamer->emissions, session.diagnostics, session.streamer->functionSymbols, map,
                 session.sources, plan.instructions);
    program.statementsReplayed = session.streamer->statementsReplayed;
    program.statementsFromShapes = session.streamer->statementsFromShapes;
    program.expansionsInferred = session.streamer->expansionsInferred;
    settleDiagnostics(program.diagnostics, source);
    if (whole && program.instructions.empty() && !program.hasErrors())
        program.diagnostics.push_back({Severity::Warning,
                                       1,
                                       0,
                                       "nothing to analyse: the text has no instructions (it is empty, or only comments "
                                       "and directives)",
                                       {}});
    return program;
}

// Kits of FrontEnds that ended, kept per thread for the next one on the same target: making a kit
// (LLVM's target objects, the register name table the shape pass reads) costs more than
// assembling a short text, and assemble() makes a FrontEnd per call (the CLI's kernels, the
// fuzzers' inputs: issue #12). A kit is owned by one FrontEnd at a time; its caches hold only
// what depends on the encoding, so a reused kit gives the same Program.
struct KitPool {
    // (fuzz_frontend's five GPUs, each with and without the amdhsa triple, are ten)
    static constexpr std::size_t kKept = 12;
    std::vector<std::pair<std::string, std::unique_ptr<TargetKit>>> kits; // most recent last

    std::unique_ptr<TargetKit> take(const std::string& key, const GpuTarget& gpu, const std::string& triple)
    {
        for (auto it = kits.rbegin(); it != kits.rend(); ++it)
            if (it->first == key) {
                auto kit = std::move(it->second);
                kits.erase(std::next(it).base());
                return kit;
            }
        return makeTargetKit(gpu, triple);
    }
    void give(std::string key, std::unique_ptr<TargetKit> kit)
    {
        if (!kit || !kit->error.empty())
            return;
        if (kits.size() == kKept)
            kits.erase(kits.begin());
        kits.emplace_back(std::move(key), std::move(kit));
    }
};
thread_local KitPool kitPool;

} // namespace

struct FrontEnd::State {
    std::string processorKey;
    std::unique_ptr<TargetKit> kit;
    // The text of the last run, kept whatever the run made of it (edit() applies to it), and
    // the last result: the incremental path splices into it.
    std::string source;
    std::string optionsKey;
    Program program;
    LineScan scan;           // of `source`
    RegisterTally registers; // of `program`
    bool havePrevious = false;
    bool haveSource = false;
    bool spliced = false; // the last run spliced `program`: `step` says how
    SpliceStep step;
    // CLRX sources: `program` and `scan` are the translation's (`translated`; the incremental
    // path splices the translation), `clrx` is the program moved back onto the CLRX source, the result.
    std::string translated;
    Program clrx;
    bool clrxResult = false;
    ClrxTranslator translator; // patches its last translation after a small edit
    bool oneShot = false;      // assemble(): no later run splices into `program`, which may be moved out

    // The GPU and target kit for a run, or the program saying why there is none.
    std::optional<GpuTarget> prepare(std::string_view text, const AssembleOptions& options)
    {
        std::string error;
        const auto gpu = resolveGpu(options.gpu, &error);
        const std::string triple = !gpu ? std::string()
            : options.triple.empty()    ? tripleFor(text, options.defsyms)
                                        : options.triple;
        if (!ready(gpu, error, triple, program))
            return std::nullopt;
        return gpu;
    }

    // Makes the kit for `gpu` and `triple` current; false, with `out` the program that says why,
    // when there is no GPU (`error`) or LLVM has no target for it. Both end the incremental history.
    bool ready(const std::optional<GpuTarget>& gpu, const std::string& error, const std::string& triple, Program& out)
    {
        if (gpu && useKit(*gpu, triple))
            havePrevious = false;
        const std::string& why = gpu ? kit->error : error;
        if (why.empty())
            return true;
        out = Program {};
        if (gpu)
            out.gpu = *gpu;
        out.diagnostics.push_back({Severity::Error, 0, 0, why, {}});
        havePrevious = false;
        return false;
    }

    // Makes `kit` the one for this target (from the thread's pool when one is there); true when
    // it changed, which ends the incremental history.
    bool useKit(const GpuTarget& gpu, const std::string& triple)
    {
        const std::string key = gpu.processor + ':' + gpu.features + ':' + triple;
        if (kit && processorKey == key)
            return false;
        kitPool.give(std::move(processorKey), std::move(kit));
        kit = kitPool.take(key, gpu, triple);
        processorKey = key;
        return true;
    }

    // Re-assembles only the changed lines when they are plain (see LineScan) and splices them in.
    // prefix: the 0-based first changed line; oldLines as the previous text had them, newLines now.
    bool spliceEdit(int prefixLine, const std::vector<std::string_view>& oldLines, const std::vector<std::string_view>& newLines,
                    const GpuTarget& gpu, const AssembleOptions& options)
    {
        constexpr int kMaxSplicedLines = 64;
        const int oldCount = int(oldLines.size()), newCount = int(newLines.size());
        // (An empty program carries a whole-text warning that only a full run may take back.)
        if (oldCount > kMaxSplicedLines || newCount > kMaxSplicedLines || program.instructions.empty())
            return false;
        const auto prefix = std::size_t(prefixLine);
        for (std::size_t i = 0; i < oldLines.size(); ++i)
            if (!scan.plain[prefix + i] || mentionsAny(oldLines[i], scan.assignedSymbols))
                return false;
        // A label on a replaced line (LLVM makes one for a '.' in an expression, "x-.") goes only
        // with a full run (fuzz_frontend df019e5b).
        const int firstOld = int(prefix) + 1, lastOld = int(prefix) + oldCount;
        if (std::any_of(program.labels.begin(), program.labels.end(),
                        [&](const Label& l) { return l.line >= firstOld && l.line <= lastOld; }))
            return false;
        // A pure insertion must land outside macro/.rept/.if regions: a plain neighbour proves it.
        // (The end of the text proves nothing: a block left open runs to it, fuzz_frontend ff220144.)
        if (oldLines.empty()) {
            const bool beforePlain = prefix == 0 || scan.plain[prefix - 1];
            const bool afterPlain = prefix < scan.plain.size() && scan.plain[prefix];
            if (!beforePlain && !afterPlain)
                return false;
        }
        std::string region;
        for (const auto line : newLines) {
            if (!scanLines({line}).plain[0] || mentionsAny(line, scan.assignedSymbols) || mentionsAny(line, scan.macroNames))
                return false;
            region.append(line);
            region.push_back('\n');
        }
        Program mini = assembleWith(*kit, gpu, region, options, /*whole=*/false, nullptr, int(prefix));
        const bool barrierAfter = scan.lastBarrier >= int(prefix);
        if (!mini.labels.empty())
            return false;
        Program before = mini; // for the step; splice() moves instructions out of `mini`
        if (!splice(program, mini, int(prefix) + 1, oldCount, newCount, newLines, barrierAfter, registers))
            return false;
        // A program the edit takes past a limit is one a full run stops on, with its error.
        if (!program.instructions.empty()) {
            const Instruction& last = program.instructions.back();
            if (program.instructions.size() > options.limits.instructions
                || program.sectionOffset(last) + std::uint64_t(last.size) > options.limits.bytes)
                return false;
        }
        step = SpliceStep {int(prefix) + 1,       oldCount, newCount, barrierAfter, std::move(region), std::move(before),
                           programDigest(program)};
        spliced = true;
        const auto at = std::ptrdiff_t(prefix);
        scan.plain.erase(scan.plain.begin() + at, scan.plain.begin() + at + oldCount);
        scan.plain.insert(scan.plain.begin() + at, std::size_t(newCount), true);
        if (scan.lastBarrier >= int(prefix))
            scan.lastBarrier += newCount - oldCount;
        return true;
    }

    // A whole run over `text` (the source, or a CLRX source's translation), with the line scan
    // the next edit reads, witnessed by the run; `key` is what the program was made for.
    void runWhole(const GpuTarget& gpu, std::string_view text, const AssembleOptions& options, const std::string& key)
    {
        const std::vector<std::string_view> lines = splitLines(text);
        scan = scanLines(lines);
        program = assembleWith(*kit, gpu, text, options, /*whole=*/true, &scan, 0, lines);
        if (!oneShot) { // what the next edit reads; assemble() makes no next edit
            confirmPlainLines(scan, program, lines);
            registers.rebuild(program);
        }
        optionsKey = key;
        havePrevious = true;
    }

    // A whole run over `source`.
    const Program& full(const GpuTarget& gpu, const AssembleOptions& options, const std::string& key)
    {
        runWhole(gpu, source, options, key);
        return program;
    }
};

FrontEnd::FrontEnd()
    : state_(new State)
{
}
FrontEnd::~FrontEnd()
{
    kitPool.give(std::move(state_->processorKey), std::move(state_->kit));
    delete state_;
}

bool LineChange::fits(int lines) const
{
    if (first < 0 || oldCount < 0 || newCount < 0 || first + oldCount > lines)
        return false;
    if (newCount == 0 ? !text.empty() : int(countNewlines(text)) + 1 != newCount)
        return false;
    return linesAfter == 0 || linesAfter == lines - oldCount + newCount;
}

AssembleOptions::Dialect resolvedDialect(std::string_view source, const AssembleOptions& options)
{
    if (options.dialect != AssembleOptions::Dialect::Auto)
        return options.dialect;
    return looksLikeClrx(source) ? AssembleOptions::Dialect::Clrx : AssembleOptions::Dialect::Llvm;
}

const Program& FrontEnd::analyze(std::string_view source, const AssembleOptions& options)
{
    State& state = *state_;
    state.spliced = false;
    state.clrxResult = false;
    // assemble() keeps no copy of the text: no later edit reads it, and at 100k lines each copy
    // is megabytes of page faults (issue #18).
    if (resolvedDialect(source, options) == AssembleOptions::Dialect::Clrx) {
        if (state.oneShot)
            return analyzeClrx(source, options);
        state.source.assign(source);
        state.haveSource = true;
        return analyzeClrx(state.source, options);
    }
    const auto gpu = state.prepare(source, options);
    if (!gpu) {
        state.source.assign(source);
        state.haveSource = true;
        return state.program;
    }
    const std::string currentKey = optionsKey(options);

    // The incremental path: one contiguous run of changed plain lines.
    if (state.havePrevious && state.optionsKey == currentKey) {
        const LineEdit edit = diffLines(state.source, source);
        if (edit.identical)
            return state.program;
        const std::vector<std::string_view> oldLines =
            edit.oldCount ? splitLines(edit.oldText) : std::vector<std::string_view> {};
        const std::vector<std::string_view> newLines =
            edit.newCount ? splitLines(edit.newText) : std::vector<std::string_view> {};
        if (state.spliceEdit(edit.prefixLines, oldLines, newLines, *gpu, options)) {
            state.source.assign(source);
            return state.program;
        }
    }

    if (state.oneShot) {
        state.runWhole(*gpu, source, options, currentKey);
        return state.program;
    }
    state.source.assign(source);
    state.haveSource = true;
    return state.full(*gpu, options, currentKey);
}

const Program* FrontEnd::edit(const LineChange& change, const AssembleOptions& options)
{
    State& state = *state_;
    std::string& text = state.source;
    const int lines = int(countNewlines(text)) + 1; // one pass; cheap beside any assembler run
    // (Every line removed would leave one empty line, not none: the whole text is clearer.)
    if (!state.haveSource || !change.fits(lines) || (change.newCount == 0 && change.oldCount == lines))
        return nullptr;
    // Byte offsets of line `first` and of the end of the replaced lines (before their newline).
    const auto startOf = [&](std::size_t from, int count) {
        for (int i = 0; i < count; ++i)
            from = text.find('\n', from) + 1;
        return from;
    };
    const std::size_t begin = change.first < lines ? startOf(0, change.first) : text.size();
    std::vector<std::string_view> oldLines;
    std::size_t end = begin;
    for (int i = 0; i < change.oldCount; ++i) {
        const std::size_t from = i ? end + 1 : begin;
        end = std::min(text.find('\n', from), text.size());
        oldLines.push_back(std::string_view(text).substr(from, end - from));
    }
    // The old lines' text outlives the replacement only as copies (small: the splice takes <= 64).
    const bool small = change.oldCount <= 64 && change.newCount <= 64;
    std::vector<std::string> oldCopies;
    if (small)
        oldCopies.assign(oldLines.begin(), oldLines.end());
    std::size_t cutBegin = begin, cutEnd = end, newBegin = begin;
    std::string inserted;
    if (change.oldCount > 0 && change.newCount > 0) {
        inserted = change.text;
    } else if (change.oldCount > 0) { // removal: with the newline after the lines, or before the last ones
        if (end < text.size())
            ++cutEnd;
        else
            --cutBegin;
    } else if (change.newCount > 0) { // insertion: before line `first`, or after the last line
        if (change.first < lines) {
            inserted = change.text + '\n';
        } else {
            inserted = '\n' + change.text;
            ++newBegin;
        }
    }
    // (No lines at all: the same text, maybe with other options.)
    state.spliced = false;
    state.clrxResult = false;
    if (change.oldCount || change.newCount)
        text.replace(cutBegin, cutEnd - cutBegin, inserted);

    if (resolvedDialect(text, options) == AssembleOptions::Dialect::Clrx)
        return &analyzeClrx(text, options);
    const auto gpu = state.prepare(text, options);
    if (!gpu)
        return &state.program;
    const std::string currentKey = optionsKey(options);
    if (state.havePrevious && state.optionsKey == currentKey && !change.oldCount && !change.newCount)
        return &state.program;
    if (small && state.havePrevious && state.optionsKey == currentKey) {
        const std::vector<std::string_view> oldViews(oldCopies.begin(), oldCopies.end());
        const std::vector<std::string_view> newLines = change.newCount
            ? splitLines(std::string_view(text).substr(newBegin, change.text.size()))
            : std::vector<std::string_view> {};
        if (state.spliceEdit(change.first, oldViews, newLines, *gpu, options))
            return &state.program;
    }
    return &state.full(*gpu, options, currentKey);
}

const std::string& FrontEnd::source() const
{
    return state_->source;
}
const Program& FrontEnd::program() const
{
    return state_->clrxResult ? state_->clrx : state_->program;
}

const detail::SpliceStep* FrontEnd::lastSplice() const
{
    return state_->spliced ? &state_->step : nullptr;
}

// CLRX dialect: translate, assemble the translation, map the result back onto the source. The
// translation goes through the same incremental path as an LLVM text (a keystroke changes a line
// or two of it), so typing in a CLRX source costs what typing in its LLVM twin does, plus the
// translation and the mapping. The splice is of the translation's program, not of the result:
// lastSplice() says none (the worker then sends the whole result).
const Program& FrontEnd::analyzeClrx(std::string_view source, const AssembleOptions& options)
{
    State& state = *state_;
    state.clrxResult = true;
    std::string error;
    auto gpu = resolveGpu(options.gpu, &error);
    ClrxOptions clrxOptions = options.clrx;
    clrxOptions.processor = gpu ? gpu->processor : options.gpu;
    clrxOptions.sourceGpuWins = options.gpuFromSource;
    clrxOptions.includeDirs = options.includeDirs;
    // assemble() translates once: no ClrxTranslator keeping a copy of the text for later patches
    // (at 100k lines every megabyte written first is page faults).
    ClrxTranslation once;
    if (state.oneShot)
        once = translateClrx(source, clrxOptions);
    const ClrxTranslation& translation = state.oneShot ? once : state.translator.translate(source, clrxOptions);
    if (!translation.processor.empty() && options.gpuFromSource)
        gpu = resolveGpu(translation.processor, &error);
    if (!state.ready(gpu, error, gpu ? tripleFor(translation.text) : std::string(), state.clrx))
        return state.clrx;
    // The GPU may come from the source's .gpu: part of what the previous program was made for.
    const std::string currentKey = optionsKey(options) + "clrx:" + gpu->processor;
    const std::string_view text = translation.text;
    bool spliced = false;
    if (state.havePrevious && state.optionsKey == currentKey) {
        const LineEdit edit = diffLines(state.translated, text);
        if (edit.identical) {
            spliced = true;
        } else {
            const std::vector<std::string_view> oldLines =
                edit.oldCount ? splitLines(edit.oldText) : std::vector<std::string_view> {};
            const std::vector<std::string_view> newLines =
                edit.newCount ? splitLines(edit.newText) : std::vector<std::string_view> {};
            spliced = state.spliceEdit(edit.prefixLines, oldLines, newLines, *gpu, options);
        }
    }
    state.spliced = false;
    // assemble() reads the translation where it is (it outlives the run); a FrontEnd keeps a copy
    // to diff the next translation against.
    std::string_view assembled = text;
    if (!state.oneShot) {
        state.translated.assign(text);
        assembled = state.translated;
    }
    if (!spliced) // (the witness check too: fuzz_frontend e5900aaa, a CLRX source after a '.end')
        state.runWhole(*gpu, assembled, options, currentKey);
    if (state.oneShot) { // a 100k-line program is not copied for nothing
        state.clrx = std::move(state.program);
        state.havePrevious = false;
    } else {
        state.clrx = state.program;
    }
    mapProgramToClrx(state.clrx, translation);
    return state.clrx;
}

Program assemble(std::string_view source, const AssembleOptions& options)
{
    FrontEnd frontEnd;
    FrontEnd::State& state = *frontEnd.state_;
    state.oneShot = true;
    frontEnd.analyze(source, options);
    return std::move(state.clrxResult ? state.clrx : state.program); // the FrontEnd ends here: no copy
}

} // namespace gcnlens

namespace gcnlens {

const char* AssembleLimits::names()
{
    return "instructions, bytes, include-depth, incbin-bytes, time";
}

bool AssembleLimits::set(std::string_view name, std::string_view value, std::string* error)
{
    const auto bad = [&](const std::string& why) {
        if (error)
            *error = why;
        return false;
    };
    if (name == "time") {
        char* end = nullptr;
        const std::string text(value);
        const double seconds = std::strtod(text.c_str(), &end);
        if (text.empty() || *end || !(seconds > 0) || seconds > 86400)
            return bad("expected seconds, more than 0 and at most 86400");
        this->seconds = seconds;
        return true;
    }
    std::uint64_t number = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || end != value.data() + value.size() || number == 0)
        return bad("expected a whole number above 0");
    if (name == "instructions")
        instructions = number;
    else if (name == "bytes") {
        if (number > Instruction::kMaxOffset)
            return bad("at most " + std::to_string(Instruction::kMaxOffset) + " (an offset in a kernel is 32-bit)");
        bytes = number;
    } else if (name == "incbin-bytes")
        incbinBytes = number;
    else if (name == "include-depth") {
        if (number > 1000)
            return bad("at most 1000");
        includeDepth = int(number);
    } else {
        if (error)
            *error = "unknown limit '" + std::string(name) + "' (known: " + names() + ")";
        return false;
    }
    return true;
}

} // namespace gcnlens
