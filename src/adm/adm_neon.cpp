// NEON twins of the ADM kernels (AArch64 Advanced SIMD, part of every
// ARMv8-A CPU: no -m flag, built only for AArch64): every stage of integer
// ADM (DWT, decouple, csf, contrast masking, the reference's pooling). Each
// returns the scalar kernel's integers bit for bit on any input.
//
// The row loops are adm_dwt_rows.hpp's (dwt_s0_rows, dwt_rows), instantiated
// with this file's passes. A partial vector at a row's end is computed on
// zero-filled copies of the samples it needs and only its own outputs are
// stored, so nothing is read or written outside the scalar's range. No
// standard-library template is used (HACKING.md).
#include <arm_neon.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "adm/adm_dwt_rows.hpp"
#include "adm/adm_kernels.hpp"
#include "adm/adm_simd.hpp"

namespace vmafpp::adm {

namespace {

// Signed 64-bit lane operations Advanced SIMD has no instruction for.
inline int64x2_t vminq_s64_emul(int64x2_t a, int64x2_t b) { return vbslq_s64(vcltq_s64(a, b), a, b); }
inline int64x2_t vmaxq_s64_emul(int64x2_t a, int64x2_t b) { return vbslq_s64(vcgtq_s64(a, b), a, b); }
// a * b for int64 a below 2^31 in magnitude and int32 b: the widening
// product of a's low 32 bits (its value) and b.
inline int64x2_t vmulq_s64_emul(int64x2_t a, int32x2_t b) { return vmull_s32(vmovn_s64(a), b); }

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

// ---------------------------------------------------------------------------
// Decouple. The division table has no gather here: its entries are read
// one lane at a time. Columns that do not fill a vector run through the
// scalar kernel on a one-row region. Scale 0 works on four samples in int32
// lanes (decouple4_s0); scales 1-3 on two samples in 64-bit lanes, where
// every integer the scalar forms in int64 is formed exactly and narrowed
// modulo 2^32 (vmovn), as the scalar's casts narrow it.

inline int64x2_t div_at(const std::int32_t* div, int32x2_t i) {
    const int64x2_t r = vdupq_n_s64(div[vget_lane_s32(i, 0)]);
    return vsetq_lane_s64(div[vget_lane_s32(i, 1)], r, 1);
}

// double(float(v)) of two int64 (scales 1-3: the values reach 2^63, where
// a conversion through double would round twice): each lane converts
// directly (scvtf to single precision), as the scalar's cast does.
inline float64x2_t float_of(int64x2_t v) {
    const float a = static_cast<float>(vgetq_lane_s64(v, 0));
    const float b = static_cast<float>(vgetq_lane_s64(v, 1));
    return vcvt_f64_f32(vset_lane_f32(b, vdup_n_f32(a), 1));
}

// libvmaf's angle test on two samples (all ones where it passes):
// d = float(dot) / 4096 (the product with 2^-12 is the same double),
// (d >= 0) & (d * d >= (cos_sq * o) * t) in double, left to right.
inline uint64x2_t angle_mask(int64x2_t dot, int64x2_t omag, int64x2_t tmag, float64x2_t cos_sq) {
    const float64x2_t scale = vdupq_n_f64(0x1p-12);
    const float64x2_t d = vmulq_f64(float_of(dot), scale);
    const float64x2_t o = vmulq_f64(float_of(omag), scale);
    const float64x2_t t = vmulq_f64(float_of(tmag), scale);
    return vandq_u64(vcgeq_f64(d, vdupq_n_f64(0.0)),
                     vcgeq_f64(vmulq_f64(d, d), vmulq_f64(vmulq_f64(cos_sq, o), t)));
}

// k = clamp((div[|o|'] t + 2^(14 + shift)) >> (15 + shift), 0, 2^15) with
// o's sign, 2^15 where o == 0: |o| >= 2^15 is first reduced to its top 15
// bits, rounded,
// with shift = 17 - clz(|o|) (libvmaf's get_best15_from32); the product
// with o's sign gets round 2^(14 + shift) and the shift 15 + shift.
inline int64x2_t ratio_s123(int32x2_t o, int32x2_t t, const std::int32_t* div) {
    const uint32x2_t mag = vreinterpret_u32_s32(vabs_s32(o));  // 2^31 for INT32_MIN
    const int32x2_t shift =
        vmax_s32(vsub_s32(vdup_n_s32(17), vreinterpret_s32_u32(vclz_u32(mag))), vdup_n_s32(0));
    const uint32x2_t half = vshr_n_u32(vshl_u32(vdup_n_u32(1), shift), 1);
    const uint32x2_t top = vshl_u32(vadd_u32(mag, half), vneg_s32(shift));  // <= 2^15
    int64x2_t num = vmulq_s64_emul(div_at(div, vreinterpret_s32_u32(top)), t);
    const uint64x2_t negative = vcltzq_s64(vmovl_s32(o));
    num = vbslq_s64(negative, vnegq_s64(num), num);
    const int64x2_t sh = vmovl_s32(shift);
    const int64x2_t round = vshlq_s64(vdupq_n_s64(std::int64_t{1} << 14), sh);
    const int64x2_t q =
        vshlq_s64(vaddq_s64(num, round), vnegq_s64(vaddq_s64(sh, vdupq_n_s64(15))));
    const int64x2_t k = vminq_s64_emul(vmaxq_s64_emul(q, vdupq_n_s64(0)), vdupq_n_s64(32768));
    return vbslq_s64(vceqzq_s64(vmovl_s32(o)), vdupq_n_s64(32768), k);
}

// What both scales' decoupling reads besides the bands (adm_simd.hpp),
// doubles two to a q register.
struct Pd2 {
    static float64x2_t set(double v) { return vdupq_n_f64(v); }
};
using DecoupleConstants = DecoupleConstantsOf<Pd2>;

// Scales 1-3, two samples of every orientation: o[b], t[b] the ref and dis
// values, r[b] and a[b] the restored and additive values narrowed to int32
// (mod 2^32).
inline void decouple2(const int32x2_t o[3], const int32x2_t t[3], const DecoupleConstants& c,
                      int32x2_t r[3], int32x2_t a[3]) {
    // Products of the int32 values summed in int64 modulo 2^64 (the
    // scalar's dot2_wrapping).
    const int64x2_t dot = vmlal_s32(vmull_s32(o[0], t[0]), o[1], t[1]);
    const int64x2_t om = vmlal_s32(vmull_s32(o[0], o[0]), o[1], o[1]);
    const int64x2_t tm = vmlal_s32(vmull_s32(t[0], t[0]), t[1], t[1]);
    const uint64x2_t angle = angle_mask(dot, om, tm, c.cos_sq);
    for (int b = 0; b < 3; ++b) {
        const int64x2_t k = ratio_s123(o[b], t[b], c.div);
        // k <= 2^15: exact in int64; the result lies in int32's range.
        int64x2_t rst =
            vshrq_n_s64(vaddq_s64(vmulq_s64_emul(k, o[b]), vdupq_n_s64(16384)), 15);
        // trunc(fl(rst * gain)) (vcvtq_s64_f64 truncates; |gain| <= 2^31
        // keeps it inside int64), then min with t where o > 0, max otherwise.
        const int64x2_t p = vcvtq_s64_f64(vmulq_f64(vcvtq_f64_s64(rst), c.gain));
        const int64x2_t t64 = vmovl_s32(t[b]);
        const int64x2_t limited = vbslq_s64(vcgtzq_s64(vmovl_s32(o[b])), vminq_s64_emul(p, t64),
                                            vmaxq_s64_emul(p, t64));
        const uint64x2_t skip = vorrq_u64(vceqzq_s64(k), vceqzq_s64(vmovl_s32(o[b])));
        rst = vbslq_s64(vbicq_u64(angle, skip), limited, rst);
        r[b] = vmovn_s64(rst);
        a[b] = vmovn_s64(vsubq_s64(t64, rst));
    }
}

// Scale 0, four samples in int32 lanes (as the AVX2 twin): every value the
// scalar forms fits int32 here except div * t (|.| <= 2^45), which is
// formed in int64 and narrowed with saturation (the clamp to [0, 2^15]
// that follows gives the same k), and the gain product, formed in double.

// float(v) of a sum of two int16 products formed in int32 lanes: the true
// sum lies in [2 * -32768 * 32767, 2^31] and only 2^31 wraps (to
// INT32_MIN), so such a lane means +2^31. vcvtq_f32_s32 rounds once, as
// the scalar's int64-to-float conversion of the same value.
inline float32x4_t float_of_products(int32x4_t v) {
    const uint32x4_t wrapped = vceqq_s32(v, vdupq_n_s32(INT32_MIN));
    return vbslq_f32(wrapped, vdupq_n_f32(0x1p31f), vcvtq_f32_s32(v));
}

// The angle test of two lanes from their floats, in the scalar's double
// operations: d = float(dot) / 4096, (d >= 0) & (d * d >= (cos_sq * o) * t).
inline uint32x2_t angle_mask2(float32x2_t fd, float32x2_t fo, float32x2_t ft,
                              float64x2_t cos_sq) {
    const float64x2_t scale = vdupq_n_f64(0x1p-12);
    const float64x2_t d = vmulq_f64(vcvt_f64_f32(fd), scale);
    const float64x2_t o = vmulq_f64(vcvt_f64_f32(fo), scale);
    const float64x2_t t = vmulq_f64(vcvt_f64_f32(ft), scale);
    const uint64x2_t pass = vandq_u64(vcgeq_f64(d, vdupq_n_f64(0.0)),
                                      vcgeq_f64(vmulq_f64(d, d), vmulq_f64(vmulq_f64(cos_sq, o), t)));
    return vmovn_u64(pass);
}

inline int32x4_t div_at4(const std::int32_t* div, int32x4_t i) {
    int32x4_t r = vdupq_n_s32(div[vgetq_lane_s32(i, 0)]);
    r = vsetq_lane_s32(div[vgetq_lane_s32(i, 1)], r, 1);
    r = vsetq_lane_s32(div[vgetq_lane_s32(i, 2)], r, 2);
    return vsetq_lane_s32(div[vgetq_lane_s32(i, 3)], r, 3);
}

// trunc(fl(rst * gain)) of four int32 rst with |rst| <= 2^15 and |gain| <=
// 65535: the double product truncated (vcvtq_s64_f64), inside int32.
inline int32x4_t gain_product4(int32x4_t rst, float64x2_t gain) {
    const int64x2_t lo =
        vcvtq_s64_f64(vmulq_f64(vcvtq_f64_s64(vmovl_s32(vget_low_s32(rst))), gain));
    const int64x2_t hi = vcvtq_s64_f64(vmulq_f64(vcvtq_f64_s64(vmovl_high_s32(rst)), gain));
    return vcombine_s32(vmovn_s64(lo), vmovn_s64(hi));
}

inline void decouple4_s0(const int32x4_t o[3], const int32x4_t t[3], const DecoupleConstants& c,
                         int16x4_t r[3], int16x4_t a[3]) {
    // Products of int16 values (|.| <= 2^30) summed modulo 2^32.
    const int32x4_t dot = vmlaq_s32(vmulq_s32(o[0], t[0]), o[1], t[1]);
    const int32x4_t om = vmlaq_s32(vmulq_s32(o[0], o[0]), o[1], o[1]);
    const int32x4_t tm = vmlaq_s32(vmulq_s32(t[0], t[0]), t[1], t[1]);
    const float32x4_t fd = float_of_products(dot);
    const float32x4_t fo = float_of_products(om);
    const float32x4_t ft = float_of_products(tm);
    const uint32x4_t angle =
        vcombine_u32(angle_mask2(vget_low_f32(fd), vget_low_f32(fo), vget_low_f32(ft), c.cos_sq),
                     angle_mask2(vget_high_f32(fd), vget_high_f32(fo), vget_high_f32(ft), c.cos_sq));
    const int32x4_t zero = vdupq_n_s32(0);
    for (int b = 0; b < 3; ++b) {
        // k = clamp((div[o] t + 2^14) >> 15, 0, 2^15), 2^15 where o == 0.
        const int32x4_t dv = div_at4(c.div, o[b]);
        const int64x2_t round = vdupq_n_s64(16384);
        const int64x2_t qlo = vmlal_s32(round, vget_low_s32(dv), vget_low_s32(t[b]));
        const int64x2_t qhi = vmlal_high_s32(round, dv, t[b]);
        const int32x4_t q = vcombine_s32(vqshrn_n_s64(qlo, 15), vqshrn_n_s64(qhi, 15));
        const uint32x4_t o_zero = vceqzq_s32(o[b]);
        const int32x4_t k =
            vbslq_s32(o_zero, vdupq_n_s32(32768), vminq_s32(vmaxq_s32(q, zero), vdupq_n_s32(32768)));
        // k <= 2^15, |o| <= 2^15: exact in int32.
        int32x4_t rst = vshrq_n_s32(vmlaq_s32(vdupq_n_s32(16384), k, o[b]), 15);
        const int32x4_t p = gain_product4(rst, c.gain);
        const int32x4_t limited =
            vbslq_s32(vcgtzq_s32(o[b]), vminq_s32(p, t[b]), vmaxq_s32(p, t[b]));
        const uint32x4_t skip = vorrq_u32(vceqzq_s32(k), o_zero);
        rst = vbslq_s32(vbicq_u32(angle, skip), limited, rst);
        r[b] = vmovn_s32(rst);
        a[b] = vmovn_s32(vsubq_s32(t[b], rst));
    }
}

void decouple_s0_neon(const std::int16_t* const ref_hvd[3], const std::int16_t* const dis_hvd[3],
                      std::ptrdiff_t stride, Rect region, double gain_limit,
                      std::int16_t* const r_hvd[3], std::int16_t* const a_hvd[3]) {
    // Beyond these the product could leave int32 (and NaN fails the test):
    // the scalar serves.
    if (!(gain_limit >= -65535.0 && gain_limit <= 65535.0)) {
        decouple_s0(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    const DecoupleConstants c(gain_limit);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        int x = region.x0;
        for (; x + 4 <= region.x1; x += 4) {
            const std::ptrdiff_t i = row + x;
            int32x4_t o[3], t[3];
            for (int b = 0; b < 3; ++b) {
                o[b] = vmovl_s16(vld1_s16(ref_hvd[b] + i));
                t[b] = vmovl_s16(vld1_s16(dis_hvd[b] + i));
            }
            int16x4_t r[3], a[3];
            decouple4_s0(o, t, c, r, a);
            for (int b = 0; b < 3; ++b) {
                vst1_s16(r_hvd[b] + i, r[b]);
                vst1_s16(a_hvd[b] + i, a[b]);
            }
        }
        if (x < region.x1)
            decouple_s0(ref_hvd, dis_hvd, stride, Rect{x, y, region.x1, y + 1}, gain_limit, r_hvd,
                        a_hvd);
    }
}

void decouple_s123_neon(const std::int32_t* const ref_hvd[3],
                        const std::int32_t* const dis_hvd[3], std::ptrdiff_t stride, Rect region,
                        double gain_limit, std::int32_t* const r_hvd[3],
                        std::int32_t* const a_hvd[3]) {
    if (!(gain_limit >= -0x1p31 && gain_limit <= 0x1p31)) {
        decouple_s123(ref_hvd, dis_hvd, stride, region, gain_limit, r_hvd, a_hvd);
        return;
    }
    const DecoupleConstants c(gain_limit);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        int x = region.x0;
        for (; x + 2 <= region.x1; x += 2) {
            const std::ptrdiff_t i = row + x;
            int32x2_t o[3], t[3], r[3], a[3];
            for (int b = 0; b < 3; ++b) {
                o[b] = vld1_s32(ref_hvd[b] + i);
                t[b] = vld1_s32(dis_hvd[b] + i);
            }
            decouple2(o, t, c, r, a);
            for (int b = 0; b < 3; ++b) {
                vst1_s32(r_hvd[b] + i, r[b]);
                vst1_s32(a_hvd[b] + i, a[b]);
            }
        }
        if (x < region.x1)
            decouple_s123(ref_hvd, dis_hvd, stride, Rect{x, y, region.x1, y + 1}, gain_limit,
                          r_hvd, a_hvd);
    }
}

// ---------------------------------------------------------------------------
// Contrast sensitivity weighting. Whole vectors of a row's region run here;
// the leftover columns (fewer than one vector) run through the scalar kernel
// on a one-row region, so no sample outside the region is read or written.

// Scale 0, eight samples: f * s exact in int32 (|f * s| <= 65535 * 32768
// - 65535, plus round <= 65535), the arithmetic shift, the int16 cast
// (vmovn keeps the low 16 bits); flt from that int16 value, |c| <= 32768:
// 4369 * |c| + 2048 < 2^31, then the int16 cast again.
inline void csf8_s0(const std::int16_t* s, int32x4_t f, int32x4_t round, int32x4_t down,
                    std::int16_t* csf, std::int16_t* flt) {
    const int16x8_t v = vld1q_s16(s);
    const int32x4_t lo = vshlq_s32(vmlaq_s32(round, vmovl_s16(vget_low_s16(v)), f), down);
    const int32x4_t hi = vshlq_s32(vmlaq_s32(round, vmovl_high_s16(v), f), down);
    const int16x8_t c = vcombine_s16(vmovn_s32(lo), vmovn_s32(hi));
    vst1q_s16(csf, c);
    const int32x4_t r12 = vdupq_n_s32(2048);
    const int32x4_t glo = vmlaq_n_s32(r12, vabsq_s32(vmovl_s16(vget_low_s16(c))), 4369);
    const int32x4_t ghi = vmlaq_n_s32(r12, vabsq_s32(vmovl_high_s16(c)), 4369);
    vst1q_s16(flt, vcombine_s16(vmovn_s32(vshrq_n_s32(glo, 12)), vmovn_s32(vshrq_n_s32(ghi, 12))));
}

void csf_s0_neon(const std::int16_t* src, std::ptrdiff_t stride, Rect region,
                 std::uint16_t rfactor, int shift, std::int32_t round, std::int16_t* csf,
                 std::int16_t* flt) {
    const int32x4_t f = vdupq_n_s32(rfactor);
    const int32x4_t r = vdupq_n_s32(round);
    const int32x4_t down = vdupq_n_s32(-shift);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        int x = region.x0;
        for (; x + 8 <= region.x1; x += 8)
            csf8_s0(src + row + x, f, r, down, csf + row + x, flt + row + x);
        if (x < region.x1)
            vmafpp::adm::csf_s0(src + row, 0, Rect{x, 0, region.x1, 1}, rfactor, shift, round,
                                csf + row, flt + row);
    }
}

// Scales 1-3, two samples: int32((s * f + 2^27) >> 28) with f < 2^32 as
// |s| * f < 2^63 in uint64 and the sign restored in int64 (two's
// complement negation: the product is below 2^63); vshrn keeps bits
// 28..59, the arithmetic shift's low 32 bits. flt = int32((143165577 |c|
// - 2^31) >> 32): the sum is at least -2^31, its high dword is the shift.
inline int32x2_t csf2_s123(int32x2_t s, uint32x2_t f) {
    const uint32x2_t mag = vreinterpret_u32_s32(vabs_s32(s));  // INT32_MIN -> 2^31
    const int64x2_t p = vreinterpretq_s64_u64(vmull_u32(mag, f));
    const uint64x2_t negative = vreinterpretq_u64_s64(vmovl_s32(vshr_n_s32(s, 31)));
    const int64x2_t signed_p = vbslq_s64(negative, vnegq_s64(p), p);
    return vshrn_n_s64(vaddq_s64(signed_p, vdupq_n_s64(std::int64_t{1} << 27)), 28);
}

inline int32x2_t flt2_s123(int32x2_t c) {
    const uint32x2_t mag = vreinterpret_u32_s32(vabs_s32(c));
    const int64x2_t p = vreinterpretq_s64_u64(vmull_n_u32(mag, 143165577u));
    return vshrn_n_s64(vaddq_s64(p, vdupq_n_s64(-(std::int64_t{1} << 31))), 32);
}

inline void csf4_s123(const std::int32_t* s, uint32x2_t f, std::int32_t* csf, std::int32_t* flt) {
    const int32x4_t v = vld1q_s32(s);
    const int32x4_t c = vcombine_s32(csf2_s123(vget_low_s32(v), f), csf2_s123(vget_high_s32(v), f));
    vst1q_s32(csf, c);
    vst1q_s32(flt, vcombine_s32(flt2_s123(vget_low_s32(c)), flt2_s123(vget_high_s32(c))));
}

void csf_s123_neon(const std::int32_t* src, std::ptrdiff_t stride, Rect region,
                   std::uint32_t rfactor, std::int32_t* csf, std::int32_t* flt) {
    const uint32x2_t f = vdup_n_u32(rfactor);
    for (int y = region.y0; y < region.y1; ++y) {
        const std::ptrdiff_t row = y * stride;
        int x = region.x0;
        for (; x + 4 <= region.x1; x += 4) csf4_s123(src + row + x, f, csf + row + x, flt + row + x);
        if (x < region.x1)
            vmafpp::adm::csf_s123(src + row, 0, Rect{x, 0, region.x1, 1}, rfactor, csf + row,
                                  flt + row);
    }
}

// ---------------------------------------------------------------------------
// Contrast masking. The scalar's structure: for each output row, csf and
// flt of the masker rows (y - 1, y, y + 1) (reflected) into a window of
// three rows per band (the NEON csf twins above), the threshold of row 1 of
// that window, then the row sums of cube(excess). The threshold's interior
// columns run in lanes; its edge columns and the leftover interior columns
// run through the scalar threshold kernel on the same window.

// The csf / flt window of one call: for band t, csf rows at csf[t] + k * w
// and flt rows at flt[t] + k * w, k = 0, 1, 2.
template <class T>
struct MaskingWindow {
    explicit MaskingWindow(int w) : w(w), mem(new T[18 * static_cast<std::size_t>(w)]) {
        for (int t = 0; t < 3; ++t) {
            csf[t] = mem + 6 * t * static_cast<std::ptrdiff_t>(w);
            flt[t] = csf[t] + 3 * static_cast<std::ptrdiff_t>(w);
        }
    }
    ~MaskingWindow() { delete[] mem; }
    MaskingWindow(const MaskingWindow&) = delete;
    MaskingWindow& operator=(const MaskingWindow&) = delete;
    int w;
    T* mem;
    T* csf[3];
    T* flt[3];
};

inline int32x4_t load4_i32(const std::int16_t* p) { return vmovl_s16(vld1_s16(p)); }

// Scale-0 threshold of interior columns x..x+7 of window row 1: the eight
// flt neighbours and the centre tap (8738 |c| + 2048) >> 12 in int32 (8738
// * 32768 + 2048 < 2^31) for each band; |T| < 2^20, so int32 lanes are
// exact. The int16 neighbours are widened by the adds themselves.
inline void add_centre_s0(int32x4_t& sum, int16x4_t c) {
    const int32x4_t m = vabsq_s32(vmovl_s16(c));
    sum = vaddq_s32(sum, vshrq_n_s32(vmlaq_n_s32(vdupq_n_s32(2048), m, 8738), 12));
}

inline void threshold8_s0(const std::int16_t* const csf[3], const std::int16_t* const flt[3],
                          std::ptrdiff_t w, int x, std::int32_t* thr) {
    int32x4_t lo = vdupq_n_s32(0), hi = vdupq_n_s32(0);
    for (int t = 0; t < 3; ++t) {
        const std::int16_t* a = flt[t] + x;
        const std::int16_t* c = a + w;
        const std::int16_t* b = c + w;
        const int16x8_t n0 = vld1q_s16(a - 1), n1 = vld1q_s16(a);
        lo = vaddq_s32(lo, vaddl_s16(vget_low_s16(n0), vget_low_s16(n1)));
        hi = vaddq_s32(hi, vaddl_high_s16(n0, n1));
        const std::int16_t* taps[6] = {a + 1, c - 1, c + 1, b - 1, b, b + 1};
        for (int k = 0; k < 6; ++k) {
            const int16x8_t v = vld1q_s16(taps[k]);
            lo = vaddw_s16(lo, vget_low_s16(v));
            hi = vaddw_high_s16(hi, v);
        }
        const int16x8_t centre = vld1q_s16(csf[t] + w + x);
        add_centre_s0(lo, vget_low_s16(centre));
        add_centre_s0(hi, vget_high_s16(centre));
    }
    vst1q_s32(thr, lo);
    vst1q_s32(thr + 4, hi);
}

// Scales 1-3, interior columns x..x+3 as two int64x2: the flt neighbours
// summed in int64 and the centre tap (286331153 |c| - 2^31) >> 32 (the
// product is below 2^60; the shift arithmetic).
inline void add_wide(int64x2_t& lo, int64x2_t& hi, int32x4_t v) {
    lo = vaddw_s32(lo, vget_low_s32(v));
    hi = vaddw_high_s32(hi, v);
}

inline void threshold4_s123(const std::int32_t* const csf[3], const std::int32_t* const flt[3],
                            std::ptrdiff_t w, int x, std::int64_t* thr) {
    int64x2_t lo = vdupq_n_s64(0), hi = vdupq_n_s64(0);
    const int64x2_t round = vdupq_n_s64(-(std::int64_t{1} << 31));
    for (int t = 0; t < 3; ++t) {
        const std::int32_t* a = flt[t] + x;
        const std::int32_t* c = a + w;
        const std::int32_t* b = c + w;
        const std::int32_t* taps[8] = {a - 1, a, a + 1, c - 1, c + 1, b - 1, b, b + 1};
        for (int k = 0; k < 8; ++k) add_wide(lo, hi, vld1q_s32(taps[k]));
        const uint32x4_t m = vreinterpretq_u32_s32(vabsq_s32(vld1q_s32(csf[t] + w + x)));
        lo = vaddq_s64(lo, vshrq_n_s64(vaddq_s64(vreinterpretq_s64_u64(
                                                     vmull_n_u32(vget_low_u32(m), 286331153u)),
                                                 round),
                                       32));
        hi = vaddq_s64(hi, vshrq_n_s64(vaddq_s64(vreinterpretq_s64_u64(
                                                     vmull_high_n_u32(m, 286331153u)),
                                                 round),
                                       32));
    }
    vst1q_s64(thr, lo);
    vst1q_s64(thr + 2, hi);
}

// The threshold of window row 1 over [x0, x1): the interior in blocks of
// kBlock columns, the rest (edges, leftovers) through scalar_row on the
// same window.
template <int kBlock, class T, class Acc, class Block, class ScalarRow>
void threshold_row(const MaskingWindow<T>& win, int x0, int x1, Acc* thr, Block block,
                   ScalarRow scalar_row) {
    const int w = win.w;
    const T* const* csf = win.csf;
    const T* const* flt = win.flt;
    const int lo = x0 > 1 ? x0 : 1;
    const int hi = x1 < w - 1 ? x1 : w - 1;
    int x = lo;
    for (; x + kBlock <= hi; x += kBlock) block(csf, flt, w, x, thr + (x - x0));
    if (x0 < lo) scalar_row(csf, flt, w, w, 3, 1, x0, lo, thr);
    if (x < x1) scalar_row(csf, flt, w, w, 3, 1, x, x1, thr + (x - x0));
}

// The cube of four excesses e (int32 lanes in [0, 2^31)), summed into two
// int64 lanes: e2 = int32((e^2 + 2^(sq-1)) >> sq) (e^2 < 2^62, so the
// logical shift is the arithmetic one; vmovn is the int32 narrowing), then
// (e2 * e + round) >> cub, the product exact (vmull_s32), the shift
// arithmetic.
struct CubeLanes {
    explicit CubeLanes(const CubeShifts& s)
        : sq_round(vdupq_n_u64(s.sq > 0 ? std::uint64_t{1} << (s.sq - 1) : 0)),
          sq_down(vdupq_n_s64(-s.sq)),
          cub_round(vdupq_n_s64(s.cub > 0 ? std::int64_t{1} << (s.cub - 1) : 0)),
          cub_down(vdupq_n_s64(-s.cub)) {}
    uint64x2_t sq_round;
    int64x2_t sq_down;
    int64x2_t cub_round;
    int64x2_t cub_down;

