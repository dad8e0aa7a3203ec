// SPDX-License-Identifier: MIT
// The editor window driven as a user would, on the offscreen platform, over the bundled example
// (resources/examples/saxpy-gfx6.s). Expected figures are derived from timing-model.md in comments.
#include "ui/codeeditor.h"
#include "ui/ldsdock.h"
#include "ui/ldsheatmap.h"
#include "ui/mainwindow.h"
#include "ui/occupancycurvemodel.h"
#include "ui/occupancydock.h"
#include "ui/penaltyrulemodel.h"
#include "ui/problemsmodel.h"
#include "ui/recovery.h"
#include "ui/summarydock.h"

#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>

using namespace gcnlens;
using namespace gcnlens::ui;

static const QString example = QStringLiteral(GCNLENS_SOURCE_DIR "/resources/examples/saxpy-gfx6.s");

class TestMainWindow : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    QTemporaryDir recoveryDir;

    // The analysis shown matches the editor's text and nothing is queued.
    bool settled() const
    {
        const auto s = w->bridge()->current();
        return s && !w->bridge()->busy() && s->source == w->editor()->toPlainText();
    }
    const Analysis& analysis() const { return w->bridge()->current()->analysis; }
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
        QCOMPARE(typed->offset, waitcntOffset + 4);            // right after the 4-byte s_waitcnt
        QCOMPARE(typed->position.slot, int(((waitcntOffset + 4) >> 2) & 7));
        QCOMPARE(editor->annotationAt(30)->offset, vmacOffset + 8); // everything below moved by 8
        QVERIFY(!editor->annotationAt(29));                     // "loop:" holds no instruction
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
        QCOMPARE(w->summary()->ruleModel()->match(w->summary()->ruleModel()->index(0, 0), Qt::DisplayRole,
                                                  QStringLiteral("fetch-align")).size(), 0);
    }

    void branchMarkerFlipsDirection()
    {
        CodeEditor* editor = w->editor();
        const int line = 36; // s_cbranch_vccz skip: forward, so assumed not taken (section 3)
        const int index = instructionOnLine(line);
        QVERIFY(index >= 0);
        QCOMPARE(analysis().timing.instructions[size_t(index)].direction, Direction::NotTaken);
        QCOMPARE(analysis().timing.instructions[size_t(index)].cycles, 4);
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
        QCOMPARE(t.direction, Direction::Taken);
        QVERIFY(t.directionOverridden);
        QCOMPARE(t.cycles, 20);
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
        QCOMPARE(point->points(), (QList<QPointF>{QPointF(vgprs, waves)}));
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
        QTextCursor cursor(editor->document()->findBlockByNumber(16));
        cursor.movePosition(QTextCursor::EndOfBlock);
        cursor.insertText(QStringLiteral("\n    v_bogus_op v0, v1"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
        const int rows = w->problemsModel()->rowCount();
        QVERIFY(rows >= 1);
        bool onLine = false;
        for (int r = 0; r < rows; ++r)
            onLine = onLine || w->problemsModel()->index(r, 0).data(ProblemsModel::LineRole).toInt() == 18;
        QVERIFY(onLine);
        bool underlined = false;
        for (const auto& sel : editor->extraSelections())
            underlined = underlined || (sel.format.underlineStyle() == QTextCharFormat::WaveUnderline && sel.cursor.blockNumber() == 17);
        QVERIFY(underlined);
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
