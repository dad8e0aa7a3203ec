// SPDX-License-Identifier: MIT
// Wait-state hazards (hazards.md §1, §2, §2b). Each consumer walks its predecessors backwards over
// the CFG (every path, loop back edges included) until no rule could still need a wait state,
// as LLVM's getWaitStatesSince does; each producer met is tested against the rules. The s_waitcnt
// model (§3) is in waitcnt.cpp.
#include "core/model/hazards.h"

#include "core/model/classify.h"
#include "core/support/cancel.h"

#include <algorithm>
#include <cassert>
#include <format>

namespace gcnlens {

std::string nopFix(int states, int limit)
{
    std::string out;
    while (states > 0) {
        const int n = std::min(states, limit);
        if (!out.empty())
            out += '\n';
        out += "s_nop " + std::to_string(n - 1);
        states -= n;
    }
    return out;
}

namespace detail {
void analyzeWaitcnts(const Program& program, const Cfg& cfg, const TimingOptions& options, const std::vector<InstClass>& classes,
                     CheckResult& result);
}

namespace {

constexpr int kMaxWait = 20; // beyond every rule (MFMA rows need up to 19)
constexpr int kMaxWalk = 96; // instructions walked back per path (A-valu-only may skip many)

struct Need {
    const char* rule;
    int states;
    bool mfmaRow;     // counted VALU-only on gfx942 under A-valu-only
    const char* what; // the relation, for the detail
};

// What the rules read of an instruction: its text and family, and its registers as spans (the
// interned lists read once per producer-consumer pair, not at every loop over them; a consumer's
// with MFMA-rewritten registers hidden are spans into the walk's own buffers).
struct View {
    const InternedString& mnemonic;
    const InternedString& operands;
    Family family;
    bool isData;
    std::span<const RegRange> defs, uses;
};

View viewOf(const Instruction& in)
{
    return {in.mnemonic, in.operands, in.family, in.isData, in.defs.span(), in.uses.span()};
}

// The hwreg name of s_setreg/s_getreg ("HW_REG_MODE"), and the bit range set.
struct HwReg {
    std::string name;
    int offset = 0, size = 32;
};
HwReg hwregOf(const View& in)
{
    HwReg h;
    const auto at = in.operands.find("hwreg(");
    if (at == std::string::npos)
        return h;
    const auto start = at + 6;
    const auto stop = in.operands.find_first_of(",)", start);
    h.name = in.operands.substr(start, stop - start);
    if (stop != std::string::npos && in.operands[stop] == ',') {
        int offset = 0, size = 0;
        if (std::sscanf(in.operands.c_str() + stop + 1, "%d , %d", &offset, &size) == 2) {
            h.offset = offset;
            h.size = size;
        }
    }
    return h;
}

// What rules() asks of an instruction's text on every producer-consumer pair it walks, read once
// per instruction instead (each was a string comparison per pair).
struct Names {
    bool setreg = false, setvskip = false, getreg = false; // s_setreg*, s_setvskip, s_getreg*
    bool divFmas = false, readlane = false;                // v_div_fmas*, v_readlane*
    bool vccz = false, execz = false;                      // an operand reads VCCZ / EXECZ
};

Names namesOf(const Instruction& in)
{
    const std::string_view m = in.mnemonic.view(), operands = in.operands.view();
    Names n;
    n.setreg = m.starts_with("s_setreg");
    n.setvskip = m == "s_setvskip";
    n.getreg = m.starts_with("s_getreg");
    n.divFmas = m.starts_with("v_div_fmas");
    n.readlane = m.starts_with("v_readlane");
    n.vccz = operands.find("vccz") != std::string_view::npos;
    n.execz = operands.find("execz") != std::string_view::npos;
    return n;
}

class Checker {
public:
    Checker(const Program& p, const Cfg& cfg, const TimingOptions& options, const std::vector<InstClass>& classes)
        : p_(p)
        , cfg_(cfg)
        , o_(options.checks)
        , gen_(p.gpu.generation)
        , cdna_(cdnaOf(p.gpu))
        , cls_(classes)
    {
        names_.reserve(p.instructions.size());
        for (const Instruction& in : p.instructions)
            names_.push_back(namesOf(in));
        nopLimit_ = gen_ <= Generation::GFX7 ? 8 : o_.nopLimit;
        // A walk can stop once the longest rule that can apply to its consumer is satisfied: no
        // producer further back can need more. That is 5 (W-valu-sgpr-vmem, W-execz, W-dpp-exec)
        // or an option's count (W-setreg-setreg, gfx942's W-store-data), except that on CDNA the
        // MFMA rows (up to 19) apply to vector consumers: VALU (MFMA and v_accvgpr_* included),
        // memory, LDS and export instructions. A scalar consumer's walk visits ~5 producers, not 20.
        int longest = std::max(5, gen_ <= Generation::GFX7 ? 1 : o_.setregSetreg);
        if (is942())
            longest = std::max({longest, o_.store942, o_.carry942});
        scalarMaxWait_ = std::min(kMaxWait, longest);
        vectorMaxWait_ = cdna_ != Cdna::None ? kMaxWait : scalarMaxWait_;
        // W-clause: XNACK on is a target ID with xnack+ (core/gpu.h: "+xnack" in the features).
        xnack_ = gfx8plus() && p.gpu.features.find("+xnack") != std::string::npos;
    }

