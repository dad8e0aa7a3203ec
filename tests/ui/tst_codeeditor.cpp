// SPDX-License-Identifier: MIT
// CodeEditor repaints only what a keystroke or a new analysis changes (rows whose bands, shading or
// gutter cells differ; one line for a typed character) and keeps the glyphs of the lines on screen.
// Whatever it left unpainted must still be right: after a typing session, the pixels on screen
// must equal those of a fresh editor showing the final text and analysis.
#include "ui/editor/codeeditor.h"

#include <QApplication>
#include <QScreen>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTest>
#include <QTextBlock>

#include <format>

using namespace gcnlens;
using namespace gcnlens::ui;

namespace {

// 200 lines mixing 1- and 2-dword instructions (fetch bands, shading, gutter offsets).
QString kernel()
{
    static const char* body[] = {"    v_add_f32 v4, v2, v6",    "    v_mov_b32 v5, 0x3dcccccd",  "    s_add_u32 s11, s9, 0x1000",
                                 "    v_lshlrev_b32 v7, 2, v0", "    ds_read_b32 v8, v7",        "    v_fma_f32 v9, v2, v8, v4",
                                 "    s_mov_b32 s10, 6",        "    v_add_i32 v3, vcc, s4, v1", "    s_waitcnt lgkmcnt(0)"};
    std::string text = ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n";
    for (int i = 0; i < 200; ++i)
        text += std::string(body[i % 9]) + "\n";
    text += "    s_endpgm\n";
    return QString::fromStdString(text);
}

SnapshotPtr snapshotOf(const QString& text, quint64 job)
{
    auto s = std::make_shared<AnalysisSnapshot>();
    s->job = job;
    s->analysis = runAnalysis(text.toStdString(), s->request);
    s->lines = LineAnnotations::build(s->analysis);
    return s;
}

// What the window shows: its backing store, not a fresh render (which would repaint everything).
QImage onScreen(QWidget* window)
{
    return window->screen()->grabWindow(window->winId()).toImage();
}

} // namespace

