// SPDX-License-Identifier: MIT
// LLVM's scheduling model for an AMDGPU processor, read through the MC layer (the data llvm-mca
// uses): per opcode, its scheduling class, the units it occupies and for how long, its latency.
// The timing model takes an instruction's cycles from here where GcnTimings.md has no row
// (docs/model.md, rules T-llvm-sched and T-mfma). Plain values: LLVM stays in the .cpp.
#pragma once

#include "core/program.h"

#include <string>
#include <utility>
#include <vector>

namespace gcnlens {

struct SchedInfo {
    bool valid = false;                             // the processor's model gives the opcode a class with resources
    std::string className;                          // LLVM's scheduling class; an InstRW class (named after the many
                                                    // opcodes it covers) is shown as "InstRW(<this opcode>)"
    std::string opcodeName;                         // LLVM's name of the opcode ("V_MFMA_F32_32X32X8F16_vi")
    int latency = 0;                                // in LLVM's unit: one pass of a wave64 through a SIMD (4 cycles)
    std::vector<std::pair<std::string, int>> units; // (processor resource, ReleaseAtCycles)
    bool memoryUnit = false;                        // issues to HWVMEM, HWLGKM, HWExport or HWBranch: latency is not issue time
    int passes = 0;                                 // largest ReleaseAtCycles on HWXDL/HWVALU: an MFMA's passes
    int cycles = 0;                                 // the T-llvm-sched cycles (docs/model.md): 4 × passes on the unit,
                                                    // 4 × max(passes, latency) on the ALUs
    std::string detail() const;                     // "NullALU_WriteTrans32: HWVALU 1 pass, latency 4"
};

// LLVM's model of `gpu.processor` for an MC opcode (Instruction::opcode). Thread-safe.
SchedInfo llvmSchedInfo(const GpuTarget& gpu, unsigned opcode);

// An instruction of LLVM's tables: a real (encodable) opcode, the mnemonic LLVM prints for it
// and its encoding family.
struct OpcodeInfo {
    unsigned opcode = 0;
    std::string name;     // LLVM's opcode name ("V_ADD_F32_e32_vi")
    std::string mnemonic; // as the printer spells it ("v_add_f32_e32")
    Family family = Family::Unknown;
};

// Every real opcode of LLVM's AMDGPU instruction tables whose encoding belongs to the target's
// generation (by LLVM's encoding-family suffix: _vi and _gfx9 for GFX9, + _gfx90a, _gfx940 …);
// MFMA and AGPR instructions only on CDNA. A superset of what the target's assembler accepts.
std::vector<OpcodeInfo> instructionCatalog(const GpuTarget& gpu);

// The distinct mnemonics of instructionCatalog(gpu), sorted.
std::vector<std::string> allMnemonics(const GpuTarget& gpu);

} // namespace gcnlens
