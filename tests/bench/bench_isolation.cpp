// SPDX-License-Identifier: MIT
// What running the assembler in a worker process costs (issue #12): the Program codec alone
// (encode + decode) and, when built, assembling in-process against through the worker
// (IsolatedFrontEnd) at 10k/100k/1M instructions. Prints its figures; not part of ctest.
// Usage: bench_isolation [--max N]
#include "../core/linechange.h"
#include "benchmemory.h"
#include "core/asm/assembler.h"
#include "core/asm/isolated.h"
#include "core/asm/programcodec.h"
#include "generatedkernel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace gcnlens;
namespace test = gcnlens::test;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::duration d)
{
    return std::chrono::duration<double, std::milli>(d).count();
}

template <typename F> double medianMs(int runs, F&& f)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        f();
        times.push_back(ms(Clock::now() - start));
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int maxSize = 1000000;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--max" && i + 1 < argc)
            maxSize = std::atoi(argv[++i]);
    AssembleOptions options;
    // The first decode of a program meets cold intern pools (every distinct string is new), as
    // gcnlens-cli's one decode does; later ones find every string already there.
    std::printf("codec: %-9s %-8s %10s %10s %12s %14s %12s\n", "size", "kernel", "bytes", "B/instr", "encode (ms)",
                "1st decode ms", "decode (ms)");
    for (const int size : {10000, 100000, 1000000}) {
        if (size > maxSize)
            continue;
        for (const bool distinct : {false, true}) {
            const Program program =
                assemble(distinct ? bench::generateDistinctKernel(size) : bench::generateKernel(size), options);
            std::string bytes;
            const int runs = size >= 1000000 ? 3 : 9;
            const double encodeMs = medianMs(runs, [&] { bytes = codec::encode(program); });
            Program decoded;
            auto decode = [&] {
                decoded = Program {};
                if (!codec::decode(bytes, decoded))
                    std::abort();
            };
            const double firstMs = medianMs(1, decode);
            const double decodeMs = medianMs(runs, decode);
            std::printf("       %-9d %-8s %10zu %10.1f %12.2f %14.2f %12.2f\n", size, distinct ? "distinct" : "shared",
                        bytes.size(), double(bytes.size()) / size, encodeMs, firstMs, decodeMs);
        }
    }

    // The same kernels assembled here and through a warm worker; then the editor's path, a
    // one-operand edit made and undone (the FrontEnd splices it in, here or in the worker).
    // Peaks: this process's resident size while it assembled, and while the worker did (the
    // program decoded here; the worker's own memory is its own).
    std::printf("\nassemble: %-9s %14s %14s %8s %16s %16s %16s %12s %10s %12s\n", "size", "in-process ms", "worker ms", "ratio",
                "edit here ms", "edit worker ms", "line edit ms", "line edit B", "here MiB", "caller MiB");
    for (const int size : {10000, 100000, 1000000}) {
        if (size > maxSize)
            continue;
        const std::string text = bench::generateKernel(size);
        std::string edited = text;
        edited.replace(edited.find("v_add_f32 v", text.size() / 2) + 11, 1, "7");
        FrontEnd here;
        IsolatedFrontEnd worker;
        worker.analyze("s_nop 0\n", options); // started and warm
        options.limits.seconds = 600;
        const int runs = size >= 1000000 ? 1 : 3;
        bench::resetPeakRss();
        const double hereMs = medianMs(runs, [&] {
            here.analyze("s_nop 0\n", options);
            here.analyze(text, options);
        });
        const double hereMiB = bench::megabytes(bench::peakRssBytes());
        here.analyze("s_nop 0\n", options); // its program no longer counts
        bench::resetPeakRss();
        const double workerMs = medianMs(runs, [&] {
            worker.analyze("s_nop 0\n", options); // so that the next run is a full one
            worker.analyze(text, options);
        });
        const double callerMiB = bench::megabytes(bench::peakRssBytes());
        double editHere = 0, editWorker = 0, lineEdit = 0;
        std::size_t lineEditBytes = 0;
        if (size < 1000000) {
            here.analyze(text, options);
            worker.analyze(text, options);
            int flip = 0;
            editHere = medianMs(21, [&] { here.analyze(++flip % 2 ? edited : text, options); });
            flip = 0;
            editWorker = medianMs(21, [&] { worker.analyze(++flip % 2 ? edited : text, options); });
            // The editor's path since issue #11 item 6: the edited line crosses the socket, the
            // worker's splice comes back and is made here too (IsolatedFrontEnd::edit).
            worker.analyze(text, options);
            const LineChange there = test::lineChange(text, edited), back = test::lineChange(edited, text);
            flip = 0;
            lineEdit = medianMs(21, [&] {
                if (!worker.edit(++flip % 2 ? there : back, options))
                    std::abort();
            });
            lineEditBytes = worker.lastTransferBytes();
        }
        std::printf("          %-9d %14.1f %14.1f %8.2f %16.2f %16.2f %16.2f %12zu %10.0f %12.0f\n", size, hereMs, workerMs,
                    workerMs / hereMs, editHere, editWorker, lineEdit, lineEditBytes, hereMiB, callerMiB);
    }
    return 0;
}