    // Walks every consumer, or (after an edit) only the `affected` ones, taking the others'
    // findings from `previous` (sorted by consumer, as analyzeChecks leaves them). W-icache is a
    // forward scan of its own, always redone.
    int run(CheckResult& result, const std::vector<char>* affected = nullptr, const CheckResult* previous = nullptr)
    {
        std::vector<Need> needs;
        int walked = 0;
        auto kept = previous ? previous->hazards.begin() : result.hazards.end();
        const auto keptEnd = previous ? previous->hazards.end() : result.hazards.end();
        for (int c = 0; c < int(p_.instructions.size()); ++c) {
            checkCancelled(c); // a superseded analysis stops here (core/support/cancel.h)
            if (affected && !(*affected)[std::size_t(c)]) {
                while (kept != keptEnd && kept->instruction < c)
                    ++kept;
                for (; kept != keptEnd && kept->instruction == c; ++kept)
                    if (kept->rule != "W-icache" && kept->rule != "W-90a-shift64")
                        result.hazards.push_back(*kept);
                continue;
            }
            if (p_.instructions[c].isData || c >= cfg_.instructionCount()) // (a CFG of this program covers every instruction)
                continue;
            walk(c, needs, result);
            clause(c, result);
            ++walked;
        }
        icache(result);
        shift64(result);
        return walked;
    }

private:
    bool gfx8plus() const { return gen_ >= Generation::GFX8; }
    bool gfx9plus() const { return gen_ >= Generation::GFX9; }
    bool is942() const { return cdna_ == Cdna::Gfx942; }
    bool is90a() const { return cdna_ == Cdna::Gfx90a; }
    bool is908() const { return cdna_ == Cdna::Gfx908; }

    template <typename F> static bool anyDef(const View& in, F f) { return std::any_of(in.defs.begin(), in.defs.end(), f); }

    // P's defs (filtered) overlap one of `ranges`.
    template <typename F> static bool writesInto(const View& p, std::span<const RegRange> ranges, F filter)
    {
        for (const RegRange& d : p.defs)
            if (filter(d.kind))
                for (const RegRange& u : ranges)
                    if (overlaps(d, u))
                        return true;
        return false;
    }
    static bool writesIntoOne(const View& p, const RegRange* r)
    {
        if (!r)
            return false;
        for (const RegRange& d : p.defs)
            if (overlaps(d, *r))
                return true;
        return false;
    }
    static const RegRange* useAt(const View& in, std::size_t i) { return i < in.uses.size() ? &in.uses[i] : nullptr; }

    bool writesExec(const View& p, const InstClass& pc) const
    {
        return pc.valu && (o_.execAnyWriter || pc.cmpx) && anyDef(p, [](const RegRange& r) { return r.kind == RegKind::EXEC; });
    }

    // MFMA producer → consumer wait states by kind, passes and the row (§2b).
    int srcAbStates(const InstClass& pc) const
    {
        if (pc.mfmaKind == MfmaKind::Dgemm)
            return pc.passes == 4 ? 6 : 11;
        if (is942() && pc.mfmaKind == MfmaKind::Sgemm)
            return pc.passes + 2;
        return pc.passes + 3;
    }

    // C's registers with those a later MFMA on the path rewrote marked gone: like LLVM's
    // getWaitStatesSinceDef with an MFMA predicate, the nearest MFMA writing a register is its
    // producer, an older one is not.
    // (The spans are into this object's buffers, good until the next call.)
    View hideRewritten(const View& C, const std::vector<RegRange>& rewritten) const
    {
        auto trim = [&](std::span<const RegRange> from, std::vector<RegRange>& to) {
            to.clear();
            for (const RegRange& r : from) {
                int left = 0;
                for (int i = r.first; i < r.first + r.count; ++i) {
                    const RegRange one {r.kind, std::uint32_t(i), 1};
                    left += std::none_of(rewritten.begin(), rewritten.end(), [&](const RegRange& w) { return overlaps(w, one); });
                }
                to.push_back(left ? r : RegRange {RegKind::Other, 0, 0});
            }
            return std::span<const RegRange>(to);
        };
        return {C.mnemonic, C.operands, C.family, false, trim(C.defs, hiddenDefs_), trim(C.uses, hiddenUses_)};
    }

    // `dgemmAfter`: a DGEMM issues between P and the consumer on this path (W-90a-dgemm).
    void rules(int pi, const View& C, int ci, std::vector<Need>& out, const std::vector<RegRange>& rewritten,
               bool dgemmAfter) const
    {
        const View P = viewOf(p_.instructions[pi]);
        if (cls_[pi].mfma && !rewritten.empty()) {
            rules(P, pi, hideRewritten(C, rewritten), ci, out, dgemmAfter);
            return;
        }
        rules(P, pi, C, ci, out, dgemmAfter);
    }

