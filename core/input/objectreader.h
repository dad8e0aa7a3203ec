// SPDX-License-Identifier: MIT
// Code objects as users hold them: ELF files for amdgcn (code object v2 to v6, relocatable or
// linked) and clang offload bundles / HIP fat binaries. Each kernel is disassembled with LLVM's
// AMDGPU disassembler into a Program, so every model and presenter works on it as on source; the
// Program's lines are those of a generated, read-only listing (llvm-objdump's layout). No LLVM here.
#pragma once

#include "core/program.h"

#include <string>
#include <string_view>

namespace gcnlens::input {

struct ObjectReadOptions {
    std::string gpu; // empty: the processor and features the ELF header names
    std::string fileName = "<input>";
};

struct ObjectListing {
    Program program;     // Instruction::line, Kernel::line, Label::line, directives: lines of `listing`
    std::string listing; // one instruction per line: text, then "// ADDRESS: WORDS"
    std::string error;   // non-empty: nothing readable; the cause, without the file's name
};

ObjectListing readCodeObject(std::string_view bytes, const ObjectReadOptions& options);

} // namespace gcnlens::input
