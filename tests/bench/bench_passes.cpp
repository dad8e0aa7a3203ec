// SPDX-License-Identifier: MIT
// Where `analyze` spends its time (issue #18): each file assembled in-process, then each of
// analyzeProgram's passes (runAnalysisPass, the same code) timed alone, least of --runs. Prints
// per file the milliseconds of the assembler and of each pass, and the passes' sum against the
// assembler's. Not part of ctest.
// Usage: bench_passes [--gpu NAME] [--defsym N=V]... [-I DIR]... [--manifest TSV] [--runs=N]
//                     [--generate=N] FILE...
//   --generate: also the all-distinct generated kernel of N instructions (bench_frontend's).
#include "core/analysis.h"

#include "benchmemory.h"
#include "generatedkernel.h"
#include "manifestjobs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kPassNames[] = {"timing", "kernels", "lds", "cfg", "liveness", "checks"};
constexpr int kPasses = int(std::size(kAnalysisPasses));
static_assert(std::size(kPassNames) == std::size(kAnalysisPasses));

template <typename F> double millis(F f)
{
    const auto start = Clock::now();
    f();
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Figures {
    double assemble = std::numeric_limits<double>::max();
    double passes[kPasses];
    std::size_t instructions = 0;
};

Figures measure(const std::string& source, const AssembleOptions& options, int runs)
{
    AnalysisRequest request;
    request.assemble = options;
    Figures f;
    std::fill(std::begin(f.passes), std::end(f.passes), std::numeric_limits<double>::max());
    for (int run = 0; run < runs; ++run) {
        Analysis analysis;
        f.assemble = std::min(f.assemble, millis([&] { analysis.program = assemble(source, request.assemble); }));
        f.instructions = analysis.program.instructions.size();
        for (int i = 0; i < kPasses; ++i)
            f.passes[i] = std::min(f.passes[i], millis([&] { runAnalysisPass(analysis, kAnalysisPasses[i], request); }));
    }
    return f;
}

void printRow(const Figures& f, const std::string& label)
{
    double sum = 0;
    std::printf("%8zu %9.2f |", f.instructions, f.assemble);
    for (const double ms : f.passes) {
        std::printf(" %8.2f", ms);
        sum += ms;
    }
    std::printf(" | %8.2f %5.2fx  %s\n", sum, f.assemble > 0 ? sum / f.assemble : 0.0, label.c_str());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> flags;
    std::vector<bench::Job> jobs = bench::parseJobs(argc, argv, flags);
    int runs = 5, generate = 0;
    for (const std::string& flag : flags) {
        if (flag.starts_with("--runs="))
            runs = std::max(1, std::stoi(flag.substr(7)));
        else if (flag.starts_with("--generate="))
            generate = std::stoi(flag.substr(11));
        else {
            std::fprintf(stderr, "bench_passes: unknown option %s\n", flag.c_str());
            return 2;
        }
    }
    std::printf("%8s %9s |", "instr", "asm ms");
    for (const char* name : kPassNames)
        std::printf(" %8s", name);
    std::printf(" | %8s %6s  file\n", "passes", "/asm");
    std::printf("(milliseconds, least of %d runs; asm: assemble() in-process; passes: analyzeProgram's, each alone)\n", runs);
    Figures total;
    total.assemble = 0;
    std::fill(std::begin(total.passes), std::end(total.passes), 0.0);
    const auto add = [&](const Figures& f) {
        total.assemble += f.assemble;
        total.instructions += f.instructions;
        for (int i = 0; i < kPasses; ++i)
            total.passes[i] += f.passes[i];
    };
    for (const bench::Job& job : jobs) {
        std::string source;
        if (!bench::readJobFile(job, source))
            return 2;
        const Figures f = measure(source, job.options, runs);
        printRow(f, job.label);
        add(f);
    }
    if (generate > 0) {
        AssembleOptions options;
        options.gpu = "tahiti";
        const Figures f = measure(bench::generateDistinctKernel(generate), options, runs);
        printRow(f, "distinct " + std::to_string(generate));
        add(f);
    }
    printRow(total, "(sum)");
    std::printf("peak %.1f MB\n", bench::megabytes(bench::peakRssBytes()));
    return 0;
}
