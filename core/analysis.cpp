// SPDX-License-Identifier: MIT
#include "core/analysis.h"

#include "core/model/commonends.h"
#include "core/support/cancel.h"

#include <atomic>
#include <exception>
#include <thread>

namespace gcnlens {

namespace {

// Resources and occupancy per kernel: a few numbers each, recomputed every time.
void analyzeKernels(Analysis& analysis, const AnalysisRequest& request)
{
    const Program& p = analysis.program;
    for (int k = 0; k < int(p.kernels.size()); ++k) {
        analysis.resources.push_back(kernelResources(p, k));
        OccupancyInput input = occupancyInputFor(p, k);
        input.trapHandler = input.trapHandler || request.timing.trapHandler;
        analysis.occupancyInputs.push_back(input);
        analysis.occupancy.push_back(computeOccupancy(p.gpu, input, request.timing));
    }
}

LdsKernelOptions ldsOptions(const AnalysisRequest& request)
{
    LdsKernelOptions lds = request.lds;
    lds.groupDwords = request.timing.ldsGroupDwords;
    lds.phases = request.timing.ldsPhases;
    return lds;
}

std::atomic<std::uint64_t> serials {0};

// analyzeProgram runs its passes on two threads from this many instructions; below, a thread's
// start costs more than the half of the passes it takes (they run at ~1 µs per instruction).
constexpr std::size_t kTwoThreadsFrom = 2000;

// What the CFG, liveness and the checks read of an instruction (not its offset, size or encoding:
// an edit that only moves later instructions changes none of them).
bool sameForFlow(const Instruction& a, const Instruction& b)
{
    return a.line == b.line && a.kernel == b.kernel && a.isData == b.isData && a.placeholder == b.placeholder
        && a.family == b.family && a.opcode == b.opcode && a.branch == b.branch && a.targetIndex() == b.targetIndex()
        && a.mnemonic == b.mnemonic && a.operands == b.operands && a.targetLabel() == b.targetLabel() && a.defs == b.defs
        && a.uses == b.uses;
}

} // namespace

void runAnalysisPass(Analysis& analysis, AnalysisPass pass, const AnalysisRequest& request)
{
    const Program& p = analysis.program;
    switch (pass) {
    case AnalysisPass::Timing:
        analysis.timing = analyzeTiming(p, request.timing, request.branches);
        return;
    case AnalysisPass::Kernels:
        analyzeKernels(analysis, request);
        return;
    case AnalysisPass::Lds:
        analysis.lds = analyzeLdsInProgram(p, ldsOptions(request));
        return;
    // The CFG, liveness and the checks are recomputed on every full run (fast enough for the
    // editor's path at 10k instructions; see bench_checks).
    case AnalysisPass::Cfg:
        analysis.cfg = buildCfg(p);
        return;
    case AnalysisPass::Liveness:
        analysis.liveness = analyzeLiveness(p, analysis.cfg);
        return;
    case AnalysisPass::Checks:
        analysis.checks = analyzeChecks(p, analysis.cfg, request.timing);
        return;
    }
}

Analysis analyzeProgram(Program program, const AnalysisRequest& request)
{
    Analysis analysis;
    analysis.program = std::move(program);
    if (analysis.program.instructions.size() < kTwoThreadsFrom) {
        for (const AnalysisPass pass : kAnalysisPasses)
            runAnalysisPass(analysis, pass, request);
        return analysis;
    }
    // The passes are independent but for the CFG, which liveness and the checks read: with it
    // built, two threads share the rest, each pass writing only its own member. The split gives
    // each thread about half of the work on real and generated kernels alike (bench_passes: the
    // LDS evaluation and liveness cost about what timing and the checks do).
    runAnalysisPass(analysis, AnalysisPass::Cfg, request);
    std::exception_ptr failed;
    std::thread second([&] {
        try {
            runAnalysisPass(analysis, AnalysisPass::Lds, request);
            runAnalysisPass(analysis, AnalysisPass::Liveness, request);
        } catch (...) {
            failed = std::current_exception();
        }
    });
    try {
        runAnalysisPass(analysis, AnalysisPass::Timing, request);
        runAnalysisPass(analysis, AnalysisPass::Kernels, request);
        runAnalysisPass(analysis, AnalysisPass::Checks, request);
    } catch (...) {
        second.join();
        throw;
    }
    second.join();
    if (failed)
        std::rethrow_exception(failed);
    return analysis;
}

Analysis runAnalysis(std::string_view source, const AnalysisRequest& request, FrontEnd* frontEnd)
{
    if (frontEnd)
        return analyzeProgram(frontEnd->analyze(source, request.assemble), request);
    return analyzeProgram(assemble(source, request.assemble), request);
}

struct Analyzer::State {
    std::uint64_t lastSerial = 0;
    TimingAnalyzer timing;
    LdsProgramAnalyzer lds;
    CheckOptions checks; // the options the last complete run checked with
    int hazardWalks = 0;
    bool flowReused = false;
    // Liveness's per-block sets of the last complete run, and of this run until it completes (a
    // cancelled run must leave the sets that match `previous`).
    LivenessBlocks live, pendingLive;

