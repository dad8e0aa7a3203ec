// SPDX-License-Identifier: MIT
// The PDF report end to end (issue #6): reports for the bundled examples and synthetic kernels are
// read back with poppler's pdftotext / pdfinfo / pdftoppm. Every expected value is taken from the
// Analysis the report was made from (or from the page-size standards), never from a past report.
#include "core/analysis.h"
#include "testutils.h"
#include "ui/report/reportwriter.h"

#include <QDir>
#include <QFile>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace gcnlens;

namespace {

QString run(const QString& tool, const QStringList& args, int* exitCode = nullptr)
{
    QProcess process;
    process.start(tool, args);
    if (!process.waitForFinished(60000))
        return QString();
    if (exitCode)
        *exitCode = process.exitCode();
    return QString::fromUtf8(process.readAllStandardOutput());
}

QString pdfText(const QString& pdf, int firstPage = 0, int lastPage = 0)
{
    QStringList args {QStringLiteral("-layout"), QStringLiteral("-enc"), QStringLiteral("UTF-8")};
    if (firstPage > 0)
        args << QStringLiteral("-f") << QString::number(firstPage) << QStringLiteral("-l") << QString::number(lastPage);
    return run(QStringLiteral("pdftotext"), args << pdf << QStringLiteral("-"));
}

struct PdfInfo {
    int pages = 0;
    QString pageSize;
};

PdfInfo pdfInfo(const QString& pdf)
{
    PdfInfo info;
    const QString text = run(QStringLiteral("pdfinfo"), {pdf});
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Pages:")))
            info.pages = line.mid(6).trimmed().toInt();
        if (line.startsWith(QLatin1String("Page size:")))
            info.pageSize = line.mid(10).trimmed();
    }
    return info;
}

Analysis analyze(const QString& source, const QString& gpu = QStringLiteral("tahiti"))
{
    AnalysisRequest request;
    request.assemble.gpu = gpu.toStdString();
    request.assemble.fileName = "kernel.s";
    return runAnalysis(source.toStdString(), request);
}

struct CliRun {
    int exitCode = -1;
    QByteArray out;
    QString err;
};

// gcnlens-cli with no display at all (the command must pick the offscreen platform itself) and
// `input` on its standard input.
CliRun runCli(const QStringList& args, const QByteArray& input = {})
{
    CliRun run;
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), args);
    if (!process.waitForStarted())
        return run;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000))
        return run;
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = process.readAllStandardOutput();
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

// A kernel of `count` instructions alternating 1-dword and 2-dword (literal) forms, so fetch
// penalties occur at varied slots (timing-model.md section 2).
QString syntheticKernel(int count)
{
    QString s = QStringLiteral(".text\n.globl big\n.p2align 8\n.type big,@function\nbig:\n");
    for (int i = 0; i < count; ++i) {
        s += i % 3 == 2 ? QStringLiteral("    v_add_f32 v1, 0x40490fdb, v1 // literal\n")
                        : QStringLiteral("    v_mul_f32 v%1, v2, v3\n").arg(4 + i % 8);
    }
    s += QStringLiteral("    s_endpgm\n");
    return s;
}

