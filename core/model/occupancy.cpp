// SPDX-License-Identifier: MIT
// Occupancy per timing-model.md section 6: one term per resource (waves, vgpr, agpr, sgpr, lds,
// workgroup, scratch), the minimum is the occupancy, every term equal to it is a limiter.
#include "core/model/occupancy.h"

#include <algorithm>
#include <climits>
#include <functional>

namespace gcnlens {

namespace {

constexpr int kUnlimited = INT_MAX;

int alignUp(int value, int granule)
{
    return (value + granule - 1) / granule * granule;
}
int alignDown(int value, int granule)
{
    return value / granule * granule;
}
int ceilDiv(long long a, long long b)
{
    return static_cast<int>((a + b - 1) / b);
}

// Terms of section 6, before taking the minimum. "raw" values are not capped at W_max so that a
// resource which merely allows the maximum is not mistaken for the one that sets it.
struct Terms {
    std::string error;
    OccupancyLimits limits;
    int maxWaves = 10;
    int vgpr = kUnlimited, agpr = kUnlimited;
    int sgpr = kUnlimited;     // user SGPRs + declared extras (+ trap)
    int scratch = kUnlimited;  // the SGPR term again with scratch's flat-scratch reservation
    bool scratchCosts = false; // scratch's reservation lowered the SGPR term
    int lds = kUnlimited;
    int workgroup = kUnlimited;
    bool workgroupSets = false; // the workgroup term is below the register terms or hits the 16 cap
    int waves = 0;
    int wavesPerWorkgroup = 1;
    int workgroupsPerCu = 0;
    int allocatedVgprs = 0, allocatedSgprs = 0, allocatedLds = 0, extra = 0;
    std::vector<std::string> notes;
};

std::string str(int v)
{
    return std::to_string(v);
}

Terms evaluate(const GpuTarget& gpu, const OccupancyInput& in, const TimingOptions& options)
{
    Terms t;
    const OccupancyLimits& L = t.limits = occupancyLimits(gpu, options);
    t.maxWaves = L.maxWaves;

    // Invalid inputs: a reason, no numbers (issue #4 section 1).
    if (in.workgroupSize < 1 || in.workgroupSize > 1024)
        t.error = "workgroup size " + str(in.workgroupSize) + " is outside 1…1024 work-items";
    else if (in.vgprs < 0 || in.agprs < 0 || in.sgprs < 0 || in.ldsBytes < 0)
        t.error = "resource counts cannot be negative";
    else if (in.vgprs > L.maxVgprs)
        t.error = str(in.vgprs) + " VGPRs: a wave addresses at most " + str(L.maxVgprs) + " (v0…v" + str(L.maxVgprs - 1) + ")";
    else if (in.agprs > 0 && !L.hasAgprs)
        t.error =
            std::string(generationName(gpu.generation)) + " (" + gpu.processor + ") has no AGPRs (only gfx908, gfx90a, gfx942)";
    else if (in.agprs > 256)
        t.error = str(in.agprs) + " AGPRs: a wave addresses at most 256 (a0…a255)";
    else if (L.unifiedAgprs && alignUp(in.vgprs, 4) + in.agprs > L.vgprFile)
        t.error = "VGPRs (" + str(in.vgprs) + ", AGPRs from " + str(alignUp(in.vgprs, 4)) + ") + " + str(in.agprs)
            + " AGPRs exceed the unified file of " + str(L.vgprFile);
    else if (in.sgprs > L.maxSgprs)
        t.error = str(in.sgprs) + " SGPRs: a wave addresses at most " + str(L.maxSgprs) + " user SGPRs (s0…s"
            + str(L.maxSgprs - 1) + ")";
    else if (in.ldsBytes > L.ldsPerWorkgroup)
        t.error = str(in.ldsBytes) + " bytes of LDS: a workgroup may allocate at most " + str(L.ldsPerWorkgroup);
    if (!t.error.empty())
        return t;

    // VGPR term; AGPRs per the CDNA rows of the table. At least one granule is always allocated.
    const int vgprs = std::max(in.vgprs, 1);
    if (L.unifiedAgprs) {
        // gfx90a/gfx942: AGPRs start at accum_offset = alignUp(vgprs, 4) in a 512-entry file.
        t.allocatedVgprs = alignUp(alignUp(vgprs, 4) + in.agprs, L.vgprGranule);
        t.vgpr = L.vgprFile / t.allocatedVgprs;
        if (in.agprs > 0)
            t.agpr = t.vgpr;
    } else {
        const int v = alignUp(vgprs, L.vgprGranule);
        t.vgpr = L.vgprFile / v;
        t.allocatedVgprs = v;
        if (L.hasAgprs && in.agprs > 0) {
            // gfx908: separate AGPR file, the wave allocates max(VGPR, AGPR) of each.
            const int a = alignUp(in.agprs, L.vgprGranule);
            t.agpr = L.vgprFile / a;
            t.allocatedVgprs = std::max(v, a);
        }
    }

    // SGPR term: W_s = floor(file / (alignUp(sgprs + extra, granule) + 16·trap)), capped at 128.
    const bool trap = in.trapHandler || options.trapHandler;
    auto sgprTerm = [&](bool flatScratch, int* allocated, int* extra) {
        *extra = extraSgprs(gpu.generation, in.usesVcc, flatScratch, in.usesXnack);
        int total = alignUp(std::max(in.sgprs + *extra, 1), L.sgprGranule);
        if (L.fixedSgprs)
            total = L.fixedSgprs;
        total = std::min(total + (trap ? 16 : 0), 128);
        *allocated = total;
        return L.sgprFile / total;
    };
    t.sgpr = sgprTerm(in.usesFlatScratch, &t.allocatedSgprs, &t.extra);
    if (L.fixedSgprs && in.sgprs + t.extra > L.fixedSgprs) {
        t.error = str(in.sgprs) + " SGPRs + " + str(t.extra) + " reserved exceed the " + str(L.fixedSgprs) + " SGPRs "
            + gpu.processor + " always allocates";
        return t;
    }
    if (L.fixedSgprs)
        t.notes.push_back(gpu.processor + " allocates a fixed " + str(L.fixedSgprs) + " SGPRs per wave (section 6)");
    if (trap)
        t.notes.push_back("trap handler: 16 more SGPRs per wave");

    // Scratch. Section 6 lists scratch as an input but gives it no term of its own; the per-CU
    // scratch wave slots are sized by the runtime at dispatch and cannot be known here. Our reading:
    // on GFX7+ a kernel using scratch gets FLAT_SCRATCH reserved (LLVM's default,
    // .amdhsa_reserve_flat_scratch 1), so scratch costs waves through the SGPR extras; the `scratch`
    // term is the SGPR term with that reservation and is named when it is lower than without.
    if (in.scratch) {
        if (gpu.generation != Generation::GFX6 && !in.usesFlatScratch) {
            int allocated = 0, extra = 0;
            t.scratch = sgprTerm(true, &allocated, &extra);
            if (t.scratch < t.sgpr) {
                t.scratchCosts = true;
                t.allocatedSgprs = allocated;
                t.extra = extra;
            }
            t.notes.push_back("scratch: FLAT_SCRATCH reserved (" + str(extra) + " extra SGPRs instead of "
                              + str(extraSgprs(gpu.generation, in.usesVcc, false, in.usesXnack))
                              + "); the runtime's scratch wave limit is not modelled");
        } else {
            t.notes.push_back(gpu.generation == Generation::GFX6
                                  ? "scratch: GFX6 has no FLAT_SCRATCH, so scratch costs no SGPRs; the runtime's scratch wave "
                                    "limit is not modelled"
                                  : "scratch: FLAT_SCRATCH already reserved; the runtime's scratch wave limit is not modelled");
        }
    }

    const int regs = std::min({t.maxWaves, t.vgpr, t.agpr, t.sgpr, t.scratch});

    // Workgroups per CU: min(64 KiB / alignUp(lds), 16 for multi-wave workgroups,
    // floor(4·min(W_v, W_s) / waves_per_workgroup)); waves per SIMD = ceil(wg · wpw / 4).
    const int wpw = ceilDiv(in.workgroupSize, 64);
    t.wavesPerWorkgroup = wpw;
    int wgLds = kUnlimited;
    if (in.ldsBytes > 0) {
        t.allocatedLds = alignUp(in.ldsBytes, L.ldsGranule);
        wgLds = L.ldsPerCu / t.allocatedLds;
        t.lds = ceilDiv(static_cast<long long>(wgLds) * wpw, 4);
    }
    const int wgCap = wpw > 1 ? 16 : kUnlimited;
    const int wgFit = 4 * regs / wpw;
    const int wavesCap = wgCap == kUnlimited ? kUnlimited : ceilDiv(16LL * wpw, 4);
    const int wavesFit = ceilDiv(static_cast<long long>(wgFit) * wpw, 4);
    t.workgroup = std::min(wavesCap, wavesFit < regs ? wavesFit : kUnlimited);
    t.workgroupsPerCu = std::min({wgLds, wgCap, wgFit});

    t.waves = std::min({regs, t.lds, t.workgroup});
    t.workgroupSets = t.workgroup == t.waves;
    if (t.waves == 0)
        t.notes.push_back("a workgroup of " + str(wpw) + " waves does not fit on one CU with these resources");
    return t;
}

const char* resourceLabel(const std::string& r)
{
    if (r == "vgpr")
        return "VGPRs";
    if (r == "agpr")
        return "AGPRs";
    if (r == "sgpr")
        return "SGPRs";
    if (r == "lds")
        return "LDS bytes";
    return "workgroup size";
}

// "how far must it drop to gain one more wave": the largest smaller value with more waves.
OccupancyHint hintFor(const std::string& resource, int current, int step, const std::function<void(OccupancyInput&, int)>& set,
                      const GpuTarget& gpu, const OccupancyInput& input, const TimingOptions& options, const Terms& t,
                      const std::vector<std::string>& limiters)
{
    OccupancyHint hint;
    hint.resource = resource;
    const std::string label = resourceLabel(resource);
    if (t.waves >= t.maxWaves) {
        // At the maximum already: say how far the resource may grow and keep it.
        int keep = current;
        const int top = resource == "vgpr" ? t.limits.maxVgprs
            : resource == "agpr"           ? 256
            : resource == "sgpr"           ? t.limits.maxSgprs
            : resource == "lds"            ? t.limits.ldsPerWorkgroup
                                           : 1024;
        for (int x = current + 1; x <= top; x += step) {
            OccupancyInput probe = input;
            set(probe, x);
            if (occupancyWaves(gpu, probe, options) < t.waves)
                break;
            keep = x;
        }
        const bool singular = resource == "workgroup"; // "workgroup size 64 allows", "VGPRs 24 allow"
        hint.text = label + " " + str(current) + (singular ? " already allows" : " already allow") + " the maximum of "
            + str(t.maxWaves) + " waves/SIMD (up to " + str(keep) + " keep it)";
        return hint;
    }
    const int minimum = resource == "workgroup" ? 1 : 0;
    int start = current - 1;
    if (step > 1)
        start = alignUp(current, step) - step; // the largest value with a smaller allocation
    for (int x = start; x >= minimum; x -= step) {
        OccupancyInput probe = input;
        set(probe, x);
        const int w = occupancyWaves(gpu, probe, options);
        if (w > t.waves) {
            hint.text = "reduce " + label + " from " + str(current) + " to " + str(x) + " for " + str(w) + " waves/SIMD";
            return hint;
        }
    }
    std::string others;
    for (const auto& l : limiters)
        if (l != resource)
            others += (others.empty() ? "" : ", ") + l;
    const bool limiting = std::find(limiters.begin(), limiters.end(), resource) != limiters.end();
    hint.text = "reducing " + label + " alone gains nothing: "
        + (others.empty() ? std::string("no smaller value helps")
                          : (limiting ? "also limited by " : "the limit is ") + others + " at " + str(t.waves) + " waves/SIMD");
    return hint;
}

} // namespace

OccupancyLimits occupancyLimits(const GpuTarget& gpu, const TimingOptions& options)
{
    OccupancyLimits L;
    L.maxWaves = gpu.maxWavesPerSimd > 0 ? gpu.maxWavesPerSimd : 10;
    switch (gpu.generation) {
    case Generation::GFX6:
        break; // the defaults are the GFX6 column
    case Generation::GFX7:
        L.ldsPerWorkgroup = 65536;
        L.ldsGranule = 512;
        break;
    case Generation::GFX8:
    case Generation::GFX9:
    case Generation::CDNA:
        L.sgprFile = 800;
        L.sgprGranule = 16;
        L.maxSgprs = 102;
        L.ldsPerWorkgroup = 65536;
        L.ldsGranule = 512;
        break;
    }
    // Iceland/Tonga/Polaris run 8 waves; option polaris-max-waves (section 9) overrides that 8.
    if (gpu.generation == Generation::GFX8 && gpu.maxWavesPerSimd < 10)
        L.maxWaves = options.polarisMaxWaves;
    if (gpu.fixedSgprs)
        L.fixedSgprs = 96;
    if (gpu.generation == Generation::CDNA) {
        L.hasAgprs = true;
        if (gpu.processor != "gfx908") {
            L.unifiedAgprs = true;
            L.vgprFile = 512;
            L.vgprGranule = 8;
        }
    }
    if (options.maxWavesOverride && *options.maxWavesOverride > 0)
        L.maxWaves = *options.maxWavesOverride;
    return L;
}

int extraSgprs(Generation generation, bool vcc, bool flatScratch, bool xnack)
{
    // Section 6 "extra SGPRs". The reservations sit at the top of the SGPR file and nest (VCC
    // below XNACK_MASK below FLAT_SCRATCH), so the numbers are totals, not addends — the same
    // reading as LLVM's AMDGPU backend, which assigns 2, 4 or 6 rather than summing.
    int extra = vcc ? 2 : 0;
    switch (generation) {
    case Generation::GFX6:
        break;
    case Generation::GFX7:
        if (flatScratch)
            extra = 4;
        break;
    default:
        if (xnack)
            extra = 4;
        if (flatScratch)
            extra = 6;
        break;
    }
    return extra;
}

int maxVgprsForWaves(const GpuTarget& gpu, int waves)
{
    const OccupancyLimits L = occupancyLimits(gpu);
    if (waves < 1)
        return 0;
    return std::min(alignDown(L.vgprFile / waves, L.vgprGranule), L.unifiedAgprs ? L.vgprFile : L.maxVgprs);
}

int maxSgprsForWaves(const GpuTarget& gpu, int waves)
{
    const OccupancyLimits L = occupancyLimits(gpu);
    if (waves < 1)
        return 0;
    return std::min(alignDown(L.sgprFile / waves, L.sgprGranule), 128);
}

int ldsDwordsPerLane(int waves)
{
    // 64 KiB per CU over W waves on each of 4 SIMDs × 64 lanes × 4 bytes = 64 / W dwords.
    return waves < 1 ? 0 : 64 / waves;
}

int issueWidth(int waves)
{
    return std::clamp(waves, 0, 5);
}

int occupancyWaves(const GpuTarget& gpu, const OccupancyInput& input, const TimingOptions& options)
{
    const Terms t = evaluate(gpu, input, options);
    return t.error.empty() ? t.waves : -1;
}

OccupancyResult computeOccupancy(const GpuTarget& gpu, const OccupancyInput& input, const TimingOptions& options)
{
    OccupancyResult result;
    const Terms t = evaluate(gpu, input, options);
    if (!t.error.empty()) {
        result.error = t.error;
        return result;
    }
    result.wavesPerSimd = t.waves;
    result.maxWaves = t.maxWaves;
    result.wavesPerWorkgroup = t.wavesPerWorkgroup;
    result.workgroupsPerCu = t.workgroupsPerCu;
    result.wavesPerCu = std::min<long long>(4LL * t.waves, static_cast<long long>(t.workgroupsPerCu) * t.wavesPerWorkgroup);
    result.allocatedVgprs = t.allocatedVgprs;
    result.allocatedSgprs = t.allocatedSgprs;
    result.allocatedLds = t.allocatedLds;
    result.extraSgprs = t.extra;
    result.notes = t.notes;

    const auto cap = [&](int v) { return std::min(v, t.maxWaves); };
    result.limits.emplace_back("waves", t.maxWaves);
    result.limits.emplace_back("vgpr", cap(t.vgpr));
    if (t.limits.hasAgprs)
        result.limits.emplace_back("agpr", cap(t.agpr));
    result.limits.emplace_back("sgpr", cap(t.sgpr));
    result.limits.emplace_back("lds", cap(t.lds));
    result.limits.emplace_back("workgroup", cap(t.workgroup));
    if (input.scratch)
        result.limits.emplace_back("scratch", cap(t.scratchCosts ? t.scratch : kUnlimited));

    const int w = t.waves;
    if (t.maxWaves == w)
        result.limiters.push_back("waves");
    if (t.vgpr == w)
        result.limiters.push_back("vgpr");
    if (t.agpr == w)
        result.limiters.push_back("agpr");
    if (t.sgpr == w)
        result.limiters.push_back("sgpr");
    if (t.scratchCosts && t.scratch == w)
        result.limiters.push_back("scratch");
    if (t.lds == w)
        result.limiters.push_back("lds");
    if (t.workgroupSets)
        result.limiters.push_back("workgroup");

    using Set = std::function<void(OccupancyInput&, int)>;
    result.hints.push_back(hintFor("vgpr", input.vgprs, 1, Set([](OccupancyInput& i, int x) { i.vgprs = x; }), gpu, input,
                                   options, t, result.limiters));
    if (t.limits.hasAgprs && input.agprs > 0)
        result.hints.push_back(hintFor("agpr", input.agprs, 1, Set([](OccupancyInput& i, int x) { i.agprs = x; }), gpu, input,
                                       options, t, result.limiters));
    result.hints.push_back(hintFor("sgpr", input.sgprs, 1, Set([](OccupancyInput& i, int x) { i.sgprs = x; }), gpu, input,
                                   options, t, result.limiters));
    if (input.ldsBytes > 0)
        result.hints.push_back(hintFor("lds", input.ldsBytes, t.limits.ldsGranule,
                                       Set([](OccupancyInput& i, int x) { i.ldsBytes = x; }), gpu, input, options, t,
                                       result.limiters));
    result.hints.push_back(hintFor("workgroup", input.workgroupSize, 1,
                                   Set([](OccupancyInput& i, int x) { i.workgroupSize = x; }), gpu, input, options, t,
                                   result.limiters));
    return result;
}

std::vector<CurvePoint> occupancyCurve(const GpuTarget& gpu, const OccupancyInput& input, CurveAxis axis,
                                       const TimingOptions& options)
{
    const OccupancyLimits L = occupancyLimits(gpu, options);
    std::vector<CurvePoint> curve;
    auto add = [&](int x, OccupancyInput probe) {
        const int w = occupancyWaves(gpu, probe, options);
        if (w >= 0)
            curve.push_back({x, w});
    };
    switch (axis) {
    case CurveAxis::Vgpr:
        for (int x = 1; x <= L.maxVgprs; ++x) {
            OccupancyInput p = input;
            p.vgprs = x;
            add(x, p);
        }
        break;
    case CurveAxis::Sgpr:
        for (int x = 0; x <= L.maxSgprs; ++x) {
            OccupancyInput p = input;
            p.sgprs = x;
            add(x, p);
        }
        break;
    case CurveAxis::Lds:
        for (int x = 0; x <= L.ldsPerWorkgroup; x += L.ldsGranule) {
            OccupancyInput p = input;
            p.ldsBytes = x;
            add(x, p);
        }
        break;
    case CurveAxis::Workgroup:
        for (int x = 1; x <= 1024; ++x) {
            OccupancyInput p = input;
            p.workgroupSize = x;
            add(x, p);
        }
        break;
    }
    return curve;
}

} // namespace gcnlens
