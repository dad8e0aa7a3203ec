// SPDX-License-Identifier: MIT
// `gcnlens-cli check` (issue #17 section 1): the wait-state hazards and s_waitcnt findings of
// core/model/hazards.h, as compiler-style lines or JSON. Exits 3 when it finds something, so it
// can run in a build.
#include "commands.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace gcnlens::cli {

namespace {

constexpr int ExitFindings = 3;

QJsonObject hazardJson(const HazardFinding& h)
{
    return {{QStringLiteral("rule"), QString::fromStdString(h.rule)},
            {QStringLiteral("line"), h.line},
            {QStringLiteral("producer_line"), h.producerLine},
            {QStringLiteral("required"), h.required},
            {QStringLiteral("present"), h.present},
            {QStringLiteral("fix"), QString::fromStdString(h.fix)},
            {QStringLiteral("detail"), QString::fromStdString(h.detail)}};
}

QJsonObject waitJson(const WaitcntFinding& w)
{
    return {{QStringLiteral("rule"), QString::fromStdString(w.rule)},
            {QStringLiteral("line"), w.line},
            {QStringLiteral("producer_line"), w.producerLine},
            {QStringLiteral("counter"), QString::fromStdString(w.counter)},
            {QStringLiteral("access"), QString::fromStdString(w.access)},
            {QStringLiteral("register"), QString::fromStdString(w.reg)},
            {QStringLiteral("not_guaranteed"), w.notGuaranteed},
            {QStringLiteral("count"), w.count},
            {QStringLiteral("fix"), QString::fromStdString(w.fix)},
            {QStringLiteral("detail"), QString::fromStdString(w.detail)}};
}

} // namespace

int checkCommand(const QStringList& args)
{
    SourceArgs source;
    AnalysisRequest request;
    bool asJson = false;
    OptionParser parser(QStringLiteral("check"));
    parser.addSource(source);
    parser.addTimingOptions(request.timing);
    parser.addJson(&asJson);
    if (const auto status = parser.parse(args))
        return *status;
    Analysis analysis;
    if (!loadAnalysis(source, request, analysis))
        return ExitUsage;
    const CheckResult& checks = analysis.checks;
    const bool found = !checks.hazards.empty() || !checks.waits.empty();
    const int status = analysis.program.hasErrors() ? ExitInputErrors : found ? ExitFindings : ExitOk;
    if (asJson) {
        QJsonArray hazards, waits, notes;
        for (const HazardFinding& h : checks.hazards)
            hazards.append(hazardJson(h));
        for (const WaitcntFinding& w : checks.waits)
            waits.append(waitJson(w));
        for (const std::string& n : checks.notes)
            notes.append(QString::fromStdString(n));
        const QJsonObject root {{QStringLiteral("gpu"), QString::fromStdString(analysis.program.gpu.targetId)},
                                {QStringLiteral("hazards"), hazards},
                                {QStringLiteral("waits"), waits},
                                {QStringLiteral("notes"), notes}};
        QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
        return status;
    }
    printDiagnostics(source, analysis.program);
    QTextStream out(stdout);
    const QString name = inputName(source);
    for (const HazardFinding& h : checks.hazards)
        out << name << ":" << h.line << ": " << QString::fromStdString(h.rule) << ": "
            << QString::fromStdString(h.detail) << "; fix: " << QString::fromStdString(h.fix).replace(QLatin1Char('\n'), QStringLiteral("; "))
            << "\n";
    for (const WaitcntFinding& w : checks.waits)
        out << name << ":" << w.line << ": " << QString::fromStdString(w.rule) << ": "
            << QString::fromStdString(w.detail) << "\n";
    out << "; " << checks.hazards.size() << " hazard(s), " << checks.waits.size() << " s_waitcnt finding(s) on "
        << QString::fromStdString(analysis.program.gpu.targetId) << "\n";
    return status;
}

} // namespace gcnlens::cli
