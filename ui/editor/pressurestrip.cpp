// SPDX-License-Identifier: MIT
#include "ui/editor/pressurestrip.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace gcnlens::ui {

PressureStrip::PressureStrip(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setCursor(Qt::PointingHandCursor);
    setToolTip(QString()); // tooltips come from event()
}

void PressureStrip::setSnapshot(SnapshotPtr snapshot, int lineCount)
{
    // Repainted only when what it draws changes (most keystrokes change no live count).
    const std::vector<LiveCounts> before = m_rowsValid ? m_rows : std::vector<LiveCounts>();
    const std::vector<int> peaksBefore = peakLines();
    m_snapshot = std::move(snapshot);
    m_lineCount = std::max(lineCount, 1);
    m_rowsValid = false;
    if (before.empty() || rows() != before || peakLines() != peaksBefore)
        update();
}

void PressureStrip::setLineCount(int lineCount)
{
    if (std::max(lineCount, 1) == m_lineCount)
        return;
    m_lineCount = std::max(lineCount, 1);
    invalidate();
}

void PressureStrip::setColors(const AnalysisColors& colors)
{
    m_colors = colors;
    update();
}

void PressureStrip::invalidate()
{
    m_rowsValid = false;
    update();
}

void PressureStrip::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_rowsValid = false;
}

StripGeometry PressureStrip::stripGeometry() const
{
    // One pixel of margin on each side so that a full-scale bar does not touch the scroll bar.
    return StripGeometry(m_lineCount, QRectF(2, 0, std::max(1, width() - 4), std::max(1, height())), scale());
}

int PressureStrip::scale() const
{
    if (!m_snapshot)
        return 1;
    const LiveCounts& m = m_snapshot->lines.maxLive();
    return std::max({1, int(m.vgpr), int(m.sgpr), int(m.agpr)});
}

const std::vector<LiveCounts>& PressureStrip::rows() const
{
    if (m_rowsValid)
        return m_rows;
    const StripGeometry g = stripGeometry();
    m_rows.assign(std::size_t(g.rows()), LiveCounts {});
    if (m_snapshot) {
        const LineAnnotations& lines = m_snapshot->lines;
        const int last = std::min(lines.lineCount(), m_lineCount);
        for (int line = 1; line <= last; ++line) {
            const LineAnnotation* a = lines.at(line);
            if (!a)
                continue;
            // A line takes its rows up to the next line's (several when lines are fewer than rows).
            const int first = g.rowOfLine(line), end = std::max(first + 1, line < m_lineCount ? g.rowOfLine(line + 1) : g.rows());
            for (int row = first; row < end; ++row) {
                LiveCounts& r = m_rows[std::size_t(row)];
                r.vgpr = std::max(r.vgpr, a->live.vgpr);
                r.sgpr = std::max(r.sgpr, a->live.sgpr);
                r.agpr = std::max(r.agpr, a->live.agpr);
            }
        }
    }
    m_rowsValid = true;
    return m_rows;
}

std::vector<int> PressureStrip::peakLines() const
{
    std::vector<int> out;
    if (!m_snapshot)
        return out;
    for (const KernelPressure& k : m_snapshot->analysis.liveness.kernels)
        for (const PressurePeak* p : {&k.vgpr, &k.sgpr, &k.agpr})
            if (p->count > 0 && p->line > 0 && std::find(out.begin(), out.end(), p->line) == out.end())
                out.push_back(p->line);
    std::sort(out.begin(), out.end());
    return out;
}

void PressureStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), m_colors.gutterBg.isValid() ? m_colors.gutterBg : palette().window().color());
    p.setPen(m_colors.separator);
    p.drawLine(0, 0, 0, height());
    if (!m_snapshot || m_snapshot->lines.maxLive() == LiveCounts {})
        return;
    const StripGeometry g = stripGeometry();
    const std::vector<LiveCounts>& r = rows();
    // VGPRs as filled bars, one per pixel row.
    const QColor vgpr = pressureColor(RegisterFile::Vgpr);
    for (int row = 0; row < int(r.size()); ++row)
        if (r[std::size_t(row)].vgpr > 0)
            p.fillRect(QRectF(g.xOfCount(0), row, g.xOfCount(r[std::size_t(row)].vgpr) - g.xOfCount(0), 1), vgpr);
    // SGPRs and AGPRs as polylines over the rows that have instructions.
    p.setRenderHint(QPainter::Antialiasing, true);
    auto polyline = [&](RegisterFile file, auto count) {
        QPainterPath path;
        bool started = false;
        for (int row = 0; row < int(r.size()); ++row) {
            const LiveCounts& c = r[std::size_t(row)];
            if (c == LiveCounts {}) {
                started = false;
                continue;
            }
            const QPointF at(g.xOfCount(count(c)), row + 0.5);
            started ? path.lineTo(at) : path.moveTo(at);
            started = true;
        }
        p.setPen(QPen(pressureColor(file), 1.2));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
    };
    polyline(RegisterFile::Sgpr, [](const LiveCounts& c) { return int(c.sgpr); });
    if (m_snapshot->lines.hasAgprs())
        polyline(RegisterFile::Agpr, [](const LiveCounts& c) { return int(c.agpr); });
    // Each peak line: a tick across the strip with a small triangle at its left edge, red for the
    // VGPR peak (what occupancy usually pays for), the file's colour for an SGPR or AGPR peak.
    p.setRenderHint(QPainter::Antialiasing, false);
    auto mark = [&](int line, const QColor& colour) {
        const double y = g.yOfLine(line);
        p.setPen(QPen(colour, 2));
        p.drawLine(QPointF(1, y), QPointF(width() - 1, y));
        QPainterPath tri;
        tri.moveTo(1, y - 4);
        tri.lineTo(6, y);
        tri.lineTo(1, y + 4);
        tri.closeSubpath();
        p.fillPath(tri, colour);
    };
    for (const KernelPressure& k : m_snapshot->analysis.liveness.kernels) {
        if (k.agpr.count > 0)
            mark(k.agpr.line, pressureColor(RegisterFile::Agpr));
        if (k.sgpr.count > 0)
            mark(k.sgpr.line, pressureColor(RegisterFile::Sgpr));
        if (k.vgpr.count > 0)
            mark(k.vgpr.line, peakColor());
    }
}

int PressureStrip::lineAt(QPoint pos) const
{
    const StripGeometry g = stripGeometry();
    // A click within 4 pixels of a peak's mark goes to the nearest such peak itself.
    int best = 0;
    double distance = 4.0001;
    for (const int line : peakLines())
        if (const double d = std::abs(g.yOfLine(line) - pos.y()); d < distance) {
            best = line;
            distance = d;
        }
    return best ? best : g.lineAtY(pos.y());
}

void PressureStrip::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        Q_EMIT lineActivated(lineAt(event->position().toPoint()));
}

bool PressureStrip::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int line = lineAt(help->pos());
        const LineAnnotation* a = m_snapshot ? m_snapshot->lines.at(line) : nullptr;
        if (!a) {
            QToolTip::hideText();
            return true;
        }
        QToolTip::showText(help->globalPos(), tr("line %1: %2").arg(line).arg(pressureLine(*a, m_snapshot->lines.hasAgprs())),
                           this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace gcnlens::ui
