// SPDX-License-Identifier: MIT
// Listings to a Program (listingreader.h). The text of every line is assembled as it stands (line
// numbers kept: non-instruction lines are blanked), which gives the program when the listing has
// no encodings; with encodings, each line's bytes are decoded instead and the assembled bytes only
// checked against them.
#include "core/input/listingreader.h"

#include "core/input/decoder.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

namespace gcnlens::input {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isBlank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isBlank(s.back()))
        s.remove_suffix(1);
    return s;
}

bool allHex(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

std::optional<std::uint64_t> parseHex(std::string_view s)
{
    if (s.starts_with("0x") || s.starts_with("0X"))
        s.remove_prefix(2);
    if (!allHex(s) || s.size() > 16)
        return std::nullopt;
    std::uint64_t value = 0;
    std::from_chars(s.data(), s.data() + s.size(), value, 16);
    return value;
}

std::vector<std::string_view> tokens(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < s.size()) {
        while (at < s.size() && isBlank(s[at]))
            ++at;
        std::size_t end = at;
        while (end < s.size() && !isBlank(s[end]))
            ++end;
        if (end > at)
            out.push_back(s.substr(at, end - at));
        at = end;
    }
    return out;
}

// Hex tokens of an encoding: 8 digits are a little-endian dword as llvm-objdump and clrxdisasm
// print them, 2 digits a byte in memory order. False when a token is neither.
bool appendEncoding(const std::vector<std::string_view>& words, std::vector<std::uint8_t>& bytes)
{
    for (const auto word : words) {
        const auto value = parseHex(word);
        if (!value || (word.size() != 8 && word.size() != 2))
            return false;
        for (std::size_t i = 0; i < word.size() / 2; ++i)
            bytes.push_back(std::uint8_t(*value >> (8 * i)));
    }
    return true;
}

// "ADDRESS: WORDS" or "WORDS" (the inside of a clrxdisasm or llvm-objdump comment).
bool parseAddressAndWords(std::string_view s, ListingLine& line)
{
    s = trim(s);
    std::vector<std::string_view> words;
    if (const auto colon = s.find(':'); colon != std::string_view::npos) {
        const auto address = parseHex(trim(s.substr(0, colon)));
        if (!address)
            return false;
        line.address = address;
        words = tokens(s.substr(colon + 1));
    } else {
        words = tokens(s);
        // clrxdisasm -a without -h: "/*000000000010*/" is only the address (12 digits).
        if (words.size() == 1 && words[0].size() > 8) {
            line.address = parseHex(words[0]);
            return line.address.has_value();
        }
    }
    return appendEncoding(words, line.bytes);
}

bool isIdentifier(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
    }) && !std::isdigit(static_cast<unsigned char>(s.front()));
}

std::string_view firstWord(std::string_view text)
{
    std::size_t end = 0;
    while (end < text.size() && !isBlank(text[end]))
        ++end;
    return text.substr(0, end);
}

// A kernel's end: what ends the wave or leaves, and the padding after it.
bool endsFlow(std::string_view mnemonic)
{
    return mnemonic.starts_with("s_endpgm") || mnemonic == "s_setpc_b64" || mnemonic == "s_branch";
}
std::string hexText(std::uint64_t value)
{
    char text[24];
    std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(value));
    return text;
}

bool isPadding(std::string_view mnemonic)
{
    return mnemonic == "s_nop" || mnemonic == "s_code_end" || mnemonic == ".long";
}

// "; NAME = VALUE    (where from)": a declared value in gcnlens' listing of a code object
// (objectreader.cpp), read back so occupancy keeps it.
std::optional<std::pair<std::string, std::int64_t>> declaredValue(std::string_view line)
{
    line = trim(line);
    if (!line.starts_with(';') || !line.ends_with(')'))
        return std::nullopt;
    line = trim(line.substr(1));
    const auto eq = line.find(" = ");
    const auto open = line.rfind('(');
    if (eq == std::string_view::npos || open == std::string_view::npos || open < eq)
        return std::nullopt;
    const std::string_view name = line.substr(0, eq);
    const std::string_view number = trim(line.substr(eq + 3, open - eq - 3));
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || end != number.data() + number.size() || name.empty() || name.find(' ') != std::string_view::npos)
        return std::nullopt;
    return std::make_pair(std::string(name), value);
}

} // namespace

