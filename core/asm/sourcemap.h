// SPDX-License-Identifier: MIT
// A light scan of the source text, beside the real assembler: statement spans, kernel names,
// resource directives (.amdhsa_*, amd_kernel_code_t fields, CLRX), .rept bodies, and the text
// handed to LLVM with CLRX-only directives blanked out (same length, so lines and columns hold).
#pragma once

#include "core/program.h"

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcnlens {

class SourceMap {
public:
    // Reads `source` in place: it must outlive the map. `lines`, when the caller has split the
    // source already (detail::splitLines), must outlive it too: the map reads them, not a copy.
    explicit SourceMap(std::string_view source, std::span<const std::string_view> lines = {});
    SourceMap(const SourceMap&) = delete; // (lines_ may view ownLines_)
    SourceMap& operator=(const SourceMap&) = delete;

    // The source itself until something in it must be blanked or replaced for LLVM; a copy from
    // then on (issue #18: a copy of a 100k-line source for nothing was a hundredth of a listing,
    // in page faults).
    std::string_view assemblerText() const { return assemblerText_.view(); }
    class AssemblerText {
    public:
        std::string_view view() const { return copied_ ? std::string_view(copy_) : source; }
        void set(std::size_t at, char c)
        {
            if (!copied_) {
                copy_.assign(source);
                copied_ = true;
            }
            copy_[at] = c;
        }
        std::string_view source;

    private:
        std::string copy_;
        bool copied_ = false;
    };

    const std::vector<Diagnostic>& notes() const { return notes_; }
    const std::vector<std::string>& kernelNames() const { return kernelNames_; }
    const std::vector<ResourceDirective>& resourceDirectives() const { return directives_; }

    // The processor an old .hsa_code_object_isa / .amd_amdgpu_isa names, and its line (0: none).
    const std::pair<int, std::string>& declaredIsa() const { return declaredIsa_; }

    // Lines (1-based, ascending) inside a code object v2 metadata block, which the text LLVM sees
    // has blank: what such a line becomes depends on the lines before it, so an edit of one
    // takes a full run (fuzz_frontend 0f58f641).
    const std::vector<int>& blockLines() const { return blockLines_; }

    int lineCount() const { return int(lines_.size()); }
    std::string_view line(int line) const; // 1-based; empty when out of range

    // [begin, end) columns of the statement on a line: first non-blank to the start of a comment.
    std::pair<int, int> statementSpan(int line) const;
    int firstColumn(int line) const { return statementSpan(line).first; }

    // The kernel a line belongs to by the source's own declarations (.amdhsa_kernel blocks,
    // CLRX .kernel, the nearest preceding kernel label); empty when none.
    std::string kernelForLine(int line) const;

    // True when a statement (one line of text) is an instruction rather than a directive,
    // label, assignment or comment.
    static bool statementIsInstruction(std::string_view text);
    // The same for a line's code(), read once already (the shape pass asks of every line).
    static bool codeIsInstruction(std::string_view code);

    // The code of one line: comments (';', '//', a leading '#') removed, blanks trimmed.
    static std::string_view code(std::string_view line);

private:
    void blankUnclosedComment();

    std::vector<std::string_view> ownLines_;  // when the caller gave none
    std::span<const std::string_view> lines_; // the source's lines (no empty one after a last newline)
    AssemblerText assemblerText_;
    std::vector<Diagnostic> notes_;
    std::vector<std::string> kernelNames_;
    std::vector<int> blockLines_;
    std::vector<ResourceDirective> directives_;
    std::pair<int, std::string> declaredIsa_ {0, {}};
    struct KernelScope {
        std::string name;
        int firstLine;
        int lastLine;
    };
    std::vector<KernelScope> scopes_;
    std::vector<std::pair<int, std::string>> labels_; // line → label name
};

} // namespace gcnlens
