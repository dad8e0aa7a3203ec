// SPDX-License-Identifier: MIT
// Switches for the front-end's fast paths that have no AssembleOptions field of their own (issue
// #18). Each gives the same Program as the plain way; tst_shapes and check_shapes switch them off
// one at a time and compare every field. Process-wide, on by default; nothing else changes them.
#pragma once

namespace gcnlens {

struct FastPaths {
    // The macro/.rept expansion a statement came from, asked of LLVM once per expansion (each is
    // a buffer of its own) rather than once per statement (streamer_p.h, CollectingStreamer::located).
    bool expansionPerBuffer = true;
    // Where an expansion came from read from the statements the parser went through (the line
    // after the last one is the macro call that made it; a .rept directive makes the next buffer)
    // instead of asked of LLVM, whose answer searches every buffer (streamer.cpp,
    // CollectingStreamer::inferExpansions). Only with expansionPerBuffer; what it cannot read is
    // asked as before.
    bool inferredExpansions = true;
    // Which buffer holds a location by a sorted index instead of LLVM's walk over every buffer,
    // and a line number counted on from the last one asked in its buffer instead of searched
    // (streamer_p.h, IndexedSourceMgr).
    bool bufferIndex = true;
    // Shapes whose whole-operand integers that cannot be inline constants are classes (bit length,
    // low bits), the line's own values put into the MCInst (shapes.cpp, valueToken). Off: such
    // integers are part of the shape's text, as before.
    bool valueClasses = true;
    // A statement that comes again after macro/.rept expansion with the same text and the same
    // values for the symbols it names is not parsed again: LLVM's instruction is replayed
    // (statementcache.cpp). Off: LLVM parses every statement.
    bool statementCache = true;
    // A statement that differs from one LLVM parsed since the last directive that empties the
    // cache only in the numbers of its VGPR/SGPR/AGPR operands (plain, or the values of the
    // symbols in their brackets: v[v_c+2]) and in integer operands of the same value class
    // (offset:\base+256) is made from that one's instruction with its own registers and values
    // put in (statementcache.cpp, shapeKeyOf). Off: statements are keyed by their text alone.
    bool statementShapes = true;
    // A shape-encoded line's text written from its shape's printed text with the line's own
    // registers and values put in, once that has matched the printer's own text on another line
    // (printedshape_p.h). Off: LLVM's printer writes every line.
    bool printedShapes = true;
};

FastPaths& fastPaths();

} // namespace gcnlens
