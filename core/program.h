// SPDX-License-Identifier: MIT
// The front-end's result: a kernel's instructions with exact sizes and offsets from LLVM's
// AMDGPU assembler, labels, branches, kernels, register use and diagnostics. Plain values only:
// nothing here depends on LLVM or Qt.
#pragma once

#include "core/compact.h"
#include "core/gpu.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gcnlens {

// Encoding family, as issue #2 lists them. Data marks raw words (.long) in the code.
enum class Family : std::uint8_t {
    SOP1,
    SOP2,
    SOPK,
    SOPC,
    SOPP,
    SMRD,
    SMEM,
    VOP1,
    VOP2,
    VOPC,
    VOP3,
    VOP3P,
    SDWA,
    DPP,
    VINTRP,
    DS,
    MUBUF,
    MTBUF,
    MIMG,
    EXP,
    FLAT,
    GLOBAL,
    SCRATCH,
    Data,
    Unknown
};
std::string_view familyName(Family family); // "SOP1", …, "FLAT", "GLOBAL", "SCRATCH", "data"

enum class RegKind : std::uint8_t { VGPR, SGPR, AGPR, TTMP, VCC, EXEC, M0, SCC, FlatScratch, XnackMask, Other };
std::string_view regKindName(RegKind kind);

// A register operand: a range for VGPR/SGPR/AGPR/TTMP (v[4:7] → first 4, count 4); for the
// specials first is 0 and count is 1 (M0, SCC) or 2 (VCC, EXEC pairs), or 1 for a 32-bit half.
// Four bytes, no padding (lists of them are interned by their bytes; issue #18 counts them):
// 4095 is above any register index and any run of registers (liveness merges a set's
// consecutive registers: v0…v255 all live are one range of 256). The bit-fields promote to int
// in arithmetic, as the ints they replace did.
struct RegRange {
    RegKind kind : 8 = RegKind::Other;
    std::uint32_t first : 12 = 0;
    std::uint32_t count : 12 = 1;
    bool operator==(const RegRange&) const = default;
};
static_assert(sizeof(RegRange) == 4);

// A register list, interned: instructions repeat the same few lists.
using RegList = InternedArray<RegRange>;

enum class BranchKind : std::uint8_t {
    None,
    Unconditional, // s_branch
    Conditional,   // s_cbranch_*
    Indirect,      // s_setpc_b64, s_swappc_b64, s_cbranch_g_fork, …: target not known statically
    Return,        // s_endpgm (ends the wave)
};

// Fields ordered by size so the struct has no padding (56 bytes; issue #18).
struct Instruction {
    int line = 0;        // 1-based line of the main file; for macro/rept/include output, the
                         // line that invoked it
    int columnBegin = 0; // 0-based span of the statement on that line
    int columnEnd = 0;
    int size = 0; // encoded bytes, from the assembler
    // Bytes from the start of its kernel (the kernel entry is 256-byte aligned). 32 bits (issue
    // #18): the assembler's byte limit stays below 4 GiB (AssembleLimits) and the listing reader
    // leaves out an instruction 4 GiB past its kernel's start. The offset in the code section is
    // Program::sectionOffset(): its kernel's start plus this (not kept either).
    std::uint32_t offset = 0;
    // The per-instruction texts and lists are interned (core/compact.h, issue #18): 4 bytes each,
    // stored once per distinct value; they read like the std::string / std::vector they were.
    InternedArray<std::uint8_t> encoding;
    InternedString mnemonic; // canonical, as LLVM prints it ("v_add_f32_e32", "s_load_dwordx2")
    InternedString operands; // operand text as LLVM prints it
    RegList defs;            // registers written (explicit and implicit, e.g. VCC, SCC)
    RegList uses;            // registers read (explicit and implicit)
    unsigned opcode = 0;     // LLVM's MC opcode (this LLVM build's numbering, 0 for data and
                             // placeholders): the timing model reads LLVM's scheduling class from it
    int kernel = -1;         // index into Program::kernels, -1 outside any kernel
    Family family = Family::Unknown;
    BranchKind branch = BranchKind::None;
    // One bit each (issue #18: six bools and their padding were 8 of the 120 bytes).
    bool hasLiteral : 1 = false;    // carries a 32-bit literal constant
    bool glc : 1 = false;           // the glc cache-policy bit is set (MUBUF +GLCn timing)
    bool isData : 1 = false;        // a raw data word (.long/.int/.byte) in the code section
    bool placeholder : 1 = false;   // the line did not assemble; laid out with an assumed size
    bool fromExpansion : 1 = false; // produced by a macro, .rept/.irp or an included file
    bool backward : 1 = false;      // target at or before this instruction

