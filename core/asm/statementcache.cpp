// SPDX-License-Identifier: MIT
// LLVM's AMDGPU parser behind a wrapper that remembers the instruction each statement became, by the
// statement's text after macro and .rept expansion and the values of the symbols it names (issue
// #18). Real kernels are mostly macro and .rept output, which the shape pass never sees (it reads
// the source's own lines), and most of those statements repeat: in the MIOpen igemm kernels, 85-91%
// of the instructions are repeats of an earlier one. A repeated statement skips LLVM's operand
// parser and matcher (a fifth of such a kernel's listing) and the lexer moves past its line; the
// remembered MCInst goes to the streamer as the matcher would have sent it. Most of the rest differ
// from an earlier statement only in register numbers and integer operands (a .rept counter or a
// macro argument in a register's brackets or an offset): statements are keyed by their shape
// first, as the shape pass keys plain lines (shapes.cpp), and made from the first one's MCInst with
// their own registers and values put in; a statement without a readable shape is keyed by its
// text. tst_shapes, check_shapes and fuzz_frontend compare every field with each off
// (FastPaths::statementCache, statementShapes).
#include "core/asm/fastpaths.h"
#include "core/asm/linescan_p.h"
#include "core/asm/printedshape_p.h"
#include "core/asm/shapes_p.h"
#include "core/asm/streamer_p.h"
#include "core/support/hash.h"
#include "core/support/text.h"

#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCExpr.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCParser/AsmLexer.h>
#include <llvm/MC/MCParser/MCAsmLexer.h>
#include <llvm/MC/MCParser/MCParsedAsmOperand.h>
#include <llvm/MC/MCSymbol.h>

#include <algorithm>
#include <array>
#include <charconv>
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

