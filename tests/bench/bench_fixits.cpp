// SPDX-License-Identifier: MIT
// The cost of `check --fix-its` on any kernels, and a check of the kernel-scoped runs
// (docs/model.md §8): each file's fix-its are found as the CLI finds them (every candidate through
// the isolated front-end and the passes that judge it), once with candidates measured on a prefix
// of the text where it holds and once on the whole text only. Prints per file the seconds, the
// runs of each kind and whether the two chose the same fixes with the same deltas. Not part of
// ctest (a large kernel takes minutes whole-text only).
// Usage: bench_fixits [--gpu NAME] [--defsym N=V]... [-I DIR]... [--manifest TSV] [--scoped-only]
//                     [--max-findings=N] [--threads=N] FILE...
//   --threads: findings measured at once, each thread with a worker process of its own (default 1)
// Exit status 1 when a file's two runs differ.
#include "core/analysis.h"
#include "core/asm/isolated.h"
#include "core/model/fixits.h"

#include "benchmemory.h"
#include "manifestjobs.h"

#include <chrono>
#include <cstdio>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

struct Run {
    std::vector<FixIt> fixits;
    FixItStats stats;
    double seconds = 0;
};

Run findAll(const std::string& source, const Analysis& analysis, const AnalysisRequest& request, int maxFindings, bool scoped,
            int threads)
{
    FixItSearch search;
    search.maxFindings = maxFindings;
    search.kernelScoped = scoped;
    search.threads = threads;
    search.makeAssemble = [&] { return isolatedAssembler(request.assemble); };
    Run run;
    const auto start = Clock::now();
    run.fixits = findFixIts(source, analysis, request, isolatedAssembler(request.assemble), search, &run.stats);
    run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return run;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> flags;
    const std::vector<bench::Job> jobs = bench::parseJobs(argc, argv, flags);
    bool scopedOnly = false;
    int maxFindings = 200, threads = 1;
    for (const std::string& flag : flags) {
        if (flag == "--scoped-only")
            scopedOnly = true;
        else if (flag.starts_with("--threads="))
            threads = std::stoi(flag.substr(10));
        else if (flag.starts_with("--max-findings="))
            maxFindings = std::stoi(flag.substr(15));
        else {
            std::fprintf(stderr, "bench_fixits: unknown option %s\n", flag.c_str());
            return 2;
        }
    }
    std::printf("%-6s %6s %5s | %9s %6s %6s %7s | %9s %6s | %6s  file\n", "", "tried", "fixes", "scoped s", "whole", "prefix",
                "kernels", "whole s", "whole", "ratio");
    std::printf("(scoped: candidates on a kernel's prefix where it holds, each fix offered measured again whole; "
                "whole: every candidate on the whole text; runs are front-end runs)\n");
    int differing = 0;
    double scopedTotal = 0, wholeTotal = 0;
    for (const bench::Job& job : jobs) {
        std::string source;
        if (!bench::readJobFile(job, source))
            return 2;
        AnalysisRequest request;
        request.assemble = job.options;
        const Analysis analysis = runAnalysis(source, request);
        const int tried = std::min<int>(maxFindings, int(fixableFindings(analysis).size()));
        const Run scoped = findAll(source, analysis, request, maxFindings, true, threads);
        scopedTotal += scoped.seconds;
        if (scopedOnly) {
            std::printf("%-6s %6d %5zu | %9.2f %6d %6d %7d | %9s %6s | %6s  %s\n", "", tried, scoped.fixits.size(),
                        scoped.seconds, scoped.stats.wholeRuns, scoped.stats.prefixRuns, scoped.stats.scopedKernels, "-", "-",
                        "-", job.label.c_str());
            continue;
        }
        const Run whole = findAll(source, analysis, request, maxFindings, false, threads);
        wholeTotal += whole.seconds;
        const bool same = scoped.fixits == whole.fixits && scoped.stats.prefixMismatches == 0;
        differing += same ? 0 : 1;
        std::printf("%-6s %6d %5zu | %9.2f %6d %6d %7d | %9.2f %6d | %5.2fx  %s\n", same ? "same" : "DIFFER", tried,
                    scoped.fixits.size(), scoped.seconds, scoped.stats.wholeRuns, scoped.stats.prefixRuns,
                    scoped.stats.scopedKernels, whole.seconds, whole.stats.wholeRuns,
                    whole.seconds > 0 ? scoped.seconds / whole.seconds : 0.0, job.label.c_str());
        std::fflush(stdout);
    }
    std::printf("%zu files, %d differ; scoped %.2f s", jobs.size(), differing, scopedTotal);
    if (!scopedOnly)
        std::printf(", whole-text only %.2f s (%.2fx)", wholeTotal, wholeTotal > 0 ? scopedTotal / wholeTotal : 0.0);
    std::printf("; peak %.1f MB\n", bench::megabytes(bench::peakRssBytes()));
    return differing ? 1 : 0;
}
