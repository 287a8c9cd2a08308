// Buffered sequential reads from a file or standard input.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace vmafpp::io {

class ByteSource {
public:
    explicit ByteSource(const std::string& path);
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads up to n bytes; returns how many were read (short only at EOF).
    std::size_t read(void* dst, std::size_t n);
    // Reads one line up to '\n' (excluded) into `line`; false at EOF before any
    // byte. Lines longer than max_len throw.
    bool read_line(std::string& line, std::size_t max_len);
    int peek();
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::FILE* file_ = nullptr;
    bool owns_ = false;
};

}  // namespace vmafpp::io
