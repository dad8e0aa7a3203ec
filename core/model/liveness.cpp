// SPDX-License-Identifier: MIT
#include "core/model/liveness.h"

#include "core/model/classify.h"
#include "core/support/cancel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <format>

namespace gcnlens {

namespace {

// One bit per register: v0–v255, a0–a255, s0–s127, then the specials.
constexpr int kAgprBase = 256, kSgprBase = 512, kVcc = 640, kExec = 642, kM0 = 644, kScc = 645, kFlatScratch = 646, kXnack = 648,
              kTtmp = 650, kBits = 704;
constexpr int kWords = kBits / 64;
static_assert(kWords == kLiveWords);

struct RegSet {
    LiveBits w {};
    void set(int bit) { w[bit >> 6] |= std::uint64_t(1) << (bit & 63); }
    bool test(int bit) const { return (w[bit >> 6] >> (bit & 63)) & 1; }
    RegSet& operator|=(const RegSet& o)
    {
        for (int i = 0; i < kWords; ++i)
            w[i] |= o.w[i];
        return *this;
    }
    RegSet minus(const RegSet& o) const
    {
        RegSet r;
        for (int i = 0; i < kWords; ++i)
            r.w[i] = w[i] & ~o.w[i];
        return r;
    }
    bool operator==(const RegSet&) const = default;
    int countRange(int from, int to) const
    { // bits [from, to), both multiples of 64
        int c = 0;
        for (int i = from / 64; i < to / 64; ++i)
            c += std::popcount(w[i]);
        return c;
    }
};

void addRange(RegSet& set, const RegRange& r)
{
    auto span = [&](int base, int limit) {
        for (int i = r.first; i < r.first + r.count && i < limit; ++i)
            if (i >= 0)
                set.set(base + i);
    };
    switch (r.kind) {
    case RegKind::VGPR:
        span(0, 256);
        break;
    case RegKind::AGPR:
        span(kAgprBase, 256);
        break;
    case RegKind::SGPR:
        span(kSgprBase, 128);
        break;
    case RegKind::TTMP:
        span(kTtmp, 16);
        break;
    case RegKind::VCC:
        span(kVcc, 2);
        break;
    case RegKind::EXEC:
        span(kExec, 2);
        break;
    case RegKind::M0:
        set.set(kM0);
        break;
    case RegKind::SCC:
        set.set(kScc);
        break;
    case RegKind::FlatScratch:
        span(kFlatScratch, 2);
        break;
    case RegKind::XnackMask:
        span(kXnack, 2);
        break;
    default:
        break;
    }
}

LiveCounts countsOf(const RegSet& s)
{
    LiveCounts c;
    c.vgpr = std::uint16_t(s.countRange(0, kAgprBase));
    c.agpr = std::uint16_t(s.countRange(kAgprBase, kSgprBase));
    c.sgpr = std::uint16_t(s.countRange(kSgprBase, kVcc));
    auto any = [&](int bit, int n) {
        for (int i = 0; i < n; ++i)
            if (s.test(bit + i))
                return true;
        return false;
    };
    if (any(kVcc, 2))
        c.special |= LiveVcc;
    if (any(kExec, 2))
        c.special |= LiveExec;
    if (s.test(kM0))
        c.special |= LiveM0;
    if (s.test(kScc))
        c.special |= LiveScc;
    if (any(kFlatScratch, 2))
        c.special |= LiveFlatScratch;
    if (any(kXnack, 2))
        c.special |= LiveXnackMask;
    if (any(kTtmp, 16))
        c.special |= LiveTtmp;
    return c;
}

struct DefUse {
    RegSet defs, uses;
};

DefUse defUse(const Instruction& in)
{
    DefUse du;
    for (const RegRange& r : in.defs)
        addRange(du.defs, r);
    for (const RegRange& r : in.uses)
        addRange(du.uses, r);
    if (readsOwnDestination(in))
        du.uses |= du.defs;
    return du;
}

// The ranges of a set, coalesced, for the entry list.
std::vector<RegRange> rangesOf(const RegSet& s)
{
    std::vector<RegRange> out;
    struct File {
        RegKind kind;
        int base, count;
    };
    static constexpr File files[] = {{RegKind::VGPR, 0, 256},         {RegKind::AGPR, kAgprBase, 256},
                                     {RegKind::SGPR, kSgprBase, 128}, {RegKind::VCC, kVcc, 2},
                                     {RegKind::EXEC, kExec, 2},       {RegKind::M0, kM0, 1},
                                     {RegKind::SCC, kScc, 1},         {RegKind::FlatScratch, kFlatScratch, 2},
                                     {RegKind::XnackMask, kXnack, 2}, {RegKind::TTMP, kTtmp, 16}};
    for (const File& f : files)
        for (int i = 0; i < f.count; ++i) {
            if (!s.test(f.base + i))
                continue;
            if (!out.empty() && out.back().kind == f.kind && out.back().first + out.back().count == i)
                ++out.back().count;
            else
                out.push_back({f.kind, std::uint32_t(i), 1});
        }
    return out;
}

// Gen (read before written in the block) and kill (written) of one block.
void genKill(const Program& program, const CfgBlock& block, RegSet& gen, RegSet& kill)
{
    gen = {};
    kill = {};
    for (int i = block.end - 1; i >= block.first; --i) {
        const DefUse du = defUse(program.instructions[i]);
        gen = gen.minus(du.defs);
        gen |= du.uses;
        kill |= du.defs;
    }
}

// Backward worklist from `work` to the fixpoint; blocks never queued keep their live-in.
// `visited` (when given) marks every block processed.
void solve(const Cfg& cfg, std::vector<int> work, const std::vector<RegSet>& gen, const std::vector<RegSet>& kill,
           std::vector<RegSet>& liveIn, std::vector<char>* visited = nullptr)
{
    std::vector<char> queued(cfg.blocks.size(), 0);
    for (int b : work)
        queued[b] = 1;
    for (int round = 0; !work.empty(); ++round) {
        checkCancelled(round, 256);
        const int b = work.back();
        work.pop_back();
        queued[b] = 0;
        if (visited)
            (*visited)[b] = 1;
        RegSet out;
        for (int s : cfg.blocks[b].successors)
            out |= liveIn[s];
        RegSet in = out.minus(kill[b]);
        in |= gen[b];
        if (in == liveIn[b])
            continue;
        liveIn[b] = in;
        for (int p : cfg.blocks[b].predecessors)
            if (!queued[p]) {
                queued[p] = 1;
                work.push_back(p);
            }
    }
}

RegSet liveOutOf(const Cfg& cfg, int b, const std::vector<RegSet>& liveIn)
{
    RegSet out;
    for (int s : cfg.blocks[b].successors)
        out |= liveIn[s];
    return out;
}

// Per-instruction counts of one block from its live-out.
void countBlock(const Program& program, const CfgBlock& block, RegSet live, LivenessResult& result)
{
    for (int i = block.end - 1; i >= block.first; --i) {
        const DefUse du = defUse(program.instructions[i]);
        RegSet in = live.minus(du.defs);
        in |= du.uses;
        RegSet held = in;
        held |= du.defs;
        result.instructions[i] = countsOf(held);
        live = in;
    }
}

// Each kernel's entry set and peaks from the per-instruction counts.
void kernelPressure(const Program& program, const Cfg& cfg, const std::vector<RegSet>& liveIn, LivenessResult& result)
{
    const auto& insts = program.instructions;
    result.kernels.assign(program.kernels.size(), {});
    for (const CfgRegion& region : cfg.regions) {
        if (region.kernel < 0 || region.kernel >= int(result.kernels.size()) || region.firstBlock == region.endBlock)
            continue;
        KernelPressure& k = result.kernels[region.kernel];
        k.liveAtEntry = rangesOf(liveIn[region.firstBlock]);
        for (int i = region.firstInstruction; i < region.endInstruction; ++i) {
            const LiveCounts& c = result.instructions[i];
            auto peak = [&](PressurePeak& p, int count) {
                if (count > p.count)
                    p = {count, i, insts[i].line};
            };
            peak(k.vgpr, c.vgpr);
            peak(k.sgpr, c.sgpr);
            peak(k.agpr, c.agpr);
        }
    }
}

std::vector<RegSet> toSets(const std::vector<LiveBits>& bits)
{
    std::vector<RegSet> out(bits.size());
    for (std::size_t i = 0; i < bits.size(); ++i)
        out[i].w = bits[i];
    return out;
}

std::vector<LiveBits> toBits(const std::vector<RegSet>& sets)
{
    std::vector<LiveBits> out(sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i)
        out[i] = sets[i].w;
    return out;
}

void keepBlocks(const Cfg& cfg, const std::vector<RegSet>& gen, const std::vector<RegSet>& kill,
                const std::vector<RegSet>& liveIn, LivenessBlocks& keep)
{
    std::vector<RegSet> out(cfg.blocks.size());
    for (int b = 0; b < int(cfg.blocks.size()); ++b)
        out[b] = liveOutOf(cfg, b, liveIn);
    keep = {toBits(gen), toBits(kill), toBits(liveIn), toBits(out)};
}

const char* kExecNote = "EXEC masks are not modelled: every write kills what it writes, even in lanes EXEC "
                        "switches off, and a register live in some lanes counts as live";

} // namespace

LivenessResult analyzeLiveness(const Program& program, const Cfg& cfg, LivenessBlocks* keep)
{
    LivenessResult result;
    result.instructions.resize(program.instructions.size());
    result.notes.push_back(kExecNote);
    const int nb = int(cfg.blocks.size());
    std::vector<RegSet> gen(nb), kill(nb), liveIn(nb);
    for (int b = 0; b < nb; ++b) {
        checkCancelled(b, 64); // a superseded analysis stops here (core/support/cancel.h)
        genKill(program, cfg.blocks[b], gen[b], kill[b]);
        liveIn[b] = gen[b];
    }
    // Seeded in reverse block order (fast for forward code).
    std::vector<int> work(nb);
    for (int b = 0; b < nb; ++b)
        work[b] = b;
    solve(cfg, std::move(work), gen, kill, liveIn);
    for (int b = 0; b < nb; ++b) {
        checkCancelled(b, 64);
        countBlock(program, cfg.blocks[b], liveOutOf(cfg, b, liveIn), result);
    }
    kernelPressure(program, cfg, liveIn, result);
    if (keep)
        keepBlocks(cfg, gen, kill, liveIn, *keep);
    return result;
}

LivenessResult analyzeLivenessAfterEdit(const Program& program, const Cfg& cfg, const LivenessResult& previous,
                                        LivenessBlocks& blocks, int first, int end, int* recounted)
{
    const int nb = int(cfg.blocks.size());
    if (int(blocks.in.size()) != nb || previous.instructions.size() != program.instructions.size())
        return analyzeLiveness(program, cfg, &blocks);
    LivenessResult result = previous;
    std::vector<RegSet> gen = toSets(blocks.gen), kill = toSets(blocks.kill), liveIn = toSets(blocks.in);
    const std::vector<RegSet> oldOut = toSets(blocks.out);
    std::vector<char> edited(nb, 0), visited(nb, 0);
    std::vector<int> work;
    bool grows = true; // every edited block reads at least what it read and kills at most what it killed
    for (int i = std::max(first, 0); i < end && i < int(program.instructions.size()); ++i) {
        const int b = cfg.blockOf(i);
        if (b >= 0 && !edited[b]) {
            edited[b] = 1;
            const RegSet oldGen = gen[b], oldKill = kill[b];
            genKill(program, cfg.blocks[b], gen[b], kill[b]);
            grows = grows && oldGen.minus(gen[b]) == RegSet {} && kill[b].minus(oldKill) == RegSet {};
            work.push_back(b);
        }
    }
    if (!grows) {
        // Live-in sets may shrink: the blocks that reach an edited one restart from gen (resuming
        // from the old sets would keep a register live around a loop through a use that went away).
        for (std::size_t k = 0; k < work.size(); ++k) {
            checkCancelled(int(k), 256);
            visited[work[k]] = 1;
            for (int p : cfg.blocks[work[k]].predecessors)
                if (!visited[p]) {
                    visited[p] = 1;
                    work.push_back(p);
                }
        }
        for (int b : work)
            liveIn[b] = gen[b];
        std::sort(work.begin(), work.end());
    }
    // Growing sets resume from the old solution (below the new least fixpoint): only the edited
    // blocks are queued, and predecessors only while live-in sets change.
    solve(cfg, work, gen, kill, liveIn, &visited);
    int count = 0;
    std::vector<RegSet> out = oldOut;
    for (int b = 0; b < nb; ++b) {
        if (!visited[b])
            continue;
        checkCancelled(b, 64);
        out[b] = liveOutOf(cfg, b, liveIn);
        if (edited[b] || !(out[b] == oldOut[b])) {
            countBlock(program, cfg.blocks[b], out[b], result);
            ++count;
        }
    }
    kernelPressure(program, cfg, liveIn, result);
    blocks = {toBits(gen), toBits(kill), toBits(liveIn), toBits(out)};
    if (recounted)
        *recounted = count;
    return result;
}

std::vector<PressureCost> pressureCosts(const GpuTarget& gpu, const OccupancyInput& input, const KernelPressure& peak,
                                        const TimingOptions& options)
{
    std::vector<PressureCost> out;
    struct File {
        const char* name;
        const char* upper;
        const PressurePeak* peak;
        int OccupancyInput::* field;
    };
    const File files[] = {{"vgpr", "VGPRs", &peak.vgpr, &OccupancyInput::vgprs},
                          {"agpr", "AGPRs", &peak.agpr, &OccupancyInput::agprs},
                          {"sgpr", "SGPRs", &peak.sgpr, &OccupancyInput::sgprs}};
    for (const File& f : files) {
        if (f.peak->count == 0)
            continue;
        // Waves alone (occupancyWaves): the hints of a whole computeOccupancy for each count
        // probed were a tenth of `analyze` on a 14-kernel source (issue #18).
        OccupancyInput in = input;
        in.*(f.field) = f.peak->count;
        const int now = occupancyWaves(gpu, in, options);
        if (now < 0)
            continue;
        PressureCost cost;
        cost.file = f.name;
        cost.peak = f.peak->count;
        cost.line = f.peak->line;
        cost.waves = now;
        for (int fewer = 1; fewer <= f.peak->count; ++fewer) {
            in.*(f.field) = f.peak->count - fewer;
            const int waves = occupancyWaves(gpu, in, options);
            if (waves > now) {
                cost.fewer = fewer;
                cost.better = waves;
                break;
            }
        }
        cost.text = cost.fewer ? std::format("the peak at line {} holds {} {}: {} fewer would give {} waves", cost.line,
                                             cost.peak, f.upper, cost.fewer, cost.better)
                               : std::format("the peak at line {} holds {} {} ({} waves); fewer would not raise occupancy",
                                             cost.line, cost.peak, f.upper, cost.waves);
        out.push_back(std::move(cost));
    }
    return out;
}

} // namespace gcnlens
