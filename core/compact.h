// SPDX-License-Identifier: MIT
// Compact value types for the per-instruction data of Program and Analysis (issue #18: at most
// 120 bytes per analysed instruction). A million-instruction kernel repeats a few hundred
// mnemonics, register lists and rule texts a million times; stored once each in a process-wide
// pool, an instruction holds 4-byte handles instead of 32-byte strings and 24-byte vectors with
// their own allocations. The types read like the std::string / std::vector fields they replace.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <format>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gcnlens {

namespace intern {
// Stores `bytes` once per process and pool (the same bytes give the same handle) and returns the
// entry's 32-bit handle, never 0: 4 bytes in every instruction where a pointer took 8 (issue #18).
// Entries are never moved or freed, so handles stay valid in every copy of a result and across
// threads. The item count sits in the 4 bytes before the entry; a char pool also keeps a
// terminating 0. `pool` separates element types (0: text, 1: bytes, 2 + size: other items).
// `added`, when given, says whether the bytes were new to the pool (the print cache admits an
// encoding only once it repeats).
std::uint32_t store(int pool, const void* bytes, std::size_t count, std::size_t elementSize, bool* added = nullptr);
// Bytes the pools hold (for the benchmarks).
std::size_t poolBytes();

// A handle is (chunk << 16 | 4-byte unit in the chunk); the chunks of all pools are listed here.
// A chunk's place is written once, before any handle into it exists, and a handle reaches another
// thread only through whatever passed it there, so reading the place needs no lock.
constexpr std::size_t kMaxChunks = std::size_t(1) << 16;
extern char* chunks[kMaxChunks];
inline char* mutableEntry(std::uint32_t handle)
{
    return chunks[handle >> 16] + std::size_t(handle & 0xffff) * 4;
}
inline const char* entry(std::uint32_t handle)
{
    return mutableEntry(handle);
}
inline std::uint32_t countOf(std::uint32_t handle)
{
    std::uint32_t count;
    std::memcpy(&count, entry(handle) - 4, 4);
    return count;
}

// The blocks of SparseList: mutable and owned, unlike the entries above, but from the same chunks
// and named by the same 32-bit handles (never 0), so a list costs 4 bytes where a pointer took 8
// and a block has no allocator header (issue #18). Blocks are 8-byte aligned. A released block
// waits for the next request of its size; chunks are never returned, as the pools' are not.
// Thread-safe: results are built and dropped on several threads.
std::uint32_t allocateBlock(std::size_t bytes);
void releaseBlock(std::uint32_t handle, std::size_t bytes);
// Bytes of the blocks' chunks that no live block holds (released, or not handed out yet): the
// heap figures of the benchmarks leave them out.
std::size_t idleBlockBytes();
} // namespace intern

