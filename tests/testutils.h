// SPDX-License-Identifier: MIT
// What the tests share: finding test data (QFINDTESTDATA's search: beside the test binary, in the
// working directory, then in the source tests/ folder, whose absolute path the build compiles in as
// GCNLENS_TESTS_DIR, so a test runs from any working directory) and reading it.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTest>

namespace gcnlens::test {

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
inline QString exampleKernel() { return sourcePath("resources/examples/saxpy-gfx6.s"); }

// A file's bytes, or an empty array when it cannot be read (the test's comparison then fails
// with the path in its message).
inline QByteArray readBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A UTF-8 text file.
inline QString readFile(const QString& path) { return QString::fromUtf8(readBytes(path)); }

} // namespace gcnlens::test
