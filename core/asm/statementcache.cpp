// SPDX-License-Identifier: MIT
// LLVM's AMDGPU parser behind a wrapper that remembers the instruction each statement became, by the
// statement's text after macro and .rept expansion and the values of the symbols it names (issue
// #18). Real kernels are mostly macro and .rept output, which the shape pass never sees (it reads
// the source's own lines), and most of those statements repeat: in the MIOpen igemm kernels, 85-91%
// of the instructions are repeats of an earlier one. A repeated statement skips LLVM's operand
// parser and matcher (a fifth of such a kernel's listing) and the lexer moves past its line; the
// remembered MCInst goes to the streamer as the matcher would have sent it. tst_shapes,
// check_shapes and fuzz_frontend compare every field with the cache off (FastPaths::statementCache).
#include "core/asm/streamer_p.h"

#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCParser/AsmLexer.h>
#include <llvm/MC/MCParser/MCAsmLexer.h>
#include <llvm/MC/MCParser/MCParsedAsmOperand.h>
#include <llvm/MC/MCSymbol.h>

#include <array>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace gcnlens::detail {

namespace {

// Directives after which a remembered statement still parses the same: they define symbols (whose
// values are part of the key), repeat or skip text, place data, or name sections. Any other (the
// AMDGPU target's, or one this list does not know) forgets every statement.
bool keepsStatements(std::string_view directive)
{
    static constexpr std::array<std::string_view, 72> kSafe {
        ".set",   ".equ",    ".equiv",    ".eqv",      ".rept",    ".rep",     ".endr",        ".irp",        ".irpc",
        ".if",    ".ifdef",  ".ifndef",   ".ifnotdef", ".ifb",     ".ifnb",    ".ifc",         ".ifnc",       ".ifeq",
        ".ifeqs", ".ifne",   ".ifnes",    ".ifgt",     ".ifge",    ".iflt",    ".ifle",        ".else",       ".elseif",
        ".endif", ".macro",  ".endm",     ".endmacro", ".purgem",  ".exitm",   ".altmacro",    ".noaltmacro", ".p2align",
        ".align", ".balign", ".p2alignl", ".p2alignw", ".balignl", ".balignw", ".text",        ".section",    ".previous",
        ".globl", ".global", ".local",    ".weak",     ".type",    ".size",    ".ident",       ".long",       ".int",
        ".short", ".byte",   ".word",     ".quad",     ".4byte",   ".2byte",   ".8byte",       ".skip",       ".space",
        ".fill",  ".zero",   ".print",    ".data",     ".rodata",  ".bss",     ".pushsection", ".popsection", ".subsection"};
    for (const std::string_view safe : kSafe)
        if (llvm::StringRef(directive.data(), directive.size()).equals_insensitive(llvm::StringRef(safe.data(), safe.size())))
            return true;
    return false;
}

class StatementCache final : public llvm::MCTargetAsmParser {
public:
    StatementCache(std::unique_ptr<llvm::MCTargetAsmParser> inner, CollectingStreamer& streamer,
                   const std::vector<RawDiagnostic>& diagnostics, const IndexedSourceMgr& sources, TargetKit& kit)
        : MCTargetAsmParser(kit.targetOptions, *kit.subtargetInfo, *kit.instrInfo)
        , inner_(std::move(inner))
        , streamer_(streamer)
        , diagnostics_(diagnostics)
        , sources_(sources)
        , hsa_(kit.triple.getOS() == llvm::Triple::AMDHSA)
    {
    }

    void Initialize(llvm::MCAsmParser& parser) override
    {
        MCAsmParserExtension::Initialize(parser);
        inner_->Initialize(parser);
    }

