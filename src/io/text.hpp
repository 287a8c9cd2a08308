// Quoting untrusted bytes (file contents) inside one-line error messages.
#pragma once

#include <string>
#include <string_view>

namespace vmafpp::io {

// `s` cut to max_chars with "..." appended when longer; bytes outside
// printable ASCII (newlines included) written as \xNN, so the message stays
// one line whatever the file holds.
std::string printable(std::string_view s, std::size_t max_chars);

}  // namespace vmafpp::io
