// SPDX-License-Identifier: MIT
// Timing-model speed (issue #3 section 2: "a fast linear pass"): analyzeTiming on hand-built
// 10k/100k/1M-instruction programs, then the front-end vs timing split on assembled sources.
// Prints its figures; not part of ctest.  Usage: bench_timing [--max N] [--no-frontend]
#include "core/asm/assembler.h"
#include "core/model/timing.h"

#include "benchmemory.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

struct Shape {
    const char* mnemonic;
    Family family;
    int size;
    RegKind def;
};

// A GFX6 mix that exercises every rule: 2-dword VOP3 and literals at all slots, carry adds then
// SALU (valu-salu), compares before conditional jumps, DS and MUBUF.
constexpr Shape kShapes[] = {
    {"v_add_i32_e32", Family::VOP2, 4, RegKind::VCC},       {"s_mov_b32", Family::SOP1, 4, RegKind::SGPR},
    {"v_mad_f32", Family::VOP3, 8, RegKind::VGPR},          {"v_mul_lo_u32", Family::VOP3, 8, RegKind::VGPR},
    {"v_mov_b32_e32", Family::VOP1, 8, RegKind::VGPR},      {"ds_read_b32", Family::DS, 8, RegKind::VGPR},
    {"v_fma_f32", Family::VOP3, 8, RegKind::VGPR},          {"s_load_dwordx2", Family::SMRD, 4, RegKind::SGPR},
    {"buffer_load_dword", Family::MUBUF, 8, RegKind::VGPR}, {"v_cmp_eq_u32_e32", Family::VOPC, 4, RegKind::VCC},
};

Program generateProgram(int count)
{
    Program program;
    program.gpu.name = program.gpu.processor = "tahiti";
    program.gpu.dpfactor = 8;
    program.instructions.reserve(std::size_t(count));
    std::uint64_t offset = 0;
    std::uint64_t loopStart = 0;
    int loopIndex = 0;
    for (int i = 0; i < count; ++i) {
        Instruction in;
        in.line = i + 1;
        in.offset = offset;
        in.kernel = 0;
        if (i % 50 == 49) { // a loop back-edge every 50 instructions
            in.mnemonic = "s_cbranch_vccnz";
            in.family = Family::SOPP;
            in.size = 4;
            in.branch = BranchKind::Conditional;
            in.setTargetOffset(loopStart);
            in.setTargetIndex(loopIndex);
            in.backward = true;
        } else {
            const Shape& shape = kShapes[std::size_t(i * 7 % 10)];
            in.mnemonic = shape.mnemonic;
            in.family = shape.family;
            in.size = shape.size;
            in.defs.push_back({shape.def, 0, shape.def == RegKind::VGPR ? 1u : 2u});
        }
        if (i % 50 == 0) {
            loopStart = offset;
            loopIndex = i;
        }
        offset += std::uint64_t(in.size);
        program.instructions.push_back(std::move(in));
    }
    program.kernels.push_back({"bench", 0, count, 0, 1});
    return program;
}

std::string generateSource(int count)
{
    static const char* lines[] = {"v_add_i32 v1, vcc, v2, v3",
                                  "s_mov_b32 s5, 7",
                                  "v_mad_f32 v4, v1, v2, v3",
                                  "v_mul_lo_u32 v5, v1, v2",
                                  "v_mov_b32 v6, 0x3f000001",
                                  "ds_read_b32 v7, v1",
                                  "v_fma_f32 v8, v1, v2, v3",
                                  "s_load_dwordx2 s[6:7], s[0:1], 0",
                                  "buffer_load_dword v9, v1, s[8:11], 0 offen",
                                  "v_cmp_eq_u32 vcc, v1, v2"};
    std::string text = ".text\nbench:\n";
    text.reserve(std::size_t(count) * 30);
    for (int i = 0; i < count; ++i) {
        if (i % 50 == 0)
            text += "B" + std::to_string(i / 50) + ":\n";
        text += "  ";
        text += i % 50 == 49 ? "s_cbranch_vccnz B" + std::to_string(i / 50) : std::string(lines[i * 7 % 10]);
        text += '\n';
    }
    return text;
}

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

double timeTiming(const Program& program, int runs, long long* penalties)
{
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
        const auto start = Clock::now();
        const TimingResult result = analyzeTiming(program);
        times.push_back(secondsSince(start));
        *penalties = result.totals.penaltyCycles;
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int maxSize = 1000000;
    bool frontend = true;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--max" && i + 1 < argc)
            maxSize = std::atoi(argv[++i]);
        else if (arg == "--no-frontend")
            frontend = false;
    }
    const int sizes[] = {10000, 100000, 1000000};

    std::printf("analyzeTiming on hand-built GFX6 programs (median of 5)\n");
    std::printf("%-10s %12s %14s %16s %10s\n", "size", "timing (s)", "ns/instr", "penalty cycles", "peak MiB");
    for (const int size : sizes) {
        if (size > maxSize)
            continue;
        bench::resetPeakRss();
        const Program program = generateProgram(size);
        long long penalties = 0;
        const double t = timeTiming(program, 5, &penalties);
        std::printf("%-10d %12.4f %14.1f %16lld %10.0f\n", size, t, t * 1e9 / size, penalties,
                    bench::megabytes(bench::peakRssBytes()));
    }

    if (!frontend)
        return 0;
    std::printf("\nfront-end vs timing on assembled sources (tahiti)\n");
    std::printf("%-10s %14s %12s %10s %10s\n", "size", "assemble (s)", "timing (s)", "timing %", "peak MiB");
    for (const int size : sizes) {
        if (size > maxSize)
            continue;
        bench::resetPeakRss();
        const std::string source = generateSource(size);
        AssembleOptions options;
        options.gpu = "tahiti";
        const auto start = Clock::now();
        const Program program = assemble(source, options);
        const double assembleTime = secondsSince(start);
        if (program.hasErrors()) {
            std::printf("%-10d assemble failed: %s\n", size, program.diagnostics.front().message.c_str());
            continue;
        }
        long long penalties = 0;
        const double timingTime = timeTiming(program, 3, &penalties);
        std::printf("%-10d %14.3f %12.4f %9.1f%% %10.0f\n", size, assembleTime, timingTime,
                    100.0 * timingTime / (assembleTime + timingTime), bench::megabytes(bench::peakRssBytes()));
    }
    return 0;
}
