// SPDX-License-Identifier: MIT
// The LLVM-backed front-end (issue #2 section 7). Sizes and encodings are never written here:
// `llvm-mc -show-encoding` (and the object file's .text for resolved branches) from the same LLVM is the
// oracle. What is written here are the expectations the ISA documents give: which encoding family
// an instruction uses on which generation, which constants are inline, when VOP2 must become VOP3.
#include "core/asm/assembler.h"
#include "core/asm/programcodec.h"
#include "testutils.h"

#include "describeprogram.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <span>

using namespace gcnlens;

namespace {

QString llvmTool(const char* name)
{
    return QFileInfo(QStringLiteral(GCNLENS_LLVM_MC)).dir().filePath(QString::fromLatin1(name));
}

struct OracleInst {
    QString mnemonic;
    std::vector<int> bytes; // -1 for a byte LLVM leaves to a fixup (a branch target)
};

struct Oracle {
    int exitCode = -1;
    QString errors;
    QList<OracleInst> insts;
};

// Runs `llvm-mc -arch=amdgcn -mcpu=CPU -show-encoding` and parses "; encoding: [0x..,A,…]".
Oracle runLlvmMc(const QString& cpu, const QByteArray& source, const QStringList& extra = {})
{
    Oracle oracle;
    QProcess process;
    QStringList args {QStringLiteral("-arch=amdgcn"), QStringLiteral("-mcpu=") + cpu, QStringLiteral("-show-encoding")};
    args += extra;
    process.start(QStringLiteral(GCNLENS_LLVM_MC), args);
    if (!process.waitForStarted())
        return oracle;
    process.write(source);
    process.closeWriteChannel();
    process.waitForFinished(60000);
    oracle.exitCode = process.exitCode();
    oracle.errors = QString::fromUtf8(process.readAllStandardError());
    static const QRegularExpression line(QStringLiteral(R"(^\s*(\S+).*;\s*encoding:\s*\[([^\]]*)\])"));
    for (const QString& text : QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        const auto match = line.match(text);
        if (!match.hasMatch())
            continue;
        OracleInst inst;
        inst.mnemonic = match.captured(1);
        for (const QString& byte : match.captured(2).split(QLatin1Char(','))) {
            bool ok = false;
            const int value = byte.trimmed().toInt(&ok, 16);
            inst.bytes.push_back(ok ? value : -1);
        }
        oracle.insts.append(inst);
    }
    return oracle;
}

// Assembles to an object and returns its .text bytes cut at the given instruction sizes: the
// encodings with their fixups (branch offsets) resolved. (llvm-objdump -d would be simpler, but
// LLVM 19 cannot disassemble GFX6/7.)
QList<std::vector<int>> objectInstructions(const QString& cpu, const QByteArray& source, const QList<int>& sizes, QString* error)
{
    QList<std::vector<int>> result;
    QTemporaryDir dir;
    const QString src = dir.filePath(QStringLiteral("in.s")), obj = dir.filePath(QStringLiteral("out.o"));
    const QString bin = dir.filePath(QStringLiteral("text.bin"));
    QFile file(src);
    if (!file.open(QIODevice::WriteOnly) || file.write(source) != source.size()) {
        *error = QStringLiteral("cannot write %1").arg(src);
        return result;
    }
    file.close();
    QProcess mc;
    mc.start(QStringLiteral(GCNLENS_LLVM_MC),
             {QStringLiteral("-arch=amdgcn"), QStringLiteral("-mcpu=") + cpu, QStringLiteral("-filetype=obj"), src,
              QStringLiteral("-o"), obj});
    mc.waitForFinished(60000);
    if (mc.exitCode() != 0) {
        *error = QString::fromUtf8(mc.readAllStandardError());
        return result;
    }
    QProcess copy;
    copy.start(llvmTool("llvm-objcopy"),
               {QStringLiteral("-O"), QStringLiteral("binary"), QStringLiteral("--only-section=.text"), obj, bin});
    copy.waitForFinished(60000);
    QFile text(bin);
    if (copy.exitCode() != 0 || !text.open(QIODevice::ReadOnly)) {
        *error = QString::fromUtf8(copy.readAllStandardError());
        return result;
    }
    const QByteArray bytes = text.readAll();
    qsizetype at = 0;
    for (const int size : sizes) {
        std::vector<int> inst;
        for (int i = 0; i < size && at < bytes.size(); ++i)
            inst.push_back(int(std::uint8_t(bytes[at++])));
        result.append(inst);
    }
    if (at != bytes.size())
        *error = QStringLiteral(".text has %1 bytes, the instructions %2").arg(bytes.size()).arg(at);
    return result;
}

Program assembleText(const QByteArray& source, const QString& gpu, std::vector<std::pair<std::string, std::int64_t>> defsyms = {},
                     std::vector<std::string> includeDirs = {})
{
    AssembleOptions options;
    options.gpu = gpu.toStdString();
    options.defsyms = std::move(defsyms);
    options.includeDirs = std::move(includeDirs);
    Program program = assemble(std::string_view(source.constData(), std::size_t(source.size())), options);
    // Every program assembled here also crosses the worker's codec (issue #12) unchanged.
    Program decoded;
    if (!codec::decode(codec::encode(program), decoded) || test::describe(decoded) != test::describe(program))
        QTest::qFail("the program codec does not give this program back", __FILE__, __LINE__);
    return program;
}

QString diagnosticsText(const Program& program)
{
    QString text;
    for (const auto& d : program.diagnostics)
        text += QStringLiteral("%1:%2: %3: %4\n")
                    .arg(d.line)
                    .arg(d.column)
                    .arg(QString::fromLatin1(severityName(d.severity)), QString::fromStdString(d.message));
    return text;
}

std::vector<int> bytesOf(const Instruction& inst)
{
    return {inst.encoding.begin(), inst.encoding.end()};
}

QString familyOf(const Instruction& inst)
{
    return QString::fromLatin1(familyName(inst.family));
}

// Assembles one line with the front-end and with llvm-mc; both must accept it and agree on the
// bytes. Callers check QTest::currentTestFailed() afterwards.
void assembleOne(const QString& gpu, const QByteArray& source, Program& program, OracleInst& reference)
{
    const Oracle oracle = runLlvmMc(gpu, source + '\n');
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.errors));
    QCOMPARE(oracle.insts.size(), 1);
    reference = oracle.insts[0];
    program = assembleText(source + '\n', gpu);
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(1));
    QCOMPARE(program.instructions[0].size, int(reference.bytes.size()));
    QCOMPARE(bytesOf(program.instructions[0]), reference.bytes);
    QCOMPARE(program.instructions[0].offset, std::uint32_t(0));
}

bool hasRange(std::span<const RegRange> ranges, RegKind kind, int first = -1, int count = -1)
{
    for (const auto& r : ranges)
        if (r.kind == kind && (first < 0 || r.first == first) && (count < 0 || r.count == count))
            return true;
    return false;
}

// One instruction of each encoding family, with the generations that have it. Families come
// from the ISA manuals (Southern Islands, Sea Islands, GCN3, Vega): SMRD is the GFX6/7 scalar
// memory encoding, SMEM replaces it on GFX8+; FLAT arrives with GFX7; SDWA/DPP with GFX8;
// VOP3P, GLOBAL and SCRATCH with GFX9. LLVM prints VOP3-only opcodes without a suffix and the
// VOP1/2/C forms with _e32/_e64/_sdwa/_dpp; on GFX8+ its VINTRP names carry _e32.
struct FamilyCase {
    const char* tag;
    const char* source;
    const char* family;
    const char* mnemonic;
    Generation from;
    Generation to = Generation::GFX9;
    const char* mnemonicGfx8 = nullptr; // when GFX8+ prints it differently
};

