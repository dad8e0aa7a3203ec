// SPDX-License-Identifier: MIT
// Small value types for the window's geometry maths, kept out of paint() so tests can pin them:
// fetch-block bands (timing-model.md section 1), gutter columns, heatmap cells, occupancy steps.
#pragma once

#include <QPointF>
#include <QRectF>

#include <cstdint>
#include <optional>
#include <vector>

namespace gcnlens::ui {

// What the editor paints of a fetch position, per source line (LineAnnotation): two bytes, not the
// 16 of a FetchPosition, because a large kernel has a million lines (issue #18).
struct FetchSlot {
    std::uint8_t slot = 0; // 0..7
    bool oddBand = false;  // alternating background bands
    bool operator==(const FetchSlot&) const = default;
};

// Where an instruction sits in the 32-byte fetch blocks (timing-model.md section 1: slot
// p(I) = (offset >> 2) & 7; blocks are kernel-relative because the entry is 256-byte aligned).
struct FetchPosition {
    std::uint64_t block = 0; // offset & ~31
    int slot = 0;            // 0..7
    bool oddBand = false;    // alternating background bands
    bool straddles = false;  // the encoding crosses into the next block (GFX9+ fetch-straddle, p == 7 for 8 bytes)

    std::uint64_t band() const { return block >> 5; } // the block's index
    FetchSlot inBlock() const { return {std::uint8_t(slot), oddBand}; }
    // The timing model's fetchPlace() (core/model/timing.h) with the view's band parity: every
    // presenter shows the place the model charged by.
    static FetchPosition at(std::uint64_t offset, int size);
    bool operator==(const FetchPosition&) const = default;
};

// The gutter's columns, left to right, laid out from a character width.
class GutterLayout {
public:
    enum Column { LineNumber, Offset, Slot, Size, Cycles, Pressure, Marker, Check, COLUMN_COUNT };
    GutterLayout() = default;
    // cyclesChars: the editor shows a number ("9999"); the report a range or a direction ("16-24", "20 T").
    // pressureChars: the live-register column ("84v 30s", issue #16), checkChars: the hazard and
    // s_waitcnt mark (issue #17); 0 leaves the column out (no width, no gap).
    GutterLayout(double charWidth, int lineDigits, int offsetDigits, int cyclesChars = 4, int pressureChars = 0,
                 int checkChars = 0);

    double width() const { return m_x[COLUMN_COUNT]; }
    double left(Column column) const { return m_x[column]; }
    double columnWidth(Column column) const
    {
        return m_x[column + 1] > m_x[column] ? m_x[column + 1] - m_x[column] - m_gap : 0.0;
    }
    // The column under an x coordinate (the gaps belong to the column on their left).
    std::optional<Column> columnAt(double x) const;
    // Digits a column needs for a value (at least `minimum`).
    static int digitsFor(std::uint64_t value, int base, int minimum);

private:
    double m_x[COLUMN_COUNT + 1] = {};
    double m_gap = 0;
};

// The pressure strip beside the editor's scroll bar (issue #16): the whole text mapped onto the
// strip's height the way the scroll bar maps it (line 1 at the top, the last line at the bottom),
// and a count onto its width (0 at the left, `maxCount` at the right).
class StripGeometry {
public:
    StripGeometry(int lineCount, QRectF area, int maxCount);
    int rows() const { return m_rows; } // whole pixel rows
    int rowOfLine(int line) const;      // 1-based line → row
    int lineAtY(double y) const;        // → 1-based line at that y (clamped to the text)
    double yOfLine(int line) const;     // centre of the line's row
    double xOfCount(int count) const;   // left edge + the count's share of the width
    bool operator==(const StripGeometry&) const = default;

private:
    int m_lines = 1, m_rows = 1, m_max = 1;
    QRectF m_area;
};

// lanes × 32 banks cells, with a header band on top (bank numbers) and left (lane numbers).
class HeatmapGeometry {
public:
    struct Cell {
        int lane = 0;
        int bank = 0;
        bool operator==(const Cell&) const = default;
    };
    HeatmapGeometry(QRectF area, int lanes, int banks, double headerWidth, double headerHeight);

    QRectF cellRect(int lane, int bank) const;
    std::optional<Cell> cellAt(QPointF point) const;
    double cellWidth() const { return m_cellW; }
    double cellHeight() const { return m_cellH; }
    QRectF grid() const { return m_grid; }

private:
    QRectF m_grid;
    int m_lanes, m_banks;
    double m_cellW, m_cellH;
};

// An occupancy curve reduced to its steps: one point wherever the wave count changes, plus the ends.
struct StepPoint {
    int x = 0;
    int waves = 0;
    bool operator==(const StepPoint&) const = default;
};
std::vector<StepPoint> compressSteps(const std::vector<StepPoint>& points);
// The polyline of a step function (a vertical edge at each change), for a line series.
std::vector<QPointF> stepPolyline(const std::vector<StepPoint>& steps);
// The x range [first, last] of the step containing x (same waves as at x), on the uncompressed curve.
struct StepRegion {
    int first = 0;
    int last = 0;
    int waves = 0;
    bool operator==(const StepRegion&) const = default;
};
std::optional<StepRegion> regionAround(const std::vector<StepPoint>& points, int x);

} // namespace gcnlens::ui
