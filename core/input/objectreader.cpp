// SPDX-License-Identifier: MIT
// ELF code objects and offload bundles to a Program (objectreader.h). The processor comes from
// e_flags (code object v3+) or the "AMD" ISA note (v2); kernels from FUNC symbols (v3+, with their
// .kd kernel descriptor) or STT_AMDGPU_HSA_KERNEL symbols (v2, whose code starts with a 256-byte
// amd_kernel_code_t); declared resources from the metadata note, else the descriptor.
#include "core/input/objectreader.h"

#include "core/gpu.h"
#include "core/input/decoder.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/BinaryFormat/MsgPackDocument.h>
#include <llvm/BinaryFormat/MsgPackReader.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

namespace gcnlens::input {

namespace {

constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
constexpr std::string_view kCompressedBundleMagic = "CCOB";
constexpr unsigned kSttAmdgpuHsaKernel = 10;    // code object v2 kernel symbol type
constexpr std::uint64_t kKernelCodeTSize = 256; // amd_kernel_code_t, before a v2 kernel's code
constexpr std::uint64_t kKernelDescriptorSize = 64;

std::uint64_t readLE(std::string_view bytes, std::size_t at, std::size_t size)
{
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < size && at + i < bytes.size(); ++i)
        value |= std::uint64_t(std::uint8_t(bytes[at + i])) << (8 * i);
    return value;
}

std::string hex(std::uint64_t value, int digits)
{
    char text[32];
    std::snprintf(text, sizeof text, "%0*llX", digits, static_cast<unsigned long long>(value));
    return text;
}

// ---- clang offload bundles ------------------------------------------------------------------

struct BundleEntry {
    std::string id; // "hipv4-amdgcn-amd-amdhsa--gfx906:xnack-", "host-x86_64-unknown-linux-gnu"
    std::string_view bytes;
};

// Layout (clang's OffloadBundler): magic, u64 count, then per entry u64 offset, u64 size, u64 id
// length and the id; offsets are from the start of the bundle.
std::string readBundle(std::string_view bytes, std::vector<BundleEntry>& entries)
{
    std::size_t at = kBundleMagic.size();
    if (bytes.size() < at + 8)
        return "truncated clang offload bundle: no entry count";
    const std::uint64_t count = readLE(bytes, at, 8);
    at += 8;
    if (count == 0 || count > 4096)
        return "corrupted clang offload bundle: " + std::to_string(count) + " entries";
    for (std::uint64_t i = 0; i < count; ++i) {
        if (bytes.size() < at + 24)
            return "truncated clang offload bundle: entry " + std::to_string(i + 1) + " of " + std::to_string(count)
                + " is cut off";
        const std::uint64_t offset = readLE(bytes, at, 8), size = readLE(bytes, at + 8, 8), idLength = readLE(bytes, at + 16, 8);
        at += 24;
        if (idLength > 4096 || bytes.size() - at < idLength)
            return "corrupted clang offload bundle: entry " + std::to_string(i + 1) + " has a bad target name";
        BundleEntry entry;
        entry.id.assign(bytes.substr(at, idLength));
        at += idLength;
        if (offset > bytes.size() || size > bytes.size() - offset)
            return "truncated clang offload bundle: " + entry.id + " lies beyond the end of the file";
        entry.bytes = bytes.substr(offset, size);
        entries.push_back(std::move(entry));
    }
    return {};
}

// "hipv4-amdgcn-amd-amdhsa--gfx906:xnack-" → "gfx906:xnack-"; empty for a non-amdgcn entry.
std::string bundleTarget(const std::string& id)
{
    if (id.find("amdgcn-") == std::string::npos)
        return {};
    const auto dashes = id.rfind("--");
    return dashes == std::string::npos ? std::string() : id.substr(dashes + 2);
}

// ---- ELF --------------------------------------------------------------------------------------

using Elf = llvm::object::ELF64LEObjectFile;

// Target-ID features from e_flags (AMDGPUUsage "ELF Header"): v3 has on/off bits, v4+ has
// unsupported/any/off/on fields.
std::string targetIdFeatures(unsigned flags, unsigned abiVersion)
{
    std::string out;
    if (abiVersion == llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V3) {
        if (flags & llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_V3)
            out += ":sramecc+";
        if (flags & llvm::ELF::EF_AMDGPU_FEATURE_XNACK_V3)
            out += ":xnack+";
        return out;
    }
    if (abiVersion >= llvm::ELF::ELFABIVERSION_AMDGPU_HSA_V4) {
        switch (flags & llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_V4) {
        case llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_ON_V4:
            out += ":sramecc+";
            break;
        case llvm::ELF::EF_AMDGPU_FEATURE_SRAMECC_OFF_V4:
            out += ":sramecc-";
            break;
        default:
            break;
        }
        switch (flags & llvm::ELF::EF_AMDGPU_FEATURE_XNACK_V4) {
        case llvm::ELF::EF_AMDGPU_FEATURE_XNACK_ON_V4:
            out += ":xnack+";
            break;
        case llvm::ELF::EF_AMDGPU_FEATURE_XNACK_OFF_V4:
            out += ":xnack-";
            break;
        default:
            break;
        }
    }
    return out;
}

std::string codeObjectVersion(unsigned osAbi, unsigned abiVersion)
{
    if (osAbi == llvm::ELF::ELFOSABI_AMDGPU_PAL)
        return "PAL";
    if (osAbi == llvm::ELF::ELFOSABI_AMDGPU_MESA3D)
        return "Mesa";
    if (osAbi != llvm::ELF::ELFOSABI_AMDGPU_HSA)
        return "no HSA ABI";
    return "v" + std::to_string(abiVersion + 2); // ABI version 0 is code object v2, … 4 is v6
}

std::optional<std::int64_t> integer(const llvm::msgpack::DocNode& node)
{
    if (node.getKind() == llvm::msgpack::Type::UInt)
        return std::int64_t(node.getUInt());
    if (node.getKind() == llvm::msgpack::Type::Int)
        return node.getInt();
    return std::nullopt;
}

// Declared values of one kernel, named as the resource model reads them (core/model/resources.cpp:
// amd_kernel_code_t field names), with where each came from for the listing.
struct Declared {
    std::string name;
    std::int64_t value = 0;
    std::string from;
};

struct KernelInfo {
    std::vector<Declared> declared;
    bool fromMetadata = false;
};

// LLVM's msgpack Document takes any map key and then crashes comparing one that is not a scalar
// (found by fuzz_objectreader): walk the blob first and refuse such a note.
bool wellFormedMsgpack(llvm::StringRef blob)
{
    llvm::msgpack::Reader reader(blob);
    struct Level {
        std::uint64_t left;
        bool map;
        bool key;
    };
    std::vector<Level> stack {{1, false, false}};
    llvm::msgpack::Object object;
    while (!stack.empty()) {
        if (stack.back().left == 0) {
            stack.pop_back();
            continue;
        }
        auto got = reader.read(object);
        if (!got) {
            llvm::consumeError(got.takeError());
            return false;
        }
        if (!*got)
            return false; // the blob ends inside a container
        Level& level = stack.back();
        const bool isKey = level.map && level.key;
        if (level.map)
            level.key = !level.key;
        if (!isKey)
            --level.left;
        using llvm::msgpack::Type;
        if (isKey && object.Kind != Type::String && object.Kind != Type::Int && object.Kind != Type::UInt)
            return false;
        if (object.Kind == Type::Array || object.Kind == Type::Map) {
            if (stack.size() > 64 || object.Length > blob.size())
                return false;
            stack.push_back({object.Length, object.Kind == Type::Map, true});
        }
    }
    return true;
}

// The code object v3+ metadata note (msgpack): per kernel symbol, its declared resources.
void readMetadata(llvm::StringRef blob, std::map<std::string, KernelInfo>& kernels)
{
    llvm::msgpack::Document document;
    if (!wellFormedMsgpack(blob) || !document.readFromBlob(blob, false) || !document.getRoot().isMap())
        return;
    auto& root = document.getRoot().getMap();
    const auto list = root.find("amdhsa.kernels");
    if (list == root.end() || !list->second.isArray())
        return;
    for (auto& node : list->second.getArray()) {
        if (!node.isMap())
            continue;
        auto& map = node.getMap();
        const auto symbol = map.find(".symbol");
        const auto name = map.find(".name");
        std::string key = symbol != map.end() && symbol->second.isString() ? symbol->second.getString().str()
            : name != map.end() && name->second.isString()                 ? name->second.getString().str()
                                                                           : std::string();
        if (key.ends_with(".kd"))
            key.resize(key.size() - 3);
        if (key.empty())
            continue;
        KernelInfo& info = kernels[key];
        info.fromMetadata = true;
        const auto take = [&](const char* field, const char* as) {
            const auto it = map.find(field);
            if (it != map.end())
                if (const auto value = integer(it->second))
                    info.declared.push_back({as, *value, std::string("metadata ") + field});
        };
        take(".vgpr_count", "workitem_vgpr_count");
        take(".sgpr_count", "wavefront_sgpr_count"); // includes VCC, flat scratch and XNACK (AMDGPUUsage)
        take(".agpr_count", ".agpr_count");
        take(".group_segment_fixed_size", "workgroup_group_segment_byte_size");
        take(".private_segment_fixed_size", "workitem_private_segment_byte_size");
        take(".max_flat_workgroup_size", ".max_flat_workgroup_size");
        take(".wavefront_size", ".wavefront_size");
        if (const auto it = map.find(".reqd_workgroup_size"); it != map.end() && it->second.isArray()) {
            // A product beyond 64 bits declares nothing (it overflowed: undefined behaviour).
            std::int64_t product = 1;
            bool fits = true;
            for (auto& dim : it->second.getArray())
                fits = fits && !__builtin_mul_overflow(product, integer(dim).value_or(1), &product);
            if (fits)
                info.declared.push_back({".reqd_workgroup_size", product, "metadata .reqd_workgroup_size"});
        }
    }
}

// The code object v3+ kernel descriptor (AMDGPUUsage "Kernel Descriptor"), when no metadata says more.
void readKernelDescriptor(std::string_view kd, const GpuTarget& gpu, KernelInfo& info)
{
    const auto rsrc1 = std::uint32_t(readLE(kd, 48, 4)), rsrc2 = std::uint32_t(readLE(kd, 52, 4));
    const auto rsrc3 = std::uint32_t(readLE(kd, 44, 4));
    info.declared.push_back(
        {"workgroup_group_segment_byte_size", std::int64_t(readLE(kd, 0, 4)), "descriptor group_segment_fixed_size"});
    info.declared.push_back(
        {"workitem_private_segment_byte_size", std::int64_t(readLE(kd, 4, 4)), "descriptor private_segment_fixed_size"});
    info.declared.push_back({"granulated_workitem_vgpr_count", std::int64_t(rsrc1 & 0x3f), "descriptor COMPUTE_PGM_RSRC1"});
    info.declared.push_back(
        {"granulated_wavefront_sgpr_count", std::int64_t((rsrc1 >> 6) & 0xf), "descriptor COMPUTE_PGM_RSRC1"});
    if (gpu.processor == "gfx90a" || gpu.processor.starts_with("gfx94"))
        info.declared.push_back({"accum_offset", std::int64_t(((rsrc3 & 0x3f) + 1) * 4), "descriptor COMPUTE_PGM_RSRC3"});
    if (rsrc2 & 1)
        info.declared.push_back({".scratch_enabled", 1, "descriptor COMPUTE_PGM_RSRC2"});
}

// A code object v2 amd_kernel_code_t (the 256 bytes before the kernel's code).
std::uint64_t readKernelCodeT(std::string_view code, KernelInfo& info)
{
    const auto field = [&](const char* name, std::size_t at, std::size_t size) {
        info.declared.push_back({name, std::int64_t(readLE(code, at, size)), "amd_kernel_code_t"});
    };
    field("workitem_private_segment_byte_size", 60, 4);
    field("workgroup_group_segment_byte_size", 64, 4);
    field("wavefront_sgpr_count", 84, 2);
    field("workitem_vgpr_count", 86, 2);
    const std::uint64_t entry = readLE(code, 16, 8); // kernel_code_entry_byte_offset
    return entry >= kKernelCodeTSize && entry < code.size() ? entry : kKernelCodeTSize;
}

struct Symbol {
    std::string name;
    std::uint64_t address = 0, size = 0;
    unsigned type = 0;
};

class Reader {
public:
    Reader(const ObjectReadOptions& options)
        : options_(options)
    {
    }

