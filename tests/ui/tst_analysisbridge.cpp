// SPDX-License-Identifier: MIT
// AnalysisBridge: every job builds on the one before it (the FrontEnd's and the Analyzer's caches,
// core/analysis.h), newest request wins. Whatever the order of edits and request changes, the
// snapshot delivered last must be what a fresh analysis of its text and request gives.
#include "testutils.h"
#include "ui/analysisbridge.h"

#include "../bench/generatedkernel.h"
#include "../core/analysisdump.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QSignalSpy>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>

using namespace gcnlens;
using namespace gcnlens::ui;

namespace {

// The newest text's analysis is delivered and nothing runs.
bool settled(const AnalysisBridge& bridge)
{
    return bridge.upToDate();
}

// A document wired to a bridge as the window wires its editor's (MainWindow::documentEdited).
struct DocumentSession {
    QTextDocument doc;
    AnalysisBridge bridge;
    explicit DocumentSession(const QString& text)
        : doc(text)
    {
        doc.clearUndoRedoStacks();
        doc.documentLayout(); // (a document without a layout reports no contentsChange)
        bridge.setDebounceInterval(0);
        bridge.setDocument(&doc);
        QObject::connect(&doc, &QTextDocument::contentsChange, &bridge, &AnalysisBridge::documentChanged);
        bridge.setSource(text);
    }
};

} // namespace

class TestAnalysisBridge : public QObject {
    Q_OBJECT

    // The bridge's current snapshot against a fresh analysis of the same text and request.
    static void compareWithFresh(const AnalysisBridge& bridge, const QString& text)
    {
        const SnapshotPtr s = bridge.current();
        QVERIFY(s);
        const QByteArray utf8 = text.toUtf8();
        const Analysis fresh = analyzeProgram(assemble(utf8.toStdString(), s->request.assemble), s->request);
        const auto a = testing::dumpAnalysis(s->analysis), b = testing::dumpAnalysis(fresh);
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
            QVERIFY2(i < a.size() && i < b.size() && a[i] == b[i],
                     qPrintable(QStringLiteral("dump line %1\n bridge: %2\n fresh:  %3")
                                    .arg(i)
                                    .arg(QString::fromStdString(i < a.size() ? a[i] : std::string("(none)")),
                                         QString::fromStdString(i < b.size() ? b[i] : std::string("(none)")))));
        // The editor's per-line view is built from that analysis.
        const LineAnnotations lines = LineAnnotations::build(fresh);
        for (int line = 1; line <= lines.lineCount(); ++line)
            QVERIFY(LineAnnotation::textAreaAlike(s->lines.at(line), lines.at(line))
                    && LineAnnotation::gutterAlike(s->lines.at(line), lines.at(line)));
    }

private Q_SLOTS:
    // Issue #12: text that crashes LLVM (the three-line metadata file, typed into a kernel) costs
    // the worker, not the window: the last good analysis stays, with the error on the line, and
    // the next edit analyses normally again.
    void assemblerCrashKeepsPreviousAnalysis()
    {
        const QString text = gcnlens::test::readFile(gcnlens::test::exampleKernel());
        AnalysisBridge bridge;
        bridge.setDebounceInterval(0);
        bridge.setSource(text);
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        const SnapshotPtr good = bridge.current();
        QVERIFY(!good->assemblerFailed && !good->analysis.program.instructions.empty());

        const QString crashing = text + QStringLiteral(".amdgpu_metadata\n*/\n.end_amdgpu_metadata\n");
        const int line = int(crashing.count(QLatin1Char('\n')));
        bridge.setSource(crashing);
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        const SnapshotPtr failed = bridge.current();
        QVERIFY(failed->assemblerFailed);
        QCOMPARE(failed->analysis.program.instructions.size(), good->analysis.program.instructions.size());
        const Diagnostic& error = failed->analysis.program.diagnostics.back();
        QCOMPARE(error.severity, Severity::Error);
        QCOMPARE(error.line, line);
        QVERIFY(QString::fromStdString(error.message).startsWith(QStringLiteral("the assembler crashed (signal 11)")));

        bridge.setSource(text);
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        QVERIFY(!bridge.current()->assemblerFailed);
        compareWithFresh(bridge, text);
    }

