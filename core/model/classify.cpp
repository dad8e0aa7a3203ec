// SPDX-License-Identifier: MIT
#include "core/model/classify.h"

#include <algorithm>
#include <charconv>

namespace gcnlens {

namespace {

bool startsWithAny(std::string_view s, std::initializer_list<std::string_view> prefixes)
{
    return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return s.starts_with(p); });
}

int parseNumber(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        text.remove_prefix(2);
        base = 16;
    }
    int value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value, base);
    return value;
}

// MFMA shape and passes (hazards.md §1 "MFMA kinds"). gfx942 passes are per opcode in the ISA;
// we derive them from the shape: 4x4 → 2; SGEMM 16x16 → 8, 32x32 → 16; XDL single-block
// (K × element bytes ≥ 32 for 16x16, ≥ 16 for 32x32: 16x16x16_f16 4, 32x32x8_f16 8) → 4 / 8,
// multi-block (16x16x4_f16, 32x32x4_2b_f16) → 8 / 16. CDNA3 §12's examples all agree.
void classifyMfma(std::string_view m, Cdna cdna, InstClass& c)
{
    c.mfma = true;
    std::string_view rest = m.substr(7); // after "v_mfma_"
    // Output type, then MxNxK.
    const auto under = rest.find('_');
    std::string_view shape = under == std::string_view::npos ? rest : rest.substr(under + 1);
    int dims[3] = {0, 0, 0};
    const char* p = shape.data();
    const char* end = shape.data() + shape.size();
    for (int i = 0; i < 3 && p < end; ++i) {
        auto [next, ec] = std::from_chars(p, end, dims[i]);
        if (ec != std::errc())
            break;
        p = next;
        if (i < 2 && p < end && *p == 'x')
            ++p;
    }
    std::string_view type(p, end - p);
    while (type.starts_with("_"))
        type.remove_prefix(1);
    if (type.ends_with("_e64"))
        type.remove_suffix(4);
    const bool f64 = type.find("f64") != std::string_view::npos;
    const bool f32 = !f64 && (type == "f32" || type.ends_with("_f32")) && type.find("xf32") == std::string_view::npos;
    const int m0 = dims[0];
    if (f64) {
        c.mfmaKind = MfmaKind::Dgemm;
        c.passes = m0 == 4 ? 4 : 8;
        return;
    }
    if (cdna != Cdna::Gfx942) { // gfx908/90a: every non-F64 MFMA counts as XDL
        c.mfmaKind = MfmaKind::Xdl;
        c.passes = m0 == 4 ? 2 : m0 == 16 ? 8 : 16;
        return;
    }
    c.mfmaKind = f32 ? MfmaKind::Sgemm : MfmaKind::Xdl;
    if (m0 == 4) {
        c.passes = 2;
        return;
    }
    if (f32) {
        c.passes = m0 == 16 ? 8 : 16;
        return;
    }
    int bytes = 2;
    if (type.find("xf32") != std::string_view::npos)
        bytes = 4;
    else if (type.find("i8") != std::string_view::npos || type.find("fp8") != std::string_view::npos
             || type.find("bf8") != std::string_view::npos)
        bytes = 1;
    // "_2b_"/"_4b_" name the blocks on gfx940 spellings; otherwise K says it.
    const bool multiBlock = type.find("2b_") != std::string_view::npos || type.find("4b_") != std::string_view::npos
        || dims[2] * bytes < (m0 == 16 ? 32 : 16);
    c.passes = m0 == 16 ? (multiBlock ? 8 : 4) : (multiBlock ? 16 : 8);
}

} // namespace

Cdna cdnaOf(const GpuTarget& gpu)
{
    const std::string& p = gpu.processor;
    if (p == "gfx908")
        return Cdna::Gfx908;
    if (p == "gfx90a")
        return Cdna::Gfx90a;
    if (p == "gfx940" || p == "gfx941" || p == "gfx942")
        return Cdna::Gfx942;
    return Cdna::None;
}

