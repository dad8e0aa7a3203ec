// SPDX-License-Identifier: MIT
// `gcnlens-cli occupancy` (issue #4 section 4): waves per SIMD for given resources.
#include "commands.h"

#include "core/model/occupancy.h"

#include "core/present/json.h"

#include <QTextStream>

namespace gcnlens::cli {

int occupancyCommand(const QStringList& args)
{
    QString gpuName = QStringLiteral("tahiti");
    TimingOptions options;
    OccupancyInput input;
    bool asJson = false, noVcc = false;
    OptionParser parser(QStringLiteral("occupancy"));
    parser.addGpu(&gpuName);
    parser.addInt({QStringLiteral("--vgprs")}, QStringLiteral("N"), QStringLiteral("VGPRs per lane the kernel uses"),
                  &input.vgprs);
    parser.addInt({QStringLiteral("--agprs")}, QStringLiteral("N"), QStringLiteral("AGPRs per lane (GFX90A and later)"),
                  &input.agprs);
    parser.addInt({QStringLiteral("--sgprs")}, QStringLiteral("N"),
                  QStringLiteral("SGPRs the kernel uses (the VCC, FLAT_SCRATCH and XNACK extras are added)"), &input.sgprs);
    parser.addInt({QStringLiteral("--lds")}, QStringLiteral("BYTES"), QStringLiteral("LDS bytes per workgroup"), &input.ldsBytes);
    parser.addInt({QStringLiteral("--workgroup")}, QStringLiteral("N"), QStringLiteral("work-items per workgroup (default 64)"),
                  &input.workgroupSize);
    parser.addFlag({QStringLiteral("--scratch")}, QStringLiteral("the kernel uses scratch memory"), &input.scratch);
    parser.addFlag({QStringLiteral("--trap")}, QStringLiteral("a trap handler is enabled"), &input.trapHandler);
    parser.addFlag({QStringLiteral("--no-vcc")}, QStringLiteral("the kernel does not use VCC"), &noVcc);
    parser.addFlag({QStringLiteral("--flat-scratch")}, QStringLiteral("the kernel uses FLAT_SCRATCH"), &input.usesFlatScratch);
    parser.addFlag({QStringLiteral("--xnack")}, QStringLiteral("the kernel uses XNACK_MASK"), &input.usesXnack);
    parser.addTimingOptions(options);
    parser.addJson(&asJson);
    parser.setRequired(QStringLiteral("--vgprs"));
    parser.setRequired(QStringLiteral("--sgprs"));
    if (const auto status = parser.parse(args))
        return *status;
    if (noVcc)
        input.usesVcc = false;
    const auto gpu = resolveGpu(gpuName.toStdString()); // checked by the parser

    const OccupancyResult result = computeOccupancy(*gpu, input, options);
    if (asJson) {
        json::writeOccupancy(stdout, result, *gpu);
        return result.error.empty() ? ExitOk : ExitUsage;
    }
    if (!result.error.empty()) {
        printError(QStringLiteral("occupancy: %1").arg(QString::fromStdString(result.error)));
        return ExitUsage;
    }
    QTextStream out(stdout);
    out << QString::fromStdString(gpu->targetId) << " (" << QString::fromLatin1(generationName(gpu->generation)) << "), at most "
        << result.maxWaves << " waves/SIMD\n";
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