    int64x2_t cube2(int32x2_t e) const {
        const uint32x2_t u = vreinterpret_u32_s32(e);
        const uint64x2_t sq = vshlq_u64(vaddq_u64(vmull_u32(u, u), sq_round), sq_down);
        const int32x2_t e2 = vreinterpret_s32_u32(vmovn_u64(sq));
        return vshlq_s64(vaddq_s64(vmull_s32(e2, e), cub_round), cub_down);
    }
    int64x2_t add4(int64x2_t acc, int32x4_t e) const {
        return vaddq_s64(vaddq_s64(acc, cube2(vget_low_s32(e))), cube2(vget_high_s32(e)));
    }
};

// clamp(m - T, 0, 2^31 - 1) in int64 for two lanes (exact: m < 2^32 and
// |T| < 2^36), narrowed to int32.
inline int32x2_t excess2(int64x2_t m, int64x2_t t) {
    const int64x2_t d = vsubq_s64(m, t);
    const int64x2_t zero = vdupq_n_s64(0);
    const int64x2_t top = vdupq_n_s64(2147483647);
    const int64x2_t c = vbslq_s64(vcltq_s64(d, zero), zero, d);
    return vmovn_s64(vbslq_s64(vcgtq_s64(c, top), top, c));
}

// Scale 0, four samples: m = |src * f| (exact in int32), T * 2^sub in int64
// (vshlq of the int64 value: the product, for T of either sign).
inline int64x2_t row_step_s0(int64x2_t acc, const std::int16_t* src, const std::int32_t* thr,
                             int32x4_t f, int64x2_t sub, const CubeLanes& cube) {
    const uint32x4_t m = vreinterpretq_u32_s32(vabsq_s32(vmulq_s32(load4_i32(src), f)));
    const int32x4_t t = vld1q_s32(thr);
    const int32x2_t lo = excess2(vreinterpretq_s64_u64(vmovl_u32(vget_low_u32(m))),
                                 vshlq_s64(vmovl_s32(vget_low_s32(t)), sub));
    const int32x2_t hi = excess2(vreinterpretq_s64_u64(vmovl_high_u32(m)),
                                 vshlq_s64(vmovl_high_s32(t), sub));
    return cube.add4(acc, vcombine_s32(lo, hi));
}

// Row sum of scale 0 over n samples; the last partial step runs on
// zero-filled copies (a zero sample against a zero threshold has excess 0,
// whose cube is 0).
std::int64_t row_sum_s0(const std::int16_t* src, const std::int32_t* thr, int n,
                        std::uint16_t rfactor, const CubeShifts& shifts) {
    const CubeLanes cube(shifts);
    const int32x4_t f = vdupq_n_s32(rfactor);
    const int64x2_t sub = vdupq_n_s64(shifts.sub);
    int64x2_t acc = vdupq_n_s64(0);
    int i = 0;
    for (; i + 4 <= n; i += 4) acc = row_step_s0(acc, src + i, thr + i, f, sub, cube);
    if (i < n) {
        std::int16_t s[4] = {};
        std::int32_t t[4] = {};
        std::memcpy(s, src + i, (n - i) * sizeof(std::int16_t));
        std::memcpy(t, thr + i, (n - i) * sizeof(std::int32_t));
        acc = row_step_s0(acc, s, t, f, sub, cube);
    }
    // The scalar's int64 sum modulo 2^64, in any order.
    return static_cast<std::int64_t>(vaddvq_u64(vreinterpretq_u64_s64(acc)));
}

// Scales 1-3, four samples: x = csf2_s123's int32((src f + 2^27) >> 28),
// m = |x| as uint32.
inline int64x2_t row_step_s123(int64x2_t acc, const std::int32_t* src, const std::int64_t* thr,
                               uint32x2_t f, const CubeLanes& cube) {
    const int32x4_t v = vld1q_s32(src);
    const int32x4_t x = vcombine_s32(csf2_s123(vget_low_s32(v), f), csf2_s123(vget_high_s32(v), f));
    const uint32x4_t m = vreinterpretq_u32_s32(vabsq_s32(x));
    const int32x2_t lo =
        excess2(vreinterpretq_s64_u64(vmovl_u32(vget_low_u32(m))), vld1q_s64(thr));
    const int32x2_t hi = excess2(vreinterpretq_s64_u64(vmovl_high_u32(m)), vld1q_s64(thr + 2));
    return cube.add4(acc, vcombine_s32(lo, hi));
}

std::int64_t row_sum_s123(const std::int32_t* src, const std::int64_t* thr, int n,
                          std::uint32_t rfactor, const CubeShifts& shifts) {
    const CubeLanes cube(shifts);
    const uint32x2_t f = vdup_n_u32(rfactor);
    int64x2_t acc = vdupq_n_s64(0);
    int i = 0;
    for (; i + 4 <= n; i += 4) acc = row_step_s123(acc, src + i, thr + i, f, cube);
    if (i < n) {
        std::int32_t s[4] = {};
        std::int64_t t[4] = {};
        std::memcpy(s, src + i, (n - i) * sizeof(std::int32_t));
        std::memcpy(t, thr + i, (n - i) * sizeof(std::int64_t));
        acc = row_step_s123(acc, s, t, f, cube);
    }
    return static_cast<std::int64_t>(vaddvq_u64(vreinterpretq_u64_s64(acc)));
}

// acc + ((row + round) >> shift), the additions modulo 2^64 and the shift
// arithmetic (the scalar's fold_row).
inline std::int64_t fold_row(std::int64_t acc, std::int64_t row, int shift) {
    const std::uint64_t round = shift > 0 ? std::uint64_t{1} << (shift - 1) : 0;
    const std::int64_t r = static_cast<std::int64_t>(static_cast<std::uint64_t>(row) + round);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) +
                                     static_cast<std::uint64_t>(r >> shift));
}

