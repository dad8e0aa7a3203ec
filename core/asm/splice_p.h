// SPDX-License-Identifier: MIT
// Private to core/asm: the editor's incremental path. The edit between two texts as whole lines,
// and the splice of re-assembled lines into the previous Program.
#pragma once

#include "core/asm/programbuild_p.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens::detail {

// The edit between two texts as whole lines: prefixLines equal lines, then oldCount lines that
// became newCount lines, then equal lines to the end. Found with memcmp over the texts, so an edit
// costs a comparison of the bytes, not a split of both texts into lines.
struct LineEdit {
    bool identical = false;
    int prefixLines = 0, oldCount = 0, newCount = 0;
    std::string_view oldText, newText; // the changed lines, without the newline after the last
};

LineEdit diffLines(std::string_view before, std::string_view after);

// Splices the re-assembled lines [first, first + newCount) into the previous program, which had
// [first, first + oldCount) there. Returns false, having changed nothing, when the edit needs a
// full run after all. Work is proportional to the edit, plus one pass over later instructions
// when the edit moves them (a different size or line count).
bool splice(Program& program, Program& mini, int first, int oldCount, int newCount, const std::vector<std::string_view>& newLines,
            bool layoutBarrierAfter, RegisterTally& registers);

// One splice as the FrontEnd made it: enough for another copy of the previous Program (the
// window's, across the worker's socket) to make the same splice and reach the same Program
// (issue #11 item 6: a one-line edit sends these few lines, not the whole program).
struct SpliceStep {
    int first = 0; // 1-based, as splice() takes it
    int oldCount = 0, newCount = 0;
    bool barrierAfter = false;
    std::string region;       // the new lines, each ended by '\n' (the text the mini program came from)
    Program mini;             // the re-assembled lines before splice() moved them in
    std::uint64_t digest = 0; // programDigest() of the result, to catch copies gone out of step

    // Replays the step on `program` (with its tally); false when it does not apply or the result's
    // digest differs (the caller then asks for the whole program).
    bool apply(Program& program, RegisterTally& registers) const;
};

// A cheap fingerprint of a program's layout: counts, sizes, lines and offsets.
std::uint64_t programDigest(const Program& program);

} // namespace gcnlens::detail
