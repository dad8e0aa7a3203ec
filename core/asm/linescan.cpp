// SPDX-License-Identifier: MIT
#include "core/asm/linescan_p.h"

#include "core/asm/sourcemap.h"
#include "core/support/text.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gcnlens::detail {

// One set of comment rules for the scan and the source map (SourceMap::code).
std::string_view codeOf(std::string_view line)
{
    return SourceMap::code(line);
}

std::string_view trimmedFront(std::string_view text)
{
    while (!text.empty() && isAsciiSpace(text.front()))
        text.remove_prefix(1);
    return text;
}

std::size_t carryOpenSpans(std::string_view line, bool& inString, bool& inComment)
{
    // The characters it acts on in some state (a string, a comment, code): any other changes nothing.
    constexpr auto nextActive = [](std::string_view line, std::size_t from) {
        return findFirstOf<'"', '\\', '\'', '/', '*', ';', '#'>(line, from);
    };
    std::size_t opened = std::string_view::npos;
    for (std::size_t i = nextActive(line, 0); i < line.size(); i = nextActive(line, i + 1)) {
        const char c = line[i];
        const char next = i + 1 < line.size() ? line[i + 1] : '\0';
        if (inComment) {
            if (c == '*' && next == '/') {
                inComment = false;
                opened = std::string_view::npos;
                ++i;
            }
        } else if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '\'') {
            // A character literal as LLVM's lexer reads one: the character after the quote (two
            // after a backslash), then one more, whatever they are. "'/*" opens no comment, and
            // "'x/*" none either: the '/' went to the literal (fuzz_frontend e92ee1a9, where the
            // comment LLVM did open later on was never closed).
            i += next == '\\' ? 3 : 2;
        } else if (c == '/' && next == '*') {
            inComment = true;
            opened = i;
            ++i;
        } else if (c == ';' || (c == '/' && next == '/') || (c == '#' && trimmedFront(line.substr(0, i)).empty())) {
            break;
        }
    }
    return opened;
}

// A number LLVM's lexer refuses ("0x" without digits, "08" read as octal, a hex float without
// its exponent, "0b2"): after an error on its statement, LLVM 19's parser skips the line after it
// ("x, 0x": fuzz_frontend 66f45285, 760f1e65). Read wide: a few odd numbers more cost a full run.
bool hasRefusedNumber(std::string_view code)
{
    const auto isHex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    const auto isDec = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i] != '0' || (i > 0 && (isWordChar(code[i - 1]) || code[i - 1] == '@')))
            continue;
        const char next = i + 1 < code.size() ? code[i + 1] : '\0';
        std::size_t j = i + 2;
        if (next == 'x' || next == 'X') {
            while (j < code.size() && isHex(code[j]))
                ++j;
            if (j == i + 2 || (j < code.size() && (code[j] == '.' || code[j] == 'p' || code[j] == 'P')))
                return true;
        } else if (next == 'b' || next == 'B') {
            if (j < code.size() && code[j] >= '2' && code[j] <= '9')
                return true;
        } else if (isDec(next)) {
            for (j = i + 1; j < code.size() && isDec(code[j]); ++j)
                if (code[j] >= '8')
                    return true;
        }
        while (j < code.size() && isWordChar(code[j]))
            ++j;
        i = j;
    }
    return false;
}

std::string statementDirective(std::string_view code, std::string_view* operands, std::string_view* written)
{
    code = trimmedFront(code);
    while (true) {
        std::size_t end = 0;
        while (end < code.size() && isIdentifierChar(code[end]))
            ++end;
        const std::string_view rest = trimmedFront(code.substr(end));
        if (end > 0 && rest.starts_with(':')) { // a label ("1:" too): the statement goes on after it
            code = trimmedFront(rest.substr(1));
            continue;
        }
        if (end < 2 || code.front() != '.')
            return {};
        if (operands)
            *operands = rest;
        if (written)
            *written = code.substr(0, end);
        std::string name(code.substr(0, end));
        std::transform(name.begin(), name.end(), name.begin(),
                       [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); });
        return name;
    }
}

