// SPDX-License-Identifier: MIT
// Private to core/asm: where the assembler worker process stands (issue #12). In the worker, the
// main assembler run publishes the main-file line of each statement it emits into a word of shared
// memory the parent reads after a crash or a timeout; the worker's signal handlers publish the
// parser's own position last. Outside the worker nothing is published (one branch per emission).
#pragma once

#include <atomic>
#include <cstdint>

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
};
static_assert(std::atomic<std::int32_t>::is_always_lock_free);

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

private:
    const char* countedTo = nullptr;
    int countedLine = 1;
};

// The one watch of this process (the worker runs one assembler at a time).
extern RunWatch runWatch;

} // namespace gcnlens::detail
