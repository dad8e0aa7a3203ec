// SPDX-License-Identifier: MIT
// Subcommand dispatch, the options every subcommand shares, and the `listing` subcommand.
#include "commands.h"

#include "core/gpu.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <cstdio>
#include <iostream>

namespace gcnlens::cli {

namespace {

// Files larger than this are refused before reading: no kernel is this big, and reading a
// multi-gigabyte file by mistake should not take the machine down.
constexpr qint64 kMaxSourceBytes = 512ll * 1024 * 1024;

void printUsage(FILE* to)
{
    std::fputs("usage: gcnlens-cli COMMAND [ARGS]\n"
               "\n"
               "commands:\n"
               "  listing FILE [--gpu NAME] [-I DIR]... [--defsym NAME=VALUE]... [--json]\n"
               "      each instruction's line, offset, size, encoding and text, from LLVM's AMDGPU assembler\n"
               "  analyze FILE [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option NAME=VALUE]...\n"
               "          [--taken LINE]... [--not-taken LINE]... [--json]\n"
               "      cycles, fetch-alignment, branch and hazard penalties (timing-model.md)\n"
               "  occupancy --gpu NAME --vgprs N [--agprs N] --sgprs N [--lds BYTES] [--workgroup N]\n"
               "          [--scratch] [--trap] [--json]\n"
               "      waves per SIMD and per CU, the limiting resource, next-step hints\n"
               "  lds --pattern EXPR [--width BYTES | --op NAME] [--set NAME=VALUE]... [--json]\n"
               "      LDS bank conflicts of a per-lane address pattern\n"
               "  report FILE -o OUT.pdf [--gpu NAME] [-I DIR]... [--defsym N=V]... [--option N=V]... [--page a4|letter]\n"
               "      an annotated PDF report\n"
               "  gpus\n"
               "      the GPU presets and LLVM processor names --gpu accepts\n"
               "\n"
               "exit status: 0 clean, 1 the input had errors (output still produced), 2 bad usage or unreadable input\n",
               to);
}

struct Command {
    const char* name;
    int (*run)(const QStringList&);
};

int gpusCommand(const QStringList& args)
{
    if (!args.isEmpty()) {
        printError(QStringLiteral("gpus takes no arguments"));
        return ExitUsage;
    }
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

const Command kCommands[] = {
    {"listing", listingCommand},
    {"analyze", analyzeCommand},
    {"gpus", gpusCommand},
    {"occupancy", occupancyCommand},
    {"lds", ldsCommand},
#ifdef GCNLENS_HAVE_REPORT
    {"report", reportCommand}, // needs gcnlens_ui (Qt Gui, PrintSupport, Charts)
#endif
};

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

bool parseCommon(const QStringList& args, CommonArgs& out)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args[i];
        const auto value = [&](QString& into) {
            if (i + 1 >= args.size()) {
                printError(QStringLiteral("%1 needs a value").arg(arg));
                return false;
            }
            into = args[++i];
            return true;
        };
        QString v;
        if (arg == QLatin1String("--gpu")) {
            if (!value(out.gpu))
                return false;
        } else if (arg == QLatin1String("-I")) {
            if (!value(v))
                return false;
            out.includeDirs << v;
        } else if (arg.startsWith(QLatin1String("-I")) && arg.size() > 2) {
            out.includeDirs << arg.mid(2);
        } else if (arg == QLatin1String("--defsym")) {
            if (!value(v))
                return false;
            out.defsyms << v;
        } else if (arg == QLatin1String("--option")) {
            if (!value(v))
                return false;
            out.options << v;
        } else if (arg == QLatin1String("--json")) {
            out.json = true;
        } else if (arg.startsWith(QLatin1Char('-')) && arg != QLatin1String("-")) {
            out.rest << arg; // the subcommand's own flag; it consumes its value from rest too
            if (i + 1 < args.size() && !args[i + 1].startsWith(QLatin1String("--")))
                out.rest << args[++i];
        } else if (out.file.isEmpty()) {
            out.file = arg;
        } else {
            printError(QStringLiteral("unexpected argument '%1' (the input file is already '%2')").arg(arg, out.file));
            return false;
        }
    }
    return true;
}

bool loadProgram(const CommonArgs& args, Program& program)
{
    if (args.file.isEmpty()) {
        printError(QStringLiteral("no input file given"));
        return false;
    }
    QByteArray text;
    if (args.file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly)) {
            printError(QStringLiteral("cannot read standard input"));
            return false;
        }
        text = in.readAll();
    } else {
        QFile in(args.file);
        const QFileInfo info(args.file);
        if (!info.exists()) {
            printError(QStringLiteral("%1: no such file").arg(args.file));
            return false;
        }
        if (info.isDir()) {
            printError(QStringLiteral("%1: is a directory, not a kernel source").arg(args.file));
            return false;
        }
        if (info.size() > kMaxSourceBytes) {
            printError(QStringLiteral("%1: %2 MiB is larger than the %3 MiB gcnlens reads")
                           .arg(args.file).arg(info.size() >> 20).arg(kMaxSourceBytes >> 20));
            return false;
        }
        if (!in.open(QIODevice::ReadOnly)) {
            printError(QStringLiteral("%1: cannot open: %2").arg(args.file, in.errorString()));
            return false;
        }
        text = in.readAll();
    }
    // A NUL byte means this is not assembly text (an object file, an image): say so plainly
    // instead of feeding it to the assembler.
    if (const qsizetype nul = text.indexOf('\0'); nul >= 0) {
        printError(QStringLiteral("%1: binary data at byte %2 (NUL); gcnlens reads assembly source text")
                       .arg(args.file).arg(nul));
        return false;
    }

    AssembleOptions options;
    options.gpu = args.gpu.toStdString();
    options.fileName = args.file == QLatin1String("-") ? std::string("<stdin>") : args.file.toStdString();
    for (const auto& dir : args.includeDirs)
        options.includeDirs.push_back(dir.toStdString());
    if (args.file != QLatin1String("-"))
        options.includeDirs.push_back(QFileInfo(args.file).absolutePath().toStdString());
    for (const auto& defsym : args.defsyms) {
        const qsizetype eq = defsym.indexOf(QLatin1Char('='));
        bool ok = false;
        const qlonglong value = eq > 0 ? defsym.mid(eq + 1).toLongLong(&ok, 0) : 0;
        if (eq <= 0 || !ok) {
            printError(QStringLiteral("--defsym '%1': write NAME=VALUE with an integer VALUE").arg(defsym));
            return false;
        }
        options.defsyms.emplace_back(defsym.left(eq).toStdString(), value);
    }
    std::string error;
    if (!resolveGpu(options.gpu, &error)) {
        printError(QStringLiteral("--gpu: %1").arg(QString::fromStdString(error)));
        return false;
    }
    program = assemble(std::string_view(text.constData(), std::size_t(text.size())), options);
    return true;
}

