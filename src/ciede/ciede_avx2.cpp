// AVX2 twins of ciede's delta E and Lab conversion (ciede_simd.hpp over four
// double lanes) and of its cache keys.
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

    // A float lane's all-ones or all-zeros, sign-extended to its double lane.
    static M fzero(F v) {
        const __m128i z = _mm_castps_si128(_mm_cmpeq_ps(v, _mm_setzero_ps()));
        return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(z));
    }
    // a == b of float lanes (ordered: false for NaN), sign-extended to the
    // double lanes.
    static M feq(F a, F b) {
        return _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_castps_si128(_mm_cmpeq_ps(a, b))));
    }

    VMAFPP_X86_DOUBLE_SIGNS(_mm256)
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
    // a b + c, one rounding (the polynomials' steps).
    static D fma(D a, D b, D c) { return _mm256_fmadd_pd(a, b, c); }
    // m ? a : b, lane by lane.
    static D select(M m, D a, D b) { return _mm256_blendv_pd(b, a, m); }
    // m ? a : +0 (one AND; a blend is 2 or 3 uops on Intel cores).
    static D keep(M m, D a) { return _mm256_and_pd(m, a); }
    // m ? +0 : a.
    static D drop(M m, D a) { return _mm256_andnot_pd(m, a); }
    // m ? -a : a (the sign bit flipped, as neg).
    static D flip(M m, D a) { return _mm256_xor_pd(a, _mm256_and_pd(m, _mm256_set1_pd(-0.0))); }
    // The smaller and larger of two numbers (no NaN).
    static D min(D a, D b) { return _mm256_min_pd(a, b); }
    static D max(D a, D b) { return _mm256_max_pd(a, b); }

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
    // powf(x, 7.0f) of float lanes, by libm as the scalar calls it. (The calls
    // are about 10% of ciede's time at AVX2: replaced by x^7 in floats, timing
    // only, ciede alone ran 0.40 -> 0.36 s on 4 frames of 1080p. glibc's
    // powf is not correctly rounded (up to 0.82 ulp: its double result is
    // within about 2^-26 before the rounding), so no margin test of our own
    // x^7 can tell which float it returns.)
    static F powf7(F x) {
        alignas(16) float v[kLanes];
        _mm_store_ps(v, x);
        for (float& e : v) e = powf(e, 7.0f);
        return _mm_load_ps(v);
    }
};

// The compressing stores of the keys twin: lane j of a 4-lane group goes to
// position popcount(mask & ((1 << j) - 1)). kCompress64[mask] moves the
// 64-bit lanes in mask (dword pairs 2j, 2j + 1) to the front and
// kCompress32[mask] the low dwords (2j) of those lanes; the other positions
// repeat lane 0 (written past the count, which LabKeys allows).
struct CompressTables {
    alignas(32) int pairs[16][8] = {};
    alignas(32) int lows[16][8] = {};
    constexpr CompressTables() {
        for (int m = 0; m < 16; ++m) {
            int at = 0;
            for (int j = 0; j < 4; ++j) {
                if (!(m >> j & 1)) continue;
                pairs[m][2 * at] = 2 * j;
                pairs[m][2 * at + 1] = 2 * j + 1;
                lows[m][at] = 2 * j;
                ++at;
            }
        }
    }
};
constexpr CompressTables kCompress;

// Lab cache keys of four triples (the low four 16-bit lanes of y, u, v),
// each component zero-extended to 64 bits.
__m256i lab_keys4(__m128i y, __m128i u, __m128i v, __m128i bits, __m128i bits2, __m256i valid) {
    const __m256i ky = _mm256_cvtepu16_epi64(y);
    const __m256i ku = _mm256_sll_epi64(_mm256_cvtepu16_epi64(u), bits);
    const __m256i kv = _mm256_sll_epi64(_mm256_cvtepu16_epi64(v), bits2);
    return _mm256_or_si256(_mm256_or_si256(valid, ky), _mm256_or_si256(ku, kv));
}

// Their sets: the top kLabSetBits bits of the low 64 bits of key * kLabHash
// (the scalar's uint64_t product), from three 32 x 32-bit products: the
// low halves' full product plus the two cross products shifted up 32 (the
// high halves' product lies beyond bit 63).
__m256i lab_sets4(__m256i keys) {
    const __m256i lo = _mm256_set1_epi64x(static_cast<long long>(ciede::kLabHash & 0xFFFFFFFFu));
    const __m256i hi = _mm256_set1_epi64x(static_cast<long long>(ciede::kLabHash >> 32));
    const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(keys, hi),
                                           _mm256_mul_epu32(_mm256_srli_epi64(keys, 32), lo));
    const __m256i product = _mm256_add_epi64(_mm256_mul_epu32(keys, lo), _mm256_slli_epi64(cross, 32));
    return _mm256_srli_epi64(product, 64 - ciede::kLabSetBits);
}

// Their LabBlocks groups (LabSets::groups; 8-bit samples): y >> 4 | u << 4
// | v << 12, each in its 64-bit lane.
__m256i lab_groups4(__m128i y, __m128i u, __m128i v) {
    const __m256i gy = _mm256_srli_epi64(_mm256_cvtepu16_epi64(y), 4);
    const __m256i gu = _mm256_slli_epi64(_mm256_cvtepu16_epi64(u), 4);
    const __m256i gv = _mm256_slli_epi64(_mm256_cvtepu16_epi64(v), 12);
    return _mm256_or_si256(gy, _mm256_or_si256(gu, gv));
}

