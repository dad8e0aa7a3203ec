// SPDX-License-Identifier: MIT
// Kernel resource usage (issue #4 section 2): what the code uses (highest register index + 1, plus
// the section 6 extra SGPRs) next to what the source declares, and the occupancy input they imply.
#include "core/model/occupancy.h"

#include <algorithm>

namespace gcnlens {

namespace {

std::string str(long long v)
{
    return std::to_string(v);
}

bool isUnified(const GpuTarget& gpu)
{
    return gpu.generation == Generation::CDNA && gpu.processor != "gfx908";
}

} // namespace

ResourceUsage kernelResources(const Program& program, int kernel)
{
    ResourceUsage usage;
    const RegisterUsage& regs = kernel >= 0 && kernel < static_cast<int>(program.kernelRegisters.size())
        ? program.kernelRegisters[kernel]
        : program.registers;
    // maxVgpr etc. already count a range to its end (v[4:7] → 7), so + 1 is the count.
    usage.usedVgprs = regs.maxVgpr + 1;
    usage.usedAgprs = regs.maxAgpr + 1;
    usage.userSgprs = regs.maxSgpr + 1;
    usage.vcc = regs.vcc;
    usage.flatScratch = regs.flatScratch;
    usage.xnack = regs.xnackMask;
    usage.extraSgprs = extraSgprs(program.gpu.generation, usage.vcc, usage.flatScratch, usage.xnack);
    usage.usedSgprs = usage.userSgprs + usage.extraSgprs;

    // Directives of this kernel; with a single kernel, also those the front-end could not attach.
    const bool single = program.kernels.size() <= 1;
    std::optional<int> amdhsaVgprs, codeVgprs, codeVgprBlocks, codeSgprs, codeSgprBlocks;
    const int vgprGranule = isUnified(program.gpu) ? 8 : 4;
    for (const ResourceDirective& d : program.directives) {
        if (d.kernel != kernel && !(single && d.kernel < 0))
            continue;
        const int v = static_cast<int>(d.value);
        const std::string& n = d.name;
        if (n == ".amdhsa_next_free_vgpr")
            amdhsaVgprs = v;
        else if (n == ".vgprsnum" || n == "workitem_vgpr_count")
            codeVgprs = v;
        else if (n == "granulated_workitem_vgpr_count" || n == "granulated_wavefront_sgpr_count") {
            // COMPUTE_PGM_RSRC1's VGPR (6-bit) and SGPR (4-bit) block fields: a listing may say
            // anything, and what no descriptor can hold declares nothing (nor overflows below).
            const bool vgpr = n == "granulated_workitem_vgpr_count";
            const std::int64_t field = vgpr ? 63 : 15;
            if (d.value < 0 || d.value > field) {
                usage.warnings.push_back(n + " " + std::to_string(d.value) + " does not fit the descriptor's "
                                         + (vgpr ? "6" : "4") + "-bit field (0-" + std::to_string(field) + "); ignored");
                continue;
            }
            (vgpr ? codeVgprBlocks : codeSgprBlocks) = (v + 1) * (vgpr ? vgprGranule : 8); // SGPR encoding granule 8
        } else if (n == ".amdhsa_next_free_sgpr" || n == ".sgprsnum")
            usage.declaredSgprs = v; // user SGPRs
        else if (n == "wavefront_sgpr_count")
            codeSgprs = v; // incl. extras
        else if (n == ".amdhsa_group_segment_fixed_size" || n == "workgroup_group_segment_byte_size" || n == ".localsize")
            usage.declaredLds = v;
        else if (n == ".amdhsa_accum_offset" || n == "accum_offset")
            usage.accumOffset = v;
        else if (n == ".amdhsa_reserve_vcc")
            usage.reserveVcc = v != 0;
        else if (n == ".amdhsa_reserve_flat_scratch")
            usage.reserveFlatScratch = v != 0;
        else if (n == ".amdhsa_reserve_xnack_mask")
            usage.reserveXnack = v != 0;
        else if (n == ".reqd_workgroup_size")
            usage.declaredWorkgroup = v; // code object metadata (objectreader)
        else if (n == ".max_flat_workgroup_size" && !usage.declaredWorkgroup)
            usage.declaredWorkgroup = v;
        else if (n == ".amdhsa_private_segment_fixed_size" || n == "workitem_private_segment_byte_size" || n == ".scratchbuffer")
            usage.declaredScratch = v;
    }
    if (amdhsaVgprs)
        usage.declaredVgprs = amdhsaVgprs;
    else if (codeVgprs)
        usage.declaredVgprs = codeVgprs;
    else if (codeVgprBlocks)
        usage.declaredVgprs = codeVgprBlocks;
    if (!usage.declaredSgprs && (codeSgprs || codeSgprBlocks)) {
        usage.declaredSgprs = codeSgprs ? codeSgprs : codeSgprBlocks;
        usage.declaredSgprsIncludeExtras = true;
    }
    if (usage.declaredVgprs && program.gpu.generation == Generation::CDNA) {
        if (isUnified(program.gpu) && usage.accumOffset) {
            // gfx90a/gfx942: next_free_vgpr counts the unified file; AGPRs start at accum_offset.
            usage.declaredAgprs = std::max(0, *usage.declaredVgprs - *usage.accumOffset);
            usage.declaredVgprs = usage.accumOffset;
        } else if (!isUnified(program.gpu)) {
            usage.declaredAgprs = usage.declaredVgprs; // gfx908: next_free_vgpr = max(VGPRs, AGPRs)
        }
    }

    auto warn = [&](const char* what, std::optional<int> declared, int used) {
        if (declared && *declared < used)
            usage.warnings.push_back(std::string("declared ") + what + " " + str(*declared) + " < " + str(used)
                                     + " used by the code");
    };
    warn("VGPRs", usage.declaredVgprs, usage.usedVgprs);
    warn("AGPRs", usage.declaredAgprs, usage.usedAgprs);
    warn("SGPRs", usage.declaredSgprs, usage.declaredSgprsIncludeExtras ? usage.usedSgprs : usage.userSgprs);
    if (isUnified(program.gpu) && usage.accumOffset && usage.usedAgprs > 0 && *usage.accumOffset < usage.usedVgprs)
        usage.warnings.push_back("accum_offset " + str(*usage.accumOffset) + " < " + str(usage.usedVgprs)
                                 + " VGPRs used: AGPRs overlap VGPRs");
    return usage;
}

OccupancyInput occupancyInputFor(const Program& program, int kernel)
{
    const ResourceUsage u = kernelResources(program, kernel);
    OccupancyInput in;
    in.usesVcc = u.reserveVcc.value_or(u.vcc);
    in.usesFlatScratch = u.reserveFlatScratch.value_or(u.flatScratch);
    const bool xnackOn = program.gpu.features.find("+xnack") != std::string::npos;
    in.usesXnack = u.reserveXnack.value_or(u.xnack || xnackOn);
    in.vgprs = u.declaredVgprs.value_or(u.usedVgprs);
    in.agprs = u.declaredAgprs.value_or(u.usedAgprs);
    if (u.declaredSgprs && u.declaredSgprsIncludeExtras)
        in.sgprs =
            std::max(0, *u.declaredSgprs - extraSgprs(program.gpu.generation, in.usesVcc, in.usesFlatScratch, in.usesXnack));
    else
        in.sgprs = u.declaredSgprs.value_or(u.userSgprs);
    in.ldsBytes = u.declaredLds.value_or(0);
    // A declared workgroup size (CLRX .cws / .reqd_work_group_size: the product of its dimensions).
    for (const ResourceDirective& d : program.directives)
        if (d.name == ".cws" && d.value >= 1 && d.value <= 1024
            && (d.kernel == kernel || (program.kernels.size() <= 1 && d.kernel < 0)))
            in.workgroupSize = static_cast<int>(d.value);
    in.scratch = u.declaredScratch.value_or(0) > 0;
    if (u.declaredWorkgroup && *u.declaredWorkgroup > 0)
        in.workgroupSize = *u.declaredWorkgroup;
    return in;
}

} // namespace gcnlens
