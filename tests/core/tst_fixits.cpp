// SPDX-License-Identifier: MIT
// Fix-its with their gain (issue #17 section 2, core/model/fixits.h). For each kind (an s_nop for a
// hazard, a move, the 1-dword encoding, s_nops before a branch) on small kernels for gfx6, gfx8,
// gfx9 and gfx90a: applying the fix removes the finding, adds no hazard, and changes the total by
// exactly the delta it promised; every pair of instructions the fix reorders is register-
// independent (checked here from defs/uses, apart from the fix-it code), and where nothing
// independent exists no move is offered. The CLI's diff applies with patch(1) to the text the core
// edits give, and the patched file no longer has the finding.
#include "core/analysis.h"
#include "core/asm/assembler.h"
#include "core/model/fixits.h"

#include "testutils.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <map>
#include <span>
#include <sstream>

using namespace gcnlens;

namespace {

struct Case {
    std::string source;
    AssembleOptions options;
    AnalysisRequest request;
    AssembleFunction assemble;
    Analysis analysis;
};

Case loadPath(const QString& path, const QString& gpu)
{
    Case k;
    k.source = test::readFile(path).toStdString();
    k.options.gpu = gpu.toStdString();
    k.request.assemble = k.options;
    const AssembleOptions options = k.options;
    k.assemble = [options](const std::string& text) { return assemble(text, options); };
    k.analysis = analyzeProgram(k.assemble(k.source), k.request);
    return k;
}

Case load(const QString& file, const QString& gpu)
{
    return loadPath(test::testData(qPrintable(QStringLiteral("data/fixits/") + file)), gpu);
}

// How often a fixable rule is found: hazards by id, penalties by rule.
int findings(const Analysis& a, const std::string& rule)
{
    if (rule.rfind("W-", 0) == 0)
        return int(std::count_if(a.checks.hazards.begin(), a.checks.hazards.end(),
                                 [&](const HazardFinding& h) { return h.rule == rule; }));
    const auto it = a.timing.totals.countByRule.find(rule);
    return it == a.timing.totals.countByRule.end() ? 0 : it->second;
}

std::string trimmed(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The source line of each instruction, as the key that follows it through a reordering.
std::vector<std::string> instructionLines(const Program& p, const std::string& text)
{
    std::vector<std::string> lines;
    std::vector<std::string> all;
    std::string::size_type at = 0;
    while (at <= text.size()) {
        const auto end = text.find('\n', at);
        all.push_back(text.substr(at, end == std::string::npos ? std::string::npos : end - at));
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    for (const Instruction& in : p.instructions)
        lines.push_back(in.line >= 1 && in.line <= int(all.size()) ? trimmed(all[in.line - 1]) : std::string());
    return lines;
}

bool touches(std::span<const RegRange> a, std::span<const RegRange> b)
{
    for (const RegRange& x : a)
        for (const RegRange& y : b) {
            if (x.kind == y.kind && x.first < y.first + y.count && y.first < x.first + x.count)
                return true;
            if ((x.kind == RegKind::VCC && y.kind == RegKind::SGPR) || (x.kind == RegKind::SGPR && y.kind == RegKind::VCC))
                return true; // conservative: VCC is an SGPR pair
        }
    return false;
}

// The line of `text` where the statement on line `line` of `original` is now: the same occurrence
// of the same trimmed text (an s_nop inserted or a line moved shifts it), else `line` itself (the
// 1-dword encoding rewrites the statement in place).
int movedLine(const std::string& original, int line, const std::string& text)
{
    const auto split = [](const std::string& t) {
        std::vector<std::string> lines;
        std::istringstream in(t);
        for (std::string l; std::getline(in, l);)
            lines.push_back(trimmed(l));
        return lines;
    };
    const std::vector<std::string> before = split(original), after = split(text);
    if (line < 1 || line > int(before.size()))
        return line;
    const std::string& statement = before[std::size_t(line - 1)];
    const auto occurrence = std::count(before.begin(), before.begin() + (line - 1), statement);
    long seen = 0;
    for (std::size_t i = 0; i < after.size(); ++i)
        if (after[i] == statement && seen++ == occurrence)
            return int(i + 1);
    return line;
}

// The finding of `rule` is on `line` (a hazard at its consumer, a penalty on an instruction there).
bool findingOnLine(const Analysis& a, const std::string& rule, int line)
{
    if (rule.rfind("W-", 0) == 0)
        return std::any_of(a.checks.hazards.begin(), a.checks.hazards.end(),
                           [&](const HazardFinding& h) { return h.rule == rule && h.line == line; });
    const auto it = a.program.lineToInstructions.find(line);
    if (it == a.program.lineToInstructions.end())
        return false;
    for (int i : it->second)
        for (const Penalty& p : a.timing.instructions[std::size_t(i)].penalties())
            if (p.rule == rule)
                return true;
    return false;
}

// patch -p1 < diff in `dir`: empty when it applied, else what patch said.
QString runPatch(const QString& patch, const QString& dir, const QByteArray& diff)
{
    QProcess apply;
    apply.setWorkingDirectory(dir);
    apply.setProcessChannelMode(QProcess::MergedChannels);
    apply.start(patch, {QStringLiteral("-p1"), QStringLiteral("--no-backup-if-mismatch")});
    apply.write(diff);
    apply.closeWriteChannel();
    if (!apply.waitForFinished(30000))
        return QStringLiteral("patch did not finish");
    return apply.exitCode() == 0 ? QString() : QString::fromUtf8(apply.readAll());
}

} // namespace

class TestFixIts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void appliesWithItsDelta_data();
    void appliesWithItsDelta();
    void everyFixItApplies_data();
    void everyFixItApplies();
    void kernelScopedEqualsWhole();
    void threadsChangeNothing_data();
    void threadsChangeNothing();
    void cliDiffApplies_data() { appliesWithItsDelta_data(); }
    void cliDiffApplies();
    void cliDiffCrLf();
    void cliJobsAndMaxFindings();
    void editsAndDiff_data();
    void editsAndDiff();
};

void TestFixIts::appliesWithItsDelta_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QString>("kind"); // the kind offered; empty: none may be offered
    for (const char* gpu : {"tahiti", "fiji", "gfx900", "gfx90a"})
        QTest::addRow("lanesel %s", gpu) << "hazard-lanesel.s" << gpu << "W-lanesel" << "insert-nop";
    QTest::addRow("mai gfx90a") << "hazard-mai.s" << "gfx90a" << "W-mai-vgpr-valu" << "insert-nop";
    for (const char* gpu : {"tahiti", "hawaii"})
        QTest::addRow("move s_nop %s", gpu) << "fetch-move-nop.s" << gpu << "fetch-align" << "move";
    QTest::addRow("e32 tahiti") << "fetch-encoding.s" << "tahiti" << "fetch-align" << "short-encoding";
    QTest::addRow("chain tahiti") << "fetch-chain.s" << "tahiti" << "fetch-align" << "";
    for (const char* gpu : {"gfx900", "gfx90a"})
        QTest::addRow("straddle %s", gpu) << "fetch-straddle.s" << gpu << "fetch-straddle" << "move";
    QTest::addRow("branch move tahiti") << "branch-move.s" << "tahiti" << "branch-position" << "move";
    QTest::addRow("branch live tahiti") << "branch-live.s" << "tahiti" << "branch-position" << "insert-nop";
    QTest::addRow("clrx tahiti") << "clrx-fetch.s" << "tahiti" << "fetch-align" << "move";
    QTest::addRow("clrx inline constant tahiti") << "clrx-lit.s" << "tahiti" << "fetch-align" << "short-encoding";
}