    ObjectListing read(std::string_view bytes, int depth = 0)
    {
        if (bytes.starts_with(kBundleMagic))
            return readBundleFile(bytes, depth);
        if (bytes.starts_with(kCompressedBundleMagic))
            return fail("a compressed clang offload bundle (CCOB); gcnlens reads uncompressed ones: unpack it with "
                        "clang-offload-bundler --unbundle first");
        if (!bytes.starts_with("\x7f"
                               "ELF"))
            return fail("not an ELF code object or clang offload bundle (no ELF magic)");
        return readElf(bytes, depth);
    }

private:
    ObjectListing fail(std::string cause)
    {
        ObjectListing out;
        out.error = std::move(cause);
        out.program.diagnostics.push_back({Severity::Error, 0, 0, out.error, {}});
        return out;
    }

    ObjectListing readBundleFile(std::string_view bytes, int depth)
    {
        std::vector<BundleEntry> entries;
        if (std::string error = readBundle(bytes, entries); !error.empty())
            return fail(error);
        std::string wanted;
        if (!options_.gpu.empty())
            if (const auto gpu = resolveGpu(options_.gpu))
                wanted = gpu->processor;
        const BundleEntry* chosen = nullptr;
        std::string names;
        for (const auto& entry : entries) {
            names += (names.empty() ? "" : ", ") + entry.id;
            const std::string target = bundleTarget(entry.id);
            if (target.empty() || entry.bytes.empty())
                continue;
            const std::string processor = target.substr(0, target.find(':'));
            if (!chosen
                || (!wanted.empty() && processor == wanted
                    && bundleTarget(chosen->id).substr(0, bundleTarget(chosen->id).find(':')) != wanted))
                chosen = &entry;
        }
        if (!chosen)
            return fail("a clang offload bundle with no amdgcn code object (it holds " + names + ")");
        if (depth > 2)
            return fail("clang offload bundles nested too deeply");
        ObjectListing out = read(chosen->bytes, depth + 1);
        const std::string processor = bundleTarget(chosen->id).substr(0, bundleTarget(chosen->id).find(':'));
        const std::string why = wanted.empty() ? "the first amdgcn one"
            : processor == wanted              ? "it matches --gpu " + options_.gpu
                                               : "none matches --gpu " + options_.gpu + ": the first amdgcn one";
        out.program.diagnostics.insert(out.program.diagnostics.begin(),
                                       {Severity::Note,
                                        0,
                                        0,
                                        "clang offload bundle with " + std::to_string(entries.size()) + " entries (" + names
                                            + "); showing " + chosen->id + " (" + why + ")",
                                        {}});
        return out;
    }

