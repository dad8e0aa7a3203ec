// SPDX-License-Identifier: MIT
// Liveness and pressure (issue #16) on assembled kernels. Each source states what it expects in
// comments on the instruction's line: "; live v2 s1 a0" (the registers that must be allocated
// while it executes, per file; a file left out is not checked) and "; peak v" / "; peak s" /
// "; peak a" where the kernel's peak of that file is first reached.
#include "core/analysis.h"
#include "core/asm/assembler.h"

#include <QTest>

#include <regex>
#include <sstream>

using namespace gcnlens;

Q_DECLARE_METATYPE(std::string)

namespace {

const char* const kAllGpus[] = {"tahiti", "hawaii", "fiji", "gfx900", "gfx908", "gfx90a", "gfx942"};

Analysis analyzeText(const std::string& text, const char* gpu)
{
    AssembleOptions options;
    options.gpu = gpu;
    return analyzeProgram(assemble(text, options), AnalysisRequest {});
}

struct Expectation {
    int line = 0;
    int v = -1, s = -1, a = -1;
    std::string peaks;
};

std::vector<Expectation> expectations(const std::string& text)
{
    std::vector<Expectation> out;
    std::istringstream in(text);
    std::string line;
    const std::regex live(R"(live((?: [vsa]\d+)+))"), item(R"(([vsa])(\d+))"), peak(R"(peak ([vsa]+))");
    for (int n = 1; std::getline(in, line); ++n) {
        Expectation e;
        e.line = n;
        std::smatch m;
        if (std::regex_search(line, m, live)) {
            const std::string items = m[1];
            for (std::sregex_iterator it(items.begin(), items.end(), item), end; it != end; ++it) {
                const int count = std::stoi((*it)[2]);
                const char file = (*it)[1].str()[0];
                (file == 'v' ? e.v : file == 's' ? e.s : e.a) = count;
            }
        }
        if (std::regex_search(line, m, peak))
            e.peaks = m[1];
        if (e.v >= 0 || e.s >= 0 || e.a >= 0 || !e.peaks.empty())
            out.push_back(e);
    }
    return out;
}

} // namespace

class TestLiveness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void kernels_data();
    void kernels();
    void partialTupleKillsOnlyItsRegister();
    void entryLiveAndNotes();
    void longRunOfRegisters();
    void pressureCost();
    void afterEdit_data();
    void afterEdit();
};

// analyzeLivenessAfterEdit (the editor's path) equals a fresh run: one line of a kernel with a
// loop and a diamond replaced by another of the same shape (same CFG and instruction count).
// "loop use gone" is the case a resumed fixpoint gets wrong unless the blocks reaching the edit
// restart: v1 is live around the loop only through the use that goes away.
void TestLiveness::afterEdit_data()
{
    QTest::addColumn<int>("line"); // 1-based line of `base` replaced
    QTest::addColumn<std::string>("text");
    QTest::addRow("loop use gone") << 6 << std::string("  v_add_f32 v2, v3, v3");
    QTest::addRow("loop use added") << 6 << std::string("  v_add_f32 v2, v5, v9");
    // Only growing sets (a read added, nothing else): resumed from the old solution.
    QTest::addRow("loop read grows") << 6 << std::string("  v_add_f32 v2, v1, v9");
    QTest::addRow("def before loop") << 2 << std::string("  v_mov_b32 v4, 0");
    QTest::addRow("def in branch") << 10 << std::string("  v_mov_b32 v7, 1.0");
    QTest::addRow("use after join") << 14 << std::string("  v_add_f32 v6, v8, v1");
    QTest::addRow("sgpr in exit") << 15 << std::string("  s_mov_b32 s9, s4");
    QTest::addRow("same text") << 6 << std::string("  v_add_f32 v2, v1, v3");
}

