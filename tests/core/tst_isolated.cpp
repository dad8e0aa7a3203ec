// SPDX-License-Identifier: MIT
// The assembler in a worker process (core/asm/isolated.h, issue #12): inputs that crash or hang
// LLVM's parser become one error on the line reached, the worker is restarted for the next
// request, a runaway run is stopped at the wall-clock limit or cancelled from another thread, and
// results through the worker equal assemble() in this process, the incremental path included.
// Code objects, offload bundles and listings are read there too: the same listing, program and
// diagnostics as in this process, and a fault while decoding (made on purpose with
// $GCNLENS_WORKER_FAULT) is one error naming the kernel and the word, through the CLI as well.
#include "core/asm/isolated.h"

#include "../bench/generatedkernel.h"
#include "codeobjects.h"
#include "core/input/listingreader.h"
#include "describeprogram.h"
#include "linechange.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <functional>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace gcnlens;
using Outcome = IsolatedFrontEnd::Outcome;

namespace {

// Found by hand and by mutating corpus kernels: each crashes or hangs llvm-mc 19 itself.
struct Trigger {
    const char* name;
    const char* source;
    int line; // where the error must be reported
};
const Trigger kCrashTriggers[] = {
    // issue #12: a stray comment end inside a metadata block (YAML node of unknown kind)
    {"metadata comment end", ".amdgpu_metadata\n*/\n.end_amdgpu_metadata\n", 3},
    {"metadata after code", ".text\ns_nop 0\ns_nop 1\n.amdgpu_metadata\n*/\n.end_amdgpu_metadata\n", 6},
};

QString cli()
{
    return QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli");
}

std::string_view view(const QByteArray& bytes)
{
    return {bytes.constData(), std::size_t(bytes.size())};
}

// What a test reads: the objects llvm-mc makes of tests/data/input's sources (the GPU in the
// name), the fuzz finding sdwa-sel7.o, offload bundles of them, and each object's llvm-objdump
// listing. Made once per run.
struct ReadInputs {
    struct Input {
        QString name;
        QByteArray bytes;
        QString gpu; // a listing's target, or a --gpu for an object (empty: its own)
        bool listing = false;
    };
    QTemporaryDir dir;
    QList<Input> inputs;
    QByteArray twoKernels; // two-kernels-gfx900.s's object, for the faults

    ReadInputs()
    {
        const QDir data(QStringLiteral(GCNLENS_TESTDATA_DIR "/input"));
        const QRegularExpression gpuInName(QStringLiteral("-(gfx[0-9a-f]+)$"));
        QList<QPair<QString, QString>> objects; // path, gpu
        for (const QFileInfo& source : data.entryInfoList({QStringLiteral("*.s")}, QDir::Files, QDir::Name)) {
            const auto match = gpuInName.match(source.completeBaseName());
            // (LLVM 19 no longer assembles code object v2 sources.)
            if (!match.hasMatch() || source.completeBaseName().startsWith(QStringLiteral("v2-")))
                continue;
            const QByteArray object = test::objectFor(source.absoluteFilePath(), match.captured(1), dir);
            QVERIFY2(!object.isEmpty(), qPrintable(source.fileName()));
            const QString path = dir.filePath(source.completeBaseName() + QStringLiteral(".o"));
            objects.append({path, match.captured(1)});
            inputs.append({source.completeBaseName(), object, {}, false});
            if (source.completeBaseName() == QStringLiteral("two-kernels-gfx900"))
                twoKernels = object;
        }
        const QByteArray sdwa = test::readBytes(data.filePath(QStringLiteral("sdwa-sel7.o")));
        inputs.append({QStringLiteral("sdwa-sel7"), sdwa, {}, false});
        // llvm-objdump 19 crashes on sdwa-sel7.o: its listing is the one gcnlens writes (the
        // window's), as for two kernels.
        for (const auto& [name, object] : {std::pair {"sdwa-sel7", sdwa}, std::pair {"two-kernels", twoKernels}})
            inputs.append({QLatin1String(name) + QStringLiteral(" gcnlens listing"),
                           QByteArray::fromStdString(input::readCodeObject(view(object), {}).listing), QStringLiteral("gfx900"),
                           true});
        for (const auto& [path, gpu] : objects)
            inputs.append({QFileInfo(path).completeBaseName() + QStringLiteral(" listing"),
                           test::runTool(test::llvmTool("llvm-objdump"), {QStringLiteral("-d"), path}), gpu, true});
        const QByteArray fat = test::bundle({{"host-x86_64-unknown-linux-gnu",
                                              QByteArray("\x7f"
                                                         "ELF host",
                                                         9)},
                                             {"hipv4-amdgcn-amd-amdhsa--gfx900", inputs[0].bytes},
                                             {"hipv4-amdgcn-amd-amdhsa--gfx90a", inputs[1].bytes}});
        inputs.append({QStringLiteral("bundle"), fat, {}, false});
        inputs.append({QStringLiteral("bundle, --gpu gfx90a"), fat, QStringLiteral("gfx90a"), false});
        inputs.append({QStringLiteral("object as gfx90a"), twoKernels, QStringLiteral("gfx90a"), false});
        inputs.append({QStringLiteral("truncated object"), twoKernels.left(100), {}, false});
    }
};

const ReadInputs& readInputs()
{
    static const ReadInputs made;
    return made;
}

} // namespace

