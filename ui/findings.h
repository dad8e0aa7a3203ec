// SPDX-License-Identifier: MIT
// The hazard and s_waitcnt findings of core/model/hazards.h (issue #17) and the live-register
// counts of core/model/liveness.h (issue #16) as every Qt presenter words them: the editor's
// markers and tooltips, the Problems dock and the PDF report. Only wording lives here; the
// numbers are core's.
#pragma once

#include "core/analysis.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <vector>

namespace gcnlens::ui {

enum class FindingKind : quint8 { Hazard, Waitcnt };

// Which finding a row, a marker or a fix-it is about, stable across the views of one analysis:
// the kind, the consumer instruction and, because one consumer may break several rules or wait
// for several producers, the rule and the producer instruction.
struct FindingKey {
    FindingKind kind = FindingKind::Hazard;
    int instruction = -1; // the consumer, index into Program::instructions
    int producer = -1;
    QString rule;
    bool operator==(const FindingKey&) const = default;
    bool isValid() const { return instruction >= 0; }
};

struct FindingView {
    FindingKey key;
    int index = -1; // into CheckResult::hazards or ::waits (by key.kind)
    int line = 0;   // the consumer's line
    int producerLine = 0;
    bool notGuaranteed = false; // an s_waitcnt finding the order of returns makes unprovable
    // The rule, waits and fix texts repeat across a kernel's findings: each distinct one is one
    // QString the findings share. The detail, distinct per finding, is composed when shown (as
    // QStrings, the findings of a million-line kernel cost 68 MB of the window, bench_open, issue #18).
    QString waits;           // hazards: "0 of 4 wait states"; s_waitcnt: "needs lgkmcnt(0)"
    QString fix;             // "s_nop 3" / "s_waitcnt lgkmcnt(0)" (several lines for several s_nops)
    QString message() const; // core's one-line detail
    QString tooltip() const; // rule, producer line, waits required/present, fix
    bool sameMessage(const FindingView& other) const { return detail == other.detail; }

    PatternText detail; // core's (a hazard's plain text is a pattern without holes)
};

// Every finding, by consumer line (hazards before s_waitcnt findings on a line).
std::vector<FindingView> findingViews(const CheckResult& checks);
// The finding a key names in `checks` (nullptr when it is gone, e.g. after an edit).
const HazardFinding* findHazard(const CheckResult& checks, const FindingKey& key);
const WaitcntFinding* findWait(const CheckResult& checks, const FindingKey& key);

// Live registers at a line, compactly: "84v 30s", with " 4a" when the kernel has AGPRs.
QString pressureText(const LiveCounts& live, bool withAgprs);
// The characters pressureText needs at most for these maxima (the gutter column's width).
int pressureChars(const LiveCounts& maximum, bool withAgprs);

// What a kernel's pressure peaks cost in occupancy (core's pressureCosts), one sentence per
// register file, each citing the occupancy rule it applies (timing-model.md section 6: W_v for
// VGPRs and AGPRs, W_s for SGPRs) and docs/model.md section 4 (peak cost).
// relevantOnly: only the files where fewer registers would give more waves (the occupancy dock,
// which has little room); else every file with live registers (the report).
QStringList pressureSentences(const Analysis& analysis, int kernel, bool relevantOnly = false);

} // namespace gcnlens::ui

Q_DECLARE_METATYPE(gcnlens::ui::FindingKey)
