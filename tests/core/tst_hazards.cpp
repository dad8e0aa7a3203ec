// SPDX-License-Identifier: MIT
// Wait-state hazards and s_waitcnt checks (issue #17 section 1, hazards.md). Every row of the
// hazard table with a case that fires (one wait state short) and one that does not (exactly the
// wait states required), per generation where it applies; paths through diamonds and loops; the
// section 4 options; the s_waitcnt model on annotated kernels ("; wait vmcnt(1)", "; wait
// lgkmcnt(0) ng" = not guaranteed).
#include "core/analysis.h"
#include "core/asm/assembler.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <regex>
#include <sstream>

using namespace gcnlens;

Q_DECLARE_METATYPE(std::string)

namespace {

Analysis analyzeText(const std::string& text, const std::string& gpu, const TimingOptions& timing = {})
{
    AssembleOptions options;
    options.gpu = gpu;
    AnalysisRequest request;
    request.timing = timing;
    return analyzeProgram(assemble(text, options), request);
}

std::string errorsOf(const Program& p)
{
    std::string out;
    for (const Diagnostic& d : p.diagnostics)
        if (d.severity == Severity::Error)
            out += std::to_string(d.line) + ": " + d.message + "\n";
    return out;
}

struct Row {
    const char* rule;
    const char* producer;
    const char* consumer;
    std::vector<std::pair<const char*, int>> gpus; // gpu → wait states required there
    // Instructions between the s_nops and the consumer that the rule needs (each 1 wait state).
    const char* between = nullptr;
    // GPUs where the kernel one wait state short must give no finding (other generations).
    std::vector<const char*> never = {};
};

int betweenCount(const Row& row)
{
    return row.between ? 1 + int(std::count(row.between, row.between + std::strlen(row.between), '\n')) : 0;
}

const std::vector<Row>& rows()
{
    static const std::vector<Row> table = {
        {"W-valu-sgpr-vmem",
         "v_readfirstlane_b32 s4, v0",
         "buffer_load_dword v1, v2, s[0:3], s4 offen",
         {{"tahiti", 5}, {"hawaii", 5}, {"fiji", 5}, {"gfx900", 5}, {"gfx908", 5}, {"gfx90a", 5}, {"gfx942", 5}}},
        {"W-valu-sgpr-smrd", "v_readfirstlane_b32 s4, v0", "s_load_dword s6, s[4:5], 0x0", {{"tahiti", 4}}},
        {"W-salu-sbuf", "s_mov_b32 s0, 0", "s_buffer_load_dword s8, s[0:3], 0x0", {{"tahiti", 4}}},
        {"W-vcc-divfmas",
         "v_div_scale_f32 v0, vcc, v1, v1, v2",
         "v_div_fmas_f32 v3, v4, v5, v6",
         {{"tahiti", 4}, {"hawaii", 4}, {"fiji", 4}, {"gfx900", 4}, {"gfx908", 4}, {"gfx90a", 4}, {"gfx942", 4}}},
        {"W-lanesel",
         "v_readfirstlane_b32 s4, v0",
         "v_readlane_b32 s5, v1, s4",
         {{"tahiti", 4}, {"hawaii", 4}, {"fiji", 4}, {"gfx900", 4}, {"gfx908", 4}, {"gfx90a", 4}, {"gfx942", 4}}},
        {"W-setreg-getreg",
         "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
         "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 4)",
         {{"tahiti", 2}, {"hawaii", 2}, {"fiji", 2}, {"gfx900", 2}, {"gfx908", 2}, {"gfx90a", 2}, {"gfx942", 2}}},
        {"W-setreg-setreg",
         "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0",
         "s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s1",
         {{"tahiti", 1}, {"hawaii", 1}, {"fiji", 2}, {"gfx900", 2}, {"gfx908", 2}, {"gfx90a", 2}, {"gfx942", 2}}},
        {"W-vskip",
         "s_setreg_b32 hwreg(HW_REG_MODE, 28, 1), s0",
         "v_mov_b32 v0, v1",
         {{"tahiti", 2}, {"hawaii", 2}, {"fiji", 2}, {"gfx900", 2}, {"gfx908", 2}, {"gfx90a", 2}, {"gfx942", 2}}},
        {"W-rfe",
         "s_setreg_b32 hwreg(HW_REG_TRAPSTS, 0, 4), s0",
         "s_rfe_b64 s[0:1]",
         {{"fiji", 1}, {"gfx900", 1}, {"gfx908", 1}, {"gfx90a", 1}, {"gfx942", 1}}},
        {"W-execz",
         "v_cmp_eq_u32_e32 vcc, v0, v1",
         "v_mov_b32 v2, src_vccz",
         {{"gfx900", 5}, {"gfx908", 5}, {"gfx90a", 5}, {"gfx942", 5}}},
        {"W-m0-msg",
         "s_mov_b32 m0, s0",
         "s_sendmsg sendmsg(MSG_INTERRUPT)",
         {{"tahiti", 1}, {"hawaii", 1}, {"fiji", 1}, {"gfx900", 1}, {"gfx908", 1}, {"gfx90a", 1}, {"gfx942", 1}}},
        {"W-m0-lds", "s_mov_b32 m0, s0", "ds_read_addtid_b32 v0", {{"gfx900", 1}, {"gfx908", 1}, {"gfx90a", 1}, {"gfx942", 1}}},
        {"W-m0-movrel", "s_mov_b32 m0, s0", "s_movrels_b32 s1, s2", {{"gfx900", 1}, {"gfx908", 1}, {"gfx90a", 1}, {"gfx942", 1}}},
        {"W-dpp-vgpr",
         "v_mov_b32 v0, v1",
         "v_mov_b32_dpp v2, v0 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
         {{"fiji", 2}, {"gfx900", 2}, {"gfx908", 2}, {"gfx90a", 2}, {"gfx942", 2}}},
        {"W-dpp-exec",
         "v_cmpx_eq_u32_e32 vcc, v0, v1",
         "v_mov_b32_dpp v2, v3 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf",
         {{"fiji", 5}, {"gfx900", 5}, {"gfx908", 5}, {"gfx90a", 5}, {"gfx942", 5}}},
        {"W-store-data",
         "buffer_store_dwordx4 v[0:3], v4, s[0:3], 0 offen",
         "v_mov_b32 v1, 0",
         {{"tahiti", 1}, {"hawaii", 1}, {"fiji", 1}, {"gfx900", 1}, {"gfx908", 1}, {"gfx90a", 1}, {"gfx942", 2}}},
        {"W-store-data",
         "global_store_dwordx4 v[8:9], v[0:3], off",
         "v_mov_b32 v1, 0",
         {{"gfx900", 1}, {"gfx90a", 1}, {"gfx942", 2}}},
        {"W-valu-sgpr-valu", "v_readfirstlane_b32 s4, v0", "v_add_u32_e64 v1, s4, v2", {{"gfx942", 2}}},
        {"W-exec-lane", "v_cmpx_eq_u32_e32 vcc, v0, v1", "v_readfirstlane_b32 s4, v2", {{"gfx942", 4}}},
        {"W-cmpx-exec", "v_cmpx_eq_u32_e32 vcc, v0, v1", "v_mov_b32 v2, exec_lo", {{"gfx942", 2}}},
        {"W-vgpr-readlane", "v_mov_b32 v0, v1", "v_readfirstlane_b32 s4, v0", {{"gfx942", 1}}},
        {"W-trans", "v_exp_f32_e32 v0, v1", "v_add_f32_e32 v2, v0, v3", {{"gfx942", 1}}},
        {"W-dstsel",
         "v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:WORD_0",
         "v_add_f32_e32 v3, v0, v4",
         {{"gfx942", 1}}},
        {"W-icache", "s_icache_inv", "s_mov_b32 s0, 0", {{"gfx900", 16}, {"gfx908", 16}, {"gfx90a", 16}, {"gfx942", 16}}},
        {"W-vintrp-rl", "v_interp_p1_f32 v0, v1, attr0.x", "v_readfirstlane_b32 s0, v0", {{"tahiti", 1}}},
        {"W-dgemm-fma",
         "v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], 0",
         "v_fma_f64 v[10:11], v[12:13], v[14:15], v[16:17]",
         {{"gfx90a", 2}, {"gfx942", 2}}},
        {"W-90a-dgemm",
         "v_mov_b32 v0, 0",
         "buffer_store_dword v0, v1, s[0:3], 0 offen",
         {{"gfx90a", 2}},
         "v_mfma_f64_4x4x4f64 v[2:3], v[4:5], v[6:7], 0",
         {"gfx942"}},
        {"W-90a-dgemm",
         "v_mov_b32 v0, 0",
         "ds_write_b32 v1, v0",
         {{"gfx90a", 2}},
         "v_mfma_f64_16x16x4f64 v[8:15], v[4:5], v[6:7], 0",
         {"gfx942"}},
        // Soft clauses (XNACK on = xnack+ in the target ID): a load reads what the one before wrote.
        {"W-clause",
         "s_load_dwordx2 s[4:5], s[0:1], 0x0",
         "s_load_dword s6, s[4:5], 0x0",
         {{"carrizo:xnack+", 1}, {"gfx900:xnack+", 1}, {"gfx908:xnack+", 1}, {"gfx90a:xnack+", 1}, {"gfx942:xnack+", 1}},
         nullptr,
         {"gfx900", "gfx900:xnack-", "carrizo", "gfx90a:xnack-", "hawaii"}},
        // A load overwriting its own address in a clause.
        {"W-clause",
         "s_load_dword s8, s[2:3], 0x0",
         "s_load_dwordx2 s[0:1], s[0:1], 0x0",
         {{"gfx900:xnack+", 1}, {"gfx942:xnack+", 1}},
         nullptr,
         {"gfx900:xnack-"}},
        {"W-clause",
         "buffer_load_dword v1, v2, s[0:3], 0 offen",
         "buffer_load_dword v3, v1, s[0:3], 0 offen",
         {{"carrizo:xnack+", 1}, {"gfx900:xnack+", 1}, {"gfx908:xnack+", 1}, {"gfx90a:xnack+", 1}, {"gfx942:xnack+", 1}},
         nullptr,
         {"gfx908", "gfx942:xnack-", "tahiti"}},
        // A store joins no clause that writes registers, related or not.
        {"W-clause",
         "global_load_dword v1, v[2:3], off",
         "global_store_dword v[4:5], v6, off",
         {{"gfx900:xnack+", 1}, {"gfx90a:xnack+", 1}},
         nullptr,
         {"gfx900:xnack-"}},
        // §2b MFMA rows.
        {"W-mai-valu-vgpr",
         "v_mov_b32 v0, 1.0",
         "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]",
         {{"gfx908", 2}, {"gfx90a", 2}, {"gfx942", 2}}},
        {"W-mai-valu-vgpr", "v_mov_b32 v0, 1.0", "v_accvgpr_write_b32 a0, v0", {{"gfx908", 2}}},
        {"W-mai-exec",
         "v_cmpx_eq_u32_e32 vcc, v5, v6",
         "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]",
         {{"gfx908", 4}, {"gfx90a", 4}, {"gfx942", 4}}},
        {"W-mai-srcc-exact",
         "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]",
         "v_mfma_f32_4x4x4f16 a[0:3], v[0:1], v[2:3], a[0:3]",
         {{"gfx942", 2}}},
        {"W-mai-srcc-exact",
         "v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], v[0:1]",
         "v_mfma_f64_4x4x4f64 v[0:1], v[2:3], v[4:5], v[0:1]",
         {{"gfx90a", 4}, {"gfx942", 4}}},
        {"W-mai-srcc-overlap",
         "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]",
         "v_mfma_f32_4x4x1f32 a[2:5], v0, v1, a[2:5]",
         {{"gfx908", 2}, {"gfx90a", 2}, {"gfx942", 2}}},
        {"W-mai-srcc-overlap",
         "v_mfma_f32_16x16x1f32 a[0:15], v0, v1, a[0:15]",
         "v_mfma_f32_16x16x1f32 a[8:23], v0, v1, a[8:23]",
         {{"gfx908", 2}, {"gfx90a", 8}, {"gfx942", 8}}},
        {"W-mai-srcc-overlap",
         "v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]",
         "v_mfma_f32_16x16x16f16 a[2:5], v[0:1], v[2:3], a[2:5]",
         {{"gfx942", 5}}},
        {"W-mai-srcab",
         "v_mfma_f32_4x4x1f32 v[0:3], v4, v5, v[0:3]",
         "v_mfma_f32_4x4x1f32 v[8:11], v0, v5, v[8:11]",
         {{"gfx90a", 5}, {"gfx942", 4}}},
        {"W-mai-srcab",
         "v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]",
         "v_mfma_f32_32x32x8f16 v[20:35], v[0:1], v[18:19], v[20:35]",
         {{"gfx90a", 19}, {"gfx942", 11}}},
        {"W-mai-accread", "v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]", "v_accvgpr_read_b32 v2, a0", {{"gfx908", 4}}},
        {"W-mai-accread", "v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31]", "v_accvgpr_read_b32 v2, a0", {{"gfx908", 18}}},
        {"W-mai-accwrite-waw", "v_mfma_f32_16x16x1f32 a[0:15], v0, v1, a[16:31]", "v_accvgpr_write_b32 a1, v2", {{"gfx908", 7}}},
        {"W-mai-accwrite-war", "v_mfma_f32_16x16x1f32 a[16:31], v0, v1, a[0:15]", "v_accvgpr_write_b32 a1, v2", {{"gfx908", 5}}},
        {"W-mai-accwrite-use", "v_accvgpr_write_b32 a0, v2", "v_mfma_f32_4x4x1f32 a[4:7], v0, v1, a[0:3]", {{"gfx908", 1}}},
        {"W-mai-accwrite-use", "v_accvgpr_write_b32 a0, v2", "v_accvgpr_read_b32 v3, a0", {{"gfx908", 3}}},
        {"W-mai-accread-mem", "v_accvgpr_read_b32 v2, a0", "buffer_store_dword v2, v3, s[0:3], 0 offen", {{"gfx908", 2}}},
        {"W-mai-vgpr-valu",
         "v_mfma_f32_4x4x1f32 v[0:3], v4, v5, v[0:3]",
         "v_add_f32_e32 v6, v0, v7",
         {{"gfx90a", 5}, {"gfx942", 4}}},
        {"W-mai-vgpr-valu",
         "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]",
         "v_add_f32_e32 v12, v0, v13",
         {{"gfx90a", 11}, {"gfx942", 11}}},
        {"W-mai-vgpr-mem",
         "v_mfma_f32_4x4x1f32 v[0:3], v4, v5, v[0:3]",
         "buffer_store_dword v0, v6, s[0:3], 0 offen",
         {{"gfx90a", 5}, {"gfx942", 4}}},
        {"W-mai-vgpr-mem",
         "v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]",
         "buffer_store_dword v0, v12, s[0:3], 0 offen",
         {{"gfx90a", 18}, {"gfx942", 18}}},
        {"W-mai-srcc-war", "v_mfma_f32_16x16x1f32 v[0:15], v16, v17, v[20:35]", "v_mov_b32 v20, 0", {{"gfx90a", 7}}},
        {"W-mai-srcc-war", "v_mfma_f32_16x16x16f16 v[0:3], v[16:17], v[18:19], v[20:23]", "v_mov_b32 v20, 0", {{"gfx942", 3}}},
        // A later MFMA rewrote a[0:1] of the first one's result: the store's producer is the second.
        {"W-mai-vgpr-mem",
         "v_mfma_f32_16x16x16f16 a[2:5], v[4:5], v[4:5], a[2:5]\nv_mfma_f32_4x4x1f32 a[0:3], v6, v7, a[8:11]",
         "global_store_dwordx4 v[0:1], a[0:3], off",
         {{"gfx90a", 5}, {"gfx942", 4}}},
        {"W-mai-dot", "v_dot2_f32_f16 v0, v1, v2, v3", "v_add_f32_e32 v4, v0, v5", {{"gfx90a", 3}, {"gfx942", 3}}},
    };
    return table;
}

// The kernel for a row: producer, `states` wait states of separate s_nop 0, consumer.
std::string kernelFor(const Row& row, int states, int* consumerLine)
{
    std::string s = "k:\n";
    int line = 1;
    auto add = [&](const std::string& text) {
        std::istringstream in(text);
        for (std::string l; std::getline(in, l);) {
            s += "  " + l + "\n";
            ++line;
        }
    };
    add(row.producer);
    for (int i = 0; i < states; ++i)
        add("s_nop 0");
    if (row.between)
        add(row.between);
    add(row.consumer);
    *consumerLine = line;
    add("s_endpgm");
    return s;
}

const HazardFinding* findingOf(const Analysis& a, const std::string& rule, int line)
{
    for (const HazardFinding& h : a.checks.hazards)
        if (h.rule == rule && h.line == line)
            return &h;
    return nullptr;
}

std::string describe(const Analysis& a)
{
    std::string out;
    for (const HazardFinding& h : a.checks.hazards)
        out += std::format("  {} line {} {}/{} {}\n", h.rule, h.line, h.present, h.required, h.detail);
    return out;
}

} // namespace

