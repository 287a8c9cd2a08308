// vmafpp --self-test. Drivers miscompile compute shaders; a user must be able
// to find out in a second whether this device computes what the scalar
// kernels compute. Everything goes through the public Scorer, so the twins
// run exactly as in a scoring run (frame store, worker threads, the
// extractors' host finalisation) and each value is compared with the CPU
// scalar's value bit for bit. The list of twins is not written here: a
// feature is a twin on the backend when a --device_only session of it can
// be made, so a new twin is self-tested the day it exists.
#include "self_test.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/model.hpp"
#include "vmafpp/scorer.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp_cli {

namespace {

using vmafpp::FrameGeometry;
using vmafpp::PixelFormat;

// The CPU at the scalar level: every --cpumask bit set disables every SIMD level.
constexpr unsigned kScalarCpumask = 0xffffffffu;
constexpr unsigned kFrames = 3;  // motion's window needs three

// Deterministic noise (a 32-bit LCG), so every run tests the same pictures.
struct Noise {
    std::uint32_t s;
    unsigned next(unsigned range) {
        s = s * 1664525u + 1013904223u;
        return (s >> 8) % range;
    }
};

// A sample of the synthetic reference: a slow diagonal ramp (the steps of
// its top bits are the banding CAMBI looks for), a flat quarter, a quarter
// of noise, and blocks at 0 and at the largest sample, moving with the frame.
unsigned reference_sample(int x, int y, int w, int h, unsigned frame, unsigned max,
                          Noise& noise) {
    const unsigned ramp = static_cast<unsigned>((static_cast<std::uint64_t>(x + y + 3 * frame) *
                                                 max) / static_cast<unsigned>(w + h + 3 * kFrames));
    if (x < w / 3 && y < h / 3) return max / 3;                      // flat
    if (x >= 2 * w / 3 && y < h / 2) return noise.next(max + 1);     // noise
    const int bx = (x + 4 * static_cast<int>(frame)) % 24, by = y % 20;
    if (y >= 3 * h / 4 && bx < 6 && by < 6) return (x / 24) % 2 ? max : 0;  // extremes
    return ramp;
}

// The distorted picture: the reference coarsened (banding), with noise
// added and a band shifted by one sample, clipped to the bit depth; its
// lower left quarter a noiseless ramp one code value up every 16 columns
// (the banding CAMBI scores: flat areas, steps of 1 to 4 at 10 bits).
unsigned distorted_sample(const std::vector<unsigned>& ref, int x, int y, int w, int h,
                          unsigned max, int bpc, Noise& noise) {
    if (x < w / 2 && y >= h / 2) return max / 4 + static_cast<unsigned>(x / 16);
    const unsigned coarse = ~((1u << (bpc - 5)) - 1u);
    unsigned v = ref[static_cast<std::size_t>(y) * w + x];
    if (y > h / 2 && x + 1 < w) v = ref[static_cast<std::size_t>(y) * w + x + 1];
    v &= coarse;
    const int n = static_cast<int>(noise.next(max / 32 + 1)) - static_cast<int>(max / 64);
    const long long d = static_cast<long long>(v) + n;
    return static_cast<unsigned>(d < 0 ? 0 : (d > max ? max : d));
}

void fill_plane(vmafpp::Plane& p, int bpc, const std::vector<unsigned>& v) {
    for (int y = 0; y < p.height(); ++y)
        for (int x = 0; x < p.width(); ++x) {
            const unsigned s = v[static_cast<std::size_t>(y) * p.width() + x];
            if (bpc == 8)
                p.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(s);
            else
                p.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(s);
        }
}

// Frame `frame` of the synthetic pair, every plane (chroma with its own seed).
void make_pair(const FrameGeometry& g, unsigned frame, vmafpp::Picture& ref,
               vmafpp::Picture& dis) {
    const unsigned max = (1u << g.bpc) - 1u;
    for (int c = 0; c < ref.plane_count(); ++c) {
        vmafpp::Plane& rp = ref.planes[c];
        if (!rp.data()) continue;
        const int w = rp.width(), h = rp.height();
        Noise noise{0x9e3779b9u * (frame + 1) + 7919u * static_cast<unsigned>(c)};
        std::vector<unsigned> r(static_cast<std::size_t>(w) * h), d(r.size());
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                r[static_cast<std::size_t>(y) * w + x] = reference_sample(x, y, w, h, frame, max, noise);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                d[static_cast<std::size_t>(y) * w + x] = distorted_sample(r, x, y, w, h, max, g.bpc, noise);
        fill_plane(rp, g.bpc, r);
        fill_plane(dis.planes[c], g.bpc, d);
    }
}

vmafpp::Results score_synthetic(vmafpp::ScoreConfig cfg, const FrameGeometry& g) {
    vmafpp::Scorer s(cfg, g);
    for (unsigned f = 0; f < kFrames; ++f) {
        vmafpp::Picture ref = s.make_picture(), dis = s.make_picture();
        make_pair(g, f, ref, dis);
        s.push(std::move(ref), std::move(dis));
    }
    return s.finish().results();
}

std::uint64_t bits(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

std::string describe(const std::optional<double>& v) {
    if (!v) return "none";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", *v);
    return buf;
}

// Empty when `dev` holds every value of `cpu` with the same bits (and no
// other key); else the first difference.
std::string first_difference(const vmafpp::Results& cpu, const vmafpp::Results& dev,
                             std::size_t& compared) {
    if (cpu.metrics.size() != dev.metrics.size())
        return std::to_string(dev.metrics.size()) + " keys on the device, " +
               std::to_string(cpu.metrics.size()) + " on the CPU";
    for (const auto& m : cpu.metrics) {
        const vmafpp::Results::Metric* d = dev.find(m.key);
        if (!d) return "key " + m.key + " missing on the device";
        for (std::size_t f = 0; f < m.values.size(); ++f) {
            const std::optional<double> a = m.values[f];
            const std::optional<double> b = f < d->values.size() ? d->values[f] : std::nullopt;
            ++compared;
            if (a.has_value() != b.has_value() || (a && bits(*a) != bits(*b)))
                return m.key + " frame " + std::to_string(f) + ": device " + describe(b) +
                       ", CPU scalar " + describe(a);
        }
    }
    return {};
}

const char* format_name(PixelFormat f) {
    switch (f) {
        case PixelFormat::yuv400: return "400";
        case PixelFormat::yuv420: return "420";
        case PixelFormat::yuv422: return "422";
        default: return "444";
    }
}

// Whether the error says the session asked for a twin the backend lacks
// (device::place_on_cpu_or_refuse's message).
bool is_missing_twin(const vmafpp::Error& e) {
    return std::strstr(e.what(), "--device_only:") != nullptr;
}

// One line for `what` (a feature spec or a model): true when it passed or
// does not apply (a model with a feature without twin: "skipped").
// `exists` is false when the backend has no twin for it at all (no line).
bool check_one(const vmafpp::ComputeConfig& compute, const std::string& what,
               const vmafpp::ScoreConfig& base, const std::vector<FrameGeometry>& geometries,
               bool model, std::FILE* out, bool& exists) {
    const char* backend = vmafpp::backend_name(compute.backend);
    std::size_t compared = 0;
    exists = true;
    for (const FrameGeometry& g : geometries) {
        vmafpp::ScoreConfig dev = base;
        dev.compute = compute;
        dev.compute.device_only = true;
        dev.threads = 2;
        vmafpp::ScoreConfig cpu = base;
        cpu.compute = vmafpp::ComputeConfig{};
        cpu.compute.cpumask = kScalarCpumask;
        std::string diff;
        try {
            const vmafpp::Results d = score_synthetic(dev, g);
            const vmafpp::Results c = score_synthetic(cpu, g);
            diff = first_difference(c, d, compared);
        } catch (const vmafpp::Error& e) {
            if (is_missing_twin(e)) {
                if (!model) {
                    exists = false;
                    return true;
                }
                std::fprintf(out, "%s %s: skipped (%s)\n", backend, what.c_str(), e.what());
                return true;
            }
            diff = e.what();
        }
        if (!diff.empty()) {
            std::fprintf(out, "%s %s: MISMATCH on %dx%d %d-bit %s: %s\n", backend, what.c_str(),
                         g.width, g.height, g.bpc, format_name(g.format), diff.c_str());
            return false;
        }
    }
    std::fprintf(out, "%s %s: ok (%zu values)\n", backend, what.c_str(), compared);
    return true;
}

}  // namespace

int self_test(const vmafpp::ComputeConfig& compute, std::FILE* out) {
    const char* backend = vmafpp::backend_name(compute.backend);
    if (compute.backend == vmafpp::Backend::cpu) {
        std::fprintf(out, "vmafpp: --self-test tests a device backend's twins; name one with --backend\n");
        return 1;
    }
    try {
        vmafpp::ComputeConfig c = compute;
        c.device_only = true;
        (void)vmafpp::resolve_compute(c);
        // No device (or no driver): one line, not one per twin.
        if (vmafpp::describe_devices(compute.backend).empty())
            throw vmafpp::Error(std::string("--backend ") + backend + ": no device");
    } catch (const vmafpp::Error& e) {
        std::fprintf(out, "%s: %s\n", backend, e.what());
        return 1;
    }
    // An even and an odd size (rows and columns that fill no vector or
    // workgroup), 8 and 10 bits, subsampled and full chroma; large enough
    // for every twin's smallest picture (SpEED's 80x80 chroma after the
    // v1.0.16 models' prescale of 0.5, CAMBI's 216 samples on a side).
    // The models run on the first only (their features' twins are tested
    // on both above; the models add their options).
    const std::vector<FrameGeometry> geometries = {
        {336, 324, 8, PixelFormat::yuv420},
        {231, 219, 10, PixelFormat::yuv444},
    };
    const std::vector<FrameGeometry> model_geometries(geometries.begin(), geometries.begin() + 1);
    bool ok = true;
    int twins = 0;
    for (const vmafpp::FeatureInfo& f : vmafpp::feature_registry()) {
        vmafpp::ScoreConfig cfg;
        cfg.no_prediction = true;
        cfg.features = {f.name};
        bool exists = false;
        ok = check_one(compute, f.name, cfg, geometries, false, out, exists) && ok;
        twins += exists;
    }
    // Options no model uses that take their own shaders: SpEED's bicubic
    // (an upscale) and lanczos4 (a downscale) prescales, speed_scale.comp.
    for (const char* spec : {"speed_chroma=speed_prescale=1.5:speed_prescale_method=bicubic",
                             "speed_temporal=speed_prescale=0.7:speed_prescale_method=lanczos4"}) {
        vmafpp::ScoreConfig cfg;
        cfg.no_prediction = true;
        cfg.features = {spec};
        bool exists = false;
        ok = check_one(compute, spec, cfg, geometries, false, out, exists) && ok;
    }
    // The models run their features with other options (ADM's csf mode,
    // SpEED's prescale, CAMBI's speed-up).
    for (const std::string& version : vmafpp::builtin_model_versions()) {
        vmafpp::ScoreConfig cfg;
        vmafpp::ModelConfig m;
        m.version = version;
        cfg.models = {m};
        bool exists = false;
        ok = check_one(compute, "model " + version, cfg, model_geometries, true, out, exists) && ok;
    }
    if (twins == 0) {
        std::fprintf(out, "%s: no feature has a twin on this backend\n", backend);
        return 1;
    }
    std::fprintf(out, "%s self-test: %s\n", backend, ok ? "passed" : "FAILED");
    return ok ? 0 : 1;
}

}  // namespace vmafpp_cli
