// SPDX-License-Identifier: MIT
#include "core/asm/guard_p.h"

#include "core/asm/linescan_p.h"
#include "core/asm/sourcemap.h"
#include "core/support/text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sys/stat.h>

namespace gcnlens::detail {

namespace {

namespace fs = std::filesystem;

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

constexpr std::uint64_t kUnknown = ~std::uint64_t(0);

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b)
{
    return a && b > kUnknown / a ? kUnknown - 1 : a * b;
}

// An absolute expression as LLVM reads one: integers (decimal, 0x, 0b, a leading 0 for octal, 'c'),
// symbols assigned above, parentheses, unary - + ~ !, and the binary operators with GNU as
// precedence (AsmParser's getGNUBinOpPrecedence), in 64-bit arithmetic that wraps as LLVM's does;
// a comparison gives -1 when true. nullopt for anything else: a symbol the guard does not know
// (a macro argument, a label), a division by zero.
class Expression {
public:
    Expression(std::string_view text, const std::map<std::string, std::int64_t>& symbols)
        : text_(text)
        , symbols_(symbols)
    {
    }
    std::optional<std::int64_t> value()
    {
        const std::int64_t v = binary(1);
        skipBlanks();
        if (!ok_ || at_ != text_.size())
            return std::nullopt;
        return v;
    }

private:
    struct Operator {
        std::string_view text;
        int precedence;
    };
    void skipBlanks()
    {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t'))
            ++at_;
    }
    // The binary operator at the current place (the longest that matches), precedence 0: none.
    Operator peekOperator()
    {
        static constexpr Operator operators[] = {{"||", 1}, {"&&", 2}, {"==", 3}, {"!=", 3}, {"<>", 3}, {"<=", 3}, {">=", 3},
                                                 {"<<", 6}, {">>", 6}, {"<", 3},  {">", 3},  {"+", 4},  {"-", 4},  {"|", 5},
                                                 {"^", 5},  {"&", 5},  {"!", 5},  {"*", 6},  {"/", 6},  {"%", 6}};
        skipBlanks();
        for (const Operator& op : operators)
            if (text_.substr(at_, op.text.size()) == op.text)
                return op;
        return {{}, 0};
    }
    std::int64_t binary(int minPrecedence)
    {
        std::int64_t lhs = unary();
        for (Operator op = peekOperator(); ok_ && op.precedence >= minPrecedence; op = peekOperator()) {
            at_ += op.text.size();
            const std::int64_t rhs = binary(op.precedence + 1);
            lhs = apply(op.text, lhs, rhs);
        }
        return lhs;
    }
    std::int64_t apply(std::string_view op, std::int64_t a, std::int64_t b)
    {
        const auto ua = std::uint64_t(a), ub = std::uint64_t(b);
        const auto truth = [](bool t) { return t ? std::int64_t(-1) : std::int64_t(0); };
        if (op == "+")
            return std::int64_t(ua + ub);
        if (op == "-")
            return std::int64_t(ua - ub);
        if (op == "*")
            return std::int64_t(ua * ub);
        if (op == "/" || op == "%") {
            if (b == 0 || (a == INT64_MIN && b == -1))
                return fail();
            return op == "/" ? a / b : a % b;
        }
        if (op == "<<")
            return ub >= 64 ? 0 : std::int64_t(ua << ub);
        if (op == ">>")
            return ub >= 64 ? 0 : std::int64_t(ua >> ub);
        if (op == "&")
            return a & b;
        if (op == "|")
            return a | b;
        if (op == "^")
            return a ^ b;
        if (op == "!")
            return a | ~b;
        if (op == "&&")
            return a && b;
        if (op == "||")
            return a || b;
        if (op == "==")
            return truth(a == b);
        if (op == "!=" || op == "<>")
            return truth(a != b);
        if (op == "<")
            return truth(a < b);
        if (op == "<=")
            return truth(a <= b);
        if (op == ">")
            return truth(a > b);
        return truth(a >= b);
    }
    std::int64_t unary()
    {
        skipBlanks();
        if (at_ >= text_.size())
            return fail();
        const char c = text_[at_];
        if (c == '-' || c == '+' || c == '~' || c == '!') {
            ++at_;
            const std::int64_t v = unary();
            return c == '-' ? std::int64_t(0 - std::uint64_t(v)) : c == '+' ? v : c == '~' ? ~v : std::int64_t(v == 0);
        }
        if (c == '(') {
            ++at_;
            const std::int64_t v = binary(1);
            skipBlanks();
            if (at_ >= text_.size() || text_[at_] != ')')
                return fail();
            ++at_;
            return v;
        }
        if (c == '\'' && at_ + 2 < text_.size() && text_[at_ + 1] != '\\' && text_[at_ + 2] == '\'') {
            at_ += 3;
            return static_cast<unsigned char>(text_[at_ - 2]);
        }
        std::size_t end = at_;
        while (end < text_.size()
               && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_' || text_[end] == '.'
                   || text_[end] == '$'))
            ++end;
        const std::string word(text_.substr(at_, end - at_));
        at_ = end;
        if (word.empty())
            return fail();
        if (std::isdigit(static_cast<unsigned char>(word[0]))) {
            const bool binaryDigits = word.size() > 2 && (word[1] == 'b' || word[1] == 'B') && word[0] == '0';
            char* stop = nullptr;
            errno = 0;
            const std::uint64_t v =
                binaryDigits ? std::strtoull(word.c_str() + 2, &stop, 2) : std::strtoull(word.c_str(), &stop, 0);
            if (*stop || errno == ERANGE)
                return fail();
            return std::int64_t(v);
        }
        const auto it = symbols_.find(word);
        return it != symbols_.end() ? it->second : fail();
    }
    std::int64_t fail()
    {
        ok_ = false;
        return 0;
    }

