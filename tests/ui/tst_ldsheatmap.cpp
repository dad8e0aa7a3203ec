// SPDX-License-Identifier: MIT
// The LDS heatmap widget (ui/docks/ldsheatmap.h) on typed patterns: each lane × bank cell holds the
// distinct rows its bank serves in the lane's group (counted here again from the lane addresses,
// timing-model.md section 7), is painted in ldsRowsColor of that count or in the palette's Base
// colour when the lane does not touch the bank, unknown lanes hatched in the palette's Mid colour;
// hovering a cell reports its lane, address, bank and row.
#include "core/model/lds.h"
#include "ui/docks/ldsheatmap.h"
#include "ui/palette.h"

#include <QSignalSpy>
#include <QtTest>

#include <map>
#include <set>

using namespace gcnlens;
using namespace gcnlens::ui;

namespace {

// Distinct rows (address >> 7, per dword) that `bank` serves among the known lanes of `lane`'s group;
// 0 when `lane` itself does not touch the bank.
int expectedRows(const LdsAccessResult& result, int lane, int bank)
{
    const LaneAccess& access = result.lanes[size_t(lane)];
    if (!access.known)
        return 0;
    const auto touches = [bank](const LaneAccess& a, std::int64_t* row) {
        for (int d = 0; d < std::max(1, int(a.dwords)); ++d) {
            const std::int64_t dword = (a.address >> 2) + d;
            if ((dword & 31) == bank) {
                *row = dword >> 5;
                return true;
            }
        }
        return false;
    };
    std::int64_t row = 0;
    if (!touches(access, &row))
        return 0;
    for (const LaneGroup& group : result.groups) {
        if (std::find(group.members.begin(), group.members.end(), lane) == group.members.end())
            continue;
        std::set<std::int64_t> rows;
        for (const int member : group.members)
            if (result.lanes[size_t(member)].known && touches(result.lanes[size_t(member)], &row))
                rows.insert(row);
        return int(rows.size());
    }
    return 1;
}

} // namespace

class TestLdsHeatmap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cells_data();
    void cells();
    void hover_data();
    void hover();
    void errorDrawsNoCells();
};

void TestLdsHeatmap::cells_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("op");
    QTest::addColumn<int>("unknownEvery"); // >0: every n-th lane's address unknown (a kernel's VALU did not tell)

    QTest::addRow("conflict free") << QStringLiteral("lane*4") << QStringLiteral("b32") << 0;
    QTest::addRow("stride 128: one bank") << QStringLiteral("lane*128") << QStringLiteral("b32") << 0;
    QTest::addRow("stride 8: two rows") << QStringLiteral("lane*8") << QStringLiteral("b32") << 0;
    QTest::addRow("b64 spans two banks") << QStringLiteral("lane*8") << QStringLiteral("ds_read_b64") << 0;
    QTest::addRow("b128 with a parameter") << QStringLiteral("lane*S") << QStringLiteral("16") << 0;
    QTest::addRow("broadcast") << QStringLiteral("0") << QStringLiteral("b32") << 0;
    QTest::addRow("unknown lanes") << QStringLiteral("lane*16") << QStringLiteral("b32") << 3;
}

