// SPDX-License-Identifier: MIT
#include "ui/filewatch.h"

#include <QFileInfo>

namespace gcnlens::ui {

FileWatch::FileWatch(QObject* parent)
    : QObject(parent)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &FileWatch::settle);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] { m_settle.start(); });
    // A file replaced by rename drops out of the file list: the folder's change brings it back.
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { m_settle.start(); });
}

FileWatch::Stamp FileWatch::stampOf(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return {};
    return {true, info.size(), info.lastModified()};
}

void FileWatch::watch(const QString& path)
{
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    m_settle.stop();
    m_path = path;
    m_known = stampOf(path);
    if (path.isEmpty() || !m_known.exists)
        return;
    m_watcher.addPath(path);
    m_watcher.addPath(QFileInfo(path).absolutePath());
}

void FileWatch::setHeld(bool held)
{
    m_held = held;
    if (!held)
        m_settle.start();
}

void FileWatch::settle()
{
    if (m_path.isEmpty() || m_held)
        return;
    const Stamp now = stampOf(m_path);
    if (now.exists && !m_watcher.files().contains(m_path))
        m_watcher.addPath(m_path); // replaced by rename: watch the new file
    if (now == m_known)
        return;    // the folder changed for another file, or a write put back the same
    m_known = now; // each change is told once
    if (now.exists)
        Q_EMIT changedOnDisk(m_path);
    else
        Q_EMIT removedFromDisk(m_path);
}

} // namespace gcnlens::ui
