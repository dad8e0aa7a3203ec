// SPDX-License-Identifier: MIT
// Private to core/asm: where the assembler worker process stands (issue #12). In the worker, the
// main assembler run publishes the main-file line of each statement it emits into a word of shared
// memory the parent reads after a crash or a timeout; the worker's signal handlers publish the
// parser's own position last. Reading a code object or a listing there, the disassembler
// publishes the kernel and the address of each word it decodes. Outside the worker nothing is
// published (one branch per emission or decoded word).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace llvm {
class MCAsmParser;
}

namespace gcnlens {
struct Program;
}

namespace gcnlens::detail {

// The shared page (IsolatedFrontEnd maps it in both processes).
struct WorkerProgress {
    std::atomic<std::int32_t> line {0};     // 1-based main-file line last reached, 0 before any
    std::atomic<std::uint32_t> request {0}; // the request the line belongs to
    // Reading a code object or a listing: the word being decoded (decoding 1 while LLVM's
    // disassembler has it), and the kernel or section it lies in. The parent reads these only
    // after the worker ended, so the name needs no lock.
    std::atomic<std::uint32_t> decoding {0};
    std::atomic<std::uint64_t> address {0};
    std::atomic<std::uint64_t> regionBegin {0};
    char region[120] {};
};
static_assert(std::atomic<std::int32_t>::is_always_lock_free);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

// A fault the worker makes on purpose while it reads a code object or a listing (tests only:
// $GCNLENS_WORKER_FAULT, read by the worker: "crash", "abort" or "hang" at the first word decoded,
// or the first at or past "@ADDRESS"): LLVM's disassembler has no known crash left that gcnlens
// does not guard, and the isolation must still be shown to hold.
// "unguarded" lets the words gcnlens keeps from LLVM (decoder.cpp) reach it: LLVM's own crash;
// "crash-reading" crashes before a code object is read (where LLVM's Object library would).
struct DecodeFault {
    enum Kind { None, Crash, Abort, Hang, Unguarded, CrashReading } kind = None;
    std::uint64_t address = 0; // the first word at or past it
};

struct RunWatch {
    WorkerProgress* progress = nullptr; // null: not in a worker
    // The main run (assembleWith on the user's text); null between runs.
    llvm::MCAsmParser* parser = nullptr;
    const char* begin = nullptr; // the parsed main text
    const char* end = nullptr;
    int lineBase = 0; // lines before the parsed text (the incremental path parses a region)
    // Set by the worker: sends a program built mid-run (a limit crossed) and ends the process.
    void (*finish)(const Program& program) = nullptr; // does not return

    // A location in the main text reached: publish its line. Counting newlines from the last
    // published point keeps this linear in the text over a whole run.
    void reached(const char* at)
    {
        if (!progress || !at || at < begin || at > end)
            return;
        while (countedTo < at)
            countedLine += *countedTo++ == '\n';
        while (countedTo > at)
            countedLine -= *--countedTo == '\n';
        progress->line.store(lineBase + countedLine, std::memory_order_relaxed);
    }
    // Publishes where the parser stands (signal handlers, streamer.cpp).
    void reachedParser();
    void start(llvm::MCAsmParser* p, const char* textBegin, const char* textEnd, int base)
    {
        parser = p;
        begin = countedTo = textBegin;
        end = textEnd;
        lineBase = base;
        countedLine = 1;
    }
    void stop() { parser = nullptr; }

    // The disassembler's side (core/input/decoder.cpp): the words that follow belong to `name`,
    // which starts at `begin`; the word at `address` goes to LLVM now (decoding), came back (decoded).
    void decodingRegion(std::string_view name, std::uint64_t begin)
    {
        if (!progress)
            return;
        const std::size_t n = std::min(name.size(), sizeof progress->region - 1);
        std::memcpy(progress->region, name.data(), n);
        progress->region[n] = '\0';
        progress->regionBegin.store(begin, std::memory_order_relaxed);
    }
    void decoding(std::uint64_t address)
    {
        if (!progress)
            return;
        progress->address.store(address, std::memory_order_relaxed);
        progress->decoding.store(1, std::memory_order_relaxed);
        if (fault.kind != DecodeFault::None && address >= fault.address)
            injectFault();
    }
    void decoded()
    {
        if (progress)
            progress->decoding.store(0, std::memory_order_relaxed);
    }
    DecodeFault fault;
    void injectFault(); // isolated.cpp
    bool unguarded() const { return progress && fault.kind == DecodeFault::Unguarded; }

private:
    const char* countedTo = nullptr;
    int countedLine = 1;
};

// The one watch of this process (the worker runs one assembler at a time).
extern RunWatch runWatch;

} // namespace gcnlens::detail
