// SPDX-License-Identifier: MIT
// Everything gcnlens computes for one source text, in one value: what the CLI's summary, the
// window and the PDF report all show. Built by runAnalysis() from the separate models.
#pragma once

#include "core/lds.h"
#include "core/occupancy.h"
#include "core/program.h"
#include "core/timing.h"

#include <map>
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
    std::vector<ResourceUsage> resources;     // per kernel
    std::vector<OccupancyInput> occupancyInputs; // per kernel (from declared/used resources)
    std::vector<OccupancyResult> occupancy;   // per kernel
    std::map<int, LdsAccessResult> lds;       // instruction index → DS access
};

// Runs every model on the source. The FrontEnd, when given, keeps its caches between calls
// (the editor's incremental path); results equal a fresh run.
Analysis runAnalysis(std::string_view source, const AnalysisRequest& request, FrontEnd* frontEnd = nullptr);

// Recomputes the models on an already assembled program (e.g. after a branch-direction or option
// change, which does not need the assembler again).
Analysis analyzeProgram(Program program, const AnalysisRequest& request);

} // namespace gcnlens
