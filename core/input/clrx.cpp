// SPDX-License-Identifier: MIT
// CLRX dialect → LLVM AMDGPU syntax (see clrx.h). The syntax is CLRX's own documentation
// (CLRX-mirror doc/ClrxAsmSyntax.md, ClrxAsmPseudoOps.md, GcnOperands.md, GcnSdwaDpp.md); what a
// statement means is left to LLVM's assembler, so this file rewrites text and never encodes.
#include "core/input/clrx.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace gcnlens {

namespace {

// ASCII classes, inline: clrxasm reads bytes the same in every locale, and the <cctype> calls
// (one libc call per character, through the locale) were a good part of the translator's time.
bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isLowerAscii(char c)
{
    return c >= 'a' && c <= 'z';
}
bool isAlpha(char c)
{
    return isLowerAscii(char(c | 0x20));
}
bool isHexDigit(char c)
{
    return isDigit(c) || (char(c | 0x20) >= 'a' && char(c | 0x20) <= 'f');
}
char toLowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c | 0x20) : c;
}
char toUpperAscii(char c)
{
    return isLowerAscii(c) ? char(c & ~0x20) : c;
}
bool isIdentStart(char c)
{
    return isAlpha(c) || c == '_' || c == '.' || c == '$';
}
bool isIdentChar(char c)
{
    return isAlpha(c) || isDigit(c) || c == '_' || c == '.' || c == '$';
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (auto& c : out)
        c = toLowerAscii(c);
    return out;
}

std::string upper(std::string_view text)
{
    std::string out(text);
    for (auto& c : out)
        c = toUpperAscii(c);
    return out;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

// ---------------------------------------------------------------------------------------------
// GPU names (ClrxAsmInvoke.md's device and architecture lists) → LLVM processors.

struct GpuName {
    std::string_view clrx, llvm;
};
constexpr GpuName kGpus[] = {{"capeverde", "verde"},
                             {"pitcairn", "pitcairn"},
                             {"tahiti", "tahiti"},
                             {"oland", "oland"},
                             {"hainan", "hainan"},
                             {"bonaire", "bonaire"},
                             {"spectre", "kaveri"},
                             {"spooky", "kaveri"},
                             {"kalindi", "kabini"},
                             {"hawaii", "hawaii"},
                             {"mullins", "mullins"},
                             {"gfx700", "kaveri"},
                             {"gfx701", "hawaii"},
                             {"iceland", "iceland"},
                             {"topaz", "iceland"},
                             {"tonga", "tonga"},
                             {"fiji", "fiji"},
                             {"carrizo", "carrizo"},
                             {"stoney", "stoney"},
                             {"ellesmere", "polaris10"},
                             {"polaris10", "polaris10"},
                             {"baffin", "polaris11"},
                             {"polaris11", "polaris11"},
                             {"polaris12", "polaris12"},
                             {"polaris20", "polaris10"},
                             {"polaris21", "polaris11"},
                             {"polaris22", "polaris12"},
                             {"goose", "tonga"},
                             {"horse", "tonga"},
                             {"gfx801", "carrizo"},
                             {"gfx802", "tonga"},
                             {"gfx803", "fiji"},
                             {"gfx804", "polaris12"},
                             {"gfx900", "gfx900"},
                             {"vega10", "gfx900"},
                             {"gfx901", "gfx900"},
                             {"gfx902", "gfx902"},
                             {"gfx903", "gfx902"},
                             {"raven", "gfx902"},
                             {"gfx904", "gfx904"},
                             {"vega12", "gfx904"},
                             {"gfx905", "gfx904"},
                             {"gfx906", "gfx906"},
                             {"vega20", "gfx906"},
                             {"gfx907", "gfx906"},
                             {"dummy", "verde"},
                             // architectures: clrxasm's default device of each
                             {"gcn1.0", "verde"},
                             {"si", "verde"},
                             {"gfx6", "verde"},
                             {"gcn1.1", "bonaire"},
                             {"ci", "bonaire"},
                             {"gfx7", "bonaire"},
                             {"gcn1.2", "tonga"},
                             {"vi", "tonga"},
                             {"gfx8", "tonga"},
                             {"gcn1.4", "gfx900"},
                             {"vega", "gfx900"},
                             {"gfx9", "gfx900"},
                             {"gcn1.4.1", "gfx906"},
                             {"vega20", "gfx906"}};

// CLRX architecture of an LLVM processor: 0 = GCN1.0, 1 = GCN1.1, 2 = GCN1.2, 4 = GCN1.4, 5 = GCN1.4.1.
int archOf(std::string_view processor)
{
    static const std::unordered_map<std::string_view, int> table = {
        {"tahiti", 0}, {"pitcairn", 0}, {"verde", 0},  {"oland", 0},     {"hainan", 0},    {"gfx600", 0},    {"gfx601", 0},
        {"gfx602", 0}, {"bonaire", 1},  {"kaveri", 1}, {"hawaii", 1},    {"kabini", 1},    {"mullins", 1},   {"gfx700", 1},
        {"gfx701", 1}, {"gfx702", 1},   {"gfx703", 1}, {"gfx704", 1},    {"gfx705", 1},    {"iceland", 2},   {"tonga", 2},
        {"fiji", 2},   {"carrizo", 2},  {"stoney", 2}, {"polaris10", 2}, {"polaris11", 2}, {"polaris12", 2}, {"gfx801", 2},
        {"gfx802", 2}, {"gfx803", 2},   {"gfx805", 2}, {"gfx810", 2},    {"gfx906", 5}};
    const auto colon = processor.find(':');
    const auto it = table.find(processor.substr(0, colon));
    return it != table.end() ? it->second : 4;
}

int archFromName(std::string_view name)
{
    const std::string n = lower(name);
    if (n == "gcn1.0" || n == "si" || n == "gfx6")
        return 0;
    if (n == "gcn1.1" || n == "ci" || n == "gfx7")
        return 1;
    if (n == "gcn1.2" || n == "vi" || n == "gfx8")
        return 2;
    if (n == "gcn1.4" || n == "vega" || n == "gfx9")
        return 4;
    if (n == "gcn1.4.1" || n == "vega20" || n == "gfx906")
        return 5;
    if (n == "gcn1.5" || n == "navi" || n == "gfx10" || n == "gcn1.5.1" || n == "navidl" || n == "gfx1011")
        return 6;
    return -1;
}

// ---------------------------------------------------------------------------------------------
// Expressions (ClrxAsmSyntax.md "Expressions"): 64-bit integers, GNU as precedence, CLRX's extra
// operators (//, %%, >>>, <@, !-as-ornot, comparisons giving -1).

struct Symbols;

class Expr {
public:
    Expr(std::string_view text, const Symbols& symbols)
        : text_(text)
        , symbols_(symbols)
    {
    }
    // The value when every symbol in it is known and the whole text is one expression.
    std::optional<std::int64_t> evaluate()
    {
        // Most expressions are a decimal number (a register index, an offset): read directly, as
        // parseNumber would (no leading 0: that is octal; at most 18 digits: no overflow).
        if (const std::string_view t = trim(text_);
            !t.empty() && t.size() <= 18 && (t[0] != '0' || t.size() == 1) && std::all_of(t.begin(), t.end(), isDigit)) {
            std::int64_t v = 0;
            for (const char c : t)
                v = v * 10 + (c - '0');
            return v;
        }
        pos_ = 0;
        ok_ = true;
        const std::int64_t v = choice();
        skipBlanks();
        if (!ok_ || pos_ != text_.size())
            return std::nullopt;
        return v;
    }

private:
    void skipBlanks()
    {
        while (pos_ < text_.size() && isBlank(text_[pos_]))
            ++pos_;
    }
    bool take(std::string_view op)
    {
        skipBlanks();
        if (text_.substr(pos_, op.size()) == op) {
            pos_ += op.size();
            return true;
        }
        return false;
    }
    bool peek(std::string_view op)
    {
        skipBlanks();
        return text_.substr(pos_, op.size()) == op;
    }
    std::int64_t choice()
    {
        const std::int64_t c = logical();
        if (take("?")) {
            const std::int64_t a = choice();
            if (!take(":")) {
                ok_ = false;
                return 0;
            }
            const std::int64_t b = choice();
            return c ? a : b;
        }
        return c;
    }
    std::int64_t logical()
    {
        std::int64_t v = compare();
        for (;;) {
            if (take("&&")) {
                const auto r = compare();
                v = (v && r) ? 1 : 0;
            } else if (take("||")) {
                const auto r = compare();
                v = (v || r) ? 1 : 0;
            } else
                return v;
        }
    }
    std::int64_t compare()
    {
        std::int64_t v = additive();
        for (;;) {
            auto u = [](std::int64_t x) { return std::uint64_t(x); };
            if (take("==")) {
                const auto r = additive();
                v = v == r ? -1 : 0;
            } else if (take("!=") || take("<>")) {
                const auto r = additive();
                v = v != r ? -1 : 0;
            } else if (take("<=@")) {
                const auto r = additive();
                v = u(v) <= u(r) ? -1 : 0;
            } else if (take(">=@")) {
                const auto r = additive();
                v = u(v) >= u(r) ? -1 : 0;
            } else if (take("<@")) {
                const auto r = additive();
                v = u(v) < u(r) ? -1 : 0;
            } else if (take(">@")) {
                const auto r = additive();
                v = u(v) > u(r) ? -1 : 0;
            } else if (take("<=")) {
                const auto r = additive();
                v = v <= r ? -1 : 0;
            } else if (take(">=")) {
                const auto r = additive();
                v = v >= r ? -1 : 0;
            } else if (!peek("<<") && take("<")) {
                const auto r = additive();
                v = v < r ? -1 : 0;
            } else if (!peek(">>") && take(">")) {
                const auto r = additive();
                v = v > r ? -1 : 0;
            } else
                return v;
        }
    }
    std::int64_t additive()
    {
        std::int64_t v = multiplicative();
        for (;;) {
            if (peek("&&") || peek("||") || peek("!="))
                return v;
            if (take("&"))
                v &= multiplicative();
            else if (take("|"))
                v |= multiplicative();
            else if (take("^"))
                v ^= multiplicative();
            else if (take("!"))
                v |= ~multiplicative();
            else if (take("+"))
                v = std::int64_t(std::uint64_t(v) + std::uint64_t(multiplicative()));
            else if (take("-"))
                v = std::int64_t(std::uint64_t(v) - std::uint64_t(multiplicative()));
            else
                return v;
        }
    }
    std::int64_t multiplicative()
    {
        std::int64_t v = unary();
        for (;;) {
            if (take("*"))
                v = std::int64_t(std::uint64_t(v) * std::uint64_t(unary()));
            else if (take("//")) {
                const auto r = std::uint64_t(unary());
                if (!r)
                    return fail();
                v = std::int64_t(std::uint64_t(v) / r);
            } else if (take("/")) {
                const auto r = unary();
                if (!r)
                    return fail();
                v /= r;
            } else if (take("%%")) {
                const auto r = std::uint64_t(unary());
                if (!r)
                    return fail();
                v = std::int64_t(std::uint64_t(v) % r);
            } else if (take("%")) {
                const auto r = unary();
                if (!r)
                    return fail();
                v %= r;
            } else if (take("<<")) {
                // Shift counts are unsigned, as in CLRX's AsmExpression: a negative one is out of
                // range (0 or the sign), never a shift by a negative amount.
                const auto r = std::uint64_t(unary());
                v = r >= 64 ? 0 : std::int64_t(std::uint64_t(v) << r);
            } else if (take(">>>")) {
                const auto r = std::uint64_t(unary());
                v = r >= 64 ? (v < 0 ? -1 : 0) : v >> r;
            } else if (take(">>")) {
                const auto r = std::uint64_t(unary());
                v = r >= 64 ? 0 : std::int64_t(std::uint64_t(v) >> r);
            } else
                return v;
        }
    }
    std::int64_t fail()
    {
        ok_ = false;
        return 0;
    }
    std::int64_t unary()
    {
        if (take("-"))
            return std::int64_t(0 - std::uint64_t(unary()));
        if (take("+"))
            return unary();
        if (take("~"))
            return ~unary();
        if (take("!"))
            return unary() ? 0 : 1;
        return primary();
    }
    std::int64_t primary();

    std::string_view text_;
    const Symbols& symbols_;
    std::size_t pos_ = 0;
    bool ok_ = true;
};

// Integer literal at the start of text (0x, 0b, 0 octal, decimal, 'c'); the length read in *used.
std::optional<std::int64_t> parseNumber(std::string_view text, std::size_t* used)
{
    if (text.empty())
        return std::nullopt;
    if (text[0] == '\'' && text.size() >= 3) {
        std::size_t i = 1;
        char c = text[i++];
        if (c == '\\' && i < text.size()) {
            const char e = text[i++];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '0' ? '\0' : e;
        }
        if (i < text.size() && text[i] == '\'') {
            *used = i + 1;
            return std::int64_t(static_cast<unsigned char>(c));
        }
        return std::nullopt;
    }
    if (!isDigit(text[0]))
        return std::nullopt;
    int base = 10;
    std::size_t start = 0;
    if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        start = 2;
    } else if (text.size() > 1 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B') && text.size() > 2
               && (text[2] == '0' || text[2] == '1')) {
        base = 2;
        start = 2;
    } else if (text.size() > 1 && text[0] == '0' && isDigit(text[1])) {
        base = 8;
        start = 1;
    }
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data() + start, text.data() + text.size(), value, base);
    if (ec != std::errc())
        return std::nullopt;
    std::size_t end = std::size_t(ptr - text.data());
    if (end < text.size() && (isIdentChar(text[end]) && text[end] != '.'))
        return std::nullopt; // 1f, 2b (local labels), 1.5, 1e3: not plain integers
    if (end < text.size() && text[end] == '.')
        return std::nullopt;
    *used = end;
    return std::int64_t(value);
}

// Register ranges: a register symbol's value ("s[4:7]", "v21", "vcc") or a literal-constant
// symrange (`zz=%1`).
struct RegSym {
    std::string kind; // "s", "v", "ttmp", "a" for ranges; else the special's name ("vcc", "m0", …)
    int first = 0, count = 1;
    bool range = true;    // indexable range of numbered registers
    std::string constant; // `%1`, `%0.5`: a constant written as an operand
    bool regvar = false;  // a .regvar: gcnlens' allocation (Translator::regvar)
};

// Heterogeneous lookup: names found by string_view without building a std::string.
struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view> {}(text); }
};
template <typename T> using NameMap = std::unordered_map<std::string, T, NameHash, std::equal_to<>>;
using NameSet = std::unordered_set<std::string, NameHash, std::equal_to<>>;

struct Symbols {
    NameMap<std::int64_t> values;
    NameMap<RegSym> registers;
    NameSet labels; // names defined as labels (never substituted)
};

std::int64_t Expr::primary()
{
    skipBlanks();
    if (pos_ >= text_.size())
        return fail();
    if (text_[pos_] == '(') {
        ++pos_;
        const auto v = choice();
        if (!take(")"))
            return fail();
        return v;
    }
    std::size_t used = 0;
    if (const auto n = parseNumber(text_.substr(pos_), &used)) {
        pos_ += used;
        return *n;
    }
    std::size_t i = pos_;
    if (text_[i] == '@')
        ++i;
    if (i < text_.size() && isIdentStart(text_[i])) {
        std::size_t end = i;
        while (end < text_.size()
               && (isIdentChar(text_[end]) || (text_[end] == ':' && end + 1 < text_.size() && text_[end + 1] == ':'))) {
            end += text_[end] == ':' ? 2 : 1;
        }
        const std::string name(text_.substr(i, end - i));
        const auto it = symbols_.values.find(name);
        if (it == symbols_.values.end())
            return fail();
        pos_ = end;
        return it->second;
    }
    return fail();
}

// ---------------------------------------------------------------------------------------------
// Register names.

struct Special {
    std::string_view name;
    std::string_view llvm;
    int count;
};
// CLRX specials that may be indexed like ranges (vcc[0] = vcc_lo, tba[1] = tba_hi).
constexpr Special kSpecials[] = {{"vcc", "vcc", 2},
                                 {"exec", "exec", 2},
                                 {"tba", "tba", 2},
                                 {"tma", "tma", 2},
                                 {"flat_scratch", "flat_scratch", 2},
                                 {"xnack_mask", "xnack_mask", 2}};

bool isNumberedRegister(std::string_view word)
{
    std::string w = lower(word);
    std::size_t digits = 0;
    if (w.starts_with("ttmp"))
        digits = 4;
    else if (w.starts_with("s") || w.starts_with("v") || w.starts_with("a"))
        digits = 1;
    else
        return false;
    if (w.size() == digits)
        return false;
    for (std::size_t i = digits; i < w.size(); ++i)
        if (!isDigit(w[i]))
            return false;
    return true;
}

bool isRegisterWord(std::string_view word)
{
    static const NameSet names = {"vcc",
                                  "vcc_lo",
                                  "vcc_hi",
                                  "exec",
                                  "exec_lo",
                                  "exec_hi",
                                  "m0",
                                  "scc",
                                  "vccz",
                                  "execz",
                                  "tba",
                                  "tba_lo",
                                  "tba_hi",
                                  "tma",
                                  "tma_lo",
                                  "tma_hi",
                                  "flat_scratch",
                                  "flat_scratch_lo",
                                  "flat_scratch_hi",
                                  "xnack_mask",
                                  "xnack_mask_lo",
                                  "xnack_mask_hi",
                                  "lds_direct",
                                  "src_lds_direct",
                                  "src_vccz",
                                  "src_execz",
                                  "src_scc",
                                  "off",
                                  "src_shared_base",
                                  "src_shared_limit",
                                  "src_private_base",
                                  "src_private_limit",
                                  "src_pops_exiting_wave_id"};
    return isNumberedRegister(word) || names.count(lower(word));
}

