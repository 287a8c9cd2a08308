// AVX-512 twins of the cambi kernels: the integer kernels of
// cambi_lanes_loop.hpp over 32 16-bit lanes (histogram counts and scans,
// mode filter, spatial mask, decimation, conversion of 8-bit luma), and
// here the c-values of a row 16 pixels at a time (masked gathers) and the
// pooling sums of each row 16 at a time, the tail under a lane mask.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_lanes_loop.hpp"

namespace vmafpp::cambi {

namespace {

// cambi_lanes_loop.hpp's vector: 32 samples in a zmm. Its masks are
// vectors (vpmovm2w) and become k registers where used (vpmovw2m).
struct Avx512Lanes {
    static constexpr int kLanes = 32;
    using V = __m512i;
    static V load(const std::uint16_t* p) { return _mm512_loadu_si512(p); }
    static void store(std::uint16_t* p, V v) { _mm512_storeu_si512(p, v); }
    static V set(std::uint16_t x) { return _mm512_set1_epi16(static_cast<short>(x)); }
    static V add(V a, V b) { return _mm512_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm512_sub_epi16(a, b); }
    static V eq(V a, V b) { return _mm512_movm_epi16(_mm512_cmpeq_epi16_mask(a, b)); }
    static V min(V a, V b) { return _mm512_min_epu16(a, b); }
    static V gt(V a, V b) { return _mm512_movm_epi16(_mm512_cmpgt_epu16_mask(a, b)); }
    static V band(V a, V b) { return _mm512_and_si512(a, b); }
    static V bor(V a, V b) { return _mm512_or_si512(a, b); }
    static V select(V m, V a, V b) { return _mm512_mask_blend_epi16(_mm512_movepi16_mask(m), b, a); }
    static V widen(const std::uint8_t* p) {
        return _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    }
    // Word i of the two-source permutation is 2i (i < 32): dword j holds
    // 4j and 4j + 2.
    static V evens(const std::uint16_t* p) {
        const __m512i four_j =
            _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
        const __m512i even = _mm512_or_si512(
            four_j, _mm512_slli_epi32(_mm512_add_epi32(four_j, _mm512_set1_epi32(2)), 16));
        return _mm512_permutex2var_epi16(load(p), even, load(p + 32));
    }
    static std::uint32_t bits(V m) { return _mm512_movepi16_mask(m); }
};

struct Avx512Isa : CountLanes<Avx512Lanes> {
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out);
    static void sums(const float* row, int n, CValueSums& sums);
};

// c_value_sums_scalar 16 values at a time, the tail under a lane mask (its
// zeroed lanes count as zeros). A lane in [0.5, 65536) (ordered compares:
// NaN is out) gives u = v * 2^24, exact in float and an integer in
// [2^23, 2^40), which vcvttps2qq converts to int64 exactly; other lanes 0.
void c_value_sums_avx512(const float* row, int n, CValueSums& sums) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512 half = _mm512_set1_ps(0.5f);
    const __m512 top = _mm512_set1_ps(65536.0f);
    const __m512 scale = _mm512_set1_ps(16777216.0f);
    __m512i acc = _mm512_setzero_si512();
    std::int64_t nonzero = 0;
    unsigned outside = 0;
    auto add = [&](__m512 v) {
        const __mmask16 nz = _mm512_cmp_ps_mask(v, zero, _CMP_NEQ_UQ);
        const __mmask16 in = _mm512_cmp_ps_mask(v, half, _CMP_GE_OQ) & _mm512_cmp_ps_mask(v, top, _CMP_LT_OQ);
        nonzero += __builtin_popcount(static_cast<unsigned>(nz));
        outside |= static_cast<unsigned>(nz & ~in);
        const __m512 u = _mm512_maskz_mul_ps(in, v, scale);
        acc = _mm512_add_epi64(acc, _mm512_cvttps_epi64(_mm512_castps512_ps256(u)));
        acc = _mm512_add_epi64(acc, _mm512_cvttps_epi64(_mm512_extractf32x8_ps(u, 1)));
    };
    int i = 0;
    // Most c-values are 0 (unmasked pixels): 64 whose bits are all zero
    // (+0; -0 and anything else go through add) change nothing.
    for (; i + 64 <= n; i += 64) {
        const __m512 a = _mm512_loadu_ps(row + i), b = _mm512_loadu_ps(row + i + 16);
        const __m512 c = _mm512_loadu_ps(row + i + 32), d = _mm512_loadu_ps(row + i + 48);
        const __m512i any = _mm512_or_si512(
            _mm512_or_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)),
            _mm512_or_si512(_mm512_castps_si512(c), _mm512_castps_si512(d)));
        if (!_mm512_test_epi32_mask(any, any)) continue;
        add(a);
        add(b);
        add(c);
        add(d);
    }
    for (; i + 16 <= n; i += 16) add(_mm512_loadu_ps(row + i));
    if (i < n) add(_mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << (n - i)) - 1), row + i));
    fold_c_value_sums(sums, _mm512_reduce_add_epi64(acc), nonzero, outside == 0);
}