    // Typing a DS access and its address into the example, character by character, sometimes
    // waiting for the result and sometimes not (then the older requests are dropped).
    void typingMatchesFreshAnalysis()
    {
        const QString text = gcnlens::test::readFile(gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s"));
        QVERIFY(!text.isEmpty());
        AnalysisBridge bridge;
        bridge.setDebounceInterval(0);
        bridge.setSource(text);
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        compareWithFresh(bridge, text);

        const QString typed = QStringLiteral("    v_lshlrev_b32 v11, 3, v0\n    ds_read_b64 v[12:13], v11 offset:8\n");
        const qsizetype at = text.indexOf(QStringLiteral("    v_lshlrev_b32 v7"));
        QVERIFY(at > 0);
        QString state;
        for (qsizetype n = 1; n <= typed.size(); ++n) {
            state = text.left(at) + typed.left(n) + text.mid(at);
            bridge.setSource(state);
            if (n % 7 == 0) {
                QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
                // A half-typed line may keep its pre-edit size in the FrontEnd (core/program.h);
                // compare where none is half-typed.
                if (typed.at(n - 1) == QLatin1Char('\n'))
                    compareWithFresh(bridge, state);
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        compareWithFresh(bridge, state);
    }

    // The window's path (issue #11 item 6): edits of a QTextDocument reach the worker as the lines
    // they changed (documentChanged), coalesced while a job runs; whole at once or typed
    // character by character, then undone, the result is a fresh analysis of the document's text.
    void documentEditsMatchFreshAnalysis_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<bool>("typed");
        QTest::addRow("operand") << "v_mul_u32_u24 v5" << "v_mul_u32_u24 v9" << false;
        QTest::addRow("line typed") << "    v_lshlrev_b32 v7" << "    ds_read_b64 v[12:13], v11 offset:8\n    v_lshlrev_b32 v7"
                                    << true;
        QTest::addRow("lines pasted") << "    s_endpgm"
                                      << "    s_nop 0\n    v_mov_b32 v2, 1.0\n    v_add_f32 v3, v2, v2\n    s_endpgm" << false;
        QTest::addRow("line deleted") << "    v_lshlrev_b32 v7, 7, v0\n" << "" << false;
        QTest::addRow("branch removed") << "s_cbranch_scc1" << "s_nop 0 //" << false;
        QTest::addRow("label added") << "    s_endpgm" << "extra:\n    s_endpgm" << true;
        QTest::addRow("nbsp typed") << "    s_endpgm" << QString(QChar::Nbsp) + QStringLiteral("// nbsp\n    s_endpgm") << false;
    }
    void documentEditsMatchFreshAnalysis()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(bool, typed);
        const QString text = gcnlens::test::readFile(gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s"));
        DocumentSession session(text);
        QTextDocument& doc = session.doc;
        AnalysisBridge& bridge = session.bridge;
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        const int at = int(text.indexOf(from));
        QVERIFY2(at >= 0, qPrintable(from));
        QSignalSpy started(&bridge, &AnalysisBridge::analysisStarted);
        QTextCursor cursor(&doc);
        cursor.setPosition(at);
        cursor.setPosition(at + int(from.size()), QTextCursor::KeepAnchor);
        if (typed) {
            cursor.removeSelectedText();
            for (const QChar c : to)
                cursor.insertText(QString(c)); // no waiting: the edits coalesce while a job runs
        } else {
            cursor.insertText(to);
        }
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        compareWithFresh(bridge, doc.toPlainText());
        if (typed)
            QVERIFY(started.size() < to.size()); // coalesced
        while (doc.isUndoAvailable())
            doc.undo();
        QCOMPARE(doc.toPlainText(), text);
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        compareWithFresh(bridge, text);
    }

    // Issue #18: analyzeNow() right after setSource() (opening a file, "Analyse Anyway"). setSource
    // has started the job for that text already; a second request id made the bridge drop its
    // result and run the models again on a copy of its program: twice the work, and two analyses
    // in memory at once (1.7 GB at a million lines).
    void analyzeNowAfterSetSourceRunsOneJob()
    {
        const QString text = gcnlens::test::readFile(gcnlens::test::exampleKernel());
        AnalysisBridge bridge;
        bridge.setDebounceInterval(0);
        QSignalSpy started(&bridge, &AnalysisBridge::analysisStarted);
        QSignalSpy ready(&bridge, &AnalysisBridge::analysisReady);
        bridge.setSource(text);
        QVERIFY(bridge.busy()); // no job before it was slow: it started at once
        bridge.analyzeNow();
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        QCOMPARE(started.size(), 1);
        QCOMPARE(ready.size(), 1);
        compareWithFresh(bridge, text);
    }

    // Issue #18: the snapshot a new result replaces is freed once the views have the new one, not
    // kept beside it until some later job starts (which doubled what an idle window holds).
    void replacedSnapshotIsFreedAtOnce()
    {
        const QString text = gcnlens::test::readFile(gcnlens::test::exampleKernel());
        DocumentSession session(text);
        QTRY_VERIFY_WITH_TIMEOUT(settled(session.bridge), 20000);
        std::weak_ptr<const AnalysisSnapshot> first = session.bridge.current();
        QVERIFY(!first.expired());
        QTextCursor(&session.doc).insertText(QStringLiteral("// a comment line\n"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(session.bridge), 20000);
        QVERIFY(session.bridge.current() != first.lock());
        QTRY_VERIFY_WITH_TIMEOUT(first.expired(), 5000); // freed on the worker, no other job needed
    }

    // Typing into a large kernel while jobs run: superseded jobs are cancelled (their model passes
    // stop, core/support/cancel.h) and publish nothing; every snapshot delivered is whole, and the
    // last one is a fresh analysis of the text.
    void supersededJobsPublishNothing()
    {
        const QString text = QString::fromStdString(gcnlens::bench::generateKernel(20000));
        DocumentSession session(text);
        AnalysisBridge& bridge = session.bridge;
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 60000);
        int delivered = 0;
        connect(&bridge, &AnalysisBridge::analysisReady, this, [&](const SnapshotPtr& s) {
            ++delivered;
            QVERIFY(!s->cancelled && !s->needsText);
            QCOMPARE(s->analysis.liveness.instructions.size(), s->analysis.program.instructions.size());
            QCOMPARE(s->analysis.timing.instructions.size(), s->analysis.program.instructions.size());
        });
        QSignalSpy started(&bridge, &AnalysisBridge::analysisStarted);
        QTextCursor cursor(&session.doc);
        // Each keystroke changes the branch-overrides request too: every job re-runs the models.
        for (int i = 0; i < 40; ++i) {
            cursor.setPosition(int(text.indexOf(QStringLiteral("v_add_f32 v"), text.size() * i / 41)));
            cursor.insertText(QStringLiteral("s_nop 0\n    "));
            bridge.setBranchDirection(i + 2, i % 2 ? Direction::Taken : Direction::NotTaken);
            QCoreApplication::processEvents();
        }
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 60000);
        QVERIFY(delivered < started.size());
        compareWithFresh(bridge, session.doc.toPlainText());
    }

    // A crash ends the worker and its copy of the text; the next edit is answered "send the whole
    // text" and the bridge sends it from the document: the analysis goes on as if nothing happened.
    void workerRestartTakesTheWholeText()
    {
        const QString text = gcnlens::test::readFile(gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s"));
        DocumentSession session(text);
        QTextDocument& doc = session.doc;
        AnalysisBridge& bridge = session.bridge;
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        QTextCursor cursor(&doc);
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(QStringLiteral(".amdgpu_metadata\n*/\n.end_amdgpu_metadata\n"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        QVERIFY(bridge.current()->assemblerFailed);
        doc.undo();
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        QVERIFY(!bridge.current()->assemblerFailed);
        compareWithFresh(bridge, doc.toPlainText());
        cursor.setPosition(int(text.indexOf(QStringLiteral("v_mul_u32_u24 v5"))) + 15);
        cursor.deleteChar();
        cursor.insertText(QStringLiteral("6"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        compareWithFresh(bridge, doc.toPlainText());
    }

    // Request changes re-run the models on the program the bridge has (no re-assembly).
    void requestChangesMatchFreshAnalysis()
    {
        const QString text = gcnlens::test::readFile(gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s"));
        AnalysisBridge bridge;
        bridge.setDebounceInterval(0);
        bridge.setSource(text);
        QTRY_VERIFY_WITH_TIMEOUT(settled(bridge), 20000);
        // The backward loop branch (timing-model.md section 3: assumed taken) flipped.
        const int branchLine = int(text.left(text.indexOf(QStringLiteral("s_cbranch_scc1"))).count(QLatin1Char('\n'))) + 1;
        QSignalSpy ready(&bridge, &AnalysisBridge::analysisReady);
        bridge.setBranchDirection(branchLine, Direction::NotTaken);
        QVERIFY(ready.wait(20000));
        QCOMPARE(bridge.current()->request.branches.byLine.at(branchLine), Direction::NotTaken);
        compareWithFresh(bridge, text);
        TimingOptions options;
        options.longRule = TimingOptions::LongRule::WholeBlock;
        options.ldsGroupDwords = 64;
        bridge.setTimingOptions(options);
        QVERIFY(ready.wait(20000));
        compareWithFresh(bridge, text);
        bridge.setGpu(QStringLiteral("gfx900"));
        QVERIFY(ready.wait(20000));
        QCOMPARE(bridge.current()->analysis.program.gpu.generation, Generation::GFX9);
        compareWithFresh(bridge, text);
    }
};

QTEST_MAIN(TestAnalysisBridge)
#include "tst_analysisbridge.moc"
