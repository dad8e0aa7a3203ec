// SPDX-License-Identifier: MIT
// A Program as lines of text, every field the front-end fills: tests that compare two ways of
// getting a program (incremental vs fresh, shape pass vs none) compare these and print the first
// difference.
#pragma once

#include "core/program.h"

#include <QString>
#include <QStringList>

namespace gcnlens::test {

inline QString describe(const Program& p, const Instruction& i)
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
    return QStringLiteral("line %1 cols %2-%3 off %4/%5 size %6 %7 %8 [%9] %10 lit%11 glc%12 data%13 ph%14 exp%15 "
                          "branch%16 %17 target %18/%19 back %20 k%21 regs %22 opcode %23")
        .arg(i.line)
        .arg(i.columnBegin)
        .arg(i.columnEnd)
        .arg(i.offset)
        .arg(p.sectionOffset(i))
        .arg(i.size)
        .arg(QString::fromStdString(i.mnemonic), QString::fromStdString(i.operands), bytes)
        .arg(int(i.family))
        .arg(i.hasLiteral)
        .arg(i.glc)
        .arg(i.isData)
        .arg(i.placeholder)
        .arg(i.fromExpansion)
        .arg(int(i.branch))
        .arg(QString::fromStdString(i.targetLabel()))
        .arg(i.targetIndex())
        .arg(i.targetOffset() ? QString::number(*i.targetOffset()) : QStringLiteral("-"))
        .arg(i.backward)
        .arg(i.kernel)
        .arg(regs)
        .arg(i.opcode);
}

inline QString describe(const RegisterUsage& r)
{
    return QStringLiteral("v%1 s%2 a%3 vcc%4 exec%5 m0%6 scc%7 flat%8 xnack%9")
        .arg(r.maxVgpr)
        .arg(r.maxSgpr)
        .arg(r.maxAgpr)
        .arg(r.vcc)
        .arg(r.exec)
        .arg(r.m0)
        .arg(r.scc)
        .arg(r.flatScratch)
        .arg(r.xnackMask);
}

inline QStringList describe(const Program& p)
{
    QStringList out;
    const GpuTarget& g = p.gpu;
    out << QStringLiteral("gpu %1|%2|%3|%4|%5 gen %6 dp %7 (%8) cu %9 waves %10 fixed %11")
               .arg(QString::fromStdString(g.name), QString::fromStdString(g.product), QString::fromStdString(g.processor),
                    QString::fromStdString(g.features), QString::fromStdString(g.targetId))
               .arg(int(g.generation))
               .arg(g.dpfactor)
               .arg(QString::fromStdString(g.dpfactorSource))
               .arg(g.computeUnits)
               .arg(g.maxWavesPerSimd)
               .arg(g.fixedSgprs);
    for (const auto& i : p.instructions)
        out << describe(p, i);
    for (const auto& l : p.labels)
        out << QStringLiteral("label %1 line %2 off %3/%4 inst %5")
                   .arg(QString::fromStdString(l.name))
                   .arg(l.line)
                   .arg(l.offset)
                   .arg(l.sectionOffset)
                   .arg(l.instruction);
    for (const auto& k : p.kernels)
        out << QStringLiteral("kernel %1 line %2 [%3,%4) at %5")
                   .arg(QString::fromStdString(k.name))
                   .arg(k.line)
                   .arg(k.firstInstruction)
                   .arg(k.endInstruction)
                   .arg(k.sectionOffset);
    for (const auto& d : p.diagnostics)
        out << QStringLiteral("diag %1 %2:%3 %4 (%5)")
                   .arg(int(d.severity))
                   .arg(d.line)
                   .arg(d.column)
                   .arg(QString::fromStdString(d.message), QString::fromStdString(d.origin));
    for (const auto& d : p.directives)
        out << QStringLiteral("directive %1 line %2 = %3 k%4")
                   .arg(QString::fromStdString(d.name))
                   .arg(d.line)
                   .arg(d.value)
                   .arg(d.kernel);
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

// The first line where two descriptions differ, for a readable failure message.
inline QString firstDifference(const QStringList& a, const QStringList& b)
{
    for (int i = 0; i < std::max(a.size(), b.size()); ++i)
        if (a.value(i) != b.value(i))
            return QStringLiteral("at %1:\n  got:      %2\n  expected: %3").arg(i).arg(a.value(i), b.value(i));
    return {};
}

} // namespace gcnlens::test
