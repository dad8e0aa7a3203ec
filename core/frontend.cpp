// SPDX-License-Identifier: MIT
// The front-end: LLVM's AMDGPU assembler (MC layer) decides every size and encoding; this file
// only listens to what it emits and maps it back to source lines. All LLVM use stays in here.
#include "core/program.h"
#include "core/sourcemap.h"

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

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace gcnlens {

namespace {

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

Family familyFromFlags(std::uint64_t flags, Generation generation)
{
    using namespace SIFlags;
    if (flags & SDWA) return Family::SDWA;
    if (flags & DPP) return Family::DPP;
    if (flags & VOP3P) return Family::VOP3P;
    if (flags & VOP3) return Family::VOP3;
    if (flags & VOPC) return Family::VOPC;
    if (flags & VOP1) return Family::VOP1;
    if (flags & VOP2) return Family::VOP2;
    if (flags & VINTRP) return Family::VINTRP;
    if (flags & SOP1) return Family::SOP1;
    if (flags & SOP2) return Family::SOP2;
    if (flags & SOPC) return Family::SOPC;
    if (flags & SOPK) return Family::SOPK;
    if (flags & SOPP) return Family::SOPP;
    // GFX6/7 scalar memory is SMRD; GFX8 onwards it is the SMEM encoding.
    if (flags & SMRD) return generation <= Generation::GFX7 ? Family::SMRD : Family::SMEM;
    if (flags & DS) return Family::DS;
    if (flags & MUBUF) return Family::MUBUF;
    if (flags & MTBUF) return Family::MTBUF;
    if (flags & MIMG) return Family::MIMG;
    if (flags & EXP) return Family::EXP;
    if (flags & FLAT) {
        if (flags & FlatGlobal) return Family::GLOBAL;
        if (flags & FlatScratch) return Family::SCRATCH;
        return Family::FLAT;
    }
    return Family::Unknown;
}

// Native size of a family without a literal: a larger encoding carries a 32-bit literal.
int nativeSize(Family family)
{
    switch (family) {
    case Family::SOP1: case Family::SOP2: case Family::SOPK: case Family::SOPC: case Family::SOPP:
    case Family::SMRD: case Family::VOP1: case Family::VOP2: case Family::VOPC: case Family::VINTRP:
        return 4;
    default:
        return 8;
    }
}

BranchKind branchKind(std::string_view mnemonic)
{
    if (mnemonic == "s_branch") return BranchKind::Unconditional;
    if (mnemonic.starts_with("s_cbranch_")) {
        if (mnemonic == "s_cbranch_join" || mnemonic == "s_cbranch_g_fork" || mnemonic == "s_cbranch_i_fork")
            return BranchKind::Indirect;
        return BranchKind::Conditional;
    }
    if (mnemonic == "s_setpc_b64" || mnemonic == "s_swappc_b64" || mnemonic == "s_rfe_b64")
        return BranchKind::Indirect;
    if (mnemonic.starts_with("s_endpgm")) return BranchKind::Return;
    return BranchKind::None;
}

// Parses LLVM register names such as "VGPR4_VGPR5", "SGPR0_SGPR1_gfx…", "VCC_LO", "FLAT_SCR_vi".
std::optional<RegRange> classifyRegister(std::string_view name)
{
    struct Prefix { std::string_view text; RegKind kind; };
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
        return RegRange {prefix.kind, first, last - first + 1};
    }
    const auto is = [&](std::string_view full) { return name == full || name.starts_with(std::string(full) + "_"); };
    if (name.starts_with("VCC_LO") || name.starts_with("VCC_HI")) return RegRange {RegKind::VCC, 0, 1};
    if (is("VCC")) return RegRange {RegKind::VCC, 0, 2};
    if (name.starts_with("EXEC_LO") || name.starts_with("EXEC_HI")) return RegRange {RegKind::EXEC, 0, 1};
    if (is("EXEC")) return RegRange {RegKind::EXEC, 0, 2};
    if (is("M0")) return RegRange {RegKind::M0, 0, 1};
    if (is("SCC")) return RegRange {RegKind::SCC, 0, 1};
    if (name.starts_with("FLAT_SCR_LO") || name.starts_with("FLAT_SCR_HI")) return RegRange {RegKind::FlatScratch, 0, 1};
    if (is("FLAT_SCR")) return RegRange {RegKind::FlatScratch, 0, 2};
    if (name.starts_with("XNACK_MASK_LO") || name.starts_with("XNACK_MASK_HI")) return RegRange {RegKind::XnackMask, 0, 1};
    if (is("XNACK_MASK")) return RegRange {RegKind::XnackMask, 0, 2};
    return std::nullopt;
}

std::size_t countNewlines(std::string_view text);
bool isWordChar(char c);
std::string_view trimmedFront(std::string_view text);

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
    // Printed text by encoding: the same bytes (and branch symbol) always print the same, and
    // kernels repeat instructions a lot, so each distinct encoding is printed once.
    struct Printed { std::string mnemonic, operands; bool glc = false; };
    std::unordered_map<std::string, Printed> printCache;
    std::string error;

    // The register LLVM calls VGPR4, or VGPR4_VGPR5_… for a tuple (0 when there is none).
    unsigned registerNamed(RegKind kind, int first, int count)
    {
        const std::uint64_t key = (std::uint64_t(kind) << 32) | (std::uint64_t(first) << 8) | std::uint64_t(count);
        if (const auto it = registerByRange.find(key); it != registerByRange.end())
            return it->second;
        if (registerByName.empty())
            for (unsigned id = 1; id < registerInfo->getNumRegs(); ++id)
                registerByName.emplace(registerInfo->getName(id), id);
        const char* prefix = kind == RegKind::VGPR ? "VGPR" : kind == RegKind::SGPR ? "SGPR" : kind == RegKind::AGPR ? "AGPR" : nullptr;
        unsigned id = 0;
        if (prefix) {
            std::string name;
            for (int i = first; i < first + count; ++i)
                name += (i == first ? "" : "_") + std::string(prefix) + std::to_string(i);
            if (const auto it = registerByName.find(name); it != registerByName.end())
                id = it->second;
        }
        registerByRange.emplace(key, id);
        return id;
    }
    std::unordered_map<std::string, unsigned> registerByName;
    std::unordered_map<std::uint64_t, unsigned> registerByRange;

    const std::optional<RegRange>& reg(unsigned id)
    {
        auto it = registerCache.find(id);
        if (it == registerCache.end())
            it = registerCache.emplace(id, classifyRegister(registerInfo->getName(id))).first;
        return it->second;
    }
};

