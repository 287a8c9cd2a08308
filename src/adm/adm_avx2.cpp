// AVX2 twins of the integer ADM stage kernels. Compiled with -mavx2 -mbmi2
// only in this translation unit; the dispatcher (adm_dispatch.cpp) hands them
// out only when cpu_flags() has kCpuAvx2.
//
// The spec is adm_scalar.cpp: every kernel here returns its integers bit for
// bit on every input the kernel can receive (full int16/int32 range, negative
// and huge thresholds, any width), not only on bands a decoder produces. The
// notes next to each expression say why the vector form is exact.
//
// The scale 1-3 angle test converts int64 values to float, which AVX2 has no
// instruction for; float_of_i64() does it exactly (see there).
#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "adm/adm_dwt_rows.hpp"
#include "adm/adm_kernels.hpp"
#include "adm/adm_simd.hpp"

namespace vmafpp::adm {

namespace {

using V = __m256i;

inline V load8_i16_as_i32(const std::int16_t* p) {
    return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}
inline V loadu(const void* p) { return _mm256_loadu_si256(static_cast<const V*>(p)); }
inline void storeu(void* p, V v) { _mm256_storeu_si256(static_cast<V*>(p), v); }
inline void store8_i16(std::int16_t* p, __m128i v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
}

// 8 int32 -> 8 int16 modulo 2^16, as a C++ conversion does: the shift pair
// sign-extends the low 16 bits, so the saturating pack is exact.
inline __m128i narrow_wrap(V v) {
    v = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
    return _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

// 8 int32 already in int16 range -> 8 int16 (the pack cannot saturate).
inline __m128i narrow_exact(V v) {
    return _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}

// Two int16 coefficients (c_lo for the first element of each pair) for madd.
inline V coeff_pair(std::int32_t c_lo, std::int32_t c_hi) {
    return _mm256_set1_epi32(static_cast<std::int32_t>((static_cast<std::uint32_t>(c_hi) << 16) |
                                                       (static_cast<std::uint32_t>(c_lo) & 0xffffu)));
}

// Places the low dwords of the 64-bit lanes of `even` and `odd` (results for
// elements 0,2,4,6 and 1,3,5,7) back into element order.
inline V interleave_low_dwords(V even, V odd) {
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

// acc + ((row + round) >> shift) with both additions modulo 2^64 and an
// arithmetic shift, as the scalar folds a row sum (arbitrary bands can carry
// the sums past 2^63; the scalar wraps there explicitly).
inline std::int64_t fold_row(std::int64_t acc, std::int64_t row, std::int64_t round, int shift) {
    const auto wrap_add = [](std::int64_t a, std::int64_t b) {
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    };
    return wrap_add(acc, wrap_add(row, round) >> shift);
}

inline std::int64_t hsum_i64(V v) {
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    // Modulo 2^64: the lanes hold biased (or wrapped) partial sums.
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(_mm_cvtsi128_si64(s)) +
                                     static_cast<std::uint64_t>(_mm_extract_epi64(s, 1)));
}

// Runs body(x) for blocks of `step` columns covering [x0, x1); the last block
// is moved back to end at x1, recomputing some columns. Only for kernels whose
// outputs are not their inputs (recomputation then stores the same values).
// Returns false (nothing done) when the span is narrower than one block.
template <class Body>
inline bool for_blocks_overlapping(int x0, int x1, int step, Body body) {
    if (x1 - x0 < step) return false;
    int x = x0;
    for (; x + step <= x1; x += step) body(x);
    if (x < x1) body(x1 - step);
    return true;
}

// ---------------------------------------------------------------------------
// DWT, scale 0

// Vertical pass of 8-bit rows, 16 columns per block. The madd pairs are
// exact: |c0*s0 + c1*s1| <= 43237 * 255. The sums minus the centring term are
// in (-7.1e6, 7.0e6), so after >> 8 every value fits int16 and the pack is
// exact (the scalar's modulo-2^32 arithmetic never wraps for 8-bit samples).
void dwt_s0_vertical_u8(const std::uint8_t* const rows[4], const std::uint8_t* const ahead[2],
                        int w, std::int16_t* lo, std::int16_t* hi) {
    const V lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const V hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    const V lo_bias = _mm256_set1_epi32(128 - kDwtLoSum * 128);
    const V hi_bias = _mm256_set1_epi32(128);
    auto load = [](const std::uint8_t* p) {
        return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    };
    for_blocks_overlapping(0, w, 16, [&](int j) {
        _mm_prefetch(reinterpret_cast<const char*>(ahead[0] + j), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(ahead[1] + j), _MM_HINT_T0);
        const V r0 = load(rows[0] + j), r1 = load(rows[1] + j);
        const V r2 = load(rows[2] + j), r3 = load(rows[3] + j);
        // Pairs of columns 0-3, 8-11 (a) and 4-7, 12-15 (b); packs restores order.
        const V p01a = _mm256_unpacklo_epi16(r0, r1), p01b = _mm256_unpackhi_epi16(r0, r1);
        const V p23a = _mm256_unpacklo_epi16(r2, r3), p23b = _mm256_unpackhi_epi16(r2, r3);
        auto filt = [&](V pa, V pb, V c01, V c23, V bias) {
            return _mm256_srai_epi32(
                _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(pa, c01), _mm256_madd_epi16(pb, c23)),
                                 bias),
                8);
        };
        const V la = filt(p01a, p23a, lo01, lo23, lo_bias);
        const V lb = filt(p01b, p23b, lo01, lo23, lo_bias);
        storeu(lo + j, _mm256_packs_epi32(la, lb));
        if (!hi) return;  // an approximation-only row
        const V ha = filt(p01a, p23a, hi01, hi23, hi_bias);
        const V hb = filt(p01b, p23b, hi01, hi23, hi_bias);
        storeu(hi + j, _mm256_packs_epi32(ha, hb));
    });
}

// Vertical pass of 9..16-bit rows, 8 columns per block: products and sums
// modulo 2^32 exactly as the scalar forms them, arithmetic shift by bpc, and
// a modulo-2^16 narrowing (samples above 2^bpc - 1 can push the result out
// of int16; the scalar then wraps, and so does this).
void dwt_s0_vertical_u16(const std::uint16_t* const rows[4], const std::uint16_t* const ahead[2],
                         int w, int bpc, std::int16_t* lo, std::int16_t* hi) {
    const std::uint32_t half = std::uint32_t{1} << (bpc - 1);
    const V lo_bias = _mm256_set1_epi32(static_cast<std::int32_t>(half - static_cast<std::uint32_t>(kDwtLoSum) * half));
    const V hi_bias = _mm256_set1_epi32(static_cast<std::int32_t>(half));
    const __m128i count = _mm_cvtsi32_si128(bpc);
    V cl[4], ch[4];
    for (int k = 0; k < 4; ++k) {
        cl[k] = _mm256_set1_epi32(kDwtLo[k]);
        ch[k] = _mm256_set1_epi32(kDwtHi[k]);
    }
    auto load = [](const std::uint16_t* p) {
        return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    };
    for_blocks_overlapping(0, w, 8, [&](int j) {
        _mm_prefetch(reinterpret_cast<const char*>(ahead[0] + j), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(ahead[1] + j), _MM_HINT_T0);
        V s[4];
        for (int k = 0; k < 4; ++k) s[k] = load(rows[k] + j);
        V l = lo_bias, h = hi_bias;
        for (int k = 0; k < 4; ++k) l = _mm256_add_epi32(l, _mm256_mullo_epi32(cl[k], s[k]));
        store8_i16(lo + j, narrow_wrap(_mm256_sra_epi32(l, count)));
        if (!hi) return;  // an approximation-only row
        for (int k = 0; k < 4; ++k) h = _mm256_add_epi32(h, _mm256_mullo_epi32(ch[k], s[k]));
        store8_i16(hi + j, narrow_wrap(_mm256_sra_epi32(h, count)));
    });
}

// Horizontal pass of scale 0 over a padded row p (p[0] is value -1): output j
// reads the pairs (p[2j], p[2j+1]) and (p[2j+2], p[2j+3]), so one madd per
// pair of taps. Each madd is below 43237 * 32768 and the two together below
// 54822 * 32768 + 32768 < 2^31, as in the scalar int32 sum; results of
// (sum + 2^15) >> 16 lie in [-32768, 32767], so the packs are exact.
// Reads p[2j .. 2j+17] for the block at j; j + 8 <= out_w keeps that inside
// the w + 3 values of the row.
void dwt_s0_horizontal(const std::int16_t* lo, const std::int16_t* hi, int out_w, std::int16_t* a,
                       std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
    const V lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const V hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    const V round = _mm256_set1_epi32(32768);
    auto filt = [&](V p, V q, V c01, V c23) {
        return _mm256_srai_epi32(
            _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(p, c01), _mm256_madd_epi16(q, c23)), round),
            16);
    };
    // 16 outputs per block where the row has them: the two halves' int32
    // results (outputs j..j+7 and j+8..j+15) in one vpackssdw, whose
    // 128-bit lane order [0-3, 8-11 | 4-7, 12-15] one vpermq puts back.
    // Reads values 2j .. 2j + 33; j + 16 <= out_w keeps that inside the row.
    auto filt16 = [&](const std::int16_t* p, V c01, V c23) {
        const V x = filt(loadu(p), loadu(p + 2), c01, c23);
        const V y = filt(loadu(p + 16), loadu(p + 18), c01, c23);
        return _mm256_permute4x64_epi64(_mm256_packs_epi32(x, y), _MM_SHUFFLE(3, 1, 2, 0));
    };
    if (for_blocks_overlapping(0, out_w, 16, [&](int j) {
            storeu(a + j, filt16(lo + 2 * j, lo01, lo23));
            if (!hi) return;  // an approximation-only row
            storeu(bv + j, filt16(lo + 2 * j, hi01, hi23));
            storeu(bh + j, filt16(hi + 2 * j, lo01, lo23));
            storeu(bd + j, filt16(hi + 2 * j, hi01, hi23));
        }))
        return;
    for_blocks_overlapping(0, out_w, 8, [&](int j) {
        const V lp = loadu(lo + 2 * j), lq = loadu(lo + 2 * j + 2);
        store8_i16(a + j, narrow_exact(filt(lp, lq, lo01, lo23)));
        if (!hi) return;  // an approximation-only row
        const V hp = loadu(hi + 2 * j), hq = loadu(hi + 2 * j + 2);
        store8_i16(bv + j, narrow_exact(filt(lp, lq, hi01, hi23)));
        store8_i16(bh + j, narrow_exact(filt(hp, hq, lo01, lo23)));
        store8_i16(bd + j, narrow_exact(filt(hp, hq, hi01, hi23)));
    });
}

// Output rows between a source row's prefetch and its first load (as in
// adm_avx512.cpp).
constexpr int kAhead = 2;

// The two new source rows of output row i + kAhead: the picture is usually
// out of cache (the previous frame's bands evicted it), and its stride-2
// row pairs outrun the hardware prefetch (a hint only; it cannot fault, and
// reflected rows stay inside the picture).
template <class T>
struct AheadRows {
    AheadRows(const T* src, std::ptrdiff_t src_stride, int h, int i) {
        for (int k = 0; k < 2; ++k) {
            const int r = 2 * (i + kAhead) + 1 + k;
            rows[k] = src + (r < h ? r : h - 1) * src_stride;
        }
    }
    const T* rows[2];
};

void dwt_s0_u8_avx2(const std::uint8_t* src, std::ptrdiff_t src_stride, int w, int h, int y0,
                    int y1, std::int16_t* scratch, std::int16_t* band_a,
                    std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    if (w < 16) {  // narrower than one vertical block (never from a picture >= kMinSize)
        dwt_s0_u8(src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride);
        return;
    }
    dwt_s0_rows(src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride,
                [&](const std::uint8_t* const rows[4], int i, std::int16_t* lo, std::int16_t* hi) {
                    const AheadRows<std::uint8_t> ahead(src, src_stride, h, i);
                    dwt_s0_vertical_u8(rows, ahead.rows, w, lo, hi);
                },
                dwt_s0_horizontal);
}

void dwt_s0_u16_avx2(const std::uint16_t* src, std::ptrdiff_t src_stride, int w, int h, int bpc,
                     int y0, int y1, std::int16_t* scratch, std::int16_t* band_a,
                     std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    if (w < 16) {
        dwt_s0_u16(src, src_stride, w, h, bpc, y0, y1, scratch, band_a, band_hvd, band_stride);
        return;
    }
    dwt_s0_rows(src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride,
                [&](const std::uint16_t* const rows[4], int i, std::int16_t* lo, std::int16_t* hi) {
                    const AheadRows<std::uint16_t> ahead(src, src_stride, h, i);
                    dwt_s0_vertical_u16(rows, ahead.rows, w, bpc, lo, hi);
                },
                dwt_s0_horizontal);
}

// ---------------------------------------------------------------------------
// DWT, scales 1..3

// sum_k c[k] * q[k] (int64, |.| < 54822 * 2^31 < 2^47) plus round, shifted
// right by `shift` <= 16 and narrowed to int32, for the 8 lanes of q. The
// narrowing keeps bits shift .. shift+31 of the two's-complement sum, which a
// logical shift leaves where an arithmetic one would (shift + 31 < 64).
inline V filt4_i64(const V q[4], const V c[4], V round, __m128i count) {
    V even = round, odd = round;
    for (int k = 0; k < 4; ++k) {
        even = _mm256_add_epi64(even, _mm256_mul_epi32(q[k], c[k]));
        odd = _mm256_add_epi64(odd, _mm256_mul_epi32(_mm256_srli_epi64(q[k], 32), c[k]));
    }
    return interleave_low_dwords(_mm256_srl_epi64(even, count), _mm256_srl_epi64(odd, count));
}