// Lines of a -layout text that look like listing rows with an instruction: "  123 0001c 7 8  4 …".
std::set<int> listedLineNumbers(const QString& text)
{
    static const QRegularExpression row(QStringLiteral("^\\s*(\\d+)\\s+0x[0-9a-f]{4,}\\s+[0-7]\\s+(4|8)\\s"));
    std::set<int> lines;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const auto m = row.match(line);
        if (m.hasMatch())
            lines.insert(m.captured(1).toInt());
    }
    return lines;
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

    QString write(const Analysis& analysis, const QString& source, const QString& name, ReportOptions options = {})
    {
        const QString path = dir_.filePath(name);
        if (options.sourceName.isEmpty())
            options.sourceName = QStringLiteral("kernel.s");
        options.date = QDateTime(QDate(2024, 5, 17), QTime(10, 30));
        QString error;
        if (!writeReport(path, analysis, source, options, &error)) {
            qWarning() << "writeReport failed:" << error;
            return QString();
        }
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        for (const char* tool : {"pdftotext", "pdfinfo", "pdftoppm"})
            QVERIFY2(!QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty(), tool);
    }

    void examples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QPageSize::PageSizeId>("page");
        QTest::addColumn<QString>("pdfinfoSize");
        const QDir examples(gcnlens::test::sourcePath("resources/examples"));
        const QStringList files = examples.entryList({QStringLiteral("*.s")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        for (const QString& f : files) {
            // pdfinfo prints the MediaBox in whole points: A4 210×297 mm → 595×842, Letter 8.5×11 in → 612×792.
            QTest::addRow("%s A4", qPrintable(f))
                << examples.filePath(f) << QPageSize::A4 << QStringLiteral("595 x 842 pts (A4)");
            QTest::addRow("%s Letter", qPrintable(f))
                << examples.filePath(f) << QPageSize::Letter << QStringLiteral("612 x 792 pts (letter)");
        }
    }
    void examples()
    {
        QFETCH(QString, file);
        QFETCH(QPageSize::PageSizeId, page);
        QFETCH(QString, pdfinfoSize);
        const QString source = gcnlens::test::readFile(file);
        QVERIFY(!source.isEmpty());
        // The examples say which GPU they are for in their name (saxpy-gfx6.s); the default suits GFX6.
        const Analysis analysis = analyze(source);
        QVERIFY(!analysis.program.hasErrors());
        ReportOptions options;
        options.pageSize = QPageSize(page);
        options.sourceName = QFileInfo(file).fileName();
        const QString pdf = write(
            analysis, source, QFileInfo(file).completeBaseName() + QString::number(int(page)) + QStringLiteral(".pdf"), options);
        QVERIFY(!pdf.isEmpty());

        const PdfInfo info = pdfInfo(pdf);
        QCOMPARE(info.pageSize, pdfinfoSize);
        QVERIFY(info.pages >= 3); // summary, listing, legend at least

        const QString text = pdfText(pdf);
        // Title block.
        QVERIFY(text.contains(QStringLiteral("gcnlens report: %1").arg(options.sourceName)));
        for (const Kernel& k : analysis.program.kernels)
            QVERIFY(text.contains(QString::fromStdString(k.name)));
        QVERIFY(text.contains(QString::fromStdString(analysis.program.gpu.processor)));
        QVERIFY(text.contains(QString::fromLatin1(generationName(analysis.program.gpu.generation))));
        QVERIFY(text.contains(QRegularExpression(QStringLiteral("DPFACTOR\\s+%1").arg(analysis.program.gpu.dpfactor))));
        QVERIFY(text.contains(QStringLiteral("2024-05-17")));
        QVERIFY(text.contains(reportVersion()));
        QVERIFY(text.contains(QStringLiteral(GCNLENS_TEST_VERSION)));

        // Totals: the model's numbers, as the report formats them (C locale, thousands separators).
        const Totals& t = analysis.timing.totals;
        const QLocale c = QLocale::c();
        const QString totalsRow =
            QStringLiteral("%1\\s+%2\\s+%3\\s+%4\\s+%5\\s+%6")
                .arg(c.toString(t.instructions), c.toString(qulonglong(t.bytes)), c.toString(t.baseCycles),
                     c.toString(t.penaltyCycles), c.toString(t.singleWaveCycles), c.toString(t.hiddenCycles));
        QVERIFY2(text.contains(QRegularExpression(totalsRow)), qPrintable(totalsRow));
        for (const auto& [rule, count] : t.countByRule)
            QVERIFY2(text.contains(QRegularExpression(
                         QStringLiteral("%1\\s+%2\\s+%3").arg(QString::fromStdString(rule)).arg(count).arg(t.byRule.at(rule)))),
                     rule.c_str());

        // Occupancy.
        for (const OccupancyResult& occ : analysis.occupancy)
            QVERIFY(
                text.contains(QStringLiteral("%1 waves per SIMD, %2 waves per CU").arg(occ.wavesPerSimd).arg(occ.wavesPerCu)));

        // Listing: every instruction's line appears as a row, and each penalty's rule id is on its row.
        const std::set<int> listed = listedLineNumbers(text);
        const QStringList textLines = text.split(QLatin1Char('\n'));
        for (std::size_t i = 0; i < analysis.program.instructions.size(); ++i) {
            const Instruction& ins = analysis.program.instructions[i];
            QVERIFY2(listed.count(ins.line), qPrintable(QStringLiteral("line %1 not listed").arg(ins.line)));
            // The row and its continuation lines (wrapped source, further rules) up to the next numbered row.
            const QRegularExpression rowStart(
                QStringLiteral("^\\s*%1\\s+0x%2\\s").arg(ins.line).arg(ins.offset, 4, 16, QLatin1Char('0')));
            static const QRegularExpression numbered(QStringLiteral("^\\s*\\d+\\s"));
            QString block;
            for (qsizetype l = 0; l < textLines.size() && block.isEmpty(); ++l) {
                if (!rowStart.match(textLines[l]).hasMatch())
                    continue;
                block = textLines[l];
                for (qsizetype m = l + 1; m < textLines.size() && !numbered.match(textLines[m]).hasMatch(); ++m)
                    block += QLatin1Char('\n') + textLines[m];
            }
            QVERIFY2(!block.isEmpty(), qPrintable(rowStart.pattern()));
            for (const Penalty& pen : analysis.timing.instructions[i].penalties()) {
                const QString rule = QStringLiteral("%1 +%2").arg(QString::fromStdString(pen.rule)).arg(pen.cycles);
                QVERIFY2(block.contains(rule), qPrintable(rule + QLatin1Char('\n') + block));
            }
        }

        // LDS: every DS instruction with known addresses has a heatmap titled with its line and
        // its degree, or is named in the "same access" list under an identical one's heatmap.
        for (const auto& [index, access] : analysis.lds) {
            if (!access.error.empty())
                continue;
            const Instruction& ins = analysis.program.instructions[std::size_t(index)];
            const QRegularExpression titled(
                QStringLiteral("Line %1: %2[^\\n]*\\n\\s*(The same access[^.]*\\.\\s*)?Conflict degree %3,")
                    .arg(ins.line)
                    .arg(QString::fromStdString(ins.mnemonic))
                    .arg(access.degree));
            const QRegularExpression listed(QStringLiteral("same access at lines? [^.]*\\b%1\\b").arg(ins.line));
            QVERIFY2(text.contains(titled) || text.contains(listed), qPrintable(titled.pattern()));
        }

        // Legend: every rule id with its meaning, after the legend heading.
        const qsizetype legendAt = text.lastIndexOf(QStringLiteral("Rule ids"));
        QVERIFY(legendAt > 0);
        const QString legend = text.mid(legendAt);
        for (const RuleInfo& r : ruleLegend()) {
            QVERIFY2(legend.contains(QString::fromStdString(r.id)), r.id.c_str());
            // The first words of the meaning (wrapping may split the rest across lines).
            const QString words = QString::fromStdString(r.meaning).section(QLatin1Char(' '), 0, 1);
            QVERIFY2(legend.contains(words), qPrintable(words));
        }

        // Every page renders.
        const QString prefix = dir_.filePath(QStringLiteral("render-%1").arg(int(page)));
        int status = -1;
        run(QStringLiteral("pdftoppm"), {QStringLiteral("-r"), QStringLiteral("20"), QStringLiteral("-png"), pdf, prefix},
            &status);
        QCOMPARE(status, 0);
        const QStringList rendered = QDir(dir_.path()).entryList({QStringLiteral("render-%1*.png").arg(int(page))});
        QCOMPARE(rendered.size(), info.pages);
        for (const QString& png : rendered)
            QVERIFY(QFileInfo(dir_.filePath(png)).size() > 100);
    }

    void pagination_data()
    {
        QTest::addColumn<int>("instructions");
        QTest::addRow("50") << 50;
        QTest::addRow("600") << 600;
        QTest::addRow("2500") << 2500;
    }
    void pagination()
    {
        QFETCH(int, instructions);
        const QString source = syntheticKernel(instructions);
        const Analysis analysis = analyze(source);
        QVERIFY(!analysis.program.hasErrors());
        const QString pdf = write(analysis, source, QStringLiteral("big%1.pdf").arg(instructions));
        QVERIFY(!pdf.isEmpty());
        const PdfInfo info = pdfInfo(pdf);
        // No line is lost or repeated across page breaks: each instruction line (6 … 5 + n) is listed.
        const std::set<int> listed = listedLineNumbers(pdfText(pdf));
        QCOMPARE(int(listed.size()), instructions + 1); // + s_endpgm
        QCOMPARE(*listed.begin(), 6);
        QCOMPARE(*listed.rbegin(), 6 + instructions);
        // Page count grows with the listing: an A4 page holds 732 − header row points of 7-pt
        // monospace rows (line spacing about 8.2 pt), so between 60 and 100 rows per page.
        const int sourceLines = instructions + 6;
        // + the register-pressure and checks pages (issues #16, #17).
        QVERIFY2(info.pages >= 2 + (sourceLines + 99) / 100 && info.pages <= 6 + (sourceLines + 59) / 60,
                 qPrintable(QString::number(info.pages)));
        pages_[instructions] = info.pages;
        if (instructions == 2500) {
            QVERIFY(pages_[50] < pages_[600]);
            QVERIFY(pages_[600] < pages_[2500]);
        }
    }

    void structure_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addRow("gfx6") << QStringLiteral("tahiti");
        QTest::addRow("gfx9") << QStringLiteral("gfx900");
    }
    // Two kernels, a macro and a .rept (several instructions on one source line) and a line far
    // longer than the listing's source column.
    void structure()
    {
        QFETCH(QString, gpu);
        const QString longComment = QStringLiteral("// ") + QString(600, QLatin1Char('x')) + QStringLiteral("TAILMARK");
        const QString source =
            QStringLiteral(".text\n.macro addlit reg\n    v_add_f32 \\reg, 0x40490fdb, \\reg\n    v_mov_b32 \\reg, 1.0\n.endm\n"
                           ".globl first\n.p2align 8\n.type first,@function\nfirst:\n"
                           "    .rept 3\n    v_mov_b32 v1, v2\n    .endr\n"
                           "    addlit v3\n    s_endpgm\n"
                           ".globl second\n.p2align 8\n.type second,@function\nsecond:\n"
                           "    v_mov_b32 v1, v2 %1\n    s_endpgm\n")
                .arg(longComment);
        const Analysis analysis = analyze(source, gpu);
        QVERIFY2(!analysis.program.hasErrors(),
                 analysis.program.diagnostics.empty() ? "" : analysis.program.diagnostics.front().message.c_str());
        QCOMPARE(analysis.program.kernels.size(), std::size_t(2));
        const QString pdf = write(analysis, source, QStringLiteral("structure-%1.pdf").arg(gpu));
        QVERIFY(!pdf.isEmpty());
        const QString text = pdfText(pdf);

        // Every instruction has exactly one row with offset, slot and size: a source row (with its
        // line number) or a "↳" row for the further instructions of an expanded line.
        // (Sizes above 9 bytes, the alignment padding between the kernels, show as "…".)
        static const QRegularExpression numbersRow(QStringLiteral("^\\s*(\\d+\\s+)?0x[0-9a-f]{4,}\\s+[0-7]\\s+(4|8|…)\\s"));
        int rows = 0;
        int expansionRows = 0;
        for (const QString& line : text.split(QLatin1Char('\n'))) {
            if (numbersRow.match(line).hasMatch()) {
                ++rows;
                expansionRows += line.contains(QStringLiteral("↳")) ? 1 : 0;
            }
        }
        QCOMPARE(rows, int(analysis.program.instructions.size()));
        int expected = 0;
        for (const auto& [line, indices] : analysis.program.lineToInstructions)
            expected += int(indices.size()) - 1;
        QCOMPARE(expansionRows, expected);
        QVERIFY(expected >= 1); // the macro line holds two instructions

        // Both kernels and the whole file in the totals.
        QVERIFY(text.contains(
            QRegularExpression(QStringLiteral("first\\s+%1\\s").arg(analysis.timing.kernelTotals[0].instructions))));
        QVERIFY(text.contains(
            QRegularExpression(QStringLiteral("second\\s+%1\\s").arg(analysis.timing.kernelTotals[1].instructions))));
        QVERIFY(
            text.contains(QRegularExpression(QStringLiteral("whole file\\s+%1\\s").arg(analysis.timing.totals.instructions))));
        QVERIFY(text.contains(QStringLiteral("Occupancy and resources: first")));
        QVERIFY(text.contains(QStringLiteral("Occupancy and resources: second")));
        QVERIFY(text.contains(QString::fromLatin1(generationName(analysis.program.gpu.generation))));

        // The long line wraps onto continuation lines ("↪") and is elided ("…") before its end.
        QVERIFY(text.contains(QStringLiteral("↪ xxxx")));
        QVERIFY(text.contains(QStringLiteral("x…")));
        QVERIFY(!text.contains(QStringLiteral("TAILMARK")));
    }

    // Issues #16 and #17: the register-pressure page (the peak and what it costs, the graph with
    // its peak label), the checks page (a row per finding: rule, consumer and producer lines,
    // waits, fix) and the listing's live column and finding rules, on a kernel with a known
    // hazard, s_waitcnt finding and pressure peak. Expected texts come from core's result.
    void pressureAndChecks()
    {
        const QString source = gcnlens::test::readFile(gcnlens::test::testData("data/checks/views-gfx900.s"));
        const Analysis analysis = analyze(source, QStringLiteral("gfx900"));
        QVERIFY(!analysis.program.hasErrors());
        QVERIFY(!analysis.checks.hazards.empty() && !analysis.checks.waits.empty());
        const QString pdf = write(analysis, source, QStringLiteral("pressure-checks.pdf"));
        QVERIFY(!pdf.isEmpty());
        const QString text = pdfText(pdf);
        const KernelPressure& k = analysis.liveness.kernels.at(0);
        QVERIFY(text.contains(QStringLiteral("Register pressure")));
        QVERIFY(text.contains(QStringLiteral("%1 VGPRs at line %2").arg(k.vgpr.count).arg(k.vgpr.line)));
        for (const PressureCost& cost :
             pressureCosts(analysis.program.gpu, analysis.occupancyInputs[0], k, analysis.timing.options))
            QVERIFY2(text.contains(QString::fromStdString(cost.text)), cost.text.c_str());
        QVERIFY(text.contains(QStringLiteral("peak: line %1, %2 VGPRs").arg(k.vgpr.line).arg(k.vgpr.count)));

        QVERIFY(text.contains(QStringLiteral("Checks: wait-state hazards and s_waitcnt")));
        QVERIFY(text.contains(QStringLiteral("%1 hazard(s), %2 s_waitcnt finding(s).")
                                  .arg(analysis.checks.hazards.size())
                                  .arg(analysis.checks.waits.size())));
        for (const HazardFinding& h : analysis.checks.hazards) {
            const QRegularExpression row(QStringLiteral("%1\\s+%2\\s+%3\\s+%4 of %5\\s+%6")
                                             .arg(QRegularExpression::escape(QString::fromStdString(h.rule)))
                                             .arg(h.line)
                                             .arg(h.producerLine)
                                             .arg(h.present)
                                             .arg(h.required)
                                             .arg(QRegularExpression::escape(QString::fromStdString(h.fix))));
            QVERIFY2(text.contains(row), qPrintable(row.pattern()));
        }
        for (const WaitcntFinding& w : analysis.checks.waits) {
            const QRegularExpression row(QStringLiteral("%1\\s+%2\\s+%3\\s+%4\\(%5\\)%6\\s+%7")
                                             .arg(QRegularExpression::escape(QString::fromStdString(w.rule)))
                                             .arg(w.line)
                                             .arg(w.producerLine)
                                             .arg(QString::fromStdString(w.counter))
                                             .arg(w.count)
                                             .arg(w.notGuaranteed ? QStringLiteral(" n.g.") : QString())
                                             .arg(QRegularExpression::escape(QString::fromStdString(w.fix))));
            QVERIFY2(text.contains(row), qPrintable(row.pattern()));
        }

        // The listing: the consumer's row names the rule, the next row its fix; the peak line
        // shows its live counts.
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (const HazardFinding& h : analysis.checks.hazards) {
            const QRegularExpression consumer(QStringLiteral("^\\s*%1\\s+0x.*%2\\s*$")
                                                  .arg(h.line)
                                                  .arg(QRegularExpression::escape(QString::fromStdString(h.rule))));
            qsizetype at = -1;
            for (qsizetype i = 0; i < lines.size() && at < 0; ++i)
                if (consumer.match(lines[i]).hasMatch())
                    at = i;
            QVERIFY2(at >= 0, qPrintable(consumer.pattern()));
            QVERIFY2(lines.value(at + 1).trimmed().endsWith(QString::fromStdString(h.fix)), qPrintable(lines.value(at + 1)));
        }
        const QString peakLive =
            QStringLiteral("%1v %2s").arg(k.vgpr.count).arg(analysis.liveness.instructions[std::size_t(k.vgpr.instruction)].sgpr);
        QVERIFY(text.contains(QRegularExpression(QStringLiteral("^\\s*%1\\s+0x[0-9a-f]+.*%2").arg(k.vgpr.line).arg(peakLive),
                                                 QRegularExpression::MultilineOption)));
    }

    void assemblerErrors()
    {
        const QString source = QStringLiteral(".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n"
                                              "    v_mov_b32 v1, v2\n    v_bogus_op v1, v2\n    s_endpgm\n");
        const Analysis analysis = analyze(source);
        QVERIFY(analysis.program.hasErrors());
        const QString pdf = write(analysis, source, QStringLiteral("errors.pdf"));
        QVERIFY(!pdf.isEmpty());
        const QString first = pdfText(pdf, 1, 1);
        QVERIFY(first.contains(QStringLiteral("Assembler errors")));
        for (const Diagnostic& d : analysis.program.diagnostics) {
            if (d.severity != Severity::Error)
                continue;
            QVERIFY(first.contains(QStringLiteral("line %1:").arg(d.line)));
            // The message's first words (the rest may wrap).
            QVERIFY(first.contains(QString::fromStdString(d.message).left(20)));
        }
    }

    void unwritable_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addRow("missing directory") << QStringLiteral("/nonexistent-gcnlens-dir/report.pdf");
        QTest::addRow("a directory") << QDir::tempPath();
        QTest::addRow("empty") << QString();
    }
    void unwritable()
    {
        QFETCH(QString, path);
        const QString source = syntheticKernel(3);
        const Analysis analysis = analyze(source);
        QString error;
        QVERIFY(!writeReport(path, analysis, source, ReportOptions {}, &error));
        QVERIFY(!error.isEmpty());
        if (!path.isEmpty())
            QVERIFY2(error.contains(path), qPrintable(error));
    }

    void modelOptions()
    {
        // Options that differ from the section 9 defaults are named in the title block, and only those.
        const QString source = syntheticKernel(3);
        AnalysisRequest request;
        request.assemble.fileName = "kernel.s";
        QVERIFY(request.timing.set("taken-branch-cycles", "24").empty());
        QVERIFY(request.timing.set("pair-rule", "same-quad").empty());
        const Analysis analysis = runAnalysis(source.toStdString(), request);
        const QString pdf = write(analysis, source, QStringLiteral("options.pdf"));
        QVERIFY(!pdf.isEmpty());
        const QString first = pdfText(pdf, 1, 1);
        QVERIFY(
            first.contains(QRegularExpression(QStringLiteral("Model options\\s+taken-branch-cycles=24, pair-rule=same-quad|"
                                                             "Model options\\s+pair-rule=same-quad, taken-branch-cycles=24"))));
        QVERIFY(!first.contains(QStringLiteral("long-rule=")));
        const QString defaults = pdfText(write(analyze(source), source, QStringLiteral("defaults.pdf")), 1, 1);
        QVERIFY(defaults.contains(QRegularExpression(QStringLiteral("Model options\\s+defaults"))));
    }

    void typedPattern()
    {
        const QString source = syntheticKernel(3);
        const Analysis analysis = analyze(source);
        ReportOptions options;
        // lane * 128 bytes: every lane on bank 0 in a distinct row, so a 32-lane group has degree 32
        // (timing-model.md section 7).
        options.patternText = QStringLiteral("lane * 128");
        options.patternOp = QStringLiteral("b32");
        const QString pdf = write(analysis, source, QStringLiteral("pattern.pdf"), options);
        QVERIFY(!pdf.isEmpty());
        const QString text = pdfText(pdf);
        QVERIFY(text.contains(QStringLiteral("Typed pattern: lane * 128 (b32)")));
        const QString section = text.mid(text.indexOf(QStringLiteral("Typed pattern")), 400);
        QVERIFY2(section.contains(QStringLiteral("Conflict degree 32")), qPrintable(section));
    }

    void cli_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrContains");
        QTest::addColumn<QString>("pageSize");
        const QString example = gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s");
        QTest::addRow("a4") << QStringList {example, QStringLiteral("-o"), QStringLiteral("@out")} << 0 << QString()
                            << QStringLiteral("595 x 842");
        QTest::addRow("letter") << QStringList {example, QStringLiteral("-o"), QStringLiteral("@out"), QStringLiteral("--page"),
                                                QStringLiteral("letter")}
                                << 0 << QString() << QStringLiteral("612 x 792");
        QTest::addRow("gpu and option") << QStringList {example,
                                                        QStringLiteral("--gpu"),
                                                        QStringLiteral("hawaii"),
                                                        QStringLiteral("--option"),
                                                        QStringLiteral("taken-branch-cycles=24"),
                                                        QStringLiteral("-o"),
                                                        QStringLiteral("@out")}
                                        << 0 << QString() << QStringLiteral("595 x 842");
        QTest::addRow("missing input") << QStringList {QStringLiteral("/nonexistent/k.s"), QStringLiteral("-o"),
                                                       QStringLiteral("@out")}
                                       << 2 << QStringLiteral("no such file") << QString();
        QTest::addRow("unwritable output") << QStringList {example, QStringLiteral("-o"),
                                                           QStringLiteral("/nonexistent-gcnlens-dir/r.pdf")}
                                           << 2 << QStringLiteral("cannot write /nonexistent-gcnlens-dir/r.pdf") << QString();
        QTest::addRow("no output") << QStringList {example} << 2 << QStringLiteral("-o OUT.pdf") << QString();
        QTest::addRow("bad page") << QStringList {example, QStringLiteral("-o"), QStringLiteral("@out"), QStringLiteral("--page"),
                                                  QStringLiteral("a3")}
                                  << 2 << QStringLiteral("a4 or letter") << QString();
        QTest::addRow("output is a directory") << QStringList {example, QStringLiteral("-o"), dir_.path()} << 2
                                               << QStringLiteral("cannot write %1").arg(dir_.path()) << QString();
        QTest::addRow("output is the input") << QStringList {QStringLiteral("@bad"), QStringLiteral("-o"), QStringLiteral("@bad")}
                                             << 2 << QStringLiteral("is the input file") << QString();
        QTest::addRow("-o without value") << QStringList {example, QStringLiteral("-o")} << 2
                                          << QStringLiteral("report: -o needs a value") << QString();
        QTest::addRow("--json") << QStringList {example, QStringLiteral("-o"), QStringLiteral("@out"), QStringLiteral("--json")}
                                << 2 << QStringLiteral("report: --json: does not apply") << QString();
        QTest::addRow("directory input") << QStringList {gcnlens::test::sourcePath("resources/examples"), QStringLiteral("-o"),
                                                         QStringLiteral("@out")}
                                         << 2 << QStringLiteral("examples: is a directory") << QString();
        QTest::addRow("bad --defsym") << QStringList {example, QStringLiteral("--defsym"), QStringLiteral("N=x"),
                                                      QStringLiteral("-o"), QStringLiteral("@out")}
                                      << 2 << QStringLiteral("--defsym 'N=x'") << QString();
        QTest::addRow("assembler errors") << QStringList {QStringLiteral("@bad"), QStringLiteral("-o"), QStringLiteral("@out")}
                                          << 1 << QStringLiteral("lists them on its first page") << QStringLiteral("595 x 842");
    }
    void cli()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrContains);
        QFETCH(QString, pageSize);
        const QString out =
            dir_.filePath(QStringLiteral("cli-%1.pdf")
                              .arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'))));
        const QString bad = dir_.filePath(QStringLiteral("bad.s"));
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(".text\n.globl k\n.p2align 8\nk:\n    v_bogus_op v1\n    s_endpgm\n");
        }
        for (QString& a : args) {
            if (a == QLatin1String("@out"))
                a = out;
            else if (a == QLatin1String("@bad"))
                a = bad;
        }
        const CliRun run = runCli(QStringList {QStringLiteral("report")} + args);
        const QString& err = run.err;
        QCOMPARE(run.exitCode, exitCode);
        if (!stderrContains.isEmpty())
            QVERIFY2(err.contains(stderrContains), qPrintable(err));
        if (pageSize.isEmpty()) {
            QVERIFY(!QFile::exists(out));
        } else {
            QVERIFY2(pdfInfo(out).pageSize.startsWith(pageSize), qPrintable(err));
        }
    }

    // "-" as FILE reads the kernel from standard input, "-o -" writes the PDF to standard output;
    // either way the report is the file's (the same listing), named <stdin> when read from stdin.
    void cliStandardStreams_data()
    {
        QTest::addColumn<bool>("fromStdin");
        QTest::addColumn<bool>("toStdout");
        QTest::addRow("stdin to file") << true << false;
        QTest::addRow("stdin to stdout") << true << true;
        QTest::addRow("file to stdout") << false << true;
    }
    void cliStandardStreams()
    {
        QFETCH(bool, fromStdin);
        QFETCH(bool, toStdout);
        const QString example = gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s");
        const QString out = dir_.filePath(QStringLiteral("streams-%1%2.pdf").arg(int(fromStdin)).arg(int(toStdout)));
        const QString source = gcnlens::test::readFile(example);
        QVERIFY(!source.isEmpty());
        const CliRun run = runCli({QStringLiteral("report"), fromStdin ? QStringLiteral("-") : example, QStringLiteral("-o"),
                                   toStdout ? QStringLiteral("-") : out},
                                  fromStdin ? source.toUtf8() : QByteArray());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        if (toStdout) {
            QVERIFY(run.out.startsWith("%PDF-"));
            QFile file(out);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(run.out);
        } else {
            QVERIFY(run.out.isEmpty());
        }
        QVERIFY(pdfInfo(out).pageSize.startsWith(QStringLiteral("595 x 842")));
        const QString text = pdfText(out);
        QVERIFY(text.contains(fromStdin ? QStringLiteral("<stdin>") : QStringLiteral("saxpy-gfx6.s")));
        // The listing is the source's: the rows list every instruction line of the example.
        const Analysis analysis = analyze(source);
        QVERIFY(!analysis.program.instructions.empty());
        const std::set<int> listed = listedLineNumbers(text);
        for (const Instruction& inst : analysis.program.instructions)
            QVERIFY2(listed.count(inst.line), qPrintable(QStringLiteral("line %1 not listed").arg(inst.line)));
    }

    void cliHelp()
    {
        const CliRun run = runCli({QStringLiteral("report"), QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        const QString out = QString::fromUtf8(run.out);
        QVERIFY2(out.startsWith(QStringLiteral("usage: gcnlens-cli report")), qPrintable(out));
        for (const char* option : {"FILE", "-o, --output OUT.pdf", "--page a4|letter", "--gpu", "-I DIR", "--defsym", "--option"})
            QVERIFY2(out.contains(QLatin1String(option)), option);
        QVERIFY(!out.contains(QLatin1String("--json"))); // refused, so not offered
    }

private:
    std::map<int, int> pages_;
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
