// SPDX-License-Identifier: MIT
// Sources LLVM 14 assembled and LLVM 19 refuses in part: code object v2 directives become
// warnings with the kernel laid out as before (core/asm/sourcemap.cpp), and the triple follows the
// source's own build (core/asm/llvmkit.cpp tripleFor) unless --triple forces it.
#include "core/asm/assembler.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

using namespace gcnlens;

namespace {

using gcnlens::test::readBytes;

const QString kData = QStringLiteral(GCNLENS_TESTDATA_DIR "/input/");

Program assembleFile(const QString& name, const char* gpu, std::vector<std::pair<std::string, std::int64_t>> defsyms = {},
                     const char* triple = "")
{
    const QByteArray text = readBytes(kData + name);
    AssembleOptions options;
    options.gpu = gpu;
    options.fileName = name.toStdString();
    options.includeDirs.push_back(kData.toStdString());
    options.defsyms = std::move(defsyms);
    options.triple = triple;
    return assemble(std::string_view(text.constData(), std::size_t(text.size())), options);
}

QStringList messages(const Program& program, Severity severity)
{
    QStringList out;
    for (const auto& d : program.diagnostics)
        if (d.severity == severity)
            out << QString::fromStdString(d.message);
    return out;
}

} // namespace

class TestOldSources : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void v2Directives_data()
    {
        QTest::addColumn<QString>("directive");
        QTest::addColumn<int>("line");
        QTest::addRow("version") << ".hsa_code_object_version" << 4;
        QTest::addRow("isa") << ".hsa_code_object_isa" << 5;
        QTest::addRow("target") << ".amd_amdgpu_isa" << 25;
        QTest::addRow("metadata") << ".amd_amdgpu_hsa_metadata" << 26;
    }
    // Each old directive: one warning on its line naming it and what gcnlens takes; no errors.
    void v2Directives()
    {
        QFETCH(QString, directive);
        QFETCH(int, line);
        const Program program = assembleFile(QStringLiteral("v2-gfx803.s"), "gfx803");
        QVERIFY2(!program.hasErrors(), qPrintable(messages(program, Severity::Error).join(QLatin1Char('\n'))));
        int found = 0;
        for (const auto& d : program.diagnostics)
            if (d.line == line && d.severity == Severity::Warning) {
                QVERIFY(QString::fromStdString(d.message).contains(directive));
                QVERIFY(QString::fromStdString(d.message).contains(QLatin1String("takes")));
                ++found;
            }
        QCOMPARE(found, 1);
    }

    // Laid out as LLVM did: the directives emit nothing, so the code is what it is without them.
    // Offsets count from the code entry, after the 256-byte amd_kernel_code_t (a whole number of
    // 32-byte fetch blocks, so every slot is the same as LLVM's layout).
    void v2Layout()
    {
        const Program program = assembleFile(QStringLiteral("v2-gfx803.s"), "gfx803");
        QCOMPARE(program.kernels.size(), std::size_t(1));
        QCOMPARE(program.kernels[0].name, std::string("hello"));
        QVERIFY(!program.instructions.empty());
        const auto first = std::find_if(program.instructions.begin(), program.instructions.end(),
                                        [](const Instruction& inst) { return !inst.isData; });
        QVERIFY(first != program.instructions.end());
        QCOMPARE(first->mnemonic, std::string("s_load_dwordx2"));
        QCOMPARE(first->offset, std::uint64_t(0));
        QCOMPARE(program.instructions.back().mnemonic, std::string("s_endpgm"));
    }

    // The ISA the source names against the GPU it is analysed for.
    void isaMismatch()
    {
        const Program other = assembleFile(QStringLiteral("v2-gfx803.s"), "gfx900");
        QVERIFY(messages(other, Severity::Warning).filter(QLatin1String("written for gfx803 but is analysed for gfx900")).size()
                == 1);
        const Program same = assembleFile(QStringLiteral("v2-gfx803.s"), "gfx803");
        QVERIFY(messages(same, Severity::Warning).filter(QLatin1String("written for")).isEmpty());
    }

    void triples_data()
    {
        QTest::addColumn<qlonglong>("version"); // ROCM_METADATA_VERSION (0: not given)
        QTest::addColumn<QString>("triple");    // forced (empty: chosen)
        QTest::addColumn<bool>("errors");
        QTest::addRow("v5: amdhsa, as MIOpen builds it") << 5LL << QString() << false;
        QTest::addRow("v4: the v2 path, without the OS") << 4LL << QString() << false;
        QTest::addRow("v5 forced to amdgcn--: the guard fires") << 5LL << QStringLiteral("amdgcn--") << true;
        QTest::addRow("v5 forced to amdhsa") << 5LL << QStringLiteral("amdgcn-amd-amdhsa") << false;
    }
    // MIOpen-style sources (metadata-guard.inc does what rocm_version.inc does).
    void triples()
    {
        QFETCH(qlonglong, version);
        QFETCH(QString, triple);
        QFETCH(bool, errors);
        const std::string forced = triple.toStdString();
        const Program program = assembleFile(QStringLiteral("metadata-guard.s"), "gfx900",
                                             {{"ROCM_METADATA_VERSION", std::int64_t(version)}}, forced.c_str());
        QCOMPARE(program.hasErrors(), errors);
        if (!errors) {
            QCOMPARE(program.instructions.size(), std::size_t(2)); // the .if on the machine version held
            QCOMPARE(program.kernels.size(), std::size_t(1));
        } else {
            QVERIFY(messages(program, Severity::Error).filter(QLatin1String("already defined")).size() == 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestOldSources)
#include "tst_oldsources.moc"
