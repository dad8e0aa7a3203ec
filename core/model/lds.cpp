// SPDX-License-Identifier: MIT
// LDS bank conflicts, timing-model.md section 7: bank(addr) = (addr >> 2) & 31, row = addr >> 7;
// a group's degree is the most distinct rows one bank must serve (same dword = broadcast); the
// access costs the sum of its groups' degrees. Addresses come from a typed pattern or from the
// kernel's own VALU code (see analyzeLdsInProgram below).
#include "core/model/lds.h"

#include "core/model/commonends.h"
#include "core/support/text.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <limits>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace gcnlens {

// --- pattern expressions -------------------------------------------------------------------------

namespace {

// Recursive descent with C precedence: | < ^ < & < shifts < + - < * / % < unary.
class PatternParser {
public:
    PatternParser(const std::string& text, const std::map<std::string, std::int64_t>& params)
        : text_(text)
        , params_(params)
    {
    }

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
    struct Op {
        const char* text;
        int level;
    };
    static constexpr Op kOps[] = {{"<<", 3}, {">>", 3}, {"|", 0}, {"^", 1}, {"&", 2},
                                  {"+", 4},  {"-", 4},  {"*", 5}, {"/", 5}, {"%", 5}};

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
            // Results beyond 64 bits are an error, not a wrapped address (signed overflow is UB).
            bool overflow = false;
            if (o == "+")
                overflow = __builtin_add_overflow(left, right, &left);
            else if (o == "-")
                overflow = __builtin_sub_overflow(left, right, &left);
            else if (o == "*")
                overflow = __builtin_mul_overflow(left, right, &left);
            else if ((o == "/" || o == "%") && left == std::numeric_limits<std::int64_t>::min() && right == -1)
                overflow = true;
            else if (o == "/")
                left /= right;
            else if (o == "%")
                left %= right;
            else if (o == "<<")
                left <<= right;
            else if (o == ">>")
                left >>= right;
            else if (o == "&")
                left &= right;
            else if (o == "|")
                left |= right;
            else
                left ^= right;
            if (overflow) {
                fail("the value overflows 64 bits", at);
                break;
            }
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
            const std::size_t at = pos_++;
            const std::int64_t v = parseUnary();
            if (c == '-' && v == std::numeric_limits<std::int64_t>::min()) {
                fail("the value overflows 64 bits", at);
                return 0;
            }
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
                if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, digit, &v)) {
                    fail("number too large (64 bits)", start);
                    return 0;
                }
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

bool startsWith(const std::string& s, const char* prefix)
{
    return s.rfind(prefix, 0) == 0;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
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
        const char d = text[i];
        int digit = -1;
        if (detail::isAsciiDigit(d))
            digit = d - '0';
        else if (d >= 'a' && d <= 'f')
            digit = d - 'a' + 10;
        else if (d >= 'A' && d <= 'F')
            digit = d - 'A' + 10;
        if (digit < 0 || digit >= base)
            return std::nullopt;
        if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, digit, &v))
            return std::nullopt; // beyond 64 bits: not a number
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
        if (s == "8")
            return 1;
        if (s == "16")
            return 2;
        if (s == "32")
            return 4;
        if (s == "64")
            return 8;
        if (s == "96")
            return 12;
        if (s == "128")
            return 16;
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
        if (key == "offset")
            op.offset = *value;
        else if (key == "offset0")
            op.offset0 = *value;
        else
            op.offset1 = *value;
    }
    return op;
}

int ldsLanesPerGroup(int dwords, int groupDwords)
{
    const int perLane = dwords <= 1 ? 1 : dwords == 2 ? 2 : 4;
    return std::clamp(groupDwords / perLane, 1, 64);
}

LdsPhases ldsPhasesFor(Generation generation, const std::string& option)
{
    if (option == "gcn")
        return LdsPhases::Gcn;
    if (option == "cdna")
        return LdsPhases::Cdna;
    return generation == Generation::CDNA ? LdsPhases::Cdna : LdsPhases::Gcn;
}

std::string laneGroupText(const LaneGroup& group)
{
    std::string out;
    const InternedArray<int>& m = group.members;
    for (std::size_t i = 0; i < m.size();) {
        std::size_t j = i;
        while (j + 1 < m.size() && m[j + 1] == m[j] + 1)
            ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(m[i]) + (j > i ? "-" + std::to_string(m[j]) : "");
        i = j + 1;
    }
    return out;
}

std::string_view ldsPhasesName(LdsPhases phases)
{
    return phases == LdsPhases::Cdna ? "cdna" : "gcn";
}

std::vector<std::vector<int>> ldsLaneGroups(const LdsOp& op, int groupDwords, LdsPhases phases)
{
    std::vector<std::vector<int>> groups;
    const bool read128 =
        op.dwords == 4 && op.widthBytes == 16 && !op.twoAccesses && !op.addressFirst && op.name.starts_with("ds_read");
    if (phases == LdsPhases::Cdna && read128 && groupDwords == 32) {
        // Quads q of each 32-lane half, paired (0,5), (1,4), (2,7), (3,6) (docs/model.md L-phases).
        static constexpr int kPairs[4][2] = {{0, 5}, {1, 4}, {2, 7}, {3, 6}};
        for (int half = 0; half < 64; half += 32)
            for (const auto& pair : kPairs) {
                std::vector<int> lanes;
                for (int q : pair)
                    for (int l = 0; l < 4; ++l)
                        lanes.push_back(half + 4 * q + l);
                std::sort(lanes.begin(), lanes.end());
                groups.push_back(std::move(lanes));
            }
        return groups;
    }
    const int lanesPerGroup = ldsLanesPerGroup(op.dwords, groupDwords);
    for (int first = 0; first < 64; first += lanesPerGroup) {
        std::vector<int> lanes;
        for (int lane = first; lane < std::min(first + lanesPerGroup, 64); ++lane)
            lanes.push_back(lane);
        groups.push_back(std::move(lanes));
    }
    return groups;
}

// --- the bank model ------------------------------------------------------------------------------

