// AVX2 twins of the SSIM kernels (ssim_kernels.hpp): the convolution, the
// statistics, the fused pass and the decimation (any factor) of
// ssim_pass_rows.hpp on four samples at a time. Each computes several
// outputs at once and keeps every output's own order of operations: products
// in float, each widened to double and added to a double sum in tap order,
// the sum rounded to float once (vcvtpd2ps rounds to nearest, as a C cast).
// Vector lanes hold different outputs, never parts of one sum, so the bits
// are the scalar's.
#include <immintrin.h>

#include "dispatch/x86_lanes.hpp"
#include "ssim/ssim_kernels.hpp"
#include "ssim/ssim_pass_rows.hpp"

namespace vmafpp::ssim {

namespace {

// ssim_pass_rows.hpp's vector: four samples, floats in an xmm and doubles in
// a ymm (no lane crossing to widen or narrow).
struct Avx2 {
    VMAFPP_X86_LANES(4, __m128, _mm, , __m256d, _mm256, d)
    static D dloadu(const double* p) { return _mm256_loadu_pd(p); }
    static F fsqrt(F v) { return _mm_sqrt_ps(v); }
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

}  // namespace

void ssim_init_avx2(SsimKernels& k) { install_twins<Avx2>(k); }

}  // namespace vmafpp::ssim
