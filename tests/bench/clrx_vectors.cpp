// SPDX-License-Identifier: MIT
// CLRX's assembler test vectors (tests/amdasm/GCNAsmOpc*.cpp in CLRX/CLRX-mirror: CLRX source text
// and the machine words clrxasm gives, per GPU) laid out by gcnlens' CLRX reader (issue #13).
// Prints, per generation, how many of the cases CLRX accepts come out with exactly the expected
// words. The files are not part of gcnlens; pass them on the command line.
// Usage: clrx_vectors [--llvm] [--failures N] [--sample EVERY OUT.tsv] GCNAsmOpc11.cpp GCNAsmOpc12.cpp GCNAsmOpc14.cpp
#include "../core/programwords.h"
#include "core/asm/assembler.h"

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
                if (ch == '{') ++depth;
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
                if (t.starts_with("uint32_t(") && t.ends_with(")")) return std::uint32_t(std::stoll(t.substr(9, t.size() - 10), nullptr, 0));
                return std::uint32_t(std::stoull(t, nullptr, 0));
            };
            c.good = fields[4] == "true";
            try {
                c.words.push_back(word(fields[1]));
                if (fields[3] == "true")
                    c.words.push_back(word(fields[2]));
            } catch (const std::exception&) {
                std::fprintf(stderr, "%s: a case with words %s %s not read\n", table.c_str(), fields[1].c_str(), fields[2].c_str());
                continue;
            }
            cases.push_back(std::move(c));
        }
        pos = i;
    }
    return cases;
}

struct Target { const char* table; const char* gpu; const char* generation; };
constexpr Target kTargets[] = {
    {"encGCNOpcodeCases", "pitcairn", "GCN 1.0"}, {"encGCN11OpcodeCases", "bonaire", "GCN 1.1"},
    {"encGCN12OpcodeCases", "tonga", "GCN 1.2"},  {"encGCN14OpcodeCases", "gfx900", "GCN 1.4"},
    {"encGCN141OpcodeCases", "gfx906", "GCN 1.4"}};

std::string escaped(const std::string& text)
{
    std::string out;
    for (char c : text) {
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\\') out += "\\\\";
        else out += c;
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    int showFailures = 0;
    bool asLlvm = false;
    int sampleEvery = 0;
    std::string sampleFile;
    std::vector<Case> cases;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--llvm") { // the "before" figure: the text read as LLVM syntax, no translation
            asLlvm = true;
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
        std::fprintf(stderr, "usage: clrx_vectors [--failures N] [--sample EVERY OUT.tsv] GCNAsmOpc11.cpp GCNAsmOpc12.cpp GCNAsmOpc14.cpp\n");
        return 2;
    }
    struct Counts { int exact = 0, total = 0, accepted = 0, exactAccepted = 0; };
    std::map<std::string, Counts> perGeneration;
    std::map<std::string, int> rejections; // LLVM's first error message → cases
    std::ofstream sample;
    if (!sampleFile.empty()) {
        sample.open(sampleFile);
        sample << "# SPDX-License-Identifier: MIT\n"
                  "# A sample of CLRX's assembler test vectors (CLRX/CLRX-mirror tests/amdasm/GCNAsmOpc1{1,2,4}.cpp,\n"
                  "# LGPL-2.1, Mateusz Szpakowski): every " << sampleEvery << "th case CLRX accepts.\n"
                  "# Columns: table, GPU, CLRX source (\\n escaped), expected words (hex, space-separated), what\n"
                  "# gcnlens gave when the sample was taken: exact, differs (other words), rejected (LLVM 19\n"
                  "# cannot encode it for that GPU: an error on the line).\n";
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
            sample << '\t' << (exact ? "exact" : program.hasErrors() ? "rejected" : "differs") << '\n';
        }
        if (!exact && failuresShown < showFailures) {
            ++failuresShown;
            std::printf("FAIL %s [%s] %s\n  expected", target->gpu, c.table.c_str(), escaped(c.text).c_str());
            for (auto w : c.words)
                std::printf(" %08x", w);
            std::printf("\n  got     ");
            for (auto w : words)
                std::printf(" %08x", w);
            std::printf("\n");
            for (const auto& d : program.diagnostics)
                if (d.severity == Severity::Error)
                    std::printf("  %d:%d %s\n", d.line, d.column, d.message.c_str());
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
    std::vector<std::pair<int, std::string>> reasons;
    for (const auto& [message, n] : rejections)
        reasons.emplace_back(n, message);
    std::sort(reasons.rbegin(), reasons.rend());
    std::printf("rejected by LLVM after translation, by first error:\n");
    for (std::size_t i = 0; i < reasons.size() && i < 12; ++i)
        std::printf("  %4d %s\n", reasons[i].first, reasons[i].second.c_str());
    return 0;
}
