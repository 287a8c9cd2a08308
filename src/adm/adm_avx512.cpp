// AVX-512 twins of the integer ADM kernels (this file alone is compiled with
// the AVX-512 F/BW/DQ/CD/VL flags). The same contract as adm_avx2.cpp: each
// kernel returns the scalar kernel's values bit for bit on any input the
// scalar defines. Every kernel here has its own twin.
//
// Tails are masked: a partial block loads its missing lanes as zero (masked
// loads never touch the masked-off addresses) and stores only its own lanes,
// so no kernel needs a minimum width or recomputes columns.
//
// No standard-library template is used here (see adm_avx2.cpp).
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "adm/adm_dwt_rows.hpp"
#include "adm/adm_kernels.hpp"
#include "adm/adm_simd.hpp"

namespace vmafpp::adm {

namespace {

using Z = __m512i;

// The first n lanes (none for n <= 0, all for n >= the lane count).
inline std::uint32_t low_bits(int n, int lanes) {
    if (n <= 0) return 0;
    return n >= lanes ? (lanes == 32 ? ~0u : (1u << lanes) - 1) : (1u << n) - 1;
}
inline __mmask8 tail8(int n) { return static_cast<__mmask8>(low_bits(n, 8)); }
inline __mmask16 tail16(int n) { return static_cast<__mmask16>(low_bits(n, 16)); }
inline __mmask32 tail32(int n) { return static_cast<__mmask32>(low_bits(n, 32)); }

// f(j, mask) for the blocks of 16 of [0, n): full blocks with a constant
// full mask (so that the masked loads and stores below inline as plain
// ones, without a test per access), then one partial block.
template <class F>
inline void for_blocks16(int n, F f) {
    int j = 0;
    for (; j + 16 <= n; j += 16) f(j, static_cast<__mmask16>(0xFFFF));
    if (j < n) f(j, tail16(n - j));
}

// The 32-lane mask of the first 2n lanes from the mask of the first n.
inline __mmask32 widen_tail(__mmask16 m) {
    const std::uint32_t n = static_cast<std::uint32_t>(__builtin_popcount(m));
    return n == 16 ? ~__mmask32{0} : static_cast<__mmask32>((1u << (2 * n)) - 1);
}

// Every lane of m set: the plain access of the whole vector then stays
// inside the row.
template <class M>
constexpr bool full_mask(M m) {
    return m == static_cast<M>(~M{0});
}

// Masked loads and stores of kBits-bit elements that take the plain
// instruction for a full mask; only a block's last, partial access takes
// the masked form (which never touches the masked-off addresses).
template <int kBits, class M>
inline Z load512(M m, const void* p) {
    if (full_mask(m)) return _mm512_loadu_si512(p);
    if constexpr (kBits == 16) return _mm512_maskz_loadu_epi16(m, p);
    else if constexpr (kBits == 32) return _mm512_maskz_loadu_epi32(m, p);
    else return _mm512_maskz_loadu_epi64(m, p);
}
template <int kBits, class M>
inline void store512(void* p, M m, Z v) {
    if (full_mask(m)) _mm512_storeu_si512(p, v);
    else if constexpr (kBits == 16) _mm512_mask_storeu_epi16(p, m, v);
    else if constexpr (kBits == 32) _mm512_mask_storeu_epi32(p, m, v);
    else _mm512_mask_storeu_epi64(p, m, v);
}
template <int kBits, class M>
inline __m256i load256(M m, const void* p) {
    if (full_mask(m)) return _mm256_loadu_si256(static_cast<const __m256i*>(p));
    if constexpr (kBits == 8) return _mm256_maskz_loadu_epi8(m, p);
    else if constexpr (kBits == 16) return _mm256_maskz_loadu_epi16(m, p);
    else return _mm256_maskz_loadu_epi32(m, p);
}
inline Z ld_i32x16(__mmask16 m, const void* p) { return load512<32>(m, p); }
inline void st_i32x16(void* p, __mmask16 m, Z v) { store512<32>(p, m, v); }
inline Z ld_i64x8(__mmask8 m, const void* p) { return load512<64>(m, p); }
inline void st_i64x8(void* p, __mmask8 m, Z v) { store512<64>(p, m, v); }
inline Z ld_i16x32(__mmask32 m, const void* p) { return load512<16>(m, p); }
inline void st_i16x32(void* p, __mmask32 m, Z v) { store512<16>(p, m, v); }
inline __m256i ld_i16x16(__mmask16 m, const void* p) { return load256<16>(m, p); }
inline void st_i16x16(void* p, __mmask16 m, __m256i v) {
    if (full_mask(m))
        _mm256_storeu_si256(static_cast<__m256i*>(p), v);
    else
        _mm256_mask_storeu_epi16(p, m, v);
}
inline __m256i ld_i32x8(__mmask8 m, const void* p) { return load256<32>(m, p); }
inline __m256i ld_u8x32(__mmask32 m, const void* p) { return load256<8>(m, p); }
// The low dwords of 8 int64 lanes (vpmovqd: the int32 narrowing).
inline void st_i64x8_as_i32(void* p, __mmask8 m, Z v) {
    if (full_mask(m))
        _mm256_storeu_si256(static_cast<__m256i*>(p), _mm512_cvtepi64_epi32(v));
    else
        _mm512_mask_cvtepi64_storeu_epi32(p, m, v);
}

inline Z load16_i16_as_i32(const std::int16_t* p, __mmask16 m) {
    return _mm512_cvtepi16_epi32(ld_i16x16(m, p));
}
inline Z load8_i32_as_i64(const std::int32_t* p, __mmask8 m) {
    return _mm512_cvtepi32_epi64(ld_i32x8(m, p));
}
// 16 int32 -> int16 modulo 2^16 (vpmovdw truncates), as a C++ conversion does.
inline void store16_i16_wrap(std::int16_t* p, __mmask16 m, Z v) {
    st_i16x16(p, m, _mm512_cvtepi32_epi16(v));
}

// Two int16 coefficients (c_lo for the first element of each pair) for madd.
inline Z coeff_pair(std::int32_t c_lo, std::int32_t c_hi) {
    return _mm512_set1_epi32(static_cast<std::int32_t>(
        (static_cast<std::uint32_t>(c_hi) << 16) | (static_cast<std::uint32_t>(c_lo) & 0xffffu)));
}

// The low dwords of the 64-bit lanes of `even` and `odd` (results for
// elements 0, 2, ... and 1, 3, ...) back in element order.
inline Z interleave_low_dwords(Z even, Z odd) {
    return _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
}

inline std::int64_t wrap_add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// acc + ((row + round) >> shift), both additions modulo 2^64 and the shift
// arithmetic, as the scalar folds a row sum.
inline std::int64_t fold_row(std::int64_t acc, std::int64_t row, std::int64_t round, int shift) {
    return wrap_add(acc, wrap_add(row, round) >> shift);
}

// The lane sum modulo 2^64 (the lanes may hold wrapped partial sums).
inline std::int64_t hsum_i64(Z v) {
    const __m256i s = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    const __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return wrap_add(_mm_cvtsi128_si64(t), _mm_extract_epi64(t, 1));
}

// v, hidden from the optimiser: a multiplication by a known constant is
// otherwise expanded into a chain of shifts and adds (4369 = 2^12 + 2^8 +
// 2^4 + 1), which on 512-bit lanes costs more than one vpmulld.
inline Z opaque(Z v) {
#if defined(__GNUC__)
    asm("" : "+v"(v));
#endif
    return v;
}

inline std::int64_t round_term(int shift) { return shift > 0 ? std::int64_t{1} << (shift - 1) : 0; }

// ---------------------------------------------------------------------------
// DWT, scale 0

// Vertical pass of 8-bit rows, 32 columns per block. Exact as in the AVX2
// twin: each madd pair is below 43237 * 255, the centred sums lie in
// (-7.1e6, 7.0e6), so after >> 8 the values fit int16 and the pack is exact.
// The unpacks pair columns 0-3 / 4-7 of each 128-bit lane; packs restores
// their order.
void dwt_s0_vertical_u8(const std::uint8_t* const rows[4], const std::uint8_t* const ahead[2],
                        int w, std::int16_t* lo, std::int16_t* hi) {
    const Z lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const Z hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    const Z lo_bias = _mm512_set1_epi32(128 - kDwtLoSum * 128);
    const Z hi_bias = _mm512_set1_epi32(128);
    for (int j = 0; j < w; j += 32) {
        const __mmask32 m = tail32(w - j);
        _mm_prefetch(reinterpret_cast<const char*>(ahead[0] + j), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(ahead[1] + j), _MM_HINT_T0);
        auto load = [m](const std::uint8_t* p) { return _mm512_cvtepu8_epi16(ld_u8x32(m, p)); };
        const Z r0 = load(rows[0] + j), r1 = load(rows[1] + j);
        const Z r2 = load(rows[2] + j), r3 = load(rows[3] + j);
        const Z p01a = _mm512_unpacklo_epi16(r0, r1), p01b = _mm512_unpackhi_epi16(r0, r1);
        const Z p23a = _mm512_unpacklo_epi16(r2, r3), p23b = _mm512_unpackhi_epi16(r2, r3);
        auto filt = [](Z pa, Z pb, Z c01, Z c23, Z bias) {
            return _mm512_srai_epi32(
                _mm512_add_epi32(
                    _mm512_add_epi32(_mm512_madd_epi16(pa, c01), _mm512_madd_epi16(pb, c23)), bias),
                8);
        };
        const Z la = filt(p01a, p23a, lo01, lo23, lo_bias),
                lb = filt(p01b, p23b, lo01, lo23, lo_bias);
        st_i16x32(lo + j, m, _mm512_packs_epi32(la, lb));
        if (!hi) continue;  // an approximation-only row
        const Z ha = filt(p01a, p23a, hi01, hi23, hi_bias),
                hb = filt(p01b, p23b, hi01, hi23, hi_bias);
        st_i16x32(hi + j, m, _mm512_packs_epi32(ha, hb));
    }
}

// Vertical pass of 9..16-bit rows, 16 columns per block: products and sums
// modulo 2^32 as the scalar forms them, arithmetic shift by bpc, narrowing
// modulo 2^16 (out-of-range samples make the scalar wrap there too).
void dwt_s0_vertical_u16(const std::uint16_t* const rows[4], const std::uint16_t* const ahead[2],
                         int w, int bpc, std::int16_t* lo, std::int16_t* hi) {
    const std::uint32_t half = std::uint32_t{1} << (bpc - 1);
    const Z lo_bias = _mm512_set1_epi32(
        static_cast<std::int32_t>(half - static_cast<std::uint32_t>(kDwtLoSum) * half));
    const Z hi_bias = _mm512_set1_epi32(static_cast<std::int32_t>(half));
    const __m128i count = _mm_cvtsi32_si128(bpc);
    for (int j = 0; j < w; j += 16) {
        const __mmask16 m = tail16(w - j);
        _mm_prefetch(reinterpret_cast<const char*>(ahead[0] + j), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(ahead[1] + j), _MM_HINT_T0);
        Z s[4];
        for (int k = 0; k < 4; ++k) s[k] = _mm512_cvtepu16_epi32(ld_i16x16(m, rows[k] + j));
        auto filt = [&s](const std::int32_t* c, Z bias) {
            for (int k = 0; k < 4; ++k)
                bias = _mm512_add_epi32(bias, _mm512_mullo_epi32(_mm512_set1_epi32(c[k]), s[k]));
            return bias;
        };
        store16_i16_wrap(lo + j, m, _mm512_sra_epi32(filt(kDwtLo, lo_bias), count));
        if (hi)  // not an approximation-only row
            store16_i16_wrap(hi + j, m, _mm512_sra_epi32(filt(kDwtHi, hi_bias), count));
    }
}

// (32 outputs a block, the high words of two blocks' sums gathered by one
// vpermt2w instead of a shift and vpmovdw each, measured no faster:
// BM_AdmDwtS0/2 0.396 ms CPU either way.)
// Horizontal pass over padded rows (p[0] is value -1), 16 outputs per block:
// output j takes the pairs (p[2j], p[2j+1]) and (p[2j+2], p[2j+3]), one madd
// each. The two madds and the round stay below 54822 * 32768 + 32768 < 2^31
// as in the scalar int32 sum, and (sum + 2^15) >> 16 fits int16, so the
// narrowing is exact. A block of n outputs reads p[2j .. 2j + 2n + 1], inside
// the w + 3 values of the row.
void dwt_s0_horizontal(const std::int16_t* lo, const std::int16_t* hi, int out_w, std::int16_t* a,
                       std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
    const Z lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const Z hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    const Z round = _mm512_set1_epi32(32768);
    auto filt = [round](Z p, Z q, Z c01, Z c23) {
        return _mm512_srai_epi32(
            _mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(p, c01), _mm512_madd_epi16(q, c23)),
                             round),
            16);
    };
    for (int j = 0; j < out_w; j += 16) {
        const int n = out_w - j < 16 ? out_w - j : 16;
        const __mmask32 in = tail32(2 * n);
        const __mmask16 out = tail16(n);
        const Z lp = ld_i16x32(in, lo + 2 * j), lq = ld_i16x32(in, lo + 2 * j + 2);
        store16_i16_wrap(a + j, out, filt(lp, lq, lo01, lo23));
        if (!hi) continue;  // an approximation-only row
        const Z hp = ld_i16x32(in, hi + 2 * j), hq = ld_i16x32(in, hi + 2 * j + 2);
        store16_i16_wrap(bv + j, out, filt(lp, lq, hi01, hi23));
        store16_i16_wrap(bh + j, out, filt(hp, hq, lo01, lo23));
        store16_i16_wrap(bd + j, out, filt(hp, hq, hi01, hi23));
    }
}

