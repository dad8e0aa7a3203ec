// SPDX-License-Identifier: MIT
// LDS bank conflicts, timing-model.md section 7: bank(addr) = (addr >> 2) & 31, row = addr >> 7;
// a group's degree is the most distinct rows one bank must serve (same dword = broadcast); the
// access costs the sum of its groups' degrees. Addresses come from a typed pattern or from the
// kernel's own VALU code (see analyzeLdsInProgram below).
#include "core/lds.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <set>

namespace gcnlens {

// --- pattern expressions -------------------------------------------------------------------------

namespace {

// Recursive descent with C precedence: | < ^ < & < shifts < + - < * / % < unary.
class PatternParser {
public:
    PatternParser(const std::string& text, const std::map<std::string, std::int64_t>& params)
        : text_(text), params_(params) {}

    std::optional<PatternError> evaluate(std::int64_t lane, std::int64_t& out)
    {
        pos_ = 0;
        lane_ = lane;
        error_.reset();
        skipSpace();
        if (pos_ >= text_.size())
            return PatternError {"empty pattern", 0};
        out = parseBinary(0);
        if (!error_ && pos_ < text_.size())
            fail(std::string("unexpected '") + text_[pos_] + "'");
        return error_;
    }

private:
    struct Op { const char* text; int level; };
    static constexpr Op kOps[] = {{"<<", 3}, {">>", 3}, {"|", 0}, {"^", 1}, {"&", 2},
                                  {"+", 4}, {"-", 4}, {"*", 5}, {"/", 5}, {"%", 5}};

    void skipSpace()
    {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
            ++pos_;
    }
    void fail(const std::string& message, std::optional<std::size_t> at = {})
    {
        if (!error_)
            error_ = PatternError {message, static_cast<int>(at.value_or(pos_))};
    }
    const Op* peekOp()
    {
        for (const Op& op : kOps)
            if (text_.compare(pos_, std::char_traits<char>::length(op.text), op.text) == 0)
                return &op;
        return nullptr;
    }

    std::int64_t parseBinary(int minLevel)
    {
        std::int64_t left = parseUnary();
        while (!error_) {
            skipSpace();
            const Op* op = peekOp();
            if (!op || op->level < minLevel)
                break;
            const std::size_t at = pos_;
            pos_ += std::char_traits<char>::length(op->text);
            skipSpace();
            const std::int64_t right = parseBinary(op->level + 1);
            if (error_)
                break;
            const std::string o = op->text;
            if ((o == "/" || o == "%") && right == 0) {
                fail("division by zero", at);
                break;
            }
            if ((o == "<<" || o == ">>") && (right < 0 || right > 62)) {
                fail("shift count out of range (0…62)", at);
                break;
            }
            if (o == "+") left += right;
            else if (o == "-") left -= right;
            else if (o == "*") left *= right;
            else if (o == "/") left /= right;
            else if (o == "%") left %= right;
            else if (o == "<<") left <<= right;
            else if (o == ">>") left >>= right;
            else if (o == "&") left &= right;
            else if (o == "|") left |= right;
            else left ^= right;
        }
        return left;
    }

    std::int64_t parseUnary()
    {
        skipSpace();
        if (pos_ >= text_.size()) {
            fail("expression expected");
            return 0;
        }
        const char c = text_[pos_];
        if (c == '-' || c == '+' || c == '~') {
            ++pos_;
            const std::int64_t v = parseUnary();
            return c == '-' ? -v : c == '~' ? ~v : v;
        }
        if (c == '(') {
            const std::size_t open = pos_++;
            const std::int64_t v = parseBinary(0);
            skipSpace();
            if (!error_ && (pos_ >= text_.size() || text_[pos_] != ')'))
                fail(pos_ >= text_.size() ? "missing ')' for the '(' here" : "')' expected", pos_ >= text_.size() ? open : pos_);
            ++pos_;
            return v;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            const std::size_t start = pos_;
            int base = 10;
            if (c == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X')) {
                base = 16;
                pos_ += 2;
            }
            std::int64_t v = 0;
            bool any = false;
            while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
                const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
                const int digit = std::isdigit(static_cast<unsigned char>(d)) ? d - '0' : d - 'a' + 10;
                if (digit >= base)
                    break;
                v = v * base + digit;
                any = true;
                ++pos_;
            }
            if (!any)
                fail("digits expected after 0x", start);
            if (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
                fail("bad digit in number");
            return v;
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = pos_;
            while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
                ++pos_;
            const std::string name = text_.substr(start, pos_ - start);
            if (name == "lane")
                return lane_;
            const auto it = params_.find(name);
            if (it == params_.end()) {
                fail("unknown name '" + name + "' (use lane or set it with --set " + name + "=VALUE)", start);
                return 0;
            }
            return it->second;
        }
        fail(std::string("unexpected '") + c + "'");
        return 0;
    }

