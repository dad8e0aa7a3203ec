// SPDX-License-Identifier: MIT
// A hash for byte strings: wyhash's multiply-fold on eight bytes at a time (lengths 1-7 read
// overlapping 4-byte words or three single bytes). std::hash's _Hash_bytes was a fiftieth of a
// plain-text listing in the interning pools alone, and the shape keys and statement keys of the
// front-end hash a string per line (issue #18).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace gcnlens {

namespace detail {
__extension__ using WideProduct = unsigned __int128; // g++ and clang++ on 64-bit targets
inline std::uint64_t foldMultiply(std::uint64_t a, std::uint64_t b)
{
    const WideProduct product = WideProduct(a) * b;
    return std::uint64_t(product) ^ std::uint64_t(product >> 64);
}
template <typename T> std::uint64_t loadWord(const unsigned char* at)
{
    T value;
    std::memcpy(&value, at, sizeof value);
    return value;
}
} // namespace detail

inline std::size_t hashBytes(const void* bytes, std::size_t length)
{
    using detail::foldMultiply;
    using detail::loadWord;
    constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull, k2 = 0x8ebc6af09c88c6e3ull;
    const auto* at = static_cast<const unsigned char*>(bytes);
    std::uint64_t state = k0 ^ length;
    std::size_t left = length;
    for (; left > 16; left -= 16, at += 16)
        state = foldMultiply(loadWord<std::uint64_t>(at) ^ k1, loadWord<std::uint64_t>(at + 8) ^ state);
    std::uint64_t a = 0, b = 0;
    if (left >= 8) {
        a = loadWord<std::uint64_t>(at);
        b = loadWord<std::uint64_t>(at + left - 8);
    } else if (left >= 4) {
        a = loadWord<std::uint32_t>(at);
        b = loadWord<std::uint32_t>(at + left - 4);
    } else if (left > 0) {
        a = std::uint64_t(at[0]) << 16 | std::uint64_t(at[left / 2]) << 8 | at[left - 1];
    }
    return foldMultiply(k2 ^ length, foldMultiply(a ^ k1, b ^ state));
}

// A 64-bit key already spread over its bits (two handles, a handle and an opcode): one fold.
inline std::size_t hashWord(std::uint64_t word)
{
    return detail::foldMultiply(word ^ 0xe7037ed1a0b428dbull, 0xa0761d6478bd642full);
}

// For unordered containers of strings, looked up by string_view too (with std::equal_to<>).
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return hashBytes(text.data(), text.size()); }
};

} // namespace gcnlens