class TestIsolated : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void crashBecomesError_data();
    void crashBecomesError();
    void crashThroughCli_data() { crashBecomesError_data(); }
    void crashThroughCli();
    void sameAsInProcess();
    void editsThroughTheWorker_data();
    void editsThroughTheWorker();
    void editNeedsTextAfterRestart();
    void editsAfterTakingTheProgram();
    void clrxThroughEdits();
    void timeLimit();
    void computedReptCount();
    void cancelFromAnotherThread();
    void workerKilledBetweenRequests();
    void missingWorker();
    void llvmFaults_data();
    void llvmFaults();
    void readsAsInProcess_data();
    void readsAsInProcess();
    void faultWhileDecoding_data();
    void faultWhileDecoding();
    void faultThroughCli_data();
    void faultThroughCli();
    void cliForksItsWorker();
    void carriesOnInChild();
    void llvmCrashWhileDecoding();
};

void TestIsolated::crashBecomesError_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<int>("line");
    for (const auto& trigger : kCrashTriggers)
        QTest::addRow("%s", trigger.name) << QByteArray(trigger.source) << trigger.line;
}

void TestIsolated::crashBecomesError()
{
    QFETCH(QByteArray, source);
    QFETCH(int, line);
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    options.gpu = "gfx906";
    const Program& crashed = frontEnd.analyze(source.toStdString(), options);
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Crashed);
    QCOMPARE(crashed.diagnostics.size(), std::size_t(1));
    const Diagnostic& d = crashed.diagnostics.front();
    QCOMPARE(d.severity, Severity::Error);
    QCOMPARE(d.line, line);
    QCOMPARE(QString::fromStdString(d.message),
             QStringLiteral("the assembler crashed (signal 11) at line %1; the text is kept, earlier results too").arg(line));
    QCOMPARE(crashed.gpu.processor, std::string("gfx906"));
    // The next request gets a new worker and a normal result.
    const Program& next = frontEnd.analyze("s_nop 0\ns_endpgm\n", options);
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
    QCOMPARE(next.instructions.size(), std::size_t(2));
    QCOMPARE(frontEnd.workerStarts(), 2);
}

void TestIsolated::crashThroughCli()
{
    QFETCH(QByteArray, source);
    QFETCH(int, line);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("pasted.s"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(source);
    file.close();
    for (const char* command : {"listing", "analyze"}) {
        QProcess process;
        process.start(cli(), {QString::fromLatin1(command), path, QStringLiteral("--gpu"), QStringLiteral("gfx906")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit); // never a signal
        QCOMPARE(process.exitCode(), 1);                      // the input had errors
        const QString err = QString::fromLocal8Bit(process.readAllStandardError());
        const QString want = QStringLiteral("%1:%2:1: error: the assembler crashed (signal 11) at line %2").arg(path).arg(line);
        QVERIFY2(err.contains(want), qPrintable(err));
    }
}

// gcnlens-cli, single-threaded, makes its worker a fork of itself (issue #18): a copy of the CLI
// with no gcnlens-asm-worker beside it still runs the assembler apart, so LLVM's crash is an
// error (run in-process, it would kill the CLI), and without "cannot start the assembler worker".
void TestIsolated::cliForksItsWorker()
{
    QTemporaryDir dir;
    const QString alone = dir.filePath(QStringLiteral("gcnlens-cli"));
    QVERIFY(QFile::copy(cli(), alone));
    QVERIFY(QFile::setPermissions(alone, QFile::permissions(cli())));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("gcnlens-asm-worker"))));
    const QString crashing = dir.filePath(QStringLiteral("crash.s"));
    const QString plain = dir.filePath(QStringLiteral("plain.s"));
    for (const auto& [path, text] : {std::pair {crashing, QByteArray(kCrashTriggers[0].source)},
                                     std::pair {plain, QByteArray("s_mov_b32 s0, 1\nv_add_f32 v0, v1, v2\ns_endpgm\n")}}) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
    auto run = [](const QString& program, const QString& file, QByteArray* err) {
        QProcess process;
        process.start(program, {QStringLiteral("listing"), file, QStringLiteral("--gpu"), QStringLiteral("gfx906")});
        process.waitForFinished(30000);
        *err = process.readAllStandardError();
        return std::tuple {process.exitStatus(), process.exitCode(), process.readAllStandardOutput()};
    };
    QByteArray err, errBeside;
    const auto [crashStatus, crashCode, crashOut] = run(alone, crashing, &err);
    QCOMPARE(crashStatus, QProcess::NormalExit);
    QCOMPARE(crashCode, 1);
    QVERIFY2(err.contains("error: the assembler crashed (signal 11) at line 3"), err.constData());
    QVERIFY2(!err.contains("cannot start"), err.constData());
    // A plain kernel: the same listing as the CLI with its worker program beside it.
    const auto [status, code, out] = run(alone, plain, &err);
    const auto [statusBeside, codeBeside, outBeside] = run(cli(), plain, &errBeside);
    QCOMPARE(code, 0);
    QVERIFY2(err.isEmpty(), err.constData());
    QCOMPARE(out, outBeside);
    QVERIFY(out.contains("v_add_f32"));
}