    const std::string& text_;
    const std::map<std::string, std::int64_t>& params_;
    std::size_t pos_ = 0;
    std::int64_t lane_ = 0;
    std::optional<PatternError> error_;
};

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::optional<std::int64_t> parseInteger(const std::string& text)
{
    if (text.empty())
        return std::nullopt;
    std::size_t i = 0;
    bool negative = false;
    if (text[0] == '-' || text[0] == '+') {
        negative = text[0] == '-';
        i = 1;
    }
    int base = 10;
    if (text.compare(i, 2, "0x") == 0 || text.compare(i, 2, "0X") == 0) {
        base = 16;
        i += 2;
    }
    if (i >= text.size())
        return std::nullopt;
    std::int64_t v = 0;
    for (; i < text.size(); ++i) {
        const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
        int digit = -1;
        if (std::isdigit(static_cast<unsigned char>(d)))
            digit = d - '0';
        else if (d >= 'a' && d <= 'f')
            digit = d - 'a' + 10;
        if (digit < 0 || digit >= base)
            return std::nullopt;
        v = v * base + digit;
    }
    return negative ? -v : v;
}

} // namespace

std::optional<PatternError> evaluateLdsPattern(const std::string& pattern, const std::map<std::string, std::int64_t>& parameters,
                                               std::vector<std::int64_t>& values)
{
    PatternParser parser(pattern, parameters);
    values.assign(64, 0);
    for (int lane = 0; lane < 64; ++lane)
        if (auto error = parser.evaluate(lane, values[lane]))
            return error;
    return std::nullopt;
}

// --- access shapes -------------------------------------------------------------------------------

LdsOp parseLdsOp(const std::string& text)
{
    LdsOp op;
    std::vector<std::string> words;
    for (std::size_t i = 0; i < text.size();) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
            ++i;
        if (i > start)
            words.push_back(text.substr(start, i - start));
    }
    if (words.empty()) {
        op.error = "no DS op or width given";
        return op;
    }
    std::string name = words[0];
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    op.name = name;
    auto widthFromBits = [](const std::string& s) -> int {
        if (s == "8") return 1;
        if (s == "16") return 2;
        if (s == "32") return 4;
        if (s == "64") return 8;
        if (s == "96") return 12;
        if (s == "128") return 16;
        return 0;
    };
    if (!startsWith(name, "ds_")) {
        // A width: "b64" or a byte count "8".
        int bytes = 0;
        if (name.size() > 1 && name[0] == 'b')
            bytes = widthFromBits(name.substr(1));
        else if (auto n = parseInteger(name); n && (*n == 1 || *n == 2 || *n == 4 || *n == 8 || *n == 12 || *n == 16))
            bytes = static_cast<int>(*n);
        if (!bytes) {
            op.error = "unknown DS op or width '" + words[0] + "' (b8, b16, b32, b64, b96, b128, 1…16 bytes or a ds_* op)";
            return op;
        }
        op.widthBytes = bytes;
        op.name = "b" + std::to_string(bytes * 8);
    } else {
        // The element type is the last _<b|u|i|f><bits> part (ds_read_u8_d16_hi → u8).
        int bytes = 0;
        std::size_t start = 3;
        while (start <= name.size()) {
            const std::size_t end = std::min(name.find('_', start), name.size());
            const std::string part = name.substr(start, end - start);
            if (part.size() > 1 && (part[0] == 'b' || part[0] == 'u' || part[0] == 'i' || part[0] == 'f'))
                if (const int w = widthFromBits(part.substr(1)))
                    bytes = w;
            start = end + 1;
        }
        // Names with the width in the middle: ds_condxchg32_rtn_b64 has b64 already.
        if (!bytes) {
            op.error = "cannot tell the access width of '" + name + "'";
            return op;
        }
        op.widthBytes = bytes;
        const std::string base = name.substr(3);
        op.twoAccesses = startsWith(base, "read2") || startsWith(base, "write2") || startsWith(base, "wrxchg2");
        op.st64 = base.find("st64") != std::string::npos;
        const bool returns = startsWith(base, "read") || name.find("_rtn_") != std::string::npos;
        op.addressFirst = !returns;
        for (const char* skip : {"ds_swizzle", "ds_permute", "ds_bpermute", "ds_append", "ds_consume", "ds_gws", "ds_nop",
                                 "ds_read_addtid", "ds_write_addtid", "ds_ordered"})
            if (startsWith(name, skip)) {
                op.error = "'" + name + "' has no per-lane LDS address";
                return op;
            }
    }
    op.dwords = std::max(1, op.widthBytes / 4);
    for (std::size_t i = 1; i < words.size(); ++i) {
        const std::string& w = words[i];
        const auto colon = w.find(':');
        const std::string key = w.substr(0, colon);
        const auto value = colon == std::string::npos ? std::nullopt : parseInteger(w.substr(colon + 1));
        if (!value || (key != "offset" && key != "offset0" && key != "offset1")) {
            if (key == "gds") {
                op.error = "gds: not an LDS access";
                return op;
            }
            continue; // other modifiers do not move the address
        }
        if (key == "offset") op.offset = *value;
        else if (key == "offset0") op.offset0 = *value;
        else op.offset1 = *value;
    }
    return op;
}

