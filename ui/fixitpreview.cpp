// SPDX-License-Identifier: MIT
#include "ui/fixitpreview.h"
#include "ui/docks/problemsview.h"

#include "core/asm/isolated.h"
#include "core/input/detect.h"
#include "ui/docks/problemsmodel.h"
#include "ui/editor/codeeditor.h"

#include <QAbstractItemView>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace gcnlens::ui {

namespace {

// Added lines green, removed red, hunk headers (rule and delta) bold.
class DiffHighlighter : public QSyntaxHighlighter {
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString& text) override
    {
        QTextCharFormat format;
        if (text.startsWith(QLatin1String("@@"))) {
            format.setFontWeight(QFont::Bold);
        } else if (text.startsWith(QLatin1String("+++")) || text.startsWith(QLatin1String("---"))) {
            format.setForeground(QColor(0x80, 0x80, 0x80));
        } else if (text.startsWith(QLatin1Char('+'))) {
            format.setForeground(QColor(0x1a, 0x7f, 0x37));
            format.setBackground(QColor(0x1a, 0x7f, 0x37, 40));
        } else if (text.startsWith(QLatin1Char('-'))) {
            format.setForeground(QColor(0xcf, 0x22, 0x2e));
            format.setBackground(QColor(0xcf, 0x22, 0x2e, 40));
        } else {
            return;
        }
        setFormat(0, int(text.size()), format);
    }
};

// The document position of (line, UTF-8 byte column); a line past the last is the end.
int documentPosition(const QTextDocument* document, int line, int column)
{
    if (line > document->blockCount())
        return document->characterCount() - 1;
    const QTextBlock block = document->findBlockByNumber(std::max(line, 1) - 1);
    const QByteArray utf8 = block.text().toUtf8();
    const int characters = int(QString::fromUtf8(utf8.left(std::clamp(column, 0, int(utf8.size())))).size());
    return block.position() + characters;
}

QString findingTitle(const FindingRef& f)
{
    return QStringLiteral("%1 line %2").arg(QString::fromStdString(f.rule)).arg(f.line);
}

std::string diffPath(const SnapshotPtr& snapshot)
{
    const QString name = QFileInfo(QString::fromStdString(snapshot->request.assemble.fileName)).fileName();
    return (name.isEmpty() ? QStringLiteral("kernel.s") : name).toStdString();
}

} // namespace

void applyFixIt(QPlainTextEdit* editor, const FixIt& fix)
{
    QTextDocument* document = editor->document();
    std::vector<std::pair<std::pair<int, int>, const TextEdit*>> spans;
    for (const TextEdit& e : fix.edits)
        spans.push_back({{documentPosition(document, e.line, e.column), documentPosition(document, e.endLine, e.endColumn)}, &e});
    // From the end backwards, so that each edit's positions are still the original text's.
    std::stable_sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.first.first > b.first.first; });
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (const auto& [range, edit] : spans) {
        cursor.setPosition(range.first);
        cursor.setPosition(std::max(range.first, range.second), QTextCursor::KeepAnchor);
        cursor.insertText(QString::fromStdString(edit->text));
    }
    cursor.endEditBlock();
}

FixItPreview::FixItPreview(SnapshotPtr snapshot, FindingRef finding, QPlainTextEdit* editor, QWidget* parent)
    : QDialog(parent)
    , m_snapshot(std::move(snapshot))
    , m_finding(std::move(finding))
    , m_editor(editor)
    , m_text(m_snapshot ? m_snapshot->text() : QString())
    , m_summary(new QLabel(tr("Measuring the fix: assembling and analysing the edited text…")))
    , m_diff(new QPlainTextEdit)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Apply | QDialogButtonBox::Cancel))
{
    setWindowTitle(tr("Preview Fix: %1").arg(findingTitle(m_finding)));
    setObjectName(QStringLiteral("FixItPreview"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new DiffHighlighter(m_diff->document());
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(false);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] { apply(); });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_diff, 1);
    layout->addWidget(m_buttons);
    resize(720, 420);

    // Each candidate is assembled and analysed again: off the UI thread, in a worker process of
    // its own (the bridge's worker keeps serving the editor meanwhile). The job holds only values.
    connect(&m_watcher, &QFutureWatcher<std::optional<FixIt>>::finished, this, [this] {
        m_fix = m_watcher.result();
        showResult();
    });
    m_watcher.setFuture(QtConcurrent::run(
        [snapshot = m_snapshot, finding = m_finding, cancelled = m_cancelled, text = m_text]() -> std::optional<FixIt> {
            if (!snapshot || snapshot->assemblerFailed || text.isNull())
                return std::nullopt;
            const QByteArray utf8 = text.toUtf8();
            const std::string source(utf8.constData(), std::size_t(utf8.size()));
            if (input::looksLikeListing(source))
                return std::nullopt; // a listing's encodings are given, not assembled: nothing to edit
            IsolatedFrontEnd frontEnd;
            const AssembleOptions options = snapshot->request.assemble;
            return findFixIt(source, snapshot->analysis, snapshot->request, finding, [&](const std::string& text) {
                if (*cancelled) { // the dialog is gone: fail the candidate at once
                    Program none;
                    none.diagnostics.push_back({Severity::Error, 1, 0, "cancelled", {}});
                    return none;
                }
                return frontEnd.assemble(text, options);
            });
        }));
}

