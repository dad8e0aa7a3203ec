// SPDX-License-Identifier: MIT
// What a file's bytes hold, for the one loader (loader.h): a code object (ELF or clang offload
// bundle), a disassembly listing, or assembly source.
#pragma once

#include <string_view>

namespace gcnlens::input {

// ELF magic, or a clang offload bundle (plain or compressed).
bool looksLikeCodeObject(std::string_view bytes);
// Most statements carry a listing's marks (listingreader.h): addresses, encodings, symbol lines.
bool looksLikeListing(std::string_view text);
// detectInputKind (loader.h) asks these before the CLRX reader's looksLikeClrx.

} // namespace gcnlens::input