    // Where a branch goes. Kept in a block of its own, and only for the few instructions that
    // name a target (issue #18: the three fields were 12 of every instruction's 64 bytes).
    InternedString targetLabel() const { return target().label; } // branch target symbol, when any
    void setTargetLabel(InternedString label)
    {
        editTarget([&](BranchTarget& t) { t.label = label; });
    }
    int targetIndex() const { return target().index; } // index of the target instruction, -1 when unknown
    void setTargetIndex(int index)
    {
        editTarget([&](BranchTarget& t) { t.index = index; });
    }
    // The kernel-relative offset of the target, when known. Signed 32 bits: a raw branch offset
    // may reach before the kernel's start ("s_branch -3" first in it: -4, as it was when the
    // field took 64 bits); a target 2 GiB or more away from the kernel's start is unknown.
    std::optional<std::uint64_t> targetOffset() const
    {
        const BranchTarget& t = target();
        return t.hasOffset ? std::optional(std::uint64_t(std::int64_t(t.offset))) : std::nullopt;
    }
    void setTargetOffset(std::optional<std::uint64_t> offset)
    {
        const auto value = std::int64_t(offset.value_or(0)); // a target before the start wrapped: negative
        editTarget([&](BranchTarget& t) {
            t.hasOffset = offset && value >= INT32_MIN && value <= INT32_MAX;
            t.offset = t.hasOffset ? std::int32_t(value) : 0;
        });
    }
    static constexpr std::uint64_t kMaxOffset = std::numeric_limits<decltype(offset)>::max();
    bool operator==(const Instruction&) const = default;

private:
    struct BranchTarget {
        InternedString label;
        std::int32_t offset = 0; // valid when hasOffset
        int index = -1;
        bool hasOffset = false;
        bool operator==(const BranchTarget&) const = default;
    };
    const BranchTarget& target() const
    {
        static const BranchTarget none;
        return target_.empty() ? none : target_.front();
    }
    // Changes the target; one equal to none releases the block.
    template <typename Edit> void editTarget(Edit edit)
    {
        BranchTarget changed = target();
        edit(changed);
        if (changed == BranchTarget {})
            target_.clear();
        else if (target_.empty())
            target_.push_back(changed);
        else
            target_[0] = changed;
    }
    SparseList<BranchTarget> target_; // none or one
};
static_assert(sizeof(void*) != 8 || sizeof(Instruction) <= 56, "Instruction grew: issue #18 counts its bytes");

struct Label {
    std::string name;
    std::uint64_t offset = 0; // kernel-relative
    std::uint64_t sectionOffset = 0;
    int line = 0;
    int instruction = -1; // the first instruction at or after the label
    bool operator==(const Label&) const = default;
};

// A resource directive found in the source (.amdhsa_next_free_vgpr, .vgprsnum, …).
struct ResourceDirective {
    std::string name; // as written, e.g. ".amdhsa_next_free_vgpr", "workitem_vgpr_count", ".vgprsnum"
    std::int64_t value = 0;
    int line = 0;
    int kernel = -1;
};

struct Kernel {
    std::string name;
    int firstInstruction = 0; // [first, end) into Program::instructions
    int endInstruction = 0;
    std::uint64_t sectionOffset = 0;
    int line = 0; // line of the entry label
    bool operator==(const Kernel&) const = default;
};

struct RegisterUsage {
    int maxVgpr = -1; // highest index referenced (-1: none)
    int maxSgpr = -1; // highest user SGPR index (s0…s101/s103)
    int maxAgpr = -1;
    bool vcc = false, exec = false, m0 = false, scc = false, flatScratch = false, xnackMask = false;
};

enum class Severity { Error, Warning, Note };
std::string_view severityName(Severity severity);

struct Diagnostic {
    Severity severity = Severity::Error;
    int line = 0;   // 1-based line of the main file (the invoking line for expansions)
    int column = 0; // 0-based column on that line
    std::string message;
    std::string origin; // where it really arose when not the main file ("inc.s:12", "macro foo")
    bool operator==(const Diagnostic&) const = default;
};

