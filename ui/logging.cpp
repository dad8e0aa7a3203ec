// SPDX-License-Identifier: MIT
#include "ui/logging.h"

Q_LOGGING_CATEGORY(lcBridge, "gcnlens.ui.bridge", QtWarningMsg)
Q_LOGGING_CATEGORY(lcEditor, "gcnlens.ui.editor", QtWarningMsg)
Q_LOGGING_CATEGORY(lcSyntax, "gcnlens.ui.syntax", QtWarningMsg)
Q_LOGGING_CATEGORY(lcOccupancy, "gcnlens.ui.occupancy", QtWarningMsg)
Q_LOGGING_CATEGORY(lcLds, "gcnlens.ui.lds", QtWarningMsg)
Q_LOGGING_CATEGORY(lcFiles, "gcnlens.ui.files", QtWarningMsg)
Q_LOGGING_CATEGORY(lcReportExport, "gcnlens.ui.export", QtWarningMsg)
