// SPDX-License-Identifier: MIT
// Bytes per analysed instruction (issue #18), by part: the Program the front-end returns and each
// result of the Analysis (timing, LDS, CFG, liveness, checks), measured as the heap each value
// holds, on the shared generated kernel at 10k/100k/1M instructions, with the run's peak.
// Prints its figures; not part of ctest.  Usage: bench_memory [max instructions = 1000000]
#include "core/analysis.h"

#include "benchmemory.h"
#include "generatedkernel.h"

#include <cstdio>
#include <cstdlib>

using namespace gcnlens;
using namespace gcnlens::bench;

int main(int argc, char** argv)
{
    const int max = argc > 1 ? std::atoi(argv[1]) : 1000000;
    std::printf("%9s %9s %9s %9s %9s %9s %9s %9s %10s %10s\n", "instr", "program", "timing", "lds", "cfg", "liveness",
                "checks", "total", "B/instr", "peak MB");
    for (int n = 10000; n <= max; n *= 10) {
        AnalysisRequest request;
        request.assemble.gpu = "tahiti";
        std::size_t program = 0;
        Analysis analysis;
        {
            const std::string text = generateKernel(n);
            resetPeakRss();
            const std::size_t before = heapInUseBytes();
            Program p = assemble(text, request.assemble);
            program = heapInUseBytes() - before;
            analysis.program = std::move(p);
        }
        const Program& p = analysis.program;
        auto measure = [](auto&& run) {
            const std::size_t before = heapInUseBytes();
            run();
            return double(heapInUseBytes() - before);
        };
        const double timing = measure([&] { analysis.timing = analyzeTiming(p, request.timing, request.branches); });
        LdsKernelOptions ldsOptions = request.lds;
        const double lds = measure([&] { analysis.lds = analyzeLdsInProgram(p, ldsOptions); });
        const double cfg = measure([&] { analysis.cfg = buildCfg(p); });
        const double live = measure([&] { analysis.liveness = analyzeLiveness(p, analysis.cfg); });
        const double checks = measure([&] { analysis.checks = analyzeChecks(p, analysis.cfg, request.timing); });
        const double count = double(p.instructions.size());
        const double total = double(program) + timing + lds + cfg + live + checks;
        std::printf("%9zu %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %10.1f %10.1f\n", p.instructions.size(),
                    double(program) / count, timing / count, lds / count, cfg / count, live / count, checks / count,
                    total / count, total / count, megabytes(peakRssBytes()));
    }
    std::printf("(columns program … total: heap bytes per instruction each value holds)\n");
    return 0;
}
