// AVX-512 twins of the SSIM kernels (ssim_kernels.hpp): the convolution,
// the fused pass, the statistics and the decimation (any factor) of
// ssim_pass_rows.hpp on eight samples at a time, floats in a ymm and doubles
// in a zmm, so widening and narrowing never cross lanes.
// Lanes hold different samples, never parts of one sum.
#include <immintrin.h>

#include "dispatch/x86_lanes.hpp"
#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

struct Avx512 {
    VMAFPP_X86_LANES(8, __m256, _mm256, , __m512d, _mm512, d)
    static D dloadu(const double* p) { return _mm512_loadu_pd(p); }
    static F fsqrt(F v) { return _mm256_sqrt_ps(v); }
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

}  // namespace

void ssim_init_avx512(SsimKernels& k) { install_twins<Avx512>(k); }

}  // namespace vmafpp::ssim
