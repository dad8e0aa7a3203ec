// SPDX-License-Identifier: MIT
#include "core/asm/sourcemap.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gcnlens {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && (isBlank(text.back()) || text.back() == '\n'))
        text.remove_suffix(1);
    return text;
}

// Where the code on a line ends: LLVM AMDGPU comments start with ';' or '//'; CLRX and GNU-style
// sources also use '#' at the start of a statement.
std::size_t codeEnd(std::string_view text)
{
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"')
            inString = !inString;
        if (inString)
            continue;
        if (c == ';' || (c == '/' && i + 1 < text.size() && text[i + 1] == '/'))
            return i;
        if (c == '#' && trimmed(text.substr(0, i)).empty())
            return i;
    }
    return text.size();
}

std::string_view firstWord(std::string_view text)
{
    std::size_t end = 0;
    while (end < text.size() && isIdentChar(text[end]))
        ++end;
    return text.substr(0, end);
}

std::string lowerCopy(std::string_view text)
{
    std::string out(text);
    for (auto& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    text = trimmed(text);
    if (text.empty())
        return std::nullopt;
    bool negative = false;
    if (text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || ptr != text.data() + text.size())
        return std::nullopt;
    return negative ? -value : value;
}

// CLRX directives LLVM does not know. They are blanked in the text LLVM sees; the ones that
// declare resources are kept as ResourceDirectives.
constexpr std::string_view kClrxDirectives[] = {
    ".kernel", ".config", ".dims", ".vgprsnum", ".sgprsnum", ".localsize", ".userdata", ".pgmrsrc1", ".pgmrsrc2",
    ".floatmode", ".ieeemode", ".scratchbuffer", ".priority", ".debugmode", ".dx10clamp", ".exceptions",
    ".privmode", ".tgsize", ".uavid", ".uavprivate", ".hwregion", ".hwlocal", ".useargs", ".usesetup",
    ".usesizes", ".arg", ".cws", ".reqd_work_group_size", ".gpu", ".arch", ".amd", ".amdcl2", ".gallium",
    ".rocm", ".rawcode", ".64bit", ".32bit", ".driver_version", ".llvm_version", ".call_convention",
    ".codeversion", ".machine", ".default_hsa_features", ".use_dynamic_call_stack", ".kcode", ".kcodeend",
    ".spilledvgprs", ".spilledsgprs", ".inner", ".globaldata", ".md_version", ".cf_start", ".end_config"};

constexpr std::string_view kClrxResourceDirectives[] = {".vgprsnum", ".sgprsnum", ".localsize"};

} // namespace

