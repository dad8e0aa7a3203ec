// SPDX-License-Identifier: MIT
// Register liveness and pressure (issue #16): standard backward liveness over the CFG, per
// register file, each register of a tuple on its own, every write killing what it writes.
// EXEC masks are not modelled (a write under a partial EXEC still kills: the result says so).
#pragma once

#include "core/model/cfg.h"
#include "core/model/occupancy.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gcnlens {

// Special registers, reported apart from the numbered files (bits of LiveCounts::special).
enum SpecialLive : std::uint16_t {
    LiveVcc = 1,
    LiveExec = 2,
    LiveM0 = 4,
    LiveScc = 8,
    LiveFlatScratch = 16,
    LiveXnackMask = 32,
    LiveTtmp = 64
};

// The registers that must be allocated while an instruction executes: |live into it ∪ written by it|.
struct LiveCounts {
    std::uint16_t vgpr = 0, sgpr = 0, agpr = 0;
    std::uint16_t special = 0; // SpecialLive bits
    bool operator==(const LiveCounts&) const = default;
};

struct PressurePeak {
    int count = 0;
    int instruction = -1; // first instruction where the peak is reached
    int line = 0;
    bool operator==(const PressurePeak&) const = default;
};

struct KernelPressure {
    PressurePeak vgpr, sgpr, agpr;
    std::vector<RegRange> liveAtEntry; // read before written on some path: the kernel's inputs
    bool operator==(const KernelPressure&) const = default;
};

struct LivenessResult {
    std::vector<LiveCounts> instructions; // parallel to Program::instructions
    std::vector<KernelPressure> kernels;  // parallel to Program::kernels
    std::vector<std::string> notes;       // readings the numbers rest on
    bool operator==(const LivenessResult&) const = default;
};

// Per-block sets of a run (one bit per register, see liveness.cpp), kept so that a run after an
// edit can resume from them.
inline constexpr int kLiveWords = 11;
using LiveBits = std::array<std::uint64_t, kLiveWords>;
struct LivenessBlocks {
    std::vector<LiveBits> gen, kill, in, out; // per CFG block
};

// `keep`, when given, receives the per-block sets for analyzeLivenessAfterEdit.
LivenessResult analyzeLiveness(const Program& program, const Cfg& cfg, LivenessBlocks* keep = nullptr);

// analyzeLiveness after an edit, equal to it: `previous` and `blocks` are the result and sets of
// a program with the same CFG and number of instructions that differed from this one only in
// [first, end). An incremental backward dataflow: the edited blocks get new gen/kill sets; the
// blocks that can reach them (the only ones whose live-in can change) restart from gen and iterate
// to the fixpoint with the others' live-in fixed; per-instruction counts are derived again only in
// the edited blocks and those whose live-out changed. `blocks` is updated; `recounted`: how many
// blocks were counted again.
LivenessResult analyzeLivenessAfterEdit(const Program& program, const Cfg& cfg, const LivenessResult& previous,
                                        LivenessBlocks& blocks, int first, int end, int* recounted = nullptr);

// "What the peak costs" for one register file: the peak's occupancy and how many fewer
// registers would give one more wave (computeOccupancy with the peak as the allocation).
struct PressureCost {
    std::string file; // vgpr, sgpr, agpr
    int peak = 0, line = 0;
    int waves = 0; // waves per SIMD with the peak as the allocation
    int fewer = 0; // registers fewer for `better` waves; 0 when no reduction helps
    int better = 0;
    std::string text; // "the peak at line 812 holds 84 VGPRs: 2 fewer would give 6 waves"
};
std::vector<PressureCost> pressureCosts(const GpuTarget& gpu, const OccupancyInput& input, const KernelPressure& peak,
                                        const TimingOptions& options = {});

} // namespace gcnlens
