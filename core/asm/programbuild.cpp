// SPDX-License-Identifier: MIT
#include "core/asm/programbuild_p.h"

#include "core/asm/linescan_p.h"
#include "core/asm/sourcemap.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <type_traits>

namespace gcnlens::detail {

namespace {

// A branch target as the instruction names it: a label, or a label with a byte addend written
// after it ("loop+8", "loop-4": the streamer's name for a symbol assigned label±N, which is how
// the CLRX reader gives LLVM clrxasm's `s_branch loop+8`).
const Label* targetLabel(const Program& program, const std::unordered_map<std::string, std::size_t>& labelIndex,
                         const std::string& name, std::int64_t& addend)
{
    addend = 0;
    if (const auto it = labelIndex.find(name); it != labelIndex.end())
        return &program.labels[it->second];
    const auto sign = name.find_last_of("+-");
    if (sign == std::string::npos || sign == 0)
        return nullptr;
    std::int64_t value = 0;
    const char* last = name.data() + name.size();
    const auto [end, ec] = std::from_chars(name.data() + sign + 1, last, value);
    if (ec != std::errc() || end != last)
        return nullptr;
    const auto it = labelIndex.find(name.substr(0, sign));
    if (it == labelIndex.end())
        return nullptr;
    addend = name[sign] == '-' ? -value : value;
    return &program.labels[it->second];
}

// The instruction that starts at a kernel-relative offset (a kernel's instructions are in offset
// order), or -1.
int instructionAt(const Program& program, int kernelIndex, std::uint64_t offset)
{
    const Kernel& kernel = program.kernels[std::size_t(kernelIndex)];
    const auto first = program.instructions.begin() + kernel.firstInstruction;
    const auto last = program.instructions.begin() + kernel.endInstruction;
    const auto at = std::lower_bound(first, last, offset,
                                     [](const Instruction& candidate, std::uint64_t value) { return candidate.offset < value; });
    return at != last && at->offset == offset ? int(at - program.instructions.begin()) : -1;
}

} // namespace

void resolveBranches(Program& program, const std::unordered_map<std::string, std::size_t>& labelIndex, std::size_t from,
                     std::size_t to)
{
    to = std::min(to, program.instructions.size());
    for (std::size_t i = from; i < to; ++i) {
        Instruction& inst = program.instructions[i];
        const bool jump = inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional;
        // s_cbranch_i_fork and s_call_b64 take a label in the same simm16 (SOPK); their bytes are
        // set here too, but the analysis does not follow them (branchKind).
        if (!jump && inst.mnemonic != "s_cbranch_i_fork" && inst.mnemonic != "s_call_b64")
            continue;
        if (!inst.targetLabel().empty()) {
            std::int64_t addend = 0;
            const Label* label = targetLabel(program, labelIndex, inst.targetLabel(), addend);
            if (!label)
                continue;
            const std::int64_t target = std::int64_t(label->sectionOffset) + addend;
            const std::uint64_t at = program.sectionOffset(inst);
            const std::int64_t delta = (target - std::int64_t(at + 4)) / 4;
            if (inst.encoding.size() >= 2) {
                std::vector<std::uint8_t> encoding = inst.encoding.toVector();
                encoding[0] = std::uint8_t(delta & 0xff);
                encoding[1] = std::uint8_t((delta >> 8) & 0xff);
                inst.encoding = encoding;
            }
            if (!jump)
                continue;
            const std::uint64_t kernelBase = at - inst.offset;
            if (addend == 0) {
                inst.setTargetOffset(label->sectionOffset - kernelBase);
                inst.setTargetIndex(label->instruction);
            } else if (target >= std::int64_t(kernelBase) && inst.kernel >= 0) {
                // label±N: the instruction at that offset of the kernel, when one starts there.
                inst.setTargetOffset(std::uint64_t(target) - kernelBase);
                inst.setTargetIndex(instructionAt(program, inst.kernel, *inst.targetOffset()));
            } else {
                inst.setTargetOffset(std::nullopt);
                inst.setTargetIndex(-1);
            }
        } else if (inst.targetOffset() && inst.kernel >= 0 && jump) {
            // A raw simm16 (disassembler output): the instruction at that offset in the same
            // kernel, whose instructions are in offset order.
            inst.setTargetIndex(instructionAt(program, inst.kernel, *inst.targetOffset()));
        }
        if (inst.targetOffset())
            inst.backward = *inst.targetOffset() <= inst.offset;
    }
}

namespace {

// The body lines of .rept/.irp/.irpc directives, in whatever buffer they are written (the main
// file, an include, or the expansion of an enclosing .rept), found once per directive.
class RepeatBodies {
public:
    explicit RepeatBodies(const IndexedSourceMgr& sources)
        : sources_(sources)
    {
    }

