# cmake -DINPUT=<page.html> -DOUTPUT=<file.cpp> -P embed_template.cmake
# Writes vmafpp::report::report_template() returning the page's bytes (hex:
# no quoting rule of the page's text can break the C++).
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}" "// Generated from report_template.html by embed_template.cmake.
#include <string_view>
namespace vmafpp::report {
namespace {
const unsigned char page[${size}] = {${bytes}};
}
std::string_view report_template() { return {reinterpret_cast<const char*>(page), ${size}}; }
}  // namespace vmafpp::report
")