const FamilyCase kFamilyCases[] = {
    {"SOP1", "s_mov_b32 s0, s1", "SOP1", "s_mov_b32", Generation::GFX6},
    {"SOP1-64", "s_not_b64 s[2:3], s[4:5]", "SOP1", "s_not_b64", Generation::GFX6},
    {"SOP2", "s_add_u32 s0, s1, s2", "SOP2", "s_add_u32", Generation::GFX6},
    {"SOPK", "s_movk_i32 s0, 0x1234", "SOPK", "s_movk_i32", Generation::GFX6},
    {"SOPC", "s_cmp_eq_u32 s0, s1", "SOPC", "s_cmp_eq_u32", Generation::GFX6},
    {"SOPP", "s_nop 0", "SOPP", "s_nop", Generation::GFX6},
    {"SOPP-waitcnt", "s_waitcnt vmcnt(0) lgkmcnt(0)", "SOPP", "s_waitcnt", Generation::GFX6},
    {"SMRD", "s_load_dwordx2 s[2:3], s[0:1], 0x4", "SMRD", "s_load_dwordx2", Generation::GFX6, Generation::GFX7},
    {"SMEM", "s_load_dwordx2 s[2:3], s[0:1], 0x10", "SMEM", "s_load_dwordx2", Generation::GFX8},
    {"VOP1", "v_mov_b32 v0, v1", "VOP1", "v_mov_b32_e32", Generation::GFX6},
    {"VOP1-rcp", "v_rcp_f32 v2, v3", "VOP1", "v_rcp_f32_e32", Generation::GFX6},
    {"VOP2", "v_add_f32 v0, v1, v2", "VOP2", "v_add_f32_e32", Generation::GFX6},
    {"VOP2-mac", "v_mac_f32 v0, v1, v2", "VOP2", "v_mac_f32_e32", Generation::GFX6},
    {"VOPC", "v_cmp_eq_f32 vcc, v0, v1", "VOPC", "v_cmp_eq_f32_e32", Generation::GFX6},
    {"VOP3-only", "v_fma_f32 v0, v1, v2, v3", "VOP3", "v_fma_f32", Generation::GFX6},
    {"VOP3-e64", "v_add_f32_e64 v0, v1, v2", "VOP3", "v_add_f32_e64", Generation::GFX6},
    {"VOP3-cmp", "v_cmp_eq_f32_e64 s[0:1], v0, v1", "VOP3", "v_cmp_eq_f32_e64", Generation::GFX6},
    {"VOP3P", "v_pk_add_f16 v0, v1, v2", "VOP3P", "v_pk_add_f16", Generation::GFX9},
    {"SDWA", "v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD", "SDWA", "v_mov_b32_sdwa",
     Generation::GFX8},
    {"DPP", "v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf", "DPP", "v_mov_b32_dpp", Generation::GFX8},
    {"VINTRP", "v_interp_p1_f32 v0, v1, attr0.x", "VINTRP", "v_interp_p1_f32", Generation::GFX6, Generation::GFX9,
     "v_interp_p1_f32_e32"},
    {"DS", "ds_read_b32 v0, v1", "DS", "ds_read_b32", Generation::GFX6},
    {"DS-offset", "ds_write_b64 v1, v[2:3] offset:16", "DS", "ds_write_b64", Generation::GFX6},
    {"MUBUF", "buffer_load_dword v0, v1, s[4:7], 0 offen", "MUBUF", "buffer_load_dword", Generation::GFX6},
    {"MUBUF-glc", "buffer_store_dword v0, v1, s[4:7], 0 offen glc", "MUBUF", "buffer_store_dword", Generation::GFX6},
    {"MTBUF", "tbuffer_load_format_x v0, off, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT]", "MTBUF",
     "tbuffer_load_format_x", Generation::GFX6},
    {"MIMG-load", "image_load v[0:3], v[4:7], s[8:15] dmask:0xf unorm", "MIMG", "image_load", Generation::GFX6},
    {"MIMG-sample", "image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf", "MIMG", "image_sample", Generation::GFX6},
    {"EXP", "exp mrt0 v0, v0, v0, v0 done vm", "EXP", "exp", Generation::GFX6},
    {"FLAT", "flat_load_dword v0, v[0:1]", "FLAT", "flat_load_dword", Generation::GFX7},
    {"GLOBAL", "global_load_dword v0, v[0:1], off", "GLOBAL", "global_load_dword", Generation::GFX9},
    {"SCRATCH", "scratch_load_dword v0, v1, off", "SCRATCH", "scratch_load_dword", Generation::GFX9},
};

struct GpuCase {
    const char* name;
    Generation generation;
};
const GpuCase kGpus[] = {{"tahiti", Generation::GFX6},    {"hawaii", Generation::GFX7}, {"fiji", Generation::GFX8},
                         {"polaris10", Generation::GFX8}, {"gfx900", Generation::GFX9}, {"gfx906", Generation::GFX9}};

std::vector<const FamilyCase*> casesFor(Generation generation)
{
    std::vector<const FamilyCase*> cases;
    for (const auto& c : kFamilyCases)
        if (generation >= c.from && generation <= c.to)
            cases.push_back(&c);
    return cases;
}

QString expectedMnemonic(const FamilyCase& c, Generation generation)
{
    return QString::fromLatin1(c.mnemonicGfx8 && generation >= Generation::GFX8 ? c.mnemonicGfx8 : c.mnemonic);
}

} // namespace

class TestFrontEnd : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void families_data();
    void families();
    void familyOffsets_data();
    void familyOffsets();
    void literals_data();
    void literals();
    void vop2Promotion_data();
    void vop2Promotion();
    void scalarMemoryByGeneration_data();
    void scalarMemoryByGeneration();
    void branches_data();
    void branches();
    void plainLines();
    void expansions_data();
    void expansions();
    void reptBodyEndsWhereLlvmEndsIt();
    void uniqueMacroLabels();
    void setSymbolsInRegisters();
    void includeWithSearchPath();
    void defsymChangesSize_data();
    void defsymChangesSize();
    void errorDirective();
    void rawWords();
    void amdhsaKernels();
    void oldCodeObjectDirectives();
    void diagnostics_data();
    void diagnostics();
    void badLineKeepsLaterOffsets();
    void badEndOfText_data();
    void badEndOfText();
    void emptySource();
    void warningWithoutLocation();
    void binarySource();
    void registerUsage_data();
    void registerUsage();
};

void TestFrontEnd::initTestCase()
{
    QVERIFY2(QFileInfo::exists(QStringLiteral(GCNLENS_LLVM_MC)), GCNLENS_LLVM_MC " (the oracle) is missing");
    QVERIFY2(QFileInfo::exists(llvmTool("llvm-objcopy")), "llvm-objcopy (the branch oracle) is missing");
}

// Every family on every generation that has it: family and mnemonic from the ISA docs, size and
// bytes from llvm-mc.
void TestFrontEnd::families_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("family");
    QTest::addColumn<QString>("mnemonic");
    for (const auto& gpu : kGpus)
        for (const FamilyCase* c : casesFor(gpu.generation))
            QTest::addRow("%s/%s", gpu.name, c->tag) << QString::fromLatin1(gpu.name) << QByteArray(c->source)
                                                     << QString::fromLatin1(c->family) << expectedMnemonic(*c, gpu.generation);
}

void TestFrontEnd::families()
{
    QFETCH(QString, gpu);
    QFETCH(QByteArray, source);
    QFETCH(QString, family);
    QFETCH(QString, mnemonic);

    Program program;
    OracleInst reference;
    assembleOne(gpu, source, program, reference);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(reference.mnemonic, mnemonic); // the expectation agrees with LLVM's printer
    const Instruction& inst = program.instructions[0];
    QCOMPARE(familyOf(inst), family);
    QCOMPARE(QString::fromStdString(inst.mnemonic), mnemonic);
    QVERIFY(!inst.isData);
    QVERIFY(!inst.placeholder);
    QVERIFY(!inst.hasLiteral); // none of these carries a literal
}

// The same instructions back to back: each offset is the sum of the oracle's sizes before it.
void TestFrontEnd::familyOffsets_data()
{
    QTest::addColumn<QString>("gpu");
    for (const auto& gpu : kGpus)
        QTest::addRow("%s", gpu.name) << QString::fromLatin1(gpu.name);
}

