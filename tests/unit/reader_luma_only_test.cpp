// Luma-only reading (VideoReader::set_luma_only): chroma bytes are skipped
// (seeked over in a regular file, read through from a pipe) with the framing
// errors of a full read, only extractors that declare chroma get it, and
// score() tells the readers. The same for a reference no extractor reads
// (VideoReader::set_samples_unread, FeatureInfo::reads_reference).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/byte_source.hpp"
#include "io/open_source.hpp"
#include "support/feature_run.hpp"
#include "support/synthetic_video.hpp"
#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {
namespace {

using test::Geometry;

// Luma equals the generated frame and the picture has no chroma storage.
::testing::AssertionResult luma_only_matches(const Picture& pic, const Geometry& g, int frame) {
    if (pic.width != g.width || pic.height != g.height || pic.bpc != g.bpc ||
        pic.format != g.format)
        return ::testing::AssertionFailure() << "geometry differs";
    if (pic.has_chroma()) return ::testing::AssertionFailure() << "chroma planes were allocated";
    const Plane& pl = pic.planes[0];
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            const unsigned got =
                g.bpc > 8 ? pl.row<std::uint16_t>(y)[x] : pl.row<std::uint8_t>(y)[x];
            if (got != test::sample_value(g, frame, 0, x, y))
                return ::testing::AssertionFailure()
                       << "frame " << frame << " luma (" << x << "," << y << ") differs";
        }
    return ::testing::AssertionSuccess();
}

