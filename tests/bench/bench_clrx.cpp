// SPDX-License-Identifier: MIT
// Issue #13: the cost of reading CLRX syntax. The same kernel (generatedkernel.h) in LLVM syntax
// and in CLRX syntax (a .kernel/.config header, '#' comments, register symbols, vop3 and ';'),
// assembled alternately; prints the medians and the ratio (goal: at most 1.20).
// Usage: bench_clrx [INSTRUCTIONS...]   (default 10000 100000)
// Beside the wall-clock medians, the CPU time of the process (CLOCK_PROCESS_CPUTIME_ID): on a
// machine others share, a run of 300 ms is preempted far more often than one of 3 ms, so the
// CPU-time ratio is the steadier figure there.
#include "benchmemory.h"
#include "generatedkernel.h"

#include "core/asm/assembler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <tuple>
#include <vector>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

double cpuMilliseconds()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The generated LLVM kernel rewritten in CLRX syntax, line for line where it can be.
std::string clrxTwin(const std::string& llvm)
{
    std::string out = ".kernel kernel\n  .config\n    .dims x\n    .vgprsnum 100\n    .sgprsnum 100\n.text\n"
                      "src = %v[1:3]   # register symbols\n";
    std::size_t start = 0;
    int line = 0;
    while (start < llvm.size()) {
        auto end = llvm.find('\n', start);
        std::string text = llvm.substr(start, end - start);
        start = end + 1;
        if (text == ".text" || text == "kernel:")
            continue;
        // CLRX forms with the same encoding: symbols for v1/v2, vop3 instead of _e64.
        if (const auto at = text.find("v_fma_f32"); at != std::string::npos)
            text.replace(text.find(", v1, v2, v3"), 12, ", src[0], src[1], src[2]");
        if (++line % 16 == 0)
            text += "   # a comment";
        out += text + '\n';
    }
    return out;
}

// Median time of FrontEnd::analyze after one line in the middle is replaced (the text before
// the edit analysed first, untimed), over lines spread around the middle.
double editTimes(const std::string& text, const AssembleOptions& options)
{
    std::vector<std::size_t> starts;
    for (std::size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
        starts.push_back(at);
        if (text.find('\n', at) == std::string::npos)
            break;
    }
    FrontEnd frontEnd;
    std::vector<double> times;
    for (int k = 0; k < 9; ++k) {
        const std::size_t line = starts.size() / 2 + std::size_t(k) * 7;
        const std::size_t begin = starts[line], end = text.find('\n', begin);
        const std::string edited = text.substr(0, begin) + "    v_add_f32 v1, v2, v3" + text.substr(end);
        frontEnd.analyze(text, options);
        const auto t0 = Clock::now();
        frontEnd.analyze(edited, options);
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return median(times);
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<int> sizes = bench::sizesFromArguments(argc, argv, {10000, 100000});
    std::printf("%-10s %12s %12s %8s %14s %12s %12s %8s %9s\n", "instrs", "llvm ms", "clrx ms", "ratio", "translate ms",
                "llvm cpu ms", "clrx cpu ms", "cpu ratio", "peak MiB");
    std::vector<std::tuple<int, double, double>> edits;
    for (const int size : sizes) {
        bench::resetPeakRss();
        const std::string llvm = bench::generateKernel(size);
        const std::string clrx = clrxTwin(llvm);
        AssembleOptions a;
        a.dialect = AssembleOptions::Dialect::Llvm;
        AssembleOptions b;
        b.dialect = AssembleOptions::Dialect::Clrx;
        const Program pa = assemble(llvm, a), pb = assemble(clrx, b);
        if (pa.instructions.size() != pb.instructions.size() || pb.hasErrors()) {
            std::printf("the twins differ: %zu vs %zu instructions, %s\n", pa.instructions.size(), pb.instructions.size(),
                        pb.hasErrors() ? pb.diagnostics.front().message.c_str() : "");
            return 1;
        }
        std::vector<double> ta, tb, tt, ca, cb;
        const int runs = size >= 100000 ? 3 : 7;
        for (int r = 0; r < runs; ++r) {
            const double c0 = cpuMilliseconds();
            auto t0 = Clock::now();
            const Program x = assemble(llvm, a);
            auto t1 = Clock::now();
            const double c1 = cpuMilliseconds();
            const Program y = assemble(clrx, b);
            auto t2 = Clock::now();
            const double c2 = cpuMilliseconds();
            ca.push_back(c1 - c0);
            cb.push_back(c2 - c1);
            ClrxOptions options;
            const ClrxTranslation translation = translateClrx(clrx, options);
            auto t3 = Clock::now();
            tt.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
            ta.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            tb.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
        }
        const double ma = median(ta), mb = median(tb);
        const double mca = median(ca), mcb = median(cb);
        std::printf("%-10d %12.1f %12.1f %8.2f %14.1f %12.1f %12.1f %8.2f %9.0f\n", size, ma, mb, mb / ma, median(tt), mca, mcb,
                    mcb / mca, bench::megabytes(bench::peakRssBytes()));
        edits.push_back({size, editTimes(llvm, a), editTimes(clrx, b)});
    }
    // The editor's path: a FrontEnd kept between analyses, one line replaced in the middle.
    std::printf("\n%-10s %12s %12s %8s   (one line edited, FrontEnd reused)\n", "instrs", "llvm ms", "clrx ms", "ratio");
    for (const auto& [size, ma, mb] : edits)
        std::printf("%-10d %12.2f %12.2f %8.2f\n", size, ma, mb, mb / ma);
    return 0;
}