// carryOnInChild (the CLI, issue #18): assemble() forks, the child assembles and carries on with
// the caller's work, the first process waits and ends with the child's status. Each case runs in
// a fork of this test, single-threaded as the CLI is (the test may hold threads).
void TestIsolated::carriesOnInChild()
{
    AssembleOptions options;
    options.gpu = "gfx906";
    const std::string text = bench::generateKernel(2000);
    const QStringList want = test::describe(assemble(text, options));
    const auto inFork = [](const std::function<int()>& work) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            const rlimit noCore {0, 0}; // (the crash below is on purpose)
            ::setrlimit(RLIMIT_CORE, &noCore);
            IsolatedFrontEnd::carryOnInChild(true);
            ::_exit(work());
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        return status;
    };
    // Assembled: the same program in the child, nothing sent over a socket, and the first
    // process ends with the child's status.
    int status = inFork([&] {
        IsolatedFrontEnd frontEnd;
        const Program program = frontEnd.assemble(text, options);
        return frontEnd.lastOutcome() == Outcome::Ok && frontEnd.lastTransferBytes() == 0 && test::describe(program) == want ? 7
                                                                                                                             : 8;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 7);
    // LLVM crashes while assembling: assemble() returns the error in the first process, as from a
    // worker, and the caller's work goes on there.
    const Trigger& trigger = kCrashTriggers[0];
    status = inFork([&] {
        IsolatedFrontEnd frontEnd;
        const Program program = frontEnd.assemble(trigger.source, options);
        const std::string want = "the assembler crashed (signal 11) at line " + std::to_string(trigger.line);
        return frontEnd.lastOutcome() == Outcome::Crashed && program.diagnostics.size() == 1
                && program.diagnostics[0].message.starts_with(want) && frontEnd.workerStarts() == 1
            ? 9
            : 10;
    });
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 9);
    // A crash after assembling ends the first process by the same signal, as it would have ended
    // the caller without the fork.
    status = inFork([&] {
        IsolatedFrontEnd frontEnd;
        frontEnd.assemble(text, options);
        ::raise(SIGSEGV);
        return 11;
    });
    QVERIFY(WIFSIGNALED(status));
    QCOMPARE(WTERMSIG(status), SIGSEGV);
}

// Through the worker, fresh and after edits (the worker's FrontEnd splices), every field equals a
// fresh assemble() here.
void TestIsolated::sameAsInProcess()
{
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    std::string text = bench::generateKernel(2000);
    for (int edit = 0; edit < 6; ++edit) {
        if (edit > 0) {
            const auto at = text.find("v_add_f32 v", std::size_t(edit) * 997);
            QVERIFY(at != std::string::npos);
            text.replace(at, 9, edit % 2 ? "v_sub_f32" : "v_mul_f32");
            if (edit == 3)
                text.insert(at, "    s_nop 3\n");
        }
        const QStringList got = test::describe(frontEnd.analyze(text, options));
        QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
        const QStringList want = test::describe(assemble(text, options));
        QVERIFY2(got == want, qPrintable(test::firstDifference(got, want)));
    }
    QCOMPARE(frontEnd.workerStarts(), 1);
}

// Edits cross the socket as lines and come back as the worker's splice (issue #11 item 6): the
// program equals the in-process front-end's on the edited text, and a one-line edit moves a few hundred
// bytes, not the text or the program.
void TestIsolated::editsThroughTheWorker_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<bool>("small"); // spliced: the reply is the few lines, not the program
    QTest::addRow("operand") << "v_add_f32 v16, v1, v2" << "v_add_f32 v17, v1, v2" << true;
    QTest::addRow("other size") << "v_add_f32 v16, v1, v2" << "v_add_f32 v16, 0x12345678, v2" << true;
    QTest::addRow("line inserted") << "v_add_f32 v16, v1, v2" << "v_add_f32 v16, v1, v2\n    s_nop 3" << true;
    QTest::addRow("line removed") << "\n    v_add_f32 v16, v1, v2" << "" << true;
    QTest::addRow("typo") << "v_add_f32 v16, v1, v2" << "v_add_f32 v16, v1," << true;
    QTest::addRow("label added") << "v_add_f32 v16, v1, v2" << "extra:\n    v_add_f32 v16, v1, v2" << false;
    QTest::addRow("branch removed") << "s_cbranch_scc1 L12" << "s_nop 0" << true;
    QTest::addRow("label removed") << "L20:\n" << "" << false;
}

