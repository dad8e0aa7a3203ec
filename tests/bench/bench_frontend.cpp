// SPDX-License-Identifier: MIT
// Front-end speed (issue #2 section 6): cold analysis of generated 10k/100k/1M-instruction kernels
// against `llvm-mc -show-encoding` on the same file, and re-analysis after a one-line edit.
// Prints its figures; not part of ctest.  Usage: bench_frontend [LLVM_MC] [--max N]
#include "core/asm/assembler.h"
#include "generatedkernel.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/resource.h>
#include <string>
#include <vector>

using namespace gcnlens;
using gcnlens::bench::generateKernel;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    std::string llvmMc = "llvm-mc";
    int maxSize = 1000000;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--max" && i + 1 < argc)
            maxSize = std::atoi(argv[++i]);
        else
            llvmMc = arg;
    }
    AssembleOptions options;
    options.gpu = "tahiti";
    std::printf("%-10s %12s %14s %8s  %s\n", "size", "gcnlens (s)", "llvm-mc (s)", "ratio",
                "one-line edit re-analysis, median of 42 (made and undone)");
    for (const int size : {10000, 100000, 1000000}) {
        if (size > maxSize)
            continue;
        const std::string text = generateKernel(size);
        const std::string path = "/tmp/gcnlens-bench-" + std::to_string(size) + ".s";
        std::ofstream(path) << text;

        const auto start = Clock::now();
        const Program program = assemble(text, options);
        const double ours = seconds(Clock::now() - start);
        if (program.hasErrors() || int(program.instructions.size()) != size + 1) {
            std::fprintf(stderr, "generated kernel did not assemble cleanly (%zu instructions)\n",
                         program.instructions.size());
            return 1;
        }

        const std::string command = llvmMc + " -arch=amdgcn -mcpu=tahiti -show-encoding " + path + " > /dev/null";
        const auto mcStart = Clock::now();
        const int rc = std::system(command.c_str());
        const double theirs = seconds(Clock::now() - mcStart);

        // Re-analysis after a one-line edit, as a user typing would, in the middle of the kernel:
        // a half-typed mnemonic (the line stops assembling), a constant that turns a 4-byte
        // instruction into an 8-byte one with a literal (everything after it moves), and Enter
        // (a new line: every later line number moves). Each edit is made and undone, 21 times.
        FrontEnd frontEnd;
        frontEnd.analyze(text, options);
        const std::size_t middle = text.size() / 2;
        const std::size_t movAt = text.find("s_mov_b32", middle);
        const std::size_t constantAt = text.find("0.5", middle);
        const std::size_t lineAt = text.find('\n', middle) + 1;
        struct Edit { const char* name; std::size_t at, length; std::string replacement; };
        const Edit edits[] = {{"half-typed", movAt, 9, "s_add_u32"},
                              {"4->8 bytes", constantAt, 3, "0.7"},
                              {"new line", lineAt, 0, "    s_nop 0\n"}};
        std::string medians;
        for (const auto& edit : edits) {
            std::vector<double> times;
            for (int round = 0; round < 21; ++round) {
                std::string edited = text;
                edited.replace(edit.at, edit.length, edit.replacement);
                for (const std::string* version : {static_cast<const std::string*>(&edited), &text}) {
                    const auto t0 = Clock::now();
                    const Program& p = frontEnd.analyze(*version, options);
                    times.push_back(seconds(Clock::now() - t0) * 1000.0);
                    if (p.instructions.size() < std::size_t(size)) {
                        std::fprintf(stderr, "edit lost instructions\n");
                        return 1;
                    }
                }
            }
            char figure[64];
            std::snprintf(figure, sizeof figure, "  %s %.3f ms", edit.name, median(times));
            medians += figure;
        }
        std::printf("%-10d %12.3f %14.3f %8.2f %s%s\n", size, ours, theirs, ours / theirs, medians.c_str(),
                    rc == 0 ? "" : "  (llvm-mc failed)");
        std::remove(path.c_str());
    }
    // Peak memory of the whole run (the largest kernel's Program, FrontEnd copy and LLVM state).
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("peak resident memory: %.0f MiB\n", double(usage.ru_maxrss) / 1024.0);
    return 0;
}
