// SPDX-License-Identifier: MIT
// Kernel resource usage (issue #4 section 2): used counts from the program's register usage (highest
// index + 1; SGPRs plus the section 6 extras), declared counts from the source's directives, the
// warning when a declaration is smaller than use, and the occupancy input they imply.
#include "core/asm/assembler.h"
#include "core/model/occupancy.h"

#include <QTest>

using namespace gcnlens;

namespace {

Program programFor(const char* gpu, RegisterUsage regs, std::vector<std::pair<std::string, std::int64_t>> directives = {})
{
    Program p;
    p.gpu = *resolveGpu(gpu);
    Kernel k;
    k.name = "k";
    p.kernels.push_back(k);
    p.kernelRegisters.push_back(regs);
    p.registers = regs;
    for (const auto& [name, value] : directives) {
        ResourceDirective d;
        d.name = name;
        d.value = value;
        d.kernel = 0;
        p.directives.push_back(d);
    }
    return p;
}

RegisterUsage regs(int maxVgpr, int maxSgpr, int maxAgpr = -1, bool vcc = false, bool flat = false, bool xnack = false)
{
    RegisterUsage r;
    r.maxVgpr = maxVgpr;
    r.maxSgpr = maxSgpr;
    r.maxAgpr = maxAgpr;
    r.vcc = vcc;
    r.flatScratch = flat;
    r.xnackMask = xnack;
    return r;
}

} // namespace

