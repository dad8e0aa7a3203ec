// SPDX-License-Identifier: MIT
// The report's first part: the title block, assembler messages, totals and penalties by rule.
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

QString ReportBuilder::timingSources() const
{
    std::map<std::string, int> bySource;
    for (std::size_t i = 0; i < a_.program.instructions.size() && i < a_.timing.instructions.size(); ++i) {
        const Instruction& in = a_.program.instructions[i];
        if (!in.isData && !in.placeholder && !a_.timing.instructions[i].base()->rule.empty())
            ++bySource[a_.timing.instructions[i].base()->rule];
    }
    QStringList parts;
    for (const auto& [rule, count] : bySource)
        parts << QStringLiteral("%1 %2").arg(qs(rule)).arg(count);
    QStringList untimed;
    for (const auto& [mnemonic, count] : a_.timing.totals.unknownMnemonics)
        untimed << QStringLiteral("%1 (%2)").arg(qs(mnemonic)).arg(count);
    QString text = parts.join(QStringLiteral(", "));
    text += untimed.isEmpty() ? QStringLiteral("; every instruction timed")
                              : QStringLiteral("; no timing: %1").arg(untimed.join(QStringLiteral(", ")));
    return text;
}

void ReportBuilder::buildSummary()
{
    Flow flow(doc_, frame_.contentRect(), QStringLiteral("Summary"));
    const Program& program = a_.program;
    const GpuTarget& gpu = program.gpu;

    flow.add(lineHeight(fonts_.title) + 4, 0, [this, w = flow.width()](QPainter& p, QPointF at) {
        p.setFont(fonts_.title);
        p.setPen(kInk);
        p.drawText(QRectF(at, QSizeF(w, 40)), Qt::AlignLeft | Qt::AlignTop, QStringLiteral("gcnlens report: %1").arg(name_));
    });

    // Title block: key/value rows, values wrapped.
    QStringList kernelNames;
    for (const Kernel& k : program.kernels)
        kernelNames << qs(k.name);
    QStringList optionText;
    for (const auto& [key, value] : a_.timing.options.nonDefaultValues())
        optionText << QStringLiteral("%1=%2").arg(qs(key), qs(value));
    // Branch directions the user set (the window's gutter, the CLI's --taken / --not-taken).
    QStringList directions;
    for (std::size_t i = 0; i < a_.timing.instructions.size() && i < program.instructions.size(); ++i) {
        const InstructionTiming& t = a_.timing.instructions[i];
        if (t.directionOverridden())
            directions << QStringLiteral("line %1 %2")
                              .arg(program.instructions[i].line)
                              .arg(t.direction() == Direction::Taken ? QStringLiteral("taken") : QStringLiteral("not taken"));
    }
    std::vector<std::pair<QString, QString>> titleRows = {
        {QStringLiteral("File"), options_.sourceName.isEmpty() ? name_ : options_.sourceName},
        {QStringLiteral("Kernels"),
         kernelNames.isEmpty() ? QStringLiteral("(none found)") : kernelNames.join(QStringLiteral(", "))},
        {QStringLiteral("GPU"),
         gpu.product.empty() ? QStringLiteral("%1 (a processor name, no product preset)").arg(qs(gpu.name)) : qs(gpu.product)},
        {QStringLiteral("Processor"), qs(gpu.targetId.empty() ? gpu.processor : gpu.targetId)},
        {QStringLiteral("Generation"), qs(std::string(generationName(gpu.generation)))},
        {QStringLiteral("DPFACTOR"), QString::number(gpu.dpfactor)},
        {QStringLiteral("DP factor from"), qs(gpu.dpfactorSource)},
        {QStringLiteral("Timing sources"), timingSources()},
        {QStringLiteral("Model options"),
         optionText.isEmpty() ? QStringLiteral("defaults (timing-model.md section 9)") : optionText.join(QStringLiteral(", "))},
        {QStringLiteral("Branch directions"),
         directions.isEmpty() ? QStringLiteral("as the model assumes (timing-model.md section 3)")
                              : directions.join(QStringLiteral(", "))},
        {QStringLiteral("Date"), date_.toString(QStringLiteral("yyyy-MM-dd HH:mm"))},
        {QStringLiteral("gcnlens version"), reportVersion()},
    };
    const qreal keyW = 95;
    for (const auto& [key, value] : titleRows) {
        const qreal h = std::max(lineHeight(fonts_.body), wrappedHeight(fonts_.body, flow.width() - keyW, value));
        flow.add(h, 1, [this, key, value, keyW, h, w = flow.width()](QPainter& p, QPointF at) {
            p.setFont(fonts_.bold);
            p.setPen(kMuted);
            p.drawText(QRectF(at, QSizeF(keyW, h)), Qt::AlignLeft | Qt::AlignTop, key);
            p.setFont(fonts_.body);
            p.setPen(kInk);
            p.drawText(QRectF(at + QPointF(keyW, 0), QSizeF(w - keyW, h + 2)), Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop,
                       value);
        });
    }

    buildDiagnostics(flow);
    buildTotals(flow);
    for (std::size_t k = 0; k < program.kernels.size(); ++k)
        buildOccupancy(flow, int(k));
}

