// SPDX-License-Identifier: MIT
// timing-model.md sections 1–5, 8 and 9 as one linear pass over a Program. The cycle tables are
// resources/timings.tsv (GcnTimings.md as data); everything else here is the spec's arithmetic.
#include "core/model/timing.h"

#include "core/support/cancel.h"

#include "core/model/classify.h"
#include "core/model/commonends.h"
#include "core/model/schedmodel.h"
#include "core/support/hash.h"
#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cctype>
#include <charconv>
#include <format>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace gcnlens {

namespace embedded {
std::string_view timings_tsv();
}

namespace {

constexpr int kPenalty = 4;        // timing-model.md section 1: a penalty is 4 cycles
constexpr int kValuSaluDelay = 16; // section 4, H-valu-salu

using detail::forEachTsvRow;
using detail::trim;

std::string upper(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

bool parseInt(std::string_view text, int& value)
{
    text = trim(text);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc {} && end == text.data() + text.size() && !text.empty();
}

bool globMatch(std::string_view pattern, std::string_view text)
{
    const auto star = pattern.find('*');
    if (star == std::string_view::npos)
        return pattern == text;
    const auto head = pattern.substr(0, star);
    if (!text.starts_with(head))
        return false;
    const auto rest = pattern.substr(star + 1);
    for (std::size_t at = head.size(); at <= text.size(); ++at)
        if (globMatch(rest, text.substr(at)))
            return true;
    return false;
}

struct Table {
    std::vector<TimingRow> rows;
    std::unordered_map<std::string, int> exact;   // source mnemonic → row
    std::vector<int> patterns;                    // rows with a '*'
    std::unordered_map<std::string, int> classes; // "<SOP2>" → row
};

Table loadTable()
{
    Table table;
    forEachTsvRow(embedded::timings_tsv(), [&](const std::vector<std::string_view>& found) {
        std::array<std::string_view, 5> cells {};
        std::copy_n(found.begin(), std::min(found.size(), cells.size()), cells.begin());
        TimingRow row {std::string(cells[0]), std::string(cells[1]), std::string(cells[2]), std::string(cells[3]),
                       std::string(cells[4])};
        const int index = static_cast<int>(table.rows.size());
        if (row.mnemonic.starts_with('<'))
            table.classes.emplace(row.mnemonic, index);
        else if (row.mnemonic.find('*') != std::string::npos)
            table.patterns.push_back(index);
        else
            table.exact.emplace(row.mnemonic, index); // first row wins (the source repeats V_MAD_F16)
        table.rows.push_back(std::move(row));
    });
    return table;
}

const Table& table()
{
    static const Table instance = loadTable();
    return instance;
}

bool isValu(Family family)
{
    switch (family) {
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VOP3:
    case Family::VOP3P:
    case Family::SDWA:
    case Family::DPP:
    case Family::VINTRP:
        return true;
    default:
        return false;
    }
}

// H-valu-salu's reader: "the next scalar ALU instruction (SOP1, SOP2, SOPK, SOPC; not SOPP, not SMRD)".
bool isSalu(Family family)
{
    return family == Family::SOP1 || family == Family::SOP2 || family == Family::SOPK || family == Family::SOPC;
}

// Section 5: the vector-issue classes whose C stays visible at occupancy >= 2. EXP goes to the
// export unit, not a vector pipe, and is left out.
bool isVectorIssue(Family family)
{
    switch (family) {
    case Family::DS:
    case Family::MUBUF:
    case Family::MTBUF:
    case Family::MIMG:
    case Family::FLAT:
    case Family::GLOBAL:
    case Family::SCRATCH:
        return true;
    default:
        return isValu(family);
    }
}

bool isJump(const Instruction& in)
{
    return in.family == Family::SOPP && (in.branch == BranchKind::Unconditional || in.branch == BranchKind::Conditional);
}

bool writes(const Instruction& in, RegKind kind)
{
    return std::any_of(in.defs.begin(), in.defs.end(), [kind](const RegRange& r) { return r.kind == kind; });
}

bool writesScalar(const Instruction& in)
{
    return std::any_of(in.defs.begin(), in.defs.end(), [](const RegRange& r) { return isScalar(r.kind); });
}

// Section 4's list, by canonical (GFX6) name: the _CO_ / GFX8 _U32 spellings map onto these.
bool isListedValuSaluWriter(std::string_view canonical)
{
    static constexpr std::string_view kWriters[] = {"V_ADD_I32",  "V_SUB_I32",     "V_SUBREV_I32",   "V_ADDC_U32",
                                                    "V_SUBB_U32", "V_SUBBREV_U32", "V_READLANE_B32", "V_READFIRSTLANE_B32"};
    return std::find(std::begin(kWriters), std::end(kWriters), canonical) != std::end(kWriters);
}

struct Normalized {
    std::string name;      // canonical upper-case name
    bool promoted = false; // printed with _e64: a VOP1/VOP2/VOPC opcode in the VOP3 encoding
};

Normalized normalize(std::string_view mnemonic, Generation generation)
{
    Normalized out;
    std::string name(mnemonic);
    for (char& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::string_view suffix : {"_e32", "_e64", "_sdwa", "_dpp"}) {
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            out.promoted = suffix == "_e64";
            name.resize(name.size() - suffix.size());
            break;
        }
    }
    // The carry-out integer adds changed names: V_ADD_I32 (GFX6/7) → v_add_u32 (GFX8) →
    // v_add_co_u32 (GFX9+, where v_add_u32 is a different, carry-less op). Map back to the
    // GFX6 names the tables and section 4's list use.
    struct Rename {
        std::string_view from, to;
    };
    static constexpr Rename kGfx8[] = {{"v_add_u32", "v_add_i32"}, {"v_sub_u32", "v_sub_i32"}, {"v_subrev_u32", "v_subrev_i32"}};
    static constexpr Rename kGfx9[] = {{"v_add_co_u32", "v_add_i32"},       {"v_sub_co_u32", "v_sub_i32"},
                                       {"v_subrev_co_u32", "v_subrev_i32"}, {"v_addc_co_u32", "v_addc_u32"},
                                       {"v_subb_co_u32", "v_subb_u32"},     {"v_subbrev_co_u32", "v_subbrev_u32"}};
    auto apply = [&name](const auto& renames) {
        for (const auto& rename : renames)
            if (name == rename.from) {
                name = rename.to;
                return;
            }
    };
    if (generation == Generation::GFX8)
        apply(kGfx8);
    else if (generation == Generation::GFX9 || generation == Generation::CDNA)
        apply(kGfx9);
    out.name = upper(name);
    return out;
}

// The row for an instruction: exact rows win over patterns, patterns over the prose classes.
int findRow(const Normalized& n, Family family)
{
    const Table& t = table();
    if (const auto it = t.exact.find(n.name); it != t.exact.end())
        return it->second;
    for (const int index : t.patterns)
        if (globMatch(t.rows[index].mnemonic, n.name))
            return index;
    auto cls = [&t](const char* name) {
        const auto it = t.classes.find(name);
        return it == t.classes.end() ? -1 : it->second;
    };
    if (family == Family::SOPP && (n.name == "S_BRANCH" || n.name.starts_with("S_CBRANCH_")))
        return cls("<SOPP jump>");
    if (n.name.starts_with("V_CMP")) { // v_cmp, v_cmpx, v_cmps, v_cmpsx, v_cmp_class in any encoding
        const bool wide = n.name.ends_with("_F64") || n.name.ends_with("_I64") || n.name.ends_with("_U64");
        return cls(wide ? "<VOPC 64-bit>" : "<VOPC 16/32-bit>");
    }
    switch (family) {
    case Family::SOP1:
        return cls("<SOP1>");
    case Family::SOP2:
        return cls("<SOP2>");
    case Family::SOPK:
        return cls("<SOPK>");
    case Family::SOPC:
        return cls("<SOPC>");
    case Family::VOP3P:
        return cls("<VOP3P>");
    // SDWA and DPP exist only for VOP1/VOP2/VOPC; VOP1 and VOPC were matched above.
    case Family::VOP2:
    case Family::SDWA:
    case Family::DPP:
        return cls("<VOP2>");
    case Family::VOP3:
        return n.promoted ? cls("<VOP2>") : (n.name.starts_with("V_PK_") ? cls("<VOP3P>") : -1);
    default:
        return -1;
    }
}

CycleCount cyclesOfRow(int row, int dpfactor, bool glc)
{
    CycleCount out;
    if (row < 0) {
        out.noData = true;
        return out;
    }
    const TimingRow& r = table().rows[row];
    evaluateCycles(r.cycles, dpfactor, glc, out); // every row parses: tst_timingtable proves it
    out.table = r.table;
    out.matched = r.mnemonic;
    out.throughput = r.throughput;
    if (!out.noData && !out.unknown) {
        out.rule = "T-table";
        out.ruleDetail = r.table + " " + r.mnemonic + " = " + r.cycles;
    }
    return out;
}

bool isMatrix(std::string_view canonical)
{
    return canonical.starts_with("V_MFMA_") || canonical.starts_with("V_SMFMAC_");
}

// docs/model.md: the table first; a matrix instruction's passes (no table row predates them);
// else LLVM's scheduling model for the processor. A "?" or "-" row gives way to LLVM's number
// and is named in the detail.
CycleCount timeOf(const Normalized& n, Family family, const GpuTarget& gpu, bool glc, unsigned opcode)
{
    const int row = isMatrix(n.name) ? -1 : findRow(n, family);
    CycleCount table = cyclesOfRow(row, gpu.dpfactor, glc);
    if (!table.rule.empty() || opcode == 0)
        return table;
    const SchedInfo sched = llvmSchedInfo(gpu, opcode);
    if (!sched.valid)
        return table;
    CycleCount out;
    if (isMatrix(n.name) && sched.passes > 0) {
        out.low = out.high = 4 * sched.passes;
        out.rule = "T-mfma";
        out.table = "MFMA";
        out.source = std::to_string(sched.passes) + " passes × 4";
        out.ruleDetail =
            std::to_string(sched.passes) + " passes × 4 cycles (LLVM " + gpu.processor + " model, " + sched.detail() + ")";
    } else {
        out.low = out.high = sched.cycles;
        out.rule = "T-llvm-sched";
        out.table = "LLVM";
        out.source = std::to_string(sched.cycles);
        out.ruleDetail = "LLVM " + gpu.processor + " model, " + sched.detail();
        if (row >= 0)
            out.ruleDetail =
                out.ruleDetail + "; GcnTimings.md " + table.table + " " + table.matched + " says '" + table.source + "'";
    }
    out.matched = sched.className;
    return out;
}

// T-nop (docs/model.md): s_nop N idles N+1 issue slots of 4 cycles — the N+1 wait states of
// hazards.md §1 — capped like the checker at 8 slots on GFX6/7 and A-nop (16 or 8) on GFX8+.
// GcnTimings.md has no row for it and LLVM's model gives every s_nop one slot, which would make
// `s_nop 3` after a carry add cover 4 of H-valu-salu's 16 cycles instead of all of them.
CycleCount nopCycles(std::string_view operands, Generation generation, int nopLimit)
{
    operands = trim(operands);
    int base = 10;
    if (operands.starts_with("0x") || operands.starts_with("0X")) {
        operands.remove_prefix(2);
        base = 16;
    }
    int n = 0;
    std::from_chars(operands.data(), operands.data() + operands.size(), n, base); // empty → 0
    const int limit = generation == Generation::GFX6 || generation == Generation::GFX7 ? 8 : nopLimit;
    const int slots = std::clamp(n + 1, 1, limit);
    CycleCount out;
    out.low = out.high = 4 * slots;
    out.rule = "T-nop";
    out.table = "SOPP";
    out.matched = "S_NOP";
    out.source = std::to_string(slots) + " × 4";
    out.ruleDetail = "s_nop " + std::to_string(n) + ": " + std::to_string(slots) + " issue slot" + (slots == 1 ? "" : "s")
        + " × 4 cycles (hazards.md §1: N+1 wait states, at most " + std::to_string(limit) + ")";
    return out;
}

void finish(Totals& totals)
{
    totals.singleWaveCycles = totals.baseCycles + totals.penaltyCycles; // section 5
}

const char* onOff(bool on)
{
    return on ? "on" : "off";
}

bool parseBool(const std::string& value, bool& out)
{
    if (value == "on" || value == "true" || value == "1" || value == "yes") {
        out = true;
        return true;
    }
    if (value == "off" || value == "false" || value == "0" || value == "no") {
        out = false;
        return true;
    }
    return false;
}

} // namespace

