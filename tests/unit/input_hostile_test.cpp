// Hostile input names and streams (issue 35's probe), through the CLI:
// names FFmpeg would take for URLs or protocols are files; pipes and fifos
// are read once and never hang; a stream that changes size is named as
// such; a signal leaves no temporary output file. Encodes are made at test
// time by the ffmpeg CLI; tests that need it skip without it.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "io/ffmpeg_reader.hpp"
#include "support/corpus.hpp"

namespace vmafpp {
namespace {

namespace fs = std::filesystem;

const std::string kCli = VMAFPP_CLI;
constexpr const char* kPair = "p08_brick_176x144_420p8_bilinear2x";  // 176x144, 24 frames

std::string q(const fs::path& p) { return test::shell_quote(p); }

bool have_ffmpeg_cli() { return test::run_command("command -v ffmpeg") == 0; }

#define SKIP_WITHOUT_FFMPEG()                                                                   \
    do {                                                                                         \
        if (!io::ffmpeg_available()) GTEST_SKIP() << "vmafpp was built without FFmpeg";        \
        if (!have_ffmpeg_cli()) GTEST_SKIP() << "the ffmpeg CLI is not installed";              \
    } while (0)

fs::path dir() {
    fs::path d = test::work_dir() / "input_hostile";
    fs::create_directories(d);
    return d;
}

fs::path made(const std::string& name, const std::string& make) { return test::made_file(dir(), name, make); }

fs::path ref() { return test::clip(kPair, "ref"); }

// The distorted clip encoded (H.264 at `crf`) into `name`.
fs::path encoded(const std::string& name, int crf, const std::string& extra = "") {
    return made(name, "ffmpeg -nostdin -v error -i " + q(test::clip(kPair, "dis")) + " " + extra +
                          " -c:v libx264 -crf " + std::to_string(crf) + " \"$OUT\"");
}

struct CliRun {
    int rc = -1;
    std::string out;  // stdout and stderr
};

// The CLI in `cwd` (relative names stay relative), bounded by `timeout` s:
// a hang is exit 124, never a stuck test.
CliRun cli(const fs::path& cwd, const std::string& args, int timeout = 60) {
    CliRun r;
    r.rc = test::run_command("cd " + q(cwd) + " && timeout -k 5 " + std::to_string(timeout) + " " + kCli +
                                 " -q " + args,
                             &r.out);
    return r;
}

// The pooled summary line the CLI prints for the default model.
std::string summary(const CliRun& r) {
    const auto at = r.out.find("vmaf: mean ");
    return at == std::string::npos ? "" : r.out.substr(at, r.out.find('\n', at) - at);
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// A file named `name` in `folder` holding a copy of `from`.
fs::path copy_named(const fs::path& from, const fs::path& folder, const std::string& name) {
    fs::create_directories(folder);
    const fs::path to = folder / name;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    return to;
}

// A listening TCP socket on a loopback port the kernel picks; whether a
// connection arrived is read without blocking.
class Listener {
public:
    Listener() {
        fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
            throw std::runtime_error("cannot listen on loopback");
        port_ = ntohs(a.sin_port);
    }
    ~Listener() { ::close(fd_); }
    int port() const { return port_; }
    bool connected() const {
        const int c = ::accept(fd_, nullptr, nullptr);
        if (c >= 0) ::close(c);
        return c >= 0;
    }

private:
    int fd_ = -1;
    int port_ = 0;
};

// "file:NAME", "concat:A|B" and "http:HOST:PORT" are file names: a file so
// named is scored as itself, even where FFmpeg's reading of the name would
// reach another file (whose score differs) or the network.
TEST(FfmpegInputNames, ProtocolLikeNamesAreFiles) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path good = encoded("good.mkv", 18), poor = encoded("poor.mkv", 45);
    const fs::path folder = dir() / "names";
    copy_named(poor, folder, "dis.mkv");
    copy_named(poor, folder, "a.mkv");
    const std::string want = summary(cli(folder, "-r " + q(ref()) + " -d " + q(good)));
    const std::string other = summary(cli(folder, "-r " + q(ref()) + " -d " + q(poor)));
    ASSERT_FALSE(want.empty());
    ASSERT_NE(want, other) << "the two encodes must score differently";
    Listener listener;
    const std::string http = "http:127.0.0.1:" + std::to_string(listener.port());
    for (const std::string& name : std::vector<std::string>{"file:dis.mkv", "concat:a.mkv|a.mkv", http}) {
        SCOPED_TRACE(name);
        copy_named(good, folder, name);
        const CliRun r = cli(folder, "-r " + q(ref()) + " -d " + q(name));
        EXPECT_EQ(r.rc, 0) << r.out;
        EXPECT_EQ(summary(r), want) << r.out;
    }
    EXPECT_FALSE(listener.connected()) << "vmafpp connected to " << http;
}

// A name that is no file is a one-line error, whatever FFmpeg would make of
// it, and nothing connects to the port it names.
TEST(FfmpegInputNames, NonFilesAreOneLineErrorsWithoutConnecting) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path folder = dir() / "missing";
    fs::create_directories(folder);
    copy_named(encoded("good.mkv", 18), folder, "a.mkv");
    Listener listener;
    const std::string port = std::to_string(listener.port());
    for (const std::string& name : std::vector<std::string>{"file:a.mkv", "concat:a.mkv|a.mkv", "http:127.0.0.1:" + port,
                                   "http://127.0.0.1:" + port + "/a.mkv", "tcp://127.0.0.1:" + port}) {
        SCOPED_TRACE(name);
        const CliRun r = cli(folder, "-r " + q(ref()) + " -d " + q(name));
        EXPECT_EQ(r.rc, 1) << r.out;
        EXPECT_EQ(lines(r.out), 1) << r.out;
        EXPECT_NE(r.out.find("cannot open " + name), std::string::npos) << r.out;
    }
    EXPECT_FALSE(listener.connected()) << "vmafpp connected to port " << port;
}

// A file whose content asks FFmpeg to open others (an ffconcat script
// naming a local file, or a URL) is refused rather than followed: vmafpp
// reads the one file it is given.
TEST(FfmpegInputNames, NestedOpensAreRefused) {
    SKIP_WITHOUT_FFMPEG();
    Listener listener;
    const fs::path folder = dir() / "nested";
    copy_named(encoded("good.mkv", 18), folder, "a.mkv");
    std::ofstream(folder / "local.ffconcat") << "ffconcat version 1.0\nfile a.mkv\n";
    std::ofstream(folder / "url.ffconcat") << "ffconcat version 1.0\nfile http://127.0.0.1:" << listener.port()
                                           << "/b.mkv\n";
    for (const char* name : {"local.ffconcat", "url.ffconcat"}) {
        SCOPED_TRACE(name);
        const CliRun r = cli(folder, "-r " + q(ref()) + " -d " + name);
        EXPECT_EQ(r.rc, 1) << r.out;
        EXPECT_EQ(lines(r.out), 1) << r.out;
    }
    EXPECT_FALSE(listener.connected());
}

// A fifo fed by a writer: read once through the open descriptor, never
// re-opened (which would block for ever); scores as the file does, or is a
// one-line error, well within the timeout. Standard input the same.
TEST(FfmpegPipes, FifoIsReadOnceAndNeverHangs) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path mkv = encoded("good.mkv", 18);
    const fs::path folder = dir() / "fifo";
    fs::create_directories(folder);
    const fs::path fifo = folder / "ff";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string want = summary(cli(folder, "-r " + q(ref()) + " -d " + q(mkv)));
    ASSERT_FALSE(want.empty());
    // The writer is bounded too: it ends when the reader does or after 60 s.
    const std::string feed = "(timeout 60 cat " + q(mkv) + " > " + q(fifo) + " &) ; ";
    CliRun r;
    r.rc = test::run_command("cd " + q(folder) + " && " + feed + "timeout -k 5 30 " + kCli + " -q -r " +
                                 q(ref()) + " -d ff",
                             &r.out);
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(summary(r), want) << r.out;
    r.rc = test::run_command("cd " + q(folder) + " && " + feed + "timeout -k 5 30 " + kCli + " -q -r " +
                                 q(ref()) + " -d ff --count-frames",
                             &r.out);
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(r.out, "24\n");
    r.rc = test::run_command("cat " + q(mkv) + " | timeout -k 5 30 " + kCli + " -q -r " + q(ref()) + " -d -",
                             &r.out);
    EXPECT_EQ(r.rc, 0) << r.out;
    EXPECT_EQ(summary(r), want) << r.out;
    // An MP4 whose index follows its data (larger than FFmpeg's buffer) needs
    // to seek back: one line that says why, not a hang.
    const fs::path mp4 = made("big_p01.mp4", "ffmpeg -nostdin -v error -i " +
                                             q(test::clip("p01_astronaut_576x324_420p8_x264crf23", "dis")) +
                                             " -c:v libx264 -qp 0 \"$OUT\"");
    ASSERT_GT(fs::file_size(mp4), 1u << 16);
    r.rc = test::run_command("cd " + q(folder) + " && (timeout 60 cat " + q(mp4) + " > ff &) ; timeout -k 5 30 " +
                                 kCli + " -q -r " + q(ref()) + " -d ff",
                             &r.out);
    EXPECT_EQ(r.rc, 1) << r.out;
    EXPECT_EQ(lines(r.out), 1) << r.out;
    EXPECT_NE(r.out.find("pipe or fifo"), std::string::npos) << r.out;
}