void TestIsolated::editsThroughTheWorker()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(bool, small);
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    const std::string text = bench::generateKernel(2000);
    frontEnd.analyze(text, options);
    std::string edited = text;
    const auto at = edited.find(from.toStdString(), text.size() / 3);
    QVERIFY(at != std::string::npos);
    edited.replace(at, std::size_t(from.toUtf8().size()), to.toStdString());
    const Program* p = frontEnd.edit(test::lineChange(text, edited), options);
    QVERIFY(p);
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
    // The in-process FrontEnd on the same edit (which equals a fresh run but for a half-typed
    // line keeping its size: tst_incremental).
    FrontEnd here;
    here.analyze(text, options);
    const QStringList got = test::describe(*p), want = test::describe(here.analyze(edited, options));
    QVERIFY2(got == want, qPrintable(test::firstDifference(got, want)));
    if (small)
        QVERIFY2(frontEnd.lastTransferBytes() < 2000, qPrintable(QString::number(frontEnd.lastTransferBytes())));
    // And back, as the next edit on the worker's text.
    p = frontEnd.edit(test::lineChange(edited, text), options);
    QVERIFY(p);
    QCOMPARE(test::describe(*p), test::describe(assemble(text, options)));
    QCOMPARE(frontEnd.workerStarts(), 1);
}

// The window's path (issue #18): the program is taken into the analysis, not copied, and given
// back as the next edit's base. The right base is spliced (a few hundred bytes cross the
// socket); a wrong one, or none, costs the whole program from the worker, never a wrong result.
void TestIsolated::editsAfterTakingTheProgram()
{
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    const std::string text = bench::generateKernel(2000);
    const auto edit = [&](const std::string& from, const std::string& a, const std::string& b) {
        std::string to = from;
        const auto at = to.find(a, to.size() / 3);
        to.replace(at, a.size(), b);
        return to;
    };
    const std::string second = edit(text, "v_add_f32 v16, v1, v2", "v_add_f32 v17, v1, v2");
    const std::string third = edit(second, "s_add_u32 s", "s_sub_u32 s");
    const std::string fourth = edit(third, "v_mul_f32 v", "v_sub_f32 v");
    QVERIFY(second != text && third != second && fourth != third);

    Program taken = frontEnd.takeProgram(frontEnd.analyze(text, options));
    QCOMPARE(test::describe(taken), test::describe(assemble(text, options)));
    const Program* p = frontEnd.edit(test::lineChange(text, second), options, &taken);
    QVERIFY(p);
    QCOMPARE(test::describe(*p), test::describe(assemble(second, options)));
    QVERIFY2(frontEnd.lastTransferBytes() < 2000, qPrintable(QString::number(frontEnd.lastTransferBytes())));

    taken = frontEnd.takeProgram(*p);
    const Program other = assemble(bench::generateKernel(500), options); // not what was taken
    p = frontEnd.edit(test::lineChange(second, third), options, &other);
    QVERIFY(p);
    QCOMPARE(test::describe(*p), test::describe(assemble(third, options)));
    QVERIFY2(frontEnd.lastTransferBytes() > 20000, qPrintable(QString::number(frontEnd.lastTransferBytes())));

    frontEnd.takeProgram(*p);
    p = frontEnd.edit(test::lineChange(third, fourth), options); // no base at all
    QVERIFY(p);
    QCOMPARE(test::describe(*p), test::describe(assemble(fourth, options)));
    QVERIFY2(frontEnd.lastTransferBytes() > 20000, qPrintable(QString::number(frontEnd.lastTransferBytes())));
    QCOMPARE(frontEnd.workerStarts(), 1);
}

// A new worker holds no text: an edit asks for the whole text rather than guess.
void TestIsolated::editNeedsTextAfterRestart()
{
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    const std::string text = "s_nop 0\ns_nop 1\ns_endpgm\n";
    QVERIFY(!frontEnd.edit(test::lineChange(text, "s_nop 2\ns_nop 1\ns_endpgm\n"), options)); // none sent yet
    frontEnd.analyze(text, options);
    QVERIFY(frontEnd.edit(test::lineChange(text, "s_nop 2\ns_nop 1\ns_endpgm\n"), options));
    QCOMPARE(::kill(pid_t(frontEnd.workerProcessId()), SIGKILL), 0);
    QTest::qWait(200);
    QVERIFY(!frontEnd.edit(test::lineChange("s_nop 2\ns_nop 1\ns_endpgm\n", text), options));
    QCOMPARE(frontEnd.analyze(text, options).instructions.size(), std::size_t(3));
    // An edit that does not fit the worker's text (a copy gone out of step) is refused too.
    LineChange wrong = test::lineChange(text, "s_nop 2\ns_nop 1\ns_endpgm\n");
    wrong.linesAfter = 9;
    QVERIFY(!frontEnd.edit(wrong, options));
    QCOMPARE(frontEnd.analyze(text, options).instructions.size(), std::size_t(3));
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
    // After several whole texts, edits apply to the last one.
    const Program* edited = frontEnd.edit(test::lineChange(text, "s_nop 2\ns_nop 1\ns_endpgm\n"), options);
    QVERIFY(edited);
    QCOMPARE(edited->instructions.at(0).operands, std::string("2"));
}

