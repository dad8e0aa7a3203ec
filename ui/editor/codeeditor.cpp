// SPDX-License-Identifier: MIT
#include "ui/editor/codeeditor.h"
#include "ui/editor/pressurestrip.h"
#include "ui/editor/syntax.h"
#include "ui/logging.h"
#include "ui/palette.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QFontDatabase>
#include <QGuiApplication>
#include <QHelpEvent>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolTip>

#include <algorithm>
#include <limits>
#include <utility>

namespace gcnlens::ui {

class EditorGutter : public QWidget {
public:
    explicit EditorGutter(CodeEditor* editor)
        : QWidget(editor)
        , m_editor(editor)
    {
        setMouseTracking(true);
    }
    QSize sizeHint() const override { return QSize(int(m_editor->m_layout.width()), 0); }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }
    void mousePressEvent(QMouseEvent* event) override { m_editor->gutterPressed(event->position().toPoint()); }
    bool event(QEvent* event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            const QString text = m_editor->gutterToolTip(help->pos());
            if (text.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        return QWidget::event(event);
    }

private:
    CodeEditor* m_editor;
};

// QPlainTextDocumentLayout takes a change of charsRemoved + charsAdded characters from `from` as
// reaching that far into the new text. QSyntaxHighlighter reports a line whose colours changed as
// the whole line removed and re-added, so every keystroke that recolours its line (most do) made
// it relayout the next line too and repaint the whole view. The changed text of the new document
// is [from, from + charsAdded) (at least the character at `from`); handing it that repaints one
// line. Which lines are laid out again and what is repainted otherwise stays the base class's.
class EditorDocumentLayout : public QPlainTextDocumentLayout {
public:
    using QPlainTextDocumentLayout::QPlainTextDocumentLayout;

protected:
    void documentChanged(int from, int charsRemoved, int charsAdded) override
    {
        Q_UNUSED(charsRemoved);
        QPlainTextDocumentLayout::documentChanged(from, 0, std::max(charsAdded, 1));
    }
};

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new EditorGutter(this))
    , m_strip(new PressureStrip(this))
{
    connect(m_strip, &PressureStrip::lineActivated, this, [this](int line) { jumpToLine(line); });
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
        // The finding underlines are listed for the lines around the view (addFindingSelections).
        const int first = firstVisibleBlock().blockNumber() + 1;
        const int shown = int(viewport()->height() / std::max(1.0, QFontMetricsF(font()).lineSpacing())) + 1;
        if (!m_findingLines.empty() && (first < m_findingRange.first || first + shown > m_findingRange.second))
            updateExtraSelections();
    });
    auto* doc = new QTextDocument(this);
    doc->setDocumentLayout(new EditorDocumentLayout(doc));
    setDocument(doc);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 8);
    m_highlighter = new KSyntaxHighlighting::SyntaxHighlighter(document());
    m_highlighter->setDefinition(gcnDefinition());
    applyTheme();

    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] {
        updateGutterGeometry();
        m_gutter->update(); // the line numbers below the edit moved
        m_strip->setLineCount(blockCount());
    });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy) {
            m_gutter->scroll(0, dy);
        } else if (!rect.contains(viewport()->rect()) || firstVisibleBlock().blockNumber() != m_gutterFirstBlock) {
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
        }
        // A whole-viewport update with the same lines in view is a re-highlight or a horizontal
        // scroll (every keystroke that changes a line's colours re-lays out the view): nothing in
        // the gutter changes; line count changes and new analyses update it themselves.
    });
    // Keeps the visible blocks' glyph caches in step with the document's block numbers.
    m_glyphBlockCount = document()->blockCount();
    connect(document(), &QTextDocument::contentsChange, this, [this](int from, int, int) {
        const int count = document()->blockCount();
        if (count != m_glyphBlockCount) {
            // Blocks after the one holding the change moved by the difference (removed ones are
            // gone with their layouts; their numbers then name other blocks, which is harmless).
            const int changed = document()->findBlock(from).blockNumber();
            for (int& number : m_glyphBlocks)
                if (number > changed)
                    number += count - m_glyphBlockCount;
            m_glyphBlockCount = count;
        }
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        const int line = currentLine();
        updateExtraSelections();
        if (line != m_lastLine) {
            m_lastLine = line;
            Q_EMIT currentLineChanged(line);
        }
    });
    updateGutterGeometry();
}

CodeEditor::~CodeEditor() = default;

