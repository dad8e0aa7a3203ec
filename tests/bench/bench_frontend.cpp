// SPDX-License-Identifier: MIT
// Front-end speed (issue #2 section 6): cold analysis of generated 10k/100k/1M-instruction kernels
// against `llvm-mc -show-encoding` on the same file, and re-analysis after a one-line edit.
// Prints its figures; not part of ctest.  Usage: bench_frontend [LLVM_MC] [--max N]
#include "core/program.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

// A realistic mix for GFX6: scalar loads, VALU with inline constants and literals, VOP3, DS,
// MUBUF, compares and a loop branch every 64 instructions.
std::string generateKernel(int instructions)
{
    static const char* body[] = {
        "v_add_f32 v%d, v1, v2",        "v_mul_f32 v%d, 0x40490fdb, v3", "v_fma_f32 v%d, v1, v2, v3",
        "s_add_u32 s%d, s4, 1",         "v_lshlrev_b32 v%d, 2, v0",      "ds_read_b32 v%d, v1 offset:16",
        "v_mov_b32 v%d, 0.5",           "s_mov_b32 s%d, 0x1234",         "buffer_load_dword v%d, v1, s[8:11], 0 offen",
        "v_cmp_gt_f32 vcc, v%d, v2",    "v_mac_f32 v%d, v5, v6",         "v_cndmask_b32 v%d, v1, v2, vcc"};
    std::string text = ".text\nkernel:\n";
    text.reserve(std::size_t(instructions) * 32);
    char line[96];
    for (int i = 0; i < instructions; ++i) {
        if (i % 64 == 0) {
            std::snprintf(line, sizeof line, "L%d:\n", i / 64);
            text += line;
        }
        if (i % 64 == 63) {
            std::snprintf(line, sizeof line, "    s_cbranch_scc1 L%d\n", i / 64);
        } else {
            const char* pattern = body[i % (sizeof body / sizeof *body)];
            char op[80];
            std::snprintf(op, sizeof op, pattern, 10 + i % 90);
            std::snprintf(line, sizeof line, "    %s\n", op);
        }
        text += line;
    }
    text += "    s_endpgm\n";
    return text;
}

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
    std::printf("%-10s %12s %14s %8s %18s\n", "size", "gcnlens (s)", "llvm-mc (s)", "ratio", "edit re-analysis");
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

        // Re-analysis after a one-line edit: change one instruction's constant in the middle, back
        // and forth, as a user typing would.
        std::string median10k = "-";
        if (size <= 100000) {
            FrontEnd frontEnd;
            frontEnd.analyze(text, options);
            std::vector<double> times;
            const std::size_t at = text.find("s_mov_b32", text.size() / 2);
            std::string edited = text;
            for (int round = 0; round < 21; ++round) {
                edited.replace(at, 9, round % 2 ? "s_mov_b32" : "s_add_u32");
                const auto t0 = Clock::now();
                const Program& p = frontEnd.analyze(edited, options);
                times.push_back(seconds(Clock::now() - t0) * 1000.0);
                if (int(p.instructions.size()) != size + 1) {
                    std::fprintf(stderr, "edit changed the instruction count\n");
                    return 1;
                }
            }
            median10k = std::to_string(median(times)).substr(0, 6) + " ms";
        }
        std::printf("%-10d %12.3f %14.3f %8.2f %18s%s\n", size, ours, theirs, ours / theirs, median10k.c_str(),
                    rc == 0 ? "" : "  (llvm-mc failed)");
        std::remove(path.c_str());
    }
    return 0;
}
