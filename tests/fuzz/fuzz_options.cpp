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

using namespace gcnlens;
using namespace gcnlens::cli;

// The parser's two links to the rest of the CLI (commands.cpp), which would bring every subcommand:
// messages go nowhere, and --help finds a synopsis.
namespace gcnlens::cli {
void printError(const QString&) { }
const CommandInfo* findCommand(const QString&)
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
    const QStringList args = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size)).split(QLatin1Char('\n'));

    // As analyze, listing and lds declare theirs: the source group and the model options.
    {
        SourceArgs source;
        TimingOptions options;
        bool json = false;
        QString pattern;
        OptionParser parser(QStringLiteral("fuzz"));
        parser.addSource(source);
        parser.addTimingOptions(options);
        parser.addJson(&json);
        parser.addString({QStringLiteral("--pattern")}, QStringLiteral("EXPR"), QStringLiteral("a pattern"), &pattern);
        QString page;
        parser.addString({QStringLiteral("--page"), QStringLiteral("-p")}, QStringLiteral("SIZE"), QStringLiteral("two names"),
                         &page);
        parser.addRefused(QStringLiteral("--output"), QStringLiteral("not here"));
        const auto status = parser.parse(args);
        checkStatus(status);
        // (No --gpu leaves it empty: the source's own .gpu, else tahiti, decides later.)
        if (!status && !source.gpu.isEmpty() && !resolveGpu(source.gpu.toStdString())) {
            std::fprintf(stderr, "an accepted --gpu does not resolve\n");
            std::abort();
        }
    }
    // As occupancy declares its: no input file, integers, flags, required options.
    {
        QString gpu = QStringLiteral("tahiti");
        int vgprs = 0, sgprs = 0;
        bool scratch = false;
        OptionParser parser(QStringLiteral("fuzz"));
        parser.addGpu(&gpu);
        parser.addInt({QStringLiteral("--vgprs"), QStringLiteral("-v")}, QStringLiteral("N"), QStringLiteral("VGPRs"), &vgprs);
        parser.addInt({QStringLiteral("--sgprs")}, QStringLiteral("N"), QStringLiteral("SGPRs"), &sgprs);
        parser.addFlag({QStringLiteral("--scratch"), QStringLiteral("-s")}, QStringLiteral("scratch"), &scratch);
        parser.setRequired(QStringLiteral("--vgprs"));
        checkStatus(parser.parse(args));
    }
    return 0;
}
