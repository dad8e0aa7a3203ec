// SPDX-License-Identifier: MIT
// The report's legend: rule ids, how to read the listing, the colour keys.
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

void ReportBuilder::buildLegend(Flow& flow)
{
    heading(flow, QStringLiteral("Legend"), fonts_.heading, 0);
    heading(flow, QStringLiteral("Rule ids"), fonts_.subheading, 6);
    const qreal idW = 100, sourceW = 130;
    const qreal meaningW = flow.width() - idW - sourceW;
    for (const RuleInfo& rule : ruleLegend()) {
        const QString id = qs(rule.id), meaning = qs(rule.meaning), source = qs(rule.source);
        const qreal h = std::max({lineHeight(fonts_.body), wrappedHeight(fonts_.body, meaningW - 6, meaning),
                                  wrappedHeight(fonts_.small, sourceW, source)});
        flow.add(h, 3,
                 [this, id, meaning, source, idW, meaningW, sourceW, h, penalty = rule.penaltyClass](QPainter& p, QPointF at) {
                     p.setFont(fonts_.code);
                     p.setPen(penalty == PenaltyClass::None ? colors_.freed : AnalysisColors::mark(penalty));
                     p.drawText(QRectF(at, QSizeF(idW, h)), Qt::AlignLeft | Qt::AlignTop, id);
                     p.setFont(fonts_.body);
                     p.setPen(kInk);
                     p.drawText(QRectF(at + QPointF(idW, 0), QSizeF(meaningW - 6, h + 2)),
                                Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, meaning);
                     p.setFont(fonts_.small);
                     p.setPen(kMuted);
                     p.drawText(QRectF(at + QPointF(idW + meaningW, 0), QSizeF(sourceW, h + 2)),
                                Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, source);
                 });
    }

    heading(flow, QStringLiteral("Reading the listing"), fonts_.subheading, 12);
    const QStringList keys = {
        QStringLiteral(
            "Columns, as in the window's gutter: source line, offset from the kernel entry, slot p = (offset >> 2) & 7 "
            "in its 32-byte block, size in bytes, cycles C(I) (T/N: branch assumed taken/not taken; a-b: a range, "
            "the low end counted; ?: unknown, counted as 4; ~: a value the source doubts), live registers (v: VGPRs, s: SGPRs, "
            "a: AGPRs; bold red: the kernel's peak, docs/model.md section 4), the marker, a warning triangle for a hazard or "
            "s_waitcnt finding (its rule and fix in the rules column; the Checks page lists them), then the source and the "
            "rules with their cycles."),
        QStringLiteral("Bands: every other 32-byte fetch block is tinted and a thin line marks where a new block starts; a bar "
                       "before the source marks an encoding that runs into the next block."),
        QStringLiteral("Shading and marker: the class of the costliest penalty on the instruction (hazard over branch over "
                       "fetch); a triangle is a branch's assumed direction (right: taken, down: not taken; filled: set by you); "
                       "a ring an instruction a freeing rule (in parentheses) saved."),
        QStringLiteral("↪ continues a long source line; ↳ lists further instructions a macro or .rept expanded on that line."),
    };
    for (const QString& k : keys)
        paragraph(flow, k, fonts_.body, kInk, 0, 3);
    swatches(flow,
             {{colors_.fetch, QStringLiteral("fetch penalty")},
              {colors_.branch, QStringLiteral("branch penalty")},
              {colors_.hazard, QStringLiteral("hazard")},
              {colors_.bandOdd, QStringLiteral("every other fetch block")}});

    heading(flow, QStringLiteral("Register pressure"), fonts_.subheading, 10);
    swatches(flow,
             {{ui::pressureColor(ui::RegisterFile::Vgpr), QStringLiteral("VGPRs")},
              {ui::pressureColor(ui::RegisterFile::Sgpr), QStringLiteral("SGPRs")},
              {ui::pressureColor(ui::RegisterFile::Agpr), QStringLiteral("AGPRs")},
              {ui::peakColor(), QStringLiteral("peak line")}});

    heading(flow, QStringLiteral("Listing colours (gcn-asm.xml, %1 theme)").arg(highlighter_.theme().name()), fonts_.subheading,
            10);
    std::vector<std::pair<QColor, QString>> formats;
    for (const ui::NamedFormat& f : highlighter_.formats())
        if (f.color.isValid() && f.color != colors_.text)
            formats.emplace_back(f.color, f.name);
    swatches(flow, formats);

    heading(flow, QStringLiteral("LDS heatmaps"), fonts_.subheading, 10);
    swatches(flow,
             {{heat(1), QStringLiteral("1 row: conflict free")},
              {heat(2), QStringLiteral("2 rows")},
              {heat(4), QStringLiteral("3–4 rows")},
              {heat(8), QStringLiteral("5–8 rows")},
              {heat(9), QStringLiteral("more than 8 rows")}});
}

} // namespace gcnlens::report::detail
