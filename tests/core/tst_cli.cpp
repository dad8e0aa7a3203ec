// SPDX-License-Identifier: MIT
// `gcnlens-cli listing` as a user runs it (issue #2 section 5): exit status 0 clean, 1 when the
// input had errors (output still produced), 2 on bad usage or unreadable input; and the --json
// fields the issue names.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runCli(const QStringList& args)
{
    Run run;
    QProcess process;
    process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), args);
    if (!process.waitForStarted())
        return run;
    process.closeWriteChannel();
    process.waitForFinished(120000);
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QString data(const char* name) { return QStringLiteral(GCNLENS_TESTDATA_DIR "/frontend/") + QString::fromLatin1(name); }

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void exitCodes_data();
    void exitCodes();
    void cleanListing();
    void errorsStillListed();
    void badUsageNamesTheProblem_data();
    void badUsageNamesTheProblem();
    void jsonClean();
    void jsonDiagnostics();
    void includeAndDefsym();

private:
    QTemporaryDir scratch_;
};

void TestCli::initTestCase()
{
    QVERIFY(QFileInfo::exists(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli")));
    QVERIFY(scratch_.isValid());
    QFile binary(scratch_.filePath(QStringLiteral("kernel.o")));
    QVERIFY(binary.open(QIODevice::WriteOnly));
    binary.write(QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0\0s_nop 0\n", 20));
    binary.close();
    QFile empty(scratch_.filePath(QStringLiteral("empty.s")));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
}

void TestCli::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    const QString clean = data("clean.s"), bad = data("bad-middle.s");
    const QString dir = QStringLiteral(GCNLENS_TESTDATA_DIR "/frontend");
    QTest::addRow("clean") << QStringList {QStringLiteral("listing"), clean} << 0;
    QTest::addRow("clean --json") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--json")} << 0;
    QTest::addRow("clean preset gpu") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu"),
                                                      QStringLiteral("Radeon VII")} << 0;
    QTest::addRow("empty file") << QStringList {QStringLiteral("listing"), scratch_.filePath(QStringLiteral("empty.s"))}
                                << 0;
    QTest::addRow("errors") << QStringList {QStringLiteral("listing"), bad} << 1;
    QTest::addRow("errors --json") << QStringList {QStringLiteral("listing"), bad, QStringLiteral("--json")} << 1;
    QTest::addRow("clean on tahiti") << QStringList {QStringLiteral("listing"), data("clean.s"),
                                                           QStringLiteral("--gpu"), QStringLiteral("tahiti")} << 0;
    QTest::addRow("no arguments") << QStringList {} << 2;
    QTest::addRow("unknown command") << QStringList {QStringLiteral("lst"), clean} << 2;
    QTest::addRow("no file") << QStringList {QStringLiteral("listing")} << 2;
    QTest::addRow("missing file") << QStringList {QStringLiteral("listing"), dir + QStringLiteral("/nope.s")} << 2;
    QTest::addRow("directory") << QStringList {QStringLiteral("listing"), dir} << 2;
    QTest::addRow("binary file") << QStringList {QStringLiteral("listing"), scratch_.filePath(QStringLiteral("kernel.o"))}
                                 << 2;
    QTest::addRow("bad --gpu") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu"),
                                               QStringLiteral("gfx1234")} << 2;
    QTest::addRow("--gpu without value") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu")} << 2;
    QTest::addRow("bad --defsym no =") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--defsym"),
                                                       QStringLiteral("COUNT")} << 2;
    QTest::addRow("bad --defsym value") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--defsym"),
                                                        QStringLiteral("COUNT=abc")} << 2;
    QTest::addRow("unknown option") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--frobnicate")}
                                    << 2;
    QTest::addRow("two files") << QStringList {QStringLiteral("listing"), clean, bad} << 2;
}

