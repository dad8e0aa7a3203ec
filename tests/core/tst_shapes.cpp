// SPDX-License-Identifier: MIT
// The shape pass (frontend.cpp, planShapes) encodes lines that differ only in register numbers
// from one assembler run of their shape. It must change nothing: every program here is assembled
// with and without it and the two compared field by field, on real kernels and on generated
// ones that mix every encoding family with registers that repeat, overlap, are misaligned or out
// of range, so that the assembler's register-dependent decisions (VOP3 promotion, the constant
// bus limit, tuple alignment, index limits) are all exercised.
#include "../bench/generatedkernel.h"
#include "core/asm/assembler.h"
#include "core/asm/fastpaths.h"
#include "core/asm/linescan_p.h"
#include "core/asm/printedshape_p.h"
#include "describeprogram.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <functional>
#include <random>

using namespace gcnlens;
using gcnlens::test::describe;
using gcnlens::test::firstDifference;

namespace {

// Instruction forms. {v}/{s}: one register from a small range, so that repeats and overlaps are
// common; {v2}/{v4}: VGPR tuples at any alignment; {s2}/{s4}/{s8}: aligned SGPR tuples; {sx2}/
// {sx4}: SGPR tuples at any alignment (misaligned ones are errors); {a}: an AGPR.
const char* const kForms[] = {
    "s_mov_b32 {s}, {s}",
    "s_add_u32 {s}, {s}, 0x1234",
    "s_add_u32 {s}, {s}, 64",
    "s_and_b64 {s2}, {s2}, exec",
    "s_movk_i32 {s}, 0x7f",
    "s_cmp_eq_u32 {s}, {s}",
    "s_nop 1",
    "s_waitcnt vmcnt(0) lgkmcnt(0)",
    "s_load_dwordx4 {s4}, {s2}, 0x10",
    "s_load_dwordx2 {sx2}, {s2}, 0x0",
    "s_buffer_load_dword {s}, {s4}, 0x4",
    "s_load_dwordx8 {s8}, {sx2}, 0x20",
    "s_cbranch_scc1 3",
    "s_mov_b64 {sx2}, {s2}",
    "v_mov_b32 {v}, {v}",
    "v_mov_b32 {v}, {s}",
    "v_mov_b32 {v}, 0.5",
    "v_mov_b32 {v}, 0.3",
    "v_mov_b32 {v}, 65",
    "v_add_f32 {v}, {v}, {v}",
    "v_add_f32 {v}, {s}, {v}",
    "v_add_f32 {v}, {v}, {s}",
    "v_add_f32 {v}, {s}, {s}",
    "v_add_f32 {v}, {v}, {v} clamp",
    "v_mul_f32 {v}, 0x40490fdb, {v}",
    "v_fma_f32 {v}, {v}, {s}, {v}",
    "v_fma_f32 {v}, {s}, {s}, {v}",
    "v_mad_f32 {v}, -{v}, |{v}|, {s}",
    "v_cndmask_b32 {v}, {v}, {v}, vcc",
    "v_cndmask_b32_e64 {v}, {v}, {v}, {s2}",
    "v_cndmask_b32_e64 {v}, {s}, {v}, {sx2}",
    "v_cmp_gt_f32 vcc, {v}, {v}",
    "v_cmp_gt_f32_e64 {s2}, {v}, {s}",
    "v_mac_f32 {v}, {v}, {v}",
    "v_cvt_f32_i32 {v}, {v}",
    "v_readlane_b32 {s}, {v}, {s}",
    "v_writelane_b32 {v}, {s}, 5",
    "v_lshlrev_b32 {v}, 2, {v}",
    "v_add_f64 {v2}, {v2}, {v2}",
    "v_mov_b32 v256, 0",
    "s_mov_b32 s102, 0",
    "v_mov_b32 v007, 1",
    "ds_read_b32 {v}, {v} offset:16",
    "ds_write2_b32 {v}, {v}, {v} offset1:4",
    "ds_read_b64 {v2}, {v}",
    "buffer_load_dword {v}, {v}, {s4}, 0 offen",
    "buffer_store_dwordx2 {v2}, {v}, {s4}, {s} offen offset:8",
    "buffer_load_dwordx4 {v4}, {v}, {sx4}, 0 idxen glc",
    "image_sample {v4}, {v4}, {s8}, {s4} dmask:0xf",
    "v_interp_p1_f32 {v}, {v}, attr0.x",
    "exp mrt0 {v}, {v}, {v}, {v}",
    "qwerty {v}, {s}",
    // GFX7+ / GFX8+ / GFX9+ / GFX908+ forms: errors on older targets, which must match too.
    "flat_load_dword {v}, {v2}",
    "v_add_u32 {v}, vcc, {v}, {v}",
    "v_add_u32_e64 {v}, {s2}, {v}, {s}",
    "v_mov_b32_sdwa {v}, {v} dst_sel:WORD_1 src0_sel:BYTE_0",
    "v_add_f32_sdwa {v}, {s}, {v} src0_sel:WORD_1",
    "v_mov_b32_dpp {v}, {v} quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
    "s_load_dword {s}, {s2}, 0x100",
    "global_load_dword {v}, {v2}, off",
    "global_load_dwordx2 {v2}, {v2}, off",
    "v_pk_add_f16 {v}, {v}, {v}",
    "v_accvgpr_write_b32 {a}, {v}",
    "v_accvgpr_read_b32 {v}, {a}",
    "v_mfma_f32_4x4x1f32 {a4}, {v}, {v}, {a4}",
    // Distinct values (issue #18's value classes): {lit} any 32-bit integer, inline patterns and
    // range edges included; {o8}/{o12}/{o16}/{o20}: offsets around their field's limits.
    "v_mul_f32 {v}, {lit}, {v}",
    "v_mov_b32 {v}, {lit}",
    "s_add_u32 {s}, {s}, {lit}",
    "s_mov_b32 {s}, {lit}",
    "v_add_f32 {v}, {v}, {lit}",
    "v_mac_f32 {v}, {lit}, {v}",
    "v_madak_f32 {v}, {v}, {v}, {lit}",
    "v_add_f64 {v2}, {lit}, {v2}",
    "v_mov_b32 {v}, {lit} row_shl:1",
    "v_pk_add_f16 {v}, {lit}, {v}",
    "v_add_u16 {v}, {lit}, {v}",
    "v_add_f16 {v}, {lit}, {v}",
    "s_movk_i32 {s}, {o16}",
    "s_cmpk_eq_u32 {s}, {o16}",
    "ds_read_b32 {v}, {v} offset:{o16}",
    "ds_write2_b32 {v}, {v}, {v} offset0:{o8} offset1:{o8}",
    "buffer_load_dword {v}, {v}, {s4}, 0 offen offset:{o12}",
    "buffer_store_dword {v}, {v}, {s4}, {s} offen offset:{o12}",
    "s_load_dword {s}, {s2}, {o8}",
    "s_load_dwordx2 {s2}, {s2}, {o20}",
    "s_buffer_load_dword {s}, {s4}, {o12}",
    "global_load_dword {v}, {v2}, off offset:{o12}",
    "flat_load_dword {v}, {v2} offset:{o12}",
    "s_cbranch_scc0 {o16}",
    "s_waitcnt {o16}",
    "s_setreg_imm32_b32 hwreg(HW_REG_MODE), {lit}",
    "v_cndmask_b32 {v}, {lit}, {v}, vcc",
};

// A value for {lit}: inline integers and patterns, their neighbours, and any 32-bit value.
QString literal(const std::function<int(int, int)>& pick)
{
    static const char* const kEdges[] = {"0x3f800000", "0x3f800001", "0xffffffff", "0xfffffff0", "0xffffffef",
                                         "0xffff",     "0x3c003c00", "0x3c003c01", "0x3c00",     "0x3e22f983",
                                         "0x3fe00000", "65",         "64",         "0x8000",     "0x7fff",
                                         "0x10000",    "0x7fffffff", "0x80000000", "0x100000000"};
    if (pick(0, 2) == 0)
        return QString::fromLatin1(kEdges[pick(0, int(std::size(kEdges)) - 1)]);
    const std::uint32_t v = std::uint32_t(pick(0, 0xffff)) << 16 | std::uint32_t(pick(0, 0xffff));
    return pick(0, 1) ? QStringLiteral("0x%1").arg(v, 0, 16) : QString::number(v);
}

// An offset of up to `bits` bits, often at the limit of its field or one past it.
QString offset(const std::function<int(int, int)>& pick, int bits)
{
    const int limit = 1 << bits;
    switch (pick(0, 3)) {
    case 0:
        return QString::number(limit - 1 - pick(0, 3));
    case 1:
        return QString::number(limit + pick(0, 3));
    case 2:
        return QStringLiteral("0x%1").arg(pick(65, limit - 1), 0, 16);
    default:
        return QString::number(pick(65, limit * 2));
    }
}

QString generate(std::mt19937& random, int lines)
{
    const std::function<int(int, int)> pick = [&](int from, int to) {
        return std::uniform_int_distribution<int>(from, to)(random);
    };
    QString text = QStringLiteral(".text\nkernel:\n");
    for (int n = 0; n < lines; ++n) {
        QString line = QString::fromLatin1(kForms[pick(0, int(std::size(kForms)) - 1)]);
        const auto tuple = [&](QChar kind, int width, int align, int maxFirst) {
            const int first = pick(0, maxFirst / align) * align;
            return QStringLiteral("%1[%2:%3]").arg(kind).arg(first).arg(first + width - 1);
        };
        for (;;) {
            const int at = line.indexOf(QLatin1Char('{'));
            if (at < 0)
                break;
            const int end = line.indexOf(QLatin1Char('}'), at);
            const QString what = line.mid(at + 1, end - at - 1);
            QString reg;
            if (what == QLatin1String("v"))
                reg = QStringLiteral("v%1").arg(pick(0, 9));
            else if (what == QLatin1String("s"))
                reg = QStringLiteral("s%1").arg(pick(0, 7));
            else if (what == QLatin1String("a"))
                reg = QStringLiteral("a%1").arg(pick(0, 9));
            else if (what == QLatin1String("v2"))
                reg = tuple(QLatin1Char('v'), 2, 1, 12);
            else if (what == QLatin1String("v4"))
                reg = tuple(QLatin1Char('v'), 4, 1, 12);
            else if (what == QLatin1String("a4"))
                reg = tuple(QLatin1Char('a'), 4, 1, 12);
            else if (what == QLatin1String("s2"))
                reg = tuple(QLatin1Char('s'), 2, 2, 12);
            else if (what == QLatin1String("s4"))
                reg = tuple(QLatin1Char('s'), 4, 4, 12);
            else if (what == QLatin1String("s8"))
                reg = tuple(QLatin1Char('s'), 8, 4, 16);
            else if (what == QLatin1String("sx2"))
                reg = tuple(QLatin1Char('s'), 2, 1, 12);
            else if (what == QLatin1String("sx4"))
                reg = tuple(QLatin1Char('s'), 4, 1, 12);
            else if (what == QLatin1String("lit"))
                reg = literal(pick);
            else if (what.startsWith(QLatin1Char('o')))
                reg = offset(pick, what.mid(1).toInt());
            line.replace(at, end - at + 1, reg);
        }
        text += QStringLiteral("    ") + line + QLatin1Char('\n');
    }
    text += QStringLiteral("    s_endpgm\n");
    return text;
}

// Assembles both ways; the shape pass must have taken part (else the comparison proves nothing).
void compareBothWays(const QString& text, const QString& gpu, int minimumReused)
{
    AssembleOptions options;
    options.gpu = gpu.toStdString();
    const std::string source = text.toStdString();
    const Program withShapes = assemble(source, options);
    options.reuseShapes = false;
    const Program without = assemble(source, options);
    QCOMPARE(without.shapeReused, 0);
    QVERIFY2(withShapes.shapeReused >= minimumReused,
             qPrintable(QStringLiteral("only %1 of %2 instructions came from the shape pass")
                            .arg(withShapes.shapeReused)
                            .arg(withShapes.instructions.size())));
    const QStringList a = describe(withShapes), b = describe(without);
    QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
}

} // namespace

