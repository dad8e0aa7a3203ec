// SPDX-License-Identifier: MIT
// libFuzzer target for the listing reader (and the detection that picks it): any text gives a
// Program, never a crash or a hang (issue #14, Safety).
#include "core/input/detect.h"
#include "core/input/listingreader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    gcnlens::input::looksLikeListing(text);
    gcnlens::AssembleOptions options;
    options.gpu = "gfx900";
    options.fileName = "fuzz.lst";
    gcnlens::input::readListing(text, options);
    return 0;
}