// A register index or an integer operand as LLVM's parser reads it (an absolute expression):
// decimal and 0x integers, names of symbols whose value is a constant (which LLVM inlines without
// marking them used), unary minus, + - * / % (at the precedences of GNU as, which LLVM's parser
// follows) and parentheses. False for anything else, which leaves the text to LLVM.
class ConstantExpression {
public:
    ConstantExpression(std::string_view text, llvm::MCContext& context)
        : text_(text)
        , context_(context)
    {
    }
    bool evaluate(std::int64_t& value)
    {
        if (!sum(value))
            return false;
        skipSpaces();
        return at_ == text_.size();
    }

private:
    // Bounded well inside int64, so no step can overflow (operands are 32-bit; a 64-bit value
    // is read as an exact key's text instead).
    static bool inRange(std::int64_t v) { return v > -(std::int64_t(1) << 40) && v < (std::int64_t(1) << 40); }
    void skipSpaces()
    {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t'))
            ++at_;
    }
    bool sum(std::int64_t& value)
    {
        if (!product(value))
            return false;
        for (;;) {
            skipSpaces();
            if (at_ >= text_.size() || (text_[at_] != '+' && text_[at_] != '-'))
                return true;
            const bool minus = text_[at_++] == '-';
            std::int64_t rhs = 0;
            if (!product(rhs))
                return false;
            value = minus ? value - rhs : value + rhs;
            if (!inRange(value))
                return false;
        }
    }
    bool product(std::int64_t& value)
    {
        if (!unary(value))
            return false;
        for (;;) {
            skipSpaces();
            if (at_ >= text_.size() || (text_[at_] != '*' && text_[at_] != '/' && text_[at_] != '%'))
                return true;
            const char op = text_[at_++];
            std::int64_t rhs = 0;
            if (!unary(rhs) || (op != '*' && rhs == 0))
                return false; // (LLVM's division by zero is an error)
            if (op == '*' && (rhs > (std::int64_t(1) << 22) || rhs < -(std::int64_t(1) << 22)) && value != 0)
                return false; // (the product could leave int64 before the range check)
            value = op == '*' ? value * rhs : op == '/' ? value / rhs : value % rhs; // (truncating, as MCExpr's)
            if (!inRange(value))
                return false;
        }
    }
    bool unary(std::int64_t& value)
    {
        skipSpaces();
        if (++depth_ > kMaxDepth)
            return false; // (a pasted line of a million '(' or '-' must not exhaust the stack)
        bool read = false;
        if (at_ < text_.size() && text_[at_] == '-') {
            ++at_;
            read = unary(value);
            value = -value;
        } else {
            read = primary(value);
        }
        --depth_;
        return read;
    }
    bool primary(std::int64_t& value)
    {
        skipSpaces();
        if (at_ >= text_.size())
            return false;
        const char c = text_[at_];
        if (c == '(') {
            ++at_;
            if (!sum(value))
                return false;
            skipSpaces();
            return at_ < text_.size() && text_[at_++] == ')';
        }
        const std::size_t begin = at_;
        while (at_ < text_.size() && isIdentifierChar(text_[at_]))
            ++at_;
        const std::string_view word = text_.substr(begin, at_ - begin);
        if (word.empty())
            return false;
        if (isAsciiDigit(c)) { // decimal and 0x: 0b, octal and radix suffixes go to LLVM
            std::string_view digits = word;
            int base = 10;
            if (word.size() > 2 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
                digits.remove_prefix(2);
                base = 16;
            } else if (word.size() > 1 && word[0] == '0') {
                return false;
            }
            if (digits.size() > 9)
                return false;
            const auto [last, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
            return ec == std::errc() && last == digits.data() + digits.size();
        }
        if (word == "." || (at_ < text_.size() && text_[at_] == '('))
            return false;
        const llvm::MCSymbol* symbol = context_.lookupSymbol(llvm::StringRef(word.data(), word.size()));
        if (!symbol || !symbol->isVariable())
            return false;
        const auto* constant = llvm::dyn_cast<llvm::MCConstantExpr>(symbol->getVariableValue(false));
        if (!constant || !inRange(constant->getValue()))
            return false;
        value = constant->getValue();
        return true;
    }

    static constexpr int kMaxDepth = 64; // nested unary minus and parentheses
    std::string_view text_;
    llvm::MCContext& context_;
    std::size_t at_ = 0;
    int depth_ = 0;
};

// What a directive is to CollectingStreamer::noteStatement.
CollectingStreamer::StatementKind statementKind(llvm::StringRef directive)
{
    using Kind = CollectingStreamer::StatementKind;
    for (const char* repeat : {".rept", ".rep", ".irp", ".irpc"})
        if (directive.equals_insensitive(repeat))
            return Kind::Repeat;
    for (const char* closing : {".endr", ".endm", ".endmacro"})
        if (directive.equals_insensitive(closing))
            return Kind::Closing;
    for (const char* unsafe : {".macro", ".exitm", ".include", ".incbin", ".end"})
        if (directive.equals_insensitive(unsafe))
            return Kind::Unsafe;
    return Kind::Plain;
}

class StatementCache final : public llvm::MCTargetAsmParser {
    // LLVM's parser raises these to one past the highest register each statement names (code
    // object v3 and later): their values before a statement are in its key, and after it, in
    // what is remembered, so a remembered statement moves them as parsing it would have.
    static constexpr std::array<const char*, 2> kCounters {".amdgcn.next_free_vgpr", ".amdgcn.next_free_sgpr"};
    struct Remembered {
        llvm::MCInst inst;
        std::array<std::int64_t, kCounters.size()> countersAfter {};
    };
    // A statement's instruction with its registers and values as slots: operand `operand` is the
    // line's register or value `token` (shapeKeyOf's order).
    struct Shape {
        llvm::MCInst inst;
        struct Slot {
            unsigned operand;
            std::uint32_t token;
        };
        std::vector<Slot> slots;  // registers: `token` indexes shapeRegisters_
        std::vector<Slot> values; // immediates: `token` indexes shapeValues_
        PrintedShape printed;     // its statements' text, once known
    };

public:
    StatementCache(std::unique_ptr<llvm::MCTargetAsmParser> inner, CollectingStreamer& streamer,
                   const std::vector<RawDiagnostic>& diagnostics, const IndexedSourceMgr& sources, TargetKit& kit)
        : MCTargetAsmParser(kit.targetOptions, *kit.subtargetInfo, *kit.instrInfo)
        , inner_(std::move(inner))
        , streamer_(streamer)
        , diagnostics_(diagnostics)
        , sources_(sources)
        , hsa_(kit.triple.getOS() == llvm::Triple::AMDHSA)
        , kit_(kit)
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
        streamer_.noteStatement(nameLoc, CollectingStreamer::StatementKind::Plain);
        pending_ = nullptr;
        replayedShape_ = nullptr;
        learning_ = false;
        shapeKnown_ = false;
        exactKnown_ = false;
        if (!fastPaths().statementCache || !locate(nameLoc))
            return inner_->ParseInstruction(info, name, nameLoc, operands);
        if (fastPaths().statementShapes && shapeKeyOf()) {
            shapeKnown_ = true;
            if (const auto it = shapes_.find(shapeKey_); it != shapes_.end() && replayShape(it->second)) {
                skipStatement();
                pending_ = &shapeReplay_;
                replayedShape_ = &it->second;
                ++streamer_.statementsFromShapes;
                return false;
            }
        }
        if (keyOf()) {
            exactKnown_ = true;
            if (const auto it = remembered_.find(key_); it != remembered_.end()) {
                skipStatement();
                pending_ = &it->second;
                ++streamer_.statementsReplayed;
                return false;
            }
        }
        learning_ = shapeKnown_ || exactKnown_;
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
            if (replayedShape_ && fastPaths().printedShapes && replayedShape_->printed.state() != PrintedShape::State::Refused) {
                ShapeText text(replayedShape_->printed, tokens_, &StatementCache::readTokens, this, written_);
                streamer_.textSource = &text;
                out.emitInstruction(inst, inner_->getSTI());
                streamer_.textSource = nullptr;
            } else {
                out.emitInstruction(inst, inner_->getSTI());
            }
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
        if (remembered_.size() >= kCapacity) {
            remembered_.clear(); // (a kernel of a million distinct statements keeps bounded tables)
            shapes_.clear();
        }
        // A statement with a shape is remembered by it alone: its exact text then only ever meets
        // the shape first.
        if ((!shapeKnown_ || !learnShape(remembered)) && exactKnown_)
            remembered_.emplace(std::move(key_), std::move(remembered));
        return failed;
    }