// LLVM 19 takes the code object v2 directives (.amdgpu_hsa_kernel, .amd_kernel_code_t) only
// without the amdhsa OS, and the .amdhsa_* ones only with it: a source gets the triple its
// directives need, amdhsa when it has neither (or, wrongly, both: then the v2 ones are reported).
std::string tripleFor(std::string_view source)
{
    const bool v2 = source.find(".amdgpu_hsa_kernel") != std::string_view::npos
        || source.find(".amd_kernel_code_t") != std::string_view::npos;
    const bool hsa = source.find(".amdhsa_") != std::string_view::npos;
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

// What the streamer saw, in order.
struct Emission {
    enum Kind { Instr, Data, Label, Padding, Placeholder } kind = Instr;
    std::uint64_t sectionOffset = 0;
    int size = 0;
    unsigned bufferId = 0;
    const char* loc = nullptr;           // where the parser stood (statement end)
    std::vector<const char*> expansionLocs; // where the enclosing macro/.rept expansions were instantiated, innermost first
    // instructions
    unsigned opcode = 0;
    std::vector<std::uint8_t> bytes;
    std::string mnemonic, operands;
    Family family = Family::Unknown;
    bool glc = false;
    std::string branchSymbol;
    std::optional<std::int64_t> branchImmediate;
    std::vector<RegRange> defs, uses;
    std::string label; // labels
    int diagnostic = -1; // placeholders: the diagnostic that caused it
    // Kept only when the streamer is asked to (the shape pass reuses the instruction itself).
    std::unique_ptr<llvm::MCInst> mcInst; // out of line: a million Emissions need not carry one each
    const llvm::MCSubtargetInfo* subtarget = nullptr;
};

// Lines whose instructions were encoded from an earlier line of the same shape (see lineShape)
// and replaced, in the text LLVM parses, by one ".skip N" per run of consecutive such lines; the
// streamer puts the instructions back where the skip lands.
struct ShapePlan {
    struct Run {
        std::size_t lineBegin = 0, lineEnd = 0; // offsets in the parsed text of the run's first line
        std::size_t first = 0, count = 0;       // into instructions
    };
    std::vector<Emission> instructions;     // in text order, sectionOffset still to be set
    std::vector<std::size_t> lineOffsets;    // where each instruction's line starts in the parsed text
    std::vector<Run> runs;
    std::size_t nextRun = 0;
    const char* base = nullptr;              // start of the parsed text in LLVM's buffer
};

struct RawDiagnostic {
    Severity severity;
    unsigned bufferId;
    int bufferLine;       // 1-based in its buffer
    int column;
    const char* loc;
    std::string message;
    std::vector<const char*> expansionLocs; // from the "while in macro instantiation" notes that follow
};

// The parser reads a statement's end of line before it emits (alignment) or matches (some
// warnings), so where it stands is the next statement. When `at` starts its line's code (or is the
// end of the text), this is the nearest line above with code on it; otherwise `at` itself.
const char* statementBefore(const llvm::SourceMgr& sources, const char* at)
{
    if (!at)
        return at;
    const unsigned buffer = sources.FindBufferContainingLoc(llvm::SMLoc::getFromPointer(at));
    if (buffer == 0)
        return at;
    const llvm::MemoryBuffer* memory = sources.getMemoryBuffer(buffer);
    const std::string_view text(memory->getBufferStart(), memory->getBufferSize());
    const auto startOfLine = [&](std::size_t offset) {
        const std::size_t newline = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
        return newline == std::string_view::npos ? 0 : newline + 1;
    };
    const auto codeOfLineAt = [&](std::size_t lineStart) {
        const std::size_t end = std::min(text.find('\n', lineStart), text.size());
        return SourceMap::code(text.substr(lineStart, end - lineStart));
    };
    const auto offset = std::size_t(at - text.data());
    std::size_t line = startOfLine(offset);
    const std::string_view code = codeOfLineAt(line);
    const bool atCodeStart = offset >= text.size() || code.empty() || code.data() == text.data() + offset;
    if (!atCodeStart)
        return at;
    while (line > 0) {
        line = startOfLine(line - 1);
        if (!codeOfLineAt(line).empty())
            return text.data() + line;
    }
    return at;
}

class CollectingStreamer final : public llvm::MCStreamer {
public:
    CollectingStreamer(llvm::MCContext& context, TargetKit& kit, const GpuTarget& gpu, llvm::MCCodeEmitter& emitter,
                       llvm::MCInstPrinter& printer)
        : MCStreamer(context), kit_(kit), gpu_(gpu), emitter_(emitter), printer_(printer)
    {
    }

    llvm::MCAsmParser* parser = nullptr;
    llvm::SourceMgr* sources = nullptr;
    std::vector<Emission> emissions;
    std::vector<std::string> functionSymbols;
    std::vector<RawDiagnostic>* diagnostics = nullptr;
    std::vector<const char*>* probeLocs = nullptr; // set while asking the parser where an expansion came from
    bool keepInsts = false;                 // keep each MCInst in its Emission
    ShapePlan* plan = nullptr;

    void changeSection(llvm::MCSection* section, uint32_t subsection) override
    {
        MCStreamer::changeSection(section, subsection);
        const auto* elf = llvm::dyn_cast<llvm::MCSectionELF>(section);
        inText_ = elf && (elf->getFlags() & llvm::ELF::SHF_EXECINSTR);
    }

    void emitInstruction(const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti) override
    {
        if (!inText_) {
            MCStreamer::emitInstruction(inst, sti);
            return;
        }
        Emission e = located(Emission::Instr, inst.getLoc());
        describe(inst, sti, e);
        if (keepInsts) {
            e.mcInst = std::make_unique<llvm::MCInst>(inst);
            e.subtarget = &sti;
        }
        offset_ += e.size;
        emissions.push_back(std::move(e));
    }

    // Encoding, family, printed text and registers of an instruction.
    void describe(const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti, Emission& e)
    {
        e.opcode = inst.getOpcode();
        llvm::SmallVector<char, 16> bytes;
        llvm::SmallVector<llvm::MCFixup, 2> fixups;
        emitter_.encodeInstruction(inst, bytes, fixups, sti);
        e.bytes.assign(bytes.begin(), bytes.end());
        e.size = int(bytes.size());
        const llvm::MCInstrDesc& desc = kit_.instrInfo->get(inst.getOpcode());
        e.family = familyFromFlags(desc.TSFlags, gpu_.generation);
        printInstruction(inst, sti, e);
        collectOperands(inst, desc, e);
    }

    void emitLabel(llvm::MCSymbol* symbol, llvm::SMLoc loc) override
    {
        MCStreamer::emitLabel(symbol, loc);
        if (!inText_)
            return;
        Emission e = located(Emission::Label, loc);
        e.label = symbol->getName().str();
        emissions.push_back(std::move(e));
    }

    bool emitSymbolAttribute(llvm::MCSymbol* symbol, llvm::MCSymbolAttr attribute) override
    {
        if (attribute == llvm::MCSA_ELF_TypeFunction)
            functionSymbols.push_back(symbol->getName().str());
        return true;
    }
    void emitCommonSymbol(llvm::MCSymbol*, uint64_t, llvm::Align) override {}
    void emitZerofill(llvm::MCSection*, llvm::MCSymbol*, uint64_t, llvm::Align, llvm::SMLoc) override {}

    void emitBytes(llvm::StringRef data) override { addData(data.size()); }
    void emitIntValue(uint64_t, unsigned size) override { addData(size); }
    void emitValueImpl(const llvm::MCExpr*, unsigned size, llvm::SMLoc) override { addData(size); }
    void emitFill(const llvm::MCExpr& numBytes, uint64_t, llvm::SMLoc loc) override
    {
        if (plan && placePlannedRun(loc))
            return;
        int64_t count = 0;
        if (numBytes.evaluateAsAbsolute(count) && count > 0)
            addData(std::size_t(count));
    }
    void emitFill(const llvm::MCExpr& numValues, int64_t size, int64_t, llvm::SMLoc) override
    {
        int64_t count = 0;
        if (numValues.evaluateAsAbsolute(count) && count > 0 && size > 0)
            addData(std::size_t(count * size));
    }
    void emitValueToAlignment(llvm::Align alignment, int64_t, unsigned, unsigned maxBytes) override
    {
        pad(alignment, maxBytes);
    }
    void emitCodeAlignment(llvm::Align alignment, const llvm::MCSubtargetInfo*, unsigned maxBytes) override
    {
        pad(alignment, maxBytes);
    }

    // An assembler error on an instruction line: keep the layout stable with a placeholder.
    void addPlaceholder(int diagnosticIndex, unsigned bufferId, const char* loc)
    {
        if (!inText_)
            return;
        Emission e;
        e.kind = Emission::Placeholder;
        e.sectionOffset = offset_;
        e.size = kPlaceholderSize;
        e.bufferId = bufferId;
        e.loc = loc;
        e.diagnostic = diagnosticIndex;
        offset_ += e.size;
        emissions.push_back(std::move(e));
    }

    std::uint64_t offset() const { return offset_; }

private:
    // A ".skip" that stands for a run of shape-encoded lines (ShapePlan): put them back.
    bool placePlannedRun(llvm::SMLoc loc)
    {
        const char* at = loc.isValid() ? loc.getPointer() : parser ? parser->getTok().getLoc().getPointer() : nullptr;
        if (!at || at < plan->base)
            return false;
        const auto offset = std::size_t(at - plan->base);
        while (plan->nextRun < plan->runs.size() && plan->runs[plan->nextRun].lineEnd < offset)
            ++plan->nextRun; // a run the parser never reached (after .end)
        if (plan->nextRun == plan->runs.size() || offset < plan->runs[plan->nextRun].lineBegin)
            return false;    // the source's own .skip/.fill
        const ShapePlan::Run& run = plan->runs[plan->nextRun++];
        for (std::size_t i = run.first; i < run.first + run.count; ++i) {
            Emission& e = plan->instructions[i];
            if (!inText_)
                continue; // instructions outside code sections are not recorded either
            e.kind = Emission::Instr;
            e.sectionOffset = offset_;
            e.bufferId = 1;
            e.loc = plan->base + plan->lineOffsets[i];
            offset_ += e.size;
            emissions.push_back(std::move(e));
        }
        return true;
    }

    // at: the statement's own location when the caller knows it (an MCInst carries its mnemonic's
    // location); otherwise where the parser stands, which is the end of the current statement.
    Emission located(Emission::Kind kind, llvm::SMLoc at = llvm::SMLoc())
    {
        Emission e;
        e.kind = kind;
        e.sectionOffset = offset_;
        const llvm::SMLoc loc = at.isValid() ? at : parser ? parser->getTok().getLoc() : llvm::SMLoc();
        e.loc = loc.getPointer();
        if (sources && loc.isValid()) {
            e.bufferId = sources->FindBufferContainingLoc(loc);
            // Text produced by a macro or .rept has no include location; ask the parser which
            // instantiations are active (its notes name their lines).
            if (e.bufferId > 1 && !sources->getParentIncludeLoc(e.bufferId).isValid() && probeLocs) {
                probeLocs->clear();
                parser->Note(loc, kProbeMessage);
                e.expansionLocs = *probeLocs;
            }
        }
        return e;
    }

    void addData(std::size_t size)
    {
        if (!inText_ || size == 0)
            return;
        // Consecutive data from one statement (".long a, b") becomes one entry per value.
        Emission e = located(Emission::Data);
        e.size = int(size);
        offset_ += size;
        emissions.push_back(std::move(e));
    }

    void pad(llvm::Align alignment, unsigned maxBytes)
    {
        if (!inText_)
            return;
        const std::uint64_t aligned = llvm::alignTo(offset_, alignment);
        const std::uint64_t padding = aligned - offset_;
        if (padding == 0 || (maxBytes && padding > maxBytes))
            return;
        Emission e = located(Emission::Padding);
        if (sources)
            e.loc = statementBefore(*sources, e.loc); // alignment is emitted after the directive's end of line
        e.size = int(padding);
        offset_ = aligned;
        emissions.push_back(std::move(e));
    }


    void printInstruction(const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti, Emission& e)
    {
        std::string key(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size());
        key += std::to_string(inst.getOpcode());
        for (unsigned i = 0; i < inst.getNumOperands(); ++i)
            if (inst.getOperand(i).isExpr()) { // symbolic operands print their symbol, not the bytes
                key.clear();
                break;
            }
        if (!key.empty()) {
            if (const auto it = kit_.printCache.find(key); it != kit_.printCache.end()) {
                e.mnemonic = it->second.mnemonic;
                e.operands = it->second.operands;
                e.glc = it->second.glc;
                return;
            }
        }
        std::string text;
        llvm::raw_string_ostream out(text);
        printer_.printInst(&inst, 0, "", sti, out);
        out.flush();
        std::string_view view(text);
        while (!view.empty() && (view.front() == '\t' || view.front() == ' '))
            view.remove_prefix(1);
        const auto space = view.find_first_of(" \t");
        e.mnemonic = std::string(view.substr(0, space));
        if (space != std::string_view::npos) {
            std::string_view rest = view.substr(space);
            while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t'))
                rest.remove_prefix(1);
            e.operands = std::string(rest);
        }
        // glc is printed as a modifier on GFX6–9 memory instructions.
        e.glc = e.operands.find(" glc") != std::string::npos || e.operands.starts_with("glc");
        if (!key.empty())
            kit_.printCache.emplace(std::move(key), TargetKit::Printed {e.mnemonic, e.operands, e.glc});
    }

    void collectOperands(const llvm::MCInst& inst, const llvm::MCInstrDesc& desc, Emission& e)
    {
        const unsigned numDefs = desc.getNumDefs();
        for (unsigned i = 0; i < inst.getNumOperands(); ++i) {
            const llvm::MCOperand& op = inst.getOperand(i);
            if (op.isReg() && op.getReg()) {
                if (const auto& range = kit_.reg(op.getReg()))
                    (i < numDefs ? e.defs : e.uses).push_back(*range);
            } else if (op.isExpr() && e.branchSymbol.empty()) {
                if (const auto* ref = llvm::dyn_cast<llvm::MCSymbolRefExpr>(op.getExpr()))
                    e.branchSymbol = ref->getSymbol().getName().str();
            } else if (op.isImm() && desc.isBranch() && !e.branchImmediate) {
                e.branchImmediate = op.getImm();
            }
        }
        for (const auto reg : desc.implicit_defs())
            if (const auto& range = kit_.reg(reg))
                e.defs.push_back(*range);
        for (const auto reg : desc.implicit_uses())
            if (const auto& range = kit_.reg(reg))
                e.uses.push_back(*range);
    }

public:
    static constexpr const char* kProbeMessage = "gcnlens: where am I";

private:
    TargetKit& kit_;
    const GpuTarget& gpu_;
    llvm::MCCodeEmitter& emitter_;
    llvm::MCInstPrinter& printer_;
    std::uint64_t offset_ = 0;
    bool inText_ = false;
};

struct DiagnosticContext {
    llvm::SourceMgr* sources = nullptr;
    std::vector<RawDiagnostic>* diagnostics = nullptr;
    std::vector<const char*>* probeLocs = nullptr;
    bool probing = false;
    CollectingStreamer* streamer = nullptr;
    const SourceMap* map = nullptr;
    unsigned lastPlaceholderBuffer = 0;
    int lastPlaceholderLine = -1;
};

// Line (1-based) in the main buffer of a location, following .include chains; 0 if it is inside
// a macro or .rept expansion (those are resolved through the instantiation notes).
int mainLineOf(const llvm::SourceMgr& sources, llvm::SMLoc loc)
{
    if (!loc.isValid())
        return 0;
    unsigned buffer = sources.FindBufferContainingLoc(loc);
    while (buffer > 1) {
        const llvm::SMLoc parent = sources.getParentIncludeLoc(buffer);
        if (!parent.isValid())
            return 0;
        loc = parent;
        buffer = sources.FindBufferContainingLoc(loc);
    }
    return buffer == 1 ? int(sources.FindLineNumber(loc, 1)) : 0;
}

void handleDiagnostic(const llvm::SMDiagnostic& d, void* contextPtr)
{
    auto* context = static_cast<DiagnosticContext*>(contextPtr);
    const llvm::SourceMgr& sources = *context->sources;
    if (d.getKind() == llvm::SourceMgr::DK_Note && d.getMessage() == "while in macro instantiation") {
        if (context->probing) {
            context->probeLocs->push_back(d.getLoc().getPointer());
        } else if (!context->diagnostics->empty()) {
            context->diagnostics->back().expansionLocs.push_back(d.getLoc().getPointer());
        }
        return;
    }
    if (d.getKind() == llvm::SourceMgr::DK_Note && d.getMessage() == CollectingStreamer::kProbeMessage) {
        // Our own question (CollectingStreamer::located): the instantiation notes that follow answer it.
        context->probing = true;
        return;
    }
    context->probing = false;
    // Some warnings come without a location (LLVM 19's inexact 64-bit literal, for one): they
    // belong to the statement the parser is on.
    llvm::SMLoc loc = d.getLoc();
    int bufferLine = d.getLineNo();
    if (!loc.isValid() && context->streamer && context->streamer->parser) {
        loc = llvm::SMLoc::getFromPointer(statementBefore(sources, context->streamer->parser->getTok().getLoc().getPointer()));
        if (loc.isValid())
            bufferLine = int(sources.FindLineNumber(loc, sources.FindBufferContainingLoc(loc)));
    }
    RawDiagnostic raw;
    raw.severity = d.getKind() == llvm::SourceMgr::DK_Error ? Severity::Error
        : d.getKind() == llvm::SourceMgr::DK_Warning        ? Severity::Warning
                                                            : Severity::Note;
    raw.bufferId = loc.isValid() ? sources.FindBufferContainingLoc(loc) : 0;
    raw.bufferLine = bufferLine;
    raw.column = d.getLoc().isValid() ? std::max(0, d.getColumnNo()) : -1; // -1: the statement's start
    raw.loc = loc.getPointer();
    raw.message = d.getMessage().str();
    context->diagnostics->push_back(std::move(raw));

    // An instruction line that failed: reserve room once per statement (program.h).
    if (raw.severity == Severity::Error && loc.isValid()) {
        const RawDiagnostic& stored = context->diagnostics->back();
        const bool sameStatement =
            stored.bufferId == context->lastPlaceholderBuffer && stored.bufferLine == context->lastPlaceholderLine;
        const bool looksLikeInstruction = SourceMap::statementIsInstruction(d.getLineContents().str());
        if (!sameStatement && looksLikeInstruction) {
            context->streamer->addPlaceholder(int(context->diagnostics->size()) - 1, stored.bufferId, stored.loc);
            context->lastPlaceholderBuffer = stored.bufferId;
            context->lastPlaceholderLine = stored.bufferLine;
        }
    }
}

} // namespace


