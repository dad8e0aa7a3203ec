// SPDX-License-Identifier: MIT
// Bytes per analysed instruction (issue #18: at most 120 on average), two ways, printed:
// (1) `gcnlens-cli analyze` (text output) run as a child on generated files: its peak resident
//     size above that of a 10-instruction kernel, per instruction, for this build and, with
//     --before, for another build's gcnlens-cli (e.g. main's), in the same run, as a ratio. Run
//     first, while this process is small: a forked child's peak counts the parent's pages.
// (2) in this process, the heap each part of the Analysis holds (Program, timing, LDS, CFG,
//     liveness, checks) and the run's peak resident growth, per instruction, for the shared
//     generated kernel and its variant with distinct literals/offsets/registers; and what an
//     Analyzer (the window's incremental path) keeps beside its result.
// (3) with --manifest, (2) for each real kernel the manifest lists (bench/manifest.h: its GPU,
//     --defsym and include folders), and their sum: bytes of all over instructions of all. Each
//     GPU's target kit is made first, on a one-line kernel, so that a file's figures are its own.
// Not part of ctest.
// Usage: bench_memory [--before PATH-TO-OLD-gcnlens-cli] [--manifest TSV] [sizes… = 100000 1000000]
//   (with --manifest and no sizes: only (3))
#include "core/analysis.h"

#include "benchmemory.h"
#include "generatedkernel.h"
#include "manifest.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

using namespace gcnlens;
using namespace gcnlens::bench;

namespace {

// Heap bytes each part of an Analysis holds, summed over the kernels measured.
struct Parts {
    double instructions = 0, program = 0, timing = 0, lds = 0, cfg = 0, live = 0, checks = 0, peak = 0, state = 0;
    void add(const Parts& o)
    {
        instructions += o.instructions, program += o.program, timing += o.timing, lds += o.lds, cfg += o.cfg;
        live += o.live, checks += o.checks, peak += o.peak, state += o.state;
    }
    void print(std::string kind) const
    {
        if (kind.size() > 9) // a file's name: on a line of its own, the figures under it
            std::printf("%s\n", std::exchange(kind, std::string()).c_str());
        const double n = std::max(instructions, 1.0);
        const double total = program + timing + lds + cfg + live + checks;
        std::printf("%-9s %9.0f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %10.1f %9.0f %9.1f\n", kind.c_str(), instructions,
                    program / n, timing / n, lds / n, cfg / n, live / n, checks / n, total / n, peak / n,
                    megabytes(std::size_t(std::max(peak, 0.0))), state / n);
    }
};

Parts inProcess(const std::string& text, const AnalysisRequest& request)
{
    Analysis analysis;
    const std::size_t rssBefore = rssBytes();
    resetPeakRss();
    auto measure = [](const std::function<void()>& run) {
        const std::size_t before = heapInUseBytes();
        run();
        return double(heapInUseBytes()) - double(before);
    };
    Parts parts;
    parts.program = measure([&] { analysis.program = assemble(text, request.assemble); });
    const Program& p = analysis.program;
    parts.timing = measure([&] { analysis.timing = analyzeTiming(p, request.timing, request.branches); });
    parts.lds = measure([&] { analysis.lds = analyzeLdsInProgram(p, request.lds); });
    parts.cfg = measure([&] { analysis.cfg = buildCfg(p); });
    parts.live = measure([&] { analysis.liveness = analyzeLiveness(p, analysis.cfg); });
    parts.checks = measure([&] { analysis.checks = analyzeChecks(p, analysis.cfg, request.timing); });
    parts.instructions = double(p.instructions.size());
    parts.peak = double(peakRssBytes()) - double(rssBefore);
    // The window's path: an Analyzer keeps what the next edit resumes from (checkpoints, liveness
    // sets) beside a result like analyzeProgram's (which holds a copy of the program).
    Analysis plain;
    const double plainBytes = measure([&] { plain = analyzeProgram(p, request); });
    Analyzer analyzer;
    Analysis kept;
    parts.state = measure([&] { kept = analyzer.analyze(p, request); }) - plainBytes;
    return parts;
}

void inProcess(const char* kind, const std::string& text)
{
    AnalysisRequest request;
    request.assemble.gpu = "tahiti";
    inProcess(text, request).print(kind);
}

// (3): the manifest's kernels, one row each and their sum.
void manifestRows(const std::string& manifest)
{
    std::printf("\n(3) real kernels of %s, as (2); the sum row is bytes of all over instructions of all\n", manifest.c_str());
    Parts sum;
    std::vector<std::string> warmed;
    for (const auto& row : readManifest(manifest, {})) {
        std::ifstream in(row.path, std::ios::binary);
        if (!in) {
            std::printf("    (%s: cannot read; left out)\n", row.path.c_str());
            continue;
        }
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        AnalysisRequest request;
        request.assemble.gpu = row.gpu;
        request.assemble.triple = row.triple;
        request.assemble.includeDirs = row.includeDirs;
        request.assemble.fileName = row.path;
        for (const auto& d : row.defsyms)
            if (const auto defsym = parseDefsym(d))
                request.assemble.defsyms.push_back(*defsym);
        // The kit for the GPU and triple (both triples the source may ask for, when the row
        // names none), made and kept (the front-end keeps a few) before the measured run.
        const std::string kit = row.gpu + "/" + row.triple;
        if (std::find(warmed.begin(), warmed.end(), kit) == warmed.end()) {
            for (const std::string triple : {"amdgcn--", "amdgcn-amd-amdhsa"}) {
                AnalysisRequest warm;
                warm.assemble.gpu = row.gpu;
                warm.assemble.triple = row.triple.empty() ? triple : row.triple;
                (void)analyzeProgram(assemble("s_endpgm\n", warm.assemble), warm);
            }
            warmed.push_back(kit);
        }
        const Parts parts = inProcess(text, request);
        parts.print(std::filesystem::path(row.label).filename().string());
        sum.add(parts);
    }
    sum.print("sum");
}

// Peak resident bytes of `cli analyze file` run as a child (ru_maxrss of that child alone).
std::size_t childPeak(const std::string& cli, const std::string& file)
{
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", 1);
        dup2(null, 1);
        dup2(null, 2);
        // No wall-clock limit on the worker: on a loaded machine a 1M-line run passes the default 10 s.
        execl(cli.c_str(), cli.c_str(), "analyze", "--gpu", "tahiti", "--limit", "time=3600", file.c_str(),
              static_cast<char*>(nullptr));
        _exit(127);
    }
    int status = 0;
    rusage usage {};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("    (%s failed on %s: status %d; its figure is left out)\n", cli.c_str(), file.c_str(), status);
        return 0;
    }
    return std::size_t(usage.ru_maxrss) * 1024;
}

} // namespace