    std::string_view text_;
    const std::map<std::string, std::int64_t>& symbols_;
    std::size_t at_ = 0;
    bool ok_ = true;
};

// A repeat count as the guard can know it (LLVM repeats a negative count no times), kUnknown
// otherwise (LLVM then decides, bounded by the streamer's limits and the worker's clock).
std::uint64_t countOf(std::string_view expr, const std::map<std::string, std::int64_t>& symbols)
{
    const auto v = Expression(expr, symbols).value();
    return !v ? kUnknown : *v < 0 ? 0 : std::min(std::uint64_t(*v), kUnknown - 1);
}

// A symbol's value, when the guard can know it.
std::optional<std::int64_t> valueOf(std::string_view expr, const std::map<std::string, std::int64_t>& symbols)
{
    return Expression(expr, symbols).value();
}

// The folders includes may come from: the include paths and the source's own folder.
std::vector<fs::path> includeRoots(const AssembleOptions& options)
{
    std::vector<fs::path> roots;
    std::error_code ec;
    for (const auto& dir : options.includeDirs)
        if (auto real = fs::weakly_canonical(dir, ec); !ec)
            roots.push_back(real);
    if (const auto slash = options.fileName.rfind('/'); slash != std::string::npos)
        if (auto real = fs::weakly_canonical(options.fileName.substr(0, slash + 1), ec); !ec)
            roots.push_back(real);
    return roots;
}

bool inside(const fs::path& path, const fs::path& root)
{
    auto p = path.begin();
    for (auto r = root.begin(); r != root.end(); ++r, ++p) {
        if (r->empty())
            continue; // a trailing separator
        if (p == path.end() || *p != *r)
            return false;
    }
    return true;
}

// Why an .include/.incbin of `name` is refused, or empty when it may go ahead (also when the
// file is not found: LLVM then says so).
std::string refusal(bool incbin, const std::string& name, const AssembleOptions& options, const std::vector<fs::path>& roots)
{
    std::error_code ec;
    fs::path found;
    if (fs::path(name).is_absolute()) {
        found = name;
    } else {
        std::vector<fs::path> candidates {fs::current_path(ec) / name}; // LLVM tries the working folder first
        for (const auto& dir : options.includeDirs)
            candidates.push_back(fs::path(dir) / name);
        for (const auto& candidate : candidates)
            if (fs::exists(candidate, ec)) {
                found = candidate;
                break;
            }
    }
    struct stat info {};
    if (found.empty() || ::stat(found.c_str(), &info) != 0)
        return {};
    if (!S_ISREG(info.st_mode))
        return "not a regular file";
    if (incbin && std::uint64_t(info.st_size) > options.limits.incbinBytes)
        return std::to_string(info.st_size) + " bytes, over the limit of " + std::to_string(options.limits.incbinBytes)
            + " (raise with --limit incbin-bytes=N)";
    if (options.allowAnyInclude)
        return {};
    const fs::path real = fs::weakly_canonical(found, ec);
    for (const auto& root : roots)
        if (!ec && inside(real, root))
            return {};
    return "outside the source's folder and the include paths (allow with --allow-any-include)";
}

// The quoted file name of an .include/.incbin operand, without escapes.
std::string quoted(std::string_view operand)
{
    operand = trim(operand);
    if (operand.size() < 2 || operand.front() != '"')
        return {};
    const auto close = operand.find('"', 1);
    return close == std::string_view::npos ? std::string() : std::string(operand.substr(1, close - 1));
}

} // namespace

