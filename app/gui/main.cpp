// SPDX-License-Identifier: MIT
// gcnlens: the editor window. `gcnlens [FILE] [--gpu NAME]`; `--screenshot PNG [--dark]` renders
// the window once the analysis has settled and exits (tools/screenshots).
#include "ui/docks/ldsdock.h"
#include "ui/editor/codeeditor.h"
#include "ui/mainwindow.h"

#include "gcnlens-config.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPalette>
#include <QPushButton>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTimer>

#include <cstdio>

static QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe4, 0xe6, 0xea);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x94, 0x9a));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x50, 0x53, 0x58));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4d));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x7a, 0x7d, 0x82));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x7a, 0x7d, 0x82));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x7a, 0x7d, 0x82));
    return p;
}

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("gcnlens"));
    QApplication::setApplicationName(QStringLiteral("gcnlens"));
    QApplication::setApplicationVersion(QStringLiteral(GCNLENS_VERSION));
    // Wayland compositors find the window's icon and name through the installed desktop file.
    QApplication::setDesktopFileName(QStringLiteral(GCNLENS_APP_ID));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("GCN kernel timing, alignment and occupancy visualizer"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Assembly file to open"), QStringLiteral("[FILE]"));
    const QCommandLineOption gpu(QStringLiteral("gpu"), QStringLiteral("GPU preset, LLVM processor or ROCm target ID"),
                                 QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a PNG of the window after analysis, then exit"),
                                        QStringLiteral("PNG"));
    const QCommandLineOption dark(QStringLiteral("dark"), QStringLiteral("Use a dark palette"));
    const QCommandLineOption line(QStringLiteral("line"), QStringLiteral("Put the cursor on this line"), QStringLiteral("N"));
    parser.addOptions({gpu, screenshot, dark, line});
    parser.process(app);

    QTemporaryDir settingsDir;
    if (parser.isSet(screenshot)) {
        // Screenshots must not depend on (or change) the user's saved layout.
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(parser.isSet(dark) ? darkPalette() : QApplication::style()->standardPalette());
    } else if (parser.isSet(dark)) {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    }

    gcnlens::ui::MainWindow window;
    window.setQuiet(parser.isSet(screenshot));
    if (parser.isSet(gpu))
        window.setGpu(parser.value(gpu));
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty() && !window.openFile(files.first())) {
        std::fprintf(stderr, "gcnlens: %s\n", qPrintable(window.lastError().replace(QLatin1Char('\n'), QLatin1Char(' '))));
        if (parser.isSet(screenshot))
            return 1;
    }
    if (parser.isSet(line)) {
        const int n = parser.value(line).toInt();
        window.editor()->jumpToLine(n);
    }

    if (parser.isSet(screenshot)) {
        window.resize(1600, 1000);
        window.show();
        const QString out = parser.value(screenshot);
        QObject::connect(&window, &gcnlens::ui::MainWindow::snapshotApplied, &window, [&window, out] {
            // Let the docks and chart lay out and repaint once more before grabbing.
            QTimer::singleShot(400, &window, [&window, out] {
                const bool ok = window.grab().save(out);
                std::fprintf(stderr, "gcnlens: %s %s\n", ok ? "wrote" : "could not write", qPrintable(out));
                QApplication::exit(ok ? 0 : 1);
            });
        });
        QTimer::singleShot(30000, &app, [] {
            std::fprintf(stderr, "gcnlens: analysis did not settle\n");
            QApplication::exit(2);
        });
        return QApplication::exec();
    }

    // Test hooks for tst_recoveryprocess (a real process killed with SIGKILL), not options: the
    // environment steers them, and --help does not list them.
    const QByteArray answer = qgetenv("GCNLENS_TEST_ANSWER"); // "yes": the recovery question is answered Yes
    if (answer == "yes") {
        auto* clicker = new QTimer(&window);
        QObject::connect(clicker, &QTimer::timeout, &window, [] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); box && box->button(QMessageBox::Yes))
                box->button(QMessageBox::Yes)->click();
        });
        clicker->start(50);
    }
    window.show();
    window.offerRecovery();
    if (const QByteArray dump = qgetenv("GCNLENS_TEST_DUMP"); !dump.isEmpty()) { // the editor's text, then quit
        QFile out(QString::fromLocal8Bit(dump));
        const bool ok = out.open(QIODevice::WriteOnly) && out.write(window.text().toUtf8()) >= 0 && out.flush();
        out.close();
        return ok ? 0 : 1;
    }
    if (const QByteArray typed = qgetenv("GCNLENS_TEST_TYPE"); !typed.isEmpty()) // as if typed at the end
        QTimer::singleShot(0, &window, [&window, typed] {
            QTextCursor cursor = window.editor()->textCursor();
            cursor.movePosition(QTextCursor::End);
            cursor.insertText(QString::fromUtf8(typed));
        });
    return QApplication::exec();
}
