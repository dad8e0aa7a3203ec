// SPDX-License-Identifier: MIT
// gcnlens-cli subcommands. Each lives in its own file; they read their arguments with OptionParser
// (options.h) and share the loading and JSON helpers below.
#pragma once

#include "core/analysis.h"

#include "options.h"

#include <format>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
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
    int (*run)(const Args& args);
};
const CommandInfo* findCommand(std::string_view name);

// Reads the source (a file, or standard input for "-") with the one loader (core/input/loader.h)
// and assembles it. An unreadable, missing, binary or oversized input is reported, naming it and
// the cause, and returns false (exit status 2). `sourceText`, when given, receives the text read.
bool loadProgram(const SourceArgs& source, Program& program, std::string* sourceText = nullptr);
// The same, through every model (core/analysis.h): what analyze and report print.
// `assembledWith`, when given, receives the request with its assembler options when the input
// was source text (fix-its re-assemble edited text with them), and stays empty otherwise;
// `crlf`, whether the loader found CR LF line breaks in it.
bool loadAnalysis(const SourceArgs& source, AnalysisRequest request, Analysis& analysis, std::string* sourceText = nullptr,
                  std::optional<AnalysisRequest>* assembledWith = nullptr, bool* crlf = nullptr);
// How messages name the input: the path, or "<stdin>".
std::string inputName(const SourceArgs& source);
// Prints the assembler's diagnostics to stderr as FILE:LINE:COLUMN: SEVERITY: MESSAGE and returns
// how many are errors.
int printDiagnostics(const SourceArgs& source, const Program& program);

// Writes a line to stderr prefixed with "gcnlens-cli: ".
void printError(std::string_view message);

// Writes text to a stream as valid UTF-8 (validUtf8, without the copy; run() checks standard
// output once the command ends).
void print(std::FILE* to, std::string_view text);
// Text as valid UTF-8: each byte that starts no well-formed sequence becomes U+FFFD (ASCII, the
// usual case, passes as is). Names read from a code object may hold any bytes.
void appendUtf8(std::string& out, std::string_view text);
std::string validUtf8(std::string_view text);
// Every byte below 0x80 (checked eight at a time: it is asked of every printed instruction).
bool isAscii(std::string_view text);
// `value` in `base` (lowercase digits, no prefix) right-aligned to `width` with `fill`, as printf's
// "%6d" or "%08x" would write it, without a string per field (std::to_chars).
void appendNumber(std::string& out, std::int64_t value, std::size_t width, char fill, int base = 10);
// The same written at `at`, which has room for max(width, 23) characters; returns the end.
char* writeNumber(char* at, std::int64_t value, std::size_t width, char fill, int base = 10);
// A fix of several lines ("s_nop 7\ns_nop 1") on one: "s_nop 7; s_nop 1".
std::string oneLine(std::string_view text);

// Subcommands: args are everything after the subcommand name.
int listingCommand(const Args& args);
int analyzeCommand(const Args& args);   // issue #3 (analyze.cpp)
int occupancyCommand(const Args& args); // issue #4 (occupancy.cpp)
int ldsCommand(const Args& args);       // issue #4 (lds.cpp)
int reportCommand(const Args& args);    // issue #6 (report.cpp)
int checkCommand(const Args& args);     // issue #17 (check.cpp): exit 3 on findings

} // namespace gcnlens::cli
