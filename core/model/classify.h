// SPDX-License-Identifier: MIT
// Instruction classes the checks need (hazards.md §1 "Classes", §2b "MFMA kinds"), from the
// front-end's family and LLVM's canonical mnemonic, plus the register facts the front-end's
// defs/uses leave out (conditional and partial writes that also read their destination).
#pragma once

#include "core/program.h"

#include <string_view>
#include <vector>

namespace gcnlens {

enum class MfmaKind : unsigned char { None, Xdl, Sgemm, Dgemm };

struct InstClass {
    bool valu = false, salu = false, smem = false, vmem = false, ds = false, exp = false;
    bool flat = false;  // FLAT segment (not GLOBAL/SCRATCH)
    bool store = false; // memory op whose data is only read (stores, no-return atomics)
    bool load = false;  // memory op writing registers
    bool mfma = false;  // v_mfma_* (MAI)
    MfmaKind mfmaKind = MfmaKind::None;
    int passes = 0; // MFMA passes N (hazards.md §1), 0 otherwise
    bool accvgprRead = false, accvgprWrite = false;
    bool dot = false;   // v_dot*
    bool trans = false; // CDNA3 Table 12 transcendental
    bool dpp = false, sdwa = false;
    bool laneRead = false;  // v_readlane / v_readfirstlane
    bool laneWrite = false; // v_writelane
    bool cmpx = false;      // v_cmpx*
    bool nop = false;
    int nopStates = 0; // wait states an s_nop gives (N+1)
    bool gds = false;
    bool sampler = false;  // MIMG sample/gather (a different VmemType from plain loads)
    bool readsOwn = false; // readsOwnDestination(inst)
};

InstClass classify(const Instruction& inst, Generation generation, bool gfx942);
// Every instruction of the program classified for its GPU (the checks share one such vector).
std::vector<InstClass> classifyAll(const Program& program);

// Wait states the instruction itself provides (hazards.md §1): s_nop N gives N+1, data words 0,
// everything else 1.
int waitStatesOf(const Instruction& inst, const InstClass& c);

// The registers read including the destination of conditional or partial writes the front-end
// reports as plain writes: s_cmov*/s_cmovk (written only if SCC), SDWA dst_unused:UNUSED_PRESERVE
// and *_d16_hi loads (the other half survives). LLVM already ties s_mulk/s_addk, v_mac/v_fmac,
// v_writelane's vdst_in and MFMA SrcC into the uses.
bool readsOwnDestination(const Instruction& inst);

// gfx908 / gfx90a / gfx942 from the processor name.
enum class Cdna : unsigned char { None, Gfx908, Gfx90a, Gfx942 };
Cdna cdnaOf(const GpuTarget& gpu);

bool overlaps(const RegRange& a, const RegRange& b);
// VGPR or AGPR.
bool isVector(RegKind kind);
bool isScalar(RegKind kind); // SGPR, VCC, EXEC, M0, TTMP, FlatScratch, XnackMask

} // namespace gcnlens
