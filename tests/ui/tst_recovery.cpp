// SPDX-License-Identifier: MIT
// Crash recovery (ui/recovery.h): what is saved comes back byte for byte, per file, and goes away
// when discarded.
#include "ui/recovery.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gcnlens::ui;

class TestRecovery : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("original");
        QTest::addColumn<QString>("text");
        QTest::addRow("untitled") << QString() << QStringLiteral("s_endpgm\n");
        QTest::addRow("named, unicode, no final newline")
            << QStringLiteral("/tmp/kernels/k.s") << QStringLiteral("// π ≈ 0x40490fdb\nv_mov_b32 v0, 0x40490fdb");
        QTest::addRow("empty text") << QStringLiteral("/tmp/empty.s") << QString();
        QTest::addRow("first line looks like a header")
            << QStringLiteral("/tmp/h.s") << QStringLiteral("gcnlens-recovery 1\n/tmp/x.s\nbody\n");
        // Written in slices of 256 Ki characters: a surrogate pair across the first boundary, a
        // three-byte character across the second.
        const QString pair = QString::fromUtf8("\xF0\x9F\x98\x80"), wide = QString::fromUtf8("\xE2\x89\x88");
        QTest::addRow("several slices") << QStringLiteral("/tmp/big.s")
                                        << QString(256 * 1024 - 1, QLatin1Char('a')) + pair
                + QString(256 * 1024 - 2, QLatin1Char('b')) + wide + wide + QStringLiteral("\ns_endpgm\n");
    }
    void roundTrip()
    {
        QFETCH(QString, original);
        QFETCH(QString, text);
        QTemporaryDir dir;
        const RecoveryStore store(dir.path() + QStringLiteral("/recovery"));
        QVERIFY(store.entries().empty());
        QVERIFY(store.save(original, text));
        auto entries = store.entries();
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries.front().text, text);
        QCOMPARE(entries.front().originalFile, original);
        // Saving again replaces, it does not add.
        QVERIFY(store.save(original, text + QStringLiteral("x")));
        entries = store.entries();
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries.front().text, text + QStringLiteral("x"));
        store.discard(original);
        QVERIFY(store.entries().empty());
    }

    void separateFiles()
    {
        QTemporaryDir dir;
        const RecoveryStore store(dir.path());
        QVERIFY(store.save(QStringLiteral("/a/one.s"), QStringLiteral("one")));
        QVERIFY(store.save(QStringLiteral("/a/two.s"), QStringLiteral("two")));
        QVERIFY(store.save(QString(), QStringLiteral("untitled")));
        QCOMPARE(store.entries().size(), size_t(3));
        QVERIFY(store.recoveryFileFor(QStringLiteral("/a/one.s")) != store.recoveryFileFor(QStringLiteral("/a/two.s")));
        store.discard(QStringLiteral("/a/two.s"));
        QStringList texts;
        for (const auto& e : store.entries())
            texts << e.text;
        texts.sort();
        QCOMPARE(texts, (QStringList {QStringLiteral("one"), QStringLiteral("untitled")}));
    }
};

QTEST_GUILESS_MAIN(TestRecovery)
#include "tst_recovery.moc"