class TestHazards : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void table_data();
    void table();
    void everyRuleHasARow();
    void pathsAreMinimised_data();
    void pathsAreMinimised();
    void nopSplit();
    void shift64_data();
    void shift64();
    void options_data();
    void options();
    void waitcnt_data();
    void waitcnt();
    void llcOutput_data();
    void llcOutput();
    void llcHazardPass_data();
    void llcHazardPass();
    void cleanupTestCase();

private:
    // The independent check's counts for the closing note (issue #17): compiler-output kernels
    // checked clean, and compiler s_nops / s_waitcnts deleted one at a time and flagged.
    int llcClean_ = 0, llcNops_ = 0, llcWaits_ = 0;
};

void TestHazards::table_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("required");
    QTest::addColumn<int>("states");
    for (int r = 0; r < int(rows().size()); ++r) {
        const int b = betweenCount(rows()[r]);
        for (const auto& [gpu, w] : rows()[r].gpus) {
            QTest::addRow("%s #%d %s fires", rows()[r].rule, r, gpu) << r << QString::fromLatin1(gpu) << w << w - 1 - b;
            QTest::addRow("%s #%d %s quiet", rows()[r].rule, r, gpu) << r << QString::fromLatin1(gpu) << w << w - b;
        }
        // Elsewhere the kernel that fires gives nothing (required 0: no finding expected).
        const int w = rows()[r].gpus.front().second;
        for (const char* gpu : rows()[r].never)
            QTest::addRow("%s #%d %s never", rows()[r].rule, r, gpu) << r << QString::fromLatin1(gpu) << 0 << w - 1 - b;
    }
}

