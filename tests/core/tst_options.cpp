// SPDX-License-Identifier: MIT
// gcnlens-cli's option parser (app/cli/options.h, CLI11 underneath), in-process: each subcommand's
// usage errors (unknown options, bad values, missing arguments and values) with their message and
// exit status 2, and where the values of the shared groups land (attached and separate values,
// repeated options, "--", standard input). tst_cli runs the same through the binary.
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "core/analysis.h"
#include "core/model/timing.h"
#include "gcnlens-config.h"

#include <QtTest>

#include <iostream>
#include <sstream>

using namespace gcnlens;
using namespace gcnlens::cli;

namespace {

// What std::cerr received while it lived: printError's messages.
class CaptureStderr {
public:
    CaptureStderr()
        : saved_(std::cerr.rdbuf(buffer_.rdbuf()))
    {
    }
    ~CaptureStderr() { std::cerr.rdbuf(saved_); }
    QString text() const { return QString::fromStdString(buffer_.str()); }

private:
    std::ostringstream buffer_;
    std::streambuf* saved_;
};

// The message printError writes for a usage error of `command`.
QString usage(const char* command, const QString& message)
{
    return QStringLiteral("gcnlens-cli: %1: %2\n").arg(QLatin1String(command), message);
}

QStringList split(const char* line)
{
    return QString::fromUtf8(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// The command line as gcnlens-cli hands it on: its bytes (UTF-8 here).
Args toArgs(const QStringList& list)
{
    Args args;
    for (const QString& arg : list)
        args.push_back(arg.toStdString());
    return args;
}

QStringList toList(const std::vector<std::string>& strings)
{
    QStringList list;
    for (const std::string& s : strings)
        list << QString::fromStdString(s);
    return list;
}

} // namespace

class TestOptions : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void usageErrors_data();
    void usageErrors();
    void sourceValues_data();
    void sourceValues();
    void branchesAndTiming_data();
    void branchesAndTiming();
    void helpListsEveryOption_data();
    void helpListsEveryOption();
    void outputIsValidUtf8_data();
    void outputIsValidUtf8();
};

// Each subcommand, run as gcnlens-cli runs it, with a line it must refuse before doing any work.
void TestOptions::usageErrors_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");