namespace {

void addGroups(std::vector<LaneGroup>& groups, std::vector<InternedArray<int>>& bankRows, std::vector<int>& bankLoad,
               const std::vector<LaneAccess>& lanes, int dwords, const std::vector<std::vector<int>>& laneGroups)
{
    // The distinct rows per bank: each bank's rows so far in a list (one per hit at most, and
    // most banks see one or two rows), a hit counting when its row is not in its bank's list yet.
    std::vector<std::int64_t> rows;
    std::vector<int> next;
    for (const std::vector<int>& members : laneGroups) {
        LaneGroup group;
        group.firstLane = members.empty() ? 0 : members.front();
        group.lanes = static_cast<int>(members.size());
        group.members = members;
        rows.clear();
        next.clear();
        std::array<int, 32> head;
        head.fill(-1);
        std::vector<int> perBank(32);
        for (const int lane : members) {
            const LaneAccess& a = lanes[lane];
            if (!a.known)
                continue;
            for (int d = 0; d < dwords; ++d) {
                const std::int64_t dword = (a.address >> 2) + d;
                const int bank = static_cast<int>(dword & 31);
                const std::int64_t row = dword >> 5; // addr >> 7; the same dword twice is a broadcast
                ++bankLoad[bank];
                int at = head[std::size_t(bank)];
                while (at >= 0 && rows[std::size_t(at)] != row)
                    at = next[std::size_t(at)];
                if (at >= 0)
                    continue;
                rows.push_back(row);
                next.push_back(head[std::size_t(bank)]);
                head[std::size_t(bank)] = int(rows.size()) - 1;
                ++perBank[std::size_t(bank)];
            }
        }
        for (int b = 0; b < 32; ++b)
            group.degree = std::max(group.degree, perBank[b]);
        bankRows.push_back(InternedArray<int>(perBank));
        groups.push_back(group);
    }
}

std::vector<LaneAccess> makeLanes(const std::vector<std::optional<std::int64_t>>& addresses, int dwords)
{
    std::vector<LaneAccess> lanes(64);
    for (int lane = 0; lane < 64; ++lane) {
        LaneAccess& a = lanes[lane];
        a.lane = std::uint8_t(lane);
        a.dwords = std::uint8_t(dwords);
        if (lane < static_cast<int>(addresses.size()) && addresses[lane]) {
            a.known = true;
            a.address = *addresses[lane];
        }
    }
    return lanes;
}

} // namespace

LdsAccessResult analyzeLdsAddresses(const LdsOp& op, const std::vector<std::optional<std::int64_t>>& base, int groupDwords,
                                    LdsPhases phases)
{
    LdsAccessResult result;
    result.op = op.name;
    result.widthBytes = op.widthBytes;
    if (!op.error.empty()) {
        result.error = op.error;
        return result;
    }
    std::vector<int> bankLoad(32);
    std::vector<LaneGroup> groups;
    std::vector<InternedArray<int>> bankRows;
    result.twoAccesses = op.twoAccesses;
    const auto laneGroups = ldsLaneGroups(op, groupDwords, phases);
    // Offsets and addresses add modulo 2^64: a typed offset or pattern may be any 64-bit value, and
    // signed overflow would be undefined (no real LDS address comes near it).
    const auto wrapping = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
    auto shifted = [&](std::int64_t by) {
        std::vector<std::optional<std::int64_t>> out(64);
        for (int lane = 0; lane < 64 && lane < static_cast<int>(base.size()); ++lane)
            if (base[lane])
                out[lane] = wrapping(static_cast<std::uint64_t>(*base[lane]) + static_cast<std::uint64_t>(by));
        return out;
    };
    if (op.twoAccesses) {
        // read2/write2: two accesses, each offset in elements (×64 for st64).
        const std::uint64_t scale = static_cast<std::uint64_t>(op.widthBytes) * (op.st64 ? 64 : 1);
        const auto first = makeLanes(shifted(wrapping(static_cast<std::uint64_t>(op.offset0) * scale)), op.dwords);
        const auto second = makeLanes(shifted(wrapping(static_cast<std::uint64_t>(op.offset1) * scale)), op.dwords);
        addGroups(groups, bankRows, bankLoad, first, op.dwords, laneGroups);
        result.groupsPerAccess = static_cast<int>(groups.size());
        addGroups(groups, bankRows, bankLoad, second, op.dwords, laneGroups);
        result.lanes = first;
        result.secondLanes = second;
    } else {
        const auto lanes = makeLanes(shifted(op.offset), op.dwords);
        addGroups(groups, bankRows, bankLoad, lanes, op.dwords, laneGroups);
        result.groupsPerAccess = static_cast<int>(groups.size());
        result.lanes = lanes;
    }
    result.groups = groups;
    result.bankRows = bankRows;
    result.bankLoad = bankLoad;
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
                                  const std::map<std::string, std::int64_t>& parameters, int groupDwords, LdsPhases phases)
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
    return analyzeLdsAddresses(op, base, groupDwords, phases);
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
    bool operator==(const Val&) const = default;
};

struct Reg {
    std::array<Val, 64> lanes {};
    std::string origin; // the SGPR whose uniform unknown this carries
    bool operator==(const Reg&) const = default;
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

bool isUniformKnown(const Reg& r)
{
    return isUniform(r) && r.lanes[0].state == State::Known;
}

std::uint32_t u32(std::int64_t v)
{
    return static_cast<std::uint32_t>(v);
}

const Reg& unknownReg()
{
    static const Reg r = uniform(State::Unknown);
    return r;
}

const Reg& fullExecReg()
{
    static const Reg r = uniform(State::Known, -1); // EXEC assumed full
    return r;
}

// The register file of the evaluation. Registers are shared (copy on write) between the running
// state and the checkpoints LdsProgramAnalyzer keeps, so a checkpoint costs a map of pointers.
using RegPtr = std::shared_ptr<Reg>;
using RegMap = std::map<int, RegPtr>;

struct RegFile {
    RegMap vgprs, sgprs;

    static bool same(const RegMap& a, const RegMap& b)
    {
        if (a.size() != b.size())
            return false;
        for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
            if (i->first != j->first || (i->second != j->second && !(*i->second == *j->second)))
                return false;
        return true;
    }
    bool operator==(const RegFile& other) const { return same(vgprs, other.vgprs) && same(sgprs, other.sgprs); }

