// SPDX-License-Identifier: MIT
// bench_report [LINES] [OUT_DIR]: the time to write the PDF report (issue #6) of a generated kernel
// of LINES source lines (default 10 000; goal under 3 s), printed with the page count. Also writes
// the bundled example's report to OUT_DIR when given, for looking at the pages.
#include "core/analysis.h"
#include "ui/report/reportwriter.h"

#include "benchmemory.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QTemporaryDir>

#include <cstdio>

using namespace gcnlens;

namespace {

// A realistic mix: labels, comments, a backward loop branch, 2-dword literals at varied slots,
// DS accesses, long commented lines that wrap.
QString generatedKernel(int lines)
{
    QString s = QStringLiteral(".text\n.globl big\n.p2align 8\n.type big,@function\nbig:\n"
                               "    v_lshlrev_b32 v1, 2, v0\n");
    int line = 6;
    int loop = 0;
    while (line < lines - 1) {
        const int k = line % 16;
        if (k == 0) {
            s += QStringLiteral("loop%1:  // unrolled body %1\n").arg(loop);
        } else if (k == 5) {
            s +=
                QStringLiteral("    v_add_f32 v2, 0x40490fdb, v2          // 2-dword literal (pi), a comment long enough to wrap "
                               "past the source column of the listing in the report\n");
        } else if (k == 9) {
            s += QStringLiteral("    ds_read_b32 v3, v1\n");
        } else if (k == 12) {
            s += QStringLiteral("    s_sub_u32 s9, s9, 1\n");
        } else if (k == 13) {
            s += QStringLiteral("    s_cmp_lg_u32 s9, 0\n");
        } else if (k == 14) {
            s += QStringLiteral("    s_cbranch_scc1 loop%1\n").arg(loop++);
        } else {
            s += QStringLiteral("    v_mul_f32 v%1, v2, v3\n").arg(4 + k % 8);
        }
        ++line;
    }
    s += QStringLiteral("    s_endpgm\n");
    return s;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int lines = args.size() > 1 ? args[1].toInt() : 10000;
    QTemporaryDir tmp;
    const QString outDir = args.size() > 2 ? args[2] : tmp.path();
    QDir().mkpath(outDir);

    const QString source = generatedKernel(lines);
    AnalysisRequest request;
    request.assemble.fileName = "generated.s";
    QElapsedTimer timer;
    gcnlens::bench::resetPeakRss();
    timer.start();
    const Analysis analysis = runAnalysis(source.toStdString(), request);
    const qint64 analysisMs = timer.elapsed();
    const double analysisMiB = gcnlens::bench::megabytes(gcnlens::bench::peakRssBytes());
    gcnlens::bench::resetPeakRss();

    ReportOptions options;
    options.sourceName = QStringLiteral("generated.s");
    const QString path = QDir(outDir).filePath(QStringLiteral("generated-%1.pdf").arg(lines));
    QString error;
    timer.restart();
    if (!writeReport(path, analysis, source, options, &error)) {
        std::fprintf(stderr, "bench_report: %s\n", qPrintable(error));
        return 1;
    }
    const qint64 reportMs = timer.elapsed();
    std::printf("report: %d source lines, %zu instructions: analysis %lld ms (peak %.0f MiB), report %lld ms (goal < 3000 ms, "
                "peak %.0f MiB), PDF %lld KiB\n",
                lines, analysis.program.instructions.size(), analysisMs, analysisMiB, reportMs,
                gcnlens::bench::megabytes(gcnlens::bench::peakRssBytes()), QFileInfo(path).size() / 1024);

    if (args.size() > 2) {
        const QString example = QStringLiteral(GCNLENS_SOURCE_DIR "/resources/examples/saxpy-gfx6.s");
        QFile f(example);
        if (f.open(QIODevice::ReadOnly)) {
            const QString text = QString::fromUtf8(f.readAll());
            AnalysisRequest r;
            r.assemble.fileName = "saxpy-gfx6.s";
            ReportOptions o;
            o.sourceName = QStringLiteral("saxpy-gfx6.s");
            writeReport(QDir(outDir).filePath(QStringLiteral("saxpy.pdf")), runAnalysis(text.toStdString(), r), text, o, &error);
        }
    }
    return 0;
}
