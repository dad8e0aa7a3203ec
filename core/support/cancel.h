// SPDX-License-Identifier: MIT
// Cancelling a superseded analysis (issue #11 item 6). The editor's bridge gives each job a
// std::stop_token; Analyzer::analyze() installs it for its thread (CancelScope) and the model
// passes call checkCancelled() between instructions or blocks, so a newer request starts at
// once. A stop surfaces as the AnalysisCancelled exception and nothing of the run is published:
// the passes commit their caches only after their last check (core/analysis.cpp).
// Thread-local, so that the passes' signatures stay as they are.
#pragma once

#include <exception>
#include <stop_token>

namespace gcnlens {

struct AnalysisCancelled : std::exception {
    const char* what() const noexcept override { return "the analysis was cancelled"; }
};

namespace detail {
inline thread_local const std::stop_token* cancelToken = nullptr;
}

// Installs `token` for this thread while it lives (nests: the outer one comes back).
class CancelScope {
public:
    explicit CancelScope(const std::stop_token& token)
        : outer_(detail::cancelToken)
    {
        detail::cancelToken = &token;
    }
    ~CancelScope() { detail::cancelToken = outer_; }
    CancelScope(const CancelScope&) = delete;
    CancelScope& operator=(const CancelScope&) = delete;

private:
    const std::stop_token* outer_;
};

// Throws AnalysisCancelled when the running analysis was asked to stop; one load otherwise.
inline void checkCancelled()
{
    if (detail::cancelToken && detail::cancelToken->stop_requested())
        throw AnalysisCancelled {};
}

// The same, every `period`-th call with i (loops over instructions: i the index).
inline void checkCancelled(int i, int period = 256)
{
    if (i % period == 0)
        checkCancelled();
}

} // namespace gcnlens