    ObjectListing readElf(std::string_view bytes, int depth)
    {
        // LLVM's ELF reader needs the file 8-byte aligned; an entry inside a bundle may not be.
        std::vector<std::uint64_t> aligned;
        if (reinterpret_cast<std::uintptr_t>(bytes.data()) % alignof(std::uint64_t) != 0) {
            aligned.resize((bytes.size() + 7) / 8);
            std::memcpy(aligned.data(), bytes.data(), bytes.size());
            bytes = std::string_view(reinterpret_cast<const char*>(aligned.data()), bytes.size());
        }
        auto buffer = llvm::MemoryBufferRef(llvm::StringRef(bytes.data(), bytes.size()), options_.fileName);
        auto object = llvm::object::ObjectFile::createObjectFile(buffer);
        if (!object)
            return fail("not a readable ELF file: " + llvm::toString(object.takeError()));
        auto* elf = llvm::dyn_cast<Elf>(object->get());
        if (!elf || (*object)->getArch() != llvm::Triple::amdgcn) {
            // A host executable with a HIP fat binary: its .hip_fatbin section holds an offload bundle.
            for (const auto& section : (*object)->sections()) {
                auto name = section.getName();
                if (!name || *name != ".hip_fatbin")
                    continue;
                auto contents = section.getContents();
                if (!contents) {
                    llvm::consumeError(contents.takeError());
                    break;
                }
                const std::string_view fat(contents->data(), contents->size());
                const auto at = fat.find(kBundleMagic);
                if (at != std::string_view::npos && depth < 2)
                    return read(fat.substr(at), depth + 1);
            }
            const auto arch = llvm::Triple::getArchTypeName((*object)->getArch());
            return fail("an ELF file for " + (arch.empty() ? std::string("an unknown machine") : arch.str())
                        + ", not an AMD GPU (amdgcn) code object");
        }
        return readAmdgcn(*elf);
    }

