// SPDX-License-Identifier: MIT
#include "ui/docks/occupancydock.h"
#include "ui/docks/occupancycurvemodel.h"
#include "ui/geometry.h"
#include "ui/logging.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSlider>
#include <QSpinBox>
#include <QTabBar>
#include <QVBoxLayout>
#include <QVXYModelMapper>
#include <QValueAxis>

#include <tuple>

namespace gcnlens::ui {

static bool hasAgprs(const GpuTarget& gpu)
{
    // timing-model.md section 6: the accumulation registers of gfx908, gfx90a, gfx942.
    return gpu.processor == "gfx908" || gpu.processor == "gfx90a" || gpu.processor == "gfx942";
}

static QVXYModelMapper* mapSeries(QXYSeries* series, OccupancyCurveModel* model, QObject* parent)
{
    auto* mapper = new QVXYModelMapper(parent);
    mapper->setXColumn(OccupancyCurveModel::XColumn);
    mapper->setYColumn(OccupancyCurveModel::WavesColumn);
    mapper->setSeries(series);
    mapper->setModel(model);
    return mapper;
}

OccupancyDock::OccupancyDock(QWidget* parent)
    : QWidget(parent)
    , m_curve(new OccupancyCurveModel(this))
    , m_point(new OccupancyCurveModel(this))
    , m_region(new OccupancyCurveModel(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    m_kernel = new QComboBox;
    m_kernel->setToolTip(tr("The kernel whose declared or used resources the sliders start from"));
    top->addWidget(new QLabel(tr("Kernel")));
    top->addWidget(m_kernel, 1);
    m_reset = new QPushButton(tr("Reset to kernel"));
    m_reset->setToolTip(tr("Set every slider back to the kernel's declared or detected usage"));
    top->addWidget(m_reset);
    layout->addLayout(top);

    auto* grid = new QGridLayout;
    const QString names[RESOURCE_COUNT] = {tr("VGPRs"), tr("AGPRs"), tr("SGPRs"), tr("LDS bytes"), tr("Workgroup size")};
    for (int r = 0; r < RESOURCE_COUNT; ++r) {
        Row& row = m_rows[r];
        row.label = new QLabel(names[r]);
        row.slider = new QSlider(Qt::Horizontal);
        row.spin = new QSpinBox;
        row.spin->setKeyboardTracking(false);
        grid->addWidget(row.label, r, 0);
        grid->addWidget(row.slider, r, 1);
        grid->addWidget(row.spin, r, 2);
        connect(row.slider, &QSlider::valueChanged, this, [this, r](int v) {
            if (m_updating)
                return;
            m_updating = true;
            m_rows[r].spin->setValue(v);
            m_updating = false;
            recompute();
        });
        connect(row.spin, &QSpinBox::valueChanged, this, [this, r](int v) {
            if (m_updating)
                return;
            m_updating = true;
            m_rows[r].slider->setValue(v);
            m_updating = false;
            recompute();
        });
    }
    m_rows[Lds].slider->setSingleStep(256);
    m_rows[Lds].slider->setPageStep(4096);
    m_rows[Lds].spin->setSingleStep(256);
    m_rows[Workgroup].slider->setSingleStep(64);
    m_rows[Workgroup].slider->setPageStep(64);
    layout->addLayout(grid);

    auto* results = new QGroupBox(tr("Occupancy"));
    auto* resultsLayout = new QVBoxLayout(results);
    m_waves = new QLabel;
    QFont big = m_waves->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_waves->setFont(big);
    m_waves->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_limiter = new QLabel;
    m_hints = new QLabel;
    m_hints->setWordWrap(true);
    m_hints->setTextInteractionFlags(Qt::TextSelectableByMouse);
    resultsLayout->addWidget(m_waves);
    resultsLayout->addWidget(m_limiter);
    resultsLayout->addWidget(m_hints);
    m_pressure = new QLabel;
    m_pressure->setWordWrap(true);
    m_pressure->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pressure->setToolTip(tr("The kernel's live-register peaks (docs/model.md section 4) and the occupancy each "
                              "would give as the allocation (timing-model.md section 6: W_v, W_s)"));
    resultsLayout->addWidget(m_pressure);
    layout->addWidget(results);

    m_axisTabs = new QTabBar;
    m_axisTabs->addTab(tr("VGPRs"));
    m_axisTabs->addTab(tr("SGPRs"));
    m_axisTabs->addTab(tr("LDS"));
    m_axisTabs->addTab(tr("Workgroup"));
    m_axisTabs->setExpanding(false);
    connect(m_axisTabs, &QTabBar::currentChanged, this, [this](int index) {
        m_axis = CurveAxis(index);
        recompute();
    });
    layout->addWidget(m_axisTabs);

    // The chart's three series are fed from models through QVXYModelMapper (style.md 8).
    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_chart->setBackgroundRoundness(0);
    m_curveSeries = new QLineSeries;
    m_regionUpper = new QLineSeries;
    m_regionSeries = new QAreaSeries(m_regionUpper);
    m_pointSeries = new QScatterSeries;
    m_pointSeries->setMarkerSize(11);
    m_chart->addSeries(m_regionSeries);
    m_chart->addSeries(m_curveSeries);
    m_chart->addSeries(m_pointSeries);
    m_xAxis = new QValueAxis;
    m_yAxis = new QValueAxis;
    m_yAxis->setTitleText(tr("waves/SIMD"));
    m_yAxis->setLabelFormat(QStringLiteral("%d"));
    m_xAxis->setLabelFormat(QStringLiteral("%d"));
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    for (QAbstractSeries* s : {static_cast<QAbstractSeries*>(m_regionSeries), static_cast<QAbstractSeries*>(m_curveSeries),
                               static_cast<QAbstractSeries*>(m_pointSeries)}) {
        s->attachAxis(m_xAxis);
        s->attachAxis(m_yAxis);
    }
    mapSeries(m_curveSeries, m_curve, this);
    mapSeries(m_regionUpper, m_region, this);
    mapSeries(m_pointSeries, m_point, this);
    m_chartView = new QChartView(m_chart);
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumHeight(160); // with the LDS dock below, both fit a 1000-px window without scrolling
    layout->addWidget(m_chartView, 1);
    applyChartColors();

    connect(m_reset, &QPushButton::clicked, this, &OccupancyDock::resetToKernel);
    connect(m_kernel, &QComboBox::currentIndexChanged, this, [this](int) {
        if (!m_updating)
            loadKernelInputs(true);
    });
    updateRanges();
}

void OccupancyDock::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyChartColors();
}

void OccupancyDock::applyChartColors()
{
    // Charts recolour with the palette (style.md 8): background, text, grid and series.
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    const QColor base = pal.color(QPalette::Base);
    const QColor accent = pal.color(QPalette::Highlight);
    m_chart->setBackgroundBrush(base);
    m_chart->setPlotAreaBackgroundVisible(false);
    for (QValueAxis* axis : {m_xAxis, m_yAxis}) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(pal.color(QPalette::Mid));
        QColor grid = text;
        grid.setAlpha(40);
        axis->setGridLineColor(grid);
    }
    m_curveSeries->setPen(QPen(accent, 2));
    QColor region = accent;
    region.setAlpha(60);
    m_regionSeries->setBrush(region);
    m_regionSeries->setPen(Qt::NoPen);
    m_pointSeries->setColor(QColor(0xe0, 0x30, 0x40));
    m_pointSeries->setBorderColor(base);
}

