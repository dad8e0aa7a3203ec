// SPDX-License-Identifier: MIT
#include "ui/docks/problemsview.h"
#include "ui/docks/problemsmodel.h"

#include <QContextMenuEvent>
#include <QHeaderView>
#include <QMenu>

namespace gcnlens::ui {

ProblemsView::ProblemsView(QWidget* parent)
    : QTreeView(parent)
{
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    header()->setStretchLastSection(true);
    connect(this, &QTreeView::activated, this, [this](const QModelIndex& index) {
        Q_EMIT lineRequested(index.data(ProblemsModel::LineRole).toInt(), index.data(ProblemsModel::ColumnRole).toInt());
    });
    connect(this, &QTreeView::clicked, this, &QTreeView::activated);
}

void ProblemsView::setProblemsModel(ProblemsModel* model)
{
    m_model = model;
    setModel(model);
    // Wide enough for a severity word, a line number and the longest rule ids (W-waitcnt-lgkmcnt).
    const QFontMetrics fm = fontMetrics();
    header()->resizeSection(ProblemsModel::SeverityColumn, fm.horizontalAdvance(QStringLiteral("warning")) + 24);
    header()->resizeSection(ProblemsModel::LineColumn, fm.horizontalAdvance(QStringLiteral("000000")) + 16);
    header()->resizeSection(ProblemsModel::RuleColumn, fm.horizontalAdvance(QStringLiteral("W-mai-accwrite-waw")) + 16);
}

FindingKey ProblemsView::currentFinding() const
{
    const QVariant key = currentIndex().data(ProblemsModel::FindingKeyRole);
    return key.isValid() ? key.value<FindingKey>() : FindingKey {};
}

QMenu* ProblemsView::findingMenu(const QModelIndex& index, QWidget* parent)
{
    const QVariant keyData = index.data(ProblemsModel::FindingKeyRole);
    if (!keyData.isValid())
        return nullptr;
    const FindingKey key = keyData.value<FindingKey>();
    auto* menu = new QMenu(parent);
    const int producer = index.data(ProblemsModel::ProducerLineRole).toInt();
    if (producer > 0) {
        menu->addAction(tr("Go to producer (line %1)").arg(producer), this,
                        [this, producer] { Q_EMIT lineRequested(producer, 0); });
    }
    const int line = index.data(ProblemsModel::LineRole).toInt();
    menu->addAction(tr("Go to line %1").arg(line), this, [this, line] { Q_EMIT lineRequested(line, 0); });
    Q_EMIT findingMenuRequested(key, menu);
    return menu;
}

void ProblemsView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu* menu = findingMenu(indexAt(event->pos()), this);
    if (!menu)
        return;
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

} // namespace gcnlens::ui
