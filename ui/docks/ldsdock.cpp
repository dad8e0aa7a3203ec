// SPDX-License-Identifier: MIT
#include "ui/docks/ldsdock.h"
#include "ui/docks/ldsheatmap.h"
#include "ui/logging.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace gcnlens::ui {

LdsDock::LdsDock(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* form = new QGridLayout;
    m_mode = new QComboBox;
    m_mode->addItem(tr("DS instruction under the cursor"));
    m_mode->addItem(tr("Typed pattern"));
    form->addWidget(m_mode, 0, 0, 1, 2);
    m_op = new QComboBox;
    m_op->setEditable(true);
    m_op->setToolTip(tr("Access width in bytes or a DS op name"));
    for (const char* op : {"b32", "b64", "b96", "b128", "ds_read_b32", "ds_read_b64", "ds_read_b128", "ds_read2_b32",
                           "ds_write_b32", "ds_write2_b64"})
        m_op->addItem(QLatin1String(op));
    form->addWidget(m_op, 0, 2);
    m_pattern = new QLineEdit(QStringLiteral("lane * 4"));
    m_pattern->setToolTip(tr("Byte address per lane, an expression over `lane` and the parameters"));
    form->addWidget(new QLabel(tr("Address")), 1, 0);
    form->addWidget(m_pattern, 1, 1);
    m_parameters = new QLineEdit;
    m_parameters->setPlaceholderText(QStringLiteral("stride=132, base=0"));
    m_parameters->setToolTip(tr("Named parameters of the pattern, comma separated"));
    form->addWidget(m_parameters, 1, 2);
    form->setColumnStretch(1, 2);
    form->setColumnStretch(2, 1);
    layout->addLayout(form);

    m_title = new QLabel;
    m_title->setWordWrap(true);
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    layout->addWidget(m_summary);
    m_heatmap = new LdsHeatmap;
    layout->addWidget(m_heatmap, 1);
    m_readout = new QLabel;
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setMinimumHeight(m_readout->fontMetrics().height());
    layout->addWidget(m_readout);
    connect(m_heatmap, &LdsHeatmap::hovered, m_readout, &QLabel::setText);

    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int) { refresh(); });
    connect(m_pattern, &QLineEdit::textChanged, this, [this] {
        if (m_mode->currentIndex() == PatternMode)
            refresh();
    });
    connect(m_parameters, &QLineEdit::textChanged, this, [this] {
        if (m_mode->currentIndex() == PatternMode)
            refresh();
    });
    connect(m_op, &QComboBox::currentTextChanged, this, [this] {
        if (m_mode->currentIndex() == PatternMode)
            refresh();
    });
    refresh();
}

void LdsDock::setSnapshot(const SnapshotPtr& snapshot)
{
    m_snapshot = snapshot;
    m_groupDwords = snapshot->request.timing.ldsGroupDwords;
    refresh();
}

void LdsDock::setCursorLine(int line)
{
    m_line = line;
    if (m_mode->currentIndex() == CursorMode)
        refresh();
}

void LdsDock::setMode(Mode mode)
{
    m_mode->setCurrentIndex(mode);
}

void LdsDock::setPattern(const QString& pattern, const QString& opOrWidth, const QString& parameters)
{
    const QSignalBlocker b1(m_pattern), b2(m_op), b3(m_parameters);
    m_pattern->setText(pattern);
    m_op->setEditText(opOrWidth);
    m_parameters->setText(parameters);
    refresh();
}

void LdsDock::setGroupDwords(int dwords)
{
    m_groupDwords = dwords;
    refresh();
}

void LdsDock::refresh()
{
    const bool pattern = m_mode->currentIndex() == PatternMode;
    m_pattern->setEnabled(pattern);
    m_op->setEnabled(pattern);
    m_parameters->setEnabled(pattern);
    LdsAccessResult result;
    m_instruction = -1;
    if (const auto typed = typedPattern()) {
        // lds-phases (docs/model.md L-phases): the analysed GPU's generation decides "auto".
        const LdsPhases phases = m_snapshot
            ? ldsPhasesFor(m_snapshot->analysis.program.gpu.generation, m_snapshot->request.timing.ldsPhases)
            : LdsPhases::Gcn;
        result = analyzeLdsPattern(typed->text.toStdString(), typed->op.toStdString(), typed->parameters, m_groupDwords, phases);
        m_title->setText(tr("Pattern <b>%1</b>").arg(m_pattern->text().toHtmlEscaped()));
    } else if (m_snapshot) {
        const auto& program = m_snapshot->analysis.program;
        auto at = program.lineToInstructions.find(m_line);
        if (at != program.lineToInstructions.end()) {
            for (int index : at->second) {
                auto lds = m_snapshot->analysis.lds.find(index);
                if (lds != m_snapshot->analysis.lds.end()) {
                    m_instruction = index;
                    result = lds->second;
                    const Instruction& ins = program.instructions[size_t(index)];
                    m_title->setText(
                        tr("Line %1: <b>%2</b> %3")
                            .arg(m_line)
                            .arg(QString::fromStdString(ins.mnemonic), QString::fromStdString(ins.operands).toHtmlEscaped()));
                    break;
                }
            }
        }
        if (m_instruction < 0)
            m_title->setText(tr("Line %1 has no DS instruction").arg(m_line));
    }
    if (result.error.empty() && !result.lanes.empty()) {
        QString text = tr("degree %1 · %2 LDS cycles (conflict-free %3)")
                           .arg(result.degree)
                           .arg(result.cycles)
                           .arg(result.conflictFreeCycles);
        if (!result.allKnown)
            text += tr(" · some lane addresses unknown");
        if (!result.note.empty())
            text += QStringLiteral("\n") + QString::fromStdString(result.note);
        m_summary->setText(text);
    } else {
        m_summary->setText(QString::fromStdString(result.error));
    }
    m_heatmap->setResult(std::move(result));
    qCDebug(lcLds) << "heatmap for instruction" << m_instruction;
    Q_EMIT resultChanged();
}

std::optional<LdsDock::Pattern> LdsDock::typedPattern() const
{
    if (m_mode->currentIndex() != PatternMode)
        return std::nullopt;
    Pattern pattern {m_pattern->text(), m_op->currentText(), {}};
    for (const QString& item : m_parameters->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const auto kv = item.split(QLatin1Char('='));
        bool ok = false;
        const qint64 v = kv.size() == 2 ? kv[1].trimmed().toLongLong(&ok, 0) : 0;
        if (ok)
            pattern.parameters[kv[0].trimmed().toStdString()] = v;
    }
    return pattern;
}

QString LdsDock::summary() const
{
    return m_summary->text();
}

} // namespace gcnlens::ui
