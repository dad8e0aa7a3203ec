// SPDX-License-Identifier: MIT
// Bad inputs a user may paste or pass, through gcnlens-cli (issue #12): each ends with its exit
// status and its own message (naming the file and the line), never a signal or a hang. The window
// part (offscreen, when the window is built): files that change or vanish while open, the limits
// set from the window and a runaway analysis cancelled, each with its message, no text lost.
#include "gcnlens-config.h"
#include "testutils.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#if GCNLENS_BADINPUT_WINDOW
#include "ui/analysisbridge.h"
#include "ui/editor/codeeditor.h"
#include "ui/fileoptions.h"
#include "ui/mainwindow.h"
#include "ui/recovery.h"

#include <QApplication>
#include <QMessageBox>
#include <QStandardPaths>
#include <QToolButton>
#endif

namespace {

// A runaway analysis: a .rept of 1 << 30 whose count comes from a macro's argument, which the
// guard cannot evaluate (it evaluates the counts it sees: tst_limits); LLVM builds its expansion
// as one string, until the clock or the user stops it.
const QByteArray kRunaway("s_nop 0\n.macro r n\n.rept \\n\ns_nop 0\n.endr\n.endm\nr 1 << 30\n");

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

// What the rows include beside case.s: two nested includes, a 4 KB binary and a folder.
bool writeSidecars(const QDir& dir)
{
    const std::pair<const char*, QByteArray> files[] = {
        {"inc1.inc", "s_nop 1\n.include \"inc2.inc\"\n"}, {"inc2.inc", "s_nop 2\n"}, {"blob.bin", QByteArray(4096, '\0')}};
    for (const auto& [name, bytes] : files) {
        QFile file(dir.filePath(QString::fromLatin1(name)));
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return false;
    }
    return dir.mkpath(QStringLiteral("adir"));
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cli_data();
    void cli();
#if GCNLENS_BADINPUT_WINDOW
    void initTestCase();
    void window_data();
    void window();
#endif
};

void TestBadInput::cli_data()
{
    QTest::addColumn<QByteArray>("content"); // written to FILE (case.s)
    QTest::addColumn<QStringList>("args");   // after the command; FILE stands for the file's path
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("message"); // a line of stderr; FILE stands for the path
    const QStringList listing {QStringLiteral("listing"), QStringLiteral("FILE")};
    const QStringList analyze {QStringLiteral("analyze"), QStringLiteral("FILE")};
    const auto with = [](QStringList args, std::initializer_list<const char*> more) {
        for (const char* m : more)
            args << QString::fromLatin1(m);
        return args;
    };

    QTest::addRow("garbage") << QByteArray("hello world, this is not a kernel\n") << analyze << 1
                             << "FILE:1:1: error: invalid instruction";
    QTest::addRow("binary") << QByteArray("\x7f"
                                          "ELF\x02\x01\x01\0\0\0",
                                          10)
                            << analyze << 2
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
    QTest::addRow("stray quote")
        << QByteArray("s_nop 0\ns_mov_b32 s0, \"\ns_endpgm\n") << listing << 1
        << "FILE:2:15: error: unknown token in expression"; // the quote reaches LLVM as '?' (LLVM 19 hangs on some)
    QTest::addRow("stray bracket") << QByteArray("v_mov_b32 v[1, v2\n") << listing << 1
                                   << "FILE:1:14: error: expected a closing square bracket";
    QTest::addRow("unknown mnemonic") << QByteArray("v_frobnicate_b32 v0, v1\n") << listing << 1
                                      << "FILE:1:1: error: invalid instruction";
    QTest::addRow("instruction the GPU lacks") << QByteArray("v_fma_mix_f32 v0, v1, v2, v3\n") << listing << 1
                                               << "FILE:1:1: error: instruction not supported on this GPU";
    QTest::addRow("wrong GPU name")
        << QByteArray("s_nop 0\n") << with(listing, {"--gpu", "gfx9999"}) << 2
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
    QTest::addRow("unreadable include (a folder)") << QByteArray(".include \"adir\"\n") << listing << 1
                                                   << "FILE:1:1: error: .include \"adir\" is refused: not a regular file";
    QTest::addRow("include-depth limit") << QByteArray("s_nop 0\n.include \"inc1.inc\"\n")
                                         << with(listing, {"--limit", "include-depth=1"}) << 1
                                         << "FILE:2:1: error: the includes here nest deeper than the limit of 1 (raise with "
                                            "--limit include-depth=N); the rest is not analysed";
    QTest::addRow("include-depth raised") << QByteArray("s_nop 0\n.include \"inc1.inc\"\n")
                                          << with(listing, {"--limit", "include-depth=2"}) << 0 << QString();
    QTest::addRow("incbin-bytes limit") << QByteArray(".text\n.incbin \"blob.bin\"\ns_nop 0\n")
                                        << with(listing, {"--limit", "incbin-bytes=1000"}) << 1
                                        << "FILE:2:1: error: .incbin \"blob.bin\" is refused: 4096 bytes, over the limit of "
                                           "1000 (raise with --limit incbin-bytes=N)";
    QTest::addRow("bytes limit") << QByteArray(".text\ns_nop 0\n.space 100\n") << with(listing, {"--limit", "bytes=64"}) << 1
                                 << "FILE:3:1: error: 100 bytes here pass the limit of 64 bytes (raise with --limit "
                                    "bytes=N); the rest is not analysed";
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
    QTest::addRow("time limit") << kRunaway << with(listing, {"--limit", "time=1"}) << 1
                                << "FILE:1:1: error: stopped after 1 s at line 1 (raise with --limit time=SECONDS)";
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
#if GCNLENS_HAVE_REPORT // the report needs the ui library (not in the asan preset's build)
    QTest::addRow("unwritable report path")
        << QByteArray("s_nop 0\n")
        << QStringList {QStringLiteral("report"), QStringLiteral("FILE"), QStringLiteral("-o"),
                        QStringLiteral("DIR/no/such/dir/r.pdf")}
        << 2 << "gcnlens-cli: report: cannot write DIR/no/such/dir/r.pdf: No such file or directory";
#endif
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
    QVERIFY(writeSidecars(QDir(dir.filePath(QStringLiteral("src")))));
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
    // Bounded: 10 s, or 30 under the sanitizers (several times slower; the deepest .rept row takes 2 s in the dev build).
    const int bound = gcnlens::test::kSanitized ? 30000 : 10000;
    // The CLI's own time limit (10 s) follows the bound, or a loaded machine stops the sanitized
    // run of the deepest .rept before it reaches the error the row expects. Rows that set a time
    // limit keep theirs.
    const bool assembles =
        !actual.isEmpty() && (actual.front() == QLatin1String("listing") || actual.front() == QLatin1String("analyze"));
    if (gcnlens::test::kSanitized && assembles && !actual.join(QLatin1Char(' ')).contains(QLatin1String("time=")))
        actual << QStringLiteral("--limit") << QStringLiteral("time=%1").arg(bound / 1000);
    const gcnlens::test::CliRun run = gcnlens::test::runCli(actual, {}, {}, 3 * bound);
    QVERIFY2(run.exitCode >= 0, "never a signal, never a hang");
    QVERIFY2(timer.elapsed() < bound, qPrintable(QString::number(timer.elapsed())));
    const QString err = QString::fromLocal8Bit(run.err);
    QCOMPARE(run.exitCode, status);
    if (message.isEmpty())
        QVERIFY2(!err.contains(QLatin1String("error")), qPrintable(err));
    else
        QVERIFY2(err.split(QLatin1Char('\n')).contains(place(message)), qPrintable(err));
}

#if GCNLENS_BADINPUT_WINDOW
void TestBadInput::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("gcnlens-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_badinput"));
    QSettings().clear();
}

