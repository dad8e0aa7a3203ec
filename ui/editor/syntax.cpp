// SPDX-License-Identifier: MIT
#include "ui/editor/syntax.h"
#include "ui/logging.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>

#include <QPalette>

namespace gcnlens::ui {

KSyntaxHighlighting::Repository& syntaxRepository()
{
    // Loading every definition costs tens of milliseconds: do it once per process.
    static KSyntaxHighlighting::Repository repository;
    return repository;
}

KSyntaxHighlighting::Definition gcnDefinition()
{
    auto definition = syntaxRepository().definitionForName(QLatin1String(gcnDefinitionName));
    if (!definition.isValid())
        qCWarning(lcSyntax) << "GCN syntax definition missing from the resources";
    return definition;
}

KSyntaxHighlighting::Definition clrxDefinition()
{
    auto definition = syntaxRepository().definitionForName(QLatin1String(clrxDefinitionName));
    if (!definition.isValid())
        qCWarning(lcSyntax) << "CLRX syntax definition missing from the resources";
    return definition;
}

KSyntaxHighlighting::Theme themeFor(const QPalette& palette)
{
    return syntaxRepository().themeForPalette(palette);
}

// hotspot's HighlightedText: an AbstractHighlighter whose applyFormat collects the ranges.
class OffscreenHighlighter::Collector : public KSyntaxHighlighting::AbstractHighlighter {
public:
    std::vector<FormatRange> highlight(QStringView line, bool standalone)
    {
        m_ranges.clear();
        const auto state = highlightLine(line, standalone ? KSyntaxHighlighting::State() : m_state);
        if (!standalone)
            m_state = state;
        return std::move(m_ranges);
    }
    void setTheme(const KSyntaxHighlighting::Theme& theme) override
    {
        AbstractHighlighter::setTheme(theme);
        m_theme = theme; // theme() returns a copy: kept for applyFormat, called for every token
    }

protected:
    void applyFormat(int offset, int length, const KSyntaxHighlighting::Format& format) override
    {
        if (length <= 0 || format.isDefaultTextStyle(m_theme))
            return;
        m_ranges.push_back({offset, length, format.hasTextColor(m_theme) ? format.textColor(m_theme) : QColor(),
                            format.isBold(m_theme), format.isItalic(m_theme)});
    }

private:
    KSyntaxHighlighting::Theme m_theme;
    KSyntaxHighlighting::State m_state;
    std::vector<FormatRange> m_ranges;
};

OffscreenHighlighter::OffscreenHighlighter()
    : m_repository(std::make_unique<KSyntaxHighlighting::Repository>())
    , m_collector(std::make_unique<Collector>())
{
    auto theme = m_repository->theme(QStringLiteral("Printing"));
    if (!theme.isValid())
        theme = m_repository->defaultTheme(KSyntaxHighlighting::Repository::LightTheme);
    m_collector->setTheme(theme);
    const auto definition = m_repository->definitionForName(QLatin1String(gcnDefinitionName));
    if (!definition.isValid())
        qCWarning(lcSyntax) << "GCN syntax definition missing from the resources";
    m_collector->setDefinition(definition);
}

OffscreenHighlighter::~OffscreenHighlighter() = default;

std::vector<FormatRange> OffscreenHighlighter::highlightLine(QStringView line, bool standalone)
{
    return m_collector->highlight(line, standalone);
}

KSyntaxHighlighting::Theme OffscreenHighlighter::theme() const
{
    return m_collector->theme();
}

std::vector<NamedFormat> OffscreenHighlighter::formats() const
{
    std::vector<NamedFormat> out;
    const auto theme = m_collector->theme();
    for (const KSyntaxHighlighting::Format& f : m_collector->definition().formats())
        out.push_back({f.name(), f.hasTextColor(theme) ? f.textColor(theme) : QColor(), f.isBold(theme)});
    return out;
}

} // namespace gcnlens::ui
