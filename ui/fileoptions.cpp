// SPDX-License-Identifier: MIT
#include "ui/fileoptions.h"

#include "core/options.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

namespace gcnlens::ui {

namespace {

// The limits by the names --limit takes (AssembleLimits::set), with their values as text.
std::vector<std::pair<QString, QString>> limitValues(const AssembleLimits& limits)
{
    return {{QStringLiteral("instructions"), QString::number(limits.instructions)},
            {QStringLiteral("bytes"), QString::number(limits.bytes)},
            {QStringLiteral("include-depth"), QString::number(limits.includeDepth)},
            {QStringLiteral("incbin-bytes"), QString::number(limits.incbinBytes)},
            {QStringLiteral("time"), QString::number(limits.seconds)}};
}

QString group(const QString& path)
{
    return QStringLiteral("files/") + fileKey(path);
}

} // namespace

QString fileKey(const QString& path)
{
    if (path.isEmpty())
        return QStringLiteral("untitled");
    return QString::fromLatin1(QFileInfo(path).absoluteFilePath().toUtf8().toBase64(QByteArray::Base64UrlEncoding));
}

FileOptions FileOptions::load(const QString& path)
{
    QSettings settings;
    settings.beginGroup(group(path));
    FileOptions options;
    options.includeDirs = settings.value(QStringLiteral("includeDirs")).toStringList();
    options.defsyms = settings.value(QStringLiteral("defsyms")).toStringList();
    options.allowAnyInclude = settings.value(QStringLiteral("allowAnyInclude"), false).toBool();
    for (const auto& [name, fallback] : limitValues(options.limits)) {
        const QString value = settings.value(QStringLiteral("limits/") + name, fallback).toString();
        options.limits.set(name.toStdString(), value.toStdString(), nullptr); // a bad stored value keeps the default
    }
    return options;
}

void FileOptions::save(const QString& path) const
{
    QSettings settings;
    settings.beginGroup(group(path));
    settings.setValue(QStringLiteral("includeDirs"), includeDirs);
    settings.setValue(QStringLiteral("defsyms"), defsyms);
    settings.setValue(QStringLiteral("allowAnyInclude"), allowAnyInclude);
    const AssembleLimits defaults;
    const auto defaultValues = limitValues(defaults);
    const auto values = limitValues(limits);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const QString key = QStringLiteral("limits/") + values[i].first;
        if (values[i].second == defaultValues[i].second)
            settings.remove(key); // the defaults may change with gcnlens: keep only what the user set
        else
            settings.setValue(key, values[i].second);
    }
}

void FileOptions::carryOver(const QString& from, const QString& to)
{
    if (fileKey(from) == fileKey(to))
        return;
    QSettings settings;
    settings.beginGroup(QStringLiteral("files"));
    if (settings.childGroups().contains(fileKey(to)))
        return;
    settings.beginGroup(fileKey(from));
    const QStringList keys = settings.allKeys(); // every key of the group, the dialect's included
    QList<QVariant> values;
    for (const QString& key : keys)
        values.append(settings.value(key));
    settings.endGroup();
    settings.beginGroup(fileKey(to));
    for (qsizetype i = 0; i < keys.size(); ++i)
        settings.setValue(keys[i], values[i]);
}

QString FileOptions::validate() const
{
    for (const QString& def : defsyms)
        if (!parseDefsym(def.toStdString()))
            return QCoreApplication::translate(
                       "FileOptions", "“%1” is not NAME=VALUE with an integer VALUE (for example WAVES=4 or OFFSET=0x40).")
                .arg(def);
    return {};
}

void FileOptions::applyTo(AssembleOptions& options, const QString& path) const
{
    options.includeDirs.clear();
    if (!path.isEmpty())
        options.includeDirs.push_back(QFileInfo(path).absolutePath().toStdString());
    for (const QString& dir : includeDirs)
        options.includeDirs.push_back(dir.toStdString());
    options.defsyms.clear();
    for (const QString& def : defsyms)
        if (auto parsed = parseDefsym(def.toStdString()))
            options.defsyms.push_back(std::move(*parsed));
    options.limits = limits;
    options.allowAnyInclude = allowAnyInclude;
}

bool editFileOptions(QWidget* parent, const QString& path, FileOptions& options)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("FileOptions", text); };
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("AssemblerOptions"));
    dialog.setWindowTitle(tr("Assembler options for %1").arg(path.isEmpty() ? tr("untitled") : QFileInfo(path).fileName()));
    auto* form = new QFormLayout(&dialog);
    auto* includes = new QLineEdit(options.includeDirs.join(QLatin1Char(';')));
    includes->setObjectName(QStringLiteral("includeDirs"));
    includes->setPlaceholderText(tr("dir1;dir2 (the file's own directory is always searched)"));
    auto* defs = new QLineEdit(options.defsyms.join(QLatin1Char(' ')));
    defs->setObjectName(QStringLiteral("defsyms"));
    defs->setPlaceholderText(QStringLiteral("NAME=1 OTHER=0x40"));
    form->addRow(tr("Include paths"), includes);
    form->addRow(tr("--defsym"), defs);
    auto* anyInclude = new QCheckBox(tr("Allow .include/.incbin of any file"));
    anyInclude->setObjectName(QStringLiteral("allowAnyInclude"));
    anyInclude->setToolTip(
        tr("By default only the file's folder and the include paths are read (as --allow-any-include lifts it)"));
    anyInclude->setChecked(options.allowAnyInclude);
    form->addRow(anyInclude);
    // The limits, by the names and rules of --limit NAME=VALUE.
    const std::pair<const char*, const char*> limitRows[] = {{"instructions", "Instructions emitted"},
                                                             {"bytes", "Bytes of code and data"},
                                                             {"include-depth", "Include depth"},
                                                             {"incbin-bytes", "Bytes of one .incbin"},
                                                             {"time", "Time (seconds)"}};
    const auto current = limitValues(options.limits);
    std::vector<QLineEdit*> limitEdits;
    for (std::size_t i = 0; i < std::size(limitRows); ++i) {
        auto* edit = new QLineEdit(current[i].second);
        edit->setObjectName(QStringLiteral("limit-") + QLatin1String(limitRows[i].first));
        form->addRow(tr(limitRows[i].second), edit);
        limitEdits.push_back(edit);
    }
    auto* error = new QLabel;
    error->setObjectName(QStringLiteral("error"));
    error->setWordWrap(true);
    error->setVisible(false);
    form->addRow(error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    FileOptions edited = options;
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        edited.includeDirs = includes->text().split(QLatin1Char(';'), Qt::SkipEmptyParts);
        edited.defsyms = defs->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        edited.allowAnyInclude = anyInclude->isChecked();
        QString message = edited.validate();
        for (std::size_t i = 0; i < limitEdits.size() && message.isEmpty(); ++i) {
            std::string why;
            if (!edited.limits.set(limitRows[i].first, limitEdits[i]->text().trimmed().toStdString(), &why))
                message = tr("%1: %2.").arg(tr(limitRows[i].second), QString::fromStdString(why));
        }
        if (message.isEmpty()) {
            dialog.accept();
        } else {
            error->setText(message); // stays open with the bad entry named
            error->setVisible(true);
        }
    });
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    options = edited;
    return true;
}

} // namespace gcnlens::ui
