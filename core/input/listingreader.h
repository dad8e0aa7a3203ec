// SPDX-License-Identifier: MIT
// Disassembly listings as users paste them: `llvm-objdump -d` (symbol lines "0000… <name>:",
// instructions with "// ADDRESS: WORDS" comments), `clrxdisasm` ("/*ADDRESS: WORDS*/" or
// "/*WORDS*/" before the text), and plain instruction text with leading addresses. Where a line
// gives an encoding it is the ground truth (size, bytes, address); the text is assembled too and a
// disagreement is a warning on that line. No LLVM here.
#pragma once

#include "core/asm/assembler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens::input {

struct ListingLine {
    enum Kind { Other, Header, Symbol, Instruction } kind = Other;
    std::optional<std::uint64_t> address;
    std::vector<std::uint8_t> bytes; // the encoding the line gives, in memory order
    std::string_view text;           // instruction text, or the symbol's name
    // The line carries a listing's marks (an address, an encoding, a symbol line, a header): what
    // detection counts. Plain instruction text without them is an Instruction that is not marked.
    bool marked = false;
};

ListingLine parseListingLine(std::string_view line);

// Reads a listing. options.gpu is the target (a listing does not name it reliably).
Program readListing(std::string_view text, const AssembleOptions& options);

// The text readListing() has the assembler read: each line's statement alone, lines kept (for
// fuzz_listingreader, whose hangs tools/fuzz checks with llvm-mc on this text).
std::string listingAssemblerText(std::string_view text);

} // namespace gcnlens::input
