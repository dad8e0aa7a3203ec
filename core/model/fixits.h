// SPDX-License-Identifier: MIT
// Fix-its with their gain (issue #17 section 2, docs/model.md §8): for a wait-state hazard, a
// fetch-alignment penalty (fetch-align, fetch-straddle) or a branch-position penalty, the text
// edits that remove it, and the cycle delta. The delta is never estimated: the edited text goes
// through the real front-end (the caller's assemble function: the isolated worker in the CLI and
// the window) and the passes that judge it (timing, the CFG, the checks) again, and a candidate is
// offered only when its finding is gone and no new hazard or s_waitcnt finding appears. In a file
// of several kernels, candidates may run on the text up to the next kernel where that is shown to
// stand for the whole; the fix offered is always measured on the whole text. Edits are in the
// source's own text (line and column ranges), so they apply to LLVM and CLRX sources alike.
#pragma once

#include "core/analysis.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gcnlens {

// Replace [line:column, endLine:endColumn) of the original text with `text`. Lines are 1-based,
// columns 0-based bytes of the line; endLine may be one past the last line (column 0) to reach
// the end of the text.
struct TextEdit {
    int line = 0;
    int column = 0;
    int endLine = 0;
    int endColumn = 0;
    std::string text;
    bool operator==(const TextEdit&) const = default;
};

// A finding a fix-it can address: a hazard (W-… id) at its consumer, or a timing penalty
// (fetch-align, fetch-straddle, branch-position) on its instruction.
struct FindingRef {
    std::string rule;
    int instruction = -1;
    int line = 0;
    bool operator==(const FindingRef&) const = default;
};

struct FixIt {
    FindingRef finding;
    std::string kind;            // insert-nop, move, short-encoding
    std::string summary;         // "move line 7 (s_nop 0) after line 9"
    std::vector<TextEdit> edits; // disjoint, in the original text's coordinates
    long long cyclesBefore = 0;  // single-wave cycles of the whole file (timing-model.md §5)
    long long cyclesAfter = 0;   // the same, measured on the edited text
    long long delta() const { return cyclesAfter - cyclesBefore; }
    bool operator==(const FixIt&) const = default;
};

// The real front-end on an edited text (same options as the text the analysis came from).
using AssembleFunction = std::function<Program(const std::string& source)>;

// The findings of an analysis that fix-its address, in line order.
std::vector<FindingRef> fixableFindings(const Analysis& analysis);
// The findings on one line (the window's context menu).
std::vector<FindingRef> fixableFindingsOnLine(const Analysis& analysis, int line);

// What measuring the candidates took: whole-text runs, kernel-scoped runs (a prefix of the text,
// see docs/model.md §8), and how often a prefix's choice did not hold on the whole text (then the
// whole text chose again; never seen on the corpus).
struct FixItStats {
    int fixable = 0; // the findings fix-its address, before the search's limit
    int wholeRuns = 0;
    int prefixRuns = 0;
    int scopedKernels = 0; // kernels whose candidates ran on a prefix
    int prefixMismatches = 0;
};

// The best fix-it for one finding (the largest gain; for a hazard, the s_nop that fixes it), or
// none when no candidate passes. `analysis` must be the analysis of `source` under `request`.
std::optional<FixIt> findFixIt(const std::string& source, const Analysis& analysis, const AnalysisRequest& request,
                               const FindingRef& finding, const AssembleFunction& assemble, FixItStats* stats = nullptr);

// How findFixIts searches.
struct FixItSearch {
    int maxFindings = 200; // the first findings in line order (each costs a few front-end runs)
    // Candidates measured on a prefix of the text where that is shown to stand for the whole
    // (docs/model.md §8); false: every candidate on the whole text (the tests compare the two).
    bool kernelScoped = true;
    // Findings measured at once: each further thread gets a front-end of its own from
    // makeAssemble (the CLI: a worker process each). Without makeAssemble, one at a time.
    int threads = 1;
    std::function<AssembleFunction()> makeAssemble;
    // Called after each finding with how many are done of how many, one call at a time.
    std::function<void(int done, int total)> progress;
};

// findFixIt for every fixable finding searched. Each delta is that fix alone, applied to the
// original text; the result is the same whatever the threads.
std::vector<FixIt> findFixIts(const std::string& source, const Analysis& analysis, const AnalysisRequest& request,
                              const AssembleFunction& assemble, const FixItSearch& search = {}, FixItStats* stats = nullptr);

// The text with the edits applied (they must not overlap).
std::string applyEdits(const std::string& text, const std::vector<TextEdit>& edits);

// The fixes as one unified diff of `path` (headers a/PATH, b/PATH for patch -p1 / git apply), one
// hunk per fix whose header carries the rule, the line and the delta ("@@ … @@ fetch-align line 12:
// -4 cycles, move …"). A fix whose hunk would overlap an earlier one is left out and counted in
// `leftOut`.
std::string unifiedDiff(const std::string& path, const std::string& text, const std::vector<FixIt>& fixits, int context = 2,
                        int* leftOut = nullptr);

// "-4 cycles", "+8 cycles": the delta as every presenter prints it.
std::string deltaText(long long delta);

} // namespace gcnlens