void TestFixIts::appliesWithItsDelta()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(QString, rule);
    QFETCH(QString, kind);
    const Case k = load(file, gpu);
    QVERIFY(!k.analysis.program.hasErrors());
    const int before = findings(k.analysis, rule.toStdString());
    QVERIFY2(before > 0, "the kernel must have the finding");
    std::vector<FindingRef> refs;
    for (const FindingRef& f : fixableFindings(k.analysis))
        if (f.rule == rule.toStdString())
            refs.push_back(f);
    QVERIFY(!refs.empty());
    const std::optional<FixIt> fix = findFixIt(k.source, k.analysis, k.request, refs.front(), k.assemble);
    if (kind.isEmpty()) {
        QVERIFY2(!fix, fix ? fix->summary.c_str() : "");
        return;
    }
    QVERIFY(fix);
    QCOMPARE(QString::fromStdString(fix->kind), kind);
    QCOMPARE(fix->finding, refs.front());

    const std::string edited = applyEdits(k.source, fix->edits);
    QVERIFY(edited != k.source);
    const Analysis after = analyzeProgram(k.assemble(edited), k.request);
    QVERIFY(!after.program.hasErrors());
    QCOMPARE(findings(after, rule.toStdString()), before - 1);
    QCOMPARE(after.timing.totals.singleWaveCycles - k.analysis.timing.totals.singleWaveCycles, fix->delta());
    QCOMPARE(fix->cyclesBefore, k.analysis.timing.totals.singleWaveCycles);
    if (kind != QLatin1String("insert-nop") && !rule.startsWith(QLatin1String("W-")))
        QVERIFY(fix->delta() < 0);
    const std::size_t fixedHazards = rule.startsWith(QLatin1String("W-")) ? 1 : 0;
    QVERIFY(after.checks.hazards.size() <= k.analysis.checks.hazards.size() - fixedHazards);
    QVERIFY(after.checks.waits.size() <= k.analysis.checks.waits.size());

    // Every reordered pair is independent.
    if (kind == QLatin1String("move")) {
        const std::vector<std::string> oldLines = instructionLines(k.analysis.program, k.source);
        const std::vector<std::string> newLines = instructionLines(after.program, edited);
        std::map<std::string, int> position;
        for (int i = 0; i < int(newLines.size()); ++i)
            position[newLines[i]] = i;
        int reordered = 0;
        for (int a = 0; a < int(oldLines.size()); ++a)
            for (int b = a + 1; b < int(oldLines.size()); ++b) {
                QVERIFY(position.count(oldLines[a]) && position.count(oldLines[b]));
                if (position[oldLines[a]] < position[oldLines[b]])
                    continue;
                ++reordered;
                const Instruction& x = k.analysis.program.instructions[a];
                const Instruction& y = k.analysis.program.instructions[b];
                QVERIFY2(!touches(x.defs, y.defs) && !touches(x.defs, y.uses) && !touches(x.uses, y.defs),
                         (oldLines[a] + " / " + oldLines[b]).c_str());
            }
        QVERIFY(reordered > 0);
    }
}

