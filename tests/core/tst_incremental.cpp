// SPDX-License-Identifier: MIT
// FrontEnd's incremental path (issue #2 section 6) must give what a fresh assemble() gives:
// every one-line edit of real kernels is replayed both ways and the programs compared.
#include "core/asm/assembler.h"
#include "describeprogram.h"
#include "linechange.h"
#include "lineedits.h"
#include "testutils.h"

#include <QFile>
#include <QTest>

#include <algorithm>

using namespace gcnlens;
using gcnlens::test::describe;

namespace {

} // namespace

class TestIncremental : public QObject {
    Q_OBJECT
    static void addKernels()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpu");
        QTest::addRow("saxpy") << gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s") << "tahiti";
        QTest::addRow("macros") << gcnlens::test::testData("data/incremental-macros.s") << "gfx900";
    }

    // A fixed pseudo-random walk of texts from `text` (reproducible): type a new instruction
    // character by character somewhere, press Enter in the middle of lines, delete characters
    // and whole lines, paste lines.
    static std::vector<std::string> typingWalk(std::string text)
    {
        std::vector<std::string> walk;
        std::uint32_t seed = 12345;
        const auto next = [&](std::uint32_t bound) {
            seed = seed * 1664525u + 1013904223u;
            return (seed >> 8) % bound;
        };
        const std::string typed = "v_mad_f32 v40, v1, s3, 0x1234\ns_add_u32 s7, s7, 4\n";
        for (int round = 0; round < 24; ++round) {
            std::size_t at = next(std::uint32_t(text.size()));
            at = text.rfind('\n', at == 0 ? 0 : at - 1);
            at = at == std::string::npos ? 0 : at + 1; // a line start
            std::vector<std::string> states;
            switch (round % 4) {
            case 0: // typing a line
                for (std::size_t n = 1; n < typed.size(); n += 3)
                    states.push_back(text.substr(0, at) + typed.substr(0, n) + text.substr(at));
                states.push_back(text.substr(0, at) + typed + text.substr(at));
                break;
            case 1: { // Enter inside a line, then undo it
                const std::size_t end = text.find('\n', at);
                const std::size_t mid = at + (end == std::string::npos ? text.size() - at : end - at) / 2;
                states.push_back(text.substr(0, mid) + "\n" + text.substr(mid));
                states.push_back(text);
                break;
            }
            case 2: { // backspace over a line, character by character
                const std::size_t end = std::min(text.find('\n', at), text.size());
                for (std::size_t n = end; n > at; n -= std::min<std::size_t>(4, n - at))
                    states.push_back(text.substr(0, n) + text.substr(end));
                states.push_back(text.substr(0, at) + text.substr(std::min(end + 1, text.size())));
                break;
            }
            case 3: // paste three lines
                states.push_back(text.substr(0, at) + "s_nop 0\nv_mov_b32 v2, 1.0\nv_add_f32 v3, v2, v2\n" + text.substr(at));
                break;
            }
            walk.insert(walk.end(), states.begin(), states.end());
            text = states.back();
        }
        return walk;
    }

    // A placeholder may keep its pre-edit size on the incremental path (program.h).
    static bool keptSize(const Program& program)
    {
        for (const auto& i : program.instructions)
            if (i.placeholder && i.operands.find("before this edit") != std::string::npos)
                return true;
        return false;
    }

    // Both incremental paths, FrontEnd::analyze of the edited text and FrontEnd::edit of the edit
    // as lines (the editor's), must give `fresh` after analysing `before`.
    static void compareBothPaths(const std::string& before, const std::string& after, const AssembleOptions& options,
                                 const QStringList& fresh)
    {
        FrontEnd byText, byLines;
        byText.analyze(before, options);
        QCOMPARE(describe(byText.analyze(after, options)), fresh);
        byLines.analyze(before, options);
        const Program* edited = byLines.edit(test::lineChange(before, after), options);
        QVERIFY(edited);
        QCOMPARE(describe(*edited), fresh);
    }

