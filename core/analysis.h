// SPDX-License-Identifier: MIT
// Everything gcnlens computes for one source text, in one value: what the CLI's summary, the
// window and the PDF report all show. Built by runAnalysis() from the separate models.
#pragma once

#include "core/asm/assembler.h"
#include "core/model/hazards.h"
#include "core/model/lds.h"
#include "core/model/liveness.h"
#include "core/model/occupancy.h"
#include "core/model/timing.h"

#include <cstdint>
#include <map>
#include <memory>
#include <stop_token>
#include <vector>

namespace gcnlens {

struct AnalysisRequest {
    AssembleOptions assemble;
    TimingOptions timing;
    BranchOverrides branches;
    LdsKernelOptions lds;
};

struct Analysis {
    Program program;
    TimingResult timing;
    std::vector<ResourceUsage> resources;        // per kernel
    std::vector<OccupancyInput> occupancyInputs; // per kernel (from declared/used resources)
    std::vector<OccupancyResult> occupancy;      // per kernel
    LdsResults lds;                              // instruction index → DS access (equal ones shared)
    Cfg cfg;                                     // the one control-flow graph (liveness, checks)
    LivenessResult liveness;                     // issue #16
    CheckResult checks;                          // issue #17: wait-state hazards, s_waitcnt
    std::uint64_t serial = 0;                    // which Analyzer run made it (0: none), see below
};

// Runs every model on the source. The FrontEnd, when given, keeps its caches between calls
// (the editor's incremental path); results equal a fresh run.
Analysis runAnalysis(std::string_view source, const AnalysisRequest& request, FrontEnd* frontEnd = nullptr);

// Recomputes the models on an already assembled program (e.g. after a branch-direction or option
// change, which does not need the assembler again). A large program's passes run on two threads.
Analysis analyzeProgram(Program program, const AnalysisRequest& request);

// analyzeProgram's passes, in an order it may run them in (liveness and the checks read the CFG;
// no other pass reads another's result). Named so that a benchmark times each pass through the
// same code (bench_passes).
enum class AnalysisPass { Timing, Kernels, Lds, Cfg, Liveness, Checks };
inline constexpr AnalysisPass kAnalysisPasses[] = {AnalysisPass::Timing, AnalysisPass::Kernels,  AnalysisPass::Lds,
                                                   AnalysisPass::Cfg,    AnalysisPass::Liveness, AnalysisPass::Checks};
void runAnalysisPass(Analysis& analysis, AnalysisPass pass, const AnalysisRequest& request);

// The models for a sequence of edited programs (the editor's path). Each result equals
// analyzeProgram(program, request); what the previous result already holds is reused where the
// program did not change: the timing pass and the LDS evaluation restart near the edit and stop
// as soon as their state matches the previous run's again (TimingAnalyzer, LdsProgramAnalyzer).
// When an edit keeps the CFG and the number of instructions, the flow passes reuse too: nothing
// is recomputed when no instruction changed for them (a comment, spaces), else liveness and the
// s_waitcnt model run again and the hazards are walked only near the edit (analyzeChecksAfterEdit).
class Analyzer {
public:
    Analyzer();
    ~Analyzer();
    Analyzer(const Analyzer&) = delete;
    Analyzer& operator=(const Analyzer&) = delete;

    // `previous` is reused only when it is this object's last result (its serial says so);
    // anything else, or nullptr, means a full run. When `stop` is requested (a newer request
    // superseded this one) the passes stop at their next check and AnalysisCancelled is thrown
    // (core/support/cancel.h): no partial result, and `previous` stays this object's last result.
    Analysis analyze(const Program& program, const AnalysisRequest& request, const Analysis* previous = nullptr,
                     std::stop_token stop = {});
    // The same with the program moved into the result rather than copied (the window's path).
    Analysis analyze(Program&& program, const AnalysisRequest& request, const Analysis* previous = nullptr,
                     std::stop_token stop = {});

    // How much of the last analyze() was computed rather than reused (tests and benchmarks).
    struct Work {
        int timedInstructions = 0;
        int ldsEvaluatedInstructions = 0;
        int hazardWalks = 0;     // consumers the hazard check walked back from
        bool flowReused = false; // liveness and the checks taken from the previous result as they were
    };
    Work lastWork() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace gcnlens