void TestFrontEnd::familyOffsets()
{
    QFETCH(QString, gpu);
    Generation generation = Generation::GFX6;
    for (const auto& g : kGpus)
        if (gpu == QLatin1String(g.name))
            generation = g.generation;
    QByteArray source = ".text\n";
    QStringList mnemonics;
    for (const FamilyCase* c : casesFor(generation)) {
        source += QByteArray("  ") + c->source + "\n  s_mov_b32 s9, 0x4000\n"; // literal: 8-byte SOP1 between
        mnemonics << expectedMnemonic(*c, generation) << QStringLiteral("s_mov_b32");
    }
    const Oracle oracle = runLlvmMc(gpu, source);
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.errors));
    const Program program = assembleText(source, gpu);
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(oracle.insts.size()));
    std::uint64_t offset = 0;
    for (qsizetype i = 0; i < oracle.insts.size(); ++i) {
        const Instruction& inst = program.instructions[std::size_t(i)];
        QCOMPARE(QString::fromStdString(inst.mnemonic), mnemonics[i]);
        QCOMPARE(std::uint64_t(inst.offset), offset);
        QCOMPARE(program.sectionOffset(inst), offset);
        QCOMPARE(bytesOf(inst), oracle.insts[i].bytes);
        offset += oracle.insts[i].bytes.size();
    }
}

// Inline constants (SI/CI/GCN3/Vega ISA "Instruction Operands"): integers -16…64 and the floats
// ±0.5, ±1.0, ±2.0, ±4.0 fit in the operand field; any other value costs a 32-bit literal dword
// after the instruction, so a 4-byte encoding becomes 8.
void TestFrontEnd::literals_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<bool>("literal");
    QTest::addColumn<int>("size");
    for (const char* gpu : {"tahiti", "fiji", "gfx900"}) {
        const auto row = [&](const char* tag, const char* source, bool literal, int size) {
            QTest::addRow("%s/%s", gpu, tag) << QString::fromLatin1(gpu) << QByteArray(source) << literal << size;
        };
        row("int 64 inline", "s_mov_b32 s0, 64", false, 4);
        row("int 65 literal", "s_mov_b32 s0, 65", true, 8);
        row("int -16 inline", "s_mov_b32 s0, -16", false, 4);
        row("int -17 literal", "s_mov_b32 s0, -17", true, 8);
        row("f32 0.5 inline", "v_mov_b32 v0, 0.5", false, 4);
        row("f32 0.3 literal", "v_mov_b32 v0, 0.3", true, 8);
        row("f32 1.0 inline", "v_mov_b32 v0, 1.0", false, 4);
        row("f32 -4.0 inline", "v_add_f32 v0, -4.0, v1", false, 4);
        row("VOP2 src0 literal", "v_add_f32 v0, 0.3, v1", true, 8);
        row("VOPC literal", "v_cmp_lt_f32 vcc, 0x1234, v0", true, 8);
        row("SOP2 literal", "s_add_u32 s0, s1, 0x1000", true, 8);
        row("SOPC literal", "s_cmp_eq_u32 s0, 1000", true, 8);
        // SOPK's 32-bit form: the immediate is a dword after the instruction (SI ISA, SOPK).
        row("s_setreg_imm32_b32", "s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x1234", true, 8);
    }
    // CI added an SMRD form whose offset is a 32-bit literal (Sea Islands ISA, SMRD).
    QTest::addRow("hawaii/SMRD literal offset")
        << QStringLiteral("hawaii") << QByteArray("s_load_dword s0, s[0:1], 0x1000") << true << 8;
}

void TestFrontEnd::literals()
{
    QFETCH(QString, gpu);
    QFETCH(QByteArray, source);
    QFETCH(bool, literal);
    QFETCH(int, size);
    Program program;
    OracleInst reference;
    assembleOne(gpu, source, program, reference);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(int(reference.bytes.size()), size); // the ISA derivation agrees with LLVM
    QCOMPARE(program.instructions[0].size, size);
    QCOMPARE(program.instructions[0].hasLiteral, literal);
}

// VOP2 src1 must be a VGPR and the 32-bit form has no abs/neg/clamp/omod bits, so either forces
// the VOP3 (_e64, 8-byte) encoding; an SGPR in src0 does not.
void TestFrontEnd::vop2Promotion_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("mnemonic");
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("size");
    for (const char* gpu : {"tahiti", "hawaii", "fiji", "gfx900"}) {
        const auto row = [&](const char* tag, const char* source, const char* mnemonic, const char* family, int size) {
            QTest::addRow("%s/%s", gpu, tag) << QString::fromLatin1(gpu) << QByteArray(source) << QString::fromLatin1(mnemonic)
                                             << QString::fromLatin1(family) << size;
        };
        row("vgprs", "v_add_f32 v0, v1, v2", "v_add_f32_e32", "VOP2", 4);
        row("sgpr src0", "v_add_f32 v0, s0, v1", "v_add_f32_e32", "VOP2", 4);
        row("sgpr src1", "v_add_f32 v0, v1, s0", "v_add_f32_e64", "VOP3", 8);
        row("abs", "v_add_f32 v0, |v1|, v2", "v_add_f32_e64", "VOP3", 8);
        row("neg", "v_add_f32 v0, -v1, v2", "v_add_f32_e64", "VOP3", 8);
        row("clamp", "v_add_f32 v0, v1, v2 clamp", "v_add_f32_e64", "VOP3", 8);
        row("omod mul:2", "v_add_f32 v0, v1, v2 mul:2", "v_add_f32_e64", "VOP3", 8);
        row("omod div:2", "v_mul_f32 v0, v1, v2 div:2", "v_mul_f32_e64", "VOP3", 8);
        row("vopc sgpr dst", "v_cmp_eq_f32 s[2:3], v0, v1", "v_cmp_eq_f32_e64", "VOP3", 8);
    }
}

void TestFrontEnd::vop2Promotion()
{
    QFETCH(QString, gpu);
    QFETCH(QByteArray, source);
    QFETCH(QString, mnemonic);
    QFETCH(QString, family);
    QFETCH(int, size);
    Program program;
    OracleInst reference;
    assembleOne(gpu, source, program, reference);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(reference.mnemonic, mnemonic);
    const Instruction& inst = program.instructions[0];
    QCOMPARE(QString::fromStdString(inst.mnemonic), mnemonic);
    QCOMPARE(familyOf(inst), family);
    QCOMPARE(inst.size, size);
    QVERIFY(!inst.hasLiteral); // VOP3's 8 bytes are its native size, not a literal
}

// Scalar memory: SMRD (one dword) on GFX6/7, SMEM (two dwords) from GFX8 (GCN3 ISA, SMEM).
void TestFrontEnd::scalarMemoryByGeneration_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("size");
    QTest::addRow("tahiti") << QStringLiteral("tahiti") << QStringLiteral("SMRD") << 4;
    QTest::addRow("hawaii") << QStringLiteral("hawaii") << QStringLiteral("SMRD") << 4;
    QTest::addRow("fiji") << QStringLiteral("fiji") << QStringLiteral("SMEM") << 8;
    QTest::addRow("polaris10") << QStringLiteral("polaris10") << QStringLiteral("SMEM") << 8;
    QTest::addRow("gfx900") << QStringLiteral("gfx900") << QStringLiteral("SMEM") << 8;
    QTest::addRow("gfx906") << QStringLiteral("gfx906") << QStringLiteral("SMEM") << 8;
}

void TestFrontEnd::scalarMemoryByGeneration()
{
    QFETCH(QString, gpu);
    QFETCH(QString, family);
    QFETCH(int, size);
    const QByteArray source = "s_load_dwordx4 s[4:7], s[0:1], 0x0\ns_buffer_load_dword s8, s[4:7], 0x0\n";
    const Oracle oracle = runLlvmMc(gpu, source);
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.errors));
    const Program program = assembleText(source, gpu);
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(2));
    for (int i = 0; i < 2; ++i) {
        const Instruction& inst = program.instructions[std::size_t(i)];
        QCOMPARE(familyOf(inst), family);
        QCOMPARE(inst.size, size);
        QCOMPARE(bytesOf(inst), oracle.insts[i].bytes);
        QVERIFY(!inst.hasLiteral);
    }
    QCOMPARE(program.instructions[1].offset, std::uint32_t(size));
}

