// SPDX-License-Identifier: MIT
// Static checks of hazards.md (issue #17 section 1) for GFX6–GFX9 and gfx908/90a/942:
// - wait-state hazards (§2 table and §2b MFMA rows, rule ids W-*): the distance from producer to
//   consumer is minimised over every CFG path, loop back edges included;
// - the s_waitcnt model (§3): per-counter queues, in-order vs out-of-order returns, joins by
//   LLVM-style merge to a fixpoint; every register used before a wait that proves its producer
//   complete.
// Options: hazards.md §4 (CheckOptions, inside TimingOptions).
#pragma once

#include "core/model/cfg.h"
#include "core/model/timing.h"

#include <string>
#include <vector>

namespace gcnlens {

// The short texts of a finding (rule, counter, register, fix) repeat: interned (issue #18).
struct HazardFinding {
    InternedString rule;  // W-… id
    int instruction = -1; // the consumer
    int line = 0;
    int producer = -1;
    int producerLine = 0;
    int required = 0;   // wait states the rule requires
    int present = 0;    // the fewest there are on any path
    InternedString fix; // "s_nop 3" (several, one per line, when one s_nop cannot give enough)
    std::string detail;
    bool operator==(const HazardFinding&) const = default;
};

struct WaitcntFinding {
    InternedString rule;  // W-waitcnt-vmcnt / -lgkmcnt / -expcnt (docs/model.md)
    int instruction = -1; // the consumer
    int line = 0;
    int producer = -1;
    int producerLine = 0;
    InternedString counter;     // vmcnt, lgkmcnt, expcnt
    InternedString access;      // RAW, WAW, WAR
    InternedString reg;         // the register, "v4", "s[2:3]"
    bool notGuaranteed = false; // out-of-order returns: no count but 0 proves completion
    int count = 0;              // the wait that would cover it: counter(count)
    InternedString fix;         // "s_waitcnt lgkmcnt(0)"
    PatternText detail;         // the producer's line a hole in a shared wording (issue #18)
    bool operator==(const WaitcntFinding&) const = default;
};

struct CheckResult {
    std::vector<HazardFinding> hazards; // by consumer index
    std::vector<WaitcntFinding> waits;  // by consumer index
    std::vector<std::string> notes;     // CFG notes and readings the checks rest on
    bool operator==(const CheckResult&) const = default;
};

CheckResult analyzeChecks(const Program& program, const Cfg& cfg, const TimingOptions& options = {}, int* walked = nullptr);

// analyzeChecks after an edit (the editor's path), equal to it: `previous` is the result for a
// program with the same CFG, options and number of instructions that differed from this one only
// in [first, end). A hazard's distance is walked back at most a bounded number of instructions,
// so only the consumers within that bound after the edit are walked again; the other consumers
// keep their findings. The s_waitcnt model runs in full. `walked`: how many consumers were walked.
CheckResult analyzeChecksAfterEdit(const Program& program, const Cfg& cfg, const TimingOptions& options,
                                   const CheckResult& previous, int first, int end, int* walked = nullptr);

// The s_nop sequence giving `states` wait states with `limit` per s_nop ("s_nop 15\ns_nop 2").
std::string nopFix(int states, int limit);

} // namespace gcnlens