    // Start of the body line that produced line `lineInExpansion` (1-based) of the expansion of
    // the directive at `directive`; null when that is not a repetition directive (a macro call).
    const char* lineStart(const char* directive, unsigned lineInExpansion)
    {
        auto it = bodies_.find(directive);
        if (it == bodies_.end())
            it = bodies_.emplace(directive, bodyOf(directive)).first;
        const auto& lines = it->second;
        return lines.empty() || lineInExpansion == 0 ? nullptr : lines[(lineInExpansion - 1) % lines.size()];
    }

private:
    // The first word of a line, in lower case or as written: the name LLVM's lexer reads there,
    // so ".rept?" (the source map's '?' for a byte from 0x80 up) is an unknown directive and
    // not a nested repetition, as in LLVM's body scan (fuzz_frontend 06706a88).
    static std::string firstWord(std::string_view line, bool lowerCase)
    {
        line = trimmedFront(line);
        std::string word;
        for (const char c : line) {
            if (!isIdentifierChar(c))
                break;
            word += lowerCase ? char(std::tolower(static_cast<unsigned char>(c))) : c;
        }
        return word;
    }

    std::vector<const char*> bodyOf(const char* directive) const
    {
        const unsigned buffer = sources_.findBuffer(llvm::SMLoc::getFromPointer(directive));
        if (buffer == 0)
            return {};
        const llvm::MemoryBuffer* memory = sources_.getMemoryBuffer(buffer);
        const std::string_view text(memory->getBufferStart(), memory->getBufferSize());
        const auto repetition = [](const std::string& word) {
            return word == ".rept" || word == ".rep" || word == ".irp" || word == ".irpc";
        };
        std::size_t at = std::size_t(directive - text.data());
        if (!repetition(firstWord(text.substr(at), true)))
            return {};
        // The body runs from the next line to the matching .endr; nested repetitions count. (As
        // LLVM's body scan reads them: in lower case only, closesBody.)
        std::vector<const char*> lines;
        int depth = 1;
        for (at = text.find('\n', at); at != std::string_view::npos && at + 1 <= text.size(); at = text.find('\n', at)) {
            ++at;
            const std::size_t end = std::min(text.find('\n', at), text.size());
            const std::string word = firstWord(text.substr(at, end - at), false);
            if (repetition(word))
                ++depth;
            else if (word == ".endr" && --depth == 0)
                break;
            lines.push_back(text.data() + at);
        }
        return lines;
    }

