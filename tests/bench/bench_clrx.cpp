// SPDX-License-Identifier: MIT
// Issue #13: the cost of reading CLRX syntax. The same kernel (generatedkernel.h) in LLVM syntax
// and in CLRX syntax (a .kernel/.config header, '#' comments, register symbols, vop3 and ';'),
// assembled alternately; prints the medians and the ratio (goal: at most 1.20).
// Usage: bench_clrx [INSTRUCTIONS...]   (default 10000 100000)
#include "generatedkernel.h"

#include "core/asm/assembler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The generated LLVM kernel rewritten in CLRX syntax, line for line where it can be.
std::string clrxTwin(const std::string& llvm)
{
    std::string out = ".kernel kernel\n  .config\n    .dims x\n    .vgprsnum 100\n    .sgprsnum 100\n.text\n"
                      "src = %v[1:3]   # register symbols\n";
    std::size_t start = 0;
    int line = 0;
    while (start < llvm.size()) {
        auto end = llvm.find('\n', start);
        std::string text = llvm.substr(start, end - start);
        start = end + 1;
        if (text == ".text" || text == "kernel:")
            continue;
        // CLRX forms with the same encoding: symbols for v1/v2, vop3 instead of _e64.
        if (const auto at = text.find("v_fma_f32"); at != std::string::npos)
            text.replace(text.find(", v1, v2, v3"), 12, ", src[0], src[1], src[2]");
        if (++line % 16 == 0)
            text += "   # a comment";
        out += text + '\n';
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    const std::vector<int> sizes = bench::sizesFromArguments(argc, argv, {10000, 100000});
    std::printf("%-10s %12s %12s %8s %14s\n", "instrs", "llvm ms", "clrx ms", "ratio", "translate ms");
    for (const int size : sizes) {
        const std::string llvm = bench::generateKernel(size);
        const std::string clrx = clrxTwin(llvm);
        AssembleOptions a;
        a.dialect = AssembleOptions::Dialect::Llvm;
        AssembleOptions b;
        b.dialect = AssembleOptions::Dialect::Clrx;
        const Program pa = assemble(llvm, a), pb = assemble(clrx, b);
        if (pa.instructions.size() != pb.instructions.size() || pb.hasErrors()) {
            std::printf("the twins differ: %zu vs %zu instructions, %s\n", pa.instructions.size(), pb.instructions.size(),
                        pb.hasErrors() ? pb.diagnostics.front().message.c_str() : "");
            return 1;
        }
        std::vector<double> ta, tb, tt;
        const int runs = size >= 100000 ? 3 : 7;
        for (int r = 0; r < runs; ++r) {
            auto t0 = Clock::now();
            const Program x = assemble(llvm, a);
            auto t1 = Clock::now();
            const Program y = assemble(clrx, b);
            auto t2 = Clock::now();
            ClrxOptions options;
            const ClrxTranslation translation = translateClrx(clrx, options);
            auto t3 = Clock::now();
            tt.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
            ta.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            tb.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
        }
        const double ma = median(ta), mb = median(tb);
        std::printf("%-10d %12.1f %12.1f %8.2f %14.1f\n", size, ma, mb, mb / ma, median(tt));
    }
    return 0;
}
