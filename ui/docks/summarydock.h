// SPDX-License-Identifier: MIT
// The summary panel: totals (timing-model.md section 5), penalties by rule (clickable: steps through
// the occurrences), the GPU selector, every section-9 model option and every hazards.md §4 check
// option (A-*), all live.
#pragma once

#include "ui/analysisbridge.h"

#include <QWidget>

#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QToolButton;
class QSpinBox;
class QTreeView;

namespace gcnlens::ui {

class PenaltyRuleModel;

class SummaryDock : public QWidget {
    Q_OBJECT
public:
    explicit SummaryDock(QWidget* parent = nullptr);

    void setSnapshot(const SnapshotPtr& snapshot);
    void setGpu(const QString& name); // updates the selector without emitting
    QString gpu() const;
    void setOptions(const TimingOptions& options);
    TimingOptions options() const { return m_options; }
    PenaltyRuleModel* ruleModel() const { return m_rules; }
    QComboBox* gpuSelector() const { return m_gpu; }
    QString totalsText() const;                        // the figures as shown (tests, clipboard)
    QString dpfactorText() const;                      // "DPFACTOR 2: tahiti: every product has DP 1/4 (…)"
    QMenu* presetMenu() const { return m_presetMenu; } // the analysed chip's product presets
    // The selector of a hazards.md §4 option ("A-nop"), nullptr for an unknown name.
    QComboBox* checkOption(const std::string& name) const;

    // Steps to the next occurrence of a rule (wrapping); returns its line or 0.
    int stepRule(int row);

Q_SIGNALS:
    void gpuChanged(const QString& name);
    void optionsChanged(const gcnlens::TimingOptions& options);
    void jumpToLine(int line);

private:
    void optionEdited(const std::string& name, const std::string& value);

    PenaltyRuleModel* m_rules;
    QTreeView* m_ruleView;
    QComboBox* m_gpu;
    QLabel* m_gpuError;
    QLabel* m_dpfactor;     // timing-model.md section 1: the DP factor and why
    QToolButton* m_presets; // the chip's product presets, one click away
    QMenu* m_presetMenu;
    std::string m_presetsOf; // the processor m_presetMenu lists
    QLabel* m_instructions;
    QLabel* m_bytes;
    QLabel* m_base;
    QLabel* m_penalty;
    QLabel* m_singleWave;
    QLabel* m_hidden;
    QLabel* m_unknown;
    QCheckBox* m_backwardTarget;
    QSpinBox* m_takenCycles;
    QComboBox* m_longRule;
    QComboBox* m_pairRule;
    QComboBox* m_valuSalu;
    QSpinBox* m_maxWaves;
    QCheckBox* m_trap;
    QSpinBox* m_polaris;
    QComboBox* m_ldsGroup;
    QComboBox* m_ldsPhases;                                         // lds-phases (docs/model.md L-phases)
    std::vector<std::pair<std::string, QComboBox*>> m_checkOptions; // A-* name → its two spellings
    TimingOptions m_options;
    std::map<QString, int> m_ruleStep; // rule → index of the occurrence shown last
    bool m_updating = false;
};

} // namespace gcnlens::ui
