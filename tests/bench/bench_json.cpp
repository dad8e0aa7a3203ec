// SPDX-License-Identifier: MIT
// `gcnlens-cli analyze --json` against the text output of the same analysis (issue #11 item 3):
// wall time and peak memory of each run on generated 100k- and 1M-instruction kernels. The goal:
// the JSON in at most 1.5x the text's time and at most 300 MB above the text run's peak (the
// analysis itself). Usage: bench_json [GCNLENS_CLI] [--max N]
#include "generatedkernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct Measure {
    double seconds = 0;
    double peakMiB = 0;
    int status = -1;
};

// Runs the CLI with stdout to /dev/null; its own wall time and peak resident set.
Measure run(const std::string& cli, const std::vector<std::string>& args)
{
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        std::vector<char*> argv {const_cast<char*>(cli.c_str())};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(cli.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage {};
    wait4(pid, &status, 0, &usage);
    Measure m;
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.peakMiB = double(usage.ru_maxrss) / 1024.0;
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return m;
}

} // namespace

int main(int argc, char** argv)
{
    std::string cli = GCNLENS_BIN_DIR "/gcnlens-cli";
    int max = 1000000;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--max") == 0 && i + 1 < argc)
            max = std::atoi(argv[++i]);
        else
            cli = argv[i];
    }
    std::printf("%-10s %-6s %9s %10s\n", "instrs", "output", "seconds", "peak MiB");
    for (const int size : {100000, 1000000}) {
        if (size > max)
            break;
        const std::string path = "/tmp/gcnlens-bench-json-" + std::to_string(size) + ".s";
        std::ofstream(path) << gcnlens::bench::generateKernel(size);
        Measure text, json;
        for (int round = 0; round < 2; ++round) { // the better of two, each
            const Measure t = run(cli, {"analyze", path});
            const Measure j = run(cli, {"analyze", path, "--json"});
            if (round == 0 || t.seconds < text.seconds)
                text = t;
            if (round == 0 || j.seconds < json.seconds)
                json = j;
        }
        std::printf("%-10d %-6s %9.2f %10.0f\n", size, "text", text.seconds, text.peakMiB);
        std::printf("%-10d %-6s %9.2f %10.0f\n", size, "json", json.seconds, json.peakMiB);
        std::printf("%-10d ratio  %9.2fx %+9.0f MiB  (goal: <= 1.5x, <= +300 MB)%s\n", size, json.seconds / text.seconds,
                    json.peakMiB - text.peakMiB, text.status == 0 && json.status == 0 ? "" : "  (a run failed)");
        std::remove(path.c_str());
    }
    return 0;
}
