// SPDX-License-Identifier: MIT
// Fuzzes the one loader (core/input/loader.h): loadBytes() on any bytes; SourceDecoder fed the same
// bytes in random chunks must give the same text, format and error (the window reads in slices);
// and a loaded text saved with encodeSource() in its own format must load back to the same text.
//
// Input: the file's bytes; the first byte seeds the chunk sizes.
#include "core/input/loader.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>

using namespace gcnlens::input;

namespace {

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b)
{
    std::fprintf(stderr, "loader: %s\n  first:  %zu bytes\n  second: %zu bytes\n", what, a.size(), b.size());
    std::abort();
}

bool sameFormat(const SourceFormat& a, const SourceFormat& b)
{
    return a.encoding == b.encoding && a.bom == b.bom && a.latin1Fallback == b.latin1Fallback && a.crlf == b.crlf;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    std::minstd_rand chunking(data[0]);
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);

    (void)detectInputKind(bytes);
    const Loaded loaded = loadBytes(bytes, InputKind::Llvm);

    SourceDecoder decoder;
    bool ok = true;
    for (std::size_t at = 0; ok && at < bytes.size();) {
        const std::size_t chunk = std::min<std::size_t>(chunking() % 9 + 1, bytes.size() - at);
        ok = decoder.feed(bytes.substr(at, chunk));
        at += chunk;
    }
    ok = ok && decoder.finish();
    if (ok != loaded.error.empty())
        fail("chunked decoding and loadBytes disagree on an error", decoder.error(), loaded.error);
    if (!ok) {
        if (decoder.error() != loaded.error)
            fail("chunked decoding gives another error", decoder.error(), loaded.error);
        return 0;
    }
    if (decoder.text() != loaded.text)
        fail("chunked decoding gives another text", decoder.text(), loaded.text);
    if (!sameFormat(decoder.format(), loaded.format))
        fail("chunked decoding gives another format", decoder.text(), loaded.text);

    bool lossy = false;
    const std::string saved = encodeSource(loaded.text, loaded.format, &lossy);
    if (lossy)
        return 0;
    const Loaded again = loadBytes(saved, InputKind::Llvm);
    if (!again.error.empty())
        fail("the saved file does not load", saved, again.error);
    if (again.text != loaded.text)
        fail("the saved file loads to another text", again.text, loaded.text);
    return 0;
}