// The horizontal pass of scales 1-3 in 16-bit pieces (as adm_avx512.cpp's).
// Each int32 value p of a vertical-pass row is stored as p = 2^16 * ph + pl
// + 2^15 with ph = p >> 16 and pl = (p mod 2^16) - 2^15, both in [-2^15,
// 2^15), so that for a filter c (int16 coefficients, sum S, even)
//   sum c p = 2^16 * A + B + 2^15 * S,  A = sum c ph,  B = sum c pl,
// where vpmaddwd forms A and B exactly: each pair is below (27411 + 15826) *
// 2^15 < 2^31 and each sum below 54822 * 2^15. Then
//   shift 16: (sum c p + 2^15) >> 16 = A + S / 2 + ((B + 2^15) >> 16),
//   shift 15: (sum c p + 2^14) >> 15 = 2A + S + ((B + 2^14) >> 15),
// since 2^16 * A and 2^15 * S are multiples of the divisor. The scalar
// narrows that value to int32; the int32 lane arithmetic (2A can wrap) is
// the same value modulo 2^32.
struct SplitRow {
    std::int16_t* ph;  // w + 3 values each, value k at [1 + k]
    std::int16_t* pl;
};

// Stores 8 int32 values as their (ph, pl) pieces: ph by an exact pack, pl
// as the low 16 bits of p xor 2^15 (the unsigned pack of values below 2^16
// is exact too).
inline void store_split8(std::int16_t* ph, std::int16_t* pl, V v) {
    store8_i16(ph, narrow_exact(_mm256_srai_epi32(v, 16)));
    const V low = _mm256_and_si256(_mm256_xor_si256(v, _mm256_set1_epi32(0x8000)),
                                   _mm256_set1_epi32(0xffff));
    store8_i16(pl, _mm_packus_epi32(_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1)));
}

// The same for 16 values given as a = columns 0-3, 8-11 and b = columns
// 4-7, 12-15 (vpunpck order): the 128-bit lane packs restore column order.
inline void store_split16(std::int16_t* ph, std::int16_t* pl, V a, V b) {
    storeu(ph, _mm256_packs_epi32(_mm256_srai_epi32(a, 16), _mm256_srai_epi32(b, 16)));
    const V flip = _mm256_set1_epi32(0x8000), low = _mm256_set1_epi32(0xffff);
    storeu(pl, _mm256_packus_epi32(_mm256_and_si256(_mm256_xor_si256(a, flip), low),
                                   _mm256_and_si256(_mm256_xor_si256(b, flip), low)));
}

// Outputs j..j+7 of one filter (c01, c23: coefficient pairs; half_sum: S /
// 2) over a split row, for the horizontal shift hs (15 or 16). Reads values
// 2j .. 2j + 17 of each row.
inline V filt4_h_split(const SplitRow& r, int j, V c01, V c23, int half_sum, int hs) {
    const V a = _mm256_add_epi32(_mm256_madd_epi16(loadu(r.ph + 2 * j), c01),
                                 _mm256_madd_epi16(loadu(r.ph + 2 * j + 2), c23));
    const V b = _mm256_add_epi32(_mm256_madd_epi16(loadu(r.pl + 2 * j), c01),
                                 _mm256_madd_epi16(loadu(r.pl + 2 * j + 2), c23));
    if (hs == 16)
        return _mm256_add_epi32(
            _mm256_add_epi32(a, _mm256_set1_epi32(half_sum)),
            _mm256_srai_epi32(_mm256_add_epi32(b, _mm256_set1_epi32(1 << 15)), 16));
    return _mm256_add_epi32(
        _mm256_add_epi32(_mm256_add_epi32(a, a), _mm256_set1_epi32(2 * half_sum)),
        _mm256_srai_epi32(_mm256_add_epi32(b, _mm256_set1_epi32(1 << 14)), 15));
}

constexpr int kVShift[3] = {0, 16, 16};
constexpr int kHShift[3] = {15, 16, 15};

// 8 samples as int32: int16 ones (scale 1 of the int16 scale-0
// approximation) sign-extended.
inline V load_i32x8(const std::int32_t* p) { return loadu(p); }
inline V load_i32x8(const std::int16_t* p) {
    return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// The vertical pass of scale 1 over int16 rows (w >= 16), 16 columns per
// block, into split rows: rows k and k + 1 interleaved, so that one vpmaddwd
// forms c0 s0 + c1 s1 for 8 columns. No sum wraps (each pair is below 43237
// * 2^15, both below 54822 * 2^15 < 2^31), and scale 1's vertical pass
// neither rounds nor shifts, so the int32 lanes hold the scalar's narrowed
// int64 sums. The unpacks leave columns 0-3, 8-11 in one vector and 4-7,
// 12-15 in the other, the order store_split16 takes. `high`: also the
// high-pass row (not for approximation-only rows).
inline void vertical_s1_pairs(const std::int16_t* const rows[4], int w, bool high,
                              const SplitRow& lo, const SplitRow& hi) {
    const V lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const V hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    for_blocks_overlapping(0, w, 16, [&](int j) {
        const V r0 = loadu(rows[0] + j), r1 = loadu(rows[1] + j);
        const V r2 = loadu(rows[2] + j), r3 = loadu(rows[3] + j);
        const V p01a = _mm256_unpacklo_epi16(r0, r1), p01b = _mm256_unpackhi_epi16(r0, r1);
        const V p23a = _mm256_unpacklo_epi16(r2, r3), p23b = _mm256_unpackhi_epi16(r2, r3);
        auto filt = [&](const SplitRow& out, V c01, V c23) {
            const V a = _mm256_add_epi32(_mm256_madd_epi16(p01a, c01), _mm256_madd_epi16(p23a, c23));
            const V b = _mm256_add_epi32(_mm256_madd_epi16(p01b, c01), _mm256_madd_epi16(p23b, c23));
            store_split16(out.ph + 1 + j, out.pl + 1 + j, a, b);
        };
        filt(lo, lo01, lo23);
        if (high) filt(hi, hi01, hi23);
    });
}

template <class T>
void dwt_scale_avx2(const T* src, std::ptrdiff_t src_stride, int w, int h, int scale, int y0,
                    int y1, std::int32_t* scratch, std::int32_t* band_a,
                    std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    const int out_w = (w + 1) / 2;
    const int vs = kVShift[scale - 1], hs = kHShift[scale - 1];
    const V vround = _mm256_set1_epi64x(vs > 0 ? std::int64_t{1} << (vs - 1) : 0);
    const __m128i vcount = _mm_cvtsi32_si128(vs);
    V cl[4], ch[4];
    for (int k = 0; k < 4; ++k) {
        cl[k] = _mm256_set1_epi32(kDwtLo[k]);
        ch[k] = _mm256_set1_epi32(kDwtHi[k]);
    }
    const V lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const V hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    constexpr int kLoHalfSum = kDwtLoSum / 2, kHiHalfSum = 0;  // kDwtHi sums to 0
    // The scratch's 4 * (w + 3) int32 hold the four int16 rows of 2 * (w + 3).
    std::int16_t* s16 = reinterpret_cast<std::int16_t*>(scratch);
    const SplitRow lo{s16, s16 + (w + 3)};
    const SplitRow hi{s16 + 2 * (w + 3), s16 + 3 * (w + 3)};
    auto vertical = [&](const T* const rows[4], int /*i*/, bool high) {
        bool done = false;
        if constexpr (sizeof(T) == 2) {
            if (w >= 16) {
                vertical_s1_pairs(rows, w, high, lo, hi);
                done = true;
            }
        }
        if (!done) {
            for_blocks_overlapping(0, w, 8, [&](int j) {
                V q[4];
                for (int k = 0; k < 4; ++k) q[k] = load_i32x8(rows[k] + j);
                // Approximation-only rows need the low-pass row alone.
                auto filt = [&](const V* c) {
                    if (vs != 0) return filt4_i64(q, c, vround, vcount);
                    // No rounding or shift: the int32 narrowing of the int64
                    // sum is the sum modulo 2^32, which int32 lanes give.
                    V v = _mm256_mullo_epi32(q[0], c[0]);
                    for (int k = 1; k < 4; ++k)
                        v = _mm256_add_epi32(v, _mm256_mullo_epi32(q[k], c[k]));
                    return v;
                };
                store_split8(lo.ph + 1 + j, lo.pl + 1 + j, filt(cl));
                if (high) store_split8(hi.ph + 1 + j, hi.pl + 1 + j, filt(ch));
            });
        }
        pad_row(lo.ph, w);
        pad_row(lo.pl, w);
        if (!high) return;
        pad_row(hi.ph, w);
        pad_row(hi.pl, w);
    };
    // The block at j reads values 2j .. 2j + 17 of each row (j + 8 <= out_w
    // keeps that inside its w + 3 values).
    auto horizontal = [&](std::int32_t* a, std::int32_t* bh, std::int32_t* bv, std::int32_t* bd) {
        for_blocks_overlapping(0, out_w, 8, [&](int j) {
            storeu(a + j, filt4_h_split(lo, j, lo01, lo23, kLoHalfSum, hs));
            if (!bh) return;  // an approximation-only row
            storeu(bv + j, filt4_h_split(lo, j, hi01, hi23, kHiHalfSum, hs));
            storeu(bh + j, filt4_h_split(hi, j, lo01, lo23, kLoHalfSum, hs));
            storeu(bd + j, filt4_h_split(hi, j, hi01, hi23, kHiHalfSum, hs));
        });
    };
    dwt_rows(src, src_stride, h, y0, y1, band_a, band_hvd, band_stride, vertical, horizontal);
}

void dwt_s123_avx2(const std::int32_t* src, std::ptrdiff_t src_stride, int w, int h, int scale,
                   int y0, int y1, std::int32_t* scratch, std::int32_t* band_a,
                   std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    if ((w + 1) / 2 < 8)  // narrower than one horizontal block
        dwt_s123(src, src_stride, w, h, scale, y0, y1, scratch, band_a, band_hvd, band_stride);
    else
        dwt_scale_avx2(src, src_stride, w, h, scale, y0, y1, scratch, band_a, band_hvd,
                       band_stride);
}

void dwt_s1_avx2(const std::int16_t* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
                 std::int32_t* scratch, std::int32_t* band_a, std::int32_t* const band_hvd[3],
                 std::ptrdiff_t band_stride) {
    if ((w + 1) / 2 < 8)
        dwt_s1(src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride);
    else
        dwt_scale_avx2(src, src_stride, w, h, 1, y0, y1, scratch, band_a, band_hvd, band_stride);
}

// ---------------------------------------------------------------------------
// Decouple, scale 0

// float(v) for a sum of two int16 products formed in an int32 lane. The true
// sum is in [2 * -32768 * 32767, 2^31]; only 2^31 (both products 2^30) wraps,
// to INT32_MIN, so a lane holding INT32_MIN means +2^31.
inline __m256 sum_of_products_to_float(V v) {
    const __m256 f = _mm256_cvtepi32_ps(v);
    const V wrapped = _mm256_cmpeq_epi32(v, _mm256_set1_epi32(std::numeric_limits<std::int32_t>::min()));
    return _mm256_blendv_ps(f, _mm256_set1_ps(0x1p31f), _mm256_castsi256_ps(wrapped));
}

// libvmaf's 1-degree angle test on 4 lanes of the floats of the dot product
// and squared magnitudes (as doubles), in the scalar's double order:
// (d >= 0) & (d * d >= ((double)cos_sq * o) * t) with d, o, t the values
// divided by 4096. The division is left out (as in adm_avx512.cpp): the
// values are integers (or 0) below 2^64, so no operand or product comes
// near underflow or overflow, where scaling by a power of two commutes with
// each round-to-nearest product; both sides carry the same factor 2^-24.
// All ones in the lanes that pass.
inline __m256d angle_close4(__m256d dot, __m256d omag, __m256d tmag, __m256d cos_sq) {
    const __m256d nonneg = _mm256_cmp_pd(dot, _mm256_setzero_pd(), _CMP_GE_OQ);
    const __m256d close = _mm256_cmp_pd(_mm256_mul_pd(dot, dot),
                                        _mm256_mul_pd(_mm256_mul_pd(cos_sq, omag), tmag), _CMP_GE_OQ);
    return _mm256_and_pd(nonneg, close);
}

// The test on 8 lanes of scale 0's float sums (integers below 2^32, exact in
// double), as an int32 lane mask: the low dwords of the two 4-lane double
// masks, in order.
inline V angle_mask8(__m256 dot, __m256 omag, __m256 tmag, __m256d cos_sq) {
    auto half = [&](__m128 d, __m128 o, __m128 t) {
        return _mm256_castpd_si256(angle_close4(_mm256_cvtps_pd(d), _mm256_cvtps_pd(o),
                                                _mm256_cvtps_pd(t), cos_sq));
    };
    const V lo = half(_mm256_castps256_ps128(dot), _mm256_castps256_ps128(omag),
                      _mm256_castps256_ps128(tmag));
    const V hi = half(_mm256_extractf128_ps(dot, 1), _mm256_extractf128_ps(omag, 1),
                      _mm256_extractf128_ps(tmag, 1));
    const V low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(lo, low_dwords),
                              _mm256_permutevar8x32_epi32(hi, low_dwords), 0xF0);
}