    const IndexedSourceMgr& sources_;
    std::unordered_map<const char*, std::vector<const char*>> bodies_;
};

} // namespace

void buildProgram(Program& program, std::vector<Emission>& emissions, const std::vector<RawDiagnostic>& rawDiagnostics,
                  const std::vector<std::string>& functionSymbols, const SourceMap& map, const IndexedSourceMgr& sources,
                  std::vector<PlannedInstruction>& planned)
{
    // Line of a statement: out of each enclosing expansion, innermost first, to where it came
    // from: a .rept/.irp body line for repetitions (nested ones too), the invoking line for macros.
    RepeatBodies bodies(sources);
    static const std::vector<const char*> kNoExpansions;
    const auto lineOf = [&](unsigned bufferId, const char* loc, const std::vector<const char*>& expansionLocs,
                            bool& fromExpansion) -> int {
        fromExpansion = bufferId > 1;
        const char* at = loc;
        for (const char* instantiation : expansionLocs) {
            if (!at || !instantiation)
                return 0;
            const llvm::SMLoc where = llvm::SMLoc::getFromPointer(at);
            const unsigned lineInExpansion = sources.lineNumber(at, sources.findBuffer(where));
            const char* body = bodies.lineStart(instantiation, lineInExpansion);
            at = body ? body : instantiation;
        }
        return at ? mainLineOf(sources, llvm::SMLoc::getFromPointer(at)) : 0;
    };

    // Diagnostics first: placeholders refer to them, by their index among the raw ones (the
    // program may already hold the source map's notes: issue #12, fuzz_frontend 08db3713).
    const std::size_t firstRaw = program.diagnostics.size();
    for (const auto& raw : rawDiagnostics) {
        Diagnostic d;
        d.severity = raw.severity;
        bool fromExpansion = false;
        d.line = lineOf(raw.bufferId, raw.loc, raw.expansionLocs, fromExpansion);
        d.column = fromExpansion || raw.column < 0 ? map.firstColumn(d.line) : raw.column;
        d.message = raw.message;
        if (fromExpansion) {
            const auto* buffer = raw.bufferId ? sources.getMemoryBuffer(raw.bufferId) : nullptr;
            const std::string name = buffer ? buffer->getBufferIdentifier().str() : std::string();
            d.origin = (name == "<instantiation>" ? std::string("expansion") : name) + ":" + std::to_string(raw.bufferLine);
        }
        program.diagnostics.push_back(std::move(d));
    }

    // Kernel entries: .type @function symbols, .amdhsa_kernel / .amdgpu_hsa_kernel / CLRX .kernel names.
    std::vector<std::string> kernelNames = functionSymbols;
    for (const auto& name : map.kernelNames())
        if (std::find(kernelNames.begin(), kernelNames.end(), name) == kernelNames.end())
            kernelNames.push_back(name);

    std::unordered_map<std::string, std::size_t> labelIndex;
    std::uint64_t kernelStart = 0;
    int currentKernel = -1;
    std::vector<std::pair<std::string, int>> pendingLabels; // labels waiting for their instruction

    const auto startKernel = [&](const std::string& name, std::uint64_t at, int line) {
        if (currentKernel >= 0)
            program.kernels[std::size_t(currentKernel)].endInstruction = int(program.instructions.size());
        Kernel kernel;
        kernel.name = name;
        kernel.firstInstruction = int(program.instructions.size());
        kernel.sectionOffset = at;
        kernel.line = line;
        program.kernels.push_back(kernel);
        currentKernel = int(program.kernels.size()) - 1;
        kernelStart = at;
    };

    std::size_t entries = 0;
    for (const auto& e : emissions)
        entries += e.kind == Emission::PlannedRun ? e.plannedCount : 1;
    std::vector<std::pair<int, int>> byLine; // (line, instruction)
    byLine.reserve(entries);
    program.instructions.reserve(entries); // exact but for labels: no growth slack (issue #18)
    int spanLine = -1;
    std::pair<int, int> span;
    // An instruction's own fields, from an Emission of kind Instr or a planned instruction.
    const auto takeInstr = [](Instruction& inst, auto& e) {
        inst.encoding = std::move(e.bytes);
        inst.mnemonic = std::move(e.mnemonic);
        inst.operands = std::move(e.operands);
        inst.family = e.family;
        inst.opcode = e.opcode;
        inst.hasLiteral = e.size > nativeSize(e.family);
        inst.glc = e.glc;
        inst.defs = std::move(e.defs);
        inst.uses = std::move(e.uses);
        inst.branch = branchKind(inst.mnemonic);
        inst.setTargetLabel(e.branchSymbol);
        if (inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional) {
            if (e.hasBranchImmediate && e.branchSymbol.empty()) // raw simm16: target = pc + 4 + 4·simm
                inst.setTargetOffset(inst.offset + 4 + std::uint64_t(std::int64_t(std::int16_t(e.branchImmediate)) * 4));
        }
    };
    const auto add = [&](auto& e) {
        constexpr bool isPlanned = std::is_same_v<std::decay_t<decltype(e)>, PlannedInstruction>;
        bool fromExpansion = false;
        int line = 0;
        if constexpr (isPlanned) {
            line = lineOf(1, e.loc, kNoExpansions, fromExpansion);
        } else {
            line = e.kind == Emission::Placeholder
                ? program.diagnostics[firstRaw + std::size_t(e.diagnostic)].line
                : lineOf(e.bufferId, e.loc, e.expansionLocs ? *e.expansionLocs : kNoExpansions, fromExpansion);
        }
        if constexpr (!isPlanned) {
            if (e.kind == Emission::Label) {
                const bool isKernel = std::find(kernelNames.begin(), kernelNames.end(), e.label.view()) != kernelNames.end();
                if (isKernel || (currentKernel < 0 && program.instructions.empty() && kernelNames.empty()))
                    startKernel(e.label.str(), e.sectionOffset, line);
                Label label;
                label.name = e.label.str();
                label.sectionOffset = e.sectionOffset;
                label.offset = e.sectionOffset - kernelStart;
                label.line = line;
                label.instruction = int(program.instructions.size()); // fixed below if nothing follows
                labelIndex[label.name] = program.labels.size();
                program.labels.push_back(std::move(label));
                return;
            }
        }
        if (currentKernel < 0)
            startKernel(kernelNames.empty() ? std::string("(top)") : std::string("(before first kernel)"), 0, line);
        Instruction inst;
        inst.line = line;
        inst.fromExpansion = fromExpansion;
        if (line != spanLine) { // a macro's or .rept's instructions come in runs from one line
            span = map.statementSpan(line);
            spanLine = line;
        }
        inst.columnBegin = span.first;
        inst.columnEnd = span.second;
        inst.offset = e.sectionOffset - kernelStart;
        inst.size = e.size;
        inst.kernel = currentKernel;
        if constexpr (isPlanned) {
            takeInstr(inst, e);
        } else {
            switch (e.kind) {
            case Emission::Instr:
                takeInstr(inst, e);
                break;
            case Emission::Data: // raw words, or an alignment's padding
            case Emission::Padding: {
                const bool padding = e.kind == Emission::Padding;
                inst.isData = true;
                inst.family = Family::Data;
                inst.mnemonic = padding ? ".align" : ".data";
                inst.operands = std::to_string(e.size) + (padding ? " bytes of padding" : " bytes");
                break;
            }
            case Emission::Placeholder:
                inst.placeholder = true;
                inst.mnemonic = "(error)";
                inst.operands = "assumed " + std::to_string(e.size) + " bytes";
                break;
            case Emission::Label:
            case Emission::PlannedRun:
                break;
            }
        }
        byLine.emplace_back(inst.line, int(program.instructions.size()));
        program.instructions.push_back(std::move(inst));
    };
    for (auto& e : emissions) {
        if (e.kind != Emission::PlannedRun)
            add(e);
        else
            for (std::size_t i = e.plannedFirst; i < std::size_t(e.plannedFirst) + e.plannedCount; ++i)
                add(planned[i]);
    }
    program.lineToInstructions.assign(std::move(byLine));
    if (currentKernel >= 0)
        program.kernels[std::size_t(currentKernel)].endInstruction = int(program.instructions.size());
    for (auto& label : program.labels)
        if (label.instruction >= int(program.instructions.size()))
            label.instruction = -1;

    resolveBranches(program, labelIndex);
    RegisterTally registers;
    registers.rebuild(program);
    registers.store(program);

    // Resource directives found by the source map, attached to the kernel they name or precede.
    for (const auto& directive : map.resourceDirectives()) {
        ResourceDirective d = directive;
        d.kernel = -1;
        for (std::size_t k = 0; k < program.kernels.size(); ++k)
            if (!directive.name.empty() && program.kernels[k].name == map.kernelForLine(directive.line))
                d.kernel = int(k);
        if (d.kernel < 0 && program.kernels.size() == 1)
            d.kernel = 0;
        program.directives.push_back(std::move(d));
    }
}

} // namespace gcnlens::detail
