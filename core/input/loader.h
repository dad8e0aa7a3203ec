// SPDX-License-Identifier: MIT
// The one loader: a kernel file's bytes to the text every later stage reads (UTF-8, LF line
// breaks), with the checks and messages the CLI and the window share. The first stage of the
// pipeline: input (this) → asm → model → Analysis → presenters.
//
// Text: a BOM names the encoding (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE); otherwise UTF-8, and text that
// is not valid UTF-8 is read as Latin-1 (every byte kept, written back the same way). CR LF and lone
// CR become LF; the format remembers them so that saving writes the file back as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gcnlens::input {

// What a file holds. Auto: detected from the bytes (detectInputKind).
enum class InputKind { Auto, Llvm, Clrx, Binary, Listing };
std::string_view inputKindName(InputKind kind); // "auto", "llvm", "clrx", "binary", "listing"
// "llvm", "clrx", … → the kind; false for an unknown name.
bool parseInputKind(std::string_view name, InputKind& kind);

enum class Encoding { Utf8, Utf16LE, Utf16BE, Utf32LE, Utf32BE, Latin1 };
std::string_view encodingName(Encoding encoding);

struct SourceFormat {
    Encoding encoding = Encoding::Utf8;
    bool bom = false;            // the file started with a byte-order mark
    bool latin1Fallback = false; // not valid UTF-8: read as Latin-1
    bool crlf = false;           // CR LF line breaks (saved back with them)
};

// Sources larger than this are refused: no kernel is this big (a million instructions are about
// 30 MiB), and the assembler needs over 1 KiB per instruction.
constexpr std::uint64_t kMaxSourceBytes = 64ull * 1024 * 1024;

// Decodes a text file chunk by chunk (the window reads large files in slices with progress).
// feed() may be called with chunks of any size, split anywhere.
class SourceDecoder {
public:
    // False on an error (a NUL byte in 8-bit text: not a text file); error() says why.
    bool feed(std::string_view chunk);
    // Completes the text: Latin-1 fallback, line breaks. False on an error.
    bool finish();

    const std::string& text() const { return text_; }
    std::string takeText() { return std::move(text_); }
    const SourceFormat& format() const { return format_; }
    std::uint64_t bytesRead() const { return bytesRead_; }
    // The cause, without the file's name: the caller says "NAME: " + error().
    const std::string& error() const { return error_; }

private:
    bool decodeWide(std::string_view bytes);
    std::string raw_;     // 8-bit input kept until finish() knows whether it is UTF-8
    std::string pending_; // a partial wide code unit or BOM prefix carried to the next chunk
    std::string text_;
    SourceFormat format_;
    std::uint64_t bytesRead_ = 0;
    bool started_ = false;
    std::string error_;
};

// Encodes the editor's text (UTF-8, LF) back into the file's format. `lossy` is set when Latin-1
// cannot hold a character (the caller then saves UTF-8 rather than lose it).
std::string encodeSource(std::string_view text, const SourceFormat& format, bool* lossy = nullptr);

// What a file's first bytes say it is: an ELF code object or a clang offload bundle is Binary;
// text is Llvm unless it reads as a disassembly listing or as CLRX syntax. (The CLRX and listing
// readers refine this; see looksLikeListing / looksLikeClrx where they are declared.)
InputKind detectInputKind(std::string_view bytes);

struct Loaded {
    std::string text;  // UTF-8, LF (empty for Binary)
    std::string bytes; // the raw bytes, kept for Binary inputs
    SourceFormat format;
    InputKind kind = InputKind::Llvm;
    std::string error; // non-empty: not loadable; the cause without the file's name
};

// Bytes (all of them) to a loaded source. `forced` overrides detection (--input).
Loaded loadBytes(std::string_view bytes, InputKind forced = InputKind::Auto);

// A path checked before reading: "" when it may be read, else the cause ("no such file", "is a
// directory, not a kernel source", "… MiB is larger than the 64 MiB gcnlens reads", "not a regular
// file (a device, a socket, a FIFO)") without the file's name.
std::string checkPath(const std::string& path, std::uint64_t maxBytes = kMaxSourceBytes);

// Reads a whole file (or standard input for "-") with the checks above, at most maxBytes + 1 bytes
// (a device such as /dev/zero has no size up front), and loads it.
Loaded loadFile(const std::string& path, InputKind forced = InputKind::Auto, std::uint64_t maxBytes = kMaxSourceBytes);

} // namespace gcnlens::input
