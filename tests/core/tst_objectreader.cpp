// SPDX-License-Identifier: MIT
// The code object reader (core/input/objectreader.h): kernels assembled to objects here with
// llvm-mc give the same instructions, offsets, sizes, registers and timing as their source, and so
// does the object's llvm-objdump listing (core/input/listingreader.h); offload bundles pick their
// target; broken files give an error and never crash.
#include "codeobjects.h"
#include "core/analysis.h"
#include "core/asm/assembler.h"
#include "core/input/decoder.h"
#include "core/input/listingreader.h"
#include "core/input/objectreader.h"
#include "testutils.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace gcnlens;

namespace {

using gcnlens::test::readBytes;

using gcnlens::test::bundle;
using gcnlens::test::llvmTool;
using gcnlens::test::objectFor;
using gcnlens::test::runTool;

std::string_view view(const QByteArray& bytes)
{
    return {bytes.constData(), std::size_t(bytes.size())};
}

Analysis analysed(Program program)
{
    return analyzeProgram(std::move(program), AnalysisRequest {});
}

int errorCount(const Program& program)
{
    return int(std::count_if(program.diagnostics.begin(), program.diagnostics.end(),
                             [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

// Same instructions, in the same kernels, at the same offsets, with the same timing.
void compareAnalyses(const Analysis& expected, const Analysis& actual, const char* what)
{
    const Program& a = expected.program;
    const Program& b = actual.program;
    QVERIFY2(errorCount(b) == 0, what);
    QCOMPARE(b.kernels.size(), a.kernels.size());
    for (std::size_t k = 0; k < a.kernels.size(); ++k) {
        QCOMPARE(b.kernels[k].name, a.kernels[k].name);
        QCOMPARE(b.kernels[k].endInstruction - b.kernels[k].firstInstruction,
                 a.kernels[k].endInstruction - a.kernels[k].firstInstruction);
    }
    QCOMPARE(b.instructions.size(), a.instructions.size());
    for (std::size_t i = 0; i < a.instructions.size(); ++i) {
        const Instruction& x = a.instructions[i];
        const Instruction& y = b.instructions[i];
        QCOMPARE(y.mnemonic, x.mnemonic);
        QCOMPARE(y.operands, x.operands);
        QCOMPARE(y.offset, x.offset);
        QCOMPARE(y.size, x.size);
        QCOMPARE(y.encoding, x.encoding);
        QCOMPARE(y.family, x.family);
        QCOMPARE(y.branch, x.branch);
        QCOMPARE(y.targetIndex(), x.targetIndex());
        QVERIFY(y.defs == x.defs);
        QVERIFY(y.uses == x.uses);
        QCOMPARE(actual.timing.instructions[i].cycles(), expected.timing.instructions[i].cycles());
        QCOMPARE(actual.timing.instructions[i].penaltyCycles(), expected.timing.instructions[i].penaltyCycles());
    }
    QCOMPARE(actual.timing.totals.singleWaveCycles, expected.timing.totals.singleWaveCycles);
    QCOMPARE(actual.timing.totals.hiddenCycles, expected.timing.totals.hiddenCycles);
    for (std::size_t k = 0; k < a.kernels.size(); ++k)
        QCOMPARE(b.kernelRegisters[k].maxVgpr, a.kernelRegisters[k].maxVgpr);
}

const QString kData = QStringLiteral(GCNLENS_TESTDATA_DIR "/input/");

} // namespace

class TestObjectReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("gpu");
        QTest::addRow("two kernels, gfx900") << kData + QLatin1String("two-kernels-gfx900.s") << QStringLiteral("gfx900");
        QTest::addRow("AGPRs, gfx90a") << kData + QLatin1String("agprs-gfx90a.s") << QStringLiteral("gfx90a");
    }
    // Source, its object and the object's llvm-objdump listing: one analysis.
    void roundTrip()
    {
        QFETCH(QString, source);
        QFETCH(QString, gpu);
        QTemporaryDir dir;
        const QByteArray text = readBytes(source);
        QVERIFY(!text.isEmpty());
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        const Analysis fromSource = analysed(assemble(view(text), options));
        QCOMPARE(errorCount(fromSource.program), 0);

        const QByteArray object = objectFor(source, gpu, dir);
        QVERIFY(!object.isEmpty());
        input::ObjectReadOptions readOptions;
        readOptions.fileName = "kernel.o";
        const input::ObjectListing read = input::readCodeObject(view(object), readOptions);
        QVERIFY2(read.error.empty(), read.error.c_str());
        QCOMPARE(QString::fromStdString(read.program.gpu.processor), gpu); // from e_flags, no --gpu
        const Analysis fromObject = analysed(read.program);
        compareAnalyses(fromSource, fromObject, "object");

        // Every instruction's line in the generated listing shows its own text and address.
        const QList<QByteArray> lines = QByteArray::fromStdString(read.listing).split('\n');
        for (const Instruction& inst : read.program.instructions) {
            QVERIFY(inst.line >= 1 && inst.line <= lines.size());
            QVERIFY(lines[inst.line - 1].contains(QByteArray::fromStdString(inst.mnemonic)));
        }
        // The declared resources come from the descriptor: occupancy reads them.
        for (std::size_t k = 0; k < read.program.kernels.size(); ++k) {
            const OccupancyInput& a = fromSource.occupancyInputs[k];
            const OccupancyInput& b = fromObject.occupancyInputs[k];
            QCOMPARE(b.ldsBytes, a.ldsBytes);
            QVERIFY2(b.vgprs >= a.vgprs && b.vgprs - a.vgprs < 8, "VGPRs: the descriptor's granules cover the declared count");
        }

        // The generated listing reads back as a listing, and so does llvm-objdump's.
        AssembleOptions listingOptions;
        listingOptions.gpu = gpu.toStdString();
        const Analysis fromOwnListing = analysed(input::readListing(read.listing, listingOptions));
        compareAnalyses(fromSource, fromOwnListing, "gcnlens listing");
        // The declared values survive the listing (the window analyses the listing it shows).
        QCOMPARE(fromOwnListing.occupancyInputs.size(), fromObject.occupancyInputs.size());
        for (std::size_t k = 0; k < fromObject.occupancyInputs.size(); ++k) {
            QCOMPARE(fromOwnListing.occupancyInputs[k].vgprs, fromObject.occupancyInputs[k].vgprs);
            QCOMPARE(fromOwnListing.occupancyInputs[k].sgprs, fromObject.occupancyInputs[k].sgprs);
            QCOMPARE(fromOwnListing.occupancyInputs[k].ldsBytes, fromObject.occupancyInputs[k].ldsBytes);
        }
        const QByteArray objdump = runTool(
            llvmTool("llvm-objdump"), {QStringLiteral("-d"), dir.filePath(QFileInfo(source).baseName() + QLatin1String(".o"))});
        QVERIFY(!objdump.isEmpty());
        compareAnalyses(fromSource, analysed(input::readListing(view(objdump), listingOptions)), "llvm-objdump listing");
    }

    // The metadata note's declared values are what occupancy reads, each on a line of the listing.
    void metadata()
    {
        QTemporaryDir dir;
        const QByteArray object = objectFor(kData + QLatin1String("metadata-gfx900.s"), QStringLiteral("gfx900"), dir);
        QVERIFY(!object.isEmpty());
        const input::ObjectListing read = input::readCodeObject(view(object), input::ObjectReadOptions {});
        QVERIFY2(read.error.empty(), read.error.c_str());
        const Analysis analysis = analysed(read.program);
        QCOMPARE(analysis.occupancyInputs.size(), std::size_t(1));
        const OccupancyInput& in = analysis.occupancyInputs[0];
        QCOMPARE(in.vgprs, 37);
        QCOMPARE(in.ldsBytes, 4096);
        QCOMPARE(in.workgroupSize, 256); // .reqd_workgroup_size 128·2·1, before .max_flat_workgroup_size
        const QList<QByteArray> lines = QByteArray::fromStdString(read.listing).split('\n');
        for (const ResourceDirective& d : read.program.directives) {
            QVERIFY(d.line >= 1 && d.line <= lines.size());
            QVERIFY(lines[d.line - 1].contains(QByteArray::fromStdString(d.name)));
            QCOMPARE(d.kernel, 0);
        }
    }

    // .reqd_workgroup_size is the product of its dimensions, and one too large for 64 bits is no
    // declaration at all (the product overflowed, undefined behaviour that UBSan stops on).
    void metadataWorkgroupSize_data()
    {
        QTest::addColumn<QByteArray>("dimensions");
        QTest::addColumn<qlonglong>("declared"); // -1: not declared
        QTest::addRow("128·2·1") << QByteArray("[ 128, 2, 1 ]") << 256LL;
        QTest::addRow("product beyond 64 bits") << QByteArray("[ 4294967296, 4294967296, 4294967296 ]") << -1LL;
        QTest::addRow("negative product beyond 64 bits") << QByteArray("[ -4294967296, 4294967296, 4294967296 ]") << -1LL;
        QTest::addRow("largest 64-bit product") << QByteArray("[ 4611686018427387903, 2, 1 ]") << 9223372036854775806LL;
    }
    void metadataWorkgroupSize()
    {
        QFETCH(QByteArray, dimensions);
        QFETCH(qlonglong, declared);
        QTemporaryDir dir;
        QByteArray source = readBytes(kData + QLatin1String("metadata-gfx900.s"));
        QVERIFY(source.contains("[ 128, 2, 1 ]"));
        source.replace("[ 128, 2, 1 ]", dimensions);
        const QString path = dir.filePath(QStringLiteral("workgroup.s"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write(source) == source.size());
        file.close();
        const QByteArray object = objectFor(path, QStringLiteral("gfx900"), dir);
        QVERIFY(!object.isEmpty());
        const input::ObjectListing read = input::readCodeObject(view(object), input::ObjectReadOptions {});
        QVERIFY2(read.error.empty(), read.error.c_str());
        qlonglong found = -1;
        for (const ResourceDirective& d : read.program.directives)
            if (d.name == ".reqd_workgroup_size")
                found = d.value;
        QCOMPARE(found, declared);
    }

    void bundles_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("expected");
        QTest::addRow("no --gpu: the first amdgcn entry") << QString() << QStringLiteral("gfx900");
        QTest::addRow("--gpu picks its entry") << QStringLiteral("gfx90a") << QStringLiteral("gfx90a");
        QTest::addRow("--gpu with no entry: the first") << QStringLiteral("gfx803") << QStringLiteral("gfx803");
    }
    void bundles()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QByteArray gfx900 = objectFor(kData + QLatin1String("two-kernels-gfx900.s"), QStringLiteral("gfx900"), dir);
        const QByteArray gfx90a = objectFor(kData + QLatin1String("agprs-gfx90a.s"), QStringLiteral("gfx90a"), dir);
        const QByteArray fat = bundle({{"host-x86_64-unknown-linux-gnu", QByteArray()},
                                       {"hipv4-amdgcn-amd-amdhsa--gfx900", gfx900},
                                       {"hipv4-amdgcn-amd-amdhsa--gfx90a", gfx90a}});
        input::ObjectReadOptions options;
        options.gpu = gpu.toStdString();
        const input::ObjectListing read = input::readCodeObject(view(fat), options);
        QVERIFY2(read.error.empty(), read.error.c_str());
        QCOMPARE(QString::fromStdString(read.program.gpu.processor), expected);
        // The note lists the entries and says which one is shown.
        QVERIFY(!read.program.diagnostics.empty());
        const Diagnostic& note = read.program.diagnostics.front();
        QCOMPARE(note.severity, Severity::Note);
        QVERIFY(QString::fromStdString(note.message).contains(QLatin1String("3 entries")));
        QVERIFY(QString::fromStdString(note.message).contains(QLatin1String("showing hipv4-amdgcn-amd-amdhsa--")));
        QVERIFY(!read.program.instructions.empty());
    }

    void brokenFiles_data()
    {
        QTest::addColumn<int>("cut");            // bytes kept (-1: all)
        QTest::addColumn<QByteArray>("replace"); // written at byte 0x20 (the section table offset)
        QTest::addColumn<QString>("cause");
        QTest::addRow("empty") << 0 << QByteArray() << QStringLiteral("no ELF magic");
        QTest::addRow("ELF magic only") << 4 << QByteArray() << QStringLiteral("not a readable ELF file");
        QTest::addRow("truncated header") << 40 << QByteArray() << QStringLiteral("not a readable ELF file");
        QTest::addRow("truncated sections") << 300 << QByteArray() << QStringLiteral("not a readable ELF file");
        QTest::addRow("section table offset corrupted")
            << -1 << QByteArray("\xff\xff\xff\x7f\0\0\0\0", 8) << QStringLiteral("not a readable ELF file");
        QTest::addRow("bundle without amdgcn") << -2 << QByteArray() << QStringLiteral("no amdgcn code object");
        QTest::addRow("bundle cut short") << -3 << QByteArray() << QStringLiteral("truncated clang offload bundle");
        QTest::addRow("compressed bundle") << -4 << QByteArray() << QStringLiteral("compressed clang offload bundle");
        QTest::addRow("GFX6 code object") << -5 << QByteArray() << QStringLiteral("does not decode GFX6/GFX7");
    }
    void brokenFiles()
    {
        QFETCH(int, cut);
        QFETCH(QByteArray, replace);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        QByteArray bytes = objectFor(kData + QLatin1String("two-kernels-gfx900.s"), QStringLiteral("gfx900"), dir);
        if (cut >= 0)
            bytes.truncate(cut);
        if (!replace.isEmpty())
            bytes.replace(0x28, replace.size(), replace); // e_shoff
        if (cut == -2)
            bytes = bundle({{"host-x86_64-unknown-linux-gnu",
                             QByteArray("\x7f"
                                        "ELF")}});
        if (cut == -3)
            bytes = bundle({{"hipv4-amdgcn-amd-amdhsa--gfx900", bytes}}).left(200);
        if (cut == -5)
            bytes =
                objectFor(QStringLiteral(GCNLENS_SOURCE_DIR "/resources/examples/saxpy-gfx6.s"), QStringLiteral("tahiti"), dir);
        if (cut == -4)
            bytes = QByteArray("CCOB\1\0\2\0") + bytes;
        const input::ObjectListing read = input::readCodeObject(view(bytes), input::ObjectReadOptions {});
        QVERIFY2(QString::fromStdString(read.error).contains(cause), read.error.c_str());
        QCOMPARE(errorCount(read.program), 1);
    }

    // The command line names the file and the cause, and exits with the usage status.
    void cliNamesFileAndCause()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.o"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(objectFor(kData + QLatin1String("two-kernels-gfx900.s"), QStringLiteral("gfx900"), dir).left(100));
        file.close();
        const gcnlens::test::CliRun cli = gcnlens::test::runCli({QStringLiteral("analyze"), path});
        const QString error = QString::fromUtf8(cli.err);
        QVERIFY2(error.contains(path) && error.contains(QLatin1String("not a readable ELF file")), qPrintable(error));
        QVERIFY(cli.exitCode > 0);
    }