void TestLiveness::afterEdit()
{
    QFETCH(int, line);
    QFETCH(std::string, text);
    const std::string base = R"(k:
  v_mov_b32 v1, 0
  s_mov_b32 s4, 8
loop:
  v_mov_b32 v3, 1.0
  v_add_f32 v2, v1, v3
  s_sub_u32 s4, s4, 1
  s_cmp_eq_u32 s4, 0
  s_cbranch_scc0 loop
  v_mov_b32 v7, v2
  s_cbranch_vccz join
  v_mov_b32 v8, v7
join:
  v_add_f32 v6, v7, v2
  s_mov_b32 s9, 0
  s_endpgm
)";
    std::vector<std::string> lines;
    std::istringstream in(base);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    std::string edited;
    for (int i = 0; i < int(lines.size()); ++i)
        edited += (i + 1 == line ? text : lines[std::size_t(i)]) + "\n";
    for (const char* gpu : {"tahiti", "gfx900", "gfx90a"}) {
        const Analysis before = analyzeText(base, gpu), after = analyzeText(edited, gpu);
        QVERIFY(!before.program.hasErrors() && !after.program.hasErrors());
        QVERIFY(before.cfg == after.cfg);
        LivenessBlocks blocks;
        const LivenessResult old = analyzeLiveness(before.program, before.cfg, &blocks);
        // The edited instruction: the one on `line`.
        int first = -1;
        for (int i = 0; i < int(after.program.instructions.size()); ++i)
            if (after.program.instructions[std::size_t(i)].line == line)
                first = i;
        QVERIFY(first >= 0);
        int recounted = -1;
        const LivenessResult resumed =
            analyzeLivenessAfterEdit(after.program, after.cfg, old, blocks, first, first + 1, &recounted);
        QCOMPARE(resumed, analyzeLiveness(after.program, after.cfg));
        QVERIFY(recounted >= 1 && recounted <= int(after.cfg.blocks.size()));
        // The kept sets are those of a fresh run, so a second edit resumes from them as well.
        LivenessBlocks fresh;
        analyzeLiveness(after.program, after.cfg, &fresh);
        QVERIFY(blocks.in == fresh.in && blocks.out == fresh.out && blocks.gen == fresh.gen && blocks.kill == fresh.kill);
    }
}

void TestLiveness::kernels_data()
{
    QTest::addColumn<std::string>("source");
    QTest::addColumn<QString>("gpu");
    const std::string straight = R"(k:
  v_mov_b32 v0, 1            ; live v1
  v_mov_b32 v1, 2            ; live v2
  v_mov_b32 v1, 3            ; live v2
  v_add_f32_e32 v2, v0, v1   ; live v3 peak v
  v_mov_b32 v3, v2           ; live v2
  s_endpgm                   ; live v0 s0
)";
    const std::string loop = R"(k:
  v_mov_b32 v0, 0            ; live v2 peak v
  s_mov_b32 s0, 10           ; live v2 s1 peak s
loop:
  v_add_f32_e32 v0, v0, v5   ; live v2 s1
  s_sub_u32 s0, s0, 1        ; live v2 s1
  s_cmp_lg_u32 s0, 0         ; live v2 s1
  s_cbranch_scc1 loop        ; live v2 s1
  v_mov_b32 v1, v0           ; live v2 s0
  s_endpgm                   ; live v0
)";
    const std::string diamond = R"(k:
  v_cmp_gt_f32_e32 vcc, v0, v1 ; live v2 peak v
  s_cbranch_vccz else          ; live v2
  v_mov_b32 v2, v0             ; live v2
  s_branch join                ; live v1
else:
  v_mov_b32 v2, v1             ; live v2
