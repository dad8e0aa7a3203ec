// SPDX-License-Identifier: MIT
#include "core/model/checkoptions.h"

#include <format>

namespace gcnlens {

namespace {

// One option: its two spellings, default first (hazards.md §4), and how each sets the value.
struct Choice {
    const char* name;
    const char* first;
    const char* second;
    bool (*get)(const CheckOptions&);          // true: the first spelling is current
    void (*put)(CheckOptions&, bool first);
};

const Choice kChoices[] = {
    {"A-nop", "16", "8", [](const CheckOptions& o) { return o.nopLimit == 16; },
     [](CheckOptions& o, bool f) { o.nopLimit = f ? 16 : 8; }},
    {"A-setreg", "2", "1", [](const CheckOptions& o) { return o.setregSetreg == 2; },
     [](CheckOptions& o, bool f) { o.setregSetreg = f ? 2 : 1; }},
    {"A-vmem67", "on", "off", [](const CheckOptions& o) { return o.vmem67; }, [](CheckOptions& o, bool f) { o.vmem67 = f; }},
    {"A-m0-67", "on", "off", [](const CheckOptions& o) { return o.m0Msg67; }, [](CheckOptions& o, bool f) { o.m0Msg67 = f; }},
    {"A-store6", "on", "off", [](const CheckOptions& o) { return o.store6; }, [](CheckOptions& o, bool f) { o.store6 = f; }},
    {"A-store942", "0", "1", [](const CheckOptions& o) { return o.store942 == 0; },
     [](CheckOptions& o, bool f) { o.store942 = f ? 0 : 1; }},
    {"A-carry", "0", "2", [](const CheckOptions& o) { return o.carry942 == 0; },
     [](CheckOptions& o, bool f) { o.carry942 = f ? 0 : 2; }},
    {"A-dpp-writer", "valu", "any", [](const CheckOptions& o) { return !o.dppAnyWriter; },
     [](CheckOptions& o, bool f) { o.dppAnyWriter = !f; }},
    {"A-exact", "isa", "llvm", [](const CheckOptions& o) { return o.exactIsa; }, [](CheckOptions& o, bool f) { o.exactIsa = f; }},
    {"A-sgemm-xdl", "n", "0", [](const CheckOptions& o) { return o.sgemmXdlPasses; },
     [](CheckOptions& o, bool f) { o.sgemmXdlPasses = f; }},
    {"A-dot-mfma", "3", "0", [](const CheckOptions& o) { return o.dotMfma == 3; },
     [](CheckOptions& o, bool f) { o.dotMfma = f ? 3 : 0; }},
    {"A-valu-only", "on", "off", [](const CheckOptions& o) { return o.valuOnly; }, [](CheckOptions& o, bool f) { o.valuOnly = f; }},
    {"A-accread", "2", "0", [](const CheckOptions& o) { return o.accread == 2; },
     [](CheckOptions& o, bool f) { o.accread = f ? 2 : 0; }},
    {"A-exec-writer", "any", "cmpx", [](const CheckOptions& o) { return o.execAnyWriter; },
     [](CheckOptions& o, bool f) { o.execAnyWriter = f; }},
    {"A-expcnt-store", "no", "yes", [](const CheckOptions& o) { return !o.expcntStore; },
     [](CheckOptions& o, bool f) { o.expcntStore = !f; }},
    {"A-flat-lgkm", "vm", "both", [](const CheckOptions& o) { return !o.flatLgkm; },
     [](CheckOptions& o, bool f) { o.flatLgkm = !f; }},
    {"W-vcc-alias", "on", "off", [](const CheckOptions& o) { return o.vccAlias; }, [](CheckOptions& o, bool f) { o.vccAlias = f; }},
    {"W-execz", "on", "off", [](const CheckOptions& o) { return o.execz; }, [](CheckOptions& o, bool f) { o.execz = f; }},
};

} // namespace

std::string CheckOptions::set(const std::string& name, const std::string& value, bool* known)
{
    for (const Choice& c : kChoices) {
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
    for (const Choice& c : kChoices)
        out.emplace_back(c.name, c.get(*this) ? c.first : c.second);
    return out;
}

} // namespace gcnlens
