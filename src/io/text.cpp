#include "io/text.hpp"

namespace vmafpp::io {

std::string printable(std::string_view s, std::size_t max_chars) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    const std::size_t n = s.size() < max_chars ? s.size() : max_chars;
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out.push_back(char(c));
        } else {
            out += "\\x";
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 15]);
        }
    }
    if (s.size() > max_chars) out += "...";
    return out;
}

}  // namespace vmafpp::io
