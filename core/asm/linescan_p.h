// SPDX-License-Identifier: MIT
// Private to core/asm: a light scan of source lines beside the assembler (which lines an edit may
// touch without a full run, which names the source defines) and the text helpers it shares.
#pragma once

#include "core/support/text.h"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens::detail {

// Inline, and a table: the line scans and the statement cache call these for every byte of a
// kernel (the comparisons were an eighth of a line's shape; issue #18).
inline constexpr auto kWordChars = [] {
    std::array<bool, 256> table {};
    for (int c = 0; c < 256; ++c)
        table[std::size_t(c)] = isAsciiAlnum(char(c)) || c == '_' || c == '.' || c == '$';
    return table;
}();
constexpr bool isWordChar(char c)
{
    return kWordChars[static_cast<unsigned char>(c)];
}
// LLVM 19's AsmLexer: letters, digits, _ $ . @ and ?; a byte from 0x80 up is one too, as the '?'
// the source map makes of it (".endm\x8a" is no .endm: fuzz_frontend a2aaaf4b).
constexpr bool isIdentifierChar(char c)
{
    return isWordChar(c) || c == '@' || c == '?' || static_cast<unsigned char>(c) >= 0x80;
}

// LLVM's lexer lets a string ("…", with \ escapes) and a C comment (/* … */) run over line ends, so
// a line that starts or ends inside one changes how the lines after it read. Carries that state
// over one line; line comments (';', '//', a leading '#') end the scan as in SourceMap::code, and
// a character literal takes the characters LLVM's lexer gives it. Returns the column of the "/*"
// on this line that opens a comment still open at its end (npos: none).
std::size_t carryOpenSpans(std::string_view line, bool& inString, bool& inComment);

// Calls f(word) for each word of a text, in order, until f returns false.
template <typename F> void forEachWord(std::string_view text, F&& f)
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
// no assignment and no macro invocation, neither starting nor ending inside a string or a /* */
// comment (LLVM reads those across lines), without control characters other than a tab. Anything
// else changes context for later lines.
struct LineScan {
    std::vector<bool> plain;
    int lastBarrier = -1; // last line (0-based) with alignment, .org, .include or a macro call,
                          // whose output depends on the offsets before it
    std::vector<std::string> macroNames;
    std::vector<std::string> assignedSymbols;
    std::vector<std::string> labels;
    bool includes = false;           // .include/.incbin: text the scan does not see
    bool computedNames = false;      // an assignment whose name is built by a macro (\name)
    bool kernelScopeSymbols = false; // .kernel.vgpr_count & co., which count registers as they are parsed
};

// The directive a statement runs, in lower case ("" for none: an instruction, an assignment),
// read as LLVM reads it: after any labels ("x: .rept 3"), in any case, and to where its name's
// identifier ends (".rept(3)", ".rep+ 3"). `operands`, when given, gets the text after the name,
// `written` the name as written (a view into `code`).
std::string statementDirective(std::string_view code, std::string_view* operands = nullptr, std::string_view* written = nullptr);

// LLVM ends a .rept/.irp or .macro body only at a closing directive that starts its statement,
// written in lower case (AsmParser's body scan; it runs other directives in any case): a body
// closed by ".ENDR" or "x: .endr" runs on to the end of the text. True when `code` is `name` so.
bool closesBody(std::string_view code, std::string_view name);

// The code of a line: one set of comment rules for the scan and the source map (SourceMap::code).
std::string_view codeOf(std::string_view line);
std::string_view trimmedFront(std::string_view text);
LineScan scanLines(const std::vector<std::string_view>& lines);
bool mentionsAny(std::string_view line, const std::vector<std::string>& names);
std::vector<std::string_view> splitLines(std::string_view text);
// Newlines in a text, eight bytes at a time.
std::size_t countNewlines(std::string_view text);

} // namespace gcnlens::detail
