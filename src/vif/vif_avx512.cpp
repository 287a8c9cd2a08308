// AVX-512 twins of the VIF row kernels (this file alone is compiled with the
// AVX-512 F/BW/DQ/CD/VL flags). The same contract as vif_avx2.cpp: the
// scalar kernel's results bit for bit on any input the scalar defines.
// Kernels without an AVX-512 twin are the AVX2 ones.
//
// Tails are masked: the last step of a row loads only the lanes that lie in
// the row (a masked-off lane is never read, so no guard page is touched),
// computes every lane as the body does, and stores or adds only the real
// ones. No FMA intrinsic is used and -ffp-contract=off applies, so every
// double operation rounds where the scalar's does.
//
// No standard-library template is used here (see vif_avx2.cpp).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "dispatch/x86_lanes.hpp"
#include "vif/vif_gain.hpp"
#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

namespace {

constexpr std::uint32_t round_for(int shift) { return shift == 0 ? 0u : (1u << (shift - 1)); }

// The first n of 16 (32) lanes, n <= 16 (32).
inline __mmask16 first_lanes16(int n) { return static_cast<__mmask16>((1u << n) - 1u); }
inline __mmask32 first_lanes32(int n) {
    return static_cast<__mmask32>(n >= 32 ? ~0u : (1u << n) - 1u);
}

// ---------------------------------------------------------------------------
// Information terms.
//
// log2_q11(v) keeps v's 16 leading bits `top` (in [2^15, 2^16)) as the table
// index top - 2^15 and adds 2048 per dropped bit. For nsq + sigma1_sq, a
// uint32 with lz leading zeros, top is (v << lz) >> 16 and 16 - lz bits are
// dropped. numer1 and numer1_tmp are computed as exact integer doubles:
// their index is the 15 mantissa bits below the leading one and their
// dropped bits the unbiased exponent minus 15.
//
// Every sum the kernel returns is a sum of such logs, so the table entries
// and the dropped bits are summed apart, both per lane: the entries come
// from masked 16-lane gathers (on this kernel's mix they cost less than
// storing the indices and summing them with scalar loads), and a lane that
// takes no log gathers nothing and adds no dropped bits. A step's gathers
// are issued after the next step's arithmetic, when their indices (behind
// two divisions) are long ready: issued at once the kernel took 30% longer.
//
// What bounds the step (checkasm --bench, 1920 pixels, Sapphire Rapids):
// 1.95 us a row; with vdivpd replaced by vmulpd (for timing only) 1.79 us,
// with the gathers replaced by an add 1.66 us. Neither the divider nor the
// gathers dominate: the step is bound by its port-0/5 work as a whole. A
// Newton-Raphson quotient (rcp14, one Newton step, two FMA corrections,
// an exact FMA remainder test proving the rounding, vdivpd for lanes that
// fail it, which never happened) took 3.1 us: its FMAs compete for those
// ports. Also measured slower (same bench, alternating, about 1.92-1.94 us
// before): the gain branch per half of 8 pixels, each half computed only
// where one of its pixels needs it (1.96-1.99 us; VIF 0.376 -> 0.382 s CPU,
// 30 frames 1080p); the gain doubles from the loaded lanes instead of a
// second load with vcvtdq2pd, by the 2^52 trick (vpermt2d and a
// subtraction: 1.97-1.99 us) or vcvtdq2pd of the register halves
// (1.97 us): the shuffles land on port 5, which the step already fills.

// A step's table indices and the lanes that take their logs.
struct StepIndices {
    __m512i den = _mm512_setzero_si512();  // nsq + sigma1_sq
    __m512i n1 = _mm512_setzero_si512();   // numer1
    __m512i tmp = _mm512_setzero_si512();  // numer1_tmp
    __mmask16 in_log = 0;                  // den's lanes
    __mmask16 need = 0;                    // n1's and tmp's lanes
};

// Table indices of 16 uint32 (of bit length >= 16 in the lanes of m);
// lz receives the leading zeros in the lanes of m (0 elsewhere).
inline __m512i log_index_u32(__m512i v, __mmask16 m, __m512i& lz) {
    lz = _mm512_maskz_lzcnt_epi32(m, v);
    const __m512i top = _mm512_srli_epi32(_mm512_sllv_epi32(v, lz), 16);
    return _mm512_sub_epi32(top, _mm512_set1_epi32(32768));
}

// The table entries at 16 indices in the lanes of m (0 elsewhere, where
// nothing is read). A gather reads 32 bits at each entry's address: the
// table's spare entry keeps the last one's in bounds (vif_log2_table).
inline __m512i table_entries(const std::uint16_t* table, __m512i index, __mmask16 m) {
    const __m512i pairs = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, index, table, 2);
    return _mm512_and_si512(pairs, _mm512_set1_epi32(0xFFFF));
}

