// Scalar reference kernels of integer ADM. Integer widths, shifts and rounding
// follow libvmaf 3.2.0's scalar C code (integer_adm.c); where that code relies
// on undefined or implementation-defined C behaviour, the comment next to the
// expression says which value is taken (always the one gcc on x86-64 gives
// where the input can come from a picture).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "adm/adm_dwt_rows.hpp"
#include "adm/adm_gain_limit.hpp"
#include "adm/adm_kernels.hpp"

namespace vmafpp::adm {

namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

// Round term of a right shift by `shift`: libvmaf writes (uint32_t)pow(2,
// shift - 1) with unsigned shift - 1, which for shift == 0 converts +inf and
// gives 0 on x86-64; 0 is also the only sensible rounding of a 0-bit shift.
constexpr std::int64_t round_term(int shift) {
    return shift > 0 ? std::int64_t{1} << (shift - 1) : 0;
}

// int64 addition modulo 2^64. libvmaf sums the cubes of a row and the rows
// in int64 without a guard; from pictures the sums stay far below 2^63 (its
// shifts are chosen for that), but arbitrary band values can pass it, where
// gcc's code wraps. Wrapping explicitly keeps that result without undefined
// behaviour.
inline std::int64_t add_wrapping(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// A row sum folded into the scale total: (row + round) >> shift, both
// additions modulo 2^64 as above, the shift arithmetic.
inline std::int64_t fold_row(std::int64_t acc, std::int64_t row, std::int64_t round, int shift) {
    return add_wrapping(acc, add_wrapping(row, round) >> shift);
}

std::uint32_t magnitude(std::int32_t v) {
    // |INT32_MIN| = 2^31 in uint32 (libvmaf's abs() is undefined there).
    return v < 0 ? 0u - static_cast<std::uint32_t>(v) : static_cast<std::uint32_t>(v);
}

// ---------------------------------------------------------------------------
// DWT

// Vertical pass of scale 0. Every product fits int32 (|c| <= 27411,
// sample <= 65535 -> < 1.8e9); their sum minus the centring term and plus the
// rounding term is exact in [-1.8e9, 1.8e9], but the partial sums of 16-bit
// samples can pass 2^31 (50582 * 65535 > 2^31), so they are formed modulo
// 2^32 (as libvmaf's int32 arithmetic wraps on x86) and read back as int32.
// The result fits int16: |sum| / 2^bpc < 27500.
template <class T>
void dwt_s0_vertical(const T* const rows[4], int w, int bpc, std::int16_t* lo, std::int16_t* hi) {
    const std::uint32_t half = std::uint32_t{1} << (bpc - 1);
    const std::uint32_t centre = static_cast<std::uint32_t>(kDwtLoSum) * half;
    for (int j = 0; j < w; ++j) {
        const std::int32_t s0 = rows[0][j], s1 = rows[1][j], s2 = rows[2][j], s3 = rows[3][j];
        std::uint32_t l = static_cast<std::uint32_t>(kDwtLo[0] * s0) +
                          static_cast<std::uint32_t>(kDwtLo[1] * s1) +
                          static_cast<std::uint32_t>(kDwtLo[2] * s2) +
                          static_cast<std::uint32_t>(kDwtLo[3] * s3);
        std::uint32_t h = static_cast<std::uint32_t>(kDwtHi[0] * s0) +
                          static_cast<std::uint32_t>(kDwtHi[1] * s1) +
                          static_cast<std::uint32_t>(kDwtHi[2] * s2) +
                          static_cast<std::uint32_t>(kDwtHi[3] * s3);
        l = l - centre + half;
        h = h + half;
        lo[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(l) >> bpc);
        hi[j] = static_cast<std::int16_t>(static_cast<std::int32_t>(h) >> bpc);
    }
}

// The horizontal pass reads values 2j-1 .. 2j+2 of a padded row; splitting
// the row into its odd (from -1) and even samples makes those four reads
// contiguous in j, so the loop vectorises: value 2j-1 is odd[j], 2j is
// even[j], 2j+1 is odd[j+1], 2j+2 is even[j+1].
template <class T>
void split_even_odd(const T* padded, int out_w, T* even, T* odd) {
    for (int q = 0; q <= out_w; ++q) {
        odd[q] = padded[2 * q];       // value 2q - 1
        even[q] = padded[2 * q + 1];  // value 2q
    }
}

// Horizontal pass of scale 0: |sum| <= 54822 * 32768 < 2^31, round 2^15,
// shift 16; every result fits int16 (|.| <= 27412), the approximation too.
inline std::int32_t dwt_s0_h(const std::int16_t* even, const std::int16_t* odd, int j,
                             const std::int32_t* c) {
    const std::int32_t sum = c[0] * odd[j] + c[1] * even[j] + c[2] * odd[j + 1] + c[3] * even[j + 1];
    return (sum + 32768) >> 16;
}

// One output row of scale 0. The pointers never overlap (__restrict lets the
// compiler vectorise without run-time alias checks).
void dwt_s0_horizontal(const std::int16_t* __restrict lo_even,
                       const std::int16_t* __restrict lo_odd,
                       const std::int16_t* __restrict hi_even,
                       const std::int16_t* __restrict hi_odd, int out_w,
                       std::int16_t* __restrict a, std::int16_t* __restrict bh,
                       std::int16_t* __restrict bv, std::int16_t* __restrict bd) {
    // libvmaf names the band filtered low vertically and high horizontally
    // "v", and high vertically / low horizontally "h".
    for (int j = 0; j < out_w; ++j) {
        a[j] = static_cast<std::int16_t>(dwt_s0_h(lo_even, lo_odd, j, kDwtLo));
        if (!bh) continue;  // an approximation-only row
        bv[j] = static_cast<std::int16_t>(dwt_s0_h(lo_even, lo_odd, j, kDwtHi));
        bh[j] = static_cast<std::int16_t>(dwt_s0_h(hi_even, hi_odd, j, kDwtLo));
        bd[j] = static_cast<std::int16_t>(dwt_s0_h(hi_even, hi_odd, j, kDwtHi));
    }
}

template <class T>
void dwt_s0(const T* src, std::ptrdiff_t src_stride, int w, int h, int bpc, int y0, int y1,
            std::int16_t* scratch, std::int16_t* band_a, std::int16_t* const band_hvd[3],
            std::ptrdiff_t band_stride) {
    const int out_w = (w + 1) / 2;
    std::int16_t* lo = scratch;  // w + 3 values, value k at lo[1 + k]
    std::int16_t* hi = lo + (w + 3);
    std::int16_t* lo_even = hi + (w + 3);  // out_w + 1 values each
    std::int16_t* lo_odd = lo_even + (out_w + 1);
    std::int16_t* hi_even = lo_odd + (out_w + 1);
    std::int16_t* hi_odd = hi_even + (out_w + 1);
    dwt_rows(
        src, src_stride, h, y0, y1, band_a, band_hvd, band_stride,
        [&](const T* const rows[4], int /*i*/, bool /*high*/) {
            dwt_s0_vertical(rows, w, bpc, lo + 1, hi + 1);
            pad_row(lo, w);
            pad_row(hi, w);
            split_even_odd(lo, out_w, lo_even, lo_odd);
            split_even_odd(hi, out_w, hi_even, hi_odd);
        },
        [&](std::int16_t* a, std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
            dwt_s0_horizontal(lo_even, lo_odd, hi_even, hi_odd, out_w, a, bh, bv, bd);
        });
}

// Scales 1..3 in int64 (libvmaf's accum is int64), each result narrowed to
// int32 modulo 2^32 (C++20 defines that; gcc does the same for libvmaf's cast).
// Vertical: (round, shift) = (0, 0) at scale 1 and (2^15, 16) at 2 and 3;
// horizontal: (2^14, 15), (2^15, 16), (2^14, 15).
constexpr int kVShift[3] = {0, 16, 16};
constexpr int kHShift[3] = {15, 16, 15};

inline std::int32_t filt4_i64(const std::int32_t* q, const std::int32_t* c, std::int64_t round,
                              int shift) {
    const std::int64_t sum = std::int64_t{c[0]} * q[0] + std::int64_t{c[1]} * q[1] +
                             std::int64_t{c[2]} * q[2] + std::int64_t{c[3]} * q[3];
    return static_cast<std::int32_t>((sum + round) >> shift);
}

// ---------------------------------------------------------------------------
// Decouple

// libvmaf's angle test in its own float/double mix: each int64 is converted
// to float, then divided by 4096.0 in double; the products are double.
// (u.v >= 0) and (u.v)^2 >= cos^2(1 deg) |u|^2 |v|^2.
inline bool angle_within_1deg(std::int64_t dot, std::int64_t o_mag_sq, std::int64_t t_mag_sq,
                              float cos_sq) {
    const double d = static_cast<double>(static_cast<float>(dot)) / 4096.0;
    const double o = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
    const double t = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
    // Both sides evaluated (no branch): the product is left to right, as in C.
    return (d >= 0.0) & (d * d >= static_cast<double>(cos_sq) * o * t);
}

// Sum of two int64 products formed modulo 2^64: for scales 1-3 the int32
// operands can make the true sum reach 2^63 (libvmaf's int64 arithmetic
// wraps there on x86; pictures never get near it).
inline std::int64_t dot2_wrapping(std::int64_t a, std::int64_t b, std::int64_t c,
                                  std::int64_t d) {
    const std::uint64_t p = static_cast<std::uint64_t>(a * b);  // |a*b| <= 2^62
    const std::uint64_t q = static_cast<std::uint64_t>(c * d);
    return static_cast<std::int64_t>(p + q);
}

// Apply the gain limit to a restored sample whose angle test passed. k > 0
// and the sign of o decide the direction (libvmaf tests the sign of the float
// (k / 32768) * (o / 64), which is never 0 when both are non-zero).
inline std::int64_t limit_gain(std::int64_t rst, std::int64_t k, std::int64_t o, std::int64_t t,
                               double gain) {
    if (k == 0 || o == 0) return rst;
    const std::int64_t p = gain_product_double(static_cast<std::int32_t>(rst), gain);
    return o > 0 ? std::min(p, t) : std::max(p, t);
}

// k = clamp(t / o, 0, 1) in Q15 through the division table; o is int16.
inline std::int32_t ratio_q15_s0(std::int32_t o, std::int32_t t, const std::int32_t* div) {
    if (o == 0) return 32768;
    // |div| <= 2^30, |t| <= 2^15: the product fits int64, the result int32.
    const std::int64_t q = (std::int64_t{div[32768 + o]} * t + 16384) >> 15;
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(q, 0, 32768));
}

// Same for int32 o: |o| >= 2^15 is first reduced to its top 15 bits, rounded
// (libvmaf's get_best15_from32), and the shift is added to the final one.
inline std::int64_t ratio_q15_s123(std::int32_t o, std::int32_t t, const std::int32_t* div) {
    if (o == 0) return 32768;
    const std::uint32_t mag = magnitude(o);
    std::uint32_t top = mag;
    int shift = 0;
    if (mag >= 32768) {
        shift = 17 - std::countl_zero(mag);  // 1..17
        top = (mag + (std::uint32_t{1} << (shift - 1))) >> shift;  // <= 32768
    }
    std::int64_t num = std::int64_t{div[32768 + top]} * t;  // |.| <= 2^61
    if (o < 0) num = -num;
    // libvmaf writes the round term as the int 1 << (14 + shift), undefined
    // for shift 17 (o == INT32_MIN only); 2^31 is taken there.
    const std::int64_t q = (num + (std::int64_t{1} << (14 + shift))) >> (15 + shift);
    return std::clamp<std::int64_t>(q, 0, 32768);
}

// ---------------------------------------------------------------------------
// Masking helpers

constexpr std::int32_t kOneBy15Q17 = 8738;        // 2^17 / 15
constexpr std::int64_t kOneBy15Q32 = 286331153;   // 2^32 / 15
constexpr std::int32_t kOneBy30Q17 = 4369;        // 2^17 / 30
constexpr std::int64_t kOneBy30Q32 = 143165577;   // 2^32 / 30
// libvmaf's round term of its >> 32 steps: 1u << 31 stored in an int32_t.
constexpr std::int64_t kRoundQ32 = -(std::int64_t{1} << 31);

inline std::int32_t centre_tap_s0(std::int16_t c) {
    // |c| <= 32768: 8738 * 32768 + 2048 < 2^31, result <= 69905 (no int16).
    return (kOneBy15Q17 * std::abs(std::int32_t{c}) + 2048) >> 12;
}

inline std::int32_t centre_tap_s123(std::int32_t c) {
    return static_cast<std::int32_t>((kOneBy15Q32 * magnitude(c) + kRoundQ32) >> 32);
}

// Sum of the eight neighbours' flt values around column x of rows (ya, y, yb)
// where xl / xr are the (reflected) neighbour columns.
template <class T, class Acc>
inline Acc ring_sum(const T* ra, const T* rc, const T* rb, int xl, int x, int xr) {
    return Acc{ra[xl]} + ra[x] + ra[xr] + rc[xl] + rc[xr] + rb[xl] + rb[x] + rb[xr];
}

template <class T, class Acc, class CentreFn>
void threshold_row(const T* const csf_hvd[3], const T* const flt_hvd[3], std::ptrdiff_t stride,
                   int w, int h, int y, int x0, int x1, Acc* thr, CentreFn centre) {
    const int ya = reflect_index(y - 1, h);
    const int yb = reflect_index(y + 1, h);
    for (int i = 0; i < x1 - x0; ++i) thr[i] = 0;
    for (int t = 0; t < 3; ++t) {
        const T* ra = flt_hvd[t] + ya * stride;
        const T* rc = flt_hvd[t] + y * stride;
        const T* rb = flt_hvd[t] + yb * stride;
        const T* cc = csf_hvd[t] + y * stride;
        // Interior columns first (no reflection, so the loop vectorises),
        // then the edge columns 0 and w - 1 when the region includes them.
        const int lo = std::max(x0, 1);
        const int hi = std::min(x1, w - 1);
        for (int x = lo; x < hi; ++x)
            thr[x - x0] += ring_sum<T, Acc>(ra, rc, rb, x - 1, x, x + 1) + centre(cc[x]);
        if (x0 == 0)
            thr[0] += ring_sum<T, Acc>(ra, rc, rb, 1, 0, 1) + centre(cc[0]);
        if (x1 == w)  // w >= 2, so column w - 1 is not column 0
            thr[w - 1 - x0] += ring_sum<T, Acc>(ra, rc, rb, w - 2, w - 1, w - 1) + centre(cc[w - 1]);
    }
}

// cube(e) for one excess e in [0, 2^31): e^2 narrowed to int32 modulo 2^32
// as libvmaf does (negative for e^2 >= 2^(31 + sq) roughly), then the product
// with e (|.| < 2^62) rounded and shifted arithmetically.
inline std::int64_t cube_of_excess(std::int64_t e, const CubeShifts& s, std::int64_t sq_round,
                                   std::int64_t cub_round) {
    const std::int32_t e2 = static_cast<std::int32_t>((e * e + sq_round) >> s.sq);
    return (std::int64_t{e2} * e + cub_round) >> s.cub;
}

}  // namespace

