// SPDX-License-Identifier: MIT
// Small text helpers the core's table readers share (internal: not part of the public API).
#pragma once

#include <cctype>
#include <string_view>

namespace gcnlens::detail {

// `text` without leading and trailing white space (std::isspace: blanks, tabs, CR, LF…).
inline std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

} // namespace gcnlens::detail