void OccupancyDock::setOptions(const TimingOptions& options)
{
    m_options = options;
    recompute();
}

void OccupancyDock::setSnapshot(const SnapshotPtr& snapshot)
{
    m_snapshot = snapshot;
    const bool gpuChanged =
        m_gpu.processor != snapshot->analysis.program.gpu.processor || m_gpu.name != snapshot->analysis.program.gpu.name;
    m_gpu = snapshot->analysis.program.gpu;
    m_options = snapshot->request.timing;

    // The combo box is refilled only when the kernel names change: most analyses (a keystroke)
    // keep them, and a refill re-lays out the dock.
    QStringList names;
    for (const Kernel& k : snapshot->analysis.program.kernels)
        names << QString::fromStdString(k.name);
    if (names.isEmpty())
        names << tr("(whole file)");
    bool sameNames = m_kernel->count() == names.size();
    for (int i = 0; sameNames && i < names.size(); ++i)
        sameNames = m_kernel->itemText(i) == names[i];
    if (!sameNames) {
        m_updating = true;
        const int previousKernel = m_kernel->currentIndex();
        m_kernel->clear();
        m_kernel->addItems(names);
        m_kernel->setCurrentIndex(std::clamp(previousKernel, 0, m_kernel->count() - 1));
        m_updating = false;
    }

    updateRanges();
    loadKernelInputs(gpuChanged);
}

