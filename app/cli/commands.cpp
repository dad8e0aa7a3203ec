// SPDX-License-Identifier: MIT
// Subcommand dispatch, reading and assembling the input, the program's JSON, and the `listing`
// and `gpus` subcommands.
#include "commands.h"

#include "core/asm/assembler.h"
#include "core/gpu.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

namespace gcnlens::cli {

namespace {

// Inputs larger than this are refused: no kernel is this big (the 1M-instruction benchmark kernel
// is about 30 MiB), and the assembler needs over 1 KiB of memory per instruction, so a 200 MB file
// read by mistake would take the machine down rather than produce a listing.
constexpr qint64 kMaxSourceBytes = 64ll * 1024 * 1024;

int gpusCommand(const QStringList& args);

const CommandInfo kCommands[] = {
    {"listing", "FILE [--gpu NAME] [-I DIR]... [--defsym NAME=VALUE]... [--json]",
     "each instruction's line, offset, size, encoding and text, from LLVM's AMDGPU assembler", listingCommand},
    {"analyze",
     "FILE [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--taken LINE]... [--not-taken LINE]... "
     "[--json]",
     "cycles, fetch-alignment, branch and hazard penalties (timing-model.md)", analyzeCommand},
    {"occupancy",
     "--vgprs N --sgprs N [--gpu NAME] [--agprs N] [--lds BYTES] [--workgroup N] [...] [--json]",
     "waves per SIMD and per CU, the limiting resource, next-step hints", occupancyCommand},
    {"lds", "--pattern EXPR [--width BYTES | --op NAME] [--set NAME=VALUE]... [--option N=V]... [--json]",
     "LDS bank conflicts of a per-lane address pattern", ldsCommand},
#ifdef GCNLENS_HAVE_REPORT
    // needs gcnlens_ui (Qt Gui, PrintSupport)
    {"report",
     "FILE -o OUT.pdf [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--page a4|letter]",
     "an annotated PDF report (-o - writes it to standard output)", reportCommand},
#endif
    {"gpus", "", "the GPU presets and LLVM processor names --gpu accepts", gpusCommand},
};

void printUsage(FILE* to)
{
    QString text = QStringLiteral("usage: gcnlens-cli COMMAND [ARGS]\n\ncommands:\n");
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

// Reads at most kMaxSourceBytes + 1 bytes: a file's size may be unknown up front (a pipe, a
// device such as /dev/zero), and the bound must hold for those too.
bool readBounded(QFile& in, const QString& name, QByteArray& text)
{
    char buffer[1 << 16];
    qint64 n = 0;
    while ((n = in.read(buffer, sizeof buffer)) > 0) {
        text.append(buffer, n);
        if (text.size() > kMaxSourceBytes) {
            printError(QStringLiteral("%1: more than %2 MiB; gcnlens reads kernel sources up to %2 MiB")
                           .arg(name)
                           .arg(kMaxSourceBytes >> 20));
            return false;
        }
    }
    if (n < 0) {
        printError(QStringLiteral("%1: cannot read: %2").arg(name, in.errorString()));
        return false;
    }
    return true;
}

QString hex(std::uint64_t value, int width = 0)
{
    return QStringLiteral("%1").arg(value, width, 16, QLatin1Char('0'));
}

QJsonObject registersToJson(const RegisterUsage& usage)
{
    QJsonObject object;
    object[QStringLiteral("max_vgpr")] = usage.maxVgpr;
    object[QStringLiteral("max_sgpr")] = usage.maxSgpr;
    object[QStringLiteral("max_agpr")] = usage.maxAgpr;
    object[QStringLiteral("vcc")] = usage.vcc;
    object[QStringLiteral("exec")] = usage.exec;
    object[QStringLiteral("m0")] = usage.m0;
    object[QStringLiteral("scc")] = usage.scc;
    object[QStringLiteral("flat_scratch")] = usage.flatScratch;
    object[QStringLiteral("xnack_mask")] = usage.xnackMask;
    return object;
}

QJsonArray rangesToJson(const std::vector<RegRange>& ranges)
{
    QJsonArray array;
    for (const auto& range : ranges) {
        QJsonObject object;
        object[QStringLiteral("kind")] = QString::fromLatin1(regKindName(range.kind));
        object[QStringLiteral("first")] = range.first;
        object[QStringLiteral("count")] = range.count;
        array.append(object);
    }
    return array;
}

QString branchKindName(BranchKind kind)
{
    switch (kind) {
    case BranchKind::None: return QString();
    case BranchKind::Unconditional: return QStringLiteral("unconditional");
    case BranchKind::Conditional: return QStringLiteral("conditional");
    case BranchKind::Indirect: return QStringLiteral("indirect");
    case BranchKind::Return: return QStringLiteral("return");
    }
    return QString();
}

} // namespace

void printError(const QString& message)
{
    std::cerr << "gcnlens-cli: " << message.toStdString() << std::endl;
}

void printJson(const QJsonObject& object)
{
    const QByteArray bytes = QJsonDocument(object).toJson(QJsonDocument::Indented);
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
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

bool loadProgram(const SourceArgs& source, Program& program, QString* sourceText)
{
    const bool fromStdin = source.file == QLatin1String("-");
    const QString name = fromStdin ? QStringLiteral("standard input") : source.file;
    QByteArray text;
    QFile in;
    if (fromStdin) {
        if (!in.open(stdin, QIODevice::ReadOnly)) {
            printError(QStringLiteral("cannot read standard input: %1").arg(in.errorString()));
            return false;
        }
    } else {
        const QFileInfo info(source.file);
        if (!info.exists()) {
            printError(QStringLiteral("%1: no such file").arg(source.file));
            return false;
        }
        if (info.isDir()) {
            printError(QStringLiteral("%1: is a directory, not a kernel source").arg(source.file));
            return false;
        }
        // Said before reading, with the size; readBounded() catches what has no size up front.
        if (info.isFile() && info.size() > kMaxSourceBytes) {
            printError(QStringLiteral("%1: %2 MiB is larger than the %3 MiB gcnlens reads")
                           .arg(source.file)
                           .arg(info.size() >> 20)
                           .arg(kMaxSourceBytes >> 20));
            return false;
        }
        in.setFileName(source.file);
        if (!in.open(QIODevice::ReadOnly)) {
            // A socket, say, exists but opens as "No such device or address": say what it is.
            printError(QStringLiteral("%1: cannot open: %2%3")
                           .arg(source.file, in.errorString(),
                                info.isFile() ? QString() : QStringLiteral(" (not a regular file)")));
            return false;
        }
    }
    if (!readBounded(in, name, text))
        return false;
    // A NUL byte means this is not assembly text (an object file, an image): say so plainly
    // instead of feeding it to the assembler.
    if (const qsizetype nul = text.indexOf('\0'); nul >= 0) {
        printError(QStringLiteral("%1: binary data at byte %2 (NUL); gcnlens reads assembly source text")
                       .arg(name)
                       .arg(nul));
        return false;
    }

    AssembleOptions options;
    options.gpu = source.gpu.toStdString();
    options.fileName = inputName(source).toStdString();
    for (const auto& dir : source.includeDirs)
        options.includeDirs.push_back(dir.toStdString());
    if (!fromStdin)
        options.includeDirs.push_back(QFileInfo(source.file).absolutePath().toStdString());
    options.defsyms = source.defsyms;
    program = assemble(std::string_view(text.constData(), std::size_t(text.size())), options);
    if (sourceText)
        *sourceText = QString::fromUtf8(text);
    return true;
}

int printDiagnostics(const SourceArgs& source, const Program& program)
{
    const std::string name = inputName(source).toStdString();
    int errors = 0;
    for (const auto& diagnostic : program.diagnostics) {
        std::cerr << name << ":" << diagnostic.line << ":" << diagnostic.column + 1 << ": "
                  << severityName(diagnostic.severity) << ": " << diagnostic.message << "\n";
        errors += diagnostic.severity == Severity::Error ? 1 : 0;
    }
    return errors;
}

QJsonObject diagnosticToJson(const Diagnostic& diagnostic)
{
    QJsonObject object;
    object[QStringLiteral("line")] = diagnostic.line;
    object[QStringLiteral("column")] = diagnostic.column;
    object[QStringLiteral("severity")] = QString::fromLatin1(severityName(diagnostic.severity));
    object[QStringLiteral("message")] = QString::fromStdString(diagnostic.message);
    if (!diagnostic.origin.empty())
        object[QStringLiteral("origin")] = QString::fromStdString(diagnostic.origin);
    return object;
}

QJsonObject programToJson(const Program& program)
{
    QJsonObject root;
    QJsonObject gpu;
    gpu[QStringLiteral("name")] = QString::fromStdString(program.gpu.name);
    gpu[QStringLiteral("product")] = QString::fromStdString(program.gpu.product);
    gpu[QStringLiteral("processor")] = QString::fromStdString(program.gpu.processor);
    gpu[QStringLiteral("target_id")] = QString::fromStdString(program.gpu.targetId);
    gpu[QStringLiteral("generation")] = QString::fromLatin1(generationName(program.gpu.generation));
    gpu[QStringLiteral("dpfactor")] = program.gpu.dpfactor;
    root[QStringLiteral("gpu")] = gpu;

    QJsonArray instructions;
    for (const auto& inst : program.instructions) {
        QJsonObject object;
        object[QStringLiteral("line")] = inst.line;
        object[QStringLiteral("column_begin")] = inst.columnBegin;
        object[QStringLiteral("column_end")] = inst.columnEnd;
        object[QStringLiteral("offset")] = qint64(inst.offset);
        object[QStringLiteral("section_offset")] = qint64(inst.sectionOffset);
        object[QStringLiteral("size")] = inst.size;
        QString encoding;
        for (const auto byte : inst.encoding)
            encoding += hex(byte, 2);
        object[QStringLiteral("encoding")] = encoding;
        object[QStringLiteral("mnemonic")] = QString::fromStdString(inst.mnemonic);
        object[QStringLiteral("operands")] = QString::fromStdString(inst.operands);
        object[QStringLiteral("family")] = QString::fromLatin1(familyName(inst.family));
        object[QStringLiteral("literal")] = inst.hasLiteral;
        object[QStringLiteral("kernel")] = inst.kernel;
        if (inst.isData)
            object[QStringLiteral("data")] = true;
        if (inst.placeholder)
            object[QStringLiteral("placeholder")] = true;
        if (inst.fromExpansion)
            object[QStringLiteral("expanded")] = true;
        if (inst.branch != BranchKind::None) {
            QJsonObject branch;
            branch[QStringLiteral("kind")] = branchKindName(inst.branch);
            if (!inst.targetLabel.empty())
                branch[QStringLiteral("label")] = QString::fromStdString(inst.targetLabel);
            if (inst.targetOffset)
                branch[QStringLiteral("target_offset")] = qint64(*inst.targetOffset);
            branch[QStringLiteral("target_index")] = inst.targetIndex;
            branch[QStringLiteral("backward")] = inst.backward;
            object[QStringLiteral("branch")] = branch;
        }
        object[QStringLiteral("defs")] = rangesToJson(inst.defs);
        object[QStringLiteral("uses")] = rangesToJson(inst.uses);
        instructions.append(object);
    }
    root[QStringLiteral("instructions")] = instructions;

    QJsonArray labels;
    for (const auto& label : program.labels) {
        QJsonObject object;
        object[QStringLiteral("name")] = QString::fromStdString(label.name);
        object[QStringLiteral("offset")] = qint64(label.offset);
        object[QStringLiteral("line")] = label.line;
        object[QStringLiteral("instruction")] = label.instruction;
        labels.append(object);
    }
    root[QStringLiteral("labels")] = labels;

    QJsonArray kernels;
    for (std::size_t k = 0; k < program.kernels.size(); ++k) {
        const Kernel& kernel = program.kernels[k];
        QJsonObject object;
        object[QStringLiteral("name")] = QString::fromStdString(kernel.name);
        object[QStringLiteral("first_instruction")] = kernel.firstInstruction;
        object[QStringLiteral("end_instruction")] = kernel.endInstruction;
        object[QStringLiteral("section_offset")] = qint64(kernel.sectionOffset);
        object[QStringLiteral("line")] = kernel.line;
        if (k < program.kernelRegisters.size())
            object[QStringLiteral("registers")] = registersToJson(program.kernelRegisters[k]);
        kernels.append(object);
    }
    root[QStringLiteral("kernels")] = kernels;

    QJsonArray directives;
    for (const auto& directive : program.directives) {
        QJsonObject object;
        object[QStringLiteral("name")] = QString::fromStdString(directive.name);
        object[QStringLiteral("value")] = qint64(directive.value);
        object[QStringLiteral("line")] = directive.line;
        object[QStringLiteral("kernel")] = directive.kernel;
        directives.append(object);
    }
    root[QStringLiteral("directives")] = directives;
    root[QStringLiteral("registers")] = registersToJson(program.registers);

    QJsonArray diagnostics;
    for (const auto& diagnostic : program.diagnostics)
        diagnostics.append(diagnosticToJson(diagnostic));
    root[QStringLiteral("diagnostics")] = diagnostics;
    return root;
}

int listingCommand(const QStringList& args)
{
    SourceArgs source;
    bool json = false;
    OptionParser parser(QStringLiteral("listing"));
    parser.addSource(source);
    parser.addJson(&json);
    parser.addRefused(QStringLiteral("--option"), QStringLiteral("belongs to analyze (the listing has no timing)"));
    if (const auto status = parser.parse(args))
        return *status;
    Program program;
    if (!loadProgram(source, program))
        return ExitUsage;
    const int status = program.hasErrors() ? ExitInputErrors : ExitOk;
    if (json) {
        printJson(programToJson(program));
        return status;
    }
    QTextStream out(stdout);
    out << "; " << QString::fromStdString(program.gpu.targetId) << " ("
        << QString::fromLatin1(generationName(program.gpu.generation)) << ")\n";
    out << ";  line  offset size encoding          text\n";
    std::size_t nextLabel = 0;
    for (const auto& inst : program.instructions) {
        while (nextLabel < program.labels.size() && program.labels[nextLabel].sectionOffset <= inst.sectionOffset) {
            out << QString::fromStdString(program.labels[nextLabel].name) << ":\n";
            ++nextLabel;
        }
        QString encoding;
        for (std::size_t i = 0; i < inst.encoding.size(); i += 4) {
            std::uint32_t word = 0;
            for (std::size_t b = 0; b < 4 && i + b < inst.encoding.size(); ++b)
                word |= std::uint32_t(inst.encoding[i + b]) << (8 * b);
            encoding += hex(word, 8) + QLatin1Char(' ');
        }
        out << QStringLiteral("%1  %2 %3  %4 %5 %6\n")
                   .arg(inst.line, 6)
                   .arg(hex(inst.offset, 6))
                   .arg(inst.size, 2)
                   .arg(encoding, -17)
                   .arg(QString::fromStdString(inst.mnemonic))
                   .arg(QString::fromStdString(inst.operands));
    }
    out.flush(); // keep the listing ahead of the diagnostics on a shared terminal
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
