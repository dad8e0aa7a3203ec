// SPDX-License-Identifier: MIT
#include "ui/dialectswitch.h"

#include "ui/analysisbridge.h"
#include "ui/editor/syntax.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/SyntaxHighlighter>

#include <QMenu>
#include <QSettings>

namespace gcnlens::ui {

namespace {

// Item order in the box; the settings keep the words, not the indices.
constexpr AssembleOptions::Dialect kItems[] = {AssembleOptions::Dialect::Auto, AssembleOptions::Dialect::Llvm,
                                               AssembleOptions::Dialect::Clrx};

QString word(AssembleOptions::Dialect d)
{
    return d == AssembleOptions::Dialect::Llvm ? QStringLiteral("llvm")
        : d == AssembleOptions::Dialect::Clrx  ? QStringLiteral("clrx")
                                               : QStringLiteral("auto");
}

} // namespace

DialectSwitch::DialectSwitch(AnalysisBridge* bridge, QSyntaxHighlighter* highlighter, QWidget* parent)
    : QLabel(parent)
    , m_bridge(bridge)
    , m_highlighter(highlighter)
    , m_menu(new QMenu(this))
{
    setObjectName(QStringLiteral("dialectSwitch"));
    setTextFormat(Qt::RichText);
    setToolTip(tr("The assembler dialect this file is read in: detected from its directives, comments and "
                  "register symbols, or chosen here (remembered for the file)"));
    for (const auto d : kItems) {
        QAction* action = m_menu->addAction(QString(), this, [this, d] { choose(d); });
        action->setCheckable(true);
        action->setData(int(d));
    }
    connect(this, &QLabel::linkActivated, this, [this] { m_menu->popup(mapToGlobal(QPoint(0, 0))); });
    relabel();
}

AssembleOptions::Dialect DialectSwitch::choice() const
{
    return m_choice;
}

AssembleOptions::Dialect DialectSwitch::effective() const
{
    return choice() == AssembleOptions::Dialect::Auto ? m_detected : choice();
}

void DialectSwitch::setFileGroup(const QString& group)
{
    m_group = group;
    const QString saved = QSettings().value(group + QStringLiteral("/dialect")).toString();
    AssembleOptions::Dialect dialect = AssembleOptions::Dialect::Auto;
    for (const auto d : kItems)
        if (word(d) == saved)
            dialect = d;
    apply(dialect);
}

void DialectSwitch::choose(AssembleOptions::Dialect dialect)
{
    if (!m_group.isEmpty()) {
        QSettings settings;
        if (dialect == AssembleOptions::Dialect::Auto)
            settings.remove(m_group + QStringLiteral("/dialect"));
        else
            settings.setValue(m_group + QStringLiteral("/dialect"), word(dialect));
    }
    apply(dialect);
}

void DialectSwitch::apply(AssembleOptions::Dialect dialect)
{
    m_choice = dialect;
    if (m_bridge->request().assemble.dialect != dialect) {
        AnalysisRequest request = m_bridge->request();
        request.assemble.dialect = dialect;
        m_bridge->setRequest(request);
    }
    relabel();
    updateHighlighting();
}

void DialectSwitch::updateDetected(const QString& text)
{
    // looksLikeClrx reads the first 4000 lines; hand it no more than those.
    qsizetype end = 0;
    for (int lines = 0; lines < 4000 && end >= 0 && end < text.size(); ++lines)
        end = text.indexOf(QLatin1Char('\n'), end + 1);
    const QByteArray head = (end < 0 ? text : text.left(end)).toUtf8();
    AssembleOptions options;
    options.dialect = AssembleOptions::Dialect::Auto;
    const auto detected = resolvedDialect(std::string_view(head.constData(), std::size_t(head.size())), options);
    if (detected != m_detected) {
        m_detected = detected;
        relabel();
        updateHighlighting();
    }
}

void DialectSwitch::updateHighlighting()
{
    const bool clrx = effective() == AssembleOptions::Dialect::Clrx;
    auto* highlighter = dynamic_cast<KSyntaxHighlighting::SyntaxHighlighter*>(m_highlighter);
    if (!highlighter || clrx == m_clrxColours)
        return;
    m_clrxColours = clrx;
    highlighter->setDefinition(clrx ? clrxDefinition() : gcnDefinition()); // re-colours the text
}

void DialectSwitch::relabel()
{
    const QString detected = m_detected == AssembleOptions::Dialect::Clrx ? tr("CLRX (detected)") : tr("LLVM (detected)");
    const auto actions = m_menu->actions();
    for (int i = 0; i < actions.size(); ++i) {
        actions[i]->setText(i == 0 ? detected : kItems[i] == AssembleOptions::Dialect::Llvm ? tr("LLVM") : tr("CLRX"));
        actions[i]->setChecked(kItems[i] == m_choice);
    }
    m_shown = m_choice == AssembleOptions::Dialect::Auto ? detected
        : m_choice == AssembleOptions::Dialect::Llvm     ? tr("LLVM")
                                                         : tr("CLRX");
    setText(QStringLiteral("<a href=\"dialect\">%1</a>").arg(m_shown.toHtmlEscaped()));
}

} // namespace gcnlens::ui
