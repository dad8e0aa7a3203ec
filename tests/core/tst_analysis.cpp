// SPDX-License-Identifier: MIT
// The editor's incremental analysis (Analyzer: TimingAnalyzer + LdsProgramAnalyzer) must give
// exactly what a fresh analyzeProgram() gives on the same program, after any edit, over long
// editing sessions, and across option, override and GPU changes; and it must really reuse work.
#include "core/analysis.h"
#include "core/asm/assembler.h"
#include "core/support/cancel.h"
#include "testutils.h"

#include "analysisdump.h"

#include <QFile>
#include <QTest>

#include <bit>
#include <chrono>
#include <format>
#include <stop_token>
#include <thread>

using namespace gcnlens;

namespace {

std::vector<std::string> splitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string joinLines(const std::vector<std::string>& lines)
{
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i)
        text += lines[i] + (i + 1 < lines.size() ? "\n" : "");
    return text;
}

// A fixed pseudo-random sequence (reproducible runs).
struct Random {
    std::uint32_t state;
    std::uint32_t operator()(std::uint32_t bound)
    {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) % bound;
    }
};

// One random line of the instructions the LDS evaluator and the timing rules care about:
// address arithmetic, DS accesses, loops, hazards, literals (2-dword), data words, garbage.
std::string randomLine(Random& r, bool gfx9, int& label)
{
    auto v = [&] { return std::format("v{}", r(16)); };
    auto s = [&] { return std::format("s{}", 8 + r(16)); };
    auto c = [&] {
        static const char* k[] = {"0", "1", "2", "4", "-1", "0x40", "0x1000", "64", "65", "3"};
        return std::string(k[r(10)]);
    };
    auto src = [&] { return r(3) == 0 ? v() : r(2) ? s() : c(); };
    const std::string add = gfx9 ? "v_add_co_u32" : "v_add_i32";
    switch (r(32)) {
    case 0:
        return std::format("    v_mov_b32 {}, {}", v(), src());
    case 1:
        return std::format("    {} {}, vcc, {}, {}", add, v(), src(), v());
    case 2:
        return std::format("    v_lshlrev_b32 {}, {}, {}", v(), r(5), v());
    case 3:
        return std::format("    v_and_b32 {}, {}, {}", v(), src(), v());
    case 4:
        return std::format("    v_mul_lo_u32 {}, {}, {}", v(), v(), s());
    case 5:
        return std::format("    v_mad_u32_u24 {}, {}, {}, {}", v(), v(), r(8), v());
    case 6:
        return std::format("    v_bfe_u32 {}, {}, {}, {}", v(), v(), r(8), r(8));
    case 7:
        return std::format("    v_mbcnt_lo_u32_b32 {}, -1, 0", v());
    case 8:
        return std::format("    v_readfirstlane_b32 {}, {}", s(), v());
    case 9:
        return std::format("    s_mov_b32 {}, {}", s(), c());
    case 10:
        return std::format("    s_add_u32 {}, {}, {}", s(), s(), c());
    case 11:
        return std::format("    s_load_dword {}, s[0:1], 0x{:x}", s(), 4 * r(8));
    case 12:
    case 13:
        return std::format("    ds_read_b32 {}, {}", v(), v());
    case 14:
        return std::format("    ds_write_b32 {}, {}", v(), v());
    case 15: {
        const int a = int(r(14));
        return std::format("    ds_read2_b32 v[{}:{}], {} offset0:{} offset1:{}", a, a + 1, v(), r(4), 32 + r(4));
    }
    case 16:
        return std::format("    ds_add_u32 {}, {}", v(), v());
    case 17:
        return "    s_waitcnt lgkmcnt(0)";
    case 18:
        return std::format("    v_mov_b32 {}, 0x3dcccccd", v());
    case 19:
        return std::format("    v_fma_f32 {}, {}, {}, {}", v(), v(), v(), v());
    case 20:
        return std::format("    buffer_load_dword {}, {}, s[4:7], 0 offen{}", v(), v(), r(2) ? " glc" : "");
    case 21:
        return std::format("L{}:\n    s_nop 0", label++);
    case 22:
        return label ? std::format("    s_cmp_lg_u32 {}, 0\n    s_cbranch_scc1 L{}", s(), r(std::uint32_t(label)))
                     : "    s_nop 1";
    case 23: {
        const int l = label++;
        return std::format("    v_cmp_eq_u32 vcc, {}, {}\n    s_cbranch_vccz F{}\n    s_nop 1\nF{}:", src(), v(), l, l);
    }
    case 24:
        return std::format("    v_readlane_b32 {}, {}, 1\n    s_add_u32 {}, {}, 1", s(), v(), s(), s());
    case 25:
        return "    .long 0x12345678";
    case 26:
        return "    qwerty v1";
    case 27:
        return std::format("    v_rcp_f32 {}, {}", v(), v());
    default:
        return std::format("    v_add_f32 {}, {}, {}", v(), src(), v());
    }
}