private Q_SLOTS:
    void everyLineEdit_data() { addKernels(); }
    void everyLineEdit()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpu);
        const QString text = gcnlens::test::readFile(file);
        QVERIFY2(!text.isEmpty(), qPrintable(file));
        const QStringList lines = text.split(QLatin1Char('\n'));
        AssembleOptions options;
        options.gpu = gpu.toStdString();

        // Edits per line: delete it, duplicate it, replace it with a different-size instruction,
        // with garbage, and with a blank line.
        const QStringList replacements = {QStringLiteral("    v_add_f32 v1, 0x12345678, v1"), QStringLiteral("    s_nop 0"),
                                          QStringLiteral("    qwerty v1"), QString()};
        int edits = 0;
        for (int l = 0; l < lines.size(); ++l) {
            const QList<QStringList> variants = gcnlens::test::lineEdits(lines, l, replacements);
            for (const auto& variant : variants) {
                FrontEnd frontEnd;
                const std::string before = text.toStdString();
                frontEnd.analyze(before, options);
                const std::string after = variant.join(QLatin1Char('\n')).toStdString();
                const Program incremental = frontEnd.analyze(after, options);
                const Program fresh = assemble(after, options);
                // A placeholder may keep its pre-edit size on the incremental path (by design).
                bool placeholder = false;
                for (const auto& i : incremental.instructions)
                    placeholder = placeholder || i.placeholder;
                if (placeholder)
                    continue;
                const QStringList a = describe(incremental), b = describe(fresh);
                if (a != b) {
                    for (int i = 0; i < std::max(a.size(), b.size()); ++i)
                        if (a.value(i) != b.value(i)) {
                            qWarning().noquote() << "edit of line" << l + 1 << "first difference:\n incremental:" << a.value(i)
                                                 << "\n fresh:      " << b.value(i) << "\n--- edited text:\n"
                                                 << QString::fromStdString(after) << "\n--- incremental:\n"
                                                 << a.join(QLatin1Char('\n')) << "\n--- fresh:\n"
                                                 << b.join(QLatin1Char('\n'));
                            break;
                        }
                }
                QCOMPARE(a, b);
                ++edits;
            }
        }
        QVERIFY(edits > lines.size());
    }

    // One FrontEnd through a whole editing session: the state it keeps between edits (line scan,
    // register counts, line index) must stay right over many successive edits, not just one.
    // Each text reaches it whole (analyze(), which diffs the texts) or as the line edit from the
    // one before (edit(), the editor's path since issue #11 item 6; its text must follow).
    void typingSession_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("byEdits");
        for (const bool byEdits : {false, true}) {
            const char* how = byEdits ? "line edits" : "whole texts";
            QTest::addRow("saxpy, %s", how) << gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s") << "tahiti"
                                            << byEdits;
            QTest::addRow("macros, %s", how) << gcnlens::test::testData("data/incremental-macros.s") << "gfx900" << byEdits;
        }
    }
    void typingSession()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpu);
        QFETCH(bool, byEdits);
        std::string text = gcnlens::test::readFile(file).toStdString();
        QVERIFY2(!text.empty(), qPrintable(file));
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        FrontEnd frontEnd;
        QVERIFY(!frontEnd.edit(gcnlens::test::lineChange("", "s_nop 0"), options)); // no text to edit yet
        frontEnd.analyze(text, options);
        int steps = 0;
        for (const auto& state : typingWalk(text)) {
            const Program* edited =
                byEdits ? frontEnd.edit(gcnlens::test::lineChange(frontEnd.source(), state), options) : nullptr;
            QVERIFY(edited || !byEdits);
            const Program incremental = byEdits ? *edited : frontEnd.analyze(state, options);
            QCOMPARE(frontEnd.source(), state);
            // A placeholder may keep its pre-edit size (program.h); a fresh run assumes 4 bytes.
            if (!keptSize(incremental)) {
                const QStringList a = describe(incremental), b = describe(assemble(state, options));
                if (a != b)
                    qWarning().noquote() << "text:\n" << QString::fromStdString(state);
                QCOMPARE(a, b);
                ++steps;
            }
        }
        QVERIFY(steps > 40);
    }

    // Edits at the ends of the text, of several lines, and ones that do not fit the text.
    void lineEdits_data()
    {
        QTest::addColumn<int>("first");
        QTest::addColumn<int>("oldCount");
        QTest::addColumn<QString>("text"); // "\u0000": no lines
        QTest::addColumn<int>("linesAfter");
        QTest::addColumn<QString>("expected"); // empty: the edit is refused
        const QString k = QStringLiteral("s_mov_b32 s0, 1\ns_nop 0\nv_mov_b32 v0, v1\ns_endpgm");
        const QString none(QChar(0));
        QTest::addRow("replace a line") << 1 << 1 << "s_nop 3" << 4 << "s_mov_b32 s0, 1\ns_nop 3\nv_mov_b32 v0, v1\ns_endpgm";
        QTest::addRow("insert first") << 0 << 0 << "s_nop 1" << 5 << QString(QStringLiteral("s_nop 1\n") + k);
        QTest::addRow("insert after the last") << 4 << 0 << "s_nop 1" << 5 << QString(k + QStringLiteral("\ns_nop 1"));
        QTest::addRow("remove the first") << 0 << 1 << none << 3 << "s_nop 0\nv_mov_b32 v0, v1\ns_endpgm";
        QTest::addRow("remove the last two") << 2 << 2 << none << 2 << "s_mov_b32 s0, 1\ns_nop 0";
        QTest::addRow("two lines become three") << 1 << 2 << "s_nop 1\ns_nop 2\nv_add_f32 v0, v1, v2" << 5
                                                << "s_mov_b32 s0, 1\ns_nop 1\ns_nop 2\nv_add_f32 v0, v1, v2\ns_endpgm";
        QTest::addRow("a new label") << 3 << 0 << "loop:" << 5 << "s_mov_b32 s0, 1\ns_nop 0\nv_mov_b32 v0, v1\nloop:\ns_endpgm";
        QTest::addRow("past the end") << 3 << 2 << "s_nop 1" << 0 << QString();
        QTest::addRow("wrong line count after") << 1 << 1 << "s_nop 1" << 7 << QString();
        QTest::addRow("count and text disagree") << 1 << 1 << none << 3 << QString();
        QTest::addRow("every line removed") << 0 << 4 << none << 0 << QString();
    }
    void lineEdits()
    {
        QFETCH(int, first);
        QFETCH(int, oldCount);
        QFETCH(QString, text);
        QFETCH(int, linesAfter);
        QFETCH(QString, expected);
        const std::string before = "s_mov_b32 s0, 1\ns_nop 0\nv_mov_b32 v0, v1\ns_endpgm";
        AssembleOptions options;
        FrontEnd frontEnd;
        frontEnd.analyze(before, options);
        LineChange change;
        change.first = first;
        change.oldCount = oldCount;
        const bool noLines = text == QString(QChar(0));
        change.text = noLines ? std::string() : text.toStdString();
        change.newCount = noLines ? 0 : int(text.count(QLatin1Char('\n'))) + 1;
        if (QByteArray(QTest::currentDataTag()) == "count and text disagree")
            change.newCount = 1, change.text = "a\nb";
        change.linesAfter = linesAfter;
        const Program* program = frontEnd.edit(change, options);
        if (expected.isEmpty()) {
            QVERIFY(!program);
            QCOMPARE(frontEnd.source(), before); // unchanged
            return;
        }
        QVERIFY(program);
        QCOMPARE(QString::fromStdString(frontEnd.source()), expected);
        QCOMPARE(describe(*program), describe(assemble(expected.toStdString(), options)));
    }
    // LLVM reads a string or a /* */ comment across line ends, so an edit that opens or closes one,
    // or lands inside one, changes the lines after it: the incremental path must see that (issue #12:
    // fuzz_frontend found a stray '"' typed into an instruction leaving the later lines spliced).
    void editsAcrossLines_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        const QString kernel = QStringLiteral("s_mov_b32 s0, 1\ns_nop 0\ns_mov_b32 s1, 2\nv_mov_b32 v0, v1\ns_endpgm\n");
        auto edited = [&kernel](int line, const QString& to) {
            QStringList lines = kernel.split(QLatin1Char('\n'));
            lines[line] = to;
            return lines.join(QLatin1Char('\n'));
        };
        QTest::addRow("quote opened") << kernel << edited(1, QStringLiteral("s_\"nop 0"));
        QTest::addRow("comment opened") << kernel << edited(1, QStringLiteral("s_nop 0 /* half a comment"));
        QTest::addRow("edit inside a string")
            << edited(1, QStringLiteral("s_\"nop 0"))
            << edited(1, QStringLiteral("s_\"nop 0")).replace(QStringLiteral("v1"), QStringLiteral("v2"));
        QTest::addRow("quote closed") << edited(1, QStringLiteral("s_\"nop 0")) << kernel;
        QTest::addRow("escaped quote stays open") << kernel << edited(1, QStringLiteral("s_nop \"0\\\""));
        // Control characters (a vertical tab, a NUL from a UTF-16 file) are read differently by LLVM's
        // lexer and the line scan: such lines take the full run (issue #12, fuzz_frontend).
        QTest::addRow("vertical tab typed") << kernel << edited(3, QStringLiteral("\v       v_mov_b32 v0, v1"));
        QTest::addRow("NUL in the edited line")
            << edited(2, QStringLiteral("\v") + QChar(0) + QStringLiteral("s_mov_b32 s1, 2"))
            << edited(2, QStringLiteral("\v") + QChar(0) + QStringLiteral("s_mov_b32 s1, 2.done"));
        // LLVM parses the inside of .amdhsa_kernel (and the other descriptor and metadata blocks) on
        // its own terms, to the block's end: lines in one take the full run (issue #12, fuzz_frontend).
        const QString block =
            QStringLiteral("s_nop 0\n.amdhsa_kernel k\n  ds_wri_store_dword v5, v1, s[4:7], 0 offen glc\n  s_endpgm\n");
        QTest::addRow("unclosed .amdhsa_kernel")
            << block << QString(block).replace(QStringLiteral("glc\n  s_endpgm\n"), QStringLiteral("g\n"));
        QTest::addRow("edit in .amdhsa_kernel")
            << block << QString(block).replace(QStringLiteral("s_endpgm"), QStringLiteral("s_nop 1"));
        QTest::addRow("comment closer removed")
            << edited(1, QStringLiteral("/* s_nop 0")).replace(QStringLiteral("v1\n"), QStringLiteral("v1 */\n"))
            << edited(1, QStringLiteral("/* s_nop 0"));
        // The readable forms of fuzz_frontend's findings in fuzzFindings below (issue #12).
        // A character literal at a line's end eats its newline and a blank line's: the comment
        // line's removal brings "foo" where LLVM skips it (c763633d).
        QTest::addRow("quote reaches two lines") << QStringLiteral("s_nop 0\nv_mov v0 x'\n\n// c\nfoo v0\ns_endpgm\n")
                                                 << QStringLiteral("s_nop 0\nv_mov v0 x'\n\nfoo v0\ns_endpgm\n");
        // DEL, which LLVM's lexer refuses, is silent after an error on the line before (b98103b3).
        QTest::addRow("DEL after a fixed error")
            << QStringLiteral("s_nop 0\nth\n\x7f x\ns_endpgm\n") << QStringLiteral("s_nop 0\ns_nop 1\n\x7f x\ns_endpgm\n");
        // A line in a code object v2 metadata block, which the source map blanks (0f58f641).
        const QString v2 = QStringLiteral("s_nop 0\n.amd_amdgpu_hsa_metadata\nKernels:\n  - Name hello\n"
                                          ".end_amd_amdgpu_hsa_metadata\ns_endpgm\n");
        QTest::addRow("edit in v2 metadata")
            << v2 << QString(v2).replace(QStringLiteral("Name hello"), QStringLiteral("Name hi"));
        // The instruction ahead of the first label goes: the label becomes the kernel (1229bf61).
        QTest::addRow("label becomes the kernel")
            << QStringLiteral("s_nop 0\nx:\ns_nop 1\ns_endpgm\n") << QStringLiteral("\nx:\ns_nop 1\ns_endpgm\n");
        // A label at the end of kernel a, where b begins once s_endpgm goes (25be84ca).
        QTest::addRow("label where the next kernel begins")
            << QStringLiteral(".type a,@function\na:\ns_nop 0\ndone:\ns_endpgm\n.type b,@function\nb:\ns_nop 1\n")
            << QStringLiteral(".type a,@function\na:\ns_nop 0\ndone:\n\n.type b,@function\nb:\ns_nop 1\n");
        // An undefined "1f": LLVM reports it at the end of the text, after the lines below it (7f6147aa).
        QTest::addRow("undefined 1f, edit after it") << QStringLiteral("s_nop 0\ns_branch 1f\ns_nop 1\ns_endpgm\n")
                                                     << QStringLiteral("s_nop 0\ns_branch 1f\ns_nop 1\ns_nop 2\ns_endpgm\n");
        // A failed line with an undefined "1f": its error at the end of the text gets no second
        // placeholder, whichever line failed last (94288133, de542d01).
        QTest::addRow("undefined 1f on a failed line, edit below it")
            << QStringLiteral("s_bad v0, 1f\ns_nop 2\ns_endpgm\n") << QStringLiteral("s_bad v0, 1f\ns_nop 2\ns_w. 2\ns_endpgm\n");
        // LLVM stops at .end: the lines after it make nothing, which the full run witnesses (e5900aaa).
        QTest::addRow("after .end") << QStringLiteral("s_nop 0\n.end\ns_nop 1\n") << QStringLiteral("s_nop 0\n.end\ns_nop 2\n");
        // A line added at the end of a block left open (ff220144).
        QTest::addRow("line after an open block") << QStringLiteral("s_nop 0\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1")
                                                  << QStringLiteral("s_nop 0\n.amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n");
        QTest::addRow("line after an open .rept")
            << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1") << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\ns_nop 2");
        // An edit in the body of a .rept written as LLVM also reads it (1f32622f).
        QTest::addRow("in a .rep+ body") << QStringLiteral("s_nop 0\n.rep+ 2\ns_nop 1\n.endr\ns_endpgm\n")
                                         << QStringLiteral("s_nop 0\n.rep+ 2\ns_nop 2\n.endr\ns_endpgm\n");
        QTest::addRow("in a labelled .rept body") << QStringLiteral("s_nop 0\nx: .rept 2\ns_nop 1\n.endr\ns_endpgm\n")
                                                  << QStringLiteral("s_nop 0\nx: .rept 2\ns_nop 2\n.endr\ns_endpgm\n");
        // LLVM's body scan ends a body only at ".endr"/".endm" in lower case, at a statement's
        // start: after ".ENDR" or "x: .endr" the body runs to the end of the text.
        QTest::addRow("after .ENDR") << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\n.ENDR\ns_nop 2\ns_endpgm\n")
                                     << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\n.ENDR\ns_nop 3\ns_endpgm\n");
        QTest::addRow("after x: .endr") << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\nx: .endr\ns_nop 2\ns_endpgm\n")
                                        << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\nx: .endr\ns_nop 3\ns_endpgm\n");
        QTest::addRow("after .ENDM") << QStringLiteral("s_nop 0\n.macro m\ns_nop 1\n.ENDM\ns_nop 2\ns_endpgm\n")
                                     << QStringLiteral("s_nop 0\n.macro m\ns_nop 1\n.ENDM\ns_nop 3\ns_endpgm\n");
        QTest::addRow("after .endm?") << QStringLiteral("s_nop 0\n.macro m\ns_nop 1\n.endm?\ns_nop 2\ns_endpgm\n")
                                      << QStringLiteral("s_nop 0\n.macro m\ns_nop 1\n.endm?\ns_nop 3\ns_endpgm\n");
        QTest::addRow("after .endr\\xe9") << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\n.endr\u00e9\ns_nop 2\ns_endpgm\n")
                                          << QStringLiteral("s_nop 0\n.rept 2\ns_nop 1\n.endr\u00e9\ns_nop 3\ns_endpgm\n");
        // A directional label typed in: which "1:" it names, and where an undefined one's
        // placeholder goes, depend on the whole text (527d4a52).
        QTest::addRow("undefined 1f typed") << QStringLiteral("s_nop 0\ns_nop 1\ns_endpgm\n")
                                            << QStringLiteral("s_nop 0\ns_branch 1f\ns_endpgm\n");
        QTest::addRow("1b typed") << QStringLiteral("1:\ns_nop 0\ns_nop 1\ns_endpgm\n")
                                  << QStringLiteral("1:\ns_nop 0\ns_branch 1b\ns_endpgm\n");
        QTest::addRow("1f typed") << QStringLiteral("s_nop 0\ns_nop 1\n1:\ns_endpgm\n")
                                  << QStringLiteral("s_nop 0\ns_cbranch_scc0 1f\n1:\ns_endpgm\n");
        // LLVM reads directive names in any case: ".P2ALIGN" after the edit pads to the new size (cc72cf1c).
        QTest::addRow("alignment in capitals") << QStringLiteral("s_nop 0\ns_nop 1\n.P2ALIGN 4\ns_endpgm\n")
                                               << QStringLiteral("s_nop 0\nv_mov_b32 v0, 0x12345678\n.P2ALIGN 4\ns_endpgm\n");
        // The first instruction typed under a kernel's label that has none yet (5c37ab3a).
        QTest::addRow("first line of an empty kernel")
            << QStringLiteral(".type a,@function\na:\ns_nop 0\n.type b,@function\nb:\n\n")
            << QStringLiteral(".type a,@function\na:\ns_nop 0\n.type b,@function\nb:\ns_nop 1\n\n");
        // A number LLVM's lexer refuses ("0x", "08") after an error: LLVM skips the line after it
        // (66f45285, 760f1e65).
        QTest::addRow("line after a refused number")
            << QStringLiteral("s_nop 0\nx, 0x\ns_nop 1\ns_endpgm\n") << QStringLiteral("s_nop 0\nx, 0x\ns_nop 2\ns_endpgm\n");
        QTest::addRow("refused number typed")
            << QStringLiteral("s_nop 0\nx, 0\ns_nop 1\ns_endpgm\n") << QStringLiteral("s_nop 0\nx, 08\ns_nop 1\ns_endpgm\n");
        // Raw branch offsets count from their instruction: one typed in, one moved (90232f43).
        QTest::addRow("raw branch offset typed") << QStringLiteral("s_nop 0\ns_nop 0\ns_nop 0\ns_endpgm\n")
                                                 << QStringLiteral("s_nop 0\ns_nop 0\ns_cbranch_execz 1\ns_endpgm\n");
        QTest::addRow("raw branch offset moved")
            << QStringLiteral("s_nop 0\ns_nop 0\ns_cbranch_execz 1\ns_nop 1\ns_endpgm\n")
            << QStringLiteral("s_nop 0\nv_add_f32 v1, 0x12345678, v1\ns_cbranch_execz 1\ns_nop 1\ns_endpgm\n");
    }
    void editsAcrossLines()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        const AssembleOptions options;
        compareBothPaths(before.toStdString(), after.toStdString(), options, describe(assemble(after.toStdString(), options)));
    }

    // Edits fuzz_frontend found where the incremental path differed from a fresh run (issue #12);
    // tests/data/fuzz holds each text before and after the edit (tahiti). 7faa33a3 holds since the
    // text LLVM sees is sanitised (#14); the others were the fresh run's fault: a placeholder took
    // the line of the diagnostic before its own when the source map had added a note (a CLRX
    // directive LLVM does not know) ahead of LLVM's diagnostics.
    void fuzzFindings_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("asLines"); // through FrontEnd::edit (the editor's path), else analyze()
        for (const char* name : {"08db3713", "2ca50e0f", "315fad2b", "7faa33a3", "a14f215c", "d2ab2cb6"})
            QTest::addRow("%s", name) << QStringLiteral("incremental-%1").arg(QLatin1String(name)) << QStringLiteral("tahiti")
                                      << false;
        // The source map's note came first in a fresh run's diagnostics, the spliced line's error
        // went by line order: diagnostics are in line order now.
        QTest::addRow("8ae3775c") << QStringLiteral("incremental-8ae3775c") << QStringLiteral("gfx90a") << false;
        // The edited line alone ("s9, 0x;1000") hangs LLVM 19 as the last line of a text: the
        // re-assembled region ends with a blank line (LLVM's fault, tests/fuzz/llvm-faults). Such a
        // line (a number LLVM's lexer refuses) makes LLVM skip the next one, so it now takes the
        // full run (66f45285 below).
        // A bad character literal ('…) makes LLVM skip the next line too: both take the full run.
        QTest::addRow("d12cd6f3") << QStringLiteral("incremental-d12cd6f3") << QStringLiteral("tahiti") << false;
        QTest::addRow("a93bc7df") << QStringLiteral("incremental-a93bc7df") << QStringLiteral("gfx906") << false; // a backquote
        QTest::addRow("2e898d94") << QStringLiteral("incremental-2e898d94") << QStringLiteral("tahiti")
                                  << false; // "v[44:" at a line's end
        // A '#' line: LLVM may read it as a line marker.
        QTest::addRow("893963bc") << QStringLiteral("incremental-893963bc") << QStringLiteral("tahiti") << false;
        QTest::addRow("755ab0eb") << QStringLiteral("incremental-755ab0eb") << QStringLiteral("tahiti") << false;
        // Lines after a switch to .rodata: a re-assembled line alone was read in .text.
        QTest::addRow("d81bb3bb") << QStringLiteral("incremental-d81bb3bb") << QStringLiteral("gfx900") << false;
        QTest::addRow("5b6935db") << QStringLiteral("incremental-5b6935db") << QStringLiteral("tahiti") << true;
        QTest::addRow("8efdb5d3") << QStringLiteral("incremental-8efdb5d3") << QStringLiteral("gfx900") << true;
        // A replaced line held a label ('.' in an expression makes one): the splice kept it.
        QTest::addRow("df019e5b") << QStringLiteral("incremental-df019e5b") << QStringLiteral("tahiti") << false;
        // 1229bf61, c763633d, b98103b3 are CLRX sources (a '#' comment line): the translation's
        // program is spliced, and the result looked like state kept across runs.
        // Removing the instruction ahead of the first label makes that label the kernel, where
        // the splice kept "(top)".
        QTest::addRow("1229bf61") << QStringLiteral("incremental-1229bf61") << QStringLiteral("tahiti") << false;
        // A character literal at a line's end ("v MIT'") eats its newline and a blank line's
        // after it: LLVM skips the line after the blank one.
        QTest::addRow("c763633d") << QStringLiteral("incremental-c763633d") << QStringLiteral("tahiti") << false;
        // DEL, which LLVM's lexer refuses, on the line after an edited one (as a backquote).
        QTest::addRow("b98103b3") << QStringLiteral("incremental-b98103b3") << QStringLiteral("tahiti") << false;
        // Lines inside a code object v2 metadata block (.amd_amdgpu_hsa_metadata), which the source
        // map blanks to its end: re-assembled alone they were instructions.
        QTest::addRow("0f58f641") << QStringLiteral("incremental-0f58f641") << QStringLiteral("tahiti") << false;
        QTest::addRow("2cbaf8bf") << QStringLiteral("incremental-2cbaf8bf") << QStringLiteral("tahiti") << true;
        QTest::addRow("bce0cf62") << QStringLiteral("incremental-bce0cf62") << QStringLiteral("tahiti") << false;
        // A label at the end of one kernel, at the offset where the next began once the edit took
        // an instruction away: its offset was measured from the wrong kernel.
        QTest::addRow("25be84ca") << QStringLiteral("incremental-25be84ca") << QStringLiteral("gfx90a") << false;
        // The placeholder for an undefined "6f", which LLVM reports at the end of the text, stands
        // on an earlier line than the edit: its line moved with the edit.
        QTest::addRow("7f6147aa") << QStringLiteral("incremental-7f6147aa") << QStringLiteral("tahiti") << false;
        // A raw branch offset ("s_cbranch_execz 6") typed in: its target kept the re-assembled
        // line's offset from the start of its own little run.
        QTest::addRow("90232f43") << QStringLiteral("incremental-90232f43") << QStringLiteral("tahiti") << true;
        // CLRX sources. 73838dbd: a line inside a block comment that is never closed, which a fresh
        // translation reads as blank; ClrxTranslator's patch copied the edited line (tst_clrx
        // patchTiedLines). 5567ea71, f46604d0: the full run stopped at the bytes limit (a huge
        // .p2align) and records nothing after it; the splice re-assembled the edited line below it.
        QTest::addRow("73838dbd") << QStringLiteral("incremental-73838dbd") << QStringLiteral("gfx900") << true;
        QTest::addRow("5567ea71") << QStringLiteral("incremental-5567ea71") << QStringLiteral("tahiti") << true;
        QTest::addRow("f46604d0") << QStringLiteral("incremental-f46604d0") << QStringLiteral("tahiti") << false;
        // LLVM skips the line after "s9, 0x" (a number its lexer refuses, after an error).
        QTest::addRow("66f45285") << QStringLiteral("incremental-66f45285") << QStringLiteral("gfx906") << true;
        QTest::addRow("760f1e65") << QStringLiteral("incremental-760f1e65") << QStringLiteral("gfx906") << true;
        // ".p2aligN 8" after the edit: the line scan read directive names in their case only.
        QTest::addRow("cc72cf1c") << QStringLiteral("incremental-cc72cf1c") << QStringLiteral("tahiti") << true;
        QTest::addRow("5c37ab3a") << QStringLiteral("incremental-5c37ab3a") << QStringLiteral("gfx90a") << false;
        QTest::addRow("11280dd2") << QStringLiteral("incremental-11280dd2") << QStringLiteral("tahiti") << false;
        // An instruction with a "6f" typed in (a CLRX source): LLVM reports the undefined label at
        // the end of the text and places its placeholder last; the splice kept it on the line.
        // A line added at the end of a text that ends inside an .amdhsa_kernel block: the end of
        // the text was taken for a plain neighbour, and the block's error stayed on the old last line.
        QTest::addRow("ff220144") << QStringLiteral("incremental-ff220144") << QStringLiteral("gfx906") << true;
        // ".rep+ 3" repeats (LLVM ends a directive's name where its identifier ends; ".rep" is
        // ".rept"): the lines of its body were taken for plain ones.
        QTest::addRow("1f32622f") << QStringLiteral("incremental-1f32622f") << QStringLiteral("tahiti") << false;
        // ".endm" then a byte LLVM reads as part of the name (the source map's '?'): no .endm.
        QTest::addRow("a2aaaf4b") << QStringLiteral("incremental-a2aaaf4b") << QStringLiteral("tahiti") << true;
        QTest::addRow("527d4a52") << QStringLiteral("incremental-527d4a52") << QStringLiteral("gfx900") << false;
        QTest::addRow("94288133") << QStringLiteral("incremental-94288133") << QStringLiteral("tahiti") << true;
        QTest::addRow("de542d01") << QStringLiteral("incremental-de542d01") << QStringLiteral("tahiti") << false;
        // A CLRX source with ".end#…" (LLVM stops at .end, so nothing after it is assembled): its
        // translation's full run skipped the witness check of the LLVM-syntax path, and a line
        // after the .end was spliced in.
        QTest::addRow("e5900aaa") << QStringLiteral("incremental-e5900aaa") << QStringLiteral("tahiti") << true;
        QTest::addRow("c60fa9bc") << QStringLiteral("incremental-c60fa9bc") << QStringLiteral("gfx906") << false;
        // ".rept?" in a .rept body (a byte from 0x80 up) counted as a nested repetition in the
        // body scan, which LLVM does not: the body ran to the end of the text, and the second
        // copy's lines were mapped to the lines after the .endr (a comment line's edit changed a
        // fresh run's program). tst_frontend reptBodyEndsWhereLlvmEndsIt checks the lines.
        QTest::addRow("06706a88") << QStringLiteral("incremental-06706a88") << QStringLiteral("tahiti") << false;
    }
    void fuzzFindings()
    {
        QFETCH(QString, name);
        QFETCH(QString, gpu);
        const auto bytes = [&name](const char* which) {
            QFile f(QStringLiteral(GCNLENS_TESTDATA_DIR "/fuzz/%1.%2.s").arg(name, QLatin1String(which)));
            return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
        };
        const std::string before = bytes("before"), after = bytes("after");
        QVERIFY(!before.empty() && !after.empty());
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        QFETCH(bool, asLines);
        FrontEnd frontEnd;
        frontEnd.analyze(before, options);
        const Program* editedPtr =
            asLines ? frontEnd.edit(test::lineChange(before, after), options) : &frontEnd.analyze(after, options);
        QVERIFY(editedPtr);
        const Program& edited = *editedPtr;
        const Program fresh = assemble(after, options);
        // (As fuzz_frontend: a half-typed line that keeps its size from before the edit is the one
        // designed difference, see halfTypedLineKeepsItsSize; no row here has one.)
        const bool keptSize = std::any_of(edited.instructions.begin(), edited.instructions.end(), [](const Instruction& i) {
            return i.placeholder && i.operands.find("before this edit") != std::string::npos;
        });
        QVERIFY(!keptSize);
        QCOMPARE(describe(edited), describe(fresh));
        // Each placeholder stands on a line with an error.
        for (const Instruction& i : fresh.instructions) {
            if (!i.placeholder)
                continue;
            const bool errorOnLine = std::any_of(fresh.diagnostics.begin(), fresh.diagnostics.end(), [&i](const Diagnostic& d) {
                return d.severity == Severity::Error && d.line == i.line;
            });
            QVERIFY2(errorOnLine, qPrintable(QStringLiteral("placeholder on line %1 without an error there").arg(i.line)));
        }
    }

    // The limits hold for the whole program (AssembleLimits): an edit of a program a full run
    // stopped on, or one that takes it past a limit, gives the full run's program and error.
    void editsAndLimits_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<qulonglong>("instructions");
        QTest::addColumn<qulonglong>("bytes");
        const QString text = QStringLiteral("s_nop 0\n.space 100\ns_nop 1\ns_endpgm\n");
        QTest::addRow("edit below the stop")
            << text << QString(text).replace(QStringLiteral("s_nop 1"), QStringLiteral("s_nop 2")) << qulonglong(100)
            << qulonglong(64);
        QTest::addRow("edit above the stop")
            << text << QString(text).replace(QStringLiteral("s_nop 0"), QStringLiteral("s_nop 2")) << qulonglong(100)
            << qulonglong(64);
        const QString three = QStringLiteral("s_nop 0\ns_nop 1\ns_endpgm\n");
        QTest::addRow("past the instructions")
            << three << QStringLiteral("s_nop 0\ns_nop 1\ns_nop 2\ns_endpgm\n") << qulonglong(3) << qulonglong(1000);
        QTest::addRow("past the bytes") << three << QStringLiteral("s_nop 0\nv_mov_b32 v0, 0x12345678\ns_endpgm\n")
                                        << qulonglong(100) << qulonglong(12);
    }
    void editsAndLimits()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        AssembleOptions options;
        QFETCH(qulonglong, instructions);
        QFETCH(qulonglong, bytes);
        options.limits.instructions = instructions;
        options.limits.bytes = bytes;
        const std::string b = before.toStdString(), a = after.toStdString();
        const QStringList fresh = describe(assemble(a, options));
        QVERIFY(fresh.join(QLatin1Char('\n')).contains(QLatin1String("the rest is not analysed")));
        compareBothPaths(b, a, options, fresh);
    }

    // State the line scan cannot see (an included file opens a conditional, or switches the
    // section): the lines after the .include read as plain to the scan, but LLVM made nothing of
    // them, and the full run's witness check (assembler.cpp confirmPlainLines) sends their edits
    // to the full run.
    void stateFromAnInclude_data()
    {
        QTest::addColumn<QString>("include");
        QTest::addColumn<QString>("close");
        QTest::addRow("open .if 0") << QStringLiteral("open-if.inc") << QStringLiteral(".endif");
        QTest::addRow(".section .rodata") << QStringLiteral("rodata.inc") << QStringLiteral(".text");
    }
    void stateFromAnInclude()
    {
        QFETCH(QString, include);
        QFETCH(QString, close);
        AssembleOptions options;
        options.includeDirs = {gcnlens::test::testData("data/incremental-inc").toStdString()};
        const QString before = QStringLiteral("s_nop 0\n.include \"%1\"\ns_nop 1\n\n%2\ns_endpgm\n").arg(include, close);
        const QString edited = QString(before).replace(QStringLiteral("s_nop 1"), QStringLiteral("s_nop 2"));
        const QString typed = QString(before).replace(QStringLiteral("s_nop 1\n\n"), QStringLiteral("s_nop 1\ns_nop 3\n"));
        for (const QString& after : {edited, typed}) {
            const std::string b = before.toStdString(), a = after.toStdString();
            const Program freshProgram = assemble(a, options);
            QVERIFY2(!freshProgram.hasErrors(), qPrintable(describe(freshProgram).join(QLatin1Char('\n'))));
            QCOMPARE(freshProgram.instructions.size(), std::size_t(2)); // s_nop 0 and s_endpgm
            compareBothPaths(b, a, options, describe(freshProgram));
            if (QTest::currentTestFailed())
                return;
        }
    }

    void halfTypedLineKeepsItsSize()
    {
        AssembleOptions options;
        const std::string before = "v_add_f32 v1, 0x12345678, v1\ns_nop 0\ns_endpgm\n";
        const std::string typing = "v_add_f32 v1, 0x1234\ns_nop 0\ns_endpgm\n"; // src1 missing: fails
        const std::string typing2 = "v_add_f32 v1, 0x1234, \ns_nop 0\ns_endpgm\n";
        const std::string done = "v_add_f32 v1, 0x1234, v1\ns_nop 0\ns_endpgm\n";
        FrontEnd frontEnd;
        QCOMPARE(frontEnd.analyze(before, options).instructions.at(1).offset, 8u);
        for (const auto& text : {typing, typing2}) {
            const Program p = frontEnd.analyze(text, options);
            QVERIFY(p.instructions.at(0).placeholder);
            QCOMPARE(p.instructions.at(0).size, 8);    // kept from before the edit
            QCOMPARE(p.instructions.at(1).offset, 8u); // so s_nop does not move
        }
        const Program finished = frontEnd.analyze(done, options);
        QVERIFY(!finished.instructions.at(0).placeholder);
        QCOMPARE(finished.instructions.at(0).size, 8);                      // the real size from the assembler
        QCOMPARE(assemble(typing2, options).instructions.at(1).offset, 4u); // a fresh run assumes 4
    }
};

QTEST_GUILESS_MAIN(TestIncremental)
#include "tst_incremental.moc"
