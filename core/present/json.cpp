// SPDX-License-Identifier: MIT
#include "core/present/json.h"

#include "core/analysis.h"
#include "core/model/fixits.h"

#include <rapidjson/filewritestream.h>
#include <rapidjson/prettywriter.h>

#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gcnlens::json {

namespace {

// PrettyWriter over a 64 KiB buffered FILE stream; flushed when the document ends.
class Document {
public:
    explicit Document(std::FILE* out)
        : file_(out)
        , stream_(out, buffer_, sizeof buffer_)
        , writer_(stream_)
    {
        writer_.SetIndent(' ', 4);
    }
    ~Document()
    {
        stream_.Flush();
        std::fputc('\n', file_);
    }

    // Members: key(...) then exactly one value.
    Document& key(std::string_view name)
    {
        writer_.Key(name.data(), rapidjson::SizeType(name.size()));
        return *this;
    }
    void string(std::string_view value) { writer_.String(value.data(), rapidjson::SizeType(value.size())); }
    void integer(long long value) { writer_.Int64(value); }
    void boolean(bool value) { writer_.Bool(value); }
    void null() { writer_.Null(); }
    void beginObject() { writer_.StartObject(); }
    void endObject() { writer_.EndObject(); }
    void beginArray() { writer_.StartArray(); }
    void endArray() { writer_.EndArray(); }

    template <typename T> void member(std::string_view name, const T& value)
    {
        key(name);
        if constexpr (std::is_same_v<T, bool>)
            boolean(value);
        else if constexpr (std::is_integral_v<T>)
            integer((long long)value);
        else if constexpr (std::is_same_v<T, PatternText>)
            string(value.str());
        else
            string(value);
    }
    void member(std::string_view name, const char* value) { member(name, std::string_view(value)); }