// Every fix-it findFixIts offers for a kernel (not only the first finding's), each applied alone to
// the original text: its finding is no longer on its statement's line (another instruction may
// take a penalty of the same rule: the total says what the move gains), no hazard or s_waitcnt
// finding is added, and the whole file's single-wave cycles change by exactly the delta it previews.
void TestFixIts::everyFixItApplies_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<int>("atLeast"); // fix-its the kernel must be offered
    for (const char* f : {"branch-live.s", "branch-move.s", "clrx-fetch.s", "clrx-lit.s", "fetch-encoding.s", "fetch-move-nop.s",
                          "hazard-lanesel.s"})
        QTest::addRow("%s tahiti", f) << test::testData(qPrintable(QStringLiteral("data/fixits/") + QLatin1String(f))) << "tahiti"
                                      << 1;
    for (const char* gpu : {"gfx900", "gfx90a"})
        QTest::addRow("straddle %s", gpu) << test::testData("data/fixits/fetch-straddle.s") << gpu << 1;
    QTest::addRow("mai gfx90a") << test::testData("data/fixits/hazard-mai.s") << "gfx90a" << 1;
    // Larger kernels with several findings of different kinds.
    QTest::addRow("views gfx900") << test::testData("data/checks/views-gfx900.s") << "gfx900" << 1;
    QTest::addRow("lanesel gfx942") << test::testData("data/checks/lanesel.s") << "gfx942" << 1;
    QTest::addRow("saxpy tahiti") << test::exampleKernel() << "tahiti" << 1;
}

void TestFixIts::everyFixItApplies()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(int, atLeast);
    const Case k = loadPath(file, gpu);
    QVERIFY(!k.analysis.program.hasErrors());
    const std::vector<FixIt> fixes = findFixIts(k.source, k.analysis, k.request, k.assemble);
    QVERIFY(int(fixes.size()) >= atLeast);
    for (const FixIt& fix : fixes) {
        const std::string what = fix.finding.rule + " line " + std::to_string(fix.finding.line) + ": " + fix.summary;
        const std::string edited = applyEdits(k.source, fix.edits);
        const Analysis after = analyzeProgram(k.assemble(edited), k.request);
        QVERIFY2(!after.program.hasErrors(), what.c_str());
        QVERIFY2(findingOnLine(k.analysis, fix.finding.rule, fix.finding.line), what.c_str());
        QVERIFY2(!findingOnLine(after, fix.finding.rule, movedLine(k.source, fix.finding.line, edited)), what.c_str());
        QVERIFY2(after.checks.hazards.size() <= k.analysis.checks.hazards.size(), what.c_str());
        QVERIFY2(after.checks.waits.size() <= k.analysis.checks.waits.size(), what.c_str());
        QCOMPARE(fix.cyclesBefore, k.analysis.timing.totals.singleWaveCycles);
        QCOMPARE(after.timing.totals.singleWaveCycles - fix.cyclesBefore, fix.delta());
    }
    qInfo("%s on %s: %zu fix-it(s), each applied alone, each with its previewed delta", qPrintable(file), qPrintable(gpu),
          fixes.size());
}

