// SPDX-License-Identifier: MIT
#include "core/input/loader.h"

#include "core/input/detect.h"

#include "core/input/clrx.h"
#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace gcnlens::input {

namespace {

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xc0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += char(0xe0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    } else {
        out += char(0xf0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3f));
        out += char(0x80 | ((cp >> 6) & 0x3f));
        out += char(0x80 | (cp & 0x3f));
    }
}

// Whether the bytes are well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool validUtf8(std::string_view s)
{
    for (std::size_t at = 0; at < s.size();) {
        if (static_cast<unsigned char>(s[at]) < 0x80) { // the usual case, without a call
            ++at;
            continue;
        }
        const std::size_t length = detail::utf8SequenceLength(s.substr(at));
        if (length == 0)
            return false;
        at += length;
    }
    return true;
}

// CR LF and lone CR to LF, in place; true when a CR LF was seen.
bool normaliseLineBreaks(std::string& text)
{
    if (text.find('\r') == std::string::npos)
        return false;
    bool crlf = false;
    std::size_t out = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r') {
            if (i + 1 < text.size() && text[i + 1] == '\n') {
                crlf = true;
                ++i;
            }
            text[out++] = '\n';
        } else {
            text[out++] = text[i];
        }
    }
    text.resize(out);
    return crlf;
}

int unitSize(Encoding e)
{
    return e == Encoding::Utf16LE || e == Encoding::Utf16BE ? 2 : e == Encoding::Utf32LE || e == Encoding::Utf32BE ? 4 : 1;
}

} // namespace

std::string_view inputKindName(InputKind kind)
{
    switch (kind) {
    case InputKind::Auto:
        return "auto";
    case InputKind::Llvm:
        return "llvm";
    case InputKind::Clrx:
        return "clrx";
    case InputKind::Binary:
        return "binary";
    case InputKind::Listing:
        return "listing";
    }
    return "auto";
}

bool parseInputKind(std::string_view name, InputKind& kind)
{
    for (const InputKind k : {InputKind::Auto, InputKind::Llvm, InputKind::Clrx, InputKind::Binary, InputKind::Listing})
        if (name == inputKindName(k)) {
            kind = k;
            return true;
        }
    return false;
}

std::string_view encodingName(Encoding encoding)
{
    switch (encoding) {
    case Encoding::Utf8:
        return "UTF-8";
    case Encoding::Utf16LE:
        return "UTF-16LE";
    case Encoding::Utf16BE:
        return "UTF-16BE";
    case Encoding::Utf32LE:
        return "UTF-32LE";
    case Encoding::Utf32BE:
        return "UTF-32BE";
    case Encoding::Latin1:
        return "Latin-1";
    }
    return "UTF-8";
}

bool SourceDecoder::feed(std::string_view chunk)
{
    if (!error_.empty())
        return false;
    if (!started_) {
        // The BOM decides; it may arrive split over the first chunks (at most 4 bytes).
        pending_.append(chunk);
        const std::string_view head = pending_;
        struct Bom {
            std::string_view bytes;
            Encoding encoding;
        };
        // (Literals with their length: the UTF-32 marks hold NUL bytes.)
        static constexpr std::array<Bom, 5> boms {{{{"\xff\xfe\0\0", 4}, Encoding::Utf32LE},
                                                   {{"\0\0\xfe\xff", 4}, Encoding::Utf32BE},
                                                   {{"\xef\xbb\xbf", 3}, Encoding::Utf8},
                                                   {{"\xff\xfe", 2}, Encoding::Utf16LE},
                                                   {{"\xfe\xff", 2}, Encoding::Utf16BE}}};
        // Longest marks first: "\xff\xfe" may still become UTF-32LE's "\xff\xfe\0\0".
        for (const Bom& bom : boms) {
            const std::string_view b = bom.bytes;
            if (head.size() >= b.size() && head.substr(0, b.size()) == b) {
                format_.encoding = bom.encoding;
                format_.bom = true;
                pending_.erase(0, b.size());
                break;
            }
            if (!chunk.empty() && head.size() < b.size() && b.substr(0, head.size()) == head)
                return true; // wait for more bytes (an empty chunk is finish(): decide now)
        }
        started_ = true;
        std::string rest = std::move(pending_);
        pending_.clear();
        return feed(rest);
    }
    bytesRead_ += chunk.size();
    if (format_.encoding == Encoding::Utf8) {
        if (const auto nul = chunk.find('\0'); nul != std::string_view::npos) {
            error_ = "binary data at byte " + std::to_string(bytesRead_ - chunk.size() + nul + (format_.bom ? 3 : 0))
                + " (NUL); gcnlens reads assembly source text";
            return false;
        }
        raw_.append(chunk);
        return true;
    }
    pending_.append(chunk);
    return decodeWide(std::string_view());
}

