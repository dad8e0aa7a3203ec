// SPDX-License-Identifier: MIT
// Issue #14: opening a 100k-instruction code object (disassembly) against assembling its source,
// and reading its llvm-objdump listing; issue #12: both read in the worker process
// (IsolatedFrontEnd) against this process, at 1k instructions and N. Prints the best of three runs
// of each. Usage: bench_objectread [N [DIR]]
#include "benchmemory.h"
#include "core/asm/assembler.h"
#include "core/asm/isolated.h"
#include "core/input/listingreader.h"
#include "core/input/objectreader.h"
#include "generatedkernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

using namespace gcnlens;

namespace {

double bestOf3(const std::function<std::size_t()>& work, std::size_t& instructions)
{
    double best = 1e30;
    for (int i = 0; i < 3; ++i) {
        const auto start = std::chrono::steady_clock::now();
        instructions = work();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

std::string readAll(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

} // namespace

int main(int argc, char** argv)
{
    const int count = argc > 1 ? std::atoi(argv[1]) : 100000;
    const std::string tools = GCNLENS_LLVM_BIN;
    const std::string dir = argc > 2 ? argv[2] : "/tmp";
    // A small kernel too: there a process start, not the disassembly, is what the worker costs.
    for (const int n : {1000, count}) {
        const std::string source = ".amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n" + bench::generateKernel(n);
        {
            std::ofstream(dir + "/bench_objectread.s") << source;
        }
        const std::string object = dir + "/bench_objectread.o", listing = dir + "/bench_objectread.lst";
        const std::string mc =
            tools + "/llvm-mc -filetype=obj -triple=amdgcn-amd-amdhsa -mcpu=gfx900 " + dir + "/bench_objectread.s -o " + object;
        const std::string objdump = tools + "/llvm-objdump -d " + object + " > " + listing;
        if (std::system(mc.c_str()) != 0 || std::system(objdump.c_str()) != 0) {
            std::fprintf(stderr, "llvm-mc or llvm-objdump failed\n");
            return 1;
        }
        const std::string bytes = readAll(object), text = readAll(listing);

        AssembleOptions options;
        options.gpu = "gfx900";
        const input::ObjectReadOptions objectOptions;
        std::size_t fromSource = 0, fromObject = 0, fromListing = 0, isolatedObject = 0, warmObject = 0, isolatedListing = 0;
        // Each in-process read's own peak resident size (this process's: a worker's is its own).
        double assembleMiB = 0, objectMiB = 0, listingMiB = 0;
        const auto peakOf = [](double& mib, auto&& measure) {
            bench::resetPeakRss();
            const double ms = measure();
            mib = bench::megabytes(bench::peakRssBytes());
            return ms;
        };
        const double assembleMs = peakOf(
            assembleMiB, [&] { return bestOf3([&] { return assemble(source, options).instructions.size(); }, fromSource); });
        const double objectMs = peakOf(objectMiB, [&] {
            return bestOf3([&] { return input::readCodeObject(bytes, objectOptions).program.instructions.size(); }, fromObject);
        });
        const double listingMs = peakOf(listingMiB, [&] {
            return bestOf3([&] { return input::readListing(text, options).instructions.size(); }, fromListing);
        });
        // Issue #12: as the window opens a code object and the CLI reads one, a worker process
        // started for the read (and ended after it); then the read alone, in a worker kept warm
        // (the window's analysis reads the listing in its own, long-lived one).
        const double isolatedMs = bestOf3(
            [&] {
                IsolatedFrontEnd worker;
                return worker.readCodeObject(bytes, objectOptions).program.instructions.size();
            },
            isolatedObject);
        IsolatedFrontEnd warm;
        warm.analyze("s_endpgm\n", options);
        const double warmMs =
            bestOf3([&] { return warm.readCodeObject(bytes, objectOptions).program.instructions.size(); }, warmObject);
        const std::size_t transfer = warm.lastTransferBytes();
        const double isolatedListingMs =
            bestOf3([&] { return warm.readListing(text, options).instructions.size(); }, isolatedListing);
        if (warm.lastOutcome() != IsolatedFrontEnd::Outcome::Ok || isolatedObject != fromObject || warmObject != fromObject
            || isolatedListing != fromListing) {
            std::fprintf(stderr, "the worker's reads differ from this process's (or it did not run)\n");
            return 1;
        }

        std::printf("%d-instruction gfx900 kernel (object %zu bytes, listing %zu bytes), best of 3:\n", n, bytes.size(),
                    text.size());
        std::printf("  assemble source                %8.1f ms  (%zu instructions)  peak %.0f MiB\n", assembleMs, fromSource,
                    assembleMiB);
        std::printf("  read code object               %8.1f ms  (%zu instructions)  %.2fx the source, peak %.0f MiB\n", objectMs,
                    fromObject, objectMs / assembleMs, objectMiB);
        std::printf("  read objdump listing           %8.1f ms  (%zu instructions)  %.2fx the source, peak %.0f MiB\n", listingMs,
                    fromListing, listingMs / assembleMs, listingMiB);
        std::printf("  code object, new worker        %8.1f ms  %.2fx in-process (process start included)\n", isolatedMs,
                    isolatedMs / objectMs);
        std::printf("  code object, warm worker       %8.1f ms  %.2fx in-process (%zu bytes crossed the socket)\n", warmMs,
                    warmMs / objectMs, transfer);
        std::printf("  objdump listing, warm worker   %8.1f ms  %.2fx in-process\n", isolatedListingMs,
                    isolatedListingMs / listingMs);
    }
    return 0;
}
