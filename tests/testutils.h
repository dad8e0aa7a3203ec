// SPDX-License-Identifier: MIT
// What the tests share: finding test data (QFINDTESTDATA's search: beside the test binary, in the
// working directory, then in the source tests/ folder, whose absolute path the build compiles in as
// GCNLENS_TESTS_DIR, so a test runs from any working directory) and reading it.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace gcnlens::test {

// Whether this build runs under AddressSanitizer (the asan/fuzz preset), where code runs several
// times slower: randomised sessions take fewer steps there, with the same checks on each.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// A file or folder under tests/ ("data/timing-gfx6.s", "data/frontend"); empty when not found.
inline QString testData(const char* relative)
{
    return QTest::qFindTestData(QString::fromUtf8(relative), __FILE__, __LINE__, nullptr, GCNLENS_TESTS_DIR);
}

// A path in the source tree ("resources/examples"): files the tests read but do not own.
inline QString sourcePath(const char* relative)
{
    return QStringLiteral(GCNLENS_SOURCE_DIR "/") + QString::fromUtf8(relative);
}

// The bundled example kernel.
inline QString exampleKernel()
{
    return sourcePath("resources/examples/saxpy-gfx6.s");
}

// A file's bytes, or an empty array when it cannot be read (the test's comparison then fails
// with the path in its message).
inline QByteArray readBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A UTF-8 text file.
inline QString readFile(const QString& path)
{
    return QString::fromUtf8(readBytes(path));
}

// One run of the built gcnlens-cli, as a user runs it. exitCode: -1 when it did not start or did not
// end within the time, -2 when a signal ended it (a test compares it with the status it expects).
struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
};

// `input` goes to its standard input; `stdoutFile`, when given, replaces the standard output pipe.
inline CliRun runCli(const QStringList& args, const QByteArray& input = {}, const QString& stdoutFile = {},
                     int timeoutMs = 120000)
{
    CliRun run;
    QProcess process;
    if (!stdoutFile.isEmpty())
        process.setStandardOutputFile(stdoutFile);
    process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), args);
    if (!process.waitForStarted())
        return run;
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs))
        return run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace gcnlens::test