    const QString unknown = QStringLiteral("unknown option '%1' (see `gcnlens-cli %2 --help`)");
    for (const char* command : {"listing", "analyze", "occupancy", "lds", "report", "check", "gpus"}) {
        const QString name = QLatin1String(command);
        QTest::addRow("%s unknown option", command)
            << name << QStringList {QStringLiteral("--frobnicate")} << unknown.arg(QStringLiteral("--frobnicate"), name);
        QTest::addRow("%s unknown option=value", command)
            << name << QStringList {QStringLiteral("--frob=1")} << unknown.arg(QStringLiteral("--frob=1"), name);
        QTest::addRow("%s unknown before a bad value", command)
            << name << split("--frob --gpu nope") << unknown.arg(QStringLiteral("--frob"), name);
        QTest::addRow("%s three dashes", command) << name << split("---x") << unknown.arg(QStringLiteral("---x"), name);
    }
    const QString unknownGpu = QStringLiteral("--gpu 'nope': unknown GPU 'nope': give a product preset (e.g. \"Radeon HD "
                                              "7970\") or an LLVM processor from tahiti to gfx906, gfx908, gfx90a or gfx942");
    for (const char* command : {"listing", "analyze", "occupancy", "report", "check"}) {
        const QString name = QLatin1String(command);
        QTest::addRow("%s bad --gpu", command) << name << split("--gpu nope") << unknownGpu;
        QTest::addRow("%s --gpu=bad", command) << name << split("--gpu=nope") << unknownGpu;
        QTest::addRow("%s --gpu without value", command)
            << name << split("--gpu") << QStringLiteral("--gpu needs a value (--gpu NAME)");
        QTest::addRow("%s --gpu before an option", command)
            << name << split("--gpu --json") << QStringLiteral("--gpu needs a value (--gpu NAME)");
        QTest::addRow("%s repeated --gpu, last bad", command) << name << split("--gpu fiji --gpu nope") << unknownGpu;
        QTest::addRow("%s --json=1", command) << name << split("--json=1") << QStringLiteral("--json takes no value");
    }
    const QString secondFile = QStringLiteral("unexpected argument 'b.s' (the input file is already 'a.s')");
    for (const char* command : {"listing", "analyze", "report", "check"}) {
        const QString name = QLatin1String(command);
        QTest::addRow("%s two files", command) << name << split("a.s b.s") << secondFile;
        QTest::addRow("%s two files across --", command) << name << split("a.s -- b.s") << secondFile;
        QTest::addRow("%s bad --defsym", command)
            << name << split("a.s --defsym X") << QStringLiteral("--defsym 'X': write NAME=VALUE with an integer VALUE");
        QTest::addRow("%s bad --input", command)
            << name << split("a.s --input elf")
            << QStringLiteral("--input 'elf': unknown kind (auto, llvm, clrx, binary, listing)");
        QTest::addRow("%s bad --binary-format", command)
            << name << split("a.s --binary-format=elf")
            << QStringLiteral("--binary-format 'elf': unknown format (amd, amdcl2, rocm, gallium, rawcode)");
        QTest::addRow("%s bad --driver-version", command)
            << name << split("a.s --driver-version x") << QStringLiteral("--driver-version 'x': not an integer");
        QTest::addRow("%s --limit without =", command)
            << name << split("a.s --limit time") << QStringLiteral("--limit 'time': expected NAME=VALUE");
        QTest::addRow("%s bad --triple", command)
            << name << split("a.s --triple x86_64")
            << QStringLiteral("--triple 'x86_64': gcnlens assembles for amdgcn triples only");
        QTest::addRow("%s -I at the end", command) << name << split("a.s -I") << QStringLiteral("-I needs a value (-I DIR)");
        QTest::addRow("%s --64bit=yes", command) << name << split("a.s --64bit=yes") << QStringLiteral("--64bit takes no value");
    }
    for (const char* command : {"listing", "analyze", "check"}) {
        QTest::addRow("%s no file", command) << QString::fromLatin1(command) << QStringList()
                                             << QStringLiteral("no input file given (FILE, or - for standard input)");
        QTest::addRow("%s -- only", command) << QString::fromLatin1(command) << split("--")
                                             << QStringLiteral("no input file given (FILE, or - for standard input)");
    }
    for (const char* command : {"analyze", "report"}) {
        QTest::addRow("%s --taken 0", command) << QString::fromLatin1(command) << split("a.s --taken 0")
                                               << QStringLiteral("--taken '0': needs a source line number");
        QTest::addRow("%s --not-taken=x", command) << QString::fromLatin1(command) << split("a.s --not-taken=x")
                                                   << QStringLiteral("--not-taken 'x': needs a source line number");
    }
    for (const char* command : {"analyze", "report", "check"})
        QTest::addRow("%s bad --option", command)
            << QString::fromLatin1(command) << split("a.s --option nope") << QStringLiteral("--option 'nope': write NAME=VALUE");
    for (const char* command : {"occupancy", "lds"})
        QTest::addRow("%s unknown --option name", command)
            << QString::fromLatin1(command) << split("--option nope=1")
            << QStringLiteral("--option 'nope=1': %1").arg(QString::fromStdString(TimingOptions().set("nope", "1")));
    QTest::addRow("listing refuses --option") << QStringLiteral("listing") << split("a.s --option x=1")
                                              << QStringLiteral("--option: belongs to analyze (the listing has no timing)");
    QTest::addRow("occupancy required") << QStringLiteral("occupancy") << split("--vgprs 10")
                                        << QStringLiteral("--sgprs N is required");
    QTest::addRow("occupancy bad integer") << QStringLiteral("occupancy") << split("--vgprs ten --sgprs 10")
                                           << QStringLiteral("--vgprs 'ten': not an integer");
    QTest::addRow("occupancy negative value is a value")
        << QStringLiteral("occupancy") << split("--vgprs -5") << QStringLiteral("--sgprs N is required");
    QTest::addRow("occupancy takes no file") << QStringLiteral("occupancy") << split("k.s")
                                             << QStringLiteral("unexpected argument 'k.s' (occupancy takes no input file)");
    QTest::addRow("lds required") << QStringLiteral("lds") << split("--width 8") << QStringLiteral("--pattern EXPR is required");
    QTest::addRow("lds --set without =") << QStringLiteral("lds") << split("--pattern lane --set S")
                                         << QStringLiteral("--set 'S': write NAME=INTEGER");
    QTest::addRow("lds alias named as typed")
        << QStringLiteral("lds") << split("--pattern lane --op") << QStringLiteral("--op needs a value (--op BYTES|NAME)");
    QTest::addRow("report required") << QStringLiteral("report") << split("a.s") << QStringLiteral("-o OUT.pdf is required");
    QTest::addRow("report -o as --output") << QStringLiteral("report") << split("a.s --output")
                                           << QStringLiteral("--output needs a value (--output OUT.pdf)");
    QTest::addRow("report bad --page") << QStringLiteral("report") << split("a.s -o x.pdf --page b5")
                                       << QStringLiteral("--page 'b5': takes a4 or letter");
    QTest::addRow("report refuses --json") << QStringLiteral("report") << split("a.s -o x.pdf --json")
                                           << QStringLiteral("--json: does not apply; the report is a PDF (use analyze --json)");
    QTest::addRow("report bad panel value") << QStringLiteral("report") << split("a.s -o x.pdf --vgprs -1")
                                            << QStringLiteral("--vgprs '-1': takes a whole number");
    QTest::addRow("gpus takes nothing") << QStringLiteral("gpus") << split("x")
                                        << QStringLiteral("unexpected argument 'x' (gpus takes no input file)");
}

