// AVX2 twins of the cambi kernels: the integer kernels of
// cambi_lanes_loop.hpp over 16 16-bit lanes (histogram counts and scans,
// mode filter, spatial mask, decimation, conversion of 8-bit luma), and
// here the c-values of a row 8 pixels at a time (gathers) and the pooling
// sums of a row 8 values at a time. Integer kernels but for the c-values
// (the scalar's float operations): the twins compute the scalar's values
// exactly, edges and tails by the scalar's code.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_lanes_loop.hpp"

namespace vmafpp::cambi {

namespace {

// cambi_lanes_loop.hpp's vector: 16 samples in a ymm; masks are vectors.
struct Avx2Lanes {
    static constexpr int kLanes = 16;
    using V = __m256i;
    static V load(const std::uint16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
    static void store(std::uint16_t* p, V v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
    static V set(std::uint16_t x) { return _mm256_set1_epi16(static_cast<short>(x)); }
    static V add(V a, V b) { return _mm256_add_epi16(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi16(a, b); }
    static V eq(V a, V b) { return _mm256_cmpeq_epi16(a, b); }
    static V min(V a, V b) { return _mm256_min_epu16(a, b); }
    static V gt(V a, V b) { return _mm256_cmpgt_epi16(a, b); }  // signed: lanes below 0x8000
    static V band(V a, V b) { return _mm256_and_si256(a, b); }
    static V bor(V a, V b) { return _mm256_or_si256(a, b); }
    static V select(V m, V a, V b) { return _mm256_blendv_epi8(b, a, m); }
    static V widen(const std::uint8_t* p) {
        return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    }
    // The low halves of 16 dwords packed (values below 2^16 stay as they
    // are), the 128-bit halves put back in order.
    static V evens(const std::uint16_t* p) {
        const V low = _mm256_set1_epi32(0xffff);
        return _mm256_permute4x64_epi64(_mm256_packus_epi32(band(load(p), low), band(load(p + 16), low)),
                                        0xD8);
    }
    // One bit per 16-bit lane from the byte mask (BMI2 is part of the level).
    static std::uint32_t bits(V m) {
        return _pext_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(m)), 0x55555555u);
    }
};

struct Avx2Isa : CountLanes<Avx2Lanes> {
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out);
    static void sums(const float* row, int n, CValueSums& sums);
};

// c_value_sums_scalar 8 values at a time. A lane in [0.5, 65536) (ordered
// compares: NaN is out) gives u = v * 2^24, exact in float (a power-of-two
// scale that stays finite) and an integer in [2^23, 2^40); other lanes give
// 0. AVX2 has no float-to-int64 conversion: u + 2^52 is exact in a double
// (below 2^53), and its bits are 0x4330000000000000 + u.
void c_value_sums_avx2(const float* row, int n, CValueSums& sums) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 top = _mm256_set1_ps(65536.0f);
    const __m256 scale = _mm256_set1_ps(16777216.0f);
    const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
    const __m256i magic_bits = _mm256_set1_epi64x(0x4330000000000000);
    __m256i acc = _mm256_setzero_si256();
    std::int64_t nonzero = 0;
    int outside = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(row + i);
        // Most c-values are 0 (unmasked pixels): 8 whose bits are all zero
        // (+0; -0 and anything else go on) change nothing.
        if (_mm256_testz_si256(_mm256_castps_si256(v), _mm256_castps_si256(v))) continue;
        const __m256 in = _mm256_and_ps(_mm256_cmp_ps(v, half, _CMP_GE_OQ), _mm256_cmp_ps(v, top, _CMP_LT_OQ));
        const int nz = _mm256_movemask_ps(_mm256_cmp_ps(v, zero, _CMP_NEQ_UQ));
        nonzero += __builtin_popcount(static_cast<unsigned>(nz));
        outside |= nz & ~_mm256_movemask_ps(in);
        const __m256 u = _mm256_and_ps(_mm256_mul_ps(v, scale), in);
        const __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(u)), magic);
        const __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(u, 1)), magic);
        acc = _mm256_add_epi64(acc, _mm256_sub_epi64(_mm256_castpd_si256(lo), magic_bits));
        acc = _mm256_add_epi64(acc, _mm256_sub_epi64(_mm256_castpd_si256(hi), magic_bits));
    }
    alignas(32) std::int64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
    std::int64_t units = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    bool in_range = outside == 0;
    c_value_sums_steps(row, i, n, units, nonzero, in_range);
    fold_c_value_sums(sums, units, nonzero, in_range);
}

// One d's step of c_value_pixel in the lanes `lanes`: val = weight * p0 * p
// in int32 (counts at most window^2 <= 4225, weights at most 9: below 2^31),
// converted to float as static_cast does, times the gathered recip[p + p0];
// c takes val where val > c.
__m256 raise_c(__m256 c, int weight, __m256i p0, __m256i p, const float* recip, __m256i lanes) {
    const __m256i prod = _mm256_mullo_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(weight), p0), p);
    const __m256 r = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), recip, _mm256_add_epi32(p, p0),
                                              _mm256_castsi256_ps(lanes), 4);
    const __m256 val = _mm256_mul_ps(_mm256_cvtepi32_ps(prod), r);
    const __m256 better = _mm256_and_ps(_mm256_cmp_ps(val, c, _CMP_GT_OQ), _mm256_castsi256_ps(lanes));
    return _mm256_blendv_ps(c, val, better);
}

