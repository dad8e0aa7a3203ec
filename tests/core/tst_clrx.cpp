// SPDX-License-Identifier: MIT
// The CLRX dialect reader (issue #13, core/input/clrx.h): detection, a sample of CLRX's own
// assembler test vectors (expected words from clrxasm), CLRX kernels against LLVM-syntax twins
// (same sizes, offsets, encodings and timing), lines and columns, declared resources, the GPU and
// binary-format options.
#include "core/analysis.h"
#include "core/asm/assembler.h"
#include "core/input/clrx.h"
#include "core/input/loader.h"
#include "describeprogram.h"
#include "lineedits.h"
#include "programwords.h"
#include "testutils.h"

#include <QFile>
#include <QProcess>
#include <QtTest>
#include <set>

using namespace gcnlens;

namespace {

std::string readData(const QString& name)
{
    return test::readBytes(test::testData("data/clrx") + QLatin1Char('/') + name).toStdString();
}

AssembleOptions clrxOptions(const std::string& gpu, ClrxFormat format = ClrxFormat::Amd)
{
    AssembleOptions options;
    options.gpu = gpu;
    options.dialect = AssembleOptions::Dialect::Clrx;
    options.clrx.format = format;
    return options;
}

QString errorsOf(const Program& program)
{
    QStringList out;
    for (const auto& d : program.diagnostics)
        if (d.severity == Severity::Error)
            out << QStringLiteral("%1:%2 %3").arg(d.line).arg(d.column).arg(QString::fromStdString(d.message));
    return out.join(QLatin1Char('\n'));
}

} // namespace

class TestClrx : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detection_data();
    void detection();
    void vectors_data();
    void vectors();
    void twins_data();
    void twins();
    void branchTargets_data();
    void branchTargets();
    void linesAndColumns();
    void declaredResources();
    void gpuFromSource();
    void formatAndBitness_data();
    void formatAndBitness();
    void registerVariables();
    void unreadableSubranges();
    void typing_data();
    void typing();
    void patchTiedLines_data();
    void patchTiedLines();
    void loops();
    void includes();
    void commandLine_data();
    void commandLine();
    void shiftCounts_data();
    void shiftCounts();
};

void TestClrx::detection_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("clrx");
    QTest::addRow("kernel and config") << QByteArray(".kernel k\n  .config\n    .dims x\n.text\n  s_endpgm\n") << true;
    QTest::addRow(".gpu") << QByteArray(".gpu Pitcairn\ns_endpgm\n") << true;
    QTest::addRow(".iffmt") << QByteArray(".iffmt amd\ns_nop 0\n.endif\n") << true;
    QTest::addRow("register symbol") << QByteArray("x = %v[4:7]\nv_mov_b32 x[0], 0\n") << true;
    QTest::addRow("hash comments") << QByteArray("# a kernel\ns_nop 0  # wait\n# end\ns_endpgm\n") << true;
    QTest::addRow("llvm plain") << QByteArray("; LLVM\ns_mov_b32 s0, 0\ns_endpgm\n") << false;
    QTest::addRow("llvm amdhsa") << QByteArray(".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n.text\nk:\n s_endpgm\n"
                                               ".amdhsa_kernel k\n .amdhsa_next_free_vgpr 1\n.end_amdhsa_kernel\n")
                                 << false;
    QTest::addRow("llvm with cpp lines") << QByteArray("#include \"x.inc\"\n#define A 1\n; comment\ns_endpgm\n") << false;
    QTest::addRow("llvm assignment") << QByteArray("x = 4\ns_mov_b32 s0, x\n") << false;
    QTest::addRow("llvm macro named .get_x") << QByteArray(".macro .get_wei a\n v_mov_b32 \\a, 0\n.endm\n.get_wei v1\n") << false;
    QTest::addRow("cpp line markers") << QByteArray("# 1 \"k.s\"\n# 1 \"<built-in>\" 1\n# 3 \"k.s\"\ns_endpgm\n") << false;
    QTest::addRow("empty") << QByteArray() << false;
}

void TestClrx::detection()
{
    QFETCH(QByteArray, text);
    QFETCH(bool, clrx);
    QCOMPARE(looksLikeClrx(text.toStdString()), clrx);
    // The loader's kind detection uses it.
    QCOMPARE(input::detectInputKind(text.toStdString()) == input::InputKind::Clrx, clrx);
}

