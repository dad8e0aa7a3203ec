// SPDX-License-Identifier: MIT
#include "core/asm/programcodec.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace gcnlens::codec {

namespace {

// "GLP" + format version: a worker from another build is refused rather than misread.
constexpr char kMagic[4] = {'G', 'L', 'P', 4};
constexpr char kRequestMagic[4] = {'G', 'L', 'R', 3};

class Writer {
public:
    explicit Writer(std::string& out)
        : out_(out)
    {
    }
    void u(std::uint64_t v)
    {
        char buf[10];
        int n = 0;
        while (v >= 0x80) {
            buf[n++] = char(v | 0x80);
            v >>= 7;
        }
        buf[n++] = char(v);
        out_.append(buf, std::size_t(n));
    }
    void s(std::int64_t v) { u((std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63)); }
    void b(bool v) { out_.push_back(char(v)); }
    void str(std::string_view v)
    {
        u(v.size());
        out_.append(v);
    }
    void raw(const char* data, std::size_t size) { out_.append(data, size); }
    void f64(double v)
    {
        char buf[8];
        std::memcpy(buf, &v, 8);
        out_.append(buf, 8);
    }
    // Flags of one instruction, packed in one byte.
    void flags(std::initializer_list<bool> bits)
    {
        unsigned v = 0, i = 0;
        for (const bool bit : bits)
            v |= unsigned(bit) << i++;
        out_.push_back(char(v));
    }
    // An interned value (core/compact.h) as the program holds it: each distinct one is written
    // once, later uses refer to it (issue #18: the wire carries the compact form, and the reader
    // interns each distinct value once). 0: empty, 1: a new value follows, n + 2: value n again.
    template <typename Value> void interned(const Value& value)
    {
        if (value.empty())
            return u(0);
        const auto [id, added] = refs_.insert(value.data());
        if (!added)
            return u(id + 2);
        u(1);
        u(value.size());
        if constexpr (std::is_same_v<Value, RegList>) {
            for (const RegRange& reg : value) {
                u(unsigned(reg.kind));
                s(reg.first);
                s(reg.count);
            }
        } else {
            raw(reinterpret_cast<const char*>(value.data()), value.size());
        }
    }

private:
    // Each distinct value's id, by its address (pools keep distinct values at distinct addresses).
    // Open addressing in one array: a real kernel's operands are mostly distinct, and a node-based
    // map paid an allocation and two cache misses for each (issue #18: 100k distinct instructions
    // encoded in 325-470 ms, most of the worker's time after LLVM's).
    class AddressIds {
    public:
        // The address's id and whether it was new (then it gets the next id).
        std::pair<std::uint64_t, bool> insert(const void* address)
        {
            if ((count_ + 1) * 2 > slots_.size())
                grow();
            std::size_t at = slotOf(address);
            for (; slots_[at].address; at = (at + 1) & (slots_.size() - 1))
                if (slots_[at].address == address)
                    return {slots_[at].id, false};
            slots_[at] = {address, count_};
            return {count_++, true};
        }

    private:
        struct Slot {
            const void* address = nullptr;
            std::uint64_t id = 0;
        };
        std::size_t slotOf(const void* address) const
        {
            // Fibonacci hashing: pool addresses are close together and aligned alike.
            return std::size_t((std::uintptr_t(address) * 0x9e3779b97f4a7c15ull) >> shift_);
        }
        void grow()
        {
            std::vector<Slot> old = std::move(slots_);
            slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot {});
            shift_ = 64 - std::countr_zero(slots_.size());
            for (const Slot& slot : old) {
                if (!slot.address)
                    continue;
                std::size_t at = slotOf(slot.address);
                while (slots_[at].address)
                    at = (at + 1) & (slots_.size() - 1);
                slots_[at] = slot;
            }
        }
        std::vector<Slot> slots_;
        std::uint64_t count_ = 0;
        int shift_ = 64;
    };

    std::string& out_;
    AddressIds refs_;
};

