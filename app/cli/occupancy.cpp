// SPDX-License-Identifier: MIT
// `gcnlens-cli occupancy` (issue #4 section 4) and the JSON forms of resource usage and occupancy
// that `analyze --json` reuses.
#include "commands.h"

#include "core/model/occupancy.h"

#include <QJsonArray>
#include <QTextStream>

namespace gcnlens::cli {

namespace {

QJsonArray stringsToJson(const std::vector<std::string>& list)
{
    QJsonArray array;
    for (const auto& s : list)
        array.append(QString::fromStdString(s));
    return array;
}

} // namespace

QJsonObject resourcesToJson(const ResourceUsage& usage)
{
    QJsonObject o;
    o[QStringLiteral("used_vgprs")] = usage.usedVgprs;
    o[QStringLiteral("used_agprs")] = usage.usedAgprs;
    o[QStringLiteral("used_sgprs")] = usage.usedSgprs;
    o[QStringLiteral("user_sgprs")] = usage.userSgprs;
    o[QStringLiteral("extra_sgprs")] = usage.extraSgprs;
    o[QStringLiteral("vcc")] = usage.vcc;
    o[QStringLiteral("flat_scratch")] = usage.flatScratch;
    o[QStringLiteral("xnack")] = usage.xnack;
    const auto optional = [&](const char* key, const std::optional<int>& value) {
        if (value)
            o[QLatin1String(key)] = *value;
    };
    optional("declared_vgprs", usage.declaredVgprs);
    optional("declared_agprs", usage.declaredAgprs);
    optional("declared_sgprs", usage.declaredSgprs);
    optional("declared_lds", usage.declaredLds);
    optional("accum_offset", usage.accumOffset);
    optional("declared_scratch", usage.declaredScratch);
    if (usage.declaredSgprs)
        o[QStringLiteral("declared_sgprs_include_extras")] = usage.declaredSgprsIncludeExtras;
    o[QStringLiteral("warnings")] = stringsToJson(usage.warnings);
    return o;
}

QJsonObject occupancyToJson(const OccupancyResult& result)
{
    QJsonObject o;
    if (!result.error.empty()) {
        o[QStringLiteral("error")] = QString::fromStdString(result.error);
        return o;
    }
    o[QStringLiteral("waves_per_simd")] = result.wavesPerSimd;
    o[QStringLiteral("waves_per_cu")] = result.wavesPerCu;
    o[QStringLiteral("max_waves")] = result.maxWaves;
    o[QStringLiteral("limiters")] = stringsToJson(result.limiters);
    QJsonObject limits;
    for (const auto& [resource, waves] : result.limits)
        limits[QString::fromStdString(resource)] = waves;
    o[QStringLiteral("limits")] = limits;
    QJsonArray hints;
    for (const auto& hint : result.hints) {
        QJsonObject h;
        h[QStringLiteral("resource")] = QString::fromStdString(hint.resource);
        h[QStringLiteral("text")] = QString::fromStdString(hint.text);
        hints.append(h);
    }
    o[QStringLiteral("hints")] = hints;
    o[QStringLiteral("allocated_vgprs")] = result.allocatedVgprs;
    o[QStringLiteral("allocated_sgprs")] = result.allocatedSgprs;
    o[QStringLiteral("allocated_lds")] = result.allocatedLds;
    o[QStringLiteral("extra_sgprs")] = result.extraSgprs;
    o[QStringLiteral("waves_per_workgroup")] = result.wavesPerWorkgroup;
    o[QStringLiteral("workgroups_per_cu")] = result.workgroupsPerCu;
    o[QStringLiteral("notes")] = stringsToJson(result.notes);
    return o;
}

void addOccupancyAndLdsJson(QJsonObject& root, const Program& program, const TimingOptions& options)
{
    QJsonArray kernels = root[QStringLiteral("kernels")].toArray();
    for (qsizetype k = 0; k < kernels.size() && k < qsizetype(program.kernels.size()); ++k) {
        QJsonObject o = kernels[k].toObject();
        const QJsonObject resources = resourcesToJson(kernelResources(program, int(k)));
        const QJsonObject occupancy = occupancyToJson(computeOccupancy(program.gpu, occupancyInputFor(program, int(k)), options));
        o[QStringLiteral("resources")] = resources;
        o[QStringLiteral("occupancy")] = occupancy;
        kernels[k] = o;
        if (k == 0) {
            root[QStringLiteral("resources")] = resources;
            root[QStringLiteral("occupancy")] = occupancy;
        }
    }
    root[QStringLiteral("kernels")] = kernels;

    LdsKernelOptions lds;
    lds.groupDwords = options.ldsGroupDwords;
    QJsonArray instructions = root[QStringLiteral("instructions")].toArray();
    for (const auto& [index, access] : analyzeLdsInProgram(program, lds)) {
        if (index < 0 || index >= instructions.size())
            continue;
        QJsonObject o = instructions[index].toObject();
        o[QStringLiteral("lds")] = ldsToJson(access, false);
        instructions[index] = o;
    }
    root[QStringLiteral("instructions")] = instructions;
}

int occupancyCommand(const QStringList& args)
{
    QString gpuName = QStringLiteral("tahiti");
    TimingOptions options;
    OccupancyInput input;
    bool json = false, noVcc = false;
    OptionParser parser(QStringLiteral("occupancy"));
    parser.addGpu(&gpuName);
    parser.addInt({QStringLiteral("--vgprs")}, QStringLiteral("N"), QStringLiteral("VGPRs per lane the kernel uses"),
                  &input.vgprs);
    parser.addInt({QStringLiteral("--agprs")}, QStringLiteral("N"), QStringLiteral("AGPRs per lane (GFX90A and later)"),
                  &input.agprs);
    parser.addInt({QStringLiteral("--sgprs")}, QStringLiteral("N"),
                  QStringLiteral("SGPRs the kernel uses (the VCC, FLAT_SCRATCH and XNACK extras are added)"),
                  &input.sgprs);
    parser.addInt({QStringLiteral("--lds")}, QStringLiteral("BYTES"), QStringLiteral("LDS bytes per workgroup"),
                  &input.ldsBytes);
    parser.addInt({QStringLiteral("--workgroup")}, QStringLiteral("N"),
                  QStringLiteral("work-items per workgroup (default 64)"), &input.workgroupSize);
    parser.addFlag({QStringLiteral("--scratch")}, QStringLiteral("the kernel uses scratch memory"), &input.scratch);
    parser.addFlag({QStringLiteral("--trap")}, QStringLiteral("a trap handler is enabled"), &input.trapHandler);
    parser.addFlag({QStringLiteral("--no-vcc")}, QStringLiteral("the kernel does not use VCC"), &noVcc);
    parser.addFlag({QStringLiteral("--flat-scratch")}, QStringLiteral("the kernel uses FLAT_SCRATCH"),
                   &input.usesFlatScratch);
    parser.addFlag({QStringLiteral("--xnack")}, QStringLiteral("the kernel uses XNACK_MASK"), &input.usesXnack);
    parser.addTimingOptions(options);
    parser.addJson(&json);
    parser.setRequired(QStringLiteral("--vgprs"));
    parser.setRequired(QStringLiteral("--sgprs"));
    if (const auto status = parser.parse(args))
        return *status;
    if (noVcc)
        input.usesVcc = false;
    const auto gpu = resolveGpu(gpuName.toStdString()); // checked by the parser

    const OccupancyResult result = computeOccupancy(*gpu, input, options);
    if (json) {
        QJsonObject o = occupancyToJson(result);
        o[QStringLiteral("gpu")] = QString::fromStdString(gpu->targetId);
        o[QStringLiteral("generation")] = QString::fromLatin1(generationName(gpu->generation));
        printJson(o);
        return result.error.empty() ? ExitOk : ExitUsage;
    }
    if (!result.error.empty()) {
        printError(QStringLiteral("occupancy: %1").arg(QString::fromStdString(result.error)));
        return ExitUsage;
    }
    QTextStream out(stdout);
    out << QString::fromStdString(gpu->targetId) << " (" << QString::fromLatin1(generationName(gpu->generation))
        << "), at most " << result.maxWaves << " waves/SIMD\n";
    out << "waves per SIMD: " << result.wavesPerSimd << "\n";
    out << "waves per CU:   " << result.wavesPerCu << "\n";
    QStringList limiters;
    for (const auto& l : result.limiters)
        limiters << QString::fromStdString(l);
    out << "limited by:     " << limiters.join(QLatin1String(", ")) << "\n";
    QStringList limits;
    for (const auto& [resource, waves] : result.limits)
        limits << QStringLiteral("%1 %2").arg(QString::fromStdString(resource)).arg(waves);
    out << "limits:         " << limits.join(QLatin1String(", ")) << "\n";
    out << "allocated:      " << result.allocatedVgprs << " VGPRs, " << result.allocatedSgprs << " SGPRs (incl. "
        << result.extraSgprs << " extra), " << result.allocatedLds << " bytes LDS\n";
    out << "hints:\n";
    for (const auto& hint : result.hints)
        out << "  " << QString::fromStdString(hint.resource) << ": " << QString::fromStdString(hint.text) << "\n";
    for (const auto& note : result.notes)
        out << "note: " << QString::fromStdString(note) << "\n";
    return ExitOk;
}

} // namespace gcnlens::cli