std::string registerText(const RegSym& r, int first, int count)
{
    if (!r.constant.empty())
        return r.constant;
    if (!r.range) {
        // A special pair indexed: [0] lo, [1] hi, [0:1] the pair.
        if (count == 2 || r.count == 1)
            return r.kind;
        return r.kind + (first == 0 ? "_lo" : "_hi");
    }
    if (count == 1)
        return r.kind + std::to_string(first);
    return r.kind + "[" + std::to_string(first) + ":" + std::to_string(first + count - 1) + "]";
}

// ---------------------------------------------------------------------------------------------
// Instruction operand forms.

// Modifier words that may follow the last operand (GcnOperands.md, GcnInstrs*.md), lower case.
const NameSet& modifierNames()
{
    static const NameSet names = {"offset",     "offset0",     "offset1",     "glc",
                                  "slc",        "tfe",         "lwe",         "unorm",
                                  "da",         "r128",        "a16",         "d16",
                                  "gds",        "lds",         "offen",       "idxen",
                                  "addr64",     "format",      "dmask",       "vop3",
                                  "abs",        "neg",         "sext",        "mul",
                                  "div",        "omod",        "clamp",       "dst_sel",
                                  "dst_unused", "src0_sel",    "src1_sel",    "bound_ctrl",
                                  "bank_mask",  "row_mask",    "quad_perm",   "row_shl",
                                  "row_shr",    "row_ror",     "wave_shl",    "wave_rol",
                                  "wave_shr",   "wave_ror",    "row_mirror",  "row_half_mirror",
                                  "row_bcast",  "row_bcast15", "row_bcast31", "vm",
                                  "done",       "compr",       "nv",          "high",
                                  "op_sel",     "op_sel_hi",   "neg_lo",      "neg_hi",
                                  "sdwa",       "dpp",         "inst_offset", "tex_offset",
                                  "dfmt",       "nfmt",        "ssamp",       "vop3p"};
    return names;
}

bool isBooleanModifier(std::string_view name)
{
    static const std::unordered_set<std::string_view> names = {
        "glc",   "slc",   "tfe",    "lwe",   "unorm", "da",   "r128",  "a16", "d16",  "gds",        "lds",
        "offen", "idxen", "addr64", "clamp", "vm",    "done", "compr", "nv",  "high", "row_mirror", "row_half_mirror"};
    return names.count(name) != 0;
}

struct Piece {
    std::string text;
    int column; // source column of the piece's start
};

// Splits at top-level commas (outside (), []).
std::vector<Piece> splitOperands(std::string_view text, int column)
{
    std::vector<Piece> out;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ',';
        if (c == '(' || c == '[')
            ++depth;
        else if (c == ')' || c == ']')
            --depth;
        else if (c == '"') {
            const auto close = text.find('"', i + 1);
            i = close == std::string_view::npos ? text.size() - 1 : close;
        } else if (c == ',' && depth <= 0) {
            std::string_view piece = text.substr(start, i - start);
            std::size_t lead = 0;
            while (lead < piece.size() && isBlank(piece[lead]))
                ++lead;
            out.push_back({std::string(trim(piece)), column + int(start + lead)});
            start = i + 1;
        }
    }
    return out;
}

// The position where trailing modifiers start in the last operand ("v2 offset:4 glc" → 3).
std::size_t modifiersStart(std::string_view text, bool wholeIsModifiers)
{
    int depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[')
            ++depth;
        else if (c == ')' || c == ']')
            --depth;
        if (depth != 0)
            continue;
        if (!(i == 0 ? wholeIsModifiers : isBlank(c)))
            continue;
        std::size_t w = i;
        while (w < text.size() && isBlank(text[w]))
            ++w;
        std::size_t e = w;
        while (e < text.size() && isIdentChar(text[e]))
            ++e;
        if (e == w)
            continue;
        std::size_t after = e;
        while (after < text.size() && isBlank(text[after]))
            ++after;
        const bool endsWord = after >= text.size() || text[after] == ':' || e < after;
        if (endsWord && modifierNames().count(lower(text.substr(w, e - w))))
            return w;
        if (i == 0)
            return text.size();
    }
    return text.size();
}

struct Modifier {
    std::string name;  // lower case
    std::string value; // after ':' (trimmed), empty when none
    bool hasValue = false;
    int column = 0;
};

std::vector<Modifier> splitModifiers(std::string_view text, int column)
{
    std::vector<Modifier> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (isBlank(text[i]) || text[i] == ','))
            ++i;
        if (i >= text.size())
            break;
        Modifier m;
        m.column = column + int(i);
        std::size_t e = i;
        while (e < text.size() && isIdentChar(text[e]))
            ++e;
        if (e == i) { // something unexpected: keep it as a word of its own
            while (e < text.size() && !isBlank(text[e]))
                ++e;
        }
        m.name = lower(text.substr(i, e - i));
        std::size_t j = e;
        while (j < text.size() && isBlank(text[j]))
            ++j;
        if (j < text.size() && text[j] == ':') {
            m.hasValue = true;
            ++j;
            while (j < text.size() && isBlank(text[j]))
                ++j;
            std::size_t v = j;
            int depth = 0;
            while (v < text.size()) {
                const char c = text[v];
                if (c == '[' || c == '(')
                    ++depth;
                else if (c == ']' || c == ')')
                    --depth;
                else if (depth == 0 && isBlank(c)) {
                    // "bound_ctrl:0:1", "neg: [0, 1]": blanks inside brackets were skipped by depth;
                    // a blank at depth 0 ends the value unless an operator continues it.
                    std::size_t k = v;
                    while (k < text.size() && isBlank(text[k]))
                        ++k;
                    if (k < text.size() && std::strchr("+-*/&|^<>:", text[k]) && v > j) {
                        v = k + 1;
                        while (v < text.size() && isBlank(text[v]))
                            ++v;
                        continue;
                    }
                    if (k < text.size() && std::strchr("+-*/&|^<>", text[v - 1])) {
                        v = k;
                        continue;
                    }
                    break;
                }
                ++v;
            }
            m.value = std::string(trim(text.substr(j, v - j)));
            e = v;
        }
        out.push_back(std::move(m));
        i = e;
    }
    return out;
}

// SDWA selections (GcnSdwaDpp.md): BYTE0/BYTE_0/B0 …, WORD0/W0, DWORD/DW; unused PAD/SEXT/PRESERVE.
std::optional<std::string> sdwaSelect(std::string_view value)
{
    std::string v = upper(value);
    v.erase(std::remove(v.begin(), v.end(), '_'), v.end());
    if (v.starts_with("SDWA"))
        v = v.substr(4);
    if (v == "DWORD" || v == "DW")
        return std::string("DWORD");
    for (int i = 0; i < 4; ++i)
        if (v == "BYTE" + std::to_string(i) || v == "B" + std::to_string(i))
            return "BYTE_" + std::to_string(i);
    for (int i = 0; i < 2; ++i)
        if (v == "WORD" + std::to_string(i) || v == "W" + std::to_string(i))
            return "WORD_" + std::to_string(i);
    if (!v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return isDigit(c); })) {
        static const char* names[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
        const int n = std::stoi(v);
        if (n >= 0 && n < 7)
            return std::string(names[n]);
    }
    return std::nullopt;
}

std::optional<std::string> sdwaUnused(std::string_view value)
{
    std::string v = upper(value);
    v.erase(std::remove(v.begin(), v.end(), '_'), v.end());
    if (v.starts_with("SDWA"))
        v = v.substr(4);
    if (v.starts_with("UNUSED"))
        v = v.substr(6);
    if (v == "PAD" || v == "0")
        return std::string("UNUSED_PAD");
    if (v == "SEXT" || v == "1")
        return std::string("UNUSED_SEXT");
    if (v == "PRESERVE" || v == "2")
        return std::string("UNUSED_PRESERVE");
    return std::nullopt;
}

// MTBUF data and number formats (GcnInstrsMtbuf.md), by CLRX's short names.
constexpr std::string_view kDataFormats[] = {"invalid",     "8",        "16",          "8_8",        "32",      "16_16",
                                             "10_11_11",    "11_11_10", "10_10_10_2",  "2_10_10_10", "8_8_8_8", "32_32",
                                             "16_16_16_16", "32_32_32", "32_32_32_32", "reserved"};
constexpr std::string_view kNumFormats[] = {"unorm", "snorm", "uscaled", "sscaled", "uint", "sint", "snorm_ogl", "float"};

// Hardware register names (GcnOperands.md "Hardware registers") to LLVM's HW_REG_ names.
std::string hwregName(std::string_view name)
{
    std::string n = upper(trim(name));
    if (n.starts_with("HWREG_"))
        n = n.substr(6);
    else if (n.starts_with("HW_REG_"))
        n = n.substr(7);
    if (n == "IB_DBG0")
        n = "IB_DBG0";
    return "HW_REG_" + n;
}

// Hardware register ids by CLRX name (GcnOperands.md; ids from the GCN ISA manuals' S_GETREG tables).
int hwregId(std::string_view name)
{
    std::string n = lower(trim(name));
    if (n.starts_with("hwreg_"))
        n = n.substr(6);
    else if (n.starts_with("hw_reg_"))
        n = n.substr(7);
    static const std::unordered_map<std::string, int> ids = {{"mode", 1},
                                                             {"status", 2},
                                                             {"trapsts", 3},
                                                             {"hw_id", 4},
                                                             {"gpr_alloc", 5},
                                                             {"lds_alloc", 6},
                                                             {"ib_sts", 7},
                                                             {"pc_lo", 8},
                                                             {"pc_hi", 9},
                                                             {"inst_dw0", 10},
                                                             {"inst_dw1", 11},
                                                             {"ib_dbg0", 12},
                                                             {"ib_dbg1", 13},
                                                             {"flush_ib", 14},
                                                             {"sh_mem_bases", 15},
                                                             {"sq_shader_tba_lo", 16},
                                                             {"sq_shader_tba_hi", 17},
                                                             {"sq_shader_tma_lo", 18},
                                                             {"sq_shader_tma_hi", 19}};
    const auto it = ids.find(n);
    return it != ids.end() ? it->second : -1;
}

// Send-message ids and operations by CLRX name (GcnInstrsSopp.md, S_SENDMSG).
int sendmsgId(std::string_view name, int position, int msg)
{
    std::string n = lower(trim(name));
    if (position == 0) {
        if (n.starts_with("msg_"))
            n = n.substr(4);
        static const std::unordered_map<std::string, int> ids = {{"interrupt", 1},       {"gs", 2},
                                                                 {"gs_done", 3},         {"savewave", 4},
                                                                 {"stall_wave_gen", 5},  {"halt_waves", 6},
                                                                 {"ordered_ps_done", 7}, {"early_prim_dealloc", 8},
                                                                 {"gs_alloc_req", 9},    {"get_doorbell", 10},
                                                                 {"sysmsg", 15},         {"system", 15}};
        const auto it = ids.find(n);
        return it != ids.end() ? it->second : -1;
    }
    if (n.starts_with("gs_op_"))
        n = n.substr(6);
    if (n.starts_with("sysmsg_op_"))
        n = n.substr(10);
    std::replace(n.begin(), n.end(), '-', '_');
    if (msg == 15) {
        static const std::unordered_map<std::string, int> ops = {
            {"ecc_err", 1}, {"reg_rd", 2}, {"host_trap", 3}, {"tta_rd", 4}, {"ttrace_pc", 4}};
        const auto it = ops.find(n);
        return it != ops.end() ? it->second : -1;
    }
    static const std::unordered_map<std::string, int> ops = {{"nop", 0}, {"cut", 1}, {"emit", 2}, {"emit_cut", 3}};
    const auto it = ops.find(n);
    return it != ops.end() ? it->second : -1;
}

// Send-message names (GcnOperands.md / GcnInstrsSopp.md) to LLVM's MSG_/GS_OP_/SYSMSG_OP_ names.
std::string sendmsgName(std::string_view name, int position)
{
    std::string n = upper(trim(name));
    if (position == 0) {
        if (n.starts_with("MSG_"))
            return n;
        if (n == "SYSMSG")
            return "MSG_SYSMSG";
        return "MSG_" + n;
    }
    if (n.starts_with("GS_OP_") || n.starts_with("SYSMSG_OP_"))
        return n;
    if (n == "ECC_ERR" || n == "REG_RD" || n == "HOST_TRAP" || n == "TTRACE_PC" || n == "TTA_RD")
        return "SYSMSG_OP_" + n;
    return "GS_OP_" + n;
}

bool isVop3pMnemonic(std::string_view m)
{
    return m.starts_with("v_pk_") || m.starts_with("v_mad_mix") || m.starts_with("v_fma_mix") || m.starts_with("v_dot");
}

// VOP3b instructions: a VGPR and an SGPR-pair destination, so sources start at the third operand.
bool hasTwoDestinations(std::string_view m)
{
    static const std::unordered_set<std::string_view> names = {
        "v_add_i32",       "v_sub_i32",       "v_subrev_i32",  "v_addc_u32",    "v_subb_u32",
        "v_subbrev_u32",   "v_add_u32",       "v_sub_u32",     "v_subrev_u32",  "v_add_co_u32",
        "v_sub_co_u32",    "v_subrev_co_u32", "v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32",
        "v_div_scale_f32", "v_div_scale_f64", "v_mad_u64_u32", "v_mad_i64_i32"};
    std::string_view base = m;
    if (base.ends_with("_e64"))
        base.remove_suffix(4);
    return names.count(base) != 0;
}

// ---------------------------------------------------------------------------------------------
// The translator.

class Translator {
public:
    Translator(std::string_view source, const ClrxOptions& options)
        : source_(source)
        , options_(options)
    {
        processor_ = options.processor;
        arch_ = archOf(processor_);
        format_ = options.format;
        is64_ = options.is64bit;
        splitSourceLines();
    }

    // Per source line (index line - 1): the index of its one output line when the line was read
    // verbatim (a plain instruction, or blank) in an active region, once; else negative.
    static constexpr int kUnseen = -2;
    std::vector<int> plainOutput;
    // Would this statement be copied as it is (isPlain with every symbol of the text known)?
    bool plainStatement(std::string_view stmt) const { return isPlain(stmt); }

    ClrxTranslation run()
    {
        plainOutput.assign(lines_.size(), kUnseen);
        result_.text.reserve(source_.size() + source_.size() / 8);
        result_.origins.reserve(lines_.size() + 16);
        prescanSymbols();
        processRange(0, lines_.size());
        if (!lits_.empty()) {
            // lit(): forward symbols keep LLVM from folding the value into an inline constant.
            for (const auto& [name, value] : lits_)
                emitLine(name + " = " + std::to_string(value), lastLine_, 0, 0, {});
        }
        // label±N branch targets: assigned after every label is known.
        for (const auto& [name, expression] : branchTargets_)
            emitLine(name + " = " + expression, lastLine_, 0, 0, {});
        result_.processor = sourceProcessor_;
        result_.literals = lits_;
        result_.branchTargets = branchTargets_;
        return std::move(result_);
    }

private:
    // The code of a line that is not a slice of the source (block comments, joins) and the source
    // column of each of its characters. Few lines have one: SourceLine stays small (100k-line kernels).
    struct Joined {
        std::string owned;
        std::vector<int> columns;
    };
    struct SourceLine {
        std::string_view code; // comments removed ('#', '/* */'), continuation lines joined
        int line = 0;
        bool included = false; // from an .include: it maps to the including line, column 0
        // Its code is not its own text alone: it begins or ends inside a block comment, or a
        // continuation joins it to the next line. An edit of a neighbour may change it.
        bool tied = false;
        std::unique_ptr<Joined> joined; // when the code is not a slice of the source
    };

    // The lines of `text`; those of an .included file (includedFrom > 0) all map to the line that
    // included it, as LLVM's expansions do.
    void splitSourceLines(std::string_view text = {}, int includedFrom = 0, int depth = 0)
    {
        if (includedFrom == 0)
            text = source_;
        std::vector<std::string_view> raw;
        std::size_t start = 0;
        while (start <= text.size()) {
            const auto end = text.find('\n', start);
            if (end == std::string_view::npos) {
                if (start < text.size())
                    raw.push_back(text.substr(start));
                break;
            }
            raw.push_back(text.substr(start, end - start));
            start = end + 1;
        }
        bool inBlockComment = false;
        lines_.reserve(raw.size());
        for (std::size_t i = 0; i < raw.size(); ++i) {
            SourceLine out;
            out.line = int(i) + 1;
            std::string_view whole = raw[i];
            if (!whole.empty() && whole.back() == '\r')
                whole.remove_suffix(1);
            if (includedFrom > 0) {
                out.line = includedFrom;
                out.included = true;
            }
            // The usual line (no string, block comment or continuation): its code is its text up
            // to a '#' comment, columns as they are. One pass over the line finds out.
            std::size_t hash = std::string_view::npos;
            bool special = false;
            for (std::size_t c = 0; c < whole.size() && !special; ++c) {
                const char ch = whole[c];
                special = ch == '"' || ch == '/' || ch == '\\';
                if (ch == '#' && hash == std::string_view::npos)
                    hash = c;
            }
            if (!inBlockComment && !special) {
                out.code = whole.substr(0, hash);
                lines_.push_back(std::move(out));
                continue;
            }
            if (!inBlockComment && depth < 16 && include(whole, includedFrom ? includedFrom : out.line, depth)) {
                out.code = {};
                continue;
            }
            out.joined = std::make_unique<Joined>();
            Joined& joined = *out.joined;
            const bool startsInComment = inBlockComment;
            std::size_t index = i;
            for (;;) {
                std::string_view text = raw[index];
                if (!text.empty() && text.back() == '\r')
                    text.remove_suffix(1);
                bool continued = false;
                bool inString = false;
                for (std::size_t c = 0; c < text.size(); ++c) {
                    const char ch = text[c];
                    if (inBlockComment) {
                        if (ch == '*' && c + 1 < text.size() && text[c + 1] == '/') {
                            inBlockComment = false;
                            ++c;
                            joined.owned.push_back(' ');
                            joined.columns.push_back(int(c));
                        }
                        continue;
                    }
                    if (inString) {
                        if (ch == '\\' && c + 1 < text.size()) {
                            joined.owned.push_back(ch);
                            joined.columns.push_back(int(c));
                            ++c;
                            joined.owned.push_back(text[c]);
                            joined.columns.push_back(int(c));
                            continue;
                        }
                        if (ch == '"')
                            inString = false;
                    } else {
                        if (ch == '"')
                            inString = true;
                        else if (ch == '#')
                            break;
                        else if (ch == '/' && c + 1 < text.size() && text[c + 1] == '*') {
                            inBlockComment = true;
                            ++c;
                            continue;
                        } else if (ch == '\\' && c + 1 == text.size() && index + 1 < raw.size()) {
                            continued = true;
                            break;
                        }
                    }
                    // Only the first line's columns are meaningful; joined lines map to its end.
                    joined.owned.push_back(ch);
                    joined.columns.push_back(index == i ? int(c) : int(raw[i].size()));
                }
                if (!continued)
                    break;
                ++index;
            }
            out.tied = startsInComment || inBlockComment || index > i;
            lines_.push_back(std::move(out));
            // Continuation lines are consumed: they become empty lines of their own.
            while (i < index) {
                ++i;
                SourceLine empty;
                empty.line = includedFrom ? includedFrom : int(i) + 1;
                empty.included = includedFrom > 0;
                empty.tied = true;
                lines_.push_back(std::move(empty));
            }
        }
        if (includedFrom > 0)
            return;
        for (auto& l : lines_)
            if (l.joined && !l.joined->owned.empty())
                l.code = l.joined->owned;
    }

