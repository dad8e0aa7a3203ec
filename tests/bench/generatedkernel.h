// SPDX-License-Identifier: MIT
// The generated kernel the benchmarks share: a realistic GFX6 instruction mix of any length.
#pragma once

#include <cstdio>
#include <string>

namespace gcnlens::bench {

// A realistic mix for GFX6: scalar loads, VALU with inline constants and literals, VOP3, DS,
// MUBUF, compares and a loop branch every 64 instructions.
inline std::string generateKernel(int instructions)
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

} // namespace gcnlens::bench
