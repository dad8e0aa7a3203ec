// SPDX-License-Identifier: MIT
#include "core/options.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace gcnlens {

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

bool symbolStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool symbolChar(char c)
{
    return symbolStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

} // namespace

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    text = trimmed(text);
    if (text.empty() || text.size() > 64)
        return std::nullopt;
    const std::string copy(text);
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(copy.c_str(), &end, 0);
    if (errno != 0 || end != copy.c_str() + copy.size())
        return std::nullopt;
    return std::int64_t(value);
}

std::optional<std::pair<std::string, std::int64_t>> parseDefsym(std::string_view text, std::string* error)
{
    const auto fail = [&](const char* why) -> std::optional<std::pair<std::string, std::int64_t>> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || trimmed(text.substr(0, eq)).empty())
        return fail("write NAME=VALUE with an integer VALUE");
    const std::string_view name = trimmed(text.substr(0, eq));
    if (!symbolStart(name.front()))
        return fail("NAME must start with a letter, '_', '.' or '$'");
    for (const char c : name)
        if (!symbolChar(c))
            return fail("NAME may hold only letters, digits, '_', '.' and '$'");
    const auto value = parseInteger(text.substr(eq + 1));
    if (!value)
        return fail("write NAME=VALUE with an integer VALUE");
    return std::pair {std::string(name), *value};
}

} // namespace gcnlens