    // `.include "file"` on its own line: the file's CLRX text is read here (LLVM would read it as
    // LLVM syntax), from the name as given or the include directories. Returns false when the line
    // is not such an include or the file is not found (the directive then reaches LLVM, which says so).
    bool include(std::string_view line, int at, int depth)
    {
        std::string_view t = trim(line);
        if (t.size() < 9 || lower(t.substr(0, 8)) != ".include" || !isBlank(t[8]))
            return false;
        t = trim(t.substr(8));
        if (t.size() < 2 || t.front() != '"')
            return false;
        const auto close = t.find('"', 1);
        if (close == std::string_view::npos || !trim(t.substr(close + 1)).empty())
            return false;
        const std::string name(t.substr(1, close - 1));
        std::vector<std::string> candidates {name};
        if (!name.starts_with("/"))
            for (const auto& dir : options_.includeDirs)
                candidates.push_back(dir + "/" + name);
        for (const auto& path : candidates) {
            std::ifstream in(path, std::ios::binary);
            if (!in)
                continue;
            std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            includedTexts_.push_back(std::move(content));
            SourceLine self; // the .include line itself stays, empty
            self.line = at;
            lines_.push_back(std::move(self));
            splitSourceLines(includedTexts_.back(), at, depth + 1);
            return true;
        }
        return false;
    }

    // Splits a line's code into statements at ';' (outside strings).
    using Spans = std::vector<std::pair<std::size_t, std::size_t>>;
    static void statements(std::string_view code, Spans& out)
    {
        out.clear();
        bool inString = false;
        std::size_t start = 0;
        for (std::size_t i = 0; i <= code.size(); ++i) {
            if (i < code.size()) {
                const char c = code[i];
                if (inString) {
                    if (c == '\\')
                        ++i;
                    else if (c == '"')
                        inString = false;
                    continue;
                }
                if (c == '"') {
                    inString = true;
                    continue;
                }
                if (c == '\'' && i + 2 < code.size()) { // character literal
                    i += code[i + 1] == '\\' ? 3 : 2;
                    continue;
                }
                if (c != ';')
                    continue;
            }
            out.emplace_back(start, i);
            start = i + 1;
        }
    }

    // Numeric symbols assigned anywhere (`name = const`): CLRX resolves forward references.
    // Lines [first, end): .for/.while loops are expanded here (LLVM has no such loops), each pass
    // of the body mapped back to the body's own lines.
    void processRange(std::size_t first, std::size_t end)
    {
        for (std::size_t i = first; i < end; ++i) {
            const std::string_view code = trim(lines_[i].code);
            const std::string word = code.starts_with('.') ? lower(code.substr(0, code.find_first_of(" \t"))) : std::string();
            if (active() && (word == ".for" || word == ".while")) {
                const std::size_t close = loopEnd(i, end);
                expandLoop(i, close, word, trim(code.substr(word.size())));
                i = close; // the .endfor/.endwhile line
                emitLine("", lines_[i].line, 0, 0, {});
                continue;
            }
            processLine(int(i));
        }
    }

    std::size_t loopEnd(std::size_t open, std::size_t end) const
    {
        int depth = 0;
        for (std::size_t i = open; i < end; ++i) {
            const std::string_view code = trim(lines_[i].code);
            const std::string word = lower(code.substr(0, code.find_first_of(" \t")));
            if (word == ".for" || word == ".while")
                ++depth;
            else if ((word == ".endfor" || word == ".endwhile") && --depth == 0)
                return i;
        }
        return end - 1;
    }

    // .for SYM = INIT, COND, NEXT … .endfor; .while COND … .endwhile (ClrxAsmPseudoOps.md).
    void expandLoop(std::size_t open, std::size_t close, const std::string& word, std::string_view arg)
    {
        const SourceLine& l = lines_[open];
        emitLine("", l.line, 0, 0, {});
        std::string symbol, condition, next;
        if (word == ".for") {
            const auto parts = splitOperands(arg, 0);
            const auto eq = parts.empty() ? std::string::npos : parts[0].text.find('=');
            if (parts.size() != 3 || eq == std::string::npos) {
                note(l.line, 0, "CLRX .for needs SYMBOL = INIT, CONDITION, NEXT", Severity::Error);
                return;
            }
            symbol = std::string(trim(std::string_view(parts[0].text).substr(0, eq)));
            const auto init = valueOf(std::string_view(parts[0].text).substr(eq + 1), l, 0);
            if (!init) {
                note(l.line, 0, "CLRX .for start value is not known; the loop is left out", Severity::Error);
                return;
            }
            symbols_.values[symbol] = *init;
            condition = parts[1].text;
            next = parts[2].text;
        } else {
            condition = std::string(arg);
        }
        constexpr int kMaxPasses = 100000;
        for (int pass = 0;; ++pass) {
            const auto c = valueOf(condition, l, 0);
            if (!c) {
                note(l.line, 0, "CLRX " + word + " condition is not known; the loop stops here", Severity::Error);
                return;
            }
            if (!*c)
                return;
            // A loop that does not end (or writes a huge kernel) stops with an error.
            loopLines_ += close - open - 1;
            if (pass == kMaxPasses || loopLines_ > kMaxLoopLines) {
                note(l.line, 0,
                     "CLRX " + word + " loop stopped after " + std::to_string(pass) + " passes (" + std::to_string(kMaxLoopLines)
                         + " lines from loops at most)",
                     Severity::Error);
                return;
            }
            processRange(open + 1, close);
            if (!symbol.empty()) {
                const auto v = valueOf(next, l, 0);
                if (!v)
                    return;
                symbols_.values[symbol] = *v;
            }
        }
    }

    void prescanSymbols()
    {
        // The registers the code names, so that .regvar registers go above them.
        const bool hasRegvars = source_.find(".regvar") != std::string_view::npos;
        for (const auto& l : lines_) {
            if (!hasRegvars)
                break;
            const std::string_view c = l.code;
            for (std::size_t i = 0; i + 1 < c.size(); ++i) {
                const char k = toLowerAscii(c[i]);
                if ((k != 'v' && k != 's') || (i > 0 && isIdentChar(c[i - 1])))
                    continue;
                std::size_t j = i + 1;
                if (j < c.size() && c[j] == '[')
                    ++j;
                int value = -1;
                while (j < c.size() && isDigit(c[j]))
                    value = std::min(std::max(value, 0) * 10 + (c[j++] - '0'), 1 << 20); // no register is that high
                if (j < c.size() && c[j] == ':') {
                    int hi = -1;
                    ++j;
                    while (j < c.size() && isDigit(c[j]))
                        hi = std::min(std::max(hi, 0) * 10 + (c[j++] - '0'), 1 << 20); // as `value` (fuzz_listingreader)
                    value = std::max(value, hi);
                }
                if (value < 0 || (j < c.size() && isIdentChar(c[j]) && c[j] != ']'))
                    continue;
                int& top = k == 'v' ? nextRegvarV_ : nextRegvarS_;
                top = std::max(top, value + 1);
            }
        }

        Spans spans;
        for (const auto& l : lines_) {
            if (l.code.find('=') == std::string_view::npos)
                continue;
            statements(l.code, spans);
            for (const auto& [b, e] : spans) {
                std::string_view s = trim(std::string_view(l.code).substr(b, e - b));
                std::size_t n = 0;
                while (n < s.size() && isIdentChar(s[n]))
                    ++n;
                if (n == 0 || isDigit(s[0]))
                    continue;
                std::string_view rest = trim(s.substr(n));
                if (rest.size() < 2 || rest[0] != '=' || rest[1] == '=')
                    continue;
                const std::string name(s.substr(0, n));
                registerNamedSymbols_ = registerNamedSymbols_ || isRegisterWord(name);
                const std::string_view value = trim(rest.substr(1));
                if (value.starts_with("%"))
                    continue;
                std::size_t used = 0;
                if (const auto v = parseNumber(value, &used); v && used == value.size()) {
                    // Only a symbol assigned once is known everywhere.
                    if (forward_.values.count(name) && forward_.values[name] != *v)
                        forward_.values.erase(name), multiple_.insert(name);
                    else if (!multiple_.count(name))
                        forward_.values[name] = *v;
                }
            }
        }
    }

    void emitLine(std::string_view text, int line, int begin, int end, std::vector<std::pair<int, int>> anchors)
    {
        result_.text += text;
        result_.text.push_back('\n');
        ClrxTranslation::Origin origin;
        origin.line = line;
        origin.begin = begin;
        origin.end = end;
        origin.anchors = std::move(anchors);
        result_.origins.push_back(std::move(origin));
    }

    void note(int line, int column, std::string message, Severity severity = Severity::Note)
    {
        result_.notes.push_back({severity, line, column, std::move(message), {}});
    }

    // --- conditional assembly evaluated here (.ifarch, .iffmt, .if64 …, and .if on known values)

    struct Cond {
        bool parentActive;
        bool active;      // this branch is being assembled
        bool taken;       // some branch was taken already
        bool passthrough; // an .if we could not evaluate: LLVM decides, both branches kept
    };
    std::vector<Cond> conds_;
    bool active() const { return conds_.empty() || conds_.back().active; }

    std::optional<bool> evaluateCondition(const std::string& word, std::string_view arg)
    {
        std::string w = word;
        bool negate = false;
        auto strip = [&](std::string_view prefix) {
            if (w.starts_with(prefix)) {
                w = w.substr(prefix.size());
                return true;
            }
            return false;
        };
        if (!strip(".elseif"))
            strip(".if");
        if (w.starts_with("n") && w != "ne" && w != "nb" && w != "nc") {
            negate = true;
            w = w.substr(1);
        }
        std::optional<bool> r;
        const std::string a = lower(trim(arg));
        if (w == "arch") {
            const int arch = archFromName(a);
            r = arch == arch_ || (arch == 4 && arch_ == 5 && a == "gcn1.4" && false);
        } else if (w == "gpu") {
            r = clrxProcessor(a) == processor_;
        } else if (w == "fmt") {
            ClrxFormat f;
            r = parseClrxFormat(a, f) && f == format_;
        } else if (w == "64") {
            r = is64_;
        } else if (w == "32") {
            r = !is64_;
        } else if (w.empty()) {
            if (const auto v = Expr(arg, knownSymbols()).evaluate())
                r = *v != 0;
        } else if (w == "def") {
            const std::string name(trim(arg));
            if (symbols_.values.count(name) || symbols_.registers.count(name))
                r = true;
            else if (!forward_.values.count(name))
                r = std::nullopt; // might be a label: LLVM decides
        } else if (w == "eq" || w == "ne" || w == "gt" || w == "ge" || w == "lt" || w == "le") {
            if (const auto v = Expr(arg, knownSymbols()).evaluate())
                r = w == "eq"   ? *v == 0
                    : w == "ne" ? *v != 0
                    : w == "gt" ? *v > 0
                    : w == "ge" ? *v >= 0
                    : w == "lt" ? *v < 0
                                : *v <= 0;
        } else {
            return std::nullopt;
        }
        if (r && negate)
            r = !*r;
        return r;
    }

    const Symbols& knownSymbols() { return symbols_; }

    // Returns true when the statement was a conditional directive (handled here).
    bool handleConditional(const std::string& word, std::string_view arg, int line, int begin, int end, std::string& out)
    {
        const bool isIf = word.starts_with(".if");
        const bool isElseIf = word.starts_with(".elseif");
        if (!isIf && !isElseIf && word != ".else" && word != ".endif")
            return false;
        if (isIf) {
            const bool parent = active();
            const auto value = parent ? evaluateCondition(word, arg) : std::optional<bool>(false);
            if (!value) {
                conds_.push_back({parent, true, false, true});
                out = translateDirectiveText(word, arg, line, begin);
            } else {
                conds_.push_back({parent, parent && *value, *value, false});
            }
            return true;
        }
        if (conds_.empty()) {
            note(line, begin, word + " without .if", Severity::Error);
            return true;
        }
        Cond& c = conds_.back();
        if (c.passthrough) {
            out = word == ".endif" ? ".endif" : word == ".else" ? ".else" : translateDirectiveText(".elseif", arg, line, begin);
            if (word == ".endif")
                conds_.pop_back();
            return true;
        }
        if (word == ".endif") {
            conds_.pop_back();
        } else if (word == ".else") {
            c.active = c.parentActive && !c.taken;
            c.taken = true;
        } else {
            const auto value = c.parentActive && !c.taken ? evaluateCondition(word, arg) : std::optional<bool>(false);
            if (!value) {
                note(line, begin, "CLRX " + word + " condition could not be evaluated; the branch is left out");
                c.active = false;
            } else {
                c.active = c.parentActive && !c.taken && *value;
                c.taken = c.taken || *value;
            }
        }
        (void)end;
        return true;
    }

    // --- one source line

    void processLine(int index)
    {
        const SourceLine& l = lines_[std::size_t(index)];
        lastLine_ = l.line;
        statements(l.code, spans_);
        const Spans stmtsCopy = spans_.size() > 1 ? spans_ : Spans {};
        const Spans& stmts = spans_.size() > 1 ? stmtsCopy : spans_; // a nested loop may reuse spans_
        bool emitted = false;
        const std::size_t outputBefore = result_.origins.size();
        int plainStatements = 0, otherStatements = 0;
        for (const auto& [b, e] : stmts) {
            std::size_t sb = b, se = e;
            while (sb < se && isBlank(l.code[sb]))
                ++sb;
            while (se > sb && isBlank(l.code[se - 1]))
                --se;
            if (sb == se && stmts.size() > 1)
                continue;
            const int colBegin = columnAt(l, sb);
            const int colEnd = se > sb ? columnAt(l, se - 1) + 1 : colBegin;
            anchors_.clear();
            const std::string_view stmt = std::string_view(l.code).substr(sb, se - sb);
            if (active() && isPlain(stmt)) {
                // Most lines of real kernels read the same in both dialects: copied, columns 1:1.
                emitLine(stmt, l.line, colBegin, colEnd, {});
                emitted = true;
                ++plainStatements;
                continue;
            }
            ++otherStatements;
            const bool wasActive = active();
            std::string out = processStatement(stmt, l, sb);
            if (stmt.empty() && wasActive && active())
                --otherStatements; // a blank line in an active region: as plain as it gets
            if (out.empty() && (emitted || stmts.size() > 1))
                continue;
            // A statement may become several lines ("NAME:" after .text): each maps to the statement.
            std::size_t from = 0;
            for (std::size_t nl = out.find('\n'); nl != std::string::npos; nl = out.find('\n', from)) {
                emitLine(out.substr(from, nl - from), l.line, colBegin, colEnd, {});
                from = nl + 1;
            }
            emitLine(from ? out.substr(from) : out, l.line, colBegin, colEnd,
                     from ? std::vector<std::pair<int, int>> {} : anchors_);
            emitted = true;
        }
        if (!emitted)
            emitLine("", l.line, 0, 0, {});
        // ClrxTranslator's record: the one output line of a line read verbatim (or blank), once. A
        // tied line's code is not what its text alone reads as (a blank line in a block comment:
        // fuzz_frontend 73838dbd), nor is the text of a line that takes its place.
        if (!l.included && l.line >= 1 && std::size_t(l.line) <= plainOutput.size()) {
            int& slot = plainOutput[std::size_t(l.line - 1)];
            const bool single = otherStatements == 0 && plainStatements <= 1 && result_.origins.size() == outputBefore + 1;
            slot = slot == kUnseen && single && active() && !l.tied ? int(outputBefore) : -1;
        }
    }

    int columnAt(const SourceLine& l, std::size_t at) const
    {
        if (l.included)
            return 0;
        if (!l.joined || l.joined->columns.empty()) // the code is the line's own text up to a comment
            return int(at);
        const std::vector<int>& columns = l.joined->columns;
        if (at < columns.size())
            return columns[at];
        return columns.back() + 1;
    }

    // The mnemonic part of isPlain: one LLVM spells and encodes as clrxasm does, and no macro.
    bool plainMnemonic(std::string_view m) const
    {
        if (!m.starts_with("s_") && !m.starts_with("v_") && !m.starts_with("ds_") && !m.starts_with("buffer_"))
            return false;
        for (const std::string_view p : {"v_mad_mix", "v_fma_mix", "s_waitcnt", "s_sendmsg", "s_getreg", "s_setreg", "s_load_",
                                         "s_buffer_load_", "s_store_", "s_buffer_store_"})
            if (m.starts_with(p))
                return false;
        if (m.starts_with("v_cmp")
            && (m.find("_t_f") != std::string_view::npos || m.find("_lg_") != std::string_view::npos
                || m.find("_tru_") != std::string_view::npos))
            return false;
        if (m.ends_with("_e64") || m.ends_with("_sdwa") || m.ends_with("_dpp") || m == "v_add_u32" || m == "v_sub_u32"
            || m == "v_subrev_u32" || m == "v_add_i32" || m == "v_sub_i32" || m == "v_subrev_i32" || m == "v_cmp_class_f64"
            || m == "v_cmpx_class_f64" || m == "v_interp_p1_f32" || m == "v_interp_p2_f32" || m == "v_interp_mov_f32")
            return false;
        return !macros_.count(m);
    }

