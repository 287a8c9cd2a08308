// AVX-512 twins of the VIF statistics kernels (vertical and horizontal
// passes), compiled with the AVX-512 flags like vif_avx512.cpp, which puts
// them in the table. The contract is vif_avx2.cpp's: the scalar kernel's results bit for
// bit on any input the scalar defines.
//
// Tails use masked loads and stores: a masked-off element is neither read
// (no fault, even past the end of a row) nor written.
//
// No standard-library template is used here (see vif_avx2.cpp).
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

namespace {

constexpr int kMaxTaps = 2 * kMaxHalf + 1;

constexpr std::uint32_t round_for(int shift) { return shift == 0 ? 0u : (1u << (shift - 1)); }

// The first n bits set (n <= 64).
inline __mmask64 first_bits64(int n) { return n >= 64 ? ~__mmask64{0} : (__mmask64{1} << n) - 1; }
inline __mmask16 first_bits16(int n) {
    return static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << (n < 0 ? 0 : n)) - 1u);
}
inline __mmask8 first_bits8(int n) {
    return static_cast<__mmask8>(n >= 8 ? 0xFFu : (1u << (n < 0 ? 0 : n)) - 1u);
}

// ---------------------------------------------------------------------------
// Vertical statistics, 8-bit samples.
//
// With a = p - 128 and b = q - 128 (|a|, |b| <= 128), every factor fits a
// signed 16-bit lane: a, a * a <= 16384, a * b in [-16256, 16384]. vpmaddwd
// then filters two rows at once: rows t and t+1 interleaved as 16-bit pairs,
// times the pair (c_t, c_t+1). That needs c < 32768 (a signed 16-bit
// coefficient); one product is then at most 32767 * 16384 < 2^29 and a pair
// sum below 2^30, so vpmaddwd is exact. The wanted sums follow in uint32
// arithmetic, which is arithmetic modulo 2^32 like the scalar's accumulators
// (C is the sum of the taps):
//   sum c p     = sum c a + 128 C
//   sum c p p   = sum c a a + 256 sum c a + 16384 C
//   sum c p q   = sum c a b + 128 (sum c a + sum c b) + 16384 C
// An odd tap count pairs the last row with itself and a zero coefficient.

struct RowsU8 {
    const std::uint8_t* const* ref;
    const std::uint8_t* const* dis;
};

// 32 samples of a row minus 128, as int16; lanes past `valid` read nothing.
inline __m512i centred32(const std::uint8_t* p, __mmask32 valid) {
    const __m512i v = _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(valid, p));
    return _mm512_sub_epi16(v, _mm512_set1_epi16(128));
}

