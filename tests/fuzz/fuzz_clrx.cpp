// SPDX-License-Identifier: MIT
// libFuzzer target for the CLRX dialect reader (issue #13): detection and translation of any
// bytes must neither crash nor break the line map (every output line has a source line).
// Built with clang (tests/CMakeLists.txt); ctest runs it briefly, longer runs by hand:
//   build/bin/fuzz_clrx -max_total_time=600 build/fuzz-clrx tests/data/clrx
#include "core/input/clrx.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

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
    return 0;
}
