// SPDX-License-Identifier: MIT
// GPU targets: LLVM processor names, ROCm target IDs and product presets (resources/gpus.tsv).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gcnlens {

// timing-model.md section 1: the generations the model distinguishes.
enum class Generation { GFX6, GFX7, GFX8, GFX9, CDNA };

std::string_view generationName(Generation generation); // "GFX6" … "CDNA"

// A resolved target: what the assembler gets and what the models need.
struct GpuTarget {
    std::string name;      // as the user gave it ("Radeon VII", "gfx906:xnack-")
    std::string product;   // preset name, or empty when a processor name was given
    std::string processor; // LLVM processor ("tahiti", "gfx906")
    std::string features;  // LLVM feature string from a target ID ("-xnack,+sramecc"), may be empty
    std::string targetId;  // canonical ROCm target ID ("gfx906:xnack-"), processor when no features
    Generation generation = Generation::GFX6;
    int dpfactor = 8; // timing-model.md section 1 (DP rate 1/2 → 1 … 1/16 → 8)
    // Why this DPFACTOR: the preset's DP rate, or for a bare processor the rate its products
    // share or its most common part ("tahiti: every product has DP 1/4 (HD 7970/7950, …)").
    std::string dpfactorSource;
    int computeUnits = 0;     // 0 when unknown (a bare processor name)
    int maxWavesPerSimd = 10; // timing-model.md section 6 (8 on Iceland/Tonga/Polaris, gfx90a/gfx942)
    bool fixedSgprs = false;  // Iceland/Tonga: 96 SGPRs always allocated (section 6)
};

struct GpuPreset {
    std::string name;
    std::string processor;
    int dpfactor = 8;
    int computeUnits = 0;
};

// Every product preset from resources/gpus.tsv, in file order.
const std::vector<GpuPreset>& gpuPresets();

// The product presets built on a processor (aliases resolved: "gfx701" and "hawaii" give the
// same list), in file order; what the window offers next to a bare processor's DP factor.
std::vector<GpuPreset> presetsFor(std::string_view processor);

// Every LLVM processor name gcnlens accepts (tahiti … gfx906, gfx908, gfx90a, gfx942).
const std::vector<std::string>& knownProcessors();

// Resolves a preset name (case-insensitive), an LLVM processor name or a ROCm target ID with
// features ("gfx90a:sramecc+:xnack-"). On failure returns nullopt and says why in *error.
std::optional<GpuTarget> resolveGpu(std::string_view name, std::string* error = nullptr);

} // namespace gcnlens
