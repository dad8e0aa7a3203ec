// SPDX-License-Identifier: MIT
// A developer's check of the shape pass (frontend.cpp, planShapes) on any corpus of kernels:
// each file is assembled with and without it and every field compared (as tst_shapes does on
// the project's own inputs). Prints one line per file and the first difference, if any.
// Usage: check_shapes [--gpu NAME] FILE...   Exit status 1 when any file differs.
#include "../core/describeprogram.h"
#include "core/asm/assembler.h"

#include <QFile>

#include <cstdio>

using namespace gcnlens;

int main(int argc, char** argv)
{
    std::string gpu = "tahiti";
    int differing = 0, files = 0;
    long reused = 0, instructions = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--gpu" && i + 1 < argc) {
            gpu = argv[++i];
            continue;
        }
        QFile file(QString::fromLocal8Bit(argv[i]));
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "%s: cannot open\n", argv[i]);
            return 2;
        }
        const std::string source = file.readAll().toStdString();
        AssembleOptions options;
        options.gpu = gpu;
        options.fileName = arg;
        const Program with = assemble(source, options);
        options.reuseShapes = false;
        const Program without = assemble(source, options);
        const QStringList a = test::describe(with), b = test::describe(without);
        ++files;
        reused += with.shapeReused;
        instructions += long(with.instructions.size());
        const bool same = a == b;
        differing += same ? 0 : 1;
        std::printf("%-6s %s: %zu instructions, %d from shapes, %zu diagnostics\n", same ? "same" : "DIFFER", argv[i],
                    with.instructions.size(), with.shapeReused, with.diagnostics.size());
        if (!same)
            std::printf("  %s\n", qPrintable(test::firstDifference(a, b)));
    }
    std::printf("%d files, %d differ; %ld of %ld instructions encoded from shapes\n", files, differing, reused, instructions);
    return differing ? 1 : 0;
}