void CodeEditor::applyTheme()
{
    // Colours come from the KSyntaxHighlighting theme matching the palette (style.md 9); the
    // penalty colours are the theme's warning/error/information marks so they fit dark and light.
    m_applyingTheme = true;
    // The application palette decides dark/light: our own palette's Base is the theme's afterwards.
    const QPalette appPalette = QGuiApplication::palette();
    m_darkPalette = appPalette.color(QPalette::Base).lightness() < 128;
    const auto theme = themeFor(appPalette);
    m_highlighter->setTheme(theme);
    m_highlighter->rehighlight();

    QPalette pal = palette();
    const QColor bg = QColor::fromRgba(theme.editorColor(KSyntaxHighlighting::Theme::BackgroundColor));
    const QColor fg = QColor::fromRgba(theme.textColor(KSyntaxHighlighting::Theme::Normal));
    pal.setColor(QPalette::Base, bg);
    pal.setColor(QPalette::Text, fg);
    pal.setColor(QPalette::Highlight, QColor::fromRgba(theme.editorColor(KSyntaxHighlighting::Theme::TextSelection)));
    pal.setColor(QPalette::HighlightedText, fg);
    setPalette(pal);

    m_colors = AnalysisColors::fromTheme(theme);
    m_strip->setColors(m_colors);
    m_applyingTheme = false;
    updateExtraSelections();
    viewport()->update();
    m_gutter->update();
}

void CodeEditor::changeEvent(QEvent* event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && !m_applyingTheme) {
        // An application palette change (dark ↔ light) re-picks the theme; our own setPalette
        // above also arrives here, hence the guard.
        if ((QGuiApplication::palette().color(QPalette::Base).lightness() < 128) != m_darkPalette)
            applyTheme();
    } else if (event->type() == QEvent::FontChange) {
        updateGutterGeometry();
    }
}

void CodeEditor::setSnapshot(SnapshotPtr snapshot)
{
    const SnapshotPtr old = std::exchange(m_snapshot, std::move(snapshot));
    const double gutterWidth = m_layout.width();
    m_strip->setSnapshot(m_snapshot, blockCount());
    buildFindingSelections(old.get());
    updateGutterGeometry();
    updateExtraSelections(); // repaints only the underlines that changed
    if (!old || !m_snapshot || m_layout.width() != gutterWidth) {
        viewport()->update();
        m_gutter->update();
        return;
    }
    // Repaint only the visible lines drawn differently, and the text area only where bands or
    // shading change: each paint of a line draws its text again.
    const auto [textArea, gutter] = changedLines(*old, *m_snapshot);
    if (textArea.isEmpty() && gutter.isEmpty()) {
        // What is on screen is already this snapshot's: say so once the event loop turns.
        m_paintedJob = m_snapshot->job;
        QMetaObject::invokeMethod(this, [this, job = m_paintedJob] { Q_EMIT highlightsPainted(job); }, Qt::QueuedConnection);
        return;
    }
    viewport()->update(textArea);
    m_gutter->update(gutter); // the gutter's rows share the viewport's y coordinates
}

std::pair<QRegion, QRegion> CodeEditor::changedLines(const AnalysisSnapshot& before, const AnalysisSnapshot& after) const
{
    QRegion textArea, gutter;
    const QPointF offset = contentOffset();
    const int height = viewport()->height();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > height)
            break;
        if (!block.isVisible())
            continue;
        const int line = block.blockNumber() + 1;
        const LineAnnotation *a = before.lines.at(line), *b = after.lines.at(line);
        const int top = int(std::floor(r.top())), rowHeight = int(std::ceil(r.bottom()) - std::floor(r.top())) + 1;
        // One pixel row of the line above too: QPlainTextEdit then draws that line as well, and
        // for the current line (its full-width highlight clips its text to its own rows) a
        // repaint that starts exactly below it would let its glyphs overhang into this line.
        if (!LineAnnotation::textAreaAlike(a, b))
            textArea += QRect(0, top - 1, viewport()->width(), rowHeight + 1);
        if (!LineAnnotation::gutterAlike(a, b))
            gutter += QRect(0, top, m_gutter->width(), rowHeight);
    }
    return {textArea, gutter};
}

void CodeEditor::setShowFreed(bool show)
{
    m_showFreed = show;
    viewport()->update();
    m_gutter->update();
}

const LineAnnotation* CodeEditor::annotationAt(int line) const
{
    return m_snapshot ? m_snapshot->lines.at(line) : nullptr;
}