    void strings(std::string_view name, const std::vector<std::string>& list)
    {
        key(name);
        beginArray();
        for (const auto& s : list)
            string(s);
        endArray();
    }
    void integers(std::string_view name, std::span<const int> list)
    {
        key(name);
        beginArray();
        for (int v : list)
            integer(v);
        endArray();
    }

private:
    std::FILE* file_;
    char buffer_[1 << 16];
    rapidjson::FileWriteStream stream_;
    rapidjson::PrettyWriter<rapidjson::FileWriteStream> writer_;
};

std::string_view branchKindName(BranchKind kind)
{
    switch (kind) {
    case BranchKind::None:
        return "";
    case BranchKind::Unconditional:
        return "unconditional";
    case BranchKind::Conditional:
        return "conditional";
    case BranchKind::Indirect:
        return "indirect";
    case BranchKind::Return:
        return "return";
    }
    return "";
}

void writeGpu(Document& d, const GpuTarget& gpu)
{
    d.key("gpu");
    d.beginObject();
    d.member("name", gpu.name);
    d.member("product", gpu.product);
    d.member("processor", gpu.processor);
    d.member("target_id", gpu.targetId);
    d.member("generation", generationName(gpu.generation));
    d.member("dpfactor", gpu.dpfactor);
    d.member("dpfactor_source", gpu.dpfactorSource); // docs/model.md section 1
    d.endObject();
}

void writeRanges(Document& d, std::string_view name, std::span<const RegRange> ranges)
{
    d.key(name);
    d.beginArray();
    for (const auto& range : ranges) {
        d.beginObject();
        d.member("kind", regKindName(range.kind));
        d.member("first", range.first);
        d.member("count", range.count);
        d.endObject();
    }
    d.endArray();
}

void writeRegisters(Document& d, const RegisterUsage& usage)
{
    d.beginObject();
    d.member("max_vgpr", usage.maxVgpr);
    d.member("max_sgpr", usage.maxSgpr);
    d.member("max_agpr", usage.maxAgpr);
    d.member("vcc", usage.vcc);
    d.member("exec", usage.exec);
    d.member("m0", usage.m0);
    d.member("scc", usage.scc);
    d.member("flat_scratch", usage.flatScratch);
    d.member("xnack_mask", usage.xnackMask);
    d.endObject();
}

void writeDiagnostic(Document& d, const Diagnostic& diagnostic)
{
    d.beginObject();
    d.member("line", diagnostic.line);
    d.member("column", diagnostic.column);
    d.member("severity", severityName(diagnostic.severity));
    d.member("message", diagnostic.message);
    if (!diagnostic.origin.empty())
        d.member("origin", diagnostic.origin);
    d.endObject();
}

// The program's own fields of one instruction (the object stays open for the analysis to extend).
void writeInstructionFields(Document& d, const Program& program, const Instruction& inst)
{
    static constexpr char digits[] = "0123456789abcdef";
    d.member("line", inst.line);
    d.member("column_begin", inst.columnBegin);
    d.member("column_end", inst.columnEnd);
    d.member("offset", inst.offset);
    d.member("section_offset", program.sectionOffset(inst));
    d.member("size", inst.size);
    std::string encoding;
    encoding.reserve(inst.encoding.size() * 2);
    for (const auto byte : inst.encoding) {
        encoding += digits[byte >> 4];
        encoding += digits[byte & 15];
    }
    d.member("encoding", encoding);
    d.member("mnemonic", inst.mnemonic);
    d.member("operands", inst.operands);
    d.member("family", familyName(inst.family));
    d.member("literal", inst.hasLiteral);
    d.member("kernel", inst.kernel);
    if (inst.isData)
        d.member("data", true);
    if (inst.placeholder)
        d.member("placeholder", true);
    if (inst.fromExpansion)
        d.member("expanded", true);
    if (inst.branch != BranchKind::None) {
        d.key("branch");
        d.beginObject();
        d.member("kind", branchKindName(inst.branch));
        if (!inst.targetLabel().empty())
            d.member("label", inst.targetLabel());
        if (inst.targetOffset())
            d.member("target_offset", *inst.targetOffset());
        d.member("target_index", inst.targetIndex());
        d.member("backward", inst.backward);
        d.endObject();
    }
    writeRanges(d, "defs", inst.defs);
    writeRanges(d, "uses", inst.uses);
}

void writeTotals(Document& d, const Totals& totals)
{
    d.key("totals");
    d.beginObject();
    d.member("instructions", totals.instructions);
    d.member("bytes", totals.bytes);
    d.member("base_cycles", totals.baseCycles);
    d.member("penalty_cycles", totals.penaltyCycles);
    d.member("single_wave_cycles", totals.singleWaveCycles);
    d.member("hidden_cycles", totals.hiddenCycles);
    d.key("by_rule");
    d.beginObject();
    for (const auto& [rule, cycles] : totals.byRule)
        d.member(rule, cycles);
    d.endObject();
    d.key("count_by_rule");
    d.beginObject();
    for (const auto& [rule, count] : totals.countByRule)
        d.member(rule, count);
    d.endObject();
    d.member("unknown_timings", totals.unknownTimings);
    d.key("unknown_mnemonics"); // docs/model.md section 2: which mnemonics have no timing
    d.beginObject();
    for (const auto& [mnemonic, count] : totals.unknownMnemonics)
        d.member(mnemonic, count);
    d.endObject();
    d.endObject();
}

void writeTimingFields(Document& d, const Instruction& in, const InstructionTiming& t)
{
    const FetchPlace place = fetchPlace(in);
    d.member("slot", place.slot);
    d.member("block", place.block);
    d.member("cycles", t.cycles());
    d.member("cycles_high", t.direction() == Direction::NotABranch ? t.base()->high : t.cycles());
    d.member("cycles_source", t.base()->source);
    d.member("timing_table", t.base()->table);
    d.member("timing_row", t.base()->matched);
    d.member("timing_rule", t.base()->rule); // docs/model.md: T-table, T-mfma, T-llvm-sched, "" (none)
    d.member("timing_rule_detail", t.base()->ruleDetail);
    if (!t.base()->throughput.empty())
        d.member("throughput", t.base()->throughput);
    d.member("unknown_timing", t.base()->unknown);
    d.member("no_timing_data", t.base()->noData);
    d.member("uncertain_timing", t.base()->uncertain);
    d.member("vector_issue", t.vectorIssue());
    if (t.direction() != Direction::NotABranch) {
        d.member("taken", t.direction() == Direction::Taken);
        d.member("direction_overridden", t.directionOverridden());
    }
    d.key("penalties");
    d.beginArray();
    for (const Penalty& p : t.penalties()) {
        d.beginObject();
        d.member("rule", p.rule);
        d.member("cycles", p.cycles);
        d.member("detail", p.detail);
        d.endObject();
    }
    d.endArray();
    d.member("penalty_cycles", t.penaltyCycles());
    d.key("freed_by");
    if (t.freedBy().empty())
        d.null();
    else
        d.string(t.freedBy());
    if (!t.freedDetail().empty())
        d.member("freed_detail", t.freedDetail());
}

void writeResources(Document& d, const ResourceUsage& usage)
{
    d.key("resources");
    d.beginObject();
    d.member("used_vgprs", usage.usedVgprs);
    d.member("used_agprs", usage.usedAgprs);
    d.member("used_sgprs", usage.usedSgprs);
    d.member("user_sgprs", usage.userSgprs);
    d.member("extra_sgprs", usage.extraSgprs);
    d.member("vcc", usage.vcc);
    d.member("flat_scratch", usage.flatScratch);
    d.member("xnack", usage.xnack);
    const auto optional = [&](std::string_view key, const std::optional<int>& value) {
        if (value)
            d.member(key, *value);
    };
    optional("declared_vgprs", usage.declaredVgprs);
    optional("declared_agprs", usage.declaredAgprs);
    optional("declared_sgprs", usage.declaredSgprs);
    optional("declared_lds", usage.declaredLds);
    optional("accum_offset", usage.accumOffset);
    optional("declared_scratch", usage.declaredScratch);
    if (usage.declaredSgprs)
        d.member("declared_sgprs_include_extras", usage.declaredSgprsIncludeExtras);
    d.strings("warnings", usage.warnings);
    d.endObject();
}

// The members of an occupancy result (the caller opens and closes the object).
void writeOccupancyFields(Document& d, const OccupancyResult& result)
{
    if (!result.error.empty()) {
        d.member("error", result.error);
        return;
    }
    d.member("waves_per_simd", result.wavesPerSimd);
    d.member("waves_per_cu", result.wavesPerCu);
    d.member("max_waves", result.maxWaves);
    d.strings("limiters", result.limiters);
    d.key("limits");
    d.beginObject();
    for (const auto& [resource, waves] : result.limits)
        d.member(resource, waves);
    d.endObject();
    d.key("hints");
    d.beginArray();
    for (const auto& hint : result.hints) {
        d.beginObject();
        d.member("resource", hint.resource);
        d.member("text", hint.text);
        d.endObject();
    }
    d.endArray();
    d.member("allocated_vgprs", result.allocatedVgprs);
    d.member("allocated_sgprs", result.allocatedSgprs);
    d.member("allocated_lds", result.allocatedLds);
    d.member("extra_sgprs", result.extraSgprs);
    d.member("waves_per_workgroup", result.wavesPerWorkgroup);
    d.member("workgroups_per_cu", result.workgroupsPerCu);
    d.strings("notes", result.notes);
}

void writeLanes(Document& d, std::string_view name, const LaneList& lanes)
{
    d.key(name);
    d.beginArray();
    for (const LaneAccess& a : lanes) {
        d.beginObject();
        d.member("lane", int(a.lane));
        if (a.known) {
            d.member("address", a.address);
            d.member("bank", a.bank());
            d.member("row", a.row());
            d.member("dwords", int(a.dwords));
        } else {
            d.member("known", false);
        }
        d.endObject();
    }
    d.endArray();
}

// The members of an LDS access; `detailed` adds groups, bank load and lanes (the `lds` command).
void writeLdsFields(Document& d, const LdsAccessResult& result, bool detailed)
{
    if (!result.error.empty()) {
        d.member("error", result.error);
        if (result.errorColumn >= 0)
            d.member("column", result.errorColumn);
        return;
    }
    d.member("op", result.op);
    d.member("degree", result.degree);
    d.member("cycles", result.cycles);
    d.member("conflict_free_cycles", result.conflictFreeCycles);
    d.member("known", result.allKnown);
    if (!result.note.empty())
        d.member("note", result.note);
    if (!detailed)
        return;
    d.member("width_bytes", result.widthBytes);
    d.key("groups");
    d.beginArray();
    const int perAccess = result.groupsPerAccess > 0 ? result.groupsPerAccess : int(result.groups.size());
    for (std::size_t g = 0; g < result.groups.size(); ++g) {
        const LaneGroup& group = result.groups[g];
        d.beginObject();
        d.key("lanes");
        d.beginArray();
        for (const int lane : group.members) // docs/model.md L-phases: not always consecutive
            d.integer(lane);
        d.endArray();
        d.member("degree", group.degree);
        d.member("access", int(g) >= perAccess ? 1 : 0);
        d.integers("bank_rows", result.bankRows[g]);
        d.endObject();
    }
    d.endArray();
    d.integers("bank_load", result.bankLoad);
    writeLanes(d, "lanes", result.lanes);
    if (result.twoAccesses)
        writeLanes(d, "second_lanes", result.secondLanes);
}

// The whole document for listing and analyze: `analysis` null for the listing.
// Issue #16: the registers that must be allocated while the instruction executes, per file.
void writeLive(Document& d, const LiveCounts& live)
{
    d.key("live");
    d.beginObject();
    d.member("vgpr", live.vgpr);
    d.member("sgpr", live.sgpr);
    d.member("agpr", live.agpr);
    d.endObject();
}

// Issue #16: a kernel's pressure peaks and what each costs in occupancy.
void writePressure(Document& d, const Analysis& analysis, std::size_t kernel)
{
    const KernelPressure& k = analysis.liveness.kernels[kernel];
    d.key("pressure");
    d.beginObject();
    for (const auto& [name, peak] : {std::pair {"vgpr", &k.vgpr}, std::pair {"sgpr", &k.sgpr}, std::pair {"agpr", &k.agpr}}) {
        d.key(name);
        d.beginObject();
        d.member("peak", peak->count);
        d.member("line", peak->line);
        d.endObject();
    }
    d.key("costs");
    d.beginArray();
    if (kernel < analysis.occupancyInputs.size())
        for (const PressureCost& cost :
             pressureCosts(analysis.program.gpu, analysis.occupancyInputs[kernel], k, analysis.timing.options))
            d.string(cost.text);
    d.endArray();
    d.endObject();
}

// Issue #17: wait-state hazards and s_waitcnt findings.
void writeHazard(Document& d, const HazardFinding& h)
{
    d.beginObject();
    d.member("rule", h.rule);
    d.member("line", h.line);
    d.member("producer_line", h.producerLine);
    d.member("required", h.required);
    d.member("present", h.present);
    d.member("fix", h.fix);
    d.member("detail", h.detail);
    d.endObject();
}

// `withCount`: the count of the wait that would cover it (`check --json` gives it; analyze's
// golden documents predate it).
void writeWait(Document& d, const WaitcntFinding& w, bool withCount)
{
    d.beginObject();
    d.member("rule", w.rule);
    d.member("line", w.line);
    d.member("producer_line", w.producerLine);
    d.member("counter", w.counter);
    d.member("access", w.access);
    d.member("register", w.reg);
    d.member("not_guaranteed", w.notGuaranteed);
    if (withCount)
        d.member("count", w.count);
    d.member("fix", w.fix);
    d.member("detail", w.detail);
    d.endObject();
}

// hazards, waits and notes, as members of the object being written.
void writeFindings(Document& d, const CheckResult& checks, bool withCount)
{
    d.key("hazards");
    d.beginArray();
    for (const HazardFinding& h : checks.hazards)
        writeHazard(d, h);
    d.endArray();
    d.key("waits");
    d.beginArray();
    for (const WaitcntFinding& w : checks.waits)
        writeWait(d, w, withCount);
    d.endArray();
    d.strings("notes", checks.notes);
}

void writeChecks(Document& d, const CheckResult& checks)
{
    d.key("checks");
    d.beginObject();
    writeFindings(d, checks, false);
    d.endObject();
}

void writeDocument(std::FILE* out, const Program& program, const Analysis* analysis)
{
    Document d(out);
    d.beginObject();
    writeGpu(d, program.gpu);

    d.key("instructions");
    d.beginArray();
    for (std::size_t i = 0; i < program.instructions.size(); ++i) {
        d.beginObject();
        writeInstructionFields(d, program, program.instructions[i]);
        if (analysis && i < analysis->timing.instructions.size())
            writeTimingFields(d, program.instructions[i], analysis->timing.instructions[i]);
        if (analysis && i < analysis->liveness.instructions.size())
            writeLive(d, analysis->liveness.instructions[i]);
        if (analysis)
            if (const auto it = analysis->lds.find(int(i)); it != analysis->lds.end()) {
                d.key("lds");
                d.beginObject();
                writeLdsFields(d, it->second, false);
                d.endObject();
            }
        d.endObject();
    }
    d.endArray();

    d.key("labels");
    d.beginArray();
    for (const auto& label : program.labels) {
        d.beginObject();
        d.member("name", label.name);
        d.member("offset", label.offset);
        d.member("line", label.line);
        d.member("instruction", label.instruction);
        d.endObject();
    }
    d.endArray();

    d.key("kernels");
    d.beginArray();
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
        const Kernel& kernel = program.kernels[k];
        d.beginObject();
        d.member("name", kernel.name);
        d.member("first_instruction", kernel.firstInstruction);
        d.member("end_instruction", kernel.endInstruction);
        d.member("section_offset", kernel.sectionOffset);
        d.member("line", kernel.line);
        if (k < program.kernelRegisters.size()) {
            d.key("registers");
            writeRegisters(d, program.kernelRegisters[k]);
        }
        if (analysis) {
            if (k < analysis->timing.kernelTotals.size())
                writeTotals(d, analysis->timing.kernelTotals[k]);
            if (k < analysis->resources.size())
                writeResources(d, analysis->resources[k]);
            if (k < analysis->occupancy.size()) {
                d.key("occupancy");
                d.beginObject();
                writeOccupancyFields(d, analysis->occupancy[k]);
                d.endObject();
            }
            if (k < analysis->liveness.kernels.size())
                writePressure(d, *analysis, k);
        }
        d.endObject();
    }
    d.endArray();