    void rules(const View& P, int pi, const View& C, int ci, std::vector<Need>& out, bool dgemmAfter) const
    {
        const InstClass& pc = cls_[pi];
        const InstClass& cc = cls_[ci];
        const Names& pn = names_[std::size_t(pi)];
        const Names& cn = names_[std::size_t(ci)];
        if (P.isData)
            return;
        auto scalar = [](RegKind k) { return isScalar(k); };
        auto vgpr = [](RegKind k) { return k == RegKind::VGPR; };

        if (pc.valu && cc.vmem && (gfx8plus() || o_.vmem67) && writesInto(P, C.uses, scalar))
            out.push_back({"W-valu-sgpr-vmem", 5, false, "a VALU-written SGPR/VCC/EXEC read by a memory instruction"});
        if (gen_ == Generation::GFX6 && pc.valu && cc.smem && writesInto(P, C.uses, scalar))
            out.push_back({"W-valu-sgpr-smrd", 4, false, "a VALU-written SGPR read by SMEM"});
        if (gen_ == Generation::GFX6 && pc.salu && C.mnemonic.starts_with("s_buffer_load") && writesIntoOne(P, useAt(C, 0)))
            out.push_back({"W-salu-sbuf", 4, false, "an SALU-written SGPR used as s_buffer_load's descriptor"});
        if (pc.valu && cn.divFmas && anyDef(P, [](const RegRange& r) { return r.kind == RegKind::VCC; }))
            out.push_back({"W-vcc-divfmas", 4, false, "VCC written by a VALU, read by v_div_fmas"});
        if (pc.valu && (cn.readlane || cc.laneWrite) && writesIntoOne(P, useAt(C, 1)) && isScalar(C.uses[1].kind))
            out.push_back({"W-lanesel", 4, false, "a VALU-written SGPR used as the lane select"});
        const bool pSetreg = pn.setreg;
        if (pSetreg) {
            const HwReg ph = hwregOf(P);
            if (cn.getreg && hwregOf(C).name == ph.name)
                out.push_back({"W-setreg-getreg", 2, false, "s_getreg of a hardware register s_setreg wrote"});
            if (cn.setreg && hwregOf(C).name == ph.name)
                out.push_back({"W-setreg-setreg", gen_ <= Generation::GFX7 ? 1 : o_.setregSetreg, false,
                               "s_setreg of a hardware register s_setreg wrote"});
            if (ph.name == "HW_REG_MODE" && ph.offset <= 28 && 28 < ph.offset + ph.size
                && (cc.valu || cc.vmem || cc.ds || cc.exp))
                out.push_back({"W-vskip", 2, false, "a vector instruction after s_setreg of MODE.vskip"});
            if (gfx8plus() && ph.name == "HW_REG_TRAPSTS" && C.mnemonic.starts_with("s_rfe"))
                out.push_back({"W-rfe", 1, false, "s_rfe after s_setreg of TRAPSTS"});
        }
        if (pn.setvskip && cn.getreg && hwregOf(C).name == "HW_REG_MODE")
            out.push_back({"W-vskip", 2, false, "s_getreg of MODE after s_setvskip"});
        if (gfx9plus() && o_.execz && pc.valu && cc.valu) {
            const bool vccz = cn.vccz;
            const bool execz = cn.execz;
            if ((vccz && anyDef(P, [](const RegRange& r) { return r.kind == RegKind::VCC; }))
                || (execz && anyDef(P, [](const RegRange& r) { return r.kind == RegKind::EXEC; })))
                out.push_back({"W-execz", 5, false, "VCCZ/EXECZ read as data after a VALU wrote VCC/EXEC"});
        }
        if (gfx9plus() && o_.vccAlias && pc.valu && cc.valu) {
            const RegRange alias {RegKind::SGPR, 106, 2};
            const bool pVcc = anyDef(P, [](const RegRange& r) { return r.kind == RegKind::VCC; });
            const bool pAlias = anyDef(P, [&](const RegRange& r) { return overlaps(r, alias); });
            const bool cAlias = std::any_of(C.uses.begin(), C.uses.end(), [&](const RegRange& r) { return overlaps(r, alias); });
            const bool cVcc = std::any_of(C.uses.begin(), C.uses.end(), [](const RegRange& r) { return r.kind == RegKind::VCC; });
            if ((pVcc && cAlias) || (pAlias && cVcc))
                out.push_back({"W-vcc-alias", 1, false, "VCC written by one name and read by the other"});
        }
        const bool pWritesM0 = pc.salu && anyDef(P, [](const RegRange& r) { return r.kind == RegKind::M0; });
        if (pWritesM0) {
            const bool msg = C.mnemonic.starts_with("s_sendmsg") || C.mnemonic == "s_ttracedata" || cc.gds;
            if (msg && (gfx8plus() || o_.m0Msg67))
                out.push_back({"W-m0-msg", 1, false, "M0 written by SALU, read by a message, trace or GDS op"});
            const bool lds = C.mnemonic.find("_addtid") != std::string::npos
                || (cc.vmem && (C.operands.ends_with(" lds") || C.operands.find(" lds ") != std::string::npos))
                || C.family == Family::VINTRP || C.operands.find("lds_direct") != std::string::npos;
            if (lds && gfx9plus())
                out.push_back({"W-m0-lds", 1, false, "M0 written by SALU, read by an LDS-addressing op"});
            if (gfx9plus() && C.mnemonic.starts_with("s_movrel"))
                out.push_back({"W-m0-movrel", 1, false, "M0 written by SALU, read by s_movrel"});
        }
        if (gfx8plus() && cc.dpp && (pc.valu || o_.dppAnyWriter) && writesInto(P, C.uses, vgpr))
            out.push_back({"W-dpp-vgpr", 2, false, "a VGPR read by DPP"});
        if (gfx8plus() && cc.dpp && pc.valu && anyDef(P, [](const RegRange& r) { return r.kind == RegKind::EXEC; }))
            out.push_back({"W-dpp-exec", 5, false, "EXEC written by a VALU before DPP"});
        storeData(P, pc, C, cc, out);
        if (is942())
            cdna3Rules(P, pc, C, cc, out);
        if (gen_ == Generation::GFX6 && P.family == Family::VINTRP && cc.laneRead && writesIntoOne(P, useAt(C, 0)))
            out.push_back({"W-vintrp-rl", 1, false, "a VINTRP result read by v_readlane"});
        if ((is90a() || is942()) && pc.mfmaKind == MfmaKind::Dgemm
            && (C.mnemonic.starts_with("v_fma_f64") || C.mnemonic.starts_with("v_fmac_f64")))
            out.push_back({"W-dgemm-fma", 2, false, "v_fma_f64 after a DGEMM"});
        // gfx90a hardware bug (LLVM checkMAIVALUHazards): a DGEMM between a VALU writing a vector
        // register and a VMEM/FLAT/DS reading it keeps the SQ from inserting its 2 wait states.
        if (is90a() && dgemmAfter && pc.valu && !pc.mfma && (cc.vmem || cc.ds)
            && writesInto(P, C.uses, [](RegKind k) { return isVector(k); }))
            out.push_back({"W-90a-dgemm", 2, false, "a VALU-written VGPR read by a memory instruction with a DGEMM between"});
        if (cdna_ != Cdna::None)
            maiRules(P, pc, C, cc, out);
    }

