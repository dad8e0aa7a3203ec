// SPDX-License-Identifier: MIT
// What the loader (loader.h) read, to a Program by its kind: source is assembled, a code object
// disassembled (objectreader.h), a listing read (listingreader.h). The CLI and the window share it.
// Given an IsolatedFrontEnd (core/asm/isolated.h), code objects and listings are read in its
// worker process, where a crash or a hang of LLVM's disassembler becomes an error (issue #12).
#pragma once

#include "core/asm/assembler.h"
#include "core/input/loader.h"

#include <string>

namespace gcnlens {
class IsolatedFrontEnd;
}

namespace gcnlens::input {

struct ReadInput {
    bool assembled = false; // source text: the caller assembles or analyses `text` itself (the editor path)
    Program program;        // code objects and listings
    std::string text;       // what to show: the source, the listing, or the code object's generated listing
    bool readOnly = false;  // a code object's listing is generated, not the user's file
    std::string error;      // non-empty: nothing readable; the cause, without the file's name
};

// gpuChosen: options.gpu is the user's choice; otherwise a code object names its own processor.
// isolated: the worker to read code objects and listings in; null reads them in this process.
ReadInput readInput(Loaded&& loaded, const AssembleOptions& options, bool gpuChosen, IsolatedFrontEnd* isolated = nullptr);

} // namespace gcnlens::input
