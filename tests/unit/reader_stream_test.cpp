// Streaming: pipes and standard input, long clips with a reused Picture,
// buffer refills at every offset, and the odd-size 4:2:0 Y4M convention
// checked on the corpus pair p20.
#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <thread>
#include <unistd.h>

#include "io/byte_source.hpp"
#include "io/open_source.hpp"
#include "support/corpus.hpp"
#include "support/synthetic_video.hpp"
#include "vmafpp/reader.hpp"

namespace vmafpp {
namespace {

using test::Geometry;

// Feeds `bytes` into a pipe from a thread, in chunks of an odd size so the
// reader sees partial reads. The reader side is read_fd().
class PipeFeeder {
public:
    template <class Produce>
    explicit PipeFeeder(Produce produce) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
        read_fd_ = fds[0];
        const int w = fds[1];
        thread_ = std::thread([w, produce] {
            std::string chunk;
            for (std::size_t i = 0; produce(i, chunk); ++i) write_all(w, chunk);
            ::close(w);
        });
    }
    ~PipeFeeder() {
        if (read_fd_ >= 0) ::close(read_fd_);
        thread_.join();
    }
    int read_fd() const { return read_fd_; }
    std::string path() const { return "/dev/fd/" + std::to_string(read_fd_); }

private:
    static void write_all(int fd, const std::string& s) {
        constexpr std::size_t kChunk = 4099;
        for (std::size_t off = 0; off < s.size();) {
            const ssize_t k = ::write(fd, s.data() + off, std::min(kChunk, s.size() - off));
            if (k <= 0) return;  // reader gone (a failed test)
            off += std::size_t(k);
        }
    }
    int read_fd_ = -1;
    std::thread thread_;
};

// A long clip through a pipe: every frame read, and after the first frame the
// picture's planes are never reallocated (memory does not grow with length).
TEST(ReaderStream, LongY4mClipThroughAPipeReusesThePicture) {
    const Geometry g{64, 36, PixelFormat::yuv420, 8};
    constexpr int kFrames = 5000;
    constexpr int kDistinct = 8;
    std::vector<std::string> payloads;
    for (int f = 0; f < kDistinct; ++f) payloads.push_back("FRAME\n" + test::frame_payload(g, f, true));
    PipeFeeder feeder([&](std::size_t i, std::string& out) {
        if (i > kFrames) return false;
        out = i == 0 ? test::y4m_header(g, "C420jpeg") : payloads[(i - 1) % kDistinct];
        return true;
    });
    auto r = open_y4m(feeder.path());
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    const std::uint8_t* planes[3] = {pic.planes[0].data(), pic.planes[1].data(), pic.planes[2].data()};
    int frames = 1;
    while (r->read(pic)) {
        if (frames % 97 == 0) {
            ASSERT_TRUE(test::picture_matches(pic, g, frames % kDistinct));
        }
        for (int p = 0; p < 3; ++p) ASSERT_EQ(pic.planes[p].data(), planes[p]) << frames;
        ++frames;
    }
    EXPECT_EQ(frames, kFrames);
}

// Through a pipe the kernel hands out whatever the writer has written, so
// reads end mid-row; a small buffer sends the planes through readv.
class PipeBuffer : public ::testing::TestWithParam<std::size_t> {};

TEST_P(PipeBuffer, RawEndsWithTheTruncationError) {
    const Geometry g{333, 187, PixelFormat::yuv420, 10};
    const std::string frame = test::frame_payload(g, 1, false);
    PipeFeeder feeder([&](std::size_t i, std::string& out) {
        if (i > 40) return false;
        out = i < 40 ? frame : frame.substr(0, 5);
        return true;
    });
    const std::string path = feeder.path();
    auto r = io::open_raw_source(std::make_unique<io::ByteSource>(path, GetParam()),
                                 RawFormat{g.width, g.height, g.bpc, g.format});
    Picture pic;
    for (int f = 0; f < 40; ++f) {
        ASSERT_TRUE(r->read(pic));
        ASSERT_TRUE(test::picture_matches(pic, g, 1)) << f;
    }
    EXPECT_TRUE(test::throws_error([&] { r->read(pic); }, path, "frame 40 is truncated: the file ends after 5 of"));
}

INSTANTIATE_TEST_SUITE_P(Sizes, PipeBuffer, ::testing::Values(io::ByteSource::kDefaultBufferSize, 16, 1000));

// "-" reads file descriptor 0; the test puts a pipe there for its duration.
class StdinRedirect {
public:
    explicit StdinRedirect(int fd) : saved_(::dup(STDIN_FILENO)) { ::dup2(fd, STDIN_FILENO); }
    ~StdinRedirect() {
        ::dup2(saved_, STDIN_FILENO);
        ::close(saved_);
    }

private:
    int saved_;
};

TEST(ReaderStream, Y4mFromStandardInput) {
    const Geometry g{5, 3, PixelFormat::yuv444, 12};
    const std::string bytes = test::y4m_file(g, 4);
    PipeFeeder feeder([&](std::size_t i, std::string& out) {
        out = bytes;
        return i == 0;
    });
    StdinRedirect redirect(feeder.read_fd());
    auto r = open_y4m("-");
    Picture pic;
    for (int f = 0; f < 4; ++f) {
        ASSERT_TRUE(r->read(pic));
        EXPECT_TRUE(test::picture_matches(pic, g, f));
    }
    EXPECT_FALSE(r->read(pic));
}

TEST(ReaderStream, RawFromStandardInputNamesItInErrors) {
    const Geometry g{3, 3, PixelFormat::yuv420, 8};
    const std::string bytes = test::raw_file(g, 2) + "x";
    PipeFeeder feeder([&](std::size_t i, std::string& out) {
        out = bytes;
        return i == 0;
    });
    StdinRedirect redirect(feeder.read_fd());
    auto r = open_raw_yuv("-", RawFormat{g.width, g.height, g.bpc, g.format});
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::picture_matches(pic, g, 1));
    EXPECT_TRUE(test::throws_error([&] { r->read(pic); }, "-: frame 2", "is truncated"));
}

