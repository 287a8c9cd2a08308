// AVX2 twins of the SSIM kernels (ssim_kernels.hpp). Each computes several
// outputs at once and keeps every output's own order of operations: products
// in float, each widened to double and added to a double sum in tap order,
// the sum rounded to float once (vcvtpd2ps rounds to nearest, as a C cast).
// Vector lanes hold different outputs, never parts of one sum, so the bits
// are the scalar's.
#include <immintrin.h>

#include <cstddef>

#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

// ssim_pass_rows.hpp's vector: four samples, floats in an xmm and doubles in
// a ymm (no lane crossing to widen or narrow).
struct Avx2 {
    static constexpr int kLanes = 4;
    using F = __m128;
    using D = __m256d;
    static F load(const float* p) { return _mm_loadu_ps(p); }
    static void store(float* p, F v) { _mm_storeu_ps(p, v); }
    static F set(float v) { return _mm_set1_ps(v); }
    static F add(F a, F b) { return _mm_add_ps(a, b); }
    static F sub(F a, F b) { return _mm_sub_ps(a, b); }
    static F mul(F a, F b) { return _mm_mul_ps(a, b); }
    static F div(F a, F b) { return _mm_div_ps(a, b); }
    static D widen(F v) { return _mm256_cvtps_pd(v); }
    static F narrow(D v) { return _mm256_cvtpd_ps(v); }
    static D setd(double v) { return _mm256_set1_pd(v); }
    static D addd(D a, D b) { return _mm256_add_pd(a, b); }
    static D muld(D a, D b) { return _mm256_mul_pd(a, b); }
    static D divd(D a, D b) { return _mm256_div_pd(a, b); }
    static D sqrtd(D v) { return _mm256_sqrt_pd(v); }
    static void stored(double* p, D v) { _mm256_store_pd(p, v); }
    // Ordered compares: false for NaN, which is kept.
    static F zero_if_negative(F v) {
        return _mm_andnot_ps(_mm_cmp_ps(v, _mm_setzero_ps(), _CMP_LT_OQ), v);
    }
    static F zero_if_negative_and_flat(F cov, F sd) {
        const F flat = _mm_and_ps(_mm_cmp_ps(cov, _mm_setzero_ps(), _CMP_LT_OQ),
                                  _mm_cmp_ps(sd, _mm_setzero_ps(), _CMP_LE_OQ));
        return _mm_andnot_ps(flat, cov);
    }
};

SsimSums stats_avx2(const float* mu_r, const float* mu_c, const float* ref_sq, const float* cmp_sq,
                    const float* both, int n) {
    return stats_rows<Avx2>(mu_r, mu_c, ref_sq, cmp_sq, both, n);
}

SsimSums pass_avx2(const float* ref, const float* cmp, int w, int h, SsimScratch& scratch) {
    return fused_pass<Avx2>(ref, cmp, w, h, scratch);
}

// Sums of 8 adjacent outputs: lanes 0-3 and 4-7 as two double vectors.
struct Sum8 {
    __m256d lo = _mm256_setzero_pd();
    __m256d hi = _mm256_setzero_pd();

    // sum += double(float(samples * tap)) in each lane.
    void add(__m256 samples, __m256 tap) {
        const __m256 p = _mm256_mul_ps(samples, tap);
        lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm256_castps256_ps128(p)));
        hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm256_extractf128_ps(p, 1)));
    }
    void store(float* out) const {
        const __m128 a = _mm256_cvtpd_ps(lo);
        const __m128 b = _mm256_cvtpd_ps(hi);
        _mm256_storeu_ps(out, _mm256_set_m128(b, a));
    }
};

// One output of the scalar formula, for the columns a vector does not fill.
float tap_sum(const float* in, std::ptrdiff_t step, const float* taps, int n) {
    double sum = 0.0;
    for (int k = 0; k < n; ++k) sum += in[k * step] * taps[k];
    return static_cast<float>(sum);
}

void convolve_avx2(const float* src, int w, int h, const float* taps, int n, float* dst,
                   float* cache) {
    const int ow = w - n + 1;
    const int oh = h - n + 1;
    for (int y = 0; y < h; ++y) {
        const float* in = src + static_cast<std::ptrdiff_t>(y) * w;
        float* out = cache + static_cast<std::ptrdiff_t>(y) * ow;
        int x = 0;
        for (; x + 8 <= ow; x += 8) {
            Sum8 s;
            // in[x + k + 7] <= in[ow - 1 + n - 1] = in[w - 1]: inside the row.
            for (int k = 0; k < n; ++k)
                s.add(_mm256_loadu_ps(in + x + k), _mm256_set1_ps(taps[k]));
            s.store(out + x);
        }
        for (; x < ow; ++x) out[x] = tap_sum(in + x, 1, taps, n);
    }
    // The vertical pass reads only the cache, so dst may be src.
    for (int y = 0; y < oh; ++y) {
        const float* col = cache + static_cast<std::ptrdiff_t>(y) * ow;
        float* out = dst + static_cast<std::ptrdiff_t>(y) * ow;
        int x = 0;
        for (; x + 8 <= ow; x += 8) {
            Sum8 s;
            for (int k = 0; k < n; ++k)
                s.add(_mm256_loadu_ps(col + static_cast<std::ptrdiff_t>(k) * ow + x),
                      _mm256_set1_ps(taps[k]));
            s.store(out + x);
        }
        for (; x < ow; ++x) out[x] = tap_sum(col + x, ow, taps, n);
    }
}