const std::int32_t* div_lookup() {
    static const std::array<std::int32_t, 65537> table = [] {
        std::array<std::int32_t, 65537> t{};
        for (int i = 1; i <= 32768; ++i) {
            const std::int32_t r = (std::int32_t{1} << 30) / i;
            t[static_cast<std::size_t>(32768 + i)] = r;
            t[static_cast<std::size_t>(32768 - i)] = -r;
        }
        return t;
    }();
    return table.data();
}

float cos_1deg_sq() {
    static const float v = static_cast<float>(std::cos(1.0 * M_PI / 180.0) *
                                              std::cos(1.0 * M_PI / 180.0));
    return v;
}

bool integral_gain(double gain, double limit) {
    return gain >= -limit && gain <= limit && gain == std::trunc(gain);
}

// ---------------------------------------------------------------------------

void dwt_s0_u8(const std::uint8_t* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
               std::int16_t* scratch, std::int16_t* band_a, std::int16_t* const band_hvd[3],
               std::ptrdiff_t band_stride) {
    dwt_s0(src, src_stride, w, h, 8, y0, y1, scratch, band_a, band_hvd, band_stride);
}

void dwt_s0_u16(const std::uint16_t* src, std::ptrdiff_t src_stride, int w, int h, int bpc, int y0,
                int y1, std::int16_t* scratch, std::int16_t* band_a,
                std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_s0(src, src_stride, w, h, bpc, y0, y1, scratch, band_a, band_hvd, band_stride);
}

