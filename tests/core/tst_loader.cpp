// SPDX-License-Identifier: MIT
// The one loader (core/input/loader.h) and the shared option rules (core/options.h): encodings and
// their BOMs, chunks split anywhere, Latin-1 fallback, line breaks, the messages for binary data,
// saving back in the file's own format, kind detection and --defsym.
#include "core/input/loader.h"
#include "core/options.h"

#include <QTemporaryDir>
#include <QTest>

#include <string>

using namespace gcnlens;
using namespace gcnlens::input;
using namespace std::string_literals;

class TestLoader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decode_data();
    void decode();
    void chunked_data() { decode_data(); }
    void chunked();
    void fromFile_data() { decode_data(); }
    void fromFile();
    void roundTrip_data() { decode_data(); }
    void roundTrip();
    void binary_data();
    void binary();
    void detect_data();
    void detect();
    void paths();
    void defsym_data();
    void defsym();
};

void TestLoader::decode_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("text"); // the decoded text (UTF-8, LF)
    QTest::addColumn<QString>("encoding");
    QTest::addColumn<bool>("bom");
    QTest::addColumn<bool>("crlf");
    const auto b = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
    QTest::addRow("utf-8") << b("s_nop 0\n") << QStringLiteral("s_nop 0\n") << QStringLiteral("UTF-8") << false << false;
    QTest::addRow("utf-8 bom crlf") << b("\xef\xbb\xbfs_nop 0\r\ns_endpgm\r\n") << QStringLiteral("s_nop 0\ns_endpgm\n")
                                    << QStringLiteral("UTF-8") << true << true;
    QTest::addRow("lone cr") << b("a\rb") << QStringLiteral("a\nb") << QStringLiteral("UTF-8") << false << false;
    QTest::addRow("utf-8 non-ascii") << b("; \xc3\xa9t\xc3\xa9 \xe2\x86\x92\n") << QStringLiteral("; été →\n")
                                     << QStringLiteral("UTF-8") << false << false;
    QTest::addRow("latin-1") << b("; caf\xe9\n") << QStringLiteral("; café\n") << QStringLiteral("Latin-1") << false << false;
    // A UTF-8 BOM before bytes that are not UTF-8: Latin-1, and the BOM is written back too (issue #12:
    // fuzz_loader found it dropped on saving).
    QTest::addRow("bom then latin-1") << b("\xef\xbb\xbf; caf\xe9\n") << QStringLiteral("; café\n") << QStringLiteral("Latin-1")
                                      << true << false;
    QTest::addRow("overlong is not utf-8") << b("\xc0\xafx") << QString::fromLatin1("\xc0\xafx") << QStringLiteral("Latin-1")
                                           << false << false;
    QTest::addRow("utf-16le") << b("\xff\xfes\0_\0n\0o\0p\0\r\0\n\0"s) << QStringLiteral("s_nop\n") << QStringLiteral("UTF-16LE")
                              << true << true;
    QTest::addRow("utf-16be surrogate") << b("\xfe\xff\xd8\x3d\xde\x00\0\n"s) << QString::fromUtf8("\xf0\x9f\x98\x80\n")
                                        << QStringLiteral("UTF-16BE") << true << false;
    QTest::addRow("utf-32le") << b("\xff\xfe\0\0v\0\0\0\n\0\0\0"s) << QStringLiteral("v\n") << QStringLiteral("UTF-32LE") << true
                              << false;
    QTest::addRow("empty") << QByteArray() << QString() << QStringLiteral("UTF-8") << false << false;
}

void TestLoader::decode()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    QFETCH(QString, encoding);
    QFETCH(bool, bom);
    QFETCH(bool, crlf);
    const Loaded loaded = loadBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())), InputKind::Llvm);
    QVERIFY2(loaded.error.empty(), loaded.error.c_str());
    QCOMPARE(QString::fromStdString(loaded.text), text);
    QCOMPARE(QString::fromLatin1(encodingName(loaded.format.encoding)), encoding);
    QCOMPARE(loaded.format.bom, bom);
    QCOMPARE(loaded.format.crlf, crlf);
}

