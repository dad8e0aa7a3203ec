// SPDX-License-Identifier: MIT
// The Program codec (core/asm/programcodec.h): what the worker process sends back must decode to
// the very program it assembled, every field, and a damaged buffer must fail cleanly.
#include "core/asm/programcodec.h"

#include "../bench/generatedkernel.h"
#include "../testutils.h"
#include "describeprogram.h"

#include <QDirIterator>
#include <QFile>
#include <QtTest>

#include <random>

using namespace gcnlens;

namespace {

QStringList describeAll(const Program& p)
{
    QStringList out = test::describe(p);
    const GpuTarget& g = p.gpu;
    out << QStringLiteral("gpu %1|%2|%3|%4|%5|%6|%7|%8|%9|%10")
               .arg(QString::fromStdString(g.name), QString::fromStdString(g.product), QString::fromStdString(g.processor),
                    QString::fromStdString(g.features), QString::fromStdString(g.targetId))
               .arg(int(g.generation))
               .arg(g.dpfactor)
               .arg(g.computeUnits)
               .arg(g.maxWavesPerSimd)
               .arg(g.fixedSgprs);
    out << QStringLiteral("shapeReused %1 statementsReplayed %2 statementsFromShapes %3 expansionsInferred %4")
               .arg(p.shapeReused)
               .arg(p.statementsReplayed)
               .arg(p.statementsFromShapes)
               .arg(p.expansionsInferred);
    return out;
}

} // namespace

class TestProgramCodec : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data();
    void roundTrip();
    void request();
    void damaged();
};

void TestProgramCodec::roundTrip_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QStringList>("includeDirs");
    // Every kernel the tests and the examples carry, on a generation of each kind.
    const QStringList roots {test::testData("data"), test::sourcePath("resources/examples")};
    for (const QString& root : roots) {
        QDirIterator it(root, {QStringLiteral("*.s")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            for (const char* gpu : {"tahiti", "gfx906", "gfx90a"})
                QTest::addRow("%s %s", qPrintable(QDir(root).relativeFilePath(path)), gpu)
                    << test::readBytes(path) << QString::fromLatin1(gpu) << QStringList {QFileInfo(path).absolutePath()};
        }
    }
    QTest::addRow("generated 3000") << QByteArray::fromStdString(bench::generateKernel(3000)) << QStringLiteral("tahiti")
                                    << QStringList {};
    // Thousands of distinct operands and encodings: the writer's id table grows several times
    // between a value's first use and its next.
    QTest::addRow("distinct 5000") << QByteArray::fromStdString(bench::generateDistinctKernel(5000)) << QStringLiteral("tahiti")
                                   << QStringList {};
    QTest::addRow("empty") << QByteArray() << QStringLiteral("tahiti") << QStringList {};
    QTest::addRow("errors") << QByteArray(".text\nk:\n v_bogus v1\n s_nop 0\n.long 5\n s_branch k\n s_endpgm\n")
                            << QStringLiteral("gfx900") << QStringList {};
    QTest::addRow("bad gpu") << QByteArray("s_nop 0\n") << QStringLiteral("gfx9999") << QStringList {};
}

void TestProgramCodec::roundTrip()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, gpu);
    QFETCH(QStringList, includeDirs);
    AssembleOptions options;
    options.gpu = gpu.toStdString();
    for (const auto& dir : includeDirs)
        options.includeDirs.push_back(dir.toStdString());
    const Program original = assemble(source.toStdString(), options);
    const std::string bytes = codec::encode(original);
    Program decoded;
    std::string error;
    QVERIFY2(codec::decode(bytes, decoded, &error), error.c_str());
    const QStringList want = describeAll(original), got = describeAll(decoded);
    QVERIFY2(got == want, qPrintable(test::firstDifference(got, want)));
    // Decoding into a program that already holds something replaces all of it.
    Program reused = assemble("s_nop 0\ns_nop 1\n", {});
    QVERIFY(codec::decode(bytes, reused));
    QCOMPARE(describeAll(reused), want);
}

