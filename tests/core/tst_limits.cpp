// SPDX-License-Identifier: MIT
// Bounded work and the include rule (issue #12): each limit crossed and each refused include is
// one error on the line that crosses it, naming the limit or the rule and how to lift it, in this
// process (assemble()) and through the worker (IsolatedFrontEnd), quickly.
#include "core/asm/isolated.h"

#include "testutils.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace gcnlens;

namespace {

void writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

QString errorsOf(const Program& p)
{
    QStringList out;
    for (const auto& d : p.diagnostics)
        if (d.severity == Severity::Error)
            out << QStringLiteral("%1: %2").arg(d.line).arg(QString::fromStdString(d.message));
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestLimits : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void limit_data();
    void limit();
    void cliOption_data();
    void cliOption();

private:
    QTemporaryDir dir_;
};

void TestLimits::initTestCase()
{
    QVERIFY(dir_.isValid());
    writeFile(dir_.filePath(QStringLiteral("src/inc.s")), "s_nop 7\n");
    writeFile(dir_.filePath(QStringLiteral("secret.s")), "s_nop 9\n");
    writeFile(dir_.filePath(QStringLiteral("src/blob.bin")), QByteArray(100, 'x'));
    writeFile(dir_.filePath(QStringLiteral("src/self.s")), "s_nop 1\n.include \"self.s\"\n"); // includes itself
}

void TestLimits::limit_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("setting"); // NAME=VALUE through AssembleLimits::set, or "any" (allowAnyInclude)
    QTest::addColumn<QString>("errors");  // "LINE: message" of every error, in order
    QTest::addColumn<int>("instructions");

