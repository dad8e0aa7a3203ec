// SPDX-License-Identifier: MIT
// gcnlens-cli as a user runs it (issue #2 section 5): exit status 0 clean, 1 when the input had
// errors (output still produced), 2 on bad usage or unreadable input, with a message naming the
// option, value or file and the cause; the --json fields the issue names; every command's --help,
// its usage errors and standard input as FILE.
#include "core/model/checkoptions.h"
#include "testutils.h"
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

using Run = gcnlens::test::CliRun;
using gcnlens::test::runCli;

QString data(const char* name)
{
    return gcnlens::test::testData("data/frontend") + QLatin1Char('/') + QString::fromLatin1(name);
}

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
    void commands_data();
    void commands();
    void usageErrors_data();
    void usageErrors();
    void help_data();
    void help();
    void standardInput_data();
    void standardInput();
    void badInput_data();
    void badInput();
    void socketFile();
    void encodedSource_data();
    void encodedSource();
    void unreadableFile();
    void unwritableStdout();
    void checkOptions_data();
    void checkOptions();

private:
    QTemporaryDir scratch_;
};

void TestCli::initTestCase()
{
    QVERIFY(QFileInfo::exists(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli")));
    QVERIFY(scratch_.isValid());
    QFile binary(scratch_.filePath(QStringLiteral("kernel.o")));
    QVERIFY(binary.open(QIODevice::WriteOnly));
    binary.write(QByteArray("\x7f"
                            "ELF\x02\x01\x01\0\0\0\0s_nop 0\n",
                            20));
    binary.close();
    QFile empty(scratch_.filePath(QStringLiteral("empty.s")));
    QVERIFY(empty.open(QIODevice::WriteOnly));
    empty.close();
    QFile huge(scratch_.filePath(QStringLiteral("huge.s")));
    QVERIFY(huge.open(QIODevice::WriteOnly));
    QVERIFY(huge.resize(200ll * 1024 * 1024));
}

void TestCli::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    const QString clean = data("clean.s"), bad = data("bad-middle.s");
    const QString dir = gcnlens::test::testData("data/frontend");
    QTest::addRow("clean") << QStringList {QStringLiteral("listing"), clean} << 0;
    QTest::addRow("clean --json") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--json")} << 0;
    QTest::addRow("clean preset gpu") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu"),
                                                      QStringLiteral("Radeon VII")}
                                      << 0;
    QTest::addRow("empty file") << QStringList {QStringLiteral("listing"), scratch_.filePath(QStringLiteral("empty.s"))} << 0;
    QTest::addRow("errors") << QStringList {QStringLiteral("listing"), bad} << 1;
    QTest::addRow("errors --json") << QStringList {QStringLiteral("listing"), bad, QStringLiteral("--json")} << 1;
    QTest::addRow("clean on tahiti") << QStringList {QStringLiteral("listing"), data("clean.s"), QStringLiteral("--gpu"),
                                                     QStringLiteral("tahiti")}
                                     << 0;
    // check (issue #17): 3 when it finds a hazard or a use before its s_waitcnt.
    QTest::addRow("check clean") << QStringList {QStringLiteral("check"), clean} << 0;
    const QString hazard = QStringLiteral(GCNLENS_TESTDATA_DIR "/checks/lanesel.s");
    QTest::addRow("check hazard") << QStringList {QStringLiteral("check"), hazard, QStringLiteral("--gpu"),
                                                  QStringLiteral("gfx900")}
                                  << 3;
    QTest::addRow("check hazard --json") << QStringList {QStringLiteral("check"), hazard, QStringLiteral("--json")} << 3;
    QTest::addRow("check bad A- option") << QStringList {QStringLiteral("check"), hazard, QStringLiteral("--option"),
                                                         QStringLiteral("A-nop=12")}
                                         << 2;
    QTest::addRow("no arguments") << QStringList {} << 2;
    QTest::addRow("unknown command") << QStringList {QStringLiteral("lst"), clean} << 2;
    QTest::addRow("no file") << QStringList {QStringLiteral("listing")} << 2;
    QTest::addRow("missing file") << QStringList {QStringLiteral("listing"), dir + QStringLiteral("/nope.s")} << 2;
    QTest::addRow("directory") << QStringList {QStringLiteral("listing"), dir} << 2;
    QTest::addRow("binary file") << QStringList {QStringLiteral("listing"), scratch_.filePath(QStringLiteral("kernel.o"))} << 2;
    QTest::addRow("bad --gpu") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu"),
                                               QStringLiteral("gfx1234")}
                               << 2;
    QTest::addRow("--gpu without value") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu")} << 2;
    QTest::addRow("bad --defsym no =") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--defsym"),
                                                       QStringLiteral("COUNT")}
                                       << 2;
    QTest::addRow("bad --defsym value") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--defsym"),
                                                        QStringLiteral("COUNT=abc")}
                                        << 2;
    QTest::addRow("unknown option") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--frobnicate")} << 2;
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
    const QString dir = gcnlens::test::testData("data/frontend");
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
    const Run run = runCli(
        {QStringLiteral("listing"), data("clean.s"), QStringLiteral("--gpu"), QStringLiteral("fiji"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(run.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject root = doc.object();
    const QJsonArray instructions = root.value(QStringLiteral("instructions")).toArray();
    QCOMPARE(instructions.size(), 4);
    qint64 offset = 0;
    const QStringList mnemonics {QStringLiteral("s_mov_b32"), QStringLiteral("s_cbranch_scc0"), QStringLiteral("v_mov_b32_e32"),
                                 QStringLiteral("s_endpgm")};
    const QStringList families {QStringLiteral("SOP1"), QStringLiteral("SOPP"), QStringLiteral("VOP1"), QStringLiteral("SOPP")};
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
    const QString inc = gcnlens::test::testData("data/frontend/inc");
    const auto listing = [&](const char* defsym) {
        return runCli({QStringLiteral("listing"), data("uses-include.s"), QStringLiteral("-I"), inc, QStringLiteral("--defsym"),
                       QString::fromLatin1(defsym), QStringLiteral("--json")});
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
    const Run noInclude =
        runCli({QStringLiteral("listing"), data("uses-include.s"), QStringLiteral("--defsym"), QStringLiteral("COUNT=3")});
    // The CLI adds the file's own directory; defs.inc lives in inc/, so it stays missing.
    QCOMPARE(noInclude.exitCode, 1);
}

// Every command through the shared option parser: the flags each takes, in every spelling it
// accepts (--name value, --name=value, -Ivalue, and "--" before FILE), and the exit status.
void TestCli::commands_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stdoutContains");
    const QString clean = data("clean.s"), bad = data("bad-middle.s");
    const QString inc = gcnlens::test::testData("data/frontend/inc");
    QTest::addRow("analyze clean") << QStringList {QStringLiteral("analyze"), clean} << 0 << QStringLiteral("totals:");
    // Issue #15: the DP factor's source, in the listing and the JSON, and the timing sources.
    QTest::addRow("analyze dpfactor source")
        << QStringList {QStringLiteral("analyze"), clean, QStringLiteral("--gpu"), QStringLiteral("tahiti")} << 0
        << QStringLiteral("; DPFACTOR from tahiti: every product has DP 1/4");
    QTest::addRow("analyze dpfactor_source --json") << QStringList {QStringLiteral("analyze"), clean, QStringLiteral("--gpu"),
                                                                    QStringLiteral("hawaii"), QStringLiteral("--json")}
                                                    << 0 << QStringLiteral("\"dpfactor_source\": \"hawaii: most common part");
    QTest::addRow("analyze timing sources") << QStringList {QStringLiteral("analyze"), clean} << 0
                                            << QStringLiteral("timing sources: T-llvm-sched");
    // Issues #16, #17: the text output has the pressure peaks and the checks' findings too.
    const QString lanesel = QStringLiteral(GCNLENS_TESTDATA_DIR "/checks/lanesel.s");
    QTest::addRow("analyze pressure peaks") << QStringList {QStringLiteral("analyze"), lanesel} << 0
                                            << QStringLiteral("pressure peaks, kernel ");
    QTest::addRow("analyze checks") << QStringList {QStringLiteral("analyze"), lanesel} << 0 << QStringLiteral(": W-lanesel: ");
    QTest::addRow("lds --option lds-phases") << QStringList {QStringLiteral("lds"),
                                                             QStringLiteral("--pattern"),
                                                             QStringLiteral("lane*16"),
                                                             QStringLiteral("--op"),
                                                             QStringLiteral("ds_read_b128"),
                                                             QStringLiteral("--option"),
                                                             QStringLiteral("lds-phases=cdna")}
                                             << 0 << QStringLiteral("lanes 0-3, 20-23");
    // Output is still produced for the rest of a file with errors.
    QTest::addRow("analyze errors") << QStringList {QStringLiteral("analyze"), bad} << 1 << QStringLiteral("s_endpgm");
    QTest::addRow("analyze errors --json") << QStringList {QStringLiteral("analyze"), bad, QStringLiteral("--json")} << 1
                                           << QStringLiteral("\"diagnostics\"");
    // clean.s line 6 is s_cbranch_scc0: the override is applied and marked.
    QTest::addRow("analyze --taken") << QStringList {QStringLiteral("analyze"), clean, QStringLiteral("--taken"),
                                                     QStringLiteral("6")}
                                     << 0 << QStringLiteral("; taken (override)");
    QTest::addRow("analyze --taken=") << QStringList {QStringLiteral("analyze"), clean, QStringLiteral("--taken=6")} << 0
                                      << QStringLiteral("; taken (override)");
    QTest::addRow("occupancy") << QStringList {QStringLiteral("occupancy"), QStringLiteral("--vgprs"), QStringLiteral("24"),
                                               QStringLiteral("--sgprs"), QStringLiteral("16")}
                               << 0 << QStringLiteral("waves per SIMD:");
    QTest::addRow("occupancy --json") << QStringList {QStringLiteral("occupancy"),  QStringLiteral("--gpu=fiji"),
                                                      QStringLiteral("--vgprs=24"), QStringLiteral("--sgprs"),
                                                      QStringLiteral("16"),         QStringLiteral("--json")}
                                      << 0 << QStringLiteral("\"waves_per_simd\"");
    // lane*128 bytes: every lane's dword is a multiple of 32, so all 32 lanes of a group hit bank 0
    // in distinct rows: degree 32 (timing-model.md section 7). lane*S with S=4: one bank per lane.
    QTest::addRow("lds conflicts") << QStringList {QStringLiteral("lds"), QStringLiteral("--pattern"), QStringLiteral("lane*128")}
                                   << 0 << QStringLiteral("degree 32 (worst group)");
    QTest::addRow("lds --set") << QStringList {QStringLiteral("lds"), QStringLiteral("--pattern"), QStringLiteral("lane*S"),
                                               QStringLiteral("--set"), QStringLiteral("S=4")}
                               << 0 << QStringLiteral("degree 1 (worst group)");
    QTest::addRow("gpus") << QStringList {QStringLiteral("gpus")} << 0 << QStringLiteral("tahiti");
    // GFX8 SOP1 s_mov_b32 s0 with a literal (see cleanListing): the --gpu=NAME spelling took effect.
    QTest::addRow("--gpu=") << QStringList {QStringLiteral("listing"), clean, QStringLiteral("--gpu=fiji")} << 0
                            << QStringLiteral("be8000ff 00012345");
    // The joined spellings reach the assembler: defs.inc is found only through -I, and COUNT=100
    // needs a literal (8-byte s_mov_b32, see includeAndDefsym).
    QTest::addRow("-IDIR --defsym=") << QStringList {QStringLiteral("listing"), data("uses-include.s"),
                                                     QStringLiteral("-I") + inc, QStringLiteral("--defsym=COUNT=100"),
                                                     QStringLiteral("--json")}
                                     << 0 << QStringLiteral("\"size\": 8");
    QTest::addRow("-- before FILE") << QStringList {QStringLiteral("listing"), QStringLiteral("--"), clean} << 0
                                    << QStringLiteral("s_endpgm");
}

void TestCli::commands()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutContains);
    const Run run = runCli(args);
    QVERIFY2(run.exitCode == exitCode,
             qPrintable(QStringLiteral("exit %1, stderr: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err))));
    QVERIFY2(QString::fromUtf8(run.out).contains(stdoutContains), run.out.constData());
}

// Bad usage: exit 2, nothing on stdout, and a message on stderr naming the command, the option and
// the value that is wrong.
void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mentions");
    const QString clean = data("clean.s"), bad = data("bad-middle.s");
    const auto row = [](const char* name, const QStringList& args, const QStringList& mentions) {
        QTest::addRow("%s", name) << args << mentions;
    };
    const QString listing = QStringLiteral("listing"), analyze = QStringLiteral("analyze");
    const QString occupancy = QStringLiteral("occupancy"), lds = QStringLiteral("lds");
    row("no arguments", {}, {QStringLiteral("usage: gcnlens-cli COMMAND")});
    row("unknown command", {QStringLiteral("lst"), clean}, {QStringLiteral("unknown command 'lst'")});

    row("listing unknown option", {listing, clean, QStringLiteral("--frobnicate")},
        {QStringLiteral("listing: unknown option '--frobnicate'"), QStringLiteral("listing --help")});
    row("listing no file", {listing}, {QStringLiteral("listing: no input file")});
    row("listing two files", {listing, clean, bad}, {QStringLiteral("unexpected argument '%1'").arg(bad), clean});
    row("listing --gpu without value", {listing, clean, QStringLiteral("--gpu")},
        {QStringLiteral("listing: --gpu needs a value")});
    // The next option is not taken for the missing value.
    row("listing -I then option", {listing, clean, QStringLiteral("-I"), QStringLiteral("--json")},
        {QStringLiteral("-I needs a value")});
    row("listing bad --gpu", {listing, clean, QStringLiteral("--gpu"), QStringLiteral("gfx1234")},
        {QStringLiteral("--gpu 'gfx1234'"), QStringLiteral("unknown GPU")});
    row("listing bad --defsym", {listing, clean, QStringLiteral("--defsym"), QStringLiteral("COUNT=abc")},
        {QStringLiteral("--defsym 'COUNT=abc'"), QStringLiteral("integer")});
    row("listing --option", {listing, clean, QStringLiteral("--option"), QStringLiteral("long-rule=first")},
        {QStringLiteral("listing: --option"), analyze});
    row("listing --json=yes", {listing, clean, QStringLiteral("--json=yes")}, {QStringLiteral("--json takes no value")});

    row("analyze bad --option value", {analyze, clean, QStringLiteral("--option"), QStringLiteral("long-rule=sideways")},
        {QStringLiteral("analyze: --option 'long-rule=sideways'")});
    row("analyze unknown --option", {analyze, clean, QStringLiteral("--option"), QStringLiteral("warp=1")},
        {QStringLiteral("--option 'warp=1'")});
    row("analyze --option without =", {analyze, clean, QStringLiteral("--option"), QStringLiteral("warp")},
        {QStringLiteral("--option 'warp'"), QStringLiteral("NAME=VALUE")});
    row("analyze --taken x", {analyze, clean, QStringLiteral("--taken"), QStringLiteral("x")},
        {QStringLiteral("analyze: --taken 'x'"), QStringLiteral("line number")});
    row("analyze --not-taken 0", {analyze, clean, QStringLiteral("--not-taken"), QStringLiteral("0")},
        {QStringLiteral("--not-taken '0'")});
    row("analyze unknown flag", {analyze, clean, QStringLiteral("--fast")}, {QStringLiteral("unknown option '--fast'")});
    row("analyze no file", {analyze, QStringLiteral("--json")}, {QStringLiteral("analyze: no input file")});

    row("occupancy no --sgprs", {occupancy, QStringLiteral("--vgprs"), QStringLiteral("24")},
        {QStringLiteral("occupancy: --sgprs N is required")});
    row("occupancy --vgprs abc",
        {occupancy, QStringLiteral("--vgprs"), QStringLiteral("abc"), QStringLiteral("--sgprs"), QStringLiteral("16")},
        {QStringLiteral("--vgprs 'abc'"), QStringLiteral("not an integer")});
    row("occupancy file",
        {occupancy, clean, QStringLiteral("--vgprs"), QStringLiteral("24"), QStringLiteral("--sgprs"), QStringLiteral("16")},
        {QStringLiteral("unexpected argument '%1'").arg(clean), QStringLiteral("no input file")});
    row("occupancy bad --gpu",
        {occupancy, QStringLiteral("--gpu"), QStringLiteral("nonesuch"), QStringLiteral("--vgprs"), QStringLiteral("24"),
         QStringLiteral("--sgprs"), QStringLiteral("16")},
        {QStringLiteral("--gpu 'nonesuch'")});
    row("occupancy -I",
        {occupancy, QStringLiteral("-I"), QStringLiteral("x"), QStringLiteral("--vgprs"), QStringLiteral("24"),
         QStringLiteral("--sgprs"), QStringLiteral("16")},
        {QStringLiteral("occupancy: unknown option '-I'")});

    row("lds no --pattern", {lds, QStringLiteral("--json")}, {QStringLiteral("lds: --pattern EXPR is required")});
    row("lds bad --set",
        {lds, QStringLiteral("--pattern"), QStringLiteral("lane*4"), QStringLiteral("--set"), QStringLiteral("S")},
        {QStringLiteral("lds: --set 'S'"), QStringLiteral("NAME=INTEGER")});
    // "lane*" ends where an operand is expected: column 6.
    row("lds bad pattern", {lds, QStringLiteral("--pattern"), QStringLiteral("lane*")},
        {QStringLiteral("lds: pattern column 6")});
    row("gpus argument", {QStringLiteral("gpus"), QStringLiteral("fiji")}, {QStringLiteral("gpus: unexpected argument 'fiji'")});
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, mentions);
    const Run run = runCli(args);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.out.isEmpty(), run.out.constData());
    const QString err = QString::fromUtf8(run.err);
    QVERIFY2(err.startsWith(QLatin1String("gcnlens-cli")) || err.startsWith(QLatin1String("usage:")), qPrintable(err));
    for (const QString& mention : mentions)
        QVERIFY2(err.contains(mention), qPrintable(QStringLiteral("'%1' not in: %2").arg(mention, err)));
}

// COMMAND --help (and `help COMMAND`) lists every option the command takes, on stdout, exit 0.
void TestCli::help_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("options");
    QTest::addRow("listing") << QStringLiteral("listing")
                             << QStringList {QStringLiteral("FILE"), QStringLiteral("--gpu NAME"), QStringLiteral("-I DIR"),
                                             QStringLiteral("--defsym NAME=VALUE"), QStringLiteral("--json")};
    QTest::addRow("analyze") << QStringLiteral("analyze")
                             << QStringList {QStringLiteral("FILE"),
                                             QStringLiteral("--gpu"),
                                             QStringLiteral("-I"),
                                             QStringLiteral("--defsym"),
                                             QStringLiteral("--option NAME=VALUE"),
                                             QStringLiteral("--taken LINE"),
                                             QStringLiteral("--not-taken LINE"),
                                             QStringLiteral("--json")};
    QTest::addRow("occupancy") << QStringLiteral("occupancy")
                               << QStringList {QStringLiteral("--gpu"),       QStringLiteral("--vgprs N"),
                                               QStringLiteral("--agprs N"),   QStringLiteral("--sgprs N"),
                                               QStringLiteral("--lds BYTES"), QStringLiteral("--workgroup N"),
                                               QStringLiteral("--scratch"),   QStringLiteral("--trap"),
                                               QStringLiteral("--no-vcc"),    QStringLiteral("--flat-scratch"),
                                               QStringLiteral("--xnack"),     QStringLiteral("--option"),
                                               QStringLiteral("--json")};
    QTest::addRow("lds") << QStringLiteral(
        "lds") << QStringList {QStringLiteral("--pattern EXPR"),   QStringLiteral("--width"),  QStringLiteral("--op"),
                               QStringLiteral("--set NAME=VALUE"), QStringLiteral("--option"), QStringLiteral("--json")};
    QTest::addRow("gpus") << QStringLiteral("gpus") << QStringList {};
}

