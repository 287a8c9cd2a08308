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

// The c-value loop's policy: its rows over compacts (kCompacts) wherever
// the band allows them (every band the extractor makes); the others (a
// band past 16 bits) take the scalar's row.
struct Avx2Isa : CountLanes<Avx2Lanes> {
    static constexpr bool kCompacts = true;
    static void row_compacts(const std::uint16_t* c, int w, const ContrastSetup& s, const std::uint16_t* hist,
                             const float* recip, float* out, CValueSums& sums);
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out) {
        c_values_row(image, mask, w, s, hist, recip, out);
    }
    static void sums(const float* row, int n, CValueSums& sums);
};

// c_value_sums_scalar's running values, given values 8 at a time. A lane
// in [0.5, 65536) (ordered compares: NaN is out) gives u = v * 2^24, exact
// in float (a power-of-two scale that stays finite) and an integer in
// [2^23, 2^40); other lanes give 0. AVX2 has no float-to-int64 conversion:
// u + 2^52 is exact in a double (below 2^53), and its bits are
// 0x4330000000000000 + u.
struct SumsLanes {
    __m256i acc = _mm256_setzero_si256();
    std::int64_t nonzero = 0;
    int outside = 0;

    void add(__m256 v) {
        // Most c-values are 0 (unmasked pixels): 8 whose bits are all zero
        // (+0; -0 and anything else go on) change nothing.
        if (_mm256_testz_si256(_mm256_castps_si256(v), _mm256_castps_si256(v))) return;
        const __m256 in = _mm256_and_ps(_mm256_cmp_ps(v, _mm256_set1_ps(0.5f), _CMP_GE_OQ),
                                        _mm256_cmp_ps(v, _mm256_set1_ps(65536.0f), _CMP_LT_OQ));
        const int nz = _mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NEQ_UQ));
        nonzero += __builtin_popcount(static_cast<unsigned>(nz));
        outside |= nz & ~_mm256_movemask_ps(in);
        const __m256 u = _mm256_and_ps(_mm256_mul_ps(v, _mm256_set1_ps(16777216.0f)), in);
        const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
        const __m256i magic_bits = _mm256_set1_epi64x(0x4330000000000000);
        const __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(u)), magic);
        const __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(u, 1)), magic);
        acc = _mm256_add_epi64(acc, _mm256_sub_epi64(_mm256_castpd_si256(lo), magic_bits));
        acc = _mm256_add_epi64(acc, _mm256_sub_epi64(_mm256_castpd_si256(hi), magic_bits));
    }
    // The scalar's steps on row[i, n), then everything into sums.
    void finish(const float* row, int i, int n, CValueSums& sums) const {
        alignas(32) std::int64_t lanes[4];
        _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
        std::int64_t units = lanes[0] + lanes[1] + lanes[2] + lanes[3];
        std::int64_t count = nonzero;
        bool in_range = outside == 0;
        c_value_sums_steps(row, i, n, units, count, in_range);
        fold_c_value_sums(sums, units, count, in_range);
    }
};

// c_value_sums_scalar 8 values at a time.
void c_value_sums_avx2(const float* row, int n, CValueSums& sums) {
    SumsLanes lanes;
    int i = 0;
    for (; i + 8 <= n; i += 8) lanes.add(_mm256_loadu_ps(row + i));
    lanes.finish(row, i, n, sums);
}

// One d's step of c_value_pixel in 8 lanes: val = weight * p0 * p as
// float, times the gathered recip[p + p0]; c takes val where val > c.
// The product in float is the scalar's static_cast<float>(weight * p0 * p):
// p0 and p count disjoint pixels of one window (values v and v +- (d + 1)
// of column x's window), so p0 + p <= window^2 <= 4225 and p0 * p <=
// 2112 * 2113 < 2^24 is exact in float; weight * that, rounded once, is the
// int32 product (below 2^31) rounded once, as its conversion is. The same
// bound keeps the index p + p0 in the table, so the gather needs no lane
// mask. A lane whose p or p0 is 0 gives val = 0 (every reciprocal is finite),
// never above c, as the scalar's skipped d leaves c; val > c ? val : c is
// max_ps(val, c) (val is never NaN).
__m256 raise_c(__m256 c, __m256 weight, __m256 p0f, __m256i p0, __m256i p, const float* recip) {
    const __m256 r = _mm256_i32gather_ps(recip, _mm256_add_epi32(p, p0), 4);
    const __m256 prod = _mm256_mul_ps(weight, _mm256_mul_ps(p0f, _mm256_cvtepi32_ps(p)));
    return _mm256_max_ps(_mm256_mul_ps(prod, r), c);
}