void TestBadInput::window_data()
{
    QTest::addColumn<QByteArray>("content"); // the file opened
    QTest::addColumn<QString>("action");
    QTest::addColumn<QString>("message"); // in lastError() or a diagnostic; FILE stands for the path
    QTest::addColumn<QByteArray>("text"); // the editor's text afterwards
    QTest::addColumn<bool>("modified");
    const QByteArray kernel = "s_nop 0\ns_endpgm\n";
    const QByteArray other = "s_nop 1\ns_nop 2\ns_endpgm\n";
    QTest::addRow("file changes, unmodified: reload") << kernel << "rewrite yes" << QString() << other << false;
    QTest::addRow("file changes, unmodified: keep")
        << kernel << "rewrite no"
        << "FILE changed on disk; the editor keeps its text (unsaved)." << kernel << true;
    QTest::addRow("file changes, modified: keep typing")
        << kernel << "type rewrite no"
        << "FILE changed on disk; the editor keeps its text (unsaved)." << QByteArray("; typed\n") + kernel << true;
    QTest::addRow("file disappears") << kernel << "delete"
                                     << "FILE was deleted or moved away on disk.\nThe text is still in the editor, unsaved: "
                                        "save it to write the file again."
                                     << kernel << true;
    QTest::addRow("instructions limit from the window")
        << QByteArray("s_nop 0\ns_nop 0\ns_nop 0\ns_nop 0\ns_nop 0\n") << "limit instructions=3"
        << "the program passes the limit of 3 instructions and data entries here (raise with --limit instructions=N); the "
           "rest is not analysed"
        << QByteArray("s_nop 0\ns_nop 0\ns_nop 0\ns_nop 0\ns_nop 0\n") << false;
    QTest::addRow("bytes limit from the window") << QByteArray(".text\ns_nop 0\n.space 100\n") << "limit bytes=64"
                                                 << "100 bytes here pass the limit of 64 bytes (raise with --limit bytes=N)"
                                                 << QByteArray(".text\ns_nop 0\n.space 100\n") << false;
    QTest::addRow("include-depth limit from the window")
        << QByteArray("s_nop 0\n.include \"inc1.inc\"\n") << "limit include-depth=1"
        << "the includes here nest deeper than the limit of 1 (raise with --limit include-depth=N)"
        << QByteArray("s_nop 0\n.include \"inc1.inc\"\n") << false;
    QTest::addRow("incbin-bytes limit from the window")
        << QByteArray(".text\n.incbin \"blob.bin\"\ns_nop 0\n") << "limit incbin-bytes=1000"
        << ".incbin \"blob.bin\" is refused: 4096 bytes, over the limit of 1000 (raise with --limit incbin-bytes=N)"
        << QByteArray(".text\n.incbin \"blob.bin\"\ns_nop 0\n") << false;
    // Opened as they are: the window shows the CLI's message and keeps the text.
    const QByteArray crash = ".amdgpu_metadata\n*/\n.end_amdgpu_metadata\n";
    QTest::addRow("LLVM crash in the window") << crash << "open" << "the assembler crashed" << crash << false;
    QTest::addRow("unknown mnemonic in the window") << QByteArray("v_frobnicate_b32 v0, v1\n") << "open"
                                                    << "invalid instruction" << QByteArray("v_frobnicate_b32 v0, v1\n") << false;
    QTest::addRow("include outside in the window")
        << QByteArray(".include \"/etc/passwd\"\n") << "open"
        << ".include \"/etc/passwd\" is refused: outside the source's folder and the include paths (allow with "
           "--allow-any-include)"
        << QByteArray(".include \"/etc/passwd\"\n") << false;
    QTest::addRow(".rept over the limit in the window")
        << QByteArray(".rept 100000000\ns_nop 0\n.endr\n") << "open"
        << "`.rept 100000000` would produce about 100000000 statements, over the limit of 4000000 instructions"
        << QByteArray(".rept 100000000\ns_nop 0\n.endr\n") << false;
    QTest::addRow("time limit from the window")
        << kRunaway << "limit time=0.5" << "stopped after 0.5 s at line" << kRunaway << false;
    QTest::addRow("runaway analysis cancelled")
        << kRunaway << "cancel" << "the analysis was cancelled at line" << kRunaway << false;
}