bool guardText(std::string_view text, const AssembleOptions& options, std::string& guarded, std::vector<Diagnostic>& errors)
{
    // Most kernels have none of these directives: one pass over the text says so.
    bool any = false;
    for (auto at = text.find('.'); at != std::string_view::npos && !any; at = text.find('.', at + 1)) {
        const std::string word = lower(text.substr(at + 1, 3));
        any = word == "rep" || word == "irp" || word == "inc";
    }
    if (!any)
        return false;
    std::map<std::string, std::int64_t> symbols(options.defsyms.begin(), options.defsyms.end());
    std::vector<std::string_view> lines;
    for (std::size_t at = 0; at <= text.size();) {
        const auto end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    // The statement of a line: its directive (lower case, as LLVM reads it: "x: .rept(3)" is a
    // .rept, fuzz_frontend 1f32622f) and operands.
    std::string_view written; // the directive of `code` and what follows it, as written
    const auto statement = [&written](std::string_view line, std::string& directive, std::string_view& operands) {
        const std::string_view code = trim(SourceMap::code(line));
        operands = {};
        written = {};
        directive = statementDirective(code, &operands, &written);
        operands = trim(operands);
        if (!written.empty())
            written = code.substr(std::size_t(written.data() - code.data()));
        return code;
    };
    std::vector<fs::path> roots;
    bool haveRoots = false;
    bool changed = false;
    const auto blank = [&](std::string_view part) {
        if (!changed)
            guarded.assign(text);
        changed = true;
        const auto offset = std::size_t(part.data() - text.data());
        std::fill_n(guarded.begin() + std::ptrdiff_t(offset), part.size(), ' ');
    };
    std::vector<std::uint64_t> repeat {1}; // how often the enclosing .rept/.irp bodies repeat
    std::string directive;
    std::string_view operands;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view code = statement(lines[i], directive, operands);
        const int line = int(i) + 1;
        if (directive == ".set" || directive == ".equ" || directive == ".equiv") {
            const auto comma = operands.find(',');
            if (comma != std::string_view::npos)
                if (const auto v = valueOf(operands.substr(comma + 1), symbols))
                    symbols[std::string(trim(operands.substr(0, comma)))] = *v;
        } else if (const auto eq = code.find('=');
                   !code.empty() && code[0] != '.' && eq != std::string_view::npos && code.substr(eq + 1, 1) != "=") {
            // NAME = VALUE
            const std::string_view name = trim(code.substr(0, eq));
            if (!name.empty() && name.find_first_of(" \t,") == std::string_view::npos)
                if (const auto v = valueOf(code.substr(eq + 1), symbols))
                    symbols[std::string(name)] = *v;
        }
        if (directive == ".rept" || directive == ".rep") {
            const std::uint64_t count = countOf(operands, symbols);
            const std::string statementText(written);
            // The statements the body repeats (nested blocks multiply on their own line).
            std::uint64_t body = 0;
            int depth = 0;
            std::string inner;
            std::string_view ignored;
            std::size_t end = i + 1; // the line of the block's .endr (or the end of the text)
            for (; end < lines.size(); ++end) {
                const std::string_view c = statement(lines[end], inner, ignored);
                if (inner == ".rept" || inner == ".rep" || inner == ".irp" || inner == ".irpc")
                    ++depth;
                else if (closesBody(c, ".endr") && depth-- == 0)
                    break;
                else if (depth == 0 && !c.empty())
                    ++body;
            }
            const std::uint64_t times = count == kUnknown ? 1 : saturatingProduct(repeat.back(), count);
            const std::uint64_t produced = saturatingProduct(times, std::max<std::uint64_t>(body, 1));
            if (count != kUnknown && produced > options.limits.instructions) {
                errors.push_back({Severity::Error,
                                  line,
                                  int(code.data() - lines[i].data()),
                                  "`" + statementText + "` would produce about " + std::to_string(produced)
                                      + " statements, over the limit of " + std::to_string(options.limits.instructions)
                                      + " instructions (raise with --limit instructions=N); it is not expanded",
                                  {}});
                // The whole block blanked, up to its .endr: it produces nothing, and the blocks
                // around it then repeat blank lines instead of parsing it each time (the work of
                // `.rept 10` nested eight deep is a third of a block left as `.rept 0`).
                for (std::size_t b = i; b <= end && b < lines.size(); ++b)
                    if (!lines[b].empty())
                        blank(lines[b]);
                i = end; // (its .endr is blanked with it: the enclosing count stays on the stack)
                continue;
            } else {
                repeat.push_back(times);
            }
        } else if (directive == ".irp" || directive == ".irpc") {
            const auto comma = operands.find(',');
            const std::string_view values = comma == std::string_view::npos ? std::string_view() : operands.substr(comma + 1);
            const std::uint64_t n = directive == ".irp" ? std::uint64_t(std::count(values.begin(), values.end(), ',') + 1)
                                                        : std::uint64_t(trim(values).size());
            repeat.push_back(saturatingProduct(repeat.back(), std::max<std::uint64_t>(n, 1)));
        } else if (closesBody(code, ".endr")) {
            if (repeat.size() > 1)
                repeat.pop_back();
        } else if (directive == ".include" || directive == ".incbin") {
            const std::string name = quoted(directive == ".incbin" ? operands.substr(0, operands.find(',')) : operands);
            if (name.empty())
                continue;
            if (!haveRoots) {
                roots = includeRoots(options);
                haveRoots = true;
            }
            const std::string why = refusal(directive == ".incbin", name, options, roots);
            if (why.empty())
                continue;
            errors.push_back({Severity::Error,
                              line,
                              int(code.data() - lines[i].data()),
                              directive + " \"" + name + "\" is refused: " + why,
                              {}});
            blank(code);
        }
    }
    return changed;
}

} // namespace gcnlens::detail