int ldsLanesPerGroup(int dwords, int groupDwords)
{
    const int perLane = dwords <= 1 ? 1 : dwords == 2 ? 2 : 4;
    return std::clamp(groupDwords / perLane, 1, 64);
}

// --- the bank model ------------------------------------------------------------------------------

namespace {

void addGroups(LdsAccessResult& result, const std::vector<LaneAccess>& lanes, int dwords, int lanesPerGroup)
{
    for (int first = 0; first < 64; first += lanesPerGroup) {
        LaneGroup group;
        group.firstLane = first;
        group.lanes = std::min(lanesPerGroup, 64 - first);
        std::array<std::set<std::int64_t>, 32> rows;
        for (int lane = first; lane < first + group.lanes; ++lane) {
            const LaneAccess& a = lanes[lane];
            if (!a.known)
                continue;
            for (int d = 0; d < dwords; ++d) {
                const std::int64_t dword = (a.address >> 2) + d;
                const int bank = static_cast<int>(dword & 31);
                rows[bank].insert(dword >> 5); // addr >> 7; the same dword twice is a broadcast
                ++result.bankLoad[bank];
            }
        }
        std::vector<int> perBank(32);
        for (int b = 0; b < 32; ++b) {
            perBank[b] = static_cast<int>(rows[b].size());
            group.degree = std::max(group.degree, perBank[b]);
        }
        result.bankRows.push_back(std::move(perBank));
        result.groups.push_back(group);
    }
}

std::vector<LaneAccess> makeLanes(const std::vector<std::optional<std::int64_t>>& addresses, int dwords)
{
    std::vector<LaneAccess> lanes(64);
    for (int lane = 0; lane < 64; ++lane) {
        LaneAccess& a = lanes[lane];
        a.lane = lane;
        a.dwords = dwords;
        if (lane < static_cast<int>(addresses.size()) && addresses[lane]) {
            a.known = true;
            a.address = *addresses[lane];
            a.bank = static_cast<int>((a.address >> 2) & 31);
            a.row = a.address >> 7;
        }
    }
    return lanes;
}

} // namespace

LdsAccessResult analyzeLdsAddresses(const LdsOp& op, const std::vector<std::optional<std::int64_t>>& base, int groupDwords)
{
    LdsAccessResult result;
    result.op = op.name;
    result.widthBytes = op.widthBytes;
    if (!op.error.empty()) {
        result.error = op.error;
        return result;
    }
    result.bankLoad.assign(32, 0);
    result.twoAccesses = op.twoAccesses;
    const int lanesPerGroup = ldsLanesPerGroup(op.dwords, groupDwords);
    auto shifted = [&](std::int64_t by) {
        std::vector<std::optional<std::int64_t>> out(64);
        for (int lane = 0; lane < 64 && lane < static_cast<int>(base.size()); ++lane)
            if (base[lane])
                out[lane] = *base[lane] + by;
        return out;
    };
    if (op.twoAccesses) {
        // read2/write2: two accesses, each offset in elements (×64 for st64).
        const std::int64_t scale = op.widthBytes * (op.st64 ? 64 : 1);
        result.lanes = makeLanes(shifted(op.offset0 * scale), op.dwords);
        result.secondLanes = makeLanes(shifted(op.offset1 * scale), op.dwords);
        addGroups(result, result.lanes, op.dwords, lanesPerGroup);
        result.groupsPerAccess = static_cast<int>(result.groups.size());
        addGroups(result, result.secondLanes, op.dwords, lanesPerGroup);
    } else {
        result.lanes = makeLanes(shifted(op.offset), op.dwords);
        addGroups(result, result.lanes, op.dwords, lanesPerGroup);
        result.groupsPerAccess = static_cast<int>(result.groups.size());
    }
    for (const LaneAccess& a : result.lanes)
        result.allKnown = result.allKnown && a.known;
    result.degree = 1;
    result.cycles = 0;
    for (const LaneGroup& g : result.groups) {
        result.degree = std::max(result.degree, g.degree);
        result.cycles += g.degree;
    }
    result.conflictFreeCycles = static_cast<int>(result.groups.size());
    return result;
}

