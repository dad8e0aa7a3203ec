// SPDX-License-Identifier: MIT
#include "ui/docks/problemsmodel.h"

#include <QIcon>
#include <QStyle>

namespace gcnlens::ui {

void ProblemsModel::setDiagnostics(std::vector<Diagnostic> diagnostics)
{
    beginResetModel();
    m_diagnostics = std::move(diagnostics);
    endResetModel();
}

int ProblemsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_diagnostics.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Diagnostic& d = m_diagnostics[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SeverityColumn: return QString::fromLatin1(severityName(d.severity).data(), qsizetype(severityName(d.severity).size()));
        case LineColumn: return d.line;
        case MessageColumn:
            return d.origin.empty() ? QString::fromStdString(d.message)
                                    : QStringLiteral("%1 (%2)").arg(QString::fromStdString(d.message), QString::fromStdString(d.origin));
        }
        break;
    case Qt::ToolTipRole: return QString::fromStdString(d.message);
    case LineRole: return d.line;
    case ColumnRole: return d.column;
    case SeverityRole: return int(d.severity);
    }
    return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case LineColumn: return tr("Line");
    case MessageColumn: return tr("Message");
    }
    return {};
}

} // namespace gcnlens::ui
