// SPDX-License-Identifier: MIT
#include "ui/report/reportwriter.h"

#include "ui/docks/occupancycurvemodel.h"
#include "ui/docks/penaltyrulemodel.h"
#include "ui/editor/syntax.h"
#include "ui/geometry.h"
#include "ui/palette.h"
#include "ui/report/reportlayout.h"

#include <KSyntaxHighlighting/Theme>

#include "gcnlens-config.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QLocale>
#include <QLoggingCategory>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTimeZone>

#include <algorithm>
#include <map>
#include <functional>

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

namespace {

using ui::AnalysisColors;
using report::ChartAxis;
using report::FlowLayout;
using report::ListingPagination;
using report::PageFrame;

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString number(long long value)
{
    // Thousands separators make the totals readable; C locale keeps them predictable for tests.
    return QLocale::c().toString(value);
}

// ---------------------------------------------------------------------------------------------
// Fonts and colours. Sizes are points; the writer runs at 72 dpi so device units are points too.

const QColor kInk(0x20, 0x20, 0x20);
const QColor kMuted(0x70, 0x70, 0x70);
const QColor kRule(0xb0, 0xb0, 0xb0);
const QColor kAccent(0x1f, 0x5f, 0xa8);

struct Fonts {
    QFont title, heading, subheading, body, bold, tableHead, small, mono, monoBold, monoItalic, monoSmall, code;

    Fonts()
    {
        auto make = [](const QString& family, qreal size, bool bold, bool fixed) {
            QFont f(family);
            f.setStyleHint(fixed ? QFont::Monospace : QFont::SansSerif);
            f.setFixedPitch(fixed);
            f.setPointSizeF(size);
            f.setBold(bold);
            // Fractional advances: hinting at 72 dpi would round glyph widths to whole points.
            f.setHintingPreference(QFont::PreferNoHinting);
            f.setKerning(!fixed);
            // No ligatures: a PDF viewer's search and copy see "ﬂ" for a ligated "fl".
            f.setFeature(QFont::Tag("liga"), 0);
            f.setFeature(QFont::Tag("clig"), 0);
            return f;
        };
        const QString sans = QStringLiteral("DejaVu Sans");
        const QString monoFamily = QStringLiteral("DejaVu Sans Mono");
        title = make(sans, 20, true, false);
        heading = make(sans, 13, true, false);
        subheading = make(sans, 10, true, false);
        body = make(sans, 9, false, false);
        bold = make(sans, 9, true, false);
        tableHead = make(sans, 8, true, false);
        small = make(sans, 7, false, false);
        code = make(monoFamily, 8.5, true, true);
        mono = make(monoFamily, 7, false, true);
        monoBold = make(monoFamily, 7, true, true);
        monoItalic = mono;
        monoItalic.setItalic(true);
        monoSmall = make(monoFamily, 5.5, false, true);
    }
};

// ---------------------------------------------------------------------------------------------
// The document: pages of paint operations, collected first so that every footer knows the page
// count, then painted in one pass.

class Document {
public:
    using Op = std::function<void(QPainter&)>;

    int addPage(const QString& section)
    {
        pages_.emplace_back();
        sections_.push_back(section);
        return int(pages_.size()) - 1;
    }
    void add(int page, Op op)
    {
        while (page >= int(pages_.size()))
            addPage(sections_.empty() ? QString() : sections_.back());
        pages_[std::size_t(page)].push_back(std::move(op));
    }
    int pageCount() const { return int(pages_.size()); }
    const std::vector<Op>& ops(int page) const { return pages_[std::size_t(page)]; }
    const QString& section(int page) const { return sections_[std::size_t(page)]; }

private:
    std::vector<std::vector<Op>> pages_;
    std::vector<QString> sections_;
};

// A flowing section: FlowLayout's relative pages mapped onto the document's pages.
class Flow {
public:
    Flow(Document& doc, const QRectF& content, const QString& section)
        : doc_(doc)
        , layout_(content.top(), content.height())
        , section_(section)
        , content_(content)
    {
        firstPage_ = doc_.addPage(section);
    }

