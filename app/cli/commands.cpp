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
#include "core/support/text.h"

#include "gcnlens-config.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <format>
#include <iostream>

namespace gcnlens::cli {

namespace {

int gpusCommand(const Args& args);

const CommandInfo kCommands[] = {
    {"listing", "FILE [--gpu NAME] [-I DIR]... [--defsym NAME=VALUE]... [--json]",
     "each instruction's line, offset, size, encoding and text, from LLVM's AMDGPU assembler", listingCommand},
    {"analyze",
     "FILE [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--taken LINE]... [--not-taken LINE]... "
     "[--json]",
     "cycles, fetch-alignment, branch and hazard penalties (timing-model.md)", analyzeCommand},
    {"occupancy", "--vgprs N --sgprs N [--gpu NAME] [--agprs N] [--lds BYTES] [--workgroup N] [...] [--json]",
     "waves per SIMD and per CU, the limiting resource, next-step hints", occupancyCommand},
    {"check", "FILE [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--json] [--fix-its [-j N]]",
     "wait-state hazards and s_waitcnt misuse (hazards.md); exit status 3 when any is found", checkCommand},
    {"lds", "--pattern EXPR [--width BYTES | --op NAME] [--set NAME=VALUE]... [--option N=V]... [--json]",
     "LDS bank conflicts of a per-lane address pattern", ldsCommand},
#if GCNLENS_HAVE_REPORT
    // needs gcnlens_ui (Qt Gui: QPdfWriter): run by gcnlens-report (reportlauncher.cpp)
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
    std::string text = "usage: gcnlens-cli COMMAND [ARGS]\n       gcnlens-cli --help | --version\n\ncommands:\n";
    for (const auto& command : kCommands)
        text +=
            std::format("  {}{}{}\n      {}\n", command.name, *command.synopsis ? " " : "", command.synopsis, command.summary);
    text += "\nFILE is a kernel source; - reads standard input. `gcnlens-cli COMMAND --help` lists a\n"
            "command's options.\n"
            "exit status: 0 clean, 1 the input had errors (output still produced), 2 bad usage or unreadable input\n";
    print(to, text);
}

int gpusCommand(const Args& args)
{
    OptionParser parser("gpus");
    if (const auto status = parser.parse(args))
        return *status;
    std::string out = "presets (product, processor, DPFACTOR, compute units):\n";
    for (const auto& preset : gpuPresets())
        out += std::format("  {}\t{}\t{}\t{}\n", preset.name, preset.processor, preset.dpfactor, preset.computeUnits);
    out += "processors:\n ";
    for (const auto& name : knownProcessors())
        out += " " + name;
    out += "\n";
    print(stdout, out);
    return ExitOk;
}

} // namespace

namespace {

// Hands `text` to out() as valid UTF-8: its well-formed runs as they are, U+FFFD for each byte that
// starts no well-formed sequence. ASCII, the usual case, is one run and no call per byte.
template <typename Out> void forEachValidRun(std::string_view text, Out&& out)
{
    std::size_t runStart = 0, at = 0;
    while (at < text.size()) {
        if (static_cast<unsigned char>(text[at]) < 0x80) {
            ++at;
            continue;
        }
        if (const std::size_t length = detail::utf8SequenceLength(text.substr(at))) {
            at += length;
            continue;
        }
        out(text.substr(runStart, at - runStart));
        out(std::string_view("\xef\xbf\xbd"));
        runStart = ++at;
    }
    out(text.substr(runStart));
}

} // namespace

bool isAscii(std::string_view text)
{
    std::size_t at = 0;
    for (std::uint64_t word; at + 8 <= text.size(); at += 8) {
        std::memcpy(&word, text.data() + at, 8);
        if (word & 0x8080808080808080ull)
            return false;
    }
    for (; at < text.size(); ++at)
        if (static_cast<unsigned char>(text[at]) >= 0x80)
            return false;
    return true;
}

void appendUtf8(std::string& out, std::string_view text)
{
    if (isAscii(text)) // (every printed instruction: in at once)
        out += text;
    else
        forEachValidRun(text, [&out](std::string_view run) { out += run; });
}

char* writeNumber(char* at, std::int64_t value, std::size_t width, char fill, int base)
{
    char digits[24];
    const auto length = std::size_t(std::to_chars(digits, digits + sizeof digits, value, base).ptr - digits);
    for (std::size_t i = length; i < width; ++i)
        *at++ = fill;
    return std::copy(digits, digits + length, at);
}

void appendNumber(std::string& out, std::int64_t value, std::size_t width, char fill, int base)
{
    if (width > 24) { // wider than any number: the rest of its fill first
        out.append(width - 24, fill);
        width = 24;
    }
    char field[24];
    out.append(field, std::size_t(writeNumber(field, value, width, fill, base) - field));
}

std::string validUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    appendUtf8(out, text);
    return out;
}