// ---- options (section 9) ----

std::string TimingOptions::set(const std::string& name, const std::string& value)
{
    auto positive = [&](int& target, int min, int max) -> std::string {
        int parsed = 0;
        if (!parseInt(value, parsed) || parsed < min || parsed > max)
            return std::format("option {}: expected an integer {}..{}, got '{}'", name, min, max, value);
        target = parsed;
        return {};
    };
    auto flag = [&](bool& target) -> std::string {
        if (!parseBool(value, target))
            return std::format("option {}: expected on or off, got '{}'", name, value);
        return {};
    };
    if (name == "backward-branch-target-penalty")
        return flag(backwardBranchTargetPenalty);
    if (name == "taken-branch-cycles")
        return positive(takenBranchCycles, 0, 1000);
    // A two-valued option: the first spelling selects `first`, the second `second`.
    auto choice = [&](auto& target, auto first, std::string_view a, auto second, std::string_view b) -> std::string {
        if (value == a)
            target = first;
        else if (value == b)
            target = second;
        else
            return std::format("option {}: expected {} or {}, got '{}'", name, a, b, value);
        return {};
    };
    if (name == "long-rule")
        return choice(longRule, LongRule::OwnCycles, "own-cycles", LongRule::WholeBlock, "whole-block");
    if (name == "pair-rule")
        return choice(pairRule, PairRule::Adjacent, "adjacent", PairRule::SameQuad, "same-quad");
    if (name == "valu-salu-writers")
        return choice(valuSaluWriters, ValuSaluWriters::Listed, "listed", ValuSaluWriters::AnyValuWritingSgpr, "any");
    if (name == "max-waves-override") {
        if (value == "none" || value == "off" || value.empty()) {
            maxWavesOverride.reset();
            return {};
        }
        int waves = 0;
        if (auto error = positive(waves, 1, 10); !error.empty())
            return error;
        maxWavesOverride = waves;
        return {};
    }
    if (name == "trap-handler")
        return flag(trapHandler);
    if (name == "polaris-max-waves")
        return positive(polarisMaxWaves, 1, 10);
    if (name == "lds-group")
        return positive(ldsGroupDwords, 1, 64);
    if (name == "lds-phases") {
        if (value != "auto" && value != "gcn" && value != "cdna")
            return std::format("option {}: expected auto, gcn or cdna, got '{}'", name, value);
        ldsPhases = value;
        return {};
    }
    bool known = false;
    if (auto error = checks.set(name, value, &known); known)
        return error;
    return std::format("unknown option '{}' (known: backward-branch-target-penalty, taken-branch-cycles, "
                       "long-rule, pair-rule, valu-salu-writers, max-waves-override, trap-handler, "
                       "polaris-max-waves, lds-group, lds-phases, and hazards.md's A-* options)",
                       name);
}

