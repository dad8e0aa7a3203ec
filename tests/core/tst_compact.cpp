// SPDX-License-Identifier: MIT
// core/compact.h (issue #18): the interned and compact types behave like the std::string /
// std::vector fields they replace, against those as the model: equal contents intern to one
// handle, copies are deep, growth keeps the items.
#include "core/compact.h"

#include <QTest>

#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace gcnlens;

namespace {

struct Item {
    InternedString rule;
    int cycles = 0;
    PatternText detail;
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

    // The print cache admits an encoding once it repeats: interning tells whether the bytes are
    // new to the process. Bytes no earlier test made: a counter-like tail unique to this run.
    void internedArrayTellsWhetherAdded()
    {
        const std::vector<std::uint8_t> fresh {0xfe, 0xed, 0x18, 0x42, 0x99, 0x01, 0x77};
        bool added = false;
        const InternedArray<std::uint8_t> first(std::span<const std::uint8_t>(fresh), added);
        QVERIFY(added);
        const InternedArray<std::uint8_t> again(std::span<const std::uint8_t>(fresh), added);
        QVERIFY(!added);
        QCOMPARE(again.handle(), first.handle());
        QVERIFY(first == fresh);
        added = true;
        const InternedArray<std::uint8_t> none(std::span<const std::uint8_t>(), added);
        QVERIFY(!added); // the empty array is no entry
        QVERIFY(none.empty());
        QCOMPARE(none.handle(), 0u);
        // Interned any other way first, the bytes are not new either.
        const std::vector<std::uint8_t> other {0xfe, 0xed, 0x18, 0x42, 0x99, 0x01, 0x78};
        const InternedArray<std::uint8_t> plain(other);
        const InternedArray<std::uint8_t> seen(std::span<const std::uint8_t>(other), added);
        QVERIFY(!added);
        QCOMPARE(seen.handle(), plain.handle());
    }

    // Handles are 32 bits (a chunk of a process-wide directory and a place in it): texts and byte
    // arrays interned at once from two threads, over many chunks of both pools and an entry larger
    // than a chunk, each read back as written, and interned again to the same place.
    void handlesAcrossChunksAndThreads()
    {
        constexpr int kCount = 20000; // ~40 bytes each: several 256 KiB chunks per pool
        std::vector<InternedString> texts(kCount);
        std::vector<InternedArray<std::uint8_t>> arrays(kCount);
        const auto textOf = [](int i) {
            return std::format("v_mad_u32_u24 v{}, s{}, v{}, {:#x}", i, i % 104, i % 256, i * 7919);
        };
        const auto bytesOf = [](int i) {
            std::vector<std::uint8_t> bytes(8 + i % 29);
            for (std::size_t k = 0; k < bytes.size(); ++k)
                bytes[k] = std::uint8_t(i >> (k % 3 * 8) ^ k);
            return bytes;
        };
        std::thread textThread([&] {
            for (int i = 0; i < kCount; ++i)
                texts[i] = InternedString(textOf(i));
        });
        std::thread arrayThread([&] {
            for (int i = 0; i < kCount; ++i)
                arrays[i] = InternedArray<std::uint8_t>(bytesOf(i));
        });
        textThread.join();
        arrayThread.join();
        const std::string large(300 * 1024, 'x');
        const InternedString big(large);
        QCOMPARE(big.view(), std::string_view(large));
        for (int i = 0; i < kCount; ++i) {
            QCOMPARE(texts[i].view(), std::string_view(textOf(i)));
            QCOMPARE(arrays[i].toVector(), bytesOf(i));
            QCOMPARE(InternedString(textOf(i)).data(), texts[i].data());
            QVERIFY(InternedArray<std::uint8_t>(bytesOf(i)) == arrays[i]);
        }
        QCOMPARE(InternedString(large).data(), big.data());
        QVERIFY(intern::poolBytes() > std::size_t(kCount) * 40);
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

    // A list's block is the count and the items, rounded to 8 bytes, for the next power of two
    // of items; a cleared list's block is handed to the next list of that size (issue #18).
    void sparseListBlocksAreReused_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("blockBytes");
        QTest::addRow("one") << 1 << 24;   // 4 + 20
        QTest::addRow("three") << 3 << 88; // 4 + 4 * 20 = 84
        QTest::addRow("nine") << 9 << 328; // 4 + 16 * 20 = 324
        static_assert(sizeof(Item) == 20);
    }
    void sparseListBlocksAreReused()
    {
        QFETCH(int, count);
        QFETCH(int, blockBytes);
        const auto fill = [count](SparseList<Item>& list) {
            for (int i = 0; i < count; ++i)
                list.push_back(Item {"fetch-align", i, {}});
        };
        SparseList<Item> warm;
        fill(warm); // leaves a released block of each size the growth passed through
        warm.clear();
        const std::size_t idle = intern::idleBlockBytes();
        SparseList<Item> list;
        fill(list);
        QCOMPARE(intern::idleBlockBytes(), idle - std::size_t(blockBytes));
        QCOMPARE(list.size(), std::size_t(count));
        QCOMPARE(list.back().cycles, count - 1);
        list.clear();
        QCOMPARE(intern::idleBlockBytes(), idle);
    }