// Output rows between a source row's prefetch and its first load (1, 2
// and 4 measured within 3% of each other, all about 8% faster per ADM frame
// than none).
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

void dwt_s0_u8_avx512(const std::uint8_t* src, std::ptrdiff_t src_stride, int w, int h, int y0,
                      int y1, std::int16_t* scratch, std::int16_t* band_a,
                      std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_s0_rows(src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride,
                [&](const std::uint8_t* const rows[4], int i, std::int16_t* lo, std::int16_t* hi) {
                    const AheadRows<std::uint8_t> ahead(src, src_stride, h, i);
                    dwt_s0_vertical_u8(rows, ahead.rows, w, lo, hi);
                },
                dwt_s0_horizontal);
}

void dwt_s0_u16_avx512(const std::uint16_t* src, std::ptrdiff_t src_stride, int w, int h, int bpc,
                       int y0, int y1, std::int16_t* scratch, std::int16_t* band_a,
                       std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_s0_rows(src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride,
                [&](const std::uint16_t* const rows[4], int i, std::int16_t* lo, std::int16_t* hi) {
                    const AheadRows<std::uint16_t> ahead(src, src_stride, h, i);
                    dwt_s0_vertical_u16(rows, ahead.rows, w, bpc, lo, hi);
                },
                dwt_s0_horizontal);
}

// ---------------------------------------------------------------------------
// DWT, scales 1..3

// sum_k c[k] * q[k] + round over int64 (|.| < 54822 * 2^31 < 2^47), shifted
// right by `shift` <= 16 and narrowed to int32, for the 16 lanes of q. The
// narrowing keeps bits shift .. shift+31 of the sum, which a logical shift
// leaves where the scalar's arithmetic one does (shift + 31 < 64).
inline Z filt4_v_i64(const Z q[4], const Z c[4], Z round, __m128i count) {
    Z even = round, odd = round;
    for (int k = 0; k < 4; ++k) {
        even = _mm512_add_epi64(even, _mm512_mul_epi32(q[k], c[k]));
        odd = _mm512_add_epi64(odd, _mm512_mul_epi32(_mm512_srli_epi64(q[k], 32), c[k]));
    }
    return interleave_low_dwords(_mm512_srl_epi64(even, count), _mm512_srl_epi64(odd, count));
}

// The horizontal pass of scales 1-3 in 16-bit pieces. Each int32 value p of
// a vertical-pass row is stored as p = 2^16 * ph + pl + 2^15 with
// ph = p >> 16 and pl = (p mod 2^16) - 2^15, both in [-2^15, 2^15), so that
// for a filter c (int16 coefficients, sum S, even)
//   sum c p = 2^16 * A + B + 2^15 * S,  A = sum c ph,  B = sum c pl,
// where vpmaddwd forms A and B exactly: each pair is below
// (27411 + 15826) * 2^15 < 2^31 and each sum below 54822 * 2^15. Then
//   shift 16: (sum c p + 2^15) >> 16 = A + S / 2 + ((B + 2^15) >> 16),
//   shift 15: (sum c p + 2^14) >> 15 = 2A + S + ((B + 2^14) >> 15),
// since 2^16 * A and 2^15 * S are multiples of the divisor. The scalar
// narrows that value to int32; the int32 lane arithmetic (2A can wrap) is
// the same value modulo 2^32.

// Stores 16 int32 values as their (ph, pl) pieces.
inline void store_split(std::int16_t* ph, std::int16_t* pl, __mmask16 m, Z v) {
    store16_i16_wrap(ph, m, _mm512_srai_epi32(v, 16));
    store16_i16_wrap(pl, m, _mm512_xor_si512(v, _mm512_set1_epi32(0x8000)));
}

struct SplitRow {
    std::int16_t* ph;  // w + 3 values each, value k at [1 + k]
    std::int16_t* pl;
};

// Up to 16 outputs j.. of one filter (c01, c23: coefficient pairs; half_sum:
// S / 2) over a split row, for the horizontal shift hs (15 or 16).
inline Z filt4_h_split(const SplitRow& r, int j, __mmask32 in, Z c01, Z c23, int half_sum, int hs) {
    const Z hp = ld_i16x32(in, r.ph + 2 * j), hq = ld_i16x32(in, r.ph + 2 * j + 2);
    const Z lp = ld_i16x32(in, r.pl + 2 * j), lq = ld_i16x32(in, r.pl + 2 * j + 2);
    const Z a = _mm512_add_epi32(_mm512_madd_epi16(hp, c01), _mm512_madd_epi16(hq, c23));
    const Z b = _mm512_add_epi32(_mm512_madd_epi16(lp, c01), _mm512_madd_epi16(lq, c23));
    if (hs == 16)
        return _mm512_add_epi32(
            _mm512_add_epi32(a, _mm512_set1_epi32(half_sum)),
            _mm512_srai_epi32(_mm512_add_epi32(b, _mm512_set1_epi32(1 << 15)), 16));
    return _mm512_add_epi32(
        _mm512_add_epi32(_mm512_add_epi32(a, a), _mm512_set1_epi32(2 * half_sum)),
        _mm512_srai_epi32(_mm512_add_epi32(b, _mm512_set1_epi32(1 << 14)), 15));
}

constexpr int kVShift[3] = {0, 16, 16};
constexpr int kHShift[3] = {15, 16, 15};

// The vertical pass of scale 1 over int16 rows, 32 columns per step: rows
// t and t + 1 interleaved, so that one vpmaddwd forms c0 s0 + c1 s1 for 16
// columns. No sum wraps (each pair is below 43237 * 2^15, both below
// 54822 * 2^15 < 2^31), and scale 1's vertical pass neither rounds nor
// shifts, so the int32 lanes hold the scalar's narrowed int64 sums. The
// unpacks leave columns 0-3, 8-11, 16-19, 24-27 in one vector and the others
// in the second; one 64-bit permutation per 16 columns restores the order.
// `high`: also the high-pass row (not for approximation-only rows).
inline void vertical_s1_pairs(const std::int16_t* const rows[4], const char* next0,
                              const char* next1, int w, bool high, const SplitRow& lo,
                              const SplitRow& hi) {
    const Z lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const Z hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    const Z first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const Z second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for (int j = 0; j < w; j += 32) {
        const __mmask32 m = tail32(w - j);
        const auto m0 = static_cast<__mmask16>(m), m1 = static_cast<__mmask16>(m >> 16);
        _mm_prefetch(next0 + 2 * j, _MM_HINT_T0);
        _mm_prefetch(next1 + 2 * j, _MM_HINT_T0);
        const Z r0 = ld_i16x32(m, rows[0] + j), r1 = ld_i16x32(m, rows[1] + j);
        const Z r2 = ld_i16x32(m, rows[2] + j), r3 = ld_i16x32(m, rows[3] + j);
        const Z p01a = _mm512_unpacklo_epi16(r0, r1), p01b = _mm512_unpackhi_epi16(r0, r1);
        const Z p23a = _mm512_unpacklo_epi16(r2, r3), p23b = _mm512_unpackhi_epi16(r2, r3);
        auto filter = [&](Z c01, Z c23, const SplitRow& out) {
            const Z a =
                _mm512_add_epi32(_mm512_madd_epi16(p01a, c01), _mm512_madd_epi16(p23a, c23));
            const Z b =
                _mm512_add_epi32(_mm512_madd_epi16(p01b, c01), _mm512_madd_epi16(p23b, c23));
            store_split(out.ph + 1 + j, out.pl + 1 + j, m0, _mm512_permutex2var_epi64(a, first, b));
            if (m1)
                store_split(out.ph + 17 + j, out.pl + 17 + j, m1,
                            _mm512_permutex2var_epi64(a, second, b));
        };
        filter(lo01, lo23, lo);
        if (high) filter(hi01, hi23, hi);
    }
}