    const QString over = QStringLiteral(" (raise with --limit instructions=N); it is not expanded");
    QTest::addRow(".rept 100000000") << QByteArray("s_nop 0\n.rept 100000000\ns_nop 0\n.endr\ns_endpgm\n") << QString()
                                     << QStringLiteral("2: `.rept 100000000` would produce about 100000000 statements, over "
                                                       "the limit of 4000000 instructions")
            + over << 2;
    QTest::addRow("nested .rept") << QByteArray(".rept 3000\n.rept 0x1000\ns_nop 0\ns_nop 1\n.endr\n.endr\n") << QString()
                                  << QStringLiteral("2: `.rept 0x1000` would produce about 24576000 statements, over the "
                                                    "limit of 4000000 instructions")
            + over << 0;
    QTest::addRow(".rept of a symbol") << QByteArray(".set N, 5000\n.rept N*N\ns_nop 0\n.endr\n") << QString()
                                       << QStringLiteral("2: `.rept N*N` would produce about 25000000 statements, over the "
                                                         "limit of 4000000 instructions")
            + over << 0;
    // The count and the directive as LLVM reads them: any expression, a label before it, a name
    // that ends where its identifier does (fuzz_frontend 1f32622f). Each ran unguarded before.
    const auto overLimit = [&over](const char* statement, const char* produced) {
        return QStringLiteral("1: `%1` would produce about %2 statements, over the limit of 4000000 instructions")
                   .arg(QLatin1String(statement), QLatin1String(produced))
            + over;
    };
    QTest::addRow(".rep+") << QByteArray(".rep+ 100000000\ns_nop 0\n.endr\n") << QString()
                           << overLimit(".rep+ 100000000", "100000000") << 0;
    QTest::addRow("label: .rept") << QByteArray("x: .rept 100000000\ns_nop 0\n.endr\n") << QString()
                                  << overLimit(".rept 100000000", "100000000") << 0;
    QTest::addRow(".rept(N)") << QByteArray(".REPT(100000000)\ns_nop 0\n.endr\n") << QString()
                              << overLimit(".REPT(100000000)", "100000000") << 0;
    QTest::addRow(".rept 1<<30") << QByteArray(".rept 1<<30\ns_nop 0\n.endr\n") << QString()
                                 << overLimit(".rept 1<<30", "1073741824") << 0;
    QTest::addRow(".rept (N+1)*N") << QByteArray(".set N, 1 << 12\n.rept (N+1)*N\ns_nop 0\n.endr\n") << QString()
                                   << QStringLiteral("2: `.rept (N+1)*N` would produce about 16781312 statements, over "
                                                     "the limit of 4000000 instructions")
            + over << 0;
    // The body runs to the first ".endr" in lower case (LLVM's body scan): 4 lines, not 1.
    QTest::addRow(".ENDR inside the body")
        << QByteArray(".rept 1000000\ns_nop 0\n.ENDR\ns_nop 1\ns_nop 2\n.endr\n") << QStringLiteral("instructions=3000000")
        << QStringLiteral("1: `.rept 1000000` would produce about 4000000 statements, over the limit of 3000000 "
                          "instructions (raise with --limit instructions=N); it is not expanded")
        << 0;
    // GNU as precedence: + below & below *; a comparison is -1 when true, which LLVM refuses as a count.
    QTest::addRow(".rept 2+3*4&7") << QByteArray(".rept 2+3*4&7\ns_nop 0\n.endr\n") << QString() << QString() << 6;
    QTest::addRow(".rept 1<2") << QByteArray(".rept 1<2\ns_nop 0\n.endr\n") << QString()
                               << QStringLiteral("1: Count is negative\n3: unmatched '.endr' directive") << 1;
    QTest::addRow(".rept under a raised limit")
        << QByteArray(".rept 300\ns_nop 0\n.endr\n") << QStringLiteral("instructions=300") << QString() << 300;
    QTest::addRow("instructions at run time")
        << QByteArray(".macro twice\ns_nop 0\ns_nop 0\n.endm\ntwice\ntwice\ntwice\ns_endpgm\n")
        << QStringLiteral("instructions=5")
        << QStringLiteral("7: the program passes the limit of 5 instructions and data entries here (raise with --limit "
                          "instructions=N); the rest is not analysed")
        << 5;
    QTest::addRow(".space 4000000000") << QByteArray(".text\ns_nop 0\n.space 4000000000\ns_endpgm\n") << QString()
                                       << QStringLiteral("3: 4000000000 bytes here pass the limit of 67108864 bytes (raise "
                                                         "with --limit bytes=N); the rest is not analysed")
                                       << 1;
    QTest::addRow(".fill count x size") << QByteArray(".text\n.fill 100000000, 8, 0\n") << QString()
                                        << QStringLiteral("2: 800000000 bytes here pass the limit of 67108864 bytes (raise "
                                                          "with --limit bytes=N); the rest is not analysed")
                                        << 0;
    QTest::addRow("bytes at run time") << QByteArray(".text\ns_nop 0\n.long 1, 2\ns_nop 0\n") << QStringLiteral("bytes=10")
                                       << QStringLiteral("3: the program passes the limit of 10 bytes here (raise with "
                                                         "--limit bytes=N); the rest is not analysed")
                                       << 2;
    QTest::addRow(".incbin a device") << QByteArray("s_nop 0\n.incbin \"/dev/zero\"\ns_nop 1\n") << QString()
                                      << QStringLiteral("2: .incbin \"/dev/zero\" is refused: not a regular file") << 2;
    QTest::addRow(".incbin a device, any include")
        << QByteArray(".incbin \"/dev/zero\"\n") << QStringLiteral("any")
        << QStringLiteral("1: .incbin \"/dev/zero\" is refused: not a regular file") << 0;
    QTest::addRow(".include outside") << QByteArray("s_nop 0\n  .include \"/etc/passwd\" // read it\n") << QString()
                                      << QStringLiteral("2: .include \"/etc/passwd\" is refused: outside the source's folder "
                                                        "and the include paths (allow with --allow-any-include)")
                                      << 1;
    QTest::addRow(".include escaping with ..")
        << QByteArray(".include \"../secret.s\"\n") << QString()
        << QStringLiteral("1: .include \"../secret.s\" is refused: outside the source's folder and the include paths (allow "
                          "with --allow-any-include)")
        << 0;
    QTest::addRow(".include escaping, allowed")
        << QByteArray(".include \"../secret.s\"\n") << QStringLiteral("any") << QString() << 1;
    QTest::addRow(".include beside") << QByteArray(".include \"inc.s\"\ns_nop 0\n") << QString() << QString() << 2;
    QTest::addRow("include depth")
        << QByteArray("s_nop 0\n.include \"self.s\"\n") << QStringLiteral("include-depth=3")
        << QStringLiteral("2: the includes here nest deeper than the limit of 3 (raise with --limit include-depth=N); the "
                          "rest is not analysed")
        << 4;
    QTest::addRow(".incbin over its limit")
        << QByteArray(".text\n.incbin \"blob.bin\"\n") << QStringLiteral("incbin-bytes=10")
        << QStringLiteral("2: .incbin \"blob.bin\" is refused: 100 bytes, over the limit of 10 (raise with --limit "
                          "incbin-bytes=N)")
        << 0;
    QTest::addRow(".incbin under its limit") << QByteArray(".text\n.incbin \"blob.bin\"\n") << QString() << QString() << 1;
}