// tests/data/clrx/vectors.tsv: every 12th case CLRX's GCNAsmOpc1{1,2,4}.cpp expect to assemble,
// written by tests/bench/clrx_vectors --sample.
void TestClrx::vectors_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("words");
    QTest::addColumn<QString>("status");
    const std::string data = readData(QStringLiteral("vectors.tsv"));
    QVERIFY(!data.empty());
    int row = 0;
    for (const QString& line : QString::fromStdString(data).split(QLatin1Char('\n'))) {
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList f = line.split(QLatin1Char('\t'));
        QVERIFY2(f.size() == 5, qPrintable(line));
        QString source = f[2];
        source.replace(QStringLiteral("\\n"), QStringLiteral("\n")).replace(QStringLiteral("\\t"), QStringLiteral("\t"));
        source.replace(QStringLiteral("\\\\"), QStringLiteral("\\"));
        QTest::addRow("%d %s %s", ++row, qPrintable(f[1]), qPrintable(f[2].left(60))) << f[1] << source << f[3] << f[4];
    }
    QVERIFY(row > 200);
}

void TestClrx::vectors()
{
    QFETCH(QString, gpu);
    QFETCH(QString, source);
    QFETCH(QString, words);
    QFETCH(QString, status);
    const Program program = assemble(source.toStdString(), clrxOptions(gpu.toStdString(), ClrxFormat::Gallium));
    QStringList got;
    for (const auto w : test::programWords(program))
        got << QStringLiteral("%1").arg(w, 8, 16, QLatin1Char('0'));
    if (status == QLatin1String("rejected")) {
        // LLVM 19 cannot encode it for this GPU: the line says so, it is not laid out silently.
        QVERIFY2(program.hasErrors(), qPrintable(got.join(QLatin1Char(' '))));
        return;
    }
    QVERIFY2(!program.hasErrors(), qPrintable(errorsOf(program)));
    if (status == QLatin1String("dontcare"))
        QEXPECT_FAIL("", "LLVM leaves a field the ISA marks unused for this form at its own value", Continue);
    if (status == QLatin1String("differs"))
        QEXPECT_FAIL("", "LLVM encodes a field clrxasm sets differently (see the bench's list)", Continue);
    QCOMPARE(got.join(QLatin1Char(' ')), words);
}

void TestClrx::twins_data()
{
    QTest::addColumn<QString>("clrx");
    QTest::addColumn<QString>("llvm");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("format");
    QTest::addRow("vadd gcn1.0 amd") << QStringLiteral("vadd.clrx") << QStringLiteral("vadd.s") << QStringLiteral("pitcairn")
                                     << int(ClrxFormat::Amd);
    QTest::addRow("k2 gcn1.2 rocm") << QStringLiteral("k2.clrx") << QStringLiteral("k2.s") << QStringLiteral("tonga")
                                    << int(ClrxFormat::Rocm);
}

// A CLRX kernel and its LLVM-syntax twin: the same instructions, sizes, offsets, encodings and timing.
void TestClrx::twins()
{
    QFETCH(QString, clrx);
    QFETCH(QString, llvm);
    QFETCH(QString, gpu);
    QFETCH(int, format);
    AnalysisRequest a;
    a.assemble = clrxOptions(gpu.toStdString(), ClrxFormat(format));
    a.assemble.dialect = AssembleOptions::Dialect::Auto; // detected
    const Analysis fromClrx = runAnalysis(readData(clrx), a);
    AnalysisRequest b;
    b.assemble.gpu = gpu.toStdString();
    b.assemble.dialect = AssembleOptions::Dialect::Auto;
    const Analysis fromLlvm = runAnalysis(readData(llvm), b);
    QVERIFY2(!fromClrx.program.hasErrors(), qPrintable(errorsOf(fromClrx.program)));
    QVERIFY2(!fromLlvm.program.hasErrors(), qPrintable(errorsOf(fromLlvm.program)));
    QCOMPARE(fromClrx.program.instructions.size(), fromLlvm.program.instructions.size());
    QVERIFY(!fromClrx.program.instructions.empty());
    for (std::size_t i = 0; i < fromClrx.program.instructions.size(); ++i) {
        const Instruction& x = fromClrx.program.instructions[i];
        const Instruction& y = fromLlvm.program.instructions[i];
        const QByteArray where = QByteArray::number(qulonglong(i)) + " " + QByteArray::fromStdString(y.mnemonic);
        QVERIFY2(x.offset == y.offset && x.size == y.size, where.constData());
        QVERIFY2(x.encoding == y.encoding, where.constData());
        QVERIFY2(x.mnemonic == y.mnemonic && x.operands == y.operands,
                 qPrintable(QString::fromStdString(x.mnemonic + " " + x.operands + " vs " + y.mnemonic + " " + y.operands)));
    }
    QCOMPARE(fromClrx.program.kernels.size(), fromLlvm.program.kernels.size());
    QCOMPARE(fromClrx.program.kernels.front().name, fromLlvm.program.kernels.front().name);
    QCOMPARE(fromClrx.timing.totals.singleWaveCycles, fromLlvm.timing.totals.singleWaveCycles);
    QCOMPARE(fromClrx.timing.totals.penaltyCycles, fromLlvm.timing.totals.penaltyCycles);
    QCOMPARE(fromClrx.timing.totals.byRule, fromLlvm.timing.totals.byRule);
    QCOMPARE(fromClrx.timing.totals.hiddenCycles, fromLlvm.timing.totals.hiddenCycles);
}