std::string oneLine(std::string_view text)
{
    std::string out;
    for (const char c : text)
        c == '\n' ? out.append("; ") : out.append(1, c);
    return out;
}

void print(std::FILE* to, std::string_view text)
{
    forEachValidRun(text, [to](std::string_view run) { std::fwrite(run.data(), 1, run.size(), to); });
}

void printError(std::string_view message)
{
    std::cerr << "gcnlens-cli: " << message << std::endl;
}

const CommandInfo* findCommand(std::string_view name)
{
    for (const auto& command : kCommands)
        if (name == command.name)
            return &command;
    return nullptr;
}

std::string inputName(const SourceArgs& source)
{
    return source.file == "-" ? std::string("<stdin>") : source.file;
}

namespace {

AssembleOptions assembleOptions(const SourceArgs& source, input::InputKind kind)
{
    AssembleOptions options;
    options.gpu = source.gpu.empty() ? std::string("tahiti") : source.gpu;
    // CLRX sources (detected or --input clrx): clrxasm's options, and their own .gpu unless --gpu.
    options.dialect = kind == input::InputKind::Clrx ? AssembleOptions::Dialect::Clrx : AssembleOptions::Dialect::Llvm;
    options.gpuFromSource = source.gpu.empty();
    parseClrxFormat(source.binaryFormat, options.clrx.format);
    options.clrx.is64bit = source.clrx64;
    options.clrx.driverVersion = source.driverVersion;
    options.fileName = inputName(source);
    options.includeDirs = source.includeDirs;
    if (source.file != "-") {
        std::error_code error; // the file's own folder; as given when the current folder is gone
        const std::filesystem::path absolute = std::filesystem::absolute(source.file, error);
        options.includeDirs.push_back((error ? std::filesystem::path(source.file) : absolute).parent_path().string());
    }
    options.defsyms = source.defsyms;
    options.limits = source.limits;
    options.allowAnyInclude = source.allowAnyInclude;
    options.triple = source.triple;
    return options;
}

// The input through the one loader and its reader (source, code object, listing), or false after
// saying why (naming the input). LLVM runs in `worker`'s process (issue #12): a crash or a hang
// while reading a code object or a listing, or assembling a source, becomes an error naming where
// it stood, and the command ends with a status instead of a signal.
bool readSource(const SourceArgs& source, IsolatedFrontEnd& worker, input::ReadInput& read, input::InputKind& kindRead,
                std::string* sourceText, bool* crlf = nullptr)
{
    const bool fromStdin = source.file == "-";
    const std::string name = fromStdin ? std::string("standard input") : source.file;
    input::InputKind kind = input::InputKind::Auto;
    input::parseInputKind(source.input, kind); // checked by the option parser
    input::Loaded loaded = input::loadFile(source.file, kind);
    kindRead = loaded.kind;
    if (crlf)
        *crlf = loaded.format.crlf;
    // Without --gpu a code object names its own processor.
    const bool gpuChosen = !source.gpu.empty();
    read = input::readInput(std::move(loaded), assembleOptions(source, kindRead), gpuChosen, &worker);
    if (!read.error.empty()) {
        printError(name + ": " + read.error);
        return false;
    }
    if (sourceText)
        *sourceText = read.text;
    return true;
}

} // namespace

bool loadProgram(const SourceArgs& source, Program& program, std::string* sourceText)
{
    IsolatedFrontEnd worker;
    input::ReadInput read;
    input::InputKind kind = input::InputKind::Llvm;
    if (!readSource(source, worker, read, kind, sourceText))
        return false;
    program = read.assembled ? worker.assemble(read.text, assembleOptions(source, kind)) : std::move(read.program);
    return true;
}