void TestHazards::table()
{
    QFETCH(int, row);
    QFETCH(QString, gpu);
    QFETCH(int, required);
    QFETCH(int, states);
    const Row& r = rows()[row];
    int consumerLine = 0;
    const std::string source = kernelFor(r, states, &consumerLine);
    const Analysis a = analyzeText(source, gpu.toStdString());
    QVERIFY2(!a.program.hasErrors(), errorsOf(a.program).c_str());
    const int present = states + betweenCount(r);
    const HazardFinding* f = findingOf(a, r.rule, consumerLine);
    if (present < required) {
        QVERIFY2(f, (std::string("no finding; got:\n") + describe(a)).c_str());
        QCOMPARE(f->required, required);
        QCOMPARE(f->present, present);
        // The producer is the last line of the producer text.
        QCOMPARE(f->producerLine, 2 + int(std::count(r.producer, r.producer + std::strlen(r.producer), '\n')));
        if (std::string(r.rule) != "W-icache")
            QCOMPARE(f->fix,
                     nopFix(required - present, gpu == QLatin1String("tahiti") || gpu == QLatin1String("hawaii") ? 8 : 16));
    } else {
        QVERIFY2(!f, describe(a).c_str());
    }
}

// Every W-* id of hazards.md §2 that the checker implements has a row above.
void TestHazards::everyRuleHasARow()
{
    const char* implemented[] = {"W-valu-sgpr-vmem", "W-valu-sgpr-smrd", "W-salu-sbuf", "W-vcc-divfmas", "W-lanesel",
                                 "W-setreg-getreg",  "W-setreg-setreg",  "W-vskip",     "W-rfe",         "W-execz",
                                 "W-m0-msg",         "W-m0-lds",         "W-m0-movrel", "W-dpp-vgpr",    "W-dpp-exec",
                                 "W-store-data",     "W-valu-sgpr-valu", "W-exec-lane", "W-cmpx-exec",   "W-vgpr-readlane",
                                 "W-trans",          "W-dstsel",         "W-icache",    "W-vintrp-rl",   "W-dgemm-fma",
                                 "W-90a-dgemm",      "W-clause"};
    for (const char* rule : implemented)
        QVERIFY2(std::any_of(rows().begin(), rows().end(), [&](const Row& r) { return std::string(r.rule) == rule; }), rule);
}

