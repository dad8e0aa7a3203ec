// SPDX-License-Identifier: MIT
// Front-end speed (issues #2 and #18): cold `gcnlens-cli listing` of each file, through the CLI's own
// path (the CLI process and the gcnlens-asm-worker it starts), against `llvm-mc -show-encoding` on
// the same file with the same GPU, triple, --defsym and -I, and on plain instruction text against
// clrxasm (CLRX's assembler, given the same instructions in its syntax). Each command runs as a
// child process, alternately, best of --runs; peak memory is the child's (wait4's maxrss, which for
// the CLI covers its worker too). Prints one row per file, the ratios, and the sums.
// Not part of ctest.
//
// Usage: bench_frontend [--cli PATH] [--llvm-mc PATH] [--clrxasm PATH] [--runs N] [--gpu NAME]
//                       [--command listing|analyze] [--manifest TSV] [--generate N[,N…]] [FILE…]
//   --command: what gcnlens-cli runs (default listing); analyze adds every model pass and its
//               text report to the same front-end work.
//   --manifest: a TSV with a header naming the columns path, gpu, defsyms (space-separated
//               NAME=VALUE), include dirs (space-separated, relative to the manifest's folder) and
//               optionally triple (like /work/corpus/MANIFEST.tsv); FILEs are then paths of its rows
//               (all rows when none are given). A llvm-mc.tsv beside it supplies the triple per path.
//   --generate: kernels of N instructions made here: "distinct" (plain text, a distinct literal,
//               offset and registers per line; also fed to clrxasm) and "macro" (MIOpen-like macros
//               and .rept unrolls). Default 100000 when no FILE or manifest is given.
// It links no gcnlens or LLVM code: a child's peak memory starts from its parent's at spawn, so
// this process stays small. (The one-line edit figures of issue #2 moved to bench_edits.)
#include "generatedkernel.h"
#include "manifest.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <spawn.h>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

using namespace gcnlens;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

struct Measured {
    double wall = 0, cpu = 0; // seconds: the best run's wall time, the least CPU time of any run
    double peakMiB = 0;
    int status = -1;
    bool ran() const { return status >= 0; }
};

// Runs argv with stdout and stderr to /dev/null; wall time, CPU time (user+sys, the child and
// the children it waited for) and peak resident memory from wait4.
Measured runChild(const std::vector<std::string>& args)
{
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    Measured m;
    pid_t pid = 0;
    const auto start = Clock::now();
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return m;
    int status = 0;
    rusage usage {};
    wait4(pid, &status, 0, &usage);
    m.wall = seconds(Clock::now() - start);
    m.cpu = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    m.peakMiB = double(usage.ru_maxrss) / 1024.0;
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return m;
}

void keepBest(Measured& best, const Measured& m)
{
    if (!m.ran())
        return;
    if (!best.ran()) {
        best = m;
        return;
    }
    best.wall = std::min(best.wall, m.wall);
    best.cpu = std::min(best.cpu, m.cpu);
    best.peakMiB = std::max(best.peakMiB, m.peakMiB);
    best.status = std::max(best.status, m.status);
}

struct Item {
    std::string label, path, gpu, triple = "amdgcn-amd-amdhsa", group;
    std::vector<std::string> defsyms, includeDirs;
    std::string clrxPath; // the same instructions in CLRX syntax (generated kernels only)
};

// LLVM's processor and -mattr from a target ID (gfx906:xnack- → gfx906, -xnack).
std::pair<std::string, std::string> llvmCpu(const std::string& gpu)
{
    const std::vector<std::string> parts = bench::splitWords(gpu, ':');
    if (parts.empty())
        return {"tahiti", ""};
    std::string attrs;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const std::string& f = parts[i];
        if (f.empty())
            continue;
        attrs += (attrs.empty() ? "" : ",") + std::string(1, f.back()) + f.substr(0, f.size() - 1);
    }
    return {parts[0], attrs};
}

