// SPDX-License-Identifier: MIT
#include "ui/editor/annotations.h"

#include <algorithm>

namespace gcnlens::ui {

PenaltyClass LineAnnotation::markClass() const
{
    if (hazardPenalty)
        return PenaltyClass::Hazard;
    if (branchPenalty)
        return PenaltyClass::Branch;
    if (fetchPenalty)
        return PenaltyClass::Fetch;
    return PenaltyClass::None;
}

bool LineAnnotation::textAreaAlike(const LineAnnotation* a, const LineAnnotation* b)
{
    if (!a || !b)
        return !a && !b;
    return a->position.oddBand == b->position.oddBand && (a->position.slot == 0) == (b->position.slot == 0)
        && a->markClass() == b->markClass() && a->freedBy.empty() == b->freedBy.empty();
}

bool LineAnnotation::gutterAlike(const LineAnnotation* a, const LineAnnotation* b)
{
    if (!a || !b)
        return !a && !b;
    return a->offset == b->offset && a->size == b->size && a->cycles + a->penaltyCycles == b->cycles + b->penaltyCycles
        && a->position.slot == b->position.slot && a->markClass() == b->markClass() && a->direction == b->direction
        && a->directionOverridden == b->directionOverridden && a->freedBy.empty() == b->freedBy.empty() && a->live == b->live
        && a->peak == b->peak && a->findings == b->findings;
}

static QString cycleText(const CycleCount& c)
{
    QString text = c.low == c.high ? QString::number(c.low) : QStringLiteral("%1–%2").arg(c.low).arg(c.high);
    if (c.noData)
        text += QStringLiteral(" (no timing data, counted as 4)");
    else if (c.unknown)
        text += QStringLiteral(" (unknown “?”, counted as 4)");
    if (!c.table.empty())
        text += QStringLiteral(" · %1: %2").arg(QString::fromStdString(c.table), QString::fromStdString(c.source));
    return text;
}

namespace {

// Rule ids repeat on thousands of lines: convert each once and share the QString (implicitly shared).
class RuleNames {
public:
    const QString& operator()(const std::string& rule)
    {
        for (const auto& [id, name] : m_names)
            if (id == rule)
                return name;
        return m_names.emplace_back(rule, QString::fromStdString(rule)).second;
    }

private:
    std::vector<std::pair<std::string, QString>> m_names;
};

} // namespace

LineAnnotations LineAnnotations::build(const Analysis& analysis)
{
    LineAnnotations out;
    const auto& instructions = analysis.program.instructions;
    const auto& timings = analysis.timing.instructions;
    int maxLine = 0;
    for (const auto& i : instructions)
        maxLine = std::max(maxLine, i.line);
    out.m_lines.resize(size_t(maxLine));
    RuleNames names;

    for (size_t index = 0; index < instructions.size(); ++index) {
        const Instruction& ins = instructions[index];
        if (ins.line <= 0)
            continue;
        LineAnnotation& a = out.m_lines[size_t(ins.line - 1)];
        const InstructionTiming* t = index < timings.size() ? &timings[index] : nullptr;
        if (a.firstInstruction < 0) {
            a.firstInstruction = int(index);
            a.offset = ins.offset;
            a.position = FetchPosition::at(ins.offset, ins.size).inBlock();
            a.isData = ins.isData;
            a.placeholder = ins.placeholder;
        }
        ++a.instructionCount;
        a.size += ins.size;
        a.twoDword = a.twoDword || ins.size == 8;
        out.m_maxOffset = std::max(out.m_maxOffset, std::uint64_t(ins.offset));
        if (index < analysis.liveness.instructions.size()) {
            const LiveCounts& live = analysis.liveness.instructions[index];
            a.live.vgpr = std::max(a.live.vgpr, live.vgpr);
            a.live.sgpr = std::max(a.live.sgpr, live.sgpr);
            a.live.agpr = std::max(a.live.agpr, live.agpr);
            out.m_maxLive = {std::max(out.m_maxLive.vgpr, live.vgpr), std::max(out.m_maxLive.sgpr, live.sgpr),
                             std::max(out.m_maxLive.agpr, live.agpr), 0};
        }
        if (!t)
            continue;
        a.cycles += t->cycles();
        if (t->direction() != Direction::NotABranch) {
            a.direction = t->direction();
            a.directionOverridden = t->directionOverridden();
            a.conditionalBranch = a.conditionalBranch || ins.branch == BranchKind::Conditional;
        }
        for (const Penalty& p : t->penalties()) {
            a.penaltyCycles += p.cycles;
            switch (penaltyClassOf(p.rule)) {
            case PenaltyClass::Fetch:
                a.fetchPenalty = true;
                break;
            case PenaltyClass::Branch:
                a.branchPenalty = true;
                break;
            case PenaltyClass::Hazard:
                a.hazardPenalty = true;
                break;
            case PenaltyClass::None:
                break;
            }
            auto& lines = out.m_linesByRule[names(p.rule)];
            if (lines.empty() || lines.back() != ins.line)
                lines.push_back(ins.line);
        }
        if (!t->freedBy().empty())
            a.freedBy = t->freedBy();
    }
    // Issue #16: the kernels' peak lines; issue #17: the findings by line.
    for (const KernelPressure& k : analysis.liveness.kernels)
        for (const auto& [peak, bit] :
             {std::pair {&k.vgpr, LineAnnotation::PeakVgpr}, std::pair {&k.sgpr, LineAnnotation::PeakSgpr},
              std::pair {&k.agpr, LineAnnotation::PeakAgpr}})
            if (peak->count > 0 && peak->line >= 1 && peak->line <= maxLine)
                out.m_lines[size_t(peak->line - 1)].peak |= bit;
    out.m_findings = std::make_shared<const std::vector<FindingView>>(findingViews(analysis.checks));
    for (const FindingView& f : *out.m_findings)
        if (f.line >= 1 && f.line <= maxLine && out.m_lines[size_t(f.line - 1)].findings < 255)
            ++out.m_lines[size_t(f.line - 1)].findings;
    for (auto& [rule, lines] : out.m_linesByRule) {
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    }
    return out;
}

QString LineAnnotations::tooltip(int line, const Analysis& analysis) const
{
    const LineAnnotation* a = at(line);
    if (!a)
        return {};
    const auto& instructions = analysis.program.instructions;
    const auto& timings = analysis.timing.instructions;
    QString text;
    int found = 0;
    // The line's instructions, in program order from its first one (they need not be adjacent).
    for (size_t index = size_t(a->firstInstruction); index < instructions.size() && found < a->instructionCount; ++index) {
        const Instruction& ins = instructions[index];
        if (ins.line != line)
            continue;
        if (found++)
            text += QStringLiteral("\n");
        text += QStringLiteral("%1 %2\noffset 0x%3 · slot %4 · %5 bytes")
                    .arg(QString::fromStdString(ins.mnemonic), QString::fromStdString(ins.operands))
                    .arg(ins.offset, 0, 16)
                    .arg(fetchPlace(ins).slot)
                    .arg(ins.size);
        if (ins.placeholder)
            text += QStringLiteral(" (did not assemble: assumed size)");
        if (index >= timings.size())
            continue;
        const InstructionTiming& t = timings[index];
        text += QStringLiteral("\ncycles %1 (C = %2)").arg(t.cycles()).arg(cycleText(*t.base()));
        // docs/model.md: where C comes from (a table row, MFMA passes or LLVM's model), or that it has none.
        if (!t.base()->rule.empty())
            text += QStringLiteral("\n%1: %2")
                        .arg(QString::fromStdString(t.base()->rule), QString::fromStdString(t.base()->ruleDetail));
        else if ((t.base()->unknown || t.base()->noData) && !ins.placeholder && !ins.isData)
            text += QStringLiteral("\nno timing: neither GcnTimings.md nor LLVM's model gives one, counted as 4");
        if (t.direction() != Direction::NotABranch) {
            text += QStringLiteral("\nassumed %1%2")
                        .arg(t.direction() == Direction::Taken ? QStringLiteral("taken") : QStringLiteral("not taken"),
                             t.directionOverridden() ? QStringLiteral(" (set by you)") : QString());
            if (ins.branch == BranchKind::Conditional)
                text += QStringLiteral(" — click the marker to flip");
        }
        for (const Penalty& p : t.penalties())
            text += QStringLiteral("\n%1 +%2: %3")
                        .arg(QString::fromStdString(p.rule))
                        .arg(p.cycles)
                        .arg(QString::fromStdString(p.detail));
        if (!t.freedBy().empty())
            text += QStringLiteral("\nsaved by %1: %2")
                        .arg(QString::fromStdString(t.freedBy()), QString::fromStdString(t.freedDetail()));
    }
    if (!analysis.liveness.instructions.empty()) // issue #16, docs/model.md section 4
        text += QStringLiteral("\nlive: %1").arg(pressureLine(*a, hasAgprs()));
    for (const FindingView* f : findingsOn(line)) // issue #17
        text += QStringLiteral("\n\n%1").arg(f->tooltip());
    return text;
}

QString pressureLine(const LineAnnotation& a, bool withAgprs)
{
    QString text = QStringLiteral("%1 VGPRs · %2 SGPRs").arg(a.live.vgpr).arg(a.live.sgpr);
    if (withAgprs)
        text += QStringLiteral(" · %1 AGPRs").arg(a.live.agpr);
    QStringList peaks;
    if (a.peak & LineAnnotation::PeakVgpr)
        peaks << QStringLiteral("VGPR");
    if (a.peak & LineAnnotation::PeakSgpr)
        peaks << QStringLiteral("SGPR");
    if (a.peak & LineAnnotation::PeakAgpr)
        peaks << QStringLiteral("AGPR");
    if (!peaks.isEmpty())
        text += QStringLiteral(" (the kernel's %1 peak)").arg(peaks.join(QStringLiteral(", ")));
    return text;
}

std::vector<const FindingView*> LineAnnotations::findingsOn(int line) const
{
    std::vector<const FindingView*> out;
    auto it =
        std::lower_bound(m_findings->begin(), m_findings->end(), line, [](const FindingView& f, int l) { return f.line < l; });
    for (; it != m_findings->end() && it->line == line; ++it)
        out.push_back(&*it);
    return out;
}

const LineAnnotation* LineAnnotations::at(int line) const
{
    if (line < 1 || line > int(m_lines.size()))
        return nullptr;
    const LineAnnotation& a = m_lines[size_t(line - 1)];
    return a.isInstruction() ? &a : nullptr;
}

} // namespace gcnlens::ui