int CodeEditor::currentLine() const
{
    return textCursor().blockNumber() + 1;
}

void CodeEditor::jumpToLine(int line, int column)
{
    QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::min(column, block.length() - 1));
    setTextCursor(cursor);
    centerCursor();
    setFocus();
}

QRectF CodeEditor::lineRect(int line) const
{
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return {};
    return blockBoundingGeometry(block).translated(contentOffset());
}

int CodeEditor::lineAtY(double y) const
{
    QTextBlock block = firstVisibleBlock();
    const QPointF offset = contentOffset();
    while (block.isValid()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > y)
            break;
        if (y < r.bottom())
            return block.blockNumber() + 1;
        block = block.next();
    }
    return 0;
}

void CodeEditor::updateGutterGeometry()
{
    const double cw = QFontMetricsF(font()).horizontalAdvance(QLatin1Char('0'));
    const int lineDigits = QString::number(std::max({1, blockCount(), m_lineCountHint})).size();
    int offsetDigits = 4;
    if (m_snapshot)
        offsetDigits = std::max(4, int(QString::number(m_snapshot->lines.maxOffset(), 16).size()));
    // Issue #16: the live-register column is as wide as the largest counts need ("99v 99s" at least,
    // so that it does not widen as a kernel grows); issue #17: one character for the check mark.
    int pressure = 7;
    if (m_snapshot)
        pressure = std::max(pressure, pressureChars(m_snapshot->lines.maxLive(), m_snapshot->lines.hasAgprs()));
    const GutterLayout layout(cw, lineDigits, offsetDigits, 4, pressure, 1);
    if (layout.width() != m_layout.width()) {
        m_layout = layout;
        setViewportMargins(int(std::ceil(m_layout.width())), 0, PressureStrip::kWidth, 0);
    } else {
        m_layout = layout;
    }
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), int(std::ceil(m_layout.width())), cr.height()));
    const QRect vp = viewport()->geometry();
    m_strip->setGeometry(QRect(vp.right() + 1, vp.top(), PressureStrip::kWidth, vp.height()));
}

void CodeEditor::setLineCountHint(qsizetype lines)
{
    m_lineCountHint = int(std::clamp<qsizetype>(lines, 0, std::numeric_limits<int>::max()));
    updateGutterGeometry();
    m_gutter->update();
}

void CodeEditor::resizeEvent(QResizeEvent* event)
{
    // QPlainTextEdit lays every block out again when the width changes, though without wrapping
    // no line depends on it: QPlainTextDocumentLayout::setTextWidth clears each block's layout and
    // so creates one, a QTextLayout per line. At a million lines that was 300 MB and a second's
    // freeze when the first analysis widened the gutter (issue #18, heaptrack). Above
    // kRelayoutBlocks the change reaches it as a height change only: the layout keeps the width it
    // had, which no line depends on (the scroll range follows the widest line laid out).
    if (lineWrapMode() == NoWrap && blockCount() > kRelayoutBlocks && event->size().width() != event->oldSize().width()) {
        QResizeEvent heightOnly(event->size(), QSize(event->size().width(), event->oldSize().height()));
        QPlainTextEdit::resizeEvent(&heightOnly);
    } else {
        QPlainTextEdit::resizeEvent(event);
    }
    updateGutterGeometry();
}

void CodeEditor::updateExtraSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    QTextEdit::ExtraSelection current;
    current.format.setBackground(m_colors.currentLine);
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    current.cursor = textCursor();
    current.cursor.clearSelection();
    selections.append(current);

    // Assembler diagnostics: a wavy underline from the reported column to the end of the token.
    if (m_snapshot) {
        int shown = 0;
        for (const Diagnostic& d : m_snapshot->analysis.program.diagnostics) {
            if (d.severity == Severity::Note || ++shown > 2000)
                continue;
            const QTextBlock block = document()->findBlockByNumber(d.line - 1);
            if (!block.isValid())
                continue;
            const QString text = block.text();
            int begin = std::clamp(d.column, 0, int(text.size()));
            int end = begin;
            while (end < text.size() && !text.at(end).isSpace() && text.at(end) != QLatin1Char(','))
                ++end;
            if (end == begin) { // nothing at the column: underline the statement
                begin = 0;
                while (begin < text.size() && text.at(begin).isSpace())
                    ++begin;
                end = int(text.size());
            }
            if (end == begin)
                continue;
            QTextEdit::ExtraSelection sel;
            sel.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            sel.format.setUnderlineColor(d.severity == Severity::Error ? m_colors.diagnostic : m_colors.warning);
            sel.format.setToolTip(QString::fromStdString(d.message));
            sel.cursor = QTextCursor(block);
            sel.cursor.setPosition(block.position() + begin);
            sel.cursor.setPosition(block.position() + end, QTextCursor::KeepAnchor);
            selections.append(sel);
        }
    }
    addFindingSelections(selections);
    setExtraSelections(selections);
}

