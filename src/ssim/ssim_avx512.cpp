// AVX-512 twins of the SSIM kernels (ssim_kernels.hpp): the fused pass, the
// statistics and the decimation (any factor) of ssim_pass_rows.hpp on eight
// samples at a time, floats in
// a ymm and doubles in a zmm, so widening and narrowing never cross lanes.
// Lanes hold different samples, never parts of one sum.
#include <immintrin.h>

#include "dispatch/x86_lanes.hpp"
#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

struct Avx512 {
    VMAFPP_X86_LANES(8, __m256, _mm256, , __m512d, _mm512, d)
    // Ordered compares: false for NaN, which is kept.
    static F zero_if_negative(F v) {
        return _mm256_maskz_mov_ps(
            static_cast<__mmask8>(~_mm256_cmp_ps_mask(v, _mm256_setzero_ps(), _CMP_LT_OQ)), v);
    }
    static F zero_if_negative_and_flat(F cov, F sd) {
        const __mmask8 flat = _mm256_cmp_ps_mask(cov, _mm256_setzero_ps(), _CMP_LT_OQ) &
                              _mm256_cmp_ps_mask(sd, _mm256_setzero_ps(), _CMP_LE_OQ);
        return _mm256_maskz_mov_ps(static_cast<__mmask8>(~flat), cov);
    }
};

SsimSums stats_avx512(const float* mu_r, const float* mu_c, const float* ref_sq,
                      const float* cmp_sq, const float* both, int n) {
    return stats_rows<Avx512>(mu_r, mu_c, ref_sq, cmp_sq, both, n);
}

SsimSums pass_avx512(const float* ref, const float* cmp, int w, int h, SsimScratch& scratch) {
    return fused_pass<Avx512>(ref, cmp, w, h, scratch);
}

// MS-SSIM's low-pass (factor 2) and float_ssim's in-place box, through
// ssim_pass_rows.hpp's phased rows; an in-place call whose outputs could
// read earlier ones goes to the scalar.
void decimate_avx512(const float* src, int w, int h, int factor, const float* kernel, int kw,
                     float* dst) {
    decimate_rows<Avx512>(src, w, h, factor, kernel, kw, dst);
}

}  // namespace

void ssim_init_avx512(SsimKernels& k) {
    k.stats = stats_avx512;
    k.decimate = decimate_avx512;
    k.pass = pass_avx512;
}

}  // namespace vmafpp::ssim