    static void set(RegMap& map, int index, Reg&& value)
    {
        RegPtr& slot = map[index];
        if (slot && slot.use_count() == 1) // held by nothing else: overwrite in place
            *slot = std::move(value);
        else
            slot = std::make_shared<Reg>(std::move(value));
    }
    // An unknown VGPR is an absent one (value() reads absent VGPRs as unknown): states that differ
    // only in dead unknowns then compare equal, which lets the incremental path stop early.
    static void setUnknownVgpr(RegMap& vgprs, int index) { vgprs.erase(index); }
};

struct Operand {
    enum Kind { None, Vgpr, Sgpr, Literal, Other } kind = None;
    int index = 0;
    int count = 1;
    std::int64_t value = 0;
    bool exec = false; // exec, exec_lo, exec_hi
};

// An instruction's operands: the first word of each comma-separated part (modifiers such as
// "offset:16" or "offen" that follow it are not operands). Parsed from views, without allocating.
struct Operands {
    static constexpr int kStored = 8;
    std::array<Operand, kStored> op {};
    int count = 0; // every operand; only the first kStored are kept (no rule reads further)
    void push(const Operand& o)
    {
        if (count < kStored)
            op[static_cast<std::size_t>(count)] = o;
        ++count;
    }
};

Operand parseOperand(std::string_view text)
{
    Operand op;
    if (text.empty())
        return op;
    auto regIndex = [&](std::size_t from) -> std::optional<int> {
        std::string_view digits = text.substr(from);
        if (!digits.empty() && digits[0] == '[')
            digits = digits.substr(1, digits.find(':') - 1);
        const auto v = parseInteger(digits);
        return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
    };
    if ((text[0] == 'v' || text[0] == 's') && text.size() > 1 && (detail::isAsciiDigit(text[1]) || text[1] == '[')) {
        if (const auto i = regIndex(1)) {
            op.kind = text[0] == 'v' ? Operand::Vgpr : Operand::Sgpr;
            op.index = *i;
            if (const auto colon = text.find(':'); colon != std::string_view::npos)
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
    op.exec = text[0] == 'e' && (text == "exec" || text == "exec_lo" || text == "exec_hi");
    return op;
}

Operands splitOperands(std::string_view text)
{
    Operands out;
    auto part = [&](std::string_view p) {
        // The first word at bracket depth 0 is the operand.
        int d = 0;
        std::size_t begin = std::string_view::npos, end = p.size();
        for (std::size_t i = 0; i < p.size(); ++i) {
            const char c = p[i];
            if (c == '[' || c == '(')
                ++d;
            if (c == ']' || c == ')')
                --d;
            if (detail::isAsciiSpace(c) && d == 0) {
                if (begin != std::string_view::npos) {
                    end = i;
                    break;
                }
            } else if (begin == std::string_view::npos) {
                begin = i;
            }
        }
        if (begin != std::string_view::npos)
            out.push(parseOperand(p.substr(begin, end - begin)));
    };
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[' || c == '(')
            ++depth;
        if (c == ']' || c == ')')
            --depth;
        if (c == ',' && depth == 0) {
            part(text.substr(start, i - start));
            start = i + 1;
        }
    }
    part(text.substr(start));
    return out;
}

// What step() does with a mnemonic, decided once per distinct mnemonic. Each rule matches by
// prefix (the encoding suffixes _e32/_e64/… follow); no two rules' prefixes overlap.
enum class Rule : std::uint8_t {
    None,
    Mov,
    Add,
    Sub,
    SubRev,
    Add3,
    LshlRev,
    Lshl,
    LshrRev,
    Lshr,
    AshrRev,
    Ashr,
    And,
    Or,
    Xor,
    MulLo,
    Mul24,
    Mad24,
    LshlAdd,
    AddLshl,
    LshlOr,
    AndOr,
    Or3,
    Bfe,
    Mbcnt,
    ReadFirstLane
};

struct MnemonicInfo {
    Rule rule = Rule::None;
    bool carryOut = false; // VOP2 carry adds: the VCC/SGPR carry-out operand comes first
    bool movk = false;     // s_movk_i32: a 16-bit signed immediate
    bool isSigned = false; // v_mul_i32_i24, v_mad_i32_i24, v_bfe_i32
    bool mbcntHi = false;
    bool ds = false;      // ds_*
    bool dsStore = false; // a ds_* whose first operand is the address (writes, atomics without return)
};

MnemonicInfo classify(const std::string& m)
{
    MnemonicInfo info;
    auto base = [&](const char* prefix) { return startsWith(m, prefix); };
    auto any = [&](std::initializer_list<const char*> prefixes) {
        return std::any_of(prefixes.begin(), prefixes.end(), [&](const char* p) { return base(p); });
    };
    struct Entry {
        Rule rule;
        std::initializer_list<const char*> prefixes;
    };
    const Entry table[] = {
        {Rule::Mov, {"v_mov_b32", "s_mov_b32", "s_movk_i32"}},
        {Rule::Add, {"v_add_i32", "v_add_u32", "v_add_co_u32", "s_add_u32", "s_add_i32"}},
        {Rule::Sub, {"v_sub_i32", "v_sub_u32", "v_sub_co_u32", "s_sub_u32", "s_sub_i32"}},
        {Rule::SubRev, {"v_subrev_i32", "v_subrev_u32", "v_subrev_co_u32"}},
        {Rule::Add3, {"v_add3_u32"}},
        {Rule::LshlRev, {"v_lshlrev_b32"}},
        {Rule::Lshl, {"v_lshl_b32", "s_lshl_b32"}},
        {Rule::LshrRev, {"v_lshrrev_b32"}},
        {Rule::Lshr, {"v_lshr_b32", "s_lshr_b32"}},
        {Rule::AshrRev, {"v_ashrrev_i32"}},
        {Rule::Ashr, {"v_ashr_i32", "s_ashr_i32"}},
        {Rule::And, {"v_and_b32", "s_and_b32"}},
        {Rule::Or, {"v_or_b32", "s_or_b32"}},
        {Rule::Xor, {"v_xor_b32", "s_xor_b32"}},
        {Rule::MulLo, {"v_mul_lo_u32", "v_mul_lo_i32", "s_mul_i32"}},
        {Rule::Mul24, {"v_mul_u32_u24", "v_mul_i32_i24"}},
        {Rule::Mad24, {"v_mad_u32_u24", "v_mad_i32_i24"}},
        {Rule::LshlAdd, {"v_lshl_add_u32"}},
        {Rule::AddLshl, {"v_add_lshl_u32"}},
        {Rule::LshlOr, {"v_lshl_or_b32"}},
        {Rule::AndOr, {"v_and_or_b32"}},
        {Rule::Or3, {"v_or3_b32"}},
        {Rule::Bfe, {"v_bfe_u32", "v_bfe_i32"}},
        {Rule::Mbcnt, {"v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32"}},
        {Rule::ReadFirstLane, {"v_readfirstlane_b32"}},
    };
    for (const Entry& e : table)
        if (any(e.prefixes)) {
            info.rule = e.rule;
            break;
        }
    info.carryOut = any({"v_add_i32", "v_add_u32", "v_add_co_u32", "v_sub_i32", "v_sub_u32", "v_sub_co_u32", "v_subrev_i32",
                         "v_subrev_u32", "v_subrev_co_u32"});
    info.movk = base("s_movk_i32");
    info.isSigned = any({"v_mul_i32_i24", "v_mad_i32_i24", "v_bfe_i32"});
    info.mbcntHi = base("v_mbcnt_hi");
    info.ds = base("ds_");
    info.dsStore = info.ds && parseLdsOp(m).addressFirst;
    return info;
}

constexpr const char* kLoopNote = "inside a loop: addresses of the first iteration";

void appendNote(LdsAccessResult& r, const std::string& text)
{
    if (r.note.find(text) == std::string::npos)
        r.note = r.note.str() + (r.note.empty() ? "" : "; ") + text;
}

// Loops: [target, branch] ranges of backward branches inside [first, end); a DS access in one is
// flagged as evaluated for the first iteration. mask[i - first] says whether i lies in any.
std::vector<char> loopMask(const Program& program, int first, int end)
{
    std::vector<int> delta(static_cast<std::size_t>(std::max(end - first, 0)) + 1, 0);
    for (int i = first; i < end; ++i) {
        const Instruction& in = program.instructions[static_cast<std::size_t>(i)];
        if (in.backward && in.targetIndex() >= first && in.targetIndex() <= i) {
            ++delta[static_cast<std::size_t>(in.targetIndex() - first)];
            --delta[static_cast<std::size_t>(i - first + 1)];
        }
    }
    std::vector<char> mask(delta.size() - 1);
    int depth = 0;
    for (std::size_t i = 0; i < mask.size(); ++i) {
        depth += delta[i];
        mask[i] = depth > 0;
    }
    return mask;
}

// A checkpoint: the register file before the instruction at `index` when evaluating the kernel
// that starts at `first`.
struct Checkpoint {
    int first = 0;
    int index = 0;
    std::shared_ptr<const RegFile> state;
};

// Parsed DS operations by their text: the mnemonic's interned handle above the operands'.
using LdsOpCache = std::unordered_map<std::uint64_t, LdsOp>;

class KernelEvaluator {
public:
    KernelEvaluator(const Program& program, const LdsKernelOptions& options,
                    std::unordered_map<InternedString, MnemonicInfo>& mnemonics, LdsOpCache& ops)
        : program_(program)
        , options_(options)
        , mnemonics_(mnemonics)
        , ops_(ops)
    {
    }

    // Every `interval` instructions from the kernel's first (0: never) the state is saved.
    void setCheckpoints(std::vector<Checkpoint>* out, int interval)
    {
        checkpoints_ = out;
        interval_ = interval;
    }

    void reset()
    {
        regs_ = RegFile {};
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
        RegFile::set(regs_.vgprs, 0, std::move(vx));
        if (!packed && Y > 1)
            RegFile::set(regs_.vgprs, 1, std::move(vy));
        if (!packed && Z > 1)
            RegFile::set(regs_.vgprs, 2, std::move(vz));
    }
    void restore(const RegFile& state) { regs_ = state; }
    const RegFile& state() const { return regs_; }

    // One instruction of the kernel starting at `first`: its DS result (without the loop note),
    // then its effect on the registers.
    void evaluate(int first, int i, const std::vector<char>& loops, LdsResults& out)
    {
        if (checkpoints_ && interval_ > 0 && (i - first) % interval_ == 0
            && (checkpoints_->empty() || checkpoints_->back().index != i || checkpoints_->back().first != first)) {
            shareEqual(regs_.vgprs);
            shareEqual(regs_.sgprs);
            checkpoints_->push_back({first, i, std::make_shared<const RegFile>(regs_)});
        }
        ++evaluated;
        const Instruction& in = program_.instructions[static_cast<std::size_t>(i)];
        if (in.isData || in.placeholder)
            return;
        const MnemonicInfo& info = mnemonic(in.mnemonic);
        const bool ds = in.family == Family::DS || info.ds;
        if (!ds && info.rule == Rule::None) {
            // (what step() does with no rule; the operands are read only for an instruction
            // without def lists, whose first register operand stands for its destination)
            static const Operands kUnread;
            if (in.defs.empty())
                setDefsUnknown(in, info, splitOperands(in.operands));
            else
                setDefsUnknown(in, info, kUnread);
            return;
        }
        const Operands ops = splitOperands(in.operands);
        if (ds) {
            if (auto result = analyzeDs(in, ops)) {
                if (loops[static_cast<std::size_t>(i - first)])
                    appendNote(*result, kLoopNote);
                out.add(i, std::move(*result));
            }
        }
        step(in, info, ops);
    }

    void run(int first, int end, LdsResults& out)
    {
        reset();
        const std::vector<char> loops = loopMask(program_, first, end);
        for (int i = first; i < end; ++i)
            evaluate(first, i, loops, out);
    }

private:
    const MnemonicInfo& mnemonic(InternedString m)
    {
        // A direct-mapped cache by handle in front of the map: one compare for a recent mnemonic.
        auto& [handle, info] = recentMnemonics_[m.handle() % recentMnemonics_.size()];
        if (info && handle == m.handle())
            return *info;
        auto it = mnemonics_.find(m);
        if (it == mnemonics_.end())
            it = mnemonics_.emplace(m, classify(m.str())).first;
        handle = m.handle();
        info = &it->second; // (a map's elements stay where they are)
        return *info;
    }

    // The register's value; `scratch` holds it when it is not a register of the file (made only
    // then: a Reg is a kilobyte to clear).
    const Reg& value(const Operand& op, std::optional<Reg>& scratch) const
    {
        switch (op.kind) {
        case Operand::Vgpr: {
            const auto it = regs_.vgprs.find(op.index);
            return it != regs_.vgprs.end() ? *it->second : unknownReg();
        }
        case Operand::Sgpr: {
            const auto it = regs_.sgprs.find(op.index);
            if (it != regs_.sgprs.end())
                return *it->second;
            // Never written in the kernel: an entry value (kernel argument pointer, workgroup id …).
            return scratch.emplace(uniform(State::Offset, 0, "s" + std::to_string(op.index)));
        }
        case Operand::Literal:
            return scratch.emplace(uniform(State::Known, op.value));
        default:
            return op.exec ? fullExecReg() : unknownReg();
        }
    }

    // Applies f lane by lane. `kind` says how uniform unknowns propagate through the operation.
    enum class Kind { Additive, Scale, Other };
    using Inputs = std::array<const Reg*, 3>;
    template <typename F> Reg apply(const Inputs& in, std::size_t count, Kind kind, F f, int scaledOperand = 0)
    {
        Reg out;
        for (std::size_t j = 0; j < count; ++j)
            if (!in[j]->origin.empty()) {
                out.origin = in[j]->origin;
                break;
            }
        bool allUniform = true;
        for (std::size_t j = 0; j < count; ++j)
            allUniform = allUniform && isUniform(*in[j]);
        // (k + U)·c stays "known + uniform" only when the other factors are known and uniform.
        bool othersUniformKnown = true;
        if (kind == Kind::Scale)
            for (std::size_t j = 0; j < count; ++j)
                if (static_cast<int>(j) != scaledOperand)
                    othersUniformKnown = othersUniformKnown && isUniformKnown(*in[j]);
        for (int lane = 0; lane < 64; ++lane) {
            std::array<std::int64_t, 4> k {};
            bool unknown = false, offset = false;
            for (std::size_t j = 0; j < count; ++j) {
                const Val& v = in[j]->lanes[lane];
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
                o.state = othersUniformKnown ? State::Offset : State::Unknown;
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

    void setUnknown(const Instruction& in, const RegRange& d)
    {
        for (int r = d.first; r < d.first + d.count; ++r) {
            if (d.kind == RegKind::VGPR)
                RegFile::setUnknownVgpr(regs_.vgprs, r);
            else if (d.kind == RegKind::SGPR) // SGPRs are uniform by nature
                RegFile::set(regs_.sgprs, r, uniform(State::Offset, 0, "s" + std::to_string(r) + " (" + in.mnemonic + ")"));
        }
    }
    void setDefsUnknown(const Instruction& in, const MnemonicInfo& info, const Operands& ops)
    {
        if (!in.defs.empty()) {
            for (const RegRange& d : in.defs)
                setUnknown(in, d);
            return;
        }
        // Hand-built or unresolved instructions without def lists: the first register operand is
        // the destination, except for stores and atomics without return (their first is the address).
        const bool store = info.dsStore;
        if (!store && ops.count > 0 && (ops.op[0].kind == Operand::Vgpr || ops.op[0].kind == Operand::Sgpr))
            setUnknown(in,
                       {ops.op[0].kind == Operand::Vgpr ? RegKind::VGPR : RegKind::SGPR, std::uint32_t(ops.op[0].index),
                        std::uint32_t(ops.op[0].count)});
    }

    void step(const Instruction& in, const MnemonicInfo& info, const Operands& ops)
    {
        const std::string& m = in.mnemonic;
        if (ops.count == 0 || (ops.op[0].kind != Operand::Vgpr && ops.op[0].kind != Operand::Sgpr)) {
            setDefsUnknown(in, info, ops);
            return;
        }
        const Operand dst = ops.op[0];
        // Operands after the destination; VOPC-style carry outs (vcc, s[0:1]) dropped for add/sub.
        int firstSrc = 1;
        int n = ops.count - 1;
        if (info.carryOut && n == 3) {
            ++firstSrc;
            --n;
        }
        // Every rule takes one to three sources.
        if (info.rule == Rule::None || n < 1 || n > 3) {
            setDefsUnknown(in, info, ops);
            return;
        }
        std::array<std::optional<Reg>, 3> scratch;
        Inputs v {};
        for (int j = 0; j < n; ++j)
            v[static_cast<std::size_t>(j)] =
                &value(ops.op[static_cast<std::size_t>(firstSrc + j)], scratch[static_cast<std::size_t>(j)]);
        const Operand& src0 = ops.op[static_cast<std::size_t>(firstSrc)];
        const std::size_t count = static_cast<std::size_t>(n);
        using K = std::array<std::int64_t, 4>;
        std::optional<Reg> result;
        const bool scalar = dst.kind == Operand::Sgpr;
        auto u24 = [](std::int64_t x) { return static_cast<std::int64_t>(u32(x) & 0xffffffu); };
        auto i24 = [](std::int64_t x) { return static_cast<std::int64_t>(static_cast<std::int32_t>(u32(x) << 8) >> 8); };
        const bool sign = info.isSigned;

        switch (info.rule) {
        case Rule::Mov:
            if (n == 1) {
                result = *v[0];
                if (info.movk && src0.kind == Operand::Literal)
                    result = uniform(State::Known, static_cast<std::int16_t>(src0.value));
            }
            break;
        case Rule::Add:
            if (n == 2)
                result = apply(v, count, Kind::Additive, [](K k) { return k[0] + k[1]; });
            break;
        case Rule::Sub:
            if (n == 2)
                result = apply(v, count, Kind::Additive, [](K k) { return k[0] - k[1]; });
            break;
        case Rule::SubRev:
            if (n == 2)
                result = apply(v, count, Kind::Additive, [](K k) { return k[1] - k[0]; });
            break;
        case Rule::Add3:
            if (n == 3)
                result = apply(v, count, Kind::Additive, [](K k) { return k[0] + k[1] + k[2]; });
            break;
        case Rule::LshlRev:
            if (n == 2)
                result = apply(v, count, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[1]) << (k[0] & 31)); }, 1);
            break;
        case Rule::Lshl:
            if (n == 2)
                result = apply(v, count, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)); }, 0);
            break;
        case Rule::LshrRev:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) { return static_cast<std::int64_t>(u32(k[1]) >> (k[0] & 31)); });
            break;
        case Rule::Lshr:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) { return static_cast<std::int64_t>(u32(k[0]) >> (k[1] & 31)); });
            break;
        case Rule::AshrRev:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) {
                    return static_cast<std::int64_t>(static_cast<std::int32_t>(u32(k[1])) >> (k[0] & 31));
                });
            break;
        case Rule::Ashr:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) {
                    return static_cast<std::int64_t>(static_cast<std::int32_t>(u32(k[0])) >> (k[1] & 31));
                });
            break;
        case Rule::And:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) { return k[0] & k[1]; });
            break;
        case Rule::Or:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) { return k[0] | k[1]; });
            break;
        case Rule::Xor:
            if (n == 2)
                result = apply(v, count, Kind::Other, [](K k) { return k[0] ^ k[1]; });
            break;
        case Rule::MulLo:
            if (n == 2) {
                // Either factor may carry the uniform unknown when the other is a known constant.
                const int scaled = isUniformKnown(*v[1]) ? 0 : 1;
                result = apply(v, count, Kind::Scale, [](K k) { return k[0] * k[1]; }, scaled);
            }
            break;
        case Rule::Mul24:
            if (n == 2)
                result = apply(v, count, Kind::Other, [&](K k) { return sign ? i24(k[0]) * i24(k[1]) : u24(k[0]) * u24(k[1]); });
            break;
        case Rule::Mad24:
            if (n == 3) {
                const Reg product =
                    apply(v, 2, Kind::Other, [&](K k) { return sign ? i24(k[0]) * i24(k[1]) : u24(k[0]) * u24(k[1]); });
                result = apply({&product, v[2]}, 2, Kind::Additive, [](K k) { return k[0] + k[1]; });
            }
            break;
        case Rule::LshlAdd:
            if (n == 3) {
                const Reg shifted =
                    apply(v, 2, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)); }, 0);
                result = apply({&shifted, v[2]}, 2, Kind::Additive, [](K k) { return k[0] + k[1]; });
            }
            break;
        case Rule::AddLshl:
            if (n == 3) {
                const Reg sum = apply(v, 2, Kind::Additive, [](K k) { return k[0] + k[1]; });
                result = apply(
                    {&sum, v[2]}, 2, Kind::Scale, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)); }, 0);
            }
            break;
        case Rule::LshlOr:
            if (n == 3)
                result =
                    apply(v, count, Kind::Other, [](K k) { return static_cast<std::int64_t>(u32(k[0]) << (k[1] & 31)) | k[2]; });
            break;
        case Rule::AndOr:
            if (n == 3)
                result = apply(v, count, Kind::Other, [](K k) { return (k[0] & k[1]) | k[2]; });
            break;
        case Rule::Or3:
            if (n == 3)
                result = apply(v, count, Kind::Other, [](K k) { return k[0] | k[1] | k[2]; });
            break;
        case Rule::Bfe:
            if (n == 3)
                result = apply(v, count, Kind::Other, [sign](K k) {
                    const int offset = static_cast<int>(k[1] & 31), width = static_cast<int>(k[2] & 31);
                    if (width == 0)
                        return std::int64_t {0};
                    const std::uint32_t field = (u32(k[0]) >> offset) & ((1u << width) - 1u);
                    if (sign && (field >> (width - 1)) & 1u)
                        return static_cast<std::int64_t>(static_cast<std::int32_t>(field | ~((1u << width) - 1u)));
                    return static_cast<std::int64_t>(field);
                });
            break;
        case Rule::Mbcnt:
            // Lane id idiom: mbcnt_lo(mask, c) counts mask bits of lanes below this one (0–31),
            // mbcnt_hi the lanes 32–63 below it.
            if (n == 2 && isUniformKnown(*v[0])) {
                const bool hi = info.mbcntHi;
                const std::uint32_t mask = u32(v[0]->lanes[0].k);
                Reg r = *v[1];
                for (int lane = 0; lane < 64; ++lane) {
                    const int below = hi ? std::clamp(lane - 32, 0, 32) : std::min(lane, 32);
                    const std::uint32_t bits = below >= 32 ? mask : mask & ((1u << below) - 1u);
                    r.lanes[lane].k = static_cast<std::int64_t>(u32(r.lanes[lane].k + std::popcount(bits)));
                }
                result = std::move(r);
            }
            break;
        case Rule::ReadFirstLane:
            if (n == 1) {
                const Val first = v[0]->lanes[0];
                result = uniform(first.state == State::Unknown ? State::Offset : first.state,
                                 first.state == State::Unknown ? 0 : first.k,
                                 "s" + std::to_string(dst.index) + " (v_readfirstlane_b32)");
            }
            break;
        case Rule::None:
            break;
        }

        if (!result) {
            setDefsUnknown(in, info, ops);
            return;
        }
        if (scalar && !isUniform(*result))
            *result = uniform(State::Offset, 0, "s" + std::to_string(dst.index) + " (" + m + ")");
        if (scalar && result->lanes[0].state == State::Unknown)
            *result = uniform(State::Offset, 0, "s" + std::to_string(dst.index) + " (" + m + ")");
        RegFile::set(scalar ? regs_.sgprs : regs_.vgprs, dst.index, std::move(*result));
        // Other defs (carry outs, SCC) are not tracked; a second VGPR of a 64-bit result is unknown.
        for (const RegRange& d : in.defs)
            if (d.kind == RegKind::VGPR && d.count > 1)
                for (int r = d.first + 1; r < d.first + d.count; ++r)
                    RegFile::setUnknownVgpr(regs_.vgprs, r);
    }

    std::optional<LdsAccessResult> analyzeDs(const Instruction& in, const Operands& ops)
    {
        const std::uint64_t key = std::uint64_t(in.mnemonic.handle()) << 32 | in.operands.handle();
        auto cached = ops_.find(key);
        if (cached == ops_.end())
            cached = ops_.emplace(key, parseLdsOp(in.mnemonic + " " + in.operands)).first;
        const LdsOp& op = cached->second;
        if (!op.error.empty())
            return std::nullopt; // no per-lane LDS address (swizzle, permute, gds, …)
        const int index = op.addressFirst ? 0 : 1;
        std::vector<std::optional<std::int64_t>> base(64);
        std::string origin;
        bool anyOffset = false;
        if (index < std::min(ops.count, Operands::kStored) && ops.op[static_cast<std::size_t>(index)].kind == Operand::Vgpr) {
            std::optional<Reg> scratch;
            const Reg& addr = value(ops.op[static_cast<std::size_t>(index)], scratch);
            origin = addr.origin;
            for (int lane = 0; lane < 64; ++lane) {
                const Val& v = addr.lanes[lane];
                if (v.state != State::Unknown)
                    base[lane] = static_cast<std::int64_t>(u32(v.k));
                anyOffset = anyOffset || v.state == State::Offset;
            }
        }
        LdsAccessResult result =
            analyzeLdsAddresses(op, base, options_.groupDwords, ldsPhasesFor(program_.gpu.generation, options_.phases));
        result.op = in.mnemonic;
        if (anyOffset)
            appendNote(
                result,
                (origin.empty() ? std::string("a uniform unknown") : origin)
                    + " treated as a common offset 0 (a uniform, dword-aligned offset does not change which lanes conflict)");
        if (!result.allKnown)
            appendNote(result, "some lanes' addresses depend on unknown per-lane data: degree counts known lanes only");
        return result;
    }