bool CodeEditor::statementSelection(int line, QTextEdit::ExtraSelection& sel) const
{
    // The statement: from its first non-space character up to a comment, without trailing spaces.
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return false;
    const QString text = block.text();
    int begin = 0, end = int(text.size());
    while (begin < end && text.at(begin).isSpace())
        ++begin;
    for (int i = begin; i < end; ++i)
        if (text.at(i) == QLatin1Char(';') || text.at(i) == QLatin1Char('#') || text.mid(i, 2) == QStringLiteral("//")) {
            end = i;
            break;
        }
    while (end > begin && text.at(end - 1).isSpace())
        --end;
    if (end == begin)
        return false;
    sel.cursor = QTextCursor(block);
    sel.cursor.setPosition(block.position() + begin);
    sel.cursor.setPosition(block.position() + end, QTextCursor::KeepAnchor);
    return true;
}

void CodeEditor::buildFindingSelections(const AnalysisSnapshot* before)
{
    std::vector<int> lines;
    if (m_snapshot) {
        lines.reserve(m_snapshot->lines.findings().size());
        for (const FindingView& f : m_snapshot->lines.findings())
            lines.push_back(f.line);
    }
    // The underlines made so far stay when the findings are on the same lines and each one's
    // cursor, which followed the edits, still sits on its line (a new text, or a line added
    // above, makes them again).
    if (before && lines == m_findingLines) {
        std::erase_if(m_findingSelections, [&](const auto& entry) {
            return !entry.second.cursor.isNull() && entry.second.cursor.blockNumber() + 1 != m_findingLines[entry.first];
        });
        return;
    }
    m_findingLines = std::move(lines);
    m_findingSelections.clear();
}

void CodeEditor::addFindingSelections(QList<QTextEdit::ExtraSelection>& selections) const
{
    if (!m_snapshot)
        return;
    // A wavy underline under each consumer's statement (the tooltip names the rule, the producer,
    // the wait states and the fix); on the current line's findings, a dashed underline under
    // their producers: the link from a finding to the line that causes it.
    // Only the underlines near the view: QPlainTextEdit looks at every extra selection for every
    // line it paints, and a kernel may have a thousand findings. Scrolling past the range re-lists.
    const int first = firstVisibleBlock().blockNumber() + 1;
    const int shown = int(viewport()->height() / std::max(1.0, QFontMetricsF(font()).lineSpacing())) + 1;
    m_findingRange = {std::max(1, first - 2 * shown), first + 3 * shown};
    const auto from = std::lower_bound(m_findingLines.begin(), m_findingLines.end(), m_findingRange.first);
    const auto to = std::upper_bound(m_findingLines.begin(), m_findingLines.end(), m_findingRange.second);
    // Those made far from the view go once they are many (a long scroll through a kernel with a
    // finding on every line): made again, at their lines, when the view comes back.
    const auto firstIndex = std::size_t(from - m_findingLines.begin()), endIndex = std::size_t(to - m_findingLines.begin());
    if (m_findingSelections.size() > 4096)
        std::erase_if(m_findingSelections,
                      [&](const auto& entry) { return entry.first < firstIndex || entry.first >= endIndex; });
    for (auto it = from; it != to; ++it) {
        const auto index = std::size_t(it - m_findingLines.begin());
        auto made = m_findingSelections.find(index);
        if (made == m_findingSelections.end()) {
            QTextEdit::ExtraSelection sel;
            sel.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            sel.format.setUnderlineColor(AnalysisColors::mark(PenaltyClass::Hazard));
            if (!statementSelection(*it, sel))
                sel.cursor = QTextCursor();
            made = m_findingSelections.emplace(index, std::move(sel)).first;
        }
        if (!made->second.cursor.isNull())
            selections.append(made->second);
    }
    for (const FindingView* f : m_snapshot->lines.findingsOn(currentLine())) {
        QTextEdit::ExtraSelection producer;
        producer.format.setUnderlineStyle(QTextCharFormat::DashUnderline);
        producer.format.setUnderlineColor(AnalysisColors::mark(PenaltyClass::Hazard));
        if (f->producerLine > 0 && statementSelection(f->producerLine, producer))
            selections.append(producer);
    }
}