// Branch resolution: forward and backward targets; the simm16 the front-end patches must equal
// the one the object file gets, and (SI ISA, SOPP) simm16 = (target - (pc + 4)) / 4.
void TestFrontEnd::branches_data()
{
    QTest::addColumn<QString>("gpu");
    for (const char* gpu : {"tahiti", "hawaii", "fiji", "gfx900"})
        QTest::addRow("%s", gpu) << QString::fromLatin1(gpu);
}

void TestFrontEnd::branches()
{
    QFETCH(QString, gpu);
    const QByteArray source = ".text\n"
                              "top:\n"
                              "  s_nop 0\n"
                              "  s_cbranch_scc0 done\n" // forward, over a literal
                              "  s_mov_b32 s0, 0x12345\n"
                              "again:\n"
                              "  v_add_f32 v0, 0.3, v0\n"
                              "  s_cbranch_vccnz again\n" // backward by one instruction
                              "  s_branch top\n"          // backward to the first instruction
                              "self:\n"
                              "  s_branch self\n" // to itself: counts as backward
                              "done:\n"
                              "  s_endpgm\n";
    const Oracle oracle = runLlvmMc(gpu, source);
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.errors));
    QList<int> sizes;
    for (const auto& inst : oracle.insts)
        sizes << int(inst.bytes.size());
    QString error;
    const QList<std::vector<int>> words = objectInstructions(gpu, source, sizes, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const Program program = assembleText(source, gpu);
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(words.size()));
    QCOMPARE(program.instructions.size(), std::size_t(8));
    for (qsizetype i = 0; i < words.size(); ++i)
        QCOMPARE(bytesOf(program.instructions[std::size_t(i)]), words[i]);

    struct Expect {
        int index;
        BranchKind kind;
        const char* label;
        int target;
        bool backward;
    };
    const Expect expects[] = {{1, BranchKind::Conditional, "done", 7, false},
                              {4, BranchKind::Conditional, "again", 3, true},
                              {5, BranchKind::Unconditional, "top", 0, true},
                              {6, BranchKind::Unconditional, "self", 6, true}};
    for (const auto& e : expects) {
        const Instruction& inst = program.instructions[std::size_t(e.index)];
        const Instruction& target = program.instructions[std::size_t(e.target)];
        QCOMPARE(inst.branch, e.kind);
        QCOMPARE(QString::fromStdString(inst.targetLabel()), QString::fromLatin1(e.label));
        QCOMPARE(inst.targetIndex(), e.target);
        QVERIFY(inst.targetOffset().has_value());
        QCOMPARE(*inst.targetOffset(), std::uint64_t(target.offset));
        QCOMPARE(inst.backward, e.backward);
        const auto simm16 = std::int16_t(std::uint16_t(inst.encoding[0] | (inst.encoding[1] << 8)));
        QCOMPARE(std::int64_t(simm16), (std::int64_t(target.offset) - std::int64_t(inst.offset) - 4) / 4);
    }
    QCOMPARE(program.instructions[7].branch, BranchKind::Return);
    QCOMPARE(program.instructions[0].branch, BranchKind::None);
}

// Plain statements keep their own line; labels too.
void TestFrontEnd::plainLines()
{
    const QByteArray source = "s_nop 0\n"       // 1
                              "lbl:\n"          // 2
                              "  s_nop 1 ; c\n" // 3
                              "\n"              // 4
                              "  s_endpgm";     // 5, no newline at the end
    const Program program = assembleText(source, QStringLiteral("fiji"));
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(3));
    QList<int> lines;
    for (const auto& inst : program.instructions)
        lines << inst.line;
    QCOMPARE(lines, (QList<int> {1, 3, 5}));
    QCOMPARE(program.labels.size(), std::size_t(1));
    QCOMPARE(program.labels[0].line, 2);
    QCOMPARE(program.labels[0].instruction, 1);
    QCOMPARE(program.instructions[1].columnBegin, 2); // the statement "s_nop 1" on line 3
    QCOMPARE(program.instructions[1].columnEnd, 9);
    QVERIFY(!program.instructions[0].fromExpansion);
    QCOMPARE(program.lineToInstructions.count(3), std::size_t(1));
}

// Macros, .rept/.irp and conditionals: every expanded instruction's line (the invoking line for
// a macro, the body line for .rept/.irp bodies per core/sourcemap.h) and its bytes from llvm-mc.
void TestFrontEnd::expansions_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("defsym"); // NAME=VALUE or empty
    QTest::addColumn<QList<int>>("lines");
    QTest::addColumn<QString>("bug"); // a known front-end bug affecting the lines, or empty

    QTest::addRow("macro with leading dot") << QByteArray(".macro .addv dst, a\n"          // 1
                                                          "  v_add_f32 v\\dst, v\\a, v1\n" // 2
                                                          "  v_mov_b32 v\\a, 0\n"          // 3
                                                          ".endm\n"                        // 4
                                                          ".addv 2, 3\n"                   // 5
                                                          ".addv 4, 5\n")                  // 6
                                            << QString() << QList<int> {5, 5, 6, 6} << QString();
    QTest::addRow("nested macros") << QByteArray(".macro inner r\n"        // 1
                                                 "  v_mov_b32 v\\r, 1.0\n" // 2
                                                 ".endm\n"                 // 3
                                                 ".macro outer r\n"        // 4
                                                 "  inner \\r\n"           // 5
                                                 "  s_mov_b32 s\\r, 65\n"  // 6
                                                 ".endm\n"                 // 7
                                                 "outer 7\n")              // 8
                                   << QString() << QList<int> {8, 8} << QString();
    QTest::addRow("altmacro") << QByteArray(".altmacro\n"               // 1
                                            ".macro setv val, reg\n"    // 2
                                            "  s_mov_b32 s\\reg, val\n" // 3
                                            ".endm\n"                   // 4
                                            "setv 5, 2\n"               // 5
                                            "setv 65, 3\n")             // 6
                              << QString() << QList<int> {5, 6} << QString();
    QTest::addRow("rept body lines") << QByteArray(".rept 2\n"            // 1
                                                   "  v_mov_b32 v0, v1\n" // 2
                                                   "  s_mov_b32 s0, 65\n" // 3
                                                   ".endr\n")             // 4
                                     << QString() << QList<int> {2, 3, 2, 3} << QString();
    QTest::addRow("nested irp/rept") << QByteArray(".irp r, 1, 2\n"          // 1
                                                   "  .rept 2\n"             // 2
                                                   "    v_mov_b32 v\\r, 0\n" // 3
                                                   "  .endr\n"               // 4
                                                   ".endr\n")                // 5
                                     << QString() << QList<int> {3, 3, 3, 3} << QString();
    QTest::addRow("macro invoked in rept") << QByteArray(".macro two\n" // 1
                                                         "  s_nop 0\n"  // 2
                                                         "  s_nop 1\n"  // 3
                                                         ".endm\n"      // 4
                                                         ".rept 2\n"    // 5
                                                         "  two\n"      // 6
                                                         ".endr\n")     // 7
                                           << QString() << QList<int> {6, 6, 6, 6} << QString();
    QTest::addRow("rept in macro") << QByteArray(".macro m\n"  // 1
                                                 "  .rept 2\n" // 2
                                                 "  s_nop 0\n" // 3
                                                 "  .endr\n"   // 4
                                                 ".endm\n"     // 5
                                                 "m\n")        // 6
                                   << QString() << QList<int> {6, 6} << QString();
    QTest::addRow("irp in rept, then a body line") << QByteArray(".rept 2\n"             // 1
                                                                 "  .irp r, 1, 2\n"      // 2
                                                                 "  v_mov_b32 v\\r, 0\n" // 3
                                                                 "  .endr\n"             // 4
                                                                 "  s_nop 0\n"           // 5
                                                                 ".endr\n")              // 6
                                                   << QString() << QList<int> {3, 3, 5, 3, 3, 5} << QString();
    const QByteArray ifdef = ".macro pick\n"            // 1
                             ".ifdef FOO\n"             // 2
                             "  v_mov_b32 v9, FOO\n"    // 3
                             ".else\n"                  // 4
                             "  v_mov_b32 v8, 0.3\n"    // 5
                             ".endif\n"                 // 6
                             ".if 1 == 0\n"             // 7
                             "  .error \"not taken\"\n" // 8
                             ".endif\n"                 // 9
                             ".endm\n"                  // 10
                             "pick\n";                  // 11
    QTest::addRow("ifdef undefined") << ifdef << QString() << QList<int> {11} << QString();
    QTest::addRow("ifdef defsym") << ifdef << QStringLiteral("FOO=70") << QList<int> {11} << QString();
}