bool closesBody(std::string_view code, std::string_view name)
{
    code = trimmedFront(code);
    return code.starts_with(name) && (code.size() == name.size() || !isIdentifierChar(code[name.size()]));
}

// A reference to a directional label ("1f", "2b"): which "1:" it names depends on the lines
// around it, and LLVM reports an undefined "1f" at the end of the text, after every other
// diagnostic. A line re-assembled alone can reproduce neither (fuzz_frontend 527d4a52).
// A word (as forEachWord reads words) of digits and one f or b: found from its last letter, the
// rarer character.
bool hasDirectionalReference(std::string_view code)
{
    for (std::size_t at = findFirstOf<'f', 'b', 'F', 'B'>(code); at < code.size();
         at = findFirstOf<'f', 'b', 'F', 'B'>(code, at + 1)) {
        if (at + 1 < code.size() && isWordChar(code[at + 1]))
            continue;
        std::size_t begin = at;
        while (begin > 0 && isAsciiDigit(code[begin - 1]))
            --begin;
        if (begin < at && (begin == 0 || !isWordChar(code[begin - 1])))
            return true;
    }
    return false;
}

LineScan scanLines(const std::vector<std::string_view>& lines)
{
    LineScan scan;
    scan.plain.resize(lines.size(), false);
    int macroDepth = 0, repeatDepth = 0, conditionalDepth = 0;
    // A kernel descriptor or metadata block: LLVM parses it to its end on its own terms.
    std::string_view blockEnd;
    static constexpr std::pair<std::string_view, std::string_view> blocks[] = {
        {".amdhsa_kernel", ".end_amdhsa_kernel"},
        {".amd_kernel_code_t", ".end_amd_kernel_code_t"},
        {".amdgpu_metadata", ".end_amdgpu_metadata"},
        {".amdgpu_pal_metadata", ".end_amdgpu_pal_metadata"}};
    // A symbol assigned under a name a macro builds (".set \\name, 1") is not known by name. (A
    // label's name does not matter: the shape pass never reuses a line that refers to a symbol.)
    const auto addName = [&](std::vector<std::string>& list, std::string_view name) {
        if (&list == &scan.assignedSymbols
            && (name.find('\\') != std::string_view::npos || name.find('%') != std::string_view::npos))
            scan.computedNames = true;
        list.emplace_back(name);
    };
    bool inString = false, inComment = false; // a string or C comment open at the line's start
    int spillLines = 0;                       // lines from here that a line before may reach into (below)
    // Lines after a switch to a section other than .text: LLVM places what they make there (an
    // instruction in .rodata is no instruction of the program), which a re-assembled line alone,
    // in .text, would not know (fuzz_frontend d81bb3bb, 5b6935db, 8efdb5d3).
    bool otherSection = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const bool startsOpen = inString || inComment;
        carryOpenSpans(lines[i], inString, inComment);
        const bool spansLines = startsOpen || inString || inComment;
        // Control characters other than a tab (a vertical tab, a NUL from a UTF-16 file): LLVM's
        // lexer and this scan read them differently, so only a full run places such a line right.
        const bool controls =
            findFirst(lines[i], 0, [](auto block) { return matchControl(block); }, isControl) != std::string_view::npos;
        const std::string_view code = codeOf(lines[i]);
        // The first word runs to a blank, comma or colon; names may carry a macro's "\" argument.
        std::string_view first, second;
        {
            std::size_t end = 0;
            while (end < code.size() && !isAsciiSpace(code[end]) && code[end] != ',' && code[end] != ':' && code[end] != '=')
                ++end;
            first = code.substr(0, end);
            const std::string_view rest = trimmedFront(code.substr(end));
            std::size_t secondEnd = 0;
            while (secondEnd < rest.size() && !isAsciiSpace(rest[secondEnd]) && rest[secondEnd] != ',' && rest[secondEnd] != '=')
                ++secondEnd;
            second = rest.substr(0, secondEnd);
        }
        // Where LLVM's error recovery crosses a line end, lines depend on their neighbours: a
        // character its lexer refuses (a backquote, DEL, which the source map leaves as it is, a
        // bad character literal such as "'x y") is eaten silently after an error on the line
        // before, and makes the parser skip the next line; a register range or bracket left open
        // at the end ("v[44:") reaches into the next line. Such lines and their neighbours take
        // the full run (issue #12, fuzz_frontend d12cd6f3, a93bc7df, 2e898d94, b98103b3). A
        // character literal reads the two characters after its quote whatever they are (three
        // after a backslash): near a line's end that eats its newline, and a blank next line's
        // too, so the statement runs on into the line after that one, and the parser's recovery
        // skips the line after that: three lines follow it (c763633d: a blank line, then a line
        // LLVM skipped; 11280dd2: two blank lines, then a label LLVM skipped). (An open operand
        // list, "v0, v1, " while typing, does not reach further: it keeps the incremental path and
        // its kept size.)
        const std::string_view trimmedCode = code.substr(0, code.find_last_not_of(" \t\r") + 1);
        // (One search for the three; the quote asked apart only on such a rare line.)
        const std::size_t odd = findFirstOf<'\'', '`', '\x7f'>(code);
        const bool refused = odd != std::string_view::npos;
        const bool quote = refused && code.find('\'', odd) != std::string_view::npos;
        const std::size_t openBracket = code.rfind('['), closeBracket = code.rfind(']');
        const bool spills = refused || hasRefusedNumber(code)
            || (openBracket != std::string_view::npos && (closeBracket == std::string_view::npos || closeBracket < openBracket))
            || (!trimmedCode.empty() && std::string_view("({\\").find(trimmedCode.back()) != std::string_view::npos);
        if (refused && i > 0)
            scan.plain[i - 1] = false;
        bool plain = macroDepth == 0 && repeatDepth == 0 && conditionalDepth == 0 && !spansLines && !controls && blockEnd.empty()
            && !spills && spillLines == 0 && !otherSection && !hasDirectionalReference(code);
        // LLVM reads directive names in any case (".p2aligN 8" aligns: fuzz_frontend cc72cf1c), after
        // a label, and to where the name's identifier ends (".rep+ 3" repeats: 1f32622f).
        const std::string lower = statementDirective(code);
        const std::string_view directive = lower;
        // Past what only a directive changes (an instruction's line names none of them; closesBody
        // reads a statement that starts with '.', such as ".endm:", which names none).
        const bool anyDirective = !directive.empty() || code.starts_with('.');
        if (anyDirective) {
            static constexpr std::string_view sectionDirectives[] = {
                ".section", ".pushsection", ".popsection", ".previous", ".subsection", ".data", ".rodata", ".bss", ".text"};
            if (std::find(std::begin(sectionDirectives), std::end(sectionDirectives), lower) != std::end(sectionDirectives))
                otherSection = !(lower == ".text" || (lower == ".section" && (second == ".text" || second == "\".text\"")));
        }
        spillLines = std::max(spillLines - 1, quote ? 3 : spills ? 1 : 0);
        if (!anyDirective) {
        } else if (blockEnd.empty()) {
            for (const auto& [open, close] : blocks)
                if (directive == open)
                    blockEnd = close;
        } else if (directive == blockEnd) {
            blockEnd = {};
        }
        if (!anyDirective) {
        } else if (directive == ".macro") {
            if (!second.empty())
                scan.macroNames.emplace_back(second);
            ++macroDepth;
        } else if (closesBody(code, ".endm") || closesBody(code, ".endmacro")) {
            macroDepth = std::max(0, macroDepth - 1);
        } else if (directive == ".rept" || directive == ".rep" || directive == ".irp" || directive == ".irpc") {
            ++repeatDepth;
        } else if (closesBody(code, ".endr")) {
            repeatDepth = std::max(0, repeatDepth - 1);
        } else if (directive.starts_with(".if")) {
            ++conditionalDepth;
        } else if (directive == ".endif") {
            conditionalDepth = std::max(0, conditionalDepth - 1);
        }
        static constexpr std::string_view barriers[] = {".align",   ".p2align", ".balign", ".p2alignw", ".p2alignl",
                                                        ".balignw", ".balignl", ".org",    ".include",  ".incbin"};
        if (anyDirective && std::find(std::begin(barriers), std::end(barriers), directive) != std::end(barriers))
            scan.lastBarrier = std::max(scan.lastBarrier, int(i));
        if (directive == ".include" || directive == ".incbin")
            scan.includes = true;
        if (anyDirective && (directive == ".set" || directive == ".equ" || directive == ".equiv" || directive == ".eqv")
            && !second.empty())
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
        // A directive, a label (also CLRX "name:") or an assignment changes what follows; so may a
        // '#' line, which LLVM reads as a line marker ("# 4 file") when a number follows
        // (fuzz_frontend 893963bc).
        if (trimmedFront(lines[i]).starts_with('#')
            || (!code.empty() && (code.front() == '.' || label || assignment || code.find('=') != std::string_view::npos)))
            plain = false;
        scan.plain[i] = plain;
    }
    // Every line, plain or not: a call on a line that is not plain for another reason (a byte
    // LLVM's lexer refuses) still expands the macro, and its alignment is a barrier for edits
    // above it (fuzz_frontend c60fa9bc).
    if (!scan.macroNames.empty())
        for (std::size_t i = 0; i < lines.size(); ++i) {
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
    // Counted first: a vector grown by doubling writes half again as many fresh pages, and the
    // count is a fast pass (issue #18).
    lines.reserve(countNewlines(text) + 1);
    std::size_t start = 0, i = 0;
#if defined(__SSE2__)
    // Newlines found sixteen bytes at a time, not by a memchr call per line: three passes split a
    // 100k-line text into lines, and the calls were a hundredth of its listing (issue #18).
    const __m128i newline = _mm_set1_epi8('\n');
    for (; text.size() - i >= 16; i += 16) {
        auto found = unsigned(
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i)), newline)));
        for (; found; found &= found - 1) {
            const std::size_t end = i + std::size_t(std::countr_zero(found));
            lines.push_back(text.substr(start, end - start));
            start = end + 1;
        }
    }
