// SPDX-License-Identifier: MIT
// gcnlens-cli report FILE -o OUT.pdf [--gpu NAME] [-I DIR]… [--defsym N=V]… [--option NAME=VALUE]…
//                    [--page a4|letter] [--taken LINE]… [--not-taken LINE]…
//                    [--kernel NAME] [--vgprs N] [--agprs N] [--sgprs N] [--lds BYTES] [--workgroup N]
//                    [--pattern EXPR [--op BYTES|NAME] [--set NAME=VALUE]…]
// The annotated PDF report of issue #6, the same one the window exports: what the window takes
// from its panels (branch directions, the occupancy sliders, the LDS pattern) are options here.
// FILE and OUT.pdf may be "-" (standard input / output).
#include "commands.h"

#include "core/analysis.h"
#include "ui/report/reportwriter.h"

#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <format>
#include <memory>

namespace gcnlens::cli {

namespace {

// The report paints text, so it needs a QGuiApplication (fonts), but never a window: when the user
// has not chosen a platform, use the offscreen one, so the command works without a display and
// never depends on a display server (an unreachable $DISPLAY would otherwise abort).
std::unique_ptr<QGuiApplication> ensureGuiApplication()
{
    if (QCoreApplication::instance())
        return nullptr;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "gcnlens-cli";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QGuiApplication>(argc, argv);
}

} // namespace

int reportCommand(const Args& args)
{
    SourceArgs source;
    AnalysisRequest request;
    std::string output;
    QPageSize pageSize(QPageSize::A4);
    OptionParser parser("report");
    parser.addSource(source);
    parser.addTimingOptions(request.timing);
    parser.addString({"-o", "--output"}, "OUT.pdf", "the PDF to write; - writes it to standard output", &output);
    parser.addValue({"--page"}, "a4|letter", "page size (default a4)", [&pageSize](const std::string& value) {
        const QString size = QString::fromStdString(value);
        if (size.compare(QLatin1String("a4"), Qt::CaseInsensitive) == 0)
            pageSize = QPageSize(QPageSize::A4);
        else if (size.compare(QLatin1String("letter"), Qt::CaseInsensitive) == 0)
            pageSize = QPageSize(QPageSize::Letter);
        else
            return std::string("takes a4 or letter");
        return std::string();
    });
    // The window's state, so that its export and this command make the same report.
    parser.addBranchOverrides(request.branches);
    std::string kernel;
    std::optional<int> panel[5]; // vgprs, agprs, sgprs, lds, workgroup: the occupancy panel's values
    parser.addString({"--kernel"}, "NAME", "the kernel the occupancy values below are for (default: the first)", &kernel);
    const char* const panelNames[5][2] = {{"--vgprs", "VGPRs per lane"},
                                          {"--agprs", "AGPRs per lane"},
                                          {"--sgprs", "SGPRs per wave"},
                                          {"--lds", "LDS bytes per workgroup"},
                                          {"--workgroup", "work-items per workgroup"}};
    for (int i = 0; i < 5; ++i)
        parser.addValue({panelNames[i][0]}, i == 3 ? "BYTES" : "N",
                        std::string("occupancy at this many ") + panelNames[i][1] + " instead of the kernel's",
                        [&panel, i](const std::string& value) {
                            const auto v = parseInt(value);
                            if (!v || *v < 0)
                                return std::string("takes a whole number");
                            panel[i] = *v;
                            return std::string();
                        });
    ReportOptions options;
    std::string patternText, patternOp = options.patternOp.toStdString();
    parser.addString({"--pattern"}, "EXPR", "also show the LDS heatmap of this lane address pattern (as `lds --pattern`)",
                     &patternText);
    parser.addString({"--op", "--width"}, "BYTES|NAME", "the pattern's access width or DS op name (default b32)", &patternOp);
    parser.addPatternParameters(options.patternParameters);
    parser.addRefused("--json", "does not apply; the report is a PDF (use analyze --json)");
    parser.setRequired("-o");
    if (const auto status = parser.parse(args))
        return *status;
    options.patternText = QString::fromStdString(patternText);
    options.patternOp = QString::fromStdString(patternOp);
    const bool toStdout = output == "-";
    const QString outputPath = QFile::decodeName(output.c_str());
    const QString inputPath = QFile::decodeName(source.file.c_str());
    // Writing the PDF over the kernel it reports on destroys the source: refuse before anything.
    if (!toStdout && source.file != "-" && QFileInfo::exists(outputPath)
        && QFileInfo(outputPath).canonicalFilePath() == QFileInfo(inputPath).canonicalFilePath()) {
        printError("report: -o '" + output + "' is the input file");
        return ExitUsage;
    }

    Analysis analysis;
    std::string text;
    if (!loadAnalysis(source, request, analysis, &text))
        return ExitUsage;

    const auto app = ensureGuiApplication();
    if (std::any_of(std::begin(panel), std::end(panel), [](const auto& v) { return v.has_value(); })) {
        int k = 0;
        while (!kernel.empty() && k < int(analysis.program.kernels.size())
               && analysis.program.kernels[std::size_t(k)].name != kernel)
            ++k;
        if (k >= int(analysis.occupancyInputs.size())) {
            printError(kernel.empty() ? std::string("report: no kernel for the occupancy values")
                                      : "report: --kernel '" + kernel + "': no such kernel");
            return ExitUsage;
        }
        OccupancyInput in = analysis.occupancyInputs[std::size_t(k)];
        int* const fields[5] = {&in.vgprs, &in.agprs, &in.sgprs, &in.ldsBytes, &in.workgroupSize};
        for (int i = 0; i < 5; ++i)
            if (panel[i])
                *fields[i] = *panel[i];
        options.occupancy = ReportOptions::OccupancyValues {k, in};
    }
    options.pageSize = pageSize;
    options.sourceName = QString::fromStdString(inputName(source));
    // QPdfWriter writes to a file: for standard output, write a temporary one and copy it out.
    QTemporaryDir temporary;
    const QString path = toStdout ? temporary.filePath(QStringLiteral("report.pdf")) : outputPath;
    if (toStdout && !temporary.isValid()) {
        printError("report: no temporary folder for the PDF: " + temporary.errorString().toStdString());
        return ExitUsage;
    }
    QString error;
    if (!writeReport(path, analysis, QString::fromStdString(text), options, &error)) {
        printError("report: " + error.toStdString());
        return ExitUsage;
    }
    if (toStdout) {
        QFile pdf(path);
        if (!pdf.open(QIODevice::ReadOnly)) {
            printError(std::format("report: {}: cannot open: {}", path.toStdString(), pdf.errorString().toStdString()));
            return ExitUsage;
        }
        const QByteArray bytes = pdf.readAll();
        std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout); // run() checks the write
    }

    if (const int errors = printDiagnostics(source, analysis.program); errors > 0) {
        printError(std::format("{} assembler error(s); {} lists them on its first page", errors,
                               toStdout ? std::string("the report") : output));
        return ExitInputErrors;
    }
    return ExitOk;
}

} // namespace gcnlens::cli