std::vector<std::pair<std::string, std::string>> TimingOptions::values() const
{
    auto out = std::vector<std::pair<std::string, std::string>> {
        {"backward-branch-target-penalty", onOff(backwardBranchTargetPenalty)},
        {"taken-branch-cycles", std::to_string(takenBranchCycles)},
        {"long-rule", longRule == LongRule::OwnCycles ? "own-cycles" : "whole-block"},
        {"pair-rule", pairRule == PairRule::Adjacent ? "adjacent" : "same-quad"},
        {"valu-salu-writers", valuSaluWriters == ValuSaluWriters::Listed ? "listed" : "any"},
        {"max-waves-override", maxWavesOverride ? std::to_string(*maxWavesOverride) : "none"},
        {"trap-handler", onOff(trapHandler)},
        {"polaris-max-waves", std::to_string(polarisMaxWaves)},
        {"lds-group", std::to_string(ldsGroupDwords)},
        {"lds-phases", ldsPhases},
    };
    for (auto& value : checks.values())
        out.push_back(std::move(value));
    return out;
}

std::vector<std::pair<std::string, std::string>> TimingOptions::nonDefaultValues() const
{
    const auto defaults = TimingOptions {}.values();
    auto all = values();
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].second != defaults[i].second)
            out.push_back(std::move(all[i]));
    return out;
}

int InstructionTiming::penaltyCycles() const
{
    int sum = 0;
    for (const Penalty& p : penalties())
        sum += p.cycles;
    return sum;
}

void InstructionTiming::addPenalty(Penalty penalty)
{
    charges_.push_back(std::move(penalty));
    if (freed_) // the freeing rule stays last
        std::swap(charges_[charges_.size() - 1], charges_[charges_.size() - 2]);
}

void InstructionTiming::setFreedBy(InternedString rule, PatternText detail)
{
    if (freed_)
        charges_.back() = Penalty {rule, 0, std::move(detail)};
    else
        charges_.push_back(Penalty {rule, 0, std::move(detail)});
    freed_ = true;
}

// ---- tables (section 1) ----

const std::vector<TimingRow>& timingTable()
{
    return table().rows;
}

bool evaluateCycles(std::string_view text, int dpfactor, bool glc, CycleCount& out)
{
    text = trim(text);
    out.source = std::string(text);
    out.low = out.high = 4;
    out.unknown = out.noData = out.uncertain = false;
    int a = 0, b = 0;
    if (text == "-") { // exempted by the source ("not checked"): no data
        out.noData = true;
        return true;
    }
    if (text == "?") { // unknown: counted as 4 with a warning (section 1)
        out.unknown = true;
        return true;
    }
    if (parseInt(text, a)) {
        out.low = out.high = a;
        return true;
    }
    if (text.ends_with('?') && parseInt(text.substr(0, text.size() - 1), a)) {
        out.low = out.high = a;
        out.uncertain = true;
        return true;
    }
    if (text.starts_with("DPFACTOR*") && parseInt(text.substr(9), a)) {
        out.low = out.high = dpfactor * a;
        return true;
    }
    // "4 or 16 (1)": footnote (1) of the VOP3 table — the first value on devices with DP rate
    // 1/2, 1/4 or 1/8 (DPFACTOR <= 4), the second on the others (section 1, V_FMA_F32).
    if (const auto at = text.find(" or "); at != std::string_view::npos) {
        auto second = text.substr(at + 4);
        if (const auto paren = second.find('('); paren != std::string_view::npos)
            second = second.substr(0, paren);
        if (parseInt(text.substr(0, at), a) && parseInt(second, b)) {
            out.low = out.high = dpfactor <= 4 ? a : b;
            return true;
        }
        return false;
    }
    if (const auto at = text.find("+GLC"); at != std::string_view::npos) {
        if (parseInt(text.substr(0, at), a) && parseInt(text.substr(at + 4), b)) {
            out.low = out.high = a + (glc ? b : 0);
            return true;
        }
        return false;
    }
    if (const auto at = text.find('-'); at != std::string_view::npos && at > 0) {
        if (parseInt(text.substr(0, at), a) && parseInt(text.substr(at + 1), b) && a <= b) {
            out.low = a; // a range: low end in totals, both shown (section 1)
            out.high = b;
            return true;
        }
    }
    return false;
}

std::string canonicalMnemonic(std::string_view mnemonic, Generation generation)
{
    return normalize(mnemonic, generation).name;
}