template <class T>
void dwt_scale_avx512(const T* src, std::ptrdiff_t src_stride, int w, int h, int scale, int y0,
                      int y1, std::int32_t* scratch, std::int32_t* band_a,
                      std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    const int out_w = (w + 1) / 2;
    const int vs = kVShift[scale - 1], hs = kHShift[scale - 1];
    const Z vround = _mm512_set1_epi64(round_term(vs));
    const __m128i vcount = _mm_cvtsi32_si128(vs);
    Z cl[4], ch[4];
    for (int k = 0; k < 4; ++k) {
        cl[k] = _mm512_set1_epi32(kDwtLo[k]);
        ch[k] = _mm512_set1_epi32(kDwtHi[k]);
    }
    const Z lo01 = coeff_pair(kDwtLo[0], kDwtLo[1]), lo23 = coeff_pair(kDwtLo[2], kDwtLo[3]);
    const Z hi01 = coeff_pair(kDwtHi[0], kDwtHi[1]), hi23 = coeff_pair(kDwtHi[2], kDwtHi[3]);
    constexpr int kLoHalfSum = kDwtLoSum / 2, kHiHalfSum = 0;  // kDwtHi sums to 0
    // The scratch's 4 * (w + 3) int32 hold the four int16 rows of 2 * (w + 3).
    std::int16_t* s16 = reinterpret_cast<std::int16_t*>(scratch);
    const SplitRow lo{s16, s16 + (w + 3)};
    const SplitRow hi{s16 + 2 * (w + 3), s16 + 3 * (w + 3)};
    const int out_h = (h + 1) / 2;
    auto vertical = [&](const T* const rows[4], int i, bool high) {
        // The two rows the next output row reads first: the previous
        // scale's band is usually out of cache by now, and four row streams
        // outrun the hardware prefetch (a hint only; it cannot fault).
        const bool last = i + 1 == out_h;
        const char* next0 = reinterpret_cast<const char*>(
            last ? rows[2] : src + reflect_index(2 * i + 3, h) * src_stride);
        const char* next1 = reinterpret_cast<const char*>(
            last ? rows[3] : src + reflect_index(2 * i + 4, h) * src_stride);
        if constexpr (sizeof(T) == 2) {
            vertical_s1_pairs(rows, next0, next1, w, high, lo, hi);
        } else {
            for_blocks16(w, [&](int j, __mmask16 m) {
                _mm_prefetch(next0 + sizeof(T) * j, _MM_HINT_T0);
                _mm_prefetch(next1 + sizeof(T) * j, _MM_HINT_T0);
                Z q[4];
                for (int k = 0; k < 4; ++k) q[k] = ld_i32x16(m, rows[k] + j);
                // Approximation-only rows need the low-pass row alone.
                auto filt = [&](const Z* c) {
                    if (vs != 0) return filt4_v_i64(q, c, vround, vcount);
                    // No rounding or shift: the int32 narrowing of the int64 sum
                    // is the sum modulo 2^32, which int32 lane arithmetic gives.
                    Z v = _mm512_mullo_epi32(q[0], c[0]);
                    for (int k = 1; k < 4; ++k)
                        v = _mm512_add_epi32(v, _mm512_mullo_epi32(q[k], c[k]));
                    return v;
                };
                store_split(lo.ph + 1 + j, lo.pl + 1 + j, m, filt(cl));
                if (high) store_split(hi.ph + 1 + j, hi.pl + 1 + j, m, filt(ch));
            });
        }
        pad_row(lo.ph, w);
        pad_row(lo.pl, w);
        if (!high) return;
        pad_row(hi.ph, w);
        pad_row(hi.pl, w);
    };
    // A block of n outputs reads values 2j .. 2j + 2n + 1 of each row,
    // inside its w + 3 values.
    auto horizontal = [&](std::int32_t* a, std::int32_t* bh, std::int32_t* bv, std::int32_t* bd) {
        for_blocks16(out_w, [&](int j, __mmask16 out) {
            const __mmask32 in = widen_tail(out);
            st_i32x16(a + j, out, filt4_h_split(lo, j, in, lo01, lo23, kLoHalfSum, hs));
            if (!bh) return;  // an approximation-only row
            st_i32x16(bv + j, out, filt4_h_split(lo, j, in, hi01, hi23, kHiHalfSum, hs));
            st_i32x16(bh + j, out, filt4_h_split(hi, j, in, lo01, lo23, kLoHalfSum, hs));
            st_i32x16(bd + j, out, filt4_h_split(hi, j, in, hi01, hi23, kHiHalfSum, hs));
        });
    };
    dwt_rows(src, src_stride, h, y0, y1, band_a, band_hvd, band_stride, vertical, horizontal);
}

void dwt_s123_avx512(const std::int32_t* src, std::ptrdiff_t src_stride, int w, int h, int scale,
                     int y0, int y1, std::int32_t* scratch, std::int32_t* band_a,
                     std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_scale_avx512(src, src_stride, w, h, scale, y0, y1, scratch, band_a, band_hvd, band_stride);
}

void dwt_s1_avx512(const std::int16_t* src, std::ptrdiff_t src_stride, int w, int h, int y0,
                   int y1, std::int32_t* scratch, std::int32_t* band_a,
                   std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_scale_avx512(src, src_stride, w, h, 1, y0, y1, scratch, band_a, band_hvd, band_stride);
}

// ---------------------------------------------------------------------------
// Decouple

// (vdivps replaced by vmulps, for timing only: BM_AdmDecoupleS0/2 0.93 ->
// 0.85 ms CPU, so the division is under a tenth of scale 0's decoupling.)
// libvmaf's division table entry floor(2^30 / m) for m in [1, 2^15], computed
// instead of gathered (a 16-lane gather from the 256 KiB table cost half of
// the decouple stage). For m >= 33, x = 2^30 / m < 2^25, where a float's
// spacing is at most 2, so the rounded quotient is within 1 of x and its
// truncation q0 within 1 of floor(x); r = 2^30 - q0 * m (exact: |r| <= 2m)
// moves q0 by one where r < 0 or r >= m. For m <= 32 the values come from a
// 32-entry table in two registers (vpermt2d). Checked for every m against
// the integer division. Where m == 0 the result is arbitrary (every caller
// replaces k there); m is raised to 1 so the division stays finite.
struct Reciprocal30 {
    Z small[2];  // floor(2^30 / (i + 1)) at lane i of small[i / 16]
    Reciprocal30() {
        alignas(64) std::int32_t v[32];
        for (int i = 0; i < 32; ++i) v[i] = (std::int32_t{1} << 30) / (i + 1);
        for (int k = 0; k < 2; ++k) small[k] = _mm512_load_si512(v + 16 * k);
    }
    Z operator()(Z m) const {
        const Z one = _mm512_set1_epi32(1);
        const Z d = _mm512_max_epi32(m, one);
        const Z q0 =
            _mm512_cvttps_epi32(_mm512_div_ps(_mm512_set1_ps(0x1p30f), _mm512_cvtepi32_ps(d)));
        const Z r = _mm512_sub_epi32(_mm512_set1_epi32(1 << 30), _mm512_mullo_epi32(q0, d));
        Z q =
            _mm512_mask_sub_epi32(q0, _mm512_cmplt_epi32_mask(r, _mm512_setzero_si512()), q0, one);
        q = _mm512_mask_add_epi32(q, _mm512_cmpge_epi32_mask(r, d), q, one);
        const Z tab = _mm512_permutex2var_epi32(small[0], _mm512_sub_epi32(d, one), small[1]);
        return _mm512_mask_blend_epi32(_mm512_cmple_epi32_mask(d, _mm512_set1_epi32(32)), q, tab);
    }
};

// The second half of libvmaf's angle test, d * d >= ((double)cos_sq * o) * t
// with d, o, t = double(float(.)) / 4096, on 8 lanes (`nonneg`: d >= 0, the
// first half). The division by 4096 is left out: the values are integers
// (or 0) below 2^64, so every operand and product stays far from underflow
// and overflow, where scaling by a power of two commutes with each
// round-to-nearest product; both sides carry the same factor 2^-24.
inline __mmask8 angle_close8(__mmask8 nonneg, __m512d d, __m512d o, __m512d t, __m512d cos_sq) {
    return _mm512_mask_cmp_pd_mask(nonneg, _mm512_mul_pd(d, d),
                                   _mm512_mul_pd(_mm512_mul_pd(cos_sq, o), t), _CMP_GE_OQ);
}

// The angle test on 16 lanes of floats, in double (the scalar's operations).
inline __mmask16 angle_mask16(__m512 dot, __m512 omag, __m512 tmag, __m512d cos_sq) {
    // float(dot) >= 0 exactly when the double d is.
    const __mmask16 nonneg = _mm512_cmp_ps_mask(dot, _mm512_setzero_ps(), _CMP_GE_OQ);
    auto half = [&](__mmask8 nn, __m256 d, __m256 o, __m256 t) {
        return angle_close8(nn, _mm512_cvtps_pd(d), _mm512_cvtps_pd(o), _mm512_cvtps_pd(t), cos_sq);
    };
    const unsigned lo = half(static_cast<__mmask8>(nonneg), _mm512_castps512_ps256(dot),
                             _mm512_castps512_ps256(omag), _mm512_castps512_ps256(tmag));
    const unsigned hi = half(static_cast<__mmask8>(nonneg >> 8), _mm512_extractf32x8_ps(dot, 1),
                             _mm512_extractf32x8_ps(omag, 1), _mm512_extractf32x8_ps(tmag, 1));
    return static_cast<__mmask16>(lo | (hi << 8));
}

// The angle test of 16 samples whose float dot products and squared
// magnitudes are given (the scalar's conversions), decided in float where
// float decides it, with `unsure` the samples float cannot decide. With D =
// fl32(d * d), P = fl32(fl32(c * o) * t) (c = cos^2(1 degree) as float; no
// operand is subnormal, every value is 0 or at least 1 times c, and d^2 <=
// 2^62 stays far below the float range), the scalar compares d^2 (exact in
// double) with R = fl64(c o t) (c o is exact in double): R = c o t (1 +
// e0), D = d^2 (1 + e1), P = c o t (1 + e2)(1 + e3), |e0| <= 2^-53,
// |e1..3| <= 2^-24. With P+ = fl32(P (1 + 2^-20)) >= c o t (1 - 2^-24)^3
// (1 + 2^-20):
//   D >= P+  gives  d^2 >= c o t (1 - 2^-24)^3 (1 + 2^-20) / (1 + 2^-24)
//            >= c o t (1 + 2^-21) >= R    (c o t >= 0),
// and with P- = fl32(P (1 - 2^-20)) <= c o t (1 + 2^-24)^3 (1 - 2^-20):
//   D < P-   gives  d^2 < c o t (1 + 2^-24)^3 (1 - 2^-20) / (1 - 2^-24)
//            <= c o t (1 - 2^-21) <= R.
// The sign test d >= 0 is exact (the conversion keeps the sign). So a
// sample passes where d >= 0 and D >= P+, fails where d < 0 or D < P-, and
// only P- <= D < P+ is unsure: then the caller runs the double test
// (adm_avx2.cpp's angle_mask8_float on 16 lanes).
// `margin` is the bound's 2^-20 (scales 1-3 use it with their own, below).
inline __mmask16 angle_mask16_float(__m512 d, __m512 o, __m512 t, __m512 cos_sq,
                                    __mmask16& unsure, float margin = 0x1p-20f) {
    const __m512 dd = _mm512_mul_ps(d, d);
    const __m512 p = _mm512_mul_ps(_mm512_mul_ps(cos_sq, o), t);
    const __m512 p_hi = _mm512_mul_ps(p, _mm512_set1_ps(1.0f + margin));
    const __m512 p_lo = _mm512_mul_ps(p, _mm512_set1_ps(1.0f - margin));
    const __mmask16 nonneg = _mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_GE_OQ);
    const __mmask16 pass = _mm512_mask_cmp_ps_mask(nonneg, dd, p_hi, _CMP_GE_OQ);
    const __mmask16 fails = _mm512_cmp_ps_mask(dd, p_lo, _CMP_LT_OQ);
    unsure = static_cast<__mmask16>(nonneg & ~(pass | fails));
    return pass;
}

// k = clamp((div[o] * t + 2^14) >> 15, 0, 2^15), 2^15 where o == 0, in
// int32 lanes: with div = dh * 2^15 + dl (dh = div >> 15 arithmetic, dl in
// [0, 2^15)), (div * t + 2^14) >> 15 = dh * t + ((dl * t + 2^14) >> 15),
// because dh * t * 2^15 is a multiple of 2^15. |dh|, |t| <= 2^15 and
// dl * t + 2^14 in (-2^30, 2^30): every term is exact in int32.
inline Z ratio_q15_s0(Z o, Z t, const Reciprocal30& div) {
    const Z zero = _mm512_setzero_si512();
    // The table entry: floor(2^30 / |o|) with o's sign (|.| <= 2^30).
    Z dv = div(_mm512_abs_epi32(o));
    dv = _mm512_mask_sub_epi32(dv, _mm512_cmplt_epi32_mask(o, zero), zero, dv);
    const Z dh = _mm512_srai_epi32(dv, 15);
    const Z dl = _mm512_and_si512(dv, _mm512_set1_epi32(0x7fff));
    // dl * t by vpmaddwd (one uop, vpmulld's two): dl's high word is 0 and
    // its low word dl < 2^15 as int16, t's low word is t (an int16
    // sign-extended), so the pair sum is dl * t + 0 * (t's sign word).
    const Z low = _mm512_srai_epi32(
        _mm512_add_epi32(_mm512_madd_epi16(dl, t), _mm512_set1_epi32(16384)), 15);
    const Z q = _mm512_add_epi32(_mm512_mullo_epi32(dh, t), low);
    const Z k = _mm512_min_epi32(_mm512_max_epi32(q, zero), _mm512_set1_epi32(32768));
    return _mm512_mask_mov_epi32(k, _mm512_cmpeq_epi32_mask(o, zero), _mm512_set1_epi32(32768));
}

