// SPDX-License-Identifier: MIT
#include "core/asm/streamer_p.h"

#include "core/asm/linescan_p.h"
#include "core/asm/sourcemap.h"

#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCSymbol.h>
#include <llvm/MC/MCValue.h>

#include <algorithm>
#include <cstring>

namespace gcnlens {

FastPaths& fastPaths()
{
    static FastPaths paths;
    return paths;
}

} // namespace gcnlens

namespace gcnlens::detail {

RunWatch runWatch;

unsigned IndexedSourceMgr::findBuffer(llvm::SMLoc loc) const
{
    if (!fastPaths().bufferIndex)
        return FindBufferContainingLoc(loc);
    const char* at = loc.getPointer();
    if (!at)
        return 0;
    const auto holds = [&](unsigned id) {
        const llvm::MemoryBuffer* buffer = getMemoryBuffer(id);
        return at >= buffer->getBufferStart() && at <= buffer->getBufferEnd(); // (as LLVM: the end counts)
    };
    if (last_ && holds(last_))
        return last_;
    for (const unsigned count = getNumBuffers(); indexed_ < count;) {
        const llvm::MemoryBuffer* buffer = getMemoryBuffer(++indexed_);
        const Span span {buffer->getBufferStart(), buffer->getBufferEnd(), indexed_};
        spans_.insert(
            std::upper_bound(spans_.begin(), spans_.end(), span.begin, [](const char* p, const Span& s) { return p < s.begin; }),
            span);
    }
    auto it = std::upper_bound(spans_.begin(), spans_.end(), at, [](const char* p, const Span& s) { return p < s.begin; });
    if (it == spans_.begin() || at > (--it)->end)
        return 0;
    last_ = it->id;
    return last_;
}

unsigned IndexedSourceMgr::lineNumber(const char* at, unsigned bufferId) const
{
    constexpr std::ptrdiff_t kCountedAtMost = 4096; // bytes: farther on, LLVM's search is cheaper
    if (!fastPaths().bufferIndex || bufferId == 0 || bufferId > getNumBuffers())
        return FindLineNumber(llvm::SMLoc::getFromPointer(at), bufferId);
    // The hint of this buffer, or the oldest one's place (a statement's line is asked in its
    // buffer, then in each enclosing expansion's and the main file's: a few buffers in turn).
    LineHint* hint = std::find_if(lineHints_.begin(), lineHints_.end(), [&](const LineHint& h) { return h.buffer == bufferId; });
    if (hint == lineHints_.end()) {
        hint = &lineHints_[nextLineHint_];
        nextLineHint_ = (nextLineHint_ + 1) % lineHints_.size();
        *hint = {bufferId, nullptr, 0};
    }
    if (!hint->at || at < hint->at || at - hint->at > kCountedAtMost) {
        const char* start = getMemoryBuffer(bufferId)->getBufferStart();
        if (at >= start && at - start <= kCountedAtMost) { // (a macro's buffer is mostly smaller)
            *hint = {bufferId, start, 1};
        } else {
            *hint = {bufferId, at, FindLineNumber(llvm::SMLoc::getFromPointer(at), bufferId)};
            return hint->line;
        }
    }
    hint->line += unsigned(countNewlines(std::string_view(hint->at, std::size_t(at - hint->at))));
    hint->at = at;
    return hint->line;
}

void RunWatch::reachedParser()
{
    if (parser)
        reached(parser->getTok().getLoc().getPointer());
}

namespace {

// glc is printed as a modifier on GFX6–9 memory instructions.
bool printedGlc(InternedString operands)
{
    // " glc" anywhere or "glc" first, found from its 'g' (operand texts are full of blanks: a
    // search from the ' ' stopped at each; issue #18).
    const std::string_view text = operands.view();
    for (std::size_t at = text.find('g'); at != std::string_view::npos; at = text.find('g', at + 1))
        if (text.substr(at).starts_with("glc") && (at == 0 || text[at - 1] == ' '))
            return true;
    return false;
}

// `encodingRepeats`: e.bytes were interned before, so the print cache may know them, and is
// worth adding them to. Else `source` may know the text.
void printInstruction(TargetKit& kit, llvm::MCInstPrinter& printer, const llvm::MCInst& inst, const llvm::MCSubtargetInfo& sti,
                      Emission& e, bool encodingRepeats, TextSource* source)
{
    bool cacheable = encodingRepeats;
    for (unsigned i = 0; cacheable && i < inst.getNumOperands(); ++i)
        cacheable = !inst.getOperand(i).isExpr(); // symbolic operands print their symbol, not the bytes
    if (cacheable) {
        if (const TargetKit::Printed* printed = kit.printCache.find(e.bytes, inst.getOpcode())) {
            e.mnemonic = printed->mnemonic;
            e.operands = printed->operands;
            e.glc = printed->glc;
            return;
        }
    }
    std::string_view operands;
    if (source && source->text(e.mnemonic, operands)) {
        e.operands = operands;
    } else {
        std::string text;
        llvm::raw_string_ostream out(text);
        printer.printInst(&inst, 0, "", sti, out);
        out.flush();
        std::string_view view(text);
        while (!view.empty() && (view.front() == '\t' || view.front() == ' '))
            view.remove_prefix(1);
        const auto space = view.find_first_of(" \t");
        e.mnemonic = view.substr(0, space);
        if (space != std::string_view::npos) {
            std::string_view rest = view.substr(space);
            while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t'))
                rest.remove_prefix(1);
            e.operands = rest;
        }
        if (source)
            source->printed(e.mnemonic, e.operands.view());
    }
    e.glc = printedGlc(e.operands);
    if (cacheable)
        kit.printCache.insert(e.bytes, inst.getOpcode(), TargetKit::Printed {e.mnemonic, e.operands, e.glc});
}

void collectOperands(TargetKit& kit, const llvm::MCInst& inst, const llvm::MCInstrDesc& desc, Emission& e)
{
    // Gathered here and interned once each (an instruction names a handful of registers).
    llvm::SmallVector<RegRange, 8> defs, uses;
    const unsigned numDefs = desc.getNumDefs();
    for (unsigned i = 0; i < inst.getNumOperands(); ++i) {
        const llvm::MCOperand& op = inst.getOperand(i);
        if (op.isReg() && op.getReg()) {
            if (const auto& range = kit.reg(op.getReg()))
                (i < numDefs ? defs : uses).push_back(*range);
        } else if (op.isExpr() && e.branchSymbol.empty()) {
            if (const auto* ref = llvm::dyn_cast<llvm::MCSymbolRefExpr>(op.getExpr()))
                e.branchSymbol = std::string_view(ref->getSymbol().getName());
        } else if (op.isImm() && desc.isBranch() && !e.hasBranchImmediate) {
            e.branchImmediate = op.getImm();
            e.hasBranchImmediate = true;
        }
    }
    for (const auto reg : desc.implicit_defs())
        if (const auto& range = kit.reg(reg))
            defs.push_back(*range);
    for (const auto reg : desc.implicit_uses())
        if (const auto& range = kit.reg(reg))
            uses.push_back(*range);
    e.defs = std::span<const RegRange>(defs.data(), defs.size());
    e.uses = std::span<const RegRange>(uses.data(), uses.size());
}

} // namespace

void resolveBranchSymbols(llvm::MCContext& context, std::vector<Emission>& emissions)
{
    for (auto& e : emissions) {
        if (e.kind != Emission::Instr || e.branchSymbol.empty())
            continue;
        const BranchKind kind = branchKind(e.mnemonic);
        if (kind != BranchKind::Unconditional && kind != BranchKind::Conditional && e.mnemonic != "s_cbranch_i_fork"
            && e.mnemonic != "s_call_b64")
            continue;
        const llvm::MCSymbol* symbol = context.lookupSymbol(llvm::StringRef(e.branchSymbol.view()));
        if (!symbol || !symbol->isVariable())
            continue;
        llvm::MCValue value;
        if (!symbol->getVariableValue(false)->evaluateAsRelocatable(value, nullptr, nullptr) || !value.getSymA()
            || value.getSymB())
            continue;
        const std::int64_t addend = value.getConstant();
        std::string target = value.getSymA()->getSymbol().getName().str();
        if (addend)
            target += (addend > 0 ? "+" : "-") + std::to_string(addend > 0 ? addend : -addend);
        e.branchSymbol = target;
    }
}

void describeEncoded(TargetKit& kit, const GpuTarget& gpu, llvm::MCInstPrinter& printer, const llvm::MCInst& inst,
                     const llvm::MCSubtargetInfo& sti, std::span<const std::uint8_t> bytes, Emission& e, TextSource* source)
{
    bool newEncoding = false;
    e.bytes = InternedArray<std::uint8_t>(bytes, newEncoding);
    const bool encodingRepeats = !newEncoding;
    e.opcode = inst.getOpcode();
    const llvm::MCInstrDesc& desc = kit.instrInfo->get(inst.getOpcode());
    e.family = familyFromFlags(desc.TSFlags, gpu.generation);
    printInstruction(kit, printer, inst, sti, e, encodingRepeats, source);
    collectOperands(kit, inst, desc, e);
}

const char* statementBefore(const IndexedSourceMgr& sources, const char* at)
{
    if (!at)
        return at;
    const unsigned buffer = sources.findBuffer(llvm::SMLoc::getFromPointer(at));
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

void CollectingStreamer::noteStatement(llvm::SMLoc loc, StatementKind kind)
{
    const unsigned buffer = sources && loc.isValid() ? sources->findBuffer(loc) : 0;
    if (!buffer) {
        lastStatement_ = {};
        return;
    }
    if (kind == StatementKind::Closing) { // only as the last line of its buffer: what LLVM appended
        const llvm::StringRef text = sources->getMemoryBuffer(buffer)->getBuffer();
        const char* newline =
            static_cast<const char*>(std::memchr(loc.getPointer(), '\n', std::size_t(text.end() - loc.getPointer())));
        if (!newline || newline + 1 != text.end())
            kind = StatementKind::Unsafe;
    }
    if (buffer >= buffersSeen_.size())
        buffersSeen_.resize(std::size_t(buffer) + 1, false);
    if (!buffersSeen_[buffer]) {
        buffersSeen_[buffer] = true;
        if (buffer > 1)
            bufferEntries_[buffer] = lastStatement_;
    }
    lastStatement_ = {loc.getPointer(), buffer, sources->getNumBuffers(), kind};
}

// The instantiations of a buffer the parser went through: none for the main buffer; those the
// streamer placed, or read now from the statements around it. An included file's are not read
// here (an .include inside a macro would hide one).
bool CollectingStreamer::knownExpansions(unsigned bufferId, std::vector<const char*>& chain)
{
    chain.clear();
    if (bufferId == 1)
        return true;
    auto it = expansions_.find(bufferId);
    const std::vector<const char*>* known = it != expansions_.end() ? &it->second : inferAndRemember(bufferId);
    if (known)
        chain = *known;
    return known != nullptr;
}

// A buffer's instantiations read by inferExpansions, kept for its later statements, with those of
// the buffers that hold them; null when they cannot be read.
const std::vector<const char*>* CollectingStreamer::inferAndRemember(unsigned bufferId)
{
    std::vector<const char*> chain;
    if (!inferExpansions(bufferId, chain))
        return nullptr;
    ++expansionsInferred;
    rememberEnclosing(chain);
    return &expansions_.emplace(bufferId, std::move(chain)).first->second;
}

// The buffer that holds each instantiation in an expansion's list has the rest of the list as its
// own: the parser was in that buffer, inside those, when it made the expansion.
void CollectingStreamer::rememberEnclosing(const std::vector<const char*>& chain)
{
    for (std::size_t k = 0; k < chain.size(); ++k) {
        const unsigned buffer = chain[k] ? sources->findBuffer(chain[k]) : 0;
        if (buffer > 1 && !sources->getParentIncludeLoc(buffer).isValid())
            expansions_.try_emplace(buffer, chain.begin() + std::ptrdiff_t(k) + 1, chain.end());
    }
}

// The macro call the parser makes next when it goes on from `from` in a buffer: the next line
// that is not blank, a line comment, an .endif (which closes a block the parser was running) or
// an assignment ("name = value", which the parser reads without the target's hooks, and which
// makes no buffer), when its first word names a macro (and is no label). Null for anything else.
const char* CollectingStreamer::nextMacroCall(unsigned bufferId, const char* from) const
{
    const llvm::StringRef text = sources->getMemoryBuffer(bufferId)->getBuffer();
    const char* p = from;
    const char* end = text.end();
    if (p < text.begin() || p > end)
        return nullptr;
    const char* word = nullptr;
    const char* after = nullptr;
    for (;;) { // (a loop, not recursion, past such lines: a paste may hold a million)
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            ++p;
        if (p >= end)
            return nullptr;
        // A block comment reads as blank space (the shape pass's runs hold their lines in one);
        // one never closed is the rest of the text.
        if (*p == '/' && p + 1 < end && p[1] == '*') {
            const std::size_t close = llvm::StringRef(p + 2, std::size_t(end - p - 2)).find("*/");
            if (close == llvm::StringRef::npos)
                return nullptr;
            p += 2 + close + 2;
            continue;
        }
        word = p;
        const bool comment = *p == ';' || (*p == '/' && p + 1 < end && p[1] == '/');
        while (!comment && p < end && isIdentifierChar(*p))
            ++p;
        after = p;
        while (after < end && (*after == ' ' || *after == '\t'))
            ++after;
        const bool assignment =
            p != word && !isAsciiDigit(*word) && after < end && *after == '=' && (after + 1 == end || after[1] != '=');
        if (!comment && !assignment && !llvm::StringRef(word, std::size_t(p - word)).equals_insensitive(".endif"))
            break;
        const void* newline = std::memchr(p, '\n', std::size_t(end - p));
        p = newline ? static_cast<const char*>(newline) : end;
    }
    if (p == word || isAsciiDigit(*word))
        return nullptr;
    if (after < end && (*after == ':' || *after == '='))
        return nullptr;
    return getContext().lookupMacro(llvm::StringRef(word, std::size_t(p - word))) ? word : nullptr;
}

// An expansion buffer's instantiations, innermost first, as LLVM's notes would give them, read from
// the statement parsed before the buffer's first one (noteStatement) and the text between:
// - after a .rept (.irp, …) the parser makes the body's buffer next: that buffer comes from the
//   directive, and a macro called on the body's first line makes the one after it;
// - after any other statement (or after the .endmacro that ended a macro's buffer: from the line
//   of the call that made it), the next line names the macro whose buffer this is.
// - a buffer made after those, before any statement was parsed in them, comes from a macro called
//   first thing in the buffer made before it (a macro whose body starts with a macro call).
// Each holds only when LLVM made no other buffer between (its buffer count when that statement
// was parsed). False when the text says anything else; LLVM is then asked.
bool CollectingStreamer::inferExpansions(unsigned bufferId, std::vector<const char*>& chain)
{
    const auto entry = bufferEntries_.find(bufferId);
    if (entry == bufferEntries_.end())
        return false;
    const SeenStatement before = entry->second;
    bufferEntries_.erase(entry);
    if (!before.loc || before.kind == StatementKind::Unsafe)
        return false;
    const unsigned first = before.buffersBefore + 1; // the first buffer made after that statement
    if (bufferId < first)
        return false;
    std::vector<const char*> outer;
    if (before.kind == StatementKind::Repeat) {
        if (!knownExpansions(before.buffer, outer) || !sources->getMemoryBuffer(first)->getBuffer().ends_with(".endr\n"))
            return false;
        chain.assign(1, before.loc);
        chain.insert(chain.end(), outer.begin(), outer.end());
        return callsFirstThing(first, bufferId, chain);
    }
    if (!sources->getMemoryBuffer(first)->getBuffer().ends_with(".endmacro\n"))
        return false;
    unsigned buffer = before.buffer;
    const llvm::StringRef beforeText = sources->getMemoryBuffer(buffer)->getBuffer();
    const char* from = before.loc;
    if (before.kind == StatementKind::Closing) {
        // A macro's buffer ended: the parser went on after the call that made it.
        std::vector<const char*> ended;
        if (!beforeText.ends_with(".endmacro\n") || !knownExpansions(buffer, ended) || ended.empty())
            return false;
        from = ended.front();
        buffer = sources->findBuffer(from);
        if (!buffer)
            return false;
    }
    const char* end = sources->getMemoryBuffer(buffer)->getBufferEnd();
    if (before.kind == StatementKind::Label) {
        // Past the label's name and its colon; the line may go on with the call.
        while (from < end && isIdentifierChar(*from))
            ++from;
        while (from < end && (*from == ' ' || *from == '\t'))
            ++from;
        if (from >= end || *from != ':')
            return false;
        ++from;
    } else {
        // The statement ends at the first line end outside a string or block comment it opened
        // (the shape pass's runs hold their lines in a comment after their .skip).
        bool inString = false, inComment = false;
        do {
            const void* newline = std::memchr(from, '\n', std::size_t(end - from));
            if (!newline)
                return false;
            carryOpenSpans(std::string_view(from, std::size_t(static_cast<const char*>(newline) - from)), inString, inComment);
            from = static_cast<const char*>(newline);
        } while ((inString || inComment) && ++from < end);
    }
    const char* call = nextMacroCall(buffer, from);
    if (!call || !knownExpansions(buffer, outer))
        return false;
    chain.assign(1, call);
    chain.insert(chain.end(), outer.begin(), outer.end());
    return callsFirstThing(first, bufferId, chain);
}

// `chain` holds buffer `from`'s instantiations; each buffer after it up to `to` is a macro's, called
// on the first line of the one before: their lists follow, and `chain` ends as `to`'s. The ones
// between are remembered (their later statements need them).
bool CollectingStreamer::callsFirstThing(unsigned from, unsigned to, std::vector<const char*>& chain)
{
    for (unsigned id = from + 1; id <= to; ++id) {
        const llvm::MemoryBuffer* caller = sources->getMemoryBuffer(id - 1);
        if (!sources->getMemoryBuffer(id)->getBuffer().ends_with(".endmacro\n"))
            return false;
        const char* call = nextMacroCall(id - 1, caller->getBufferStart());
        if (!call)
            return false;
        expansions_.try_emplace(id - 1, chain);
        chain.insert(chain.begin(), call);
    }
    return true;
}

int mainLineOf(const IndexedSourceMgr& sources, llvm::SMLoc loc)
{
    if (!loc.isValid())
        return 0;
    unsigned buffer = sources.findBuffer(loc);
    while (buffer > 1) {
        const llvm::SMLoc parent = sources.getParentIncludeLoc(buffer);
        if (!parent.isValid())
            return 0;
        loc = parent;
        buffer = sources.findBuffer(loc);
    }
    return buffer == 1 ? int(sources.lineNumber(loc.getPointer(), 1)) : 0;
}

void handleDiagnostic(const llvm::SMDiagnostic& d, void* contextPtr)
{
    auto* context = static_cast<DiagnosticContext*>(contextPtr);
    const IndexedSourceMgr& sources = *context->sources;
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
            bufferLine = int(sources.lineNumber(loc.getPointer(), sources.findBuffer(loc)));
    }
    RawDiagnostic raw;
    raw.severity = d.getKind() == llvm::SourceMgr::DK_Error ? Severity::Error
        : d.getKind() == llvm::SourceMgr::DK_Warning        ? Severity::Warning
                                                            : Severity::Note;
    raw.bufferId = loc.isValid() ? sources.findBuffer(loc) : 0;
    raw.bufferLine = bufferLine;
    raw.column = d.getLoc().isValid() ? std::max(0, d.getColumnNo()) : -1; // -1: the statement's start
    raw.loc = loc.getPointer();
    raw.message = d.getMessage().str();
    context->diagnostics->push_back(std::move(raw));

    // An instruction line that failed: reserve room once per statement (program.h), not once per
    // run of errors on it. An error LLVM reports once every statement is read (an undefined "1f")
    // comes back to a statement after others: whether it got a second room at the end of the
    // code hung on which statement had failed last (fuzz_frontend 94288133, de542d01).
    if (raw.severity == Severity::Error && loc.isValid()) {
        const RawDiagnostic& stored = context->diagnostics->back();
        const std::uint64_t statement = std::uint64_t(stored.bufferId) << 32 | std::uint32_t(stored.bufferLine);
        if (SourceMap::statementIsInstruction(d.getLineContents().str())
            && context->placeholderStatements.insert(statement).second)
            context->streamer->addPlaceholder(int(context->diagnostics->size()) - 1, stored.bufferId, stored.loc);
    }
}

} // namespace gcnlens::detail