// Per-lane sums in 32-bit lanes. A lane adds per step at most 2^15 (the
// largest entry) to entries_den, less than 2^15 in magnitude to
// entries_num, at most 14 to lz_den (its argument is >= 2^17), at most
// 51 - 17 to dropped_num (numer1_tmp < 2^52, numer1 >= 2^17 and
// numer1_tmp >= numer1, so never below 0), 1 to non_log_count and below
// 2^16 to each half of sigma2_sq: flushed every kFlushSteps steps they
// stay far below 2^31.
struct AccumulateLanes {
    __m512i entries_den = _mm512_setzero_si512();
    __m512i entries_num = _mm512_setzero_si512();  // numer1_tmp's minus numer1's
    __m512i lz_den = _mm512_setzero_si512();
    __m512i dropped_num = _mm512_setzero_si512();    // numer1_tmp's minus numer1's
    __m512i non_log_low = _mm512_setzero_si512();    // sigma2_sq & 0xFFFF
    __m512i non_log_high = _mm512_setzero_si512();   // sigma2_sq >> 16
    __m512i non_log_count = _mm512_setzero_si512();  // pixels with sigma1_sq < nsq
};
constexpr int kFlushSteps = 4096;

inline std::int64_t sum_i32(__m512i v) {
    return _mm512_reduce_add_epi64(
        _mm512_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(v)),
                         _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1))));
}

struct AccumulateTotals {
    std::int64_t entries_den = 0, entries_num = 0;  // entries: den; tmp minus n1
    std::int64_t lz_den = 0, dropped_num = 0;
    std::int64_t non_log = 0, non_log_pixels = 0;

    void flush(AccumulateLanes& acc) {
        entries_den += sum_i32(acc.entries_den);
        entries_num += sum_i32(acc.entries_num);
        lz_den += sum_i32(acc.lz_den);
        dropped_num += sum_i32(acc.dropped_num);
        non_log += sum_i32(acc.non_log_low) + 65536 * sum_i32(acc.non_log_high);
        non_log_pixels += sum_i32(acc.non_log_count);
        acc = AccumulateLanes{};
    }
};

// The low (h = 0) or high (h = 1) 8 lanes of 16 at p, of those in `valid`.
inline __m512d load_pd(const std::int32_t* p, int h, __mmask16 valid) {
    return _mm512_cvtepi32_pd(
        _mm256_maskz_loadu_epi32(static_cast<__mmask8>(valid >> (8 * h)), p + 8 * h));
}