    void storeData(const View& P, const InstClass& pc, const View& C, const InstClass& cc, std::vector<Need>& out) const
    {
        if (!pc.vmem || !(gen_ >= Generation::GFX7 || o_.store6))
            return;
        const bool store = P.mnemonic.find("store") != std::string::npos || P.mnemonic.find("cmpswap_x2") != std::string::npos;
        if (!store)
            return;
        const bool flatLike = P.family == Family::FLAT || P.family == Family::GLOBAL || P.family == Family::SCRATCH;
        const RegRange* data = useAt(P, flatLike ? 1 : 0);
        if (!data || data->kind != RegKind::VGPR || data->count <= 2)
            return;
        int states = 1;
        if (is942() && cc.valu)
            states = 2;
        if (P.family == Family::MUBUF || P.family == Family::MTBUF) {
            // An SGPR soffset (an SGPR operand besides the 4-dword descriptor) avoids the hazard.
            const bool sgprSoffset = std::any_of(P.uses.begin(), P.uses.end(), [](const RegRange& r) {
                return (r.kind == RegKind::SGPR || r.kind == RegKind::M0 || r.kind == RegKind::TTMP) && r.count == 1;
            });
            if (sgprSoffset) {
                if (!is942() || o_.store942 == 0)
                    return;
                states = o_.store942;
            }
        }
        for (const RegRange& d : C.defs)
            if (overlaps(d, *data)) {
                out.push_back({"W-store-data", states, false, "a store's data VGPRs overwritten"});
                return;
            }
    }

    void cdna3Rules(const View& P, const InstClass& pc, const View& C, const InstClass& cc, std::vector<Need>& out) const
    {
        if (!pc.valu || !cc.valu)
            return;
        // W-valu-sgpr-valu: explicit or implicit SGPR/VCC reads; the carry-in of v_addc/v_subb
        // (their last SGPR/VCC operand) is A-carry.
        const bool carryOp = C.mnemonic.find("addc") != std::string::npos || C.mnemonic.find("subb") != std::string::npos;
        int lastScalar = -1;
        for (int u = 0; u < int(C.uses.size()); ++u)
            if (C.uses[u].kind == RegKind::SGPR || C.uses[u].kind == RegKind::VCC)
                lastScalar = u;
        int states = 0;
        for (int u = 0; u < int(C.uses.size()); ++u) {
            const RegRange& r = C.uses[u];
            if (r.kind != RegKind::SGPR && r.kind != RegKind::VCC)
                continue;
            if (!writesIntoOne(P, &r))
                continue;
            states = std::max(states, carryOp && u == lastScalar ? o_.carry942 : 2);
        }
        if (states > 0)
            out.push_back({"W-valu-sgpr-valu", states, false, "a VALU-written SGPR/VCC read by a VALU"});
        if ((cc.laneRead || cc.laneWrite) && writesExec(P, pc))
            out.push_back({"W-exec-lane", 4, false, "EXEC written by a VALU before a lane access"});
        if (pc.cmpx && C.operands.find("exec") != std::string::npos)
            out.push_back({"W-cmpx-exec", 2, false, "EXEC written by v_cmpx, read as a constant"});
        if (cc.laneRead && writesIntoOne(P, useAt(C, 0)) && C.uses[0].kind == RegKind::VGPR)
            out.push_back({"W-vgpr-readlane", 1, false, "a VALU-written VGPR read by v_readlane/v_readfirstlane"});
        auto vgprUse = [&] {
            for (const RegRange& d : P.defs)
                if (d.kind == RegKind::VGPR)
                    for (const RegRange& u : C.uses)
                        if (overlaps(d, u))
                            return true;
            return false;
        };
        if (pc.trans && !cc.trans && vgprUse())
            out.push_back({"W-trans", 1, false, "a transcendental result read by a non-transcendental VALU"});
        const bool dstSel =
            (pc.sdwa && P.operands.find("dst_sel:") != std::string::npos && P.operands.find("dst_sel:DWORD") == std::string::npos)
            || [&] {
                   const auto at = P.operands.find("op_sel:[");
                   if (at == std::string::npos)
                       return false;
                   const auto close = P.operands.find(']', at);
                   return close != std::string::npos && close > 0 && P.operands[close - 1] == '1';
               }();
        if (dstSel && vgprUse())
            out.push_back({"W-dstsel", 1, false, "a partial (dst_sel/op_sel) result read by a VALU"});
    }