void CodeEditor::keepGlyphsOnScreen()
{
    // QTextLayout::draw lays a line's text out into glyphs again on every paint unless its layout
    // keeps them (QTextLayout::setCacheEnabled), and every keystroke that changes a line's colours
    // repaints the whole view: keep the glyphs of the blocks on screen, and free those of the
    // blocks that left it (a draw outside all lines frees an uncached layout's glyphs).
    std::vector<int> visible;
    const QPointF offset = contentOffset();
    const int height = viewport()->height();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        if (blockBoundingGeometry(block).translated(offset).top() > height)
            break;
        block.layout()->setCacheEnabled(true);
        visible.push_back(block.blockNumber());
    }
    static QImage sink(1, 1, QImage::Format_ARGB32_Premultiplied);
    for (const int number : m_glyphBlocks) {
        if (std::binary_search(visible.begin(), visible.end(), number))
            continue;
        const QTextBlock block = document()->findBlockByNumber(number);
        QTextLayout* layout = block.isValid() ? block.layout() : nullptr;
        if (!layout || !layout->cacheEnabled())
            continue;
        layout->setCacheEnabled(false);
        if (layout->lineCount() > 0) {
            QPainter painter(&sink);
            layout->draw(&painter, QPointF(0, 0), {}, QRectF(0, -1e6, 1, 1)); // above every line
        }
    }
    m_glyphBlocks = std::move(visible);
}

void CodeEditor::paintEvent(QPaintEvent* event)
{
    keepGlyphsOnScreen();
    // Bands and penalty shading go under the text: paint them first, then let QPlainTextEdit draw
    // the text over them (it does not clear the viewport itself).
    if (m_snapshot) {
        QPainter painter(viewport());
        const QPointF offset = contentOffset();
        const double width = viewport()->width();
        const QRect clip = event->rect();
        for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
            const QRectF r = blockBoundingGeometry(block).translated(offset);
            if (r.top() > clip.bottom())
                break;
            if (!block.isVisible() || r.bottom() < clip.top())
                continue;
            const LineAnnotation* a = m_snapshot->lines.at(block.blockNumber() + 1);
            if (!a)
                continue;
            const QRectF full(0, r.top(), width, r.height());
            painter.fillRect(full, a->position.oddBand ? m_colors.bandOdd : m_colors.bandEven);
            // Shading by class; hazards win over branch over fetch (the marker says the rest).
            if (const QColor shade = m_colors.shade(a->markClass()); shade.isValid())
                painter.fillRect(full, shade);
            if (a->position.slot == 0 && block.blockNumber() > 0) { // a thin rule where a fetch block starts
                painter.setPen(QPen(m_colors.separator, 1));
                painter.drawLine(QPointF(0, r.top() + 0.5), QPointF(width, r.top() + 0.5));
            }
            if (m_showFreed && !a->freedBy.empty()) {
                painter.setPen(QPen(m_colors.freed, 1.5, Qt::DashLine));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(full.adjusted(1, 1, -2, -2));
            }
        }
    }
    QPlainTextEdit::paintEvent(event);
    reportPainted();
}

void CodeEditor::reportPainted()
{
    if (m_snapshot && m_paintedJob != m_snapshot->job) {
        m_paintedJob = m_snapshot->job;
        Q_EMIT highlightsPainted(m_paintedJob);
    }
}