// The same bytes through a file with buffers of every awkward size (a row or
// a FRAME line straddling refills, the readv path for large remainders, more
// than 1024 rows per plane) give the same pictures as from memory.
class BufferSize : public ::testing::TestWithParam<std::size_t> {};

TEST_P(BufferSize, FileReadsEqualMemoryReads) {
    for (const Geometry g : {Geometry{333, 187, PixelFormat::yuv420, 10}, Geometry{1, 1500, PixelFormat::yuv444, 8},
                             Geometry{67, 5, PixelFormat::yuv422, 8}}) {
        const std::string bytes = test::y4m_file(g, 3);
        const auto path = test::write_file("buffer_" + std::to_string(g.width) + ".y4m", bytes);
        auto from_file = io::open_y4m_source(std::make_unique<io::ByteSource>(path, GetParam()));
        auto from_memory =
            io::open_y4m_source(std::make_unique<io::ByteSource>("mem", bytes.data(), bytes.size()));
        Picture a, b;
        for (int f = 0; f < 3; ++f) {
            ASSERT_TRUE(from_file->read(a));
            ASSERT_TRUE(from_memory->read(b));
            EXPECT_TRUE(test::picture_matches(a, g, f)) << g.width;
            EXPECT_TRUE(test::picture_matches(b, g, f)) << g.width;
        }
        EXPECT_FALSE(from_file->read(a));
        EXPECT_FALSE(from_memory->read(b));
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, BufferSize, ::testing::Values(1, 2, 3, 7, 64, 667, 4096, 65536, 1 << 20));

// ---- odd-size 4:2:0 Y4M ----
//
// Decision: a Picture keeps floor-sized chroma like libvmaf's, so the Y4M
// reader drops the last chroma column and row of an odd-sized 4:2:0 file.
// libvmaf's golden output for p20 was made from raw YUV with exactly that
// crop; reading p20's Y4M must give the pictures its raw form gives.

// The raw form of a Y4M clip with each chroma plane cropped to floor size,
// made here from the file's bytes (independently of the reader).
std::string crop_to_floor_raw(const std::string& y4m, int w, int h) {
    std::size_t pos = y4m.find('\n') + 1;
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    std::string raw;
    while (pos < y4m.size()) {
        const std::size_t eol = y4m.find('\n', pos);
        EXPECT_EQ(y4m.compare(pos, 5, "FRAME"), 0);
        pos = eol + 1;
        raw.append(y4m, pos, std::size_t(w) * std::size_t(h));
        pos += std::size_t(w) * std::size_t(h);
        for (int p = 0; p < 2; ++p) {
            for (int y = 0; y < h / 2; ++y) raw.append(y4m, pos + std::size_t(y * cw), std::size_t(w / 2));
            pos += std::size_t(cw * ch);
        }
    }
    return raw;
}

bool same_samples(const Picture& a, const Picture& b) {
    if (a.width != b.width || a.height != b.height || a.format != b.format || a.bpc != b.bpc) return false;
    for (int p = 0; p < a.plane_count(); ++p) {
        const Plane& pa = a.planes[p];
        const Plane& pb = b.planes[p];
        if (pa.width() != pb.width() || pa.height() != pb.height()) return false;
        for (int y = 0; y < pa.height(); ++y)
            if (std::memcmp(pa.row<std::uint8_t>(y), pb.row<std::uint8_t>(y),
                            std::size_t(pa.width()) * std::size_t(pa.bytes_per_sample())) != 0)
                return false;
    }
    return true;
}

TEST(ReaderOddSize, P20Y4mEqualsItsFloorCroppedRawForm) {
    const std::string pair = "p20_coffee_333x187_420p8_x264crf30_odd";
    const auto& m = test::manifest_entry(pair);
    const int w = m["width"], h = m["height"];
    ASSERT_EQ(w % 2, 1);
    ASSERT_EQ(h % 2, 1);
    for (const char* which : {"ref", "dis"}) {
        const auto y4m_path = test::clip(pair, which);
        std::ifstream in(y4m_path, std::ios::binary);
        const std::string y4m((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string raw = crop_to_floor_raw(y4m, w, h);
        ASSERT_EQ(raw.size(), std::size_t(m["frames"].get<int>()) * std::size_t(w * h + 2 * (w / 2) * (h / 2)));
        const auto raw_path = test::write_file(pair + "_" + which + ".floor.yuv", raw);

        auto from_y4m = open_y4m(y4m_path.string());
        auto from_raw = open_raw_yuv(raw_path, RawFormat{w, h, 8, PixelFormat::yuv420});
        Picture a, b;
        int frames = 0;
        while (from_y4m->read(a)) {
            ASSERT_TRUE(from_raw->read(b)) << which << " frame " << frames;
            EXPECT_EQ(a.planes[1].width(), w / 2);
            EXPECT_EQ(a.planes[1].height(), h / 2);
            EXPECT_TRUE(same_samples(a, b)) << which << " frame " << frames;
            ++frames;
        }
        EXPECT_FALSE(from_raw->read(b));
        EXPECT_EQ(frames, m["frames"].get<int>());
        std::filesystem::remove(raw_path);
    }
}

}  // namespace
}  // namespace vmafpp