    // §2b, rule ids W-mai-* (docs/model.md names each row).
    void maiRules(const View& P, const InstClass& pc, const View& C, const InstClass& cc, std::vector<Need>& out) const
    {
        auto add = [&](const char* rule, int states, const char* what) {
            if (states > 0)
                out.push_back({rule, states, true, what});
        };
        const RegRange* srcA = cc.mfma ? useAt(C, 0) : nullptr;
        const RegRange* srcB = cc.mfma ? useAt(C, 1) : nullptr;
        const RegRange* srcC = cc.mfma ? useAt(C, 2) : nullptr;
        if (pc.valu && !pc.mfma && !pc.dot && (cc.mfma || (is908() && cc.accvgprWrite))
            && writesInto(P, C.uses, [](RegKind k) { return k == RegKind::VGPR; }))
            add("W-mai-valu-vgpr", 2, "a VALU-written VGPR read by an MFMA");
        if ((cc.mfma || (is908() && cc.accvgprWrite)) && writesExec(P, pc))
            add("W-mai-exec", 4, "EXEC written by a VALU before an MFMA");
        if (pc.mfma && cc.mfma) {
            const RegRange* dst = P.defs.empty() ? nullptr : &P.defs[0];
            if (dst && srcC && overlaps(*dst, *srcC)) {
                const bool exact =
                    dst->first == srcC->first && dst->count == srcC->count && (!o_.exactIsa || pc.passes == cc.passes);
                const bool f64Same = P.mnemonic == C.mnemonic && pc.mfmaKind == MfmaKind::Dgemm && pc.passes == 4;
                if (exact) {
                    int states = 0;
                    if ((is90a() || is942()) && f64Same)
                        states = 4;
                    else if (is942() && pc.mfmaKind == MfmaKind::Xdl && pc.passes == 2)
                        states = 2;
                    else if (is942() && pc.mfmaKind == MfmaKind::Sgemm && pc.passes == 2 && !o_.exactIsa)
                        states = 2;
                    add("W-mai-srcc-exact", states, "an MFMA result read as SrcC (same registers)");
                } else {
                    int states = 0;
                    if (is908()) {
                        states = 2;
                    } else if (pc.mfmaKind == MfmaKind::Dgemm) {
                        states = cc.mfmaKind == MfmaKind::Dgemm ? (pc.passes == 4 ? 4 : 9) : 0;
                    } else if (is942() && pc.mfmaKind == MfmaKind::Xdl) {
                        states = pc.passes + 1;
                    } else if (is942() && pc.mfmaKind == MfmaKind::Sgemm && cc.mfmaKind == MfmaKind::Xdl) {
                        states = o_.sgemmXdlPasses ? pc.passes : 0;
                    } else {
                        states = cc.mfmaKind == MfmaKind::Dgemm && !is942() ? pc.passes + 1 : pc.passes;
                    }
                    add("W-mai-srcc-overlap", states, "an MFMA result read as SrcC (overlapping registers)");
                }
            }
            if ((srcA && writesIntoOne(P, srcA)) || (srcB && writesIntoOne(P, srcB)))
                add("W-mai-srcab", is908() ? 4 : srcAbStates(pc), "an MFMA result read as SrcA/SrcB");
        }
        if (is908()) {
            if (pc.mfma && cc.accvgprRead && writesInto(P, C.uses, [](RegKind k) { return k == RegKind::AGPR; }))
                add("W-mai-accread", pc.passes + 2, "an MFMA result read by v_accvgpr_read");
            if (pc.mfma && cc.accvgprWrite && writesInto(P, C.defs, [](RegKind k) { return k == RegKind::AGPR; }))
                add("W-mai-accwrite-waw", pc.passes - 1, "an MFMA result overwritten by v_accvgpr_write");
            if (pc.mfma && cc.accvgprWrite && useAt(P, 2)) {
                for (const RegRange& d : C.defs)
                    if (overlaps(d, P.uses[2]))
                        add("W-mai-accwrite-war", pc.passes == 2 ? 0 : pc.passes - 3,
                            "an MFMA's SrcC overwritten by v_accvgpr_write");
            }
            if (pc.accvgprWrite) {
                if (srcC && writesIntoOne(P, srcC))
                    add("W-mai-accwrite-use", 1, "v_accvgpr_write's AGPR read as SrcC");
                else if ((srcA && writesIntoOne(P, srcA)) || (srcB && writesIntoOne(P, srcB)))
                    add("W-mai-accwrite-use", 3, "v_accvgpr_write's AGPR read as SrcA/SrcB");
                else if (cc.accvgprRead && writesInto(P, C.uses, [](RegKind k) { return k == RegKind::AGPR; }))
                    add("W-mai-accwrite-use", 3, "v_accvgpr_write's AGPR read by v_accvgpr_read");
            }
            if (pc.accvgprRead && (cc.vmem || cc.ds) && writesInto(P, C.uses, [](RegKind k) { return k == RegKind::VGPR; }))
                add("W-mai-accread-mem", o_.accread, "v_accvgpr_read's VGPR read by a memory instruction");
            return;
        }
        // gfx90a / gfx942
        if (pc.mfma && !cc.mfma) {
            auto into = [&](std::span<const RegRange> rs) { return writesInto(P, rs, [](RegKind k) { return isVector(k); }); };
            if (cc.valu && (into(C.uses) || into(C.defs)))
                add("W-mai-vgpr-valu", srcAbStates(pc), "an MFMA result read or written by a VALU");
            if ((cc.vmem || cc.ds || cc.exp) && into(C.uses)) {
                int states = srcAbStates(pc);
                if (pc.mfmaKind == MfmaKind::Dgemm)
                    states = pc.passes == 4 ? 9 : 18;
                add("W-mai-vgpr-mem", states, "an MFMA result read by a memory instruction or export");
            }
            if (cc.valu && useAt(P, 2) && pc.mfmaKind != MfmaKind::Dgemm && (!is942() || pc.mfmaKind == MfmaKind::Xdl)) {
                for (const RegRange& d : C.defs)
                    if (overlaps(d, P.uses[2])) {
                        add("W-mai-srcc-war", pc.passes - 1, "an MFMA's SrcC overwritten by a VALU");
                        break;
                    }
            }
        }
        if (pc.dot && cc.valu) {
            auto into = [&](std::span<const RegRange> rs) {
                return writesInto(P, rs, [](RegKind k) { return k == RegKind::VGPR; });
            };
            if (P.mnemonic == C.mnemonic) {
                if (writesIntoOne(P, useAt(C, 0)) || writesIntoOne(P, useAt(C, 1)))
                    add("W-mai-dot", 3, "a DOT result read as SrcA/SrcB by the same DOT");
            } else if (cc.mfma) {
                if (into(C.uses))
                    add("W-mai-dot", o_.dotMfma, "a DOT result read by an MFMA");
            } else if (into(C.uses) || into(C.defs)) {
                add("W-mai-dot", 3, "a DOT result read or written by another VALU");
            }
        }
    }

