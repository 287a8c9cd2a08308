// checkasm module "float_blur": the twins of float VIF's blurs (blur,
// blur_squared, blur_product, blur_decimate; float_vif and float_motion run
// them), of its statistic (on the blurs of related pictures, flat patches
// included, on unrelated ones, or with variances on the thresholds
// sigma_nsq and eps; libvmaf's sigma_nsq and gain limit and others), and of float motion's
// mean_abs_diff, every SIMD level against the scalar table, bit for bit (memcmp per float: -0 and
// +0 and NaN payloads differ). Pictures: every width from the filter's radius + 1 up to 64, then
// random wider ones, heights likewise small; each row against a guard page
// (after or before it), rows a page apart. Samples as the extractors feed
// them (0..255 less 128, or 0..65535 / 4 less 128), mixed signs of any
// magnitude, tiny (subnormal products) and huge (sums past FLT_MAX) values,
// exact zeros of both signs, and pictures of -0 alone. Filters: libvmaf's Gaussians of every scale
// at several kernel scales (3 to 69 taps), motion's 5- and 3-tap blurs, and
// random odd tap counts of random taps; any of them negated now and then.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "motion/float_motion_kernels.hpp"
#include "vif/float_vif_kernels.hpp"

namespace vmafpp::checkasm {
namespace {

using float_motion::FloatMotionKernels;
using float_vif::FloatVifKernels;

constexpr int kMaxW = 300;
constexpr int kMaxH = 40;

float random_sample(Rng& rng, int kind) {
    const double u = static_cast<double>(rng() % (1u << 24)) / (1u << 24);
    switch (kind) {
        case 0:
            return static_cast<float>(rng() % 256) - 128.0f;
        case 1:
            return static_cast<float>(rng() % 65536) / 4.0f - 128.0f;
        case 2:
            return static_cast<float>((u - 0.5) * 1e6);
        case 3:
            return static_cast<float>((u - 0.5) * 1e-25);  // subnormal products
        case 4:
            return static_cast<float>((u - 0.5) * 6e37);  // sums past FLT_MAX
        case 5:
            return rng() % 2 ? 0.0f : -0.0f;
        default:
            return -0.0f;
    }
}

// One picture of h rows, each flush against a guard page.
struct Picture {
    GuardedRows mem{kMaxH, kMaxW * sizeof(float)};
    const float* data = nullptr;
    std::ptrdiff_t stride = 0;