void TestProgramCodec::request()
{
    AssembleOptions options;
    options.gpu = "gfx906:xnack-";
    options.includeDirs = {"/a", "b c"};
    options.defsyms = {{"N", -5}, {"M", std::int64_t(1) << 40}};
    options.fileName = "k.s";
    options.reuseShapes = false;
    options.limits.instructions = 12;
    options.limits.bytes = 1ull << 40;
    options.limits.includeDepth = 3;
    options.limits.incbinBytes = 7;
    options.limits.seconds = 2.5;
    options.allowAnyInclude = true;
    options.dialect = AssembleOptions::Dialect::Clrx;
    options.clrx.format = ClrxFormat::Rocm;
    options.clrx.is64bit = true;
    options.clrx.driverVersion = 200406;
    options.clrx.llvmVersion = 70000;
    options.clrx.processor = "gfx900";
    options.clrx.sourceGpuWins = false;
    options.clrx.includeDirs = {"/inc"};
    options.gpuFromSource = true;
    options.triple = "amdgcn--";
    const std::string source = std::string("s_nop 0\n\0binary\xff", 16);
    std::string bytes;
    codec::encodeRequest(options, source, bytes);
    AssembleOptions back;
    std::string text, error;
    QVERIFY2(codec::decodeRequest(bytes, back, text, &error), error.c_str());
    QCOMPARE(back.gpu, options.gpu);
    QCOMPARE(back.includeDirs, options.includeDirs);
    QCOMPARE(back.defsyms, options.defsyms);
    QCOMPARE(back.fileName, options.fileName);
    QCOMPARE(back.reuseShapes, options.reuseShapes);
    QVERIFY(back.limits == options.limits);
    QCOMPARE(back.allowAnyInclude, options.allowAnyInclude);
    QCOMPARE(back.dialect, options.dialect);
    QCOMPARE(back.clrx.format, options.clrx.format);
    QCOMPARE(back.clrx.is64bit, options.clrx.is64bit);
    QCOMPARE(back.clrx.driverVersion, options.clrx.driverVersion);
    QCOMPARE(back.clrx.llvmVersion, options.clrx.llvmVersion);
    QCOMPARE(back.clrx.processor, options.clrx.processor);
    QCOMPARE(back.clrx.sourceGpuWins, options.clrx.sourceGpuWins);
    QCOMPARE(back.clrx.includeDirs, options.clrx.includeDirs);
    QCOMPARE(back.gpuFromSource, options.gpuFromSource);
    QCOMPARE(back.triple, options.triple);
    QCOMPARE(text, source);
    bytes.pop_back();
    QVERIFY(!codec::decodeRequest(bytes, back, text, &error));
}

// Every prefix and random corruptions: an error or a program, never a crash or a huge allocation.
void TestProgramCodec::damaged()
{
    const Program original = assemble(".text\nk:\n v_add_f32 v1, v2, v3\n s_cbranch_scc1 k\n v_bogus\n s_endpgm\n", {});
    const std::string bytes = codec::encode(original);
    Program p;
    std::string error;
    for (std::size_t n = 0; n < bytes.size(); ++n)
        QVERIFY2(!codec::decode(std::string_view(bytes).substr(0, n), p, &error), qPrintable(QString::number(n)));
    QVERIFY(!error.empty());
    QVERIFY(!codec::decode(bytes + "x", p, &error));
    std::mt19937 random(12);
    int decodedAnyway = 0;
    for (int round = 0; round < 2000; ++round) {
        std::string copy = bytes;
        for (int k = 0; k < 3; ++k)
            copy[random() % copy.size()] = char(random());
        decodedAnyway += codec::decode(copy, p) ? 1 : 0;
    }
    QVERIFY(decodedAnyway < 2000); // most corruptions are caught; none crashed
}

QTEST_GUILESS_MAIN(TestProgramCodec)
#include "tst_programcodec.moc"