void TestClrx::branchTargets_data()
{
    QTest::addColumn<QString>("clrx");
    QTest::addColumn<QString>("llvm"); // the twin: a label where label±N lands
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("written");
    QTest::addRow("forward +8") << QStringLiteral("xx: s_nop 0\n s_branch xx+8\n s_nop 1\n s_endpgm\n")
                                << QStringLiteral("xx: s_nop 0\n s_branch t\nt: s_nop 1\n s_endpgm\n")
                                << QStringLiteral("pitcairn") << QStringLiteral("xx+8");
    QTest::addRow("backward -4") << QStringLiteral(" s_nop 0\nyy: s_nop 1\n s_cbranch_scc0 yy-4\n s_endpgm\n")
                                 << QStringLiteral("t: s_nop 0\nyy: s_nop 1\n s_cbranch_scc0 t\n s_endpgm\n")
                                 << QStringLiteral("pitcairn") << QStringLiteral("yy-4");
    QTest::addRow("symbol offset") << QStringLiteral("n = 2\nxx: s_nop 0\n s_cbranch_vccz xx+n*4\n s_nop 1\n s_endpgm\n")
                                   << QStringLiteral("xx: s_nop 0\n s_cbranch_vccz t\nt: s_nop 1\n s_endpgm\n")
                                   << QStringLiteral("tonga") << QStringLiteral("xx+2*4");
    QTest::addRow("i_fork") << QStringLiteral(" s_cbranch_i_fork s[44:45], yy+4\n s_nop 0\nyy: s_nop 1\n s_endpgm\n")
                            << QStringLiteral(" s_cbranch_i_fork s[44:45], t\n s_nop 0\nyy: s_nop 1\nt: s_endpgm\n")
                            << QStringLiteral("pitcairn") << QStringLiteral("yy+4");
    QTest::addRow("s_call_b64") << QStringLiteral(" s_call_b64 s[44:45], yy-8\n s_nop 0\nyy: s_endpgm\n")
                                << QStringLiteral("t: s_call_b64 s[44:45], t\n s_nop 0\nyy: s_endpgm\n")
                                << QStringLiteral("gfx900") << QStringLiteral("yy-8");
}

// clrxasm's label±N branch targets (N bytes from the label) against an LLVM twin with a label
// there: the same bytes and the same resolved target; the listing shows the target as written.
void TestClrx::branchTargets()
{
    QFETCH(QString, clrx);
    QFETCH(QString, llvm);
    QFETCH(QString, gpu);
    QFETCH(QString, written);
    const Program fromClrx = assemble(clrx.toStdString(), clrxOptions(gpu.toStdString()));
    AssembleOptions options;
    options.gpu = gpu.toStdString();
    options.dialect = AssembleOptions::Dialect::Llvm;
    const Program fromLlvm = assemble(llvm.toStdString(), options);
    QVERIFY2(!fromClrx.hasErrors(), qPrintable(errorsOf(fromClrx)));
    QVERIFY2(!fromLlvm.hasErrors(), qPrintable(errorsOf(fromLlvm)));
    QCOMPARE(fromClrx.instructions.size(), fromLlvm.instructions.size());
    bool shown = false;
    for (std::size_t i = 0; i < fromClrx.instructions.size(); ++i) {
        const Instruction& x = fromClrx.instructions[i];
        const Instruction& y = fromLlvm.instructions[i];
        const QByteArray where = QByteArray::number(qulonglong(i)) + " " + QByteArray::fromStdString(y.mnemonic);
        QVERIFY2(x.encoding == y.encoding, where.constData());
        QVERIFY2(x.targetIndex() == y.targetIndex() && x.targetOffset() == y.targetOffset() && x.backward == y.backward,
                 where.constData());
        shown = shown || x.operands.ends_with(written.toStdString());
    }
    QVERIFY(shown);
}

