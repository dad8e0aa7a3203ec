// SPDX-License-Identifier: MIT
// Re-analysis after a one-line edit (issue #2, section 6), in-process through FrontEnd on a
// generated kernel (generatedkernel.h); moved out of bench_frontend, which now times whole CLI runs.
// Prints its figures; not part of ctest.  Usage: bench_edits [INSTRUCTIONS...]   (default 10000 100000)
#include "benchmemory.h"
#include "core/asm/assembler.h"
#include "generatedkernel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Re-analysis after a one-line edit, as a user typing would (issue #2): a half-typed mnemonic, a
// constant that turns a 4-byte instruction into an 8-byte one, and Enter; each made and undone 21 times.
bool printEditMedians(int size)
{
    bench::resetPeakRss();
    const std::string text = bench::generateKernel(size);
    AssembleOptions options;
    options.gpu = "tahiti";
    FrontEnd frontEnd;
    frontEnd.analyze(text, options);
    const std::size_t middle = text.size() / 2;
    struct Edit {
        const char* name;
        std::size_t at, length;
        std::string replacement;
    };
    const Edit edits[] = {{"half-typed", text.find("s_mov_b32", middle), 9, "s_add_u32"},
                          {"4->8 bytes", text.find("0.5", middle), 3, "0.7"},
                          {"new line", text.find('\n', middle) + 1, 0, "    s_nop 0\n"}};
    std::printf("one-line edit re-analysis, %d instructions, median of 42 (made and undone):", size);
    for (const auto& edit : edits) {
        std::vector<double> times;
        for (int round = 0; round < 21; ++round) {
            std::string edited = text;
            edited.replace(edit.at, edit.length, edit.replacement);
            for (const std::string* version : {static_cast<const std::string*>(&edited), &text}) {
                const auto t0 = Clock::now();
                const Program& p = frontEnd.analyze(*version, options);
                times.push_back(seconds(Clock::now() - t0) * 1000.0);
                if (p.instructions.size() < std::size_t(size))
                    return false;
            }
        }
        std::printf("  %s %.3f ms", edit.name, median(times));
    }
    std::printf("  peak %.0f MiB\n", bench::megabytes(bench::peakRssBytes()));
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<int> sizes = bench::sizesFromArguments(argc, argv, {10000, 100000});
    for (const int size : sizes)
        if (!printEditMedians(size)) {
            std::fprintf(stderr, "edit lost instructions\n");
            return 1;
        }
    return 0;
}
