// SPDX-License-Identifier: MIT
#include "ui/analysisbridge.h"

#include "core/input/detect.h"
#include "core/support/cancel.h"
#include "ui/logging.h"

#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTextBlock>
#include <QTextDocument>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include <utility>

namespace gcnlens::ui {

// What the jobs build on, used by one job at a time (the pool has one thread).
struct AnalysisBridge::Engine {
    // LLVM runs in a worker process (issue #12): a crash or hang there costs this job, not the window.
    std::unique_ptr<IsolatedFrontEnd> frontEnd = std::make_unique<IsolatedFrontEnd>();
    Analyzer analyzer;
    SnapshotPtr last;                 // the last job's result, delivered or not: the Analyzer's reference point
    std::vector<SnapshotPtr> garbage; // results replaced as `last`, freed after the job is out
};

namespace {

// What a job hands the front-end: the whole text, or the edit of the text it holds (an empty
// edit when only the assembler options changed), or nothing (the models only).
struct TextInput {
    enum Kind { Whole, Edit, None } kind = None;
    std::string text;  // Whole
    LineChange change; // Edit
};

// The options that change what the assembler makes of a text.
bool sameAssembly(const AssembleOptions& a, const AssembleOptions& b)
{
    return a.gpu == b.gpu && a.includeDirs == b.includeDirs && a.defsyms == b.defsyms && a.fileName == b.fileName
        && a.triple == b.triple && a.dialect == b.dialect && a.gpuFromSource == b.gpuFromSource
        && a.allowAnyInclude == b.allowAnyInclude && a.limits == b.limits;
}

int linesOf(const QString& text)
{
    return int(text.count(QLatin1Char('\n'))) + 1;
}

} // namespace

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

void AnalysisBridge::setDocument(const QTextDocument* document)
{
    m_document = document;
    m_fallbackText.clear();
}

void AnalysisBridge::setSource(const QString& source)
{
    const size_t hash = qHash(source);
    if (m_wholeHashValid && hash == m_wholeHash && m_current && !m_pendingEdit)
        return;
    m_wholeHash = hash;
    m_wholeHashValid = true;
    if (!m_document)
        m_fallbackText = source;
    // Converted to UTF-8 by the job, on its thread: at a million lines that is a few hundred ms
    // the window would stand still for.
    m_pendingSource = source;
    m_pendingWhole = true;
    m_pendingFromDocument = false;
    m_pendingEdit = false;
    m_lines = linesOf(source);
    textChanged();
}

void AnalysisBridge::documentChanged(int position, int removed, int added)
{
    Q_UNUSED(removed); // the line counts before and after say what it removed
    if (!m_document)
        return;
    m_wholeHashValid = false;
    // The lines the change covers now, and the number it replaced (from the change in line count).
    const int end = std::min(position + added, m_document->characterCount() - 1);
    const int first = m_document->findBlock(position).blockNumber();
    const int newCount = m_document->findBlock(std::max(end, position)).blockNumber() - first + 1;
    const int lines = m_document->blockCount();
    const int oldCount = newCount - (lines - m_lines);
    m_lines = lines;
    if (first < 0 || oldCount < 0) {
        setSource(wholeText()); // not a change the line counts explain: start again from the text
        return;
    }
    if (!m_pendingWhole) {
        if (!m_pendingEdit) {
            m_editFirst = first;
            m_editOld = oldCount;
            m_editNew = newCount;
        } else {
            // Compose with the pending edit: both as runs of the text between them.
            const int from = std::min(m_editFirst, first);
            const int to = std::max(m_editFirst + m_editNew, first + oldCount);
            m_editOld += to - from - m_editNew;
            m_editNew = to - from - oldCount + newCount;
            m_editFirst = from;
        }
        m_pendingEdit = true;
    } else {
        m_pendingSource.clear(); // the whole text is read when the job starts
        m_pendingFromDocument = true;
    }
    textChanged();
}

QString AnalysisSnapshot::text() const
{
    if (document && document->revision() == documentRevision)
        return document->toPlainText();
    return document || documentRevision >= 0 ? QString() : source;
}

QString AnalysisBridge::wholeText() const
{
    return m_document ? m_document->toPlainText() : m_fallbackText;
}

// A running job that a newer request supersedes stops its model passes at their next check
// (core/support/cancel.h) and publishes nothing, so that the newer one starts at once; the
// Analyzer's caches stay those of the last complete run. Not twice in a row: when typing outpaces
// every job, one still completes between the cancels.
void AnalysisBridge::supersede()
{
    if (m_running && !m_cancelledLast)
        m_jobStop.request_stop();
}

void AnalysisBridge::textChanged()
{
    ++m_textGeneration;
    supersede();
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
    // A new request id would drop the running job's result and run the models again on a copy of
    // its program: twice the work, and two analyses in memory (1.7 GB at a million lines, issue #18).
    if (m_running && m_runningJob == m_requested)
        return;
    ++m_requested;
    m_debounce.stop();
    start();
}

void AnalysisBridge::cancel()
{
    if (m_running)
        m_engine->frontEnd->cancel();
}

int AnalysisBridge::lineReached() const
{
    return m_running ? m_engine->frontEnd->lineReached() : 0;
}

void AnalysisBridge::schedule(int delay)
{
    ++m_requested;
    supersede();
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
    // What the front-end gets: read from the document now, once per job however many edits it covers.
    TextInput input;
    QString whole; // a whole text, made UTF-8 (input.text) by the job
    if (m_pendingWhole || m_textGeneration == 0 || (m_pendingEdit && m_listing)) {
        input.kind = TextInput::Whole;
        if (m_pendingWhole && !m_pendingFromDocument)
            whole = std::exchange(m_pendingSource, QString());
        else if (m_textGeneration > 0)
            whole = wholeText();
        m_lines = linesOf(whole);
    } else if (m_pendingEdit) {
        input.kind = TextInput::Edit;
        LineChange& change = input.change;
        change.first = m_editFirst;
        change.oldCount = m_editOld;
        change.newCount = m_editNew;
        change.linesAfter = m_lines;
        QString lines;
        QTextBlock block = m_document->findBlockByNumber(m_editFirst);
        for (int i = 0; i < m_editNew && block.isValid(); ++i, block = block.next()) {
            if (i)
                lines += QLatin1Char('\n');
            lines += block.text();
        }
        // The conversions toPlainText() makes; a line separator inside a block would be a line
        // the document does not count: the whole text then.
        lines.replace(QChar::Nbsp, QLatin1Char(' '));
        if (lines.contains(QChar::LineSeparator) || lines.contains(QChar::ParagraphSeparator)) {
            input.kind = TextInput::Whole;
            const QByteArray utf8 = wholeText().toUtf8();
            input.text.assign(utf8.constData(), size_t(utf8.size()));
        } else {
            const QByteArray utf8 = lines.toUtf8();
            change.text.assign(utf8.constData(), size_t(utf8.size()));
        }
    } else if (!sameAssembly(m_sentAssemble, m_request.assemble)) {
        input.kind = TextInput::Edit; // an empty edit: the worker's text with the new options
        input.change.linesAfter = m_lines;
    }
    m_pendingWhole = m_pendingEdit = false;
    m_pendingSource.clear();
    m_sentAssemble = m_request.assemble;
    m_running = true;
    m_runningJob = m_requested;
    m_jobTimer.start();
    m_jobStop = std::stop_source();
    const quint64 job = m_requested;
    Q_EMIT analysisStarted(job);

    // Where the job's text can be read again (fix-its, exports): the document at this revision.
    const QPointer<const QTextDocument> document(m_document);
    const int revision = m_document ? m_document->revision() : -1;
    const QString fallback = m_document ? QString() : m_fallbackText;
    auto work = [input = std::move(input), whole = std::move(whole), request = m_request, engine = m_engine, job,
                 generation = m_textGeneration, stop = m_jobStop.get_token(), document, revision, fallback]() mutable {
        QElapsedTimer timer;
        timer.start();
        if (!whole.isEmpty()) {
            const QByteArray utf8 = std::exchange(whole, QString()).toUtf8();
            input.text.assign(utf8.constData(), size_t(utf8.size()));
        }
        auto snapshot = std::make_shared<AnalysisSnapshot>();
        snapshot->job = job;
        snapshot->textGeneration = generation;
        snapshot->document = document;
        snapshot->documentRevision = revision;
        snapshot->source = fallback;
        snapshot->request = request;
        const SnapshotPtr last = engine->last;
        try {
            const Analysis* previous = last ? &last->analysis : nullptr;
            const Program* program = nullptr;
            Program listingRead;
            if (input.kind == TextInput::Whole) {
                const std::string_view text(input.text);
                // A disassembly listing (a pasted one, or a code object's) is read, not assembled;
                // in the worker too, since reading it assembles and disassembles.
                snapshot->listing = input::looksLikeListing(text);
                if (snapshot->listing) {
                    listingRead = engine->frontEnd->readListing(text, request.assemble);
                    program = &listingRead;
                } else {
                    program = &engine->frontEnd->analyze(text, request.assemble);
                }
            } else if (input.kind == TextInput::Edit && !(last && last->listing)) {
                // The worker splices the program `last` took from it (below); the splice's digest
                // proves `last` still holds it (a cancelled job's program never reached it).
                program = engine->frontEnd->edit(input.change, request.assemble, last ? &last->analysis.program : nullptr);
                if (!program) { // the worker holds no text this edit applies to: the UI sends it whole
                    snapshot->needsText = true;
                    return SnapshotPtr(std::move(snapshot));
                }
            } else if (!last || input.kind == TextInput::Edit) {
                snapshot->needsText = true; // nothing to build on (a listing's options changed, or after an error)
                return SnapshotPtr(std::move(snapshot));
            } else { // branch and model-option changes re-run the models on the program we have
                snapshot->listing = last->listing;
                snapshot->analysis = engine->analyzer.analyze(last->analysis.program, request, previous, stop);
            }
            if (program) {
                const auto outcome = engine->frontEnd->lastOutcome();
                if (outcome == IsolatedFrontEnd::Outcome::Crashed || outcome == IsolatedFrontEnd::Outcome::TimedOut
                    || outcome == IsolatedFrontEnd::Outcome::Cancelled) {
                    // The assembler (or the disassembler, reading a listing) failed on this text: keep
                    // showing the last good analysis with the error on the line it reached. `last`
                    // stays the reference for the next job.
                    snapshot->analysis = last ? last->analysis : analyzeProgram(*program, request);
                    if (last)
                        snapshot->analysis.program.diagnostics.push_back(program->diagnostics.back());
                    snapshot->assemblerFailed = true;
                    snapshot->lines = LineAnnotations::build(snapshot->analysis);
                    snapshot->milliseconds = double(timer.nsecsElapsed()) / 1e6;
                    return SnapshotPtr(std::move(snapshot));
                }
                // One copy of the program in memory, the analysis's (issue #18): a listing's is
                // ours to move, the front-end's is taken from it.
                Program owned = program == &listingRead ? std::move(listingRead) : engine->frontEnd->takeProgram(*program);
                snapshot->analysis = engine->analyzer.analyze(std::move(owned), request, previous, stop);
            }
            snapshot->lines = LineAnnotations::build(snapshot->analysis);
            engine->last = snapshot;
        } catch (const AnalysisCancelled&) {
            snapshot->cancelled = true; // superseded: dropped on arrival, `last` unchanged
            return SnapshotPtr(std::move(snapshot));
        } catch (const std::exception& e) {
            // The core reports bad input as diagnostics; anything thrown is a bug, shown rather than lost.
            snapshot->analysis = Analysis {};
            snapshot->analysis.program.diagnostics.push_back(
                {Severity::Error, 1, 0, std::string("internal error: ") + e.what(), {}});
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
        // Whatever becomes of the result: what the worker replaced as its `last`, and the snapshot
        // the views let go of, are freed on the worker (after the next job, if this starts one).
        const auto release = qScopeGuard([this] { releaseGarbage(); });
        m_running = false;
        m_cancelledLast = snapshot->cancelled;
        if (!snapshot->cancelled)
            m_lastJobMs = snapshot->milliseconds;
        if (snapshot->needsText) { // the worker lost the text (a restart) or went out of step
            qCDebug(lcBridge) << "job" << snapshot->job << "needs the whole text";
            if (!m_pendingWhole) {
                m_pendingWhole = m_pendingFromDocument = true;
                m_pendingEdit = false;
            }
            if (!m_paused)
                start();
            return;
        }
        if (!snapshot->assemblerFailed)
            m_listing = snapshot->listing;
        qCDebug(lcBridge) << "job" << snapshot->job << "took" << snapshot->milliseconds << "ms; newest" << m_requested;
        if (snapshot->job != m_requested || snapshot->cancelled) { // newest request wins: drop and run the newer one
            if (!m_debounce.isActive() && !m_paused)
                start();
            return;
        }
        SnapshotPtr replaced = std::exchange(m_current, snapshot);
        Q_EMIT analysisReady(snapshot);
        // The views hold the new result now: the one they let go of goes at once, not beside it
        // until the next job starts, which doubled what an idle window holds (issue #18).
        if (replaced)
            m_garbage.push_back(std::move(replaced));
    });
}

// Freeing a large analysis is not the UI's work: the snapshots the views let go of, and those the
// worker replaced, are freed on the worker's thread (after the job that runs, if any).
void AnalysisBridge::releaseGarbage()
{
    auto garbage = std::make_shared<std::vector<SnapshotPtr>>(std::move(m_garbage));
    m_garbage.clear();
    m_pool.start([garbage, engine = m_engine] {
        garbage->clear();
        engine->garbage.clear();
    });
}

} // namespace gcnlens::ui