    using MCTargetAsmParser::ParseInstruction;
    bool ParseInstruction(llvm::ParseInstructionInfo& info, llvm::StringRef name, llvm::SMLoc nameLoc,
                          llvm::OperandVector& operands) override
    {
        pending_ = nullptr;
        learning_ = false;
        if (!fastPaths().statementCache || !keyOf(nameLoc))
            return inner_->ParseInstruction(info, name, nameLoc, operands);
        if (const auto it = remembered_.find(key_); it != remembered_.end()) {
            // Past the operands and the end of the statement, to where the target's parser would
            // leave the lexer. The statement ends at its line's end (a line comment is part of it),
            // so the lexer restarts there instead of reading the tokens one by one (a tenth of a
            // macro-heavy kernel's run): the newline gives the end-of-statement token that the
            // last Lex() reads past. A line that opens a block comment, or ends its buffer
            // without a newline, takes the tokens.
            llvm::MCAsmParser& parser = getParser();
            if (statementEnd_) {
                auto& lexer = static_cast<llvm::AsmLexer&>(parser.getLexer()); // (createMCAsmParser's)
                lexer.setBuffer(statementBuffer_, statementEnd_);
                lexer.Lex(); // the operand the parser stood on gives way to the newline's end of statement
            } else {
                while (!parser.getTok().is(llvm::AsmToken::EndOfStatement) && !parser.getTok().is(llvm::AsmToken::Eof))
                    parser.Lex();
            }
            if (parser.getTok().is(llvm::AsmToken::EndOfStatement))
                parser.Lex();
            pending_ = &it->second;
            return false;
        }
        learning_ = true;
        diagnosticsBefore_ = diagnostics_.size();
        return inner_->ParseInstruction(info, name, nameLoc, operands);
    }

    bool MatchAndEmitInstruction(llvm::SMLoc idLoc, unsigned& opcode, llvm::OperandVector& operands, llvm::MCStreamer& out,
                                 uint64_t& errorInfo, bool matchingInlineAsm) override
    {
        if (pending_) {
            llvm::MCInst inst = pending_->inst;
            for (std::size_t c = 0; c < kCounters.size(); ++c)
                if (pending_->countersAfter[c] != countersBefore_[c])
                    counters_[c]->setVariableValue(llvm::MCConstantExpr::create(pending_->countersAfter[c], getContext()));
            pending_ = nullptr;
            inst.setLoc(idLoc);
            opcode = inst.getOpcode();
            out.emitInstruction(inst, inner_->getSTI());
            return false;
        }
        if (!learning_)
            return inner_->MatchAndEmitInstruction(idLoc, opcode, operands, out, errorInfo, matchingInlineAsm);
        learning_ = false;
        llvm::MCInst emitted;
        const std::uint64_t before = streamer_.instructionsSeen;
        streamer_.capture = &emitted;
        const bool failed = inner_->MatchAndEmitInstruction(idLoc, opcode, operands, out, errorInfo, matchingInlineAsm);
        streamer_.capture = nullptr;
        // Remembered only when LLVM said nothing about it, emitted one instruction, and that
        // instruction holds registers and numbers alone (an expression may depend on where it is).
        if (failed || streamer_.instructionsSeen != before + 1 || diagnostics_.size() != diagnosticsBefore_
            || getParser().hasPendingError())
            return failed;
        for (const llvm::MCOperand& op : emitted)
            if (!op.isReg() && !op.isImm() && !op.isSFPImm() && !op.isDFPImm())
                return failed;
        Remembered remembered {emitted, {}};
        for (std::size_t c = 0; c < kCounters.size(); ++c)
            if (!counters_[c]->isVariable()
                || !counters_[c]->getVariableValue(false)->evaluateAsAbsolute(remembered.countersAfter[c]))
                return failed;
        if (remembered_.size() >= kCapacity)
            remembered_.clear(); // (a kernel of a million distinct statements keeps a bounded table)
        remembered_.emplace(std::move(key_), std::move(remembered));
        return failed;
    }

    llvm::ParseStatus parseDirective(llvm::AsmToken directive) override
    {
        if (!keepsStatements(std::string_view(directive.getString().data(), directive.getString().size())))
            remembered_.clear();
        return inner_->parseDirective(directive);
    }
    bool ParseDirective(llvm::AsmToken directive) override { return inner_->ParseDirective(directive); }

