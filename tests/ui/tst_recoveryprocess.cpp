// SPDX-License-Identifier: MIT
// Recovery after a real crash (issue #12): the gcnlens binary opens a file, the test hook
// GCNLENS_TEST_TYPE types into it, the autosave writes the recovery file, the process is killed
// with SIGKILL; the next start offers the unsaved text (GCNLENS_TEST_ANSWER=yes takes the offer)
// and GCNLENS_TEST_DUMP writes what the editor then holds. HOME and the XDG folders point into a
// temporary folder, so the user's settings and recovery files are never touched.
#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

QString gcnlens()
{
    return QStringLiteral(GCNLENS_BIN_DIR "/gcnlens");
}

// Every file under `dir` whose text contains `needle`.
QStringList filesHolding(const QString& dir, const QByteArray& needle)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found << file.fileName();
    }
    return found;
}

} // namespace

class TestRecoveryProcess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void killedWhileEditing_data()
    {
        QTest::addColumn<bool>("named"); // a file on disk, or an untitled text
        QTest::addRow("file") << true;
        QTest::addRow("untitled") << false;
    }
    void killedWhileEditing()
    {
        QFETCH(bool, named);
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QByteArray original = "s_nop 0\ns_endpgm\n";
        const QByteArray typed = "; typed before the crash\ns_nop 1\n";
        const QString kernel = home.filePath(QStringLiteral("kernel.s"));
        {
            QFile file(kernel);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(original);
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));

        QProcess first;
        QProcessEnvironment typing = env;
        typing.insert(QStringLiteral("GCNLENS_TEST_TYPE"), QString::fromUtf8(typed));
        first.setProcessEnvironment(typing);
        first.start(gcnlens(), named ? QStringList {kernel} : QStringList {});
        QVERIFY(first.waitForStarted());
        // The autosave runs 2 s after the last keystroke.
        QTRY_VERIFY_WITH_TIMEOUT(!filesHolding(home.filePath(QStringLiteral("data")), typed).isEmpty(), 30000);
        QCOMPARE(::kill(pid_t(first.processId()), SIGKILL), 0);
        QVERIFY(first.waitForFinished(10000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);

        QProcess second;
        QProcessEnvironment restoring = env;
        const QString dump = home.filePath(QStringLiteral("dump.txt"));
        restoring.insert(QStringLiteral("GCNLENS_TEST_ANSWER"), QStringLiteral("yes"));
        restoring.insert(QStringLiteral("GCNLENS_TEST_DUMP"), dump);
        second.setProcessEnvironment(restoring);
        second.start(gcnlens(), {});
        QVERIFY(second.waitForFinished(60000));
        QCOMPARE(second.exitStatus(), QProcess::NormalExit);
        QCOMPARE(second.exitCode(), 0);
        QFile restored(dump);
        QVERIFY(restored.open(QIODevice::ReadOnly));
        const QByteArray text = restored.readAll();
        QCOMPARE(text, named ? original + typed : typed);
        // The file on disk was never touched.
        QFile onDisk(kernel);
        QVERIFY(onDisk.open(QIODevice::ReadOnly));
        QCOMPARE(onDisk.readAll(), original);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryProcess)
#include "tst_recoveryprocess.moc"
