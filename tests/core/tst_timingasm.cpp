// SPDX-License-Identifier: MIT
// The timing model end to end: LLVM-assembled sources through assemble() and analyzeTiming(),
// and the `gcnlens-cli analyze --json` contract of issue #3 section 3.
#include "core/asm/assembler.h"
#include "core/model/timing.h"
#include "testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace gcnlens;

namespace {

Program assembleText(const QByteArray& text, const char* gpu)
{
    AssembleOptions options;
    options.gpu = gpu;
    return assemble(std::string_view(text.constData(), std::size_t(text.size())), options);
}

const QString kSample = gcnlens::test::testData("data/timing-gfx6.s");

} // namespace

class TestTimingAsm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // tests/data/timing-gfx6.s on tahiti (bare processor: DPFACTOR 2), worked out in its comments:
    //   base 4+4+4+4+4+4 (not taken) +16 (v_mul_lo_u32) +4 (s_endpgm: no table row, LLVM's model) = 44
    //   penalties valu-salu 16, fetch-align 4, branch-position 16, vcc-exec-branch 4 = 40
    void sampleKernel()
    {
        const Program program = assembleText(gcnlens::test::readBytes(kSample), "tahiti");
        QVERIFY(!program.hasErrors());
        QCOMPARE(int(program.instructions.size()), 8);
        const std::uint64_t offsets[] = {0x00, 0x04, 0x08, 0x10, 0x18, 0x1c, 0x20, 0x28};
        for (int i = 0; i < 8; ++i)
            QCOMPARE(program.instructions[std::size_t(i)].offset, offsets[i]); // the sizes the comments assume
        const TimingResult r = analyzeTiming(program);
        QCOMPARE(r.totals.baseCycles, 44);
        QCOMPARE(r.totals.penaltyCycles, 40);
        QCOMPARE(r.totals.byRule.at("valu-salu"), 16);
        QCOMPARE(r.totals.byRule.at("fetch-align"), 4);
        QCOMPARE(r.totals.byRule.at("branch-position"), 16);
        QCOMPARE(r.totals.byRule.at("vcc-exec-branch"), 4);
        QCOMPARE(r.instructions[2].freedBy(), std::string("R-first16"));
        QCOMPARE(r.instructions[6].freedBy(), std::string("R-first16"));
        QCOMPARE(r.instructions[5].direction(), Direction::NotTaken);
        QCOMPARE(r.totals.unknownTimings, 0); // s_endpgm has no row: docs/model.md T-llvm-sched
        QCOMPARE(r.instructions[7].base()->rule, std::string("T-llvm-sched"));
        // Two blocks: the jump ends the first, .Lend (its target) starts the third.
        QCOMPARE(int(r.blocks.size()), 3);

        // Overriding the jump (line of s_cbranch_vccz) to taken: 20 cycles, no B-position;
        // target .Lend at 0x28 is slot 2 → no B-target.
        BranchOverrides overrides;
        overrides.byLine[program.instructions[5].line] = Direction::Taken;
        const TimingResult taken = analyzeTiming(program, {}, overrides);
        QCOMPARE(taken.totals.baseCycles, 44 - 4 + 20);
        QCOMPARE(taken.totals.penaltyCycles, 40 - 16);
    }

    // LLVM's printed names find the rows the tables mean, across generations (section 1).
    void llvmNames_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("matched");
        QTest::addColumn<int>("cycles");
        QTest::addRow("gfx6 v_add_i32") << "tahiti" << "v_add_i32 v0, vcc, v1, v2" << "V_ADD_I32" << 4;
        QTest::addRow("gfx6 v_add_i32 e64") << "tahiti" << "v_add_i32_e64 v0, s[2:3], v1, v2" << "V_ADD_I32" << 4;
        QTest::addRow("gfx8 v_add_u32 carry") << "tonga" << "v_add_u32 v0, vcc, v1, v2" << "V_ADD_I32" << 4;
        QTest::addRow("gfx9 v_add_co_u32") << "gfx900" << "v_add_co_u32 v0, vcc, v1, v2" << "V_ADD_I32" << 4;
        QTest::addRow("gfx9 v_add_u32 no carry") << "gfx900" << "v_add_u32 v0, v1, v2" << "<VOP2>" << 4;
        QTest::addRow("gfx9 v_readlane") << "gfx900" << "v_readlane_b32 s0, v1, 2" << "V_READLANE_B32" << 4;
        QTest::addRow("v_mul_f32 sdwa") << "fiji" << "v_mul_f32_sdwa v0, v1, v2 dst_sel:WORD_1 src0_sel:DWORD src1_sel:DWORD"
                                        << "<VOP2>" << 4;
        QTest::addRow("v_rcp_f64 dp8") << "pitcairn" << "v_rcp_f64 v[0:1], v[2:3]" << "V_RCP_F64" << 64;
        QTest::addRow("v_cmp f64 e64 dp8") << "pitcairn" << "v_cmp_lt_f64_e64 s[0:1], v[0:1], v[2:3]" << "<VOPC 64-bit>" << 32;
        QTest::addRow("v_cmp f64 e64 hawaii dp4")
            << "hawaii" << "v_cmp_lt_f64_e64 s[0:1], v[0:1], v[2:3]" << "<VOPC 64-bit>" << 16;
        QTest::addRow("v_rcp_f64 tahiti dp2") << "tahiti" << "v_rcp_f64 v[0:1], v[2:3]" << "V_RCP_F64" << 16;
        QTest::addRow("v_fma_f32 dp8") << "pitcairn" << "v_fma_f32 v0, v1, v2, v3" << "V_FMA_F32" << 16;
        QTest::addRow("v_fma_f32 Radeon VII") << "Radeon VII" << "v_fma_f32 v0, v1, v2, v3" << "V_FMA_F32" << 4;
        QTest::addRow("ds_read_b64") << "tahiti" << "ds_read_b64 v[0:1], v2" << "DS_READ_B64" << 8;
        QTest::addRow("ds_write2_b32") << "gfx900" << "ds_write2_b32 v0, v1, v2 offset1:4" << "DS_WRITE2_B32" << 12;
        QTest::addRow("s_load_dwordx16 range") << "tahiti" << "s_load_dwordx16 s[0:15], s[2:3], 0" << "S_LOAD_DWORDX16" << 16;
        QTest::addRow("s_load_dwordx2 smem") << "gfx900" << "s_load_dwordx2 s[0:1], s[2:3], 0x0" << "S_LOAD_DWORDX2" << 4;
        QTest::addRow("buffer_atomic_add glc")
            << "tahiti" << "buffer_atomic_add v0, v1, s[4:7], 0 offen glc" << "BUFFER_ATOMIC_ADD" << 17;
        QTest::addRow("buffer_load_dword") << "tahiti" << "buffer_load_dword v0, v1, s[4:7], 0 offen" << "BUFFER_LOAD_DWORD" << 8;
        QTest::addRow("s_and_saveexec_b64") << "tahiti" << "s_and_saveexec_b64 s[0:1], vcc" << "S_*_SAVEEXEC_B64" << 8;
        QTest::addRow("s_setreg_b32") << "tahiti" << "s_setreg_b32 hwreg(HW_REG_MODE), s0" << "S_SETREG_B32" << 8;
        QTest::addRow("s_movk_i32") << "tahiti" << "s_movk_i32 s0, 0x10" << "<SOPK>" << 4;
        QTest::addRow("s_cmp_eq_u32") << "tahiti" << "s_cmp_eq_u32 s0, s1" << "<SOPC>" << 4;
        QTest::addRow("v_pk_add_f16") << "gfx900" << "v_pk_add_f16 v0, v1, v2" << "<VOP3P>" << 4;
    }
    void llvmNames()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, source);
        const Program program = assembleText(source.toUtf8() + '\n', gpu.toUtf8().constData());
        QVERIFY2(!program.hasErrors(), program.diagnostics.empty() ? "" : program.diagnostics[0].message.c_str());
        QCOMPARE(int(program.instructions.size()), 1);
        const TimingResult r = analyzeTiming(program);
        QTEST(QString::fromStdString(r.instructions[0].base()->matched), "matched");
        QTEST(r.instructions[0].cycles(), "cycles");
    }

    void cliJsonContract()
    {
        QProcess cli;
        cli.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"),
                  {QStringLiteral("analyze"), kSample, QStringLiteral("--gpu"), QStringLiteral("tahiti"),
                   QStringLiteral("--option"), QStringLiteral("taken-branch-cycles=24"), QStringLiteral("--taken"),
                   QStringLiteral("13"), QStringLiteral("--json")});
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(cli.readAllStandardOutput(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);

        const QJsonObject gpu = root[QStringLiteral("gpu")].toObject();
        QCOMPARE(gpu[QStringLiteral("name")].toString(), QStringLiteral("tahiti"));
        QCOMPARE(gpu[QStringLiteral("processor")].toString(), QStringLiteral("tahiti"));
        QCOMPARE(gpu[QStringLiteral("generation")].toString(), QStringLiteral("GFX6"));
        QCOMPARE(gpu[QStringLiteral("dpfactor")].toInt(), 2); // every Tahiti product has DP 1/4
        QVERIFY(gpu[QStringLiteral("dpfactor_source")].toString().startsWith(QStringLiteral("tahiti: every product")));

        const QJsonArray instructions = root[QStringLiteral("instructions")].toArray();
        QCOMPARE(instructions.size(), 8);
        for (const auto& value : instructions) {
            const QJsonObject o = value.toObject();
            for (const char* key : {"line", "offset", "size", "cycles"})
                QVERIFY2(o[QLatin1String(key)].isDouble(), key);
            QVERIFY(o[QStringLiteral("mnemonic")].isString());
            QVERIFY(o[QStringLiteral("penalties")].isArray());
            QVERIFY(o[QStringLiteral("freed_by")].isNull() || o[QStringLiteral("freed_by")].isString());
            QCOMPARE(o.contains(QStringLiteral("taken")),
                     o[QStringLiteral("mnemonic")].toString().startsWith(QLatin1String("s_cbranch")));
            for (const auto& p : o[QStringLiteral("penalties")].toArray()) {
                QVERIFY(p.toObject()[QStringLiteral("rule")].isString());
                QVERIFY(p.toObject()[QStringLiteral("cycles")].toInt() > 0);
                QVERIFY(!p.toObject()[QStringLiteral("detail")].toString().isEmpty());
            }
        }
        // The jump on line 13 forced taken: 24 cycles (the option), no B-position; vcc-exec-branch stays.
        const QJsonObject jump = instructions[5].toObject();
        QCOMPARE(jump[QStringLiteral("line")].toInt(), 13);
        QCOMPARE(jump[QStringLiteral("taken")].toBool(), true);
        QCOMPARE(jump[QStringLiteral("cycles")].toInt(), 24);
        QCOMPARE(jump[QStringLiteral("penalties")].toArray().size(), 1);
        QCOMPARE(jump[QStringLiteral("penalties")].toArray()[0].toObject()[QStringLiteral("rule")].toString(),
                 QStringLiteral("vcc-exec-branch"));
        QCOMPARE(instructions[2].toObject()[QStringLiteral("freed_by")].toString(), QStringLiteral("R-first16"));

        // totals: base 44 - 4 + 24 = 64; penalties 16 + 4 + 4 = 24.
        const QJsonObject totals = root[QStringLiteral("totals")].toObject();
        QCOMPARE(totals[QStringLiteral("instructions")].toInt(), 8);
        QCOMPARE(totals[QStringLiteral("bytes")].toInt(), 0x2c);
        QCOMPARE(totals[QStringLiteral("base_cycles")].toInt(), 64);
        QCOMPARE(totals[QStringLiteral("penalty_cycles")].toInt(), 24);
        QCOMPARE(totals[QStringLiteral("single_wave_cycles")].toInt(), 88);
        // hidden: the five VALU v_add, v_mov, v_mad, v_cmp, v_mul_lo = 4+4+4+4+16 = 32
        QCOMPARE(totals[QStringLiteral("hidden_cycles")].toInt(), 32);
        const QJsonObject byRule = totals[QStringLiteral("by_rule")].toObject();
        QCOMPARE(byRule[QStringLiteral("valu-salu")].toInt(), 16);
        QCOMPARE(byRule[QStringLiteral("fetch-align")].toInt(), 4);
        QCOMPARE(byRule[QStringLiteral("vcc-exec-branch")].toInt(), 4);
        QVERIFY(!byRule.contains(QStringLiteral("branch-position")));

        QVERIFY(root[QStringLiteral("blocks")].isArray());
        QCOMPARE(root[QStringLiteral("blocks")].toArray().size(), 3);
        QVERIFY(root[QStringLiteral("blocks")].toArray()[0].toObject()[QStringLiteral("totals")].isObject());
        const QJsonObject options = root[QStringLiteral("options")].toObject();
        QCOMPARE(options.size(), qsizetype(TimingOptions {}.values().size())); // every option, lds-phases and A-* included
        QCOMPARE(options[QStringLiteral("taken-branch-cycles")].toString(), QStringLiteral("24"));
        QVERIFY(root[QStringLiteral("diagnostics")].isArray());
    }

    void cliUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addRow("bad option") << QStringList {QStringLiteral("--option"), QStringLiteral("long-rule=sideways")};
        QTest::addRow("unknown option") << QStringList {QStringLiteral("--option"), QStringLiteral("warp=1")};
        QTest::addRow("bad line") << QStringList {QStringLiteral("--taken"), QStringLiteral("x")};
        QTest::addRow("unknown flag") << QStringList {QStringLiteral("--fast")};
    }
    void cliUsageErrors()
    {
        QFETCH(QStringList, args);
        QProcess cli;
        cli.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), QStringList {QStringLiteral("analyze"), kSample} + args);
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(!cli.readAllStandardError().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTimingAsm)
#include "tst_timingasm.moc"
