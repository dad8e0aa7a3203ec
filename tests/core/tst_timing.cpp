// SPDX-License-Identifier: MIT
// The timing model (issue #3 section 4), on hand-built programs so every instruction sits at an
// exact offset. Expected values are derived from timing-model.md in the comments beside them.
#include "core/model/timing.h"
#include "programbuilder.h"

#include <QTest>

#include <format>
#include <set>
#include <tuple>

using namespace gcnlens;
using namespace gcnlens::test;

namespace {

int ruleCycles(const InstructionTiming& t, const std::string& rule)
{
    int sum = 0;
    for (const Penalty& p : t.penalties())
        if (p.rule == rule)
            sum += p.cycles;
    return sum;
}

const Penalty* findPenalty(const InstructionTiming& t, const std::string& rule)
{
    for (const Penalty& p : t.penalties())
        if (p.rule == rule)
            return &p;
    return nullptr;
}

QString rulesOf(const InstructionTiming& t)
{
    QStringList rules;
    for (const Penalty& p : t.penalties())
        rules << QStringLiteral("%1:%2").arg(QString::fromStdString(p.rule)).arg(p.cycles);
    return rules.join(QLatin1Char(' '));
}

// The mixed kernel of mixedKernel() (offsets in the comments).
Program mixedKernel(Generation generation = Generation::GFX6)
{
    ProgramBuilder b(generation, 8);
    b.add("s_load_dwordx2", Family::SMRD, 4, {sgpr(2, 2)});               //  0 0x00 slot 0, C 4
    b.add("v_mad_f32", Family::VOP3, 8, {vgpr(1)});                       //  1 0x04 slot 1, C 4
    b.add("v_mul_lo_u32", Family::VOP3, 8, {vgpr(2)});                    //  2 0x0c slot 3, C 16
    b.add("v_mad_f32", Family::VOP3, 8, {vgpr(3)});                       //  3 0x14 slot 5, C 4
    b.add("v_add_f64", Family::VOP3, 8, {vgpr(4)});                       //  4 0x1c slot 7, C 8*4 = 32
    b.add("v_add_i32_e32", Family::VOP2, 4, {vgpr(5), vcc()});            //  5 0x24 slot 1, C 4
    b.add("v_mov_b32_e32", Family::VOP1, 4, {vgpr(6)});                   //  6 0x28 slot 2, C 4
    b.add("s_mov_b32", Family::SOP1, 4, {sgpr(4)});                       //  7 0x2c slot 3, C 4
    b.add("s_cmp_eq_u32", Family::SOPC, 4, {scc()});                      //  8 0x30 slot 4, C 4
    b.jump("s_cbranch_scc1", BranchKind::Conditional, 0x48);              //  9 0x34 slot 5 → 0x48
    b.add("v_mov_b32_e32", Family::VOP1, 8, {vgpr(7)});                   // 10 0x38 slot 6, literal, C 4
    b.add("v_cmp_eq_u32_e32", Family::VOPC, 4, {vcc()});                  // 11 0x40 slot 0, C 4
    b.jump("s_cbranch_vccz", BranchKind::Conditional, 0x14);              // 12 0x44 slot 1 → 0x14 (slot 5)
    b.at(b.add("s_endpgm", Family::SOPP, 4)).branch = BranchKind::Return; // 13 0x48 slot 2
    return b.build();
}

} // namespace

