# SPDX-License-Identifier: MIT
# Script mode: writes OUT, a C++ file returning the text of IN from gcnlens::embedded::SYMBOL().
file(READ ${IN} content HEX)
string(LENGTH "${content}" hex_length)
math(EXPR byte_count "${hex_length} / 2")
# Hex bytes as a char array: safe for any content (no raw-string delimiter clash, no length limit).
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${content}")
file(WRITE ${OUT} "// Generated from ${IN}; do not edit.\n#include <string_view>\n"
    "namespace gcnlens::embedded {\nstatic const char data_${SYMBOL}[] = {${bytes} 0};\n"
    "std::string_view ${SYMBOL}() { return {data_${SYMBOL}, ${byte_count}}; }\n}\n")
