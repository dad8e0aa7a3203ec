// SPDX-License-Identifier: MIT
// The status bar's dialect switch (issue #13): shows the dialect the current text is read in
// (LLVM or CLRX, detected unless the user chose one) and lets the user choose; the choice is
// remembered per file, in the file's settings group beside its include paths and defsyms.
// Kept out of MainWindow, which only tells it the file's settings group and the text.
#pragma once

#include "core/asm/assembler.h"

#include <QLabel>

class QMenu;
class QSyntaxHighlighter;

namespace gcnlens::ui {

class AnalysisBridge;

// A label (the status bar keeps its height) whose link opens the menu of choices.
class DialectSwitch : public QLabel {
    Q_OBJECT
public:
    // highlighter: the editor's (KSyntaxHighlighting); it gets the CLRX definition for CLRX texts.
    DialectSwitch(AnalysisBridge* bridge, QSyntaxHighlighter* highlighter, QWidget* parent = nullptr);

    // The QSettings group of the current file ("files/KEY"): reads the remembered choice and puts it
    // in the bridge's request (a change re-analyses).
    void setFileGroup(const QString& group);
    // Auto: shows what detection makes of the text (its first lines, as the assembler looks).
    void updateDetected(const QString& text);

    AssembleOptions::Dialect choice() const;
    AssembleOptions::Dialect detected() const { return m_detected; }
    // What the text is read in: the choice, or the detected dialect under Auto.
    AssembleOptions::Dialect effective() const;
    // As if the user picked it: remembered for the file, re-analyses.
    void choose(AssembleOptions::Dialect dialect);
    // What the status bar says ("CLRX (detected)", "LLVM", …) and the menu the label opens.
    QString shown() const { return m_shown; }
    QMenu* menu() const { return m_menu; }

private:
    void apply(AssembleOptions::Dialect dialect);
    void relabel();
    void updateHighlighting();

    AnalysisBridge* m_bridge;
    QSyntaxHighlighter* m_highlighter;
    QMenu* m_menu;
    QString m_shown;
    AssembleOptions::Dialect m_choice = AssembleOptions::Dialect::Auto;
    bool m_clrxColours = false;
    QString m_group;
    AssembleOptions::Dialect m_detected = AssembleOptions::Dialect::Llvm;
};

} // namespace gcnlens::ui
