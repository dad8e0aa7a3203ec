// SPDX-License-Identifier: MIT
// The assembler in a worker process (issue #12): LLVM's parser crashes and spins on some inputs
// (a stray "*/" inside .amdgpu_metadata kills it), so the window and the CLI run it in
// `gcnlens-asm-worker`, which they restart after it dies and stop after a wall-clock limit. A
// crash or a timeout comes back as a Program holding one error on the last line the worker
// reached; nothing of the caller is lost. The worker keeps a FrontEnd, so the editor's
// incremental path works across requests. Code objects and listings are read there too (LLVM's
// Object library and disassembler have their own crashes): a fault while reading one names the
// kernel and the word the disassembler had. Requests and results cross a socket in the compact
// form of core/asm/programcodec.h.
#pragma once

#include "core/asm/assembler.h"
#include "core/input/objectreader.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace gcnlens {

class IsolatedFrontEnd {
public:
    enum class Outcome {
        Ok,        // the worker's program
        Crashed,   // the worker died (a signal or an exit): one error on the last line reached
        TimedOut,  // stopped after AssembleLimits::seconds
        Cancelled, // cancel() from another thread
        InProcess, // no worker could be started: assembled in this process, unprotected
    };

    // workerPath: the executable; empty means defaultWorkerPath().
    explicit IsolatedFrontEnd(std::string workerPath = {});
    ~IsolatedFrontEnd();
    IsolatedFrontEnd(const IsolatedFrontEnd&) = delete;
    IsolatedFrontEnd& operator=(const IsolatedFrontEnd&) = delete;

    // As FrontEnd::analyze. The reference stays valid until the next call.
    const Program& analyze(std::string_view source, const AssembleOptions& options);
    // As FrontEnd::edit, through the worker (issue #11 item 6): the edit crosses the socket, not the
    // text, and the splice the worker made comes back, not the program; this side makes the same
    // splice. nullptr when the worker holds no text the edit applies to (a new worker after a crash,
    // a timeout or cancel(), or a copy gone out of step): then send the whole text with analyze().
    // `base`: for a caller that took the last program away (takeProgram), that program,
    // unchanged; this side splices a copy of it. The splice's digest proves the two the same; a
    // base that is not (or none) costs the whole program from the worker, never a wrong one.
    const Program* edit(const LineChange& change, const AssembleOptions& options, const Program* base = nullptr);
    // The program analyze() or edit() just returned, moved out to the caller (the window's
    // analysis keeps it) instead of copied: one program in memory, not two (issue #18: 112 MB
    // at a million instructions). A program that is not this object's own (assembled in process)
    // is copied. The next edit() then wants it back as `base`.
    Program takeProgram(const Program& returned);
    // One run for a caller that keeps no state (the CLI): the program moved out, no copy (see
    // carryOnInChild).
    Program assemble(std::string_view source, const AssembleOptions& options);

    // A code object or offload bundle read and disassembled in the worker, as input::readCodeObject
    // does here, within limits.seconds. A crash, a timeout or cancel() gives no listing and an
    // error saying what happened and where ("the disassembler crashed (signal 11) while decoding
    // KERNEL at offset 0x1c, address 0x11c"). The worker's text for edit() is lost then, not otherwise.
    input::ObjectListing readCodeObject(std::string_view bytes, const input::ObjectReadOptions& options,
                                        const AssembleLimits& limits = {});
    // A disassembly listing read in the worker, as input::readListing does here (it assembles the
    // text and decodes its encodings). A failure is one error, as analyze() gives, on the line the
    // assembler reached or the line of the word the disassembler had.
    Program readListing(std::string_view text, const AssembleOptions& options);

    // Ends the running request (it returns a Program saying so, Outcome::Cancelled) by ending
    // the worker; the next request starts a new one. Callable from any thread; no effect when idle.
    void cancel();

    // The line the running analyze() has reached in the worker, 0 when idle (a runaway analysis
    // shows it with its Cancel button). Callable from any thread.
    int lineReached() const;

    Outcome lastOutcome() const;
    int lastLine() const;                   // the line a crash or timeout was reported on (0 when Ok)
    const std::string& lastMessage() const; // that error's text (empty when Ok)
    int workerStarts() const;               // how many workers this object started (tests)
    std::size_t lastTransferBytes() const;  // bytes that crossed the socket in the last call (tests, benchmarks)
    long workerProcessId() const;           // the running worker's process id, -1 when none (tests)

    // $GCNLENS_ASM_WORKER when set, else gcnlens-asm-worker beside the running executable.
    static std::string defaultWorkerPath();
    // For a single-threaded program (the CLI): start each default worker as a fork of this
    // process instead of running the worker program, which would load and initialise libLLVM a
    // second time (issue #18). Checked at each start: with more than one thread, or with a
    // worker path given, it runs the program as before.
    static void forkWorkers(bool enable);
    // For a single-threaded program that assembles a source once and then works only on the
    // result (the CLI, issue #18): assemble() forks, the child assembles in its own process and
    // returns the program to carry on with the caller's work, and this process waits as its
    // guard. The program is never encoded, sent and decoded again, and only one process holds it.
    // When the child fails while assembling (a crash, a time limit), assemble() returns here the
    // program holding that error, as with a worker; when it has assembled, this process ends with
    // the child's status once it ends (the caller's work goes on in the child). A crash after
    // assembling ends this process with the same signal. Checked at each assemble(): with more
    // than one thread, a worker path given or a worker running, it works as before.
    static void carryOnInChild(bool enable);

private:
    struct State;
    std::unique_ptr<State> state_;
};

// An assemble function with a worker of its own, which keeps its state from call to call (for
// callers that assemble many variants of one text: the fix-its, one per thread).
std::function<Program(const std::string&)> isolatedAssembler(AssembleOptions options);

// The worker's side: serves requests on the socket `fd` until it closes, publishing progress into
// the shared page `progressFd` (both inherited from IsolatedFrontEnd). Returns the exit status.
int runAssemblerWorker(int fd, int progressFd);

} // namespace gcnlens