ListingLine parseListingLine(std::string_view raw)
{
    ListingLine line;
    std::string_view s = trim(raw);
    if (s.empty())
        return line;
    if (s.find("file format") != std::string_view::npos || s.starts_with("Disassembly of section")) {
        line.kind = ListingLine::Header;
        line.marked = true;
        return line;
    }
    if (s.front() == ';' || s.front() == '#')
        return line;
    // "0000000000000018 <loop>:"
    if (s.ends_with(">:")) {
        const auto open = s.find(" <");
        if (open != std::string_view::npos) {
            if (const auto address = parseHex(s.substr(0, open))) {
                line.kind = ListingLine::Symbol;
                line.address = address;
                line.text = s.substr(open + 2, s.size() - open - 4);
                line.marked = true;
                return line;
            }
        }
    }
    // clrxdisasm: "/*ADDRESS: WORDS*/ text", "/*WORDS*/ text", "/*ADDRESS*/ text".
    if (s.starts_with("/*")) {
        const auto close = s.find("*/");
        if (close == std::string_view::npos)
            return line;
        if (!parseAddressAndWords(s.substr(2, close - 2), line))
            return ListingLine {};
        line.marked = true;
        s = trim(s.substr(close + 2));
    } else {
        // A leading "ADDRESS:" (plain listings, older objdump) and raw bytes after it.
        const auto colon = s.find(':');
        if (colon != std::string_view::npos && colon > 0) {
            const std::string_view head = s.substr(0, colon);
            const auto after = tokens(s.substr(colon + 1));
            const bool encodingFollows = !after.empty() && allHex(after[0]) && (after[0].size() == 2 || after[0].size() == 8);
            const bool hexAddress =
                (head.starts_with("0x") && head.size() > 2) || (allHex(head) && (head.size() >= 4 || encodingFollows));
            if (hexAddress && colon + 1 < s.size() && isBlank(s[colon + 1])) {
                line.address = parseHex(head);
                line.marked = true;
                s = trim(s.substr(colon + 1));
                std::vector<std::string_view> encoding;
                for (const auto token : tokens(s)) {
                    if (!allHex(token) || (token.size() != 2 && token.size() != 8))
                        break;
                    encoding.push_back(token);
                }
                if (!encoding.empty()) {
                    appendEncoding(encoding, line.bytes);
                    s = trim(s.substr(std::size_t(encoding.back().data() + encoding.back().size() - s.data())));
                }
            }
        }
    }
    // llvm-objdump: "text // ADDRESS: WORDS".
    if (const auto comment = s.rfind("//"); comment != std::string_view::npos) {
        ListingLine trailing;
        if (parseAddressAndWords(s.substr(comment + 2), trailing) && (trailing.address || !trailing.bytes.empty())) {
            if (!line.address)
                line.address = trailing.address;
            if (line.bytes.empty())
                line.bytes = std::move(trailing.bytes);
            line.marked = true;
        }
        s = trim(s.substr(0, comment));
    }
    if (const auto semicolon = s.find(';'); semicolon != std::string_view::npos)
        s = trim(s.substr(0, semicolon));
    if (s.empty())
        return line.address || !line.bytes.empty() ? ListingLine {} : line;
    if (s.back() == ':' && isIdentifier(s.substr(0, s.size() - 1))) { // "label:" (clrxdisasm, plain text)
        line.kind = ListingLine::Symbol;
        line.text = s.substr(0, s.size() - 1);
        return line;
    }
    if (s.front() == '.') // a directive (clrxdisasm's configuration): nothing to lay out
        return ListingLine {};
    line.kind = ListingLine::Instruction;
    line.text = s;
    return line;
}

namespace {

// A listing line by line, and the text the assembler reads: the same lines, each holding only its
// statement.
struct ParsedListing {
    std::vector<ListingLine> lines;
    std::vector<std::size_t> lineStarts;
    std::vector<bool> kernelStart;
    std::string source;
    bool haveEncodings = false;
};

ParsedListing parseListing(std::string_view text)
{
    ParsedListing parsed;
    std::vector<ListingLine>& lines = parsed.lines;
    std::vector<std::size_t>& lineStarts = parsed.lineStarts;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        lines.push_back(parseListingLine(text.substr(start, end - start)));
        lineStarts.push_back(start);
        start = end + 1;
        if (end == text.size())
            break;
    }

