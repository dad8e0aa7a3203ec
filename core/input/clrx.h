// SPDX-License-Identifier: MIT
// CLRX (CLRadeonExtender) assembler dialect: detection and a translator to LLVM AMDGPU syntax that
// runs before the assembler. Sizes and encodings still come from LLVM's encoder; the translator
// only rewrites syntax (comments, ';' separators, pseudo-ops, register symbols, operand forms) and
// keeps, for every line it writes, the source line and column it came from.
#pragma once

#include "core/program.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcnlens {

// True when the text reads as CLRX rather than LLVM syntax: CLRX-only pseudo-ops (.kernel,
// .config, .gpu, .arch, .amdcl2, .rocm, .iffmt, …), '#' comments, '%' register symbols.
bool looksLikeClrx(std::string_view text);

// clrxasm's options that steer .iffmt/.if64 (ClrxAsmInvoke.md); the defaults are clrxasm's.
enum class ClrxFormat { Amd, AmdCl2, Rocm, Gallium, RawCode };
std::string_view clrxFormatName(ClrxFormat format); // "amd", "amdcl2", …
bool parseClrxFormat(std::string_view name, ClrxFormat& format);

struct ClrxOptions {
    ClrxFormat format = ClrxFormat::Amd;  // clrxasm -b (default amd)
    bool is64bit = false;                 // clrxasm -6
    int driverVersion = 0;                // clrxasm -t; 0: none (clrxasm would ask the installed driver)
    int llvmVersion = 40000;              // .get_llvm_version (clrxasm asks the installed LLVM; any current one is ≥ 4.0)
    std::string processor = "tahiti";     // LLVM processor the code is for (.ifarch, .ifgpu)
    bool sourceGpuWins = true;            // a .gpu/.arch in the source replaces `processor`
    std::vector<std::string> includeDirs; // where `.include "file"` looks after the name as given
};

struct ClrxTranslation {
    std::string text; // LLVM AMDGPU syntax

    // Where each output line came from (index = output line - 1). Several output lines may come
    // from one source line (';'-separated statements, .for/.while bodies); columns map through
    // anchors: (output column, source column) pairs in ascending output column.
    struct Origin {
        int line = 0;           // 1-based source line
        int begin = 0, end = 0; // the statement's span on that line
        std::vector<std::pair<int, int>> anchors;
    };
    std::vector<Origin> origins;

    std::vector<Diagnostic> notes;             // things the translator could not carry over
    std::vector<ResourceDirective> directives; // .config values (source lines); kernel = index in kernels
    std::vector<std::string> kernels;          // .kernel names in order
    std::string processor;                     // LLVM processor chosen by .gpu/.arch ("" when none)
    // Symbols that force a literal (lit(), symbols defined after use) and their values: the
    // listing shows the value, as for any literal.
    std::vector<std::pair<std::string, std::int64_t>> literals;
    // Branch targets written label±N, carried to LLVM as symbols assigned at the end of the text
    // (".Lgcnlens_br0", "loop+8"): the listing shows the expression.
    std::vector<std::pair<std::string, std::string>> branchTargets;

    // Source line and column of an output position (1-based line, 0-based column).
    std::pair<int, int> map(int outputLine, int outputColumn) const;
    // The source span of an output line's statement.
    std::pair<int, int> span(int outputLine) const;
    int sourceLine(int outputLine) const;
};

ClrxTranslation translateClrx(std::string_view source, const ClrxOptions& options);

// The editor's path (FrontEnd keeps one): the same result as translateClrx, but an edit confined
// to lines the translator copies verbatim (plain instructions and blank lines, one output line
// each, in an assembled region) patches the last translation instead of translating the whole
// text again, so a keystroke costs about what it costs in an LLVM text.
class ClrxTranslator {
public:
    ClrxTranslator();
    ~ClrxTranslator();
    ClrxTranslator(const ClrxTranslator&) = delete;
    ClrxTranslator& operator=(const ClrxTranslator&) = delete;

    const ClrxTranslation& translate(std::string_view source, const ClrxOptions& options);
    bool lastPatched() const; // the last translate() patched the previous translation

private:
    struct State;
    std::unique_ptr<State> state_;
};

// CLRX GPU device or architecture name (case-insensitive: "Pitcairn", "GFX900", "GCN1.2") to an
// LLVM processor; empty when unknown.
std::string clrxProcessor(std::string_view name);

// Moves a Program assembled from a translation back onto the CLRX source: lines and columns of
// instructions, labels, kernels and diagnostics; adds the translator's notes and directives.
void mapProgramToClrx(Program& program, const ClrxTranslation& translation);

} // namespace gcnlens