namespace {

std::string optionsKey(const AssembleOptions& options)
{
    std::string key = options.gpu + '\n' + options.fileName + '\n';
    for (const auto& dir : options.includeDirs)
        key += "I" + dir + '\n';
    for (const auto& [name, value] : options.defsyms)
        key += "D" + name + '=' + std::to_string(value) + '\n';
    key += options.reuseShapes ? "shapes\n" : "";
    return key;
}

// Branch targets, and their simm16 now that label offsets are known, for instructions
// [from, to) (a splice that moved nothing re-resolves only the lines it replaced).
void resolveBranches(Program& program, const std::unordered_map<std::string, std::size_t>& labelIndex,
                     std::size_t from = 0, std::size_t to = std::size_t(-1))
{
    to = std::min(to, program.instructions.size());
    for (std::size_t i = from; i < to; ++i) {
        Instruction& inst = program.instructions[i];
        if (inst.branch != BranchKind::Unconditional && inst.branch != BranchKind::Conditional)
            continue;
        if (!inst.targetLabel.empty()) {
            const auto it = labelIndex.find(inst.targetLabel);
            if (it == labelIndex.end())
                continue;
            const Label& label = program.labels[it->second];
            const std::uint64_t kernelBase = inst.sectionOffset - inst.offset;
            inst.targetOffset = label.sectionOffset - kernelBase;
            inst.targetIndex = label.instruction;
            const std::int64_t delta = (std::int64_t(label.sectionOffset) - std::int64_t(inst.sectionOffset + 4)) / 4;
            if (inst.encoding.size() >= 2) {
                inst.encoding[0] = std::uint8_t(delta & 0xff);
                inst.encoding[1] = std::uint8_t((delta >> 8) & 0xff);
            }
        } else if (inst.targetOffset && inst.kernel >= 0) {
            // A raw simm16 (disassembler output): the instruction at that offset in the same
            // kernel, whose instructions are in offset order.
            const Kernel& kernel = program.kernels[std::size_t(inst.kernel)];
            const auto first = program.instructions.begin() + kernel.firstInstruction;
            const auto last = program.instructions.begin() + kernel.endInstruction;
            const std::uint64_t target = *inst.targetOffset;
            const auto at = std::lower_bound(first, last, target,
                                             [](const Instruction& candidate, std::uint64_t offset) { return candidate.offset < offset; });
            inst.targetIndex = at != last && at->offset == target ? int(at - program.instructions.begin()) : -1;
        }
        if (inst.targetOffset)
            inst.backward = *inst.targetOffset <= inst.offset;
    }
}

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
            case RegKind::VGPR: count(vgpr, range, sign); break;
            case RegKind::SGPR: count(sgpr, range, sign); break;
            case RegKind::AGPR: count(agpr, range, sign); break;
            case RegKind::VCC: vcc += sign; break;
            case RegKind::EXEC: exec += sign; break;
            case RegKind::M0: m0 += sign; break;
            case RegKind::SCC: scc += sign; break;
            case RegKind::FlatScratch: flatScratch += sign; break;
            case RegKind::XnackMask: xnackMask += sign; break;
            case RegKind::TTMP: case RegKind::Other: break;
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

// The body lines of .rept/.irp/.irpc directives, in whatever buffer they are written (the main
// file, an include, or the expansion of an enclosing .rept), found once per directive.
class RepeatBodies {
public:
    explicit RepeatBodies(const llvm::SourceMgr& sources) : sources_(sources) {}

    // Start of the body line that produced line `lineInExpansion` (1-based) of the expansion of
    // the directive at `directive`; null when that is not a repetition directive (a macro call).
    const char* lineStart(const char* directive, unsigned lineInExpansion)
    {
        auto it = bodies_.find(directive);
        if (it == bodies_.end())
            it = bodies_.emplace(directive, bodyOf(directive)).first;
        const auto& lines = it->second;
        return lines.empty() || lineInExpansion == 0 ? nullptr : lines[(lineInExpansion - 1) % lines.size()];
    }

private:
    static std::string lowerWord(std::string_view line)
    {
        line = trimmedFront(line);
        std::string word;
        for (const char c : line) {
            if (!isWordChar(c))
                break;
            word += char(std::tolower(static_cast<unsigned char>(c)));
        }
        return word;
    }

