// SPDX-License-Identifier: MIT
#include "core/asm/streamer_p.h"

#include "core/asm/sourcemap.h"

#include <algorithm>

namespace gcnlens::detail {

RunWatch runWatch;

void RunWatch::reachedParser()
{
    if (parser)
        reached(parser->getTok().getLoc().getPointer());
}

const char* statementBefore(const llvm::SourceMgr& sources, const char* at)
{
    if (!at)
        return at;
    const unsigned buffer = sources.FindBufferContainingLoc(llvm::SMLoc::getFromPointer(at));
    if (buffer == 0)
        return at;
    const llvm::MemoryBuffer* memory = sources.getMemoryBuffer(buffer);
    const std::string_view text(memory->getBufferStart(), memory->getBufferSize());
    const auto startOfLine = [&](std::size_t offset) {
        const std::size_t newline = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
        return newline == std::string_view::npos ? 0 : newline + 1;
    };
    const auto codeOfLineAt = [&](std::size_t lineStart) {
        const std::size_t end = std::min(text.find('\n', lineStart), text.size());
        return SourceMap::code(text.substr(lineStart, end - lineStart));
    };
    const auto offset = std::size_t(at - text.data());
    std::size_t line = startOfLine(offset);
    const std::string_view code = codeOfLineAt(line);
    const bool atCodeStart = offset >= text.size() || code.empty() || code.data() == text.data() + offset;
    if (!atCodeStart)
        return at;
    while (line > 0) {
        line = startOfLine(line - 1);
        if (!codeOfLineAt(line).empty())
            return text.data() + line;
    }
    return at;
}

int mainLineOf(const llvm::SourceMgr& sources, llvm::SMLoc loc)
{
    if (!loc.isValid())
        return 0;
    unsigned buffer = sources.FindBufferContainingLoc(loc);
    while (buffer > 1) {
        const llvm::SMLoc parent = sources.getParentIncludeLoc(buffer);
        if (!parent.isValid())
            return 0;
        loc = parent;
        buffer = sources.FindBufferContainingLoc(loc);
    }
    return buffer == 1 ? int(sources.FindLineNumber(loc, 1)) : 0;
}

void handleDiagnostic(const llvm::SMDiagnostic& d, void* contextPtr)
{
    auto* context = static_cast<DiagnosticContext*>(contextPtr);
    const llvm::SourceMgr& sources = *context->sources;
    if (d.getKind() == llvm::SourceMgr::DK_Note && d.getMessage() == "while in macro instantiation") {
        if (context->probing) {
            context->probeLocs->push_back(d.getLoc().getPointer());
        } else if (!context->diagnostics->empty()) {
            context->diagnostics->back().expansionLocs.push_back(d.getLoc().getPointer());
        }
        return;
    }
    if (d.getKind() == llvm::SourceMgr::DK_Note && d.getMessage() == CollectingStreamer::kProbeMessage) {
        // Our own question (CollectingStreamer::located): the instantiation notes that follow answer it.
        context->probing = true;
        return;
    }
    context->probing = false;
    // Some warnings come without a location (LLVM 19's inexact 64-bit literal, for one): they
    // belong to the statement the parser is on.
    llvm::SMLoc loc = d.getLoc();
    int bufferLine = d.getLineNo();
    if (!loc.isValid() && context->streamer && context->streamer->parser) {
        loc = llvm::SMLoc::getFromPointer(statementBefore(sources, context->streamer->parser->getTok().getLoc().getPointer()));
        if (loc.isValid())
            bufferLine = int(sources.FindLineNumber(loc, sources.FindBufferContainingLoc(loc)));
    }
    RawDiagnostic raw;
    raw.severity = d.getKind() == llvm::SourceMgr::DK_Error ? Severity::Error
        : d.getKind() == llvm::SourceMgr::DK_Warning        ? Severity::Warning
                                                            : Severity::Note;
    raw.bufferId = loc.isValid() ? sources.FindBufferContainingLoc(loc) : 0;
    raw.bufferLine = bufferLine;
    raw.column = d.getLoc().isValid() ? std::max(0, d.getColumnNo()) : -1; // -1: the statement's start
    raw.loc = loc.getPointer();
    raw.message = d.getMessage().str();
    context->diagnostics->push_back(std::move(raw));

    // An instruction line that failed: reserve room once per statement (program.h).
    if (raw.severity == Severity::Error && loc.isValid()) {
        const RawDiagnostic& stored = context->diagnostics->back();
        const bool sameStatement =
            stored.bufferId == context->lastPlaceholderBuffer && stored.bufferLine == context->lastPlaceholderLine;
        const bool looksLikeInstruction = SourceMap::statementIsInstruction(d.getLineContents().str());
        if (!sameStatement && looksLikeInstruction) {
            context->streamer->addPlaceholder(int(context->diagnostics->size()) - 1, stored.bufferId, stored.loc);
            context->lastPlaceholderBuffer = stored.bufferId;
            context->lastPlaceholderLine = stored.bufferLine;
        }
    }
}


} // namespace gcnlens::detail
