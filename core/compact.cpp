// SPDX-License-Identifier: MIT
#include "core/compact.h"

#include "core/support/hash.h"

#include <atomic>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace gcnlens::intern {

char* chunks[kMaxChunks];

namespace {

// Chunks of all pools are numbered together: a handle names its chunk without its pool.
std::atomic<std::size_t> chunksTaken {0};

// One pool: entries packed into large chunks (a count, the items, a 0 for text), found again
// through an open-addressing table of their handles. Never shrinks: handles must outlive every
// result. The table holds the same 32-bit handles the values hold: at its load of 3/8 to 3/4 an
// entry costs 1.3-2.7 slots, and with distinct operands an instruction interns four entries
// (operands, encoding, defs, uses; issue #18). 2^16 chunks of 256 KiB: 16 GiB in all.
//
// A slot's bits above the pool's largest handle carry the top bits of its entry's hash (a tag),
// so a probe passes a slot of another entry without reading that entry: with distinct operands
// the entry was a cache miss of its own, a quarter of the time spent interning (issue #18). So
// the table may be fuller than a plain one: a longer probe stays in its cache line and reads no
// entries, and a smaller table is fewer misses (and bytes) of its own.
// While the chunks are few the tag is wide (15 bits with 2 chunks, 8 bits with 256); a handle
// past the current width narrows every tag, in place, by clearing its low bits, which keeps
// each slot where its hash put it.
class Pool {
public:
    std::uint32_t store(const void* bytes, std::size_t count, std::size_t elementSize, bool* added)
    {
        const std::size_t length = count * elementSize;
        const std::size_t hash = hashBytes(bytes, length);
        std::lock_guard lock(mutex_);
        if ((used_ + 1) * 4 > table_.size() * 3)
            grow();
        const std::uint32_t tag = tagOf(hash);
        std::size_t at = hash & (table_.size() - 1);
        while (const std::uint32_t slot = table_[at]) {
            const std::uint32_t handle = slot & handleMask();
            if ((slot & ~handleMask()) == tag && countOf(handle) == count && std::memcmp(entry(handle), bytes, length) == 0) {
                if (added)
                    *added = false;
                return handle;
            }
            at = (at + 1) & (table_.size() - 1);
        }
        if (length > std::numeric_limits<std::uint32_t>::max() - 8)
            fail("an entry of 4 GiB or more");
        const auto [place, handle] = allocate(length + 1);
        const auto count32 = std::uint32_t(count);
        std::memcpy(place - 4, &count32, 4);
        std::memcpy(place, bytes, length);
        place[length] = 0;
        if (std::bit_width(handle) > handleBits_)
            widenHandles(std::bit_width(handle));
        table_[at] = handle | tagOf(hash);
        ++used_;
        if (added)
            *added = true;
        return handle;
    }
    std::size_t bytes() const
    {
        std::lock_guard lock(mutex_);
        return held_ + table_.size() * sizeof(std::uint32_t);
    }

private:
    static std::size_t hashOf(std::uint32_t handle, std::size_t elementSize)
    {
        return hashBytes(entry(handle), countOf(handle) * elementSize);
    }
    static constexpr std::size_t kChunkBytes = 256 * 1024; // 2^16 4-byte units

    [[noreturn]] static void fail(const char* what)
    {
        std::fprintf(stderr, "gcnlens: interned text pool: %s\n", what);
        std::abort(); // handles are compared as numbers: an entry outside the table would break equality
    }

    // `length` bytes after a 4-byte count, 4-byte aligned (register lists hold ints). An entry
    // larger than a chunk gets a chunk of its own (it starts at unit 1, so its handle fits). A
    // handle is never 0 (0 is "empty"): an entry starts 4 bytes into its chunk at least.
    std::pair<char*, std::uint32_t> allocate(std::size_t length)
    {
        const std::size_t need = (4 + length + 3) & ~std::size_t {3};
        if (chunkLeft_ < need) {
            const std::size_t index = chunksTaken.fetch_add(1);
            if (index >= kMaxChunks)
                fail("full (16 GiB)");
            const std::size_t size = std::max(need, kChunkBytes);
            chunks[index] = new char[size]; // never freed: handles outlive every result
            chunkIndex_ = index;
            chunk_ = chunks[index];
            chunkLeft_ = size;
            held_ += size;
        }
        char* place = chunk_ + 4;
        const auto handle = std::uint32_t(chunkIndex_ << 16 | std::size_t(place - chunks[chunkIndex_]) / 4);
        chunk_ += need;
        chunkLeft_ -= need;
        return {place, handle};
    }
    void grow()
    {
        std::vector<std::uint32_t> old = std::move(table_);
        table_.assign(std::max<std::size_t>(1024, old.size() * 2), 0);
        for (const std::uint32_t slot : old) {
            if (!slot)
                continue;
            const std::size_t hash = hashOf(slot & handleMask(), elementSize_);
            std::size_t at = hash & (table_.size() - 1);
            while (table_[at])
                at = (at + 1) & (table_.size() - 1);
            table_[at] = slot;
        }
    }

