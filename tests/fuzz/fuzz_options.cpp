// SPDX-License-Identifier: MIT
// Fuzzes gcnlens-cli's option parser (app/cli/options.h): OptionParser::parse(), CLI11 underneath,
// on any argument list, with the option groups the subcommands declare (the source group, --option,
// --json, flags, integers, strings, a refused and a required option). A parse must end with nullopt,
// 0 (help) or 2 (usage error) and never let an exception out of CLI11, and an accepted --gpu must
// resolve.
//
// Input: the arguments, one per line.
#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "core/gpu.h"
#include "core/model/timing.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace gcnlens;
using namespace gcnlens::cli;

// The parser's two links to the rest of the CLI (commands.cpp), which would bring every subcommand:
// messages go nowhere, and --help finds a synopsis.
namespace gcnlens::cli {
void printError(std::string_view) { }
const CommandInfo* findCommand(std::string_view)
{
    static const CommandInfo info {"fuzz", "FILE [options]", "the option parser under the fuzzer", nullptr};
    return &info;
}
} // namespace gcnlens::cli

namespace {

void checkStatus(const std::optional<int>& status)
{
    if (status && *status != ExitOk && *status != ExitUsage) {
        std::fprintf(stderr, "parse ended with status %d\n", *status);
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // The arguments are bytes, as the command line gives them (not necessarily UTF-8).
    Args args;
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    for (std::size_t end; (end = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(end + 1))
        args.emplace_back(rest.substr(0, end));
    args.emplace_back(rest);

    // As analyze, listing and lds declare theirs: the source group and the model options.
    {
        SourceArgs source;
        TimingOptions options;
        bool json = false;
        std::string pattern;
        OptionParser parser("fuzz");
        parser.addSource(source);
        parser.addTimingOptions(options);
        parser.addJson(&json);
        parser.addString({"--pattern"}, "EXPR", "a pattern", &pattern);
        std::string page;
        parser.addString({"--page", "-p"}, "SIZE", "two names", &page);
        parser.addRefused("--output", "not here");
        const auto status = parser.parse(args);
        checkStatus(status);
        // (No --gpu leaves it empty: the source's own .gpu, else tahiti, decides later.)
        if (!status && !source.gpu.empty() && !resolveGpu(source.gpu)) {
            std::fprintf(stderr, "an accepted --gpu does not resolve\n");
            std::abort();
        }
    }
    // As occupancy declares its: no input file, integers, flags, required options.
    {
        std::string gpu = "tahiti";
        int vgprs = 0, sgprs = 0;
        bool scratch = false;
        OptionParser parser("fuzz");
        parser.addGpu(&gpu);
        parser.addInt({"--vgprs", "-v"}, "N", "VGPRs", &vgprs);
        parser.addInt({"--sgprs"}, "N", "SGPRs", &sgprs);
        parser.addFlag({"--scratch", "-s"}, "scratch", &scratch);
        parser.setRequired("--vgprs");
        checkStatus(parser.parse(args));
    }
    return 0;
}
