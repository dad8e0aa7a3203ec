// SPDX-License-Identifier: MIT
// KSyntaxHighlighting for the editor: one long-lived Repository for the application, our GCN
// definition (resources/syntax/gcn-asm.xml, an add-on under :/org.kde.syntax-highlighting/syntax-addons)
// and the theme that matches the palette.
#pragma once

#include <QString>

class QPalette;
namespace KSyntaxHighlighting {
class Repository;
class Definition;
class Theme;
}

namespace gcnlens::ui {

inline constexpr auto gcnDefinitionName = "GCN Assembly";

KSyntaxHighlighting::Repository& syntaxRepository();
KSyntaxHighlighting::Definition gcnDefinition();
// Dark palette → dark theme, light → light: Repository::themeForPalette().
KSyntaxHighlighting::Theme themeFor(const QPalette& palette);

} // namespace gcnlens::ui
