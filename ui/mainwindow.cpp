// SPDX-License-Identifier: MIT
#include "ui/mainwindow.h"
#include "ui/dialectswitch.h"
#include "ui/docks/ldsdock.h"
#include "ui/docks/occupancydock.h"
#include "ui/docks/problemsmodel.h"
#include "ui/docks/problemsview.h"
#include "ui/docks/summarydock.h"
#include "ui/documentfiles.h"
#include "ui/editor/codeeditor.h"
#include "ui/exportreport.h"
#include "ui/fileoptions.h"
#include "ui/filewatch.h"
#include "ui/fixitpreview.h"
#include "ui/logging.h"
#include "ui/recovery.h"

#include <QAction>
#include <QApplication>
#include <QBoxLayout>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

namespace gcnlens::ui {

// A slice of text insertion aims at this many milliseconds, so the window repaints and reacts to
// Cancel between slices (highlighting and layout run inside each insertion).
static constexpr double TargetSliceMs = 10.0;

// Lines of a text the editor shows in `blocks` blocks, as the large-text limits count them: a final
// line break ends the last line, it does not start one (a "1M-line" file ends with one).
static qsizetype textLines(qsizetype blocks, bool endsWithBreak)
{
    return blocks > 1 && endsWithBreak ? blocks - 1 : blocks;
}

static QString native(const QString& path)
{
    return documentfiles::nativePath(path);
}

struct MainWindow::Loaded : LoadedText {
    std::unique_ptr<QProgressDialog> progress;
};

// A dock's scroll area: the content fills it and scrolls vertically only when the window is too
// short for the content's minimum height; the area is always as wide as the content needs (which
// grows with the text shown), so nothing is cut off on the right. (QScrollArea's own resizing
// gives word-wrapping content its preferred height, which scrolls even when there is room.)
class DockScrollArea : public QScrollArea {
public:
    QSize minimumSizeHint() const override
    {
        return {widget() ? widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth() : 0,
                QScrollArea::minimumSizeHint().height()};
    }
    QSize sizeHint() const override
    {
        return widget()
            ? widget()->sizeHint() + QSize(verticalScrollBar()->sizeHint().width() + 2 * frameWidth(), 2 * frameWidth())
            : QScrollArea::sizeHint();
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QScrollArea::resizeEvent(event);
        fit();
    }
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest) {
            updateGeometry(); // the content's minimum size may have changed: let the dock follow
            fit();
        }
        return QScrollArea::eventFilter(watched, event);
    }

