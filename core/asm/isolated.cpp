// SPDX-License-Identifier: MIT
#include "core/asm/isolated.h"

#include "core/asm/programcodec.h"
#include "core/asm/splice_p.h"
#include "core/asm/watch_p.h"
#include "core/input/listingreader.h"
#include "core/support/besideself.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <mutex>
#include <poll.h>
#include <ranges>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace gcnlens {

namespace {

using Clock = std::chrono::steady_clock;

// The worker's exit status after the parent's "time is up" signal (SIGUSR1).
constexpr int kTimeUpExit = 124;

// Frames: an 8-byte little-endian length, then the payload.
void putLength(std::string& frame, std::uint64_t length)
{
    for (int i = 0; i < 8; ++i)
        frame[std::size_t(i)] = char(length >> (8 * i));
}

std::uint64_t getLength(const char* header)
{
    std::uint64_t length = 0;
    for (int i = 0; i < 8; ++i)
        length |= std::uint64_t(std::uint8_t(header[i])) << (8 * i);
    return length;
}

// Blocking transfer of exactly `size` bytes (the worker's side); false when the socket closed.
bool transferAll(int fd, char* data, std::size_t size, bool sending)
{
    while (size) {
        const ssize_t n = sending ? ::send(fd, data, size, MSG_NOSIGNAL) : ::read(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        size -= std::size_t(n);
    }
    return true;
}

// An fd at 10 or above, close-on-exec: posix_spawn's dup2 onto 3 and 4 then never meets itself.
int highFd(int fd)
{
    const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
    ::close(fd);
    return high;
}

// --- the worker's side ---

// The signals a crash ends a worker with: reported with the line it reached.
constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

int lineCount(std::string_view text)
{
    return int(std::count(text.begin(), text.end(), '\n')) + 1;
}

void onFault(int)
{
    // Where the parser stood when it crashed; the default action (SA_RESETHAND) follows on return.
    detail::runWatch.reachedParser();
}

void onTimeUp(int)
{
    detail::runWatch.reachedParser();
    ::_exit(kTimeUpExit);
}

void installWorkerHandlers()
{
    // Deep recursion in LLVM overflows the stack: the handler runs on its own.
    static char altStack[64 * 1024];
    stack_t stack {};
    stack.ss_sp = altStack;
    stack.ss_size = sizeof altStack;
    ::sigaltstack(&stack, nullptr);
    struct sigaction fault {};
    fault.sa_handler = onFault;
    fault.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    for (const int sig : kFaultSignals)
        ::sigaction(sig, &fault, nullptr);
    struct sigaction timeUp {};
    timeUp.sa_handler = onTimeUp;
    timeUp.sa_flags = SA_ONSTACK;
    ::sigaction(SIGUSR1, &timeUp, nullptr);
    // A crash is reported by the parent; a core file of LLVM's state helps nobody.
    const rlimit noCore {0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
}

// Requests (issue #11 item 6): the whole text, or an edit of the text the worker holds (the
// editor's keystrokes), or the whole program again (the parent's copy went out of step). Each
// text the worker takes has the next generation number; an edit names the generation it applies to.
// A read (issue #12) is a code object or a listing to read, the FrontEnd's text untouched.
enum RequestKind : char { kRequestText = 'T', kRequestEdit = 'E', kRequestProgram = 'P', kRequestRead = 'R' };
enum ReadKind : char { kReadObject = 'O', kReadListing = 'L' };
// A reply: the frame header, a byte saying whether the worker ends after it, a kind byte, then the
// whole program, or the splice the front-end made (a few lines), or nothing (send the text), or
// what a read gave (the listing and the error, each length-prefixed, then the program).
enum ReplyEnd : char { kWorkerContinues = 0, kWorkerEnds = 1 };
// kReplyCarriedOn: a child of carryOnInChild has assembled and carries on with the caller's work.
enum ReplyKind : char { kReplyProgram = 'F', kReplySplice = 'S', kReplyNeedText = 'N', kReplyRead = 'R', kReplyCarriedOn = 'C' };

// Fixed 8-byte little-endian fields for the few numbers an edit or a splice carries.
void putField(std::string& out, std::uint64_t value)
{
    const std::size_t at = out.size();
    out.resize(at + 8);
    for (int i = 0; i < 8; ++i)
        out[at + std::size_t(i)] = char(value >> (8 * i));
}

bool getField(std::string_view& in, std::uint64_t& value)
{
    if (in.size() < 8)
        return false;
    value = getLength(in.data());
    in.remove_prefix(8);
    return true;
}

bool getInt(std::string_view& in, int& value)
{
    std::uint64_t v = 0;
    if (!getField(in, v) || std::int64_t(v) < 0 || v > std::uint64_t(1) << 31)
        return false;
    value = int(v);
    return true;
}

int workerSocket = -1;

bool sendFrame(std::string& out)
{
    putLength(out, out.size() - 8);
    return transferAll(workerSocket, out.data(), out.size(), true);
}

bool sendReply(const Program& program, ReplyEnd end, std::string& out)
{
    out.assign(8, '\0');
    out.push_back(end);
    out.push_back(kReplyProgram);
    codec::encodeTo(program, out);
    return sendFrame(out);
}

bool sendSplice(const detail::SpliceStep& step, std::string& out)
{
    out.assign(8, '\0');
    out.push_back(kWorkerContinues);
    out.push_back(kReplySplice);
    for (const std::uint64_t v : {std::uint64_t(step.first), std::uint64_t(step.oldCount), std::uint64_t(step.newCount),
                                  std::uint64_t(step.barrierAfter), step.digest, std::uint64_t(step.region.size())})
        putField(out, v);
    out.append(step.region);
    codec::encodeTo(step.mini, out);
    return sendFrame(out);
}

bool sendNeedText(std::string& out)
{
    out.assign(8, '\0');
    out.push_back(kWorkerContinues);
    out.push_back(kReplyNeedText);
    return sendFrame(out);
}

// A limit was crossed mid-run (streamer_p.h): send what there is and end, rather than unwind LLVM.
void finishEarly(const Program& program)
{
    std::string out;
    sendReply(program, kWorkerEnds, out);
    ::_exit(0);
}

// A read request: `bytes` read as the parent's input::readCodeObject or input::readListing would.
bool serveRead(char kind, std::string_view bytes, const AssembleOptions& options, std::string& out)
{
    detail::WorkerProgress& progress = *detail::runWatch.progress;
    progress.decoding.store(0, std::memory_order_relaxed);
    progress.address.store(0, std::memory_order_relaxed);
    progress.regionBegin.store(0, std::memory_order_relaxed);
    progress.region[0] = '\0';
    input::ObjectListing read;
    // A limit the listing's assembly crosses ends that run as it does in the parent, not the worker.
    detail::runWatch.finish = nullptr;
    if (kind == kReadObject) {
        if (detail::runWatch.fault.kind == detail::DecodeFault::CrashReading) {
            detail::runWatch.fault.kind = detail::DecodeFault::Crash;
            detail::runWatch.injectFault();
        }
        input::ObjectReadOptions objectOptions;
        objectOptions.gpu = options.gpu;
        objectOptions.fileName = options.fileName;
        read = input::readCodeObject(bytes, objectOptions);
    } else {
        read.program = input::readListing(bytes, options);
    }
    detail::runWatch.finish = finishEarly;
    out.assign(8, '\0');
    out.push_back(kWorkerContinues);
    out.push_back(kReplyRead);
    for (const std::string* part : {&read.listing, &read.error}) {
        putField(out, part->size());
        out.append(*part);
    }
    codec::encodeTo(read.program, out);
    return sendFrame(out);
}

// $GCNLENS_WORKER_FAULT (watch_p.h DecodeFault): "crash", "abort", "hang", "unguarded" or
// "crash-reading", then "@ADDRESS" or not.
detail::DecodeFault faultFromEnvironment()
{
    detail::DecodeFault fault;
    const char* value = std::getenv("GCNLENS_WORKER_FAULT");
    if (!value)
        return fault;
    const std::string_view text(value);
    const std::string_view kind = text.substr(0, text.find('@'));
    fault.kind = kind == "crash"  ? detail::DecodeFault::Crash
        : kind == "abort"         ? detail::DecodeFault::Abort
        : kind == "hang"          ? detail::DecodeFault::Hang
        : kind == "unguarded"     ? detail::DecodeFault::Unguarded
        : kind == "crash-reading" ? detail::DecodeFault::CrashReading
                                  : detail::DecodeFault::None;
    if (const auto at = text.find('@'); at != std::string_view::npos)
        fault.address = std::strtoull(value + at + 1, nullptr, 0);
    return fault;
}

} // namespace

void detail::RunWatch::injectFault()
{
    switch (fault.kind) {
    case DecodeFault::Crash:
        ::raise(SIGSEGV); // the worker's handler runs and resets itself (SA_RESETHAND) ...
        ::raise(SIGSEGV); // ... and the default action ends the process, as after a real fault
        break;
    case DecodeFault::Abort:
        std::abort();
    case DecodeFault::Hang:
        for (;;)
            ::pause(); // until the parent's SIGUSR1 (time is up, or cancel())
    case DecodeFault::None:
    case DecodeFault::Unguarded:    // decoder.cpp lets LLVM crash by itself
    case DecodeFault::CrashReading: // serveRead's
        break;
    }
}

int runAssemblerWorker(int fd, int progressFd)
{
    workerSocket = fd;
    detail::runWatch.finish = finishEarly;
    void* page = ::mmap(nullptr, sizeof(detail::WorkerProgress), PROT_READ | PROT_WRITE, MAP_SHARED, progressFd, 0);
    if (page == MAP_FAILED)
        return 3;
    detail::runWatch.progress = static_cast<detail::WorkerProgress*>(page);
    installWorkerHandlers();
    detail::runWatch.fault = faultFromEnvironment();
    FrontEnd frontEnd;
    std::string frame, text, out, bytes;
    AssembleOptions options;
    std::uint64_t generation = 0; // of the text the FrontEnd holds (0: none)
    char header[8];
    while (transferAll(fd, header, 8, false)) {
        frame.resize(getLength(header));
        if (!transferAll(fd, frame.data(), frame.size(), false) || frame.empty())
            return 4;
        std::string_view body = std::string_view(frame).substr(1);
        const char kind = frame[0];
        std::string error;
        LineChange change;
        std::uint64_t base = 0;
        if (kind == kRequestEdit
            && !(getField(body, base) && getInt(body, change.first) && getInt(body, change.oldCount)
                 && getInt(body, change.newCount) && getInt(body, change.linesAfter))) {
            error = "truncated edit";
        } else if (kind == kRequestProgram) {
            if (!sendReply(frontEnd.program(), kWorkerContinues, out))
                return 6;
            continue;
        } else if (kind == kRequestRead) {
            if (body.empty() || !codec::decodeRequest(body.substr(1), options, bytes, &error))
                error = error.empty() ? "truncated read" : error;
            if (error.empty()) {
                detail::runWatch.progress->line.store(0, std::memory_order_relaxed);
                if (!serveRead(body[0], bytes, options, out))
                    return 6;
                continue;
            }
        } else if ((kind != kRequestText && kind != kRequestEdit) || !codec::decodeRequest(body, options, text, &error)) {
            error = error.empty() ? "unknown request" : error;
        }
        if (!error.empty()) {
            std::fprintf(stderr, "gcnlens-asm-worker: %s\n", error.c_str());
            return 5;
        }
        detail::runWatch.progress->line.store(0, std::memory_order_relaxed);
        if (kind == kRequestText) {
            const Program& program = frontEnd.analyze(text, options);
            ++generation;
            if (!sendReply(program, kWorkerContinues, out))
                return 6;
            continue;
        }
        change.text = std::move(text);
        const Program* program = base == generation && generation ? frontEnd.edit(change, options) : nullptr;
        if (!program) {
            if (!sendNeedText(out))
                return 6;
            continue;
        }
        ++generation;
        const detail::SpliceStep* step = frontEnd.lastSplice();
        if (!(step ? sendSplice(*step, out) : sendReply(*program, kWorkerContinues, out)))
            return 6;
    }
    // The socket closed: end without taking the last Program and LLVM's state apart piece by
    // piece; the parent waits for this exit (#18: a tenth of a second at a million lines).
    ::_exit(0);
}

// --- the parent's side ---

namespace {

std::atomic<bool> forkWorkersWhenAlone {false};
std::atomic<bool> carryOnInChildWhenAlone {false};

// Threads of this process, from /proc/self/stat's 20th field; 0 when unknown.
int threadCount()
{
    const int fd = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char text[1024];
    const ssize_t length = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (length <= 0)
        return 0;
    text[length] = 0;
    const char* field = std::strrchr(text, ')'); // the command name may hold spaces
    for (int spaces = 0; field && *field && spaces < 18; ++field)
        spaces += *field == ' ';
    return field ? std::atoi(field) : 0;
}

} // namespace

void IsolatedFrontEnd::forkWorkers(bool enable)
{
    forkWorkersWhenAlone = enable;
}

void IsolatedFrontEnd::carryOnInChild(bool enable)
{
    carryOnInChildWhenAlone = enable;
}

struct IsolatedFrontEnd::State {
    std::string workerPath;
    bool defaultWorker = true; // workerPath came from neither the caller nor $GCNLENS_ASM_WORKER
    pid_t pid = -1;
    int socket = -1;
    int progressFd = -1;
    detail::WorkerProgress* progress = nullptr;
    int cancelFd = -1; // an eventfd cancel() writes to
    std::mutex mutex;  // guards busy and the cancel signal
    bool busy = false;
    int starts = 0;

    Program program;
    Outcome outcome = Outcome::Ok;
    int line = 0;
    std::string message;
    std::unique_ptr<FrontEnd> inProcess; // when no worker can be started
    // The generation of the worker's text, counted as the worker counts it: one per text or edit
    // it took (a new worker starts at 0); holdsText: it has one an edit may apply to.
    std::uint64_t generation = 0;
    bool holdsText = false;
    detail::RegisterTally registers; // of `program`, for replaying the worker's splices
    bool tallyFresh = false;
    // takeProgram() moved `program` out: a splice has nothing to apply to until a base (the
    // taken program, given back) or the whole program from the worker replaces it.
    bool taken = false;
    std::size_t transferred = 0; // bytes of the last call's frames, both ways
    // What the running request does, for the message after a failure: assemble, or read a code
    // object or a listing (`readText`, whose line holding the decoded word is the one to name).
    enum class Job { Assemble, ReadObject, ReadListing } job = Job::Assemble;
    std::string_view readText;

    // The worker as a copy of this process, which has libLLVM loaded and initialised already: no
    // exec, no second start (issue #18). Only for a single-threaded caller: no lock is held. The
    // child resets what exec would have: signal dispositions and mask, and every other fd.
    // Returns the child's pid, or -1.
    pid_t forkWorker(int childEnd) const
    {
        std::fflush(stdout); // what the caller printed must not be buffered twice
        const pid_t child = ::fork();
        if (child != 0)
            return child;
        for (int number = 1; number < NSIG; ++number)
            std::signal(number, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (::dup2(childEnd, 3) < 0 || ::dup2(progressFd, 4) < 0)
            ::_exit(127);
        ::close_range(5, ~0U, 0);
        ::_exit(runAssemblerWorker(3, 4));
    }

    // The page a worker publishes its line in, shared with every worker this object starts.
    bool ensureProgress()
    {
        if (progress)
            return true;
        progressFd = highFd(::memfd_create("gcnlens-asm-progress", MFD_CLOEXEC));
        if (progressFd < 0 || ::ftruncate(progressFd, sizeof(detail::WorkerProgress)) != 0)
            return false;
        void* page = ::mmap(nullptr, sizeof(detail::WorkerProgress), PROT_READ | PROT_WRITE, MAP_SHARED, progressFd, 0);
        if (page == MAP_FAILED)
            return false;
        progress = new (page) detail::WorkerProgress;
        return true;
    }

    bool start()
    {
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
            return false;
        const int parentEnd = highFd(pair[0]), childEnd = highFd(pair[1]);
        if (!ensureProgress()) {
            ::close(parentEnd);
            ::close(childEnd);
            return false;
        }
        const pid_t forked = defaultWorker && forkWorkersWhenAlone && threadCount() == 1 ? forkWorker(childEnd) : -1;
        if (forked > 0) {
            ::close(childEnd);
            pid = forked;
            socket = parentEnd;
            ++starts;
            return true;
        } // not forked, or the fork failed: run the worker program
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, childEnd, 3);
        posix_spawn_file_actions_adddup2(&actions, progressFd, 4);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        // The worker must not inherit the caller's blocked or ignored signals (SIGUSR1 ends it).
        sigset_t none, all;
        sigemptyset(&none);
        sigfillset(&all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        char arg1[] = "--socket=3", arg2[] = "--progress=4";
        char* argv[] = {workerPath.data(), arg1, arg2, nullptr};
        const int spawned = ::posix_spawn(&pid, workerPath.c_str(), &actions, &attributes, argv, environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        ::close(childEnd);
        if (spawned != 0) {
            errno = spawned;
            ::close(parentEnd);
            pid = -1;
            return false;
        }
        socket = parentEnd;
        ++starts;
        return true;
    }

    // Ends the worker (if any) and reaps it; returns its wait status, -1 when there was none.
    int stop(int firstSignal)
    {
        if (pid < 0)
            return -1;
        if (firstSignal)
            ::kill(pid, firstSignal);
        if (socket >= 0)
            ::close(socket);
        socket = -1;
        int status = 0;
        // Give it a moment to publish its line (SIGUSR1) or to see its socket close, then kill.
        const auto deadline = Clock::now() + std::chrono::milliseconds(500);
        while (::waitpid(pid, &status, WNOHANG) == 0) {
            if (Clock::now() > deadline) {
                ::kill(pid, SIGKILL);
                ::waitpid(pid, &status, 0);
                break;
            }
            ::usleep(1000);
        }
        pid = -1;
        generation = 0;
        holdsText = false;
        return status;
    }

    enum class Wait { Ready, Closed, TimedOut, Cancelled };

    // Waits until the socket can do `events`, the deadline passes or cancel() is called.
    Wait wait(short events, Clock::time_point deadline)
    {
        for (;;) {
            pollfd fds[2] = {{socket, events, 0}, {cancelFd, POLLIN, 0}};
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0)
                return Wait::TimedOut;
            const int n = ::poll(fds, 2, int(std::min<long long>(left, 1000)));
            if (n < 0 && errno != EINTR)
                return Wait::Closed;
            if (n <= 0)
                continue;
            if (fds[1].revents & POLLIN)
                return Wait::Cancelled;
            if (fds[0].revents & events)
                return Wait::Ready;
            if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL))
                return Wait::Closed;
        }
    }

    // Sends everything or says why not.
    Wait send(const std::string& data, Clock::time_point deadline)
    {
        std::size_t at = 0;
        while (at < data.size()) {
            if (const Wait w = wait(POLLOUT, deadline); w != Wait::Ready)
                return w;
            const ssize_t n = ::send(socket, data.data() + at, data.size() - at, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (n <= 0)
                return Wait::Closed;
            at += std::size_t(n);
        }
        return Wait::Ready;
    }

    Wait receive(std::string& data, std::size_t size, Clock::time_point deadline)
    {
        data.resize(size);
        std::size_t at = 0;
        while (at < size) {
            if (const Wait w = wait(POLLIN, deadline); w != Wait::Ready)
                return w;
            const ssize_t n = ::recv(socket, data.data() + at, size - at, MSG_DONTWAIT);
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                continue;
            if (n <= 0)
                return Wait::Closed;
            at += std::size_t(n);
        }
        return Wait::Ready;
    }

    // Where a read stood when the worker ended: " while decoding KERNEL at offset 0x1c, address
    // 0x11c", or for a code object " while reading the ELF file" / " after decoding KERNEL"; empty
    // for a listing that was not decoding (its assembler's line says where). Read after the
    // worker ended (stop()), so the shared page no longer changes.
    std::string readPosition(bool& decoding)
    {
        decoding = job != Job::Assemble && progress->decoding.load(std::memory_order_relaxed);
        const std::string region(progress->region, ::strnlen(progress->region, sizeof progress->region));
        if (!decoding)
            return job != Job::ReadObject ? std::string()
                : region.empty()          ? std::string(" while reading the ELF file")
                                          : " after decoding " + region;
        const std::uint64_t address = progress->address.load(std::memory_order_relaxed);
        const std::uint64_t begin = progress->regionBegin.load(std::memory_order_relaxed);
        char where[96];
        std::snprintf(where, sizeof where, " at offset 0x%llx, address 0x%llx",
                      static_cast<unsigned long long>(address >= begin ? address - begin : address),
                      static_cast<unsigned long long>(address));
        if (job == Job::ReadListing) // the line of the listing that gives this word
            for (int n = 1; const auto& text : std::views::split(readText, '\n')) {
                const input::ListingLine parsed = input::parseListingLine(std::string_view(text.begin(), text.end()));
                if (parsed.kind == input::ListingLine::Instruction && parsed.address == address) {
                    line = n;
                    break;
                }
                ++n;
            }
        return " while decoding " + (region.empty() ? std::string("the code") : region) + where;
    }

    void fail(Outcome what, const AssembleOptions& options, int lines, int status)
    {
        const int reached = progress ? progress->line.load(std::memory_order_relaxed) : 0;
        // The line is that of the main text; a fresh run that died before any statement names line 1.
        line = std::clamp(reached, 1, std::max(1, lines));
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", options.limits.seconds);
        bool decoding = false;
        const std::string position = progress ? readPosition(decoding) : std::string();
        if (job == Job::ReadObject || decoding) {
            const std::string who = decoding ? "the disassembler" : "the code object reader";
            switch (what) {
            case Outcome::TimedOut:
                message = "stopped after " + std::string(seconds) + " s" + position + " (raise with --limit time=SECONDS)";
                break;
            case Outcome::Cancelled:
                message = "the reading was cancelled" + position;
                break;
            default:
                message = status >= 0 && WIFSIGNALED(status) ? who + " crashed (signal " + std::to_string(WTERMSIG(status)) + ")"
                    : status >= 0 && WIFEXITED(status)
                    ? who + " stopped (exit status " + std::to_string(WEXITSTATUS(status)) + ")"
                    : who + " stopped answering";
                message += position;
                break;
            }
            if (job == Job::ReadListing)
                message += " on line " + std::to_string(line) + "; the text is kept, earlier results too";
            setFailure(what, options);
            return;
        }
        switch (what) {
        case Outcome::TimedOut:
            message = "stopped after " + std::string(seconds) + " s at line " + std::to_string(line)
                + " (raise with --limit time=SECONDS)";
            break;
        case Outcome::Cancelled:
            message = "the analysis was cancelled at line " + std::to_string(line);
            break;
        default:
            if (status >= 0 && WIFSIGNALED(status))
                message = "the assembler crashed (signal " + std::to_string(WTERMSIG(status)) + ")";
            else if (status >= 0 && WIFEXITED(status))
                message = "the assembler stopped (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
            else
                message = "the assembler stopped answering";
            message += " at line " + std::to_string(line) + "; the text is kept, earlier results too";
            break;
        }
        setFailure(what, options);
    }

    // `program` becomes the one error `message` on `line` (0 for a code object: the whole file).
    void setFailure(Outcome what, const AssembleOptions& options)
    {
        if (job == Job::ReadObject)
            line = 0;
        outcome = what;
        program = Program {};
        taken = false;
        if (const auto gpu = resolveGpu(options.gpu))
            program.gpu = *gpu;
        program.diagnostics.push_back({Severity::Error, line, 0, message, {}});
    }

    // A call runs between setBusy(true) and setBusy(false); cancel() acts only inside.
    void setBusy(bool now)
    {
        std::lock_guard lock(mutex);
        std::uint64_t stale = 0;
        while (now && ::read(cancelFd, &stale, sizeof stale) > 0) { } // a cancel() of an earlier job
        busy = now;
    }

    // A worker that ended between requests (killed from outside) is replaced, not blamed.
    void reapIfEnded()
    {
        outcome = Outcome::Ok;
        line = 0;
        message.clear();
        transferred = 0;
        int status = 0;
        if (pid >= 0 && ::waitpid(pid, &status, WNOHANG) == pid) {
            pid = -1;
            generation = 0;
            holdsText = false;
            ::close(socket);
            socket = -1;
        }
    }

    // Sends a request frame (its header filled here) and receives the reply; false when the
    // worker failed, `program` then saying so. `lines`: the text's line count, for that message.
    bool exchange(std::string& frame, std::string& reply, const AssembleOptions& options, int lines)
    {
        const auto deadline = deadlineFor(options);
        progress->line.store(0, std::memory_order_relaxed);
        putLength(frame, frame.size() - 8);
        transferred += frame.size();
        return awaitReply(send(frame, deadline), reply, deadline, options, lines);
    }

    // The request's time: AssembleLimits::seconds, 10 s when it sets none.
    static Clock::time_point deadlineFor(const AssembleOptions& options)
    {
        const double limit = std::isfinite(options.limits.seconds) && options.limits.seconds > 0 ? options.limits.seconds : 10;
        return Clock::now() + std::chrono::microseconds(std::int64_t(limit * 1e6));
    }

    // Receives the reply frame once the request is out (`w`: how sending it went); false when the
    // worker failed, `program` then saying so.
    bool awaitReply(Wait w, std::string& reply, Clock::time_point deadline, const AssembleOptions& options, int lines)
    {
        if (w == Wait::Ready)
            w = receive(reply, 8, deadline);
        if (w == Wait::Ready)
            w = receive(reply, getLength(reply.data()), deadline);
        transferred += 8 + (w == Wait::Ready ? reply.size() : 0);
        switch (w) {
        case Wait::Ready:
            return true;
        case Wait::TimedOut:
            fail(Outcome::TimedOut, options, lines, stop(SIGUSR1));
            return false;
        case Wait::Cancelled:
            fail(Outcome::Cancelled, options, lines, stop(SIGUSR1));
            return false;
        case Wait::Closed:
            fail(Outcome::Crashed, options, lines, stop(0));
            return false;
        }
        return false;
    }

    enum class Taken { Program, NeedText, OutOfStep, Broken };

    // Takes a reply into `program`: the whole program, or the worker's splice made here too.
    Taken take(const std::string& reply, const AssembleOptions& options, int lines)
    {
        std::string error = "a short reply";
        if (reply.size() >= 2) {
            std::string_view body = std::string_view(reply).substr(2);
            switch (reply[1]) {
            case kReplyProgram:
                if (!codec::decode(body, program, &error))
                    break;
                tallyFresh = false;
                taken = false;
                if (reply[0] == kWorkerEnds)
                    stop(0); // it stopped at a limit and exits; the next request starts another
                return Taken::Program;
            case kReplySplice: {
                if (taken) // nothing here to splice into: the whole program, asked for next
                    return Taken::OutOfStep;
                detail::SpliceStep step;
                std::uint64_t barrier = 0, regionSize = 0;
                if (!(getInt(body, step.first) && getInt(body, step.oldCount) && getInt(body, step.newCount)
                      && getField(body, barrier) && getField(body, step.digest) && getField(body, regionSize))
                    || regionSize > body.size()) {
                    error = "a truncated splice";
                    break;
                }
                step.barrierAfter = barrier != 0;
                step.region.assign(body.substr(0, regionSize));
                if (!codec::decode(body.substr(regionSize), step.mini, &error))
                    break;
                if (!tallyFresh) {
                    registers.rebuild(program);
                    tallyFresh = true;
                }
                return step.apply(program, registers) ? Taken::Program : Taken::OutOfStep;
            }
            case kReplyNeedText:
                return Taken::NeedText;
            default:
                error = "an unknown reply";
            }
        }
        broken(options, lines, error);
        return Taken::Broken;
    }

    // A reply that makes no sense: the worker is ended and the request failed, saying why.
    void broken(const AssembleOptions& options, int lines, const std::string& error)
    {
        fail(Outcome::Crashed, options, lines, stop(SIGKILL));
        message += " (" + error + ")";
        program.diagnostics.back().message = message;
    }

    // A worker to send to, started if need be; false when none can be (then the caller works here).
    bool worker()
    {
        reapIfEnded();
        if (pid >= 0 || start())
            return true;
        if (!warned) // not installed beside this executable?
            std::fprintf(stderr, "gcnlens: cannot start the assembler worker %s (%s); working in-process\n", workerPath.c_str(),
                         std::strerror(errno));
        warned = true;
        return false;
    }
    bool warned = false;

    // A read request: what the worker read into `out`, or false after a failure (then `program`
    // and `message` say what happened).
    bool read(ReadKind kind, std::string_view bytes, const AssembleOptions& options, input::ObjectListing& out)
    {
        std::string frame(8, '\0'), reply;
        frame.push_back(kRequestRead);
        frame.push_back(kind);
        codec::encodeRequest(options, bytes, frame);
        progress->decoding.store(0, std::memory_order_relaxed); // not a word of an earlier read
        progress->region[0] = '\0';
        job = kind == kReadObject ? Job::ReadObject : Job::ReadListing;
        readText = kind == kReadListing ? bytes : std::string_view();
        const int lines = kind == kReadListing ? lineCount(bytes) : 1;
        bool ok = exchange(frame, reply, options, lines);
        if (ok && (reply.size() < 2 || reply[1] != kReplyRead)) {
            broken(options, lines, "an unknown reply");
            ok = false;
        } else if (ok) {
            std::string error = "a truncated read";
            std::string_view body = std::string_view(reply).substr(2);
            for (std::string* part : {&out.listing, &out.error}) {
                std::uint64_t size = 0;
                if (!(ok = getField(body, size) && size <= body.size()))
                    break;
                part->assign(body.substr(0, size));
                body.remove_prefix(size);
            }
            if (!(ok = ok && codec::decode(body, out.program, &error)))
                broken(options, lines, error);
        }
        job = Job::Assemble;
        readText = {};
        return ok;
    }

    // assemble() for carryOnInChild. True where `program` is what to carry on with: in the child,
    // what it assembled; here, when the child failed while assembling (the error, as run() gives
    // it) or stopped at a limit (what it sent, as a worker does). When the child has assembled,
    // this process does not return: it ends as the child ends. False when no child could be made.
    bool carryOn(std::string_view source, const AssembleOptions& options)
    {
        int pair[2];
        if (!ensureProgress() || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
            return false;
        const int parentEnd = highFd(pair[0]), childEnd = highFd(pair[1]);
        progress->line.store(0, std::memory_order_relaxed);
        std::fflush(nullptr); // what the caller printed must not be buffered twice
        const pid_t child = ::fork();
        if (child < 0) {
            ::close(parentEnd);
            ::close(childEnd);
            return false;
        }
        if (child == 0) {
            ::close(parentEnd);
            // While assembling this is a worker: its line published, a fault or the time limit
            // reported by the parent, a limit crossed mid-run sending what there is (finishEarly).
            workerSocket = childEnd;
            detail::runWatch.progress = progress;
            detail::runWatch.finish = finishEarly;
            detail::runWatch.fault = faultFromEnvironment();
            installWorkerHandlers();
            program = gcnlens::assemble(source, options);
            for (const int sig : kFaultSignals)
                std::signal(sig, SIG_DFL);
            std::signal(SIGUSR1, SIG_DFL);
            detail::runWatch.progress = nullptr;
            detail::runWatch.finish = nullptr;
            detail::runWatch.fault = {};
            std::string out(8, '\0');
            out.push_back(kWorkerEnds);
            out.push_back(kReplyCarriedOn);
            sendFrame(out); // (a parent gone meanwhile reads nothing: the work goes on regardless)
            ::close(childEnd);
            workerSocket = -1;
            return true;
        }
        ::close(childEnd);
        pid = child;
        socket = parentEnd;
        ++starts;
        const int lines = lineCount(source);
        std::string reply;
        if (awaitReply(Wait::Ready, reply, deadlineFor(options), options, lines)) {
            if (reply.size() == 2 && reply[1] == kReplyCarriedOn)
                endAsChildEnds();
            take(reply, options, lines); // the program sent at a limit, or the error saying what made no sense
        }
        return true;
    }

    // The child carries on with the caller's work: this process ends with its exit status, or,
    // after a crash, by the same signal (as the caller would have), saying so first.
    [[noreturn]] void endAsChildEnds()
    {
        ::close(socket);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
        if (WIFSIGNALED(status)) {
            const int sig = WTERMSIG(status);
            if (std::ranges::find(kFaultSignals, sig) != std::end(kFaultSignals))
                std::fprintf(stderr, "gcnlens: crashed (signal %d) after assembling\n", sig);
            std::signal(sig, SIG_DFL);
            ::raise(sig);
        }
        ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
    }

    const Program& run(std::string_view source, const AssembleOptions& options)
    {
        if (!worker()) { // assemble here, unprotected
            if (!inProcess)
                inProcess = std::make_unique<FrontEnd>();
            outcome = Outcome::InProcess;
            return inProcess->analyze(source, options);
        }
        const int lines = lineCount(source);
        std::string frame(8, '\0'), reply;
        frame.push_back(kRequestText);
        codec::encodeRequest(options, source, frame);
        holdsText = false; // until the worker has it
        if (exchange(frame, reply, options, lines) && take(reply, options, lines) == Taken::Program && pid >= 0) {
            ++generation;
            holdsText = true;
        }
        return program;
    }

    const Program* runEdit(const LineChange& change, const AssembleOptions& options, const Program* base)
    {
        reapIfEnded();
        if (pid < 0) { // a new worker holds no text; without any, the in-process front-end may
            if (!inProcess)
                return nullptr;
            outcome = Outcome::InProcess;
            return inProcess->edit(change, options);
        }
        if (!holdsText)
            return nullptr;
        if (taken && base) { // the caller's copy of the program it took; the splice's digest checks it
            program = *base;
            taken = false;
            tallyFresh = false;
        }
        const int lines = change.linesAfter > 0 ? change.linesAfter : std::numeric_limits<int>::max();
        std::string frame(8, '\0'), reply;
        frame.push_back(kRequestEdit);
        for (const std::uint64_t v : {generation, std::uint64_t(change.first), std::uint64_t(change.oldCount),
                                      std::uint64_t(change.newCount), std::uint64_t(change.linesAfter)})
            putField(frame, v);
        codec::encodeRequest(options, change.text, frame);
        if (!exchange(frame, reply, options, lines))
            return &program;
        switch (take(reply, options, lines)) {
        case Taken::Program:
            ++generation;
            return &program;
        case Taken::NeedText:
            holdsText = false;
            return nullptr;
        case Taken::OutOfStep: {
            ++generation; // the worker took the edit; only this copy of its program is wrong
            std::string again(8, '\0');
            again.push_back(kRequestProgram);
            if (exchange(again, reply, options, lines) && take(reply, options, lines) != Taken::Program && pid >= 0)
                holdsText = false;
            return &program;
        }
        case Taken::Broken:
            return &program;
        }
        return &program;
    }
};

IsolatedFrontEnd::IsolatedFrontEnd(std::string workerPath)
    : state_(std::make_unique<State>())
{
    state_->defaultWorker = workerPath.empty() && !std::getenv("GCNLENS_ASM_WORKER");
    state_->workerPath = workerPath.empty() ? defaultWorkerPath() : std::move(workerPath);
    state_->cancelFd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

IsolatedFrontEnd::~IsolatedFrontEnd()
{
    state_->stop(0); // the worker ends when its socket closes
    if (state_->progress)
        ::munmap(state_->progress, sizeof(detail::WorkerProgress));
    if (state_->progressFd >= 0)
        ::close(state_->progressFd);
    ::close(state_->cancelFd);
}

const Program& IsolatedFrontEnd::analyze(std::string_view source, const AssembleOptions& options)
{
    state_->setBusy(true);
    const Program& program = state_->run(source, options);
    state_->setBusy(false);
    return program;
}

const Program* IsolatedFrontEnd::edit(const LineChange& change, const AssembleOptions& options, const Program* base)
{
    state_->setBusy(true);
    const Program* program = state_->runEdit(change, options, base);
    state_->setBusy(false);
    return program;
}

Program IsolatedFrontEnd::takeProgram(const Program& returned)
{
    if (&returned != &state_->program)
        return returned;
    state_->taken = true;
    return std::move(state_->program);
}

Program IsolatedFrontEnd::assemble(std::string_view source, const AssembleOptions& options)
{
    if (carryOnInChildWhenAlone && state_->defaultWorker && state_->pid < 0 && threadCount() == 1) {
        state_->setBusy(true);
        state_->reapIfEnded(); // (outcome and message of an earlier call cleared)
        const bool carried = state_->carryOn(source, options);
        state_->setBusy(false);
        if (carried) {
            state_->holdsText = false;
            return std::move(state_->program);
        }
    }
    const Program& program = analyze(source, options);
    if (&program != &state_->program)
        return program;
    state_->holdsText = false; // the program leaves: an edit would have nothing to splice into
    return std::move(state_->program);
}

input::ObjectListing IsolatedFrontEnd::readCodeObject(std::string_view bytes, const input::ObjectReadOptions& options,
                                                      const AssembleLimits& limits)
{
    state_->setBusy(true);
    input::ObjectListing out;
    if (!state_->worker()) {
        state_->outcome = Outcome::InProcess;
        out = input::readCodeObject(bytes, options);
    } else {
        AssembleOptions request;
        request.gpu = options.gpu;
        request.fileName = options.fileName;
        request.limits = limits;
        if (!state_->read(kReadObject, bytes, request, out)) {
            out = {};
            out.error = state_->message;
            out.program = std::move(state_->program);
        }
    }
    state_->setBusy(false);
    return out;
}

Program IsolatedFrontEnd::readListing(std::string_view text, const AssembleOptions& options)
{
    state_->setBusy(true);
    Program out;
    input::ObjectListing read;
    if (!state_->worker()) {
        state_->outcome = Outcome::InProcess;
        out = input::readListing(text, options);
    } else {
        out = state_->read(kReadListing, text, options, read) ? std::move(read.program) : std::move(state_->program);
    }
    state_->setBusy(false);
    return out;
}

void IsolatedFrontEnd::cancel()
{
    std::lock_guard lock(state_->mutex);
    if (!state_->busy)
        return;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(state_->cancelFd, &one, sizeof one);
}

int IsolatedFrontEnd::lineReached() const
{
    std::lock_guard lock(state_->mutex);
    return state_->busy && state_->progress ? state_->progress->line.load(std::memory_order_relaxed) : 0;
}

IsolatedFrontEnd::Outcome IsolatedFrontEnd::lastOutcome() const
{
    return state_->outcome;
}
int IsolatedFrontEnd::lastLine() const
{
    return state_->line;
}
const std::string& IsolatedFrontEnd::lastMessage() const
{
    return state_->message;
}
int IsolatedFrontEnd::workerStarts() const
{
    return state_->starts;
}
std::size_t IsolatedFrontEnd::lastTransferBytes() const
{
    return state_->transferred;
}
long IsolatedFrontEnd::workerProcessId() const
{
    return state_->pid;
}

std::string IsolatedFrontEnd::defaultWorkerPath()
{
    return programBesideSelf("gcnlens-asm-worker", "GCNLENS_ASM_WORKER");
}

std::function<Program(const std::string&)> isolatedAssembler(AssembleOptions options)
{
    auto frontEnd = std::make_shared<IsolatedFrontEnd>();
    return
        [frontEnd, options = std::move(options)](const std::string& text) { return Program(frontEnd->analyze(text, options)); };
}

} // namespace gcnlens
