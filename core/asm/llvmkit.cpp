// SPDX-License-Identifier: MIT
#include "core/asm/llvmkit_p.h"

#include "core/support/hash.h"

#include <llvm/Support/TargetSelect.h>

#include <charconv>
#include <mutex>

namespace gcnlens::detail {

std::size_t TargetKit::PrintCache::slotOf(std::uint32_t encoding, unsigned opcode) const
{
    return hashWord(std::uint64_t(encoding) << 32 | opcode) & (slots_.size() - 1);
}

const TargetKit::Printed* TargetKit::PrintCache::find(InternedArray<std::uint8_t> encoding, unsigned opcode) const
{
    if (slots_.empty() || encoding.empty())
        return nullptr;
    for (std::size_t at = slotOf(encoding.handle(), opcode); slots_[at].encoding; at = (at + 1) & (slots_.size() - 1))
        if (slots_[at].encoding == encoding.handle() && slots_[at].opcode == opcode)
            return &slots_[at].printed;
    return nullptr;
}

void TargetKit::PrintCache::insert(InternedArray<std::uint8_t> encoding, unsigned opcode, Printed printed)
{
    if (encoding.empty())
        return;
    if ((used_ + 1) * 2 > slots_.size()) {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot {});
        for (const Slot& slot : old) {
            if (!slot.encoding)
                continue;
            std::size_t at = slotOf(slot.encoding, slot.opcode);
            while (slots_[at].encoding)
                at = (at + 1) & (slots_.size() - 1);
            slots_[at] = slot;
        }
    }
    std::size_t at = slotOf(encoding.handle(), opcode);
    for (; slots_[at].encoding; at = (at + 1) & (slots_.size() - 1))
        if (slots_[at].encoding == encoding.handle() && slots_[at].opcode == opcode)
            return;
    slots_[at] = Slot {encoding.handle(), opcode, std::move(printed)};
    ++used_;
}

unsigned TargetKit::registerNamed(RegKind kind, int first, int count)
{
    static constexpr std::string_view prefixes[3] = {"VGPR", "SGPR", "AGPR"};
    const int kindIndex = kind == RegKind::VGPR ? 0 : kind == RegKind::SGPR ? 1 : kind == RegKind::AGPR ? 2 : -1;
    // A single register straight from its table: the shape pass and the statement cache ask for
    // one per register operand they put in.
    if (count == 1 && singleRegistersFound && kindIndex >= 0 && first >= 0
        && std::size_t(first) < singleRegisters[kindIndex].size())
        return singleRegisters[kindIndex][std::size_t(first)];
    const std::uint64_t key = (std::uint64_t(kind) << 32) | (std::uint64_t(first) << 8) | std::uint64_t(count);
    if (const auto it = registerByRange.find(key); it != registerByRange.end())
        return it->second;
    if (!singleRegistersFound) {
        singleRegistersFound = true;
        for (unsigned id = 1; id < registerInfo->getNumRegs(); ++id) {
            const std::string_view name = registerInfo->getName(id);
            for (int k = 0; k < 3; ++k) {
                if (!name.starts_with(prefixes[k]))
                    continue;
                unsigned index = 0;
                const char* end = name.data() + name.size();
                const auto [stop, ec] = std::from_chars(name.data() + prefixes[k].size(), end, index);
                if (ec != std::errc() || stop != end || stop == name.data() + prefixes[k].size() || index > 1023)
                    continue; // not VGPRn/SGPRn/AGPRn (a tuple, a half, a class of its own)
                auto& singles = singleRegisters[k];
                if (singles.size() <= index)
                    singles.resize(index + 1, 0);
                singles[index] = id;
            }
        }
    }
    unsigned id = 0;
    if (kindIndex >= 0 && first >= 0 && count >= 1 && std::size_t(first) < singleRegisters[kindIndex].size()) {
        const unsigned base = singleRegisters[kindIndex][std::size_t(first)];
        if (base && count == 1) {
            id = base;
        } else if (base) {
            const std::string prefix(prefixes[kindIndex]);
            std::string name;
            for (int i = first; i < first + count; ++i)
                name += (i == first ? "" : "_") + prefix + std::to_string(i);
            for (const llvm::MCPhysReg super : registerInfo->superregs(base))
                if (registerInfo->getName(super) == name) {
                    id = super;
                    break;
                }
        }
    }
    registerByRange.emplace(key, id);
    return id;
}

