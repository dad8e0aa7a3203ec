// SPDX-License-Identifier: MIT
// Compact value types for the per-instruction data of Program and Analysis (issue #18: at most
// 120 bytes per analysed instruction). A million-instruction kernel repeats a few hundred
// mnemonics, register lists and rule texts a million times; stored once each in a process-wide
// pool, an instruction holds 8-byte handles instead of 32-byte strings and 24-byte vectors with
// their own allocations. The types read like the std::string / std::vector fields they replace.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <format>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gcnlens {

namespace intern {
// Stores `bytes` once per process and pool (the same bytes give the same pointer) and returns
// where they live: never moved, never freed, so handles stay valid in every copy of a result and
// across threads. The item count sits in the 4 bytes before the returned pointer; a char pool
// also keeps a terminating 0. `pool` separates element types (0: text, 1: bytes, 2: registers).
const void* store(int pool, const void* bytes, std::size_t count, std::size_t elementSize);
// Bytes the pools hold (for the benchmarks).
std::size_t poolBytes();
} // namespace intern

// An immutable, interned array of trivially copyable T: one pointer, null when empty. Equal
// contents are the same pointer, so == is a pointer compare.
template <typename T> class InternedArray {
    static_assert(std::is_trivially_copyable_v<T>);

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

    const T* begin() const { return data_; }
    const T* end() const { return data_ + size(); }
    const T* data() const { return data_; }
    std::size_t size() const { return data_ ? *(reinterpret_cast<const std::uint32_t*>(data_) - 1) : 0; }
    bool empty() const { return data_ == nullptr; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    const T& at(std::size_t i) const { return data_[i]; }
    const T& front() const { return data_[0]; }
    const T& back() const { return data_[size() - 1]; }
    std::span<const T> span() const { return {data_, size()}; }
    operator std::span<const T>() const { return span(); }
    std::vector<T> toVector() const { return {begin(), end()}; }

    template <typename It> void assign(It first, It last)
    {
        const std::vector<T> items(first, last);
        set(items.data(), items.size());
    }
    void clear() { data_ = nullptr; }
    // Builds a new interned array: for the front-end, which adds a few items per instruction.
    void push_back(const T& item)
    {
        std::vector<T> items(begin(), end());
        items.push_back(item);
        set(items.data(), items.size());
    }

    bool operator==(const InternedArray& other) const { return data_ == other.data_; }
    bool operator==(const std::vector<T>& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

private:
    static constexpr int pool()
    {
        if constexpr (std::is_same_v<T, std::uint8_t>)
            return 1;
        else
            return 2 + int(sizeof(T)); // one pool per element size is enough to keep equal bytes apart
    }
    void set(const T* items, std::size_t count)
    {
        data_ = count ? static_cast<const T*>(intern::store(pool(), items, count, sizeof(T))) : nullptr;
    }
    const T* data_ = nullptr;
};

// An interned, immutable string (8 bytes; "" when null). Reads like a const std::string: size,
// find, substr, comparisons with any string, conversion to std::string and std::string_view.
class InternedString {
public:
    static constexpr std::size_t npos = std::string_view::npos;

    InternedString() = default;
    InternedString(std::string_view text) { set(text); }
    InternedString(const std::string& text) { set(text); }
    InternedString(const char* text) { set(text); }

    std::string_view view() const { return data_ ? std::string_view(data_, size()) : std::string_view(); }
    operator std::string_view() const { return view(); }
    operator std::string() const { return std::string(view()); }
    std::string str() const { return std::string(view()); }

    const char* data() const { return data_ ? data_ : ""; }
    const char* c_str() const { return data(); }
    std::size_t size() const { return data_ ? *(reinterpret_cast<const std::uint32_t*>(data_) - 1) : 0; }
    std::size_t length() const { return size(); }
    bool empty() const { return data_ == nullptr; }
    const char* begin() const { return data(); }
    const char* end() const { return data() + size(); }
    char operator[](std::size_t i) const { return data_[i]; }
    char front() const { return data_[0]; }
    char back() const { return data_[size() - 1]; }

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

    friend bool operator==(const InternedString& a, const InternedString& b) { return a.data_ == b.data_; }
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
    void set(std::string_view text)
    {
        data_ = text.empty() ? nullptr : static_cast<const char*>(intern::store(0, text.data(), text.size(), 1));
    }
    const char* data_ = nullptr;
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

// An owned list that costs one null pointer when empty (most instructions have no penalty, no
// finding): reads and grows like the std::vector it replaces; copies are deep.
template <typename T> class SparseList {
public:
    using value_type = T;
    using const_iterator = const T*;
    using iterator = T*;
    using size_type = std::size_t;

    SparseList() = default;
    SparseList(std::initializer_list<T> items) { *this = std::vector<T>(items); }
    SparseList(std::vector<T> items) { *this = std::move(items); }
    SparseList(const SparseList& other)
        : items_(other.items_ ? std::make_unique<std::vector<T>>(*other.items_) : nullptr)
    {
    }
    SparseList(SparseList&&) noexcept = default;
    SparseList& operator=(const SparseList& other)
    {
        if (this != &other)
            items_ = other.items_ ? std::make_unique<std::vector<T>>(*other.items_) : nullptr;
        return *this;
    }
    SparseList& operator=(SparseList&&) noexcept = default;
    SparseList& operator=(std::vector<T> items)
    {
        items_ = items.empty() ? nullptr : std::make_unique<std::vector<T>>(std::move(items));
        return *this;
    }

    T* begin() { return items_ ? items_->data() : nullptr; }
    T* end() { return items_ ? items_->data() + items_->size() : nullptr; }
    const T* begin() const { return items_ ? items_->data() : nullptr; }
    const T* end() const { return items_ ? items_->data() + items_->size() : nullptr; }
    std::size_t size() const { return items_ ? items_->size() : 0; }
    bool empty() const { return !items_; }
    T& operator[](std::size_t i) { return (*items_)[i]; }
    const T& operator[](std::size_t i) const { return (*items_)[i]; }
    const T& at(std::size_t i) const
    {
        static const std::vector<T> none;
        return (items_ ? *items_ : none).at(i);
    }
    const T& front() const { return items_->front(); }
    const T& back() const { return items_->back(); }
    T& back() { return items_->back(); }
    void clear() { items_.reset(); }
    void push_back(T item) { list().push_back(std::move(item)); }
    template <typename... Args> T& emplace_back(Args&&... args) { return list().emplace_back(std::forward<Args>(args)...); }

    bool operator==(const SparseList& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

private:
    std::vector<T>& list()
    {
        if (!items_)
            items_ = std::make_unique<std::vector<T>>();
        return *items_;
    }
    std::unique_ptr<std::vector<T>> items_;
};

// An owned string that costs one null pointer when empty (a detail most instructions lack); reads
// like a const std::string.
class OwnedString {
public:
    OwnedString() = default;
    OwnedString(std::string text) { *this = std::move(text); }
    OwnedString(const char* text) { *this = std::string(text); }
    OwnedString(const OwnedString& other)
        : text_(other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr)
    {
    }
    OwnedString(OwnedString&&) noexcept = default;
    OwnedString& operator=(const OwnedString& other)
    {
        if (this != &other)
            text_ = other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr;
        return *this;
    }
    OwnedString& operator=(OwnedString&&) noexcept = default;
    OwnedString& operator=(std::string text)
    {
        text_ = text.empty() ? nullptr : std::make_unique<std::string>(std::move(text));
        return *this;
    }
    OwnedString& operator=(const char* text) { return *this = std::string(text); }

    const std::string& str() const
    {
        static const std::string none;
        return text_ ? *text_ : none;
    }
    operator const std::string&() const { return str(); }
    operator std::string_view() const { return str(); }
    bool empty() const { return !text_; }
    std::size_t size() const { return str().size(); }
    const char* c_str() const { return str().c_str(); }
    const char* data() const { return str().data(); }
    std::size_t find(std::string_view s, std::size_t pos = 0) const { return str().find(s, pos); }
    friend bool operator==(const OwnedString& a, const OwnedString& b) { return a.str() == b.str(); }
    friend bool operator==(const OwnedString& a, std::string_view b) { return a.str() == b; }
    friend bool operator==(const OwnedString& a, const char* b) { return a.str() == b; }
    friend std::ostream& operator<<(std::ostream& out, const OwnedString& s) { return out << s.str(); }

private:
    std::unique_ptr<std::string> text_;
};

} // namespace gcnlens

template <> struct std::formatter<gcnlens::OwnedString> : std::formatter<std::string_view> {
    auto format(const gcnlens::OwnedString& s, std::format_context& ctx) const
    {
        return std::formatter<std::string_view>::format(s.str(), ctx);
    }
};

template <> struct std::formatter<gcnlens::InternedString> : std::formatter<std::string_view> {
    auto format(const gcnlens::InternedString& s, std::format_context& ctx) const
    {
        return std::formatter<std::string_view>::format(s.view(), ctx);
    }
};