void TestFrontEnd::expansions()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, defsym);
    QFETCH(QList<int>, lines);
    QFETCH(QString, bug);
    std::vector<std::pair<std::string, std::int64_t>> defsyms;
    QStringList oracleArgs;
    if (!defsym.isEmpty()) {
        const auto parts = defsym.split(QLatin1Char('='));
        defsyms.emplace_back(parts[0].toStdString(), parts[1].toLongLong());
        oracleArgs << QStringLiteral("--defsym") << defsym;
    }
    const Oracle oracle = runLlvmMc(QStringLiteral("fiji"), source, oracleArgs);
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.errors));
    const Program program = assembleText(source, QStringLiteral("fiji"), defsyms);
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(oracle.insts.size()));
    QCOMPARE(program.instructions.size(), std::size_t(lines.size()));
    QList<int> actual;
    std::uint64_t offset = 0;
    for (qsizetype i = 0; i < oracle.insts.size(); ++i) {
        const Instruction& inst = program.instructions[std::size_t(i)];
        actual << inst.line;
        QCOMPARE(QString::fromStdString(inst.mnemonic), oracle.insts[i].mnemonic);
        QCOMPARE(bytesOf(inst), oracle.insts[i].bytes);
        QCOMPARE(std::uint64_t(inst.offset), offset);
        QVERIFY(inst.fromExpansion);
        offset += std::uint64_t(inst.size);
    }
    const QByteArray bugText = bug.toUtf8(); // QEXPECT_FAIL keeps the pointer
    if (!bug.isEmpty())
        QEXPECT_FAIL("", bugText.constData(), Continue);
    QCOMPARE(actual, lines);
}

// A name LLVM's lexer reads on is no nested repetition: ".rept\xca" (a '?' in what LLVM reads) is
// an unknown directive in the body, so the body ends at the first .endr, and the second copy's
// lines are the body's again, not the lines after it (fuzz_frontend 06706a88: an edit of a
// comment line there changed a fresh run's program, and the incremental run differed).
void TestFrontEnd::reptBodyEndsWhereLlvmEndsIt()
{
    const Program program = assembleText(QByteArray(".rept 2\n"       // 1
                                                    "  s_nop 0\n"     // 2
                                                    "  .rept\xca 2\n" // 3
                                                    ".endr\n"         // 4
                                                    "// comment\n"    // 5
                                                    "s_endpgm\n"),    // 6
                                         QStringLiteral("tahiti"));
    QList<int> lines;
    for (const Instruction& inst : program.instructions)
        lines << inst.line;
    QCOMPARE(lines, (QList<int> {2, 2, 6}));
    QList<int> unknown;
    for (const Diagnostic& d : program.diagnostics)
        if (d.message == "unknown directive")
            unknown << d.line;
    QCOMPARE(unknown, (QList<int> {3, 3}));
}

// \@ makes each expansion's labels unique; the labels map to the invoking lines.
void TestFrontEnd::uniqueMacroLabels()
{
    const QByteArray source = ".macro spin\n"           // 1
                              "L\\@:\n"                 // 2
                              "  s_nop \\@\n"           // 3
                              "  s_cbranch_scc1 L\\@\n" // 4
                              ".endm\n"                 // 5
                              "spin\n"                  // 6
                              "spin\n";                 // 7
    const Program program = assembleText(source, QStringLiteral("tahiti"));
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.labels.size(), std::size_t(2));
    QVERIFY(program.labels[0].name != program.labels[1].name);
    QCOMPARE(program.labels[0].line, 6);
    QCOMPARE(program.labels[1].line, 7);
    QCOMPARE(program.instructions.size(), std::size_t(4));
    // Each branch targets its own expansion's label: s_nop at index 0 and 2, 8 bytes apart.
    QCOMPARE(program.instructions[1].targetIndex(), 0);
    QCOMPARE(program.instructions[3].targetIndex(), 2);
    QCOMPARE(program.instructions[3].targetOffset(), std::optional<std::uint64_t>(8));
    QVERIFY(program.instructions[3].backward);
    // \@ counts expansions from 0: the two s_nop immediates differ.
    QVERIFY(program.instructions[0].encoding != program.instructions[2].encoding);
}

// .set symbols inside register operands resolve to registers, which then count as used.
void TestFrontEnd::setSymbolsInRegisters()
{
    const QByteArray source = ".set vbase, 4\n"
                              ".set sptr, 10\n"
                              "  v_add_f32 v[vbase+1], v[vbase], v[vbase+2]\n"
                              "  s_load_dwordx2 s[sptr:sptr+1], s[0:1], 0\n";
    const Program program = assembleText(source, QStringLiteral("gfx900"));
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(2));
    const Oracle oracle = runLlvmMc(QStringLiteral("gfx900"), "v_add_f32 v5, v4, v6\ns_load_dwordx2 s[10:11], s[0:1], 0\n");
    QCOMPARE(bytesOf(program.instructions[0]), oracle.insts[0].bytes);
    QCOMPARE(bytesOf(program.instructions[1]), oracle.insts[1].bytes);
    QVERIFY(hasRange(program.instructions[0].defs, RegKind::VGPR, 5, 1));
    QVERIFY(hasRange(program.instructions[0].uses, RegKind::VGPR, 4, 1));
    QVERIFY(hasRange(program.instructions[0].uses, RegKind::VGPR, 6, 1));
    QVERIFY(hasRange(program.instructions[1].defs, RegKind::SGPR, 10, 2));
    QCOMPARE(program.registers.maxVgpr, 6);
    QCOMPARE(program.registers.maxSgpr, 11);
}

// .include found through an include directory; its instruction and a macro it defines map to
// lines of the main file.
void TestFrontEnd::includeWithSearchPath()
{
    const QByteArray source = "  s_nop 0\n"             // 1
                              ".include \"defs.inc\"\n" // 2
                              "  clear_v lds_base\n";   // 3
    const std::string dir = gcnlens::test::testData("data/frontend/inc").toStdString();
    const Program program = assembleText(source, QStringLiteral("hawaii"), {}, {dir});
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.instructions.size(), std::size_t(3));
    const Instruction& fromInclude = program.instructions[1];
    QCOMPARE(QString::fromStdString(fromInclude.mnemonic), QStringLiteral("s_mov_b32"));
    QCOMPARE(fromInclude.line, 2);
    QVERIFY(fromInclude.fromExpansion);
    QVERIFY(hasRange(fromInclude.defs, RegKind::M0));
    const Instruction& fromMacro = program.instructions[2];
    QCOMPARE(fromMacro.line, 3);
    QVERIFY(hasRange(fromMacro.defs, RegKind::VGPR, 12, 1)); // lds_base = 12, set in the include
    QCOMPARE(fromMacro.offset, std::uint32_t(4 + 4));        // s_nop 0 and s_mov_b32 m0, -1: 4 bytes each

    // Without the search path the .include fails, with a diagnostic on its line.
    const Program missing = assembleText(source, QStringLiteral("hawaii"));
    QVERIFY(missing.hasErrors());
    bool onLine2 = false;
    for (const auto& d : missing.diagnostics)
        onLine2 = onLine2 || (d.severity == Severity::Error && d.line == 2);
    QVERIFY2(onLine2, qPrintable(diagnosticsText(missing)));
}

