// SPDX-License-Identifier: MIT
#include "ui/documentfiles.h"

#include "core/asm/isolated.h"
#include "core/input/detect.h"
#include "core/input/objectreader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QSettings>

#include <chrono>
#include <future>

namespace gcnlens::ui::documentfiles {

namespace {

constexpr qint64 kReadChunk = 2 * 1024 * 1024;
// How often the event loop runs while a thread completes the read (a frame at 60 Hz).
constexpr int kPaintIntervalMs = 16;

QString tr(const char* text)
{
    return QCoreApplication::translate("DocumentFiles", text);
}

// A code object (core/input/objectreader.h): its kernels disassembled into a read-only listing
// that the analysis reads back as a listing, for the GPU the object names. LLVM reads it in the
// worker process (issue #12), waited for on a thread of its own so that `progress` keeps the
// window painting and can cancel; a crash or a hang there is an error, never the window's end.
bool readCodeObject(QFile& file, QByteArray bytes, const QString& name, const AssembleLimits& limits, LoadedText* out,
                    QString* error, const std::function<bool(int)>& progress)
{
    bytes += file.readAll();
    if (file.error() != QFileDevice::NoError) {
        *error = tr("Cannot read %1:\n%2.").arg(name, file.errorString());
        return false;
    }
    input::ObjectReadOptions options;
    options.fileName = QFileInfo(file.fileName()).fileName().toStdString();
    IsolatedFrontEnd worker;
    auto job = std::async(std::launch::async, [&] {
        return worker.readCodeObject(std::string_view(bytes.constData(), std::size_t(bytes.size())), options, limits);
    });
    bool cancelled = false;
    while (job.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
        cancelled = cancelled || (progress && !progress(100));
        if (cancelled)
            worker.cancel(); // again each turn: the first may come before the read started
    }
    const input::ObjectListing read = job.get();
    if (cancelled)
        return false;
    if (!read.error.empty()) {
        *error = tr("Cannot open %1:\n%2.").arg(name, QString::fromStdString(read.error));
        return false;
    }
    out->text = QString::fromStdString(read.listing);
    out->lines = out->text.count(QLatin1Char('\n')) + 1;
    out->gpu = QString::fromStdString(read.program.gpu.targetId);
    out->readOnly = true;
    return true;
}

} // namespace

QString nativePath(const QString& path)
{
    return QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath());
}

bool read(const QString& path, qint64 maxSize, LoadedText* out, QString* error, const std::function<bool(int)>& progress,
          const AssembleLimits& limits)
{
    error->clear();
    const QFileInfo info(path);
    const QString name = nativePath(path);
    if (!info.exists()) {
        *error = tr("Cannot open %1:\nthe file does not exist.").arg(name);
        return false;
    }
    if (info.isDir()) {
        *error = tr("Cannot open %1:\nit is a folder, not a file.").arg(name);
        return false;
    }
    const QLocale locale;
    if (info.size() > maxSize) {
        *error = tr("Cannot open %1:\nit is %2, and gcnlens opens files of up to %3 (about %L4 lines of assembly).")
                     .arg(name, locale.formattedDataSize(info.size()), locale.formattedDataSize(maxSize))
                     .arg(maxSize / 32);
        return false;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot open %1:\n%2.").arg(name, file.errorString());
        return false;
    }
    const qint64 size = info.size();
    // Read, check and decode chunk by chunk. The one loader's decoder (core/input/loader.h): the
    // CLI reads files by the same rules.
    input::SourceDecoder decoder;
    QByteArray chunk = file.read(kReadChunk);
    if (input::looksLikeCodeObject(std::string_view(chunk.constData(), std::size_t(chunk.size()))))
        return readCodeObject(file, chunk, name, limits, out, error, progress);
    for (;; chunk = file.read(kReadChunk)) {
        if (chunk.isEmpty()) {
            if (file.error() != QFileDevice::NoError) {
                *error = tr("Cannot read %1:\n%2.").arg(name, file.errorString());
                return false;
            }
            break;
        }
        if (!decoder.feed(std::string_view(chunk.constData(), std::size_t(chunk.size())))) {
            *error = tr("Cannot open %1:\n%2.").arg(name, QString::fromStdString(decoder.error()));
            return false;
        }
        if (progress && !progress(int(100 * qint64(decoder.bytesRead()) / std::max<qint64>(size, 1))))
            return false;
    }
    // Not UTF-8: read as Latin-1 (every byte kept); CR LF and a lone CR become LF, as the editor
    // takes them, and the format remembers them for saving.
    const auto complete = [&decoder, out] {
        decoder.finish();
        const std::string& text = decoder.text();
        out->text = QString::fromUtf8(text.data(), qsizetype(text.size()));
        out->format = decoder.format();
        out->lines = out->text.count(QLatin1Char('\n')) + 1;
    };
    if (!progress || decoder.bytesRead() < std::uint64_t(kReadChunk)) {
        complete();
        return true;
    }
    // For a large file that is a few hundred milliseconds (at 30 MB: about 75 ms to check the
    // UTF-8 and the line breaks, 250 to make the QString): done on a thread of its own while
    // `progress` keeps the window painting. A cancel then is honoured once the thread is done.
    auto job = std::async(std::launch::async, complete);
    bool cancelled = false;
    while (job.wait_for(std::chrono::milliseconds(kPaintIntervalMs)) != std::future_status::ready)
        cancelled = cancelled || !progress(100);
    job.get();
    return !cancelled;
}

QByteArray encode(const QString& text, input::SourceFormat* format)
{
    const QByteArray utf8 = text.toUtf8();
    const std::string_view view(utf8.constData(), std::size_t(utf8.size()));
    bool lossy = false;
    std::string encoded = input::encodeSource(view, *format, &lossy);
    if (lossy) { // typed characters Latin-1 cannot hold: UTF-8 rather than losing them
        format->encoding = input::Encoding::Utf8;
        format->latin1Fallback = false;
        encoded = input::encodeSource(view, *format);
    }
    return QByteArray(encoded.data(), qsizetype(encoded.size()));
}

QStringList recentFiles()
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

void addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QStringLiteral("recentFiles"), files);
}

bool removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    if (files.removeAll(QFileInfo(path).absoluteFilePath()) == 0)
        return false;
    QSettings().setValue(QStringLiteral("recentFiles"), files);
    return true;
}

} // namespace gcnlens::ui::documentfiles