// k = clamp((div[o] * t + 2^14) >> 15, 0, 2^15), 2^15 where o == 0, in
// int32 lanes: with div = dh * 2^15 + dl (dh = div >> 15 arithmetic, dl in
// [0, 2^15)), (div * t + 2^14) >> 15 = dh * t + ((dl * t + 2^14) >> 15),
// because dh * t * 2^15 is a multiple of 2^15. |div| <= 2^30 gives |dh| <=
// 2^15, and |t| <= 2^15: dh * t and dl * t + 2^14 (in (-2^30, 2^30)) are
// exact in int32, and so is their sum (|.| <= 2^30 + 2^15).
inline V ratio_q15(V o, V t, const std::int32_t* div) {
    const V dv = _mm256_i32gather_epi32(div, o, 4);
    const V dh = _mm256_srai_epi32(dv, 15);
    const V dl = _mm256_and_si256(dv, _mm256_set1_epi32(0x7fff));
    const V low = _mm256_srai_epi32(
        _mm256_add_epi32(_mm256_mullo_epi32(dl, t), _mm256_set1_epi32(16384)), 15);
    const V q = _mm256_add_epi32(_mm256_mullo_epi32(dh, t), low);
    const V zero = _mm256_setzero_si256();
    const V k = _mm256_min_epi32(_mm256_max_epi32(q, zero), _mm256_set1_epi32(32768));
    return _mm256_blendv_epi8(k, _mm256_set1_epi32(32768), _mm256_cmpeq_epi32(o, zero));
}

// trunc(fl(rst * gain)) on 8 lanes: the double product rounded to nearest,
// then a truncating conversion, as the scalar's double-to-integer conversion
// does. |rst| <= 2^15 and gain <= 65535 keep the result inside int32.
inline V gain_product(V rst, __m256d gain) {
    const __m128i lo = _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(rst)), gain));
    const __m128i hi = _mm256_cvttpd_epi32(_mm256_mul_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(rst, 1)), gain));
    return _mm256_set_m128i(hi, lo);
}

// What both scales' decoupling reads besides the bands (adm_simd.hpp),
// doubles four to a ymm.
struct Pd4 {
    static __m256d set(double v) { return _mm256_set1_pd(v); }
};
using DecoupleConstants = DecoupleConstantsOf<Pd4>;

// body(i, o, t) for the blocks of kStep samples of the region (the last
// one moved back, see for_blocks_overlapping: decouple's outputs are not its
// inputs), i the samples' index in the bands and o, t the ref and dis
// values of h, v and d: 8 as int32 (int16 bands sign-extended), or 16 int16
// samples as they are (kStep 16, scale 0's 16-bit lanes).
template <int kStep = 8, class T, class Body>
inline void for_decouple_blocks(const T* const ref_hvd[3], const T* const dis_hvd[3],
                                std::ptrdiff_t stride, Rect region, Body body) {
    static_assert(kStep == 8 || (kStep == 16 && sizeof(T) == 2));
    auto load = [](const T* p) {
        if constexpr (kStep == 16)
            return loadu(p);
        else
            return load_i32x8(p);
    };
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        for_blocks_overlapping(region.x0, region.x1, kStep, [&](int x) {
            const std::ptrdiff_t i = row + x;
            V o[3], t[3];
            for (int b = 0; b < 3; ++b) {
                o[b] = load(ref_hvd[b] + i);
                t[b] = load(dis_hvd[b] + i);
            }
            body(i, o, t);
        });
    }
}

// kNonNegativeGain: gain >= 0, where every restored value fits int16 (see
// below), so r needs no wrap and a = t - r is formed in 16-bit lanes.
template <bool kIntegralGain, bool kNonNegativeGain>
void decouple_s0_rows(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                      std::ptrdiff_t stride, Rect region, double gain_limit,
                      std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    const DecoupleConstants c(gain_limit);
    const V gain_int = _mm256_set1_epi32(kIntegralGain ? static_cast<std::int32_t>(gain_limit) : 0);
    const V zero = _mm256_setzero_si256();
    const V round = _mm256_set1_epi32(16384);
    auto block = [&](std::ptrdiff_t i, const V* o, const V* t) {
        // Sums of two int16 products in int32, by vpmaddwd on (h, v) pairs
        // (h in the low, v in the high 16 bits of a dword): the same
        // wrapped int32 sums as products added in int32 lanes, which
        // sum_of_products_to_float reads.
        const V op = _mm256_blend_epi16(o[0], _mm256_slli_epi32(o[1], 16), 0xAA);
        const V tp = _mm256_blend_epi16(t[0], _mm256_slli_epi32(t[1], 16), 0xAA);
        const __m256 fd = sum_of_products_to_float(_mm256_madd_epi16(op, tp));
        const __m256 fo = sum_of_products_to_float(_mm256_madd_epi16(op, op));
        const __m256 ft = sum_of_products_to_float(_mm256_madd_epi16(tp, tp));
        const V angle = angle_mask8(fd, fo, ft, c.cos_sq);
        for (int b = 0; b < 3; ++b) {
            const V k = ratio_q15(o[b], t[b], c.div);
            // k <= 2^15, |o| <= 2^15: exact in int32.
            V rst = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k, o[b]), round), 15);
            // |rst| <= 2^15, |gain| <= 65535: the integer product fits int32.
            const V p = kIntegralGain ? _mm256_mullo_epi32(rst, gain_int) : gain_product(rst, c.gain);
            const V limited = _mm256_blendv_epi8(_mm256_max_epi32(p, t[b]), _mm256_min_epi32(p, t[b]),
                                                 _mm256_cmpgt_epi32(o[b], zero));
            const V skip = _mm256_or_si256(_mm256_cmpeq_epi32(k, zero), _mm256_cmpeq_epi32(o[b], zero));
            rst = _mm256_blendv_epi8(rst, limited, _mm256_andnot_si256(skip, angle));
            if constexpr (kNonNegativeGain) {
                // Unlimited, rst = (k o + 2^14) >> 15 lies between 0 and o
                // (0 <= k <= 2^15); limited with gain >= 0, p has o's sign,
                // so min(p, t) (o > 0) lies in [min(0, t), t] and max(p, t)
                // (o < 0) in [t, max(0, t)]: int16 either way, the pack is
                // exact. a = t - r modulo 2^16 is the scalar's narrowing.
                const __m128i r16 = narrow_exact(rst);
                store8_i16(r_hvd[b] + i, r16);
                const __m128i t16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(dis_hvd[b] + i));
                store8_i16(a_hvd[b] + i, _mm_sub_epi16(t16, r16));
            } else {
                store8_i16(r_hvd[b] + i, narrow_wrap(rst));
                store8_i16(a_hvd[b] + i, narrow_wrap(_mm256_sub_epi32(t[b], rst)));
            }
        }
    };
    for_decouple_blocks(ref_hvd, dis_hvd, stride, region, block);
}

// ---------------------------------------------------------------------------
// Decouple, scale 0, 16 samples per block in 16-bit lanes: the path of an
// integral gain g in [0, 2^15) (libvmaf's default 100 and the models' 1),
// for regions at least 16 wide.

// The angle test of 8 samples whose float dot products and squared
// magnitudes are given (the scalar's conversions), decided in float where
// float decides it (all ones in the dwords that pass), with `unsure` set
// in the dwords float cannot decide. With D = fl32(d * d), P = fl32(fl32(c
// * o) * t) (c = cos^2(1 degree) as float; no operand is subnormal, every
// value is 0 or at least 1 times c, and d^2 <= 2^62 stays far below the
// float range), the scalar compares d^2 (exact in double) with R =
// fl64(c o t) (c o is exact in double): R = c o t (1 + e0), D = d^2 (1 +
// e1), P = c o t (1 + e2)(1 + e3), |e0| <= 2^-53, |e1..3| <= 2^-24. With
// P+ = fl32(P (1 + 2^-20)) >= c o t (1 - 2^-24)^3 (1 + 2^-20):
//   D >= P+  gives  d^2 >= c o t (1 - 2^-24)^3 (1 + 2^-20) / (1 + 2^-24)
//            >= c o t (1 + 2^-21) >= R    (c o t >= 0),
// and with P- = fl32(P (1 - 2^-20)) <= c o t (1 + 2^-24)^3 (1 - 2^-20):
//   D < P-   gives  d^2 < c o t (1 + 2^-24)^3 (1 - 2^-20) / (1 - 2^-24)
//            <= c o t (1 - 2^-21) <= R.
// The sign test d >= 0 is exact (the conversion keeps the sign). So a
// sample passes where d >= 0 and D >= P+, fails where d < 0 or D < P-, and
// only P- <= D < P+ is unsure: then the caller runs the double test.
// `margin` is the bound's 2^-20 (scales 1-3 use it with their own, below).
inline V angle_mask8_float(__m256 d, __m256 o, __m256 t, __m256 cos_sq, V& unsure,
                           float margin = 0x1p-20f) {
    const __m256 dd = _mm256_mul_ps(d, d);
    const __m256 p = _mm256_mul_ps(_mm256_mul_ps(cos_sq, o), t);
    const __m256 p_hi = _mm256_mul_ps(p, _mm256_set1_ps(1.0f + margin));
    const __m256 p_lo = _mm256_mul_ps(p, _mm256_set1_ps(1.0f - margin));
    const __m256 nonneg = _mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_GE_OQ);
    const __m256 pass = _mm256_and_ps(nonneg, _mm256_cmp_ps(dd, p_hi, _CMP_GE_OQ));
    const __m256 fail_or_pass =
        _mm256_or_ps(pass, _mm256_cmp_ps(dd, p_lo, _CMP_LT_OQ));
    unsure = _mm256_castps_si256(_mm256_andnot_ps(fail_or_pass, nonneg));
    return _mm256_castps_si256(pass);
}

// float(v) for a squared magnitude formed by vpmaddwd: the true value is in
// [0, 2^31], and only 2^31 (both squares 2^30) wraps, to INT32_MIN, whose
// float is -2^31; the absolute value gives 2^31 back.
inline __m256 square_sum_to_float(V v) {
    return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), _mm256_cvtepi32_ps(v));
}

// The angle test of 16 samples (int16 h and v of ref o and dis t), as a
// 16-bit lane mask in sample order. The (h, v) pairs are interleaved by
// vpunpck{l,h}wd: half a holds samples 0-3 and 8-11, half b samples 4-7
// and 12-15, the order vpackssdw of (a, b) undoes.
inline V angle_mask16(V oh, V ov, V th, V tv, __m256 cos_sq_f, __m256d cos_sq) {
    const V oa = _mm256_unpacklo_epi16(oh, ov), ob = _mm256_unpackhi_epi16(oh, ov);
    const V ta = _mm256_unpacklo_epi16(th, tv), tb = _mm256_unpackhi_epi16(th, tv);
    const __m256 da = sum_of_products_to_float(_mm256_madd_epi16(oa, ta));
    const __m256 db = sum_of_products_to_float(_mm256_madd_epi16(ob, tb));
    const __m256 oma = square_sum_to_float(_mm256_madd_epi16(oa, oa));
    const __m256 omb = square_sum_to_float(_mm256_madd_epi16(ob, ob));
    const __m256 tma = square_sum_to_float(_mm256_madd_epi16(ta, ta));
    const __m256 tmb = square_sum_to_float(_mm256_madd_epi16(tb, tb));
    V unsure_a, unsure_b;
    V ma = angle_mask8_float(da, oma, tma, cos_sq_f, unsure_a);
    V mb = angle_mask8_float(db, omb, tmb, cos_sq_f, unsure_b);
    const V unsure = _mm256_or_si256(unsure_a, unsure_b);
    if (!_mm256_testz_si256(unsure, unsure)) {  // rare: an angle within 2^-19 of 1 degree's
        ma = angle_mask8(da, oma, tma, cos_sq);
        mb = angle_mask8(db, omb, tmb, cos_sq);
    }
    return _mm256_packs_epi32(ma, mb);
}

