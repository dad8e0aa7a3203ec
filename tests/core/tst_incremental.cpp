// SPDX-License-Identifier: MIT
// FrontEnd's incremental path (issue #2 section 6) must give what a fresh assemble() gives:
// every one-line edit of real kernels is replayed both ways and the programs compared.
#include "core/program.h"

#include <QFile>
#include <QTest>

using namespace gcnlens;

namespace {

QString describe(const Instruction& i)
{
    QString bytes;
    for (auto b : i.encoding)
        bytes += QString::number(b, 16).rightJustified(2, QLatin1Char('0'));
    QString regs;
    for (const auto* list : {&i.defs, &i.uses}) {
        for (const auto& r : *list)
            regs += QStringLiteral("%1:%2+%3 ").arg(int(r.kind)).arg(r.first).arg(r.count);
        regs += QLatin1Char('|');
    }
    return QStringLiteral("line %1 cols %2-%3 off %4/%5 size %6 %7 %8 [%9] k%10 target %11 back %12 regs %13 ph%14")
        .arg(i.line).arg(i.columnBegin).arg(i.columnEnd).arg(i.offset).arg(i.sectionOffset).arg(i.size)
        .arg(QString::fromStdString(i.mnemonic), QString::fromStdString(i.operands), bytes)
        .arg(i.kernel).arg(i.targetIndex).arg(i.backward).arg(regs).arg(i.placeholder);
}

QString describe(const RegisterUsage& r)
{
    return QStringLiteral("v%1 s%2 a%3 vcc%4 exec%5 m0%6 scc%7 flat%8 xnack%9")
        .arg(r.maxVgpr).arg(r.maxSgpr).arg(r.maxAgpr).arg(r.vcc).arg(r.exec).arg(r.m0).arg(r.scc).arg(r.flatScratch)
        .arg(r.xnackMask);
}

QStringList describe(const Program& p)
{
    QStringList out;
    for (const auto& i : p.instructions)
        out << describe(i);
    for (const auto& l : p.labels)
        out << QStringLiteral("label %1 line %2 off %3/%4 inst %5").arg(QString::fromStdString(l.name)).arg(l.line).arg(l.offset)
                   .arg(l.sectionOffset).arg(l.instruction);
    for (const auto& k : p.kernels)
        out << QStringLiteral("kernel %1 line %2 [%3,%4) at %5").arg(QString::fromStdString(k.name)).arg(k.line)
                   .arg(k.firstInstruction).arg(k.endInstruction).arg(k.sectionOffset);
    for (const auto& d : p.diagnostics)
        out << QStringLiteral("diag %1:%2 %3").arg(d.line).arg(d.column).arg(QString::fromStdString(d.message));
    for (const auto& d : p.directives)
        out << QStringLiteral("directive %1 line %2 = %3 k%4").arg(QString::fromStdString(d.name)).arg(d.line).arg(d.value).arg(d.kernel);
    for (const auto& [line, indices] : p.lineToInstructions) {
        QStringList list;
        for (const int i : indices)
            list << QString::number(i);
        out << QStringLiteral("line %1 -> %2").arg(line).arg(list.join(QLatin1Char(',')));
    }
    out << QStringLiteral("regs ") + describe(p.registers);
    for (const auto& r : p.kernelRegisters)
        out << QStringLiteral("kernel regs ") + describe(r);
    return out;
}

QString readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

} // namespace

class TestIncremental : public QObject
{
    Q_OBJECT
    static void addKernels()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpu");
        QTest::addRow("saxpy") << QStringLiteral(GCNLENS_SOURCE_DIR "/resources/examples/saxpy-gfx6.s") << "tahiti";
        QTest::addRow("macros") << QStringLiteral(GCNLENS_TESTDATA_DIR "/incremental-macros.s") << "gfx900";
    }