void TestCli::exitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    const Run run = runCli(args);
    QVERIFY2(run.exitCode == exitCode,
             qPrintable(QStringLiteral("exit %1, stderr: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err))));
    if (exitCode == 2)
        QVERIFY2(run.err.contains("gcnlens-cli"), run.err.constData()); // a message, on stderr
}

// The text listing: per instruction line, offset (hex), size, encoding hex and text.
void TestCli::cleanListing()
{
    const Run run = runCli({QStringLiteral("listing"), data("clean.s"), QStringLiteral("--gpu"), QStringLiteral("fiji")});
    QCOMPARE(run.exitCode, 0);
    const QString out = QString::fromUtf8(run.out);
    // clean.s: s_mov_b32 with literal 0x12345 (8 bytes at 0), s_cbranch (4 at 8), v_mov 1.0 (4 at 0xc),
    // s_endpgm at 0x10. SOP1 s_mov_b32 s0 on GFX8: 0xbe8000ff then the literal 0x00012345.
    QVERIFY2(out.contains(QLatin1String("be8000ff 00012345")), qPrintable(out));
    QVERIFY(out.contains(QLatin1String("s_endpgm")));
    QVERIFY(out.contains(QLatin1String("000010")));
    QVERIFY(out.contains(QLatin1String("done:")));
    QVERIFY(run.err.isEmpty());
}

void TestCli::errorsStillListed()
{
    const Run run = runCli({QStringLiteral("listing"), data("bad-middle.s")});
    QCOMPARE(run.exitCode, 1);
    const QString out = QString::fromUtf8(run.out), err = QString::fromUtf8(run.err);
    // The line after the bad one is still listed: s_mov_b32 s1 with its literal.
    QVERIFY2(out.contains(QLatin1String("00012345")), qPrintable(out));
    QVERIFY(out.contains(QLatin1String("s_endpgm")));
    // The error names the file and the line (5) of the bad statement.
    QVERIFY2(err.contains(QLatin1String("bad-middle.s:5:")), qPrintable(err));
    QVERIFY(err.contains(QLatin1String("error")));
}

// Exit 2 comes with a message naming what was wrong.
void TestCli::badUsageNamesTheProblem_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QString dir = QStringLiteral(GCNLENS_TESTDATA_DIR "/frontend");
    QTest::addRow("missing file") << QStringList {QStringLiteral("listing"), dir + QStringLiteral("/nope.s")}
                                  << QStringLiteral("nope.s");
    QTest::addRow("directory") << QStringList {QStringLiteral("listing"), dir} << dir;
    QTest::addRow("binary") << QStringList {QStringLiteral("listing"), scratch_.filePath(QStringLiteral("kernel.o"))}
                            << QStringLiteral("kernel.o");
    QTest::addRow("bad gpu") << QStringList {QStringLiteral("listing"), data("clean.s"), QStringLiteral("--gpu"),
                                             QStringLiteral("gfx1234")}
                             << QStringLiteral("gfx1234");
    QTest::addRow("bad defsym") << QStringList {QStringLiteral("listing"), data("clean.s"), QStringLiteral("--defsym"),
                                                QStringLiteral("COUNT=abc")}
                                << QStringLiteral("COUNT=abc");
}

void TestCli::badUsageNamesTheProblem()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Run run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(mentions), run.err.constData());
    QVERIFY(run.out.isEmpty()); // nothing half-produced on stdout
}

