// SPDX-License-Identifier: MIT
// `--version` of both programs (issue #19): "PROGRAM VERSION" on standard output, exit 0, where
// VERSION is the CMake project version that gcnlens-config.h carries (its one source).
#include "gcnlens-config.h"

#include <QProcess>
#include <QtTest>

class TestVersion : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void version_data();
    void version();
};

void TestVersion::version_data()
{
    QTest::addColumn<QString>("program");
    QTest::addRow("gcnlens-cli") << QStringLiteral("gcnlens-cli");
#if GCNLENS_HAVE_REPORT                                    // the window is built with gcnlens_ui, as the report is
    QTest::addRow("gcnlens") << QStringLiteral("gcnlens"); // on the offscreen platform (tests/CMakeLists.txt)
#endif
}

void TestVersion::version()
{
    QFETCH(QString, program);
    QProcess process;
    process.start(QStringLiteral(GCNLENS_BIN_DIR "/") + program, {QStringLiteral("--version")});
    QVERIFY2(process.waitForFinished(60000), qPrintable(program + QStringLiteral(" did not finish")));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(process.readAllStandardOutput()), program + QStringLiteral(" " GCNLENS_VERSION "\n"));
}

QTEST_GUILESS_MAIN(TestVersion)
#include "tst_version.moc"
