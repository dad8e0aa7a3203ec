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
    int maxWaves;    // timing-model.md section 6
    bool fixedSgprs; // Iceland/Tonga: 96 SGPRs allocated whatever the kernel uses
    bool hasXnack;   // accepts the xnack target-ID feature
    bool hasSramecc;
};

// Every GCN processor LLVM 19 knows from tahiti to gfx906, plus the CDNA parts gcnlens models.
constexpr ProcessorFacts kProcessors[] = {
    {"gfx600", Generation::GFX6, 10, false, false, false},   {"tahiti", Generation::GFX6, 10, false, false, false},
    {"gfx601", Generation::GFX6, 10, false, false, false},   {"pitcairn", Generation::GFX6, 10, false, false, false},
    {"verde", Generation::GFX6, 10, false, false, false},    {"gfx602", Generation::GFX6, 10, false, false, false},
    {"hainan", Generation::GFX6, 10, false, false, false},   {"oland", Generation::GFX6, 10, false, false, false},
    {"gfx700", Generation::GFX7, 10, false, false, false},   {"kaveri", Generation::GFX7, 10, false, false, false},
    {"gfx701", Generation::GFX7, 10, false, false, false},   {"hawaii", Generation::GFX7, 10, false, false, false},
    {"gfx702", Generation::GFX7, 10, false, false, false},   {"gfx703", Generation::GFX7, 10, false, false, false},
    {"kabini", Generation::GFX7, 10, false, false, false},   {"mullins", Generation::GFX7, 10, false, false, false},
    {"gfx704", Generation::GFX7, 10, false, false, false},   {"bonaire", Generation::GFX7, 10, false, false, false},
    {"gfx705", Generation::GFX7, 10, false, false, false},   {"gfx801", Generation::GFX8, 10, false, true, false},
    {"carrizo", Generation::GFX8, 10, false, true, false},   {"gfx802", Generation::GFX8, 8, true, false, false},
    {"iceland", Generation::GFX8, 8, true, false, false},    {"tonga", Generation::GFX8, 8, true, false, false},
    {"gfx803", Generation::GFX8, 10, false, false, false},   {"fiji", Generation::GFX8, 10, false, false, false},
    {"polaris10", Generation::GFX8, 8, false, false, false}, {"polaris11", Generation::GFX8, 8, false, false, false},
    {"gfx805", Generation::GFX8, 8, true, false, false},     {"tongapro", Generation::GFX8, 8, true, false, false},
    {"gfx810", Generation::GFX8, 10, false, true, false},    {"stoney", Generation::GFX8, 10, false, true, false},
    {"gfx900", Generation::GFX9, 10, false, true, false},    {"gfx902", Generation::GFX9, 10, false, true, false},
    {"gfx904", Generation::GFX9, 10, false, true, false},    {"gfx906", Generation::GFX9, 10, false, true, true},
    {"gfx909", Generation::GFX9, 10, false, true, false},    {"gfx90c", Generation::GFX9, 10, false, true, false},
    {"gfx908", Generation::CDNA, 10, false, true, true},     {"gfx90a", Generation::CDNA, 8, false, true, true},
    {"gfx942", Generation::CDNA, 8, false, true, true},
};

