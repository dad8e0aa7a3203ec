// SPDX-License-Identifier: MIT
// Drives the real gcnlens window on a generated 10k-instruction kernel and prints medians of:
//   keystroke → repaint (UI thread: key handling + repaint of the edited view),
//   analysis result → repainted highlights (snapshot applied to every panel + repaint),
//   keystroke → highlights of the new text on screen (the whole round trip with the window's own
//     debounce, up to the end of the window repaint that shows them), for three kinds of
//     keystroke in the middle of the file:
//       a trailing space (the program does not change),
//       an operand digit (v6 → v61: the instruction and the kernel's VGPR count change),
//       a literal digit (6 → 65: an inline constant becomes a 32-bit literal, the instruction
//         grows by 4 bytes and every instruction after it moves: timing and gutter change below),
//   slider drag step → occupancy readout and chart repainted (VGPR and SGPR axes).
// Usage: bench_editor [instructions=10000] [samples=40] [kinds=space,operand,literal]
//        (offscreen platform unless set; kinds picks the keystrokes, e.g. to profile one)
#include "ui/docks/occupancydock.h"
#include "ui/editor/codeeditor.h"
#include "ui/mainwindow.h"

#include "benchmemory.h"

#include <QApplication>
#include <QChartView>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>

#include <algorithm>
#include <cstdio>

using namespace gcnlens;
using namespace gcnlens::ui;