// (k * o + 2^14) >> 15 for k in [0, 2^15] and o an int16 sign-extended.
// k * o by vpmaddwd (one uop, vpmulld's two): for k < 2^15 k's low word is
// k as int16 and its high word 0, o's low word is o, so the pair sum is
// k * o (|.| < 2^30, exact). k = 2^15 reads as -2^15 there; its result
// (o * 2^15 + 2^14) >> 15 is o itself, which those lanes take instead.
inline Z scale_q15_s0(Z k, Z o) {
    const Z k15 = _mm512_set1_epi32(32768);
    const Z rst = _mm512_srai_epi32(
        _mm512_add_epi32(_mm512_madd_epi16(k, o), _mm512_set1_epi32(16384)), 15);
    return _mm512_mask_mov_epi32(rst, _mm512_cmpeq_epi32_mask(k, k15), o);
}

// trunc(fl(rst * gain)) on 16 lanes: the double product rounded to nearest,
// then a truncating conversion, as the scalar's double-to-integer conversion.
// |rst| <= 2^15 and |gain| <= 65535 keep the result inside int32.
inline Z gain_product_s0(Z rst, __m512d gain) {
    const __m256i lo =
        _mm512_cvttpd_epi32(_mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(rst)), gain));
    const __m256i hi = _mm512_cvttpd_epi32(
        _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(rst, 1)), gain));
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

// What both scales' decoupling reads besides the bands.
struct DecoupleConstants {
    explicit DecoupleConstants(double gain_limit)
        : cos_sq(_mm512_set1_pd(static_cast<double>(cos_1deg_sq()))),
          gain(_mm512_set1_pd(gain_limit)) {}
    __m512d cos_sq;
    __m512d gain;
    Reciprocal30 div;  // computes 2^30 / m instead of reading libvmaf's table
};

// body(i, m, o, t) for the blocks of 16 samples of each region row: i the
// samples' index in the bands, m the block's lanes (the last block's only
// those inside the region; the others are loaded as 0 and not stored), o
// and t the ref and dis values of h, v and d as int32 (int16 bands
// sign-extended).
template <class T, class Body>
inline void for_decouple_blocks(const T* const ref_hvd[3], const T* const dis_hvd[3],
                                std::ptrdiff_t stride, Rect region, Body body) {
    for (int y = region.y0; y < region.y1; ++y) {
        for (int x = region.x0; x < region.x1; x += 16) {
            const __mmask16 m = tail16(region.x1 - x);
            const std::ptrdiff_t i = y * stride + x;
            Z o[3], t[3];
            for (int b = 0; b < 3; ++b) {
                if constexpr (sizeof(T) == 2) {
                    o[b] = load16_i16_as_i32(ref_hvd[b] + i, m);
                    t[b] = load16_i16_as_i32(dis_hvd[b] + i, m);
                } else {
                    o[b] = ld_i32x16(m, ref_hvd[b] + i);
                    t[b] = ld_i32x16(m, dis_hvd[b] + i);
                }
            }
            body(i, m, o, t);
        }
    }
}

// Whether some sample of a block has o and t both non-zero in some band.
// Elsewhere the scalar's r is 0 and a is t: o = 0 restores (k * 0 + 2^14)
// >> 15 = 0 and takes no gain limit (it needs o != 0); o != 0 with t = 0
// has k = clamp((div * 0 + 2^14) >> 15, 0, 2^15) = 0, so r = (0 + 2^14)
// >> 15 = 0, and no limit either (it needs k != 0). Flat content has whole
// blocks of such samples (about half the blocks of the testsrc clips at
// scale 0), which skip the angle test and the ratios. For int16 o and t
// sign-extended, vpmaddwd gives o t + so st (so, st the sign words, 0 or
// -1): that is 0 where o or t is 0 (its sign word is 0 too), and not 0
// elsewhere (|o t| >= 1, and so st = 1 only where both are negative, where
// o t > 0), so one test of the three sums' OR decides the block, off port
// 5 but for the test. Masked-off lanes are loaded as 0.
inline bool any_live(const Z* o, const Z* t) {
    const Z p = _mm512_ternarylogic_epi32(_mm512_madd_epi16(o[0], t[0]),
                                          _mm512_madd_epi16(o[1], t[1]),
                                          _mm512_madd_epi16(o[2], t[2]), 0xFE);
    return _mm512_test_epi32_mask(p, p) != 0;
}

// r = 0 and a = t for the three bands of a block with no live sample.
// (Testing each band apart too, and storing those without one the same
// way, measured slower on the noisy bench picture: BM_AdmDecoupleS0/2
// 0.75 -> 0.91 ms, its per-band branches unpredictable there.)
// The dis samples are copied as int16 (no narrowing, which is two uops on
// port 5).
inline void store_flat_band(std::int16_t* r, std::int16_t* a, const std::int16_t* t,
                            __mmask16 m) {
    st_i16x16(r, m, _mm256_setzero_si256());
    st_i16x16(a, m, ld_i16x16(m, t));
}
inline void store_flat(std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3],
                       const std::int16_t* const dis_hvd[3], std::ptrdiff_t i, __mmask16 m) {
    for (int b = 0; b < 3; ++b) store_flat_band(r_hvd[b] + i, a_hvd[b] + i, dis_hvd[b] + i, m);
}

// How decouple_s0_rows multiplies rst by the gain limit.
enum class GainProduct {
    real,   // the double product, truncated (gain_product_s0)
    int32,  // an integral gain in [-65535, 65535]: vpmulld
    int16,  // an integral gain in [-32768, 32767] (the default 100): vpmaddwd
};

template <GainProduct kGain>
void decouple_s0_rows(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                      std::ptrdiff_t stride, Rect region, double gain_limit,
                      std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    const DecoupleConstants c(gain_limit);
    // For vpmaddwd the gain is the low word of each dword, its high word 0.
    const std::int32_t g = kGain == GainProduct::real ? 0 : static_cast<std::int32_t>(gain_limit);
    const Z gain_int = _mm512_set1_epi32(kGain == GainProduct::int16 ? (g & 0xFFFF) : g);
    const Z zero = _mm512_setzero_si512();
    const Z wrapped = _mm512_set1_epi32(std::numeric_limits<std::int32_t>::min());
    const __m512 two31 = _mm512_set1_ps(0x1p31f);
    const __m512 cos_sq_f = _mm512_set1_ps(cos_1deg_sq());
    auto block = [&](std::ptrdiff_t i, __mmask16 m, const Z* o, const Z* t) {
        if (!any_live(o, t)) {
            store_flat(r_hvd, a_hvd, dis_hvd, i, m);
            return;
        }
        // Sums of two int16 products in int32, by vpmaddwd on (h, v)
        // pairs. The squared magnitudes are in [0, 2^31] and read as
        // uint32; the dot product is in [2 * -32768 * 32767, 2^31], where
        // only 2^31 (two products of 2^30) wraps, to INT32_MIN, which is
        // therefore read as 2^31.
        const Z op = _mm512_mask_blend_epi16(0xAAAAAAAA, o[0], _mm512_slli_epi32(o[1], 16));
        const Z tp = _mm512_mask_blend_epi16(0xAAAAAAAA, t[0], _mm512_slli_epi32(t[1], 16));
        const Z dot = _mm512_madd_epi16(op, tp);
        const Z om = _mm512_madd_epi16(op, op);
        const Z tm = _mm512_madd_epi16(tp, tp);
        const __m512 fd = _mm512_mask_mov_ps(_mm512_cvtepi32_ps(dot),
                                             _mm512_cmpeq_epi32_mask(dot, wrapped), two31);
        const __m512 fo = _mm512_cvtepu32_ps(om);
        const __m512 ft = _mm512_cvtepu32_ps(tm);
        __mmask16 unsure;
        __mmask16 angle = angle_mask16_float(fd, fo, ft, cos_sq_f, unsure);
        if (unsure) angle = angle_mask16(fd, fo, ft, c.cos_sq);  // rare: near 1 degree
        for (int b = 0; b < 3; ++b) {
            const Z k = ratio_q15_s0(o[b], t[b], c.div);
            Z rst = scale_q15_s0(k, o[b]);
            // rst = (k * o + 2^14) >> 15 is in [-2^15, 2^15 - 1] (k * o in
            // [-2^30, 2^30 - 2^15]), an int16 sign-extended. With |gain| <=
            // 65535 the integer product fits int32; with gain an int16,
            // vpmaddwd's pair sum is rst * gain + (rst's sign word) * 0,
            // |.| <= 2^30.
            Z p;
            if constexpr (kGain == GainProduct::int16)
                p = _mm512_madd_epi16(rst, gain_int);
            else if constexpr (kGain == GainProduct::int32)
                p = _mm512_mullo_epi32(rst, gain_int);
            else
                p = gain_product_s0(rst, c.gain);
            const Z limited =
                _mm512_mask_blend_epi32(_mm512_cmpgt_epi32_mask(o[b], zero),
                                        _mm512_max_epi32(p, t[b]), _mm512_min_epi32(p, t[b]));
            const __mmask16 apply = _mm512_mask_cmpneq_epi32_mask(
                _mm512_mask_cmpneq_epi32_mask(angle, k, zero), o[b], zero);
            rst = _mm512_mask_mov_epi32(rst, apply, limited);
            // a = t - r modulo 2^16, the scalar's narrowing of the int32
            // difference, from the int16 dis samples and the narrowed r:
            // one vpmovdw a band, not two.
            const __m256i r16 = _mm512_cvtepi32_epi16(rst);
            st_i16x16(r_hvd[b] + i, m, r16);
            st_i16x16(a_hvd[b] + i, m, _mm256_sub_epi16(ld_i16x16(m, dis_hvd[b] + i), r16));
        }
    };
    for_decouple_blocks(ref_hvd, dis_hvd, stride, region, block);
}