void TestOptions::usageErrors()
{
    QFETCH(QString, command);
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CommandInfo* info = findCommand(command.toStdString());
    if (!info && !GCNLENS_HAVE_REPORT && command == QLatin1String("report"))
        QSKIP("built without the report (GCNLENS_BUILD_UI=OFF, as the asan preset builds)");
    QVERIFY(info);
    CaptureStderr captured;
    const int status = info->run(toArgs(args));
    QCOMPARE(captured.text(), usage(info->name, message));
    QCOMPARE(status, int(ExitUsage));
}

// The source group (addSource) as listing, analyze, report and check declare it: where each value lands.
void TestOptions::sourceValues_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QStringList>("includeDirs");
    QTest::addColumn<QStringList>("defsyms");
    QTest::addColumn<QString>("input");

    const QStringList none;
    const QString autoKind = QStringLiteral("auto");
    QTest::addRow("file only") << split("k.s") << QStringLiteral("k.s") << QString() << none << none << autoKind;
    QTest::addRow("standard input") << split("- --gpu fiji") << QStringLiteral("-") << QStringLiteral("fiji") << none << none
                                    << autoKind;
    QTest::addRow("--name=value") << split("--gpu=gfx906 k.s --input=clrx") << QStringLiteral("k.s") << QStringLiteral("gfx906")
                                  << none << none << QStringLiteral("clrx");
    QTest::addRow("-Ivalue and -I value in order")
        << split("-Ia k.s -I b -I=c") << QStringLiteral("k.s") << QString()
        << QStringList {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("=c")} << none << autoKind;
    QTest::addRow("repeated --defsym in order")
        << split("--defsym B=2 k.s --defsym=A=-1") << QStringLiteral("k.s") << QString() << none
        << QStringList {QStringLiteral("B=2"), QStringLiteral("A=-1")} << autoKind;
    QTest::addRow("repeated --gpu: the last")
        << split("--gpu fiji k.s --gpu tahiti") << QStringLiteral("k.s") << QStringLiteral("tahiti") << none << none << autoKind;
    QTest::addRow("-- makes an option a file")
        << split("--gpu fiji -- --help") << QStringLiteral("--help") << QStringLiteral("fiji") << none << none << autoKind;
    QTest::addRow("-- then standard input") << split("-- -") << QStringLiteral("-") << QString() << none << none << autoKind;
    QTest::addRow("-- twice") << split("-- --") << QStringLiteral("--") << QString() << none << none << autoKind;
}

void TestOptions::sourceValues()
{
    QFETCH(QStringList, args);
    SourceArgs source;
    OptionParser parser("listing");
    parser.addSource(source);
    CaptureStderr captured;
    QVERIFY(!parser.parse(toArgs(args)));
    QCOMPARE(captured.text(), QString());
    QTEST(QString::fromStdString(source.file), "file");
    QTEST(QString::fromStdString(source.gpu), "gpu");
    QTEST(toList(source.includeDirs), "includeDirs");
    QStringList defsyms;
    for (const auto& [name, value] : source.defsyms)
        defsyms << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    QTEST(defsyms, "defsyms");
    QTEST(QString::fromStdString(source.input), "input");
}