// vif_gain.hpp's lanes: 8 doubles.
struct GainLanes {
    VMAFPP_X86_DOUBLE_LANES(__m512d, _mm512, d)
    static D min(D a, D b) { return _mm512_min_pd(a, b); }
    static D max(D a, D b) { return _mm512_max_pd(a, b); }
    static D trunc(D a) { return _mm512_roundscale_pd(a, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
};

// The gain branch's two numbers (gain_numbers) of the low (h = 0) or high
// (h = 1) 8 of 16 pixels; gain_terms masks off the lanes that need none.
using GainHalf = GainNumbers<GainLanes>;
inline GainHalf gain_half(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                          const std::int32_t* sigma12, int h, __mmask16 valid,
                          __m512d gain_limit) {
    // sigma2_sq > 0 in a needed lane: it is the scalar's max(sigma2_sq, 0).
    return gain_numbers<GainLanes>(load_pd(sigma1_sq, h, valid), load_pd(sigma2_sq, h, valid),
                                   load_pd(sigma12, h, valid), gain_limit);
}

// The high dwords of the 64-bit lanes of lo and hi, in lane order: the
// bits 32..63 of 16 doubles.
inline __m512i high_dwords(__m512d lo, __m512d hi) {
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    return _mm512_permutex2var_epi32(_mm512_castpd_si512(lo), odd, _mm512_castpd_si512(hi));
}
// Of 16 exact integer doubles in [2^15, 2^53) given by their high dwords
// (positive: the biased exponent in bits 20..30 above 20 mantissa bits),
// the table index: the 15 mantissa bits below the leading one.
inline __m512i log_index_high(__m512i high) {
    return _mm512_and_si512(_mm512_srli_epi32(high, 5), _mm512_set1_epi32(0x7FFF));
}

// The gain terms of 16 pixels (lanes of `need`: the log branch with
// sigma12 > 0 and sigma2_sq > 0): the table indices of numer1 and
// numer1_tmp, and the difference of their dropped bits (exponent - 15
// each, so the difference of the biased exponents) summed. A lane not in
// `need` adds nothing.
inline void gain_terms(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                       const std::int32_t* sigma12, __mmask16 valid, __mmask16 need,
                       __m512d gain_limit, AccumulateLanes& acc, StepIndices& idx) {
    const GainHalf lo = gain_half(sigma1_sq, sigma2_sq, sigma12, 0, valid, gain_limit);
    const GainHalf hi = gain_half(sigma1_sq, sigma2_sq, sigma12, 1, valid, gain_limit);
    const __m512i n1 = high_dwords(lo.numer1, hi.numer1);
    const __m512i tmp = high_dwords(lo.numer1_tmp, hi.numer1_tmp);
    idx.n1 = log_index_high(n1);
    idx.tmp = log_index_high(tmp);
    acc.dropped_num = _mm512_mask_add_epi32(
        acc.dropped_num, need, acc.dropped_num,
        _mm512_sub_epi32(_mm512_srli_epi32(tmp, 20), _mm512_srli_epi32(n1, 20)));
}

inline void accumulate_step(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                            const std::int32_t* sigma12, __mmask16 valid, __m512d gain_limit,
                            AccumulateLanes& acc, StepIndices& idx) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i nsq = _mm512_set1_epi32(kSigmaNsq);
    const __m512i s1 = _mm512_maskz_loadu_epi32(valid, sigma1_sq);
    const __m512i s2 = _mm512_maskz_loadu_epi32(valid, sigma2_sq);
    const __m512i s12 = _mm512_maskz_loadu_epi32(valid, sigma12);
    const __mmask16 low = _mm512_mask_cmplt_epi32_mask(valid, s1, nsq);
    const __mmask16 in_log = _kandn_mask16(low, valid);

    // sigma1_sq < nsq: max(sigma2_sq, 0) and a count. The two halves of a
    // value below 2^31 cannot carry out of a 32-bit lane. Done for every
    // step, without a branch: where a few lanes take this path they fall in
    // steps at random, and a test mispredicted about as often as it was
    // taken.
    {
        const __m512i s2_pos = _mm512_maskz_max_epi32(low, s2, zero);
        acc.non_log_low =
            _mm512_add_epi32(acc.non_log_low, _mm512_and_si512(s2_pos, _mm512_set1_epi32(0xFFFF)));
        acc.non_log_high = _mm512_add_epi32(acc.non_log_high, _mm512_srli_epi32(s2_pos, 16));
        acc.non_log_count =
            _mm512_mask_sub_epi32(acc.non_log_count, low, acc.non_log_count, _mm512_set1_epi32(-1));
    }

    // Otherwise log2(nsq + sigma1_sq); nsq + s1 < 2^32.
    __m512i lz;
    idx.den = log_index_u32(_mm512_add_epi32(nsq, s1), in_log, lz);
    idx.in_log = in_log;
    acc.lz_den = _mm512_add_epi32(acc.lz_den, lz);

    const __mmask16 need =
        _mm512_mask_cmpgt_epi32_mask(_mm512_mask_cmpgt_epi32_mask(in_log, s12, zero), s2, zero);
    idx.need = need;
    if (need != 0) gain_terms(sigma1_sq, sigma2_sq, sigma12, valid, need, gain_limit, acc, idx);
}

// The table entries of a step's logs, added per lane.
inline void add_entries(const std::uint16_t* table, const StepIndices& idx, AccumulateLanes& acc) {
    acc.entries_den = _mm512_add_epi32(acc.entries_den, table_entries(table, idx.den, idx.in_log));
    if (idx.need == 0) return;
    acc.entries_num = _mm512_add_epi32(
        acc.entries_num, _mm512_sub_epi32(table_entries(table, idx.tmp, idx.need),
                                          table_entries(table, idx.n1, idx.need)));
}

void accumulate_avx512(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                       const std::int32_t* sigma12, int w, const std::uint16_t* log2_q11_table,
                       double gain_limit, VifSums* sums) {
    // Beyond |g| <= 1024 the gain product may not be exact in a double: the
    // scalar's int64 arithmetic is the reference there (and never reached
    // from the extractor, whose limit is at most 100).
    if (!(gain_limit >= -1024.0 && gain_limit <= 1024.0)) {
        vif_accumulate(sigma1_sq, sigma2_sq, sigma12, w, log2_q11_table, gain_limit, sums);
        return;
    }
    const __m512d gl = _mm512_set1_pd(gain_limit);
    AccumulateLanes acc;
    AccumulateTotals tot;
    // The last step's indices (none before the first step).
    StepIndices last;
    std::ptrdiff_t j = 0;
    int steps = 0;
    for (; j + 16 <= w; j += 16) {
        StepIndices idx;
        accumulate_step(sigma1_sq + j, sigma2_sq + j, sigma12 + j, 0xFFFF, gl, acc, idx);
        add_entries(log2_q11_table, last, acc);
        last = idx;
        if (++steps == kFlushSteps) {
            tot.flush(acc);
            steps = 0;
        }
    }
    if (j < w) {
        StepIndices idx;
        accumulate_step(sigma1_sq + j, sigma2_sq + j, sigma12 + j,
                        first_lanes16(static_cast<int>(w - j)), gl, acc, idx);
        add_entries(log2_q11_table, last, acc);
        last = idx;
    }
    add_entries(log2_q11_table, last, acc);
    tot.flush(acc);
    // Each valid pixel is a log pixel or a non-log one.
    const std::int64_t log_pixels = std::int64_t{w} - tot.non_log_pixels;
    // A log2 is entry + 2048 * (dropped bits).
    sums->num_log += tot.entries_num + 2048 * tot.dropped_num;
    // log2(nsq + sigma1_sq) - 17 * 2048 = entry - 2048 * (lz + 1).
    sums->den_log += tot.entries_den - 2048 * (tot.lz_den + log_pixels);
    sums->num_non_log += tot.non_log;
    sums->den_non_log += tot.non_log_pixels;
}

// ---------------------------------------------------------------------------
// Reduction filter, vertical pass: 32 columns per step.
//
// c * v of two uint16 is exact in 32 bits: its low and high halves come from
// 16-bit multiplies and are interleaved into 32-bit lanes ("unpack order":
// lo holds columns 0-3, 8-11, 16-19, 24-27 of the step, hi the others);
// the uint32 sums wrap exactly as the scalar's.

// 32 samples widened to 16 bits, of the first lanes of m only.
inline __m512i load_u16x32(const std::uint8_t* p, __mmask32 m) {
    return _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, p));
}
inline __m512i load_u16x32(const std::uint16_t* p, __mmask32 m) {
    return _mm512_maskz_loadu_epi16(m, p);
}

