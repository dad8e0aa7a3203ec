// SPDX-License-Identifier: MIT
// The one QObject between the Qt-free core and the views: takes the editor's text and the request
// (GPU, model options, branch overrides), runs the core on a worker thread and hands the result
// back as a typed signal. Debounced; at most one job runs, and only the newest request's result is
// ever delivered (older ones are dropped on arrival), so the UI never shows stale lines.
// Each job builds on the one before it: the FrontEnd re-assembles only the edited lines and the
// Analyzer re-runs the models only near the edit (core/analysis.h); results equal a fresh run.
// The text is held once, by the editor's QTextDocument (issue #11 item 6): the bridge takes a
// whole text only on open (setSource) and otherwise the lines each edit changed
// (documentChanged), coalesced while a job runs; the assembler worker keeps its own copy and
// asks for the whole text again only when it lost it (a restart) or it went out of step.
#pragma once

#include "core/analysis.h"
#include "core/asm/assembler.h"
#include "core/asm/isolated.h"
#include "ui/editor/annotations.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QTimer>

class QTextDocument;

#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace gcnlens::ui {

struct AnalysisSnapshot {
    quint64 job = 0;
    quint64 textGeneration = 0; // the text it analysed (AnalysisBridge::textGeneration())
    // The analysed text is the bridge's editor document at this revision (the bridge keeps no copy
    // of it, issue #11 item 6), or `source` where a whole text was given without a document
    // (setSource alone; tests). text() gives it on the UI thread while it is still there.
    QPointer<const QTextDocument> document;
    int documentRevision = -1;
    QString source;
    QString text() const;
    AnalysisRequest request;
    Analysis analysis;
    LineAnnotations lines;
    double milliseconds = 0; // wall time of the job
    // The assembler crashed, timed out or was cancelled on `source` (issue #12): `analysis` is the
    // last good one, with that error added on the line reached.
    bool assemblerFailed = false;
    bool listing = false;   // the text is a disassembly listing (read whole, not assembled by edits)
    bool needsText = false; // not delivered: the worker asked for the whole text (the bridge sends it)
    bool cancelled = false; // not delivered: a newer request superseded it (its model passes stopped)
};
using SnapshotPtr = std::shared_ptr<const AnalysisSnapshot>;

class AnalysisBridge : public QObject {
    Q_OBJECT
public:
    explicit AnalysisBridge(QObject* parent = nullptr);
    ~AnalysisBridge() override;

    // Text changes start at once while analyses are quick (the last one took at most
    // kImmediateMs: the editor's incremental path), else after the debounce interval; request
    // changes run at the next event loop turn (so that several of them make one job).
    void setSource(const QString& source);
    static constexpr double kImmediateMs = 16;
    // The editor's document: documentChanged() reads the edited lines from it, and a whole text
    // when the worker asks for one. Without it, the bridge keeps the last setSource() text.
    void setDocument(const QTextDocument* document);
    // QTextDocument::contentsChange of the document, after the change (not format-only changes).
    void documentChanged(int position, int removed, int added);
    // Counts every text change (setSource, documentChanged): a snapshot of the text on screen has
    // this textGeneration.
    quint64 textGeneration() const { return m_textGeneration; }
    void setRequest(const AnalysisRequest& request);
    const AnalysisRequest& request() const { return m_request; }
    void setGpu(const QString& name);
    void setTimingOptions(const TimingOptions& options);
    // Flips/sets the assumed direction of the branch on a line (timing-model.md section 3).
    void setBranchDirection(int line, Direction direction);
    void clearBranchOverrides();

    void setDebounceInterval(int milliseconds) { m_debounceInterval = milliseconds; }
    // Suspends analysis while a large file streams into the editor.
    void setPaused(bool paused);
    // Skips the debounce and starts now (tests, file open). Nothing to do when the running job is
    // already of the newest request (setSource() starts one at once when the last job was quick).
    void analyzeNow();

    // Ends the running job's assembler (a runaway analysis); its snapshot keeps the last good
    // analysis. A newer request cancels a job running longer than kCancelAfterMs by itself.
    void cancel();
    static constexpr int kCancelAfterMs = 500;

    // The line the running job's assembler has reached (0 when none is running).
    int lineReached() const;

    SnapshotPtr current() const { return m_current; }
    bool busy() const { return m_running; }
    // The current snapshot is of the latest text and no job runs: what a test or a benchmark
    // waits for after typing (other requests, such as options, are not compared).
    bool upToDate() const { return m_current && !m_running && m_current->textGeneration == m_textGeneration; }

Q_SIGNALS:
    void analysisStarted(quint64 job);
    void analysisReady(gcnlens::ui::SnapshotPtr snapshot);

private:
    void schedule(int delay);
    void start();
    void textChanged();
    void supersede();
    void releaseGarbage();
    QString wholeText() const;

    struct Engine;
    QThreadPool m_pool; // one thread: the engine's caches are used by one job at a time
    std::shared_ptr<Engine> m_engine;
    QTimer m_debounce;
    int m_debounceInterval = 150;
    double m_lastJobMs = 0; // wall time of the last finished job
    // What the next job sends: a whole text (open, reset, resync), else the lines edited since
    // the last job as one run (first, oldCount → newCount lines of the document), else nothing.
    const QTextDocument* m_document = nullptr;
    QString m_fallbackText; // the last setSource() text, only when there is no document
    bool m_pendingWhole = false;
    QString m_pendingSource;            // when m_pendingWhole and not m_pendingFromDocument
    bool m_pendingFromDocument = false; // the whole text is read from the document at the job's start
    size_t m_wholeHash = 0;             // of the last whole text, while no edit followed it
    bool m_wholeHashValid = false;
    bool m_pendingEdit = false;
    int m_editFirst = 0, m_editOld = 0, m_editNew = 0;
    int m_lines = 1;        // the line count of the text the jobs know
    bool m_listing = false; // the text is a listing: read whole, not assembled by edits
    quint64 m_textGeneration = 0;
    AssembleOptions m_sentAssemble; // the assembler options the last job ran with
    AnalysisRequest m_request;
    quint64 m_requested = 0;  // id of the newest request
    quint64 m_runningJob = 0; // id of the running job's request, while m_running
    bool m_running = false;
    std::stop_source m_jobStop;   // the running job's: a newer request stops its model passes
    bool m_cancelledLast = false; // the last job was cancelled (the next one is not)
    QElapsedTimer m_jobTimer;     // since the running job started
    bool m_paused = false;
    SnapshotPtr m_current;
    std::vector<SnapshotPtr> m_garbage; // snapshots the views let go of, freed on the worker
};

} // namespace gcnlens::ui

Q_DECLARE_METATYPE(gcnlens::ui::SnapshotPtr)
