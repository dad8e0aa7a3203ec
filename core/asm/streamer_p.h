// SPDX-License-Identifier: MIT
// Private to core/asm: one run of LLVM's assembler (AssemblerSession) into a streamer that only
// listens (CollectingStreamer): what was emitted, where, and the diagnostics, in source order.
// Includes LLVM: only core/asm .cpp files include this header.
#pragma once

#include "core/asm/assembler.h"
#include "core/asm/fastpaths.h"
#include "core/asm/linescan_p.h"
#include "core/asm/llvmkit_p.h"
#include "core/asm/printedshape_p.h"
#include "core/asm/sourcemap.h"
#include "core/asm/watch_p.h"

#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gcnlens::detail {

// SourceMgr::FindBufferContainingLoc tries every buffer in turn, and every macro or .rept
// expansion is a buffer of its own: a macro-heavy kernel has thousands, and the front-end asks
// for every statement (issue #18). Buffers are only ever added and never overlap, so findBuffer
// keeps them sorted by address and answers by binary search: the same answer, in log time.
class IndexedSourceMgr : public llvm::SourceMgr {
public:
    unsigned findBuffer(llvm::SMLoc loc) const;
    unsigned findBuffer(const char* at) const { return findBuffer(llvm::SMLoc::getFromPointer(at)); }
    // FindLineNumber, counted on from the place asked for last where that is a little before in
    // the same buffer, or from the buffer's start where that is near: the program is built in
    // source order (issue #18: LLVM's search for each instruction's line was a fiftieth of a
    // plain-text listing, and its line cache for each macro expansion's buffer a hundredth of a
    // macro-heavy one).
    unsigned lineNumber(const char* at, unsigned bufferId) const;

private:
    struct Span {
        const char *begin, *end;
        unsigned id;
    };
    mutable std::vector<Span> spans_; // sorted by begin
    mutable unsigned indexed_ = 0;    // buffers 1..indexed_ are in spans_
    mutable unsigned last_ = 0;       // the last answer: statements come in runs from one buffer
    struct LineHint {                 // lineNumber's last question in a buffer, and its answer
        unsigned buffer = 0;
        const char* at = nullptr;
        unsigned line = 0;
    };
    mutable std::array<LineHint, 4> lineHints_;
    mutable std::size_t nextLineHint_ = 0;
};

// What the streamer saw, in order.
struct Emission {
    // PlannedRun: shape-encoded instructions placed where their ".skip" landed (ShapePlan), kept
    // in the plan and named here by range, not moved (issue #18: a second copy of each Emission
    // cost a twentieth of a 100k-line listing, in page faults).
    enum Kind : std::uint8_t { Instr, Data, Label, Padding, Placeholder, PlannedRun };
    // Fields by size, 8-byte ones first, and the rare ones behind a pointer or a handle (issue #18:
    // an Emission per instruction is written to fresh pages, and each 4 KiB page costs about 5 µs
    // on first touch here; 208 -> 112 bytes).
    std::uint64_t sectionOffset = 0;
    const char* loc = nullptr; // where the parser stood (statement end)
    // Where the enclosing macro/.rept expansions were instantiated, innermost first; null outside
    // any. Owned by the streamer, one list per expansion buffer (issue #18: a copy per statement was
    // an allocation and a free for each line a macro produced).
    const std::vector<const char*>* expansionLocs = nullptr;
    std::int64_t branchImmediate = 0; // a branch's raw simm16 operand, when hasBranchImmediate
    // Kept only when the streamer is asked to (the shape pass reuses the instruction itself).
    std::unique_ptr<llvm::MCInst> mcInst; // out of line: a million Emissions need not carry one each
    const llvm::MCSubtargetInfo* subtarget = nullptr;
    // 32-bit literal fixups whose value was not known when the instruction was encoded (a symbol
    // defined further on): patched by CollectingStreamer::resolveFixups once the text is read.
    // Null for almost every instruction.
    using Fixups = std::vector<std::pair<unsigned, const llvm::MCExpr*>>; // (byte offset, expression)
    std::unique_ptr<Fixups> fixups;
    int size = 0;
    unsigned bufferId = 0;
    // instructions
    unsigned opcode = 0;
    // Interned here, once, as the Instruction keeps them (issue #18: three vectors per instruction
    // were three allocations and frees for nothing, and the bulk of a moved Emission).
    InternedArray<std::uint8_t> bytes;
    InternedString mnemonic, operands; // (the print cache and the Instruction share them)
    InternedString branchSymbol;       // the symbol a branch names, as the Instruction keeps it
    RegList defs, uses;
    InternedString label;                             // labels
    int diagnostic = -1;                              // placeholders: the diagnostic that caused it
    std::uint32_t plannedFirst = 0, plannedCount = 0; // PlannedRun: a range of ShapePlan::instructions
    Kind kind = Instr;
    Family family = Family::Unknown;
    bool glc = false;
    bool hasBranchImmediate = false;
};

