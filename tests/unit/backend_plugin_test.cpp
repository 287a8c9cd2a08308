// A backend is a plug-in: this file registers one of its own ("fake", whose
// twins are the CUDA twins' per-thread arithmetic run over the grid on the
// host, tests/support/cuda_grid_emulation.hpp) with a frame store that keeps
// host copies of the lumas, and scores a corpus pair through it with
// --device_only's ScoreConfig. Nothing outside this file names the backend:
// the registry, the session and the extractors find it by its registration,
// and every value of the pair's default golden must come out bit for bit.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "device/backend.hpp"
#include "support/backend_run.hpp"
#include "support/corpus.hpp"
#include "support/cuda_grid_emulation.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/reader.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {
namespace {

// Host copies of the last `slots` frames' lumas, by frame number.
class FakeFrameStore final : public device::FrameStore {
public:
    explicit FakeFrameStore(unsigned slots) : slots_(slots) {}
    void put(unsigned frame, const Picture& ref, const Picture& dis) override {
        std::lock_guard lock(mutex_);
        frames_.insert_or_assign(frame, std::make_shared<const std::pair<Plane, Plane>>(ref.luma(),
                                                                              dis.luma()));
        while (frames_.size() > slots_) frames_.erase(frames_.begin());
        ++puts;
    }
    // Frame `frame`'s pictures; an internal error when no longer kept.
    std::shared_ptr<const std::pair<Plane, Plane>> get(unsigned frame) const {
        std::lock_guard lock(mutex_);
        const auto it = frames_.find(frame);
        if (it == frames_.end()) throw Error("fake store: frame " + std::to_string(frame) + " gone");
        return it->second;
    }
    std::atomic<unsigned> puts{0};
    unsigned slots() const { return slots_; }

private:
    unsigned slots_;
    mutable std::mutex mutex_;
    std::map<unsigned, std::shared_ptr<const std::pair<Plane, Plane>>> frames_;
};

// How often each fake twin ran, so a run that silently stayed on the CPU
// kernels fails.
struct Counts {
    std::atomic<unsigned> motion{0}, vif{0}, adm{0}, stores{0};
};
Counts& counts() {
    static Counts c;
    return c;
}

FakeFrameStore& store_of(const Compute& c) { return static_cast<FakeFrameStore&>(*c.frames); }

class FakeMotion final : public motion::MotionTwin {
public:
    FakeMotion(const Compute& c, int w, int h, int bpc) : c_(c), twin_(w, h, bpc) {}
    std::uint64_t sad(const void* p, std::ptrdiff_t ps, const void* q, std::ptrdiff_t qs) override {
        ++counts().motion;
        return twin_.sad(p, ps, q, qs);
    }
    std::uint64_t sad_of_frames(unsigned prev, unsigned cur) override {
        const auto a = store_of(c_).get(prev), b = store_of(c_).get(cur);
        return sad(a->first.data(), a->first.stride(), b->first.data(), b->first.stride());
    }

private:
    Compute c_;
    devtest::EmulatedMotion twin_;
};

// A worker that is slow on one frame while the other workers go on: armed,
// the fake VIF twin holds frame 0 for up to 1.5 s, or until the reading
// thread has put more frames than the store keeps (frame 0 is then gone).
struct Stall {
    std::atomic<bool> armed{false};
    std::atomic<bool> overrun{false};  // the store moved past the held frame
};
Stall& stall() {
    static Stall s;
    return s;
}
void hold_frame_zero(const FakeFrameStore& store) {
    using namespace std::chrono;
    const auto until = steady_clock::now() + milliseconds(1500);
    while (steady_clock::now() < until && store.puts <= store.slots())
        std::this_thread::sleep_for(milliseconds(5));
    stall().overrun = store.puts > store.slots();
}

class FakeVif final : public vif::VifTwin {
public:
    FakeVif(const Compute& c, int w, int h, int bpc, std::optional<double> gain)
        : c_(c), twin_(w, h, bpc, gain) {}
    void run(const void* r, std::ptrdiff_t rs, const void* d, std::ptrdiff_t ds,
             bool skip_scale0) override {
        ++counts().vif;
        twin_.run(r, rs, d, ds, skip_scale0);
    }
    void run_frame(unsigned frame, bool skip_scale0) override {
        if (frame == 0 && stall().armed.exchange(false)) hold_frame_zero(store_of(c_));
        const auto f = store_of(c_).get(frame);
        run(f->first.data(), f->first.stride(), f->second.data(), f->second.stride(),
            skip_scale0);
    }
    const std::int32_t* sigma(int s) const override { return twin_.sigma(s); }
    bool sums(int s, vif::VifSums* out) const override { return twin_.sums(s, out); }

private:
    Compute c_;
    devtest::EmulatedVif twin_;
};

class FakeAdm final : public adm::AdmTwin {
public:
    FakeAdm(const Compute& c, int w, int h, int bpc, const adm::AdmDeviceParams* scales, double gain,
            bool skip_scale0, bool skip_aim)
        : c_(c), twin_(w, h, bpc, scales, gain, skip_scale0, skip_aim) {}
    void run(const void* r, std::ptrdiff_t rs, const void* d, std::ptrdiff_t ds) override {
        ++counts().adm;
        twin_.run(r, rs, d, ds);
    }
    void run_frame(unsigned frame) override {
        const auto f = store_of(c_).get(frame);
        run(f->first.data(), f->first.stride(), f->second.data(), f->second.stride());
    }
    const std::int64_t* rows(int s) const override { return twin_.rows(s); }
    void run_on_bands(int s, const std::int32_t* const r[3], const std::int32_t* const d[3]) override {
        twin_.run_on_bands(s, r, d);
    }

private:
    Compute c_;
    devtest::EmulatedAdm twin_;
};

device::BackendInfo fake_backend() {
    device::BackendInfo b(
        "fake", [] { return std::string("0: the host, pretending\n"); },
        [](unsigned, const FrameGeometry&, unsigned slots) {
            ++counts().stores;
            return std::make_shared<FakeFrameStore>(slots);
        });
    b.add_twin<motion::MotionTwin>([](const Compute& c, int w, int h, int bpc) {
        return std::make_unique<FakeMotion>(c, w, h, bpc);
    });
    b.add_twin<vif::VifTwin>([](const Compute& c, int w, int h, int bpc, std::optional<double> g) {
        return std::make_unique<FakeVif>(c, w, h, bpc, g);
    });
    b.add_twin<adm::AdmTwin>([](const Compute& c, int w, int h, int bpc,
                                const adm::AdmDeviceParams* p, double gain, bool skip0,
                                bool skip_aim) {
        return std::make_unique<FakeAdm>(c, w, h, bpc, p, gain, skip0, skip_aim);
    });
    return b;
}

// Registered once per process, the first time a test asks.
Backend fake() {
    static const Backend id = device::register_backend(fake_backend());
    return id;
}

TEST(BackendPlugin, ARegisteredBackendIsNamedLikeTheBuiltInOnes) {
    const Backend id = fake();
    EXPECT_STREQ(backend_name(id), "fake");
    EXPECT_EQ(parse_backend("fake"), id);
    EXPECT_EQ(describe_devices(id), "0: the host, pretending\n");
    bool listed = false;
    for (Backend b : built_backends()) listed = listed || b == id;
    EXPECT_TRUE(listed);
    EXPECT_THROW(device::register_backend(fake_backend()), Error);  // the name is taken
}

// The default golden of a corpus pair scored through the fake backend with
// --device_only (so adm, vif and motion must all have run on it) at 0 and 2
// worker threads: every per-frame and pooled value bit for bit.
TEST(BackendPlugin, AGoldenThroughARegisteredBackend) {
    // Registered here too: ctest runs each test in its own process, where
    // no earlier test has registered it before parse_backend looks it up.
    fake();
    const std::string pair = "p08_brick_176x144_420p8_bilinear2x";
    const nlohmann::json want = test::golden(pair, "default.json");
    const Backend id = fake();  // registered here when this test runs alone
    for (unsigned threads : {0u, 2u}) {
        const Counts& n = counts();
        const unsigned motion0 = n.motion, vif0 = n.vif, adm0 = n.adm, stores0 = n.stores;
        auto ref = open_video(test::clip(pair, "ref").string());
        auto dis = open_video(test::clip(pair, "dis").string());
        ScoreConfig cfg;
        cfg.compute.backend = parse_backend("fake");
        cfg.compute.device_only = true;
        cfg.threads = threads;
        const ScoreRun run = score(*ref, *dis, cfg);
        EXPECT_EQ(run.compute.backend, id);
        const nlohmann::json got = nlohmann::json::parse(
            render_results(run.results(), OutputFormat::json, Precision::max()));
        const std::string what = pair + " --backend fake --threads " + std::to_string(threads);
        EXPECT_GT(test::expect_same_json_values(got, want, what), 100) << what;
        EXPECT_EQ(n.stores - stores0, 1u) << what;
        EXPECT_EQ(n.vif - vif0, run.frames) << what;
        EXPECT_EQ(n.adm - adm0, run.frames) << what;
        EXPECT_GE(n.motion - motion0, run.frames - 1) << what;
    }
}

// Workers finish out of order: while one worker still scores frame 0 the
// other frees its slots, and the reading thread must not put so many later
// frames that the store drops frame 0 (Vulkan's and CUDA's stores would
// then refuse it, or on unified memory overwrite it while it is read). The
// held worker sees the store keep frame 0 and the run gives the golden.
TEST(BackendPlugin, AWorkerThatFallsBehindKeepsItsFrameInTheStore) {
    fake();
    const std::string pair = "p08_brick_176x144_420p8_bilinear2x";
    const nlohmann::json want = test::golden(pair, "default.json");
    auto ref = open_video(test::clip(pair, "ref").string());
    auto dis = open_video(test::clip(pair, "dis").string());
    ScoreConfig cfg;
    cfg.compute.backend = parse_backend("fake");
    cfg.compute.device_only = true;
    cfg.threads = 2;
    stall().overrun = false;
    stall().armed = true;
    const ScoreRun run = score(*ref, *dis, cfg);
    EXPECT_FALSE(stall().armed) << "the VIF twin never ran frame 0";
    EXPECT_FALSE(stall().overrun) << "the reader put frames past the store while frame 0 was scored";
    const nlohmann::json got = nlohmann::json::parse(
        render_results(run.results(), OutputFormat::json, Precision::max()));
    EXPECT_GT(test::expect_same_json_values(got, want, pair), 100);
}

}  // namespace
}  // namespace vmafpp
