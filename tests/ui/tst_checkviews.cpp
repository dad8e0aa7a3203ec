// SPDX-License-Identifier: MIT
// The window's views of the checks and of the pressure peak (issues #16, #17), driven as a user
// would on the offscreen platform over tests/data/checks/views-gfx900.s: the Problems dock lists
// every finding (severity, line, rule, message) with its key, a click jumps to the line, a row's
// menu goes to the producer and lets other code add actions (the fix-its hook); the editor's
// tooltip on a consumer line names the rule, the producer, the waits and the fix; the occupancy
// dock words what the peak costs; every hazards.md §4 option is a selector of the summary dock.
// Expected texts come from core's result.
#include "testutils.h"
#include "ui/docks/occupancydock.h"
#include "ui/docks/problemsmodel.h"
#include "ui/docks/problemsview.h"
#include "ui/docks/summarydock.h"
#include "ui/editor/codeeditor.h"
#include "ui/mainwindow.h"
#include "ui/recovery.h"

#include <QComboBox>
#include <QHelpEvent>
#include <QMenu>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using namespace gcnlens;
using namespace gcnlens::ui;

static const QString kernel = gcnlens::test::testData("data/checks/views-gfx900.s");

class TestCheckViews : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> w;
    QTemporaryDir recoveryDir;

    bool settled() const { return w->bridge()->upToDate(); }
    const Analysis& analysis() const { return w->bridge()->current()->analysis; }
    int rowOf(const QString& rule) const
    {
        for (int r = 0; r < w->problemsModel()->rowCount(); ++r)
            if (w->problemsModel()->index(r, ProblemsModel::RuleColumn).data().toString() == rule)
                return r;
        return -1;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        w = std::make_unique<MainWindow>();
        w->setRecoveryStore(std::make_unique<RecoveryStore>(recoveryDir.path()));
        w->setGpu(QStringLiteral("gfx900"));
        w->resize(1400, 900);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QVERIFY(w->openFile(kernel));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), 20000);
        QVERIFY(!analysis().program.hasErrors());
    }

    void cleanup()
    {
        w->editor()->document()->setModified(false);
        w.reset();
    }

    // Every hazards.md §4 option is a selector of the summary dock, its default first; choosing
    // the other spelling re-analyses with it.
    void checkOptions_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("defaultValue");
        QTest::addColumn<QString>("otherValue");
        for (const CheckOptions::Choice& c : CheckOptions::choices())
            QTest::addRow("%s", c.name.c_str()) << QString::fromStdString(c.name) << QString::fromStdString(c.defaultValue)
                                                << QString::fromStdString(c.otherValue);
    }
    void checkOptions()
    {
        QFETCH(QString, name);
        QFETCH(QString, defaultValue);
        QFETCH(QString, otherValue);
        QComboBox* combo = w->summary()->checkOption(name.toStdString());
        QVERIFY(combo);
        QCOMPARE(combo->count(), 2);
        QCOMPARE(combo->currentData().toString(), defaultValue);
        QVERIFY(combo->currentText().contains(QLatin1String("default")));
        auto valueIn = [&](const TimingOptions& options) {
            for (const auto& [option, value] : options.checks.values())
                if (option == name.toStdString())
                    return QString::fromStdString(value);
            return QString();
        };
        QCOMPARE(valueIn(analysis().timing.options), defaultValue);
        combo->setCurrentIndex(1);
        QTRY_VERIFY_WITH_TIMEOUT(settled() && valueIn(analysis().timing.options) == otherValue, 20000);
        combo->setCurrentIndex(0);
        QTRY_VERIFY_WITH_TIMEOUT(settled() && valueIn(analysis().timing.options) == defaultValue, 20000);
    }

    // One row per finding, worded from core's finding; a click puts the cursor on its line.
    void problemsRows_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addRow("hazard") << QStringLiteral("W-lanesel");
        QTest::addRow("s_waitcnt") << QStringLiteral("W-waitcnt-lgkmcnt");
    }
    void problemsRows()
    {
        QFETCH(QString, rule);
        const CheckResult& checks = analysis().checks;
        QCOMPARE(w->problemsModel()->rowCount(),
                 int(analysis().program.diagnostics.size() + checks.hazards.size() + checks.waits.size()));
        const int row = rowOf(rule);
        QVERIFY(row >= 0);
        ProblemsModel* model = w->problemsModel();
        const FindingKey key = model->index(row, 0).data(ProblemsModel::FindingKeyRole).value<FindingKey>();
        QCOMPARE(key.rule, rule);
        const HazardFinding* h = findHazard(checks, key);
        const WaitcntFinding* wf = findWait(checks, key);
        QVERIFY(h || wf);
        const int line = h ? h->line : wf->line;
        const int producer = h ? h->producerLine : wf->producerLine;
        QCOMPARE(key.instruction, h ? h->instruction : wf->instruction);
        QCOMPARE(model->index(row, ProblemsModel::SeverityColumn).data().toString(), QStringLiteral("warning"));
        QCOMPARE(model->index(row, ProblemsModel::LineColumn).data().toInt(), line);
        QCOMPARE(model->index(row, ProblemsModel::MessageColumn).data().toString(),
                 QString::fromStdString(h ? h->detail : wf->detail.str()));
        QCOMPARE(model->rowOf(key), row);

        // Click: the consumer's line.
        ProblemsView* view = w->problemsView();
        w->editor()->jumpToLine(1);
        const QModelIndex index = model->index(row, ProblemsModel::MessageColumn);
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
        QCOMPARE(w->editor()->currentLine(), line);
        QCOMPARE(view->currentFinding(), key);

        // The row's menu: "Go to producer", then what the hook's receivers add, told the key.
        FindingKey hooked;
        const auto connection =
            connect(view, &ProblemsView::findingMenuRequested, this, [&hooked](const FindingKey& k, QMenu* menu) {
                hooked = k;
                menu->addAction(QStringLiteral("Preview fix"));
            });
        std::unique_ptr<QMenu> menu(view->findingMenu(index, view));
        disconnect(connection);
        QVERIFY(menu);
        QCOMPARE(hooked, key);
        const QList<QAction*> actions = menu->actions();
        QVERIFY(actions.size() >= 3); // + the window's own fix-it entries (ui/fixitpreview.h) before ours
        QCOMPARE(actions.front()->text(), QStringLiteral("Go to producer (line %1)").arg(producer));
        QCOMPARE(actions.back()->text(), QStringLiteral("Preview fix"));
        actions.front()->trigger();
        QCOMPARE(w->editor()->currentLine(), producer);
        // A diagnostic-free file: no menu for a row without a finding would be the other case.
        QVERIFY(!view->findingMenu(QModelIndex(), view));
    }

    // The tooltip over a consumer line: the rule, the producer line, the waits and the fix.
    void editorTooltip()
    {
        const HazardFinding& h = analysis().checks.hazards.at(0);
        CodeEditor* editor = w->editor();
        editor->jumpToLine(h.line);
        const QRectF r = editor->lineRect(h.line);
        const QPoint at(40, int(r.center().y()));
        QHelpEvent help(QEvent::ToolTip, at, editor->viewport()->mapToGlobal(at));
        QApplication::sendEvent(editor->viewport(), &help);
        QVERIFY(QToolTip::isVisible());
        const QString tip = QToolTip::text();
        QVERIFY2(tip.contains(QString::fromStdString(h.rule)), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("producer: line %1").arg(h.producerLine)));
        QVERIFY(tip.contains(QStringLiteral("%1 of %2 wait states").arg(h.present).arg(h.required)));
        QVERIFY(tip.contains(QStringLiteral("fix: %1").arg(QString::fromStdString(h.fix))));
        QToolTip::hideText();
        // The consumer's statement is underlined, and with the cursor on it its producer too.
        int wavy = 0, dashed = 0;
        for (const QTextEdit::ExtraSelection& s : editor->extraSelections()) {
            const int line = s.cursor.blockNumber() + 1;
            wavy += s.format.underlineStyle() == QTextCharFormat::WaveUnderline && line == h.line ? 1 : 0;
            dashed += s.format.underlineStyle() == QTextCharFormat::DashUnderline && line == h.producerLine ? 1 : 0;
        }
        QCOMPARE(wavy, 1);
        QCOMPARE(dashed, 1);
    }

    // The occupancy dock: what the kernel's peaks cost, core's sentences with their rule ids.
    void occupancySentence()
    {
        const Analysis& a = analysis();
        const auto costs = pressureCosts(a.program.gpu, a.occupancyInputs.at(0), a.liveness.kernels.at(0), a.timing.options);
        QVERIFY(!costs.empty());
        const QString shown = w->occupancy()->pressureText();
        // The files where fewer registers would give more waves (here the VGPRs), not the others.
        QVERIFY(std::any_of(costs.begin(), costs.end(), [](const PressureCost& c) { return c.fewer > 0; }));
        for (const PressureCost& cost : costs)
            QCOMPARE(shown.contains(QString::fromStdString(cost.text)), cost.fewer > 0);
        QVERIFY(shown.contains(QStringLiteral("(W_v, peak cost)")));
        QVERIFY(shown.contains(QStringLiteral("the peak at line %1 holds %2 VGPRs")
                                   .arg(a.liveness.kernels[0].vgpr.line)
                                   .arg(a.liveness.kernels[0].vgpr.count)));
    }
};

QTEST_MAIN(TestCheckViews)
#include "tst_checkviews.moc"