// The masking stage of one scale (the scalar's accumulate_masking):
// csf_rows(t, at, cols, csf, flt) fills one window row of band t from the
// masker row at offset `at`; threshold(win) fills the threshold scratch;
// row_sum(t, x) is band t's row sum over the region.
template <class T, class CsfRow, class Threshold, class RowSum>
void accumulate_masking(const T* const x_hvd[3], std::ptrdiff_t stride, int w, int h,
                        Rect region, int row_shift, std::int64_t acc[3], CsfRow csf_row,
                        Threshold threshold, RowSum row_sum) {
    const int c0 = region.x0 > 1 ? region.x0 - 1 : 0;
    const int c1 = region.x1 + 1 < w ? region.x1 + 1 : w;
    MaskingWindow<T> win(w);
    // The band row each window row holds (-1: none yet). Consecutive output
    // rows share two masker rows: those are copied down, not recomputed.
    int held[3] = {-1, -1, -1};
    const std::size_t bytes = sizeof(T) * static_cast<std::size_t>(c1 - c0);
    for (int y = region.y0; y < region.y1; ++y) {
        const int rows[3] = {reflect_index(y - 1, h), y, reflect_index(y + 1, h)};
        for (int k = 0; k < 3; ++k) {
            if (held[k] == rows[k]) continue;
            // Window rows other than k hold valid rows: those below k were
            // filled for this output row, those above k still hold theirs.
            int from = -1;
            for (int j = 0; j < 3; ++j)
                if (j != k && held[j] == rows[k]) from = j;
            for (int t = 0; t < 3; ++t) {
                T* csf = win.csf[t] + k * w;
                T* flt = win.flt[t] + k * w;
                if (from >= 0) {
                    std::memcpy(csf + c0, win.csf[t] + from * w + c0, bytes);
                    std::memcpy(flt + c0, win.flt[t] + from * w + c0, bytes);
                } else {
                    csf_row(t, rows[k] * stride, Rect{c0, 0, c1, 1}, csf, flt);
                }
            }
            held[k] = rows[k];
        }
        threshold(win);
        for (int t = 0; t < 3; ++t)
            acc[t] = fold_row(acc[t], row_sum(t, x_hvd[t] + y * stride + region.x0), row_shift);
    }
}

