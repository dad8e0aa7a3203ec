// SPDX-License-Identifier: MIT
// One logging category per ui component (enable with QT_LOGGING_RULES="gcnlens.ui.*=true").
#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcBridge)       // gcnlens.ui.bridge: background analysis jobs
Q_DECLARE_LOGGING_CATEGORY(lcEditor)       // gcnlens.ui.editor: the code editor and its gutter
Q_DECLARE_LOGGING_CATEGORY(lcSyntax)       // gcnlens.ui.syntax: KSyntaxHighlighting setup
Q_DECLARE_LOGGING_CATEGORY(lcOccupancy)    // gcnlens.ui.occupancy: the occupancy dock
Q_DECLARE_LOGGING_CATEGORY(lcLds)          // gcnlens.ui.lds: the LDS heatmap dock
Q_DECLARE_LOGGING_CATEGORY(lcFiles)        // gcnlens.ui.files: open/save, recovery, settings
Q_DECLARE_LOGGING_CATEGORY(lcReportExport) // gcnlens.ui.export: File → Export Report…
