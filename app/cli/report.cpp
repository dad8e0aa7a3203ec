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

int reportCommand(const QStringList& args)
{
    SourceArgs source;
    AnalysisRequest request;
    QString output;
    QPageSize pageSize(QPageSize::A4);
    OptionParser parser(QStringLiteral("report"));
    parser.addSource(source);
    parser.addTimingOptions(request.timing);
    parser.addString({QStringLiteral("-o"), QStringLiteral("--output")}, QStringLiteral("OUT.pdf"),
                     QStringLiteral("the PDF to write; - writes it to standard output"), &output);
    parser.addValue({QStringLiteral("--page")}, QStringLiteral("a4|letter"), QStringLiteral("page size (default a4)"),
                    [&pageSize](const QString& value) {
                        if (value.compare(QLatin1String("a4"), Qt::CaseInsensitive) == 0)
                            pageSize = QPageSize(QPageSize::A4);
                        else if (value.compare(QLatin1String("letter"), Qt::CaseInsensitive) == 0)
                            pageSize = QPageSize(QPageSize::Letter);
                        else
                            return QStringLiteral("takes a4 or letter");
                        return QString();
                    });
    // The window's state, so that its export and this command make the same report.
    parser.addBranchOverrides(request.branches);
    QString kernel;
    std::optional<int> panel[5]; // vgprs, agprs, sgprs, lds, workgroup: the occupancy panel's values
    parser.addString({QStringLiteral("--kernel")}, QStringLiteral("NAME"),
                     QStringLiteral("the kernel the occupancy values below are for (default: the first)"), &kernel);
    const char* const panelNames[5][2] = {{"--vgprs", "VGPRs per lane"},
                                          {"--agprs", "AGPRs per lane"},
                                          {"--sgprs", "SGPRs per wave"},
                                          {"--lds", "LDS bytes per workgroup"},
                                          {"--workgroup", "work-items per workgroup"}};
    for (int i = 0; i < 5; ++i)
        parser.addValue({QLatin1String(panelNames[i][0])}, i == 3 ? QStringLiteral("BYTES") : QStringLiteral("N"),
                        QStringLiteral("occupancy at this many %1 instead of the kernel's").arg(QLatin1String(panelNames[i][1])),
                        [&panel, i](const QString& value) {
                            bool ok = false;
                            const int v = value.toInt(&ok);
                            if (!ok || v < 0)
                                return QStringLiteral("takes a whole number");
                            panel[i] = v;
                            return QString();
                        });
    ReportOptions options;
    parser.addString({QStringLiteral("--pattern")}, QStringLiteral("EXPR"),
                     QStringLiteral("also show the LDS heatmap of this lane address pattern (as `lds --pattern`)"),
                     &options.patternText);
    parser.addString({QStringLiteral("--op"), QStringLiteral("--width")}, QStringLiteral("BYTES|NAME"),
                     QStringLiteral("the pattern's access width or DS op name (default b32)"), &options.patternOp);
    parser.addPatternParameters(options.patternParameters);
    parser.addRefused(QStringLiteral("--json"), QStringLiteral("does not apply; the report is a PDF (use analyze --json)"));
    parser.setRequired(QStringLiteral("-o"));
    if (const auto status = parser.parse(args))
        return *status;
    const bool toStdout = output == QLatin1String("-");
    // Writing the PDF over the kernel it reports on destroys the source: refuse before anything.
    if (!toStdout && source.file != QLatin1String("-") && QFileInfo::exists(output)
        && QFileInfo(output).canonicalFilePath() == QFileInfo(source.file).canonicalFilePath()) {
        printError(QStringLiteral("report: -o '%1' is the input file").arg(output));
        return ExitUsage;
    }

    Analysis analysis;
    QString text;
    if (!loadAnalysis(source, request, analysis, &text))
        return ExitUsage;

    const auto app = ensureGuiApplication();
    if (std::any_of(std::begin(panel), std::end(panel), [](const auto& v) { return v.has_value(); })) {
        int k = 0;
        while (!kernel.isEmpty() && k < int(analysis.program.kernels.size())
               && analysis.program.kernels[std::size_t(k)].name != kernel.toStdString())
            ++k;
        if (k >= int(analysis.occupancyInputs.size())) {
            printError(kernel.isEmpty() ? QStringLiteral("report: no kernel for the occupancy values")
                                        : QStringLiteral("report: --kernel '%1': no such kernel").arg(kernel));
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
    options.sourceName = inputName(source);
    // QPdfWriter writes to a file: for standard output, write a temporary one and copy it out.
    QTemporaryDir temporary;
    const QString path = toStdout ? temporary.filePath(QStringLiteral("report.pdf")) : output;
    if (toStdout && !temporary.isValid()) {
        printError(QStringLiteral("report: no temporary folder for the PDF: %1").arg(temporary.errorString()));
        return ExitUsage;
    }
    QString error;
    if (!writeReport(path, analysis, text, options, &error)) {
        printError(QStringLiteral("report: %1").arg(error));
        return ExitUsage;
    }
    if (toStdout) {
        QFile pdf(path);
        if (!pdf.open(QIODevice::ReadOnly)) {
            printError(QStringLiteral("report: %1: cannot open: %2").arg(path, pdf.errorString()));
            return ExitUsage;
        }
        const QByteArray bytes = pdf.readAll();
        std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout); // run() checks the write
    }

    if (const int errors = printDiagnostics(source, analysis.program); errors > 0) {
        printError(QStringLiteral("%1 assembler error(s); %2 lists them on its first page")
                       .arg(errors)
                       .arg(toStdout ? QStringLiteral("the report") : output));
        return ExitInputErrors;
    }
    return ExitOk;
}

} // namespace gcnlens::cli
