// SPDX-License-Identifier: MIT
// The s_waitcnt model of hazards.md §3, after LLVM's SIInsertWaitcnts/WaitcntBrackets: per counter
// a queue of outstanding operations (lower and upper score), each register the score of its latest
// pending writer, the pending event kinds (which decide in-order or out-of-order returns). Forward
// dataflow over the CFG; joins align the queues at their newest end and keep the larger count
// (LLVM merge); the number outstanding is capped at the counter's maximum, so loops converge.
#include "core/model/classify.h"
#include "core/model/hazards.h"
#include "core/support/cancel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <format>
#include <memory>

namespace gcnlens::detail {

namespace {

enum Counter { Vm, Lgkm, Exp, Counters };
constexpr const char* kCounterName[Counters] = {"vmcnt", "lgkmcnt", "expcnt"};

// Event kinds per counter.
enum : std::uint8_t {
    VmemEvent = 1,
    FlatEvent = 2,
    LdsEvent = 4,
    GdsEvent = 8,
    SmemEvent = 16,
    MsgEvent = 32,
    ExpEvent = 64,
    StoreEvent = 128
};

int slotBase(RegKind kind)
{
    switch (kind) {
    case RegKind::VGPR:
        return 0;
    case RegKind::AGPR:
        return 256;
    case RegKind::SGPR:
        return 512;
    case RegKind::VCC:
        return 640;
    case RegKind::EXEC:
        return 642;
    case RegKind::M0:
        return 644;
    case RegKind::FlatScratch:
        return 646;
    case RegKind::XnackMask:
        return 648;
    case RegKind::TTMP:
        return 650;
    default:
        return -1; // SCC and others are never written by memory operations
    }
}

constexpr int kSlots = 672; // slotBase's kinds: TTMP's 16 from 650 are the last

template <typename F> void forSlots(const RegRange& r, F f)
{
    const int base = slotBase(r.kind);
    if (base < 0)
        return;
    for (int i = 0; i < r.count && base + r.first + i < kSlots; ++i) // (an out-of-range number: none)
        f(base + r.first + i);
}

struct Entry {
    int slot = 0;
    int score = 0;
    int producer = -1;
    std::uint8_t vmemType = 0; // 1 plain VMEM, 2 sampler (LLVM VmemType), 3 FLAT (counted by both vm and lgkm)
    bool operator==(const Entry&) const = default;
};

struct Queue {
    int lb = 0, ub = 0;
    std::uint8_t events = 0;
    std::vector<Entry> regs; // sorted by slot; only score > lb are meaningful
    bool operator==(const Queue&) const = default;

    int pending() const { return ub - lb; }
    const Entry* find(int slot) const
    {
        auto it = std::lower_bound(regs.begin(), regs.end(), slot, [](const Entry& e, int s) { return e.slot < s; });
        return it != regs.end() && it->slot == slot && it->score > lb ? &*it : nullptr;
    }
    void set(int slot, int score, int producer, std::uint8_t type)
    {
        auto it = std::lower_bound(regs.begin(), regs.end(), slot, [](const Entry& e, int s) { return e.slot < s; });
        if (it != regs.end() && it->slot == slot)
            *it = {slot, score, producer, type};
        else
            regs.insert(it, {slot, score, producer, type});
    }
    void prune()
    {
        std::erase_if(regs, [&](const Entry& e) { return e.score <= lb; });
    }
    // Scores relative to lb = 0, entries pruned: equal states compare equal.
    void normalise()
    {
        prune();
        for (Entry& e : regs)
            e.score -= lb;
        ub -= lb;
        lb = 0;
        if (ub == 0)
            events = 0;
    }
};

struct State {
    Queue q[Counters];
    bool operator==(const State&) const = default;
};

// The state while one block is walked: per counter a score per register slot, so that every
// register an instruction reads or writes is one lookup (a sorted Queue took a binary search
// each, most of the model's time). The dataflow keeps and joins the compact State; load() and
// store() convert at the block's ends, in the work the block touched.
struct Working {
    static constexpr int kAbsent = INT_MIN;
    struct Slot {
        int score = kAbsent;
        int producer = -1;
        std::uint8_t vmemType = 0;
    };
    struct Counter {
        int lb = 0, ub = 0;
        std::uint8_t events = 0;
        std::array<Slot, kSlots> slots {};
        std::vector<int> touched; // slots set since load(), in any order, maybe twice