// k = clamp((div[o] * t + 2^14) >> 15, 0, 2^15) of 16 int16 samples, as
// uint16 lanes (2^15 is 0x8000). With div = dh * 2^15 + dl (dh = div >> 15,
// dl in [0, 2^15)), that is dh * t + ((dl * t + 2^14) >> 15) (see
// ratio_q15), and:
// - the low part is vpmulhrsw(dl, t): dl < 2^15 is an int16 other than
//   -2^15, so the product is exact and the result in [-32767, 32767];
// - dh is in [-2^15, 2^15]; the pack saturates 2^15 (div = 2^30, o = 1
//   only) to 2^15 - 1. For o = 1 (dl = 0) that gives k = clamp((2^15 - 1)
//   t) instead of clamp(2^15 t): equal except k = 2^15 - 1 for 2^15 at t =
//   1, where both restore (k + 2^14) >> 15 = 1 and neither is 0, so the
//   outputs are the scalar's;
// - dh * t + low * 1 is one vpmaddwd of the pairs (dh, low) and (t, 1):
//   |dh * t| <= 2^30 and |low| < 2^15, so the int32 sum is exact;
// - min(q, 2^15), then vpackusdw clamps below at 0 (and restores sample
//   order from the unpacks' halves, as in angle_mask16).
// o = 0 reads the table's centre, 0, and gets k = 0 where the scalar has
// 2^15; k is not used there: r = (k * 0 + 2^14) >> 15 = 0 for any k, and
// the gain limit is skipped for o = 0 either way.
inline V ratio_q15_16(V o, V t, const std::int32_t* div) {
    const V sign = _mm256_srai_epi16(o, 15);
    const V ga = _mm256_i32gather_epi32(div, _mm256_unpacklo_epi16(o, sign), 4);
    const V gb = _mm256_i32gather_epi32(div, _mm256_unpackhi_epi16(o, sign), 4);
    const V dh = _mm256_packs_epi32(_mm256_srai_epi32(ga, 15), _mm256_srai_epi32(gb, 15));
    const V low15 = _mm256_set1_epi32(0x7fff);
    const V dl = _mm256_packs_epi32(_mm256_and_si256(ga, low15), _mm256_and_si256(gb, low15));
    const V low = _mm256_mulhrs_epi16(dl, t);
    const V ones = _mm256_set1_epi16(1);
    const V qa = _mm256_madd_epi16(_mm256_unpacklo_epi16(dh, low), _mm256_unpacklo_epi16(t, ones));
    const V qb = _mm256_madd_epi16(_mm256_unpackhi_epi16(dh, low), _mm256_unpackhi_epi16(t, ones));
    const V kmax = _mm256_set1_epi32(32768);
    return _mm256_packus_epi32(_mm256_min_epi32(qa, kmax), _mm256_min_epi32(qb, kmax));
}

// (k * o + 2^14) >> 15 for k in [0, 2^15] (uint16 lanes) and int16 o:
// for k < 2^15 vpmulhrsw is exact (k is a non-negative int16) and vpsignw
// by k keeps it (k > 0) or gives 0 (k = 0, where it is 0 already); for k =
// 2^15 (the int16 -2^15) vpmulhrsw gives (-2^15 o + 2^14) >> 15 = -o
// (modulo 2^16: -2^15 for o = -2^15) and vpsignw negates it back to o, the
// scalar's (2^15 o + 2^14) >> 15. The result lies between 0 and o: int16.
inline V restore16(V k, V o) { return _mm256_sign_epi16(_mm256_mulhrs_epi16(k, o), k); }

// rst * g saturated to int16 for an integral g in [0, 2^15): the int32
// product from vpmullw / vpmulhw, packed with signed saturation (in sample
// order again). The caller takes min(p, t) where o > 0 (rst >= 0, so p >=
// 0: a product above 32767 becomes 32767 >= t, and the minimum is t, as
// with the exact product) and max(p, t) where o < 0 (symmetrically): the
// scalar's int64 min / max.
inline V gain_product_sat16(V rst, V g) {
    const V lo = _mm256_mullo_epi16(rst, g), hi = _mm256_mulhi_epi16(rst, g);
    return _mm256_packs_epi32(_mm256_unpacklo_epi16(lo, hi), _mm256_unpackhi_epi16(lo, hi));
}

// perf annotate (p19, v1.0.16 options, cpumask 48) puts this kernel's time
// on the instructions that wait for the two gathers of each band, not on
// its arithmetic.
// Decouple of scale 0 in 16-bit lanes for an integral gain in [0, 2^15)
// (kUnitGain: gain 1, where the product is rst itself), regions at least 16
// samples wide. Every value is an int16 (see ratio_q15_16, restore16,
// gain_product_sat16); a = t - r modulo 2^16 is the scalar's narrowing.
template <bool kUnitGain>
void decouple_s0_rows16(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                        std::ptrdiff_t stride, Rect region, double gain_limit,
                        std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    const DecoupleConstants c(gain_limit);
    const __m256 cos_sq_f = _mm256_set1_ps(cos_1deg_sq());
    const V gain = _mm256_set1_epi16(static_cast<std::int16_t>(gain_limit));
    const V zero = _mm256_setzero_si256();
    for_decouple_blocks<16>(ref_hvd, dis_hvd, stride, region, [&](std::ptrdiff_t i, const V* o,
                                                                     const V* t) {
        const V angle = angle_mask16(o[0], o[1], t[0], t[1], cos_sq_f, c.cos_sq);
        for (int b = 0; b < 3; ++b) {
            // k matters only where o != 0 (see ratio_q15_16) and is 0
            // where t == 0 (q = dh * 0 + 0); a block with no sample
            // where both are non-zero (flat content: half the blocks of
            // the testsrc clip, 1% of natural ones) skips the gathers.
            const V o_zero = _mm256_cmpeq_epi16(o[b], zero);
            const V none = _mm256_or_si256(o_zero, _mm256_cmpeq_epi16(t[b], zero));
            const V k = _mm256_testc_si256(none, _mm256_cmpeq_epi16(zero, zero))
                            ? zero
                            : ratio_q15_16(o[b], t[b], c.div);
            V rst = restore16(k, o[b]);
            const V p = kUnitGain ? rst : gain_product_sat16(rst, gain);
            const V limited = _mm256_blendv_epi8(_mm256_max_epi16(p, t[b]), _mm256_min_epi16(p, t[b]),
                                                 _mm256_cmpgt_epi16(o[b], zero));
            const V skip = _mm256_or_si256(_mm256_cmpeq_epi16(k, zero), o_zero);
            rst = _mm256_blendv_epi8(rst, limited, _mm256_andnot_si256(skip, angle));
            storeu(r_hvd[b] + i, rst);
            storeu(a_hvd[b] + i, _mm256_sub_epi16(t[b], rst));
        }
    });
}

void decouple_s0_avx2(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                      std::ptrdiff_t stride, Rect region, double gain_limit,
                      std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    // Outside these the vector product could leave int32; the scalar serves.
    if (region.width() < 8 || !(gain_limit >= -65535.0 && gain_limit <= 65535.0)) {
        decouple_s0(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    if (region.width() >= 16 && gain_limit >= 0.0 && integral_gain(gain_limit, 32767.0)) {
        gain_limit == 1.0
            ? decouple_s0_rows16<true>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd)
            : decouple_s0_rows16<false>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    if (integral_gain(gain_limit, 65535.0))
        gain_limit >= 0.0
            ? decouple_s0_rows<true, true>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd)
            : decouple_s0_rows<true, false>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
    else if (gain_limit >= 0.0)
        decouple_s0_rows<false, true>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
    else
        decouple_s0_rows<false, false>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
}

// ---------------------------------------------------------------------------
// Decouple, scales 1..3

// double(float(v)) for 4 int64 lanes, with the single round-to-nearest of
// the scalar's int64-to-float conversion (AVX2 has no int64 conversion).
// |v| is taken as uint64 (2^63 for INT64_MIN). At or above 2^53 the float's
// rounding bit is bit 29 or higher, so bits 0..10 matter only as a sticky
// bit: folding them into bit 11 leaves the float's rounding unchanged and the
// value with at most 53 significant bits. Below 2^53 the value is kept. Then
// hi * 2^32 + lo is formed exactly in double (each half through the 2^84 /
// 2^52 exponent trick; the sum is representable, so its addition is exact),
// the sign is put back, and the one rounding to float happens in vcvtpd2ps.
inline __m256d float_of_i64(V v) {
    const V zero = _mm256_setzero_si256();
    const V neg = _mm256_cmpgt_epi64(zero, v);
    V mag = _mm256_sub_epi64(_mm256_xor_si256(v, neg), neg);
    const V low11 = _mm256_set1_epi64x(0x7ff);
    const V sticky = _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(mag, low11), zero),
                                         _mm256_set1_epi64x(0x800));
    const V folded = _mm256_or_si256(_mm256_andnot_si256(low11, mag), sticky);
    const V small = _mm256_cmpeq_epi64(_mm256_srli_epi64(mag, 53), zero);
    mag = _mm256_blendv_epi8(folded, mag, small);
    const __m256d lo = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(mag, _mm256_set1_epi64x(0xffffffff)),
                                            _mm256_set1_epi64x(0x4330000000000000))),
        _mm256_set1_pd(0x1p52));
    const __m256d hi =
        _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(mag, 32),
                                                          _mm256_set1_epi64x(0x4530000000000000))),
                      _mm256_set1_pd(0x1p84));
    const __m256d d =
        _mm256_or_pd(_mm256_add_pd(hi, lo), _mm256_castsi256_pd(_mm256_slli_epi64(neg, 63)));
    return _mm256_cvtps_pd(_mm256_cvtpd_ps(d));
}

// double(float(v)) for 4 int64 lanes in [-2^51, 2^51): the bits of
// 2^52 + 2^51 plus v are the double 2^52 + 2^51 + v (its significand field
// is 2^51 + v, in [0, 2^52)), so subtracting 2^52 + 2^51 gives v exactly,
// and the one rounding to float happens in vcvtpd2ps, as in float_of_i64.
inline __m256d float_of_small_i64(V v) {
    const __m256d magic = _mm256_set1_pd(0x1.8p52);
    const __m256d d = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_add_epi64(v, _mm256_castpd_si256(magic))), magic);
    return _mm256_cvtps_pd(_mm256_cvtpd_ps(d));
}

// The angle test for 4 samples whose int64 dot product and squared
// magnitudes (formed modulo 2^64, as the scalar's dot2_wrapping) are given;
// all ones in the 64-bit lanes that pass.
inline V angle_mask4_i64(V dot, V omag, V tmag, __m256d cos_sq) {
    // Every value in [-2^51, 2^51) (always so on pictures, whose scale 1-3
    // bands stay far below 2^25): v + 2^51 has no bit at or above 2^52.
    const V half = _mm256_set1_epi64x(std::int64_t{1} << 51);
    const V out = _mm256_or_si256(
        _mm256_or_si256(_mm256_add_epi64(dot, half), _mm256_add_epi64(omag, half)),
        _mm256_add_epi64(tmag, half));
    if (_mm256_testz_si256(out, _mm256_set1_epi64x(~((std::int64_t{1} << 52) - 1))))
        return _mm256_castpd_si256(angle_close4(float_of_small_i64(dot), float_of_small_i64(omag),
                                                float_of_small_i64(tmag), cos_sq));
    return _mm256_castpd_si256(
        angle_close4(float_of_i64(dot), float_of_i64(omag), float_of_i64(tmag), cos_sq));
}

// The angle test of 8 samples of scales 1-3 from the int64 sums and the
// scalar's float conversions of them, for the blocks the float test below
// cannot decide (angle_mask8_s123_float): all ones in the dwords that pass.
inline V angle_mask8_s123_exact(V oh, V ov, V th, V tv, __m256d cos_sq) {
    // Even samples in the low dwords of the 64-bit lanes, odd ones moved
    // there; products of int32 values summed modulo 2^64.
    struct Sums {
        V dot, om, tm;
    };
    auto sums = [&](V ah, V av, V bh, V bv) {
        return Sums{_mm256_add_epi64(_mm256_mul_epi32(ah, bh), _mm256_mul_epi32(av, bv)),
                    _mm256_add_epi64(_mm256_mul_epi32(ah, ah), _mm256_mul_epi32(av, av)),
                    _mm256_add_epi64(_mm256_mul_epi32(bh, bh), _mm256_mul_epi32(bv, bv))};
    };
    const Sums even = sums(oh, ov, th, tv);
    const Sums odd = sums(_mm256_srli_epi64(oh, 32), _mm256_srli_epi64(ov, 32),
                          _mm256_srli_epi64(th, 32), _mm256_srli_epi64(tv, 32));
    return interleave_low_dwords(angle_mask4_i64(even.dot, even.om, even.tm, cos_sq),
                                 angle_mask4_i64(odd.dot, odd.om, odd.tm, cos_sq));
}

// The angle test of 8 samples of scales 1-3 decided in float from their
// int32 h and v values (oh, ov of ref, th, tv of dis), without the int64
// sums: all ones in the dwords that pass, `unsure` set in the dwords this
// cannot decide. With u = 2^-24, each value converts as x (1 + e), |e| <=
// u, so the products and sums here are, against the exact integers,
//   O' = O (1 + a), T' = T (1 + b), |a|, |b| <= (1 + u)^4 - 1 < 4.01 u,
//   |d' - d| <= ((1 + u)^4 - 1 + u) (|oh th| + |ov tv|) <= 5.01 u sqrt(O T)
// (Cauchy-Schwarz), L = fl(d' d') = d'^2 (1 + e) and R = fl(fl(c O') T') =
// c O T (1 + r), |r| < 10.1 u (c = cos^2(1 degree) as float). No value is
// subnormal or overflows: each is 0 or at least 1, and c O T <= 2^126.
// The scalar passes where d >= 0 and fl32(d)^2 >= fl64(c fl32(O) fl32(T))
// (c fl32(O) is exact in double), which holds where d >= sqrt(c O T) (1 +
// 2.01 u) and fails where d < sqrt(c O T) (1 - 2.01 u). With R+- = fl(R (1
// +- m)), m = 2^-18 = 64 u:
//   d' >= 0, L >= R+: d' >= sqrt(c O T) (1 + m/2 - 6.1 u), so d >= d' -
//     5.01 u sqrt(O T) >= sqrt(c O T) (1 + 32 u - 11.2 u): it passes;
//   L < R-: |d'| < sqrt(c O T) (1 - m/2 + 6.1 u), so d < sqrt(c O T) (1 -
//     32 u + 11.2 u): it fails;
//   d' < 0: either d < 0 (the float keeps the sign: it fails) or 0 <= d <=
//     5.01 u sqrt(O T), far below sqrt(c O T) (O T > 0, as d' = 0 exactly
//     when O or T is 0): it fails.
// O T = 0 gives d' = 0 = L = R+: a pass, as the scalar's 0 >= 0. The
// scalar's int64 sums wrap (to -2^63) only where both h and v of a vector
// are INT32_MIN (each product is at most 2^62); those dwords are unsure.
inline V angle_mask8_s123_float(V oh, V ov, V th, V tv, __m256 cos_sq, V& unsure) {
    const __m256 fh = _mm256_cvtepi32_ps(oh), fv = _mm256_cvtepi32_ps(ov);
    const __m256 gh = _mm256_cvtepi32_ps(th), gv = _mm256_cvtepi32_ps(tv);
    const __m256 d = _mm256_add_ps(_mm256_mul_ps(fh, gh), _mm256_mul_ps(fv, gv));
    const __m256 o = _mm256_add_ps(_mm256_mul_ps(fh, fh), _mm256_mul_ps(fv, fv));
    const __m256 t = _mm256_add_ps(_mm256_mul_ps(gh, gh), _mm256_mul_ps(gv, gv));
    const V pass = angle_mask8_float(d, o, t, cos_sq, unsure, 0x1p-18f);
    const V min = _mm256_set1_epi32(std::numeric_limits<std::int32_t>::min());
    const V wraps = _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_max_epi32(oh, ov), min),
                                    _mm256_cmpeq_epi32(_mm256_max_epi32(th, tv), min));
    unsure = _mm256_or_si256(unsure, wraps);
    return pass;
}