    struct Best {
        const char* rule;
        int producer;
        int required;
        int present;
        const char* what;
    };
    struct Item {
        int block, pos, all, valu, steps;
        std::vector<RegRange> rewritten;
        bool dgemm = false; // a DGEMM walked past (W-90a-dgemm)
    };

    void walk(int c, std::vector<Need>& needs, CheckResult& result)
    {
        // Buffers kept across consumers: most walks find nothing and allocate nothing.
        std::vector<Best>& best = best_;
        std::vector<Item>& stack = stack_;
        std::vector<Item>& seen = seen_; // (block, all, valu) entries already walked
        best.clear();
        stack.clear();
        seen.clear();
        stack.push_back({cfg_.blockOf(c), c - 1, 0, 0, 0, {}, false});
        const bool valuOnly = is942() && o_.valuOnly;
        const InstClass& cc = cls_[std::size_t(c)];
        const int maxWait = cc.valu || cc.vmem || cc.ds || cc.exp ? vectorMaxWait_ : scalarMaxWait_;
        const View consumer = viewOf(p_.instructions[std::size_t(c)]);
        while (!stack.empty()) {
            Item it = std::move(stack.back());
            stack.pop_back();
            const CfgBlock& b = cfg_.blocks[it.block];
            bool stop = false;
            for (int i = it.pos; i >= b.first; --i) {
                needs.clear();
                rules(i, consumer, c, needs, it.rewritten, it.dgemm);
                for (const Need& n : needs) {
                    assert(n.states <= maxWait); // (else the walk below stops too early)
                    const int present = n.mfmaRow && valuOnly ? it.valu : it.all;
                    if (present >= n.states)
                        continue;
                    auto pos =
                        std::find_if(best.begin(), best.end(), [&](const Best& b) { return std::string_view(b.rule) == n.rule; });
                    if (pos == best.end())
                        best.push_back({n.rule, i, n.states, present, n.what});
                    else if (n.states - present > pos->required - pos->present)
                        *pos = {n.rule, i, n.states, present, n.what};
                }
                if (cls_[i].mfmaKind == MfmaKind::Dgemm)
                    it.dgemm = true;
                if (cls_[i].mfma)
                    it.rewritten.insert(it.rewritten.end(), p_.instructions[i].defs.begin(), p_.instructions[i].defs.end());
                // hazards.md §1 "Fix": one s_nop gives at most 8 states on gfx6/7 and A-nop on gfx8+,
                // so a larger immediate counts only up to that limit.
                int ws = waitStatesOf(p_.instructions[i], cls_[i]);
                if (cls_[i].nop)
                    ws = std::min(ws, nopLimit_);
                it.all += ws;
                if (cls_[i].valu || cls_[i].nop)
                    it.valu += ws;
                if ((valuOnly ? it.valu : it.all) >= maxWait || ++it.steps > kMaxWalk) {
                    stop = true;
                    break;
                }
            }
            if (stop)
                continue;
            for (int pred : b.predecessors) {
                const bool dominated = std::any_of(seen.begin(), seen.end(), [&](const Item& s) {
                    return s.block == pred && s.all <= it.all && s.valu <= it.valu && (s.dgemm || !it.dgemm);
                });
                if (dominated)
                    continue;
                seen.push_back({pred, 0, it.all, it.valu, 0, {}, it.dgemm});
                stack.push_back({pred, cfg_.blocks[pred].end - 1, it.all, it.valu, it.steps, it.rewritten, it.dgemm});
            }
        }
        const Instruction& C = p_.instructions[c];
        std::sort(best.begin(), best.end(), [](const Best& a, const Best& b) { return std::string_view(a.rule) < b.rule; });
        for (const Best& b : best) {
            const Instruction& P = p_.instructions[b.producer];
            HazardFinding f;
            f.rule = b.rule;
            f.instruction = c;
            f.line = C.line;
            f.producer = b.producer;
            f.producerLine = P.line;
            f.required = b.required;
            f.present = b.present;
            f.fix = nopFix(b.required - b.present, nopLimit_);
            f.detail = std::format("{}: {} at line {} → {} needs {} wait state{}, {} present", b.what, P.mnemonic, P.line,
                                   C.mnemonic, b.required, b.required == 1 ? "" : "s", b.present);
            result.hazards.push_back(std::move(f));
        }
    }

