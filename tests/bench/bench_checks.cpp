// SPDX-License-Identifier: MIT
// Speed of the CFG, liveness (issue #16) and the hazard/s_waitcnt checks (issue #17) on the shared
// generated kernel (loops every 64 instructions) at 10k/100k/1M instructions: the cost per
// instruction of each pass, after the front-end. Prints its figures; not part of ctest.
// Usage: bench_checks [max instructions = 1000000]
#include "core/asm/assembler.h"
#include "core/model/hazards.h"
#include "core/model/liveness.h"

#include "generatedkernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

template <typename F>
double millis(F f)
{
    const auto start = Clock::now();
    f();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    const int max = argc > 1 ? std::atoi(argv[1]) : 1000000;
    std::printf("%10s %10s %10s %10s %10s %12s %9s %9s\n", "instr", "cfg ms", "live ms", "checks ms", "total ms",
                "ns/instr", "hazards", "waits");
    for (int n = 10000; n <= max; n *= 10) {
        AssembleOptions options;
        options.gpu = "tahiti";
        const Program program = assemble(bench::generateKernel(n), options);
        Cfg cfg;
        LivenessResult live;
        CheckResult checks;
        const double c = millis([&] { cfg = buildCfg(program); });
        const double l = millis([&] { live = analyzeLiveness(program, cfg); });
        const double h = millis([&] { checks = analyzeChecks(program, cfg); });
        const double total = c + l + h;
        std::printf("%10zu %10.1f %10.1f %10.1f %10.1f %12.1f %9zu %9zu\n", program.instructions.size(), c, l, h, total,
                    total * 1e6 / double(program.instructions.size()), checks.hazards.size(), checks.waits.size());
    }
    return 0;
}
