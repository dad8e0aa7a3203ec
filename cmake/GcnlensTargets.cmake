# SPDX-License-Identifier: MIT
# Shared per-target settings: warnings for our own code, Qt's strictness flags (QT_NO_KEYWORDS
# because LLVM headers use `emit`), and a way to compile a data file into a Qt-free library.

function(gcnlens_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
endfunction()

# gcnlens_link_llvm_statically(TARGET): the executable TARGET links LLVM's components into itself
# instead of loading libLLVM (core/CMakeLists.txt says why), when GCNLENS_LLVM_STATIC is on.
function(gcnlens_link_llvm_statically target)
    if(GCNLENS_LLVM_STATIC)
        set_property(TARGET ${target} PROPERTY GCNLENS_LLVM_STATIC ON)
        # LLVM's libraries are built with a section per function: drop what nothing reaches.
        target_link_options(${target} PRIVATE -Wl,--gc-sections)
    endif()
endfunction()

# gcnlens_link_runtime_statically(TARGET): a program without Qt (gcnlens-cli, gcnlens-asm-worker)
# also links the C++ runtime into itself: loading and relocating libstdc++ cost every command
# 2-3 ms of its 8 (issue #18). Programs that load Qt keep the shared one Qt uses, so that one
# process never holds two. With the LLVM components only (the sanitizer build keeps both shared).
function(gcnlens_link_runtime_statically target)
    if(GCNLENS_LLVM_STATIC)
        target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
    endif()
endfunction()

function(gcnlens_qt_defaults target)
    target_compile_definitions(${target} PRIVATE
        QT_NO_KEYWORDS QT_NO_CAST_FROM_ASCII QT_USE_QSTRINGBUILDER QT_NO_FOREACH)
    gcnlens_warnings(${target})
endfunction()

# gcnlens_embed_text(TARGET FILE SYMBOL): compiles FILE's bytes in as
# `std::string_view gcnlens::embedded::SYMBOL()`, so core keeps its data without Qt resources.
function(gcnlens_embed_text target file symbol)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${symbol}.cpp)
    add_custom_command(OUTPUT ${out}
        COMMAND ${CMAKE_COMMAND} -DIN=${file} -DOUT=${out} -DSYMBOL=${symbol}
                -P ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
        DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/EmbedText.cmake
        COMMENT "Embedding ${file}" VERBATIM)
    target_sources(${target} PRIVATE ${out})
endfunction()