FixItPreview::~FixItPreview()
{
    *m_cancelled = true;
}

QString FixItPreview::diffText() const
{
    return m_diff->toPlainText();
}

QString FixItPreview::summaryText() const
{
    return m_summary->text();
}

void FixItPreview::showResult()
{
    m_ready = true;
    if (!m_fix) {
        m_summary->setText(tr("No fix-it removes %1 without a new hazard (or, for a fetch or branch penalty, with a gain).")
                               .arg(findingTitle(m_finding)));
    } else {
        const QByteArray utf8 = m_text.toUtf8();
        const std::string diff =
            unifiedDiff(diffPath(m_snapshot), std::string(utf8.constData(), std::size_t(utf8.size())), {*m_fix});
        m_diff->setPlainText(QString::fromStdString(diff));
        m_summary->setText(tr("%1: %2 (single-wave %3 → %4 cycles, measured on the edited text): %5")
                               .arg(findingTitle(m_finding), QString::fromStdString(deltaText(m_fix->delta())))
                               .arg(m_fix->cyclesBefore)
                               .arg(m_fix->cyclesAfter)
                               .arg(QString::fromStdString(m_fix->summary)));
        m_buttons->button(QDialogButtonBox::Apply)->setEnabled(true);
    }
    Q_EMIT measured();
}

bool FixItPreview::apply()
{
    if (!m_fix || !m_editor)
        return false;
    if (m_editor->toPlainText() != m_text) {
        m_summary->setText(tr("The text changed since this fix was measured: preview it again."));
        m_buttons->button(QDialogButtonBox::Apply)->setEnabled(false);
        return false;
    }
    applyFixIt(m_editor, *m_fix);
    accept();
    return true;
}

void addFixItActions(QMenu* menu, const SnapshotPtr& snapshot, QPlainTextEdit* editor, int line, QWidget* parent)
{
    if (!snapshot || !editor || snapshot->text() != editor->toPlainText())
        return;
    const std::vector<FindingRef> findings = fixableFindingsOnLine(snapshot->analysis, line);
    if (!findings.empty() && !menu->isEmpty())
        menu->addSeparator();
    for (const FindingRef& f : findings)
        menu->addAction(QObject::tr("Preview Fix for %1…").arg(findingTitle(f)), parent, [snapshot, f, editor, parent] {
            auto* dialog = new FixItPreview(snapshot, f, editor, parent);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->open();
        });
}

void installFixItMenus(QPlainTextEdit* editor, QAbstractItemView* problems, AnalysisBridge* bridge)
{
    const auto addActions = [editor, bridge](QMenu* menu, int line, QWidget* parent) {
        addFixItActions(menu, bridge->current(), editor, line, parent);
    };
    if (editor) {
        editor->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(editor, &QWidget::customContextMenuRequested, editor, [editor, addActions](const QPoint& pos) {
            QMenu* menu = editor->createStandardContextMenu(pos);
            addActions(menu, editor->cursorForPosition(pos).blockNumber() + 1, editor);
            menu->exec(editor->viewport()->mapToGlobal(pos));
            delete menu;
        });
    }
    // The gutter's marker of a line: the same entries (its rows share the viewport's y).
    if (auto* code = qobject_cast<CodeEditor*>(editor); code && code->gutter()) {
        QWidget* gutter = code->gutter();
        gutter->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(gutter, &QWidget::customContextMenuRequested, gutter, [code, gutter, addActions](const QPoint& pos) {
            QMenu menu;
            addActions(&menu, code->cursorForPosition(QPoint(0, pos.y())).blockNumber() + 1, code);
            if (!menu.isEmpty())
                menu.exec(gutter->mapToGlobal(pos));
        });
    }
    if (auto* view = qobject_cast<ProblemsView*>(problems)) {
        // The Problems dock's own finding menu ("Go to producer") takes the entries through its
        // hook (ProblemsView::findingMenuRequested), for the finding's line.
        QObject::connect(view, &ProblemsView::findingMenuRequested, view,
                         [view, bridge, addActions](const FindingKey& key, QMenu* menu) {
                             const SnapshotPtr snapshot = bridge->current();
                             if (!snapshot)
                                 return;
                             for (const FindingView& f : snapshot->lines.findings())
                                 if (f.key == key) {
                                     menu->addSeparator();
                                     addActions(menu, f.line, view->window());
                                     return;
                                 }
                         });
    } else if (problems) {
        problems->setContextMenuPolicy(Qt::CustomContextMenu);
        QObject::connect(problems, &QWidget::customContextMenuRequested, problems, [problems, addActions](const QPoint& pos) {
            const QModelIndex index = problems->indexAt(pos);
            if (!index.isValid())
                return;
            QMenu menu;
            addActions(&menu, index.data(ProblemsModel::LineRole).toInt(), problems->window());
            if (!menu.isEmpty())
                menu.exec(problems->viewport()->mapToGlobal(pos));
        });
    }
}

} // namespace gcnlens::ui