// --json: instructions with line, offset, size, mnemonic, encoding, family; labels.
void TestCli::jsonClean()
{
    const Run run = runCli({QStringLiteral("listing"), data("clean.s"), QStringLiteral("--gpu"), QStringLiteral("fiji"),
                            QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject root = doc.object();
    const QJsonArray instructions = root.value(QStringLiteral("instructions")).toArray();
    QCOMPARE(instructions.size(), 4);
    qint64 offset = 0;
    const QStringList mnemonics {QStringLiteral("s_mov_b32"), QStringLiteral("s_cbranch_scc0"),
                                 QStringLiteral("v_mov_b32_e32"), QStringLiteral("s_endpgm")};
    const QStringList families {QStringLiteral("SOP1"), QStringLiteral("SOPP"), QStringLiteral("VOP1"),
                                QStringLiteral("SOPP")};
    const int sizes[] = {8, 4, 4, 4}; // the literal 0x12345 is not inline; 1.0 is
    for (qsizetype i = 0; i < instructions.size(); ++i) {
        const QJsonObject inst = instructions[i].toObject();
        for (const char* key : {"line", "offset", "size", "mnemonic", "encoding", "family"})
            QVERIFY2(inst.contains(QLatin1String(key)), key);
        QVERIFY(inst.value(QStringLiteral("line")).toInt() > 0);
        QCOMPARE(inst.value(QStringLiteral("offset")).toInteger(), offset);
        QCOMPARE(inst.value(QStringLiteral("size")).toInt(), sizes[i]);
        QCOMPARE(inst.value(QStringLiteral("mnemonic")).toString(), mnemonics[i]);
        QCOMPARE(inst.value(QStringLiteral("family")).toString(), families[i]);
        // Encoding: hex text of exactly `size` bytes.
        const QString encoding = inst.value(QStringLiteral("encoding")).toString();
        QCOMPARE(encoding.size(), 2 * sizes[i]);
        bool ok = false;
        encoding.left(8).toUInt(&ok, 16);
        QVERIFY(ok);
        offset += sizes[i];
    }
    // Lines: s_mov_b32 is on line 5 of clean.s, s_endpgm on line 9.
    QCOMPARE(instructions[0].toObject().value(QStringLiteral("line")).toInt() - 5,
             instructions[3].toObject().value(QStringLiteral("line")).toInt() - 9);
    QCOMPARE(instructions[0].toObject().value(QStringLiteral("line")).toInt(), 5);

    const QJsonArray labels = root.value(QStringLiteral("labels")).toArray();
    QCOMPARE(labels.size(), 2);
    QCOMPARE(labels[1].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("done"));
    QCOMPARE(labels[1].toObject().value(QStringLiteral("offset")).toInteger(), 16);
    QVERIFY(root.value(QStringLiteral("diagnostics")).toArray().isEmpty());
}

// --json on a file with an error: diagnostics with line, severity, message, and still the rest.
void TestCli::jsonDiagnostics()
{
    const Run run = runCli({QStringLiteral("listing"), data("bad-middle.s"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 1);
    const QJsonObject root = QJsonDocument::fromJson(run.out).object();
    const QJsonArray diagnostics = root.value(QStringLiteral("diagnostics")).toArray();
    QCOMPARE(diagnostics.size(), 1);
    const QJsonObject d = diagnostics[0].toObject();
    QCOMPARE(d.value(QStringLiteral("line")).toInt(), 5);
    QCOMPARE(d.value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
    QVERIFY(!d.value(QStringLiteral("message")).toString().isEmpty());
    const QJsonArray instructions = root.value(QStringLiteral("instructions")).toArray();
    QCOMPARE(instructions.size(), 4);
    // The bad line is a 4-byte placeholder: s_mov_b32 s1 (8 bytes, literal) stays at offset 8.
    QCOMPARE(instructions[1].toObject().value(QStringLiteral("size")).toInt(), 4);
    QCOMPARE(instructions[2].toObject().value(QStringLiteral("offset")).toInteger(), 8);
    QCOMPARE(instructions[2].toObject().value(QStringLiteral("size")).toInt(), 8);
}

// -I finds the include; --defsym decides the operand (and so the size).
void TestCli::includeAndDefsym()
{
    const QString inc = QStringLiteral(GCNLENS_TESTDATA_DIR "/frontend/inc");
    const auto listing = [&](const char* defsym) {
        return runCli({QStringLiteral("listing"), data("uses-include.s"), QStringLiteral("-I"), inc,
                       QStringLiteral("--defsym"), QString::fromLatin1(defsym), QStringLiteral("--json")});
    };
    const Run small = listing("COUNT=3"), large = listing("COUNT=100");
    QVERIFY2(small.exitCode == 0, small.err.constData());
    QVERIFY2(large.exitCode == 0, large.err.constData());
    const QJsonArray a = QJsonDocument::fromJson(small.out).object().value(QStringLiteral("instructions")).toArray();
    const QJsonArray b = QJsonDocument::fromJson(large.out).object().value(QStringLiteral("instructions")).toArray();
    // s_mov_b32 m0 (include), v_mov_b32 v3 (macro), s_mov_b32 s2, COUNT, s_endpgm.
    QCOMPARE(a.size(), 4);
    QCOMPARE(b.size(), 4);
    QCOMPARE(a[2].toObject().value(QStringLiteral("size")).toInt(), 4); // 3 is inline
    QCOMPARE(b[2].toObject().value(QStringLiteral("size")).toInt(), 8); // 100 > 64 needs a literal
    QCOMPARE(b[3].toObject().value(QStringLiteral("offset")).toInteger(),
             a[3].toObject().value(QStringLiteral("offset")).toInteger() + 4);
    QCOMPARE(a[0].toObject().value(QStringLiteral("line")).toInt(), 3); // the .include line

    // Without -I the include is not found: exit 1 (an input error), not a crash.
    const Run noInclude = runCli({QStringLiteral("listing"), data("uses-include.s"), QStringLiteral("--defsym"),
                                  QStringLiteral("COUNT=3")});
    // The CLI adds the file's own directory; defs.inc lives in inc/, so it stays missing.
    QCOMPARE(noInclude.exitCode, 1);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