    std::vector<const char*> bodyOf(const char* directive) const
    {
        const unsigned buffer = sources_.FindBufferContainingLoc(llvm::SMLoc::getFromPointer(directive));
        if (buffer == 0)
            return {};
        const llvm::MemoryBuffer* memory = sources_.getMemoryBuffer(buffer);
        const std::string_view text(memory->getBufferStart(), memory->getBufferSize());
        const auto repetition = [](const std::string& word) { return word == ".rept" || word == ".irp" || word == ".irpc"; };
        std::size_t at = std::size_t(directive - text.data());
        if (!repetition(lowerWord(text.substr(at))))
            return {};
        // The body runs from the next line to the matching .endr; nested repetitions count.
        std::vector<const char*> lines;
        int depth = 1;
        for (at = text.find('\n', at); at != std::string_view::npos && at + 1 <= text.size(); at = text.find('\n', at)) {
            ++at;
            const std::size_t end = std::min(text.find('\n', at), text.size());
            const std::string word = lowerWord(text.substr(at, end - at));
            if (repetition(word))
                ++depth;
            else if (word == ".endr" && --depth == 0)
                break;
            lines.push_back(text.data() + at);
        }
        return lines;
    }

    const llvm::SourceMgr& sources_;
    std::unordered_map<const char*, std::vector<const char*>> bodies_;
};

// Turns the streamer's emissions into the Program: lines, kernels, labels, branch targets.
void buildProgram(Program& program, std::vector<Emission>& emissions, const std::vector<RawDiagnostic>& rawDiagnostics,
                  const std::vector<std::string>& functionSymbols, const SourceMap& map, const llvm::SourceMgr& sources)
{
    // Line of a statement: out of each enclosing expansion, innermost first, to where it came
    // from: a .rept/.irp body line for repetitions (nested ones too), the invoking line for macros.
    RepeatBodies bodies(sources);
    const auto lineOf = [&](unsigned bufferId, const char* loc, const std::vector<const char*>& expansionLocs,
                            bool& fromExpansion) -> int {
        fromExpansion = bufferId > 1;
        const char* at = loc;
        for (const char* instantiation : expansionLocs) {
            if (!at || !instantiation)
                return 0;
            const llvm::SMLoc where = llvm::SMLoc::getFromPointer(at);
            const unsigned lineInExpansion = sources.FindLineNumber(where, sources.FindBufferContainingLoc(where));
            const char* body = bodies.lineStart(instantiation, lineInExpansion);
            at = body ? body : instantiation;
        }
        return at ? mainLineOf(sources, llvm::SMLoc::getFromPointer(at)) : 0;
    };

    // Diagnostics first: placeholders refer to them.
    for (const auto& raw : rawDiagnostics) {
        Diagnostic d;
        d.severity = raw.severity;
        bool fromExpansion = false;
        d.line = lineOf(raw.bufferId, raw.loc, raw.expansionLocs, fromExpansion);
        d.column = fromExpansion || raw.column < 0 ? map.firstColumn(d.line) : raw.column;
        d.message = raw.message;
        if (fromExpansion) {
            const auto* buffer = raw.bufferId ? sources.getMemoryBuffer(raw.bufferId) : nullptr;
            const std::string name = buffer ? buffer->getBufferIdentifier().str() : std::string();
            d.origin = (name == "<instantiation>" ? std::string("expansion") : name) + ":" + std::to_string(raw.bufferLine);
        }
        program.diagnostics.push_back(std::move(d));
    }

    // Kernel entries: .type @function symbols, .amdhsa_kernel / .amdgpu_hsa_kernel / CLRX .kernel names.
    std::vector<std::string> kernelNames = functionSymbols;
    for (const auto& name : map.kernelNames())
        if (std::find(kernelNames.begin(), kernelNames.end(), name) == kernelNames.end())
            kernelNames.push_back(name);

    std::unordered_map<std::string, std::size_t> labelIndex;
    std::uint64_t kernelStart = 0;
    int currentKernel = -1;
    std::vector<std::pair<std::string, int>> pendingLabels; // labels waiting for their instruction

    const auto startKernel = [&](const std::string& name, std::uint64_t at, int line) {
        if (currentKernel >= 0)
            program.kernels[std::size_t(currentKernel)].endInstruction = int(program.instructions.size());
        Kernel kernel;
        kernel.name = name;
        kernel.firstInstruction = int(program.instructions.size());
        kernel.sectionOffset = at;
        kernel.line = line;
        program.kernels.push_back(kernel);
        currentKernel = int(program.kernels.size()) - 1;
        kernelStart = at;
    };

    std::vector<std::pair<int, int>> byLine; // (line, instruction)
    byLine.reserve(emissions.size());
    for (auto& e : emissions) {
        bool fromExpansion = false;
        const int line = e.kind == Emission::Placeholder
            ? program.diagnostics[std::size_t(e.diagnostic)].line
            : lineOf(e.bufferId, e.loc, e.expansionLocs, fromExpansion);
        if (e.kind == Emission::Label) {
            const bool isKernel = std::find(kernelNames.begin(), kernelNames.end(), e.label) != kernelNames.end();
            if (isKernel || (currentKernel < 0 && program.instructions.empty() && kernelNames.empty()))
                startKernel(e.label, e.sectionOffset, line);
            Label label;
            label.name = e.label;
            label.sectionOffset = e.sectionOffset;
            label.offset = e.sectionOffset - kernelStart;
            label.line = line;
            label.instruction = int(program.instructions.size()); // fixed below if nothing follows
            labelIndex[label.name] = program.labels.size();
            program.labels.push_back(std::move(label));
            continue;
        }
        if (currentKernel < 0)
            startKernel(kernelNames.empty() ? std::string("(top)") : std::string("(before first kernel)"), 0, line);
        Instruction inst;
        inst.line = line;
        inst.fromExpansion = fromExpansion;
        const auto span = map.statementSpan(line);
        inst.columnBegin = span.first;
        inst.columnEnd = span.second;
        inst.sectionOffset = e.sectionOffset;
        inst.offset = e.sectionOffset - kernelStart;
        inst.size = e.size;
        inst.kernel = currentKernel;
        switch (e.kind) {
        case Emission::Instr:
            inst.encoding = std::move(e.bytes);
            inst.mnemonic = std::move(e.mnemonic);
            inst.operands = std::move(e.operands);
            inst.family = e.family;
            inst.hasLiteral = e.size > nativeSize(e.family);
            inst.glc = e.glc;
            inst.defs = std::move(e.defs);
            inst.uses = std::move(e.uses);
            inst.branch = branchKind(inst.mnemonic);
            inst.targetLabel = e.branchSymbol;
            if (inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional) {
                if (e.branchImmediate && e.branchSymbol.empty()) // raw simm16: target = pc + 4 + 4·simm
                    inst.targetOffset = inst.offset + 4 + std::uint64_t(std::int64_t(std::int16_t(*e.branchImmediate)) * 4);
            }
            break;
        case Emission::Data:
            inst.isData = true;
            inst.family = Family::Data;
            inst.mnemonic = ".data";
            inst.operands = std::to_string(e.size) + " bytes";
            break;
        case Emission::Padding:
            inst.isData = true;
            inst.family = Family::Data;
            inst.mnemonic = ".align";
            inst.operands = std::to_string(e.size) + " bytes of padding";
            break;
        case Emission::Placeholder:
            inst.placeholder = true;
            inst.mnemonic = "(error)";
            inst.operands = "assumed " + std::to_string(e.size) + " bytes";
            break;
        case Emission::Label:
            break;
        }
        byLine.emplace_back(inst.line, int(program.instructions.size()));
        program.instructions.push_back(std::move(inst));
    }
    program.lineToInstructions.assign(std::move(byLine));
    if (currentKernel >= 0)
        program.kernels[std::size_t(currentKernel)].endInstruction = int(program.instructions.size());
    for (auto& label : program.labels)
        if (label.instruction >= int(program.instructions.size()))
            label.instruction = -1;

    resolveBranches(program, labelIndex);
    RegisterTally registers;
    registers.rebuild(program);
    registers.store(program);

    // Resource directives found by the source map, attached to the kernel they name or precede.
    for (const auto& directive : map.resourceDirectives()) {
        ResourceDirective d = directive;
        d.kernel = -1;
        for (std::size_t k = 0; k < program.kernels.size(); ++k)
            if (!directive.name.empty() && program.kernels[k].name == map.kernelForLine(directive.line))
                d.kernel = int(k);
        if (d.kernel < 0 && program.kernels.size() == 1)
            d.kernel = 0;
        program.directives.push_back(std::move(d));
    }
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }

// Calls f(word) for each word of a text, in order, until f returns false.
template <typename F>
void forEachWord(std::string_view text, F&& f)
{
    std::size_t i = 0;
    while (i < text.size()) {
        if (!isWordChar(text[i])) {
            ++i;
            continue;
        }
        const std::size_t begin = i;
        while (i < text.size() && isWordChar(text[i]))
            ++i;
        if (!f(text.substr(begin, i - begin)))
            return;
    }
}

// Which lines an edit may touch without re-running the whole assembler: plain instruction,
// blank or comment lines outside macro, .rept/.irp and .if regions, with no label, no directive,
// no assignment and no macro invocation. Anything else changes context for later lines.
struct LineScan {
    std::vector<bool> plain;
    int lastBarrier = -1; // last line (0-based) with alignment, .org, .include or a macro call,
                          // whose output depends on the offsets before it
    std::vector<std::string> macroNames;
    std::vector<std::string> assignedSymbols;
    std::vector<std::string> labels;
    bool includes = false;          // .include/.incbin: text the scan does not see
    bool computedNames = false;     // an assignment whose name is built by a macro (\name)
    bool kernelScopeSymbols = false; // .kernel.vgpr_count & co., which count registers as they are parsed
};

// One set of comment rules for the scan and the source map (SourceMap::code).
std::string_view codeOf(std::string_view line) { return SourceMap::code(line); }

std::string_view trimmedFront(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    return text;
}

LineScan scanLines(const std::vector<std::string_view>& lines)
{
    LineScan scan;
    scan.plain.resize(lines.size(), false);
    int macroDepth = 0, repeatDepth = 0, conditionalDepth = 0;
    // A symbol assigned under a name a macro builds (".set \\name, 1") is not known by name. (A
    // label's name does not matter: the shape pass never reuses a line that refers to a symbol.)
    const auto addName = [&](std::vector<std::string>& list, std::string_view name) {
        if (&list == &scan.assignedSymbols && (name.find('\\') != std::string_view::npos || name.find('%') != std::string_view::npos))
            scan.computedNames = true;
        list.emplace_back(name);
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view code = codeOf(lines[i]);
        // The first word runs to a blank, comma or colon; names may carry a macro's "\" argument.
        std::string_view first, second;
        {
            std::size_t end = 0;
            while (end < code.size() && !std::isspace(static_cast<unsigned char>(code[end])) && code[end] != ','
                   && code[end] != ':' && code[end] != '=')
                ++end;
            first = code.substr(0, end);
            const std::string_view rest = trimmedFront(code.substr(end));
            std::size_t secondEnd = 0;
            while (secondEnd < rest.size() && !std::isspace(static_cast<unsigned char>(rest[secondEnd]))
                   && rest[secondEnd] != ',' && rest[secondEnd] != '=')
                ++secondEnd;
            second = rest.substr(0, secondEnd);
        }
        bool plain = macroDepth == 0 && repeatDepth == 0 && conditionalDepth == 0;
        if (first == ".macro") {
            if (!second.empty())
                scan.macroNames.emplace_back(second);
            ++macroDepth;
        } else if (first == ".endm" || first == ".endmacro") {
            macroDepth = std::max(0, macroDepth - 1);
        } else if (first == ".rept" || first == ".irp" || first == ".irpc") {
            ++repeatDepth;
        } else if (first == ".endr") {
            repeatDepth = std::max(0, repeatDepth - 1);
        } else if (first.starts_with(".if")) {
            ++conditionalDepth;
        } else if (first == ".endif") {
            conditionalDepth = std::max(0, conditionalDepth - 1);
        }
        static constexpr std::string_view barriers[] = {".align", ".p2align", ".balign", ".p2alignw", ".p2alignl",
                                                        ".balignw", ".balignl", ".org", ".include", ".incbin"};
        if (std::find(std::begin(barriers), std::end(barriers), first) != std::end(barriers))
            scan.lastBarrier = std::max(scan.lastBarrier, int(i));
        if (first == ".include" || first == ".incbin")
            scan.includes = true;
        if ((first == ".set" || first == ".equ" || first == ".equiv" || first == ".eqv") && !second.empty())
            addName(scan.assignedSymbols, second);
        const std::string_view afterFirst = trimmedFront(code.substr(first.size()));
        const bool assignment = !first.empty() && afterFirst.starts_with("=") && !afterFirst.starts_with("==");
        if (assignment)
            addName(scan.assignedSymbols, first);
        const bool label = !first.empty() && afterFirst.starts_with(":");
        if (label)
            addName(scan.labels, first);
        if (code.find(".kernel.") != std::string_view::npos)
            scan.kernelScopeSymbols = true;
        // A directive, a label (also CLRX "name:") or an assignment changes what follows.
        if (!code.empty() && (code.front() == '.' || label || assignment || code.find('=') != std::string_view::npos))
            plain = false;
        scan.plain[i] = plain;
    }
    if (!scan.macroNames.empty())
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (!scan.plain[i])
                continue;
            bool invocation = false;
            forEachWord(codeOf(lines[i]), [&](std::string_view word) {
                invocation = std::find(scan.macroNames.begin(), scan.macroNames.end(), word) != scan.macroNames.end();
                return false; // the first word only
            });
            if (invocation) {
                scan.plain[i] = false;
                scan.lastBarrier = std::max(scan.lastBarrier, int(i));
            }
        }
    return scan;
}

