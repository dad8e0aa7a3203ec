// SPDX-License-Identifier: MIT
#include "core/gpu.h"
#include "core/support/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gcnlens {

namespace embedded {
std::string_view gpus_tsv();
}

namespace {

struct ProcessorFacts {
    const char* name;
    Generation generation;
    int maxWaves;      // timing-model.md section 6
    bool fixedSgprs;   // Iceland/Tonga: 96 SGPRs allocated whatever the kernel uses
    bool hasXnack;     // accepts the xnack target-ID feature
    bool hasSramecc;
};

// Every GCN processor LLVM 19 knows from tahiti to gfx906, plus the CDNA parts gcnlens models.
constexpr ProcessorFacts kProcessors[] = {
    {"gfx600", Generation::GFX6, 10, false, false, false},
    {"tahiti", Generation::GFX6, 10, false, false, false},
    {"gfx601", Generation::GFX6, 10, false, false, false},
    {"pitcairn", Generation::GFX6, 10, false, false, false},
    {"verde", Generation::GFX6, 10, false, false, false},
    {"gfx602", Generation::GFX6, 10, false, false, false},
    {"hainan", Generation::GFX6, 10, false, false, false},
    {"oland", Generation::GFX6, 10, false, false, false},
    {"gfx700", Generation::GFX7, 10, false, false, false},
    {"kaveri", Generation::GFX7, 10, false, false, false},
    {"gfx701", Generation::GFX7, 10, false, false, false},
    {"hawaii", Generation::GFX7, 10, false, false, false},
    {"gfx702", Generation::GFX7, 10, false, false, false},
    {"gfx703", Generation::GFX7, 10, false, false, false},
    {"kabini", Generation::GFX7, 10, false, false, false},
    {"mullins", Generation::GFX7, 10, false, false, false},
    {"gfx704", Generation::GFX7, 10, false, false, false},
    {"bonaire", Generation::GFX7, 10, false, false, false},
    {"gfx705", Generation::GFX7, 10, false, false, false},
    {"gfx801", Generation::GFX8, 10, false, true, false},
    {"carrizo", Generation::GFX8, 10, false, true, false},
    {"gfx802", Generation::GFX8, 8, true, false, false},
    {"iceland", Generation::GFX8, 8, true, false, false},
    {"tonga", Generation::GFX8, 8, true, false, false},
    {"gfx803", Generation::GFX8, 10, false, false, false},
    {"fiji", Generation::GFX8, 10, false, false, false},
    {"polaris10", Generation::GFX8, 8, false, false, false},
    {"polaris11", Generation::GFX8, 8, false, false, false},
    {"gfx805", Generation::GFX8, 8, true, false, false},
    {"tongapro", Generation::GFX8, 8, true, false, false},
    {"gfx810", Generation::GFX8, 10, false, true, false},
    {"stoney", Generation::GFX8, 10, false, true, false},
    {"gfx900", Generation::GFX9, 10, false, true, false},
    {"gfx902", Generation::GFX9, 10, false, true, false},
    {"gfx904", Generation::GFX9, 10, false, true, false},
    {"gfx906", Generation::GFX9, 10, false, true, true},
    {"gfx909", Generation::GFX9, 10, false, true, false},
    {"gfx90c", Generation::GFX9, 10, false, true, false},
    {"gfx908", Generation::CDNA, 10, false, true, true},
    {"gfx90a", Generation::CDNA, 8, false, true, true},
    {"gfx942", Generation::CDNA, 8, false, true, true},
};

// polaris12 is a product name LLVM does not know; it is gfx803 silicon like polaris10/11.
constexpr std::pair<const char*, const char*> kAliases[] = {{"polaris12", "polaris11"}};

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

using detail::forEachTsvRow;
using detail::trim;

const ProcessorFacts* findProcessor(std::string_view name)
{
    for (const auto& alias : kAliases)
        if (name == alias.first)
            name = alias.second;
    for (const auto& facts : kProcessors)
        if (name == facts.name)
            return &facts;
    return nullptr;
}

std::vector<GpuPreset> parsePresets(std::string_view text)
{
    std::vector<GpuPreset> presets;
    forEachTsvRow(text, [&](const std::vector<std::string_view>& cells) {
        if (cells.size() < 4)
            return; // a malformed row is caught by tst_gpu, which counts rows
        GpuPreset preset;
        preset.name = std::string(cells[0]);
        preset.processor = std::string(cells[1]);
        std::from_chars(cells[2].data(), cells[2].data() + cells[2].size(), preset.dpfactor);
        std::from_chars(cells[3].data(), cells[3].data() + cells[3].size(), preset.computeUnits);
        presets.push_back(std::move(preset));
    });
    return presets;
}

GpuTarget targetFor(const ProcessorFacts& facts)
{
    GpuTarget target;
    target.processor = facts.name;
    target.targetId = facts.name;
    target.generation = facts.generation;
    target.maxWavesPerSimd = facts.maxWaves;
    target.fixedSgprs = facts.fixedSgprs;
    // Section 1: every part not named there runs DP at 1/16.
    target.dpfactor = 8;
    return target;
}

} // namespace

