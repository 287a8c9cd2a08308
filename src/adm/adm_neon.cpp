// NEON twins of the ADM kernels (AArch64 Advanced SIMD, part of every
// ARMv8-A CPU: no -m flag, built only for AArch64): every DWT level and the
// reference's pooling (den_accumulate). Each returns the scalar kernel's
// integers bit for bit on any input; the other stages keep the scalar
// kernels at this level.
//
// The row loops are adm_dwt_rows.hpp's (dwt_s0_rows, dwt_rows), instantiated
// with this file's passes. A partial vector at a row's end is computed on
// zero-filled copies of the samples it needs and only its own outputs are
// stored, so nothing is read or written outside the scalar's range. No
// standard-library template is used (HACKING.md).
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "adm/adm_dwt_rows.hpp"
#include "adm/adm_kernels.hpp"

namespace vmafpp::adm {

namespace {

// ---------------------------------------------------------------------------
// Scale 0, vertical pass: l = sum c_k s_k - kDwtLoSum 2^(bpc-1) + 2^(bpc-1)
// and h = sum c'_k s_k + 2^(bpc-1), both modulo 2^32 as the scalar forms
// them (vmlaq_n_s32 multiplies and adds modulo 2^32; samples below 2^16 are
// non-negative int32), then the arithmetic shift by bpc and the int16 cast
// (vmovn keeps the low 16 bits).

struct S0Shift {
    explicit S0Shift(int bpc)
        : half(vdupq_n_s32(1 << (bpc - 1))),
          lo_bias(vdupq_n_s32(static_cast<std::int32_t>(
              static_cast<std::uint32_t>(1 << (bpc - 1)) -
              static_cast<std::uint32_t>(kDwtLoSum) * static_cast<std::uint32_t>(1 << (bpc - 1))))),
          down(vdupq_n_s32(-bpc)) {}
    int32x4_t half;     // the high pass's start: its rounding term
    int32x4_t lo_bias;  // the low pass's start: rounding minus centring, mod 2^32
    int32x4_t down;
};

// Eight samples of a row as two int32x4.
inline void load8(const std::uint8_t* p, int32x4_t& a, int32x4_t& b) {
    const uint16x8_t v = vmovl_u8(vld1_u8(p));
    a = vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(v)));
    b = vreinterpretq_s32_u32(vmovl_high_u16(v));
}
inline void load8(const std::uint16_t* p, int32x4_t& a, int32x4_t& b) {
    const uint16x8_t v = vld1q_u16(p);
    a = vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(v)));
    b = vreinterpretq_s32_u32(vmovl_high_u16(v));
}

inline int16x8_t narrow_shift(int32x4_t a, int32x4_t b, int32x4_t down) {
    return vcombine_s16(vmovn_s32(vshlq_s32(a, down)), vmovn_s32(vshlq_s32(b, down)));
}

// Eight columns from the rows' pointers: lo[0, 8) and, unless hi is null,
// hi[0, 8).
template <class T>
inline void s0_vertical8(const T* const rows[4], const S0Shift& sh, std::int16_t* lo,
                         std::int16_t* hi) {
    int32x4_t s[4][2];
    for (int k = 0; k < 4; ++k) load8(rows[k], s[k][0], s[k][1]);
    int32x4_t l0 = sh.lo_bias, l1 = sh.lo_bias;
    for (int k = 0; k < 4; ++k) {
        l0 = vmlaq_n_s32(l0, s[k][0], kDwtLo[k]);
        l1 = vmlaq_n_s32(l1, s[k][1], kDwtLo[k]);
    }
    vst1q_s16(lo, narrow_shift(l0, l1, sh.down));
    if (!hi) return;
    int32x4_t h0 = sh.half, h1 = sh.half;
    for (int k = 0; k < 4; ++k) {
        h0 = vmlaq_n_s32(h0, s[k][0], kDwtHi[k]);
        h1 = vmlaq_n_s32(h1, s[k][1], kDwtHi[k]);
    }
    vst1q_s16(hi, narrow_shift(h0, h1, sh.down));
}