bool mentionsAny(std::string_view line, const std::vector<std::string>& names)
{
    bool found = false;
    if (!names.empty())
        forEachWord(codeOf(line), [&](std::string_view word) {
            found = std::find(names.begin(), names.end(), word) != names.end();
            return !found;
        });
    return found;
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (true) {
        const auto end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            return lines;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
}

// A register operand written as a plain register: v5, s[8:11], a[0:3], v[7].
struct RegToken {
    RegKind kind = RegKind::VGPR;
    int first = 0, count = 1;
};

// Parses a plain register at code[at]; false when there is none (or one LLVM would reject for
// its index, which must then go through the assembler for its diagnostic).
bool parseRegisterToken(std::string_view code, std::size_t at, RegToken& token, std::size_t& end)
{
    const char prefix = code[at];
    token.kind = prefix == 'v' ? RegKind::VGPR : prefix == 's' ? RegKind::SGPR : RegKind::AGPR;
    if ((prefix != 'v' && prefix != 's' && prefix != 'a') || (at > 0 && isWordChar(code[at - 1])))
        return false;
    const auto number = [&](std::size_t& i, int& value) {
        const std::size_t begin = i;
        while (i < code.size() && std::isdigit(static_cast<unsigned char>(code[i])))
            ++i;
        if (i == begin || i - begin > 3 || (code[begin] == '0' && i - begin > 1))
            return false; // no digits, or a spelling (v007) a shape must not hide
        std::from_chars(code.data() + begin, code.data() + i, value);
        return true;
    };
    std::size_t i = at + 1;
    int first = 0, last = 0;
    if (i < code.size() && code[i] == '[') {
        ++i;
        if (!number(i, first))
            return false;
        last = first;
        if (i < code.size() && code[i] == ':') {
            ++i;
            if (!number(i, last))
                return false;
        }
        if (i >= code.size() || code[i] != ']')
            return false;
        ++i;
    } else {
        if (!number(i, first))
            return false;
        last = first;
        if (i < code.size() && isWordChar(code[i]))
            return false; // v1e5, s0x…: not a register
    }
    // Indices every GCN target accepts (VGPR/AGPR 0-255, SGPR 0-101): anything else goes to LLVM.
    const int limit = token.kind == RegKind::SGPR ? 101 : 255;
    if (last < first || last > limit)
        return false;
    token.first = first;
    token.count = last - first + 1;
    end = i;
    return true;
}

// The shape of an instruction line: its text with each plain register replaced by its kind, its
// width, its alignment (SGPR tuples, GFX90A VGPRs) and how it overlaps the registers
// before it (the constant-bus limit counts distinct SGPRs). Lines of one shape differ only in
// register numbers, which the encoder puts into fixed fields; everything the assembler decides
// from the text (encoding, VOP3 promotion, literal, size, errors) depends only on the shape.
// False when the line mentions a name the source defines (its value may change between lines).
bool lineShape(std::string_view code, const std::unordered_set<std::string_view>& definedNames, std::string& key,
               std::vector<RegToken>& tokens)
{
    key.clear();
    tokens.clear();
    std::size_t i = 0;
    while (i < code.size()) {
        const char c = code[i];
        if (c == '"' || c == '\\')
            return false;
        RegToken token;
        std::size_t end = 0;
        if (parseRegisterToken(code, i, token, end)) {
            key += '\x01';
            key += code[i];
            key += std::to_string(token.count);
            // Alignment: tuples start at a multiple of 2 or 4; GFX90A wants even single VGPRs in places (ds_gws_*).
            key += char('0' + token.first % (token.count > 1 ? 4 : 2));
            for (std::size_t j = 0; j < tokens.size(); ++j) {
                const RegToken& other = tokens[j];
                if (other.kind != token.kind || other.first + other.count <= token.first
                    || token.first + token.count <= other.first)
                    continue;
                const bool same = other.first == token.first && other.count == token.count;
                key += same ? '=' : '~';
                key += std::to_string(j);
            }
            key += '\x02';
            tokens.push_back(token);
            i = end;
            continue;
        }
        if (!isWordChar(c)) {
            key += c;
            ++i;
            continue;
        }
        std::size_t wordEnd = i;
        while (wordEnd < code.size() && isWordChar(code[wordEnd]))
            ++wordEnd;
        const std::string_view word = code.substr(i, wordEnd - i);
        if (definedNames.contains(word))
            return false;
        key.append(word);
        i = wordEnd;
    }
    return true;
}

// One run of LLVM's assembler over a text into a CollectingStreamer. Everything LLVM needs lives
// as long as the session, so the emissions' source locations stay valid.
class AssemblerSession {
public:
    AssemblerSession(TargetKit& kit, const GpuTarget& gpu, const AssembleOptions& options, std::string_view text,
                     const std::string& bufferName)
        : context_(kit.triple, kit.asmInfo.get(), kit.registerInfo.get(), kit.subtargetInfo.get(), &sources, &kit.targetOptions)
    {
        sources.setIncludeDirs(options.includeDirs);
        sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
        objectFileInfo_.reset(kit.target->createMCObjectFileInfo(context_, false));
        context_.setObjectFileInfo(objectFileInfo_.get());
        emitter_.reset(kit.target->createMCCodeEmitter(*kit.instrInfo, context_));
        printer_.reset(kit.target->createMCInstPrinter(kit.triple, 0, *kit.asmInfo, *kit.instrInfo, *kit.registerInfo));
        if (!emitter_ || !printer_) {
            error = "LLVM could not create the AMDGPU encoder";
            return;
        }
        streamer = std::make_unique<CollectingStreamer>(context_, kit, gpu, *emitter_, *printer_);
        streamer->emissions.reserve(countNewlines(text) + 1); // about one per line: no regrowth of big entries
        kit.target->createNullTargetStreamer(*streamer);

        diagnosticContext_.sources = &sources;
        diagnosticContext_.diagnostics = &diagnostics;
        diagnosticContext_.probeLocs = &probeLocs_;
        diagnosticContext_.streamer = streamer.get();
        sources.setDiagHandler(handleDiagnostic, &diagnosticContext_);
        context_.setDiagnosticHandler([this](const llvm::SMDiagnostic& d, bool, const llvm::SourceMgr&,
                                             std::vector<const llvm::MDNode*>&) { handleDiagnostic(d, &diagnosticContext_); });

        parser_.reset(llvm::createMCAsmParser(sources, context_, *streamer, *kit.asmInfo));
        targetParser_.reset(kit.target->createMCAsmParser(*kit.subtargetInfo, *parser_, *kit.instrInfo, kit.targetOptions));
        if (!targetParser_) {
            error = "LLVM could not create the AMDGPU assembler";
            return;
        }
        parser_->setTargetParser(*targetParser_);
        streamer->parser = parser_.get();
        streamer->sources = &sources;
        streamer->diagnostics = &diagnostics;
        streamer->probeLocs = &probeLocs_;
        for (const auto& [name, value] : options.defsyms) {
            llvm::MCSymbol* symbol = context_.getOrCreateSymbol(name);
            symbol->setVariableValue(llvm::MCConstantExpr::create(value, context_));
        }
    }

    void run() { parser_->Run(/*NoInitialTextSection=*/false); }
    const char* textStart() const { return sources.getMemoryBuffer(1)->getBufferStart(); }

    llvm::SourceMgr sources; // first: the context refers to it
    std::string error;       // set when LLVM could not be set up; nothing else is usable then
    std::unique_ptr<CollectingStreamer> streamer;
    std::vector<RawDiagnostic> diagnostics;

private:
    llvm::MCContext context_;
    std::unique_ptr<llvm::MCObjectFileInfo> objectFileInfo_;
    std::unique_ptr<llvm::MCCodeEmitter> emitter_;
    std::unique_ptr<llvm::MCInstPrinter> printer_;
    std::vector<const char*> probeLocs_;
    DiagnosticContext diagnosticContext_;
    std::unique_ptr<llvm::MCAsmParser> parser_;
    std::unique_ptr<llvm::MCTargetAsmParser> targetParser_;
};

// Below this many instruction lines the shape pass costs more than it saves.
constexpr std::size_t kShapePassMinimumLines = 48;

// The shape pass (issue #2's hint): an instruction's encoding depends on its shape, not on its
// register numbers, so each shape is assembled once, in a separate run of LLVM over one line
// per shape, and every line of that shape is encoded by the real encoder from that MCInst with
// its own registers put in. Lines it cannot vouch for (outside plain code, naming a symbol,
// a shape that drew any diagnostic or came out with a symbolic operand) stay with the assembler.
// Returns the text for the main run, with the planned lines replaced (see ShapePlan).
std::string planShapes(TargetKit& kit, const GpuTarget& gpu, std::string_view text, const LineScan& scan,
                       const AssembleOptions& options, ShapePlan& plan)
{
    plan = ShapePlan {};
    if (scan.includes || scan.computedNames || scan.kernelScopeSymbols)
        return {};
    std::unordered_set<std::string_view> definedNames;
    for (const auto* list : {&scan.macroNames, &scan.assignedSymbols, &scan.labels})
        for (const auto& name : *list)
            definedNames.insert(name);
    for (const auto& defsym : options.defsyms)
        definedNames.insert(defsym.first);

    struct Candidate {
        std::size_t line;
        int shape;
        std::vector<RegToken> tokens;
    };
    struct Shape {
        std::string_view code;      // of its first line
        std::size_t firstCandidate; // that line, whose registers the template run saw
        std::unique_ptr<llvm::MCInst> inst;
        const llvm::MCSubtargetInfo* subtarget = nullptr;
        struct Slot { unsigned operand; std::size_t token; int count; };
        std::vector<Slot> slots; // register operands that come from the line's own registers
        bool usable = false;
    };
    const std::vector<std::string_view> lines = splitLines(text);
    if (lines.size() != scan.plain.size())
        return {};
    std::vector<Candidate> candidates;
    std::vector<Shape> shapes;
    std::unordered_map<std::string, int> shapeIndex;
    std::string key;
    std::vector<RegToken> tokens;
    for (std::size_t l = 0; l < lines.size(); ++l) {
        if (!scan.plain[l])
            continue;
        const std::string_view code = codeOf(lines[l]);
        if (code.empty() || !SourceMap::statementIsInstruction(code) || !lineShape(code, definedNames, key, tokens))
            continue;
        auto [it, added] = shapeIndex.try_emplace(key, int(shapes.size()));
        if (added)
            shapes.push_back(Shape {code, candidates.size(), nullptr, nullptr, {}, false});
        candidates.push_back(Candidate {l, it->second, tokens});
    }
    // (Even when every shape is new the pass costs little: each line is parsed once, in the
    // shape run, and the main run parses a .skip in its place.)
    if (candidates.size() < kShapePassMinimumLines)
        return {};

    // One line per shape, assembled on its own.
    std::string templates = ".text\n";
    for (const auto& shape : shapes) {
        templates.append(shape.code);
        templates += '\n';
    }
    AssemblerSession session(kit, gpu, options, templates, "<shapes>");
    if (!session.error.empty())
        return {};
    session.streamer->keepInsts = true;
    session.run();
    std::vector<int> emitted(shapes.size(), 0);
    std::vector<bool> diagnosed(shapes.size(), false);
    for (const auto& d : session.diagnostics) {
        if (d.bufferId != 1 || d.bufferLine < 2 || std::size_t(d.bufferLine - 2) >= shapes.size())
            return {}; // a diagnostic the pass cannot pin to one shape: leave everything to the assembler
        diagnosed[std::size_t(d.bufferLine - 2)] = true;
    }
    for (auto& e : session.streamer->emissions) {
        if (e.kind != Emission::Instr || e.bufferId != 1 || !e.mcInst)
            continue;
        const auto line = session.sources.FindLineNumber(llvm::SMLoc::getFromPointer(e.loc), 1);
        if (line < 2 || line - 2 >= shapes.size())
            continue;
        Shape& shape = shapes[line - 2];
        if (++emitted[line - 2] == 1) {
            shape.inst = std::move(e.mcInst);
            shape.subtarget = e.subtarget;
        }
    }
    // Which operands carry the line's registers: matched by register, through the template's own
    // tokens (its first line). Any register LLVM made that is not one of them, and is not fixed
    // text (vcc, exec, ttmp…), means the shape is not understood: it stays with the assembler.
    for (std::size_t s = 0; s < shapes.size(); ++s) {
        Shape& shape = shapes[s];
        if (!shape.inst || emitted[s] != 1 || diagnosed[s])
            continue;
        const std::vector<RegToken>& own = candidates[shape.firstCandidate].tokens;
        bool usable = true;
        std::vector<bool> used(own.size(), false);
        for (unsigned i = 0; i < shape.inst->getNumOperands() && usable; ++i) {
            const llvm::MCOperand& op = shape.inst->getOperand(i);
            if (op.isExpr() || op.isInst()) {
                usable = false;
            } else if (op.isReg() && op.getReg()) {
                const auto& range = kit.reg(op.getReg());
                if (!range || (range->kind != RegKind::VGPR && range->kind != RegKind::SGPR && range->kind != RegKind::AGPR))
                    continue; // fixed text: the same register in every line of the shape
                const auto match = std::find_if(own.begin(), own.end(), [&](const RegToken& t) {
                    return t.kind == range->kind && t.first == range->first && t.count == range->count;
                });
                usable = match != own.end() && kit.registerNamed(range->kind, range->first, range->count) == op.getReg();
                if (usable)
                    shape.slots.push_back({i, std::size_t(match - own.begin()), range->count});
                for (std::size_t t = 0; t < own.size(); ++t)
                    used[t] = used[t] || (own[t].kind == range->kind && own[t].first == range->first && own[t].count == range->count);
            }
        }
        // And the other way round: each register-looking word must be an operand. (In
        // "image_load … a16", a16 is a flag; with a17 there the line is an error.)
        shape.usable = usable && std::all_of(used.begin(), used.end(), [](bool u) { return u; });
    }

    // Encode every line of a usable shape, and write the text LLVM parses instead.
    std::vector<std::size_t> lineStarts(lines.size());
    for (std::size_t l = 0, offset = 0; l < lines.size(); offset += lines[l].size() + 1, ++l)
        lineStarts[l] = offset;
    std::vector<std::int64_t> plannedSize(lines.size(), -1);
    plan.instructions.reserve(candidates.size());
    plan.lineOffsets.reserve(candidates.size());
    for (auto& candidate : candidates) {
        const Shape& shape = shapes[std::size_t(candidate.shape)];
        if (!shape.usable)
            continue;
        llvm::MCInst inst = *shape.inst;
        bool ok = true;
        for (const auto& slot : shape.slots) {
            const RegToken& token = candidate.tokens[slot.token];
            const unsigned reg = kit.registerNamed(token.kind, token.first, slot.count);
            ok = ok && reg != 0;
            if (ok)
                inst.getOperand(slot.operand).setReg(reg);
        }
        if (!ok)
            continue;
        Emission e;
        session.streamer->describe(inst, *shape.subtarget, e);
        plannedSize[candidate.line] = e.size;
        plan.instructions.push_back(std::move(e));
        plan.lineOffsets.push_back(candidate.line);
    }
    if (plan.instructions.empty())
        return {};

    std::string parsed;
    parsed.reserve(text.size());
    std::size_t next = 0; // into plan.instructions
    for (std::size_t l = 0; l < lines.size(); ++l) {
        if (l > 0)
            parsed += '\n';
        if (plannedSize[l] < 0) {
            parsed.append(lines[l]);
            continue;
        }
        ShapePlan::Run run;
        run.first = next;
        std::int64_t bytes = 0;
        std::size_t end = l;
        while (end < lines.size() && plannedSize[end] >= 0) {
            bytes += plannedSize[end];
            ++end;
        }
        run.count = end - l;
        // The run's first line says ".skip <its bytes>"; its other lines are left empty.
        run.lineBegin = parsed.size();
        plan.lineOffsets[next++] = parsed.size();
        parsed += ".skip " + std::to_string(bytes);
        run.lineEnd = parsed.size();
        for (std::size_t k = l + 1; k < end; ++k) {
            parsed += '\n';
            plan.lineOffsets[next++] = parsed.size();
        }
        plan.runs.push_back(run);
        l = end - 1;
    }
    return parsed;
}

// whole: the text is the user's whole source (not a region the incremental path re-assembles).
Program assembleWith(TargetKit& kit, const GpuTarget& gpu, std::string_view source, const AssembleOptions& options,
                     bool whole, const LineScan* scan = nullptr)
{
    Program program;
    program.gpu = gpu;

    SourceMap map(source);
    for (const auto& note : map.notes())
        program.diagnostics.push_back(note);

    // The text LLVM sees: CLRX-only directives blanked (same length, so columns and lines hold),
    // and lines the shape pass encoded replaced by skips of their size.
    std::string_view text = map.assemblerText();
    ShapePlan plan;
    std::string planned;
    if (options.reuseShapes && countNewlines(text) >= kShapePassMinimumLines) {
        LineScan ownScan;
        if (!scan) {
            ownScan = scanLines(splitLines(source));
            scan = &ownScan;
        }
        planned = planShapes(kit, gpu, text, *scan, options, plan);
        if (!plan.runs.empty())
            text = planned;
    }

    AssemblerSession session(kit, gpu, options, text, options.fileName);
    if (!session.error.empty()) {
        program.diagnostics.push_back({Severity::Error, 0, 0, session.error, {}});
        return program;
    }
    if (!plan.runs.empty()) {
        plan.base = session.textStart();
        session.streamer->plan = &plan;
        program.shapeReused = int(plan.instructions.size());
    }
    session.run();
    buildProgram(program, session.streamer->emissions, session.diagnostics, session.streamer->functionSymbols, map,
                 session.sources);
    if (whole && program.instructions.empty() && !program.hasErrors())
        program.diagnostics.push_back({Severity::Warning, 1, 0,
                                       "nothing to analyse: the text has no instructions (it is empty, or only comments "
                                       "and directives)", {}});
    return program;
}

} // namespace