private:
    void fit()
    {
        QWidget* w = widget();
        if (!w)
            return;
        // Word-wrapped labels need more lines when narrower: the minimum height at a width.
        auto least = [w](int width) {
            int h = w->minimumSizeHint().height();
            if (QLayout* layout = w->layout(); layout && layout->hasHeightForWidth())
                h = std::max(h, layout->totalMinimumHeightForWidth(width));
            return h;
        };
        // Decided on the whole area, so that the scroll bar (which narrows the content and so
        // lengthens it) does not come and go: without it if the content fits, else with it.
        const QRect area = contentsRect();
        if (least(area.width()) <= area.height()) {
            w->resize(area.size());
        } else {
            const int width = area.width() - verticalScrollBar()->sizeHint().width();
            w->resize(width, least(width));
        }
    }
};

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_editor(new CodeEditor)
    , m_bridge(new AnalysisBridge(this))
    , m_autosave(new QTimer(this))
    , m_recovery(std::make_unique<RecoveryStore>())
{
    setObjectName(QStringLiteral("MainWindow"));
    // The highlighter lives on the editor's document; large texts open without it (see header).
    m_highlighter = m_editor->document()->findChild<QSyntaxHighlighter*>();
    createBanner();
    auto* central = new QWidget;
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_banner);
    column->addWidget(m_editor, 1);
    setCentralWidget(central);
    setAcceptDrops(true);
    m_editor->setAcceptDrops(false);    // files dropped on the editor open rather than paste a path
    m_editor->installEventFilter(this); // large pastes
    createDocks();
    createActions();
    m_status = new QLabel;
    statusBar()->addWidget(m_status, 1);
    m_dialect = new DialectSwitch(m_bridge, m_highlighter);
    statusBar()->addPermanentWidget(m_dialect);

    connect(m_editor->document(), &QTextDocument::contentsChange, this, &MainWindow::documentEdited);
    m_bridge->setDocument(m_editor->document()); // edits reach the analysis as lines (issue #11 item 6)
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, [this] { updateTitle(); });
    connect(m_bridge, &AnalysisBridge::analysisStarted, this, [this] {
        if (!m_analysisCapped)
            m_status->setText(tr("Analysing…"));
        m_analysisClock.start();
        m_progressTimer->start();
    });
    connect(m_bridge, &AnalysisBridge::analysisReady, this, &MainWindow::applySnapshot);
    // A runaway analysis (issue #12): after half a second the status bar shows the line the
    // assembler has reached and a Cancel button, which ends the worker; the text stays as typed.
    m_cancel = new QToolButton;
    m_cancel->setText(tr("Cancel"));
    m_cancel->setAutoRaise(true);
    m_cancel->setMaximumHeight(fontMetrics().height() + 6); // the status bar keeps its height
    m_cancel->setObjectName(QStringLiteral("CancelAnalysis"));
    m_cancel->setToolTip(tr("Stop this analysis; the text and the last results stay"));
    m_cancel->setVisible(false);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, m_bridge, &AnalysisBridge::cancel);
    m_progressTimer = new QTimer(this);
    m_progressTimer->setInterval(200);
    connect(m_progressTimer, &QTimer::timeout, this, &MainWindow::showProgress);
    connect(m_editor, &CodeEditor::branchToggleRequested, m_bridge, &AnalysisBridge::setBranchDirection);
    connect(m_editor, &CodeEditor::currentLineChanged, m_lds, &LdsDock::setCursorLine);

    // The open file changing or disappearing on disk (issue #12).
    m_watch = new FileWatch(this);
    connect(m_watch, &FileWatch::changedOnDisk, this, &MainWindow::fileChangedOnDisk);
    connect(m_watch, &FileWatch::removedFromDisk, this, &MainWindow::fileRemovedFromDisk);

    // Autosave to the recovery file shortly after typing stops (no typed work is lost on a crash).
    m_autosave->setSingleShot(true);
    m_autosave->setInterval(2000);
    connect(m_autosave, &QTimer::timeout, this, &MainWindow::autosaveNow);

    readSettings();
    m_bridge->setGpu(m_summary->gpu());
    loadFileSettings();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createBanner()
{
    // Says why a large text has no colours or no live analysis, with the way out next to it.
    m_banner = new QFrame;
    m_banner->setObjectName(QStringLiteral("LargeTextBanner"));
    m_banner->setFrameShape(QFrame::StyledPanel);
    m_banner->setAutoFillBackground(true);
    QPalette pal = m_banner->palette();
    pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
    pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
    m_banner->setPalette(pal);
    auto* row = new QHBoxLayout(m_banner);
    m_bannerText = new QLabel;
    m_bannerText->setWordWrap(true);
    row->addWidget(m_bannerText, 1);
    m_analyseAnyway = new QPushButton(tr("Analyse Anyway"));
    m_analyseAnyway->setObjectName(QStringLiteral("AnalyseAnyway"));
    m_analyseAnyway->setToolTip(tr("Runs the analysis in the background and again after each edit; the window stays responsive"));
    connect(m_analyseAnyway, &QPushButton::clicked, this, &MainWindow::analyseAnyway);
    row->addWidget(m_analyseAnyway);
    m_banner->setVisible(false);
}

