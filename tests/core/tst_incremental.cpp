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
    return QStringLiteral("line %1 off %2/%3 size %4 %5 %6 [%7] k%8 target %9 back %10")
        .arg(i.line).arg(i.offset).arg(i.sectionOffset).arg(i.size)
        .arg(QString::fromStdString(i.mnemonic), QString::fromStdString(i.operands), bytes)
        .arg(i.kernel).arg(i.targetIndex).arg(i.backward);
}

QStringList describe(const Program& p)
{
    QStringList out;
    for (const auto& i : p.instructions)
        out << describe(i);
    for (const auto& l : p.labels)
        out << QStringLiteral("label %1 line %2 off %3 inst %4").arg(QString::fromStdString(l.name)).arg(l.line).arg(l.offset).arg(l.instruction);
    for (const auto& k : p.kernels)
        out << QStringLiteral("kernel %1 [%2,%3) at %4").arg(QString::fromStdString(k.name)).arg(k.firstInstruction).arg(k.endInstruction).arg(k.sectionOffset);
    for (const auto& d : p.diagnostics)
        out << QStringLiteral("diag %1 %2").arg(d.line).arg(QString::fromStdString(d.message));
    out << QStringLiteral("regs v%1 s%2 vcc%3").arg(p.registers.maxVgpr).arg(p.registers.maxSgpr).arg(p.registers.vcc);
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
private Q_SLOTS:
    void everyLineEdit_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpu");
        QTest::addRow("saxpy") << QStringLiteral(GCNLENS_SOURCE_DIR "/resources/examples/saxpy-gfx6.s") << "tahiti";
        QTest::addRow("macros") << QStringLiteral(GCNLENS_TESTDATA_DIR "/incremental-macros.s") << "gfx900";
    }
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
