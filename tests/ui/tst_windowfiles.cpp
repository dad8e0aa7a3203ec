// SPDX-License-Identifier: MIT
// Files and safety (issue #5 section 3), driven through the real window on the offscreen
// platform: open / save / save as, recent files, drag and drop, paste, the unsaved-changes prompt,
// per-file assembler options, remembered layout and settings, large files (progress, cancel, the
// analysis cap) and bad input, which must never crash or lose the text being edited.
#include "testutils.h"
#include "ui/docks/problemsmodel.h"
#include "ui/docks/summarydock.h"
#include "ui/editor/codeeditor.h"
#include "ui/fileoptions.h"
#include "ui/mainwindow.h"
#include "ui/recovery.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QFontMetricsF>
#include <QFrame>
#include <QImage>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QProgressDialog>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSyntaxHighlighter>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTimer>

#include <unistd.h>

#include <algorithm>
#include <set>

using namespace gcnlens;
using namespace gcnlens::ui;

// Answers every message box that comes up with `button` and keeps what it said.
class BoxAnswerer : public QObject {
public:
    explicit BoxAnswerer(QMessageBox::StandardButton button)
        : m_button(button)
    {
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box || !box->isVisible())
                return;
            texts << box->text();
            if (QAbstractButton* b = box->button(m_button))
                b->click();
            else
                box->reject();
        });
        m_timer.start();
    }
    QStringList texts;

private:
    QMessageBox::StandardButton m_button;
    QTimer m_timer;
};

static bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// QTest::keyClicks() cannot type a line break: Return for each '\n'.
static void type(QWidget* widget, const QString& text)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(widget, Qt::Key_Return);
        QTest::keyClicks(widget, lines[i]);
    }
}

static QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// n lines of a kernel: a label, then (n - 2) 4-byte s_nop and s_endpgm; n - 1 instructions.
static QByteArray nopKernel(int lines)
{
    QByteArray out = "k:\n";
    for (int i = 0; i < lines - 2; ++i)
        out += "    s_nop 0\n";
    out += "    s_endpgm";
    return out;
}

class TestWindowFiles : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> w;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    std::unique_ptr<MainWindow> makeWindow()
    {
        auto window = std::make_unique<MainWindow>();
        window->setRecoveryStore(std::make_unique<RecoveryStore>(path(QStringLiteral("recovery"))));
        window->bridge()->setDebounceInterval(0);
        return window;
    }
    bool settled(MainWindow* window) const { return window->bridge()->upToDate(); }
    QStringList recentTexts() const
    {
        QStringList out;
        for (QAction* a : w->recentMenu()->actions())
            out << a->text();
        return out;
    }
    static bool highlighted(MainWindow* window)
    {
        // The highlighter colours a mnemonic (gcn-asm.xml); without it a line has no formats.
        for (QTextBlock b = window->editor()->document()->firstBlock(); b.isValid(); b = b.next())
            if (b.text().contains(QStringLiteral("s_nop")))
                return !b.layout()->formats().isEmpty();
        return false;
    }

