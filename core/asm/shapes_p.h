// SPDX-License-Identifier: MIT
// Private to core/asm: the shape pass. Lines that differ only in register numbers are encoded
// from one assembler run of their shape by LLVM's own encoder (README, "How it is fast").
#pragma once

#include "core/asm/linescan_p.h"
#include "core/asm/streamer_p.h"

#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gcnlens::detail {

// Whether an integer operand may be an inline constant for some operand type (then its value, not
// its class, is part of a shape: the assembler decides inline constant or literal from it).
bool mayBeInlineConstant(std::uint64_t v);

// One register operand's part of a shape key, for the shape pass and the statement cache alike:
// its kind, width, alignment (tuples start at a multiple of 2 or 4; GFX90A wants even single
// VGPRs in places, ds_gws_*) and how it overlaps the registers before it in the line (the
// constant-bus limit counts distinct SGPRs). `earlier`: those registers, anything with kind,
// first and count.
template <typename Registers>
void appendRegisterShape(std::string& key, RegKind kind, int first, int count, const Registers& earlier)
{
    // Written into a buffer and appended at once: a push_back per character was a sixtieth of
    // a plain-text listing (issue #18). An overlap takes at most 12 characters.
    char part[64];
    std::size_t size = 0;
    const auto appendNumber = [&](int n) { size = std::size_t(std::to_chars(part + size, part + sizeof part, n).ptr - part); };
    part[size++] = '\x01';
    part[size++] = char('0' + int(kind));
    appendNumber(count);
    part[size++] = char('0' + (first & (count > 1 ? 3 : 1))); // first % 4 or % 2 (first >= 0), without a division
    for (std::size_t j = 0; j < earlier.size(); ++j) {
        const int otherFirst = int(earlier[j].first), otherCount = int(earlier[j].count);
        if (earlier[j].kind != kind || otherFirst + otherCount <= first || first + count <= otherFirst)
            continue;
        if (size > sizeof part - 16) {
            key.append(part, size);
            size = 0;
        }
        part[size++] = otherFirst == first && otherCount == count ? '=' : '~';
        appendNumber(int(j));
    }
    part[size++] = '\x02';
    key.append(part, size);
}

// A whole-operand integer's part of a shape key when it cannot be an inline constant: its class,
// bit length and low two bits, which decide every range and alignment check the assembler makes.
inline void appendValueClass(std::string& key, std::uint64_t value)
{
    const char part[] = {'\x03', char('0' + std::bit_width(value)), char('0' + (value & 3)), '\x04'};
    key.append(part, sizeof part);
}

// Below this many instruction lines the shape pass costs more than it saves.
constexpr std::size_t kShapePassMinimumLines = 48;

// The shape pass (issue #2's hint): an instruction's encoding depends on its shape, not on its
// register numbers, so each shape is assembled once, in a separate run of LLVM over one line
// per shape, and every line of that shape is encoded by the real encoder from that MCInst with
// its own registers put in. Lines it cannot vouch for (outside plain code, naming a symbol,
// a shape that drew any diagnostic or came out with a symbolic operand) stay with the assembler.
// Returns the text for the main run, with the planned lines replaced (see ShapePlan). `lines`:
// splitLines(text), when the caller has them.
std::string planShapes(TargetKit& kit, const GpuTarget& gpu, std::string_view text, const LineScan& scan,
                       const AssembleOptions& options, ShapePlan& plan, std::span<const std::string_view> lines = {});

} // namespace gcnlens::detail