LdsAccessResult analyzeLdsPattern(const std::string& pattern, const std::string& opOrWidth,
                                  const std::map<std::string, std::int64_t>& parameters, int groupDwords)
{
    const LdsOp op = parseLdsOp(opOrWidth);
    if (!op.error.empty()) {
        LdsAccessResult result;
        result.op = op.name;
        result.error = op.error;
        return result;
    }
    std::vector<std::int64_t> values;
    if (const auto error = evaluateLdsPattern(pattern, parameters, values)) {
        LdsAccessResult result;
        result.op = op.name;
        result.widthBytes = op.widthBytes;
        result.error = error->message;
        result.errorColumn = error->column;
        return result;
    }
    std::vector<std::optional<std::int64_t>> base(values.begin(), values.end());
    return analyzeLdsAddresses(op, base, groupDwords);
}

// --- addresses from the kernel -------------------------------------------------------------------
//
// A forward, straight-line pass over each kernel in program order, one value per lane of wave 0
// (work-items 0…63). Branches are assumed to fall through: at a join point the values are those of
// the fall-through path, and a DS access inside a loop is evaluated for its first iteration (said in
// `note`). EXEC is assumed full. Values are kept as "known part + uniform unknown": an SGPR loaded
// from memory or set at entry is the same for every lane, so adding it (or a known multiple of it)
// shifts every address by the same amount, which does not change banks' relative load (assuming it
// is dword-aligned); anything else unknown makes the lane unknown.