InstClass classify(const Instruction& inst, Generation, bool gfx942)
{
    InstClass c;
    const std::string_view m = inst.mnemonic;
    switch (inst.family) {
    case Family::VOP1:
    case Family::VOP2:
    case Family::VOPC:
    case Family::VOP3:
    case Family::VOP3P:
    case Family::VINTRP:
        c.valu = true;
        break;
    case Family::SDWA:
        c.valu = c.sdwa = true;
        break;
    case Family::DPP:
        c.valu = c.dpp = true;
        break;
    case Family::SOP1:
    case Family::SOP2:
    case Family::SOPK:
    case Family::SOPC:
    case Family::SOPP:
        c.salu = true;
        break;
    case Family::SMRD:
    case Family::SMEM:
        c.smem = true;
        break;
    case Family::MUBUF:
    case Family::MTBUF:
    case Family::MIMG:
    case Family::GLOBAL:
    case Family::SCRATCH:
        c.vmem = true;
        break;
    case Family::FLAT:
        c.vmem = c.flat = true;
        break;
    case Family::DS:
        c.ds = true;
        break;
    case Family::EXP:
        c.exp = true;
        break;
    default:
        break;
    }
    // The printer's suffixes say the encoding when the family does not (VOP3-encoded DPP is rare).
    if (c.valu && m.ends_with("_dpp"))
        c.dpp = true;
    if (c.valu && m.ends_with("_sdwa"))
        c.sdwa = true;
    if (c.valu) {
        if (m.starts_with("v_mfma"))
            classifyMfma(m, gfx942 ? Cdna::Gfx942 : Cdna::Gfx908, c);
        c.accvgprRead = m.starts_with("v_accvgpr_read");
        c.accvgprWrite = m.starts_with("v_accvgpr_write");
        c.dot = m.starts_with("v_dot");
        c.trans = startsWithAny(m, {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"});
        c.laneRead = m.starts_with("v_readlane") || m.starts_with("v_readfirstlane");
        c.laneWrite = m.starts_with("v_writelane");
        c.cmpx = m.starts_with("v_cmpx");
    }
    if (m == "s_nop") {
        c.nop = true;
        c.nopStates = parseNumber(inst.operands) + 1;
    }
    if (c.vmem || c.ds) {
        const bool writesVector = std::any_of(inst.defs.begin(), inst.defs.end(), [](const RegRange& r) {
            return r.kind == RegKind::VGPR || r.kind == RegKind::AGPR;
        });
        c.load = writesVector;
        c.store = !writesVector;
        c.sampler = inst.family == Family::MIMG && startsWithAny(m, {"image_sample", "image_gather"});
    }
    if (c.ds)
        c.gds = m.starts_with("ds_gws") || m.starts_with("ds_ordered_count") || inst.operands.find(" gds") != std::string::npos
            || inst.operands.starts_with("gds");
    c.readsOwn = readsOwnDestination(inst);
    return c;
}

std::vector<InstClass> classifyAll(const Program& program)
{
    std::vector<InstClass> classes;
    classes.reserve(program.instructions.size());
    const bool gfx942 = cdnaOf(program.gpu) == Cdna::Gfx942;
    for (const Instruction& in : program.instructions)
        classes.push_back(classify(in, program.gpu.generation, gfx942));
    return classes;
}

int waitStatesOf(const Instruction& inst, const InstClass& c)
{
    if (inst.isData)
        return 0;
    if (c.nop)
        return c.nopStates;
    return 1;
}

bool readsOwnDestination(const Instruction& inst)
{
    const std::string_view m = inst.mnemonic;
    if (m.starts_with("s_cmov"))
        return true;
    if (inst.family == Family::SDWA && inst.operands.find("UNUSED_PRESERVE") != std::string::npos)
        return true;
    // (No VALU mnemonic names a load: most instructions are VALU, and the passes ask per instruction.)
    if (m.starts_with("v_"))
        return false;
    return m.find("_d16_hi") != std::string_view::npos && m.find("load") != std::string_view::npos;
}

bool overlaps(const RegRange& a, const RegRange& b)
{
    return a.kind == b.kind && a.first < b.first + b.count && b.first < a.first + a.count;
}

bool isVector(RegKind kind)
{
    return kind == RegKind::VGPR || kind == RegKind::AGPR;
}

bool isScalar(RegKind kind)
{
    switch (kind) {
    case RegKind::SGPR:
    case RegKind::VCC:
    case RegKind::EXEC:
    case RegKind::M0:
    case RegKind::TTMP:
    case RegKind::FlatScratch:
    case RegKind::XnackMask:
        return true;
    default:
        return false;
    }
}

} // namespace gcnlens