// Whether c_value_pixel scores d for the value `value` (its skip, negated).
bool scored(const ContrastSetup& s, int value, int d) {
    const int v = value + s.num_diffs;
    return v <= s.tvi[d] && v + d + 1 > s.vlt_luma;
}

// Bit d set where d is scored for `value` (num_diffs <= 32), kept for the
// last value asked: neighbouring blocks of a flat area share their value.
struct ScoredDiffs {
    int value = -1;
    std::uint32_t bits = 0;
    std::uint32_t of(const ContrastSetup& s, int v) {
        if (v == value) return bits;
        value = v;
        bits = 0;
        for (int d = 0; d < s.num_diffs; ++d) bits |= static_cast<std::uint32_t>(scored(s, v, d)) << d;
        return bits;
    }
};

// The c-values of 8 pixels of the row whose valid lanes (`valid`) all have
// the compact `compact` (the value compact + band_base): c_value_pixel's
// steps with the tests of each d made once, the counts of the 8 columns of
// a histogram row loaded at once (hist points at the row's first column;
// rows compact + k for the tested k, all
// in the band: p1's row is at most tvi[d] - num_diffs - band_base + d + 1
// <= band_size - 1), p0 of invalid lanes set to 0 (their val is 0).
__m256 uniform_c_values(const std::uint16_t* hist, int w, int compact, __m256i valid,
                        const ContrastSetup& s, const float* recip) {
    auto counts = [&](int row) {
        return _mm256_cvtepu16_epi32(
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(hist + static_cast<std::ptrdiff_t>(row) * w)));
    };
    const int value = compact + s.band_base;
    const __m256i p0 = _mm256_and_si256(counts(compact), valid);
    const __m256 p0f = _mm256_cvtepi32_ps(p0);
    __m256 c = _mm256_setzero_ps();
    for (int d = 0; d < s.num_diffs; ++d) {
        if (!scored(s, value, d)) continue;
        const __m256i p1 = counts(compact + d + 1);
        const __m256i p = compact - d - 1 >= 0 ? _mm256_max_epi32(p1, counts(compact - d - 1)) : p1;
        const __m256i live = _mm256_and_si256(p, valid);
        // p = 0 makes val 0, never above c.
        if (_mm256_testz_si256(live, live)) continue;
        c = raise_c(c, _mm256_set1_ps(static_cast<float>(s.weights[d])), p0f, p0, live, recip);
    }
    return c;
}

// uniform_c_values for 16 pixels, for the d of `diffs` (ScoredDiffs):
// the counts of 16 columns in one load and compared in 16-bit lanes
// (valid16: the lanes of `compact` as 16-bit masks), the products in two
// halves of 8, raising c_lo and c_hi. A lane outside valid16 has p0 = p = 0
// there, so val = 0 leaves its c as it was: the lanes of two compacts take
// one call each into the same c_lo, c_hi.
[[gnu::always_inline]] inline void uniform_c_values16(const std::uint16_t* hist, int w, int compact,
                                                      std::uint32_t diffs, __m256i valid16,
                        const ContrastSetup& s, const float* recip, __m256& c_lo, __m256& c_hi) {
    auto counts = [&](int row) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hist + static_cast<std::ptrdiff_t>(row) * w));
    };
    auto low = [](__m256i v) { return _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)); };
    auto high = [](__m256i v) { return _mm256_cvtepu16_epi32(_mm256_extracti128_si256(v, 1)); };
    const __m256i p0 = _mm256_and_si256(counts(compact), valid16);
    const __m256i p0_lo = low(p0), p0_hi = high(p0);
    const __m256 p0f_lo = _mm256_cvtepi32_ps(p0_lo), p0f_hi = _mm256_cvtepi32_ps(p0_hi);
    for (std::uint32_t left = diffs; left; left &= left - 1) {
        const int d = __builtin_ctz(left);
        const __m256i p1 = counts(compact + d + 1);
        const __m256i p = compact - d - 1 >= 0 ? _mm256_max_epu16(p1, counts(compact - d - 1)) : p1;
        const __m256i live = _mm256_and_si256(p, valid16);
        // p = 0 makes val 0, never above c.
        if (_mm256_testz_si256(live, live)) continue;
        const __m256 weight = _mm256_set1_ps(static_cast<float>(s.weights[d]));
        c_lo = raise_c(c_lo, weight, p0f_lo, p0_lo, low(live), recip);
        c_hi = raise_c(c_hi, weight, p0f_hi, p0_hi, high(live), recip);
    }
}