// Any split of the bytes into chunks decodes to the same text (the window reads in slices).
void TestLoader::chunked()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, text);
    for (int size = 1; size <= 5; ++size) {
        SourceDecoder decoder;
        for (qsizetype at = 0; at < bytes.size(); at += size)
            QVERIFY(decoder.feed(
                std::string_view(bytes.constData() + at, std::size_t(std::min<qsizetype>(size, bytes.size() - at)))));
        QVERIFY(decoder.finish());
        QCOMPARE(QString::fromStdString(decoder.text()), text);
    }
}

// A file reads as the same bytes given to loadBytes: loadFile decodes UTF-8 in place, the rest
// through the decoder (issue #18). Errors too: a NUL in UTF-8 text names its byte.
void TestLoader::fromFile()
{
    QFETCH(QByteArray, bytes);
    QTemporaryDir scratch;
    const QByteArray withNul = bytes + QByteArray("v_nop\0\n", 7);
    for (const QByteArray& content : {bytes, withNul}) {
        QFile file(scratch.filePath(QStringLiteral("kernel.s")));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(content), content.size());
        file.close();
        const Loaded read = loadFile(file.fileName().toStdString(), InputKind::Llvm);
        const Loaded given = loadBytes(std::string_view(content.constData(), std::size_t(content.size())), InputKind::Llvm);
        QCOMPARE(read.error, given.error);
        QCOMPARE(read.text, given.text);
        QCOMPARE(int(read.kind), int(given.kind));
        QCOMPARE(int(read.format.encoding), int(given.format.encoding));
        QCOMPARE(read.format.bom, given.format.bom);
        QCOMPARE(read.format.latin1Fallback, given.format.latin1Fallback);
        QCOMPARE(read.format.crlf, given.format.crlf);
    }
}

// Saving writes the file back as it was read (encoding, BOM, line breaks), byte for byte.
void TestLoader::roundTrip()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, crlf);
    if (QByteArray(QTest::currentDataTag()) == "lone cr" || QByteArray(QTest::currentDataTag()) == "overlong is not utf-8")
        QSKIP("a lone CR becomes LF by design; invalid UTF-8 is kept as Latin-1 characters");
    const Loaded loaded = loadBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())), InputKind::Llvm);
    bool lossy = true;
    const std::string saved = encodeSource(loaded.text, loaded.format, &lossy);
    QVERIFY(!lossy);
    QCOMPARE(QByteArray(saved.data(), qsizetype(saved.size())), bytes);
    Q_UNUSED(crlf);
}

void TestLoader::binary_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error");
    QTest::addRow("nul in text") << QByteArray("s_nop 0\n\0\x01", 10)
                                 << QStringLiteral("binary data at byte 8 (NUL); gcnlens reads assembly source text");
    QTest::addRow("nul after bom") << QByteArray("\xef\xbb\xbfx\0", 5)
                                   << QStringLiteral("binary data at byte 4 (NUL); gcnlens reads assembly source text");
}

void TestLoader::binary()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    const Loaded loaded = loadBytes(std::string_view(bytes.constData(), std::size_t(bytes.size())));
    QCOMPARE(QString::fromStdString(loaded.error), error);
}

void TestLoader::detect_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("kind");
    QTest::addRow("elf") << QByteArray("\x7f"
                                       "ELF\x02\x01\x01\0",
                                       8)
                         << QStringLiteral("binary");
    QTest::addRow("offload bundle") << QByteArray("__CLANG_OFFLOAD_BUNDLE__\x02\0\0\0", 28) << QStringLiteral("binary");
    QTest::addRow("llvm source") << QByteArray("  s_mov_b32 s0, 1\n") << QStringLiteral("llvm");
    QTest::addRow("empty") << QByteArray() << QStringLiteral("llvm");
}