void TestCli::help()
{
    QFETCH(QString, command);
    QFETCH(QStringList, options);
    const Run run = runCli({command, QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.err.isEmpty());
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.startsWith(QStringLiteral("usage: gcnlens-cli %1").arg(command)), qPrintable(out));
    for (const QString& option : options)
        QVERIFY2(out.contains(option), qPrintable(QStringLiteral("'%1' not in: %2").arg(option, out)));
    QVERIFY(out.contains(QLatin1String("--help")));
    // The same text from `help COMMAND`, from -h, and when --help follows a bad option.
    QCOMPARE(runCli({QStringLiteral("help"), command}).out, run.out);
    QCOMPARE(runCli({command, QStringLiteral("-h")}).out, run.out);
    const Run late = runCli({command, QStringLiteral("--bogus"), QStringLiteral("--help")});
    QCOMPARE(late.exitCode, 0);
    QCOMPARE(late.out, run.out);
    // The general usage names the command.
    QVERIFY(QString::fromUtf8(runCli({QStringLiteral("--help")}).out).contains(QStringLiteral("  %1").arg(command)));
}

// "-" as FILE reads standard input: the same result as the file itself; messages name <stdin>.
void TestCli::standardInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("exitCode");
    const QString listing = QStringLiteral("listing"), analyze = QStringLiteral("analyze"), dash = QStringLiteral("-");
    QTest::addRow("listing") << QStringList {listing, dash} << data("clean.s") << 0;
    QTest::addRow("listing --json") << QStringList {listing, dash, QStringLiteral("--json")} << data("clean.s") << 0;
    QTest::addRow("listing errors") << QStringList {listing, dash} << data("bad-middle.s") << 1;
    QTest::addRow("analyze") << QStringList {analyze, dash, QStringLiteral("--gpu"), QStringLiteral("fiji")} << data("clean.s")
                             << 0;
    QTest::addRow("analyze --json errors") << QStringList {analyze, QStringLiteral("--json"), dash} << data("bad-middle.s") << 1;
    QTest::addRow("empty") << QStringList {listing, dash} << scratch_.filePath(QStringLiteral("empty.s")) << 0;
}

