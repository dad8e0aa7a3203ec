// SPDX-License-Identifier: MIT
#include "ui/mainwindow.h"
#include "ui/codeeditor.h"
#include "ui/ldsdock.h"
#include "ui/logging.h"
#include "ui/occupancydock.h"
#include "ui/problemsmodel.h"
#include "ui/recovery.h"
#include "ui/summarydock.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QSaveFile>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTextBlock>
#include <QTimer>
#include <QTreeView>

namespace gcnlens::ui {

static constexpr int MaxRecentFiles = 10;

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_editor(new CodeEditor(this))
    , m_bridge(new AnalysisBridge(this))
    , m_autosave(new QTimer(this))
    , m_recovery(std::make_unique<RecoveryStore>())
{
    setObjectName(QStringLiteral("MainWindow"));
    setCentralWidget(m_editor);
    setAcceptDrops(true);
    m_editor->setAcceptDrops(false); // files dropped on the editor open rather than paste a path
    createDocks();
    createActions();
    m_status = new QLabel;
    statusBar()->addWidget(m_status, 1);

    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading)
            return;
        m_bridge->setSource(m_editor->toPlainText());
        m_autosave->start();
    });
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, [this] { updateTitle(); });
    connect(m_bridge, &AnalysisBridge::analysisStarted, this, [this] { m_status->setText(tr("Analysing…")); });
    connect(m_bridge, &AnalysisBridge::analysisReady, this, &MainWindow::applySnapshot);
    connect(m_editor, &CodeEditor::branchToggleRequested, m_bridge, &AnalysisBridge::setBranchDirection);
    connect(m_editor, &CodeEditor::currentLineChanged, m_lds, &LdsDock::setCursorLine);

    // Autosave to the recovery file shortly after typing stops (no typed work is lost on a crash).
    m_autosave->setSingleShot(true);
    m_autosave->setInterval(2000);
    connect(m_autosave, &QTimer::timeout, this, &MainWindow::autosaveNow);

    readSettings();
    m_bridge->setGpu(m_summary->gpu());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area, bool scroll) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name); // saveState() keys on it
        if (scroll) {
            auto* area = new QScrollArea;
            area->setWidget(widget);
            area->setWidgetResizable(true);
            area->setFrameShape(QFrame::NoFrame);
            area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
            area->setMinimumWidth(widget->minimumSizeHint().width() + 20);
            d->setWidget(area);
        } else {
            d->setWidget(widget);
        }
        addDockWidget(area, d);
        return d;
    };
    m_summary = new SummaryDock;
    m_occupancy = new OccupancyDock;
    m_lds = new LdsDock;
    auto* summaryDock = dock(tr("Summary"), QStringLiteral("SummaryDock"), m_summary, Qt::LeftDockWidgetArea, true);
    auto* occupancyDock = dock(tr("Occupancy"), QStringLiteral("OccupancyDock"), m_occupancy, Qt::RightDockWidgetArea, false);
    auto* ldsDock = dock(tr("LDS banks"), QStringLiteral("LdsDock"), m_lds, Qt::RightDockWidgetArea, false);
    // Occupancy above LDS on the right; the problems pane only under the editor.
    splitDockWidget(occupancyDock, ldsDock, Qt::Vertical);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({occupancyDock, ldsDock}, {600, 380}, Qt::Vertical);
    resizeDocks({summaryDock, occupancyDock}, {summaryDock->widget()->sizeHint().width() + 24, 430}, Qt::Horizontal);

    m_problems = new ProblemsModel(this);
    m_problemsView = new QTreeView;
    m_problemsView->setModel(m_problems);
    m_problemsView->setRootIsDecorated(false);
    m_problemsView->setUniformRowHeights(true);
    m_problemsView->header()->setStretchLastSection(true);
    connect(m_problemsView, &QTreeView::activated, this, [this](const QModelIndex& index) {
        m_editor->jumpToLine(index.data(ProblemsModel::LineRole).toInt(), index.data(ProblemsModel::ColumnRole).toInt());
    });
    connect(m_problemsView, &QTreeView::clicked, m_problemsView, &QTreeView::activated);
    auto* problems = dock(tr("Problems"), QStringLiteral("ProblemsDock"), m_problemsView, Qt::BottomDockWidgetArea, false);
    problems->setMinimumHeight(80);
    resizeDocks({problems}, {110}, Qt::Vertical);

    connect(m_summary, &SummaryDock::gpuChanged, this, &MainWindow::setGpu);
    connect(m_summary, &SummaryDock::optionsChanged, this, [this](const TimingOptions& options) {
        m_bridge->setTimingOptions(options);
        m_occupancy->setOptions(options);
        m_lds->setGroupDwords(options.ldsGroupDwords);
    });
    connect(m_summary, &SummaryDock::jumpToLine, this, [this](int line) { m_editor->jumpToLine(line); });
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (!maybeSave())
            return;
        m_editor->clear();
        setCurrentFile({});
    });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        if (!maybeSave())
            return;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel"), QFileInfo(m_file).absolutePath(),
                                                          tr("Assembly (*.s *.S *.asm *.gcn *.isa);;All files (*)"));
        if (!path.isEmpty())
            openFile(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("&Save"), QKeySequence::Save, this, [this] { save(); });
    file->addAction(tr("Save &As…"), QKeySequence::SaveAs, this, [this] { saveAs(); });
    file->addSeparator();
    file->addAction(tr("Assembler &Options…"), this, &MainWindow::editAssemblerOptions);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* freed = m_viewMenu->addAction(tr("Show Instructions Saved by Freeing Rules"));
    freed->setCheckable(true);
    freed->setToolTip(tr("Outline 2-dword instructions that R-first16, R-long or R-pair kept from paying a fetch penalty"));
    connect(freed, &QAction::toggled, m_editor, &CodeEditor::setShowFreed);
    m_viewMenu->addAction(tr("Reset Branch Directions"), m_bridge, &AnalysisBridge::clearBranchOverrides);
    m_viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        m_viewMenu->addAction(d->toggleViewAction());
    updateRecentMenu();
}