bool applyOptions(const QStringList& options, TimingOptions& timingOptions)
{
    for (const auto& option : options) {
        const qsizetype eq = option.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            printError(QStringLiteral("--option '%1': write NAME=VALUE").arg(option));
            return false;
        }
        const std::string error = timingOptions.set(option.left(eq).toStdString(), option.mid(eq + 1).toStdString());
        if (!error.empty()) {
            printError(QStringLiteral("--option '%1': %2").arg(option, QString::fromStdString(error)));
            return false;
        }
    }
    return true;
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
    CommonArgs common;
    if (!parseCommon(args, common))
        return ExitUsage;
    if (!common.rest.isEmpty()) {
        printError(QStringLiteral("listing: unknown option '%1'").arg(common.rest.first()));
        return ExitUsage;
    }
    if (!common.options.isEmpty()) {
        printError(QStringLiteral("listing: --option belongs to analyze"));
        return ExitUsage;
    }
    Program program;
    if (!loadProgram(common, program))
        return ExitUsage;
    const int status = program.hasErrors() ? ExitInputErrors : ExitOk;
    if (common.json) {
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
    for (const auto& diagnostic : program.diagnostics)
        std::cerr << common.file.toStdString() << ":" << diagnostic.line << ":" << diagnostic.column + 1 << ": "
                  << severityName(diagnostic.severity) << ": " << diagnostic.message << "\n";
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
    const QString command = args.takeFirst();
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        printUsage(stdout);
        return ExitOk;
    }
    for (const auto& entry : kCommands)
        if (command == QLatin1String(entry.name))
            return entry.run(args);
    printError(QStringLiteral("unknown command '%1' (try --help)").arg(command));
    return ExitUsage;
}

} // namespace gcnlens::cli
