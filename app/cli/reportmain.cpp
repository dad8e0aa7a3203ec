// SPDX-License-Identifier: MIT
// gcnlens-report: gcnlens-cli with the PDF report linked in. gcnlens-cli runs it for `report`
// (reportlauncher.cpp), so that its other commands start without Qt Gui, Widgets and Charts.
#include "commands.h"

int main(int argc, char** argv)
{
    return gcnlens::cli::run(argc, argv);
}