void MainWindow::applySnapshot(const SnapshotPtr& snapshot)
{
    m_editor->setSnapshot(snapshot);
    m_summary->setSnapshot(snapshot);
    m_occupancy->setSnapshot(snapshot);
    m_lds->setSnapshot(snapshot);
    m_lds->setCursorLine(m_editor->currentLine());
    m_problems->setDiagnostics(snapshot->analysis.program.diagnostics);
    const auto& t = snapshot->analysis.timing.totals;
    int errors = 0;
    for (const auto& d : snapshot->analysis.program.diagnostics)
        errors += d.severity == Severity::Error;
    m_status->setText(tr("%1 · %2 instructions · %3 single-wave cycles · %4 error(s) · analysed in %5 ms")
                          .arg(QString::fromStdString(snapshot->analysis.program.gpu.targetId.empty() ? snapshot->request.assemble.gpu
                                                                                                      : snapshot->analysis.program.gpu.targetId))
                          .arg(t.instructions)
                          .arg(t.singleWaveCycles)
                          .arg(errors)
                          .arg(snapshot->milliseconds, 0, 'f', 1));
    Q_EMIT snapshotApplied(snapshot->job);
}

void MainWindow::setGpu(const QString& name)
{
    m_summary->setGpu(name);
    m_bridge->setGpu(name);
    QSettings().setValue(QStringLiteral("gpu"), name);
}