private:
    // Opens a kernel of `lines` lines with the large-text limits (colours, live analysis) as given.
    bool openWithLimits(const QString& name, int lines, int colourLimit, int liveLimit)
    {
        w->setLargeTextLines(colourLimit);
        w->setLiveAnalysisLines(liveLimit);
        const QString file = path(name);
        return writeFile(file, nopKernel(lines)) && w->openFile(file);
    }
    QPushButton* analyseAnywayButton() const
    {
        auto* button = w->banner()->findChild<QPushButton*>(QStringLiteral("AnalyseAnyway"));
        Q_ASSERT(button);
        return button;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("gcnlens-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_windowfiles"));
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QVERIFY(m_dir.isValid());
    }

    void init()
    {
        QSettings().clear();
        // Each test starts with no recovery files: an earlier test's window may have autosaved
        // (its timer fires when the machine is slow), which would offer one more text here.
        QDir(path(QStringLiteral("recovery"))).removeRecursively();
        w = makeWindow();
        w->resize(1200, 800);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    }

    void cleanup()
    {
        qunsetenv("GCNLENS_WORKER_FAULT"); // workerFaultKeepsWindow's, should it have failed half way
        w->editor()->document()->setModified(false);
        w.reset();
    }

    void openSaveSaveAs()
    {
        const QString a = path(QStringLiteral("a.s"));
        QVERIFY(writeFile(a, "k:\n    s_endpgm\n"));
        QVERIFY(w->openFile(a));
        QCOMPARE(w->currentFile(), a);
        QCOMPARE(w->editor()->toPlainText(), QStringLiteral("k:\n    s_endpgm\n"));
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("a.s")));
        QVERIFY(!w->isWindowModified());

        QTextCursor c(w->editor()->document());
        w->editor()->setTextCursor(c);
        type(w->editor(), QStringLiteral("// typed\n"));
        QVERIFY(w->isWindowModified());
        QVERIFY(w->save());
        QCOMPARE(readAll(a), QByteArray("// typed\nk:\n    s_endpgm\n"));
        QVERIFY(!w->isWindowModified());

        type(w->editor(), QStringLiteral("// more\n"));
        const QString b = path(QStringLiteral("sub/b.s"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("sub"))));
        QVERIFY(w->saveAs(b));
        QCOMPARE(w->currentFile(), b);
        QCOMPARE(readAll(b), QByteArray("// typed\n// more\nk:\n    s_endpgm\n"));
        QCOMPARE(readAll(a), QByteArray("// typed\nk:\n    s_endpgm\n")); // the old file is left alone
        QVERIFY(w->windowTitle().startsWith(QStringLiteral("b.s")));
        QCOMPARE(recentTexts().value(0), QStringLiteral("b.s"));
    }

    void encodingsRoundTrip_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::addRow("utf-8") << QByteArray("// π\ns_endpgm\n") << QStringLiteral("// π\ns_endpgm\n");
        // 0xE9 is not valid UTF-8 on its own: read as Latin-1 (é), written back as the same byte.
        QTest::addRow("latin-1") << QByteArray("// caf\xe9\ns_endpgm\n") << QStringLiteral("// café\ns_endpgm\n");
        // CR LF line breaks: the editor has lines, the file keeps its CR LF.
        QTest::addRow("crlf") << QByteArray("k:\r\n    s_endpgm\r\n") << QStringLiteral("k:\n    s_endpgm\n");
        // UTF-16 has NUL bytes; its BOM says it is text.
        QByteArray utf16("\xff\xfe", 2);
        for (QChar ch : QStringLiteral("s_endpgm\n"))
            utf16 += char(ch.unicode()), utf16 += '\0';
        QTest::addRow("utf-16le with BOM") << utf16 << QStringLiteral("s_endpgm\n");
    }
    void encodingsRoundTrip()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        const QString file = path(QStringLiteral("enc.s"));
        QVERIFY(writeFile(file, bytes));
        QVERIFY(w->openFile(file));
        QCOMPARE(w->editor()->toPlainText(), text);
        QCOMPARE(w->text(), text);
        QVERIFY(w->save());
        QCOMPARE(readAll(file), bytes);
    }

    void recentFiles()
    {
        QStringList names;
        for (int i = 0; i < 12; ++i) {
            names << QStringLiteral("r%1.s").arg(i);
            QVERIFY(writeFile(path(names.last()), "s_endpgm\n"));
            QVERIFY(w->openFile(path(names.last())));
        }
        // Newest first, ten kept.
        QStringList expected;
        for (int i = 11; i >= 2; --i)
            expected << names[i];
        QCOMPARE(recentTexts(), expected);
        // Choosing one opens it and moves it to the top; a new window lists the same.
        w->recentMenu()->actions().at(3)->trigger();
        QTRY_COMPARE(w->currentFile(), path(names[8]));
        QCOMPARE(recentTexts().value(0), names[8]);
        auto second = makeWindow();
        QCOMPARE(second->recentMenu()->actions().size(), 10);
        QCOMPARE(second->recentMenu()->actions().at(0)->text(), names[8]);

        // A recent file that was deleted: a message naming it, gone from the list, text unchanged.
        QVERIFY(QFile::remove(path(names[5])));
        const QString before = w->editor()->toPlainText();
        QAction* gone = nullptr;
        for (QAction* a : w->recentMenu()->actions())
            if (a->text() == names[5])
                gone = a;
        QVERIFY(gone);
        {
            BoxAnswerer ok(QMessageBox::Ok);
            gone->trigger();
            QTRY_COMPARE(ok.texts.size(), 1);
            QVERIFY2(ok.texts[0].contains(QDir::toNativeSeparators(path(names[5])))
                         && ok.texts[0].contains(QStringLiteral("does not exist")),
                     qPrintable(ok.texts[0]));
        }
        QVERIFY(!recentTexts().contains(names[5]));
        QCOMPARE(w->editor()->toPlainText(), before);
        QCOMPARE(w->currentFile(), path(names[8]));
    }

    void dragAndDrop()
    {
        const QString file = path(QStringLiteral("dropped.s"));
        QVERIFY(writeFile(file, "dropped:\n    s_endpgm\n"));
        auto drop = [&](QMimeData* mime, bool* entered) {
            const QPoint at = w->editor()->mapTo(w.get(), w->editor()->rect().center());
            QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, {});
            QApplication::sendEvent(w.get(), &enter);
            *entered = enter.isAccepted();
            if (!*entered)
                return;
            QDropEvent dropEvent(at, Qt::CopyAction, mime, Qt::LeftButton, {});
            QApplication::sendEvent(w.get(), &dropEvent);
        };
        // Text and remote URLs are not files to open.
        QMimeData text;
        text.setText(QStringLiteral("not a file"));
        bool entered = true;
        drop(&text, &entered);
        QVERIFY(!entered);
        QMimeData remote;
        remote.setUrls({QUrl(QStringLiteral("https://example.com/k.s"))});
        drop(&remote, &entered);
        QVERIFY(!entered);
        QVERIFY(w->currentFile().isEmpty());

        // A local file opens; with unsaved changes the user is asked first (Cancel keeps them).
        QTest::keyClicks(w->editor(), QStringLiteral("// unsaved"));
        QMimeData local;
        local.setUrls({QUrl::fromLocalFile(file)});
        {
            BoxAnswerer cancel(QMessageBox::Cancel);
            drop(&local, &entered);
            QVERIFY(entered);
            QCOMPARE(cancel.texts.size(), 1);
        }
        QCOMPARE(w->editor()->toPlainText(), QStringLiteral("// unsaved"));
        {
            BoxAnswerer discard(QMessageBox::Discard);
            drop(&local, &entered);
        }
        QCOMPARE(w->currentFile(), file);
        QCOMPARE(w->editor()->toPlainText(), QStringLiteral("dropped:\n    s_endpgm\n"));
    }

    void paste()
    {
        // Three 4-byte instructions (section 1): the pasted text is analysed like typed text.
        const QString kernel = QStringLiteral("k:\r\n    s_nop 0\r\n    s_nop 1\r\n    s_endpgm\r\n");
        QGuiApplication::clipboard()->setText(kernel);
        type(w->editor(), QStringLiteral("// before\n"));
        QTest::keySequence(w->editor(), QKeySequence::Paste);
        QString expected = QStringLiteral("// before\n") + kernel;
        expected.remove(QLatin1Char('\r')); // the editor takes CRLF as line breaks
        QCOMPARE(w->editor()->toPlainText(), expected);
        QCOMPARE(w->text(), expected);
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 20000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 3);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.bytes, std::uint64_t(12));
        QVERIFY(w->isWindowModified());
    }

    // A paste larger than chunkThreshold() goes in slices with the event loop running, is one undo
    // step, and above largeTextLines() turns colours and live analysis off like opening would.
    void largePaste_data()
    {
        QTest::addColumn<int>("cap");
        QTest::addColumn<bool>("capped");
        QTest::addRow("below the cap") << 100000 << false;
        QTest::addRow("above the cap") << 30000 << true;
    }
    void largePaste()
    {
        QFETCH(int, cap);
        QFETCH(bool, capped);
        w->setLargeTextLines(cap);
        w->setLiveAnalysisLines(cap);
        CodeEditor* e = w->editor();
        e->setPlainText(QStringLiteral("k:\n    s_nop 0\n    s_endpgm\n"));
        QTextCursor c(e->document()->findBlockByNumber(1));
        c.movePosition(QTextCursor::EndOfBlock);
        c.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, 7); // select "s_nop 0"
        e->setTextCursor(c);
        const QString before = e->toPlainText();
        const QString pasted = QStringLiteral("s_nop 0\n    ").repeated(39999) + QStringLiteral("s_nop 0"); // ~480k characters
        QVERIFY(pasted.size() > MainWindow::chunkThreshold());
        QGuiApplication::clipboard()->setText(pasted);
        int ticks = 0;
        QTimer heartbeat;
        heartbeat.setInterval(1);
        connect(&heartbeat, &QTimer::timeout, this, [&] { ++ticks; });
        heartbeat.start();
        QTest::keySequence(e, QKeySequence::Paste);
        heartbeat.stop();
        QVERIFY(ticks >= 3);
        QString expected = before;
        expected.replace(QStringLiteral("s_nop 0"), pasted);
        QCOMPARE(e->toPlainText(), expected);
        QCOMPARE(w->text(), expected);
        QCOMPARE(e->textCursor().position(), int(before.indexOf(QStringLiteral("s_nop")) + pasted.size()));
        QCOMPARE(w->analysisCapped(), capped);
        QCOMPARE(highlighted(w.get()), !capped);
        if (!capped) {
            // 40000 pasted s_nop and the kernel's s_endpgm.
            QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 60000);
            QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 40001);
        }
        // One undo step takes the whole paste back (and the selection it replaced).
        e->undo();
        QCOMPARE(e->toPlainText(), before);
        QCOMPARE(w->text(), before);
    }

    // The window keeps its own copy of the text (reading the document costs O(lines) per
    // keystroke); it must equal the document after every kind of edit.
    void textFollowsEveryEdit_data()
    {
        QTest::addColumn<int>("edit");
        QTest::addRow("type at the end") << 0;
        QTest::addRow("backspace at the start of a line") << 1;
        QTest::addRow("delete at the very end") << 2;
        QTest::addRow("replace a selection across lines") << 3;
        QTest::addRow("undo and redo") << 4;
        QTest::addRow("select all, delete") << 5;
        QTest::addRow("setPlainText") << 6;
        QTest::addRow("non-breaking space") << 7;
    }
    void textFollowsEveryEdit()
    {
        QFETCH(int, edit);
        CodeEditor* e = w->editor();
        e->setPlainText(QStringLiteral("k:\n    s_nop 0\n    s_nop 1\n    s_endpgm\n"));
        QCOMPARE(w->text(), e->toPlainText());
        QTextCursor c(e->document());
        switch (edit) {
        case 0:
            c.movePosition(QTextCursor::End);
            e->setTextCursor(c);
            type(e, QStringLiteral("x\ny"));
            break;
        case 1:
            c.setPosition(e->document()->findBlockByNumber(2).position());
            e->setTextCursor(c);
            QTest::keyClick(e, Qt::Key_Backspace);
            break;
        case 2:
            c.movePosition(QTextCursor::End);
            c.movePosition(QTextCursor::Left);
            e->setTextCursor(c);
            QTest::keyClick(e, Qt::Key_Delete);
            QTest::keyClick(e, Qt::Key_Backspace);
            break;
        case 3:
            c.setPosition(5);
            c.setPosition(20, QTextCursor::KeepAnchor);
            e->setTextCursor(c);
            QTest::keyClicks(e, QStringLiteral("ZZ"));
            break;
        case 4:
            QTest::keyClicks(e, QStringLiteral("abc"));
            e->undo();
            QCOMPARE(w->text(), e->toPlainText());
            e->redo();
            break;
        case 5:
            e->selectAll();
            QTest::keyClick(e, Qt::Key_Delete);
            QCOMPARE(w->text(), QString());
            break;
        case 6:
            e->setPlainText(QStringLiteral("s_endpgm"));
            break;
        case 7:
            c.insertText(QString(QChar::Nbsp) + QStringLiteral("// nbsp\n"));
            break;
        }
        QCOMPARE(w->text(), e->toPlainText());
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 20000);
        // The analysis is of the editor's text (the edits reached the worker as lines, issue #11 item 6).
        const Program fresh = assemble(e->toPlainText().toStdString(), w->bridge()->current()->request.assemble);
        const Program& shown = w->bridge()->current()->analysis.program;
        QCOMPARE(shown.instructions.size(), fresh.instructions.size());
        for (std::size_t i = 0; i < fresh.instructions.size(); ++i)
            QVERIFY(shown.instructions[i].line == fresh.instructions[i].line
                    && shown.instructions[i].mnemonic == fresh.instructions[i].mnemonic);
    }

    void unsavedChangesPromptOnClose_data()
    {
        QTest::addColumn<int>("answer");
        QTest::addColumn<bool>("closes");
        QTest::addColumn<bool>("written");
        QTest::addRow("cancel") << int(QMessageBox::Cancel) << false << false;
        QTest::addRow("discard") << int(QMessageBox::Discard) << true << false;
        QTest::addRow("save") << int(QMessageBox::Save) << true << true;
    }
    void unsavedChangesPromptOnClose()
    {
        QFETCH(int, answer);
        QFETCH(bool, closes);
        QFETCH(bool, written);
        const QString file = path(QStringLiteral("close.s"));
        QVERIFY(writeFile(file, "s_endpgm\n"));
        QVERIFY(w->openFile(file));
        // Closing an unmodified window asks nothing.
        {
            auto clean = makeWindow();
            clean->show();
            BoxAnswerer none(QMessageBox::Cancel);
            QVERIFY(clean->close());
            QVERIFY(none.texts.isEmpty());
        }
        type(w->editor(), QStringLiteral("// typed\n"));
        {
            BoxAnswerer box {QMessageBox::StandardButton(answer)};
            QCOMPARE(w->close(), closes);
            QCOMPARE(box.texts.size(), 1);
            QVERIFY(box.texts[0].contains(QStringLiteral("close.s")));
        }
        QCOMPARE(w->isVisible(), !closes);
        QCOMPARE(readAll(file), written ? QByteArray("// typed\ns_endpgm\n") : QByteArray("s_endpgm\n"));
        if (!closes) {
            QCOMPARE(w->editor()->toPlainText(), QStringLiteral("// typed\ns_endpgm\n"));
            QVERIFY(w->isWindowModified());
        }
    }

    void assemblerOptionsPerFile()
    {
        // a.s needs both options: EXTRA from --defsym for the .if, inc.s from an include path.
        // With them: s_nop, s_nop (EXTRA), two s_nop from inc.s, s_endpgm = 5 instructions.
        QVERIFY(QDir().mkpath(path(QStringLiteral("inc"))));
        QVERIFY(writeFile(path(QStringLiteral("inc/inc.s")), "    s_nop 2\n    s_nop 3\n"));
        const QByteArray source = "k:\n    s_nop 0\n.if EXTRA\n    s_nop 1\n.endif\n.include \"inc.s\"\n    s_endpgm\n";
        const QString a = path(QStringLiteral("opt-a.s")), b = path(QStringLiteral("opt-b.s"));
        QVERIFY(writeFile(a, source));
        QVERIFY(writeFile(b, source));
        QVERIFY(w->openFile(a));

        // A bad --defsym is refused with the entry named, and nothing changes.
        QString error;
        QVERIFY(!w->setAssemblerOptions({path(QStringLiteral("inc"))}, {QStringLiteral("EXTRA")}, &error));
        QVERIFY(error.contains(QStringLiteral("EXTRA")));
        QVERIFY(!w->setAssemblerOptions({}, {QStringLiteral("EXTRA=one")}, &error));
        QVERIFY(error.contains(QStringLiteral("EXTRA=one")));
        QVERIFY(w->defsyms().isEmpty());

        QVERIFY(w->setAssemblerOptions({path(QStringLiteral("inc"))}, {QStringLiteral("EXTRA=0x1")}, &error));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()) && w->bridge()->current()->request.assemble.defsyms.size() == 1, 20000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 5);
        QCOMPARE(w->bridge()->current()->request.assemble.defsyms.front(), (std::pair<std::string, std::int64_t> {"EXTRA", 1}));

        // Remembered for a.s in a new window; b.s has none of them (so it cannot find inc.s).
        auto second = makeWindow();
        QVERIFY(second->openFile(a));
        QCOMPARE(second->defsyms(), QStringList {QStringLiteral("EXTRA=0x1")});
        QCOMPARE(second->includeDirs(), QStringList {path(QStringLiteral("inc"))});
        QTRY_VERIFY_WITH_TIMEOUT(settled(second.get()), 20000);
        QCOMPARE(second->bridge()->current()->analysis.timing.totals.instructions, 5);
        QVERIFY(second->openFile(b));
        QVERIFY(second->defsyms().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(settled(second.get()) && second->bridge()->current()->request.assemble.defsyms.empty(), 20000);
        QVERIFY(second->problemsModel()->rowCount() >= 1);

        // Save as: the options follow the text to its new name.
        QVERIFY(w->saveAs(path(QStringLiteral("opt-c.s"))));
        QCOMPARE(w->defsyms(), QStringList {QStringLiteral("EXTRA=0x1")});

        // The dialog: a bad entry keeps it open with the entry named; a good one is stored.
        QStringList shown;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = w->findChild<QDialog*>(QStringLiteral("AssemblerOptions"));
            QVERIFY(dialog);
            dialog->findChild<QLineEdit*>(QStringLiteral("defsyms"))->setText(QStringLiteral("A=1 B=x"));
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            auto* label = dialog->findChild<QLabel*>(QStringLiteral("error"));
            shown << (label->isVisible() ? label->text() : QString());
            QVERIFY(dialog->isVisible());
            dialog->findChild<QLineEdit*>(QStringLiteral("defsyms"))->setText(QStringLiteral("A=1 B=2"));
            // The limits (issue #12), by --limit's rules: a bad value keeps it open too.
            auto* instructions = dialog->findChild<QLineEdit*>(QStringLiteral("limit-instructions"));
            QVERIFY(instructions);
            instructions->setText(QStringLiteral("lots"));
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            shown << (label->isVisible() ? label->text() : QString());
            QVERIFY(dialog->isVisible());
            instructions->setText(QStringLiteral("1000"));
            dialog->findChild<QLineEdit*>(QStringLiteral("limit-time"))->setText(QStringLiteral("2.5"));
            dialog->findChild<QCheckBox*>(QStringLiteral("allowAnyInclude"))->setChecked(true);
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        w->editAssemblerOptions();
        QCOMPARE(shown.size(), 2);
        QVERIFY2(shown[0].contains(QStringLiteral("B=x")), qPrintable(shown[0]));
        QVERIFY2(shown[1].startsWith(QStringLiteral("Instructions emitted:")), qPrintable(shown[1]));
        QCOMPARE(w->defsyms(), (QStringList {QStringLiteral("A=1"), QStringLiteral("B=2")}));
        QCOMPARE(w->fileOptions().limits.instructions, std::uint64_t(1000));
        QCOMPARE(w->fileOptions().limits.seconds, 2.5);
        QVERIFY(w->fileOptions().allowAnyInclude);
        QTRY_VERIFY_WITH_TIMEOUT(w->bridge()->request().assemble.limits.instructions == 1000,
                                 5000); // what the analysis runs with
        QVERIFY(w->bridge()->request().assemble.allowAnyInclude);
        // Remembered for this file in a new window.
        auto third = makeWindow();
        QVERIFY(third->openFile(path(QStringLiteral("opt-c.s"))));
        QCOMPARE(third->fileOptions(), w->fileOptions());
    }

    void layoutAndSettingsRemembered()
    {
        QVERIFY(QGuiApplication::primaryScreen()->availableGeometry().contains(QRect(0, 0, 1200, 800)));
        // It must fit a 1366x768 laptop screen.
        QVERIFY(w->minimumSizeHint().width() <= 1366 && w->minimumSizeHint().height() <= 700);
        w->resize(1111, 777);
        auto* lds = w->findChild<QDockWidget*>(QStringLiteral("LdsDock"));
        w->addDockWidget(Qt::LeftDockWidgetArea, lds); // moved under the summary
        auto* problems = w->findChild<QDockWidget*>(QStringLiteral("ProblemsDock"));
        QVERIFY(problems && problems->isVisible());
        problems->hide();
        w->setGpu(QStringLiteral("fiji"));
        // A model option edited in the summary (section 9 taken-branch-cycles, default 20).
        QSpinBox* taken = nullptr;
        for (auto* spin : w->summary()->findChildren<QSpinBox*>())
            if (spin->value() == 20 && spin->minimum() == 4)
                taken = spin;
        QVERIFY(taken);
        taken->setValue(24);
        QCOMPARE(w->bridge()->request().timing.takenBranchCycles, 24);
        QAction* freed = nullptr;
        for (QAction* a : w->findChildren<QAction*>())
            if (a->text().startsWith(QStringLiteral("Show Instructions Saved")))
                freed = a;
        QVERIFY(freed);
        freed->setChecked(true);
        QVERIFY(w->close());

        auto next = makeWindow();
        next->show();
        QVERIFY(QTest::qWaitForWindowExposed(next.get()));
        QCOMPARE(next->size(), QSize(1111, 777));
        QVERIFY(!next->findChild<QDockWidget*>(QStringLiteral("ProblemsDock"))->isVisible());
        QVERIFY(next->findChild<QDockWidget*>(QStringLiteral("SummaryDock"))->isVisible());
        QCOMPARE(next->dockWidgetArea(next->findChild<QDockWidget*>(QStringLiteral("LdsDock"))), Qt::LeftDockWidgetArea);
        QCOMPARE(next->dockWidgetArea(next->findChild<QDockWidget*>(QStringLiteral("OccupancyDock"))), Qt::RightDockWidgetArea);
        QCOMPARE(next->summary()->gpu(), QStringLiteral("fiji"));
        QCOMPARE(next->bridge()->request().assemble.gpu, std::string("fiji"));
        QCOMPARE(next->summary()->options().takenBranchCycles, 24);
        QCOMPARE(next->bridge()->request().timing.takenBranchCycles, 24);
        QVERIFY(next->editor()->showFreed());
    }

    // The docks show everything without scroll bars in a 1600x1000 window (the screenshots'), and
    // a 1366x700 window (a laptop screen) stays that size, its right-hand docks scrolling instead.
    void docksFitTheWindow_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("scrolls");
        QTest::addRow("1600x1000") << QSize(1600, 1000) << false;
        QTest::addRow("1366x700") << QSize(1366, 700) << true;
    }
    void docksFitTheWindow()
    {
        QFETCH(QSize, size);
        QFETCH(bool, scrolls);
        QVERIFY(w->openFile(gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s")));
        w->resize(size);
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 20000);
        QTest::qWait(50); // layout after the snapshot's texts
        QCOMPARE(w->size(), size);
        bool anyScrolls = false;
        for (const char* name : {"OccupancyDock", "LdsDock"}) {
            auto* dock = w->findChild<QDockWidget*>(QLatin1String(name));
            auto* area = qobject_cast<QScrollArea*>(dock->widget());
            QVERIFY(area);
            anyScrolls = anyScrolls || area->verticalScrollBar()->isVisible();
            // Never cut off on the right: the content is as wide as it needs.
            QVERIFY(area->widget()->width() >= area->widget()->minimumSizeHint().width());
        }
        QCOMPARE(anyScrolls, scrolls);
    }

    // `gcnlens [FILE] [--gpu NAME]`: the binary opens the file for that GPU (its --screenshot mode
    // renders the window once analysed, then exits); a file it cannot open is named with the cause.
    void commandLine()
    {
        auto run = [&](const QStringList& args, QString* err) {
            QProcess p;
            p.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens"), args);
            if (!p.waitForFinished(60000))
                return -1;
            *err = QString::fromLocal8Bit(p.readAllStandardError());
            return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
        };
        const QString example = gcnlens::test::sourcePath("resources/examples/saxpy-gfx6.s");
        QString err;
        const QString tahiti = path(QStringLiteral("tahiti.png")), fiji = path(QStringLiteral("fiji.png"));
        QCOMPARE(run({example, QStringLiteral("--gpu"), QStringLiteral("tahiti"), QStringLiteral("--screenshot"), tahiti}, &err),
                 0);
        QCOMPARE(run({example, QStringLiteral("--gpu"), QStringLiteral("fiji"), QStringLiteral("--screenshot"), fiji}, &err), 0);
        const QImage a(tahiti), b(fiji);
        QVERIFY(!a.isNull() && !b.isNull());
        // Fiji (GFX8) has no fetch-align penalties (section 2): the window shows other figures.
        QVERIFY(a != b);

        const QString missing = path(QStringLiteral("nowhere.s"));
        QCOMPARE(run({missing, QStringLiteral("--screenshot"), path(QStringLiteral("x.png"))}, &err), 1);
        QVERIFY2(err.contains(missing) && err.contains(QStringLiteral("does not exist")), qPrintable(err));
        const QString object = path(QStringLiteral("object.o"));
        QVERIFY(writeFile(object,
                          QByteArray("\x7f"
                                     "ELF\0\0",
                                     6)));
        QCOMPARE(run({object, QStringLiteral("--screenshot"), path(QStringLiteral("x.png"))}, &err), 1);
        QVERIFY2(err.contains(object) && err.contains(QStringLiteral("not a readable ELF file")), qPrintable(err));
        QVERIFY(!QFile::exists(path(QStringLiteral("x.png"))));
    }

    void badInputNamesFileAndCause_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content"); // written unless empty
        QTest::addColumn<QString>("cause");
        QTest::addRow("missing") << QStringLiteral("missing.s") << QByteArray() << QStringLiteral("does not exist");
        QTest::addRow("folder") << QStringLiteral("folder.s") << QByteArray() << QStringLiteral("folder");
        QTest::addRow("binary") << QStringLiteral("kernel.o")
                                << QByteArray("\x7f"
                                              "ELF\x02\x01\x01\0\0\0",
                                              10)
                                << QStringLiteral("not a readable ELF file");
        QTest::addRow("too large") << QStringLiteral("huge.s") << QByteArray() << QStringLiteral("gcnlens opens files of up to");
        QTest::addRow("no permission") << QStringLiteral("locked.s") << QByteArray("s_endpgm\n")
                                       << QStringLiteral("ermission denied");
    }
    void badInputNamesFileAndCause()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        QFETCH(QString, cause);
        const QString file = path(name);
        if (name == QStringLiteral("folder.s"))
            QVERIFY(QDir().mkpath(file));
        if (!content.isEmpty())
            QVERIFY(writeFile(file, content));
        if (name == QStringLiteral("huge.s")) {
            // Sparse: the size counts, no disk is used, and nothing is read.
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(w->maxFileSize() + 1));
        }
        if (name == QStringLiteral("locked.s")) {
            if (geteuid() == 0)
                QSKIP("root reads files without read permission");
            QVERIFY(QFile::setPermissions(file, QFileDevice::WriteOwner));
        }
        // What the user was editing stays exactly as it was.
        w->editor()->setPlainText(QStringLiteral("k:\n    s_endpgm\n"));
        QTest::keyClicks(w->editor(), QStringLiteral("// typed"));
        const QString before = w->editor()->toPlainText();
        BoxAnswerer ok(QMessageBox::Ok);
        QVERIFY(!w->openFile(file));
        QCOMPARE(ok.texts.size(), 1);
        QVERIFY2(ok.texts[0].contains(QDir::toNativeSeparators(file)), qPrintable(ok.texts[0]));
        QVERIFY2(ok.texts[0].contains(cause), qPrintable(ok.texts[0]));
        QCOMPARE(w->lastError(), ok.texts[0]);
        QCOMPARE(w->editor()->toPlainText(), before);
        QCOMPARE(w->text(), before);
        QVERIFY(w->isWindowModified());
        QVERIFY(w->currentFile().isEmpty());
    }

    // A crash or a hang of LLVM while the worker process decodes (made on purpose with
    // $GCNLENS_WORKER_FAULT, issue #12): opening a code object fails with that error naming the
    // file, and a listing whose reading fails in the analysis keeps the last analysis with the
    // error on its line. Either way the window stays up with the text being edited, and analyses.
    void workerFaultKeepsWindow_data()
    {
        QTest::addColumn<QByteArray>("fault");
        QTest::addColumn<bool>("listing"); // the object's listing, opened as text, rather than the object
        QTest::addColumn<QString>("cause");
        // (This damaged object's code section has no name, nor symbols: "the code".)
        QTest::addRow("object, crash") << QByteArray(
            "crash") << false << QStringLiteral("the disassembler crashed (signal 11) while decoding the code at offset 0x0,");
        QTest::addRow("object, abort") << QByteArray(
            "abort") << false << QStringLiteral("the disassembler crashed (signal 6) while decoding the code at offset 0x0,");
        QTest::addRow("object, hang") << QByteArray("hang") << false
                                      << QStringLiteral("stopped after 1 s while decoding the code at offset 0x0,");
        // LLVM's own crash on its reserved-select SDWA word, which the worker lets through.
        QTest::addRow("object, LLVM crash")
            << QByteArray("unguarded") << false
            << QStringLiteral("the disassembler crashed (signal 11) while decoding the code at offset 0x74,");
        QTest::addRow("listing, crash") << QByteArray("crash") << true
                                        << QStringLiteral("the disassembler crashed (signal 11) while decoding");
    }
    void workerFaultKeepsWindow()
    {
        QFETCH(QByteArray, fault);
        QFETCH(bool, listing);
        QFETCH(QString, cause);
        const QString object = path(QStringLiteral("fault.o"));
        QFile::remove(object);
        QVERIFY(QFile::copy(gcnlens::test::testData("data/input/sdwa-sel7.o"), object));
        const QString listingFile = path(QStringLiteral("fault.lst"));
        if (listing) { // the window's own listing of the object, as a file
            QVERIFY(w->openFile(object));
            QVERIFY(writeFile(listingFile, w->text().toUtf8()));
        }
        if (fault == "hang") { // the time limit of the object's options (those of its listing, NAME.s)
            FileOptions options;
            options.limits.seconds = 1;
            options.save(object + QStringLiteral(".s"));
        }
        // A new window, whose worker processes start with the fault armed.
        qputenv("GCNLENS_WORKER_FAULT", fault);
        w = makeWindow();
        w->resize(1200, 800);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->editor()->setPlainText(QStringLiteral("k:\n    s_nop 0\n    s_endpgm\n"));
        QTest::keyClicks(w->editor(), QStringLiteral("// typed"));
        QTRY_VERIFY(settled(w.get()));
        const QString before = w->editor()->toPlainText();
        if (!listing) {
            BoxAnswerer ok(QMessageBox::Ok);
            QVERIFY(!w->openFile(object));
            qunsetenv("GCNLENS_WORKER_FAULT");
            QCOMPARE(ok.texts.size(), 1);
            QVERIFY2(ok.texts[0].contains(QDir::toNativeSeparators(object)), qPrintable(ok.texts[0]));
            QVERIFY2(ok.texts[0].contains(cause), qPrintable(ok.texts[0]));
            QCOMPARE(w->lastError(), ok.texts[0]);
            QCOMPARE(w->editor()->toPlainText(), before);
            QVERIFY(w->currentFile().isEmpty());
        } else {
            QVERIFY(w->openFile(listingFile));
            qunsetenv("GCNLENS_WORKER_FAULT");
            QTRY_VERIFY(settled(w.get()));
            const SnapshotPtr failed = w->bridge()->current();
            QVERIFY(failed->assemblerFailed);
            const Diagnostic& error = failed->analysis.program.diagnostics.back();
            QVERIFY2(QString::fromStdString(error.message).startsWith(cause), error.message.c_str());
            QVERIFY(error.line > 1);
            QVERIFY(failed->text().startsWith(QStringLiteral("; fault.o")));
        }
        QVERIFY(w->isVisible());
        // The next text is analysed by a new worker, normally.
        w->editor()->setPlainText(QStringLiteral("k:\n    s_nop 0\n    s_nop 1\n    s_endpgm\n"));
        QTRY_VERIFY(settled(w.get()));
        QVERIFY(!w->bridge()->current()->assemblerFailed);
        QCOMPARE(w->bridge()->current()->analysis.program.instructions.size(), std::size_t(3));
    }

    void unwritableSavePath_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addRow("missing folder") << QStringLiteral("no/such/folder/k.s");
        QTest::addRow("a folder") << QStringLiteral("afolder");
        QTest::addRow("under a file") << QStringLiteral("plain.s/k.s");
    }
    void unwritableSavePath()
    {
        QFETCH(QString, target);
        QVERIFY(QDir().mkpath(path(QStringLiteral("afolder"))));
        QVERIFY(writeFile(path(QStringLiteral("plain.s")), "s_endpgm\n"));
        QTest::keyClicks(w->editor(), QStringLiteral("// precious, never saved"));
        const QString file = path(target);
        BoxAnswerer ok(QMessageBox::Ok);
        QVERIFY(!w->saveAs(file));
        QCOMPARE(ok.texts.size(), 1);
        QVERIFY2(ok.texts[0].contains(QDir::toNativeSeparators(file)), qPrintable(ok.texts[0]));
        // The cause as the system says it, after the file name.
        const QString cause = ok.texts[0].section(QLatin1Char('\n'), 1, 1);
        QVERIFY2(cause.size() > 3, qPrintable(ok.texts[0]));
        QVERIFY(ok.texts[0].contains(QStringLiteral("still in the editor")));
        QCOMPARE(w->editor()->toPlainText(), QStringLiteral("// precious, never saved"));
        QVERIFY(w->isWindowModified());
        QVERIFY(w->currentFile().isEmpty());
        // ... and in the recovery file, in case the next thing to happen is a crash.
        const auto entries = w->recoveryStore()->entries();
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries.front().text, QStringLiteral("// precious, never saved"));
        w->recoveryStore()->discard({});
    }

    // A text above chunkThreshold() streams in with a progress dialog while the event loop runs;
    // Cancel puts back the text, file, modified state and cursor that were there before.
    void largeFileProgressAndCancel()
    {
        const QString previous = path(QStringLiteral("previous.s"));
        QVERIFY(writeFile(previous, "k:\n    s_nop 0\n    s_endpgm\n"));
        QVERIFY(w->openFile(previous));
        QTextCursor c(w->editor()->document()->findBlockByNumber(1));
        c.movePosition(QTextCursor::EndOfBlock);
        w->editor()->setTextCursor(c);
        QTest::keyClicks(w->editor(), QStringLiteral(" // edited"));
        const QString before = w->editor()->toPlainText();
        const int cursor = w->editor()->textCursor().position();

        const QString big = path(QStringLiteral("big.s"));
        QVERIFY(writeFile(big, nopKernel(60000))); // 60k lines, ~720 KB
        QVERIFY(QFileInfo(big).size() > MainWindow::chunkThreshold());
        const double previousGutter = w->editor()->gutterLayout().width();
        int ticks = 0, maxValue = 0;
        bool dialogSeen = false;
        // Gutter widths seen while the text streams in (progress 100..1000; 0..100 is reading).
        std::set<double> gutterWidths;
        QTimer heartbeat;
        heartbeat.setInterval(1);
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            ++ticks;
            if (auto* progress = w->findChild<QProgressDialog*>(); progress && progress->isVisible()) {
                dialogSeen = true;
                maxValue = std::max(maxValue, progress->value());
                if (progress->value() > 100)
                    gutterWidths.insert(w->editor()->gutterLayout().width());
                if (progress->value() >= 500)
                    progress->cancel();
            }
        });
        heartbeat.start();
        QVERIFY(!w->openFile(big));
        heartbeat.stop();
        QVERIFY(dialogSeen);
        // The gutter is sized for the file's 60000 lines (5 digits) up front and keeps that width
        // while the count passes 1000 and 10000 (widening would re-lay out every line); the
        // cancel gives the previous text its own width back.
        QCOMPARE(gutterWidths.size(), size_t(1));
        // (Cycles 4 characters, live registers "99v 99s" 7, the check mark 1: issues #16, #17.)
        QCOMPARE(*gutterWidths.begin(),
                 GutterLayout(QFontMetricsF(w->editor()->font()).horizontalAdvance(QLatin1Char('0')), 5, 4, 4, 7, 1).width());
        QCOMPARE(w->editor()->gutterLayout().width(), previousGutter);
        QCOMPARE(w->editor()->lineCountHint(), 0);
        QVERIFY(maxValue >= 500 && maxValue < 1000);
        QVERIFY(ticks >= 5); // the event loop ran during the load
        QCOMPARE(w->editor()->toPlainText(), before);
        QCOMPARE(w->text(), before);
        QCOMPARE(w->currentFile(), previous);
        QVERIFY(w->isWindowModified());
        QCOMPARE(w->editor()->textCursor().position(), cursor);
        QVERIFY(highlighted(w.get()));
        QVERIFY(w->lastError().contains(QStringLiteral("cancelled")));
        // The editor is usable, and a second attempt loads the whole file.
        QTest::keyClicks(w->editor(), QStringLiteral("!"));
        QCOMPARE(w->text(), w->editor()->toPlainText());
        w->editor()->document()->setModified(false);
        gutterWidths.clear();
        QTimer watch;
        watch.setInterval(1);
        connect(&watch, &QTimer::timeout, this, [&] {
            if (auto* progress = w->findChild<QProgressDialog*>(); progress && progress->isVisible() && progress->value() > 100)
                gutterWidths.insert(w->editor()->gutterLayout().width());
        });
        watch.start();
        QVERIFY(w->openFile(big));
        watch.stop();
        QCOMPARE(gutterWidths.size(), size_t(1));
        QCOMPARE(*gutterWidths.begin(), w->editor()->gutterLayout().width()); // the hint is gone, the width stays
        QCOMPARE(w->editor()->lineCountHint(), 0);
        QCOMPARE(w->editor()->blockCount(), 60000);
        QCOMPARE(w->editor()->toPlainText().toUtf8(), nopKernel(60000));
        QVERIFY(!w->findChild<QProgressDialog*>());
    }

    // Above liveAnalysisLines() (and largeTextLines()) a text opens without colours or live
    // analysis and says so; the user can analyse it anyway; a smaller text afterwards gets both back.
    void largeTextCapsAnalysis()
    {
        QVERIFY(openWithLimits(QStringLiteral("capped.s"), 3000, 2000, 2000));
        QVERIFY(w->analysisCapped());
        QVERIFY(w->banner()->isVisible());
        auto* label = w->banner()->findChild<QLabel*>();
        QVERIFY(label->text().contains(QStringLiteral("capped.s")) && label->text().contains(QLocale().toString(3000)));
        QVERIFY(analyseAnywayButton()->isVisible());
        QVERIFY(!highlighted(w.get()));
        // The panels show an empty analysis, not the previous file's figures.
        QTRY_VERIFY_WITH_TIMEOUT(w->bridge()->current() && !w->bridge()->busy(), 20000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 0);
        // Edits keep the text but start no analysis.
        type(w->editor(), QStringLiteral("// note\n"));
        QCOMPARE(w->text(), w->editor()->toPlainText());
        QTest::qWait(50);
        QVERIFY(!w->bridge()->busy());
        QVERIFY(w->bridge()->current()->analysis.program.instructions.empty());

        // Analyse anyway: 2998 s_nop + s_endpgm = 2999 instructions of 4 bytes (section 1).
        QTest::mouseClick(analyseAnywayButton(), Qt::LeftButton);
        QVERIFY(!w->analysisCapped());
        QVERIFY(!w->banner()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 60000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 2999);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.bytes, std::uint64_t(2999 * 4));

        w->editor()->document()->setModified(false);
        const QString small = path(QStringLiteral("small.s"));
        QVERIFY(writeFile(small, nopKernel(10)));
        QVERIFY(w->openFile(small));
        QVERIFY(!w->analysisCapped());
        QVERIFY(!w->banner()->isVisible());
        QVERIFY(highlighted(w.get()));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 20000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 9);
    }

    // Between largeTextLines() and liveAnalysisLines() a text opens without colours but is analysed
    // as any other, after each edit too; the banner says why the colours are off, with no button.
    void largeTextKeepsAnalysis()
    {
        QVERIFY(openWithLimits(QStringLiteral("colourless.s"), 3000, 2000, 5000));
        QVERIFY(!w->analysisCapped());
        QVERIFY(!highlighted(w.get()));
        QVERIFY(w->banner()->isVisible());
        QVERIFY(w->banner()->findChild<QLabel*>()->text().contains(QStringLiteral("colourless.s")));
        QVERIFY(!analyseAnywayButton()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 60000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 2999);
        // An edit is analysed: one more instruction.
        w->editor()->jumpToLine(2);
        type(w->editor(), QStringLiteral("    s_nop 1\n"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(w.get()), 60000);
        QCOMPARE(w->bridge()->current()->analysis.timing.totals.instructions, 3000);
    }

    // A recovered text goes the same way as an opened one: above the cap, without colours or
    // live analysis; it comes back whole and unsaved.
    void largeRecovery()
    {
        const QString text = QString::fromUtf8(nopKernel(3000));
        QVERIFY(w->recoveryStore()->save(QString(), text));
        auto second = makeWindow();
        second->setLargeTextLines(2000);
        second->setLiveAnalysisLines(2000);
        second->show();
        {
            BoxAnswerer yes(QMessageBox::Yes);
            QVERIFY(second->offerRecovery());
            QVERIFY2(yes.texts.size() == 1, qPrintable(yes.texts.join(QStringLiteral("\n---\n"))));
        }
        QCOMPARE(second->editor()->toPlainText(), text);
        QCOMPARE(second->text(), text);
        QVERIFY(second->analysisCapped());
        QVERIFY(!highlighted(second.get()));
        QVERIFY(second->isWindowModified());
        second->editor()->document()->setModified(false);
        second->recoveryStore()->discard({});
    }

    // The real thing, with the default limits: a file of a million lines and one (just over the
    // live-analysis limit) opens whole, capped, with the event loop running throughout; cancelling
    // it half way leaves the previous text.
    void millionLines()
    {
        const QString big = path(QStringLiteral("million.s"));
        QVERIFY(writeFile(big, nopKernel(w->liveAnalysisLines() + 1)));
        w->editor()->setPlainText(QStringLiteral("k:\n    s_endpgm\n"));
        const QString before = w->editor()->toPlainText();
        int ticks = 0;
        QTimer heartbeat;
        heartbeat.setInterval(1);
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            ++ticks;
            if (auto* progress = w->findChild<QProgressDialog*>(); progress && progress->value() >= 400)
                progress->cancel();
        });
        heartbeat.start();
        QVERIFY(!w->openFile(big));
        QVERIFY(ticks >= 10);
        QCOMPARE(w->editor()->toPlainText(), before);
        heartbeat.stop();

        ticks = 0;
        QTimer count;
        count.setInterval(1);
        connect(&count, &QTimer::timeout, this, [&] { ++ticks; });
        count.start();
        QVERIFY(w->openFile(big));
        QVERIFY(ticks >= 100);
        QCOMPARE(w->editor()->blockCount(), 1000001);
        QVERIFY(w->analysisCapped());
        QCOMPARE(w->text().size(), w->editor()->document()->characterCount() - 1);
        QVERIFY(w->text().endsWith(QStringLiteral("    s_nop 0\n    s_endpgm")));
        // Typing in the middle keeps the copy right without reading the whole document back.
        w->editor()->jumpToLine(500000);
        QTest::keyClicks(w->editor(), QStringLiteral("// here "));
        QVERIFY(w->editor()->document()->findBlockByNumber(499999).text().startsWith(QStringLiteral("// here ")));
        QCOMPARE(w->text().mid(w->editor()->document()->findBlockByNumber(499999).position(), 8), QStringLiteral("// here "));
        w->editor()->document()->setModified(false);
    }
};

int main(int argc, char** argv)
{
    // A 1920x1200 offscreen screen: the default one (800x800) is smaller than the window, and
    // restoreGeometry() would clamp the remembered size to it.
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    if (!writeFile(config, R"({"screens": [{"name": "big", "x": 0, "y": 0, "width": 1920, "height": 1200,
                                           "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})"))
        return 1;
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    if (platform.isEmpty() || platform == "offscreen")
        qputenv("QT_QPA_PLATFORM", QByteArray(QByteArray("offscreen:configfile=") + config.toLocal8Bit()));
    QApplication app(argc, argv);
    TestWindowFiles test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_windowfiles.moc"