    // Places a block and returns its top-left corner on its page, creating the page if needed.
    std::pair<int, QPointF> place(qreal height, qreal spacing = 0)
    {
        const auto placement = layout_.place(height, spacing);
        const int page = firstPage_ + placement.page;
        while (doc_.pageCount() <= page)
            doc_.addPage(section_);
        return {page, QPointF(content_.left(), placement.y)};
    }
    void add(qreal height, qreal spacing, std::function<void(QPainter&, QPointF)> paint)
    {
        const auto [page, at] = place(height, spacing);
        doc_.add(page, [paint = std::move(paint), at](QPainter& p) { paint(p, at); });
    }
    qreal width() const { return content_.width(); }
    qreal remaining() const { return layout_.remaining(); }
    void newPage() { layout_.newPage(); }

private:
    Document& doc_;
    FlowLayout layout_;
    QString section_;
    QRectF content_;
    int firstPage_ = 0;
};

QString expandTabs(const QString& text)
{
    if (!text.contains(QLatin1Char('\t')) && !text.contains(QLatin1Char('\r')))
        return text;
    QString out;
    out.reserve(text.size() + 16);
    for (const QChar c : text) {
        if (c == QLatin1Char('\t')) {
            out.append(QString(8 - out.size() % 8, QLatin1Char(' ')));
        } else if (c != QLatin1Char('\r')) {
            out.append(c);
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------

class ReportBuilder {
public:
    ReportBuilder(const Analysis& analysis, const QString& sourceText, const ReportOptions& options,
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
    }

    // false: cancelled through ReportOptions::progress.
    bool build()
    {
        buildSummary();
        if (!buildListing())
            return false;
        buildLdsAndLegend();
        return true;
    }

    bool paint(QPainter& p, QPdfWriter& writer) const
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

    int pageCount() const { return doc_.pageCount(); }

private:
    QFontMetricsF metrics(const QFont& font) const { return QFontMetricsF(font, device_); }

    qreal lineHeight(const QFont& font) const { return std::ceil(metrics(font).lineSpacing() * 10) / 10; }

    qreal wrappedHeight(const QFont& font, qreal width, const QString& text) const
    {
        return metrics(font).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
    }

    // Running header and footer of every page.
    void paintFrame(QPainter& p, int page) const
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
        p.drawText(footer, Qt::AlignRight | Qt::AlignBottom,
                   QStringLiteral("Page %1 of %2").arg(page + 1).arg(doc_.pageCount()));
    }

    // --- flowing blocks -----------------------------------------------------------------------

    void heading(Flow& flow, const QString& text, const QFont& font, qreal spacing = 10)
    {
        const qreal h = lineHeight(font) + 3;
        // Keep a heading with at least a few lines of what follows it.
        if (flow.remaining() < h + 60)
            flow.newPage();
        flow.add(h, spacing, [text, font, w = flow.width()](QPainter& p, QPointF at) {
            p.setFont(font);
            p.setPen(kInk);
            p.drawText(QRectF(at, QSizeF(w, 100)), Qt::AlignLeft | Qt::AlignTop, text);
        });
    }

    void paragraph(Flow& flow, const QString& text, const QFont& font, const QColor& color = kInk,
                   qreal indent = 0, qreal spacing = 2)
    {
        const qreal w = flow.width() - indent;
        const qreal h = wrappedHeight(font, w, text);
        flow.add(h, spacing, [=](QPainter& p, QPointF at) {
            p.setFont(font);
            p.setPen(color);
            p.drawText(QRectF(at + QPointF(indent, 0), QSizeF(w, h + 2)), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
        });
    }

    // A table of single-line cells (elided to their column), one flow block per row so that long
    // tables break between rows. widths are fractions of the flow width; a negative fraction means
    // a right-aligned column.
    // wrapLast: the last column wraps (row heights grow) instead of eliding.
    void table(Flow& flow, const QStringList& headers, const std::vector<QStringList>& rows,
               const std::vector<double>& widths, qreal spacing = 4, bool wrapLast = false)
    {
        const qreal lineH = lineHeight(fonts_.body) + 2;
        const qreal total = flow.width();
        const qreal lastW = std::abs(widths.back()) * total - 6;
        auto heightOf = [&](const QStringList& cells) {
            if (!wrapLast || cells.size() < qsizetype(widths.size()))
                return lineH;
            return std::max(lineH, wrappedHeight(fonts_.body, lastW, cells[qsizetype(widths.size()) - 1]) + 2);
        };
        auto paintRow = [this, widths, total, wrapLast](QPainter& p, QPointF at, const QStringList& cells, bool header, bool shade, qreal rowH) {
            if (shade)
                p.fillRect(QRectF(at, QSizeF(total, rowH)), QColor(0xf4, 0xf4, 0xf4));
            const QFont& font = header ? fonts_.tableHead : fonts_.body;
            p.setFont(font);
            p.setPen(kInk);
            const QFontMetricsF fm = metrics(font);
            qreal x = at.x();
            for (std::size_t c = 0; c < widths.size() && c < std::size_t(cells.size()); ++c) {
                const qreal w = std::abs(widths[c]) * total;
                const QRectF cell(x + 3, at.y() + 1, w - 6, rowH);
                const Qt::Alignment align = (widths[c] < 0 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop;
                if (wrapLast && !header && c + 1 == widths.size())
                    p.drawText(cell, align | Qt::TextWordWrap, cells[int(c)]);
                else
                    p.drawText(cell, align, fm.elidedText(cells[int(c)], Qt::ElideRight, cell.width()));
                x += w;
            }
            if (header) {
                p.setPen(QPen(kRule, 0.6));
                p.drawLine(QPointF(at.x(), at.y() + rowH), QPointF(at.x() + total, at.y() + rowH));
            }
        };
        // The header sticks to the first row.
        if (flow.remaining() < lineH + (rows.empty() ? 0 : heightOf(rows.front())) + spacing)
            flow.newPage();
        flow.add(lineH, spacing, [paintRow, headers, lineH](QPainter& p, QPointF at) { paintRow(p, at, headers, true, false, lineH); });
        for (std::size_t r = 0; r < rows.size(); ++r) {
            const qreal h = heightOf(rows[r]);
            flow.add(h, 0, [paintRow, cells = rows[r], shade = r % 2 == 1, h](QPainter& p, QPointF at) {
                paintRow(p, at, cells, false, shade, h);
            });
        }
    }

    // --- title block and summary --------------------------------------------------------------

    // docs/model.md: how many instructions take their cycles from each source, and which have none.
    QString timingSources() const
    {
        std::map<std::string, int> bySource;
        for (std::size_t i = 0; i < a_.program.instructions.size() && i < a_.timing.instructions.size(); ++i) {
            const Instruction& in = a_.program.instructions[i];
            if (!in.isData && !in.placeholder && !a_.timing.instructions[i].base.rule.empty())
                ++bySource[a_.timing.instructions[i].base.rule];
        }
        QStringList parts;
        for (const auto& [rule, count] : bySource)
            parts << QStringLiteral("%1 %2").arg(qs(rule)).arg(count);
        QStringList untimed;
        for (const auto& [mnemonic, count] : a_.timing.totals.unknownMnemonics)
            untimed << QStringLiteral("%1 (%2)").arg(qs(mnemonic)).arg(count);
        QString text = parts.join(QStringLiteral(", "));
        text += untimed.isEmpty() ? QStringLiteral("; every instruction timed")
                                  : QStringLiteral("; no timing: %1").arg(untimed.join(QStringLiteral(", ")));
        return text;
    }

    void buildSummary()
    {
        Flow flow(doc_, frame_.contentRect(), QStringLiteral("Summary"));
        const Program& program = a_.program;
        const GpuTarget& gpu = program.gpu;

        flow.add(lineHeight(fonts_.title) + 4, 0, [this, w = flow.width()](QPainter& p, QPointF at) {
            p.setFont(fonts_.title);
            p.setPen(kInk);
            p.drawText(QRectF(at, QSizeF(w, 40)), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("gcnlens report: %1").arg(name_));
        });

        // Title block: key/value rows, values wrapped.
        QStringList kernelNames;
        for (const Kernel& k : program.kernels)
            kernelNames << qs(k.name);
        QStringList optionText;
        for (const auto& [key, value] : a_.timing.options.nonDefaultValues())
            optionText << QStringLiteral("%1=%2").arg(qs(key), qs(value));
        // Branch directions the user set (the window's gutter, the CLI's --taken / --not-taken).
        QStringList directions;
        for (std::size_t i = 0; i < a_.timing.instructions.size() && i < program.instructions.size(); ++i) {
            const InstructionTiming& t = a_.timing.instructions[i];
            if (t.directionOverridden)
                directions << QStringLiteral("line %1 %2").arg(program.instructions[i].line)
                                  .arg(t.direction == Direction::Taken ? QStringLiteral("taken") : QStringLiteral("not taken"));
        }
        std::vector<std::pair<QString, QString>> titleRows = {
            {QStringLiteral("File"), options_.sourceName.isEmpty() ? name_ : options_.sourceName},
            {QStringLiteral("Kernels"), kernelNames.isEmpty() ? QStringLiteral("(none found)") : kernelNames.join(QStringLiteral(", "))},
            {QStringLiteral("GPU"), gpu.product.empty() ? QStringLiteral("%1 (a processor name, no product preset)").arg(qs(gpu.name)) : qs(gpu.product)},
            {QStringLiteral("Processor"), qs(gpu.targetId.empty() ? gpu.processor : gpu.targetId)},
            {QStringLiteral("Generation"), qs(std::string(generationName(gpu.generation)))},
            {QStringLiteral("DPFACTOR"), QString::number(gpu.dpfactor)},
            {QStringLiteral("DP factor from"), qs(gpu.dpfactorSource)},
            {QStringLiteral("Timing sources"), timingSources()},
            {QStringLiteral("Model options"), optionText.isEmpty() ? QStringLiteral("defaults (timing-model.md section 9)")
                                                                    : optionText.join(QStringLiteral(", "))},
            {QStringLiteral("Branch directions"), directions.isEmpty() ? QStringLiteral("as the model assumes (timing-model.md section 3)")
                                                                        : directions.join(QStringLiteral(", "))},
            {QStringLiteral("Date"), date_.toString(QStringLiteral("yyyy-MM-dd HH:mm"))},
            {QStringLiteral("gcnlens version"), reportVersion()},
        };
        const qreal keyW = 95;
        for (const auto& [key, value] : titleRows) {
            const qreal h = std::max(lineHeight(fonts_.body), wrappedHeight(fonts_.body, flow.width() - keyW, value));
            flow.add(h, 1, [this, key, value, keyW, h, w = flow.width()](QPainter& p, QPointF at) {
                p.setFont(fonts_.bold);
                p.setPen(kMuted);
                p.drawText(QRectF(at, QSizeF(keyW, h)), Qt::AlignLeft | Qt::AlignTop, key);
                p.setFont(fonts_.body);
                p.setPen(kInk);
                p.drawText(QRectF(at + QPointF(keyW, 0), QSizeF(w - keyW, h + 2)), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, value);
            });
        }

        buildDiagnostics(flow);
        buildTotals(flow);
        for (std::size_t k = 0; k < program.kernels.size(); ++k)
            buildOccupancy(flow, int(k));
    }

    void buildDiagnostics(Flow& flow)
    {
        std::vector<const Diagnostic*> errors, others;
        for (const Diagnostic& d : a_.program.diagnostics)
            (d.severity == Severity::Error ? errors : others).push_back(&d);
        if (errors.empty() && others.empty())
            return;
        heading(flow, errors.empty() ? QStringLiteral("Assembler messages")
                                     : QStringLiteral("Assembler errors (%1): the figures below are incomplete").arg(errors.size()),
                fonts_.heading);
        auto line = [](const Diagnostic& d) {
            QString text = QStringLiteral("line %1:%2: %3: %4").arg(d.line).arg(d.column + 1).arg(qs(std::string(severityName(d.severity))), qs(d.message));
            if (!d.origin.empty())
                text += QStringLiteral(" (%1)").arg(qs(d.origin));
            return text;
        };
        for (const Diagnostic* d : errors)
            paragraph(flow, line(*d), fonts_.body, colors_.diagnostic, 8, 1);
        constexpr std::size_t maxOthers = 30;
        for (std::size_t i = 0; i < others.size() && i < maxOthers; ++i)
            paragraph(flow, line(*others[i]), fonts_.body, others[i]->severity == Severity::Warning ? colors_.warning : kMuted, 8, 1);
        if (others.size() > maxOthers)
            paragraph(flow, QStringLiteral("… and %1 more (shown in the listing)").arg(others.size() - maxOthers), fonts_.body, kMuted, 8, 1);
    }

    static QStringList totalsRow(const QString& scope, const Totals& t)
    {
        return {scope, number(t.instructions), number((long long)t.bytes), number(t.baseCycles), number(t.penaltyCycles),
                number(t.singleWaveCycles), number(t.hiddenCycles)};
    }

    void buildTotals(Flow& flow)
    {
        heading(flow, QStringLiteral("Summary"), fonts_.heading, 12);
        std::vector<QStringList> rows;
        const auto& kernels = a_.program.kernels;
        for (std::size_t k = 0; k < kernels.size() && k < a_.timing.kernelTotals.size(); ++k)
            rows.push_back(totalsRow(qs(kernels[k].name), a_.timing.kernelTotals[k]));
        if (kernels.size() != 1)
            rows.push_back(totalsRow(QStringLiteral("whole file"), a_.timing.totals));
        table(flow,
              {QStringLiteral("Scope"), QStringLiteral("Instructions"), QStringLiteral("Bytes"), QStringLiteral("Base cycles"),
               QStringLiteral("Penalty cycles"), QStringLiteral("Single-wave"), QStringLiteral("Latency-hidden")},
              rows, {0.16, -0.13, -0.09, -0.13, -0.15, -0.16, -0.18});
        QString note = QStringLiteral("Single-wave cycles = base + penalties (one wave per SIMD); latency-hidden cycles count "
                                      "vector issue only, what remains at two or more waves per SIMD (timing-model.md section 5).");
        if (a_.timing.totals.unknownTimings > 0)
            note += QStringLiteral(" %1 instruction(s) have no known cycle count and are counted as 4 (marked ? in the listing): %2.")
                        .arg(a_.timing.totals.unknownTimings)
                        .arg(timingSources().section(QStringLiteral("; no timing: "), 1));
        paragraph(flow, note, fonts_.small, kMuted, 0, 3);

        heading(flow, QStringLiteral("Penalties by rule"), fonts_.subheading, 10);
        std::vector<QStringList> prow; // the summary dock's rows
        for (const ui::PenaltyRuleModel::Row& row : ui::PenaltyRuleModel::rowsFor(a_.timing.totals))
            prow.push_back({row.rule, number(row.count), number(row.cycles), row.meaning});
        if (prow.empty()) {
            paragraph(flow, QStringLiteral("No penalties."), fonts_.body);
        } else {
            table(flow, {QStringLiteral("Rule"), QStringLiteral("Count"), QStringLiteral("Cycles"), QStringLiteral("Meaning")},
                  prow, {0.2, -0.09, -0.1, 0.61}, 4, true);
        }
    }

    void buildOccupancy(Flow& flow, int k)
    {
        const auto kk = std::size_t(k);
        const QString kernelName = qs(a_.program.kernels[kk].name);
        heading(flow, QStringLiteral("Occupancy and resources: %1").arg(kernelName), fonts_.subheading, 12);
        if (kk >= a_.occupancy.size() || kk >= a_.occupancyInputs.size()) {
            paragraph(flow, QStringLiteral("No occupancy figures for this kernel."), fonts_.body, kMuted);
            return;
        }
        const OccupancyResult& occ = a_.occupancy[kk];
        const OccupancyInput& in = a_.occupancyInputs[kk];
        occupancyReadout(flow, occ);

        // Resource usage: declared vs used (vs allocated after granules).
        std::vector<QStringList> rows;
        const ResourceUsage* ru = kk < a_.resources.size() ? &a_.resources[kk] : nullptr;
        auto opt = [](const std::optional<int>& v) { return v ? QString::number(*v) : QStringLiteral("—"); };
        if (ru) {
            rows.push_back({QStringLiteral("VGPRs"), opt(ru->declaredVgprs), QString::number(ru->usedVgprs),
                            QString::number(in.vgprs), occ.error.empty() ? QString::number(occ.allocatedVgprs) : QString()});
            if (ru->usedAgprs > 0 || ru->declaredAgprs || a_.program.gpu.generation == Generation::CDNA)
                rows.push_back({QStringLiteral("AGPRs"), opt(ru->declaredAgprs), QString::number(ru->usedAgprs), QString::number(in.agprs), QString()});
            QStringList extras;
            if (ru->vcc)
                extras << QStringLiteral("VCC");
            if (ru->flatScratch)
                extras << QStringLiteral("flat scratch");
            if (ru->xnack)
                extras << QStringLiteral("XNACK");
            rows.push_back({QStringLiteral("SGPRs"), opt(ru->declaredSgprs),
                            QStringLiteral("%1 (user %2%3)").arg(ru->usedSgprs).arg(ru->userSgprs)
                                .arg(extras.isEmpty() ? QString() : QStringLiteral(" + ") + extras.join(QStringLiteral(", "))),
                            QString::number(in.sgprs), occ.error.empty() ? QString::number(occ.allocatedSgprs) : QString()});
            rows.push_back({QStringLiteral("LDS bytes"), opt(ru->declaredLds), QStringLiteral("—"), QString::number(in.ldsBytes),
                            occ.error.empty() ? QString::number(occ.allocatedLds) : QString()});
            rows.push_back({QStringLiteral("Workgroup size"), QStringLiteral("—"), QStringLiteral("—"), QString::number(in.workgroupSize), QString()});
            table(flow, {QStringLiteral("Resource"), QStringLiteral("Declared"), QStringLiteral("Used"), QStringLiteral("Occupancy input"),
                         QStringLiteral("Allocated")},
                  rows, {0.18, -0.14, -0.3, -0.2, -0.18}, 6);
            for (const std::string& w : ru->warnings)
                paragraph(flow, QStringLiteral("⚠ %1").arg(qs(w)), fonts_.body, colors_.warning, 8, 1);
        }
        // The window's occupancy sliders, when they were moved away from the kernel's figures.
        const auto& panel = options_.occupancy;
        if (panel && panel->kernel == k && !sameInput(panel->input, in)) {
            const OccupancyInput& at = panel->input;
            QString values = QStringLiteral("VGPRs %1, SGPRs %2, LDS %3 bytes, workgroup size %4").arg(at.vgprs).arg(at.sgprs).arg(at.ldsBytes).arg(at.workgroupSize);
            if (at.agprs > 0)
                values += QStringLiteral(", AGPRs %1").arg(at.agprs);
            heading(flow, QStringLiteral("At the occupancy panel's values: %1").arg(values), fonts_.subheading, 8);
            const OccupancyResult what = computeOccupancy(a_.program.gpu, at, a_.timing.options);
            occupancyReadout(flow, what);
            if (what.error.empty())
                buildCharts(flow, at, what.wavesPerSimd);
        } else if (occ.error.empty()) {
            buildCharts(flow, in, occ.wavesPerSimd);
        }
    }

    static bool sameInput(const OccupancyInput& a, const OccupancyInput& b)
    {
        return a.vgprs == b.vgprs && a.agprs == b.agprs && a.sgprs == b.sgprs && a.ldsBytes == b.ldsBytes
            && a.workgroupSize == b.workgroupSize;
    }

    // Waves per SIMD and per CU, the limiter, what each resource allows and the hints.
    void occupancyReadout(Flow& flow, const OccupancyResult& occ)
    {
        if (!occ.error.empty()) {
            paragraph(flow, QStringLiteral("Occupancy not computed: %1").arg(qs(occ.error)), fonts_.body, colors_.diagnostic);
            return;
        }
        QStringList limiters;
        for (const std::string& l : occ.limiters)
            limiters << qs(l);
        paragraph(flow,
                  QStringLiteral("%1 waves per SIMD, %2 waves per CU; limited by %3.")
                      .arg(occ.wavesPerSimd)
                      .arg(occ.wavesPerCu)
                      .arg(limiters.isEmpty() ? QStringLiteral("nothing (the hardware maximum)") : limiters.join(QStringLiteral(", "))),
                  fonts_.bold, kInk, 0, 2);
        QStringList limits;
        for (const auto& [resource, waves] : occ.limits)
            limits << QStringLiteral("%1 → %2").arg(qs(resource)).arg(waves);
        if (!limits.isEmpty())
            paragraph(flow, QStringLiteral("Waves per SIMD each resource allows: %1.").arg(limits.join(QStringLiteral(", "))), fonts_.body);
        for (const OccupancyHint& h : occ.hints)
            paragraph(flow, QStringLiteral("• %1").arg(qs(h.text)), fonts_.body, kInk, 8, 1);
    }

    // Waves per SIMD against VGPRs, SGPRs and LDS: the occupancy panel's chart (OccupancyChart,
    // what its models hold) for three of its axes side by side, drawn as vectors.
    void buildCharts(Flow& flow, const OccupancyInput& in, int waves)
    {
        const std::pair<CurveAxis, QString> axes[] = {{CurveAxis::Vgpr, QStringLiteral("VGPRs")},
                                                      {CurveAxis::Sgpr, QStringLiteral("SGPRs")},
                                                      {CurveAxis::Lds, QStringLiteral("LDS bytes per workgroup")}};
        std::vector<std::pair<QString, ui::OccupancyChart>> charts;
        for (const auto& [axis, label] : axes)
            charts.emplace_back(label, ui::OccupancyChart::compute(a_.program.gpu, in, axis, a_.timing.options, waves));
        const qreal gap = 12;
        const qreal chartW = (flow.width() - 2 * gap) / 3;
        // 140 points tall, or down to 100 to stay on the page with the figures they illustrate.
        const qreal chartH = flow.remaining() >= 108 ? std::min<qreal>(140, flow.remaining() - 8) : 140;
        flow.add(chartH, 8, [this, charts, chartW, chartH, gap](QPainter& p, QPointF at) {
            for (std::size_t c = 0; c < charts.size(); ++c)
                paintChart(p, QRectF(at.x() + c * (chartW + gap), at.y(), chartW, chartH), charts[c].first, charts[c].second);
        });
    }

    void paintChart(QPainter& p, const QRectF& box, const QString& label, const ui::OccupancyChart& chart) const
    {
        p.setRenderHint(QPainter::Antialiasing);
        p.setFont(fonts_.bold);
        p.setPen(kInk);
        p.drawText(QRectF(box.left(), box.top(), box.width(), 12), Qt::AlignHCenter | Qt::AlignTop, QStringLiteral("Waves/SIMD vs %1").arg(label.section(QLatin1Char(' '), 0, 0)));
        const QRectF plot(box.left() + 22, box.top() + 16, box.width() - 28, box.height() - 16 - 24);
        if (chart.curve.empty()) {
            p.setFont(fonts_.small);
            p.setPen(kMuted);
            p.drawText(plot, Qt::AlignCenter, QStringLiteral("no curve"));
            return;
        }
        const ChartAxis xAxis{double(std::min(0, chart.xMin)), double(std::max(chart.xMax, chart.xMin + 1)), plot.left(), plot.right()};
        const ChartAxis yAxis{0, double(chart.yMax), plot.bottom(), plot.top()};
        auto map = [&](const QPointF& v) { return QPointF(xAxis.map(v.x()), yAxis.map(v.y())); };

        p.setFont(fonts_.small);
        const QFontMetricsF fm = metrics(fonts_.small);
        for (const double t : yAxis.ticks(5)) {
            const qreal y = yAxis.map(t);
            p.setPen(QPen(QColor(0xe2, 0xe2, 0xe2), 0.4));
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
            p.setPen(kMuted);
            p.drawText(QRectF(box.left(), y - 5, 19, 10), Qt::AlignRight | Qt::AlignVCenter, QString::number(t));
        }
        for (const double t : xAxis.ticks(4)) {
            const qreal x = xAxis.map(t);
            p.setPen(QPen(kRule, 0.5));
            p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 2));
            p.setPen(kMuted);
            p.drawText(QRectF(x - 20, plot.bottom() + 2, 40, 10), Qt::AlignHCenter | Qt::AlignTop, QLocale::c().toString(qlonglong(t)));
        }
        p.drawText(QRectF(plot.left(), plot.bottom() + 12, plot.width(), 10), Qt::AlignHCenter | Qt::AlignTop, label);
        p.setPen(QPen(kRule, 0.6));
        p.drawLine(plot.bottomLeft(), plot.bottomRight());
        p.drawLine(plot.bottomLeft(), plot.topLeft());

        // The step holding the current value, shaded down to the axis as the panel's area series.
        if (chart.region.size() == 2) {
            QColor region = kAccent;
            region.setAlpha(50);
            p.fillRect(QRectF(map(chart.region[0]), map(QPointF(chart.region[1].x(), 0))).normalized(), region);
        }
        QPolygonF curve;
        for (const QPointF& v : chart.curve)
            curve << map(v);
        p.setPen(QPen(kAccent, 1.0));
        p.setBrush(Qt::NoBrush);
        p.drawPolyline(curve);

        // The kernel's own point.
        const QColor pointColor = AnalysisColors::mark(PenaltyClass::Hazard);
        const QPointF value = chart.point.empty() ? QPointF(chart.current, 0) : chart.point.front();
        const QPointF mark = map(value);
        p.setPen(QPen(pointColor, 0.8));
        p.setBrush(pointColor);
        p.drawEllipse(mark, 2.2, 2.2);
        const QString text = QStringLiteral("%1 → %2").arg(QLocale::c().toString(chart.current)).arg(int(value.y()));
        const qreal lw = fm.horizontalAdvance(text) + 2;
        const qreal lx = mark.x() + lw + 4 > plot.right() ? mark.x() - lw - 3 : mark.x() + 3;
        const qreal ly = mark.y() - 11 < plot.top() ? mark.y() + 2 : mark.y() - 11;
        p.setPen(pointColor);
        p.drawText(QRectF(lx, ly, lw, 10), Qt::AlignLeft | Qt::AlignTop, text);
    }

    // --- annotated listing --------------------------------------------------------------------
    // The editor's parts on paper: its gutter columns (GutterLayout) and marker, its band and
    // penalty colours (AnalysisColors), the fetch position the timing model computed and the
    // source coloured by the editor's syntax definition.

    enum class LineKind { Source, Continuation, Expansion, Diagnostic };

    struct ListingLine {
        LineKind kind = LineKind::Source;
        int sourceLine = 0;     // shown on the first line of a source row
        int numbers = -1;       // instruction whose offset/slot/size/cycles this line shows
        int shade = -1;         // instruction whose block band and penalty shading this line takes
        int textStart = 0;      // piece of the source line: [textStart, textStart + textLength)
        int textLength = 0;
        bool elided = false;
        QString text;           // Expansion / Diagnostic text
        QString rule;           // the rules column for this line
        Severity severity = Severity::Error;
        std::vector<ui::FormatRange> ranges; // Expansion: the colours of `text`
    };

    static constexpr int kCyclesChars = 7; // "16-24", "20 T", "4?"
    static constexpr int kRuleChars = 20;  // "branch-position +16"

    QStringList rulesFor(int index) const
    {
        QStringList out;
        if (index < 0 || std::size_t(index) >= a_.timing.instructions.size())
            return out;
        const Instruction& ins = a_.program.instructions[std::size_t(index)];
        if (ins.size > 9) // data or alignment padding: the one-digit size column cannot hold it
            out << QStringLiteral("(%1 bytes of data)").arg(ins.size);
        const InstructionTiming& t = a_.timing.instructions[std::size_t(index)];
        for (const Penalty& pen : t.penalties)
            out << QStringLiteral("%1 +%2").arg(qs(pen.rule)).arg(pen.cycles);
        if (!t.freedBy.empty())
            out << QStringLiteral("(%1)").arg(qs(t.freedBy));
        return out;
    }

    const InstructionTiming* timingOf(int index) const
    {
        return index >= 0 && std::size_t(index) < a_.timing.instructions.size() ? &a_.timing.instructions[std::size_t(index)] : nullptr;
    }

    ui::FetchPosition positionOf(int index) const
    {
        const Instruction& ins = a_.program.instructions[std::size_t(index)];
        const InstructionTiming* t = timingOf(index);
        return t ? ui::FetchPosition::of(*t, ins.size) : ui::FetchPosition::at(ins.offset, ins.size);
    }

    // C(I) as every presenter states it (core's cyclesText), with T/N for a branch's assumed
    // direction; "—" for what does not execute (data, lines that did not assemble).
    QString cyclesFor(int index) const
    {
        const InstructionTiming* t = timingOf(index);
        const QString cycles = t ? qs(cyclesText(a_.program.instructions[std::size_t(index)], *t)) : QString();
        if (cycles.isEmpty())
            return QStringLiteral("—");
        return cycles + (t->direction == Direction::Taken ? QStringLiteral(" T") : t->direction == Direction::NotTaken ? QStringLiteral(" N") : QString());
    }

    bool progress(int percent) const { return !options_.progress || options_.progress(percent); }

    bool buildListing()
    {
        const Program& program = a_.program;
        const QRectF content = frame_.contentRect();
        const QFontMetricsF fm = metrics(fonts_.mono);
        lineH_ = std::ceil(fm.lineSpacing() * 10) / 10;
        charW_ = fm.horizontalAdvance(QStringLiteral("0000000000")) / 10;
        std::uint64_t maxOffset = 0;
        for (const Instruction& ins : program.instructions)
            maxOffset = std::max(maxOffset, ins.offset);
        offsetDigits_ = ui::GutterLayout::digitsFor(maxOffset, 16, 4);
        cols_ = ui::GutterLayout(charW_, ui::GutterLayout::digitsFor(std::uint64_t(std::max<qsizetype>(1, sourceLines_.size())), 10, 4),
                                 offsetDigits_, kCyclesChars);
        rulesX_ = content.width() - kRuleChars * charW_;
        sourceColumns_ = std::max(8, int(std::floor((rulesX_ - cols_.width()) / charW_ + 1e-9)) - 1);
        const int wrapCols = std::max(8, sourceColumns_ - 2); // continuation lines are indented by 2

        lines_.clear();
        std::vector<int> rowCounts;
        std::map<int, std::vector<const Diagnostic*>> diagnosticsByLine;
        for (const Diagnostic& d : program.diagnostics)
            diagnosticsByLine[d.line].push_back(&d);

        auto addInstructionRows = [&](std::span<const int> indices, std::size_t from, int& rowLines) {
            for (std::size_t i = from; i < indices.size(); ++i) {
                const int index = indices[i];
                const Instruction& ins = program.instructions[std::size_t(index)];
                const QStringList rules = rulesFor(index);
                ListingLine line;
                line.kind = LineKind::Expansion;
                line.numbers = index;
                line.shade = index;
                const QString text = QStringLiteral("%1 %2").arg(qs(ins.mnemonic), qs(ins.operands));
                line.text = QStringLiteral("↳ ") + text;
                line.ranges = highlighter_.highlightLine(text, true);
                for (ui::FormatRange& r : line.ranges)
                    r.start += 2;
                line.rule = rules.value(0);
                lines_.push_back(line);
                ++rowLines;
                for (int r = 1; r < rules.size(); ++r) {
                    ListingLine more;
                    more.kind = LineKind::Continuation;
                    more.shade = index;
                    more.rule = rules[r];
                    lines_.push_back(more);
                    ++rowLines;
                }
            }
        };

        auto addDiagnostics = [&](int lineNo, int& rowLines) {
            const auto it = diagnosticsByLine.find(lineNo);
            if (it == diagnosticsByLine.end())
                return;
            for (const Diagnostic* d : it->second) {
                ListingLine line;
                line.kind = LineKind::Diagnostic;
                line.severity = d->severity;
                line.text = QStringLiteral("%1: %2").arg(qs(std::string(severityName(d->severity))), qs(d->message));
                lines_.push_back(line);
                ++rowLines;
            }
        };

        expanded_.reserve(sourceLines_.size());
        lineColours_.reserve(sourceLines_.size());
        for (qsizetype l = 0; l < sourceLines_.size(); ++l) {
            // Highlighting is most of the work before painting: it reports progress (0–40 %).
            if (l % 512 == 0 && !progress(int(40 * l / std::max<qsizetype>(1, sourceLines_.size()))))
                return false;
            const int lineNo = int(l) + 1;
            expanded_.push_back(expandTabs(sourceLines_[l]));
            const QString& text = expanded_.back();
            lineColours_.push_back(highlighter_.highlightLine(text));
            const auto found = program.lineToInstructions.find(lineNo);
            const std::span<const int> indices =
                found != program.lineToInstructions.end() ? found->second : std::span<const int>();
            const int first = indices.empty() ? -1 : indices.front();
            const QStringList rules = rulesFor(first);
            const auto pieces = report::wrapLine(text, wrapCols, 4);
            int rowLines = 0;
            const int height = std::max<int>(int(pieces.size()), int(rules.size()));
            for (int i = 0; i < height; ++i) {
                ListingLine line;
                line.kind = i == 0 ? LineKind::Source : LineKind::Continuation;
                line.numbers = i == 0 ? first : -1;
                line.shade = first;
                if (std::size_t(i) < pieces.size()) {
                    line.textStart = pieces[std::size_t(i)].start;
                    line.textLength = pieces[std::size_t(i)].length;
                    line.elided = pieces[std::size_t(i)].elided;
                }
                line.rule = rules.value(i);
                line.sourceLine = i == 0 ? lineNo : -lineNo; // negative: continuation of that line
                lines_.push_back(line);
                ++rowLines;
            }
            addInstructionRows(indices, 1, rowLines);
            addDiagnostics(lineNo, rowLines);
            rowCounts.push_back(rowLines);
        }
        // Instructions whose line lies outside the text (e.g. from an include at line 0), and
        // diagnostics without a line, close the listing.
        std::vector<int> stray;
        for (const auto& [lineNo, indices] : program.lineToInstructions) {
            if (lineNo < 1 || lineNo > int(sourceLines_.size()))
                stray.insert(stray.end(), indices.begin(), indices.end());
        }
        if (!stray.empty()) {
            int rowLines = 0;
            addInstructionRows(stray, 0, rowLines);
            rowCounts.push_back(rowLines);
        }
        {
            int rowLines = 0;
            for (const auto& [lineNo, list] : diagnosticsByLine) {
                if (lineNo < 1 || lineNo > int(sourceLines_.size()))
                    addDiagnostics(lineNo, rowLines);
            }
            if (rowLines > 0)
                rowCounts.push_back(rowLines);
        }

        const qreal headerRowH = lineH_ + 4;
        const int perPage = ListingPagination::linesPerPage(content.height() - headerRowH, lineH_);
        const ListingPagination pages = ListingPagination::paginate(rowCounts, perPage);
        for (int page = 0; page < pages.pageCount(); ++page) {
            const int docPage = doc_.addPage(QStringLiteral("Annotated listing"));
            const auto [from, to] = pages.linesOnPage(page, int(lines_.size()));
            doc_.add(docPage, [this, from, to, content, headerRowH](QPainter& p) { paintListingPage(p, content, headerRowH, from, to); });
        }
        if (pages.pageCount() == 0) {
            const int docPage = doc_.addPage(QStringLiteral("Annotated listing"));
            doc_.add(docPage, [this, content](QPainter& p) {
                p.setFont(fonts_.body);
                p.setPen(kMuted);
                p.drawText(content, Qt::AlignLeft | Qt::AlignTop, QStringLiteral("The source is empty."));
            });
        }
        return true;
    }

    // A piece [start, start + length) of a highlighted line at x: plain runs and coloured runs in
    // turn (monospace: a column's position is column × advance). Painting each run's own text
    // keeps the PDF's text extractable.
    void paintHighlighted(QPainter& p, qreal x, qreal baseline, const QString& text, const std::vector<ui::FormatRange>& ranges,
                          int start, int length, bool elided) const
    {
        const int end = start + length - (elided ? 1 : 0);
        auto run = [&](int from, int to, const QColor& colour, const QFont& font) {
            if (to <= from)
                return;
            p.setFont(font);
            p.setPen(colour.isValid() ? colour : colors_.text);
            p.drawText(QPointF(x + (from - start) * charW_, baseline), text.mid(from, to - from));
        };
        int pos = start;
        for (const ui::FormatRange& r : ranges) {
            const int a = std::max(r.start, pos);
            const int b = std::min(r.start + r.length, end);
            if (b <= a)
                continue;
            run(pos, a, colors_.text, fonts_.mono);
            run(a, b, r.color, r.bold ? fonts_.monoBold : r.italic ? fonts_.monoItalic : fonts_.mono);
            pos = b;
        }
        run(pos, end, colors_.text, fonts_.mono);
        if (elided) {
            p.setFont(fonts_.mono);
            p.setPen(kMuted);
            p.drawText(QPointF(x + (end - start) * charW_, baseline), QStringLiteral("…"));
        }
    }

    void paintListingPage(QPainter& p, const QRectF& content, qreal headerRowH, int from, int to) const
    {
        const QFontMetricsF fm = metrics(fonts_.mono);
        const qreal ascent = fm.ascent() + (lineH_ - fm.height()) / 2;
        const qreal left = content.left();
        const qreal right = content.right();
        const qreal sourceX = left + cols_.width();
        using Column = ui::GutterLayout::Column;
        auto cell = [&](Column c, qreal y) { return QRectF(left + cols_.left(c), y, cols_.columnWidth(c), lineH_); };
        const Qt::Alignment numeric = Qt::AlignRight | Qt::AlignVCenter;

        // Column heads.
        p.setFont(fonts_.monoBold);
        p.setPen(kMuted);
        const qreal headY = content.top();
        p.drawText(cell(Column::LineNumber, headY), numeric, QStringLiteral("line"));
        p.drawText(cell(Column::Offset, headY), numeric, QStringLiteral("offset"));
        p.drawText(cell(Column::Slot, headY), Qt::AlignCenter, QStringLiteral("p"));
        p.drawText(cell(Column::Size, headY), Qt::AlignCenter, QStringLiteral("s"));
        p.drawText(cell(Column::Cycles, headY), numeric, QStringLiteral("cycles"));
        p.drawText(QPointF(sourceX, headY + ascent), QStringLiteral("source"));
        p.drawText(QPointF(left + rulesX_, headY + ascent), QStringLiteral("rules"));
        p.setPen(QPen(kRule, 0.5));
        p.drawLine(QPointF(left, headY + lineH_ + 1), QPointF(right, headY + lineH_ + 1));

        const qreal top = content.top() + headerRowH;
        // Background pass: block bands, penalty shading by class, block boundaries.
        std::uint64_t previousBlock = ~std::uint64_t(0);
        int previousKernel = -2;
        // The block of the last instruction before this page, so a page does not start with a
        // spurious boundary line.
        for (int i = from - 1; i >= 0 && from < to; --i) {
            if (const int s = lines_[std::size_t(i)].shade; s >= 0) {
                previousBlock = positionOf(s).block;
                previousKernel = a_.program.instructions[std::size_t(s)].kernel;
                break;
            }
        }
        for (int i = from; i < to; ++i) {
            const ListingLine& line = lines_[std::size_t(i)];
            const qreal y = top + (i - from) * lineH_;
            const QRectF row(left, y, right - left, lineH_);
            if (line.kind == LineKind::Diagnostic) {
                QColor tint = line.severity == Severity::Error ? colors_.diagnostic : colors_.warning;
                tint.setAlphaF(0.12f);
                p.fillRect(row, tint);
                continue;
            }
            if (line.shade < 0)
                continue;
            const Instruction& ins = a_.program.instructions[std::size_t(line.shade)];
            const ui::FetchPosition pos = positionOf(line.shade);
            if (pos.oddBand)
                p.fillRect(row, colors_.bandOdd);
            const InstructionTiming* t = timingOf(line.shade);
            if (const QColor shade = colors_.shade(t ? t->markClass() : PenaltyClass::None); shade.isValid())
                p.fillRect(row.adjusted(cols_.left(Column::Marker), 0, 0, 0), shade);
            if (line.numbers < 0)
                continue;
            if ((pos.block != previousBlock || ins.kernel != previousKernel) && (i != from || previousBlock != ~std::uint64_t(0))) {
                p.setPen(QPen(kRule, 0.5)); // the theme's separator is black on paper
                p.drawLine(row.topLeft(), row.topRight());
            }
            if (pos.straddles) // an encoding that runs into the next block (section 2, R-straddle)
                p.fillRect(QRectF(sourceX - charW_ / 2, y, 1.2, lineH_), AnalysisColors::mark(PenaltyClass::Fetch));
            previousBlock = pos.block;
            previousKernel = ins.kernel;
        }

        // Text pass.
        for (int i = from; i < to; ++i) {
            const ListingLine& line = lines_[std::size_t(i)];
            const qreal y = top + (i - from) * lineH_;
            const qreal baseline = y + ascent;
            if (line.kind == LineKind::Diagnostic) {
                p.setFont(fonts_.monoBold);
                p.setPen(line.severity == Severity::Error ? colors_.diagnostic : colors_.warning);
                p.drawText(QPointF(sourceX, baseline), fm.elidedText(line.text, Qt::ElideRight, right - sourceX));
                continue;
            }
            p.setFont(fonts_.mono);
            if (line.sourceLine > 0) {
                p.setPen(kMuted);
                p.drawText(cell(Column::LineNumber, y), numeric, QString::number(line.sourceLine));
            }
            if (line.numbers >= 0) {
                const Instruction& ins = a_.program.instructions[std::size_t(line.numbers)];
                const InstructionTiming* t = timingOf(line.numbers);
                p.setPen(colors_.text);
                p.drawText(cell(Column::Offset, y), numeric, QStringLiteral("0x%1").arg(ins.offset, offsetDigits_, 16, QLatin1Char('0')));
                p.drawText(cell(Column::Slot, y), Qt::AlignCenter, QString::number(positionOf(line.numbers).slot));
                p.drawText(cell(Column::Size, y), Qt::AlignCenter, ins.size > 9 ? QStringLiteral("…") : QString::number(ins.size));
                p.drawText(cell(Column::Cycles, y), numeric, cyclesFor(line.numbers));
                if (t)
                    ui::paintMark(p, cell(Column::Marker, y).adjusted(0.5, 1, -0.5, -1),
                                  {t->markClass(), t->direction, t->directionOverridden, !t->freedBy.empty()}, colors_, true);
            }
            if (line.kind == LineKind::Expansion) {
                const int length = std::min<int>(int(line.text.size()), sourceColumns_);
                paintHighlighted(p, sourceX + 2 * charW_, baseline, line.text, line.ranges, 0, length, length < line.text.size());
            } else if (line.sourceLine != 0 && line.textLength > 0) {
                const int lineNo = std::abs(line.sourceLine);
                const bool continuation = line.sourceLine < 0;
                if (continuation) {
                    p.setPen(kMuted);
                    p.drawText(QPointF(sourceX, baseline), QStringLiteral("↪"));
                }
                paintHighlighted(p, sourceX + (continuation ? 2 * charW_ : 0), baseline, expanded_[std::size_t(lineNo - 1)],
                                 lineColours_[std::size_t(lineNo - 1)], line.textStart, line.textLength, line.elided);
            }
            if (!line.rule.isEmpty()) {
                p.setFont(fonts_.mono);
                p.setPen(line.rule.startsWith(QLatin1Char('(')) ? kMuted : colors_.diagnostic);
                p.drawText(QPointF(left + rulesX_, baseline), line.rule);
            }
        }
    }

    // --- LDS and legend -----------------------------------------------------------------------

    void buildLdsAndLegend()
    {
        const bool haveLds = !a_.lds.empty() || !options_.patternText.isEmpty();
        if (haveLds) {
            Flow flow(doc_, frame_.contentRect(), QStringLiteral("LDS bank conflicts"));
            heading(flow, QStringLiteral("LDS bank conflicts"), fonts_.heading, 0);
            paragraph(flow,
                      QStringLiteral("Each grid shows, per lane group (rows) and bank (columns), how many distinct 128-byte rows "
                                     "that bank serves; the group's conflict degree is its largest value and the access costs the "
                                     "sum of its groups' degrees (timing-model.md section 7, lds-group %1 dwords; docs/model.md L-phases, %2).")
                          .arg(a_.timing.options.ldsGroupDwords)
                          .arg(qs(std::string(ldsPhasesName(ldsPhasesFor(a_.program.gpu.generation, a_.timing.options.ldsPhases))))),
                      fonts_.small, kMuted, 0, 2);
            if (!options_.patternText.isEmpty()) {
                const LdsAccessResult r = analyzeLdsPattern(options_.patternText.toStdString(), options_.patternOp.toStdString(),
                                                            options_.patternParameters, a_.timing.options.ldsGroupDwords,
                                                            ldsPhasesFor(a_.program.gpu.generation, a_.timing.options.ldsPhases));
                heatmap(flow, QStringLiteral("Typed pattern: %1 (%2)").arg(options_.patternText, options_.patternOp), r);
            }
            // Identical accesses (same instruction text, same per-bank rows) share one heatmap: an
            // unrolled kernel repeats the same DS instruction hundreds of times.
            struct Access {
                QString text;                 // "ds_read_b32 v3, v1"
                std::vector<int> lines;
                const LdsAccessResult* result = nullptr;
                QString problem;              // non-empty: no heatmap, say why
            };
            std::vector<Access> accesses;
            std::map<QString, std::size_t> byKey;
            for (const auto& [index, r] : a_.lds) {
                if (index < 0 || std::size_t(index) >= a_.program.instructions.size())
                    continue;
                const Instruction& ins = a_.program.instructions[std::size_t(index)];
                bool anyKnown = false;
                for (const LaneAccess& lane : r.lanes)
                    anyKnown = anyKnown || lane.known;
                Access access;
                access.text = QStringLiteral("%1 %2").arg(qs(ins.mnemonic), qs(ins.operands)).trimmed();
                access.result = &r;
                if (!r.error.empty() || !anyKnown)
                    access.problem = r.error.empty() ? QStringLiteral("addresses not known") : qs(r.error);
                QString key = access.text + QLatin1Char('|') + access.problem + QLatin1Char('|') + qs(r.note)
                    + QStringLiteral("|%1|%2|%3|").arg(r.degree).arg(r.cycles).arg(r.allKnown);
                if (access.problem.isEmpty()) {
                    for (const auto& group : r.bankRows)
                        for (const int v : group)
                            key += QString::number(v) + QLatin1Char(',');
                }
                const auto [it, inserted] = byKey.emplace(key, accesses.size());
                if (inserted)
                    accesses.push_back(access);
                accesses[it->second].lines.push_back(ins.line);
            }
            auto sameAt = [](const std::vector<int>& lines) {
                QStringList rest;
                for (std::size_t i = 1; i < lines.size(); ++i)
                    rest << QString::number(lines[i]);
                return QStringLiteral("The same access at line%1 %2.").arg(rest.size() > 1 ? QStringLiteral("s") : QString(), rest.join(QStringLiteral(", ")));
            };
            for (const Access& access : accesses) {
                if (!access.problem.isEmpty())
                    continue;
                heatmap(flow, QStringLiteral("Line %1: %2").arg(access.lines.front()).arg(access.text), *access.result,
                        access.lines.size() > 1 ? sameAt(access.lines) : QString());
            }
            bool headed = false;
            for (const Access& access : accesses) {
                if (access.problem.isEmpty())
                    continue;
                if (!headed)
                    heading(flow, QStringLiteral("DS instructions without known addresses"), fonts_.subheading, 10);
                headed = true;
                QString text = QStringLiteral("Line %1: %2: %3").arg(access.lines.front()).arg(access.text, access.problem);
                if (access.lines.size() > 1)
                    text += QLatin1Char(' ') + sameAt(access.lines);
                paragraph(flow, text, fonts_.body, kMuted, 8, 1);
            }
        }
        Flow legend(doc_, frame_.contentRect(), QStringLiteral("Legend"));
        buildLegend(legend);
    }

    void heatmap(Flow& flow, const QString& title, const LdsAccessResult& r, const QString& also = QString())
    {
        heading(flow, title, fonts_.subheading, 12);
        if (!also.isEmpty())
            paragraph(flow, also, fonts_.small, kMuted, 0, 1);
        if (!r.error.empty()) {
            paragraph(flow, qs(r.error), fonts_.body, colors_.diagnostic);
            return;
        }
        QString summary = QStringLiteral("Conflict degree %1, %2 LDS cycles (conflict-free: %3)")
                              .arg(r.degree)
                              .arg(r.cycles)
                              .arg(r.conflictFreeCycles);
        if (!r.allKnown)
            summary += QStringLiteral("; some lanes' addresses are unknown and left out");
        if (!r.note.empty())
            summary += QStringLiteral("; %1").arg(qs(r.note));
        paragraph(flow, summary + QLatin1Char('.'), fonts_.body, r.degree > 1 ? colors_.diagnostic : kInk);

        const int rows = std::max<int>(1, int(r.bankRows.size()));
        const qreal labelW = 66;
        const qreal gridW = flow.width() - labelW;
        const qreal cellH = std::min<qreal>(12, gridW / 32);
        const qreal h = 10 + cellH * rows;
        flow.add(h, 3, [this, r, rows, labelW, gridW, cellH](QPainter& p, QPointF at) {
            // The LDS panel's geometry with a row per lane group (the panel has one per lane).
            const ui::HeatmapGeometry grid(QRectF(at.x(), at.y(), labelW + gridW, 10 + cellH * rows), rows, 32, labelW, 10);
            p.setFont(fonts_.monoSmall);
            p.setPen(kMuted);
            for (int b = 0; b < 32; b += 1) {
                const QRectF c = grid.cellRect(0, b);
                p.drawText(QRectF(c.left(), at.y(), c.width(), 10), Qt::AlignCenter, QString::number(b));
            }
            p.drawText(QRectF(at.x(), at.y(), labelW - 4, 10), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("bank"));
            for (int g = 0; g < rows; ++g) {
                const LaneGroup group = std::size_t(g) < r.groups.size() ? r.groups[std::size_t(g)] : LaneGroup{};
                const QRectF rowCell = grid.cellRect(g, 0);
                p.setPen(kMuted);
                p.drawText(QRectF(at.x(), rowCell.top(), labelW - 4, rowCell.height()), Qt::AlignRight | Qt::AlignVCenter,
                           QStringLiteral("lanes %1 ×%2").arg(qs(laneGroupText(group))).arg(group.degree));
                for (int b = 0; b < 32; ++b) {
                    const int v = std::size_t(g) < r.bankRows.size() && std::size_t(b) < r.bankRows[std::size_t(g)].size()
                        ? r.bankRows[std::size_t(g)][std::size_t(b)] : 0;
                    const QRectF c = grid.cellRect(g, b);
                    if (v > 0)
                        p.fillRect(c, heat(v));
                    p.setPen(QPen(QColor(0xd0, 0xd0, 0xd0), 0.3));
                    p.setBrush(Qt::NoBrush);
                    p.drawRect(c);
                    if (v > 0) {
                        p.setPen(kInk);
                        p.drawText(c, Qt::AlignCenter, QString::number(v));
                    }
                }
            }
        });
    }

    void buildLegend(Flow& flow)
    {
        heading(flow, QStringLiteral("Legend"), fonts_.heading, 0);
        heading(flow, QStringLiteral("Rule ids"), fonts_.subheading, 6);
        const qreal idW = 100, sourceW = 130;
        const qreal meaningW = flow.width() - idW - sourceW;
        for (const RuleInfo& rule : ruleLegend()) {
            const QString id = qs(rule.id), meaning = qs(rule.meaning), source = qs(rule.source);
            const qreal h = std::max({lineHeight(fonts_.body), wrappedHeight(fonts_.body, meaningW - 6, meaning),
                                      wrappedHeight(fonts_.small, sourceW, source)});
            flow.add(h, 3, [this, id, meaning, source, idW, meaningW, sourceW, h, penalty = rule.penaltyClass](QPainter& p, QPointF at) {
                p.setFont(fonts_.code);
                p.setPen(penalty == PenaltyClass::None ? colors_.freed : AnalysisColors::mark(penalty));
                p.drawText(QRectF(at, QSizeF(idW, h)), Qt::AlignLeft | Qt::AlignTop, id);
                p.setFont(fonts_.body);
                p.setPen(kInk);
                p.drawText(QRectF(at + QPointF(idW, 0), QSizeF(meaningW - 6, h + 2)), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, meaning);
                p.setFont(fonts_.small);
                p.setPen(kMuted);
                p.drawText(QRectF(at + QPointF(idW + meaningW, 0), QSizeF(sourceW, h + 2)), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, source);
            });
        }

        heading(flow, QStringLiteral("Reading the listing"), fonts_.subheading, 12);
        const QStringList keys = {
            QStringLiteral("Columns, as in the window's gutter: source line, offset from the kernel entry, slot p = (offset >> 2) & 7 "
                           "in its 32-byte block, size in bytes, cycles C(I) (T/N: branch assumed taken/not taken; a-b: a range, "
                           "the low end counted; ?: unknown, counted as 4; ~: a value the source doubts), the marker, then the source and the rules with their cycles."),
            QStringLiteral("Bands: every other 32-byte fetch block is tinted and a thin line marks where a new block starts; a bar "
                           "before the source marks an encoding that runs into the next block."),
            QStringLiteral("Shading and marker: the class of the costliest penalty on the instruction (hazard over branch over "
                           "fetch); a triangle is a branch's assumed direction (right: taken, down: not taken; filled: set by you); "
                           "a ring an instruction a freeing rule (in parentheses) saved."),
            QStringLiteral("↪ continues a long source line; ↳ lists further instructions a macro or .rept expanded on that line."),
        };
        for (const QString& k : keys)
            paragraph(flow, k, fonts_.body, kInk, 0, 3);
        swatches(flow, {{colors_.fetch, QStringLiteral("fetch penalty")}, {colors_.branch, QStringLiteral("branch penalty")},
                        {colors_.hazard, QStringLiteral("hazard")}, {colors_.bandOdd, QStringLiteral("every other fetch block")}});

        heading(flow, QStringLiteral("Listing colours (gcn-asm.xml, %1 theme)").arg(highlighter_.theme().name()), fonts_.subheading, 10);
        std::vector<std::pair<QColor, QString>> formats;
        for (const ui::NamedFormat& f : highlighter_.formats())
            if (f.color.isValid() && f.color != colors_.text)
                formats.emplace_back(f.color, f.name);
        swatches(flow, formats);

        heading(flow, QStringLiteral("LDS heatmaps"), fonts_.subheading, 10);
        swatches(flow, {{heat(1), QStringLiteral("1 row: conflict free")}, {heat(2), QStringLiteral("2 rows")}, {heat(4), QStringLiteral("3–4 rows")},
                        {heat(8), QStringLiteral("5–8 rows")}, {heat(9), QStringLiteral("more than 8 rows")}});
    }

    // The LDS panel's scale, lighter on paper so that the digits in the cells read.
    static QColor heat(int rows)
    {
        QColor fill = ui::ldsRowsColor(rows);
        fill.setAlpha(140);
        return fill;
    }

    // Colour keys, four to a line.
    void swatches(Flow& flow, const std::vector<std::pair<QColor, QString>>& keys)
    {
        constexpr std::size_t perLine = 4;
        const qreal h = lineHeight(fonts_.body);
        for (std::size_t i = 0; i < keys.size(); i += perLine) {
            flow.add(h, i == 0 ? 4 : 1, [this, keys, i, w = flow.width()](QPainter& p, QPointF at) {
                for (std::size_t j = i; j < i + perLine && j < keys.size(); ++j) {
                    const qreal x = at.x() + qreal(j - i) * w / perLine;
                    p.setPen(QPen(kRule, 0.4));
                    p.setBrush(keys[j].first);
                    p.drawRect(QRectF(x, at.y() + 2, 8, 8));
                    p.setFont(fonts_.body);
                    p.setPen(kInk);
                    p.drawText(QPointF(x + 12, at.y() + metrics(fonts_.body).ascent()), keys[j].second);
                }
            });
        }
    }

    const Analysis& a_;
    const ReportOptions& options_;
    QPaintDevice* device_;
    PageFrame frame_;
    Fonts fonts_;
    Document doc_;
    QStringList sourceLines_;
    std::vector<QString> expanded_;
    std::vector<std::vector<ui::FormatRange>> lineColours_;
    std::vector<ListingLine> lines_;
    ui::OffscreenHighlighter highlighter_;
    ui::AnalysisColors colors_ = ui::AnalysisColors::fromTheme(highlighter_.theme());
    ui::GutterLayout cols_;
    int offsetDigits_ = 4;
    qreal charW_ = 1;
    qreal rulesX_ = 0;
    int sourceColumns_ = 8;
    qreal lineH_ = 9;
    QString name_;
    QDateTime date_;
};

} // namespace

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
        writer.setTitle(QStringLiteral("gcnlens report: %1").arg(options.sourceName.isEmpty() ? QStringLiteral("<input>") : options.sourceName));
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