CycleCount lookupCycles(const std::string& mnemonic, Family family, const GpuTarget& gpu, bool glc, unsigned opcode)
{
    return timeOf(normalize(mnemonic, gpu.generation), family, gpu, glc, opcode);
}

const std::vector<RuleInfo>& ruleLegend()
{
    static const std::vector<RuleInfo> legend = {
        {"fetch-align", "2-dword instruction outside the first 16 bytes of its 32-byte block and not freed: +4 (GFX6/7)",
         "timing-model.md §2 step 4", PenaltyClass::Fetch},
        {"fetch-straddle", "2-dword instruction at slot 7 straddles a 32-byte boundary: +4 (GFX9 and CDNA, R-straddle)",
         "timing-model.md §2 (GFX9 and CDNA)", PenaltyClass::Fetch},
        {"branch-target",
         "taken jump to slot 5, 6 or 7 of a block: +4 per dword past the fifth (GFX6/7, forward only by default)",
         "timing-model.md §3 B-target", PenaltyClass::Branch},
        {"branch-position", "conditional jump at slot 4–7 that falls through: +4 per dword past the fourth (GFX6/7)",
         "timing-model.md §3 B-position", PenaltyClass::Branch},
        {"valu-salu", "scalar ALU instruction less than 16 cycles after a carry add/sub or readlane VALU: the shortfall (GFX6/7)",
         "timing-model.md §4 H-valu-salu", PenaltyClass::Hazard},
        {"vcc-exec-branch", "s_cbranch_vccz/vccnz or execz/execnz directly after a write of VCC or EXEC: +4 (GFX6/7)",
         "timing-model.md §4 H-vcc-exec-branch", PenaltyClass::Hazard},
        {"scc-branch", "s_cbranch_scc0/scc1 directly after a write of SCC, EXEC or VCC: +4 (GFX6/7)",
         "timing-model.md §4 H-scc-branch", PenaltyClass::Hazard},
        {"T-table", "cycles from the GcnTimings.md row named (DPFACTOR and +GLC applied)", "docs/model.md T-table"},
        {"T-mfma", "a matrix instruction: its passes × 4 cycles, the passes from LLVM's scheduling model of the processor",
         "docs/model.md T-mfma"},
        {"T-nop", "s_nop N: N+1 issue slots × 4 cycles (at most 8 slots on GFX6/7, A-nop on GFX8+)", "docs/model.md T-nop"},
        {"T-llvm-sched",
         "no table row: 4 × the cycles LLVM's scheduling model of the processor gives (unit cycles; on the ALUs at least the "
         "latency)",
         "docs/model.md T-llvm-sched"},
        {"R-first16", "no fetch penalty: the 2-dword instruction lies in the first 16 bytes of its block (slot 0–2)",
         "timing-model.md §2 step 1"},
        {"R-long", "no fetch penalty: an instruction of C > 4 cycles hides the fetch of the last C/4 dwords of its block",
         "timing-model.md §2 step 2"},
        {"R-pair", "no fetch penalty: right after a 2-dword instruction of 16 or more cycles that ends where this one starts",
         "timing-model.md §2 step 3"},
    };
    return legend;
}

PenaltyClass InstructionTiming::markClass() const
{
    PenaltyClass worst = PenaltyClass::None;
    for (const Penalty& p : penalties())
        worst = std::max(worst, penaltyClassOf(p.rule)); // the enum is ordered by importance
    return worst;
}

PenaltyClass penaltyClassOf(std::string_view rule)
{
    for (const RuleInfo& info : ruleLegend())
        if (info.id == rule)
            return info.penaltyClass;
    return PenaltyClass::None;
}

std::string cyclesText(const Instruction& instruction, const InstructionTiming& t)
{
    if (instruction.isData || instruction.placeholder || instruction.family == Family::Data)
        return {};
    std::string text = std::to_string(t.cycles());
    if (t.base()->high != t.base()->low && t.direction() == Direction::NotABranch)
        text += '-' + std::to_string(t.base()->high);
    if (t.base()->unknown || t.base()->noData)
        text += '?';
    else if (t.base()->uncertain)
        text += '~';
    return text;
}

// ---- the model (sections 2–5) ----

namespace {

// The rule details are written for thousands of instructions per run: as patterns with the
// block address and the lines of other instructions as holes, stored once per wording (issue #18).
using Text = PatternText::Builder;

Text::HexHole hex(std::uint64_t value)
{
    return {value};
}
Text::Hole line(int value)
{
    return {value};
}

// The linear pass's state before an instruction. `prev` is the previous real instruction of the
// same kernel: data words and placeholders are transparent (they hold no executable instruction
// the model could time).
struct PassState {
    int kernel = -2;
    int prev = -1;
    std::uint64_t block = ~std::uint64_t {0};
    int blockMaxCycles = 0, blockMaxIndex = -1; // long-rule=whole-block
    int valuWriter = -1;                        // pending H-valu-salu writer, -1 when none
    long long sinceValu = 0;                    // cycles elapsed since that writer completed
};

class Pass {
public:
    Pass(const Program& program, const TimingOptions& options, const BranchOverrides& overrides,
         std::vector<InstructionTiming>& out)
        : program_(program)
        , options_(options)
        , overrides_(overrides)
        , out_(out)
    {
        const Generation generation = program.gpu.generation;
        gfx67_ = generation == Generation::GFX6 || generation == Generation::GFX7; // §2 and §3–4 placement/hazards
        straddleRule_ = generation == Generation::GFX9 || generation == Generation::CDNA;
        const auto it = table().classes.find("<SOPP jump taken>");
        takenRow_ = it == table().classes.end() ? -1 : it->second;
    }