    // W-icache: s_icache_inv must be followed by 16 separate instructions that are s_nop, or a branch.
    void icache(CheckResult& result)
    {
        if (!gfx9plus())
            return;
        for (int i = 0; i < int(p_.instructions.size()); ++i) {
            if (p_.instructions[i].mnemonic != "s_icache_inv")
                continue;
            int count = 0;
            for (int j = i + 1; j < int(p_.instructions.size()) && p_.instructions[j].kernel == p_.instructions[i].kernel; ++j) {
                const Instruction& in = p_.instructions[j];
                if (in.isData)
                    continue;
                if (in.branch != BranchKind::None || count >= 16)
                    break;
                if (cls_[j].nop) {
                    ++count;
                    continue;
                }
                HazardFinding f = findingAt("W-icache", j, i);
                f.required = 16;
                f.present = count;
                std::string fix;
                for (int k = count; k < 16; ++k)
                    fix += (fix.empty() ? "" : "\n") + std::string("s_nop 0");
                f.fix = fix;
                f.detail = std::format("s_icache_inv at line {} needs 16 separate s_nop or a branch before {}, {} present",
                                       f.producerLine, in.mnemonic, count);
                result.hazards.push_back(std::move(f));
                break;
            }
        }
    }

    // A finding's rule, consumer and producer with their lines.
    HazardFinding findingAt(const char* rule, int consumer, int producer) const
    {
        HazardFinding f;
        f.rule = rule;
        f.instruction = consumer;
        f.line = p_.instructions[std::size_t(consumer)].line;
        f.producer = producer;
        f.producerLine = p_.instructions[std::size_t(producer)].line;
        return f;
    }

    // W-clause (LLVM checkSoftClauseHazards): with XNACK on, back-to-back SMEM (or VMEM/FLAT)
    // instructions form a soft clause whose members may return out of order or be replayed, so
    // none may write a register a member (itself included) reads, and a store may not join one
    // that writes registers. Every path into `c` is walked back over the members before it; one
    // non-member instruction ends the clause (1 wait state). Bounded by kMaxWalk like walk(), so
    // analyzeChecksAfterEdit's reach covers it.
    void clause(int c, CheckResult& result) const
    {
        const InstClass& cc = cls_[std::size_t(c)];
        if (!xnack_ || !(cc.smem || cc.vmem))
            return;
        const Instruction& C = p_.instructions[std::size_t(c)];
        auto member = [&](int i) { return !p_.instructions[std::size_t(i)].isData && (cc.smem ? cls_[i].smem : cls_[i].vmem); };
        const bool store = cc.store || C.mnemonic.find("atomic") != std::string::npos;
        struct Path {
            int block, pos;
            std::vector<int> members; // nearest first
        };
        std::vector<Path> stack {{cfg_.blockOf(c), c - 1, {}}};
        // Paths multiply at joins inside all-member code; a bound keeps that linear (a clause
        // spanning so many blocks is not hand-written code).
        for (int paths = 0; !stack.empty() && paths < 4 * kMaxWalk; ++paths) {
            Path path = std::move(stack.back());
            stack.pop_back();
            const CfgBlock& b = cfg_.blocks[std::size_t(path.block)];
            int i = path.pos;
            for (; i >= b.first && member(i) && int(path.members.size()) < kMaxWalk; --i)
                path.members.push_back(i);
            if (i < b.first && int(path.members.size()) < kMaxWalk && !b.predecessors.empty()) {
                for (int pred : b.predecessors)
                    stack.push_back({pred, cfg_.blocks[std::size_t(pred)].end - 1, path.members});
                continue;
            }
            const int producer = clauseProducer(C, store, path.members);
            if (producer < 0)
                continue;
            const Instruction& P = p_.instructions[std::size_t(producer)];
            HazardFinding f = findingAt("W-clause", c, producer);
            f.required = 1;
            f.present = 0;
            f.fix = nopFix(1, nopLimit_);
            f.detail = std::format("{} at line {} and {} in one soft clause (XNACK on): {}; needs 1 instruction "
                                   "between, 0 present",
                                   P.mnemonic, P.line, C.mnemonic,
                                   store ? "a store joins a clause that writes registers"
                                         : "a register written in the clause is read in it");
            result.hazards.push_back(std::move(f));
            return;
        }
    }

    // The clause member the hazard is charged to (the nearest one writing a register that the
    // clause reads, or for a store the nearest member), or -1 when the clause is safe.
    int clauseProducer(const Instruction& C, bool store, const std::vector<int>& members) const
    {
        const bool defs =
            std::any_of(members.begin(), members.end(), [&](int i) { return !p_.instructions[std::size_t(i)].defs.empty(); });
        if (!defs)
            return -1;
        if (store)
            return members.front();
        auto readInClause = [&](const RegRange& d) {
            auto reads = [&](const Instruction& in) {
                return std::any_of(in.uses.begin(), in.uses.end(), [&](const RegRange& u) { return overlaps(d, u); });
            };
            return reads(C)
                || std::any_of(members.begin(), members.end(), [&](int j) { return reads(p_.instructions[std::size_t(j)]); });
        };
        for (int i : members)
            for (const RegRange& d : p_.instructions[std::size_t(i)].defs)
                if (readInClause(d))
                    return i;
        for (const RegRange& d : C.defs)
            if (readInClause(d))
                return members.front();
        return -1;
    }

