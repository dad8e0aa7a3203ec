// SPDX-License-Identifier: MIT
// Penalties by rule id (timing-model.md section 8) for the summary: occurrences and cycles, with
// the lines charged so the view can step through them.
#pragma once

#include "ui/editor/annotations.h"

#include <QAbstractTableModel>

#include <map>
#include <vector>

namespace gcnlens::ui {

class PenaltyRuleModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { RuleColumn, CountColumn, CyclesColumn, COLUMN_COUNT };
    enum Roles { RuleRole = Qt::UserRole, LinesRole };

    struct Row {
        QString rule;
        int count = 0;
        long long cycles = 0;
        QString meaning;
        std::vector<int> lines;
    };

    using QAbstractTableModel::QAbstractTableModel;
    // One row per rule id the totals charge, in id order, with its legend meaning and (when
    // given) the lines charged with it. The summary dock and the PDF report both list these.
    static std::vector<Row> rowsFor(const Totals& totals, const LineAnnotations* lines = nullptr);
    void setRows(std::vector<Row> rows);
    const Row* row(int index) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
};

} // namespace gcnlens::ui