bool MainWindow::openFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        QMessageBox::warning(this, tr("Open"), tr("Cannot open %1:\n%2").arg(path, file.errorString()));
        return false;
    }
    const qint64 size = file.size();
    m_loading = true;
    m_bridge->setPaused(true);
    bool ok = true;
    if (size <= chunkThreshold()) {
        m_editor->setPlainText(QString::fromUtf8(file.readAll()));
    } else {
        // A large file streams in chunk by chunk with the event loop running: the window stays
        // responsive, shows progress and can be cancelled.
        qCInfo(lcFiles) << "loading" << path << size << "bytes in chunks";
        QProgressDialog progress(tr("Opening %1…").arg(QFileInfo(path).fileName()), tr("Cancel"), 0, 1000, this);
        progress.setWindowModality(Qt::WindowModal);
        progress.setMinimumDuration(0);
        m_editor->clear();
        m_editor->document()->setUndoRedoEnabled(false);
        QTextCursor cursor(m_editor->document());
        QByteArray carry;
        while (!file.atEnd()) {
            QByteArray chunk = carry + file.read(1 << 20);
            const qsizetype cut = file.atEnd() ? chunk.size() : chunk.lastIndexOf('\n') + 1;
            carry = chunk.mid(cut);
            chunk.truncate(cut);
            cursor.movePosition(QTextCursor::End);
            cursor.insertText(QString::fromUtf8(chunk));
            progress.setValue(int(1000 * file.pos() / std::max<qint64>(size, 1)));
            QCoreApplication::processEvents();
            if (progress.wasCanceled()) {
                ok = false;
                break;
            }
        }
        if (ok && !carry.isEmpty()) {
            cursor.movePosition(QTextCursor::End);
            cursor.insertText(QString::fromUtf8(carry));
        }
        m_editor->document()->setUndoRedoEnabled(true);
        if (!ok)
            m_editor->clear();
    }
    m_loading = false;
    if (!ok) {
        m_bridge->setPaused(false);
        setCurrentFile({});
        return false;
    }
    setCurrentFile(path);
    addRecentFile(path);
    loadFileSettings();
    m_bridge->setSource(m_editor->toPlainText());
    m_bridge->setPaused(false);
    m_bridge->analyzeNow();
    return true;
}

bool MainWindow::save()
{
    return m_file.isEmpty() ? saveAs() : saveAs(m_file);
}

bool MainWindow::saveAs(const QString& target)
{
    QString path = target;
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(this, tr("Save kernel"), m_file, tr("Assembly (*.s *.asm);;All files (*)"));
    if (path.isEmpty())
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_editor->toPlainText().toUtf8()) < 0 || !file.commit()) {
        QMessageBox::warning(this, tr("Save"), tr("Cannot save %1:\n%2").arg(path, file.errorString()));
        return false;
    }
    m_recovery->discard(m_file);
    setCurrentFile(path);
    addRecentFile(path);
    m_recovery->discard(path);
    return true;
}

void MainWindow::setCurrentFile(const QString& path)
{
    m_file = path;
    m_editor->document()->setModified(false);
    AnalysisRequest request = m_bridge->request();
    request.assemble.fileName = path.isEmpty() ? std::string("<input>") : QFileInfo(path).fileName().toStdString();
    m_bridge->setRequest(request);
    updateTitle();
}

void MainWindow::updateTitle()
{
    setWindowFilePath(m_file.isEmpty() ? tr("untitled.s") : m_file);
    setWindowModified(m_editor->document()->isModified());
    setWindowTitle(QStringLiteral("%1[*] — gcnlens").arg(m_file.isEmpty() ? tr("untitled.s") : QFileInfo(m_file).fileName()));
}

bool MainWindow::maybeSave()
{
    if (!m_editor->document()->isModified())
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                             tr("%1 has unsaved changes. Save them?").arg(m_file.isEmpty() ? tr("The kernel") : QFileInfo(m_file).fileName()),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer == QMessageBox::Discard) {
        m_recovery->discard(m_file);
        return true;
    }
    return false;
}

void MainWindow::autosaveNow()
{
    if (m_editor->document()->isModified())
        m_recovery->save(m_file, m_editor->toPlainText());
}

void MainWindow::setRecoveryStore(std::unique_ptr<RecoveryStore> store)
{
    m_recovery = std::move(store);
}

void MainWindow::setAutosaveInterval(int milliseconds)
{
    m_autosave->setInterval(milliseconds);
}