    void make(Rng& rng, int w, int h) {
        const int kind = static_cast<int>(rng() % 7);
        const bool mixed = rng() % 4 == 0;  // a kind per sample
        const bool at_end = rng() & 1;
        for (int y = 0; y < h; ++y) {
            float* row = mem.row<float>(y, static_cast<std::size_t>(w), at_end);
            for (int x = 0; x < w; ++x)
                row[x] = random_sample(rng, mixed ? static_cast<int>(rng() % 6) : kind);
        }
        data = mem.row<float>(0, static_cast<std::size_t>(w), at_end);
        stride = mem.row<float>(1, static_cast<std::size_t>(w), at_end) - data;
    }
};

// A filter: a Gaussian of libvmaf's, motion's, or random taps.
std::vector<float> random_filter(Rng& rng, std::string* name) {
    static const float kMotion5[5] = {0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f,
                                      0.054488685f};
    static const float kScales[] = {1.0f, 0.5f, 1.5f, 2.0f, 3.0f, 4.0f / 3.0f};
    std::vector<float> f;
    switch (rng() % 4) {
        case 0:
        case 1: {
            const int scale = static_cast<int>(rng() % 4);
            const float ks = kScales[rng() % (sizeof kScales / sizeof kScales[0])];
            f.resize(static_cast<std::size_t>(float_vif::filter_width(scale, ks)));
            float_vif::gaussian_filter(f.data(), scale, ks);
            *name = "gauss(scale " + std::to_string(scale) + ", ks " + std::to_string(ks) + ")";
            break;
        }
        case 2:
            f.assign(kMotion5, kMotion5 + 5);
            *name = "motion5";
            break;
        default: {
            f.resize(static_cast<std::size_t>(1 + 2 * (rng() % 12)));
            const int kind = static_cast<int>(rng() % 5);
            for (float& t : f) t = random_sample(rng, kind == 4 ? 2 : kind) / 256.0f;
            *name = "random";
        }
    }
    // Negated taps now and then: over a zero picture every product is then
    // -0, and only a sum that starts at +0 (as the scalar's) gives +0.
    if (rng() % 6 == 0) {
        for (float& t : f) t = -t;
        *name += " negated";
    }
    *name += " taps=" + std::to_string(f.size());
    return f;
}

bool same_bits(const float* a, const float* b, std::size_t n, long long* where) {
    for (std::size_t i = 0; i < n; ++i)
        if (std::memcmp(a + i, b + i, sizeof(float)) != 0) {
            *where = static_cast<long long>(i);
            return false;
        }
    return true;
}

enum class Blur { plain, squared, product, decimate };
const char* blur_name(Blur b) {
    switch (b) {
        case Blur::plain:
            return "float_vif_blur";
        case Blur::squared:
            return "float_vif_blur_squared";
        case Blur::product:
            return "float_vif_blur_product";
        default:
            return "float_vif_blur_decimate";
    }
}

void run_blur(const FloatVifKernels& k, Blur which, const std::vector<float>& f, const Picture& a,
              const Picture& b, float* dst, int dst_stride, int w, int h, float* row) {
    const int fw = static_cast<int>(f.size());
    switch (which) {
        case Blur::plain:
            k.blur(f.data(), fw, a.data, a.stride, dst, dst_stride, w, h, row);
            break;
        case Blur::squared:
            k.blur_squared(f.data(), fw, a.data, a.stride, dst, dst_stride, w, h, row);
            break;
        case Blur::product:
            k.blur_product(f.data(), fw, a.data, a.stride, b.data, b.stride, dst, dst_stride, w, h,
                           row);
            break;
        case Blur::decimate:
            k.blur_decimate(f.data(), fw, a.data, a.stride, dst, dst_stride, w, h, row);
            break;
    }
}

void check_blur(Context& ctx, const TableLevel<FloatVifKernels>& L, Blur which) {
    if (!ctx.check(blur_name(which), L.level)) return;
    Rng rng = ctx.rng();
    Picture a, b;
    Canaried<float> want(kMaxW * kMaxH), got(kMaxW * kMaxH);
    Canaried<float> want_row(kMaxW + float_vif::kMaxFilterWidth),
        got_row(kMaxW + float_vif::kMaxFilterWidth);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        std::string fname;
        const std::vector<float> f = random_filter(rng, &fname);
        const int fw = static_cast<int>(f.size());
        const int r = fw / 2;
        const int w = band < 64 ? r + 1 + band % 64 : r + 1 + static_cast<int>(rng() % (kMaxW - r));
        const int h = r + 1 + static_cast<int>(rng() % (kMaxH - r));
        a.make(rng, w, h);
        b.make(rng, w, h);
        const int ow = which == Blur::decimate ? w / 2 : w;
        const int oh = which == Blur::decimate ? h / 2 : h;
        const std::size_t n = static_cast<std::size_t>(ow) * oh;
        const std::size_t row_n = static_cast<std::size_t>(w + 2 * r);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " " + fname;
        ctx.at_band(band, what);
        want.poison();
        got.poison();
        want_row.poison();
        got_row.poison();
        run_blur(float_vif::float_vif_kernels_scalar(), which, f, a, b, want.data(), ow, w, h,
                 want_row.data());
        run_blur(*L.kernels, which, f, a, b, got.data(), ow, w, h, got_row.data());
        ctx.band();
        long long where = 0;
        if (!got.canaries_intact(&where, n) || !got_row.canaries_intact(&where, row_n)) {
            ctx.fail(band) << what << ": wrote [" << where << "] outside its output or row";
        } else if (!same_bits(want.data(), got.data(), n, &where)) {
            ctx.fail(band) << std::setprecision(9) << what << ": dst[" << where << "] (row "
                           << where / ow << ") scalar " << want[where] << ", " << L.level.name
                           << " " << got[where];
        }
    }
    if (ctx.benching()) {
        const int w = 1920, h = 32;
        std::vector<float> src(static_cast<std::size_t>(w) * h), out(src.size()),
            row(w + float_vif::kMaxFilterWidth);
        for (float& v : src) v = static_cast<float>(rng() % 256) - 128.0f;
        std::vector<float> f(17);
        float_vif::gaussian_filter(f.data(), 0, 1.0f);
        ctx.bench(
            [&] {
                float_vif::float_vif_kernels_scalar().blur(f.data(), 17, src.data(), w, out.data(),
                                                           w, w, h, row.data());
            },
            [&] { L.kernels->blur(f.data(), 17, src.data(), w, out.data(), w, w, h, row.data()); });
    }
    ctx.done();
}

// The five blurred pictures of a statistic: the scalar blurs of two
// pictures (half of them related: b = a, or a plus small noise) with a
// Gaussian, or, a quarter of the time, five unrelated random pictures
// (negative variances, NaN-free but of any magnitude).
struct StatInputs {
    std::vector<float> p[5];  // mu1, mu2, xx, yy, xy
    std::string what;