void decouple_s0_avx512(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                        std::ptrdiff_t stride, Rect region, double gain_limit,
                        std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    // Outside these the vector product could leave int32; the scalar serves.
    if (!(gain_limit >= -65535.0 && gain_limit <= 65535.0)) {
        decouple_s0(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    if (integral_gain(gain_limit, 65535.0)) {
        if (gain_limit >= -32768.0 && gain_limit <= 32767.0)
            decouple_s0_rows<GainProduct::int16>(ref_hvd, dis_hvd, stride, region, gain_limit,
                                                 r_hvd, a_hvd);
        else
            decouple_s0_rows<GainProduct::int32>(ref_hvd, dis_hvd, stride, region, gain_limit,
                                                 r_hvd, a_hvd);
    } else {
        decouple_s0_rows<GainProduct::real>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd,
                                            a_hvd);
    }
}

// The restored value rst = (k * o + 2^14) >> 15 of scales 1-3 on 16 int32
// lanes, with k = clamp((div[top] sgn(o) t + 2^(14 + shift)) >> (15 +
// shift), 0, 2^15) the scalar's ratio: |o| >= 2^15 is reduced to its top 15
// bits, rounded, with shift = bitlen(|o|) - 15 = 17 - lzcnt32(|o|) (|o| +
// 2^(shift - 1) <= 2^31 + 2^16 does not wrap in uint32), and div[top] =
// floor(2^30 / top) (Reciprocal30). k is formed from magnitudes, in 64-bit
// lanes (even and odd elements apart) whose values stay below 2^32:
// - where t and o differ in sign, the product is <= 0 and the sum below
//   2^(15 + shift): k = 0; where t = 0 it is 0 as well. Otherwise the
//   product is div * |t| (div >= 0).
// - |t| is first capped at cap = 2 |o| (2^31 for |o| = 2^31, where 2 |o|
//   wraps to 0 in uint32 and max(.) keeps |o|): k is non-decreasing in |t|,
//   and at |t| = cap the quotient is already >= 2^15 (div > 2^30 / top -
//   1 and |o| / top >= 2^shift / (1 + 2^-15), as |o| >= 2^(14 + shift)
//   where shift > 0, so div * 2 |o| > 2^(31 + shift) - 2^(17 + shift)), so
//   the clamp gives 2^15 either way; below the cap the quotient is below
//   2^16 + 8 (|o| / top <= 2^shift (1 + 2^-14)), so the low dword of the
//   logical shift of the uint64 sum (< 2^62 + 2^31) is the quotient, and
//   vpminud clamps it (the high dword is 0).
// o = 0 gives top = 0, where Reciprocal30 returns 2^30, but cap = 0, so
// the product is 0 and k = 0: rst = 0, as the scalar's (k * 0 + 2^14) >>
// 15 for its k = 2^15. So the caller needs no k: its gain limit skips
// exactly the samples with rst = 0 (see decouple_s123_rows).
// Then k * o (|.| <= 2^46, signed 32x32 products of the low dwords) plus
// 2^14, shifted right logically: the low dword is the arithmetic shift's,
// which lies in [-2^31, 2^31). (The twin of adm_avx2.cpp's
// restore_ratio_s123, with the reciprocal computed instead of gathered.)
inline Z restore_ratio_s123(Z o, Z t, const Reciprocal30& div) {
    const Z zero = _mm512_setzero_si512();
    const Z mag = _mm512_abs_epi32(o);  // uint32; 2^31 for INT32_MIN
    const Z shift =
        _mm512_max_epi32(_mm512_sub_epi32(_mm512_set1_epi32(17), _mm512_lzcnt_epi32(mag)), zero);
    const Z half = _mm512_srli_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(1), shift), 1);
    const Z top = _mm512_srlv_epi32(_mm512_add_epi32(mag, half), shift);  // <= 2^15
    const Z dv = div(top);                                                 // in [0, 2^30]
    const Z cap = _mm512_max_epu32(_mm512_slli_epi32(mag, 1), mag);
    const Z tc = _mm512_min_epu32(_mm512_abs_epi32(t), cap);
    const __mmask16 other_sign = _mm512_cmplt_epi32_mask(_mm512_xor_si512(t, o), zero);
    const Z round = _mm512_sllv_epi32(_mm512_set1_epi32(1 << 14), shift);  // <= 2^31, uint32
    const Z count = _mm512_add_epi32(shift, _mm512_set1_epi32(15));
    const Z low_dword = _mm512_set1_epi64(0xffffffff), kmax = _mm512_set1_epi64(32768);
    // Operands in the low dwords (the high ones zero where they are added
    // or used as shift counts).
    auto k64 = [&](Z d, Z tt, Z r, Z c) {
        const Z q = _mm512_srlv_epi64(_mm512_add_epi64(_mm512_mul_epu32(d, tt), r), c);
        return _mm512_min_epu32(q, kmax);
    };
    const Z k_even =
        k64(dv, tc, _mm512_and_si512(round, low_dword), _mm512_and_si512(count, low_dword));
    const Z k_odd = k64(_mm512_srli_epi64(dv, 32), _mm512_srli_epi64(tc, 32),
                        _mm512_srli_epi64(round, 32), _mm512_srli_epi64(count, 32));
    const Z k = _mm512_maskz_mov_epi32(static_cast<__mmask16>(~other_sign),
                                       interleave_low_dwords(k_even, k_odd));
    const Z r14 = _mm512_set1_epi64(1 << 14);
    const Z r_even = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(k, o), r14), 15);
    const Z r_odd = _mm512_srli_epi64(
        _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(k, 32), _mm512_srli_epi64(o, 32)), r14),
        15);
    return interleave_low_dwords(r_even, r_odd);
}

// rst * g for an integral gain g in [0, 2^31) on 16 lanes, saturated to
// [INT32_MIN, INT32_MAX]: exact in int32 where |rst| <= bound = (2^31 - 1) /
// g (unsigned compare: |INT32_MIN| is 2^31), else the limit of rst's sign.
// The caller's min(p, t) (o > 0, so rst >= 0) or max(p, t) (o < 0, rst <=
// 0) then gives t wherever the exact product is beyond int32, as the
// scalar's int64 min / max does.
inline Z gain_product_saturated(Z rst, Z g, Z bound_plus_1) {
    const __mmask16 over =
        _mm512_cmp_epu32_mask(_mm512_abs_epi32(rst), bound_plus_1, _MM_CMPINT_NLT);
    const Z limit = _mm512_xor_si512(_mm512_srai_epi32(rst, 31),
                                     _mm512_set1_epi32(std::numeric_limits<std::int32_t>::max()));
    return _mm512_mask_mov_epi32(_mm512_mullo_epi32(rst, g), over, limit);
}

// The limited sample trunc(min(fl(rst * gain), t)) (o > 0) or
// trunc(max(fl(rst * gain), t)) (o < 0) on 8 lanes, which is the scalar's
// min / max of the truncated product and t (t is an integer). For 0 <= gain
// the product has the sign of rst, which is o's (k >= 0), so the min or max
// lies between 0 and t (or is t): the conversion is exact in int32.
inline __m256i limit_gain8(__m256i rst, __m256i t, __mmask8 pos, __m512d gain) {
    const __m512d p = _mm512_mul_pd(_mm512_cvtepi32_pd(rst), gain);
    const __m512d td = _mm512_cvtepi32_pd(t);
    return _mm512_cvttpd_epi32(
        _mm512_mask_blend_pd(pos, _mm512_max_pd(p, td), _mm512_min_pd(p, td)));
}

// double(float(v)) for 8 int64 lanes: vcvtqq2ps rounds once, to nearest,
// as the scalar's int64-to-float conversion.
inline __m512d float_of_i64(Z v) { return _mm512_cvtps_pd(_mm512_cvtepi64_ps(v)); }

// The angle test of 8 samples whose int32 h / v values are in ah, av (ref)
// and bh, bv (dis): products of int32 values (|.| <= 2^62) summed modulo
// 2^64, as the scalar's dot2_wrapping; float(dot) >= 0 exactly when the
// (wrapped) int64 is.
inline __mmask8 angle_mask8_s123(__m256i oh32, __m256i ov32, __m256i th32, __m256i tv32,
                                 __m512d cos_sq) {
    const Z oh = _mm512_cvtepi32_epi64(oh32), ov = _mm512_cvtepi32_epi64(ov32);
    const Z th = _mm512_cvtepi32_epi64(th32), tv = _mm512_cvtepi32_epi64(tv32);
    const Z dot = _mm512_add_epi64(_mm512_mul_epi32(oh, th), _mm512_mul_epi32(ov, tv));
    const Z om = _mm512_add_epi64(_mm512_mul_epi32(oh, oh), _mm512_mul_epi32(ov, ov));
    const Z tm = _mm512_add_epi64(_mm512_mul_epi32(th, th), _mm512_mul_epi32(tv, tv));
    return angle_close8(_mm512_cmpge_epi64_mask(dot, _mm512_setzero_si512()), float_of_i64(dot),
                        float_of_i64(om), float_of_i64(tm), cos_sq);
}

inline __m256i lo256(Z v) { return _mm512_castsi512_si256(v); }
inline __m256i hi256(Z v) { return _mm512_extracti64x4_epi64(v, 1); }

// The angle test of 16 samples of scales 1-3 from the int64 sums and the
// scalar's float conversions of them (angle_mask8_s123 per half), for the
// blocks the float test below cannot decide.
inline __mmask16 angle_mask16_s123_exact(const Z* o, const Z* t, __m512d cos_sq) {
    const unsigned lo = angle_mask8_s123(lo256(o[0]), lo256(o[1]), lo256(t[0]), lo256(t[1]), cos_sq);
    const unsigned hi = angle_mask8_s123(hi256(o[0]), hi256(o[1]), hi256(t[0]), hi256(t[1]), cos_sq);
    return static_cast<__mmask16>(lo | (hi << 8));
}

// The angle test of 16 samples of scales 1-3 decided in float from their
// int32 h and v values (oh, ov of ref, th, tv of dis), without the int64
// sums: the samples that pass, with `unsure` the samples this cannot
// decide. With u = 2^-24, each value converts as x (1 + e), |e| <= u, so
// the products and sums here are, against the exact integers,
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
// are INT32_MIN (each product is at most 2^62); those samples are unsure.
// (adm_avx2.cpp's angle_mask8_s123_float on 16 lanes; the multiplies and
// additions are separate, unfused, as -ffp-contract=off keeps them.)
inline __mmask16 angle_mask16_s123_float(Z oh, Z ov, Z th, Z tv, __m512 cos_sq,
                                         __mmask16& unsure) {
    const __m512 fh = _mm512_cvtepi32_ps(oh), fv = _mm512_cvtepi32_ps(ov);
    const __m512 gh = _mm512_cvtepi32_ps(th), gv = _mm512_cvtepi32_ps(tv);
    const __m512 d = _mm512_add_ps(_mm512_mul_ps(fh, gh), _mm512_mul_ps(fv, gv));
    const __m512 o = _mm512_add_ps(_mm512_mul_ps(fh, fh), _mm512_mul_ps(fv, fv));
    const __m512 t = _mm512_add_ps(_mm512_mul_ps(gh, gh), _mm512_mul_ps(gv, gv));
    const __mmask16 pass = angle_mask16_float(d, o, t, cos_sq, unsure, 0x1p-18f);
    const Z min = _mm512_set1_epi32(std::numeric_limits<std::int32_t>::min());
    const __mmask16 wraps =
        _mm512_cmpeq_epi32_mask(_mm512_max_epi32(oh, ov), min) |
        _mm512_cmpeq_epi32_mask(_mm512_max_epi32(th, tv), min);
    unsure = static_cast<__mmask16>(unsure | wraps);
    return pass;
}

// How decouple_s123_rows multiplies rst by the gain limit.
enum class GainS123 {
    real,      // the double product (limit_gain8)
    integral,  // an integral gain in [0, 2^31) (the default 100): saturated vpmulld
    unit,      // 1 (the v1.0.16 model's): rst itself
};

