// Eight int32 and float lanes in AVX2 registers, the operations
// psnr_hvs_simd.hpp asks of V: the AVX2 twin's lanes, and the AVX-512 twin's
// for the ends of rows. In an anonymous namespace, so that each ISA file
// compiles its own copy with its own flags.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace vmafpp::psnr_hvs::simd {
namespace {

struct Avx2 {
    static constexpr int kLanes = 8;

    // Eight int32 lanes with the operators fdct8_lifting uses.
    struct I {
        __m256i v;
        friend I operator+(I a, I b) { return {_mm256_add_epi32(a.v, b.v)}; }
        friend I operator-(I a, I b) { return {_mm256_sub_epi32(a.v, b.v)}; }
    };
    struct Dct {
        // (a + (a < 0)) >> 1: a - (a >> 31) adds one to a negative a.
        static I half(I a) {
            return {_mm256_srai_epi32(_mm256_sub_epi32(a.v, _mm256_srai_epi32(a.v, 31)), 1)};
        }
        // 32-bit products: the scalar forms them in 64 bits, but for samples
        // of up to 12 bits (psnr_hvs refuses more) they fit 32 bits
        // (checkasm's psnr_hvs_plane bands at 12 bits with extreme fills hold
        // the twin to the scalar there).
        static I lift(I u, std::int32_t c, int s) {
            const __m256i p = _mm256_mullo_epi32(u.v, _mm256_set1_epi32(c));
            return {_mm256_srai_epi32(_mm256_add_epi32(p, _mm256_set1_epi32(1 << (s - 1))), s)};
        }
    };
    using F = __m256;
    using M = __m256;

    static I load_i32(const std::int32_t* p) {
        return {_mm256_load_si256(reinterpret_cast<const __m256i*>(p))};
    }
    static F to_float(I a) { return _mm256_cvtepi32_ps(a.v); }
    static F set(float v) { return _mm256_set1_ps(v); }
    static F add(F a, F b) { return _mm256_add_ps(a, b); }
    static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
    static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
    static F div(F a, F b) { return _mm256_div_ps(a, b); }
    static M gt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
    static F select(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }
    static F zero_where(M m, F a) { return _mm256_andnot_ps(m, a); }
    static I abs_diff(I a, I b) { return {_mm256_abs_epi32(_mm256_sub_epi32(a.v, b.v))}; }
    static I square(I a) { return {_mm256_mullo_epi32(a.v, a.v)}; }
    static void store(float* p, F v) { _mm256_store_ps(p, v); }
    // float(sqrt(double(x)) / 32): dividing by 32 is exact in double, one
    // rounding to float follows.
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
