// SPDX-License-Identifier: MIT
#include "core/asm/guard_p.h"

#include "core/asm/sourcemap.h"
#include "core/support/text.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <map>
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

// A count as the guard can know it: an integer literal, a known symbol, or a product of those.
// kUnknown otherwise (LLVM then decides, bounded by the streamer's limits and the worker's clock).
std::uint64_t countOf(std::string_view expr, const std::map<std::string, std::int64_t>& symbols)
{
    std::uint64_t product = 1;
    for (;;) {
        const auto star = expr.find('*');
        const std::string_view factor = trim(expr.substr(0, star));
        std::int64_t value = 0;
        if (const auto it = symbols.find(std::string(factor)); it != symbols.end()) {
            value = it->second;
        } else {
            const std::string text(factor);
            char* end = nullptr;
            if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0]))))
                return kUnknown;
            value = std::strtoll(text.c_str(), &end, 0);
            if (*end)
                return kUnknown;
        }
        product = saturatingProduct(product, std::uint64_t(std::max<std::int64_t>(value, 0)));
        if (star == std::string_view::npos)
            return product;
        expr.remove_prefix(star + 1);
    }
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
    // The statement of a line: its directive (lower case) and operands.
    const auto statement = [](std::string_view line, std::string& directive, std::string_view& operands) {
        const std::string_view code = trim(SourceMap::code(line));
        const auto space = code.find_first_of(" \t");
        directive = lower(code.substr(0, space));
        operands = space == std::string_view::npos ? std::string_view() : trim(code.substr(space));
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
                if (const auto v = countOf(operands.substr(comma + 1), symbols); v != kUnknown)
                    symbols[std::string(trim(operands.substr(0, comma)))] = std::int64_t(std::min<std::uint64_t>(v, INT64_MAX));
        } else if (const auto eq = code.find('=');
                   !code.empty() && code[0] != '.' && eq != std::string_view::npos && code.substr(eq + 1, 1) != "=") {
            // NAME = VALUE
            const std::string_view name = trim(code.substr(0, eq));
            if (!name.empty() && name.find_first_of(" \t,") == std::string_view::npos)
                if (const auto v = countOf(code.substr(eq + 1), symbols); v != kUnknown)
                    symbols[std::string(name)] = std::int64_t(std::min<std::uint64_t>(v, INT64_MAX));
        }
        if (directive == ".rept" || directive == ".rep") {
            const std::uint64_t count = countOf(operands, symbols);
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
                else if (inner == ".endr" && depth-- == 0)
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
                                  "`.rept " + std::string(operands) + "` would produce about " + std::to_string(produced)
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
        } else if (directive == ".endr") {
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
