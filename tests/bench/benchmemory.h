// SPDX-License-Identifier: MIT
// Memory figures the benchmarks print beside their times (issue #18): the process's peak resident
// size (VmHWM) and the heap in use now (glibc's mallinfo2), so a benchmark can say what a result
// costs per instruction and what a run peaked at.
#pragma once

#include "core/compact.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>
#include <string>

namespace gcnlens::bench {

// A size field of /proc/self/status ("VmHWM:", "VmRSS:") in bytes (0 if unreadable).
inline std::size_t statusBytes(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::size_t length = std::strlen(field);
    while (std::getline(status, line))
        if (line.compare(0, length, field) == 0)
            return std::size_t(std::strtoull(line.c_str() + length, nullptr, 10)) * 1024;
    return 0;
}

// Peak resident set of this process so far, in bytes.
inline std::size_t peakRssBytes()
{
    return statusBytes("VmHWM:");
}
// Resident set of this process now, in bytes.
inline std::size_t rssBytes()
{
    return statusBytes("VmRSS:");
}

// Resets the peak so the next phase's own peak can be read (Linux ≥ 4.0: "5" to clear_refs).
inline void resetPeakRss()
{
    if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
        std::fputs("5", f);
        std::fclose(f);
    }
}

// Bytes the heap holds in live allocations now (what a value that is still alive costs).
// SparseList blocks come from chunks of the heap that stay allocated when a block is released
// (core/compact.h): the idle part of those chunks is not in use.
inline std::size_t heapInUseBytes()
{
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd - intern::idleBlockBytes();
}

inline double megabytes(std::size_t bytes)
{
    return double(bytes) / (1024.0 * 1024.0);
}

} // namespace gcnlens::bench
