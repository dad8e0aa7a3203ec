// SPDX-License-Identifier: MIT
// Fuzzes the LDS pattern-expression parser and evaluator and the access-shape parser
// (core/model/lds.h): analyzeLdsPattern() on any pattern, op and parameters, and checks the shape
// of what it returns (64 lanes, banks 0…31, degrees within a group's lanes).
//
// Input, line by line: the pattern, the op or width ("ds_read2_b64 offset1:1", "b32", "8"), then
// NAME=VALUE parameters (as `gcnlens-cli lds --set`); the last byte picks the lds-group size (1…64).
#include "core/model/lds.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

using namespace gcnlens;

namespace {

void check(bool ok, const char* what)
{
    if (!ok) {
        std::fprintf(stderr, "LDS result broken: %s\n", what);
        std::abort();
    }
}

void checkLanes(const LaneList& lanes)
{
    check(lanes.size() == 64, "not 64 lanes");
    for (const LaneAccess& lane : lanes)
        check(!lane.known || (lane.bank() >= 0 && lane.bank() < 32), "bank outside 0…31");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const int groupDwords = data[size - 1] % 64 + 1; // option lds-group: 1…64
    std::string_view rest(reinterpret_cast<const char*>(data), size - 1);
    auto nextLine = [&rest] {
        const std::size_t end = std::min(rest.find('\n'), rest.size());
        const std::string line(rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
        return line;
    };
    const std::string pattern = nextLine();
    const std::string op = nextLine();
    std::map<std::string, std::int64_t> parameters;
    while (!rest.empty()) {
        const std::string line = nextLine();
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos)
            parameters[line.substr(0, eq)] = std::strtoll(line.c_str() + eq + 1, nullptr, 0);
    }

    const LdsAccessResult result = analyzeLdsPattern(pattern, op, parameters, groupDwords);
    if (!result.error.empty())
        return 0;
    checkLanes(result.lanes);
    check(result.bankLoad.size() == 32, "bank load not 32 banks");
    check(result.degree >= 1 && result.degree <= 64, "degree outside 1…64");
    for (const LaneGroup& group : result.groups)
        check(group.degree >= 1 && group.degree <= group.lanes * 4, "group degree above its lanes' dwords");
    if (result.twoAccesses)
        checkLanes(result.secondLanes);
    return 0;
}