// Every instruction maps back to its line and statement; ';'-separated statements share a line;
// an error names the line and column of the part that failed, and the rest is still laid out.
void TestClrx::linesAndColumns()
{
    const std::string source = "# lines\n"
                               "s_nop 0 ; s_nop 1\n"
                               "  v_bogus_op v1, v2\n"
                               "x = %v[4:5]; v_mov_b32 x[1], 1.0\n"
                               "/* a comment\n"
                               "   over lines */ s_endpgm\n";
    const Program program = assemble(source, clrxOptions("tahiti"));
    QCOMPARE(program.instructions.size(), std::size_t(5));
    const auto& in = program.instructions;
    QCOMPARE(in[0].line, 2);
    QCOMPARE(in[0].columnBegin, 0);
    QCOMPARE(in[0].columnEnd, 7);
    QCOMPARE(in[1].line, 2);
    QCOMPARE(in[1].columnBegin, 10);
    QCOMPARE(in[1].columnEnd, 17);
    QVERIFY(in[2].placeholder);
    QCOMPARE(in[2].line, 3);
    QCOMPARE(in[3].line, 4);
    QCOMPARE(in[3].operands, std::string("v5, 1.0"));
    QCOMPARE(in[3].columnBegin, 13);
    QCOMPARE(in[4].line, 6);
    QCOMPARE(in[4].mnemonic, std::string("s_endpgm"));
    bool found = false;
    for (const auto& d : program.diagnostics)
        if (d.severity == Severity::Error) {
            QCOMPARE(d.line, 3);
            QCOMPARE(d.column, 2);
            found = true;
        }
    QVERIFY(found);
    QCOMPARE(program.lineToInstructions.count(2), std::size_t(1));
    QCOMPARE(program.lineToInstructions.find(2)->second.size(), std::size_t(2));
}

// .config values are the declared resources, beside the registers the code uses.
void TestClrx::declaredResources()
{
    AnalysisRequest request;
    request.assemble = clrxOptions("pitcairn");
    const Analysis analysis = runAnalysis(readData(QStringLiteral("vadd.clrx")), request);
    QVERIFY2(!analysis.program.hasErrors(), qPrintable(errorsOf(analysis.program)));
    QCOMPARE(analysis.resources.size(), std::size_t(1));
    const ResourceUsage& usage = analysis.resources.front();
    QCOMPARE(usage.declaredVgprs, std::optional<int>(8));
    QCOMPARE(usage.declaredSgprs, std::optional<int>(20));
    QCOMPARE(usage.declaredLds, std::optional<int>(1024));
    QCOMPARE(usage.usedVgprs, 5); // v0…v4
    QCOMPARE(analysis.occupancyInputs.front().vgprs, 8);
    QCOMPARE(analysis.occupancyInputs.front().ldsBytes, 1024);
    QCOMPARE(analysis.occupancyInputs.front().workgroupSize, 64); // none declared: the default
    // .cws 16, 8: a declared workgroup of 128 work-items.
    request.assemble = clrxOptions("tonga", ClrxFormat::Rocm);
    const Analysis k2 = runAnalysis(readData(QStringLiteral("k2.clrx")), request);
    QCOMPARE(k2.occupancyInputs.front().workgroupSize, 128);
    QCOMPARE(k2.resources.front().declaredVgprs, std::optional<int>(12));
}

// `.gpu`/`.arch` set the GPU unless the user forced one.
void TestClrx::gpuFromSource()
{
    const std::string source = ".gpu Fiji\nv_add_u32 v1, vcc, v2, v3\ns_endpgm\n";
    AssembleOptions options = clrxOptions("tahiti");
    options.gpuFromSource = true;
    Program program = assemble(source, options);
    QCOMPARE(program.gpu.processor, std::string("fiji"));
    QVERIFY2(!program.hasErrors(), qPrintable(errorsOf(program)));
    options.gpuFromSource = false; // --gpu tahiti given: v_add_u32 is read as GCN 1.0's v_add_i32
    program = assemble(source, options);
    QCOMPARE(program.gpu.processor, std::string("tahiti"));
    QCOMPARE(program.instructions.front().mnemonic, std::string("v_add_i32_e32"));
    options.gpuFromSource = true;
    program = assemble(".arch GCN1.4\ns_endpgm\n", options);
    QCOMPARE(program.gpu.processor, std::string("gfx900"));
}

