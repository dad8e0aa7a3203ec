// SPDX-License-Identifier: MIT
// LdsResults: the DS results by instruction index, equal results shared (issue #18).
#include "core/model/lds.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace gcnlens {

namespace {

// Enough of a result to tell most different results apart; equality decides.
std::size_t hashOf(const LdsAccessResult& r)
{
    std::size_t h =
        std::hash<std::string> {}(r.op) ^ (std::hash<std::string> {}(r.note) << 1) ^ (std::hash<std::string> {}(r.error) << 2);
    auto mix = [&](std::int64_t v) { h = h * 1099511628211ull ^ std::size_t(v); };
    mix(r.widthBytes);
    mix(r.cycles);
    mix(r.degree);
    mix(r.allKnown);
    for (const LaneAccess& lane : r.lanes)
        mix(lane.address * 2 + lane.known);
    for (const LaneAccess& lane : r.secondLanes)
        mix(lane.address * 2 + lane.known);
    return h;
}

} // namespace

LdsResults::const_iterator LdsResults::lower_bound(int index) const
{
    return {this, std::size_t(std::lower_bound(indices_.begin(), indices_.end(), index) - indices_.begin())};
}

LdsResults::const_iterator LdsResults::find(int index) const
{
    const auto it = lower_bound(index);
    return it != end() && it->first == index ? it : end();
}

const LdsAccessResult& LdsResults::at(int index) const
{
    const auto it = find(index);
    if (it == end())
        throw std::out_of_range("LdsResults::at");
    return *results_[it.position()];
}

std::size_t LdsResults::distinct() const
{
    std::vector<const LdsAccessResult*> all;
    for (const auto& r : results_)
        all.push_back(r.get());
    std::sort(all.begin(), all.end());
    return std::size_t(std::unique(all.begin(), all.end()) - all.begin());
}

void LdsResults::add(int index, std::shared_ptr<const LdsAccessResult> result)
{
    if (!indices_.empty() && indices_.back() >= index) { // defensive: keep the map's order and uniqueness
        const auto at = std::size_t(std::lower_bound(indices_.begin(), indices_.end(), index) - indices_.begin());
        if (at < indices_.size() && indices_[at] == index) {
            results_[at] = std::move(result);
            return;
        }
        indices_.insert(indices_.begin() + std::ptrdiff_t(at), index);
        results_.insert(results_.begin() + std::ptrdiff_t(at), std::move(result));
        return;
    }
    indices_.push_back(index);
    results_.push_back(std::move(result));
}

void LdsResults::add(int index, LdsAccessResult result)
{
    const std::size_t hash = hashOf(result);
    const auto [first, last] = lookup_.equal_range(hash);
    for (auto it = first; it != last; ++it)
        if (*results_[it->second] == result) {
            add(index, results_[it->second]);
            return;
        }
    add(index, std::make_shared<const LdsAccessResult>(std::move(result)));
    if (indices_.back() == index) // appended (the usual case): positions of the lookup stay valid
        lookup_.emplace(hash, indices_.size() - 1);
    else
        lookup_.clear();
}

bool LdsResults::operator==(const LdsResults& other) const
{
    if (indices_ != other.indices_)
        return false;
    for (std::size_t i = 0; i < results_.size(); ++i)
        if (results_[i] != other.results_[i] && !(*results_[i] == *other.results_[i]))
            return false;
    return true;
}

} // namespace gcnlens