private Q_SLOTS:
    void everyLineEdit_data() { addKernels(); }
    void everyLineEdit()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpu);
        const QString text = readFile(file);
        QVERIFY2(!text.isEmpty(), qPrintable(file));
        const QStringList lines = text.split(QLatin1Char('\n'));
        AssembleOptions options;
        options.gpu = gpu.toStdString();

        // Edits per line: delete it, duplicate it, replace it with a different-size instruction,
        // with garbage, and with a blank line.
        const QStringList replacements = {QStringLiteral("    v_add_f32 v1, 0x12345678, v1"),
                                          QStringLiteral("    s_nop 0"), QStringLiteral("    qwerty v1"),
                                          QString()};
        int edits = 0;
        for (int l = 0; l < lines.size(); ++l) {
            QList<QStringList> variants;
            QStringList del = lines;
            del.removeAt(l);
            variants << del;
            QStringList dup = lines;
            dup.insert(l, lines[l]);
            variants << dup;
            for (const auto& r : replacements) {
                QStringList rep = lines;
                rep[l] = r;
                variants << rep;
            }
            for (const auto& variant : variants) {
                FrontEnd frontEnd;
                const std::string before = text.toStdString();
                frontEnd.analyze(before, options);
                const std::string after = variant.join(QLatin1Char('\n')).toStdString();
                const Program incremental = frontEnd.analyze(after, options);
                const Program fresh = assemble(after, options);
                // A placeholder may keep its pre-edit size on the incremental path (by design).
                bool placeholder = false;
                for (const auto& i : incremental.instructions)
                    placeholder = placeholder || i.placeholder;
                if (placeholder)
                    continue;
                const QStringList a = describe(incremental), b = describe(fresh);
                if (a != b) {
                    for (int i = 0; i < std::max(a.size(), b.size()); ++i)
                        if (a.value(i) != b.value(i)) {
                            qWarning().noquote() << "edit of line" << l + 1 << "first difference:\n incremental:" << a.value(i)
                                       << "\n fresh:      " << b.value(i) << "\n--- edited text:\n" << QString::fromStdString(after)
                                       << "\n--- incremental:\n" << a.join(QLatin1Char('\n')) << "\n--- fresh:\n" << b.join(QLatin1Char('\n'));
                            break;
                        }
                }
                QCOMPARE(a, b);
                ++edits;
            }
        }
        QVERIFY(edits > lines.size());
    }

    // One FrontEnd through a whole editing session: the state it keeps between edits (line scan,
    // register counts, line index) must stay right over many successive edits, not just one.
    void typingSession_data() { addKernels(); }
    void typingSession()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpu);
        std::string text = readFile(file).toStdString();
        QVERIFY2(!text.empty(), qPrintable(file));
        AssembleOptions options;
        options.gpu = gpu.toStdString();
        FrontEnd frontEnd;
        frontEnd.analyze(text, options);
        // A fixed pseudo-random walk (reproducible): type a new instruction character by character
        // somewhere, press Enter in the middle of lines, delete characters and whole lines.
        std::uint32_t seed = 12345;
        const auto next = [&](std::uint32_t bound) {
            seed = seed * 1664525u + 1013904223u;
            return (seed >> 8) % bound;
        };
        const std::string typed = "v_mad_f32 v40, v1, s3, 0x1234\ns_add_u32 s7, s7, 4\n";
        int steps = 0;
        for (int round = 0; round < 24; ++round) {
            std::size_t at = next(std::uint32_t(text.size()));
            at = text.rfind('\n', at == 0 ? 0 : at - 1);
            at = at == std::string::npos ? 0 : at + 1; // a line start
            std::vector<std::string> states;
            switch (round % 4) {
            case 0: // typing a line
                for (std::size_t n = 1; n < typed.size(); n += 3)
                    states.push_back(text.substr(0, at) + typed.substr(0, n) + text.substr(at));
                states.push_back(text.substr(0, at) + typed + text.substr(at));
                break;
            case 1: { // Enter inside a line, then undo it
                const std::size_t end = text.find('\n', at);
                const std::size_t mid = at + (end == std::string::npos ? text.size() - at : end - at) / 2;
                states.push_back(text.substr(0, mid) + "\n" + text.substr(mid));
                states.push_back(text);
                break;
            }
            case 2: { // backspace over a line, character by character
                const std::size_t end = std::min(text.find('\n', at), text.size());
                for (std::size_t n = end; n > at; n -= std::min<std::size_t>(4, n - at))
                    states.push_back(text.substr(0, n) + text.substr(end));
                states.push_back(text.substr(0, at) + text.substr(std::min(end + 1, text.size())));
                break;
            }
            case 3: // paste three lines
                states.push_back(text.substr(0, at) + "s_nop 0\nv_mov_b32 v2, 1.0\nv_add_f32 v3, v2, v2\n" + text.substr(at));
                break;
            }
            for (const auto& state : states) {
                const Program incremental = frontEnd.analyze(state, options);
                const Program fresh = assemble(state, options);
                // A placeholder may keep its pre-edit size (program.h); a fresh run assumes 4 bytes.
                bool keptSize = false;
                for (const auto& i : incremental.instructions)
                    keptSize = keptSize || (i.placeholder && i.operands.find("before this edit") != std::string::npos);
                if (!keptSize) {
                    const QStringList a = describe(incremental), b = describe(fresh);
                    if (a != b)
                        qWarning().noquote() << "round" << round << "text:\n" << QString::fromStdString(state);
                    QCOMPARE(a, b);
                    ++steps;
                }
                text = state;
            }
        }
        QVERIFY(steps > 40);
    }

    void halfTypedLineKeepsItsSize()
    {
        AssembleOptions options;
        const std::string before = "v_add_f32 v1, 0x12345678, v1\ns_nop 0\ns_endpgm\n";
        const std::string typing = "v_add_f32 v1, 0x1234\ns_nop 0\ns_endpgm\n"; // src1 missing: fails
        const std::string typing2 = "v_add_f32 v1, 0x1234, \ns_nop 0\ns_endpgm\n";
        const std::string done = "v_add_f32 v1, 0x1234, v1\ns_nop 0\ns_endpgm\n";
        FrontEnd frontEnd;
        QCOMPARE(frontEnd.analyze(before, options).instructions.at(1).offset, 8u);
        for (const auto& text : {typing, typing2}) {
            const Program p = frontEnd.analyze(text, options);
            QVERIFY(p.instructions.at(0).placeholder);
            QCOMPARE(p.instructions.at(0).size, 8);   // kept from before the edit
            QCOMPARE(p.instructions.at(1).offset, 8u); // so s_nop does not move
        }
        const Program finished = frontEnd.analyze(done, options);
        QVERIFY(!finished.instructions.at(0).placeholder);
        QCOMPARE(finished.instructions.at(0).size, 8); // the real size from the assembler
        QCOMPARE(assemble(typing2, options).instructions.at(1).offset, 4u); // a fresh run assumes 4
    }
};

QTEST_GUILESS_MAIN(TestIncremental)
#include "tst_incremental.moc"
