// SPDX-License-Identifier: MIT
#include "core/program.h"

#include <algorithm>
#include <numeric>

namespace gcnlens {

std::string_view familyName(Family family)
{
    switch (family) {
    case Family::SOP1:
        return "SOP1";
    case Family::SOP2:
        return "SOP2";
    case Family::SOPK:
        return "SOPK";
    case Family::SOPC:
        return "SOPC";
    case Family::SOPP:
        return "SOPP";
    case Family::SMRD:
        return "SMRD";
    case Family::SMEM:
        return "SMEM";
    case Family::VOP1:
        return "VOP1";
    case Family::VOP2:
        return "VOP2";
    case Family::VOPC:
        return "VOPC";
    case Family::VOP3:
        return "VOP3";
    case Family::VOP3P:
        return "VOP3P";
    case Family::SDWA:
        return "SDWA";
    case Family::DPP:
        return "DPP";
    case Family::VINTRP:
        return "VINTRP";
    case Family::DS:
        return "DS";
    case Family::MUBUF:
        return "MUBUF";
    case Family::MTBUF:
        return "MTBUF";
    case Family::MIMG:
        return "MIMG";
    case Family::EXP:
        return "EXP";
    case Family::FLAT:
        return "FLAT";
    case Family::GLOBAL:
        return "GLOBAL";
    case Family::SCRATCH:
        return "SCRATCH";
    case Family::Data:
        return "data";
    case Family::Unknown:
        return "unknown";
    }
    return "unknown";
}

std::string_view regKindName(RegKind kind)
{
    switch (kind) {
    case RegKind::VGPR:
        return "vgpr";
    case RegKind::SGPR:
        return "sgpr";
    case RegKind::AGPR:
        return "agpr";
    case RegKind::TTMP:
        return "ttmp";
    case RegKind::VCC:
        return "vcc";
    case RegKind::EXEC:
        return "exec";
    case RegKind::M0:
        return "m0";
    case RegKind::SCC:
        return "scc";
    case RegKind::FlatScratch:
        return "flat_scratch";
    case RegKind::XnackMask:
        return "xnack_mask";
    case RegKind::Other:
        return "other";
    }
    return "other";
}

std::string_view severityName(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}

bool Program::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

LineIndex::const_iterator LineIndex::lowerBound(int line) const
{
    return {this, std::size_t(std::lower_bound(lines_.begin(), lines_.end(), line) - lines_.begin())};
}

LineIndex::const_iterator LineIndex::find(int line) const
{
    const auto it = std::lower_bound(lines_.begin(), lines_.end(), line);
    return it != lines_.end() && *it == line ? const_iterator(this, std::size_t(it - lines_.begin())) : end();
}

void LineIndex::assign(std::vector<std::pair<int, int>> lineAndInstruction)
{
    // Usually in order already (instructions follow the text, except inside .rept bodies).
    if (!std::is_sorted(lineAndInstruction.begin(), lineAndInstruction.end()))
        std::sort(lineAndInstruction.begin(), lineAndInstruction.end());
    identity_ = true;
    for (std::size_t k = 0; k < lineAndInstruction.size() && identity_; ++k)
        identity_ = lineAndInstruction[k].second == int(k);
    // Exactly as many entries as lines: a vector grown by doubling holds up to twice that.
    std::size_t lines = 0;
    for (std::size_t k = 0; k < lineAndInstruction.size(); ++k)
        lines += k == 0 || lineAndInstruction[k].first != lineAndInstruction[k - 1].first;
    lines_ = {};
    starts_ = {};
    indices_ = {};
    lines_.reserve(lines);
    starts_.reserve(lines + 1);
    starts_.push_back(0);
    if (!identity_)
        indices_.reserve(lineAndInstruction.size());
    int count = 0;
    for (const auto& [line, instruction] : lineAndInstruction) {
        if (lines_.empty() || lines_.back() != line) {
            if (!lines_.empty())
                starts_.push_back(count);
            lines_.push_back(line);
        }
        if (!identity_)
            indices_.push_back(instruction);
        ++count;
    }
    if (!lines_.empty())
        starts_.push_back(count);
}

void LineIndex::dropIdentityIndices()
{
    for (std::size_t k = 0; k < indices_.size(); ++k)
        if (indices_[k] != int(k))
            return;
    indices_ = {};
    identity_ = true;
}

void LineIndex::splice(int first, int last, int lineDelta, int firstMoved, int indexDelta,
                       const std::vector<std::pair<int, int>>& added)
{
    if (identity_) { // spelled out for the edit, dropped again below when it stays the identity
        indices_.resize(std::size_t(starts_.back()));
        std::iota(indices_.begin(), indices_.end(), 0);
        identity_ = false;
    }
    const auto from = std::size_t(std::lower_bound(lines_.begin(), lines_.end(), first) - lines_.begin());
    const auto to = std::size_t(std::upper_bound(lines_.begin(), lines_.end(), last) - lines_.begin());
    // The new entries, grouped by line (`added` comes in instruction order).
    std::vector<std::pair<int, int>> sorted = added;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> newLines, newCounts, newIndices;
    for (const auto& [line, instruction] : sorted) {
        if (newLines.empty() || newLines.back() != line) {
            newLines.push_back(line);
            newCounts.push_back(0);
        }
        ++newCounts.back();
        newIndices.push_back(instruction);
    }
    // Replace entries [from, to) and their indices by the new ones.
    const int oldIndexBegin = starts_[from], oldIndexEnd = starts_[to];
    indices_.erase(indices_.begin() + oldIndexBegin, indices_.begin() + oldIndexEnd);
    indices_.insert(indices_.begin() + oldIndexBegin, newIndices.begin(), newIndices.end());
    lines_.erase(lines_.begin() + std::ptrdiff_t(from), lines_.begin() + std::ptrdiff_t(to));
    lines_.insert(lines_.begin() + std::ptrdiff_t(from), newLines.begin(), newLines.end());
    std::vector<int> newStarts;
    int start = oldIndexBegin;
    for (const int n : newCounts) {
        newStarts.push_back(start);
        start += n;
    }
    starts_.erase(starts_.begin() + std::ptrdiff_t(from), starts_.begin() + std::ptrdiff_t(to));
    starts_.insert(starts_.begin() + std::ptrdiff_t(from), newStarts.begin(), newStarts.end());
    // What follows moves: its starts by the change in index count, its lines by lineDelta.
    const int startDelta = int(newIndices.size()) - (oldIndexEnd - oldIndexBegin);
    for (std::size_t i = from + newLines.size(); i < starts_.size(); ++i)
        starts_[i] += startDelta;
    if (lineDelta != 0)
        for (std::size_t i = from + newLines.size(); i < lines_.size(); ++i)
            lines_[i] += lineDelta;
    if (indexDelta != 0)
        for (std::size_t i = 0; i < indices_.size(); ++i)
            if (indices_[i] >= firstMoved
                && !(i >= std::size_t(oldIndexBegin) && i < std::size_t(oldIndexBegin) + newIndices.size()))
                indices_[i] += indexDelta;
    dropIdentityIndices();
}

} // namespace gcnlens
