// The one exception type vmafpp throws for bad input, options or models.
#pragma once

#include <stdexcept>
#include <string>

#include "vmafpp/export.hpp"

namespace vmafpp {

// what() is a complete one-line message meant for a user (no trailing
// newline). Messages quote text from files and options; control characters
// in it (a newline inside a JSON string, say) are written as escapes, so the
// message stays one line whatever the input.
class VMAFPP_API Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(one_line(message)) {}

    static std::string one_line(const std::string& text);
};

}  // namespace vmafpp