    llvm::ParseStatus parseDirective(llvm::AsmToken directive) override
    {
        streamer_.noteStatement(directive.getLoc(), statementKind(directive.getString()));
        if (!keepsStatements(std::string_view(directive.getString().data(), directive.getString().size()))) {
            remembered_.clear();
            shapes_.clear();
        }
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
    void doBeforeLabelEmit(llvm::MCSymbol* symbol, llvm::SMLoc loc) override
    {
        streamer_.noteStatement(loc, CollectingStreamer::StatementKind::Label);
        inner_->doBeforeLabelEmit(symbol, loc);
    }
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
    // Finds the statement's line (line_, statementBuffer_, statementEnd_) and the register
    // counters before it. False (nothing remembered or replayed) for any triple but amdhsa, whose
    // parser counts registers in state of its own (KernelScopeInfo), and when the counters are
    // not constants.
    bool locate(llvm::SMLoc nameLoc)
    {
        const char* begin = nameLoc.getPointer();
        const unsigned buffer = begin ? sources_.findBuffer(nameLoc) : 0;
        if (!buffer || !hsa_)
            return false;
        const llvm::StringRef bufferText = sources_.getMemoryBuffer(buffer)->getBuffer();
        const char* bufferEnd = bufferText.end();
        const char* end = static_cast<const char*>(std::memchr(begin, '\n', std::size_t(bufferEnd - begin)));
        line_ = std::string_view(begin, std::size_t((end ? end : bufferEnd) - begin));
        statementBuffer_ = bufferText;
        statementEnd_ = end && line_.find("/*") == std::string_view::npos ? end : nullptr;
        for (std::size_t c = 0; c < kCounters.size(); ++c) {
            if (!counters_[c]) // (a symbol, once made, lives as long as the context)
                counters_[c] = getContext().lookupSymbol(kCounters[c]);
            if (!counters_[c] || !counters_[c]->isVariable()
                || !counters_[c]->getVariableValue(false)->evaluateAsAbsolute(countersBefore_[c]))
                return false;
        }
        return true;
    }

    // key_: the statement's line from its mnemonic, the register counters, then the value of each
    // name in it that is a symbol. False (not remembered) when a name is a symbol without a
    // constant value now (a label, an undefined or relocatable symbol) or `.`.
    bool keyOf()
    {
        const std::string_view line = line_;
        llvm::MCContext& context = getContext();
        key_.assign(line);
        key_ += '\n';
        for (std::size_t c = 0; c < kCounters.size(); ++c) {
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

    // Past the statement's operands and its end, to where the target's parser would leave the
    // lexer. The statement ends at its line's end (a line comment is part of it), so the lexer
    // restarts there instead of reading the tokens one by one (a tenth of a macro-heavy kernel's
    // run): the newline gives the end-of-statement token that the last Lex() reads past. A line
    // that opens a block comment, or ends its buffer without a newline, takes the tokens.
    void skipStatement()
    {
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
    }

    // shapeKey_: the statement's line with each VGPR, SGPR or AGPR operand (v7, s[4:7], v[v_c+2],
    // a[n:n+3]) replaced by its kind, width, alignment and overlap with the registers before it,
    // as the shape pass keys plain lines (shapes.cpp, lineShape), and every other name that is a
    // symbol followed by its value. shapeRegisters_: those registers, in order. False, as keyOf,
    // for a name that is a symbol without a constant value, `.` or a string; and when a
    // register's index is not an expression ConstantExpression reads or is past the register file
    // (LLVM's diagnostic is then needed), or the line has a block comment (in which a register
    // would be text).
    bool shapeKeyOf()
    {
        if (!statementEnd_)
            return false;
        const std::string_view line = line_;
        llvm::MCContext& context = getContext();
        shapeKey_.clear();
        shapeRegisters_.clear();
        shapeValues_.clear();
        std::size_t i = 0;
        while (i < line.size() && isIdentifierChar(line[i]))
            ++i;
        shapeKey_.append(line.substr(0, i)); // the mnemonic
        while (i < line.size()) {
            const char c = line[i];
            if (c == ';' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/'))
                break;
            if (c == '"')
                return false;
            if (valueOperand(line, i))
                continue;
            if (isAsciiDigit(c)) { // a number, with its radix letters and suffixes, as text
                const std::size_t start = i;
                while (i < line.size() && isIdentifierChar(line[i]))
                    ++i;
                shapeKey_.append(line.substr(start, i - start));
                continue;
            }
            if (!isIdentifierChar(c)) {
                if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r')
                    return false; // (the key's own markers are control characters)
                shapeKey_ += c;
                ++i;
                continue;
            }
            const std::size_t start = i;
            while (i < line.size() && isIdentifierChar(line[i]))
                ++i;
            const std::string_view word = line.substr(start, i - start);
            if (word == ".")
                return false;
            RegRange reg;
            bool isRegister = false;
            if (!registerToken(line, start, i, reg, isRegister))
                return false;
            if (isRegister) {
                appendRegisterShape(shapeKey_, reg.kind, int(reg.first), int(reg.count), shapeRegisters_);
                shapeRegisters_.push_back(reg);
                continue;
            }
            const llvm::MCSymbol* symbol = context.lookupSymbol(llvm::StringRef(word.data(), word.size()));
            shapeKey_.append(word);
            if (symbol) { // (keyOf made sure it has a constant value)
                std::int64_t value = 0;
                if (!symbol->isVariable() || !symbol->getVariableValue(false)->evaluateAsAbsolute(value))
                    return false;
                shapeKey_ += '=';
                shapeKey_ += std::to_string(value);
                shapeKey_ += ' ';
            }
        }
        return true;
    }

    // A whole operand at line[at] that is an integer expression with an operator or a number
    // (offset:1024, offset:\\base+256, 0x3f800001+i*3 after expansion): its value enters the key
    // as the shape pass's value classes do (shapes.cpp, valueToken), its bit length and low two
    // bits, and goes to shapeValues_; a value that may be an inline constant, is negative or wider
    // than 32 bits enters as itself. Moves `at` past it; false (nothing read) for anything else.
    bool valueOperand(std::string_view line, std::size_t& at)
    {
        const auto separator = [](char c) { return c == ' ' || c == '\t' || c == ',' || c == ':'; };
        if (at == 0 || !separator(line[at - 1]) || !(isIdentifierChar(line[at]) || line[at] == '('))
            return false;
        std::size_t end = at;
        bool withOperator = false;
        for (; end < line.size(); ++end) {
            const char c = line[end];
            if (c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '(' || c == ')')
                withOperator = true;
            else if (!isIdentifierChar(c))
                break;
        }
        if (!withOperator && !isAsciiDigit(line[at]))
            return false; // a lone name: a flag, a register or a symbol, read by the word path
        if (end < line.size() && line[end] != ' ' && line[end] != '\t' && line[end] != ',' && line[end] != ';'
            && line[end] != '\r')
            return false;
        std::int64_t value = 0;
        if (!ConstantExpression(line.substr(at, end - at), getContext()).evaluate(value))
            return false;
        if (value < 0 || value > 0xffffffff || mayBeInlineConstant(std::uint64_t(value))) {
            shapeKey_ += '\x03';
            shapeKey_ += std::to_string(value);
            shapeKey_ += '\x04';
        } else {
            appendValueClass(shapeKey_, std::uint64_t(value));
            shapeValues_.push_back(value);
        }
        at = end;
        return true;
    }

    // Whether the word line[start, wordEnd) begins a VGPR/SGPR/AGPR operand: "v7" alone, or "v"
    // (or "s", "a") right before '['. On a register, moves wordEnd past it (past the ']') and
    // fills reg. False only for a register this pass cannot read, which leaves the line to LLVM.
    bool registerToken(std::string_view line, std::size_t start, std::size_t& wordEnd, RegRange& reg, bool& isRegister)
    {
        const char prefix = line[start];
        isRegister = false;
        if (prefix != 'v' && prefix != 's' && prefix != 'a')
            return true;
        reg.kind = prefix == 'v' ? RegKind::VGPR : prefix == 's' ? RegKind::SGPR : RegKind::AGPR;
        const int limit = reg.kind == RegKind::SGPR ? 101 : 255; // (the shape pass's bounds)
        std::int64_t first = 0, last = 0;
        if (wordEnd == start + 1 && wordEnd < line.size() && line[wordEnd] == '[') {
            const std::size_t close = line.find(']', wordEnd);
            if (close == std::string_view::npos)
                return false;
            const std::string_view inside = line.substr(wordEnd + 1, close - wordEnd - 1);
            if (inside.find('[') != std::string_view::npos)
                return false;
            const std::size_t colon = inside.find(':');
            if (!ConstantExpression(inside.substr(0, colon), getContext()).evaluate(first))
                return false;
            last = first;
            if (colon != std::string_view::npos && !ConstantExpression(inside.substr(colon + 1), getContext()).evaluate(last))
                return false;
            wordEnd = close + 1;
        } else {
            const std::string_view digits = line.substr(start + 1, wordEnd - start - 1);
            if (digits.empty() || digits.size() > 3 || (digits[0] == '0' && digits.size() > 1)
                || !std::all_of(digits.begin(), digits.end(), [](char d) { return isAsciiDigit(d); }))
                return true; // a name (s_tmp, vcc, v_c, a16, v007…), not a register this pass reads
            std::from_chars(digits.data(), digits.data() + digits.size(), first);
            last = first;
        }
        if (first < 0 || last < first || last > limit)
            return false;
        reg.first = std::uint32_t(first);
        reg.count = std::uint32_t(last - first + 1);
        isRegister = true;
        return true;
    }

    // The counters after a statement whose registers are shapeRegisters_, as LLVM's parser moves
    // them: each VGPR or SGPR it parses raises its counter to one past its last register
    // (AMDGPUAsmParser::updateGprCountSymbols; AGPRs have no counter).
    std::array<std::int64_t, 2> countersAfterShape() const
    {
        std::array<std::int64_t, 2> after = countersBefore_;
        for (const RegRange& reg : shapeRegisters_)
            if (reg.kind == RegKind::VGPR || reg.kind == RegKind::SGPR) {
                auto& counter = after[reg.kind == RegKind::VGPR ? 0 : 1];
                counter = std::max<std::int64_t>(counter, reg.first + reg.count);
            }
        return after;
    }

    // This statement's registers and values, for its ShapeText.
    static void readTokens(const void* context, ShapeTokens& tokens)
    {
        const auto& cache = *static_cast<const StatementCache*>(context);
        tokens.read(cache.shapeRegisters_, cache.shapeValues_); // (each value is 0..0xffffffff)
    }

    // Learns the shape of the statement LLVM just made `remembered` of, when every register
    // operand of its MCInst is exactly one of the line's registers and every one of those is an
    // operand (the shape pass's test), and the counters moved as countersAfterShape says.
    bool learnShape(const Remembered& remembered)
    {
        if (shapes_.contains(shapeKey_) || remembered.countersAfter != countersAfterShape())
            return false;
        Shape shape {remembered.inst, {}, {}, {}};
        std::vector<bool> used(shapeRegisters_.size(), false);
        for (unsigned i = 0; i < remembered.inst.getNumOperands(); ++i) {
            const llvm::MCOperand& op = remembered.inst.getOperand(i);
            if (!op.isReg() || !op.getReg())
                continue;
            const auto& range = kit_.reg(op.getReg());
            if (!range || (range->kind != RegKind::VGPR && range->kind != RegKind::SGPR && range->kind != RegKind::AGPR))
                continue; // fixed text (vcc, exec, m0, ttmp…): the same in every statement of the shape
            const auto match = std::find(shapeRegisters_.begin(), shapeRegisters_.end(), *range);
            if (match == shapeRegisters_.end()
                || kit_.registerNamed(range->kind, int(range->first), int(range->count)) != op.getReg())
                return false;
            const auto token = std::size_t(match - shapeRegisters_.begin());
            shape.slots.push_back({i, std::uint32_t(token)});
            for (std::size_t t = 0; t < shapeRegisters_.size(); ++t)
                used[t] = used[t] || shapeRegisters_[t] == *range;
        }
        if (!std::all_of(used.begin(), used.end(), [](bool u) { return u; }))
            return false;
        // Each value must be exactly one immediate operand holding exactly that value (not
        // scaled, negated or split by the parser), and no two may share a value.
        for (std::size_t t = 0; t < shapeValues_.size(); ++t) {
            if (std::count(shapeValues_.begin(), shapeValues_.end(), shapeValues_[t]) > 1)
                return false;
            int matches = 0;
            for (unsigned i = 0; i < remembered.inst.getNumOperands(); ++i)
                if (remembered.inst.getOperand(i).isImm() && remembered.inst.getOperand(i).getImm() == shapeValues_[t]) {
                    ++matches;
                    shape.values.push_back({i, std::uint32_t(t)});
                }
            if (matches != 1)
                return false;
        }
        shapes_.emplace(std::move(shapeKey_), std::move(shape));
        return true;
    }

    // The instruction of this statement, from its shape's: false if a register has no LLVM name.
    bool replayShape(const Shape& shape)
    {
        shapeReplay_.inst = shape.inst;
        for (const auto& slot : shape.slots) {
            const RegRange& reg = shapeRegisters_[slot.token];
            const unsigned id = kit_.registerNamed(reg.kind, int(reg.first), int(reg.count));
            if (!id)
                return false;
            shapeReplay_.inst.getOperand(slot.operand).setReg(id);
        }
        for (const auto& slot : shape.values)
            shapeReplay_.inst.getOperand(slot.operand).setImm(shapeValues_[slot.token]);
        shapeReplay_.countersAfter = countersAfterShape();
        return true;
    }

    std::unique_ptr<llvm::MCTargetAsmParser> inner_;
    CollectingStreamer& streamer_;
    const std::vector<RawDiagnostic>& diagnostics_;
    const IndexedSourceMgr& sources_;
    const bool hsa_; // the amdhsa triple: the only one whose register counting is in symbols
    TargetKit& kit_;
    static constexpr std::size_t kCapacity = std::size_t(1) << 16; // about 15 MB
    std::unordered_map<std::string, Remembered, TextHash> remembered_;
    std::string key_;
    std::string_view line_; // the statement's line, keyOf's
    std::unordered_map<std::string, Shape, TextHash> shapes_;
    std::string shapeKey_;
    std::vector<RegRange> shapeRegisters_;
    std::vector<std::int64_t> shapeValues_;
    bool shapeKnown_ = false;        // shapeKey_ and shapeRegisters_ are this statement's
    bool exactKnown_ = false;        // key_ is
    Remembered shapeReplay_;         // the statement made from its shape
    Shape* replayedShape_ = nullptr; // the shape it was made from (nodes stay put)
    ShapeTokens tokens_;             // a replayed statement's, for its ShapeText
    std::string written_;
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