// One d's step of c_value_pixel in the lanes `lanes` (the AVX2 twin's
// raise_c): val = weight * p0 * p in int32, as float, times the gathered
// recip[p + p0]; c takes val where val > c.
__m512 raise_c(__m512 c, int weight, __m512i p0, __m512i p, const float* recip, __mmask16 lanes) {
    const __m512i prod = _mm512_mullo_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(weight), p0), p);
    const __m512 r = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), lanes, _mm512_add_epi32(p, p0), recip, 4);
    const __m512 val = _mm512_mul_ps(_mm512_cvtepi32_ps(prod), r);
    return _mm512_mask_blend_ps(lanes & _mm512_cmp_ps_mask(val, c, _CMP_GT_OQ), c, val);
}

// The c-values of 16 pixels of the row whose valid lanes all hold `value`:
// the AVX2 twin's uniform_c_values (see cambi_avx2.cpp) with lane masks in
// a mask register.
__m512 uniform_c_values(const std::uint16_t* hist, int w, int value, __mmask16 valid,
                        const ContrastSetup& s, const float* recip) {
    auto counts = [&](int row) {
        return _mm512_cvtepu16_epi32(
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hist + static_cast<std::ptrdiff_t>(row) * w)));
    };
    const int compact = value - s.band_base, v = value + s.num_diffs;
    const __m512i p0 = _mm512_maskz_mov_epi32(valid, counts(compact));
    __m512 c = _mm512_setzero_ps();
    for (int d = 0; d < s.num_diffs; ++d) {
        if (v > s.tvi[d] || v + d + 1 <= s.vlt_luma) continue;
        const __m512i p1 = counts(compact + d + 1);
        const __m512i p = compact - d - 1 >= 0 ? _mm512_max_epi32(p1, counts(compact - d - 1)) : p1;
        // p = 0 makes val 0, never above c.
        if (!_mm512_mask_test_epi32_mask(valid, p, p)) continue;
        c = raise_c(c, s.weights[d], p0, p, recip, valid);
    }
    return c;
}

// c_values_row for 16 pixels at a time: the AVX2 twin's steps (see
// cambi_avx2.cpp) with lane masks in mask registers.
void Avx512Isa::row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i low = _mm512_set1_epi32(0xffff);
    const __m512i band_size = _mm512_set1_epi32(s.band_size);
    const __m512i nd = _mm512_set1_epi32(s.num_diffs);
    const __m512i vlt = _mm512_set1_epi32(s.vlt_luma);
    const __m512i width = _mm512_set1_epi32(w);
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        const __m512i m = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + x)));
        const __m512i img = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(image + x)));
        const __m512i compact = _mm512_sub_epi32(img, _mm512_set1_epi32(s.band_base));
        // 0 <= compact < band_size as one unsigned compare.
        const __mmask16 valid = _mm512_test_epi32_mask(m, m) & _mm512_cmplt_epu32_mask(compact, band_size);
        if (!valid) {
            _mm512_storeu_ps(out + x, _mm512_setzero_ps());
            continue;
        }
        // The valid lanes of one value: contiguous loads (uniform_c_values).
        const int value = image[x + __builtin_ctz(static_cast<unsigned>(valid))];
        if ((_mm512_cmpeq_epi32_mask(img, _mm512_set1_epi32(value)) & valid) == valid) {
            _mm512_storeu_ps(out + x, uniform_c_values(hist + x, w, value, valid, s, recip));
            continue;
        }
        const __m512i v = _mm512_add_epi32(img, nd);
        const __m512i at = _mm512_add_epi32(_mm512_mullo_epi32(compact, width),
                                            _mm512_add_epi32(lanes, _mm512_set1_epi32(x)));
        const __m512i p0 = _mm512_and_si512(_mm512_mask_i32gather_epi32(zero, valid, at, hist, 2), low);
        __m512 c = _mm512_setzero_ps();
        for (int d = 0; d < s.num_diffs; ++d) {
            const __mmask16 tested =
                valid & _mm512_cmple_epi32_mask(v, _mm512_set1_epi32(s.tvi[d])) &
                _mm512_cmpgt_epi32_mask(_mm512_add_epi32(v, _mm512_set1_epi32(d + 1)), vlt);
            if (!tested) continue;
            const __m512i step = _mm512_set1_epi32((d + 1) * w);
            const __m512i p1 = _mm512_and_si512(
                _mm512_mask_i32gather_epi32(zero, tested, _mm512_add_epi32(at, step), hist, 2), low);
            const __mmask16 below = tested & _mm512_cmpgt_epi32_mask(compact, _mm512_set1_epi32(d));
            const __m512i p2 = _mm512_and_si512(
                _mm512_mask_i32gather_epi32(zero, below, _mm512_sub_epi32(at, step), hist, 2), low);
            const __m512i p = _mm512_max_epi32(p1, p2);
            // p = 0 makes val 0, never above c.
            if (!_mm512_test_epi32_mask(p, p)) continue;
            c = raise_c(c, s.weights[d], p0, p, recip, tested);
        }
        _mm512_storeu_ps(out + x, c);
    }
    c_values_row(image, mask, w, s, hist, recip, out, x);
}

void Avx512Isa::sums(const float* row, int n, CValueSums& sums) { c_value_sums_avx512(row, n, sums); }

}  // namespace

void cambi_init_avx512(CambiKernels& k) { install_lanes<Avx512Lanes, Avx512Isa>(k); }

}  // namespace vmafpp::cambi