// The message a reader throws for its next frame, or "" when it throws none.
std::string next_frame_error(VideoReader& r, Picture& pic) {
    try {
        r.read(pic);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

enum class Source { file, pipe, memory };

// Writes `bytes` into a pipe from a thread (partial writes of an odd size).
class PipeWriter {
public:
    explicit PipeWriter(std::string bytes) {
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
        read_fd_ = fds[0];
        const int w = fds[1];
        thread_ = std::thread([w, b = std::move(bytes)] {
            for (std::size_t off = 0; off < b.size();) {
                const ssize_t k =
                    ::write(w, b.data() + off, std::min<std::size_t>(4099, b.size() - off));
                if (k <= 0) break;
                off += std::size_t(k);
            }
            ::close(w);
        });
    }
    ~PipeWriter() {
        ::close(read_fd_);
        thread_.join();
    }
    std::string path() const { return "/dev/fd/" + std::to_string(read_fd_); }

private:
    int read_fd_ = -1;
    std::thread thread_;
};

struct OpenedSource {
    std::unique_ptr<PipeWriter> pipe;
    std::string bytes;  // a memory source's storage
    std::unique_ptr<io::ByteSource> src;
};

OpenedSource open_source(Source kind, const std::string& name, const std::string& bytes,
                         std::size_t buffer) {
    OpenedSource o;
    if (kind == Source::memory) {
        o.bytes = bytes;
        o.src = std::make_unique<io::ByteSource>(name, o.bytes.data(), o.bytes.size());
    } else if (kind == Source::pipe) {
        o.pipe = std::make_unique<PipeWriter>(bytes);
        o.src = std::make_unique<io::ByteSource>(o.pipe->path(), buffer);
    } else {
        o.src = std::make_unique<io::ByteSource>(test::write_file(name, bytes), buffer);
    }
    return o;
}

std::unique_ptr<VideoReader> open_reader(bool y4m, const Geometry& g, OpenedSource& o) {
    if (y4m) return io::open_y4m_source(std::move(o.src));
    return io::open_raw_source(std::move(o.src), RawFormat{g.width, g.height, g.bpc, g.format});
}

struct CutCase {
    bool y4m;
    Source source;
    std::size_t buffer;
};

class ChromaCut : public ::testing::TestWithParam<CutCase> {};

// A last frame cut anywhere in its chroma (or in its luma) gives exactly the
// error a full read gives, with the same byte count; the frames before it
// read their luma.
TEST_P(ChromaCut, LumaOnlyReportsTheSameTruncation) {
    const auto [y4m, source, buffer] = GetParam();
    for (const Geometry g :
         {Geometry{333, 187, PixelFormat::yuv420, 8}, Geometry{1920, 40, PixelFormat::yuv420, 10},
          Geometry{300, 200, PixelFormat::yuv444, 8}}) {
        const std::string whole = y4m ? test::y4m_file(g, 3) : test::raw_file(g, 3);
        const std::size_t bps = g.bpc > 8 ? 2 : 1;
        const std::size_t luma = std::size_t(g.width) * std::size_t(g.height) * bps;
        const std::size_t payload = test::frame_payload(g, 0, y4m).size();
        const std::size_t chroma = payload - luma;
        for (const std::size_t left : {std::size_t{1}, chroma / 4, chroma / 2, chroma / 2 + 1,
                                       chroma - 1, chroma + luma / 2}) {
            const std::string bytes = whole.substr(0, whole.size() - left);
            const std::string name = "luma_only_cut_" + std::to_string(g.width) + "_" +
                                     std::to_string(left) + (y4m ? ".y4m" : ".yuv");
            std::string messages[2];
            for (const bool luma_only : {false, true}) {
                OpenedSource o = open_source(source, name, bytes, buffer);
                const std::string path = o.src->path();
                auto r = open_reader(y4m, g, o);
                r->set_luma_only(luma_only);
                Picture pic;
                for (int f = 0; f < 2; ++f) {
                    ASSERT_TRUE(r->read(pic)) << f;
                    if (luma_only)
                        ASSERT_TRUE(luma_only_matches(pic, g, f));
                    else
                        ASSERT_TRUE(test::picture_matches(pic, g, f));
                }
                messages[luma_only] = next_frame_error(*r, pic);
                EXPECT_NE(
                    messages[luma_only].find(path + ": frame 2 is truncated: the file ends after " +
                                             std::to_string(payload - left) + " of its " +
                                             std::to_string(payload) + " bytes"),
                    std::string::npos)
                    << messages[luma_only];
            }
            EXPECT_EQ(messages[0], messages[1]) << g.width << " cut " << left;
        }
    }
}

std::string cut_name(const ::testing::TestParamInfo<CutCase>& info) {
    const char* src = info.param.source == Source::file   ? "File"
                      : info.param.source == Source::pipe ? "Pipe"
                                                          : "Memory";
    return std::string(info.param.y4m ? "Y4m" : "Raw") + src + std::to_string(info.param.buffer);
}

INSTANTIATE_TEST_SUITE_P(
    All, ChromaCut,
    ::testing::Values(CutCase{true, Source::file, io::ByteSource::kDefaultBufferSize},
                      CutCase{false, Source::file, io::ByteSource::kDefaultBufferSize},
                      CutCase{true, Source::file, 1000}, CutCase{false, Source::file, 7},
                      CutCase{true, Source::pipe, io::ByteSource::kDefaultBufferSize},
                      CutCase{false, Source::pipe, 1000}, CutCase{true, Source::memory, 0},
                      CutCase{false, Source::memory, 0}),
    cut_name);

// Switching back to full reads allocates and fills chroma again.
TEST(LumaOnly, SwitchingBackReadsChromaAgain) {
    const Geometry g{333, 187, PixelFormat::yuv422, 12};
    auto r = open_y4m(test::write_file("luma_only_switch.y4m", test::y4m_file(g, 5)));
    Picture pic;
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::picture_matches(pic, g, 0));
    r->set_luma_only(true);
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(luma_only_matches(pic, g, 1));
    EXPECT_EQ(pic.planes[1].width(), 0);
    r->set_luma_only(false);
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(test::picture_matches(pic, g, 2));
    r->set_luma_only(true);
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(luma_only_matches(pic, g, 3));
    // Luma-only pictures are reused like full ones: no allocation per frame.
    const std::uint8_t* luma = pic.planes[0].data();
    ASSERT_TRUE(r->read(pic));
    EXPECT_TRUE(luma_only_matches(pic, g, 4));
    EXPECT_EQ(pic.planes[0].data(), luma);
    EXPECT_FALSE(r->read(pic));
}

// The bit-depth check covers the planes read: out-of-range chroma is an error
// only when chroma is read.
TEST(LumaOnly, SampleRangeCheckCoversThePlanesRead) {
    const Geometry g{64, 32, PixelFormat::yuv420, 10};
    std::string bytes = test::raw_file(g, 1);
    bytes[bytes.size() - 1] = '\x80';  // the last V sample's high byte
    const auto path = test::write_file("luma_only_range.yuv", bytes);
    const RawFormat f{g.width, g.height, g.bpc, g.format};
    Picture pic;
    auto full = open_raw_yuv(path, f);
    EXPECT_TRUE(test::throws_error([&] { full->read(pic); }, path, "plane V has samples above"));
    auto luma = open_raw_yuv(path, f);
    luma->set_luma_only(true);
    EXPECT_TRUE(luma->read(pic));
    EXPECT_TRUE(luma_only_matches(pic, g, 0));
}

// "-" redirected from a regular file seeks over chroma like a named file.
TEST(LumaOnly, StandardInputFromARegularFile) {
    const Geometry g{400, 300, PixelFormat::yuv420, 8};
    const std::string bytes = test::raw_file(g, 3);
    const auto path = test::write_file("luma_only_stdin.yuv", bytes.substr(0, bytes.size() - 7));
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    const int saved = ::dup(STDIN_FILENO);
    ::dup2(fd, STDIN_FILENO);
    ::close(fd);
    auto r = open_raw_yuv("-", RawFormat{g.width, g.height, g.bpc, g.format});
    r->set_luma_only(true);
    Picture pic;
    for (int f = 0; f < 2; ++f) {
        EXPECT_TRUE(r->read(pic));
        EXPECT_TRUE(luma_only_matches(pic, g, f));
    }
    const std::size_t frame = bytes.size() / 3;
    EXPECT_TRUE(test::throws_error([&] { r->read(pic); }, "-: frame 2",
                                   "is truncated: the file ends after " +
                                       std::to_string(frame - 7) + " of its " +
                                       std::to_string(frame) + " bytes"));
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
}

// ByteSource::skip on a regular file: exact counts across the buffer, the
// seek and the end of the file; reads continue at the right byte.
TEST(ByteSourceSkip, SeeksExactlyAndStopsAtTheEnd) {
    std::string bytes(300000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = char((i * 7 + i / 251) & 0xff);
    const auto path = test::write_file("skip_seek.bin", bytes);
    io::ByteSource src(path, 4096);
    char got[10];
    ASSERT_EQ(src.read(got, 10), 10u);  // leaves 4086 bytes buffered
    EXPECT_EQ(src.skip(100000), 100000u);
    ASSERT_EQ(src.read(got, 10), 10u);
    EXPECT_EQ(std::string(got, 10), bytes.substr(100010, 10));
    EXPECT_EQ(src.skip(1000000), bytes.size() - 100020);
    EXPECT_EQ(src.read(got, 10), 0u);
    EXPECT_EQ(src.skip(5000), 0u);
    EXPECT_EQ(src.peek(), -1);
}

// Every registered extractor, with default options and each boolean option
// flipped: one whose reads_chroma says "luma only" writes the same values
// whatever the chroma planes hold; one that says it reads chroma writes
// different values for different chroma (the declaration is not stale).
// 320x320: every extractor scores it with default options (float_ms_ssim
// needs 176 in each direction and cambi 216 in one, as in libvmaf) and speed_chroma's 160x160
// chroma planes decimate to 10x10, enough samples for a regular 25x25
// covariance (with fewer, SpEED scores 0 whatever the planes hold).
// An extractor's default options, then each boolean option flipped alone:
// the variants a declaration test runs.
std::vector<OptionValues> option_variants(const FeatureInfo& info) {
    std::vector<OptionValues> variants{OptionValues(info.options)};
    for (const OptionSpec& s : info.options)
        if (s.type == OptionType::boolean) {
            OptionValues o(info.options);
            o.set(s.name, o.flag(s.name) ? "false" : "true");
            variants.push_back(o);
        }
    return variants;
}

TEST(FeatureRegistry, ChromaDeclarations) {
    const FrameGeometry geo{320, 320, 8, PixelFormat::yuv420};
    const int frames = 4;
    auto make_frames = [&](unsigned chroma_seed) {
        std::vector<Picture> out;
        std::mt19937 luma_rng(7), chroma_rng(chroma_seed);
        for (int f = 0; f < frames; ++f) {
            Picture p(geo.width, geo.height, geo.bpc, geo.format);
            for (int k = 0; k < 3; ++k) {
                Plane& pl = p.planes[k];
                std::mt19937& rng = k == 0 ? luma_rng : chroma_rng;
                for (int y = 0; y < pl.height(); ++y)
                    for (int x = 0; x < pl.width(); ++x)
                        pl.row<std::uint8_t>(y)[x] = std::uint8_t(rng() & 0xff);
            }
            out.push_back(std::move(p));
        }
        return out;
    };
    const std::vector<Picture> ref_a = make_frames(1), dis_a = make_frames(2);
    const std::vector<Picture> ref_b = make_frames(3), dis_b = make_frames(4);
    auto run = [&](const FeatureInfo& info, const OptionValues& o, const std::vector<Picture>& r,
                   const std::vector<Picture>& d) {
        auto fex = info.create(o, geo);
        test::RecordingSink sink;
        for (int f = 0; f < frames; ++f) fex->extract(r[f], d[f], unsigned(f), sink);
        fex->flush(sink);
        return sink.values;
    };
    auto same = [](const auto& a, const auto& b) {
        if (a.size() != b.size()) return false;
        for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
            if (ia->first != ib->first || ia->second.size() != ib->second.size()) return false;
            for (auto va = ia->second.begin(), vb = ib->second.begin(); va != ia->second.end();
                 ++va, ++vb)
                if (va->first != vb->first ||
                    std::memcmp(&va->second, &vb->second, sizeof(double)) != 0)
                    return false;
        }
        return true;
    };
    int readers = 0;
    for (const FeatureInfo& info : feature_registry()) {
        const std::vector<OptionValues> variants = option_variants(info);
        for (std::size_t v = 0; v < variants.size(); ++v) {
            const OptionValues& o = variants[v];
            const bool chroma = info.reads_chroma && info.reads_chroma(o);
            SCOPED_TRACE(info.name + " variant " + std::to_string(v) +
                         (chroma ? " (reads chroma)" : " (luma only)"));
            std::map<std::string, std::map<unsigned, double>> a, b;
            try {
                a = run(info, o, ref_a, dis_a);
            } catch (const Error& e) {
                ASSERT_NE(v, 0u) << "default options must work at 320x320: " << e.what();
                continue;  // an option this geometry does not support
            }
            b = run(info, o, ref_b, dis_b);
            ASSERT_FALSE(a.empty());
            if (chroma) {
                ++readers;
                EXPECT_FALSE(same(a, b)) << "declared to read chroma but ignores it";
            } else {
                EXPECT_TRUE(same(a, b)) << "declared luma only but its values depend on chroma";
            }
        }
    }
    EXPECT_GE(readers, 2);  // psnr (enable_chroma) and float_motion (motion_add_uv)
}

// Every extractor that declares, for some options, not to read the
// reference gives the same values with a reference picture that has no
// planes (what score() then hands it) as with a real one; and there is one
// (cambi without full_ref).
TEST(FeatureRegistry, ReferenceDeclarations) {
    const FrameGeometry geo{320, 320, 8, PixelFormat::yuv420};
    const int frames = 3;
    std::vector<Picture> ref, dis, unread;
    std::mt19937 rng(11);
    for (int f = 0; f < frames; ++f) {
        for (auto* out : {&ref, &dis}) {
            Picture p(geo.width, geo.height, geo.bpc, geo.format);
            for (Plane& pl : p.planes)
                for (int y = 0; y < pl.height(); ++y)
                    for (int x = 0; x < pl.width(); ++x)
                        pl.row<std::uint8_t>(y)[x] = std::uint8_t((x + y + f) * 3 + (rng() & 7));
            out->push_back(std::move(p));
        }
        Picture none;
        none.width = geo.width;
        none.height = geo.height;
        none.bpc = geo.bpc;
        none.format = geo.format;
        unread.push_back(std::move(none));
    }
    auto run = [&](const FeatureInfo& info, const OptionValues& o, const std::vector<Picture>& r) {
        auto fex = info.create(o, geo);
        test::RecordingSink sink;
        for (int f = 0; f < frames; ++f) fex->extract(r[f], dis[f], unsigned(f), sink);
        fex->flush(sink);
        return sink.values;
    };
    int unread_extractors = 0;
    for (const FeatureInfo& info : feature_registry()) {
        if (!info.reads_reference) continue;
        const std::vector<OptionValues> variants = option_variants(info);
        for (std::size_t v = 0; v < variants.size(); ++v) {
            if (info.reads_reference(variants[v])) continue;
            SCOPED_TRACE(info.name + " variant " + std::to_string(v));
            ++unread_extractors;
            const auto with = run(info, variants[v], ref);
            const auto without = run(info, variants[v], unread);
            ASSERT_FALSE(with.empty());
            EXPECT_EQ(with, without) << "declared not to read the reference but its values depend on it";
        }
    }
    EXPECT_GE(unread_extractors, 1);  // cambi
}

// A reader that records what score() asked of it.
class RecordingReader final : public VideoReader {
public:
    explicit RecordingReader(std::unique_ptr<VideoReader> inner) : inner_(std::move(inner)) {}
    const VideoInfo& info() const override { return inner_->info(); }
    bool read(Picture& pic) override { return inner_->read(pic); }
    void set_luma_only(bool luma_only) override {
        luma_only_ = luma_only;
        inner_->set_luma_only(luma_only);
    }
    void set_samples_unread(bool unread) override {
        unread_ = unread;
        inner_->set_samples_unread(unread);
    }
    bool luma_only_ = false;
    bool unread_ = false;

private:
    std::unique_ptr<VideoReader> inner_;
};

// score() reads chroma exactly when an extractor with its options reads it,
// and the chroma values match a run that reads everything.
TEST(LumaOnly, ScoreReadsChromaOnlyForExtractorsThatNeedIt) {
    const Geometry g{64, 48, PixelFormat::yuv420, 8};
    const auto ref_path = test::write_file("luma_only_score_ref.y4m", test::y4m_file(g, 3));
    std::string dis_bytes = test::y4m_file(g, 3);
    for (std::size_t i = dis_bytes.size() - 100; i < dis_bytes.size(); ++i) dis_bytes[i] ^= 0x11;
    const auto dis_path = test::write_file("luma_only_score_dis.y4m", dis_bytes);
    struct Case {
        std::vector<std::string> features;
        bool model;
        bool chroma;
    };
    const std::vector<Case> cases{
        {{}, true, false},
        {{"psnr"}, false, true},
        {{"psnr=enable_chroma=false"}, false, false},
        {{"float_motion"}, true, false},
        {{"float_motion=motion_add_uv=true"}, false, true},
        {{"float_psnr", "float_moment"}, false, false},
    };
    for (const Case& c : cases) {
        RecordingReader ref(open_video(ref_path)), dis(open_video(dis_path));
        ScoreConfig cfg;
        cfg.no_prediction = !c.model;
        cfg.features = c.features;
        const ScoreRun run = score(ref, dis, cfg);
        const std::string what = c.features.empty() ? "model" : c.features[0];
        EXPECT_EQ(ref.luma_only_, !c.chroma) << what;
        EXPECT_EQ(dis.luma_only_, !c.chroma) << what;
        if (what == "psnr") {
            // The changed bytes are frame 2's last V samples.
            ASSERT_TRUE(run.values.value("psnr_cr", 2) && run.values.value("psnr_cr", 1));
            EXPECT_LT(*run.values.value("psnr_cr", 2), *run.values.value("psnr_cr", 1));
            EXPECT_EQ(*run.values.value("psnr_cb", 2), *run.values.value("psnr_cb", 1));
        }
    }
}

// score() leaves the reference's samples unread exactly when no extractor
// reads the reference (cambi alone), and cambi's values are those of a run
// that reads it. Proof that nothing reads them: a 10-bit reference with
// samples above 10 bits, an input error wherever they are read, scores.
TEST(ReferenceUnread, ScoreReadsTheReferenceOnlyWhenAnExtractorNeedsIt) {
    const Geometry g{320, 240, PixelFormat::yuv420, 10};
    const std::string good = test::y4m_file(g, 3);
    std::string bad = good;
    for (std::size_t i = bad.size() - 64; i < bad.size(); i += 2) bad[i + 1] = '\x7f';
    for (std::size_t i = bad.find("FRAME\n") + 6; i < bad.find("FRAME\n") + 200; i += 2)
        bad[i + 1] = '\x40';  // frame 0's first luma samples: 0x40xx > 1023
    const auto good_path = test::write_file("ref_unread_good.y4m", good);
    const auto bad_path = test::write_file("ref_unread_bad.y4m", bad);
    const auto dis_path = test::write_file("ref_unread_dis.y4m", test::y4m_file(g, 3, test::y4m_tag(g)));
    struct Case {
        std::vector<std::string> features;
        bool reference;
    };
    const std::vector<Case> cases{
        {{"cambi"}, false},
        {{"cambi=full_ref=true"}, true},
        {{"cambi", "psnr"}, true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.features.size() == 1 ? c.features[0] : "cambi and psnr");
        ScoreConfig cfg;
        cfg.no_prediction = true;
        cfg.features = c.features;
        RecordingReader ref(open_video(good_path)), dis(open_video(dis_path));
        const ScoreRun run = score(ref, dis, cfg);
        EXPECT_EQ(ref.unread_, !c.reference);
        EXPECT_FALSE(dis.unread_);
        RecordingReader bad_ref(open_video(bad_path)), dis2(open_video(dis_path));
        if (c.reference) {
            EXPECT_TRUE(test::throws_error([&] { (void)score(bad_ref, dis2, cfg); }, bad_path,
                                           "plane Y has samples above"));
            continue;
        }
        const ScoreRun unread = score(bad_ref, dis2, cfg);
        ASSERT_EQ(unread.frames, 3u);
        for (unsigned f = 0; f < 3; ++f) {
            ASSERT_TRUE(run.values.value("cambi", f));
            EXPECT_EQ(*run.values.value("cambi", f), *unread.values.value("cambi", f)) << f;
        }
    }
}

// An unread reference still has its framing checked: a last frame cut short
// is the error a full read gives; the pictures have the geometry, no planes.
TEST(ReferenceUnread, FramingErrorsAndGeometryStay) {
    const Geometry g{64, 32, PixelFormat::yuv420, 8};
    std::string bytes = test::y4m_file(g, 3);
    bytes.resize(bytes.size() - 10);
    const auto path = test::write_file("ref_unread_cut.y4m", bytes);
    auto full = open_y4m(path), unread = open_y4m(path);
    unread->set_samples_unread(true);
    Picture a, b;
    for (int f = 0; f < 2; ++f) {
        ASSERT_TRUE(full->read(a));
        ASSERT_TRUE(unread->read(b));
        EXPECT_EQ(b.width, g.width);
        EXPECT_EQ(b.height, g.height);
        EXPECT_EQ(b.planes[0].data(), nullptr);
    }
    const std::string want = next_frame_error(*full, a);
    ASSERT_FALSE(want.empty());
    EXPECT_EQ(next_frame_error(*unread, b), want);
}

}  // namespace
}  // namespace vmafpp