namespace {

// The edit between two texts as whole lines: prefixLines equal lines, then oldCount lines that
// became newCount lines, then equal lines to the end. Found with memcmp over the texts, so an edit
// costs a comparison of the bytes, not a split of both texts into lines.
struct LineEdit {
    bool identical = false;
    int prefixLines = 0, oldCount = 0, newCount = 0;
    std::string_view oldText, newText; // the changed lines, without the newline after the last
};

std::size_t commonPrefix(std::string_view a, std::string_view b)
{
    const std::size_t n = std::min(a.size(), b.size());
    constexpr std::size_t block = 4096;
    std::size_t i = 0;
    while (i + block <= n && std::memcmp(a.data() + i, b.data() + i, block) == 0)
        i += block;
    while (i < n && a[i] == b[i])
        ++i;
    return i;
}

std::size_t commonSuffix(std::string_view a, std::string_view b, std::size_t limit)
{
    constexpr std::size_t block = 4096;
    std::size_t s = 0;
    while (s + block <= limit && std::memcmp(a.data() + a.size() - s - block, b.data() + b.size() - s - block, block) == 0)
        s += block;
    while (s < limit && a[a.size() - 1 - s] == b[b.size() - 1 - s])
        ++s;
    return s;
}

// Newlines in a text, eight bytes at a time (an exact count of zero bytes of x ^ '\n'…).
std::size_t countNewlines(std::string_view text)
{
    constexpr std::uint64_t newlines = 0x0a0a0a0a0a0a0a0aull, low7 = 0x7f7f7f7f7f7f7f7full;
    std::size_t count = 0, i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        const std::uint64_t x = word ^ newlines;
        const std::uint64_t zeroBytes = ~(((x & low7) + low7) | x | low7);
        count += std::size_t(__builtin_popcountll(zeroBytes));
    }
    for (; i < text.size(); ++i)
        count += text[i] == '\n';
    return count;
}