void TestLoader::detect()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, kind);
    QCOMPARE(QString::fromLatin1(inputKindName(detectInputKind(std::string_view(bytes.constData(), std::size_t(bytes.size()))))),
             kind);
    InputKind parsed = InputKind::Auto;
    QVERIFY(parseInputKind(kind.toStdString(), parsed));
    QVERIFY(!parseInputKind("assembly", parsed));
}

void TestLoader::paths()
{
    QTemporaryDir scratch;
    QCOMPARE(QString::fromStdString(checkPath(scratch.filePath(QStringLiteral("nope.s")).toStdString())),
             QStringLiteral("no such file"));
    QCOMPARE(QString::fromStdString(checkPath(scratch.path().toStdString())),
             QStringLiteral("is a directory, not a kernel source"));
    QFile big(scratch.filePath(QStringLiteral("big.s")));
    QVERIFY(big.open(QIODevice::WriteOnly));
    QVERIFY(big.resize(3 << 20)); // sparse
    big.close();
    QCOMPARE(QString::fromStdString(checkPath(big.fileName().toStdString(), 1 << 20)),
             QStringLiteral("3 MiB is larger than the 1 MiB gcnlens reads"));
    const Loaded device = loadFile("/dev/zero", InputKind::Auto, 1 << 20);
    QCOMPARE(QString::fromStdString(device.error), QStringLiteral("more than 1 MiB; gcnlens reads kernel sources up to 1 MiB"));
    QFile crlf(scratch.filePath(QStringLiteral("crlf.s")));
    QVERIFY(crlf.open(QIODevice::WriteOnly));
    crlf.write("\xef\xbb\xbf"
               "s_nop 0\r\n");
    crlf.close();
    const Loaded loaded = loadFile(crlf.fileName().toStdString());
    QVERIFY(loaded.error.empty());
    QCOMPARE(loaded.text, "s_nop 0\n"s);
    QVERIFY(loaded.format.bom && loaded.format.crlf);
}

void TestLoader::defsym_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("name");
    QTest::addColumn<qlonglong>("value");
    QTest::addColumn<QString>("error");
    QTest::addRow("decimal") << QStringLiteral("COUNT=7") << QStringLiteral("COUNT") << 7ll << QString();
    QTest::addRow("hex, blanks") << QStringLiteral(" .lds = 0x40 ") << QStringLiteral(".lds") << 64ll << QString();
    QTest::addRow("octal negative") << QStringLiteral("$x=-010") << QStringLiteral("$x") << -8ll << QString();
    QTest::addRow("no value") << QStringLiteral("COUNT") << QString() << 0ll
                              << QStringLiteral("write NAME=VALUE with an integer VALUE");
    QTest::addRow("not integer") << QStringLiteral("A=1.5") << QString() << 0ll
                                 << QStringLiteral("write NAME=VALUE with an integer VALUE");
    QTest::addRow("digit first") << QStringLiteral("1A=1") << QString() << 0ll
                                 << QStringLiteral("NAME must start with a letter, '_', '.' or '$'");
    QTest::addRow("bad character") << QStringLiteral("A-B=1") << QString() << 0ll
                                   << QStringLiteral("NAME may hold only letters, digits, '_', '.' and '$'");
}

void TestLoader::defsym()
{
    QFETCH(QString, text);
    QFETCH(QString, name);
    QFETCH(qlonglong, value);
    QFETCH(QString, error);
    std::string why;
    const auto parsed = parseDefsym(text.toStdString(), &why);
    QCOMPARE(parsed.has_value(), error.isEmpty());
    if (parsed) {
        QCOMPARE(QString::fromStdString(parsed->first), name);
        QCOMPARE(qlonglong(parsed->second), value);
    } else {
        QCOMPARE(QString::fromStdString(why), error);
    }
}

QTEST_GUILESS_MAIN(TestLoader)
#include "tst_loader.moc"