void OccupancyDock::loadKernelInputs(bool force)
{
    const int k = std::max(0, m_kernel->currentIndex());
    OccupancyInput in;
    if (m_snapshot && k < int(m_snapshot->analysis.occupancyInputs.size()))
        in = m_snapshot->analysis.occupancyInputs[size_t(k)];
    // Sliders follow the kernel only when its own figures change (or on request), so what the
    // user dragged survives typing elsewhere in the file.
    const bool changed = !m_haveKernelInput || in.vgprs != m_kernelInput.vgprs || in.agprs != m_kernelInput.agprs
        || in.sgprs != m_kernelInput.sgprs || in.ldsBytes != m_kernelInput.ldsBytes
        || in.workgroupSize != m_kernelInput.workgroupSize;
    m_kernelInput = in;
    m_haveKernelInput = true;
    updatePressure();
    if (changed || force)
        resetToKernel();
    else
        recompute();
}

void OccupancyDock::resetToKernel()
{
    m_updating = true;
    const int values[RESOURCE_COUNT] = {m_kernelInput.vgprs, m_kernelInput.agprs, m_kernelInput.sgprs, m_kernelInput.ldsBytes,
                                        m_kernelInput.workgroupSize};
    for (int r = 0; r < RESOURCE_COUNT; ++r) {
        m_rows[r].slider->setValue(values[r]);
        m_rows[r].spin->setValue(values[r]);
    }
    m_updating = false;
    recompute();
}

void OccupancyDock::updateRanges()
{
    // Ranges per timing-model.md section 6's table.
    const bool cdna2 = m_gpu.processor == "gfx90a" || m_gpu.processor == "gfx942";
    const bool gfx67 = m_gpu.generation == Generation::GFX6 || m_gpu.generation == Generation::GFX7;
    const int maxima[RESOURCE_COUNT] = {cdna2 ? 512 : 256, 256, gfx67 ? 104 : 102,
                                        m_gpu.generation == Generation::GFX6 ? 32768 : 65536, 1024};
    const int minima[RESOURCE_COUNT] = {0, 0, 0, 0, 1};
    m_updating = true;
    for (int r = 0; r < RESOURCE_COUNT; ++r) {
        m_rows[r].slider->setRange(minima[r], maxima[r]);
        m_rows[r].spin->setRange(minima[r], maxima[r]);
    }
    m_updating = false;
    const bool agpr = hasAgprs(m_gpu);
    m_rows[Agpr].label->setVisible(agpr);
    m_rows[Agpr].slider->setVisible(agpr);
    m_rows[Agpr].spin->setVisible(agpr);
}

OccupancyInput OccupancyDock::input() const
{
    OccupancyInput in = m_kernelInput; // keeps usesVcc / flat scratch / xnack / scratch flags
    in.vgprs = m_rows[Vgpr].spin->value();
    in.agprs = hasAgprs(m_gpu) ? m_rows[Agpr].spin->value() : 0;
    in.sgprs = m_rows[Sgpr].spin->value();
    in.ldsBytes = m_rows[Lds].spin->value();
    in.workgroupSize = m_rows[Workgroup].spin->value();
    in.trapHandler = m_options.trapHandler;
    return in;
}

int OccupancyDock::kernel() const
{
    return std::max(0, m_kernel->currentIndex());
}

void OccupancyDock::setValue(Resource resource, int value)
{
    m_rows[resource].slider->setValue(value);
}

int OccupancyDock::value(Resource resource) const
{
    return m_rows[resource].spin->value();
}

void OccupancyDock::setChartAxis(CurveAxis axis)
{
    m_axisTabs->setCurrentIndex(int(axis));
}

QString OccupancyDock::readout() const
{
    return m_waves->text() + QLatin1Char('\n') + m_limiter->text();
}

// Every field, for comparing what recompute() last showed with what it would show now.
static auto tieGpu(const GpuTarget& g)
{
    return std::tie(g.name, g.product, g.processor, g.features, g.targetId, g.generation, g.dpfactor, g.computeUnits,
                    g.maxWavesPerSimd, g.fixedSgprs);
}

static auto tieInput(const OccupancyInput& i)
{
    return std::tie(i.vgprs, i.agprs, i.sgprs, i.usesVcc, i.usesFlatScratch, i.usesXnack, i.ldsBytes, i.workgroupSize, i.scratch,
                    i.trapHandler);
}