    // A statement LLVM reads exactly as clrxasm does: an instruction whose words are registers,
    // numbers, labels and flags both spell alike, with no symbol of the source in it. Checked
    // without allocating; anything else goes through processStatement.
    bool isPlain(std::string_view stmt) const
    {
        std::size_t n = 0;
        while (n < stmt.size() && (isLowerAscii(stmt[n]) || isDigit(stmt[n]) || stmt[n] == '_'))
            ++n;
        if (n == 0 || (n < stmt.size() && !isBlank(stmt[n])))
            return false;
        const std::string_view m = stmt.substr(0, n);
        const bool buffer = m.starts_with("buffer_");
        // A kernel uses few mnemonics: each one's verdict is worked out once.
        auto known = plainMnemonics_.find(m);
        if (known == plainMnemonics_.end())
            known = plainMnemonics_
                        .emplace(std::string(m), plainMnemonic(m) ? (branchTargetOperand(m) == std::string::npos ? 1 : 2) : 0)
                        .first;
        if (!known->second)
            return false;
        if (known->second == 2 && stmt.find('-', n) != std::string_view::npos)
            return false;         // a branch to label-N (the operand loop takes '-' for a sign)
        bool addressFlag = false; // MUBUF: offen/idxen/addr64 (else clrxasm's vaddr becomes "off")
        bool flagSeen = false, cacheSeen = false;
        unsigned offsetsSeen = 0; // offset, offset0, offset1, then glc … gds: each once
        for (std::size_t i = n; i < stmt.size();) {
            const char c = stmt[i];
            if (isBlank(c) || c == ',' || c == '-') {
                ++i;
                continue;
            }
            if (isDigit(c)) { // numbers, hex, floats without a CLRX suffix
                std::size_t e = i;
                while (e < stmt.size() && (isHexDigit(stmt[e]) || stmt[e] == 'x' || stmt[e] == '.'))
                    ++e;
                if (e < stmt.size() && isIdentChar(stmt[e]))
                    return false;
                i = e;
                continue;
            }
            if (c == '[') { // s[4:7]: numbers only
                std::size_t e = i + 1;
                while (e < stmt.size() && (isDigit(stmt[e]) || stmt[e] == ':'))
                    ++e;
                const bool afterRange = i >= 2 && (stmt[i - 1] == 's' || stmt[i - 1] == 'v') && !isIdentChar(stmt[i - 2]);
                if (e >= stmt.size() || stmt[e] != ']' || e == i + 1 || !afterRange)
                    return false;
                i = e + 1;
                continue;
            }
            if (!isIdentStart(c))
                return false;
            std::size_t e = i;
            while (e < stmt.size() && isIdentChar(stmt[e]))
                ++e;
            const std::string_view word = stmt.substr(i, e - i);
            if (e < stmt.size() && stmt[e] == ':') { // offset:N
                if ((word != "offset" && word != "offset0" && word != "offset1") || cacheSeen)
                    return false; // LLVM wants offset before glc, slc …
                const unsigned bit = word == "offset" ? 1u : word == "offset0" ? 2u : 4u;
                if (offsetsSeen & bit)
                    return false; // given twice: clrxasm keeps the last
                offsetsSeen |= bit;
                flagSeen = true;
                i = e + 1;
                continue;
            }
            const unsigned kind = plainWord(word);
            if (!kind)
                return false;
            if (kind == kAddressWord) {
                if (flagSeen) // LLVM wants these before offset, glc, slc …
                    return false;
                addressFlag = true;
            } else if (kind != kPlainWord) {
                const unsigned bit = kind;
                if (offsetsSeen & bit)
                    return false; // given twice: clrxasm takes it, LLVM does not
                offsetsSeen |= bit;
                flagSeen = cacheSeen = true;
            }
            i = e;
        }
        return !buffer || addressFlag;
    }

    // What a word of an operand list is to isPlain, found with one hash lookup instead of a chain
    // of compares: not plain (0), plain (kPlainWord), an address flag (kAddressWord) or a cache flag
    // (its bit in isPlain's offsetsSeen: glc 8, slc 16, tfe 32, lwe 64, gds 128).
    static constexpr unsigned kPlainWord = 1, kAddressWord = 2;
    static const NameMap<unsigned>& plainWords()
    {
        static const NameMap<unsigned> words = [] {
            NameMap<unsigned> m;
            for (const char* w : {"vcc", "vcc_lo", "vcc_hi", "exec", "exec_lo", "exec_hi", "m0", "off", "flat_scratch",
                                  "flat_scratch_lo", "flat_scratch_hi", "ttmp", "s", "v"})
                m.emplace(w, kPlainWord);
            for (const char* w : {"offen", "idxen", "addr64"})
                m.emplace(w, kAddressWord);
            unsigned bit = 8;
            for (const char* w : {"glc", "slc", "tfe", "lwe", "gds"}) {
                m.emplace(w, bit);
                bit <<= 1;
            }
            for (const char* w : {"lit", "abs", "neg", "sext", "lds", "scc", "vccz", "execz", "clamp", "vop3", "mul", "div",
                                  "omod", "sdwa", "dpp"})
                m.emplace(w, 0u);
            return m;
        }();
        return words;
    }

    // The word's kind (above) when isPlain may copy it: a register, flag or label no symbol is
    // named after.
    unsigned plainWord(std::string_view w) const
    {
        if (w.size() >= 2 && (w[0] == 'v' || w[0] == 's')) {
            bool digits = true;
            for (std::size_t k = 1; k < w.size(); ++k)
                digits = digits && isDigit(w[k]);
            if (digits)
                return registerNamedSymbols_ && symbolNamed(w) ? 0 : kPlainWord;
        }
        const auto& words = plainWords();
        if (const auto it = words.find(w); it != words.end())
            return symbolNamed(w) ? 0 : it->second; // s[4:7], unless `s` is a symbol
        if (w.starts_with("ttmp") || symbolNamed(w) || modifierNames().count(w))
            return 0;
        return kPlainWord; // a label
    }

    bool symbolNamed(std::string_view w) const
    {
        // (An empty table is not hashed into: most kernels have few symbols, and this runs per word.)
        return (!symbols_.values.empty() && symbols_.values.count(w))
            || (!symbols_.registers.empty() && symbols_.registers.count(w))
            || (!forward_.values.empty() && forward_.values.count(w));
    }

    std::string processStatement(std::string_view stmt, const SourceLine& l, std::size_t at)
    {
        std::string out;
        // Labels: "name:" (not "name::x", a scope path), local labels "1:".
        for (;;) {
            std::size_t n = 0;
            while (n < stmt.size() && isIdentChar(stmt[n]))
                ++n;
            std::size_t c = n;
            while (c < stmt.size() && isBlank(stmt[c]))
                ++c;
            if (n > 0 && c < stmt.size() && stmt[c] == ':' && (c + 1 >= stmt.size() || stmt[c + 1] != ':')
                && (c + 1 >= stmt.size() || stmt[c + 1] != '=')) {
                if (active()) {
                    const std::string name(stmt.substr(0, n));
                    anchors_.emplace_back(int(out.size()), columnAt(l, at));
                    out += name + ": ";
                    symbols_.labels.insert(name);
                    if (!currentKernel_.empty() && name == currentKernel_)
                        kernelLabelSeen_ = true;
                }
                const std::size_t skip = c + 1;
                at += skip;
                stmt = stmt.substr(skip);
                while (!stmt.empty() && isBlank(stmt.front())) {
                    stmt.remove_prefix(1);
                    ++at;
                }
                continue;
            }
            break;
        }
        if (stmt.empty())
            return out;

        std::size_t n = 0;
        while (n < stmt.size() && (isIdentChar(stmt[n]) || (stmt[n] == ':' && n + 1 < stmt.size() && stmt[n + 1] == ':')))
            n += stmt[n] == ':' ? 2 : 1;
        const std::string word = lower(stmt.substr(0, n));
        std::string_view rest = stmt.substr(n);
        std::size_t restAt = at + n;
        while (!rest.empty() && isBlank(rest.front())) {
            rest.remove_prefix(1);
            ++restAt;
        }

        if (word.starts_with(".")) {
            std::string condOut;
            if (handleConditional(word, rest, l.line, columnAt(l, at), columnAt(l, at + stmt.size()), condOut)) {
                if (!condOut.empty()) {
                    anchors_.emplace_back(int(out.size()), columnAt(l, at));
                    out += condOut;
                }
                return out;
            }
        }
        if (!active())
            return out;

        // Assignment: name = expr, name=%reg.
        if (n > 0 && !rest.empty() && rest[0] == '=' && (rest.size() < 2 || rest[1] != '=')) {
            std::string_view value = trim(rest.substr(1));
            anchors_.emplace_back(int(out.size()), columnAt(l, at));
            out += assignment(std::string(stmt.substr(0, n)), value, l, at);
            return out;
        }
        if (word.starts_with(".")) {
            anchors_.emplace_back(int(out.size()), columnAt(l, at));
            out += directive(word, rest, l, at, restAt);
            return out;
        }
        if (n == 0) {
            anchors_.emplace_back(int(out.size()), columnAt(l, at));
            out += std::string(stmt);
            return out;
        }
        if (const auto macro = macros_.find(word); macro != macros_.end()) {
            // a macro call: arguments are text for LLVM's macro expansion
            anchors_.emplace_back(int(out.size()), columnAt(l, at));
            out += macro->second;
            if (!rest.empty())
                out += " " + operandText(rest, l, restAt);
            return out;
        }
        anchors_.emplace_back(int(out.size()), columnAt(l, at));
        out += instruction(word, rest, l, restAt);
        return out;
    }

    // --- symbols

    std::optional<RegSym> parseRegister(std::string_view text)
    {
        // "%s[4:7]", "%v21", "%vcc", "%1", "%x1[4]" (another register symbol), "%0.5".
        text = trim(text);
        if (!text.starts_with("%"))
            return std::nullopt;
        text.remove_prefix(1);
        text = trim(text);
        inPercent_ = true;
        std::string reg = operandText(text, lines_[0], 0, /*noAnchors=*/true);
        inPercent_ = false;
        return registerFromText(reg);
    }

    std::optional<RegSym> registerFromText(std::string_view reg)
    {
        reg = trim(reg);
        RegSym r;
        if (!reg.empty() && (isDigit(reg[0]) || reg[0] == '-' || reg[0] == '.')) {
            r.constant = std::string(reg);
            r.range = false;
            return r;
        }
        std::string l = lower(reg);
        for (const auto& s : kSpecials)
            if (l == s.name) {
                r.kind = std::string(s.llvm);
                r.count = s.count;
                r.range = false;
                return r;
            }
        if (!isNumberedRegister(l) && isRegisterWord(l)) {
            r.kind = specialRegister(l, l);
            r.range = false;
            return r;
        }
        std::size_t p = 0;
        for (std::string_view k : {"ttmp", "s", "v", "a"})
            if (l.starts_with(k)) {
                r.kind = std::string(k);
                p = k.size();
                break;
            }
        if (r.kind.empty()) {
            if (isRegisterWord(l)) {
                r.kind = l;
                r.range = false;
                return r;
            }
            return std::nullopt;
        }
        std::string_view body = std::string_view(l).substr(p);
        if (!body.empty() && isDigit(body[0])) {
            int v = 0;
            const auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
            if (ec != std::errc() || ptr != body.data() + body.size())
                return std::nullopt;
            r.first = v;
            r.count = 1;
            return r;
        }
        if (body.starts_with("[") && body.ends_with("]")) {
            body = body.substr(1, body.size() - 2);
            const auto colon = body.find(':');
            int a = 0, b = 0;
            auto num = [](std::string_view t, int& out) {
                t = trim(t);
                const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
                return ec == std::errc() && ptr == t.data() + t.size();
            };
            if (!num(body.substr(0, colon), a))
                return std::nullopt;
            b = a;
            if (colon != std::string_view::npos && !num(body.substr(colon + 1), b))
                return std::nullopt;
            r.first = a;
            r.count = b - a + 1;
            return r;
        }
        return std::nullopt;
    }

    std::string assignment(const std::string& name, std::string_view value, const SourceLine& l, std::size_t at)
    {
        registerNamedSymbols_ = registerNamedSymbols_ || isRegisterWord(name);
        if (value.starts_with("%")) {
            if (const auto r = parseRegister(value)) {
                symbols_.registers[name] = *r;
                symbols_.values.erase(name);
                return {};
            }
            note(l.line, columnAt(l, at), "CLRX register symbol " + name + " = " + std::string(value) + " is not understood",
                 Severity::Error);
            return {};
        }
        const std::string translated = operandText(value, l, at, true);
        // A register symbol assigned to another ("x2 = x1[4]" is written with '%' only).
        if (const auto v = valueOf(value, l, at)) {
            symbols_.values[name] = *v;
            symbols_.registers.erase(name);
            if (isRegisterWord(name) || isUnsafeName(name))
                return {}; // LLVM would read the name as a register: the value lives here only
            return name + " = " + std::to_string(*v);
        }
        symbols_.values.erase(name);
        if (isRegisterWord(name) || isUnsafeName(name)) {
            note(l.line, columnAt(l, at),
                 "symbol " + name
                     + " has a register's name and a value only known to the "
                       "assembler; gcnlens leaves it out",
                 Severity::Warning);
            return {};
        }
        return name + " = " + translated;
    }

    static bool isUnsafeName(std::string_view name)
    {
        // Names LLVM reads as something else, or that it cannot define.
        return name.empty() || isDigit(name[0]) || name == "." || name.find("::") != std::string_view::npos;
    }

    // --- operands and expressions

    // Rewrites one operand or expression: register symbols and ranges, @symbols, known symbol
    // values, lit(), float suffixes, CLRX-only operators.
    // The value of a CLRX expression when every symbol in it is known. Read in CLRX's own terms: its
    // operators (>>> a signed shift, // and %% unsigned) have no LLVM twin that means the same for
    // negative values, so they are not translated for this.
    std::optional<std::int64_t> valueOf(std::string_view text, const SourceLine& l, std::size_t at)
    {
        return Expr(operandText(text, l, at, true, true), symbols_).evaluate();
    }

    std::string operandText(std::string_view text, const SourceLine& l, std::size_t at, bool noAnchors = false,
                            bool keepClrxOperators = false)
    {
        if (operandDepth_ == 0)
            subrangeFailures_.clear();
        ++operandDepth_;
        struct Leave {
            int& depth;
            ~Leave() { --depth; }
        } leave {operandDepth_};
        return scanOperandText(text, l, at, noAnchors, keepClrxOperators);
    }