void TestClrx::formatAndBitness_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<bool>("is64");
    QTest::addColumn<int>("nops"); // the s_nop operand the conditionals pick
    QTest::addRow("amd 32") << int(ClrxFormat::Amd) << false << 1;
    QTest::addRow("amd 64") << int(ClrxFormat::Amd) << true << 2;
    QTest::addRow("amdcl2") << int(ClrxFormat::AmdCl2) << true << 3;
    QTest::addRow("rocm") << int(ClrxFormat::Rocm) << false << 4;
    QTest::addRow("gallium") << int(ClrxFormat::Gallium) << false << 5;
    QTest::addRow("rawcode") << int(ClrxFormat::RawCode) << false << 6;
}

void TestClrx::formatAndBitness()
{
    QFETCH(int, format);
    QFETCH(bool, is64);
    QFETCH(int, nops);
    const std::string source = ".iffmt amd\n .if64\n  s_nop 2\n .else\n  s_nop 1\n .endif\n"
                               ".elseiffmt amdcl2\n s_nop 3\n.elseiffmt rocm\n s_nop 4\n"
                               ".elseiffmt gallium\n s_nop 5\n.else\n s_nop 6\n.endif\n";
    AssembleOptions options = clrxOptions("tahiti", ClrxFormat(format));
    options.clrx.is64bit = is64;
    const Program program = assemble(source, options);
    QVERIFY2(!program.hasErrors(), qPrintable(errorsOf(program)));
    QCOMPARE(program.instructions.size(), std::size_t(1));
    QCOMPARE(program.instructions.front().operands, std::to_string(nops));
    // In the source, .rocm etc. switch the format for what follows.
    const Program switched = assemble(".rocm\n.iffmt rocm\n s_nop 9\n.endif\n", options);
    QCOMPARE(switched.instructions.front().operands, std::string("9"));
}

// .regvar: registers gcnlens allocates itself, with a note on each line that says so.
void TestClrx::registerVariables()
{
    const std::string source = ".regvar a:v, b:s:2\nv_mov_b32 a, 0\ns_mov_b64 b, 0\nv_mov_b32 v3, s5\ns_endpgm\n";
    const Program program = assemble(source, clrxOptions("tahiti"));
    QVERIFY2(!program.hasErrors(), qPrintable(errorsOf(program)));
    QCOMPARE(program.instructions.size(), std::size_t(4));
    QCOMPARE(program.instructions[0].size, 4);
    // A note on the .regvar line and on each line that uses a variable (clrxasm encodes register 0
    // for every one: .regvar is unimplemented in CLRX, so the registers cannot match its words).
    std::set<int> noted;
    for (const auto& d : program.diagnostics)
        if (d.message.find("register variable") != std::string::npos && d.message.find("clrxasm") != std::string::npos)
            noted.insert(d.line);
    QCOMPARE(noted, (std::set<int> {1, 2, 3}));
    // Each variable its own registers, above those the code names (v3, s5), not v0/s0 as clrxasm.
    QCOMPARE(program.instructions[0].operands, std::string("v4, 0"));
    QCOMPARE(program.instructions[1].operands, std::string("s[6:7], 0"));
    // A register number past any register (the upper end of a range, as the lower end) counts as
    // 2^20, not as an int that overflows (fuzz_listingreader 09c18995): the variable goes above it
    // (an even pair).
    ClrxOptions options;
    options.processor = "tahiti";
    const ClrxTranslation huge =
        translateClrx(".regvar b:s:2\ns_mov_b64 s[0:13333333333333333333], 0\ns_mov_b64 b, 0\n", options);
    QVERIFY2(huge.text.find("s[1048578:1048579]") != std::string::npos, huge.text.c_str());
}

// A register subrange that cannot be read ("v[" without its "]", or "v[x" with x unknown) leaves
// its brackets to the enclosing scan, which meets every '[' inside again: each such '[' on a line
// doubled the work (40 of them: 2^40 scans, the translation never ended; fuzz_frontend 0d7d7313,
// a 1 KB line, took 18 s). Each failure is read once now: the translation ends, the nested one
// carried over as written for LLVM to refuse, and the next line is translated. Readable
// subranges inside the unreadable ones are read again by each enclosing scan (only failures are
// remembered): the third line ends too, its readable ranges translated.
void TestClrx::unreadableSubranges()
{
    ClrxOptions options;
    options.processor = "tahiti";
    std::string unclosed = "x = ", nested = "v_mov_b32 v1, ", mixed = "v_mov_b32 v2, ";
    for (int i = 0; i < 40; ++i) {
        unclosed += "v[1 ";
        nested += "v[x ";
        mixed += "v[x+v[3:3] ";
    }
    nested += std::string(40, ']');
    mixed += std::string(40, ']');
    const ClrxTranslation t = translateClrx(unclosed + "\n" + nested + "\n" + mixed + "\ns_endpgm\n", options);
    QVERIFY2(t.text.find("v_mov_b32 v1, v[x v[x v[x") != std::string::npos, t.text.c_str());
    QVERIFY2(t.text.find("v_mov_b32 v2, v[x+v3 v[x+v3 v[x+v3") != std::string::npos, t.text.c_str());
    QVERIFY2(t.text.find("s_endpgm") != std::string::npos, t.text.c_str());
}

