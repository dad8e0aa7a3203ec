// SPDX-License-Identifier: MIT
// The assembler stage: source text to a Program (core/program.h) through LLVM's AMDGPU MC layer.
// assemble() is one fresh run; FrontEnd keeps what a run learnt so that the editor's next run after
// a small edit re-assembles only the edited lines. LLVM stays inside core/asm/*.cpp.
#pragma once

#include "core/input/clrx.h"
#include "core/program.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcnlens {

// Bounds on the work one assembler run may do (issue #12), each reported as an error on the line
// that crosses it, naming the limit and how to raise it (--limit NAME=VALUE). The defaults are far
// above any real kernel: a million instructions are about 8 MiB of code.
struct AssembleLimits {
    std::uint64_t instructions = 4'000'000;  // instructions and data entries emitted (macro/.rept/.irp output included)
    std::uint64_t bytes = 64ull << 20;       // code bytes, .space/.fill/.skip and .incbin included; below 4 GiB
    int includeDepth = 16;                   // nested .include
    std::uint64_t incbinBytes = 16ull << 20; // one .incbin file
    double seconds = 10;                     // wall clock of one run or read (object, listing) in the worker (IsolatedFrontEnd)

    // NAME=VALUE as the CLI's --limit takes it: instructions, bytes, include-depth, incbin-bytes, time.
    // False with the reason (without the option's name) in *error for an unknown name or a bad value.
    bool set(std::string_view name, std::string_view value, std::string* error);
    static const char* names(); // "instructions, bytes, include-depth, incbin-bytes, time"
    bool operator==(const AssembleLimits&) const = default;
};

struct AssembleOptions {
    std::string gpu = "tahiti";                                // preset, LLVM processor or ROCm target ID
    std::vector<std::string> includeDirs;                      // for .include / .incbin
    std::vector<std::pair<std::string, std::int64_t>> defsyms; // --defsym NAME=VALUE
    std::string fileName = "<input>";                          // for messages and relative .include
    // LLVM triple; empty: the one the source's own build would use (llvmkit.cpp tripleFor).
    std::string triple;
    // Lines that differ only in register numbers are encoded from one assembler run of their
    // shape (frontend.cpp, planShapes); the result is the same. Tests turn it off to compare.
    bool reuseShapes = true;
    // The source's dialect (issue #13). Auto asks looksLikeClrx(); CLRX sources go through the
    // translator in core/input/clrx.h first. (The loader of core/input picks this once it exists.)
    enum class Dialect { Llvm, Clrx, Auto };
    Dialect dialect = Dialect::Auto;
    ClrxOptions clrx;           // clrxasm's -b/-6/-t; its processor is set from `gpu`
    bool gpuFromSource = false; // a CLRX .gpu/.arch replaces `gpu` (the user gave no --gpu)
    AssembleLimits limits;
    // .include/.incbin resolve only in the source's folder and includeDirs, and never name a
    // device; true lifts that for this source (the user's choice, --allow-any-include).
    bool allowAnyInclude = false;
};

// The dialect assemble() will read the source in (Auto resolved).
AssembleOptions::Dialect resolvedDialect(std::string_view source, const AssembleOptions& options);

// Assembles source text. Never throws for bad input: problems become diagnostics, and each line
// that does not assemble is laid out as a placeholder (see placeholderSize below).
Program assemble(std::string_view source, const AssembleOptions& options);

// An edit of the text the last run read, in whole lines (the editor's path, issue #11 item 6):
// lines [first, first + oldCount) (0-based, '\n'-separated, so a text has its newlines + 1 lines)
// become the newCount lines of `text` ('\n'-joined, no newline after the last; empty with
// newCount 0 removes the lines). linesAfter, when not 0, is the line count the text must have
// afterwards: the editor's block count, which catches a copy of the text gone out of step.
struct LineChange {
    int first = 0;
    int oldCount = 0;
    int newCount = 0;
    std::string text;
    int linesAfter = 0;
    // Well formed against a text of `lines` lines.
    bool fits(int lines) const;
};

namespace detail {
struct SpliceStep;
}

// Keeps what the last assemble() learnt so that re-analysing after a small edit is cheap
// (the editor's path). Results are identical to assemble() on the same text.
class FrontEnd {
public:
    FrontEnd();
    ~FrontEnd();
    FrontEnd(const FrontEnd&) = delete;
    FrontEnd& operator=(const FrontEnd&) = delete;

    // The reference stays valid until the next analyze() call or the FrontEnd's destruction.
    const Program& analyze(std::string_view source, const AssembleOptions& options);
    // Applies the edit to the text of the last run and analyses the result, without comparing
    // whole texts; the same Program as analyze() on the edited text. nullptr, having changed
    // nothing, when there is no text to edit or the edit does not fit it (the caller then sends
    // the whole text).
    const Program* edit(const LineChange& change, const AssembleOptions& options);
    // The text and the result of the last run (the text as the edits left it).
    const std::string& source() const;
    const Program& program() const;
    // How the last run got its program when it spliced re-assembled lines into the one before
    // (core/asm/splice_p.h), else nullptr: the worker sends this step instead of the program.
    const detail::SpliceStep* lastSplice() const;

private:
    friend Program assemble(std::string_view source, const AssembleOptions& options);
    const Program& analyzeClrx(std::string_view source, const AssembleOptions& options);
    struct State;
    State* state_;
};

} // namespace gcnlens
