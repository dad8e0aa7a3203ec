// SPDX-License-Identifier: MIT
// LineAnnotations: the per-line numbers the gutter and the bands paint, and the tooltip text that
// is composed on demand from the analysis (timing-model.md section 8 rule ids and details).
#include "ui/editor/annotations.h"

#include "../core/programbuilder.h"

#include <QTest>

using namespace gcnlens;
using namespace gcnlens::ui;
using namespace gcnlens::test;

namespace {

// GFX6, one kernel. Offsets and slots (slot = (offset >> 2) & 7, timing-model.md section 2):
//   line 1  v_mov_b32_e32            4 bytes at 0x00, slot 0
//   line 2  v_add_f32_e32 + literal  8 bytes at 0x04, slot 1: inside the first 16 bytes → R-first16
//   line 3  v_mov_b32_e32 filler     4 bytes at 0x0c, slot 3
//   line 4  v_mov_b32_e32 filler     4 bytes at 0x10, slot 4
//   line 5  v_add_f32_e32 + literal  8 bytes at 0x14, slot 5, 4 cycles: not in the first 16 bytes,
//           its 4 cycles free nothing (R-long needs C > 4), the filler before it is 1 dword (no
//           R-pair) → fetch-align +4
//   line 6  nothing
//   line 7  two instructions charged to one line (a macro's output), 4 + 4 bytes at 0x1c and 0x20
Analysis sample()
{
    ProgramBuilder b;
    b.add("v_mov_b32_e32", Family::VOP1, 4, {vgpr(0)});
    b.add("v_add_f32_e32", Family::VOP2, 8, {vgpr(1)});
    b.fillTo(0x14);
    b.add("v_add_f32_e32", Family::VOP2, 8, {vgpr(2)});
    const int first = b.add("v_mov_b32_e32", Family::VOP1, 4, {vgpr(3)});
    const int second = b.add("s_nop", Family::SOPP, 4);
    b.at(first).line = 7;
    b.at(second).line = 7;
    b.at(second).fromExpansion = true;
    Analysis a;
    a.program = b.build();
    a.timing = analyzeTiming(a.program);
    return a;
}

int indexOnLine(const Analysis& a, int line, int nth = 0)
{
    for (std::size_t i = 0; i < a.program.instructions.size(); ++i)
        if (a.program.instructions[i].line == line && nth-- == 0)
            return int(i);
    return -1;
}

} // namespace