std::string randomKernels(Random& r, bool gfx9, int instructions, int kernels)
{
    std::string text = ".text\n";
    int label = 0;
    for (int k = 0; k < kernels; ++k) {
        text += std::format(".globl k{0}\n.p2align 8\n.type k{0},@function\nk{0}:\n", k);
        for (int i = 0; i < instructions; ++i)
            text += randomLine(r, gfx9, label) + "\n";
        text += "    s_endpgm\n";
    }
    return text;
}

// The first differing line of the two dumps, for the failure message.
QByteArray firstDifference(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i)
        if (i >= a.size() || i >= b.size() || a[i] != b[i])
            return QByteArray("first difference at dump line ") + QByteArray::number(qulonglong(i))
                + "\n incremental: " + QByteArray::fromStdString(i < a.size() ? a[i] : "(none)")
                + "\n fresh:       " + QByteArray::fromStdString(i < b.size() ? b[i] : "(none)");
    return {};
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT

    // Analyzes `program` incrementally from `previous` and checks it against a fresh run.
    static bool matchesFresh(Analyzer& analyzer, const Program& program, const AnalysisRequest& request, Analysis& previous,
                             QByteArray& why)
    {
        Analysis incremental = analyzer.analyze(program, request, &previous);
        const Analysis fresh = analyzeProgram(program, request);
        const auto a = testing::dumpAnalysis(incremental), b = testing::dumpAnalysis(fresh);
        previous = std::move(incremental);
        if (a == b)
            return true;
        why = firstDifference(a, b);
        return false;
    }

