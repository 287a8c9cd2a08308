// Sequential reads from a file, standard input or a memory buffer.
//
// Files are read with read(2) through our own buffer rather than stdio: a
// picture's rows go straight from the kernel into the plane (readv, one copy)
// and a pipe on standard input behaves like a file. A memory source is the
// same object whose buffer is the caller's bytes and never refills; the fuzz
// harnesses and tests use it. A regular file skips large stretches with
// lseek (no copy); a pipe reads them through the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace vmafpp::io {

class ByteSource {
public:
    static constexpr std::size_t kDefaultBufferSize = std::size_t{1} << 16;
    // "-" is standard input (not closed by the destructor). The buffer holds
    // header lines and small frames of several pictures per syscall; larger
    // reads bypass it. Tests and fuzzers pass tiny sizes to exercise refills.
    explicit ByteSource(const std::string& path, std::size_t buffer_size = kDefaultBufferSize);
    // Reads `size` bytes at `data` (not copied: they must outlive the source);
    // `name` stands for the path in error messages.
    ByteSource(std::string name, const void* data, std::size_t size);
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads up to n bytes; returns how many were read (short only at EOF).
    std::size_t read(void* dst, std::size_t n);
    // Reads `rows` rows of `row_bytes` bytes each, the rows `stride` bytes
    // apart at dst. Returns the number of bytes read (short only at EOF).
    std::size_t read_rows(std::uint8_t* dst, std::ptrdiff_t stride, std::size_t row_bytes,
                          std::size_t rows);
    // Discards up to n bytes; returns how many were discarded (short only at
    // EOF, also when a regular file is skipped by seeking).
    std::size_t skip(std::size_t n);

    enum class Line { ok, eof, too_long };
    // Reads one line up to '\n' (excluded) into `line`. eof: the source ended
    // before any byte (a last line without '\n' is ok). too_long: no '\n' in
    // the first max_len bytes (`line` holds them, the rest stays unread).
    Line read_line(std::string& line, std::size_t max_len);
    // How many of the next n bytes exist (n, or fewer where the source ends
    // first), without consuming them: a regular file compares its size, a
    // pipe reads ahead into a buffer grown as data arrives. Lets a reader
    // check that a frame is there before allocating a picture for it.
    std::size_t available(std::size_t n);
    // Whether the next bytes are `prefix` (read ahead, not consumed).
    bool starts_with(std::string_view prefix);
    // Bytes left to read when known without reading them (a regular file or
    // a memory source), else -1.
    long long size_left() const;
    // The next byte without consuming it, or -1 at EOF.
    int peek();
    const std::string& path() const { return path_; }
    // Whether reads can start over (a regular file): a pipe or fifo is read
    // once, so nothing may open it a second time.
    bool seekable() const { return seekable_; }

    // The descriptor, handed over to a reader that reads on its own (FFmpeg
    // through an AVIOContext), with the bytes this source read ahead and
    // nothing consumed: for a pipe they were read once and exist nowhere else.
    struct Handover {
        int fd = -1;
        bool owns_fd = false;  // the new owner closes it (not standard input)
        bool seekable = false;
        std::string unread;    // the next bytes, before those still in fd
    };
    // Leaves this source empty (reads return 0). Not for a memory source.
    Handover release();

private:
    bool refill();  // false at EOF
    std::size_t read_fd(std::uint8_t* dst, std::size_t n);
    std::size_t fill_ahead(std::size_t n);
    std::size_t read_fd_some(std::uint8_t* dst, std::size_t n);  // one read(2), 0 at EOF
    std::size_t readv_rows(std::uint8_t* dst, std::ptrdiff_t stride, std::size_t row_bytes,
                           std::size_t rows);
    std::size_t seek_forward(std::size_t n);
    [[noreturn]] void throw_read_error() const;

    std::string path_;
    int fd_ = -1;  // -1 for a memory source
    bool owns_fd_ = false;
    bool seekable_ = false;  // a regular file: skip() may lseek past bytes
    std::size_t buffer_size_ = 0;
    std::unique_ptr<std::uint8_t[]> storage_;
    std::size_t storage_size_ = 0;  // buffer_size_, or more after available() grew it
    const std::uint8_t* buf_ = nullptr;
    std::size_t pos_ = 0;
    std::size_t end_ = 0;
};

}  // namespace vmafpp::io
