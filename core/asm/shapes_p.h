// SPDX-License-Identifier: MIT
// Private to core/asm: the shape pass. Lines that differ only in register numbers are encoded
// from one assembler run of their shape by LLVM's own encoder (README, "How it is fast").
#pragma once

#include "core/asm/linescan_p.h"
#include "core/asm/streamer_p.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gcnlens::detail {

// Whether an integer operand may be an inline constant for some operand type (then its value, not
// its class, is part of a shape: the assembler decides inline constant or literal from it).
bool mayBeInlineConstant(std::uint64_t v);

// Below this many instruction lines the shape pass costs more than it saves.
constexpr std::size_t kShapePassMinimumLines = 48;

// The shape pass (issue #2's hint): an instruction's encoding depends on its shape, not on its
// register numbers, so each shape is assembled once, in a separate run of LLVM over one line
// per shape, and every line of that shape is encoded by the real encoder from that MCInst with
// its own registers put in. Lines it cannot vouch for (outside plain code, naming a symbol,
// a shape that drew any diagnostic or came out with a symbolic operand) stay with the assembler.
// Returns the text for the main run, with the planned lines replaced (see ShapePlan).
std::string planShapes(TargetKit& kit, const GpuTarget& gpu, std::string_view text, const LineScan& scan,
                       const AssembleOptions& options, ShapePlan& plan);

} // namespace gcnlens::detail