void TestBadInput::window()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, action);
    QFETCH(QString, message);
    QFETCH(QByteArray, text);
    QFETCH(bool, modified);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("case.s"));
    const auto write = [&path](const QByteArray& bytes) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    QVERIFY(write(content));
    QVERIFY(writeSidecars(QDir(dir.path())));
    gcnlens::ui::MainWindow w;
    w.setRecoveryStore(std::make_unique<gcnlens::ui::RecoveryStore>(dir.filePath(QStringLiteral("recovery"))));
    w.bridge()->setDebounceInterval(0);
    w.show();
    if (action == QLatin1String("cancel")) { // only the user stops this one
        gcnlens::ui::FileOptions options;
        options.limits.seconds = 60;
        options.save(path);
    }
    QVERIFY(w.openFile(path));
    QString seen; // what the window said: its last error, a diagnostic of the analysis
    const auto answerNext = [&](QMessageBox::StandardButton button) {
        auto* timer = new QTimer(&w);
        connect(timer, &QTimer::timeout, timer, [timer, button] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); box && box->isVisible()) {
                box->button(button)->click();
                timer->deleteLater();
            }
        });
        timer->start(10);
    };
    const auto diagnostics = [&w] {
        QStringList all;
        if (const auto s = w.bridge()->current())
            for (const auto& d : s->analysis.program.diagnostics)
                all << QString::fromStdString(d.message);
        return all.join(QLatin1Char('\n'));
    };
    const QStringList steps = action.split(QLatin1Char(' '));
    if (steps.contains(QLatin1String("type"))) {
        QTextCursor cursor(w.editor()->document());
        cursor.insertText(QStringLiteral("; typed\n"));
    }
    if (steps.contains(QLatin1String("rewrite"))) {
        QTest::qWait(50); // a later modification time than the one read
        answerNext(steps.last() == QLatin1String("yes") ? QMessageBox::Yes : QMessageBox::No);
        QVERIFY(write("s_nop 1\ns_nop 2\ns_endpgm\n"));
        if (steps.last() == QLatin1String("yes"))
            QTRY_COMPARE_WITH_TIMEOUT(w.text().toUtf8(), text, 10000);
        else
            QTRY_VERIFY_WITH_TIMEOUT(!w.lastError().isEmpty(), 10000);
        seen = w.lastError();
    } else if (action == QLatin1String("delete")) {
        w.setQuiet(true); // the message goes to lastError() without a box
        QVERIFY(QFile::remove(path));
        QTRY_VERIFY_WITH_TIMEOUT(!w.lastError().isEmpty(), 10000);
        seen = w.lastError();
    } else if (steps.first() == QLatin1String("limit")) {
        const QString setting = steps.at(1);
        gcnlens::ui::FileOptions options = w.fileOptions();
        QVERIFY(options.limits.set(setting.section(QLatin1Char('='), 0, 0).toStdString(),
                                   setting.section(QLatin1Char('='), 1).toStdString(), nullptr));
        QVERIFY(w.setFileOptions(options));
        QCOMPARE(gcnlens::ui::FileOptions::load(path), options); // remembered for this file
        QTRY_VERIFY_WITH_TIMEOUT(diagnostics().contains(message), 20000);
        seen = diagnostics();
    } else if (action == QLatin1String("open")) {
        QTRY_VERIFY_WITH_TIMEOUT(diagnostics().contains(message), 20000);
        seen = diagnostics();
    } else if (action == QLatin1String("cancel")) {
        QCOMPARE(w.fileOptions().limits.seconds, 60.0);
        QTRY_VERIFY_WITH_TIMEOUT(w.cancelButton()->isVisible(), 20000); // after half a second of work
        w.cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(diagnostics().contains(message), 20000);
        QTRY_VERIFY(!w.cancelButton()->isVisible());
        seen = diagnostics();
    }
    if (!message.isEmpty())
        QVERIFY2(seen.contains(QString(message).replace(QLatin1String("FILE"), QDir::toNativeSeparators(path))),
                 qPrintable(seen));
    QCOMPARE(w.text().toUtf8(), text); // nothing typed is lost
    QCOMPARE(w.editor()->document()->isModified(), modified);
    w.editor()->document()->setModified(false);
}

QTEST_MAIN(TestBadInput)
#else
QTEST_GUILESS_MAIN(TestBadInput)
#endif
#include "tst_badinput.moc"