        int pending() const { return ub - lb; }
        const Slot* find(int slot) const
        {
            const Slot& s = slots[std::size_t(slot)];
            return s.score > lb ? &s : nullptr; // (kAbsent is below any lb)
        }
        void set(int slot, int score, int producer, std::uint8_t type)
        {
            Slot& s = slots[std::size_t(slot)];
            if (s.score == kAbsent)
                touched.push_back(slot);
            s = {score, producer, type};
        }
        void erase(int slot) { slots[std::size_t(slot)].score = kAbsent; }
        void reset()
        {
            for (const int slot : touched)
                slots[std::size_t(slot)] = Slot {};
            touched.clear();
            lb = ub = 0;
            events = 0;
        }
    };
    Counter q[Counters];

    void load(const State& state)
    {
        for (int c = 0; c < Counters; ++c) {
            Counter& w = q[c];
            const Queue& from = state.q[c];
            w.reset();
            w.lb = from.lb;
            w.ub = from.ub;
            w.events = from.events;
            for (const Entry& e : from.regs)
                w.set(e.slot, e.score, e.producer, e.vmemType);
        }
    }
    // The pending entries as a State (what is no longer pending left out, as prune() would).
    void store(State& state)
    {
        for (int c = 0; c < Counters; ++c) {
            Counter& w = q[c];
            Queue& to = state.q[c];
            to.lb = w.lb;
            to.ub = w.ub;
            to.events = w.events;
            to.regs.clear();
            std::sort(w.touched.begin(), w.touched.end());
            w.touched.erase(std::unique(w.touched.begin(), w.touched.end()), w.touched.end());
            for (const int slot : w.touched)
                if (const Slot* e = w.find(slot))
                    to.regs.push_back({slot, e->score, e->producer, e->vmemType});
        }
    }
};

// What transfer() does with an instruction besides its checks, decided once per instruction (the
// dataflow walks a block once per round, many rounds in loops).
struct Action {
    enum Kind : std::uint8_t { Skip, Wait, Call, Message, Other } kind = Other;
    std::int8_t counts[Counters] = {-1, -1, -1}; // Wait: the count per counter, -1 where it does not wait
};

// An instruction's register slots as check() and transfer() visit them, flattened once (the
// dataflow visits a block once per round): the slots each use reads, then each def's when the
// instruction reads its own destination, then each def's as written, with a marker after an EXEC
// def (its export check). `range` indexes the uses or defs, so a finding names the register as
// the instruction does.
struct SlotStep {
    enum Kind : std::uint8_t { ReadUse, ReadVectorUse, ReadDef, WriteDef, ExecWritten } kind;
    std::uint16_t slot;
    std::uint16_t range;
};

class Model {
public:
    Model(const Program& p, const Cfg& cfg, const TimingOptions& options, const std::vector<InstClass>& classes)
        : p_(p)
        , cfg_(cfg)
        , o_(options.checks)
        , gen_(p.gpu.generation)
        , cls_(classes)
    {
        max_[Vm] = gen_ >= Generation::GFX9 ? 63 : 15;
        max_[Lgkm] = 15;
        max_[Exp] = 7;
        actions_.reserve(p.instructions.size());
        stepsBegin_.reserve(p.instructions.size() + 1);
        for (std::size_t i = 0; i < p.instructions.size(); ++i) {
            const Instruction& in = p.instructions[i];
            actions_.push_back(actionOf(in));
            stepsBegin_.push_back(std::uint32_t(steps_.size()));
            if (actions_.back().kind != Action::Skip)
                addSteps(in, cls_[i]);
        }
        stepsBegin_.push_back(std::uint32_t(steps_.size()));
    }

