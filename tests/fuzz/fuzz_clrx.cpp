// SPDX-License-Identifier: MIT
// libFuzzer target for the CLRX dialect reader (issue #13): detection and translation of any
// bytes must neither crash nor break the line map (every output line has a source line), and the
// translation ClrxTranslator patches after a one-line edit must equal a fresh one.
// Built with clang (tests/CMakeLists.txt); ctest runs it briefly, longer runs by hand:
//   build/bin/fuzz_clrx -max_total_time=600 build/fuzz-clrx tests/data/clrx
#include "core/input/clrx.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace gcnlens;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)looksLikeClrx(text);
    ClrxOptions options;
    options.format = ClrxFormat(size % 5);
    options.is64bit = (size & 8) != 0;
    options.processor = (size & 16) ? "tonga" : "tahiti";
    const ClrxTranslation translation = translateClrx(text, options);
    std::size_t lines = 0;
    for (const char c : translation.text)
        lines += c == '\n' ? 1 : 0;
    if (lines != translation.origins.size())
        std::abort();
    int sourceLines = 1;
    for (const char c : text)
        sourceLines += c == '\n' ? 1 : 0;
    for (const auto& origin : translation.origins)
        if (origin.line < 0 || origin.line > sourceLines)
            std::abort();
    for (std::size_t line = 1; line <= lines; ++line)
        (void)translation.map(int(line), 3);

    // The editor's path: the translation patched after a one-line edit (a line replaced by the
    // first line, or deleted) must be the translation of the edited text.
    std::vector<std::string_view> textLines;
    for (std::size_t start = 0; start < text.size();) {
        const auto end = text.find('\n', start);
        textLines.push_back(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    if (textLines.size() >= 3) {
        const std::size_t at = 1 + size % (textLines.size() - 2);
        std::string edited;
        for (std::size_t i = 0; i < textLines.size(); ++i) {
            if (i == at && (size & 32))
                continue;
            edited += i == at ? textLines.front() : textLines[i];
            edited += '\n';
        }
        ClrxTranslator translator;
        translator.translate(text, options);
        const ClrxTranslation& patched = translator.translate(edited, options);
        const ClrxTranslation fresh = translateClrx(edited, options);
        if (patched.text != fresh.text || patched.origins.size() != fresh.origins.size())
            std::abort();
        for (std::size_t i = 0; i < fresh.origins.size(); ++i)
            if (patched.origins[i].line != fresh.origins[i].line || patched.origins[i].begin != fresh.origins[i].begin
                || patched.origins[i].end != fresh.origins[i].end)
                std::abort();
    }
    return 0;
}