inline void add_products_u16(__m512i c, __m512i v, __m512i& lo, __m512i& hi) {
    const __m512i p_lo = _mm512_mullo_epi16(c, v);
    const __m512i p_hi = _mm512_mulhi_epu16(c, v);
    lo = _mm512_add_epi32(lo, _mm512_unpacklo_epi16(p_lo, p_hi));
    hi = _mm512_add_epi32(hi, _mm512_unpackhi_epi16(p_lo, p_hi));
}
// Columns 0-15 and 16-31 of a step from its unpack-order halves.
inline __m512i natural_first(__m512i lo, __m512i hi) {
    return _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), hi);
}
inline __m512i natural_second(__m512i lo, __m512i hi) {
    return _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), hi);
}

// (sum + round) >> shift of 32 columns' uint32 sums in unpack order, with
// the scalar's uint16 cast, stored in the columns of m.
inline void store_reduced(__m512i r_lo, __m512i r_hi, __m512i d_lo, __m512i d_hi, std::ptrdiff_t j,
                          __mmask32 m, __m128i shift, __m512i round, std::uint32_t* ref_out,
                          std::uint32_t* dis_out) {
    const __m512i low16 = _mm512_set1_epi32(0xFFFF);
    auto out = [&](__m512i v) {
        return _mm512_and_si512(_mm512_srl_epi32(_mm512_add_epi32(v, round), shift), low16);
    };
    const auto m0 = static_cast<__mmask16>(m);
    const auto m1 = static_cast<__mmask16>(m >> 16);
    _mm512_mask_storeu_epi32(ref_out + j, m0, out(natural_first(r_lo, r_hi)));
    _mm512_mask_storeu_epi32(ref_out + j + 16, m1, out(natural_second(r_lo, r_hi)));
    _mm512_mask_storeu_epi32(dis_out + j, m0, out(natural_first(d_lo, d_hi)));
    _mm512_mask_storeu_epi32(dis_out + j + 16, m1, out(natural_second(d_lo, d_hi)));
}

