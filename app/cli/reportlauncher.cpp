// SPDX-License-Identifier: MIT
// gcnlens-cli's `report` command, run by the program gcnlens-report beside it (issue #18). The
// PDF report needs Qt Gui, Widgets, Charts and KSyntaxHighlighting; loading them took 40 of the
// 60 ms that gcnlens-cli spent before its first instruction, on every command. So gcnlens-cli
// links none of them, and `report` replaces this process with gcnlens-report, the same commands
// with the report linked in: arguments, standard streams and exit status pass through unchanged.
#include "commands.h"

#include "core/support/besideself.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace gcnlens::cli {

int reportCommand(const Args& args)
{
    const std::string program = programBesideSelf("gcnlens-report", "GCNLENS_REPORT_PROGRAM");
    std::vector<std::string> words {program, "report"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& word : words)
        argv.push_back(word.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    ::execvp(program.c_str(), argv.data());
    const int error = errno;
    printError("report: cannot start " + program + ": " + std::strerror(error)
               + " (the report is written by gcnlens-report, installed beside gcnlens-cli)");
    return ExitUsage;
}

} // namespace gcnlens::cli