static QString kernel(int instructions)
{
    // A mix of 1- and 2-dword VALU/SALU/SMEM/DS/VMEM instructions with a backward loop every 200.
    static const char* body[] = {
        "    v_add_f32 v4, v2, v6",      "    v_mov_b32 v5, 0x3dcccccd",
        "    s_add_u32 s11, s9, 0x1000", "    v_lshlrev_b32 v7, 2, v0",
        "    ds_read_b32 v8, v7",        "    v_fma_f32 v9, v2, v8, v4",
        "    s_mov_b32 s10, 6",          "    v_add_i32 v3, vcc, s4, v1",
        "    s_waitcnt lgkmcnt(0)",      "    buffer_load_dword v12, v1, s[4:7], 0 offen",
    };
    QString text = QStringLiteral(".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n    s_load_dwordx4 s[4:7], s[0:1], 0x0\n");
    int n = 1;
    int loop = 0;
    while (n < instructions - 1) {
        if (n % 200 == 1)
            text += QStringLiteral("L%1:\n").arg(loop);
        if (n % 200 == 198) {
            text += QStringLiteral("    s_cmp_lg_u32 s9, 0\n    s_cbranch_scc1 L%1\n").arg(loop++);
            n += 2;
            continue;
        }
        text += QLatin1String(body[n % 10]) + QLatin1Char('\n');
        ++n;
    }
    text += QStringLiteral("    s_endpgm\n");
    return text;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

static double ms(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int count = argc > 1 ? std::atoi(argv[1]) : 10000;
    const int samples = argc > 2 ? std::atoi(argv[2]) : 40;
    const QString only = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.s"));
    {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        f.write(kernel(count).toUtf8());
    }
    MainWindow window;
    window.resize(1600, 1000);
    window.setGpu(QStringLiteral("tahiti"));
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return 1;
    CodeEditor* editor = window.editor();
    AnalysisBridge* bridge = window.bridge();
    auto settled = [&] { return bridge->upToDate(); };
    QElapsedTimer open;
    open.start();
    window.openFile(path);
    while (!settled())
        QTest::qWait(5);
    const double openMs = ms(open);
    const auto first = bridge->current();
    std::printf("kernel: %d instructions, %d lines, first analysis %.1f ms (open→settled %.1f ms)\n",
                first->analysis.timing.totals.instructions, editor->blockCount(), first->milliseconds, openMs);

    // Edit in the middle of the file, on screen: type at the end of a line, then delete it again
    // (the program stays valid; each keystroke is a new request).
    auto placeCursor = [&](const QString& lineText) {
        int line = editor->blockCount() / 2;
        while (line < editor->blockCount() && editor->document()->findBlockByNumber(line - 1).text() != lineText)
            ++line;
        editor->jumpToLine(line);
        QTextCursor cursor(editor->document()->findBlockByNumber(line - 1));
        cursor.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(cursor);
        QTest::qWait(50);
        return line;
    };
    placeCursor(QStringLiteral("    v_add_f32 v4, v2, v6"));

    // (1) keystroke → repaint of the edit on the UI thread.
    std::vector<double> keyPaint;
    for (int i = 0; i < samples; ++i) {
        QElapsedTimer t;
        t.start();
        QTest::keyClick(editor, i % 2 ? Qt::Key_Backspace : Qt::Key_Space);
        editor->viewport()->repaint();
        editor->gutter()->repaint();
        keyPaint.push_back(ms(t));
        while (!settled())
            QTest::qWait(1);
    }

    // (2) analysis result → highlights repainted, and (3) keystroke → new highlights painted,
    // with the window's own debounce (it starts at once while analyses are quick), the background
    // analysis included.
    struct RoundTrip {
        const char* name; // for the kinds argument
        const char* what;
        QString line;
        Qt::Key key;
        std::vector<double> applyPaint, roundTrip, analysisMs;
    };
    std::vector<RoundTrip> kinds = {
        {"space", "trailing space", QStringLiteral("    v_add_f32 v4, v2, v6"), Qt::Key_Space, {}, {}, {}},
        {"operand", "operand digit ", QStringLiteral("    v_add_f32 v4, v2, v6"), Qt::Key_1, {}, {}, {}},
        {"literal", "literal digit ", QStringLiteral("    s_mov_b32 s10, 6"), Qt::Key_5, {}, {}, {}},
    };
    if (!only.isEmpty())
        std::erase_if(kinds, [&](const RoundTrip& k) { return !only.split(QLatin1Char(',')).contains(QLatin1String(k.name)); });
    for (RoundTrip& kind : kinds) {
        placeCursor(kind.line);
        for (int i = 0; i < samples; ++i) {
            QElapsedTimer key, ready;
            bool painted = false;
            quint64 job = 0;
            auto c1 = QObject::connect(
                bridge, &AnalysisBridge::analysisReady, &window,
                [&](SnapshotPtr s) {
                    ready.start();
                    job = s->job;
                    kind.analysisMs.push_back(s->milliseconds);
                },
                Qt::DirectConnection);
            auto c2 = QObject::connect(editor, &CodeEditor::highlightsPainted, &window, [&](quint64 j) {
                if (j != job || !job)
                    return;
                // The editor paints inside the window's repaint, which then paints the other
                // panels that changed and flushes: the highlights are on screen when that is
                // done, i.e. when the event loop runs the next posted call.
                QMetaObject::invokeMethod(
                    &window,
                    [&] {
                        painted = true;
                        kind.applyPaint.push_back(ms(ready));
                        kind.roundTrip.push_back(ms(key));
                    },
                    Qt::QueuedConnection);
            });
            key.start();
            QTest::keyClick(editor, i % 2 ? Qt::Key_Backspace : kind.key);
            QElapsedTimer guard;
            guard.start();
            while (!painted && guard.elapsed() < 10000)
                QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
            QObject::disconnect(c1);
            QObject::disconnect(c2);
            while (!settled())
                QTest::qWait(1);
        }
        if (samples % 2) // leave the line as it was
            QTest::keyClick(editor, Qt::Key_Backspace);
        while (!settled())
            QTest::qWait(1);
    }

    // (4) slider drag → readout + chart repainted.
    OccupancyDock* occupancy = window.occupancy();
    auto* chart = occupancy->findChild<QChartView*>();
    std::vector<double> dragVgpr, dragSgpr;
    occupancy->setChartAxis(CurveAxis::Vgpr);
    for (int v = 1; v <= 256; v += 256 / std::max(samples, 1) + 1) {
        QElapsedTimer t;
        t.start();
        occupancy->setValue(OccupancyDock::Vgpr, v);
        chart->viewport()->repaint();
        occupancy->repaint();
        dragVgpr.push_back(ms(t));
    }
    occupancy->setChartAxis(CurveAxis::Sgpr);
    for (int v = 1; v <= 256; v += 256 / std::max(samples, 1) + 1) {
        QElapsedTimer t;
        t.start();
        occupancy->setValue(OccupancyDock::Vgpr, v); // the SGPR curve depends on the VGPRs: it changes
        chart->viewport()->repaint();
        occupancy->repaint();
        dragSgpr.push_back(ms(t));
    }

    std::printf("keystroke → repaint (UI thread)               median %7.2f ms  (n=%zu)\n", median(keyPaint), keyPaint.size());
    for (const RoundTrip& kind : kinds) {
        std::printf("%s: analysis result → highlights repainted        median %7.2f ms  (n=%zu)\n", kind.what,
                    median(kind.applyPaint), kind.applyPaint.size());
        std::printf("%s: background analysis (worker thread)           median %7.2f ms  (n=%zu)\n", kind.what,
                    median(kind.analysisMs), kind.analysisMs.size());
        std::printf("%s: keystroke → new highlights painted            median %7.2f ms  (n=%zu)\n", kind.what,
                    median(kind.roundTrip), kind.roundTrip.size());
    }
    std::printf("slider drag → readout + chart repainted (VGPR axis) median %7.2f ms  (n=%zu)\n", median(dragVgpr),
                dragVgpr.size());
    std::printf("slider drag → readout + chart repainted (SGPR axis) median %7.2f ms  (n=%zu)\n", median(dragSgpr),
                dragSgpr.size());
    std::printf("peak resident memory %.0f MB\n", gcnlens::bench::megabytes(gcnlens::bench::peakRssBytes()));
    editor->document()->setModified(false);
    return 0;
}