void TestHazards::pathsAreMinimised_data()
{
    QTest::addColumn<std::string>("source");
    QTest::addColumn<int>("present");
    // Diamond: 2 states on the taken path, 6 on the other; the fewest count.
    QTest::addRow("diamond") << std::string(R"(k:
  v_readfirstlane_b32 s4, v0
  s_nop 0
  s_cbranch_scc1 else
  s_nop 2
  s_branch join
else:
join:
  v_readlane_b32 s5, v1, s4
  s_endpgm
)") << 2;
    // Loop: the producer is at the loop's end, the consumer at its top; the back edge counts.
    QTest::addRow("loop back edge") << std::string(R"(k:
  s_nop 7
loop:
  v_readlane_b32 s5, v1, s4
  s_nop 0
  v_readfirstlane_b32 s4, v0
  s_cbranch_scc1 loop
  s_endpgm
)") << 1;
}

void TestHazards::pathsAreMinimised()
{
    QFETCH(std::string, source);
    QFETCH(int, present);
    const Analysis a = analyzeText(source, "gfx900");
    QVERIFY2(!a.program.hasErrors(), errorsOf(a.program).c_str());
    const auto it = std::find_if(a.checks.hazards.begin(), a.checks.hazards.end(),
                                 [](const HazardFinding& h) { return h.rule == "W-lanesel"; });
    QVERIFY2(it != a.checks.hazards.end(), describe(a).c_str());
    QCOMPARE(it->present, present);
    QCOMPARE(it->required, 4);
}

// More than one s_nop's worth: split by A-nop (16 by default, 8 on request and on gfx6/7).
void TestHazards::nopSplit()
{
    const std::string source = R"(k:
  v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]
  v_mfma_f32_32x32x8f16 v[20:35], v[0:1], v[18:19], v[20:35]
  s_endpgm
)";
    const Analysis a = analyzeText(source, "gfx90a");
    const HazardFinding* f = findingOf(a, "W-mai-srcab", 3);
    QVERIFY2(f, describe(a).c_str());
    QCOMPARE(f->fix, std::string("s_nop 15\ns_nop 2"));
    TimingOptions eight;
    QCOMPARE(eight.set("A-nop", "8"), std::string());
    const Analysis b = analyzeText(source, "gfx90a", eight);
    f = findingOf(b, "W-mai-srcab", 3);
    QVERIFY(f);
    QCOMPARE(f->fix, std::string("s_nop 7\ns_nop 7\ns_nop 2"));
}

// The gfx90a 64-bit shift report (W-90a-shift64): the amount in the last VGPR of an 8-VGPR block
// with the next VGPR unused in the kernel; a finding without an s_nop fix.
void TestHazards::shift64_data()
{
    QTest::addColumn<std::string>("source");
    QTest::addColumn<std::string>("gpu");
    QTest::addColumn<bool>("fires");
    const std::string lshl = "k:\n  v_lshlrev_b64 v[0:1], v7, v[2:3]\n  s_endpgm\n";
    QTest::addRow("lshlrev v7 gfx90a") << lshl << std::string("gfx90a") << true;
    QTest::addRow("lshrrev v15 gfx90a") << std::string("k:\n  v_lshrrev_b64 v[0:1], v15, v[2:3]\n  s_endpgm\n")
                                        << std::string("gfx90a") << true;
    QTest::addRow("ashrrev v255 gfx90a") << std::string("k:\n  v_ashrrev_i64 v[0:1], v255, v[2:3]\n  s_endpgm\n")
                                         << std::string("gfx90a") << true;
    // One register away: the next VGPR is used, or the amount is not the block's last.
    QTest::addRow("next used") << std::string("k:\n  v_mov_b32 v8, 0\n  v_lshlrev_b64 v[0:1], v7, v[2:3]\n  s_endpgm\n")
                               << std::string("gfx90a") << false;
    QTest::addRow("amount v6") << std::string("k:\n  v_lshlrev_b64 v[0:1], v6, v[2:3]\n  s_endpgm\n") << std::string("gfx90a")
                               << false;
    QTest::addRow("scalar amount") << std::string("k:\n  v_lshlrev_b64 v[0:1], s7, v[2:3]\n  s_endpgm\n") << std::string("gfx90a")
                                   << false;
    // Other generations.
    QTest::addRow("gfx942") << lshl << std::string("gfx942") << false;
    QTest::addRow("gfx908") << lshl << std::string("gfx908") << false;
    QTest::addRow("gfx900") << lshl << std::string("gfx900") << false;
}

void TestHazards::shift64()
{
    QFETCH(std::string, source);
    QFETCH(std::string, gpu);
    QFETCH(bool, fires);
    const Analysis a = analyzeText(source, gpu);
    QVERIFY2(!a.program.hasErrors(), errorsOf(a.program).c_str());
    const int line = source.find("v_mov") == std::string::npos ? 2 : 3;
    const HazardFinding* f = findingOf(a, "W-90a-shift64", line);
    QCOMPARE(f != nullptr, fires);
    if (f) {
        QCOMPARE(f->fix, std::string()); // report only
        QCOMPARE(f->producerLine, line);
    }
}