LineEdit diffLines(std::string_view before, std::string_view after)
{
    LineEdit edit;
    const std::size_t p = commonPrefix(before, after);
    if (p == before.size() && p == after.size()) {
        edit.identical = true;
        return edit;
    }
    const std::size_t newline = p == 0 ? std::string_view::npos : before.rfind('\n', p - 1);
    const std::size_t lineStart = newline == std::string_view::npos ? 0 : newline + 1;
    edit.prefixLines = int(countNewlines(before.substr(0, lineStart)));
    // The common tail may not reach back into the equal lines at the front.
    const std::size_t s = commonSuffix(before, after, std::min(before.size(), after.size()) - lineStart);
    const std::size_t tailOld = before.size() - s, tailNew = after.size() - s;
    const auto startsLine = [](std::string_view text, std::size_t at) { return at == 0 || text[at - 1] == '\n'; };
    // The first line that lies wholly in the common tail, in both texts.
    std::size_t equalFrom = std::string_view::npos;
    if (startsLine(before, tailOld) && startsLine(after, tailNew)) {
        equalFrom = tailOld;
    } else if (const auto n = before.find('\n', tailOld); n != std::string_view::npos) {
        equalFrom = n + 1;
    }
    std::size_t oldEnd = before.size(), newEnd = after.size();
    bool oldEmpty = false, newEmpty = false;
    if (equalFrom != std::string_view::npos) {
        const std::size_t equalFromNew = equalFrom + after.size() - before.size();
        oldEmpty = equalFrom == lineStart;
        newEmpty = equalFromNew == lineStart;
        oldEnd = oldEmpty ? lineStart : equalFrom - 1;
        newEnd = newEmpty ? lineStart : equalFromNew - 1;
    }
    edit.oldText = before.substr(lineStart, oldEnd - lineStart);
    edit.newText = after.substr(lineStart, newEnd - lineStart);
    edit.oldCount = oldEmpty ? 0 : int(countNewlines(edit.oldText)) + 1;
    edit.newCount = newEmpty ? 0 : int(countNewlines(edit.newText)) + 1;
    return edit;
}