class TestCodeEditor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QApplication::setCursorFlashTime(0); }

    // Keystroke kinds the editor repaints differently: a character that keeps the line's colours,
    // one that changes them, a literal that grows an instruction (everything below moves), Enter,
    // Backspace over a line break, and a new analysis after each.
    void typingLeavesNothingStale()
    {
        QWidget windowA;
        auto* editorA = new CodeEditor(&windowA);
        editorA->setCursorWidth(0); // no caret: it blinks
        windowA.resize(700, 500);
        editorA->resize(700, 500);
        QString text = kernel();
        editorA->setPlainText(text);
        quint64 job = 1;
        editorA->setSnapshot(snapshotOf(text, job));
        windowA.show();
        QVERIFY(QTest::qWaitForWindowExposed(&windowA));
        editorA->jumpToLine(100);
        QTest::qWait(20);

        // After every step the window must show what a complete repaint of the same state shows.
        int step = 0;
        QString failure;
        // Scrolling moves pixels: glyphs that overhang from a line scrolled out of view stay on the
        // line below it, which a complete repaint (it starts at the first visible line) does not
        // draw. That is QPlainTextEdit's own; after a scroll only the gutter is compared.
        auto check = [&](bool gutterOnly = false) {
            QTest::qWait(20);
            QImage shown = onScreen(&windowA);
            QImage fresh = windowA.grab().toImage().convertToFormat(shown.format());
            if (gutterOnly) {
                const QRect strip(0, 0, editorA->gutter()->geometry().right() + 1, shown.height());
                shown = shown.copy(strip);
                fresh = fresh.copy(strip);
                editorA->viewport()->repaint();
            }
            ++step;
            if (!failure.isEmpty() || shown == fresh)
                return;
            int firstRow = -1;
            for (int y = 0; y < std::min(shown.height(), fresh.height()) && firstRow < 0; ++y)
                for (int x = 0; x < std::min(shown.width(), fresh.width()); ++x)
                    if (shown.pixel(x, y) != fresh.pixel(x, y)) {
                        firstRow = y;
                        break;
                    }
            shown.save(QStringLiteral("tst_codeeditor-shown.png"));
            fresh.save(QStringLiteral("tst_codeeditor-fresh.png"));
            failure = QStringLiteral("step %1: the window differs from a complete repaint from pixel row %2 "
                                     "(saved tst_codeeditor-shown.png / -fresh.png)")
                          .arg(step)
                          .arg(firstRow);
        };
        auto type = [&](Qt::Key key, int times = 1) {
            for (int i = 0; i < times; ++i) {
                QTest::keyClick(editorA, key);
                check(); // the keystroke's own repaint, the analysis still the previous one
                text = editorA->toPlainText();
                editorA->setSnapshot(snapshotOf(text, ++job));
                check(); // the analysis' repaint
            }
        };
        // Line 102 is `s_mov_b32 s10, 6` (5 header lines, then body[(102 - 6) % 9] = body[6]).
        QCOMPARE(editorA->document()->findBlockByNumber(101).text(), QStringLiteral("    s_mov_b32 s10, 6"));
        QTextCursor cursor(editorA->document()->findBlockByNumber(101));
        cursor.movePosition(QTextCursor::EndOfBlock);
        editorA->setTextCursor(cursor);
        check();
        type(Qt::Key_Space); // same colours
        type(Qt::Key_Backspace);
        type(Qt::Key_5);            // 6 → 65: a literal, 4 bytes more, everything below moves
        type(Qt::Key_Return);       // a new line
        type(Qt::Key_S);            // half-typed: a placeholder
        type(Qt::Key_Backspace, 2); // and gone again, with the line break
        type(Qt::Key_Backspace);    // 65 → 6: back to an inline constant
        type(Qt::Key_Period);       // garbage: a diagnostic underline
        type(Qt::Key_Up, 3);        // the current line moves
        editorA->verticalScrollBar()->setValue(editorA->verticalScrollBar()->value() + 7);
        check(true);
        type(Qt::Key_Down); // the snapshots after a scroll
        editorA->verticalScrollBar()->setValue(editorA->verticalScrollBar()->value() - 30);
        check(true);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(step, 1 + 2 * 8 + 2 + 2 * 3 + 1 + 2 + 1);
    }

    // Issue #17's underlines are made for the lines around the view, not for every finding at
    // once (which took 2.9 s of the UI thread at a million lines, issue #18): a kernel with a
    // finding every other line lists a few screens of them, and scrolled to its end, the last
    // finding's statement is underlined.
    void findingUnderlinesNearTheView()
    {
        std::string body = ".text\nk:\n";
        for (int i = 0; i < 3000; ++i)
            body += "    ds_read_b32 v8, v7\n    v_add_f32 v9, v8, v8\n"; // a use before s_waitcnt lgkmcnt(0)
        body += "    s_endpgm\n";
        const QString text = QString::fromStdString(body);
        const SnapshotPtr snapshot = snapshotOf(text, 1);
        const auto& findings = snapshot->lines.findings();
        QVERIFY2(findings.size() >= 2900, qPrintable(QString::number(findings.size())));
        QWidget window;
        auto* editor = new CodeEditor(&window);
        window.resize(700, 500);
        editor->resize(700, 500);
        editor->setPlainText(text);
        editor->setSnapshot(snapshot);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto wavyLines = [&] {
            std::vector<int> lines;
            for (const QTextEdit::ExtraSelection& sel : editor->extraSelections())
                if (sel.format.underlineStyle() == QTextCharFormat::WaveUnderline)
                    lines.push_back(sel.cursor.blockNumber() + 1);
            return lines;
        };
        std::vector<int> shown = wavyLines();
        QVERIFY(!shown.empty());
        QVERIFY2(shown.size() < 400, qPrintable(QString::number(shown.size())));
        QVERIFY(std::find(shown.begin(), shown.end(), findings.front().line) != shown.end());
        editor->jumpToLine(findings.back().line);
        QCoreApplication::processEvents();
        shown = wavyLines();
        QVERIFY(std::find(shown.begin(), shown.end(), findings.back().line) != shown.end());
        QVERIFY(std::find(shown.begin(), shown.end(), findings.front().line) == shown.end());
        QVERIFY2(shown.size() < 400, qPrintable(QString::number(shown.size())));
    }

    // Issue #18: above CodeEditor::kRelayoutBlocks a width change (a wider gutter when the first
    // analysis arrives, a narrower window) is not passed on to QPlainTextEdit, which would give
    // every line a QTextLayout of its own through its document layout's setTextWidth: 300 MB and
    // a second's freeze at a million lines (heaptrack; bench_open measures it). A small text is
    // laid out as Qt does. Either way, what is shown afterwards must be right.
    void widthChangeKeepsTheViewRight()
    {
        QFETCH(int, lines);
        QWidget window;
        auto* editor = new CodeEditor(&window);
        window.resize(700, 500);
        editor->resize(700, 500);
        // As the window opens a large text: no undo step, no syntax colours (which lay out every
        // line they colour), the gutter's final width first.
        editor->document()->setUndoRedoEnabled(false);
        editor->document()->findChild<QSyntaxHighlighter*>()->setDocument(nullptr);
        editor->setLineCountHint(lines);
        QTextCursor end(editor->document());
        for (int first = 0; first < lines; first += 2000) { // streamed in by pieces, as the window opens a file
            QString text;
            for (int i = first; i < std::min(lines, first + 2000); ++i)
                text += QStringLiteral("    v_add_f32 v4, v2, v6 // %1\n").arg(i + 1);
            end.movePosition(QTextCursor::End);
            end.insertText(text);
        }
        editor->setLineCountHint(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        editor->jumpToLine(lines / 2);
        QCoreApplication::processEvents();
        const int wideView = editor->viewport()->width();
        editor->resize(560, 500); // narrower: Qt would give each of the lines a layout now
        QCoreApplication::processEvents();
        // Either way the text lays out and hit-tests where it is shown: the top line in view is
        // near the one jumped to, and the line under a point is the one painted there.
        const QTextBlock top = editor->cursorForPosition(QPoint(4, 4)).block();
        QVERIFY2(std::abs(top.blockNumber() - (lines / 2 - 1)) < 40, qPrintable(QString::number(top.blockNumber())));
        QVERIFY(top.text().endsWith(QStringLiteral("// %1").arg(top.blockNumber() + 1)));
        QCOMPARE(top.layout()->lineCount(), 1);
        // The document is as wide as its widest line (the scroll bar's range), not as the wider
        // view its layout was last given.
        QVERIFY2(editor->document()->documentLayout()->documentSize().width() < wideView,
                 qPrintable(QString::number(editor->document()->documentLayout()->documentSize().width())));
    }
    void widthChangeKeepsTheViewRight_data()
    {
        QTest::addColumn<int>("lines");
        QTest::newRow("small") << 20000;
        QTest::newRow("large") << 120000;
    }
};

QTEST_MAIN(TestCodeEditor)
#include "tst_codeeditor.moc"
