// SPDX-License-Identifier: MIT
// Small text helpers the core's table readers share (internal: not part of the public API).
#pragma once

#include <cctype>
#include <string_view>
#include <vector>

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
