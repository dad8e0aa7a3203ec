// SPDX-License-Identifier: MIT
// The editor window driven as a user would, on the offscreen platform, over the bundled example
// (resources/examples/saxpy-gfx6.s). Expected figures are derived from timing-model.md in comments.
#include "testutils.h"
#include "ui/docks/ldsdock.h"
#include "ui/docks/ldsheatmap.h"
#include "ui/docks/occupancycurvemodel.h"
#include "ui/docks/occupancydock.h"
#include "ui/docks/penaltyrulemodel.h"
#include "ui/docks/problemsmodel.h"
#include "ui/docks/summarydock.h"
#include "ui/editor/codeeditor.h"
#include "ui/mainwindow.h"
#include "ui/recovery.h"

#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>

using namespace gcnlens;
using namespace gcnlens::ui;

static const QString example = gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s");

// Counts the paint events a widget receives.
class PaintCounter : public QObject {
public:
    explicit PaintCounter(QWidget* widget) { widget->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++count;
        return false;
    }
};

class TestMainWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    QTemporaryDir recoveryDir;

    // The analysis shown matches the editor's text and nothing is queued.
    bool settled() const { return w->bridge()->upToDate(); }
    const Analysis& analysis() const { return w->bridge()->current()->analysis; }
    // Adds a line that does not assemble after a 1-based line and waits for its analysis.
    bool insertBogusLineAfter(int line)
    {
        QTextCursor cursor(w->editor()->document()->findBlockByNumber(line - 1));
        cursor.movePosition(QTextCursor::EndOfBlock);
        cursor.insertText(QStringLiteral("\n    v_bogus_op v0, v1"));
        return QTest::qWaitFor([this] { return settled(); }, 20000);
    }
    int instructionOnLine(int line) const
    {
        const auto& map = analysis().program.lineToInstructions;
        auto it = map.find(line);
        return it == map.end() || it->second.empty() ? -1 : it->second.front();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(QFile::exists(example));
    }

    void init()
    {
        w = std::make_unique<MainWindow>();
        w->setRecoveryStore(std::make_unique<RecoveryStore>(recoveryDir.path()));
        w->setGpu(QStringLiteral("tahiti"));
        w->resize(1400, 900);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openFile(example));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
    }

    void cleanup()
    {
        w->editor()->document()->setModified(false); // no save prompt
        w.reset();
    }

    void typingUpdatesAnnotationsAndTotals()
    {
        CodeEditor* editor = w->editor();
        const Totals before = analysis().timing.totals;
        const LineAnnotation* waitcnt = editor->annotationAt(27); // s_waitcnt lgkmcnt(0)
        QVERIFY(waitcnt);
        const std::uint64_t waitcntOffset = waitcnt->offset;
        const std::uint64_t vmacOffset = editor->annotationAt(29)->offset; // first line of the loop

        // Type a 2-dword instruction (VOP1 + 32-bit literal: 8 bytes, section 1) after line 27.
        QTextCursor cursor(editor->document()->findBlockByNumber(26));
        cursor.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(cursor);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, QStringLiteral("v_mov_b32 v11, 0x3dcccccd"));
        const int cursorPosition = editor->textCursor().position();
        const int scroll = editor->verticalScrollBar()->value();
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);

        const Totals& after = analysis().timing.totals;
        QCOMPARE(after.instructions, before.instructions + 1);
        QCOMPARE(after.bytes, before.bytes + 8);
        const LineAnnotation* typed = editor->annotationAt(28);
        QVERIFY(typed);
        QCOMPARE(typed->size, 8);
        QCOMPARE(typed->offset, waitcntOffset + 4); // right after the 4-byte s_waitcnt
        QCOMPARE(int(typed->position.slot), int(((waitcntOffset + 4) >> 2) & 7));
        QCOMPARE(editor->annotationAt(30)->offset, vmacOffset + 8); // everything below moved by 8
        QVERIFY(!editor->annotationAt(29));                         // "loop:" holds no instruction
        // The summary shows the new totals; the cursor and scroll position did not move.
        QVERIFY(w->summary()->totalsText().contains(QStringLiteral("instructions %1,").arg(after.instructions)));
        QCOMPARE(editor->textCursor().position(), cursorPosition);
        QCOMPARE(editor->verticalScrollBar()->value(), scroll);
    }

    void gpuChangeRecomputes()
    {
        // The example is written to pay fetch-align on Tahiti (GFX6, section 2) ...
        QVERIFY(analysis().timing.totals.countByRule.count("fetch-align"));
        QComboBox* gpu = w->summary()->gpuSelector();
        const int fiji = gpu->findText(QStringLiteral("fiji"));
        QVERIFY(fiji >= 0);
        gpu->setCurrentIndex(fiji);
        Q_EMIT gpu->activated(fiji);
        QTRY_VERIFY_WITH_TIMEOUT(settled() && w->bridge()->current()->request.assemble.gpu == "fiji", 20000);
        // ... and GFX8 fetches 2-dword instructions at full speed: no alignment rule at all.
        QCOMPARE(analysis().program.gpu.generation, Generation::GFX8);
        QCOMPARE(analysis().timing.totals.countByRule.count("fetch-align"), size_t(0));
        QCOMPARE(analysis().timing.totals.countByRule.count("fetch-straddle"), size_t(0));
        QCOMPARE(w->summary()
                     ->ruleModel()
                     ->match(w->summary()->ruleModel()->index(0, 0), Qt::DisplayRole, QStringLiteral("fetch-align"))
                     .size(),
                 0);
    }

    void dpfactorShownWithPresets()
    {
        // timing-model.md section 1: the example's bare processor and why its DP factor, with the
        // chip's presets one click away; picking one re-analyses with the product's rate.
        const GpuTarget& gpu = analysis().program.gpu;
        QVERIFY(w->summary()->dpfactorText().contains(QString::fromStdString(gpu.dpfactorSource)));
        QMenu* menu = w->summary()->presetMenu();
        QCOMPARE(menu->actions().size(), int(presetsFor(gpu.processor).size()));
        QVERIFY(!menu->actions().isEmpty());
        QAction* preset = menu->actions().constLast();
        Q_EMIT menu->triggered(preset);
        const std::string name = preset->data().toString().toStdString();
        QTRY_VERIFY_WITH_TIMEOUT(settled() && w->bridge()->current()->request.assemble.gpu == name, 20000);
        QCOMPARE(analysis().program.gpu.product, name);
        QCOMPARE(w->summary()->gpu(), QString::fromStdString(name));
    }

    void branchMarkerFlipsDirection()
    {
        CodeEditor* editor = w->editor();
        const int line = 36; // s_cbranch_vccz skip: forward, so assumed not taken (section 3)
        const int index = instructionOnLine(line);
        QVERIFY(index >= 0);
        QCOMPARE(analysis().timing.instructions[size_t(index)].direction(), Direction::NotTaken);
        QCOMPARE(analysis().timing.instructions[size_t(index)].cycles(), 4);
        const long long base = analysis().timing.totals.baseCycles;

        editor->jumpToLine(line);
        const QRectF r = editor->lineRect(line);
        const auto layout = editor->gutterLayout();
        const QPoint marker(int(layout.left(GutterLayout::Marker) + layout.columnWidth(GutterLayout::Marker) / 2),
                            int(r.center().y()));
        QTest::mouseClick(editor->gutter(), Qt::LeftButton, {}, marker);
        QTRY_VERIFY_WITH_TIMEOUT(settled() && w->bridge()->current()->request.branches.byLine.count(line), 20000);

        // Taken now: B-cost 20 instead of 4, so base cycles grow by 16.
        const InstructionTiming& t = analysis().timing.instructions[size_t(index)];
        QCOMPARE(t.direction(), Direction::Taken);
        QVERIFY(t.directionOverridden());
        QCOMPARE(t.cycles(), 20);
        QCOMPARE(analysis().timing.totals.baseCycles, base + 16);
        QCOMPARE(editor->annotationAt(line)->direction, Direction::Taken);
    }

    void sliderChangesReadoutAndChart_data()
    {
        QTest::addColumn<int>("vgprs");
        QTest::addColumn<int>("waves");
        // GFX6 W_v = min(10, floor(256 / alignUp(vgprs, 4))) (section 6; the table's 256, 128, 84,
        // …, 24 limits): 24 → 10, 25 → 28 → 9, 84 → 3, 85 → 88 → 2, 128 → 2, 256 → 1.
        QTest::addRow("24") << 24 << 10;
        QTest::addRow("25") << 25 << 9;
        QTest::addRow("84") << 84 << 3;
        QTest::addRow("85") << 85 << 2;
        QTest::addRow("128") << 128 << 2;
        QTest::addRow("256") << 256 << 1;
    }
    void sliderChangesReadoutAndChart()
    {
        QFETCH(int, vgprs);
        QFETCH(int, waves);
        OccupancyDock* dock = w->occupancy();
        dock->setChartAxis(CurveAxis::Vgpr);
        QSignalSpy updated(dock, &OccupancyDock::updated);
        dock->setValue(OccupancyDock::Vgpr, vgprs);
        QVERIFY(updated.count() >= 1);
        QCOMPARE(dock->result().wavesPerSimd, waves);
        QVERIFY(dock->readout().startsWith(QStringLiteral("%1 waves/SIMD").arg(waves)));
        // The chart's series follow their models: the marked point and a non-empty curve.
        auto* view = dock->findChild<QChartView*>();
        QVERIFY(view);
        QScatterSeries* point = nullptr;
        QLineSeries* curve = nullptr;
        for (QAbstractSeries* s : view->chart()->series()) {
            if (auto* p = qobject_cast<QScatterSeries*>(s))
                point = p;
            else if (auto* l = qobject_cast<QLineSeries*>(s); l && !curve)
                curve = l;
        }
        QVERIFY(point && curve);
        QCOMPARE(point->points(), (QList<QPointF> {QPointF(vgprs, waves)}));
        QCOMPARE(curve->count(), dock->curveModel()->rowCount());
        QVERIFY(curve->count() > 2);
        // The highlighted region is the step holding the point.
        const auto& region = dock->regionModel()->points();
        QCOMPARE(region.size(), size_t(2));
        QVERIFY(region[0].x() <= vgprs && vgprs <= region[1].x());
        QCOMPARE(region[0].y(), double(waves));
    }

    void cursorOnDsLineUpdatesHeatmap()
    {
        LdsDock* lds = w->lds();
        // Line 26: ds_read_b32 v8, v7 with v7 = lane << 7. bank = (128·lane >> 2) & 31 = 0 and
        // row = 128·lane >> 7 = lane: in each 32-lane group bank 0 serves 32 rows → degree 32,
        // two groups → 64 cycles (section 7).
        w->editor()->jumpToLine(26);
        QCOMPARE(lds->shownInstruction(), instructionOnLine(26));
        QCOMPARE(lds->heatmap()->result().degree, 32);
        QCOMPARE(lds->heatmap()->result().cycles, 64);
        QCOMPARE(lds->heatmap()->cellRows(5, 0), 32);
        QCOMPARE(lds->heatmap()->cellRows(5, 1), 0);
        QVERIFY(lds->heatmap()->describe(5, 0).contains(QStringLiteral("bank 0 · row 5")));
        // Line 21: ds_write_b32 v1 with v1 = lane << 2: 32 distinct banks, one row per group →
        // degree 1, 2 cycles.
        w->editor()->jumpToLine(21);
        QCOMPARE(lds->shownInstruction(), instructionOnLine(21));
        QCOMPARE(lds->heatmap()->result().degree, 1);
        QCOMPARE(lds->heatmap()->result().cycles, 2);
        QCOMPARE(lds->heatmap()->cellRows(3, 3), 1);
        // A line without a DS instruction clears it.
        w->editor()->jumpToLine(17);
        QCOMPARE(lds->shownInstruction(), -1);
    }

    // An analysis that changes neither the kernels, the occupancy inputs nor the DS access under
    // the cursor (a trailing space) leaves the occupancy dock and the heatmap alone: the combo box
    // keeps its items and selection, the chart and the heatmap do not repaint.
    void unchangedAnalysisLeavesPanelsAlone()
    {
        OccupancyDock* dock = w->occupancy();
        LdsDock* lds = w->lds();
        auto* combo = dock->findChild<QComboBox*>();
        auto* chart = dock->findChild<QChartView*>();
        QVERIFY(combo && chart && combo->count() >= 1);
        CodeEditor* editor = w->editor();
        editor->jumpToLine(26); // ds_read_b32 v8, v7
        QCOMPARE(lds->shownInstruction(), instructionOnLine(26));
        QVERIFY(lds->heatmap()->isVisible() && chart->isVisible());
        QTest::qWait(100); // the paints of the jump
        QStringList items;
        for (int i = 0; i < combo->count(); ++i)
            items << combo->itemText(i);
        const int index = combo->currentIndex();
        QSignalSpy removed(combo->model(), &QAbstractItemModel::rowsRemoved);
        QSignalSpy inserted(combo->model(), &QAbstractItemModel::rowsInserted);
        QSignalSpy curveReset(dock->curveModel(), &QAbstractItemModel::modelReset);
        PaintCounter chartPaints(chart->viewport()), heatmapPaints(lds->heatmap());
        const quint64 job = w->bridge()->current()->job;

        QTextCursor cursor = editor->textCursor();
        cursor.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(cursor);
        QTest::keyClick(editor, Qt::Key_Space);
        QTRY_VERIFY_WITH_TIMEOUT(settled() && w->bridge()->current()->job != job, 20000);
        QTest::qWait(100); // any paint the analysis queued
        QCOMPARE(removed.count(), 0);
        QCOMPARE(inserted.count(), 0);
        QCOMPARE(combo->currentIndex(), index);
        QCOMPARE(combo->itemText(index), items[index]);
        QCOMPARE(curveReset.count(), 0);
        QCOMPARE(chartPaints.count, 0);
        QCOMPARE(heatmapPaints.count, 0);
        QCOMPARE(lds->shownInstruction(), instructionOnLine(26));

        // What does change still shows: another DS access, another VGPR count.
        editor->jumpToLine(21);
        QTRY_VERIFY(heatmapPaints.count > 0);
        dock->setChartAxis(CurveAxis::Vgpr);
        dock->setValue(OccupancyDock::Vgpr, dock->value(OccupancyDock::Vgpr) + 40);
        QTRY_VERIFY(chartPaints.count > 0);
    }

    void typedPatternHeatmap()
    {
        LdsDock* lds = w->lds();
        lds->setMode(LdsDock::PatternMode);
        // stride 33 dwords: bank = 33·lane & 31 = lane & 31, all distinct per group → degree 1.
        lds->setPattern(QStringLiteral("lane * 132"), QStringLiteral("b32"));
        QCOMPARE(lds->heatmap()->result().degree, 1);
        // stride 32 dwords: every lane on bank 0 in its own row → degree 32 per group.
        lds->setPattern(QStringLiteral("lane * 128"), QStringLiteral("b32"));
        QCOMPARE(lds->heatmap()->result().degree, 32);
    }

    void diagnosticsUnderlinedAndListed()
    {
        CodeEditor* editor = w->editor();
        QVERIFY(insertBogusLineAfter(17));
        const int rows = w->problemsModel()->rowCount();
        QVERIFY(rows >= 1);
        bool onLine = false;
        for (int r = 0; r < rows; ++r)
            onLine = onLine || w->problemsModel()->index(r, 0).data(ProblemsModel::LineRole).toInt() == 18;
        QVERIFY(onLine);
        bool underlined = false;
        for (const auto& sel : editor->extraSelections())
            underlined =
                underlined || (sel.format.underlineStyle() == QTextCharFormat::WaveUnderline && sel.cursor.blockNumber() == 17);
        QVERIFY(underlined);
    }

    // Section 1: a tooltip on a gutter line or its penalty marker names the rule id, the cycles
    // and the one-line explanation.
    void gutterTooltipNamesRuleCyclesAndExplanation_data()
    {
        QTest::addColumn<int>("x"); // where in the gutter to hover
        QTest::addRow("marker") << int(GutterLayout::Marker);
        QTest::addRow("line number") << int(GutterLayout::LineNumber);
        QTest::addRow("cycles") << int(GutterLayout::Cycles);
    }
    void gutterTooltipNamesRuleCyclesAndExplanation()
    {
        QFETCH(int, x);
        // Offsets (section 1): three 4-byte s_nop at 0, 4, 8; v_mov_b32 with a 32-bit literal is
        // 8 bytes at 12, slot p = 12 >> 2 = 3. Section 2: R-first16 needs p <= 2, R-long needs
        // C > 4 (V_MOV_B32 is 4), R-pair needs a 2-dword predecessor (s_nop is 1-dword), so it
        // pays fetch-align: one penalty, 4 cycles.
        CodeEditor* editor = w->editor();
        editor->setPlainText(
            QStringLiteral(".text\nk:\n    s_nop 0\n    s_nop 0\n    s_nop 0\n    v_mov_b32 v0, 0x12345678\n    s_endpgm\n"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
        const int index = instructionOnLine(6);
        QVERIFY(index >= 0);
        const auto& penalties = analysis().timing.instructions[size_t(index)].penalties();
        QCOMPARE(penalties.size(), size_t(1));
        QCOMPARE(penalties[0].rule, std::string("fetch-align"));
        QCOMPARE(penalties[0].cycles, 4);

        const auto layout = editor->gutterLayout();
        const auto column = GutterLayout::Column(x);
        auto hover = [&](int line) {
            const QPoint pos(int(layout.left(column) + layout.columnWidth(column) / 2), int(editor->lineRect(line).center().y()));
            QHelpEvent help(QEvent::ToolTip, pos, editor->gutter()->mapToGlobal(pos));
            QApplication::sendEvent(editor->gutter(), &help);
            return QToolTip::isVisible() ? QToolTip::text() : QString();
        };
        QTRY_VERIFY(!QToolTip::isVisible());
        const QString tip = hover(6);
        QVERIFY2(tip.contains(QStringLiteral("fetch-align +4")), qPrintable(tip));
        // The explanation is one line, and the tooltip shows it whole.
        const QString detail = QString::fromStdString(penalties[0].detail);
        QVERIFY(!detail.isEmpty() && !detail.contains(QLatin1Char('\n')));
        QVERIFY2(tip.contains(detail), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("v_mov_b32")));
        // A 1-dword line pays nothing: its tooltip names no rule; a line without code has none.
        const QString plain = hover(4);
        QVERIFY2(plain.contains(QStringLiteral("s_nop")) && !plain.contains(QStringLiteral("fetch-align")), qPrintable(plain));
        hover(2); // the tip of line 4 was up: it goes (after a short fade) rather than showing text
        QTRY_VERIFY(!QToolTip::isVisible());
    }

    // Section 1: a diagnostic is underlined where it occurs and its message shows on hover.
    void diagnosticMessageOnHover()
    {
        CodeEditor* editor = w->editor();
        QVERIFY(insertBogusLineAfter(17));
        QString message;
        for (const auto& d : analysis().program.diagnostics)
            if (d.line == 18 && d.severity == Severity::Error)
                message = QString::fromStdString(d.message);
        QVERIFY(!message.isEmpty());
        // Hover over the middle of the underlined token.
        QTextCursor at(editor->document()->findBlockByNumber(17));
        at.setPosition(at.block().position() + 8);
        const QPoint pos = editor->cursorRect(at).center();
        QToolTip::hideText();
        QHelpEvent help(QEvent::ToolTip, pos, editor->viewport()->mapToGlobal(pos));
        QApplication::sendEvent(editor->viewport(), &help);
        QVERIFY(QToolTip::isVisible());
        QVERIFY2(QToolTip::text().contains(message), qPrintable(QToolTip::text()));
        QVERIFY(QToolTip::text().contains(QStringLiteral("error")));
        QToolTip::hideText();
    }

    // Section 1: clicking a row of the problems pane puts the cursor on the line (and column).
    void problemsClickJumpsToLine()
    {
        CodeEditor* editor = w->editor();
        QVERIFY(insertBogusLineAfter(31));
        editor->jumpToLine(1);
        QCOMPARE(editor->currentLine(), 1);
        QTreeView* view = w->problemsView();
        int row = -1;
        for (int r = 0; r < w->problemsModel()->rowCount(); ++r)
            if (w->problemsModel()->index(r, 0).data(ProblemsModel::LineRole).toInt() == 32)
                row = r;
        QVERIFY(row >= 0);
        const QModelIndex index = w->problemsModel()->index(row, ProblemsModel::MessageColumn);
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
        QCOMPARE(editor->currentLine(), 32);
        QCOMPARE(editor->textCursor().positionInBlock(),
                 std::min(index.data(ProblemsModel::ColumnRole).toInt(), int(editor->textCursor().block().length() - 1)));
    }

    void largeFileStreamsInChunks()
    {
        // Above chunkThreshold() the file streams in with a progress dialog; the text must arrive
        // whole, including a last line without a newline that straddles a chunk boundary.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("large.s"));
        QByteArray content;
        int lines = 0;
        while (content.size() <= MainWindow::chunkThreshold() + 100000) {
            content += "// padding line " + QByteArray::number(lines++) + " ---------------------------------------------\n";
        }
        content += "s_endpgm";
        ++lines;
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        QVERIFY(w->openFile(path));
        QCOMPARE(w->editor()->blockCount(), lines);
        QCOMPARE(w->editor()->toPlainText().toUtf8(), content);
        QCOMPARE(w->currentFile(), path);
        QVERIFY(!w->editor()->document()->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
        QCOMPARE(analysis().timing.totals.instructions, 1);
    }

    void autosaveRoundTrip()
    {
        QTest::keyClicks(w->editor(), QStringLiteral("// typed but never saved"));
        w->autosaveNow();
        const auto entries = w->recoveryStore()->entries();
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries.front().text, w->editor()->toPlainText());
        QCOMPARE(entries.front().originalFile, QFileInfo(example).absoluteFilePath());
        // A second window offered the recovery restores the text (modified, not yet saved).
        MainWindow second;
        second.setRecoveryStore(std::make_unique<RecoveryStore>(recoveryDir.path()));
        QTimer::singleShot(0, &second, [] {
            // Answer the question box with "Yes".
            for (QWidget* top : QApplication::topLevelWidgets())
                if (auto* box = qobject_cast<QMessageBox*>(top))
                    box->button(QMessageBox::Yes)->click();
        });
        QVERIFY(second.offerRecovery());
        QCOMPARE(second.editor()->toPlainText(), w->editor()->toPlainText());
        QVERIFY(second.editor()->document()->isModified());
        second.editor()->document()->setModified(false);
        w->recoveryStore()->discard(example);
        QVERIFY(w->recoveryStore()->entries().empty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