template <class T>
void s0_vertical(const T* const rows[4], int w, const S0Shift& sh, std::int16_t* lo,
                 std::int16_t* hi) {
    int j = 0;
    for (; j + 8 <= w; j += 8) {
        const T* at[4] = {rows[0] + j, rows[1] + j, rows[2] + j, rows[3] + j};
        s0_vertical8(at, sh, lo + j, hi ? hi + j : nullptr);
    }
    if (j == w) return;
    const int n = w - j;
    T copy[4][8] = {};
    const T* at[4];
    for (int k = 0; k < 4; ++k) {
        std::memcpy(copy[k], rows[k] + j, n * sizeof(T));
        at[k] = copy[k];
    }
    std::int16_t l[8], h[8];
    s0_vertical8(at, sh, l, hi ? h : nullptr);
    std::memcpy(lo + j, l, n * sizeof(std::int16_t));
    if (hi) std::memcpy(hi + j, h, n * sizeof(std::int16_t));
}

// Scale 0, horizontal pass: output j is (c0 p[2j] + c1 p[2j+1] + c2 p[2j+2]
// + c3 p[2j+3] + 2^15) >> 16 of the padded row p, int16 cast. The sum of
// int16 products by these taps is below 54822 * 32768 < 2^31 at every
// partial step: exact in int32 (vmlal_n_s16). vld2q splits even and odd
// samples, so eight outputs need two loads, of p[2j, 2j + 18): exactly the
// scalar's reads.
inline int16x8_t s0_filter8(const std::int16_t* p, const std::int32_t* c) {
    const int16x8x2_t a = vld2q_s16(p);
    const int16x8x2_t b = vld2q_s16(p + 2);
    const int32x4_t round = vdupq_n_s32(32768);
    int32x4_t lo = vmlal_n_s16(round, vget_low_s16(a.val[0]), static_cast<std::int16_t>(c[0]));
    int32x4_t hi = vmlal_high_n_s16(round, a.val[0], static_cast<std::int16_t>(c[0]));
    lo = vmlal_n_s16(lo, vget_low_s16(a.val[1]), static_cast<std::int16_t>(c[1]));
    hi = vmlal_high_n_s16(hi, a.val[1], static_cast<std::int16_t>(c[1]));
    lo = vmlal_n_s16(lo, vget_low_s16(b.val[0]), static_cast<std::int16_t>(c[2]));
    hi = vmlal_high_n_s16(hi, b.val[0], static_cast<std::int16_t>(c[2]));
    lo = vmlal_n_s16(lo, vget_low_s16(b.val[1]), static_cast<std::int16_t>(c[3]));
    hi = vmlal_high_n_s16(hi, b.val[1], static_cast<std::int16_t>(c[3]));
    return vcombine_s16(vshrn_n_s32(lo, 16), vshrn_n_s32(hi, 16));
}

// Eight outputs j.. of every band the row has (bh null: a only).
inline void s0_horizontal8(const std::int16_t* lo, const std::int16_t* hi, std::int16_t* a,
                           std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
    vst1q_s16(a, s0_filter8(lo, kDwtLo));
    if (!bh) return;
    // libvmaf's names: v is low vertically / high horizontally, h the reverse.
    vst1q_s16(bv, s0_filter8(lo, kDwtHi));
    vst1q_s16(bh, s0_filter8(hi, kDwtLo));
    vst1q_s16(bd, s0_filter8(hi, kDwtHi));
}

