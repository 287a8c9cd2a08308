// AVX-512 twins of ciede's delta E and Lab conversion (ciede_simd.hpp over
// eight double lanes) and of its cache keys.
#include <immintrin.h>
#include <math.h>

#include <cstdint>

#include "ciede/ciede_kernels.hpp"
#include "ciede/ciede_simd.hpp"
#include "dispatch/x86_lanes.hpp"

namespace vmafpp::ciede {

namespace {

// Eight doubles, and the same lanes as floats for the scalar's float
// operations; a mask is a k register.
struct Avx512 {
    VMAFPP_X86_LANES(8, __m256, _mm256, f, __m512d, _mm512, )
    using M = __mmask8;

    static M fzero(F v) { return _mm256_cmp_ps_mask(v, _mm256_setzero_ps(), _CMP_EQ_OQ); }
    // a == b of float lanes (ordered: false for NaN).
    static M feq(F a, F b) { return _mm256_cmp_ps_mask(a, b, _CMP_EQ_OQ); }

    VMAFPP_X86_DOUBLE_SIGNS(_mm512)
    static D round(D a) {
        return _mm512_roundscale_pd(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    }

    static M lt(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
    static M le(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
    static M gt(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
    static M eq(D a, D b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
    static M mask_and(M a, M b) { return static_cast<M>(a & b); }
    static M mask_or(M a, M b) { return static_cast<M>(a | b); }
    static M mask_xor(M a, M b) { return static_cast<M>(a ^ b); }
    static unsigned bits(M m) { return m; }
    // a b + c, one rounding (the polynomials' steps; FMA is part of AVX-512F).
    static D fma(D a, D b, D c) { return _mm512_fmadd_pd(a, b, c); }
    // m ? a : b, lane by lane.
    static D select(M m, D a, D b) { return _mm512_mask_blend_pd(m, b, a); }
    // m ? a : +0.
    static D keep(M m, D a) { return _mm512_maskz_mov_pd(m, a); }
    // m ? +0 : a.
    static D drop(M m, D a) { return _mm512_maskz_mov_pd(static_cast<M>(~m), a); }
    // m ? -a : a (the sign bit flipped, as neg).
    static D flip(M m, D a) { return _mm512_mask_xor_pd(a, m, a, _mm512_set1_pd(-0.0)); }
    // The smaller and larger of two numbers (no NaN).
    static D min(D a, D b) { return _mm512_min_pd(a, b); }
    static D max(D a, D b) { return _mm512_max_pd(a, b); }

    // Lanes whose integer k (|k| < 2^31) has bit b set.
    static M bit(D k, int b) {
        return _mm256_test_epi32_mask(_mm512_cvtpd_epi32(k), _mm256_set1_epi32(b));
    }
    // 2^k for an integer k in [-1022, 1023].
    static D exp2i(D k) {
        const __m256i e = _mm256_add_epi32(_mm512_cvtpd_epi32(k), _mm256_set1_epi32(1023));
        return _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_cvtepi32_epi64(e), 52));
    }
    // x = 2^k m with m in [1, 2), for a positive normal x.
    static void split(D x, D& m, D& k) {
        m = _mm512_getmant_pd(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
        k = _mm512_getexp_pd(x);
    }
    // powf(x, 7.0f) of float lanes, by libm as the scalar calls it.
    static F powf7(F x) {
        alignas(32) float v[kLanes];
        _mm256_store_ps(v, x);
        for (float& e : v) e = powf(e, 7.0f);
        return _mm256_load_ps(v);
    }
};

// Lab cache keys of eight triples, each component zero-extended to 64 bits.
__m512i lab_keys(__m128i y, __m128i u, __m128i v, int bits, __m512i valid) {
    const __m512i ky = _mm512_cvtepu16_epi64(y);
    const __m512i ku = _mm512_sll_epi64(_mm512_cvtepu16_epi64(u), _mm_cvtsi32_si128(bits));
    const __m512i kv = _mm512_sll_epi64(_mm512_cvtepu16_epi64(v), _mm_cvtsi32_si128(2 * bits));
    return _mm512_or_si512(_mm512_or_si512(valid, ky), _mm512_or_si512(ku, kv));
}

// Their sets: the top kLabSetBits bits of key * kLabHash (the low 64 bits
// of the product, as the scalar's uint64_t multiplication), as 32 bits.
__m256i lab_sets(__m512i keys) {
    const __m512i product =
        _mm512_mullo_epi64(keys, _mm512_set1_epi64(static_cast<long long>(ciede::kLabHash)));
    return _mm512_cvtepi64_epi32(_mm512_srli_epi64(product, 64 - ciede::kLabSetBits));
}

// Their LabBlocks groups (LabSets::groups; 8-bit samples): y >> 4 | u << 4
// | v << 12.
__m256i lab_groups(__m128i y, __m128i u, __m128i v) {
    const __m256i gy = _mm256_srli_epi32(_mm256_cvtepu16_epi32(y), 4);
    const __m256i gu = _mm256_slli_epi32(_mm256_cvtepu16_epi32(u), 4);
    const __m256i gv = _mm256_slli_epi32(_mm256_cvtepu16_epi32(v), 12);
    return _mm256_or_si256(gy, _mm256_or_si256(gu, gv));
}

// CiedeKeysFn with sets Sets, eight columns at a time: each array gets a
// whole vector at n (compressed: the differing pixels first), so up to 8
// entries past the count are written; the last x1 - x0 mod 8 columns by the
// scalar's loop.
template <LabSets Sets>
int keys_with(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x0,
              int x1, int bits, float* out, const LabKeys& keys) {
    const __m512i valid = _mm512_set1_epi64(static_cast<long long>(std::uint64_t{1} << (3 * bits)));
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    int n = 0;
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        const auto load = [x](const std::uint16_t* p) {
            return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + x));
        };
        const __m128i ry = load(ref[0]), ru = load(ref[1]), rv = load(ref[2]);
        const __m128i dy = load(dis[0]), du = load(dis[1]), dv = load(dis[2]);
        const __mmask8 same =
            static_cast<__mmask8>(_mm_cmpeq_epi16_mask(ry, dy) & _mm_cmpeq_epi16_mask(ru, du) &
                                  _mm_cmpeq_epi16_mask(rv, dv));
        // Pixels whose six samples are their left neighbour's (kSameAsLeft;
        // at column 0 the samples one lane up, lane 0's 0: only a pixel
        // whose two triples are 0 would repeat them, and it is equal, so
        // never marked).
        const auto left = [x](const std::uint16_t* p, __m128i at_x) {
            return x > 0 ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + x - 1))
                         : _mm_slli_si128(at_x, 2);
        };
        const __mmask8 repeat = static_cast<__mmask8>(
            _mm_cmpeq_epi16_mask(ry, left(ref[0], ry)) & _mm_cmpeq_epi16_mask(ru, left(ref[1], ru)) &
            _mm_cmpeq_epi16_mask(rv, left(ref[2], rv)) & _mm_cmpeq_epi16_mask(dy, left(dis[0], dy)) &
            _mm_cmpeq_epi16_mask(du, left(dis[1], du)) & _mm_cmpeq_epi16_mask(dv, left(dis[2], dv)) &
            ~same);
        _mm256_mask_storeu_ps(out + x, same, _mm256_setzero_ps());
        _mm256_mask_storeu_ps(out + x, repeat, _mm256_set1_ps(kSameAsLeft));
        const __mmask8 differ = static_cast<__mmask8>(~(same | repeat));
        if (differ == 0) continue;
        const __m512i kr = lab_keys(ry, ru, rv, bits, valid);
        const __m512i kd = lab_keys(dy, du, dv, bits, valid);
        _mm512_storeu_si512(keys.key[0] + n, _mm512_maskz_compress_epi64(differ, kr));
        _mm512_storeu_si512(keys.key[1] + n, _mm512_maskz_compress_epi64(differ, kd));
        const __m256i sr = Sets == LabSets::groups ? lab_groups(ry, ru, rv) : lab_sets(kr);
        const __m256i sd = Sets == LabSets::groups ? lab_groups(dy, du, dv) : lab_sets(kd);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(keys.set[0] + n),
                            _mm256_maskz_compress_epi32(differ, sr));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(keys.set[1] + n),
                            _mm256_maskz_compress_epi32(differ, sd));
        _mm256_storeu_si256(
            reinterpret_cast<__m256i*>(keys.where + n),
            _mm256_maskz_compress_epi32(differ, _mm256_add_epi32(_mm256_set1_epi32(x), lanes)));
        n += __builtin_popcount(differ);
    }
    return ciede::simd::keys_tail(ref, dis, x, x1, bits, Sets, out, keys, n);
}

int keys_avx512(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x0,
                int x1, int bits, LabSets sets, float* out, const LabKeys& keys) {
    return sets == LabSets::groups ? keys_with<LabSets::groups>(ref, dis, x0, x1, bits, out, keys)
                                   : keys_with<LabSets::hashed>(ref, dis, x0, x1, bits, out, keys);
}

}  // namespace

void ciede_init_avx512(CiedeKernels& k) {
    ciede::simd::install_twins<Avx512>(k);
    k.keys = keys_avx512;
}

}  // namespace vmafpp::ciede
