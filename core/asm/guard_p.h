// SPDX-License-Identifier: MIT
// Private to core/asm: the checks made on the text before LLVM sees it (issue #12). LLVM builds a
// `.rept` body's whole expansion as one string before parsing any of it (`.rept 100000000` is
// gigabytes), and it reads any `.include`/`.incbin` path it can open (a device never ends), so
// these are refused here: the directive is blanked (same length, so lines and columns hold) and an
// error names the line, the limit or the rule, and how to lift it.
#pragma once

#include "core/asm/assembler.h"

#include <string>
#include <string_view>
#include <vector>

namespace gcnlens::detail {

// False when the text needs no change; otherwise `guarded` is the text to assemble. Errors are
// appended either way.
bool guardText(std::string_view text, const AssembleOptions& options, std::string& guarded, std::vector<Diagnostic>& errors);

} // namespace gcnlens::detail
