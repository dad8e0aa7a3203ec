// SPDX-License-Identifier: MIT
// The generated kernels the benchmarks share: a realistic GFX6 instruction mix of any length, the
// same mix with distinct literals, offsets and registers (as plain text in LLVM or CLRX syntax),
// and a kernel shaped like MIOpen's and Tensile's (macros with offset parameters, .rept unrolls).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace gcnlens::bench {

// Kernel sizes given as the program's arguments, or the defaults when there are none.
inline std::vector<int> sizesFromArguments(int argc, char** argv, std::vector<int> defaults)
{
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i)
        sizes.push_back(std::stoi(argv[i]));
    return sizes.empty() ? defaults : sizes;
}

// A realistic mix for GFX6: scalar loads, VALU with inline constants and literals, VOP3, DS,
// MUBUF, compares and a loop branch every 64 instructions.
inline std::string generateKernel(int instructions)
{
    static const char* body[] = {
        "v_add_f32 v%d, v1, v2",     "v_mul_f32 v%d, 0x40490fdb, v3", "v_fma_f32 v%d, v1, v2, v3",
        "s_add_u32 s%d, s4, 1",      "v_lshlrev_b32 v%d, 2, v0",      "ds_read_b32 v%d, v1 offset:16",
        "v_mov_b32 v%d, 0.5",        "s_mov_b32 s%d, 0x1234",         "buffer_load_dword v%d, v1, s[8:11], 0 offen",
        "v_cmp_gt_f32 vcc, v%d, v2", "v_mac_f32 v%d, v5, v6",         "v_cndmask_b32 v%d, v1, v2, vcc"};
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

namespace detail {
// A small deterministic generator (xorshift32): the same kernel on every run and machine.
struct Random {
    std::uint32_t state;
    std::uint32_t next()
    {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state;
    }
    int below(int n) { return int(next() % std::uint32_t(n)); }
};
} // namespace detail

// The mix of generateKernel with what real code has and a shape cache cannot share: a distinct
// register, literal (inline constant or 32-bit), DS/MUBUF/SMRD offset in every line. The text is
// valid in LLVM's syntax and in CLRX's (clrxasm -b rawcode -g tahiti), so the two assemblers read
// the same instructions; clrx only drops the LLVM section line.
inline std::string generateDistinctKernel(int instructions, bool clrx = false, std::uint32_t seed = 0x9e3779b9u)
{
    detail::Random r {seed};
    std::string text = clrx ? ".text\n" : ".text\nkernel:\n";
    text.reserve(std::size_t(instructions) * 40);
    char line[128];
    const auto v = [&] { return 10 + r.below(90); };
    const auto s = [&] { return 12 + r.below(48); };
    for (int i = 0; i < instructions; ++i) {
        if (i % 64 == 0) {
            std::snprintf(line, sizeof line, "L%d:\n", i / 64);
            text += line;
        }
        const std::uint32_t literal = 0x3f800001u + (r.next() & 0x3fffffu); // never an inline constant
        switch (i % 64 == 63 ? -1 : i % 14) {
        case -1:
            std::snprintf(line, sizeof line, "    s_cbranch_scc1 L%d\n", i / 64);
            break;
        case 0:
            std::snprintf(line, sizeof line, "    v_add_f32 v%d, v%d, v%d\n", v(), v(), v());
            break;
        case 1:
            std::snprintf(line, sizeof line, "    v_mul_f32 v%d, 0x%08x, v%d\n", v(), literal, v());
            break;
        case 2:
            std::snprintf(line, sizeof line, "    v_fma_f32 v%d, v%d, v%d, v%d\n", v(), v(), v(), v());
            break;
        case 3:
            std::snprintf(line, sizeof line, "    s_add_u32 s%d, s%d, %d\n", s(), s(), r.below(100000));
            break;
        case 4:
            std::snprintf(line, sizeof line, "    v_lshlrev_b32 v%d, %d, v%d\n", v(), r.below(32), v());
            break;
        case 5:
            std::snprintf(line, sizeof line, "    ds_read_b32 v%d, v%d offset:%d\n", v(), v(), r.below(65536));
            break;
        case 6:
            std::snprintf(line, sizeof line, "    v_mov_b32 v%d, %d\n", v(), r.below(200) - 16);
            break;
        case 7:
            std::snprintf(line, sizeof line, "    s_mov_b32 s%d, 0x%x\n", s(), literal);
            break;
        case 8:
            std::snprintf(line, sizeof line, "    buffer_load_dword v%d, v%d, s[8:11], 0 offen offset:%d\n", v(), v(),
                          r.below(4096));
            break;
        case 9:
            std::snprintf(line, sizeof line, "    v_cmp_gt_f32 vcc, v%d, v%d\n", v(), v());
            break;
        case 10:
            std::snprintf(line, sizeof line, "    s_load_dword s%d, s[2:3], 0x%x\n", s(), r.below(256));
            break;
        case 11:
            std::snprintf(line, sizeof line, "    v_cndmask_b32 v%d, v%d, v%d, vcc\n", v(), v(), v());
            break;
        case 12:
            std::snprintf(line, sizeof line, "    ds_write_b32 v%d, v%d offset:%d\n", v(), v(), r.below(65536));
            break;
        default:
            std::snprintf(line, sizeof line, "    v_mac_f32 v%d, v%d, v%d\n", v(), v(), v());
            break;
        }
        text += line;
    }
    text += "    s_endpgm\n";
    return text;
}

// A kernel written the way MIOpen's igemm/Winograd and Tensile's are: register names given by
// .set, macros whose parameters are registers and offsets, .rept unrolls whose lines differ in
// register and offset through a counter, literals that change from block to block. About
// `instructions` instructions, all of them from a macro or a .rept.
inline std::string generateMacroKernel(int instructions)
{
    std::string text = ".text\n"
                       ".set v_acc, 64\n.set v_a, 32\n.set v_b, 48\n.set v_os, 2\n.set s_rsrc, 8\n"
                       ".macro global_load_tile vdst, voff, base\n"
                       "    buffer_load_dword v[\\vdst], v[\\voff], s[s_rsrc:s_rsrc+3], 0 offen offset:\\base\n"
                       "    buffer_load_dword v[\\vdst+1], v[\\voff], s[s_rsrc:s_rsrc+3], 0 offen offset:\\base+256\n"
                       ".endm\n"
                       ".macro fma_2x2 acc, a, b\n"
                       "    v_fma_f32 v[\\acc], v[\\a], v[\\b], v[\\acc]\n"
                       "    v_fma_f32 v[\\acc+1], v[\\a], v[\\b+1], v[\\acc+1]\n"
                       "    v_fma_f32 v[\\acc+2], v[\\a+1], v[\\b], v[\\acc+2]\n"
                       "    v_fma_f32 v[\\acc+3], v[\\a+1], v[\\b+1], v[\\acc+3]\n"
                       ".endm\n"
                       "kernel:\n";
    text.reserve(std::size_t(instructions) * 24);
    // One block: 2 + 16*2 + 4*4 + 3 = 53 instructions.
    char block[1024];
    const int blocks = (instructions + 52) / 53;
    for (int b = 0; b < blocks; ++b) {
        std::snprintf(block, sizeof block,
                      "L%d:\n"
                      "    global_load_tile v_a, v_os, %d\n"
                      "    .set i, 0\n"
                      "    .rept 16\n"
                      "    ds_read_b32 v[v_b+i%%16], v[v_os+1] offset:%d+i*4\n"
                      "    v_mul_f32 v[v_a+i%%16], 0x%x+i*3, v[v_b+i%%16]\n"
                      "    .set i, i+1\n"
                      "    .endr\n"
                      "    .set j, 0\n"
                      "    .rept 4\n"
                      "    fma_2x2 v_acc+j*4, v_a+j*2, v_b+j*2\n"
                      "    .set j, j+1\n"
                      "    .endr\n"
                      "    s_add_u32 s%d, s4, %d\n"
                      "    s_waitcnt vmcnt(0) & lgkmcnt(0)\n"
                      "    s_cbranch_scc1 L%d\n",
                      b, (b * 8) % 3840, (b * 68) % 60000, 0x3f800001u + unsigned(b) * 7919u, 12 + b % 40, 1000 + b, b);
        text += block;
    }
    text += "    s_endpgm\n";
    return text;
}

} // namespace gcnlens::bench