// One 32-column step. Accumulator "lo" holds columns 0-3, 8-11, 16-19, 24-27
// (per 128-bit lane, the unpacklo half), "hi" the other 16.
inline void stat_vertical_u8_step(RowsU8 rows, std::ptrdiff_t j, const std::uint32_t* pairs,
                                  int taps, std::uint32_t taps_sum, __mmask32 valid,
                                  const VifStatRow& out) {
    __m512i m1_lo = _mm512_setzero_si512(), m1_hi = m1_lo, m2_lo = m1_lo, m2_hi = m1_lo;
    __m512i xx_lo = m1_lo, xx_hi = m1_lo, yy_lo = m1_lo, yy_hi = m1_lo, xy_lo = m1_lo,
            xy_hi = m1_lo;
    for (int t = 0; t < taps; t += 2) {
        const int u = t + 1 < taps ? t + 1 : t;
        const __m512i c = _mm512_set1_epi32(static_cast<int>(pairs[t / 2]));
        const __m512i r0 = centred32(rows.ref[t] + j, valid);
        const __m512i r1 = centred32(rows.ref[u] + j, valid);
        const __m512i d0 = centred32(rows.dis[t] + j, valid);
        const __m512i d1 = centred32(rows.dis[u] + j, valid);
        const __m512i a_lo = _mm512_unpacklo_epi16(r0, r1), a_hi = _mm512_unpackhi_epi16(r0, r1);
        const __m512i b_lo = _mm512_unpacklo_epi16(d0, d1), b_hi = _mm512_unpackhi_epi16(d0, d1);
        m1_lo = _mm512_add_epi32(m1_lo, _mm512_madd_epi16(a_lo, c));
        m1_hi = _mm512_add_epi32(m1_hi, _mm512_madd_epi16(a_hi, c));
        m2_lo = _mm512_add_epi32(m2_lo, _mm512_madd_epi16(b_lo, c));
        m2_hi = _mm512_add_epi32(m2_hi, _mm512_madd_epi16(b_hi, c));
        xx_lo = _mm512_add_epi32(xx_lo, _mm512_madd_epi16(_mm512_mullo_epi16(a_lo, a_lo), c));
        xx_hi = _mm512_add_epi32(xx_hi, _mm512_madd_epi16(_mm512_mullo_epi16(a_hi, a_hi), c));
        yy_lo = _mm512_add_epi32(yy_lo, _mm512_madd_epi16(_mm512_mullo_epi16(b_lo, b_lo), c));
        yy_hi = _mm512_add_epi32(yy_hi, _mm512_madd_epi16(_mm512_mullo_epi16(b_hi, b_hi), c));
        xy_lo = _mm512_add_epi32(xy_lo, _mm512_madd_epi16(_mm512_mullo_epi16(a_lo, b_lo), c));
        xy_hi = _mm512_add_epi32(xy_hi, _mm512_madd_epi16(_mm512_mullo_epi16(a_hi, b_hi), c));
    }
    const __m512i c128 = _mm512_set1_epi32(static_cast<int>(128u * taps_sum));
    const __m512i c16384 = _mm512_set1_epi32(static_cast<int>(16384u * taps_sum));
    const __m512i r128 = _mm512_set1_epi32(128);
    // Columns 0-15 and 16-31 in order from the lo/hi halves.
    const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i second =
        _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    const __mmask16 k0 = static_cast<__mmask16>(valid);
    const __mmask16 k1 = static_cast<__mmask16>(valid >> 16);
    auto store = [&](std::uint32_t* dst, __m512i lo, __m512i hi) {
        _mm512_mask_storeu_epi32(dst + j, k0, _mm512_permutex2var_epi32(lo, first, hi));
        _mm512_mask_storeu_epi32(dst + j + 16, k1, _mm512_permutex2var_epi32(lo, second, hi));
    };
    auto mean = [&](__m512i s) {
        return _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(s, c128), r128), 8);
    };
    auto square = [&](__m512i s2, __m512i s1) {
        return _mm512_add_epi32(_mm512_add_epi32(s2, _mm512_slli_epi32(s1, 8)), c16384);
    };
    auto cross = [&](__m512i x, __m512i s1, __m512i t1) {
        return _mm512_add_epi32(_mm512_add_epi32(x, _mm512_slli_epi32(_mm512_add_epi32(s1, t1), 7)),
                                c16384);
    };
    store(out.mu1, mean(m1_lo), mean(m1_hi));
    store(out.mu2, mean(m2_lo), mean(m2_hi));
    store(out.xx, square(xx_lo, m1_lo), square(xx_hi, m1_hi));
    store(out.yy, square(yy_lo, m2_lo), square(yy_hi, m2_hi));
    store(out.xy, cross(xy_lo, m1_lo, m2_lo), cross(xy_hi, m1_hi, m2_hi));
}

void stat_vertical_u8_avx512(const std::uint8_t* const* ref_rows,
                             const std::uint8_t* const* dis_rows, const std::uint16_t* filter,
                             int taps, int w, const VifStatRow& out) {
    std::uint32_t pairs[(kMaxTaps + 1) / 2] = {};
    std::uint32_t taps_sum = 0;
    bool signed_ok = true;
    for (int t = 0; t < taps; ++t) {
        taps_sum += filter[t];
        signed_ok = signed_ok && filter[t] < 32768;
        pairs[t / 2] |= static_cast<std::uint32_t>(filter[t]) << (16 * (t & 1));
    }
    if (!signed_ok) {
        // A coefficient vpmaddwd would read as negative: the general
        // (widening) kernel.
        vif_kernels_avx2().stat_vertical_u8(ref_rows, dis_rows, filter, taps, w, out);
        return;
    }
    std::ptrdiff_t j = 0;
    for (; j + 32 <= w; j += 32)
        stat_vertical_u8_step({ref_rows, dis_rows}, j, pairs, taps, taps_sum, ~__mmask32{0}, out);
    if (j < w)
        stat_vertical_u8_step({ref_rows, dis_rows}, j, pairs, taps, taps_sum,
                              static_cast<__mmask32>(first_bits64(static_cast<int>(w - j))), out);
}

// ---------------------------------------------------------------------------
// Vertical statistics, 16-bit samples: 8 columns per 64-bit lane vector.
// c * v < 2^32 fits the low half of a lane, so vpmuludq gives (c * v) * q
// (< 2^48) exactly; the sums of at most 17 such terms stay below 2^53, and
// the mean's 64-bit sum keeps the scalar's uint32 sum in its low half.

struct RowsU16 {
    const std::uint16_t* const* ref;
    const std::uint16_t* const* dis;
};