#endif
    for (; i < text.size(); ++i)
        if (text[i] == '\n') {
            lines.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    lines.push_back(text.substr(start));
    return lines;
}

// Newlines in a text. Asked once per statement for the lines since the last one (issue #18), so
// short texts matter as much as long ones. No popcount: the x86-64 baseline has no popcnt
// instruction, and __builtin_popcountll became a libgcc call per eight bytes (2.4% of a
// macro-heavy kernel's listing).
std::size_t countNewlines(std::string_view text)
{
    std::size_t count = 0, i = 0;
#if defined(__SSE2__)
    // Sixteen byte counters, each counting its lane's newlines (a match is -1: subtracted), summed
    // before any can pass 255.
    const __m128i newline = _mm_set1_epi8('\n');
    while (text.size() - i >= 16) {
        __m128i perLane = _mm_setzero_si128();
        const std::size_t blocks = std::min<std::size_t>((text.size() - i) / 16, 255);
        for (std::size_t b = 0; b < blocks; ++b, i += 16)
            perLane = _mm_sub_epi8(perLane,
                                   _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i)), newline));
        const __m128i sums = _mm_sad_epu8(perLane, _mm_setzero_si128()); // two 16-bit sums
        count += std::size_t(_mm_cvtsi128_si32(sums)) + std::size_t(_mm_extract_epi16(sums, 4));
    }
#endif
    // Eight at a time: the high bit of each byte of x ^ '\n' that is zero (exact), the bits added by
    // a multiply.
    constexpr std::uint64_t newlines = 0x0a0a0a0a0a0a0a0aull, low7 = 0x7f7f7f7f7f7f7f7full, ones = 0x0101010101010101ull;
    for (; text.size() - i >= 8; i += 8) {
        std::uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        const std::uint64_t x = word ^ newlines;
        const std::uint64_t zeroBytes = ~(((x & low7) + low7) | x | low7);
        count += std::size_t(((zeroBytes >> 7) * ones) >> 56);
    }
    for (; i < text.size(); ++i)
        count += text[i] == '\n';
    return count;
}

} // namespace gcnlens::detail