    std::string scanOperandText(std::string_view text, const SourceLine& l, std::size_t at, bool noAnchors,
                                bool keepClrxOperators)
    {
        std::string out;
        std::size_t i = 0;
        auto anchor = [&](std::size_t pos) {
            if (!noAnchors)
                anchors_.emplace_back(int(pending_ + out.size()), columnAt(l, at + pos));
        };
        while (i < text.size()) {
            const char c = text[i];
            if (c == '"') {
                const auto close = text.find('"', i + 1);
                const std::size_t e = close == std::string_view::npos ? text.size() : close + 1;
                out += text.substr(i, e - i);
                i = e;
                continue;
            }
            // Numbers, with CLRX's float suffixes (h, s, l) dropped: LLVM takes the operand's type.
            if (isDigit(c)
                || (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]) && (i == 0 || !isIdentChar(text[i - 1])))) {
                std::size_t e = i;
                if (c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
                    e = i + 2;
                    while (e < text.size() && isHexDigit(text[e]))
                        ++e;
                    // hex floats (0x1p3) are rare: leave them
                } else {
                    while (e < text.size() && (isDigit(text[e]) || text[e] == '.'))
                        ++e;
                    bool isFloat = text.substr(i, e - i).find('.') != std::string_view::npos;
                    if (e < text.size() && (text[e] == 'e' || text[e] == 'E')) {
                        std::size_t k = e + 1;
                        if (k < text.size() && (text[k] == '+' || text[k] == '-'))
                            ++k;
                        if (k < text.size() && isDigit(text[k])) {
                            e = k;
                            while (e < text.size() && isDigit(text[e]))
                                ++e;
                            isFloat = true;
                        }
                    }
                    if (e < text.size() && (text[e] == 'b' || text[e] == 'f') && !isFloat
                        && (e + 1 >= text.size() || !isIdentChar(text[e + 1]))) {
                        ++e; // local label reference: 1b, 2f
                    } else if (e < text.size()
                               && (text[e] == 'h' || text[e] == 's' || text[e] == 'l' || text[e] == 'H' || text[e] == 'S'
                                   || text[e] == 'L')
                               && (e + 1 >= text.size() || !isIdentChar(text[e + 1]))) {
                        anchor(i);
                        const double d = std::strtod(std::string(text.substr(i, e - i)).c_str(), nullptr);
                        const char suffix = toLowerAscii(text[e]);
                        // h, s: the value's half/single bit pattern, as clrxasm encodes it;
                        // l (double) stays a float for LLVM to place.
                        const bool negated = !out.empty() && out.back() == '-';
                        if (suffix == 'h' || suffix == 's') {
                            if (negated)
                                out.pop_back();
                            out += std::to_string(floatBits(negated ? -d : d, suffix == 'h'));
                        } else {
                            out += text.substr(i, e - i);
                            if (!isFloat)
                                out += ".0";
                        }
                        i = e + 1;
                        continue;
                    }
                }
                anchor(i);
                out += text.substr(i, e - i);
                i = e;
                continue;
            }
            if (c == '@' && i + 1 < text.size() && (isIdentStart(text[i + 1]) || isDigit(text[i + 1]))) {
                // A symbol, even when its name is a register's.
                std::size_t e = i + 1;
                while (e < text.size() && isIdentChar(text[e]))
                    ++e;
                const std::string name(text.substr(i + 1, e - i - 1));
                anchor(i);
                if (const auto it = symbols_.values.find(name); it != symbols_.values.end())
                    out += std::to_string(it->second);
                else if (const auto f = forward_.values.find(name); f != forward_.values.end())
                    out += literalContext_ ? forcedLiteral(f->second) : std::to_string(f->second);
                else if (isDigit(name[0]))
                    out += name; // @5: a number
                else
                    out += name;
                i = e;
                continue;
            }
            if (isIdentStart(c)) {
                std::size_t e = i;
                while (e < text.size() && (isIdentChar(text[e]) || (text[e] == ':' && e + 2 < text.size() && text[e + 1] == ':')))
                    e += text[e] == ':' ? 2 : 1;
                const std::string name(text.substr(i, e - i));
                const std::string lname = lower(name);
                std::size_t after = e;
                while (after < text.size() && isBlank(text[after]))
                    ++after;
                anchor(i);
                // lit(expr): a literal even where an inline constant would do.
                if (lname == "lit" && after < text.size() && text[after] == '(') {
                    const std::size_t close = matching(text, after);
                    const std::string inner = operandText(text.substr(after + 1, close - after - 1), l, at + after + 1, true);
                    out += literalOf(inner);
                    i = close + 1;
                    continue;
                }
                // Register symbols, with an optional [i] / [a:b] subrange. After '%' the
                // built-in names win ("%s[4:7]" even when a symbol is called s).
                const bool builtin = inPercent_
                    && (isRegisterWord(name)
                        || ((lname == "s" || lname == "v" || lname == "ttmp" || lname == "a") && after < text.size()
                            && text[after] == '['));
                if (const auto it = symbols_.registers.find(name); !builtin && it != symbols_.registers.end()) {
                    const RegSym& r = it->second;
                    int first = r.first, count = r.count;
                    std::size_t next = e;
                    if (after < text.size() && text[after] == '[') {
                        const std::size_t close = matching(text, after);
                        if (const auto sub = subrange(text.substr(after + 1, close - after - 1), l, at + after + 1)) {
                            first = r.first + sub->first;
                            count = sub->second;
                            next = close + 1;
                        }
                    }
                    out += registerText(r, first, count);
                    if (r.regvar && regvarNoted_.insert({l.line, name}).second)
                        note(l.line, columnAt(l, at + i),
                             "register variable " + name + " is " + registerText(r, first, count)
                                 + " here (gcnlens' allocation); clrxasm encodes register 0 for it (.regvar is unimplemented in "
                                   "CLRX)",
                             Severity::Warning);
                    i = next;
                    continue;
                }
                // s[…], v[…], ttmp[…], vcc[…], exec[…] … with expressions inside.
                if (after < text.size() && text[after] == '[') {
                    std::optional<RegSym> base;
                    if (lname == "s" || lname == "v" || lname == "ttmp" || lname == "a") {
                        RegSym r;
                        r.kind = lname;
                        base = r;
                    } else {
                        for (const auto& s : kSpecials)
                            if (lname == s.name) {
                                RegSym r;
                                r.kind = std::string(s.llvm);
                                r.count = s.count;
                                r.range = false;
                                base = r;
                            }
                    }
                    if (base) {
                        const std::size_t close = matching(text, after);
                        if (const auto sub = subrange(text.substr(after + 1, close - after - 1), l, at + after + 1)) {
                            out += registerText(*base, sub->first, sub->second);
                            i = close + 1;
                            continue;
                        }
                    }
                }
                if (lname == "hwreg" && after < text.size() && text[after] == '(') {
                    const std::size_t close = matching(text, after);
                    out += "hwreg(" + namedArguments(text.substr(after + 1, close - after - 1), l, at + after + 1, true) + ")";
                    i = close + 1;
                    continue;
                }
                if (lname == "sendmsg" && after < text.size() && text[after] == '(') {
                    const std::size_t close = matching(text, after);
                    const std::string args = namedArguments(text.substr(after + 1, close - after - 1), l, at + after + 1, false);
                    // All parts numeric: the SIMM16 itself (msg | op << 4 | stream << 8), which
                    // LLVM takes for any message, checked or not.
                    std::int64_t simm = 0;
                    bool numeric = true;
                    const auto parts = splitOperands(args, 0);
                    for (std::size_t k = 0; k < parts.size() && numeric; ++k) {
                        const auto v = Expr(parts[k].text, symbols_).evaluate();
                        numeric = v.has_value();
                        if (v) // fields masked as clrxasm does: msg 4 bits, op 3, stream 2
                            simm |= k == 0 ? (*v & 15) : k == 1 ? (*v & 7) << 4 : (*v & 3) << 8;
                    }
                    out += numeric && !parts.empty() ? std::to_string(simm) : "sendmsg(" + args + ")";
                    i = close + 1;
                    continue;
                }
                if ((lname == "abs" || lname == "neg" || lname == "sext") && after < text.size() && text[after] == '(') {
                    const std::size_t close = matching(text, after);
                    const std::string inner = operandText(text.substr(after + 1, close - after - 1), l, at + after + 1, true);
                    out += lname == "abs" ? "|" + inner + "|" : lname == "neg" ? "-" + inner : "sext(" + inner + ")";
                    i = close + 1;
                    continue;
                }
                // Known numeric symbols become their values (a register's name stays a register;
                // a name before '(' is a function: vmcnt(…), quad_perm …).
                const bool call = after < text.size() && text[after] == '(';
                if (!isRegisterWord(name) && !call) {
                    if (const auto it = symbols_.values.find(name); it != symbols_.values.end()) {
                        out += std::to_string(it->second);
                        i = e;
                        continue;
                    }
                    if (const auto f = forward_.values.find(name); f != forward_.values.end() && !symbols_.labels.count(name)) {
                        out += literalContext_ ? forcedLiteral(f->second) : std::to_string(f->second);
                        i = e;
                        continue;
                    }
                }
                out += specialRegister(lname, name);
                i = e;
                continue;
            }
            // CLRX-only operators.
            if (keepClrxOperators) {
                out += c;
                ++i;
                continue;
            }
            if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
                out += '/';
                i += 2;
                continue;
            }
            if (c == '%' && i + 1 < text.size() && text[i + 1] == '%') {
                out += '%';
                i += 2;
                continue;
            }
            if (c == '>' && text.substr(i, 3) == ">>>") {
                out += ">>";
                i += 3;
                continue;
            }
            if (c == '<' && i + 1 < text.size() && text[i + 1] == '>') {
                out += "!=";
                i += 2;
                continue;
            }
            if (c == '%' && i + 1 < text.size() && isIdentStart(text[i + 1])) {
                ++i;
                continue;
            } // %s[..] in an operand
            out += c;
            ++i;
        }
        return out;
    }

    static std::uint32_t floatBits(double d, bool half)
    {
        if (half) {
            const _Float16 h = static_cast<_Float16>(d);
            std::uint16_t bits = 0;
            std::memcpy(&bits, &h, 2);
            return bits;
        }
        const float f = float(d);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        return bits;
    }

    // CLRX names of special registers that LLVM spells differently.
    static std::string specialRegister(const std::string& lname, const std::string& name)
    {
        if (lname == "vccz" || lname == "execz" || lname == "scc")
            return "src_" + lname;
        if (lname == "lds" || lname == "lds_direct")
            return "src_lds_direct";
        return name;
    }

    static std::size_t matching(std::string_view text, std::size_t open)
    {
        int depth = 0;
        for (std::size_t i = open; i < text.size(); ++i) {
            if (text[i] == '(' || text[i] == '[')
                ++depth;
            else if (text[i] == ')' || text[i] == ']') {
                if (--depth == 0)
                    return i;
            }
        }
        return text.size() - (text.empty() ? 0 : 1);
    }

    std::optional<std::pair<int, int>> subrange(std::string_view inner, const SourceLine& l, std::size_t at)
    {
        const SubrangeKey key {inner.data(), inner.size(),    std::hash<std::string_view> {}(inner),
                               inPercent_,   literalContext_, smrdLiteral_};
        if (subrangeFailures_.contains(key))
            return std::nullopt;
        const auto range = evaluateSubrange(inner, l, at);
        if (!range)
            subrangeFailures_.insert(key);
        return range;
    }

    std::optional<std::pair<int, int>> evaluateSubrange(std::string_view inner, const SourceLine& l, std::size_t at)
    {
        const std::string t = operandText(inner, l, at, true);
        // split at a top-level ':' that is not part of '::'
        int depth = 0;
        std::size_t colon = std::string::npos;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (t[i] == '(')
                ++depth;
            else if (t[i] == ')')
                --depth;
            else if (t[i] == '?')
                ++depth; // the ':' of ?: is not the range's
            else if (t[i] == ':' && depth == 0) {
                colon = i;
                break;
            } else if (t[i] == ':' && depth > 0)
                --depth;
        }
        const auto a = Expr(std::string_view(t).substr(0, colon), symbols_).evaluate();
        if (!a)
            return std::nullopt;
        std::int64_t b = *a;
        if (colon != std::string::npos) {
            const auto bv = Expr(std::string_view(t).substr(colon + 1), symbols_).evaluate();
            if (!bv)
                return std::nullopt;
            b = *bv;
        }
        if (b < *a)
            return std::nullopt;
        return std::make_pair(int(*a), int(b - *a + 1));
    }

    // hwreg(name, offset, size) and sendmsg(msg, op, stream): CLRX's names → LLVM's.
    std::string namedArguments(std::string_view inner, const SourceLine& l, std::size_t at, bool hwreg)
    {
        const auto parts = splitOperands(inner, 0);
        std::string out;
        int msg = -1;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (i)
                out += ", ";
            const std::string& p = parts[i].text;
            if (p.starts_with("@")) {
                out += operandText(std::string_view(p).substr(1), l, at, true);
            } else if (!p.empty() && isIdentStart(p[0]) && (i == 0 || (!hwreg && i == 1)) && !symbols_.values.count(p)) {
                const int id = hwreg ? hwregId(p) : sendmsgId(p, int(i), msg);
                out += id >= 0 ? std::to_string(id) : hwreg ? hwregName(p) : sendmsgName(p, int(i));
                if (i == 0)
                    msg = id;
            } else {
                out += operandText(p, l, at, true);
            }
        }
        return out;
    }

    // A literal for lit(x): a symbol defined at the end, so LLVM cannot fold it into an inline
    // constant. (The literal's bytes stay LLVM's fixup placeholder; its size is right.)
    std::string literalOf(const std::string& innerText)
    {
        const std::string inner(trim(innerText));
        std::int64_t value = 0;
        if (const auto v = Expr(inner, symbols_).evaluate()) {
            value = *v;
        } else {
            char* end = nullptr;
            const double d = std::strtod(inner.c_str(), &end);
            if (end && *end == '\0' && !inner.empty()) {
                float f = float(d);
                std::uint32_t bits = 0;
                std::memcpy(&bits, &f, 4);
                value = bits;
            } else {
                return inner;
            }
        }
        return forcedLiteral(value);
    }

    std::string forcedLiteral(std::int64_t value)
    {
        // GCN 1.1 SMRD offsets: LLVM picks the literal form itself for a value wider than 8 bits.
        if (smrdLiteral_ && (value > 255 || value < 0))
            return std::to_string(value & 0xffffffff);
        const std::string name = ".Lgcnlens_lit" + std::to_string(lits_.size());
        lits_.emplace_back(name, value);
        return name;
    }

    // --- instructions

    std::string instruction(const std::string& mnemonicIn, std::string_view rest, const SourceLine& l, std::size_t restAt)
    {
        std::string mnemonic = mnemonicIn;
        pending_ = mnemonic.size() + 1;
        // clrxasm's "_e64" on a scalar instruction asks for a literal even for a small constant.
        bool forceLiteral = false;
        if (mnemonic.starts_with("s_") && mnemonic.ends_with("_e64")) {
            mnemonic.resize(mnemonic.size() - 4);
            forceLiteral = true;
        }
        literalContext_ = takesLiteral(mnemonic);
        smrdLiteral_ = arch_ == 1 && (mnemonic.starts_with("s_load_") || mnemonic.starts_with("s_buffer_load_"));
        if (mnemonic == "s_waitcnt")
            return "s_waitcnt " + waitcnt(rest, l, restAt);
        // Operands and the trailing modifiers.
        const bool noOperands = modifiersStart(rest, true) == 0;
        std::vector<Piece> ops = noOperands ? std::vector<Piece> {} : splitOperands(rest, 0);
        std::string modText;
        int modColumn = 0;
        if (noOperands) {
            modText = std::string(rest);
        } else if (!ops.empty()) {
            Piece& last = ops.back();
            const std::size_t m = modifiersStart(last.text, false);
            if (m < last.text.size()) {
                modText = last.text.substr(m);
                modColumn = last.column + int(m);
                last.text = std::string(trim(std::string_view(last.text).substr(0, m)));
            }
            if (ops.size() == 1 && ops[0].text.empty())
                ops.clear();
        }
        auto modifiers = splitModifiers(modText, modColumn);

        std::vector<std::string> operands;
        std::vector<std::vector<std::pair<int, int>>> operandAnchors;
        for (const auto& op : ops) {
            const auto saved = anchors_.size();
            pending_ = 0;
            operands.push_back(operandText(op.text, l, restAt + std::size_t(op.column)));
            std::vector<std::pair<int, int>> a(anchors_.begin() + std::ptrdiff_t(saved), anchors_.end());
            anchors_.resize(saved);
            operandAnchors.push_back(std::move(a));
        }

        literalContext_ = false;
        if (forceLiteral)
            for (auto& op : operands) {
                if (const auto v = Expr(op, symbols_).evaluate())
                    op = forcedLiteral(*v);
                else if (char* end = nullptr; !op.empty() && (std::strtod(op.c_str(), &end), end && *end == '\0'))
                    op = forcedLiteral(floatBits(std::strtod(op.c_str(), nullptr), false));
            }

        // Modifiers.
        std::vector<std::string> outMods;
        bool vop3 = false, sdwa = false, dpp = false;
        int absMask = 0, negMask = 0, sextMask = 0;
        std::optional<std::int64_t> dfmt, nfmt;
        auto value = [&](const Modifier& m) { return valueOf(m.value, l, restAt); };
        auto mask = [&](const Modifier& m) -> int {
            if (!m.hasValue)
                return 0;
            std::string_view v = trim(m.value);
            if (v.starts_with("[")) {
                int bits = 0;
                const auto parts = splitOperands(v.substr(1, v.size() - 2), 0);
                for (std::size_t i = 0; i < parts.size(); ++i)
                    if (const auto b = valueOf(parts[i].text, l, restAt); b && *b)
                        bits |= 1 << i;
                return bits;
            }
            const auto b = value(m);
            return b ? int(*b) : 0;
        };
        const bool vop3p = isVop3pMnemonic(mnemonic);
        for (auto& m : modifiers) {
            if (m.name == "dst_un") // clrxasm's short name
                m.name = "dst_unused";
            if (m.value.starts_with("@")) // "@expr": a parametrised value (GcnOperands.md)
                m.value.erase(0, 1);
            if (!m.hasValue && m.name.starts_with("wave_")) { // wave_shl = wave_shl:1
                m.hasValue = true;
                m.value = "1";
            }
            const std::string& name = m.name;
            if (name == "vop3") {
                vop3 = !m.hasValue || value(m).value_or(1) != 0;
            } else if (name == "sdwa") {
                sdwa = true;
            } else if (name == "dpp") {
                dpp = true;
            } else if ((name == "abs" || name == "neg" || name == "sext") && !vop3p) {
                const int bits = mask(m);
                (name == "abs" ? absMask : name == "neg" ? negMask : sextMask) |= bits;
            } else if (name == "mul" || name == "div") {
                outMods.push_back(name + ":" + operandText(m.value, l, restAt, true));
            } else if (name == "omod") {
                const auto v = value(m).value_or(0);
                if (v == 1)
                    outMods.push_back("mul:2");
                else if (v == 2)
                    outMods.push_back("mul:4");
                else if (v == 3)
                    outMods.push_back("div:2");
            } else if (name == "dst_sel" || name == "src0_sel" || name == "src1_sel") {
                sdwa = true;
                if (const auto s = sdwaSelect(m.value))
                    outMods.push_back(name + ":" + *s);
                else
                    outMods.push_back(name + ":" + m.value);
            } else if (name == "dst_unused") {
                sdwa = true;
                if (const auto s = sdwaUnused(m.value))
                    outMods.push_back(name + ":" + *s);
                else
                    outMods.push_back(name + ":" + m.value);
            } else if (name == "quad_perm" || name == "row_shl" || name == "row_shr" || name == "row_ror" || name == "wave_shl"
                       || name == "wave_rol" || name == "wave_shr" || name == "wave_ror" || name == "row_mirror"
                       || name == "row_half_mirror" || name == "row_bcast" || name == "row_bcast15" || name == "row_bcast31"
                       || name == "bank_mask" || name == "row_mask") {
                dpp = true;
                if (name == "row_bcast15" || name == "row_bcast31")
                    outMods.push_back("row_bcast:" + name.substr(9));
                else if (name == "quad_perm")
                    outMods.push_back(name + ":" + operandText(m.value, l, restAt, true));
                else if (m.hasValue && (name == "row_mirror" || name == "row_half_mirror")) {
                    if (value(m).value_or(1))
                        outMods.push_back(name);
                } else
                    outMods.push_back(m.hasValue ? name + ":" + operandText(m.value, l, restAt, true) : name);
            } else if (name == "bound_ctrl") {
                // bound_ctrl, bound_ctrl:0 / :1 (set), bound_ctrl:B:expr (set when expr is non-zero)
                dpp = true;
                const auto second = m.value.find(':');
                const bool set = second == std::string::npos
                    || valueOf(std::string_view(m.value).substr(second + 1), l, restAt).value_or(1) != 0;
                if (set)
                    outMods.push_back("bound_ctrl:0");
            } else if (name == "format") {
                // [dfmt, nfmt], either part optional, names or @expressions.
                std::string_view v = trim(m.value);
                if (v.starts_with("[") && v.ends_with("]"))
                    v = v.substr(1, v.size() - 2);
                const auto parts = splitOperands(v, 0);
                for (std::size_t i = 0; i < parts.size(); ++i) {
                    std::string p = lower(parts[i].text);
                    if (p.starts_with("@")) {
                        const auto e = valueOf(std::string_view(p).substr(1), l, restAt);
                        (i == 0 && parts.size() == 2 ? dfmt : (parts.size() == 1 ? dfmt : nfmt)) = e.value_or(0);
                        continue;
                    }
                    if (p.starts_with("buf_data_format_"))
                        p = p.substr(16);
                    if (p.starts_with("buf_num_format_"))
                        p = p.substr(15);
                    bool found = false;
                    for (std::size_t k = 0; k < std::size(kDataFormats); ++k)
                        if (p == kDataFormats[k]) {
                            dfmt = std::int64_t(k);
                            found = true;
                        }
                    if (!found)
                        for (std::size_t k = 0; k < std::size(kNumFormats); ++k)
                            if (p == kNumFormats[k]) {
                                nfmt = std::int64_t(k);
                                found = true;
                            }
                    if (!found)
                        note(l.line, columnAt(l, restAt + std::size_t(m.column)), "unknown MTBUF format " + parts[i].text,
                             Severity::Warning);
                }
            } else if (name == "dfmt" || name == "nfmt") {
                (name == "dfmt" ? dfmt : nfmt) = value(m).value_or(0);
            } else if (isBooleanModifier(name)) {
                if (!m.hasValue || value(m).value_or(1) != 0)
                    outMods.push_back(name);
            } else if (name == "offset" || name == "offset0" || name == "offset1" || name == "inst_offset") {
                outMods.push_back((name == "inst_offset" ? std::string("offset") : name) + ":"
                                  + operandText(m.value, l, restAt + std::size_t(m.column), true));
            } else if ((name == "op_sel" || name == "op_sel_hi" || name == "neg_lo" || name == "neg_hi") && m.hasValue
                       && !trim(m.value).starts_with("[")) {
                // A bit mask (clrxasm) → LLVM's array, one bit per source (and the destination for op_sel).
                const int bits = mask(m);
                const std::size_t sources = operands.size() > 1 ? operands.size() - 1 : 1;
                const std::size_t count = std::min<std::size_t>(name == "op_sel" && !vop3p ? sources + 1 : sources, 4);
                std::string array = "[";
                for (std::size_t b = 0; b < count; ++b)
                    array += std::string(b ? "," : "") + ((bits >> b) & 1 ? "1" : "0");
                outMods.push_back(name + ":" + array + "]");
            } else if (name == "dmask" || name == "op_sel" || name == "op_sel_hi" || name == "neg_lo" || name == "neg_hi"
                       || name == "abs" || name == "neg") {
                outMods.push_back(name + (m.hasValue ? ":" + operandText(m.value, l, restAt, true) : std::string()));
            } else {
                outMods.push_back(m.hasValue ? name + ":" + operandText(m.value, l, restAt, true) : name);
            }
        }
        if (dfmt || nfmt) {
            // LLVM (GFX6-9): format:[BUF_DATA_FORMAT_*,BUF_NUM_FORMAT_*] after soffset.
            outMods.insert(outMods.begin(),
                           "format:[BUF_DATA_FORMAT_" + upper(kDataFormats[std::size_t(dfmt.value_or(1) & 15)])
                               + ",BUF_NUM_FORMAT_" + upper(kNumFormats[std::size_t(nfmt.value_or(0) & 7)]) + "]");
            if (upper(kDataFormats[std::size_t(dfmt.value_or(1) & 15)]) == "RESERVED")
                outMods.front() = "format:" + std::to_string(dfmt.value_or(1) | (nfmt.value_or(0) << 4));
        }

        // sext(…) on an operand selects SDWA in both assemblers.
        if (!dpp && mnemonic.starts_with("v_") && std::any_of(operands.begin(), operands.end(), [](const std::string& o) {
                return o.find("sext(") != std::string::npos;
            }))
            sdwa = true;
        // clrxasm's defaults where LLVM's differ (GcnInstrsMimg.md, GcnSdwaDpp.md, GcnInstrsVop3p.md).
        auto hasMod = [&](std::string_view prefix) {
            return std::any_of(outMods.begin(), outMods.end(), [&](const std::string& m) { return m.starts_with(prefix); });
        };
        if (mnemonic.starts_with("image_") && !hasMod("dmask"))
            outMods.push_back("dmask:1");
        if ((sdwa || mnemonic.ends_with("_sdwa")) && !dpp && !hasMod("dst_unused") && !mnemonic.starts_with("v_cmp"))
            outMods.push_back("dst_unused:UNUSED_PAD");
        if ((mnemonic.starts_with("v_mad_mix") || mnemonic.starts_with("v_fma_mix")) && !hasMod("op_sel_hi"))
            outMods.push_back("op_sel_hi:[1,1,1]");
        // clamp or an output modifier on a VOP1/VOP2/VOPC instruction selects VOP3 in clrxasm.
        if (!sdwa && !dpp && (hasMod("clamp") || hasMod("mul:") || hasMod("div:")))
            vop3 = true;
        // LLVM wants some modifiers in its order: MUBUF/MTBUF format, idxen/offen/addr64, offset;
        // SDWA dst_sel, dst_unused, src0_sel, src1_sel; DPP control, row_mask, bank_mask, bound_ctrl.
        auto rank = [](const std::string& m) {
            if (m.starts_with("format") || m.starts_with("dmask"))
                return 0;
            if (m == "offen" || m == "idxen" || m == "addr64")
                return 1;
            if (m.starts_with("offset"))
                return 2;
            if (m.starts_with("dst_sel"))
                return 10;
            if (m.starts_with("dst_unused"))
                return 11;
            if (m.starts_with("src0_sel"))
                return 12;
            if (m.starts_with("src1_sel"))
                return 13;
            if (m.starts_with("row_mask"))
                return 21;
            if (m.starts_with("bank_mask"))
                return 22;
            if (m.starts_with("bound_ctrl"))
                return 23;
            if (m.starts_with("quad_perm") || m.starts_with("row_") || m.starts_with("wave_"))
                return 20;
            if (m.starts_with("mul:") || m.starts_with("div:"))
                return 4; // after clamp
            return 3;
        };
        // A modifier given twice: clrxasm keeps the last (mul:/div: share the omod field).
        {
            auto key = [](const std::string& m) {
                const std::string k = m.substr(0, m.find(':'));
                return k == "mul" || k == "div" ? std::string("omod") : k;
            };
            std::vector<std::string> unique;
            for (auto it = outMods.rbegin(); it != outMods.rend(); ++it)
                if (std::none_of(unique.begin(), unique.end(), [&](const std::string& u) { return key(u) == key(*it); }))
                    unique.insert(unique.begin(), *it);
            outMods.swap(unique);
        }
        std::stable_sort(outMods.begin(), outMods.end(),
                         [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });

        // Operand modifiers given as masks apply to the sources.
        if (absMask || negMask || sextMask) {
            if (!sdwa && !dpp)
                vop3 = true;
            const bool isInterp = mnemonic.starts_with("v_interp");
            const std::size_t firstSource = mnemonic.starts_with("v_cmp") || mnemonic.starts_with("v_cmpx")
                ? (operands.size() > 2 ? 1 : 0)
                : hasTwoDestinations(mnemonic) ? 2
                                               : 1;
            for (int bit = 0; bit < 3; ++bit) {
                std::size_t index = firstSource + std::size_t(bit);
                if (isInterp && bit == 1)
                    index = 1; // v_interp_p1_f32 vdst, vsrc, attr: "src1" is the VGPR
                else if (isInterp)
                    continue;
                if (index >= operands.size())
                    break;
                std::string& op = operands[index];
                if (sextMask & (1 << bit))
                    op = "sext(" + op + ")";
                if (absMask & (1 << bit))
                    op = "|" + op + "|";
                if (negMask & (1 << bit))
                    op = "-" + op;
            }
        }

        // Encoding suffixes: CLRX picks VOP3/SDWA/DPP from modifiers, LLVM from the mnemonic.
        const bool suffixed =
            mnemonic.ends_with("_e32") || mnemonic.ends_with("_e64") || mnemonic.ends_with("_sdwa") || mnemonic.ends_with("_dpp");
        if (!suffixed && mnemonic.starts_with("v_")) {
            if (dpp)
                mnemonic += "_dpp";
            else if (sdwa)
                mnemonic += "_sdwa";
            else if (vop3)
                mnemonic += "_e64";
        }
        mnemonic = alias(mnemonic, operands, std::find(outMods.begin(), outMods.end(), "glc") != outMods.end());
        // SOPK: clrxasm keeps the low 16 bits of a wider constant (with a warning).
        if ((mnemonic.starts_with("s_movk") || mnemonic.starts_with("s_cmovk") || mnemonic.starts_with("s_cmpk")
             || mnemonic.starts_with("s_addk") || mnemonic.starts_with("s_mulk"))
            && operands.size() == 2)
            if (const auto v = Expr(operands[1], symbols_).evaluate(); v && (*v > 0xffff || *v < -0x8000)) {
                note(l.line, columnAt(l, restAt), "the constant is wider than 16 bits: its low 16 bits are used, as in clrxasm",
                     Severity::Warning);
                operands[1] = std::to_string(*v & 0xffff);
            }
        // SMEM offsets wider than the field: clrxasm keeps the field's bits (GCN 1.2: 20 bits
        // unsigned, with a warning); GCN 1.4's 21-bit field LLVM reads as signed, so a value with
        // the top bit set is given as the negative number with the same bits.
        if ((mnemonic.starts_with("s_load_") || mnemonic.starts_with("s_buffer_load_") || mnemonic.starts_with("s_store_")
             || mnemonic.starts_with("s_buffer_store_"))
            && arch_ >= 2) {
            auto fit = [&](std::string& text) {
                const auto v = Expr(text, symbols_).evaluate();
                if (!v)
                    return;
                if (arch_ == 2 && (*v > 0xfffff || *v < 0)) {
                    note(l.line, columnAt(l, restAt), "the offset is wider than 20 bits: its low 20 bits are used, as in clrxasm",
                         Severity::Warning);
                    text = std::to_string(*v & 0xfffff);
                } else if (arch_ >= 4 && *v >= 0x100000 && *v <= 0x1fffff) {
                    text = std::to_string(*v - 0x200000);
                }
            };
            if (operands.size() == 3 && !isRegisterWord(trim(operands[2])) && !lower(operands[2]).starts_with("s["))
                fit(operands[2]);
            for (auto& m : outMods)
                if (m.starts_with("offset:")) {
                    std::string value = m.substr(7);
                    fit(value);
                    m = "offset:" + value;
                }
        }
        // v_interp attributes: "aTTR26 . W" → attr26.w
        if (mnemonic.starts_with("v_interp"))
            for (auto& op : operands)
                if (lower(op).starts_with("attr")) {
                    std::string t;
                    for (const char c : op)
                        if (!isBlank(c))
                            t.push_back(toLowerAscii(c));
                    op = t;
                }
        // MIMG r128 with a 4-SGPR resource: LLVM's MIMG resource operand is always 8 SGPRs (only
        // the first is encoded), so the range is widened; the encoding is the same.
        if (mnemonic.starts_with("image_") && hasMod("r128") && operands.size() >= 3)
            if (std::string& r = operands[2]; lower(r).starts_with("s[")) {
                const auto colon = r.find(':'), close = r.find(']');
                std::size_t used = 0;
                const auto first = parseNumber(std::string_view(r).substr(2, colon - 2), &used);
                const auto last = colon == std::string::npos || close == std::string::npos || close < colon
                    ? std::nullopt
                    : parseNumber(std::string_view(r).substr(colon + 1, close - colon - 1), &used);
                if (first && last && *last - *first == 3)
                    r = "s[" + std::to_string(*first) + ":" + std::to_string(*first + 7) + "]";
            }
        // MUBUF/MTBUF without offen/idxen/addr64: clrxasm ignores the VGPR address, LLVM wants "off".
        if ((mnemonic.starts_with("buffer_") || mnemonic.starts_with("tbuffer_")) && operands.size() >= 3 && !hasMod("offen")
            && !hasMod("idxen") && !hasMod("addr64"))
            operands[1] = "off";
        // MUBUF loads to LDS: the data goes to LDS, VDATA is unused (clrxasm encodes the register
        // given, LLVM's LDS form has no such operand).
        if (mnemonic.starts_with("buffer_load") && operands.size() == 4 && hasMod("lds"))
            operands.erase(operands.begin());

        // A branch to label±N (clrxasm: N bytes from the label): LLVM takes a label or a constant
        // there, so the target becomes a symbol assigned the expression at the end of the text,
        // which gcnlens resolves as the label and a byte addend (resolveBranches).
        if (const std::size_t target = branchTargetOperand(mnemonic);
            target < operands.size() && needsBranchSymbol(operands[target])) {
            const std::string name = ".Lgcnlens_br" + std::to_string(branchTargets_.size());
            branchTargets_.emplace_back(name, operands[target]);
            operands[target] = name;
            operandAnchors[target].resize(std::min<std::size_t>(operandAnchors[target].size(), 1));
        }

        std::string out = mnemonic;
        int shift = int(out.size()) + 1;
        anchors_.emplace_back(int(0), columnAt(l, restAt) - int(mnemonicIn.size()) - 1);
        for (std::size_t i = 0; i < operands.size(); ++i) {
            out += i ? ", " : " ";
            const int base = int(out.size());
            for (const auto& [o, s] : operandAnchors[i])
                anchors_.emplace_back(base + o, s);
            out += operands[i];
        }
        (void)shift;
        for (const auto& m : outMods)
            out += " " + m;
        return out;
    }

    // The operand that is a branch target (SOPP branches; the SOPK forms s_cbranch_i_fork and
    // s_call_b64 take it second), or npos.
    static std::size_t branchTargetOperand(std::string_view mnemonic)
    {
        if (mnemonic == "s_cbranch_i_fork" || mnemonic == "s_call_b64")
            return 1;
        if (mnemonic == "s_branch"
            || (mnemonic.starts_with("s_cbranch_") && mnemonic != "s_cbranch_join" && mnemonic != "s_cbranch_g_fork"))
            return 0;
        return std::string::npos;
    }

    // A target LLVM does not take as it is but takes as a symbol assigned at the end of the text:
    // not a bare label or a constant, and nothing whose value depends on where it is written
    // ('.', local labels 1f/1b, macro arguments).
    bool needsBranchSymbol(std::string_view op) const
    {
        op = trim(op);
        if (op.empty() || op.find('\\') != std::string_view::npos || Expr(op, symbols_).evaluate())
            return false;
        std::size_t n = 0;
        while (n < op.size() && isIdentChar(op[n]))
            ++n;
        if (n == op.size() && isIdentStart(op[0]))
            return false; // a label
        for (std::size_t i = 0; i < op.size();) {
            if (!isIdentChar(op[i])) {
                ++i;
                continue;
            }
            std::size_t e = i;
            while (e < op.size() && isIdentChar(op[e]))
                ++e;
            const std::string_view word = op.substr(i, e - i);
            if (word == "." || (isDigit(word[0]) && (word.back() == 'f' || word.back() == 'b')))
                return false;
            i = e;
        }
        return true;
    }

    // Instructions whose sources may be a 32-bit literal (VOP*, SOP1/SOP2/SOPC); others take their
    // constants as immediate fields (SOPK, SOPP, memory offsets).
    static bool takesLiteral(const std::string& m)
    {
        if (m.starts_with("v_"))
            return true;
        if (!m.starts_with("s_"))
            return false;
        static constexpr std::string_view kImmediate[] = {
            "s_movk",   "s_cmovk",   "s_cmpk",         "s_addk",         "s_mulk",        "s_getreg",         "s_setreg",
            "s_nop",    "s_waitcnt", "s_branch",       "s_cbranch",      "s_sendmsg",     "s_sleep",          "s_setprio",
            "s_trap",   "s_sethalt", "s_incperflevel", "s_decperflevel", "s_ttracedata",  "s_set_gpr_idx_on", "s_load",
            "s_buffer", "s_store",   "s_call",         "s_version",      "s_denorm_mode", "s_round_mode",     "s_endpgm",
            "s_dcache", "s_icache",  "s_atc",          "s_scratch",      "s_memtime",     "s_memrealtime",    "s_atomic",
            "s_barrier"};
        for (const auto p : kImmediate)
            if (m.starts_with(p))
                return false;
        return true;
    }

    // s_waitcnt: vmcnt(N) & expcnt(N) & lgkmcnt(N) in any case, values masked to the field as
    // clrxasm does (vmcnt 4 bits, 6 on GCN 1.4; expcnt 3; lgkmcnt 4).
    std::string waitcnt(std::string_view rest, const SourceLine& l, std::size_t at)
    {
        std::string out;
        std::size_t i = 0;
        bool any = false;
        while (i < rest.size()) {
            while (i < rest.size() && (isBlank(rest[i]) || rest[i] == '&' || rest[i] == ','))
                ++i;
            std::size_t e = i;
            while (e < rest.size() && isIdentChar(rest[e]))
                ++e;
            std::size_t open = e;
            while (open < rest.size() && isBlank(rest[open]))
                ++open;
            const std::string name = lower(rest.substr(i, e - i));
            if (e == i || open >= rest.size() || rest[open] != '('
                || (name != "vmcnt" && name != "expcnt" && name != "lgkmcnt")) {
                literalContext_ = false;
                return any ? out + " " + operandText(rest.substr(i), l, at + i, true) : operandText(rest, l, at, true);
            }
            const std::size_t close = matching(rest, open);
            const std::string inner = operandText(rest.substr(open + 1, close - open - 1), l, at + open + 1, true);
            std::string value = inner;
            if (const auto v = Expr(inner, symbols_).evaluate()) {
                const std::int64_t mask = name == "vmcnt" ? (arch_ >= 4 ? 63 : 15) : name == "expcnt" ? 7 : 15;
                value = std::to_string(*v & mask);
            }
            out += (any ? " " : "") + name + "(" + value + ")";
            any = true;
            i = close + 1;
        }
        return out;
    }

    // CLRX mnemonics LLVM spells differently.
    std::string alias(const std::string& mnemonicIn, std::vector<std::string>& operands, bool glc)
    {
        std::string m = mnemonicIn;
        std::string suffix;
        for (std::string_view s : {"_e32", "_e64", "_sdwa", "_dpp"})
            if (m.ends_with(s)) {
                suffix = std::string(s);
                m.resize(m.size() - s.size());
            }
        auto replaceInfix = [&](std::string_view from, std::string_view to) {
            const auto at = m.find(from);
            if (at != std::string::npos)
                m.replace(at, from.size(), to);
        };
        if (m.starts_with("v_cmp")) {
            // CLRX: v_cmp_t_f32 (LLVM v_cmp_tru_f32), v_cmp_lg_i32 (v_cmp_ne_i32), v_cmp_tru_i32 (v_cmp_t_i32).
            const bool isFloat =
                m.find("_f16") != std::string::npos || m.find("_f32") != std::string::npos || m.find("_f64") != std::string::npos;
            if (isFloat)
                replaceInfix("_t_f", "_tru_f");
            else {
                replaceInfix("_lg_", "_ne_");
                replaceInfix("_tru_", "_t_");
            }
        }
        // GCN 1.0/1.1: clrxasm takes the GCN 1.2 names for the carry-out adds.
        if (arch_ <= 1) {
            if (m == "v_add_u32")
                m = "v_add_i32";
            else if (m == "v_sub_u32")
                m = "v_sub_i32";
            else if (m == "v_subrev_u32")
                m = "v_subrev_i32";
        }
        // GCN 1.2: clrxasm still takes the GCN 1.0 names of the carry-out adds.
        if (arch_ == 2) {
            if (m == "v_add_i32")
                m = "v_add_u32";
            else if (m == "v_sub_i32")
                m = "v_sub_u32";
            else if (m == "v_subrev_i32")
                m = "v_subrev_u32";
        }
        // GFX906 replaced v_mad_mix* by v_fma_mix* at the same opcodes; clrxasm keeps the old names.
        if (processor_ == "gfx906" && m.starts_with("v_mad_mix"))
            m.replace(0, 9, "v_fma_mix");
        // v_cmp(x)_class_f64: the class mask is 32 bits; clrxasm takes a pair and encodes its first register.
        if ((m == "v_cmp_class_f64" || m == "v_cmpx_class_f64") && operands.size() == 3)
            if (std::string& mask = operands[2];
                mask.size() > 3 && mask[0] == 'v' && mask[1] == '[' && mask.find(':') != std::string::npos)
                mask = "v" + mask.substr(2, mask.find(':') - 2);
        // FLAT/GLOBAL atomics without glc return nothing: LLVM's form has no destination.
        if ((m.starts_with("flat_atomic_") || m.starts_with("global_atomic_")) && !glc && operands.size() >= 3)
            operands.erase(operands.begin());
        return m + suffix;
    }

    // --- pseudo-ops

    std::string translateDirectiveText(const std::string& word, std::string_view arg, int line, int)
    {
        return word + (arg.empty() ? "" : " " + operandText(arg, lines_[std::size_t(line - 1)], 0, true));
    }

    std::string directive(const std::string& word, std::string_view arg, const SourceLine& l, std::size_t at, std::size_t argAt)
    {
        const int column = columnAt(l, at);
        auto record = [&](const std::string& name, std::int64_t value) {
            ResourceDirective d;
            d.name = name;
            d.value = value;
            d.line = l.line;
            d.kernel = int(result_.kernels.size()) - 1;
            result_.directives.push_back(d);
        };
        auto argValue = [&]() { return valueOf(arg, l, argAt); };
        const std::string a = lower(trim(arg));
        // Binary formats, bitness, targets.
        if (word == ".amd" || word == ".amdcl2" || word == ".rocm" || word == ".gallium" || word == ".rawcode") {
            parseClrxFormat(word.substr(1), format_);
            return {};
        }
        if (word == ".format") {
            parseClrxFormat(a, format_);
            return {};
        }
        if (word == ".64bit" || word == ".32bit") {
            is64_ = word == ".64bit";
            return {};
        }
        if (word == ".gpu" || word == ".arch") {
            const std::string p = clrxProcessor(a);
            if (p.empty()) {
                note(l.line, column, "unknown CLRX " + word.substr(1) + " " + std::string(trim(arg)), Severity::Warning);
            } else if (options_.sourceGpuWins) {
                sourceProcessor_ = p;
                processor_ = p;
                arch_ = archOf(p);
            }
            return {};
        }
        if (word == ".kernel") {
            const std::string name(trim(arg));
            result_.kernels.push_back(name);
            currentKernel_ = name;
            kernelLabelSeen_ = false;
            inConfig_ = false;
            // The kernel's entry: programbuild starts a kernel at a label typed @function.
            return isUnsafeName(name) || isRegisterWord(name) ? std::string() : ".type " + name + ",@function";
        }
        if (word == ".config") {
            inConfig_ = true;
            return {};
        }
        if (word == ".text") {
            inConfig_ = false;
            // In the AMD Catalyst and Gallium formats a kernel's code starts at its .text (AMD)
            // or its own label; put the kernel's label at the first .text after .kernel.
            if (!currentKernel_.empty() && !kernelLabelSeen_ && format_ == ClrxFormat::Amd) {
                kernelLabelSeen_ = true;
                if (!symbols_.labels.count(currentKernel_) && !labelLater(currentKernel_)) {
                    symbols_.labels.insert(currentKernel_);
                    return ".text\n" + currentKernel_ + ":";
                }
            }
            return ".text";
        }
        // .config fields: the declared resources (occupancy reads them beside the used registers).
        if (word == ".vgprsnum" || word == ".sgprsnum" || word == ".localsize" || word == ".scratchbuffer") {
            if (const auto v = argValue())
                record(word, *v);
            return {};
        }
        if (word == ".dims") {
            record(word, std::int64_t(a.size()));
            return {};
        }
        if (word == ".cws" || word == ".reqd_work_group_size") {
            const auto parts = splitOperands(arg, 0);
            std::int64_t product = 1;
            bool any = false;
            for (const auto& p : parts)
                if (const auto v = valueOf(p.text, l, argAt); v && *v > 0) {
                    product *= *v;
                    any = true;
                }
            if (any)
                record(".cws", product);
            return {};
        }
        // Symbols and scopes.
        if (word == ".set" || word == ".equ" || word == ".equiv" || word == ".eqv") {
            const auto parts = splitOperands(arg, 0);
            if (parts.size() == 2) {
                const std::string out = assignment(parts[0].text, parts[1].text, l, argAt + std::size_t(parts[1].column));
                return out;
            }
            return {};
        }
        if (word == ".scope" || word == ".ends" || word == ".endscope" || word == ".using" || word == ".unusing") {
            if (word == ".scope")
                note(l.line, column, "CLRX scopes: gcnlens reads symbols in one global scope");
            return {};
        }
        if (word == ".regvar" || word == ".rvlin" || word == ".usereg" || word == ".cf_start" || word.starts_with(".cf_")) {
            if (word == ".regvar")
                regvar(arg, l, argAt);
            return {};
        }
        if (word.starts_with(".get_")) {
            // .get_arch SYM, .get_gpu SYM, .get_format SYM, .get_64bit SYM, .get_version SYM …
            const std::string name(trim(arg));
            std::int64_t v = 0;
            if (word == ".get_arch")
                v = arch_ == 5 ? 3 : arch_ == 4 ? 3 : arch_;
            else if (word == ".get_64bit")
                v = is64_ ? 1 : 0;
            else if (word == ".get_format")
                v = std::int64_t(format_);
            else if (word == ".get_version")
                v = 801;
            else if (word == ".get_llvm_version")
                v = options_.llvmVersion;
            else if (word == ".get_driver_version")
                v = options_.driverVersion;
            else if (word == ".get_policy")
                v = 801;
            symbols_.values[name] = v;
            return isRegisterWord(name) ? std::string() : name + " = " + std::to_string(v);
        }
        if (word == ".macro") {
            const auto parts = splitOperands(arg, 0);
            const std::string name(trim(std::string_view(arg).substr(0, arg.find_first_of(" \t,"))));
            macros_[lower(name)] = name; // clrxasm's macro names ignore case; LLVM's do not
            plainMnemonics_.clear();
            return ".macro " + std::string(arg);
        }
        if (word == ".for" || word == ".while") {
            note(l.line, column, "CLRX " + word + " loops are not expanded by gcnlens yet", Severity::Warning);
            return {};
        }
        if (word == ".endfor" || word == ".endwhile") {
            return {};
        }
        if (std::find(std::begin(kBlankDirectives), std::end(kBlankDirectives), word) != std::end(kBlankDirectives)
            || inConfig_) {
            return {};
        }
        if (word == ".byte" || word == ".short" || word == ".word" || word == ".int" || word == ".long" || word == ".quad"
            || word == ".hword" || word == ".half" || word == ".float" || word == ".double" || word == ".skip" || word == ".space"
            || word == ".fill" || word == ".align" || word == ".balign" || word == ".p2align" || word == ".rept" || word == ".irp"
            || word == ".irpc" || word == ".endr" || word == ".endm" || word == ".exitm" || word == ".include"
            || word == ".incbin" || word == ".section" || word == ".data" || word == ".globl" || word == ".global"
            || word == ".local" || word == ".weak" || word == ".error" || word == ".warning" || word == ".print"
            || word == ".ascii" || word == ".asciz" || word == ".string" || word == ".org" || word == ".end" || word == ".purgem"
            || word == ".altmacro" || word == ".noaltmacro" || word == ".err" || word == ".type" || word == ".size") {
            if (word == ".int" || word == ".word")
                return ".long " + operandText(arg, l, argAt, true);
            if (word == ".hword" || word == ".half")
                return ".short " + operandText(arg, l, argAt, true);
            if (word == ".align" || word == ".balign") // CLRX .align takes bytes (ClrxAsmPseudoOps.md)
                return ".balign " + operandText(arg, l, argAt, true);
            if (word == ".rept" || word == ".include" || word == ".incbin" || word == ".irp" || word == ".irpc"
                || word == ".section" || word == ".globl" || word == ".global" || word == ".local" || word == ".weak"
                || word == ".error" || word == ".warning" || word == ".print" || word == ".ascii" || word == ".asciz"
                || word == ".string" || word == ".purgem" || word == ".type" || word == ".size")
                return word + (arg.empty() ? "" : " " + std::string(arg));
            return word + (arg.empty() ? "" : " " + operandText(arg, l, argAt, true));
        }
        note(l.line, column, "CLRX pseudo-op " + word + " is not read by gcnlens; left out of the assembly");
        return {};
    }

    // Directives of the binary formats' metadata (ClrxAsmAmd.md, ClrxAsmAmdCl2.md, ClrxAsmRocm.md,
    // ClrxAsmGallium.md): they describe the binary around the code, not the code.
    static constexpr std::string_view kBlankDirectives[] = {".userdata",
                                                            ".pgmrsrc1",
                                                            ".pgmrsrc2",
                                                            ".floatmode",
                                                            ".ieeemode",
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
                                                            ".end_config",
                                                            ".rodata",
                                                            ".compile_options",
                                                            ".aclversion",
                                                            ".header",
                                                            ".metadata",
                                                            ".cbid",
                                                            ".cbmask",
                                                            ".condout",
                                                            ".constantbuffers",
                                                            ".earlyexit",
                                                            ".entry",
                                                            ".globalbuffers",
                                                            ".inputs",
                                                            ".inputsamplers",
                                                            ".isametadata",
                                                            ".outputs",
                                                            ".persistentbuffers",
                                                            ".printfid",
                                                            ".privateid",
                                                            ".proginfo",
                                                            ".sampler",
                                                            ".scratchbuffers",
                                                            ".segment",
                                                            ".subconstantbuffers",
                                                            ".uav",
                                                            ".uavmailboxsize",
                                                            ".uavopmask",
                                                            ".calnote",
                                                            ".kernel_code_entry_offset",
                                                            ".kernel_code_prefetch_offset",
                                                            ".kernel_code_prefetch_size",
                                                            ".max_scratch_backing_memory",
                                                            ".workitem_private_segment_size",
                                                            ".workgroup_group_segment_size",
                                                            ".gds_segment_size",
                                                            ".kernarg_segment_size",
                                                            ".workgroup_fbarrier_count",
                                                            ".wavefront_sgpr_count",
                                                            ".workitem_vgpr_count",
                                                            ".reserved_vgpr_first",
                                                            ".reserved_vgpr_count",
                                                            ".reserved_sgpr_first",
                                                            ".reserved_sgpr_count",
                                                            ".debug_wavefront_private_segment_offset_sgpr",
                                                            ".debug_private_segment_buffer_sgpr",
                                                            ".kernarg_segment_align",
                                                            ".group_segment_align",
                                                            ".private_segment_align",
                                                            ".wavefront_size",
                                                            ".call_convention",
                                                            ".runtime_loader_kernel_symbol",
                                                            ".use_private_segment_buffer",
                                                            ".use_dispatch_ptr",
                                                            ".use_queue_ptr",
                                                            ".use_kernarg_segment_ptr",
                                                            ".use_dispatch_id",
                                                            ".use_flat_scratch_init",
                                                            ".use_private_segment_size",
                                                            ".use_grid_workgroup_count",
                                                            ".use_ordered_append_gds",
                                                            ".private_elem_size",
                                                            ".use_ptr64",
                                                            ".use_dynamic_call_stack",
                                                            ".use_debug_enabled",
                                                            ".use_xnack_enabled",
                                                            ".localsize",
                                                            ".gdssize",
                                                            ".vectypehint",
                                                            ".work_group_size_hint",
                                                            ".fixed_work_group_size",
                                                            ".max_flat_work_group_size",
                                                            ".spilled_sgprs",
                                                            ".spilled_vgprs",
                                                            ".runtime_handle",
                                                            ".kernarg_segment_align",
                                                            ".setupargs",
                                                            ".setup",
                                                            ".stub",
                                                            ".hsaconfig",
                                                            ".exceptions",
                                                            ".tgsize",
                                                            ".pgmrsrc1",
                                                            ".pgmrsrc2",
                                                            ".bssdata",
                                                            ".globaldata",
                                                            ".sampler_init",
                                                            ".samplerreloc",
                                                            ".hsa_code_object_version",
                                                            ".hsa_code_object_isa",
                                                            ".target",
                                                            ".tripple",
                                                            ".newbinfmt",
                                                            ".nosectdiffs",
                                                            ".eflags",
                                                            ".ifdefault",
                                                            ".policy",
                                                            ".kcodesel"};

    bool labelLater(const std::string& name) const
    {
        // A label with the kernel's name further on (ROCm/AMDCL2 style code)?
        const std::string needle = name + ":";
        return source_.find(needle) != std::string_view::npos;
    }

    // .regvar name:kind[:count], …: clrxasm allocates registers for these; gcnlens gives each a
    // fresh range above the registers the code names and says so.
    void regvar(std::string_view arg, const SourceLine& l, std::size_t at)
    {
        for (const auto& p : splitOperands(arg, 0)) {
            std::string_view t = p.text;
            const auto c1 = t.find(':');
            if (c1 == std::string_view::npos)
                continue;
            const std::string name(trim(t.substr(0, c1)));
            std::string_view rest = t.substr(c1 + 1);
            const auto c2 = rest.find(':');
            const std::string kind = lower(trim(rest.substr(0, c2)));
            int count = 1;
            if (c2 != std::string_view::npos)
                if (const auto v = Expr(trim(rest.substr(c2 + 1)), symbols_).evaluate())
                    count = int(*v);
            RegSym r;
            r.kind = kind == "v" || kind == "vgpr" ? "v" : "s";
            int& next = r.kind == "v" ? nextRegvarV_ : nextRegvarS_;
            if (r.kind == "s" && count > 1)
                next = (next + std::min(count, 4) - 1) / std::min(count, 4) * std::min(count, 4); // SGPR ranges align
            r.first = next;
            r.count = count;
            r.regvar = true;
            next += count;
            symbols_.registers[name] = r;
            // clrxasm does not allocate register variables: CLRX documents .regvar as unimplemented and
            // its allocator (amdasm/AsmRegAlloc.cpp) is never run, so every one is encoded as register 0
            // (a VGPR variable in a VOP source field even reads as s0). Matching that would merge every
            // variable into one register; gcnlens gives each its own range instead, and says so on
            // this line and on every line that uses one. Sizes and offsets are the same either way.
            note(l.line, columnAt(l, at + std::size_t(p.column)),
                 "register variable " + name + " gets " + registerText(r, r.first, r.count)
                     + " from gcnlens' own allocation (above the registers the code names); clrxasm allocates none "
                       "(.regvar is unimplemented in CLRX: it encodes register 0), so its words differ in these register fields",
                 Severity::Warning);
        }
    }

    std::string_view source_;
    ClrxOptions options_;
    std::vector<SourceLine> lines_;
    ClrxTranslation result_;
    Symbols symbols_;
    Symbols forward_;
    std::unordered_set<std::string> multiple_;
    std::set<std::pair<int, std::string>> regvarNoted_; // (line, name): the use already has its note
    NameMap<std::string> macros_;                       // lower-case name → as defined
    // isPlain's verdict per mnemonic: 0 not plain, 1 plain, 2 plain unless its operands have a
    // '-' (a branch: label-N needs a symbol). Cleared by .macro.
    mutable NameMap<std::uint8_t> plainMnemonics_;
    std::deque<std::string> includedTexts_; // .include'd files (lines_ views into them)
    Spans spans_;                           // processLine's statements (reused)
    static constexpr std::size_t kMaxLoopLines = 1000000;
    std::size_t loopLines_ = 0; // lines written by .for/.while passes so far
    std::vector<std::pair<std::string, std::int64_t>> lits_;
    std::vector<std::pair<std::string, std::string>> branchTargets_; // .Lgcnlens_brN = label±N
    bool smrdLiteral_ = false;                                       // the statement is a GCN 1.1 SMRD load (forcedLiteral)
    std::vector<std::pair<int, int>> anchors_;
    std::size_t pending_ = 0;
    bool inPercent_ = false; // reading a register after '%'
    // The subranges found unreadable during one outermost operandText() (the symbols cannot
    // change within it), by the text inside the brackets (where it is, its length and hash) and
    // what else operandText() reads. A failed subrange leaves its brackets to the enclosing scan,
    // which meets every '[' inside again: without this, each unmatched or unresolvable "v[" on a
    // line doubled the work (fuzz_frontend 0d7d7313: a 1 KB line took 18 s; issue #12's bounded
    // work). A subrange that reads consumes its brackets and is not met again by the same scan,
    // so only failures are kept: the common path allocates nothing.
    using SubrangeKey = std::tuple<const char*, std::size_t, std::size_t, bool, bool, bool>;
    std::set<SubrangeKey> subrangeFailures_;
    int operandDepth_ = 0;              // operandText() calls under way
    bool registerNamedSymbols_ = false; // some symbol is called like a register (s0 = 5): isPlain looks up v1, s2 …
    bool literalContext_ = false;       // operands of an instruction that takes a 32-bit literal
    std::string processor_, sourceProcessor_;
    int arch_ = 0;
    ClrxFormat format_ = ClrxFormat::Amd;
    bool is64_ = false;
    std::string currentKernel_;
    bool kernelLabelSeen_ = false;
    bool inConfig_ = false;
    int lastLine_ = 0;
    int nextRegvarV_ = 0, nextRegvarS_ = 0; // above every register the code names (prescanSymbols)
};

} // namespace

