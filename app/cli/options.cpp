// SPDX-License-Identifier: MIT
// The shared option parser of gcnlens-cli's subcommands (see options.h).
#include "options.h"

#include "commands.h"

#include "core/input/clrx.h"
#include "core/input/loader.h"
#include "core/options.h"

#include "core/gpu.h"
#include "core/model/timing.h"

#include <QTextStream>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <map>

namespace gcnlens::cli {

namespace {

bool isHelp(const QString& arg)
{
    return arg == QLatin1String("--help") || arg == QLatin1String("-h");
}

// What CLI11 records for a flag given bare, and for a value option given without its value: neither
// can be typed, so "--json=true" is still a flag with a value and "--gpu" at the end a missing value.
constexpr char kBareFlag[] = "\x02"
                             "bare";
constexpr char kNoValue[] = "\x02"
                            "none";
constexpr char kEmptyValue[] = "\x02"
                               "empty";

} // namespace

OptionParser::OptionParser(QString command)
    : command_(std::move(command))
{
}

void OptionParser::addFlag(const QStringList& names, const QString& help, bool* into)
{
    options_.push_back({names, QString(), help, [into](const QString&) {
                            *into = true;
                            return QString();
                        }});
}

void OptionParser::addValue(const QStringList& names, const QString& valueName, const QString& help, Handler handler)
{
    options_.push_back({names, valueName, help, std::move(handler)});
}

void OptionParser::addString(const QStringList& names, const QString& valueName, const QString& help, QString* into)
{
    addValue(names, valueName, help, [into](const QString& value) {
        *into = value;
        return QString();
    });
}

void OptionParser::addInt(const QStringList& names, const QString& valueName, const QString& help, int* into)
{
    addValue(names, valueName, help, [into](const QString& value) {
        bool ok = false;
        const int number = value.toInt(&ok);
        if (!ok)
            return QStringLiteral("not an integer");
        *into = number;
        return QString();
    });
}

void OptionParser::addRefused(const QString& name, const QString& why)
{
    Option option {{name}, QString(), QString(), [why](const QString&) { return why; }};
    option.hidden = true;
    options_.push_back(std::move(option));
}

void OptionParser::setRequired(const QString& name)
{
    if (Option* option = find(name))
        option->required = true;
}

void OptionParser::addInputFile(QString* into)
{
    file_ = into;
}

void OptionParser::addGpu(QString* into)
{
    addValue({QStringLiteral("--gpu")}, QStringLiteral("NAME"),
             QStringLiteral("product preset, LLVM processor or target ID (default tahiti, or a CLRX source's "
                            ".gpu/.arch; see `gcnlens-cli gpus`)"),
             [into](const QString& value) {
                 std::string error;
                 if (!resolveGpu(value.toStdString(), &error))
                     return QString::fromStdString(error);
                 *into = value;
                 return QString();
             });
}

void OptionParser::addSource(SourceArgs& source)
{
    addInputFile(&source.file);
    addGpu(&source.gpu);
    addValue({QStringLiteral("-I")}, QStringLiteral("DIR"),
             QStringLiteral("search DIR for .include and .incbin (repeatable; the file's own folder is searched too)"),
             [&source](const QString& value) {
                 source.includeDirs << value;
                 return QString();
             });
    addValue({QStringLiteral("--defsym")}, QStringLiteral("NAME=VALUE"),
             QStringLiteral("define the symbol NAME as the integer VALUE before assembling (repeatable)"),
             [&source](const QString& value) {
                 std::string error;
                 const auto assignment = parseDefsym(value.toStdString(), &error);
                 if (!assignment)
                     return QString::fromStdString(error);
                 source.defsyms.push_back(*assignment);
                 return QString();
             });
    addValue({QStringLiteral("--input")}, QStringLiteral("KIND"),
             QStringLiteral("what FILE holds: auto (detected; the default), llvm, clrx, binary or listing"),
             [&source](const QString& value) {
                 input::InputKind kind;
                 if (!input::parseInputKind(value.toStdString(), kind))
                     return QStringLiteral("unknown kind (auto, llvm, clrx, binary, listing)");
                 source.input = value;
                 return QString();
             });
    addValue({QStringLiteral("--binary-format")}, QStringLiteral("FORMAT"),
             QStringLiteral("CLRX sources: the binary format clrxasm would write (amd, amdcl2, rocm, gallium, "
                            "rawcode; default amd): steers .iffmt"),
             [&source](const QString& value) {
                 ClrxFormat format;
                 if (!parseClrxFormat(value.toStdString(), format))
                     return QStringLiteral("unknown format (amd, amdcl2, rocm, gallium, rawcode)");
                 source.binaryFormat = value;
                 return QString();
             });
    addFlag({QStringLiteral("--64bit")}, QStringLiteral("CLRX sources: 64-bit binary, as clrxasm -6 (steers .if64)"),
            &source.clrx64);
    addInt({QStringLiteral("--driver-version")}, QStringLiteral("N"),
           QStringLiteral("CLRX sources: the AMD driver version, as clrxasm -t (default: clrxasm's)"), &source.driverVersion);
    // issue #12: the assembler's bounds and the include rule (core/asm/assembler.h, AssembleLimits)
    addValue({QStringLiteral("--limit")}, QStringLiteral("NAME=VALUE"),
             QStringLiteral("raise a bound of the assembler: instructions, bytes, include-depth, incbin-bytes, time "
                            "(seconds; also bounds reading a code object or listing) (repeatable)"),
             [&source](const QString& value) {
                 const qsizetype eq = value.indexOf(QLatin1Char('='));
                 std::string error;
                 if (eq <= 0)
                     return QStringLiteral("expected NAME=VALUE");
                 if (!source.limits.set(value.left(eq).toStdString(), value.mid(eq + 1).toStdString(), &error))
                     return QString::fromStdString(error);
                 return QString();
             });
    addFlag({QStringLiteral("--allow-any-include")},
            QStringLiteral("let .include/.incbin read any regular file, not only the file's folder and -I folders"),
            &source.allowAnyInclude);
    addValue({QStringLiteral("--triple")}, QStringLiteral("TRIPLE"),
             QStringLiteral("assemble for this LLVM triple (amdgcn-amd-amdhsa, amdgcn--; default: as the source needs)"),
             [&source](const QString& value) {
                 if (!value.startsWith(QLatin1String("amdgcn")))
                     return QStringLiteral("gcnlens assembles for amdgcn triples only");
                 source.triple = value;
                 return QString();
             });
}

// Every model option with its default: timing-model.md section 9 (NAME=DEFAULT) and hazards.md
// section 4 (NAME=DEFAULT|OTHER), so `--help` is where a build script finds them.
static QString modelOptionsHelp()
{
    QStringList timing, checks;
    const auto choices = CheckOptions::choices();
    for (const auto& [name, value] : TimingOptions {}.values())
        if (std::none_of(choices.begin(), choices.end(), [&](const CheckOptions::Choice& c) { return c.name == name; }))
            timing << QString::fromStdString(name + "=" + value);
    for (const CheckOptions::Choice& c : choices)
        checks << QString::fromStdString(c.name + "=" + c.defaultValue + "|" + c.otherValue);
    return QStringLiteral("a model option (repeatable). timing-model.md section 9, defaults: %1. hazards.md section 4, "
                          "default first: %2")
        .arg(timing.join(QStringLiteral(", ")), checks.join(QStringLiteral(", ")));
}

void OptionParser::addTimingOptions(TimingOptions& options)
{
    addValue({QStringLiteral("--option")}, QStringLiteral("NAME=VALUE"), modelOptionsHelp(), [&options](const QString& value) {
        const qsizetype eq = value.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return QStringLiteral("write NAME=VALUE");
        const std::string error = options.set(value.left(eq).toStdString(), value.mid(eq + 1).toStdString());
        return QString::fromStdString(error);
    });
}

void OptionParser::addBranchOverrides(BranchOverrides& overrides)
{
    for (const auto& [name, direction] :
         {std::pair {"--taken", Direction::Taken}, std::pair {"--not-taken", Direction::NotTaken}})
        addValue({QLatin1String(name)}, QStringLiteral("LINE"),
                 direction == Direction::Taken
                     ? QStringLiteral("take the conditional jump on source line LINE (repeatable)")
                     : QStringLiteral("fall through the conditional jump on source line LINE (repeatable)"),
                 [&overrides, direction](const QString& value) {
                     bool ok = false;
                     const int line = value.toInt(&ok);
                     if (!ok || line <= 0)
                         return QStringLiteral("needs a source line number");
                     overrides.byLine[line] = direction;
                     return QString();
                 });
}

void OptionParser::addPatternParameters(std::map<std::string, std::int64_t>& parameters)
{
    addValue({QStringLiteral("--set")}, QStringLiteral("NAME=VALUE"),
             QStringLiteral("give a name in the pattern an integer value (repeatable)"), [&parameters](const QString& value) {
                 const auto assignment = parseDefsym(value.toStdString());
                 if (!assignment)
                     return QStringLiteral("write NAME=INTEGER");
                 parameters[assignment->first] = assignment->second;
                 return QString();
             });
}

void OptionParser::addJson(bool* into)
{
    addFlag({QStringLiteral("--json")}, QStringLiteral("print JSON instead of text"), into);
}

OptionParser::Option* OptionParser::find(const QString& name)
{
    for (Option& option : options_)
        if (option.names.contains(name))
            return &option;
    return nullptr;
}

int OptionParser::usageError(const QString& message) const
{
    printError(QStringLiteral("%1: %2").arg(command_, message));
    return ExitUsage;
}

std::optional<int> OptionParser::parse(const QStringList& args)
{
    // --help anywhere before "--" wins over any other mistake on the line.
    for (const QString& arg : args) {
        if (arg == QLatin1String("--"))
            break;
        if (isHelp(arg)) {
            QTextStream(stdout) << help();
            return ExitOk;
        }
    }

    // What follows "--" is operands only and stays out of CLI11. The first mistake on the line is the
    // one reported: when an unknown option stands before the end, the part before it is read first.
    const qsizetype marker = args.indexOf(QStringLiteral("--"));
    const QStringList head = marker < 0 ? args : args.first(marker);
    qsizetype unknown = -1;
    if (const auto status = readOptions(head, &unknown))
        return status;
    if (unknown >= 0) {
        if (const auto status = readOptions(head.first(unknown), nullptr))
            return status;
        return usageError(QStringLiteral("unknown option '%1' (see `gcnlens-cli %2 --help`)").arg(head[unknown], command_));
    }
    if (marker >= 0)
        for (const QString& arg : args.mid(marker + 1))
            if (const auto status = takeOperand(arg))
                return status;

    for (const Option& option : options_)
        if (option.required && !option.seen)
            return usageError(QStringLiteral("%1 %2 is required").arg(option.names.first(), option.valueName));
    if (file_ && file_->isEmpty())
        return usageError(QStringLiteral("no input file given (FILE, or - for standard input)"));
    return std::nullopt;
}

std::optional<int> OptionParser::readOptions(const QStringList& args, qsizetype* firstUnknown)
{
    // CLI11 splits the line: "--name=value", "-Ivalue", "--name value", positionals and unknown options.
    // Every name is its own CLI11 option so that a message names the spelling the user typed (-o or
    // --output); the handlers then run here, in the order of the line.
    CLI::App app;
    app.set_help_flag();
    app.allow_extras();
    struct Binding {
        Option* option;
        QString name;
    };
    std::map<const CLI::Option*, Binding> bindings;
    for (Option& option : options_)
        for (const QString& name : option.names) {
            CLI::Option* bound = option.valueName.isEmpty()
                ? app.add_flag(name.toStdString() + "{" + kBareFlag + "}")
                // 0..1 values: a value that looks like an option is not swallowed, and a missing
                // value leaves kNoValue behind instead of an exception without the option's spelling.
                : app.add_option(name.toStdString())->expected(0, 1)->default_str(kNoValue);
            bound->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
            bindings.emplace(bound, Binding {&option, name});
        }
    const CLI::Option* operands = app.add_option("FILE")->expected(0, -1);

    std::vector<std::string> line;
    for (qsizetype i = args.size() - 1; i >= 0; --i) { // CLI11 takes the arguments last first
        line.push_back(args[i].toStdString());
        if (args[i].startsWith(QLatin1String("--")) && args[i].endsWith(QLatin1Char('=')))
            line.back() += kEmptyValue; // "--gpu=" gives the empty value, not the next argument
    }
    try {
        app.parse(line);
    } catch (const CLI::ParseError& error) {
        return usageError(QString::fromStdString(error.what()));
    }

    // Unknown options: what CLI11 left over, and what it took for operands but starts with '-'
    // ("---x", "-5"; "-" is standard input).
    const auto isOption = [](const QString& arg) { return arg.startsWith(QLatin1Char('-')) && arg != QLatin1String("-"); };
    if (firstUnknown) {
        std::vector<std::string> suspects = app.remaining();
        suspects.insert(suspects.end(), operands->results().begin(), operands->results().end());
        for (const std::string& suspect : suspects) {
            const QString arg = QString::fromStdString(suspect).remove(QLatin1String(kEmptyValue));
            if (const qsizetype at = args.indexOf(arg); isOption(arg) && (*firstUnknown < 0 || at < *firstUnknown))
                *firstUnknown = at;
        }
        if (*firstUnknown >= 0)
            return std::nullopt;
        // None: this parse is the line's, and its handlers run now (a second CLI11 App, built
        // again option by option, cost as much as the rest of the parse; fuzz_options, issue #12).
    }

    std::map<const CLI::Option*, std::size_t> taken; // results used so far, per option
    for (const CLI::Option* parsed : app.parse_order()) {
        QString value = QString::fromStdString(parsed->results()[taken[parsed]++]);
        if (parsed == operands) {
            if (const auto status = takeOperand(value))
                return status;
            continue;
        }
        auto& [option, name] = bindings.at(parsed);
        option->seen = true;
        if (option->valueName.isEmpty() && value != QLatin1String(kBareFlag))
            return usageError(QStringLiteral("%1 takes no value").arg(name));
        if (!option->valueName.isEmpty() && value == QLatin1String(kNoValue))
            return usageError(QStringLiteral("%1 needs a value (%1 %2)").arg(name, option->valueName));
        if (value == QLatin1String(kEmptyValue) || option->valueName.isEmpty())
            value.clear();
        if (const QString error = option->handler(value); !error.isEmpty())
            return usageError(option->valueName.isEmpty() ? QStringLiteral("%1: %2").arg(name, error)
                                                          : QStringLiteral("%1 '%2': %3").arg(name, value, error));
    }
    for (const std::string& rest : app.remaining()) // operands beyond the first (unknown options are out)
        if (const auto status = takeOperand(QString::fromStdString(rest)))
            return status;
    return std::nullopt;
}

std::optional<int> OptionParser::takeOperand(const QString& arg)
{
    if (!file_)
        return usageError(QStringLiteral("unexpected argument '%1' (%2 takes no input file)").arg(arg, command_));
    if (!file_->isEmpty())
        return usageError(QStringLiteral("unexpected argument '%1' (the input file is already '%2')").arg(arg, *file_));
    *file_ = arg;
    return std::nullopt;
}

QString OptionParser::help() const
{
    const CommandInfo* info = findCommand(command_);
    QString text = QStringLiteral("usage: gcnlens-cli %1").arg(command_);
    if (info && *info->synopsis)
        text += QLatin1Char(' ') + QLatin1String(info->synopsis);
    text += QLatin1Char('\n');
    if (info)
        text += QStringLiteral("%1\n").arg(QLatin1String(info->summary));

    std::vector<std::pair<QString, QString>> rows;
    if (file_)
        rows.emplace_back(QStringLiteral("FILE"), QStringLiteral("the kernel source (assembly text); - reads standard input"));
    for (const Option& option : options_) {
        if (option.hidden)
            continue;
        QString left = option.names.join(QLatin1String(", "));
        if (!option.valueName.isEmpty())
            left += QLatin1Char(' ') + option.valueName;
        rows.emplace_back(left + (option.required ? QStringLiteral(" (required)") : QString()), option.help);
    }
    rows.emplace_back(QStringLiteral("-h, --help"), QStringLiteral("show this help"));
    qsizetype width = 0;
    for (const auto& row : rows)
        width = std::max(width, row.first.size());
    text += QLatin1Char('\n');
    for (const auto& [left, right] : rows)
        text += QStringLiteral("  %1  %2\n").arg(left, -int(width)).arg(right);
    text += file_ ? QStringLiteral("\nexit status: 0 clean, 1 the input had assembler errors (output still produced), "
                                   "2 bad usage or unreadable input\n")
                  : QStringLiteral("\nexit status: 0 done, 2 bad usage\n");
    return text;
}

} // namespace gcnlens::cli