// Lines whose instructions were encoded from an earlier line of the same shape (see lineShape)
// and replaced, in the text LLVM parses, by one ".skip N" per run of consecutive such lines; the
// streamer puts the instructions back where the skip lands.
// A shape-encoded instruction (ShapePlan): what buildProgram reads of an Emission of kind Instr,
// and no more (issue #18: as Emissions, 112 bytes each, the plan's instructions were the largest
// part of a plain-text listing's memory, written to fresh pages; 64 bytes here).
struct PlannedInstruction {
    std::uint64_t sectionOffset = 0; // set where its run is placed (placePlannedRun), as loc
    const char* loc = nullptr;
    std::int64_t branchImmediate = 0;
    int size = 0;
    unsigned opcode = 0;
    InternedArray<std::uint8_t> bytes;
    InternedString mnemonic, operands, branchSymbol;
    RegList defs, uses;
    Family family = Family::Unknown;
    bool glc = false;
    bool hasBranchImmediate = false;

    // Takes what describe() wrote into `e` (a shape's line names no symbol, so it has no fixups).
    explicit PlannedInstruction(const Emission& e)
        : branchImmediate(e.branchImmediate)
        , size(e.size)
        , opcode(e.opcode)
        , bytes(e.bytes)
        , mnemonic(e.mnemonic)
        , operands(e.operands)
        , branchSymbol(e.branchSymbol)
        , defs(e.defs)
        , uses(e.uses)
        , family(e.family)
        , glc(e.glc)
        , hasBranchImmediate(e.hasBranchImmediate)
    {
    }
};
static_assert(sizeof(void*) != 8 || sizeof(PlannedInstruction) <= 64);

struct ShapePlan {
    struct Run {
        std::size_t lineBegin = 0, lineEnd = 0; // offsets in the parsed text of the run's first line
        std::size_t first = 0, count = 0;       // into instructions
    };
    std::vector<PlannedInstruction> instructions; // in text order, sectionOffset still to be set
    std::vector<std::size_t> lineOffsets;         // where each instruction's line starts in the parsed text
    std::vector<Run> runs;
    std::size_t nextRun = 0;
    const char* base = nullptr; // start of the parsed text in LLVM's buffer
};

struct RawDiagnostic {
    Severity severity;
    unsigned bufferId;
    int bufferLine; // 1-based in its buffer
    int column;
    const char* loc;
    std::string message;
    std::vector<const char*> expansionLocs; // from the "while in macro instantiation" notes that follow
};

// Encoding (interned into e.bytes), family, printed text and registers of an instruction: shared
// by the streamer (bytes from the encoder) and the disassembler (bytes from a code object or a
// listing). Bytes interned before are a repeated encoding, which the print cache may hold; else
// `source`, when given, is asked for the text before the printer.
void describeEncoded(TargetKit& kit, const GpuTarget& gpu, llvm::MCInstPrinter& printer, const llvm::MCInst& inst,
                     const llvm::MCSubtargetInfo& sti, std::span<const std::uint8_t> bytes, Emission& e,
                     TextSource* source = nullptr);