// A --defsym value decides whether an operand is inline or a literal.
void TestFrontEnd::defsymChangesSize_data()
{
    QTest::addColumn<qlonglong>("value");
    QTest::addColumn<int>("size");
    QTest::addRow("inline 3") << 3ll << 4;
    QTest::addRow("inline 64") << 64ll << 4;
    QTest::addRow("literal 65") << 65ll << 8;
    QTest::addRow("literal 0x10000") << 0x10000ll << 8;
}

void TestFrontEnd::defsymChangesSize()
{
    QFETCH(qlonglong, value);
    QFETCH(int, size);
    const QByteArray source = "  s_mov_b32 s2, COUNT\n  s_endpgm\n";
    const Program program = assembleText(source, QStringLiteral("polaris10"), {{"COUNT", value}});
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    const Oracle oracle =
        runLlvmMc(QStringLiteral("polaris10"), source, {QStringLiteral("--defsym"), QStringLiteral("COUNT=%1").arg(value)});
    QCOMPARE(int(oracle.insts[0].bytes.size()), size);
    QCOMPARE(program.instructions[0].size, size);
    QCOMPARE(bytesOf(program.instructions[0]), oracle.insts[0].bytes);
    QCOMPARE(program.instructions[1].offset, std::uint32_t(size));
}

// .error reports on its own line and assembly continues; .end stops it.
void TestFrontEnd::errorDirective()
{
    const QByteArray source = "  s_nop 0\n"            // 1
                              ".error \"stop here\"\n" // 2
                              "  s_nop 1\n"            // 3
                              ".end\n"                 // 4
                              "  s_nop 2\n";           // 5 (after .end: ignored)
    const Program program = assembleText(source, QStringLiteral("tahiti"));
    QVERIFY(program.hasErrors());
    int errorLine = 0;
    for (const auto& d : program.diagnostics)
        if (d.severity == Severity::Error && QString::fromStdString(d.message).contains(QLatin1String("stop here")))
            errorLine = d.line;
    QCOMPARE(errorLine, 2);
    QCOMPARE(program.instructions.size(), std::size_t(2));
    QCOMPARE(program.instructions[1].offset, std::uint32_t(4)); // .error is no instruction: no placeholder
    QVERIFY(!program.instructions[1].placeholder);
}

// .long words in the code: data of known size that shifts later offsets.
void TestFrontEnd::rawWords()
{
    const QByteArray source = "  s_nop 0\n"                      // 1
                              "  .long 0x12345678, 0xdeadbeef\n" // 2
                              "  .short 0x1234, 0x5678\n"        // 3
                              "  s_endpgm\n";                    // 4
    const Program program = assembleText(source, QStringLiteral("gfx900"));
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    int dataBytes = 0;
    for (const auto& inst : program.instructions)
        if (inst.isData) {
            QCOMPARE(inst.family, Family::Data);
            QVERIFY(inst.line == 2 || inst.line == 3);
            dataBytes += inst.size;
        }
    QCOMPARE(dataBytes, 4 * 2 + 2 * 2);
    const Instruction& last = program.instructions.back();
    QCOMPARE(QString::fromStdString(last.mnemonic), QStringLiteral("s_endpgm"));
    QCOMPARE(last.offset, std::uint32_t(4 + 12));
    QVERIFY(!program.instructions.front().isData);
    // One entry per .long value (front-end comment), each 4 bytes.
    QCOMPARE(program.instructions[1].size, 4);
    QVERIFY(program.instructions[1].isData);
    QCOMPARE(program.instructions[2].size, 4);
}

// Two code-object-v3+ kernels, each 256-byte aligned (.p2align 8): instruction ranges, offsets
// relative to each kernel, .amdhsa_* directives attached to the right kernel, per-kernel registers.
void TestFrontEnd::amdhsaKernels()
{
    const QByteArray source = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx906:xnack-\"\n" // 1
                              ".text\n"                                               // 2
                              ".globl k1\n"                                           // 3
                              ".p2align 8\n"                                          // 4
                              ".type k1,@function\n"                                  // 5
                              "k1:\n"                                                 // 6
                              "  v_add_co_u32 v1, vcc, v2, v3\n"                      // 7
                              "  s_mov_b32 s0, 0x4000\n"                              // 8
                              "  s_endpgm\n"                                          // 9
                              ".globl k2\n"                                           // 10
                              ".p2align 8\n"                                          // 11
                              ".type k2,@function\n"                                  // 12
                              "k2:\n"                                                 // 13
                              "  s_add_u32 s4, s5, s6\n"                              // 14
                              "  v_mov_b32 v[10], v[11]\n"                            // 15
                              "  s_endpgm\n"                                          // 16
                              ".rodata\n"                                             // 17
                              ".p2align 6\n"                                          // 18
                              ".amdhsa_kernel k1\n"                                   // 19
                              "  .amdhsa_next_free_vgpr 4\n"                          // 20
                              "  .amdhsa_next_free_sgpr 8\n"                          // 21
                              ".end_amdhsa_kernel\n"                                  // 22
                              ".amdhsa_kernel k2\n"                                   // 23
                              "  .amdhsa_next_free_vgpr 12\n"                         // 24
                              "  .amdhsa_next_free_sgpr 7\n"                          // 25
                              ".end_amdhsa_kernel\n";                                 // 26
    const Program program = assembleText(source, QStringLiteral("gfx906:xnack-"));
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.kernels.size(), std::size_t(2));
    const Kernel& k1 = program.kernels[0];
    const Kernel& k2 = program.kernels[1];
    QCOMPARE(QString::fromStdString(k1.name), QStringLiteral("k1"));
    QCOMPARE(QString::fromStdString(k2.name), QStringLiteral("k2"));
    QCOMPARE(k1.sectionOffset, std::uint64_t(0));
    QCOMPARE(k2.sectionOffset, std::uint64_t(256)); // k1's 16 bytes padded to the next 256
    QCOMPARE(k1.endInstruction, k2.firstInstruction);
    QCOMPARE(k2.endInstruction, int(program.instructions.size()));
    QCOMPARE(k2.line, 13);

    // k1's code: 4 + 8 + 4 bytes, then its trailing padding (data) if any.
    QStringList k1Code, k2Code;
    for (int i = k1.firstInstruction; i < k1.endInstruction; ++i) {
        const Instruction& inst = program.instructions[std::size_t(i)];
        QCOMPARE(inst.kernel, 0);
        if (!inst.isData)
            k1Code << QString::fromStdString(inst.mnemonic);
    }
    QCOMPARE(k1Code, (QStringList {QStringLiteral("v_add_co_u32_e32"), QStringLiteral("s_mov_b32"), QStringLiteral("s_endpgm")}));
    QCOMPARE(program.instructions[2].offset, std::uint32_t(12));
    // k1's padding up to 256 bytes belongs to the .p2align on line 11 (not to what follows it).
    const Instruction& padding = program.instructions[3];
    QVERIFY(padding.isData);
    QCOMPARE(padding.size, 256 - 16);
    QCOMPARE(padding.line, 11);
    std::uint64_t expected = 0;
    for (int i = k2.firstInstruction; i < k2.endInstruction; ++i) {
        const Instruction& inst = program.instructions[std::size_t(i)];
        QCOMPARE(inst.kernel, 1);
        QCOMPARE(std::uint64_t(inst.offset), expected); // kernel-relative
        QCOMPARE(program.sectionOffset(inst), 256 + expected);
        expected += std::uint64_t(inst.size);
        k2Code << QString::fromStdString(inst.mnemonic);
    }
    QCOMPARE(k2Code, (QStringList {QStringLiteral("s_add_u32"), QStringLiteral("v_mov_b32_e32"), QStringLiteral("s_endpgm")}));

    // Directives, each with its kernel.
    QCOMPARE(program.directives.size(), std::size_t(4));
    for (const auto& d : program.directives) {
        QCOMPARE(d.kernel, d.line < 23 ? 0 : 1);
        if (d.name == ".amdhsa_next_free_vgpr")
            QCOMPARE(d.value, std::int64_t(d.line < 23 ? 4 : 12));
    }

    // Registers per kernel: k1 v1–v3 and VCC (explicit carry-out); k2 s4–s6, v10–v11, SCC.
    QCOMPARE(program.kernelRegisters.size(), std::size_t(2));
    QCOMPARE(program.kernelRegisters[0].maxVgpr, 3);
    QVERIFY(program.kernelRegisters[0].vcc);
    QCOMPARE(program.kernelRegisters[0].maxSgpr, 0);
    QCOMPARE(program.kernelRegisters[1].maxVgpr, 11);
    QCOMPARE(program.kernelRegisters[1].maxSgpr, 6);
    QVERIFY(program.kernelRegisters[1].scc);
    QVERIFY(!program.kernelRegisters[1].vcc);
    QCOMPARE(program.registers.maxVgpr, 11);
}