int main(int argc, char** argv)
{
    std::string before, manifest;
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--before") == 0 && i + 1 < argc)
            before = argv[++i];
        else if (std::strcmp(argv[i], "--manifest") == 0 && i + 1 < argc)
            manifest = argv[++i];
        else
            sizes.push_back(std::atoi(argv[i]));
    }
    // With a manifest and no sizes, only (3): generated kernels analysed first would have filled
    // the interned pools and the block heap the real kernels' figures then leave out.
    if (!manifest.empty() && sizes.empty()) {
        manifestRows(manifest);
        return 0;
    }
    if (sizes.empty())
        sizes = {100000, 1000000};
    const std::string after = (std::filesystem::path(argv[0]).parent_path() / "gcnlens-cli").string();

    std::printf("(1) gcnlens-cli analyze --gpu tahiti FILE: peak resident bytes per instruction above a 10-instruction kernel\n");
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("bench_memory." + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto write = [&](const std::string& name, const std::string& text) {
        const std::string path = (dir / name).string();
        std::ofstream(path) << text;
        return path;
    };
    const std::string tiny = write("tiny.s", generateKernel(10));
    const std::size_t tinyAfter = childPeak(after, tiny);
    const std::size_t tinyBefore = before.empty() ? 0 : childPeak(before, tiny);
    std::printf("%-9s %9s %12s %12s %8s %12s %12s\n", "kernel", "instr", "before B/in", "after B/in", "ratio", "before MB",
                "after MB");
    for (const int n : sizes) {
        for (const bool distinct : {false, true}) {
            const std::string file = write("k.s", distinct ? generateDistinctKernel(n) : generateKernel(n));
            const std::size_t a = childPeak(after, file);
            const std::size_t b = before.empty() ? 0 : childPeak(before, file);
            const double perA = a ? (double(a) - double(tinyAfter)) / n : 0;
            const double perB = b ? (double(b) - double(tinyBefore)) / n : 0;
            std::printf("%-9s %9d %12.0f %12.0f %8.2f %12.0f %12.0f\n", distinct ? "distinct" : "repeated", n, perB, perA,
                        perB > 0 ? perA / perB : 0.0, megabytes(b), megabytes(a));
        }
    }
    std::filesystem::remove_all(dir);
    std::printf("\n(2) in process: heap bytes per instruction each part holds; peak: resident growth of the run;\n"
                "    analyzer: what an Analyzer keeps beside its result (its state for the next edit)\n");
    std::printf("%-9s %9s %8s %8s %8s %8s %8s %8s %8s %10s %9s %9s\n", "kernel", "instr", "program", "timing", "lds", "cfg",
                "liveness", "checks", "total", "peak B/in", "peak MB", "analyzer");
    for (const int n : sizes) {
        inProcess("repeated", generateKernel(n));
        inProcess("distinct", generateDistinctKernel(n));
    }
    std::printf("    interned pools: %.1f MB\n", megabytes(intern::poolBytes()));
    if (!manifest.empty())
        manifestRows(manifest);
    return 0;
}
