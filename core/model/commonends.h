// SPDX-License-Identifier: MIT
// The unchanged head and tail of a sequence after an edit, for the models' incremental paths
// (timing.cpp, lds.cpp). Internal: not part of the public API.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gcnlens::detail {

struct CommonEnds {
    int head = 0;  // now[i] matches before[i] for i < head
    int tail = 0;  // now[n - 1 - i] matches before[m - 1 - i] for i < tail; head + tail <= min(n, m)
    int shift = 0; // n - m: how far the tail moved
};

template <typename T, typename Same> CommonEnds commonEnds(const std::vector<T>& now, const std::vector<T>& before, Same same)
{
    CommonEnds ends;
    const int n = static_cast<int>(now.size()), m = static_cast<int>(before.size());
    const int shorter = std::min(n, m);
    while (ends.head < shorter && same(now[static_cast<std::size_t>(ends.head)], before[static_cast<std::size_t>(ends.head)]))
        ++ends.head;
    while (ends.tail < shorter - ends.head
           && same(now[static_cast<std::size_t>(n - 1 - ends.tail)], before[static_cast<std::size_t>(m - 1 - ends.tail)]))
        ++ends.tail;
    ends.shift = n - m;
    return ends;
}

} // namespace gcnlens::detail
