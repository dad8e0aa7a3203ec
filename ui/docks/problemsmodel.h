// SPDX-License-Identifier: MIT
// The problems pane's table: the assembler's diagnostics, then the hazard and s_waitcnt findings
// (issue #17), each row with its severity, line, rule and message (click a row to jump to it).
// A finding's row carries its FindingKey (FindingKeyRole): the identity fix-its act on.
#pragma once

#include "core/program.h"
#include "ui/findings.h"

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace gcnlens::ui {

class ProblemsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { SeverityColumn, LineColumn, RuleColumn, MessageColumn, COLUMN_COUNT };
    enum Roles { LineRole = Qt::UserRole, ColumnRole, SeverityRole, FindingKeyRole, ProducerLineRole };

    using QAbstractTableModel::QAbstractTableModel;
    void setDiagnostics(std::vector<Diagnostic> diagnostics);
    // Both at once (one model reset per analysis). The findings are the snapshot's list, shared
    // rather than copied (LineAnnotations::sharedFindings).
    void setProblems(std::vector<Diagnostic> diagnostics, std::shared_ptr<const std::vector<FindingView>> findings);

    // The finding of a row (nullptr for a diagnostic's row).
    const FindingView* finding(int row) const;
    // The row of a finding, -1 when it is not listed.
    int rowOf(const FindingKey& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Diagnostic> m_diagnostics;
    std::shared_ptr<const std::vector<FindingView>> m_findings = std::make_shared<const std::vector<FindingView>>();
};

} // namespace gcnlens::ui
