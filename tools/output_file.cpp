#include "output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

#include "vmafpp/error.hpp"

namespace vmafpp::cli {
namespace {

std::string errno_text() { return std::strerror(errno); }

// The folder of `path` ("." for a bare name), for the temporary file.
std::string folder_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The temporary file a signal must not leave behind. SIGINT, SIGTERM and
// SIGHUP end the process without running destructors, so their handler
// removes it: unlink() of a path copied here beforehand, then the signal's
// default action, both async-signal-safe. One output file is open at a time.
char g_temp_path[PATH_MAX + 32];
volatile sig_atomic_t g_temp_set = 0;

extern "C" void remove_temp_and_die(int sig) {
    if (g_temp_set) ::unlink(g_temp_path);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

// Installs the handler once, for each signal not ignored (nohup keeps
// SIGHUP ignored, and a shell's background job SIGINT).
void install_signal_cleanup() {
    static bool installed = false;
    if (installed) return;
    installed = true;
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = remove_temp_and_die;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
    }
}

void remember_temp(const std::string& path) {
    if (path.size() >= sizeof g_temp_path) return;  // mkstemp's path fits PATH_MAX
    g_temp_set = 0;
    std::memcpy(g_temp_path, path.c_str(), path.size() + 1);
    g_temp_set = 1;
    install_signal_cleanup();
}

// After the rename or the unlink: a late signal finds nothing to remove.
void forget_temp() { g_temp_set = 0; }

}  // namespace

void write_all(int fd, const std::string& data, const std::string& what) {
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t k = ::write(fd, data.data() + done, data.size() - done);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) throw Error("error writing " + what + ": " + errno_text());
        done += std::size_t(k);
    }
}

OutputFile::OutputFile(const std::string& path, const std::vector<std::string>& inputs)
    : path_(path) {
    if (path.empty()) throw Error("--output/-o: empty file name");
    if (path == "-" || path == "/dev/stdout") {
        stdout_ = true;
        return;
    }
    struct stat out {};
    const bool exists = ::stat(path.c_str(), &out) == 0;
    if (!exists && errno != ENOENT)
        throw Error("cannot write output file " + path + ": " + errno_text());
    if (exists) {
        if (S_ISDIR(out.st_mode)) throw Error("output file " + path + " is a directory");
        for (const auto& in : inputs) {
            struct stat st {};
            const int rc = in == "-" ? ::fstat(STDIN_FILENO, &st) : ::stat(in.c_str(), &st);
            if (rc == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
                throw Error("output file " + path + " is the input " + in +
                            " (it would be overwritten); choose another -o");
        }
    }
    if (exists && !S_ISREG(out.st_mode)) {
        // A device or a pipe: nothing to replace, write straight to it.
        fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd_ < 0) throw Error("cannot write output file " + path + ": " + errno_text());
        return;
    }
    // Replace the file a symbolic link names, not the link.
    target_ = path;
    if (exists) {
        char real[PATH_MAX];
        if (::realpath(path.c_str(), real)) target_ = real;
    }
    temp_ = folder_of(target_) + "/.vmafpp-XXXXXX";
    fd_ = ::mkstemp(temp_.data());
    if (fd_ < 0) {
        const std::string why = errno_text();
        temp_.clear();
        throw Error("cannot write output file " + path + ": folder " + folder_of(target_) + ": " + why);
    }
    remember_temp(temp_);
    // mkstemp's 0600 would make a results file private: keep the old file's
    // mode, or give a new one the umask's usual mode.
    mode_t mode = 0;
    if (exists) {
        mode = out.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    (void)::fchmod(fd_, mode);
}

OutputFile::~OutputFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!temp_.empty()) {
        ::unlink(temp_.c_str());
        forget_temp();
    }
}

void OutputFile::commit(const std::string& data) {
    if (stdout_) {
        write_all(STDOUT_FILENO, data, "standard output");
        return;
    }
    write_all(fd_, data, "output file " + path_);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw Error("error writing output file " + path_ + ": " + errno_text());
    if (temp_.empty()) return;
    if (::rename(temp_.c_str(), target_.c_str()) != 0)
        throw Error("cannot replace output file " + path_ + ": " + errno_text());
    forget_temp();
    temp_.clear();
}

}  // namespace vmafpp::cli
