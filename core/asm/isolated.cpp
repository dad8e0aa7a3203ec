// SPDX-License-Identifier: MIT
#include "core/asm/isolated.h"

#include "core/asm/programcodec.h"
#include "core/asm/watch_p.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
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
    for (const int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
        ::sigaction(sig, &fault, nullptr);
    struct sigaction timeUp {};
    timeUp.sa_handler = onTimeUp;
    timeUp.sa_flags = SA_ONSTACK;
    ::sigaction(SIGUSR1, &timeUp, nullptr);
    // A crash is reported by the parent; a core file of LLVM's state helps nobody.
    const rlimit noCore {0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
}

// A reply: the frame header, a byte saying whether the worker ends after it, the program.
enum ReplyEnd : char { kWorkerContinues = 0, kWorkerEnds = 1 };

int workerSocket = -1;

bool sendReply(const Program& program, ReplyEnd end, std::string& out)
{
    out.assign(8, '\0');
    out.push_back(end);
    codec::encodeTo(program, out);
    putLength(out, out.size() - 8);
    return transferAll(workerSocket, out.data(), out.size(), true);
}

// A limit was crossed mid-run (streamer_p.h): send what there is and end, rather than unwind LLVM.
void finishEarly(const Program& program)
{
    std::string out;
    sendReply(program, kWorkerEnds, out);
    ::_exit(0);
}

} // namespace

int runAssemblerWorker(int fd, int progressFd)
{
    workerSocket = fd;
    detail::runWatch.finish = finishEarly;
    void* page = ::mmap(nullptr, sizeof(detail::WorkerProgress), PROT_READ | PROT_WRITE, MAP_SHARED, progressFd, 0);
    if (page == MAP_FAILED)
        return 3;
    detail::runWatch.progress = static_cast<detail::WorkerProgress*>(page);
    installWorkerHandlers();
    FrontEnd frontEnd;
    std::string frame, source, out;
    AssembleOptions options;
    char header[8];
    while (transferAll(fd, header, 8, false)) {
        frame.resize(getLength(header));
        if (!transferAll(fd, frame.data(), frame.size(), false))
            return 4;
        std::string error;
        if (!codec::decodeRequest(frame, options, source, &error)) {
            std::fprintf(stderr, "gcnlens-asm-worker: %s\n", error.c_str());
            return 5;
        }
        detail::runWatch.progress->line.store(0, std::memory_order_relaxed);
        if (!sendReply(frontEnd.analyze(source, options), kWorkerContinues, out))
            return 6;
    }
    // The socket closed: end without taking the last Program and LLVM's state apart piece by
    // piece; the parent waits for this exit (#18: a tenth of a second at a million lines).
    ::_exit(0);
}

// --- the parent's side ---

struct IsolatedFrontEnd::State {
    std::string workerPath;
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

