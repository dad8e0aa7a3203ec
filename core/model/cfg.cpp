// SPDX-License-Identifier: MIT
#include "core/model/cfg.h"

#include <algorithm>

namespace gcnlens {

namespace {

bool isCall(const Instruction& inst)
{
    return inst.mnemonic.starts_with("s_swappc") || inst.mnemonic.starts_with("s_call");
}

} // namespace

int Cfg::blockOf(int instruction) const
{
    if (instruction < 0 || instruction >= instructionCount())
        return -1;
    const auto after =
        std::upper_bound(blocks.begin(), blocks.end(), instruction, [](int i, const CfgBlock& block) { return i < block.first; });
    return int(after - blocks.begin()) - 1;
}

Cfg buildCfg(const Program& program)
{
    Cfg cfg;
    const auto& insts = program.instructions;
    const int n = int(insts.size());
    std::vector<char> leader(n + 1, 0);
    // Regions: maximal runs of one kernel value.
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && insts[j].kernel == insts[i].kernel)
            ++j;
        cfg.regions.push_back({insts[i].kernel, 0, 0, i, j});
        leader[i] = 1;
        i = j;
    }
    auto regionOfInstruction = std::vector<int>(n);
    for (int r = 0; r < int(cfg.regions.size()); ++r)
        for (int i = cfg.regions[r].firstInstruction; i < cfg.regions[r].endInstruction; ++i)
            regionOfInstruction[i] = r;
    auto inRegion = [&](int target, int r) {
        return target >= cfg.regions[r].firstInstruction && target < cfg.regions[r].endInstruction;
    };
    for (int i = 0; i < n; ++i) {
        const Instruction& in = insts[i];
        if (in.branch == BranchKind::None)
            continue;
        leader[i + 1] = 1;
        if (in.targetIndex() >= 0 && in.targetIndex() < n && inRegion(in.targetIndex(), regionOfInstruction[i]))
            leader[in.targetIndex()] = 1;
    }
    for (int r = 0; r < int(cfg.regions.size()); ++r) {
        CfgRegion& region = cfg.regions[r];
        region.firstBlock = int(cfg.blocks.size());
        for (int i = region.firstInstruction; i < region.endInstruction;) {
            int j = i + 1;
            while (j < region.endInstruction && !leader[j])
                ++j;
            CfgBlock b;
            b.first = i;
            b.end = j;
            b.region = r;
            cfg.blocks.push_back(std::move(b));
            i = j;
        }
        region.endBlock = int(cfg.blocks.size());
    }
    auto note = [&](int i, std::string text) { cfg.notes.push_back({i, insts[i].line, std::move(text)}); };
    for (int bi = 0; bi < int(cfg.blocks.size()); ++bi) {
        CfgBlock& b = cfg.blocks[bi];
        const CfgRegion& region = cfg.regions[b.region];
        const int last = b.end - 1;
        const Instruction& in = insts[last];
        const bool hasNext = b.end < region.endInstruction;
        auto addTarget = [&] {
            if (in.targetIndex() >= 0 && in.targetIndex() < n && inRegion(in.targetIndex(), b.region)) {
                b.successors.push_back(cfg.blockOf(in.targetIndex()));
            } else {
                b.exit = true;
                note(last,
                     "branch target " + (in.targetLabel().empty() ? std::string("unknown") : in.targetLabel().str())
                         + " is outside this kernel: treated as an exit");
            }
        };
        auto fallThrough = [&] {
            if (hasNext)
                b.successors.push_back(bi + 1);
            else
                b.exit = true;
        };
        switch (in.branch) {
        case BranchKind::None:
            fallThrough();
            break;
        case BranchKind::Unconditional:
            addTarget();
            break;
        case BranchKind::Conditional:
            addTarget();
            fallThrough();
            break;
        case BranchKind::Return:
            b.exit = true;
            break;
        case BranchKind::Indirect:
            if (isCall(in)) {
                note(last,
                     in.mnemonic
                         + ": call; the callee is not analysed (assumed to return here, to read "
                           "and write no register and to wait for its own memory operations)");
                fallThrough();
            } else {
                b.exit = true;
                note(last, in.mnemonic + ": target not known statically; treated as an exit");
            }
            break;
        }
        std::sort(b.successors.begin(), b.successors.end());
        b.successors.erase(std::unique(b.successors.begin(), b.successors.end()), b.successors.end());
    }
    for (int bi = 0; bi < int(cfg.blocks.size()); ++bi)
        for (int s : cfg.blocks[bi].successors)
            cfg.blocks[s].predecessors.push_back(bi);
    return cfg;
}

std::vector<int> reversePostOrder(const Cfg& cfg, int region)
{
    const CfgRegion& r = cfg.regions[region];
    const int count = r.endBlock - r.firstBlock;
    std::vector<int> order;
    order.reserve(count);
    if (count == 0)
        return order;
    std::vector<char> seen(count, 0);
    // Iterative DFS: (block, next successor position).
    std::vector<std::pair<int, std::size_t>> stack {{r.firstBlock, 0}};
    seen[0] = 1;
    while (!stack.empty()) {
        auto& [b, next] = stack.back();
        const auto& succ = cfg.blocks[b].successors;
        if (next < succ.size()) {
            const int s = succ[next++];
            if (!seen[s - r.firstBlock]) {
                seen[s - r.firstBlock] = 1;
                stack.push_back({s, 0});
            }
        } else {
            order.push_back(b);
            stack.pop_back();
        }
    }
    std::reverse(order.begin(), order.end());
    for (int b = r.firstBlock; b < r.endBlock; ++b)
        if (!seen[b - r.firstBlock])
            order.push_back(b);
    return order;
}

} // namespace gcnlens
