// SPDX-License-Identifier: MIT
// LineIndex (core/program.h): the flat line → instructions index, against a std::map model, for
// assign() and for the splices the incremental front-end makes (issue #11 item 8).
#include "core/program.h"

#include <QRandomGenerator>
#include <QTest>

#include <map>
#include <vector>

using namespace gcnlens;

namespace {

using Model = std::map<int, std::vector<int>>;

Model modelOf(const std::vector<std::pair<int, int>>& pairs)
{
    Model model;
    for (const auto& [line, instruction] : pairs)
        model[line].push_back(instruction);
    for (auto& [line, list] : model)
        std::sort(list.begin(), list.end());
    return model;
}

Model read(const LineIndex& index)
{
    Model model;
    for (const auto& entry : index)
        model[entry.first] = std::vector<int>(entry.second.begin(), entry.second.end());
    return model;
}

} // namespace

class TestLineIndex : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void assignAndFind()
    {
        LineIndex index;
        index.assign({{7, 2}, {3, 0}, {7, 3}, {3, 1}, {12, 4}});
        QCOMPARE(index.size(), std::size_t(3));
        QCOMPARE(read(index), (Model {{3, {0, 1}}, {7, {2, 3}}, {12, {4}}}));
        QVERIFY(index.find(5) == index.end());
        QCOMPARE(index.find(7)->second.size(), std::size_t(2));
        QCOMPARE(index.lowerBound(4)->first, 7);
        QCOMPARE(index.lowerBound(8)->first, 12);
        QVERIFY(index.lowerBound(13) == index.end());
        QCOMPARE(index.count(12), std::size_t(1));
        index.assign({});
        QVERIFY(index.empty());
    }

    // A one-instruction-per-line program edited at random: lines [first, last] replaced by n
    // lines of one instruction each; the index must equal a fresh assign() of the result.
    void spliceMatchesRebuild_data()
    {
        QTest::addColumn<quint32>("seed");
        for (quint32 seed = 1; seed <= 8; ++seed)
            QTest::addRow("seed %u", seed) << seed;
    }
    void spliceMatchesRebuild()
    {
        QFETCH(quint32, seed);
        QRandomGenerator random(seed);
        // program: line of each instruction, ascending, some lines empty, some with two
        std::vector<int> lineOf;
        for (int line = 1; line <= 60; ++line) {
            const int n = int(random.bounded(3)); // 0, 1 or 2 instructions
            for (int k = 0; k < n; ++k)
                lineOf.push_back(line);
        }
        const auto pairsOf = [](const std::vector<int>& lines) {
            std::vector<std::pair<int, int>> pairs;
            for (int i = 0; i < int(lines.size()); ++i)
                pairs.emplace_back(lines[std::size_t(i)], i);
            return pairs;
        };
        LineIndex index;
        index.assign(pairsOf(lineOf));
        for (int round = 0; round < 40; ++round) {
            const int lastLine = lineOf.empty() ? 1 : lineOf.back();
            const int first = 1 + int(random.bounded(lastLine));
            const int last = first + int(random.bounded(3)) - 1; // an insertion when last < first
            const int newCount = int(random.bounded(4));
            // instructions on the replaced lines
            const auto begin = std::lower_bound(lineOf.begin(), lineOf.end(), first) - lineOf.begin();
            const auto end = std::upper_bound(lineOf.begin(), lineOf.end(), std::max(first - 1, last)) - lineOf.begin();
            const int oldLines = std::max(0, last - first + 1);
            const int lineDelta = newCount - oldLines;
            std::vector<int> next(lineOf.begin(), lineOf.begin() + begin);
            std::vector<std::pair<int, int>> added;
            for (int k = 0; k < newCount; ++k) {
                added.emplace_back(first + k, int(next.size()));
                next.push_back(first + k);
            }
            for (auto i = end; i < std::ptrdiff_t(lineOf.size()); ++i)
                next.push_back(lineOf[std::size_t(i)] + lineDelta);
            const int indexDelta = newCount - int(end - begin);
            index.splice(first, last, lineDelta, int(end), indexDelta, added);
            lineOf = std::move(next);
            QCOMPARE(read(index), modelOf(pairsOf(lineOf)));
        }
    }
};

QTEST_GUILESS_MAIN(TestLineIndex)
#include "tst_lineindex.moc"
