// SPDX-License-Identifier: MIT
// gcnlens-cli subcommands. Each lives in its own file; they share the argument parsing below.
#pragma once

#include "core/lds.h"
#include "core/occupancy.h"
#include "core/program.h"
#include "core/timing.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace gcnlens::cli {

// Exit statuses (issue #2 section 5).
enum ExitStatus { ExitOk = 0, ExitInputErrors = 1, ExitUsage = 2 };

int run(int argc, char** argv);

// Options most subcommands share. parse() consumes what it knows and leaves the rest in `rest`.
struct CommonArgs {
    QString file;                 // the kernel source, "-" for standard input
    QString gpu = QStringLiteral("tahiti");
    QStringList includeDirs;      // -I DIR
    QStringList defsyms;          // --defsym NAME=VALUE
    QStringList options;          // --option NAME=VALUE (timing-model.md section 9)
    bool json = false;
    QStringList rest;             // arguments the subcommand must handle itself
};

// Parses the shared options; on error prints the cause to stderr and returns false.
bool parseCommon(const QStringList& args, CommonArgs& out);

// Reads the file and assembles it; on an unreadable file or bad --gpu/--defsym prints why and
// returns false (exit status 2).
bool loadProgram(const CommonArgs& args, Program& program);

// --option NAME=VALUE into TimingOptions; prints the cause and returns false on a bad one.
bool applyOptions(const QStringList& options, TimingOptions& timingOptions);

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