    ObjectListing readAmdgcn(const Elf& elf)
    {
        ObjectListing out;
        Program& program = out.program;
        const auto& header = elf.getELFFile().getHeader();
        const unsigned osAbi = header.e_ident[llvm::ELF::EI_OSABI];
        const unsigned abiVersion = header.e_ident[llvm::ELF::EI_ABIVERSION];
        const unsigned flags = header.e_flags;

        // Notes: the v2 ISA version and the v3+ metadata.
        std::string isaProcessor;
        std::map<std::string, KernelInfo> info;
        auto sections = elf.getELFFile().sections();
        if (!sections)
            return fail("corrupted ELF section table: " + llvm::toString(sections.takeError()));
        // Every section inside the file: LLVM trusts a symbol table's size when it iterates it.
        const std::uint64_t fileSize = elf.getData().size();
        for (std::size_t index = 0; index < sections->size(); ++index) {
            const auto& shdr = (*sections)[index];
            if (shdr.sh_type != llvm::ELF::SHT_NOBITS && (shdr.sh_offset > fileSize || shdr.sh_size > fileSize - shdr.sh_offset))
                return fail("corrupted ELF: section " + std::to_string(index) + " lies beyond the end of the file ("
                            + std::to_string(fileSize) + " bytes)");
            if (shdr.sh_type == llvm::ELF::SHT_SYMTAB && shdr.sh_entsize != sizeof(llvm::object::ELF64LE::Sym))
                return fail("corrupted ELF: the symbol table's entry size is " + std::to_string(shdr.sh_entsize));
        }
        for (const auto& shdr : *sections) {
            if (shdr.sh_type != llvm::ELF::SHT_NOTE)
                continue;
            llvm::Error error = llvm::Error::success();
            for (const auto& note : elf.getELFFile().notes(shdr, error)) {
                // The alignment the note iterator itself walks by: LLVM's getDesc asserts on 0 (a
                // damaged or hand-made file), and reads 1 as no padding where the iterator pads to 4.
                const auto desc = note.getDesc(std::max<std::size_t>(shdr.sh_addralign, 4));
                const std::string_view data(reinterpret_cast<const char*>(desc.data()), desc.size());
                if (note.getName() == "AMD" && note.getType() == llvm::ELF::NT_AMD_HSA_ISA_VERSION && data.size() >= 16) {
                    const auto major = readLE(data, 4, 4), minor = readLE(data, 8, 4), stepping = readLE(data, 12, 4);
                    char name[32];
                    std::snprintf(name, sizeof name, "gfx%llu%llu%llx", static_cast<unsigned long long>(major),
                                  static_cast<unsigned long long>(minor), static_cast<unsigned long long>(stepping));
                    isaProcessor = name;
                } else if (note.getName() == "AMDGPU" && note.getType() == llvm::ELF::NT_AMDGPU_METADATA) {
                    readMetadata(llvm::StringRef(data.data(), data.size()), info);
                }
            }
            if (error)
                program.diagnostics.push_back(
                    {Severity::Warning, 0, 0, "a note section is corrupted: " + llvm::toString(std::move(error)), {}});
        }

        // The target: the user's GPU if given, else the processor the header (or v2 note) names.
        const auto cpu = elf.tryGetCPUName();
        std::string processor = cpu && !cpu->empty() ? cpu->str() : isaProcessor;
        const std::string fileTarget = processor.empty() ? std::string() : processor + targetIdFeatures(flags, abiVersion);
        std::string error;
        std::optional<GpuTarget> gpu;
        if (!options_.gpu.empty()) {
            gpu = resolveGpu(options_.gpu, &error);
            if (gpu && !processor.empty() && gpu->processor != processor)
                program.diagnostics.push_back(
                    {Severity::Warning,
                     0,
                     0,
                     "the code object is for " + fileTarget + "; decoded for " + gpu->targetId + " as asked",
                     {}});
        } else if (processor.empty()) {
            return fail("the ELF header names no AMD GPU processor (e_flags 0x" + hex(flags, 0)
                        + ") and there is no ISA note: give the GPU with --gpu");
        } else {
            gpu = resolveGpu(fileTarget, &error);
        }
        if (!gpu)
            return fail("the code object is for " + (fileTarget.empty() ? options_.gpu : fileTarget)
                        + ", which gcnlens does not know: " + error);
        program.gpu = *gpu;

        Decoder decoder(*gpu);
        if (!decoder.error().empty())
            return fail(decoder.error());

        // Symbols by section.
        std::map<std::uint64_t, std::vector<Symbol>> bySection; // section index → symbols
        std::map<std::string, std::string_view> descriptors;    // kernel name → its 64-byte descriptor
        for (const auto& symbol : elf.symbols()) {
            auto name = symbol.getName();
            auto address = symbol.getAddress();
            auto section = symbol.getSection();
            if (!name || !address || !section) {
                if (!name)
                    llvm::consumeError(name.takeError());
                if (!address)
                    llvm::consumeError(address.takeError());
                if (!section)
                    llvm::consumeError(section.takeError());
                continue;
            }
            if (*section == elf.section_end() || name->empty())
                continue;
            const llvm::object::ELFSymbolRef elfSymbol(symbol);
            Symbol s {name->str(), *address, elfSymbol.getSize(), elfSymbol.getELFType()};
            if (s.type == llvm::ELF::STT_OBJECT && name->ends_with(".kd")) {
                auto contents = (*section)->getContents();
                if (!contents) {
                    llvm::consumeError(contents.takeError());
                    continue;
                }
                const std::uint64_t at = s.address - (*section)->getAddress();
                if (at <= contents->size() && contents->size() - at >= kKernelDescriptorSize)
                    descriptors[name->drop_back(3).str()] = std::string_view(contents->data() + at, kKernelDescriptorSize);
                continue;
            }
            if ((*section)->isText())
                bySection[(*section)->getIndex()].push_back(std::move(s));
        }

        // The listing's header.
        std::string& text = out.listing;
        int line = 0;
        const auto put = [&](const std::string& content) {
            text += content;
            text += '\n';
            return ++line;
        };
        put("; " + options_.fileName + ": code object " + codeObjectVersion(osAbi, abiVersion) + ", "
            + (header.e_type == llvm::ELF::ET_REL       ? "relocatable"
                   : header.e_type == llvm::ELF::ET_DYN ? "shared object"
                                                        : "executable")
            + (fileTarget.empty() ? std::string() : ", for " + fileTarget) + " (e_flags 0x" + hex(flags, 0) + ")");
        put("; read-only listing disassembled by gcnlens for " + gpu->targetId + "; addresses are in the file's sections");

        std::uint64_t base = 0; // sectionOffset of the current section's start: sections laid end to end
        for (const auto& section : elf.sections()) {
            if (!section.isText())
                continue;
            auto contents = section.getContents();
            if (!contents) {
                program.diagnostics.push_back(
                    {Severity::Warning, 0, 0, "a code section cannot be read: " + llvm::toString(contents.takeError()), {}});
                continue;
            }
            const std::string_view code(contents->data(), contents->size());
            const std::uint64_t sectionAddress = section.getAddress();
            auto& symbols = bySection[section.getIndex()];
            std::sort(symbols.begin(), symbols.end(), [](const Symbol& a, const Symbol& b) {
                return a.address != b.address ? a.address < b.address : a.type > b.type; // kernels before labels at one address
            });
            // Regions: one per kernel or function symbol; the whole section when there is none.
            struct Region {
                std::string name;
                std::uint64_t begin, end;
                unsigned type;
            };
            std::vector<Region> regions;
            for (std::size_t i = 0; i < symbols.size(); ++i) {
                const Symbol& s = symbols[i];
                if (s.type != llvm::ELF::STT_FUNC && s.type != kSttAmdgpuHsaKernel)
                    continue;
                std::uint64_t end = sectionAddress + code.size();
                for (std::size_t j = i + 1; j < symbols.size(); ++j)
                    if ((symbols[j].type == llvm::ELF::STT_FUNC || symbols[j].type == kSttAmdgpuHsaKernel)
                        && symbols[j].address > s.address) {
                        end = symbols[j].address;
                        break;
                    }
                if (s.size > 0)
                    end = std::min(end, s.address + s.size);
                if (s.address >= sectionAddress && s.address < sectionAddress + code.size() && end > s.address)
                    regions.push_back({s.name, s.address, std::min<std::uint64_t>(end, sectionAddress + code.size()), s.type});
            }
            if (regions.empty() && !code.empty()) {
                auto name = section.getName();
                regions.push_back({name ? name->str() : std::string(".text"), sectionAddress, sectionAddress + code.size(), 0});
                if (!name)
                    llvm::consumeError(name.takeError());
            }
            std::map<std::uint64_t, std::string> labelAt;
            for (const auto& symbol : symbols)
                labelAt.emplace(symbol.address, symbol.name);
            std::size_t nextLabel = 0;
            for (std::size_t r = 0; r < regions.size(); ++r) {
                const Region& region = regions[r];
                // Bytes up to the next kernel: alignment padding (s_nop 0, s_code_end, zeros) is
                // one padding entry, as the assembler lays out a .p2align; anything else is code.
                const std::uint64_t nextBegin = r + 1 < regions.size() ? std::max(region.end, regions[r + 1].begin) : region.end;
                bool gapIsPadding = true;
                for (std::uint64_t g = region.end; g + 4 <= nextBegin && gapIsPadding; g += 4) {
                    const auto word = std::uint32_t(readLE(code, g - sectionAddress, 4));
                    gapIsPadding = word == 0 || word == 0xBF800000u || word == 0xBF9F0000u;
                }
                const std::uint64_t codeEnd = gapIsPadding ? region.end : nextBegin;
                KernelInfo kernelInfo = info.count(region.name) ? info[region.name] : KernelInfo {};
                std::uint64_t begin = region.begin;
                std::string about;
                if (region.type == kSttAmdgpuHsaKernel) {
                    const std::uint64_t entry = readKernelCodeT(code.substr(region.begin - sectionAddress), kernelInfo);
                    begin = std::min(region.end, region.begin + entry);
                    about = "code object v2 kernel; its amd_kernel_code_t takes the first " + std::to_string(entry) + " bytes";
                } else if (const auto kd = descriptors.find(region.name); kd != descriptors.end()) {
                    if (!kernelInfo.fromMetadata)
                        readKernelDescriptor(kd->second, *gpu, kernelInfo);
                    about = "kernel, descriptor " + region.name + ".kd";
                } else {
                    about = region.type == llvm::ELF::STT_FUNC ? "function (no kernel descriptor)" : "code without symbols";
                }
                put("");
                put("; " + region.name + ": " + about);
                const int kernelIndex = int(program.kernels.size());
                std::vector<int> declaredLines;
                for (const auto& d : kernelInfo.declared) {
                    const int at = put(";   " + d.name + " = " + std::to_string(d.value) + "    (" + d.from + ")");
                    program.directives.push_back({d.name, d.value, at, kernelIndex});
                }
                Kernel kernel;
                kernel.name = region.name;
                kernel.firstInstruction = int(program.instructions.size());
                kernel.sectionOffset = base + (begin - sectionAddress);
                kernel.line = put(hex(begin, 16) + " <" + region.name + ">:");
                std::uint64_t at = begin;
                decoder.enterRegion(region.name, begin);
                while (nextLabel < symbols.size() && symbols[nextLabel].address <= begin)
                    ++nextLabel;
                while (at < codeEnd) {
                    // Labels (local symbols) inside the kernel start a line of their own.
                    while (nextLabel < symbols.size() && symbols[nextLabel].address <= at) {
                        const Symbol& s = symbols[nextLabel++];
                        if (s.address != at || s.type == llvm::ELF::STT_FUNC || s.type == kSttAmdgpuHsaKernel)
                            continue;
                        Label label;
                        label.name = s.name;
                        label.sectionOffset = base + (at - sectionAddress);
                        label.offset = at - begin;
                        put("");
                        label.line = put(hex(at, 16) + " <" + s.name + ">:");
                        label.instruction = int(program.instructions.size());
                        program.labels.push_back(std::move(label));
                    }
                    const std::size_t from = at - sectionAddress;
                    const std::size_t available = std::min<std::uint64_t>(codeEnd - at, code.size() - from);
                    DecodedInstruction decoded = decoder.decode(
                        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(code.data()) + from, available), at);
                    Instruction& inst = decoded.inst;
                    inst.offset = at - begin;
                    inst.kernel = kernelIndex;
                    setBranchTarget(decoded);
                    nameBranchTarget(decoded, at, labelAt);
                    std::string textOf = "\t" + inst.mnemonic + (inst.operands.empty() ? "" : " " + inst.operands);
                    if (textOf.size() < 60)
                        textOf.resize(60, ' ');
                    inst.line = put(textOf + " // " + hex(at, 12) + ": " + encodingWords(inst.encoding));
                    inst.columnBegin = 1;
                    inst.columnEnd = int(1 + inst.mnemonic.size() + (inst.operands.empty() ? 0 : 1 + inst.operands.size()));
                    at += std::uint64_t(std::max(1, inst.size));
                    program.instructions.push_back(std::move(inst));
                }
                if (nextBegin > at) {
                    Instruction padding;
                    padding.isData = true;
                    padding.family = Family::Data;
                    padding.mnemonic = ".align";
                    padding.size = int(nextBegin - at);
                    padding.operands = std::to_string(padding.size) + " bytes of padding";
                    padding.offset = at - begin;
                    padding.kernel = kernelIndex;
                    padding.line = put("\t; .align: " + padding.operands + " // " + hex(at, 12));
                    program.instructions.push_back(std::move(padding));
                }
                kernel.endInstruction = int(program.instructions.size());
                program.kernels.push_back(std::move(kernel));
            }
            base += code.size();
            base = (base + 255) & ~std::uint64_t(255); // next section on a fresh kernel alignment
        }
        if (program.instructions.empty())
            program.diagnostics.push_back({Severity::Warning, 1, 0, "the code object holds no machine code", {}});
        finishDecodedProgram(program);
        return out;
    }

    const ObjectReadOptions& options_;
};

} // namespace

ObjectListing readCodeObject(std::string_view bytes, const ObjectReadOptions& options)
{
    return Reader(options).read(bytes);
}

} // namespace gcnlens::input