    // The tag: the hash's top bits, in the slot's bits above the handles (none at 32 bits).
    std::uint32_t tagOf(std::size_t hash) const
    {
        return handleBits_ == 32 ? 0 : std::uint32_t(std::uint64_t(hash) >> (32 + handleBits_)) << handleBits_;
    }
    std::uint32_t handleMask() const { return handleBits_ == 32 ? ~0u : (1u << handleBits_) - 1; }
    // Handles now take `bits`: each tag loses its low bits (those of the wider handles), which
    // leaves the same top bits of the hash as tagOf gives from now on.
    void widenHandles(int bits)
    {
        const std::uint32_t cleared = (bits == 32 ? ~0u : (1u << bits) - 1) & ~handleMask();
        for (std::uint32_t& slot : table_)
            slot &= ~cleared;
        handleBits_ = bits;
    }

public:
    std::size_t elementSize_ = 1;

private:
    mutable std::mutex mutex_;
    std::vector<std::uint32_t> table_;
    int handleBits_ = 17; // bits of the largest handle in the table (2 chunks), at most 32
    std::size_t used_ = 0;
    std::size_t chunkIndex_ = 0;
    char* chunk_ = nullptr;
    std::size_t chunkLeft_ = 0;
    std::size_t held_ = 0;
};

constexpr int kPools = 2 + 16 + 1;

Pool& pool(int index)
{
    // Leaked on purpose: handles in static objects may be read during exit.
    static Pool* pools = [] {
        auto* all = new Pool[kPools];
        for (int i = 2; i < kPools; ++i)
            all[i].elementSize_ = std::size_t(i - 2); // pool 2 + sizeof(T), see InternedArray::pool
        return all;
    }();
    return pools[index];
}

} // namespace

std::uint32_t store(int index, const void* bytes, std::size_t count, std::size_t elementSize, bool* added)
{
    if (index < 0 || index >= kPools || (index >= 2 && std::size_t(index - 2) != elementSize))
        std::abort(); // an element type the pools were not laid out for
    return pool(index).store(bytes, count, elementSize, added);
}

namespace {

// SparseList's blocks, carved from chunks like the pools' entries. A released block is linked
// into the list of its size (the next handle in its first 4 bytes) and handed out again first.
class BlockHeap {
public:
    std::uint32_t allocate(std::size_t bytes)
    {
        const std::size_t need = (bytes + 7) & ~std::size_t {7};
        std::lock_guard lock(mutex_);
        if (const auto released = released_.find(need); released != released_.end() && released->second) {
            const std::uint32_t handle = released->second;
            std::memcpy(&released->second, entry(handle), 4);
            idle_ -= need;
            return handle;
        }
        // A block starts 8 bytes into its chunk at least, so its handle is never 0. One larger
        // than a chunk gets a chunk of its own, and the current chunk stays current.
        if (need > kChunkBytes - 8)
            return handleAt(newChunk(need + 8), 8);
        if (left_ < need) {
            chunkIndex_ = newChunk(kChunkBytes);
            used_ = 8;
            left_ = kChunkBytes - 8;
            idle_ += left_;
        }
        const std::uint32_t handle = handleAt(chunkIndex_, used_);
        used_ += need;
        left_ -= need;
        idle_ -= need;
        return handle;
    }
    void release(std::uint32_t handle, std::size_t bytes)
    {
        const std::size_t need = (bytes + 7) & ~std::size_t {7};
        std::lock_guard lock(mutex_);
        std::uint32_t& head = released_[need];
        std::memcpy(mutableEntry(handle), &head, 4);
        head = handle;
        idle_ += need;
    }
    std::size_t idleBytes() const
    {
        std::lock_guard lock(mutex_);
        return idle_;
    }

private:
    static constexpr std::size_t kChunkBytes = 256 * 1024; // 2^16 4-byte units, as the pools'

    static std::uint32_t handleAt(std::size_t chunk, std::size_t offset) { return std::uint32_t(chunk << 16 | offset / 4); }
    std::size_t newChunk(std::size_t size)
    {
        const std::size_t index = chunksTaken.fetch_add(1);
        if (index >= kMaxChunks) {
            std::fprintf(stderr, "gcnlens: list blocks: the chunks are full (16 GiB)\n");
            std::abort();
        }
        chunks[index] = new char[size]; // never freed: released blocks are handed out again
        return index;
    }

