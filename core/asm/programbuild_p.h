// SPDX-License-Identifier: MIT
// Private to core/asm: the streamer's emissions to a Program (lines, kernels, labels, branch
// targets, register use), and the pieces the incremental splice updates in place.
#pragma once

#include "core/asm/streamer_p.h"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace gcnlens {
class SourceMap;
}

namespace gcnlens::detail {

// Branch targets, and their simm16 now that label offsets are known, for instructions
// [from, to) (a splice that moved nothing re-resolves only the lines it replaced).
void resolveBranches(Program& program, const std::unordered_map<std::string, std::size_t>& labelIndex, std::size_t from = 0,
                     std::size_t to = std::size_t(-1));

// Counts of register references per kernel and for the file. The usage is the highest count that
// is not zero, so a splice can take an edited instruction's registers out again without
// rescanning the program.
class RegisterTally {
public:
    void rebuild(const Program& program)
    {
        file_ = Counts {};
        kernels_.assign(program.kernels.size(), Counts {});
        for (const auto& inst : program.instructions)
            add(inst, +1);
    }

    void add(const Instruction& inst, int sign)
    {
        for (const auto* list : {&inst.defs, &inst.uses})
            for (const auto& range : *list) {
                file_.add(range, sign);
                if (inst.kernel >= 0 && std::size_t(inst.kernel) < kernels_.size())
                    kernels_[std::size_t(inst.kernel)].add(range, sign);
            }
    }

    void store(Program& program) const
    {
        program.registers = file_.usage();
        program.kernelRegisters.resize(kernels_.size());
        for (std::size_t k = 0; k < kernels_.size(); ++k)
            program.kernelRegisters[k] = kernels_[k].usage();
    }

private:
    struct Counts {
        std::vector<int> vgpr, sgpr, agpr; // references by the last index of the range
        int vcc = 0, exec = 0, m0 = 0, scc = 0, flatScratch = 0, xnackMask = 0;

        static void count(std::vector<int>& byIndex, const RegRange& range, int sign)
        {
            const auto last = std::size_t(std::max(0, range.first + range.count - 1));
            if (byIndex.size() <= last)
                byIndex.resize(last + 1, 0);
            byIndex[last] += sign;
        }
        static int highest(const std::vector<int>& byIndex)
        {
            for (std::size_t i = byIndex.size(); i-- > 0;)
                if (byIndex[i] > 0)
                    return int(i);
            return -1;
        }
        void add(const RegRange& range, int sign)
        {
            switch (range.kind) {
            case RegKind::VGPR:
                count(vgpr, range, sign);
                break;
            case RegKind::SGPR:
                count(sgpr, range, sign);
                break;
            case RegKind::AGPR:
                count(agpr, range, sign);
                break;
            case RegKind::VCC:
                vcc += sign;
                break;
            case RegKind::EXEC:
                exec += sign;
                break;
            case RegKind::M0:
                m0 += sign;
                break;
            case RegKind::SCC:
                scc += sign;
                break;
            case RegKind::FlatScratch:
                flatScratch += sign;
                break;
            case RegKind::XnackMask:
                xnackMask += sign;
                break;
            case RegKind::TTMP:
            case RegKind::Other:
                break;
            }
        }
        RegisterUsage usage() const
        {
            RegisterUsage u;
            u.maxVgpr = highest(vgpr);
            u.maxSgpr = highest(sgpr);
            u.maxAgpr = highest(agpr);
            u.vcc = vcc > 0;
            u.exec = exec > 0;
            u.m0 = m0 > 0;
            u.scc = scc > 0;
            u.flatScratch = flatScratch > 0;
            u.xnackMask = xnackMask > 0;
            return u;
        }
    };
    Counts file_;
    std::vector<Counts> kernels_;
};

// Turns the streamer's emissions into the Program: lines, kernels, labels, branch targets.
// `planned`: the shape plan's instructions, which PlannedRun emissions name by range.
void buildProgram(Program& program, std::vector<Emission>& emissions, const std::vector<RawDiagnostic>& rawDiagnostics,
                  const std::vector<std::string>& functionSymbols, const SourceMap& map, const IndexedSourceMgr& sources,
                  std::vector<PlannedInstruction>& planned);

} // namespace gcnlens::detail
