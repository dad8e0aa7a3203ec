// SPDX-License-Identifier: MIT
#include "ui/docks/penaltyrulemodel.h"

#include <QVariant>

namespace gcnlens::ui {

std::vector<PenaltyRuleModel::Row> PenaltyRuleModel::rowsFor(const Totals& t, const LineAnnotations* lines)
{
    std::map<std::string, std::string> meanings;
    for (const RuleInfo& r : ruleLegend())
        meanings[r.id] = r.meaning;
    std::vector<Row> rows;
    for (const auto& [rule, cycles] : t.byRule) {
        Row row {QString::fromStdString(rule), 0, cycles, QString::fromStdString(meanings[rule]), {}};
        if (const auto count = t.countByRule.find(rule); count != t.countByRule.end())
            row.count = count->second;
        if (lines)
            if (const auto at = lines->linesByRule().find(row.rule); at != lines->linesByRule().end())
                row.lines = at->second;
        rows.push_back(std::move(row));
    }
    return rows;
}

void PenaltyRuleModel::setRows(std::vector<Row> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

const PenaltyRuleModel::Row* PenaltyRuleModel::row(int index) const
{
    return index >= 0 && index < int(m_rows.size()) ? &m_rows[size_t(index)] : nullptr;
}

int PenaltyRuleModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PenaltyRuleModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : COLUMN_COUNT;
}

QVariant PenaltyRuleModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RuleColumn:
            return r.rule;
        case CountColumn:
            return r.count;
        case CyclesColumn:
            return r.cycles;
        }
        break;
    case Qt::TextAlignmentRole:
        return index.column() == RuleColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return tr("%1\nclick to step through its %n occurrence(s)", nullptr, int(r.lines.size())).arg(r.meaning);
    case RuleRole:
        return r.rule;
    case LinesRole:
        return QVariant::fromValue(QList<int>(r.lines.begin(), r.lines.end()));
    }
    return {};
}

QVariant PenaltyRuleModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RuleColumn:
        return tr("Rule");
    case CountColumn:
        return tr("Count");
    case CyclesColumn:
        return tr("Cycles");
    }
    return {};
}

} // namespace gcnlens::ui
