# SPDX-License-Identifier: MIT
# cmake -DREADELF=... -DFILE=... -DFORBIDDEN=REGEX -P CheckNeeded.cmake: fails when the ELF FILE
# names a shared library matching REGEX among the libraries it needs (DT_NEEDED). The test
# `cli_start_libraries` keeps Qt and the shared C++ runtime out of gcnlens-cli: loading them was
# 13 of the 16 ms every command spent starting (issue #18).
execute_process(COMMAND ${READELF} -d ${FILE} OUTPUT_VARIABLE dynamic RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${READELF} -d ${FILE} failed (${status})")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]+\\]" needed "${dynamic}")
if(NOT needed)
    message(FATAL_ERROR "${FILE}: no NEEDED entry found in readelf's output; cannot check")
endif()
foreach(entry IN LISTS needed)
    if(entry MATCHES "${FORBIDDEN}")
        message(FATAL_ERROR "${FILE} needs a library it must not load: ${entry}")
    endif()
endforeach()
list(LENGTH needed count)
message(STATUS "${FILE}: ${count} needed libraries, none matching ${FORBIDDEN}")
