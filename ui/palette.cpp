// SPDX-License-Identifier: MIT
#include "ui/palette.h"

#include <KSyntaxHighlighting/Theme>

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace gcnlens::ui {

static QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QColor AnalysisColors::mark(PenaltyClass penalty)
{
    switch (penalty) {
    case PenaltyClass::Fetch:
        return QColor(0xf0, 0x90, 0x20); // amber: alignment, straddle (section 2)
    case PenaltyClass::Branch:
        return QColor(0x40, 0x80, 0xf0); // blue: branch placement (section 3)
    case PenaltyClass::Hazard:
        return QColor(0xe0, 0x30, 0x40); // red: scheduling hazards (section 4)
    case PenaltyClass::None:
        break;
    }
    return {};
}

QColor AnalysisColors::shade(PenaltyClass penalty) const
{
    switch (penalty) {
    case PenaltyClass::Fetch:
        return fetch;
    case PenaltyClass::Branch:
        return branch;
    case PenaltyClass::Hazard:
        return hazard;
    case PenaltyClass::None:
        break;
    }
    return {};
}

AnalysisColors AnalysisColors::fromTheme(const KSyntaxHighlighting::Theme& theme)
{
    using T = KSyntaxHighlighting::Theme;
    AnalysisColors c;
    c.background = QColor::fromRgba(theme.editorColor(T::BackgroundColor));
    c.text = QColor::fromRgba(theme.textColor(T::Normal));
    c.muted = mix(c.background, c.text, 0.55);
    c.bandEven = c.background;
    c.bandOdd = mix(c.background, c.text, 0.07);
    c.fetch = mix(c.background, mark(PenaltyClass::Fetch), 0.35);
    c.branch = mix(c.background, mark(PenaltyClass::Branch), 0.30);
    c.hazard = mix(c.background, mark(PenaltyClass::Hazard), 0.30);
    c.freed = QColor(0x30, 0xa0, 0x50);
    const QColor err = QColor::fromRgba(theme.editorColor(T::MarkError));
    const QColor warn = QColor::fromRgba(theme.editorColor(T::MarkWarning));
    c.diagnostic = err.isValid() && err.alpha() ? err : QColor(Qt::red);
    c.warning = warn.isValid() && warn.alpha() ? warn : QColor(0xd0, 0x90, 0x00);
    c.gutterBg = QColor::fromRgba(theme.editorColor(T::IconBorder));
    c.gutterText = QColor::fromRgba(theme.editorColor(T::LineNumbers));
    c.gutterCurrent = QColor::fromRgba(theme.editorColor(T::CurrentLineNumber));
    c.separator = QColor::fromRgba(theme.editorColor(T::Separator));
    c.currentLine = QColor::fromRgba(theme.editorColor(T::CurrentLine));
    c.currentLine.setAlpha(110); // translucent so the band beneath still shows
    return c;
}

void paintMark(QPainter& painter, const QRectF& m, const LineMark& mark, const AnalysisColors& colors, bool showFreed)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QColor markColor = AnalysisColors::mark(mark.penalty);
    if (markColor.isValid()) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(markColor);
        painter.drawRoundedRect(m, 2, 2);
    }
    if (mark.direction != Direction::NotABranch) {
        const double s = std::min(m.width(), m.height()) * 0.8;
        const QPointF c = m.center();
        QPainterPath path;
        if (mark.direction == Direction::Taken) {
            path.moveTo(c.x() - s / 2, c.y() - s / 2);
            path.lineTo(c.x() + s / 2, c.y());
            path.lineTo(c.x() - s / 2, c.y() + s / 2);
        } else {
            path.moveTo(c.x() - s / 2, c.y() - s / 2);
            path.lineTo(c.x() + s / 2, c.y() - s / 2);
            path.lineTo(c.x(), c.y() + s / 2);
        }
        path.closeSubpath();
        painter.setPen(markColor.isValid() ? QPen(Qt::white, 1) : QPen(colors.gutterText, 1));
        painter.setBrush(mark.overridden ? (markColor.isValid() ? QColor(Qt::white) : colors.gutterCurrent)
                                         : QBrush(Qt::NoBrush));
        painter.drawPath(path);
    } else if (showFreed && mark.freed) {
        painter.setPen(QPen(colors.freed, 1.5));
        painter.setBrush(Qt::NoBrush);
        const double s = std::min(m.width(), m.height()) * 0.7;
        painter.drawEllipse(QRectF(m.center().x() - s / 2, m.center().y() - s / 2, s, s));
    }
    painter.restore();
}

QColor pressureColor(RegisterFile file)
{
    switch (file) {
    case RegisterFile::Vgpr:
        return QColor(0x3a, 0x7c, 0xc8); // blue, drawn filled
    case RegisterFile::Sgpr:
        return QColor(0x2e, 0xa0, 0x6a); // green line
    case RegisterFile::Agpr:
        return QColor(0xa0, 0x50, 0xc8); // violet line
    }
    return {};
}

QColor peakColor()
{
    return QColor(0xe0, 0x30, 0x40); // the hazard red: the peak is what costs occupancy
}

void paintCheckMark(QPainter& painter, const QRectF& cell)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    const double s = std::min(cell.width(), cell.height());
    const QPointF c = cell.center();
    QPainterPath path;
    path.moveTo(c.x(), c.y() - s / 2);
    path.lineTo(c.x() + s / 2, c.y() + s / 2);
    path.lineTo(c.x() - s / 2, c.y() + s / 2);
    path.closeSubpath();
    painter.setPen(Qt::NoPen);
    painter.setBrush(AnalysisColors::mark(PenaltyClass::Hazard));
    painter.drawPath(path);
    painter.setPen(QPen(Qt::white, std::max(1.0, s / 8)));
    painter.drawLine(QPointF(c.x(), c.y() - s / 6), QPointF(c.x(), c.y() + s / 6));
    painter.drawPoint(QPointF(c.x(), c.y() + s / 3));
    painter.restore();
}

QColor ldsRowsColor(int rows)
{
    // 1 row: conflict free (green); 2: yellow; up to 4: orange; more: red, darker with the degree.
    if (rows <= 1)
        return QColor(0x4c, 0xaf, 0x50);
    if (rows == 2)
        return QColor(0xf2, 0xc1, 0x2e);
    if (rows <= 4)
        return QColor(0xf0, 0x80, 0x30);
    if (rows <= 8)
        return QColor(0xe0, 0x40, 0x30);
    return QColor(0x9c, 0x1c, 0x3c);
}

} // namespace gcnlens::ui