void s0_horizontal(const std::int16_t* lo, const std::int16_t* hi, int out_w, std::int16_t* a,
                   std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
    int j = 0;
    for (; j + 8 <= out_w; j += 8)
        s0_horizontal8(lo + 2 * j, hi ? hi + 2 * j : nullptr, a + j, bh ? bh + j : nullptr,
                       bv ? bv + j : nullptr, bd ? bd + j : nullptr);
    if (j == out_w) return;
    // The last outputs read p[2j, 2 out_w + 2); the rest of the copies is 0.
    const int n = out_w - j;
    const int reads = 2 * n + 2;
    std::int16_t lc[18] = {}, hc[18] = {};
    std::memcpy(lc, lo + 2 * j, reads * sizeof(std::int16_t));
    if (hi) std::memcpy(hc, hi + 2 * j, reads * sizeof(std::int16_t));
    std::int16_t o[4][8];
    s0_horizontal8(lc, hi ? hc : nullptr, o[0], bh ? o[1] : nullptr, o[2], o[3]);
    std::memcpy(a + j, o[0], n * sizeof(std::int16_t));
    if (!bh) return;
    std::memcpy(bh + j, o[1], n * sizeof(std::int16_t));
    std::memcpy(bv + j, o[2], n * sizeof(std::int16_t));
    std::memcpy(bd + j, o[3], n * sizeof(std::int16_t));
}

template <class T>
void dwt_s0(const T* src, std::ptrdiff_t src_stride, int w, int h, int bpc, int y0, int y1,
            std::int16_t* scratch, std::int16_t* band_a, std::int16_t* const band_hvd[3],
            std::ptrdiff_t band_stride) {
    const S0Shift sh(bpc);
    dwt_s0_rows(
        src, src_stride, w, h, y0, y1, scratch, band_a, band_hvd, band_stride,
        [&](const T* const rows[4], int /*i*/, std::int16_t* lo, std::int16_t* hi) {
            s0_vertical(rows, w, sh, lo, hi);
        },
        [](const std::int16_t* lo, const std::int16_t* hi, int out_w, std::int16_t* a,
           std::int16_t* bh, std::int16_t* bv, std::int16_t* bd) {
            s0_horizontal(lo, hi, out_w, a, bh, bv, bd);
        });
}

void dwt_s0_u8_neon(const std::uint8_t* src, std::ptrdiff_t src_stride, int w, int h, int y0,
                    int y1, std::int16_t* scratch, std::int16_t* band_a,
                    std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_s0(src, src_stride, w, h, 8, y0, y1, scratch, band_a, band_hvd, band_stride);
}

void dwt_s0_u16_neon(const std::uint16_t* src, std::ptrdiff_t src_stride, int w, int h, int bpc,
                     int y0, int y1, std::int16_t* scratch, std::int16_t* band_a,
                     std::int16_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_s0(src, src_stride, w, h, bpc, y0, y1, scratch, band_a, band_hvd, band_stride);
}

// ---------------------------------------------------------------------------
// Scales 1-3 (and scale 1 of scale 0's int16 approximation): the scalar's
// int64 sums of int32 products (vmull_n_s32 / vmlal_n_s32 are exact), plus
// the rounding term modulo 2^64, the arithmetic shift, and the int32 cast
// (vmovn keeps the low 32 bits).
// Vertical: (round, shift) = (0, 0) at scale 1 and (2^15, 16) at 2 and 3;
// horizontal: (2^14, 15), (2^15, 16), (2^14, 15).
constexpr int kVShift[3] = {0, 16, 16};
constexpr int kHShift[3] = {15, 16, 15};

struct I64Shift {
    explicit I64Shift(int shift)
        : round(vdupq_n_s64(shift > 0 ? std::int64_t{1} << (shift - 1) : 0)),
          down(vdupq_n_s64(-shift)) {}
    int64x2_t round;
    int64x2_t down;
};

inline int32x4_t finish4(int64x2_t lo, int64x2_t hi, const I64Shift& sh) {
    lo = vshlq_s64(vaddq_s64(lo, sh.round), sh.down);
    hi = vshlq_s64(vaddq_s64(hi, sh.round), sh.down);
    return vcombine_s32(vmovn_s64(lo), vmovn_s64(hi));
}

// Four taps over four int32 columns q[k] with taps c.
inline int32x4_t filter4(const int32x4_t q[4], const std::int32_t* c, const I64Shift& sh) {
    int64x2_t lo = vmull_n_s32(vget_low_s32(q[0]), c[0]);
    int64x2_t hi = vmull_high_n_s32(q[0], c[0]);
    for (int k = 1; k < 4; ++k) {
        lo = vmlal_n_s32(lo, vget_low_s32(q[k]), c[k]);
        hi = vmlal_high_n_s32(hi, q[k], c[k]);
    }
    return finish4(lo, hi, sh);
}