// Candidates measured on a prefix of the text (through the next kernel's entry label) choose the
// same fixes with the same deltas as whole-text runs. kernels.s has the four cases: a prefix that
// holds (b); one whose s_nops move the next kernel, where whole-text runs decide (a, exactly 256
// bytes); one that reads a symbol set after the last kernel, which the unedited prefix shows to
// differ (c); and the last kernel, which has no prefix (d).
void TestFixIts::kernelScopedEqualsWhole()
{
    const Case k = load(QStringLiteral("kernels.s"), QStringLiteral("gfx900"));
    QVERIFY(!k.analysis.program.hasErrors());
    QCOMPARE(k.analysis.program.kernels.size(), std::size_t(4));
    FixItStats scopedStats, wholeStats;
    const std::vector<FixIt> scoped = findFixIts(k.source, k.analysis, k.request, k.assemble, {}, &scopedStats);
    FixItSearch wholeText;
    wholeText.kernelScoped = false;
    const std::vector<FixIt> whole = findFixIts(k.source, k.analysis, k.request, k.assemble, wholeText, &wholeStats);
    QCOMPARE(scoped.size(), std::size_t(4)); // one straddle per kernel, each fixed
    QVERIFY(scoped == whole);
    QCOMPARE(scopedStats.scopedKernels, 2); // a and b
    QCOMPARE(scopedStats.prefixMismatches, 0);
    QVERIFY(scopedStats.prefixRuns > 0);
    QCOMPARE(wholeStats.prefixRuns, 0);
    // One finding alone (the window's preview, which runs on a prefix only where that pays for
    // its first run): the same fix as the search over all.
    const std::vector<FindingRef> refs = fixableFindings(k.analysis);
    QCOMPARE(refs.size(), scoped.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
        const std::optional<FixIt> alone = findFixIt(k.source, k.analysis, k.request, refs[i], k.assemble);
        QVERIFY(alone.has_value());
        QVERIFY(*alone == scoped[i]);
    }
    // Each fix offered was measured again on the whole text; the other candidates of b were not.
    QVERIFY(scopedStats.wholeRuns < wholeStats.wholeRuns);
    qInfo("kernels.s: %d whole-text and %d prefix runs (whole-text only: %d)", scopedStats.wholeRuns, scopedStats.prefixRuns,
          wholeStats.wholeRuns);
}

// Findings measured on several threads, each with a front-end of its own, give the same fixes in
// the same order as one thread, with the same runs made.
void TestFixIts::threadsChangeNothing_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");
    QTest::addRow("kernels gfx900") << test::testData("data/fixits/kernels.s") << "gfx900";
    QTest::addRow("views gfx900") << test::testData("data/checks/views-gfx900.s") << "gfx900";
    QTest::addRow("saxpy tahiti") << test::exampleKernel() << "tahiti";
}

void TestFixIts::threadsChangeNothing()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    const Case k = loadPath(file, gpu);
    FixItStats oneStats, threeStats;
    const std::vector<FixIt> one = findFixIts(k.source, k.analysis, k.request, k.assemble, {}, &oneStats);
    FixItSearch search;
    search.threads = 3;
    std::atomic<int> made {0};
    const AssembleOptions options = k.options;
    search.makeAssemble = [&] {
        ++made; // (called on the new threads, before any of them counts runs)
        return AssembleFunction([options](const std::string& text) { return assemble(text, options); });
    };
    const std::vector<FixIt> three = findFixIts(k.source, k.analysis, k.request, k.assemble, search, &threeStats);
    QVERIFY(!one.empty());
    QVERIFY(one == three);
    QCOMPARE(threeStats.wholeRuns, oneStats.wholeRuns);
    QCOMPARE(threeStats.prefixRuns, oneStats.prefixRuns);
    QCOMPARE(threeStats.scopedKernels, oneStats.scopedKernels);
    QVERIFY(made >= 1);
}