// The instructions of one line, ascending: a run of LineIndex's index array, or, where the index
// is the identity (the k-th indexed instruction is instruction k, as in any program whose
// instructions follow the text), the run's positions themselves, with no array kept.
class IndexRun {
public:
    using const_iterator = IndexedIterator<IndexRun, int>;
    friend const_iterator;

    IndexRun() = default;
    IndexRun(const int* base, int begin, int end)
        : base_(base)
        , begin_(begin)
        , end_(end)
    {
    }
    const_iterator begin() const { return {this, std::size_t(begin_)}; }
    const_iterator end() const { return {this, std::size_t(end_)}; }
    std::size_t size() const { return std::size_t(end_ - begin_); }
    bool empty() const { return begin_ == end_; }
    int operator[](std::size_t i) const { return entry(std::size_t(begin_) + i); }
    int front() const { return (*this)[0]; }
    int back() const { return (*this)[size() - 1]; }

private:
    int entry(std::size_t at) const { return base_ ? base_[at] : int(at); }
    const int* base_ = nullptr; // null: the identity
    int begin_ = 0, end_ = 0;
};

// Line → the instructions on it (indices into Program::instructions, ascending), for lookups
// from the editor, the report and the CLI. Flat arrays rather than a tree of vectors: a
// million-instruction program costs a few bytes per instruction, and an edit that adds a line
// shifts plain integers instead of re-keying nodes. Reads like a std::map<int, indices>. When
// the indices are 0, 1, 2, … in line order (instructions follow the text: nearly always) they
// are not stored (issue #18: 4 bytes per instruction).
class LineIndex {
public:
    struct Entry {
        int first;       // the line
        IndexRun second; // its instructions
    };
    using const_iterator = IndexedIterator<LineIndex, Entry>;
    friend const_iterator;

    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, lines_.size()}; }
    const_iterator find(int line) const;
    const_iterator lowerBound(int line) const; // the first entry at or after the line
    std::size_t count(int line) const { return find(line) == end() ? 0 : 1; }
    std::size_t size() const { return lines_.size(); }
    bool empty() const { return lines_.empty(); }

    // For the front-end. (line, instruction) pairs in any order.
    void assign(std::vector<std::pair<int, int>> lineAndInstruction);
    // After an edit of lines [first, last]: those lines' entries go, later lines move by
    // lineDelta, instruction indices from firstMoved on move by indexDelta, and `added`
    // (line, instruction) pairs, all on lines of the edit, come in.
    void splice(int first, int last, int lineDelta, int firstMoved, int indexDelta,
                const std::vector<std::pair<int, int>>& added);

private:
    Entry entry(std::size_t at) const
    {
        return {lines_[at], IndexRun(identity_ ? nullptr : indices_.data(), starts_[at], starts_[at + 1])};
    }
    void dropIdentityIndices();   // when indices_ is 0, 1, 2, …
    std::vector<int> lines_;      // ascending
    std::vector<int> starts_ {0}; // entry i's indices are indices_[starts_[i], starts_[i + 1])
    std::vector<int> indices_;    // empty when identity_
    bool identity_ = true;
};

struct Program {
    GpuTarget gpu;
    std::vector<Instruction> instructions;
    std::vector<Label> labels;
    std::vector<Kernel> kernels;
    std::vector<ResourceDirective> directives;
    std::vector<Diagnostic> diagnostics;
    std::vector<RegisterUsage> kernelRegisters; // per kernel, same order as kernels
    RegisterUsage registers;                    // whole file
    LineIndex lineToInstructions;               // line → instruction indices
    int shapeReused = 0; // instructions encoded from their shape's assembler run (AssembleOptions::reuseShapes)
    // Statements after expansion that LLVM did not parse: replayed from an earlier one of the same
    // text (FastPaths::statementCache), or made from one that differs only in its registers
    // (FastPaths::statementShapes).
    int statementsReplayed = 0;
    int statementsFromShapes = 0;
    // Expansion buffers whose instantiations were read from the statements around them rather than
    // asked of LLVM (FastPaths::inferredExpansions).
    int expansionsInferred = 0;

    bool hasErrors() const;
    // Bytes from the start of the code section: the kernel's start plus the offset in it. Every
    // instruction belongs to a kernel (code before any entry label forms one); a hand-built
    // instruction outside any counts from the section's start.
    std::uint64_t sectionOffset(const Instruction& instruction) const
    {
        return instruction.kernel >= 0 ? kernels[std::size_t(instruction.kernel)].sectionOffset + instruction.offset
                                       : instruction.offset;
    }
};

} // namespace gcnlens
