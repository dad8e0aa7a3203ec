// SPDX-License-Identifier: MIT
// `gcnlens-cli lds` (issue #4 section 4): bank conflicts of a per-lane address pattern, as JSON or
// as a text heatmap (lanes × banks, each cell the dword row the lane hits there).
#include "commands.h"

#include "core/model/lds.h"
#include "core/present/json.h"

#include <algorithm>

namespace gcnlens::cli {

namespace {

// One cell of the heatmap: the row in base 36, so different symbols in one bank column of a group
// are exactly the conflicts.
char rowSymbol(std::int64_t row)
{
    const int r = int(((row % 36) + 36) % 36);
    return r < 10 ? char('0' + r) : char('a' + r - 10);
}

void printHeatmap(std::string& out, const LdsAccessResult& r)
{
    out += "lane  bank 0         1         2         3\n";
    out += "           01234567890123456789012345678901  rows\n";
    const int perAccess = r.groupsPerAccess > 0 ? r.groupsPerAccess : int(r.groups.size());
    for (std::size_t g = 0; g < r.groups.size(); ++g) {
        const LaneGroup& group = r.groups[g];
        const bool second = int(g) >= perAccess;
        const LaneList& lanes = second ? r.secondLanes : r.lanes;
        out += std::format("-- group {}{}: lanes {}, degree {}\n", g, r.twoAccesses ? (second ? " (offset1)" : " (offset0)") : "",
                           laneGroupText(group), group.degree);
        for (const int lane : group.members) {
            const LaneAccess& a = lanes[lane];
            std::string cells(32, a.known ? '.' : '?');
            if (a.known)
                for (int d = 0; d < a.dwords; ++d) {
                    const std::int64_t dword = (a.address >> 2) + d;
                    cells[std::size_t(dword & 31)] = rowSymbol(dword >> 5);
                }
            out += std::format("{:>3}       |{}|\n", lane, cells);
        }
        std::string rows;
        for (int b = 0; b < 32; ++b) {
            const int n = r.bankRows[g][b];
            rows += n == 0 ? ' ' : n < 10 ? char('0' + n) : '+';
        }
        out += "    rows/bank |" + rows + "|\n";
    }
    out += "bank load (dword requests, banks 0-31):";
    for (int v : r.bankLoad)
        out += std::format(" {}", v);
    out += "\n";
}

} // namespace

int ldsCommand(const Args& args)
{
    TimingOptions options;
    std::string pattern;
    std::string op = "b32";
    std::map<std::string, std::int64_t> parameters;
    bool asJson = false;
    OptionParser parser("lds");
    parser.addString({"--pattern"}, "EXPR", "the byte address of each lane, e.g. 'lane*4*33'", &pattern);
    parser.addString({"--width", "--op"}, "BYTES|NAME", "access width in bytes or DS op name (default b32)", &op);
    parser.addPatternParameters(parameters);
    parser.addTimingOptions(options);
    parser.addJson(&asJson);
    parser.setRequired("--pattern");
    if (const auto status = parser.parse(args))
        return *status;

    // Without a GPU, lds-phases=auto is the GCN grouping (docs/model.md L-phases).
    const LdsAccessResult result =
        analyzeLdsPattern(pattern, op, parameters, options.ldsGroupDwords, ldsPhasesFor(Generation::GFX9, options.ldsPhases));
    if (asJson) {
        json::writeLdsAccess(stdout, result);
        return result.error.empty() ? ExitOk : ExitUsage;
    }
    if (!result.error.empty()) {
        if (result.errorColumn >= 0) {
            printError(std::format("lds: pattern column {}: {}", result.errorColumn + 1, result.error));
            print(stderr, "  " + pattern + "\n  " + std::string(std::size_t(result.errorColumn), ' ') + "^\n");
        } else {
            printError("lds: " + result.error);
        }
        return ExitUsage;
    }
    std::string out = std::format("{} {}: degree {} (worst group), {} LDS cycles, conflict-free {} ({:.2f}x)\n", result.op,
                                  pattern, result.degree, result.cycles, result.conflictFreeCycles,
                                  double(result.cycles) / std::max(1, result.conflictFreeCycles));
    printHeatmap(out, result);
    print(stdout, out);
    return ExitOk;
}

} // namespace gcnlens::cli
