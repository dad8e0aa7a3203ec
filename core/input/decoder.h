// SPDX-License-Identifier: MIT
// Machine code to Instructions with LLVM's AMDGPU disassembler, for the readers of code objects
// and listings: the same family, printed text, defs and uses as the assembler path gives
// (core/asm describeEncoded), so every model works on a decoded program unchanged. No LLVM here.
#pragma once

#include "core/program.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gcnlens::input {

struct DecodedInstruction {
    Instruction inst;                            // size, encoding, text, family, registers, branch kind
    std::optional<std::int64_t> branchImmediate; // simm16 of a direct branch: target = pc + 4 + 4·simm
};

class Decoder {
public:
    explicit Decoder(const GpuTarget& gpu);
    ~Decoder();
    Decoder(const Decoder&) = delete;
    Decoder& operator=(const Decoder&) = delete;

    // Non-empty when LLVM could not be set up for the target; decode() then yields only data.
    const std::string& error() const;

    // The instruction at the start of `bytes`. Words the disassembler does not know are data of
    // known size (one dword, or what is left), never an error: a code object may hold constants.
    DecodedInstruction decode(std::span<const std::uint8_t> bytes, std::uint64_t address);

    // The words decoded next belong to `name` (a kernel, a function, a section), which starts at
    // `begin`: what the worker process names when LLVM crashes or hangs on one (core/asm/isolated.h).
    void enterRegion(std::string_view name, std::uint64_t begin);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A decoded instruction whose offsets are set: the kernel-relative branch target.
inline void setBranchTarget(DecodedInstruction& decoded)
{
    Instruction& inst = decoded.inst;
    if (decoded.branchImmediate && (inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional))
        inst.setTargetOffset(inst.offset + 4 + std::uint64_t(std::int64_t(std::int16_t(*decoded.branchImmediate)) * 4));
}

// A decoded direct branch at `address` prints its target's label, as llvm-objdump does, when a
// label sits there (labels: address → name); the number otherwise.
void nameBranchTarget(DecodedInstruction& decoded, std::uint64_t address, const std::map<std::uint64_t, std::string>& labels);

// Completes a program whose instructions (in section order, offsets, kernel and line set),
// kernels and labels are filled in: branch target indices, register use and the line index.
void finishDecodedProgram(Program& program);

// "C0060002 00000000": an encoding as little-endian dwords, the way llvm-objdump prints it.
std::string encodingWords(std::span<const std::uint8_t> encoding);

} // namespace gcnlens::input
