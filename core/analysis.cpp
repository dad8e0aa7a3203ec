// SPDX-License-Identifier: MIT
#include "core/analysis.h"

namespace gcnlens {

Analysis analyzeProgram(Program program, const AnalysisRequest& request)
{
    Analysis analysis;
    analysis.program = std::move(program);
    const Program& p = analysis.program;
    analysis.timing = analyzeTiming(p, request.timing, request.branches);
    for (int k = 0; k < int(p.kernels.size()); ++k) {
        analysis.resources.push_back(kernelResources(p, k));
        OccupancyInput input = occupancyInputFor(p, k);
        input.trapHandler = input.trapHandler || request.timing.trapHandler;
        analysis.occupancyInputs.push_back(input);
        analysis.occupancy.push_back(computeOccupancy(p.gpu, input, request.timing));
    }
    LdsKernelOptions lds = request.lds;
    lds.groupDwords = request.timing.ldsGroupDwords;
    analysis.lds = analyzeLdsInProgram(p, lds);
    return analysis;
}

Analysis runAnalysis(std::string_view source, const AnalysisRequest& request, FrontEnd* frontEnd)
{
    if (frontEnd)
        return analyzeProgram(frontEnd->analyze(source, request.assemble), request);
    return analyzeProgram(assemble(source, request.assemble), request);
}

} // namespace gcnlens
