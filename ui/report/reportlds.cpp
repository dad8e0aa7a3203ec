// SPDX-License-Identifier: MIT
// The report's LDS bank-conflict heatmaps (timing-model.md section 7).
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

void ReportBuilder::buildLdsAndLegend()
{
    const bool haveLds = !a_.lds.empty() || !options_.patternText.isEmpty();
    if (haveLds) {
        Flow flow(doc_, frame_.contentRect(), QStringLiteral("LDS bank conflicts"));
        heading(flow, QStringLiteral("LDS bank conflicts"), fonts_.heading, 0);
        paragraph(flow,
                  QStringLiteral(
                      "Each grid shows, per lane group (rows) and bank (columns), how many distinct 128-byte rows "
                      "that bank serves; the group's conflict degree is its largest value and the access costs the "
                      "sum of its groups' degrees (timing-model.md section 7, lds-group %1 dwords; docs/model.md L-phases, %2).")
                      .arg(a_.timing.options.ldsGroupDwords)
                      .arg(qs(std::string(ldsPhasesName(ldsPhasesFor(a_.program.gpu.generation, a_.timing.options.ldsPhases))))),
                  fonts_.small, kMuted, 0, 2);
        if (!options_.patternText.isEmpty()) {
            const LdsAccessResult r = analyzeLdsPattern(options_.patternText.toStdString(), options_.patternOp.toStdString(),
                                                        options_.patternParameters, a_.timing.options.ldsGroupDwords,
                                                        ldsPhasesFor(a_.program.gpu.generation, a_.timing.options.ldsPhases));
            heatmap(flow, QStringLiteral("Typed pattern: %1 (%2)").arg(options_.patternText, options_.patternOp), r);
        }
        // Identical accesses (same instruction text, same per-bank rows) share one heatmap: an
        // unrolled kernel repeats the same DS instruction hundreds of times.
        struct Access {
            QString text; // "ds_read_b32 v3, v1"
            std::vector<int> lines;
            const LdsAccessResult* result = nullptr;
            QString problem; // non-empty: no heatmap, say why
        };
        std::vector<Access> accesses;
        std::map<QString, std::size_t> byKey;
        for (const auto& [index, r] : a_.lds) {
            if (index < 0 || std::size_t(index) >= a_.program.instructions.size())
                continue;
            const Instruction& ins = a_.program.instructions[std::size_t(index)];
            bool anyKnown = false;
            for (const LaneAccess& lane : r.lanes)
                anyKnown = anyKnown || lane.known;
            Access access;
            access.text = QStringLiteral("%1 %2").arg(qs(ins.mnemonic), qs(ins.operands)).trimmed();
            access.result = &r;
            if (!r.error.empty() || !anyKnown)
                access.problem = r.error.empty() ? QStringLiteral("addresses not known") : qs(r.error);
            QString key = access.text + QLatin1Char('|') + access.problem + QLatin1Char('|') + qs(r.note)
                + QStringLiteral("|%1|%2|%3|").arg(r.degree).arg(r.cycles).arg(r.allKnown);
            if (access.problem.isEmpty()) {
                for (const auto& group : r.bankRows)
                    for (const int v : group)
                        key += QString::number(v) + QLatin1Char(',');
            }
            const auto [it, inserted] = byKey.emplace(key, accesses.size());
            if (inserted)
                accesses.push_back(access);
            accesses[it->second].lines.push_back(ins.line);
        }
        auto sameAt = [](const std::vector<int>& lines) {
            QStringList rest;
            for (std::size_t i = 1; i < lines.size(); ++i)
                rest << QString::number(lines[i]);
            return QStringLiteral("The same access at line%1 %2.")
                .arg(rest.size() > 1 ? QStringLiteral("s") : QString(), rest.join(QStringLiteral(", ")));
        };
        for (const Access& access : accesses) {
            if (!access.problem.isEmpty())
                continue;
            heatmap(flow, QStringLiteral("Line %1: %2").arg(access.lines.front()).arg(access.text), *access.result,
                    access.lines.size() > 1 ? sameAt(access.lines) : QString());
        }
        bool headed = false;
        for (const Access& access : accesses) {
            if (access.problem.isEmpty())
                continue;
            if (!headed)
                heading(flow, QStringLiteral("DS instructions without known addresses"), fonts_.subheading, 10);
            headed = true;
            QString text = QStringLiteral("Line %1: %2: %3").arg(access.lines.front()).arg(access.text, access.problem);
            if (access.lines.size() > 1)
                text += QLatin1Char(' ') + sameAt(access.lines);
            paragraph(flow, text, fonts_.body, kMuted, 8, 1);
        }
    }
    Flow legend(doc_, frame_.contentRect(), QStringLiteral("Legend"));
    buildLegend(legend);
}