std::vector<Item> readItems(const std::string& manifest, const std::vector<std::string>& wanted)
{
    // Triples llvm-mc accepted per path (the corpus's try_llvm_mc.sh), when that file is beside the manifest.
    std::map<std::string, std::string> triples;
    if (std::ifstream mc(manifest.substr(0, manifest.rfind('/') + 1) + "llvm-mc.tsv"); mc) {
        for (std::string row; std::getline(mc, row);) {
            const std::vector<std::string> cells = bench::splitWords(row, '\t');
            if (cells.size() >= 4 && cells[3] == "0")
                triples[cells[0]] = cells[2];
        }
    }
    std::vector<Item> items;
    for (const auto& row : bench::readManifest(manifest, wanted)) {
        Item item {row.label, row.path, row.gpu, "amdgcn-amd-amdhsa", "files", row.defsyms, row.includeDirs, {}};
        if (!row.triple.empty())
            item.triple = row.triple;
        else if (const auto it = triples.find(row.label); it != triples.end())
            item.triple = it->second;
        items.push_back(item);
    }
    return items;
}

std::string siblingOf(const char* argv0, const char* name)
{
    const std::string self = argv0;
    const auto slash = self.rfind('/');
    return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/" + name;
}

// One row: per program wall, CPU (user+sys, children included) and peak; gcnlens' ratios to each.
void printRow(const std::string& label, const Measured& g, const Measured& mc, const Measured& cx)
{
    std::string row;
    char text[64];
    for (const Measured* m : {&g, &mc, &cx}) {
        if (m->ran())
            std::snprintf(text, sizeof text, "%8.3f %7.3f %5.0f", m->wall, m->cpu, m->peakMiB);
        else
            std::snprintf(text, sizeof text, "%8s %7s %5s", "-", "-", "-");
        row += text;
        if (m != &g) {
            if (m->ran() && g.ran() && m->wall > 0 && m->cpu > 0)
                std::snprintf(text, sizeof text, " %5.2f %5.2f | ", g.wall / m->wall, g.cpu / m->cpu);
            else
                std::snprintf(text, sizeof text, " %5s %5s | ", "-", "-");
            row += text;
        } else {
            row += " | ";
        }
    }
    for (const auto& [name, m] : {std::pair {"gcnlens", &g}, {"llvm-mc", &mc}, {"clrxasm", &cx}})
        if (m->ran() && m->status != 0)
            row += std::string("(") + name + " exit " + std::to_string(m->status) + ") ";
    std::printf("%s%s\n", row.c_str(), label.c_str());
}

} // namespace

