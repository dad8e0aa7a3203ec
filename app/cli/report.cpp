// SPDX-License-Identifier: MIT
// gcnlens-cli report FILE -o OUT.pdf [--gpu NAME] [-I DIR]… [--defsym N=V]… [--option NAME=VALUE]…
//                    [--page a4|letter]
// The annotated PDF report of issue #6, the same one the window exports.
#include "commands.h"

#include "core/analysis.h"
#include "ui/report/reportwriter.h"

#include <QFile>
#include <QGuiApplication>

#include <iostream>
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
    CommonArgs common;
    if (!parseCommon(args, common))
        return ExitUsage;
    QString output;
    QPageSize pageSize(QPageSize::A4);
    for (qsizetype i = 0; i < common.rest.size(); ++i) {
        const QString& arg = common.rest[i];
        const bool hasValue = i + 1 < common.rest.size() && !common.rest[i + 1].startsWith(QLatin1Char('-'));
        if (arg == QLatin1String("-o") || arg == QLatin1String("--output")) {
            if (!hasValue) {
                printError(QStringLiteral("report: %1 needs a file name").arg(arg));
                return ExitUsage;
            }
            output = common.rest[++i];
        } else if (arg == QLatin1String("--page")) {
            const QString value = hasValue ? common.rest[++i].toLower() : QString();
            if (value == QLatin1String("a4")) {
                pageSize = QPageSize(QPageSize::A4);
            } else if (value == QLatin1String("letter")) {
                pageSize = QPageSize(QPageSize::Letter);
            } else {
                printError(QStringLiteral("report: --page takes a4 or letter"));
                return ExitUsage;
            }
        } else {
            printError(QStringLiteral("report: unknown option '%1'").arg(arg));
            return ExitUsage;
        }
    }
    if (common.json) {
        printError(QStringLiteral("report: --json does not apply; the report is a PDF (use analyze --json)"));
        return ExitUsage;
    }
    if (output.isEmpty()) {
        printError(QStringLiteral("report: give the output file with -o OUT.pdf"));
        return ExitUsage;
    }
    if (common.file == QLatin1String("-")) {
        // The listing needs the source text, which loadProgram() consumes from standard input.
        printError(QStringLiteral("report: read the kernel from a file, not standard input"));
        return ExitUsage;
    }

    AnalysisRequest request;
    if (!applyOptions(common.options, request.timing))
        return ExitUsage;
    Program program;
    if (!loadProgram(common, program))
        return ExitUsage;
    QFile in(common.file);
    if (!in.open(QIODevice::ReadOnly)) {
        printError(QStringLiteral("%1: cannot open: %2").arg(common.file, in.errorString()));
        return ExitUsage;
    }
    const QString source = QString::fromUtf8(in.readAll());

    const auto app = ensureGuiApplication();
    const Analysis analysis = analyzeProgram(std::move(program), request);
    ReportOptions options;
    options.pageSize = pageSize;
    options.sourceName = common.file;
    QString error;
    if (!writeReport(output, analysis, source, options, &error)) {
        printError(QStringLiteral("report: %1").arg(error));
        return ExitUsage;
    }

    int errors = 0;
    for (const Diagnostic& d : analysis.program.diagnostics) {
        std::cerr << common.file.toStdString() << ":" << d.line << ":" << d.column + 1 << ": "
                  << severityName(d.severity) << ": " << d.message << "\n";
        errors += d.severity == Severity::Error ? 1 : 0;
    }
    if (errors > 0) {
        printError(QStringLiteral("%1 assembler error(s); %2 lists them on its first page").arg(errors).arg(output));
        return ExitInputErrors;
    }
    return ExitOk;
}

} // namespace gcnlens::cli
