// SPDX-License-Identifier: MIT
// `gcnlens-cli analyze` (issue #3 section 3): the timing model over an assembled file, as a
// listing with per-line cycles and penalties, the pressure peaks and the checks' findings, or as
// JSON (core/present/json.h).
#include "commands.h"

#include "core/present/json.h"

#include <format>
#include <map>

namespace gcnlens::cli {

int analyzeCommand(const Args& args)
{
    SourceArgs source;
    AnalysisRequest request;
    TimingOptions& options = request.timing;
    BranchOverrides& overrides = request.branches;
    bool asJson = false;
    OptionParser parser("analyze");
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
            printError(std::format("warning: line {0} has no conditional jump; --{1} {0} ignored", line,
                                   direction == Direction::Taken ? "taken" : "not-taken"));
    }

    if (asJson) {
        json::writeAnalysis(stdout, analysis);
        return status;
    }

    std::string out = std::format("; {} ({}), DPFACTOR {}\n", program.gpu.targetId, generationName(program.gpu.generation),
                                  program.gpu.dpfactor);
    out += "; DPFACTOR from " + program.gpu.dpfactorSource + "\n";
    out += ";  line  offset slot size cycles  penalties                   instruction\n";
    std::size_t nextLabel = 0;
    for (std::size_t i = 0; i < program.instructions.size(); ++i) {
        const Instruction& in = program.instructions[i];
        const InstructionTiming& t = timing.instructions[i];
        while (nextLabel < program.labels.size() && program.labels[nextLabel].sectionOffset <= program.sectionOffset(in))
            out += program.labels[nextLabel++].name + ":\n";
        std::string penalties;
        for (const Penalty& p : t.penalties()) {
            if (!penalties.empty())
                penalties += ' ';
            penalties.append(p.rule).append(1, '+');
            appendNumber(penalties, p.cycles, 0, ' ');
        }
        if (!t.freedBy().empty())
            penalties.append(penalties.empty() ? "(" : " (").append(t.freedBy()).append(1, ')');
        std::string text = in.mnemonic;
        if (!in.operands.empty())
            text.append(" ").append(in.operands.view());
        if (t.direction() != Direction::NotABranch)
            text += t.direction() == Direction::Taken ? "   ; taken" : "   ; not taken";
        if (t.directionOverridden())
            text += " (override)";
        const std::string cycles = in.isData || in.placeholder ? std::string("-") : cyclesText(in, t);
        // "{:>6}  {:06x} {:>4} {:>4} {:>6}  {:<27} {}\n", written field by field: std::format per
        // instruction was a fourteenth of `analyze` (issue #18). Its widths count what a terminal
        // shows, so text that is not ASCII still goes through it.
        if (isAscii(cycles) && isAscii(penalties)) {
            const auto padded = [&out](std::string_view field, std::size_t width, bool left) {
                if (!left && field.size() < width)
                    out.append(width - field.size(), ' ');
                out += field;
                if (left && field.size() < width)
                    out.append(width - field.size(), ' ');
            };
            appendNumber(out, in.line, 6, ' ');
            out += "  ";
            appendNumber(out, std::int64_t(in.offset), 6, '0', 16);
            out += ' ';
            appendNumber(out, fetchPlace(in).slot, 4, ' ');
            out += ' ';
            appendNumber(out, in.size, 4, ' ');
            out += ' ';
            padded(cycles, 6, false);
            out += "  ";
            padded(penalties, 27, true);
            out += ' ';
            out += text;
            out += '\n';
        } else {
            out += std::format("{:>6}  {:06x} {:>4} {:>4} {:>6}  {:<27} {}\n", in.line, in.offset, fetchPlace(in).slot, in.size,
                               cycles, penalties, text);
        }
        if (out.size() > (1u << 20)) {
            print(stdout, out);
            out.clear();
        }
    }

