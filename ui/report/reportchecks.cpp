// SPDX-License-Identifier: MIT
// The report's checks part (issue #17, hazards.md and docs/model.md sections 5–6): every wait-state
// hazard and s_waitcnt finding with its rule id, consumer and producer lines, the wait states
// required and present (or the wait that would cover it) and the fix, worded as in the window
// (ui/findings.h). The listing marks the same lines.
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

void ReportBuilder::buildChecks()
{
    const CheckResult& checks = a_.checks;
    Flow flow(doc_, frame_.contentRect(), QStringLiteral("Checks"));
    heading(flow, QStringLiteral("Checks: wait-state hazards and s_waitcnt"), fonts_.heading, 0);
    paragraph(flow,
              QStringLiteral("Each hazard names its rule (hazards.md section 2, docs/model.md section 5), the instruction that "
                             "produced the register, the wait states the rule requires and the fewest present on any path "
                             "(loop back edges included), and the s_nop that fixes it. Each s_waitcnt finding (docs/model.md "
                             "section 6) names the counter and the wait that would cover the use; \"not guaranteed\" means "
                             "out-of-order returns leave only a count of 0 as proof."),
              fonts_.small, kMuted, 0, 2);
    if (findings_.empty()) {
        paragraph(flow,
                  QStringLiteral("No hazard and no s_waitcnt finding on %1.")
                      .arg(qs(a_.program.gpu.targetId.empty() ? a_.program.gpu.processor : a_.program.gpu.targetId)),
                  fonts_.body, kInk, 0, 6);
    } else {
        paragraph(flow,
                  QStringLiteral("%1 hazard(s), %2 s_waitcnt finding(s).").arg(checks.hazards.size()).arg(checks.waits.size()),
                  fonts_.bold, kInk, 0, 4);
        std::vector<QStringList> rows;
        // Waits: a hazard's wait states present of required; an s_waitcnt finding's covering wait.
        for (const ui::FindingView& f : findings_) {
            QString waits;
            if (const HazardFinding* h = ui::findHazard(checks, f.key))
                waits = QStringLiteral("%1 of %2").arg(h->present).arg(h->required);
            else if (const WaitcntFinding* w = ui::findWait(checks, f.key))
                waits = QStringLiteral("%1(%2)%3")
                            .arg(qs(w->counter))
                            .arg(w->count)
                            .arg(w->notGuaranteed ? QStringLiteral(" n.g.") : QString());
            rows.push_back({f.key.rule, QString::number(f.line),
                            f.producerLine > 0 ? QString::number(f.producerLine) : QStringLiteral("—"), waits,
                            QString(f.fix).replace(QLatin1Char('\n'), QStringLiteral("; ")), f.message()});
        }
        table(flow,
              {QStringLiteral("Rule"), QStringLiteral("Line"), QStringLiteral("From"), QStringLiteral("Waits"),
               QStringLiteral("Fix"), QStringLiteral("What")},
              rows, {0.18, -0.06, -0.06, 0.16, 0.21, 0.33}, 4, true);
        paragraph(
            flow,
            QStringLiteral("Line: the consumer; From: the producer's line; Waits: wait states present of required (hazards) "
                           "or the wait that covers the use (s_waitcnt; n.g.: not guaranteed, see What)."),
            fonts_.small, kMuted, 0, 3);
    }
    for (const std::string& note : checks.notes)
        paragraph(flow, QStringLiteral("Note: %1").arg(qs(note)), fonts_.small, kMuted, 0, 2);
}

} // namespace gcnlens::report::detail