public:
    int evaluated = 0; // instructions evaluate() ran on

private:
    const Program& program_;
    LdsKernelOptions options_;
    std::unordered_map<InternedString, MnemonicInfo>& mnemonics_;
    std::array<std::pair<std::uint32_t, const MnemonicInfo*>, 64> recentMnemonics_ {};
    LdsOpCache& ops_;
    // A checkpoint keeps every register written after it alive (1 KB each): in a long kernel that
    // is most of the memory the incremental path holds. The registers take the same values again
    // and again (a loop body, an unrolled block), so equal ones in the checkpoints are one copy
    // (issue #18). Only registers not yet shared are hashed: those written since the last one.
    static std::size_t hashOf(const Reg& r)
    {
        std::size_t h = std::hash<std::string> {}(r.origin);
        for (const Val& v : r.lanes)
            h = (h ^ (std::size_t(v.k) * 0x9e3779b97f4a7c15ull + std::size_t(v.state))) * 0x100000001b3ull;
        return h;
    }
    void shareEqual(RegMap& map)
    {
        for (auto& [index, reg] : map) {
            if (sharedRegs_.contains(reg.get()))
                continue;
            const std::size_t h = hashOf(*reg);
            const auto [from, to] = regsByHash_.equal_range(h);
            const auto same = std::find_if(from, to, [&](const auto& entry) { return *entry.second == *reg; });
            if (same != to) {
                reg = same->second;
                continue;
            }
            regsByHash_.emplace(h, reg);
            sharedRegs_.insert(reg.get());
        }
    }

    RegFile regs_;
    std::vector<Checkpoint>* checkpoints_ = nullptr;
    int interval_ = 0;
    // The shared registers (held here too, so never written in place: RegFile::set copies them).
    std::unordered_multimap<std::size_t, RegPtr> regsByHash_;
    std::unordered_set<const Reg*> sharedRegs_;
};

