// SPDX-License-Identifier: MIT
// lanes × 32 banks heatmap of one LDS access (timing-model.md section 7): each cell a lane touches
// is coloured by how many distinct rows its bank serves within the lane's group; unknown lanes are
// drawn as unknown. Hovering reports lane, address, bank and row.
#pragma once

#include "core/model/lds.h"
#include "ui/geometry.h"

#include <QWidget>

namespace gcnlens::ui {

class LdsHeatmap : public QWidget {
    Q_OBJECT
public:
    explicit LdsHeatmap(QWidget* parent = nullptr);

    void setResult(LdsAccessResult result);
    const LdsAccessResult& result() const { return m_result; }
    // Distinct rows the bank serves in the group of that lane; 0 when the lane does not touch it.
    int cellRows(int lane, int bank) const;
    // The readout for a cell ("lane 5 · address 0x14 · bank 5 · row 0"), empty outside the grid.
    QString describe(int lane, int bank) const;
    HeatmapGeometry geometry() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void hovered(const QString& readout);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    int groupOf(int lane) const;
    QRectF legendRect() const;

    LdsAccessResult m_result;
};

} // namespace gcnlens::ui