join:
  v_mov_b32 v3, v2             ; live v2
  s_endpgm                     ; live v0
)";
    // Tuples: s_load_dwordx4 writes four SGPRs; only s0 and s2 are read, so s1 and s3 die at once.
    const std::string tuples = R"(k:
  s_load_dwordx4 s[0:3], s[4:5], 0x0  ; live s6 peak s
  s_waitcnt lgkmcnt(0)                ; live s2
  s_add_u32 s6, s0, s2                ; live s3
  v_mov_b32 v0, s6                    ; live s1 v1
  s_endpgm                            ; live s0 v0
)";
    // Read-modify-write operands keep the destination live before them.
    const std::string rmwScalar = R"(k:
  s_mov_b32 s0, 1            ; live s1
  s_mov_b32 s1, 2            ; live s2
  s_mulk_i32 s0, 5           ; live s2
  s_addk_i32 s0, 3           ; live s2
  s_add_u32 s2, s0, s1       ; live s3 peak s
  v_mov_b32 v0, s2           ; live s1
  s_endpgm
)";
    const std::string rmwVector = R"(k:
  v_mov_b32 v0, 1            ; live v1
  v_mov_b32 v1, 2            ; live v2 peak v
  v_mac_f32_e32 v0, v1, v1   ; live v2
  v_mov_b32 v3, v0           ; live v2
  s_endpgm
)";
    std::string rmwFmac = rmwVector; // the same with v_fmac_f32 (gfx90a/gfx942 have no v_mac_f32)
    rmwFmac.replace(rmwFmac.find("v_mac_f32"), 9, "v_fmac_f32");
    // s_cmov writes only when SCC is set: the old value stays live.
    const std::string cmov = R"(k:
  s_mov_b32 s2, 7            ; live s2 peak s
  s_cmp_eq_u32 s0, 0         ; live s2
  s_cmov_b32 s2, 5           ; live s1
  v_mov_b32 v0, s2           ; live s1
  s_endpgm
)";
    const std::string mfma908 = R"(k:
  v_accvgpr_write_b32 a0, 0  ; live a1 v2 peak v
  v_accvgpr_write_b32 a1, 0  ; live a2
  v_accvgpr_write_b32 a2, 0  ; live a3
  v_accvgpr_write_b32 a3, 0  ; live a4 peak a
  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3] ; live a4 v2
  v_accvgpr_read_b32 v2, a1  ; live a1 v1
  s_endpgm                   ; live a0 v0
)";
    for (const char* gpu : kAllGpus) {
        const std::string g = gpu;
        QTest::addRow("straight %s", gpu) << straight << QString::fromLatin1(gpu);
        QTest::addRow("loop %s", gpu) << loop << QString::fromLatin1(gpu);
        QTest::addRow("diamond %s", gpu) << diamond << QString::fromLatin1(gpu);
        QTest::addRow("tuples %s", gpu) << tuples << QString::fromLatin1(gpu);
        QTest::addRow("rmw-scalar %s", gpu) << rmwScalar << QString::fromLatin1(gpu);
        QTest::addRow("cmov %s", gpu) << cmov << QString::fromLatin1(gpu);
        if (g != "gfx90a" && g != "gfx942")
            QTest::addRow("rmw-mac %s", gpu) << rmwVector << QString::fromLatin1(gpu);
        if (g == "gfx908" || g == "gfx90a" || g == "gfx942") // gfx900 has no v_fmac_f32
            QTest::addRow("rmw-fmac %s", gpu) << rmwFmac << QString::fromLatin1(gpu);
        if (g == "gfx908" || g == "gfx90a" || g == "gfx942") // gfx942 spells it v_mfma_f32_4x4x1_16b_f32
            QTest::addRow("mfma-srcc %s", gpu) << mfma908 << QString::fromLatin1(gpu);
    }
}

void TestLiveness::kernels()
{
    QFETCH(std::string, source);
    QFETCH(QString, gpu);
    const Analysis a = analyzeText(source, gpu.toLatin1().constData());
    for (const Diagnostic& d : a.program.diagnostics)
        QVERIFY2(d.severity != Severity::Error, d.message.c_str());
    QCOMPARE(a.liveness.instructions.size(), a.program.instructions.size());
    const auto expected = expectations(source);
    QVERIFY(!expected.empty());
    for (const Expectation& e : expected) {
        const auto found = a.program.lineToInstructions.find(e.line);
        QVERIFY2(found != a.program.lineToInstructions.end(), std::to_string(e.line).c_str());
        const int i = found->second.front();
        const LiveCounts& c = a.liveness.instructions[i];
        const std::string where = "line " + std::to_string(e.line);
        if (e.v >= 0)
            QVERIFY2(c.vgpr == e.v, (where + ": vgpr " + std::to_string(c.vgpr)).c_str());
        if (e.s >= 0)
            QVERIFY2(c.sgpr == e.s, (where + ": sgpr " + std::to_string(c.sgpr)).c_str());
        if (e.a >= 0)
            QVERIFY2(c.agpr == e.a, (where + ": agpr " + std::to_string(c.agpr)).c_str());
        QCOMPARE(a.liveness.kernels.size(), std::size_t(1));
        const KernelPressure& k = a.liveness.kernels[0];
        for (char f : e.peaks) {
            const PressurePeak& p = f == 'v' ? k.vgpr : f == 's' ? k.sgpr : k.agpr;
            QVERIFY2(p.line == e.line, (where + ": peak " + f + " at line " + std::to_string(p.line)).c_str());
        }
    }
}

// A write to one register of a live tuple kills that register only.
void TestLiveness::partialTupleKillsOnlyItsRegister()
{
    const std::string source = R"(k:
  v_mov_b32 v1, 0
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  v_mov_b32 v1, 5
  global_store_dwordx4 v[4:5], v[0:3], off
  s_endpgm
)";
    for (const char* gpu : {"gfx900", "gfx908", "gfx90a", "gfx942"}) {
        const Analysis a = analyzeText(source, gpu);
        QVERIFY(!a.program.hasErrors());
        // At the first v_mov v1: v0 and v[4:5] live from entry, v1 written (then dead: rewritten).
        QCOMPARE(int(a.liveness.instructions[0].vgpr), 4);
        // At v_mov v1, 5: v0, v2, v3, v4, v5 live in, v1 written.
        QCOMPARE(int(a.liveness.instructions[3].vgpr), 6);
        const auto& entry = a.liveness.kernels[0].liveAtEntry;
        QVERIFY(std::find(entry.begin(), entry.end(), RegRange {RegKind::VGPR, 0, 1}) != entry.end());
        QVERIFY(std::find(entry.begin(), entry.end(), RegRange {RegKind::VGPR, 4, 2}) != entry.end());
    }
}