bool SourceDecoder::decodeWide(std::string_view)
{
    const int unit = unitSize(format_.encoding);
    const bool little = format_.encoding == Encoding::Utf16LE || format_.encoding == Encoding::Utf32LE;
    const std::size_t whole = pending_.size() / std::size_t(unit) * std::size_t(unit);
    const auto* p = reinterpret_cast<const unsigned char*>(pending_.data());
    std::size_t i = 0;
    while (i < whole) {
        std::uint32_t u = 0;
        for (int b = 0; b < unit; ++b)
            u |= std::uint32_t(p[i + std::size_t(little ? b : unit - 1 - b)]) << (8 * b);
        if (unit == 2 && u >= 0xd800 && u <= 0xdbff) {
            if (i + 4 > whole)
                break; // the low surrogate is in the next chunk
            std::uint32_t low = 0;
            for (int b = 0; b < 2; ++b)
                low |= std::uint32_t(p[i + 2 + std::size_t(little ? b : 1 - b)]) << (8 * b);
            u = low >= 0xdc00 && low <= 0xdfff ? 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00) : 0xfffd;
            i += low >= 0xdc00 && low <= 0xdfff ? 4 : 2;
        } else {
            i += std::size_t(unit);
        }
        if (u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff))
            u = 0xfffd;
        appendUtf8(text_, u);
    }
    pending_.erase(0, i);
    return true;
}

bool SourceDecoder::finish()
{
    if (!started_ && !feed(std::string_view())) // a text shorter than a BOM: decide on what there is
        return false;
    if (!error_.empty())
        return false;
    if (format_.encoding == Encoding::Utf8) {
        if (validUtf8(raw_)) {
            text_ = std::move(raw_);
        } else {
            // Not UTF-8: Latin-1 keeps every byte, and saving writes them back the same way.
            text_.clear();
            text_.reserve(raw_.size() + raw_.size() / 8);
            for (const char c : raw_)
                appendUtf8(text_, static_cast<unsigned char>(c));
            format_.encoding = Encoding::Latin1;
            format_.latin1Fallback = true;
        }
        raw_.clear();
    } else if (!pending_.empty()) {
        appendUtf8(text_, 0xfffd); // a truncated last code unit
        pending_.clear();
    }
    format_.crlf = normaliseLineBreaks(text_);
    return true;
}

std::string encodeSource(std::string_view text, const SourceFormat& format, bool* lossy)
{
    if (lossy)
        *lossy = false;
    std::string lines;
    if (format.crlf) {
        lines.reserve(text.size() + text.size() / 16);
        for (const char c : text) {
            if (c == '\n')
                lines += '\r';
            lines += c;
        }
        text = lines;
    }
    if (format.encoding == Encoding::Utf8)
        return (format.bom ? std::string("\xef\xbb\xbf") : std::string()) + std::string(text);
    std::string out;
    const int unit = unitSize(format.encoding);
    const bool little = format.encoding == Encoding::Utf16LE || format.encoding == Encoding::Utf32LE;
    const auto put = [&](std::uint32_t u, int width) {
        for (int b = 0; b < width; ++b)
            out += char((u >> (8 * (little ? b : width - 1 - b))) & 0xff);
    };
    if (format.bom && unit > 1)
        put(0xfeff, unit);
    else if (format.bom)
        out = "\xef\xbb\xbf"; // a UTF-8 BOM before text that was not UTF-8 (read as Latin-1) is kept too
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    while (p < end) {
        std::uint32_t cp = *p;
        int n = cp < 0x80 ? 0 : (cp & 0xe0) == 0xc0 ? 1 : (cp & 0xf0) == 0xe0 ? 2 : 3;
        cp &= n == 0 ? 0x7f : n == 1 ? 0x1f : n == 2 ? 0x0f : 0x07;
        for (int i = 1; i <= n && p + i < end; ++i)
            cp = (cp << 6) | (p[i] & 0x3f);
        p += std::min<std::ptrdiff_t>(n + 1, end - p); // a sequence cut short by the end of the text
        if (format.encoding == Encoding::Latin1) {
            if (cp > 0xff) {
                if (lossy)
                    *lossy = true;
                cp = '?';
            }
            out += char(cp);
        } else if (unit == 2 && cp >= 0x10000) {
            put(0xd800 + ((cp - 0x10000) >> 10), 2);
            put(0xdc00 + ((cp - 0x10000) & 0x3ff), 2);
        } else {
            put(cp, unit);
        }
    }
    return out;
}

