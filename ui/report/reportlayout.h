// SPDX-License-Identifier: MIT
// The PDF report's own geometry as small value types (style.md point 4): page frame, flowing
// blocks, listing pagination, line wrapping and chart axes. What the window also draws (fetch
// blocks, gutter columns, heatmap cells) comes from ui/geometry.h. All lengths are PDF points
// (1/72 inch); nothing here paints, so each piece is tested on its own.
#pragma once

#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

namespace gcnlens::report {

// One page: margins, a running header above the content and a footer (page number) below it.
struct PageFrame {
    QSizeF page;             // the whole page
    qreal margin = 36;       // half an inch on every side
    qreal headerHeight = 20; // running header band, inside the top margin's edge
    qreal footerHeight = 18; // page-number band, inside the bottom margin's edge

    QRectF headerRect() const;
    QRectF footerRect() const;
    QRectF contentRect() const; // between header and footer, inside the side margins
};

// Places blocks of known height one below the other, breaking to a new page when the next block
// does not fit. A block taller than a whole page starts a fresh page and is placed anyway (its
// painter clips or splits it).
class FlowLayout {
public:
    FlowLayout(qreal top, qreal height);

    struct Placement {
        int page = 0;
        qreal y = 0;
        bool operator==(const Placement&) const = default;
    };
    // spacing is skipped at the top of a page, so pages never start with a gap.
    Placement place(qreal blockHeight, qreal spacing = 0);
    void newPage();

    int page() const { return page_; }
    qreal y() const { return y_; }
    qreal remaining() const { return top_ + height_ - y_; }
    bool atPageTop() const { return y_ <= top_; }

private:
    qreal top_;
    qreal height_;
    int page_ = 0;
    qreal y_;
};

// Listing pagination. The listing is a flat run of text lines grouped into rows (a source line with
// its wrapped continuation, extra expanded instructions and diagnostics). A row is kept on one page
// when it fits in a page; a row longer than a page starts a page and flows over as many as needed.
struct ListingPagination {
    std::vector<int> pageStarts; // flat line index of each page's first line

    int pageCount() const { return int(pageStarts.size()); }
    // [first, end) flat lines on page `page`, given the total line count.
    std::pair<int, int> linesOnPage(int page, int totalLines) const;

    static int linesPerPage(qreal contentHeight, qreal lineHeight); // at least 1
    static ListingPagination paginate(const std::vector<int>& rowLineCounts, int linesPerPage);
};

// Splits a line of `length` characters into pieces of at most `columns` characters, at most
// `maxPieces` of them; when more would be needed the last piece is marked elided (its painter ends
// it with an ellipsis). Pieces prefer to break after a space or comma in the last third of a piece.
struct WrapPiece {
    int start = 0;
    int length = 0;
    bool elided = false;
    bool operator==(const WrapPiece&) const = default;
};
std::vector<WrapPiece> wrapLine(const QString& text, int columns, int maxPieces);

// Maps data values onto a pixel span of a chart (linear), with "nice" tick values (1, 2, 5 × 10^k).
struct ChartAxis {
    double minimum = 0;
    double maximum = 1;
    qreal pixelFrom = 0; // where minimum lands
    qreal pixelTo = 1;   // where maximum lands (smaller than pixelFrom for a y axis going up)

    qreal map(double value) const;
    std::vector<double> ticks(int maxTicks) const;
    static double niceStep(double range, int maxTicks);
};

} // namespace gcnlens::report
