// SPDX-License-Identifier: MIT
// Speed of the CFG, liveness (issue #16) and the hazard/s_waitcnt checks (issue #17) on the shared
// generated kernel (loops every 64 instructions) at 10k/100k/1M instructions: the cost per
// instruction of each pass, after the front-end, and the checks again after a one-operand edit in
// the middle (the editor's path: only the hazard consumers near the edit are walked again).
// Prints its figures; not part of ctest.
// Usage: bench_checks [max instructions = 1000000]
#include "core/asm/assembler.h"
#include "core/model/hazards.h"
#include "core/model/liveness.h"

#include "benchmemory.h"
#include "generatedkernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

template <typename F> double millis(F f)
{
    const auto start = Clock::now();
    f();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    const int max = argc > 1 ? std::atoi(argv[1]) : 1000000;
    std::printf("%9s %7s %8s %9s %9s %9s %9s | %11s %6s | %12s %12s %7s | %8s %7s %8s\n", "instr", "cfg ms", "live ms",
                "live ns/i", "checks ms", "total ms", "total ns/i", "edit chk ms", "walks", "edit live ms", "resumed ms",
                "blocks", "hazards", "waits", "peak MB");
    std::printf("(edit live ms: a fresh liveness run after the operand edit; resumed ms / blocks: analyzeLivenessAfterEdit "
                "and the blocks it counted again; literal: the same for a literal edit, which keeps every register)\n");
    for (int n = 10000; n <= max; n *= 10) {
        AssembleOptions options;
        options.gpu = "tahiti";
        std::string text = bench::generateKernel(n);
        const Program program = assemble(text, options);
        Cfg cfg;
        LivenessResult live;
        CheckResult checks;
        const double c = millis([&] { cfg = buildCfg(program); });
        const double l = millis([&] { live = analyzeLiveness(program, cfg); });
        const double h = millis([&] { checks = analyzeChecks(program, cfg); });
        const double total = c + l + h;
        // The editor's path after a one-operand edit in the middle (analyzeChecksAfterEdit, as
        // Analyzer runs it when the CFG and the instruction count stay).
        const std::size_t at = text.find("v_add_f32 v", text.size() / 2);
        text.replace(text.find("v1, v2", at), 6, "v7, v2");
        const Program edited = assemble(text, options);
        int first = 0;
        while (first < int(edited.instructions.size())
               && edited.instructions[std::size_t(first)].operands == program.instructions[std::size_t(first)].operands)
            ++first;
        int walks = 0;
        CheckResult after;
        const Cfg editedCfg = buildCfg(edited);
        const double e = millis([&] { after = analyzeChecksAfterEdit(edited, editedCfg, {}, checks, first, first + 1, &walks); });
        // Liveness after the same edit: a fresh run (what the editor's path did before) and the
        // resumed one (analyzeLivenessAfterEdit: only the blocks reaching the edit iterate, only
        // the edited block and those whose live-out changed are counted again).
        LivenessBlocks blocks;
        analyzeLiveness(program, cfg, &blocks);
        LivenessResult fresh, resumed;
        const double lf = millis([&] { fresh = analyzeLiveness(edited, editedCfg); });
        int recounted = 0;
        const double lr =
            millis([&] { resumed = analyzeLivenessAfterEdit(edited, editedCfg, live, blocks, first, first + 1, &recounted); });
        if (!(fresh == resumed))
            std::printf("resumed liveness differs from a fresh run\n");
        // A literal edit (registers unchanged) on the edited program: only its block is counted again.
        std::string literalText = text;
        literalText.replace(literalText.find("0x40490fdb", text.size() / 2), 10, "0x40490fdc");
        const Program literal = assemble(literalText, options);
        int literalAt = 0;
        while (literalAt < int(literal.instructions.size())
               && literal.instructions[std::size_t(literalAt)].operands == edited.instructions[std::size_t(literalAt)].operands)
            ++literalAt;
        const Cfg literalCfg = buildCfg(literal);
        int literalBlocks = 0;
        LivenessResult literalLive;
        const double ll = millis([&] {
            literalLive =
                analyzeLivenessAfterEdit(literal, literalCfg, resumed, blocks, literalAt, literalAt + 1, &literalBlocks);
        });
        if (!(literalLive == analyzeLiveness(literal, literalCfg)))
            std::printf("resumed liveness after the literal edit differs from a fresh run\n");
        const double ni = double(program.instructions.size());
        std::printf("%9zu %7.1f %8.1f %9.1f %9.1f %9.1f %9.1f | %11.2f %6d | %12.2f %12.2f %7d | literal %6.2f ms %3d | %8zu "
                    "%7zu %8.0f\n",
                    program.instructions.size(), c, l, l * 1e6 / ni, h, total, total * 1e6 / ni, e, walks, lf, lr, recounted, ll,
                    literalBlocks, checks.hazards.size(), checks.waits.size(), bench::megabytes(bench::peakRssBytes()));
    }
    return 0;
}