class TestAnnotations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lines_data()
    {
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("instructions");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("slot");
        QTest::addColumn<bool>("fetchPenalty");
        QTest::addColumn<QString>("freedBy");
        QTest::addRow("1: one dword at slot 0") << 1 << 1 << 4 << 0 << false << QString();
        QTest::addRow("2: R-first16") << 2 << 1 << 8 << 1 << false << QStringLiteral("R-first16");
        QTest::addRow("5: fetch-align") << 5 << 1 << 8 << 5 << true << QString();
        QTest::addRow("7: two instructions") << 7 << 2 << 8 << 7 << false << QString();
    }
    void lines()
    {
        QFETCH(int, line);
        QFETCH(int, instructions);
        QFETCH(int, size);
        QFETCH(int, slot);
        QFETCH(bool, fetchPenalty);
        QFETCH(QString, freedBy);
        const Analysis a = sample();
        const LineAnnotations lines = LineAnnotations::build(a);
        const LineAnnotation* at = lines.at(line);
        QVERIFY(at);
        QCOMPARE(at->instructionCount, instructions);
        QCOMPARE(at->size, size);
        QCOMPARE(int(at->position.slot), slot);
        QCOMPARE(at->fetchPenalty, fetchPenalty);
        QCOMPARE(at->markClass(), fetchPenalty ? PenaltyClass::Fetch : PenaltyClass::None);
        QCOMPARE(QString::fromStdString(at->freedBy.str()), freedBy);
        // The gutter's cycles are the sums over the line's instructions.
        int cycles = 0, penalties = 0;
        for (std::size_t i = 0; i < a.program.instructions.size(); ++i)
            if (a.program.instructions[i].line == line) {
                cycles += a.timing.instructions[i].cycles();
                penalties += a.timing.instructions[i].penaltyCycles();
            }
        QCOMPARE(at->cycles, cycles);
        QCOMPARE(at->penaltyCycles, penalties);
        QCOMPARE(at->penaltyCycles, fetchPenalty ? 4 : 0); // section 2: one 4-cycle penalty
    }

    void noAnnotationWithoutInstruction()
    {
        const Analysis a = sample();
        const LineAnnotations lines = LineAnnotations::build(a);
        QVERIFY(!lines.at(0));
        QVERIFY(!lines.at(6));
        QVERIFY(!lines.at(100));
        QVERIFY(lines.tooltip(6, a).isEmpty());
        QVERIFY(lines.tooltip(100, a).isEmpty());
    }

    void linesByRule()
    {
        const Analysis a = sample();
        const LineAnnotations lines = LineAnnotations::build(a);
        QCOMPARE(lines.linesByRule().size(), size_t(1));
        QCOMPARE(lines.linesByRule().at(QStringLiteral("fetch-align")), std::vector<int> {5});
    }

    // The tooltip names each instruction of the line, its cycles, and every rule that charged or
    // saved it with the model's own one-line detail.
    void tooltip_data()
    {
        QTest::addColumn<int>("line");
        QTest::addRow("penalty") << 5;
        QTest::addRow("freed") << 2;
        QTest::addRow("two instructions") << 7;
    }
    void tooltip()
    {
        QFETCH(int, line);
        const Analysis a = sample();
        const LineAnnotations lines = LineAnnotations::build(a);
        const QString tip = lines.tooltip(line, a);
        int count = 0;
        for (int index; (index = indexOnLine(a, line, count)) >= 0; ++count) {
            const Instruction& in = a.program.instructions[size_t(index)];
            const InstructionTiming& t = a.timing.instructions[size_t(index)];
            QVERIFY2(tip.contains(QString::fromStdString(in.mnemonic)), qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("offset 0x%1 · slot %2 · %3 bytes")
                                      .arg(in.offset, 0, 16)
                                      .arg((in.offset >> 2) & 7)
                                      .arg(in.size)),
                     qPrintable(tip));
            QVERIFY2(tip.contains(QStringLiteral("cycles %1").arg(t.cycles())), qPrintable(tip));
            for (const Penalty& p : t.penalties())
                QVERIFY2(tip.contains(QStringLiteral("%1 +%2: %3")
                                          .arg(QString::fromStdString(p.rule))
                                          .arg(p.cycles)
                                          .arg(QString::fromStdString(p.detail))),
                         qPrintable(tip));
            if (!t.freedBy().empty())
                QVERIFY2(tip.contains(QStringLiteral("saved by %1: %2")
                                          .arg(QString::fromStdString(t.freedBy()), QString::fromStdString(t.freedDetail()))),
                         qPrintable(tip));
        }
        QCOMPARE(count, lines.at(line)->instructionCount);
        // One paragraph per instruction, in program order.
        if (count == 2) {
            const QString firstMnemonic =
                QString::fromStdString(a.program.instructions[size_t(indexOnLine(a, line, 0))].mnemonic);
            const QString secondMnemonic =
                QString::fromStdString(a.program.instructions[size_t(indexOnLine(a, line, 1))].mnemonic);
            QVERIFY(tip.indexOf(firstMnemonic) < tip.indexOf(secondMnemonic));
        }
        QCOMPARE(tip.contains(QStringLiteral("fetch-align +4")), line == 5);
        QCOMPARE(tip.contains(QStringLiteral("saved by R-first16")), line == 2);
    }
};

QTEST_GUILESS_MAIN(TestAnnotations)
#include "tst_annotations.moc"
