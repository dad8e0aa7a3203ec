// SPDX-License-Identifier: MIT
// Our KSyntaxHighlighting definition (resources/syntax/gcn-asm.xml): found by the Repository under
// the syntax-addons resource prefix, and each token class gets the style issue #5 assigns it.
#include "ui/editor/syntax.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>

#include <QTest>

using namespace gcnlens::ui;
using KSyntaxHighlighting::Theme;

// Records the format applied at each character of one line.
class Recorder : public KSyntaxHighlighting::AbstractHighlighter {
public:
    std::vector<Theme::TextStyle> styles;
    void highlight(const QString& line)
    {
        styles.assign(size_t(line.size()), Theme::Normal);
        highlightLine(line, KSyntaxHighlighting::State());
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format& format) override
    {
        for (int i = offset; i < offset + length && i < int(styles.size()); ++i)
            styles[size_t(i)] = format.textStyle();
    }
};

// Rows of tokens_data and clrxTokens_data: a line, a token in it and the style it must get.
static void tokenColumns()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("style");
}
static void tokenRow(const char* name, const char* line, const char* token, Theme::TextStyle style)
{
    QTest::addRow("%s", name) << QString::fromUtf8(line) << QString::fromUtf8(token) << int(style);
}

class TestGcnSyntax : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void definition()
    {
        const auto definition = gcnDefinition();
        QVERIFY(definition.isValid());
        QCOMPARE(definition.name(), QStringLiteral("GCN Assembly"));
        QCOMPARE(&syntaxRepository(), &syntaxRepository()); // one long-lived repository
        QVERIFY(clrxDefinition().isValid());
        QCOMPARE(clrxDefinition().name(), QStringLiteral("GCN Assembly (CLRX)"));
    }

    void tokens_data()
    {
        tokenColumns();
        const auto row = tokenRow;
        // Mnemonics by unit (the itemDatas of gcn-asm.xml).
        row("VALU", "    v_add_f32 v4, 0x40490fdb, v4", "v_add_f32", Theme::Function);
        row("SALU", "    s_mov_b32 s10, 0", "s_mov_b32", Theme::Keyword);
        row("SMEM", "    s_load_dword s8, s[0:1], 0x4", "s_load_dword", Theme::Import);
        row("SMEM buffer", "    s_buffer_load_dwordx2 s[0:1], s[4:7], 0x10", "s_buffer_load_dwordx2", Theme::Import);
        row("LDS", "    ds_read_b32 v6, v5", "ds_read_b32", Theme::Extension);
        row("GDS", "    ds_gws_init v0 offset:0 gds", "ds_gws_init", Theme::Extension);
        row("MUBUF", "    buffer_store_dword v4, v1, s[4:7], 0 offen glc", "buffer_store_dword", Theme::DataType);
        row("MTBUF", "    tbuffer_load_format_x v0, v1, s[0:3], 0 idxen", "tbuffer_load_format_x", Theme::DataType);
        row("FLAT", "    flat_load_dword v0, v[2:3]", "flat_load_dword", Theme::DataType);
        row("GLOBAL", "    global_store_dword v[0:1], v2, off", "global_store_dword", Theme::DataType);
        row("MIMG", "    image_sample v[0:3], v[4:5], s[8:15], s[16:19] dmask:0xf", "image_sample", Theme::DataType);
        row("export", "    exp mrt0 v0, v1, v2, v3 done vm", "exp", Theme::Annotation);
        row("branch", "    s_cbranch_scc1 loop", "s_cbranch_scc1", Theme::ControlFlow);
        row("jump", "    s_branch end", "s_branch", Theme::ControlFlow);
        row("endpgm", "    s_endpgm", "s_endpgm", Theme::ControlFlow);
        row("waitcnt", "    s_waitcnt lgkmcnt(0)", "s_waitcnt", Theme::ControlFlow);
        // Registers.
        row("sgpr", "    s_mov_b32 s10, 0", "s10", Theme::Variable);
        row("vgpr range", "    flat_load_dword v0, v[2:3]", "v[2:3]", Theme::Variable);
        row("sgpr range", "    s_load_dword s8, s[0:1], 0x4", "s[0:1]", Theme::Variable);
        row("ttmp", "    s_mov_b32 ttmp5, 0", "ttmp5", Theme::Variable);
        row("vcc", "    v_cmp_gt_f32 vcc, v9, v10", "vcc", Theme::BuiltIn);
        row("exec", "    s_mov_b64 exec, s[2:3]", "exec", Theme::BuiltIn);
        row("m0", "    s_mov_b32 m0, -1", "m0", Theme::BuiltIn);
        row("flat_scratch", "    s_mov_b32 flat_scratch_lo, s4", "flat_scratch_lo", Theme::BuiltIn);
        // Constants: inline (-16..64, ±0.5/1/2/4) vs literals.
        row("inline int", "    s_mov_b32 s10, 64", "64", Theme::Constant);
        row("inline negative", "    s_mov_b32 s10, -16", "-16", Theme::Constant);
        row("inline float", "    v_mul_f32 v0, 0.5, v1", "0.5", Theme::Constant);
        row("literal int", "    s_mov_b32 s10, 65", "65", Theme::DecVal);
        row("literal hex", "    s_add_u32 s11, s9, 0x1000", "0x1000", Theme::DecVal);
        row("literal float", "    v_mul_f32 v0, 0.1, v1", "0.1", Theme::DecVal);
        // Modifiers.
        row("offen", "    buffer_store_dword v4, v1, s[4:7], 0 offen glc", "offen", Theme::Attribute);
        row("glc", "    buffer_store_dword v4, v1, s[4:7], 0 offen glc", "glc", Theme::Attribute);
        row("abs", "    v_mul_f32_e64 v0, abs(v1), neg(v2)", "abs", Theme::Attribute);
        row("neg", "    v_mul_f32_e64 v0, abs(v1), neg(v2)", "neg", Theme::Attribute);
        row("mul", "    v_mac_f32_e64 v0, v1, v2 mul:2", "mul", Theme::Attribute);
        row("clamp", "    v_add_f32_e64 v0, v1, v2 clamp", "clamp", Theme::Attribute);
        row("sdwa sel", "    v_mov_b32_sdwa v1, v2 dst_sel:BYTE_0", "BYTE_0", Theme::Attribute);
        row("dpp", "    v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf", "quad_perm", Theme::Attribute);
        // Labels, directives, comments in LLVM and CLRX style.
        row("label", "loop:", "loop", Theme::Others);
        row("directive", ".p2align 8", ".p2align", Theme::Preprocessor);
        row("// comment", "    s_nop 0 // wait", "// wait", Theme::Comment);
        row("; comment", "    s_nop 0 ; wait", "; wait", Theme::Comment);
        row("# comment", "# CLRX style", "# CLRX style", Theme::Comment);
        // CLRX forms (issue #13).
        row("clrx register symbol", "x = %v[4:7]", "%v[4:7]", Theme::Variable);
        row("clrx lit", "    s_add_u32 s1, s2, lit(4)", "lit", Theme::Attribute);
        row("clrx vop3", "    v_add_f32 v1, v2, v3 vop3", "vop3", Theme::Attribute);
        row("clrx abs mask", "    v_add_f32 v1, v2, v3 abs:3", "abs", Theme::Attribute);
        row("clrx half literal", "    v_add_f16 v1, 1.5h, v3", "1.5h", Theme::DecVal);
    }
    void tokens() { check(gcnDefinition()); }

    // The CLRX definition (gcn-asm-clrx.xml): ';' separates statements, what follows is coloured
    // as a statement; the same line under the LLVM definition is a comment after ';'.
    void clrxTokens_data()
    {
        tokenColumns();
        const auto row = tokenRow;
        row("; is a separator", "    s_nop 0; v_add_f32 v1, v2, v3", ";", Theme::Operator);
        row("VALU after ;", "    s_nop 0; v_add_f32 v1, v2, v3", "v_add_f32", Theme::Function);
        row("register after ;", "    s_mov_b32 s1, 0; s_mov_b32 s2, 65", "s2", Theme::Variable);
        row("literal after ;", "    s_mov_b32 s1, 0; s_mov_b32 s2, 65", "65", Theme::DecVal);
        row("branch after ;", "    s_nop 0 ;s_endpgm", "s_endpgm", Theme::ControlFlow);
        row("label after ;", "a: s_nop 0; next: s_nop 1", "next", Theme::Others);
        row("directive after ;", ".kernel k; .config", ".config", Theme::Preprocessor);
        row("assignment after ;", "x = 5; s_mov_b32 s0, x", "s_mov_b32", Theme::Keyword);
        row("# comment", "    s_nop 0 # wait; s_endpgm", "# wait; s_endpgm", Theme::Comment);
        row("# comment line", "# CLRX style", "# CLRX style", Theme::Comment);
        row("block comment", "    s_nop 0 /* c; d */ ; s_endpgm", "/* c; d */", Theme::Comment);
        row("after a block comment", "    s_nop 0 /* c; d */ ; s_endpgm", "s_endpgm", Theme::ControlFlow);
        row("register symbol", "dd = %v21; v_mov_b32 dd, 0", "%v21", Theme::Variable);
        row("first statement", "    v_mad_f32 v0, v1, v2, v3 mul:2; s_nop 0", "mul", Theme::Attribute);
    }
    void clrxTokens() { check(clrxDefinition()); }

    // The difference between the two: after ';' the LLVM definition colours a comment.
    void semicolonByDialect()
    {
        const QString line = QStringLiteral("    s_nop 0; v_add_f32 v1, v2, v3");
        const int at = int(line.indexOf(QStringLiteral("v_add_f32")));
        for (const bool clrx : {false, true}) {
            Recorder recorder;
            recorder.setDefinition(clrx ? clrxDefinition() : gcnDefinition());
            recorder.setTheme(syntaxRepository().defaultTheme());
            recorder.highlight(line);
            QCOMPARE(int(recorder.styles[size_t(at)]), int(clrx ? Theme::Function : Theme::Comment));
        }
    }

private:
    void check(const KSyntaxHighlighting::Definition& definition)
    {
        QFETCH(QString, line);
        QFETCH(QString, token);
        QFETCH(int, style);
        Recorder recorder;
        recorder.setDefinition(definition);
        recorder.setTheme(syntaxRepository().defaultTheme());
        recorder.highlight(line);
        const int at = int(line.indexOf(token));
        QVERIFY2(at >= 0, "token not in line");
        for (int i = at; i < at + token.size(); ++i)
            QCOMPARE(int(recorder.styles[size_t(i)]), style);
    }
};

QTEST_GUILESS_MAIN(TestGcnSyntax)
#include "tst_gcnsyntax.moc"
