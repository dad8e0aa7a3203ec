// SPDX-License-Identifier: MIT
// Build-time tool: renders the SVG application icon to a square PNG of the given size, so the
// hicolor PNG sizes are generated from the one SVG rather than kept as binaries in the repository.
//   gcnlens-render-icon IN.svg SIZE OUT.png
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::fputs("usage: gcnlens-render-icon IN.svg SIZE OUT.png\n", stderr);
        return 2;
    }
    // No QGuiApplication: raster painting of an SVG without text needs no platform plugin, so
    // this runs on a build machine without a display or the offscreen plugin.
    QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
    const int size = QByteArray(argv[2]).toInt();
    if (!svg.isValid() || size <= 0) {
        std::fprintf(stderr, "gcnlens-render-icon: cannot render %s at size %s\n", argv[1], argv[2]);
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    svg.render(&painter);
    painter.end();
    if (!image.save(QString::fromLocal8Bit(argv[3]), "PNG")) {
        std::fprintf(stderr, "gcnlens-render-icon: cannot write %s\n", argv[3]);
        return 1;
    }
    return 0;
}