// The parser reads a statement's end of line before it emits (alignment) or matches (some
// warnings), so where it stands is the next statement: the statement before a location.
const char* statementBefore(const IndexedSourceMgr& sources, const char* at);

void handleDiagnostic(const llvm::SMDiagnostic& d, void* contextPtr); // (DiagnosticContext, below)

// Branches to a symbol assigned label±N (known only once the whole text is read): their target
// becomes "label+N" / "label-N", which resolveBranches reads as the label and a byte addend.
void resolveBranchSymbols(llvm::MCContext& context, std::vector<Emission>& emissions);

class CollectingStreamer final : public llvm::MCStreamer {
public:
    CollectingStreamer(llvm::MCContext& context, TargetKit& kit, const GpuTarget& gpu, llvm::MCCodeEmitter& emitter,
                       llvm::MCInstPrinter& printer)
        : MCStreamer(context)
        , kit_(kit)
        , gpu_(gpu)
        , emitter_(emitter)
        , printer_(printer)
    {
    }

    llvm::MCAsmParser* parser = nullptr;
    IndexedSourceMgr* sources = nullptr;
    std::vector<Emission> emissions;
    std::vector<std::string> functionSymbols;
    std::vector<RawDiagnostic>* diagnostics = nullptr;
    std::vector<const char*>* probeLocs = nullptr; // set while asking the parser where an expansion came from
    void* diagnosticContext = nullptr;             // handleDiagnostic's (DiagnosticContext), for the probe
    bool keepInsts = false;                        // keep each MCInst in its Emission
    ShapePlan* plan = nullptr;
    // Bounds (AssembleOptions::limits). The emission that crosses one gets an error on its line and
    // nothing after it is recorded; onLimit, when set (the worker), then ends the run at once.
    const AssembleLimits* limits = nullptr;
    std::function<void()> onLimit;
    bool stopped() const { return stopped_; }
    // For the statement cache (rememberStatements): instructions emitted so far, in any section,
    // and where to copy the next one.
    std::uint64_t instructionsSeen = 0;
    llvm::MCInst* capture = nullptr;
    // Where the next instruction's text may come from (the statement cache's shapes).
    TextSource* textSource = nullptr;
    // The statements the parser goes through, as the target parser sees them (statementcache.cpp):
    // instructions, labels, and every directive but the conditional ones. From them an expansion's
    // instantiations are read without asking LLVM (inferExpansions). Closing: the .endr or
    // .endmacro that LLVM puts last in an expansion buffer. Repeat: .rept, .rep, .irp, .irpc.
    // Unsafe: a statement after which the next one read is not the next line's (.macro, .exitm,
    // .include, .end).
    enum class StatementKind : std::uint8_t { Plain, Label, Repeat, Closing, Unsafe };
    void noteStatement(llvm::SMLoc loc, StatementKind kind);
    // What the statement cache made without LLVM's parser (Program::statementsReplayed, …FromShapes).
    int statementsReplayed = 0, statementsFromShapes = 0;
    int expansionsInferred = 0; // (Program::expansionsInferred)

    void changeSection(llvm::MCSection* section, uint32_t subsection) override
    {
        MCStreamer::changeSection(section, subsection);
        const auto* elf = llvm::dyn_cast<llvm::MCSectionELF>(section);
        inText_ = elf && (elf->getFlags() & llvm::ELF::SHF_EXECINSTR);
    }

    void emitInstruction(const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti) override
    {
        ++instructionsSeen;
        if (capture)
            *capture = inst;
        if (!inText_) {
            MCStreamer::emitInstruction(inst, sti);
            return;
        }
        if (stopped_)
            return;
        Emission e = located(Emission::Instr, inst.getLoc());
        describe(inst, sti, e, textSource);
        if (!withinLimits(e, std::uint64_t(e.size)))
            return;
        if (keepInsts) {
            e.mcInst = std::make_unique<llvm::MCInst>(inst);
            e.subtarget = &sti;
        }
        offset_ += e.size;
        emissions.push_back(std::move(e));
    }