    d.key("directives");
    d.beginArray();
    for (const auto& directive : program.directives) {
        d.beginObject();
        d.member("name", directive.name);
        d.member("value", directive.value);
        d.member("line", directive.line);
        d.member("kernel", directive.kernel);
        d.endObject();
    }
    d.endArray();
    d.key("registers");
    writeRegisters(d, program.registers);

    d.key("diagnostics");
    d.beginArray();
    for (const auto& diagnostic : program.diagnostics)
        writeDiagnostic(d, diagnostic);
    d.endArray();

    if (analysis) {
        writeChecks(d, analysis->checks);
        const TimingResult& timing = analysis->timing;
        d.key("blocks");
        d.beginArray();
        for (const BasicBlock& block : timing.blocks) {
            d.beginObject();
            d.member("first_instruction", block.firstInstruction);
            d.member("end_instruction", block.endInstruction);
            d.member("kernel", block.kernel);
            if (std::size_t(block.firstInstruction) < program.instructions.size()) {
                const Instruction& first = program.instructions[std::size_t(block.firstInstruction)];
                d.member("offset", first.offset);
                d.member("line", first.line);
            }
            writeTotals(d, block.totals);
            d.endObject();
        }
        d.endArray();
        writeTotals(d, timing.totals);
        // The first kernel's resources and occupancy at the top level too (a file usually holds one).
        if (!analysis->resources.empty())
            writeResources(d, analysis->resources.front());
        if (!analysis->occupancy.empty()) {
            d.key("occupancy");
            d.beginObject();
            writeOccupancyFields(d, analysis->occupancy.front());
            d.endObject();
        }
        d.key("options");
        d.beginObject();
        for (const auto& [name, value] : timing.options.values())
            d.member(name, value);
        d.endObject();
        d.key("rules");
        d.beginArray();
        for (const RuleInfo& info : ruleLegend()) {
            d.beginObject();
            d.member("id", info.id);
            d.member("meaning", info.meaning);
            d.member("source", info.source);
            d.endObject();
        }
        d.endArray();
    }
    d.endObject();
}

} // namespace

