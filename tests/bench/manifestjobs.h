// SPDX-License-Identifier: MIT
// The command line of the developer programs that assemble in-process on any corpus (check_shapes,
// bench_fixits): [--gpu NAME] [--defsym N=V]... [-I DIR]... [--manifest TSV] FILE..., as jobs.
#pragma once

#include "core/asm/assembler.h"
#include "manifest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace gcnlens::bench {

// A file to run on, with the options to assemble it with (fileName its path).
struct Job {
    std::string path, label;
    AssembleOptions options;
};

inline bool addDefsym(AssembleOptions& options, const std::string& text)
{
    const auto defsym = parseDefsym(text);
    if (defsym)
        options.defsyms.push_back(*defsym);
    return defsym.has_value();
}

// The manifest's rows named in `wanted` (every llvm-dialect row when it is empty) as jobs.
inline std::vector<Job> manifestJobs(const std::string& manifest, const std::vector<std::string>& wanted)
{
    std::vector<Job> jobs;
    for (const auto& row : readManifest(manifest, wanted)) {
        if (wanted.empty() && row.dialect != "llvm")
            continue;
        Job job {row.path, row.label, {}};
        job.options.fileName = row.path;
        job.options.gpu = row.gpu;
        for (const auto& d : row.defsyms)
            addDefsym(job.options, d);
        job.options.includeDirs = row.includeDirs;
        jobs.push_back(job);
    }
    return jobs;
}

// Reads the shared options from argv; what it does not know (files, the program's own flags)
// goes to `rest`. The jobs: the manifest's rows named by the files, else the files with the
// common options.
inline std::vector<Job> parseJobs(int argc, char** argv, std::vector<std::string>& rest)
{
    AssembleOptions common;
    common.gpu = "tahiti";
    std::string manifest;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "--gpu" && hasValue)
            common.gpu = argv[++i];
        else if (arg == "--defsym" && hasValue && addDefsym(common, argv[i + 1]))
            ++i;
        else if (arg == "-I" && hasValue)
            common.includeDirs.push_back(argv[++i]);
        else if (arg == "--manifest" && hasValue)
            manifest = argv[++i];
        else if (arg.starts_with("--"))
            rest.push_back(arg);
        else
            files.push_back(arg);
    }
    if (!manifest.empty())
        return manifestJobs(manifest, files);
    std::vector<Job> jobs;
    for (const auto& f : files) {
        jobs.push_back(Job {f, f, common});
        jobs.back().options.fileName = f;
    }
    return jobs;
}

// A job's file, whole; false (and a message naming it) when it cannot be read.
inline bool readJobFile(const Job& job, std::string& text)
{
    std::ifstream in(job.path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "%s: cannot open\n", job.path.c_str());
        return false;
    }
    std::ostringstream whole;
    whole << in.rdbuf();
    text = whole.str();
    return true;
}

} // namespace gcnlens::bench
