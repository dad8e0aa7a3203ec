// SPDX-License-Identifier: MIT
// resources/timings.tsv against its source (issue #3 section 1): every instruction row of
// GcnTimings.md (copied to tests/data so the test does not depend on ../shared) is present with
// the cycles as written and parses; the prose rules are class rows; LLVM names find their rows.
#include "core/model/timing.h"
#include "testutils.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace gcnlens;

namespace {

struct SourceRow {
    QString table, mnemonic, cycles, throughput;
};

// The instruction rows of every "### X Instruction timings" table. SMRD, VOP1 and VOP3 put two
// instructions per line; DS adds a throughput column. "DS_ORDERED_COUNT (???)" keeps its name.
QList<SourceRow> sourceRows()
{
    QFile file(gcnlens::test::testData("data/GcnTimings.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression heading(QStringLiteral("^### (\\S+) Instruction timings"));
    static const QRegularExpression remark(QStringLiteral("\\s*\\(.*\\)$"));
    QList<SourceRow> rows;
    QString table;
    for (const QString& line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("###"))) {
            const auto match = heading.match(line);
            table = match.hasMatch() ? match.captured(1) : QString();
            continue;
        }
        if (table.isEmpty() || !line.contains(QLatin1Char('|')))
            continue;
        QStringList cells = line.split(QLatin1Char('|'));
        for (QString& cell : cells)
            cell = cell.trimmed();
        if (cells[0].startsWith(QLatin1String("Instruction")) || cells[0].startsWith(QLatin1Char('-')))
            continue;
        auto name = [](QString cell) { return cell.remove(remark); };
        if (table == QLatin1String("DS")) {
            rows.append({table, name(cells[0]), cells[1], cells.value(2)});
        } else {
            rows.append({table, name(cells[0]), cells[1], {}});
            if (cells.size() >= 4 && !cells[2].isEmpty())
                rows.append({table, name(cells[2]), cells[3], {}});
        }
    }
    return rows;
}

const TimingRow* findRow(const QString& table, const QString& mnemonic)
{
    for (const TimingRow& row : timingTable())
        if (QString::fromStdString(row.table) == table && QString::fromStdString(row.mnemonic) == mnemonic)
            return &row;
    return nullptr;
}

GpuTarget target(Generation generation, int dpfactor)
{
    GpuTarget gpu;
    gpu.generation = generation;
    gpu.dpfactor = dpfactor;
    return gpu;
}

} // namespace

class TestTimingTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everySourceRowIsPresent()
    {
        const QList<SourceRow> rows = sourceRows();
        // 13 SMRD + 92 VOP1 + 88 VOP3 (V_MAD_F16 twice) + 140 DS + 58 MUBUF cells: a parse that
        // loses a table or a column falls far below this.
        QVERIFY2(rows.size() == 13 + 92 + 88 + 140 + 58, qPrintable(QString::number(rows.size())));
        QSet<QString> tables;
        for (const SourceRow& source : rows) {
            tables.insert(source.table);
            const TimingRow* row = findRow(source.table, source.mnemonic);
            QVERIFY2(row, qPrintable(source.table + QLatin1Char(' ') + source.mnemonic + QLatin1String(" missing")));
            QCOMPARE(QString::fromStdString(row->cycles), source.cycles);
            QCOMPARE(QString::fromStdString(row->throughput), source.throughput);
            CycleCount count;
            QVERIFY2(evaluateCycles(row->cycles, 8, false, count), row->cycles.c_str());
        }
        QCOMPARE(tables,
                 (QSet<QString> {QStringLiteral("SMRD"), QStringLiteral("VOP1"), QStringLiteral("VOP3"), QStringLiteral("DS"),
                                 QStringLiteral("MUBUF")}));
    }

    void noRowWithoutSource()
    {
        // The reverse direction: each data row of the five source tables comes from the source.
        const QList<SourceRow> rows = sourceRows();
        for (const TimingRow& row : timingTable()) {
            const QString table = QString::fromStdString(row.table);
            if (table != QLatin1String("SMRD") && table != QLatin1String("VOP1") && table != QLatin1String("VOP3")
                && table != QLatin1String("DS") && table != QLatin1String("MUBUF"))
                continue;
            const QString mnemonic = QString::fromStdString(row.mnemonic);
            QVERIFY2(std::any_of(rows.begin(), rows.end(),
                                 [&](const SourceRow& s) { return s.table == table && s.mnemonic == mnemonic; }),
                     qPrintable(mnemonic));
        }
    }

    void everyRowParses()
    {
        for (const TimingRow& row : timingTable())
            for (int dpfactor : {1, 2, 4, 8})
                for (bool glc : {false, true}) {
                    CycleCount count;
                    QVERIFY2(evaluateCycles(row.cycles, dpfactor, glc, count), (row.mnemonic + ": " + row.cycles).c_str());
                    QVERIFY(count.low <= count.high);
                }
    }

    // The prose rules of GcnTimings.md, each quoted in the comment, as class rows.
    void proseRules_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("mnemonic");
        QTest::addColumn<QString>("cycles");
        QTest::addRow("All SOP2 instructions take 4 cycles") << "SOP2" << "<SOP2>" << "4";
        QTest::addRow("S_CBRANCH_G_FORK not checked") << "SOP2" << "S_CBRANCH_G_FORK" << "-";
        QTest::addRow("All SOPK instructions take 4 cycles") << "SOPK" << "<SOPK>" << "4";
        QTest::addRow("S_CBRANCH_I_FORK not checked") << "SOPK" << "S_CBRANCH_I_FORK" << "-";
        QTest::addRow("S_SETREG_B32 takes 8") << "SOPK" << "S_SETREG_B32" << "8";
        QTest::addRow("S_SETREG_IMM32_B32 takes 8") << "SOPK" << "S_SETREG_IMM32_B32" << "8";
        QTest::addRow("S_*_SAVEEXEC_B64 take 8") << "SOP1" << "S_*_SAVEEXEC_B64" << "8";
        QTest::addRow("Other SOP1 ALU take 4") << "SOP1" << "<SOP1>" << "4";
        QTest::addRow("except S_MOV_REGRD_B32") << "SOP1" << "S_MOV_REGRD_B32" << "-";
        QTest::addRow("except S_CBRANCH_JOIN") << "SOP1" << "S_CBRANCH_JOIN" << "-";
        QTest::addRow("except S_RFE_B64") << "SOP1" << "S_RFE_B64" << "-";
        QTest::addRow("SOPC take 4") << "SOPC" << "<SOPC>" << "4";
        QTest::addRow("jump not taken 4") << "SOPP" << "<SOPP jump>" << "4";
        QTest::addRow("jump taken 20 (doubted by the source)") << "SOPP" << "<SOPP jump taken>" << "20?";
        QTest::addRow("All VOP2 take 4") << "VOP2" << "<VOP2>" << "4";
        QTest::addRow("16/32-bit compares take 4") << "VOPC" << "<VOPC 16/32-bit>" << "4";
        QTest::addRow("64-bit compares DPFACTOR*4") << "VOPC" << "<VOPC 64-bit>" << "DPFACTOR*4";
        QTest::addRow("All VOP3P take 4") << "VOP3P" << "<VOP3P>" << "4";
    }
    void proseRules()
    {
        QFETCH(QString, table);
        QFETCH(QString, mnemonic);
        const TimingRow* row = findRow(table, mnemonic);
        QVERIFY(row);
        QTEST(QString::fromStdString(row->cycles), "cycles");
    }

    void takenDefaultMatchesOption()
    {
        // Section 9's taken-branch-cycles default is the table's value.
        CycleCount count;
        QVERIFY(evaluateCycles(findRow(QStringLiteral("SOPP"), QStringLiteral("<SOPP jump taken>"))->cycles, 8, false, count));
        QCOMPARE(count.low, TimingOptions {}.takenBranchCycles);
        QVERIFY(count.uncertain);
    }

    void evaluate_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("dpfactor");
        QTest::addColumn<bool>("glc");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("low");
        QTest::addColumn<int>("high");
        QTest::addColumn<bool>("unknown");
        QTest::addColumn<bool>("uncertain");
        QTest::addColumn<bool>("noData");
        QTest::addRow("plain") << "16" << 8 << false << true << 16 << 16 << false << false << false;
        // DPFACTOR*N = N × DPFACTOR (section 1)
        for (int dp : {1, 2, 4, 8})
            QTest::addRow("DPFACTOR*4 dp%d", dp)
                << "DPFACTOR*4" << dp << false << true << 4 * dp << 4 * dp << false << false << false;
        QTest::addRow("DPFACTOR*8 dp2") << "DPFACTOR*8" << 2 << false << true << 16 << 16 << false << false << false;
        // V_FMA_F32: 4 on DP 1/2, 1/4, 1/8 (DPFACTOR 1, 2, 4), else 16
        QTest::addRow("fma dp1") << "4 or 16 (1)" << 1 << false << true << 4 << 4 << false << false << false;
        QTest::addRow("fma dp2") << "4 or 16 (1)" << 2 << false << true << 4 << 4 << false << false << false;
        QTest::addRow("fma dp4") << "4 or 16 (1)" << 4 << false << true << 4 << 4 << false << false << false;
        QTest::addRow("fma dp8") << "4 or 16 (1)" << 8 << false << true << 16 << 16 << false << false << false;
        // +GLCn adds n only with glc
        QTest::addRow("glc1 off") << "16+GLC1" << 8 << false << true << 16 << 16 << false << false << false;
        QTest::addRow("glc1 on") << "16+GLC1" << 8 << true << true << 17 << 17 << false << false << false;
        QTest::addRow("glc2 on") << "16+GLC2" << 8 << true << true << 18 << 18 << false << false << false;
        // a range keeps both ends
        QTest::addRow("range") << "16-24" << 8 << false << true << 16 << 24 << false << false << false;
        // "?" counts 4, flagged unknown; "18?" is 18, flagged uncertain; "-" no data
        QTest::addRow("unknown") << "?" << 8 << false << true << 4 << 4 << true << false << false;
        QTest::addRow("doubted") << "18?" << 8 << false << true << 18 << 18 << false << true << false;
        QTest::addRow("not checked") << "-" << 8 << false << true << 4 << 4 << false << false << true;
        QTest::addRow("garbage") << "fast" << 8 << false << false << 4 << 4 << false << false << false;
        QTest::addRow("reversed range") << "24-16" << 8 << false << false << 4 << 4 << false << false << false;
    }
    void evaluate()
    {
        QFETCH(QString, text);
        QFETCH(int, dpfactor);
        QFETCH(bool, glc);
        CycleCount count;
        QTEST(evaluateCycles(text.toStdString(), dpfactor, glc, count), "ok");
        QFETCH(bool, ok);
        if (!ok)
            return;
        QTEST(count.low, "low");
        QTEST(count.high, "high");
        QTEST(count.unknown, "unknown");
        QTEST(count.uncertain, "uncertain");
        QTEST(count.noData, "noData");
    }

    // LLVM's printed names against the rows (issue #3 section 1, mnemonic matching).
    void lookup_data()
    {
        QTest::addColumn<QString>("mnemonic");
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("generation");
        QTest::addColumn<int>("dpfactor");
        QTest::addColumn<bool>("glc");
        QTest::addColumn<QString>("matched");
        QTest::addColumn<int>("low");
        QTest::addColumn<int>("high");
        QTest::addColumn<bool>("flagged"); // unknown or no data
        const int g6 = int(Generation::GFX6), g7 = int(Generation::GFX7), g8 = int(Generation::GFX8), g9 = int(Generation::GFX9);
        auto f = [](Family family) { return int(family); };
        QTest::addRow("ds_read_b32") << "ds_read_b32" << f(Family::DS) << g6 << 8 << false << "DS_READ_B32" << 4 << 4 << false;
        QTest::addRow("ds_write2_b64") << "ds_write2_b64" << f(Family::DS) << g9 << 8 << false << "DS_WRITE2_B64" << 20 << 20
                                       << false;
        QTest::addRow("ds_gws_init ?") << "ds_gws_init" << f(Family::DS) << g7 << 8 << false << "DS_GWS_INIT" << 4 << 4 << true;
        QTest::addRow("ds_ordered_count") << "ds_ordered_count" << f(Family::DS) << g7 << 8 << false << "DS_ORDERED_COUNT" << 4
                                          << 4 << true;
        QTest::addRow("s_load_dwordx2 SMRD")
            << "s_load_dwordx2" << f(Family::SMRD) << g6 << 8 << false << "S_LOAD_DWORDX2" << 4 << 4 << false;
        QTest::addRow("s_load_dwordx8 SMEM")
            << "s_load_dwordx8" << f(Family::SMEM) << g9 << 8 << false << "S_LOAD_DWORDX8" << 8 << 8 << false;
        QTest::addRow("s_buffer_load_dwordx16")
            << "s_buffer_load_dwordx16" << f(Family::SMRD) << g7 << 8 << false << "S_BUFFER_LOAD_DWORDX16" << 16 << 24 << false;
        QTest::addRow("buffer_load_dword") << "buffer_load_dword" << f(Family::MUBUF) << g6 << 8 << false << "BUFFER_LOAD_DWORD"
                                           << 8 << 8 << false;
        QTest::addRow("buffer_atomic_add") << "buffer_atomic_add" << f(Family::MUBUF) << g6 << 8 << false << "BUFFER_ATOMIC_ADD"
                                           << 16 << 16 << false;
        QTest::addRow("buffer_atomic_add glc")
            << "buffer_atomic_add" << f(Family::MUBUF) << g6 << 8 << true << "BUFFER_ATOMIC_ADD" << 17 << 17 << false;
        QTest::addRow("buffer_atomic_add_x2 glc")
            << "buffer_atomic_add_x2" << f(Family::MUBUF) << g6 << 8 << true << "BUFFER_ATOMIC_ADD_X2" << 18 << 18 << false;
        QTest::addRow("buffer_atomic_and_x2 glc (no +GLC)")
            << "buffer_atomic_and_x2" << f(Family::MUBUF) << g6 << 8 << true << "BUFFER_ATOMIC_AND_X2" << 16 << 16 << false;
        QTest::addRow("buffer_wbinvl1 ?") << "buffer_wbinvl1" << f(Family::MUBUF) << g6 << 8 << false << "BUFFER_WBINVL1" << 4
                                          << 4 << true;
        QTest::addRow("v_fma_f32 tahiti 7970")
            << "v_fma_f32" << f(Family::VOP3) << g6 << 2 << false << "V_FMA_F32" << 4 << 4 << false;
        QTest::addRow("v_fma_f32 pitcairn") << "v_fma_f32" << f(Family::VOP3) << g6 << 8 << false << "V_FMA_F32" << 16 << 16
                                            << false;
        QTest::addRow("v_fma_f32 hawaii 290")
            << "v_fma_f32" << f(Family::VOP3) << g7 << 4 << false << "V_FMA_F32" << 4 << 4 << false;
        QTest::addRow("v_ceil_f64_e32 dp8") << "v_ceil_f64_e32" << f(Family::VOP1) << g7 << 8 << false << "V_CEIL_F64" << 32 << 32
                                            << false;
        QTest::addRow("v_rcp_f64_e64 dp1") << "v_rcp_f64_e64" << f(Family::VOP3) << g7 << 1 << false << "V_RCP_F64" << 8 << 8
                                           << false;
        QTest::addRow("v_mov_b32_sdwa") << "v_mov_b32_sdwa" << f(Family::SDWA) << g8 << 8 << false << "V_MOV_B32" << 4 << 4
                                        << false;
        QTest::addRow("v_sqrt_f32_dpp") << "v_sqrt_f32_dpp" << f(Family::DPP) << g9 << 8 << false << "V_SQRT_F32" << 16 << 16
                                        << false;
        QTest::addRow("v_mul_f32_e32") << "v_mul_f32_e32" << f(Family::VOP2) << g6 << 8 << false << "<VOP2>" << 4 << 4 << false;
        QTest::addRow("v_mul_f32_e64") << "v_mul_f32_e64" << f(Family::VOP3) << g6 << 8 << false << "<VOP2>" << 4 << 4 << false;
        QTest::addRow("v_mul_f32_sdwa") << "v_mul_f32_sdwa" << f(Family::SDWA) << g9 << 8 << false << "<VOP2>" << 4 << 4 << false;
        QTest::addRow("v_add_i32 gfx6") << "v_add_i32_e32" << f(Family::VOP2) << g6 << 8 << false << "V_ADD_I32" << 4 << 4
                                        << false;
        QTest::addRow("v_add_u32 gfx8 carry")
            << "v_add_u32_e32" << f(Family::VOP2) << g8 << 8 << false << "V_ADD_I32" << 4 << 4 << false;
        QTest::addRow("v_add_co_u32 gfx9") << "v_add_co_u32_e64" << f(Family::VOP3) << g9 << 8 << false << "V_ADD_I32" << 4 << 4
                                           << false;
        QTest::addRow("v_addc_co_u32 gfx9") << "v_addc_co_u32_e32" << f(Family::VOP2) << g9 << 8 << false << "V_ADDC_U32" << 4
                                            << 4 << false;
        QTest::addRow("v_add_u32 gfx9 no carry")
            << "v_add_u32_e32" << f(Family::VOP2) << g9 << 8 << false << "<VOP2>" << 4 << 4 << false;
        QTest::addRow("v_readlane_b32 gfx9 VOP3")
            << "v_readlane_b32" << f(Family::VOP3) << g9 << 8 << false << "V_READLANE_B32" << 4 << 4 << false;
        QTest::addRow("v_cmp_eq_f64_e32 dp2")
            << "v_cmp_eq_f64_e32" << f(Family::VOPC) << g6 << 2 << false << "<VOPC 64-bit>" << 8 << 8 << false;
        QTest::addRow("v_cmpx_lt_u64_e64 dp8")
            << "v_cmpx_lt_u64_e64" << f(Family::VOP3) << g7 << 8 << false << "<VOPC 64-bit>" << 32 << 32 << false;
        QTest::addRow("v_cmp_class_f64") << "v_cmp_class_f64_e32" << f(Family::VOPC) << g7 << 4 << false << "<VOPC 64-bit>" << 16
                                         << 16 << false;
        QTest::addRow("v_cmp_gt_i32_e64") << "v_cmp_gt_i32_e64" << f(Family::VOP3) << g6 << 8 << false << "<VOPC 16/32-bit>" << 4
                                          << 4 << false;
        QTest::addRow("v_cmp_lt_f16_e32") << "v_cmp_lt_f16_e32" << f(Family::VOPC) << g8 << 8 << false << "<VOPC 16/32-bit>" << 4
                                          << 4 << false;
        QTest::addRow("v_pk_add_f16") << "v_pk_add_f16" << f(Family::VOP3P) << g9 << 8 << false << "<VOP3P>" << 4 << 4 << false;
        QTest::addRow("v_mad_u64_u32") << "v_mad_u64_u32" << f(Family::VOP3) << g7 << 8 << false << "V_MAD_U64_U32" << 16 << 16
                                       << false;
        QTest::addRow("s_and_saveexec_b64") << "s_and_saveexec_b64" << f(Family::SOP1) << g6 << 8 << false << "S_*_SAVEEXEC_B64"
                                            << 8 << 8 << false;
        QTest::addRow("s_mov_b32") << "s_mov_b32" << f(Family::SOP1) << g6 << 8 << false << "<SOP1>" << 4 << 4 << false;
        QTest::addRow("s_cbranch_join") << "s_cbranch_join" << f(Family::SOP1) << g6 << 8 << false << "S_CBRANCH_JOIN" << 4 << 4
                                        << true;
        QTest::addRow("s_add_u32") << "s_add_u32" << f(Family::SOP2) << g6 << 8 << false << "<SOP2>" << 4 << 4 << false;
        QTest::addRow("s_movk_i32") << "s_movk_i32" << f(Family::SOPK) << g6 << 8 << false << "<SOPK>" << 4 << 4 << false;
        QTest::addRow("s_setreg_imm32_b32") << "s_setreg_imm32_b32" << f(Family::SOPK) << g6 << 8 << false << "S_SETREG_IMM32_B32"
                                            << 8 << 8 << false;
        QTest::addRow("s_cmp_eq_u32") << "s_cmp_eq_u32" << f(Family::SOPC) << g6 << 8 << false << "<SOPC>" << 4 << 4 << false;
        QTest::addRow("s_cbranch_scc1") << "s_cbranch_scc1" << f(Family::SOPP) << g6 << 8 << false << "<SOPP jump>" << 4 << 4
                                        << false;
        // No row: default 4, flagged, never silent.
        QTest::addRow("s_waitcnt") << "s_waitcnt" << f(Family::SOPP) << g6 << 8 << false << "" << 4 << 4 << true;
        QTest::addRow("v_interp_p1_f32") << "v_interp_p1_f32" << f(Family::VINTRP) << g6 << 8 << false << "" << 4 << 4 << true;
        QTest::addRow("global_load_dword") << "global_load_dword" << f(Family::GLOBAL) << g9 << 8 << false << "" << 4 << 4
                                           << true;
        QTest::addRow("buffer_load_format_xy 18?")
            << "buffer_load_format_xy" << f(Family::MUBUF) << g6 << 8 << false << "BUFFER_LOAD_FORMAT_XY" << 18 << 18 << false;
    }
    void lookup()
    {
        QFETCH(QString, mnemonic);
        QFETCH(int, family);
        QFETCH(int, generation);
        QFETCH(int, dpfactor);
        QFETCH(bool, glc);
        const CycleCount count =
            lookupCycles(mnemonic.toStdString(), Family(family), target(Generation(generation), dpfactor), glc);
        QTEST(QString::fromStdString(count.matched), "matched");
        QTEST(count.low, "low");
        QTEST(count.high, "high");
        QTEST(count.unknown || count.noData, "flagged");
    }

    void canonical_data()
    {
        QTest::addColumn<QString>("mnemonic");
        QTest::addColumn<int>("generation");
        QTest::addColumn<QString>("canonical");
        QTest::addRow("e32") << "v_add_f32_e32" << int(Generation::GFX6) << "V_ADD_F32";
        QTest::addRow("e64") << "v_cvt_f32_i32_e64" << int(Generation::GFX7) << "V_CVT_F32_I32";
        QTest::addRow("sdwa") << "v_mov_b32_sdwa" << int(Generation::GFX9) << "V_MOV_B32";
        QTest::addRow("dpp") << "v_add_f32_dpp" << int(Generation::GFX8) << "V_ADD_F32";
        QTest::addRow("gfx7 v_add_i32") << "v_add_i32_e32" << int(Generation::GFX7) << "V_ADD_I32";
        QTest::addRow("gfx8 v_add_u32 carry") << "v_add_u32_e64" << int(Generation::GFX8) << "V_ADD_I32";
        QTest::addRow("gfx8 v_subrev_u32") << "v_subrev_u32_e32" << int(Generation::GFX8) << "V_SUBREV_I32";
        QTest::addRow("gfx9 v_sub_co_u32") << "v_sub_co_u32_e32" << int(Generation::GFX9) << "V_SUB_I32";
        QTest::addRow("gfx9 v_subbrev_co_u32") << "v_subbrev_co_u32_e64" << int(Generation::GFX9) << "V_SUBBREV_U32";
        QTest::addRow("cdna v_addc_co_u32") << "v_addc_co_u32_e32" << int(Generation::CDNA) << "V_ADDC_U32";
        QTest::addRow("gfx9 v_add_u32 stays") << "v_add_u32_e32" << int(Generation::GFX9) << "V_ADD_U32";
        QTest::addRow("gfx6 v_add_u32 stays") << "v_add_u32" << int(Generation::GFX6) << "V_ADD_U32";
        QTest::addRow("ds") << "ds_read2st64_b32" << int(Generation::GFX6) << "DS_READ2ST64_B32";
    }
    void canonical()
    {
        QFETCH(QString, mnemonic);
        QFETCH(int, generation);
        QTEST(QString::fromStdString(canonicalMnemonic(mnemonic.toStdString(), Generation(generation))), "canonical");
    }
};

QTEST_GUILESS_MAIN(TestTimingTable)
#include "tst_timingtable.moc"