// The restored value rst = (k * o + 2^14) >> 15 of scales 1-3 on 8 int32
// lanes, with k = clamp((div[top] sgn(o) t + 2^(14 + shift)) >> (15 +
// shift), 0, 2^15) the scalar's ratio: |o| >= 2^15 is reduced to its top 15
// bits, rounded, with shift = bitlen(|o|) - 15. The bit length comes from
// the float exponent of |o| with the bit below its top bit cleared: the
// value is then below 1.5 * 2^e, so its rounding to float cannot reach
// 2^(e+1) (|o| = 2^31 converts as -2^31, whose exponent field is the same).
// k is formed from magnitudes, in 64-bit lanes (even and odd elements
// apart) whose values stay below 2^32:
// - where t and o differ in sign, the product is <= 0 and the sum below
//   2^(15 + shift): k = 0; where t = 0 it is 0 as well. Otherwise the
//   product is div * |t| (div = the table's entry at top, >= 0).
// - |t| is first capped at cap = 2 |o| (2^31 for |o| = 2^31, where 2 |o|
//   wraps to 0 in uint32 and max(.) keeps |o|): k is non-decreasing in |t|,
//   and at |t| = cap the quotient is already >= 2^15 (div > 2^30 / top -
//   1 and |o| / top >= 2^shift / (1 + 2^-15), as |o| >= 2^(14 + shift)
//   where shift > 0, so div * 2 |o| > 2^(31 + shift) - 2^(17 + shift)), so
//   the clamp gives 2^15 either way; below the cap the quotient is below
//   2^16 + 8 (|o| / top <= 2^shift (1 + 2^-14)), so the low dword of the
//   logical shift of the uint64 sum (< 2^62) is the quotient, and min_epu32
//   clamps it.
// k = 0 gives rst = 0 and o = 0 does too (where the scalar's k is 2^15 and
// the table's centre, read here, is 0), so the caller needs no k: its gain
// limit skips exactly the samples with rst = 0 (see decouple_s123_rows).
// Then k * o (|.| <= 2^46, signed 32x32 products of the low dwords) plus
// 2^14, shifted right logically: the low dword is the arithmetic shift's,
// which lies in [-2^31, 2^31).
inline V restore_ratio_s123(V o, V t, const std::int32_t* div) {
    const V zero = _mm256_setzero_si256();
    const V mag = _mm256_abs_epi32(o);  // uint32; 2^31 for INT32_MIN
    const V top_bit = _mm256_andnot_si256(_mm256_srli_epi32(mag, 1), mag);
    const V exponent =
        _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(top_bit)), 23),
                         _mm256_set1_epi32(0xff));
    const V shift = _mm256_max_epi32(_mm256_sub_epi32(exponent, _mm256_set1_epi32(127 + 14)), zero);
    const V half = _mm256_srli_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), shift), 1);
    const V top = _mm256_srlv_epi32(_mm256_add_epi32(mag, half), shift);  // <= 2^15
    const V dv = _mm256_i32gather_epi32(div, top, 4);                     // in [0, 2^30]
    const V cap = _mm256_max_epu32(_mm256_slli_epi32(mag, 1), mag);
    const V tc = _mm256_min_epu32(_mm256_abs_epi32(t), cap);
    const V other_sign = _mm256_srai_epi32(_mm256_xor_si256(t, o), 31);
    const V round = _mm256_sllv_epi32(_mm256_set1_epi32(1 << 14), shift);  // <= 2^31, uint32
    const V count = _mm256_add_epi32(shift, _mm256_set1_epi32(15));
    const V low_dword = _mm256_set1_epi64x(0xffffffff), kmax = _mm256_set1_epi64x(32768);
    // Operands in the low dwords (the high ones zero where they are added
    // or used as shift counts).
    auto k64 = [&](V d, V tt, V r, V c, V other) {
        const V q = _mm256_srlv_epi64(_mm256_add_epi64(_mm256_mul_epu32(d, tt), r), c);
        return _mm256_andnot_si256(other, _mm256_min_epu32(q, kmax));
    };
    const V k_even = k64(dv, tc, _mm256_and_si256(round, low_dword),
                         _mm256_and_si256(count, low_dword), other_sign);
    const V k_odd = k64(_mm256_srli_epi64(dv, 32), _mm256_srli_epi64(tc, 32),
                        _mm256_srli_epi64(round, 32), _mm256_srli_epi64(count, 32),
                        _mm256_srli_epi64(other_sign, 32));
    const V r14 = _mm256_set1_epi64x(1 << 14);
    const V r_even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(k_even, o), r14), 15);
    const V r_odd = _mm256_srli_epi64(
        _mm256_add_epi64(_mm256_mul_epi32(k_odd, _mm256_srli_epi64(o, 32)), r14), 15);
    return interleave_low_dwords(r_even, r_odd);
}

// trunc(fl(rst * gain)) clamped to int32 on 8 lanes. The double is clamped
// to [-2^31, 2^31 - 1] before the truncating conversion (trunc commutes
// with a clamp to integers). With gain >= 0, rst has the sign of o, so the
// product is clamped only beyond t on the side the min / max keeps t: the
// clamped value gives the scalar's min(p, t) or max(p, t).
inline V gain_product_clamped(V rst, __m256d gain) {
    const __m256d lo_limit = _mm256_set1_pd(-0x1p31), hi_limit = _mm256_set1_pd(0x1p31 - 1);
    auto half = [&](__m128i r) {
        const __m256d p = _mm256_mul_pd(_mm256_cvtepi32_pd(r), gain);
        return _mm256_cvttpd_epi32(_mm256_min_pd(_mm256_max_pd(p, lo_limit), hi_limit));
    };
    return _mm256_set_m128i(half(_mm256_extracti128_si256(rst, 1)),
                            half(_mm256_castsi256_si128(rst)));
}

// rst * g for an integral gain g in [0, 2^31) on 8 lanes, saturated to
// [INT32_MIN, INT32_MAX]: exact in int32 where |rst| <= bound = (2^31 - 1) /
// g (unsigned compare: |INT32_MIN| is 2^31), else the limit of rst's sign.
// The caller's min(p, t) (o > 0, so rst >= 0) or max(p, t) (o < 0, rst <=
// 0) then gives t wherever the exact product is beyond int32, as the
// scalar's int64 min / max does.
inline V gain_product_saturated(V rst, V g, V bound_plus_1) {
    const V mag = _mm256_abs_epi32(rst);
    const V over = _mm256_cmpeq_epi32(_mm256_max_epu32(mag, bound_plus_1), mag);
    const V limit = _mm256_xor_si256(_mm256_srai_epi32(rst, 31),
                                     _mm256_set1_epi32(std::numeric_limits<std::int32_t>::max()));
    return _mm256_blendv_epi8(_mm256_mullo_epi32(rst, g), limit, over);
}

// kUnitGain: gain 1 (the v1.0.16 model's), where the product is rst itself.
template <bool kIntegralGain, bool kUnitGain = false>
void decouple_s123_rows(const std::int32_t* const ref_hvd[3], const std::int32_t* const dis_hvd[3],
                        std::ptrdiff_t stride, Rect region, double gain_limit,
                        std::int32_t* const r_hvd[3], std::int32_t* const a_hvd[3]) {
    const DecoupleConstants c(gain_limit);
    const V zero = _mm256_setzero_si256();
    const std::uint32_t g = kIntegralGain ? static_cast<std::uint32_t>(gain_limit) : 0;
    const V gain_int = _mm256_set1_epi32(static_cast<std::int32_t>(g));
    // bound + 1 <= 2^31 (g == 0: no product leaves int32).
    const V bound_plus_1 = _mm256_set1_epi32(static_cast<std::int32_t>(
        (g == 0 ? 0x7fffffffu : 0x7fffffffu / g) + 1u));
    const __m256 cos_sq_f = _mm256_set1_ps(cos_1deg_sq());
    auto block = [&](std::ptrdiff_t i, const V* o, const V* t) {
        // Float decides almost every sample; a block with one it cannot (an
        // angle within about 1e-4 radians of 1 degree, or a wrapped sum)
        // takes the int64 sums (angle_mask8_s123_exact).
        V unsure;
        V angle = angle_mask8_s123_float(o[0], o[1], t[0], t[1], cos_sq_f, unsure);
        if (!_mm256_testz_si256(unsure, unsure))
            angle = angle_mask8_s123_exact(o[0], o[1], t[0], t[1], c.cos_sq);
        for (int b = 0; b < 3; ++b) {
            V rst = restore_ratio_s123(o[b], t[b], c.div);
            const V p = kUnitGain       ? rst
                        : kIntegralGain ? gain_product_saturated(rst, gain_int, bound_plus_1)
                                        : gain_product_clamped(rst, c.gain);
            const V limited =
                _mm256_blendv_epi8(_mm256_max_epi32(p, t[b]), _mm256_min_epi32(p, t[b]),
                                   _mm256_cmpgt_epi32(o[b], zero));
            // The scalar limits where k != 0 and o != 0, which are the
            // samples with rst != 0: rst = 0 where either is 0, and where
            // rst = 0 otherwise t has o's sign (k > 0), so the limit
            // min(0 * gain, t) (o > 0) or max(0 * gain, t) (o < 0) is 0.
            const V skip = _mm256_cmpeq_epi32(rst, zero);
            rst = _mm256_blendv_epi8(rst, limited, _mm256_andnot_si256(skip, angle));
            storeu(r_hvd[b] + i, rst);
            storeu(a_hvd[b] + i, _mm256_sub_epi32(t[b], rst));  // modulo 2^32
        }
    };
    for_decouple_blocks(ref_hvd, dis_hvd, stride, region, block);
}

void decouple_s123_avx2(const std::int32_t* const ref_hvd[3], const std::int32_t* const dis_hvd[3],
                        std::ptrdiff_t stride, Rect region, double gain_limit,
                        std::int32_t* const r_hvd[3], std::int32_t* const a_hvd[3]) {
    // The clamped product needs gain >= 0; <= 2^31 keeps the scalar's
    // int64 conversion defined (NaN fails the test).
    if (region.width() < 8 || !(gain_limit >= 0.0 && gain_limit <= 0x1p31)) {
        decouple_s123(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    // An integral gain below 2^31 (the default, 100): the integer product.
    if (gain_limit == 1.0)
        decouple_s123_rows<true, true>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
    else if (gain_limit < 0x1p31 && integral_gain(gain_limit, 0x1p31))
        decouple_s123_rows<true>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
    else
        decouple_s123_rows<false>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
}

// ---------------------------------------------------------------------------
// CSF

void csf_s0_avx2(const std::int16_t* src, std::ptrdiff_t stride, Rect region, std::uint16_t rfactor,
                 int shift, std::int32_t round, std::int16_t* csf, std::int16_t* flt) {
    if (region.width() < 8) {
        vmafpp::adm::csf_s0(src, stride, region, rfactor, shift, round, csf, flt);
        return;
    }
    const V f = _mm256_set1_epi32(rfactor);
    const V r = _mm256_set1_epi32(round);
    const __m128i count = _mm_cvtsi32_si128(shift);
    const V k30 = _mm256_set1_epi32(4369), r12 = _mm256_set1_epi32(2048);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        for_blocks_overlapping(region.x0, region.x1, 8, [&](int x) {
            // |f * s| <= 65535 * 32768 and round <= 65535 stay inside int32.
            const V v = _mm256_sra_epi32(
                _mm256_add_epi32(_mm256_mullo_epi32(f, load8_i16_as_i32(src + row + x)), r), count);
            // The int16 value (sign-extended), as the scalar's narrowing leaves it.
            const V c = _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
            store8_i16(csf + row + x, narrow_exact(c));
            const V g = _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k30, _mm256_abs_epi32(c)), r12), 12);
            store8_i16(flt + row + x, narrow_wrap(g));
        });
    }
}