namespace {

// Scales 1-3 of int32 samples, or scale 1 of scale 0's int16 ones.
template <class T>
void dwt_scale(const T* src, std::ptrdiff_t src_stride, int w, int h, int scale, int y0, int y1,
               std::int32_t* scratch, std::int32_t* band_a, std::int32_t* const band_hvd[3],
               std::ptrdiff_t band_stride) {
    const int vs = kVShift[scale - 1];
    const int hs = kHShift[scale - 1];
    const std::int64_t vr = round_term(vs);
    const std::int64_t hr = round_term(hs);
    const int out_w = (w + 1) / 2;
    std::int32_t* lo = scratch;  // as in dwt_s0
    std::int32_t* hi = lo + (w + 3);
    std::int32_t* lo_even = hi + (w + 3);
    std::int32_t* lo_odd = lo_even + (out_w + 1);
    std::int32_t* hi_even = lo_odd + (out_w + 1);
    std::int32_t* hi_odd = hi_even + (out_w + 1);
    auto vertical = [&](const T* const rows[4], int /*i*/, bool /*high*/) {
        for (int j = 0; j < w; ++j) {
            const std::int32_t q[4] = {rows[0][j], rows[1][j], rows[2][j], rows[3][j]};
            lo[1 + j] = filt4_i64(q, kDwtLo, vr, vs);
            hi[1 + j] = filt4_i64(q, kDwtHi, vr, vs);
        }
        pad_row(lo, w);
        pad_row(hi, w);
        split_even_odd(lo, out_w, lo_even, lo_odd);
        split_even_odd(hi, out_w, hi_even, hi_odd);
    };
    auto horizontal = [&](std::int32_t* a, std::int32_t* bh, std::int32_t* bv, std::int32_t* bd) {
        for (int j = 0; j < out_w; ++j) {
            const std::int32_t ql[4] = {lo_odd[j], lo_even[j], lo_odd[j + 1], lo_even[j + 1]};
            a[j] = filt4_i64(ql, kDwtLo, hr, hs);
        }
        if (!bh) return;  // an approximation-only row
        for (int j = 0; j < out_w; ++j) {
            const std::int32_t ql[4] = {lo_odd[j], lo_even[j], lo_odd[j + 1], lo_even[j + 1]};
            const std::int32_t qh[4] = {hi_odd[j], hi_even[j], hi_odd[j + 1], hi_even[j + 1]};
            bv[j] = filt4_i64(ql, kDwtHi, hr, hs);
            bh[j] = filt4_i64(qh, kDwtLo, hr, hs);
            bd[j] = filt4_i64(qh, kDwtHi, hr, hs);
        }
    };
    dwt_rows(src, src_stride, h, y0, y1, band_a, band_hvd, band_stride, vertical, horizontal);
}

}  // namespace