// A CLRX source (issue #13) edited line by line through the worker: each edit is a full run of
// the translation there (a CLRX line may hold several statements), the result as a fresh one.
void TestIsolated::clrxThroughEdits()
{
    QFile file(QStringLiteral(GCNLENS_TESTDATA_DIR "/clrx/vadd.clrx"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string text = file.readAll().toStdString();
    AssembleOptions options;
    options.gpuFromSource = true;
    options.includeDirs = {GCNLENS_TESTDATA_DIR "/clrx"};
    IsolatedFrontEnd frontEnd;
    frontEnd.analyze(text, options);
    std::string edited = text;
    const auto at = edited.find("v_lshlrev_b32 gid, 2, gid");
    QVERIFY(at != std::string::npos);
    edited.replace(at, 25, "v_lshlrev_b32 gid, 3, gid ; s_nop 0");
    for (const auto& [from, to] : {std::pair {text, edited}, std::pair {edited, text}}) {
        const Program* p = frontEnd.edit(test::lineChange(from, to), options);
        QVERIFY(p);
        QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
        QVERIFY(!p->instructions.empty());
        const QStringList got = test::describe(*p), want = test::describe(assemble(to, options));
        QVERIFY2(got == want, qPrintable(test::firstDifference(got, want)));
    }
}

void TestIsolated::timeLimit()
{
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    options.limits.seconds = 0.5;
    options.limits.instructions = 1'000'000'000; // only the clock stops this one
    options.limits.bytes = 1ull << 40;
    const auto start = std::chrono::steady_clock::now();
    const Program& p = frontEnd.analyze("s_nop 0\ns_nop 0\n.rept 100000000\ns_nop 0\n.endr\n", options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QCOMPARE(frontEnd.lastOutcome(), Outcome::TimedOut);
    QVERIFY2(seconds < 2.5, qPrintable(QString::number(seconds)));
    QCOMPARE(p.diagnostics.size(), std::size_t(1));
    const int line = p.diagnostics.front().line;
    QVERIFY2(line >= 2 && line <= 5, qPrintable(QString::number(line)));
    QCOMPARE(QString::fromStdString(p.diagnostics.front().message),
             QStringLiteral("stopped after 0.5 s at line %1 (raise with --limit time=SECONDS)").arg(line));
    QCOMPARE(frontEnd.analyze("s_nop 0\n", {}).instructions.size(), std::size_t(1));
}

// Found by mutating a MIOpen kernel (an unterminated .macro): a .rept whose count is computed
// (here 1 << 30), which LLVM expands as one string before parsing it. The guard evaluates counts
// it can see (tst_limits); one that comes from a macro's argument it cannot know, and the worker's
// clock stops it.
void TestIsolated::computedReptCount()
{
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    options.limits.seconds = 1;
    const Program& p = frontEnd.analyze("s_nop 0\n.macro r n\n.rept \\n\ns_nop 0\n.endr\n.endm\nr 1 << 30\n", options);
    QCOMPARE(frontEnd.lastOutcome(), Outcome::TimedOut);
    QCOMPARE(p.diagnostics.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(p.diagnostics.front().message),
             QStringLiteral("stopped after 1 s at line %1 (raise with --limit time=SECONDS)").arg(p.diagnostics.front().line));
    QVERIFY2(p.diagnostics.front().line >= 1 && p.diagnostics.front().line <= 7,
             qPrintable(QString::number(p.diagnostics.front().line)));
}

void TestIsolated::cancelFromAnotherThread()
{
    IsolatedFrontEnd frontEnd;
    frontEnd.cancel(); // idle: no effect on the next job
    QCOMPARE(frontEnd.analyze("s_nop 0\n", {}).instructions.size(), std::size_t(1));
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
    AssembleOptions options;
    options.limits.instructions = 1'000'000'000;
    options.limits.bytes = 1ull << 40;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        frontEnd.cancel();
    });
    const auto start = std::chrono::steady_clock::now();
    const Program& p = frontEnd.analyze(".rept 100000000\ns_nop 0\n.endr\n", options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    canceller.join();
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Cancelled);
    QVERIFY2(seconds < 2, qPrintable(QString::number(seconds)));
    QVERIFY(QString::fromStdString(p.diagnostics.at(0).message).startsWith(QStringLiteral("the analysis was cancelled")));
    QCOMPARE(frontEnd.analyze("s_nop 0\ns_nop 1\n", {}).instructions.size(), std::size_t(2));
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
}

// A worker killed between requests (by the user, the OOM killer) is replaced without an error.
void TestIsolated::workerKilledBetweenRequests()
{
    IsolatedFrontEnd frontEnd;
    QCOMPARE(frontEnd.analyze("s_nop 0\n", {}).instructions.size(), std::size_t(1));
    QVERIFY(frontEnd.workerProcessId() > 0);
    QCOMPARE(::kill(pid_t(frontEnd.workerProcessId()), SIGKILL), 0);
    QTest::qWait(200);
    QCOMPARE(frontEnd.analyze("s_nop 0\ns_nop 1\n", {}).instructions.size(), std::size_t(2));
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
    QCOMPARE(frontEnd.workerStarts(), 2);
}

void TestIsolated::missingWorker()
{
    IsolatedFrontEnd frontEnd(GCNLENS_BIN_DIR "/no-such-worker");
    const Program& p = frontEnd.analyze("s_nop 0\n", {});
    QCOMPARE(frontEnd.lastOutcome(), Outcome::InProcess);
    QCOMPARE(p.instructions.size(), std::size_t(1));
}

// Every fault fuzzing found inside LLVM (tests/fuzz/llvm-faults, the minimised texts; llvm-mc 19
// crashes or hangs on each) ends as a result or one clear error on a line, and the worker serves
// the next request.
void TestIsolated::llvmFaults_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(QStringLiteral(GCNLENS_SOURCE_DIR "/tests/fuzz/llvm-faults"));
    const auto files = dir.entryInfoList({QStringLiteral("*.s")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 4);
    for (const QFileInfo& file : files)
        QTest::addRow("%s", qPrintable(file.completeBaseName())) << file.absoluteFilePath();
}

void TestIsolated::llvmFaults()
{
    QFETCH(QString, path);
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string text = file.readAll().toStdString();
    IsolatedFrontEnd frontEnd;
    AssembleOptions options;
    options.limits.seconds = 2;
    const Program& p = frontEnd.analyze(text, options);
    const Outcome outcome = frontEnd.lastOutcome();
    QVERIFY2(outcome == Outcome::Ok || outcome == Outcome::Crashed || outcome == Outcome::TimedOut,
             qPrintable(QString::number(int(outcome))));
    if (outcome != Outcome::Ok) {
        QCOMPARE(p.diagnostics.size(), std::size_t(1));
        const QString message = QString::fromStdString(p.diagnostics.front().message);
        QVERIFY2(message.startsWith(QStringLiteral("the assembler crashed"))
                     || message.startsWith(QStringLiteral("stopped after 2 s at line")),
                 qPrintable(message));
        QVERIFY(p.diagnostics.front().line >= 1);
    }
    QCOMPARE(frontEnd.analyze("s_nop 0\n", {}).instructions.size(), std::size_t(1));
    QCOMPARE(frontEnd.lastOutcome(), Outcome::Ok);
}

// Code objects, bundles and listings read in the worker give what they give in this process:
// the same listing text, error, program and diagnostics; the worker then still assembles.
void TestIsolated::readsAsInProcess_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<bool>("listing");
    const auto& made = readInputs();
    QVERIFY(made.inputs.size() >= 12); // three objects and sdwa-sel7.o, their listings, bundles
    for (const auto& input : made.inputs) {
        QVERIFY2(!input.bytes.isEmpty(), qPrintable(input.name));
        QTest::addRow("%s", qPrintable(input.name)) << input.bytes << input.gpu << input.listing;
    }
}

