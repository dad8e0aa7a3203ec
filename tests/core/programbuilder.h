// SPDX-License-Identifier: MIT
// Hand-built Program values for model tests: instructions at exact offsets, without the assembler.
#pragma once

#include "core/program.h"

#include <optional>
#include <string>
#include <vector>

namespace gcnlens::test {

inline RegRange vgpr(int n)
{
    return {RegKind::VGPR, std::uint32_t(n), 1};
}
inline RegRange sgpr(int n, int count = 1)
{
    return {RegKind::SGPR, std::uint32_t(n), std::uint32_t(count)};
}
inline RegRange vcc()
{
    return {RegKind::VCC, 0, 2};
}
inline RegRange exec()
{
    return {RegKind::EXEC, 0, 2};
}
inline RegRange scc()
{
    return {RegKind::SCC, 0, 1};
}

class ProgramBuilder {
public:
    explicit ProgramBuilder(Generation generation = Generation::GFX6, int dpfactor = 8)
    {
        program_.gpu.name = "test";
        program_.gpu.processor = generation == Generation::GFX6 ? "tahiti" : "test";
        program_.gpu.generation = generation;
        program_.gpu.dpfactor = dpfactor;
        addKernel("k0");
    }

    // Starts a new kernel: offsets restart at 0 (they are kernel-relative).
    void addKernel(const std::string& name)
    {
        if (!program_.kernels.empty())
            program_.kernels.back().endInstruction = int(program_.instructions.size());
        Kernel kernel;
        kernel.name = name;
        kernel.firstInstruction = int(program_.instructions.size());
        program_.kernels.push_back(kernel);
        next_ = 0;
    }

    // Appends an instruction at `offset` (default: where the previous one ended). Its line is its
    // 1-based index, so tests can name it for branch overrides.
    int add(const std::string& mnemonic, Family family, int size, std::vector<RegRange> defs = {},
            std::optional<std::uint64_t> offset = {})
    {
        Instruction in;
        in.offset = offset.value_or(next_);
        in.size = size;
        in.mnemonic = mnemonic;
        in.family = family;
        in.hasLiteral =
            size == 8 && family != Family::VOP3 && family != Family::VOP3P && family != Family::DS && family != Family::MUBUF;
        in.defs = std::move(defs);
        in.kernel = int(program_.kernels.size()) - 1;
        in.line = int(program_.instructions.size()) + 1;
        next_ = in.offset + std::uint64_t(size);
        program_.instructions.push_back(std::move(in));
        return int(program_.instructions.size()) - 1;
    }

    // 1-dword, 4-cycle VALU fillers (v_mov_b32_e32 writes only a VGPR) up to `offset`.
    void fillTo(std::uint64_t offset)
    {
        while (next_ < offset)
            add("v_mov_b32_e32", Family::VOP1, 4, {vgpr(0)});
    }

    // A SOPP jump to a kernel-relative offset; the target instruction is resolved in build().
    int jump(const std::string& mnemonic, BranchKind kind, std::uint64_t target, std::vector<RegRange> defs = {})
    {
        const int index = add(mnemonic, Family::SOPP, 4, std::move(defs));
        Instruction& in = program_.instructions[std::size_t(index)];
        in.branch = kind;
        in.setTargetOffset(target);
        in.setTargetLabel("L" + std::to_string(target));
        in.backward = target <= in.offset;
        return index;
    }

    Instruction& at(int index) { return program_.instructions[std::size_t(index)]; }
    std::uint64_t next() const { return next_; }

    Program build()
    {
        program_.kernels.back().endInstruction = int(program_.instructions.size());
        for (Instruction& in : program_.instructions) {
            if (!in.targetOffset())
                continue;
            for (std::size_t j = 0; j < program_.instructions.size(); ++j)
                if (program_.instructions[j].kernel == in.kernel && program_.instructions[j].offset == *in.targetOffset()) {
                    in.setTargetIndex(int(j));
                    break;
                }
        }
        return program_;
    }

private:
    Program program_;
    std::uint64_t next_ = 0;
};

} // namespace gcnlens::test