// An immutable, interned array of trivially copyable T: one 32-bit handle, 0 when empty. Equal
// contents are the same handle, so == is an integer compare.
template <typename T> class InternedArray {
    static_assert(std::is_trivially_copyable_v<T>);
    static_assert(alignof(T) <= 4, "pool entries are 4-byte aligned");

public:
    using value_type = T;
    using const_iterator = const T*;
    using iterator = const T*;
    using size_type = std::size_t;

    InternedArray() = default;
    InternedArray(std::span<const T> items) { set(items.data(), items.size()); }
    InternedArray(const std::vector<T>& items) { set(items.data(), items.size()); }
    InternedArray(std::initializer_list<T> items) { set(items.begin(), items.size()); }
    template <typename It> InternedArray(It first, It last) { assign(first, last); }
    // Interns `items`; `added` says whether no equal array was interned before in this process.
    InternedArray(std::span<const T> items, bool& added)
    {
        added = false;
        handle_ = items.empty() ? 0 : intern::store(pool(), items.data(), items.size(), sizeof(T), &added);
    }

    const T* data() const { return handle_ ? reinterpret_cast<const T*>(intern::entry(handle_)) : nullptr; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + size(); }
    std::size_t size() const { return handle_ ? intern::countOf(handle_) : 0; }
    bool empty() const { return handle_ == 0; }
    const T& operator[](std::size_t i) const { return data()[i]; }
    const T& at(std::size_t i) const { return data()[i]; }
    const T& front() const { return data()[0]; }
    const T& back() const { return data()[size() - 1]; }
    std::span<const T> span() const { return {data(), size()}; }
    operator std::span<const T>() const { return span(); }
    std::vector<T> toVector() const { return {begin(), end()}; }

    template <typename It> void assign(It first, It last)
    {
        const std::vector<T> items(first, last);
        set(items.data(), items.size());
    }
    void clear() { handle_ = 0; }
    // Builds a new interned array: for the front-end, which adds a few items per instruction.
    void push_back(const T& item)
    {
        std::vector<T> items(begin(), end());
        items.push_back(item);
        set(items.data(), items.size());
    }

    bool operator==(const InternedArray& other) const { return handle_ == other.handle_; }
    // The handle: equal contents, equal handles (a hash key for caches).
    std::uint32_t handle() const { return handle_; }
    bool operator==(const std::vector<T>& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

private:
    static constexpr int pool()
    {
        if constexpr (std::is_same_v<T, std::uint8_t>)
            return 1;
        else
            return 2 + int(sizeof(T)); // one pool per element size is enough to keep equal bytes apart
    }
    void set(const T* items, std::size_t count) { handle_ = count ? intern::store(pool(), items, count, sizeof(T)) : 0; }
    std::uint32_t handle_ = 0;
};

// An interned, immutable string (a 4-byte handle; "" when 0). Reads like a const std::string: size,
// find, substr, comparisons with any string, conversion to std::string and std::string_view.
class InternedString {
public:
    static constexpr std::size_t npos = std::string_view::npos;

    InternedString() = default;
    InternedString(std::string_view text) { set(text); }
    InternedString(const std::string& text) { set(text); }
    InternedString(const char* text) { set(text); }

    std::string_view view() const
    {
        return handle_ ? std::string_view(intern::entry(handle_), intern::countOf(handle_)) : std::string_view();
    }
    operator std::string_view() const { return view(); }
    operator std::string() const { return std::string(view()); }
    std::string str() const { return std::string(view()); }

    const char* data() const { return handle_ ? intern::entry(handle_) : ""; }
    const char* c_str() const { return data(); }
    std::size_t size() const { return handle_ ? intern::countOf(handle_) : 0; }
    std::size_t length() const { return size(); }
    bool empty() const { return handle_ == 0; }
    // The handle: equal texts, equal handles (a hash key for caches, as InternedArray's).
    std::uint32_t handle() const { return handle_; }
    const char* begin() const { return data(); }
    const char* end() const { return data() + size(); }
    char operator[](std::size_t i) const { return data()[i]; }
    char front() const { return data()[0]; }
    char back() const { return data()[size() - 1]; }

    std::size_t find(std::string_view s, std::size_t pos = 0) const { return view().find(s, pos); }
    std::size_t find(char c, std::size_t pos = 0) const { return view().find(c, pos); }
    std::size_t rfind(std::string_view s, std::size_t pos = npos) const { return view().rfind(s, pos); }
    std::size_t rfind(char c, std::size_t pos = npos) const { return view().rfind(c, pos); }
    std::size_t find_first_of(std::string_view s, std::size_t pos = 0) const { return view().find_first_of(s, pos); }
    std::size_t find_last_of(std::string_view s, std::size_t pos = npos) const { return view().find_last_of(s, pos); }
    std::size_t find_first_not_of(std::string_view s, std::size_t pos = 0) const { return view().find_first_not_of(s, pos); }
    bool starts_with(std::string_view s) const { return view().starts_with(s); }
    bool starts_with(char c) const { return view().starts_with(c); }
    bool ends_with(std::string_view s) const { return view().ends_with(s); }
    bool ends_with(char c) const { return view().ends_with(c); }
    bool contains(std::string_view s) const { return view().find(s) != npos; }
    std::string substr(std::size_t pos, std::size_t count = npos) const { return std::string(view().substr(pos, count)); }
    int compare(std::string_view s) const { return view().compare(s); }

    friend bool operator==(const InternedString& a, const InternedString& b) { return a.handle_ == b.handle_; }
    friend bool operator==(const InternedString& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(const InternedString& a, const std::string& b) { return a.view() == b; }
    friend bool operator==(const InternedString& a, const char* b) { return a.view() == b; }
    friend auto operator<=>(const InternedString& a, const InternedString& b) { return a.view() <=> b.view(); }
    friend auto operator<=>(const InternedString& a, std::string_view b) { return a.view() <=> b; }
    friend auto operator<=>(const InternedString& a, const std::string& b) { return a.view() <=> std::string_view(b); }
    friend auto operator<=>(const InternedString& a, const char* b) { return a.view() <=> std::string_view(b); }

    friend std::string operator+(const std::string& a, const InternedString& b) { return a + std::string(b.view()); }
    friend std::string operator+(const InternedString& a, const std::string& b) { return std::string(a.view()) + b; }
    friend std::string operator+(const char* a, const InternedString& b) { return a + std::string(b.view()); }
    friend std::string operator+(const InternedString& a, const char* b) { return std::string(a.view()) + b; }
    friend std::ostream& operator<<(std::ostream& out, const InternedString& s) { return out << s.view(); }

private:
    void set(std::string_view text) { handle_ = text.empty() ? 0 : intern::store(0, text.data(), text.size(), 1); }
    std::uint32_t handle_ = 0;
};

// A forward iterator over an index-addressed container whose entries are made on the fly
// (Owner::entry(position)): LineIndex and LdsResults read like std::map through it.
template <typename Owner, typename Entry> class IndexedIterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Entry;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Entry;
    IndexedIterator() = default;
    IndexedIterator(const Owner* owner, std::size_t at)
        : owner_(owner)
        , at_(at)
    {
    }
    Entry operator*() const { return owner_->entry(at_); }
    // Points into the iterator itself, so `for (int i : it->second)` is safe while `it` lives.
    const Entry* operator->() const
    {
        current_.emplace(owner_->entry(at_));
        return &*current_;
    }
    IndexedIterator& operator++()
    {
        ++at_;
        return *this;
    }
    IndexedIterator operator++(int)
    {
        auto old = *this;
        ++at_;
        return old;
    }
    bool operator==(const IndexedIterator& other) const { return at_ == other.at_; }
    std::size_t position() const { return at_; }

private:
    const Owner* owner_ = nullptr;
    std::size_t at_ = 0;
    mutable std::optional<Entry> current_;
};

// An owned list that costs a 4-byte handle, 0 when empty (most instructions have no penalty, no
// finding), and otherwise one block of intern::allocateBlock: the count, then the items, room for
// the next power of two of them. Reads and grows like the std::vector it replaces; copies are deep.
template <typename T> class SparseList {
    static_assert(alignof(T) <= 8, "blocks are 8-byte aligned");

public:
    using value_type = T;
    using const_iterator = const T*;
    using iterator = T*;
    using size_type = std::size_t;

    SparseList() = default;
    SparseList(std::initializer_list<T> items) { append(items.begin(), items.end()); }
    SparseList(const std::vector<T>& items) { append(items.begin(), items.end()); }
    SparseList(const SparseList& other) { append(other.begin(), other.end()); }
    SparseList(SparseList&& other) noexcept
        : handle_(std::exchange(other.handle_, 0))
    {
    }
    ~SparseList() { clear(); }
    SparseList& operator=(const SparseList& other)
    {
        if (this != &other) {
            clear();
            append(other.begin(), other.end());
        }
        return *this;
    }
    SparseList& operator=(SparseList&& other) noexcept
    {
        if (this != &other) {
            clear();
            handle_ = std::exchange(other.handle_, 0);
        }
        return *this;
    }
    SparseList& operator=(const std::vector<T>& items)
    {
        clear();
        append(items.begin(), items.end());
        return *this;
    }

    T* begin() { return handle_ ? items() : nullptr; }
    T* end() { return handle_ ? items() + count() : nullptr; }
    const T* begin() const { return handle_ ? items() : nullptr; }
    const T* end() const { return handle_ ? items() + count() : nullptr; }
    std::size_t size() const { return handle_ ? count() : 0; }
    bool empty() const { return size() == 0; } // (a block whose first item threw on construction holds none)
    T& operator[](std::size_t i) { return items()[i]; }
    const T& operator[](std::size_t i) const { return items()[i]; }
    const T& at(std::size_t i) const
    {
        if (i >= size())
            throw std::out_of_range("SparseList::at");
        return items()[i];
    }
    const T& front() const { return items()[0]; }
    const T& back() const { return items()[count() - 1]; }
    T& back() { return items()[count() - 1]; }
    void clear()
    {
        if (!handle_)
            return;
        const std::uint32_t n = count();
        std::destroy_n(items(), n);
        intern::releaseBlock(std::exchange(handle_, 0), blockBytes(capacityFor(n)));
    }
    void push_back(T item) { emplace_back(std::move(item)); }
    template <typename... Args> T& emplace_back(Args&&... args)
    {
        reserveOne();
        const std::uint32_t n = count();
        T* at = ::new (static_cast<void*>(items() + n)) T(std::forward<Args>(args)...);
        setCount(n + 1);
        return *at;
    }

    bool operator==(const SparseList& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

private:
    // The count (4 bytes), then the items at their alignment.
    static constexpr std::size_t kItemsAt = alignof(T) > 4 ? alignof(T) : 4;
    static constexpr std::size_t blockBytes(std::size_t capacity) { return kItemsAt + capacity * sizeof(T); }
    // A block is never empty (clear() releases it), so its capacity follows from its count.
    static std::size_t capacityFor(std::uint32_t count) { return std::bit_ceil(std::size_t(count)); }
    char* block() const { return intern::mutableEntry(handle_); }
    std::uint32_t count() const
    {
        std::uint32_t n;
        std::memcpy(&n, block(), 4);
        return n;
    }
    void setCount(std::uint32_t n) { std::memcpy(block(), &n, 4); }
    T* items() const { return std::launder(reinterpret_cast<T*>(block() + kItemsAt)); }
    template <typename It> void append(It first, It last)
    {
        for (; first != last; ++first)
            emplace_back(*first);
    }
    // Room for one more: exact for the first item (most lists hold one), doubling after.
    void reserveOne()
    {
        const std::uint32_t n = handle_ ? count() : 0;
        if (handle_ && n < capacityFor(n))
            return;
        if (n == std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("SparseList");
        const std::uint32_t grown = intern::allocateBlock(blockBytes(n ? std::size_t(n) * 2 : 1));
        char* to = intern::mutableEntry(grown);
        std::memcpy(to, &n, 4);
        if (handle_) {
            std::uninitialized_move_n(items(), n, reinterpret_cast<T*>(to + kItemsAt));
            clear();
        }
        handle_ = grown;
    }
    std::uint32_t handle_ = 0;
};

// A few counts by name, in name order, read like the std::map<std::string, V> they replace: one
// vector of (4-byte interned name, value), where each map node took about 80 bytes with its string
// (issue #18: every basic block keeps three such maps in its totals).
template <typename V> class CountsByName {
public:
    using value_type = std::pair<InternedString, V>;
    using const_iterator = typename std::vector<value_type>::const_iterator;

    V& operator[](std::string_view name)
    {
        auto at = lowerBound(name);
        if (at == items_.end() || at->first != name)
            at = items_.insert(at, value_type(InternedString(name), V {}));
        return at->second;
    }
    const_iterator find(std::string_view name) const
    {
        const auto at = lowerBound(name);
        return at != items_.end() && at->first == name ? at : items_.end();
    }
    const V& at(std::string_view name) const
    {
        const auto it = find(name);
        if (it == items_.end())
            throw std::out_of_range("CountsByName::at");
        return it->second;
    }
    std::size_t count(std::string_view name) const { return find(name) == items_.end() ? 0 : 1; }
    const_iterator begin() const { return items_.begin(); }
    const_iterator end() const { return items_.end(); }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    bool operator==(const CountsByName&) const = default;

private:
    template <typename Items> static auto lowerBound(Items& items, std::string_view name)
    {
        return std::lower_bound(items.begin(), items.end(), name,
                                [](const value_type& item, std::string_view key) { return item.first.view() < key; });
    }
    typename std::vector<value_type>::iterator lowerBound(std::string_view name) { return lowerBound(items_, name); }
    const_iterator lowerBound(std::string_view name) const { return lowerBound(items_, name); }
    std::vector<value_type> items_;
};

// A text that is an interned pattern with up to two numbers written into it when it is read: 12
// bytes and no allocation of its own, for the per-instruction details (issue #18). A detail repeats
// its wording and differs in a line number or a block address: the wording is stored once, the
// numbers in the value ("2-dword instruction at slot 3 of block \x02: …", 0x40). Reads like a
// const std::string; the text is made on each read, so it has no view().
class PatternText {
public:
    // Builds a pattern: text is kept as written, number() and hex() leave a hole for their value.
    class Builder {
    public:
        Builder() { pattern_.reserve(200); } // one allocation: details are under 200 bytes
        Builder& operator<<(std::string_view text);
        Builder& operator<<(const char* text) { return *this << std::string_view(text); }
        Builder& operator<<(const std::string& text) { return *this << std::string_view(text); }
        Builder& operator<<(long long value); // written into the pattern (small numbers repeat)
        Builder& operator<<(int value) { return *this << static_cast<long long>(value); }
        Builder& operator<<(const InternedString& text) { return *this << text.view(); }
        Builder& number(long long value);  // a hole (line numbers): decimal
        Builder& hex(std::uint64_t value); // a hole (addresses): "0x" and lower-case hex digits
        // `builder << Hole {line} << HexHole {block}`: number() and hex() in a chain.
        struct Hole {
            long long value;
        };
        struct HexHole {
            std::uint64_t value;
        };
        Builder& operator<<(Hole hole) { return number(hole.value); }
        Builder& operator<<(HexHole hole) { return hex(hole.value); }
        PatternText take();

    private:
        void hole(char marker, std::uint64_t value);
        std::string pattern_;
        std::uint32_t values_[2] = {};
        int holes_ = 0;
        bool literal_ = false; // the text itself holds a marker byte: the whole text is the pattern
    };

    PatternText() = default;
    PatternText(std::string_view text);
    PatternText(const std::string& text)
        : PatternText(std::string_view(text))
    {
    }
    PatternText(const char* text)
        : PatternText(std::string_view(text))
    {
    }

    std::string str() const
    {
        std::string out;
        appendTo(out);
        return out;
    }
    void appendTo(std::string& out) const;
    operator std::string() const { return str(); }
    bool empty() const { return pattern_ == 0; }
    std::size_t size() const { return str().size(); }
    std::size_t find(std::string_view s, std::size_t pos = 0) const { return str().find(s, pos); }

    friend bool operator==(const PatternText& a, const PatternText& b)
    {
        return (a.pattern_ == b.pattern_ && a.values_[0] == b.values_[0] && a.values_[1] == b.values_[1]) || a.str() == b.str();
    }
    friend bool operator==(const PatternText& a, std::string_view b) { return a.str() == b; }
    friend bool operator==(const PatternText& a, const std::string& b) { return a.str() == b; }
    friend bool operator==(const PatternText& a, const char* b) { return a.str() == b; }
    friend std::ostream& operator<<(std::ostream& out, const PatternText& s) { return out << s.str(); }

private:
    std::uint32_t pattern_ = 0; // interned; 0 for ""
    std::uint32_t values_[2] = {};
};

} // namespace gcnlens

template <> struct std::formatter<gcnlens::InternedString> : std::formatter<std::string_view> {
    auto format(const gcnlens::InternedString& s, std::format_context& ctx) const
    {
        return std::formatter<std::string_view>::format(s.view(), ctx);
    }
};

template <> struct std::formatter<gcnlens::PatternText> : std::formatter<std::string_view> {
    auto format(const gcnlens::PatternText& s, std::format_context& ctx) const
    {
        return std::formatter<std::string_view>::format(s.str(), ctx);
    }
};

// Hashes the handle: interned text as a hash map key costs no pass over its characters.
template <> struct std::hash<gcnlens::InternedString> {
    std::size_t operator()(const gcnlens::InternedString& s) const noexcept { return std::hash<std::uint32_t> {}(s.handle()); }
};
