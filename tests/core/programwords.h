// SPDX-License-Identifier: MIT
// The bytes a Program lays out, as little-endian 32-bit words (how CLRX's test vectors give them);
// shared by tst_clrx and the clrx_vectors benchmark.
#pragma once

#include "core/program.h"

#include <cstdint>
#include <vector>

namespace gcnlens::test {

// A trailing partial word (data of odd size) shows as 0xdeadbeef so that it never compares equal.
inline std::vector<std::uint32_t> programWords(const Program& program)
{
    std::vector<std::uint8_t> bytes;
    for (const auto& inst : program.instructions)
        bytes.insert(bytes.end(), inst.encoding.begin(), inst.encoding.end());
    std::vector<std::uint32_t> words;
    for (std::size_t i = 0; i + 3 < bytes.size(); i += 4)
        words.push_back(std::uint32_t(bytes[i]) | std::uint32_t(bytes[i + 1]) << 8 | std::uint32_t(bytes[i + 2]) << 16
                        | std::uint32_t(bytes[i + 3]) << 24);
    if (bytes.size() % 4)
        words.push_back(0xdeadbeef);
    return words;
}

} // namespace gcnlens::test