void TestHazards::options_data()
{
    QTest::addColumn<std::string>("option");
    QTest::addColumn<std::string>("value");
    QTest::addColumn<std::string>("source");
    QTest::addColumn<std::string>("gpu");
    QTest::addColumn<std::string>("rule");
    QTest::addColumn<int>("byDefault"); // required states by default (0: no finding)
    QTest::addColumn<int>("changed");   // with the option
    const std::string setreg =
        "k:\n  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0\n  s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s1\n  s_endpgm\n";
    QTest::addRow("A-setreg") << std::string("A-setreg") << std::string("1") << setreg << std::string("gfx900")
                              << std::string("W-setreg-setreg") << 2 << 1;
    const std::string vmem = "k:\n  v_readfirstlane_b32 s4, v0\n  buffer_load_dword v1, v2, s[0:3], s4 offen\n  s_endpgm\n";
    QTest::addRow("A-vmem67") << std::string("A-vmem67") << std::string("off") << vmem << std::string("tahiti")
                              << std::string("W-valu-sgpr-vmem") << 5 << 0;
    const std::string msg = "k:\n  s_mov_b32 m0, s0\n  s_sendmsg sendmsg(MSG_INTERRUPT)\n  s_endpgm\n";
    QTest::addRow("A-m0-67") << std::string("A-m0-67") << std::string("off") << msg << std::string("hawaii")
                             << std::string("W-m0-msg") << 1 << 0;
    const std::string store = "k:\n  buffer_store_dwordx4 v[0:3], v4, s[0:3], 0 offen\n  v_mov_b32 v1, 0\n  s_endpgm\n";
    QTest::addRow("A-store6") << std::string("A-store6") << std::string("off") << store << std::string("tahiti")
                              << std::string("W-store-data") << 1 << 0;
    const std::string store942 = "k:\n  buffer_store_dwordx4 v[0:3], v4, s[0:3], s5 offen\n  v_mov_b32 v1, 0\n  s_endpgm\n";
    QTest::addRow("A-store942") << std::string("A-store942") << std::string("1") << store942 << std::string("gfx942")
                                << std::string("W-store-data") << 0 << 1;
    const std::string carry = "k:\n  v_cmp_eq_u32_e32 vcc, v0, v1\n  v_addc_co_u32_e32 v2, vcc, v3, v4, vcc\n  s_endpgm\n";
    QTest::addRow("A-carry") << std::string("A-carry") << std::string("2") << carry << std::string("gfx942")
                             << std::string("W-valu-sgpr-valu") << 0 << 2;
    const std::string dpp = "k:\n  ds_read_b32 v0, v1\n  s_waitcnt lgkmcnt(0)\n  v_mov_b32_dpp v2, v0 quad_perm:[0,1,2,3] "
                            "row_mask:0xf bank_mask:0xf\n  s_endpgm\n";
    QTest::addRow("A-dpp-writer") << std::string("A-dpp-writer") << std::string("any") << dpp << std::string("gfx900")
                                  << std::string("W-dpp-vgpr") << 0 << 2;
    const std::string sgemmXdl =
        "k:\n  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n  v_mfma_f32_4x4x4f16 a[2:5], v[0:1], v[2:3], a[2:5]\n  s_endpgm\n";
    QTest::addRow("A-sgemm-xdl") << std::string("A-sgemm-xdl") << std::string("0") << sgemmXdl << std::string("gfx942")
                                 << std::string("W-mai-srcc-overlap") << 2 << 0;
    const std::string dotMfma = "k:\n  v_dot2_f32_f16 v0, v1, v2, v3\n  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n  s_endpgm\n";
    QTest::addRow("A-dot-mfma") << std::string("A-dot-mfma") << std::string("0") << dotMfma << std::string("gfx90a")
                                << std::string("W-mai-dot") << 3 << 0;
    const std::string accread = "k:\n  v_accvgpr_read_b32 v2, a0\n  buffer_store_dword v2, v3, s[0:3], 0 offen\n  s_endpgm\n";
    QTest::addRow("A-accread") << std::string("A-accread") << std::string("0") << accread << std::string("gfx908")
                               << std::string("W-mai-accread-mem") << 2 << 0;
    const std::string execWriter =
        "k:\n  s_nop 0\n  v_cmp_eq_u32_e64 exec, v0, v1\n  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n  s_endpgm\n";
    QTest::addRow("A-exec-writer") << std::string("A-exec-writer") << std::string("cmpx") << execWriter << std::string("gfx908")
                                   << std::string("W-mai-exec") << 4 << 0;
    const std::string exact =
        "k:\n  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n  v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3]\n  s_endpgm\n";
    QTest::addRow("A-exact") << std::string("A-exact") << std::string("llvm") << exact << std::string("gfx942")
                             << std::string("W-mai-srcc-exact") << 0 << 2;
    const std::string valuOnly = "k:\n  v_mfma_f32_4x4x1f32 v[0:3], v4, v5, v[0:3]\n  s_mov_b32 s0, 0\n  s_mov_b32 s1, 0\n  "
                                 "v_add_f32_e32 v6, v0, v7\n  s_endpgm\n";
    // hazards.md §1: one s_nop gives at most A-nop states on gfx8+. A 16-pass MFMA's result read as
    // SrcA needs 19 (gfx90a); s_nop 15 + s_nop 2 give 16 + 3 = 19, but only 8 + 3 = 11 under A-nop=8.
    const std::string nopLimit = "k:\n  v_mfma_f32_32x32x8f16 v[0:15], v[16:17], v[18:19], v[0:15]\n  s_nop 15\n  s_nop 2\n"
                                 "  v_mfma_f32_32x32x8f16 v[20:35], v[0:1], v[18:19], v[20:35]\n  s_endpgm\n";
    QTest::addRow("A-nop") << std::string("A-nop") << std::string("8") << nopLimit << std::string("gfx90a")
                           << std::string("W-mai-srcab") << 0 << 19;
    QTest::addRow("A-valu-only") << std::string("A-valu-only") << std::string("off") << valuOnly << std::string("gfx942")
                                 << std::string("W-mai-vgpr-valu") << 4 << 4;
}

void TestHazards::options()
{
    QFETCH(std::string, option);
    QFETCH(std::string, value);
    QFETCH(std::string, source);
    QFETCH(std::string, gpu);
    QFETCH(std::string, rule);
    QFETCH(int, byDefault);
    QFETCH(int, changed);
    auto required = [&](const Analysis& a) {
        for (const HazardFinding& h : a.checks.hazards)
            if (h.rule == rule)
                return std::pair(h.required, h.present);
        return std::pair(0, 0);
    };
    const Analysis a = analyzeText(source, gpu);
    QVERIFY2(!a.program.hasErrors(), errorsOf(a.program).c_str());
    QVERIFY2(required(a).first == byDefault, describe(a).c_str());
    TimingOptions options;
    QCOMPARE(options.set(option, value), std::string());
    const auto values = options.values();
    const bool listed =
        std::any_of(values.begin(), values.end(), [&](const auto& v) { return v.first == option && v.second == value; });
    QVERIFY(listed);
    const Analysis b = analyzeText(source, gpu, options);
    QVERIFY2(required(b).first == changed, describe(b).c_str());
    if (option == "A-valu-only") // the SALU instructions count once the option is off
        QVERIFY(required(b).second == 2 && required(a).second == 0);
    QVERIFY(!options.set(option, "nonsense").empty());
}