// The c-values of 8 pixels of the row whose valid lanes (`valid`) all hold
// `value`: c_value_pixel's steps with the tests of each d made once, the
// counts of the 8 columns of a histogram row loaded at once (hist points at
// the row's first column; rows value - band_base + k for the tested k, all
// in the band: p1's row is at most tvi[d] - num_diffs - band_base + d + 1
// <= band_size - 1), p0 of invalid lanes set to 0, and the arithmetic of
// c_values_row_avx2.
__m256 uniform_c_values(const std::uint16_t* hist, int w, int value, __m256i valid,
                        const ContrastSetup& s, const float* recip) {
    auto counts = [&](int row) {
        return _mm256_cvtepu16_epi32(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(hist + static_cast<std::ptrdiff_t>(row) * w)));
    };
    const int compact = value - s.band_base, v = value + s.num_diffs;
    const __m256i p0 = _mm256_and_si256(counts(compact), valid);
    __m256 c = _mm256_setzero_ps();
    for (int d = 0; d < s.num_diffs; ++d) {
        if (v > s.tvi[d] || v + d + 1 <= s.vlt_luma) continue;
        const __m256i p1 = counts(compact + d + 1);
        const __m256i p = compact - d - 1 >= 0 ? _mm256_max_epi32(p1, counts(compact - d - 1)) : p1;
        const __m256i live = _mm256_and_si256(p, valid);
        // p = 0 makes val 0, never above c.
        if (_mm256_testz_si256(live, live)) continue;
        c = raise_c(c, s.weights[d], p0, p, recip, valid);
    }
    return c;
}

// c_values_row for 8 pixels at a time, each lane c_value_pixel's steps:
// the histogram counts gathered (32-bit loads at 16-bit cells, the high half
// dropped; a lane whose test fails loads nothing), the product
// weight * p0 * p in int32 (counts are at most window^2 <= 4225 and weights
// at most 9: below 2^31), converted to float as static_cast does, times
// the gathered reciprocal, and the running maximum taken where val > c.
// The last cell a load touches is one past a counted cell: within the
// histograms' padding.
void c_values_row_avx2(const std::uint16_t* image, const std::uint16_t* mask, int w,
                       const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                       float* out) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i low = _mm256_set1_epi32(0xffff);
    const __m256i band_base = _mm256_set1_epi32(s.band_base);
    const __m256i band_size = _mm256_set1_epi32(s.band_size);
    const __m256i nd = _mm256_set1_epi32(s.num_diffs);
    const __m256i vlt = _mm256_set1_epi32(s.vlt_luma);
    const __m256i width = _mm256_set1_epi32(w);
    const int* cells = reinterpret_cast<const int*>(hist);
    int x = 0;
    for (; x + 8 <= w; x += 8) {
        const __m256i m = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(mask + x)));
        const __m256i img = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(image + x)));
        const __m256i compact = _mm256_sub_epi32(img, band_base);
        const __m256i valid = _mm256_andnot_si256(
            _mm256_cmpeq_epi32(m, zero),
            _mm256_and_si256(_mm256_cmpgt_epi32(compact, _mm256_set1_epi32(-1)),
                             _mm256_cmpgt_epi32(band_size, compact)));
        if (_mm256_testz_si256(valid, valid)) {
            _mm256_storeu_ps(out + x, _mm256_setzero_ps());
            continue;
        }
        // The valid lanes of one value (the rule in the masked, flat
        // areas): contiguous loads of its histogram rows instead of gathers.
        const int first = __builtin_ctz(static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(valid))));
        const int value = image[x + first];
        const __m256i same = _mm256_cmpeq_epi32(img, _mm256_set1_epi32(value));
        if (_mm256_testc_si256(same, valid)) {
            _mm256_storeu_ps(out + x, uniform_c_values(hist + x, w, value, valid, s, recip));
            continue;
        }
        const __m256i v = _mm256_add_epi32(img, nd);
        const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(compact, width),
                                            _mm256_add_epi32(lanes, _mm256_set1_epi32(x)));
        const __m256i p0 = _mm256_and_si256(_mm256_mask_i32gather_epi32(zero, cells, at, valid, 2), low);
        __m256 c = _mm256_setzero_ps();
        for (int d = 0; d < s.num_diffs; ++d) {
            // Scored where v <= tvi[d] and v + d + 1 > vlt (c_value_pixel's skip, negated).
            const __m256i tested = _mm256_and_si256(
                valid, _mm256_andnot_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(s.tvi[d])),
                                           _mm256_cmpgt_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(d + 1)), vlt)));
            if (_mm256_testz_si256(tested, tested)) continue;
            const __m256i step = _mm256_set1_epi32((d + 1) * w);
            const __m256i p1 = _mm256_and_si256(
                _mm256_mask_i32gather_epi32(zero, cells, _mm256_add_epi32(at, step), tested, 2), low);
            const __m256i below = _mm256_and_si256(
                tested, _mm256_cmpgt_epi32(compact, _mm256_set1_epi32(d)));  // compact - d - 1 >= 0
            const __m256i p2 = _mm256_and_si256(
                _mm256_mask_i32gather_epi32(zero, cells, _mm256_sub_epi32(at, step), below, 2), low);
            const __m256i p = _mm256_max_epi32(p1, p2);
            // p = 0 makes val 0, never above c.
            if (_mm256_testz_si256(p, p)) continue;
            c = raise_c(c, s.weights[d], p0, p, recip, tested);
        }
        _mm256_storeu_ps(out + x, c);
    }
    c_values_row(image, mask, w, s, hist, recip, out, x);
}

void Avx2Isa::row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                  const std::uint16_t* hist, const float* recip, float* out) {
    c_values_row_avx2(image, mask, w, s, hist, recip, out);
}

void Avx2Isa::sums(const float* row, int n, CValueSums& sums) { c_value_sums_avx2(row, n, sums); }

}  // namespace

void cambi_init_avx2(CambiKernels& k) { install_lanes<Avx2Lanes, Avx2Isa>(k); }

}  // namespace vmafpp::cambi
