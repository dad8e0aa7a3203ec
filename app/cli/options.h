// SPDX-License-Identifier: MIT
// The command line of one gcnlens-cli subcommand: its options are declared once, with their help
// text, and the same parser reads them, reports bad ones (naming the option and the value, exit 2)
// and prints `COMMAND --help`. Every subcommand uses it, so the flags they share (--gpu, -I,
// --defsym, --option, --json) behave and read the same everywhere. CLI11 splits the line (options.cpp);
// the declarations, messages and help text are gcnlens's own, and CLI11 stays out of this header.
// No Qt here or anywhere in gcnlens-cli: loading Qt Core and its libraries (ICU, GLib, PCRE2) was
// 10 of the 13 ms a command took to start (issue #18). Strings are the bytes of the command line.
#pragma once

#include "core/asm/assembler.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcnlens {
struct TimingOptions;
struct BranchOverrides;
}

namespace gcnlens::cli {

using Args = std::vector<std::string>; // a command's arguments, after its name

// What a command needs to assemble its input (issue #2 section 5).
struct SourceArgs {
    std::string file;                                          // the kernel source; "-" reads standard input
    std::string gpu;                                           // --gpu; empty: tahiti, or a CLRX source's own .gpu/.arch
    std::vector<std::string> includeDirs;                      // -I DIR
    std::vector<std::pair<std::string, std::int64_t>> defsyms; // --defsym NAME=VALUE
    std::string input = "auto";                                // --input KIND (core/input/loader.h)
    // clrxasm's options for CLRX sources (issue #13): they steer .iffmt/.if64 as in clrxasm.
    std::string binaryFormat = "amd"; // --binary-format
    bool clrx64 = false;              // --64bit
    int driverVersion = 0;            // --driver-version
    AssembleLimits limits;            // --limit NAME=VALUE (issue #12)
    bool allowAnyInclude = false;     // --allow-any-include
    std::string triple;               // --triple: the assembler's target triple (empty: as the source's own build would)
};

// A decimal integer as the options take it: surrounding white space and a sign allowed; nullopt
// when it is not one or does not fit an int.
std::optional<int> parseInt(std::string_view text);

class OptionParser {
public:
    // Checks a value (empty for a flag) and stores it; returns why it is wrong, or an empty string.
    using Handler = std::function<std::string(const std::string& value)>;
    using Names = std::vector<std::string>;

    // `command` is the subcommand's name, used in messages and to find its synopsis for --help.
    explicit OptionParser(std::string command);

    // names: "--long" and/or "-x"; help: one line for --help.
    void addFlag(const Names& names, const std::string& help, bool* into);
    void addValue(const Names& names, const std::string& valueName, const std::string& help, Handler handler);
    void addString(const Names& names, const std::string& valueName, const std::string& help, std::string* into);
    void addInt(const Names& names, const std::string& valueName, const std::string& help, int* into);
    // An option the command does not take but a user may well try: refused with `why`, not listed.
    void addRefused(const std::string& name, const std::string& why);
    // The option must be given (checked after parsing, by its first name).
    void setRequired(const std::string& name);

    // The input FILE ("-" for standard input), required.
    void addInputFile(std::string* into);
    // The shared groups. addSource: FILE, --gpu, -I, --defsym, --input (checked here: a --gpu that does not
    // resolve or a --defsym without an integer is a usage error before any file is read).
    void addSource(SourceArgs& source);
    void addGpu(std::string* into);
    // --option NAME=VALUE into TimingOptions (timing-model.md section 9).
    void addTimingOptions(TimingOptions& options);
    // --taken LINE / --not-taken LINE: the assumed direction of the conditional jump on a line.
    void addBranchOverrides(BranchOverrides& overrides);
    // --set NAME=VALUE: an integer for a name in an LDS address pattern (lds, report --pattern).
    void addPatternParameters(std::map<std::string, std::int64_t>& parameters);
    void addJson(bool* into);

    // Reads the arguments after the subcommand name. Returns nullopt to go on, or the exit status
    // to end with: 0 after --help (printed to stdout), 2 after a usage error (printed to stderr).
    std::optional<int> parse(const Args& args);

    std::string help() const;

private:
    struct Option {
        Names names;
        std::string valueName; // empty for a flag
        std::string help;
        Handler handler;
        bool hidden = false;
        bool required = false;
        bool seen = false;
    };
    Option* find(const std::string& name);
    int usageError(const std::string& message) const;
    // Reads the options part of the line (before "--") with CLI11 and runs the handlers in order. With
    // firstUnknown (set to -1 by the caller), first finds where the first unknown option stands and,
    // when there is one, runs nothing.
    std::optional<int> readOptions(const Args& args, std::ptrdiff_t* firstUnknown);
    // The input file, once; anything else is an unexpected argument.
    std::optional<int> takeOperand(const std::string& arg);

    std::string command_;
    std::vector<Option> options_;
    std::string* file_ = nullptr;
};

} // namespace gcnlens::cli
