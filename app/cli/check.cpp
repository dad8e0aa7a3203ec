// SPDX-License-Identifier: MIT
// `gcnlens-cli check` (issue #17 section 1): the wait-state hazards and s_waitcnt findings of
// core/model/hazards.h, as compiler-style lines or JSON. Exits 3 when it finds something, so it
// can run in a build. --fix-its prints the fixes of core/model/fixits.h as a unified diff.
#include "commands.h"

#include "core/asm/isolated.h"
#include "core/model/fixits.h"

#include <QDir>
#include <QFile>

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

QJsonObject fixItJson(const FixIt& f)
{
    QJsonArray edits;
    for (const TextEdit& e : f.edits)
        edits.append(QJsonObject {{QStringLiteral("line"), e.line},
                                  {QStringLiteral("column"), e.column},
                                  {QStringLiteral("end_line"), e.endLine},
                                  {QStringLiteral("end_column"), e.endColumn},
                                  {QStringLiteral("text"), QString::fromStdString(e.text)}});
    return {{QStringLiteral("rule"), QString::fromStdString(f.finding.rule)},
            {QStringLiteral("line"), f.finding.line},
            {QStringLiteral("kind"), QString::fromStdString(f.kind)},
            {QStringLiteral("summary"), QString::fromStdString(f.summary)},
            {QStringLiteral("cycles_before"), f.cyclesBefore},
            {QStringLiteral("cycles_after"), f.cyclesAfter},
            {QStringLiteral("delta"), f.delta()},
            {QStringLiteral("edits"), edits}};
}

// The path the diff names: relative to the current folder, for patch -p1 and git apply.
std::string diffPath(const SourceArgs& source)
{
    if (source.file == QLatin1String("-"))
        return "stdin.s";
    return QDir::current().relativeFilePath(source.file).toStdString();
}

// The loader gives the text with LF line breaks; a diff of a CR LF file must carry its CRs in the
// lines it quotes and adds, or patch finds no match.
bool usesCrLf(const SourceArgs& source)
{
    QFile file(source.file);
    return source.file != QLatin1String("-") && file.open(QIODevice::ReadOnly) && file.read(1 << 16).contains("\r\n");
}

std::string withCrLf(const std::string& diff)
{
    std::string out;
    std::size_t at = 0;
    while (at < diff.size()) {
        const std::size_t end = diff.find('\n', at);
        const std::string line = diff.substr(at, end - at);
        const bool quoted = !line.empty() && (line[0] == ' ' || line[0] == '+' || line[0] == '-') && line.rfind("+++ ", 0) != 0
            && line.rfind("--- ", 0) != 0;
        out += line + (quoted ? "\r\n" : "\n");
        at = end == std::string::npos ? diff.size() : end + 1;
    }
    return out;
}

} // namespace

int checkCommand(const QStringList& args)
{
    SourceArgs source;
    AnalysisRequest request;
    bool asJson = false;
    bool withFixIts = false;
    OptionParser parser(QStringLiteral("check"));
    parser.addSource(source);
    parser.addTimingOptions(request.timing);
    parser.addJson(&asJson);
    parser.addFlag({QStringLiteral("--fix-its")},
                   QStringLiteral("print the fixes as a unified diff (patch -p1), each with its measured cycle delta"),
                   &withFixIts);
    if (const auto status = parser.parse(args))
        return *status;
    Analysis analysis;
    QString text;
    std::optional<AnalysisRequest> assembledWith;
    if (!loadAnalysis(source, request, analysis, &text, &assembledWith))
        return ExitUsage;
    std::vector<FixIt> fixits;
    if (withFixIts && assembledWith) {
        IsolatedFrontEnd frontEnd;
        const AssembleOptions options = assembledWith->assemble;
        fixits = findFixIts(text.toStdString(), analysis, *assembledWith,
                            [&](const std::string& edited) { return Program(frontEnd.analyze(edited, options)); });
    }
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
        QJsonObject options; // hazards.md §4: the readings the findings rest on
        for (const auto& [name, value] : request.timing.checks.values())
            options.insert(QString::fromStdString(name), QString::fromStdString(value));
        QJsonObject root {{QStringLiteral("gpu"), QString::fromStdString(analysis.program.gpu.targetId)},
                          {QStringLiteral("hazards"), hazards},
                          {QStringLiteral("waits"), waits},
                          {QStringLiteral("options"), options},
                          {QStringLiteral("notes"), notes}};
        if (withFixIts) {
            QJsonArray list;
            for (const FixIt& f : fixits)
                list.append(fixItJson(f));
            root.insert(QStringLiteral("fixits"), list);
        }
        QTextStream(stdout) << QJsonDocument(root).toJson(QJsonDocument::Indented);
        return status;
    }
    printDiagnostics(source, analysis.program);
    // With --fix-its standard output is the diff alone (so it pipes into patch); the findings go to
    // standard error.
    FILE* findingsTo = withFixIts ? stderr : stdout;
    QTextStream out(findingsTo);
    const QString name = inputName(source);
    for (const HazardFinding& h : checks.hazards)
        out << name << ":" << h.line << ": " << QString::fromStdString(h.rule) << ": " << QString::fromStdString(h.detail)
            << "; fix: " << QString::fromStdString(h.fix).replace(QLatin1Char('\n'), QStringLiteral("; ")) << "\n";
    for (const WaitcntFinding& w : checks.waits)
        out << name << ":" << w.line << ": " << QString::fromStdString(w.rule) << ": " << QString::fromStdString(w.detail)
            << "\n";
    out << "; " << checks.hazards.size() << " hazard(s), " << checks.waits.size() << " s_waitcnt finding(s) on "
        << QString::fromStdString(analysis.program.gpu.targetId) << "\n";
    if (withFixIts) {
        out.flush();
        int leftOut = 0;
        std::string diff = unifiedDiff(diffPath(source), text.toStdString(), fixits, 2, &leftOut);
        if (usesCrLf(source))
            diff = withCrLf(diff);
        if (!fixits.empty())
            QTextStream(stdout) << QString::fromStdString(diff);
        out << "; " << fixits.size() - leftOut << " fix-it(s) in the diff"
            << (leftOut ? QStringLiteral(", %1 left out (overlapping an earlier one: run again after applying)").arg(leftOut)
                        : QString())
            << (assembledWith ? QString() : QStringLiteral(" (the input is not source text)")) << "\n";
    }
    return status;
}

} // namespace gcnlens::cli
