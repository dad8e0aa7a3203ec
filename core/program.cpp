// SPDX-License-Identifier: MIT
#include "core/program.h"

#include <algorithm>

namespace gcnlens {

std::string_view familyName(Family family)
{
    switch (family) {
    case Family::SOP1: return "SOP1";
    case Family::SOP2: return "SOP2";
    case Family::SOPK: return "SOPK";
    case Family::SOPC: return "SOPC";
    case Family::SOPP: return "SOPP";
    case Family::SMRD: return "SMRD";
    case Family::SMEM: return "SMEM";
    case Family::VOP1: return "VOP1";
    case Family::VOP2: return "VOP2";
    case Family::VOPC: return "VOPC";
    case Family::VOP3: return "VOP3";
    case Family::VOP3P: return "VOP3P";
    case Family::SDWA: return "SDWA";
    case Family::DPP: return "DPP";
    case Family::VINTRP: return "VINTRP";
    case Family::DS: return "DS";
    case Family::MUBUF: return "MUBUF";
    case Family::MTBUF: return "MTBUF";
    case Family::MIMG: return "MIMG";
    case Family::EXP: return "EXP";
    case Family::FLAT: return "FLAT";
    case Family::GLOBAL: return "GLOBAL";
    case Family::SCRATCH: return "SCRATCH";
    case Family::Data: return "data";
    case Family::Unknown: return "unknown";
    }
    return "unknown";
}

std::string_view regKindName(RegKind kind)
{
    switch (kind) {
    case RegKind::VGPR: return "vgpr";
    case RegKind::SGPR: return "sgpr";
    case RegKind::AGPR: return "agpr";
    case RegKind::TTMP: return "ttmp";
    case RegKind::VCC: return "vcc";
    case RegKind::EXEC: return "exec";
    case RegKind::M0: return "m0";
    case RegKind::SCC: return "scc";
    case RegKind::FlatScratch: return "flat_scratch";
    case RegKind::XnackMask: return "xnack_mask";
    case RegKind::Other: return "other";
    }
    return "other";
}

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}

bool Program::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace gcnlens