void TestFixIts::cliDiffApplies()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(QString, rule);
    QFETCH(QString, kind);
    const QString patch = QStandardPaths::findExecutable(QStringLiteral("patch"));
    if (patch.isEmpty())
        QSKIP("patch(1) is not installed");
    const Case k = load(file, gpu);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString name = QStringLiteral("kernel.s");
    {
        QFile out(dir.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(k.source));
    }
    const auto cli = [&](const QStringList& args, QByteArray* output = nullptr) {
        QProcess process;
        process.setWorkingDirectory(dir.path());
        process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), args);
        if (!process.waitForFinished(120000))
            return -1;
        if (output)
            *output = process.readAllStandardOutput();
        return process.exitCode();
    };
    QByteArray diff;
    const int status = cli({QStringLiteral("check"), QStringLiteral("--fix-its"), QStringLiteral("--gpu"), gpu, name}, &diff);
    // The exit status stays check's: 3 with a hazard, 0 without.
    QCOMPARE(status, k.analysis.checks.hazards.empty() ? 0 : 3);
    const std::vector<FixIt> fixes = findFixIts(k.source, k.analysis, k.request, k.assemble);
    if (kind.isEmpty()) {
        QVERIFY(fixes.empty());
        QVERIFY(diff.isEmpty());
        return;
    }
    QCOMPARE(int(fixes.size()), 1);
    QVERIFY(diff.contains("--- a/kernel.s"));
    QVERIFY(diff.contains(QByteArray(QByteArray("@@ ") + rule.toUtf8() + " line ")));
    QVERIFY(diff.contains(QByteArray::fromStdString(deltaText(fixes.front().delta()))));

    const QString patched = runPatch(patch, dir.path(), diff);
    QVERIFY2(patched.isEmpty(), qPrintable(patched));
    const std::string text = test::readFile(dir.filePath(name)).toStdString();
    QCOMPARE(text, applyEdits(k.source, fixes.front().edits));

    // The re-check: the finding is gone and no fix-it is left to offer.
    const Analysis after = analyzeProgram(k.assemble(text), k.request);
    QCOMPARE(findings(after, rule.toStdString()), findings(k.analysis, rule.toStdString()) - 1);
    QByteArray json;
    QCOMPARE(
        cli({QStringLiteral("check"), QStringLiteral("--json"), QStringLiteral("--fix-its"), QStringLiteral("--gpu"), gpu, name},
            &json),
        0);
    const QJsonObject root = QJsonDocument::fromJson(json).object();
    QVERIFY(root.value(QStringLiteral("hazards")).toArray().isEmpty());
    QVERIFY(root.contains(QStringLiteral("fixits")));
    QVERIFY(root.value(QStringLiteral("fixits")).toArray().isEmpty());
}

// check --fix-its: the diff is the same with one worker or three (-j), and --max-findings N
// searches the first N findings in line order only, which the summary says.
void TestFixIts::cliJobsAndMaxFindings()
{
    const QString file = test::testData("data/fixits/kernels.s");
    QByteArray summary; // the last run's standard error
    const auto diff = [&](const QStringList& extra) {
        QProcess process;
        process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"),
                      QStringList {QStringLiteral("check"), file, QStringLiteral("--gpu"), QStringLiteral("gfx900"),
                                   QStringLiteral("--fix-its")}
                          + extra);
        if (!process.waitForFinished(120000) || process.exitCode() != 0)
            return QByteArray("(failed)");
        summary = process.readAllStandardError();
        return process.readAllStandardOutput();
    };
    const QByteArray one = diff({QStringLiteral("-j"), QStringLiteral("1")});
    QCOMPARE(one.count("\n@@ "), 4); // a fix per kernel
    QVERIFY(!summary.contains("findings searched"));
    QCOMPARE(diff({QStringLiteral("--jobs"), QStringLiteral("3")}), one);
    const QByteArray two = diff({QStringLiteral("--max-findings"), QStringLiteral("2")});
    QCOMPARE(two.count("\n@@ "), 2);
    QVERIFY(two.contains("fetch-straddle line 17:"));
    QVERIFY(two.contains("fetch-straddle line 84:"));
    QVERIFY2(summary.contains("the first 2 of 4 fixable findings searched (--max-findings N for more)"), summary.constData());
}