class TestResources : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void used_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("maxVgpr");
        QTest::addColumn<int>("maxSgpr");
        QTest::addColumn<int>("maxAgpr");
        QTest::addColumn<bool>("vcc");
        QTest::addColumn<bool>("flat");
        QTest::addColumn<bool>("xnack");
        QTest::addColumn<int>("vgprs");
        QTest::addColumn<int>("agprs");
        QTest::addColumn<int>("sgprs");
        // v[4:7] → highest index 7 → 8 VGPRs; s11 → 12 user SGPRs; GFX6 VCC adds 2 → 14.
        QTest::addRow("gfx6 vcc") << "tahiti" << 7 << 11 << -1 << true << false << false << 8 << 0 << 14;
        QTest::addRow("gfx6 no vcc") << "tahiti" << 7 << 11 << -1 << false << false << false << 8 << 0 << 12;
        // GFX7 flat scratch: 4 (it includes VCC's 2).
        QTest::addRow("gfx7 flat") << "hawaii" << 0 << 9 << -1 << true << true << false << 1 << 0 << 14;
        // GFX8: XNACK 4, flat scratch 6.
        QTest::addRow("gfx8 xnack") << "carrizo" << 0 << 9 << -1 << true << false << true << 1 << 0 << 14;
        QTest::addRow("gfx8 flat") << "fiji" << 0 << 9 << -1 << true << true << false << 1 << 0 << 16;
        // No registers at all: 0 used.
        QTest::addRow("none") << "gfx900" << -1 << -1 << -1 << false << false << false << 0 << 0 << 0;
        // AGPRs a[0:15] → 16.
        QTest::addRow("gfx908 agprs") << "gfx908" << 31 << 5 << 15 << true << false << false << 32 << 16 << 8;
    }
    void used()
    {
        QFETCH(QString, gpu);
        QFETCH(int, maxVgpr);
        QFETCH(int, maxSgpr);
        QFETCH(int, maxAgpr);
        QFETCH(bool, vcc);
        QFETCH(bool, flat);
        QFETCH(bool, xnack);
        QFETCH(int, vgprs);
        QFETCH(int, agprs);
        QFETCH(int, sgprs);
        const ResourceUsage u =
            kernelResources(programFor(gpu.toLatin1().constData(), regs(maxVgpr, maxSgpr, maxAgpr, vcc, flat, xnack)), 0);
        QCOMPARE(u.usedVgprs, vgprs);
        QCOMPARE(u.usedAgprs, agprs);
        QCOMPARE(u.userSgprs, maxSgpr + 1);
        QCOMPARE(u.usedSgprs, sgprs);
        QVERIFY(u.warnings.empty());
        QVERIFY(!u.declaredVgprs && !u.declaredSgprs && !u.declaredLds);
    }

    void declared()
    {
        // .amdhsa_*: declared 6 VGPRs < 8 used → warning; SGPRs 20 ≥ 12 user → none.
        const Program p = programFor("gfx900", regs(7, 11, -1, true),
                                     {{".amdhsa_next_free_vgpr", 6},
                                      {".amdhsa_next_free_sgpr", 20},
                                      {".amdhsa_group_segment_fixed_size", 4096},
                                      {".amdhsa_reserve_vcc", 0}});
        const ResourceUsage u = kernelResources(p, 0);
        QCOMPARE(*u.declaredVgprs, 6);
        QCOMPARE(*u.declaredSgprs, 20);
        QCOMPARE(*u.declaredLds, 4096);
        QVERIFY(!u.declaredSgprsIncludeExtras);
        QCOMPARE(int(u.warnings.size()), 1);
        QVERIFY(u.warnings[0].find("VGPRs 6 < 8") != std::string::npos);
        // The occupancy input takes the declared values and the declared reservation (no VCC).
        const OccupancyInput in = occupancyInputFor(p, 0);
        QCOMPARE(in.vgprs, 6);
        QCOMPARE(in.sgprs, 20);
        QCOMPARE(in.ldsBytes, 4096);
        QCOMPARE(in.usesVcc, false);
    }

    void kernelCode()
    {
        // amd_kernel_code_t: granulated_workitem_vgpr_count 3 → (3+1)·4 = 16 VGPRs;
        // wavefront_sgpr_count counts the extras: 18 total, VCC used → 16 user SGPRs for occupancy.
        const Program p = programFor(
            "tahiti", regs(9, 15, -1, true),
            {{"granulated_workitem_vgpr_count", 3}, {"wavefront_sgpr_count", 18}, {"workgroup_group_segment_byte_size", 2048}});
        const ResourceUsage u = kernelResources(p, 0);
        QCOMPARE(*u.declaredVgprs, 16);
        QCOMPARE(*u.declaredSgprs, 18);
        QVERIFY(u.declaredSgprsIncludeExtras);
        QVERIFY(u.warnings.empty()); // 18 ≥ 16 + 2
        const OccupancyInput in = occupancyInputFor(p, 0);
        QCOMPARE(in.vgprs, 16);
        QCOMPARE(in.sgprs, 16);
        QCOMPARE(in.ldsBytes, 2048);
        // 17 total < 16 user + 2 VCC → warning.
        const Program q = programFor("tahiti", regs(9, 15, -1, true), {{"wavefront_sgpr_count", 17}});
        QCOMPARE(int(kernelResources(q, 0).warnings.size()), 1);
    }

    // Granulated counts no descriptor field can hold (a listing line can say anything) declare
    // nothing, with a warning, and never overflow (hunt helper's review of the listing path).
    void granulatedOutOfField_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("value");
        QTest::addColumn<bool>("declares");
        QTest::addRow("vgpr blocks 63") << "granulated_workitem_vgpr_count" << qint64(63) << true;
        QTest::addRow("vgpr blocks 64") << "granulated_workitem_vgpr_count" << qint64(64) << false;
        QTest::addRow("vgpr blocks INT_MAX") << "granulated_workitem_vgpr_count" << qint64(2147483647) << false;
        QTest::addRow("vgpr blocks -1") << "granulated_workitem_vgpr_count" << qint64(-1) << false;
        QTest::addRow("sgpr blocks 15") << "granulated_wavefront_sgpr_count" << qint64(15) << true;
        QTest::addRow("sgpr blocks INT64_MAX") << "granulated_wavefront_sgpr_count" << qint64(INT64_MAX) << false;
    }
    void granulatedOutOfField()
    {
        QFETCH(QString, name);
        QFETCH(qint64, value);
        QFETCH(bool, declares);
        const Program p = programFor("tahiti", regs(3, 3), {{name.toStdString(), value}});
        const ResourceUsage u = kernelResources(p, 0);
        const bool vgpr = name.contains(QLatin1String("vgpr"));
        const std::optional<int> declared = vgpr ? u.declaredVgprs : u.declaredSgprs;
        QCOMPARE(declared.has_value(), declares);
        if (declares)
            QCOMPARE(*declared, int(value + 1) * (vgpr ? 4 : 8));
        const bool warned = std::any_of(u.warnings.begin(), u.warnings.end(),
                                        [](const std::string& w) { return w.find("does not fit") != std::string::npos; });
        QCOMPARE(warned, !declares);
    }

    void clrx()
    {
        // CLRX: .vgprsnum / .sgprsnum (user SGPRs) / .localsize.
        const Program p = programFor("hawaii", regs(3, 40), {{".vgprsnum", 4}, {".sgprsnum", 38}, {".localsize", 1024}});
        const ResourceUsage u = kernelResources(p, 0);
        QCOMPARE(*u.declaredVgprs, 4);
        QCOMPARE(*u.declaredSgprs, 38);
        QCOMPARE(*u.declaredLds, 1024);
        QCOMPARE(int(u.warnings.size()), 1); // 38 < 41 user SGPRs
        QVERIFY(u.warnings[0].find("SGPRs 38 < 41") != std::string::npos);
    }

    void unified()
    {
        // gfx90a: next_free_vgpr counts the unified file; accum_offset 64 → 64 VGPRs + 8 AGPRs.
        const Program p = programFor("gfx90a", regs(60, 10, 7), {{".amdhsa_next_free_vgpr", 72}, {".amdhsa_accum_offset", 64}});
        const ResourceUsage u = kernelResources(p, 0);
        QCOMPARE(*u.declaredVgprs, 64);
        QCOMPARE(*u.declaredAgprs, 8);
        QVERIFY(u.warnings.empty());
        const OccupancyInput in = occupancyInputFor(p, 0);
        QCOMPARE(in.vgprs, 64);
        QCOMPARE(in.agprs, 8);
        // 64 + 8 = 72 → 512/72 = 7 waves.
        QCOMPARE(computeOccupancy(p.gpu, in).wavesPerSimd, 7);
    }

    void otherKernelsIgnored()
    {
        Program p = programFor("tahiti", regs(1, 1), {{".amdhsa_next_free_vgpr", 99}});
        p.directives[0].kernel = 1; // belongs to another kernel
        Kernel other;
        other.name = "other";
        p.kernels.push_back(other);
        p.kernelRegisters.push_back(regs(50, 50));
        QVERIFY(!kernelResources(p, 0).declaredVgprs);
        QCOMPARE(*kernelResources(p, 1).declaredVgprs, 99);
        QCOMPARE(kernelResources(p, 1).usedVgprs, 51);
    }

    void assembled()
    {
        // Through the front-end: v[4:7] → 8 VGPRs, s[10:11] → 12 user SGPRs, VCC written by
        // v_add_i32 → + 2 on GFX6 = 14.
        AssembleOptions options;
        options.gpu = "tahiti";
        const Program p = assemble(".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
                                   "s_load_dwordx2 s[10:11], s[0:1], 0x0\n"
                                   "v_add_i32 v4, vcc, s10, v0\nv_mov_b32 v7, 0\ns_endpgm\n",
                                   options);
        QVERIFY(!p.hasErrors());
        QCOMPARE(int(p.kernels.size()), 1);
        const ResourceUsage u = kernelResources(p, 0);
        QCOMPARE(u.usedVgprs, 8);
        QCOMPARE(u.userSgprs, 12);
        QVERIFY(u.vcc);
        QCOMPARE(u.usedSgprs, 14);
    }
};

QTEST_GUILESS_MAIN(TestResources)
#include "tst_resources.moc"
