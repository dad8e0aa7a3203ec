// SPDX-License-Identifier: MIT
#include "core/asm/sourcemap.h"

#include "core/asm/linescan_p.h"

#include "core/support/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gcnlens {

namespace {

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}
bool isIdentChar(char c)
{
    return detail::isAsciiAlnum(c) || c == '_' || c == '.' || c == '$';
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && (isBlank(text.back()) || text.back() == '\n'))
        text.remove_suffix(1);
    return text;
}

// Where the code on a line ends: LLVM AMDGPU comments start with ';' or '//'; CLRX and GNU-style
// sources also use '#' at the start of a statement. Only a quote and what may start a comment
// change anything.
std::size_t codeEnd(std::string_view text)
{
    constexpr auto next = [](std::string_view text, std::size_t from) {
        return detail::findFirstOf<'"', ';', '/', '#'>(text, from);
    };
    bool inString = false;
    for (std::size_t i = next(text, 0); i < text.size(); i = next(text, i + 1)) {
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
constexpr std::string_view kClrxDirectives[] = {".kernel",
                                                ".config",
                                                ".dims",
                                                ".vgprsnum",
                                                ".sgprsnum",
                                                ".localsize",
                                                ".userdata",
                                                ".pgmrsrc1",
                                                ".pgmrsrc2",
                                                ".floatmode",
                                                ".ieeemode",
                                                ".scratchbuffer",
                                                ".priority",
                                                ".debugmode",
                                                ".dx10clamp",
                                                ".exceptions",
                                                ".privmode",
                                                ".tgsize",
                                                ".uavid",
                                                ".uavprivate",
                                                ".hwregion",
                                                ".hwlocal",
                                                ".useargs",
                                                ".usesetup",
                                                ".usesizes",
                                                ".arg",
                                                ".cws",
                                                ".reqd_work_group_size",
                                                ".gpu",
                                                ".arch",
                                                ".amd",
                                                ".amdcl2",
                                                ".gallium",
                                                ".rocm",
                                                ".rawcode",
                                                ".64bit",
                                                ".32bit",
                                                ".driver_version",
                                                ".llvm_version",
                                                ".call_convention",
                                                ".codeversion",
                                                ".machine",
                                                ".default_hsa_features",
                                                ".use_dynamic_call_stack",
                                                ".kcode",
                                                ".kcodeend",
                                                ".spilledvgprs",
                                                ".spilledsgprs",
                                                ".inner",
                                                ".globaldata",
                                                ".md_version",
                                                ".cf_start",
                                                ".end_config"};

constexpr std::string_view kClrxResourceDirectives[] = {".vgprsnum", ".sgprsnum", ".localsize"};

// Code object v2/v3 directives that LLVM 14 accepted and LLVM 19 rejects. None of them emits code,
// so blanking them lays the kernel out as LLVM did when it still took them; what each carried is
// said in its warning.
struct OldDirective {
    std::string_view name;
    std::string_view takes; // what gcnlens takes from it
};
constexpr OldDirective kOldDirectives[] = {
    {".hsa_code_object_version", "nothing: the code object version does not change the code"},
    {".hsa_code_object_isa", "the ISA version it names"},
    {".amd_amdgpu_isa", "the target it names"},
    {".amd_amdgpu_hsa_metadata", "nothing: the YAML metadata up to .end_amd_amdgpu_hsa_metadata does not change the code"},
};

// "8,0,3,\"AMD\",\"AMDGPU\"" → "gfx803"; "\"amdgcn-amd-amdhsa--gfx900\"" → "gfx900"; empty when neither.
std::string isaProcessor(std::string_view argument)
{
    if (const auto dashes = argument.find("--"); dashes != std::string_view::npos) {
        std::string_view rest = argument.substr(dashes + 2);
        std::size_t end = 0;
        while (end < rest.size() && std::isalnum(static_cast<unsigned char>(rest[end])))
            ++end;
        return std::string(rest.substr(0, end));
    }
    int parts[3] = {0, 0, 0};
    std::size_t at = 0;
    for (int i = 0; i < 3; ++i) {
        while (at < argument.size() && isBlank(argument[at]))
            ++at;
        const auto [ptr, ec] = std::from_chars(argument.data() + at, argument.data() + argument.size(), parts[i]);
        if (ec != std::errc())
            return {};
        at = std::size_t(ptr - argument.data());
        while (at < argument.size() && (isBlank(argument[at]) || argument[at] == ','))
            ++at;
    }
    static constexpr char digits[] = "0123456789abcdef";
    return "gfx" + std::to_string(parts[0]) + std::to_string(parts[1]) + digits[parts[2] & 15];
}

// LLVM 19's AMDGPU parser never returns on some bad statements (found by fuzzing): an
// unterminated '"' after a bad token ("s_endpgm ? \""), some UTF-8 where an operand is due
// ("s_nop 0 é"), a control character after a bad token. None is ever valid code, so LLVM sees '?'
// there instead and reports the error it is. One statement: [begin, end) of `line`, changed in
// place.
void sanitiseStatement(SourceMap::AssemblerText& line, std::size_t begin, std::size_t end)
{
    std::string_view text = line.view().substr(begin, end - begin);
    // Where the first pass may act: quotes, an escape, a comment's start.
    constexpr auto nextQuoteOrComment = [](std::string_view text, std::size_t from) {
        return detail::findFirstOf<'"', '\\', '\'', ';', '/'>(text, from);
    };
    std::size_t openQuote = std::string_view::npos;
    for (std::size_t i = nextQuoteOrComment(text, 0); i < text.size(); i = nextQuoteOrComment(text, i + 1)) {
        const char c = text[i];
        if (openQuote != std::string_view::npos && c == '\\') {
            ++i; // an escape in a string: '\"' does not close it (fuzz_frontend f106c951)
        } else if (c == '"') {
            openQuote = openQuote == std::string_view::npos ? i : std::string_view::npos;
        } else if (openQuote == std::string_view::npos && c == '\'') {
            // A character literal takes the two characters after its quote, whatever they are
            // (three after a backslash): a '"' among them opens no string (fuzz_frontend
            // badb7d75, "a'\",\"").
            i += i + 1 < text.size() && text[i + 1] == '\\' ? 3 : 2;
        } else if (openQuote == std::string_view::npos && (c == ';' || (c == '/' && i + 1 < text.size() && text[i + 1] == '/'))) {
            break;
        }
    }
    // Every '"' from the one never closed on: an escaped one after it would open a string again.
    if (openQuote != std::string_view::npos) {
        for (std::size_t i = openQuote; i < text.size(); ++i)
            if (text[i] == '"')
                line.set(begin + i, '?');
        text = line.view().substr(begin, end - begin); // the copy, once made, is what the pass below reads
    }
    bool inString = false;
    const std::string_view code = text.substr(0, codeEnd(text));
    // Where the second pass may act: quotes, an escape, a byte to replace.
    constexpr auto nextToCheck = [](std::string_view code, std::size_t from) {
        return detail::findFirst(
            code, from,
            [](auto block) {
                return detail::matchEqual(block, '"') | detail::matchEqual(block, '\\') | detail::matchControlOrHigh(block);
            },
            [](char c) { return c == '"' || c == '\\' || detail::isControlOrHigh(c); });
    };
    for (std::size_t i = nextToCheck(code, 0); i < code.size(); i = nextToCheck(code, i + 1)) {
        const char c = text[i];
        if (inString && c == '\\')
            ++i;
        else if (c == '"')
            inString = !inString;
        else if (!inString && detail::isControlOrHigh(c))
            line.set(begin + i, '?'); // and control characters, which it loops on after a '?' ("s_endpgm ? \a")
    }
}

// LLVM's lexer ends a statement, and a line comment, at a '\r' as at a line end: each part of
// a line on its own (fuzz_frontend d1ffb3dc: "// \rp\xff\"", where the comment ended at the '\r').
// The line is [lineBegin, lineEnd) of `text`.
void sanitiseForLlvm(SourceMap::AssemblerText& text, std::size_t lineBegin, std::size_t lineEnd)
{
    for (std::size_t begin = lineBegin; begin <= lineEnd;) {
        const std::size_t end = std::min(text.view().substr(0, lineEnd).find('\r', begin), lineEnd);
        sanitiseStatement(text, begin, end);
        begin = end + 1;
    }
}

} // namespace

SourceMap::SourceMap(std::string_view source, std::span<const std::string_view> lines)
{
    if (lines.empty()) {
        ownLines_ = detail::splitLines(source);
        lines = ownLines_;
    }
    lines_ = lines.back().empty() ? lines.first(lines.size() - 1) : lines; // a newline at the end starts no line

    assemblerText_.source = source;
    std::size_t lineStart = 0;
    std::string currentAmdhsa; // inside .amdhsa_kernel NAME … .end_amdhsa_kernel
    int amdhsaStart = 0;
    bool inCodeT = false;       // inside .amd_kernel_code_t … .end_amd_kernel_code_t
    bool inOldMetadata = false; // inside .amd_amdgpu_hsa_metadata … .end_amd_amdgpu_hsa_metadata
    std::string lastKernel;
    for (std::size_t index = 0; index < lines_.size(); ++index) {
        const int lineNo = int(index) + 1;
        if (inOldMetadata)
            blockLines_.push_back(lineNo);
        const std::string_view raw = lines_[index];
        std::string_view code = trimmed(raw.substr(0, codeEnd(raw)));
        // A leading label ("name:") is not part of the statement.
        if (const auto colon = code.find(':');
            colon != std::string_view::npos && firstWord(code).size() == colon && colon > 0 && code[0] != '.') {
            labels_.emplace_back(lineNo, std::string(code.substr(0, colon)));
            code = trimmed(code.substr(colon + 1));
        } else if (colon != std::string_view::npos && firstWord(code).size() == colon && colon > 0) {
            labels_.emplace_back(lineNo, std::string(code.substr(0, colon)));
            code = trimmed(code.substr(colon + 1));
        }
        sanitiseForLlvm(assemblerText_, lineStart, lineStart + raw.size());
        // Every directive read below starts with '.'; an instruction line needs none of them
        // (issue #18: the comparisons were most of this loop on plain text).
        if ((code.empty() || code.front() != '.') && !inCodeT && !inOldMetadata) {
            lineStart += raw.size() + 1;
            continue;
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
        } else if (inOldMetadata || std::any_of(std::begin(kOldDirectives), std::end(kOldDirectives), [&](const OldDirective& d) {
                       return d.name == word;
                   })) {
            // The whole statement, a leading "Name:" of the YAML metadata included.
            const std::string_view whole = trimmed(raw.substr(0, codeEnd(raw)));
            const std::size_t column = std::size_t(whole.data() - raw.data());
            for (std::size_t i = column; i < column + whole.size(); ++i)
                assemblerText_.set(lineStart + i, ' ');
            if (!inOldMetadata) {
                const auto* old = std::find_if(std::begin(kOldDirectives), std::end(kOldDirectives),
                                               [&](const OldDirective& d) { return d.name == word; });
                std::string message = "code object v2 directive " + word
                    + " is not known to LLVM 19; gcnlens leaves it "
                      "out of the assembly (it emits no code) and takes "
                    + std::string(old->takes);
                if (word == ".hsa_code_object_isa" || word == ".amd_amdgpu_isa") {
                    const std::string processor = isaProcessor(argument);
                    if (!processor.empty()) {
                        message += " (" + processor + ")";
                        declaredIsa_ = {lineNo, processor};
                    } else {
                        message = "code object v2 directive " + word
                            + " is not known to LLVM 19; gcnlens leaves it out of "
                              "the assembly (it emits no code)";
                    }
                }
                notes_.push_back({Severity::Warning, lineNo, int(column), std::move(message), {}});
            }
            inOldMetadata = word == ".amd_amdgpu_hsa_metadata" || (inOldMetadata && word != ".end_amd_amdgpu_hsa_metadata");
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
                assemblerText_.set(lineStart + i, ' ');
            notes_.push_back({Severity::Note,
                              lineNo,
                              int(column),
                              "CLRX directive " + word
                                  + " is not understood by the LLVM assembler; gcnlens records "
                                    "it and leaves it out of the assembly",
                              {}});
        }
        lineStart += raw.size() + 1;
    }
    blankUnclosedComment();
}

// LLVM 19's AMDGPU parser never returns on a bad statement followed by a C comment that is never
// closed ("s_nop ? /*", "v_mov_b32 v0, @x /*": fuzz_listingreader, issue #12): the comment runs to
// the end of the text, so no statement end follows. LLVM reads all of it as comment either way; it
// is blanked here (line ends kept) and the error is said on the line that opens it.
void SourceMap::blankUnclosedComment()
{
    const std::string_view text = assemblerText_.view();
    bool inString = false, inComment = false;
    int openLine = 0;
    std::size_t openAt = 0, lineStart = 0;
    for (int lineNo = 1; lineStart <= text.size(); ++lineNo) {
        const std::size_t end = std::min(text.find('\n', lineStart), text.size());
        if (const std::size_t opened =
                detail::carryOpenSpans(std::string_view(text).substr(lineStart, end - lineStart), inString, inComment);
            opened != std::string_view::npos) {
            openLine = lineNo;
            openAt = lineStart + opened;
        }
        lineStart = end + 1;
    }
    if (!inComment)
        return;
    for (std::size_t i = openAt; i < text.size(); ++i)
        if (text[i] != '\n')
            assemblerText_.set(i, ' ');
    notes_.push_back({Severity::Error,
                      openLine,
                      int(openAt - (text.rfind('\n', openAt) + 1)),
                      "unterminated comment: this /* is never closed, so the rest of the text is a comment",
                      {}});
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
    return codeIsInstruction(code(text));
}

bool SourceMap::codeIsInstruction(std::string_view code)
{
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