    // The gfx90a 64-bit shift report (hazards.md §2, LLVM fixShift64HighRegBug): a
    // v_lshlrev_b64/v_lshrrev_b64/v_ashrrev_i64 whose shift amount is the last VGPR of an
    // 8-VGPR block while the next VGPR is used nowhere in the kernel. No s_nop fixes it (LLVM
    // swaps the amount into another register), so the finding has no fix.
    void shift64(CheckResult& result) const
    {
        if (!is90a())
            return;
        for (int i = 0; i < int(p_.instructions.size()); ++i) {
            const Instruction& in = p_.instructions[std::size_t(i)];
            if (in.isData || in.uses.empty()
                || !(in.mnemonic.starts_with("v_lshlrev_b64") || in.mnemonic.starts_with("v_lshrrev_b64")
                     || in.mnemonic.starts_with("v_ashrrev_i64")))
                continue;
            const RegRange& amount = in.uses[0];
            if (amount.kind != RegKind::VGPR || amount.count != 1 || amount.first % 8 != 7)
                continue;
            const RegRange next {RegKind::VGPR, amount.first + 1u, 1};
            auto touches = [&](const Instruction& other) {
                auto hit = [&](const RegRange& r) { return overlaps(r, next); };
                return std::any_of(other.uses.begin(), other.uses.end(), hit)
                    || std::any_of(other.defs.begin(), other.defs.end(), hit);
            };
            const bool used = std::any_of(p_.instructions.begin(), p_.instructions.end(),
                                          [&](const Instruction& other) { return other.kernel == in.kernel && touches(other); });
            if (used && amount.first != 255) // v255 has no next VGPR: always affected
                continue;
            HazardFinding f = findingAt("W-90a-shift64", i, i);
            f.detail = std::format("{}: its shift amount v{} is the last VGPR of an 8-VGPR block and v{} is unused in "
                                   "the kernel (gfx90a hardware bug; no s_nop fixes it: take the amount from another VGPR)",
                                   in.mnemonic, amount.first, next.first);
            result.hazards.push_back(std::move(f));
        }
    }

    const Program& p_;
    const Cfg& cfg_;
    const CheckOptions& o_;
    Generation gen_;
    Cdna cdna_;
    const std::vector<InstClass>& cls_;
    std::vector<Names> names_; // parallel to cls_
    int nopLimit_ = 16;
    // The most wait states a rule of this target needs for a scalar / a vector consumer.
    int scalarMaxWait_ = kMaxWait, vectorMaxWait_ = kMaxWait;
    bool xnack_ = false;
    std::vector<Best> best_;
    mutable std::vector<RegRange> hiddenDefs_, hiddenUses_; // hideRewritten's
    std::vector<Item> stack_, seen_;
};

} // namespace

namespace {

// The instructions whose backward walk (Checker::walk: at most kMaxWalk + 1 producers per path)
// can reach one in [first, end): those up to kMaxWalk + 1 instructions after it along the CFG.
std::vector<char> reachedFrom(const Cfg& cfg, int first, int end)
{
    constexpr int kBudget = kMaxWalk + 2; // the edited instruction itself and the kMaxWalk + 1 after it
    std::vector<char> out(std::size_t(cfg.instructionCount()), 0);
    std::vector<int> bestAtEntry(cfg.blocks.size(), 0);
    struct At {
        int block, pos, left;
    };
    std::vector<At> work;
    for (int i = std::max(first, 0); i < end && i < cfg.instructionCount(); ++i) {
        const int b = cfg.blockOf(i); // the blocks cover every instruction below instructionCount()
        if (i == first || cfg.blocks[std::size_t(b)].first == i)
            work.push_back({b, i, kBudget});
    }
    while (!work.empty()) {
        At at = work.back();
        work.pop_back();
        const CfgBlock& block = cfg.blocks[std::size_t(at.block)];
        for (int i = at.pos; i < block.end && at.left > 0; ++i) {
            if (i >= first && i < end)
                at.left = kBudget;
            out[std::size_t(i)] = 1;
            --at.left;
        }
        if (at.left <= 0)
            continue;
        for (int s : block.successors)
            if (at.left > bestAtEntry[std::size_t(s)]) {
                bestAtEntry[std::size_t(s)] = at.left;
                work.push_back({s, cfg.blocks[std::size_t(s)].first, at.left});
            }
    }
    return out;
}

CheckResult runChecks(const Program& program, const Cfg& cfg, const TimingOptions& options, const std::vector<char>* affected,
                      const CheckResult* previous, int* walked)
{
    CheckResult result;
    for (const CfgNote& n : cfg.notes)
        result.notes.push_back(std::format("line {}: {}", n.line, n.text));
    const std::vector<InstClass> classes = classifyAll(program);
    const int count = Checker(program, cfg, options, classes).run(result, affected, previous);
    if (walked)
        *walked = count;
    std::stable_sort(result.hazards.begin(), result.hazards.end(),
                     [](const HazardFinding& a, const HazardFinding& b) { return a.instruction < b.instruction; });
    detail::analyzeWaitcnts(program, cfg, options, classes, result);
    result.notes.push_back("hazards: a producer counts even when a later write replaced its value, except that the "
                           "nearest MFMA writing a register hides older ones (as LLVM's GCNHazardRecognizer); "
                           "W-clause applies only with XNACK on (a target ID with xnack+)");
    // The findings live as long as the analysis: no growth slack (issue #18).
    result.hazards.shrink_to_fit();
    result.waits.shrink_to_fit();
    return result;
}

} // namespace

CheckResult analyzeChecks(const Program& program, const Cfg& cfg, const TimingOptions& options, int* walked)
{
    return runChecks(program, cfg, options, nullptr, nullptr, walked);
}

CheckResult analyzeChecksAfterEdit(const Program& program, const Cfg& cfg, const TimingOptions& options,
                                   const CheckResult& previous, int first, int end, int* walked)
{
    const std::vector<char> affected = reachedFrom(cfg, first, end);
    return runChecks(program, cfg, options, &affected, &previous, walked);
}

} // namespace gcnlens
