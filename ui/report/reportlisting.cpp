// SPDX-License-Identifier: MIT
// The report's annotated listing: the editor's gutter, bands, shading and colours on paper.
#include "ui/report/reportbuilder_p.h"

namespace gcnlens::report::detail {

QStringList ReportBuilder::rulesFor(int index) const
{
    QStringList out;
    if (index < 0 || std::size_t(index) >= a_.timing.instructions.size())
        return out;
    const Instruction& ins = a_.program.instructions[std::size_t(index)];
    if (ins.size > 9) // data or alignment padding: the one-digit size column cannot hold it
        out << QStringLiteral("(%1 bytes of data)").arg(ins.size);
    const InstructionTiming& t = a_.timing.instructions[std::size_t(index)];
    for (const Penalty& pen : t.penalties())
        out << QStringLiteral("%1 +%2").arg(qs(pen.rule)).arg(pen.cycles);
    if (const auto found = findingsByInstruction_.find(index); found != findingsByInstruction_.end())
        for (const int f : found->second) // issue #17: the finding's rule, then its fix (a line each: the column is narrow)
            out << findings_[std::size_t(f)].key.rule << findings_[std::size_t(f)].fix.split(QLatin1Char('\n'));
    if (!t.freedBy().empty())
        out << QStringLiteral("(%1)").arg(qs(t.freedBy()));
    return out;
}

const InstructionTiming* ReportBuilder::timingOf(int index) const
{
    return index >= 0 && std::size_t(index) < a_.timing.instructions.size() ? &a_.timing.instructions[std::size_t(index)]
                                                                            : nullptr;
}

ui::FetchPosition ReportBuilder::positionOf(int index) const
{
    const Instruction& ins = a_.program.instructions[std::size_t(index)];
    return ui::FetchPosition::at(ins.offset, ins.size);
}

QString ReportBuilder::cyclesFor(int index) const
{
    const InstructionTiming* t = timingOf(index);
    const QString cycles = t ? qs(cyclesText(a_.program.instructions[std::size_t(index)], *t)) : QString();
    if (cycles.isEmpty())
        return QStringLiteral("—");
    return cycles
        + (t->direction() == Direction::Taken          ? QStringLiteral(" T")
               : t->direction() == Direction::NotTaken ? QStringLiteral(" N")
                                                       : QString());
}

bool ReportBuilder::buildListing()
{
    const Program& program = a_.program;
    const QRectF content = frame_.contentRect();
    const QFontMetricsF fm = metrics(fonts_.mono);
    lineH_ = std::ceil(fm.lineSpacing() * 10) / 10;
    charW_ = fm.horizontalAdvance(QStringLiteral("0000000000")) / 10;
    std::uint64_t maxOffset = 0;
    for (const Instruction& ins : program.instructions)
        maxOffset = std::max(maxOffset, std::uint64_t(ins.offset));
    offsetDigits_ = ui::GutterLayout::digitsFor(maxOffset, 16, 4);
    // Issue #16: the live-register column, as wide as the program's largest counts; issue #17: the check mark.
    LiveCounts maxLive;
    for (const LiveCounts& c : a_.liveness.instructions)
        maxLive = {std::max(maxLive.vgpr, c.vgpr), std::max(maxLive.sgpr, c.sgpr), std::max(maxLive.agpr, c.agpr), 0};
    agprs_ = maxLive.agpr > 0;
    pressureChars_ = a_.liveness.instructions.empty() ? 0 : std::max(4, ui::pressureChars(maxLive, agprs_));
    cols_ =
        ui::GutterLayout(charW_, ui::GutterLayout::digitsFor(std::uint64_t(std::max<qsizetype>(1, sourceLines_.size())), 10, 4),
                         offsetDigits_, kCyclesChars, pressureChars_, 1);
    rulesX_ = content.width() - kRuleChars * charW_;
    sourceColumns_ = std::max(8, int(std::floor((rulesX_ - cols_.width()) / charW_ + 1e-9)) - 1);
    const int wrapCols = std::max(8, sourceColumns_ - 2); // continuation lines are indented by 2

    lines_.clear();
    std::vector<int> rowCounts;
    std::map<int, std::vector<const Diagnostic*>> diagnosticsByLine;
    for (const Diagnostic& d : program.diagnostics)
        diagnosticsByLine[d.line].push_back(&d);

    auto addInstructionRows = [&](const auto& indices, std::size_t from, int& rowLines) { // an IndexRun or a vector
        for (std::size_t i = from; i < indices.size(); ++i) {
            const int index = indices[i];
            const Instruction& ins = program.instructions[std::size_t(index)];
            const QStringList rules = rulesFor(index);
            ListingLine line;
            line.kind = LineKind::Expansion;
            line.numbers = index;
            line.shade = index;
            const QString text = QStringLiteral("%1 %2").arg(qs(ins.mnemonic), qs(ins.operands));
            line.text = QStringLiteral("↳ ") + text;
            line.ranges = highlighter_.highlightLine(text, true);
            for (ui::FormatRange& r : line.ranges)
                r.start += 2;
            line.rule = rules.value(0);
            lines_.push_back(line);
            ++rowLines;
            for (int r = 1; r < rules.size(); ++r) {
                ListingLine more;
                more.kind = LineKind::Continuation;
                more.shade = index;
                more.rule = rules[r];
                lines_.push_back(more);
                ++rowLines;
            }
        }
    };

    auto addDiagnostics = [&](int lineNo, int& rowLines) {
        const auto it = diagnosticsByLine.find(lineNo);
        if (it == diagnosticsByLine.end())
            return;
        for (const Diagnostic* d : it->second) {
            ListingLine line;
            line.kind = LineKind::Diagnostic;
            line.severity = d->severity;
            line.text = QStringLiteral("%1: %2").arg(qs(std::string(severityName(d->severity))), qs(d->message));
            lines_.push_back(line);
            ++rowLines;
        }
    };

    expanded_.reserve(sourceLines_.size());
    lineColours_.reserve(sourceLines_.size());
    for (qsizetype l = 0; l < sourceLines_.size(); ++l) {
        // Highlighting is most of the work before painting: it reports progress (0–40 %).
        if (l % 512 == 0 && !progress(int(40 * l / std::max<qsizetype>(1, sourceLines_.size()))))
            return false;
        const int lineNo = int(l) + 1;
        expanded_.push_back(expandTabs(sourceLines_[l]));
        const QString& text = expanded_.back();
        lineColours_.push_back(highlighter_.highlightLine(text));
        const auto found = program.lineToInstructions.find(lineNo);
        const IndexRun indices = found != program.lineToInstructions.end() ? found->second : IndexRun();
        const int first = indices.empty() ? -1 : indices.front();
        const QStringList rules = rulesFor(first);
        const auto pieces = report::wrapLine(text, wrapCols, 4);
        int rowLines = 0;
        const int height = std::max<int>(int(pieces.size()), int(rules.size()));
        for (int i = 0; i < height; ++i) {
            ListingLine line;
            line.kind = i == 0 ? LineKind::Source : LineKind::Continuation;
            line.numbers = i == 0 ? first : -1;
            line.shade = first;
            if (std::size_t(i) < pieces.size()) {
                line.textStart = pieces[std::size_t(i)].start;
                line.textLength = pieces[std::size_t(i)].length;
                line.elided = pieces[std::size_t(i)].elided;
            }
            line.rule = rules.value(i);
            line.sourceLine = i == 0 ? lineNo : -lineNo; // negative: continuation of that line
            lines_.push_back(line);
            ++rowLines;
        }
        addInstructionRows(indices, 1, rowLines);
        addDiagnostics(lineNo, rowLines);
        rowCounts.push_back(rowLines);
    }
    // Instructions whose line lies outside the text (e.g. from an include at line 0), and
    // diagnostics without a line, close the listing.
    std::vector<int> stray;
    for (const auto& [lineNo, indices] : program.lineToInstructions) {
        if (lineNo < 1 || lineNo > int(sourceLines_.size()))
            stray.insert(stray.end(), indices.begin(), indices.end());
    }
    if (!stray.empty()) {
        int rowLines = 0;
        addInstructionRows(stray, 0, rowLines);
        rowCounts.push_back(rowLines);
    }
    {
        int rowLines = 0;
        for (const auto& [lineNo, list] : diagnosticsByLine) {
            if (lineNo < 1 || lineNo > int(sourceLines_.size()))
                addDiagnostics(lineNo, rowLines);
        }
        if (rowLines > 0)
            rowCounts.push_back(rowLines);
    }

    const qreal headerRowH = lineH_ + 4;
    const int perPage = ListingPagination::linesPerPage(content.height() - headerRowH, lineH_);
    const ListingPagination pages = ListingPagination::paginate(rowCounts, perPage);
    for (int page = 0; page < pages.pageCount(); ++page) {
        const int docPage = doc_.addPage(QStringLiteral("Annotated listing"));
        const auto [from, to] = pages.linesOnPage(page, int(lines_.size()));
        doc_.add(docPage,
                 [this, from, to, content, headerRowH](QPainter& p) { paintListingPage(p, content, headerRowH, from, to); });
    }
    if (pages.pageCount() == 0) {
        const int docPage = doc_.addPage(QStringLiteral("Annotated listing"));
        doc_.add(docPage, [this, content](QPainter& p) {
            p.setFont(fonts_.body);
            p.setPen(kMuted);
            p.drawText(content, Qt::AlignLeft | Qt::AlignTop, QStringLiteral("The source is empty."));
        });
    }
    return true;
}

void ReportBuilder::paintHighlighted(QPainter& p, qreal x, qreal baseline, const QString& text,
                                     const std::vector<ui::FormatRange>& ranges, int start, int length, bool elided) const
{
    const int end = start + length - (elided ? 1 : 0);
    auto run = [&](int from, int to, const QColor& colour, const QFont& font) {
        if (to <= from)
            return;
        p.setFont(font);
        p.setPen(colour.isValid() ? colour : colors_.text);
        p.drawText(QPointF(x + (from - start) * charW_, baseline), text.mid(from, to - from));
    };
    int pos = start;
    for (const ui::FormatRange& r : ranges) {
        const int a = std::max(r.start, pos);
        const int b = std::min(r.start + r.length, end);
        if (b <= a)
            continue;
        run(pos, a, colors_.text, fonts_.mono);
        run(a, b, r.color, r.bold ? fonts_.monoBold : r.italic ? fonts_.monoItalic : fonts_.mono);
        pos = b;
    }
    run(pos, end, colors_.text, fonts_.mono);
    if (elided) {
        p.setFont(fonts_.mono);
        p.setPen(kMuted);
        p.drawText(QPointF(x + (end - start) * charW_, baseline), QStringLiteral("…"));
    }
}

void ReportBuilder::paintListingPage(QPainter& p, const QRectF& content, qreal headerRowH, int from, int to) const
{
    const QFontMetricsF fm = metrics(fonts_.mono);
    const qreal ascent = fm.ascent() + (lineH_ - fm.height()) / 2;
    const qreal left = content.left();
    const qreal right = content.right();
    const qreal sourceX = left + cols_.width();
    using Column = ui::GutterLayout::Column;
    auto cell = [&](Column c, qreal y) { return QRectF(left + cols_.left(c), y, cols_.columnWidth(c), lineH_); };
    const Qt::Alignment numeric = Qt::AlignRight | Qt::AlignVCenter;

    // Column heads.
    p.setFont(fonts_.monoBold);
    p.setPen(kMuted);
    const qreal headY = content.top();
    p.drawText(cell(Column::LineNumber, headY), numeric, QStringLiteral("line"));
    p.drawText(cell(Column::Offset, headY), numeric, QStringLiteral("offset"));
    p.drawText(cell(Column::Slot, headY), Qt::AlignCenter, QStringLiteral("p"));
    p.drawText(cell(Column::Size, headY), Qt::AlignCenter, QStringLiteral("s"));
    p.drawText(cell(Column::Cycles, headY), numeric, QStringLiteral("cycles"));
    if (pressureChars_ > 0)
        p.drawText(cell(Column::Pressure, headY), numeric, QStringLiteral("live"));
    p.drawText(QPointF(sourceX, headY + ascent), QStringLiteral("source"));
    p.drawText(QPointF(left + rulesX_, headY + ascent), QStringLiteral("rules"));
    p.setPen(QPen(kRule, 0.5));
    p.drawLine(QPointF(left, headY + lineH_ + 1), QPointF(right, headY + lineH_ + 1));

    const qreal top = content.top() + headerRowH;
    // Background pass: block bands, penalty shading by class, block boundaries.
    std::uint64_t previousBlock = ~std::uint64_t(0);
    int previousKernel = -2;
    // The block of the last instruction before this page, so a page does not start with a
    // spurious boundary line.
    for (int i = from - 1; i >= 0 && from < to; --i) {
        if (const int s = lines_[std::size_t(i)].shade; s >= 0) {
            previousBlock = positionOf(s).block;
            previousKernel = a_.program.instructions[std::size_t(s)].kernel;
            break;
        }
    }
    for (int i = from; i < to; ++i) {
        const ListingLine& line = lines_[std::size_t(i)];
        const qreal y = top + (i - from) * lineH_;
        const QRectF row(left, y, right - left, lineH_);
        if (line.kind == LineKind::Diagnostic) {
            QColor tint = line.severity == Severity::Error ? colors_.diagnostic : colors_.warning;
            tint.setAlphaF(0.12f);
            p.fillRect(row, tint);
            continue;
        }
        if (line.shade < 0)
            continue;
        const Instruction& ins = a_.program.instructions[std::size_t(line.shade)];
        const ui::FetchPosition pos = positionOf(line.shade);
        if (pos.oddBand)
            p.fillRect(row, colors_.bandOdd);
        const InstructionTiming* t = timingOf(line.shade);
        if (const QColor shade = colors_.shade(t ? t->markClass() : PenaltyClass::None); shade.isValid())
            p.fillRect(row.adjusted(cols_.left(Column::Marker), 0, 0, 0), shade);
        if (line.numbers < 0)
            continue;
        if ((pos.block != previousBlock || ins.kernel != previousKernel) && (i != from || previousBlock != ~std::uint64_t(0))) {
            p.setPen(QPen(kRule, 0.5)); // the theme's separator is black on paper
            p.drawLine(row.topLeft(), row.topRight());
        }
        if (pos.straddles) // an encoding that runs into the next block (section 2, R-straddle)
            p.fillRect(QRectF(sourceX - charW_ / 2, y, 1.2, lineH_), AnalysisColors::mark(PenaltyClass::Fetch));
        previousBlock = pos.block;
        previousKernel = ins.kernel;
    }

    // Text pass.
    for (int i = from; i < to; ++i) {
        const ListingLine& line = lines_[std::size_t(i)];
        const qreal y = top + (i - from) * lineH_;
        const qreal baseline = y + ascent;
        if (line.kind == LineKind::Diagnostic) {
            p.setFont(fonts_.monoBold);
            p.setPen(line.severity == Severity::Error ? colors_.diagnostic : colors_.warning);
            p.drawText(QPointF(sourceX, baseline), fm.elidedText(line.text, Qt::ElideRight, right - sourceX));
            continue;
        }
        p.setFont(fonts_.mono);
        if (line.sourceLine > 0) {
            p.setPen(kMuted);
            p.drawText(cell(Column::LineNumber, y), numeric, QString::number(line.sourceLine));
        }
        if (line.numbers >= 0) {
            const Instruction& ins = a_.program.instructions[std::size_t(line.numbers)];
            const InstructionTiming* t = timingOf(line.numbers);
            p.setPen(colors_.text);
            p.drawText(cell(Column::Offset, y), numeric,
                       QStringLiteral("0x%1").arg(ins.offset, offsetDigits_, 16, QLatin1Char('0')));
            p.drawText(cell(Column::Slot, y), Qt::AlignCenter, QString::number(positionOf(line.numbers).slot));
            p.drawText(cell(Column::Size, y), Qt::AlignCenter, ins.size > 9 ? QStringLiteral("…") : QString::number(ins.size));
            p.drawText(cell(Column::Cycles, y), numeric, cyclesFor(line.numbers));
            if (t)
                ui::paintMark(p, cell(Column::Marker, y).adjusted(0.5, 1, -0.5, -1),
                              {t->markClass(), t->direction(), t->directionOverridden(), !t->freedBy().empty()}, colors_, true);
            if (pressureChars_ > 0 && std::size_t(line.numbers) < a_.liveness.instructions.size()) {
                const LiveCounts& live = a_.liveness.instructions[std::size_t(line.numbers)];
                const KernelPressure* peak = ins.kernel >= 0 && std::size_t(ins.kernel) < a_.liveness.kernels.size()
                    ? &a_.liveness.kernels[std::size_t(ins.kernel)]
                    : nullptr;
                const bool atPeak = peak
                    && (peak->vgpr.instruction == line.numbers || peak->sgpr.instruction == line.numbers
                        || peak->agpr.instruction == line.numbers);
                p.setFont(atPeak ? fonts_.monoBold : fonts_.mono);
                p.setPen(atPeak ? ui::peakColor() : colors_.text);
                p.drawText(cell(Column::Pressure, y), numeric, ui::pressureText(live, agprs_));
                p.setFont(fonts_.mono);
            }
            if (findingsByInstruction_.count(line.numbers))
                ui::paintCheckMark(p, cell(Column::Check, y).adjusted(0, 1, 0, -1));
        }
        if (line.kind == LineKind::Expansion) {
            const int length = std::min<int>(int(line.text.size()), sourceColumns_);
            paintHighlighted(p, sourceX + 2 * charW_, baseline, line.text, line.ranges, 0, length, length < line.text.size());
        } else if (line.sourceLine != 0 && line.textLength > 0) {
            const int lineNo = std::abs(line.sourceLine);
            const bool continuation = line.sourceLine < 0;
            if (continuation) {
                p.setPen(kMuted);
                p.drawText(QPointF(sourceX, baseline), QStringLiteral("↪"));
            }
            paintHighlighted(p, sourceX + (continuation ? 2 * charW_ : 0), baseline, expanded_[std::size_t(lineNo - 1)],
                             lineColours_[std::size_t(lineNo - 1)], line.textStart, line.textLength, line.elided);
        }
        if (!line.rule.isEmpty()) {
            p.setFont(fonts_.mono);
            p.setPen(line.rule.startsWith(QLatin1Char('(')) ? kMuted : colors_.diagnostic);
            p.drawText(QPointF(left + rulesX_, baseline), line.rule);
        }
    }
}

} // namespace gcnlens::report::detail
