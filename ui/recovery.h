// SPDX-License-Identifier: MIT
// Crash recovery: the editor's text is written (atomically) to a file under AppDataLocation while
// the user types, removed on save or clean close, and offered back on the next start if left over.
#pragma once

#include <QDateTime>
#include <QString>

#include <vector>

namespace gcnlens::ui {

class RecoveryStore {
public:
    struct Entry {
        QString recoveryFile; // where the text was kept
        QString originalFile; // the file being edited, empty for an untitled buffer
        QDateTime saved;
        QString text;
    };

    explicit RecoveryStore(QString directory = defaultDirectory());
    static QString defaultDirectory(); // <AppDataLocation>/recovery

    QString recoveryFileFor(const QString& originalFile) const;
    bool save(const QString& originalFile, const QString& text) const;
    std::vector<Entry> entries() const;
    void discard(const QString& originalFile) const;
    void discardEntry(const Entry& entry) const;
    QString directory() const { return m_directory; }

private:
    QString m_directory;
};

} // namespace gcnlens::ui
