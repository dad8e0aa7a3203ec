// SPDX-License-Identifier: MIT
// File → Export Report… (issue #11 item 5), driven on the offscreen platform: the report the
// window exports says what `gcnlens-cli report` says for the same inputs (GPU, model options,
// branch directions, occupancy values, LDS pattern; the date fixed through SOURCE_DATE_EPOCH), a
// large kernel is written off the UI thread and can be cancelled, and an unwritable path gets a
// message while the window keeps working.
// With GCNLENS_SCREENSHOTS=DIR the dialog and the exported PDF are left in DIR (tools/screenshots).
#include "ui/docks/ldsdock.h"
#include "ui/docks/occupancydock.h"
#include "ui/editor/codeeditor.h"
#include "ui/exportreport.h"
#include "ui/mainwindow.h"
#include "ui/recovery.h"

#include "testutils.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTimer>

using namespace gcnlens;
using namespace gcnlens::ui;

namespace {

const QByteArray fixedDate = "1715941800"; // 2024-05-17 10:30 UTC

QString pdfText(const QString& pdf)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"),
            {QStringLiteral("-layout"), QStringLiteral("-enc"), QStringLiteral("UTF-8"), pdf, QStringLiteral("-")});
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput());
}

// The first line where two texts differ, with its neighbours, for a readable failure.
QString firstDifference(const QString& a, const QString& b)
{
    const QStringList la = a.split(QLatin1Char('\n')), lb = b.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < std::max(la.size(), lb.size()); ++i)
        if (la.value(i) != lb.value(i))
            return QStringLiteral("line %1:\n- window: %2\n+ cli:    %3").arg(i + 1).arg(la.value(i), lb.value(i));
    return {};
}

} // namespace

