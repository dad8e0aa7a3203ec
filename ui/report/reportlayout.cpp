// SPDX-License-Identifier: MIT
#include "ui/report/reportlayout.h"

#include <QString>

#include <algorithm>
#include <cmath>

namespace gcnlens::report {

QRectF PageFrame::headerRect() const
{
    return QRectF(margin, margin, page.width() - 2 * margin, headerHeight);
}

QRectF PageFrame::footerRect() const
{
    return QRectF(margin, page.height() - margin - footerHeight, page.width() - 2 * margin, footerHeight);
}

QRectF PageFrame::contentRect() const
{
    const qreal top = margin + headerHeight;
    const qreal bottom = page.height() - margin - footerHeight;
    return QRectF(margin, top, page.width() - 2 * margin, std::max<qreal>(0, bottom - top));
}

FlowLayout::FlowLayout(qreal top, qreal height)
    : top_(top)
    , height_(height)
    , y_(top)
{
}

FlowLayout::Placement FlowLayout::place(qreal blockHeight, qreal spacing)
{
    if (atPageTop())
        spacing = 0;
    if (!atPageTop() && y_ + spacing + blockHeight > top_ + height_) {
        newPage();
        spacing = 0;
    }
    const Placement placement {page_, y_ + spacing};
    y_ += spacing + blockHeight;
    return placement;
}

void FlowLayout::newPage()
{
    ++page_;
    y_ = top_;
}

std::pair<int, int> ListingPagination::linesOnPage(int page, int totalLines) const
{
    if (page < 0 || page >= pageCount())
        return {totalLines, totalLines};
    const int end = page + 1 < pageCount() ? pageStarts[std::size_t(page) + 1] : totalLines;
    return {pageStarts[std::size_t(page)], end};
}

int ListingPagination::linesPerPage(qreal contentHeight, qreal lineHeight)
{
    if (lineHeight <= 0)
        return 1;
    // A tiny epsilon so that an exact fit (700 / 7) is not lost to floating-point rounding.
    return std::max(1, int(std::floor(contentHeight / lineHeight + 1e-9)));
}

ListingPagination ListingPagination::paginate(const std::vector<int>& rowLineCounts, int linesPerPage)
{
    ListingPagination result;
    linesPerPage = std::max(1, linesPerPage);
    int line = 0;       // flat index of the next line
    int usedOnPage = 0; // lines already on the current page
    for (const int rawCount : rowLineCounts) {
        const int count = std::max(0, rawCount);
        if (count == 0)
            continue;
        if (result.pageStarts.empty()) {
            result.pageStarts.push_back(line);
        } else if (usedOnPage + count > linesPerPage && (count <= linesPerPage || usedOnPage > 0)) {
            // Keep a row together; a row longer than a page at least starts on a fresh one.
            result.pageStarts.push_back(line);
            usedOnPage = 0;
        }
        int left = count;
        while (usedOnPage + left > linesPerPage) {
            const int take = linesPerPage - usedOnPage;
            left -= take;
            line += take;
            result.pageStarts.push_back(line);
            usedOnPage = 0;
        }
        usedOnPage += left;
        line += left;
    }
    return result;
}

std::vector<WrapPiece> wrapLine(const QString& text, int columns, int maxPieces)
{
    std::vector<WrapPiece> pieces;
    columns = std::max(1, columns);
    maxPieces = std::max(1, maxPieces);
    const int length = int(text.size());
    int start = 0;
    if (length == 0)
        return {WrapPiece {0, 0, false}};
    while (start < length) {
        const int left = length - start;
        if (left <= columns) {
            pieces.push_back({start, left, false});
            break;
        }
        if (int(pieces.size()) + 1 == maxPieces) {
            pieces.push_back({start, columns, true});
            break;
        }
        // Break after a space or comma in the last third of the piece, else hard at `columns`.
        int cut = columns;
        for (int i = columns; i > columns - columns / 3 && i > 0; --i) {
            const QChar c = text.at(start + i - 1);
            if (c == QLatin1Char(' ') || c == QLatin1Char(',')) {
                cut = i;
                break;
            }
        }
        pieces.push_back({start, cut, false});
        start += cut;
    }
    return pieces;
}

qreal ChartAxis::map(double value) const
{
    if (maximum == minimum)
        return pixelFrom;
    return pixelFrom + (value - minimum) / (maximum - minimum) * (pixelTo - pixelFrom);
}

double ChartAxis::niceStep(double range, int maxTicks)
{
    if (range <= 0 || maxTicks < 1)
        return 1;
    const double raw = range / maxTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= raw - 1e-12)
            return m * magnitude;
    }
    return 10 * magnitude;
}

std::vector<double> ChartAxis::ticks(int maxTicks) const
{
    std::vector<double> result;
    const double step = niceStep(maximum - minimum, maxTicks);
    for (double v = std::ceil(minimum / step - 1e-9) * step; v <= maximum + step * 1e-9; v += step)
        result.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return result;
}

} // namespace gcnlens::report