    // analyzeFlow, reusing `previous` (this object's last result) where the edit allows.
    void flow(Analysis& analysis, const AnalysisRequest& request, const Analysis* previous)
    {
        const Program& p = analysis.program;
        hazardWalks = 0;
        flowReused = false;
        analysis.cfg = buildCfg(p);
        const int n = int(p.instructions.size());
        const bool comparable = previous && checks == request.timing.checks && previous->cfg == analysis.cfg
            && previous->program.instructions.size() == p.instructions.size()
            && previous->program.kernels.size() == p.kernels.size() && previous->program.gpu.targetId == p.gpu.targetId
            && previous->program.gpu.generation == p.gpu.generation;
        if (!comparable) {
            analysis.liveness = analyzeLiveness(p, analysis.cfg, &pendingLive);
            analysis.checks = analyzeChecks(p, analysis.cfg, request.timing, &hazardWalks);
            return;
        }
        const auto ends = detail::commonEnds(p.instructions, previous->program.instructions, sameForFlow);
        if (ends.head == n) {
            analysis.liveness = previous->liveness;
            analysis.checks = previous->checks;
            pendingLive = live;
            flowReused = true;
            return;
        }
        pendingLive = live;
        analysis.liveness = analyzeLivenessAfterEdit(p, analysis.cfg, previous->liveness, pendingLive, ends.head, n - ends.tail);
        analysis.checks =
            analyzeChecksAfterEdit(p, analysis.cfg, request.timing, previous->checks, ends.head, n - ends.tail, &hazardWalks);
    }
};

Analyzer::Analyzer()
    : state_(std::make_unique<State>())
{
}
Analyzer::~Analyzer() = default;

Analyzer::Work Analyzer::lastWork() const
{
    const int walks = state_->hazardWalks;
    return {state_->timing.timedInstructions(), state_->lds.evaluatedInstructions(), walks, state_->flowReused};
}

Analysis Analyzer::analyze(const Program& program, const AnalysisRequest& request, const Analysis* previous, std::stop_token stop)
{
    return analyze(Program(program), request, previous, stop);
}

Analysis Analyzer::analyze(Program&& program, const AnalysisRequest& request, const Analysis* previous, std::stop_token stop)
{
    State& s = *state_;
    if (previous && (previous->serial == 0 || previous->serial != s.lastSerial))
        previous = nullptr;
    const CancelScope cancel(stop);
    checkCancelled();
    Analysis analysis;
    analysis.program = std::move(program);
    const Program& p = analysis.program;
    // The passes without a cache first, then the ones with: a cancel (which the passes check for
    // before they write their caches) then leaves every cache as the last complete run left it,
    // and `previous` stays good to build on. After the timing pass commits, no check follows.
    s.flow(analysis, request, previous);
    const std::uint64_t lastComplete = s.lastSerial;
    s.lastSerial = 0; // until this run completes: a throw leaves nothing to build on...
    try {
        analysis.timing = s.timing.analyze(p, request.timing, request.branches, previous ? &previous->program : nullptr,
                                           previous ? &previous->timing : nullptr);
    } catch (const AnalysisCancelled&) {
        s.lastSerial = lastComplete; // ...but a cancel stops the timing pass before it writes its cache
        throw;
    }
    analyzeKernels(analysis, request);
    analysis.lds =
        s.lds.analyze(p, ldsOptions(request), previous ? &previous->program : nullptr, previous ? &previous->lds : nullptr);
    s.checks = request.timing.checks;
    s.live = std::move(s.pendingLive);
    analysis.serial = s.lastSerial = ++serials;
    return analysis;
}

} // namespace gcnlens
