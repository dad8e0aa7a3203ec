// SPDX-License-Identifier: MIT
// The occupancy panel (timing-model.md section 6): sliders with spin boxes for VGPRs, AGPRs (CDNA),
// SGPRs, LDS bytes and workgroup size, initialised from the kernel; the waves per SIMD / CU, the
// limiter and hints; and a chart of waves per SIMD against the selected resource, fed from models.
#pragma once

#include "ui/analysisbridge.h"

#include "core/model/occupancy.h"

#include <QWidget>

#include <array>
#include <string>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QTabBar;
class QPushButton;
class QChart;
class QChartView;
class QValueAxis;
class QLineSeries;
class QScatterSeries;
class QAreaSeries;

namespace gcnlens::ui {

class OccupancyCurveModel;

class OccupancyDock : public QWidget {
    Q_OBJECT
public:
    enum Resource { Vgpr, Agpr, Sgpr, Lds, Workgroup, RESOURCE_COUNT };

    explicit OccupancyDock(QWidget* parent = nullptr);

    void setSnapshot(const SnapshotPtr& snapshot);
    void setOptions(const TimingOptions& options);

    // Programmatic access (tests, benchmark): moves a slider as a drag would.
    void setValue(Resource resource, int value);
    int value(Resource resource) const;
    QSlider* slider(Resource resource) const { return m_rows[resource].slider; }
    void setChartAxis(CurveAxis axis);
    CurveAxis chartAxis() const { return m_axis; }
    void resetToKernel();

    const OccupancyResult& result() const { return m_result; }
    OccupancyInput input() const;
    int kernel() const;      // index of the kernel the sliders started from
    QString readout() const; // the waves/limiter line as shown
    // Issue #16: what the kernel's pressure peaks cost ("the peak at line 812 holds 84 VGPRs: 2
    // fewer would give 6 waves (W_v, peak cost)"), one line per register file, as shown.
    QString pressureText() const;
    OccupancyCurveModel* curveModel() const { return m_curve; }
    OccupancyCurveModel* pointModel() const { return m_point; }
    OccupancyCurveModel* regionModel() const { return m_region; }

Q_SIGNALS:
    void updated(); // readout and chart reflect the current inputs

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Row {
        QLabel* label = nullptr;
        QSlider* slider = nullptr;
        QSpinBox* spin = nullptr;
    };
    void recompute();
    void updateRanges();
    void applyChartColors();
    void loadKernelInputs(bool force);

    std::array<Row, RESOURCE_COUNT> m_rows;
    QComboBox* m_kernel;
    QPushButton* m_reset;
    QLabel* m_waves;
    QLabel* m_limiter;
    QLabel* m_hints;
    QLabel* m_pressure;
    void updatePressure();
    std::vector<PressurePeak> m_shownPeaks; // what m_pressure was worded from (skip re-wording)
    OccupancyInput m_shownPeakInput;
    GpuTarget m_shownPeakGpu;
    bool m_pressureWorded = false;
    QTabBar* m_axisTabs;
    QChart* m_chart;
    QChartView* m_chartView;
    QValueAxis* m_xAxis;
    QValueAxis* m_yAxis;
    QLineSeries* m_curveSeries;
    QLineSeries* m_regionUpper;
    QAreaSeries* m_regionSeries;
    QScatterSeries* m_pointSeries;
    OccupancyCurveModel* m_curve;
    OccupancyCurveModel* m_point;
    OccupancyCurveModel* m_region;

    SnapshotPtr m_snapshot;
    GpuTarget m_gpu;
    TimingOptions m_options;
    OccupancyInput m_kernelInput; // what the kernel declares/uses
    bool m_haveKernelInput = false;
    OccupancyResult m_result;
    CurveAxis m_axis = CurveAxis::Vgpr;
    bool m_updating = false;
    // What the readout and the chart were last computed from: recompute() leaves them alone when
    // nothing of it changed (most analyses, one per keystroke).
    bool m_haveShown = false;
    GpuTarget m_shownGpu;
    OccupancyInput m_shownInput;
    std::vector<std::pair<std::string, std::string>> m_shownOptions;
    CurveAxis m_shownAxis = CurveAxis::Vgpr;
};

} // namespace gcnlens::ui