    void run(CheckResult& result)
    {
        const int nb = int(cfg_.blocks.size());
        std::vector<State> in(nb);
        std::vector<char> reached(nb, 0);
        for (int r = 0; r < int(cfg_.regions.size()); ++r) {
            const std::vector<int> order = reversePostOrder(cfg_, r);
            if (order.empty())
                continue;
            reached[order.front()] = 1;
            std::vector<int> position(nb, -1);
            for (int i = 0; i < int(order.size()); ++i)
                position[order[i]] = i;
            // Worklist in RPO until no in-state changes.
            std::vector<char> dirty(nb, 0);
            dirty[order.front()] = 1;
            bool any = true;
            int rounds = 0;
            while (any && rounds++ < 1000) {
                any = false;
                for (int b : order) {
                    if (!dirty[b])
                        continue;
                    dirty[b] = 0;
                    State s = in[b];
                    transferBlock(b, s, nullptr);
                    for (int succ : cfg_.blocks[b].successors) {
                        State merged = reached[succ] ? merge(in[succ], s) : s;
                        merged.q[Vm].normalise();
                        merged.q[Lgkm].normalise();
                        merged.q[Exp].normalise();
                        if (!reached[succ] || !(merged == in[succ])) {
                            in[succ] = std::move(merged);
                            reached[succ] = 1;
                            dirty[succ] = 1;
                            any = true;
                        }
                    }
                }
            }
        }
        for (int b = 0; b < nb; ++b) {
            State s = reached[b] ? in[b] : State {};
            transferBlock(b, s, &result);
        }
    }

private:
    bool outOfOrder(const Working& s, int c) const
    {
        const std::uint8_t e = s.q[c].events;
        if (c == Vm)
            return e & FlatEvent;
        if (c == Lgkm)
            return (e & (SmemEvent | FlatEvent)) || std::popcount(unsigned(e & (LdsEvent | GdsEvent | MsgEvent))) > 1;
        return std::popcount(unsigned(e & (ExpEvent | GdsEvent | StoreEvent))) > 1;
    }

    // (Raising lb is all a wait does: an entry at or below it is no longer found.)
    void applyWait(Working& s, int c, int count) const
    {
        Working::Counter& q = s.q[c];
        if (count >= q.pending())
            return;
        if (count == 0) {
            q.lb = q.ub;
            q.events = 0;
            return;
        }
        if (outOfOrder(s, c))
            return;
        q.lb = q.ub - count;
    }

    void event(Working& s, int c, std::uint8_t kind) const
    {
        Working::Counter& q = s.q[c];
        ++q.ub;
        q.events |= kind;
        if (q.pending() > max_[c]) // the hardware counter saturates: older ops are done
            q.lb = q.ub - max_[c];
    }

    static State merge(const State& a, const State& b)
    {
        State m;
        for (int c = 0; c < Counters; ++c) {
            const Queue& qa = a.q[c];
            const Queue& qb = b.q[c];
            Queue& q = m.q[c];
            q.lb = 0;
            q.ub = std::max(qa.pending(), qb.pending());
            q.events = qa.events | qb.events;
            for (const Queue* src : {&qa, &qb})
                for (const Entry& e : src->regs) {
                    if (e.score <= src->lb)
                        continue;
                    const int score = e.score - src->ub + q.ub;
                    const Entry* old = q.find(e.slot);
                    if (!old || old->score < score)
                        q.set(e.slot, score, e.producer, e.vmemType);
                }
        }
        return m;
    }

    void addSteps(const Instruction& in, const InstClass& ic)
    {
        auto add = [&](std::span<const RegRange> ranges, auto kindOf) {
            for (std::size_t k = 0; k < ranges.size(); ++k) {
                forSlots(ranges[k],
                         [&](int slot) { steps_.push_back({kindOf(ranges[k]), std::uint16_t(slot), std::uint16_t(k)}); });
                if (kindOf(ranges[k]) == SlotStep::WriteDef && ranges[k].kind == RegKind::EXEC)
                    steps_.push_back({SlotStep::ExecWritten, 0, std::uint16_t(k)});
            }
        };
        add(in.uses, [](const RegRange& r) { return isVector(r.kind) ? SlotStep::ReadVectorUse : SlotStep::ReadUse; });
        if (ic.readsOwn)
            add(in.defs, [](const RegRange&) { return SlotStep::ReadDef; });
        add(in.defs, [](const RegRange&) { return SlotStep::WriteDef; });
    }
    std::span<const SlotStep> stepsOf(int i) const
    {
        return {steps_.data() + stepsBegin_[std::size_t(i)], steps_.data() + stepsBegin_[std::size_t(i) + 1]};
    }