// --taken/--not-taken (the last word on a line wins) and --option into TimingOptions.
void TestOptions::branchesAndTiming_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QList<int>>("taken");
    QTest::addColumn<QList<int>>("notTaken");
    QTest::addColumn<int>("ldsGroupDwords");

    const int defaultGroup = TimingOptions().ldsGroupDwords;
    QTest::addRow("none") << split("k.s") << QList<int>() << QList<int>() << defaultGroup;
    QTest::addRow("both forms") << split("k.s --taken 5 --not-taken=7") << QList<int> {5} << QList<int> {7} << defaultGroup;
    QTest::addRow("last wins") << split("k.s --taken 5 --not-taken 5") << QList<int>() << QList<int> {5} << defaultGroup;
    QTest::addRow("--option") << split("k.s --option lds-group=64") << QList<int>() << QList<int>() << 64;
    QTest::addRow("--option=") << split("--option=lds-group=16 k.s") << QList<int>() << QList<int>() << 16;
}

void TestOptions::branchesAndTiming()
{
    QFETCH(QStringList, args);
    SourceArgs source;
    TimingOptions timing;
    BranchOverrides branches;
    OptionParser parser("analyze");
    parser.addSource(source);
    parser.addTimingOptions(timing);
    parser.addBranchOverrides(branches);
    CaptureStderr captured;
    QVERIFY(!parser.parse(toArgs(args)));
    QCOMPARE(captured.text(), QString());
    QList<int> taken, notTaken;
    for (const auto& [line, direction] : branches.byLine)
        (direction == Direction::Taken ? taken : notTaken) << line;
    QTEST(taken, "taken");
    QTEST(notTaken, "notTaken");
    QTEST(timing.ldsGroupDwords, "ldsGroupDwords");
}

// --help names every option the group declares, and parse() answers it with 0 wherever it stands
// before "--", even after a mistake.
void TestOptions::helpListsEveryOption_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addRow("--help") << split("--help");
    QTest::addRow("-h after a bad value") << split("--gpu nope -h");
    QTest::addRow("after an unknown option") << split("--frob --help");
}

void TestOptions::helpListsEveryOption()
{
    QFETCH(QStringList, args);
    SourceArgs source;
    TimingOptions timing;
    BranchOverrides branches;
    bool json = false;
    OptionParser parser("analyze");
    parser.addSource(source);
    parser.addTimingOptions(timing);
    parser.addBranchOverrides(branches);
    parser.addJson(&json);
    const QString help = QString::fromStdString(parser.help());
    QVERIFY(help.startsWith(QStringLiteral("usage: gcnlens-cli analyze FILE")));
    for (const char* name : {"--gpu NAME", "-I DIR", "--defsym NAME=VALUE", "--input KIND", "--binary-format FORMAT", "--64bit",
                             "--driver-version N", "--limit NAME=VALUE", "--allow-any-include", "--triple TRIPLE",
                             "--option NAME=VALUE", "--taken LINE", "--not-taken LINE", "--json", "-h, --help"})
        QVERIFY2(help.contains(QLatin1String("  ") + QLatin1String(name) + QLatin1Char(' ')), name);
    CaptureStderr captured;
    QCOMPARE(parser.parse(toArgs(args)).value_or(-1), int(ExitOk));
    QCOMPARE(captured.text(), QString());
}

// What the commands print is valid UTF-8 (commands.h validUtf8): names from a code object may
// hold any bytes; each byte that starts no well-formed sequence becomes U+FFFD.
void TestOptions::outputIsValidUtf8_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("printed");
    const QByteArray replacement("\xef\xbf\xbd");
    QTest::addRow("ASCII") << QByteArray("v_add_f32 v0, v1, v2") << QByteArray("v_add_f32 v0, v1, v2");
    QTest::addRow("two to four bytes") << QByteArray("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")
                                       << QByteArray("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    QTest::addRow("a stray byte") << QByteArray("a\xffz") << QByteArray("a") + replacement + "z";
    QTest::addRow("a lone continuation") << QByteArray("\x80z") << replacement + "z";
    QTest::addRow("truncated at the end") << QByteArray("k\xe2\x82") << QByteArray("k") + replacement + replacement;
    QTest::addRow("overlong") << QByteArray("\xc0\xaf") << replacement + replacement;
    QTest::addRow("surrogate") << QByteArray("\xed\xa0\x80") << replacement + replacement + replacement;
    QTest::addRow("past U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << replacement + replacement + replacement + replacement;
}

void TestOptions::outputIsValidUtf8()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, printed);
    const std::string out = validUtf8(std::string_view(text.constData(), std::size_t(text.size())));
    QCOMPARE(QByteArray(out.data(), qsizetype(out.size())), printed);
}

QTEST_GUILESS_MAIN(TestOptions)
#include "tst_options.moc"