void dwt_s123(const std::int32_t* src, std::ptrdiff_t src_stride, int w, int h, int scale, int y0,
              int y1, std::int32_t* scratch, std::int32_t* band_a,
              std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_scale(src, src_stride, w, h, scale, y0, y1, scratch, band_a, band_hvd, band_stride);
}

void dwt_s1(const std::int16_t* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
            std::int32_t* scratch, std::int32_t* band_a, std::int32_t* const band_hvd[3],
            std::ptrdiff_t band_stride) {
    dwt_scale(src, src_stride, w, h, 1, y0, y1, scratch, band_a, band_hvd, band_stride);
}

namespace {

// The angle test's operands: the dot product of (ref h, ref v) and
// (dis h, dis v) and their squared magnitudes.
struct AngleSums {
    std::int64_t dot, o_mag_sq, t_mag_sq;
};

// Scale 0: int16 operands, every sum far inside int64.
inline AngleSums angle_sums_s0(std::int64_t oh, std::int64_t ov, std::int64_t th,
                               std::int64_t tv) {
    return AngleSums{oh * th + ov * tv, oh * oh + ov * ov, th * th + tv * tv};
}

// Scales 1-3: int32 operands, the products summed modulo 2^64.
inline AngleSums angle_sums_s123(std::int64_t oh, std::int64_t ov, std::int64_t th,
                                 std::int64_t tv) {
    return AngleSums{dot2_wrapping(oh, th, ov, tv), dot2_wrapping(oh, oh, ov, ov),
                     dot2_wrapping(th, th, tv, tv)};
}

// The decoupling of both scales: for each sample of the region, libvmaf's
// angle test on sums(oh, ov, th, tv) of its ref and dis h and v values;
// then for each orientation, ref o and dis d, k = ratio(o, d, div) and the
// restored value (k * o + 2^14) >> 15 in K (scale 0, K = int32: k <= 2^15
// and |o| <= 2^15, exact in int32, and the result fits int16; scales 1-3,
// K = int64: |k * o| <= 2^46 and the result lies in [-2^31, 2^31 - 1]),
// gain-limited where the angle test passes. r gets it and a gets d - r,
// each narrowed to the band's type (as libvmaf stores them: modulo 2^16 for
// int16, 2^32 for int32).
template <class K, class T, class Sums, class Ratio>
void decouple_region(const T* const ref_hvd[3], const T* const dis_hvd[3], std::ptrdiff_t stride,
                     Rect region, double gain_limit, T* const r_hvd[3], T* const a_hvd[3],
                     Sums sums, Ratio ratio) {
    const std::int32_t* div = div_lookup();
    const float cos_sq = cos_1deg_sq();
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        for (int x = region.x0; x < region.x1; ++x) {
            const std::ptrdiff_t i = row + x;
            const AngleSums a =
                sums(ref_hvd[0][i], ref_hvd[1][i], dis_hvd[0][i], dis_hvd[1][i]);
            const bool angle = angle_within_1deg(a.dot, a.o_mag_sq, a.t_mag_sq, cos_sq);
            for (int t = 0; t < 3; ++t) {
                const std::int32_t o = ref_hvd[t][i];
                const std::int32_t d = dis_hvd[t][i];
                const K k = ratio(o, d, div);
                std::int64_t rst = (k * o + 16384) >> 15;
                if (angle) rst = limit_gain(rst, k, o, d, gain_limit);
                r_hvd[t][i] = static_cast<T>(rst);
                a_hvd[t][i] = static_cast<T>(d - rst);
            }
        }
    }
}

}  // namespace