// Splices the re-assembled lines [first, first + newCount) into the previous program, which had
// [first, first + oldCount) there. Returns false, having changed nothing, when the edit needs a
// full run after all. Work is proportional to the edit, plus one pass over later instructions
// when the edit moves them (a different size or line count).
bool splice(Program& program, Program& mini, int first, int oldCount, int newCount,
            const std::vector<std::string_view>& newLines, bool layoutBarrierAfter, RegisterTally& registers)
{
    auto& insts = program.instructions;
    auto& byLine = program.lineToInstructions;
    const int lastOld = first + oldCount - 1; // 1-based lines
    // The instructions of the old lines: one contiguous run.
    std::size_t begin = insts.size(), end = 0, onLines = 0;
    for (auto it = byLine.lowerBound(first); it != byLine.end() && it->first <= lastOld; ++it)
        for (const int index : it->second) {
            begin = std::min(begin, std::size_t(index));
            end = std::max(end, std::size_t(index) + 1);
            ++onLines;
        }
    if (onLines == 0) {
        // Nothing was emitted from the old lines: insert before the first instruction after them.
        const auto next = byLine.lowerBound(lastOld + 1);
        begin = end = next == byLine.end() ? insts.size() : std::size_t(next->second.front());
    } else if (onLines != end - begin) {
        return false; // not contiguous
    }
    // Lines and instructions must agree in order around the edit (they do outside .rept bodies).
    if ((begin > 0 && insts[begin - 1].line >= first) || (end < insts.size() && insts[end].line <= lastOld))
        return false;

    const std::uint64_t at = begin < insts.size() ? insts[begin].sectionOffset
        : insts.empty()                          ? 0
                                                 : insts.back().sectionOffset + std::uint64_t(insts.back().size);
    std::uint64_t oldBytes = 0;
    for (std::size_t i = begin; i < end; ++i)
        oldBytes += std::uint64_t(insts[i].size);

    std::vector<Instruction>& added = mini.instructions;
    // A half-typed line keeps the size it had while it still assembled (program.h).
    // (A placeholder that already inherited a size passes it on while the user keeps typing.)
    if (oldCount == 1 && newCount == 1 && added.size() == 1 && added[0].placeholder && end - begin == 1) {
        added[0].size = insts[begin].size;
        added[0].operands = "assumed " + std::to_string(added[0].size) + " bytes (its size before this edit)";
    }
    std::uint64_t newBytes = 0;
    for (const auto& inst : added)
        newBytes += std::uint64_t(inst.size);
    const std::int64_t deltaBytes = std::int64_t(newBytes) - std::int64_t(oldBytes);
    const int deltaLines = newCount - oldCount;
    const int deltaCount = int(added.size()) - int(end - begin);

    // Alignment padding after the edit would change size with the offsets: leave that to a full run.
    if (deltaBytes != 0 && layoutBarrierAfter)
        return false;

    // The kernel the edit lies in: the one around it whose entry line comes before it (code
    // before any entry label forms a kernel that starts at its first line). An edit in front of
    // every kernel, where a fresh run would start a new one, takes the full run.
    const auto unlabelled = [&](int k) { return program.kernels[std::size_t(k)].name.starts_with('('); };
    int kernel = -1;
    for (const std::size_t neighbour : {begin, begin - 1})
        if (neighbour < insts.size()) {
            const int candidate = insts[neighbour].kernel;
            const int entry = candidate >= 0 ? program.kernels[std::size_t(candidate)].line : 0;
            if (candidate >= 0 && (entry < first || (unlabelled(candidate) && entry <= first))
                && (kernel < 0 || program.kernels[std::size_t(candidate)].line > program.kernels[std::size_t(kernel)].line))
                kernel = candidate;
        }
    if (kernel < 0)
        return false;
    // An unlabelled kernel exists only while it has instructions.
    if (unlabelled(kernel) && program.kernels[std::size_t(kernel)].endInstruction
                                      - program.kernels[std::size_t(kernel)].firstInstruction + deltaCount <= 0)
        return false;
    const std::uint64_t kernelStart = program.kernels[std::size_t(kernel)].sectionOffset;
    for (auto& inst : added) {
        const int lineIndex = first + inst.line - 1; // mini lines are 1-based
        inst.line = lineIndex;
        const std::string_view text = newLines[std::size_t(lineIndex - first)];
        std::size_t b = 0;
        while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b])))
            ++b;
        inst.columnBegin = int(b);
        inst.columnEnd = int(b + codeOf(text.substr(b)).size());
        inst.sectionOffset += at;
        inst.offset = inst.sectionOffset - kernelStart;
        inst.kernel = kernel;
    }

    if (insts.size() + added.size() == end - begin)
        return false; // the program becomes empty: a full run says so

    // From here on the splice cannot fail.
    for (std::size_t i = begin; i < end; ++i)
        registers.add(insts[i], -1);
    for (const auto& inst : added)
        registers.add(inst, +1);
    registers.store(program);

    const bool moves = deltaBytes != 0 || deltaLines != 0;
    if (moves)
        for (std::size_t i = end; i < insts.size(); ++i) {
            Instruction& inst = insts[i];
            inst.sectionOffset = std::uint64_t(std::int64_t(inst.sectionOffset) + deltaBytes);
            if (inst.kernel == kernel)
                inst.offset = std::uint64_t(std::int64_t(inst.offset) + deltaBytes);
            inst.line += deltaLines;
        }
    if (deltaCount == 0) {
        std::move(added.begin(), added.end(), insts.begin() + std::ptrdiff_t(begin));
    } else {
        insts.erase(insts.begin() + std::ptrdiff_t(begin), insts.begin() + std::ptrdiff_t(end));
        insts.insert(insts.begin() + std::ptrdiff_t(begin), std::make_move_iterator(added.begin()),
                     std::make_move_iterator(added.end()));
    }
    const std::size_t addedEnd = begin + (end - begin) + std::size_t(deltaCount);

    // line → instructions: drop the old lines, renumber what follows, add the new lines.
    std::vector<std::pair<int, int>> addedByLine;
    for (std::size_t i = begin; i < addedEnd; ++i)
        addedByLine.emplace_back(insts[i].line, int(i));
    byLine.splice(first, lastOld, deltaLines, int(end), deltaCount, addedByLine);

    for (auto& label : program.labels)
        if (label.line > lastOld) {
            label.sectionOffset = std::uint64_t(std::int64_t(label.sectionOffset) + deltaBytes);
            label.line += deltaLines;
        }
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
        Kernel& other = program.kernels[k];
        if (int(k) == kernel) {
            other.endInstruction += deltaCount;
            if (unlabelled(kernel))
                other.line = insts[std::size_t(other.firstInstruction)].line;
        } else if (other.line > lastOld) {
            other.sectionOffset = std::uint64_t(std::int64_t(other.sectionOffset) + deltaBytes);
            other.firstInstruction += deltaCount;
            other.endInstruction += deltaCount;
            other.line += deltaLines;
        }
    }
    if (deltaBytes != 0 || deltaCount != 0)
        for (auto& label : program.labels) {
            // The first instruction at or after the label (instructions are in offset order).
            const auto next = std::lower_bound(insts.begin(), insts.end(), label.sectionOffset,
                                               [](const Instruction& i, std::uint64_t offset) { return i.sectionOffset < offset; });
            label.instruction = next == insts.end() ? -1 : int(next - insts.begin());
            // Kernel-relative offset: against the last kernel that starts at or before the label.
            for (auto it = program.kernels.rbegin(); it != program.kernels.rend(); ++it)
                if (it->sectionOffset <= label.sectionOffset) {
                    label.offset = label.sectionOffset - it->sectionOffset;
                    break;
                }
        }

    std::vector<Diagnostic> diagnostics;
    bool inserted = false;
    const auto addMini = [&] {
        for (Diagnostic d : mini.diagnostics) {
            d.line = first + d.line - 1;
            diagnostics.push_back(std::move(d));
        }
        inserted = true;
    };
    for (auto& d : program.diagnostics) {
        if (d.line >= first && d.line <= lastOld)
            continue;
        if (d.line > lastOld) {
            if (!inserted)
                addMini();
            d.line += deltaLines;
        }
        diagnostics.push_back(std::move(d));
    }
    if (!inserted)
        addMini();
    program.diagnostics = std::move(diagnostics);
    for (auto& directive : program.directives)
        if (directive.line > lastOld)
            directive.line += deltaLines;

    // Branch targets: everywhere when something moved, else only in the replaced lines.
    std::unordered_map<std::string, std::size_t> labelIndex;
    for (std::size_t l = 0; l < program.labels.size(); ++l)
        labelIndex[program.labels[l].name] = l;
    if (deltaBytes != 0 || deltaCount != 0)
        resolveBranches(program, labelIndex);
    else
        resolveBranches(program, labelIndex, begin, addedEnd);
    return true;
}

} // namespace

struct FrontEnd::State {
    std::string processorKey;
    std::unique_ptr<TargetKit> kit;
    // The last result and the text it came from: the incremental path splices into it.
    std::string source;
    std::string optionsKey;
    Program program;
    LineScan scan; // of `source`
    RegisterTally registers; // of `program`
    bool havePrevious = false;

    // Re-assembles only the changed lines when they are plain (see LineScan) and splices them in.
    bool spliceEdit(const LineEdit& edit, const GpuTarget& gpu, const AssembleOptions& options)
    {
        constexpr int kMaxSplicedLines = 64;
        // (An empty program carries a whole-text warning that only a full run may take back.)
        if (edit.oldCount > kMaxSplicedLines || edit.newCount > kMaxSplicedLines || program.instructions.empty())
            return false;
        const auto prefix = std::size_t(edit.prefixLines);
        const std::vector<std::string_view> oldLines = edit.oldCount ? splitLines(edit.oldText) : std::vector<std::string_view> {};
        const std::vector<std::string_view> newLines = edit.newCount ? splitLines(edit.newText) : std::vector<std::string_view> {};
        for (std::size_t i = 0; i < oldLines.size(); ++i)
            if (!scan.plain[prefix + i] || mentionsAny(oldLines[i], scan.assignedSymbols))
                return false;
        // A pure insertion must land outside macro/.rept/.if regions: a plain neighbour proves it.
        if (oldLines.empty()) {
            const bool beforePlain = prefix == 0 || scan.plain[prefix - 1];
            const bool afterPlain = prefix >= scan.plain.size() || scan.plain[prefix];
            if (!beforePlain && !afterPlain)
                return false;
        }
        std::string region;
        for (const auto line : newLines) {
            if (!scanLines({line}).plain[0] || mentionsAny(line, scan.assignedSymbols) || mentionsAny(line, scan.macroNames))
                return false;
            region.append(line);
            region.push_back('\n');
        }
        Program mini = assembleWith(*kit, gpu, region, options, /*whole=*/false);
        const bool barrierAfter = scan.lastBarrier >= int(prefix);
        if (!mini.labels.empty()
            || !splice(program, mini, int(prefix) + 1, edit.oldCount, edit.newCount, newLines, barrierAfter, registers))
            return false;
        const auto at = std::ptrdiff_t(prefix);
        scan.plain.erase(scan.plain.begin() + at, scan.plain.begin() + at + edit.oldCount);
        scan.plain.insert(scan.plain.begin() + at, std::size_t(edit.newCount), true);
        if (scan.lastBarrier >= int(prefix))
            scan.lastBarrier += edit.newCount - edit.oldCount;
        return true;
    }
};

FrontEnd::FrontEnd() : state_(new State) {}
FrontEnd::~FrontEnd() { delete state_; }

const Program& FrontEnd::analyze(std::string_view source, const AssembleOptions& options)
{
    State& state = *state_;
    std::string error;
    const auto gpu = resolveGpu(options.gpu, &error);
    if (!gpu) {
        state.program = Program {};
        state.program.diagnostics.push_back({Severity::Error, 0, 0, error, {}});
        state.havePrevious = false;
        return state.program;
    }
    const std::string triple = tripleFor(source);
    const std::string key = gpu->processor + ':' + gpu->features + ':' + triple;
    if (!state.kit || state.processorKey != key) {
        state.kit = makeTargetKit(*gpu, triple);
        state.processorKey = key;
        state.havePrevious = false;
    }
    if (!state.kit->error.empty()) {
        state.program = Program {};
        state.program.gpu = *gpu;
        state.program.diagnostics.push_back({Severity::Error, 0, 0, state.kit->error, {}});
        state.havePrevious = false;
        return state.program;
    }
    const std::string currentKey = optionsKey(options);

    // The incremental path: one contiguous run of changed plain lines.
    if (state.havePrevious && state.optionsKey == currentKey) {
        const LineEdit edit = diffLines(state.source, source);
        if (edit.identical)
            return state.program;
        if (state.spliceEdit(edit, *gpu, options)) {
            state.source.assign(source);
            return state.program;
        }
    }

    state.source.assign(source);
    state.scan = scanLines(splitLines(state.source));
    state.program = assembleWith(*state.kit, *gpu, source, options, /*whole=*/true, &state.scan);
    state.registers.rebuild(state.program);
    state.optionsKey = currentKey;
    state.havePrevious = true;
    return state.program;
}

Program assemble(std::string_view source, const AssembleOptions& options)
{
    FrontEnd frontEnd;
    frontEnd.analyze(source, options);
    return std::move(frontEnd.state_->program); // the FrontEnd ends here: no copy
}

} // namespace gcnlens