SourceMap::SourceMap(std::string_view source)
{
    std::size_t start = 0;
    while (start <= source.size()) {
        const auto end = source.find('\n', start);
        if (end == std::string_view::npos) {
            if (start < source.size())
                lines_.push_back(source.substr(start));
            break;
        }
        lines_.push_back(source.substr(start, end - start));
        start = end + 1;
    }

    assemblerText_.assign(source);
    std::size_t lineStart = 0;
    std::string currentAmdhsa;      // inside .amdhsa_kernel NAME … .end_amdhsa_kernel
    int amdhsaStart = 0;
    bool inCodeT = false;           // inside .amd_kernel_code_t … .end_amd_kernel_code_t
    std::string lastKernel;
    for (std::size_t index = 0; index < lines_.size(); ++index) {
        const int lineNo = int(index) + 1;
        const std::string_view raw = lines_[index];
        std::string_view code = trimmed(raw.substr(0, codeEnd(raw)));
        // A leading label ("name:") is not part of the statement.
        if (const auto colon = code.find(':'); colon != std::string_view::npos
            && firstWord(code).size() == colon && colon > 0 && code[0] != '.') {
            labels_.emplace_back(lineNo, std::string(code.substr(0, colon)));
            code = trimmed(code.substr(colon + 1));
        } else if (colon != std::string_view::npos && firstWord(code).size() == colon && colon > 0) {
            labels_.emplace_back(lineNo, std::string(code.substr(0, colon)));
            code = trimmed(code.substr(colon + 1));
        }
        const std::string word = lowerCopy(firstWord(code));
        const std::string_view argument = trimmed(code.substr(firstWord(code).size()));

        if (word == ".amdhsa_kernel") {
            currentAmdhsa = std::string(firstWord(argument));
            amdhsaStart = lineNo;
            kernelNames_.push_back(currentAmdhsa);
        } else if (word == ".end_amdhsa_kernel") {
            scopes_.push_back({currentAmdhsa, amdhsaStart, lineNo});
            currentAmdhsa.clear();
        } else if (!currentAmdhsa.empty() && word.starts_with(".amdhsa_")) {
            if (const auto value = parseInteger(argument))
                directives_.push_back({word, *value, lineNo, -1});
        } else if (word == ".amdgpu_hsa_kernel") {
            kernelNames_.emplace_back(firstWord(argument));
            lastKernel = std::string(firstWord(argument));
        } else if (word == ".amd_kernel_code_t") {
            inCodeT = true;
        } else if (word == ".end_amd_kernel_code_t") {
            inCodeT = false;
        } else if (inCodeT) {
            if (const auto eq = code.find('='); eq != std::string_view::npos)
                if (const auto value = parseInteger(code.substr(eq + 1)))
                    directives_.push_back({std::string(trimmed(code.substr(0, eq))), *value, lineNo, -1});
        } else if (std::find(std::begin(kClrxDirectives), std::end(kClrxDirectives), word) != std::end(kClrxDirectives)) {
            if (word == ".kernel") {
                lastKernel = std::string(firstWord(argument));
                kernelNames_.push_back(lastKernel);
            }
            if (std::find(std::begin(kClrxResourceDirectives), std::end(kClrxResourceDirectives), word)
                != std::end(kClrxResourceDirectives)) {
                if (const auto value = parseInteger(argument))
                    directives_.push_back({word, *value, lineNo, -1});
            }
            // Blank the directive for LLVM (which would reject it) and say so once per kind.
            const std::size_t column = std::size_t(code.data() - raw.data());
            for (std::size_t i = column; i < column + code.size(); ++i)
                assemblerText_[lineStart + i] = ' ';
            notes_.push_back({Severity::Note, lineNo, int(column),
                              "CLRX directive " + word + " is not understood by the LLVM assembler; gcnlens records "
                              "it and leaves it out of the assembly", {}});
        }
        lineStart += raw.size() + 1;
    }
}

std::string_view SourceMap::line(int line) const
{
    if (line < 1 || line > int(lines_.size()))
        return {};
    return lines_[std::size_t(line - 1)];
}

std::pair<int, int> SourceMap::statementSpan(int lineNo) const
{
    const std::string_view raw = line(lineNo);
    std::size_t end = codeEnd(raw);
    while (end > 0 && isBlank(raw[end - 1]))
        --end;
    std::size_t begin = 0;
    while (begin < end && isBlank(raw[begin]))
        ++begin;
    return {int(begin), int(end)};
}

std::string SourceMap::kernelForLine(int lineNo) const
{
    for (const auto& scope : scopes_)
        if (lineNo >= scope.firstLine && lineNo <= scope.lastLine)
            return scope.name;
    // The nearest kernel label (or CLRX .kernel) at or before the line.
    std::string found;
    int foundLine = 0;
    for (const auto& [labelLine, name] : labels_)
        if (labelLine <= lineNo && labelLine >= foundLine
            && std::find(kernelNames_.begin(), kernelNames_.end(), name) != kernelNames_.end()) {
            found = name;
            foundLine = labelLine;
        }
    if (found.empty() && kernelNames_.size() == 1)
        return kernelNames_.front();
    return found;
}

std::string_view SourceMap::code(std::string_view line)
{
    return trimmed(line.substr(0, codeEnd(line)));
}

bool SourceMap::statementIsInstruction(std::string_view text)
{
    std::string_view code = trimmed(text.substr(0, codeEnd(text)));
    const std::string_view word = firstWord(code);
    if (!word.empty() && code.size() > word.size() && code[word.size()] == ':')
        code = trimmed(code.substr(word.size() + 1));
    if (code.empty() || code.front() == '.')
        return false;
    // Anything else that reached the assembler was meant as an instruction, garbage included: it
    // gets a placeholder so the lines after it keep their offsets.
    const std::string_view first = firstWord(code);
    const std::string_view after = trimmed(code.substr(first.size()));
    return first.empty() || !after.starts_with("=");
}

} // namespace gcnlens
