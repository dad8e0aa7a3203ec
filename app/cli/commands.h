// SPDX-License-Identifier: MIT
// gcnlens-cli subcommands. Each lives in its own file; they read their arguments with OptionParser
// (options.h) and share the loading and JSON helpers below.
#pragma once

#include "core/model/lds.h"
#include "core/model/occupancy.h"
#include "core/program.h"
#include "core/model/timing.h"

#include "options.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

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

// Reads the source (a file, or standard input for "-") and assembles it. An unreadable, missing,
// binary or oversized input is reported, naming it and the cause, and returns false (exit status
// 2). `sourceText`, when given, receives the text read (the report lists it).
bool loadProgram(const SourceArgs& source, Program& program, QString* sourceText = nullptr);
// How messages name the input: the path, or "<stdin>".
QString inputName(const SourceArgs& source);
// Prints the assembler's diagnostics to stderr as FILE:LINE:COLUMN: SEVERITY: MESSAGE and returns
// how many are errors.
int printDiagnostics(const SourceArgs& source, const Program& program);

// Prints a JSON document to stdout, indented.
void printJson(const QJsonObject& object);
// Writes a line to stderr prefixed with "gcnlens-cli: ".
void printError(const QString& message);

// The program value as JSON (instructions, labels, kernels, diagnostics, registers): `listing --json`,
// and the base `analyze --json` extends.
QJsonObject programToJson(const Program& program);
QJsonObject diagnosticToJson(const Diagnostic& diagnostic);
// programToJson extended with the timing model: per-instruction cycles, penalties and freeing rule,
// blocks, per-kernel and file totals, options and the rule legend (issue #3 section 3). analyze.cpp.
QJsonObject timingToJson(const Program& program, const TimingResult& timing);

// Issue #4 JSON forms, shared by `occupancy`, `lds` and `analyze --json` (resources, occupancy and,
// per DS instruction, lds {degree, cycles, known}; detailed adds groups, bank_load and lanes).
QJsonObject resourcesToJson(const ResourceUsage& usage);
QJsonObject occupancyToJson(const OccupancyResult& result);
QJsonObject ldsToJson(const LdsAccessResult& result, bool detailed = false);
// Adds them to an analyze JSON root: `resources` and `occupancy` on every kernel object (and at the
// top level for the first kernel), `lds` on every DS instruction whose address could be modelled.
void addOccupancyAndLdsJson(QJsonObject& root, const Program& program, const TimingOptions& options);

// Subcommands: args are everything after the subcommand name.
int listingCommand(const QStringList& args);
int analyzeCommand(const QStringList& args);   // issue #3 (analyze.cpp)
int occupancyCommand(const QStringList& args); // issue #4 (occupancy.cpp)
int ldsCommand(const QStringList& args);       // issue #4 (lds.cpp)
int reportCommand(const QStringList& args);    // issue #6 (report.cpp)

} // namespace gcnlens::cli
