// SPDX-License-Identifier: MIT
// LdsResults: the DS results by instruction index, equal results shared; LaneList: a result's
// lanes, their spacing interned (issue #18).
#include "core/model/lds.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>

namespace gcnlens {

namespace {

// Enough of a result to tell most different results apart; equality decides.
std::size_t hashOf(const LdsAccessResult& r)
{
    std::size_t h = std::hash<std::string_view> {}(r.op) ^ (std::hash<std::string_view> {}(r.note) << 1)
        ^ (std::hash<std::string> {}(r.error) << 2);
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

LaneList::LaneList(const std::vector<LaneAccess>& lanes)
    : count_(std::uint32_t(lanes.size()))
{
    if (lanes.empty())
        return;
    dwords_ = lanes.front().dwords;
    bool fits = lanes.size() <= 64;
    std::vector<std::int32_t> distances(lanes.size());
    for (std::size_t i = 0; fits && i < lanes.size(); ++i) {
        const LaneAccess& a = lanes[i];
        fits = a.lane == i && a.dwords == dwords_ && (a.known || a.address == 0);
        if (!fits || !a.known)
            continue;
        if (!known_)
            base_ = a.address;
        known_ |= std::uint64_t(1) << i;
        // Modulo 2^64, as the addresses were added (lds.cpp): no signed overflow.
        const auto distance = std::int64_t(std::uint64_t(a.address) - std::uint64_t(base_));
        fits = distance >= INT32_MIN && distance <= INT32_MAX;
        distances[i] = std::int32_t(distance);
    }
    if (fits) {
        distances_ = InternedArray<std::int32_t>(distances);
        return;
    }
    base_ = 0;
    known_ = 0;
    asIs_ = std::make_shared<const std::vector<LaneAccess>>(lanes);
}

LaneAccess LaneList::entry(std::size_t at) const
{
    if (asIs_)
        return (*asIs_)[at];
    LaneAccess a;
    a.lane = std::uint8_t(at);
    a.dwords = dwords_;
    a.known = (known_ >> at) & 1;
    if (a.known)
        a.address = std::int64_t(std::uint64_t(base_) + std::uint64_t(std::int64_t(distances_[at])));
    return a;
}

bool LaneList::operator==(const LaneList& other) const
{
    if (!asIs_ && !other.asIs_)
        return count_ == other.count_ && dwords_ == other.dwords_ && base_ == other.base_ && known_ == other.known_
            && distances_ == other.distances_;
    return std::equal(begin(), end(), other.begin(), other.end());
}

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
