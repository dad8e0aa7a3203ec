// SPDX-License-Identifier: MIT
// `gcnlens-cli occupancy` (issue #4 section 4): waves per SIMD for given resources.
#include "commands.h"

#include "core/model/occupancy.h"

#include "core/present/json.h"

namespace gcnlens::cli {

int occupancyCommand(const Args& args)
{
    std::string gpuName = "tahiti";
    TimingOptions options;
    OccupancyInput input;
    bool asJson = false, noVcc = false;
    OptionParser parser("occupancy");
    parser.addGpu(&gpuName);
    parser.addInt({"--vgprs"}, "N", "VGPRs per lane the kernel uses", &input.vgprs);
    parser.addInt({"--agprs"}, "N", "AGPRs per lane (GFX90A and later)", &input.agprs);
    parser.addInt({"--sgprs"}, "N", "SGPRs the kernel uses (the VCC, FLAT_SCRATCH and XNACK extras are added)", &input.sgprs);
    parser.addInt({"--lds"}, "BYTES", "LDS bytes per workgroup", &input.ldsBytes);
    parser.addInt({"--workgroup"}, "N", "work-items per workgroup (default 64)", &input.workgroupSize);
    parser.addFlag({"--scratch"}, "the kernel uses scratch memory", &input.scratch);
    parser.addFlag({"--trap"}, "a trap handler is enabled", &input.trapHandler);
    parser.addFlag({"--no-vcc"}, "the kernel does not use VCC", &noVcc);
    parser.addFlag({"--flat-scratch"}, "the kernel uses FLAT_SCRATCH", &input.usesFlatScratch);
    parser.addFlag({"--xnack"}, "the kernel uses XNACK_MASK", &input.usesXnack);
    parser.addTimingOptions(options);
    parser.addJson(&asJson);
    parser.setRequired("--vgprs");
    parser.setRequired("--sgprs");
    if (const auto status = parser.parse(args))
        return *status;
    if (noVcc)
        input.usesVcc = false;
    const auto gpu = resolveGpu(gpuName); // checked by the parser

    const OccupancyResult result = computeOccupancy(*gpu, input, options);
    if (asJson) {
        json::writeOccupancy(stdout, result, *gpu);
        return result.error.empty() ? ExitOk : ExitUsage;
    }
    if (!result.error.empty()) {
        printError("occupancy: " + result.error);
        return ExitUsage;
    }
    std::string out =
        std::format("{} ({}), at most {} waves/SIMD\n", gpu->targetId, generationName(gpu->generation), result.maxWaves);
    out += std::format("waves per SIMD: {}\n", result.wavesPerSimd);
    out += std::format("waves per CU:   {}\n", result.wavesPerCu);
    std::string limiters, limits;
    for (const auto& l : result.limiters)
        limiters += (limiters.empty() ? "" : ", ") + l;
    out += "limited by:     " + limiters + "\n";
    for (const auto& [resource, waves] : result.limits)
        limits += std::format("{}{} {}", limits.empty() ? "" : ", ", resource, waves);
    out += "limits:         " + limits + "\n";
    out += std::format("allocated:      {} VGPRs, {} SGPRs (incl. {} extra), {} bytes LDS\n", result.allocatedVgprs,
                       result.allocatedSgprs, result.extraSgprs, result.allocatedLds);
    out += "hints:\n";
    for (const auto& hint : result.hints)
        out += std::format("  {}: {}\n", hint.resource, hint.text);
    for (const auto& note : result.notes)
        out += "note: " + note + "\n";
    print(stdout, out);
    return ExitOk;
}

} // namespace gcnlens::cli
