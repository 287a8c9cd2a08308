#include "base/capped_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "vmafpp/error.hpp"

namespace vmafpp::detail {

std::string read_capped_file(const std::string& path, const FileKind& kind) {
    const std::string name = std::string(kind.name) + " " + path;
    // O_NONBLOCK: opening a fifo with no writer would otherwise wait forever
    // before fstat could refuse it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw Error("cannot open " + name + ": " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    // A device (/dev/zero) or a pipe has no size to check: refuse it at once.
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw Error("cannot read " + name + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw Error(name + " is a directory");
    if (!S_ISREG(st.st_mode)) throw Error(name + " is not a regular file (a device or a pipe)");
    if (std::uint64_t(st.st_size) > kind.max_bytes)
        throw Error(name + " is " + std::to_string(st.st_size >> 20) + " MiB, over the " +
                    std::to_string(kind.max_bytes >> 20) + " MiB limit for " + kind.what);
    std::string data(std::size_t(st.st_size), '\0');
    std::size_t done = 0;
    // A file that grows while read stops at the size taken above (and one that
    // shrinks ends early): never more than the limit.
    while (done < data.size()) {
        const ssize_t k = ::read(fd, data.data() + done, data.size() - done);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) throw Error("cannot read " + name + ": " + std::strerror(errno));
        if (k == 0) break;
        done += std::size_t(k);
    }
    data.resize(done);
    return data;
}

}  // namespace vmafpp::detail