void MainWindow::createDocks()
{
    auto dock = [this](const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area, bool scroll) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name); // saveState() keys on it
        if (scroll) {
            auto* area = new DockScrollArea;
            area->setWidget(widget);
            area->setFrameShape(QFrame::NoFrame);
            area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
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
    // In scroll areas too: stacked, their minimum heights (chart, heatmap) would make the window
    // at least ~980 px tall, more than a 768-px laptop screen; now they scroll when space is short.
    auto* occupancyDock = dock(tr("Occupancy"), QStringLiteral("OccupancyDock"), m_occupancy, Qt::RightDockWidgetArea, true);
    auto* ldsDock = dock(tr("LDS banks"), QStringLiteral("LdsDock"), m_lds, Qt::RightDockWidgetArea, true);
    // Occupancy above LDS on the right; the problems pane only under the editor.
    splitDockWidget(occupancyDock, ldsDock, Qt::Vertical);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({occupancyDock, ldsDock}, {565, 390}, Qt::Vertical); // both whole in a 1000-px window
    resizeDocks({summaryDock, occupancyDock}, {summaryDock->widget()->sizeHint().width() + 24, 430}, Qt::Horizontal);

    m_problems = new ProblemsModel(this);
    m_problemsView = new ProblemsView; // diagnostics and findings (issue #17); findingMenuRequested: fix-its
    m_problemsView->setProblemsModel(m_problems);
    connect(m_problemsView, &ProblemsView::lineRequested, m_editor, &CodeEditor::jumpToLine);
    auto* problems = dock(tr("Problems"), QStringLiteral("ProblemsDock"), m_problemsView, Qt::BottomDockWidgetArea, false);
    installFixItMenus(m_editor, m_problemsView, m_bridge); // "Preview Fix…" (ui/fixitpreview.h)
    problems->setMinimumHeight(80);
    resizeDocks({problems}, {110}, Qt::Vertical);

    connect(m_summary, &SummaryDock::gpuChanged, this, &MainWindow::setGpu);
    connect(m_summary, &SummaryDock::optionsChanged, this, [this](const TimingOptions& options) {
        applyOptions(options);
        // Remembered: the model options are settings of the window, not of a file.
        QSettings settings;
        settings.beginGroup(QStringLiteral("model"));
        for (const auto& [name, value] : options.values())
            settings.setValue(QString::fromStdString(name), QString::fromStdString(value));
    });
    connect(m_summary, &SummaryDock::jumpToLine, this, [this](int line) { m_editor->jumpToLine(line); });
}

void MainWindow::applyOptions(const TimingOptions& options)
{
    m_bridge->setTimingOptions(options);
    m_occupancy->setOptions(options);
    m_lds->setGroupDwords(options.ldsGroupDwords);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New"), QKeySequence::New, this, [this] {
        if (!maybeSave())
            return;
        m_editor->clear();
        setHighlighting(true);
        setCapped(false, 0);
        m_format = {};
        setCurrentFile({});
        loadFileSettings();
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
    QAction* exportReport = file->addAction(QIcon::fromTheme(QStringLiteral("document-export")), tr("&Export Report…"),
                                            QKeySequence(tr("Ctrl+E")), this, [this] { ReportExport::ask(this); });
    exportReport->setObjectName(QStringLiteral("ExportReport"));
    exportReport->setToolTip(tr("Write the annotated PDF report of this kernel as the window shows it"));
    // A toolbar in the menu bar's row: a row of its own would take height from the docks, which
    // fit a 1600x1000 window without scrolling (tst_windowfiles).
    auto* tools = new QToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("MainToolBar"));
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->setIconSize(QSize(16, 16));
    tools->addAction(exportReport);
    menuBar()->setCornerWidget(tools, Qt::TopRightCorner);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_showFreed = m_viewMenu->addAction(tr("Show Instructions Saved by Freeing Rules"));
    m_showFreed->setCheckable(true);
    m_showFreed->setToolTip(tr("Outline 2-dword instructions that R-first16, R-long or R-pair kept from paying a fetch penalty"));
    connect(m_showFreed, &QAction::toggled, m_editor, &CodeEditor::setShowFreed);
    connect(m_showFreed, &QAction::toggled, this, [](bool on) { QSettings().setValue(QStringLiteral("view/showFreed"), on); });
    m_viewMenu->addAction(tr("Reset Branch Directions"), m_bridge, &AnalysisBridge::clearBranchOverrides);
    m_viewMenu->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        m_viewMenu->addAction(d->toggleViewAction());
    updateRecentMenu();
}

void MainWindow::showProgress()
{
    if (!m_bridge->busy()) {
        m_progressTimer->stop();
        m_cancel->setVisible(false);
        return;
    }
    if (m_analysisClock.elapsed() < AnalysisBridge::kCancelAfterMs)
        return;
    const int line = m_bridge->lineReached();
    m_status->setText(
        line > 0
            ? tr("Analysing… line %L1 of %L2 (%3 s)").arg(line).arg(m_editor->blockCount()).arg(m_analysisClock.elapsed() / 1000)
            : tr("Analysing… (%1 s)").arg(m_analysisClock.elapsed() / 1000));
    m_cancel->setVisible(true);
}

