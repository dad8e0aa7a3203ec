// SPDX-License-Identifier: MIT
#include "ui/docks/summarydock.h"
#include "ui/docks/penaltyrulemodel.h"

#include "core/gpu.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSpinBox>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace gcnlens::ui {

static QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

SummaryDock::SummaryDock(QWidget* parent)
    : QWidget(parent)
    , m_rules(new PenaltyRuleModel(this))
{
    auto* layout = new QVBoxLayout(this);

    auto* gpuRow = new QFormLayout;
    m_gpu = new QComboBox;
    m_gpu->setEditable(true);
    m_gpu->setInsertPolicy(QComboBox::NoInsert);
    for (const GpuPreset& p : gpuPresets())
        m_gpu->addItem(qs(p.name), qs(p.processor));
    m_gpu->insertSeparator(m_gpu->count());
    for (const std::string& p : knownProcessors())
        m_gpu->addItem(qs(p), qs(p));
    m_gpu->setToolTip(tr("A product preset, an LLVM processor name or a ROCm target ID (gfx90a:xnack-)"));
    gpuRow->addRow(tr("GPU"), m_gpu);
    m_gpuError = new QLabel;
    m_gpuError->setWordWrap(true);
    m_gpuError->setVisible(false);
    gpuRow->addRow(m_gpuError);
    // The DP factor the timings use and why (a bare processor: its products' shared rate or its
    // most common part), with the chip's product presets next to it.
    auto* dpRow = new QHBoxLayout;
    m_dpfactor = new QLabel;
    m_dpfactor->setWordWrap(true);
    m_dpfactor->setTextFormat(Qt::PlainText);
    m_dpfactor->setTextInteractionFlags(Qt::TextSelectableByMouse);
    dpRow->addWidget(m_dpfactor, 1);
    m_presets = new QToolButton;
    m_presets->setText(tr("Presets"));
    m_presets->setToolTip(tr("The product presets built on this chip, each with its own DP rate"));
    m_presets->setPopupMode(QToolButton::InstantPopup);
    m_presetMenu = new QMenu(m_presets);
    m_presets->setMenu(m_presetMenu);
    m_presets->setVisible(false);
    dpRow->addWidget(m_presets, 0, Qt::AlignTop);
    gpuRow->addRow(tr("DP factor"), dpRow);
    connect(m_presetMenu, &QMenu::triggered, this, [this](QAction* action) {
        const QString name = action->data().toString();
        setGpu(name);
        Q_EMIT gpuChanged(name);
    });
    layout->addLayout(gpuRow);
    auto commitGpu = [this] {
        if (m_updating)
            return;
        const QString name = m_gpu->currentText().trimmed();
        std::string error;
        if (!resolveGpu(name.toStdString(), &error)) {
            m_gpuError->setText(QStringLiteral("<span style='color:#d03040'>%1</span>").arg(qs(error).toHtmlEscaped()));
            m_gpuError->setVisible(true);
            return;
        }
        m_gpuError->setVisible(false);
        Q_EMIT gpuChanged(name);
    };
    connect(m_gpu, &QComboBox::activated, this, commitGpu);
    connect(m_gpu->lineEdit(), &QLineEdit::editingFinished, this, commitGpu);

    auto* totals = new QGroupBox(tr("Totals"));
    auto* form = new QFormLayout(totals);
    auto value = [&](const QString& label, const QString& tip) {
        auto* l = new QLabel(QStringLiteral("–"));
        l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setToolTip(tip);
        form->addRow(label, l);
        return l;
    };
    m_instructions = value(tr("Instructions"), {});
    m_bytes = value(tr("Bytes"), {});
    m_base = value(tr("Base cycles"),
                   tr("Sum of C(I) over the code (timing-model.md section 1); an s_nop N counts "
                      "N+1 issue slots of 4 cycles, its wait states (T-nop, docs/model.md)"));
    m_penalty = value(tr("Penalty cycles"), tr("Alignment, branch and hazard penalties (sections 2–4)"));
    m_singleWave = value(tr("Single-wave cycles"), tr("Base + penalties: one wave per SIMD (section 5)"));
    m_hidden = value(tr("Latency-hidden cycles"), tr("Vector-issue cycles only, at 2 or more waves per SIMD (section 5)"));
    m_unknown = value(tr("Unknown timings"), tr("Instructions counted as 4 cycles because the table has \"?\" or no row"));
    layout->addWidget(totals);

    auto* rulesBox = new QGroupBox(tr("Penalties by rule"));
    auto* rulesLayout = new QVBoxLayout(rulesBox);
    m_ruleView = new QTreeView;
    m_ruleView->setModel(m_rules);
    m_ruleView->setRootIsDecorated(false);
    m_ruleView->setUniformRowHeights(true);
    m_ruleView->header()->setSectionResizeMode(PenaltyRuleModel::RuleColumn, QHeaderView::Stretch);
    m_ruleView->header()->setStretchLastSection(false);
    m_ruleView->setMinimumHeight(110);
    m_ruleView->setToolTip(tr("Click a rule to step through the lines it charges"));
    connect(m_ruleView, &QTreeView::clicked, this, [this](const QModelIndex& index) { stepRule(index.row()); });
    rulesLayout->addWidget(m_ruleView);
    layout->addWidget(rulesBox);

    // timing-model.md section 9: every option, with the spec's default.
    auto* optionsBox = new QGroupBox(tr("Model options"));
    auto* options = new QFormLayout(optionsBox);
    m_backwardTarget = new QCheckBox;
    options->addRow(tr("Backward branch-target penalty"), m_backwardTarget);
    connect(m_backwardTarget, &QCheckBox::toggled, this,
            [this](bool on) { optionEdited("backward-branch-target-penalty", on ? "on" : "off"); });
    m_takenCycles = new QSpinBox;
    m_takenCycles->setRange(4, 100);
    options->addRow(tr("Taken-branch cycles"), m_takenCycles);
    connect(m_takenCycles, &QSpinBox::valueChanged, this,
            [this](int v) { optionEdited("taken-branch-cycles", std::to_string(v)); });
    m_longRule = new QComboBox;
    m_longRule->addItem(tr("own cycles"), QStringLiteral("own-cycles"));
    m_longRule->addItem(tr("whole block"), QStringLiteral("whole-block"));
    options->addRow(tr("R-long rule"), m_longRule);
    m_pairRule = new QComboBox;
    m_pairRule->addItem(tr("adjacent"), QStringLiteral("adjacent"));
    m_pairRule->addItem(tr("same quad"), QStringLiteral("same-quad"));
    options->addRow(tr("R-pair rule"), m_pairRule);
    m_valuSalu = new QComboBox;
    m_valuSalu->addItem(tr("listed"), QStringLiteral("listed"));
    m_valuSalu->addItem(tr("any VALU writing an SGPR"), QStringLiteral("any"));
    options->addRow(tr("VALU→SALU writers"), m_valuSalu);
    for (auto [combo, name] : {std::pair {m_longRule, "long-rule"}, std::pair {m_pairRule, "pair-rule"},
                               std::pair {m_valuSalu, "valu-salu-writers"}}) {
        connect(combo, &QComboBox::currentIndexChanged, this,
                [this, combo, name](int) { optionEdited(name, combo->currentData().toString().toStdString()); });
    }
    m_maxWaves = new QSpinBox;
    m_maxWaves->setRange(0, 10);
    m_maxWaves->setSpecialValueText(tr("auto"));
    options->addRow(tr("Max waves override"), m_maxWaves);
    connect(m_maxWaves, &QSpinBox::valueChanged, this,
            [this](int v) { optionEdited("max-waves-override", v ? std::to_string(v) : "auto"); });
    m_trap = new QCheckBox;
    options->addRow(tr("Trap handler"), m_trap);
    connect(m_trap, &QCheckBox::toggled, this, [this](bool on) { optionEdited("trap-handler", on ? "on" : "off"); });
    m_polaris = new QSpinBox;
    m_polaris->setRange(1, 10);
    options->addRow(tr("Polaris max waves"), m_polaris);
    connect(m_polaris, &QSpinBox::valueChanged, this, [this](int v) { optionEdited("polaris-max-waves", std::to_string(v)); });
    m_ldsGroup = new QComboBox;
    for (int d : {32, 16, 64})
        m_ldsGroup->addItem(tr("%1 dwords").arg(d), d);
    options->addRow(tr("LDS group"), m_ldsGroup);
    connect(m_ldsGroup, &QComboBox::currentIndexChanged, this,
            [this](int) { optionEdited("lds-group", std::to_string(m_ldsGroup->currentData().toInt())); });
    m_ldsPhases = new QComboBox;
    m_ldsPhases->addItem(tr("by generation"), QStringLiteral("auto"));
    m_ldsPhases->addItem(tr("GCN (consecutive lanes)"), QStringLiteral("gcn"));
    m_ldsPhases->addItem(tr("CDNA (ds_read_b128 interleaved)"), QStringLiteral("cdna"));
    m_ldsPhases->setToolTip(tr("Which lanes the LDS serves together (docs/model.md L-phases)"));
    options->addRow(tr("LDS lane groups"), m_ldsPhases);
    connect(m_ldsPhases, &QComboBox::currentIndexChanged, this,
            [this](int) { optionEdited("lds-phases", m_ldsPhases->currentData().toString().toStdString()); });
    layout->addWidget(optionsBox);

    // hazards.md §4: each ambiguity of the checks, default first (docs/model.md §7).
    auto* checksBox = new QGroupBox(tr("Check options (hazards.md §4)"));
    auto* checks = new QFormLayout(checksBox);
    for (const CheckOptions::Choice& c : CheckOptions::choices()) {
        auto* combo = new QComboBox;
        combo->addItem(tr("%1 (default)").arg(qs(c.defaultValue)), qs(c.defaultValue));
        combo->addItem(qs(c.otherValue), qs(c.otherValue));
        combo->setToolTip(qs(c.what));
        checks->addRow(qs(c.name), combo);
        m_checkOptions.emplace_back(c.name, combo);
        connect(combo, &QComboBox::currentIndexChanged, this,
                [this, combo, name = c.name](int) { optionEdited(name, combo->currentData().toString().toStdString()); });
    }
    layout->addWidget(checksBox);
    layout->addStretch(1);
    setOptions(TimingOptions {});
}

