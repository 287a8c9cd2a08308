// AVX2 twins of the SSIM kernels (ssim_kernels.hpp): convolve here, the
// statistics, the fused pass and the decimation (any factor) from
// ssim_pass_rows.hpp on four samples at a time. Each computes several
// outputs at once and keeps every output's own order of operations: products
// in float, each widened to double and added to a double sum in tap order,
// the sum rounded to float once (vcvtpd2ps rounds to nearest, as a C cast).
// Vector lanes hold different outputs, never parts of one sum, so the bits
// are the scalar's.
#include <immintrin.h>

#include <cstddef>

#include "dispatch/x86_lanes.hpp"
#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

// ssim_pass_rows.hpp's vector: four samples, floats in an xmm and doubles in
// a ymm (no lane crossing to widen or narrow).
struct Avx2 {
    VMAFPP_X86_LANES(4, __m128, _mm, , __m256d, _mm256, d)
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
            for (int k = 0; k < n; ++k) s.add(_mm256_loadu_ps(in + x + k), _mm256_set1_ps(taps[k]));
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

// MS-SSIM's low-pass (factor 2) and float_ssim's in-place box, through
// ssim_pass_rows.hpp's phased rows; an in-place call whose outputs could
// read earlier ones goes to the scalar.
void decimate_avx2(const float* src, int w, int h, int factor, const float* kernel, int kw,
                   float* dst) {
    decimate_rows<Avx2>(src, w, h, factor, kernel, kw, dst);
}

}  // namespace

void ssim_init_avx2(SsimKernels& k) {
    k.convolve = convolve_avx2;
    k.stats = stats_avx2;
    k.decimate = decimate_avx2;
    k.pass = pass_avx2;
}

}  // namespace vmafpp::ssim
