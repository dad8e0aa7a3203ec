// SPDX-License-Identifier: MIT
// `gcnlens-cli check` (issue #17 section 1): the wait-state hazards and s_waitcnt findings of
// core/model/hazards.h, as compiler-style lines or JSON. Exits 3 when it finds something, so it
// can run in a build. --fix-its prints the fixes of core/model/fixits.h as a unified diff.
#include "commands.h"

#include "core/asm/isolated.h"
#include "core/model/fixits.h"
#include "core/present/json.h"

#include <algorithm>
#include <filesystem>
#include <thread>

#include <unistd.h>

namespace gcnlens::cli {

namespace {

constexpr int ExitFindings = 3;

// The path the diff names: relative to the current folder, for patch -p1 and git apply.
std::string diffPath(const SourceArgs& source)
{
    if (source.file == "-")
        return "stdin.s";
    std::error_code error;
    const std::filesystem::path current = std::filesystem::current_path(error);
    const std::filesystem::path file = std::filesystem::absolute(source.file, error).lexically_normal();
    const std::filesystem::path relative = error ? std::filesystem::path() : file.lexically_relative(current);
    return relative.empty() ? source.file : relative.string();
}

// The loader gives the text with LF line breaks; a diff of a CR LF file must carry its CRs in the
// lines it quotes and adds, or patch finds no match.
std::string withCrLf(const std::string& diff)
{
    std::string out;
    std::size_t at = 0;
    while (at < diff.size()) {
        const std::size_t end = diff.find('\n', at);
        const std::string line = diff.substr(at, end - at);
        const bool quoted = !line.empty() && (line[0] == ' ' || line[0] == '+' || line[0] == '-') && line.rfind("+++ ", 0) != 0
            && line.rfind("--- ", 0) != 0;
        out += line + (quoted ? "\r\n" : "\n");
        at = end == std::string::npos ? diff.size() : end + 1;
    }
    return out;
}

} // namespace

int checkCommand(const Args& args)
{
    SourceArgs source;
    AnalysisRequest request;
    bool asJson = false;
    bool withFixIts = false;
    OptionParser parser("check");
    parser.addSource(source);
    parser.addTimingOptions(request.timing);
    parser.addJson(&asJson);
    parser.addFlag({"--fix-its"}, "print the fixes as a unified diff (patch -p1), each with its measured cycle delta",
                   &withFixIts);
    // Each finding's candidates are measured by a worker of its own thread (core/model/fixits.h).
    int jobs = int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    parser.addInt({"-j", "--jobs"}, "N",
                  "--fix-its: findings measured at once, a worker process each (default: the processors, at most 8; fewer above "
                  "125k instructions)",
                  &jobs);
    FixItSearch search;
    parser.addInt({"--max-findings"}, "N", "--fix-its: the first N findings in line order are searched (default 200)",
                  &search.maxFindings);
    if (const auto status = parser.parse(args))
        return *status;
    Analysis analysis;
    std::string text;
    std::optional<AnalysisRequest> assembledWith;
    bool crlf = false;
    if (!loadAnalysis(source, request, analysis, &text, &assembledWith, &crlf))
        return ExitUsage;
    std::vector<FixIt> fixits;
    FixItStats searched;
    if (withFixIts && assembledWith) {
        // Each worker holds the kernel's state too (a 100k-instruction listing peaks near 60 MB):
        // fewer of them on a large kernel, one from a million instructions.
        const std::size_t instructions = std::max<std::size_t>(analysis.program.instructions.size(), 1);
        search.threads = std::min(jobs, int(std::max<std::size_t>(1, 1000000 / instructions)));
        search.makeAssemble = [&] { return isolatedAssembler(assembledWith->assemble); };
        // A long search shows how far it is on a terminal (a large kernel takes seconds to minutes).
        const bool showProgress = ::isatty(STDERR_FILENO);
        if (showProgress)
            search.progress = [](int done, int total) {
                std::fprintf(stderr, "\rfix-its: %d of %d findings measured", done, total);
            };
        fixits = findFixIts(text, analysis, *assembledWith, isolatedAssembler(assembledWith->assemble), search, &searched);
        if (showProgress)
            std::fprintf(stderr, "\r\033[K");
    }
    const CheckResult& checks = analysis.checks;
    const bool found = !checks.hazards.empty() || !checks.waits.empty();
    const int status = analysis.program.hasErrors() ? ExitInputErrors : found ? ExitFindings : ExitOk;
    if (asJson) {
        json::writeCheck(stdout, analysis, request.timing.checks, withFixIts ? &fixits : nullptr);
        return status;
    }
    printDiagnostics(source, analysis.program);
    // With --fix-its standard output is the diff alone (so it pipes into patch); the findings go to
    // standard error.
    FILE* findingsTo = withFixIts ? stderr : stdout;
    const std::string name = inputName(source);
    std::string out;
    for (const HazardFinding& h : checks.hazards)
        out += std::format("{}:{}: {}: {}; fix: {}\n", name, h.line, h.rule, h.detail, oneLine(h.fix));
    for (const WaitcntFinding& w : checks.waits)
        out += std::format("{}:{}: {}: {}\n", name, w.line, w.rule, w.detail);
    out += std::format("; {} hazard(s), {} s_waitcnt finding(s) on {}\n", checks.hazards.size(), checks.waits.size(),
                       analysis.program.gpu.targetId);
    print(findingsTo, out);
    if (withFixIts) {
        std::fflush(findingsTo);
        int leftOut = 0;
        std::string diff = unifiedDiff(diffPath(source), text, fixits, 2, &leftOut);
        if (crlf)
            diff = withCrLf(diff);
        if (!fixits.empty())
            print(stdout, diff);
        std::fflush(stdout);
        std::string summary = std::format("; {} fix-it(s) in the diff", fixits.size() - std::size_t(leftOut));
        if (leftOut)
            summary += std::format(", {} left out (overlapping an earlier one: run again after applying)", leftOut);
        if (!assembledWith)
            summary += " (the input is not source text)";
        // The findings past the search's limit are not searched: say so, and how to reach them.
        if (searched.fixable > search.maxFindings)
            summary += std::format("; the first {} of {} fixable findings searched (--max-findings N for more)",
                                   std::max(search.maxFindings, 0), searched.fixable);
        print(findingsTo, summary + "\n");
    }
    return status;
}

} // namespace gcnlens::cli