std::string_view clrxFormatName(ClrxFormat format)
{
    switch (format) {
    case ClrxFormat::Amd:
        return "amd";
    case ClrxFormat::AmdCl2:
        return "amdcl2";
    case ClrxFormat::Rocm:
        return "rocm";
    case ClrxFormat::Gallium:
        return "gallium";
    case ClrxFormat::RawCode:
        return "rawcode";
    }
    return "amd";
}

bool parseClrxFormat(std::string_view name, ClrxFormat& format)
{
    const std::string n = lower(trim(name));
    if (n == "amd" || n == "catalyst")
        format = ClrxFormat::Amd;
    else if (n == "amdcl2")
        format = ClrxFormat::AmdCl2;
    else if (n == "rocm")
        format = ClrxFormat::Rocm;
    else if (n == "gallium")
        format = ClrxFormat::Gallium;
    else if (n == "rawcode" || n == "raw")
        format = ClrxFormat::RawCode;
    else
        return false;
    return true;
}

std::string clrxProcessor(std::string_view name)
{
    const std::string n = lower(trim(name));
    for (const auto& g : kGpus)
        if (n == g.clrx)
            return std::string(g.llvm);
    return {};
}

bool looksLikeClrx(std::string_view text)
{
    // Count evidence over the first lines; one CLRX-only pseudo-op is enough, comments and
    // register symbols need company (a '#' also starts C-preprocessed LLVM sources).
    // Whole pseudo-op names (a macro may well be called .get_wei or .config_x).
    static constexpr std::string_view kStrong[] = {".kernel",
                                                   ".config",
                                                   ".gpu",
                                                   ".arch",
                                                   ".amdcl2",
                                                   ".rocm",
                                                   ".gallium",
                                                   ".rawcode",
                                                   ".iffmt",
                                                   ".ifnfmt",
                                                   ".elseiffmt",
                                                   ".ifarch",
                                                   ".ifnarch",
                                                   ".elseifarch",
                                                   ".if64",
                                                   ".if32",
                                                   ".regvar",
                                                   ".rvlin",
                                                   ".usereg",
                                                   ".cf_call",
                                                   ".cf_jump",
                                                   ".cf_ret",
                                                   ".cf_cjump",
                                                   ".cf_start",
                                                   ".cf_end",
                                                   ".get_64bit",
                                                   ".get_arch",
                                                   ".get_format",
                                                   ".get_gpu",
                                                   ".get_version",
                                                   ".get_policy",
                                                   ".get_driver_version",
                                                   ".get_llvm_version",
                                                   ".vgprsnum",
                                                   ".sgprsnum",
                                                   ".dims",
                                                   ".scope",
                                                   ".ends",
                                                   ".for",
                                                   ".while",
                                                   ".amd",
                                                   ".64bit",
                                                   ".32bit",
                                                   ".endfor",
                                                   ".endwhile",
                                                   ".using"};
    static constexpr std::string_view kLlvm[] = {".amdhsa_",       ".amdgpu_",       ".amd_kernel_code_t",
                                                 "amdhsa.kernels", ".amdgcn_target", ".hsa_code_object"};
    int hash = 0, percent = 0, strong = 0, llvm = 0, semicolonComments = 0;
    std::size_t start = 0;
    int lines = 0;
    while (start < text.size() && lines < 4000) {
        auto end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = trim(text.substr(start, end - start));
        start = end + 1;
        ++lines;
        if (line.empty())
            continue;
        if (line.front() == '#') {
            // C preprocessor lines and cpp's line markers (# 12 "file") are not CLRX evidence.
            const std::string_view rest = trim(line.substr(1));
            if (!(rest.starts_with("include") || rest.starts_with("define") || rest.starts_with("if") || rest.starts_with("endif")
                  || rest.starts_with("else") || rest.starts_with("undef") || rest.starts_with("pragma")
                  || rest.starts_with("line") || (!rest.empty() && isDigit(rest[0]))))
                ++hash;
            continue;
        }
        if (line.starts_with(";") || line.starts_with("//"))
            ++semicolonComments;
        std::string low = lower(line.substr(0, std::min<std::size_t>(line.size(), 48)));
        low.push_back('\n');
        for (const auto s : kLlvm)
            if (low.find(s) != std::string::npos)
                ++llvm;
        // a label may precede the statement
        std::string_view code = low;
        if (const auto colon = code.find(':'); colon != std::string_view::npos && colon < 40
            && std::all_of(code.begin(), code.begin() + std::ptrdiff_t(colon), [](char c) { return isIdentChar(c); }))
            code = trim(code.substr(colon + 1));
        if (code.starts_with(".")) {
            std::size_t end = 1;
            while (end < code.size() && isIdentChar(code[end]))
                ++end;
            const std::string_view word = code.substr(0, end);
            for (const auto s : kStrong)
                if (word == s)
                    ++strong;
        }
        if (const auto hashAt = line.find(" #"); hashAt != std::string_view::npos && line.find(';') == std::string_view::npos)
            ++hash;
        const auto eq = line.find('=');
        if (eq != std::string_view::npos && trim(line.substr(eq + 1)).starts_with("%"))
            ++percent;
    }
    if (llvm > 0 && strong == 0)
        return false;
    return strong > 0 || percent > 0 || (hash >= 2 && hash > semicolonComments);
}