    // Encoding, family, printed text and registers of an instruction (its text perhaps from
    // `source`, see describeEncoded).
    void describe(const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti, Emission& e, TextSource* source = nullptr)
    {
        e.opcode = inst.getOpcode();
        llvm::SmallVector<char, 16> bytes;
        llvm::SmallVector<llvm::MCFixup, 2> fixups;
        emitter_.encodeInstruction(inst, bytes, fixups, sti);
        e.size = int(bytes.size());
        for (const auto& fixup : fixups)
            if (fixup.getKind() == llvm::FK_Data_4 || fixup.getKind() == llvm::FK_PCRel_4) {
                if (!e.fixups)
                    e.fixups = std::make_unique<Emission::Fixups>();
                e.fixups->emplace_back(fixup.getOffset(), fixup.getValue());
            }
        describeEncoded(kit_, gpu_, printer_, inst, sti,
                        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), e, source);
    }

    void emitLabel(llvm::MCSymbol* symbol, llvm::SMLoc loc) override
    {
        MCStreamer::emitLabel(symbol, loc);
        if (!inText_ || stopped_)
            return;
        Emission e = located(Emission::Label, loc);
        e.label = std::string_view(symbol->getName());
        emissions.push_back(std::move(e));
    }

    bool emitSymbolAttribute(llvm::MCSymbol* symbol, llvm::MCSymbolAttr attribute) override
    {
        if (attribute == llvm::MCSA_ELF_TypeFunction)
            functionSymbols.push_back(symbol->getName().str());
        return true;
    }
    void emitCommonSymbol(llvm::MCSymbol*, uint64_t, llvm::Align) override { }
    void emitZerofill(llvm::MCSection*, llvm::MCSymbol*, uint64_t, llvm::Align, llvm::SMLoc) override { }

    void emitBytes(llvm::StringRef data) override { addData(data.size()); }
    void emitIntValue(uint64_t, unsigned size) override { addData(size); }
    void emitValueImpl(const llvm::MCExpr*, unsigned size, llvm::SMLoc) override { addData(size); }
    void emitFill(const llvm::MCExpr& numBytes, uint64_t, llvm::SMLoc loc) override
    {
        if (plan && placePlannedRun(loc))
            return;
        int64_t count = 0;
        if (numBytes.evaluateAsAbsolute(count) && count > 0)
            addData(std::uint64_t(count));
    }
    void emitFill(const llvm::MCExpr& numValues, int64_t size, int64_t, llvm::SMLoc) override
    {
        int64_t count = 0;
        if (numValues.evaluateAsAbsolute(count) && count > 0 && size > 0) // (saturates: no 64-bit wrap)
            addData(std::uint64_t(count) > ~std::uint64_t(0) / std::uint64_t(size) ? ~std::uint64_t(0)
                                                                                   : std::uint64_t(count) * std::uint64_t(size));
    }
    void emitValueToAlignment(llvm::Align alignment, int64_t, unsigned, unsigned maxBytes) override { pad(alignment, maxBytes); }
    void emitCodeAlignment(llvm::Align alignment, const llvm::MCSubtargetInfo*, unsigned maxBytes) override
    {
        pad(alignment, maxBytes);
    }

    // An assembler error on an instruction line: keep the layout stable with a placeholder.
    void addPlaceholder(int diagnosticIndex, unsigned bufferId, const char* loc)
    {
        if (!inText_ || stopped_)
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

    // Literals that name a constant symbol defined after them ("s_mov_b32 s0, x; x = 5"): their
    // words once every symbol is known. Label-relative values stay LLVM's placeholder.
    void resolveFixups()
    {
        resolveBranchSymbols(getContext(), emissions);
        for (auto& e : emissions) {
            if (!e.fixups)
                continue;
            std::vector<std::uint8_t> bytes = e.bytes.toVector();
            for (const auto& [at, expr] : *e.fixups) {
                std::int64_t value = 0;
                if (at + 4 > bytes.size() || !expr->evaluateAsAbsolute(value))
                    continue;
                for (unsigned b = 0; b < 4; ++b)
                    bytes[at + b] = std::uint8_t(std::uint64_t(value) >> (8 * b));
            }
            e.bytes = bytes;
            e.fixups.reset();
        }
    }

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
            return false; // the source's own .skip/.fill
        const ShapePlan::Run& run = plan->runs[plan->nextRun++];
        if (!inText_ || stopped_)
            return true; // instructions outside code sections are not recorded either
        for (std::size_t i = run.first; i < run.first + run.count; ++i) {
            PlannedInstruction& e = plan->instructions[i];
            e.sectionOffset = offset_;
            e.loc = plan->base + plan->lineOffsets[i];
            offset_ += e.size;
        }
        Emission marker;
        marker.kind = Emission::PlannedRun;
        marker.plannedFirst = std::uint32_t(run.first);
        marker.plannedCount = std::uint32_t(run.count);
        emissions.push_back(std::move(marker));
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
            e.bufferId = sources->findBuffer(loc);
            // Text produced by a macro or .rept has no include location; ask the parser which
            // instantiations are active (its notes name their lines).
            if (e.bufferId > 1 && !sources->getParentIncludeLoc(e.bufferId).isValid() && probeLocs)
                e.expansionLocs = &expansionsOf(e.bufferId, loc);
        }
        if (runWatch.progress) // in the worker: publish the line (outermost expansion: the invoking line)
            runWatch.reached(!e.expansionLocs || e.expansionLocs->empty() ? e.loc : e.expansionLocs->back());
        return e;
    }

    // The active macro/.rept instantiations, innermost first. They are the same for every
    // statement of one expansion buffer (an expansion's statements run inside it, and a nested
    // one is a buffer of its own), so LLVM is asked once per buffer: each question is a note that
    // LLVM formats, with a note per instantiation. The probe note has no location of its own
    // (LLVM would search every buffer for it); the instantiation notes keep theirs.
    const std::vector<const char*>& expansionsOf(unsigned bufferId, llvm::SMLoc loc)
    {
        const bool perBuffer = fastPaths().expansionPerBuffer;
        if (perBuffer)
            if (const auto it = expansions_.find(bufferId); it != expansions_.end())
                return it->second;
        const bool infer = perBuffer && fastPaths().inferredExpansions;
        if (infer && !parser->hasPendingError())
            if (const std::vector<const char*>* chain = inferAndRemember(bufferId))
                return *chain;
        probeLocs->clear();
        if (!perBuffer || parser->hasPendingError()) { // (pending errors print first: through the parser's handler)
            parser->Note(perBuffer ? llvm::SMLoc() : loc, kProbeMessage);
            if (perBuffer)
                return expansions_.emplace(bufferId, *probeLocs).first->second;
            return perStatement_.emplace_back(*probeLocs); // (the fast path off: a list per statement)
        }
        // Straight to our handler, past the parser's own (AsmParser::DiagHandler), which would
        // search every buffer three times per note only to pass it on unchanged: the notes' locations
        // are all the probe reads, and they are the same either way.
        const auto parserHandler = sources->getDiagHandler();
        void* const parserContext = sources->getDiagContext();
        sources->setDiagHandler(handleDiagnostic, diagnosticContext);
        parser->Note(llvm::SMLoc(), kProbeMessage);
        sources->setDiagHandler(parserHandler, parserContext);
        if (infer)
            rememberEnclosing(*probeLocs);
        return expansions_.emplace(bufferId, *probeLocs).first->second;
    }

    void addData(std::uint64_t size)
    {
        if (!inText_ || size == 0 || stopped_)
            return;
        // Consecutive data from one statement (".long a, b") becomes one entry per value.
        Emission e = located(Emission::Data);
        if (!withinLimits(e, size))
            return;
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
        if (padding == 0 || (maxBytes && padding > maxBytes) || stopped_)
            return;
        Emission e = located(Emission::Padding);
        if (sources)
            e.loc = statementBefore(*sources, e.loc); // alignment is emitted after the directive's end of line
        if (!withinLimits(e, padding))
            return;
        e.size = int(padding);
        offset_ = aligned;
        emissions.push_back(std::move(e));
    }

    // False, after recording an error on e's line, when e would cross a limit (the first only).
    bool withinLimits(const Emission& e, std::uint64_t bytes)
    {
        if (!limits)
            return true;
        std::string message;
        if (e.bufferId > 1 && e.bufferId != lastDepthBuffer_ && sources) {
            // (included text is what a recursive .include repeats; depth counted once per buffer)
            lastDepthBuffer_ = e.bufferId;
            int depth = 0;
            for (unsigned buffer = e.bufferId; buffer > 1 && depth <= limits->includeDepth; ++depth) {
                const llvm::SMLoc parent = sources->getParentIncludeLoc(buffer);
                if (!parent.isValid())
                    break;
                buffer = sources->findBuffer(parent);
            }
            if (depth > limits->includeDepth)
                message = "the includes here nest deeper than the limit of " + std::to_string(limits->includeDepth)
                    + " (raise with --limit include-depth=N); the rest is not analysed";
        }
        if (!message.empty())
            ;
        else if (e.kind != Emission::Padding && ++entries_ > limits->instructions)
            message = "the program passes the limit of " + std::to_string(limits->instructions)
                + " instructions and data entries here (raise with --limit instructions=N); the rest is not analysed";
        else if (bytes > limits->bytes || offset_ + bytes > limits->bytes)
            message = (bytes > limits->bytes ? std::to_string(bytes) + " bytes here pass" : std::string("the program passes"))
                + " the limit of " + std::to_string(limits->bytes) + " bytes" + (bytes > limits->bytes ? "" : " here")
                + " (raise with --limit bytes=N); the rest is not analysed";
        if (message.empty())
            return true;
        stopped_ = true;
        if (diagnostics) {
            // (data is emitted once the parser has read its statement's end of line)
            const char* loc = e.kind == Emission::Data && sources ? statementBefore(*sources, e.loc) : e.loc;
            RawDiagnostic raw;
            raw.severity = Severity::Error;
            raw.bufferId = e.bufferId;
            raw.bufferLine = sources && loc && e.bufferId ? int(sources->lineNumber(loc, e.bufferId)) : 0;
            raw.column = -1;
            raw.loc = loc;
            raw.message = std::move(message);
            if (e.expansionLocs)
                raw.expansionLocs = *e.expansionLocs;
            diagnostics->push_back(std::move(raw));
        }
        if (onLimit)
            onLimit();
        return false;
    }

