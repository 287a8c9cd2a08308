#include "io/byte_source.hpp"

#include <cerrno>
#include <cstring>

#include "vmafpp/error.hpp"

namespace vmafpp::io {

ByteSource::ByteSource(const std::string& path) : path_(path) {
    if (path == "-") {
        file_ = stdin;
        return;
    }
    file_ = std::fopen(path.c_str(), "rb");
    if (!file_) throw Error("cannot open " + path + ": " + std::strerror(errno));
    owns_ = true;
    // Large sequential reads: a 1 MiB buffer keeps syscalls off the profile.
    std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

ByteSource::~ByteSource() {
    if (owns_) std::fclose(file_);
}

std::size_t ByteSource::read(void* dst, std::size_t n) {
    const std::size_t got = std::fread(dst, 1, n, file_);
    if (got < n && std::ferror(file_))
        throw Error("error reading " + path_ + ": " + std::strerror(errno));
    return got;
}

int ByteSource::peek() {
    const int c = std::fgetc(file_);
    if (c != EOF) std::ungetc(c, file_);
    return c;
}

bool ByteSource::read_line(std::string& line, std::size_t max_len) {
    line.clear();
    for (;;) {
        const int c = std::fgetc(file_);
        if (c == EOF) {
            if (std::ferror(file_)) throw Error("error reading " + path_ + ": " + std::strerror(errno));
            return !line.empty();
        }
        if (c == '\n') return true;
        if (line.size() >= max_len) throw Error(path_ + ": header line too long (corrupt file?)");
        line.push_back(static_cast<char>(c));
    }
}

}  // namespace vmafpp::io
