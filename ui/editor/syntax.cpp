// SPDX-License-Identifier: MIT
#include "ui/editor/syntax.h"
#include "ui/logging.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
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

KSyntaxHighlighting::Theme themeFor(const QPalette& palette)
{
    return syntaxRepository().themeForPalette(palette);
}

} // namespace gcnlens::ui