void decouple_s0(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                 std::ptrdiff_t stride, Rect region, double gain_limit,
                 std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    decouple_region<std::int32_t>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd,
                                  [](auto... v) { return angle_sums_s0(v...); },
                                  [](auto... v) { return ratio_q15_s0(v...); });
}

void decouple_s123(const std::int32_t* const ref_hvd[3], const std::int32_t* const dis_hvd[3],
                   std::ptrdiff_t stride, Rect region, double gain_limit,
                   std::int32_t* const r_hvd[3], std::int32_t* const a_hvd[3]) {
    decouple_region<std::int64_t>(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd,
                                  [](auto... v) { return angle_sums_s123(v...); },
                                  [](auto... v) { return ratio_q15_s123(v...); });
}

namespace {

// csf_of(s) = (csf, flt) of one sample, for each sample of the region.
template <class T, class CsfOf>
void csf_region(const T* src, std::ptrdiff_t stride, Rect region, T* csf, T* flt, CsfOf csf_of) {
    for (int y = region.y0; y < region.y1; ++y) {
        const T* s = src + y * stride;
        T* c = csf + y * stride;
        T* g = flt + y * stride;
        for (int x = region.x0; x < region.x1; ++x) csf_of(s[x], c[x], g[x]);
    }
}

}  // namespace