namespace {

enum class State : std::uint8_t { Known, Offset, Unknown }; // Offset: k + a uniform unknown

struct Val {
    std::int64_t k = 0;
    State state = State::Unknown;
};

struct Reg {
    std::array<Val, 64> lanes {};
    std::string origin; // the SGPR whose uniform unknown this carries
};

Reg uniform(State state, std::int64_t k = 0, std::string origin = {})
{
    Reg r;
    for (Val& v : r.lanes)
        v = {k, state};
    r.origin = std::move(origin);
    return r;
}

bool isUniform(const Reg& r)
{
    for (const Val& v : r.lanes)
        if (v.state == State::Unknown || v.state != r.lanes[0].state || v.k != r.lanes[0].k)
            return false;
    return true;
}

bool isUniformKnown(const Reg& r) { return isUniform(r) && r.lanes[0].state == State::Known; }

std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

struct Operand {
    enum Kind { None, Vgpr, Sgpr, Literal, Other } kind = None;
    int index = 0;
    int count = 1;
    std::int64_t value = 0;
    std::string text;
};

struct ParsedOperands {
    std::vector<Operand> ops;
    std::vector<std::string> modifiers;
};

Operand parseOperand(const std::string& text)
{
    Operand op;
    op.text = text;
    if (text.empty())
        return op;
    auto regIndex = [&](std::size_t from) -> std::optional<int> {
        std::string digits = text.substr(from);
        if (!digits.empty() && digits[0] == '[')
            digits = digits.substr(1, digits.find(':') - 1);
        const auto v = parseInteger(digits);
        return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
    };
    if ((text[0] == 'v' || text[0] == 's') && text.size() > 1 && (std::isdigit(static_cast<unsigned char>(text[1])) || text[1] == '[')) {
        if (const auto i = regIndex(1)) {
            op.kind = text[0] == 'v' ? Operand::Vgpr : Operand::Sgpr;
            op.index = *i;
            if (const auto colon = text.find(':'); colon != std::string::npos)
                if (const auto last = parseInteger(text.substr(colon + 1, text.find(']') - colon - 1)))
                    op.count = std::max(1, static_cast<int>(*last) - *i + 1);
            return op;
        }
    }
    if (const auto v = parseInteger(text)) {
        op.kind = Operand::Literal;
        op.value = *v;
        return op;
    }
    op.kind = Operand::Other;
    return op;
}

ParsedOperands splitOperands(const std::string& text)
{
    ParsedOperands out;
    std::vector<std::string> parts;
    std::string current;
    int depth = 0;
    for (char c : text) {
        if (c == '[' || c == '(') ++depth;
        if (c == ']' || c == ')') --depth;
        if (c == ',' && depth == 0) {
            parts.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    parts.push_back(current);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        std::vector<std::string> words;
        std::string w;
        int d = 0;
        for (char c : parts[i]) {
            if (c == '[' || c == '(') ++d;
            if (c == ']' || c == ')') --d;
            if (std::isspace(static_cast<unsigned char>(c)) && d == 0) {
                if (!w.empty()) words.push_back(w);
                w.clear();
            } else {
                w += c;
            }
        }
        if (!w.empty()) words.push_back(w);
        if (words.empty())
            continue;
        out.ops.push_back(parseOperand(words[0]));
        for (std::size_t j = 1; j < words.size(); ++j)
            out.modifiers.push_back(words[j]);
    }
    return out;
}

class KernelEvaluator {
public:
    KernelEvaluator(const Program& program, const LdsKernelOptions& options) : program_(program), options_(options) {}

    void run(int first, int end, std::map<int, LdsAccessResult>& out)
    {
        reset();
        // Loops: [target, branch] ranges of backward branches, to flag first-iteration results.
        std::vector<std::pair<int, int>> loops;
        for (int i = first; i < end; ++i) {
            const Instruction& in = program_.instructions[i];
            if (in.backward && in.targetIndex >= first && in.targetIndex <= i)
                loops.emplace_back(in.targetIndex, i);
        }
        for (int i = first; i < end; ++i) {
            const Instruction& in = program_.instructions[i];
            if (in.isData || in.placeholder)
                continue;
            if (in.family == Family::DS || startsWith(in.mnemonic, "ds_")) {
                if (auto result = analyzeDs(in)) {
                    for (const auto& [from, to] : loops)
                        if (i >= from && i <= to) {
                            appendNote(*result, "inside a loop: addresses of the first iteration");
                            break;
                        }
                    out[i] = std::move(*result);
                }
            }
            step(in);
        }
    }

private:
    void reset()
    {
        vgprs_.clear();
        sgprs_.clear();
        // Entry state: work-item IDs. GFX6–9 and gfx908 pass x, y, z in v0, v1, v2 (v1/v2 only when
        // the kernel enables them); gfx90a/gfx942 pack them into v0 as 10-bit fields x | y<<10 | z<<20
        // (LLVM AMDGPUUsage, "Initial Kernel Execution State"; "packed work-item IDs" on GFX90A+).
        const int X = std::max(1, options_.workgroupX), Y = std::max(1, options_.workgroupY);
        const int Z = std::max(1, options_.workgroupZ);
        const bool packed = program_.gpu.generation == Generation::CDNA && program_.gpu.processor != "gfx908";
        Reg vx, vy, vz;
        for (int lane = 0; lane < 64; ++lane) {
            const std::int64_t x = lane % X, y = (lane / X) % Y, z = (lane / (X * Y)) % Z;
            vx.lanes[lane] = {packed ? x | (y << 10) | (z << 20) : x, State::Known};
            vy.lanes[lane] = {y, State::Known};
            vz.lanes[lane] = {z, State::Known};
        }
        vgprs_[0] = vx;
        if (!packed && Y > 1) vgprs_[1] = vy;
        if (!packed && Z > 1) vgprs_[2] = vz;
    }

    static void appendNote(LdsAccessResult& r, const std::string& text)
    {
        if (r.note.find(text) == std::string::npos)
            r.note += (r.note.empty() ? "" : "; ") + text;
    }

    Reg value(const Operand& op)
    {
        switch (op.kind) {
        case Operand::Vgpr: {
            const auto it = vgprs_.find(op.index);
            return it != vgprs_.end() ? it->second : uniform(State::Unknown);
        }
        case Operand::Sgpr: {
            const auto it = sgprs_.find(op.index);
            if (it != sgprs_.end())
                return it->second;
            // Never written in the kernel: an entry value (kernel argument pointer, workgroup id …).
            return uniform(State::Offset, 0, "s" + std::to_string(op.index));
        }
        case Operand::Literal:
            return uniform(State::Known, op.value);
        default:
            if (op.text == "exec" || op.text == "exec_lo" || op.text == "exec_hi")
                return uniform(State::Known, -1); // EXEC assumed full
            return uniform(State::Unknown);
        }
    }

    // Applies f lane by lane. `linear` says how uniform unknowns propagate through the operation.
    enum class Kind { Additive, Scale, Other };
    template <typename F>
    Reg apply(const std::vector<Reg>& in, Kind kind, F f, int scaledOperand = 0)
    {
        Reg out;
        for (const Reg& r : in)
            if (!r.origin.empty()) {
                out.origin = r.origin;
                break;
            }
        bool allUniform = true;
        for (const Reg& r : in)
            allUniform = allUniform && isUniform(r);
        for (int lane = 0; lane < 64; ++lane) {
            std::array<std::int64_t, 4> k {};
            bool unknown = false, offset = false;
            for (std::size_t j = 0; j < in.size(); ++j) {
                const Val& v = in[j].lanes[lane];
                k[j] = v.k;
                unknown = unknown || v.state == State::Unknown;
                offset = offset || v.state == State::Offset;
            }
            Val& o = out.lanes[lane];
            o.k = static_cast<std::int64_t>(u32(f(k)));
            if (unknown) {
                o.state = State::Unknown;
            } else if (!offset) {
                o.state = State::Known;
            } else if (allUniform) {
                o = {0, State::Offset}; // a function of uniform values only is uniform
            } else if (kind == Kind::Additive) {
                o.state = State::Offset;
            } else if (kind == Kind::Scale) {
                // (k + U)·c stays "known + uniform" only when the other factors are known and uniform.
                bool ok = true;
                for (std::size_t j = 0; j < in.size(); ++j)
                    if (static_cast<int>(j) != scaledOperand)
                        ok = ok && isUniformKnown(in[j]);
                o.state = ok ? State::Offset : State::Unknown;
            } else {
                o.state = State::Unknown;
            }
        }
        bool anyOffset = false;
        for (const Val& v : out.lanes)
            anyOffset = anyOffset || v.state == State::Offset;
        if (!anyOffset)
            out.origin.clear();
        return out;
    }

    void setDefsUnknown(const Instruction& in)
    {
        std::vector<RegRange> defs = in.defs;
        if (defs.empty()) {
            // Hand-built or unresolved instructions without def lists: the first register operand is
            // the destination, except for stores and atomics without return (their first is the address).
            const ParsedOperands p = splitOperands(in.operands);
            const bool store = startsWith(in.mnemonic, "ds_") && parseLdsOp(in.mnemonic).addressFirst;
            if (!store && !p.ops.empty() && (p.ops[0].kind == Operand::Vgpr || p.ops[0].kind == Operand::Sgpr))
                defs.push_back({p.ops[0].kind == Operand::Vgpr ? RegKind::VGPR : RegKind::SGPR, p.ops[0].index, p.ops[0].count});
        }
        for (const RegRange& d : defs) {
            for (int r = d.first; r < d.first + d.count; ++r) {
                if (d.kind == RegKind::VGPR)
                    vgprs_[r] = uniform(State::Unknown);
                else if (d.kind == RegKind::SGPR) // SGPRs are uniform by nature
                    sgprs_[r] = uniform(State::Offset, 0, "s" + std::to_string(r) + " (" + in.mnemonic + ")");
            }
        }
    }

    void step(const Instruction& in)
    {
        const std::string& m = in.mnemonic;
        const ParsedOperands p = splitOperands(in.operands);
        auto base = [&](const char* prefix) { return startsWith(m, prefix); };
        const std::vector<Operand>& ops = p.ops;
        if (ops.empty() || (ops[0].kind != Operand::Vgpr && ops[0].kind != Operand::Sgpr)) {
            setDefsUnknown(in);
            return;
        }
        const Operand dst = ops[0];
        // Operands after the destination; VOPC-style carry outs (vcc, s[0:1]) dropped for add/sub.
        std::vector<Operand> src(ops.begin() + 1, ops.end());
        const bool carryOut = base("v_add_i32") || base("v_add_u32") || base("v_add_co_u32") || base("v_sub_i32") ||
                              base("v_sub_u32") || base("v_sub_co_u32") || base("v_subrev_i32") || base("v_subrev_u32") ||
                              base("v_subrev_co_u32");
        if (carryOut && src.size() == 3)
            src.erase(src.begin());
        std::vector<Reg> v;
        for (const Operand& o : src)
            v.push_back(value(o));
        using K = std::array<std::int64_t, 4>;
        std::optional<Reg> result;
        auto n = [&](std::size_t count) { return v.size() == count; };
        const bool scalar = dst.kind == Operand::Sgpr;
        auto u24 = [](std::int64_t x) { return static_cast<std::int64_t>(u32(x) & 0xffffffu); };
        auto i24 = [](std::int64_t x) { return static_cast<std::int64_t>(static_cast<std::int32_t>(u32(x) << 8) >> 8); };

        if ((base("v_mov_b32") || base("s_mov_b32") || base("s_movk_i32")) && n(1)) {
            result = v[0];
            if (base("s_movk_i32") && src[0].kind == Operand::Literal)
                result = uniform(State::Known, static_cast<std::int16_t>(src[0].value));
        } else if ((base("v_add_i32") || base("v_add_u32") || base("v_add_co_u32") || base("s_add_u32") || base("s_add_i32")) && n(2)) {
            result = apply(v, Kind::Additive, [](K k) { return k[0] + k[1]; });
        } else if ((base("v_sub_i32") || base("v_sub_u32") || base("v_sub_co_u32") || base("s_sub_u32") || base("s_sub_i32")) && n(2)) {
            result = apply(v, Kind::Additive, [](K k) { return k[0] - k[1]; });
        } else if ((base("v_subrev_i32") || base("v_subrev_u32") || base("v_subrev_co_u32")) && n(2)) {
            result = apply(v, Kind::Additive, [](K k) { return k[1] - k[0]; });
        } else if (base("v_add3_u32") && n(3)) {
            result = apply(v, Kind::Additive, [](K k) { return k[0] + k[1] + k[2]; });
        } else if (base("v_lshlrev_b32") && n(2)) {
            result = apply(v, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[1]) << (k[0] & 31)); }, 1);
        } else if ((base("v_lshl_b32") || base("s_lshl_b32")) && n(2)) {
            result = apply(v, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)); }, 0);
        } else if (base("v_lshrrev_b32") && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return static_cast<std::int64_t>(u32(k[1]) >> (k[0] & 31)); });
        } else if ((base("v_lshr_b32") || base("s_lshr_b32")) && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return static_cast<std::int64_t>(u32(k[0]) >> (k[1] & 31)); });
        } else if (base("v_ashrrev_i32") && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return static_cast<std::int64_t>(static_cast<std::int32_t>(u32(k[1])) >> (k[0] & 31)); });
        } else if ((base("v_ashr_i32") || base("s_ashr_i32")) && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return static_cast<std::int64_t>(static_cast<std::int32_t>(u32(k[0])) >> (k[1] & 31)); });
        } else if ((base("v_and_b32") || base("s_and_b32")) && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return k[0] & k[1]; });
        } else if ((base("v_or_b32") || base("s_or_b32")) && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return k[0] | k[1]; });
        } else if ((base("v_xor_b32") || base("s_xor_b32")) && n(2)) {
            result = apply(v, Kind::Other, [](K k) { return k[0] ^ k[1]; });
        } else if ((base("v_mul_lo_u32") || base("v_mul_lo_i32") || base("s_mul_i32")) && n(2)) {
            // Either factor may carry the uniform unknown when the other is a known constant.
            const int scaled = isUniformKnown(v[1]) ? 0 : 1;
            result = apply(v, Kind::Scale, [](K k) { return k[0] * k[1]; }, scaled);
        } else if ((base("v_mul_u32_u24") || base("v_mul_i32_i24")) && n(2)) {
            const bool sign = base("v_mul_i32_i24");
            result = apply(v, Kind::Other, [&](K k) { return sign ? i24(k[0]) * i24(k[1]) : u24(k[0]) * u24(k[1]); });
        } else if ((base("v_mad_u32_u24") || base("v_mad_i32_i24")) && n(3)) {
            const bool sign = base("v_mad_i32_i24");
            const Reg product = apply({v[0], v[1]}, Kind::Other, [&](K k) { return sign ? i24(k[0]) * i24(k[1]) : u24(k[0]) * u24(k[1]); });
            result = apply({product, v[2]}, Kind::Additive, [](K k) { return k[0] + k[1]; });
        } else if (base("v_lshl_add_u32") && n(3)) {
            const Reg shifted = apply({v[0], v[1]}, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)); }, 0);
            result = apply({shifted, v[2]}, Kind::Additive, [](K k) { return k[0] + k[1]; });
        } else if (base("v_add_lshl_u32") && n(3)) {
            const Reg sum = apply({v[0], v[1]}, Kind::Additive, [](K k) { return k[0] + k[1]; });
            result = apply({sum, v[2]}, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)); }, 0);
        } else if (base("v_lshl_or_b32") && n(3)) {
            result = apply(v, Kind::Other, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)) | k[2]; });
        } else if (base("v_and_or_b32") && n(3)) {
            result = apply(v, Kind::Other, [](K k) { return (k[0] & k[1]) | k[2]; });
        } else if (base("v_or3_b32") && n(3)) {
            result = apply(v, Kind::Other, [](K k) { return k[0] | k[1] | k[2]; });
        } else if ((base("v_bfe_u32") || base("v_bfe_i32")) && n(3)) {
            const bool sign = base("v_bfe_i32");
            result = apply(v, Kind::Other, [sign](K k) {
                const int offset = static_cast<int>(k[1] & 31), width = static_cast<int>(k[2] & 31);
                if (width == 0)
                    return std::int64_t {0};
                const std::uint32_t field = (u32(k[0]) >> offset) & ((1u << width) - 1u);
                if (sign && (field >> (width - 1)) & 1u)
                    return static_cast<std::int64_t>(static_cast<std::int32_t>(field | ~((1u << width) - 1u)));
                return static_cast<std::int64_t>(field);
            });
        } else if ((base("v_mbcnt_lo_u32_b32") || base("v_mbcnt_hi_u32_b32")) && n(2)) {
            // Lane id idiom: mbcnt_lo(mask, c) counts mask bits of lanes below this one (0–31),
            // mbcnt_hi the lanes 32–63 below it.
            const bool hi = base("v_mbcnt_hi");
            if (isUniformKnown(v[0])) {
                const std::uint32_t mask = u32(v[0].lanes[0].k);
                Reg r = v[1];
                for (int lane = 0; lane < 64; ++lane) {
                    const int below = hi ? std::clamp(lane - 32, 0, 32) : std::min(lane, 32);
                    const std::uint32_t bits = below >= 32 ? mask : mask & ((1u << below) - 1u);
                    r.lanes[lane].k = static_cast<std::int64_t>(u32(r.lanes[lane].k + std::popcount(bits)));
                }
                result = r;
            }
        } else if (base("v_readfirstlane_b32") && n(1)) {
            const Val first = v[0].lanes[0];
            result = uniform(first.state == State::Unknown ? State::Offset : first.state, first.state == State::Unknown ? 0 : first.k,
                             "s" + std::to_string(dst.index) + " (v_readfirstlane_b32)");
        }

        if (!result) {
            setDefsUnknown(in);
            return;
        }
        if (scalar && !isUniform(*result))
            *result = uniform(State::Offset, 0, "s" + std::to_string(dst.index) + " (" + m + ")");
        if (scalar && result->lanes[0].state == State::Unknown)
            *result = uniform(State::Offset, 0, "s" + std::to_string(dst.index) + " (" + m + ")");
        (scalar ? sgprs_ : vgprs_)[dst.index] = *result;
        // Other defs (carry outs, SCC) are not tracked; a second VGPR of a 64-bit result is unknown.
        for (const RegRange& d : in.defs)
            if (d.kind == RegKind::VGPR && d.count > 1)
                for (int r = d.first + 1; r < d.first + d.count; ++r)
                    vgprs_[r] = uniform(State::Unknown);
    }

    std::optional<LdsAccessResult> analyzeDs(const Instruction& in)
    {
        LdsOp op = parseLdsOp(in.mnemonic + " " + in.operands);
        if (!op.error.empty())
            return std::nullopt; // no per-lane LDS address (swizzle, permute, gds, …)
        const ParsedOperands p = splitOperands(in.operands);
        const std::size_t index = op.addressFirst ? 0 : 1;
        std::vector<std::optional<std::int64_t>> base(64);
        std::string origin;
        bool anyOffset = false;
        if (index < p.ops.size() && p.ops[index].kind == Operand::Vgpr) {
            const Reg addr = value(p.ops[index]);
            origin = addr.origin;
            for (int lane = 0; lane < 64; ++lane) {
                const Val& v = addr.lanes[lane];
                if (v.state != State::Unknown)
                    base[lane] = static_cast<std::int64_t>(u32(v.k));
                anyOffset = anyOffset || v.state == State::Offset;
            }
        }
        LdsAccessResult result = analyzeLdsAddresses(op, base, options_.groupDwords);
        result.op = in.mnemonic;
        if (anyOffset)
            appendNote(result, (origin.empty() ? std::string("a uniform unknown") : origin) +
                                   " treated as a common offset 0 (a uniform, dword-aligned offset does not change which lanes conflict)");
        if (!result.allKnown)
            appendNote(result, "some lanes' addresses depend on unknown per-lane data: degree counts known lanes only");
        return result;
    }

    const Program& program_;
    LdsKernelOptions options_;
    std::map<int, Reg> vgprs_, sgprs_;
};

} // namespace

std::map<int, LdsAccessResult> analyzeLdsInProgram(const Program& program, const LdsKernelOptions& options)
{
    std::map<int, LdsAccessResult> out;
    KernelEvaluator evaluator(program, options);
    if (program.kernels.empty()) {
        evaluator.run(0, static_cast<int>(program.instructions.size()), out);
    } else {
        for (const Kernel& k : program.kernels)
            evaluator.run(k.firstInstruction, std::min(k.endInstruction, static_cast<int>(program.instructions.size())), out);
    }
    return out;
}

} // namespace gcnlens