int main(int argc, char** argv)
{
    std::string cli = siblingOf(argv[0], "gcnlens-cli");
    std::string llvmMc = "/usr/lib/llvm-19/bin/llvm-mc";
    std::string clrxasm;
    std::string manifest, gpu = "tahiti", command = "listing";
    int runs = 3;
    std::vector<int> generate;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--cli" && hasValue)
            cli = argv[++i];
        else if (arg == "--llvm-mc" && hasValue)
            llvmMc = argv[++i];
        else if (arg == "--clrxasm" && hasValue)
            clrxasm = argv[++i];
        else if (arg == "--runs" && hasValue)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--gpu" && hasValue)
            gpu = argv[++i];
        else if (arg == "--command" && hasValue
                 && (std::string_view(argv[i + 1]) == "listing" || std::string_view(argv[i + 1]) == "analyze"))
            command = argv[++i];
        else if (arg == "--manifest" && hasValue)
            manifest = argv[++i];
        else if (arg == "--generate" && hasValue)
            for (const auto& n : bench::splitWords(argv[++i], ','))
                generate.push_back(std::atoi(n.c_str()));
        else if (arg.starts_with("--")) {
            std::fprintf(stderr, "bench_frontend: unknown option %s (see the usage at the top of bench_frontend.cpp)\n",
                         arg.c_str());
            return 2;
        } else
            files.push_back(arg);
    }
    if (files.empty() && manifest.empty() && generate.empty())
        generate = {100000};

    std::vector<Item> items = manifest.empty() ? std::vector<Item> {} : readItems(manifest, files);
    if (manifest.empty())
        for (const auto& f : files)
            items.push_back(Item {f, f, gpu, "amdgcn-amd-amdhsa", "files", {}, {}, {}});
    std::vector<std::string> temporary;
    for (const int size : generate) {
        const std::string base = "/tmp/gcnlens-bench-" + std::to_string(getpid()) + "-" + std::to_string(size);
        // Written by a child: a child's peak memory starts from its parent's at spawn, so this
        // process never holds the big texts.
        if (const pid_t writer = fork(); writer == 0) {
            std::ofstream(base + "-distinct.s") << bench::generateDistinctKernel(size);
            std::ofstream(base + "-distinct.clrx.s") << bench::generateDistinctKernel(size, /*clrx=*/true);
            std::ofstream(base + "-macro.s") << bench::generateMacroKernel(size);
            _exit(0);
        } else {
            waitpid(writer, nullptr, 0);
        }
        items.push_back(Item {"generated distinct " + std::to_string(size),
                              base + "-distinct.s",
                              "tahiti",
                              "amdgcn--",
                              "distinct",
                              {},
                              {},
                              base + "-distinct.clrx.s"});
        items.push_back(
            Item {"generated macro " + std::to_string(size), base + "-macro.s", "tahiti", "amdgcn--", "macro", {}, {}, {}});
        temporary.insert(temporary.end(), {base + "-distinct.s", base + "-distinct.clrx.s", base + "-macro.s"});
    }

    std::printf("gcnlens: %s %s (its worker included); llvm-mc: %s -show-encoding; clrxasm: %s; least wall and least CPU "
                "time of %d runs, children run alternately\n",
                cli.c_str(), command.c_str(), llvmMc.c_str(), clrxasm.empty() ? "(not given)" : clrxasm.c_str(), runs);
    rusage self {};
    getrusage(RUSAGE_SELF, &self);
    std::printf("peak memory: each child's maxrss (for gcnlens the larger of the CLI and its worker); it starts from "
                "this process's %.0f MiB\n",
                double(self.ru_maxrss) / 1024.0);
    std::printf("%-22s | %-34s | %-34s |\n", "gcnlens", "llvm-mc    (ratio: gcnlens/llvm-mc)",
                "clrxasm    (ratio: gcnlens/clrxasm)");
    std::printf("%8s %7s %5s | %8s %7s %5s %5s %5s | %8s %7s %5s %5s %5s |\n", "wall s", "cpu s", "MiB", "wall s", "cpu s", "MiB",
                "wall", "cpu", "wall s", "cpu s", "MiB", "wall", "cpu");
    struct Sum {
        Measured g, mc, cx;
        int files = 0;
    };
    std::map<std::string, Sum> sums;
    for (const Item& item : items) {
        // (no time limit: the benchmark wants the whole run)
        std::vector<std::string> g {cli, command, item.path, "--gpu", item.gpu, "--limit", "time=86400"};
        const auto [cpu, attrs] = llvmCpu(item.gpu);
        std::vector<std::string> mc {llvmMc, "-triple=" + item.triple, "-mcpu=" + cpu, "-show-encoding", "-o", "/dev/null"};
        if (!attrs.empty())
            mc.push_back("-mattr=" + attrs);
        for (const auto& d : item.defsyms) {
            g.insert(g.end(), {"--defsym", d});
            mc.insert(mc.end(), {"--defsym", d});
        }
        for (const auto& dir : item.includeDirs) {
            g.insert(g.end(), {"-I", dir});
            mc.insert(mc.end(), {"-I", dir});
        }
        mc.push_back(item.path);
        std::vector<std::string> cx;
        if (!clrxasm.empty() && !item.clrxPath.empty())
            cx = {clrxasm, "-b", "rawcode", "-g", cpu, "-o", "/dev/null", item.clrxPath};
        Measured bestG, bestMc, bestCx;
        for (int r = 0; r < runs; ++r) {
            keepBest(bestG, runChild(g));
            keepBest(bestMc, runChild(mc));
            if (!cx.empty())
                keepBest(bestCx, runChild(cx));
        }
        printRow(item.label, bestG, bestMc, bestCx);
        Sum& sum = sums[item.group];
        for (auto [total, one] : {std::pair {&sum.g, &bestG}, {&sum.mc, &bestMc}, {&sum.cx, &bestCx}}) {
            if (!one->ran())
                continue;
            total->status = std::max(total->status, one->status);
            total->wall += one->wall;
            total->cpu += one->cpu;
            total->peakMiB = std::max(total->peakMiB, one->peakMiB);
        }
        ++sum.files;
        std::fflush(stdout);
    }
    for (const auto& [group, sum] : sums)
        printRow("sum of " + std::to_string(sum.files) + " " + group, sum.g, sum.mc, sum.cx);
    for (const auto& path : temporary)
        std::remove(path.c_str());
    return 0;
}