    // Which symbols start kernels: the first one, and one on a 256-byte boundary after code that
    // ended (s_endpgm, a jump) and its padding. Other symbols are labels.
    std::vector<bool>& kernelStart = parsed.kernelStart;
    kernelStart.assign(lines.size(), false);
    {
        bool any = false, ended = true;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const ListingLine& line = lines[i];
            if (line.kind == ListingLine::Symbol) {
                const bool aligned = !line.address || *line.address % 256 == 0;
                kernelStart[i] = !any || (ended && aligned && !line.text.starts_with(".L"));
                any = true;
                ended = false;
            } else if (line.kind == ListingLine::Instruction) {
                any = true; // code before any symbol is a kernel of its own
                const std::string_view mnemonic = firstWord(line.text);
                if (endsFlow(mnemonic))
                    ended = true;
                else if (!(ended && isPadding(mnemonic)))
                    ended = false;
            }
        }
    }

    std::string& source = parsed.source;
    source.reserve(text.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const ListingLine& line = lines[i];
        // Section symbols ("<.text>") name no label the assembler may define.
        const bool sectionSymbol = line.text.starts_with('.') && !line.text.starts_with(".L");
        if (line.kind == ListingLine::Symbol && isIdentifier(line.text) && !sectionSymbol) {
            source.append(line.text).append(":");
            if (kernelStart[i])
                source.append(" .type ").append(line.text).append(",@function");
        } else if (line.kind == ListingLine::Instruction) {
            source.append(line.text);
            parsed.haveEncodings = parsed.haveEncodings || !line.bytes.empty();
        }
        source.push_back('\n');
    }
    return parsed;
}

} // namespace

std::string listingAssemblerText(std::string_view text)
{
    return parseListing(text).source;
}

