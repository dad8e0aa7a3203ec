// SPDX-License-Identifier: MIT
#include "ui/recovery.h"
#include "ui/logging.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace gcnlens::ui {

static const QByteArray magic = QByteArrayLiteral("gcnlens-recovery 1\n");

RecoveryStore::RecoveryStore(QString directory)
    : m_directory(std::move(directory))
{
}

QString RecoveryStore::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

QString RecoveryStore::recoveryFileFor(const QString& originalFile) const
{
    const QByteArray key = originalFile.isEmpty()
        ? QByteArrayLiteral("untitled")
        : QCryptographicHash::hash(QFileInfo(originalFile).absoluteFilePath().toUtf8(), QCryptographicHash::Sha1)
              .toHex()
              .left(16);
    return m_directory + QLatin1Char('/') + QString::fromLatin1(key) + QStringLiteral(".s.recover");
}

bool RecoveryStore::save(const QString& originalFile, const QString& text) const
{
    if (!QDir().mkpath(m_directory))
        return false;
    // QSaveFile: a crash while writing leaves the previous recovery file intact.
    QSaveFile file(recoveryFileFor(originalFile));
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(magic);
    file.write(originalFile.isEmpty() ? QByteArray() : QFileInfo(originalFile).absoluteFilePath().toUtf8());
    file.write("\n");
    // In slices: toUtf8() of the whole text reserves three bytes per character first, 91 MB for a
    // 1M-line kernel, on top of the text (issue #18, heaptrack). A slice ends before a surrogate
    // pair's second half, never between the two.
    constexpr qsizetype slice = 256 * 1024;
    for (qsizetype at = 0; at < text.size();) {
        qsizetype n = std::min(slice, text.size() - at);
        if (at + n < text.size() && text.at(at + n - 1).isHighSurrogate())
            ++n;
        file.write(QStringView(text).sliced(at, n).toUtf8());
        at += n;
    }
    const bool ok = file.commit();
    if (!ok)
        qCWarning(lcFiles) << "could not write recovery file" << file.fileName() << file.errorString();
    return ok;
}

std::vector<RecoveryStore::Entry> RecoveryStore::entries() const
{
    std::vector<Entry> out;
    const QDir dir(m_directory);
    for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("*.s.recover")}, QDir::Files, QDir::Time)) {
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        if (file.readLine() != magic)
            continue;
        Entry e;
        e.recoveryFile = info.absoluteFilePath();
        e.originalFile = QString::fromUtf8(file.readLine()).chopped(1);
        e.saved = info.lastModified();
        e.text = QString::fromUtf8(file.readAll());
        out.push_back(std::move(e));
    }
    return out;
}

void RecoveryStore::discard(const QString& originalFile) const
{
    QFile::remove(recoveryFileFor(originalFile));
}

void RecoveryStore::discardEntry(const Entry& entry) const
{
    QFile::remove(entry.recoveryFile);
}

} // namespace gcnlens::ui