void MainWindow::applySnapshot(const SnapshotPtr& snapshot)
{
    m_cancel->setVisible(m_bridge->busy() && m_analysisClock.elapsed() >= AnalysisBridge::kCancelAfterMs);
    m_editor->setSnapshot(snapshot);
    m_summary->setSnapshot(snapshot);
    m_occupancy->setSnapshot(snapshot);
    m_lds->setSnapshot(snapshot);
    m_lds->setCursorLine(m_editor->currentLine());
    m_problems->setProblems(snapshot->analysis.program.diagnostics, snapshot->lines.sharedFindings());
    m_dialect->updateDetected(m_text);
    if (m_analysisCapped) {
        m_status->setText(tr("Analysis off: %L1 lines (more than %L2)").arg(m_editor->blockCount()).arg(m_liveAnalysisLines));
    } else {
        const auto& t = snapshot->analysis.timing.totals;
        int errors = 0;
        for (const auto& d : snapshot->analysis.program.diagnostics)
            errors += d.severity == Severity::Error;
        m_status->setText(tr("%1 · %2 instructions · %3 single-wave cycles · %4 error(s) · analysed in %5 ms")
                              .arg(QString::fromStdString(snapshot->analysis.program.gpu.targetId.empty()
                                                              ? snapshot->request.assemble.gpu
                                                              : snapshot->analysis.program.gpu.targetId))
                              .arg(t.instructions)
                              .arg(t.singleWaveCycles)
                              .arg(errors)
                              .arg(snapshot->milliseconds, 0, 'f', 1));
    }
    Q_EMIT snapshotApplied(snapshot->job);
}

void MainWindow::documentEdited(int position, int removed, int added)
{
    if (m_loading) // the loader sets m_text itself when it is done
        return;
    QTextDocument* doc = m_editor->document();
    QTextCursor cursor(doc);
    const int end = std::min(position + added, doc->characterCount() - 1);
    cursor.setPosition(std::min(position, end));
    cursor.setPosition(end, QTextCursor::KeepAnchor);
    QString inserted = cursor.selectedText();
    // The conversions toPlainText() makes.
    inserted.replace(QChar::ParagraphSeparator, QLatin1Char('\n'))
        .replace(QChar::LineSeparator, QLatin1Char('\n'))
        .replace(QChar::Nbsp, QLatin1Char(' '));
    // Format-only changes (re-highlighting) report the same characters: leave the text, and the
    // copy the analysis holds, alone.
    if (removed == added && QStringView(m_text).mid(position, added) == inserted)
        return;
    m_text.replace(position, removed, inserted);
    if (m_text.size() != doc->characterCount() - 1) {
        // Edits at the document's end can count its final separator; a full read puts it right.
        qCDebug(lcFiles) << "text mirror resynchronised after" << position << removed << added;
        m_text = doc->toPlainText();
    }
    if (!m_analysisCapped)
        m_bridge->documentChanged(position, removed, added);
    m_autosave->start();
}

void MainWindow::setGpu(const QString& name)
{
    m_summary->setGpu(name);
    m_bridge->setGpu(name);
    QSettings().setValue(QStringLiteral("gpu"), name);
}

void MainWindow::reportError(const QString& title, const QString& message)
{
    m_lastError = message;
    qCWarning(lcFiles).noquote() << message;
    m_status->setText(message.section(QLatin1Char('\n'), 0, 0));
    if (!m_quiet)
        QMessageBox::warning(this, title, message);
}

bool MainWindow::readFile(const QString& path, Loaded* out)
{
    if (QFileInfo(path).size() > chunkThreshold() && QFileInfo(path).size() <= m_maxFileSize)
        out->progress = makeProgress(tr("Opening %1…").arg(QFileInfo(path).fileName()), true);
    QString error;
    QElapsedTimer opening;
    opening.start();
    // A code object the worker process takes a while over (or hangs on, until the time limit of
    // its listing's options) gets a cancellable progress dialog too.
    const auto progress = [&](int percent) {
        if (!out->progress && opening.elapsed() > 300)
            out->progress = makeProgress(tr("Opening %1…").arg(QFileInfo(path).fileName()), true);
        if (!out->progress)
            return true;
        out->progress->setValue(percent);
        QCoreApplication::processEvents();
        return !out->progress->wasCanceled();
    };
    const bool ok =
        documentfiles::read(path, m_maxFileSize, out, &error, progress, FileOptions::load(path + QStringLiteral(".s")).limits);
    if (ok)
        return true;
    if (error.isEmpty()) {
        m_lastError = tr("Opening %1 was cancelled.").arg(native(path));
    } else {
        if (!QFileInfo::exists(path))
            removeRecentFile(path);
        reportError(tr("Open"), error);
    }
    return false;
}