    const auto printTotals = [&out](const Totals& totals) {
        out += std::format("{} instructions, {} bytes; base {} + penalties {} = single-wave {} cycles; latency-hidden (2+ "
                           "waves/SIMD) {} cycles\n",
                           totals.instructions, totals.bytes, totals.baseCycles, totals.penaltyCycles, totals.singleWaveCycles,
                           totals.hiddenCycles);
    };
    out += "\ntotals: ";
    printTotals(timing.totals);
    if (timing.kernelTotals.size() > 1)
        for (std::size_t k = 0; k < timing.kernelTotals.size(); ++k) {
            out += "  kernel " + program.kernels[k].name + ": ";
            printTotals(timing.kernelTotals[k]);
        }
    if (!timing.totals.byRule.empty()) {
        out += "penalties by rule:\n";
        for (const auto& [rule, cycles] : timing.totals.byRule)
            out += std::format("  {:<16} {:>6} cycles ({}x)\n", rule, cycles, timing.totals.countByRule.at(rule));
        out += "penalty details:\n";
        for (std::size_t i = 0; i < program.instructions.size(); ++i)
            for (const Penalty& p : timing.instructions[i].penalties())
                out += std::format("  line {}: {}: {}\n", program.instructions[i].line, p.rule, p.detail);
    }
    // Issue #16: each kernel's pressure peaks and what they cost; issue #17: the checks' findings
    // (`check` gives the same with an exit status for builds).
    for (std::size_t k = 0; k < analysis.liveness.kernels.size() && k < program.kernels.size(); ++k) {
        const KernelPressure& peak = analysis.liveness.kernels[k];
        std::string peaks;
        for (const auto& [file, p] :
             {std::pair {"VGPRs", &peak.vgpr}, std::pair {"SGPRs", &peak.sgpr}, std::pair {"AGPRs", &peak.agpr}})
            if (p->count > 0)
                peaks += std::format("{}{} {} at line {}", peaks.empty() ? "" : ", ", p->count, file, p->line);
        out += "pressure peaks, kernel " + program.kernels[k].name + ": " + (peaks.empty() ? "no register live" : peaks) + "\n";
        if (k < analysis.occupancyInputs.size())
            for (const PressureCost& cost : pressureCosts(program.gpu, analysis.occupancyInputs[k], peak, options))
                out += std::format("  {}\n", cost.text);
    }
    const CheckResult& checks = analysis.checks;
    out += std::format("checks: {} hazard(s), {} s_waitcnt finding(s)\n", checks.hazards.size(), checks.waits.size());
    for (const HazardFinding& h : checks.hazards)
        out += std::format("  line {}: {}: {}; fix: {}\n", h.line, h.rule, h.detail, oneLine(h.fix));
    for (const WaitcntFinding& w : checks.waits)
        out += std::format("  line {}: {}: {}\n", w.line, w.rule, w.detail);
    if (timing.totals.unknownTimings > 0) {
        out += std::format("note: {} instruction(s) have no or unknown timing data (cycles marked ?), counted as 4 cycles:",
                           timing.totals.unknownTimings);
        for (const auto& [mnemonic, count] : timing.totals.unknownMnemonics)
            out += std::format(" {} ({})", mnemonic, count);
        out += "\n";
    }
    {
        std::map<std::string, int> bySource; // docs/model.md: where the cycles came from
        for (std::size_t i = 0; i < program.instructions.size(); ++i)
            if (!program.instructions[i].isData && !program.instructions[i].placeholder)
                ++bySource[timing.instructions[i].base()->rule.empty() ? "none" : timing.instructions[i].base()->rule];
        out += "timing sources:";
        for (const auto& [rule, count] : bySource)
            out += std::format(" {} {}", rule, count);
        out += "\n";
    }
    const auto changed = options.nonDefaultValues();
    if (!changed.empty()) {
        out += "options:";
        for (const auto& [name, value] : changed)
            out += std::format(" {}={}", name, value);
        out += "\n";
    }
    print(stdout, out);
    std::fflush(stdout); // keep the listing ahead of the diagnostics on a shared terminal
    printDiagnostics(source, program);
    return status;
}

} // namespace gcnlens::cli
