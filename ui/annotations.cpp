// SPDX-License-Identifier: MIT
#include "ui/annotations.h"

#include <algorithm>

namespace gcnlens::ui {

PenaltyClass penaltyClass(const std::string& rule)
{
    // timing-model.md section 8: fetch rules (section 2), branch rules (3), hazards (4).
    if (rule == "fetch-align" || rule == "fetch-straddle")
        return PenaltyClass::Fetch;
    if (rule == "branch-target" || rule == "branch-position")
        return PenaltyClass::Branch;
    if (rule.empty())
        return PenaltyClass::None;
    return PenaltyClass::Hazard; // valu-salu, vcc-exec-branch, scc-branch
}

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

LineAnnotations LineAnnotations::build(const Analysis& analysis)
{
    LineAnnotations out;
    const auto& instructions = analysis.program.instructions;
    const auto& timings = analysis.timing.instructions;
    int maxLine = 0;
    for (const auto& i : instructions)
        maxLine = std::max(maxLine, i.line);
    out.m_lines.resize(size_t(maxLine));

    for (size_t index = 0; index < instructions.size(); ++index) {
        const Instruction& ins = instructions[index];
        if (ins.line <= 0)
            continue;
        LineAnnotation& a = out.m_lines[size_t(ins.line - 1)];
        const InstructionTiming* t = index < timings.size() ? &timings[index] : nullptr;
        if (a.firstInstruction < 0) {
            a.firstInstruction = int(index);
            a.offset = ins.offset;
            a.position = FetchPosition::at(ins.offset, ins.size);
            a.isData = ins.isData;
            a.placeholder = ins.placeholder;
        } else {
            a.tooltip += QStringLiteral("\n");
        }
        ++a.instructionCount;
        a.size += ins.size;
        a.twoDword = a.twoDword || ins.size == 8;
        out.m_maxOffset = std::max(out.m_maxOffset, ins.offset);

        QString tip = QStringLiteral("%1 %2\noffset 0x%3 · slot %4 · %5 bytes")
                          .arg(QString::fromStdString(ins.mnemonic), QString::fromStdString(ins.operands))
                          .arg(ins.offset, 0, 16)
                          .arg((ins.offset >> 2) & 7)
                          .arg(ins.size);
        if (ins.placeholder)
            tip += QStringLiteral(" (did not assemble: assumed size)");
        if (t) {
            a.cycles += t->cycles;
            tip += QStringLiteral("\ncycles %1 (C = %2)").arg(t->cycles).arg(cycleText(t->base));
            if (t->direction != Direction::NotABranch) {
                a.direction = t->direction;
                a.directionOverridden = t->directionOverridden;
                a.conditionalBranch = a.conditionalBranch || ins.branch == BranchKind::Conditional;
                tip += QStringLiteral("\nassumed %1%2").arg(t->direction == Direction::Taken ? QStringLiteral("taken") : QStringLiteral("not taken"),
                                                            t->directionOverridden ? QStringLiteral(" (set by you)") : QString());
                if (ins.branch == BranchKind::Conditional)
                    tip += QStringLiteral(" — click the marker to flip");
            }
            for (const Penalty& p : t->penalties) {
                a.penaltyCycles += p.cycles;
                switch (penaltyClass(p.rule)) {
                case PenaltyClass::Fetch: a.fetchPenalty = true; break;
                case PenaltyClass::Branch: a.branchPenalty = true; break;
                case PenaltyClass::Hazard: a.hazardPenalty = true; break;
                case PenaltyClass::None: break;
                }
                tip += QStringLiteral("\n%1 +%2: %3").arg(QString::fromStdString(p.rule)).arg(p.cycles).arg(QString::fromStdString(p.detail));
                auto& lines = out.m_linesByRule[QString::fromStdString(p.rule)];
                if (lines.empty() || lines.back() != ins.line)
                    lines.push_back(ins.line);
            }
            if (!t->freedBy.empty()) {
                a.freedBy = QString::fromStdString(t->freedBy);
                tip += QStringLiteral("\nsaved by %1: %2").arg(a.freedBy, QString::fromStdString(t->freedDetail));
            }
        }
        a.tooltip += tip;
    }
    for (auto& [rule, lines] : out.m_linesByRule) {
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    }
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
