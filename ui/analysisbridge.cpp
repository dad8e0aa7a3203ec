// SPDX-License-Identifier: MIT
#include "ui/analysisbridge.h"

#include "core/input/detect.h"
#include "core/input/listingreader.h"
#include "ui/logging.h"

#include <QElapsedTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace gcnlens::ui {

// What the jobs build on, used by one job at a time (the pool has one thread).
struct AnalysisBridge::Engine {
    // LLVM runs in a worker process (issue #12): a crash or hang there costs this job, not the window.
    std::unique_ptr<IsolatedFrontEnd> frontEnd = std::make_unique<IsolatedFrontEnd>();
    Analyzer analyzer;
    SnapshotPtr last; // the last job's result, delivered or not: the Analyzer's reference point
    std::vector<SnapshotPtr> garbage; // results replaced as `last`, freed after the job is out
};

AnalysisBridge::AnalysisBridge(QObject* parent)
    : QObject(parent)
    , m_engine(std::make_shared<Engine>())
{
    qRegisterMetaType<SnapshotPtr>();
    m_pool.setMaxThreadCount(1);
    m_debounce.setSingleShot(true);
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
    if (m_lastJobMs <= kImmediateMs && !m_running && !m_paused) {
        // Start now rather than at the next event loop turn: the job then runs while the UI
        // thread repaints the keystroke, instead of after it.
        ++m_requested;
        m_debounce.stop();
        start();
        return;
    }
    schedule(m_lastJobMs <= kImmediateMs ? 0 : m_debounceInterval);
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
    m_request.lds.phases = options.ldsPhases;
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

void AnalysisBridge::cancel()
{
    if (m_running)
        m_engine->frontEnd->cancel();
}

void AnalysisBridge::schedule(int delay)
{
    ++m_requested;
    // A long job that a newer request supersedes is cancelled (its worker ends); quick ones (the
    // editor's incremental path) run out, so that the worker keeps what it learnt.
    if (m_running && m_jobTimer.isValid() && m_jobTimer.elapsed() > kCancelAfterMs)
        cancel();
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
    m_jobTimer.start();
    const quint64 job = m_requested;
    Q_EMIT analysisStarted(job);

    auto work = [source = m_source, request = m_request, engine = m_engine, job]() {
        QElapsedTimer timer;
        timer.start();
        auto snapshot = std::make_shared<AnalysisSnapshot>();
        snapshot->job = job;
        snapshot->source = source;
        snapshot->request = request;
        const SnapshotPtr last = engine->last;
        try {
            // Re-assembling is only needed when the text or the assembler options changed; branch
            // and model-option changes re-run the models on the program we have.
            const bool sameProgram = last && last->source == source && last->request.assemble.gpu == request.assemble.gpu
                && last->request.assemble.includeDirs == request.assemble.includeDirs
                && last->request.assemble.defsyms == request.assemble.defsyms
                && last->request.assemble.dialect == request.assemble.dialect
                && last->request.assemble.fileName == request.assemble.fileName;
            const Analysis* previous = last ? &last->analysis : nullptr;
            if (sameProgram) {
                snapshot->analysis = engine->analyzer.analyze(last->analysis.program, request, previous);
            } else {
                const QByteArray utf8 = source.toUtf8();
                const std::string_view text(utf8.constData(), size_t(utf8.size()));
                // A disassembly listing (a pasted one, or a code object's) is read, not assembled.
                if (input::looksLikeListing(text)) {
                    const Program program = input::readListing(text, request.assemble);
                    snapshot->analysis = engine->analyzer.analyze(program, request, previous);
                } else {
                    const Program& program = engine->frontEnd->analyze(text, request.assemble);
                    if (engine->frontEnd->lastOutcome() == IsolatedFrontEnd::Outcome::Crashed
                        || engine->frontEnd->lastOutcome() == IsolatedFrontEnd::Outcome::TimedOut
                        || engine->frontEnd->lastOutcome() == IsolatedFrontEnd::Outcome::Cancelled) {
                        // The assembler failed on this text: keep showing the last good analysis with the
                        // error on the line it reached. `last` stays the reference for the next job.
                        snapshot->analysis = last ? last->analysis : analyzeProgram(program, request);
                        if (last)
                            snapshot->analysis.program.diagnostics.push_back(program.diagnostics.back());
                        snapshot->assemblerFailed = true;
                        snapshot->lines = LineAnnotations::build(snapshot->analysis);
                        snapshot->milliseconds = double(timer.nsecsElapsed()) / 1e6;
                        return SnapshotPtr(std::move(snapshot));
                    }
                    snapshot->analysis = engine->analyzer.analyze(program, request, previous);
                }
            }
            snapshot->lines = LineAnnotations::build(snapshot->analysis);
            engine->last = snapshot;
        } catch (const std::exception& e) {
            // The core reports bad input as diagnostics; anything thrown is a bug, shown rather than lost.
            snapshot->analysis = Analysis{};
            snapshot->analysis.program.diagnostics.push_back({Severity::Error, 1, 0, std::string("internal error: ") + e.what(), {}});
            snapshot->lines = LineAnnotations::build(snapshot->analysis);
            engine->last.reset(); // nothing consistent to build on
            engine->frontEnd = std::make_unique<IsolatedFrontEnd>();
        }
        if (last)
            engine->garbage.push_back(last);
        snapshot->milliseconds = double(timer.nsecsElapsed()) / 1e6;
        return SnapshotPtr(std::move(snapshot));
    };

    QtConcurrent::run(&m_pool, std::move(work)).then(this, [this](SnapshotPtr snapshot) {
        m_running = false;
        m_lastJobMs = snapshot->milliseconds;
        qCDebug(lcBridge) << "job" << snapshot->job << "took" << snapshot->milliseconds << "ms; newest" << m_requested;
        if (snapshot->job != m_requested) { // newest request wins: drop and run the newer one
            if (!m_debounce.isActive() && !m_paused)
                start();
            return;
        }
        SnapshotPtr replaced = std::exchange(m_current, snapshot);
        Q_EMIT analysisReady(snapshot);
        if (replaced)
            m_garbage.push_back(std::move(replaced));
    });
    // Freeing a 10k-line analysis is not the UI's work, nor the next result's: the snapshots the
    // views let go of are freed on the worker right after this job, once its result is out.
    auto garbage = std::make_shared<std::vector<SnapshotPtr>>(std::move(m_garbage));
    m_garbage.clear();
    m_pool.start([garbage, engine = m_engine] {
        garbage->clear();
        engine->garbage.clear();
    });
}

} // namespace gcnlens::ui
