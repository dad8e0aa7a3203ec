// SPDX-License-Identifier: MIT
// The gcnlens window: the editor in the middle, summary / occupancy / LDS / problems docks around
// it, files (open, save, recent, drag and drop, large files in time slices), crash recovery and
// settings.
//
// Large texts. A text is inserted into the editor in slices of about 10 ms with a cancellable
// progress dialog, so the window keeps repainting while a big file opens; cancelling puts the
// previous text back. A text of more than largeTextLines() lines (100,000 by default, ten times the
// 10k-instruction kernels the window is tuned for) opens without syntax colours: colouring lays out
// every line it colours (about 1 KB a line) and triples the time to open a 1M-line file, and
// re-colouring after a theme change would block for seconds. Above liveAnalysisLines() (1,000,000)
// live analysis is off as well: measured on a 1M-line file (tests/bench/bench_open), the window
// with the analysis on and typing peaks under 1 GiB, each keystroke repaints in about 20 ms and its
// analysis arrives about a second later; beyond that the memory grows past the issue #18 budget. A
// banner says which is off, and offers to analyse anyway (still off the UI thread). Lines are
// counted without the empty one after a final line break. Pasting (Ctrl+V) more than
// chunkThreshold() characters goes the same way, as one undo step. Files above maxFileSize() are refused with a
// message, as are binary files (a NUL byte) and files that cannot be read.
#pragma once

#include "core/input/loader.h"
#include "ui/analysisbridge.h"
#include "ui/docks/problemsview.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>
#include <QStringConverter>

class QAction;
class QFile;
class QFrame;
class QLabel;
class QMenu;
class QProgressDialog;
class QPushButton;
class QToolButton;
class QSyntaxHighlighter;
class QTimer;
class QTreeView;

namespace gcnlens::ui {

class CodeEditor;
class DialectSwitch;
class SummaryDock;
class OccupancyDock;
class LdsDock;
class ProblemsModel;
class ProblemsView;
class RecoveryStore;
struct FileOptions;
class FileWatch;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a file; on failure shows (and keeps in lastError()) a message naming the file and the
    // cause, and the text being edited stays as it was. Texts above chunkThreshold() bytes are
    // inserted with a progress dialog; cancelling it returns false and restores the previous text.
    bool openFile(const QString& path);
    bool save();
    bool saveAs(const QString& path = {});
    void setGpu(const QString& name);
    // Offers left-over recovery files back (after a crash); returns true if one was restored.
    bool offerRecovery();
    void setRecoveryStore(std::unique_ptr<RecoveryStore> store);
    void setAutosaveInterval(int milliseconds);
    static qint64 chunkThreshold() { return 256 * 1024; }

    // Above this many lines a loaded text gets no syntax colours (see above).
    int largeTextLines() const { return m_largeTextLines; }
    void setLargeTextLines(int lines) { m_largeTextLines = lines; }
    // Above this many lines it gets no live analysis either (analyseAnyway() turns it on).
    int liveAnalysisLines() const { return m_liveAnalysisLines; }
    void setLiveAnalysisLines(int lines) { m_liveAnalysisLines = lines; }
    qint64 maxFileSize() const { return m_maxFileSize; }
    void setMaxFileSize(qint64 bytes) { m_maxFileSize = bytes; }
    bool analysisCapped() const { return m_analysisCapped; }
    // Lifts the cap for the current text: analyses it in the background as for any other text.
    void analyseAnyway();

    // Include paths and --defsym NAME=VALUE entries for the current file, remembered per file.
    // Returns false (and an error naming the bad entry) without changing anything if one is invalid.
    bool setAssemblerOptions(const QStringList& includeDirs, const QStringList& defsyms, QString* error = nullptr);
    QStringList includeDirs() const;
    QStringList defsyms() const;
    // All of the current file's assembler options (ui/fileoptions.h: the limits and the include
    // rule too); false with the message, changing nothing, when an entry is invalid.
    FileOptions fileOptions() const;
    bool setFileOptions(const FileOptions& options, QString* error = nullptr);
    // The dialog behind File > Assembler Options (stays open, naming the entry, while one is bad).
    void editAssemblerOptions();