    // Results are built and dropped on several threads at once: lists made, copied and cleared
    // on four threads keep their own items.
    void sparseListsOnThreads()
    {
        std::vector<int> wrong(4, 0);
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([t, &wrong] {
                std::vector<SparseList<Item>> lists(2000);
                for (int round = 0; round < 10; ++round) {
                    for (std::size_t i = 0; i < lists.size(); ++i) {
                        lists[i].clear();
                        for (int k = 0; k <= int(i % 5); ++k)
                            lists[i].push_back(Item {{}, t * 1000000 + int(i) * 10 + k, {}});
                    }
                    for (std::size_t i = 0; i < lists.size(); ++i) {
                        const SparseList<Item> copy = lists[i];
                        for (int k = 0; k <= int(i % 5); ++k)
                            if (copy.size() != i % 5 + 1 || copy[std::size_t(k)].cycles != t * 1000000 + int(i) * 10 + k)
                                ++wrong[std::size_t(t)];
                    }
                }
            });
        for (auto& thread : threads)
            thread.join();
        QCOMPARE(wrong, std::vector<int>(4, 0));
    }

    // Counts by name read like the std::map they replace: the same names in the same order with
    // the same sums, whatever the order they were added in, and lookups of names never added.
    void countsByName()
    {
        const std::vector<std::string> names = {"valu-salu",      "fetch-align",  "",           "branch-position", "Zeta",
                                                "fetch-straddle", "\xe2\x86\x92", "fetch-align"};
        std::map<std::string, long long> model;
        CountsByName<long long> counts;
        for (int round = 0; round < 3; ++round)
            for (std::size_t i = 0; i < names.size(); ++i) {
                const std::string& name = names[(i * 5 + std::size_t(round)) % names.size()];
                model[name] += static_cast<long long>(i) - 2;
                counts[name] += static_cast<long long>(i) - 2;
            }
        QCOMPARE(counts.size(), model.size());
        QVERIFY(std::equal(counts.begin(), counts.end(), model.begin(), model.end(),
                           [](const auto& a, const auto& b) { return a.first == b.first && a.second == b.second; }));
        QCOMPARE(counts.at("fetch-align"), model.at("fetch-align"));
        QCOMPARE(counts.count("fetch"), std::size_t(0));
        QVERIFY(counts.find("scc-branch") == counts.end());
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, counts.at("scc-branch"));
        CountsByName<long long> other;
        for (auto it = model.rbegin(); it != model.rend(); ++it)
            other[it->first] = it->second;
        QVERIFY(other == counts);
        other["scc-branch"] = 0;
        QVERIFY(!(other == counts));
    }

    // A pattern text reads as the text its builder was given, whatever its numbers: holes for
    // the first two that fit 32 bits, the others (and texts holding a marker byte) written out.
    void patternText_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<qlonglong>("line");
        QTest::addColumn<qulonglong>("block");
        QTest::addColumn<qlonglong>("third");
        QTest::addRow("detail") << QStringLiteral("2-dword instruction at slot 3 of block ") << 12LL << 0x40ULL << 4LL;
        QTest::addRow("zeros") << QStringLiteral("at ") << 0LL << 0ULL << 0LL;
        QTest::addRow("negative line") << QStringLiteral("line ") << -3LL << 0x20ULL << -1LL;
        QTest::addRow("past 32 bits") << QStringLiteral("block ") << 4294967296LL << 0x123456789aULL << 7LL;
        QTest::addRow("largest 32-bit") << QStringLiteral("block ") << 4294967295LL << 0xffffffffULL << 7LL;
        QTest::addRow("marker byte in the text") << QStringLiteral("odd \u0001 label \u0002 \u0003") << 5LL << 0x60ULL << 9LL;
        QTest::addRow("utf-8") << QStringLiteral("→ +") << 4LL << 0x80ULL << 16LL;
    }
    void patternText()
    {
        QFETCH(QString, before);
        QFETCH(qlonglong, line);
        QFETCH(qulonglong, block);
        QFETCH(qlonglong, third);
        const std::string text = before.toStdString();
        const std::string model = std::format("{}{} (line {}) of block {:#x}, {} and {}", text, third, line, block, line, third);
        PatternText::Builder builder;
        builder << text << third << " (line " << PatternText::Builder::Hole {line} << ") of block "
                << PatternText::Builder::HexHole {block} << ", " << PatternText::Builder::Hole {line} << " and "
                << PatternText::Builder::Hole {third};
        const PatternText a = builder.take();
        QCOMPARE(a.str(), model);
        QVERIFY(a == model);
        QCOMPARE(std::format("{}", a), model);
        QCOMPARE(a.find("line"), model.find("line"));
        QCOMPARE(a.size(), model.size());
        QVERIFY(builder.take().empty()); // take() leaves the builder empty
        const PatternText plain(model);
        QVERIFY(plain == a);
        QCOMPARE(plain.str(), model);
        builder << text << third << " (line " << PatternText::Builder::Hole {line + 1} << ") of block "
                << PatternText::Builder::HexHole {block} << ", " << PatternText::Builder::Hole {line} << " and "
                << PatternText::Builder::Hole {third};
        QVERIFY(!(builder.take() == a));
        QVERIFY(PatternText().empty());
        QVERIFY(PatternText() == std::string());
    }
};

QTEST_APPLESS_MAIN(TestCompact)
#include "tst_compact.moc"
