// SPDX-License-Identifier: MIT
// gcnlens's helper programs (the assembler's worker, the report writer) are installed beside the
// programs that start them, so a moved or unpacked install finds them without PATH. An
// environment variable can name another copy (tests, a build tree run from elsewhere).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <string>

namespace gcnlens {

inline std::string programBesideSelf(const char* name, const char* overrideVariable)
{
    if (const char* path = std::getenv(overrideVariable); path && *path)
        return path;
    char self[4096];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0)
        return name; // no /proc: leave it to execvp's PATH search
    std::string path(self, std::size_t(length));
    path.erase(path.rfind('/') + 1);
    return path + name;
}

} // namespace gcnlens