void CodeEditor::paintGutter(QPaintEvent* event)
{
    m_gutterFirstBlock = firstVisibleBlock().blockNumber();
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), m_colors.gutterBg);
    painter.setFont(font());
    const QPointF offset = contentOffset();
    const int current = currentLine();
    const double lineHeight = QFontMetricsF(font()).height();
    Q_UNUSED(lineHeight);
    auto cell = [&](GutterLayout::Column c, const QRectF& r) {
        return QRectF(m_layout.left(c), r.top(), m_layout.columnWidth(c), r.height());
    };
    const auto& byLine = m_snapshot ? &m_snapshot->lines : nullptr;
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(offset);
        if (r.top() > event->rect().bottom())
            break;
        if (!block.isVisible() || r.bottom() < event->rect().top())
            continue;
        const int line = block.blockNumber() + 1;
        painter.setPen(line == current ? m_colors.gutterCurrent : m_colors.gutterText);
        painter.drawText(cell(GutterLayout::LineNumber, r), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        const LineAnnotation* a = byLine ? byLine->at(line) : nullptr;
        if (!a)
            continue;
        painter.setPen(m_colors.gutterText);
        const int digits = int(std::round(m_layout.columnWidth(GutterLayout::Offset)
                                          / QFontMetricsF(font()).horizontalAdvance(QLatin1Char('0'))))
            - 2;
        painter.drawText(cell(GutterLayout::Offset, r), Qt::AlignRight | Qt::AlignVCenter,
                         QStringLiteral("0x%1").arg(a->offset, std::max(digits, 1), 16, QLatin1Char('0')));
        painter.drawText(cell(GutterLayout::Slot, r), Qt::AlignCenter, QString::number(a->position.slot));
        painter.drawText(cell(GutterLayout::Size, r), Qt::AlignCenter, QString::number(a->size));
        painter.drawText(cell(GutterLayout::Cycles, r), Qt::AlignRight | Qt::AlignVCenter,
                         QString::number(a->cycles + a->penaltyCycles));
        // Issue #16: live registers, the peak line in the peak colour and bold.
        if (a->peak) {
            QFont bold = font();
            bold.setBold(true);
            painter.setFont(bold);
            painter.setPen(peakColor());
        }
        painter.drawText(cell(GutterLayout::Pressure, r), Qt::AlignRight | Qt::AlignVCenter,
                         pressureText(a->live, byLine->hasAgprs()));
        if (a->peak) {
            painter.setFont(font());
            painter.setPen(m_colors.gutterText);
        }
        if (a->findings) // issue #17
            paintCheckMark(painter, cell(GutterLayout::Check, r).adjusted(0, 3, 0, -3));

        // Marker: a filled box coloured by the penalty class, a triangle for a branch's direction
        // (→ taken, ↓ not taken), a ring for an instruction saved by a freeing rule.
        paintMark(painter, cell(GutterLayout::Marker, r).adjusted(1, 2, -1, -2),
                  {a->markClass(), a->direction, a->directionOverridden, !a->freedBy.empty()}, m_colors, m_showFreed);
    }
    painter.setPen(m_colors.separator);
    painter.drawLine(m_gutter->width() - 1, event->rect().top(), m_gutter->width() - 1, event->rect().bottom());
    painter.end();
    reportPainted();
}

void CodeEditor::gutterPressed(QPoint pos)
{
    const int line = lineAtY(pos.y());
    const LineAnnotation* a = annotationAt(line);
    const auto column = m_layout.columnAt(pos.x());
    if (a && a->conditionalBranch && column == GutterLayout::Marker) {
        // timing-model.md section 3: the static assumption can be overridden per branch.
        const Direction flipped = a->direction == Direction::Taken ? Direction::NotTaken : Direction::Taken;
        qCDebug(lcEditor) << "branch on line" << line << "flipped";
        Q_EMIT branchToggleRequested(line, flipped);
        return;
    }
    if (a && a->findings && column == GutterLayout::Check) {
        // Issue #17: the mark links a finding to its producer.
        const auto findings = m_snapshot->lines.findingsOn(line);
        if (!findings.empty() && findings.front()->producerLine > 0) {
            jumpToLine(findings.front()->producerLine);
            return;
        }
    }
    if (line > 0)
        jumpToLine(line);
}

QString CodeEditor::gutterToolTip(QPoint pos) const
{
    return m_snapshot ? m_snapshot->lines.tooltip(lineAtY(pos.y()), m_snapshot->analysis) : QString();
}

bool CodeEditor::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QTextCursor cursor = cursorForPosition(help->pos());
        const int line = cursor.blockNumber() + 1;
        QStringList parts;
        if (m_snapshot) {
            for (const Diagnostic& d : m_snapshot->analysis.program.diagnostics)
                if (d.line == line)
                    parts << QStringLiteral("%1: %2").arg(QString::fromStdString(std::string(severityName(d.severity))),
                                                          QString::fromStdString(d.message));
        }
        if (m_snapshot && annotationAt(line))
            parts << m_snapshot->lines.tooltip(line, m_snapshot->analysis);
        if (parts.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), parts.join(QStringLiteral("\n\n")), viewport());
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

} // namespace gcnlens::ui
