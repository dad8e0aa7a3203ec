// SPDX-License-Identifier: MIT
// Fuzzes the front-end (core/asm/assembler.h): any text through assemble(), and the editor's
// incremental paths: after a random edit, FrontEnd::analyze() of the edited text, or
// FrontEnd::edit() of the edit as lines (the editor's path since the line edits), must give the
// same Program as a fresh assemble() of the edited text (compared line by line with the tests' describe()); a difference
// aborts with the first differing line. (The exception by design: a placeholder that keeps its size
// from before the edit, as in tst_incremental.) Without an edit, the text assembled with the
// statement cache, the expansions read from the statements and the printed shapes
// (FastPaths::statementCache, inferredExpansions, printedShapes; issue #18) must give the Program
// it gives without them.
//
// Input: the source text, followed by the edit's parameters, which FuzzedDataProvider takes from
// the END of the data; so any plain source file is a seed as it is (no edit), and the fuzzer grows
// the edit by mutating the tail.
#include "core/asm/assembler.h"
#include "core/asm/fastpaths.h"
#include "core/asm/sourcemap.h"
#include "core/input/clrx.h"
#include "tests/core/describeprogram.h"
#include "tests/core/linechange.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

using namespace gcnlens;

namespace {

// Presets of each encoding family the front-end handles differently (GFX6, GFX9, GFX90A, GFX10).
constexpr const char* kGpus[] = {"tahiti", "gfx900", "gfx906", "gfx90a", "gfx1030"};
// What a bad paste leaves: a stray quote, bracket, comment opener or line break.
constexpr char kStray[] = "\"'()[]{}\n;,:#/*.\\";

struct Edit {
    std::size_t at, removed, from, copied;
    int mode; // 0: insert a copy of part of the text (a duplicated line), 1: a stray character, 2: both
    char stray;

