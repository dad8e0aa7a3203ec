// SPDX-License-Identifier: MIT
// The window's geometry value types (ui/geometry.h): fetch bands, gutter columns, heatmap cells,
// occupancy steps. Expected values are derived in the row comments.
#include "ui/geometry.h"

#include "core/model/timing.h"

#include <QTest>

using namespace gcnlens::ui;

Q_DECLARE_METATYPE(std::vector<StepPoint>)
Q_DECLARE_METATYPE(std::optional<StepRegion>)

class TestUiGeometry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fetchPosition_data()
    {
        QTest::addColumn<quint64>("offset");
        QTest::addColumn<int>("size");
        QTest::addColumn<quint64>("block");
        QTest::addColumn<int>("slot");
        QTest::addColumn<bool>("odd");
        QTest::addColumn<bool>("straddles");
        // p(I) = (offset >> 2) & 7, block = offset & ~31 (timing-model.md section 1).
        QTest::addRow("entry") << quint64(0) << 4 << quint64(0) << 0 << false << false;
        QTest::addRow("slot 6, 8 bytes end at 0x1f") << quint64(0x18) << 8 << quint64(0) << 6 << false << false;
        // 0x1c + 8 - 1 = 0x23 lies in the next block: the GFX9+ straddle case (p == 7).
        QTest::addRow("slot 7, 8 bytes straddle") << quint64(0x1c) << 8 << quint64(0) << 7 << false << true;
        QTest::addRow("slot 7, 4 bytes fit") << quint64(0x1c) << 4 << quint64(0) << 7 << false << false;
        QTest::addRow("second block is odd") << quint64(0x20) << 4 << quint64(0x20) << 0 << true << false;
        QTest::addRow("third block is even") << quint64(0x44) << 8 << quint64(0x40) << 1 << false << false;
    }
    void fetchPosition()
    {
        QFETCH(quint64, offset);
        QFETCH(int, size);
        QFETCH(quint64, block);
        QFETCH(int, slot);
        QFETCH(bool, odd);
        QFETCH(bool, straddles);
        const auto p = FetchPosition::at(offset, size);
        QCOMPARE(p.block, block);
        QCOMPARE(p.band(), block / 32);
        QCOMPARE(int(p.inBlock().slot), slot);
        QCOMPARE(p.slot, slot);
        QCOMPARE(p.oddBand, odd);
        QCOMPARE(p.straddles, straddles);
        // The view's position is the timing model's place, the one its penalties were charged by.
        const gcnlens::FetchPlace place = gcnlens::fetchPlace(offset, size);
        QCOMPARE(place.block, block);
        QCOMPARE(place.slot, slot);
        QCOMPARE(place.straddles, straddles);
    }

    void digits_data()
    {
        QTest::addColumn<qulonglong>("value");
        QTest::addColumn<int>("base");
        QTest::addColumn<int>("minimum");
        QTest::addColumn<int>("expected");
        QTest::addRow("hex ffff") << 0xffffull << 16 << 4 << 4;
        QTest::addRow("hex 10000") << 0x10000ull << 16 << 4 << 5;
        QTest::addRow("dec 9 min 4") << 9ull << 10 << 4 << 4;
        QTest::addRow("dec 12345") << 12345ull << 10 << 4 << 5;
        QTest::addRow("zero") << 0ull << 10 << 1 << 1;
    }
    void digits()
    {
        QFETCH(qulonglong, value);
        QFETCH(int, base);
        QFETCH(int, minimum);
        QFETCH(int, expected);
        QCOMPARE(GutterLayout::digitsFor(value, base, minimum), expected);
    }

    void gutterColumns_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("column"); // -1: none
        // charWidth 10, 3 line digits, 4 offset digits: the left margin is 5; columns are
        // chars*10 + a 10 gap: line 3 → [5,45), offset 6 ("0x" + 4) → [45,115), slot → [115,135),
        // size → [135,155), cycles 4 → [155,205), marker 2 → [205,235).
        QTest::addRow("margin") << 4.0 << -1;
        QTest::addRow("line start") << 5.0 << int(GutterLayout::LineNumber);
        QTest::addRow("line gap") << 44.9 << int(GutterLayout::LineNumber);
        QTest::addRow("offset") << 45.0 << int(GutterLayout::Offset);
        QTest::addRow("slot") << 120.0 << int(GutterLayout::Slot);
        QTest::addRow("size") << 140.0 << int(GutterLayout::Size);
        QTest::addRow("cycles") << 200.0 << int(GutterLayout::Cycles);
        QTest::addRow("marker") << 210.0 << int(GutterLayout::Marker);
        QTest::addRow("past the end") << 235.0 << -1;
    }
    void gutterColumns()
    {
        QFETCH(double, x);
        QFETCH(int, column);
        const GutterLayout layout(10, 3, 4);
        QCOMPARE(layout.width(), 235.0);
        const auto c = layout.columnAt(x);
        QCOMPARE(c ? int(*c) : -1, column);
    }

    // Issue #16/#17: the pressure column ("84v 30s", 7 characters) after cycles and the check mark
    // (1) after the marker: pressure → [205,285), marker → [285,315), check → [315,335).
    void gutterColumnsWithPressure_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("column");
        QTest::addRow("cycles") << 200.0 << int(GutterLayout::Cycles);
        QTest::addRow("pressure start") << 205.0 << int(GutterLayout::Pressure);
        QTest::addRow("pressure gap") << 284.9 << int(GutterLayout::Pressure);
        QTest::addRow("marker") << 290.0 << int(GutterLayout::Marker);
        QTest::addRow("check") << 320.0 << int(GutterLayout::Check);
        QTest::addRow("past the end") << 335.0 << -1;
    }
    void gutterColumnsWithPressure()
    {
        QFETCH(double, x);
        QFETCH(int, column);
        const GutterLayout layout(10, 3, 4, 4, 7, 1);
        QCOMPARE(layout.width(), 335.0);
        QCOMPARE(layout.columnWidth(GutterLayout::Pressure), 70.0);
        QCOMPARE(layout.columnWidth(GutterLayout::Check), 10.0);
        const auto c = layout.columnAt(x);
        QCOMPARE(c ? int(*c) : -1, column);
        // Without them the columns take no room at all.
        const GutterLayout plain(10, 3, 4);
        QCOMPARE(plain.columnWidth(GutterLayout::Pressure), 0.0);
        QCOMPARE(plain.left(GutterLayout::Marker), 205.0);
    }

    // The strip maps lines like the scroll bar: line 1 on row 0, the last line on the last row;
    // a row's y gives a line drawn on that row (or, with fewer lines than rows, the line whose
    // rows hold it).
    void stripGeometry_data()
    {
        QTest::addColumn<int>("lines");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("row");
        QTest::addRow("first line") << 1000 << 500 << 1 << 0;
        QTest::addRow("last line") << 1000 << 500 << 1000 << 499;
        QTest::addRow("middle") << 1000 << 500 << 501 << 250;
        QTest::addRow("fewer lines, second") << 10 << 500 << 2 << 50;
        QTest::addRow("fewer lines, last") << 10 << 500 << 10 << 450;
        QTest::addRow("one line") << 1 << 300 << 1 << 0;
    }
    void stripGeometry()
    {
        QFETCH(int, lines);
        QFETCH(int, height);
        QFETCH(int, line);
        QFETCH(int, row);
        const StripGeometry g(lines, QRectF(2, 0, 26, height), 100);
        QCOMPARE(g.rows(), height);
        QCOMPARE(g.rowOfLine(line), row);
        QCOMPARE(g.yOfLine(line), row + 0.5);
        // The way back: the line at that row's y is drawn on that row.
        QCOMPARE(g.rowOfLine(g.lineAtY(row + 0.5)), row);
        if (lines <= height)
            QCOMPARE(g.lineAtY(row + 0.5), line);
        QCOMPARE(g.xOfCount(0), 2.0);
        QCOMPARE(g.xOfCount(50), 15.0);
        QCOMPARE(g.xOfCount(200), 28.0); // clamped to the scale
    }

    void heatmapCells_data()
    {
        QTest::addColumn<QPointF>("point");
        QTest::addColumn<int>("lane"); // -1: outside
        QTest::addColumn<int>("bank");
        // Area 348×656 with a 28 px left and 16 px top header: 320×640 for 32 banks × 64 lanes,
        // so cells are 10×10 and cell (lane, bank) starts at (28 + 10·bank, 16 + 10·lane).
        QTest::addRow("first cell") << QPointF(28, 16) << 0 << 0;
        QTest::addRow("lane 3 bank 5") << QPointF(28 + 55, 16 + 35) << 3 << 5;
        QTest::addRow("last cell") << QPointF(28 + 319.9, 16 + 639.9) << 63 << 31;
        QTest::addRow("header") << QPointF(10, 10) << -1 << -1;
        QTest::addRow("below") << QPointF(50, 16 + 641) << -1 << -1;
    }
    void heatmapCells()
    {
        QFETCH(QPointF, point);
        QFETCH(int, lane);
        QFETCH(int, bank);
        const HeatmapGeometry geo(QRectF(0, 0, 348, 656), 64, 32, 28, 16);
        QCOMPARE(geo.cellRect(3, 5), QRectF(78, 46, 10, 10));
        const auto cell = geo.cellAt(point);
        QCOMPARE(cell ? cell->lane : -1, lane);
        QCOMPARE(cell ? cell->bank : -1, bank);
        if (cell)
            QVERIFY(geo.cellRect(cell->lane, cell->bank).contains(point));
    }

    void steps_data()
    {
        QTest::addColumn<std::vector<StepPoint>>("points");
        QTest::addColumn<std::vector<StepPoint>>("steps");
        QTest::addColumn<int>("x");
        QTest::addColumn<std::optional<StepRegion>>("region");
        const std::vector<StepPoint> curve {{1, 10}, {2, 10}, {3, 9}, {4, 9}, {5, 9}, {6, 8}};
        // Changes at x=3 (10→9) and x=6 (9→8): one point per step start, the last point kept.
        const std::vector<StepPoint> steps {{1, 10}, {3, 9}, {6, 8}};
        QTest::addRow("inside a step") << curve << steps << 4 << std::optional(StepRegion {3, 5, 9});
        QTest::addRow("at a step start") << curve << steps << 3 << std::optional(StepRegion {3, 5, 9});
        QTest::addRow("first step") << curve << steps << 2 << std::optional(StepRegion {1, 2, 10});
        QTest::addRow("beyond the end") << curve << steps << 100 << std::optional(StepRegion {6, 6, 8});
        QTest::addRow("before the start") << curve << steps << 0 << std::optional<StepRegion>();
        // A flat curve keeps its ends so the line spans the axis.
        QTest::addRow("flat") << std::vector<StepPoint> {{1, 5}, {2, 5}, {3, 5}} << std::vector<StepPoint> {{1, 5}, {3, 5}} << 2
                              << std::optional(StepRegion {1, 3, 5});
    }
    void steps()
    {
        QFETCH(std::vector<StepPoint>, points);
        QFETCH(std::vector<StepPoint>, steps);
        QFETCH(int, x);
        QFETCH(std::optional<StepRegion>, region);
        QVERIFY(compressSteps(points) == steps);
        const auto r = regionAround(points, x);
        QCOMPARE(r.has_value(), region.has_value());
        if (r) {
            QCOMPARE(r->first, region->first);
            QCOMPARE(r->last, region->last);
            QCOMPARE(r->waves, region->waves);
        }
    }

    void polyline()
    {
        // Each change adds a vertical edge: (3,10) before (3,9) and (6,9) before (6,8).
        const auto line = stepPolyline({{1, 10}, {3, 9}, {6, 8}});
        const std::vector<QPointF> expected {{1, 10}, {3, 10}, {3, 9}, {6, 9}, {6, 8}};
        QCOMPARE(line, expected);
    }
};

QTEST_GUILESS_MAIN(TestUiGeometry)
#include "tst_uigeometry.moc"
