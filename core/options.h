// SPDX-License-Identifier: MIT
// Options that the command line and the window both read from text, parsed by one set of rules
// so that they accept and refuse the same things with the same messages.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gcnlens {

// "NAME=VALUE" as GNU as takes --defsym: NAME a symbol name ([A-Za-z_.$][A-Za-z0-9_.$]*), VALUE an
// integer in C notation (0x40, 010, -3). nullopt with *error set when it is not that.
std::optional<std::pair<std::string, std::int64_t>> parseDefsym(std::string_view text, std::string* error = nullptr);

// An integer in C notation (decimal, 0x hex, 0 octal, optional sign), the whole text.
std::optional<std::int64_t> parseInteger(std::string_view text);

} // namespace gcnlens