// A set's consecutive registers are one range, however many: v0…v255 read before any write is one
// range of 256 (RegRange's count once had 8 bits, and such a run wrapped to 0).
void TestLiveness::longRunOfRegisters()
{
    std::string source = "k:\n";
    for (int v = 0; v < 256; v += 4)
        source += "  global_store_dwordx4 v[0:1], v[" + std::to_string(v) + ":" + std::to_string(v + 3) + "], off\n";
    source += "  s_endpgm\n";
    const Analysis a = analyzeText(source, "gfx900");
    QVERIFY(!a.program.hasErrors());
    const auto& entry = a.liveness.kernels[0].liveAtEntry;
    const auto run = std::find_if(entry.begin(), entry.end(), [](const RegRange& r) { return r.kind == RegKind::VGPR; });
    QVERIFY(run != entry.end());
    QCOMPARE(int(run->first), 0);
    QCOMPARE(int(run->count), 256);
    QCOMPARE(int(a.liveness.instructions[0].vgpr), 256);
}

void TestLiveness::entryLiveAndNotes()
{
    const std::string source = R"(k:
  s_mov_b64 s[4:5], exec
  v_mov_b32 v0, vcc_hi
  s_swappc_b64 s[30:31], s[0:1]
  v_mov_b32 v1, s4
  s_endpgm
)";
    const Analysis a = analyzeText(source, "gfx900");
    QVERIFY(!a.program.hasErrors());
    const auto& entry = a.liveness.kernels[0].liveAtEntry;
    // vcc_hi alone is the pair's second half.
    QVERIFY(std::find(entry.begin(), entry.end(), RegRange {RegKind::VCC, 1, 1}) != entry.end());
    QVERIFY(std::find(entry.begin(), entry.end(), RegRange {RegKind::EXEC, 0, 2}) != entry.end());
    // The call falls through: s4 stays live across it.
    QVERIFY(a.liveness.instructions[2].sgpr >= 2);
    QVERIFY(a.liveness.instructions[1].special & LiveVcc);
    QVERIFY(!a.liveness.notes.empty());
    QVERIFY(!a.cfg.notes.empty());
}

void TestLiveness::pressureCost()
{
    // 84 VGPRs live at once on gfx900: v[0:83] loaded, then all read.
    std::string source = "k:\n  global_load_dwordx4 v[0:3], v[100:101], off\n";
    for (int v = 4; v < 84; v += 4)
        source += "  global_load_dwordx4 v[" + std::to_string(v) + ":" + std::to_string(v + 3) + "], v[100:101], off\n";
    source += "  s_waitcnt vmcnt(0)\n";
    for (int v = 0; v < 84; v += 4)
        source += "  global_store_dwordx4 v[100:101], v[" + std::to_string(v) + ":" + std::to_string(v + 3) + "], off\n";
    source += "  s_endpgm\n";
    const Analysis a = analyzeText(source, "gfx900");
    QVERIFY(!a.program.hasErrors());
    const KernelPressure& k = a.liveness.kernels[0];
    QCOMPARE(k.vgpr.count, 86);
    const auto costs = pressureCosts(a.program.gpu, a.occupancyInputs[0], k);
    QVERIFY(!costs.empty());
    const PressureCost& v = costs.front();
    QCOMPARE(v.file, std::string("vgpr"));
    // The cost must agree with the occupancy model itself.
    OccupancyInput in = a.occupancyInputs[0];
    in.vgprs = 86;
    QCOMPARE(v.waves, computeOccupancy(a.program.gpu, in).wavesPerSimd);
    QVERIFY(v.fewer > 0);
    in.vgprs = 86 - v.fewer;
    QCOMPARE(v.better, computeOccupancy(a.program.gpu, in).wavesPerSimd);
    in.vgprs = 86 - v.fewer + 1;
    QCOMPARE(computeOccupancy(a.program.gpu, in).wavesPerSimd, v.waves);
    QVERIFY(v.text.find("fewer would give") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestLiveness)
#include "tst_liveness.moc"