// .for/.while passes are laid out on the body's lines; a loop that never ends stops with an error.
void TestClrx::loops()
{
    const std::string source = ".for x = 0, x < 3, x+1\n  v_mov_b32 v1, x\n.endfor\n"
                               "n = 2\n.while n > 0\n  s_nop n\n  n = n - 1\n.endwhile\n"
                               ".while 1\n  s_nop 7\n.endwhile\ns_endpgm\n";
    const Program program = assemble(source, clrxOptions("tahiti"));
    QCOMPARE(program.instructions[0].operands, std::string("v1, 0"));
    QCOMPARE(program.instructions[2].operands, std::string("v1, 2"));
    QCOMPARE(program.instructions[2].line, 2);
    QCOMPARE(program.instructions[3].operands, std::string("2"));
    QCOMPARE(program.instructions[4].operands, std::string("1"));
    QCOMPARE(program.instructions[4].line, 6);
    QCOMPARE(program.instructions.back().mnemonic, std::string("s_endpgm"));
    QCOMPARE(program.instructions.back().line, 12);
    bool stopped = false;
    for (const auto& d : program.diagnostics)
        stopped = stopped || (d.severity == Severity::Error && d.line == 9);
    QVERIFY(stopped);
}

// An .included file is read as CLRX too; what it holds maps to the .include line.
void TestClrx::includes()
{
    AssembleOptions options = clrxOptions("tahiti");
    options.includeDirs.push_back(test::testData("data/clrx").toStdString());
    const Program program = assemble("# main\n.include \"defs.inc\"\n  v_mov_b32 pair[1], 0\n  ADD2 v1, v2, v3\n", options);
    QVERIFY2(!program.hasErrors(), qPrintable(errorsOf(program)));
    QCOMPARE(program.instructions.size(), std::size_t(2));
    QCOMPARE(program.instructions[0].operands, std::string("v3, 0"));
    QCOMPARE(program.instructions[0].line, 3);
    QCOMPARE(program.instructions[1].mnemonic, std::string("v_add_f32_e64"));
    QCOMPARE(program.instructions[1].line, 4);
}

void TestClrx::commandLine_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("header"); // the listing's first line names the GPU
    const QString vadd = test::testData("data/clrx/vadd.clrx");
    QTest::addRow("detected, .gpu") << QStringList {vadd} << 0 << QStringLiteral("; pitcairn (GFX6)");
    QTest::addRow("--gpu wins") << QStringList {vadd, QStringLiteral("--gpu"), QStringLiteral("bonaire")} << 0
                                << QStringLiteral("; bonaire (GFX7)");
    QTest::addRow("--input clrx") << QStringList {vadd, QStringLiteral("--input"), QStringLiteral("clrx")} << 0
                                  << QStringLiteral("; pitcairn (GFX6)");
    // Read as LLVM syntax, the CLRX pseudo-ops and register symbols are errors (exit status 1).
    QTest::addRow("--input llvm") << QStringList {vadd, QStringLiteral("--input"), QStringLiteral("llvm")} << 1
                                  << QStringLiteral("; tahiti (GFX6)");
    QTest::addRow("--64bit") << QStringList {vadd, QStringLiteral("--64bit"), QStringLiteral("--binary-format"),
                                             QStringLiteral("amd")}
                             << 0 << QStringLiteral("; pitcairn (GFX6)");
}

// gcnlens-cli reads CLRX sources: detected, or forced with --input; clrxasm's options accepted.
void TestClrx::commandLine()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, header);
    QProcess process;
    process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), QStringList {QStringLiteral("listing")} + args);
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), exitCode);
    const QString out = QString::fromUtf8(process.readAllStandardOutput());
    QCOMPARE(out.section(QLatin1Char('\n'), 0, 0), header);
    if (args.contains(QStringLiteral("--64bit")))
        QVERIFY(out.contains(QStringLiteral("s_nop 1")) && !out.contains(QStringLiteral("s_nop 2")));
}