// The constants of c_values8.
struct RowSetup {
    // none: kNoRow in 32-bit lanes, also the low half of a gathered dword.
    __m256i lanes, zero, none, value_base, nd, vlt, width;
    explicit RowSetup(const ContrastSetup& s, int w)
        : lanes(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)),
          zero(_mm256_setzero_si256()),
          none(_mm256_set1_epi32(0xffff)),
          value_base(_mm256_set1_epi32(s.band_base + s.num_diffs)),
          nd(_mm256_set1_epi32(s.num_diffs)),
          vlt(_mm256_set1_epi32(s.vlt_luma)),
          width(_mm256_set1_epi32(w)) {}
};

// c_values_row_compacts for the 8 pixels from x (compacts c), each lane
// c_value_pixel's steps: the histogram counts gathered (32-bit loads at
// 16-bit cells, the high half dropped; a lane whose test fails loads
// nothing) and raise_c for each d. The last cell a load touches is one past
// a counted cell: within the histograms' padding.
void c_values8(const std::uint16_t* c, int w, int x, const ContrastSetup& s, const RowSetup& k,
               const std::uint16_t* hist, const float* recip, float* out, SumsLanes& sums) {
    const int* cells = reinterpret_cast<const int*>(hist);
    const __m256i compact = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c + x)));
    const __m256i invalid = _mm256_cmpeq_epi32(compact, k.none);
    const unsigned valid_bits = ~static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(invalid))) & 0xff;
    if (!valid_bits) {
        _mm256_storeu_ps(out + x, _mm256_setzero_ps());
        return;
    }
    const __m256i valid = _mm256_xor_si256(invalid, _mm256_cmpeq_epi32(k.zero, k.zero));
    // The valid lanes of one value (the rule in the masked, flat areas):
    // contiguous loads of its histogram rows instead of gathers.
    const int first = c[x + __builtin_ctz(valid_bits)];
    const __m256i same = _mm256_cmpeq_epi32(compact, _mm256_set1_epi32(first));
    if (_mm256_testc_si256(same, valid)) {
        const __m256 v = uniform_c_values(hist + x, w, first, valid, s, recip);
        _mm256_storeu_ps(out + x, v);
        sums.add(v);
        return;
    }
    const __m256i v = _mm256_add_epi32(compact, k.value_base);
    const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(compact, k.width),
                                        _mm256_add_epi32(k.lanes, _mm256_set1_epi32(x)));
    const __m256i p0 = _mm256_and_si256(_mm256_mask_i32gather_epi32(k.zero, cells, at, valid, 2), k.none);
    const __m256 p0f = _mm256_cvtepi32_ps(p0);
    __m256 cv = _mm256_setzero_ps();
    for (int d = 0; d < s.num_diffs; ++d) {
        // Scored where v <= tvi[d] and v + d + 1 > vlt (c_value_pixel's skip, negated).
        const __m256i tested = _mm256_and_si256(
            valid, _mm256_andnot_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(s.tvi[d])),
                                       _mm256_cmpgt_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(d + 1)), k.vlt)));
        if (_mm256_testz_si256(tested, tested)) continue;
        const __m256i step = _mm256_set1_epi32((d + 1) * w);
        const __m256i p1 = _mm256_and_si256(
            _mm256_mask_i32gather_epi32(k.zero, cells, _mm256_add_epi32(at, step), tested, 2), k.none);
        const __m256i below = _mm256_and_si256(
            tested, _mm256_cmpgt_epi32(compact, _mm256_set1_epi32(d)));  // compact - d - 1 >= 0
        const __m256i p2 = _mm256_and_si256(
            _mm256_mask_i32gather_epi32(k.zero, cells, _mm256_sub_epi32(at, step), below, 2), k.none);
        const __m256i p = _mm256_max_epi32(p1, p2);
        // p = 0 makes val 0, never above c.
        if (_mm256_testz_si256(p, p)) continue;
        cv = raise_c(cv, _mm256_set1_ps(static_cast<float>(s.weights[d])), p0f, p0, p, recip);
    }
    _mm256_storeu_ps(out + x, cv);
    sums.add(cv);
}