inline void stat_vertical_u16_step(RowsU16 rows, std::ptrdiff_t j, const std::uint16_t* filter,
                                   int taps, __m128i shift_mu, __m256i round_mu,
                                   __m128i shift_sq, __m512i round_sq, __mmask8 valid,
                                   const VifStatRow& out) {
    __m512i m1 = _mm512_setzero_si512(), m2 = m1, xx = m1, yy = m1, xy = m1;
    for (int t = 0; t < taps; ++t) {
        const __m512i c = _mm512_set1_epi64(filter[t]);
        const __m512i r = _mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(valid, rows.ref[t] + j));
        const __m512i d = _mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(valid, rows.dis[t] + j));
        const __m512i cr = _mm512_mul_epu32(c, r);
        const __m512i cd = _mm512_mul_epu32(c, d);
        m1 = _mm512_add_epi64(m1, cr);
        m2 = _mm512_add_epi64(m2, cd);
        xx = _mm512_add_epi64(xx, _mm512_mul_epu32(cr, r));
        yy = _mm512_add_epi64(yy, _mm512_mul_epu32(cd, d));
        xy = _mm512_add_epi64(xy, _mm512_mul_epu32(cr, d));
    }
    // Means: the uint32 sum, rounded and shifted in uint32, cast to uint16.
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    auto mean = [&](__m512i s) {
        const __m256i s32 = _mm512_cvtepi64_epi32(s);
        return _mm256_and_si256(_mm256_srl_epi32(_mm256_add_epi32(s32, round_mu), shift_mu), low16);
    };
    auto moment = [&](__m512i s) {
        return _mm512_cvtepi64_epi32(_mm512_srl_epi64(_mm512_add_epi64(s, round_sq), shift_sq));
    };
    _mm256_mask_storeu_epi32(out.mu1 + j, valid, mean(m1));
    _mm256_mask_storeu_epi32(out.mu2 + j, valid, mean(m2));
    _mm256_mask_storeu_epi32(out.xx + j, valid, moment(xx));
    _mm256_mask_storeu_epi32(out.yy + j, valid, moment(yy));
    _mm256_mask_storeu_epi32(out.xy + j, valid, moment(xy));
}

void stat_vertical_u16_avx512(const std::uint16_t* const* ref_rows,
                              const std::uint16_t* const* dis_rows, const std::uint16_t* filter,
                              int taps, int w, int shift_mu, int shift_sq, const VifStatRow& out) {
    const __m128i sh_mu = _mm_cvtsi32_si128(shift_mu);
    const __m128i sh_sq = _mm_cvtsi32_si128(shift_sq);
    const __m256i rnd_mu = _mm256_set1_epi32(static_cast<int>(round_for(shift_mu)));
    const __m512i rnd_sq = _mm512_set1_epi64(round_for(shift_sq));
    std::ptrdiff_t j = 0;
    for (; j + 8 <= w; j += 8)
        stat_vertical_u16_step({ref_rows, dis_rows}, j, filter, taps, sh_mu, rnd_mu, sh_sq, rnd_sq,
                               0xFF, out);
    if (j < w)
        stat_vertical_u16_step({ref_rows, dis_rows}, j, filter, taps, sh_mu, rnd_mu, sh_sq, rnd_sq,
                               first_bits8(static_cast<int>(w - j)), out);
}

// ---------------------------------------------------------------------------
// Horizontal statistics in binary64.
//
// Every term c * x (c < 2^16, x < 2^32) is an integer below 2^48 and any sum
// of at most 17 of them is below 2^53, so double arithmetic on them is exact:
// the FMA's product and sum are both exact, so it equals the scalar's
// separate integer operations. For a symmetric filter the two inputs a tap
// pair multiplies are added first (a + b < 2^33, exact), which halves the
// multiplies. The exact sums, converted to uint64, give the means modulo 2^32
// (the scalar's uint32 sums) and the moments' 64-bit sums.
//
// The rows are converted to double in chunks of kChunk columns (plus the
// filter's reach) into stack buffers, then filtered from there.

constexpr int kChunk = 256;
// The conversion writes whole vectors up to kChunk + 2 * kMaxHalf rounded up.
constexpr int kBufLen = kChunk + 2 * kMaxHalf + 8;

// Filters one converted row: sums[i] for i < n (n a multiple of 32, at most
// kChunk), from buf[i .. i + taps).
template <bool kSymmetric>
inline void filter_row_pd(const double* buf, const double* c, int taps, int n, double* sums) {
    const int pairs = taps / 2;
    const bool centre = (taps & 1) != 0;
    for (int i = 0; i < n; i += 32) {
        __m512d acc[4];
        for (int a = 0; a < 4; ++a) {
            const double* p = buf + i + 8 * a;
            __m512d s = _mm512_setzero_pd();
            if constexpr (kSymmetric) {
                if (centre) s = _mm512_mul_pd(_mm512_set1_pd(c[pairs]), _mm512_loadu_pd(p + pairs));
                for (int t = 0; t < pairs; ++t) {
                    const __m512d both =
                        _mm512_add_pd(_mm512_loadu_pd(p + t), _mm512_loadu_pd(p + taps - 1 - t));
                    s = _mm512_fmadd_pd(_mm512_set1_pd(c[t]), both, s);
                }
            } else {
                for (int t = 0; t < taps; ++t)
                    s = _mm512_fmadd_pd(_mm512_set1_pd(c[t]), _mm512_loadu_pd(p + t), s);
            }
            acc[a] = s;
        }
        for (int a = 0; a < 4; ++a) _mm512_storeu_pd(sums + i + 8 * a, acc[a]);
    }
}