// The instruction ranges evaluated: each kernel, or the whole program when it has none.
std::vector<std::pair<int, int>> kernelRanges(const Program& program)
{
    const int count = static_cast<int>(program.instructions.size());
    std::vector<std::pair<int, int>> ranges;
    if (program.kernels.empty())
        ranges.emplace_back(0, count);
    for (const Kernel& k : program.kernels)
        ranges.emplace_back(k.firstInstruction, std::min(k.endInstruction, count));
    return ranges;
}

// What the evaluator reads of an instruction (the loop flags are recomputed every run).
bool sameForLds(const Instruction& a, const Instruction& b)
{
    return a.isData == b.isData && a.placeholder == b.placeholder && a.family == b.family && a.mnemonic == b.mnemonic
        && a.operands == b.operands && a.defs == b.defs;
}

// A copied result's loop note follows the new program's loops (the note is always appended last).
void setLoopNote(LdsAccessResult& r, bool had, bool has)
{
    if (had == has)
        return;
    if (has) {
        appendNote(r, kLoopNote);
        return;
    }
    const std::string tail = std::string("; ") + kLoopNote;
    if (r.note == kLoopNote)
        r.note = {};
    else if (r.note.view().ends_with(tail))
        r.note = r.note.view().substr(0, r.note.size() - tail.size());
}

} // namespace