void ReportBuilder::buildDiagnostics(Flow& flow)
{
    std::vector<const Diagnostic*> errors, others;
    for (const Diagnostic& d : a_.program.diagnostics)
        (d.severity == Severity::Error ? errors : others).push_back(&d);
    if (errors.empty() && others.empty())
        return;
    heading(flow,
            errors.empty() ? QStringLiteral("Assembler messages")
                           : QStringLiteral("Assembler errors (%1): the figures below are incomplete").arg(errors.size()),
            fonts_.heading);
    auto line = [](const Diagnostic& d) {
        QString text = QStringLiteral("line %1:%2: %3: %4")
                           .arg(d.line)
                           .arg(d.column + 1)
                           .arg(qs(std::string(severityName(d.severity))), qs(d.message));
        if (!d.origin.empty())
            text += QStringLiteral(" (%1)").arg(qs(d.origin));
        return text;
    };
    for (const Diagnostic* d : errors)
        paragraph(flow, line(*d), fonts_.body, colors_.diagnostic, 8, 1);
    constexpr std::size_t maxOthers = 30;
    for (std::size_t i = 0; i < others.size() && i < maxOthers; ++i)
        paragraph(flow, line(*others[i]), fonts_.body, others[i]->severity == Severity::Warning ? colors_.warning : kMuted, 8, 1);
    if (others.size() > maxOthers)
        paragraph(flow, QStringLiteral("… and %1 more (shown in the listing)").arg(others.size() - maxOthers), fonts_.body,
                  kMuted, 8, 1);
}

QStringList ReportBuilder::totalsRow(const QString& scope, const Totals& t)
{
    return {scope,
            number(t.instructions),
            number((long long)t.bytes),
            number(t.baseCycles),
            number(t.penaltyCycles),
            number(t.singleWaveCycles),
            number(t.hiddenCycles)};
}

void ReportBuilder::buildTotals(Flow& flow)
{
    heading(flow, QStringLiteral("Summary"), fonts_.heading, 12);
    std::vector<QStringList> rows;
    const auto& kernels = a_.program.kernels;
    for (std::size_t k = 0; k < kernels.size() && k < a_.timing.kernelTotals.size(); ++k)
        rows.push_back(totalsRow(qs(kernels[k].name), a_.timing.kernelTotals[k]));
    if (kernels.size() != 1)
        rows.push_back(totalsRow(QStringLiteral("whole file"), a_.timing.totals));
    table(flow,
          {QStringLiteral("Scope"), QStringLiteral("Instructions"), QStringLiteral("Bytes"), QStringLiteral("Base cycles"),
           QStringLiteral("Penalty cycles"), QStringLiteral("Single-wave"), QStringLiteral("Latency-hidden")},
          rows, {0.16, -0.13, -0.09, -0.13, -0.15, -0.16, -0.18});
    QString note = QStringLiteral("Single-wave cycles = base + penalties (one wave per SIMD); latency-hidden cycles count "
                                  "vector issue only, what remains at two or more waves per SIMD (timing-model.md section 5).");
    if (a_.timing.totals.unknownTimings > 0)
        note += QStringLiteral(" %1 instruction(s) have no known cycle count and are counted as 4 (marked ? in the listing): %2.")
                    .arg(a_.timing.totals.unknownTimings)
                    .arg(timingSources().section(QStringLiteral("; no timing: "), 1));
    paragraph(flow, note, fonts_.small, kMuted, 0, 3);

    heading(flow, QStringLiteral("Penalties by rule"), fonts_.subheading, 10);
    std::vector<QStringList> prow; // the summary dock's rows
    for (const ui::PenaltyRuleModel::Row& row : ui::PenaltyRuleModel::rowsFor(a_.timing.totals))
        prow.push_back({row.rule, number(row.count), number(row.cycles), row.meaning});
    if (prow.empty()) {
        paragraph(flow, QStringLiteral("No penalties."), fonts_.body);
    } else {
        table(flow, {QStringLiteral("Rule"), QStringLiteral("Count"), QStringLiteral("Cycles"), QStringLiteral("Meaning")}, prow,
              {0.2, -0.09, -0.1, 0.61}, 4, true);
    }
}

} // namespace gcnlens::report::detail