    // Times instruction i (out[i]) and advances the state past it.
    void step(std::size_t i, PassState& s);

private:
    const Program& program_;
    const TimingOptions& options_;
    const BranchOverrides& overrides_;
    std::vector<InstructionTiming>& out_;
    bool gfx67_ = false, straddleRule_ = false;
    int takenRow_ = -1;
    // Lookups repeat per mnemonic: cache the row by what decides it (the mnemonic by its interned
    // handle, so a lookup reads no characters).
    struct RowKey {
        std::uint32_t mnemonic;
        unsigned opcode;
        Family family;
        bool glc;
        bool operator==(const RowKey&) const = default;
    };
    struct RowKeyHash {
        std::size_t operator()(const RowKey& k) const noexcept
        {
            return hashWord(std::uint64_t(k.mnemonic) << 32 | k.opcode) ^ (std::size_t(k.family) << 1 | k.glc);
        }
    };
    struct Cached {
        CycleRef count;
        std::string canonical;
        bool nop = false; // canonical == "S_NOP"
    };
    std::unordered_map<RowKey, Cached, RowKeyHash> rowCache_;
};

void Pass::step(std::size_t i, PassState& s)
{
    const auto& instructions = program_.instructions;
    const Instruction& in = instructions[i];
    InstructionTiming& t = out_[i];
    t = InstructionTiming {};
    const FetchPlace place = fetchPlace(in);

    if (in.kernel != s.kernel) {
        s.kernel = in.kernel;
        s.prev = -1;
        s.valuWriter = -1;
        s.block = ~std::uint64_t {0};
    }
    if (place.block != s.block) {
        s.block = place.block;
        s.blockMaxCycles = 0;
        s.blockMaxIndex = -1;
    }

    // Data words and placeholders take no cycles and pay no penalty: they are not executed
    // (data is jumped over) or not known (a line that did not assemble).
    if (in.isData || in.placeholder) {
        CycleCount none;
        none.low = none.high = 0;
        none.table = in.isData ? "data" : "placeholder";
        t.setBase(none);
        return;
    }

    // Section 1: C(I).
    const RowKey key {in.mnemonic.handle(), in.opcode, in.family, in.glc};
    auto cached = rowCache_.find(key);
    if (cached == rowCache_.end()) {
        Normalized n = normalize(in.mnemonic, program_.gpu.generation);
        CycleCount count = timeOf(n, in.family, program_.gpu, in.glc, in.opcode);
        const bool nop = n.name == "S_NOP";
        cached = rowCache_.emplace(key, Cached {CycleRef(count), std::move(n.name), nop}).first;
    }
    const std::string& canonical = cached->second.canonical;
    t.setBase(cached->second.count);
    if (cached->second.nop)
        t.setBase(nopCycles(in.operands, program_.gpu.generation, options_.checks.nopLimit));
    t.setVectorIssue(isVectorIssue(in.family));

    // Section 3: direction and B-cost. The taken cost is the option, the not-taken cost the row.
    const bool jump = isJump(in);
    if (jump) {
        if (in.branch == BranchKind::Unconditional) {
            t.setDirection(Direction::Taken); // s_branch always jumps: overrides do not apply
        } else {
            t.setDirection(in.backward ? Direction::Taken : Direction::NotTaken);
            if (const auto it = overrides_.byLine.find(in.line);
                it != overrides_.byLine.end() && it->second != Direction::NotABranch) {
                t.setDirectionOverridden(t.direction() != it->second);
                t.setDirection(it->second);
            }
        }
        if (t.direction() == Direction::Taken) {
            CycleCount taken = cyclesOfRow(takenRow_, program_.gpu.dpfactor, false);
            if (options_.takenBranchCycles != taken.low)
                taken.source = std::to_string(options_.takenBranchCycles) + " (taken-branch-cycles)";
            taken.low = taken.high = options_.takenBranchCycles;
            t.setBase(std::move(taken));
        }
    }

    const std::uint64_t block = place.block;

    // Section 2: instruction fetch of 2-dword instructions.
    const int cycles = t.cycles();
    if (cycles > s.blockMaxCycles) {
        s.blockMaxCycles = cycles;
        s.blockMaxIndex = static_cast<int>(i);
    }
    if (in.size >= 8 && gfx67_) {
        const int p = place.slot;
        const bool wholeBlock = options_.longRule == TimingOptions::LongRule::WholeBlock;
        const int longCycles = wholeBlock ? s.blockMaxCycles : cycles;
        const Instruction* j = s.prev >= 0 ? &instructions[static_cast<std::size_t>(s.prev)] : nullptr;
        const int jCycles = s.prev >= 0 ? out_[static_cast<std::size_t>(s.prev)].cycles() : 0;
        const bool pairAdjacent = j && j->size >= 8 && jCycles >= 16 && in.offset == j->offset + j->size;
        const bool pairQuad =
            options_.pairRule == TimingOptions::PairRule::Adjacent || (j && (j->offset >> 4) == (in.offset >> 4));
        Text detail;
        detail << "2-dword instruction at slot " << p << " of block " << hex(block) << ": ";
        if (p <= 2) {
            t.setFreedBy("R-first16", (detail << "inside the first 16 bytes (R-first16) → no penalty").take());
        } else if (longCycles > 4 && p >= 8 - longCycles / 4) {
            if (wholeBlock && s.blockMaxIndex != static_cast<int>(i)) {
                const Instruction& longest = instructions[static_cast<std::size_t>(s.blockMaxIndex)];
                t.setFreedBy("R-long",
                             (detail << "the " << longCycles << "-cycle " << longest.mnemonic << " (line " << line(longest.line)
                                     << ") in this block hides the fetch of its last " << std::min(8, longCycles / 4)
                                     << " dwords (R-long, whole-block) → no penalty")
                                 .take());
            } else {
                t.setFreedBy("R-long",
                             (detail << "its " << longCycles << " cycles hide the fetch of the last "
                                     << std::min(8, longCycles / 4) << " dwords (R-long) → no penalty")
                                 .take());
            }
        } else if (pairAdjacent && pairQuad) {
            t.setFreedBy("R-pair",
                         (detail << "starts where the " << jCycles << "-cycle 2-dword " << j->mnemonic << " (line "
                                 << line(j->line) << ") ends (R-pair"
                                 << (options_.pairRule == TimingOptions::PairRule::SameQuad ? ", same-quad" : "")
                                 << ") → no penalty")
                             .take());
        } else {
            detail << "outside the first 16 bytes, not freed by ";
            if (wholeBlock)
                detail << "the block's longest " << longCycles << " cycles";
            else
                detail << "its " << cycles << " cycles";
            t.addPenalty({"fetch-align", kPenalty, (detail << " → +" << kPenalty).take()});
        }
    } else if (in.size >= 8 && straddleRule_ && place.slot == 7) {
        t.addPenalty({"fetch-straddle", kPenalty,
                      (Text() << "2-dword instruction at slot 7 of block " << hex(block) << ": straddles into block "
                              << hex(block + 32) << " (R-straddle, GFX9+) → +" << kPenalty)
                          .take()});
    }

    if (gfx67_ && jump) {
        // B-target: max(0, p(T) - 4) penalties for a taken jump (forward only unless the option).
        if (t.direction() == Direction::Taken && in.targetOffset() && (!in.backward || options_.backwardBranchTargetPenalty)) {
            const int targetSlot = static_cast<int>((*in.targetOffset() >> 2) & 7);
            if (const int n = std::max(0, targetSlot - 4); n > 0) {
                Text detail;
                detail << "taken " << (in.backward ? "backward" : "forward") << " jump to slot " << targetSlot << " of block "
                       << hex(*in.targetOffset() & ~std::uint64_t {31});
                if (!in.targetLabel().empty())
                    detail << " (" << in.targetLabel() << ")";
                detail << ": " << n << " dword" << (n == 1 ? "" : "s") << " past the first 5 of the block (B-target) → +"
                       << n * kPenalty;
                t.addPenalty({"branch-target", n * kPenalty, detail.take()});
            }
        }
        // B-position: max(0, p - 3) penalties for a conditional jump that falls through.
        if (in.branch == BranchKind::Conditional && t.direction() == Direction::NotTaken) {
            if (const int n = std::max(0, place.slot - 3); n > 0)
                t.addPenalty({"branch-position", n * kPenalty,
                              (Text() << "conditional jump at slot " << place.slot << " of block " << hex(block)
                                      << " not taken: in the second half of the block, slot − 3 = " << n << " (B-position) → +"
                                      << n * kPenalty)
                                  .take()});
        }
    }

    if (gfx67_) {
        // H-vcc-exec-branch / H-scc-branch: "directly" = the immediately preceding instruction.
        const Instruction* before = s.prev >= 0 ? &instructions[static_cast<std::size_t>(s.prev)] : nullptr;
        if (before && in.family == Family::SOPP && in.branch == BranchKind::Conditional) {
            const bool vcc = canonical == "S_CBRANCH_VCCZ" || canonical == "S_CBRANCH_VCCNZ";
            const bool exec = canonical == "S_CBRANCH_EXECZ" || canonical == "S_CBRANCH_EXECNZ";
            const bool scc = canonical == "S_CBRANCH_SCC0" || canonical == "S_CBRANCH_SCC1";
            if ((vcc && writes(*before, RegKind::VCC)) || (exec && writes(*before, RegKind::EXEC)))
                t.addPenalty({"vcc-exec-branch", kPenalty,
                              (Text() << in.mnemonic << " directly after " << before->mnemonic << " (line " << line(before->line)
                                      << "), which writes " << (vcc ? "VCC" : "EXEC") << " (H-vcc-exec-branch) → +" << kPenalty)
                                  .take()});
            if (scc) {
                const char* what = writes(*before, RegKind::SCC) ? "SCC"
                    : writes(*before, RegKind::EXEC)             ? "EXEC"
                    : writes(*before, RegKind::VCC)              ? "VCC"
                                                                 : nullptr;
                if (what)
                    t.addPenalty(
                        {"scc-branch", kPenalty,
                         (Text() << in.mnemonic << " directly after " << before->mnemonic << " (line " << line(before->line)
                                 << "), which writes " << what << " (H-scc-branch) → +" << kPenalty)
                             .take()});
            }
        }

        // H-valu-salu: the SALU may issue no earlier than 16 cycles after the writer completes.
        // The time that has passed is what the instructions in between took (their cycles and
        // penalties); the shortfall 16 − elapsed is charged to the SALU, rounded up to whole
        // 4-cycle penalties (issue is on a 4-cycle cadence). 0 between → 16, 1 → 12, … 4 → 0.
        if (isSalu(in.family) && s.valuWriter >= 0) {
            const long long shortfall = kValuSaluDelay - s.sinceValu;
            if (shortfall > 0) {
                const int charged = static_cast<int>((shortfall + kPenalty - 1) / kPenalty * kPenalty);
                const Instruction& writer = instructions[static_cast<std::size_t>(s.valuWriter)];
                t.addPenalty(
                    {"valu-salu", charged,
                     (Text() << in.mnemonic << " issues 16 cycles after " << writer.mnemonic << " (line " << line(writer.line)
                             << ") completes; " << s.sinceValu << " cycles of instructions in between → 16 − " << s.sinceValu
                             << " = +" << charged << " (H-valu-salu)")
                         .take()});
            }
            s.valuWriter = -1; // only the next SALU waits
        }
        const bool writer = isValu(in.family)
            && (options_.valuSaluWriters == TimingOptions::ValuSaluWriters::Listed ? isListedValuSaluWriter(canonical)
                                                                                   : writesScalar(in));
        if (writer) {
            s.valuWriter = static_cast<int>(i);
            s.sinceValu = 0;
        } else if (s.valuWriter >= 0) {
            s.sinceValu += t.cycles() + t.penaltyCycles();
        }
        // After a jump that always leaves, the next instruction in program order is reached
        // from elsewhere: the pending writer no longer precedes it.
        if (in.branch == BranchKind::Unconditional || in.branch == BranchKind::Return || in.branch == BranchKind::Indirect)
            s.valuWriter = -1;
    }
    s.prev = static_cast<int>(i);
}

// Per-rule sums of a basic block, kept in a small list while the block is summed (a handful of
// rules occur) and turned into the Totals maps once per block.
struct RuleSums {
    struct Entry {
        InternedString rule;
        long long cycles;
        int count;
    };
    std::vector<Entry> entries;
    void add(const Penalty& p)
    {
        for (Entry& e : entries)
            if (e.rule == p.rule) {
                e.cycles += p.cycles;
                ++e.count;
                return;
            }
        entries.push_back({p.rule, p.cycles, 1});
    }
};

// A basic block's totals from its instructions (add() of each, in order).
void sumBlock(const Program& program, const std::vector<InstructionTiming>& timings, BasicBlock& b, RuleSums& rules)
{
    Totals& totals = b.totals;
    rules.entries.clear();
    for (int i = b.firstInstruction; i < b.endInstruction; ++i) {
        const Instruction& in = program.instructions[static_cast<std::size_t>(i)];
        const InstructionTiming& t = timings[static_cast<std::size_t>(i)];
        totals.bytes += static_cast<std::uint64_t>(std::max(in.size, 0));
        if (in.isData)
            continue;
        ++totals.instructions;
        if (in.placeholder)
            continue;
        totals.baseCycles += t.cycles();
        if (t.vectorIssue())
            totals.hiddenCycles += t.cycles();
        if (t.base()->unknown || t.base()->noData) {
            ++totals.unknownTimings;
            ++totals.unknownMnemonics[in.mnemonic];
        }
        for (const Penalty& p : t.penalties()) {
            totals.penaltyCycles += p.cycles;
            rules.add(p);
        }
    }
    for (const auto& e : rules.entries) {
        totals.byRule[e.rule.str()] += e.cycles;
        totals.countByRule[e.rule.str()] += e.count;
    }
}

// Adds one block's sums to a kernel's or the file's (every instruction is in exactly one block).
void addTotals(Totals& to, const Totals& from)
{
    to.instructions += from.instructions;
    to.bytes += from.bytes;
    to.baseCycles += from.baseCycles;
    to.penaltyCycles += from.penaltyCycles;
    to.hiddenCycles += from.hiddenCycles;
    to.unknownTimings += from.unknownTimings;
    for (const auto& [mnemonic, count] : from.unknownMnemonics)
        to.unknownMnemonics[mnemonic] += count;
    for (const auto& [rule, cycles] : from.byRule)
        to.byRule[rule] += cycles;
    for (const auto& [rule, count] : from.countByRule)
        to.countByRule[rule] += count;
}

// Basic blocks and the totals (section 5) of timed instructions.
void blocksAndTotals(const Program& program, TimingResult& result)
{
    const auto& instructions = program.instructions;
    const std::size_t count = instructions.size();
    std::vector<char> isTarget(count, 0);
    for (const Instruction& in : instructions)
        if (in.branch != BranchKind::None && in.targetIndex() >= 0 && static_cast<std::size_t>(in.targetIndex()) < count)
            isTarget[static_cast<std::size_t>(in.targetIndex())] = 1;

    // Basic blocks: a new block at each branch target, after each branch, at each kernel change.
    for (std::size_t i = 0; i < count; ++i) {
        const Instruction& in = instructions[i];
        const bool start =
            i == 0 || isTarget[i] || in.kernel != instructions[i - 1].kernel || instructions[i - 1].branch != BranchKind::None;
        if (start) {
            if (!result.blocks.empty())
                result.blocks.back().endInstruction = static_cast<int>(i);
            BasicBlock b;
            b.firstInstruction = static_cast<int>(i);
            b.kernel = in.kernel;
            result.blocks.push_back(std::move(b));
        }
    }
    if (!result.blocks.empty())
        result.blocks.back().endInstruction = static_cast<int>(count);

    // A block never spans kernels, so the kernel and file totals are sums of block totals.
    result.kernelTotals.resize(program.kernels.size());
    RuleSums rules;
    for (BasicBlock& b : result.blocks) {
        sumBlock(program, result.instructions, b, rules);
        addTotals(result.totals, b.totals);
        if (b.kernel >= 0 && static_cast<std::size_t>(b.kernel) < result.kernelTotals.size())
            addTotals(result.kernelTotals[static_cast<std::size_t>(b.kernel)], b.totals);
    }
    for (BasicBlock& b : result.blocks)
        finish(b.totals);
    for (Totals& k : result.kernelTotals)
        finish(k);
    finish(result.totals);
}

} // namespace