// A patched translation against a fresh one: the same text, origins, notes and directives.
void compareTranslations(const ClrxTranslation& p, const ClrxTranslation& t, const QString& what)
{
    QCOMPARE(QString::fromStdString(p.text), QString::fromStdString(t.text));
    QCOMPARE(p.origins.size(), t.origins.size());
    for (std::size_t o = 0; o < t.origins.size(); ++o)
        QVERIFY2(p.origins[o].line == t.origins[o].line && p.origins[o].begin == t.origins[o].begin
                     && p.origins[o].end == t.origins[o].end && p.origins[o].anchors == t.origins[o].anchors,
                 qPrintable(QStringLiteral("output line %1 of %2").arg(o + 1).arg(what)));
    QCOMPARE(p.notes.size(), t.notes.size());
    for (std::size_t n = 0; n < t.notes.size(); ++n)
        QCOMPARE(p.notes[n].line, t.notes[n].line);
    QCOMPARE(p.directives.size(), t.directives.size());
    for (std::size_t d = 0; d < t.directives.size(); ++d)
        QCOMPARE(p.directives[d].line, t.directives[d].line);
}

// Typing in a CLRX source (the editor's path, FrontEnd reused): every one-line edit gives what a
// fresh assemble() gives, as tst_incremental checks for LLVM texts. The translation goes through
// the incremental splice, so this also checks that a CLRX line maps back after a splice.
void TestClrx::typing_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("format");
    QTest::addRow("vadd gcn1.0 amd") << QStringLiteral("vadd.clrx") << QStringLiteral("pitcairn") << int(ClrxFormat::Amd);
    QTest::addRow("k2 gcn1.2 rocm") << QStringLiteral("k2.clrx") << QStringLiteral("tonga") << int(ClrxFormat::Rocm);
}

void TestClrx::typing()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(int, format);
    const QString text = QString::fromStdString(readData(file));
    QVERIFY(!text.isEmpty());
    const QStringList lines = text.split(QLatin1Char('\n'));
    const AssembleOptions options = clrxOptions(gpu.toStdString(), ClrxFormat(format));
    // CLRX forms: vop3, two statements on a line, a '#' comment, garbage, a blank line.
    const QStringList replacements = {QStringLiteral("    v_add_f32 v1, v2, v3 vop3"), QStringLiteral("    s_nop 0; s_nop 1"),
                                      QStringLiteral("    v_mov_b32 v1, 0x12345678 # a literal"), QStringLiteral("    qwerty v1"),
                                      QString()};
    int compared = 0, patched = 0;
    FrontEnd frontEnd;
    ClrxTranslator translator;
    ClrxOptions translatorOptions;
    translatorOptions.format = ClrxFormat(format);
    translatorOptions.processor = gpu.toStdString();
    const std::string before = text.toStdString();
    for (int l = 0; l < lines.size(); ++l) {
        QList<QStringList> variants = test::lineEdits(lines, l, replacements);
        QStringList typed = lines; // a character typed in the middle of the line
        typed[l].insert(typed[l].size() / 2, QLatin1Char('1'));
        variants << typed;
        for (const auto& variant : variants) {
            frontEnd.analyze(before, options); // the text before the edit, then the edit
            const std::string after = variant.join(QLatin1Char('\n')).toStdString();
            // The translation patched after the edit is the translation of the edited text.
            translator.translate(before, translatorOptions);
            const ClrxTranslation& p = translator.translate(after, translatorOptions);
            patched += translator.lastPatched() ? 1 : 0;
            compareTranslations(p, translateClrx(after, translatorOptions), QStringLiteral("the edit of line %1").arg(l + 1));
            if (QTest::currentTestFailed())
                return;
            const Program incremental = frontEnd.analyze(after, options);
            const Program fresh = assemble(after, options);
            bool placeholder = false; // may keep its pre-edit size on the incremental path (by design)
            for (const auto& i : incremental.instructions)
                placeholder = placeholder || i.placeholder;
            if (placeholder)
                continue;
            const QStringList a = test::describe(incremental), b = test::describe(fresh);
            for (int i = 0; i < std::max(a.size(), b.size()); ++i)
                QVERIFY2(a.value(i) == b.value(i),
                         qPrintable(QStringLiteral("edit of line %1:\n incremental: %2\n fresh:       %3\n--- text:\n%4")
                                        .arg(l + 1)
                                        .arg(a.value(i), b.value(i), QString::fromStdString(after))));
            ++compared;
        }
    }
    QVERIFY(compared > lines.size());
    QVERIFY(patched > 0); // edits of plain instruction lines take the patch (bench_clrx: its speed)
}