    bool start()
    {
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
            return false;
        const int parentEnd = highFd(pair[0]), childEnd = highFd(pair[1]);
        if (!progress) {
            progressFd = highFd(::memfd_create("gcnlens-asm-progress", MFD_CLOEXEC));
            if (progressFd < 0 || ::ftruncate(progressFd, sizeof(detail::WorkerProgress)) != 0)
                return false;
            void* page = ::mmap(nullptr, sizeof(detail::WorkerProgress), PROT_READ | PROT_WRITE, MAP_SHARED, progressFd, 0);
            if (page == MAP_FAILED)
                return false;
            progress = new (page) detail::WorkerProgress;
        }
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

    void fail(Outcome what, const AssembleOptions& options, std::string_view source, int status)
    {
        const int reached = progress ? progress->line.load(std::memory_order_relaxed) : 0;
        // The line is that of the main text; a fresh run that died before any statement names line 1.
        int lines = 1;
        for (const char c : source)
            lines += c == '\n';
        line = std::clamp(reached, 1, std::max(1, lines));
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", options.limits.seconds);
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
        outcome = what;
        program = Program {};
        if (const auto gpu = resolveGpu(options.gpu))
            program.gpu = *gpu;
        program.diagnostics.push_back({Severity::Error, line, 0, message, {}});
    }

    const Program& run(std::string_view source, const AssembleOptions& options)
    {
        outcome = Outcome::Ok;
        line = 0;
        message.clear();
        if (pid >= 0) { // a worker that ended between requests (killed from outside) is replaced, not blamed
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid) {
                pid = -1;
                ::close(socket);
                socket = -1;
            }
        }
        if (pid < 0 && !start()) {
            // No worker (not installed beside this executable?): assemble here, unprotected.
            if (!inProcess) {
                std::fprintf(stderr, "gcnlens: cannot start the assembler worker %s (%s); assembling in-process\n",
                             workerPath.c_str(), std::strerror(errno));
                inProcess = std::make_unique<FrontEnd>();
            }
            outcome = Outcome::InProcess;
            return inProcess->analyze(source, options);
        }
        const double limit = std::isfinite(options.limits.seconds) && options.limits.seconds > 0 ? options.limits.seconds : 10;
        const auto deadline = Clock::now() + std::chrono::microseconds(std::int64_t(limit * 1e6));
        progress->line.store(0, std::memory_order_relaxed);
        std::string frame(8, '\0');
        codec::encodeRequest(options, source, frame);
        putLength(frame, frame.size() - 8);
        Wait w = send(frame, deadline);
        std::string reply;
        if (w == Wait::Ready)
            w = receive(reply, 8, deadline);
        if (w == Wait::Ready)
            w = receive(reply, getLength(reply.data()), deadline);
        switch (w) {
        case Wait::Ready: {
            std::string error;
            if (!reply.empty() && codec::decode(std::string_view(reply).substr(1), program, &error)) {
                if (reply[0] == kWorkerEnds)
                    stop(0); // it stopped at a limit and exits; the next request starts another
                return program;
            }
            fail(Outcome::Crashed, options, source, stop(SIGKILL));
            message += " (" + error + ")";
            program.diagnostics.back().message = message;
            return program;
        }
        case Wait::TimedOut:
            fail(Outcome::TimedOut, options, source, stop(SIGUSR1));
            return program;
        case Wait::Cancelled:
            fail(Outcome::Cancelled, options, source, stop(SIGUSR1));
            return program;
        case Wait::Closed:
            fail(Outcome::Crashed, options, source, stop(0));
            return program;
        }
        return program;
    }
};

IsolatedFrontEnd::IsolatedFrontEnd(std::string workerPath) : state_(std::make_unique<State>())
{
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
    {
        std::lock_guard lock(state_->mutex);
        std::uint64_t stale = 0;
        while (::read(state_->cancelFd, &stale, sizeof stale) > 0) {
        } // a cancel() of an earlier job
        state_->busy = true;
    }
    const Program& program = state_->run(source, options);
    std::lock_guard lock(state_->mutex);
    state_->busy = false;
    return program;
}

Program IsolatedFrontEnd::assemble(std::string_view source, const AssembleOptions& options)
{
    const Program& program = analyze(source, options);
    return &program == &state_->program ? std::move(state_->program) : program;
}

void IsolatedFrontEnd::cancel()
{
    std::lock_guard lock(state_->mutex);
    if (!state_->busy)
        return;
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(state_->cancelFd, &one, sizeof one);
}

IsolatedFrontEnd::Outcome IsolatedFrontEnd::lastOutcome() const { return state_->outcome; }
int IsolatedFrontEnd::lastLine() const { return state_->line; }
const std::string& IsolatedFrontEnd::lastMessage() const { return state_->message; }
int IsolatedFrontEnd::workerStarts() const { return state_->starts; }
long IsolatedFrontEnd::workerProcessId() const { return state_->pid; }

std::string IsolatedFrontEnd::defaultWorkerPath()
{
    if (const char* path = std::getenv("GCNLENS_ASM_WORKER"); path && *path)
        return path;
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return "gcnlens-asm-worker";
    std::string path(self, std::size_t(n));
    path.erase(path.rfind('/') + 1);
    return path + "gcnlens-asm-worker";
}

} // namespace gcnlens