TimingResult analyzeTiming(const Program& program, const TimingOptions& options, const BranchOverrides& overrides)
{
    TimingResult result;
    result.options = options;
    result.instructions.resize(program.instructions.size());
    Pass pass(program, options, overrides, result.instructions);
    PassState state;
    for (std::size_t i = 0; i < program.instructions.size(); ++i)
        pass.step(i, state);
    blocksAndTotals(program, result);
    return result;
}

// ---- the incremental path ----

namespace {

// What the pass reads of an instruction (its own fields, or as prev / writer / the block's longest).
// The operand text only for s_nop, whose count it holds (T-nop).
bool sameForTiming(const Instruction& a, const Instruction& b)
{
    return a.offset == b.offset && a.size == b.size && a.kernel == b.kernel && a.line == b.line && a.isData == b.isData
        && a.placeholder == b.placeholder && a.family == b.family && a.opcode == b.opcode && a.glc == b.glc
        && a.branch == b.branch && a.backward == b.backward && a.targetOffset() == b.targetOffset() && a.mnemonic == b.mnemonic
        && a.targetLabel() == b.targetLabel() && a.defs == b.defs && (a.mnemonic != "s_nop" || a.operands == b.operands);
}

// The options the pass reads (the rest only travel in TimingResult::options): A-nop caps T-nop.
bool samePassOptions(const TimingOptions& a, const TimingOptions& b)
{
    return a.backwardBranchTargetPenalty == b.backwardBranchTargetPenalty && a.takenBranchCycles == b.takenBranchCycles
        && a.longRule == b.longRule && a.pairRule == b.pairRule && a.valuSaluWriters == b.valuSaluWriters
        && a.checks.nopLimit == b.checks.nopLimit;
}

struct PassCheckpoint {
    int index = 0; // the state before this instruction
    PassState state;
};

} // namespace