void writeProgram(std::FILE* out, const Program& program)
{
    writeDocument(out, program, nullptr);
}

void writeAnalysis(std::FILE* out, const Analysis& analysis)
{
    writeDocument(out, analysis.program, &analysis);
}

void writeOccupancy(std::FILE* out, const OccupancyResult& result, const GpuTarget& gpu)
{
    Document d(out);
    d.beginObject();
    writeOccupancyFields(d, result);
    d.member("gpu", gpu.targetId);
    d.member("generation", generationName(gpu.generation));
    d.endObject();
}

void writeLdsAccess(std::FILE* out, const LdsAccessResult& result)
{
    Document d(out);
    d.beginObject();
    writeLdsFields(d, result, true);
    d.endObject();
}

void writeCheck(std::FILE* out, const Analysis& analysis, const CheckOptions& options, const std::vector<FixIt>* fixits)
{
    Document d(out);
    d.beginObject();
    d.member("gpu", analysis.program.gpu.targetId);
    writeFindings(d, analysis.checks, true);
    d.key("options"); // hazards.md section 4: the readings the findings rest on
    d.beginObject();
    for (const auto& [name, value] : options.values())
        d.member(name, value);
    d.endObject();
    if (fixits) {
        d.key("fixits");
        d.beginArray();
        for (const FixIt& f : *fixits) {
            d.beginObject();
            d.member("rule", f.finding.rule);
            d.member("line", f.finding.line);
            d.member("kind", f.kind);
            d.member("summary", f.summary);
            d.member("cycles_before", f.cyclesBefore);
            d.member("cycles_after", f.cyclesAfter);
            d.member("delta", f.delta());
            d.key("edits");
            d.beginArray();
            for (const TextEdit& e : f.edits) {
                d.beginObject();
                d.member("line", e.line);
                d.member("column", e.column);
                d.member("end_line", e.endLine);
                d.member("end_column", e.endColumn);
                d.member("text", e.text);
                d.endObject();
            }
            d.endArray();
            d.endObject();
        }
        d.endArray();
    }
    d.endObject();
}

} // namespace gcnlens::json