    CodeEditor* editor() const { return m_editor; }
    AnalysisBridge* bridge() const { return m_bridge; }
    SummaryDock* summary() const { return m_summary; }
    OccupancyDock* occupancy() const { return m_occupancy; }
    LdsDock* lds() const { return m_lds; }
    ProblemsModel* problemsModel() const { return m_problems; }
    ProblemsView* problemsView() const { return m_problemsView; }
    QMenu* recentMenu() const { return m_recentMenu; }
    QFrame* banner() const { return m_banner; }
    DialectSwitch* dialectSwitch() const { return m_dialect; }
    QToolButton* cancelButton() const { return m_cancel; }
    QString currentFile() const { return m_file; }
    // The editor's text, kept in step with every edit (reading QTextDocument::toPlainText() costs
    // ~0.4 µs per line, 400 ms on a 1M-line text: too much for every keystroke).
    const QString& text() const { return m_text; }
    QString lastError() const { return m_lastError; }
    // Batch runs (--screenshot): problems go to lastError(), the status bar and the log only; no
    // message box waits for a click that never comes.
    void setQuiet(bool quiet) { m_quiet = quiet; }
    RecoveryStore* recoveryStore() const { return m_recovery.get(); }
    void autosaveNow();

Q_SIGNALS:
    void snapshotApplied(quint64 job);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct Loaded;
    void createActions();
    void createDocks();
    void createBanner();
    void applySnapshot(const SnapshotPtr& snapshot);
    void documentEdited(int position, int removed, int added);
    bool readFile(const QString& path, Loaded* out);
    std::unique_ptr<QProgressDialog> makeProgress(const QString& label, bool cancellable);
    // Puts a loaded text in the editor (in slices; Cancel puts the previous text back).
    bool showText(Loaded& loaded, const QString& name);
    void analyseShownText(qsizetype lines);
    enum class Undo { None, NewStep, JoinPrevious }; // how a sliced insertion appears on the undo stack
    bool insertText(const QString& text, QProgressDialog* progress, int from, int to, Undo undo = Undo::None);
    void pasteLarge(QString text);
    void setHighlighting(bool on);
    void setCapped(bool capped, qsizetype lines);
    bool maybeSave();
    void reportError(const QString& title, const QString& message);
    void setCurrentFile(const QString& path);
    void fileChangedOnDisk(const QString& path);
    void showProgress();
    void fileRemovedFromDisk(const QString& path);
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    void updateRecentMenu();
    void updateTitle();
    void loadFileSettings();
    void applyOptions(const TimingOptions& options);
    void readSettings();
    void writeSettings();

    CodeEditor* m_editor;
    AnalysisBridge* m_bridge;
    DialectSwitch* m_dialect = nullptr; // status bar: LLVM / CLRX, per file (ui/dialectswitch.h)
    SummaryDock* m_summary = nullptr;
    OccupancyDock* m_occupancy = nullptr;
    LdsDock* m_lds = nullptr;
    ProblemsModel* m_problems = nullptr;
    ProblemsView* m_problemsView = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_showFreed = nullptr;
    QLabel* m_status = nullptr;
    QFrame* m_banner = nullptr;
    QLabel* m_bannerText = nullptr;
    QPushButton* m_analyseAnyway = nullptr;
    QTimer* m_autosave = nullptr;
    FileWatch* m_watch = nullptr;
    QToolButton* m_cancel = nullptr; // a runaway analysis: Cancel in the status bar
    QTimer* m_progressTimer = nullptr;
    QElapsedTimer m_analysisClock;
    QPointer<QSyntaxHighlighter> m_highlighter;
    std::unique_ptr<RecoveryStore> m_recovery;
    QString m_file;
    QString m_text;
    QString m_lastError;
    input::SourceFormat m_format; // the open file's encoding, BOM and line breaks (saved back the same way)
    qint64 m_maxFileSize = qint64(input::kMaxSourceBytes);
    int m_largeTextLines = 100000;
    int m_liveAnalysisLines = 1000000;
    bool m_loading = false;
    bool m_quiet = false;
    bool m_analysisCapped = false;
};

} // namespace gcnlens::ui