std::string_view generationName(Generation generation)
{
    switch (generation) {
    case Generation::GFX6: return "GFX6";
    case Generation::GFX7: return "GFX7";
    case Generation::GFX8: return "GFX8";
    case Generation::GFX9: return "GFX9";
    case Generation::CDNA: return "CDNA";
    }
    return "?";
}

const std::vector<GpuPreset>& gpuPresets()
{
    static const std::vector<GpuPreset> presets = parsePresets(embedded::gpus_tsv());
    return presets;
}

const std::vector<std::string>& knownProcessors()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& facts : kProcessors)
            out.emplace_back(facts.name);
        for (const auto& alias : kAliases)
            out.emplace_back(alias.first);
        return out;
    }();
    return names;
}

std::optional<GpuTarget> resolveGpu(std::string_view name, std::string* error)
{
    const std::string wanted(trim(name));
    for (const auto& preset : gpuPresets()) {
        if (lower(preset.name) != lower(wanted))
            continue;
        const ProcessorFacts* facts = findProcessor(preset.processor);
        if (!facts) {
            if (error)
                *error = "preset '" + preset.name + "' names unknown processor '" + preset.processor + "'";
            return std::nullopt;
        }
        GpuTarget target = targetFor(*facts);
        target.name = wanted;
        target.product = preset.name;
        target.dpfactor = preset.dpfactor;
        target.computeUnits = preset.computeUnits;
        // Polaris products are gfx803 like Fiji, but section 6 gives them 8 waves.
        if (lower(preset.name).find("rx 4") != std::string::npos || preset.processor.starts_with("polaris"))
            target.maxWavesPerSimd = 8;
        return target;
    }

    // A ROCm target ID: processor[:feature(+|-)]…
    std::string_view rest = wanted;
    const auto colon = rest.find(':');
    const std::string processor = lower(rest.substr(0, colon));
    const ProcessorFacts* facts = findProcessor(processor);
    if (!facts) {
        if (error)
            *error = "unknown GPU '" + wanted + "': give a product preset (e.g. \"Radeon HD 7970\") or an LLVM "
                     "processor from tahiti to gfx906, gfx908, gfx90a or gfx942";
        return std::nullopt;
    }
    GpuTarget target = targetFor(*facts);
    target.name = wanted;
    std::string canonical = processor;
    std::string features;
    if (colon != std::string_view::npos) {
        rest.remove_prefix(colon + 1);
        while (!rest.empty()) {
            const auto next = rest.find(':');
            const std::string_view feature = rest.substr(0, next);
            rest = next == std::string_view::npos ? std::string_view {} : rest.substr(next + 1);
            if (feature.size() < 2 || (feature.back() != '+' && feature.back() != '-')) {
                if (error)
                    *error = "bad target-ID feature '" + std::string(feature) + "' in '" + wanted
                             + "': write xnack+, xnack-, sramecc+ or sramecc-";
                return std::nullopt;
            }
            const std::string base(feature.substr(0, feature.size() - 1));
            const bool supported = (base == "xnack" && facts->hasXnack) || (base == "sramecc" && facts->hasSramecc);
            if (!supported) {
                if (error)
                    *error = "'" + std::string(feature) + "' in '" + wanted + "': " + processor
                             + " has no " + base + " setting";
                return std::nullopt;
            }
            if (!features.empty())
                features += ',';
            features += std::string(1, feature.back()) + base;
            canonical += ':' + std::string(feature);
        }
    }
    target.features = features;
    target.targetId = canonical;
    return target;
}

} // namespace gcnlens