void csf_s0(const std::int16_t* src, std::ptrdiff_t stride, Rect region, std::uint16_t rfactor,
            int shift, std::int32_t round, std::int16_t* csf, std::int16_t* flt) {
    const std::int32_t f = rfactor;
    csf_region(src, stride, region, csf, flt, [&](std::int16_t s, std::int16_t& c, std::int16_t& g) {
        // |f * s| <= 65535 * 32768 - 65535 and round <= 65535: no overflow.
        const std::int16_t v = static_cast<std::int16_t>((f * s + round) >> shift);
        c = v;
        g = static_cast<std::int16_t>((kOneBy30Q17 * std::abs(std::int32_t{v}) + 2048) >> 12);
    });
}

void csf_s123(const std::int32_t* src, std::ptrdiff_t stride, Rect region, std::uint32_t rfactor,
              std::int32_t* csf, std::int32_t* flt) {
    const std::int64_t f = rfactor;
    csf_region(src, stride, region, csf, flt, [&](std::int32_t s, std::int32_t& c, std::int32_t& g) {
        // |s * f| < 2^31 * 2^32: fits int64 with the round term.
        const std::int32_t v = static_cast<std::int32_t>((s * f + (std::int64_t{1} << 27)) >> 28);
        c = v;
        g = static_cast<std::int32_t>((kOneBy30Q32 * magnitude(v) + kRoundQ32) >> 32);
    });
}

void cm_threshold_row_s0(const std::int16_t* const csf_hvd[3], const std::int16_t* const flt_hvd[3],
                         std::ptrdiff_t stride, int w, int h, int y, int x0, int x1,
                         std::int32_t* thr) {
    threshold_row<std::int16_t, std::int32_t>(csf_hvd, flt_hvd, stride, w, h, y, x0, x1, thr,
                                              [](std::int16_t c) { return centre_tap_s0(c); });
}

void cm_threshold_row_s123(const std::int32_t* const csf_hvd[3],
                           const std::int32_t* const flt_hvd[3], std::ptrdiff_t stride, int w,
                           int h, int y, int x0, int x1, std::int64_t* thr) {
    threshold_row<std::int32_t, std::int64_t>(csf_hvd, flt_hvd, stride, w, h, y, x0, x1, thr,
                                              [](std::int32_t c) { return centre_tap_s123(c); });
}

