// SPDX-License-Identifier: MIT
// The timing model of timing-model.md sections 1–5, 8 and 9: per-instruction cycles from the
// GcnTimings.md tables (resources/timings.tsv), fetch-alignment, branch and hazard penalties with
// their rule ids, and per-block / per-kernel totals. A linear pass over a Program.
#pragma once

#include "core/model/checkoptions.h"
#include "core/program.h"

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens {

// Section 9 options, with the spec's defaults.
struct TimingOptions {
    bool backwardBranchTargetPenalty = false;                                     // backward-branch-target-penalty
    int takenBranchCycles = 20;                                                   // taken-branch-cycles
    enum class LongRule { OwnCycles, WholeBlock } longRule = LongRule::OwnCycles; // long-rule
    enum class PairRule { Adjacent, SameQuad } pairRule = PairRule::Adjacent;     // pair-rule
    enum class ValuSaluWriters { Listed, AnyValuWritingSgpr } valuSaluWriters = ValuSaluWriters::Listed;
    std::optional<int> maxWavesOverride; // max-waves-override
    bool trapHandler = false;            // trap-handler
    int polarisMaxWaves = 8;             // polaris-max-waves
    int ldsGroupDwords = 32;             // lds-group
    std::string ldsPhases = "auto";      // lds-phases: auto (by generation) | gcn | cdna (docs/model.md L-phases)
    CheckOptions checks;                 // hazards.md §4: A-nop, A-setreg, … (checkoptions.h)

    // Sets an option by its section-9 name ("taken-branch-cycles", "long-rule", …).
    // Returns an error message, empty on success.
    std::string set(const std::string& name, const std::string& value);
    // name → value as text, every option, in section-9 order.
    std::vector<std::pair<std::string, std::string>> values() const;
    // Only the options that differ from the defaults.
    std::vector<std::pair<std::string, std::string>> nonDefaultValues() const;
};

// Where an instruction sits in the 32-byte instruction-fetch blocks (timing-model.md section 1):
// slot p(I) = (offset >> 2) & 7 of the block at offset & ~31, both kernel-relative (the entry is
// 256-byte aligned). Derived from the instruction wherever it is needed instead of being kept
// per instruction (issue #18); the timing model and every view read it from here alone.
struct FetchPlace {
    std::uint64_t block = 0; // offset & ~31
    int slot = 0;            // 0..7
    bool straddles = false;  // the encoding runs into the next block (views mark it; R-straddle charges slot 7)
};
constexpr FetchPlace fetchPlace(std::uint64_t offset, int size)
{
    const std::uint64_t block = offset & ~std::uint64_t {31};
    return {block, int((offset >> 2) & 7), size > 0 && offset + std::uint64_t(size) > block + 32};
}
inline FetchPlace fetchPlace(const Instruction& in)
{
    return fetchPlace(in.offset, in.size);
}

// One row of the timing tables as the source states it. Its texts come from a few hundred rows and
// LLVM classes: interned (core/compact.h, issue #18).
struct CycleCount {
    int low = 4;               // used in totals
    int high = 4;              // == low unless the source gives a range ("16-24")
    bool unknown = false;      // "?" in the source: counted as 4, flagged
    bool noData = false;       // no row at all: default 4, flagged "no timing data"
    bool uncertain = false;    // the source doubts the value ("18?", the taken-jump 20 "(???)")
    InternedString matched;    // the row's mnemonic or class ("V_ADD_I32", "<VOP2>"), empty when none
    InternedString throughput; // DS table throughput as written ("1/4", "?"), else empty
    InternedString source;     // the table cell as written ("DPFACTOR*4", "16+GLC1", "16-24", "?")
    InternedString table;      // which table or prose rule it came from ("VOP1", "SOP2 (all)")
    // docs/model.md: where the number comes from. T-table (a GcnTimings.md row), T-mfma (LLVM's
    // passes of a matrix instruction × 4), T-llvm-sched (LLVM's scheduling model); empty when
    // there is no timing (noData or unknown).
    InternedString rule;
    InternedString ruleDetail; // the row ("VOP1 V_EXP_F32 = 16") or LLVM's class and units
    bool operator==(const CycleCount&) const = default;
};

// A CycleCount stored once per distinct value for the process (issue #18): every instruction of a
// mnemonic shares its row, so a timing holds a 4-byte number; read it through -> and *.
class CycleRef {
public:
    CycleRef();                        // the default CycleCount {}
    CycleRef(const CycleCount& count); // interns it
    const CycleCount& operator*() const { return *get(); }
    const CycleCount* operator->() const { return get(); }
    bool operator==(const CycleRef& other) const { return index_ == other.index_; }
    // The count's number, for owners that pack it with flags: at most kIndexBits wide (the pool
    // refuses more distinct counts; a few hundred occur).
    static constexpr int kIndexBits = 27;
    std::uint32_t index() const { return index_; }
    static CycleRef fromIndex(std::uint32_t index)
    {
        CycleRef ref(Raw {});
        ref.index_ = index;
        return ref;
    }

private:
    struct Raw { };
    explicit CycleRef(Raw) { }
    const CycleCount* get() const;
    std::uint32_t index_;
};

// What kind of cost a rule id charges (timing-model.md section 8): the fetch rules of section 2,
// the branch placement rules of section 3 and the hazards of section 4. Every presenter marks a
// penalty by its class; the freeing rules (R-first16, R-long, R-pair) charge nothing: None.
// Ordered by importance: where an instruction pays several, views mark the last.
enum class PenaltyClass { None, Fetch, Branch, Hazard };

struct Penalty {
    InternedString rule; // fetch-align, fetch-straddle, branch-target, branch-position,
                         // valu-salu, vcc-exec-branch, scc-branch
    int cycles = 0;
    PatternText detail; // one line naming the slot, sizes and the rule (12 bytes, issue #18)
};

enum class Direction : std::uint8_t { NotABranch, Taken, NotTaken };

// Eight bytes (issue #18 counts them): the row's number, the direction and three flags share
// one 32-bit word. The instruction's fetch block and slot are fetchPlace()'s, not kept here.
struct InstructionTiming {
    CycleRef base() const { return CycleRef::fromIndex(base_); } // C(I), DPFACTOR/GLC applied
    void setBase(CycleRef base) { base_ = base.index(); }
    // Base cycles used in totals: the row's low figure (branches: 4 or the taken cycles, whose
    // row the model makes; data and placeholders 0). Read from the row, not kept (issue #18).
    int cycles() const { return base()->low; }
    Direction direction() const { return Direction(direction_); }
    void setDirection(Direction direction) { direction_ = std::uint32_t(direction); }
    bool directionOverridden() const { return overridden_; }
    void setDirectionOverridden(bool overridden) { overridden_ = overridden; }
    bool vectorIssue() const { return vectorIssue_; } // counts toward latency-hidden cycles (VALU, DS, VMEM issue)
    void setVectorIssue(bool vectorIssue) { vectorIssue_ = vectorIssue; }

private:
    std::uint32_t base_ : CycleRef::kIndexBits = CycleRef().index();
    std::uint32_t direction_ : 2 = std::uint32_t(Direction::NotABranch);
    std::uint32_t overridden_ : 1 = false;
    std::uint32_t vectorIssue_ : 1 = false;
    std::uint32_t freed_ : 1 = false; // charges_ ends with the freeing rule
    // The penalties, then the freeing rule when freed_ (its cycles unused): one block for both
    // (a 4-byte handle), none for most instructions, which neither pay nor are freed (issue #18).
    SparseList<Penalty> charges_;

public:
    // What the rules of sections 2-4 charged, in the order they charged it.
    std::span<const Penalty> penalties() const { return {charges_.begin(), charges_.size() - (freed_ ? 1 : 0)}; }
    void addPenalty(Penalty penalty);
    int penaltyCycles() const;
    // The rule that freed a 2-dword instruction of its fetch penalty, at most one.
    InternedString freedBy() const { return freed_ ? charges_.back().rule : InternedString(); } // empty: none
    PatternText freedDetail() const { return freed_ ? charges_.back().detail : PatternText(); }
    void setFreedBy(InternedString rule, PatternText detail);
    // The class a view marks the instruction with: hazard over branch over fetch (section 8).
    PenaltyClass markClass() const;
};
static_assert(sizeof(void*) != 8 || sizeof(InstructionTiming) <= 8, "InstructionTiming grew: issue #18 counts its bytes");

struct Totals {
    int instructions = 0;
    std::uint64_t bytes = 0;
    long long baseCycles = 0;
    long long penaltyCycles = 0;
    long long singleWaveCycles = 0;     // base + penalties (section 5)
    long long hiddenCycles = 0;         // latency-hidden cycles at occupancy >= 2 (section 5)
    CountsByName<long long> byRule;     // rule id → cycles
    CountsByName<int> countByRule;      // rule id → occurrences
    int unknownTimings = 0;             // instructions counted with an unknown ("?") or missing row
    CountsByName<int> unknownMnemonics; // which mnemonics those are, with their counts
};

struct BasicBlock {
    int firstInstruction = 0; // [first, end)
    int endInstruction = 0;
    int kernel = -1;
    Totals totals;
};

struct TimingResult {
    std::vector<InstructionTiming> instructions; // parallel to Program::instructions
    std::vector<BasicBlock> blocks;
    std::vector<Totals> kernelTotals; // parallel to Program::kernels
    Totals totals;                    // whole file
    TimingOptions options;
};

// Per-branch direction overrides, keyed by source line.
struct BranchOverrides {
    std::map<int, Direction> byLine;
};

// Readings the spec leaves open, fixed here (and in the rule details the user sees):
// - Data words and placeholders take 0 cycles, pay nothing and are transparent: "directly" and
//   R-pair's "immediately before" look past them (R-pair still needs I to start where J ends).
// - valu-salu charges max(0, 16 − elapsed), elapsed = cycles + penalties of the instructions
//   between writer and SALU, rounded up to whole 4-cycle penalties; only the next SALU pays.
//   A pending writer is dropped after s_branch / s_endpgm / indirect jumps and at kernel starts.
// - long-rule=whole-block: C is the largest C of the instructions of the block up to I;
//   pair-rule=same-quad: J and I must also share one aligned 16-byte quad.
// - Overrides apply to conditional jumps only (s_branch is always taken).
// - Basic blocks start at branch targets, after any branch and at kernel changes.
TimingResult analyzeTiming(const Program& program, const TimingOptions& options = {}, const BranchOverrides& overrides = {});

// analyzeTiming over a sequence of edited programs (the editor's path): the pass's state is kept
// at checkpoints of the last program; the next program is timed from the last checkpoint before
// its first changed instruction until the state matches the last run's again at the same
// instruction after the change, and the rest is the last result. The result equals
// analyzeTiming(program, options, overrides).
class TimingAnalyzer {
public:
    TimingAnalyzer();
    ~TimingAnalyzer();
    TimingAnalyzer(const TimingAnalyzer&) = delete;
    TimingAnalyzer& operator=(const TimingAnalyzer&) = delete;

    // `previous` and `previousResult` must be the program and the result of this object's last
    // call (or nullptr: a full run, as after any change of options, overrides or GPU).
    TimingResult analyze(const Program& program, const TimingOptions& options, const BranchOverrides& overrides,
                         const Program* previous = nullptr, const TimingResult* previousResult = nullptr);
    // Instructions the last analyze() timed; the others' timings were the previous ones.
    int timedInstructions() const;

private:
    struct Cache;
    std::unique_ptr<Cache> cache_;
};

// C(I) for a mnemonic (LLVM canonical name) on a target: the GcnTimings.md row (T-table), else for
// the LLVM opcode (Instruction::opcode, 0 when unknown) the passes of a matrix instruction (T-mfma)
// or LLVM's scheduling model (T-llvm-sched). For the pass, tests and tooltips.
CycleCount lookupCycles(const std::string& mnemonic, Family family, const GpuTarget& gpu, bool glc = false, unsigned opcode = 0);

// One row of resources/timings.tsv as written (for the table test and tooltips).
struct TimingRow {
    std::string table;    // "VOP1", "DS", "SOP1", …
    std::string mnemonic; // source spelling ("V_CEIL_F64"), a class ("<VOP2>") or a pattern ("S_*_SAVEEXEC_B64")
    std::string cycles;   // as written: "4", "DPFACTOR*4", "16+GLC1", "16-24", "?", "18?", "-"
    std::string throughput;
    std::string note;
};
const std::vector<TimingRow>& timingTable();

// Evaluates a cycles cell for a device; false when the text is not one of the source's forms.
// "-" (not checked) evaluates to noData.
bool evaluateCycles(std::string_view text, int dpfactor, bool glc, CycleCount& out);

// The table-row name an LLVM mnemonic is matched with: upper case, _e32/_e64/_sdwa/_dpp stripped,
// GFX8 carry adds (v_add_u32) and GFX9 _co_ names mapped to the GFX6 names (V_ADD_I32, …).
std::string canonicalMnemonic(std::string_view mnemonic, Generation generation);

// Rule ids with their one-line meaning, source and class, for legends (section 8).
struct RuleInfo {
    std::string id;
    std::string meaning;
    std::string source;
    PenaltyClass penaltyClass = PenaltyClass::None; // None for the freeing rules (R-*)
};
const std::vector<RuleInfo>& ruleLegend();
// The class a rule id carries (its legend entry); None for an id that charges nothing.
PenaltyClass penaltyClassOf(std::string_view rule);

// The cycles column every presenter shows: "16", "16-24" (a range the table gives), "4?" (unknown
// or no timing data: counted as 4), "18~" (a value the source doubts); empty for data, padding and
// lines that did not assemble, which are not executed.
std::string cyclesText(const Instruction& instruction, const InstructionTiming& timing);

} // namespace gcnlens
