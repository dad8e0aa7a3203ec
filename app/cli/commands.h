// SPDX-License-Identifier: MIT
// gcnlens-cli subcommands. Each lives in its own file; they read their arguments with OptionParser
// (options.h) and share the loading and JSON helpers below.
#pragma once

#include "core/analysis.h"

#include "options.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <vector>

namespace gcnlens::cli {

// Exit statuses (issue #2 section 5).
enum ExitStatus { ExitOk = 0, ExitInputErrors = 1, ExitUsage = 2 };

int run(int argc, char** argv);

// A subcommand: its name, the synopsis and one-line summary that `--help` and the usage print,
// and the function that runs it with everything after the name.
struct CommandInfo {
    const char* name;
    const char* synopsis;
    const char* summary;
    int (*run)(const QStringList& args);
};
const CommandInfo* findCommand(const QString& name);

// Reads the source (a file, or standard input for "-") with the one loader (core/input/loader.h)
// and assembles it. An unreadable, missing, binary or oversized input is reported, naming it and
// the cause, and returns false (exit status 2). `sourceText`, when given, receives the text read.
bool loadProgram(const SourceArgs& source, Program& program, QString* sourceText = nullptr);
// The same, through every model (core/analysis.h): what analyze and report print.
// `assembledWith`, when given, receives the request with its assembler options when the input
// was source text (fix-its re-assemble edited text with them), and stays empty otherwise.
bool loadAnalysis(const SourceArgs& source, AnalysisRequest request, Analysis& analysis, QString* sourceText = nullptr,
                  std::optional<AnalysisRequest>* assembledWith = nullptr);
// How messages name the input: the path, or "<stdin>".
QString inputName(const SourceArgs& source);
// Prints the assembler's diagnostics to stderr as FILE:LINE:COLUMN: SEVERITY: MESSAGE and returns
// how many are errors.
int printDiagnostics(const SourceArgs& source, const Program& program);

// Writes a line to stderr prefixed with "gcnlens-cli: ".
void printError(const QString& message);

// Subcommands: args are everything after the subcommand name.
int listingCommand(const QStringList& args);
int analyzeCommand(const QStringList& args);   // issue #3 (analyze.cpp)
int occupancyCommand(const QStringList& args); // issue #4 (occupancy.cpp)
int ldsCommand(const QStringList& args);       // issue #4 (lds.cpp)
int reportCommand(const QStringList& args);    // issue #6 (report.cpp)
int checkCommand(const QStringList& args);     // issue #17 (check.cpp): exit 3 on findings

} // namespace gcnlens::cli
