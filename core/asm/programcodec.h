// SPDX-License-Identifier: MIT
// A compact binary form of a Program (and of the assembler's request), for passing results between
// the assembler worker process and the window or the CLI (core/asm/isolated.h). Plain bytes: no
// Qt, no LLVM. Integers are LEB128 varints (signed ones zig-zagged), strings length-prefixed.
// decode() trusts nothing: a truncated or corrupt buffer gives an error, never a crash.
#pragma once

#include "core/asm/assembler.h"
#include "core/program.h"

#include <string>
#include <string_view>

namespace gcnlens::codec {

std::string encode(const Program& program);
// Appends to `out` (the worker writes a frame header first).
void encodeTo(const Program& program, std::string& out);
// False on a malformed buffer, with the reason in *error; `program` is then unspecified.
bool decode(std::string_view bytes, Program& program, std::string* error = nullptr);

// The worker's request: the options and the source text.
void encodeRequest(const AssembleOptions& options, std::string_view source, std::string& out);
bool decodeRequest(std::string_view bytes, AssembleOptions& options, std::string& source, std::string* error = nullptr);

} // namespace gcnlens::codec