void TestHazards::waitcnt_data()
{
    QTest::addColumn<std::string>("source");
    QTest::addColumn<QString>("gpu");
    const std::string inOrder = R"(k:
  buffer_load_dword v0, v10, s[0:3], 0 offen
  buffer_load_dword v1, v10, s[0:3], 0 offen
  buffer_load_dword v2, v10, s[0:3], 0 offen
  v_mov_b32 v3, v0           ; wait vmcnt(2)
  v_mov_b32 v4, v1           ; wait vmcnt(1)
  s_endpgm
)";
    const std::string covered = R"(k:
  buffer_load_dword v0, v10, s[0:3], 0 offen
  buffer_load_dword v1, v10, s[0:3], 0 offen
  s_waitcnt vmcnt(1)
  v_mov_b32 v3, v0
  s_waitcnt vmcnt(0)
  v_mov_b32 v4, v1
  s_endpgm
)";
    const std::string oneShort = R"(k:
  buffer_load_dword v0, v10, s[0:3], 0 offen
  buffer_load_dword v1, v10, s[0:3], 0 offen
  s_waitcnt vmcnt(1)
  v_mov_b32 v3, v1           ; wait vmcnt(0)
  s_endpgm
)";
    const std::string smemLds = R"(k:
  s_load_dword s4, s[0:1], 0x0
  ds_read_b32 v1, v2
  s_waitcnt lgkmcnt(1)
  v_mov_b32 v3, v1           ; wait lgkmcnt(0) ng
  s_endpgm
)";
    const std::string ldsOnly = R"(k:
  ds_read_b32 v1, v2
  ds_read_b32 v3, v2
  v_add_f32_e32 v4, v1, v1   ; wait lgkmcnt(1)
  s_endpgm
)";
    const std::string smemZero = R"(k:
  s_load_dword s4, s[0:1], 0x0
  s_load_dword s5, s[0:1], 0x4
  s_waitcnt lgkmcnt(0)
  s_add_u32 s6, s4, s5
  s_endpgm
)";
    const std::string loop = R"(k:
  buffer_load_dword v0, v10, s[0:3], 0 offen
  s_waitcnt vmcnt(0)
loop:
  v_add_f32_e32 v1, v0, v1   ; wait vmcnt(0)
  buffer_load_dword v0, v10, s[0:3], 0 offen
  s_cbranch_scc1 loop
  s_endpgm
)";
    const std::string loopCovered = R"(k:
  buffer_load_dword v0, v10, s[0:3], 0 offen
loop:
  s_waitcnt vmcnt(0)
  v_add_f32_e32 v1, v0, v1
  buffer_load_dword v0, v10, s[0:3], 0 offen
  s_cbranch_scc1 loop
  s_endpgm
)";
    const std::string waw = R"(k:
  buffer_load_dword v0, v10, s[0:3], 0 offen
  buffer_load_dword v0, v11, s[0:3], 0 offen
  v_mov_b32 v0, 0            ; wait vmcnt(0)
  s_endpgm
)";
    for (const char* gpu : {"tahiti", "hawaii", "fiji", "gfx900", "gfx908", "gfx90a", "gfx942"}) {
        QTest::addRow("in-order %s", gpu) << inOrder << QString::fromLatin1(gpu);
        QTest::addRow("covered %s", gpu) << covered << QString::fromLatin1(gpu);
        QTest::addRow("one-short %s", gpu) << oneShort << QString::fromLatin1(gpu);
        QTest::addRow("smem+lds %s", gpu) << smemLds << QString::fromLatin1(gpu);
        QTest::addRow("lds-only %s", gpu) << ldsOnly << QString::fromLatin1(gpu);
        QTest::addRow("smem-zero %s", gpu) << smemZero << QString::fromLatin1(gpu);
        QTest::addRow("loop %s", gpu) << loop << QString::fromLatin1(gpu);
        QTest::addRow("loop-covered %s", gpu) << loopCovered << QString::fromLatin1(gpu);
        QTest::addRow("waw %s", gpu) << waw << QString::fromLatin1(gpu);
    }
    // gfx6: a store's data VGPRs are counted by expcnt until read (hazards.md §3).
    const std::string expStore = R"(k:
  buffer_store_dword v0, v10, s[0:3], 0 offen
  v_mov_b32 v0, 0            ; wait expcnt(0)
  s_endpgm
)";
    QTest::addRow("expcnt store tahiti") << expStore << QStringLiteral("tahiti");
    const std::string flat = R"(k:
  flat_load_dword v0, v[2:3]
  v_mov_b32 v1, v0           ; wait vmcnt(0) ng
  s_endpgm
)";
    QTest::addRow("flat gfx900") << flat << QStringLiteral("gfx900");
    // FLAT counts on both counters and completes on both: vmcnt(0) proves it (LLVM's output).
    const std::string flatWaited = R"(k:
  flat_load_dword v0, v[2:3]
  s_waitcnt vmcnt(0)
  v_mov_b32 v1, v0
  s_endpgm
)";
    QTest::addRow("flat waited fiji") << flatWaited << QStringLiteral("fiji");
    // ... but lgkmcnt(0) alone does not: the vmcnt part is still outstanding (and out of order).
    const std::string flatLgkmOnly = R"(k:
  flat_load_dword v0, v[2:3]
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v1, v0           ; wait vmcnt(0) ng
  s_endpgm
)";
    QTest::addRow("flat lgkmcnt only fiji") << flatLgkmOnly << QStringLiteral("fiji");
    QTest::addRow("flat lgkmcnt only gfx900") << flatLgkmOnly << QStringLiteral("gfx900");
}

