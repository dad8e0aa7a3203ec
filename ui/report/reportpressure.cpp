// SPDX-License-Identifier: MIT
// The report's register-pressure part (issue #16, docs/model.md section 4): per kernel, the live
// VGPRs, SGPRs and AGPRs of every line as a graph, the peak line marked, and what each peak costs
// in occupancy (the occupancy dock's sentences, ui/findings.h).
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

void ReportBuilder::buildPressure()
{
    const auto& kernels = a_.liveness.kernels;
    if (kernels.empty() || a_.liveness.instructions.empty())
        return;
    Flow flow(doc_, frame_.contentRect(), QStringLiteral("Register pressure"));
    heading(flow, QStringLiteral("Register pressure"), fonts_.heading, 0);
    paragraph(flow,
              QStringLiteral("Live registers at each instruction: those live into it and those it writes, per register file "
                             "(docs/model.md section 4, liveness over the control-flow graph). The peak decides the "
                             "allocation the occupancy model sees (timing-model.md section 6, W_v and W_s)."),
              fonts_.small, kMuted, 0, 2);
    for (std::size_t k = 0; k < kernels.size() && k < a_.program.kernels.size(); ++k) {
        const KernelPressure& peak = kernels[k];
        heading(flow, QStringLiteral("Kernel %1").arg(qs(a_.program.kernels[k].name)), fonts_.subheading, 12);
        QStringList peaks;
        for (const auto& [name, p] :
             {std::pair {QStringLiteral("VGPRs"), &peak.vgpr}, std::pair {QStringLiteral("SGPRs"), &peak.sgpr},
              std::pair {QStringLiteral("AGPRs"), &peak.agpr}})
            if (p->count > 0)
                peaks << QStringLiteral("%1 %2 at line %3").arg(p->count).arg(name).arg(p->line);
        paragraph(flow,
                  QStringLiteral("Peaks: %1.")
                      .arg(peaks.isEmpty() ? QStringLiteral("no registers live") : peaks.join(QStringLiteral(", "))),
                  fonts_.bold, kInk, 0, 2);
        for (const QString& sentence : ui::pressureSentences(a_, int(k)))
            paragraph(flow, QStringLiteral("• %1").arg(sentence), fonts_.body, kInk, 8, 1);
        pressureGraph(flow, int(k));
    }
    for (const std::string& note : a_.liveness.notes)
        paragraph(flow, QStringLiteral("Note: %1").arg(qs(note)), fonts_.small, kMuted, 0, 2);
}

void ReportBuilder::pressureGraph(Flow& flow, int kernel)
{
    // One point per instruction of the kernel at its source line; x: lines, y: live registers.
    struct Point {
        int line;
        LiveCounts live;
    };
    std::vector<Point> points;
    const auto& instructions = a_.program.instructions;
    bool agprs = false;
    for (std::size_t i = 0; i < instructions.size() && i < a_.liveness.instructions.size(); ++i) {
        if (instructions[i].kernel != kernel || instructions[i].line <= 0 || instructions[i].isData)
            continue;
        points.push_back({instructions[i].line, a_.liveness.instructions[i]});
        agprs = agprs || a_.liveness.instructions[i].agpr > 0;
    }
    if (points.empty())
        return;
    int top = 1;
    for (const Point& p : points)
        top = std::max({top, int(p.live.vgpr), int(p.live.sgpr), int(p.live.agpr)});
    const KernelPressure& peak = a_.liveness.kernels[std::size_t(kernel)];
    const qreal h = 150;
    flow.add(h, 6, [this, points, top, peak, agprs, w = flow.width(), h](QPainter& p, QPointF at) {
        const QRectF plot(at.x() + 28, at.y() + 14, w - 36, h - 14 - 22);
        const int firstLine = points.front().line, lastLine = std::max(points.back().line, points.front().line + 1);
        const ChartAxis xAxis {double(firstLine), double(lastLine), plot.left(), plot.right()};
        const ChartAxis yAxis {0, double(top), plot.bottom(), plot.top()};
        p.setRenderHint(QPainter::Antialiasing);
        chartAxes(p, plot, xAxis, yAxis, {at.x(), 25, 8, QStringLiteral("source line"), false});

        // VGPRs filled as steps (a count holds until the next instruction), SGPRs and AGPRs as lines.
        auto steps = [&](auto count) {
            QPolygonF poly;
            for (std::size_t i = 0; i < points.size(); ++i) {
                const qreal x = xAxis.map(points[i].line);
                const qreal next = i + 1 < points.size() ? xAxis.map(points[i + 1].line) : std::min(plot.right(), x + 2);
                const qreal y = yAxis.map(count(points[i].live));
                poly << QPointF(x, y) << QPointF(std::max(x, next), y);
            }
            return poly;
        };
        QPolygonF vgpr = steps([](const LiveCounts& c) { return double(c.vgpr); });
        QPolygonF area = vgpr;
        area.prepend(QPointF(vgpr.front().x(), plot.bottom()));
        area.append(QPointF(vgpr.back().x(), plot.bottom()));
        QColor fill = ui::pressureColor(ui::RegisterFile::Vgpr);
        fill.setAlpha(90);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPolygon(area);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(ui::pressureColor(ui::RegisterFile::Vgpr), 0.8));
        p.drawPolyline(vgpr);
        p.setPen(QPen(ui::pressureColor(ui::RegisterFile::Sgpr), 0.9));
        p.drawPolyline(steps([](const LiveCounts& c) { return double(c.sgpr); }));
        if (agprs) {
            p.setPen(QPen(ui::pressureColor(ui::RegisterFile::Agpr), 0.9));
            p.drawPolyline(steps([](const LiveCounts& c) { return double(c.agpr); }));
        }
        // The peak line: a red rule and its label.
        if (peak.vgpr.count > 0) {
            const qreal x = xAxis.map(peak.vgpr.line);
            p.setPen(QPen(ui::peakColor(), 0.9, Qt::DashLine));
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
            const QString label = QStringLiteral("peak: line %1, %2 VGPRs").arg(peak.vgpr.line).arg(peak.vgpr.count);
            const qreal lw = metrics(fonts_.small).horizontalAdvance(label) + 4;
            p.setPen(ui::peakColor());
            p.drawText(QRectF(x + lw + 4 > plot.right() ? x - lw - 2 : x + 3, plot.top() - 12, lw, 10),
                       Qt::AlignLeft | Qt::AlignTop, label);
        }
        // Key, top left.
        qreal kx = plot.left() + 4;
        const std::pair<ui::RegisterFile, QString> keys[] = {{ui::RegisterFile::Vgpr, QStringLiteral("VGPRs")},
                                                             {ui::RegisterFile::Sgpr, QStringLiteral("SGPRs")},
                                                             {ui::RegisterFile::Agpr, QStringLiteral("AGPRs")}};
        for (const auto& [file, name] : keys) {
            if (file == ui::RegisterFile::Agpr && !agprs)
                continue;
            p.fillRect(QRectF(kx, at.y() + 2, 8, 6), ui::pressureColor(file));
            p.setPen(kInk);
            p.drawText(QRectF(kx + 10, at.y(), 40, 10), Qt::AlignLeft | Qt::AlignVCenter, name);
            kx += 48;
        }
    });
}

} // namespace gcnlens::report::detail
