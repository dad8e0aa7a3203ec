// SPDX-License-Identifier: MIT
// core/compact.h (issue #18): the interned and compact types behave like the std::string /
// std::vector fields they replace, against those as the model: equal contents intern to one
// handle, copies are deep, growth keeps the items.
#include "core/compact.h"

#include <QTest>

#include <string>
#include <vector>

using namespace gcnlens;

namespace {

struct Item {
    InternedString rule;
    int cycles = 0;
    OwnedString detail;
    bool operator==(const Item&) const = default;
};

} // namespace

class TestCompact : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void internedString_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addRow("empty") << QString();
        QTest::addRow("short") << QStringLiteral("v_add_f32");
        QTest::addRow("long") << QStringLiteral("v[4:7], s[8:11], 0 offen offset:4095 glc slc");
        QTest::addRow("utf-8") << QStringLiteral("→ +4");
    }
    void internedString()
    {
        QFETCH(QString, text);
        const std::string model = text.toStdString();
        const InternedString a(model), b(std::string(model.begin(), model.end()));
        QCOMPARE(a.view(), std::string_view(model));
        QCOMPARE(a.size(), model.size());
        QCOMPARE(a.empty(), model.empty());
        QCOMPARE(std::string(a.c_str()), model); // 0-terminated
        QVERIFY(a == b);
        QCOMPARE(a.data(), b.data()); // one copy per process
        QVERIFY(a == model);
        QCOMPARE(std::format("{}", a), model);
        const InternedString other(model + "x");
        QVERIFY(!(a == other));
    }

    void internedArray_data()
    {
        QTest::addColumn<int>("count");
        QTest::addRow("none") << 0;
        QTest::addRow("one") << 1;
        QTest::addRow("many") << 37;
    }
    void internedArray()
    {
        QFETCH(int, count);
        std::vector<std::uint8_t> bytes;
        std::vector<int> ints;
        for (int i = 0; i < count; ++i) {
            bytes.push_back(std::uint8_t(i * 7));
            ints.push_back(i * 1000);
        }
        const InternedArray<std::uint8_t> a(bytes), b(bytes);
        QVERIFY(a == bytes);
        QCOMPARE(a.data(), b.data());
        QCOMPARE(a.toVector(), bytes);
        const InternedArray<int> c(ints);
        QCOMPARE(c.toVector(), ints);
        InternedArray<int> d(ints);
        d.push_back(-1);
        ints.push_back(-1);
        QCOMPARE(d.toVector(), ints);
        QCOMPARE(d.size(), std::size_t(count + 1));
        QVERIFY(!(c == d));
    }

    void sparseList_data()
    {
        QTest::addColumn<int>("count");
        QTest::addRow("none") << 0;
        QTest::addRow("one") << 1;
        QTest::addRow("grows three times") << 9;
    }
    void sparseList()
    {
        QFETCH(int, count);
        std::vector<Item> model;
        SparseList<Item> list;
        for (int i = 0; i < count; ++i) {
            Item item {i % 2 ? "fetch-align" : "valu-salu", i, std::string(20 + i, char('a' + i))};
            model.push_back(item);
            list.push_back(item);
        }
        QCOMPARE(list.size(), model.size());
        QCOMPARE(list.empty(), model.empty());
        QVERIFY(std::equal(list.begin(), list.end(), model.begin(), model.end()));
        SparseList<Item> copy = list;
        QVERIFY(copy == list);
        copy.emplace_back(Item {"scc-branch", 99, "d"});
        QCOMPARE(list.size(), model.size()); // the copy is deep
        SparseList<Item> moved = std::move(copy);
        QCOMPARE(moved.size(), model.size() + 1);
        QCOMPARE(moved.back().cycles, 99);
        SparseList<Item> fromVector = model;
        QVERIFY(fromVector == list);
        if (count > 0)
            QCOMPARE(list.at(std::size_t(count - 1)).detail.size(), std::size_t(20 + count - 1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, list.at(std::size_t(count)));
        list.clear();
        QVERIFY(list.empty());
        QVERIFY(list.begin() == list.end());
    }

    void ownedString_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addRow("empty") << QString();
        QTest::addRow("detail") << QStringLiteral("2-dword instruction at slot 5 of block 0x40: outside the first 16 bytes → +4");
    }
    void ownedString()
    {
        QFETCH(QString, text);
        const std::string model = text.toStdString();
        OwnedString a(model);
        const OwnedString b = a;
        QVERIFY(a == b);
        QVERIFY(b == model);
        QCOMPARE(std::string(b), model);
        QCOMPARE(b.empty(), model.empty());
        QCOMPARE(std::string(b.c_str()), model);
        QCOMPARE(b.find("0x40"), model.find("0x40"));
        a = std::string("other");
        QVERIFY(b == model); // the copy is deep
        QCOMPARE(std::format("{}", a), std::string("other"));
    }
};

QTEST_APPLESS_MAIN(TestCompact)
#include "tst_compact.moc"
