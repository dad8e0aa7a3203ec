// SPDX-License-Identifier: MIT
// Code objects for tests, made as users get them: test sources assembled with llvm-mc 19 (the
// build's own LLVM), their llvm-objdump listings, and clang offload bundles laid out as
// clang-offload-bundler writes them. Shared by the object reader's tests and the worker's.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QPair>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtDebug>

namespace gcnlens::test {

inline QString llvmTool(const char* name)
{
    return QFileInfo(QStringLiteral(GCNLENS_LLVM_MC)).absolutePath() + QLatin1Char('/') + QLatin1String(name);
}

// Runs a tool; its standard output, or empty (with the tool's complaint on the test log).
inline QByteArray runTool(const QString& program, const QStringList& arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitCode() != 0) {
        qWarning() << program << arguments << process.readAllStandardError();
        return {};
    }
    return process.readAllStandardOutput();
}

// Assembles a test source to a relocatable code object with llvm-mc; empty when it does not assemble.
inline QByteArray objectFor(const QString& source, const QString& mcpu, const QTemporaryDir& dir)
{
    const QString out = dir.filePath(QFileInfo(source).baseName() + QLatin1String(".o"));
    QFile::remove(out);
    runTool(QStringLiteral(GCNLENS_LLVM_MC),
            {QStringLiteral("-filetype=obj"), QStringLiteral("-triple=amdgcn-amd-amdhsa"), QLatin1String("-mcpu=") + mcpu, source,
             QStringLiteral("-o"), out});
    QFile file(out);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A clang offload bundle as clang-offload-bundler writes it (magic, count, entry table, payloads).
inline QByteArray bundle(const QList<QPair<QByteArray, QByteArray>>& entries)
{
    const auto le64 = [](quint64 v) {
        QByteArray out(8, '\0');
        for (int i = 0; i < 8; ++i)
            out[i] = char(v >> (8 * i));
        return out;
    };
    QByteArray header = "__CLANG_OFFLOAD_BUNDLE__" + le64(quint64(entries.size()));
    qsizetype tableSize = 0;
    for (const auto& [id, payload] : entries)
        tableSize += 24 + id.size();
    quint64 offset = quint64(header.size() + tableSize);
    QByteArray payloads;
    for (const auto& [id, payload] : entries) {
        header += le64(offset) + le64(quint64(payload.size())) + le64(quint64(id.size())) + id;
        offset += quint64(payload.size());
        payloads += payload;
    }
    return header + payloads;
}

} // namespace gcnlens::test