std::int64_t cm_row_sum_s0(const std::int16_t* src, const std::int32_t* thr, int n,
                           std::uint16_t rfactor, CubeShifts shifts) {
    const std::int64_t sq_round = round_term(shifts.sq);
    const std::int64_t cub_round = round_term(shifts.cub);
    // T * 2^sub as a multiplication (T may be negative); |T| < 2^20, so the
    // product is below 2^32 and the difference is exact in int64.
    const std::int64_t scale_t = std::int64_t{1} << shifts.sub;
    const std::int32_t f = rfactor;
    std::int64_t sum = 0;
    for (int i = 0; i < n; ++i) {
        // |src * f| <= 32768 * 65535 < 2^31: exact in int32.
        const std::int64_t m = std::abs(std::int32_t{src[i]} * f);
        const std::int64_t e = std::clamp<std::int64_t>(m - thr[i] * scale_t, 0, kInt32Max);
        sum = add_wrapping(sum, cube_of_excess(e, shifts, sq_round, cub_round));
    }
    return sum;
}

std::int64_t cm_row_sum_s123(const std::int32_t* src, const std::int64_t* thr, int n,
                             std::uint32_t rfactor, CubeShifts shifts) {
    const std::int64_t sq_round = round_term(shifts.sq);
    const std::int64_t cub_round = round_term(shifts.cub);
    const std::int64_t f = rfactor;
    std::int64_t sum = 0;
    for (int i = 0; i < n; ++i) {
        const std::int32_t x = static_cast<std::int32_t>((src[i] * f + (std::int64_t{1} << 27)) >> 28);
        // |T| < 2^33 (27 taps below 2^28): exact in int64.
        const std::int64_t e = std::clamp<std::int64_t>(std::int64_t{magnitude(x)} - thr[i], 0, kInt32Max);
        sum = add_wrapping(sum, cube_of_excess(e, shifts, sq_round, cub_round));
    }
    return sum;
}

namespace {

// The masking stage of one scale over `region`, either sample type: for
// each row y, csf_window(rows, c0, c1, win_stride, csf_win, flt_win) writes
// csf and flt of the masker rows (y - 1, y, y + 1) (reflected), columns
// [c0, c1) (the threshold's columns and their neighbours), as rows 0, 1, 2
// of a 3-row window: the window is then a band of height 3 whose row 1 has
// the same neighbours as row y of the whole band. threshold(csf_win,
// flt_win, win_stride) fills thr_scratch from row 1, and row_sum(t, x_row)
// gives orientation t's sum over the region's columns of x_row.
template <class T, class CsfWindow, class Threshold, class RowSum>
void accumulate_masking(const T* const x_hvd[3], std::ptrdiff_t stride, int w, int h,
                        Rect region, int row_shift, std::int64_t acc[3], CsfWindow csf_window,
                        Threshold threshold, RowSum row_sum) {
    const std::int64_t row_round = round_term(row_shift);
    const int c0 = std::max(region.x0 - 1, 0), c1 = std::min(region.x1 + 1, w);
    const std::ptrdiff_t win_stride = w;
    std::vector<T> window(static_cast<std::size_t>(18 * w));
    T* csf_win[3];
    T* flt_win[3];
    for (int t = 0; t < 3; ++t) {
        csf_win[t] = window.data() + (2 * t) * 3 * win_stride;
        flt_win[t] = window.data() + (2 * t + 1) * 3 * win_stride;
    }
    for (int y = region.y0; y < region.y1; ++y) {
        const int rows[3] = {reflect_index(y - 1, h), y, reflect_index(y + 1, h)};
        for (int t = 0; t < 3; ++t)
            for (int k = 0; k < 3; ++k)
                csf_window(t, rows[k] * stride, Rect{c0, 0, c1, 1}, csf_win[t] + k * win_stride,
                           flt_win[t] + k * win_stride);
        threshold(csf_win, flt_win, win_stride);
        for (int t = 0; t < 3; ++t) {
            const std::int64_t row = row_sum(t, x_hvd[t] + y * stride + region.x0);
            acc[t] = fold_row(acc[t], row, row_round, row_shift);
        }
    }
}

}  // namespace

