// SPDX-License-Identifier: MIT
#include "core/input/readers.h"

#include "core/asm/isolated.h"
#include "core/input/listingreader.h"
#include "core/input/objectreader.h"

namespace gcnlens::input {

ReadInput readInput(Loaded&& loaded, const AssembleOptions& options, bool gpuChosen, IsolatedFrontEnd* isolated)
{
    ReadInput out;
    out.error = std::move(loaded.error);
    if (!out.error.empty())
        return out;
    switch (loaded.kind) {
    case InputKind::Binary: {
        ObjectReadOptions objectOptions;
        objectOptions.gpu = gpuChosen ? options.gpu : std::string();
        objectOptions.fileName = options.fileName;
        ObjectListing read = isolated ? isolated->readCodeObject(loaded.bytes, objectOptions, options.limits)
                                      : readCodeObject(loaded.bytes, objectOptions);
        out.error = std::move(read.error);
        out.program = std::move(read.program);
        out.text = std::move(read.listing);
        out.readOnly = true;
        return out;
    }
    case InputKind::Listing:
        out.program = isolated ? isolated->readListing(loaded.text, options) : readListing(loaded.text, options);
        out.text = std::move(loaded.text);
        return out;
    default:
        out.assembled = true;
        out.text = std::move(loaded.text);
        return out;
    }
}

} // namespace gcnlens::input
