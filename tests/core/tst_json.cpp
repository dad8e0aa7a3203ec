// SPDX-License-Identifier: MIT
// The JSON contract (issue #11 item 3): `gcnlens-cli COMMAND ARGS --json` for every case of
// tests/data/golden/cases.txt equals its golden document as JSON values (key order aside). The
// goldens were written by the QJsonObject writer the streaming serializer replaced; a difference
// prints as a unified diff of the two documents, keys sorted. GCNLENS_UPDATE_GOLDEN=1 rewrites them.
#include "testutils.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void golden_data();
    void golden();
    void streamsLargeDocument();
};

void TestJson::golden_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("goldenPath");
    const QString dir = gcnlens::test::testData("data/golden");
    QVERIFY(!dir.isEmpty());
    QFile cases(dir + QStringLiteral("/cases.txt"));
    QVERIFY(cases.open(QIODevice::ReadOnly | QIODevice::Text));
    int rows = 0;
    while (!cases.atEnd()) {
        const QString line = QString::fromUtf8(cases.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList fields = line.split(QLatin1Char('|'));
        QVERIFY2(fields.size() == 3, qPrintable(line));
        QStringList args {fields[1]};
        for (const QString& arg : fields[2].split(QLatin1Char(' '), Qt::SkipEmptyParts))
            args << (arg.contains(QLatin1Char('/')) && !arg.startsWith(QLatin1Char('-')) ? gcnlens::test::sourcePath("") + arg
                                                                                         : arg);
        args << QStringLiteral("--json");
        QTest::addRow("%s", qPrintable(fields[0])) << args << dir + QLatin1Char('/') + fields[0] + QStringLiteral(".json");
        ++rows;
    }
    QVERIFY(rows >= 15);
}

void TestJson::golden()
{
    QFETCH(QStringList, args);
    QFETCH(QString, goldenPath);
    QProcess cli;
    cli.setWorkingDirectory(gcnlens::test::sourcePath(""));
    cli.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), args);
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    const QByteArray out = cli.readAllStandardOutput();
    QJsonParseError error;
    const QJsonDocument actual = QJsonDocument::fromJson(out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));

    if (qEnvironmentVariableIntValue("GCNLENS_UPDATE_GOLDEN")) {
        QFile golden(goldenPath);
        QVERIFY(golden.open(QIODevice::WriteOnly));
        golden.write(actual.toJson(QJsonDocument::Indented));
        QSKIP("golden rewritten");
    }
    QFile golden(goldenPath);
    QVERIFY2(golden.open(QIODevice::ReadOnly), qPrintable(goldenPath));
    const QJsonDocument expected = QJsonDocument::fromJson(golden.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    if (actual != expected) {
        // Both documents written the same way (keys sorted), then diffed line by line.
        QTemporaryDir scratch;
        const QString a = scratch.filePath(QStringLiteral("expected.json")), b = scratch.filePath(QStringLiteral("actual.json"));
        for (const auto& [path, doc] : {std::pair {a, expected}, std::pair {b, actual}}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(doc.toJson(QJsonDocument::Indented));
        }
        QProcess diff;
        diff.start(QStringLiteral("diff"), {QStringLiteral("-u"), a, b});
        diff.waitForFinished();
        QFAIL(qPrintable(QStringLiteral("%1 differs from its golden document:\n%2")
                             .arg(goldenPath, QString::fromUtf8(diff.readAllStandardOutput().left(8000)))));
    }
}

// A document too large to hold comfortably as a tree still comes out whole and well-formed.
void TestJson::streamsLargeDocument()
{
    QTemporaryDir scratch;
    const QString path = scratch.filePath(QStringLiteral("large.s"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(".text\nlarge:\n");
    for (int i = 0; i < 20000; ++i)
        file.write(QStringLiteral("  v_add_f32 v%1, v%2, v%3\n").arg(i % 200).arg((i + 1) % 200).arg((i + 2) % 200).toUtf8());
    file.write("  s_endpgm\n");
    file.close();
    QProcess cli;
    cli.start(QStringLiteral(GCNLENS_BIN_DIR "/gcnlens-cli"), {QStringLiteral("analyze"), path, QStringLiteral("--json")});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(cli.readAllStandardOutput(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(doc[QStringLiteral("instructions")].toArray().size(), 20001);
    QCOMPARE(doc[QStringLiteral("totals")][QStringLiteral("instructions")].toInt(), 20001);
}

QTEST_GUILESS_MAIN(TestJson)
#include "tst_json.moc"