void TestIsolated::readsAsInProcess()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, gpu);
    QFETCH(bool, listing);
    IsolatedFrontEnd worker;
    if (listing) {
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        const Program got = worker.readListing(view(bytes), options);
        QCOMPARE(worker.lastOutcome(), Outcome::Ok);
        const Program want = input::readListing(view(bytes), options);
        QVERIFY(!want.instructions.empty());
        const QStringList a = test::describe(got), b = test::describe(want);
        QVERIFY2(a == b, qPrintable(test::firstDifference(a, b)));
    } else {
        input::ObjectReadOptions options;
        options.gpu = gpu.toStdString();
        options.fileName = "kernel.o";
        const input::ObjectListing got = worker.readCodeObject(view(bytes), options);
        QCOMPARE(worker.lastOutcome(), Outcome::Ok);
        const input::ObjectListing want = input::readCodeObject(view(bytes), options);
        QCOMPARE(got.error, want.error);
        QCOMPARE(got.listing, want.listing);
        const QStringList a = test::describe(got.program), b = test::describe(want.program);
        QVERIFY2(a == b, qPrintable(test::firstDifference(a, b)));
    }
    QCOMPARE(worker.analyze("s_nop 0\ns_endpgm\n", {}).instructions.size(), std::size_t(2));
    QCOMPARE(worker.workerStarts(), 1);
}

