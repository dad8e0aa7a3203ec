// SPDX-License-Identifier: MIT
// The window's side of fix-its (issue #17 section 2, core/model/fixits.h): "Preview fix…" on a
// finding (the editor's context menu on its line, or a Problems row) opens a preview of the
// changed code as a diff with the cycle delta, measured in the background by the isolated
// front-end and every model pass on the edited text; "Apply" makes it one undoable edit.
#pragma once

#include "core/model/fixits.h"
#include "ui/analysisbridge.h"

#include <QDialog>
#include <QFutureWatcher>

#include <atomic>
#include <memory>
#include <optional>

class QAbstractItemView;
class QDialogButtonBox;
class QLabel;
class QMenu;
class QPlainTextEdit;

namespace gcnlens::ui {

// Applies the fix's edits to the editor's document as one edit block: one Ctrl+Z restores the
// text exactly. The edits are in the text's coordinates (1-based lines, UTF-8 byte columns).
void applyFixIt(QPlainTextEdit* editor, const FixIt& fix);

class FixItPreview : public QDialog {
    Q_OBJECT
public:
    // `snapshot` is the analysis the finding comes from; the fix is applied to `editor` only while
    // its text is still the snapshot's.
    FixItPreview(SnapshotPtr snapshot, FindingRef finding, QPlainTextEdit* editor, QWidget* parent = nullptr);
    ~FixItPreview() override; // a measure still running stops at its next front-end run

    bool ready() const { return m_ready; }
    const std::optional<FixIt>& fix() const { return m_fix; }
    QString diffText() const;
    QString summaryText() const;
    // Applies the fix and closes; false (and says why) when there is none or the text changed.
    bool apply();

Q_SIGNALS:
    void measured();

private:
    void showResult();

    SnapshotPtr m_snapshot;
    FindingRef m_finding;
    QPlainTextEdit* m_editor;
    QString m_text; // the snapshot's text, read on the UI thread (AnalysisSnapshot::text())
    QFutureWatcher<std::optional<FixIt>> m_watcher;
    std::shared_ptr<std::atomic_bool> m_cancelled = std::make_shared<std::atomic_bool>(false);
    std::optional<FixIt> m_fix;
    bool m_ready = false;
    QLabel* m_summary;
    QPlainTextEdit* m_diff;
    QDialogButtonBox* m_buttons;
};

// Adds "Preview Fix for RULE line N…" to `menu` for each fixable finding of `line` in `snapshot`
// (when it is still the editor's text); each opens a FixItPreview on `parent`.
void addFixItActions(QMenu* menu, const SnapshotPtr& snapshot, QPlainTextEdit* editor, int line, QWidget* parent);

// "Preview fix…" entries for the fixable findings of a line: in the editor's context menu (the
// line clicked), its gutter's (a CodeEditor's marker column) and the problems view's (the row's
// ProblemsModel::LineRole), from the bridge's current snapshot. Either widget may be null.
void installFixItMenus(QPlainTextEdit* editor, QAbstractItemView* problems, AnalysisBridge* bridge);

} // namespace gcnlens::ui
