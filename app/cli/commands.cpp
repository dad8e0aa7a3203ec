// SPDX-License-Identifier: MIT
// Subcommand dispatch, reading and assembling the input, the program's JSON, and the `listing`
// and `gpus` subcommands.
#include "commands.h"

#include "core/asm/assembler.h"
#include "core/asm/isolated.h"
#include "core/gpu.h"
#include "core/input/loader.h"
#include "core/input/readers.h"
#include "core/present/json.h"

#include "gcnlens-config.h"

#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace gcnlens::cli {

namespace {

int gpusCommand(const QStringList& args);

const CommandInfo kCommands[] = {
    {"listing", "FILE [--gpu NAME] [-I DIR]... [--defsym NAME=VALUE]... [--json]",
     "each instruction's line, offset, size, encoding and text, from LLVM's AMDGPU assembler", listingCommand},
    {"analyze",
     "FILE [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--taken LINE]... [--not-taken LINE]... "
     "[--json]",
     "cycles, fetch-alignment, branch and hazard penalties (timing-model.md)", analyzeCommand},
    {"occupancy", "--vgprs N --sgprs N [--gpu NAME] [--agprs N] [--lds BYTES] [--workgroup N] [...] [--json]",
     "waves per SIMD and per CU, the limiting resource, next-step hints", occupancyCommand},
    {"check", "FILE [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--json] [--fix-its]",
     "wait-state hazards and s_waitcnt misuse (hazards.md); exit status 3 when any is found", checkCommand},
    {"lds", "--pattern EXPR [--width BYTES | --op NAME] [--set NAME=VALUE]... [--option N=V]... [--json]",
     "LDS bank conflicts of a per-lane address pattern", ldsCommand},
#if GCNLENS_HAVE_REPORT
    // needs gcnlens_ui (Qt Gui: QPdfWriter)
    {"report",
     "FILE -o OUT.pdf [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--page a4|letter]\n"
     "       [--taken LINE]... [--not-taken LINE]... [--kernel NAME] [--vgprs N] [--agprs N] [--sgprs N] [--lds BYTES]\n"
     "       [--workgroup N] [--pattern EXPR [--op BYTES|NAME] [--set NAME=VALUE]...]",
     "an annotated PDF report (-o - writes it to standard output)", reportCommand},
#endif
    {"gpus", "", "the GPU presets and LLVM processor names --gpu accepts", gpusCommand},
};

void printUsage(FILE* to)
{
    QString text = QStringLiteral("usage: gcnlens-cli COMMAND [ARGS]\n       gcnlens-cli --help | --version\n\ncommands:\n");
    for (const auto& command : kCommands)
        text += QStringLiteral("  %1%2\n      %3\n")
                    .arg(QLatin1String(command.name),
                         *command.synopsis ? QLatin1Char(' ') + QLatin1String(command.synopsis) : QString(),
                         QLatin1String(command.summary));
    text += QStringLiteral("\nFILE is a kernel source; - reads standard input. `gcnlens-cli COMMAND --help` lists a\n"
                           "command's options.\n"
                           "exit status: 0 clean, 1 the input had errors (output still produced), "
                           "2 bad usage or unreadable input\n");
    std::fputs(text.toLocal8Bit().constData(), to);
}

int gpusCommand(const QStringList& args)
{
    OptionParser parser(QStringLiteral("gpus"));
    if (const auto status = parser.parse(args))
        return *status;
    QTextStream out(stdout);
    out << "presets (product, processor, DPFACTOR, compute units):\n";
    for (const auto& preset : gpuPresets())
        out << "  " << QString::fromStdString(preset.name) << "\t" << QString::fromStdString(preset.processor) << "\t"
            << preset.dpfactor << "\t" << preset.computeUnits << "\n";
    out << "processors:\n ";
    for (const auto& name : knownProcessors())
        out << " " << QString::fromStdString(name);
    out << "\n";
    return ExitOk;
}

// Text as QTextStream wrote it: UTF-8, an invalid sequence as U+FFFD (ASCII, the usual case, as is).
void appendUtf8(std::string& out, const std::string& text)
{
    if (std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        out += text;
    else
        out += QString::fromStdString(text).toStdString();
}

} // namespace

void printError(const QString& message)
{
    std::cerr << "gcnlens-cli: " << message.toStdString() << std::endl;
}

const CommandInfo* findCommand(const QString& name)
{
    for (const auto& command : kCommands)
        if (name == QLatin1String(command.name))
            return &command;
    return nullptr;
}

QString inputName(const SourceArgs& source)
{
    return source.file == QLatin1String("-") ? QStringLiteral("<stdin>") : source.file;
}

namespace {

AssembleOptions assembleOptions(const SourceArgs& source, input::InputKind kind)
{
    AssembleOptions options;
    options.gpu = source.gpu.isEmpty() ? std::string("tahiti") : source.gpu.toStdString();
    // CLRX sources (detected or --input clrx): clrxasm's options, and their own .gpu unless --gpu.
    options.dialect = kind == input::InputKind::Clrx ? AssembleOptions::Dialect::Clrx : AssembleOptions::Dialect::Llvm;
    options.gpuFromSource = source.gpu.isEmpty();
    parseClrxFormat(source.binaryFormat.toStdString(), options.clrx.format);
    options.clrx.is64bit = source.clrx64;
    options.clrx.driverVersion = source.driverVersion;
    options.fileName = inputName(source).toStdString();
    for (const auto& dir : source.includeDirs)
        options.includeDirs.push_back(dir.toStdString());
    if (source.file != QLatin1String("-"))
        options.includeDirs.push_back(QFileInfo(source.file).absolutePath().toStdString());
    options.defsyms = source.defsyms;
    options.limits = source.limits;
    options.allowAnyInclude = source.allowAnyInclude;
    options.triple = source.triple.toStdString();
    return options;
}

// The input through the one loader and its reader (source, code object, listing), or false after
// saying why (naming the input). LLVM runs in `worker`'s process (issue #12): a crash or a hang
// while reading a code object or a listing, or assembling a source, becomes an error naming where
// it stood, and the command ends with a status instead of a signal.
bool readSource(const SourceArgs& source, IsolatedFrontEnd& worker, input::ReadInput& read, input::InputKind& kindRead,
                QString* sourceText)
{
    const bool fromStdin = source.file == QLatin1String("-");
    const QString name = fromStdin ? QStringLiteral("standard input") : source.file;
    input::InputKind kind = input::InputKind::Auto;
    input::parseInputKind(source.input.toStdString(), kind); // checked by the option parser
    input::Loaded loaded = input::loadFile(fromStdin ? std::string("-") : QFile::encodeName(source.file).toStdString(), kind);
    kindRead = loaded.kind;
    // Without --gpu a code object names its own processor.
    const bool gpuChosen = !source.gpu.isEmpty();
    read = input::readInput(std::move(loaded), assembleOptions(source, kindRead), gpuChosen, &worker);
    if (!read.error.empty()) {
        printError(QStringLiteral("%1: %2").arg(name, QString::fromStdString(read.error)));
        return false;
    }
    if (sourceText)
        *sourceText = QString::fromStdString(read.text);
    return true;
}

} // namespace

bool loadProgram(const SourceArgs& source, Program& program, QString* sourceText)
{
    IsolatedFrontEnd worker;
    input::ReadInput read;
    input::InputKind kind = input::InputKind::Llvm;
    if (!readSource(source, worker, read, kind, sourceText))
        return false;
    program = read.assembled ? worker.assemble(read.text, assembleOptions(source, kind)) : std::move(read.program);
    return true;
}

bool loadAnalysis(const SourceArgs& source, AnalysisRequest request, Analysis& analysis, QString* sourceText,
                  std::optional<AnalysisRequest>* assembledWith)
{
    IsolatedFrontEnd worker;
    input::ReadInput read;
    input::InputKind kind = input::InputKind::Llvm;
    if (!readSource(source, worker, read, kind, sourceText))
        return false;
    request.assemble = assembleOptions(source, kind);
    if (assembledWith && read.assembled)
        *assembledWith = request;
    analysis = analyzeProgram(read.assembled ? worker.assemble(read.text, request.assemble) : std::move(read.program), request);
    return true;
}

int printDiagnostics(const SourceArgs& source, const Program& program)
{
    const std::string name = inputName(source).toStdString();
    int errors = 0;
    for (const auto& diagnostic : program.diagnostics) {
        std::cerr << name << ":" << diagnostic.line << ":" << diagnostic.column + 1 << ": " << severityName(diagnostic.severity)
                  << ": " << diagnostic.message << "\n";
        errors += diagnostic.severity == Severity::Error ? 1 : 0;
    }
    return errors;
}

int listingCommand(const QStringList& args)
{
    SourceArgs source;
    bool asJson = false;
    OptionParser parser(QStringLiteral("listing"));
    parser.addSource(source);
    parser.addJson(&asJson);
    parser.addRefused(QStringLiteral("--option"), QStringLiteral("belongs to analyze (the listing has no timing)"));
    if (const auto status = parser.parse(args))
        return *status;
    Program program;
    if (!loadProgram(source, program))
        return ExitUsage;
    const int status = program.hasErrors() ? ExitInputErrors : ExitOk;
    if (asJson) {
        json::writeProgram(stdout, program);
        return status;
    }
    // Formatted with snprintf into one buffer: QString::arg per field cost more than assembling (#18).
    std::string out = "; " + program.gpu.targetId + " (" + std::string(generationName(program.gpu.generation)) + ")\n"
        + ";  line  offset size encoding          text\n";
    out.reserve(out.size() + program.instructions.size() * 64);
    std::size_t nextLabel = 0;
    char field[64];
    for (const auto& inst : program.instructions) {
        while (nextLabel < program.labels.size() && program.labels[nextLabel].sectionOffset <= program.sectionOffset(inst)) {
            appendUtf8(out, program.labels[nextLabel].name);
            out += ":\n";
            ++nextLabel;
        }
        std::snprintf(field, sizeof field, "%6d  %06llx %2d  ", inst.line, static_cast<unsigned long long>(inst.offset),
                      inst.size);
        out += field;
        // The encoding as little-endian words, each followed by a space, left-aligned in 17 columns.
        const std::size_t encodingStart = out.size();
        for (std::size_t i = 0; i < inst.encoding.size(); i += 4) {
            std::uint32_t word = 0;
            for (std::size_t b = 0; b < 4 && i + b < inst.encoding.size(); ++b)
                word |= std::uint32_t(inst.encoding[i + b]) << (8 * b);
            std::snprintf(field, sizeof field, "%08x ", word);
            out += field;
        }
        if (out.size() - encodingStart < 17)
            out.append(17 - (out.size() - encodingStart), ' ');
        out += ' ';
        appendUtf8(out, inst.mnemonic);
        out += ' ';
        appendUtf8(out, inst.operands);
        out += '\n';
        if (out.size() > (1u << 20)) {
            std::fwrite(out.data(), 1, out.size(), stdout);
            out.clear();
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fflush(stdout); // keep the listing ahead of the diagnostics on a shared terminal
    printDiagnostics(source, program);
    return status;
}

int run(int argc, char** argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (args.isEmpty()) {
        printUsage(stderr);
        return ExitUsage;
    }
    QString command = args.takeFirst();
    if (command == QLatin1String("help") && !args.isEmpty()) { // `help COMMAND` is `COMMAND --help`
        command = args.takeFirst();
        args = QStringList {QStringLiteral("--help")};
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        printUsage(stdout);
        return ExitOk;
    }
    if (command == QLatin1String("--version")) { // "NAME VERSION", as help2man and the window's --version
        std::fputs("gcnlens-cli " GCNLENS_VERSION "\n", stdout);
        return ExitOk;
    }
    const CommandInfo* entry = findCommand(command);
    if (!entry) {
        printError(QStringLiteral("unknown command '%1' (try --help)").arg(command));
        return ExitUsage;
    }
    const int status = entry->run(args);
    // A full disk or a closed pipe must not pass for a complete listing.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        printError(QStringLiteral("cannot write standard output: %1").arg(why));
        return ExitUsage;
    }
    return status;
}

} // namespace gcnlens::cli