LdsResults analyzeLdsInProgram(const Program& program, const LdsKernelOptions& options)
{
    LdsResults out;
    std::unordered_map<InternedString, MnemonicInfo> mnemonics;
    LdsOpCache ops;
    KernelEvaluator evaluator(program, options, mnemonics, ops);
    for (const auto& [first, end] : kernelRanges(program))
        evaluator.run(first, end, out);
    out.seal();
    return out;
}

// --- the incremental path ------------------------------------------------------------------------

struct LdsProgramAnalyzer::Cache {
    // Instructions between checkpoints: 32, wider in long programs so they hold at most about
    // 2048 register files (each a few KB: at 32 a 1M-instruction kernel kept about 190 MB, issue
    // #18); an edit then re-evaluates at most two intervals (1M instructions: 512 each).
    static int interval(std::size_t instructions) { return int(std::max<std::size_t>(32, std::bit_ceil(instructions / 2048))); }
    bool valid = false;
    LdsKernelOptions options;
    Generation generation = Generation::GFX6;
    std::string processor;
    std::size_t instructions = 0;
    std::size_t results = 0;
    int evaluated = 0;
    std::vector<Checkpoint> checkpoints; // of the last program, by index
    std::unordered_map<InternedString, MnemonicInfo> mnemonics;
    LdsOpCache ops;
};

