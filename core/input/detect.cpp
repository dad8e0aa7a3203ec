// SPDX-License-Identifier: MIT
#include "core/input/detect.h"

#include "core/input/listingreader.h"

namespace gcnlens::input {

bool looksLikeCodeObject(std::string_view bytes)
{
    return bytes.starts_with("\x7f"
                             "ELF")
        || bytes.starts_with("__CLANG_OFFLOAD_BUNDLE__") || bytes.starts_with("CCOB");
}

bool looksLikeListing(std::string_view text)
{
    // The first lines decide: a listing is marked throughout, and a big source should not be read twice.
    constexpr int kLinesLooked = 2000;
    int marked = 0, statements = 0, looked = 0;
    std::size_t start = 0;
    while (start < text.size() && looked++ < kLinesLooked) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const ListingLine line = parseListingLine(text.substr(start, end - start));
        start = end + 1;
        if (line.kind == ListingLine::Other)
            continue;
        ++statements;
        marked += line.marked ? 1 : 0;
    }
    // Source comments may hold an odd address: most statements must be marked.
    return marked > 0 && marked * 2 >= statements;
}

} // namespace gcnlens::input