    // The rest as the target's own.
    bool parsePrimaryExpr(const llvm::MCExpr*& result, llvm::SMLoc& endLoc) override
    {
        return inner_->parsePrimaryExpr(result, endLoc);
    }
    bool parseRegister(llvm::MCRegister& reg, llvm::SMLoc& start, llvm::SMLoc& end) override
    {
        return inner_->parseRegister(reg, start, end);
    }
    llvm::ParseStatus tryParseRegister(llvm::MCRegister& reg, llvm::SMLoc& start, llvm::SMLoc& end) override
    {
        return inner_->tryParseRegister(reg, start, end);
    }
    bool OmitRegisterFromClobberLists(unsigned reg) override { return inner_->OmitRegisterFromClobberLists(reg); }
    unsigned validateTargetOperandClass(llvm::MCParsedAsmOperand& op, unsigned kind) override
    {
        return inner_->validateTargetOperandClass(op, kind);
    }
    unsigned checkEarlyTargetMatchPredicate(llvm::MCInst& inst, const llvm::OperandVector& operands) override
    {
        return inner_->checkEarlyTargetMatchPredicate(inst, operands);
    }
    unsigned checkTargetMatchPredicate(llvm::MCInst& inst) override { return inner_->checkTargetMatchPredicate(inst); }
    void convertToMapAndConstraints(unsigned kind, const llvm::OperandVector& operands) override
    {
        inner_->convertToMapAndConstraints(kind, operands);
    }
    bool areEqualRegs(const llvm::MCParsedAsmOperand& a, const llvm::MCParsedAsmOperand& b) const override
    {
        return inner_->areEqualRegs(a, b);
    }
    bool equalIsAsmAssignment() override { return inner_->equalIsAsmAssignment(); }
    bool isLabel(llvm::AsmToken& token) override { return inner_->isLabel(token); }
    bool starIsStartOfStatement() override { return inner_->starIsStartOfStatement(); }
    llvm::MCSymbolRefExpr::VariantKind getVariantKindForName(llvm::StringRef name) const override
    {
        return inner_->getVariantKindForName(name);
    }
    const llvm::MCExpr* applyModifierToExpr(const llvm::MCExpr* e, llvm::MCSymbolRefExpr::VariantKind kind,
                                            llvm::MCContext& context) override
    {
        return inner_->applyModifierToExpr(e, kind, context);
    }
    void doBeforeLabelEmit(llvm::MCSymbol* symbol, llvm::SMLoc loc) override { inner_->doBeforeLabelEmit(symbol, loc); }
    void onLabelParsed(llvm::MCSymbol* symbol) override { inner_->onLabelParsed(symbol); }
    void flushPendingInstructions(llvm::MCStreamer& out) override { inner_->flushPendingInstructions(out); }
    const llvm::MCExpr* createTargetUnaryExpr(const llvm::MCExpr* e, llvm::AsmToken::TokenKind op,
                                              llvm::MCContext& context) override
    {
        return inner_->createTargetUnaryExpr(e, op, context);
    }
    void onBeginOfFile() override { inner_->onBeginOfFile(); }
    void onEndOfFile() override { inner_->onEndOfFile(); }

private:
    // key_: the statement's line from its mnemonic, the register counters, then the value of each
    // name in it that is a symbol. False (not remembered) when a name is a symbol without a
    // constant value now (a label, an undefined or relocatable symbol) or `.`, and for any triple
    // but amdhsa, whose parser counts registers in state of its own (KernelScopeInfo).
    bool keyOf(llvm::SMLoc nameLoc)
    {
        const char* begin = nameLoc.getPointer();
        const unsigned buffer = begin ? sources_.findBuffer(nameLoc) : 0;
        if (!buffer || !hsa_)
            return false;
        llvm::MCContext& context = getContext();
        const llvm::StringRef bufferText = sources_.getMemoryBuffer(buffer)->getBuffer();
        const char* bufferEnd = bufferText.end();
        const char* end = static_cast<const char*>(std::memchr(begin, '\n', std::size_t(bufferEnd - begin)));
        const std::string_view line(begin, std::size_t((end ? end : bufferEnd) - begin));
        statementBuffer_ = bufferText;
        statementEnd_ = end && line.find("/*") == std::string_view::npos ? end : nullptr;
        key_.assign(line);
        key_ += '\n';
        for (std::size_t c = 0; c < kCounters.size(); ++c) {
            if (!counters_[c]) // (a symbol, once made, lives as long as the context)
                counters_[c] = context.lookupSymbol(kCounters[c]);
            if (!counters_[c] || !counters_[c]->isVariable()
                || !counters_[c]->getVariableValue(false)->evaluateAsAbsolute(countersBefore_[c]))
                return false;
            key_ += std::to_string(countersBefore_[c]);
            key_ += ' ';
        }
        for (std::size_t i = 0; i < line.size();) {
            const char c = line[i];
            if (c == ';' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/'))
                break; // a comment: nothing in it is parsed
            if (c == '"')
                return false;           // (strings are not instruction operands; leave them to LLVM)
            if (c >= '0' && c <= '9') { // a number, with its radix letters and suffixes
                while (i < line.size() && isIdentifierChar(line[i]))
                    ++i;
                continue;
            }
            if (!isIdentifierChar(c)) { // (linescan_p.h: a name as LLVM's lexer reads it)
                ++i;
                continue;
            }
            const std::size_t start = i;
            while (i < line.size() && isIdentifierChar(line[i]))
                ++i;
            const llvm::StringRef name(line.data() + start, i - start);
            if (name == ".")
                return false;
            if (start == 0)
                continue; // the mnemonic
            const llvm::MCSymbol* symbol = context.lookupSymbol(name);
            if (!symbol)
                continue; // (the text says it; a symbol of that name later makes another key)
            std::int64_t value = 0;
            if (!symbol->isVariable() || !symbol->getVariableValue(false)->evaluateAsAbsolute(value))
                return false;
            key_ += std::to_string(start);
            key_ += '=';
            key_ += std::to_string(value);
            key_ += ' ';
        }
        return true;
    }

    std::unique_ptr<llvm::MCTargetAsmParser> inner_;
    CollectingStreamer& streamer_;
    const std::vector<RawDiagnostic>& diagnostics_;
    const IndexedSourceMgr& sources_;
    const bool hsa_; // the amdhsa triple: the only one whose register counting is in symbols
    // LLVM's parser raises these to one past the highest register each statement names (code
    // object v3 and later): their values before a statement are in its key, and after it, in
    // what is remembered, so a remembered statement moves them as parsing it would have.
    static constexpr std::array<const char*, 2> kCounters {".amdgcn.next_free_vgpr", ".amdgcn.next_free_sgpr"};
    struct Remembered {
        llvm::MCInst inst;
        std::array<std::int64_t, kCounters.size()> countersAfter {};
    };
    static constexpr std::size_t kCapacity = std::size_t(1) << 16; // about 15 MB
    std::unordered_map<std::string, Remembered> remembered_;
    std::string key_;
    std::array<std::int64_t, kCounters.size()> countersBefore_ {};
    std::array<llvm::MCSymbol*, kCounters.size()> counters_ {};
    llvm::StringRef statementBuffer_;     // the buffer of the statement keyOf read,
    const char* statementEnd_ = nullptr;  // and its newline (null: the lexer reads to the end)
    const Remembered* pending_ = nullptr; // the statement being parsed is remembered: this
    bool learning_ = false;               // it is not: remember what LLVM makes of it
    std::size_t diagnosticsBefore_ = 0;
};

} // namespace

std::unique_ptr<llvm::MCTargetAsmParser> rememberStatements(std::unique_ptr<llvm::MCTargetAsmParser> inner,
                                                            CollectingStreamer& streamer,
                                                            const std::vector<RawDiagnostic>& diagnostics,
                                                            const IndexedSourceMgr& sources, TargetKit& kit)
{
    return std::make_unique<StatementCache>(std::move(inner), streamer, diagnostics, sources, kit);
}

} // namespace gcnlens::detail
