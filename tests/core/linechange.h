// SPDX-License-Identifier: MIT
// The whole-line edit between two texts, as the editor hands it to the front-end (LineChange,
// core/asm/assembler.h): tests replay a sequence of texts as edits and compare with fresh runs.
#pragma once

#include "core/asm/assembler.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens::test {

inline std::vector<std::string_view> linesOf(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t n; (n = text.find('\n', start)) != std::string_view::npos; start = n + 1)
        lines.push_back(text.substr(start, n - start));
    lines.push_back(text.substr(start));
    return lines;
}

// The smallest run of lines of `before` that became a run of lines of `after`.
inline LineChange lineChange(std::string_view before, std::string_view after)
{
    const auto a = linesOf(before), b = linesOf(after);
    std::size_t head = 0, tail = 0;
    while (head < a.size() && head < b.size() && a[head] == b[head])
        ++head;
    while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
        ++tail;
    LineChange change;
    change.first = int(head);
    change.oldCount = int(a.size() - head - tail);
    change.newCount = int(b.size() - head - tail);
    for (std::size_t i = head; i < b.size() - tail; ++i) {
        if (i > head)
            change.text.push_back('\n');
        change.text.append(b[i]);
    }
    change.linesAfter = int(b.size());
    return change;
}

} // namespace gcnlens::test