class TestShapes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void generated_data()
    {
        QTest::addColumn<QString>("gpu");
        for (const char* gpu : {"tahiti", "hawaii", "fiji", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx942"})
            QTest::newRow(gpu) << QString::fromLatin1(gpu);
    }
    void generated()
    {
        QFETCH(QString, gpu);
        std::mt19937 random(20261120u);
        for (int round = 0; round < 4; ++round)
            compareBothWays(generate(random, 600), gpu, 300);
    }

    // Value classes (issue #18): lines of one form with fixed registers and random values, so
    // that many share a shape across values, at the edges of every inline pattern and field range;
    // and the benchmark's kernel of distinct literals and offsets.
    // The line splitting every pass starts from (sixteen bytes at a time, the rest one by one)
    // and the newline count, against the plain way, on texts of every length around the blocks.
    void lineSplitting()
    {
        std::mt19937 random(18);
        for (int round = 0; round < 3000; ++round) {
            std::string text(std::size_t(random() % 80), 'x');
            const unsigned density = 1 + random() % 4; // 1: all newlines … 4: one in four
            for (char& c : text)
                c = random() % density == 0 ? '\n' : char('a' + random() % 26);
            std::vector<std::string_view> expected;
            std::size_t start = 0;
            for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
                expected.push_back(std::string_view(text).substr(start, end - start));
            expected.push_back(std::string_view(text).substr(start));
            QCOMPARE(gcnlens::detail::splitLines(text), expected);
            QCOMPARE(gcnlens::detail::countNewlines(text), std::size_t(std::count(text.begin(), text.end(), '\n')));
        }
    }

    void valueClasses_data() { generated_data(); }
    void valueClasses()
    {
        QFETCH(QString, gpu);
        std::mt19937 random(20261124u);
        const std::function<int(int, int)> pick = [&](int from, int to) {
            return std::uniform_int_distribution<int>(from, to)(random);
        };
        QString text = QStringLiteral(".text\nkernel:\n");
        for (const char* form : kForms) {
            QString pattern = QString::fromLatin1(form);
            if (!pattern.contains(QLatin1String("{lit}")) && !pattern.contains(QLatin1String("{o")))
                continue;
            pattern.replace(QLatin1String("{v2}"), QLatin1String("v[2:3]")).replace(QLatin1String("{v}"), QLatin1String("v1"));
            pattern.replace(QLatin1String("{s4}"), QLatin1String("s[4:7]"))
                .replace(QLatin1String("{s2}"), QLatin1String("s[2:3]"));
            pattern.replace(QLatin1String("{s}"), QLatin1String("s1"));
            for (int n = 0; n < 30; ++n) {
                QString line = pattern;
                while (line.contains(QLatin1String("{lit}")))
                    line.replace(line.indexOf(QLatin1String("{lit}")), 5, literal(pick));
                for (int at; (at = line.indexOf(QLatin1String("{o"))) >= 0;) {
                    const int end = line.indexOf(QLatin1Char('}'), at);
                    line.replace(at, end - at + 1, offset(pick, line.mid(at + 2, end - at - 2).toInt()));
                }
                text += QStringLiteral("    ") + line + QLatin1Char('\n');
            }
        }
        compareBothWays(text + QStringLiteral("    s_endpgm\n"), gpu, 200);
        compareBothWays(QString::fromStdString(gcnlens::bench::generateDistinctKernel(2000)), gpu, 1500);
    }

    // Kernels written by hand: macros, .rept, symbols in register operands, labels and branches,
    // alignment, several kernels. Lines around those stay with the assembler; the rest must agree.
    void realKernels_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpu");
        QTest::newRow("sgemm") << gcnlens::test::testData("data/shapes-gfx900.s") << "gfx900";
        QTest::newRow("saxpy") << gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s") << "tahiti";
        QTest::newRow("macros") << gcnlens::test::testData("data/incremental-macros.s") << "gfx900";
        QTest::newRow("timing") << gcnlens::test::testData("data/timing-gfx6.s") << "tahiti";
        QTest::newRow("bad-middle") << gcnlens::test::testData("data/frontend/bad-middle.s") << "tahiti";
        QTest::newRow("clean") << gcnlens::test::testData("data/frontend/clean.s") << "tahiti";
    }
    void realKernels()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpu);
        const QString text = gcnlens::test::readFile(file);
        QVERIFY2(!text.isEmpty(), qPrintable(file));
        // Below the pass's minimum the comparison is trivially equal: say so rather than pass.
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        const Program once = assemble(text.toStdString(), options);
        if (once.shapeReused == 0)
            QSKIP("too small or too irregular for the shape pass");
        compareBothWays(text, gpu, 1);
    }

    // Symbols that change value between lines, and labels used as operands, keep their lines with
    // the assembler: a shape must never stand for a line whose meaning depends on a definition.
    void definitionsStayWithTheAssembler()
    {
        QString text = QStringLiteral(".text\nk:\n.set vbase, 4\n");
        for (int i = 0; i < 60; ++i) {
            text += QStringLiteral("    v_mov_b32 v%1, vbase\n    s_add_u32 s%2, s1, K\n").arg(i % 8).arg(i % 6);
            if (i == 30)
                text += QStringLiteral(".set vbase, 0x12345\n"); // 4 → an inline constant; 0x12345 → a literal
        }
        text += QStringLiteral("K = 3\n    s_endpgm\n");
        AssembleOptions options;
        const Program p = assemble(text.toStdString(), options);
        QCOMPARE(p.shapeReused, 0);
        QVERIFY(!p.hasErrors());
        // v_mov_b32 with vbase=4 is 4 bytes; with the literal 0x12345 it is 8.
        QCOMPARE(p.instructions.at(0).size, 4);
        QCOMPARE(p.instructions.at(p.instructions.size() - 3).size, 8);
        compareBothWays(text + QStringLiteral("    s_nop 0\n").repeated(60), QStringLiteral("tahiti"), 60);
    }

    // Cases found by running check_shapes over LLVM's own AMDGPU assembler tests (the corpus is not
    // in the repository; these lines are written for this test). Each row is a few lines plus
    // filler of one shape so that the pass engages; the run without the pass is the reference.
    void assemblerCorpusFindings_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("lines");
        // GFX90A+ require the data VGPR of ds_gws_* to be even: v6 assembles, v7 is an error.
        // The shape key keeps the alignment of tuples only, so both lines share one shape.
        const QString gws = QStringLiteral("ds_gws_init v6 offset:16 gds\nds_gws_init v7 offset:16 gds\n");
        QTest::newRow("gws-odd-data-gfx90a") << "gfx90a" << gws;
        QTest::newRow("gws-odd-data-gfx942") << "gfx942" << gws;
        // "a16" is MIMG's 16-bit-address flag, not AGPR 16; "a18" in its place is no operand at
        // all and LLVM rejects the line, but it looks like the same shape.
        QTest::newRow("a16-flag-gfx900") << "gfx900"
                                         << QStringLiteral("image_load v[2:3], v[4:5], s[16:23] dmask:0x3 a16\n"
                                                           "image_load v[2:3], v[4:5], s[16:23] dmask:0x3 a18\n");
        // 2.2 has no exact 64-bit encoding in a 32-bit literal: LLVM warns (without a source
        // location), and that warning must survive when the line is encoded from its shape.
        const QString inexact = QStringLiteral("v_sqrt_f64 v[4:5], 2.2\n");
        QTest::newRow("inexact-f64-literal-tahiti") << "tahiti" << inexact;
        QTest::newRow("inexact-f64-literal-gfx900") << "gfx900" << inexact;
    }
    void assemblerCorpusFindings()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, lines);
        QString filler;
        for (int i = 0; i < 50; ++i)
            filler += QStringLiteral("s_mov_b32 s%1, s%2\n").arg(i % 8).arg((i + 3) % 8);
        compareBothWays(lines + filler, gpu, 50);
    }

    // The fast paths without an option of their own (core/asm/fastpaths.h, issue #18): where a
    // macro/.rept expansion came from asked once per expansion buffer, the buffer index, and the
    // statements replayed after expansion. Each is switched off in turn and every field compared,
    // on macro-heavy programs whose statements come from nested expansions, with errors and
    // warnings inside them and cpp line markers.
    void expansionFastPaths_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("minimum"); // instructions from expansions, at least
        QTest::newRow("macros") << gcnlens::test::readFile(gcnlens::test::testData("data/incremental-macros.s")) << "gfx900" << 3;
        QTest::newRow("sgemm") << gcnlens::test::readFile(gcnlens::test::testData("data/shapes-gfx900.s")) << "gfx900" << 3;
        QTest::newRow("generated-macro") << QString::fromStdString(gcnlens::bench::generateMacroKernel(3000)) << "tahiti" << 2500;
        const QString nested =
            QStringLiteral(".text\nk:\n.macro inner d, o\n  ds_read_b32 v[\\d], v1 offset:\\o\n  v_mov_b32 v[\\d+1], \\o\n.endm\n"
                           ".macro outer d\n  .rept 3\n  inner \\d, 8\n  .endr\n  inner \\d+2, 16\n.endm\n"
                           "  outer 4\n  .rept 2\n  outer 10\n  .irp r, 20, 22\n  inner \\r, 4\n  .endr\n  .endr\n"
                           // an error and a warning inside expansions; data and alignment inside them too
                           ".macro bad x\n  v_mov_b32 v1, \\x\n  v_bogus_op v2\n  .long \\x\n  .p2align 4\n.endm\n"
                           "  bad 5\n  .rept 2\n  bad 0x12345\n  v_sqrt_f64 v[4:5], 2.2\n  .endr\n  s_endpgm\n");
        QTest::newRow("nested-with-errors") << nested << "tahiti" << 40;
        QTest::newRow("cpp-line-markers") << QStringLiteral("# 1 \"kernel.S\"\n") + nested
                + QStringLiteral("# 40 \"other.inc\"\n  outer 30\n  bad 7\n")
                                          << "tahiti" << 50;
    }
    // Where each expansion came from, read from the statements around it (streamer.cpp,
    // inferExpansions) instead of asked of LLVM: each row must place every instruction on the
    // line LLVM's own answer gives, and read at least `inferred` expansions itself.
    void inferredExpansions_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("inferred");
        QTest::newRow("consecutive calls") << "  b 1\n  b 2\n  b 3\n" << 2;
        QTest::newRow("labels before calls") << "L1: b 3\nL2:\n  b 5\n  s_nop 0\nL3: ; a comment\n  b 6\n" << 3;
        QTest::newRow("blank and comment lines") << "  s_nop 0 ; x\n\n  // c\n  ; d\n  b 9\n" << 1;
        QTest::newRow("a call first in a macro") << "  a 3\n  a 5\n" << 2;
        QTest::newRow("a call first in a .rept") << "  .rept 3\n  b 1\n  s_nop 1\n  .endr\n" << 3;
        QTest::newRow("a .rept in a macro") << "  c\n  c\n" << 4;
        QTest::newRow(".irp") << "  .irp r, 1, 2, 3\n  b \\r\n  .endr\n" << 3;
        QTest::newRow("a conditional between") << "  s_nop 0\n.if 1\n  b 4\n.endif\n  b 5\n" << 1;
        QTest::newRow("a macro of directives, then a call") << "  setonly\n  b 2\n  setonly\n  b 3\n" << 2;
        QTest::newRow("a call after a .rept") << "  .rept 2\n  s_nop 2\n  .endr\n  b 3\n  b 4\n" << 2;
        QTest::newRow(".exitm") << "  early 1\n  b 8\n  early 0\n  b 9\n" << 2;
        QTest::newRow("nested three deep") << "  .rept 2\n  c\n  .endr\n  a 1\n" << 7;
        // A macro whose body starts with a call, itself starting with one: the parser makes all
        // three buffers before any statement in them.
        QTest::newRow("calls first, three deep") << "  d 1\n  d 3\n" << 3;
        QTest::newRow("a .rept whose body calls first, two deep") << "  .rept 2\n  a 4\n  .endr\n" << 3;
        // Assignments make no buffer and pass no hook: the call after them is the next.
        QTest::newRow("assignments before calls") << "  n = 0\n  .rept 3\n  b 1\n  n = n + 1\n  .endr\n  s_nop 1\n  n=5\n  b 2\n"
                                                  << 4;
        // A block comment is blank space to LLVM's lexer; the shape pass holds the lines of each
        // run it encoded in one, so a call after planned lines comes after a comment too.
        QTest::newRow("block comments before calls") << "  s_nop 0\n  /* a\n  comment */\n  b 2\n  /* one */ b 3\n" << 2;
        const QString planned = QStringLiteral("  v_add_u32 v1, v2, v3\n").repeated(60) + QStringLiteral("  b 2\n")
            + QStringLiteral("  v_mov_b32 v4, v5\n").repeated(60) + QStringLiteral("  b 3\n");
        QTest::newRow("calls after planned lines") << planned << 2;
        // After an assignment, a conditional: the call may not run, so LLVM is asked.
        QTest::newRow("an assignment, then a conditional") << "  s_nop 0\n  n = 2\n.if 0\n  b 1\n.else\n  b 2\n.endif\n" << 0;
    }
    void inferredExpansions()
    {
        QFETCH(QString, body);
        QFETCH(int, inferred);
        const QString text = QStringLiteral(".text\nk:\n"
                                            ".macro b d\n  v_mov_b32 v[\\d], 0\n  v_add_u32 v[\\d+1], v[\\d], v2\n.endm\n"
                                            ".macro a d\n  b \\d\n  v_mov_b32 v1, v2\n  b \\d+1\n.endm\n"
                                            ".macro c\n  .rept 2\n  b 7\n  .endr\n  s_nop 3\n.endm\n"
                                            ".macro setonly\n  .set q, 1\n.endm\n"
                                            ".macro early x\n  s_nop 4\n  .if \\x\n  .exitm\n  .endif\n  s_nop 5\n.endm\n"
                                            ".macro d x\n  a \\x\n  s_nop 6\n.endm\n")
            + body + QStringLiteral("  s_endpgm\n");
        AssembleOptions options;
        options.gpu = "gfx900";
        const std::string source = text.toStdString();
        const Program read = assemble(source, options);
        fastPaths().inferredExpansions = false;
        const Program asked = assemble(source, options);
        fastPaths().inferredExpansions = true;
        QCOMPARE(asked.expansionsInferred, 0);
        QVERIFY2(read.expansionsInferred >= inferred, qPrintable(QStringLiteral("%1 read").arg(read.expansionsInferred)));
        const QStringList a = describe(read), b = describe(asked);
        QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
        QVERIFY(!read.hasErrors());
    }

    // The statement cache (statementcache.cpp) replays a statement that comes again with the same
    // text and the same values for the symbols it names. Each row has statements that come again
    // with something else changed: a symbol's value, a symbol defined only later, a label, the
    // register counters LLVM keeps (a .if reads them), an error. `expect`: an instruction the
    // listing must hold, so that the row tests what it says.
    void statementCache_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expect");
        QTest::newRow("symbol value changes") << QStringLiteral(".text\nk:\n.set x, 1\n.rept 2\n  v_mov_b32 v0, x\n.endr\n"
                                                                ".set x, 70\n.rept 2\n  v_mov_b32 v0, x\n.endr\n  s_endpgm\n")
                                              << "v_mov_b32_e32 v0, 0x46";
        QTest::newRow("loop counter") << QStringLiteral(
            ".text\nk:\n.set i, 0\n.rept 4\n  v_add_co_u32 v[i], vcc, i*20, v1\n"
            "  .set i, i+1\n.endr\n.set i, 0\n.rept 4\n  v_add_co_u32 v[i], vcc, i*20, v1\n"
            "  .set i, i+1\n.endr\n  s_endpgm\n")
                                      << "v_add_co_u32_e32 v3, vcc, 60, v1";
        QTest::newRow("defined later") << QStringLiteral(".text\nk:\n.rept 2\n  s_mov_b32 s0, later\n.endr\n"
                                                         "later = 0x1234\n.rept 2\n  s_mov_b32 s0, later\n.endr\n  s_endpgm\n")
                                       << "s_mov_b32 s0, 0x1234";
        QTest::newRow("labels") << QStringLiteral(".text\nk:\n.rept 3\n  s_branch k\n  s_branch 1f\n1:\n.endr\n  s_endpgm\n")
                                << "s_branch";
        QTest::newRow("register counters") << QStringLiteral(
            ".text\nk:\n.rept 2\n  v_mov_b32 v9, 0\n.endr\n"
            ".set .amdgcn.next_free_vgpr, 0\n.rept 2\n  v_mov_b32 v9, 0\n.endr\n"
            ".if .amdgcn.next_free_vgpr == 10\n  s_nop 1\n.else\n  s_nop 2\n.endif\n"
            "  s_endpgm\n") << "s_nop 1";
        // A variable whose value is not a constant (a label difference): LLVM keeps it as an
        // expression and then refuses to reassign it; the statement is never replayed, and the
        // error must be the same with the cache.
        QTest::newRow("reassigned after a use") << QStringLiteral(".text\nk:\na: s_nop 0\nb:\n.set x, b - a\n.rept 2\n"
                                                                  "  s_mov_b32 s0, x\n.endr\n.set x, 3\n.rept 2\n"
                                                                  "  s_mov_b32 s0, x\n.endr\n  s_endpgm\n")
                                                << "s_mov_b32 s0, x";
        // A replayed statement's lexer restarts at its line's end: comments after it, one that
        // spans lines (read token by token), and the next statement must come out the same.
        QTest::newRow("comments after replayed statements")
            << QStringLiteral(".text\nk:\n.rept 3\n  s_mov_b32 s0, 1 ; a line comment\n  s_mov_b32 s1, 2 // another\n"
                              "  s_mov_b32 s2, 3 /* a block comment\n that ends here */\n  s_mov_b32 s3, 4 /* one line */\n"
                              "  s_add_u32 s5, s5, 6\n.endr\n  s_mov_b32 s4, 5\n  s_endpgm\n")
            << "s_add_u32 s5, s5, 6";
        QTest::newRow("errors and warnings") << QStringLiteral(".text\nk:\n.rept 3\n  v_mov_b32 v0, v300\n"
                                                               "  v_sqrt_f64 v[4:5], 2.2\n  s_nop 3\n.endr\n  s_endpgm\n")
                                             << "s_nop 3";
    }
    void statementCache()
    {
        QFETCH(QString, text);
        QFETCH(QString, expect);
        AssembleOptions options;
        options.gpu = "gfx900";
        const std::string source = text.toStdString();
        const QStringList replayed = describe(assemble(source, options));
        fastPaths().statementCache = false;
        const QStringList parsed = describe(assemble(source, options));
        fastPaths().statementCache = true;
        QVERIFY2(replayed == parsed, qPrintable(firstDifference(replayed, parsed)));
        QVERIFY2(std::any_of(parsed.begin(), parsed.end(), [&](const QString& line) { return line.contains(expect); }),
                 qPrintable(QStringLiteral("no instruction reads \"%1\":\n%2").arg(expect, parsed.join(QLatin1Char('\n')))));
    }

    // Statements that differ only in their registers are made from the first one's instruction
    // (statementcache.cpp, shapeKeyOf). Each row repeats a statement in a .rept whose counter
    // moves its registers into what the shape must tell apart: alignment, overlap, the constant
    // bus, indices past the register file, the register counters, expressions the shape key
    // reads or leaves to LLVM. `expect`: an instruction the listing must hold.
    void statementShapes_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expect");
        QTest::addColumn<int>("fromShapes"); // at least this many statements made from a shape
        const auto rept = [](const char* body, int count = 6) {
            return QStringLiteral(".text\nk:\n.set i, 0\n.rept %1\n%2\n  .set i, i+1\n.endr\n  s_endpgm\n")
                .arg(count)
                .arg(QLatin1String(body));
        };
        QTest::newRow("registers in brackets")
            << "gfx900" << rept("  v_add_u32 v[i+1], v[i], v[2*i+(3-1)]") << "v_add_u32_e32 v6, v5, v12" << 3;
        QTest::newRow("division and remainder")
            << "gfx900" << rept("  v_mov_b32 v[i/2], v[10+i%2]") << "v_mov_b32_e32 v2, v11" << 2;
        // Whole-operand integer expressions enter the shape as value classes (bit length, low bits).
        QTest::newRow("offsets from expressions")
            << "gfx900" << rept("  ds_read_b32 v[i], v9 offset:1000+i*68") << "ds_read_b32 v5, v9 offset:1340" << 3;
        QTest::newRow("literals from expressions")
            << "gfx900" << rept("  v_mul_f32 v[i], 0x3f800001+i*3, v[i+8]") << "v_mul_f32_e32 v5, 0x3f800010, v13" << 2;
        QTest::newRow("an offset past its field")
            << "gfx900" << rept("  ds_read_b32 v0, v9 offset:65000+i*200", 4) << "ds_read_b32 v0, v9 offset:65400" << 2;
        // Nesting past what the shape key reads: LLVM's parser takes the statement.
        QTest::newRow("deep nesting") << "gfx900"
                                      << rept(qPrintable(QStringLiteral("  v_mov_b32 v[%1i%2], 0")
                                                             .arg(QString(80, QLatin1Char('(')), QString(80, QLatin1Char(')')))),
                                              3)
                                      << "v_mov_b32_e32 v2, 0" << 0;
        QTest::newRow("tuple alignment") << "gfx900" << rept("  s_load_dwordx2 s[i:i+1], s[8:9], 0x10")
                                         << "s_load_dwordx2 s[2:3], s[8:9], 0x10" << 1;
        QTest::newRow("tuple of four") << "gfx900" << rept("  s_load_dwordx4 s[8+i:8+i+3], s[2:3], 0x0", 9)
                                       << "s_load_dwordx4 s[12:15], s[2:3], 0x0" << 2;
        QTest::newRow("gfx90a vgpr tuples") << "gfx90a" << rept("  global_load_dwordx2 v[i:i+1], v[10:11], off")
                                            << "global_load_dwordx2 v[2:3], v[10:11], off" << 1;
        QTest::newRow("overlap") << "gfx900" << rept("  v_mac_f32 v[i], v[7-i], v[2]", 8) << "v_mac_f32_e32 v2, v5, v2" << 4;
        // Two SGPRs may be read only when they are the same register (GFX9's constant bus).
        QTest::newRow("constant bus") << "gfx900"
                                      << QStringLiteral(".text\nk:\n.set a, 2\n  v_add_f32 v0, s[a], s[2]\n.set a, 4\n"
                                                        "  v_add_f32 v0, s[a], s[4]\n.set a, 6\n  v_add_f32 v0, s[a], s[4]\n"
                                                        "  v_add_f32 v0, s[4], s[a]\n  s_endpgm\n")
                                      << "v_add_f32_e64 v0, s4, s4" << 1;
        QTest::newRow("past the register file")
            << "gfx900" << rept("  v_mov_b32 v[252+i], s[98+i]") << "v_mov_b32_e32 v255, s101" << 2;
        QTest::newRow("agprs") << "gfx908" << rept("  v_accvgpr_write_b32 a[i], v[i+1]") << "v_accvgpr_write_b32 a3, v4" << 4;
        QTest::newRow("plain and bracketed")
            << "gfx900" << rept("  v_mov_b32 v[i], v7\n  v_mov_b32 v7, v[i]") << "v_mov_b32_e32 v7, v5" << 8;
        QTest::newRow("register counters")
            << "gfx900"
            << QStringLiteral(".text\nk:\n.set i, 0\n.rept 3\n  v_mov_b32 v[i+10], s[i]\n  .set i, i+1\n.endr\n"
                              ".if .amdgcn.next_free_vgpr == 13 && .amdgcn.next_free_sgpr == 3\n  s_nop 1\n.else\n  s_nop 2\n"
                              ".endif\n  s_endpgm\n")
            << "s_nop 1" << 1;
        QTest::newRow("a label in the brackets")
            << "gfx900" << QStringLiteral(".text\nk:\n.rept 2\n  v_mov_b32 v[1f-k], 0\n1:\n.endr\n  s_endpgm\n") << "s_endpgm"
            << 0;
        QTest::newRow("a symbol that is no constant")
            << "gfx900"
            << QStringLiteral(".text\nk:\na: s_nop 0\nb:\n.set x, b - a\n.rept 3\n  v_mov_b32 v[x], 0\n"
                              "  v_mov_b32 v[x+1], 0\n.endr\n  s_endpgm\n")
            << "s_nop 0" << 0;
        // The first offset moves with i, so each of its statements has a shape of its own; the second does not.
        QTest::newRow("names beside registers")
            << "gfx900" << rept("  ds_read_b32 v[i], v9 offset:i*4+off\n  ds_write_b32 v9, v[i] offset:off+8", 4)
            << "ds_read_b32 v3, v9 offset:12" << 2;
    }
    void statementShapes()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, text);
        QFETCH(QString, expect);
        QFETCH(int, fromShapes);
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        options.defsyms.emplace_back("off", 0);
        const std::string source = text.toStdString();
        const Program withShapes = assemble(source, options);
        const QStringList shaped = describe(withShapes);
        fastPaths().statementShapes = false;
        const Program without = assemble(source, options);
        const QStringList parsed = describe(without);
        fastPaths().statementShapes = true;
        QCOMPARE(without.statementsFromShapes, 0);
        QVERIFY2(withShapes.statementsFromShapes >= fromShapes,
                 qPrintable(QStringLiteral("%1 statements from shapes").arg(withShapes.statementsFromShapes)));
        QVERIFY2(shaped == parsed, qPrintable(firstDifference(shaped, parsed)));
        QVERIFY2(std::any_of(parsed.begin(), parsed.end(), [&](const QString& line) { return line.contains(expect); }),
                 qPrintable(QStringLiteral("no instruction reads \"%1\":\n%2").arg(expect, parsed.join(QLatin1Char('\n')))));
    }

    // A shape's printed text with holes (printedshape_p.h): what it learns from one line, what it
    // writes, and when it must leave a line to the printer.
    void printedShapeLearnsHoles()
    {
        using detail::PrintedShape;
        const auto names = [](std::initializer_list<std::string_view> list) { return std::vector<std::string_view>(list); };
        PrintedShape shape;
        const std::vector<std::uint64_t> learntValues {0x3fb36d20};
        shape.learn(InternedString("v_mul_f32_e32"), "v62, 0x3fb36d20, v61", names({"v62", "v61"}), learntValues);
        QCOMPARE(shape.state(), PrintedShape::State::Learnt);
        std::string text;
        // The learnt line itself, and nothing else, until a line proves the holes it changes.
        QVERIFY(shape.covers(names({"v62", "v61"}), learntValues));
        const std::vector<std::uint64_t> otherValues {0x1457c};
        QVERIFY(!shape.covers(names({"v3", "v61"}), learntValues));
        shape.write(text, names({"v3", "v[8:9]"}), otherValues);
        QCOMPARE(text, std::string("v3, 0x1457c, v[8:9]"));
        // A line that changed the first register and the value, printed as written: those holes
        // are proven, the last is not.
        shape.write(text, names({"v3", "v61"}), otherValues);
        shape.check(text, InternedString("v_mul_f32_e32"), "v3, 0x1457c, v61", names({"v3", "v61"}), otherValues);
        QCOMPARE(shape.state(), PrintedShape::State::Learnt);
        QVERIFY(shape.covers(names({"v7", "v61"}), {std::vector<std::uint64_t> {0x999}}));
        QVERIFY(!shape.covers(names({"v7", "v60"}), {std::vector<std::uint64_t> {0x999}}));
        // One difference refuses the shape.
        shape.write(text, names({"v7", "v60"}), otherValues);
        shape.check(text, InternedString("v_mul_f32_e32"), "v7, 0x1457c, v60 clamp", names({"v7", "v60"}), otherValues);
        QCOMPARE(shape.state(), PrintedShape::State::Refused);
        QVERIFY(!shape.covers(names({"v62", "v61"}), learntValues));

        // Decimal values and one register named twice (the shape key makes them equal in every line).
        PrintedShape decimal;
        decimal.learn(InternedString("ds_read_b32"), "v36, v36 offset:59870", names({"v36", "v36"}),
                      std::vector<std::uint64_t> {59870});
        QCOMPARE(decimal.state(), PrintedShape::State::Learnt);
        decimal.write(text, names({"v5", "v5"}), std::vector<std::uint64_t> {1000});
        QCOMPARE(text, std::string("v5, v5 offset:1000"));
    }
    void printedShapeRefusesWhatItCannotRead_data()
    {
        QTest::addColumn<QString>("printed");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<qulonglong>("value");
        QTest::newRow("value twice") << QStringLiteral("v1, 0x64, 0x64") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("value in two spellings")
            << QStringLiteral("v1, 0x64 offset:100") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("value printed otherwise") << QStringLiteral("v1, -100") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("value inside a word") << QStringLiteral("v1, 0x640") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("register inside a word") << QStringLiteral("v1.l, 0x64") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("register also inside a word")
            << QStringLiteral("v1, v1.l, 0x64") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("register not printed") << QStringLiteral("v[0:1], 0x64") << QStringList {QStringLiteral("v1")} << 100ull;
        QTest::newRow("register in a value") << QStringLiteral("v1, 0xa1") << QStringList {QStringLiteral("a1")} << 161ull;
    }
    void printedShapeRefusesWhatItCannotRead()
    {
        QFETCH(QString, printed);
        QFETCH(QStringList, names);
        QFETCH(qulonglong, value);
        std::vector<std::string> nameText;
        for (const QString& name : names)
            nameText.push_back(name.toStdString());
        const std::vector<std::string_view> nameViews(nameText.begin(), nameText.end());
        detail::PrintedShape shape;
        shape.learn(InternedString("x"), printed.toStdString(), nameViews, std::vector<std::uint64_t> {value});
        QCOMPARE(shape.state(), detail::PrintedShape::State::Refused);
    }
    void registerNamesAsPrinted()
    {
        std::string name;
        detail::appendRegisterName(name, RegKind::VGPR, 7, 1);
        name += ' ';
        detail::appendRegisterName(name, RegKind::SGPR, 8, 4);
        name += ' ';
        detail::appendRegisterName(name, RegKind::AGPR, 254, 2);
        QCOMPARE(name, std::string("v7 s[8:11] a[254:255]"));
    }

    void expansionFastPaths()
    {
        QFETCH(QString, text);
        QFETCH(QString, gpu);
        QFETCH(int, minimum);
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        const std::string source = text.toStdString();
        const Program fast = assemble(source, options);
        const auto fromExpansion = std::count_if(fast.instructions.begin(), fast.instructions.end(),
                                                 [](const Instruction& i) { return i.fromExpansion; });
        QVERIFY2(fromExpansion >= minimum, qPrintable(QStringLiteral("only %1 instructions from expansions").arg(fromExpansion)));
        const QStringList a = describe(fast);
        for (bool FastPaths::* path : {&FastPaths::expansionPerBuffer, &FastPaths::bufferIndex, &FastPaths::statementCache,
                                       &FastPaths::statementShapes, &FastPaths::inferredExpansions, &FastPaths::printedShapes}) {
            fastPaths().*path = false;
            const Program plain = assemble(source, options);
            fastPaths().*path = true;
            const QStringList b = describe(plain);
            QVERIFY2(a == b, qPrintable(firstDifference(a, b)));
        }
    }
};

QTEST_GUILESS_MAIN(TestShapes)
#include "tst_shapes.moc"
