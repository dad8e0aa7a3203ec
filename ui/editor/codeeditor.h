// SPDX-License-Identifier: MIT
// The kernel editor: a QPlainTextEdit with KSyntaxHighlighting, 32-byte fetch blocks as alternating
// background bands, penalty shading and a gutter (line, byte offset, slot, size, cycles, marker).
// It only paints what the latest AnalysisSnapshot says; it never changes the text, the cursor or
// the scroll position when a new snapshot arrives.
#pragma once

#include "ui/analysisbridge.h"
#include "ui/geometry.h"
#include "ui/palette.h"

#include <QColor>
#include <QPlainTextEdit>

#include <unordered_map>
#include <utility>
#include <vector>

namespace KSyntaxHighlighting {
class SyntaxHighlighter;
}

namespace gcnlens::ui {

class PressureStrip;

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeEditor(QWidget* parent = nullptr);
    ~CodeEditor() override;

    void setSnapshot(SnapshotPtr snapshot);
    SnapshotPtr snapshot() const { return m_snapshot; }
    // Outline the 2-dword instructions a freeing rule (R-first16/R-long/R-pair) saved.
    void setShowFreed(bool show);
    bool showFreed() const { return m_showFreed; }

    int currentLine() const; // 1-based
    void jumpToLine(int line, int column = 0);
    const LineAnnotation* annotationAt(int line) const;
    GutterLayout gutterLayout() const { return m_layout; }
    QWidget* gutter() const { return m_gutter; }
    PressureStrip* pressureStrip() const { return m_strip; } // issue #16, beside the scroll bar
    // While a long text streams in, the gutter is sized for this many lines (at least), so that it
    // does not widen when the count gains a digit: that re-lays out every line (about 0.8 s at 1M
    // lines). 0 clears the hint.
    void setLineCountHint(qsizetype lines);
    int lineCountHint() const { return m_lineCountHint; }
    // The y range of a 1-based line in the viewport (tests click markers through it).
    QRectF lineRect(int line) const;

    using Colors = AnalysisColors;
    const Colors& colors() const { return m_colors; }

    // Above this many lines a width change (the gutter's, the window's) lays no line out again
    // (resizeEvent): each would get a QTextLayout of its own, about 300 bytes.
    static constexpr int kRelayoutBlocks = 50000;

Q_SIGNALS:
    void branchToggleRequested(int line, gcnlens::Direction direction);
    void currentLineChanged(int line);
    // After the first paint that showed the current snapshot's highlights, or at once when they
    // look like the previous snapshot's (the benchmark waits for this).
    void highlightsPainted(quint64 job);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    friend class EditorGutter;
    void applyTheme();
    void updateGutterGeometry();
    void updateExtraSelections();
    // Issue #17: the consumers' wavy underlines, made for the lines around the view when they
    // are first shown and kept while the snapshots' findings stay on the same lines (their cursors
    // follow edits until then: a keystroke only re-lists them), and the current line's producers.
    // (Made for every finding at once, they took 2.9 s of the UI thread at a million lines.)
    void buildFindingSelections(const AnalysisSnapshot* before);
    void addFindingSelections(QList<QTextEdit::ExtraSelection>& selections) const;
    bool statementSelection(int line, QTextEdit::ExtraSelection& selection) const;
    void paintGutter(QPaintEvent* event);
    void gutterPressed(QPoint pos);
    QString gutterToolTip(QPoint pos) const;
    int lineAtY(double y) const;
    // The rows of the visible lines the two snapshots draw differently, behind the text and in the
    // gutter (viewport coordinates; the gutter's rows have the same y).
    std::pair<QRegion, QRegion> changedLines(const AnalysisSnapshot& before, const AnalysisSnapshot& after) const;
    void keepGlyphsOnScreen();
    void reportPainted(); // highlightsPainted once per snapshot, after the first paint showing it

    QWidget* m_gutter = nullptr;
    PressureStrip* m_strip = nullptr;
    std::vector<int> m_findingLines; // the consumer line of each finding, ascending
    // The underlines made so far, by index into m_findingLines (a null cursor: no statement to underline).
    mutable std::unordered_map<std::size_t, QTextEdit::ExtraSelection> m_findingSelections;
    mutable std::pair<int, int> m_findingRange {0, -1}; // the lines whose underlines are set now
    KSyntaxHighlighting::SyntaxHighlighter* m_highlighter = nullptr;
    SnapshotPtr m_snapshot;
    GutterLayout m_layout;
    Colors m_colors;
    bool m_showFreed = false;
    bool m_applyingTheme = false;
    bool m_darkPalette = false;
    int m_lastLine = 0;
    int m_lineCountHint = 0;
    quint64 m_paintedJob = 0;
    int m_gutterFirstBlock = -1;    // first line the gutter showed when it last painted
    std::vector<int> m_glyphBlocks; // blocks whose layouts keep their glyphs (the ones on screen)
    int m_glyphBlockCount = 0;      // the document's block count those numbers refer to
};

} // namespace gcnlens::ui