// One group of four columns (x .. x + 3, the low lanes of the six
// registers) of keys_avx2: the differing ones (bits of `differ`) appended
// at n; returns the new count.
template <LabSets Sets>
int append_keys4(__m128i ry, __m128i ru, __m128i rv, __m128i dy, __m128i du, __m128i dv,
                 unsigned differ, int x, __m128i bits, __m128i bits2, __m256i valid,
                 const LabKeys& keys, int n) {
    if (differ == 0) return n;
    const __m256i pairs = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompress.pairs[differ]));
    const __m256i lows = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompress.lows[differ]));
    const __m256i kr = lab_keys4(ry, ru, rv, bits, bits2, valid);
    const __m256i kd = lab_keys4(dy, du, dv, bits, bits2, valid);
    const auto store_keys = [n](std::uint64_t* to, __m256i v, __m256i order) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + n), _mm256_permutevar8x32_epi32(v, order));
    };
    const auto store_low = [n](auto* to, __m256i v, __m256i order) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n),
                         _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, order)));
    };
    store_keys(keys.key[0], kr, pairs);
    store_keys(keys.key[1], kd, pairs);
    if constexpr (Sets == LabSets::groups) {
        store_low(keys.set[0], lab_groups4(ry, ru, rv), lows);
        store_low(keys.set[1], lab_groups4(dy, du, dv), lows);
    } else {
        store_low(keys.set[0], lab_sets4(kr), lows);
        store_low(keys.set[1], lab_sets4(kd), lows);
    }
    store_low(keys.where, _mm256_add_epi64(_mm256_set1_epi64x(x), _mm256_setr_epi64x(0, 1, 2, 3)),
              lows);
    return n + __builtin_popcount(differ);
}

// CiedeKeysFn with sets Sets, eight columns at a time (two groups of
// four); each array gets four entries at n per group, so up to 3 are
// written past the count; the last x1 - x0 mod 8 columns by the scalar's
// loop. A pixel repeats its left neighbour where all six samples are equal
// to that one's (kSameAsLeft): on the natural 1080p pair p19, 14% of the
// differing pixels, which then need no lookups and no delta E (4% on
// throughput's noisy synthetic pair).
template <LabSets Sets>
int keys_with(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x0, int x1,
              int bits, float* out, const LabKeys& keys) {
    const __m256i valid = _mm256_set1_epi64x(static_cast<long long>(std::uint64_t{1} << (3 * bits)));
    const __m128i shift = _mm_cvtsi32_si128(bits), shift2 = _mm_cvtsi32_si128(2 * bits);
    int n = 0;
    int x = x0;
    for (; x + 8 <= x1; x += 8) {
        // Plane c's eight samples of the reference (r[c]) and the distorted
        // (d[c]), and those one column to the left (rl[c], dl[c]; at column
        // 0, lane 0's are 0: only a pixel whose two triples are 0 would
        // repeat them, and it is equal, so never marked).
        __m128i r[3], d[3], rl[3], dl[3];
        for (int c = 0; c < 3; ++c) {
            r[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ref[c] + x));
            d[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(dis[c] + x));
            if (x > 0) {
                rl[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ref[c] + x - 1));
                dl[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(dis[c] + x - 1));
            } else {
                rl[c] = _mm_slli_si128(r[c], 2);
                dl[c] = _mm_slli_si128(d[c], 2);
            }
        }
        const auto all3 = [](const __m128i* a, const __m128i* b) {
            return _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi16(a[0], b[0]), _mm_cmpeq_epi16(a[1], b[1])),
                                 _mm_cmpeq_epi16(a[2], b[2]));
        };
        const __m256i same = _mm256_cvtepi16_epi32(all3(r, d));
        __m256i repeat = _mm256_cvtepi16_epi32(_mm_and_si128(all3(r, rl), all3(d, dl)));
        repeat = _mm256_andnot_si256(same, repeat);
        _mm256_maskstore_ps(out + x, same, _mm256_setzero_ps());
        _mm256_maskstore_ps(out + x, repeat, _mm256_set1_ps(kSameAsLeft));
        const unsigned differ =
            ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(same, repeat)))) & 0xFFu;
        if (differ == 0) continue;
        n = append_keys4<Sets>(r[0], r[1], r[2], d[0], d[1], d[2], differ & 0xFu, x, shift, shift2,
                               valid, keys, n);
        for (int c = 0; c < 3; ++c) {
            r[c] = _mm_srli_si128(r[c], 8);  // columns x + 4 .. x + 7
            d[c] = _mm_srli_si128(d[c], 8);
        }
        n = append_keys4<Sets>(r[0], r[1], r[2], d[0], d[1], d[2], differ >> 4, x + 4, shift, shift2,
                               valid, keys, n);
    }
    return ciede::simd::keys_tail(ref, dis, x, x1, bits, Sets, out, keys, n);
}

int keys_avx2(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x0, int x1,
              int bits, LabSets sets, float* out, const LabKeys& keys) {
    return sets == LabSets::groups ? keys_with<LabSets::groups>(ref, dis, x0, x1, bits, out, keys)
                                   : keys_with<LabSets::hashed>(ref, dis, x0, x1, bits, out, keys);
}

}  // namespace

void ciede_init_avx2(CiedeKernels& k) {
    // The twins' polynomials use FMA (CMakeLists.txt compiles this file
    // with -mfma); an AVX2 CPU without it keeps the scalar kernels.
    if (!__builtin_cpu_supports("fma")) return;
    ciede::simd::install_twins<Avx2>(k);
    k.keys = keys_avx2;
}

}  // namespace vmafpp::ciede
