// SPDX-License-Identifier: MIT
// File → Export Report… (issue #11 item 5): a dialog for the page size and the output file, and
// the export itself. What the window shows goes into the report: the analysis of the current text
// (GPU, model options, branch directions), the occupancy panel's slider values and the LDS panel's
// typed pattern. The PDF is written on a worker thread with a progress dialog and Cancel, so a
// large kernel never freezes the window; a failure is said in a message that does not block.
#pragma once

#include "ui/report/reportwriter.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QPointer>

#include <memory>

class QComboBox;
class QLineEdit;
class QProgressDialog;

namespace gcnlens::ui {

class MainWindow;

class ExportReportDialog : public QDialog {
    Q_OBJECT
public:
    ExportReportDialog(const QString& path, QWidget* parent = nullptr);

    QString path() const;
    QPageSize pageSize() const;
    QLineEdit* pathEdit() const { return m_path; }
    QComboBox* pageCombo() const { return m_page; }

private:
    QLineEdit* m_path;
    QComboBox* m_page;
};

class ReportExport : public QObject {
    Q_OBJECT
public:
    // Asks with the dialog, then exports (the window's menu and toolbar action).
    static void ask(MainWindow* window);
    // Exports what the window shows now to `path`; the object deletes itself after finished().
    static ReportExport* start(MainWindow* window, const QString& path, const QPageSize& pageSize);
    // The report options the window's panels give (for tests and the CLI comparison).
    static ReportOptions optionsFrom(const MainWindow* window);

    void cancel();
    QProgressDialog* progressDialog() const { return m_progress; }

Q_SIGNALS:
    // ok: the file is written; else `message` says why ("cancelled" when the user cancelled).
    void finished(bool ok, const QString& message);

private:
    ReportExport(MainWindow* window, const QString& path);
    void done();

    QPointer<MainWindow> m_window;
    QString m_path;
    QFutureWatcher<QString> m_watcher; // the worker's result: empty, or the error
    QProgressDialog* m_progress = nullptr;
};

} // namespace gcnlens::ui
