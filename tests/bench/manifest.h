// SPDX-License-Identifier: MIT
// Reading a corpus manifest, for the programs that run on kernels outside the repository
// (bench_frontend, check_shapes): a TSV whose header names the columns path, gpu, defsyms
// (space-separated NAME=VALUE), include dirs (space-separated, relative to the manifest's folder),
// dialect and optionally triple, like /work/corpus/MANIFEST.tsv. "-" is an empty cell.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace gcnlens::bench {

inline std::vector<std::string> splitWords(const std::string& text, char separator = ' ')
{
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string word; std::getline(in, word, separator);)
        if (!word.empty() && word != "-")
            words.push_back(word);
    return words;
}

// "NAME=VALUE" (a --defsym), VALUE in any base std::stoll reads; nothing when there is no '='.
inline std::optional<std::pair<std::string, std::int64_t>> parseDefsym(const std::string& text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos)
        return std::nullopt;
    return std::pair(text.substr(0, eq), std::int64_t(std::stoll(text.substr(eq + 1), nullptr, 0)));
}

struct ManifestRow {
    std::string label; // the path as the manifest gives it
    std::string path;  // that path from here
    std::string gpu, dialect, triple;
    std::vector<std::string> defsyms, includeDirs;
};

// The rows named in `wanted` (by their path column), or every row when it is empty.
inline std::vector<ManifestRow> readManifest(const std::string& manifest, const std::vector<std::string>& wanted)
{
    std::ifstream in(manifest);
    const std::string dir = manifest.find('/') == std::string::npos ? "." : manifest.substr(0, manifest.rfind('/'));
    std::string line;
    std::getline(in, line);
    std::map<std::string, std::size_t> column;
    {
        std::istringstream header(line);
        for (std::string name; std::getline(header, name, '\t');)
            column[name] = column.size();
    }
    std::vector<ManifestRow> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::istringstream row(line);
        for (std::string cell; std::getline(row, cell, '\t');)
            cells.push_back(cell == "-" ? std::string() : cell);
        const auto field = [&](const char* name) {
            const auto it = column.find(name);
            return it == column.end() || it->second >= cells.size() ? std::string() : cells[it->second];
        };
        ManifestRow r;
        r.label = field("path");
        if (r.label.empty() || (!wanted.empty() && std::find(wanted.begin(), wanted.end(), r.label) == wanted.end()))
            continue;
        r.path = dir + "/" + r.label;
        r.gpu = field("gpu");
        if (r.gpu.starts_with("gfx940")) // gcnlens knows gfx942, the released part (as the corpus baseline ran them)
            r.gpu.replace(0, 6, "gfx942");
        r.dialect = field("dialect");
        r.triple = field("triple");
        r.defsyms = splitWords(field("defsyms"));
        for (const auto& d : splitWords(field("include dirs")))
            r.includeDirs.push_back(dir + "/" + d);
        rows.push_back(r);
    }
    return rows;
}

} // namespace gcnlens::bench
