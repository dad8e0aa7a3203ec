// SPDX-License-Identifier: MIT
// gcnlens-asm-worker: runs LLVM's assembler for gcnlens-cli and the window, which start it beside
// themselves (core/asm/isolated.h). Not meant to be run by hand: it serves requests on an
// inherited socket until that closes.
#include "core/asm/isolated.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv)
{
    int socket = 3, progress = 4;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--socket=", 9) == 0)
            socket = std::atoi(argv[i] + 9);
        else if (std::strncmp(argv[i], "--progress=", 11) == 0)
            progress = std::atoi(argv[i] + 11);
        else {
            std::fprintf(stderr, "gcnlens-asm-worker: started by gcnlens (core/asm/isolated.h), not by hand\n");
            return 2;
        }
    }
    return gcnlens::runAssemblerWorker(socket, progress);
}