Program readListing(std::string_view text, const AssembleOptions& options)
{
    const ParsedListing parsed = parseListing(text);
    const std::vector<ListingLine>& lines = parsed.lines;
    const std::vector<std::size_t>& lineStarts = parsed.lineStarts;
    const std::vector<bool>& kernelStart = parsed.kernelStart;
    const std::string& source = parsed.source;
    const bool haveEncodings = parsed.haveEncodings;
    Program assembled = assemble(source, options);
    // Declared values (gcnlens' own listings of code objects) belong to the kernel that follows.
    std::vector<ResourceDirective> declared;
    {
        int kernels = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            const std::size_t end = i + 1 < lineStarts.size() ? lineStarts[i + 1] - 1 : text.size();
            if (kernelStart[i])
                ++kernels;
            else if (lines[i].kind == ListingLine::Other)
                if (const auto value = declaredValue(text.substr(lineStarts[i], end - lineStarts[i])))
                    declared.push_back({value->first, value->second, int(i) + 1, kernels});
        }
    }
    assembled.directives.insert(assembled.directives.end(), declared.begin(), declared.end());
    if (!haveEncodings) {
        // No encodings: the assembled program, with each address checked against the sizes.
        std::optional<std::uint64_t> expected;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            if (lines[i].kind == ListingLine::Symbol)
                expected = lines[i].address;
            const auto at = assembled.lineToInstructions.find(int(i) + 1);
            if (at == assembled.lineToInstructions.end())
                continue;
            const Instruction& inst = assembled.instructions[std::size_t(at->second.front())];
            if (lines[i].address && expected && *lines[i].address != *expected)
                assembled.diagnostics.push_back({Severity::Warning,
                                                 int(i) + 1,
                                                 0,
                                                 "the listing puts this instruction at 0x" + hexText(*lines[i].address)
                                                     + " but the assembled sizes before it put it at 0x" + hexText(*expected),
                                                 {}});
            expected = (lines[i].address ? *lines[i].address : expected.value_or(0)) + std::uint64_t(inst.size);
        }
        return assembled;
    }

    // Encodings given: they are the program; the assembled text only checks them.
    Program program;
    program.gpu = assembled.gpu;
    program.directives = std::move(declared);
    // Where LLVM cannot decode (GFX6/GFX7) the assembled text is the program and the encodings
    // only check it.
    Decoder decoder(program.gpu);
    const bool canDecode = decoder.error().empty();
    std::vector<bool> lineHasBytes(lines.size() + 2, false);
    for (std::size_t i = 0; i < lines.size(); ++i)
        lineHasBytes[i + 1] = lines[i].kind == ListingLine::Instruction && !lines[i].bytes.empty();
    // The assembler's errors on lines whose encoding is given are not the program's: the bytes
    // stand. They come back below as warnings on their lines.
    std::vector<std::string> assemblyErrors(lines.size() + 2);
    for (const auto& d : assembled.diagnostics) {
        if (d.line > 0 && std::size_t(d.line) < lineHasBytes.size() && lineHasBytes[std::size_t(d.line)]) {
            if (d.severity == Severity::Error && assemblyErrors[std::size_t(d.line)].empty())
                assemblyErrors[std::size_t(d.line)] = d.message;
            continue;
        }
        program.diagnostics.push_back(d);
    }

    std::map<std::uint64_t, std::string> labelAt;
    for (const auto& line : lines)
        if (line.kind == ListingLine::Symbol && line.address)
            labelAt.emplace(*line.address, std::string(line.text));
    std::uint64_t address = 0, kernelAddress = 0, firstAddress = 0;
    bool haveFirst = false;
    const auto startKernel = [&](std::string name, int line) {
        if (!program.kernels.empty())
            program.kernels.back().endInstruction = int(program.instructions.size());
        Kernel kernel;
        kernel.name = std::move(name);
        kernel.firstInstruction = int(program.instructions.size());
        kernel.sectionOffset = address - firstAddress;
        kernel.line = line;
        decoder.enterRegion(kernel.name, address);
        program.kernels.push_back(std::move(kernel));
        kernelAddress = address;
    };
    // Before a new kernel: the previous one's trailing s_nop/s_code_end after its end, and any gap
    // up to the new kernel's address, are one padding entry, as the assembler lays out a .p2align.
    std::uint64_t runningEnd = 0;
    const auto closePadding = [&](std::uint64_t nextKernel) {
        if (program.kernels.empty())
            return;
        const auto first = program.instructions.begin() + program.kernels.back().firstInstruction;
        auto cut = program.instructions.end();
        while (cut != first && cut - 1 != first && isPadding((cut - 1)->mnemonic) && !(cut - 1)->isData)
            --cut;
        if (cut == program.instructions.end() || !endsFlow((cut - 1)->mnemonic))
            cut = program.instructions.end();
        Instruction padding;
        if (cut != program.instructions.end()) {
            padding.line = cut->line;
            padding.offset = cut->offset;
        } else if (!program.instructions.empty() && nextKernel > runningEnd) {
            padding.line = program.instructions.back().line;
            padding.offset = runningEnd - kernelAddress;
        } else {
            return;
        }
        program.instructions.erase(cut, program.instructions.end());
        padding.size = int(std::max(nextKernel, runningEnd) - (kernelAddress + padding.offset));
        padding.isData = true;
        padding.family = Family::Data;
        padding.mnemonic = ".align";
        padding.operands = std::to_string(padding.size) + " bytes of padding";
        padding.kernel = int(program.kernels.size()) - 1;
        if (padding.size > 0)
            program.instructions.push_back(std::move(padding));
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const ListingLine& line = lines[i];
        const int lineNo = int(i) + 1;
        if (line.kind == ListingLine::Symbol && kernelStart[i] && !program.kernels.empty())
            closePadding(line.address.value_or(runningEnd));
        if (line.address) {
            if (!haveFirst) {
                firstAddress = *line.address;
                haveFirst = true;
            }
            address = *line.address;
        }
        if (line.kind == ListingLine::Symbol) {
            if (kernelStart[i] || program.kernels.empty()) {
                startKernel(std::string(line.text), lineNo);
            } else {
                Label label;
                label.name = std::string(line.text);
                label.sectionOffset = address - firstAddress;
                label.offset = address - kernelAddress;
                label.line = lineNo;
                label.instruction = int(program.instructions.size());
                program.labels.push_back(std::move(label));
            }
            continue;
        }
        if (line.kind != ListingLine::Instruction)
            continue;
        if (program.kernels.empty())
            startKernel("(top)", lineNo);
        // An offset in a kernel is 32-bit (program.h): an address before the kernel's start or 4 GiB
        // past it has no place in it.
        if (address < kernelAddress || address - kernelAddress > Instruction::kMaxOffset) {
            program.diagnostics.push_back({Severity::Error,
                                           lineNo,
                                           0,
                                           "the listing puts this instruction at 0x" + hexText(address) + ", "
                                               + (address < kernelAddress ? "before" : "4 GiB or more past")
                                               + " the start of its kernel " + program.kernels.back().name + " at 0x"
                                               + hexText(kernelAddress) + "; gcnlens leaves it out",
                                           {}});
            continue;
        }
        const auto at = assembled.lineToInstructions.find(lineNo);
        const Instruction* fromText =
            at == assembled.lineToInstructions.end() ? nullptr : &assembled.instructions[std::size_t(at->second.front())];
        Instruction inst;
        if (!line.bytes.empty() && canDecode) {
            DecodedInstruction decoded = decoder.decode(line.bytes, address);
            decoded.inst.offset = address - kernelAddress;
            setBranchTarget(decoded);
            nameBranchTarget(decoded, address, labelAt);
            inst = std::move(decoded.inst);
            if (std::size_t(inst.size) != line.bytes.size()) {
                // The listing's word count is the size: what the decoder did not take is data.
                if (std::size_t(inst.size) < line.bytes.size())
                    program.diagnostics.push_back({Severity::Warning,
                                                   lineNo,
                                                   0,
                                                   "the listing gives " + std::to_string(line.bytes.size())
                                                       + " bytes here but they decode as a " + std::to_string(inst.size)
                                                       + "-byte " + inst.mnemonic + "; gcnlens takes the listing's size",
                                                   {}});
                inst.size = int(line.bytes.size());
                inst.encoding = line.bytes;
            }
            const std::string given = encodingWords(line.bytes);
            if (!assemblyErrors[i + 1].empty()) {
                program.diagnostics.push_back({Severity::Warning,
                                               lineNo,
                                               0,
                                               "the text does not assemble (" + assemblyErrors[i + 1]
                                                   + "); gcnlens uses the listing's encoding " + given + " (" + inst.mnemonic
                                                   + " " + inst.operands + ")",
                                               {}});
            } else if (fromText && !fromText->placeholder) {
                // A branch's offset depends on where the assembler put its label: compare its opcode only.
                const bool branch = inst.branch == BranchKind::Unconditional || inst.branch == BranchKind::Conditional;
                const bool same = branch ? fromText->encoding.size() >= 4 && line.bytes.size() >= 4
                        && std::equal(fromText->encoding.begin() + 2, fromText->encoding.begin() + 4, line.bytes.begin() + 2)
                                         : fromText->encoding == line.bytes;
                if (!same)
                    program.diagnostics.push_back(
                        {Severity::Warning,
                         lineNo,
                         0,
                         "the listing's encoding " + given + " is not what the assembler makes of the text ("
                             + encodingWords(fromText->encoding) + "); gcnlens uses the listing's encoding, which decodes as "
                             + inst.mnemonic + (inst.operands.empty() ? "" : " " + inst.operands),
                         {}});
            }
        } else if (fromText) {
            inst = *fromText; // no encoding on this line (or none LLVM decodes): the assembler's
            inst.offset = address - kernelAddress;
            if (inst.targetOffset())
                inst.setTargetOffset(std::nullopt); // re-derived from labels below only for decoded branches
            if (!line.bytes.empty() && (fromText->placeholder || fromText->encoding != line.bytes)) {
                program.diagnostics.push_back(
                    {Severity::Warning,
                     lineNo,
                     0,
                     "the listing's encoding " + encodingWords(line.bytes) + " is not what the assembler makes of the text ("
                         + (fromText->placeholder ? std::string("it does not assemble") : encodingWords(fromText->encoding))
                         + "); " + decoder.error() + ", so gcnlens keeps the text and the listing's size",
                     {}});
                inst.size = int(line.bytes.size());
                inst.encoding = line.bytes;
            }
        } else {
            continue; // the text did not assemble and there is no encoding: its error is reported
        }
        inst.line = lineNo;
        inst.columnBegin = int(line.text.data() - (text.data() + lineStarts[i]));
        inst.columnEnd = inst.columnBegin + int(line.text.size());
        inst.kernel = int(program.kernels.size()) - 1;
        address += std::uint64_t(std::max(1, inst.size));
        runningEnd = address;
        program.instructions.push_back(std::move(inst));
    }
    if (!program.kernels.empty())
        program.kernels.back().endInstruction = int(program.instructions.size());
    for (auto& label : program.labels)
        if (label.instruction >= int(program.instructions.size()))
            label.instruction = -1;
    std::stable_sort(program.diagnostics.begin(), program.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
    finishDecodedProgram(program);
    return program;
}

} // namespace gcnlens::input