void TestCli::standardInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, file);
    QFETCH(int, exitCode);
    const Run fromStdin = runCli(args, gcnlens::test::readBytes(file));
    QVERIFY2(fromStdin.exitCode == exitCode, fromStdin.err.constData());
    QStringList fileArgs = args;
    fileArgs.replace(fileArgs.indexOf(QStringLiteral("-")), file);
    const Run fromFile = runCli(fileArgs);
    QCOMPARE(fromFile.exitCode, exitCode);
    QVERIFY(!fromStdin.out.isEmpty());
    QCOMPARE(fromStdin.out, fromFile.out);
    // Diagnostics are the file's, named <stdin>:LINE:COLUMN instead of FILE:LINE:COLUMN.
    QCOMPARE(QString::fromUtf8(fromStdin.err), QString::fromUtf8(fromFile.err).replace(file, QStringLiteral("<stdin>")));
    if (exitCode == 1 && !args.contains(QStringLiteral("--json")))                 // --json carries them in the document
        QVERIFY2(fromStdin.err.contains("<stdin>:5:"), fromStdin.err.constData()); // bad-middle.s line 5
}

// Input that is not a readable kernel source: exit 2, nothing on stdout, a message naming the
// input and the cause, for each command that reads a FILE (report: tst_report).
void TestCli::badInput_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QStringList>("mentions");
    const QString dir = gcnlens::test::testData("data/frontend");
    QTest::addRow("missing") << dir + QStringLiteral("/nope.s") << QByteArray()
                             << QStringList {dir + QStringLiteral("/nope.s"), QStringLiteral("no such file")};
    QTest::addRow("directory") << dir << QByteArray() << QStringList {dir, QStringLiteral("is a directory")};
    QTest::addRow("binary") << scratch_.filePath(QStringLiteral("kernel.o")) << QByteArray()
                            << QStringList {QStringLiteral("kernel.o"), QStringLiteral("not a readable ELF file")};
    // 200 MiB (sparse, so cheap): refused from its size, before it is read.
    QTest::addRow("huge") << scratch_.filePath(QStringLiteral("huge.s")) << QByteArray()
                          << QStringList {QStringLiteral("huge.s"), QStringLiteral("200 MiB is larger than the 64 MiB")};
    // A device has no size: the read itself stops at the limit.
    if (QFileInfo::exists(QStringLiteral("/dev/zero")))
        QTest::addRow("endless device") << QStringLiteral("/dev/zero") << QByteArray()
                                        << QStringList {QStringLiteral("/dev/zero"), QStringLiteral("more than 64 MiB")};
    QTest::addRow("binary stdin") << QStringLiteral("-") << QByteArray("s_nop 0\n\0\x01\x02", 11)
                                  << QStringList {QStringLiteral("standard input"), QStringLiteral("binary data at byte 8")};
}

