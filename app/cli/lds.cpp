// SPDX-License-Identifier: MIT
// `gcnlens-cli lds` (issue #4 section 4): bank conflicts of a per-lane address pattern, as JSON or
// as a text heatmap (lanes × banks, each cell the dword row the lane hits there).
#include "commands.h"

#include "core/model/lds.h"
#include "core/present/json.h"

#include <QTextStream>

namespace gcnlens::cli {

namespace {

// One cell of the heatmap: the row in base 36, so different symbols in one bank column of a group
// are exactly the conflicts.
QChar rowSymbol(std::int64_t row)
{
    const int r = int(((row % 36) + 36) % 36);
    return QLatin1Char(r < 10 ? char('0' + r) : char('a' + r - 10));
}

void printHeatmap(QTextStream& out, const LdsAccessResult& r)
{
    out << "lane  bank 0         1         2         3\n";
    out << "           01234567890123456789012345678901  rows\n";
    const int perAccess = r.groupsPerAccess > 0 ? r.groupsPerAccess : int(r.groups.size());
    for (std::size_t g = 0; g < r.groups.size(); ++g) {
        const LaneGroup& group = r.groups[g];
        const bool second = int(g) >= perAccess;
        const LaneList& lanes = second ? r.secondLanes : r.lanes;
        out << QStringLiteral("-- group %1%2: lanes %3, degree %4\n")
                   .arg(g)
                   .arg(r.twoAccesses ? (second ? QStringLiteral(" (offset1)") : QStringLiteral(" (offset0)")) : QString())
                   .arg(QString::fromStdString(laneGroupText(group)))
                   .arg(group.degree);
        for (const int lane : group.members) {
            const LaneAccess& a = lanes[lane];
            QString cells(32, QLatin1Char('.'));
            if (a.known)
                for (int d = 0; d < a.dwords; ++d) {
                    const std::int64_t dword = (a.address >> 2) + d;
                    cells[int(dword & 31)] = rowSymbol(dword >> 5);
                }
            else
                cells = QString(32, QLatin1Char('?'));
            out << QStringLiteral("%1       |%2|\n").arg(lane, 3).arg(cells);
        }
        QString rows;
        for (int b = 0; b < 32; ++b) {
            const int n = r.bankRows[g][b];
            rows += n == 0 ? QLatin1Char(' ') : n < 10 ? QLatin1Char(char('0' + n)) : QLatin1Char('+');
        }
        out << QStringLiteral("    rows/bank |%1|\n").arg(rows);
    }
    QStringList load;
    for (int v : r.bankLoad)
        load << QString::number(v);
    out << "bank load (dword requests, banks 0-31): " << load.join(QLatin1Char(' ')) << "\n";
}

} // namespace

int ldsCommand(const QStringList& args)
{
    TimingOptions options;
    QString pattern;
    QString op = QStringLiteral("b32");
    std::map<std::string, std::int64_t> parameters;
    bool asJson = false;
    OptionParser parser(QStringLiteral("lds"));
    parser.addString({QStringLiteral("--pattern")}, QStringLiteral("EXPR"),
                     QStringLiteral("the byte address of each lane, e.g. 'lane*4*33'"), &pattern);
    parser.addString({QStringLiteral("--width"), QStringLiteral("--op")}, QStringLiteral("BYTES|NAME"),
                     QStringLiteral("access width in bytes or DS op name (default b32)"), &op);
    parser.addPatternParameters(parameters);
    parser.addTimingOptions(options);
    parser.addJson(&asJson);
    parser.setRequired(QStringLiteral("--pattern"));
    if (const auto status = parser.parse(args))
        return *status;

    // Without a GPU, lds-phases=auto is the GCN grouping (docs/model.md L-phases).
    const LdsAccessResult result = analyzeLdsPattern(pattern.toStdString(), op.toStdString(), parameters, options.ldsGroupDwords,
                                                     ldsPhasesFor(Generation::GFX9, options.ldsPhases));
    if (asJson) {
        json::writeLdsAccess(stdout, result);
        return result.error.empty() ? ExitOk : ExitUsage;
    }
    if (!result.error.empty()) {
        if (result.errorColumn >= 0) {
            printError(QStringLiteral("lds: pattern column %1: %2")
                           .arg(result.errorColumn + 1)
                           .arg(QString::fromStdString(result.error)));
            QTextStream err(stderr);
            err << "  " << pattern << "\n  " << QString(result.errorColumn, QLatin1Char(' ')) << "^\n";
        } else {
            printError(QStringLiteral("lds: %1").arg(QString::fromStdString(result.error)));
        }
        return ExitUsage;
    }
    QTextStream out(stdout);
    out << QString::fromStdString(result.op) << " " << pattern << ": degree " << result.degree << " (worst group), "
        << result.cycles << " LDS cycles, conflict-free " << result.conflictFreeCycles << " ("
        << QString::number(double(result.cycles) / std::max(1, result.conflictFreeCycles), 'f', 2) << "x)\n";
    printHeatmap(out, result);
    return ExitOk;
}

} // namespace gcnlens::cli
