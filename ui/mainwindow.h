// SPDX-License-Identifier: MIT
// The gcnlens window: the editor in the middle, summary / occupancy / LDS / problems docks around
// it, files (open, save, recent, drag and drop, large files in chunks), crash recovery and settings.
#pragma once

#include "ui/analysisbridge.h"

#include <QMainWindow>

class QAction;
class QLabel;
class QMenu;
class QTimer;
class QTreeView;

namespace gcnlens::ui {

class CodeEditor;
class SummaryDock;
class OccupancyDock;
class LdsDock;
class ProblemsModel;
class RecoveryStore;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a file; files above chunkThreshold() bytes stream in with a cancellable progress dialog.
    bool openFile(const QString& path);
    bool save();
    bool saveAs(const QString& path = {});
    void setGpu(const QString& name);
    // Offers left-over recovery files back (after a crash); returns true if one was restored.
    bool offerRecovery();
    void setRecoveryStore(std::unique_ptr<RecoveryStore> store);
    void setAutosaveInterval(int milliseconds);
    static qint64 chunkThreshold() { return 2 * 1024 * 1024; }

    CodeEditor* editor() const { return m_editor; }
    AnalysisBridge* bridge() const { return m_bridge; }
    SummaryDock* summary() const { return m_summary; }
    OccupancyDock* occupancy() const { return m_occupancy; }
    LdsDock* lds() const { return m_lds; }
    ProblemsModel* problemsModel() const { return m_problems; }
    QString currentFile() const { return m_file; }
    RecoveryStore* recoveryStore() const { return m_recovery.get(); }
    void autosaveNow();

Q_SIGNALS:
    void snapshotApplied(quint64 job);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createDocks();
    void applySnapshot(const SnapshotPtr& snapshot);
    bool maybeSave();
    void setCurrentFile(const QString& path);
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void updateTitle();
    void loadFileSettings();
    void editAssemblerOptions();
    void readSettings();
    void writeSettings();

    CodeEditor* m_editor;
    AnalysisBridge* m_bridge;
    SummaryDock* m_summary = nullptr;
    OccupancyDock* m_occupancy = nullptr;
    LdsDock* m_lds = nullptr;
    ProblemsModel* m_problems = nullptr;
    QTreeView* m_problemsView = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_status = nullptr;
    QTimer* m_autosave = nullptr;
    std::unique_ptr<RecoveryStore> m_recovery;
    QString m_file;
    bool m_loading = false;
};

} // namespace gcnlens::ui