// c_values_row_compacts 16 pixels at a time where the valid lanes of 16
// (compact not kNoRow) hold one compact or two (uniform_c_values16 once or
// twice: a second value, the rule at a band's edge, costs two gathers per d
// where the gathering c_values8 takes six), else 8 at a time (c_values8).
// The values are added to `row_sums` as they are made (c_value_sums_avx2's
// steps; a block of invalid pixels adds nothing), not read back from `out`.
void Avx2Isa::row_compacts(const std::uint16_t* c, int w, const ContrastSetup& s, const std::uint16_t* hist,
                           const float* recip, float* out, CValueSums& row_sums) {
    const RowSetup k(s, w);
    SumsLanes sums;
    ScoredDiffs diffs, second_diffs;
    const __m256i none = _mm256_set1_epi16(-1);
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        const __m256i cv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + x));
        const unsigned invalid_bits = static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi16(cv, none)));
        if (invalid_bits == 0xffffffffu) {
            _mm256_storeu_ps(out + x, _mm256_setzero_ps());
            _mm256_storeu_ps(out + x + 8, _mm256_setzero_ps());
            continue;
        }
        const int compact = c[x + __builtin_ctz(~invalid_bits) / 2];
        const __m256i same = _mm256_cmpeq_epi16(cv, _mm256_set1_epi16(static_cast<short>(compact)));
        const unsigned known = static_cast<unsigned>(_mm256_movemask_epi8(same)) | invalid_bits;
        __m256 c_lo = _mm256_setzero_ps(), c_hi = _mm256_setzero_ps();
        if (known != 0xffffffffu) {
            const int second = c[x + __builtin_ctz(~known) / 2];
            const __m256i same2 = _mm256_cmpeq_epi16(cv, _mm256_set1_epi16(static_cast<short>(second)));
            if ((static_cast<unsigned>(_mm256_movemask_epi8(same2)) | known) != 0xffffffffu) {
                c_values8(c, w, x, s, k, hist, recip, out, sums);
                c_values8(c, w, x + 8, s, k, hist, recip, out, sums);
                continue;
            }
            uniform_c_values16(hist + x, w, second, second_diffs.of(s, second + s.band_base), same2, s, recip,
                               c_lo, c_hi);
        }
        uniform_c_values16(hist + x, w, compact, diffs.of(s, compact + s.band_base), same, s, recip, c_lo, c_hi);
        _mm256_storeu_ps(out + x, c_lo);
        _mm256_storeu_ps(out + x + 8, c_hi);
        sums.add(c_lo);
        sums.add(c_hi);
    }
    for (; x + 8 <= w; x += 8) c_values8(c, w, x, s, k, hist, recip, out, sums);
    c_values_row_compacts(c, w, s, hist, recip, out, x);
    sums.finish(out, x, w, row_sums);
}

// spatial_mask_cells' cells as bytes, 32 columns a step: its counts fit a
// byte (flags 1, column sums 7, box sums 49), and with the threshold
// clamped to 127 `sum > threshold` is the signed byte compare. The flags
// are found in 16-bit lanes (the samples are 16-bit) and packed to bytes;
// the mask values widened back to 16 bits. The scratch's 9w + 14 uint32
// hold 36w + 56 bytes, more than the byte cells need.
struct ByteCells {
    using Cell = std::uint8_t;
    using V = __m256i;
    static constexpr int kLanes = 32;
    static constexpr int kMaxThreshold = 127;
    static V set(int x) { return _mm256_set1_epi8(static_cast<char>(x)); }
    static V load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
    static void store(void* p, V v) { _mm256_storeu_si256(static_cast<__m256i*>(p), v); }
    static V add(V a, V b) { return _mm256_add_epi8(a, b); }
    static V sub(V a, V b) { return _mm256_sub_epi8(a, b); }
    static V band(V a, V b) { return _mm256_and_si256(a, b); }
    static V gt(V a, V b) { return _mm256_cmpgt_epi8(a, b); }
    static V flags(const std::uint16_t* row, const std::uint16_t* below, int x) {
        auto flags16 = [&](int at) {
            const V v = load(row + at);
            return _mm256_and_si256(_mm256_cmpeq_epi16(v, load(row + at + 1)),
                                    _mm256_cmpeq_epi16(v, load(below + at)));
        };
        // packs interleaves the two vectors' 128-bit halves; 0xD8 puts them
        // back in column order.
        return band(_mm256_permute4x64_epi64(_mm256_packs_epi16(flags16(x), flags16(x + 16)), 0xD8),
                    set(1));
    }
    static void store_mask(std::uint16_t* out, V m) {
        store(out, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(m)));
        store(out + 16, _mm256_cvtepu8_epi16(_mm256_extracti128_si256(m, 1)));
    }
    // The even columns' cells are the low bytes of the 16-bit lanes, in
    // order: one and makes them the 16 mask values.
    static void store_mask_half(std::uint16_t* out, V m) {
        store(out, _mm256_and_si256(m, _mm256_set1_epi16(0x00ff)));
    }
};

void Avx2Isa::sums(const float* row, int n, CValueSums& sums) { c_value_sums_avx2(row, n, sums); }

}  // namespace

void cambi_init_avx2(CambiKernels& k) {
    install_lanes<Avx2Lanes, Avx2Isa>(k);
    k.spatial_mask = &spatial_mask_cells<ByteCells>;
    k.spatial_mask_half = &spatial_mask_cells<ByteCells, true>;
}

}  // namespace vmafpp::cambi
