// SPDX-License-Identifier: MIT
// gcnlens-cli: the command-line twin of the window. All work happens in commands.cpp.
#include "commands.h"

int main(int argc, char** argv)
{
    return gcnlens::cli::run(argc, argv);
}