    Action actionOf(const Instruction& in) const
    {
        Action a;
        if (in.isData)
            a.kind = Action::Skip;
        else if (in.mnemonic == "s_waitcnt")
            a.kind = Action::Wait;
        else if (in.branch == BranchKind::Indirect && (in.mnemonic.starts_with("s_swappc") || in.mnemonic.starts_with("s_call")))
            a.kind = Action::Call;
        else if (in.mnemonic.starts_with("s_sendmsg"))
            a.kind = Action::Message;
        if (a.kind == Action::Wait)
            parseWaitcnt(in, a.counts);
        return a;
    }

    // Parses s_waitcnt's operand into counts; -1 where the field does not wait.
    void parseWaitcnt(const Instruction& in, std::int8_t counts[Counters]) const
    {
        const std::string& t = in.operands;
        bool named = false;
        for (int c = 0; c < Counters; ++c) {
            const auto at = t.find(std::string(kCounterName[c]) + "(");
            if (at == std::string::npos)
                continue;
            named = true;
            // (a count beyond every counter's maximum waits for nothing, as 127 does; a negative
            // one is no wait)
            const int count = std::atoi(t.c_str() + at + std::string_view(kCounterName[c]).size() + 1);
            counts[c] = std::int8_t(count < 0 ? -1 : std::min(count, 127));
        }
        if (named || t.empty())
            return;
        const unsigned v = unsigned(std::strtoul(t.c_str(), nullptr, 0));
        const int vm = int(v & 0xf) | (gen_ >= Generation::GFX9 ? int((v >> 14) & 3) << 4 : 0);
        const int exp = int((v >> 4) & 7);
        const int lgkm = int((v >> 8) & 0xf);
        counts[Vm] = std::int8_t(vm == max_[Vm] ? -1 : vm);
        counts[Exp] = std::int8_t(exp == 7 ? -1 : exp);
        counts[Lgkm] = std::int8_t(lgkm == 15 ? -1 : lgkm);
    }

    std::uint8_t vmemType(int i) const { return cls_[i].flat ? 3 : cls_[i].sampler ? 2 : 1; }

    // A FLAT op counts on both counters. vmcnt proves it complete (LLVM's output for a FLAT access
    // to global memory counts only vmcnt), so its lgkmcnt entry is pending only while the vmcnt one
    // is. The converse does not hold: lgkmcnt(0) alone leaves the vmcnt part outstanding under
    // either reading (global: only vmcnt counts; maybe LDS: LLVM's setPendingFlat flushes both).
    bool stillPending(const Working& s, int c, int slot, const Working::Slot& e) const
    {
        if (e.vmemType != 3 || c != Lgkm)
            return true;
        const Working::Slot* other = s.q[Vm].find(slot);
        return other && other->producer == e.producer;
    }

    struct Pending {
        int counter;
        int count;
        bool notGuaranteed;
        int producer;
        RegRange reg; // the register as the consumer names it (EXEC for a write while an export is pending)
        const char* access;
    };

