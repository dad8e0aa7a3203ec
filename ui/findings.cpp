// SPDX-License-Identifier: MIT
#include "ui/findings.h"

#include <QSet>

#include <algorithm>

namespace gcnlens::ui {

static QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

QString FindingView::message() const
{
    return qs(detail.str());
}

QString FindingView::tooltip() const
{
    QString text = QStringLiteral("%1: %2").arg(key.rule, message());
    if (producerLine > 0)
        text += QStringLiteral("\nproducer: line %1").arg(producerLine);
    text += QStringLiteral("\n%1").arg(waits);
    if (notGuaranteed)
        text += QStringLiteral(" (not guaranteed: the order of returns does not prove it)");
    if (!fix.isEmpty())
        text += QStringLiteral("\nfix: %1 before line %2")
                    .arg(QString(fix).replace(QLatin1Char('\n'), QStringLiteral("; ")))
                    .arg(line);
    return text;
}

std::vector<FindingView> findingViews(const CheckResult& checks)
{
    std::vector<FindingView> out;
    out.reserve(checks.hazards.size() + checks.waits.size());
    // One QString per distinct text, shared by the findings (implicitly shared copies).
    QSet<QString> texts;
    const auto shared = [&](const QString& text) { return *texts.insert(text); }; // the stored copy when there is one
    for (std::size_t i = 0; i < checks.hazards.size(); ++i) {
        const HazardFinding& h = checks.hazards[i];
        FindingView v;
        v.key = {FindingKind::Hazard, h.instruction, h.producer, shared(qs(h.rule))};
        v.index = int(i);
        v.line = h.line;
        v.producerLine = h.producerLine;
        v.detail = h.detail;
        v.waits = shared(QStringLiteral("%1 of %2 wait states").arg(h.present).arg(h.required));
        v.fix = shared(qs(h.fix));
        out.push_back(std::move(v));
    }
    for (std::size_t i = 0; i < checks.waits.size(); ++i) {
        const WaitcntFinding& w = checks.waits[i];
        FindingView v;
        v.key = {FindingKind::Waitcnt, w.instruction, w.producer, shared(qs(w.rule))};
        v.index = int(i);
        v.line = w.line;
        v.producerLine = w.producerLine;
        v.notGuaranteed = w.notGuaranteed;
        v.detail = w.detail;
        v.waits = shared(QStringLiteral("needs %1(%2)").arg(qs(w.counter)).arg(w.count));
        v.fix = shared(qs(w.fix));
        out.push_back(std::move(v));
    }
    std::stable_sort(out.begin(), out.end(), [](const FindingView& a, const FindingView& b) { return a.line < b.line; });
    return out;
}

template <typename Finding> static const Finding* find(const std::vector<Finding>& findings, const FindingKey& key)
{
    for (const Finding& f : findings)
        if (f.instruction == key.instruction && f.producer == key.producer && qs(f.rule) == key.rule)
            return &f;
    return nullptr;
}

const HazardFinding* findHazard(const CheckResult& checks, const FindingKey& key)
{
    return key.kind == FindingKind::Hazard ? find(checks.hazards, key) : nullptr;
}

const WaitcntFinding* findWait(const CheckResult& checks, const FindingKey& key)
{
    return key.kind == FindingKind::Waitcnt ? find(checks.waits, key) : nullptr;
}

QString pressureText(const LiveCounts& live, bool withAgprs)
{
    QString text = QStringLiteral("%1v %2s").arg(live.vgpr).arg(live.sgpr);
    if (withAgprs)
        text += QStringLiteral(" %1a").arg(live.agpr);
    return text;
}

int pressureChars(const LiveCounts& maximum, bool withAgprs)
{
    return int(pressureText(maximum, withAgprs).size());
}

QStringList pressureSentences(const Analysis& analysis, int kernel, bool relevantOnly)
{
    QStringList out;
    if (kernel < 0 || std::size_t(kernel) >= analysis.liveness.kernels.size()
        || std::size_t(kernel) >= analysis.occupancyInputs.size())
        return out;
    for (const PressureCost& cost : pressureCosts(analysis.program.gpu, analysis.occupancyInputs[std::size_t(kernel)],
                                                  analysis.liveness.kernels[std::size_t(kernel)], analysis.timing.options)) {
        if (relevantOnly && cost.fewer == 0)
            continue;
        const QString rule = cost.file == "sgpr" ? QStringLiteral("W_s") : QStringLiteral("W_v");
        out << QStringLiteral("%1 (%2, peak cost)").arg(qs(cost.text), rule);
    }
    return out;
}

} // namespace gcnlens::ui
