// SPDX-License-Identifier: MIT
// Points (x, waves per SIMD) for a chart series through QVXYModelMapper (style.md 8): the occupancy
// curve, the current point, the highlighted step region.
#pragma once

#include "core/model/occupancy.h"

#include <QAbstractTableModel>
#include <QPointF>

#include <vector>

namespace gcnlens::ui {

// What an occupancy chart shows along one resource axis (timing-model.md section 6): the steps of
// waves per SIMD as a polyline, the step holding the current value (region), the current point
// and the axis ranges. The dock feeds its three models from it; the PDF report paints the same.
struct OccupancyChart {
    std::vector<QPointF> curve, region, point;
    int current = 0; // the input's value on this axis
    int xMin = 0, xMax = 1, yMax = 1;

    // `currentWaves` places the point when the curve does not reach the current value.
    static OccupancyChart compute(const GpuTarget& gpu, const OccupancyInput& input, CurveAxis axis, const TimingOptions& options,
                                  int currentWaves);
};

class OccupancyCurveModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { XColumn, WavesColumn, COLUMN_COUNT };

    using QAbstractTableModel::QAbstractTableModel;
    // Swaps the whole value; does nothing when it is unchanged (slider drags rarely change the curve).
    void setPoints(std::vector<QPointF> points);
    const std::vector<QPointF>& points() const { return m_points; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<QPointF> m_points;
};

} // namespace gcnlens::ui
