// Eight int32 and float lanes in AVX2 registers, the operations
// psnr_hvs_simd.hpp asks of V: the AVX2 twin's lanes, and the AVX-512 twin's
// for the ends of rows. In an anonymous namespace, so that each ISA file
// compiles its own copy with its own flags.
#pragma once

#include <immintrin.h>

#include <cstdint>

#include "dispatch/x86_lanes.hpp"

namespace vmafpp::psnr_hvs::simd {
namespace {

struct Avx2 {
    VMAFPP_X86_FLOAT_LANES(8, __m256, _mm256, )
    VMAFPP_X86_INT_LANES(__m256i, _mm256, si256)
    VMAFPP_X86_INT_FLOAT(_mm256)
    using M = __m256;
    static M gt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
    static F select(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }
    static F zero_where(M m, F a) { return _mm256_andnot_ps(m, a); }
    static F sqrt_div32(F x) {
        const __m256d k32 = _mm256_set1_pd(32.0);
        const __m256d lo = _mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)));
        const __m256d hi = _mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
        return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_div_pd(hi, k32)),
                               _mm256_cvtpd_ps(_mm256_div_pd(lo, k32)));
    }
};

}  // namespace
}  // namespace vmafpp::psnr_hvs::simd