    void make(Rng& rng, int w, int h, double sigma_nsq) {
        const std::size_t n = static_cast<std::size_t>(w) * h;
        for (auto& v : p) v.assign(n, 0.0f);
        if (rng() % 8 == 0) {
            // Variances on the thresholds: s1 and s2 (mu 0) at the float
            // nearest sigma_nsq, at eps, or one ulp either side of them.
            const float at[2] = {static_cast<float>(sigma_nsq), 1.0e-10f};
            for (std::size_t i = 0; i < n; ++i) {
                for (int q : {0, 1}) {
                    float v = at[rng() % 2];
                    const int side = static_cast<int>(rng() % 3);
                    if (side != 1) v = std::nextafter(v, side == 0 ? 0.0f : 10.0f);
                    p[q][i] = 0.0f;
                    p[q + 2][i] = v;
                }
                p[4][i] = random_sample(rng, static_cast<int>(rng() % 3));
            }
            what = "thresholds";
            return;
        }
        if (rng() % 4 == 0) {
            const int kind = static_cast<int>(rng() % 7);
            for (auto& v : p)
                for (float& x : v) x = random_sample(rng, kind);
            what = "unrelated kind " + std::to_string(kind);
            return;
        }
        const int scale = static_cast<int>(rng() % 4);
        std::vector<float> f(static_cast<std::size_t>(float_vif::filter_width(scale, 1.0f)));
        float_vif::gaussian_filter(f.data(), scale, 1.0f);
        const int fw = static_cast<int>(f.size());
        std::vector<float> a(n), b(n), row(static_cast<std::size_t>(w + fw));
        const int kind = static_cast<int>(rng() % 7);
        const int relation = static_cast<int>(rng() % 4);  // 0: b = a, 1: a + noise
        for (std::size_t i = 0; i < n; ++i) {
            a[i] = random_sample(rng, kind);
            b[i] = relation == 0   ? a[i]
                   : relation == 1 ? a[i] + static_cast<float>(rng() % 5) - 2.0f
                                   : random_sample(rng, kind);
        }
        // Flat patches now and then: variances exactly 0.
        if (rng() % 3 == 0)
            for (std::size_t i = 0; i < n / 2; ++i) a[i] = b[i] = 7.0f;
        const auto& k = float_vif::float_vif_kernels_scalar();
        k.blur(f.data(), fw, a.data(), w, p[0].data(), w, w, h, row.data());
        k.blur(f.data(), fw, b.data(), w, p[1].data(), w, w, h, row.data());
        k.blur_squared(f.data(), fw, a.data(), w, p[2].data(), w, w, h, row.data());
        k.blur_squared(f.data(), fw, b.data(), w, p[3].data(), w, w, h, row.data());
        k.blur_product(f.data(), fw, a.data(), w, b.data(), w, p[4].data(), w, w, h, row.data());
        what = "blurred scale " + std::to_string(scale) + " kind " + std::to_string(kind) +
               " relation " + std::to_string(relation);
    }
};

void check_statistic(Context& ctx, const TableLevel<FloatVifKernels>& L) {
    if (!ctx.check("float_vif_statistic", L.level)) return;
    Rng rng = ctx.rng();
    StatInputs in;
    std::vector<float> want_scratch(2 * kMaxW), got_scratch(2 * kMaxW);
    // 0.4 rounds up to float, 0.7 down (only there does s1 < sigma_nsq in
    // double differ from the compare in float).
    static const double kSigmaNsq[] = {2.0, 0.0, 0.4, 0.7, 5.0};
    static const double kGainLimit[] = {100.0, 1.0, 1.2, 0.0};
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 64 ? 9 + band % 64 : 9 + static_cast<int>(rng() % (kMaxW - 9));
        const int h = 9 + static_cast<int>(rng() % (kMaxH - 9));
        const double snsq = rng() % 2 ? 2.0 : kSigmaNsq[rng() % 5];
        in.make(rng, w, h, snsq);
        const double gain = rng() % 2 ? 100.0 : kGainLimit[rng() % 4];
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " " +
                                 in.what + " sigma_nsq=" + std::to_string(snsq) +
                                 " gain_limit=" + std::to_string(gain);
        ctx.at_band(band, what);
        const auto call = [&](const FloatVifKernels& k, std::vector<float>& scratch) {
            return k.statistic(in.p[0].data(), in.p[1].data(), in.p[2].data(), in.p[3].data(),
                               in.p[4].data(), w, w, h, gain, snsq, scratch.data());
        };
        const float_vif::VifSums want = call(float_vif::float_vif_kernels_scalar(), want_scratch);
        const float_vif::VifSums got = call(*L.kernels, got_scratch);
        ctx.band();
        if (std::memcmp(&want.num, &got.num, sizeof(float)) != 0 ||
            std::memcmp(&want.den, &got.den, sizeof(float)) != 0)
            ctx.fail(band) << std::setprecision(9) << what << ": (num, den) scalar (" << want.num
                           << ", " << want.den << "), " << L.level.name << " (" << got.num << ", "
                           << got.den << ")";
    }
    if (ctx.benching()) {
        const int w = 1920, h = 16;
        StatInputs big;
        big.make(rng, w, h, 2.0);
        std::vector<float> sc(2 * w);
        const auto call = [&](const FloatVifKernels& k) {
            (void)k.statistic(big.p[0].data(), big.p[1].data(), big.p[2].data(), big.p[3].data(),
                              big.p[4].data(), w, w, h, 100.0, 2.0, sc.data());
        };
        ctx.bench([&] { call(float_vif::float_vif_kernels_scalar()); }, [&] { call(*L.kernels); });
    }
    ctx.done();
}

