// SPDX-License-Identifier: MIT
// The LDS panel: the heatmap for the DS instruction under the cursor (Analysis::lds) or for a typed
// lane-address pattern (core's analyzeLdsPattern), with degree, cycles and a hover readout.
#pragma once

#include "ui/analysisbridge.h"

#include <QWidget>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

class QComboBox;
class QLabel;
class QLineEdit;

namespace gcnlens::ui {

class LdsHeatmap;

class LdsDock : public QWidget {
    Q_OBJECT
public:
    enum Mode { CursorMode, PatternMode };
    explicit LdsDock(QWidget* parent = nullptr);

    void setSnapshot(const SnapshotPtr& snapshot);
    void setCursorLine(int line);
    void setMode(Mode mode);
    void setPattern(const QString& pattern, const QString& opOrWidth, const QString& parameters = {});
    void setGroupDwords(int dwords);

    // The typed pattern when the panel shows one (the report takes it along), else nothing.
    struct Pattern {
        QString text;
        QString op;
        std::map<std::string, std::int64_t> parameters;
    };
    std::optional<Pattern> typedPattern() const;

    LdsHeatmap* heatmap() const { return m_heatmap; }
    QString summary() const; // the degree/cycles line as shown
    int shownInstruction() const { return m_instruction; }

Q_SIGNALS:
    void resultChanged();

private:
    void refresh();

    QComboBox* m_mode;
    QLineEdit* m_pattern;
    QComboBox* m_op;
    QLineEdit* m_parameters;
    QLabel* m_title;
    QLabel* m_summary;
    QLabel* m_readout;
    LdsHeatmap* m_heatmap;
    SnapshotPtr m_snapshot;
    int m_line = 0;
    int m_instruction = -1;
    int m_groupDwords = 32;
};

} // namespace gcnlens::ui