inline int32x4_t load4(const std::int32_t* p) { return vld1q_s32(p); }
inline int32x4_t load4(const std::int16_t* p) { return vmovl_s16(vld1_s16(p)); }

template <class T>
inline void s123_vertical4(const T* const rows[4], const I64Shift& sh, std::int32_t* lo,
                           std::int32_t* hi) {
    int32x4_t q[4];
    for (int k = 0; k < 4; ++k) q[k] = load4(rows[k]);
    vst1q_s32(lo, filter4(q, kDwtLo, sh));
    vst1q_s32(hi, filter4(q, kDwtHi, sh));
}

template <class T>
void s123_vertical(const T* const rows[4], int w, const I64Shift& sh, std::int32_t* lo,
                   std::int32_t* hi) {
    int j = 0;
    for (; j + 4 <= w; j += 4) {
        const T* at[4] = {rows[0] + j, rows[1] + j, rows[2] + j, rows[3] + j};
        s123_vertical4(at, sh, lo + j, hi + j);
    }
    if (j == w) return;
    const int n = w - j;
    T copy[4][4] = {};
    const T* at[4];
    for (int k = 0; k < 4; ++k) {
        std::memcpy(copy[k], rows[k] + j, n * sizeof(T));
        at[k] = copy[k];
    }
    std::int32_t l[4], h[4];
    s123_vertical4(at, sh, l, h);
    std::memcpy(lo + j, l, n * sizeof(std::int32_t));
    std::memcpy(hi + j, h, n * sizeof(std::int32_t));
}

// Output j of a padded row p: taps on p[2j, 2j + 4); four outputs read
// p[2j, 2j + 10), the scalar's reads.
inline int32x4_t s123_filter4(const std::int32_t* p, const std::int32_t* c, const I64Shift& sh) {
    const int32x4x2_t a = vld2q_s32(p);
    const int32x4x2_t b = vld2q_s32(p + 2);
    const int32x4_t q[4] = {a.val[0], a.val[1], b.val[0], b.val[1]};
    return filter4(q, c, sh);
}

inline void s123_horizontal4(const std::int32_t* lo, const std::int32_t* hi, const I64Shift& sh,
                             std::int32_t* a, std::int32_t* bh, std::int32_t* bv,
                             std::int32_t* bd) {
    vst1q_s32(a, s123_filter4(lo, kDwtLo, sh));
    if (!bh) return;
    vst1q_s32(bv, s123_filter4(lo, kDwtHi, sh));
    vst1q_s32(bh, s123_filter4(hi, kDwtLo, sh));
    vst1q_s32(bd, s123_filter4(hi, kDwtHi, sh));
}

void s123_horizontal(const std::int32_t* lo, const std::int32_t* hi, int out_w,
                     const I64Shift& sh, std::int32_t* a, std::int32_t* bh, std::int32_t* bv,
                     std::int32_t* bd) {
    int j = 0;
    for (; j + 4 <= out_w; j += 4)
        s123_horizontal4(lo + 2 * j, hi + 2 * j, sh, a + j, bh ? bh + j : nullptr,
                         bv ? bv + j : nullptr, bd ? bd + j : nullptr);
    if (j == out_w) return;
    const int n = out_w - j;
    const int reads = 2 * n + 2;
    std::int32_t lc[10] = {}, hc[10] = {};
    std::memcpy(lc, lo + 2 * j, reads * sizeof(std::int32_t));
    if (bh) std::memcpy(hc, hi + 2 * j, reads * sizeof(std::int32_t));
    std::int32_t o[4][4];
    s123_horizontal4(lc, hc, sh, o[0], bh ? o[1] : nullptr, o[2], o[3]);
    std::memcpy(a + j, o[0], n * sizeof(std::int32_t));
    if (!bh) return;
    std::memcpy(bh + j, o[1], n * sizeof(std::int32_t));
    std::memcpy(bv + j, o[2], n * sizeof(std::int32_t));
    std::memcpy(bd + j, o[3], n * sizeof(std::int32_t));
}

