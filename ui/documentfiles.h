// SPDX-License-Identifier: MIT
// The window's file handling that needs no window (issue #11 item 7): reading a file for the
// editor (the one loader's rules, chunk by chunk so that a big file keeps the window responsive;
// a code object becomes its read-only listing), writing the text back in the file's own encoding,
// and the recent-files list. MainWindow keeps what touches the editor (inserting in slices, the
// large-text rule, paste, recovery offers).
#pragma once

#include "core/asm/assembler.h"
#include "core/input/loader.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace gcnlens::ui {

// A file read for the editor.
struct LoadedText {
    QString text;
    qsizetype lines = 0;
    QString gpu;                // a code object's own target
    bool readOnly = false;      // a code object, shown as its generated listing
    input::SourceFormat format; // how the file was written: saved back the same way
};

namespace documentfiles {

// Reads `path` (at most maxSize bytes) into *out. `progress` (may be empty) gets the percentage
// read after each chunk, and 100 every 50 ms while the worker process disassembles a code object
// (within limits.seconds), and returns false to cancel. On failure *error names the file (native
// path) and the cause, as the window shows it; a cancel leaves *error empty.
bool read(const QString& path, qint64 maxSize, LoadedText* out, QString* error, const std::function<bool(int)>& progress = {},
          const AssembleLimits& limits = {});

// The editor's text in the bytes of `format` (core/input/loader.h encodeSource). Characters that
// Latin-1 cannot hold switch *format to UTF-8 rather than being lost.
QByteArray encode(const QString& text, input::SourceFormat* format);

// The recent-files list (QSettings "recentFiles", most recent first, absolute paths).
QStringList recentFiles();
void addRecentFile(const QString& path);
bool removeRecentFile(const QString& path); // false when it was not in the list
constexpr int kMaxRecentFiles = 10;

QString nativePath(const QString& path); // absolute, with the platform's separators

} // namespace documentfiles
} // namespace gcnlens::ui
