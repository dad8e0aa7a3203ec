// SPDX-License-Identifier: MIT
// The report's geometry value types (ui/report/reportlayout.h), data-driven.
#include "ui/report/reportlayout.h"

#include <QPageSize>
#include <QTest>

using namespace gcnlens::report;

Q_DECLARE_METATYPE(std::vector<int>)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(std::vector<WrapPiece>)

namespace {
struct Block {
    qreal height;
    qreal spacing;
};
} // namespace
Q_DECLARE_METATYPE(std::vector<Block>)
Q_DECLARE_METATYPE(std::vector<FlowLayout::Placement>)

class TestReportLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pageFrame_data()
    {
        QTest::addColumn<QPageSize::PageSizeId>("size");
        QTest::addColumn<QRectF>("content");
        // A4 is 210 × 297 mm = 595.28 × 841.89 pt, which QPageSize (and the PDF's MediaBox) round to
        // 595 × 842; Letter is 612 × 792 pt. Margins 36, header 20, footer 18:
        // content top = 36 + 20 = 56, height = page − 36 − 18 − 56, width = page − 72.
        QTest::addRow("A4") << QPageSize::A4 << QRectF(36, 56, 595 - 72, 842 - 110);
        QTest::addRow("Letter") << QPageSize::Letter << QRectF(36, 56, 612 - 72, 792 - 110);
    }
    void pageFrame()
    {
        QFETCH(QPageSize::PageSizeId, size);
        QFETCH(QRectF, content);
        PageFrame frame;
        frame.page = QPageSize(size).size(QPageSize::Point);
        const QRectF got = frame.contentRect();
        QVERIFY2(qAbs(got.left() - content.left()) < 0.01 && qAbs(got.top() - content.top()) < 0.01
                     && qAbs(got.width() - content.width()) < 0.01 && qAbs(got.height() - content.height()) < 0.01,
                 qPrintable(QStringLiteral("%1,%2 %3x%4").arg(got.left()).arg(got.top()).arg(got.width()).arg(got.height())));
        QCOMPARE(frame.headerRect().bottom(), got.top());
        QCOMPARE(frame.footerRect().top(), got.bottom());
    }

    void flow_data()
    {
        QTest::addColumn<std::vector<Block>>("blocks");
        QTest::addColumn<std::vector<FlowLayout::Placement>>("expected");
        // Page: top 0, height 100.
        QTest::addRow("fits, then breaks") << std::vector<Block> {{40, 0}, {40, 0}, {40, 0}}
                                           << std::vector<FlowLayout::Placement> {{0, 0}, {0, 40}, {1, 0}};
        // 50 + (10 + 30) = 90 fits; 90 + 10 + 30 > 100 breaks, and the spacing is dropped on the new page.
        QTest::addRow("spacing") << std::vector<Block> {{50, 10}, {30, 10}, {30, 10}}
                                 << std::vector<FlowLayout::Placement> {{0, 0}, {0, 60}, {1, 0}};
        QTest::addRow("exact fit") << std::vector<Block> {{60, 0}, {40, 0}, {1, 0}}
                                   << std::vector<FlowLayout::Placement> {{0, 0}, {0, 60}, {1, 0}};
        // A block taller than a page gets a fresh page of its own; the next block follows it.
        QTest::addRow("oversized") << std::vector<Block> {{30, 0}, {150, 0}, {10, 0}}
                                   << std::vector<FlowLayout::Placement> {{0, 0}, {1, 0}, {2, 0}};
        QTest::addRow("oversized first") << std::vector<Block> {{150, 0}, {10, 5}}
                                         << std::vector<FlowLayout::Placement> {{0, 0}, {1, 0}};
    }
    void flow()
    {
        QFETCH(std::vector<Block>, blocks);
        QFETCH(std::vector<FlowLayout::Placement>, expected);
        FlowLayout layout(0, 100);
        QCOMPARE(blocks.size(), expected.size());
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const auto got = layout.place(blocks[i].height, blocks[i].spacing);
            QVERIFY2(got == expected[i], qPrintable(QStringLiteral("block %1: page %2 y %3").arg(i).arg(got.page).arg(got.y)));
        }
    }

    void linesPerPage_data()
    {
        QTest::addColumn<qreal>("height");
        QTest::addColumn<qreal>("line");
        QTest::addColumn<int>("expected");
        QTest::addRow("exact") << qreal(700) << qreal(7) << 100;
        QTest::addRow("just short") << qreal(699.9) << qreal(7) << 99;
        QTest::addRow("fractional line") << qreal(731.9) << qreal(8.2) << 89; // 731.9 / 8.2 = 89.26
        QTest::addRow("tiny page") << qreal(5) << qreal(7) << 1;
        QTest::addRow("no line height") << qreal(100) << qreal(0) << 1;
    }
    void linesPerPage()
    {
        QFETCH(qreal, height);
        QFETCH(qreal, line);
        QFETCH(int, expected);
        QCOMPARE(ListingPagination::linesPerPage(height, line), expected);
    }

    void paginate_data()
    {
        QTest::addColumn<std::vector<int>>("rows");
        QTest::addColumn<int>("perPage");
        QTest::addColumn<std::vector<int>>("starts");
        QTest::addRow("empty") << std::vector<int> {} << 3 << std::vector<int> {};
        QTest::addRow("single lines") << std::vector<int> {1, 1, 1, 1, 1} << 2 << std::vector<int> {0, 2, 4};
        // Rows of two on pages of three: a row never splits, so each page holds one row.
        QTest::addRow("kept together") << std::vector<int> {2, 2, 2} << 3 << std::vector<int> {0, 2, 4};
        QTest::addRow("full pages") << std::vector<int> {3, 3} << 3 << std::vector<int> {0, 3};
        // A 5-line row on 3-line pages starts a page (line 1) and flows on (line 4).
        QTest::addRow("longer than a page") << std::vector<int> {1, 5} << 3 << std::vector<int> {0, 1, 4};
        QTest::addRow("long first row") << std::vector<int> {7, 1} << 3 << std::vector<int> {0, 3, 6};
        QTest::addRow("empty rows skipped") << std::vector<int> {0, 2, 0, 2} << 4 << std::vector<int> {0};
        // 10 000 single lines on 90-line pages: ceil(10000 / 90) = 112 pages.
        QTest::addRow("ten thousand") << std::vector<int>(10000, 1) << 90 << [] {
            std::vector<int> s;
            for (int i = 0; i < 10000; i += 90)
                s.push_back(i);
            return s;
        }();
    }
    void paginate()
    {
        QFETCH(std::vector<int>, rows);
        QFETCH(int, perPage);
        QFETCH(std::vector<int>, starts);
        const ListingPagination p = ListingPagination::paginate(rows, perPage);
        QCOMPARE(p.pageStarts, starts);
        // Every page holds between 1 and perPage lines and the pages cover every line once.
        int total = 0;
        for (const int r : rows)
            total += std::max(0, r);
        int covered = 0;
        for (int page = 0; page < p.pageCount(); ++page) {
            const auto [from, to] = p.linesOnPage(page, total);
            QVERIFY(to - from >= 1 && to - from <= perPage);
            QCOMPARE(from, covered);
            covered = to;
        }
        QCOMPARE(covered, total);
    }

    void wrap_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("columns");
        QTest::addColumn<int>("maxPieces");
        QTest::addColumn<std::vector<WrapPiece>>("expected");
        QTest::addRow("empty") << QString() << 10 << 3 << std::vector<WrapPiece> {{0, 0, false}};
        QTest::addRow("fits") << QStringLiteral("abc") << 10 << 3 << std::vector<WrapPiece> {{0, 3, false}};
        QTest::addRow("hard breaks") << QStringLiteral("abcdefghij") << 4 << 5
                                     << std::vector<WrapPiece> {{0, 4, false}, {4, 4, false}, {8, 2, false}};
        QTest::addRow("elided") << QStringLiteral("abcdefghij") << 4 << 2 << std::vector<WrapPiece> {{0, 4, false}, {4, 4, true}};
        // "ab cd efgh", 6 columns: the space at index 5 lies in the piece's last third → break after it.
        QTest::addRow("at a space") << QStringLiteral("ab cd efgh") << 6 << 3
                                    << std::vector<WrapPiece> {{0, 6, false}, {6, 4, false}};
        // "v_add v1, v2": comma at index 8 is in the last third of 9 columns (indices 6..8).
        QTest::addRow("after a comma") << QStringLiteral("v_add v1, v2") << 9 << 3
                                       << std::vector<WrapPiece> {{0, 9, false}, {9, 3, false}};
    }
    void wrap()
    {
        QFETCH(QString, text);
        QFETCH(int, columns);
        QFETCH(int, maxPieces);
        QFETCH(std::vector<WrapPiece>, expected);
        const auto got = wrapLine(text, columns, maxPieces);
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(got[i] == expected[i],
                     qPrintable(QStringLiteral("piece %1: %2+%3").arg(i).arg(got[i].start).arg(got[i].length)));
    }

    void axisMap_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<qreal>("from");
        QTest::addColumn<qreal>("to");
        QTest::addColumn<double>("value");
        QTest::addColumn<qreal>("pixel");
        QTest::addRow("x middle") << 0.0 << 256.0 << qreal(10) << qreal(266) << 128.0 << qreal(138);
        QTest::addRow("y up") << 0.0 << 10.0 << qreal(100) << qreal(0) << 5.0 << qreal(50);
        QTest::addRow("y top") << 0.0 << 10.0 << qreal(100) << qreal(0) << 10.0 << qreal(0);
        QTest::addRow("offset range") << 100.0 << 200.0 << qreal(0) << qreal(50) << 150.0 << qreal(25);
        QTest::addRow("degenerate") << 3.0 << 3.0 << qreal(7) << qreal(50) << 3.0 << qreal(7);
    }
    void axisMap()
    {
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(qreal, from);
        QFETCH(qreal, to);
        QFETCH(double, value);
        QFETCH(qreal, pixel);
        const ChartAxis axis {min, max, from, to};
        QCOMPARE(axis.map(value), pixel);
    }

    void axisTicks_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<std::vector<double>>("ticks");
        // step = the smallest of 1, 2, 5, 10 × 10^k not below range / maxTicks.
        QTest::addRow("waves") << 0.0 << 10.0 << 5 << std::vector<double> {0, 2, 4, 6, 8, 10};       // 10/5 = 2
        QTest::addRow("vgprs") << 0.0 << 256.0 << 4 << std::vector<double> {0, 100, 200};            // 64 → 100
        QTest::addRow("lds") << 0.0 << 65536.0 << 4 << std::vector<double> {0, 20000, 40000, 60000}; // 16384 → 20000
        QTest::addRow("sgprs") << 0.0 << 104.0 << 4 << std::vector<double> {0, 50, 100};             // 26 → 50
        QTest::addRow("not from zero") << 3.0 << 17.0 << 3 << std::vector<double> {5, 10, 15};       // 4.67 → 5
    }
    void axisTicks()
    {
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(int, maxTicks);
        QFETCH(std::vector<double>, ticks);
        const ChartAxis axis {min, max, 0, 1};
        const auto got = axis.ticks(maxTicks);
        QCOMPARE(got.size(), ticks.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QCOMPARE(got[i], ticks[i]);
    }
};

QTEST_GUILESS_MAIN(TestReportLayout)
#include "tst_reportlayout.moc"
