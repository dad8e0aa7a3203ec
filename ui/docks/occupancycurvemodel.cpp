// SPDX-License-Identifier: MIT
#include "ui/docks/occupancycurvemodel.h"
#include "ui/geometry.h"

#include <algorithm>

namespace gcnlens::ui {

OccupancyChart OccupancyChart::compute(const GpuTarget& gpu, const OccupancyInput& in, CurveAxis axis,
                                       const TimingOptions& options, int currentWaves)
{
    OccupancyChart chart;
    const std::vector<CurvePoint> curve = occupancyCurve(gpu, in, axis, options);
    std::vector<StepPoint> points;
    points.reserve(curve.size());
    for (const CurvePoint& p : curve)
        points.push_back({p.x, p.waves});
    const auto polyline = stepPolyline(compressSteps(points));
    chart.curve.assign(polyline.begin(), polyline.end());
    const int x = axis == CurveAxis::Vgpr ? in.vgprs
        : axis == CurveAxis::Sgpr         ? in.sgprs
        : axis == CurveAxis::Lds          ? in.ldsBytes
                                          : in.workgroupSize;
    chart.current = x;
    if (const auto region = regionAround(points, x)) {
        chart.region = {QPointF(region->first, region->waves), QPointF(region->last, region->waves)};
        chart.point = {QPointF(x, region->waves)};
    } else {
        chart.point = {QPointF(x, currentWaves)};
    }
    chart.xMax = points.empty() ? 1 : std::max(points.back().x, x);
    chart.xMin = points.empty() ? 0 : std::min(points.front().x, x);
    int maxWaves = gpu.maxWavesPerSimd;
    if (options.maxWavesOverride)
        maxWaves = std::max(maxWaves, *options.maxWavesOverride);
    chart.yMax = std::max(maxWaves, 10) + 1;
    return chart;
}

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