public:
    static constexpr const char* kProbeMessage = "gcnlens: where am I";

private:
    TargetKit& kit_;
    const GpuTarget& gpu_;
    llvm::MCCodeEmitter& emitter_;
    llvm::MCInstPrinter& printer_;
    std::uint64_t offset_ = 0;
    std::unordered_map<unsigned, std::vector<const char*>> expansions_; // expansionsOf, by buffer (nodes stay put)
    // noteStatement's record: the last statement, and for each expansion buffer the statement
    // parsed just before its first one (what made the buffer came between the two).
    struct SeenStatement {
        const char* loc = nullptr;
        unsigned buffer = 0;
        unsigned buffersBefore = 0; // the buffers LLVM had made when it was parsed
        StatementKind kind = StatementKind::Unsafe;
    };
    SeenStatement lastStatement_;
    std::unordered_map<unsigned, SeenStatement> bufferEntries_;
    std::vector<bool> buffersSeen_;
    bool inferExpansions(unsigned bufferId, std::vector<const char*>& chain);
    bool knownExpansions(unsigned bufferId, std::vector<const char*>& chain);
    const std::vector<const char*>* inferAndRemember(unsigned bufferId);
    bool callsFirstThing(unsigned from, unsigned to, std::vector<const char*>& chain);
    void rememberEnclosing(const std::vector<const char*>& chain);
    const char* nextMacroCall(unsigned bufferId, const char* from) const;
    std::deque<std::vector<const char*>> perStatement_; // expansionsOf with expansionPerBuffer off
    bool inText_ = false;
    std::uint64_t entries_ = 0;    // instructions and data entries so far (limits)
    unsigned lastDepthBuffer_ = 0; // the last buffer whose include depth was checked
    bool stopped_ = false;         // a limit was crossed: nothing more is recorded
};