void TestCli::badInput()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, input);
    QFETCH(QStringList, mentions);
    for (const QString& command : {QStringLiteral("listing"), QStringLiteral("analyze")}) {
        const Run run = runCli({command, file}, input);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        for (const QString& mention : mentions)
            QVERIFY2(run.err.contains(mention.toUtf8()), run.err.constData());
    }
}

// A kernel saved by another editor (a BOM, CR LF, UTF-16) reads as the same text: the CLI and the
// window share one loader (issue #11 item 1; issue #12's "invalid character in input").
void TestCli::encodedSource_data()
{
    QTest::addColumn<QByteArray>("prefix");
    QTest::addColumn<QString>("codec"); // how the text is written: utf-8 or utf-16le
    QTest::addColumn<bool>("crlf");
    QTest::addRow("utf-8 bom crlf") << QByteArray("\xef\xbb\xbf") << QStringLiteral("utf-8") << true;
    QTest::addRow("crlf") << QByteArray() << QStringLiteral("utf-8") << true;
    QTest::addRow("utf-16le bom") << QByteArray("\xff\xfe") << QStringLiteral("utf-16le") << false;
}

void TestCli::encodedSource()
{
    QFETCH(QByteArray, prefix);
    QFETCH(QString, codec);
    QFETCH(bool, crlf);
    QFile original(data("clean.s"));
    QVERIFY(original.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(original.readAll());
    if (crlf)
        text.replace(QLatin1Char('\n'), QStringLiteral("\r\n"));
    QByteArray bytes = prefix;
    if (codec == QLatin1String("utf-16le"))
        bytes.append(reinterpret_cast<const char*>(text.utf16()), text.size() * 2);
    else
        bytes += text.toUtf8();
    const QString path = scratch_.filePath(QStringLiteral("encoded.s"));
    QFile copy(path);
    QVERIFY(copy.open(QIODevice::WriteOnly));
    copy.write(bytes);
    copy.close();
    const Run expected = runCli({QStringLiteral("analyze"), data("clean.s")});
    const Run actual = runCli({QStringLiteral("analyze"), path});
    QCOMPARE(actual.exitCode, 0);
    QCOMPARE(actual.out, expected.out);
    QVERIFY2(actual.err.isEmpty(), actual.err.constData());
}

// A file that exists but cannot be opened: a Unix socket (open() fails for every user, root
// included) and, where the user is not root, a file without read permission (unreadableFile).
void TestCli::socketFile()
{
    const QString socketPath = scratch_.filePath(QStringLiteral("kernel.sock"));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    const QByteArray encoded = QFile::encodeName(socketPath);
    QVERIFY(std::size_t(encoded.size()) < sizeof address.sun_path);
    std::memcpy(address.sun_path, encoded.constData(), std::size_t(encoded.size()));
    QVERIFY(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    const Run socketRun = runCli({QStringLiteral("listing"), socketPath});
    ::close(fd);
    QCOMPARE(socketRun.exitCode, 2);
    QVERIFY(socketRun.out.isEmpty());
    QVERIFY2(socketRun.err.contains(QStringLiteral("%1: cannot open").arg(socketPath).toUtf8()), socketRun.err.constData());
}

void TestCli::unreadableFile()
{
    const QString path = scratch_.filePath(QStringLiteral("locked.s"));
    QVERIFY(QFile(data("clean.s")).copy(path));
    QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
    if (QFile locked(path); locked.open(QIODevice::ReadOnly))
        QSKIP("this user reads files without read permission (root); socketFile covers the open failure");
    const Run run = runCli({QStringLiteral("listing"), path});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("%1: cannot open").arg(path).toUtf8()), run.err.constData());
    QVERIFY2(run.err.contains("Permission denied"), run.err.constData());
}

