// SPDX-License-Identifier: MIT
// The colours of an analysis, one set for every presenter (the editor, the docks and the PDF
// report): fetch-block bands, the penalty classes of timing-model.md section 8 (taken from the
// rule, core's penaltyClass), the gutter marker and the LDS heatmap scale (section 7). Derived
// from a KSyntaxHighlighting theme, so the window follows its palette and the report, printed on
// white, takes a light one.
#pragma once

#include "core/model/timing.h"

#include <QColor>

class QPainter;
class QRectF;
namespace KSyntaxHighlighting {
class Theme;
}

namespace gcnlens::ui {

struct AnalysisColors {
    QColor background, text, muted;
    QColor bandEven, bandOdd;     // alternate 32-byte fetch blocks
    QColor fetch, branch, hazard; // shading behind a line, by penalty class
    QColor freed;                 // saved by R-first16 / R-long / R-pair
    QColor diagnostic, warning;
    QColor gutterBg, gutterText, gutterCurrent, separator, currentLine;

    static AnalysisColors fromTheme(const KSyntaxHighlighting::Theme& theme);
    // The shading behind a line of that class (invalid for None).
    QColor shade(PenaltyClass penalty) const;
    // The solid colour of the gutter marker (invalid for None); the same on any background.
    static QColor mark(PenaltyClass penalty);
};

// The gutter marker of a line: a box in the penalty class's colour, a triangle for a branch's
// assumed direction (pointing right: taken, down: not taken; filled when the user set it) or a
// ring for an instruction a freeing rule saved (when `showFreed`).
struct LineMark {
    PenaltyClass penalty = PenaltyClass::None;
    Direction direction = Direction::NotABranch;
    bool overridden = false;
    bool freed = false;
};
void paintMark(QPainter& painter, const QRectF& cell, const LineMark& mark, const AnalysisColors& colors, bool showFreed);

// Issue #16: the register files in the pressure column, the strip and the report's graph (the same
// on any background), and the mark of a kernel's pressure peak.
enum class RegisterFile { Vgpr, Sgpr, Agpr };
QColor pressureColor(RegisterFile file);
QColor peakColor();

// Issue #17: the mark of a line with a hazard or s_waitcnt finding (a warning triangle).
void paintCheckMark(QPainter& painter, const QRectF& cell);

// LDS heatmap: how many distinct rows a bank serves in a lane group (1: conflict free).
QColor ldsRowsColor(int rows);

} // namespace gcnlens::ui