class TestExportReport : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    QTemporaryDir dir;
    QString kernel; // a copy of the example in dir (the report names it)

    bool settled() const
    {
        const auto s = w->bridge()->current();
        return w->bridge()->upToDate() && s->request.branches.byLine == w->bridge()->request().branches.byLine
            && s->request.timing.values() == w->bridge()->request().timing.values();
    }

    // Exports and waits; returns the finished() arguments.
    std::pair<bool, QString> exportTo(const QString& path, QPageSize::PageSizeId page = QPageSize::A4)
    {
        ReportExport* job = ReportExport::start(w.get(), path, QPageSize(page));
        QSignalSpy finished(job, &ReportExport::finished);
        if (!finished.wait(120000))
            return {false, QStringLiteral("timed out")};
        return {finished.at(0).at(0).toBool(), finished.at(0).at(1).toString()};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir.isValid());
        qputenv("SOURCE_DATE_EPOCH", fixedDate);
        kernel = dir.filePath(QStringLiteral("saxpy-gfx6.s"));
        QVERIFY(QFile::copy(gcnlens::test::exampleKernel(), kernel));
    }

    void init()
    {
        w = std::make_unique<MainWindow>();
        w->setRecoveryStore(std::make_unique<RecoveryStore>(dir.filePath(QStringLiteral("recovery"))));
        w->setGpu(QStringLiteral("tahiti"));
        w->resize(1400, 900);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openFile(kernel));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
    }

    void cleanup()
    {
        w->editor()->document()->setModified(false);
        w.reset();
    }

    void sameAsCli_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("option");   // NAME=VALUE or empty
        QTest::addColumn<int>("notTakenLine"); // 0: none
        QTest::addColumn<int>("takenLine");
        QTest::addColumn<int>("vgprs");       // -1: the kernel's own
        QTest::addColumn<QString>("pattern"); // empty: the LDS panel follows the cursor
        QTest::addColumn<QString>("op");
        QTest::addColumn<QPageSize::PageSizeId>("page");
        // saxpy-gfx6.s: line 34 is s_cbranch_scc1 (backward, assumed taken), line 36 s_cbranch_vccz
        // (forward, assumed not taken), timing-model.md section 3.
        QTest::addRow("as opened") << QStringLiteral("tahiti") << QString() << 0 << 0 << -1 << QString() << QString()
                                   << QPageSize::A4;
        QTest::addRow("panels and options") << QStringLiteral("tahiti") << QStringLiteral("taken-branch-cycles=16") << 34 << 36
                                            << 40 << QStringLiteral("lane * 8") << QStringLiteral("b64") << QPageSize::A4;
        // saxpy-gfx6.s does not assemble whole for GFX9: the report lists the errors first.
        QTest::addRow("gfx900") << QStringLiteral("gfx900") << QStringLiteral("lds-group=64") << 0 << 0 << 90
                                << QStringLiteral("lane * 4 * stride") << QStringLiteral("b32") << QPageSize::Letter;
    }
    void sameAsCli()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, option);
        QFETCH(int, notTakenLine);
        QFETCH(int, takenLine);
        QFETCH(int, vgprs);
        QFETCH(QString, pattern);
        QFETCH(QString, op);
        QFETCH(QPageSize::PageSizeId, page);

        QStringList cli = {QStringLiteral("report"), kernel,
                           QStringLiteral("--gpu"),  gpu,
                           QStringLiteral("--page"), page == QPageSize::A4 ? QStringLiteral("a4") : QStringLiteral("letter")};
        w->setGpu(gpu);
        if (!option.isEmpty()) {
            TimingOptions options = w->bridge()->request().timing;
            QVERIFY(
                options
                    .set(option.section(QLatin1Char('='), 0, 0).toStdString(), option.section(QLatin1Char('='), 1).toStdString())
                    .empty());
            w->bridge()->setTimingOptions(options);
            cli << QStringLiteral("--option") << option;
        }
        if (notTakenLine) {
            w->bridge()->setBranchDirection(notTakenLine, Direction::NotTaken);
            cli << QStringLiteral("--not-taken") << QString::number(notTakenLine);
        }
        if (takenLine) {
            w->bridge()->setBranchDirection(takenLine, Direction::Taken);
            cli << QStringLiteral("--taken") << QString::number(takenLine);
        }
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
        if (vgprs >= 0) {
            w->occupancy()->setValue(OccupancyDock::Vgpr, vgprs);
            cli << QStringLiteral("--vgprs") << QString::number(vgprs);
        }
        if (!pattern.isEmpty()) {
            w->lds()->setMode(LdsDock::PatternMode);
            w->lds()->setPattern(pattern, op, QStringLiteral("stride=33"));
            cli << QStringLiteral("--pattern") << pattern << QStringLiteral("--op") << op << QStringLiteral("--set")
                << QStringLiteral("stride=33");
        }

        const QString fromWindow = dir.filePath(QStringLiteral("window.pdf"));
        const auto [ok, message] = exportTo(fromWindow, page);
        QVERIFY2(ok, qPrintable(message));

        const QString fromCli = dir.filePath(QStringLiteral("cli.pdf"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SOURCE_DATE_EPOCH"), QString::fromLatin1(fixedDate));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), cli << QStringLiteral("-o") << fromCli);
        QVERIFY(process.waitForFinished(120000));
        // 1: the kernel has assembler errors on this GPU (the report lists them first).
        const bool errors = w->bridge()->current()->analysis.program.hasErrors();
        QVERIFY2(process.exitCode() == (errors ? 1 : 0), process.readAllStandardError().constData());

        const QString windowText = pdfText(fromWindow);
        const QString cliText = pdfText(fromCli);
        QVERIFY(windowText.contains(QStringLiteral("2024-05-17")));
        QVERIFY(windowText.contains(QStringLiteral("gcnlens report: saxpy-gfx6.s")));
        if (vgprs >= 0) // the panel's values have their own readout
            QVERIFY(windowText.contains(QStringLiteral("panel's values: VGPRs %1,").arg(vgprs)));
        if (!pattern.isEmpty())
            QVERIFY(windowText.contains(QStringLiteral("Typed pattern: %1").arg(pattern)));
        if (notTakenLine)
            QVERIFY(windowText.contains(QStringLiteral("line %1 not taken").arg(notTakenLine)));
        QVERIFY2(windowText == cliText, qPrintable(firstDifference(windowText, cliText)));

        if (const QString shots = qEnvironmentVariable("GCNLENS_SCREENSHOTS");
            !shots.isEmpty() && QLatin1String(QTest::currentDataTag()) == QLatin1String("panels and options")) {
            QFile::remove(shots + QStringLiteral("/export-window.pdf"));
            QVERIFY(QFile::copy(fromWindow, shots + QStringLiteral("/export-window.pdf")));
        }
    }

    // The dialog offers A4 and Letter and a path next to the kernel; its Export runs the export.
    void dialog()
    {
        ReportExport::ask(w.get());
        auto* dialog = w->findChild<ExportReportDialog*>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QCOMPARE(dialog->pageCombo()->count(), 2);
        QCOMPARE(QFileInfo(dialog->path()).fileName(), QStringLiteral("saxpy-gfx6.pdf"));
        QCOMPARE(QFileInfo(dialog->path()).absolutePath(), QFileInfo(kernel).absolutePath());
        const QString path = dir.filePath(QStringLiteral("dialog.pdf"));
        dialog->pathEdit()->setText(path);
        dialog->pageCombo()->setCurrentIndex(1);
        QCOMPARE(dialog->pageSize().id(), QPageSize::Letter);
        if (const QString shots = qEnvironmentVariable("GCNLENS_SCREENSHOTS"); !shots.isEmpty()) {
            dialog->pathEdit()->setText(QStringLiteral("/home/user/kernels/saxpy-gfx6.pdf"));
            QVERIFY(dialog->grab().save(shots + QStringLiteral("/export-dialog.png")));
            dialog->pathEdit()->setText(path);
        }
        dialog->accept();
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!w->findChild<ReportExport*>(), 60000);
    }

    void unwritablePath()
    {
        const QString path = dir.filePath(QStringLiteral("no-such-folder/report.pdf"));
        const auto [ok, message] = exportTo(path);
        QVERIFY(!ok);
        QVERIFY2(message.contains(QStringLiteral("cannot write")) && message.contains(path), qPrintable(message));
        QVERIFY(!QFile::exists(path));
        // Said in a message box that does not block, and the window goes on analysing edits.
        auto* box = w->findChild<QMessageBox*>(QStringLiteral("ExportReportError"));
        QVERIFY(box);
        QVERIFY(box->text().contains(path));
        box->close();
        const int before = w->bridge()->current()->analysis.timing.totals.instructions;
        QTextCursor cursor(w->editor()->document()->findBlockByNumber(27));
        cursor.insertText(QStringLiteral("    v_mov_b32 v1, v2\n"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, before + 1);
    }

    // A 10k-line kernel: the UI thread keeps running while the report is written (the timer below
    // fires), progress is reported, and Cancel leaves no file behind.
    void largeKernel_data()
    {
        QTest::addColumn<bool>("cancel");
        QTest::addColumn<bool>("capped"); // opened as a large text: no live analysis, the export makes one
        QTest::addRow("written") << false << false;
        QTest::addRow("cancelled") << true << false;
        QTest::addRow("large-text rule") << false << true;
    }
    void largeKernel()
    {
        QFETCH(bool, cancel);
        QFETCH(bool, capped);
        QString text = QStringLiteral(".text\n.globl big\n.p2align 8\n.type big,@function\nbig:\n");
        for (int i = 0; i < 10000; ++i)
            text += i % 3 == 2 ? QStringLiteral("    v_add_f32 v1, 0x40490fdb, v1\n")
                               : QStringLiteral("    v_mul_f32 v%1, v2, v3\n").arg(4 + i % 8);
        text += QStringLiteral("    s_endpgm\n");
        const QString big = dir.filePath(QStringLiteral("big.s"));
        {
            QFile f(big);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text.toUtf8());
        }
        if (capped) {
            w->setLargeTextLines(1000);
            w->setLiveAnalysisLines(1000);
        }
        QVERIFY(w->openFile(big));
        if (capped)
            QVERIFY(w->analysisCapped());
        else
            QTRY_VERIFY_WITH_TIMEOUT(settled(), 60000);

        const QString path = dir.filePath(QStringLiteral("big.pdf"));
        QFile::remove(path);
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(20);
        ReportExport* job = ReportExport::start(w.get(), path, QPageSize(QPageSize::A4));
        QSignalSpy finished(job, &ReportExport::finished);
        QVERIFY(job->progressDialog());
        if (cancel) // at once (the whole report takes only seconds), with the dialog's button
            job->progressDialog()->findChild<QPushButton*>()->click();
        QVERIFY(finished.wait(120000));
        ticker.stop();
        QCOMPARE(finished.at(0).at(0).toBool(), !cancel);
        QCOMPARE(QFile::exists(path), !cancel);
        if (cancel)
            QCOMPARE(finished.at(0).at(1).toString(), QStringLiteral("cancelled"));
        if (!cancel)
            QVERIFY2(ticks > 0, "the UI thread did not run while the report was written");
        if (capped) { // the totals of the text's own analysis (10,000 + s_endpgm), no stale panel values
            const QString text = pdfText(path);
            QVERIFY(text.contains(QRegularExpression(QStringLiteral("big\\s+10001\\s"))));
            QVERIFY(!text.contains(QStringLiteral("occupancy panel's values")));
        }
    }
};

QTEST_MAIN(TestExportReport)
#include "tst_exportreport.moc"
