// SPDX-License-Identifier: MIT
// The PDF report's builder, private to ui/report: fonts, the paged document, flowing blocks and
// the ReportBuilder whose parts live one per file (reportwriter.cpp: the document and writeReport;
// reportblocks: headings, paragraphs, tables; reportsummary, reportoccupancy, reportpressure,
// reportchecks, reportlisting, reportlds, reportlegend: one part of the report each).
#pragma once

#include "ui/report/reportwriter.h"

#include "ui/docks/occupancycurvemodel.h"
#include "ui/docks/penaltyrulemodel.h"
#include "ui/editor/syntax.h"
#include "ui/findings.h"
#include "ui/geometry.h"
#include "ui/palette.h"
#include "ui/report/reportlayout.h"

#include <KSyntaxHighlighting/Theme>

#include <QFileInfo>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <span>

namespace gcnlens::report::detail {

using report::ChartAxis;
using report::FlowLayout;
using report::ListingPagination;
using report::PageFrame;
using ui::AnalysisColors;

inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

inline QString number(long long value)
{
    // Thousands separators make the totals readable; C locale keeps them predictable for tests.
    return QLocale::c().toString(value);
}

// ---------------------------------------------------------------------------------------------
// Fonts and colours. Sizes are points; the writer runs at 72 dpi so device units are points too.

inline const QColor kInk(0x20, 0x20, 0x20);
inline const QColor kMuted(0x70, 0x70, 0x70);
inline const QColor kRule(0xb0, 0xb0, 0xb0);
inline const QColor kAccent(0x1f, 0x5f, 0xa8);

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

inline QString expandTabs(const QString& text)
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
    ReportBuilder(const Analysis& analysis, const QString& sourceText, const ReportOptions& options, QPaintDevice* device);

    // false: cancelled through ReportOptions::progress.
    bool build();

    bool paint(QPainter& p, QPdfWriter& writer) const;

    int pageCount() const { return doc_.pageCount(); }

private:
    QFontMetricsF metrics(const QFont& font) const { return QFontMetricsF(font, device_); }

    qreal lineHeight(const QFont& font) const { return std::ceil(metrics(font).lineSpacing() * 10) / 10; }

    qreal wrappedHeight(const QFont& font, qreal width, const QString& text) const;

    // Running header and footer of every page.
    void paintFrame(QPainter& p, int page) const;

    // --- flowing blocks -----------------------------------------------------------------------

    void heading(Flow& flow, const QString& text, const QFont& font, qreal spacing = 10);

    void paragraph(Flow& flow, const QString& text, const QFont& font, const QColor& color = kInk, qreal indent = 0,
                   qreal spacing = 2);

    // A table of single-line cells (elided to their column), one flow block per row so that long
    // tables break between rows. widths are fractions of the flow width; a negative fraction means
    // a right-aligned column.
    // wrapLast: the last column wraps (row heights grow) instead of eliding.
    void table(Flow& flow, const QStringList& headers, const std::vector<QStringList>& rows, const std::vector<double>& widths,
               qreal spacing = 4, bool wrapLast = false);

    // A chart's frame: y grid lines with their values left of the plot, x ticks with theirs below,
    // the x axis' name, and the two axis lines (the occupancy charts and the pressure graph).
    struct AxesStyle {
        qreal labelLeft = 0, labelWidth = 19;
        int xTicks = 4;
        QString xLabel;
        bool separators = true; // x values with thousands separators (not for line numbers)
    };
    void chartAxes(QPainter& p, const QRectF& plot, const ChartAxis& xAxis, const ChartAxis& yAxis, const AxesStyle& style) const;

    // --- title block and summary --------------------------------------------------------------

    // docs/model.md: how many instructions take their cycles from each source, and which have none.
    QString timingSources() const;

    void buildSummary();

    void buildDiagnostics(Flow& flow);

    static QStringList totalsRow(const QString& scope, const Totals& t);

    void buildTotals(Flow& flow);

    void buildOccupancy(Flow& flow, int k);

    static bool sameInput(const OccupancyInput& a, const OccupancyInput& b);

    // Waves per SIMD and per CU, the limiter, what each resource allows and the hints.
    void occupancyReadout(Flow& flow, const OccupancyResult& occ);

    // Waves per SIMD against VGPRs, SGPRs and LDS: the occupancy panel's chart (OccupancyChart,
    // what its models hold) for three of its axes side by side, drawn as vectors.
    void buildCharts(Flow& flow, const OccupancyInput& in, int waves);

    void paintChart(QPainter& p, const QRectF& box, const QString& label, const ui::OccupancyChart& chart) const;

    // --- register pressure (reportpressure.cpp) and checks (reportchecks.cpp) -------------------

    void buildPressure();
    void pressureGraph(Flow& flow, int kernel);
    void buildChecks();

    // --- annotated listing --------------------------------------------------------------------
    // The editor's parts on paper: its gutter columns (GutterLayout) and marker, its band and
    // penalty colours (AnalysisColors), the fetch position the timing model computed and the
    // source coloured by the editor's syntax definition.

    enum class LineKind { Source, Continuation, Expansion, Diagnostic };

    struct ListingLine {
        LineKind kind = LineKind::Source;
        int sourceLine = 0; // shown on the first line of a source row
        int numbers = -1;   // instruction whose offset/slot/size/cycles this line shows
        int shade = -1;     // instruction whose block band and penalty shading this line takes
        int textStart = 0;  // piece of the source line: [textStart, textStart + textLength)
        int textLength = 0;
        bool elided = false;
        QString text; // Expansion / Diagnostic text
        QString rule; // the rules column for this line
        Severity severity = Severity::Error;
        std::vector<ui::FormatRange> ranges; // Expansion: the colours of `text`
    };

    static constexpr int kCyclesChars = 7; // "16-24", "20 T", "4?"
    static constexpr int kRuleChars = 20;  // "branch-position +16"

    QStringList rulesFor(int index) const;

    const InstructionTiming* timingOf(int index) const;

    ui::FetchPosition positionOf(int index) const;

    // C(I) as every presenter states it (core's cyclesText), with T/N for a branch's assumed
    // direction; "—" for what does not execute (data, lines that did not assemble).
    QString cyclesFor(int index) const;

    bool progress(int percent) const { return !options_.progress || options_.progress(percent); }

    bool buildListing();

    // A piece [start, start + length) of a highlighted line at x: plain runs and coloured runs in
    // turn (monospace: a column's position is column × advance). Painting each run's own text
    // keeps the PDF's text extractable.
    void paintHighlighted(QPainter& p, qreal x, qreal baseline, const QString& text, const std::vector<ui::FormatRange>& ranges,
                          int start, int length, bool elided) const;

    void paintListingPage(QPainter& p, const QRectF& content, qreal headerRowH, int from, int to) const;

    // --- LDS and legend -----------------------------------------------------------------------

    void buildLdsAndLegend();

    void heatmap(Flow& flow, const QString& title, const LdsAccessResult& r, const QString& also = QString());

    void buildLegend(Flow& flow);

    // The LDS panel's scale, lighter on paper so that the digits in the cells read.
    static QColor heat(int rows);

    // Colour keys, four to a line.
    void swatches(Flow& flow, const std::vector<std::pair<QColor, QString>>& keys);

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
    std::vector<ui::FindingView> findings_;                 // issue #17, by line
    std::map<int, std::vector<int>> findingsByInstruction_; // consumer → indices into findings_
    int pressureChars_ = 0;                                 // the listing's live column (0: none)
    bool agprs_ = false;                                    // the program uses AGPRs
};

} // namespace gcnlens::report::detail
