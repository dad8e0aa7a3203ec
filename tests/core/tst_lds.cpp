// SPDX-License-Identifier: MIT
// LDS bank conflicts (timing-model.md section 7): strides, broadcast, widths, read2 forms, pattern
// errors, and addresses derived from small kernels. Section 7 in short: bank = (addr >> 2) & 31,
// row = addr >> 7; groups of 32 lanes (1 dword), 16 (2 dwords), 8 (3–4 dwords); a group's degree is
// the most distinct rows one bank serves; cycles = sum of group degrees.
#include "core/asm/assembler.h"
#include "core/model/lds.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

using namespace gcnlens;

namespace {

Instruction ins(const char* mnemonic, const char* operands)
{
    Instruction i;
    i.mnemonic = mnemonic;
    i.operands = operands;
    const std::string m = mnemonic;
    i.family = m.rfind("ds_", 0) == 0 ? Family::DS : m.rfind("s_", 0) == 0 ? Family::SOP1 : Family::VOP2;
    return i;
}

Program programOf(const char* gpuName, std::vector<Instruction> code)
{
    Program p;
    p.gpu = *resolveGpu(gpuName);
    for (std::size_t n = 0; n < code.size(); ++n) {
        code[n].offset = 4 * n;
        code[n].kernel = 0;
    }
    p.instructions = std::move(code);
    Kernel k;
    k.name = "k";
    k.endInstruction = static_cast<int>(p.instructions.size());
    p.kernels.push_back(k);
    return p;
}

// The result for the single DS instruction of a program.
LdsAccessResult onlyDs(const Program& p, const LdsKernelOptions& o = {})
{
    const auto all = analyzeLdsInProgram(p, o);
    if (all.size() != 1)
        qFatal("expected one DS access, got %d", int(all.size()));
    return all.begin()->second;
}

} // namespace

