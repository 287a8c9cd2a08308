// checkasm module "ssim": the SSIM kernel twins (convolve, stats, decimate,
// pass) of every SIMD level against ssim_kernels_scalar(), bit for bit (memcmp per float:
// -0 and +0, and NaN payloads, count as different). Images: every width from
// the tap count up to 64 and random wider ones, heights near the tap count;
// samples as float_ssim feeds them (0..65535 integers scaled), arbitrary
// floats of any magnitude with mixed signs, tiny (subnormal products) and
// huge (double sums past float's range, stored as inf) values. Taps: the
// Gaussian window and the 9/7 low-pass, or random ones of any odd count
// (convolve) and any count 1..12 (decimate, even counts too); a third of the
// decimations in place, mostly with float_ssim's box of factor 2..10, and
// the whole picture compared after them. Statistics:
// the five filtered quantities drawn alone or related as real windows relate
// them (flat windows whose variance is exactly 0 with a negative covariance,
// variances rounding below 0), every n 1..64 then longer rows. The pass:
// whole pictures of every kind above, sums compared bit for bit, each
// picture against the guard page after it.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "ssim/ssim_kernels.hpp"

namespace vmafpp::checkasm {
namespace {

using ssim::SsimKernels;
using SsimLevel = TableLevel<SsimKernels>;

constexpr int kMaxSide = 160;

float random_sample(Rng& rng, int kind) {
    const double u = static_cast<double>(rng() % (1u << 24)) / (1u << 24);
    switch (kind) {
        case 0: return static_cast<float>(rng() % 65536) / 257.0f;   // pixel-like
        case 1: return static_cast<float>((u - 0.5) * 1e6);          // mixed signs
        case 2: return static_cast<float>((u - 0.5) * 1e-36);        // subnormal products
        case 3: return static_cast<float>((u - 0.5) * 6e37);         // sums past FLT_MAX
        default: return static_cast<float>(rng() % 256);
    }
}

void fill_image(Rng& rng, std::vector<float>& img, std::size_t n) {
    const int kind = static_cast<int>(rng() % 5);
    img.resize(n);
    for (std::size_t i = 0; i < n; ++i) img[i] = random_sample(rng, kind);
}

bool same_bits(const float* a, const float* b, std::size_t n, long long* where) {
    for (std::size_t i = 0; i < n; ++i)
        if (std::memcmp(a + i, b + i, sizeof(float)) != 0) {
            *where = static_cast<long long>(i);
            return false;
        }
    return true;
}

// Outputs and canaries of both calls; fails the band on the first difference.
bool compare(Context& ctx, int band, const std::string& what, const Canaried<float>& want,
             const Canaried<float>& got, std::size_t n, const char* level) {
    long long where = 0;
    if (!got.canaries_intact(&where, n)) {
        ctx.fail(band) << what << ": wrote [" << where << "] outside [0, " << n << ")";
        return false;
    }
    if (!want.canaries_intact(&where, n)) {
        ctx.fail(band) << what << ": the SCALAR kernel wrote [" << where << "] outside";
        return false;
    }
    if (same_bits(want.data(), got.data(), n, &where)) return true;
    ctx.fail(band) << what << ": [" << where << "] scalar " << want[where] << ", " << level << " "
                   << got[where];
    return false;
}

void check_convolve(Context& ctx, const SsimLevel& L) {
    if (!ctx.check("ssim_convolve", L.level)) return;
    Rng rng = ctx.rng();
    std::vector<float> src, taps;
    Canaried<float> want(kMaxSide * kMaxSide), got(kMaxSide * kMaxSide);
    std::vector<float> cache(kMaxSide * kMaxSide);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const bool gaussian = rng() % 2 == 0;
        const int n = gaussian ? ssim::kWindow : 1 + 2 * static_cast<int>(rng() % 8);
        taps.assign(ssim::kGaussianTaps.begin(), ssim::kGaussianTaps.end());
        if (!gaussian) {
            taps.resize(n);
            for (float& t : taps) t = random_sample(rng, static_cast<int>(rng() % 4));
        }
        const int w = band < 64 ? n + band % (65 - n > 0 ? 65 - n : 1)
                                : n + static_cast<int>(rng() % (kMaxSide - n));
        const int h = n + static_cast<int>(rng() % 12);
        fill_image(rng, src, static_cast<std::size_t>(w) * h);
        const std::size_t on = static_cast<std::size_t>(w - n + 1) * (h - n + 1);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " taps=" + std::to_string(n);
        ctx.at_band(band, what);
        want.poison();
        got.poison();
        ssim::ssim_kernels_scalar().convolve(src.data(), w, h, taps.data(), n, want.data(),
                                             cache.data());
        L.kernels->convolve(src.data(), w, h, taps.data(), n, got.data(), cache.data());
        ctx.band();
        compare(ctx, band, what, want, got, on, L.level.name);
    }
    if (ctx.benching()) {
        std::vector<float> big(1920 * 64);
        for (float& v : big) v = static_cast<float>(rng() % 256);
        std::vector<float> out(1920 * 64), c(1920 * 64);
        ctx.bench(
            [&] {
                ssim::ssim_kernels_scalar().convolve(big.data(), 1920, 64,
                                                     ssim::kGaussianTaps.data(), ssim::kWindow,
                                                     out.data(), c.data());
            },
            [&] {
                L.kernels->convolve(big.data(), 1920, 64, ssim::kGaussianTaps.data(),
                                    ssim::kWindow, out.data(), c.data());
            });
    }
    ctx.done();
}

void check_decimate(Context& ctx, const SsimLevel& L) {
    if (!ctx.check("ssim_decimate", L.level)) return;
    Rng rng = ctx.rng();
    std::vector<float> src, kernel;
    Canaried<float> want(kMaxSide * kMaxSide), got(kMaxSide * kMaxSide);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        // A third of the bands in place, as float_ssim decimates: mostly its
        // box (factor x factor taps of 1 / factor^2, factors up to 10),
        // else any kernel (the twins fall back to the scalar where an
        // output could read an earlier one).
        const bool in_place = rng() % 3 == 0;
        const bool box = in_place && rng() % 4 != 0;
        const bool lowpass = !box && rng() % 2 == 0;
        int factor = rng() % 4 == 0 ? 1 + static_cast<int>(rng() % 4) : 2;
        if (box) factor = 2 + static_cast<int>(rng() % 9);
        const int kw = box ? factor : lowpass ? ssim::kLowPassTaps : 1 + static_cast<int>(rng() % 12);
        kernel.assign(ssim::kLowPass.begin(), ssim::kLowPass.end());
        if (box) kernel.assign(static_cast<std::size_t>(kw) * kw, 1.0f / static_cast<float>(kw * kw));
        if (!lowpass && !box) {
            kernel.resize(static_cast<std::size_t>(kw) * kw);
            for (float& t : kernel) t = random_sample(rng, static_cast<int>(rng() % 4));
        }
        // The contract's sizes: at least kw each way (one reflection then
        // stays inside the picture).
        const int w = band < 64 ? kw + band % (65 - kw) : kw + static_cast<int>(rng() % (kMaxSide - kw));
        const int h = kw + static_cast<int>(rng() % 40);
        const std::size_t n = static_cast<std::size_t>(w) * h;
        fill_image(rng, src, n);
        const std::size_t on = static_cast<std::size_t>(ssim::decimated_size(w, factor)) *
                               ssim::decimated_size(h, factor);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " kw=" + std::to_string(kw) + " factor=" + std::to_string(factor) +
                                 (in_place ? " in place" : "");
        ctx.at_band(band, what);
        want.poison();
        got.poison();
        if (in_place) {
            // The whole picture compared: outputs, then what is left of the
            // input (IQA's odd sizes can give more outputs than inputs).
            std::memcpy(want.data(), src.data(), n * sizeof(float));
            std::memcpy(got.data(), src.data(), n * sizeof(float));
            ssim::ssim_kernels_scalar().decimate(want.data(), w, h, factor, kernel.data(), kw,
                                                 want.data());
            L.kernels->decimate(got.data(), w, h, factor, kernel.data(), kw, got.data());
            ctx.band();
            compare(ctx, band, what, want, got, n > on ? n : on, L.level.name);
            continue;
        }
        ssim::ssim_kernels_scalar().decimate(src.data(), w, h, factor, kernel.data(), kw,
                                             want.data());
        L.kernels->decimate(src.data(), w, h, factor, kernel.data(), kw, got.data());
        ctx.band();
        compare(ctx, band, what, want, got, on, L.level.name);
    }
    if (ctx.benching()) {
        std::vector<float> big(1920 * 64), out(960 * 32);
        for (float& v : big) v = static_cast<float>(rng() % 256);
        ctx.bench(
            [&] {
                ssim::ssim_kernels_scalar().decimate(big.data(), 1920, 64, 2,
                                                     ssim::kLowPass.data(), ssim::kLowPassTaps,
                                                     out.data());
            },
            [&] {
                L.kernels->decimate(big.data(), 1920, 64, 2, ssim::kLowPass.data(),
                                    ssim::kLowPassTaps, out.data());
            });
    }
    ctx.done();
}

