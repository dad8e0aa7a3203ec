// SPDX-License-Identifier: MIT
#include "ui/docks/occupancycurvemodel.h"

namespace gcnlens::ui {

void OccupancyCurveModel::setPoints(std::vector<QPointF> points)
{
    if (points == m_points)
        return;
    beginResetModel();
    m_points = std::move(points);
    endResetModel();
}

int OccupancyCurveModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_points.size());
}

int OccupancyCurveModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT;
}

QVariant OccupancyCurveModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const QPointF& p = m_points[size_t(index.row())];
    return index.column() == XColumn ? p.x() : p.y();
}

QVariant OccupancyCurveModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == XColumn ? tr("Value") : tr("Waves/SIMD");
}

} // namespace gcnlens::ui
