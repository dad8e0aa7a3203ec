// SPDX-License-Identifier: MIT
// Occupancy (timing-model.md section 6) and kernel resource usage (issue #4).
#pragma once

#include "core/model/timing.h"
#include "core/program.h"

#include <optional>
#include <string>
#include <vector>

namespace gcnlens {

struct OccupancyInput {
    int vgprs = 0; // per work-item
    int agprs = 0; // gfx908/gfx90a/gfx942
    int sgprs = 0; // user SGPRs; the generation's extras are added (usesVcc etc.)
    bool usesVcc = true;
    bool usesFlatScratch = false;
    bool usesXnack = false;
    int ldsBytes = 0;       // per workgroup
    int workgroupSize = 64; // work-items
    bool scratch = false;
    bool trapHandler = false;
};

struct OccupancyHint {
    std::string resource; // vgpr, agpr, sgpr, lds, workgroup
    std::string text;     // "reduce VGPRs to 64 (−4) for 4 waves", or why nothing short of another resource helps
};

struct OccupancyResult {
    std::string error; // non-empty: invalid input, no numbers
    int wavesPerSimd = 0;
    int wavesPerCu = 0;
    std::vector<std::string> limiters;               // vgpr, agpr, sgpr, lds, workgroup, waves, scratch
    std::vector<std::pair<std::string, int>> limits; // resource → waves per SIMD it allows
    std::vector<OccupancyHint> hints;
    int allocatedVgprs = 0, allocatedSgprs = 0, allocatedLds = 0; // after granules
    int maxWaves = 0;                                             // W_max after options (polaris-max-waves, max-waves-override)
    int extraSgprs = 0; // VCC / flat scratch / XNACK reservation added to the user count
    int wavesPerWorkgroup = 0;
    int workgroupsPerCu = 0;
    std::vector<std::string> notes; // readings the result depends on (scratch, fixed SGPRs, …)
};

// The section 6 table for one target, options applied.
struct OccupancyLimits {
    int maxWaves = 10;
    int vgprFile = 256, vgprGranule = 4, maxVgprs = 256;
    bool hasAgprs = false;                               // gfx908, gfx90a, gfx942
    bool unifiedAgprs = false;                           // gfx90a/gfx942: VGPRs and AGPRs share one 512-entry file
    int sgprFile = 512, sgprGranule = 8, maxSgprs = 104; // maxSgprs: addressable user SGPRs
    int fixedSgprs = 0;                                  // Iceland/Tonga: 96, allocated whatever the kernel uses
    int ldsPerCu = 65536, ldsPerWorkgroup = 32768, ldsGranule = 256;
};
OccupancyLimits occupancyLimits(const GpuTarget& gpu, const TimingOptions& options = {});

// Extra SGPRs reserved on top of the user count (section 6 "extra SGPRs"). The values are
// cumulative reservations, so the largest that applies counts (VCC 2 < XNACK 4 < flat scratch 6).
int extraSgprs(Generation generation, bool vcc, bool flatScratch, bool xnack);

// The GcnTimings.md occupancy table columns for `waves` waves per SIMD on this target.
int maxVgprsForWaves(const GpuTarget& gpu, int waves); // GFX6/7: 256, 128, 84, …, 24
int maxSgprsForWaves(const GpuTarget& gpu, int waves); // GFX6/7: 128 ×4, 96, 80, …, 48 (incl. extras)
int ldsDwordsPerLane(int waves);                       // floor(64 / W)
int issueWidth(int waves);                             // min(W, 5)

OccupancyResult computeOccupancy(const GpuTarget& gpu, const OccupancyInput& input, const TimingOptions& options = {});
// computeOccupancy's waves per SIMD alone, -1 where it gives an error: without the hints, which
// probe every smaller and larger value of each resource (a search over many inputs asks this).
int occupancyWaves(const GpuTarget& gpu, const OccupancyInput& input, const TimingOptions& options = {});

struct CurvePoint {
    int x = 0;
    int waves = 0;
};
enum class CurveAxis { Vgpr, Sgpr, Lds, Workgroup };
// Waves per SIMD as one input varies over its whole range, the others fixed.
std::vector<CurvePoint> occupancyCurve(const GpuTarget& gpu, const OccupancyInput& input, CurveAxis axis,
                                       const TimingOptions& options = {});

struct ResourceUsage {
    int usedVgprs = 0, usedAgprs = 0, usedSgprs = 0; // from the code (index + 1; SGPRs incl. extras)
    int userSgprs = 0;                               // highest user SGPR + 1
    bool vcc = false, flatScratch = false, xnack = false;
    std::optional<int> declaredVgprs, declaredAgprs, declaredSgprs, declaredLds, accumOffset;
    std::vector<std::string> warnings; // declaration smaller than use, …
    // Whether declaredSgprs already includes the VCC/flat-scratch/XNACK extras (amd_kernel_code_t
    // wavefront_sgpr_count and granulated counts do; .amdhsa_next_free_sgpr and .sgprsnum do not).
    bool declaredSgprsIncludeExtras = false;
    int extraSgprs = 0;                                               // the extras counted in usedSgprs
    std::optional<bool> reserveVcc, reserveFlatScratch, reserveXnack; // .amdhsa_reserve_* as declared
    std::optional<int> declaredScratch;                               // private segment bytes per work-item
    std::optional<int> declaredWorkgroup; // work-items: metadata .reqd_workgroup_size, else .max_flat_workgroup_size
};

ResourceUsage kernelResources(const Program& program, int kernel);
// The occupancy input a kernel implies (declared values where present, else used).
OccupancyInput occupancyInputFor(const Program& program, int kernel);

} // namespace gcnlens
