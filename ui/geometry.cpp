// SPDX-License-Identifier: MIT
#include "ui/geometry.h"

#include "core/model/timing.h"

#include <algorithm>
#include <cmath>

namespace gcnlens::ui {

FetchPosition FetchPosition::at(std::uint64_t offset, int size)
{
    const FetchPlace place = fetchPlace(offset, size);
    FetchPosition p;
    p.block = place.block;
    p.slot = place.slot;
    p.oddBand = (p.band() & 1) != 0;
    p.straddles = place.straddles;
    return p;
}

GutterLayout::GutterLayout(double charWidth, int lineDigits, int offsetDigits, int cyclesChars, int pressureChars, int checkChars)
{
    // Widths in characters: line number, "0x" + offset, slot "7", size "8", cycles "9999",
    // pressure "84v 30s", marker, check mark.
    const int chars[COLUMN_COUNT] = {std::max(lineDigits, 2), offsetDigits + 2, 1, 1, cyclesChars, pressureChars, 2, checkChars};
    m_gap = charWidth;
    m_x[0] = charWidth / 2;
    for (int c = 0; c < COLUMN_COUNT; ++c)
        m_x[c + 1] = m_x[c] + (chars[c] > 0 ? chars[c] * charWidth + m_gap : 0.0);
}

std::optional<GutterLayout::Column> GutterLayout::columnAt(double x) const
{
    if (x < m_x[0] || x >= m_x[COLUMN_COUNT])
        return std::nullopt;
    for (int c = 0; c < COLUMN_COUNT; ++c)
        if (x < m_x[c + 1])
            return Column(c);
    return std::nullopt;
}

int GutterLayout::digitsFor(std::uint64_t value, int base, int minimum)
{
    int digits = 1;
    for (std::uint64_t v = value; v >= std::uint64_t(base); v /= std::uint64_t(base))
        ++digits;
    return std::max(minimum, digits);
}

StripGeometry::StripGeometry(int lineCount, QRectF area, int maxCount)
    : m_lines(std::max(lineCount, 1))
    , m_rows(std::max(1, int(std::floor(area.height()))))
    , m_max(std::max(maxCount, 1))
    , m_area(area)
{
}

int StripGeometry::rowOfLine(int line) const
{
    const int l = std::clamp(line, 1, m_lines) - 1;
    return int(std::int64_t(l) * m_rows / m_lines);
}

int StripGeometry::lineAtY(double y) const
{
    const int row = std::clamp(int(std::floor(y - m_area.top())), 0, m_rows - 1);
    // The line at the row's centre: inside the row when lines outnumber rows, else the line
    // whose span of rows holds it.
    const std::int64_t line = (2 * std::int64_t(row) + 1) * m_lines / (2 * std::int64_t(m_rows));
    return int(std::clamp<std::int64_t>(line, 0, m_lines - 1)) + 1;
}

double StripGeometry::yOfLine(int line) const
{
    return m_area.top() + rowOfLine(line) + 0.5;
}

double StripGeometry::xOfCount(int count) const
{
    return m_area.left() + m_area.width() * std::clamp(count, 0, m_max) / m_max;
}

HeatmapGeometry::HeatmapGeometry(QRectF area, int lanes, int banks, double headerWidth, double headerHeight)
    : m_lanes(std::max(lanes, 1))
    , m_banks(std::max(banks, 1))
{
    m_grid = QRectF(area.left() + headerWidth, area.top() + headerHeight, std::max(0.0, area.width() - headerWidth),
                    std::max(0.0, area.height() - headerHeight));
    m_cellW = m_grid.width() / m_banks;
    m_cellH = m_grid.height() / m_lanes;
}

QRectF HeatmapGeometry::cellRect(int lane, int bank) const
{
    return QRectF(m_grid.left() + bank * m_cellW, m_grid.top() + lane * m_cellH, m_cellW, m_cellH);
}

std::optional<HeatmapGeometry::Cell> HeatmapGeometry::cellAt(QPointF point) const
{
    if (!m_grid.contains(point) || m_cellW <= 0 || m_cellH <= 0)
        return std::nullopt;
    const int bank = std::min(m_banks - 1, int(std::floor((point.x() - m_grid.left()) / m_cellW)));
    const int lane = std::min(m_lanes - 1, int(std::floor((point.y() - m_grid.top()) / m_cellH)));
    return Cell {lane, bank};
}

std::vector<StepPoint> compressSteps(const std::vector<StepPoint>& points)
{
    std::vector<StepPoint> out;
    for (size_t i = 0; i < points.size(); ++i) {
        const bool last = i + 1 == points.size();
        if (out.empty() || points[i].waves != out.back().waves || last)
            out.push_back(points[i]);
    }
    return out;
}

std::vector<QPointF> stepPolyline(const std::vector<StepPoint>& steps)
{
    std::vector<QPointF> out;
    out.reserve(steps.size() * 2);
    for (size_t i = 0; i < steps.size(); ++i) {
        if (i > 0 && steps[i].waves != steps[i - 1].waves)
            out.emplace_back(steps[i].x, steps[i - 1].waves); // the vertical edge
        out.emplace_back(steps[i].x, steps[i].waves);
    }
    return out;
}

std::optional<StepRegion> regionAround(const std::vector<StepPoint>& points, int x)
{
    // points are sorted by x; find the last point at or before x.
    auto it = std::upper_bound(points.begin(), points.end(), x, [](int value, const StepPoint& p) { return value < p.x; });
    if (it == points.begin())
        return std::nullopt;
    const auto at = size_t(std::distance(points.begin(), it) - 1);
    StepRegion r {points[at].x, points[at].x, points[at].waves};
    size_t lo = at, hi = at;
    while (lo > 0 && points[lo - 1].waves == r.waves)
        --lo;
    while (hi + 1 < points.size() && points[hi + 1].waves == r.waves)
        ++hi;
    r.first = points[lo].x;
    r.last = points[hi].x;
    return r;
}

} // namespace gcnlens::ui