// Code object v2 metadata (.amdgpu_hsa_kernel, .amd_kernel_code_t), still in many hand-written
// kernels: accepted, the kernel found, the resource fields recorded.
void TestFrontEnd::oldCodeObjectDirectives()
{
    const QByteArray source = ".text\n"                       // 1
                              ".amdgpu_hsa_kernel oldk\n"     // 2
                              "oldk:\n"                       // 3
                              ".amd_kernel_code_t\n"          // 4
                              "  workitem_vgpr_count = 6\n"   // 5
                              "  wavefront_sgpr_count = 10\n" // 6
                              ".end_amd_kernel_code_t\n"      // 7
                              "  v_mov_b32 v5, 0\n"           // 8
                              "  s_endpgm\n";                 // 9
    const Program program = assembleText(source, QStringLiteral("hawaii"));
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    QCOMPARE(program.kernels.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(program.kernels[0].name), QStringLiteral("oldk"));
    QCOMPARE(program.instructions.size(), std::size_t(2));
    QCOMPARE(program.instructions[1].offset, std::uint32_t(4));
    bool vgprCount = false;
    for (const auto& d : program.directives)
        vgprCount = vgprCount || (d.name == "workitem_vgpr_count" && d.value == 6 && d.line == 5 && d.kernel == 0);
    QVERIFY(vgprCount);
}

// Lines LLVM rejects: an error on that line, laid out as a 4-byte placeholder.
void TestFrontEnd::diagnostics_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QByteArray>("bad");
    QTest::addColumn<QString>("validOn"); // a GPU where the line is fine, or empty
    QTest::addColumn<QString>("bug");     // a known front-end bug, or empty
    QTest::addRow("garbage words") << QStringLiteral("tahiti") << QByteArray("this is not assembly at all") << QString()
                                   << QString();
    QTest::addRow("garbage symbols") << QStringLiteral("tahiti") << QByteArray("@@ 12 $$ !!") << QString() << QString();
    QTest::addRow("unknown mnemonic") << QStringLiteral("fiji") << QByteArray("v_frobnicate_b32 v0, v1") << QString()
                                      << QString();
    QTest::addRow("bad operand") << QStringLiteral("fiji") << QByteArray("v_mov_b32 v0, s[0:1], v9") << QString() << QString();
    QTest::addRow("v_add_u32 3 operands on tahiti")
        << QStringLiteral("tahiti") << QByteArray("v_add_u32 v0, v1, v2") << QStringLiteral("gfx900") << QString();
    QTest::addRow("v_pk_add_f16 on tahiti") << QStringLiteral("tahiti") << QByteArray("v_pk_add_f16 v0, v1, v2")
                                            << QStringLiteral("gfx906") << QString();
    QTest::addRow("global_load on fiji") << QStringLiteral("fiji") << QByteArray("global_load_dword v0, v[0:1], off")
                                         << QStringLiteral("gfx900") << QString();
    QTest::addRow("flat on tahiti") << QStringLiteral("tahiti") << QByteArray("flat_load_dword v0, v[0:1]")
                                    << QStringLiteral("hawaii") << QString();
}

// Texts on which llvm-mc 19 never returns (issue #12, fuzz_frontend timeouts): a bad statement
// whose character literal eats the line ends after it (20b1247e, 778f8201, f91429c8; LLVM's
// fault, tests/fuzz/llvm-faults/hang-quote-at-end.s), a '"' after a character literal (badb7d75),
// a statement after a '\r' that ends a line comment (d1ffb3dc), a string never closed with an
// escaped quote in it (f106c951). gcnlens finishes each with an
// error on line 1 (a regression hangs here).
void TestFrontEnd::badEndOfText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addRow("d,'") << QByteArray("d,'");
    QTest::addRow("y/'") << QByteArray("y/'");
    QTest::addRow("y[?'") << QByteArray("y[?'");
    QTest::addRow("d,x'\\") << QByteArray("d,x'\\");
    QTest::addRow("d,'\\ newline") << QByteArray("d,'\\\n");
    QTest::addRow("a'\",\"") << QByteArray("a'\",\"");
    QTest::addRow("CR ends a comment") << QByteArray("//\rp\xff\"");
    // An escaped quote in a string never closed: the sanitiser took it for the string's end (f106c951).
    QTest::addRow("?\"\\\"") << QByteArray("t ?\"\\\"");
    QTest::addRow("?\"a\\\"b") << QByteArray("s_endpgm ?\"a\\\"b\n");
}

void TestFrontEnd::badEndOfText()
{
    QFETCH(QByteArray, text);
    const Program program = assembleText(text, QStringLiteral("tahiti"));
    QVERIFY(program.hasErrors());
    for (const auto& d : program.diagnostics)
        QCOMPARE(d.line, 1);
}

void TestFrontEnd::diagnostics()
{
    QFETCH(QString, gpu);
    QFETCH(QByteArray, bad);
    QFETCH(QString, validOn);
    QFETCH(QString, bug);
    // The oracle rejects the line too: this is about reporting, not about LLVM's opinion.
    QVERIFY(runLlvmMc(gpu, bad + '\n').exitCode != 0);
    const QByteArray source = "  s_mov_b32 s0, 1\n  " + bad + "\n  s_endpgm\n";
    const Program program = assembleText(source, gpu);
    QVERIFY(program.hasErrors());
    int errors = 0;
    for (const auto& d : program.diagnostics)
        if (d.severity == Severity::Error) {
            ++errors;
            QCOMPARE(d.line, 2);
            QVERIFY(!d.message.empty());
        }
    QVERIFY(errors >= 1);
    const QByteArray bugText = bug.toUtf8(); // QEXPECT_FAIL keeps the pointer
    if (!bug.isEmpty())
        QEXPECT_FAIL("", bugText.constData(), Abort);
    QCOMPARE(program.instructions.size(), std::size_t(3));
    const Instruction& placeholder = program.instructions[1];
    QVERIFY(placeholder.placeholder);
    QCOMPARE(placeholder.size, 4);
    QCOMPARE(placeholder.line, 2);
    QCOMPARE(placeholder.offset, std::uint32_t(4));
    QVERIFY(placeholder.encoding.empty());
    QCOMPARE(QString::fromStdString(program.instructions[2].mnemonic), QStringLiteral("s_endpgm"));
    QCOMPARE(program.instructions[2].offset, std::uint32_t(8));

    if (!validOn.isEmpty()) { // the same line is fine on a GPU that has it
        const Program ok = assembleText(source, validOn);
        QVERIFY2(!ok.hasErrors(), qPrintable(diagnosticsText(ok)));
        QVERIFY(!ok.instructions[1].placeholder);
    }
}

