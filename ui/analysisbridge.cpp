// SPDX-License-Identifier: MIT
#include "ui/analysisbridge.h"
#include "ui/logging.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace gcnlens::ui {

AnalysisBridge::AnalysisBridge(QObject* parent)
    : QObject(parent)
    , m_frontEnd(std::make_shared<FrontEnd>())
{
    qRegisterMetaType<SnapshotPtr>();
    m_pool.setMaxThreadCount(1);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(150);
    connect(&m_debounce, &QTimer::timeout, this, &AnalysisBridge::start);
}

AnalysisBridge::~AnalysisBridge()
{
    // The continuation is bound to this object and is dropped with it; wait for the worker so
    // that it does not outlive the FrontEnd's users.
    m_pool.waitForDone();
}

void AnalysisBridge::setSource(const QString& source)
{
    if (source == m_source && m_current)
        return;
    m_source = source;
    schedule(m_debounce.interval());
}

void AnalysisBridge::setRequest(const AnalysisRequest& request)
{
    m_request = request;
    schedule(0);
}

void AnalysisBridge::setGpu(const QString& name)
{
    m_request.assemble.gpu = name.toStdString();
    schedule(0);
}

void AnalysisBridge::setTimingOptions(const TimingOptions& options)
{
    m_request.timing = options;
    m_request.lds.groupDwords = options.ldsGroupDwords;
    schedule(0);
}

void AnalysisBridge::setBranchDirection(int line, Direction direction)
{
    m_request.branches.byLine[line] = direction;
    schedule(0);
}

void AnalysisBridge::clearBranchOverrides()
{
    m_request.branches.byLine.clear();
    schedule(0);
}

void AnalysisBridge::setPaused(bool paused)
{
    m_paused = paused;
    if (!paused)
        schedule(0);
}

void AnalysisBridge::analyzeNow()
{
    ++m_requested;
    m_debounce.stop();
    start();
}

void AnalysisBridge::schedule(int delay)
{
    ++m_requested;
    if (m_paused)
        return;
    m_debounce.start(delay);
}

void AnalysisBridge::start()
{
    if (m_paused)
        return;
    if (m_running) // the finishing job sees a newer request id and starts again
        return;
    m_running = true;
    const quint64 job = m_requested;
    Q_EMIT analysisStarted(job);

    // Re-assembling is only needed when the text or the assembler options changed; branch and
    // model-option changes re-run the models on the program we have (core's analyzeProgram).
    const SnapshotPtr previous = m_current;
    const bool reuseProgram = previous && previous->source == m_source
        && previous->request.assemble.gpu == m_request.assemble.gpu
        && previous->request.assemble.includeDirs == m_request.assemble.includeDirs
        && previous->request.assemble.defsyms == m_request.assemble.defsyms
        && previous->request.assemble.fileName == m_request.assemble.fileName;

    auto work = [source = m_source, request = m_request, frontEnd = m_frontEnd, previous, reuseProgram, job]() {
        QElapsedTimer timer;
        timer.start();
        auto snapshot = std::make_shared<AnalysisSnapshot>();
        snapshot->job = job;
        snapshot->source = source;
        snapshot->request = request;
        try {
            if (reuseProgram) {
                snapshot->analysis = analyzeProgram(previous->analysis.program, request);
            } else {
                const QByteArray utf8 = source.toUtf8();
                snapshot->analysis = runAnalysis(std::string_view(utf8.constData(), size_t(utf8.size())), request, frontEnd.get());
            }
        } catch (const std::exception& e) {
            // The core reports bad input as diagnostics; anything thrown is a bug, shown rather than lost.
            snapshot->analysis = Analysis{};
            snapshot->analysis.program.diagnostics.push_back({Severity::Error, 1, 0, std::string("internal error: ") + e.what(), {}});
        }
        snapshot->lines = LineAnnotations::build(snapshot->analysis);
        snapshot->milliseconds = double(timer.nsecsElapsed()) / 1e6;
        return SnapshotPtr(std::move(snapshot));
    };

    QtConcurrent::run(&m_pool, std::move(work)).then(this, [this](SnapshotPtr snapshot) {
        m_running = false;
        qCDebug(lcBridge) << "job" << snapshot->job << "took" << snapshot->milliseconds << "ms; newest" << m_requested;
        if (snapshot->job != m_requested) { // newest request wins: drop and run the newer one
            if (!m_debounce.isActive() && !m_paused)
                start();
            return;
        }
        m_current = snapshot;
        Q_EMIT analysisReady(snapshot);
    });
}

} // namespace gcnlens::ui
