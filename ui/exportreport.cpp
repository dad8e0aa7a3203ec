// SPDX-License-Identifier: MIT
#include "ui/exportreport.h"

#include "core/asm/isolated.h"
#include "ui/docks/ldsdock.h"
#include "ui/docks/occupancydock.h"
#include "ui/logging.h"
#include "ui/mainwindow.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPromise>
#include <QPushButton>
#include <QStatusBar>
#include <QtConcurrentRun>

namespace gcnlens::ui {

ExportReportDialog::ExportReportDialog(const QString& path, QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(path))
    , m_page(new QComboBox)
{
    setWindowTitle(tr("Export Report"));
    setObjectName(QStringLiteral("ExportReportDialog"));
    m_page->addItem(tr("A4 (210 × 297 mm)"), int(QPageSize::A4));
    m_page->addItem(tr("Letter (8.5 × 11 in)"), int(QPageSize::Letter));
    m_path->setMinimumWidth(m_path->fontMetrics().averageCharWidth() * 48);
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getSaveFileName(this, tr("Export Report"), m_path->text(), tr("PDF (*.pdf)"));
        if (!chosen.isEmpty())
            m_path->setText(chosen);
    });
    auto* file = new QHBoxLayout;
    file->addWidget(m_path, 1);
    file->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("Page size"), m_page);
    form->addRow(tr("Save as"), file);
    auto* note = new QLabel(tr("The report shows the current GPU, model options and branch directions, the occupancy "
                               "panel's values and the LDS panel's typed pattern."));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_path, &QLineEdit::textChanged, this,
            [this, buttons] { buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_path->text().trimmed().isEmpty()); });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

QString ExportReportDialog::path() const
{
    return m_path->text().trimmed();
}

QPageSize ExportReportDialog::pageSize() const
{
    return QPageSize(QPageSize::PageSizeId(m_page->currentData().toInt()));
}

ReportOptions ReportExport::optionsFrom(const MainWindow* window)
{
    ReportOptions options;
    options.sourceName = window->currentFile();
    options.occupancy = ReportOptions::OccupancyValues {window->occupancy()->kernel(), window->occupancy()->input()};
    if (const auto pattern = window->lds()->typedPattern()) {
        options.patternText = pattern->text;
        options.patternOp = pattern->op;
        options.patternParameters = pattern->parameters;
    }
    return options;
}

void ReportExport::ask(MainWindow* window)
{
    const QFileInfo source(window->currentFile());
    const QString suggested = window->currentFile().isEmpty()
        ? QDir::home().filePath(QStringLiteral("report.pdf"))
        : source.dir().filePath(source.completeBaseName() + QStringLiteral(".pdf"));
    auto* dialog = new ExportReportDialog(suggested, window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, window, [window, dialog] { start(window, dialog->path(), dialog->pageSize()); });
    dialog->open();
}

ReportExport::ReportExport(MainWindow* window, const QString& path)
    : QObject(window)
    , m_window(window)
    , m_path(path)
{
}

ReportExport* ReportExport::start(MainWindow* window, const QString& path, const QPageSize& pageSize)
{
    auto* self = new ReportExport(window, path);
    ReportOptions options = optionsFrom(window);
    options.pageSize = pageSize;
    // The analysis on screen when it is of the text on screen; else (a large text whose live
    // analysis is off, or one still running) the worker analyses the text with the same request.
    SnapshotPtr snapshot = window->bridge()->current();
    if (snapshot && (snapshot->textGeneration != window->bridge()->textGeneration() || window->analysisCapped()))
        snapshot.reset();
    if (!snapshot) // the occupancy panel's values belong to an analysis of another text
        options.occupancy.reset();
    const AnalysisRequest request = window->bridge()->request();
    const QString text = window->text();

    self->m_progress = new QProgressDialog(tr("Writing %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 100, window);
    self->m_progress->setWindowTitle(tr("Export Report"));
    self->m_progress->setMinimumDuration(300);
    self->m_progress->setAutoReset(false);
    self->m_progress->setAutoClose(false);
    connect(self->m_progress, &QProgressDialog::canceled, self, &ReportExport::cancel);
    connect(&self->m_watcher, &QFutureWatcherBase::progressValueChanged, self->m_progress, &QProgressDialog::setValue);
    connect(&self->m_watcher, &QFutureWatcherBase::finished, self, &ReportExport::done);
    qCDebug(lcReportExport) << "exporting to" << path << (snapshot ? "from the shown analysis" : "with a fresh analysis");

    self->m_watcher.setFuture(QtConcurrent::run([path, options, snapshot, request, text](QPromise<QString>& promise) mutable {
        promise.setProgressRange(0, 100);
        options.progress = [&promise](int percent) {
            promise.setProgressValue(percent);
            return !promise.isCanceled();
        };
        Analysis fresh;
        if (!snapshot) {
            const QByteArray utf8 = text.toUtf8();
            IsolatedFrontEnd assembler; // LLVM in a worker process: a crash there must not take the window (issue #12)
            fresh = analyzeProgram(
                assembler.assemble(std::string_view(utf8.constData(), std::size_t(utf8.size())), request.assemble), request);
        }
        QString error;
        const bool ok = !promise.isCanceled() && writeReport(path, snapshot ? snapshot->analysis : fresh, text, options, &error);
        promise.addResult(ok ? QString() : error.isEmpty() ? QStringLiteral("cancelled") : error);
    }));
    return self;
}

void ReportExport::cancel()
{
    m_watcher.cancel();
}

void ReportExport::done()
{
    const QString error = m_watcher.future().resultCount() > 0 ? m_watcher.future().result() : QStringLiteral("cancelled");
    m_progress->deleteLater();
    m_progress = nullptr;
    if (m_window) {
        if (error.isEmpty()) {
            m_window->statusBar()->showMessage(tr("Report written to %1").arg(QDir::toNativeSeparators(m_path)), 10000);
        } else if (error == QLatin1String("cancelled")) {
            m_window->statusBar()->showMessage(tr("Report export cancelled"), 5000);
        } else {
            // Window-modal but not blocking: the window keeps working behind it.
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Export Report"),
                                        tr("The report could not be written.\n\n%1").arg(error), QMessageBox::Ok, m_window);
            box->setObjectName(QStringLiteral("ExportReportError"));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    }
    Q_EMIT finished(error.isEmpty(), error);
    deleteLater();
}

} // namespace gcnlens::ui