class Reader {
public:
    explicit Reader(std::string_view in)
        : p_(in.data())
        , end_(in.data() + in.size())
    {
    }
    bool ok() const { return ok_; }
    bool atEnd() const { return p_ == end_; }
    std::uint64_t u()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p_ == end_)
                return fail();
            const auto byte = std::uint8_t(*p_++);
            v |= std::uint64_t(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return v;
        }
        return fail();
    }
    std::int64_t s()
    {
        const std::uint64_t v = u();
        return std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
    }
    int i() { return int(s()); }
    // A count of items each taking at least `minBytes`: bounded by what is left, so that a corrupt
    // count cannot make the caller reserve gigabytes.
    std::size_t count(std::size_t minBytes = 1)
    {
        const std::uint64_t n = u();
        if (n > std::uint64_t(end_ - p_) / minBytes)
            return std::size_t(fail());
        return std::size_t(n);
    }
    bool b()
    {
        if (p_ == end_)
            return fail();
        return *p_++ != 0;
    }
    unsigned byte()
    {
        if (p_ == end_)
            return unsigned(fail());
        return std::uint8_t(*p_++);
    }
    std::string_view bytes(std::size_t n)
    {
        if (std::size_t(end_ - p_) < n) {
            fail();
            return {};
        }
        std::string_view v(p_, n);
        p_ += n;
        return v;
    }
    void str(std::string& out) { out.assign(bytes(count())); }
    double f64()
    {
        double v = 0;
        const std::string_view raw = bytes(8);
        if (raw.size() == 8)
            std::memcpy(&v, raw.data(), 8);
        return v;
    }
    // The values of Writer::interned, in the order they came.
    std::vector<InternedString> texts;
    std::vector<RegList> regLists;
    std::vector<InternedArray<std::uint8_t>> byteLists;
    std::vector<RegRange> scratchRegs;             // a register list being read (one buffer for all of them)
    std::vector<std::pair<int, std::size_t>> refs; // (kind, index in its vector), by id
    template <typename Enum> Enum enumeration(Enum last)
    {
        const std::uint64_t v = u();
        if (v > std::uint64_t(last))
            return Enum(fail());
        return Enum(v);
    }

private:
    std::uint64_t fail()
    {
        ok_ = false;
        p_ = end_; // every later read fails too
        return 0;
    }
    const char* p_;
    const char* end_;
    bool ok_ = true;
};

void put(Writer& w, const GpuTarget& g)
{
    w.str(g.name);
    w.str(g.product);
    w.str(g.processor);
    w.str(g.features);
    w.str(g.targetId);
    w.u(unsigned(g.generation));
    w.s(g.dpfactor);
    w.str(g.dpfactorSource);
    w.s(g.computeUnits);
    w.s(g.maxWavesPerSimd);
    w.b(g.fixedSgprs);
}

void get(Reader& r, GpuTarget& g)
{
    r.str(g.name);
    r.str(g.product);
    r.str(g.processor);
    r.str(g.features);
    r.str(g.targetId);
    g.generation = r.enumeration(Generation::CDNA);
    g.dpfactor = r.i();
    r.str(g.dpfactorSource);
    g.computeUnits = r.i();
    g.maxWavesPerSimd = r.i();
    g.fixedSgprs = r.b();
}

// Reads what Writer::interned wrote; kind 0 text, 1 bytes, 2 register list.
template <typename Value> void getInterned(Reader& r, Value& value, std::vector<Value>& seen, int kind)
{
    const std::uint64_t tag = r.u();
    if (tag == 0) {
        value = Value();
    } else if (tag == 1) {
        if constexpr (std::is_same_v<Value, RegList>) {
            std::vector<RegRange>& regs = r.scratchRegs;
            regs.resize(r.count(3));
            for (auto& reg : regs) {
                reg.kind = r.enumeration(RegKind::Other);
                reg.first = r.i();
                reg.count = r.i();
            }
            value = regs;
        } else {
            const std::string_view bytes = r.bytes(r.count());
            if constexpr (std::is_same_v<Value, InternedString>)
                value = bytes;
            else // (straight from the reply: no vector in between)
                value = std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        }
        r.refs.emplace_back(kind, seen.size());
        seen.push_back(value);
    } else if (tag - 2 < r.refs.size() && r.refs[tag - 2].first == kind) {
        value = seen[r.refs[tag - 2].second];
    } else {
        value = Value();
        r.bytes(std::size_t(-1)); // a reference to nothing: corrupt, fail the read
    }
}
void getText(Reader& r, InternedString& text)
{
    getInterned(r, text, r.texts, 0);
}
void get(Reader& r, InternedArray<std::uint8_t>& bytes)
{
    getInterned(r, bytes, r.byteLists, 1);
}
void get(Reader& r, RegList& list)
{
    getInterned(r, list, r.regLists, 2);
}

void put(Writer& w, const Instruction& i)
{
    w.s(i.line);
    w.s(i.columnBegin);
    w.s(i.columnEnd);
    w.u(i.offset);
    w.s(i.size);
    w.interned(i.encoding);
    w.interned(i.mnemonic);
    w.interned(i.operands);
    w.u(unsigned(i.family));
    w.u(i.opcode);
    w.flags({i.hasLiteral, i.glc, i.isData, i.placeholder, i.fromExpansion, i.backward, i.targetOffset().has_value()});
    w.u(unsigned(i.branch));
    w.interned(i.targetLabel());
    w.s(i.targetIndex());
    if (i.targetOffset())
        w.u(*i.targetOffset());
    w.s(i.kernel);
    w.interned(i.defs);
    w.interned(i.uses);
}

