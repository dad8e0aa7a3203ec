// SPDX-License-Identifier: MIT
#include "ui/docks/problemsmodel.h"

#include <QIcon>
#include <QStyle>

#include <algorithm>

namespace gcnlens::ui {

void ProblemsModel::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    endResetModel();
}

void ProblemsModel::setProblems(std::vector<Diagnostic> diagnostics, std::shared_ptr<const std::vector<FindingView>> findings)
{
    if (!findings)
        findings = std::make_shared<const std::vector<FindingView>>();
    // Most keystrokes leave the problems as they were: no reset then (a kernel may list a
    // thousand findings, and a reset also loses the view's current row).
    const auto sameDiagnostic = [](const Diagnostic& a, const Diagnostic& b) {
        return a.line == b.line && a.column == b.column && a.severity == b.severity && a.message == b.message
            && a.origin == b.origin;
    };
    const auto sameFinding = [](const FindingView& a, const FindingView& b) {
        return a.key == b.key && a.line == b.line && a.producerLine == b.producerLine && a.sameMessage(b) && a.fix == b.fix;
    };
    if (std::equal(diagnostics.begin(), diagnostics.end(), m_diagnostics.begin(), m_diagnostics.end(), sameDiagnostic)
        && std::equal(findings->begin(), findings->end(), m_findings->begin(), m_findings->end(), sameFinding)) {
        m_findings = std::move(findings); // the same rows: the new snapshot's list, the old one let go
        return;
    }
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    m_findings = std::move(findings);
    endResetModel();
}

const FindingView* ProblemsModel::finding(int row) const
{
    const int at = row - int(m_diagnostics.size());
    return at >= 0 && at < int(m_findings->size()) ? &(*m_findings)[std::size_t(at)] : nullptr;
}

int ProblemsModel::rowOf(const FindingKey& key) const
{
    for (std::size_t i = 0; i < m_findings->size(); ++i)
        if ((*m_findings)[i].key == key)
            return int(m_diagnostics.size() + i);
    return -1;
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_diagnostics.size() + m_findings->size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (const FindingView* f = finding(index.row())) {
        // Findings are warnings: a hazard or a missing wait gives wrong results on some GPUs.
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case SeverityColumn:
                return QStringLiteral("warning");
            case LineColumn:
                return f->line;
            case RuleColumn:
                return f->key.rule;
            case MessageColumn:
                return f->message();
            }
            break;
        case Qt::ToolTipRole:
            return f->tooltip();
        case LineRole:
            return f->line;
        case ColumnRole:
            return 0;
        case SeverityRole:
            return int(Severity::Warning);
        case FindingKeyRole:
            return QVariant::fromValue(f->key);
        case ProducerLineRole:
            return f->producerLine;
        }
        return {};
    }
    const Diagnostic& d = m_diagnostics[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn:
            return QString::fromLatin1(severityName(d.severity).data(), qsizetype(severityName(d.severity).size()));
        case LineColumn:
            return d.line;
        case RuleColumn:
            return QString();
        case MessageColumn:
            return d.origin.empty()
                ? QString::fromStdString(d.message)
                : QStringLiteral("%1 (%2)").arg(QString::fromStdString(d.message), QString::fromStdString(d.origin));
        }
        break;
    case Qt::ToolTipRole:
        return QString::fromStdString(d.message);
    case LineRole:
        return d.line;
    case ColumnRole:
        return d.column;
    case SeverityRole:
        return int(d.severity);
    }
    return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn:
        return tr("Severity");
    case LineColumn:
        return tr("Line");
    case RuleColumn:
        return tr("Rule");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace gcnlens::ui