void TestHazards::waitcnt()
{
    QFETCH(std::string, source);
    QFETCH(QString, gpu);
    const Analysis a = analyzeText(source, gpu.toStdString());
    QVERIFY2(!a.program.hasErrors(), errorsOf(a.program).c_str());
    std::map<int, std::string> expected;
    std::istringstream in(source);
    const std::regex wait(R"(; wait (\w+)\((\d+)\)( ng)?)");
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        for (std::sregex_iterator it(line.begin(), line.end(), wait), end; it != end; ++it)
            expected[n] += std::format("{}({}){} ", (*it)[1].str(), (*it)[2].str(), (*it)[3].matched ? " ng" : "");
    }
    std::map<int, std::string> found;
    std::string all;
    for (const WaitcntFinding& w : a.checks.waits) {
        const std::string text = std::format("{}({}){} ", w.counter, w.count, w.notGuaranteed ? " ng" : "");
        found[w.line] += text;
        all += std::format("line {}: {} ({})\n", w.line, text, w.detail);
        QCOMPARE(w.rule, "W-waitcnt-" + w.counter);
        QCOMPARE(w.fix, std::format("s_waitcnt {}({})", w.counter, w.count));
    }
    QVERIFY2(found == expected, all.c_str());
}

// The independent check: llc compiles IR kernels using MFMA, readlane, DPP and SGPR-indexed
// memory; with LLVM's readings of the ambiguities (A-exact=llvm, A-vmem67=off) the checker finds
// nothing in its output, and deleting any one s_nop (s_waitcnt) llc inserted is flagged.
void TestHazards::llcOutput_data()
{
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<QString>("gpu");
    for (const char* gpu : {"tahiti", "hawaii", "fiji", "gfx900", "gfx908", "gfx90a", "gfx942"}) {
        const std::string g = gpu;
        QTest::addRow("lanes %s", gpu) << QStringLiteral("lanes") << QString::fromLatin1(gpu);
        if (g != "tahiti" && g != "hawaii")
            QTest::addRow("dpp %s", gpu) << QStringLiteral("dpp") << QString::fromLatin1(gpu);
        if (g == "gfx908" || g == "gfx90a" || g == "gfx942")
            QTest::addRow("mfma %s", gpu) << QStringLiteral("mfma") << QString::fromLatin1(gpu);
    }
}

void TestHazards::llcOutput()
{
    QFETCH(QString, kernel);
    QFETCH(QString, gpu);
    if (!QFile::exists(QStringLiteral(GCNLENS_LLC)))
        QSKIP("no llc in the build root");
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.s"));
    QProcess llc;
    llc.start(QStringLiteral(GCNLENS_LLC),
              {QStringLiteral("-mtriple=amdgcn-amd-amdhsa"), QStringLiteral("-mcpu=") + gpu, QStringLiteral("-O2"),
               QStringLiteral(GCNLENS_TESTDATA_DIR "/checks/") + kernel + QStringLiteral(".ll"), QStringLiteral("-o"), out});
    QVERIFY(llc.waitForFinished(60000));
    QCOMPARE(llc.exitCode(), 0);
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string text = file.readAll().toStdString();
    TimingOptions llvm;
    QCOMPARE(llvm.set("A-exact", "llvm"), std::string());
    QCOMPARE(llvm.set("A-vmem67", "off"), std::string());
    const Analysis clean = analyzeText(text, gpu.toStdString(), llvm);
    QVERIFY2(!clean.program.hasErrors(), errorsOf(clean.program).c_str());
    QVERIFY2(clean.checks.hazards.empty() && clean.checks.waits.empty(), describe(clean).c_str());
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        lines.push_back(l);
    int nops = 0, waits = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto first = lines[i].find_first_not_of(" \t");
        if (first == std::string::npos)
            continue;
        const bool nop = lines[i].compare(first, 6, "s_nop ") == 0;
        const bool wait = lines[i].compare(first, 10, "s_waitcnt ") == 0;
        if (!nop && !wait)
            continue;
        std::string without;
        for (std::size_t j = 0; j < lines.size(); ++j)
            if (j != i)
                without += lines[j] + "\n";
        const Analysis a = analyzeText(without, gpu.toStdString(), llvm);
        const bool flagged = nop ? !a.checks.hazards.empty() : !a.checks.waits.empty();
        QVERIFY2(flagged, ("deleting line " + std::to_string(i + 1) + " '" + lines[i] + "' is not flagged").c_str());
        (nop ? nops : waits) += 1;
    }
    qInfo("%s on %s: %d s_nop and %d s_waitcnt deleted one at a time, each flagged", qPrintable(kernel), qPrintable(gpu), nops,
          waits);
    ++llcClean_;
    llcNops_ += nops;
    llcWaits_ += waits;
}

