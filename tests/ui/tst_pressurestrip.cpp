// SPDX-License-Identifier: MIT
// The pressure strip beside the editor's scroll bar (issue #16): where it draws each kernel's peak,
// what each of its rows holds, and where a click takes the cursor, for a short kernel (fewer lines
// than pixel rows) and a long one (more), in short and tall editors. Also the gutter's pressure
// column and check mark as painted. Expected values come from core's liveness result and the
// StripGeometry mapping, which tst_uigeometry pins on its own.
#include "testutils.h"
#include "ui/editor/codeeditor.h"
#include "ui/editor/pressurestrip.h"

#include <QApplication>
#include <QTest>

using namespace gcnlens;
using namespace gcnlens::ui;

namespace {

SnapshotPtr snapshotOf(const QString& text, quint64 job = 1)
{
    auto s = std::make_shared<AnalysisSnapshot>();
    s->job = job;
    s->source = text;
    s->request.assemble.gpu = "gfx900";
    s->analysis = runAnalysis(text.toStdString(), s->request);
    s->lines = LineAnnotations::build(s->analysis);
    return s;
}

// The test kernel with `padding` more copies of its loop body's first load appended before the
// end (a long text: more lines than the strip has rows).
QString kernelText(int padding)
{
    QString text = gcnlens::test::readFile(gcnlens::test::testData("data/checks/views-gfx900.s"));
    if (padding > 0) {
        QString more;
        for (int i = 0; i < padding; ++i)
            more += QStringLiteral("  v_mov_b32 v1, v0\n");
        text.replace(QStringLiteral("  s_endpgm\n"), more + QStringLiteral("  s_endpgm\n"));
    }
    return text;
}

} // namespace

class TestPressureStrip : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void peakAndClicks_data()
    {
        QTest::addColumn<int>("padding");
        QTest::addColumn<int>("height");
        QTest::addRow("short kernel, tall editor") << 0 << 700;
        QTest::addRow("short kernel, short editor") << 0 << 260;
        QTest::addRow("long kernel") << 3000 << 500;
    }
    void peakAndClicks()
    {
        QFETCH(int, padding);
        QFETCH(int, height);
        const QString text = kernelText(padding);
        const SnapshotPtr snapshot = snapshotOf(text);
        QVERIFY(!snapshot->analysis.program.hasErrors());
        CodeEditor editor;
        editor.resize(800, height);
        editor.setPlainText(text);
        editor.setSnapshot(snapshot);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        PressureStrip* strip = editor.pressureStrip();
        QVERIFY(strip->isVisible());
        QCOMPARE(strip->width(), PressureStrip::kWidth);
        // Beside the text area, left of the scroll bar.
        QCOMPARE(strip->geometry().left(), editor.viewport()->geometry().right() + 1);

        const KernelPressure& k = snapshot->analysis.liveness.kernels.at(0);
        const StripGeometry g = strip->stripGeometry();
        const std::vector<int> peaks = strip->peakLines();
        QVERIFY(std::find(peaks.begin(), peaks.end(), k.vgpr.line) != peaks.end());
        // The peak's row holds the peak count; no row holds more.
        const auto& rows = strip->rows();
        QCOMPARE(int(rows.size()), g.rows());
        QCOMPARE(int(rows[std::size_t(g.rowOfLine(k.vgpr.line))].vgpr), k.vgpr.count);
        for (const LiveCounts& r : rows)
            QVERIFY(r.vgpr <= k.vgpr.count);
        QCOMPARE(strip->scale(), k.vgpr.count);

        // The peak is drawn in the peak colour across the strip at its row.
        const QImage image = strip->grab().toImage();
        const int y = int(g.yOfLine(k.vgpr.line));
        QCOMPARE(image.pixelColor(strip->width() / 2, y).rgb(), peakColor().rgb());

        // A click on the peak's mark goes to the peak line; one elsewhere to the line under it.
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(strip->width() / 2, y + 2));
        QCOMPARE(editor.currentLine(), k.vgpr.line);
        const int lowY = strip->height() - 3;
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(strip->width() / 2, lowY));
        QCOMPARE(editor.currentLine(), g.lineAtY(lowY));
    }

    // The gutter: a pressure column wide enough for the counts, the check mark on a finding's line.
    void gutterColumnAndMark()
    {
        const QString text = kernelText(0);
        const SnapshotPtr snapshot = snapshotOf(text);
        CodeEditor editor;
        editor.resize(900, 900);
        editor.setPlainText(text);
        editor.setSnapshot(snapshot);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        const GutterLayout layout = editor.gutterLayout();
        const double charWidth = QFontMetricsF(editor.font()).horizontalAdvance(QLatin1Char('0'));
        const LiveCounts& most = snapshot->lines.maxLive();
        QVERIFY(layout.columnWidth(GutterLayout::Pressure) + 0.01 >= pressureChars(most, false) * charWidth);
        QVERIFY(layout.columnWidth(GutterLayout::Check) > 0);
        const FindingView& f = snapshot->lines.findings().at(0);
        const QRectF row = editor.lineRect(f.line);
        QVERIFY(row.isValid());
        const QImage gutter = editor.gutter()->grab().toImage();
        const QRectF cell(layout.left(GutterLayout::Check), row.top(), layout.columnWidth(GutterLayout::Check), row.height());
        bool red = false;
        for (int x = int(cell.left()); x < int(cell.right()); ++x)
            for (int y = int(cell.top()); y < int(cell.bottom()); ++y)
                red = red || gutter.pixelColor(x, y).rgb() == AnalysisColors::mark(PenaltyClass::Hazard).rgb();
        QVERIFY(red);
        // Clicking the mark goes to the finding's producer.
        QTest::mouseClick(editor.gutter(), Qt::LeftButton, {}, cell.center().toPoint());
        QCOMPARE(editor.currentLine(), f.producerLine);
    }
};

QTEST_MAIN(TestPressureStrip)
#include "tst_pressurestrip.moc"