// A crash, an abort or a hang of the worker while it decodes one word of the second kernel of
// an object (or of its listing) is one error naming that kernel, the word's offset and address
// (and the listing's line); cancel() from another thread ends a hang; the next read is normal.
void TestIsolated::faultWhileDecoding_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<bool>("listing");
    QTest::addColumn<bool>("cancel");
    QTest::addColumn<QString>("what"); // the message before the position; %1: the limit
    for (const bool listing : {false, true}) {
        const char* kind = listing ? "listing" : "object";
        QTest::addRow("%s, crash", kind) << QByteArray("crash") << listing << false
                                         << QStringLiteral("the disassembler crashed (signal 11)");
        QTest::addRow("%s, abort", kind) << QByteArray("abort") << listing << false
                                         << QStringLiteral("the disassembler crashed (signal 6)");
        QTest::addRow("%s, hang", kind) << QByteArray("hang") << listing << false << QStringLiteral("stopped after 0.5 s");
        QTest::addRow("%s, hang cancelled", kind)
            << QByteArray("hang") << listing << true << QStringLiteral("the reading was cancelled");
    }
}

void TestIsolated::faultWhileDecoding()
{
    QFETCH(QByteArray, fault);
    QFETCH(bool, listing);
    QFETCH(bool, cancel);
    QFETCH(QString, what);
    const QByteArray& object = readInputs().twoKernels;
    QVERIFY(!object.isEmpty());
    const input::ObjectListing here = input::readCodeObject(view(object), {});
    QCOMPARE(here.program.kernels.size(), std::size_t(2));
    // The third word of the second kernel (a relocatable object: addresses from 0, one section).
    const Kernel& second = here.program.kernels[1];
    const Instruction& word = here.program.instructions.at(std::size_t(second.firstInstruction + 2));
    const std::uint64_t address = here.program.sectionOffset(word);
    QString expected =
        QStringLiteral("%1 while decoding %2 at offset 0x%3, address 0x%4")
            .arg(what, QString::fromStdString(second.name), QString::number(word.offset, 16), QString::number(address, 16));
    if (fault == "hang" && !cancel)
        expected += QStringLiteral(" (raise with --limit time=SECONDS)");
    const QByteArray listingText =
        listing ? QByteArray::fromStdString(here.listing) : QByteArray(); // gcnlens' own listing of the object
    AssembleOptions options;
    options.gpu = "gfx900";
    options.limits.seconds = cancel ? 30 : 0.5;
    int line = 0;
    if (listing) {
        const Program read = input::readListing(view(listingText), options);
        for (const auto& inst : read.instructions)
            if (read.sectionOffset(inst) == address && !inst.isData)
                line = inst.line;
        QVERIFY(line > 0);
        expected += QStringLiteral(" on line %1; the text is kept, earlier results too").arg(line);
    }

    qputenv("GCNLENS_WORKER_FAULT", QByteArray(fault + "@" + QByteArray::number(qulonglong(address))));
    IsolatedFrontEnd worker;
    worker.analyze("s_nop 0\n", {}); // the worker starts with the fault armed
    qunsetenv("GCNLENS_WORKER_FAULT");
    std::thread canceller;
    if (cancel)
        canceller = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            worker.cancel();
        });
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    int reportedLine = -1;
    if (listing) {
        const Program p = worker.readListing(view(listingText), options);
        QCOMPARE(p.diagnostics.size(), std::size_t(1));
        message = p.diagnostics.front().message;
        reportedLine = p.diagnostics.front().line;
        QCOMPARE(p.gpu.processor, std::string("gfx900"));
    } else {
        input::ObjectReadOptions objectOptions;
        const input::ObjectListing read = worker.readCodeObject(view(object), objectOptions, options.limits);
        QVERIFY(read.listing.empty());
        message = read.error;
        reportedLine = read.program.diagnostics.at(0).line;
    }
    if (canceller.joinable())
        canceller.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    QVERIFY2(seconds < 3, qPrintable(QString::number(seconds)));
    QCOMPARE(QString::fromStdString(message), expected);
    QCOMPARE(reportedLine, line);
    QCOMPARE(worker.lastOutcome(), fault == "hang" ? (cancel ? Outcome::Cancelled : Outcome::TimedOut) : Outcome::Crashed);
    // A new worker (without the fault) reads the object normally.
    const input::ObjectListing again = worker.readCodeObject(view(object), {});
    QCOMPARE(worker.lastOutcome(), Outcome::Ok);
    QCOMPARE(again.listing, here.listing);
    QCOMPARE(worker.workerStarts(), 2);
}

