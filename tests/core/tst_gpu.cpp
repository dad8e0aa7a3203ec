// SPDX-License-Identifier: MIT
// GPU presets and target-ID parsing (issue #2 section 4).
#include "testutils.h"
#include "core/gpu.h"

#include <QFile>
#include <QTest>

using namespace gcnlens;

class TestGpu : public QObject
{
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
        QTest::addRow("bare tahiti") << "tahiti" << "tahiti" << "GFX6" << 8 << 0 << 10;
        QTest::addRow("fiji") << "fiji" << "fiji" << "GFX8" << 8 << 0 << 10;
        QTest::addRow("tonga") << "tonga" << "tonga" << "GFX8" << 8 << 0 << 8;
        QTest::addRow("gfx90a") << "gfx90a" << "gfx90a" << "CDNA" << 8 << 0 << 8;
        QTest::addRow("gfx908") << "gfx908" << "gfx908" << "CDNA" << 8 << 0 << 10;
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