// A file with CR LF line breaks: the diff quotes its lines with their CRs, so patch applies it and
// the file keeps CR LF.
void TestFixIts::cliDiffCrLf()
{
    const QString patch = QStandardPaths::findExecutable(QStringLiteral("patch"));
    if (patch.isEmpty())
        QSKIP("patch(1) is not installed");
    const Case k = load(QStringLiteral("fetch-move-nop.s"), QStringLiteral("tahiti"));
    const std::vector<FixIt> fixes = findFixIts(k.source, k.analysis, k.request, k.assemble);
    QCOMPARE(int(fixes.size()), 1);
    const auto crlf = [](std::string text) {
        std::string out;
        for (char c : text)
            out += c == '\n' ? std::string("\r\n") : std::string(1, c);
        return out;
    };
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("kernel.s")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(crlf(k.source)));
    file.close();
    QProcess check;
    check.setWorkingDirectory(dir.path());
    check.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"),
                {QStringLiteral("check"), QStringLiteral("--fix-its"), QStringLiteral("kernel.s")});
    QVERIFY(check.waitForFinished(120000));
    const QByteArray diff = check.readAllStandardOutput();
    QVERIFY(diff.contains("\r\n"));
    const QString patched = runPatch(patch, dir.path(), diff);
    QVERIFY2(patched.isEmpty(), qPrintable(patched));
    QCOMPARE(test::readBytes(dir.filePath(QStringLiteral("kernel.s"))).toStdString(),
             crlf(applyEdits(k.source, fixes.front().edits)));
}

// The text operations themselves: edits in the original's coordinates, one hunk per fix, a fix
// overlapping an earlier one left out, and a file without a final newline.
void TestFixIts::editsAndDiff_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");  // insert "X" before this line (fix 1) …
    QTest::addColumn<int>("line2"); // … and before this one (fix 2)
    QTest::addColumn<int>("hunks");
    QTest::addRow("apart") << "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n" << 2 << 9 << 2;
    QTest::addRow("overlapping") << "a\nb\nc\nd\ne\n" << 2 << 3 << 1;
    QTest::addRow("no final newline") << "a\nb\nc" << 3 << 3 << 1;
}

void TestFixIts::editsAndDiff()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, line2);
    QFETCH(int, hunks);
    const std::string source = text.toStdString();
    std::vector<FixIt> fixes(2);
    fixes[0].finding = {"fetch-align", 0, line};
    fixes[0].edits = {{line, 0, line, 0, "X\n"}};
    fixes[1].finding = {"fetch-align", 0, line2};
    fixes[1].edits = {{line2, 0, line2, 0, "Y\n"}};
    int leftOut = -1;
    const std::string diff = unifiedDiff("f.s", source, fixes, 2, &leftOut);
    int count = 0;
    for (std::size_t at = diff.find("\n@@ "); at != std::string::npos; at = diff.find("\n@@ ", at + 1))
        ++count;
    QCOMPARE(count, hunks);
    QCOMPARE(leftOut, 2 - hunks);
    // Apply the diff by its own lines: each hunk's ' ' and '-' lines must be the original's at the
    // header's position; the result is the text with the fixes in the diff applied.
    std::vector<std::string> oldLines, out;
    std::istringstream in(source);
    for (std::string l; std::getline(in, l);)
        oldLines.push_back(l);
    std::istringstream d(diff);
    std::size_t next = 0; // old lines copied so far
    for (std::string l; std::getline(d, l);) {
        if (l.rfind("@@ -", 0) != 0)
            continue;
        const std::size_t first = std::stoul(l.substr(4)) - 1;
        while (next < first)
            out.push_back(oldLines[next++]);
        std::streampos mark = d.tellg();
        for (std::string h; std::getline(d, h) && h.rfind("@@", 0) != 0; mark = d.tellg()) {
            if (h.empty() || h[0] == '\\')
                continue;
            if (h[0] == ' ' || h[0] == '-') {
                QVERIFY(next < oldLines.size());
                QCOMPARE(h.substr(1), oldLines[next]);
                ++next;
            }
            if (h[0] == ' ' || h[0] == '+')
                out.push_back(h.substr(1));
        }
        d.clear();
        d.seekg(mark);
    }
    while (next < oldLines.size())
        out.push_back(oldLines[next++]);
    std::vector<TextEdit> applied = fixes[0].edits;
    if (hunks == 2)
        applied.insert(applied.end(), fixes[1].edits.begin(), fixes[1].edits.end());
    else if (line2 < line)
        applied = fixes[1].edits; // the diff keeps the fix that comes first
    std::string expected, got;
    for (const std::string& l : out)
        got += l + "\n";
    std::istringstream e(applyEdits(source, applied));
    for (std::string l; std::getline(e, l);)
        expected += l + "\n";
    QCOMPARE(got, expected);
    if (source.back() != '\n')
        QVERIFY(diff.find("\\ No newline at end of file") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestFixIts)
#include "tst_fixits.moc"