// The CLI on a code object (or its listing) whose decoding crashes or hangs the worker: one error
// naming the file and where, an exit status, never a signal.
void TestIsolated::faultThroughCli_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<bool>("listing");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("want"); // %1: the file, %2: the listing's line
    QTest::addRow("object, crash") << QByteArray("crash") << false << 2
                                   << QStringLiteral("gcnlens-cli: %1: the disassembler crashed (signal 11) while decoding");
    QTest::addRow("object, abort") << QByteArray("abort") << false << 2
                                   << QStringLiteral("gcnlens-cli: %1: the disassembler crashed (signal 6) while decoding");
    QTest::addRow("object, hang") << QByteArray("hang") << false << 2
                                  << QStringLiteral("gcnlens-cli: %1: stopped after 1 s while decoding");
    // Before any word is decoded (where LLVM's Object library asserts on some damaged files).
    QTest::addRow("object, crash reading") << QByteArray("crash-reading") << false << 2
                                           << QStringLiteral("gcnlens-cli: %1: the code object reader crashed (signal 11) "
                                                             "while reading the ELF file");
    QTest::addRow("listing, crash") << QByteArray("crash") << true << 1
                                    << QStringLiteral("%1:%2:1: error: the disassembler crashed (signal 11) while decoding");
    QTest::addRow("listing, hang") << QByteArray("hang") << true << 1
                                   << QStringLiteral("%1:%2:1: error: stopped after 1 s while decoding");
}

void TestIsolated::faultThroughCli()
{
    QFETCH(QByteArray, fault);
    QFETCH(bool, listing);
    QFETCH(int, status);
    QFETCH(QString, want);
    const QByteArray& object = readInputs().twoKernels;
    QVERIFY(!object.isEmpty());
    const input::ObjectListing here = input::readCodeObject(view(object), {});
    QTemporaryDir dir;
    const QString path = dir.filePath(listing ? QStringLiteral("kernel.lst") : QStringLiteral("kernel.o"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(listing ? QByteArray::fromStdString(here.listing) : object);
    file.close();
    // The first word of the first kernel: the listing's line of it, for the message.
    const Instruction& first = here.program.instructions.front();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("GCNLENS_WORKER_FAULT"), QString::fromLatin1(fault));
    for (const char* command : {"listing", "analyze"}) {
        QProcess process;
        process.setProcessEnvironment(environment);
        process.start(cli(),
                      {QString::fromLatin1(command), path, QStringLiteral("--gpu"), QStringLiteral("gfx900"),
                       QStringLiteral("--limit"), QStringLiteral("time=1")});
        QVERIFY(process.waitForFinished(30000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit); // never a signal
        QCOMPARE(process.exitCode(), status);
        const QString err = QString::fromLocal8Bit(process.readAllStandardError());
        const QString message = listing ? want.arg(path).arg(first.line) : want.arg(path);
        QVERIFY2(err.contains(message), qPrintable(err));
        if (want.contains(QStringLiteral("while decoding")))
            QVERIFY2(err.contains(QStringLiteral("at offset 0x0, address 0x0")), qPrintable(err));
    }
}

// LLVM 19's own crash: the worker lets the SDWA word with a reserved select of sdwa-sel7.o reach
// the disassembler ("unguarded"), which dies on it. Through the API and the CLI: one error naming
// the word; without the fault the guard reads it as data and the listing is whole.
void TestIsolated::llvmCrashWhileDecoding()
{
    const QString path = QStringLiteral(GCNLENS_TESTDATA_DIR "/input/sdwa-sel7.o");
    const QByteArray object = test::readBytes(path);
    const input::ObjectListing here = input::readCodeObject(view(object), {});
    const auto word = std::find_if(here.program.instructions.begin(), here.program.instructions.end(),
                                   [](const Instruction& i) { return i.isData && i.operands == "0x000000f9"; });
    QVERIFY(word != here.program.instructions.end());
    const QString expected = QStringLiteral("the disassembler crashed (signal 11) while decoding the code at offset 0x%1")
                                 .arg(QString::number(word->offset, 16));
    qputenv("GCNLENS_WORKER_FAULT", "unguarded");
    IsolatedFrontEnd worker;
    const input::ObjectListing crashed = worker.readCodeObject(view(object), {});
    QCOMPARE(worker.lastOutcome(), Outcome::Crashed);
    QVERIFY2(QString::fromStdString(crashed.error).startsWith(expected), crashed.error.c_str());
    QProcess process;
    process.start(cli(), {QStringLiteral("listing"), path});
    QVERIFY(process.waitForFinished(30000));
    qunsetenv("GCNLENS_WORKER_FAULT");
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 2);
    const QString err = QString::fromLocal8Bit(process.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("gcnlens-cli: %1: %2").arg(path, expected)), qPrintable(err));
    const input::ObjectListing guarded = worker.readCodeObject(view(object), {});
    QCOMPARE(worker.lastOutcome(), Outcome::Ok);
    QCOMPARE(guarded.listing, here.listing);
}

QTEST_GUILESS_MAIN(TestIsolated)
#include "tst_isolated.moc"