InputKind detectInputKind(std::string_view bytes)
{
    if (looksLikeCodeObject(bytes))
        return InputKind::Binary;
    if (looksLikeListing(bytes))
        return InputKind::Listing;
    return looksLikeClrx(bytes) ? InputKind::Clrx : InputKind::Llvm;
}

Loaded loadBytes(std::string_view bytes, InputKind forced)
{
    Loaded loaded;
    loaded.kind = forced == InputKind::Auto ? detectInputKind(bytes) : forced;
    if (loaded.kind == InputKind::Binary) {
        loaded.bytes.assign(bytes);
        return loaded;
    }
    SourceDecoder decoder;
    if (!decoder.feed(bytes) || !decoder.finish()) {
        loaded.error = decoder.error();
        return loaded;
    }
    loaded.text = decoder.takeText();
    loaded.format = decoder.format();
    return loaded;
}

namespace {

// loadBytes for bytes the loader owns: UTF-8 text, by far the common case, becomes the text in
// place rather than through the decoder's two copies. A fresh page can cost 15 µs on the machines
// gcnlens is measured on: those copies were most of a 34 MB source's 0.65 s load (issue #18).
// Anything else (a wide BOM, a NUL, bytes that are not UTF-8) goes the decoder's way.
Loaded loadOwnedBytes(std::string&& bytes, InputKind forced)
{
    const InputKind kind = forced == InputKind::Auto ? detectInputKind(bytes) : forced;
    const std::string_view view(bytes);
    const bool utf8Bom = view.starts_with("\xef\xbb\xbf");
    const bool wideBom = view.starts_with("\xff\xfe") || view.starts_with("\xfe\xff");
    if (kind == InputKind::Binary || wideBom || view.find('\0') != std::string_view::npos
        || !validUtf8(view.substr(utf8Bom ? 3 : 0)))
        return loadBytes(view, kind);
    Loaded loaded;
    loaded.kind = kind;
    if (utf8Bom)
        bytes.erase(0, 3);
    loaded.format.bom = utf8Bom;
    loaded.format.crlf = normaliseLineBreaks(bytes);
    loaded.text = std::move(bytes);
    return loaded;
}

} // namespace

std::string checkPath(const std::string& path, std::uint64_t maxBytes)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return errno == ENOENT ? std::string("no such file") : std::string("cannot open: ") + std::strerror(errno);
    if (S_ISDIR(info.st_mode))
        return "is a directory, not a kernel source";
    if (S_ISREG(info.st_mode) && std::uint64_t(info.st_size) > maxBytes)
        return std::to_string(std::uint64_t(info.st_size) >> 20) + " MiB is larger than the " + std::to_string(maxBytes >> 20)
            + " MiB gcnlens reads";
    return {};
}

Loaded loadFile(const std::string& path, InputKind forced, std::uint64_t maxBytes)
{
    Loaded loaded;
    const bool fromStdin = path == "-";
    if (!fromStdin) {
        loaded.error = checkPath(path, maxBytes);
        if (!loaded.error.empty())
            return loaded;
    }
    std::FILE* in = fromStdin ? stdin : std::fopen(path.c_str(), "rb");
    if (!in) {
        struct stat info {};
        const bool regular = ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
        loaded.error = std::string("cannot open: ") + std::strerror(errno) + (regular ? "" : " (not a regular file)");
        return loaded;
    }
    // At most maxBytes + 1: a file's size may be unknown up front (a pipe, /dev/zero).
    std::string bytes;
    struct stat info {};
    if (::fstat(::fileno(in), &info) == 0 && S_ISREG(info.st_mode) && std::uint64_t(info.st_size) <= maxBytes)
        bytes.reserve(std::size_t(info.st_size) + 1); // read once into its place: no regrowth copies
    std::array<char, 1 << 16> buffer {};
    std::size_t n = 0;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), in)) > 0) {
        bytes.append(buffer.data(), n);
        if (bytes.size() > maxBytes) {
            loaded.error = "more than " + std::to_string(maxBytes >> 20) + " MiB; gcnlens reads kernel sources up to "
                + std::to_string(maxBytes >> 20) + " MiB";
            break;
        }
    }
    const bool failed = std::ferror(in) != 0;
    const int readErrno = errno;
    if (!fromStdin)
        std::fclose(in);
    if (!loaded.error.empty())
        return loaded;
    if (failed) {
        loaded.error = std::string("cannot read: ") + std::strerror(readErrno);
        return loaded;
    }
    return loadOwnedBytes(std::move(bytes), forced);
}

} // namespace gcnlens::input
