// SPDX-License-Identifier: MIT
// Issue #15: every instruction LLVM's AMDGPU tables hold for the GFX9 and CDNA targets gets a
// timing with its source (docs/model.md T-table, T-mfma, T-llvm-sched), and MFMA cycles are the
// passes the CDNA ISA manuals give, × 4.
#include "core/gpu.h"
#include "core/model/schedmodel.h"
#include "core/model/timing.h"

#include <QTest>

#include <map>

using namespace gcnlens;

class TestSchedModel : public QObject {
    Q_OBJECT
    // A "gpu" column with a row per name.
    static void addGpuRows(std::initializer_list<const char*> gpus)
    {
        QTest::addColumn<QString>("gpu");
        for (const char* gpu : gpus)
            QTest::addRow("%s", gpu) << QString::fromLatin1(gpu);
    }
private Q_SLOTS:
    // The list of instructions is LLVM's own (instructionCatalog: its MCInstrInfo opcodes of the
    // target's encodings, printed by its MCInstPrinter), not written here.
    void everyInstructionTimed_data() { addGpuRows({"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"}); }
    void everyInstructionTimed()
    {
        QFETCH(QString, gpu);
        const auto target = resolveGpu(gpu.toStdString());
        QVERIFY(target.has_value());
        const auto catalog = instructionCatalog(*target);
        QVERIFY2(catalog.size() > 1000, "LLVM's tables hold thousands of real opcodes per target");
        std::map<std::string, int> bySource;
        QStringList untimed;
        for (const OpcodeInfo& op : catalog) {
            const CycleCount c = lookupCycles(op.mnemonic, op.family, *target, false, op.opcode);
            if (c.rule.empty()) {
                untimed << QString::fromStdString(op.mnemonic + " (" + op.name + ")");
                continue;
            }
            ++bySource[c.rule];
            QVERIFY2(!c.ruleDetail.empty(), op.name.c_str());
            QVERIFY2(c.low > 0 && c.low <= c.high, op.name.c_str());
            QVERIFY2(!c.unknown && !c.noData, op.name.c_str());
        }
        QString summary = QStringLiteral("%1: %2 opcodes").arg(gpu).arg(catalog.size());
        for (const auto& [rule, count] : bySource)
            summary += QStringLiteral(", %1 %2").arg(QString::fromStdString(rule)).arg(count);
        summary += QStringLiteral(", none %1").arg(untimed.size());
        qInfo().noquote() << summary;
        QVERIFY2(untimed.isEmpty(), qPrintable(untimed.mid(0, 20).join(QStringLiteral(", "))));
        QVERIFY(bySource["T-table"] > 0 && bySource["T-llvm-sched"] > 0);
        if (target->generation == Generation::CDNA)
            QVERIFY(bySource["T-mfma"] > 0);
    }

    // readsOwnDestination (core/model/classify.cpp) answers no for every v_* mnemonic before it
    // looks for a *_d16_hi load: that holds only while no VALU mnemonic names a load. LLVM's own
    // list of each target's instructions says so.
    void noVectorAluLoads_data() { addGpuRows({"tahiti", "hawaii", "gfx803", "gfx906", "gfx908", "gfx90a", "gfx942"}); }
    void noVectorAluLoads()
    {
        QFETCH(QString, gpu);
        const auto target = resolveGpu(gpu.toStdString());
        QVERIFY(target.has_value());
        int loads = 0;
        for (const OpcodeInfo& op : instructionCatalog(*target)) {
            const bool load = op.mnemonic.find("load") != std::string::npos;
            loads += load ? 1 : 0;
            QVERIFY2(!(op.mnemonic.starts_with("v_") && load), op.mnemonic.c_str());
        }
        QVERIFY(loads > 10); // (the catalog does hold the memory instructions)
    }