void OccupancyDock::recompute()
{
    if (m_updating)
        return;
    const OccupancyInput in = input();
    // What the readout and the chart show depends on these alone: when they are what is shown
    // already (an analysis that changed nothing here), the panel stays as it is.
    std::vector<std::pair<std::string, std::string>> options = m_options.values();
    if (m_haveShown && tieGpu(m_shownGpu) == tieGpu(m_gpu) && tieInput(m_shownInput) == tieInput(in) && m_shownOptions == options
        && m_shownAxis == m_axis) {
        Q_EMIT updated();
        return;
    }
    m_haveShown = true;
    m_shownGpu = m_gpu;
    m_shownInput = in;
    m_shownOptions = std::move(options);
    m_shownAxis = m_axis;
    m_result = computeOccupancy(m_gpu, in, m_options);
    if (!m_result.error.empty()) {
        m_waves->setText(tr("—"));
        m_limiter->setText(QString::fromStdString(m_result.error));
        m_hints->clear();
    } else {
        m_waves->setText(tr("%1 waves/SIMD · %2 waves/CU").arg(m_result.wavesPerSimd).arg(m_result.wavesPerCu));
        QStringList limiters;
        for (const auto& l : m_result.limiters)
            limiters << QString::fromStdString(l);
        QStringList limits;
        for (const auto& [resource, waves] : m_result.limits)
            limits << QStringLiteral("%1 %2").arg(QString::fromStdString(resource)).arg(waves);
        m_limiter->setText(
            tr("limited by %1  (%2)").arg(limiters.join(QStringLiteral(", ")), limits.join(QStringLiteral(" · "))));
        QStringList hints;
        for (const OccupancyHint& h : m_result.hints)
            hints << QStringLiteral("• ") + QString::fromStdString(h.text);
        m_hints->setText(hints.join(QLatin1Char('\n')));
    }

    // The chart: the curve over the selected resource, its current step shaded, the point marked.
    const OccupancyChart chart = OccupancyChart::compute(m_gpu, in, m_axis, m_options, m_result.wavesPerSimd);
    m_curve->setPoints(chart.curve);
    m_region->setPoints(chart.region);
    m_point->setPoints(chart.point);
    if (m_xAxis->min() != chart.xMin || m_xAxis->max() != chart.xMax)
        m_xAxis->setRange(chart.xMin, chart.xMax);
    if (m_yAxis->max() != chart.yMax) {
        m_yAxis->setRange(0, chart.yMax);
        m_yAxis->setTickType(QValueAxis::TicksDynamic);
        m_yAxis->setTickAnchor(0);
        m_yAxis->setTickInterval(2);
    }
    static const QString titles[] = {tr("VGPRs per work-item"), tr("SGPRs per wave"), tr("LDS bytes per workgroup"),
                                     tr("work-items per workgroup")};
    m_xAxis->setTitleText(titles[int(m_axis)]);
    m_xAxis->setTitleBrush(palette().color(QPalette::Text));
    qCDebug(lcOccupancy) << "waves" << m_result.wavesPerSimd << "curve points" << m_curve->rowCount();
    Q_EMIT updated();
}

void OccupancyDock::updatePressure()
{
    // pressureCosts runs the occupancy model once per register removed: word it again only when
    // the peaks or the kernel's input changed, not on every keystroke.
    const int k = std::max(0, m_kernel->currentIndex());
    std::vector<PressurePeak> peaks;
    if (m_snapshot && k < int(m_snapshot->analysis.liveness.kernels.size())) {
        const KernelPressure& p = m_snapshot->analysis.liveness.kernels[size_t(k)];
        peaks = {p.vgpr, p.sgpr, p.agpr};
    }
    if (m_pressureWorded && peaks == m_shownPeaks && tieInput(m_shownPeakInput) == tieInput(m_kernelInput)
        && tieGpu(m_shownPeakGpu) == tieGpu(m_gpu))
        return;
    m_pressureWorded = true;
    m_shownPeaks = peaks;
    m_shownPeakInput = m_kernelInput;
    m_shownPeakGpu = m_gpu;
    // Only where fewer registers would give more waves: the dock has little room (the report says all).
    const QStringList sentences = m_snapshot ? pressureSentences(m_snapshot->analysis, k, true) : QStringList();
    m_pressure->setText(sentences.isEmpty() ? QString() : QStringLiteral("• ") + sentences.join(QStringLiteral("\n• ")));
    m_pressure->setVisible(!sentences.isEmpty());
}

QString OccupancyDock::pressureText() const
{
    return m_pressure->text();
}

} // namespace gcnlens::ui
