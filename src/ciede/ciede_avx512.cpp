// AVX-512 twin of ciede's delta E: ciede_simd.hpp over eight double lanes.
//
// GCC 12's AVX-512 headers build their "undefined" vectors by
// self-initialisation (GCC PR 105593), which the uninitialised-use warnings
// report wherever such an intrinsic is inlined; they concern the header, so
// they are off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <math.h>
#include <cstdint>

#include "ciede/ciede_kernels.hpp"
#include "ciede/ciede_simd.hpp"

namespace vmafpp {

namespace {

// Eight doubles; a mask is a k register.
struct Avx512 {
    static constexpr int kLanes = 8;
    using D = __m512d;
    using M = __mmask8;

    static D set(double v) { return _mm512_set1_pd(v); }
    static D load(const double* p) { return _mm512_load_pd(p); }
    static void store(double* p, D v) { _mm512_store_pd(p, v); }
    static D load_f32(const float* p) { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
    static void store_f32(float* p, D v) { _mm256_storeu_ps(p, _mm512_cvtpd_ps(v)); }
    // To float and back (round to nearest, MXCSR's default).
    static D f32(D v) { return _mm512_cvtps_pd(_mm512_cvtpd_ps(v)); }

    // The same eight lanes as floats, for the scalar's float operations.
    using F = __m256;
    static F fset(float v) { return _mm256_set1_ps(v); }
    static F fload(const float* p) { return _mm256_loadu_ps(p); }
    static void fstore(float* p, F v) { _mm256_storeu_ps(p, v); }
    static F fadd(F a, F b) { return _mm256_add_ps(a, b); }
    static F fsub(F a, F b) { return _mm256_sub_ps(a, b); }
    static F fmul(F a, F b) { return _mm256_mul_ps(a, b); }
    static F fdiv(F a, F b) { return _mm256_div_ps(a, b); }
    static D widen(F v) { return _mm512_cvtps_pd(v); }
    static F narrow(D v) { return _mm512_cvtpd_ps(v); }
    static M fzero(F v) { return _mm256_cmp_ps_mask(v, _mm256_setzero_ps(), _CMP_EQ_OQ); }

    static D add(D a, D b) { return _mm512_add_pd(a, b); }
    static D sub(D a, D b) { return _mm512_sub_pd(a, b); }
    static D mul(D a, D b) { return _mm512_mul_pd(a, b); }
    static D div(D a, D b) { return _mm512_div_pd(a, b); }
    static D sqrt(D a) { return _mm512_sqrt_pd(a); }
    static D neg(D a) { return _mm512_xor_pd(a, _mm512_set1_pd(-0.0)); }
    static D abs(D a) { return _mm512_andnot_pd(_mm512_set1_pd(-0.0), a); }
    static D copysign(D mag, D sign) {
        const D s = _mm512_set1_pd(-0.0);
        return _mm512_or_pd(_mm512_andnot_pd(s, mag), _mm512_and_pd(s, sign));
    }
    static D round(D a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }

    static M lt(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
    static M le(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
    static M gt(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
    static M eq(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
    static M mask_and(M a, M b) { return static_cast<M>(a & b); }
    static M mask_or(M a, M b) { return static_cast<M>(a | b); }
    static M mask_xor(M a, M b) { return static_cast<M>(a ^ b); }
    static unsigned bits(M m) { return m; }
    // m ? a : b, lane by lane.
    static D select(M m, D a, D b) { return _mm512_mask_blend_pd(m, b, a); }

    // Lanes whose integer k (|k| < 2^31) has bit b set.
    static M bit(D k, int b) {
        return _mm256_test_epi32_mask(_mm512_cvtpd_epi32(k), _mm256_set1_epi32(b));
    }
    // 2^k for an integer k in [-1022, 1023].
    static D exp2i(D k) {
        const __m256i e = _mm256_add_epi32(_mm512_cvtpd_epi32(k), _mm256_set1_epi32(1023));
        return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_cvtepi32_epi64(e), 52));
    }
    // powf(x, 7.0f) of float lanes, by libm as the scalar calls it.
    static F powf7(F x) {
        alignas(32) float v[kLanes];
        _mm256_store_ps(v, x);
        for (float& e : v) e = powf(e, 7.0f);
        return _mm256_load_ps(v);
    }
};

}  // namespace

void ciede_init_avx512(CiedeKernels& k) {
    k.delta_e = ciede::simd::delta_e<ciede::simd::FourChains<Avx512>>;
    k.libm = ciede::simd::libm<Avx512>;
}

}  // namespace vmafpp