std::pair<int, int> ClrxTranslation::map(int outputLine, int outputColumn) const
{
    if (outputLine < 1 || outputLine > int(origins.size()))
        return {outputLine, outputColumn};
    const Origin& o = origins[std::size_t(outputLine - 1)];
    int column = o.begin;
    for (const auto& [out, src] : o.anchors) {
        if (out > outputColumn)
            break;
        column = src + (outputColumn - out > 0 && &o.anchors.back() != &o.anchors.front() ? 0 : 0);
    }
    return {o.line, column};
}

std::pair<int, int> ClrxTranslation::span(int outputLine) const
{
    if (outputLine < 1 || outputLine > int(origins.size()))
        return {0, 0};
    const Origin& o = origins[std::size_t(outputLine - 1)];
    return {o.begin, o.end};
}

int ClrxTranslation::sourceLine(int outputLine) const
{
    if (outputLine < 1 || outputLine > int(origins.size()))
        return outputLine;
    return origins[std::size_t(outputLine - 1)].line;
}

ClrxTranslation translateClrx(std::string_view source, const ClrxOptions& options)
{
    return Translator(source, options).run();
}

namespace {

std::vector<std::string_view> sourceLines(std::string_view text) // as Translator::splitSourceLines cuts them
{
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start < text.size();) {
        const auto end = text.find('\n', start);
        lines.push_back(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    return lines;
}

bool sameOptions(const ClrxOptions& a, const ClrxOptions& b)
{
    return a.format == b.format && a.is64bit == b.is64bit && a.driverVersion == b.driverVersion && a.llvmVersion == b.llvmVersion
        && a.processor == b.processor && a.sourceGpuWins == b.sourceGpuWins && a.includeDirs == b.includeDirs;
}

// No comment, string, continuation, separator or CR: the line is its own code, one statement.
bool simpleLine(std::string_view line)
{
    return line.find_first_of("#;\"/\\\r'") == std::string_view::npos;
}

} // namespace

struct ClrxTranslator::State {
    std::string fullSource;                 // what `translator` read (its lines point into it)
    std::unique_ptr<Translator> translator; // after run(): its symbols, for plainStatement()
    std::string patchedSource;              // the text `result` is the translation of, once patched
    bool patchedSinceFull = false;          // (until then it is fullSource: no second copy of a big text)
    const std::string& source() const { return patchedSinceFull ? patchedSource : fullSource; }
    ClrxOptions options;
    ClrxTranslation result;
    std::vector<int> plainOutput; // Translator::plainOutput, kept in step with patches
    bool patched = false;
    bool valid = false;