void SummaryDock::optionEdited(const std::string& name, const std::string& value)
{
    if (m_updating)
        return;
    TimingOptions next = m_options;
    const std::string error = next.set(name, value);
    if (!error.empty()) {
        setToolTip(qs(error));
        return;
    }
    m_options = next;
    Q_EMIT optionsChanged(m_options);
}

void SummaryDock::setOptions(const TimingOptions& o)
{
    m_updating = true;
    m_options = o;
    m_backwardTarget->setChecked(o.backwardBranchTargetPenalty);
    m_takenCycles->setValue(o.takenBranchCycles);
    m_longRule->setCurrentIndex(o.longRule == TimingOptions::LongRule::WholeBlock ? 1 : 0);
    m_pairRule->setCurrentIndex(o.pairRule == TimingOptions::PairRule::SameQuad ? 1 : 0);
    m_valuSalu->setCurrentIndex(o.valuSaluWriters == TimingOptions::ValuSaluWriters::AnyValuWritingSgpr ? 1 : 0);
    m_maxWaves->setValue(o.maxWavesOverride.value_or(0));
    m_trap->setChecked(o.trapHandler);
    m_polaris->setValue(o.polarisMaxWaves);
    const int group = m_ldsGroup->findData(o.ldsGroupDwords);
    if (group < 0)
        m_ldsGroup->addItem(tr("%1 dwords").arg(o.ldsGroupDwords), o.ldsGroupDwords);
    m_ldsGroup->setCurrentIndex(m_ldsGroup->findData(o.ldsGroupDwords));
    m_ldsPhases->setCurrentIndex(std::max(0, m_ldsPhases->findData(QString::fromStdString(o.ldsPhases))));
    for (const auto& [name, value] : o.checks.values())
        if (QComboBox* combo = checkOption(name))
            combo->setCurrentIndex(std::max(0, combo->findData(qs(value))));
    m_updating = false;
}