    // Passes from the MFMA tables of AMD's "Instinct MI100" (CDNA1), "MI200" (CDNA2) and "MI300"
    // (CDNA3) ISA reference guides; each agrees with the part's peak matrix rate (e.g. MI250X FP64
    // matrix 95.7 TFLOPS = 220 CUs × 1.7 GHz × 256: v_mfma_f64_16x16x4f64's 2048 flops take 32
    // cycles on one SIMD, 8 passes; MI300 doubles the F16 rate: 32x32x8 F16 in 8 passes).
    void mfmaPasses_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("mnemonic");
        QTest::addColumn<int>("passes");
        QTest::addRow("MI100 32x32x8f16") << "gfx908" << "v_mfma_f32_32x32x8f16" << 16;
        QTest::addRow("MI100 16x16x16f16") << "gfx908" << "v_mfma_f32_16x16x16f16" << 8;
        QTest::addRow("MI100 4x4x4f16") << "gfx908" << "v_mfma_f32_4x4x4f16" << 2;
        QTest::addRow("MI100 32x32x2f32") << "gfx908" << "v_mfma_f32_32x32x2f32" << 16;
        QTest::addRow("MI200 32x32x8f16") << "gfx90a" << "v_mfma_f32_32x32x8f16" << 16;
        QTest::addRow("MI200 16x16x4f32") << "gfx90a" << "v_mfma_f32_16x16x4f32" << 8;
        QTest::addRow("MI200 16x16x4f64") << "gfx90a" << "v_mfma_f64_16x16x4f64" << 8;
        QTest::addRow("MI300 32x32x8_f16") << "gfx942" << "v_mfma_f32_32x32x8_f16" << 8;
        QTest::addRow("MI300 16x16x16_f16") << "gfx942" << "v_mfma_f32_16x16x16_f16" << 4;
        QTest::addRow("MI300 32x32x2_f32") << "gfx942" << "v_mfma_f32_32x32x2_f32" << 16;
        QTest::addRow("MI300 16x16x4_f64") << "gfx942" << "v_mfma_f64_16x16x4_f64" << 8;
    }
    void mfmaPasses()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, mnemonic);
        QFETCH(int, passes);
        const auto target = resolveGpu(gpu.toStdString());
        QVERIFY(target.has_value());
        int found = 0;
        for (const OpcodeInfo& op : instructionCatalog(*target)) {
            if (op.mnemonic != mnemonic.toStdString())
                continue;
            ++found;
            const CycleCount c = lookupCycles(op.mnemonic, op.family, *target, false, op.opcode);
            QCOMPARE(QString::fromStdString(c.rule), QStringLiteral("T-mfma"));
            QCOMPARE(c.low, 4 * passes);
            QVERIFY(QString::fromStdString(c.ruleDetail).startsWith(QStringLiteral("%1 passes").arg(passes)));
        }
        QVERIFY2(found > 0, "LLVM has no such opcode for the target");
    }

    // The table comes first: where GcnTimings.md has a row, LLVM's model is not asked.
    void tableFirst_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("mnemonic");
        QTest::addColumn<QString>("rule");
        QTest::addRow("v_exp_f32 row") << "gfx906" << "v_exp_f32_e32" << "T-table";
        QTest::addRow("v_fma_f64 row") << "gfx90a" << "v_fma_f64" << "T-table";
        QTest::addRow("s_waitcnt from LLVM") << "gfx900" << "s_waitcnt" << "T-llvm-sched";
        QTest::addRow("accvgpr read from LLVM") << "gfx908" << "v_accvgpr_read_b32" << "T-llvm-sched";
        QTest::addRow("promoted VOP2 is the VOP2 class") << "gfx900" << "v_add_f32_e64" << "T-table";
        QTest::addRow("global load from LLVM") << "gfx90a" << "global_load_dwordx4" << "T-llvm-sched";
    }
    void tableFirst()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, mnemonic);
        QFETCH(QString, rule);
        const auto target = resolveGpu(gpu.toStdString());
        bool found = false;
        for (const OpcodeInfo& op : instructionCatalog(*target))
            if (op.mnemonic == mnemonic.toStdString()) {
                found = true;
                const CycleCount c = lookupCycles(op.mnemonic, op.family, *target, false, op.opcode);
                QCOMPARE(QString::fromStdString(c.rule), rule);
            }
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestSchedModel)
#include "tst_schedmodel.moc"
