// SPDX-License-Identifier: MIT
// The annotated PDF report (issue #6): title block, summary, occupancy charts, the annotated
// listing, LDS heatmaps and the rule legend, painted as vectors and real text into a QPdfWriter.
// Used by the window (File → Export Report…) and by `gcnlens-cli report`. Needs a QGuiApplication
// (fonts); the offscreen platform is enough.
#pragma once

#include "core/analysis.h"

#include <QDateTime>
#include <QPageSize>
#include <QString>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace gcnlens {

struct ReportOptions {
    QPageSize pageSize = QPageSize(QPageSize::A4);
    QString sourceName; // shown in the title and page headers ("kernel.s"); empty: "<input>"
    // A typed LDS pattern from the window's LDS panel (optional): analysed with analyzeLdsPattern()
    // and shown before the per-instruction heatmaps.
    QString patternText;
    QString patternOp = QStringLiteral("b32"); // op name or width in bytes, as analyzeLdsPattern takes it
    std::map<std::string, std::int64_t> patternParameters;
    QDateTime date; // invalid: reportDate()
    // The occupancy panel's slider values for one kernel (the window's what-if): shown beside the
    // kernel's own figures, and the charts drawn at them. Unset, or equal to the kernel's own
    // input: the kernel's figures only.
    struct OccupancyValues {
        int kernel = 0;
        OccupancyInput input;
    };
    std::optional<OccupancyValues> occupancy;
    // Called from the writing thread now and then with the share done (0–100); returning false
    // cancels: writeReport() returns false saying "cancelled" and leaves no file behind.
    std::function<bool(int percent)> progress;
};

// Writes the report to `path`. On failure returns false and says why in *error (unwritable path,
// nothing to report); a program with assembler errors still yields a report that lists them first.
bool writeReport(const QString& path, const gcnlens::Analysis& analysis, const QString& sourceText, const ReportOptions& options,
                 QString* error = nullptr);

// The gcnlens version the report states (PROJECT_VERSION).
QString reportVersion();
// The date a report states when ReportOptions::date is unset: $SOURCE_DATE_EPOCH if set, else now.
QDateTime reportDate();

} // namespace gcnlens
