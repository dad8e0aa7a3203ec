// SPDX-License-Identifier: MIT
// Occupancy (timing-model.md section 6) and kernel resource usage (issue #4).
#pragma once

#include "core/program.h"
#include "core/timing.h"

#include <optional>
#include <string>
#include <vector>

namespace gcnlens {

struct OccupancyInput {
    int vgprs = 0;            // per work-item
    int agprs = 0;            // gfx908/gfx90a/gfx942
    int sgprs = 0;            // user SGPRs; the generation's extras are added (usesVcc etc.)
    bool usesVcc = true;
    bool usesFlatScratch = false;
    bool usesXnack = false;
    int ldsBytes = 0;         // per workgroup
    int workgroupSize = 64;   // work-items
    bool scratch = false;
    bool trapHandler = false;
};

struct OccupancyHint {
    std::string resource;     // vgpr, agpr, sgpr, lds, workgroup
    std::string text;         // "reduce VGPRs to 64 (−4) for 4 waves", or why nothing short of another resource helps
};

struct OccupancyResult {
    std::string error;                     // non-empty: invalid input, no numbers
    int wavesPerSimd = 0;
    int wavesPerCu = 0;
    std::vector<std::string> limiters;     // vgpr, agpr, sgpr, lds, workgroup, waves, scratch
    std::vector<std::pair<std::string, int>> limits; // resource → waves per SIMD it allows
    std::vector<OccupancyHint> hints;
    int allocatedVgprs = 0, allocatedSgprs = 0, allocatedLds = 0; // after granules
};

OccupancyResult computeOccupancy(const GpuTarget& gpu, const OccupancyInput& input,
                                 const TimingOptions& options = {});

struct CurvePoint { int x = 0; int waves = 0; };
enum class CurveAxis { Vgpr, Sgpr, Lds, Workgroup };
// Waves per SIMD as one input varies over its whole range, the others fixed.
std::vector<CurvePoint> occupancyCurve(const GpuTarget& gpu, const OccupancyInput& input, CurveAxis axis,
                                       const TimingOptions& options = {});

struct ResourceUsage {
    int usedVgprs = 0, usedAgprs = 0, usedSgprs = 0;   // from the code (index + 1; SGPRs incl. extras)
    int userSgprs = 0;                                  // highest user SGPR + 1
    bool vcc = false, flatScratch = false, xnack = false;
    std::optional<int> declaredVgprs, declaredAgprs, declaredSgprs, declaredLds, accumOffset;
    std::vector<std::string> warnings;                  // declaration smaller than use, …
};

ResourceUsage kernelResources(const Program& program, int kernel);
// The occupancy input a kernel implies (declared values where present, else used).
OccupancyInput occupancyInputFor(const Program& program, int kernel);

} // namespace gcnlens
