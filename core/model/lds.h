// SPDX-License-Identifier: MIT
// LDS bank conflicts (timing-model.md section 7): per-lane addresses from a typed pattern or derived
// from the kernel's VALU code, the bank/row of each lane, group conflict degrees and cycles.
#pragma once

#include "core/program.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gcnlens {

// One lane's access: 16 bytes, because a result holds 64 (128 for read2/write2) and a kernel's
// DS instructions with distinct offsets each hold their own (issue #18). The bank and row are
// the address's (timing-model.md §7: 32 banks of 4 bytes, 128-byte rows), derived rather than stored.
struct LaneAccess {
    std::int64_t address = 0; // bytes (the first dword of the lane's access)
    std::uint8_t lane = 0;
    bool known = false;
    std::uint8_t dwords = 1; // dwords this lane touches (b64: 2, b128: 4)
    int bank() const { return known ? int((address >> 2) & 31) : 0; }
    std::int64_t row() const { return known ? address >> 7 : 0; }
    bool operator==(const LaneAccess&) const = default;
};
static_assert(sizeof(LaneAccess) == 16);

// The lanes of one access, in lane order; reads like the std::vector<LaneAccess> it replaces
// (entries are made on the fly). 64 lanes of 16 bytes made a DS result about 1 KB (2 for
// read2/write2), and in real kernels most DS instructions have offsets of their own, so their
// results are not shared (issue #18: LDS results were 31 of 177 bytes per instruction over a
// corpus of real kernels). Kept as the first known lane's address and each lane's distance from
// it, interned: the spacing of the lanes repeats from one DS instruction to the next where the
// offset does not. Lists that do not fit that form (a distance beyond 32 bits, lanes out of
// order, mixed widths) keep their lanes as they are.
class LaneList {
public:
    using value_type = LaneAccess;
    using const_iterator = IndexedIterator<LaneList, LaneAccess>;
    friend const_iterator;

    LaneList() = default;
    LaneList(const std::vector<LaneAccess>& lanes);

    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    LaneAccess operator[](std::size_t i) const { return entry(i); }
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, count_}; }
    bool operator==(const LaneList& other) const;

private:
    LaneAccess entry(std::size_t at) const;
    std::int64_t base_ = 0;                               // the first known lane's address
    std::uint64_t known_ = 0;                             // bit i: lane i's address is known
    InternedArray<std::int32_t> distances_;               // per lane: address - base_ (0: unknown)
    std::shared_ptr<const std::vector<LaneAccess>> asIs_; // the lanes, when they do not fit the form
    std::uint32_t count_ = 0;
    std::uint8_t dwords_ = 1;
};

struct LaneGroup {
    int firstLane = 0;
    int lanes = 0;
    int degree = 1; // largest count of distinct rows one bank serves
    // The lanes served together; firstLane … firstLane+lanes-1 unless the phase table interleaves
    // them (CDNA ds_read_b128). Interned (core/compact.h): every result repeats the same few lists.
    InternedArray<int> members;
    bool operator==(const LaneGroup&) const = default;
};

// docs/model.md L-phases: which lanes the LDS serves together, per generation. Gcn: consecutive
// lanes, lds-group dwords per group (32 lanes for 1 dword, 16 for 2, 8 for 3-4). Cdna: the same,
// except ds_read_b128, whose eight 8-lane groups interleave quads (0-3+20-23, 4-7+16-19,
// 8-11+28-31, 12-15+24-27, and the same +32) as AMD's Composable Kernel LDS notes give for
// MI-series (CDNA) GPUs; ds_write_b128 keeps consecutive 8-lane groups there too.
enum class LdsPhases { Gcn, Cdna };
// A group's lanes as ranges: "0-7", "0-3, 20-23".
std::string laneGroupText(const LaneGroup& group);
// The option lds-phases (auto | gcn | cdna) for a generation: auto is Cdna on CDNA, else Gcn.
LdsPhases ldsPhasesFor(Generation generation, const std::string& option = "auto");
std::string_view ldsPhasesName(LdsPhases phases); // "gcn", "cdna"

struct LdsAccessResult {
    std::string error; // non-empty: no numbers (bad pattern, unknown op)
    InternedString op; // ds_read_b64, or "b32" for a width (interned, as note: a kernel's DS results
                       // repeat a few of each; issue #18)
    int widthBytes = 4;
    LaneList lanes; // 64 lanes (for read2/write2: the first access)
    // The groups, and per group: 32 banks → distinct rows hit; and the dword requests per bank over
    // the wave (32). Interned, because results differ mostly in their addresses while these repeat
    // (a DS instruction with an offset of its own still loads the banks alike; issue #18: as
    // vectors, the groups and the rows' list were two allocations in every result).
    InternedArray<LaneGroup> groups;
    InternedArray<InternedArray<int>> bankRows;
    InternedArray<int> bankLoad;
    int degree = 1; // the worst group's
    int cycles = 0; // sum of group degrees (×2 for two-access read2/write2 forms)
    int conflictFreeCycles = 0;
    bool allKnown = true;
    InternedString note;      // e.g. "s4 treated as a uniform offset"
    int errorColumn = -1;     // pattern errors: 0-based column of the bad character
    bool twoAccesses = false; // read2/write2 forms
    LaneList secondLanes;     // read2/write2: the access at offset1
    int groupsPerAccess = 0;  // groups of `lanes` come first, then those of `secondLanes`
    bool operator==(const LdsAccessResult&) const = default;
};

