// SPDX-License-Identifier: MIT
// gcnlens-cli: the command-line twin of the window. All work happens in commands.cpp.
#include "commands.h"

#include "core/asm/isolated.h"

int main(int argc, char** argv)
{
    // One thread: the assembler's worker can be a fork of this process (issue #18).
    gcnlens::IsolatedFrontEnd::forkWorkers(true);
    return gcnlens::cli::run(argc, argv);
}
