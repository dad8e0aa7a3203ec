// SPDX-License-Identifier: MIT
// `gcnlens-cli analyze` (issue #3 section 3): the timing model over an assembled file, as a
// listing with per-line cycles and penalties, the pressure peaks and the checks' findings, or as
// JSON (core/present/json.h).
#include "commands.h"

#include "core/present/json.h"

#include <QTextStream>

#include <map>

namespace gcnlens::cli {

int analyzeCommand(const QStringList& args)
{
    SourceArgs source;
    AnalysisRequest request;
    TimingOptions& options = request.timing;
    BranchOverrides& overrides = request.branches;
    bool asJson = false;
    OptionParser parser(QStringLiteral("analyze"));
    parser.addSource(source);
    parser.addTimingOptions(options);
    parser.addBranchOverrides(overrides);
    parser.addJson(&asJson);
    if (const auto status = parser.parse(args))
        return *status;
    Analysis analysis;
    if (!loadAnalysis(source, request, analysis))
        return ExitUsage;
    const Program& program = analysis.program;
    const TimingResult& timing = analysis.timing;
    const int status = program.hasErrors() ? ExitInputErrors : ExitOk;

    // An override on a line without a conditional jump does nothing: say so rather than ignore it.
    for (const auto& [line, direction] : overrides.byLine) {
        bool found = false;
        if (const auto it = program.lineToInstructions.find(line); it != program.lineToInstructions.end())
            for (const int index : it->second)
                found = found || program.instructions[std::size_t(index)].branch == BranchKind::Conditional;
        if (!found)
            printError(QStringLiteral("warning: line %1 has no conditional jump; --%2 %1 ignored")
                           .arg(line)
                           .arg(direction == Direction::Taken ? QStringLiteral("taken") : QStringLiteral("not-taken")));
    }

    if (asJson) {
        json::writeAnalysis(stdout, analysis);
        return status;
    }

    QTextStream out(stdout);
    out << "; " << QString::fromStdString(program.gpu.targetId) << " ("
        << QString::fromLatin1(generationName(program.gpu.generation)) << "), DPFACTOR " << program.gpu.dpfactor << "\n";
    out << "; DPFACTOR from " << QString::fromStdString(program.gpu.dpfactorSource) << "\n";
    out << ";  line  offset slot size cycles  penalties                   instruction\n";
    std::size_t nextLabel = 0;
    for (std::size_t i = 0; i < program.instructions.size(); ++i) {
        const Instruction& in = program.instructions[i];
        const InstructionTiming& t = timing.instructions[i];
        while (nextLabel < program.labels.size() && program.labels[nextLabel].sectionOffset <= program.sectionOffset(in))
            out << QString::fromStdString(program.labels[nextLabel++].name) << ":\n";
        QStringList penalties;
        for (const Penalty& p : t.penalties())
            penalties << QStringLiteral("%1+%2").arg(QString::fromStdString(p.rule)).arg(p.cycles);
        if (!t.freedBy().empty())
            penalties << QStringLiteral("(%1)").arg(QString::fromStdString(t.freedBy()));
        QString text = QString::fromStdString(in.mnemonic);
        if (!in.operands.empty())
            text += QLatin1Char(' ') + QString::fromStdString(in.operands);
        if (t.direction() != Direction::NotABranch)
            text += t.direction() == Direction::Taken ? QStringLiteral("   ; taken") : QStringLiteral("   ; not taken");
        if (t.directionOverridden())
            text += QStringLiteral(" (override)");
        out << QStringLiteral("%1  %2 %3 %4 %5  %6 %7\n")
                   .arg(in.line, 6)
                   .arg(in.offset, 6, 16, QLatin1Char('0'))
                   .arg(fetchPlace(in).slot, 4)
                   .arg(in.size, 4)
                   .arg(in.isData || in.placeholder ? QStringLiteral("-") : QString::fromStdString(cyclesText(in, t)), 6)
                   .arg(penalties.join(QLatin1Char(' ')), -27)
                   .arg(text);
    }

    const auto printTotals = [&out](const Totals& totals, const QString& indent) {
        out << indent << totals.instructions << " instructions, " << totals.bytes << " bytes; base " << totals.baseCycles
            << " + penalties " << totals.penaltyCycles << " = single-wave " << totals.singleWaveCycles
            << " cycles; latency-hidden (2+ waves/SIMD) " << totals.hiddenCycles << " cycles\n";
    };
    out << "\ntotals: ";
    printTotals(timing.totals, QString());
    if (timing.kernelTotals.size() > 1)
        for (std::size_t k = 0; k < timing.kernelTotals.size(); ++k) {
            out << "  kernel " << QString::fromStdString(program.kernels[k].name) << ": ";
            printTotals(timing.kernelTotals[k], QString());
        }
    if (!timing.totals.byRule.empty()) {
        out << "penalties by rule:\n";
        for (const auto& [rule, cycles] : timing.totals.byRule)
            out << QStringLiteral("  %1 %2 cycles (%3x)\n")
                       .arg(QString::fromStdString(rule), -16)
                       .arg(cycles, 6)
                       .arg(timing.totals.countByRule.at(rule));
        out << "penalty details:\n";
        for (std::size_t i = 0; i < program.instructions.size(); ++i)
            for (const Penalty& p : timing.instructions[i].penalties())
                out << "  line " << program.instructions[i].line << ": " << QString::fromStdString(p.rule) << ": "
                    << QString::fromStdString(p.detail) << "\n";
    }
    // Issue #16: each kernel's pressure peaks and what they cost; issue #17: the checks' findings
    // (`check` gives the same with an exit status for builds).
    for (std::size_t k = 0; k < analysis.liveness.kernels.size() && k < program.kernels.size(); ++k) {
        const KernelPressure& peak = analysis.liveness.kernels[k];
        QStringList peaks;
        for (const auto& [file, p] :
             {std::pair {"VGPRs", &peak.vgpr}, std::pair {"SGPRs", &peak.sgpr}, std::pair {"AGPRs", &peak.agpr}})
            if (p->count > 0)
                peaks << QStringLiteral("%1 %2 at line %3").arg(p->count).arg(QLatin1String(file)).arg(p->line);
        out << "pressure peaks, kernel " << QString::fromStdString(program.kernels[k].name) << ": "
            << (peaks.isEmpty() ? QStringLiteral("no register live") : peaks.join(QStringLiteral(", "))) << "\n";
        if (k < analysis.occupancyInputs.size())
            for (const PressureCost& cost : pressureCosts(program.gpu, analysis.occupancyInputs[k], peak, options))
                out << "  " << QString::fromStdString(cost.text) << "\n";
    }
    const CheckResult& checks = analysis.checks;
    out << "checks: " << checks.hazards.size() << " hazard(s), " << checks.waits.size() << " s_waitcnt finding(s)\n";
    for (const HazardFinding& h : checks.hazards)
        out << "  line " << h.line << ": " << QString::fromStdString(h.rule) << ": " << QString::fromStdString(h.detail)
            << "; fix: " << QString::fromStdString(h.fix).replace(QLatin1Char('\n'), QStringLiteral("; ")) << "\n";
    for (const WaitcntFinding& w : checks.waits)
        out << "  line " << w.line << ": " << QString::fromStdString(w.rule) << ": " << QString::fromStdString(w.detail) << "\n";
    if (timing.totals.unknownTimings > 0) {
        out << "note: " << timing.totals.unknownTimings
            << " instruction(s) have no or unknown timing data (cycles marked ?), counted as 4 cycles:";
        for (const auto& [mnemonic, count] : timing.totals.unknownMnemonics)
            out << " " << QString::fromStdString(mnemonic) << " (" << count << ")";
        out << "\n";
    }
    {
        std::map<std::string, int> bySource; // docs/model.md: where the cycles came from
        for (std::size_t i = 0; i < program.instructions.size(); ++i)
            if (!program.instructions[i].isData && !program.instructions[i].placeholder)
                ++bySource[timing.instructions[i].base()->rule.empty() ? "none" : timing.instructions[i].base()->rule];
        out << "timing sources:";
        for (const auto& [rule, count] : bySource)
            out << " " << QString::fromStdString(rule) << " " << count;
        out << "\n";
    }
    const auto changed = options.nonDefaultValues();
    if (!changed.empty()) {
        out << "options:";
        for (const auto& [name, value] : changed)
            out << " " << QString::fromStdString(name) << "=" << QString::fromStdString(value);
        out << "\n";
    }
    out.flush(); // keep the listing ahead of the diagnostics on a shared terminal
    printDiagnostics(source, program);
    return status;
}

} // namespace gcnlens::cli
