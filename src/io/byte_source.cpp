#include "io/byte_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "vmafpp/error.hpp"

namespace vmafpp::io {
namespace {

// POSIX guarantees at least 16; Linux allows 1024 iovecs per readv.
constexpr int kMaxIovecs = 1024;

}  // namespace

ByteSource::ByteSource(const std::string& path, std::size_t buffer_size)
    : path_(path), buffer_size_(buffer_size < 1 ? 1 : buffer_size) {
    if (path == "-") {
        fd_ = STDIN_FILENO;
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
        owns_fd_ = true;
        // Advisory only; a pipe or device refuses it and that is fine.
        (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
    }
    // Standard input redirected from a file seeks too; a pipe, terminal or
    // device reads through.
    struct stat st {};
    const bool known = ::fstat(fd_, &st) == 0;
    seekable_ = known && S_ISREG(st.st_mode);
    if (known && S_ISDIR(st.st_mode)) {
        if (owns_fd_) ::close(fd_);
        throw Error(path + " is a directory, not a video file");
    }
    storage_ = std::make_unique<std::uint8_t[]>(buffer_size_);
    storage_size_ = buffer_size_;
    buf_ = storage_.get();
}

ByteSource::ByteSource(std::string name, const void* data, std::size_t size)
    : path_(std::move(name)), buf_(static_cast<const std::uint8_t*>(data)), end_(size) {}

ByteSource::~ByteSource() {
    if (owns_fd_) ::close(fd_);
}

ByteSource::Handover ByteSource::release() {
    Handover h;
    h.fd = fd_;
    h.owns_fd = owns_fd_;
    h.seekable = seekable_;
    if (pos_ < end_) h.unread.assign(reinterpret_cast<const char*>(buf_ + pos_), end_ - pos_);
    fd_ = -1;
    owns_fd_ = false;
    pos_ = end_ = 0;
    return h;
}

void ByteSource::throw_read_error() const {
    throw Error("error reading " + path_ + ": " + std::strerror(errno));
}

std::size_t ByteSource::read_fd(std::uint8_t* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        const ssize_t k = ::read(fd_, dst + done, n - done);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw_read_error();
        }
        if (k == 0) break;
        done += std::size_t(k);
    }
    return done;
}

std::size_t ByteSource::read_fd_some(std::uint8_t* dst, std::size_t n) {
    for (;;) {
        const ssize_t k = ::read(fd_, dst, n);
        if (k >= 0) return std::size_t(k);
        if (errno != EINTR) throw_read_error();
    }
}

bool ByteSource::refill() {
    if (fd_ < 0) return false;
    pos_ = 0;
    end_ = 0;
    if (storage_size_ != buffer_size_) {
        // The read-ahead of available() is consumed: back to the usual size.
        storage_ = std::make_unique<std::uint8_t[]>(buffer_size_);
        storage_size_ = buffer_size_;
        buf_ = storage_.get();
    }
    for (;;) {
        const ssize_t k = ::read(fd_, storage_.get(), buffer_size_);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw_read_error();
        }
        end_ = std::size_t(k);
        return k > 0;
    }
}

std::size_t ByteSource::read(void* dst_void, std::size_t n) {
    auto* dst = static_cast<std::uint8_t*>(dst_void);
    std::size_t done = 0;
    while (done < n) {
        if (pos_ == end_) {
            // A large remainder goes straight into dst: one copy, not two.
            if (fd_ >= 0 && n - done >= buffer_size_) return done + read_fd(dst + done, n - done);
            if (!refill()) break;
        }
        const std::size_t k = std::min(n - done, end_ - pos_);
        std::memcpy(dst + done, buf_ + pos_, k);
        pos_ += k;
        done += k;
    }
    return done;
}

std::size_t ByteSource::readv_rows(std::uint8_t* dst, std::ptrdiff_t stride,
                                   std::size_t row_bytes, std::size_t rows) {
    std::size_t done = 0;
    std::size_t row = 0;
    std::size_t offset = 0;  // bytes of `row` already read
    while (row < rows) {
        iovec iov[kMaxIovecs];
        int count = 0;
        for (std::size_t r = row; r < rows && count < kMaxIovecs; ++r, ++count) {
            const std::size_t skip = r == row ? offset : 0;
            iov[count].iov_base = dst + std::ptrdiff_t(r) * stride + std::ptrdiff_t(skip);
            iov[count].iov_len = row_bytes - skip;
        }
        const ssize_t k = ::readv(fd_, iov, count);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw_read_error();
        }
        if (k == 0) break;
        done += std::size_t(k);
        const std::size_t advanced = offset + std::size_t(k);
        row += advanced / row_bytes;
        offset = advanced % row_bytes;
    }
    return done;
}