private Q_SLOTS:
    // Every line of real kernels: deleted, duplicated, replaced by an instruction of another size,
    // by garbage, by a blank line, and edited in place, each from the original's analysis.
    void everyLineEdit_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpu");
        QTest::addRow("saxpy") << gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s") << "tahiti";
        QTest::addRow("saxpy on gfx900") << gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s") << "gfx900";
        QTest::addRow("macros") << gcnlens::test::testData("data/incremental-macros.s") << "gfx900";
    }
    void everyLineEdit()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpu);
        const std::string text = gcnlens::test::readFile(file).toStdString();
        QVERIFY2(!text.empty(), qPrintable(file));
        const std::vector<std::string> lines = splitLines(text);
        AnalysisRequest request;
        request.assemble.gpu = gpu.toStdString();
        const Program original = assemble(text, request.assemble);
        const std::vector<std::string> replacements = {
            "    v_add_f32 v1, 0x12345678, v1", "    s_nop 0",           "    qwerty v1", "",
            "    v_lshlrev_b32 v1, 3, v0",      "    ds_read_b32 v6, v1"};
        int edits = 0;
        for (std::size_t l = 0; l < lines.size(); ++l) {
            std::vector<std::vector<std::string>> variants;
            auto del = lines;
            del.erase(del.begin() + std::ptrdiff_t(l));
            variants.push_back(del);
            auto dup = lines;
            dup.insert(dup.begin() + std::ptrdiff_t(l), lines[l]);
            variants.push_back(dup);
            for (const auto& r : replacements) {
                auto rep = lines;
                rep[l] = r;
                variants.push_back(rep);
            }
            auto typed = lines; // a keystroke at the end of the line
            typed[l] += "1";
            variants.push_back(typed);
            for (const auto& variant : variants) {
                Analyzer analyzer;
                Analysis previous = analyzer.analyze(original, request);
                QByteArray why;
                const bool same = matchesFresh(analyzer, assemble(joinLines(variant), request.assemble), request, previous, why);
                QVERIFY2(same, QByteArray("edit of line " + QByteArray::number(qulonglong(l + 1)) + ": " + why).constData());
                ++edits;
            }
        }
        QCOMPARE(edits, int(lines.size()) * 9);
    }

    // What the timing pass reads beyond an instruction's identity: s_nop's count (T-nop) is in its
    // operand text, its cap (A-nop) in the check options. Each edit keeps every other field equal,
    // so the incremental run must notice exactly these (a sanitizer-build finding).
    void nopCountAndCapFollowEdits_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<int>("nopLimitAfter");
        QTest::addRow("count 1 -> 7") << "tahiti" << "s_nop 1" << "s_nop 7" << 16;
        QTest::addRow("count 0 -> 0x3") << "gfx900" << "s_nop 0" << "s_nop 0x3" << 16;
        QTest::addRow("count 12, cap 16 -> 8") << "gfx900" << "s_nop 12" << "s_nop 12" << 8;
    }
    void nopCountAndCapFollowEdits()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(int, nopLimitAfter);
        // A carry add, the s_nop, and a read of its result (H-valu-salu's wait states on GFX6/7),
        // between runs of moves long enough that the pass keeps checkpoints on both sides.
        const std::string add = gpu == QLatin1String("tahiti") ? "v_add_i32" : "v_add_co_u32";
        std::string moves;
        for (int v = 10; v < 50; ++v)
            moves += "    v_mov_b32 v" + std::to_string(v) + ", 0\n";
        const std::string text = moves + "    " + add + " v1, vcc, v2, v3\n    " + before.toStdString()
            + "\n    v_readlane_b32 s4, v1, 0\n" + moves + "    s_endpgm\n";
        AnalysisRequest request;
        request.assemble.gpu = gpu.toStdString();
        Analyzer analyzer;
        Analysis previous = analyzer.analyze(assemble(text, request.assemble), request);
        QVERIFY(previous.program.diagnostics.empty());
        request.timing.checks.nopLimit = nopLimitAfter;
        std::string edited = text;
        edited.replace(edited.find(before.toStdString()), std::size_t(before.size()), after.toStdString());
        QByteArray why;
        QVERIFY2(matchesFresh(analyzer, assemble(edited, request.assemble), request, previous, why), why.constData());
    }

    // One Analyzer through a long session on generated kernels (several kernels, loops, hazards,
    // LDS address arithmetic), with the request changing now and then: each step is checked.
    void editingSession_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("seed");
        QTest::addRow("tahiti") << "tahiti" << 1;
        QTest::addRow("hawaii") << "hawaii" << 2;
        QTest::addRow("gfx900") << "gfx900" << 3;
        QTest::addRow("gfx90a") << "gfx90a" << 4;
    }
    void editingSession()
    {
        QFETCH(QString, gpu);
        QFETCH(int, seed);
        Random r {std::uint32_t(seed)};
        const bool gfx9 = gpu.startsWith(QLatin1String("gfx"));
        std::vector<std::string> lines = splitLines(randomKernels(r, gfx9, 120, 3));
        AnalysisRequest request;
        request.assemble.gpu = gpu.toStdString();
        Analyzer analyzer;
        Analysis previous = analyzer.analyze(assemble(joinLines(lines), request.assemble), request);
        int label = 1000;
        const int steps = gcnlens::test::kSanitized ? 30 : 120;
        for (int step = 0; step < steps; ++step) {
            const std::size_t at = 5 + r(std::uint32_t(lines.size() - 6));
            switch (r(8)) {
            case 0:
                lines[at] = randomLine(r, gfx9, label);
                break; // replace
            case 1:
                lines.erase(lines.begin() + std::ptrdiff_t(at));
                break; // delete
            case 2:
                lines.insert(lines.begin() + std::ptrdiff_t(at), randomLine(r, gfx9, label));
                break;
            case 3:
                lines[at] += " ";
                break; // nothing changes
            case 4:
                if (lines[at].size() > 6)
                    lines[at].pop_back();
                break; // half-typed
            case 5:
                lines[at] += "0";
                break; // a digit
            case 6:
                lines[at].insert(0, "//");
                break; // commented out
            case 7:    // the request changes: every model must follow
                switch (r(5)) {
                case 0:
                    request.branches.byLine[int(at) + 1] = r(2) ? Direction::Taken : Direction::NotTaken;
                    break;
                case 1:
                    request.timing.longRule = r(2) ? TimingOptions::LongRule::WholeBlock : TimingOptions::LongRule::OwnCycles;
                    break;
                case 2:
                    request.timing.takenBranchCycles = 12 + 4 * int(r(3));
                    break;
                case 3:
                    request.lds.workgroupX = r(2) ? 16 : 64;
                    request.lds.workgroupY = request.lds.workgroupX == 16 ? 4 : 1;
                    break;
                case 4:
                    request.timing.ldsGroupDwords = r(2) ? 64 : 32;
                    break;
                }
                break;
            }
            QByteArray why;
            const bool same = matchesFresh(analyzer, assemble(joinLines(lines), request.assemble), request, previous, why);
            QVERIFY2(same, QByteArray("step " + QByteArray::number(step) + ": " + why).constData());
        }
    }

    // The FrontEnd's own incremental programs (placeholders that keep their size while a line is
    // typed) through the Analyzer, as the editor runs them.
    void typingThroughFrontEnd()
    {
        const std::string text =
            gcnlens::test::readFile(gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s")).toStdString();
        QVERIFY(!text.empty());
        AnalysisRequest request;
        FrontEnd frontEnd;
        Analyzer analyzer;
        Analysis previous = analyzer.analyze(frontEnd.analyze(text, request.assemble), request);
        const std::string typed = "    v_lshlrev_b32 v11, 3, v0\n    ds_read_b64 v[12:13], v11 offset:8\n";
        const std::size_t at = text.find("    v_lshlrev_b32 v7");
        QVERIFY(at != std::string::npos);
        for (std::size_t n = 1; n <= typed.size(); ++n) {
            const std::string state = text.substr(0, at) + typed.substr(0, n) + text.substr(at);
            QByteArray why;
            const bool same = matchesFresh(analyzer, frontEnd.analyze(state, request.assemble), request, previous, why);
            QVERIFY2(same, QByteArray("after " + QByteArray::number(qulonglong(n)) + " characters: " + why).constData());
        }
    }

    // A one-line edit in the middle of a long kernel re-times and re-evaluates a few instructions
    // only; without a usable previous result everything is computed.
    void reusesWork_data()
    {
        QTest::addColumn<QString>("target");  // the start of the line edited
        QTest::addColumn<QString>("edit");    // its new text; empty: the line is deleted
        QTest::addColumn<bool>("laterMoves"); // later instructions change offset or line
        QTest::addColumn<int>("length");      // instruction lines
        QTest::addRow("operand") << "    v_add_f32" << "    v_add_f32 v40, v2, v6" << false << 2000;
        QTest::addRow("address") << "    v_lshlrev_b32" << "    v_lshlrev_b32 v7, 3, v0" << false << 2000;
        QTest::addRow("literal") << "    s_mov_b32" << "    s_mov_b32 s10, 0x12345" << true << 2000;
        // Two 4-byte data words where one 8-byte instruction was: one instruction more, nothing
        // moves (the timing state must be matched across the index shift).
        QTest::addRow("data words") << "    v_mov_b32 v5" << "    .long 1, 2" << false << 2000;
        QTest::addRow("deleted") << "    v_add_f32" << "" << true << 2000;
        QTest::addRow("comment") << "    v_add_f32" << "    v_add_f32 v4, v2, v6 // a comment" << false << 2000;
        // Past 65536 instructions the LDS checkpoints are further apart (128 here, issue #18).
        QTest::addRow("address, long kernel") << "    v_lshlrev_b32" << "    v_lshlrev_b32 v7, 3, v0" << false << 140000;
    }
    void reusesWork()
    {
        QFETCH(QString, target);
        QFETCH(QString, edit);
        QFETCH(bool, laterMoves);
        QFETCH(int, length);
        // `length` lines of one repeating 10-instruction group (each line one instruction).
        static const char* body[] = {"    v_add_f32 v4, v2, v6",      "    v_mov_b32 v5, 0x3dcccccd",
                                     "    s_add_u32 s11, s9, 0x1000", "    v_lshlrev_b32 v7, 2, v0",
                                     "    ds_read_b32 v8, v7",        "    v_fma_f32 v9, v2, v8, v4",
                                     "    s_mov_b32 s10, 6",          "    v_add_i32 v3, vcc, s4, v1",
                                     "    s_waitcnt lgkmcnt(0)",      "    buffer_load_dword v12, v1, s[4:7], 0 offen"};
        std::vector<std::string> lines = {".text", ".globl k", ".p2align 8", ".type k,@function", "k:"};
        for (int i = 0; i < length; ++i)
            lines.push_back(body[i % 10]);
        lines.push_back("    s_endpgm");
        AnalysisRequest request;
        const Program before = assemble(joinLines(lines), request.assemble);
        const int count = int(before.instructions.size());
        QCOMPARE(count, length + 1);
        // core/model/lds.cpp: LDS checkpoints 32 instructions apart, wider from 65536 on so that
        // there are at most about 2048.
        const int ldsInterval = std::max(32, int(std::bit_ceil(unsigned(count) / 2048)));

        Analyzer analyzer;
        Analysis previous = analyzer.analyze(before, request);
        QCOMPARE(analyzer.lastWork().timedInstructions, count); // nothing to build on: everything
        QCOMPARE(analyzer.lastWork().ldsEvaluatedInstructions, count);

        // Edit the first line of that kind from the middle on.
        std::size_t line = 5 + std::size_t(length) / 2;
        while (!lines[line].starts_with(target.toStdString()))
            ++line;
        const int index = int(line) - 5; // its instruction
        if (edit.isEmpty())
            lines.erase(lines.begin() + std::ptrdiff_t(line));
        else
            lines[line] = edit.toStdString();
        const Program after = assemble(joinLines(lines), request.assemble);
        QByteArray why;
        QVERIFY2(matchesFresh(analyzer, after, request, previous, why), why.constData());
        const Analyzer::Work work = analyzer.lastWork();
        // The timing pass resumes at most one checkpoint interval (16) before the edit and stops
        // once its state matches again at a checkpoint; the LDS evaluation likewise (ldsInterval),
        // where a changed address register keeps it going until that register is written again
        // (within one 10-line group here). Instructions that move are all timed again.
        QVERIFY2(work.ldsEvaluatedInstructions <= 2 * ldsInterval + 10,
                 QByteArray::number(work.ldsEvaluatedInstructions).constData());
        if (laterMoves)
            QVERIFY2(work.timedInstructions >= count - index - 1 && work.timedInstructions <= count - index + 16,
                     QByteArray::number(work.timedInstructions).constData());
        else
            QVERIFY2(work.timedInstructions <= 2 * 16 + 10, QByteArray::number(work.timedInstructions).constData());
        // The flow passes: an edit that keeps the instruction count and the CFG walks the hazards
        // back only from the instructions up to 97 after it (hazards.cpp: kMaxWalk + 1 producers
        // per path); one that changes no instruction reuses liveness and the checks whole.
        if (after.instructions.size() != before.instructions.size()) {
            QVERIFY(!work.flowReused);
            const auto code = std::count_if(after.instructions.begin(), after.instructions.end(),
                                            [](const Instruction& in) { return !in.isData; });
            QCOMPARE(work.hazardWalks, int(code)); // every instruction of the code walked
        } else if (edit.contains(QLatin1String("//"))) {
            QVERIFY(work.flowReused);
            QCOMPARE(work.hazardWalks, 0);
        } else {
            QVERIFY(!work.flowReused);
            QVERIFY2(work.hazardWalks >= 1 && work.hazardWalks <= 98, QByteArray::number(work.hazardWalks).constData());
        }

        // An analysis this Analyzer did not make last is not built on.
        const Analysis foreign = analyzeProgram(before, request);
        Analysis fromForeign = analyzer.analyze(after, request, &foreign);
        QCOMPARE(analyzer.lastWork().timedInstructions, int(after.instructions.size()));
        QCOMPARE(testing::dumpAnalysis(fromForeign), testing::dumpAnalysis(analyzeProgram(after, request)));
    }

    // An edit between a VALU writer and the SALU after it changes the time that has passed
    // (H-valu-salu, timing-model.md section 4) while the pending writer stays the same: a timing
    // state that matches in everything but that must not be taken for the previous one.
    void hazardStateAcrossTheEdit()
    {
        // Instructions 0–12 fill (v_mov_b32, 4 cycles), 13 writes VCC (v_add_i32, a listed
        // writer), 14 is edited, 15 fills, 16 is the SALU. With 14 a v_mov_b32, 4 + 4 = 8 cycles
        // passed: 16 − 8 = 8 → +8; as v_rcp_f32 (16 cycles, quarter rate) 16 + 4 = 20 passed →
        // nothing. The timing checkpoint at 16 (every 16 instructions) lies between the two.
        std::vector<std::string> lines = {".text", "k:"};
        for (int i = 0; i < 13; ++i)
            lines.push_back("    v_mov_b32 v0, v1");
        lines.push_back("    v_add_i32 v3, vcc, s4, v1");
        lines.push_back("    v_mov_b32 v0, v1");
        lines.push_back("    v_mov_b32 v0, v1");
        lines.push_back("    s_add_u32 s11, s9, 1");
        for (int i = 0; i < 20; ++i) // to the next checkpoint (32), where the states do match
            lines.push_back("    v_mov_b32 v0, v1");
        lines.push_back("    s_endpgm");
        AnalysisRequest request;
        Analyzer analyzer;
        Analysis previous = analyzer.analyze(assemble(joinLines(lines), request.assemble), request);
        auto valuSalu = [](const Analysis& a) {
            int cycles = 0;
            for (const Penalty& p : a.timing.instructions.at(16).penalties())
                cycles += p.rule == "valu-salu" ? p.cycles : 0;
            return cycles;
        };
        QCOMPARE(valuSalu(previous), 8);
        lines[2 + 14] = "    v_rcp_f32 v0, v1";
        QByteArray why;
        QVERIFY2(matchesFresh(analyzer, assemble(joinLines(lines), request.assemble), request, previous, why), why.constData());
        QCOMPARE(valuSalu(previous), 0);
        QCOMPARE(analyzer.lastWork().timedInstructions, 32); // from checkpoint 0 to the match at 32
    }

    // A superseded analysis is cancelled through its stop token (issue #11 item 6): the passes stop
    // at their next check, nothing partial comes out (AnalysisCancelled), and the Analyzer's last
    // complete result stays the one to build on: the next run is incremental and equals a fresh one.
    void cancelStopsQuicklyAndPublishesNothing_data()
    {
        QTest::addColumn<double>("at"); // when to stop, as a fraction of an uncancelled run's time (< 0: before it starts)
        QTest::addRow("before the run") << -1.0;
        QTest::addRow("early in the run") << 0.1;
        QTest::addRow("a third in") << 0.3;
    }
    void cancelStopsQuicklyAndPublishesNothing()
    {
        QFETCH(double, at);
        using Clock = std::chrono::steady_clock;
        AnalysisRequest request;
        Random r {11};
        std::vector<std::string> lines = splitLines(randomKernels(r, false, 6000, 4));
        const Program before = assemble(joinLines(lines), request.assemble);
        lines[lines.size() / 2] = "    v_add_f32 v1, 0x12345678, v1";
        const Program after = assemble(joinLines(lines), request.assemble);
        Analyzer analyzer;
        Analysis previous = analyzer.analyze(before, request);
        // How long an uncancelled full run takes here, now (the machine is shared: a ratio).
        const auto t0 = Clock::now();
        Analyzer().analyze(after, request);
        const double full = std::chrono::duration<double>(Clock::now() - t0).count();

        std::stop_source stop;
        if (at < 0)
            stop.request_stop();
        std::thread stopper;
        Clock::time_point requested = Clock::now();
        if (at >= 0)
            stopper = std::thread([&] {
                std::this_thread::sleep_for(std::chrono::duration<double>(full * at));
                requested = Clock::now();
                stop.request_stop();
            });
        bool cancelled = false;
        try {
            // A full run (no previous): long enough to be stopped in the middle.
            const Analysis partial = analyzer.analyze(after, request, nullptr, stop.get_token());
            Q_UNUSED(partial);
        } catch (const AnalysisCancelled&) {
            cancelled = true;
        }
        const auto stopped = Clock::now();
        if (stopper.joinable())
            stopper.join();
        if (!cancelled) // finished before the stop arrived (a slow machine): nothing to measure
            QSKIP("the run finished before the stop request");
        const double latency = std::chrono::duration<double>(stopped - requested).count();
        QVERIFY2(
            latency < std::max(0.02, full / 4),
            qPrintable(
                QStringLiteral("stopped %1 ms after the request; a full run takes %2 ms").arg(latency * 1e3).arg(full * 1e3)));
        // `previous` is still the Analyzer's last result: the next run builds on it.
        QByteArray why;
        QVERIFY2(matchesFresh(analyzer, after, request, previous, why), why.constData());
        QVERIFY(analyzer.lastWork().timedInstructions < int(after.instructions.size()) / 2);
    }

    // The standalone incremental entry points, with a previous result that is not theirs.
    void timingAndLdsAnalyzersFallBackToFullRuns()
    {
        AnalysisRequest request;
        Random r {7};
        const Program a = assemble(randomKernels(r, false, 80, 2), request.assemble);
        const Program b = assemble(randomKernels(r, false, 80, 2), request.assemble);
        TimingAnalyzer timing;
        LdsProgramAnalyzer lds;
        const TimingResult ta = timing.analyze(a, request.timing, request.branches);
        const auto la = lds.analyze(a, request.lds);
        // Options changed since the last call: the previous result cannot be reused.
        TimingOptions other = request.timing;
        other.takenBranchCycles = 28;
        const TimingResult tb = timing.analyze(b, other, request.branches, &a, &ta);
        QCOMPARE(timing.timedInstructions(), int(b.instructions.size()));
        Analysis got, want;
        got.program = want.program = b;
        got.timing = tb;
        want.timing = analyzeTiming(b, other, request.branches);
        LdsKernelOptions wide = request.lds;
        wide.workgroupX = 8;
        wide.workgroupY = 8;
        got.lds = lds.analyze(b, wide, &a, &la);
        QCOMPARE(lds.evaluatedInstructions(),
                 int(b.kernels.at(0).endInstruction - b.kernels.at(0).firstInstruction)
                     + int(b.kernels.at(1).endInstruction - b.kernels.at(1).firstInstruction));
        want.lds = analyzeLdsInProgram(b, wide);
        QCOMPARE(testing::dumpAnalysis(got), testing::dumpAnalysis(want));
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