template <GainS123 kGain>
void decouple_s123_rows(const std::int32_t* const ref_hvd[3], const std::int32_t* const dis_hvd[3],
                        std::ptrdiff_t stride, Rect region, double gain_limit,
                        std::int32_t* const r_hvd[3], std::int32_t* const a_hvd[3]) {
    const DecoupleConstants c(gain_limit);
    const Z zero = _mm512_setzero_si512();
    const std::uint32_t g = kGain == GainS123::real ? 0 : static_cast<std::uint32_t>(gain_limit);
    const Z gain_int = _mm512_set1_epi32(static_cast<std::int32_t>(g));
    // bound + 1 <= 2^31 (g == 0: no product leaves int32).
    const Z bound_plus_1 = _mm512_set1_epi32(
        static_cast<std::int32_t>((g == 0 ? 0x7fffffffu : 0x7fffffffu / g) + 1u));
    const __m512 cos_sq_f = _mm512_set1_ps(cos_1deg_sq());
    auto block = [&](std::ptrdiff_t i, __mmask16 m, const Z* o, const Z* t) {
        // (Skipping blocks and bands without a sample whose o and t are both
        // non-zero, as decouple_s0_rows does, measured no gain here: -n
        // --feature adm CPU 0.152 -> 0.158 s at 1080p, 0.270 either way at
        // 2160p.)
        // Float decides almost every sample; a block with one it cannot (an
        // angle within about 1e-4 radians of 1 degree, or a wrapped sum)
        // takes the int64 sums.
        __mmask16 unsure;
        __mmask16 angle = angle_mask16_s123_float(o[0], o[1], t[0], t[1], cos_sq_f, unsure);
        if (unsure) angle = angle_mask16_s123_exact(o, t, c.cos_sq);
        for (int b = 0; b < 3; ++b) {
            Z rst = restore_ratio_s123(o[b], t[b], c.div);
            const __mmask16 pos = _mm512_cmpgt_epi32_mask(o[b], zero);
            Z limited;
            if constexpr (kGain == GainS123::real) {
                const __m256i lim_lo =
                    limit_gain8(lo256(rst), lo256(t[b]), static_cast<__mmask8>(pos), c.gain);
                const __m256i lim_hi =
                    limit_gain8(hi256(rst), hi256(t[b]), static_cast<__mmask8>(pos >> 8), c.gain);
                limited = _mm512_inserti64x4(_mm512_castsi256_si512(lim_lo), lim_hi, 1);
            } else {
                const Z p = kGain == GainS123::unit
                                ? rst
                                : gain_product_saturated(rst, gain_int, bound_plus_1);
                limited = _mm512_mask_blend_epi32(pos, _mm512_max_epi32(p, t[b]),
                                                  _mm512_min_epi32(p, t[b]));
            }
            // The scalar limits where k != 0 and o != 0, which are the
            // samples with rst != 0: rst = 0 where either is 0, and where
            // rst = 0 otherwise t has o's sign (k > 0), so the limit
            // min(0 * gain, t) (o > 0) or max(0 * gain, t) (o < 0) is 0.
            const __mmask16 apply = _mm512_mask_test_epi32_mask(angle, rst, rst);
            rst = _mm512_mask_mov_epi32(rst, apply, limited);
            st_i32x16(r_hvd[b] + i, m, rst);
            st_i32x16(a_hvd[b] + i, m, _mm512_sub_epi32(t[b], rst));  // modulo 2^32
        }
    };
    for_decouple_blocks(ref_hvd, dis_hvd, stride, region, block);
}

void decouple_s123_avx512(const std::int32_t* const ref_hvd[3],
                          const std::int32_t* const dis_hvd[3], std::ptrdiff_t stride, Rect region,
                          double gain_limit, std::int32_t* const r_hvd[3],
                          std::int32_t* const a_hvd[3]) {
    // limit_gain8 and the saturated product need a non-negative gain; up to
    // 2^31 the product (below 2^62) is finite (NaN fails the test). The
    // scalar serves the rest.
    if (!(gain_limit >= 0.0 && gain_limit <= 0x1p31)) {
        decouple_s123(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    if (gain_limit == 1.0)
        decouple_s123_rows<GainS123::unit>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd,
                                           a_hvd);
    else if (gain_limit < 0x1p31 && integral_gain(gain_limit, 0x1p31))
        decouple_s123_rows<GainS123::integral>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd,
                                               a_hvd);
    else
        decouple_s123_rows<GainS123::real>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd,
                                           a_hvd);
}

// ---------------------------------------------------------------------------
// CSF

void csf_s0_avx512(const std::int16_t* src, std::ptrdiff_t stride, Rect region,
                   std::uint16_t rfactor, int shift, std::int32_t round, std::int16_t* csf,
                   std::int16_t* flt) {
    const Z f = _mm512_set1_epi32(rfactor);
    const Z r = _mm512_set1_epi32(round);
    const __m128i count = _mm_cvtsi32_si128(shift);
    const Z k30 = _mm512_set1_epi32(4369), r12 = _mm512_set1_epi32(2048);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        for (int x = region.x0; x < region.x1; x += 16) {
            const __mmask16 m = tail16(region.x1 - x);
            // |f * s| <= 65535 * 32768 and round <= 65535 stay inside int32.
            const Z v = _mm512_sra_epi32(
                _mm512_add_epi32(_mm512_mullo_epi32(f, load16_i16_as_i32(src + row + x, m)), r),
                count);
            // The int16 value (sign-extended), as the scalar's narrowing leaves it.
            const Z c = _mm512_srai_epi32(_mm512_slli_epi32(v, 16), 16);
            store16_i16_wrap(csf + row + x, m, c);
            // 4369 * 32768 + 2048 < 2^31.
            const Z g = _mm512_srai_epi32(
                _mm512_add_epi32(_mm512_mullo_epi32(k30, _mm512_abs_epi32(c)), r12), 12);
            store16_i16_wrap(flt + row + x, m, g);
        }
    }
}

// The int64 product of an int32 s and a uint32 factor f from signed 32x32
// products: with fs = f - 2^32 for f >= 2^31 (the int32 of f's bits),
// s * f = s * fs + s * 2^32 (exact: |s * f| < 2^63). `s_hi` holds s * 2^32,
// which the callers get from a shift or a mask of the lane.
template <bool kBigFactor>
inline Z mul_i32_u32(Z s_lo, Z s_hi, Z fs) {
    const Z p = _mm512_mul_epi32(s_lo, fs);
    return kBigFactor ? _mm512_add_epi64(p, s_hi) : p;
}

// int32((s * f + 2^27) >> 28) for 16 int32 s and a uint32 f (fs as above):
// the int64 product, and of its sum with the round the narrowing keeps bits
// 28..59, which the logical shift leaves as the arithmetic one would.
template <bool kBigFactor>
inline Z csf_scale_s123(Z s, Z fs) {
    const Z r = _mm512_set1_epi64(std::int64_t{1} << 27);
    const Z even = mul_i32_u32<kBigFactor>(s, _mm512_slli_epi64(s, 32), fs);
    const Z odd = mul_i32_u32<kBigFactor>(
        _mm512_srli_epi64(s, 32), _mm512_and_si512(s, _mm512_set1_epi64(~std::int64_t{0xffffffff})),
        fs);
    return interleave_low_dwords(_mm512_srli_epi64(_mm512_add_epi64(even, r), 28),
                                 _mm512_srli_epi64(_mm512_add_epi64(odd, r), 28));
}

// int32((K * |c| + (-2^31)) >> 32): the int64 value is at least -2^31, so
// its arithmetic shift by 32 fits int32 and is its high dword.
inline Z q32_scale_abs(Z c, Z k) {
    const Z mag = _mm512_abs_epi32(c);
    const Z r = _mm512_set1_epi64(-(std::int64_t{1} << 31));
    const Z even = _mm512_add_epi64(_mm512_mul_epu32(mag, k), r);
    const Z odd = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(mag, 32), k), r);
    return _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even, 32), odd);
}

template <bool kBigFactor>
void csf_s123_rows(const std::int32_t* src, std::ptrdiff_t stride, Rect region,
                   std::uint32_t rfactor, std::int32_t* csf, std::int32_t* flt) {
    const Z fs = _mm512_set1_epi32(static_cast<std::int32_t>(rfactor));
    const Z k30 = _mm512_set1_epi32(143165577);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        for (int x = region.x0; x < region.x1; x += 16) {
            const __mmask16 m = tail16(region.x1 - x);
            const Z v = csf_scale_s123<kBigFactor>(ld_i32x16(m, src + row + x), fs);
            st_i32x16(csf + row + x, m, v);
            st_i32x16(flt + row + x, m, q32_scale_abs(v, k30));
        }
    }
}

void csf_s123_avx512(const std::int32_t* src, std::ptrdiff_t stride, Rect region,
                     std::uint32_t rfactor, std::int32_t* csf, std::int32_t* flt) {
    if (rfactor >= 0x80000000u)
        csf_s123_rows<true>(src, stride, region, rfactor, csf, flt);
    else
        csf_s123_rows<false>(src, stride, region, rfactor, csf, flt);
}

// ---------------------------------------------------------------------------
// Masking: the cube of an excess

// Sum of cube(e) over the excesses in the low dwords of the 64-bit lanes of
// e (each in [0, 2^31)), added to acc: e^2 + round < 2^63, so the logical
// shift is exact and its low dword is the scalar's int32 narrowing of e2;
// e2 * e (|.| < 2^62) plus the round is shifted arithmetically, as the
// scalar's int64 shift (e2 is negative for e^2 >= 2^(31 + sq) roughly).
struct Cube {
    Z sq_round, cub_round;
    Z sq, cub;  // shift counts in every lane (vpsrlvq / vpsravq: one uop, by an xmm count two)
    Z add(Z acc, Z e) const {
        const Z e2 = _mm512_srlv_epi64(_mm512_add_epi64(_mm512_mul_epu32(e, e), sq_round), sq);
        const Z c = _mm512_add_epi64(_mm512_mul_epi32(e2, e), cub_round);
        return _mm512_add_epi64(acc, _mm512_srav_epi64(c, cub));
    }
};

inline Cube make_cube(const CubeShifts& s) {
    Cube c;
    c.sq_round = _mm512_set1_epi64(round_term(s.sq));
    c.cub_round = _mm512_set1_epi64(round_term(s.cub));
    c.sq = _mm512_set1_epi64(s.sq);
    c.cub = _mm512_set1_epi64(s.cub);
    return c;
}

// ---------------------------------------------------------------------------
// Masking, scale 0

// The scale-0 threshold is sum_t (ring_t + centre_t): the eight neighbours'
// flt values and the centre tap of each orientation t. The flt part is
// reorganised (all sums are exact in int32, |T| < 2^20, so the order does
// not matter): S(r, x) = sum_t flt_t(r, x) once per band row,
// V(x) = S(y-1, x) + S(y, x) + S(y+1, x) per output row (rows reflected),
// and ring(x) = V(x-1) + V(x) + V(x+1) - S(y, x), with V(-1) = V(1) and
// V(w) = V(w-1): the reflected neighbour columns of columns 0 and w - 1.
// That reads 4 + 3 / 3 rows per sample instead of 24.
// The rows of a ring threshold, shared by scale 0 and scales 1-3: the three
// band rows' S over [c0, c1) and centre taps (ThresholdRing's slots), the
// vertical sums V of the output row, and the ring from V.
// Derived::fill_row(r, s, taps) computes S and the taps of band row r.
template <class Derived>
class ThresholdRows {
public:
    ThresholdRows(int w, int h, int x0, int x1)
        : c0_(x0 > 0 ? x0 - 1 : 0),
          c1_(x1 < w ? x1 + 1 : w),
          w_(w),
          x0_(x0),
          x1_(x1),
          mem_(new std::int32_t[7 * (w + 2)]),
          ring_(h, mem_, mem_ + 4 * (w + 2), w + 2) {
        v_ = mem_ + 3 * (w + 2);  // V(x) at v_[x + 1]
    }
    ~ThresholdRows() { delete[] mem_; }
    ThresholdRows(const ThresholdRows&) = delete;
    ThresholdRows& operator=(const ThresholdRows&) = delete;