void cm_accumulate_s0(const std::int16_t* const x_hvd[3], const std::int16_t* const masker_hvd[3],
                      std::ptrdiff_t stride, int w, int h, Rect region,
                      const std::uint16_t rfactor[3], const CubeShifts shifts[3], int row_shift,
                      std::int32_t* thr_scratch, std::int64_t acc[3]) {
    accumulate_masking(
        x_hvd, stride, w, h, region, row_shift, acc,
        [&](int t, std::ptrdiff_t at, Rect cols, std::int16_t* csf, std::int16_t* flt) {
            csf_s0(masker_hvd[t] + at, 0, cols, rfactor[t], kCsfShiftS0[t], kCsfRoundS0[t], csf,
                   flt);
        },
        [&](const std::int16_t* const* csf_win, const std::int16_t* const* flt_win,
            std::ptrdiff_t win_stride) {
            cm_threshold_row_s0(csf_win, flt_win, win_stride, w, 3, 1, region.x0, region.x1,
                                thr_scratch);
        },
        [&](int t, const std::int16_t* x) {
            return cm_row_sum_s0(x, thr_scratch, region.width(), rfactor[t], shifts[t]);
        });
}

void cm_accumulate_s123(const std::int32_t* const x_hvd[3], const std::int32_t* const masker_hvd[3],
                        std::ptrdiff_t stride, int w, int h, Rect region,
                        const std::uint32_t rfactor[3], CubeShifts shifts, int row_shift,
                        std::int64_t* thr_scratch, std::int64_t acc[3]) {
    accumulate_masking(
        x_hvd, stride, w, h, region, row_shift, acc,
        [&](int t, std::ptrdiff_t at, Rect cols, std::int32_t* csf, std::int32_t* flt) {
            csf_s123(masker_hvd[t] + at, 0, cols, rfactor[t], csf, flt);
        },
        [&](const std::int32_t* const* csf_win, const std::int32_t* const* flt_win,
            std::ptrdiff_t win_stride) {
            cm_threshold_row_s123(csf_win, flt_win, win_stride, w, 3, 1, region.x0, region.x1,
                                  thr_scratch);
        },
        [&](int t, const std::int32_t* x) {
            return cm_row_sum_s123(x, thr_scratch, region.width(), rfactor[t], shifts);
        });
}

void den_accumulate_s0(const std::int16_t* const band_hvd[3], std::ptrdiff_t stride,
                       Rect region, int row_shift, std::uint64_t acc[3]) {
    const std::uint64_t row_round = static_cast<std::uint64_t>(round_term(row_shift));
    for (int t = 0; t < 3; ++t) {
        for (int y = region.y0; y < region.y1; ++y) {
            const std::int16_t* b = band_hvd[t] + y * stride;
            std::uint64_t row = 0;
            for (int x = region.x0; x < region.x1; ++x) {
                const std::uint64_t m = static_cast<std::uint64_t>(std::abs(std::int32_t{b[x]}));
                row += m * m * m;
            }
            acc[t] += (row + row_round) >> row_shift;
        }
    }
}

void den_accumulate_s123(const std::int32_t* const band_hvd[3], std::ptrdiff_t stride,
                         Rect region, int sq, int cub, int row_shift, std::uint64_t acc[3]) {
    const std::uint64_t sq_round = std::uint64_t{1} << sq;
    const std::uint64_t cub_round = static_cast<std::uint64_t>(round_term(cub));
    const std::uint64_t row_round = static_cast<std::uint64_t>(round_term(row_shift));
    for (int t = 0; t < 3; ++t) {
        for (int y = region.y0; y < region.y1; ++y) {
            const std::int32_t* b = band_hvd[t] + y * stride;
            std::uint64_t row = 0;
            for (int x = region.x0; x < region.x1; ++x) {
                const std::uint64_t m = magnitude(b[x]);  // <= 2^31
                // m^2 + 2^sq < 2^63; (m^2 >> sq) * m <= 2^62.
                row += ((((m * m + sq_round) >> sq) * m) + cub_round) >> cub;
            }
            acc[t] += (row + row_round) >> row_shift;
        }
    }
}

const AdmKernels& adm_kernels_scalar() {
    static const AdmKernels k{
        &dwt_s0_u8,
        &dwt_s0_u16,
        &dwt_s123,
        &dwt_s1,
        &decouple_s0,
        &decouple_s123,
        &csf_s0,
        &csf_s123,
        &cm_accumulate_s0,
        &cm_accumulate_s123,
        &den_accumulate_s0,
        &den_accumulate_s123,
    };
    return k;
}

}  // namespace vmafpp::adm