// The DS results of a program by instruction index; reads like std::map<int, LdsAccessResult>.
// A kernel's DS instructions repeat a few access shapes, and one result holds 64 lanes and its
// groups (about 4 KB): equal results are stored once and shared (issue #18). Filled in ascending
// index order by the LDS pass.
class LdsResults {
public:
    struct Entry {
        int first;
        const LdsAccessResult& second;
    };
    using const_iterator = IndexedIterator<LdsResults, Entry>;
    friend const_iterator;

    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, indices_.size()}; }
    const_iterator find(int index) const;
    const_iterator lower_bound(int index) const;
    std::size_t size() const { return indices_.size(); }
    bool empty() const { return indices_.empty(); }
    std::size_t count(int index) const { return find(index) == end() ? 0 : 1; }
    const LdsAccessResult& at(int index) const;
    // The stored result at an iterator, to share it in another LdsResults.
    const std::shared_ptr<const LdsAccessResult>& shared(const_iterator it) const { return results_[it.position()]; }
    // Distinct results held (for the benchmarks).
    std::size_t distinct() const;

    // For the LDS pass: `index` above every index added so far.
    void add(int index, LdsAccessResult result);
    void add(int index, std::shared_ptr<const LdsAccessResult> result);
    // Ends filling: drops the lookup of equal results.
    void seal() { lookup_.clear(); }

    bool operator==(const LdsResults& other) const;

private:
    Entry entry(std::size_t at) const { return {indices_[at], *results_[at]}; }
    std::vector<int> indices_;
    std::vector<std::shared_ptr<const LdsAccessResult>> results_;
    std::unordered_multimap<std::size_t, std::size_t> lookup_; // hash → a position holding it
};

struct PatternError {
    std::string message;
    int column = 0;
}; // column: 0-based into the pattern

// A DS access shape: from an op name ("ds_read2st64_b64", optionally followed by "offset:N" or
// "offset0:N offset1:N" as LLVM prints them), a width ("b64") or a byte count ("8").
struct LdsOp {
    std::string error;
    std::string name;                      // the op name or "b32"
    int widthBytes = 4;                    // bytes per element (read2/write2: per each of the two)
    int dwords = 1;                        // dwords one lane touches per access (sub-dword: 1)
    bool twoAccesses = false;              // read2/write2/wrxchg2
    bool st64 = false;                     // offsets scaled ×64 elements
    std::int64_t offset = 0;               // single forms: byte offset
    std::int64_t offset0 = 0, offset1 = 0; // read2/write2: in elements
    bool addressFirst = false;             // the address is the first operand (writes, atomics without return)
};
LdsOp parseLdsOp(const std::string& opOrWidth);

// The lane groups of an access (each ascending), in the order they are served.
std::vector<std::vector<int>> ldsLaneGroups(const LdsOp& op, int groupDwords = 32, LdsPhases phases = LdsPhases::Gcn);

// Lanes served together per LDS cycle (section 7, option lds-group): groupDwords / dwords, with 3-
// and 4-dword accesses both counted as 4.
int ldsLanesPerGroup(int dwords, int groupDwords = 32);

// Evaluates a pattern for lanes 0…63. On error returns it and leaves `values` unspecified.
std::optional<PatternError> evaluateLdsPattern(const std::string& pattern, const std::map<std::string, std::int64_t>& parameters,
                                               std::vector<std::int64_t>& values);

// The bank/row/degree computation for given base addresses (nullopt: unknown lane), 64 entries.
LdsAccessResult analyzeLdsAddresses(const LdsOp& op, const std::vector<std::optional<std::int64_t>>& base, int groupDwords = 32,
                                    LdsPhases phases = LdsPhases::Gcn);

// pattern over `lane` and named parameters; width in bytes (1,2,4,8,12,16) or an op name.
LdsAccessResult analyzeLdsPattern(const std::string& pattern, const std::string& opOrWidth,
                                  const std::map<std::string, std::int64_t>& parameters, int groupDwords = 32,
                                  LdsPhases phases = LdsPhases::Gcn);

// Per DS instruction of the program: addresses derived from the kernel's VALU code.
struct LdsKernelOptions {
    int workgroupX = 64, workgroupY = 1, workgroupZ = 1;
    int groupDwords = 32;
    std::string phases = "auto"; // lds-phases, resolved with the program's generation (ldsPhasesFor)
};
LdsResults analyzeLdsInProgram(const Program& program, const LdsKernelOptions& options = {});

// analyzeLdsInProgram over a sequence of edited programs (the editor's path): the evaluator's
// registers are kept at checkpoints of the last program; the next program is evaluated from the
// last checkpoint before its first changed instruction until the registers match the last run's
// again at the same instruction after the change, and the rest is the last result. The result
// equals analyzeLdsInProgram(program, options).
class LdsProgramAnalyzer {
public:
    LdsProgramAnalyzer();
    ~LdsProgramAnalyzer();
    LdsProgramAnalyzer(const LdsProgramAnalyzer&) = delete;
    LdsProgramAnalyzer& operator=(const LdsProgramAnalyzer&) = delete;

    // `previous` and `previousResult` must be the program and the result of this object's last
    // call (or nullptr: a full run, as after any change of options or GPU).
    LdsResults analyze(const Program& program, const LdsKernelOptions& options, const Program* previous = nullptr,
                       const LdsResults* previousResult = nullptr);
    // Instructions the last analyze() evaluated; the others' results were the previous ones.
    int evaluatedInstructions() const;

private:
    struct Cache;
    std::unique_ptr<Cache> cache_;
};

} // namespace gcnlens