struct TimingAnalyzer::Cache {
    static constexpr int kInterval = 16; // instructions between checkpoints
    bool valid = false;
    TimingOptions options;
    std::map<int, Direction> overrides;
    Generation generation = Generation::GFX6;
    int dpfactor = 0;
    std::string processor; // LLVM's scheduling model is per processor (T-llvm-sched, T-mfma)
    std::size_t instructions = 0;
    int timed = 0;
    std::vector<PassCheckpoint> checkpoints; // of the last program, by index
};

TimingAnalyzer::TimingAnalyzer()
    : cache_(std::make_unique<Cache>())
{
}
TimingAnalyzer::~TimingAnalyzer() = default;

int TimingAnalyzer::timedInstructions() const
{
    return cache_->timed;
}

TimingResult TimingAnalyzer::analyze(const Program& program, const TimingOptions& options, const BranchOverrides& overrides,
                                     const Program* previous, const TimingResult* previousResult)
{
    Cache& c = *cache_;
    const bool incremental = c.valid && previous && previousResult && samePassOptions(c.options, options)
        && c.overrides == overrides.byLine && c.generation == program.gpu.generation && c.dpfactor == program.gpu.dpfactor
        && previous->gpu.generation == program.gpu.generation && previous->gpu.dpfactor == program.gpu.dpfactor
        && c.processor == program.gpu.processor && previous->gpu.processor == program.gpu.processor
        && c.instructions == previous->instructions.size() && previousResult->instructions.size() == c.instructions;

    TimingResult result;
    result.options = options;
    const int n = static_cast<int>(program.instructions.size());
    result.instructions.resize(static_cast<std::size_t>(n));
    Pass pass(program, options, overrides, result.instructions);
    std::vector<PassCheckpoint> checkpoints;
    PassState state;
    int i = 0, timed = 0;

    // Without a previous run: the whole pass, saving checkpoints.
    auto runTo = [&](int end, auto&& before) {
        for (; i < end; ++i) {
            checkCancelled(i); // (the cache is still the last run's: it is written only below)
            if (before())
                return;
            if (i % Cache::kInterval == 0 && (checkpoints.empty() || checkpoints.back().index != i))
                checkpoints.push_back({i, state});
            pass.step(static_cast<std::size_t>(i), state);
            ++timed;
        }
    };
    if (!incremental) {
        runTo(n, [] { return false; });
    } else {
        // The unchanged head (p instructions) and tail (s), and the tail's shift.
        const int m = static_cast<int>(previous->instructions.size());
        const auto [p, s, delta] = detail::commonEnds(program.instructions, previous->instructions, sameForTiming);
        const std::vector<PassCheckpoint>& old = c.checkpoints;
        // An old instruction index in this program: the same in the head, moved in the tail, and
        // -2 (matches nothing) for an instruction the edit replaced.
        const auto map = [&](int x) { return x < 0 ? x : x < p ? x : x >= m - s ? x + delta : -2; };
        // Equal states up to that mapping time the rest alike: every instruction a state refers to
        // is then unchanged, and an instruction's cycles depend only on itself. The block's longest
        // instruction is read only under long-rule=whole-block, the time since a writer only while
        // one is pending.
        const bool wholeBlock = options.longRule == TimingOptions::LongRule::WholeBlock;
        const auto equivalent = [&](const PassState& o, const PassState& now) {
            return o.kernel == now.kernel && o.block == now.block && map(o.prev) == now.prev
                && (!wholeBlock || (map(o.blockMaxIndex) == now.blockMaxIndex && o.blockMaxCycles == now.blockMaxCycles))
                && map(o.valuWriter) == now.valuWriter && (now.valuWriter < 0 || o.sinceValu == now.sinceValu);
        };

        // Resume at the last checkpoint at or before the first change: the head's timings and the
        // state there are this program's too.
        auto resume = std::upper_bound(old.begin(), old.end(), p, [](int at, const PassCheckpoint& k) { return at < k.index; });
        if (resume != old.begin()) {
            const PassCheckpoint& from = *std::prev(resume);
            std::copy(previousResult->instructions.begin(), previousResult->instructions.begin() + from.index,
                      result.instructions.begin());
            checkpoints.assign(old.begin(), resume);
            state = from.state;
            i = from.index;
        }
        // In the unchanged tail, meeting an equivalent state at an old checkpoint means the rest is
        // the previous result, moved by delta.
        auto next = std::lower_bound(old.begin(), old.end(), std::max(n - s, i) - delta,
                                     [](const PassCheckpoint& k, int j) { return k.index < j; });
        runTo(n, [&] {
            if (i < n - s)
                return false;
            while (next != old.end() && next->index < i - delta)
                ++next;
            if (next == old.end() || next->index != i - delta || !equivalent(next->state, state))
                return false;
            const int j = i - delta;
            std::copy(previousResult->instructions.begin() + j, previousResult->instructions.end(),
                      result.instructions.begin() + i);
            for (auto k = next; k != old.end(); ++k) {
                PassCheckpoint moved {k->index + delta, k->state};
                moved.state.prev = map(k->state.prev);
                moved.state.blockMaxIndex = map(k->state.blockMaxIndex);
                moved.state.valuWriter = map(k->state.valuWriter);
                if (!wholeBlock && moved.state.blockMaxIndex == -2)
                    moved.state.blockMaxIndex = -1; // never read under these options (a change of them is a full run)
                if (moved.state.prev == -2 || moved.state.blockMaxIndex == -2 || moved.state.valuWriter == -2)
                    continue; // refers to a replaced instruction: of no use later
                if (checkpoints.empty() || checkpoints.back().index < moved.index)
                    checkpoints.push_back(moved);
            }
            return true;
        });
    }
    blocksAndTotals(program, result);

    // From here on the run completes: the cache becomes this run's.
    c.valid = true;
    c.options = options;
    c.overrides = overrides.byLine;
    c.generation = program.gpu.generation;
    c.dpfactor = program.gpu.dpfactor;
    c.processor = program.gpu.processor;
    c.instructions = program.instructions.size();
    c.timed = timed;
    c.checkpoints = std::move(checkpoints);
    return result;
}