// One of the five statistics inputs at i: drawn alone, or tied to the means
// as a real window ties them (exactly flat: ref_sq = mu^2 and a covariance
// below 0; or a variance a few ulps either side of 0).
void fill_stats(Rng& rng, std::vector<float> (&q)[5], int n) {
    const int kind = static_cast<int>(rng() % 5);
    for (auto& v : q) v.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        for (auto& v : q) v[i] = random_sample(rng, kind);
        const float mr = q[0][i], mc = q[1][i];
        switch (rng() % 4) {
            case 0:  // flat: both variances exactly 0, covariance negative
                q[2][i] = mr * mr;
                q[3][i] = mc * mc;
                q[4][i] = mr * mc - std::fabs(random_sample(rng, 0));
                break;
            case 1:  // variances rounding to either side of 0
                q[2][i] = std::nextafter(mr * mr, (rng() % 2) ? 1e38f : -1e38f);
                q[3][i] = std::nextafter(mc * mc, (rng() % 2) ? 1e38f : -1e38f);
                break;
            case 2:  // a plausible window: moments above the squared means
                q[2][i] = mr * mr + std::fabs(random_sample(rng, 0));
                q[3][i] = mc * mc + std::fabs(random_sample(rng, 0));
                q[4][i] = mr * mc + random_sample(rng, 0) - 128.0f;
                break;
            default: break;  // all five independent
        }
    }
}