    // A consumer's registers still pending: the wait each counter needs (smallest count wins).
    void check(int i, Working& s, CheckResult* result)
    {
        const Instruction& in = p_.instructions[i];
        const InstClass& ic = cls_[i];
        Pending need[Counters];
        bool has[Counters] = {false, false, false};
        auto consider = [&](int c, const Working::Slot& e, const SlotStep& step, const char* access) {
            const Working::Counter& q = s.q[c];
            const bool ooo = outOfOrder(s, c);
            const int count = ooo ? 0 : std::min(q.ub - e.score, max_[c] - 1);
            if (!has[c] || count < need[c].count) {
                const bool use = step.kind == SlotStep::ReadUse || step.kind == SlotStep::ReadVectorUse;
                need[c] = {c, count, ooo, e.producer, use ? in.uses[step.range] : in.defs[step.range], access};
                has[c] = true;
            }
        };
        for (const SlotStep& step : stepsOf(i)) {
            const int slot = step.slot;
            switch (step.kind) {
            case SlotStep::ReadUse:
            case SlotStep::ReadVectorUse:
            case SlotStep::ReadDef:
                for (int c : {Vm, Lgkm})
                    if (const Working::Slot* e = s.q[c].find(slot); e && stillPending(s, c, slot, *e))
                        consider(c, *e, step, "RAW");
                break;
            case SlotStep::WriteDef:
                for (int c : {Vm, Lgkm})
                    if (const Working::Slot* e = s.q[c].find(slot); e && stillPending(s, c, slot, *e)) {
                        // WAW between VMEM loads of one type: returns are in order (LLVM VmemType).
                        if (c == Vm && ic.vmem && ic.load && !ic.flat && e->vmemType == vmemType(i))
                            continue;
                        consider(c, *e, step, "WAW");
                    }
                if (const Working::Slot* e = s.q[Exp].find(slot))
                    consider(Exp, *e, step, "WAR");
                break;
            case SlotStep::ExecWritten:
                if (s.q[Exp].pending() > 0 && !has[Exp]) {
                    need[Exp] = {Exp, 0, false, -1, RegRange {RegKind::EXEC, 0, 1}, "WAR"};
                    has[Exp] = true;
                }
                break;
            }
        }
        // A FLAT op pending on both counters: vmcnt(0) alone proves it (see stillPending).
        if (has[Vm] && has[Lgkm] && need[Lgkm].producer == need[Vm].producer && need[Vm].producer >= 0
            && cls_[need[Vm].producer].flat)
            has[Lgkm] = false;
        for (int c = 0; c < Counters; ++c) {
            if (!has[c])
                continue;
            if (result)
                report(i, need[c], *result);
            applyWait(s, c, need[c].count);
        }
    }

    static std::string regText(const RegRange& r)
    {
        const char* prefix = r.kind == RegKind::VGPR ? "v"
            : r.kind == RegKind::SGPR                ? "s"
            : r.kind == RegKind::AGPR                ? "a"
                                                     : nullptr;
        if (!prefix)
            return std::string(regKindName(r.kind));
        return r.count == 1 ? std::format("{}{}", prefix, r.first)
                            : std::format("{}[{}:{}]", prefix, r.first, r.first + r.count - 1);
    }

    void report(int i, const Pending& n, CheckResult& result) const
    {
        const Instruction& in = p_.instructions[i];
        WaitcntFinding f;
        f.counter = kCounterName[n.counter];
        f.rule = "W-waitcnt-" + f.counter;
        f.instruction = i;
        f.line = in.line;
        f.producer = n.producer;
        f.producerLine = n.producer >= 0 ? p_.instructions[n.producer].line : 0;
        f.access = n.access;
        f.reg = n.reg.kind == RegKind::EXEC ? "exec" : regText(n.reg);
        f.notGuaranteed = n.notGuaranteed;
        f.count = n.count;
        f.fix = std::format("s_waitcnt {}({})", f.counter, n.count);
        const char* verb = f.access == "RAW" ? "reads" : "overwrites";
        PatternText::Builder detail;
        detail << in.mnemonic << " " << verb << " " << f.reg << " before a wait proves ";
        if (n.producer >= 0)
            detail << p_.instructions[n.producer].mnemonic << " at line " << PatternText::Builder::Hole {f.producerLine};
        else
            detail << "a pending export/GDS op";
        if (n.notGuaranteed)
            detail << " complete: not guaranteed, returns are out of order, only " << f.counter << "(0) proves it";
        else
            detail << " complete; " << f.fix << " would";
        f.detail = detail.take();
        result.waits.push_back(std::move(f));
    }