void get(Reader& r, Instruction& i)
{
    i.line = r.i();
    i.columnBegin = r.i();
    i.columnEnd = r.i();
    i.offset = r.u();
    i.size = r.i();
    get(r, i.encoding);
    getText(r, i.mnemonic);
    getText(r, i.operands);
    i.family = r.enumeration(Family::Unknown);
    i.opcode = unsigned(r.u());
    const unsigned flags = r.byte();
    i.hasLiteral = flags & 1;
    i.glc = flags & 2;
    i.isData = flags & 4;
    i.placeholder = flags & 8;
    i.fromExpansion = flags & 16;
    i.backward = flags & 32;
    i.branch = r.enumeration(BranchKind::Return);
    InternedString targetLabel;
    getText(r, targetLabel);
    i.setTargetLabel(targetLabel);
    i.setTargetIndex(r.i());
    if (flags & 64)
        i.setTargetOffset(r.u());
    else
        i.setTargetOffset(std::nullopt);
    i.kernel = r.i();
    get(r, i.defs);
    get(r, i.uses);
}

void put(Writer& w, const RegisterUsage& u)
{
    w.s(u.maxVgpr);
    w.s(u.maxSgpr);
    w.s(u.maxAgpr);
    w.flags({u.vcc, u.exec, u.m0, u.scc, u.flatScratch, u.xnackMask});
}

void get(Reader& r, RegisterUsage& u)
{
    u.maxVgpr = r.i();
    u.maxSgpr = r.i();
    u.maxAgpr = r.i();
    const unsigned flags = r.byte();
    u.vcc = flags & 1;
    u.exec = flags & 2;
    u.m0 = flags & 4;
    u.scc = flags & 8;
    u.flatScratch = flags & 16;
    u.xnackMask = flags & 32;
}

bool fail(std::string* error, const char* why)
{
    if (error)
        *error = why;
    return false;
}

} // namespace

void encodeTo(const Program& p, std::string& out)
{
    // About 40 bytes per instruction plus its text: one allocation for the common case.
    out.reserve(out.size() + 64 + p.instructions.size() * 64);
    out.append(kMagic, 4);
    Writer w(out);
    put(w, p.gpu);
    w.u(p.instructions.size());
    for (const auto& i : p.instructions)
        put(w, i);
    w.u(p.labels.size());
    for (const auto& l : p.labels) {
        w.str(l.name);
        w.u(l.offset);
        w.u(l.sectionOffset);
        w.s(l.line);
        w.s(l.instruction);
    }
    w.u(p.kernels.size());
    for (const auto& k : p.kernels) {
        w.str(k.name);
        w.s(k.firstInstruction);
        w.s(k.endInstruction);
        w.u(k.sectionOffset);
        w.s(k.line);
    }
    w.u(p.directives.size());
    for (const auto& d : p.directives) {
        w.str(d.name);
        w.s(d.value);
        w.s(d.line);
        w.s(d.kernel);
    }
    w.u(p.diagnostics.size());
    for (const auto& d : p.diagnostics) {
        w.u(unsigned(d.severity));
        w.s(d.line);
        w.s(d.column);
        w.str(d.message);
        w.str(d.origin);
    }
    w.u(p.kernelRegisters.size());
    for (const auto& u : p.kernelRegisters)
        put(w, u);
    put(w, p.registers);
    // The line index as (line, count, indices…) runs, in its own order.
    w.u(p.lineToInstructions.size());
    for (const auto& [line, indices] : p.lineToInstructions) {
        w.s(line);
        w.u(indices.size());
        for (const int index : indices)
            w.s(index);
    }
    w.s(p.shapeReused);
    w.s(p.statementsReplayed);
    w.s(p.statementsFromShapes);
    w.s(p.expansionsInferred);
}

std::string encode(const Program& program)
{
    std::string out;
    encodeTo(program, out);
    return out;
}

