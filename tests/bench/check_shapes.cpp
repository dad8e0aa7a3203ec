// SPDX-License-Identifier: MIT
// A developer's check of the front-end's fast paths on any corpus of kernels: each file is
// assembled with every fast path and without each of them, and every field compared (as tst_shapes
// does on the project's own inputs). Prints one line per file and the first difference, if any.
// Usage: check_shapes [--gpu NAME] [--defsym N=V]... [-I DIR]... [--manifest TSV] [--once] [--no-shape-pass] [--off=NAME]...
// FILE...
//   --manifest: a TSV like /work/corpus/MANIFEST.tsv (columns path, gpu, defsyms, include dirs,
//               dialect): each FILE names a row (all llvm-dialect rows when no FILE is given) and
//               takes its GPU, --defsyms and include folders (relative to the manifest's folder).
//   --once:     assemble each file once, with every fast path, and compare nothing (for profilers).
//   --no-shape-pass: leave the shape pass off in every run, so that plain lines meet the statement
//               cache (LLVM's own assembler tests are such lines, one instruction each).
//   --off=NAME: with --once, switch that fast path off (its name as printed on a difference).
// Exit status 1 when any file differs.
#include "../core/describeprogram.h"
#include "core/asm/assembler.h"
#include "core/asm/fastpaths.h"
#include "manifestjobs.h"

#include <QFile>

#include <algorithm>
#include <cstdio>

using namespace gcnlens;

namespace {

// The fast paths, each switched off on its own: a run without it must give the same Program.
struct FastPath {
    const char* name;
    void (*set)(AssembleOptions&, bool on);
};
const FastPath kFastPaths[] = {
    {"shapes", [](AssembleOptions& o, bool on) { o.reuseShapes = on; }},
    {"expansion-per-buffer", [](AssembleOptions&, bool on) { fastPaths().expansionPerBuffer = on; }},
    {"buffer-index", [](AssembleOptions&, bool on) { fastPaths().bufferIndex = on; }},
    {"value-classes", [](AssembleOptions&, bool on) { fastPaths().valueClasses = on; }},
    {"statement-cache", [](AssembleOptions&, bool on) { fastPaths().statementCache = on; }},
    {"statement-shapes", [](AssembleOptions&, bool on) { fastPaths().statementShapes = on; }},
    {"inferred-expansions", [](AssembleOptions&, bool on) { fastPaths().inferredExpansions = on; }},
    {"printed-shapes", [](AssembleOptions&, bool on) { fastPaths().printedShapes = on; }},
};

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> flags;
    std::vector<bench::Job> jobs = bench::parseJobs(argc, argv, flags);
    const bool once = std::find(flags.begin(), flags.end(), "--once") != flags.end();
    const bool noShapePass = std::find(flags.begin(), flags.end(), "--no-shape-pass") != flags.end();
    AssembleOptions switched; // (--off=shapes lands here; the others are process-wide)
    for (const std::string& flag : flags)
        for (const FastPath& path : kFastPaths)
            if (flag == std::string("--off=") + path.name)
                path.set(switched, false);

    int differing = 0, files_ = 0, comparisons = 0;
    long reused = 0, instructions = 0, replayed = 0, fromStatementShapes = 0;
    for (bench::Job& job : jobs) {
        QFile file(QString::fromStdString(job.path));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "%s: cannot open\n", job.path.c_str());
            return 2;
        }
        const std::string source = file.readAll().toStdString();
        AssembleOptions options = job.options;
        options.reuseShapes = !noShapePass && switched.reuseShapes;
        const Program with = assemble(source, options);
        ++files_;
        reused += with.shapeReused;
        replayed += with.statementsReplayed;
        fromStatementShapes += with.statementsFromShapes;
        instructions += long(with.instructions.size());
        if (once) {
            std::printf("%s: %zu instructions, %d from shapes, %d statements replayed, %d from statement shapes\n",
                        job.label.c_str(), with.instructions.size(), with.shapeReused, with.statementsReplayed,
                        with.statementsFromShapes);
            continue;
        }
        const QStringList a = test::describe(with);
        std::string verdict = "same";
        QString difference;
        for (const FastPath& path : kFastPaths) {
            AssembleOptions without = options;
            path.set(without, false);
            const QStringList b = test::describe(assemble(source, without));
            path.set(without, true);
            ++comparisons;
            if (a != b && difference.isEmpty()) {
                verdict = std::string("DIFFER without ") + path.name;
                difference = test::firstDifference(a, b);
            }
        }
        differing += difference.isEmpty() ? 0 : 1;
        std::printf("%-6s %s: %zu instructions, %d from shapes, %d replayed, %d from statement shapes, %zu diagnostics\n",
                    verdict.c_str(), job.label.c_str(), with.instructions.size(), with.shapeReused, with.statementsReplayed,
                    with.statementsFromShapes, with.diagnostics.size());
        if (!difference.isEmpty())
            std::printf("  %s\n", qPrintable(difference));
    }
    std::printf("%d files, %d differ (%d comparisons of every field, each fast path off in turn); of %ld instructions "
                "%ld encoded from shapes, %ld statements replayed, %ld made from statement shapes\n",
                files_, differing, comparisons, instructions, reused, replayed, fromStatementShapes);
    return differing ? 1 : 0;
}