void cm_accumulate_s0_neon(const std::int16_t* const x_hvd[3],
                           const std::int16_t* const masker_hvd[3], std::ptrdiff_t stride, int w,
                           int h, Rect region, const std::uint16_t rfactor[3],
                           const CubeShifts shifts[3], int row_shift, std::int32_t* thr_scratch,
                           std::int64_t acc[3]) {
    accumulate_masking(
        x_hvd, stride, w, h, region, row_shift, acc,
        [&](int t, std::ptrdiff_t at, Rect cols, std::int16_t* csf, std::int16_t* flt) {
            csf_s0_neon(masker_hvd[t] + at, 0, cols, rfactor[t], kCsfShiftS0[t], kCsfRoundS0[t],
                        csf, flt);
        },
        [&](const MaskingWindow<std::int16_t>& win) {
            threshold_row<8>(win, region.x0, region.x1, thr_scratch, threshold8_s0,
                             cm_threshold_row_s0);
        },
        [&](int t, const std::int16_t* x) {
            return row_sum_s0(x, thr_scratch, region.width(), rfactor[t], shifts[t]);
        });
}

void cm_accumulate_s123_neon(const std::int32_t* const x_hvd[3],
                             const std::int32_t* const masker_hvd[3], std::ptrdiff_t stride,
                             int w, int h, Rect region, const std::uint32_t rfactor[3],
                             CubeShifts shifts, int row_shift, std::int64_t* thr_scratch,
                             std::int64_t acc[3]) {
    accumulate_masking(
        x_hvd, stride, w, h, region, row_shift, acc,
        [&](int t, std::ptrdiff_t at, Rect cols, std::int32_t* csf, std::int32_t* flt) {
            csf_s123_neon(masker_hvd[t] + at, 0, cols, rfactor[t], csf, flt);
        },
        [&](const MaskingWindow<std::int32_t>& win) {
            threshold_row<4>(win, region.x0, region.x1, thr_scratch, threshold4_s123,
                             cm_threshold_row_s123);
        },
        [&](int t, const std::int32_t* x) {
            return row_sum_s123(x, thr_scratch, region.width(), rfactor[t], shifts);
        });
}

}  // namespace

// Every ADM kernel has a twin at this level (AdmKernels order).
void adm_init_neon(AdmKernels& k) {
    k = AdmKernels{
        dwt_s0_u8_neon,
        dwt_s0_u16_neon,
        dwt_s123_neon,
        dwt_s1_neon,
        decouple_s0_neon,
        decouple_s123_neon,
        csf_s0_neon,
        csf_s123_neon,
        cm_accumulate_s0_neon,
        cm_accumulate_s123_neon,
        den_accumulate_s0_neon,
        den_accumulate_s123_neon,
    };
}

}  // namespace vmafpp::adm