// LLVM's target parser behind one that remembers what each statement became, by its text after
// expansion and the values it names, and replays it when the statement comes again
// (statementcache.cpp; FastPaths::statementCache).
std::unique_ptr<llvm::MCTargetAsmParser> rememberStatements(std::unique_ptr<llvm::MCTargetAsmParser> inner,
                                                            CollectingStreamer& streamer,
                                                            const std::vector<RawDiagnostic>& diagnostics,
                                                            const IndexedSourceMgr& sources, TargetKit& kit);

struct DiagnosticContext {
    IndexedSourceMgr* sources = nullptr;
    std::vector<RawDiagnostic>* diagnostics = nullptr;
    std::vector<const char*>* probeLocs = nullptr;
    bool probing = false;
    CollectingStreamer* streamer = nullptr;
    const SourceMap* map = nullptr;
    // Statements (buffer << 32 | line) that have their placeholder: one each, though errors
    // come for them again (LLVM reports an undefined "1f" once every statement is read).
    std::unordered_set<std::uint64_t> placeholderStatements;
};

// Line (1-based) in the main buffer of a location, following .include chains; 0 if it is inside
// a macro or .rept expansion (those are resolved through the instantiation notes).
int mainLineOf(const IndexedSourceMgr& sources, llvm::SMLoc loc);
void handleDiagnostic(const llvm::SMDiagnostic& d, void* contextPtr);