std::string sums_text(const ssim::SsimSums& s) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "(%.17g, %.17g, %.17g, %.17g)", s.ssim, s.l, s.c, s.s);
    return buf;
}

bool same_sums(const ssim::SsimSums& a, const ssim::SsimSums& b) {
    return std::memcmp(&a.ssim, &b.ssim, sizeof(double)) == 0 &&
           std::memcmp(&a.l, &b.l, sizeof(double)) == 0 &&
           std::memcmp(&a.c, &b.c, sizeof(double)) == 0 &&
           std::memcmp(&a.s, &b.s, sizeof(double)) == 0;
}

void check_stats(Context& ctx, const SsimLevel& L) {
    if (!ctx.check("ssim_stats", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxN = 2100;
    GuardedRows rows(5, kMaxN * sizeof(float));
    std::vector<float> q[5];
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int n = band_width(rng, band, kMaxN);
        fill_stats(rng, q, n);
        const bool at_end = rng() % 2 == 0;
        const float* in[5];
        for (int k = 0; k < 5; ++k) {
            float* r = rows.row<float>(k, static_cast<std::size_t>(n), at_end);
            std::memcpy(r, q[k].data(), sizeof(float) * static_cast<std::size_t>(n));
            in[k] = r;
        }
        const std::string what = "n=" + std::to_string(n) + (at_end ? " guard=after" : " guard=before");
        ctx.at_band(band, what);
        const ssim::SsimSums want =
            ssim::ssim_kernels_scalar().stats(in[0], in[1], in[2], in[3], in[4], n);
        const ssim::SsimSums got = L.kernels->stats(in[0], in[1], in[2], in[3], in[4], n);
        ctx.band();
        if (!same_sums(want, got))
            ctx.fail(band) << what << ": sums (ssim, l, c, s) scalar " << sums_text(want) << ", "
                           << L.level.name << " " << sums_text(got);
    }
    if (ctx.benching()) {
        const int n = 1920 * 16;
        fill_stats(rng, q, n);
        ctx.bench(
            [&] {
                (void)ssim::ssim_kernels_scalar().stats(q[0].data(), q[1].data(), q[2].data(),
                                                        q[3].data(), q[4].data(), n);
            },
            [&] {
                (void)L.kernels->stats(q[0].data(), q[1].data(), q[2].data(), q[3].data(),
                                       q[4].data(), n);
            });
    }
    ctx.done();
}

void check_pass(Context& ctx, const SsimLevel& L) {
    if (!ctx.check("ssim_pass", L.level)) return;
    Rng rng = ctx.rng();
    GuardedRows rows(2, kMaxSide * kMaxSide * sizeof(float));
    ssim::SsimScratch want_scratch(kMaxSide, kMaxSide), got_scratch(kMaxSide, kMaxSide);
    std::vector<float> ref, cmp;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 64 ? ssim::kWindow + band
                                : ssim::kWindow + static_cast<int>(rng() % (kMaxSide - ssim::kWindow));
        const int h = ssim::kWindow + static_cast<int>(rng() % (band < 64 ? 8 : 40));
        const std::size_t n = static_cast<std::size_t>(w) * h;
        fill_image(rng, ref, n);
        if (rng() % 4 == 0) {
            cmp = ref;  // identical pictures: flat windows alike, covariance = variance
        } else {
            fill_image(rng, cmp, n);
        }
        float* r = rows.row<float>(0, n, true);
        float* c = rows.row<float>(1, n, true);
        std::memcpy(r, ref.data(), n * sizeof(float));
        std::memcpy(c, cmp.data(), n * sizeof(float));
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h);
        ctx.at_band(band, what);
        const ssim::SsimSums want = ssim::ssim_kernels_scalar().pass(r, c, w, h, want_scratch);
        const ssim::SsimSums got = L.kernels->pass(r, c, w, h, got_scratch);
        ctx.band();
        if (!same_sums(want, got))
            ctx.fail(band) << what << ": sums (ssim, l, c, s) scalar " << sums_text(want) << ", "
                           << L.level.name << " " << sums_text(got);
    }
    if (ctx.benching()) {
        const int w = 1920, h = 64;
        std::vector<float> a(static_cast<std::size_t>(w) * h), b(a.size());
        for (float& v : a) v = static_cast<float>(rng() % 256);
        for (float& v : b) v = static_cast<float>(rng() % 256);
        ssim::SsimScratch sa(w, h), sb(w, h);
        ctx.bench([&] { (void)ssim::ssim_kernels_scalar().pass(a.data(), b.data(), w, h, sa); },
                  [&] { (void)L.kernels->pass(a.data(), b.data(), w, h, sb); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(ssim) {
    for (const SsimLevel& L : simd_tables(ctx, &ssim::ssim_kernels_for)) {
        if (L.owns(&SsimKernels::convolve)) check_convolve(ctx, L);
        if (L.owns(&SsimKernels::stats)) check_stats(ctx, L);
        if (L.owns(&SsimKernels::decimate)) check_decimate(ctx, L);
        if (L.owns(&SsimKernels::pass)) check_pass(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