bool decode(std::string_view bytes, Program& p, std::string* error)
{
    if (bytes.size() < 4 || std::memcmp(bytes.data(), kMagic, 4) != 0)
        return fail(error, "not an encoded program (bad magic or version)");
    Reader r(bytes.substr(4));
    get(r, p.gpu);
    // Each instruction takes at least 17 bytes, so a corrupt count fails before any allocation.
    p.instructions.resize(r.count(17));
    for (auto& i : p.instructions)
        get(r, i);
    p.labels.resize(r.count(5));
    for (auto& l : p.labels) {
        r.str(l.name);
        l.offset = r.u();
        l.sectionOffset = r.u();
        l.line = r.i();
        l.instruction = r.i();
    }
    p.kernels.resize(r.count(5));
    for (auto& k : p.kernels) {
        r.str(k.name);
        k.firstInstruction = r.i();
        k.endInstruction = r.i();
        k.sectionOffset = r.u();
        k.line = r.i();
    }
    p.directives.resize(r.count(4));
    for (auto& d : p.directives) {
        r.str(d.name);
        d.value = r.s();
        d.line = r.i();
        d.kernel = r.i();
    }
    p.diagnostics.resize(r.count(5));
    for (auto& d : p.diagnostics) {
        d.severity = r.enumeration(Severity::Note);
        d.line = r.i();
        d.column = r.i();
        r.str(d.message);
        r.str(d.origin);
    }
    p.kernelRegisters.resize(r.count(4));
    for (auto& u : p.kernelRegisters)
        get(r, u);
    get(r, p.registers);
    std::vector<std::pair<int, int>> lineAndInstruction;
    lineAndInstruction.reserve(p.instructions.size());
    const std::size_t lines = r.count(2);
    for (std::size_t n = 0; n < lines && r.ok(); ++n) {
        const int line = r.i();
        const std::size_t count = r.count();
        for (std::size_t k = 0; k < count && r.ok(); ++k)
            lineAndInstruction.emplace_back(line, r.i());
    }
    p.lineToInstructions.assign(std::move(lineAndInstruction));
    p.shapeReused = r.i();
    p.statementsReplayed = r.i();
    p.statementsFromShapes = r.i();
    p.expansionsInferred = r.i();
    if (!r.ok())
        return fail(error, "truncated or corrupt program data");
    if (!r.atEnd())
        return fail(error, "trailing bytes after the program data");
    return true;
}

void encodeRequest(const AssembleOptions& o, std::string_view source, std::string& out)
{
    out.reserve(out.size() + source.size() + 256);
    out.append(kRequestMagic, 4);
    Writer w(out);
    w.str(o.gpu);
    w.u(o.includeDirs.size());
    for (const auto& dir : o.includeDirs)
        w.str(dir);
    w.u(o.defsyms.size());
    for (const auto& [name, value] : o.defsyms) {
        w.str(name);
        w.s(value);
    }
    w.str(o.fileName);
    w.b(o.reuseShapes);
    w.u(o.limits.instructions);
    w.u(o.limits.bytes);
    w.s(o.limits.includeDepth);
    w.u(o.limits.incbinBytes);
    w.f64(o.limits.seconds);
    w.b(o.allowAnyInclude);
    w.u(unsigned(o.dialect));
    w.u(unsigned(o.clrx.format));
    w.b(o.clrx.is64bit);
    w.s(o.clrx.driverVersion);
    w.s(o.clrx.llvmVersion);
    w.str(o.clrx.processor);
    w.b(o.clrx.sourceGpuWins);
    w.u(o.clrx.includeDirs.size());
    for (const auto& dir : o.clrx.includeDirs)
        w.str(dir);
    w.b(o.gpuFromSource);
    w.str(o.triple);
    w.str(source);
}

bool decodeRequest(std::string_view bytes, AssembleOptions& o, std::string& source, std::string* error)
{
    if (bytes.size() < 4 || std::memcmp(bytes.data(), kRequestMagic, 4) != 0)
        return fail(error, "not an assembler request (bad magic or version)");
    Reader r(bytes.substr(4));
    r.str(o.gpu);
    o.includeDirs.resize(r.count());
    for (auto& dir : o.includeDirs)
        r.str(dir);
    o.defsyms.resize(r.count(2));
    for (auto& [name, value] : o.defsyms) {
        r.str(name);
        value = r.s();
    }
    r.str(o.fileName);
    o.reuseShapes = r.b();
    o.limits.instructions = r.u();
    o.limits.bytes = r.u();
    o.limits.includeDepth = r.i();
    o.limits.incbinBytes = r.u();
    o.limits.seconds = r.f64();
    o.allowAnyInclude = r.b();
    o.dialect = r.enumeration(AssembleOptions::Dialect::Auto);
    o.clrx.format = r.enumeration(ClrxFormat::RawCode);
    o.clrx.is64bit = r.b();
    o.clrx.driverVersion = r.i();
    o.clrx.llvmVersion = r.i();
    r.str(o.clrx.processor);
    o.clrx.sourceGpuWins = r.b();
    o.clrx.includeDirs.resize(r.count());
    for (auto& dir : o.clrx.includeDirs)
        r.str(dir);
    o.gpuFromSource = r.b();
    r.str(o.triple);
    r.str(source);
    if (!r.ok() || !r.atEnd())
        return fail(error, "truncated or corrupt assembler request");
    return true;
}

} // namespace gcnlens::codec