// A bad line in the middle: everything after it is still assembled, at the offsets it would have
// if the bad line were any 4-byte instruction (the placeholder rule in core/program.h).
void TestFrontEnd::badLineKeepsLaterOffsets()
{
    QFile file(gcnlens::test::testData("data/frontend/bad-middle.s"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray source = file.readAll();
    QByteArray stand = source;
    stand.replace("v_not_an_instruction v0, v1", "s_nop 0");
    const Oracle oracle = runLlvmMc(QStringLiteral("tahiti"), stand);
    QVERIFY2(oracle.exitCode == 0, qPrintable(oracle.errors));
    const Program program = assembleText(source, QStringLiteral("tahiti"));
    QVERIFY(program.hasErrors());
    QCOMPARE(program.instructions.size(), std::size_t(oracle.insts.size()));
    std::uint64_t offset = 0;
    for (qsizetype i = 0; i < oracle.insts.size(); ++i) {
        const Instruction& inst = program.instructions[std::size_t(i)];
        QCOMPARE(inst.offset, offset);
        QCOMPARE(inst.size, int(oracle.insts[i].bytes.size()));
        if (i == 1) {
            QVERIFY(inst.placeholder);
            QCOMPARE(inst.line, 5);
        } else {
            QCOMPARE(bytesOf(inst), oracle.insts[i].bytes);
        }
        offset += oracle.insts[i].bytes.size();
    }
    QCOMPARE(program.diagnostics.size(), std::size_t(1));
    QCOMPARE(program.diagnostics[0].line, 5);
    QCOMPARE(program.diagnostics[0].column, 2); // the statement starts after two blanks
}

void TestFrontEnd::emptySource()
{
    for (const char* text : {"", "\n\n", "; only a comment\n// and another\n"}) {
        const Program program = assembleText(QByteArray(text), QStringLiteral("gfx900"));
        QVERIFY(!program.hasErrors());
        QVERIFY(program.instructions.empty());
        QVERIFY(program.labels.empty());
        // Not an error (an empty editor is normal), but said: an empty report is no analysis.
        QCOMPARE(program.diagnostics.size(), std::size_t(1));
        QCOMPARE(program.diagnostics[0].severity, Severity::Warning);
        QVERIFY(QString::fromStdString(program.diagnostics[0].message).contains(QStringLiteral("no instructions")));
        QCOMPARE(program.registers.maxVgpr, -1);
        QCOMPARE(program.registers.maxSgpr, -1);
    }
}

// LLVM 19 reports an inexact 64-bit literal without a source location: the warning still lands
// on the statement (line 2, its first column), not on line 0.
void TestFrontEnd::warningWithoutLocation()
{
    const Program program =
        assembleText("  s_nop 0\n  v_sqrt_f64 v[4:5], 2.2 ; pi-ish\n\n  s_endpgm\n", QStringLiteral("tahiti"));
    QVERIFY(!program.hasErrors());
    QCOMPARE(program.diagnostics.size(), std::size_t(1));
    QCOMPARE(program.diagnostics[0].severity, Severity::Warning);
    QCOMPARE(program.diagnostics[0].line, 2);
    QCOMPARE(program.diagnostics[0].column, 2);
    QVERIFY(QString::fromStdString(program.diagnostics[0].message).contains(QStringLiteral("64-bit")));
}

// Bytes that are not text (an object file given by mistake): errors, no crash, no fake code.
void TestFrontEnd::binarySource()
{
    QByteArray binary("\x7f"
                      "ELF\x02\x01\x01",
                      7);
    binary += QByteArray(9, '\0');
    binary += QByteArray("\x01\x00\xe0\x00\xff\xfe\xfd\n\x00\x01", 10);
    const Program program = assembleText(binary, QStringLiteral("tahiti"));
    QVERIFY2(program.hasErrors(), qPrintable(diagnosticsText(program)));
    for (const auto& inst : program.instructions)
        QVERIFY(inst.placeholder || inst.isData);
}

// Register use: highest index incl. ranges, the special registers, and implicit definitions
// (VOP2 carry-out writes VCC; SALU arithmetic writes SCC).
void TestFrontEnd::registerUsage_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<int>("maxVgpr");
    QTest::addColumn<int>("maxSgpr");
    QTest::addColumn<int>("maxAgpr");
    QTest::addColumn<QString>("flags");       // the special registers used, in RegisterUsage order
    QTest::addColumn<QString>("implicitDef"); // a special register the first instruction defines
    QTest::addRow("vgpr/sgpr ranges") << QStringLiteral("tahiti")
                                      << QByteArray("buffer_load_dwordx4 v[4:7], v0, s[8:11], 0 offen\n") << 7 << 11 << -1
                                      << QStringLiteral("exec") << QString();
    QTest::addRow("v_add_i32_e32 defines vcc") << QStringLiteral("tahiti") << QByteArray("v_add_i32 v1, vcc, v2, v3\n") << 3 << -1
                                               << -1 << QStringLiteral("vcc exec") << QStringLiteral("vcc");
    QTest::addRow("s_add_u32 defines scc") << QStringLiteral("hawaii") << QByteArray("s_add_u32 s0, s1, s2\n") << -1 << 2 << -1
                                           << QStringLiteral("scc") << QStringLiteral("scc");
    QTest::addRow("m0") << QStringLiteral("fiji") << QByteArray("s_mov_b32 m0, s3\n") << -1 << 3 << -1 << QStringLiteral("m0")
                        << QString();
    QTest::addRow("vcc not an sgpr") << QStringLiteral("fiji") << QByteArray("s_mov_b64 vcc, s[2:3]\n") << -1 << 3 << -1
                                     << QStringLiteral("vcc") << QString();
    QTest::addRow("exec and vcc") << QStringLiteral("gfx900") << QByteArray("s_and_b64 exec, exec, vcc\n") << -1 << -1 << -1
                                  << QStringLiteral("vcc exec scc") << QStringLiteral("scc");
    QTest::addRow("flat_scratch") << QStringLiteral("hawaii") << QByteArray("s_mov_b64 flat_scratch, s[2:3]\n") << -1 << 3 << -1
                                  << QStringLiteral("flat_scratch") << QString();
    QTest::addRow("xnack_mask") << QStringLiteral("gfx900") << QByteArray("s_mov_b64 xnack_mask, s[0:1]\n") << -1 << 1 << -1
                                << QStringLiteral("xnack_mask") << QString();
    QTest::addRow("agpr") << QStringLiteral("gfx908") << QByteArray("v_accvgpr_write_b32 a3, v1\n") << 1 << -1 << 3
                          << QStringLiteral("exec") << QString();
    QTest::addRow("agpr range") << QStringLiteral("gfx908")
                                << QByteArray("v_accvgpr_read_b32 v9, a[7]\n"
                                              "s_load_dwordx8 s[16:23], s[0:1], 0\n")
                                << 9 << 23 << 7 << QStringLiteral("exec") << QString();
}

void TestFrontEnd::registerUsage()
{
    QFETCH(QString, gpu);
    QFETCH(QByteArray, source);
    QFETCH(int, maxVgpr);
    QFETCH(int, maxSgpr);
    QFETCH(int, maxAgpr);
    QFETCH(QString, flags);
    QFETCH(QString, implicitDef);
    const Program program = assembleText(source, gpu);
    QVERIFY2(!program.hasErrors(), qPrintable(diagnosticsText(program)));
    const RegisterUsage& r = program.registers;
    QCOMPARE(r.maxVgpr, maxVgpr);
    QCOMPARE(r.maxSgpr, maxSgpr);
    QCOMPARE(r.maxAgpr, maxAgpr);
    QStringList used;
    if (r.vcc)
        used << QStringLiteral("vcc");
    if (r.exec)
        used << QStringLiteral("exec");
    if (r.m0)
        used << QStringLiteral("m0");
    if (r.scc)
        used << QStringLiteral("scc");
    if (r.flatScratch)
        used << QStringLiteral("flat_scratch");
    if (r.xnackMask)
        used << QStringLiteral("xnack_mask");
    QCOMPARE(used.join(QLatin1Char(' ')), flags);
    if (implicitDef == QLatin1String("vcc"))
        QVERIFY(hasRange(program.instructions[0].defs, RegKind::VCC));
    if (implicitDef == QLatin1String("scc"))
        QVERIFY(hasRange(program.instructions[0].defs, RegKind::SCC));
    QCOMPARE(program.kernelRegisters.size(), program.kernels.size());
}

QTEST_GUILESS_MAIN(TestFrontEnd)
#include "tst_frontend.moc"