LdsProgramAnalyzer::LdsProgramAnalyzer()
    : cache_(std::make_unique<Cache>())
{
}
LdsProgramAnalyzer::~LdsProgramAnalyzer() = default;

int LdsProgramAnalyzer::evaluatedInstructions() const
{
    return cache_->evaluated;
}

LdsResults LdsProgramAnalyzer::analyze(const Program& program, const LdsKernelOptions& options, const Program* previous,
                                       const LdsResults* previousResult)
{
    Cache& c = *cache_;
    const auto sameOptions = [&](const LdsKernelOptions& a) {
        return a.workgroupX == options.workgroupX && a.workgroupY == options.workgroupY && a.workgroupZ == options.workgroupZ
            && a.groupDwords == options.groupDwords && a.phases == options.phases;
    };
    const bool incremental = c.valid && previous && previousResult && sameOptions(c.options)
        && c.generation == program.gpu.generation && c.processor == program.gpu.processor
        && previous->gpu.generation == program.gpu.generation && previous->gpu.processor == program.gpu.processor
        && c.instructions == previous->instructions.size() && c.results == previousResult->size();

    LdsResults out;
    std::vector<Checkpoint> checkpoints;
    KernelEvaluator evaluator(program, options, c.mnemonics, c.ops);
    evaluator.setCheckpoints(&checkpoints, Cache::interval(program.instructions.size()));
    const auto ranges = kernelRanges(program);
    const auto oldRanges = incremental ? kernelRanges(*previous) : decltype(ranges) {};

    if (!incremental || ranges.size() != oldRanges.size()) {
        for (const auto& [first, end] : ranges)
            evaluator.run(first, end, out);
    } else {
        // The unchanged head (p instructions) and tail (s instructions), and the tail's shift.
        const int n = static_cast<int>(program.instructions.size());
        const auto [p, s, delta] = detail::commonEnds(program.instructions, previous->instructions, sameForLds);
        const std::vector<Checkpoint>& old = c.checkpoints;
        const auto byIndex = [](const Checkpoint& k, int i) { return k.index < i; };

        for (std::size_t k = 0; k < ranges.size(); ++k) {
            const auto [first, end] = ranges[k];
            const auto [oldFirst, oldEnd] = oldRanges[k];
            const std::vector<char> loops = loopMask(program, first, end);
            const std::vector<char> oldLoops = loopMask(*previous, oldFirst, oldEnd);
            // Copies the previous results and checkpoints of this kernel's old indices [from, to),
            // moved to index + shift, with the loop notes of the new program.
            auto reuse = [&](int from, int to, int shift) {
                for (auto it = previousResult->lower_bound(from); it != previousResult->end() && it->first < to; ++it) {
                    const bool had = oldLoops[static_cast<std::size_t>(it->first - oldFirst)];
                    const bool has = loops[static_cast<std::size_t>(it->first + shift - first)];
                    if (had == has) {
                        out.add(it->first + shift, previousResult->shared(it));
                        continue;
                    }
                    LdsAccessResult r = it->second;
                    setLoopNote(r, had, has);
                    out.add(it->first + shift, std::move(r));
                }
                for (auto cp = std::lower_bound(old.begin(), old.end(), from, byIndex); cp != old.end() && cp->index < to; ++cp)
                    if (cp->first == oldFirst)
                        checkpoints.push_back({first, cp->index + shift, cp->state});
            };
            if (end <= p && first == oldFirst && end == oldEnd) { // wholly before the edit
                reuse(oldFirst, oldEnd, 0);
                continue;
            }
            if (first >= n - s && first - delta == oldFirst && end - delta == oldEnd) { // wholly after it
                reuse(oldFirst, oldEnd, delta);
                continue;
            }
            // The kernel holding the edit. Its instructions before p are unchanged, so the registers
            // at a checkpoint there are this program's too: resume from the last one.
            int i = first;
            evaluator.reset();
            if (first == oldFirst) {
                const int limit = std::min({p, end, oldEnd});
                auto cp =
                    std::upper_bound(old.begin(), old.end(), limit, [](int at, const Checkpoint& k) { return at < k.index; });
                if (cp != old.begin() && std::prev(cp)->first == oldFirst && std::prev(cp)->index >= first
                    && std::prev(cp)->index <= limit) {
                    const Checkpoint& resume = *std::prev(cp);
                    reuse(first, resume.index, 0);
                    checkpoints.push_back({first, resume.index, resume.state});
                    evaluator.restore(*resume.state);
                    i = resume.index;
                }
            }
            // In the unchanged tail of the same kernel, meeting the previous run's registers at the
            // same instruction means the rest of the kernel is the previous result, moved by delta.
            const bool tailInKernel = end - delta == oldEnd;
            auto next = std::lower_bound(old.begin(), old.end(), std::max(n - s, i) - delta, byIndex);
            for (; i < end; ++i) {
                if (tailInKernel && i >= n - s) {
                    while (next != old.end() && next->index < i - delta)
                        ++next;
                    if (next != old.end() && next->index == i - delta && next->first == oldFirst
                        && *next->state == evaluator.state()) {
                        reuse(i - delta, oldEnd, delta);
                        break;
                    }
                }
                evaluator.evaluate(first, i, loops, out);
            }
        }
    }

    c.valid = true;
    c.evaluated = evaluator.evaluated;
    c.options = options;
    c.generation = program.gpu.generation;
    c.processor = program.gpu.processor;
    c.instructions = program.instructions.size();
    c.results = out.size();
    out.seal();
    // Kernels come in program order, so this is sorted; the searches above rely on it.
    if (!std::is_sorted(checkpoints.begin(), checkpoints.end(),
                        [](const Checkpoint& a, const Checkpoint& b) { return a.index < b.index; }))
        checkpoints.clear(); // overlapping kernel ranges: no checkpoints, the next run is a full one
    c.checkpoints = std::move(checkpoints);
    return out;
}

} // namespace gcnlens