void check_mean_abs_diff(Context& ctx, const TableLevel<FloatMotionKernels>& L) {
    if (!ctx.check("float_motion_mean_abs_diff", L.level)) return;
    Rng rng = ctx.rng();
    Picture a, b;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 64 ? 1 + band : 1 + static_cast<int>(rng() % kMaxW);
        const int h = 1 + static_cast<int>(rng() % kMaxH);
        a.make(rng, w, h);
        b.make(rng, w, h);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h);
        ctx.at_band(band, what);
        const float want = float_motion::float_motion_kernels_scalar().mean_abs_diff(
            a.data, a.stride, b.data, b.stride, w, h);
        const float got = L.kernels->mean_abs_diff(a.data, a.stride, b.data, b.stride, w, h);
        ctx.band();
        if (std::memcmp(&want, &got, sizeof want) != 0)
            ctx.fail(band) << std::setprecision(9) << what << ": scalar " << want << ", "
                           << L.level.name << " " << got;
    }
    if (ctx.benching()) {
        const int w = 1920, h = 64;
        std::vector<float> x(static_cast<std::size_t>(w) * h), y(x.size());
        for (float& v : x) v = static_cast<float>(rng() % 256);
        for (float& v : y) v = static_cast<float>(rng() % 256);
        ctx.bench(
            [&] {
                (void)float_motion::float_motion_kernels_scalar().mean_abs_diff(x.data(), w,
                                                                                y.data(), w, w, h);
            },
            [&] { (void)L.kernels->mean_abs_diff(x.data(), w, y.data(), w, w, h); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(float_blur) {
    for (const auto& L : simd_tables(ctx, &float_vif::float_vif_kernels_for)) {
        if (L.owns(&FloatVifKernels::blur)) check_blur(ctx, L, Blur::plain);
        if (L.owns(&FloatVifKernels::blur_squared)) check_blur(ctx, L, Blur::squared);
        if (L.owns(&FloatVifKernels::blur_product)) check_blur(ctx, L, Blur::product);
        if (L.owns(&FloatVifKernels::blur_decimate)) check_blur(ctx, L, Blur::decimate);
        if (L.owns(&FloatVifKernels::statistic)) check_statistic(ctx, L);
    }
    for (const auto& L : simd_tables(ctx, &float_motion::float_motion_kernels_for))
        if (L.owns(&FloatMotionKernels::mean_abs_diff)) check_mean_abs_diff(ctx, L);
}

}  // namespace vmafpp::checkasm
