// SPDX-License-Identifier: MIT
// The window's fix-its (ui/fixitpreview.h): the preview measures the fix in the background (the UI
// thread keeps running: the dialog is shown before the measure arrives), shows the diff and the
// same delta the core gives, and Apply is one undoable edit that one undo takes back exactly.
#include "core/analysis.h"
#include "core/asm/assembler.h"
#include "core/model/fixits.h"
#include "ui/fixitpreview.h"

#include "testutils.h"

#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>

using namespace gcnlens;
using namespace gcnlens::ui;

class TestFixItPreview : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void previewAndApply_data();
    void previewAndApply();
};

void TestFixItPreview::previewAndApply_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("rule");
    QTest::addRow("hazard s_nop gfx900") << "hazard-lanesel.s" << "gfx900" << "W-lanesel";
    QTest::addRow("move tahiti") << "fetch-move-nop.s" << "tahiti" << "fetch-align";
    QTest::addRow("1-dword encoding tahiti") << "fetch-encoding.s" << "tahiti" << "fetch-align";
    QTest::addRow("branch gfx6") << "branch-move.s" << "tahiti" << "branch-position";
    QTest::addRow("straddle gfx90a") << "fetch-straddle.s" << "gfx90a" << "fetch-straddle";
}

void TestFixItPreview::previewAndApply()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(QString, rule);
    const QString source = test::readFile(test::testData(qPrintable(QStringLiteral("data/fixits/") + file)));
    QVERIFY(!source.isEmpty());
    auto snapshot = std::make_shared<AnalysisSnapshot>();
    snapshot->source = source;
    snapshot->request.assemble.gpu = gpu.toStdString();
    snapshot->request.assemble.fileName = file.toStdString();
    snapshot->analysis = analyzeProgram(assemble(source.toStdString(), snapshot->request.assemble), snapshot->request);
    std::optional<FindingRef> finding;
    for (const FindingRef& f : fixableFindings(snapshot->analysis))
        if (f.rule == rule.toStdString())
            finding = f;
    QVERIFY(finding);
    // What the core gives for the same finding, in process.
    const AssembleOptions options = snapshot->request.assemble;
    const std::optional<FixIt> expected = findFixIt(source.toStdString(), snapshot->analysis, snapshot->request, *finding,
                                                    [&](const std::string& text) { return assemble(text, options); });
    QVERIFY(expected);

    QPlainTextEdit editor;
    editor.setPlainText(source);
    QVERIFY(!editor.document()->isUndoAvailable());
    FixItPreview preview(snapshot, *finding, &editor);
    QSignalSpy measured(&preview, &FixItPreview::measured);
    preview.show();
    QVERIFY(!preview.ready()); // the measure runs off the UI thread
    QVERIFY(measured.wait(60000));
    QVERIFY(preview.ready());
    QVERIFY(preview.fix());
    QCOMPARE(preview.fix()->delta(), expected->delta());
    QCOMPARE(preview.fix()->edits, expected->edits);
    QVERIFY(preview.summaryText().contains(QString::fromStdString(deltaText(expected->delta()))));
    QVERIFY(preview.diffText().contains(QStringLiteral("@@ ") + rule));

    QVERIFY(preview.apply());
    QCOMPARE(editor.toPlainText().toStdString(), applyEdits(source.toStdString(), expected->edits));
    QVERIFY(editor.document()->isUndoAvailable());
    editor.undo();
    QCOMPARE(editor.toPlainText(), source);
    QVERIFY(!editor.document()->isUndoAvailable());

    // A text edited since the measure is not patched blindly.
    FixItPreview again(snapshot, *finding, &editor);
    QSignalSpy measuredAgain(&again, &FixItPreview::measured);
    QVERIFY(measuredAgain.wait(60000));
    editor.appendPlainText(QStringLiteral("; typed meanwhile"));
    const QString typed = editor.toPlainText();
    QVERIFY(!again.apply());
    QCOMPARE(editor.toPlainText(), typed);

    // The context menu of the finding's line offers it, and its action opens the preview.
    editor.setPlainText(source);
    QWidget window;
    QMenu menu;
    addFixItActions(&menu, snapshot, &editor, finding->line + 1000, &window);
    QVERIFY(menu.isEmpty()); // a line without a finding
    addFixItActions(&menu, snapshot, &editor, finding->line, &window);
    QAction* action = nullptr;
    for (QAction* a : menu.actions())
        if (a->text().contains(rule))
            action = a;
    QVERIFY(action);
    action->trigger();
    auto* opened = window.findChild<FixItPreview*>();
    QVERIFY(opened);
    QSignalSpy measuredMenu(opened, &FixItPreview::measured);
    QVERIFY(measuredMenu.wait(60000));
    QCOMPARE(opened->fix()->delta(), expected->delta());
    QVERIFY(opened->apply());
    QCOMPARE(editor.toPlainText().toStdString(), applyEdits(source.toStdString(), expected->edits));
}

QTEST_MAIN(TestFixItPreview)
#include "tst_fixitpreview.moc"