class TestTiming : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ---- section 2: instruction fetch ----

    // A 2-dword v_add_f64 (DPFACTOR*4: DPFACTOR 1, 2, 4, 8 give C = 4, 8, 16, 32) at each slot of
    // block 0x40, after 1-dword fillers so R-pair cannot apply. GFX6/7, long-rule=own-cycles:
    //   R-first16 frees slots 0–2; R-long frees p >= 8 - C/4 when C > 4:
    //   C=4: nothing more → slots 3–7 pay +4;  C=8: slots 6–7 freed → 3–5 pay;
    //   C=16: slots 4–7 freed → 3 pays;        C=32: 8 - 8 = 0 → 3–7 freed.
    // GFX8: no fetch rule at all. GFX9/CDNA: only slot 7 pays (R-straddle), whatever C.
    void fetch_data()
    {
        QTest::addColumn<int>("generation");
        QTest::addColumn<int>("cycles");
        QTest::addColumn<int>("slot");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("penalty");
        QTest::addColumn<QString>("freedBy");
        struct Expect {
            int cycles;
            const char* bySlot[8];
        };
        // "+" = fetch-align +4, "1" = R-first16, "L" = R-long
        const Expect gfx6[] = {
            {4, {"1", "1", "1", "+", "+", "+", "+", "+"}},
            {8, {"1", "1", "1", "+", "+", "+", "L", "L"}},
            {16, {"1", "1", "1", "+", "L", "L", "L", "L"}},
            {32, {"1", "1", "1", "L", "L", "L", "L", "L"}},
        };
        for (const Generation gen : {Generation::GFX6, Generation::GFX7})
            for (const Expect& e : gfx6)
                for (int slot = 0; slot < 8; ++slot) {
                    const QString code = QLatin1String(e.bySlot[slot]);
                    QTest::addRow("%s C=%d slot %d", generationName(gen).data(), e.cycles, slot)
                        << int(gen) << e.cycles << slot << (code == QLatin1String("+") ? "fetch-align" : "")
                        << (code == QLatin1String("+") ? 4 : 0)
                        << (code == QLatin1String("1")       ? "R-first16"
                                : code == QLatin1String("L") ? "R-long"
                                                             : "");
                }
        for (const int cycles : {4, 32})
            for (int slot = 0; slot < 8; ++slot) {
                QTest::addRow("GFX8 C=%d slot %d", cycles, slot) << int(Generation::GFX8) << cycles << slot << "" << 0 << "";
                for (const Generation gen : {Generation::GFX9, Generation::CDNA})
                    QTest::addRow("%s C=%d slot %d", generationName(gen).data(), cycles, slot)
                        << int(gen) << cycles << slot << (slot == 7 ? "fetch-straddle" : "") << (slot == 7 ? 4 : 0) << "";
            }
    }
    void fetch()
    {
        QFETCH(int, generation);
        QFETCH(int, cycles);
        QFETCH(int, slot);
        ProgramBuilder b(Generation(generation), cycles / 4);
        b.fillTo(0x40 + 4 * slot);
        const int i = b.add("v_add_f64", Family::VOP3, 8, {vgpr(0)});
        b.add("s_endpgm", Family::SOPP, 4);
        const Program program = b.build();
        const TimingResult r = analyzeTiming(program);
        const InstructionTiming& t = r.instructions[std::size_t(i)];
        QCOMPARE(fetchPlace(program.instructions[std::size_t(i)]).slot, slot);
        QCOMPARE(fetchPlace(program.instructions[std::size_t(i)]).block, std::uint64_t(0x40));
        QCOMPARE(t.cycles(), cycles);
        QFETCH(QString, rule);
        QFETCH(int, penalty);
        QCOMPARE(t.penaltyCycles(), penalty);
        if (!rule.isEmpty()) {
            QCOMPARE(int(t.penalties().size()), 1);
            QCOMPARE(QString::fromStdString(t.penalties()[0].rule), rule);
            QVERIFY(t.penalties()[0].detail.find(std::format("slot {} of block 0x40", slot)) != std::string::npos);
        }
        QTEST(QString::fromStdString(t.freedBy()), "freedBy");
        QCOMPARE(t.freedDetail().empty(), t.freedBy().empty());
        // The fillers are 1-dword: never charged.
        QCOMPARE(r.totals.penaltyCycles, penalty);
    }

    void fetchDetailText()
    {
        // The issue's own example sentence, for a 4-cycle 2-dword instruction at slot 5 of 0x40.
        ProgramBuilder b(Generation::GFX6, 8);
        b.fillTo(0x54);
        const int i = b.add("v_mad_f32", Family::VOP3, 8);
        const TimingResult r = analyzeTiming(b.build());
        const std::span<const Penalty> penalties = r.instructions[std::size_t(i)].penalties();
        QCOMPARE(int(penalties.size()), 1);
        QCOMPARE(penalties[0].detail,
                 std::string("2-dword instruction at slot 5 of block 0x40: outside the first 16 bytes, not freed by "
                             "its 4 cycles → +4"));
    }

    // A freed instruction can still pay a hazard (R-first16, then valu-salu): the freeing rule
    // and the penalties share one list, and neither reads as the other whichever comes first.
    void freedAndPenalisedShareOneList()
    {
        const auto rules = [](const InstructionTiming& t) {
            std::vector<std::string> out;
            for (const Penalty& p : t.penalties())
                out.push_back(std::string(p.rule) + "+" + std::to_string(p.cycles));
            return out;
        };
        const std::vector<std::string> both {"valu-salu+8", "scc-branch+4"};
        InstructionTiming freedFirst;
        freedFirst.setFreedBy("R-first16", PatternText("inside the first 16 bytes"));
        freedFirst.addPenalty({"valu-salu", 8, PatternText("a")});
        freedFirst.addPenalty({"scc-branch", 4, PatternText("b")});
        QCOMPARE(rules(freedFirst), both);
        QCOMPARE(std::string(freedFirst.freedBy()), std::string("R-first16"));
        QCOMPARE(freedFirst.freedDetail().str(), std::string("inside the first 16 bytes"));
        QCOMPARE(freedFirst.penaltyCycles(), 12);

        InstructionTiming freedLast;
        freedLast.addPenalty({"valu-salu", 8, PatternText("a")});
        freedLast.addPenalty({"scc-branch", 4, PatternText("b")});
        freedLast.setFreedBy("R-pair", PatternText("after J"));
        QCOMPARE(rules(freedLast), both);
        QCOMPARE(std::string(freedLast.freedBy()), std::string("R-pair"));
        QCOMPARE(freedLast.markClass(), PenaltyClass::Hazard);

        InstructionTiming neither;
        QVERIFY(neither.penalties().empty());
        QVERIFY(neither.freedBy().empty());
        QVERIFY(neither.freedDetail().empty());
        const InstructionTiming copied = freedFirst; // copies keep both parts apart too
        QCOMPARE(rules(copied), both);
        QCOMPARE(std::string(copied.freedBy()), std::string("R-first16"));
    }

    void oneDwordNeverPays()
    {
        ProgramBuilder b(Generation::GFX6, 8);
        b.fillTo(0x40); // 16 fillers: slots 0–7 twice
        const TimingResult r = analyzeTiming(b.build());
        QCOMPARE(r.totals.penaltyCycles, 0);
        for (const auto& t : r.instructions)
            QVERIFY(t.freedBy().empty());
    }

    // R-pair: I (2-dword v_mad_f32, C 4) right after J (2-dword). Slots chosen so R-first16 and
    // R-long do not apply to I: I pays unless J is >= 16 cycles and I starts where J ends.
    void pair_data()
    {
        QTest::addColumn<QString>("jMnemonic");
        QTest::addColumn<int>("jSlot");
        QTest::addColumn<int>("iSlot");
        QTest::addColumn<QString>("pairRule");
        QTest::addColumn<int>("iPenalty");
        QTest::addColumn<QString>("iFreedBy");
        // v_mul_lo_u32 is 16 cycles (VOP3 table), v_mad_f32 4, v_mad_u64_u32 16, ds_write_b128 20.
        QTest::addRow("16-cycle J at 2, I at 4") << "v_mul_lo_u32" << 2 << 4 << "adjacent" << 0 << "R-pair";
        QTest::addRow("16-cycle J at 3, I at 5") << "v_mul_lo_u32" << 3 << 5 << "adjacent" << 0 << "R-pair";
        QTest::addRow("20-cycle DS J at 3, I at 5") << "ds_write_b128" << 3 << 5 << "adjacent" << 0 << "R-pair";
        QTest::addRow("4-cycle J at 2, I at 4") << "v_mad_f32" << 2 << 4 << "adjacent" << 4 << "";
        QTest::addRow("4-cycle J at 3, I at 5") << "v_mad_f32" << 3 << 5 << "adjacent" << 4 << "";
        // A 1-dword filler between them: I does not start where J ends.
        QTest::addRow("16-cycle J at 1, gap, I at 4") << "v_mul_lo_u32" << 1 << 4 << "adjacent" << 4 << "";
        // same-quad: J and I must share one aligned 16-byte quad (J at 4, I at 6), else no pair.
        QTest::addRow("same-quad J at 2, I at 4") << "v_mul_lo_u32" << 2 << 4 << "same-quad" << 4 << "";
        QTest::addRow("same-quad J at 3, I at 5") << "v_mul_lo_u32" << 3 << 5 << "same-quad" << 4 << "";
        QTest::addRow("same-quad J at 4, I at 6") << "v_mad_u64_u32" << 4 << 6 << "same-quad" << 0 << "R-pair";
    }
    void pair()
    {
        QFETCH(QString, jMnemonic);
        QFETCH(int, jSlot);
        QFETCH(int, iSlot);
        QFETCH(QString, pairRule);
        ProgramBuilder b(Generation::GFX6, 8);
        b.fillTo(0x40 + 4 * jSlot);
        b.add(jMnemonic.toStdString(), jMnemonic.startsWith(QLatin1String("ds_")) ? Family::DS : Family::VOP3, 8);
        b.fillTo(0x40 + 4 * iSlot);
        const int i = b.add("v_mad_f32", Family::VOP3, 8);
        TimingOptions options;
        QVERIFY(options.set("pair-rule", pairRule.toStdString()).empty());
        const TimingResult r = analyzeTiming(b.build(), options);
        const InstructionTiming& t = r.instructions[std::size_t(i)];
        QTEST(ruleCycles(t, "fetch-align"), "iPenalty");
        QTEST(QString::fromStdString(t.freedBy()), "iFreedBy");
        if (t.freedBy() == "R-pair")
            QVERIFY(t.freedDetail().find(jMnemonic.toStdString()) != std::string::npos);
    }

    // ---- section 3: branches ----

    // B-position: a conditional jump at slot p that falls through pays max(0, p - 3) penalties;
    // taken, it pays none (its targets are at slot 0 here, so B-target adds nothing).
    // Forward jumps are assumed not taken, backward ones taken; the override flips each.
    void branchPosition_data()
    {
        QTest::addColumn<int>("slot");
        QTest::addColumn<bool>("backward");
        QTest::addColumn<bool>("taken");
        QTest::addColumn<int>("penalty");
        for (int slot = 0; slot < 8; ++slot)
            for (const bool backward : {false, true})
                for (const bool taken : {false, true})
                    QTest::addRow("slot %d %s %s", slot, backward ? "backward" : "forward", taken ? "taken" : "not taken")
                        << slot << backward << taken << (taken ? 0 : std::max(0, slot - 3) * 4);
    }
    void branchPosition()
    {
        QFETCH(int, slot);
        QFETCH(bool, backward);
        QFETCH(bool, taken);
        ProgramBuilder b(Generation::GFX6, 8);
        b.fillTo(0x40 + 4 * slot);
        const int j = b.jump("s_cbranch_scc0", BranchKind::Conditional, backward ? 0x00 : 0x80);
        b.fillTo(0x80);
        b.add("s_endpgm", Family::SOPP, 4);
        BranchOverrides overrides;
        // Override only where the static assumption differs, so the test also checks the default.
        if (taken != backward)
            overrides.byLine[b.at(j).line] = taken ? Direction::Taken : Direction::NotTaken;
        const TimingResult r = analyzeTiming(b.build(), {}, overrides);
        const InstructionTiming& t = r.instructions[std::size_t(j)];
        QCOMPARE(t.direction(), taken ? Direction::Taken : Direction::NotTaken);
        QCOMPARE(t.directionOverridden(), taken != backward);
        QCOMPARE(t.cycles(), taken ? 20 : 4); // B-cost: 4 not taken, 20 taken
        QTEST(ruleCycles(t, "branch-position"), "penalty");
        QCOMPARE(ruleCycles(t, "branch-target"), 0);
        QCOMPARE(t.penaltyCycles(), ruleCycles(t, "branch-position"));
    }

    // B-target: a taken jump to slot q pays max(0, q - 4) penalties (slots 5, 6, 7 → 1, 2, 3),
    // forward only by default; the option applies it backward too; a jump not taken pays none.
    // The jump sits at slot 0 so B-position adds nothing.
    void branchTarget_data()
    {
        QTest::addColumn<int>("targetSlot");
        QTest::addColumn<bool>("backward");
        QTest::addColumn<bool>("taken");
        QTest::addColumn<bool>("backwardOption");
        QTest::addColumn<int>("penalty");
        for (int q = 0; q < 8; ++q)
            for (const bool backward : {false, true})
                for (const bool taken : {false, true})
                    for (const bool option : {false, true}) {
                        const bool applies = taken && (!backward || option);
                        QTest::addRow("target slot %d %s %s%s", q, backward ? "backward" : "forward",
                                      taken ? "taken" : "not taken", option ? " +backward option" : "")
                            << q << backward << taken << option << (applies ? std::max(0, q - 4) * 4 : 0);
                    }
    }
    void branchTarget()
    {
        QFETCH(int, targetSlot);
        QFETCH(bool, backward);
        QFETCH(bool, taken);
        QFETCH(bool, backwardOption);
        ProgramBuilder b(Generation::GFX6, 8);
        // backward: target in block 0x20, jump at 0x40; forward: jump at 0x40, target in block 0x60.
        const std::uint64_t target = (backward ? 0x20 : 0x60) + 4 * std::uint64_t(targetSlot);
        b.fillTo(0x40);
        const int j = b.jump("s_cbranch_execz", BranchKind::Conditional, target);
        b.fillTo(0x80);
        BranchOverrides overrides;
        overrides.byLine[b.at(j).line] = taken ? Direction::Taken : Direction::NotTaken;
        TimingOptions options;
        options.backwardBranchTargetPenalty = backwardOption;
        const TimingResult r = analyzeTiming(b.build(), options, overrides);
        const InstructionTiming& t = r.instructions[std::size_t(j)];
        QTEST(ruleCycles(t, "branch-target"), "penalty");
        QCOMPARE(t.penaltyCycles(), ruleCycles(t, "branch-target"));
        if (const Penalty* p = findPenalty(t, "branch-target"))
            QVERIFY(p->detail.find(std::format("slot {}", targetSlot)) != std::string::npos);
    }

    void unconditionalBranch()
    {
        // s_branch is always taken (20 cycles) whatever the override; to slot 6 forward:
        // B-target 6 - 4 = 2 penalties = +8; never B-position, even at slot 7.
        ProgramBuilder b(Generation::GFX6, 8);
        b.fillTo(0x1c);
        const int j = b.jump("s_branch", BranchKind::Unconditional, 0x58);
        b.fillTo(0x60);
        BranchOverrides overrides;
        overrides.byLine[b.at(j).line] = Direction::NotTaken;
        const TimingResult r = analyzeTiming(b.build(), {}, overrides);
        const InstructionTiming& t = r.instructions[std::size_t(j)];
        QCOMPARE(t.direction(), Direction::Taken);
        QCOMPARE(t.cycles(), 20);
        QCOMPARE(rulesOf(t), QStringLiteral("branch-target:8"));
    }

    void branchPlacementOnlyGfx67_data()
    {
        QTest::addColumn<int>("generation");
        QTest::addColumn<int>("penalty");
        // forward jump at slot 7 not taken: 7 - 3 = 4 penalties on GFX6/7 only.
        QTest::addRow("GFX6") << int(Generation::GFX6) << 16;
        QTest::addRow("GFX7") << int(Generation::GFX7) << 16;
        QTest::addRow("GFX8") << int(Generation::GFX8) << 0;
        QTest::addRow("GFX9") << int(Generation::GFX9) << 0;
        QTest::addRow("CDNA") << int(Generation::CDNA) << 0;
    }
    void branchPlacementOnlyGfx67()
    {
        QFETCH(int, generation);
        ProgramBuilder b(Generation(generation), 8);
        b.fillTo(0x1c);
        const int j = b.jump("s_cbranch_vccnz", BranchKind::Conditional, 0x20);
        const TimingResult r = analyzeTiming(b.build());
        QCOMPARE(r.instructions[std::size_t(j)].cycles(), 4); // B-cost applies everywhere
        QTEST(r.instructions[std::size_t(j)].penaltyCycles(), "penalty");
    }

    // ---- section 4: hazards ----

    // H-valu-salu: writer, k 4-cycle fillers, then s_mov_b32. The SALU may issue 16 cycles after
    // the writer completes; k fillers took 4k cycles: shortfall 16 - 4k → 16, 12, 8, 4, 0.
    void valuSalu_data()
    {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("generation");
        QTest::addColumn<QString>("writers");
        QTest::addColumn<int>("between");
        QTest::addColumn<int>("penalty");
        struct W {
            const char* mnemonic;
            Family family;
            Generation generation;
            const char* option;
            bool hazard;
        };
        const W cases[] = {
            {"v_add_i32_e32", Family::VOP2, Generation::GFX6, "listed", true},
            {"v_subrev_i32_e64", Family::VOP3, Generation::GFX7, "listed", true},
            {"v_addc_u32_e32", Family::VOP2, Generation::GFX6, "listed", true},
            {"v_subbrev_u32_e32", Family::VOP2, Generation::GFX6, "listed", true},
            {"v_readlane_b32", Family::VOP2, Generation::GFX6, "listed", true},
            {"v_readfirstlane_b32", Family::VOP1, Generation::GFX7, "listed", true},
            // not listed: a VCC-writing compare pays only under valu-salu-writers=any
            {"v_cmp_eq_u32_e32", Family::VOPC, Generation::GFX6, "listed", false},
            {"v_cmp_eq_u32_e32", Family::VOPC, Generation::GFX6, "any", true},
            // a VALU writing only VGPRs pays under neither
            {"v_mul_f32_e32", Family::VOP2, Generation::GFX6, "any", false},
            // section 4 applies to GFX6/7 only
            {"v_add_u32_e32", Family::VOP2, Generation::GFX8, "listed", false},
            {"v_add_co_u32_e32", Family::VOP2, Generation::GFX9, "listed", false},
        };
        for (const W& w : cases)
            for (int k = 0; k <= 4; ++k)
                QTest::addRow("%s %s %s, %d between", generationName(w.generation).data(), w.mnemonic, w.option, k)
                    << w.mnemonic << int(w.family) << int(w.generation) << w.option << k << (w.hazard ? 16 - 4 * k : 0);
    }
    void valuSalu()
    {
        QFETCH(QString, writer);
        QFETCH(int, family);
        QFETCH(int, generation);
        QFETCH(QString, writers);
        QFETCH(int, between);
        ProgramBuilder b(Generation(generation), 8);
        const bool scalarDef = !writer.startsWith(QLatin1String("v_mul"));
        b.add(writer.toStdString(), Family(family), 4,
              scalarDef ? std::vector<RegRange> {vgpr(1), vcc()} : std::vector<RegRange> {vgpr(1)});
        for (int k = 0; k < between; ++k)
            b.add("v_mov_b32_e32", Family::VOP1, 4, {vgpr(2)});
        const int salu = b.add("s_mov_b32", Family::SOP1, 4, {sgpr(0)});
        const int second = b.add("s_mov_b32", Family::SOP1, 4, {sgpr(1)});
        TimingOptions options;
        QVERIFY(options.set("valu-salu-writers", writers.toStdString()).empty());
        const TimingResult r = analyzeTiming(b.build(), options);
        QTEST(ruleCycles(r.instructions[std::size_t(salu)], "valu-salu"), "penalty");
        QCOMPARE(r.instructions[std::size_t(second)].penaltyCycles(), 0); // only the next SALU waits
        QCOMPARE(r.totals.penaltyCycles, r.instructions[std::size_t(salu)].penaltyCycles());
    }

    void valuSaluSkipsSoppAndSmrd()
    {
        // "the next scalar ALU instruction (SOP1, SOP2, SOPK, SOPC; not SOPP, not SMRD)": a
        // s_load (SMRD, 4) and a s_nop (SOPP, T-nop: s_nop 0 = 4) between do not take the hazard, they
        // only let 8 cycles pass → the s_add_u32 (SOP2) pays 16 - 8 = 8.
        ProgramBuilder b(Generation::GFX6, 8);
        b.add("v_add_i32_e32", Family::VOP2, 4, {vgpr(1), vcc()});
        const int load = b.add("s_load_dword", Family::SMRD, 4, {sgpr(4)});
        const int nop = b.add("s_nop", Family::SOPP, 4);
        const int salu = b.add("s_add_u32", Family::SOP2, 4, {sgpr(0), scc()});
        const TimingResult r = analyzeTiming(b.build());
        QCOMPARE(r.instructions[std::size_t(load)].penaltyCycles(), 0);
        QCOMPARE(r.instructions[std::size_t(nop)].penaltyCycles(), 0);
        QCOMPARE(rulesOf(r.instructions[std::size_t(salu)]), QStringLiteral("valu-salu:8"));
        QCOMPARE(r.instructions[std::size_t(nop)].base()->rule, std::string("T-nop"));
    }

    // T-nop (docs/model.md): s_nop N takes N+1 issue slots of 4 cycles (hazards.md §1: N+1 wait
    // states), at most 8 slots on GFX6/7 and A-nop (16, or 8) on GFX8+. After a v_add_i32 the next
    // SALU waits 16 cycles (H-valu-salu, GFX6/7): the s_nop's cycles count toward them.
    void nopCycles_data()
    {
        QTest::addColumn<int>("generation");
        QTest::addColumn<QString>("operands");
        QTest::addColumn<QString>("nopOption");
        QTest::addColumn<int>("cycles");
        QTest::addColumn<int>("valuSalu");
        const int gfx6 = int(Generation::GFX6), gfx9 = int(Generation::GFX9);
        QTest::addRow("gfx6 s_nop 0") << gfx6 << QStringLiteral("0") << QStringLiteral("16") << 4 << 16 - 4;
        QTest::addRow("gfx6 s_nop 1") << gfx6 << QStringLiteral("1") << QStringLiteral("16") << 8 << 16 - 8;
        QTest::addRow("gfx6 s_nop 0x2") << gfx6 << QStringLiteral("0x2") << QStringLiteral("16") << 12 << 16 - 12;
        QTest::addRow("gfx6 s_nop 3 covers valu-salu") << gfx6 << QStringLiteral("3") << QStringLiteral("16") << 16 << 0;
        QTest::addRow("gfx6 s_nop 15: 8 slots") << gfx6 << QStringLiteral("15") << QStringLiteral("16") << 4 * 8 << 0;
        QTest::addRow("gfx9 s_nop 15: 16 slots") << gfx9 << QStringLiteral("15") << QStringLiteral("16") << 4 * 16 << 0;
        QTest::addRow("gfx9 s_nop 15, A-nop=8") << gfx9 << QStringLiteral("15") << QStringLiteral("8") << 4 * 8 << 0;
        QTest::addRow("gfx9 s_nop 4") << gfx9 << QStringLiteral("4") << QStringLiteral("8") << 4 * 5 << 0;
    }
    void nopCycles()
    {
        QFETCH(int, generation);
        QFETCH(QString, operands);
        QFETCH(QString, nopOption);
        ProgramBuilder b(Generation(generation), 8);
        b.add("v_add_i32_e32", Family::VOP2, 4, {vgpr(1), vcc()});
        const int nop = b.add("s_nop", Family::SOPP, 4);
        b.at(nop).operands = operands.toStdString();
        const int salu = b.add("s_mov_b32", Family::SOP1, 4, {sgpr(0)});
        TimingOptions options;
        QCOMPARE(options.set("A-nop", nopOption.toStdString()), std::string());
        const TimingResult r = analyzeTiming(b.build(), options);
        const InstructionTiming& t = r.instructions[std::size_t(nop)];
        QTEST(t.cycles(), "cycles");
        QCOMPARE(t.base()->rule, std::string("T-nop"));
        QVERIFY(!t.base()->noData && !t.base()->unknown);
        QTEST(ruleCycles(r.instructions[std::size_t(salu)], "valu-salu"), "valuSalu");
    }

    void valuSaluCountsLongInstructions()
    {
        // One 16-cycle v_rcp_f32 between: 16 - 16 = 0 → nothing; one 8-cycle ds_read_b64: +8.
        for (const auto& [between, family, cycles] :
             {std::tuple {"v_rcp_f32_e32", Family::VOP1, 16}, std::tuple {"ds_read_b64", Family::DS, 8}}) {
            ProgramBuilder b(Generation::GFX7, 8);
            b.add("v_readfirstlane_b32", Family::VOP1, 4, {sgpr(3)});
            b.add(between, family, family == Family::DS ? 8 : 4, {vgpr(2)});
            const int salu = b.add("s_cmp_eq_u32", Family::SOPC, 4, {scc()});
            const TimingResult r = analyzeTiming(b.build());
            QCOMPARE(ruleCycles(r.instructions[std::size_t(salu)], "valu-salu"), 16 - cycles);
        }
    }

    // H-vcc-exec-branch and H-scc-branch: one penalty when the jump comes *directly* after the
    // writer (0 between); with 1–4 instructions between, nothing. Taken or not does not matter.
    void branchHazards_data()
    {
        QTest::addColumn<QString>("writer");
        QTest::addColumn<int>("writerFamily");
        QTest::addColumn<QString>("written");
        QTest::addColumn<QString>("branch");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<bool>("taken");
        QTest::addColumn<int>("between");
        QTest::addColumn<int>("penalty");
        struct H {
            const char* writer;
            Family family;
            const char* written;
            const char* branch;
            const char* rule;
            bool hazard;
        };
        const H cases[] = {
            {"v_cmp_lt_f32_e32", Family::VOPC, "vcc", "s_cbranch_vccz", "vcc-exec-branch", true},
            {"v_add_i32_e32", Family::VOP2, "vcc", "s_cbranch_vccnz", "vcc-exec-branch", true},
            {"s_and_saveexec_b64", Family::SOP1, "exec", "s_cbranch_execz", "vcc-exec-branch", true},
            {"v_cmpx_eq_u32_e32", Family::VOPC, "exec", "s_cbranch_execnz", "vcc-exec-branch", true},
            {"s_and_saveexec_b64", Family::SOP1, "exec", "s_cbranch_vccz", "vcc-exec-branch", false}, // wrong flag
            {"s_cmp_eq_u32", Family::SOPC, "scc", "s_cbranch_scc1", "scc-branch", true},
            {"v_cmp_lt_f32_e32", Family::VOPC, "vcc", "s_cbranch_scc0", "scc-branch", true},
            {"s_mov_b64", Family::SOP1, "exec", "s_cbranch_scc0", "scc-branch", true},
            {"s_mov_b32", Family::SOP1, "sgpr", "s_cbranch_scc1", "scc-branch", false},
            {"s_cmp_eq_u32", Family::SOPC, "scc", "s_cbranch_vccz", "vcc-exec-branch", false},
        };
        for (const H& h : cases)
            for (const bool taken : {false, true})
                for (int k = 0; k <= 4; ++k)
                    QTest::addRow("%s after %s, %s, %d between", h.branch, h.writer, taken ? "taken" : "not taken", k)
                        << h.writer << int(h.family) << h.written << h.branch << h.rule << taken << k
                        << (h.hazard && k == 0 ? 4 : 0);
    }
    void branchHazards()
    {
        QFETCH(QString, writer);
        QFETCH(int, writerFamily);
        QFETCH(QString, written);
        QFETCH(QString, branch);
        QFETCH(bool, taken);
        QFETCH(int, between);
        QFETCH(QString, rule);
        std::vector<RegRange> defs {sgpr(10, 2)};
        if (written == QLatin1String("vcc"))
            defs = {vcc()};
        else if (written == QLatin1String("exec"))
            defs = {sgpr(10, 2), exec(), scc()};
        else if (written == QLatin1String("scc"))
            defs = {scc()};
        if (written == QLatin1String("exec") && writer.startsWith(QLatin1String("s_mov")))
            defs = {exec()};
        ProgramBuilder b(Generation::GFX6, 8);
        b.add(writer.toStdString(), Family(writerFamily), 4, defs);
        for (int k = 0; k < between; ++k)
            b.add("v_mov_b32_e32", Family::VOP1, 4, {vgpr(2)});                    // writes none of VCC, EXEC, SCC
        const int j = b.jump(branch.toStdString(), BranchKind::Conditional, 0x40); // slot ≤ 5
        b.fillTo(0x40);
        BranchOverrides overrides;
        overrides.byLine[b.at(j).line] = taken ? Direction::Taken : Direction::NotTaken;
        const TimingResult r = analyzeTiming(b.build(), {}, overrides);
        const InstructionTiming& t = r.instructions[std::size_t(j)];
        QTEST(ruleCycles(t, rule.toStdString()), "penalty");
        // No other hazard rule fires, and the placement rules account for the rest.
        QCOMPARE(t.penaltyCycles(), ruleCycles(t, rule.toStdString()) + ruleCycles(t, "branch-position"));
    }

    void hazardsOnlyGfx67_data()
    {
        QTest::addColumn<int>("generation");
        QTest::addColumn<int>("penalty");
        // v_cmp → s_cbranch_vccz directly (+4), v_add_i32 → s_mov directly (+16): GFX6/7 only.
        QTest::addRow("GFX6") << int(Generation::GFX6) << 20;
        QTest::addRow("GFX7") << int(Generation::GFX7) << 20;
        QTest::addRow("GFX8") << int(Generation::GFX8) << 0;
        QTest::addRow("GFX9") << int(Generation::GFX9) << 0;
        QTest::addRow("CDNA") << int(Generation::CDNA) << 0;
    }
    void hazardsOnlyGfx67()
    {
        QFETCH(int, generation);
        ProgramBuilder b(Generation(generation), 8);
        b.add("v_cmp_lt_f32_e32", Family::VOPC, 4, {vcc()});
        b.jump("s_cbranch_vccz", BranchKind::Conditional, 0x20);
        b.add("v_add_i32_e32", Family::VOP2, 4, {vgpr(0), vcc()});
        b.add("s_mov_b32", Family::SOP1, 4, {sgpr(0)});
        b.fillTo(0x20);
        QTEST(int(analyzeTiming(b.build()).totals.penaltyCycles), "penalty");
    }

    // ---- rule interactions on one kernel, worked by hand ----
    //
    // mixedKernel(), GFX6, DPFACTOR 8 (a 1/16-rate part):
    //  #  off  slot size instruction        C   penalties / freeing rule
    //  0  0x00  0   4  s_load_dwordx2      4   —
    //  1  0x04  1   8  v_mad_f32           4   R-first16 (slot 1 <= 2)
    //  2  0x0c  3   8  v_mul_lo_u32       16   fetch-align +4: slot 3 > 2; R-long needs p >= 8-16/4 = 4;
    //                                          R-pair needs a >= 16-cycle predecessor (v_mad_f32 is 4)
    //  3  0x14  5   8  v_mad_f32           4   R-pair: #2 is 2-dword, 16 cycles, ends at 0x14
    //  4  0x1c  7   8  v_add_f64          32   R-long: DPFACTOR*4 = 32 frees every slot
    //  5  0x24  1   4  v_add_i32_e32       4   (H-valu-salu writer)
    //  6  0x28  2   4  v_mov_b32_e32       4   —
    //  7  0x2c  3   4  s_mov_b32           4   valu-salu: 16 - 4 (one filler between) = +12
    //  8  0x30  4   4  s_cmp_eq_u32        4   — (the hazard was taken by #7)
    //  9  0x34  5   4  s_cbranch_scc1      4   forward → not taken: branch-position 5-3 = 2 → +8;
    //                                          directly after s_cmp (SCC): scc-branch +4
    // 10  0x38  6   8  v_mov_b32_e32 lit   4   fetch-align +4 (slot 6, 4 cycles, predecessor 1-dword)
    // 11  0x40  0   4  v_cmp_eq_u32_e32    4   —
    // 12  0x44  1   4  s_cbranch_vccz     20   backward → taken (20); target 0x14 is slot 5 but
    //                                          B-target is forward-only by default → 0;
    //                                          directly after v_cmp (VCC): vcc-exec-branch +4
    // 13  0x48  2   4  s_endpgm            4   no row: 4, flagged
    // base = 4+4+16+4+32+4+4+4+4+4+4+4+20+4 = 112; penalties = 4+12+8+4+4+4 = 36; single wave 148.
    // hidden (VALU/DS/VMEM C): #1..#6, #10, #11 = 4+16+4+32+4+4+4+4 = 72. bytes 0x48 + 4 = 76.
    // blocks: targets #3 and #13, after branches #9 and #12 → [0,3) [3,10) [10,13) [13,14):
    //   base 24 / 56 / 28 / 4, penalties 4 / 24 / 8 / 0.
    void mixedKernel()
    {
        const TimingResult r = analyzeTiming(::mixedKernel());
        const char* const expected[] = {"",
                                        "",
                                        "fetch-align:4",
                                        "",
                                        "",
                                        "",
                                        "",
                                        "valu-salu:12",
                                        "",
                                        "branch-position:8 scc-branch:4",
                                        "fetch-align:4",
                                        "",
                                        "vcc-exec-branch:4",
                                        ""};
        const char* const freed[] = {"", "R-first16", "", "R-pair", "R-long", "", "", "", "", "", "", "", "", ""};
        const int cycles[] = {4, 4, 16, 4, 32, 4, 4, 4, 4, 4, 4, 4, 20, 4};
        QCOMPARE(int(r.instructions.size()), 14);
        for (int i = 0; i < 14; ++i) {
            QCOMPARE(rulesOf(r.instructions[std::size_t(i)]), QLatin1String(expected[i]));
            QCOMPARE(r.instructions[std::size_t(i)].freedBy(), std::string(freed[i]));
            QCOMPARE(r.instructions[std::size_t(i)].cycles(), cycles[i]);
        }
        QCOMPARE(r.instructions[9].direction(), Direction::NotTaken);
        QCOMPARE(r.instructions[12].direction(), Direction::Taken);
        QCOMPARE(r.totals.instructions, 14);
        QCOMPARE(r.totals.bytes, std::uint64_t(76));
        QCOMPARE(r.totals.baseCycles, 112);
        QCOMPARE(r.totals.penaltyCycles, 36);
        QCOMPARE(r.totals.singleWaveCycles, 148);
        QCOMPARE(r.totals.hiddenCycles, 72);
        QCOMPARE(r.totals.unknownTimings, 1);
        QCOMPARE(r.totals.byRule.at("fetch-align"), 8);
        QCOMPARE(r.totals.countByRule.at("fetch-align"), 2);
        QCOMPARE(r.totals.byRule.at("valu-salu"), 12);
        QCOMPARE(r.totals.byRule.at("branch-position"), 8);
        QCOMPARE(r.totals.byRule.at("scc-branch"), 4);
        QCOMPARE(r.totals.byRule.at("vcc-exec-branch"), 4);
        QCOMPARE(int(r.totals.byRule.size()), 5);
        QCOMPARE(int(r.blocks.size()), 4);
        const int first[] = {0, 3, 10, 13}, end[] = {3, 10, 13, 14};
        const long long base[] = {24, 56, 28, 4}, penalty[] = {4, 24, 8, 0};
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(r.blocks[std::size_t(i)].firstInstruction, first[i]);
            QCOMPARE(r.blocks[std::size_t(i)].endInstruction, end[i]);
            QCOMPARE(r.blocks[std::size_t(i)].totals.baseCycles, base[i]);
            QCOMPARE(r.blocks[std::size_t(i)].totals.penaltyCycles, penalty[i]);
            QCOMPARE(r.blocks[std::size_t(i)].totals.singleWaveCycles, base[i] + penalty[i]);
        }
        QCOMPARE(int(r.kernelTotals.size()), 1);
        QCOMPARE(r.kernelTotals[0].singleWaveCycles, 148);
    }

    // Each generation on the same kernel: GFX7 as GFX6; GFX8 none of sections 2–4; GFX9/CDNA only
    // R-straddle, which charges #4 (2-dword at slot 7); base cycles are the same everywhere.
    void mixedKernelGenerations_data()
    {
        QTest::addColumn<int>("generation");
        QTest::addColumn<int>("penalty");
        QTest::addColumn<QString>("rules");
        QTest::addRow("GFX6") << int(Generation::GFX6) << 36
                              << "branch-position fetch-align scc-branch valu-salu vcc-exec-branch";
        QTest::addRow("GFX7") << int(Generation::GFX7) << 36
                              << "branch-position fetch-align scc-branch valu-salu vcc-exec-branch";
        QTest::addRow("GFX8") << int(Generation::GFX8) << 0 << "";
        QTest::addRow("GFX9") << int(Generation::GFX9) << 4 << "fetch-straddle";
        QTest::addRow("CDNA") << int(Generation::CDNA) << 4 << "fetch-straddle";
    }
    void mixedKernelGenerations()
    {
        QFETCH(int, generation);
        const TimingResult r = analyzeTiming(::mixedKernel(Generation(generation)));
        QCOMPARE(r.totals.baseCycles, 112);
        QTEST(int(r.totals.penaltyCycles), "penalty");
        QStringList rules;
        for (const auto& [rule, cycles] : r.totals.byRule)
            rules << QString::fromStdString(rule);
        QTEST(rules.join(QLatin1Char(' ')), "rules");
        QVERIFY(r.instructions[4].freedBy().empty()
                == (generation != int(Generation::GFX6) && generation != int(Generation::GFX7)));
    }

    // ---- section 9: each option changes what it should ----

    void optionBackwardBranchTarget()
    {
        // #12 of the mixed kernel jumps back to slot 5: 5 - 4 = 1 penalty once the option is on.
        TimingOptions options;
        QVERIFY(options.set("backward-branch-target-penalty", "on").empty());
        const TimingResult r = analyzeTiming(::mixedKernel(), options);
        QCOMPARE(ruleCycles(r.instructions[12], "branch-target"), 4);
        QCOMPARE(r.totals.penaltyCycles, 36 + 4);
    }

    void optionTakenBranchCycles()
    {
        // #12 is the only taken jump: base 112 - 20 + 16 = 108.
        TimingOptions options;
        QVERIFY(options.set("taken-branch-cycles", "16").empty());
        const TimingResult r = analyzeTiming(::mixedKernel(), options);
        QCOMPARE(r.instructions[12].cycles(), 16);
        QCOMPARE(r.instructions[9].cycles(), 4);
        QCOMPARE(r.totals.baseCycles, 108);
    }

    void optionLongRule()
    {
        // A 16-cycle 2-dword at slot 0, fillers, a 4-cycle 2-dword at slot 4. own-cycles: 4 cycles
        // free nothing → +4. whole-block: the block's 16 cycles free slots 8 - 4 = 4..7 → R-long.
        ProgramBuilder b(Generation::GFX6, 8);
        b.add("v_mul_hi_u32", Family::VOP3, 8);
        b.fillTo(0x10);
        const int i = b.add("v_mad_f32", Family::VOP3, 8);
        const Program program = b.build();
        QCOMPARE(ruleCycles(analyzeTiming(program).instructions[std::size_t(i)], "fetch-align"), 4);
        TimingOptions options;
        QVERIFY(options.set("long-rule", "whole-block").empty());
        const InstructionTiming t = analyzeTiming(program, options).instructions[std::size_t(i)];
        QCOMPARE(t.penaltyCycles(), 0);
        QCOMPARE(t.freedBy(), std::string("R-long"));
        QVERIFY(t.freedDetail().find("v_mul_hi_u32") != std::string::npos);
    }

    // pair-rule is covered by pair(); valu-salu-writers by valuSalu(). The occupancy and LDS
    // options (max-waves-override, trap-handler, polaris-max-waves, lds-group) act in issue #4's
    // models; here: they parse, round-trip, reject bad values and do not change the timing.
    void optionsSetAndValues_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<bool>("ok");
        QTest::addRow("bbtp on") << "backward-branch-target-penalty" << "on" << "on" << true;
        QTest::addRow("bbtp true") << "backward-branch-target-penalty" << "true" << "on" << true;
        QTest::addRow("bbtp bad") << "backward-branch-target-penalty" << "maybe" << "" << false;
        QTest::addRow("taken 24") << "taken-branch-cycles" << "24" << "24" << true;
        QTest::addRow("taken bad") << "taken-branch-cycles" << "x" << "" << false;
        QTest::addRow("taken negative") << "taken-branch-cycles" << "-4" << "" << false;
        QTest::addRow("long whole-block") << "long-rule" << "whole-block" << "whole-block" << true;
        QTest::addRow("long bad") << "long-rule" << "short" << "" << false;
        QTest::addRow("pair same-quad") << "pair-rule" << "same-quad" << "same-quad" << true;
        QTest::addRow("writers any") << "valu-salu-writers" << "any" << "any" << true;
        QTest::addRow("max waves 4") << "max-waves-override" << "4" << "4" << true;
        QTest::addRow("max waves 11") << "max-waves-override" << "11" << "" << false;
        QTest::addRow("trap on") << "trap-handler" << "on" << "on" << true;
        QTest::addRow("polaris 10") << "polaris-max-waves" << "10" << "10" << true;
        QTest::addRow("lds-group 16") << "lds-group" << "16" << "16" << true;
        QTest::addRow("lds-phases cdna") << "lds-phases" << "cdna" << "cdna" << true;
        QTest::addRow("lds-phases bad") << "lds-phases" << "rdna" << "" << false;
        QTest::addRow("unknown") << "warp-speed" << "9" << "" << false;
    }
    void optionsSetAndValues()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(bool, ok);
        TimingOptions options;
        const std::string error = options.set(name.toStdString(), value.toStdString());
        QCOMPARE(error.empty(), ok);
        const auto values = options.values();
        // Every section-9 option, lds-phases (docs/model.md), then hazards.md's A-* options.
        QCOMPARE(int(values.size()), 10 + int(CheckOptions {}.values().size()));
        QCOMPARE(values.front().first, std::string("backward-branch-target-penalty"));
        QCOMPARE(values[8].first, std::string("lds-group"));
        QCOMPARE(values[9].first, std::string("lds-phases"));
        if (!ok) {
            QVERIFY(options.nonDefaultValues().empty());
            return;
        }
        const auto changed = options.nonDefaultValues();
        QCOMPARE(int(changed.size()), 1);
        QCOMPARE(QString::fromStdString(changed[0].first), name);
        QTEST(QString::fromStdString(changed[0].second), "shown");
    }

    void occupancyOptionsLeaveTimingAlone()
    {
        TimingOptions options;
        for (const auto& [name, value] :
             {std::pair {"max-waves-override", "2"}, std::pair {"trap-handler", "on"}, std::pair {"polaris-max-waves", "10"},
              std::pair {"lds-group", "8"}, std::pair {"lds-phases", "cdna"}})
            QVERIFY(options.set(name, value).empty());
        QCOMPARE(analyzeTiming(::mixedKernel(), options).totals.singleWaveCycles, 148);
    }

    // ---- section 1 inside the model: DPFACTOR, V_FMA_F32, GLC, ranges, unknowns ----

    void cycleCases_data()
    {
        QTest::addColumn<QString>("mnemonic");
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("dpfactor");
        QTest::addColumn<bool>("glc");
        QTest::addColumn<int>("cycles");
        QTest::addColumn<int>("high");
        QTest::addColumn<int>("penalty"); // at slot 4 of a GFX6 block
        // v_fma_f32 at slot 4: 4 cycles on DP 1/2..1/8 → +4; 16 on 1/16 → R-long frees slot 4.
        QTest::addRow("fma dp1") << "v_fma_f32" << int(Family::VOP3) << 1 << false << 4 << 4 << 4;
        QTest::addRow("fma dp2") << "v_fma_f32" << int(Family::VOP3) << 2 << false << 4 << 4 << 4;
        QTest::addRow("fma dp4") << "v_fma_f32" << int(Family::VOP3) << 4 << false << 4 << 4 << 4;
        QTest::addRow("fma dp8") << "v_fma_f32" << int(Family::VOP3) << 8 << false << 16 << 16 << 0;
        // v_mul_f64 DPFACTOR*8: 8, 16, 32, 64; all > 4 and 8 - C/4 <= 6 → slot 4 freed when C >= 16.
        QTest::addRow("mul_f64 dp1") << "v_mul_f64" << int(Family::VOP3) << 1 << false << 8 << 8 << 4;
        QTest::addRow("mul_f64 dp2") << "v_mul_f64" << int(Family::VOP3) << 2 << false << 16 << 16 << 0;
        QTest::addRow("mul_f64 dp8") << "v_mul_f64" << int(Family::VOP3) << 8 << false << 64 << 64 << 0;
        // 64-bit compare in VOP3 form: DPFACTOR*4.
        QTest::addRow("cmp_f64 dp1") << "v_cmp_lt_f64_e64" << int(Family::VOP3) << 1 << false << 4 << 4 << 4;
        QTest::addRow("cmp_f64 dp4") << "v_cmp_lt_f64_e64" << int(Family::VOP3) << 4 << false << 16 << 16 << 0;
        // MUBUF 16+GLC1: 16 / 17 (both long enough to free slot 4).
        QTest::addRow("atomic no glc") << "buffer_atomic_add" << int(Family::MUBUF) << 8 << false << 16 << 16 << 0;
        QTest::addRow("atomic glc") << "buffer_atomic_add" << int(Family::MUBUF) << 8 << true << 17 << 17 << 0;
        QTest::addRow("load glc no +GLC") << "buffer_load_dword" << int(Family::MUBUF) << 8 << true << 8 << 8 << 4;
        // Range 16-24: the low end counts (16 frees slot 4), both kept.
        QTest::addRow("range") << "s_buffer_load_dwordx16" << int(Family::SMRD) << 8 << false << 16 << 24 << 0;
        // Unknown "?": counted 4 → not long → +4.
        QTest::addRow("unknown") << "ds_gws_init" << int(Family::DS) << 8 << false << 4 << 4 << 4;
    }
    void cycleCases()
    {
        QFETCH(QString, mnemonic);
        QFETCH(int, family);
        QFETCH(int, dpfactor);
        QFETCH(bool, glc);
        ProgramBuilder b(Generation::GFX6, dpfactor);
        b.fillTo(0x10);
        const int i = b.add(mnemonic.toStdString(), Family(family), 8);
        b.at(i).glc = glc;
        const TimingResult r = analyzeTiming(b.build());
        const InstructionTiming& t = r.instructions[std::size_t(i)];
        QTEST(t.cycles(), "cycles");
        QTEST(t.base()->high, "high");
        QTEST(t.penaltyCycles(), "penalty");
        QCOMPARE(r.totals.baseCycles, 4 * 4 + t.cycles()); // 4 fillers of 4 + the low end
        QCOMPARE(r.totals.unknownTimings, t.base()->unknown ? 1 : 0);
    }

    // ---- data words, placeholders, blocks, kernels, overrides ----

    void dataAndPlaceholders()
    {
        // A data word and an 8-byte placeholder take no cycles and pay nothing, even at slot 5;
        // they are transparent to "directly": v_cmp → data → s_cbranch_vccz still pays +4.
        ProgramBuilder b(Generation::GFX6, 8);
        b.fillTo(0x14);
        const int placeholder = b.add("v_bogus", Family::Unknown, 8);
        b.at(placeholder).placeholder = true;
        b.add("v_cmp_lt_f32_e32", Family::VOPC, 4, {vcc()}); // 0x1c
        const int data = b.add(".long", Family::Data, 4);    // 0x20
        b.at(data).isData = true;
        const int j = b.jump("s_cbranch_vccz", BranchKind::Conditional, 0x28); // 0x24 slot 1
        b.add("s_endpgm", Family::SOPP, 4);
        const TimingResult r = analyzeTiming(b.build());
        for (const int i : {placeholder, data}) {
            QCOMPARE(r.instructions[std::size_t(i)].cycles(), 0);
            QVERIFY(r.instructions[std::size_t(i)].penalties().empty());
            QVERIFY(r.instructions[std::size_t(i)].freedBy().empty());
        }
        QCOMPARE(rulesOf(r.instructions[std::size_t(j)]), QStringLiteral("vcc-exec-branch:4"));
        // 5 fillers + placeholder + v_cmp + branch + s_endpgm are instructions; the data word is not.
        QCOMPARE(r.totals.instructions, 9);
        QCOMPARE(r.totals.bytes, std::uint64_t(0x2c));
        QCOMPARE(r.totals.baseCycles, 5 * 4 + 4 + 4 + 4);
    }

    void kernelsAreSeparate()
    {
        // Kernel 1 restarts at offset 0; a hazard does not carry over from kernel 0's last
        // instruction, and each kernel has its own totals.
        ProgramBuilder b(Generation::GFX6, 8);
        b.add("v_add_i32_e32", Family::VOP2, 4, {vgpr(0), vcc()});
        b.addKernel("k1");
        const int salu = b.add("s_mov_b32", Family::SOP1, 4, {sgpr(0)});
        b.add("v_mad_f32", Family::VOP3, 8, {vgpr(1)}, 0x14); // slot 5: +4
        const TimingResult r = analyzeTiming(b.build());
        QCOMPARE(r.instructions[std::size_t(salu)].penaltyCycles(), 0);
        QCOMPARE(int(r.kernelTotals.size()), 2);
        QCOMPARE(r.kernelTotals[0].instructions, 1);
        QCOMPARE(r.kernelTotals[1].instructions, 2);
        QCOMPARE(r.kernelTotals[1].penaltyCycles, 4);
        QCOMPARE(r.blocks.size(), std::size_t(2));
        QCOMPARE(r.blocks[1].kernel, 1);
    }

    void sbranchEndsHazardChain()
    {
        // After s_branch the next instruction in program order is reached from elsewhere: the
        // pending VALU writer does not make it wait.
        ProgramBuilder b(Generation::GFX6, 8);
        b.add("v_add_i32_e32", Family::VOP2, 4, {vgpr(0), vcc()});
        b.jump("s_branch", BranchKind::Unconditional, 0x0c);
        const int salu = b.add("s_mov_b32", Family::SOP1, 4, {sgpr(0)});
        const TimingResult r = analyzeTiming(b.build());
        QCOMPARE(r.instructions[std::size_t(salu)].penaltyCycles(), 0);
    }

    void legend()
    {
        std::set<std::string> ids;
        for (const RuleInfo& info : ruleLegend()) {
            ids.insert(info.id);
            QVERIFY(!info.meaning.empty());
            // The spec's rules cite it; the timing sources are the project's own (docs/model.md).
            QVERIFY(info.source.starts_with("timing-model.md §") || info.source == "docs/model.md " + info.id);
        }
        QCOMPARE(ids,
                 (std::set<std::string> {"fetch-align", "fetch-straddle", "branch-target", "branch-position", "valu-salu",
                                         "vcc-exec-branch", "scc-branch", "R-first16", "R-long", "R-pair", "T-table", "T-mfma",
                                         "T-nop", "T-llvm-sched"}));
    }
};

QTEST_GUILESS_MAIN(TestTiming)
#include "tst_timing.moc"