    // An SDWA word with a reserved select (7) crashes LLVM 19's disassembler: the decoder reads it
    // as data, for every select field, and still decodes the same word with a valid select.
    void reservedSdwaSelect_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QByteArray>("words");
        QTest::addColumn<bool>("data");
        // (QByteArray, not auto: a QStringBuilder would refer to the parameters after they are gone.)
        const auto sdwa = [](char b5, char b6, char b7) -> QByteArray {
            return QByteArray("\xf9\x00\x00\x00\x00", 5) + b5 + b6 + b7;
        };
        QTest::addRow("src1_sel 7, gfx900") << QStringLiteral("gfx900") << sdwa(0, 0, 0x07) << true;
        QTest::addRow("src0_sel 7, gfx900") << QStringLiteral("gfx900") << sdwa(0, 0x07, 0) << true;
        QTest::addRow("dst_sel 7, fiji") << QStringLiteral("fiji") << sdwa(0x07, 0, 0) << true;
        QTest::addRow("src1_sel 6, gfx900") << QStringLiteral("gfx900") << sdwa(0, 0, 0x06) << false;
    }
    void reservedSdwaSelect()
    {
        QFETCH(QString, gpu);
        QFETCH(QByteArray, words);
        QFETCH(bool, data);
        const auto target = resolveGpu(gpu.toStdString());
        QVERIFY(target);
        input::Decoder decoder(*target);
        const auto decoded = decoder.decode(
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(words.constData()), std::size_t(words.size())),
            0);
        QCOMPARE(decoded.inst.isData, data);
        QCOMPARE(decoded.inst.size, data ? 4 : 8);
    }
    // The fuzz finding itself (a damaged gfx900 object): read, not crashed on.
    void reservedSdwaSelectObject()
    {
        QFile file(kData + QLatin1String("sdwa-sel7.o"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        const input::ObjectListing read = input::readCodeObject(view(bytes), input::ObjectReadOptions {});
        QVERIFY2(read.error.empty(), read.error.c_str());
        QVERIFY(read.listing.find(".long 0x000000f9") != std::string::npos);
    }

    // A note section whose alignment is 0 or 1 (allowed by LLVM's note iterator, which pads to 4)
    // is read like the aligned original: the same kernels and metadata, no crash (a CI fuzz finding).
    void noteSectionAlignment_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<quint8>("alignment");
        // (LLVM 19 no longer assembles v2 sources, so the v2 ISA note has no row here.)
        for (const quint8 alignment : {0, 1})
            QTest::addRow("v5 metadata, alignment %d", alignment)
                << QStringLiteral("metadata-gfx900.s") << QStringLiteral("gfx900") << alignment;
    }
    void noteSectionAlignment()
    {
        QFETCH(QString, source);
        QFETCH(QString, gpu);
        QFETCH(quint8, alignment);
        QTemporaryDir dir;
        const QByteArray good = objectFor(kData + source, gpu, dir);
        QVERIFY(!good.isEmpty());
        const auto field = [&](qsizetype at, int size) {
            quint64 value = 0;
            for (int i = size - 1; i >= 0; --i)
                value = value << 8 | quint8(good[at + i]);
            return qsizetype(value);
        };
        const qsizetype sectionTable = field(0x28, 8), entrySize = field(0x3a, 2), count = field(0x3c, 2);
        QByteArray damaged = good;
        int notes = 0;
        for (qsizetype index = 0; index < count; ++index) {
            const qsizetype header = sectionTable + index * entrySize;
            if (field(header + 4, 4) != 7) // SHT_NOTE
                continue;
            ++notes;
            damaged.replace(header + 0x30, 8, QByteArray(8, '\0'));
            damaged[header + 0x30] = char(alignment);
        }
        QCOMPARE(notes, 1);
        const input::ObjectListing original = input::readCodeObject(view(good), input::ObjectReadOptions {});
        const input::ObjectListing read = input::readCodeObject(view(damaged), input::ObjectReadOptions {});
        QVERIFY2(read.error.empty(), read.error.c_str());
        QCOMPARE(read.listing, original.listing);
        QCOMPARE(read.program.instructions.size(), original.program.instructions.size());
        QCOMPARE(read.program.gpu.processor, original.program.gpu.processor);
        QCOMPARE(read.program.directives.size(), original.program.directives.size());
    }

    // Random damage (byte flips, cuts) never crashes or hangs the reader: a bounded, seeded run
    // of what the fuzz target does at length.
    void randomDamage()
    {
        QTemporaryDir dir;
        const QByteArray good = objectFor(kData + QLatin1String("two-kernels-gfx900.s"), QStringLiteral("gfx900"), dir);
        QVERIFY(!good.isEmpty());
        QRandomGenerator random(14);
        int readable = 0;
        for (int round = 0; round < 1500; ++round) {
            QByteArray bytes = good;
            const int flips = 1 + int(random.bounded(8));
            for (int i = 0; i < flips; ++i)
                bytes[int(random.bounded(bytes.size()))] = char(random.bounded(256));
            if (round % 3 == 0)
                bytes.truncate(int(random.bounded(bytes.size())));
            if (qEnvironmentVariableIsSet("GCNLENS_DUMP_DAMAGE")) {
                QFile dump(qEnvironmentVariable("GCNLENS_DUMP_DAMAGE"));
                if (dump.open(QIODevice::WriteOnly))
                    dump.write(bytes);
            }
            const input::ObjectListing read = input::readCodeObject(view(bytes), input::ObjectReadOptions {});
            readable += read.error.empty() ? 1 : 0;
        }
        QVERIFY(readable > 0); // some damage leaves the code readable
    }
};

QTEST_GUILESS_MAIN(TestObjectReader)
#include "tst_objectreader.moc"
