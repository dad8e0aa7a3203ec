// SPDX-License-Identifier: MIT
// The one control-flow graph of a program (issue #16, used by liveness and the hazard checks of
// issue #17): basic blocks per kernel with successors and predecessors from s_branch,
// s_cbranch_* and fall-through; s_endpgm ends the wave. Jumps whose target is not known
// (s_setpc_b64, s_cbranch_g_fork, …) are exits with a note; s_swappc_b64 is a call that returns to
// the next instruction (the callee is not analysed: a note says so).
#pragma once

#include "core/program.h"

#include <string>
#include <vector>

namespace gcnlens {

struct CfgBlock {
    int first = 0; // [first, end) into Program::instructions
    int end = 0;
    int region = 0;
    std::vector<int> successors; // block indices
    std::vector<int> predecessors;
    bool exit = false; // control can leave the region here (s_endpgm, indirect jump, end of code)
    bool operator==(const CfgBlock&) const = default;
};

// A region is one kernel's instructions, or a run of instructions outside any kernel.
struct CfgRegion {
    int kernel = -1;
    int firstBlock = 0, endBlock = 0;
    int firstInstruction = 0, endInstruction = 0;
    bool operator==(const CfgRegion&) const = default;
};

struct CfgNote {
    int instruction = -1;
    int line = 0;
    std::string text;
    bool operator==(const CfgNote&) const = default;
};

struct Cfg {
    std::vector<CfgBlock> blocks;
    std::vector<CfgRegion> regions;
    std::vector<CfgNote> notes;
    bool operator==(const Cfg&) const = default; // the editor's path: an edit that kept the graph

    // The block of an instruction, -1 past the last. The blocks cover the instructions in order,
    // so it is found, not kept per instruction (issue #18: 4 bytes each).
    int blockOf(int instruction) const;
    int instructionCount() const { return blocks.empty() ? 0 : blocks.back().end; }
};

Cfg buildCfg(const Program& program);

// Blocks of a region in reverse post-order from its entry (unreachable blocks appended in order),
// the visiting order of forward dataflow.
std::vector<int> reversePostOrder(const Cfg& cfg, int region);

} // namespace gcnlens
