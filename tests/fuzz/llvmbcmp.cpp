// SPDX-License-Identifier: MIT
// A bcmp() for the targets whose inputs reach LLVM's AMDGPU parser (fuzz_frontend, and
// fuzz_listingreader, which assembles every listing). LLVM 19 answers each unknown mnemonic, most
// lines of a fuzzed text, with a spell check over its whole mnemonic table: hundreds of thousands
// of bcmp() calls per input, each of which went through ASan's interceptor into libFuzzer's memcmp
// hook (36 % of fuzz_listingreader's time, perf, issue #12). This definition replaces the
// interceptor (a weak symbol) for libLLVM and this binary alike. Calls from this binary's own code
// (gcnlens, instrumented) still go to memcmp, so libFuzzer keeps seeing gcnlens's comparisons, and
// so do ranges ASan knows to be bad, which its interceptor then reports; the rest (libLLVM's) is
// compared here, out of libFuzzer's sight.
#include <link.h>
#include <sanitizer/asan_interface.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

// The linker's: where this executable's image and its code end (GNU ld and lld define both).
extern "C" const char __ehdr_start;
extern "C" const char etext;

// Nothing on this path is instrumented: it runs for every comparison of the spell check.
#define GCNLENS_UNINSTRUMENTED __attribute__((no_sanitize("address", "undefined", "coverage")))

namespace {

// Read once, before the fuzzing starts (comparisons made earlier ask ASan directly).
struct Layout {
    bool ready = false;
    // Where libLLVM is mapped. It is not instrumented, so ASan poisons none of its memory, and
    // its mnemonic table is one side of nearly every comparison.
    std::uintptr_t llvmBegin = 0, llvmEnd = 0;
    // ASan's shadow: shadow byte = (address >> scale) + offset, 0 when its whole granule is good.
    std::size_t shadowScale = 0, shadowOffset = 0;
};
Layout layout;

GCNLENS_UNINSTRUMENTED __attribute__((constructor)) void readLayout()
{
    Layout found;
    found.llvmBegin = UINTPTR_MAX;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) {
            if (!info->dlpi_name || !std::strstr(info->dlpi_name, "libLLVM"))
                return 0;
            auto& image = *static_cast<Layout*>(data);
            for (int i = 0; i < info->dlpi_phnum; ++i)
                if (info->dlpi_phdr[i].p_type == PT_LOAD) {
                    const std::uintptr_t begin = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
                    image.llvmBegin = std::min(image.llvmBegin, begin);
                    image.llvmEnd = std::max(image.llvmEnd, begin + info->dlpi_phdr[i].p_memsz);
                }
            return 1;
        },
        &found);
    __asan_get_shadow_mapping(&found.shadowScale, &found.shadowOffset);
    found.ready = true;
    layout = found;
}

// (A function, not a lambda: a lambda does not take the attribute, and ASan would check this read
// of its own shadow.)
GCNLENS_UNINSTRUMENTED inline std::int8_t shadow(std::uintptr_t address)
{
    return *reinterpret_cast<const std::int8_t*>((address >> layout.shadowScale) + layout.shadowOffset);
}

// True when ASan knows a byte at either end of [first, first + n) to be bad (a whole-range check
// cost more than the comparisons). Outside libLLVM the range is most often one string, the
// mnemonic being checked against each entry of the table, so its shadow bytes are hot in the
// cache: read inline, a 0 settles it; anything else is asked of ASan. (Asking ASan about all four
// ends of every comparison took 6-10 % of the targets' time, perf.)
GCNLENS_UNINSTRUMENTED inline bool poisoned(const char* first, std::size_t n)
{
    const auto at = reinterpret_cast<std::uintptr_t>(first), last = at + n - 1;
    if (!layout.ready)
        return __asan_address_is_poisoned(first) || __asan_address_is_poisoned(first + n - 1);
    if (at >= layout.llvmBegin && last < layout.llvmEnd && at <= last)
        return false;
    return (shadow(at) != 0 && __asan_address_is_poisoned(first))
        || (shadow(last) != 0 && __asan_address_is_poisoned(first + n - 1));
}

} // namespace

extern "C" GCNLENS_UNINSTRUMENTED __attribute__((no_builtin("bcmp", "memcmp"))) int bcmp(const void* a, const void* b,
                                                                                         std::size_t n)
{
    const auto caller = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    const bool fromThisBinary =
        caller >= reinterpret_cast<std::uintptr_t>(&__ehdr_start) && caller < reinterpret_cast<std::uintptr_t>(&etext);
    const auto* x = static_cast<const char*>(a);
    const auto* y = static_cast<const char*>(b);
    if (fromThisBinary || (n && (poisoned(x, n) || poisoned(y, n))))
        return std::memcmp(a, b, n) != 0;
    // Eight bytes at a time: a byte loop took 30 % of the time (the table's neighbours share long
    // prefixes: v_cmp_f_f32, v_cmp_f_f64).
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        std::uint64_t u, v;
        __builtin_memcpy(&u, x + i, 8);
        __builtin_memcpy(&v, y + i, 8);
        if (u != v)
            return 1;
    }
    for (; i < n; ++i)
        if (x[i] != y[i])
            return 1;
    return 0;
}