std::size_t ByteSource::read_rows(std::uint8_t* dst, std::ptrdiff_t stride, std::size_t row_bytes,
                                  std::size_t rows) {
    if (row_bytes == 0 || rows == 0) return 0;
    if (std::ptrdiff_t(row_bytes) == stride) return read(dst, row_bytes * rows);
    std::size_t done = 0;
    std::size_t row = 0;
    // Rows still in the buffer first, then (for a large remainder) readv.
    while (row < rows) {
        if (pos_ == end_) {
            const std::size_t left = (rows - row) * row_bytes;
            if (fd_ >= 0 && left >= buffer_size_)
                return done + readv_rows(dst + std::ptrdiff_t(row) * stride, stride, row_bytes,
                                         rows - row);
            if (!refill()) break;
        }
        const std::size_t k = std::min(row_bytes, end_ - pos_);
        // A row may straddle a refill: read() finishes it.
        std::memcpy(dst + std::ptrdiff_t(row) * stride, buf_ + pos_, k);
        pos_ += k;
        done += k;
        if (k < row_bytes) {
            const std::size_t rest = read(dst + std::ptrdiff_t(row) * stride + std::ptrdiff_t(k),
                                          row_bytes - k);
            done += rest;
            if (rest < row_bytes - k) break;
        }
        ++row;
    }
    return done;
}

std::size_t ByteSource::skip(std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
        if (pos_ == end_) {
            // As read(): a large remainder bypasses the buffer, here by seeking.
            if (seekable_ && n - done >= buffer_size_) return done + seek_forward(n - done);
            if (!refill()) break;
        }
        const std::size_t k = std::min(n - done, end_ - pos_);
        pos_ += k;
        done += k;
    }
    return done;
}

// lseek succeeds past the end of a file, so the size (taken after the seek: a
// file that grows meanwhile counts its new bytes) says how far the skip really
// got; the offset then stays at the end, where the next read finds EOF, as if
// the bytes had been read through.
std::size_t ByteSource::seek_forward(std::size_t n) {
    const off_t target = ::lseek(fd_, off_t(n), SEEK_CUR);
    if (target < 0) throw_read_error();
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw_read_error();
    if (target <= st.st_size) return n;
    const off_t start = target - off_t(n);
    const off_t got = st.st_size > start ? st.st_size - start : 0;
    if (::lseek(fd_, start + got, SEEK_SET) < 0) throw_read_error();
    return std::size_t(got);
}

std::size_t ByteSource::available(std::size_t n) {
    const std::size_t buffered = end_ - pos_;
    if (buffered >= n || fd_ < 0) return std::min(n, buffered);
    if (seekable_) {
        const off_t at = ::lseek(fd_, 0, SEEK_CUR);
        struct stat st {};
        if (at < 0 || ::fstat(fd_, &st) != 0) throw_read_error();
        const std::size_t rest = st.st_size > at ? std::size_t(st.st_size - at) : 0;
        return std::min(n, buffered + rest);
    }
    return fill_ahead(n);
}

// Reads into the buffer until n bytes are buffered or the source ends,
// doubling the buffer only when full, so memory follows the bytes that
// really arrived.
std::size_t ByteSource::fill_ahead(std::size_t n) {
    std::size_t have = end_ - pos_;
    while (have < n && fd_ >= 0) {
        if (end_ == storage_size_) {
            const std::size_t grown = std::min(std::max(storage_size_ * 2, have + buffer_size_), n);
            auto bigger = std::make_unique<std::uint8_t[]>(grown);
            std::memcpy(bigger.get(), buf_ + pos_, have);
            storage_ = std::move(bigger);
            storage_size_ = grown;
            buf_ = storage_.get();
            pos_ = 0;
            end_ = have;
        }
        const std::size_t k = read_fd_some(storage_.get() + end_, storage_size_ - end_);
        if (k == 0) break;
        end_ += k;
        have += k;
    }
    return std::min(n, have);
}

bool ByteSource::starts_with(std::string_view prefix) {
    return fill_ahead(prefix.size()) == prefix.size() &&
           std::memcmp(buf_ + pos_, prefix.data(), prefix.size()) == 0;
}

long long ByteSource::size_left() const {
    const long long buffered = (long long)(end_ - pos_);
    if (fd_ < 0) return buffered;
    if (!seekable_) return -1;
    const off_t at = ::lseek(fd_, 0, SEEK_CUR);
    struct stat st {};
    if (at < 0 || ::fstat(fd_, &st) != 0) return -1;
    return buffered + (st.st_size > at ? (long long)(st.st_size - at) : 0);
}

int ByteSource::peek() {
    if (pos_ == end_ && !refill()) return -1;
    return buf_[pos_];
}

ByteSource::Line ByteSource::read_line(std::string& line, std::size_t max_len) {
    line.clear();
    bool any = false;
    for (;;) {
        if (pos_ == end_ && !refill()) return any ? Line::ok : Line::eof;
        any = true;
        const std::size_t avail = std::min(end_ - pos_, max_len - line.size());
        const auto* start = buf_ + pos_;
        const auto* nl = static_cast<const std::uint8_t*>(std::memchr(start, '\n', avail));
        const std::size_t take = nl ? std::size_t(nl - start) : avail;
        line.append(reinterpret_cast<const char*>(start), take);
        pos_ += take;
        if (nl) {
            ++pos_;
            return Line::ok;
        }
        if (line.size() >= max_len) return Line::too_long;
    }
}

}  // namespace vmafpp::io