// The same from signed 32x32 products (adm_avx512.cpp's mul_i32_u32): with
// fs = f - 2^32 for f >= 2^31 (the int32 of f's bits; fs = f otherwise),
// s * f = s * fs + s * 2^32 where `big` is all ones (f >= 2^31) and s * fs
// where it is 0 (exact: |s * f| < 2^63, and the round keeps the sum below
// 2^63). s * 2^32 is the lane shifted up (even elements) or its high dword
// alone (odd elements). The factor and `big` are per band, so a constant
// `big` folds away.
inline V csf_scale_s123_signed(V s, V fs, V big) {
    const V r = _mm256_set1_epi64x(std::int64_t{1} << 27);
    const V hi_even = _mm256_and_si256(_mm256_slli_epi64(s, 32), big);
    const V hi_odd = _mm256_and_si256(_mm256_and_si256(s, _mm256_set1_epi64x(~std::int64_t{0xffffffff})), big);
    const V even = _mm256_add_epi64(_mm256_mul_epi32(s, fs), hi_even);
    const V odd = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(s, 32), fs), hi_odd);
    return interleave_low_dwords(_mm256_srli_epi64(_mm256_add_epi64(even, r), 28),
                                 _mm256_srli_epi64(_mm256_add_epi64(odd, r), 28));
}

// int32((s * f + 2^27) >> 28) for 8 int32 s and a uint32 f: |s| * f < 2^63
// in uint64, the sign restored in int64; the narrowing keeps bits 28..59,
// which the logical shift leaves as the arithmetic one would.
inline V csf_scale_s123(V s, V f) {
    const V mag = _mm256_abs_epi32(s);  // INT32_MIN -> 2^31 as uint32
    const V sign = _mm256_srai_epi32(s, 31);
    const V r = _mm256_set1_epi64x(std::int64_t{1} << 27);
    auto half = [&](V m, V sg) {
        const V sg64 = _mm256_shuffle_epi32(sg, _MM_SHUFFLE(2, 2, 0, 0));  // low dword's sign in both
        const V p = _mm256_sub_epi64(_mm256_xor_si256(_mm256_mul_epu32(m, f), sg64), sg64);
        return _mm256_srli_epi64(_mm256_add_epi64(p, r), 28);
    };
    return interleave_low_dwords(half(mag, sign),
                                 half(_mm256_srli_epi64(mag, 32), _mm256_srli_epi64(sign, 32)));
}

// int32((K * |c| + (-2^31)) >> 32) for 8 lanes: the int64 value is at least
// -2^31, so its arithmetic shift by 32 fits int32 and equals its high dword.
inline V q32_scale_abs(V c, V k) {
    const V mag = _mm256_abs_epi32(c);
    const V r = _mm256_set1_epi64x(-(std::int64_t{1} << 31));
    const V even = _mm256_add_epi64(_mm256_mul_epu32(mag, k), r);
    const V odd = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(mag, 32), k), r);
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

void csf_s123_avx2(const std::int32_t* src, std::ptrdiff_t stride, Rect region, std::uint32_t rfactor,
                   std::int32_t* csf, std::int32_t* flt) {
    if (region.width() < 8) {
        vmafpp::adm::csf_s123(src, stride, region, rfactor, csf, flt);
        return;
    }
    const V f = _mm256_set1_epi32(static_cast<std::int32_t>(rfactor));
    const V k30 = _mm256_set1_epi32(143165577);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        for_blocks_overlapping(region.x0, region.x1, 8, [&](int x) {
            const V v = csf_scale_s123(loadu(src + row + x), f);
            storeu(csf + row + x, v);
            storeu(flt + row + x, q32_scale_abs(v, k30));
        });
    }
}

// ---------------------------------------------------------------------------
// Masking: the cube of an excess

// Sum of cube(e) over the 4 excesses in the low dwords of the 64-bit lanes of
// e (each in [0, 2^31)), added to acc. e^2 + round < 2^63, so the logical
// shift is exact, and its low dword is the scalar's int32 narrowing. The cube
// e2 * e (|.| < 2^62) needs an arithmetic shift, which AVX2 lacks for 64-bit
// lanes: (x + 2^63) >>> n == (x >> n) + (2^63 >> n) modulo 2^64, so the bias
// is folded into the rounding term here and terms * (2^63 >> n) is removed
// from the total by cube_sum.
struct Cube {
    V sq_round, cub_round_biased;
    __m128i sq, cub;
    std::uint64_t bias_per_term;
    V add(V acc, V e) const {
        const V e2 = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(e, e), sq_round), sq);
        const V c = _mm256_add_epi64(_mm256_mul_epi32(e2, e), cub_round_biased);
        return _mm256_add_epi64(acc, _mm256_srl_epi64(c, cub));
    }
};

inline Cube make_cube(const CubeShifts& s) {
    Cube c;
    const std::int64_t sq_round = s.sq > 0 ? std::int64_t{1} << (s.sq - 1) : 0;
    const std::uint64_t cub_round = s.cub > 0 ? std::uint64_t{1} << (s.cub - 1) : 0;
    const std::uint64_t bias = std::uint64_t{1} << 63;
    c.sq_round = _mm256_set1_epi64x(sq_round);
    c.cub_round_biased = _mm256_set1_epi64x(static_cast<std::int64_t>(cub_round + bias));
    c.sq = _mm_cvtsi32_si128(s.sq);
    c.cub = _mm_cvtsi32_si128(s.cub);
    c.bias_per_term = bias >> s.cub;
    return c;
}

// vpermd indices that move the lanes clear in an 8-bit mask (vmovmskps of
// the lanes equal to zero) to the front, in order (the others after them),
// one byte each: entry m, byte i is the i-th clear bit of m; and how many
// bits of m are clear. Indexed by the zero mask as vmovmskps gives it, the
// packing needs no complement, zero extension or popcount.
struct CompressTable {
    std::uint64_t idx[256];
    std::uint8_t count[256];
    constexpr CompressTable() : idx{}, count{} {
        for (int m = 0; m < 256; ++m) {
            int k = 0;
            for (int i = 0; i < 8; ++i)
                if (!(m & (1 << i))) idx[m] |= static_cast<std::uint64_t>(i) << (8 * k++);
            count[m] = static_cast<std::uint8_t>(k);
        }
    }
};
inline constexpr CompressTable kCompress{};

// Stores the non-zero lanes of e at `out`, in order (8 values are written);
// returns how many there are.
inline int store_nonzero(std::int32_t* out, V e) {
    const unsigned zero = static_cast<unsigned>(
        _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(e, _mm256_setzero_si256()))));
    const V perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(kCompress.idx[zero])));
    storeu(out, _mm256_permutevar8x32_epi32(e, perm));
    return kCompress.count[zero];
}

// The sum of cube(e) over the first n values of `packed` (excesses in [0,
// 2^31)), which holds n + 8 values (the 8 after the n are overwritten with
// zeros). cube(0) is 0 (both round terms are below their divisors) and the
// sum is modulo 2^64 in any order, so the caller packs only the non-zero
// excesses of a row there: on pictures most of them are 0.
// Measured and not kept (4 frames 1080p, cpumask 16): packing only the
// excesses whose cube is non-zero (e^2 >= 2^(sq-1): e >= 16384 at sq 29)
// saves nothing at scale 0, where 2.23M of the 2.27M non-zero excesses of
// p19 (v1.0.16 options) pass that bound too; skipping the packing of
// all-zero blocks cannot pay where 68% of p19's scale-0 blocks have a
// non-zero excess; cubing every lane without packing breaks even at scales
// 1-3 (32% non-zero on p19, 52% on testsrc); vpsrlvq instead of vpsrlq by
// an xmm count in Cube (one uop instead of two on Intel) showed no
// difference in task-clock.
inline std::int64_t cube_sum(std::int32_t* packed, int n, const Cube& cube) {
    storeu(packed + n, _mm256_setzero_si256());
    V acc = _mm256_setzero_si256();
    std::uint64_t terms = 0;
    for (int i = 0; i < n; i += 8) {
        const V e = loadu(packed + i);
        acc = cube.add(acc, e);
        acc = cube.add(acc, _mm256_srli_epi64(e, 32));
        terms += 8;
    }
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(hsum_i64(acc)) -
                                     terms * cube.bias_per_term);
}

// block(s, t) over samples [0, n) of a row and its thresholds, kN at a
// time; the last partial block runs on zero-filled copies, so no load passes
// the rows' ends.
template <int kN, class S, class T, class Block>
[[gnu::always_inline]] inline void blocks_zero_tail(const S* src, const T* thr, int n,
                                                    Block block) {
    int i = 0;
    for (; i + kN <= n; i += kN) block(src + i, thr + i);
    if (i < n) {
        alignas(32) S s[kN] = {};
        alignas(32) T t[kN] = {};
        std::memcpy(s, src + i, sizeof(S) * static_cast<std::size_t>(n - i));
        std::memcpy(t, thr + i, sizeof(T) * static_cast<std::size_t>(n - i));
        block(s, t);
    }
}

// 8 values of a band row from p, of which the first n (< 8 only at a row's
// end) are inside the row; the others load as zero.
template <class T>
inline V load8_as_i32(const T* p, int n) {
    if (n >= 8) return load_i32x8(p);
    alignas(32) T tail[8] = {};
    std::memcpy(tail, p, sizeof(T) * static_cast<std::size_t>(n));
    return load_i32x8(tail);
}

// ---------------------------------------------------------------------------
// Masking: the threshold

// The threshold is sum_t (ring_t + centre_t): the eight neighbours' flt
// values and the centre tap of each orientation t. The flt part is
// reorganised (integer sums in int32 lanes; see the derived classes for why
// the order does not matter): S(r, x) = sum_t flt_t(r, x) once per band
// row, V(x) = S(y-1, x) + S(y, x) + S(y+1, x) per output row (rows
// reflected), and ring(x) = V(x-1) + V(x) + V(x+1) - S(y, x), with V(-1) =
// V(1) and V(w) = V(w-1): the reflected neighbour columns of columns 0 and
// w - 1. That reads 4 + 3 / 3 rows per sample instead of 24 (adm_avx512.cpp
// does the same in 16 lanes). ThresholdRing (adm_simd.hpp) keeps the three
// band rows' S over [c0, c1) and centre taps; Derived::fill_row(r, s, taps)
// computes them for band row r. Every
// buffer has 8 values of slack, so the loops run whole blocks past their
// ends (the extra lanes are never read as results).
template <class Derived>
class ThresholdRows {
public:
    ThresholdRows(int w, int h, int x0, int x1)
        : c0_(x0 > 0 ? x0 - 1 : 0),
          c1_(x1 < w ? x1 + 1 : w),
          w_(w),
          x0_(x0),
          x1_(x1),
          ws_(w + 16),
          mem_(new std::int32_t[8 * static_cast<std::size_t>(w + 16)]),
          ring_(h, mem_, mem_ + 4 * ws_, ws_) {
        v_ = mem_ + 3 * ws_;  // V(x) at v_[x + 1]
        thr_ = mem_ + 7 * ws_;
        // The whole blocks read up to two values past what the blocks before
        // wrote (into lanes past the region's end, whose results are never
        // used); zeroing every row from column c1 on keeps those reads of
        // defined values (the rest is written before it is read).
        for (int r = 0; r < 8; ++r)
            std::memset(mem_ + r * ws_ + c1_, 0, sizeof(std::int32_t) * (ws_ - c1_));
    }
    ~ThresholdRows() { delete[] mem_; }
    ThresholdRows(const ThresholdRows&) = delete;
    ThresholdRows& operator=(const ThresholdRows&) = delete;

    // The threshold of row y, columns [x0, x1) at thr()[0 ..] (in the
    // paired order where Derived::kPairedOrder); returns the OR of its
    // values (scale 0's test for thresholds outside [0, 2^(31 - sub))).
    std::uint32_t row(int y) {
        const ThresholdRing::Rows rows =
            ring_.rows(y, [this](int r, std::int32_t* s, std::int32_t* taps) {
                static_cast<Derived*>(this)->fill_row(r, s, taps);
            });
        const std::int32_t *sa = rows.above, *sc = rows.centre, *cc = rows.centre_taps,
                           *sb = rows.below;
        for (int x = c0_; x < c1_; x += 8)
            storeu(v_ + 1 + x, _mm256_add_epi32(_mm256_add_epi32(loadu(sa + x), loadu(sc + x)),
                                                loadu(sb + x)));
        if (c0_ == 0) v_[0] = v_[2];
        if (c1_ == w_) v_[w_ + 1] = v_[w_];
        V bits = _mm256_setzero_si256();
        const int n = x1_ - x0_;
        auto threshold = [&](int i) {
            const int x = x0_ + i;
            V t = _mm256_add_epi32(loadu(v_ + x), loadu(v_ + x + 1));
            t = _mm256_add_epi32(t, loadu(v_ + x + 2));
            t = _mm256_sub_epi32(t, loadu(sc + x));
            return _mm256_add_epi32(t, loadu(cc + x));
        };
        // Lanes past the region's end hold whatever the slack gave: zeroed.
        auto inside = [&](int i) {
            return _mm256_cmpgt_epi32(_mm256_set1_epi32(n - i),
                                      _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        };
        int i = 0;
        if constexpr (Derived::kPairedOrder) {
            // 16 columns at a time, stored in the order vpunpck{l,h}wd
            // leave 16 samples in (columns 0-3, 8-11, then 4-7, 12-15), up
            // to the next multiple of 16, the columns past n as zeros.
            auto store16 = [&](int j, V t0, V t1) {
                storeu(thr_ + j, _mm256_permute2x128_si256(t0, t1, 0x20));
                storeu(thr_ + j + 8, _mm256_permute2x128_si256(t0, t1, 0x31));
                bits = _mm256_or_si256(bits, _mm256_or_si256(t0, t1));
            };
            for (; i + 16 <= n; i += 16) store16(i, threshold(i), threshold(i + 8));
            if (i < n)
                store16(i, _mm256_and_si256(threshold(i), inside(i)),
                        _mm256_and_si256(threshold(i + 8), inside(i + 8)));
        } else {
            for (; i + 8 <= n; i += 8) {
                const V t = threshold(i);
                storeu(thr_ + i, t);
                bits = _mm256_or_si256(bits, t);
            }
            if (i < n) {
                const V t = _mm256_and_si256(threshold(i), inside(i));
                storeu(thr_ + i, t);
                bits = _mm256_or_si256(bits, t);
            }
        }
        const __m128i b4 = _mm_or_si128(_mm256_castsi256_si128(bits), _mm256_extracti128_si256(bits, 1));
        const __m128i b2 = _mm_or_si128(b4, _mm_unpackhi_epi64(b4, b4));
        return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_or_si128(b2, _mm_srli_epi64(b2, 32))));
    }
    const std::int32_t* thr() const { return thr_; }

