// SPDX-License-Identifier: MIT
// Private to core/asm: what LLVM's AMDGPU MC layer needs per target (TargetKit), and how its
// opcodes, flags and register names map onto gcnlens' plain values. Includes LLVM: only core/asm
// .cpp files include this header.
#pragma once

#include "core/program.h"

#include <llvm/MC/MCAsmBackend.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSectionELF.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCSymbol.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gcnlens::detail {

// SIInstrFlags bits of MCInstrDesc::TSFlags (LLVM 19, lib/Target/AMDGPU/SIDefines.h). They are
// not in an installed header; tst_frontend checks every family against known encodings, so a
// change in LLVM shows up as a failing test rather than a silent misclassification.
namespace SIFlags {
constexpr std::uint64_t SOP1 = 1 << 2, SOP2 = 1 << 3, SOPC = 1 << 4, SOPK = 1 << 5, SOPP = 1 << 6;
constexpr std::uint64_t VOP1 = 1 << 7, VOP2 = 1 << 8, VOPC = 1 << 9, VOP3 = 1 << 10, VOP3P = 1 << 12;
constexpr std::uint64_t VINTRP = 1 << 13, SDWA = 1 << 14, DPP = 1 << 15;
constexpr std::uint64_t MUBUF = 1 << 17, MTBUF = 1 << 18, SMRD = 1 << 19, MIMG = 1 << 20;
constexpr std::uint64_t EXP = 1 << 23, FLAT = 1 << 24, DS = 1 << 25;
constexpr std::uint64_t FlatGlobal = std::uint64_t(1) << 51, FlatScratch = std::uint64_t(1) << 56;
} // namespace SIFlags

constexpr int kPlaceholderSize = 4; // see program.h: an unassemblable line with no history

Family familyFromFlags(std::uint64_t flags, Generation generation);
int nativeSize(Family family); // bytes of the encoding without a literal
BranchKind branchKind(std::string_view mnemonic);
std::optional<RegRange> classifyRegister(std::string_view name);

// Everything LLVM needs that does not depend on the source: made once per target.
struct TargetKit {
    const llvm::Target* target = nullptr;
    llvm::Triple triple;
    std::unique_ptr<llvm::MCRegisterInfo> registerInfo;
    std::unique_ptr<llvm::MCAsmInfo> asmInfo;
    std::unique_ptr<llvm::MCInstrInfo> instrInfo;
    std::unique_ptr<llvm::MCSubtargetInfo> subtargetInfo;
    llvm::MCTargetOptions targetOptions;
    std::unordered_map<unsigned, std::optional<RegRange>> registerCache;
    // Printed text by encoding: the same bytes and opcode always print the same, and kernels
    // repeat instructions a lot, so each repeated encoding is printed once more at most. The texts
    // are the interned ones the instructions hold, and the key is the encoding's interned handle:
    // an entry is 20 bytes (issue #18). In real kernels most encodings are distinct (offsets,
    // literals) and would never be found again, so an encoding is admitted only when it repeats
    // (its bytes were interned before); a cache of every encoding was about 90 bytes per
    // instruction of a kernel with distinct operands, kept with the target kit between runs.
    struct Printed {
        InternedString mnemonic, operands;
        bool glc = false;
    };
    class PrintCache {
    public:
        const Printed* find(InternedArray<std::uint8_t> encoding, unsigned opcode) const;
        void insert(InternedArray<std::uint8_t> encoding, unsigned opcode, Printed printed);

    private:
        // Open addressing in one array: a node-based map keyed by strings cost a twelfth of the
        // worker's time on real kernels, in allocations and cache misses.
        struct Slot {
            std::uint32_t encoding = 0; // the interned handle, 0: empty
            std::uint32_t opcode = 0;
            Printed printed;
        };
        std::size_t slotOf(std::uint32_t encoding, unsigned opcode) const;
        std::vector<Slot> slots_;
        std::size_t used_ = 0;
    };
    PrintCache printCache;
    std::string error;

    // The register LLVM calls VGPR4, or VGPR4_VGPR5_… for a tuple (0 when there is none).
    unsigned registerNamed(RegKind kind, int first, int count);
    std::unordered_map<std::uint64_t, unsigned> registerByRange;
    // VGPRn, SGPRn and AGPRn by n (0: none), found once by name. A tuple is looked up among the
    // super-registers of its first register: a table of all ~9000 register names was 1 MB per
    // target kit, charged to the first kernel each GPU analyses (issue #18).
    std::vector<unsigned> singleRegisters[3];
    bool singleRegistersFound = false;

    const std::optional<RegRange>& reg(unsigned id)
    {
        auto it = registerCache.find(id);
        if (it == registerCache.end())
            it = registerCache.emplace(id, classifyRegister(registerInfo->getName(id))).first;
        return it->second;
    }
};

// LLVM 19 takes the code object v2 directives (.amdgpu_hsa_kernel, .amd_kernel_code_t) only
// without the amdhsa OS, and the .amdhsa_* ones only with it: the triple a source's directives need,
// as its own build chooses it (MIOpen's ROCM_METADATA_VERSION, for one).
std::string tripleFor(std::string_view source, const std::vector<std::pair<std::string, std::int64_t>>& defsyms = {});
std::unique_ptr<TargetKit> makeTargetKit(const GpuTarget& gpu, const std::string& triple);

} // namespace gcnlens::detail
