// SPDX-License-Identifier: MIT
// The per-line view of liveness and checks (ui/findings.h, LineAnnotations): the pressure column's
// values on a kernel with a diamond and a loop (tests/data/checks/views-gfx900.s), the peak line,
// and the words every presenter uses for a hazard or s_waitcnt finding. Expected values come from
// the kernel's construction (16 four-dword loads live at once) or from core's result, never from
// a past run of these views.
#include "testutils.h"
#include "ui/editor/annotations.h"

#include <QTest>

using namespace gcnlens;
using namespace gcnlens::ui;

namespace {

const QString kernelPath = gcnlens::test::testData("data/checks/views-gfx900.s");

Analysis analyzeKernel(const QString& path, const char* gpu = "gfx900")
{
    AnalysisRequest request;
    request.assemble.gpu = gpu;
    request.assemble.fileName = "views-gfx900.s";
    return runAnalysis(gcnlens::test::readFile(path).toStdString(), request);
}

// The 1-based line holding `text` (the first one).
int lineOf(const QString& path, const QString& text)
{
    const QStringList lines = gcnlens::test::readFile(path).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].trimmed() == text)
            return i + 1;
    return 0;
}

} // namespace

class TestFindings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(QFile::exists(kernelPath), qPrintable(kernelPath)); }

    // Lines the pressure column shows: by construction (the loop keeps v0 and v3 live, and each
    // buffer_load_dwordx4 adds four), else the largest of core's counts for the line's instructions.
    void pressureColumn_data()
    {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<int>("vgprs"); // -1: take core's count
        QTest::addRow("first load") << QStringLiteral("buffer_load_dwordx4 v[4:7], v0, s[4:7], 0 offen offset:0") << 2 + 4;
        QTest::addRow("eighth load") << QStringLiteral("buffer_load_dwordx4 v[32:35], v0, s[4:7], 0 offen offset:112")
                                     << 2 + 8 * 4;
        QTest::addRow("last load") << QStringLiteral("buffer_load_dwordx4 v[64:67], v0, s[4:7], 0 offen offset:240")
                                   << 2 + 16 * 4;
        QTest::addRow("diamond, then") << QStringLiteral("v_mov_b32 v3, s10") << -1;
        QTest::addRow("diamond, else") << QStringLiteral("v_mov_b32 v3, s8") << -1;
        QTest::addRow("join") << QStringLiteral("s_mov_b32 s11, 4") << -1;
        QTest::addRow("back edge") << QStringLiteral("s_cbranch_scc1 loop") << -1;
    }
    void pressureColumn()
    {
        QFETCH(QString, statement);
        QFETCH(int, vgprs);
        const Analysis a = analyzeKernel(kernelPath);
        QVERIFY(!a.program.hasErrors());
        const LineAnnotations lines = LineAnnotations::build(a);
        const int line = lineOf(kernelPath, statement);
        QVERIFY2(line > 0, qPrintable(statement));
        const LineAnnotation* annotation = lines.at(line);
        QVERIFY(annotation);
        LiveCounts expected;
        const auto found = a.program.lineToInstructions.find(line);
        QVERIFY(found != a.program.lineToInstructions.end());
        const IndexRun indices = found->second;
        for (const int index : indices) {
            const LiveCounts& c = a.liveness.instructions[std::size_t(index)];
            expected = {std::max(expected.vgpr, c.vgpr), std::max(expected.sgpr, c.sgpr), std::max(expected.agpr, c.agpr), 0};
        }
        if (vgprs >= 0)
            QCOMPARE(int(expected.vgpr), vgprs); // core agrees with the construction
        QCOMPARE(annotation->live, expected);
        QCOMPARE(pressureText(annotation->live, lines.hasAgprs()),
                 QStringLiteral("%1v %2s").arg(expected.vgpr).arg(expected.sgpr));
        QVERIFY(!lines.hasAgprs()); // gfx900 has none
        QVERIFY(lines.tooltip(line, a).contains(QStringLiteral("live: %1 VGPRs").arg(expected.vgpr)));
    }

    // The peak line is marked, and it is where the last load's registers are all live.
    void peakLine()
    {
        const Analysis a = analyzeKernel(kernelPath);
        const LineAnnotations lines = LineAnnotations::build(a);
        const KernelPressure& k = a.liveness.kernels.at(0);
        QCOMPARE(k.vgpr.count, 2 + 16 * 4);
        QCOMPARE(k.vgpr.line, lineOf(kernelPath, QStringLiteral("buffer_load_dwordx4 v[64:67], v0, s[4:7], 0 offen offset:240")));
        QVERIFY(lines.at(k.vgpr.line)->peak & LineAnnotation::PeakVgpr);
        QCOMPARE(lines.maxLive().vgpr, k.vgpr.count);
        QVERIFY(lines.tooltip(k.vgpr.line, a).contains(QStringLiteral("the kernel's VGPR peak")));
        int marked = 0;
        for (int l = 1; l <= lines.lineCount(); ++l)
            marked += lines.at(l) && (lines.at(l)->peak & LineAnnotation::PeakVgpr) ? 1 : 0;
        QCOMPARE(marked, 1);
        // The occupancy sentence: core's text with the rule it applies.
        const QStringList sentences = pressureSentences(a, 0);
        const auto costs = pressureCosts(a.program.gpu, a.occupancyInputs[0], k, a.timing.options);
        QCOMPARE(sentences.size(), qsizetype(costs.size()));
        QVERIFY(sentences.front().startsWith(QString::fromStdString(costs.front().text)));
        QVERIFY(
            sentences.front().contains(QStringLiteral("the peak at line %1 holds %2 VGPRs").arg(k.vgpr.line).arg(k.vgpr.count)));
        QVERIFY(sentences.front().contains(QStringLiteral("W_v")));
    }

    // Each finding as the views word it: rule, producer line, wait states or counter, fix, and
    // "not guaranteed" exactly where core says so; on its line's annotation and tooltip.
    void findingTexts_data()
    {
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("consumer");
        QTest::addColumn<QString>("producer");
        QTest::addRow("W-lanesel") << QStringLiteral("W-lanesel") << QStringLiteral("v_readlane_b32 s10, v2, s9")
                                   << QStringLiteral("v_readfirstlane_b32 s9, v2");
        QTest::addRow("W-waitcnt-lgkmcnt") << QStringLiteral("W-waitcnt-lgkmcnt") << QStringLiteral("v_add_u32_e32 v2, v1, v0")
                                           << QStringLiteral("ds_read_b32 v1, v0");
    }
    void findingTexts()
    {
        QFETCH(QString, rule);
        QFETCH(QString, consumer);
        QFETCH(QString, producer);
        const Analysis a = analyzeKernel(kernelPath);
        const LineAnnotations lines = LineAnnotations::build(a);
        const int line = lineOf(kernelPath, consumer);
        const int producerLine = lineOf(kernelPath, producer);
        const auto on = lines.findingsOn(line);
        QCOMPARE(on.size(), std::size_t(1));
        const FindingView& f = *on.front();
        QCOMPARE(f.key.rule, rule);
        QCOMPARE(f.line, line);
        QCOMPARE(f.producerLine, producerLine);
        QCOMPARE(f.key.instruction, a.program.lineToInstructions.find(line)->second.front());
        QCOMPARE(f.key.producer, a.program.lineToInstructions.find(producerLine)->second.front());
        QCOMPARE(lines.at(line)->findings, quint8(1));
        const QString tip = f.tooltip();
        QVERIFY2(tip.startsWith(rule + QStringLiteral(": ")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("producer: line %1").arg(producerLine)), qPrintable(tip));
        if (const HazardFinding* h = findHazard(a.checks, f.key)) {
            QVERIFY(tip.contains(QStringLiteral("%1 of %2 wait states").arg(h->present).arg(h->required)));
            QVERIFY(tip.contains(QStringLiteral("fix: %1 before line %2").arg(QString::fromStdString(h->fix)).arg(line)));
            QVERIFY(h->required > h->present);
        } else {
            const WaitcntFinding* w = findWait(a.checks, f.key);
            QVERIFY(w);
            QVERIFY(tip.contains(QStringLiteral("needs %1(%2)").arg(QString::fromStdString(w->counter)).arg(w->count)));
            QCOMPARE(tip.contains(QStringLiteral("not guaranteed")), w->notGuaranteed);
            QCOMPARE(f.notGuaranteed, w->notGuaranteed);
            QVERIFY(w->notGuaranteed); // an SMEM and a DS load in flight: lgkm returns out of order
        }
        QVERIFY(lines.tooltip(line, a).contains(tip));
        QVERIFY(lines.findingsOn(producerLine).empty());
    }
};

QTEST_GUILESS_MAIN(TestFindings)
#include "tst_findings.moc"