// The independent check for rows the compiler rarely produces from IR (W-90a-dgemm, W-clause,
// W-90a-shift64): the same instructions as MIR through LLVM's own hazard recognizer (llc
// -run-pass=post-RA-hazard-rec). The wait states of the S_NOPs it inserts must equal the ones the
// finding asks for (required - present, 0 without a finding); for the shift report, LLVM rewriting
// the shift (V_SWAP_B32) must go with a finding.
void TestHazards::llcHazardPass_data()
{
    QTest::addColumn<QString>("cpu");
    QTest::addColumn<QString>("mattr");
    QTest::addColumn<std::string>("gpu");
    QTest::addColumn<std::string>("liveins");
    QTest::addColumn<std::string>("mir");
    QTest::addColumn<std::string>("assembly");
    QTest::addColumn<std::string>("rule");
    const std::string dgemmIn = "$vgpr1, $vgpr4_vgpr5, $vgpr6_vgpr7, $sgpr0_sgpr1_sgpr2_sgpr3";
    const std::string dgemmMir = "$vgpr0 = V_MOV_B32_e32 0, implicit $exec\n"
                                 "$vgpr2_vgpr3 = V_MFMA_F64_4X4X4F64_vgprcd_e64 $vgpr4_vgpr5, $vgpr6_vgpr7, 0, 0, 0, 0, "
                                 "implicit $mode, implicit $exec\n"
                                 "BUFFER_STORE_DWORD_OFFEN $vgpr0, $vgpr1, $sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, 0, implicit $exec";
    const std::string dgemmAsm = "v_mov_b32 v0, 0\nv_mfma_f64_4x4x4f64 v[2:3], v[4:5], v[6:7], 0\n"
                                 "buffer_store_dword v0, v1, s[0:3], 0 offen";
    QTest::addRow("dgemm gfx90a") << "gfx90a" << "" << std::string("gfx90a") << dgemmIn << dgemmMir << dgemmAsm
                                  << std::string("W-90a-dgemm");
    QTest::addRow("dgemm gfx942") << "gfx942" << "" << std::string("gfx942") << dgemmIn << dgemmMir << dgemmAsm
                                  << std::string("W-90a-dgemm");
    // One wait state more: an s_nop between the VALU and the DGEMM.
    QTest::addRow("dgemm gfx90a one more") << "gfx90a" << "" << std::string("gfx90a") << dgemmIn
                                           << std::regex_replace(dgemmMir, std::regex("\n"), "\nS_NOP 0\n",
                                                                 std::regex_constants::format_first_only)
                                           << std::regex_replace(dgemmAsm, std::regex("\n"), "\ns_nop 0\n",
                                                                 std::regex_constants::format_first_only)
                                           << std::string("W-90a-dgemm");
    const std::string smemIn = "$sgpr0_sgpr1";
    const std::string smemMir =
        "$sgpr4_sgpr5 = S_LOAD_DWORDX2_IMM $sgpr0_sgpr1, 0, 0\n$sgpr6 = S_LOAD_DWORD_IMM $sgpr4_sgpr5, 0, 0";
    const std::string smemAsm = "s_load_dwordx2 s[4:5], s[0:1], 0x0\ns_load_dword s6, s[4:5], 0x0";
    QTest::addRow("smem clause xnack+") << "gfx900" << "+xnack" << std::string("gfx900:xnack+") << smemIn << smemMir << smemAsm
                                        << std::string("W-clause");
    QTest::addRow("smem clause xnack-") << "gfx900" << "-xnack" << std::string("gfx900:xnack-") << smemIn << smemMir << smemAsm
                                        << std::string("W-clause");
    const std::string vmemIn = "$vgpr2, $sgpr0_sgpr1_sgpr2_sgpr3";
    const std::string vmemMir = "$vgpr1 = BUFFER_LOAD_DWORD_OFFEN $vgpr2, $sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, 0, implicit $exec\n"
                                "$vgpr3 = BUFFER_LOAD_DWORD_OFFEN $vgpr1, $sgpr0_sgpr1_sgpr2_sgpr3, 0, 0, 0, 0, implicit $exec";
    const std::string vmemAsm = "buffer_load_dword v1, v2, s[0:3], 0 offen\nbuffer_load_dword v3, v1, s[0:3], 0 offen";
    QTest::addRow("vmem clause xnack+") << "gfx90a" << "+xnack" << std::string("gfx90a:xnack+") << vmemIn << vmemMir << vmemAsm
                                        << std::string("W-clause");
    QTest::addRow("vmem clause xnack-") << "gfx90a" << "-xnack" << std::string("gfx90a:xnack-") << vmemIn << vmemMir << vmemAsm
                                        << std::string("W-clause");
    const std::string shiftIn = "$vgpr7, $vgpr2_vgpr3";
    const std::string shiftMir = "$vgpr0_vgpr1 = V_LSHLREV_B64_e64 $vgpr7, $vgpr2_vgpr3, implicit $exec";
    const std::string shiftAsm = "v_lshlrev_b64 v[0:1], v7, v[2:3]";
    QTest::addRow("shift64 gfx90a") << "gfx90a" << "" << std::string("gfx90a") << shiftIn << shiftMir << shiftAsm
                                    << std::string("W-90a-shift64");
    QTest::addRow("shift64 gfx942") << "gfx942" << "" << std::string("gfx942") << shiftIn << shiftMir << shiftAsm
                                    << std::string("W-90a-shift64");
    QTest::addRow("shift64 v8 used") << "gfx90a" << "" << std::string("gfx90a") << shiftIn
                                     << shiftMir + "\n$vgpr8 = V_MOV_B32_e32 0, implicit $exec" << shiftAsm + "\nv_mov_b32 v8, 0"
                                     << std::string("W-90a-shift64");
}

void TestHazards::llcHazardPass()
{
    QFETCH(QString, cpu);
    QFETCH(QString, mattr);
    QFETCH(std::string, gpu);
    QFETCH(std::string, liveins);
    QFETCH(std::string, mir);
    QFETCH(std::string, assembly);
    QFETCH(std::string, rule);
    if (!QFile::exists(QStringLiteral(GCNLENS_LLC)))
        QSKIP("no llc in the build root");
    std::string body;
    std::istringstream lines(mir);
    for (std::string l; std::getline(lines, l);)
        body += "    " + l + "\n";
    QTemporaryDir dir;
    const QString in = dir.filePath(QStringLiteral("k.mir"));
    {
        QFile file(in);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(("---\nname: k\ntracksRegLiveness: true\nbody: |\n  bb.0:\n    liveins: " + liveins + "\n" + body
                    + "    S_ENDPGM 0\n...\n")
                       .c_str());
    }
    QProcess llc;
    llc.start(QStringLiteral(GCNLENS_LLC),
              {QStringLiteral("-mtriple=amdgcn-amd-amdhsa"), QStringLiteral("-mcpu=") + cpu, QStringLiteral("-mattr=") + mattr,
               QStringLiteral("-run-pass=post-RA-hazard-rec"), QStringLiteral("-o"), QStringLiteral("-"), in});
    QVERIFY(llc.waitForFinished(60000));
    QVERIFY2(llc.exitCode() == 0, llc.readAllStandardError().constData());
    const std::string out = llc.readAllStandardOutput().toStdString();
    // Wait states of the S_NOPs LLVM inserted: those in its output less those in the input.
    const std::regex snop(R"(S_NOP (\d+))");
    auto nopStates = [&](const std::string& text) {
        int states = 0;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), snop); it != std::sregex_iterator(); ++it)
            states += std::stoi((*it)[1]) + 1;
        return states;
    };
    int llvm = nopStates(out) - nopStates(mir);
    if (rule == "W-90a-shift64")
        llvm = out.find("V_SWAP_B32") != std::string::npos ? 1 : 0;
    // The same instructions as assembly.
    std::string source = "k:\n";
    std::istringstream asmLines(assembly);
    for (std::string l; std::getline(asmLines, l);)
        source += "  " + l + "\n";
    source += "  s_endpgm\n";
    const Analysis a = analyzeText(source, gpu);
    QVERIFY2(!a.program.hasErrors(), errorsOf(a.program).c_str());
    const HazardFinding* f = nullptr;
    for (const HazardFinding& h : a.checks.hazards)
        if (h.rule == rule)
            f = &h;
    const int ours = !f ? 0 : rule == "W-90a-shift64" ? 1 : f->required - f->present;
    QVERIFY2(ours == llvm, (out + describe(a)).c_str());
}

void TestHazards::cleanupTestCase()
{
    if (llcClean_ == 0)
        return; // no llc, or llcOutput not run
    qInfo("llc independent check: %d compiler-output kernels (kernel x GPU) with no finding; %d s_nop the compiler "
          "inserted deleted one at a time, %d flagged; %d s_waitcnt deleted, %d flagged",
          llcClean_, llcNops_, llcNops_, llcWaits_, llcWaits_);
}

QTEST_GUILESS_MAIN(TestHazards)
#include "tst_hazards.moc"
