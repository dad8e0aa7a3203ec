// SPDX-License-Identifier: MIT
// The assembler options the window keeps per file (File > Assembler Options…): include paths,
// --defsym entries, the assembler's limits and "allow any include", as the CLI takes them from
// -I, --defsym, --limit and --allow-any-include. Kept in QSettings under files/<fileKey>/ (the
// dialect switch keeps its "dialect" key in the same group).
#pragma once

#include "core/asm/assembler.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace gcnlens::ui {

// The QSettings group name of a file under "files/" ("untitled" for a text without a file).
QString fileKey(const QString& path);

struct FileOptions {
    QStringList includeDirs;
    QStringList defsyms; // NAME=VALUE, as --defsym
    AssembleLimits limits;
    bool allowAnyInclude = false;

    static FileOptions load(const QString& path);
    void save(const QString& path) const;
    // Save As: the options follow the text to its new name, unless that name has its own.
    static void carryOver(const QString& from, const QString& to);

    // The first entry that is not valid, as a message naming it; empty when all are.
    QString validate() const;
    // Into the assembler's options: the file's own folder first, then the include paths.
    void applyTo(AssembleOptions& options, const QString& path) const;
    bool operator==(const FileOptions&) const = default;
};

// The dialog behind File > Assembler Options…: edits `options` and returns true on OK; stays open,
// naming the entry, while one is invalid.
bool editFileOptions(QWidget* parent, const QString& path, FileOptions& options);

} // namespace gcnlens::ui
