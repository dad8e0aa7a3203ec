// SPDX-License-Identifier: MIT
// The status bar's dialect switch (issue #13, ui/dialectswitch.h) in the real window on the
// offscreen platform: the dialect detected for a file, the user's choice re-analysing the text,
// the choice remembered per file, and the editor's colours following the dialect.
#include "testutils.h"
#include "ui/dialectswitch.h"
#include "ui/editor/codeeditor.h"
#include "ui/editor/syntax.h"
#include "ui/mainwindow.h"
#include "ui/recovery.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/SyntaxHighlighter>

#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QSyntaxHighlighter>
#include <QTemporaryDir>
#include <QTest>

using namespace gcnlens;
using namespace gcnlens::ui;
using Dialect = AssembleOptions::Dialect;

class TestDialectSwitch : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> makeWindow()
    {
        auto window = std::make_unique<MainWindow>();
        window->setRecoveryStore(std::make_unique<RecoveryStore>(m_dir.filePath(QStringLiteral("recovery"))));
        window->bridge()->setDebounceInterval(0);
        window->setQuiet(true);
        return window;
    }
    static bool settled(MainWindow* window, Dialect dialect)
    {
        return window->bridge()->upToDate() && window->bridge()->current()->request.assemble.dialect == dialect;
    }
    static int errors(MainWindow* window)
    {
        int n = 0;
        for (const auto& d : window->bridge()->current()->analysis.program.diagnostics)
            n += d.severity == Severity::Error;
        return n;
    }
    static QString colours(MainWindow* window)
    {
        auto* h = window->editor()->document()->findChild<KSyntaxHighlighting::SyntaxHighlighter*>();
        return h ? h->definition().name() : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("gcnlens-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_dialectswitch"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QSettings().clear();
    }

    // Each file opens in the dialect detection gives it; the status bar says which, and the
    // colours are that dialect's.
    void detected_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("dialect");
        QTest::addColumn<bool>("clean"); // k2.clrx is a ROCm kernel: the window reads CLRX as -b amd
        QTest::addRow("CLRX source") << QStringLiteral("data/clrx/vadd.clrx") << int(Dialect::Clrx) << true;
        QTest::addRow("its LLVM twin") << QStringLiteral("data/clrx/vadd.s") << int(Dialect::Llvm) << true;
        QTest::addRow("CLRX, GCN 1.2") << QStringLiteral("data/clrx/k2.clrx") << int(Dialect::Clrx) << false;
    }
    void detected()
    {
        QFETCH(QString, file);
        QFETCH(int, dialect);
        QFETCH(bool, clean);
        auto w = makeWindow();
        QVERIFY(w->openFile(test::testData(file.toUtf8().constData())));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Auto), 20000);
        DialectSwitch* box = w->dialectSwitch();
        QVERIFY(box);
        QVERIFY(w->statusBar()->isAncestorOf(box));
        QCOMPARE(box->choice(), Dialect::Auto);
        QCOMPARE(int(box->detected()), dialect);
        QCOMPARE(int(box->effective()), dialect);
        QVERIFY(box->shown().startsWith(dialect == int(Dialect::Clrx) ? QStringLiteral("CLRX") : QStringLiteral("LLVM")));
        if (clean)
            QCOMPARE(errors(w.get()), 0);
        QCOMPARE(colours(w.get()), QString::fromLatin1(dialect == int(Dialect::Clrx) ? clrxDefinitionName : gcnDefinitionName));
    }

    // Choosing a dialect re-analyses the text in it, is remembered for that file only, and
    // choosing "detected" again forgets it.
    void choiceRememberedPerFile()
    {
        const QString clrx = test::testData("data/clrx/vadd.clrx");
        const QString llvm = test::testData("data/clrx/vadd.s");
        {
            auto w = makeWindow();
            QVERIFY(w->openFile(clrx));
            QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Auto), 20000);
            QCOMPARE(errors(w.get()), 0);
            const auto instructions = w->bridge()->current()->analysis.program.instructions.size();
            // Read as LLVM (the label's menu, as a click on it opens), the CLRX text has errors
            // (its pseudo-ops, '#' comments, ';').
            const auto actions = w->dialectSwitch()->menu()->actions();
            QCOMPARE(actions.size(), 3);
            QVERIFY(actions[0]->isChecked() && actions[0]->text().startsWith(QStringLiteral("CLRX")));
            actions[1]->trigger();
            QVERIFY(actions[1]->isChecked() && !actions[0]->isChecked());
            QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Llvm), 20000);
            QVERIFY(errors(w.get()) > 0);
            QCOMPARE(colours(w.get()), QString::fromLatin1(gcnDefinitionName));
            QCOMPARE(w->dialectSwitch()->shown(), QStringLiteral("LLVM"));
            // Back to CLRX: the same program as detection gave.
            w->dialectSwitch()->choose(Dialect::Clrx);
            QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Clrx), 20000);
            QCOMPARE(errors(w.get()), 0);
            QCOMPARE(w->bridge()->current()->analysis.program.instructions.size(), instructions);
            QCOMPARE(colours(w.get()), QString::fromLatin1(clrxDefinitionName));
            w->dialectSwitch()->choose(Dialect::Llvm);
            QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Llvm), 20000);
            // Another file: its own (no) choice.
            QVERIFY(w->openFile(llvm));
            QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Auto), 20000);
            QCOMPARE(w->dialectSwitch()->choice(), Dialect::Auto);
            w->editor()->document()->setModified(false);
        }
        // A new window (a new session): the CLRX file comes back in the dialect chosen for it.
        auto w = makeWindow();
        QVERIFY(w->openFile(clrx));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Llvm), 20000);
        QCOMPARE(w->dialectSwitch()->choice(), Dialect::Llvm);
        QVERIFY(errors(w.get()) > 0);
        // "detected" again: the setting is gone, the text is read as CLRX.
        w->dialectSwitch()->choose(Dialect::Auto);
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get(), Dialect::Auto), 20000);
        QCOMPARE(errors(w.get()), 0);
        QSettings settings;
        for (const QString& key : settings.allKeys())
            QVERIFY2(!key.endsWith(QStringLiteral("/dialect")), qPrintable(key));
    }
};

QTEST_MAIN(TestDialectSwitch)
#include "tst_dialectswitch.moc"