// Lines whose code is not their own text alone, which the patch must leave to a full translation:
// a line in a block comment reads as blank whatever it says (fuzz_frontend 73838dbd), a line a
// continuation joins to the one above is part of that one's statement, and a line inserted after
// one that opens a comment or continues is read in that context.
void TestClrx::patchTiedLines_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::addRow("in a block comment") << QStringLiteral("s_nop 0\n/*\ns_nop 1\n*/\ns_endpgm\n")
                                        << QStringLiteral("s_nop 0\n/*\ns_nop 2\n*/\ns_endpgm\n");
    QTest::addRow("blank in a block comment")
        << QStringLiteral("s_nop 0\n/*\n\n*/\ns_endpgm\n") << QStringLiteral("s_nop 0\n/*\ns_nop 2\n*/\ns_endpgm\n");
    QTest::addRow("joined by a continuation") << QStringLiteral("s_nop 0\ns_mov_b32 s0, 1 \\\n\ns_endpgm\n")
                                              << QStringLiteral("s_nop 0\ns_mov_b32 s0, 1 \\\ns_nop 1\ns_endpgm\n");
    QTest::addRow("inserted after a continued line") << QStringLiteral("s_nop 0\ns_mov_b32 s0, \\\n1\ns_endpgm\n")
                                                     << QStringLiteral("s_nop 0\ns_mov_b32 s0, \\\ns_nop 1\n1\ns_endpgm\n");
    QTest::addRow("inserted after an opened comment") << QStringLiteral("s_nop 0 /* open\n*/ s_nop 1\ns_endpgm\n")
                                                      << QStringLiteral("s_nop 0 /* open\ns_nop 2\n*/ s_nop 1\ns_endpgm\n");
}

void TestClrx::patchTiedLines()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    ClrxOptions options;
    ClrxTranslator translator;
    translator.translate(before.toStdString(), options);
    const ClrxTranslation& patched = translator.translate(after.toStdString(), options);
    compareTranslations(patched, translateClrx(after.toStdString(), options), QStringLiteral("the edit"));
}

QTEST_GUILESS_MAIN(TestClrx)
// CLRX's expression values (ClrxAsmSyntax.md, amdasm/AsmExpression.cpp), read in CLRX's terms and
// not after the operators are translated for LLVM (whose >> is logical, / and % signed). Shift
// counts are unsigned: a negative one is out of range, giving 0 (or the sign for >>>), never a
// shift by a negative amount (UBSan found `>>> -1` through fuzz_listingreader).
void TestClrx::shiftCounts_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<qlonglong>("value");
    QTest::addRow("1 << 3") << QStringLiteral("1 << 3") << 8LL;
    QTest::addRow("-8 >>> 1") << QStringLiteral("-8 >>> 1") << -4LL;
    QTest::addRow("1 << -1") << QStringLiteral("1 << -1") << 0LL;
    QTest::addRow("8 >> -2") << QStringLiteral("8 >> -2") << 0LL;
    QTest::addRow("-8 >>> -1") << QStringLiteral("-8 >>> -1") << -1LL;
    QTest::addRow("8 >>> -1") << QStringLiteral("8 >>> -1") << 0LL;
    QTest::addRow("1 << 64") << QStringLiteral("1 << 64") << 0LL;
    // CLRX's unsigned division and remainder, which LLVM's / and % (signed) do not mean.
    QTest::addRow("-8 // 2") << QStringLiteral("-8 // 2") << 9223372036854775804LL;
    QTest::addRow("-7 unsigned-rem 4") << QStringLiteral("-7 %% 4") << 1LL;
    QTest::addRow("-7 signed-rem 4") << QStringLiteral("-7 % 4") << -3LL;
}

void TestClrx::shiftCounts()
{
    QFETCH(QString, expression);
    QFETCH(qlonglong, value);
    ClrxOptions options;
    options.processor = "tahiti";
    const ClrxTranslation translation = translateClrx("x = " + expression.toStdString() + "\ns_mov_b32 s0, x\n", options);
    const std::string want = "x = " + std::to_string(value);
    QVERIFY2(translation.text.find(want) != std::string::npos, translation.text.c_str());
}

#include "tst_clrx.moc"
