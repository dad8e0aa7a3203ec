// SPDX-License-Identifier: MIT
// Watches the open file on disk (issue #12: a file that changes or disappears while open). Another
// program's write, replace (an editor's atomic save) or delete is reported once it has settled;
// gcnlens' own save is not reported, as it is recorded (watch() again) right after it.
#pragma once

#include <QDateTime>
#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

namespace gcnlens::ui {

class FileWatch : public QObject {
    Q_OBJECT
public:
    explicit FileWatch(QObject* parent = nullptr);

    // Watches `path` as it is now (empty: nothing); what is on disk now counts as known.
    void watch(const QString& path);
    QString path() const { return m_path; }
    // Events are held while a question about the file is open, and looked at again afterwards.
    void setHeld(bool held);
    static constexpr int kSettleMs = 250; // an atomic save is a delete and a create in quick succession

Q_SIGNALS:
    void changedOnDisk(const QString& path);
    void removedFromDisk(const QString& path);

private:
    struct Stamp {
        bool exists = false;
        qint64 size = -1;
        QDateTime modified;
        bool operator==(const Stamp&) const = default;
    };
    static Stamp stampOf(const QString& path);
    void settle();

    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QString m_path;
    Stamp m_known;
    bool m_held = false;
};

} // namespace gcnlens::ui
