// SPDX-License-Identifier: MIT
// libFuzzer target for the code object reader: any bytes give a Program or an error, never a
// crash or a hang (issue #14, Safety). Seeds: objects made by llvm-mc from tests/data/input.
#include "core/input/objectreader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    gcnlens::input::ObjectReadOptions options;
    options.fileName = "fuzz.o";
    const auto read = gcnlens::input::readCodeObject(std::string_view(reinterpret_cast<const char*>(data), size), options);
    return read.program.instructions.size() > size ? 1 : 0; // every instruction takes at least a byte
}