void stat_horizontal_avx512(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                            std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                            std::int32_t* sigma12) {
    const int half = taps / 2;
    double c[kMaxTaps];
    bool symmetric = true;
    for (int t = 0; t < taps; ++t) {
        c[t] = filter[t];
        symmetric = symmetric && filter[t] == filter[taps - 1 - t];
    }
    const std::uint32_t* src[5] = {in.mu1, in.mu2, in.xx, in.yy, in.xy};
    alignas(64) double buf[kBufLen];
    alignas(64) double sums[5][kChunk];
    for (std::ptrdiff_t j0 = 0; j0 < w; j0 += kChunk) {
        const int n = static_cast<int>(w - j0 < kChunk ? w - j0 : kChunk);
        const int n32 = (n + 31) & ~31;
        // Inputs j0 - half .. j0 + n + half; the rest of what the last,
        // partial vectors read is zero.
        const int len = n + 2 * half;
        for (int k = 0; k < 5; ++k) {
            const std::uint32_t* s = src[k] + j0 - half;
            for (int i = 0; i < n32 + 2 * half; i += 8) {
                const __mmask8 m = first_bits8(len - i);
                _mm512_store_pd(buf + i, _mm512_cvtepu32_pd(_mm256_maskz_loadu_epi32(m, s + i)));
            }
            if (symmetric)
                filter_row_pd<true>(buf, c, taps, n32, sums[k]);
            else
                filter_row_pd<false>(buf, c, taps, n32, sums[k]);
        }
        // (a * b + 2^31) >> 32 of the uint32 means, (sum + 2^15) >> 16 of
        // the moments (kept to 32 bits), then the uint32 difference read as
        // int32, as the scalar computes them.
        const __m512i half32 = _mm512_set1_epi64(0x80000000LL);
        const __m512i half16 = _mm512_set1_epi64(32768);
        for (int i = 0; i < n; i += 8) {
            const __mmask8 m = first_bits8(n - i);
            const __m512i m1 = _mm512_cvttpd_epu64(_mm512_load_pd(sums[0] + i));
            const __m512i m2 = _mm512_cvttpd_epu64(_mm512_load_pd(sums[1] + i));
            auto product_q16 = [&](__m512i a, __m512i b) {
                return _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epu32(a, b), half32), 32);
            };
            auto moment_q16 = [&](const double* s) {
                const __m512i v = _mm512_cvttpd_epu64(_mm512_load_pd(s + i));
                return _mm512_srli_epi64(_mm512_add_epi64(v, half16), 16);
            };
            auto sigma = [&](std::int32_t* dst, __m512i moment, __m512i product) {
                _mm256_mask_storeu_epi32(dst + j0 + i, m,
                                         _mm512_cvtepi64_epi32(_mm512_sub_epi64(moment, product)));
            };
            sigma(sigma1_sq, moment_q16(sums[2]), product_q16(m1, m1));
            sigma(sigma2_sq, moment_q16(sums[3]), product_q16(m2, m2));
            sigma(sigma12, moment_q16(sums[4]), product_q16(m1, m2));
        }
    }
}

}  // namespace

void vif_stat_vertical_u8_avx512(const std::uint8_t* const* ref_rows,
                                 const std::uint8_t* const* dis_rows,
                                 const std::uint16_t* filter, int taps, int w,
                                 const VifStatRow& out) {
    stat_vertical_u8_avx512(ref_rows, dis_rows, filter, taps, w, out);
}
void vif_stat_vertical_u16_avx512(const std::uint16_t* const* ref_rows,
                                  const std::uint16_t* const* dis_rows,
                                  const std::uint16_t* filter, int taps, int w, int shift_mu,
                                  int shift_sq, const VifStatRow& out) {
    stat_vertical_u16_avx512(ref_rows, dis_rows, filter, taps, w, shift_mu, shift_sq, out);
}
void vif_stat_horizontal_avx512(const VifStatRow& in, const std::uint16_t* filter, int taps,
                                int w, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                                std::int32_t* sigma12) {
    stat_horizontal_avx512(in, filter, taps, w, sigma1_sq, sigma2_sq, sigma12);
}

}  // namespace vmafpp::vif
