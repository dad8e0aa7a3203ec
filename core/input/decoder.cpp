// SPDX-License-Identifier: MIT
#include "core/input/decoder.h"

#include "core/asm/programbuild_p.h"
#include "core/asm/watch_p.h"

#include <llvm/MC/MCDisassembler/MCDisassembler.h>

#include <cctype>
#include <cstdio>
#include <mutex>

namespace gcnlens::input {

struct Decoder::Impl {
    GpuTarget gpu;
    std::unique_ptr<detail::TargetKit> kit;
    std::unique_ptr<llvm::MCContext> context;
    std::unique_ptr<llvm::MCDisassembler> disassembler;
    std::unique_ptr<llvm::MCInstPrinter> printer;
    std::string error;
};

Decoder::Decoder(const GpuTarget& gpu)
    : impl_(std::make_unique<Impl>())
{
    Impl& d = *impl_;
    d.gpu = gpu;
    // LLVM 19's AMDGPU disassembler stops the process (report_fatal_error) for targets without
    // the GCN3 encoding or GFX10+: GFX6 and GFX7 must not reach it.
    if (gpu.generation <= Generation::GFX7) {
        d.error = "LLVM's AMDGPU disassembler does not decode GFX6/GFX7 machine code (" + gpu.targetId + ")";
        return;
    }
    d.kit = detail::makeTargetKit(gpu, "amdgcn-amd-amdhsa");
    if (!d.kit->error.empty()) {
        d.error = d.kit->error;
        return;
    }
    static std::once_flag initialised;
    std::call_once(initialised, [] { LLVMInitializeAMDGPUDisassembler(); });
    detail::TargetKit& kit = *d.kit;
    d.context = std::make_unique<llvm::MCContext>(kit.triple, kit.asmInfo.get(), kit.registerInfo.get(), kit.subtargetInfo.get(),
                                                  nullptr, &kit.targetOptions);
    d.disassembler.reset(kit.target->createMCDisassembler(*kit.subtargetInfo, *d.context));
    d.printer.reset(kit.target->createMCInstPrinter(kit.triple, 0, *kit.asmInfo, *kit.instrInfo, *kit.registerInfo));
    if (!d.disassembler || !d.printer)
        d.error = "LLVM has no AMDGPU disassembler for " + gpu.targetId;
}

Decoder::~Decoder() = default;

const std::string& Decoder::error() const
{
    return impl_->error;
}

namespace {

// LLVM 19's disassembler crashes (llvm-objdump-19 and llvm-mc-19 --disassemble too) on a VOP1/VOP2
// SDWA word whose dst_sel, src0_sel or src1_sel is 7, a value the ISA reserves: 0x000000f9
// 0x07000000 on gfx900 or fiji is enough (fuzz_objectreader, tests/data/input/sdwa-sel7.o). Such a
// word is no instruction, so it is read as data before LLVM sees it.
bool isReservedSdwaSelect(std::span<const std::uint8_t> bytes)
{
    if (bytes.size() < 8)
        return false;
    const auto word = [&](std::size_t at) {
        return std::uint32_t(bytes[at]) | std::uint32_t(bytes[at + 1]) << 8 | std::uint32_t(bytes[at + 2]) << 16
            | std::uint32_t(bytes[at + 3]) << 24;
    };
    const std::uint32_t first = word(0), sdwa = word(4);
    const bool vop = (first >> 31) == 0;   // VOP1, VOP2 and VOPC all have bit 31 clear
    if (!vop || (first & 0x1ffu) != 0xf9u) // src0 = 0xf9 says "SDWA word follows"
        return false;
    const bool vopc = (first >> 25) == 0x3eu; // its bits 15:8 are SDST, not dst_sel
    const bool dstSel7 = !vopc && ((sdwa >> 8) & 7u) == 7u;
    return dstSel7 || ((sdwa >> 16) & 7u) == 7u || ((sdwa >> 24) & 7u) == 7u;
}

} // namespace

DecodedInstruction Decoder::decode(std::span<const std::uint8_t> bytes, std::uint64_t address)
{
    Impl& d = *impl_;
    DecodedInstruction out;
    Instruction& inst = out.inst;
    // (A test's worker may let the word through: watch_p.h DecodeFault.)
    if (d.error.empty() && !bytes.empty() && !(isReservedSdwaSelect(bytes) && !detail::runWatch.unguarded())) {
        llvm::MCInst mc;
        std::uint64_t size = 0;
        // The disassembler writes its own comments (literal notes) here; nothing gcnlens shows.
        std::string comments;
        llvm::raw_string_ostream commentStream(comments);
        // In the worker (core/asm/isolated.h), where LLVM stands if it crashes or hangs here.
        detail::runWatch.decoding(address);
        const auto status = d.disassembler->getInstruction(mc, size, llvm::ArrayRef<std::uint8_t>(bytes.data(), bytes.size()),
                                                           address, commentStream);
        if (status == llvm::MCDisassembler::Success && size > 0 && size <= bytes.size()) {
            detail::Emission e;
            detail::describeEncoded(*d.kit, d.gpu, *d.printer, mc, *d.kit->subtargetInfo, bytes.first(std::size_t(size)), e);
            inst.size = int(size);
            inst.encoding = std::move(e.bytes);
            inst.mnemonic = std::move(e.mnemonic);
            inst.operands = std::move(e.operands);
            inst.family = e.family;
            inst.opcode = e.opcode; // the timing model's LLVM sources (#15) key on it
            inst.hasLiteral = inst.size > detail::nativeSize(e.family);
            inst.glc = e.glc;
            inst.defs = std::move(e.defs);
            inst.uses = std::move(e.uses);
            inst.branch = detail::branchKind(inst.mnemonic);
            if (e.hasBranchImmediate)
                out.branchImmediate = e.branchImmediate;
            detail::runWatch.decoded();
            return out;
        }
        detail::runWatch.decoded();
    }
    // Not an instruction this target knows: one dword (or the bytes left) of data.
    const std::size_t size = std::min<std::size_t>(4, bytes.size());
    inst.size = int(size);
    inst.encoding.assign(bytes.begin(), bytes.begin() + std::ptrdiff_t(size));
    std::uint32_t word = 0;
    for (std::size_t i = 0; i < size; ++i)
        word |= std::uint32_t(bytes[i]) << (8 * i);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", word);
    inst.isData = true;
    inst.family = Family::Data;
    inst.mnemonic = size == 4 ? ".long" : ".byte";
    inst.operands = text;
    return out;
}

void Decoder::enterRegion(std::string_view name, std::uint64_t begin)
{
    detail::runWatch.decodingRegion(name, begin);
}

void nameBranchTarget(DecodedInstruction& decoded, std::uint64_t address, const std::map<std::uint64_t, std::string>& labels)
{
    const Instruction& inst = decoded.inst;
    if (!decoded.branchImmediate || (inst.branch != BranchKind::Unconditional && inst.branch != BranchKind::Conditional))
        return;
    const std::uint64_t target = address + 4 + std::uint64_t(std::int64_t(std::int16_t(*decoded.branchImmediate)) * 4);
    if (const auto it = labels.find(target); it != labels.end())
        decoded.inst.operands = it->second;
}

void finishDecodedProgram(Program& program)
{
    std::vector<std::pair<int, int>> byLine;
    byLine.reserve(program.instructions.size());
    for (std::size_t i = 0; i < program.instructions.size(); ++i)
        byLine.emplace_back(program.instructions[i].line, int(i));
    program.lineToInstructions.assign(std::move(byLine));
    // Decoded branches carry their target as an offset (no label names): resolveBranches finds
    // the instruction at that offset in the same kernel.
    detail::resolveBranches(program, {});
    // A branch whose target has a label prints the label (labels not known by address before).
    std::map<int, const Label*> labelFor;
    for (const auto& label : program.labels)
        if (label.instruction >= 0)
            labelFor.emplace(label.instruction, &label);
    for (auto& inst : program.instructions) {
        if (inst.targetIndex() < 0 || inst.operands.empty() || !std::isdigit(static_cast<unsigned char>(inst.operands.front())))
            continue;
        if (const auto it = labelFor.find(inst.targetIndex()); it != labelFor.end())
            inst.operands = it->second->name;
    }
    detail::RegisterTally registers;
    registers.rebuild(program);
    registers.store(program);
}

std::string encodingWords(std::span<const std::uint8_t> encoding)
{
    std::string out;
    char word[16];
    for (std::size_t i = 0; i < encoding.size(); i += 4) {
        std::uint32_t value = 0;
        const std::size_t n = std::min<std::size_t>(4, encoding.size() - i);
        for (std::size_t b = 0; b < n; ++b)
            value |= std::uint32_t(encoding[i + b]) << (8 * b);
        std::snprintf(word, sizeof word, "%0*X", int(n * 2), value);
        if (!out.empty())
            out += ' ';
        out += word;
    }
    return out;
}

} // namespace gcnlens::input