template <class T>
inline void subsample_vertical_step(const T* const* ref_rows, const T* const* dis_rows,
                                    std::ptrdiff_t j, __mmask32 m, const std::uint16_t* filter,
                                    int taps, __m128i shift, __m512i round, std::uint32_t* ref_out,
                                    std::uint32_t* dis_out) {
    __m512i r_lo = _mm512_setzero_si512(), r_hi = r_lo, d_lo = r_lo, d_hi = r_lo;
    for (int t = 0; t < taps; ++t) {
        const __m512i c = _mm512_set1_epi16(static_cast<short>(filter[t]));
        add_products_u16(c, load_u16x32(ref_rows[t] + j, m), r_lo, r_hi);
        add_products_u16(c, load_u16x32(dis_rows[t] + j, m), d_lo, d_hi);
    }
    store_reduced(r_lo, r_hi, d_lo, d_hi, j, m, shift, round, ref_out, dis_out);
}

template <class T>
void subsample_vertical_avx512(const T* const* ref_rows, const T* const* dis_rows,
                               const std::uint16_t* filter, int taps, int w, int shift,
                               std::uint32_t* ref_out, std::uint32_t* dis_out) {
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m512i rnd = _mm512_set1_epi32(static_cast<int>(round_for(shift)));
    std::ptrdiff_t j = 0;
    for (; j + 32 <= w; j += 32)
        subsample_vertical_step(ref_rows, dis_rows, j, ~__mmask32{0}, filter, taps, sh, rnd,
                                ref_out, dis_out);
    if (j < w)
        subsample_vertical_step(ref_rows, dis_rows, j, first_lanes32(static_cast<int>(w - j)),
                                filter, taps, sh, rnd, ref_out, dis_out);
}

// Taps below 2^15 (every libvmaf filter but the last): a signed
// multiply-add takes two taps at once. 8-bit samples are exact int16;
// 16-bit samples enter as v - 2^15 (v ^ 0x8000 read as int16), and
// 2^15 * (sum of the taps) is added back at the end. A pair's sum is below
// 2^31 in magnitude either way (2 * 2^15 * 2^15), and the int32 additions
// wrap modulo 2^32 exactly as the scalar's uint32 sums.
inline __m512i tap_pair(const std::uint16_t* filter, int taps, int t) {
    const std::uint32_t b = t + 1 < taps ? filter[t + 1] : 0u;
    return _mm512_set1_epi32(static_cast<int>(filter[t] | (b << 16)));
}
inline __m512i signed_samples(const std::uint8_t* p, __mmask32 m) { return load_u16x32(p, m); }
inline __m512i signed_samples(const std::uint16_t* p, __mmask32 m) {
    return _mm512_xor_si512(load_u16x32(p, m), _mm512_set1_epi16(static_cast<short>(0x8000)));
}
// Rows t and t + 1 (zeros past the last tap), 32 columns, interleaved for
// the multiply-add: sums in unpack order, as add_products_u16.
template <class T>
inline void add_pair_products(const T* const* rows, std::ptrdiff_t j, __mmask32 m, int taps, int t,
                              __m512i c, __m512i& lo, __m512i& hi) {
    const __m512i a = signed_samples(rows[t] + j, m);
    const __m512i b = t + 1 < taps ? signed_samples(rows[t + 1] + j, m) : _mm512_setzero_si512();
    lo = _mm512_add_epi32(lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(a, b), c));
    hi = _mm512_add_epi32(hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(a, b), c));
}