bool MainWindow::offerRecovery()
{
    bool restored = false;
    for (const auto& entry : m_recovery->entries()) {
        const QString name = entry.originalFile.isEmpty() ? tr("an untitled kernel") : entry.originalFile;
        const auto answer = QMessageBox::question(this, tr("Recover unsaved work"),
                                                  tr("gcnlens was not closed cleanly. Unsaved text of %1 from %2 was kept.\nRestore it?")
                                                      .arg(name, QLocale().toString(entry.saved, QLocale::ShortFormat)),
                                                  QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Ignore);
        if (answer == QMessageBox::Yes && !restored) {
            m_loading = true;
            m_editor->setPlainText(entry.text);
            m_loading = false;
            setCurrentFile(entry.originalFile);
            m_editor->document()->setModified(true);
            m_bridge->setSource(entry.text);
            m_bridge->analyzeNow();
            restored = true;
        } else if (answer == QMessageBox::Discard) {
            m_recovery->discardEntry(entry);
        }
    }
    return restored;
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > MaxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& f : files) {
        m_recentMenu->addAction(QFileInfo(f).fileName(), this, [this, f] {
            if (maybeSave())
                openFile(f);
        })->setToolTip(f);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::loadFileSettings()
{
    // Include paths and --defsym values are remembered per file.
    QSettings settings;
    settings.beginGroup(QStringLiteral("files"));
    settings.beginGroup(QString::fromLatin1(QFileInfo(m_file).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding)));
    AnalysisRequest request = m_bridge->request();
    request.assemble.includeDirs.clear();
    const QString base = QFileInfo(m_file).absolutePath();
    request.assemble.includeDirs.push_back(base.toStdString());
    for (const QString& dir : settings.value(QStringLiteral("includeDirs")).toStringList())
        request.assemble.includeDirs.push_back(dir.toStdString());
    request.assemble.defsyms.clear();
    for (const QString& def : settings.value(QStringLiteral("defsyms")).toStringList()) {
        const auto kv = def.split(QLatin1Char('='));
        bool ok = false;
        const qint64 v = kv.size() == 2 ? kv[1].toLongLong(&ok, 0) : 0;
        if (ok)
            request.assemble.defsyms.emplace_back(kv[0].trimmed().toStdString(), v);
    }
    m_bridge->setRequest(request);
}

void MainWindow::editAssemblerOptions()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("files"));
    settings.beginGroup(QString::fromLatin1(QFileInfo(m_file).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding)));
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Assembler options for %1").arg(m_file.isEmpty() ? tr("untitled") : QFileInfo(m_file).fileName()));
    auto* form = new QFormLayout(&dialog);
    auto* includes = new QLineEdit(settings.value(QStringLiteral("includeDirs")).toStringList().join(QLatin1Char(';')));
    includes->setPlaceholderText(tr("dir1;dir2 (the file's own directory is always searched)"));
    auto* defsyms = new QLineEdit(settings.value(QStringLiteral("defsyms")).toStringList().join(QLatin1Char(' ')));
    defsyms->setPlaceholderText(QStringLiteral("NAME=1 OTHER=0x40"));
    form->addRow(tr("Include paths"), includes);
    form->addRow(tr("--defsym"), defsyms);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    settings.setValue(QStringLiteral("includeDirs"), includes->text().split(QLatin1Char(';'), Qt::SkipEmptyParts));
    settings.setValue(QStringLiteral("defsyms"), defsyms->text().split(QLatin1Char(' '), Qt::SkipEmptyParts));
    settings.sync();
    loadFileSettings();
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1500, 920);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_summary->setGpu(settings.value(QStringLiteral("gpu"), QStringLiteral("tahiti")).toString());
}

void MainWindow::writeSettings()
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    m_recovery->discard(m_file); // a clean close leaves nothing to recover
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    if (maybeSave())
        openFile(urls.first().toLocalFile());
    event->acceptProposedAction();
}

} // namespace gcnlens::ui
