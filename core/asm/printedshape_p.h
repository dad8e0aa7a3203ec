// SPDX-License-Identifier: MIT
// A shape's printed text with holes for the line's own registers and values (issue #18).
#pragma once

#include "core/compact.h"
#include "core/program.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens::detail {

// Where an instruction's printed text may come from without running LLVM's printer (ShapeText,
// below). The streamer asks it only when the print cache does not hold the encoding, and tells it
// what the printer wrote whenever the printer ran instead.
class TextSource {
public:
    // True with the text, or false: the printer writes it.
    virtual bool text(InternedString& mnemonic, std::string_view& operands) = 0;
    virtual void printed(InternedString mnemonic, std::string_view operands) = 0;

protected:
    ~TextSource() = default;
};

// The operand text LLVM's printer writes for the lines of one shape (shapes.cpp): fixed text with
// holes where the line's own registers and values go. For a line of many distinct operands, the
// printer was the largest part of describing a shape-encoded instruction.
//
// Learnt from one line's printed text: each register token's name and each value token's hex or
// decimal spelling must be found there as a whole word, a value exactly once, and neither may
// be left anywhere in the fixed text. A hole is proven once the printer's own text for a later
// line in which it differs matched what write() gives; write() is used only for lines whose
// unproven holes are as in the learnt line (the printer writes the others, and each is a check),
// and one difference refuses the shape for good. Switched off with FastPaths::printedShapes.
class PrintedShape {
public:
    enum class State : std::uint8_t { Unlearnt, Learnt, Refused };
    State state() const { return state_; }
    InternedString mnemonic() const { return mnemonic_; }

    // A line's register tokens by the names the printer gives them ("v4", "s[8:11]"), in text order.
    using Names = std::span<const std::string_view>;

    // From a line printed by LLVM: its mnemonic and operand text, its register tokens' names and
    // its value tokens. Moves to Learnt, or to Refused when the text is not understood.
    void learn(InternedString mnemonic, std::string_view operands, Names names, std::span<const std::uint64_t> values);
    // Whether write() gives a line's text: each of its holes proven or as in the learnt line.
    bool covers(Names names, std::span<const std::uint64_t> values) const;
    // Writes a line's operand text into `out` (cleared first).
    void write(std::string& out, Names names, std::span<const std::uint64_t> values) const;
    // A line covers() declined, as write() gave it and as LLVM printed it: the holes it changed are
    // proven when the two agree; the shape is refused when they do not.
    void check(std::string_view written, InternedString mnemonic, std::string_view printed, Names names,
               std::span<const std::uint64_t> values);

private:
    enum class Hole : std::uint8_t { Register, Hex, Decimal };
    struct Part {
        std::uint32_t fixedLength; // fixed text before the hole, from fixed_
        Hole hole;
        bool proven = false;
        std::uint32_t token; // register or value token
    };
    bool sameAsLearnt(std::size_t part, Names names, std::span<const std::uint64_t> values) const;
    void appendHole(std::string& out, const Part& part, Names names, std::span<const std::uint64_t> values) const;

    State state_ = State::Unlearnt;
    InternedString mnemonic_;
    std::string fixed_; // the fixed pieces, one after another
    std::vector<Part> parts_;
    std::vector<std::string> learntHoles_; // each hole's text in the learnt line
};

// A plain register as the AMDGPU printer names it: v4, s[8:11], a[0:3] (VGPR, SGPR or AGPR). Written
// here: LLVM names a register only inside an instruction it prints (its printRegName writes the
// number). PrintedShape holds these names to the printer's own text before it writes a line.
void appendRegisterName(std::string& out, RegKind kind, int first, int count);

// A line's or statement's registers, named as the printer names them, and its values.
struct ShapeTokens {
    std::string nameText;
    std::vector<std::size_t> nameEnds;
    std::vector<std::string_view> names; // into nameText
    std::vector<std::uint64_t> values;
    // From the registers (anything with kind, first and count: the shape pass's tokens, the
    // statement cache's RegRanges) and values of one line.
    template <typename Registers, typename Values> void read(const Registers& registers, const Values& lineValues)
    {
        nameText.clear();
        nameEnds.clear();
        for (const auto& reg : registers) {
            appendRegisterName(nameText, reg.kind, int(reg.first), int(reg.count));
            nameEnds.push_back(nameText.size());
        }
        nameViews();
        values.assign(lineValues.begin(), lineValues.end());
    }

private:
    void nameViews();
};

// A line or statement of a shape as the streamer's TextSource (asked only when the print cache
// misses): its text written from the shape's printed text when that covers it, and the printer's
// text, when the printer ran, learnt or checked. Its tokens are read only when first needed.
class ShapeText final : public TextSource {
public:
    using Read = void (*)(const void* context, ShapeTokens& tokens); // tokens.read(the line's)
    ShapeText(PrintedShape& shape, ShapeTokens& tokens, Read read, const void* context, std::string& written)
        : shape_(shape)
        , tokens_(tokens)
        , read_(read)
        , context_(context)
        , written_(written)
    {
    }
    bool text(InternedString& mnemonic, std::string_view& operands) override;
    void printed(InternedString mnemonic, std::string_view operands) override;

private:
    void ready();
    PrintedShape& shape_;
    ShapeTokens& tokens_;
    Read read_;
    const void* context_;
    std::string& written_;
    bool ready_ = false;
};

} // namespace gcnlens::detail
