// SPDX-License-Identifier: MIT
// What running the assembler in a worker process costs (issue #12): the Program codec alone
// (encode + decode) and, when built, assembling in-process against through the worker
// (IsolatedFrontEnd) at 10k/100k/1M instructions. Prints its figures; not part of ctest.
// Usage: bench_isolation [--max N]
#include "core/asm/assembler.h"
#include "core/asm/programcodec.h"
#include "generatedkernel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

template <typename F>
double medianMs(int runs, F&& f)
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
    std::printf("codec: %-9s %10s %10s %12s %12s\n", "size", "bytes", "B/instr", "encode (ms)", "decode (ms)");
    for (const int size : {10000, 100000, 1000000}) {
        if (size > maxSize)
            continue;
        const Program program = assemble(bench::generateKernel(size), options);
        std::string bytes;
        const int runs = size >= 1000000 ? 3 : 9;
        const double encodeMs = medianMs(runs, [&] { bytes = codec::encode(program); });
        Program decoded;
        const double decodeMs = medianMs(runs, [&] {
            decoded = Program {};
            if (!codec::decode(bytes, decoded))
                std::abort();
        });
        std::printf("       %-9d %10zu %10.1f %12.2f %12.2f\n", size, bytes.size(), double(bytes.size()) / size, encodeMs,
                    decodeMs);
    }
    return 0;
}
