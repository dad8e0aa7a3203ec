// SPDX-License-Identifier: MIT
// The assembler's diagnostics as a table for the problems pane (click a row to jump to it).
#pragma once

#include "core/program.h"

#include <QAbstractTableModel>

#include <vector>

namespace gcnlens::ui {

class ProblemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, LineColumn, MessageColumn, COLUMN_COUNT };
    enum Roles { LineRole = Qt::UserRole, ColumnRole, SeverityRole };

    using QAbstractTableModel::QAbstractTableModel;
    void setDiagnostics(std::vector<Diagnostic> diagnostics);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace gcnlens::ui
