// SPDX-License-Identifier: MIT
// gcnlens-cli: the command-line twin of the window. All work happens in commands.cpp.
#include "commands.h"

#include "core/asm/isolated.h"

#include <malloc.h>

int main(int argc, char** argv)
{
    // A short-lived process that builds and drops a few large arrays (the emissions, the program,
    // its encoding for the pipe): keep freed memory in the heap for the next one rather than
    // unmapping it and faulting fresh pages in again (issue #18: a tenth of a 100k-line listing's
    // time). Set before the fork, so the worker keeps it too.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
    // One thread: the assembler's worker can be a fork of this process, and a command that
    // assembles a source carries on in that fork, the program never sent back (issue #18).
    gcnlens::IsolatedFrontEnd::forkWorkers(true);
    gcnlens::IsolatedFrontEnd::carryOnInChild(true);
    return gcnlens::cli::run(argc, argv);
}