// timing-model.md section 1: the DP rate of a bare processor. The processors that are one chip
// (one LLVM gfx number) share a row; the reason names the products it was read from (AMD's
// product specifications) and, where they differ, the part chosen and how to pick the others.
struct DpFacts {
    std::string_view processors[4]; // one chip's LLVM names; unused entries empty
    int dpfactor;
    const char* reason;
};
const DpFacts kDpFactors[] = {
    {{"gfx600", "tahiti"}, 2, "every product has DP 1/4 (HD 7970/7950, R9 280/280X, FirePro W8000/W9000/S9000)"},
    {{"gfx601", "pitcairn", "verde"},
     8,
     "every product has DP 1/16 (HD 7870/7850, HD 7770/7750, R7 250/265, FirePro W5000/W7000)"},
    {{"gfx602", "hainan", "oland"}, 8, "every product has DP 1/16 (HD 8570, R7 240/250, HD 8750M and other mobile parts)"},
    {{"gfx700", "kaveri"}, 8, "every product has DP 1/16 (Kaveri APUs, A10-7850K …)"},
    {{"gfx701", "hawaii"},
     4,
     "most common part: Radeon R9 290/290X/390/390X have DP 1/8; FirePro W8100/W9100/S9150 have DP 1/2 "
     "(choose the FirePro W9100 or S9150 preset)"},
    {{"gfx702"}, 4, "every product has DP 1/8 (Radeon R9 290/290X/390/390X)"},
    {{"gfx703", "kabini", "mullins"}, 8, "every product has DP 1/16 (Kabini and Mullins APUs)"},
    {{"gfx704", "bonaire"}, 8, "every product has DP 1/16 (HD 7790, R7 260/260X)"},
    {{"gfx705"}, 8, "every product has DP 1/16 (Kaveri-family APUs)"},
    {{"gfx801", "carrizo"}, 8, "every product has DP 1/16 (Carrizo APUs)"},
    {{"gfx802", "iceland", "tonga"}, 8, "every product has DP 1/16 (R9 285/380/380X, R7 M260 …)"},
    {{"gfx803", "fiji", "polaris10", "polaris11"}, 8, "every product has DP 1/16 (R9 Fury/Nano, RX 460–590, FirePro S9300 x2)"},
    {{"gfx805", "tongapro"}, 8, "every product has DP 1/16 (Tonga Pro)"},
    {{"gfx810", "stoney"}, 8, "every product has DP 1/16 (Stoney Ridge APUs)"},
    {{"gfx900"}, 8, "every product has DP 1/16 (RX Vega 56/64, Vega Frontier Edition, Instinct MI25)"},
    {{"gfx902", "gfx909", "gfx90c"}, 8, "every product has DP 1/16 (Raven, Picasso, Renoir-family APUs)"},
    {{"gfx904"}, 8, "every product has DP 1/16 (Vega 12: Radeon Pro Vega 16/20)"},
    {{"gfx906"},
     1,
     "most common part: Instinct MI50/MI60 and Radeon Pro VII have DP 1/2; Radeon VII has DP 1/4 "
     "(choose the Radeon VII preset)"},
    {{"gfx908"}, 1, "CDNA: every product has DP 1/2 (Instinct MI100)"},
    {{"gfx90a"}, 1, "CDNA: every product has DP 1/2 or faster (Instinct MI210/MI250/MI250X)"},
    {{"gfx942"}, 1, "CDNA: every product has DP 1/2 or faster (Instinct MI300A/MI300X)"},
};

const DpFacts* dpFactsOf(std::string_view processor)
{
    for (const DpFacts& row : kDpFactors)
        for (std::string_view name : row.processors)
            if (!name.empty() && name == processor)
                return &row;
    return nullptr;
}

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
    // Section 1: a bare processor takes the DP rate its products share, else its most common part.
    if (const DpFacts* dp = dpFactsOf(facts.name)) {
        target.dpfactor = dp->dpfactor;
        target.dpfactorSource = std::string(facts.name) + ": " + dp->reason;
    } else {
        target.dpfactor = 8; // tst_gpu proves every processor has a row
        target.dpfactorSource = std::string(facts.name) + ": no DP rate on record, DP 1/16 assumed";
    }
    return target;
}

} // namespace

std::string_view generationName(Generation generation)
{
    switch (generation) {
    case Generation::GFX6:
        return "GFX6";
    case Generation::GFX7:
        return "GFX7";
    case Generation::GFX8:
        return "GFX8";
    case Generation::GFX9:
        return "GFX9";
    case Generation::CDNA:
        return "CDNA";
    }
    return "?";
}

const std::vector<GpuPreset>& gpuPresets()
{
    static const std::vector<GpuPreset> presets = parsePresets(embedded::gpus_tsv());
    return presets;
}

std::vector<GpuPreset> presetsFor(std::string_view processor)
{
    const std::string wanted = lower(processor.substr(0, processor.find(':')));
    const DpFacts* chip = dpFactsOf(findProcessor(wanted) ? findProcessor(wanted)->name : "");
    std::vector<GpuPreset> out;
    for (const auto& preset : gpuPresets()) {
        const ProcessorFacts* facts = findProcessor(preset.processor);
        if (facts && (facts->name == wanted || (chip && dpFactsOf(facts->name) == chip)))
            out.push_back(preset);
    }
    return out;
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
        static constexpr const char* kRates[] = {"", "1/2", "1/4", "", "1/8", "", "", "", "1/16"};
        const char* rate = preset.dpfactor >= 1 && preset.dpfactor <= 8 ? kRates[preset.dpfactor] : "";
        target.dpfactorSource = preset.name + ": the product has DP " + (*rate ? rate : "?") + " (resources/gpus.tsv)";
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
            *error = "unknown GPU '" + wanted
                + "': give a product preset (e.g. \"Radeon HD 7970\") or an LLVM "
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
                    *error = "'" + std::string(feature) + "' in '" + wanted + "': " + processor + " has no " + base + " setting";
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