bool loadAnalysis(const SourceArgs& source, AnalysisRequest request, Analysis& analysis, std::string* sourceText,
                  std::optional<AnalysisRequest>* assembledWith, bool* crlf)
{
    IsolatedFrontEnd worker;
    input::ReadInput read;
    input::InputKind kind = input::InputKind::Llvm;
    if (!readSource(source, worker, read, kind, sourceText, crlf))
        return false;
    request.assemble = assembleOptions(source, kind);
    if (assembledWith && read.assembled)
        *assembledWith = request;
    analysis = analyzeProgram(read.assembled ? worker.assemble(read.text, request.assemble) : std::move(read.program), request);
    return true;
}

int printDiagnostics(const SourceArgs& source, const Program& program)
{
    const std::string name = inputName(source);
    int errors = 0;
    for (const auto& diagnostic : program.diagnostics) {
        std::cerr << name << ":" << diagnostic.line << ":" << diagnostic.column + 1 << ": " << severityName(diagnostic.severity)
                  << ": " << diagnostic.message << "\n";
        errors += diagnostic.severity == Severity::Error ? 1 : 0;
    }
    return errors;
}

int listingCommand(const Args& args)
{
    SourceArgs source;
    bool asJson = false;
    OptionParser parser("listing");
    parser.addSource(source);
    parser.addJson(&asJson);
    parser.addRefused("--option", "belongs to analyze (the listing has no timing)");
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
    // Formatted by hand into one buffer: a string format per field cost more than assembling (#18),
    // and snprintf per field was still a twentieth of a large listing's time.
    std::string out = "; " + program.gpu.targetId + " (" + std::string(generationName(program.gpu.generation)) + ")\n"
        + ";  line  offset size encoding          text\n";
    out.reserve(out.size() + program.instructions.size() * 64);
    std::size_t nextLabel = 0;
    for (const auto& inst : program.instructions) {
        while (nextLabel < program.labels.size() && program.labels[nextLabel].sectionOffset <= program.sectionOffset(inst)) {
            appendUtf8(out, program.labels[nextLabel].name);
            out += ":\n";
            ++nextLabel;
        }
        // The fixed fields are written into a buffer and appended at once (an append per field
        // was a fortieth of a 100k-line listing; issue #18).
        // "%6d  %06llx %2d  ": line, offset and size, right-aligned (wider values take more room).
        char fields[160];
        char* at = writeNumber(fields, inst.line, 6, ' ');
        *at++ = ' ', *at++ = ' ';
        at = writeNumber(at, std::int64_t(inst.offset), 6, '0', 16);
        *at++ = ' ';
        at = writeNumber(at, inst.size, 2, ' ');
        *at++ = ' ', *at++ = ' ';
        // The encoding as little-endian words, each followed by a space, left-aligned in 17 columns.
        std::size_t encodingWidth = 0;
        for (std::size_t i = 0; i < inst.encoding.size(); i += 4) {
            if (at + 9 + 18 > fields + sizeof fields) { // (data can be long; room kept for what follows)
                out.append(fields, std::size_t(at - fields));
                at = fields;
            }
            std::uint32_t word = 0;
            for (std::size_t b = 0; b < 4 && i + b < inst.encoding.size(); ++b)
                word |= std::uint32_t(inst.encoding[i + b]) << (8 * b);
            at = writeNumber(at, word, 8, '0', 16);
            *at++ = ' ';
            encodingWidth += 9;
        }
        for (; encodingWidth < 17; ++encodingWidth)
            *at++ = ' ';
        *at++ = ' ';
        out.append(fields, std::size_t(at - fields));
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
    if (argc < 2) {
        printUsage(stderr);
        return ExitUsage;
    }
    std::string command = argv[1];
    Args args(argv + 2, argv + argc);
    if (command == "help" && !args.empty()) { // `help COMMAND` is `COMMAND --help`
        command = args.front();
        args = Args {"--help"};
    }
    if (command == "--help" || command == "-h" || command == "help") {
        printUsage(stdout);
        return ExitOk;
    }
    if (command == "--version") { // "NAME VERSION", as help2man and the window's --version
        std::fputs("gcnlens-cli " GCNLENS_VERSION "\n", stdout);
        return ExitOk;
    }
    const CommandInfo* entry = findCommand(command);
    if (!entry) {
        printError("unknown command '" + command + "' (try --help)");
        return ExitUsage;
    }
    const int status = entry->run(args);
    // A full disk or a closed pipe must not pass for a complete listing.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        printError(std::string("cannot write standard output: ") + std::strerror(errno));
        return ExitUsage;
    }
    return status;
}

} // namespace gcnlens::cli
