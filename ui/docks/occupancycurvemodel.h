// SPDX-License-Identifier: MIT
// Points (x, waves per SIMD) for a chart series through QVXYModelMapper (style.md 8): the occupancy
// curve, the current point, the highlighted step region.
#pragma once

#include <QAbstractTableModel>
#include <QPointF>

#include <vector>

namespace gcnlens::ui {

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