// The process's CycleCounts, each stored once (never freed: handles live in every result), in
// chunks that never move, so a CycleRef's number is read without the lock: whoever holds a number
// got it after its chunk was published.
namespace {
// Chunk k holds 256 << k counts and starts at number 256 * (2^k - 1).
constexpr std::uint32_t kCycleChunk = 256;
struct CycleSlot {
    std::uint32_t chunk, at;
};
CycleSlot cycleSlot(std::uint32_t index)
{
    const std::uint32_t chunk = std::uint32_t(std::bit_width(index / kCycleChunk + 1)) - 1;
    return {chunk, index - kCycleChunk * ((1u << chunk) - 1)};
}
struct CyclePool {
    std::mutex mutex;
    std::uint32_t size = 0;
    std::atomic<CycleCount*> chunks[24] = {}; // 4G counts; a few hundred occur
    std::unordered_multimap<std::size_t, std::uint32_t> byHash;
    const CycleCount& at(std::uint32_t index) const
    {
        const CycleSlot slot = cycleSlot(index);
        return chunks[slot.chunk].load(std::memory_order_acquire)[slot.at];
    }
};
CyclePool& cyclePool()
{
    static CyclePool* pool = new CyclePool; // leaked on purpose, like the string pools
    return *pool;
}
std::uint32_t internCycles(const CycleCount& c)
{
    const auto h = std::hash<std::string_view> {}(c.ruleDetail) ^ std::hash<std::string_view> {}(c.source)
        ^ (std::size_t(c.low) << 8) ^ (std::size_t(c.high) << 20)
        ^ (std::size_t(c.unknown + 2 * c.noData + 4 * c.uncertain) << 40);
    CyclePool& p = cyclePool();
    std::lock_guard lock(p.mutex);
    const auto [first, last] = p.byHash.equal_range(h);
    for (auto it = first; it != last; ++it)
        if (p.at(it->second) == c)
            return it->second;
    const std::uint32_t index = p.size;
    const CycleSlot slot = cycleSlot(index);
    if (slot.chunk >= std::size(p.chunks) || index >> CycleRef::kIndexBits)
        std::abort(); // 2^27 distinct cycle counts (InstructionTiming packs the number): no table or model makes that many
    if (slot.at == 0)
        p.chunks[slot.chunk].store(new CycleCount[kCycleChunk << slot.chunk], std::memory_order_release);
    p.chunks[slot.chunk].load(std::memory_order_relaxed)[slot.at] = c;
    ++p.size;
    p.byHash.emplace(h, index);
    return index;
}
} // namespace

CycleRef::CycleRef()
{
    static const std::uint32_t none = internCycles(CycleCount {});
    index_ = none;
}
CycleRef::CycleRef(const CycleCount& count)
    : index_(internCycles(count))
{
}
const CycleCount* CycleRef::get() const
{
    return &cyclePool().at(index_);
}

} // namespace gcnlens
