// SPDX-License-Identifier: MIT
// Input kind detection (core/input/detect.h): code objects by magic, listings by their marks,
// everything else is source.
#include "core/input/detect.h"
#include "core/input/loader.h"

#include <QFile>
#include <QTest>

using namespace gcnlens::input;

Q_DECLARE_METATYPE(InputKind)

class TestDetect : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void detect_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<InputKind>("kind");
        QTest::addRow("ELF") << QByteArray("\x7f"
                                           "ELF\x02\x01\x01\x40",
                                           8)
                             << InputKind::Binary;
        QTest::addRow("offload bundle") << QByteArray("__CLANG_OFFLOAD_BUNDLE__\x02") << InputKind::Binary;
        QTest::addRow("compressed bundle") << QByteArray("CCOB\x01\x00") << InputKind::Binary;
        QTest::addRow("llvm-objdump") << QByteArray("k.o:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n\n"
                                                    "0000000000000000 <k>:\n"
                                                    "\ts_endpgm                // 000000000000: BF810000\n")
                                      << InputKind::Listing;
        QTest::addRow("objdump body only") << QByteArray(
            "\ts_nop 0    // 000000000000: BF800000\n\ts_endpgm   // 000000000004: BF810000\n")
                                           << InputKind::Listing;
        QTest::addRow("clrxdisasm") << QByteArray("/*bf800000*/ s_nop 0\n/*bf810000*/ s_endpgm\n") << InputKind::Listing;
        QTest::addRow("addressed text") << QByteArray("0x0: s_mov_b32 s0, 0\n0x4: s_endpgm\n") << InputKind::Listing;
        QTest::addRow("source") << QByteArray(".text\nk:\n    s_mov_b32 s0, 0 // set\n    s_endpgm\n") << InputKind::Llvm;
        QTest::addRow("source with one address comment")
            << QByteArray("k:\n  s_nop 0\n  s_nop 1\n  s_endpgm // 000000000004: BF810000\n") << InputKind::Llvm;
        QTest::addRow("empty") << QByteArray() << InputKind::Llvm;
        QFile example(QStringLiteral(GCNLENS_SOURCE_DIR "/resources/examples/saxpy-gfx6.s"));
        QVERIFY(example.open(QIODevice::ReadOnly));
        QTest::addRow("example kernel") << example.readAll() << InputKind::Llvm;
    }
    void detect()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(InputKind, kind);
        QCOMPARE(detectInputKind(std::string_view(bytes.constData(), std::size_t(bytes.size()))), kind);
    }
};

QTEST_GUILESS_MAIN(TestDetect)
#include "tst_detect.moc"