class TestLds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void patterns_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("degree");
        QTest::addColumn<int>("cycles");
        QTest::addColumn<int>("groups");
        // Stride 1 dword: lanes 0–31 hit banks 0–31 once, lanes 32–63 likewise → 2 groups × 1.
        QTest::addRow("stride 1") << "lane*4" << "b32" << 1 << 2 << 2;
        // Stride 2: dwords 0, 2, … 62 in a group → even banks, each holding rows 0 and 1 → degree 2.
        QTest::addRow("stride 2") << "lane*8" << "b32" << 2 << 4 << 2;
        // Stride 32: every lane on bank 0, 32 different rows per group → degree 32, 64 cycles.
        QTest::addRow("stride 32") << "lane*4*32" << "b32" << 32 << 64 << 2;
        // Stride 33: bank = 33·lane mod 32 = lane mod 32 → all distinct → conflict-free.
        QTest::addRow("stride 33") << "lane*4*33" << "b32" << 1 << 2 << 2;
        // Broadcast: all lanes read dword 0 → one row → degree 1.
        QTest::addRow("broadcast") << "0" << "b32" << 1 << 2 << 2;
        QTest::addRow("broadcast quads") << "(lane%4)*4" << "ds_read_b32" << 1 << 2 << 2;
        // Two rows on one bank: lanes alternate between dword 0 and dword 32 → degree 2.
        QTest::addRow("two rows") << "(lane&1)*128" << "b32" << 2 << 4 << 2;
        // Bytes: lanes 0–3 share dword 0 (broadcast), 32 lanes cover dwords 0–7 → degree 1.
        QTest::addRow("b8 packed") << "lane" << "ds_read_u8" << 1 << 2 << 2;
        // b64 stride 8 bytes: 16 lanes × 2 dwords cover dwords 0–31 → 4 groups of degree 1.
        QTest::addRow("b64 stride 2") << "lane*8" << "ds_read_b64" << 1 << 4 << 4;
        // b64 stride 16 bytes: dwords 4L, 4L+1 for 16 lanes span 0–61 → banks 0,1,4,5,… each hit in
        // rows 0 and 1 → degree 2, 4 groups → 8 cycles.
        QTest::addRow("b64 stride 4") << "lane*16" << "b64" << 2 << 8 << 4;
        // b128 stride 16: 8 lanes × 4 dwords = dwords 0–31 → degree 1, 8 groups.
        QTest::addRow("b128 stride 4") << "lane*16" << "ds_write_b128" << 1 << 8 << 8;
        // b128 stride 32 bytes: 8 lanes cover dwords 0–3, 8–11, … 56–59 → banks 0–3, 8–11, … twice → 2.
        QTest::addRow("b128 stride 8") << "lane*32" << "b128" << 2 << 16 << 8;
        // b96 stride 12: 8 lanes × 3 dwords = dwords 0–23 → degree 1, 8 groups.
        QTest::addRow("b96") << "lane*12" << "ds_read_b96" << 1 << 8 << 8;
        // read2_b32 offset1:32: second access 32 elements × 4 = 128 bytes later (dword L + 32) — both
        // conflict-free: 2 accesses × 2 groups = 4 cycles.
        QTest::addRow("read2") << "lane*4" << "ds_read2_b32 offset0:0 offset1:32" << 1 << 4 << 4;
        // read2_b64 offset1:1 on lane*16: each access is "b64 stride 4" → 8 cycles each.
        QTest::addRow("read2 b64") << "lane*16" << "ds_read2_b64 offset1:1" << 2 << 16 << 8;
        // write2st64_b32: offsets ×64 elements; stride 1 dword stays conflict-free.
        QTest::addRow("write2st64") << "lane*4" << "ds_write2st64_b32 offset1:1" << 1 << 4 << 4;
        // Parameters: (lane%16)*stride + (lane/16)*4 with stride = 128: lanes 0–15 of a group on bank
        // 0 (16 rows), 16–31 on bank 1 (16 rows) → degree 16, 2 groups → 32.
        QTest::addRow("parameters") << "(lane%16)*stride + (lane/16)*4" << "4" << 16 << 32 << 2;
    }
    void patterns()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, op);
        QFETCH(int, degree);
        QFETCH(int, cycles);
        QFETCH(int, groups);
        const LdsAccessResult r = analyzeLdsPattern(pattern.toStdString(), op.toStdString(), {{"stride", 128}});
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.degree, degree);
        QCOMPARE(r.cycles, cycles);
        QCOMPARE(int(r.groups.size()), groups);
        QCOMPARE(r.conflictFreeCycles, groups); // degree 1 in every group
        QCOMPARE(int(r.lanes.size()), 64);
        QCOMPARE(int(r.bankLoad.size()), 32);
        QVERIFY(r.allKnown);
    }

    void lanesAndLoad()
    {
        // lane*4*33: lane 5 → byte 660 = dword 165 → bank 165 & 31 = 5, row 660 >> 7 = 5.
        const LdsAccessResult r = analyzeLdsPattern("lane*4*33", "b32", {});
        QCOMPARE(r.lanes[5].address, std::int64_t(660));
        QCOMPARE(r.lanes[5].bank(), 5);
        QCOMPARE(r.lanes[5].row(), std::int64_t(5));
        // Every bank gets one request from each group: 2 over the wave.
        for (int load : r.bankLoad)
            QCOMPARE(load, 2);
        QCOMPARE(r.bankRows[0][5], 1);
        // Stride 32: bank 0 takes all 64 requests.
        const LdsAccessResult s = analyzeLdsPattern("lane*128", "b32", {});
        QCOMPARE(s.bankLoad[0], 64);
        QCOMPARE(s.bankLoad[1], 0);
        QCOMPARE(s.bankRows[1][0], 32);
        QCOMPARE(s.groups[1].firstLane, 32);
        QCOMPARE(s.groups[1].lanes, 32);
        // st64: offset1:1 × 64 elements × 4 bytes = 256 → lane 0's second access at byte 256, row 2.
        const LdsAccessResult t = analyzeLdsPattern("lane*4", "ds_read2st64_b32 offset1:1", {});
        QVERIFY(t.twoAccesses);
        QCOMPARE(t.secondLanes[0].address, std::int64_t(256));
        QCOMPARE(t.secondLanes[0].row(), std::int64_t(2));
        QCOMPARE(t.groupsPerAccess, 2);
        // Option lds-group 16: 1-dword accesses in groups of 16 lanes → 4 groups.
        QCOMPARE(int(analyzeLdsPattern("lane*4", "b32", {}, 16).groups.size()), 4);
    }

    // A result's lanes are kept as a base and interned distances (issue #18): every list reads
    // back as it was made, whatever its form, and equality is by what it reads.
    void laneListKeepsEveryLane_data()
    {
        QTest::addColumn<std::vector<LaneAccess>>("lanes");
        const auto make = [](auto addressOf) {
            std::vector<LaneAccess> lanes(64);
            for (int i = 0; i < 64; ++i) {
                lanes[std::size_t(i)].lane = std::uint8_t(i);
                lanes[std::size_t(i)].dwords = 2;
                if (const std::optional<std::int64_t> address = addressOf(i)) {
                    lanes[std::size_t(i)].known = true;
                    lanes[std::size_t(i)].address = *address;
                }
            }
            return lanes;
        };
        using Address = std::optional<std::int64_t>;
        QTest::addRow("strided") << make([](int i) { return Address(1000 + 8 * i); });
        QTest::addRow("first lanes unknown") << make([](int i) { return i < 3 ? Address() : Address(-40 + 4 * (i % 7)); });
        QTest::addRow("none known") << make([](int) { return Address(); });
        QTest::addRow("distance beyond 32 bits") << make([](int i) { return Address(std::int64_t(i) << 33); });
        QTest::addRow("wrapping") << make([](int i) { return Address(i == 0 ? INT64_MAX : INT64_MIN + i); });
        auto shuffled = make([](int i) { return Address(4 * i); });
        std::swap(shuffled[3], shuffled[9]);
        QTest::addRow("lanes out of order") << shuffled;
        auto mixed = make([](int i) { return Address(4 * i); });
        mixed[5].dwords = 4;
        QTest::addRow("mixed widths") << mixed;
        QTest::addRow("empty") << std::vector<LaneAccess>();
    }
    void laneListKeepsEveryLane()
    {
        QFETCH(std::vector<LaneAccess>, lanes);
        const LaneList list(lanes);
        QCOMPARE(list.size(), lanes.size());
        for (std::size_t i = 0; i < lanes.size(); ++i)
            QVERIFY2(list[i] == lanes[i], std::to_string(i).c_str());
        QVERIFY(std::equal(list.begin(), list.end(), lanes.begin(), lanes.end()));
        QVERIFY(list == LaneList(lanes));
        // The same spacing from another base: a different list.
        std::vector<LaneAccess> moved = lanes;
        for (LaneAccess& a : moved)
            if (a.known)
                a.address = std::int64_t(std::uint64_t(a.address) + 4);
        const bool anyKnown = std::any_of(lanes.begin(), lanes.end(), [](const LaneAccess& a) { return a.known; });
        QCOMPARE(list == LaneList(moved), !anyKnown);
        QVERIFY(std::equal(LaneList(moved).begin(), LaneList(moved).end(), moved.begin(), moved.end()));
    }

    // docs/model.md L-phases: the lanes served together per generation. Pattern "halves": quads
    // 0-3 of each 16-lane quarter use banks 0-15, the quarters 16-31 banks 16-31, each quad its own
    // rows. Consecutive 8-lane groups pair two quads of the same banks (degree 2 everywhere); the
    // CDNA ds_read_b128 groups pair quad q with a quad of the other half (0+5, 1+4, 2+7, 3+6):
    // conflict-free.
    void phases_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("cycles");
        QTest::addColumn<QString>("firstGroup");
        const QString halves = QStringLiteral("((lane >> 4) & 1)*64 + (lane & 3)*16 + ((lane >> 2) & 3)*256");
        QTest::addRow("gfx906 read_b128 halves") << "gfx906" << "auto" << halves << "ds_read_b128" << 16 << "0-7";
        QTest::addRow("gfx90a read_b128 halves") << "gfx90a" << "auto" << halves << "ds_read_b128" << 8 << "0-3, 20-23";
        QTest::addRow("gfx942 read_b128 halves") << "gfx942" << "auto" << halves << "ds_read_b128" << 8 << "0-3, 20-23";
        QTest::addRow("gfx942 forced gcn") << "gfx942" << "gcn" << halves << "ds_read_b128" << 16 << "0-7";
        QTest::addRow("gfx900 forced cdna") << "gfx900" << "cdna" << halves << "ds_read_b128" << 8 << "0-3, 20-23";
        QTest::addRow("gfx90a write_b128 halves") << "gfx90a" << "auto" << halves << "ds_write_b128" << 16 << "0-7";
        QTest::addRow("gfx90a read_b128 linear") << "gfx90a" << "auto" << "lane*16" << "ds_read_b128" << 8 << "0-3, 20-23";
        QTest::addRow("gfx90a write_b128 linear") << "gfx90a" << "auto" << "lane*16" << "ds_write_b128" << 8 << "0-7";
        // 2-dword accesses: 16 consecutive lanes on every generation (no differing public account).
        QTest::addRow("gfx90a read_b64 linear") << "gfx90a" << "auto" << "lane*8" << "ds_read_b64" << 4 << "0-15";
        QTest::addRow("gfx90a read_b64 stride 16") << "gfx90a" << "auto" << "lane*16" << "ds_read_b64" << 8 << "0-15";
        QTest::addRow("gfx906 read_b64 linear") << "gfx906" << "auto" << "lane*8" << "ds_read_b64" << 4 << "0-15";
    }
    void phases()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, option);
        QFETCH(QString, pattern);
        QFETCH(QString, op);
        const auto target = resolveGpu(gpu.toStdString());
        QVERIFY(target.has_value());
        const LdsPhases phases = ldsPhasesFor(target->generation, option.toStdString());
        const LdsAccessResult r = analyzeLdsPattern(pattern.toStdString(), op.toStdString(), {}, 32, phases);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QTEST(r.cycles, "cycles");
        QTEST(QString::fromStdString(laneGroupText(r.groups.front())), "firstGroup");
        // Every lane is served exactly once per access.
        std::vector<int> served(64);
        for (const LaneGroup& g : r.groups)
            for (int lane : g.members)
                ++served[std::size_t(lane)];
        QCOMPARE(served, std::vector<int>(64, 1));
    }

    void patternErrors_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("mentions");
        QTest::addRow("dangling operator") << "lane*" << 5 << "expected";
        QTest::addRow("unknown name") << "lane + foo" << 7 << "foo";
        QTest::addRow("unclosed") << "(lane*4" << 0 << "')'";
        QTest::addRow("bad character") << "lane $ 4" << 5 << "$";
        QTest::addRow("division by zero") << "lane/0" << 4 << "zero";
        QTest::addRow("empty hex") << "0x" << 0 << "digits";
        QTest::addRow("trailing") << "lane 4" << 5 << "4";
        QTest::addRow("empty") << "" << 0 << "empty";
        // Values beyond 64 bits are errors at the number or operator (issue #12: found by fuzz_lds_pattern
        // as signed-overflow UB).
        QTest::addRow("number too large") << "-277777777777777777777777777777779" << 1 << "too large";
        QTest::addRow("product overflows") << "lane * 0x7fffffffffffffff * 2" << 26 << "overflows";
        QTest::addRow("sum overflows") << "0x7fffffffffffffff + lane" << 19 << "overflows";
        QTest::addRow("difference overflows") << "-0x7fffffffffffffff - 2" << 20 << "overflows";
        QTest::addRow("negated minimum") << "-(-0x7fffffffffffffff - 1)" << 0 << "overflows";
        QTest::addRow("minimum / -1") << "(-0x7fffffffffffffff - 1) / -1" << 26 << "overflows";
        QTest::addRow("minimum modulo -1") << "(-0x7fffffffffffffff - 1) % (lane - 1 - lane)" << 26 << "overflows";
    }
    void patternErrors()
    {
        QFETCH(QString, pattern);
        QFETCH(int, column);
        QFETCH(QString, mentions);
        const LdsAccessResult r = analyzeLdsPattern(pattern.toStdString(), "b32", {});
        QVERIFY(!r.error.empty());
        QCOMPARE(r.errorColumn, column);
        QVERIFY2(r.error.find(mentions.toStdString()) != std::string::npos, r.error.c_str());
        QVERIFY(r.groups.empty());
    }

    void arithmetic()
    {
        // Precedence as in C: 1 + 2*3 = 7; (1+2)*3 = 9; 1 << 2 + 1 = 8; 6 & 3 | 8 = 10; -lane.
        std::vector<std::int64_t> v;
        QVERIFY(!evaluateLdsPattern("1 + 2*3", {}, v));
        QCOMPARE(v[0], std::int64_t(7));
        QVERIFY(!evaluateLdsPattern("(1+2)*3", {}, v));
        QCOMPARE(v[0], std::int64_t(9));
        QVERIFY(!evaluateLdsPattern("1 << 2 + 1", {}, v));
        QCOMPARE(v[0], std::int64_t(8));
        QVERIFY(!evaluateLdsPattern("6 & 3 | 8 ^ 1", {}, v));
        QCOMPARE(v[0], std::int64_t((6 & 3) | (8 ^ 1)));
        QVERIFY(!evaluateLdsPattern("-lane + 0x40 % 7 - 17 / 4 >> 0", {}, v));
        QCOMPARE(v[3], std::int64_t((-3 + 0x40 % 7 - 17 / 4) >> 0));
    }

    void badOps()
    {
        QVERIFY(!analyzeLdsPattern("lane*4", "b24", {}).error.empty());
        QVERIFY(!analyzeLdsPattern("lane*4", "ds_swizzle_b32", {}).error.empty());
        QCOMPARE(parseLdsOp("ds_write_b64").addressFirst, true);
        QCOMPARE(parseLdsOp("ds_read_b64").addressFirst, false);
        QCOMPARE(parseLdsOp("ds_add_rtn_u32").addressFirst, false);
        QCOMPARE(parseLdsOp("ds_read_u16_d16_hi").widthBytes, 2);
        QCOMPARE(ldsLanesPerGroup(3), 8);
        // Offsets of any size wrap instead of overflowing (issue #12: signed-overflow UB found by
        // fuzz_lds_pattern); an offset beyond 64 bits is not a number and is ignored like any modifier.
        const LdsAccessResult wrapped = analyzeLdsPattern("lane*4", "ds_read2st64_b64 offset1:0x7fffffffffffffff", {});
        QVERIFY2(wrapped.error.empty(), wrapped.error.c_str());
        QCOMPARE(wrapped.secondLanes[1].address, std::int64_t(4 - 8 * 64)); // (2^63 - 1) * 512 + 4 wraps to 4 - 512
        QCOMPARE(parseLdsOp("ds_read_b32 offset:99999999999999999999").offset, std::int64_t(0));
    }

    void kernels_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("code"); // "mnemonic|operands;…"
        QTest::addColumn<int>("degree");
        QTest::addColumn<int>("cycles");
        QTest::addColumn<int>("lane");
        QTest::addColumn<qint64>("address");
        QTest::addColumn<bool>("known");
        // v1 = v0 << 2 = lane*4 → conflict-free, lane 9 at byte 36.
        QTest::addRow("lshl") << "tahiti" << "v_lshlrev_b32_e32|v1, 2, v0;ds_read_b32|v2, v1" << 1 << 2 << 9 << qint64(36)
                              << true;
        // v_mul_u32_u24 by 132 = lane*33*4 → conflict-free; lane 5 at 660.
        QTest::addRow("stride 33") << "tahiti" << "v_mul_u32_u24_e32|v1, 0x84, v0;ds_write_b32|v1, v2" << 1 << 2 << 5
                                   << qint64(660) << true;
        // lane*128: degree 32.
        QTest::addRow("stride 32") << "tahiti" << "v_lshlrev_b32_e32|v1, 7, v0;ds_read_b32|v2, v1" << 32 << 64 << 1 << qint64(128)
                                   << true;
        // mbcnt lane id idiom (GFX8+) × 8 → b64 stride 2 dwords: 4 groups of degree 1; + offset:8.
        QTest::addRow("mbcnt") << "fiji"
                               << "v_mbcnt_lo_u32_b32|v1, -1, 0;v_mbcnt_hi_u32_b32|v1, -1, v1;v_lshlrev_b32_e32|v1, 3, "
                                  "v1;ds_read_b64|v[2:3], v1 offset:8"
                               << 1 << 4 << 40 << qint64(40 * 8 + 8) << true;
        // GFX8 carry-out form with a kernel argument SGPR: s4 is a uniform unknown → offset 0.
        QTest::addRow("uniform base")
            << "tonga"
            << "s_load_dword|s4, s[0:1], 0x0;v_lshlrev_b32_e32|v1, 2, v0;v_add_u32_e32|v1, vcc, s4, v1;ds_read_b32|v2, v1" << 1
            << 2 << 3 << qint64(12) << true;
        // v_mad_u32_u24 v1, s8, 64, v0: workgroup id × 64 + tid, then × 4 (GFX9 v_lshl_add_u32 with 0).
        QTest::addRow("mad") << "gfx900" << "v_mad_u32_u24|v1, s8, 64, v0;v_lshl_add_u32|v1, v1, 2, 0;ds_read_b32|v2, v1" << 1
                             << 2 << 7 << qint64(28) << true;
        // s_mov constant as an operand: v1 = v0 * s2 (s2 = 8) → stride 2 dwords → degree 2.
        QTest::addRow("s_mov") << "gfx900" << "s_mov_b32|s2, 8;v_mul_lo_u32|v1, v0, s2;ds_read_b32|v2, v1" << 2 << 4 << 2
                               << qint64(16) << true;
        // v_bfe_u32 extracts lane bits [4:2] → (lane >> 2) & 7, × 4 → 8 distinct dwords → broadcast.
        QTest::addRow("bfe") << "gfx900" << "v_bfe_u32|v1, v0, 2, 3;v_lshlrev_b32_e32|v1, 2, v1;ds_read_b32|v2, v1" << 1 << 2
                             << 13 << qint64(((13 >> 2) & 7) * 4) << true;
        // and/or/xor/sub: ((lane & 7) | 8) ^ 1, minus 1, × 128 → 8 lanes-groups in rows (9,8,…)−1 of bank 0.
        QTest::addRow("logic") << "gfx900"
                               << "v_and_b32_e32|v1, 7, v0;v_or_b32_e32|v1, 8, v1;v_xor_b32_e32|v1, 1, v1;v_subrev_u32_e32|v1, "
                                  "1, v1;v_lshlrev_b32_e32|v1, 7, v1;ds_read_b32|v2, v1"
                               << 8 << 16 << 2 << qint64((((2 & 7) | 8) ^ 1) - 1) * 128 << true;
        // A loaded per-lane value makes the address unknown.
        QTest::addRow("unknown") << "gfx900" << "global_load_dword|v1, v[2:3], off;ds_read_b32|v2, v1" << 1 << 2 << 0 << qint64(0)
                                 << false;
        // read2 in a kernel: offset1:32 → lane 1's second access at 4 + 128.
        QTest::addRow("read2") << "tahiti" << "v_lshlrev_b32_e32|v1, 2, v0;ds_read2_b32|v[2:3], v1 offset1:32" << 1 << 4 << 1
                               << qint64(4) << true;
    }
    void kernels()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, code);
        QFETCH(int, degree);
        QFETCH(int, cycles);
        QFETCH(int, lane);
        QFETCH(qint64, address);
        QFETCH(bool, known);
        std::vector<Instruction> instructions;
        for (const QString& line : code.split(QLatin1Char(';'))) {
            const QStringList parts = line.split(QLatin1Char('|'));
            instructions.push_back(ins(parts[0].toLatin1().constData(), parts[1].toLatin1().constData()));
        }
        const LdsAccessResult r = onlyDs(programOf(gpu.toLatin1().constData(), instructions));
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.allKnown, known);
        QCOMPARE(r.lanes[lane].known, known);
        if (known)
            QCOMPARE(r.lanes[lane].address, std::int64_t(address));
        QCOMPARE(r.degree, degree);
        QCOMPARE(r.cycles, cycles);
    }

    void kernelNotes()
    {
        // The uniform base is named in the note.
        const LdsAccessResult r = onlyDs(programOf("tonga",
                                                   {ins("s_load_dword", "s4, s[0:1], 0x0"), ins("v_lshlrev_b32_e32", "v1, 2, v0"),
                                                    ins("v_add_u32_e32", "v1, vcc, s4, v1"), ins("ds_read_b32", "v2, v1")}));
        QVERIFY2(r.note.find("s4") != std::string::npos && r.note.find("offset") != std::string::npos, r.note.c_str());
        // A uniform unknown times a per-lane value is not a common offset: unknown.
        const LdsAccessResult u = onlyDs(programOf("gfx900", {ins("v_mul_lo_u32", "v1, v0, s6"), ins("ds_read_b32", "v2, v1")}));
        QVERIFY(!u.allKnown);
        QVERIFY(!u.lanes[0].known);
    }

    void workgroup2d()
    {
        // 8×8 workgroup on GFX9: v0 = x = lane % 8, v1 = y = lane / 8; address = (y*8 + x)*4 = lane*4.
        LdsKernelOptions o;
        o.workgroupX = 8;
        o.workgroupY = 8;
        const LdsAccessResult r = onlyDs(programOf("gfx900",
                                                   {ins("v_lshlrev_b32_e32", "v2, 3, v1"), ins("v_add_u32_e32", "v2, v2, v0"),
                                                    ins("v_lshlrev_b32_e32", "v2, 2, v2"), ins("ds_read_b32", "v3, v2")}),
                                         o);
        QVERIFY(r.allKnown);
        QCOMPARE(r.lanes[9].address, std::int64_t(36));
        QCOMPARE(r.degree, 1);
        // gfx90a packs x | y << 10 into v0: y = bfe(v0, 10, 10); address = y * 128 → lanes of one row
        // of the workgroup share a dword (broadcast), 4 rows per group → degree 4.
        const LdsAccessResult p = onlyDs(
            programOf("gfx90a",
                      {ins("v_bfe_u32", "v1, v0, 10, 10"), ins("v_lshlrev_b32_e32", "v1, 7, v1"), ins("ds_read_b32", "v2, v1")}),
            o);
        QVERIFY(p.allKnown);
        QCOMPARE(p.lanes[17].address, std::int64_t(2 * 128));
        QCOMPARE(p.degree, 4);
    }

    void assembled_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("degrees"); // per DS instruction, in order
        QTest::addColumn<int>("lane");
        QTest::addColumn<qint64>("lastAddress"); // the last DS access's address for `lane`
        // Through the real front-end (LLVM's printed mnemonics and operands). lane*4 → 1;
        // lane*33*4 → 1; lane*128 + 16 → 32 (all on bank 4), lane 1 at 144.
        QTest::addRow("gfx6")
            << "tahiti"
            << "v_lshlrev_b32 v1, 2, v0\nds_write_b32 v1, v2\nv_mul_u32_u24 v5, 33, v0\n"
               "v_lshlrev_b32 v5, 2, v5\nds_read_b32 v6, v5\nv_lshlrev_b32 v7, 7, v0\nds_read_b32 v8, v7 offset:16\n"
            << "1,1,32" << 1 << qint64(144);
        // GFX9: kernel-argument base s4 plus lane*8 via v_lshl_add_u32, read as b64 → 4 groups of 1;
        // then read2st64_b32 on lane*4 with offset1:2 (2 × 64 × 4 = 512 bytes) → 1. Lane 3: 12 + 512.
        QTest::addRow("gfx9") << "gfx900"
                              << "s_load_dword s4, s[0:1], 0x0\ns_waitcnt lgkmcnt(0)\nv_lshl_add_u32 v1, v0, 3, s4\n"
                                 "ds_read_b64 v[2:3], v1\nv_lshlrev_b32 v4, 2, v0\nds_read2st64_b32 v[6:7], v4 offset1:2\n"
                              << "1,1" << 3 << qint64(12);
    }
    void assembled()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, body);
        QFETCH(QString, degrees);
        QFETCH(int, lane);
        QFETCH(qint64, lastAddress);
        const std::string source = ".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n" + body.toStdString() + "s_endpgm\n";
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        const Program p = assemble(source, options);
        QVERIFY(!p.hasErrors());
        const auto all = analyzeLdsInProgram(p);
        const QStringList expected = degrees.split(QLatin1Char(','));
        QCOMPARE(int(all.size()), int(expected.size()));
        int n = 0;
        for (const auto& [index, r] : all) {
            QVERIFY(p.instructions[index].mnemonic.rfind("ds_", 0) == 0);
            QVERIFY2(r.allKnown, r.note.c_str());
            QCOMPARE(r.degree, expected[n++].toInt());
        }
        int lastIndex = -1;
        for (const auto& entry : all)
            lastIndex = entry.first;
        const LdsAccessResult& last = all.at(lastIndex);
        QCOMPARE(last.lanes[lane].address, std::int64_t(lastAddress));
        if (last.twoAccesses)
            QCOMPARE(last.secondLanes[lane].address, std::int64_t(lastAddress + 512));
    }
};

QTEST_GUILESS_MAIN(TestLds)
#include "tst_lds.moc"
