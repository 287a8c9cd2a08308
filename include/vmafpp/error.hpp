// The one exception type vmafpp throws for bad input, options or models.
#pragma once

#include <stdexcept>
#include <string>

namespace vmafpp {

// what() is a complete one-line message meant for a user (no trailing newline).
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace vmafpp
