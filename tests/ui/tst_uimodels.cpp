// SPDX-License-Identifier: MIT
// Every item model of the window under QAbstractItemModelTester (style.md 7), empty, filled and
// reset, plus what their roles return.
#include "ui/docks/occupancycurvemodel.h"
#include "ui/docks/penaltyrulemodel.h"
#include "ui/docks/problemsmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace gcnlens;
using namespace gcnlens::ui;

class TestUiModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void problems()
    {
        ProblemsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setDiagnostics({{Severity::Error, 12, 4, "invalid operand", {}}, {Severity::Warning, 3, 0, "odd", "inc.s:2"}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(ProblemsModel::COLUMN_COUNT));
        QCOMPARE(model.index(0, ProblemsModel::LineColumn).data().toInt(), 12);
        QCOMPARE(model.index(0, 0).data(ProblemsModel::ColumnRole).toInt(), 4);
        QCOMPARE(model.index(1, ProblemsModel::MessageColumn).data().toString(), QStringLiteral("odd (inc.s:2)"));
        QCOMPARE(model.index(1, ProblemsModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
        model.setDiagnostics({});
        QCOMPARE(model.rowCount(), 0);
    }

    void penaltyRules()
    {
        PenaltyRuleModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({{QStringLiteral("fetch-align"), 3, 12, QStringLiteral("a 2-dword instruction not freed"), {20, 21, 37}},
                       {QStringLiteral("valu-salu"), 1, 16, {}, {19}}});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, PenaltyRuleModel::CyclesColumn).data().toLongLong(), 12LL);
        QCOMPARE(model.index(1, PenaltyRuleModel::RuleColumn).data(PenaltyRuleModel::RuleRole).toString(),
                 QStringLiteral("valu-salu"));
        QCOMPARE(model.index(0, 0).data(PenaltyRuleModel::LinesRole).value<QList<int>>(), (QList<int> {20, 21, 37}));
        QVERIFY(model.row(2) == nullptr);
        model.setRows({});
        QCOMPARE(model.rowCount(), 0);
    }

    void curve()
    {
        OccupancyCurveModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        int resets = 0;
        connect(&model, &QAbstractItemModel::modelReset, this, [&] { ++resets; });
        model.setPoints({{1, 10}, {24, 10}, {25, 9}});
        QCOMPARE(resets, 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(2, OccupancyCurveModel::XColumn).data().toDouble(), 25.0);
        QCOMPARE(model.index(2, OccupancyCurveModel::WavesColumn).data().toDouble(), 9.0);
        // The same value again is not a reset (slider drags that leave the curve alone).
        model.setPoints({{1, 10}, {24, 10}, {25, 9}});
        QCOMPARE(resets, 1);
        model.setPoints({});
        QCOMPARE(resets, 2);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestUiModels)
#include "tst_uimodels.moc"
