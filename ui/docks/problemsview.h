// SPDX-License-Identifier: MIT
// The problems pane's view (issue #17): activating a row jumps to its line; a finding's context
// menu offers "Go to producer" and is the extension point for actions on a finding (fix-its):
// connect to findingMenuRequested and add actions to the menu; the key names the finding
// (ProblemsModel::FindingKeyRole) and stays valid for the analysis the rows came from.
#pragma once

#include "ui/findings.h"

#include <QTreeView>

class QMenu;

namespace gcnlens::ui {

class ProblemsModel;

class ProblemsView : public QTreeView {
    Q_OBJECT
public:
    explicit ProblemsView(QWidget* parent = nullptr);
    void setProblemsModel(ProblemsModel* model);
    ProblemsModel* problemsModel() const { return m_model; }

    // The finding of the current row (invalid key for a diagnostic or no row).
    FindingKey currentFinding() const;
    // The menu a finding's row shows (the tests open it without a mouse): "Go to producer", then
    // whatever findingMenuRequested's receivers add. nullptr for a row without a finding.
    QMenu* findingMenu(const QModelIndex& index, QWidget* parent);

Q_SIGNALS:
    // A row was activated (click, Enter): the line and column to show.
    void lineRequested(int line, int column);
    // Before a finding's context menu shows: add actions to `menu` (they act on `key`).
    void findingMenuRequested(const gcnlens::ui::FindingKey& key, QMenu* menu);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    ProblemsModel* m_model = nullptr;
};

} // namespace gcnlens::ui