// Output that cannot be written (a full disk) is an error, not a silently truncated listing.
void TestCli::unwritableStdout()
{
    if (!QFileInfo::exists(QStringLiteral("/dev/full")))
        QSKIP("no /dev/full here");
    const Run run = runCli({QStringLiteral("listing"), data("clean.s")}, {}, QStringLiteral("/dev/full"));
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("cannot write standard output"), run.err.constData());
}

// Every hazards.md §4 option is an option of `check` (issue #17): `check --help` lists it with
// its default first, --json reports the value in effect, and --option sets the other spelling.
void TestCli::checkOptions_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("defaultValue");
    QTest::addColumn<QString>("otherValue");
    for (const gcnlens::CheckOptions::Choice& c : gcnlens::CheckOptions::choices())
        QTest::addRow("%s", c.name.c_str()) << QString::fromStdString(c.name) << QString::fromStdString(c.defaultValue)
                                            << QString::fromStdString(c.otherValue);
}

void TestCli::checkOptions()
{
    QFETCH(QString, name);
    QFETCH(QString, defaultValue);
    QFETCH(QString, otherValue);
    static const QString help = QString::fromUtf8(runCli({QStringLiteral("check"), QStringLiteral("--help")}).out);
    QVERIFY2(help.contains(QStringLiteral("%1=%2|%3").arg(name, defaultValue, otherValue)), qPrintable(help));
    const QString kernel = QStringLiteral(GCNLENS_TESTDATA_DIR "/checks/lanesel.s");
    auto valueWith = [&](const QStringList& extra) {
        const Run run = runCli(QStringList {QStringLiteral("check"), kernel, QStringLiteral("--json")} + extra);
        return QJsonDocument::fromJson(run.out).object().value(QStringLiteral("options")).toObject().value(name).toString();
    };
    static const QByteArray byDefault = runCli({QStringLiteral("check"), kernel, QStringLiteral("--json")}).out;
    QCOMPARE(QJsonDocument::fromJson(byDefault).object().value(QStringLiteral("options")).toObject().value(name).toString(),
             defaultValue);
    QCOMPARE(valueWith({QStringLiteral("--option"), name + QLatin1Char('=') + otherValue}), otherValue);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