// bias: 2^15 * (sum of the taps) mod 2^32 for 16-bit samples, 0 for 8-bit.
template <class T>
inline void subsample_vertical_pairs_step(const T* const* ref_rows, const T* const* dis_rows,
                                          std::ptrdiff_t j, __mmask32 m,
                                          const std::uint16_t* filter, int taps, __m512i bias,
                                          __m128i shift, __m512i round, std::uint32_t* ref_out,
                                          std::uint32_t* dis_out) {
    __m512i r_lo = bias, r_hi = bias, d_lo = bias, d_hi = bias;
    for (int t = 0; t < taps; t += 2) {
        const __m512i c = tap_pair(filter, taps, t);
        add_pair_products(ref_rows, j, m, taps, t, c, r_lo, r_hi);
        add_pair_products(dis_rows, j, m, taps, t, c, d_lo, d_hi);
    }
    store_reduced(r_lo, r_hi, d_lo, d_hi, j, m, shift, round, ref_out, dis_out);
}

template <class T>
void subsample_vertical_pairs(const T* const* ref_rows, const T* const* dis_rows,
                              const std::uint16_t* filter, int taps, int w, int shift,
                              std::uint32_t* ref_out, std::uint32_t* dis_out) {
    const VifFilterShape shape = vif_filter_shape(filter, taps);
    const std::uint32_t tap_sum = shape.sum;
    const bool small_taps = shape.taps_below_2_15;
    if (!small_taps) {
        subsample_vertical_avx512(ref_rows, dis_rows, filter, taps, w, shift, ref_out, dis_out);
        return;
    }
    const __m512i bias = _mm512_set1_epi32(
        sizeof(T) == 1 ? 0 : static_cast<int>(static_cast<std::uint32_t>(tap_sum << 15)));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    const __m512i rnd = _mm512_set1_epi32(static_cast<int>(round_for(shift)));
    std::ptrdiff_t j = 0;
    for (; j + 32 <= w; j += 32)
        subsample_vertical_pairs_step(ref_rows, dis_rows, j, ~__mmask32{0}, filter, taps, bias, sh,
                                      rnd, ref_out, dis_out);
    if (j < w)
        subsample_vertical_pairs_step(ref_rows, dis_rows, j, first_lanes32(static_cast<int>(w - j)),
                                      filter, taps, bias, sh, rnd, ref_out, dis_out);
}

}  // namespace

// Every VIF kernel has a twin at this level (VifKernels order); the
// statistics ones and the reduction's horizontal pass are
// vif_stats_avx512.cpp's.
void vif_init_avx512(VifKernels& k) {
    k = VifKernels{
        vif_stat_vertical_u8_avx512,
        vif_stat_vertical_u16_avx512,
        vif_stat_horizontal_avx512,
        vif_stat_row_u8_avx512,
        vif_stat_row_u16_avx512,
        accumulate_avx512,
        subsample_vertical_pairs<std::uint8_t>,
        subsample_vertical_pairs<std::uint16_t>,
        vif_subsample_horizontal_avx512,
    };
}

// The AVX-512 statistics kernels and the reduction's horizontal pass built
// with VNNI; the rest stays AVX-512's.
void vif_init_avx512icl(VifKernels& k) {
    k.stat_vertical_u8 = vif_stat_vertical_u8_avx512icl;
    k.stat_vertical_u16 = vif_stat_vertical_u16_avx512icl;
    k.stat_horizontal = vif_stat_horizontal_avx512icl;
    k.stat_row_u8 = vif_stat_row_u8_avx512icl;
    k.stat_row_u16 = vif_stat_row_u16_avx512icl;
    k.subsample_horizontal = vif_subsample_horizontal_avx512icl;
}

}  // namespace vmafpp::vif