// IQA's KBND_SYMMETRIC, as the scalar's.
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

// One decimated output, exactly the scalar's loop.
float decimate_one(const float* src, int w, int h, int x, int y, const float* kernel, int kw) {
    const int r = kw / 2;
    const int last = r - ((kw & 1) ? 0 : 1);
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
    return static_cast<float>(sum);
}

// Factor 2 (MS-SSIM's), not in place: four outputs of a row at a time, whose
// samples for one tap are the even lanes of 8 consecutive floats. In place
// (float_ssim's box decimation) a later output may read an earlier one's
// store, so that stays on the scalar order.
void decimate_avx2(const float* src, int w, int h, int factor, const float* kernel, int kw,
                   float* dst) {
    if (factor != 2 || src == dst) {
        ssim_kernels_scalar().decimate(src, w, h, factor, kernel, kw, dst);
        return;
    }
    const int sw = decimated_size(w, 2);
    const int sh = decimated_size(h, 2);
    const int r = kw / 2;
    const int last = r - ((kw & 1) ? 0 : 1);
    const __m256i evens = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    for (int oy = 0; oy < sh; ++oy) {
        const int y = oy * 2;
        float* out = dst + static_cast<std::ptrdiff_t>(oy) * sw;
        const bool edge_row = y < r || y >= h - r;
        int ox = 0;
        for (; ox < sw; ++ox) {
            const int x = ox * 2;
            // A group of eight (or four) outputs needs every one off the
            // edges and its 8-float loads, up to x + 2 * (g - 1) + last + 1,
            // inside the row.
            auto fits = [&](int g) {
                return !edge_row && x >= r && x + 2 * (g - 1) < w - r &&
                       x + 2 * (g - 1) + 1 + last < w && ox + g <= sw;
            };
            if (fits(8)) {
                // Two independent sums per tap: twice the additions in flight.
                __m256d a = _mm256_setzero_pd(), b = _mm256_setzero_pd();
                int t = 0;
                for (int v = -r; v <= last; ++v) {
                    const float* row = src + static_cast<std::ptrdiff_t>(y + v) * w + x;
                    for (int u = -r; u <= last; ++u, ++t) {
                        const __m256 tap = _mm256_set1_ps(kernel[t]);
                        const __m256 e0 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(row + u), evens);
                        const __m256 e1 =
                            _mm256_permutevar8x32_ps(_mm256_loadu_ps(row + u + 8), evens);
                        // Low halves: the even samples of each load.
                        const __m256 p = _mm256_mul_ps(
                            _mm256_permute2f128_ps(e0, e1, 0x20), tap);
                        a = _mm256_add_pd(a, _mm256_cvtps_pd(_mm256_castps256_ps128(p)));
                        b = _mm256_add_pd(b, _mm256_cvtps_pd(_mm256_extractf128_ps(p, 1)));
                    }
                }
                _mm256_storeu_ps(out + ox, _mm256_set_m128(_mm256_cvtpd_ps(b), _mm256_cvtpd_ps(a)));
                ox += 7;
                continue;
            }
            if (!fits(4)) {
                out[ox] = decimate_one(src, w, h, x, y, kernel, kw);
                continue;
            }
            __m256d sum = _mm256_setzero_pd();
            int t = 0;
            for (int v = -r; v <= last; ++v) {
                const float* row = src + static_cast<std::ptrdiff_t>(y + v) * w + x;
                for (int u = -r; u <= last; ++u, ++t) {
                    const __m256 eight = _mm256_loadu_ps(row + u);
                    const __m128 four =
                        _mm256_castps256_ps128(_mm256_permutevar8x32_ps(eight, evens));
                    const __m128 p = _mm_mul_ps(four, _mm_set1_ps(kernel[t]));
                    sum = _mm256_add_pd(sum, _mm256_cvtps_pd(p));
                }
            }
            _mm_storeu_ps(out + ox, _mm256_cvtpd_ps(sum));
            ox += 3;
        }
    }
}

}  // namespace

void ssim_init_avx2(SsimKernels& k) {
    k.convolve = convolve_avx2;
    k.stats = stats_avx2;
    k.decimate = decimate_avx2;
    k.pass = pass_avx2;
}

}  // namespace vmafpp::ssim
