// SPDX-License-Identifier: MIT
// CLRX's assembler test vectors (tests/amdasm/GCNAsmOpc*.cpp in CLRX/CLRX-mirror: CLRX source text
// and the machine words clrxasm gives, per GPU) laid out by gcnlens' CLRX reader (issue #13).
// Prints, per generation, how many of the cases CLRX accepts come out with exactly the expected
// words. The files are not part of gcnlens; pass them on the command line.
// Usage: clrx_vectors [--llvm] [--classes] [--failures N] [--sample EVERY OUT.tsv] GCNAsmOpc11.cpp GCNAsmOpc12.cpp
// GCNAsmOpc14.cpp
#include "../core/programwords.h"
#include "core/asm/assembler.h"
#include "core/input/clrx.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace gcnlens;

namespace {

struct Case {
    std::string table, text;
    std::vector<std::uint32_t> words;
    bool good = false;
};

// The tables are C++ aggregate initialisers: { "text" "more", word0, word1, twoWords, good, "errors" }.
std::vector<Case> readTables(const std::string& content)
{
    std::vector<Case> cases;
    std::size_t pos = 0;
    const std::string marker = "const GCNAsmOpcodeCase ";
    while ((pos = content.find(marker, pos)) != std::string::npos) {
        pos += marker.size();
        const auto nameEnd = content.find('[', pos);
        const std::string table = content.substr(pos, nameEnd - pos);
        std::size_t i = content.find('{', nameEnd) + 1;
        // entries until the closing "};"
        for (;;) {
            // skip blanks and comments
            for (;;) {
                while (i < content.size() && std::isspace(static_cast<unsigned char>(content[i])))
                    ++i;
                if (content.compare(i, 2, "/*") == 0)
                    i = content.find("*/", i) + 2;
                else if (content.compare(i, 2, "//") == 0)
                    i = content.find('\n', i);
                else
                    break;
            }
            if (i >= content.size() || content[i] == '}')
                break;
            if (content[i] != '{') { // a stray comma
                ++i;
                continue;
            }
            ++i;
            Case c;
            c.table = table;
            // string pieces
            std::vector<std::string> fields;
            std::string current;
            bool inString = false, sawString = false;
            int depth = 0;
            for (; i < content.size(); ++i) {
                const char ch = content[i];
                if (inString) {
                    if (ch == '\\' && i + 1 < content.size()) {
                        const char e = content[++i];
                        current += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                    } else if (ch == '"') {
                        inString = false;
                    } else {
                        current += ch;
                    }
                    continue;
                }
                if (content.compare(i, 2, "/*") == 0) {
                    i = content.find("*/", i) + 1;
                    continue;
                }
                if (ch == '"') {
                    inString = true;
                    sawString = true;
                    continue;
                }
                if (ch == '{')
                    ++depth;
                if (ch == '}' && depth-- == 0) {
                    fields.push_back(current);
                    ++i;
                    break;
                }
                if (ch == ',' && depth == 0) {
                    fields.push_back(current);
                    current.clear();
                    continue;
                }
                if (!std::isspace(static_cast<unsigned char>(ch)))
                    current += ch;
            }
            (void)sawString;
            if (table == "encGCN15OpcodeCases2" || fields.size() < 5)
                continue;
            c.text = fields[0];
            auto word = [](std::string t) {
                while (!t.empty() && (t.back() == 'U' || t.back() == 'u' || t.back() == 'L'))
                    t.pop_back();
                if (t.starts_with("uint32_t(") && t.ends_with(")"))
                    return std::uint32_t(std::stoll(t.substr(9, t.size() - 10), nullptr, 0));
                return std::uint32_t(std::stoull(t, nullptr, 0));
            };
            c.good = fields[4] == "true";
            try {
                c.words.push_back(word(fields[1]));
                if (fields[3] == "true")
                    c.words.push_back(word(fields[2]));
            } catch (const std::exception&) {
                std::fprintf(stderr, "%s: a case with words %s %s not read\n", table.c_str(), fields[1].c_str(),
                             fields[2].c_str());
                continue;
            }
            cases.push_back(std::move(c));
        }
        pos = i;
    }
    return cases;
}

// Why a case does not come out with the expected words (docs/clrx-vectors.md explains each class).
// Classes starting "gpu:" are cases the GPU does not define (CLRX encodes fields the ISA gives no
// meaning to); they are left out of "valid for the GPU". "dont-care:" cases differ from the expected
// words only in a field the ISA says the hardware ignores for that form: they count as matching,
// the bytes being LLVM's. Everything else stays a failure, named.
struct Verdict {
    std::string klass;
    bool validForGpu = true;
    bool matches = false;
};

bool has(const std::string& text, std::string_view what)
{
    return text.find(what) != std::string::npos;
}

Verdict classify(const Case& c, const Program& program, const std::vector<std::uint32_t>& words)
{
    std::string error;
    for (const auto& d : program.diagnostics)
        if (d.severity == Severity::Error) {
            error = d.message;
            break;
        }
    const std::string& t = c.text;
    const std::string mnemonic =
        t.substr(t.find_first_not_of(" \t"), t.find_first_of(" \t\n", t.find_first_not_of(" \t")) - t.find_first_not_of(" \t"));
    if (error.empty() && words.size() == c.words.size()) {
        // Fields the ISA marks unused for the form (GCN3 ISA §12 field tables; CLRX encodes the
        // operand it was given, LLVM zero or its default).
        const std::uint32_t w0 = c.words[0], top = w0 >> 26;
        std::uint32_t mask0 = 0, mask1 = 0;
        const char* why = nullptr;
        if ((top == 0x37) && has(t, "_atomic_") && !((w0 >> 16) & 1)) {
            mask1 = 0xff000000u;
            why = "dont-care: FLAT atomic VDST without GLC (nothing returned)";
        } else if ((top == 0x38 || top == 0x3a) && !((w0 >> 12) & 3) && !((w0 >> 15) & 1)) {
            mask1 = 0xffu;
            why = "dont-care: MUBUF/MTBUF VADDR without OFFEN/IDXEN/ADDR64";
        } else if (top == 0x38 && ((w0 >> 16) & 1)) {
            mask1 = 0xff00u;
            why = "dont-care: MUBUF VDATA of a load to LDS (the data goes to LDS)";
        } else if ((w0 >> 23) == (0xd380u >> 7) && c.words.size() == 2) {
            mask0 = 1u << 14;
            why = "dont-care: VOP3P OP_SEL_HI of the absent third source";
        }
        if (why && c.words.size() == words.size()) {
            bool same = true;
            for (std::size_t i = 0; i < words.size(); ++i) {
                const std::uint32_t m = i == 0 ? mask0 : mask1;
                same = same && (words[i] & ~m) == (c.words[i] & ~m);
            }
            if (same)
                return {why, true, true};
        }
        if (mnemonic == "exp" && has(t, "compr"))
            return {"differs: EXP COMPR enable bits (CLRX one per operand, LLVM per 16-bit pair)"};
        if (has(t, "xd*xy"))
            return {"gpu: CLRX's expected word is not the expression's value (17 for 17*35)", false};
        return {"differs: other"};
    }
    if (error.empty())
        return {"differs: size"};
    // LLVM refused the translated text.
    const bool negInt = (has(t, ", -v") || has(t, "-s"))
        && (has(mnemonic, "_i32") || has(mnemonic, "_u32") || has(mnemonic, "_b32") || has(mnemonic, "_i16")
            || has(mnemonic, "_u16") || has(mnemonic, "_co_u32"));
    if (has(error, "interpolation attribute"))
        return {"gpu: interpolation attribute above 32 (ISA: attr 0-32)", false};
    if (has(error, "constant bus"))
        return {"gpu: two constant-bus reads (literal + VCC/SGPR; ISA: one)", false};
    if (has(error, "register alignment"))
        return {"gpu: odd-aligned 64-bit SGPR pair (ISA: even)", false};
    if (has(error, "TFE modifier has no meaning"))
        return {"gpu: TFE on a store", false};
    if (has(t, "sext(") && (has(t, "abs(") || has(t, "-abs")))
        return {"gpu: SDWA SEXT with ABS/NEG on one operand", false};
    if (has(t, "sext:") && has(t, "abs:"))
        return {"gpu: SDWA SEXT with ABS/NEG on one operand", false};
    if (negInt && has(error, "valid operand"))
        return {"gpu: NEG/ABS on an integer operand (ISA: float only)", false};
    if ((mnemonic == "v_mov_b32" || mnemonic == "v_cvt_f64_i32") && (has(t, "abs(") || has(t, "-s") || has(t, "-v")))
        return {"gpu: NEG/ABS on an integer operand (ISA: float only)", false};
    if ((has(mnemonic, "v_cmp") || mnemonic == "v_mov_b32" || has(mnemonic, "_class_")) && (has(t, "clamp") || has(t, "mul:")))
        return {"gpu: CLAMP/OMOD on a compare or a move (ISA: no output modifier)", false};
    if ((has(mnemonic, "readfirstlane") || has(mnemonic, "readlane") || has(mnemonic, "writelane"))
        && has(error, "invalid operand"))
        return {"gpu: lane operand of the wrong kind (ISA: SGPR/constant lane select, VGPR source)", false};
    if (has(t, "tfe") && (mnemonic.starts_with("tbuffer") || mnemonic.starts_with("flat_")))
        return {"llvm: no TFE form for MTBUF/FLAT in LLVM 19"};
    if (has(t, " lds") && !has(t, "lds:0")
        && (mnemonic.starts_with("buffer_") || mnemonic.starts_with("scratch_") || mnemonic.starts_with("global_")))
        return {"llvm: LDS form with a VDATA operand (LLVM's has none)"};
    if (has(error, "invalid instruction") || has(error, "not supported on this GPU") || has(error, "did you mean"))
        return {"llvm: instruction LLVM 19 lacks for this GPU (" + mnemonic + ")"};
    if (has(error, "expected an absolute expression or a label"))
        return {"translator: branch target relative to . or a local label (LLVM takes a label only)"};
    if (has(error, "register not available"))
        return {"llvm: register LLVM 19 lacks for this GPU (xnack_mask)"};
    if (has(t, " nv"))
        return {"llvm: NV bit LLVM 19 lacks"};
    if (has(error, "only 4-bit values"))
        return {"gpu: S_SET_GPR_IDX_ON mode with reserved bits set (ISA: 4 bits)", false};
    if (has(error, "image_gather dmask"))
        return {"gpu: GATHER4 DMASK with more than one bit (ISA: one component)", false};
    if (has(error, "atomic image dmask"))
        return {"gpu: image atomic DMASK other than 1, 3 or 15 (ISA: the data size)", false};
    return {"llvm: rejects the operand form: " + error.substr(0, 50)};
}

struct Target {
    const char* table;
    const char* gpu;
    const char* generation;
};
constexpr Target kTargets[] = {{"encGCNOpcodeCases", "pitcairn", "GCN 1.0"},
                               {"encGCN11OpcodeCases", "bonaire", "GCN 1.1"},
                               {"encGCN12OpcodeCases", "tonga", "GCN 1.2"},
                               {"encGCN14OpcodeCases", "gfx900", "GCN 1.4"},
                               {"encGCN141OpcodeCases", "gfx906", "GCN 1.4"}};

std::string escaped(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\\')
            out += "\\\\";
        else
            out += c;
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    int showFailures = 0;
    bool asLlvm = false, showClasses = false;
    int sampleEvery = 0;
    std::string sampleFile;
    std::vector<Case> cases;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--llvm") { // the "before" figure: the text read as LLVM syntax, no translation
            asLlvm = true;
            continue;
        }
        if (arg == "--classes") { // every case's class, per generation
            showClasses = true;
            continue;
        }
        if (arg == "--failures" && i + 1 < argc) {
            showFailures = std::stoi(argv[++i]);
            continue;
        }
        if (arg == "--sample" && i + 2 < argc) {
            sampleEvery = std::stoi(argv[++i]);
            sampleFile = argv[++i];
            continue;
        }
        std::ifstream in(arg, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "%s: cannot open\n", arg.c_str());
            return 2;
        }
        std::stringstream buffer;
        buffer << in.rdbuf();
        auto more = readTables(buffer.str());
        cases.insert(cases.end(), more.begin(), more.end());
    }
    if (cases.empty()) {
        std::fprintf(
            stderr,
            "usage: clrx_vectors [--failures N] [--sample EVERY OUT.tsv] GCNAsmOpc11.cpp GCNAsmOpc12.cpp GCNAsmOpc14.cpp\n");
        return 2;
    }
    struct Counts {
        int exact = 0, total = 0, accepted = 0, exactAccepted = 0;
    };
    std::map<std::string, Counts> perGeneration;
    std::map<std::string, int> rejections; // LLVM's first error message → cases
    struct Classes {
        int valid = 0, matching = 0;
        std::map<std::string, int> byClass;
    };
    std::map<std::string, Classes> classes;
    std::ofstream sample;
    if (!sampleFile.empty()) {
        sample.open(sampleFile);
        sample << "# SPDX-License-Identifier: MIT\n"
                  "# A sample of CLRX's assembler test vectors (CLRX/CLRX-mirror tests/amdasm/GCNAsmOpc1{1,2,4}.cpp,\n"
                  "# LGPL-2.1, Mateusz Szpakowski): every "
               << sampleEvery
               << "th case CLRX accepts.\n"
                  "# Columns: table, GPU, CLRX source (\\n escaped), expected words (hex, space-separated), what\n"
                  "# gcnlens gave when the sample was taken: exact, dontcare (other words only in a field the ISA\n"
                  "# says is unused for that form), differs (other words), rejected (LLVM 19 cannot encode it for\n"
                  "# that GPU or the GPU does not define it: an error on the line). docs/clrx-vectors.md: the classes.\n";
    }
    int failuresShown = 0, index = 0;
    const auto start = std::chrono::steady_clock::now();
    std::map<std::string, FrontEnd> frontEnds;
    for (const auto& c : cases) {
        const Target* target = nullptr;
        for (const auto& t : kTargets)
            if (c.table == t.table)
                target = &t;
        if (!target || !c.good)
            continue;
        AssembleOptions options;
        options.gpu = target->gpu;
        options.dialect = asLlvm ? AssembleOptions::Dialect::Llvm : AssembleOptions::Dialect::Clrx;
        options.clrx.format = ClrxFormat::Gallium; // CLRX's tests assemble as Gallium
        const Program& program = frontEnds[target->gpu].analyze(c.text, options);
        const auto words = test::programWords(program);
        const bool exact = !program.hasErrors() && words == c.words;
        const Verdict v = exact ? Verdict {"exact", true, true} : classify(c, program, words);
        {
            Classes& k = classes[target->generation];
            ++k.byClass[v.klass];
            k.valid += v.validForGpu ? 1 : 0;
            k.matching += v.validForGpu && v.matches ? 1 : 0;
        }
        Counts& counts = perGeneration[target->generation];
        counts.exact += exact ? 1 : 0;
        ++counts.total;
        if (!program.hasErrors()) {
            ++counts.accepted;
            counts.exactAccepted += exact ? 1 : 0;
        } else {
            for (const auto& d : program.diagnostics)
                if (d.severity == Severity::Error) {
                    ++rejections[d.message.substr(0, 60)];
                    break;
                }
        }
        if (sample.is_open() && index++ % sampleEvery == 0) {
            // status: exact | differs (LLVM takes it, other words) | rejected (LLVM 19 cannot encode it)
            sample << c.table << '\t' << target->gpu << '\t' << escaped(c.text) << '\t';
            for (std::size_t w = 0; w < c.words.size(); ++w) {
                char hex[16];
                std::snprintf(hex, sizeof hex, "%s%08x", w ? " " : "", c.words[w]);
                sample << hex;
            }
            sample << '\t'
                   << (exact                                  ? "exact"
                           : program.hasErrors()              ? "rejected"
                           : v.klass.starts_with("dont-care") ? "dontcare"
                                                              : "differs")
                   << '\n';
        }
        if (!exact && failuresShown < showFailures) {
            ++failuresShown;
            std::printf("FAIL %s [%s] %s\n  class: %s\n  expected", target->gpu, c.table.c_str(), escaped(c.text).c_str(),
                        v.klass.c_str());
            for (auto w : c.words)
                std::printf(" %08x", w);
            std::printf("\n  got     ");
            for (auto w : words)
                std::printf(" %08x", w);
            std::printf("\n");
            for (const auto& d : program.diagnostics)
                if (d.severity == Severity::Error)
                    std::printf("  %d:%d %s\n", d.line, d.column, d.message.c_str());
            if (!asLlvm) { // what LLVM was given: the translator's output
                ClrxOptions clrx = options.clrx;
                clrx.processor = target->gpu;
                std::printf("  llvm: %s\n", escaped(translateClrx(c.text, clrx).text).c_str());
            }
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // "exact": of every case CLRX accepts (good == true); "of accepted": of those the LLVM 19 AMDGPU
    // assembler takes without an error once translated (the rest are listed by LLVM's reason).
    std::printf("%-8s %18s %28s\n", "", "exact / CLRX-good", "exact / LLVM-accepted");
    Counts all;
    for (const auto& [generation, c] : perGeneration) {
        std::printf("%-8s %5d / %5d (%5.1f%%)   %5d / %5d (%5.1f%%)\n", generation.c_str(), c.exact, c.total,
                    100.0 * c.exact / std::max(1, c.total), c.exactAccepted, c.accepted,
                    100.0 * c.exactAccepted / std::max(1, c.accepted));
        all.exact += c.exact;
        all.total += c.total;
        all.accepted += c.accepted;
        all.exactAccepted += c.exactAccepted;
    }
    std::printf("%-8s %5d / %5d (%5.1f%%)   %5d / %5d (%5.1f%%)   %.2f s\n", "all", all.exact, all.total,
                100.0 * all.exact / std::max(1, all.total), all.exactAccepted, all.accepted,
                100.0 * all.exactAccepted / std::max(1, all.accepted), seconds);
    // The figure: of the cases valid for the GPU (CLRX-good minus the "gpu:" classes),
    // those whose bytes equal the expected words, exactly or but for a don't-care field.
    std::printf("%-8s %30s\n", "", "matching / valid for the GPU");
    for (const auto& [generation, k] : classes) {
        std::printf("%-8s %5d / %5d (%5.1f%%)\n", generation.c_str(), k.matching, k.valid,
                    100.0 * k.matching / std::max(1, k.valid));
        if (showClasses)
            for (const auto& [klass, n] : k.byClass)
                std::printf("    %5d  %s\n", n, klass.c_str());
    }
    std::vector<std::pair<int, std::string>> reasons;
    for (const auto& [message, n] : rejections)
        reasons.emplace_back(n, message);
    std::sort(reasons.rbegin(), reasons.rend());
    std::printf("rejected by LLVM after translation, by first error:\n");
    for (std::size_t i = 0; i < reasons.size() && i < 12; ++i)
        std::printf("  %4d %s\n", reasons[i].first, reasons[i].second.c_str());
    return 0;
}
