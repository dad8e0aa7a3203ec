// SPDX-License-Identifier: MIT
// KSyntaxHighlighting for the editor: one long-lived Repository for the application, our GCN
// definition (resources/syntax/gcn-asm.xml, an add-on under :/org.kde.syntax-highlighting/syntax-addons)
// and the theme that matches the palette. And the same definition off-screen, for painters that
// are not a QTextDocument (the PDF report), as hotspot highlights its disassembly.
#pragma once

#include <QColor>
#include <QString>
#include <QStringView>

#include <memory>
#include <vector>

class QPalette;
namespace KSyntaxHighlighting {
class Repository;
class Definition;
class Theme;
}

namespace gcnlens::ui {

inline constexpr auto gcnDefinitionName = "GCN Assembly";
// CLRX's dialect: ';' separates statements, '#' comments (resources/syntax/gcn-asm-clrx.xml).
inline constexpr auto clrxDefinitionName = "GCN Assembly (CLRX)";

KSyntaxHighlighting::Repository& syntaxRepository();
KSyntaxHighlighting::Definition gcnDefinition();
KSyntaxHighlighting::Definition clrxDefinition();
// Dark palette → dark theme, light → light: Repository::themeForPalette().
KSyntaxHighlighting::Theme themeFor(const QPalette& palette);

// One run of a line in one format.
struct FormatRange {
    int start = 0;
    int length = 0;
    QColor color; // invalid: the theme's normal text
    bool bold = false;
    bool italic = false;
};

// A named format of the definition ("Vector ALU", "Register", …) in the theme, for legends.
struct NamedFormat {
    QString name;
    QColor color;
    bool bold = false;
};

// Highlights a text line by line off-screen with the GCN definition and the light "Printing" theme
// (what goes on paper). It keeps its own Repository, so it may run on any thread (the window
// exports reports off the UI thread while the editor uses the application's Repository).
class OffscreenHighlighter {
public:
    OffscreenHighlighter();
    ~OffscreenHighlighter();
    OffscreenHighlighter(const OffscreenHighlighter&) = delete;
    OffscreenHighlighter& operator=(const OffscreenHighlighter&) = delete;

    // The next line of the text (the state carries over, e.g. a block comment); a standalone line
    // is highlighted on its own and leaves the text's state alone.
    std::vector<FormatRange> highlightLine(QStringView line, bool standalone = false);
    KSyntaxHighlighting::Theme theme() const;
    std::vector<NamedFormat> formats() const;

private:
    class Collector;
    std::unique_ptr<KSyntaxHighlighting::Repository> m_repository;
    std::unique_ptr<Collector> m_collector;
};

} // namespace gcnlens::ui