Family familyFromFlags(std::uint64_t flags, Generation generation)
{
    using namespace SIFlags;
    if (flags & SDWA)
        return Family::SDWA;
    if (flags & DPP)
        return Family::DPP;
    if (flags & VOP3P)
        return Family::VOP3P;
    if (flags & VOP3)
        return Family::VOP3;
    if (flags & VOPC)
        return Family::VOPC;
    if (flags & VOP1)
        return Family::VOP1;
    if (flags & VOP2)
        return Family::VOP2;
    if (flags & VINTRP)
        return Family::VINTRP;
    if (flags & SOP1)
        return Family::SOP1;
    if (flags & SOP2)
        return Family::SOP2;
    if (flags & SOPC)
        return Family::SOPC;
    if (flags & SOPK)
        return Family::SOPK;
    if (flags & SOPP)
        return Family::SOPP;
    // GFX6/7 scalar memory is SMRD; GFX8 onwards it is the SMEM encoding.
    if (flags & SMRD)
        return generation <= Generation::GFX7 ? Family::SMRD : Family::SMEM;
    if (flags & DS)
        return Family::DS;
    if (flags & MUBUF)
        return Family::MUBUF;
    if (flags & MTBUF)
        return Family::MTBUF;
    if (flags & MIMG)
        return Family::MIMG;
    if (flags & EXP)
        return Family::EXP;
    if (flags & FLAT) {
        if (flags & FlatGlobal)
            return Family::GLOBAL;
        if (flags & FlatScratch)
            return Family::SCRATCH;
        return Family::FLAT;
    }
    return Family::Unknown;
}

// Native size of a family without a literal: a larger encoding carries a 32-bit literal.
int nativeSize(Family family)
{
    switch (family) {
    case Family::SOP1:
    case Family::SOP2:
    case Family::SOPK:
    case Family::SOPC:
    case Family::SOPP:
    case Family::SMRD:
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VINTRP:
        return 4;
    default:
        return 8;
    }
}

BranchKind branchKind(std::string_view mnemonic)
{
    if (mnemonic == "s_branch")
        return BranchKind::Unconditional;
    if (mnemonic.starts_with("s_cbranch_")) {
        if (mnemonic == "s_cbranch_join" || mnemonic == "s_cbranch_g_fork" || mnemonic == "s_cbranch_i_fork")
            return BranchKind::Indirect;
        return BranchKind::Conditional;
    }
    if (mnemonic == "s_setpc_b64" || mnemonic == "s_swappc_b64" || mnemonic == "s_rfe_b64")
        return BranchKind::Indirect;
    if (mnemonic.starts_with("s_endpgm"))
        return BranchKind::Return;
    return BranchKind::None;
}

// Parses LLVM register names such as "VGPR4_VGPR5", "SGPR0_SGPR1_gfx…", "VCC_LO", "FLAT_SCR_vi".
std::optional<RegRange> classifyRegister(std::string_view name)
{
    struct Prefix {
        std::string_view text;
        RegKind kind;
    };
    static constexpr Prefix tuples[] = {
        {"VGPR", RegKind::VGPR}, {"SGPR", RegKind::SGPR}, {"AGPR", RegKind::AGPR}, {"TTMP", RegKind::TTMP}};
    for (const auto& prefix : tuples) {
        if (!name.starts_with(prefix.text))
            continue;
        int first = -1, last = -1;
        std::string_view rest = name;
        while (rest.starts_with(prefix.text)) {
            rest.remove_prefix(prefix.text.size());
            int index = 0;
            const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
            if (ec != std::errc())
                break;
            rest.remove_prefix(ptr - rest.data());
            first = first < 0 ? index : std::min(first, index);
            last = std::max(last, index);
            if (rest.starts_with("_"))
                rest.remove_prefix(1);
        }
        if (first < 0)
            return std::nullopt;
        // 16-bit halves (VGPR0_LO16) still occupy the whole register.
        return RegRange {prefix.kind, std::uint32_t(first), std::uint32_t(last - first + 1)};
    }
    const auto is = [&](std::string_view full) { return name == full || name.starts_with(std::string(full) + "_"); };
    // The 32-bit halves: _LO is the pair's first register, _HI its second (liveness and hazards tell them apart).
    if (name.starts_with("VCC_LO") || name.starts_with("VCC_HI"))
        return RegRange {RegKind::VCC, name[4] == 'H', 1};
    if (is("VCC"))
        return RegRange {RegKind::VCC, 0, 2};
    if (name.starts_with("EXEC_LO") || name.starts_with("EXEC_HI"))
        return RegRange {RegKind::EXEC, name[5] == 'H', 1};
    if (is("EXEC"))
        return RegRange {RegKind::EXEC, 0, 2};
    if (is("M0"))
        return RegRange {RegKind::M0, 0, 1};
    if (is("SCC"))
        return RegRange {RegKind::SCC, 0, 1};
    if (name.starts_with("FLAT_SCR_LO") || name.starts_with("FLAT_SCR_HI"))
        return RegRange {RegKind::FlatScratch, name[9] == 'H', 1};
    if (is("FLAT_SCR"))
        return RegRange {RegKind::FlatScratch, 0, 2};
    if (name.starts_with("XNACK_MASK_LO") || name.starts_with("XNACK_MASK_HI"))
        return RegRange {RegKind::XnackMask, name[11] == 'H', 1};
    if (is("XNACK_MASK"))
        return RegRange {RegKind::XnackMask, 0, 2};
    return std::nullopt;
}

