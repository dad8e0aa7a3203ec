// SPDX-License-Identifier: MIT
// Bad inputs a user may paste or pass, through gcnlens-cli (issue #12): each ends with its exit
// status and its own message (naming the file and the line), never a signal or a hang.
#include "testutils.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QByteArray repeated(const QByteArray& line, int times)
{
    QByteArray out;
    for (int i = 0; i < times; ++i)
        out += line;
    return out;
}

QByteArray nested(const QByteArray& open, const QByteArray& close, int depth)
{
    return repeated(open, depth) + "s_nop 0\n" + repeated(close, depth);
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cli_data();
    void cli();
};

void TestBadInput::cli_data()
{
    QTest::addColumn<QByteArray>("content"); // written to FILE (case.s)
    QTest::addColumn<QStringList>("args");   // after the command; FILE stands for the file's path
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");    // a line of stderr; FILE stands for the path
    const QStringList listing {QStringLiteral("listing"), QStringLiteral("FILE")};
    const QStringList analyze {QStringLiteral("analyze"), QStringLiteral("FILE")};
    const auto with = [](QStringList args, std::initializer_list<const char*> more) {
        for (const char* m : more)
            args << QString::fromLatin1(m);
        return args;
    };

    QTest::addRow("garbage") << QByteArray("hello world, this is not a kernel\n") << analyze << 1
                             << "FILE:1:1: error: invalid instruction";
    QTest::addRow("binary") << QByteArray("\x7f" "ELF\x02\x01\x01\0\0\0", 10) << analyze << 2
                            << "gcnlens-cli: FILE: not a readable ELF file: The file was not recognized as a valid object file";
    QTest::addRow("NUL in text") << QByteArray("s_nop 0\n\0s_nop 1\n", 17) << listing << 2
                                 << "gcnlens-cli: FILE: binary data at byte 8 (NUL); gcnlens reads assembly source text";
    QTest::addRow("empty") << QByteArray() << analyze << 0
                           << "FILE:1:1: warning: nothing to analyse: the text has no instructions (it is empty, or only "
                              "comments and directives)";
    QTest::addRow("only comments") << QByteArray("; nothing\n// here\n") << analyze << 0
                                   << "FILE:1:1: warning: nothing to analyse: the text has no instructions (it is empty, or "
                                      "only comments and directives)";
    QTest::addRow("huge") << QByteArray(64 * 1024 * 1024 + 1, ' ') << analyze << 2
                          << "gcnlens-cli: FILE: 64 MiB is larger than the 64 MiB gcnlens reads";
    QTest::addRow("deep .if nesting") << nested(".if 1\n", ".endif\n", 500) << listing << 0 << QString();
    QTest::addRow("deep macro nesting") << QByteArray(".macro m\nm\n.endm\nm\n") << listing << 1
                                        << "FILE:4:1: error: macros cannot be nested more than 20 levels deep. Use "
                                           "-asm-macro-max-nesting-depth to increase this limit.";
    QTest::addRow("unterminated .macro") << QByteArray(".macro m\ns_nop 0\n") << listing << 1
                                         << "FILE:1:1: error: no matching '.endmacro' in definition";
    QTest::addRow("unterminated .rept") << QByteArray(".rept 3\ns_nop 0\n") << listing << 1
                                        << "FILE:1:1: error: no matching '.endr' in definition";
    QTest::addRow("stray .endr") << QByteArray("s_nop 0\n.endr\n") << listing << 1
                                 << "FILE:2:6: error: unmatched '.endr' directive";
    QTest::addRow("unterminated .if") << QByteArray(".if 1\ns_nop 0\n") << listing << 1
                                      << "FILE:3:1: error: unmatched .ifs or .elses";
    QTest::addRow("stray quote") << QByteArray("s_nop 0\ns_mov_b32 s0, \"\ns_endpgm\n") << listing << 1
                                 << "FILE:2:15: error: unknown token in expression"; // the quote reaches LLVM as '?' (LLVM 19 hangs on some)
    QTest::addRow("stray bracket") << QByteArray("v_mov_b32 v[1, v2\n") << listing << 1
                                   << "FILE:1:14: error: expected a closing square bracket";
    QTest::addRow("unknown mnemonic") << QByteArray("v_frobnicate_b32 v0, v1\n") << listing << 1
                                      << "FILE:1:1: error: invalid instruction";
    QTest::addRow("instruction the GPU lacks") << QByteArray("v_fma_mix_f32 v0, v1, v2, v3\n") << listing << 1
                                               << "FILE:1:1: error: instruction not supported on this GPU";
    QTest::addRow("wrong GPU name") << QByteArray("s_nop 0\n") << with(listing, {"--gpu", "gfx9999"}) << 2
                                    << "gcnlens-cli: listing: --gpu 'gfx9999': unknown GPU 'gfx9999': give a product preset (e.g. \"Radeon HD "
                                       "7970\") or an LLVM processor from tahiti to gfx906, gfx908, gfx90a or gfx942";
    QTest::addRow("missing include") << QByteArray(".include \"missing.inc\"\n") << listing << 1
                                     << "FILE:1:10: error: Could not find include file 'missing.inc'";
    QTest::addRow("include outside") << QByteArray(".include \"/etc/passwd\"\n") << listing << 1
                                     << "FILE:1:1: error: .include \"/etc/passwd\" is refused: outside the source's "
                                        "folder and the include paths (allow with --allow-any-include)";
    QTest::addRow("include escaping") << QByteArray(".include \"../outside.s\"\n") << listing << 1
                                      << "FILE:1:1: error: .include \"../outside.s\" is refused: outside the source's "
                                         "folder and the include paths (allow with --allow-any-include)";
    QTest::addRow("incbin a device") << QByteArray(".incbin \"/dev/zero\"\n") << listing << 1
                                     << "FILE:1:1: error: .incbin \"/dev/zero\" is refused: not a regular file";
    QTest::addRow("include itself") << QByteArray("s_nop 0\n.include \"case.s\"\n") << listing << 1
                                    << "FILE:2:1: error: the includes here nest deeper than the limit of 16 (raise with "
                                       "--limit include-depth=N); the rest is not analysed";
    QTest::addRow(".rept over the limit") << QByteArray(".rept 100000000\ns_nop 0\n.endr\n") << listing << 1
                                          << "FILE:1:1: error: `.rept 100000000` would produce about 100000000 "
                                             "statements, over the limit of 4000000 instructions (raise with --limit "
                                             "instructions=N); it is not expanded";
    QTest::addRow("recursive .rept") << nested(".rept 10\n", ".endr\n", 8) << listing << 1
                                     << "FILE:7:1: error: `.rept 10` would produce about 10000000 statements, over the "
                                        "limit of 4000000 instructions (raise with --limit instructions=N); it is not "
                                        "expanded";
    QTest::addRow("instructions limit") << repeated("s_nop 0\n", 5) << with(listing, {"--limit", "instructions=3"}) << 1
                                        << "FILE:4:1: error: the program passes the limit of 3 instructions and data "
                                           "entries here (raise with --limit instructions=N); the rest is not analysed";
    QTest::addRow(".space 4000000000") << QByteArray(".text\n.space 4000000000\n") << listing << 1
                                       << "FILE:2:1: error: 4000000000 bytes here pass the limit of 67108864 bytes (raise "
                                          "with --limit bytes=N); the rest is not analysed";
    QTest::addRow(".fill too much") << QByteArray(".text\n.fill 100000000, 8, 0\n") << listing << 1
                                    << "FILE:2:1: error: 800000000 bytes here pass the limit of 67108864 bytes (raise "
                                       "with --limit bytes=N); the rest is not analysed";
    QTest::addRow("time limit") << QByteArray("s_nop 0\n.set n, 1 << 30\n.rept n\ns_nop 0\n.endr\n")
                                << with(listing, {"--limit", "time=1"}) << 1
                                << "FILE:5:1: error: stopped after 1 s at line 5 (raise with --limit time=SECONDS)";
    QTest::addRow("LLVM crash") << QByteArray(".amdgpu_metadata\n*/\n.end_amdgpu_metadata\n")
                                << with(listing, {"--gpu", "gfx906"}) << 1
                                << "FILE:3:1: error: the assembler crashed (signal 11) at line 3; the text is kept, "
                                   "earlier results too";
    QTest::addRow("unknown limit") << QByteArray("s_nop 0\n") << with(listing, {"--limit", "frobs=1"}) << 2
                                   << "gcnlens-cli: listing: --limit 'frobs=1': unknown limit 'frobs' (known: "
                                      "instructions, bytes, include-depth, incbin-bytes, time)";
    QTest::addRow("BOM and CRLF") << QByteArray("\xef\xbb\xbfs_nop 0\r\ns_endpgm\r\n") << analyze << 0 << QString();
    QTest::addRow("Latin-1") << QByteArray("; caf\xe9\ns_nop 0\n") << listing << 0 << QString();
    QTest::addRow("missing file") << QByteArray() << QStringList {QStringLiteral("listing"), QStringLiteral("FILE.nope")} << 2
                                  << "gcnlens-cli: FILE.nope: no such file";
    QTest::addRow("a directory") << QByteArray() << QStringList {QStringLiteral("listing"), QStringLiteral("DIR")} << 2
                                 << "gcnlens-cli: DIR: is a directory, not a kernel source";
    QTest::addRow("unwritable report path")
        << QByteArray("s_nop 0\n")
        << QStringList {QStringLiteral("report"), QStringLiteral("FILE"), QStringLiteral("-o"), QStringLiteral("DIR/no/such/dir/r.pdf")}
        << 2 << "gcnlens-cli: report: cannot write DIR/no/such/dir/r.pdf: No such file or directory";
}

void TestBadInput::cli()
{
    QFETCH(QByteArray, content);
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("src")));
    const QString path = dir.filePath(QStringLiteral("src/case.s"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();
    QFile outside(dir.filePath(QStringLiteral("outside.s")));
    QVERIFY(outside.open(QIODevice::WriteOnly));
    outside.write("s_nop 0\n");
    outside.close();
    const auto place = [&](QString text) {
        return text.replace(QLatin1String("FILE"), path).replace(QLatin1String("DIR"), dir.path());
    };
    QStringList actual;
    for (const auto& arg : args)
        actual << place(arg);
    QElapsedTimer timer;
    timer.start();
    const gcnlens::test::CliRun run = gcnlens::test::runCli(actual, {}, {}, 30000);
    QVERIFY2(run.exitCode >= 0, "never a signal, never a hang");
    QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
    const QString err = QString::fromLocal8Bit(run.err);
    QCOMPARE(run.exitCode, status);
    if (message.isEmpty())
        QVERIFY2(!err.contains(QLatin1String("error")), qPrintable(err));
    else
        QVERIFY2(err.split(QLatin1Char('\n')).contains(place(message)), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