void TestLimits::limit()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, setting);
    QFETCH(QString, errors);
    QFETCH(int, instructions);
    AssembleOptions options;
    options.fileName = dir_.filePath(QStringLiteral("src/kernel.s")).toStdString();
    options.includeDirs = {dir_.filePath(QStringLiteral("src")).toStdString()};
    if (setting == QLatin1String("any")) {
        options.allowAnyInclude = true;
    } else if (!setting.isEmpty()) {
        const auto eq = setting.indexOf(QLatin1Char('='));
        std::string error;
        QVERIFY2(options.limits.set(setting.left(eq).toStdString(), setting.mid(eq + 1).toStdString(), &error), error.c_str());
    }
    // In this process, then through the worker (which stops at the first limit and sends what it has).
    // (Only the worker can stop LLVM inside a recursive .include: in this process it would recurse on.)
    // A limit stops the work at once: within 1 s (5 s under the sanitizers, several times slower).
    const int bound = gcnlens::test::kSanitized ? 5000 : 1000;
    QElapsedTimer timer;
    if (!setting.startsWith(QLatin1String("include-depth"))) {
        timer.start();
        const Program here = assemble(source.toStdString(), options);
        QVERIFY2(timer.elapsed() < bound, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(errorsOf(here), errors);
        QCOMPARE(int(here.instructions.size()), instructions);
    }
    IsolatedFrontEnd frontEnd;
    timer.start();
    const Program& isolated = frontEnd.analyze(source.toStdString(), options);
    QCOMPARE(frontEnd.lastOutcome(), IsolatedFrontEnd::Outcome::Ok);
    QVERIFY2(timer.elapsed() < bound, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(errorsOf(isolated), errors);
    QCOMPARE(int(isolated.instructions.size()), instructions);
    for (const auto& inst : isolated.instructions)
        QVERIFY(inst.size > 0);
    // The worker serves the next request (a new one after it stopped at a limit).
    QCOMPARE(frontEnd.analyze("s_nop 0\n", {}).instructions.size(), std::size_t(1));
}

void TestLimits::cliOption_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message");
    QTest::addRow("raised") << QStringList {QStringLiteral("--limit"), QStringLiteral("instructions=300")} << 0 << QString();
    QTest::addRow("lowered") << QStringList {} << 1
                             << QStringLiteral("kernel.s:1:1: error: `.rept 300` would produce about 300 statements, over "
                                               "the limit of 100 instructions");
    QTest::addRow("unknown name") << QStringList {QStringLiteral("--limit"), QStringLiteral("frobs=3")} << 2
                                  << QStringLiteral("gcnlens-cli: listing: --limit 'frobs=3': unknown limit 'frobs' (known: "
                                                    "instructions, bytes, include-depth, incbin-bytes, time)");
    QTest::addRow("bad value") << QStringList {QStringLiteral("--limit"), QStringLiteral("time=-1")} << 2
                               << QStringLiteral("gcnlens-cli: listing: --limit 'time=-1': expected seconds, more than 0 and "
                                                 "at most 86400");
    QTest::addRow("no value") << QStringList {QStringLiteral("--limit"), QStringLiteral("bytes")} << 2
                              << QStringLiteral("gcnlens-cli: listing: --limit 'bytes': expected NAME=VALUE");
}

void TestLimits::cliOption()
{
    QFETCH(QStringList, args);
    QFETCH(int, status);
    QFETCH(QString, message);
    const QString path = dir_.filePath(QStringLiteral("src/kernel.s"));
    writeFile(path, ".rept 300\ns_nop 0\n.endr\n");
    // (the default limit is lowered so that the row runs fast; the message is the same shape)
    const gcnlens::test::CliRun run = gcnlens::test::runCli(
        QStringList {QStringLiteral("listing"), path, QStringLiteral("--limit"), QStringLiteral("instructions=100")} + args, {},
        {}, 30000);
    QCOMPARE(run.exitCode, status); // (-2: a signal, -1: no end within the time)
    const QString err = QString::fromLocal8Bit(run.err);
    QVERIFY2(message.isEmpty() ? err.isEmpty() : err.contains(message), qPrintable(err));
}

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