void TestLdsHeatmap::cells()
{
    QFETCH(QString, pattern);
    QFETCH(QString, op);
    QFETCH(int, unknownEvery);

    LdsAccessResult result = analyzeLdsPattern(pattern.toStdString(), op.toStdString(), {{"S", 16}});
    QVERIFY2(result.error.empty(), result.error.c_str());
    if (unknownEvery > 0) {
        std::vector<std::optional<std::int64_t>> bases(64);
        for (int lane = 0; lane < 64; ++lane)
            if (lane % unknownEvery != 0)
                bases[size_t(lane)] = result.lanes[size_t(lane)].address;
        result = analyzeLdsAddresses(parseLdsOp(op.toStdString()), bases);
    }

    LdsHeatmap heatmap;
    QPalette palette = heatmap.palette();
    palette.setColor(QPalette::Base, QColor(0x10, 0x20, 0x30)); // colours come from the widget's palette
    palette.setColor(QPalette::Mid, QColor(0x70, 0x60, 0x50));
    heatmap.setPalette(palette);
    heatmap.resize(heatmap.sizeHint());
    heatmap.setResult(result);
    const QImage image = heatmap.grab().toImage();
    const qreal scale = image.devicePixelRatio();

    int painted = 0;
    for (int lane = 0; lane < 64; ++lane) {
        const bool known = result.lanes[size_t(lane)].known;
        for (int bank = 0; bank < 32; ++bank) {
            const int rows = expectedRows(result, lane, bank);
            QCOMPARE(heatmap.cellRows(lane, bank), rows);
            const QRectF cell = heatmap.geometry().cellRect(lane, bank);
            const QColor centre = image.pixelColor((cell.center() * scale).toPoint());
            if (!known) {
                // The hatch: some pixel of the cell in Mid, none in a rows colour.
                bool hatched = false;
                for (int x = int(cell.left() * scale) + 1; x < int(cell.right() * scale); ++x)
                    for (int y = int(cell.top() * scale) + 1; y < int(cell.bottom() * scale); ++y)
                        hatched = hatched || image.pixelColor(x, y) == palette.color(QPalette::Mid);
                QVERIFY2(hatched, qPrintable(QStringLiteral("lane %1 bank %2").arg(lane).arg(bank)));
            } else if (rows > 0) {
                QCOMPARE(centre, ldsRowsColor(rows));
                ++painted;
            } else {
                QCOMPARE(centre, palette.color(QPalette::Base));
            }
        }
    }
    // Every known lane paints as many cells as the banks it touches.
    int touched = 0;
    for (const LaneAccess& access : result.lanes)
        touched += access.known ? std::max(1, int(access.dwords)) : 0;
    QCOMPARE(painted, touched);
}

void TestLdsHeatmap::hover_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<int>("lane");
    QTest::addColumn<int>("bank");

    QTest::addRow("lane 0 on its bank") << QStringLiteral("lane*4") << 0 << 0;
    QTest::addRow("lane 37 on its bank") << QStringLiteral("lane*4+256") << 37 << 5;
    QTest::addRow("a bank the lane does not touch") << QStringLiteral("lane*4") << 5 << 9;
    QTest::addRow("conflicting lane") << QStringLiteral("lane*128") << 40 << 0;
}

void TestLdsHeatmap::hover()
{
    QFETCH(QString, pattern);
    QFETCH(int, lane);
    QFETCH(int, bank);

    const LdsAccessResult result = analyzeLdsPattern(pattern.toStdString(), "b32", {});
    QVERIFY2(result.error.empty(), result.error.c_str());
    LdsHeatmap heatmap;
    heatmap.resize(heatmap.sizeHint());
    heatmap.setResult(result);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    QSignalSpy spy(&heatmap, &LdsHeatmap::hovered);

    QTest::mouseMove(&heatmap, heatmap.geometry().cellRect(lane, bank).center().toPoint());
    QTRY_COMPARE(spy.count(), 1);
    const QString text = spy.takeFirst().at(0).toString();
    QCOMPARE(text, heatmap.describe(lane, bank));
    const LaneAccess& access = result.lanes[size_t(lane)];
    QVERIFY2(text.startsWith(QStringLiteral("lane %1 · address 0x%2 · bank %3 · row %4")
                                 .arg(lane)
                                 .arg(access.address, 0, 16)
                                 .arg((access.address >> 2) & 31)
                                 .arg(access.address >> 7)),
             qPrintable(text));
    const int rows = expectedRows(result, lane, bank);
    QCOMPARE(text.contains(QStringLiteral(" · bank %1 serves %2 distinct row(s)").arg(bank).arg(rows)), rows > 0);

    // Leaving the widget clears the readout.
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(&heatmap, &leave);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).toString(), QString());
}

// A pattern that does not parse: no cell is painted, and no cell has a readout beyond its lane.
void TestLdsHeatmap::errorDrawsNoCells()
{
    const LdsAccessResult result = analyzeLdsPattern("lane*", "b32", {});
    QVERIFY(!result.error.empty());
    LdsHeatmap heatmap;
    heatmap.resize(heatmap.sizeHint());
    heatmap.setResult(result);
    for (int lane = 0; lane < 64; ++lane)
        for (int bank = 0; bank < 32; ++bank)
            QCOMPARE(heatmap.cellRows(lane, bank), 0);
    QCOMPARE(heatmap.describe(0, 0), QString());
}

QTEST_MAIN(TestLdsHeatmap)
#include "tst_ldsheatmap.moc"
