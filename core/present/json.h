// SPDX-License-Identifier: MIT
// The one JSON serializer: `gcnlens-cli listing/analyze/occupancy/lds/check --json`. Each document is
// streamed from its value in one pass (RapidJSON's Writer behind a buffered FILE stream), so a
// million-instruction analysis is written without a document tree in memory. The field names and
// meanings are the contract tst_json checks against golden files.
#pragma once

#include <cstdio>
#include <vector>

namespace gcnlens {

struct Analysis;
struct CheckOptions;
struct FixIt;
struct GpuTarget;
struct LdsAccessResult;
struct OccupancyResult;
struct Program;

namespace json {

// `listing --json`: the program (instructions, labels, kernels, directives, registers, diagnostics).
void writeProgram(std::FILE* out, const Program& program);

// `analyze --json`: the program, each instruction extended with its timing (and `lds` for DS
// accesses the LDS model evaluated), blocks, per-kernel totals, resources and occupancy, the
// model options and the rule legend.
void writeAnalysis(std::FILE* out, const Analysis& analysis);

// `occupancy --json`: one occupancy result for a GPU.
void writeOccupancy(std::FILE* out, const OccupancyResult& result, const GpuTarget& gpu);

// `lds --json`: a pattern's access, with groups, bank load and lanes.
void writeLdsAccess(std::FILE* out, const LdsAccessResult& result);

// `check --json`: the GPU, the hazard and s_waitcnt findings, the check options they rest on,
// and with `fixits` (`--fix-its`) each fix-it with its edits and measured cycles.
void writeCheck(std::FILE* out, const Analysis& analysis, const CheckOptions& options, const std::vector<FixIt>* fixits);

} // namespace json
} // namespace gcnlens