QComboBox* SummaryDock::checkOption(const std::string& name) const
{
    for (const auto& [option, combo] : m_checkOptions)
        if (option == name)
            return combo;
    return nullptr;
}

void SummaryDock::setGpu(const QString& name)
{
    m_updating = true;
    const int index = m_gpu->findText(name, Qt::MatchFixedString);
    if (index >= 0)
        m_gpu->setCurrentIndex(index);
    else
        m_gpu->setEditText(name);
    m_gpuError->setVisible(false);
    m_updating = false;
}

QString SummaryDock::gpu() const
{
    return m_gpu->currentText().trimmed();
}

void SummaryDock::setSnapshot(const SnapshotPtr& snapshot)
{
    const Totals& t = snapshot->analysis.timing.totals;
    const QLocale locale;
    m_instructions->setText(locale.toString(t.instructions));
    m_bytes->setText(locale.toString(qulonglong(t.bytes)));
    m_base->setText(locale.toString(t.baseCycles));
    m_penalty->setText(locale.toString(t.penaltyCycles));
    m_singleWave->setText(locale.toString(t.singleWaveCycles));
    m_hidden->setText(locale.toString(t.hiddenCycles));
    m_unknown->setText(locale.toString(t.unknownTimings));
    QStringList untimed; // docs/model.md: which mnemonics have no timing
    for (const auto& [mnemonic, count] : t.unknownMnemonics)
        untimed << QStringLiteral("%1 (%2)").arg(qs(mnemonic)).arg(count);
    m_unknown->setToolTip(untimed.isEmpty()
                              ? tr("Every instruction has a timing: a GcnTimings.md row (T-table), MFMA passes (T-mfma), "
                                   "s_nop N as N+1 issue slots of 4 cycles (T-nop) or LLVM's scheduling model "
                                   "(T-llvm-sched)")
                              : tr("No timing, counted as 4 cycles: %1").arg(untimed.join(QStringLiteral(", "))));

    const GpuTarget& gpu = snapshot->analysis.program.gpu;
    m_dpfactor->setText(tr("%1 (%2)").arg(gpu.dpfactor).arg(qs(gpu.dpfactorSource)));
    if (m_presetsOf != gpu.processor) {
        m_presetsOf = gpu.processor;
        m_presetMenu->clear();
        for (const GpuPreset& p : presetsFor(gpu.processor)) {
            QAction* action = m_presetMenu->addAction(tr("%1 (DPFACTOR %2)").arg(qs(p.name)).arg(p.dpfactor));
            action->setData(qs(p.name));
        }
        m_presets->setVisible(!m_presetMenu->isEmpty());
    }

    m_rules->setRows(PenaltyRuleModel::rowsFor(t, &snapshot->lines));
}

int SummaryDock::stepRule(int row)
{
    const auto* r = m_rules->row(row);
    if (!r || r->lines.empty())
        return 0;
    int& step = m_ruleStep[r->rule];
    step = step % int(r->lines.size());
    const int line = r->lines[size_t(step)];
    ++step;
    Q_EMIT jumpToLine(line);
    return line;
}

QString SummaryDock::dpfactorText() const
{
    return tr("DPFACTOR %1").arg(m_dpfactor->text());
}

QString SummaryDock::totalsText() const
{
    return QStringLiteral("instructions %1, bytes %2, base %3, penalty %4, single-wave %5, hidden %6")
        .arg(m_instructions->text(), m_bytes->text(), m_base->text(), m_penalty->text(), m_singleWave->text(), m_hidden->text());
}

} // namespace gcnlens::ui