void ReportBuilder::heatmap(Flow& flow, const QString& title, const LdsAccessResult& r, const QString& also)
{
    heading(flow, title, fonts_.subheading, 12);
    if (!also.isEmpty())
        paragraph(flow, also, fonts_.small, kMuted, 0, 1);
    if (!r.error.empty()) {
        paragraph(flow, qs(r.error), fonts_.body, colors_.diagnostic);
        return;
    }
    QString summary = QStringLiteral("Conflict degree %1, %2 LDS cycles (conflict-free: %3)")
                          .arg(r.degree)
                          .arg(r.cycles)
                          .arg(r.conflictFreeCycles);
    if (!r.allKnown)
        summary += QStringLiteral("; some lanes' addresses are unknown and left out");
    if (!r.note.empty())
        summary += QStringLiteral("; %1").arg(qs(r.note));
    paragraph(flow, summary + QLatin1Char('.'), fonts_.body, r.degree > 1 ? colors_.diagnostic : kInk);

    const int rows = std::max<int>(1, int(r.bankRows.size()));
    const qreal labelW = 66;
    const qreal gridW = flow.width() - labelW;
    const qreal cellH = std::min<qreal>(12, gridW / 32);
    const qreal h = 10 + cellH * rows;
    flow.add(h, 3, [this, r, rows, labelW, gridW, cellH](QPainter& p, QPointF at) {
        // The LDS panel's geometry with a row per lane group (the panel has one per lane).
        const ui::HeatmapGeometry grid(QRectF(at.x(), at.y(), labelW + gridW, 10 + cellH * rows), rows, 32, labelW, 10);
        p.setFont(fonts_.monoSmall);
        p.setPen(kMuted);
        for (int b = 0; b < 32; b += 1) {
            const QRectF c = grid.cellRect(0, b);
            p.drawText(QRectF(c.left(), at.y(), c.width(), 10), Qt::AlignCenter, QString::number(b));
        }
        p.drawText(QRectF(at.x(), at.y(), labelW - 4, 10), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("bank"));
        for (int g = 0; g < rows; ++g) {
            const LaneGroup group = std::size_t(g) < r.groups.size() ? r.groups[std::size_t(g)] : LaneGroup {};
            const QRectF rowCell = grid.cellRect(g, 0);
            p.setPen(kMuted);
            p.drawText(QRectF(at.x(), rowCell.top(), labelW - 4, rowCell.height()), Qt::AlignRight | Qt::AlignVCenter,
                       QStringLiteral("lanes %1 ×%2").arg(qs(laneGroupText(group))).arg(group.degree));
            for (int b = 0; b < 32; ++b) {
                const int v = std::size_t(g) < r.bankRows.size() && std::size_t(b) < r.bankRows[std::size_t(g)].size()
                    ? r.bankRows[std::size_t(g)][std::size_t(b)]
                    : 0;
                const QRectF c = grid.cellRect(g, b);
                if (v > 0)
                    p.fillRect(c, heat(v));
                p.setPen(QPen(QColor(0xd0, 0xd0, 0xd0), 0.3));
                p.setBrush(Qt::NoBrush);
                p.drawRect(c);
                if (v > 0) {
                    p.setPen(kInk);
                    p.drawText(c, Qt::AlignCenter, QString::number(v));
                }
            }
        }
    });
}

QColor ReportBuilder::heat(int rows)
{
    QColor fill = ui::ldsRowsColor(rows);
    fill.setAlpha(140);
    return fill;
}

} // namespace gcnlens::report::detail