    // The threshold of row y, columns [x0, x1), into thr; returns the OR of
    // its values (scale 0's test for thresholds outside [0, 2^19)).
    std::uint32_t row(int y, std::int32_t* thr) {
        const ThresholdRing::Rows rows =
            ring_.rows(y, [this](int r, std::int32_t* s, std::int32_t* taps) {
                static_cast<Derived*>(this)->fill_row(r, s, taps);
            });
        const std::int32_t *sa = rows.above, *sc = rows.centre, *cc = rows.centre_taps,
                           *sb = rows.below;
        for (int x = c0_; x < c1_; x += 16) {
            const __mmask16 m = tail16(c1_ - x);
            const Z v = _mm512_add_epi32(
                _mm512_add_epi32(ld_i32x16(m, sa + x), ld_i32x16(m, sc + x)), ld_i32x16(m, sb + x));
            st_i32x16(v_ + 1 + x, m, v);
        }
        if (c0_ == 0) v_[0] = v_[2];
        if (c1_ == w_) v_[w_ + 1] = v_[w_];
        Z bits = _mm512_setzero_si512();
        for (int x = x0_; x < x1_; x += 16) {
            const __mmask16 m = tail16(x1_ - x);
            Z t = _mm512_add_epi32(ld_i32x16(m, v_ + x), ld_i32x16(m, v_ + x + 1));
            t = _mm512_add_epi32(t, ld_i32x16(m, v_ + x + 2));
            t = _mm512_sub_epi32(t, ld_i32x16(m, sc + x));
            t = _mm512_add_epi32(t, ld_i32x16(m, cc + x));
            st_i32x16(thr + (x - x0_), m, t);
            bits = _mm512_or_si512(bits, t);  // masked-off lanes are 0
        }
        return static_cast<std::uint32_t>(_mm512_reduce_or_epi32(bits));
    }

protected:
    const int c0_, c1_;  // the columns whose S the ring reads

private:
    const int w_, x0_, x1_;
    std::int32_t* mem_;
    ThresholdRing ring_;
    std::int32_t* v_;
};

class ThresholdS0 : public ThresholdRows<ThresholdS0> {
public:
    ThresholdS0(const std::int16_t* const masker_hvd[3], const std::uint16_t rfactor[3],
                std::ptrdiff_t stride, int w, int h, int x0, int x1)
        : ThresholdRows(w, h, x0, x1), masker_(masker_hvd), stride_(stride) {
        for (int t = 0; t < 3; ++t) {
            csf_factor_[t] = _mm512_set1_epi32(rfactor[t]);
            csf_round_[t] = _mm512_set1_epi32(kCsfRoundS0[t]);
            csf_shift_[t] = _mm512_set1_epi32(kCsfShiftS0[t]);
        }
    }

private:
    friend class ThresholdRows<ThresholdS0>;

    // S and the centre taps of band row r. Each csf value is computed once
    // and gives both flt and the tap.
    void fill_row(int r, std::int32_t* out, std::int32_t* taps) const {
        const std::ptrdiff_t off = r * stride_;
        const Z k30 = opaque(_mm512_set1_epi32(4369));
        const Z r12 = _mm512_set1_epi32(2048);
        for (int x = c0_; x < c1_; x += 16) {
            const __mmask16 m = tail16(c1_ - x);
            Z s = _mm512_setzero_si512(), ct = _mm512_setzero_si512();
            for (int t = 0; t < 3; ++t) {
                // p = 4369 * |csf| <= 4369 * 32768; 8738 * |csf| is 2p.
                const Z p =
                    _mm512_mullo_epi32(_mm512_abs_epi32(csf16(t, masker_[t] + off + x, m)), k30);
                s = _mm512_add_epi32(s, flt_of_product(p));
                // Centre tap in int32 (not libvmaf's int16): 8738 * 32768 +
                // 2048 < 2^31, result <= 69905.
                ct = _mm512_add_epi32(
                    ct, _mm512_srai_epi32(_mm512_add_epi32(_mm512_add_epi32(p, p), r12), 12));
            }
            st_i32x16(out + x, m, s);
            st_i32x16(taps + x, m, ct);
        }
    }

    // csf_s0 of 16 masker samples of band t: the int32 value sign-extended
    // from its low 16 bits, the scalar's int16 narrowing (|f * s| <= 65535 *
    // 32768 and round <= 65535 stay in int32). A masked-off lane loads 0,
    // whose csf (round >> shift) and flt are 0 for every kCsf*S0 pair.
    Z csf16(int t, const std::int16_t* p, __mmask16 m) const {
        const Z v = _mm512_srav_epi32(
            _mm512_add_epi32(_mm512_mullo_epi32(csf_factor_[t], load16_i16_as_i32(p, m)),
                             csf_round_[t]),
            csf_shift_[t]);
        return _mm512_srai_epi32(_mm512_slli_epi32(v, 16), 16);
    }
    // flt from p = 4369 * |csf|: (p + 2048) >> 12 is at most 34952 and the
    // scalar stores it in int16, so values above 32767 wrap there and are
    // sign-extended from 16 bits here.
    static Z flt_of_product(Z p) {
        const Z g = _mm512_srai_epi32(_mm512_add_epi32(p, _mm512_set1_epi32(2048)), 12);
        return _mm512_srai_epi32(_mm512_slli_epi32(g, 16), 16);
    }

    const std::int16_t* const* masker_;
    std::ptrdiff_t stride_;
    Z csf_factor_[3], csf_round_[3];
    Z csf_shift_[3];  // in every lane: vpsravd
};

// The exact excess clamp(m - T * 2^sub, 0, 2^31 - 1) for m in [0, 2^31) and
// |T| < 2^31, sub <= 30, in 32-bit lanes. T is clamped to +-bound with
// bound * 2^sub = 2^31 (beyond it the result is already 0 or 2^31 - 1):
// - T >= 0: m - (T' << sub) is exact in int32 (for T' << sub == 2^31 it
//   wraps negative and the max gives 0, as the true difference is negative);
// - T < 0: m + (|T|' << sub) < 2^32 is exact in uint32, then min 2^31 - 1.
// Where every T of the row is in [0, 2^(31 - sub)), m - (T << sub) is exact
// and only the max acts (`fast`): every decoded picture is in that case.
struct Excess {
    Z bound;
    Z sub;  // in every lane: vpsllvd (one uop; by an xmm count two)
    int sub_bits;
    Z fast(Z m, Z thr) const {
        return _mm512_max_epi32(_mm512_sub_epi32(m, _mm512_sllv_epi32(thr, sub)),
                                _mm512_setzero_si512());
    }
    Z exact(Z m, Z thr) const {
        const Z zero = _mm512_setzero_si512();
        const Z tp = _mm512_min_epi32(_mm512_max_epi32(thr, zero), bound);
        const Z tn = _mm512_min_epi32(_mm512_max_epi32(_mm512_sub_epi32(zero, thr), zero), bound);
        const Z epos = _mm512_max_epi32(_mm512_sub_epi32(m, _mm512_sllv_epi32(tp, sub)), zero);
        const Z eneg =
            _mm512_min_epu32(_mm512_add_epi32(m, _mm512_sllv_epi32(tn, sub)),
                             _mm512_set1_epi32(std::numeric_limits<std::int32_t>::max()));
        return _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(thr, zero), epos, eneg);
    }
    // Whether every threshold whose bits are OR-ed in `any` is in [0, 2^(31 -
    // sub)).
    bool row_is_fast(std::uint32_t any) const { return (any >> (31 - sub_bits)) == 0; }
};

inline Excess make_excess(int sub) {
    Excess e;
    e.bound =
        _mm512_set1_epi32(sub == 0 ? std::numeric_limits<std::int32_t>::max()
                                   : static_cast<std::int32_t>(std::uint32_t{1} << (31 - sub)));
    e.sub = _mm512_set1_epi32(sub);
    e.sub_bits = sub;
    return e;
}

// The sum of cube(e) over the first n values of `packed`, which holds
// n + 16 values (the 16 after the n are overwritten with zeros).
inline std::int64_t cube_sum(std::int32_t* packed, int n, const Cube& cube) {
    _mm512_storeu_si512(packed + n, _mm512_setzero_si512());
    Z acc = _mm512_setzero_si512();
    for (int i = 0; i < n; i += 16) {
        const Z e = _mm512_loadu_si512(packed + i);
        acc = cube.add(acc, e);
        acc = cube.add(acc, _mm512_srli_epi64(e, 32));
    }
    return hsum_i64(acc);
}

// Where scale 0's masking spends its time (BM_AdmMaskingS0/2, about 0.52
// ms CPU): fill_row replaced by a copy saved 4%, the cubes left out 0-5%;
// the rest is this packing loop and the threshold ring. Packing the row's
// two halves as two independent runs (to overlap the popcnt chains of the
// store addresses) made no difference, nor did prefetching the x and
// masker rows two rows ahead (whole run at 1080p and 2160p, CPU time).
//
// Row sum of cube(excess) for scale 0 over n samples; masked-off lanes load
// a zero sample and a zero threshold, whose excess is 0. cube(0) is 0 (both
// round terms are below their divisors) and the row sum is modulo 2^64 in
// any order, so only the non-zero excesses are cubed: they are packed into
// `packed` (n + 16 values) first. On pictures most excesses are 0.
template <bool kFast>
std::int64_t row_sum_s0(const std::int16_t* src, const std::int32_t* thr, int n,
                        std::uint16_t rfactor, const Excess& ex, const Cube& cube,
                        std::int32_t* packed) {
    const Z f = _mm512_set1_epi32(rfactor);
    int k = 0;
    for (int i = 0; i < n; i += 16) {
        const __mmask16 m = tail16(n - i);
        // |s * f| <= 32768 * 65535 < 2^31: the product and its abs are exact.
        const Z mag = _mm512_abs_epi32(_mm512_mullo_epi32(load16_i16_as_i32(src + i, m), f));
        const Z t = ld_i32x16(m, thr + i);
        const Z e = kFast ? ex.fast(mag, t) : ex.exact(mag, t);
        const __mmask16 nz = _mm512_test_epi32_mask(e, e);
        _mm512_storeu_si512(packed + k, _mm512_maskz_compress_epi32(nz, e));
        k += __builtin_popcount(nz);
    }
    return cube_sum(packed, k, cube);
}

void cm_accumulate_s0_avx512(const std::int16_t* const x_hvd[3],
                             const std::int16_t* const masker_hvd[3], std::ptrdiff_t stride, int w,
                             int h, Rect region, const std::uint16_t rfactor[3],
                             const CubeShifts shifts[3], int row_shift, std::int32_t* thr_scratch,
                             std::int64_t acc[3]) {
    // The clamp bounds below need sub <= 30 (the extractor uses 10 and 12).
    if (shifts[0].sub > 30 || shifts[1].sub > 30 || shifts[2].sub > 30) {
        cm_accumulate_s0(x_hvd, masker_hvd, stride, w, h, region, rfactor, shifts, row_shift,
                         thr_scratch, acc);
        return;
    }
    const std::int64_t row_round = round_term(row_shift);
    Excess ex[3];
    Cube cube[3];
    for (int t = 0; t < 3; ++t) {
        ex[t] = make_excess(shifts[t].sub);
        cube[t] = make_cube(shifts[t]);
    }
    ThresholdS0 threshold(masker_hvd, rfactor, stride, w, h, region.x0, region.x1);
    std::int32_t* packed = new std::int32_t[region.width() + 16];
    for (int y = region.y0; y < region.y1; ++y) {
        const std::uint32_t any = threshold.row(y, thr_scratch);
        for (int t = 0; t < 3; ++t) {
            const std::int16_t* x = x_hvd[t] + y * stride + region.x0;
            const std::int64_t row = ex[t].row_is_fast(any)
                                         ? row_sum_s0<true>(x, thr_scratch, region.width(),
                                                            rfactor[t], ex[t], cube[t], packed)
                                         : row_sum_s0<false>(x, thr_scratch, region.width(),
                                                             rfactor[t], ex[t], cube[t], packed);
            acc[t] = fold_row(acc[t], row, row_round, row_shift);
        }
    }
    delete[] packed;
}

