// SPDX-License-Identifier: MIT
// The ambiguities of hazards.md section 4 as model options (A-*), default first as the spec
// lists them. They live inside TimingOptions (the one options table) as its `checks` member.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gcnlens {

struct CheckOptions {
    int nopLimit = 16;          // A-nop: states one s_nop gives on gfx8+ (16 ISA/LLVM, 8 Vega text)
    int setregSetreg = 2;       // A-setreg: W-setreg-setreg on gfx8+ (2 ISA table, 1 S_SETREG text)
    bool vmem67 = true;         // A-vmem67: W-valu-sgpr-vmem on gfx6/7 (ACO on, LLVM off)
    bool m0Msg67 = true;        // A-m0-67: W-m0-msg on gfx6/7
    bool store6 = true;         // A-store6: W-store-data on gfx6
    int store942 = 0;           // A-store942: gfx942 BUF store with SGPR soffset (0 CDNA3, 1 newer LLVM)
    int carry942 = 0;           // A-carry: gfx942 carry-in reads of a VALU-written SGPR/VCC (0 CDNA3, 2 LLVM)
    bool dppAnyWriter = false;  // A-dpp-writer: W-dpp-vgpr producer VALU only (valu) or any (any)
    bool exactIsa = true;       // A-exact: exact SrcC also needs equal passes (isa) or register identity only (llvm)
    bool sgemmXdlPasses = true; // A-sgemm-xdl: gfx942 SGEMM → XDL overlapped SrcC needs N (n) or 0 (0)
    int dotMfma = 3;            // A-dot-mfma: DOT → MFMA read (3 CDNA2/3, 0 LLVM)
    bool valuOnly = true;       // A-valu-only: gfx942 MFMA rows count only VALU and s_nop (on) or everything (off)
    int accread = 2;            // A-accread: gfx908 v_accvgpr_read → memory (2 LLVM, 0 CDNA1)
    bool execAnyWriter = true;  // A-exec-writer: EXEC rows fire for any VALU writing EXEC (any) or v_cmpx only (cmpx)
    bool expcntStore = false;   // A-expcnt-store: gfx7+ store data overwrite needs expcnt (no LLVM, yes Vega)
    bool flatLgkm = false;      // A-flat-lgkm: GLOBAL/SCRATCH count vmcnt only (vm) or both counters (both)
    bool vccAlias = true;       // W-vcc-alias (ISA-only row): on
    bool execz = true;          // W-execz (ISA-only row): on

    // Sets an option by its hazards.md §4 name ("A-nop", …); returns an error, empty on success.
    // An empty-string result with *known false means the name is not one of these.
    std::string set(const std::string& name, const std::string& value, bool* known);
    std::vector<std::pair<std::string, std::string>> values() const;

    // Every option as the window and the CLI offer it: its name, the default spelling, the other
    // one and what the choice decides (hazards.md §4).
    struct Choice {
        std::string name, defaultValue, otherValue, what;
    };
    static std::vector<Choice> choices();
    bool operator==(const CheckOptions&) const = default;
};

} // namespace gcnlens