// The scalar's scratch layout: lo and hi rows of w + 3 values, value k at
// [1 + k], padded by pad_row (the even/odd split is the loads' vld2q).
template <class T>
void dwt_scale(const T* src, std::ptrdiff_t src_stride, int w, int h, int scale, int y0, int y1,
               std::int32_t* scratch, std::int32_t* band_a, std::int32_t* const band_hvd[3],
               std::ptrdiff_t band_stride) {
    const I64Shift vsh(kVShift[scale - 1]);
    const I64Shift hsh(kHShift[scale - 1]);
    const int out_w = (w + 1) / 2;
    std::int32_t* lo = scratch;
    std::int32_t* hi = lo + (w + 3);
    dwt_rows(
        src, src_stride, h, y0, y1, band_a, band_hvd, band_stride,
        [&](const T* const rows[4], int /*i*/, bool /*high*/) {
            s123_vertical(rows, w, vsh, lo + 1, hi + 1);
            pad_row(lo, w);
            pad_row(hi, w);
        },
        [&](std::int32_t* a, std::int32_t* bh, std::int32_t* bv, std::int32_t* bd) {
            s123_horizontal(lo, hi, out_w, hsh, a, bh, bv, bd);
        });
}

void dwt_s123_neon(const std::int32_t* src, std::ptrdiff_t src_stride, int w, int h, int scale,
                   int y0, int y1, std::int32_t* scratch, std::int32_t* band_a,
                   std::int32_t* const band_hvd[3], std::ptrdiff_t band_stride) {
    dwt_scale(src, src_stride, w, h, scale, y0, y1, scratch, band_a, band_hvd, band_stride);
}

void dwt_s1_neon(const std::int16_t* src, std::ptrdiff_t src_stride, int w, int h, int y0, int y1,
                 std::int32_t* scratch, std::int32_t* band_a, std::int32_t* const band_hvd[3],
                 std::ptrdiff_t band_stride) {
    dwt_scale(src, src_stride, w, h, 1, y0, y1, scratch, band_a, band_hvd, band_stride);
}

// ---------------------------------------------------------------------------
// Pooling of the reference. Row sums in uint64 lanes (the scalar's uint64
// row sum, any order), folded as the scalar folds them.

inline std::uint64_t round_term(int shift) {
    return shift > 0 ? std::uint64_t{1} << (shift - 1) : 0;
}

// Scale 0: |b| <= 32768 in uint32 (widened before the absolute value, so
// -32768 has its magnitude), |b|^2 <= 2^30 in uint32, |b|^3 exact from the
// widening multiply.
inline uint64x2_t add_cubes_s0(uint64x2_t sum, int16x4_t b) {
    const uint32x4_t m = vreinterpretq_u32_s32(vabsq_s32(vmovl_s16(b)));
    const uint32x4_t m2 = vmulq_u32(m, m);
    sum = vmlal_u32(sum, vget_low_u32(m2), vget_low_u32(m));
    return vmlal_high_u32(sum, m2, m);
}

std::uint64_t cube_row_s0(const std::int16_t* b, int n) {
    uint64x2_t sum = vdupq_n_u64(0);
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        const int16x8_t v = vld1q_s16(b + x);
        sum = add_cubes_s0(add_cubes_s0(sum, vget_low_s16(v)), vget_high_s16(v));
    }
    if (x < n) {
        // Zeros add nothing.
        std::int16_t copy[8] = {};
        std::memcpy(copy, b + x, (n - x) * sizeof(std::int16_t));
        const int16x8_t v = vld1q_s16(copy);
        sum = add_cubes_s0(add_cubes_s0(sum, vget_low_s16(v)), vget_high_s16(v));
    }
    return vaddvq_u64(sum);
}