// ---------------------------------------------------------------------------
// Masking, scales 1..3

// The threshold of scales 1-3, organised as ThresholdS0's (S rows, their
// vertical sums V, the ring from V, each row's centre taps kept with its S),
// in int32 lanes. Whatever the masker, T fits int32: flt =
// (143165577 * |csf| - 2^31) >> 32 lies in [-1, 71582788] and the centre tap
// (286331153 * |csf| - 2^31) >> 32 in [-1, 143165576] for |csf| <= 2^31, so
// T = 24 flt + 3 taps is in [-27, 2147483640]. The lanes add modulo 2^32,
// so every partial sum may wrap and the final T is still exact.
class ThresholdS123 : public ThresholdRows<ThresholdS123> {
public:
    ThresholdS123(const std::int32_t* const masker_hvd[3], const std::uint32_t rfactor[3],
                  std::ptrdiff_t stride, int w, int h, int x0, int x1)
        : ThresholdRows(w, h, x0, x1), masker_(masker_hvd), stride_(stride) {
        for (int t = 0; t < 3; ++t) {
            fs_[t] = _mm512_set1_epi32(static_cast<std::int32_t>(rfactor[t]));
            big_[t] = _mm512_set1_epi32(rfactor[t] >= 0x80000000u ? -1 : 0);
        }
    }

private:
    friend class ThresholdRows<ThresholdS123>;

    // S and the centre taps of band row r. Each csf value (csf_s123 of the
    // masker) gives both flt and the tap.
    void fill_row(int r, std::int32_t* out, std::int32_t* taps) const {
        const std::ptrdiff_t off = r * stride_;
        const Z k30 = _mm512_set1_epi32(143165577), k15 = _mm512_set1_epi32(286331153);
        for (int x = c0_; x < c1_; x += 16) {
            const __mmask16 m = tail16(c1_ - x);
            Z s = _mm512_setzero_si512(), ct = _mm512_setzero_si512();
            for (int t = 0; t < 3; ++t) {
                const Z c = csf(t, ld_i32x16(m, masker_[t] + off + x));
                s = _mm512_add_epi32(s, q32_scale_abs(c, k30));
                ct = _mm512_add_epi32(ct, q32_scale_abs(c, k15));
            }
            st_i32x16(out + x, m, s);
            st_i32x16(taps + x, m, ct);
        }
    }

    // csf_scale_s123 of band t, whose factor's top bit (big_) selects the
    // s * 2^32 term of mul_i32_u32.
    Z csf(int t, Z s) const {
        const Z r = _mm512_set1_epi64(std::int64_t{1} << 27);
        const Z hi_even = _mm512_and_si512(_mm512_slli_epi64(s, 32), big_[t]);
        const Z hi_odd = _mm512_and_si512(
            _mm512_and_si512(s, _mm512_set1_epi64(~std::int64_t{0xffffffff})), big_[t]);
        const Z even = _mm512_add_epi64(_mm512_mul_epi32(s, fs_[t]), hi_even);
        const Z odd = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(s, 32), fs_[t]), hi_odd);
        return interleave_low_dwords(_mm512_srli_epi64(_mm512_add_epi64(even, r), 28),
                                     _mm512_srli_epi64(_mm512_add_epi64(odd, r), 28));
    }

    const std::int32_t* const* masker_;
    std::ptrdiff_t stride_;
    Z fs_[3], big_[3];
};

// Row sum for scales 1-3, 16 samples per block: x = int32((src * f + 2^27)
// >> 28) (csf_scale_s123), m = |x| as uint32 (2^31 for INT32_MIN), and the
// excess clamp(m - T, 0, 2^31 - 1) with T in [-27, 2^31 - 8] (see
// ThresholdS123), formed in uint32: for T < 0, m + |T| < 2^32 does not wrap;
// for 0 <= T <= m, m - T is in [0, 2^31]; T > m (unsigned compare, T being
// non-negative) gives 0. Then the cubes of the non-zero excesses, as at
// scale 0 (`packed` holds n + 16 values). Masked-off lanes load a zero
// sample (x = 2^27 >> 28 = 0) and a zero threshold: excess 0.
template <bool kBigFactor>
std::int64_t row_sum_s123(const std::int32_t* src, const std::int32_t* thr, int n,
                          std::uint32_t rfactor, const Cube& cube, std::int32_t* packed) {
    const Z fs = _mm512_set1_epi32(static_cast<std::int32_t>(rfactor));
    const Z zero = _mm512_setzero_si512();
    const Z imax = _mm512_set1_epi32(std::numeric_limits<std::int32_t>::max());
    int k = 0;
    for (int i = 0; i < n; i += 16) {
        const __mmask16 m = tail16(n - i);
        const Z mag = _mm512_abs_epi32(csf_scale_s123<kBigFactor>(ld_i32x16(m, src + i), fs));
        const Z t = ld_i32x16(m, thr + i);
        const __mmask16 below =
            _mm512_mask_cmplt_epu32_mask(_mm512_cmpge_epi32_mask(t, zero), mag, t);
        const Z e =
            _mm512_maskz_min_epu32(static_cast<__mmask16>(~below), _mm512_sub_epi32(mag, t), imax);
        const __mmask16 nz = _mm512_test_epi32_mask(e, e);
        _mm512_storeu_si512(packed + k, _mm512_maskz_compress_epi32(nz, e));
        k += __builtin_popcount(nz);
    }
    return cube_sum(packed, k, cube);
}

void cm_accumulate_s123_avx512(const std::int32_t* const x_hvd[3],
                               const std::int32_t* const masker_hvd[3], std::ptrdiff_t stride,
                               int w, int h, Rect region, const std::uint32_t rfactor[3],
                               CubeShifts shifts, int row_shift, std::int64_t* thr_scratch,
                               std::int64_t acc[3]) {
    const std::int64_t row_round = round_term(row_shift);
    const Cube cube = make_cube(shifts);
    // The int32 thresholds take half of the caller's int64 scratch (only
    // vector loads and stores, which may alias anything, touch it).
    std::int32_t* thr = reinterpret_cast<std::int32_t*>(thr_scratch);
    ThresholdS123 threshold(masker_hvd, rfactor, stride, w, h, region.x0, region.x1);
    std::int32_t* packed = new std::int32_t[region.width() + 16];
    for (int y = region.y0; y < region.y1; ++y) {
        threshold.row(y, thr);
        for (int t = 0; t < 3; ++t) {
            const auto row_sum =
                rfactor[t] >= 0x80000000u ? &row_sum_s123<true> : &row_sum_s123<false>;
            const std::int64_t row = row_sum(x_hvd[t] + y * stride + region.x0, thr, region.width(),
                                             rfactor[t], cube, packed);
            acc[t] = fold_row(acc[t], row, row_round, row_shift);
        }
    }
    delete[] packed;
}

// ---------------------------------------------------------------------------
// Denominator

// Scale 0: |b|^3 exactly (|b|^2 <= 2^30 in uint32, times |b| below 2^45),
// rows summed in uint64.
void den_accumulate_s0_avx512(const std::int16_t* const band_hvd[3], std::ptrdiff_t stride,
                              Rect region, int row_shift, std::uint64_t acc[3]) {
    const std::uint64_t row_round = static_cast<std::uint64_t>(round_term(row_shift));
    const int n = region.width();
    for (int t = 0; t < 3; ++t) {
        for (int y = region.y0; y < region.y1; ++y) {
            const std::int16_t* b = band_hvd[t] + y * stride + region.x0;
            Z sum = _mm512_setzero_si512();
            for (int i = 0; i < n; i += 16) {
                const Z m = _mm512_abs_epi32(load16_i16_as_i32(b + i, tail16(n - i)));
                const Z m2 = _mm512_mullo_epi32(m, m);
                sum = _mm512_add_epi64(sum, _mm512_mul_epu32(m2, m));
                sum = _mm512_add_epi64(
                    sum, _mm512_mul_epu32(_mm512_srli_epi64(m2, 32), _mm512_srli_epi64(m, 32)));
            }
            const std::uint64_t row = static_cast<std::uint64_t>(hsum_i64(sum));
            acc[t] += (row + row_round) >> row_shift;
        }
    }
}

// Scales 1-3: cube = (((m^2 + 2^sq) >> sq) * m + round) >> cub in uint64
// with m = |b| <= 2^31. m^2 + 2^sq < 2^63; the product with m can pass
// 2^64 for sq < 31 (the scalar's uint64 arithmetic wraps there), so it is
// formed modulo 2^64 from two 32x32 products: a * m = a_lo * m +
// (a_hi * m) << 32.
void den_accumulate_s123_avx512(const std::int32_t* const band_hvd[3], std::ptrdiff_t stride,
                                Rect region, int sq, int cub, int row_shift, std::uint64_t acc[3]) {
    const Z sq_round = _mm512_set1_epi64(static_cast<std::int64_t>(std::uint64_t{1} << sq));
    const Z cub_round = _mm512_set1_epi64(round_term(cub));
    const __m128i sq_count = _mm_cvtsi32_si128(sq), cub_count = _mm_cvtsi32_si128(cub);
    const std::uint64_t row_round = static_cast<std::uint64_t>(round_term(row_shift));
    const int n = region.width();
    auto cube = [&](Z m) {
        const Z a = _mm512_srl_epi64(_mm512_add_epi64(_mm512_mul_epu32(m, m), sq_round), sq_count);
        const Z am =
            _mm512_add_epi64(_mm512_mul_epu32(a, m),
                             _mm512_slli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(a, 32), m), 32));
        return _mm512_srl_epi64(_mm512_add_epi64(am, cub_round), cub_count);
    };
    for (int t = 0; t < 3; ++t) {
        for (int y = region.y0; y < region.y1; ++y) {
            const std::int32_t* b = band_hvd[t] + y * stride + region.x0;
            Z sum = _mm512_setzero_si512();
            for (int i = 0; i < n; i += 16) {
                // Masked-off lanes are 0, whose cube is (2^sq >> sq) * 0 = 0
                // plus a round term below 2^cub: 0.
                const Z m = _mm512_abs_epi32(ld_i32x16(tail16(n - i), b + i));  // uint32
                sum = _mm512_add_epi64(sum,
                                       cube(m));  // vpmuludq reads the low dwords only
                sum = _mm512_add_epi64(sum, cube(_mm512_srli_epi64(m, 32)));
            }
            const std::uint64_t row = static_cast<std::uint64_t>(hsum_i64(sum));
            acc[t] += (row + row_round) >> row_shift;
        }
    }
}

}  // namespace

// Every ADM kernel has a twin at this level (AdmKernels order).
void adm_init_avx512(AdmKernels& k) {
    k = AdmKernels{
        dwt_s0_u8_avx512,
        dwt_s0_u16_avx512,
        dwt_s123_avx512,
        dwt_s1_avx512,
        decouple_s0_avx512,
        decouple_s123_avx512,
        csf_s0_avx512,
        csf_s123_avx512,
        cm_accumulate_s0_avx512,
        cm_accumulate_s123_avx512,
        den_accumulate_s0_avx512,
        den_accumulate_s123_avx512,
    };
}

}  // namespace vmafpp::adm
