// SPDX-License-Identifier: MIT
// The report's occupancy part (timing-model.md section 6): readout, resources and charts per kernel.
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

void ReportBuilder::buildOccupancy(Flow& flow, int k)
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
            rows.push_back({QStringLiteral("AGPRs"), opt(ru->declaredAgprs), QString::number(ru->usedAgprs),
                            QString::number(in.agprs), QString()});
        QStringList extras;
        if (ru->vcc)
            extras << QStringLiteral("VCC");
        if (ru->flatScratch)
            extras << QStringLiteral("flat scratch");
        if (ru->xnack)
            extras << QStringLiteral("XNACK");
        rows.push_back({QStringLiteral("SGPRs"), opt(ru->declaredSgprs),
                        QStringLiteral("%1 (user %2%3)")
                            .arg(ru->usedSgprs)
                            .arg(ru->userSgprs)
                            .arg(extras.isEmpty() ? QString() : QStringLiteral(" + ") + extras.join(QStringLiteral(", "))),
                        QString::number(in.sgprs), occ.error.empty() ? QString::number(occ.allocatedSgprs) : QString()});
        rows.push_back({QStringLiteral("LDS bytes"), opt(ru->declaredLds), QStringLiteral("—"), QString::number(in.ldsBytes),
                        occ.error.empty() ? QString::number(occ.allocatedLds) : QString()});
        rows.push_back({QStringLiteral("Workgroup size"), QStringLiteral("—"), QStringLiteral("—"),
                        QString::number(in.workgroupSize), QString()});
        table(flow,
              {QStringLiteral("Resource"), QStringLiteral("Declared"), QStringLiteral("Used"), QStringLiteral("Occupancy input"),
               QStringLiteral("Allocated")},
              rows, {0.18, -0.14, -0.3, -0.2, -0.18}, 6);
        for (const std::string& w : ru->warnings)
            paragraph(flow, QStringLiteral("⚠ %1").arg(qs(w)), fonts_.body, colors_.warning, 8, 1);
    }
    // The window's occupancy sliders, when they were moved away from the kernel's figures.
    const auto& panel = options_.occupancy;
    if (panel && panel->kernel == k && !sameInput(panel->input, in)) {
        const OccupancyInput& at = panel->input;
        QString values = QStringLiteral("VGPRs %1, SGPRs %2, LDS %3 bytes, workgroup size %4")
                             .arg(at.vgprs)
                             .arg(at.sgprs)
                             .arg(at.ldsBytes)
                             .arg(at.workgroupSize);
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

bool ReportBuilder::sameInput(const OccupancyInput& a, const OccupancyInput& b)
{
    return a.vgprs == b.vgprs && a.agprs == b.agprs && a.sgprs == b.sgprs && a.ldsBytes == b.ldsBytes
        && a.workgroupSize == b.workgroupSize;
}

void ReportBuilder::occupancyReadout(Flow& flow, const OccupancyResult& occ)
{
    if (!occ.error.empty()) {
        paragraph(flow, QStringLiteral("Occupancy not computed: %1").arg(qs(occ.error)), fonts_.body, colors_.diagnostic);
        return;
    }
    QStringList limiters;
    for (const std::string& l : occ.limiters)
        limiters << qs(l);
    paragraph(
        flow,
        QStringLiteral("%1 waves per SIMD, %2 waves per CU; limited by %3.")
            .arg(occ.wavesPerSimd)
            .arg(occ.wavesPerCu)
            .arg(limiters.isEmpty() ? QStringLiteral("nothing (the hardware maximum)") : limiters.join(QStringLiteral(", "))),
        fonts_.bold, kInk, 0, 2);
    QStringList limits;
    for (const auto& [resource, waves] : occ.limits)
        limits << QStringLiteral("%1 → %2").arg(qs(resource)).arg(waves);
    if (!limits.isEmpty())
        paragraph(flow, QStringLiteral("Waves per SIMD each resource allows: %1.").arg(limits.join(QStringLiteral(", "))),
                  fonts_.body);
    for (const OccupancyHint& h : occ.hints)
        paragraph(flow, QStringLiteral("• %1").arg(qs(h.text)), fonts_.body, kInk, 8, 1);
}

void ReportBuilder::buildCharts(Flow& flow, const OccupancyInput& in, int waves)
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

void ReportBuilder::paintChart(QPainter& p, const QRectF& box, const QString& label, const ui::OccupancyChart& chart) const
{
    p.setRenderHint(QPainter::Antialiasing);
    p.setFont(fonts_.bold);
    p.setPen(kInk);
    p.drawText(QRectF(box.left(), box.top(), box.width(), 12), Qt::AlignHCenter | Qt::AlignTop,
               QStringLiteral("Waves/SIMD vs %1").arg(label.section(QLatin1Char(' '), 0, 0)));
    const QRectF plot(box.left() + 22, box.top() + 16, box.width() - 28, box.height() - 16 - 24);
    if (chart.curve.empty()) {
        p.setFont(fonts_.small);
        p.setPen(kMuted);
        p.drawText(plot, Qt::AlignCenter, QStringLiteral("no curve"));
        return;
    }
    const ChartAxis xAxis {double(std::min(0, chart.xMin)), double(std::max(chart.xMax, chart.xMin + 1)), plot.left(),
                           plot.right()};
    const ChartAxis yAxis {0, double(chart.yMax), plot.bottom(), plot.top()};
    auto map = [&](const QPointF& v) { return QPointF(xAxis.map(v.x()), yAxis.map(v.y())); };

    const QFontMetricsF fm = metrics(fonts_.small);
    chartAxes(p, plot, xAxis, yAxis, {box.left(), 19, 4, label, true});

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

} // namespace gcnlens::report::detail