protected:
    const int c0_, c1_;  // the columns whose S the ring reads

private:
    const int w_, x0_, x1_, ws_;
    std::int32_t* mem_;
    ThresholdRing ring_;
    std::int32_t* v_;
    std::int32_t* thr_;
};

// Scale 0: csf and flt of the masker are int16 (flt wraps there: 34952 at
// most), so every S, V, tap and T is far inside int32 (|T| <= 24 * 32768 +
// 3 * 69905 < 2^20) and the sums are exact in any order.
class ThresholdS0 : public ThresholdRows<ThresholdS0> {
public:
    // row_sum_s0 reads the thresholds in vpunpck order.
    static constexpr bool kPairedOrder = true;

    ThresholdS0(const std::int16_t* const masker_hvd[3], const std::uint16_t rfactor[3],
                std::ptrdiff_t stride, int w, int h, int x0, int x1)
        : ThresholdRows(w, h, x0, x1), masker_(masker_hvd), stride_(stride) {
        // csf16() computes the (shift, round) pairs (15, 2^14), (15, 2^14),
        // (17, 65535) of kCsfShiftS0 / kCsfRoundS0.
        static_assert(kCsfShiftS0[0] == 15 && kCsfShiftS0[1] == 15 && kCsfShiftS0[2] == 17);
        static_assert(kCsfRoundS0[0] == 16384 && kCsfRoundS0[1] == 16384 &&
                      kCsfRoundS0[2] == 65535);
        for (int t = 0; t < 3; ++t) {
            factor16_[t] = _mm256_set1_epi16(static_cast<std::int16_t>(rfactor[t]));
            big_[t] = rfactor[t] >= 32768;
        }
    }

private:
    friend class ThresholdRows<ThresholdS0>;

    // S and the centre taps of band row r, 16 columns per block in 16-bit
    // lanes. Each csf value is computed once and gives both flt and the tap;
    // with a = |csf| (an unsigned 16-bit lane: 32768 for csf = -32768)
    //   flt = (4369 a + 2048) >> 12 = a + ((4368 a + 2^15) >> 16),
    //   tap = (8738 a + 2048) >> 12 = 2a + ((8736 a + 2^15) >> 16),
    // (4369 = 2^12 + 273 and 8738 = 2^13 + 546, times 16). Halving both
    // terms of each fraction (4368 and 8736 are even) gives (2184 a + 2^14)
    // >> 15 and (4368 a + 2^14) >> 15: vpmulhrsw of a with 2184 and 4368,
    // exact for a < 2^15 (non-negative results); for a = 2^15 (the int16
    // -2^15) vpmulhrsw returns the negated values -2184 and -4368 (the
    // products are exact multiples of 2^15), so the absolute value of
    // vpmulhrsw is the rounded part for every a. flt is taken modulo 2^16, the
    // scalar's int16 narrowing. The int32 sums come from vpmaddwd on
    // interleaved lanes: S = (flt_h + flt_v) + flt_d and, with a - 2^14 in
    // [-2^14, 2^14] (int16), sum of taps = 2 sum (a - 2^14) + 3 * 2^15 + sum
    // of the rounded parts (each <= 4368, their sum an int16).
    void fill_row(int r, std::int32_t* out, std::int32_t* taps) const {
        const std::ptrdiff_t off = r * stride_;
        const V k2184 = _mm256_set1_epi16(2184), k4368 = _mm256_set1_epi16(4368);
        const V half = _mm256_set1_epi16(16384), zero = _mm256_setzero_si256();
        const V ones = _mm256_set1_epi16(1), twos = _mm256_set1_epi16(2);
        const V two_one = _mm256_set1_epi32(0x00010002);  // (2, 1) pairs
        const V tap_bias = _mm256_set1_epi32(3 * 32768);
        for (int x = c0_; x < c1_; x += 16) {
            V flt[3], cen[3];
            V rounded = zero;
            for (int t = 0; t < 3; ++t) {
                const V a = _mm256_abs_epi16(csf16(t, load16_i16(masker_[t] + off + x, c1_ - x)));
                flt[t] = _mm256_add_epi16(a, _mm256_abs_epi16(_mm256_mulhrs_epi16(a, k2184)));
                rounded = _mm256_add_epi16(rounded, _mm256_abs_epi16(_mm256_mulhrs_epi16(a, k4368)));
                cen[t] = _mm256_sub_epi16(a, half);
            }
            // S and the tap sums of columns 0-3, 8-11 (lo) and 4-7, 12-15 (hi).
            auto s_of = [&](V f01, V f2) {
                return _mm256_add_epi32(_mm256_madd_epi16(f01, ones), _mm256_madd_epi16(f2, ones));
            };
            auto taps_of = [&](V c01, V c2r) {
                return _mm256_add_epi32(
                    _mm256_add_epi32(_mm256_madd_epi16(c01, twos), _mm256_madd_epi16(c2r, two_one)),
                    tap_bias);
            };
            const V slo = s_of(_mm256_unpacklo_epi16(flt[0], flt[1]), _mm256_unpacklo_epi16(flt[2], zero));
            const V shi = s_of(_mm256_unpackhi_epi16(flt[0], flt[1]), _mm256_unpackhi_epi16(flt[2], zero));
            const V tlo = taps_of(_mm256_unpacklo_epi16(cen[0], cen[1]),
                                  _mm256_unpacklo_epi16(cen[2], rounded));
            const V thi = taps_of(_mm256_unpackhi_epi16(cen[0], cen[1]),
                                  _mm256_unpackhi_epi16(cen[2], rounded));
            storeu(out + x, _mm256_permute2x128_si256(slo, shi, 0x20));
            storeu(out + x + 8, _mm256_permute2x128_si256(slo, shi, 0x31));
            storeu(taps + x, _mm256_permute2x128_si256(tlo, thi, 0x20));
            storeu(taps + x + 8, _mm256_permute2x128_si256(tlo, thi, 0x31));
        }
    }

    // 16 masker samples, of which the first n (< 16 only at a row's end)
    // are inside the row; the others load as zero.
    static V load16_i16(const std::int16_t* p, int n) {
        if (n >= 16) return loadu(p);
        alignas(32) std::int16_t tail[16] = {};
        std::memcpy(tail, p, sizeof(std::int16_t) * static_cast<std::size_t>(n));
        return loadu(tail);
    }

    // csf_s0 of 16 masker samples s of band t modulo 2^16 (the scalar's
    // int16 narrowing), from 16-bit products: with f' = f - 2^16 for a
    // factor f >= 2^15 (f' = f otherwise, an int16 either way), f s = f' s +
    // 2^16 s.
    // - h, v ((f s + 2^14) >> 15): vpmulhrsw gives (f' s + 2^14) >> 15
    //   (modulo 2^16, which only -2^15 * -2^15 reaches), plus 2s.
    // - d ((f s + 65535) >> 17): that is ceil(f s / 2^16) >> 1, and
    //   ceil(P / 2^16) = hi + (lo != 0) with hi = P >> 16 (vpmulhw of f' s,
    //   plus s; it lies in (-2^15, 2^15)) and lo = P mod 2^16 (vpmullw); (hi
    //   + e) >> 1 = (hi >> 1) + (hi & e) for e in {0, 1}, which cannot wrap.
    V csf16(int t, V s) const {
        const V fs = factor16_[t];
        if (t < 2) {
            const V c = _mm256_mulhrs_epi16(fs, s);
            return big_[t] ? _mm256_add_epi16(c, _mm256_add_epi16(s, s)) : c;
        }
        V hi = _mm256_mulhi_epi16(fs, s);
        if (big_[t]) hi = _mm256_add_epi16(hi, s);
        const V lo_zero = _mm256_cmpeq_epi16(_mm256_mullo_epi16(fs, s), _mm256_setzero_si256());
        const V e = _mm256_andnot_si256(lo_zero, _mm256_and_si256(hi, _mm256_set1_epi16(1)));
        return _mm256_add_epi16(_mm256_srai_epi16(hi, 1), e);
    }

    const std::int16_t* const* masker_;
    std::ptrdiff_t stride_;
    V factor16_[3];
    bool big_[3];
};

// ---------------------------------------------------------------------------
// Masking, scale 0

// The exact excess clamp(m - T * 2^sub, 0, 2^31 - 1) for m in [0, 2^31) and
// |T| < 2^31, sub <= 30, in 32-bit lanes. T is clamped to +-bound with
// bound * 2^sub = 2^31 (beyond it the result is already 0 or 2^31 - 1):
// - T >= 0: m - (T' << sub) is exact in int32 (for T' << sub == 2^31 it
//   wraps negative and the max gives 0, as the true difference is negative);
// - T < 0: m + (|T|' << sub) < 2^32 is exact in uint32, then min 2^31 - 1.
// Where every T of the row is in [0, 2^(31 - sub)), m - (T << sub) is exact
// and only the max acts (`fast`): every decoded picture is in that case.
struct Excess {
    V bound;
    V sub;  // the shift count in every lane (vpsllvd: one uop, where vpslld by
            // an xmm count is two on Intel cores)
    int sub_bits;
    V fast(V m, V thr) const {
        return _mm256_max_epi32(_mm256_sub_epi32(m, _mm256_sllv_epi32(thr, sub)),
                                _mm256_setzero_si256());
    }
    V exact(V m, V thr) const {
        const V zero = _mm256_setzero_si256();
        const V tp = _mm256_min_epi32(_mm256_max_epi32(thr, zero), bound);
        const V tn = _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(zero, thr), zero), bound);
        const V epos = _mm256_max_epi32(_mm256_sub_epi32(m, _mm256_sllv_epi32(tp, sub)), zero);
        const V eneg = _mm256_min_epu32(_mm256_add_epi32(m, _mm256_sllv_epi32(tn, sub)),
                                        _mm256_set1_epi32(std::numeric_limits<std::int32_t>::max()));
        return _mm256_blendv_epi8(epos, eneg, _mm256_srai_epi32(thr, 31));
    }
    // Whether every threshold whose bits are OR-ed in `any` is in [0, 2^(31 -
    // sub)).
    bool row_is_fast(std::uint32_t any) const { return (any >> (31 - sub_bits)) == 0; }
};

inline Excess make_excess(int sub) {
    Excess e;
    // sub == 0: no clamp needed (|T| <= 2^31 - 1 keeps both forms exact).
    e.bound = _mm256_set1_epi32(sub == 0 ? std::numeric_limits<std::int32_t>::max()
                                         : static_cast<std::int32_t>(std::uint32_t{1} << (31 - sub)));
    e.sub = _mm256_set1_epi32(sub);
    e.sub_bits = sub;
    return e;
}

// Row sum of cube(excess) for scale 0 over n samples, 16 per block: m =
// |s| * f from 16-bit products (|s| as uint16, 32768 for -32768; the
// product, below 2^31, from vpmullw and vpmulhuw), whose vpunpck{l,h}wd
// halves hold samples 0-3, 8-11 and 4-7, 12-15: the thresholds' paired
// order (ThresholdS0). The non-zero excesses are packed into `packed` (n +
// 16 values), in any order (the sum is modulo 2^64), then cubed. The last
// partial block runs on a zero-padded copy of the samples, against the
// zeros row() leaves past n: excess 0.
template <bool kFast>
std::int64_t row_sum_s0(const std::int16_t* src, const std::int32_t* thr, int n,
                        std::uint16_t rfactor, const Excess& ex, const Cube& cube,
                        std::int32_t* packed) {
    const V f = _mm256_set1_epi16(static_cast<std::int16_t>(rfactor));
    int k = 0;
    auto block = [&](const std::int16_t* s, const std::int32_t* t) {
        const V a = _mm256_abs_epi16(loadu(s));
        const V lo = _mm256_mullo_epi16(a, f), hi = _mm256_mulhi_epu16(a, f);
        const V m0 = _mm256_unpacklo_epi16(lo, hi), m1 = _mm256_unpackhi_epi16(lo, hi);
        const V e0 = kFast ? ex.fast(m0, loadu(t)) : ex.exact(m0, loadu(t));
        const V e1 = kFast ? ex.fast(m1, loadu(t + 8)) : ex.exact(m1, loadu(t + 8));
        k += store_nonzero(packed + k, e0);
        k += store_nonzero(packed + k, e1);
    };
    int i = 0;
    for (; i + 16 <= n; i += 16) block(src + i, thr + i);
    if (i < n) {
        alignas(32) std::int16_t tail[16] = {};
        std::memcpy(tail, src + i, sizeof(std::int16_t) * static_cast<std::size_t>(n - i));
        block(tail, thr + i);
    }
    return cube_sum(packed, k, cube);
}

