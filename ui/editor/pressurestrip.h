// SPDX-License-Identifier: MIT
// The pressure strip beside the editor's vertical scroll bar (issue #16): the whole text's live
// registers at a glance, VGPRs filled, SGPRs and AGPRs as lines (ui/palette.h colours), each
// kernel's peak line marked. A click jumps to the line under it (to the peak when the click is
// on its mark). It reads the snapshot's per-line counts (LineAnnotations): nothing is computed here.
#pragma once

#include "ui/analysisbridge.h"
#include "ui/geometry.h"
#include "ui/palette.h"

#include <QWidget>

#include <vector>

namespace gcnlens::ui {

class PressureStrip : public QWidget {
    Q_OBJECT
public:
    explicit PressureStrip(QWidget* parent = nullptr);
    static constexpr int kWidth = 30;

    // lineCount: the document's lines (the strip maps them like the scroll bar does).
    void setSnapshot(SnapshotPtr snapshot, int lineCount);
    void setLineCount(int lineCount);
    void setColors(const AnalysisColors& colors);

    StripGeometry stripGeometry() const;
    // Per pixel row the most live registers of the lines drawn there (tests, painting).
    const std::vector<LiveCounts>& rows() const;
    // The lines holding a kernel's VGPR, SGPR or AGPR peak, and the row each is marked on.
    std::vector<int> peakLines() const;
    int scale() const; // the count drawn at the strip's full width

    QSize sizeHint() const override { return QSize(kWidth, 0); }

Q_SIGNALS:
    void lineActivated(int line);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void invalidate();
    int lineAt(QPoint pos) const;

    SnapshotPtr m_snapshot;
    int m_lineCount = 1;
    AnalysisColors m_colors;
    mutable std::vector<LiveCounts> m_rows; // built on demand after a change
    mutable bool m_rowsValid = false;
};

} // namespace gcnlens::ui
