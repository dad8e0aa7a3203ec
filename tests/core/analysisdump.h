// SPDX-License-Identifier: MIT
// Every field of an Analysis as text lines, for tests that two analyses are identical (the
// incremental path against a fresh run) and print the first difference when they are not.
#pragma once

#include "core/analysis.h"

#include <format>
#include <span>
#include <string>
#include <vector>

namespace gcnlens::testing {

inline std::string dumpRegs(std::span<const RegRange> regs)
{
    std::string out;
    for (const RegRange& r : regs)
        out += std::format("{}:{}+{} ", int(r.kind), r.first, r.count);
    return out;
}

inline std::string dumpUsage(const RegisterUsage& r)
{
    return std::format("v{} s{} a{} vcc{} exec{} m0{} scc{} flat{} xnack{}", r.maxVgpr, r.maxSgpr, r.maxAgpr, r.vcc, r.exec, r.m0,
                       r.scc, r.flatScratch, r.xnackMask);
}

inline std::string dumpCount(const CycleCount& c)
{
    return std::format("{}-{} u{} n{} q{} [{}|{}|{}|{}]", c.low, c.high, c.unknown, c.noData, c.uncertain, c.matched,
                       c.throughput, c.source, c.table);
}

inline std::string dumpTotals(const Totals& t)
{
    std::string out = std::format("n{} b{} base{} pen{} single{} hidden{} unknown{}", t.instructions, t.bytes, t.baseCycles,
                                  t.penaltyCycles, t.singleWaveCycles, t.hiddenCycles, t.unknownTimings);
    for (const auto& [rule, cycles] : t.byRule)
        out += std::format(" {}={}", rule, cycles);
    for (const auto& [rule, count] : t.countByRule)
        out += std::format(" {}#{}", rule, count);
    return out;
}

inline std::string dumpLanes(const LaneList& lanes)
{
    std::string out;
    for (const LaneAccess& a : lanes)
        out += std::format("{}:{}{}/{}/{}/{} ", a.lane, a.known ? "" : "?", a.address, a.bank(), a.row(), a.dwords);
    return out;
}

inline std::string dumpLds(const LdsAccessResult& r)
{
    std::string out =
        std::format("err[{}] op[{}] w{} deg{} cyc{} free{} known{} note[{}] col{} two{} gpa{}\n  lanes {}\n  second {}\n  groups",
                    r.error, r.op, r.widthBytes, r.degree, r.cycles, r.conflictFreeCycles, r.allKnown, r.note, r.errorColumn,
                    r.twoAccesses, r.groupsPerAccess, dumpLanes(r.lanes), dumpLanes(r.secondLanes));
    for (const LaneGroup& g : r.groups)
        out += std::format(" {}+{}:{}", g.firstLane, g.lanes, g.degree);
    out += "\n  rows";
    for (const auto& rows : r.bankRows) {
        out += " |";
        for (int n : rows)
            out += std::format(" {}", n);
    }
    out += "\n  load";
    for (int n : r.bankLoad)
        out += std::format(" {}", n);
    return out;
}

inline std::string dumpOccupancy(const OccupancyResult& o)
{
    std::string out = std::format("err[{}] simd{} cu{} vgpr{} sgpr{} lds{} max{} extra{} wpw{} wgpc{}", o.error, o.wavesPerSimd,
                                  o.wavesPerCu, o.allocatedVgprs, o.allocatedSgprs, o.allocatedLds, o.maxWaves, o.extraSgprs,
                                  o.wavesPerWorkgroup, o.workgroupsPerCu);
    for (const auto& l : o.limiters)
        out += " limiter " + l;
    for (const auto& [r, w] : o.limits)
        out += std::format(" limit {}={}", r, w);
    for (const auto& h : o.hints)
        out += " hint " + h.resource + ": " + h.text;
    for (const auto& n : o.notes)
        out += " note " + n;
    return out;
}

inline std::string dumpOptional(const std::optional<int>& v)
{
    return v ? std::to_string(*v) : std::string("-");
}

inline std::string dumpOptional(const std::optional<bool>& v)
{
    return v ? (*v ? std::string("1") : std::string("0")) : std::string("-");
}

inline std::vector<std::string> dumpAnalysis(const Analysis& a)
{
    std::vector<std::string> out;
    const Program& p = a.program;
    out.push_back(std::format("gpu {} {} {} gen{} dp{} ({})", p.gpu.name, p.gpu.processor, p.gpu.targetId, int(p.gpu.generation),
                              p.gpu.dpfactor, p.gpu.dpfactorSource));
    for (std::size_t i = 0; i < p.instructions.size(); ++i) {
        const Instruction& in = p.instructions[i];
        std::string bytes;
        for (auto b : in.encoding)
            bytes += std::format("{:02x}", b);
        out.push_back(std::format(
            "ins {} line {} cols {}-{} off {}/{} size {} {} [{}] {} fam{} op{} lit{} glc{} data{} ph{} exp{} "
            "br{} [{}] t{} to{} back{} k{} defs {} uses {}",
            i, in.line, in.columnBegin, in.columnEnd, in.offset, p.sectionOffset(in), in.size, in.mnemonic, in.operands, bytes,
            int(in.family), in.opcode, in.hasLiteral, in.glc, in.isData, in.placeholder, in.fromExpansion, int(in.branch),
            in.targetLabel(), in.targetIndex(), in.targetOffset() ? std::to_string(*in.targetOffset()) : std::string("-"),
            in.backward, in.kernel, dumpRegs(in.defs), dumpRegs(in.uses)));
    }
    for (const Label& l : p.labels)
        out.push_back(std::format("label {} off {}/{} line {} ins {}", l.name, l.offset, l.sectionOffset, l.line, l.instruction));
    for (const Kernel& k : p.kernels)
        out.push_back(std::format("kernel {} [{},{}) at {} line {}", k.name, k.firstInstruction, k.endInstruction,
                                  k.sectionOffset, k.line));
    for (const ResourceDirective& d : p.directives)
        out.push_back(std::format("directive {} = {} line {} k{}", d.name, d.value, d.line, d.kernel));
    for (const Diagnostic& d : p.diagnostics)
        out.push_back(std::format("diag {} {}:{} {} ({})", int(d.severity), d.line, d.column, d.message, d.origin));
    for (const RegisterUsage& r : p.kernelRegisters)
        out.push_back("kernel regs " + dumpUsage(r));
    out.push_back("regs " + dumpUsage(p.registers));
    for (const auto& [line, list] : p.lineToInstructions) {
        std::string s = std::format("line {} ->", line);
        for (int i : list)
            s += std::format(" {}", i);
        out.push_back(s);
    }

    const TimingResult& t = a.timing;
    for (std::size_t i = 0; i < t.instructions.size(); ++i) {
        const InstructionTiming& it = t.instructions[i];
        std::string s = std::format("timing {} {} cyc{} dir{}{} freed[{}|{}] vec{}", i, dumpCount(*it.base()), it.cycles(),
                                    int(it.direction()), it.directionOverridden() ? "!" : "", it.freedBy(), it.freedDetail(),
                                    it.vectorIssue());
        for (const Penalty& pen : it.penalties())
            s += std::format(" | {} +{} {}", pen.rule, pen.cycles, pen.detail);
        out.push_back(s);
    }
    for (const BasicBlock& b : t.blocks)
        out.push_back(std::format("block [{},{}) k{} {}", b.firstInstruction, b.endInstruction, b.kernel, dumpTotals(b.totals)));
    for (const Totals& k : t.kernelTotals)
        out.push_back("kernel totals " + dumpTotals(k));
    out.push_back("totals " + dumpTotals(t.totals));
    for (const auto& [name, value] : t.options.values())
        out.push_back("option " + name + "=" + value);

    for (const ResourceUsage& r : a.resources) {
        std::string s = std::format("resources v{} a{} s{} user{} vcc{} flat{} xnack{} declared v{} a{} s{} lds{} accum{} "
                                    "incl{} extra{} reserve {}{}{} scratch{}",
                                    r.usedVgprs, r.usedAgprs, r.usedSgprs, r.userSgprs, r.vcc, r.flatScratch, r.xnack,
                                    dumpOptional(r.declaredVgprs), dumpOptional(r.declaredAgprs), dumpOptional(r.declaredSgprs),
                                    dumpOptional(r.declaredLds), dumpOptional(r.accumOffset), r.declaredSgprsIncludeExtras,
                                    r.extraSgprs, dumpOptional(r.reserveVcc), dumpOptional(r.reserveFlatScratch),
                                    dumpOptional(r.reserveXnack), dumpOptional(r.declaredScratch));
        for (const auto& w : r.warnings)
            s += " warning " + w;
        out.push_back(s);
    }
    for (const OccupancyInput& in : a.occupancyInputs)
        out.push_back(std::format("occupancy input v{} a{} s{} vcc{} flat{} xnack{} lds{} wg{} scratch{} trap{}", in.vgprs,
                                  in.agprs, in.sgprs, in.usesVcc, in.usesFlatScratch, in.usesXnack, in.ldsBytes, in.workgroupSize,
                                  in.scratch, in.trapHandler));
    for (const OccupancyResult& o : a.occupancy)
        out.push_back("occupancy " + dumpOccupancy(o));
    for (const auto& [index, r] : a.lds)
        out.push_back(std::format("lds {} {}", index, dumpLds(r)));
    for (const CfgBlock& b : a.cfg.blocks) {
        std::string s = std::format("cfg [{},{}) r{} exit{} ->", b.first, b.end, b.region, b.exit);
        for (int succ : b.successors)
            s += std::format(" {}", succ);
        out.push_back(s);
    }
    for (std::size_t i = 0; i < a.liveness.instructions.size(); ++i) {
        const LiveCounts& c = a.liveness.instructions[i];
        out.push_back(std::format("live {} v{} s{} a{} x{}", i, c.vgpr, c.sgpr, c.agpr, c.special));
    }
    for (const KernelPressure& k : a.liveness.kernels)
        out.push_back(std::format("peak v{}@{} s{}@{} a{}@{} entry {}", k.vgpr.count, k.vgpr.line, k.sgpr.count, k.sgpr.line,
                                  k.agpr.count, k.agpr.line, dumpRegs(k.liveAtEntry)));
    for (const HazardFinding& h : a.checks.hazards)
        out.push_back(std::format("hazard {} {}<-{} {}/{} [{}] {}", h.rule, h.instruction, h.producer, h.present, h.required,
                                  h.fix, h.detail));
    for (const WaitcntFinding& w : a.checks.waits)
        out.push_back(std::format("wait {} {}<-{} {} {} ng{} {} {}", w.rule, w.instruction, w.producer, w.access, w.reg,
                                  w.notGuaranteed, w.fix, w.detail));
    for (const std::string& n : a.checks.notes)
        out.push_back("check note " + n);
    return out;
}

} // namespace gcnlens::testing
