// SPDX-License-Identifier: MIT
// The report's building blocks: headings, paragraphs, tables and colour keys that flow across pages.
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

qreal ReportBuilder::wrappedHeight(const QFont& font, qreal width, const QString& text) const
{
    return metrics(font).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text).height();
}

void ReportBuilder::heading(Flow& flow, const QString& text, const QFont& font, qreal spacing)
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

void ReportBuilder::paragraph(Flow& flow, const QString& text, const QFont& font, const QColor& color, qreal indent,
                              qreal spacing)
{
    const qreal w = flow.width() - indent;
    const qreal h = wrappedHeight(font, w, text);
    flow.add(h, spacing, [=](QPainter& p, QPointF at) {
        p.setFont(font);
        p.setPen(color);
        p.drawText(QRectF(at + QPointF(indent, 0), QSizeF(w, h + 2)), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    });
}

void ReportBuilder::table(Flow& flow, const QStringList& headers, const std::vector<QStringList>& rows,
                          const std::vector<double>& widths, qreal spacing, bool wrapLast)
{
    const qreal lineH = lineHeight(fonts_.body) + 2;
    const qreal total = flow.width();
    const qreal lastW = std::abs(widths.back()) * total - 6;
    auto heightOf = [&](const QStringList& cells) {
        if (!wrapLast || cells.size() < qsizetype(widths.size()))
            return lineH;
        return std::max(lineH, wrappedHeight(fonts_.body, lastW, cells[qsizetype(widths.size()) - 1]) + 2);
    };
    auto paintRow = [this, widths, total, wrapLast](QPainter& p, QPointF at, const QStringList& cells, bool header, bool shade,
                                                    qreal rowH) {
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
    flow.add(lineH, spacing,
             [paintRow, headers, lineH](QPainter& p, QPointF at) { paintRow(p, at, headers, true, false, lineH); });
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const qreal h = heightOf(rows[r]);
        flow.add(h, 0, [paintRow, cells = rows[r], shade = r % 2 == 1, h](QPainter& p, QPointF at) {
            paintRow(p, at, cells, false, shade, h);
        });
    }
}

void ReportBuilder::swatches(Flow& flow, const std::vector<std::pair<QColor, QString>>& keys)
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

void ReportBuilder::chartAxes(QPainter& p, const QRectF& plot, const ChartAxis& xAxis, const ChartAxis& yAxis,
                              const AxesStyle& style) const
{
    p.setFont(fonts_.small);
    for (const double t : yAxis.ticks(5)) {
        const qreal y = yAxis.map(t);
        p.setPen(QPen(QColor(0xe2, 0xe2, 0xe2), 0.4));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(kMuted);
        p.drawText(QRectF(style.labelLeft, y - 5, style.labelWidth, 10), Qt::AlignRight | Qt::AlignVCenter, QString::number(t));
    }
    for (const double t : xAxis.ticks(style.xTicks)) {
        const qreal x = xAxis.map(t);
        p.setPen(QPen(kRule, 0.5));
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 2));
        p.setPen(kMuted);
        p.drawText(QRectF(x - 20, plot.bottom() + 2, 40, 10), Qt::AlignHCenter | Qt::AlignTop,
                   style.separators ? QLocale::c().toString(qlonglong(t)) : QString::number(qlonglong(t)));
    }
    p.drawText(QRectF(plot.left(), plot.bottom() + 12, plot.width(), 10), Qt::AlignHCenter | Qt::AlignTop, style.xLabel);
    p.setPen(QPen(kRule, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
}

} // namespace gcnlens::report::detail