// amdgcn-- for a source written for code object v2 (.amdgpu_hsa_kernel, .amd_kernel_code_t, the
// old .hsa_code_object_* header), amdgcn-amd-amdhsa otherwise. A source that chooses between the
// two itself decides: MIOpen's kernels (rocm_version.inc) are built for amdhsa and take the v2
// path only when ROCM_METADATA_VERSION is 4; sources with .amdhsa_* directives or .amdgcn_target
// are v3+ whatever else they mention.
std::string tripleFor(std::string_view source, const std::vector<std::pair<std::string, std::int64_t>>& defsyms)
{
    // The names, in one pass over the '.'s (plain code has few; a search per name went through
    // the whole text six times, stopping at every 'r' for one; issue #18).
    bool rocm = source.find("ROCM_METADATA_VERSION") != std::string_view::npos, v2 = false, hsa = false;
    for (std::size_t at = source.find('.'); at != std::string_view::npos; at = source.find('.', at + 1)) {
        const std::string_view from = source.substr(at);
        rocm = rocm || (from.starts_with(".inc") && at >= 12 && source.substr(at - 12, 12) == "rocm_version");
        v2 = v2 || from.starts_with(".amdgpu_hsa_kernel") || from.starts_with(".amd_kernel_code_t")
            || from.starts_with(".hsa_code_object_");
        hsa = hsa || from.starts_with(".amdhsa_") || from.starts_with(".amdgcn_target");
    }
    if (rocm) {
        for (const auto& [name, value] : defsyms)
            if (name == "ROCM_METADATA_VERSION")
                return value == 4 ? "amdgcn--" : "amdgcn-amd-amdhsa";
        return "amdgcn-amd-amdhsa";
    }
    return v2 && !hsa ? "amdgcn--" : "amdgcn-amd-amdhsa";
}

std::unique_ptr<TargetKit> makeTargetKit(const GpuTarget& gpu, const std::string& triple)
{
    static std::once_flag initialised;
    std::call_once(initialised, [] {
        LLVMInitializeAMDGPUTargetInfo();
        LLVMInitializeAMDGPUTargetMC();
        LLVMInitializeAMDGPUAsmParser();
    });
    auto kit = std::make_unique<TargetKit>();
    kit->triple = llvm::Triple(triple);
    std::string error;
    kit->target = llvm::TargetRegistry::lookupTarget(kit->triple.getTriple(), error);
    if (!kit->target) {
        kit->error = "LLVM has no AMDGPU target: " + error;
        return kit;
    }
    kit->registerInfo.reset(kit->target->createMCRegInfo(kit->triple.getTriple()));
    kit->asmInfo.reset(kit->target->createMCAsmInfo(*kit->registerInfo, kit->triple.getTriple(), kit->targetOptions));
    kit->instrInfo.reset(kit->target->createMCInstrInfo());
    kit->subtargetInfo.reset(kit->target->createMCSubtargetInfo(kit->triple.getTriple(), gpu.processor, gpu.features));
    if (!kit->registerInfo || !kit->asmInfo || !kit->instrInfo || !kit->subtargetInfo)
        kit->error = "LLVM could not set up the AMDGPU target for " + gpu.targetId;
    return kit;
}

} // namespace gcnlens::detail
