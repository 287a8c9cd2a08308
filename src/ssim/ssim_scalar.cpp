// The scalar SSIM kernels (the reference every twin must match) and one SSIM
// pass built from a kernel table.
#include <algorithm>
#include <cmath>

#include "base/c_macros.hpp"
#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

// The reference of every twin's convolution: tap_sum (ssim_pass_rows.hpp)
// of each output, the horizontal pass into the cache, then the vertical one.
void convolve_scalar(const float* src, int w, int h, const float* taps, int n, float* dst,
                     float* cache) {
    const int ow = w - n + 1;
    const int oh = h - n + 1;
    for (int y = 0; y < h; ++y) {
        const float* in = src + static_cast<std::ptrdiff_t>(y) * w;
        float* out = cache + static_cast<std::ptrdiff_t>(y) * ow;
        for (int x = 0; x < ow; ++x) out[x] = tap_sum(in + x, 1, taps, n);
    }
    for (int y = 0; y < oh; ++y) {
        const float* col = cache + static_cast<std::ptrdiff_t>(y) * ow;
        float* out = dst + static_cast<std::ptrdiff_t>(y) * ow;
        for (int x = 0; x < ow; ++x) out[x] = tap_sum(col + x, ow, taps, n);
    }
}

void products_scalar(const float* ref, const float* cmp, int n, float* ref_sq, float* cmp_sq,
                     float* both) {
    for (int i = 0; i < n; ++i) {
        ref_sq[i] = ref[i] * ref[i];
        cmp_sq[i] = cmp[i] * cmp[i];
        both[i] = ref[i] * cmp[i];
    }
}

SsimSums stats_scalar(const float* mu_r, const float* mu_c, const float* ref_sq,
                      const float* cmp_sq, const float* both, int n) {
    struct {
        float c1, c2, c3;
    } const k{kStabilizerC1, kStabilizerC2, kStabilizerC3};
    SsimSums sums;
    for (int i = 0; i < n; ++i) {
        const float mr = mu_r[i], mc = mu_c[i];
        float var_r = ref_sq[i] - mr * mr;
        float var_c = cmp_sq[i] - mc * mc;
        var_r = static_cast<float>(c_max(0.0, var_r));
        var_c = static_cast<float>(c_max(0.0, var_c));
        const float cov = both[i] - mr * mc;

        const float sd = static_cast<float>(std::sqrt(static_cast<double>(var_r * var_c)));
        const float l_den = mr * mr + mc * mc + k.c1;
        const double l = (2.0 * mr * mc + k.c1) / l_den;
        const float c_den = var_r + var_c + k.c2;
        const double c = (2.0 * sd + k.c2) / c_den;
        const float cov_clamped = (cov < 0.0f && sd <= 0.0f) ? 0.0f : cov;
        const float s_float = (cov_clamped + k.c3) / (sd + k.c3);
        const double s = s_float;

        sums.ssim += l * c * s;
        sums.l += l;
        sums.c += c;
        sums.s += s;
    }
    return sums;
}

// IQA's KBND_SYMMETRIC: one reflection about each edge.
float mirrored(const float* img, int w, int h, int x, int y) {
    if (x < 0)
        x = -1 - x;
    else if (x >= w)
        x = (w - (x - w)) - 1;
    if (y < 0)
        y = -1 - y;
    else if (y >= h)
        y = (h - (y - h)) - 1;
    return img[static_cast<std::ptrdiff_t>(y) * w + x];
}

void decimate_scalar(const float* src, int w, int h, int factor, const float* kernel, int kw,
                     float* dst) {
    const int sw = decimated_size(w, factor);
    const int sh = decimated_size(h, factor);
    const int r = kw / 2;
    const int last = r - ((kw & 1) ? 0 : 1);  // the last tap's offset
    for (int oy = 0; oy < sh; ++oy) {
        for (int ox = 0; ox < sw; ++ox) {
            const int x = ox * factor;
            const int y = oy * factor;
            const bool edge = x < r || y < r || x >= w - r || y >= h - r;
            double sum = 0.0;
            int t = 0;
            for (int v = -r; v <= last; ++v) {
                const float* row = src + static_cast<std::ptrdiff_t>(y + v) * w + x;
                for (int u = -r; u <= last; ++u, ++t) {
                    const float sample = edge ? mirrored(src, w, h, x + u, y + v) : row[u];
                    sum += sample * kernel[t];
                }
            }
            dst[static_cast<std::ptrdiff_t>(oy) * sw + ox] = static_cast<float>(sum);
        }
    }
}

// The reference pass: libvmaf's sequence of whole-image steps.
SsimSums pass_scalar(const float* ref, const float* cmp, int w, int h, SsimScratch& scratch) {
    const int n = w * h;
    const float* taps = kGaussianTaps.data();
    convolve_scalar(ref, w, h, taps, kWindow, scratch.mu_r(), scratch.cache());
    convolve_scalar(cmp, w, h, taps, kWindow, scratch.mu_c(), scratch.cache());
    products_scalar(ref, cmp, n, scratch.ref_sq(), scratch.cmp_sq(), scratch.both());
    convolve_scalar(scratch.ref_sq(), w, h, taps, kWindow, scratch.ref_sq(), scratch.cache());
    convolve_scalar(scratch.cmp_sq(), w, h, taps, kWindow, scratch.cmp_sq(), scratch.cache());
    convolve_scalar(scratch.both(), w, h, taps, kWindow, scratch.both(), scratch.cache());
    const int on = (w - kWindow + 1) * (h - kWindow + 1);
    return stats_scalar(scratch.mu_r(), scratch.mu_c(), scratch.ref_sq(), scratch.cmp_sq(),
                        scratch.both(), on);
}

}  // namespace

const SsimKernels& ssim_kernels_scalar() {
    static const SsimKernels k{convolve_scalar, products_scalar, stats_scalar, decimate_scalar,
                               pass_scalar};
    return k;
}

bool reads_stay_ahead(int w, int h, int factor, int kw) {
    const int sw = decimated_size(w, factor), sh = decimated_size(h, factor);
    const int r = kw / 2;
    const int last = r - ((kw & 1) ? 0 : 1);
    // IQA's symmetric boundary, once.
    const auto mirror = [](int i, int n) { return i < 0 ? -1 - i : i < n ? i : 2 * n - 1 - i; };
    const auto least = [&](int at, int n) {
        int m = mirror(at - r, n);
        for (int v = -r + 1; v <= last; ++v) m = std::min(m, mirror(at + v, n));
        return m;
    };
    long long g = 0;
    for (int ox = 0; ox < sw; ++ox) {
        const long long d = least(ox * factor, w) - static_cast<long long>(ox);
        g = ox == 0 ? d : std::min(g, d);
    }
    for (int oy = 0; oy < sh; ++oy)
        if (static_cast<long long>(least(oy * factor, h)) * w + g <
            static_cast<long long>(oy) * sw)
            return false;
    return true;
}

SsimResult ssim_pass(const SsimKernels& k, const float* ref, const float* cmp, int w, int h,
                     SsimScratch& scratch) {
    const SsimSums sums = k.pass(ref, cmp, w, h, scratch);
    const double count = static_cast<double>((w - kWindow + 1) * (h - kWindow + 1));
    return {static_cast<float>(sums.ssim / count), static_cast<float>(sums.l / count),
            static_cast<float>(sums.c / count), static_cast<float>(sums.s / count)};
}

}  // namespace vmafpp::ssim