// One run of LLVM's assembler over a text into a CollectingStreamer. Everything LLVM needs lives
// as long as the session, so the emissions' source locations stay valid.
class AssemblerSession {
public:
    AssemblerSession(TargetKit& kit, const GpuTarget& gpu, const AssembleOptions& options, std::string_view text,
                     const std::string& bufferName)
        : context_(kit.triple, kit.asmInfo.get(), kit.registerInfo.get(), kit.subtargetInfo.get(), &sources, &kit.targetOptions)
    {
        sources.setIncludeDirs(options.includeDirs);
        // With blank lines after the text: LLVM 19 never returns on some bad statements when they
        // run to the end of the text ("s9, 0x" as the last line), and copes when a line follows
        // (issue #12, tests/fuzz/llvm-faults/hang-last-line.s). A character literal reads the two
        // or three characters after its quote, line ends too: "d,'" at the end needs three blank
        // lines (hang-quote-at-end.s). assembleWith() keeps diagnostics within the text.
        const std::size_t blank = text.ends_with('\n') ? 3 : 4;
        auto buffer = llvm::WritableMemoryBuffer::getNewUninitMemBuffer(text.size() + blank, bufferName);
        std::copy(text.begin(), text.end(), buffer->getBufferStart());
        std::fill_n(buffer->getBufferStart() + text.size(), blank, '\n');
        sources.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
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
        targetParser_ = rememberStatements(std::move(targetParser_), *streamer, diagnostics, sources, kit);
        parser_->setTargetParser(*targetParser_);
        streamer->parser = parser_.get();
        streamer->sources = &sources;
        streamer->diagnostics = &diagnostics;
        streamer->probeLocs = &probeLocs_;
        streamer->diagnosticContext = &diagnosticContext_;
        for (const auto& [name, value] : options.defsyms) {
            llvm::MCSymbol* symbol = context_.getOrCreateSymbol(name);
            symbol->setVariableValue(llvm::MCConstantExpr::create(value, context_));
        }
    }

    void run() { parser_->Run(/*NoInitialTextSection=*/false); }
    llvm::MCAsmParser* parser() const { return parser_.get(); }
    const char* textStart() const { return sources.getMemoryBuffer(1)->getBufferStart(); }

    IndexedSourceMgr sources; // first: the context refers to it
    std::string error;        // set when LLVM could not be set up; nothing else is usable then
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

} // namespace gcnlens::detail
