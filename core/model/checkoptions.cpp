// SPDX-License-Identifier: MIT
#include "core/model/checkoptions.h"

#include <format>

namespace gcnlens {

namespace {

// One option: its two spellings, default first (hazards.md §4), and how each sets the value.
struct Spelling {
    const char* name;
    const char* first;
    const char* second;
    const char* what;
    bool (*get)(const CheckOptions&); // true: the first spelling is current
    void (*put)(CheckOptions&, bool first);
};

const Spelling kChoices[] = {
    {"A-nop", "16", "8", "states one s_nop gives on gfx8+: 16 (ISA opcode table, LLVM) or 8 (Vega text)",
     [](const CheckOptions& o) { return o.nopLimit == 16; }, [](CheckOptions& o, bool f) { o.nopLimit = f ? 16 : 8; }},
    {"A-setreg", "2", "1", "s_setreg → s_setreg of the same register on gfx8+: 2 (ISA table) or 1 (S_SETREG text)",
     [](const CheckOptions& o) { return o.setregSetreg == 2; }, [](CheckOptions& o, bool f) { o.setregSetreg = f ? 2 : 1; }},
    {"A-vmem67", "on", "off", "W-valu-sgpr-vmem on gfx6/7: on (Mesa ACO) or off (LLVM)",
     [](const CheckOptions& o) { return o.vmem67; }, [](CheckOptions& o, bool f) { o.vmem67 = f; }},
    {"A-m0-67", "on", "off", "W-m0-msg on gfx6/7: on (Mesa ACO) or off (LLVM)", [](const CheckOptions& o) { return o.m0Msg67; },
     [](CheckOptions& o, bool f) { o.m0Msg67 = f; }},
    {"A-store6", "on", "off", "W-store-data on gfx6: on (Mesa ACO) or off (LLVM)", [](const CheckOptions& o) { return o.store6; },
     [](CheckOptions& o, bool f) { o.store6 = f; }},
    {"A-store942", "0", "1", "gfx942 buffer store with an SGPR soffset: 0 (CDNA3) or 1 (newer LLVM)",
     [](const CheckOptions& o) { return o.store942 == 0; }, [](CheckOptions& o, bool f) { o.store942 = f ? 0 : 1; }},
    {"A-carry", "0", "2", "gfx942 carry-in read of a VALU-written SGPR/VCC: 0 (CDNA3) or 2 (LLVM)",
     [](const CheckOptions& o) { return o.carry942 == 0; }, [](CheckOptions& o, bool f) { o.carry942 = f ? 0 : 2; }},
    {"A-dpp-writer", "valu", "any", "W-dpp-vgpr producer: a VALU (ISA) or any instruction writing the VGPR (LLVM)",
     [](const CheckOptions& o) { return !o.dppAnyWriter; }, [](CheckOptions& o, bool f) { o.dppAnyWriter = !f; }},
    {"A-exact", "isa", "llvm", "MFMA exact SrcC: also needs equal passes (ISA) or register identity only (LLVM)",
     [](const CheckOptions& o) { return o.exactIsa; }, [](CheckOptions& o, bool f) { o.exactIsa = f; }},
    {"A-sgemm-xdl", "n", "0", "gfx942 SGEMM → XDL overlapped SrcC: N passes (CDNA3) or 0 (LLVM)",
     [](const CheckOptions& o) { return o.sgemmXdlPasses; }, [](CheckOptions& o, bool f) { o.sgemmXdlPasses = f; }},
    {"A-dot-mfma", "3", "0", "DOT result read by an MFMA: 3 (CDNA2/3) or 0 (LLVM)",
     [](const CheckOptions& o) { return o.dotMfma == 3; }, [](CheckOptions& o, bool f) { o.dotMfma = f ? 3 : 0; }},
    {"A-valu-only", "on", "off", "gfx942 MFMA rows count only VALU and s_nop (CDNA3) or every instruction (LLVM)",
     [](const CheckOptions& o) { return o.valuOnly; }, [](CheckOptions& o, bool f) { o.valuOnly = f; }},
    {"A-accread", "2", "0", "gfx908 v_accvgpr_read → memory read of its VGPR: 2 (LLVM) or 0 (CDNA1)",
     [](const CheckOptions& o) { return o.accread == 2; }, [](CheckOptions& o, bool f) { o.accread = f ? 2 : 0; }},
    {"A-exec-writer", "any", "cmpx", "EXEC rows fire for any VALU writing EXEC (LLVM) or v_cmpx only (ISA wording)",
     [](const CheckOptions& o) { return o.execAnyWriter; }, [](CheckOptions& o, bool f) { o.execAnyWriter = f; }},
    {"A-expcnt-store", "no", "yes", "gfx7+ store data overwritten needs expcnt: no (LLVM) or yes (Vega)",
     [](const CheckOptions& o) { return !o.expcntStore; }, [](CheckOptions& o, bool f) { o.expcntStore = !f; }},
    {"A-flat-lgkm", "vm", "both", "GLOBAL/SCRATCH count vmcnt only (LLVM) or both counters (Vega, as FLAT)",
     [](const CheckOptions& o) { return !o.flatLgkm; }, [](CheckOptions& o, bool f) { o.flatLgkm = !f; }},
    {"W-vcc-alias", "on", "off", "the ISA-only row VCC by name vs by SGPR number: on or off",
     [](const CheckOptions& o) { return o.vccAlias; }, [](CheckOptions& o, bool f) { o.vccAlias = f; }},
    {"W-execz", "on", "off", "the ISA-only row VCCZ/EXECZ read as data after a VALU write: on or off",
     [](const CheckOptions& o) { return o.execz; }, [](CheckOptions& o, bool f) { o.execz = f; }},
};

} // namespace

std::string CheckOptions::set(const std::string& name, const std::string& value, bool* known)
{
    for (const Spelling& c : kChoices) {
        if (name != c.name)
            continue;
        *known = true;
        if (value == c.first)
            c.put(*this, true);
        else if (value == c.second)
            c.put(*this, false);
        else
            return std::format("option {}: expected {} or {}, got '{}'", name, c.first, c.second, value);
        return {};
    }
    *known = false;
    return {};
}

std::vector<std::pair<std::string, std::string>> CheckOptions::values() const
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const Spelling& c : kChoices)
        out.emplace_back(c.name, c.get(*this) ? c.first : c.second);
    return out;
}

std::vector<CheckOptions::Choice> CheckOptions::choices()
{
    std::vector<Choice> out;
    for (const auto& c : kChoices)
        out.push_back({c.name, c.first, c.second, c.what});
    return out;
}

} // namespace gcnlens