void cm_accumulate_s0_avx2(const std::int16_t* const x_hvd[3],
                           const std::int16_t* const masker_hvd[3], std::ptrdiff_t stride, int w,
                           int h, Rect region, const std::uint16_t rfactor[3],
                           const CubeShifts shifts[3], int row_shift, std::int32_t* thr_scratch,
                           std::int64_t acc[3]) {
    // The clamp bounds of Excess need sub <= 30 (the extractor uses 10 and 12).
    if (shifts[0].sub > 30 || shifts[1].sub > 30 || shifts[2].sub > 30) {
        cm_accumulate_s0(x_hvd, masker_hvd, stride, w, h, region, rfactor, shifts, row_shift,
                         thr_scratch, acc);
        return;
    }
    const std::int64_t row_round = row_shift > 0 ? std::int64_t{1} << (row_shift - 1) : 0;
    Excess ex[3];
    Cube cube[3];
    for (int t = 0; t < 3; ++t) {
        ex[t] = make_excess(shifts[t].sub);
        cube[t] = make_cube(shifts[t]);
    }
    const int n = region.width();
    ThresholdS0 threshold(masker_hvd, rfactor, stride, w, h, region.x0, region.x1);
    std::int32_t* packed = new std::int32_t[static_cast<std::size_t>(n) + 16];
    for (int y = region.y0; y < region.y1; ++y) {
        const std::uint32_t any = threshold.row(y);
        for (int t = 0; t < 3; ++t) {
            const std::int16_t* x = x_hvd[t] + y * stride + region.x0;
            const std::int64_t row =
                ex[t].row_is_fast(any)
                    ? row_sum_s0<true>(x, threshold.thr(), n, rfactor[t], ex[t], cube[t], packed)
                    : row_sum_s0<false>(x, threshold.thr(), n, rfactor[t], ex[t], cube[t], packed);
            acc[t] = fold_row(acc[t], row, row_round, row_shift);
        }
    }
    delete[] packed;
}

// ---------------------------------------------------------------------------
// Masking, scales 1..3

// The threshold of scales 1-3, organised as ThresholdS0's, in int32 lanes.
// Whatever the masker, T fits int32: flt = (143165577 * |csf| - 2^31) >> 32
// lies in [-1, 71582788] and the centre tap (286331153 * |csf| - 2^31) >> 32
// in [-1, 143165576] for |csf| <= 2^31, so T = 24 flt + 3 taps is in [-27,
// 2147483640]. The lanes add modulo 2^32, so a partial sum may wrap and the
// final T is still exact.
class ThresholdS123 : public ThresholdRows<ThresholdS123> {
public:
    static constexpr bool kPairedOrder = false;

    ThresholdS123(const std::int32_t* const masker_hvd[3], const std::uint32_t rfactor[3],
                  std::ptrdiff_t stride, int w, int h, int x0, int x1)
        : ThresholdRows(w, h, x0, x1), masker_(masker_hvd), stride_(stride) {
        for (int t = 0; t < 3; ++t) {
            f_[t] = _mm256_set1_epi32(static_cast<std::int32_t>(rfactor[t]));
            big_[t] = _mm256_set1_epi32(rfactor[t] >= 0x80000000u ? -1 : 0);
            any_big_ = any_big_ || rfactor[t] >= 0x80000000u;
        }
    }

private:
    friend class ThresholdRows<ThresholdS123>;

    // S and the centre taps of band row r. Each csf value (csf_s123 of the
    // masker) gives both flt and the tap. Factors below 2^31 (every CSF
    // factor below 1/2: all of libvmaf's) need no s * 2^32 terms, which a
    // constant zero `big` folds away.
    void fill_row(int r, std::int32_t* out, std::int32_t* taps) const {
        if (any_big_)
            fill_row_with<true>(r, out, taps);
        else
            fill_row_with<false>(r, out, taps);
    }

    template <bool kAnyBig>
    void fill_row_with(int r, std::int32_t* out, std::int32_t* taps) const {
        const std::ptrdiff_t off = r * stride_;
        const V k30 = _mm256_set1_epi32(143165577), k15 = _mm256_set1_epi32(286331153);
        for (int x = c0_; x < c1_; x += 8) {
            V s = _mm256_setzero_si256(), ct = _mm256_setzero_si256();
            for (int t = 0; t < 3; ++t) {
                const V c = csf_scale_s123_signed(load8_as_i32(masker_[t] + off + x, c1_ - x),
                                                  f_[t], kAnyBig ? big_[t] : _mm256_setzero_si256());
                s = _mm256_add_epi32(s, q32_scale_abs(c, k30));
                ct = _mm256_add_epi32(ct, q32_scale_abs(c, k15));
            }
            storeu(out + x, s);
            storeu(taps + x, ct);
        }
    }

    const std::int32_t* const* masker_;
    std::ptrdiff_t stride_;
    V f_[3], big_[3];
    bool any_big_ = false;
};

// Row sum for scales 1-3, 8 samples per block: x = int32((src * f + 2^27)
// >> 28) (csf_scale_s123), m = |x| as uint32 (2^31 for INT32_MIN), and the
// excess clamp(m - T, 0, 2^31 - 1) with T in [-27, 2^31 - 8] (see
// ThresholdS123), formed in uint32: for T < 0, m + |T| < 2^32 does not wrap;
// for 0 <= T <= m, m - T is in [0, 2^31]; T > m (T non-negative, unsigned
// compare) gives 0. Then the cubes of the non-zero excesses, as at scale 0.
// A zero-padded tail sample gives x = 2^27 >> 28 = 0 against T = 0: excess 0.
template <bool kBigFactor>
std::int64_t row_sum_s123(const std::int32_t* src, const std::int32_t* thr, int n,
                          std::uint32_t rfactor, const Cube& cube, std::int32_t* packed) {
    const V f = _mm256_set1_epi32(static_cast<std::int32_t>(rfactor));
    const V big = _mm256_set1_epi32(kBigFactor ? -1 : 0);
    const V zero = _mm256_setzero_si256();
    const V imax = _mm256_set1_epi32(std::numeric_limits<std::int32_t>::max());
    int k = 0;
    blocks_zero_tail<8>(src, thr, n, [&](const std::int32_t* s, const std::int32_t* tp) {
        const V m = _mm256_abs_epi32(csf_scale_s123_signed(loadu(s), f, big));
        const V t = loadu(tp);
        // Kept: T < 0, or m >= T unsigned (max_epu32(m, T) == m).
        const V keep = _mm256_or_si256(_mm256_cmpgt_epi32(zero, t),
                                       _mm256_cmpeq_epi32(_mm256_max_epu32(m, t), m));
        const V e = _mm256_and_si256(_mm256_min_epu32(_mm256_sub_epi32(m, t), imax), keep);
        k += store_nonzero(packed + k, e);
    });
    return cube_sum(packed, k, cube);
}

void cm_accumulate_s123_avx2(const std::int32_t* const x_hvd[3],
                             const std::int32_t* const masker_hvd[3], std::ptrdiff_t stride, int w,
                             int h, Rect region, const std::uint32_t rfactor[3], CubeShifts shifts,
                             int row_shift, std::int64_t* /*thr_scratch*/, std::int64_t acc[3]) {
    const std::int64_t row_round = row_shift > 0 ? std::int64_t{1} << (row_shift - 1) : 0;
    const Cube cube = make_cube(shifts);
    const int n = region.width();
    ThresholdS123 threshold(masker_hvd, rfactor, stride, w, h, region.x0, region.x1);
    std::int32_t* packed = new std::int32_t[static_cast<std::size_t>(n) + 16];
    for (int y = region.y0; y < region.y1; ++y) {
        threshold.row(y);
        for (int t = 0; t < 3; ++t) {
            const auto row_sum =
                rfactor[t] >= 0x80000000u ? &row_sum_s123<true> : &row_sum_s123<false>;
            const std::int64_t row = row_sum(x_hvd[t] + y * stride + region.x0, threshold.thr(), n,
                                             rfactor[t], cube, packed);
            acc[t] = fold_row(acc[t], row, row_round, row_shift);
        }
    }
    delete[] packed;
}
// ---------------------------------------------------------------------------
// The denominators' rows: acc[t] += (row(b) + round) >> row_shift for each
// row of `region` in band t (h, v, d), b at the row's first sample, round =
// 2^(row_shift - 1) (0 without a shift), as the scalar folds them.
template <class T, class Row>
inline void fold_band_rows(const T* const band_hvd[3], std::ptrdiff_t stride, Rect region,
                           int row_shift, std::uint64_t acc[3], Row row) {
    const std::uint64_t round = row_shift > 0 ? std::uint64_t{1} << (row_shift - 1) : 0;
    for (int t = 0; t < 3; ++t)
        for (int y = region.y0; y < region.y1; ++y)
            acc[t] += (row(band_hvd[t] + y * stride + region.x0) + round) >> row_shift;
}

// Denominator, scale 0: |b|^3 exactly (|b|^2 <= 2^30 in uint32, times |b|
// below 2^45 in uint64), rows summed in uint64 as the scalar does.

void den_accumulate_s0_avx2(const std::int16_t* const band_hvd[3], std::ptrdiff_t stride, Rect region,
                            int row_shift, std::uint64_t acc[3]) {
    const int n = region.width();
    fold_band_rows(band_hvd, stride, region, row_shift, acc, [&](const std::int16_t* b) {
        V sum = _mm256_setzero_si256();
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            const V m = _mm256_abs_epi32(load8_i16_as_i32(b + i));
            const V m2 = _mm256_mullo_epi32(m, m);
            sum = _mm256_add_epi64(sum, _mm256_mul_epu32(m2, m));
            sum = _mm256_add_epi64(sum, _mm256_mul_epu32(_mm256_srli_epi64(m2, 32),
                                                         _mm256_srli_epi64(m, 32)));
        }
        std::uint64_t row = static_cast<std::uint64_t>(hsum_i64(sum));
        for (; i < n; ++i) {
            const std::uint64_t m = static_cast<std::uint64_t>(b[i] < 0 ? -std::int32_t{b[i]} : b[i]);
            row += m * m * m;
        }
        return row;
    });
}

// Denominator, scales 1-3: cube = (((m^2 + 2^sq) >> sq) * m + round) >> cub
// in uint64 with m = |b| <= 2^31. m^2 + 2^sq < 2^63; the product with m can
// pass 2^64 for sq < 31, where the scalar's uint64 arithmetic wraps, so it is
// formed modulo 2^64 from two 32x32 products: a * m = a_lo * m +
// (a_hi * m) << 32. A zero sample's cube is 0 (the round is below 2^cub).
void den_accumulate_s123_avx2(const std::int32_t* const band_hvd[3], std::ptrdiff_t stride,
                              Rect region, int sq, int cub, int row_shift, std::uint64_t acc[3]) {
    const V sq_round = _mm256_set1_epi64x(static_cast<std::int64_t>(std::uint64_t{1} << sq));
    const V cub_round = _mm256_set1_epi64x(cub > 0 ? std::int64_t{1} << (cub - 1) : 0);
    const __m128i sq_count = _mm_cvtsi32_si128(sq), cub_count = _mm_cvtsi32_si128(cub);
    const int n = region.width();
    auto cube = [&](V m) {  // m in the low dwords of the 64-bit lanes
        const V a = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(m, m), sq_round), sq_count);
        const V am =
            _mm256_add_epi64(_mm256_mul_epu32(a, m),
                             _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), m), 32));
        return _mm256_srl_epi64(_mm256_add_epi64(am, cub_round), cub_count);
    };
    fold_band_rows(band_hvd, stride, region, row_shift, acc, [&](const std::int32_t* b) {
        V sum = _mm256_setzero_si256();
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            const V m = _mm256_abs_epi32(loadu(b + i));  // uint32
            sum = _mm256_add_epi64(sum, cube(m));
            sum = _mm256_add_epi64(sum, cube(_mm256_srli_epi64(m, 32)));
        }
        if (i < n) {
            alignas(32) std::int32_t tail[8] = {};
            std::memcpy(tail, b + i, sizeof(std::int32_t) * static_cast<std::size_t>(n - i));
            const V m = _mm256_abs_epi32(loadu(tail));
            sum = _mm256_add_epi64(sum, cube(m));
            sum = _mm256_add_epi64(sum, cube(_mm256_srli_epi64(m, 32)));
        }
        return static_cast<std::uint64_t>(hsum_i64(sum));
    });
}

}  // namespace

// Every ADM kernel has a twin at this level (AdmKernels order).
void adm_init_avx2(AdmKernels& k) {
    k = AdmKernels{
        dwt_s0_u8_avx2,
        dwt_s0_u16_avx2,
        dwt_s123_avx2,
        dwt_s1_avx2,
        decouple_s0_avx2,
        decouple_s123_avx2,
        csf_s0_avx2,
        csf_s123_avx2,
        cm_accumulate_s0_avx2,
        cm_accumulate_s123_avx2,
        den_accumulate_s0_avx2,
        den_accumulate_s123_avx2,
    };
}

}  // namespace vmafpp::adm