// Y4M and raw YUV from a fifo: read once too, counted and scored.
TEST(FfmpegPipes, Y4mFifoIsReadOnce) {
    const fs::path folder = dir() / "fifo_y4m";
    fs::create_directories(folder);
    const fs::path fifo = folder / "ff";
    fs::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const fs::path dis = test::clip(kPair, "dis");
    std::string out;
    ASSERT_EQ(test::run_command("cd " + q(folder) + " && (timeout 60 cat " + q(dis) + " > ff &) ; timeout -k 5 30 " +
                                    kCli + " -q -r " + q(ref()) + " -d ff --count-frames",
                                &out),
              0)
        << out;
    EXPECT_EQ(out, "24\n");
}

// Two H.264 streams of different sizes joined end to end (MPEG-TS, whose
// continuity counters restart there): the frame where the size changes is
// named, by --count-frames too, not "cut short".
TEST(CliMessages, SizeChangeIsNamed) {
    SKIP_WITHOUT_FFMPEG();
    const fs::path a = encoded("a.ts", 23, "-frames:v 12"), b = encoded("b48.ts", 23, "-frames:v 12 -vf scale=48:48");
    const fs::path joined = made("joined.ts", "cat " + q(a) + " " + q(b) + " > \"$OUT\"");
    for (const char* extra : {"", " --count-frames"}) {
        SCOPED_TRACE(extra);
        const CliRun r = cli(dir(), "-r " + q(ref()) + " -d " + q(joined) + extra);
        EXPECT_EQ(r.rc, 1) << r.out;
        EXPECT_EQ(lines(r.out), 1) << r.out;
        EXPECT_NE(r.out.find("frame 12 is 48x48 yuv420p, the stream 176x144 yuv420p"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("cut short"), std::string::npos) << r.out;
    }
}

// SIGINT or SIGTERM while scoring: the existing output file is kept and no
// .vmafpp-XXXXXX temporary stays beside it.
TEST(CliSignals, LeaveNoTemporaryFile) {
    const fs::path folder = dir() / "signals";
    fs::remove_all(folder);
    fs::create_directories(folder);
    const fs::path out = folder / "out.json";
    std::ofstream(out) << "old results\n";
    const fs::path fifo = folder / "ff";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string reference = ref().string();  // made before fork(): the child only execs
    for (int sig : {SIGINT, SIGTERM}) {
        SCOPED_TRACE(sig);
        // The distorted side is a fifo nobody writes to yet: the CLI has made
        // its temporary file and waits in open(2), a running CLI.
        const pid_t pid = ::fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            // A shell that starts the tests in the background ignores SIGINT
            // for them, and an ignored signal stays ignored across exec: the
            // CLI must get it as a user's Ctrl-C does.
            ::signal(sig, SIG_DFL);
            ::execl(kCli.c_str(), kCli.c_str(), "-q", "-r", reference.c_str(), "-d", fifo.c_str(), "-o",
                    out.c_str(), "--json", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        auto temporaries = [&] {
            int n = 0;
            for (const auto& e : fs::directory_iterator(folder))
                n += e.path().filename().string().rfind(".vmafpp-", 0) == 0;
            return n;
        };
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (temporaries() == 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        ASSERT_EQ(temporaries(), 1) << "the CLI made no temporary file";
        ASSERT_EQ(::kill(pid, sig), 0);
        int status = 0;
        ASSERT_EQ(::waitpid(pid, &status, 0), pid);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
        EXPECT_EQ(temporaries(), 0);
        std::ifstream in(out);
        std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(kept, "old results\n");
    }
}

}  // namespace
}  // namespace vmafpp
