// SPDX-License-Identifier: MIT
// Small text helpers the core's table readers share (internal: not part of the public API).
#pragma once

#include <bit>
#include <cctype>
#include <cstddef>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gcnlens::detail {

// ASCII classes, as LLVM's lexer reads a byte, whatever the C locale (a byte from 0x80 up is no
// letter), and without a libc call per character: the line scans run over every byte of a kernel
// (issue #18: std::isalnum was a twentieth of a mid-sized kernel's time).
constexpr bool isAsciiDigit(char c)
{
    return c >= '0' && c <= '9';
}
constexpr bool isAsciiAlnum(char c)
{
    return isAsciiDigit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}
// std::isspace's set in the C locale: blank, tab, line feed, vertical tab, form feed, CR.
constexpr bool isAsciiSpace(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

// A control character other than a tab, with or without the bytes from 0x80 up: what LLVM's lexer
// and the line scans read differently. Each has a sixteen-byte form below (matchControl…).
constexpr bool isControl(char c)
{
    return static_cast<unsigned char>(c) < 0x20 && c != '\t';
}
constexpr bool isControlOrHigh(char c)
{
    return isControl(c) || static_cast<unsigned char>(c) >= 0x80;
}

// findFirst: the first position at or after `from` where `byteTest` holds (npos: none).
// `blockTest` gives the same answer for sixteen bytes at once, as a mask of matchEqual-style
// comparisons.
#if defined(__SSE2__)
inline __m128i matchEqual(__m128i block, char c)
{
    return _mm_cmpeq_epi8(block, _mm_set1_epi8(c));
}
// isControlOrHigh (a byte from 0x80 up is negative as a signed byte).
inline __m128i matchControlOrHigh(__m128i block)
{
    return _mm_andnot_si128(matchEqual(block, '\t'), _mm_cmplt_epi8(block, _mm_set1_epi8(0x20)));
}
// isControl.
inline __m128i matchControl(__m128i block)
{
    const __m128i high = _mm_cmplt_epi8(block, _mm_setzero_si128());
    return _mm_andnot_si128(_mm_or_si128(high, matchEqual(block, '\t')), _mm_cmplt_epi8(block, _mm_set1_epi8(0x20)));
}
template <typename BlockTest, typename ByteTest>
std::size_t findFirst(std::string_view text, std::size_t from, BlockTest blockTest, ByteTest byteTest)
{
    std::size_t i = from;
    for (; i + 16 <= text.size(); i += 16) {
        const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
        if (const int mask = _mm_movemask_epi8(blockTest(block)))
            return i + std::size_t(std::countr_zero(unsigned(mask)));
    }
    if (i < text.size() && text.size() >= 16) { // the last 16 bytes, without those already read
        const std::size_t last = text.size() - 16;
        const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + last));
        const unsigned mask = unsigned(_mm_movemask_epi8(blockTest(block))) >> (i - last);
        return mask ? i + std::size_t(std::countr_zero(mask)) : std::string_view::npos;
    }
    for (; i < text.size(); ++i)
        if (byteTest(text[i]))
            return i;
    return std::string_view::npos;
}
#else
struct NoBlock { };
inline bool matchEqual(NoBlock, char)
{
    return false;
}
inline bool matchControlOrHigh(NoBlock)
{
    return false;
}
inline bool matchControl(NoBlock)
{
    return false;
}
template <typename BlockTest, typename ByteTest>
std::size_t findFirst(std::string_view text, std::size_t from, BlockTest, ByteTest byteTest)
{
    for (std::size_t i = from; i < text.size(); ++i)
        if (byteTest(text[i]))
            return i;
    return std::string_view::npos;
}
#endif

// The first position at or after `from` whose byte is one of `Members` (npos: none), sixteen bytes
// at a time where SSE2 is there: the line scans look for a few characters in lines made mostly of
// others, several times a line (issue #18).
template <char... Members> std::size_t findFirstOf(std::string_view text, std::size_t from = 0)
{
    return findFirst(
        text, from, [](auto block) { return (matchEqual(block, Members) | ...); },
        [](char c) { return ((c == Members) || ...); });
}

// `text` without leading and trailing white space (std::isspace: blanks, tabs, CR, LF…).
inline std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// The length of the well-formed UTF-8 sequence at the start of `text` (1 for ASCII), or 0 where
// none starts there: overlongs, surrogates, code points past U+10FFFF, stray or missing
// continuation bytes (the Unicode standard's table 3-7).
inline std::size_t utf8SequenceLength(std::string_view text)
{
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    if (text.empty())
        return 0;
    const unsigned char lead = byte(0);
    if (lead < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf; // the second byte's range
    if (lead >= 0xc2 && lead <= 0xdf) {
        length = 2;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        low = lead == 0xe0 ? 0xa0 : 0x80;
        high = lead == 0xed ? 0x9f : 0xbf;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        low = lead == 0xf0 ? 0x90 : 0x80;
        high = lead == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (text.size() < length || byte(1) < low || byte(1) > high)
        return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (byte(i) < 0x80 || byte(i) > 0xbf)
            return 0;
    return length;
}

// Calls f(cells) for each row of a tab-separated table, cells trimmed; blank lines and '#'
// comment lines are skipped.
template <typename F> void forEachTsvRow(std::string_view text, F&& f)
{
    std::vector<std::string_view> cells;
    while (!text.empty()) {
        const auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view {} : text.substr(end + 1);
        if (trim(line).empty() || trim(line).front() == '#')
            continue;
        cells.clear();
        while (true) {
            const auto tab = line.find('\t');
            cells.push_back(trim(line.substr(0, tab)));
            if (tab == std::string_view::npos)
                break;
            line.remove_prefix(tab + 1);
        }
        f(cells);
    }
}

} // namespace gcnlens::detail