    std::string applyTo(const std::string& text) const
    {
        const std::size_t where = at % (text.size() + 1);
        std::string insert;
        if (mode != 1)
            insert = text.substr(from % (text.size() + 1), copied);
        if (mode != 0)
            insert += stray;
        std::string out = text;
        out.replace(where, std::min(removed, text.size() - where), insert);
        return out;
    }
};

// The text LLVM reads for a source: the CLRX translation when it is one, with the source map's
// changes (directives blanked, '?' for what LLVM would never finish) and the blank lines
// AssemblerSession puts after it (core/asm/streamer_p.h). (The incremental path's re-assembled
// lines are not among them.)
std::string llvmText(const std::string& text, const AssembleOptions& options)
{
    std::string source = text;
    if (resolvedDialect(text, options) == AssembleOptions::Dialect::Clrx) {
        ClrxOptions clrx;
        clrx.processor = options.gpu;
        source = translateClrx(text, clrx).text;
    }
    std::string seen(SourceMap(source).assemblerText());
    seen.append(seen.ends_with('\n') ? 3 : 4, '\n');
    return seen;
}

// tools/fuzz replays a finding with GCNLENS_FUZZ_REPLAY=DIR set to get the texts this input
// assembles (DIR/before.s, DIR/after.s for an edit, DIR/gpu) and what LLVM reads of them
// (DIR/llvm-before.s, DIR/llvm-after.s), and runs llvm-mc on them to tell LLVM's faults from
// gcnlens's.
void dumpForReplay(const AssembleOptions& options, const std::string& text, const std::string& after)
{
    const char* dir = std::getenv("GCNLENS_FUZZ_REPLAY");
    if (!dir)
        return;
    const auto write = [dir](const char* name, const std::string& content) {
        if (FILE* f = std::fopen((std::string(dir) + "/" + name).c_str(), "wb")) {
            std::fwrite(content.data(), 1, content.size(), f);
            std::fclose(f);
        }
    };
    write("gpu", options.gpu + "\n");
    write("before.s", text);
    write("llvm-before.s", llvmText(text, options));
    if (!after.empty()) {
        write("after.s", after);
        write("llvm-after.s", llvmText(after, options));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    FuzzedDataProvider fdp(data, size);
    AssembleOptions options;
    options.gpu = kGpus[fdp.ConsumeIntegralInRange<std::size_t>(0, std::size(kGpus) - 1)];
    options.fileName = "<fuzz>";
    const bool incrementalPath = fdp.ConsumeBool();
    const bool asLines = fdp.ConsumeBool(); // FrontEnd::edit (the editor's path) instead of analyze
    Edit edit {};
    edit.at = fdp.ConsumeIntegral<std::uint16_t>();
    edit.removed = fdp.ConsumeIntegralInRange<std::size_t>(0, 80);
    edit.from = fdp.ConsumeIntegral<std::uint16_t>();
    edit.copied = fdp.ConsumeIntegralInRange<std::size_t>(0, 80);
    edit.mode = fdp.ConsumeIntegralInRange<int>(0, 2);
    edit.stray = kStray[fdp.ConsumeIntegralInRange<std::size_t>(0, sizeof kStray - 2)];
    const std::string text = fdp.ConsumeRemainingBytesAsString();

    const std::string after = incrementalPath ? edit.applyTo(text) : std::string();
    dumpForReplay(options, text, after);

    if (!incrementalPath) {
        const QStringList replayed = test::describe(assemble(text, options));
        fastPaths().statementCache = false;
        fastPaths().inferredExpansions = false;
        fastPaths().printedShapes = false;
        const QStringList parsed = test::describe(assemble(text, options));
        fastPaths().statementCache = true;
        fastPaths().inferredExpansions = true;
        fastPaths().printedShapes = true;
        if (replayed != parsed) {
            std::fprintf(stderr, "the statement cache, the expansions read or the printed shapes change the Program (%s):\n%s\n",
                         options.gpu.c_str(), qPrintable(test::firstDifference(replayed, parsed)));
            std::abort();
        }
        return 0;
    }
    // The fresh run first: assemble() then hands its target kit back to the pool before the
    // FrontEnd takes one, so one kit per target serves both (with both alive at once, each input
    // needed two, and the pool's eight places did not hold them for five GPUs: a new kit, the
    // costliest part of a run, every few inputs).
    const Program freshProgram = assemble(after, options);
    FrontEnd frontEnd;
    (void)frontEnd.analyze(text, options);
    const Program* edited = asLines ? frontEnd.edit(test::lineChange(text, after), options) : &frontEnd.analyze(after, options);
    if (!edited) {
        std::fprintf(stderr, "FrontEnd::edit refused a line edit of the text it holds\n");
        std::abort();
    }
    const Program& program = *edited;
    // The one designed difference (program.h, as tst_incremental): a half-typed line keeps the size
    // it had before the edit, where a fresh run assumes 4 bytes.
    for (const Instruction& i : program.instructions)
        if (i.placeholder && i.operands.find("before this edit") != std::string::npos)
            return 0;
    const QStringList incremental = test::describe(program);
    const QStringList fresh = test::describe(freshProgram);
    if (incremental != fresh) {
        if (const char* dir = std::getenv("GCNLENS_FUZZ_REPLAY")) // both in full, for tst_incremental's row
            for (const auto& [name, lines] : {std::pair {"incremental.txt", &incremental}, std::pair {"fresh.txt", &fresh}})
                if (FILE* f = std::fopen((std::string(dir) + "/" + name).c_str(), "wb")) {
                    std::fputs(qPrintable(lines->join(QLatin1Char('\n'))), f);
                    std::fclose(f);
                }
        for (qsizetype i = 0; i < std::max(incremental.size(), fresh.size()); ++i) {
            const QString a = i < incremental.size() ? incremental[i] : QStringLiteral("(none)");
            const QString b = i < fresh.size() ? fresh[i] : QStringLiteral("(none)");
            if (a != b) {
                std::fprintf(stderr, "incremental differs from fresh at entry %lld:\n  incremental: %s\n  fresh:       %s\n",
                             static_cast<long long>(i), qPrintable(a), qPrintable(b));
                break;
            }
        }
        std::fprintf(stderr, "--- through FrontEnd::%s; before the edit (%s):\n%s\n--- after:\n%s\n---\n",
                     asLines ? "edit" : "analyze", options.gpu.c_str(), text.c_str(), after.c_str());
        std::abort();
    }
    return 0;
}
