// SPDX-License-Identifier: MIT
// Per-source-line view of an Analysis: what the gutter and the band painter show, and the tooltips.
// Built off the UI thread together with the analysis, so painting only indexes a vector. Only
// numbers and flags are built per line: the tooltip text is composed when one is shown, because
// formatting it for every line cost more than everything else the editor does per keystroke.
#pragma once

#include "core/analysis.h"
#include "ui/findings.h"
#include "ui/geometry.h"

#include <QString>

#include <map>
#include <memory>
#include <vector>

namespace gcnlens::ui {

// The penalty classes the editor marks distinctly: carried by the rule (core/model/timing.h).
using gcnlens::PenaltyClass;

struct LineAnnotation {
    // (Ordered for size, issue #18: one of these per source line, a million in a large kernel.)
    int firstInstruction = -1; // index into Program::instructions
    int instructionCount = 0;  // several for macro/.rept output charged to the invoking line
    std::uint64_t offset = 0;  // of the first instruction
    InternedString freedBy;    // R-first16 / R-long / R-pair (core's handle: 8 bytes a line, not a QString's 24)
    int size = 0;              // bytes, all instructions of the line
    int cycles = 0;            // base cycles used in totals
    int penaltyCycles = 0;
    LiveCounts live; // issue #16: the most live registers of the line's instructions
    bool fetchPenalty = false, branchPenalty = false, hazardPenalty = false;
    bool twoDword = false; // an 8-byte instruction (the shaded ones when charged)
    bool conditionalBranch = false;
    Direction direction = Direction::NotABranch;
    bool directionOverridden = false;
    bool isData = false, placeholder = false;
    enum PeakFile : quint8 { PeakVgpr = 1, PeakSgpr = 2, PeakAgpr = 4 };
    quint8 peak = 0;     // PeakFile bits: a kernel's pressure peak is on this line
    quint8 findings = 0; // issue #17: hazard and s_waitcnt findings on this line (at most 255)
    FetchSlot position;  // of the first instruction, as the timing model placed it

    bool isInstruction() const { return firstInstruction >= 0; }
    PenaltyClass markClass() const; // the most important penalty on the line, for the marker
    // Whether two lines are drawn alike behind the text (band, shading, block rule, outline) and
    // in the gutter (cells, marker); either may be nullptr (no instruction on the line).
    static bool textAreaAlike(const LineAnnotation* a, const LineAnnotation* b);
    static bool gutterAlike(const LineAnnotation* a, const LineAnnotation* b);
};
static_assert(sizeof(void*) != 8 || sizeof(LineAnnotation) <= 64, "LineAnnotation grew: issue #18 counts its bytes");

// The live registers of a line in words, for tooltips: "66 VGPRs · 5 SGPRs (the kernel's VGPR peak)".
QString pressureLine(const LineAnnotation& a, bool withAgprs);

class LineAnnotations {
public:
    static LineAnnotations build(const Analysis& analysis);

    // 1-based line; nullptr when nothing is on that line.
    const LineAnnotation* at(int line) const;
    int lineCount() const { return int(m_lines.size()); }
    // rule id → lines charged with it, ascending (the summary steps through these).
    const std::map<QString, std::vector<int>>& linesByRule() const { return m_linesByRule; }
    std::uint64_t maxOffset() const { return m_maxOffset; }
    // Issue #16: the largest live counts of any line, and whether the program has AGPRs at all.
    const LiveCounts& maxLive() const { return m_maxLive; }
    bool hasAgprs() const { return m_maxLive.agpr > 0; }
    // Issue #17: every finding by consumer line, and those of one line.
    const std::vector<FindingView>& findings() const { return *m_findings; }
    // The same list, shared: the Problems dock lists it without a copy of its own (issue #18).
    std::shared_ptr<const std::vector<FindingView>> sharedFindings() const { return m_findings; }
    std::vector<const FindingView*> findingsOn(int line) const;
    // The tooltip of a 1-based line: per instruction its rule ids, cycles and the one-line
    // explanations (timing-model.md section 8). `analysis` must be the one this was built from.
    QString tooltip(int line, const Analysis& analysis) const;

private:
    std::vector<LineAnnotation> m_lines; // index line - 1
    std::map<QString, std::vector<int>> m_linesByRule;
    std::uint64_t m_maxOffset = 0;
    LiveCounts m_maxLive;
    std::shared_ptr<const std::vector<FindingView>> m_findings = std::make_shared<const std::vector<FindingView>>();
};

} // namespace gcnlens::ui