bool MainWindow::insertText(const QString& text, QProgressDialog* progress, int from, int to, Undo undo)
{
    // In slices ending at a line break, each sized so that inserting it (with highlighting and
    // layout) takes about TargetSliceMs; the event loop runs in between. A paste inserts at the
    // cursor, every slice joined to one undo step.
    const bool paste = undo != Undo::None;
    QTextCursor cursor = paste ? m_editor->textCursor() : QTextCursor(m_editor->document());
    if (!paste)
        cursor.movePosition(QTextCursor::End);
    const qsizetype n = text.size();
    qsizetype pos = 0;
    qsizetype step = progress ? 16 * 1024 : n;
    QElapsedTimer slice;
    while (pos < n) {
        slice.start();
        qsizetype end = n;
        if (pos + step < n) {
            const qsizetype newline = text.indexOf(QLatin1Char('\n'), pos + step);
            end = newline < 0 ? n : newline + 1;
        }
        if (paste) {
            if (pos == 0 && undo == Undo::NewStep)
                cursor.beginEditBlock();
            else
                cursor.joinPreviousEditBlock();
        }
        cursor.insertText(text.sliced(pos, end - pos));
        if (paste)
            cursor.endEditBlock(); // lays out and highlights this slice now, not the whole paste at the end
        pos = end;
        if (!progress)
            continue;
        const double spent = double(slice.nsecsElapsed()) / 1e6;
        step = std::clamp(qsizetype(double(step) * TargetSliceMs / std::max(spent, 0.1)), qsizetype(1024), step * 2);
        progress->setValue(from + int(double(to - from) * double(pos) / double(n)));
        QCoreApplication::processEvents();
        if (progress->wasCanceled() && progress->property("cancellable").toBool())
            return false;
    }
    return true;
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    // A large paste would insert, lay out and highlight everything in one go, freezing the window
    // for seconds (about 15 s for 1M lines): it goes in slices instead.
    if (watched == m_editor && event->type() == QEvent::KeyPress && static_cast<QKeyEvent*>(event)->matches(QKeySequence::Paste)
        && !m_editor->isReadOnly()) {
        const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
        if (mime && mime->hasText()) {
            QString text = mime->text();
            if (text.size() > chunkThreshold()) {
                pasteLarge(std::move(text));
                return true;
            }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::pasteLarge(QString text)
{
    text.replace(QStringLiteral("\r\n"), QStringLiteral("\n")).replace(QLatin1Char('\r'), QLatin1Char('\n'));
    QTextCursor cursor = m_editor->textCursor();
    const bool pastedAtEnd = cursor.selectionEnd() == m_text.size();
    const qsizetype lines = textLines(m_editor->blockCount() - (cursor.selectedText().count(QChar::ParagraphSeparator))
                                          + text.count(QLatin1Char('\n')),
                                      pastedAtEnd ? text.endsWith(QLatin1Char('\n')) : m_text.endsWith(QLatin1Char('\n')));
    // The same rules as for opening: no colours, and above the second limit no live analysis
    // (the banner says so).
    if (lines > m_largeTextLines)
        setHighlighting(false);
    if (lines > m_liveAnalysisLines && !m_analysisCapped) {
        setCapped(true, lines);
        m_bridge->setSource(QString());
    } else if (lines > m_largeTextLines) {
        setCapped(m_analysisCapped, lines);
    }
    // The selection goes first; the slices join its undo step (or make a new one).
    const Undo undo = cursor.hasSelection() ? Undo::JoinPrevious : Undo::NewStep;
    if (cursor.hasSelection()) {
        cursor.beginEditBlock();
        cursor.removeSelectedText();
        cursor.endEditBlock();
        m_editor->setTextCursor(cursor);
    }
    const int position = cursor.position();
    const auto progress = makeProgress(tr("Pasting %L1 lines…").arg(text.count(QLatin1Char('\n')) + 1), false);
    m_loading = true;
    m_editor->setLineCountHint(lines); // the gutter takes its final width now, not half way
    insertText(text, progress.get(), 0, 1000, undo);
    m_editor->setLineCountHint(0);
    m_loading = false;
    m_text.insert(position, text);
    if (m_text.size() != m_editor->document()->characterCount() - 1)
        m_text = m_editor->toPlainText();
    if (!m_analysisCapped)
        m_bridge->setSource(m_text);
    m_autosave->start();
}

void MainWindow::setHighlighting(bool on)
{
    if (!m_highlighter)
        return;
    QTextDocument* doc = on ? m_editor->document() : nullptr;
    if (m_highlighter->document() == doc)
        return;
    m_highlighter->setDocument(doc);
    // setDocument() queues a full re-highlight, and until it runs each insertion is left
    // unhighlighted; run it now (the document is empty here) so that inserts highlight as they go.
    if (on)
        QCoreApplication::sendPostedEvents(m_highlighter, QEvent::MetaCall);
}

void MainWindow::setCapped(bool capped, qsizetype lines)
{
    m_analysisCapped = capped;
    const bool colourless = lines > m_largeTextLines;
    const QString name = m_file.isEmpty() ? tr("This text") : QFileInfo(m_file).fileName();
    if (capped) {
        m_bannerText->setText(
            tr("%1 has %L2 lines. Live analysis is off above %L3 lines and syntax colours above %L4, so that the window "
               "stays responsive: analysing a million lines takes seconds and about 1 GB, again after every edit. For the "
               "figures, run gcnlens-cli analyze on the file, or analyse it here anyway.")
                .arg(name)
                .arg(lines)
                .arg(m_liveAnalysisLines)
                .arg(m_largeTextLines));
    } else if (colourless) {
        m_bannerText->setText(tr("%1 has %L2 lines: syntax colours are off above %L3 lines, so that the window stays "
                                 "responsive. The analysis runs after each edit as for any text.")
                                  .arg(name)
                                  .arg(lines)
                                  .arg(m_largeTextLines));
    }
    m_analyseAnyway->setVisible(capped);
    m_banner->setVisible(capped || colourless);
}

void MainWindow::analyseAnyway()
{
    if (!m_analysisCapped)
        return;
    // Colours stay off: re-highlighting the whole text at once would block the window for seconds.
    setCapped(false, 0);
    m_bridge->setSource(m_text);
    m_bridge->analyzeNow();
}

std::unique_ptr<QProgressDialog> MainWindow::makeProgress(const QString& label, bool cancellable)
{
    auto progress = std::make_unique<QProgressDialog>(label, cancellable ? tr("Cancel") : QString(), 0, 1000, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0); // a text this size takes a moment: show at once
    progress->setAutoReset(false);
    progress->setAutoClose(false);
    progress->setProperty("cancellable", cancellable);
    progress->setValue(0);
    return progress;
}

bool MainWindow::showText(Loaded& loaded, const QString& name)
{
    // What to put back if the user cancels half way.
    QTextDocument* doc = m_editor->document();
    const QString previousText = m_text;
    const bool previousModified = doc->isModified();
    const bool previousHighlighting = m_highlighter && m_highlighter->document();
    const int previousPosition = m_editor->textCursor().position();
    const int previousScroll = m_editor->verticalScrollBar()->value();
    const int previousLines = doc->blockCount();

    if (!loaded.progress && loaded.text.size() > chunkThreshold())
        loaded.progress = makeProgress(tr("Opening %1…").arg(name), true);
    m_loading = true;
    m_bridge->setPaused(true);
    doc->setUndoRedoEnabled(false); // opening is not an edit to undo (and the stack would hold it all)
    // The gutter gets the final text's width up front: widening it when the count gains a digit
    // would re-lay out every line loaded so far in one go.
    m_editor->setLineCountHint(loaded.lines);
    m_editor->clear();
    setHighlighting(textLines(loaded.lines, loaded.text.endsWith(QLatin1Char('\n'))) <= m_largeTextLines);
    if (loaded.progress)
        qCInfo(lcFiles) << "loading" << name << loaded.text.size() << "characters," << loaded.lines << "lines in slices";
    if (!insertText(loaded.text, loaded.progress.get(), 100, 1000)) {
        m_editor->clear();
        m_editor->setLineCountHint(previousLines);
        setHighlighting(previousHighlighting);
        std::unique_ptr<QProgressDialog> restoring;
        if (previousText.size() > chunkThreshold())
            restoring = makeProgress(tr("Restoring the previous text…"), false);
        insertText(previousText, restoring.get(), 0, 1000);
        doc->setUndoRedoEnabled(true);
        QTextCursor cursor(doc);
        cursor.setPosition(std::min(previousPosition, doc->characterCount() - 1));
        m_editor->setTextCursor(cursor);
        m_editor->verticalScrollBar()->setValue(previousScroll);
        doc->setModified(previousModified);
        m_editor->setLineCountHint(0);
        m_loading = false;
        m_bridge->setPaused(false);
        m_lastError = tr("Opening %1 was cancelled; the previous text is unchanged.").arg(name);
        m_status->setText(m_lastError);
        return false;
    }
    doc->setUndoRedoEnabled(true);
    m_editor->setLineCountHint(0); // the block count has the hinted digits now
    m_editor->setTextCursor(QTextCursor(doc));
    m_text = std::move(loaded.text);
    m_format = loaded.format;
    m_loading = false;
    loaded.progress.reset();
    return true;
}

void MainWindow::analyseShownText(qsizetype lines)
{
    lines = textLines(lines, m_text.endsWith(QLatin1Char('\n')));
    const bool large = lines > m_liveAnalysisLines;
    setCapped(large, lines);
    m_bridge->setSource(large ? QString() : m_text); // capped: empty panels rather than the previous file's
    m_bridge->setPaused(false);
    m_bridge->analyzeNow();
}

bool MainWindow::openFile(const QString& path)
{
    Loaded loaded;
    if (!readFile(path, &loaded) || !showText(loaded, native(path)))
        return false;
    // A code object is shown as its listing, read-only; saving writes the listing beside it
    // (NAME.s), never over the object.
    setCurrentFile(loaded.readOnly ? path + QStringLiteral(".s") : path);
    addRecentFile(path);
    loadFileSettings();
    m_editor->setReadOnly(loaded.readOnly);
    if (loaded.readOnly)
        setGpu(loaded.gpu);
    analyseShownText(loaded.lines);
    if (loaded.readOnly)
        m_status->setText(
            tr("%1 is a code object: shown as its disassembly for %2, read-only.").arg(QFileInfo(path).fileName(), loaded.gpu));
    if (loaded.format.latin1Fallback)
        m_status->setText(
            tr("%1 is not valid UTF-8: read as Latin-1, and saved back the same way.").arg(QFileInfo(path).fileName()));
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
    const QByteArray bytes = documentfiles::encode(m_text, &m_format);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        autosaveNow(); // the text stays in the editor, and in the recovery file
        reportError(tr("Save"),
                    tr("Cannot save %1:\n%2.\nThe text is still in the editor, unsaved.").arg(native(path), file.errorString()));
        return false;
    }
    const QString previous = m_file;
    FileOptions::carryOver(previous, path); // the assembler options follow the text to its new name
    m_recovery->discard(previous);
    setCurrentFile(path);
    addRecentFile(path);
    m_recovery->discard(path);
    if (fileKey(previous) != fileKey(path))
        loadFileSettings();
    m_status->setText(tr("Saved %1").arg(native(path)));
    return true;
}

void MainWindow::fileChangedOnDisk(const QString& path)
{
    const bool modified = m_editor->document()->isModified();
    const QString question = modified
        ? tr("%1 changed on disk, and the text in the editor has unsaved changes.\nReload it from disk and lose them?")
        : tr("%1 changed on disk.\nReload it?");
    QMessageBox::StandardButton answer = QMessageBox::No;
    if (!m_quiet) {
        m_watch->setHeld(true); // one question at a time
        answer = QMessageBox::question(this, tr("File changed"), question.arg(native(path)), QMessageBox::Yes | QMessageBox::No,
                                       modified ? QMessageBox::No : QMessageBox::Yes);
        m_watch->setHeld(false);
    }
    if (answer == QMessageBox::Yes && path == m_file) {
        m_recovery->discard(m_file);
        openFile(path);
        return;
    }
    // Kept: the editor's text is no longer what is on disk.
    m_editor->document()->setModified(true);
    m_lastError = tr("%1 changed on disk; the editor keeps its text (unsaved).").arg(native(path));
    m_status->setText(m_lastError);
    autosaveNow();
}

void MainWindow::fileRemovedFromDisk(const QString& path)
{
    // The text stays, unsaved (and in the recovery file); saving writes the file again.
    m_editor->document()->setModified(true);
    autosaveNow();
    reportError(tr("File removed"),
                tr("%1 was deleted or moved away on disk.\nThe text is still in the editor, unsaved: "
                   "save it to write the file again.")
                    .arg(native(path)));
}

void MainWindow::setCurrentFile(const QString& path)
{
    m_file = path;
    m_watch->watch(path);
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
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
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
        m_recovery->save(m_file, m_text);
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
        const auto answer =
            QMessageBox::question(this, tr("Recover unsaved work"),
                                  tr("gcnlens was not closed cleanly. Unsaved text of %1 from %2 was kept.\nRestore it?")
                                      .arg(name, QLocale().toString(entry.saved, QLocale::ShortFormat)),
                                  QMessageBox::Yes | QMessageBox::Discard | QMessageBox::Ignore);
        if (answer == QMessageBox::Yes && !restored) {
            // Like opening a file: in slices, with the large-text rule.
            Loaded loaded;
            loaded.text = entry.text;
            loaded.lines = entry.text.count(QLatin1Char('\n')) + 1;
            if (!showText(loaded, tr("the recovered text")))
                continue; // kept on disk: offered again next time
            setCurrentFile(entry.originalFile);
            loadFileSettings();
            m_editor->document()->setModified(true);
            analyseShownText(loaded.lines);
            restored = true;
        } else if (answer == QMessageBox::Discard) {
            m_recovery->discardEntry(entry);
        }
    }
    return restored;
}

void MainWindow::addRecentFile(const QString& path)
{
    documentfiles::addRecentFile(path);
    updateRecentMenu();
}

void MainWindow::removeRecentFile(const QString& path)
{
    if (documentfiles::removeRecentFile(path))
        updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = documentfiles::recentFiles();
    for (const QString& f : files) {
        m_recentMenu
            ->addAction(QFileInfo(f).fileName(), this,
                        [this, f] {
                            // Later: opening rebuilds this menu, which deletes the action being triggered.
                            QTimer::singleShot(0, this, [this, f] {
                                if (maybeSave())
                                    openFile(f);
                            });
                        })
            ->setToolTip(f);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

QStringList MainWindow::includeDirs() const
{
    return FileOptions::load(m_file).includeDirs;
}
QStringList MainWindow::defsyms() const
{
    return FileOptions::load(m_file).defsyms;
}
FileOptions MainWindow::fileOptions() const
{
    return FileOptions::load(m_file);
}

void MainWindow::loadFileSettings()
{
    // Include paths, --defsym values, limits and the include rule are remembered per file; the
    // file's own directory is searched first, as the assembler does for a relative .include.
    AnalysisRequest request = m_bridge->request();
    FileOptions::load(m_file).applyTo(request.assemble, m_file);
    m_bridge->setRequest(request);
    m_dialect->setFileGroup(QStringLiteral("files/%1").arg(fileKey(m_file)));
}

bool MainWindow::setFileOptions(const FileOptions& options, QString* error)
{
    if (const QString message = options.validate(); !message.isEmpty()) {
        if (error)
            *error = message;
        return false;
    }
    options.save(m_file);
    loadFileSettings();
    return true;
}

bool MainWindow::setAssemblerOptions(const QStringList& includeDirs, const QStringList& defsyms, QString* error)
{
    FileOptions options = FileOptions::load(m_file);
    options.includeDirs = includeDirs;
    options.defsyms = defsyms;
    return setFileOptions(options, error);
}

void MainWindow::editAssemblerOptions()
{
    FileOptions options = FileOptions::load(m_file);
    if (editFileOptions(this, m_file, options))
        setFileOptions(options);
}

void MainWindow::readSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1500, 920);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_summary->setGpu(settings.value(QStringLiteral("gpu"), QStringLiteral("tahiti")).toString());
    m_showFreed->setChecked(settings.value(QStringLiteral("view/showFreed"), false).toBool());
    TimingOptions options;
    settings.beginGroup(QStringLiteral("model"));
    for (const auto& [name, value] : options.values()) {
        const QString key = QString::fromStdString(name);
        if (settings.contains(key) && !options.set(name, settings.value(key).toString().toStdString()).empty())
            qCWarning(lcFiles) << "ignoring the saved model option" << key << settings.value(key);
    }
    settings.endGroup();
    m_summary->setOptions(options);
    applyOptions(options);
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
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    if (maybeSave() && openFile(urls.first().toLocalFile()) && urls.size() > 1)
        m_status->setText(tr("Opened the first of %1 dropped files").arg(urls.size()));
}

} // namespace gcnlens::ui
