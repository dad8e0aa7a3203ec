// SPDX-License-Identifier: MIT
// The shared option parser of gcnlens-cli's subcommands (see options.h).
#include "options.h"

#include "commands.h"

#include "core/input/clrx.h"
#include "core/input/loader.h"
#include "core/options.h"

#include "core/gpu.h"
#include "core/model/timing.h"
#include "core/support/text.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <format>
#include <map>

namespace gcnlens::cli {

namespace {

bool isHelp(const std::string& arg)
{
    return arg == "--help" || arg == "-h";
}

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

// What CLI11 records for a flag given bare, and for a value option given without its value: neither
// can be typed, so "--json=true" is still a flag with a value and "--gpu" at the end a missing value.
constexpr char kBareFlag[] = "\x02"
                             "bare";
constexpr char kNoValue[] = "\x02"
                            "none";
constexpr char kEmptyValue[] = "\x02"
                               "empty";

std::string join(const std::vector<std::string>& parts, std::string_view separator)
{
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i)
        text.append(i ? separator : std::string_view()).append(parts[i]);
    return text;
}

} // namespace

std::optional<int> parseInt(std::string_view text)
{
    text = detail::trim(text);
    if (text.size() > 1 && text.front() == '+' && text[1] != '-')
        text.remove_prefix(1);
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

OptionParser::OptionParser(std::string command)
    : command_(std::move(command))
{
}

void OptionParser::addFlag(const Names& names, const std::string& help, bool* into)
{
    options_.push_back({names, std::string(), help, [into](const std::string&) {
                            *into = true;
                            return std::string();
                        }});
}

void OptionParser::addValue(const Names& names, const std::string& valueName, const std::string& help, Handler handler)
{
    options_.push_back({names, valueName, help, std::move(handler)});
}

void OptionParser::addString(const Names& names, const std::string& valueName, const std::string& help, std::string* into)
{
    addValue(names, valueName, help, [into](const std::string& value) {
        *into = value;
        return std::string();
    });
}

void OptionParser::addInt(const Names& names, const std::string& valueName, const std::string& help, int* into)
{
    addValue(names, valueName, help, [into](const std::string& value) {
        const auto number = parseInt(value);
        if (!number)
            return std::string("not an integer");
        *into = *number;
        return std::string();
    });
}

void OptionParser::addRefused(const std::string& name, const std::string& why)
{
    Option option {{name}, std::string(), std::string(), [why](const std::string&) { return why; }};
    option.hidden = true;
    options_.push_back(std::move(option));
}

void OptionParser::setRequired(const std::string& name)
{
    if (Option* option = find(name))
        option->required = true;
}

void OptionParser::addInputFile(std::string* into)
{
    file_ = into;
}

void OptionParser::addGpu(std::string* into)
{
    addValue({"--gpu"}, "NAME",
             "product preset, LLVM processor or target ID (default tahiti, or a CLRX source's .gpu/.arch; see `gcnlens-cli "
             "gpus`)",
             [into](const std::string& value) {
                 std::string error;
                 if (!resolveGpu(value, &error))
                     return error;
                 *into = value;
                 return std::string();
             });
}

void OptionParser::addSource(SourceArgs& source)
{
    addInputFile(&source.file);
    addGpu(&source.gpu);
    addValue({"-I"}, "DIR", "search DIR for .include and .incbin (repeatable; the file's own folder is searched too)",
             [&source](const std::string& value) {
                 source.includeDirs.push_back(value);
                 return std::string();
             });
    addValue({"--defsym"}, "NAME=VALUE", "define the symbol NAME as the integer VALUE before assembling (repeatable)",
             [&source](const std::string& value) {
                 std::string error;
                 const auto assignment = parseDefsym(value, &error);
                 if (!assignment)
                     return error;
                 source.defsyms.push_back(*assignment);
                 return std::string();
             });
    addValue({"--input"}, "KIND", "what FILE holds: auto (detected; the default), llvm, clrx, binary or listing",
             [&source](const std::string& value) {
                 input::InputKind kind;
                 if (!input::parseInputKind(value, kind))
                     return std::string("unknown kind (auto, llvm, clrx, binary, listing)");
                 source.input = value;
                 return std::string();
             });
    addValue({"--binary-format"}, "FORMAT",
             "CLRX sources: the binary format clrxasm would write (amd, amdcl2, rocm, gallium, rawcode; default amd): "
             "steers .iffmt",
             [&source](const std::string& value) {
                 ClrxFormat format;
                 if (!parseClrxFormat(value, format))
                     return std::string("unknown format (amd, amdcl2, rocm, gallium, rawcode)");
                 source.binaryFormat = value;
                 return std::string();
             });
    addFlag({"--64bit"}, "CLRX sources: 64-bit binary, as clrxasm -6 (steers .if64)", &source.clrx64);
    addInt({"--driver-version"}, "N", "CLRX sources: the AMD driver version, as clrxasm -t (default: clrxasm's)",
           &source.driverVersion);
    // issue #12: the assembler's bounds and the include rule (core/asm/assembler.h, AssembleLimits)
    addValue({"--limit"}, "NAME=VALUE",
             "raise a bound of the assembler: instructions, bytes, include-depth, incbin-bytes, time (seconds; also bounds "
             "reading a code object or listing) (repeatable)",
             [&source](const std::string& value) {
                 const std::size_t eq = value.find('=');
                 std::string error;
                 if (eq == std::string::npos || eq == 0)
                     return std::string("expected NAME=VALUE");
                 if (!source.limits.set(value.substr(0, eq), value.substr(eq + 1), &error))
                     return error;
                 return std::string();
             });
    addFlag({"--allow-any-include"}, "let .include/.incbin read any regular file, not only the file's folder and -I folders",
            &source.allowAnyInclude);
    addValue({"--triple"}, "TRIPLE", "assemble for this LLVM triple (amdgcn-amd-amdhsa, amdgcn--; default: as the source needs)",
             [&source](const std::string& value) {
                 if (!startsWith(value, "amdgcn"))
                     return std::string("gcnlens assembles for amdgcn triples only");
                 source.triple = value;
                 return std::string();
             });
}

// Every model option with its default: timing-model.md section 9 (NAME=DEFAULT) and hazards.md
// section 4 (NAME=DEFAULT|OTHER), so `--help` is where a build script finds them.
static std::string modelOptionsHelp()
{
    std::vector<std::string> timing, checks;
    const auto choices = CheckOptions::choices();
    for (const auto& [name, value] : TimingOptions {}.values())
        if (std::none_of(choices.begin(), choices.end(), [&](const CheckOptions::Choice& c) { return c.name == name; }))
            timing.push_back(name + "=" + value);
    for (const CheckOptions::Choice& c : choices)
        checks.push_back(c.name + "=" + c.defaultValue + "|" + c.otherValue);
    return std::format("a model option (repeatable). timing-model.md section 9, defaults: {}. hazards.md section 4, default "
                       "first: {}",
                       join(timing, ", "), join(checks, ", "));
}

void OptionParser::addTimingOptions(TimingOptions& options)
{
    addValue({"--option"}, "NAME=VALUE", modelOptionsHelp(), [&options](const std::string& value) {
        const std::size_t eq = value.find('=');
        if (eq == std::string::npos || eq == 0)
            return std::string("write NAME=VALUE");
        return options.set(value.substr(0, eq), value.substr(eq + 1));
    });
}

void OptionParser::addBranchOverrides(BranchOverrides& overrides)
{
    for (const auto& [name, direction] :
         {std::pair {"--taken", Direction::Taken}, std::pair {"--not-taken", Direction::NotTaken}})
        addValue({name}, "LINE",
                 direction == Direction::Taken ? "take the conditional jump on source line LINE (repeatable)"
                                               : "fall through the conditional jump on source line LINE (repeatable)",
                 [&overrides, direction](const std::string& value) {
                     const auto line = parseInt(value);
                     if (!line || *line <= 0)
                         return std::string("needs a source line number");
                     overrides.byLine[*line] = direction;
                     return std::string();
                 });
}

void OptionParser::addPatternParameters(std::map<std::string, std::int64_t>& parameters)
{
    addValue({"--set"}, "NAME=VALUE", "give a name in the pattern an integer value (repeatable)",
             [&parameters](const std::string& value) {
                 const auto assignment = parseDefsym(value);
                 if (!assignment)
                     return std::string("write NAME=INTEGER");
                 parameters[assignment->first] = assignment->second;
                 return std::string();
             });
}

void OptionParser::addJson(bool* into)
{
    addFlag({"--json"}, "print JSON instead of text", into);
}

OptionParser::Option* OptionParser::find(const std::string& name)
{
    for (Option& option : options_)
        if (std::find(option.names.begin(), option.names.end(), name) != option.names.end())
            return &option;
    return nullptr;
}

int OptionParser::usageError(const std::string& message) const
{
    printError(command_ + ": " + message);
    return ExitUsage;
}

std::optional<int> OptionParser::parse(const Args& args)
{
    // --help anywhere before "--" wins over any other mistake on the line.
    for (const std::string& arg : args) {
        if (arg == "--")
            break;
        if (isHelp(arg)) {
            const std::string text = help();
            std::fwrite(text.data(), 1, text.size(), stdout);
            return ExitOk;
        }
    }

    // What follows "--" is operands only and stays out of CLI11. The first mistake on the line is the
    // one reported: when an unknown option stands before the end, the part before it is read first.
    const auto marker = std::find(args.begin(), args.end(), "--");
    const Args head(args.begin(), marker);
    std::ptrdiff_t unknown = -1;
    if (const auto status = readOptions(head, &unknown))
        return status;
    if (unknown >= 0) {
        if (const auto status = readOptions(Args(head.begin(), head.begin() + unknown), nullptr))
            return status;
        return usageError(std::format("unknown option '{}' (see `gcnlens-cli {} --help`)", head[std::size_t(unknown)], command_));
    }
    if (marker != args.end())
        for (auto arg = marker + 1; arg != args.end(); ++arg)
            if (const auto status = takeOperand(*arg))
                return status;

    for (const Option& option : options_)
        if (option.required && !option.seen)
            return usageError(std::format("{} {} is required", option.names.front(), option.valueName));
    if (file_ && file_->empty())
        return usageError("no input file given (FILE, or - for standard input)");
    return std::nullopt;
}

std::optional<int> OptionParser::readOptions(const Args& args, std::ptrdiff_t* firstUnknown)
{
    // CLI11 splits the line: "--name=value", "-Ivalue", "--name value", positionals and unknown options.
    // Every name is its own CLI11 option so that a message names the spelling the user typed (-o or
    // --output); the handlers then run here, in the order of the line.
    CLI::App app;
    app.set_help_flag();
    app.allow_extras();
    struct Binding {
        Option* option;
        std::string name;
    };
    std::map<const CLI::Option*, Binding> bindings;
    for (Option& option : options_)
        for (const std::string& name : option.names) {
            CLI::Option* bound = option.valueName.empty()
                ? app.add_flag(name + "{" + kBareFlag + "}")
                // 0..1 values: a value that looks like an option is not swallowed, and a missing
                // value leaves kNoValue behind instead of an exception without the option's spelling.
                : app.add_option(name)->expected(0, 1)->default_str(kNoValue);
            bound->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
            bindings.emplace(bound, Binding {&option, name});
        }
    const CLI::Option* operands = app.add_option("FILE")->expected(0, -1);

    std::vector<std::string> line;
    for (auto arg = args.rbegin(); arg != args.rend(); ++arg) { // CLI11 takes the arguments last first
        line.push_back(*arg);
        if (startsWith(*arg, "--") && arg->ends_with('='))
            line.back() += kEmptyValue; // "--gpu=" gives the empty value, not the next argument
    }
    try {
        app.parse(line);
    } catch (const CLI::ParseError& error) {
        return usageError(error.what());
    }

    // Unknown options: what CLI11 left over, and what it took for operands but starts with '-'
    // ("---x", "-5"; "-" is standard input).
    const auto isOption = [](const std::string& arg) { return startsWith(arg, "-") && arg != "-"; };
    if (firstUnknown) {
        std::vector<std::string> suspects = app.remaining();
        suspects.insert(suspects.end(), operands->results().begin(), operands->results().end());
        for (std::string arg : suspects) {
            if (const std::size_t mark = arg.find(kEmptyValue); mark != std::string::npos)
                arg.erase(mark, sizeof kEmptyValue - 1);
            const auto found = std::find(args.begin(), args.end(), arg);
            const std::ptrdiff_t at = found == args.end() ? -1 : found - args.begin();
            if (isOption(arg) && (*firstUnknown < 0 || at < *firstUnknown))
                *firstUnknown = at;
        }
        if (*firstUnknown >= 0)
            return std::nullopt;
        // None: this parse is the line's, and its handlers run now (a second CLI11 App, built
        // again option by option, cost as much as the rest of the parse; fuzz_options, issue #12).
    }

    std::map<const CLI::Option*, std::size_t> taken; // results used so far, per option
    for (const CLI::Option* parsed : app.parse_order()) {
        std::string value = parsed->results()[taken[parsed]++];
        if (parsed == operands) {
            if (const auto status = takeOperand(value))
                return status;
            continue;
        }
        auto& [option, name] = bindings.at(parsed);
        option->seen = true;
        if (option->valueName.empty() && value != kBareFlag)
            return usageError(name + " takes no value");
        if (!option->valueName.empty() && value == kNoValue)
            return usageError(std::format("{0} needs a value ({0} {1})", name, option->valueName));
        if (value == kEmptyValue || option->valueName.empty())
            value.clear();
        if (const std::string error = option->handler(value); !error.empty())
            return usageError(option->valueName.empty() ? std::format("{}: {}", name, error)
                                                        : std::format("{} '{}': {}", name, value, error));
    }
    for (const std::string& rest : app.remaining()) // operands beyond the first (unknown options are out)
        if (const auto status = takeOperand(rest))
            return status;
    return std::nullopt;
}

std::optional<int> OptionParser::takeOperand(const std::string& arg)
{
    if (!file_)
        return usageError(std::format("unexpected argument '{}' ({} takes no input file)", arg, command_));
    if (!file_->empty())
        return usageError(std::format("unexpected argument '{}' (the input file is already '{}')", arg, *file_));
    *file_ = arg;
    return std::nullopt;
}

std::string OptionParser::help() const
{
    const CommandInfo* info = findCommand(command_);
    std::string text = "usage: gcnlens-cli " + command_;
    if (info && *info->synopsis)
        text += std::string(" ") + info->synopsis;
    text += '\n';
    if (info)
        text += std::string(info->summary) + "\n";

    std::vector<std::pair<std::string, std::string>> rows;
    if (file_)
        rows.emplace_back("FILE", "the kernel source (assembly text); - reads standard input");
    for (const Option& option : options_) {
        if (option.hidden)
            continue;
        std::string left = join(option.names, ", ");
        if (!option.valueName.empty())
            left += " " + option.valueName;
        rows.emplace_back(left + (option.required ? " (required)" : ""), option.help);
    }
    rows.emplace_back("-h, --help", "show this help");
    std::size_t width = 0;
    for (const auto& row : rows)
        width = std::max(width, row.first.size());
    text += '\n';
    for (const auto& [left, right] : rows)
        text += std::format("  {:<{}}  {}\n", left, width, right);
    text += file_ ? "\nexit status: 0 clean, 1 the input had assembler errors (output still produced), 2 bad usage or "
                    "unreadable input\n"
                  : "\nexit status: 0 done, 2 bad usage\n";
    return text;
}

} // namespace gcnlens::cli
