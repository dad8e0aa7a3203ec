// SPDX-License-Identifier: MIT
// The report's document (pages collected, then painted with their running header and footer)
// and writeReport(); the parts are built in the other report*.cpp files (reportbuilder_p.h).
#include "ui/report/reportwriter.h"
#include "ui/report/reportbuilder_p.h"

#include "gcnlens-config.h"

#include <QLoggingCategory>
#include <QSaveFile>
#include <QTimeZone>

Q_LOGGING_CATEGORY(lcReport, "gcnlens.ui.report")

namespace gcnlens {

QString reportVersion()
{
    return QStringLiteral(GCNLENS_VERSION);
}

QDateTime reportDate()
{
    // SOURCE_DATE_EPOCH (reproducible-builds.org) fixes the date, so that two reports of the same
    // inputs are the same (the window's export test compares it with the CLI's).
    bool ok = false;
    const qint64 epoch = qEnvironmentVariable("SOURCE_DATE_EPOCH").toLongLong(&ok);
    return ok ? QDateTime::fromSecsSinceEpoch(epoch, QTimeZone::UTC) : QDateTime::currentDateTime();
}

} // namespace gcnlens

namespace gcnlens::report::detail {

ReportBuilder::ReportBuilder(const Analysis& analysis, const QString& sourceText, const ReportOptions& options,
                             QPaintDevice* device)
    : a_(analysis)
    , options_(options)
    , device_(device)
{
    frame_.page = options.pageSize.size(QPageSize::Point);
    sourceLines_ = sourceText.split(QLatin1Char('\n'));
    if (!sourceLines_.isEmpty() && sourceLines_.back().isEmpty() && sourceText.endsWith(QLatin1Char('\n')))
        sourceLines_.removeLast();
    name_ = options.sourceName.isEmpty() ? QStringLiteral("<input>") : QFileInfo(options.sourceName).fileName();
    date_ = options.date.isValid() ? options.date : reportDate();
    findings_ = ui::findingViews(analysis.checks);
    for (std::size_t i = 0; i < findings_.size(); ++i)
        findingsByInstruction_[findings_[i].key.instruction].push_back(int(i));
}

bool ReportBuilder::build()
{
    buildSummary();
    buildPressure();
    buildChecks();
    if (!buildListing())
        return false;
    buildLdsAndLegend();
    return true;
}

bool ReportBuilder::paint(QPainter& p, QPdfWriter& writer) const
{
    for (int page = 0; page < doc_.pageCount(); ++page) {
        if (!progress(40 + 60 * page / doc_.pageCount()))
            return false;
        if (page > 0)
            writer.newPage();
        paintFrame(p, page);
        for (const auto& op : doc_.ops(page)) {
            p.save();
            op(p);
            p.restore();
        }
    }
    return progress(100);
}

void ReportBuilder::paintFrame(QPainter& p, int page) const
{
    const QRectF header = frame_.headerRect();
    const QRectF footer = frame_.footerRect();
    p.setPen(kMuted);
    p.setFont(fonts_.small);
    p.drawText(header, Qt::AlignLeft | Qt::AlignTop, QStringLiteral("gcnlens report · %1").arg(name_));
    p.drawText(header, Qt::AlignRight | Qt::AlignTop, doc_.section(page));
    p.setPen(QPen(kRule, 0.5));
    p.drawLine(QPointF(header.left(), header.bottom() - 6), QPointF(header.right(), header.bottom() - 6));
    p.drawLine(QPointF(footer.left(), footer.top() + 4), QPointF(footer.right(), footer.top() + 4));
    p.setPen(kMuted);
    p.drawText(footer, Qt::AlignLeft | Qt::AlignBottom,
               QStringLiteral("gcnlens %1 · %2").arg(reportVersion(), date_.toString(Qt::ISODate)));
    p.drawText(footer, Qt::AlignRight | Qt::AlignBottom, QStringLiteral("Page %1 of %2").arg(page + 1).arg(doc_.pageCount()));
}

} // namespace gcnlens::report::detail

namespace gcnlens {

using report::detail::ReportBuilder;

bool writeReport(const QString& path, const Analysis& analysis, const QString& sourceText, const ReportOptions& options,
                 QString* error)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        qCDebug(lcReport).noquote() << message; // the caller shows it
        return false;
    };
    if (path.isEmpty())
        return fail(QStringLiteral("no output file given"));
    if (!options.pageSize.isValid())
        return fail(QStringLiteral("invalid page size"));

    // QSaveFile: an error while writing never leaves a truncated report behind.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    {
        QPdfWriter writer(&file);
        writer.setResolution(72); // device units are PDF points: the layout types work in points
        writer.setPageSize(options.pageSize);
        writer.setPageOrientation(QPageLayout::Portrait);
        writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Point);
        writer.setTitle(QStringLiteral("gcnlens report: %1")
                            .arg(options.sourceName.isEmpty() ? QStringLiteral("<input>") : options.sourceName));
        writer.setCreator(QStringLiteral("gcnlens %1").arg(reportVersion()));

        ReportBuilder builder(analysis, sourceText, options, &writer);
        if (!builder.build()) {
            file.cancelWriting();
            return fail(QStringLiteral("cancelled"));
        }
        QPainter painter;
        if (!painter.begin(&writer)) {
            file.cancelWriting();
            return fail(QStringLiteral("cannot start a PDF painter for %1").arg(path));
        }
        const bool painted = builder.paint(painter, writer);
        painter.end();
        if (!painted) {
            file.cancelWriting();
            return fail(QStringLiteral("cancelled"));
        }
    }
    if (!file.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

} // namespace gcnlens
