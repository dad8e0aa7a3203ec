// SPDX-License-Identifier: MIT
// A bcmp() for the targets whose inputs reach LLVM's AMDGPU parser (fuzz_listingreader assembles
// every listing). LLVM 19 answers each unknown mnemonic, most lines of a fuzzed text, with a spell
// check over its whole mnemonic table: thousands of bcmp() calls per line, each of which went
// through ASan's interceptor into libFuzzer's memcmp hook (36 % of fuzz_listingreader's time, perf,
// issue #12). This definition replaces the interceptor (a weak symbol) for libLLVM and this binary
// alike. Calls from this binary's own code (gcnlens, instrumented) still go to memcmp, so
// libFuzzer keeps seeing gcnlens's comparisons, and so do ranges ASan knows to be bad, which its
// interceptor then reports; the rest (libLLVM's) is compared here, out of libFuzzer's sight.
#include <sanitizer/asan_interface.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

// The linker's: where this executable's image and its code end (GNU ld and lld define both).
extern "C" const char __ehdr_start;
extern "C" const char etext;

extern "C" __attribute__((no_sanitize("address", "undefined", "coverage"), no_builtin("bcmp", "memcmp"))) int
bcmp(const void* a, const void* b, std::size_t n)
{
    const auto caller = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
    const bool fromThisBinary =
        caller >= reinterpret_cast<std::uintptr_t>(&__ehdr_start) && caller < reinterpret_cast<std::uintptr_t>(&etext);
    const auto* x = static_cast<const char*>(a);
    const auto* y = static_cast<const char*>(b);
    // Both ends of both ranges (a whole-range check cost more than the comparisons).
    if (fromThisBinary
        || (n
            && (__asan_address_is_poisoned(x) || __asan_address_is_poisoned(x + n - 1) || __asan_address_is_poisoned(y)
                || __asan_address_is_poisoned(y + n - 1))))
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
