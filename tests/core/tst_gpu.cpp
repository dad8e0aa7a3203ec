// SPDX-License-Identifier: MIT
// GPU presets and target-ID parsing (issue #2 section 4).
#include "core/gpu.h"
#include "testutils.h"

#include <QFile>

#include <QTest>
#include <algorithm>
#include <map>

using namespace gcnlens;

class TestGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPresetRowLoads()
    {
        // Count the data rows of the file itself, so a row the parser drops fails here.
        QFile file(gcnlens::test::sourcePath("resources/gpus.tsv"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        int rows = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().trimmed();
            if (!line.isEmpty() && !line.startsWith('#'))
                ++rows;
        }
        QCOMPARE(int(gpuPresets().size()), rows);
        for (const auto& preset : gpuPresets()) {
            std::string error;
            QVERIFY2(resolveGpu(preset.name, &error).has_value(), error.c_str());
        }
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("processor");
        QTest::addColumn<QString>("generation");
        QTest::addColumn<int>("dpfactor");
        QTest::addColumn<int>("cus");
        QTest::addColumn<int>("maxWaves");
        QTest::addRow("HD 7970") << "Radeon HD 7970" << "tahiti" << "GFX6" << 2 << 32 << 10;
        QTest::addRow("R9 290X") << "radeon r9 290x" << "hawaii" << "GFX7" << 4 << 44 << 10;
        QTest::addRow("W9100") << "FirePro W9100" << "hawaii" << "GFX7" << 1 << 44 << 10;
        QTest::addRow("RX 480") << "Radeon RX 480" << "polaris10" << "GFX8" << 8 << 36 << 8;
        QTest::addRow("Vega 64") << "Radeon RX Vega 64" << "gfx900" << "GFX9" << 8 << 64 << 10;
        QTest::addRow("Radeon VII") << "Radeon VII" << "gfx906" << "GFX9" << 2 << 60 << 10;
        QTest::addRow("bare tahiti") << "tahiti" << "tahiti" << "GFX6" << 2 << 0 << 10;
        QTest::addRow("fiji") << "fiji" << "fiji" << "GFX8" << 8 << 0 << 10;
        QTest::addRow("tonga") << "tonga" << "tonga" << "GFX8" << 8 << 0 << 8;
        QTest::addRow("gfx90a") << "gfx90a" << "gfx90a" << "CDNA" << 1 << 0 << 8;
        QTest::addRow("gfx908") << "gfx908" << "gfx908" << "CDNA" << 1 << 0 << 10;
    }
    void resolve()
    {
        QFETCH(QString, name);
        std::string error;
        const auto target = resolveGpu(name.toStdString(), &error);
        QVERIFY2(target.has_value(), error.c_str());
        QTEST(QString::fromStdString(target->processor), "processor");
        QTEST(QString::fromStdString(std::string(generationName(target->generation))), "generation");
        QTEST(target->dpfactor, "dpfactor");
        QTEST(target->computeUnits, "cus");
        QTEST(target->maxWavesPerSimd, "maxWaves");
    }

    // timing-model.md section 1: the DP rate of every preset as AMD's specifications give it
    // (DPFACTOR 1 = DP 1/2, 2 = 1/4, 4 = 1/8, 8 = 1/16), and the preset's source names it.
    void presetDpFactor_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("dpfactor");
        const std::map<std::string, int> rates = {
            {"Radeon HD 7970", 2},       {"Radeon HD 7950", 2},        {"FirePro W9000", 2},
            {"FirePro W8000", 2},        {"Radeon R9 280X", 2},        {"Radeon R9 280", 2},
            {"Radeon HD 7870", 8},       {"Radeon HD 7850", 8},        {"Radeon HD 7770", 8},
            {"Radeon HD 8570", 8},       {"Radeon HD 8750M", 8},       {"Radeon HD 7790", 8},
            {"Radeon R9 290X", 4},       {"Radeon R9 290", 4},         {"FirePro W9100", 1},
            {"FirePro W8100", 1},        {"FirePro S9150", 1},         {"A10-7850K (Kaveri)", 8},
            {"Athlon 5350 (Kabini)", 8}, {"Radeon R9 285", 8},         {"Radeon R9 Fury X", 8},
            {"Radeon R9 Nano", 8},       {"Radeon RX 480", 8},         {"Radeon RX 470", 8},
            {"Radeon RX 460", 8},        {"Radeon RX 550", 8},         {"Radeon R7 M260 (Iceland)", 8},
            {"A10-8700P (Carrizo)", 8},  {"Radeon RX Vega 64", 8},     {"Radeon RX Vega 56", 8},
            {"Radeon Instinct MI25", 8}, {"Radeon Vega 8 (Raven)", 8}, {"Radeon VII", 2},
            {"Radeon Pro VII", 1},       {"Radeon Instinct MI50", 1},  {"Radeon Instinct MI60", 1},
            {"Instinct MI100", 1},       {"Instinct MI210", 1},        {"Instinct MI250X", 1},
            {"Instinct MI300X", 1}};
        // Every preset of the file has a row here: a new preset needs its DP rate checked.
        for (const auto& preset : gpuPresets()) {
            const auto it = rates.find(preset.name);
            QTest::addRow("%s", preset.name.c_str())
                << QString::fromStdString(preset.name) << (it == rates.end() ? -1 : it->second);
        }
    }
    void presetDpFactor()
    {
        QFETCH(QString, name);
        QFETCH(int, dpfactor);
        QVERIFY2(dpfactor > 0, "no DP rate on record in this test for the preset");
        const auto target = resolveGpu(name.toStdString());
        QVERIFY(target.has_value());
        QCOMPARE(target->dpfactor, dpfactor);
        QVERIFY(QString::fromStdString(target->dpfactorSource).startsWith(name + QStringLiteral(": the product has DP 1/")));
    }

    // Section 1: a bare processor takes the rate its products share, else the most common part;
    // CDNA is DP 1/2 or faster. The source says which reading it was and names the chip.
    void processorDpFactor_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("dpfactor");
        QTest::addColumn<QString>("reading");
        const std::map<std::string, std::pair<int, const char*>> expected = {
            {"gfx600", {2, "every product"}},    {"tahiti", {2, "every product"}}, {"gfx701", {4, "most common part"}},
            {"hawaii", {4, "most common part"}}, {"gfx702", {4, "every product"}}, {"gfx906", {1, "most common part"}},
            {"gfx908", {1, "every product"}},    {"gfx90a", {1, "every product"}}, {"gfx942", {1, "every product"}}};
        for (const auto& name : knownProcessors()) {
            const auto it = expected.find(name);
            // The other GCN chips have DP 1/16 on every product.
            const auto [factor, reading] = it == expected.end() ? std::pair {8, "every product"} : it->second;
            QTest::addRow("%s", name.c_str()) << QString::fromStdString(name) << factor << QString::fromLatin1(reading);
        }
    }
    void processorDpFactor()
    {
        QFETCH(QString, name);
        QFETCH(int, dpfactor);
        QFETCH(QString, reading);
        const auto target = resolveGpu(name.toStdString());
        QVERIFY(target.has_value());
        QCOMPARE(target->dpfactor, dpfactor);
        const QString source = QString::fromStdString(target->dpfactorSource);
        QVERIFY2(source.contains(reading), qPrintable(source));
        QVERIFY2(source.startsWith(QString::fromStdString(target->processor) + QLatin1Char(':')), qPrintable(source));
        // A processor with products of several rates names them and offers the other presets.
        if (reading == QLatin1String("most common part"))
            QVERIFY(presetsFor(target->processor).size() >= 2);
    }

    void presetsOfAProcessor_data()
    {
        QTest::addColumn<QString>("processor");
        QTest::addColumn<QString>("preset");
        QTest::addRow("hawaii") << "hawaii" << "FirePro W9100";
        QTest::addRow("gfx701 is hawaii") << "gfx701" << "Radeon R9 290X";
        QTest::addRow("gfx906") << "gfx906:xnack-" << "Radeon VII";
        QTest::addRow("polaris12 alias") << "polaris12" << "Radeon RX 480";
    }
    void presetsOfAProcessor()
    {
        QFETCH(QString, processor);
        QFETCH(QString, preset);
        const auto presets = presetsFor(processor.toStdString());
        QVERIFY(std::any_of(presets.begin(), presets.end(),
                            [&](const GpuPreset& p) { return QString::fromStdString(p.name) == preset; }));
        const auto target = resolveGpu(processor.toStdString());
        for (const auto& p : presets) // every preset offered is the same chip
            QCOMPARE(resolveGpu(p.name)->generation, target->generation);
    }

    void targetIds_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("features");
        QTest::addColumn<QString>("canonical");
        QTest::addRow("xnack-") << "gfx906:xnack-" << "-xnack" << "gfx906:xnack-";
        QTest::addRow("two features") << "gfx90a:sramecc+:xnack-" << "+sramecc,-xnack" << "gfx90a:sramecc+:xnack-";
        QTest::addRow("upper case") << "GFX900:xnack+" << "+xnack" << "gfx900:xnack+";
    }
    void targetIds()
    {
        QFETCH(QString, id);
        std::string error;
        const auto target = resolveGpu(id.toStdString(), &error);
        QVERIFY2(target.has_value(), error.c_str());
        QTEST(QString::fromStdString(target->features), "features");
        QTEST(QString::fromStdString(target->targetId), "canonical");
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("needle");
        QTest::addRow("unknown") << "gfx1100" << "unknown GPU 'gfx1100'";
        QTest::addRow("empty") << "" << "unknown GPU";
        QTest::addRow("bad feature") << "gfx906:xnack" << "bad target-ID feature";
        QTest::addRow("unsupported feature") << "tahiti:xnack+" << "has no xnack";
        QTest::addRow("sramecc on gfx900") << "gfx900:sramecc+" << "has no sramecc";
    }
    void rejects()
    {
        QFETCH(QString, name);
        QFETCH(QString, needle);
        std::string error;
        QVERIFY(!resolveGpu(name.toStdString(), &error).has_value());
        QVERIFY2(QString::fromStdString(error).contains(needle), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGpu)
#include "tst_gpu.moc"
