// SPDX-License-Identifier: MIT
// libFuzzer target for the listing reader (and the detection that picks it): any text gives a
// Program, never a crash or a hang (issue #14, Safety).
#include "core/input/detect.h"
#include "core/input/listingreader.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

namespace {

constexpr const char* kGpu = "gfx900";

// tools/fuzz replays a finding with GCNLENS_FUZZ_REPLAY=DIR set: the text the reader has LLVM
// assemble goes to DIR/before.s (and the GPU to DIR/gpu), so that llvm-mc can tell LLVM's hangs
// from gcnlens's.
void writeForReplay(std::string_view listing)
{
    const char* dir = std::getenv("GCNLENS_FUZZ_REPLAY");
    if (!dir)
        return;
    for (const auto& [name, content] :
         {std::pair<const char*, std::string> {"/before.s", gcnlens::input::listingAssemblerText(listing)},
          std::pair<const char*, std::string> {"/gpu", std::string(kGpu) + "\n"}})
        if (FILE* f = std::fopen((std::string(dir) + name).c_str(), "wb")) {
            std::fwrite(content.data(), 1, content.size(), f);
            std::fclose(f);
        }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    writeForReplay(text);
    gcnlens::input::looksLikeListing(text);
    gcnlens::AssembleOptions options;
    options.gpu = kGpu;
    options.fileName = "fuzz.lst";
    gcnlens::input::readListing(text, options);
    return 0;
}
