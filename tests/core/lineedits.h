// SPDX-License-Identifier: MIT
// The one-line edits the incremental tests replay (tst_incremental for LLVM texts, tst_clrx for
// CLRX ones): line `l` deleted, duplicated, and replaced by each of `replacements`.
#pragma once

#include <QList>
#include <QStringList>

namespace gcnlens::test {

inline QList<QStringList> lineEdits(const QStringList& lines, int l, const QStringList& replacements)
{
    QList<QStringList> variants;
    QStringList del = lines;
    del.removeAt(l);
    variants << del;
    QStringList dup = lines;
    dup.insert(l, lines[l]);
    variants << dup;
    for (const auto& r : replacements) {
        QStringList rep = lines;
        rep[l] = r;
        variants << rep;
    }
    return variants;
}

} // namespace gcnlens::test
