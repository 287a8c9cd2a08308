// AVX2 twins of ciede's delta E and Lab conversion: ciede_simd.hpp over four
// double lanes.
#include <immintrin.h>
#include <math.h>

#include <cstdint>

#include "ciede/ciede_kernels.hpp"
#include "ciede/ciede_simd.hpp"
#include "dispatch/x86_lanes.hpp"

namespace vmafpp::ciede {

namespace {

// Four doubles, and the same lanes as floats for the scalar's float
// operations; a mask is a vector of all-ones or all-zeros lanes.
struct Avx2 {
    VMAFPP_X86_LANES(4, __m128, _mm, f, __m256d, _mm256, )
    using M = __m256d;

    static D load_f32(const float* p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
    static void store_f32(float* p, D v) { _mm_storeu_ps(p, _mm256_cvtpd_ps(v)); }
    // To float and back (round to nearest, MXCSR's default).
    static D f32(D v) { return _mm256_cvtps_pd(_mm256_cvtpd_ps(v)); }

    // A float lane's all-ones or all-zeros, sign-extended to its double lane.
    static M fzero(F v) {
        const __m128i z = _mm_castps_si128(_mm_cmpeq_ps(v, _mm_setzero_ps()));
        return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(z));
    }

    static D neg(D a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
    static D abs(D a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
    static D copysign(D mag, D sign) {
        const D s = _mm256_set1_pd(-0.0);
        return _mm256_or_pd(_mm256_andnot_pd(s, mag), _mm256_and_pd(s, sign));
    }
    static D round(D a) {
        return _mm256_round_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }

    static M lt(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
    static M le(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
    static M gt(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
    static M eq(D a, D b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
    static M mask_and(M a, M b) { return _mm256_and_pd(a, b); }
    static M mask_or(M a, M b) { return _mm256_or_pd(a, b); }
    static M mask_xor(M a, M b) { return _mm256_xor_pd(a, b); }
    static unsigned bits(M m) { return static_cast<unsigned>(_mm256_movemask_pd(m)); }
    // m ? a : b, lane by lane.
    static D select(M m, D a, D b) { return _mm256_blendv_pd(b, a, m); }

    // Lanes whose integer k (|k| < 2^31) has bit b set.
    static M bit(D k, int b) {
        const __m128i ki = _mm256_cvtpd_epi32(k);
        const __m128i set =
            _mm_cmpeq_epi32(_mm_and_si128(ki, _mm_set1_epi32(b)), _mm_set1_epi32(b));
        return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(set));
    }
    // 2^k for an integer k in [-1022, 1023].
    static D exp2i(D k) {
        const __m128i e = _mm_add_epi32(_mm256_cvtpd_epi32(k), _mm_set1_epi32(1023));
        return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_cvtepi32_epi64(e), 52));
    }
    // x = 2^k m with m in [1, 2), for a positive normal x: the exponent
    // field e as the double 2^52 + e (its bits ORed into 2^52's), less
    // 2^52 + 1023.
    static void split(D x, D& m, D& k) {
        const __m256i bits = _mm256_castpd_si256(x);
        const __m256i mantissa = _mm256_and_si256(bits, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFll));
        m = _mm256_castsi256_pd(
            _mm256_or_si256(mantissa, _mm256_set1_epi64x(0x3FF0000000000000ll)));
        const __m256i e = _mm256_srli_epi64(bits, 52);
        const D biased =
            _mm256_castsi256_pd(_mm256_or_si256(e, _mm256_set1_epi64x(0x4330000000000000ll)));
        k = _mm256_sub_pd(biased, _mm256_set1_pd(0x1p52 + 1023.0));
    }
    // powf(x, 7.0f) of float lanes, by libm as the scalar calls it.
    static F powf7(F x) {
        alignas(16) float v[kLanes];
        _mm_store_ps(v, x);
        for (float& e : v) e = powf(e, 7.0f);
        return _mm_load_ps(v);
    }
};

}  // namespace

void ciede_init_avx2(CiedeKernels& k) {
    k.delta_e = ciede::simd::delta_e<ciede::simd::FourChains<Avx2>>;
    k.libm = ciede::simd::libm<Avx2>;
    k.lab = ciede::simd::lab<ciede::simd::Twice<Avx2>>;
}

}  // namespace vmafpp::ciede