    mutable std::mutex mutex_;
    std::unordered_map<std::size_t, std::uint32_t> released_; // block bytes -> first released block
    std::size_t chunkIndex_ = 0;
    std::size_t used_ = 0;
    std::size_t left_ = 0;
    std::size_t idle_ = 0;
};

BlockHeap& blockHeap()
{
    static BlockHeap* heap = new BlockHeap; // leaked on purpose, as the pools: lists in static objects die at exit
    return *heap;
}

} // namespace

std::uint32_t allocateBlock(std::size_t bytes)
{
    return blockHeap().allocate(bytes);
}

void releaseBlock(std::uint32_t handle, std::size_t bytes)
{
    blockHeap().release(handle, bytes);
}

std::size_t idleBlockBytes()
{
    return blockHeap().idleBytes();
}

std::size_t poolBytes()
{
    std::size_t total = chunksTaken.load() * sizeof chunks[0]; // the directory's pages in use
    for (int i = 0; i < kPools; ++i)
        total += pool(i).bytes();
    return total;
}

} // namespace gcnlens::intern

namespace gcnlens {

namespace {
// Marker bytes of a pattern: a decimal hole, a hex hole, and (first byte) "the rest is literal",
// for the rare text that holds a marker byte itself.
constexpr char kDecimal = '\x01', kHex = '\x02', kLiteral = '\x03';

bool hasMarker(std::string_view text)
{
    return text.find_first_of(std::string_view("\x01\x02\x03", 3)) != std::string_view::npos;
}

void appendNumber(std::string& out, std::uint64_t value, int base)
{
    char buffer[24];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, base);
    out.append(buffer, end);
}
} // namespace

PatternText::PatternText(std::string_view text)
{
    if (text.empty())
        return;
    if (!hasMarker(text)) {
        pattern_ = intern::store(0, text.data(), text.size(), 1);
        return;
    }
    std::string literal(1, kLiteral);
    literal.append(text);
    pattern_ = intern::store(0, literal.data(), literal.size(), 1);
}

void PatternText::appendTo(std::string& out) const
{
    if (!pattern_)
        return;
    const std::string_view pattern(intern::entry(pattern_), intern::countOf(pattern_));
    if (pattern.front() == kLiteral) {
        out.append(pattern.substr(1));
        return;
    }
    int next = 0;
    std::size_t from = 0;
    for (std::size_t at = pattern.find_first_of("\x01\x02"); at != std::string_view::npos;
         at = pattern.find_first_of("\x01\x02", from)) {
        out.append(pattern.substr(from, at - from));
        if (pattern[at] == kHex)
            out.append("0x");
        appendNumber(out, values_[next++], pattern[at] == kHex ? 16 : 10);
        from = at + 1;
    }
    out.append(pattern.substr(from));
}

PatternText::Builder& PatternText::Builder::operator<<(std::string_view text)
{
    if (!literal_ && hasMarker(text)) {
        // Spell out the holes so far; from here on everything is literal text.
        PatternText sofar = take();
        pattern_.assign(1, kLiteral);
        sofar.appendTo(pattern_);
        literal_ = true;
    }
    pattern_.append(text);
    return *this;
}

PatternText::Builder& PatternText::Builder::operator<<(long long value)
{
    if (value < 0) {
        pattern_.push_back('-');
        appendNumber(pattern_, 0 - static_cast<std::uint64_t>(value), 10);
    } else {
        appendNumber(pattern_, static_cast<std::uint64_t>(value), 10);
    }
    return *this;
}

PatternText::Builder& PatternText::Builder::number(long long value)
{
    if (value < 0)
        return *this << value;
    hole(kDecimal, static_cast<std::uint64_t>(value));
    return *this;
}

PatternText::Builder& PatternText::Builder::hex(std::uint64_t value)
{
    hole(kHex, value);
    return *this;
}

// Values past 32 bits or past the second hole are written into the pattern instead.
void PatternText::Builder::hole(char marker, std::uint64_t value)
{
    if (literal_ || holes_ == 2 || value > 0xffffffffu) {
        if (marker == kHex)
            pattern_.append("0x");
        appendNumber(pattern_, value, marker == kHex ? 16 : 10);
        return;
    }
    pattern_.push_back(marker);
    values_[holes_++] = static_cast<std::uint32_t>(value);
}

PatternText PatternText::Builder::take()
{
    PatternText text;
    if (!pattern_.empty())
        text.pattern_ = intern::store(0, pattern_.data(), pattern_.size(), 1);
    text.values_[0] = values_[0];
    text.values_[1] = values_[1];
    pattern_.clear();
    values_[0] = values_[1] = 0;
    holes_ = 0;
    literal_ = false;
    return text;
}

} // namespace gcnlens