    void transfer(int i, Working& s, CheckResult* result)
    {
        const Instruction& in = p_.instructions[i];
        const InstClass& ic = cls_[i];
        const Action& action = actions_[std::size_t(i)];
        if (action.kind == Action::Skip)
            return;
        check(i, s, result);
        if (action.kind == Action::Wait) {
            for (int c = 0; c < Counters; ++c)
                if (action.counts[c] >= 0)
                    applyWait(s, c, action.counts[c]);
            return;
        }
        if (action.kind == Action::Call) {
            for (Working::Counter& q : s.q) // LLVM's convention: the callee waits at entry and before it returns
                q.reset();
            return;
        }
        // An event on counter c, its registers pending from now: the defs' slots, or the vector
        // uses' (the data an export or store reads), or none.
        enum Registers { Defs, VectorUses, NoRegisters };
        auto record = [&](int c, std::uint8_t kind, Registers registers) {
            event(s, c, kind);
            const SlotStep::Kind wanted = registers == Defs ? SlotStep::WriteDef : SlotStep::ReadVectorUse;
            if (registers != NoRegisters)
                for (const SlotStep& step : stepsOf(i))
                    if (step.kind == wanted)
                        s.q[c].set(step.slot, s.q[c].ub, i, vmemType(i));
        };
        if (ic.vmem) {
            const bool bothCounters = ic.flat || (o_.flatLgkm && (in.family == Family::GLOBAL || in.family == Family::SCRATCH));
            record(Vm, bothCounters ? FlatEvent : VmemEvent, Defs);
            if (bothCounters)
                record(Lgkm, FlatEvent, Defs);
            if (ic.store && (gen_ == Generation::GFX6 || o_.expcntStore))
                record(Exp, StoreEvent, VectorUses);
        } else if (ic.ds) {
            record(Lgkm, ic.gds ? GdsEvent : LdsEvent, Defs);
            if (ic.gds)
                record(Exp, GdsEvent, VectorUses);
        } else if (ic.smem) {
            record(Lgkm, SmemEvent, Defs);
        } else if (action.kind == Action::Message) {
            record(Lgkm, MsgEvent, NoRegisters);
        } else if (ic.exp) {
            record(Exp, ExpEvent, VectorUses);
        } else {
            for (const SlotStep& step : stepsOf(i)) // a plain write ends what was pending on the register
                if (step.kind == SlotStep::WriteDef)
                    for (int c = 0; c < Counters; ++c)
                        s.q[c].erase(step.slot);
        }
    }

    void transferBlock(int b, State& s, CheckResult* result)
    {
        checkCancelled(); // a superseded analysis stops here, between blocks (core/support/cancel.h)
        working_.load(s);
        for (int i = cfg_.blocks[b].first; i < cfg_.blocks[b].end; ++i)
            transfer(i, working_, result);
        working_.store(s);
    }

    const Program& p_;
    const Cfg& cfg_;
    const CheckOptions& o_;
    Generation gen_;
    const std::vector<InstClass>& cls_;
    int max_[Counters] = {15, 15, 7};
    std::vector<Action> actions_;           // parallel to cls_
    std::vector<SlotStep> steps_;           // every instruction's, in order
    std::vector<std::uint32_t> stepsBegin_; // instruction i's are [stepsBegin_[i], stepsBegin_[i + 1])
    std::unique_ptr<Working> workingStorage_ = std::make_unique<Working>(); // 24 KiB: not on the stack
    Working& working_ = *workingStorage_;
};

} // namespace

void analyzeWaitcnts(const Program& program, const Cfg& cfg, const TimingOptions& options, const std::vector<InstClass>& classes,
                     CheckResult& result)
{
    Model(program, cfg, options, classes).run(result);
    result.notes.push_back("s_waitcnt: real latencies, infeasible paths, callees (assumed to wait at entry and "
                           "before return), other waves and memory aliasing are beyond a static check; a use "
                           "whose producer returns out of order is \"not guaranteed\", not wrong");
}

} // namespace gcnlens::detail