    bool patch(std::string_view text)
    {
        constexpr std::size_t kMaxLines = 64;
        const auto oldLines = sourceLines(source()), newLines = sourceLines(text);
        std::size_t prefix = 0;
        while (prefix < oldLines.size() && prefix < newLines.size() && oldLines[prefix] == newLines[prefix])
            ++prefix;
        std::size_t suffix = 0;
        while (suffix < oldLines.size() - prefix && suffix < newLines.size() - prefix
               && oldLines[oldLines.size() - 1 - suffix] == newLines[newLines.size() - 1 - suffix])
            ++suffix;
        const std::size_t oldCount = oldLines.size() - prefix - suffix, newCount = newLines.size() - prefix - suffix;
        // The last line carries what the translation appends at the end (lit() symbols): not here.
        if (suffix == 0 || oldCount > kMaxLines || newCount > kMaxLines || oldLines.size() > plainOutput.size())
            return false;
        int first = 0; // the output line the new lines start at
        if (oldCount == 0) {
            if (prefix == 0 || plainOutput[prefix - 1] < 0)
                return false; // an insertion lands in the region of the line before it
            first = plainOutput[prefix - 1] + 1;
        } else {
            first = plainOutput[prefix];
            if (first < 0)
                return false;
            for (std::size_t i = 0; i < oldCount; ++i)
                if (plainOutput[prefix + i] != first + int(i) || !simpleLine(oldLines[prefix + i]))
                    return false;
        }
        std::string lines;
        std::vector<ClrxTranslation::Origin> origins;
        for (std::size_t i = 0; i < newCount; ++i) {
            const std::string_view line = newLines[prefix + i];
            const auto b = line.find_first_not_of(" \t\f\v"), e = line.find_last_not_of(" \t\f\v");
            ClrxTranslation::Origin origin;
            origin.line = int(prefix + i) + 1;
            if (!simpleLine(line))
                return false;
            if (b == std::string_view::npos) { // blank: an empty output line at its end
                origin.begin = origin.end = int(line.size());
            } else {
                const std::string_view stmt = line.substr(b, e + 1 - b);
                if (!translator->plainStatement(stmt))
                    return false;
                lines += stmt;
                origin.begin = int(b);
                origin.end = int(e + 1);
            }
            lines += '\n';
            origins.push_back(std::move(origin));
        }
        // Splice the output text and origins; what follows moves by the lines added.
        std::size_t from = 0;
        for (int k = 0; k < first; ++k)
            from = result.text.find('\n', from) + 1;
        std::size_t to = from;
        for (std::size_t k = 0; k < oldCount; ++k)
            to = result.text.find('\n', to) + 1;
        result.text.replace(from, to - from, lines);
        result.origins.erase(result.origins.begin() + first, result.origins.begin() + first + std::ptrdiff_t(oldCount));
        result.origins.insert(result.origins.begin() + first, std::make_move_iterator(origins.begin()),
                              std::make_move_iterator(origins.end()));
        const int delta = int(newCount) - int(oldCount);
        const int after = int(prefix + oldCount); // source lines above this one stay
        for (std::size_t k = 0; k < result.origins.size(); ++k)
            if ((k < std::size_t(first) || k >= std::size_t(first) + newCount) && result.origins[k].line > after)
                result.origins[k].line += delta;
        for (auto& n : result.notes)
            if (n.line > after)
                n.line += delta;
        for (auto& d : result.directives)
            if (d.line > after)
                d.line += delta;
        std::vector<int> slots(newCount);
        for (std::size_t i = 0; i < newCount; ++i)
            slots[i] = first + int(i);
        plainOutput.erase(plainOutput.begin() + std::ptrdiff_t(prefix), plainOutput.begin() + std::ptrdiff_t(prefix + oldCount));
        plainOutput.insert(plainOutput.begin() + std::ptrdiff_t(prefix), slots.begin(), slots.end());
        for (std::size_t i = prefix + newCount; i < plainOutput.size(); ++i)
            if (plainOutput[i] >= first + int(oldCount))
                plainOutput[i] += delta;
        patchedSource.assign(text);
        patchedSinceFull = true;
        return true;
    }
};

ClrxTranslator::ClrxTranslator()
    : state_(std::make_unique<State>())
{
}
ClrxTranslator::~ClrxTranslator() = default;

bool ClrxTranslator::lastPatched() const
{
    return state_->patched;
}

const ClrxTranslation& ClrxTranslator::translate(std::string_view source, const ClrxOptions& options)
{
    State& s = *state_;
    s.patched = s.valid && sameOptions(s.options, options) && (source == s.source() || s.patch(source));
    if (s.patched)
        return s.result;
    s.fullSource.assign(source);
    s.patchedSource.clear();
    s.patchedSinceFull = false;
    s.options = options;
    s.translator = std::make_unique<Translator>(s.fullSource, options);
    s.result = s.translator->run();
    s.plainOutput = s.translator->plainOutput;
    s.valid = true;
    return s.result;
}

namespace {

// Where a symbol the translator made up (PREFIX then a number) is in an instruction's operands:
// [at, end), at = npos when none.
std::pair<std::size_t, std::size_t> numberedSymbol(const std::string& operands, std::string_view prefix)
{
    const auto at = operands.find(prefix);
    if (at == std::string::npos)
        return {at, at};
    std::size_t end = at + prefix.size();
    while (end < operands.size() && isDigit(operands[end]))
        ++end;
    return {at, end};
}

} // namespace

void mapProgramToClrx(Program& program, const ClrxTranslation& translation)
{
    std::vector<std::pair<int, int>> index;
    index.reserve(program.instructions.size());
    for (std::size_t i = 0; i < program.instructions.size(); ++i) {
        Instruction& inst = program.instructions[i];
        const int out = inst.line;
        inst.line = translation.sourceLine(out);
        const auto [b, e] = translation.span(out);
        inst.columnBegin = b;
        inst.columnEnd = e;
        index.emplace_back(inst.line, int(i));
    }
    program.lineToInstructions.assign(std::move(index));
    if (!translation.literals.empty()) {
        std::unordered_map<std::string, std::int64_t> literals(translation.literals.begin(), translation.literals.end());
        for (auto& inst : program.instructions) {
            const auto [at, end] = numberedSymbol(inst.operands, ".Lgcnlens_lit");
            if (at == std::string::npos)
                continue;
            const auto it = literals.find(inst.operands.substr(at, end - at));
            if (it == literals.end())
                continue;
            char hex[24];
            std::snprintf(hex, sizeof hex, "0x%x", unsigned(std::uint32_t(it->second)));
            std::string operands = inst.operands;
            operands.replace(at, end - at, hex);
            inst.operands = operands;
        }
    }
    // A label±N branch target reads as written, not as the symbol that carried it to LLVM.
    if (!translation.branchTargets.empty())
        for (auto& inst : program.instructions) {
            const auto [at, end] = numberedSymbol(inst.operands, ".Lgcnlens_br");
            if (at == std::string::npos)
                continue;
            std::size_t k = 0; // .Lgcnlens_brK is branchTargets[K]
            std::from_chars(inst.operands.data() + at + 12, inst.operands.data() + end, k);
            if (end > at + 12 && k < translation.branchTargets.size()
                && translation.branchTargets[k].first == std::string_view(inst.operands).substr(at, end - at)) {
                std::string operands = inst.operands;
                operands.replace(at, end - at, translation.branchTargets[k].second);
                inst.operands = operands;
            }
        }
    for (auto& label : program.labels)
        label.line = translation.sourceLine(label.line);
    for (auto& kernel : program.kernels)
        kernel.line = translation.sourceLine(kernel.line);
    for (auto& d : program.diagnostics) {
        if (d.line <= 0)
            continue;
        const auto [line, column] = translation.map(d.line, d.column);
        d.line = line;
        d.column = column;
    }
    // The translator's directives replace what the source map found in the translated text.
    program.directives.clear();
    for (ResourceDirective d : translation.directives) {
        const std::string kernelName = d.kernel >= 0 && d.kernel < int(translation.kernels.size())
            ? translation.kernels[std::size_t(d.kernel)]
            : std::string();
        d.kernel = -1;
        for (std::size_t k = 0; k < program.kernels.size(); ++k)
            if (program.kernels[k].name == kernelName)
                d.kernel = int(k);
        if (d.kernel < 0 && program.kernels.size() == 1)
            d.kernel = 0;
        program.directives.push_back(d);
    }
    for (const auto& n : translation.notes)
        program.diagnostics.push_back(n);
    std::stable_sort(program.diagnostics.begin(), program.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
}

} // namespace gcnlens
