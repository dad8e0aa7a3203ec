// SPDX-License-Identifier: MIT
#include "ui/docks/ldsheatmap.h"
#include "ui/palette.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace gcnlens::ui {

static constexpr int Banks = 32; // timing-model.md section 7
static constexpr int Lanes = 64;
static constexpr double HeaderW = 28, HeaderH = 16, LegendH = 22;

LdsHeatmap::LdsHeatmap(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QSize LdsHeatmap::sizeHint() const
{
    return QSize(int(HeaderW + Banks * 11), int(HeaderH + Lanes * 6 + LegendH + 4));
}

QSize LdsHeatmap::minimumSizeHint() const
{
    return QSize(int(HeaderW + Banks * 6), int(HeaderH + Lanes * 3 + LegendH + 4));
}

void LdsHeatmap::setResult(LdsAccessResult result)
{
    // Every analysis (a keystroke) hands the result for the cursor's line again, most often the
    // same: repaint only when it changed.
    if (result == m_result) // every field, lanes included
        return;
    m_result = std::move(result);
    update();
}

HeatmapGeometry LdsHeatmap::geometry() const
{
    QRectF area = QRectF(rect());
    area.setBottom(area.bottom() - LegendH - 4);
    return HeatmapGeometry(area, Lanes, Banks, HeaderW, HeaderH);
}

QRectF LdsHeatmap::legendRect() const
{
    return QRectF(HeaderW, height() - LegendH, width() - HeaderW, LegendH);
}

int LdsHeatmap::groupOf(int lane) const
{
    for (size_t g = 0; g < m_result.groups.size(); ++g) {
        const LaneGroup& group = m_result.groups[g];
        if (std::find(group.members.begin(), group.members.end(), lane) != group.members.end())
            return int(g);
    }
    return -1;
}

int LdsHeatmap::cellRows(int lane, int bank) const
{
    if (lane < 0 || lane >= int(m_result.lanes.size()))
        return 0;
    const LaneAccess& a = m_result.lanes[size_t(lane)];
    if (!a.known)
        return 0;
    // A lane touches `dwords` consecutive banks from its first (b64: 2, b128: 4).
    const int first = a.bank();
    const int span = std::max(1, int(a.dwords));
    const int offset = ((bank - first) % Banks + Banks) % Banks;
    if (offset >= span)
        return 0;
    const int g = groupOf(lane);
    if (g < 0 || g >= int(m_result.bankRows.size()) || bank >= int(m_result.bankRows[size_t(g)].size()))
        return 1;
    return std::max(1, m_result.bankRows[size_t(g)][size_t(bank)]);
}

QString LdsHeatmap::describe(int lane, int bank) const
{
    if (lane < 0 || lane >= int(m_result.lanes.size()))
        return {};
    const LaneAccess& a = m_result.lanes[size_t(lane)];
    if (!a.known)
        return tr("lane %1 · address unknown · bank %2").arg(lane).arg(bank);
    const int rows = cellRows(lane, bank);
    const int g = groupOf(lane);
    QString text = tr("lane %1 · address 0x%2 · bank %3 · row %4").arg(lane).arg(a.address, 0, 16).arg(a.bank()).arg(a.row());
    if (rows > 0)
        text += tr(" · bank %1 serves %2 distinct row(s) in lane group %3").arg(bank).arg(rows).arg(g);
    return text;
}

void LdsHeatmap::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const HeatmapGeometry geo = geometry();
    const QColor grid = [&] {
        QColor c = pal.color(QPalette::Text);
        c.setAlpha(30);
        return c;
    }();
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.75));
    p.setFont(small);
    p.setPen(pal.color(QPalette::Text));
    // Bank numbers on top (every 4th), lane numbers on the left (every 8th).
    for (int b = 0; b < Banks; b += 4) {
        const QRectF c = geo.cellRect(0, b);
        p.drawText(QRectF(c.left(), 0, c.width() * 4, HeaderH), Qt::AlignLeft | Qt::AlignVCenter, QString::number(b));
    }
    for (int l = 0; l < Lanes; l += 8) {
        const QRectF c = geo.cellRect(l, 0);
        p.drawText(QRectF(0, c.top(), HeaderW - 3, std::max(c.height(), 10.0)), Qt::AlignRight | Qt::AlignTop,
                   QString::number(l));
    }
    QColor unknown = pal.color(QPalette::Mid);
    for (int l = 0; l < Lanes; ++l) {
        const bool have = l < int(m_result.lanes.size());
        const bool known = have && m_result.lanes[size_t(l)].known;
        for (int b = 0; b < Banks; ++b) {
            const QRectF c = geo.cellRect(l, b);
            if (have && !known) {
                p.fillRect(c, QBrush(unknown, Qt::BDiagPattern));
                continue;
            }
            const int rows = cellRows(l, b);
            if (rows > 0)
                p.fillRect(c, ldsRowsColor(rows));
        }
    }
    // Grid: faint lines, and a strong one between lane groups.
    p.setPen(QPen(grid, 0));
    for (int b = 0; b <= Banks; ++b)
        p.drawLine(QPointF(geo.cellRect(0, b).left(), geo.grid().top()), QPointF(geo.cellRect(0, b).left(), geo.grid().bottom()));
    p.setPen(QPen(pal.color(QPalette::Text), 1));
    for (const LaneGroup& g : m_result.groups) {
        if (g.firstLane == 0)
            continue;
        const double y = geo.cellRect(g.firstLane, 0).top();
        p.drawLine(QPointF(geo.grid().left(), y), QPointF(geo.grid().right(), y));
    }
    p.setPen(QPen(grid, 0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(geo.grid());
    if (!m_result.error.empty() || m_result.lanes.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.setFont(font());
        p.drawText(geo.grid(), Qt::AlignCenter | Qt::TextWordWrap,
                   m_result.error.empty() ? tr("No LDS access: put the cursor on a ds_ instruction or type a pattern")
                                          : QString::fromStdString(m_result.error));
    }

    // Legend: distinct rows per bank within a lane group.
    const QRectF legend = legendRect();
    p.setFont(small);
    double x = legend.left();
    const struct {
        int rows;
        QString label;
    } items[] = {{1, tr("1 row")}, {2, tr("2")}, {4, tr("3–4")}, {8, tr("5–8")}, {9, tr(">8")}};
    const QFontMetricsF fm(small);
    for (const auto& item : items) {
        p.fillRect(QRectF(x, legend.top() + 5, 12, 12), ldsRowsColor(item.rows));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QPointF(x + 15, legend.top() + 15), item.label);
        x += 15 + fm.horizontalAdvance(item.label) + 10;
    }
    p.fillRect(QRectF(x, legend.top() + 5, 12, 12), QBrush(unknown, Qt::BDiagPattern));
    p.drawText(QPointF(x + 15, legend.top() + 15), tr("unknown"));
}

void LdsHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    const auto cell = geometry().cellAt(event->position());
    const QString text = cell ? describe(cell->lane, cell->bank) : QString();
    Q_EMIT hovered(text);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void LdsHeatmap::leaveEvent(QEvent*)
{
    Q_EMIT hovered(QString());
}

} // namespace gcnlens::ui