void den_accumulate_s0_neon(const std::int16_t* const band_hvd[3], std::ptrdiff_t stride,
                            Rect region, int row_shift, std::uint64_t acc[3]) {
    const std::uint64_t row_round = round_term(row_shift);
    for (int t = 0; t < 3; ++t)
        for (int y = region.y0; y < region.y1; ++y) {
            const std::uint64_t row =
                cube_row_s0(band_hvd[t] + y * stride + region.x0, region.width());
            acc[t] += (row + row_round) >> row_shift;
        }
}

// Scales 1-3: m = |b| <= 2^31 (uint32: the magnitude of INT32_MIN too),
// m^2 exact in uint64, + 2^sq and >> sq; the product of that uint64 q with
// m modulo 2^64 (the scalar's uint64 product) is lo(q) m + (hi(q) m mod
// 2^32) 2^32; + round_cub, >> cub.
struct CubeS123 {
    CubeS123(int sq, int cub)
        : sq_round(vdupq_n_u64(std::uint64_t{1} << sq)),
          sq_down(vdupq_n_s64(-sq)),
          cub_round(vdupq_n_u64(round_term(cub))),
          cub_down(vdupq_n_s64(-cub)) {}
    uint64x2_t sq_round;
    int64x2_t sq_down;
    uint64x2_t cub_round;
    int64x2_t cub_down;
};

inline uint64x2_t cube2_s123(uint32x2_t m, const CubeS123& c) {
    const uint64x2_t q = vshlq_u64(vaddq_u64(vmull_u32(m, m), c.sq_round), c.sq_down);
    const uint64x2_t low = vmull_u32(vmovn_u64(q), m);
    const uint32x2_t high = vmul_u32(vshrn_n_u64(q, 32), m);
    const uint64x2_t prod = vaddq_u64(low, vshll_n_u32(high, 32));
    return vshlq_u64(vaddq_u64(prod, c.cub_round), c.cub_down);
}

// |v| of int32 lanes as uint32 (INT32_MIN -> 2^31).
inline uint32x4_t magnitude4(int32x4_t v) { return vreinterpretq_u32_s32(vabsq_s32(v)); }

std::uint64_t cube_row_s123(const std::int32_t* b, int n, const CubeS123& c) {
    uint64x2_t sum = vdupq_n_u64(0);
    int x = 0;
    for (; x + 4 <= n; x += 4) {
        const uint32x4_t m = magnitude4(vld1q_s32(b + x));
        sum = vaddq_u64(sum, cube2_s123(vget_low_u32(m), c));
        sum = vaddq_u64(sum, cube2_s123(vget_high_u32(m), c));
    }
    if (x < n) {
        // Zeros add nothing: (2^sq >> sq) * 0 + 2^(cub-1) is below 2^cub.
        std::int32_t copy[4] = {};
        std::memcpy(copy, b + x, (n - x) * sizeof(std::int32_t));
        const uint32x4_t m = magnitude4(vld1q_s32(copy));
        sum = vaddq_u64(sum, cube2_s123(vget_low_u32(m), c));
        sum = vaddq_u64(sum, cube2_s123(vget_high_u32(m), c));
    }
    return vaddvq_u64(sum);
}

void den_accumulate_s123_neon(const std::int32_t* const band_hvd[3], std::ptrdiff_t stride,
                              Rect region, int sq, int cub, int row_shift, std::uint64_t acc[3]) {
    const CubeS123 c(sq, cub);
    const std::uint64_t row_round = round_term(row_shift);
    for (int t = 0; t < 3; ++t)
        for (int y = region.y0; y < region.y1; ++y) {
            const std::uint64_t row =
                cube_row_s123(band_hvd[t] + y * stride + region.x0, region.width(), c);
            acc[t] += (row + row_round) >> row_shift;
        }
}

}  // namespace

void adm_init_neon(AdmKernels& k) {
    k.dwt_s0_u8 = dwt_s0_u8_neon;
    k.dwt_s0_u16 = dwt_s0_u16_neon;
    k.dwt_s123 = dwt_s123_neon;
    k.dwt_s1 = dwt_s1_neon;
    k.den_accumulate_s0 = den_accumulate_s0_neon;
    k.den_accumulate_s123 = den_accumulate_s123_neon;
}

}  // namespace vmafpp::adm
