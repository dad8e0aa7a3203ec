// SPDX-License-Identifier: MIT
// LLVM's per-processor scheduling model through the MC layer: MCSubtargetInfo::getSchedModel, the
// opcode's MCInstrDesc::getSchedClass, its MCSchedClassDesc's write-resource entries
// (ReleaseAtCycles on the AMDGPU units) and latency, as llvm-mca reads them.
#include "core/model/schedmodel.h"

#include "core/asm/llvmkit_p.h"

#include <llvm/MC/MCSchedule.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

namespace gcnlens {

namespace {

constexpr int kCyclesPerPass = 4; // a wave64 passes a 16-lane SIMD in 4 cycles (timing-model.md §1)

// One processor's LLVM objects and the answers already read from them.
struct ProcessorModel {
    std::unique_ptr<detail::TargetKit> kit;
    unsigned opcodes = 0;
    // Only the opcodes asked for (a kernel uses a few hundred of LLVM's ~20,000): a slot per
    // opcode was megabytes to clear on every process's first question.
    std::unordered_map<unsigned, SchedInfo> byOpcode;
};

std::mutex& modelsMutex()
{
    static std::mutex mutex;
    return mutex;
}

ProcessorModel& modelFor(const GpuTarget& gpu)
{
    static std::map<std::string, ProcessorModel> models; // guarded by modelsMutex()
    ProcessorModel& model = models[gpu.processor];
    if (!model.kit) {
        GpuTarget plain = gpu;
        plain.features.clear(); // xnack/sramecc do not change the scheduling model
        model.kit = detail::makeTargetKit(plain, "amdgcn-amd-amdhsa");
        if (model.kit->error.empty())
            model.opcodes = model.kit->instrInfo->getNumOpcodes();
    }
    return model;
}

bool isMemoryUnit(std::string_view unit)
{
    return unit == "HWVMEM" || unit == "HWLGKM" || unit == "HWExport" || unit == "HWBranch";
}

SchedInfo readSchedInfo(const detail::TargetKit& kit, unsigned opcode)
{
    SchedInfo info;
    const llvm::MCSubtargetInfo& sti = *kit.subtargetInfo;
    const llvm::MCSchedModel& model = sti.getSchedModel();
    info.opcodeName = kit.instrInfo->getName(opcode).str();
    if (!model.hasInstrSchedModel())
        return info;
    const llvm::MCSchedClassDesc* desc = model.getSchedClassDesc(kit.instrInfo->get(opcode).getSchedClass());
    // A variant class is resolved from the operands of an MCInst (resolveVariantSchedClass); in
    // LLVM 19's AMDGPU model only the COPY pseudo has one, which no kernel contains.
    if (!desc || !desc->isValid() || desc->isVariant())
        return info;
    std::string name = desc->Name ? desc->Name : "";
    // InstRW classes are named after every opcode they cover, joined: name this one instead.
    if (name.size() > 48 && name.find(info.opcodeName) != std::string::npos)
        name = "InstRW(" + info.opcodeName + ")";
    info.className = name;
    info.latency = llvm::MCSchedModel::computeInstrLatency(sti, *desc);
    for (const llvm::MCWriteProcResEntry* w = sti.getWriteProcResBegin(desc); w != sti.getWriteProcResEnd(desc); ++w) {
        const std::string unit = model.getProcResource(w->ProcResourceIdx)->Name;
        const int cycles = static_cast<int>(w->ReleaseAtCycle);
        info.units.emplace_back(unit, cycles);
        info.memoryUnit = info.memoryUnit || isMemoryUnit(unit);
        if (unit == "HWXDL" || unit == "HWVALU")
            info.passes = std::max(info.passes, cycles);
    }
    if (info.units.empty())
        return info;
    int busy = 0;
    for (const auto& unit : info.units)
        busy = std::max(busy, unit.second);
    // On a memory, export or branch unit the latency is the memory's, not the issue's; on the
    // ALUs LLVM gives quarter-rate and transcendental ops one unit cycle and a latency of 4,
    // which is their issue time on a 16-lane SIMD (GcnTimings.md: V_EXP_F32 16 cycles).
    info.cycles = kCyclesPerPass * (info.memoryUnit ? busy : std::max(busy, info.latency));
    info.valid = true;
    return info;
}

// LLVM 19's encoding-family suffixes of real opcodes, by target (see instructionCatalog).
bool belongsTo(std::string_view name, const GpuTarget& gpu)
{
    auto endsWith = [&](std::string_view suffix) { return name.ends_with(suffix); };
    const bool matrix = name.find("MFMA") != std::string_view::npos || name.find("ACCVGPR") != std::string_view::npos;
    switch (gpu.generation) {
    case Generation::GFX6:
        return endsWith("_si") || endsWith("_gfx6_gfx7");
    case Generation::GFX7:
        return endsWith("_si") || endsWith("_ci") || endsWith("_gfx6_gfx7") || endsWith("_gfx7");
    case Generation::GFX8:
        return endsWith("_vi") || name.find("_gfx80") != std::string_view::npos;
    case Generation::GFX9:
        return !matrix && (endsWith("_vi") || endsWith("_gfx9"));
    case Generation::CDNA:
        break;
    }
    if (endsWith("_vi") || endsWith("_gfx9"))
        return true;
    const bool gfx90a = name.find("_gfx90a") != std::string_view::npos;
    const bool gfx940 = name.find("_gfx940") != std::string_view::npos;
    if (gpu.processor == "gfx908")
        return false;
    if (gpu.processor == "gfx90a")
        return gfx90a;
    return gfx90a || gfx940; // gfx942
}

} // namespace

std::string SchedInfo::detail() const
{
    std::string out = className + ":";
    for (std::size_t i = 0; i < units.size(); ++i)
        out += (i ? ", " : " ") + units[i].first + " " + std::to_string(units[i].second)
            + (units[i].second == 1 ? " pass" : " passes");
    out += ", latency " + std::to_string(latency);
    return out;
}

SchedInfo llvmSchedInfo(const GpuTarget& gpu, unsigned opcode)
{
    std::lock_guard lock(modelsMutex());
    ProcessorModel& model = modelFor(gpu);
    if (!model.kit->error.empty() || opcode == 0 || opcode >= model.opcodes)
        return {};
    auto slot = model.byOpcode.find(opcode);
    if (slot == model.byOpcode.end())
        slot = model.byOpcode.emplace(opcode, readSchedInfo(*model.kit, opcode)).first;
    return slot->second;
}

std::vector<OpcodeInfo> instructionCatalog(const GpuTarget& gpu)
{
    std::lock_guard lock(modelsMutex());
    ProcessorModel& model = modelFor(gpu);
    std::vector<OpcodeInfo> out;
    if (!model.kit->error.empty())
        return out;
    const detail::TargetKit& kit = *model.kit;
    std::unique_ptr<llvm::MCInstPrinter> printer(
        kit.target->createMCInstPrinter(kit.triple, 0, *kit.asmInfo, *kit.instrInfo, *kit.registerInfo));
    // The printer adds _e32/_e64/_sdwa/_dpp after the mnemonic from the destination operand, so
    // the suffix comes from LLVM's opcode name here; VOP3 prints _e64 only for an op that also
    // has a 32-bit encoding (v_add_f32_e64, not v_fma_f32).
    auto marker = [](std::string_view name) -> std::string_view {
        for (std::string_view m : {"_e32", "_e64", "_sdwa", "_dpp"})
            if (const auto at = name.find(m); at != std::string_view::npos)
                return name.substr(at, m.size());
        return {};
    };
    std::set<std::string> with32; // opcode names before their _e32
    for (unsigned opcode = 1; opcode < kit.instrInfo->getNumOpcodes(); ++opcode) {
        const std::string name = kit.instrInfo->getName(opcode).str();
        if (const auto at = name.find("_e32"); at != std::string::npos)
            with32.insert(name.substr(0, at));
    }
    for (unsigned opcode = 1; opcode < kit.instrInfo->getNumOpcodes(); ++opcode) {
        const std::string name = kit.instrInfo->getName(opcode).str();
        if (!belongsTo(name, gpu))
            continue;
        // The printer's mnemonic depends on the opcode alone (the AsmWriter's fixed prefix).
        llvm::MCInst inst;
        inst.setOpcode(opcode);
        const char* text = printer->getMnemonic(&inst).first;
        if (!text)
            continue;
        std::string mnemonic(text);
        mnemonic.resize(std::min(mnemonic.size(), mnemonic.find_first_of(" \t")));
        if (mnemonic.empty())
            continue;
        const std::string_view m = marker(name);
        if (m == "_e64" ? with32.count(name.substr(0, name.find("_e64"))) > 0 : !m.empty())
            mnemonic += m;
        out.push_back(
            {opcode, name, std::move(mnemonic), detail::familyFromFlags(kit.instrInfo->get(opcode).TSFlags, gpu.generation)});
    }
    return out;
}

std::vector<std::string> allMnemonics(const GpuTarget& gpu)
{
    std::vector<std::string> out;
    for (auto& info : instructionCatalog(gpu))
        out.push_back(std::move(info.mnemonic));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace gcnlens
