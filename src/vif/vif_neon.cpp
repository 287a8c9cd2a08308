// NEON twins of the VIF row kernels (AArch64 Advanced SIMD, part of every
// ARMv8-A CPU: no -m flag, built only for AArch64). Each returns the scalar
// kernel's integers bit for bit on any input vif_kernels.hpp allows.
//
// Why the lanes give the scalar's integers: every sum the scalar keeps in
// uint32 is kept in uint32 lanes (multiply-accumulate modulo 2^32 is the
// scalar's wrapping uint32 arithmetic, in any order), every uint64 sum in
// uint64 lanes from widening multiplies (vmlal_u32: the exact 64-bit
// product), and the final roundings are the scalar's expressions on the
// same widths. Columns that do not fill a vector are computed by the scalar
// kernel itself on the shifted pointers, so nothing is read or written
// outside the scalar's range. vif_accumulate keeps the scalar's double
// operations lane by lane and reads its table one lane at a time (NEON has
// no gather). No standard-library
// template is used (HACKING.md, "Adding a feature extractor").
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

namespace {

// The `taps` row pointers of `rows`, each advanced by j columns.
template <class T>
struct ShiftedRows {
    ShiftedRows(const T* const* rows, int taps, int j) {
        for (int t = 0; t < taps; ++t) at[t] = rows[t] + j;
    }
    const T* at[2 * kMaxHalf + 1];
};

// The five rows of `out` advanced by j columns.
VifStatRow shifted(const VifStatRow& out, int j) {
    return {out.mu1 + j, out.mu2 + j, out.xx + j, out.yy + j, out.xy + j};
}

// A right shift by a count given at run time (vshlq by its negation; a
// count of 0 leaves the lanes as they are, as the scalar's zero shift does).
inline int32x4_t right_by(int shift) { return vdupq_n_s32(-shift); }
inline int64x2_t right_by64(int shift) { return vdupq_n_s64(-shift); }

// ---------------------------------------------------------------------------
// Vertical statistics, 8-bit: eight columns per step. c * v < 2^16 * 2^8 is
// one widening multiply; the moments (c v) * v are taken modulo 2^32, the
// scalar's uint32 sums.

struct Sums8 {
    uint32x4_t mu1[2], mu2[2], xx[2], yy[2], xy[2];
};

inline void add_tap_u8(Sums8& s, std::uint16_t c, const std::uint8_t* r, const std::uint8_t* d) {
    const uint16x8_t rv = vmovl_u8(vld1_u8(r));
    const uint16x8_t dv = vmovl_u8(vld1_u8(d));
    const uint16x4_t rh[2] = {vget_low_u16(rv), vget_high_u16(rv)};
    const uint16x4_t dh[2] = {vget_low_u16(dv), vget_high_u16(dv)};
    for (int h = 0; h < 2; ++h) {
        const uint32x4_t cr = vmull_n_u16(rh[h], c);
        const uint32x4_t cd = vmull_n_u16(dh[h], c);
        const uint32x4_t r32 = vmovl_u16(rh[h]);
        const uint32x4_t d32 = vmovl_u16(dh[h]);
        s.mu1[h] = vaddq_u32(s.mu1[h], cr);
        s.mu2[h] = vaddq_u32(s.mu2[h], cd);
        s.xx[h] = vmlaq_u32(s.xx[h], cr, r32);
        s.yy[h] = vmlaq_u32(s.yy[h], cd, d32);
        s.xy[h] = vmlaq_u32(s.xy[h], cr, d32);
    }
}

void stat_vertical_u8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                      const std::uint16_t* filter, int taps, int w, const VifStatRow& out) {
    int j = 0;
    for (; j + 8 <= w; j += 8) {
        Sums8 s;
        for (int h = 0; h < 2; ++h)
            s.mu1[h] = s.mu2[h] = s.xx[h] = s.yy[h] = s.xy[h] = vdupq_n_u32(0);
        for (int t = 0; t < taps; ++t) add_tap_u8(s, filter[t], ref_rows[t] + j, dis_rows[t] + j);
        const uint32x4_t round = vdupq_n_u32(128);
        for (int h = 0; h < 2; ++h) {
            const int o = j + 4 * h;
            // (mu + 128) >> 8 in uint32: the add wraps as the scalar's does.
            vst1q_u32(out.mu1 + o, vshrq_n_u32(vaddq_u32(s.mu1[h], round), 8));
            vst1q_u32(out.mu2 + o, vshrq_n_u32(vaddq_u32(s.mu2[h], round), 8));
            vst1q_u32(out.xx + o, s.xx[h]);
            vst1q_u32(out.yy + o, s.yy[h]);
            vst1q_u32(out.xy + o, s.xy[h]);
        }
    }
    if (j < w) {
        const ShiftedRows<std::uint8_t> r(ref_rows, taps, j), d(dis_rows, taps, j);
        vif_stat_vertical_u8(r.at, d.at, filter, taps, w - j, shifted(out, j));
    }
}

// ---------------------------------------------------------------------------
// Vertical statistics, 16-bit: four columns per step. Means as c * v (below
// 2^32) summed modulo 2^32; moments as the exact 64-bit (c v) * v summed in
// uint64 (17 taps of < 2^48 stay below 2^53), as the scalar's.

struct Sums16 {
    uint32x4_t mu1, mu2;
    uint64x2_t xx[2], yy[2], xy[2];
};

inline void add_tap_u16(Sums16& s, std::uint16_t c, const std::uint16_t* r,
                        const std::uint16_t* d) {
    const uint16x4_t rv = vld1_u16(r);
    const uint16x4_t dv = vld1_u16(d);
    const uint32x4_t cr = vmull_n_u16(rv, c);
    const uint32x4_t cd = vmull_n_u16(dv, c);
    const uint32x4_t r32 = vmovl_u16(rv);
    const uint32x4_t d32 = vmovl_u16(dv);
    s.mu1 = vaddq_u32(s.mu1, cr);
    s.mu2 = vaddq_u32(s.mu2, cd);
    s.xx[0] = vmlal_u32(s.xx[0], vget_low_u32(cr), vget_low_u32(r32));
    s.xx[1] = vmlal_high_u32(s.xx[1], cr, r32);
    s.yy[0] = vmlal_u32(s.yy[0], vget_low_u32(cd), vget_low_u32(d32));
    s.yy[1] = vmlal_high_u32(s.yy[1], cd, d32);
    s.xy[0] = vmlal_u32(s.xy[0], vget_low_u32(cr), vget_low_u32(d32));
    s.xy[1] = vmlal_high_u32(s.xy[1], cr, d32);
}

// (m + round) >> shift in uint64, kept to its low 32 bits (the scalar's cast).
inline uint32x4_t round_moment(const uint64x2_t m[2], uint64x2_t round, int64x2_t down) {
    return vcombine_u32(vmovn_u64(vshlq_u64(vaddq_u64(m[0], round), down)),
                        vmovn_u64(vshlq_u64(vaddq_u64(m[1], round), down)));
}

void stat_vertical_u16(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                       const std::uint16_t* filter, int taps, int w, int shift_mu, int shift_sq,
                       const VifStatRow& out) {
    const uint32x4_t round_mu = vdupq_n_u32(shift_mu == 0 ? 0u : 1u << (shift_mu - 1));
    const uint64x2_t round_sq =
        vdupq_n_u64(shift_sq == 0 ? 0u : std::uint64_t{1} << (shift_sq - 1));
    const int32x4_t down_mu = right_by(shift_mu);
    const int64x2_t down_sq = right_by64(shift_sq);
    const uint32x4_t low16 = vdupq_n_u32(0xFFFF);
    int j = 0;
    for (; j + 4 <= w; j += 4) {
        Sums16 s;
        s.mu1 = s.mu2 = vdupq_n_u32(0);
        for (int h = 0; h < 2; ++h) s.xx[h] = s.yy[h] = s.xy[h] = vdupq_n_u64(0);
        for (int t = 0; t < taps; ++t) add_tap_u16(s, filter[t], ref_rows[t] + j, dis_rows[t] + j);
        // The means' uint16 cast is libvmaf's.
        vst1q_u32(out.mu1 + j, vandq_u32(vshlq_u32(vaddq_u32(s.mu1, round_mu), down_mu), low16));
        vst1q_u32(out.mu2 + j, vandq_u32(vshlq_u32(vaddq_u32(s.mu2, round_mu), down_mu), low16));
        vst1q_u32(out.xx + j, round_moment(s.xx, round_sq, down_sq));
        vst1q_u32(out.yy + j, round_moment(s.yy, round_sq, down_sq));
        vst1q_u32(out.xy + j, round_moment(s.xy, round_sq, down_sq));
    }
    if (j < w) {
        const ShiftedRows<std::uint16_t> r(ref_rows, taps, j), d(dis_rows, taps, j);
        vif_stat_vertical_u16(r.at, d.at, filter, taps, w - j, shift_mu, shift_sq, shifted(out, j));
    }
}

// ---------------------------------------------------------------------------
// Horizontal statistics on padded rows, four columns per step. Means:
// c * mu modulo 2^32 summed in uint32 (the scalar's); moments: the exact
// c * m (vmlal_n_u32) summed in uint64. Then the scalar's roundings:
// (m1 m2 + 2^31) >> 32 of the exact uint64 product (below 2^64 - 2^32, so
// the rounding add cannot wrap) and (moment + 2^15) >> 16 (sums below 2^53),
// each kept to 32 bits; the differences in uint32, read as int32.

struct HSums {
    uint32x4_t mu1, mu2;
    uint64x2_t xx[2], yy[2], xy[2];
};

inline void add_tap_h(HSums& s, std::uint32_t c, const VifStatRow& in, std::ptrdiff_t o) {
    s.mu1 = vmlaq_n_u32(s.mu1, vld1q_u32(in.mu1 + o), c);
    s.mu2 = vmlaq_n_u32(s.mu2, vld1q_u32(in.mu2 + o), c);
    const uint32x4_t xx = vld1q_u32(in.xx + o);
    const uint32x4_t yy = vld1q_u32(in.yy + o);
    const uint32x4_t xy = vld1q_u32(in.xy + o);
    s.xx[0] = vmlal_n_u32(s.xx[0], vget_low_u32(xx), c);
    s.xx[1] = vmlal_high_n_u32(s.xx[1], xx, c);
    s.yy[0] = vmlal_n_u32(s.yy[0], vget_low_u32(yy), c);
    s.yy[1] = vmlal_high_n_u32(s.yy[1], yy, c);
    s.xy[0] = vmlal_n_u32(s.xy[0], vget_low_u32(xy), c);
    s.xy[1] = vmlal_high_n_u32(s.xy[1], xy, c);
}

// (a * b + 2^31) >> 32 of four uint32 pairs.
inline uint32x4_t product_q32(uint32x4_t a, uint32x4_t b) {
    return vcombine_u32(vrshrn_n_u64(vmull_u32(vget_low_u32(a), vget_low_u32(b)), 32),
                        vrshrn_n_u64(vmull_high_u32(a, b), 32));
}

// (m + 2^15) >> 16 of four uint64 sums, kept to 32 bits.
inline uint32x4_t moment_q16(const uint64x2_t m[2]) {
    return vcombine_u32(vrshrn_n_u64(m[0], 16), vrshrn_n_u64(m[1], 16));
}

void stat_horizontal(const VifStatRow& in, const std::uint16_t* filter, int taps, int w,
                     std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12) {
    const int half = taps / 2;
    int j = 0;
    for (; j + 4 <= w; j += 4) {
        HSums s;
        s.mu1 = s.mu2 = vdupq_n_u32(0);
        for (int h = 0; h < 2; ++h) s.xx[h] = s.yy[h] = s.xy[h] = vdupq_n_u64(0);
        for (int t = 0; t < taps; ++t) add_tap_h(s, filter[t], in, j + t - half);
        const uint32x4_t mu1_sq = product_q32(s.mu1, s.mu1);
        const uint32x4_t mu2_sq = product_q32(s.mu2, s.mu2);
        const uint32x4_t mu1_mu2 = product_q32(s.mu1, s.mu2);
        vst1q_s32(sigma1_sq + j, vreinterpretq_s32_u32(vsubq_u32(moment_q16(s.xx), mu1_sq)));
        vst1q_s32(sigma2_sq + j, vreinterpretq_s32_u32(vsubq_u32(moment_q16(s.yy), mu2_sq)));
        vst1q_s32(sigma12 + j, vreinterpretq_s32_u32(vsubq_u32(moment_q16(s.xy), mu1_mu2)));
    }
    if (j < w)
        vif_stat_horizontal(shifted(in, j), filter, taps, w - j, sigma1_sq + j, sigma2_sq + j,
                            sigma12 + j);
}

// ---------------------------------------------------------------------------
// The fused rows: the separate NEON kernels above through the scalar's
// definition (vif_stat_row_*_by), so the extractor's calls reach them.

const VifKernels& neon_table() { return vif_kernels_for(SimdLevel::neon); }

void stat_row_u8(const std::uint8_t* const* ref_rows, const std::uint8_t* const* dis_rows,
                 const std::uint16_t* filter, int taps, int w, std::uint32_t* scratch,
                 std::int32_t* sigma1_sq, std::int32_t* sigma2_sq, std::int32_t* sigma12,
                 const VifRowReduce* reduce) {
    vif_stat_row_u8_by(neon_table(), ref_rows, dis_rows, filter, taps, w, scratch, sigma1_sq,
                       sigma2_sq, sigma12, reduce);
}

void stat_row_u16(const std::uint16_t* const* ref_rows, const std::uint16_t* const* dis_rows,
                  const std::uint16_t* filter, int taps, int w, int shift_mu, int shift_sq,
                  std::uint32_t* scratch, std::int32_t* sigma1_sq, std::int32_t* sigma2_sq,
                  std::int32_t* sigma12) {
    vif_stat_row_u16_by(neon_table(), ref_rows, dis_rows, filter, taps, w, shift_mu, shift_sq,
                        scratch, sigma1_sq, sigma2_sq, sigma12);
}

// ---------------------------------------------------------------------------
// Reduction, vertical: c * v (below 2^32) summed modulo 2^32, then
// (uint16)((sum + round) >> shift), eight columns per step.

inline uint32x4_t reduce_lanes(uint32x4_t sum, uint32x4_t round, int32x4_t down) {
    return vandq_u32(vshlq_u32(vaddq_u32(sum, round), down), vdupq_n_u32(0xFFFF));
}

inline uint16x8_t load8(const std::uint8_t* p) { return vmovl_u8(vld1_u8(p)); }
inline uint16x8_t load8(const std::uint16_t* p) { return vld1q_u16(p); }

template <class T>
void subsample_vertical(const T* const* ref_rows, const T* const* dis_rows,
                        const std::uint16_t* filter, int taps, int w, int shift,
                        std::uint32_t* ref_out, std::uint32_t* dis_out) {
    const uint32x4_t round = vdupq_n_u32(shift == 0 ? 0u : 1u << (shift - 1));
    const int32x4_t down = right_by(shift);
    int j = 0;
    for (; j + 8 <= w; j += 8) {
        uint32x4_t r0 = vdupq_n_u32(0), r1 = r0, d0 = r0, d1 = r0;
        for (int t = 0; t < taps; ++t) {
            const std::uint16_t c = filter[t];
            const uint16x8_t rv = load8(ref_rows[t] + j);
            const uint16x8_t dv = load8(dis_rows[t] + j);
            r0 = vmlal_n_u16(r0, vget_low_u16(rv), c);
            r1 = vmlal_high_n_u16(r1, rv, c);
            d0 = vmlal_n_u16(d0, vget_low_u16(dv), c);
            d1 = vmlal_high_n_u16(d1, dv, c);
        }
        vst1q_u32(ref_out + j, reduce_lanes(r0, round, down));
        vst1q_u32(ref_out + j + 4, reduce_lanes(r1, round, down));
        vst1q_u32(dis_out + j, reduce_lanes(d0, round, down));
        vst1q_u32(dis_out + j + 4, reduce_lanes(d1, round, down));
    }
    if (j < w) {
        const ShiftedRows<T> r(ref_rows, taps, j), d(dis_rows, taps, j);
        if constexpr (sizeof(T) == 1)
            vif_subsample_vertical_u8(r.at, d.at, filter, taps, w - j, shift, ref_out + j,
                                      dis_out + j);
        else
            vif_subsample_vertical_u16(r.at, d.at, filter, taps, w - j, shift, ref_out + j,
                                       dis_out + j);
    }
}

// ---------------------------------------------------------------------------
// Reduction, horizontal, at the even columns: four outputs per step. For
// outputs j..j+3 the samples of taps t and t + 1 are the even and odd lanes
// of one de-interleaving load (vld2q_u32) from 2j - half + t, which reads
// up to the last sample tap t + 1 uses, never past it. A last odd tap's
// load reads one sample past the step's last use, which the next output
// still reads: with an odd tap count the steps stop one output early.
// Sums modulo 2^32 as the scalar's (inputs any uint32).

// (uint16)((sum + 2^15) >> 16) with the add in uint32, wrapping as the
// scalar's does (a rounding shift, vrshrq, would not wrap).
inline uint16x4_t reduce_h(uint32x4_t sum) {
    return vmovn_u32(vshrq_n_u32(vaddq_u32(sum, vdupq_n_u32(32768)), 16));
}

void subsample_horizontal(const std::uint32_t* ref_in, const std::uint32_t* dis_in,
                          const std::uint16_t* filter, int taps, int out_w,
                          std::uint16_t* ref_out, std::uint16_t* dis_out) {
    const int half = taps / 2;
    const int stop = (taps & 1) ? out_w - 1 : out_w;
    int j = 0;
    for (; j + 4 <= stop; j += 4) {
        const std::ptrdiff_t b = 2 * std::ptrdiff_t{j} - half;
        uint32x4_t sr = vdupq_n_u32(0), sd = sr;
        int t = 0;
        for (; t + 2 <= taps; t += 2) {
            const uint32x4x2_t r = vld2q_u32(ref_in + b + t);
            const uint32x4x2_t d = vld2q_u32(dis_in + b + t);
            sr = vmlaq_n_u32(vmlaq_n_u32(sr, r.val[0], filter[t]), r.val[1], filter[t + 1]);
            sd = vmlaq_n_u32(vmlaq_n_u32(sd, d.val[0], filter[t]), d.val[1], filter[t + 1]);
        }
        if (t < taps) {
            sr = vmlaq_n_u32(sr, vld2q_u32(ref_in + b + t).val[0], filter[t]);
            sd = vmlaq_n_u32(sd, vld2q_u32(dis_in + b + t).val[0], filter[t]);
        }
        vst1_u16(ref_out + j, reduce_h(sr));
        vst1_u16(dis_out + j, reduce_h(sd));
    }
    if (j < out_w)
        vif_subsample_horizontal(ref_in + 2 * std::ptrdiff_t{j}, dis_in + 2 * std::ptrdiff_t{j},
                                 filter, taps, out_w - j, ref_out + j, dis_out + j);
}

// ---------------------------------------------------------------------------
// Information terms (vif_accumulate), four pixels per step. The branches of
// the scalar become lane masks; the double arithmetic is the scalar's, in
// the same operations and order (float64x2 lanes, fp-contract off), and the
// log2 table has no gather here: the indices are computed in lanes and the
// entries read one lane at a time.

constexpr std::int32_t kSigmaNsq = 65536 << 1;

// The table entries at four indices (each below 32768).
inline int32x4_t table_at(const std::uint16_t* table, uint32x4_t idx) {
    int32x4_t r = vdupq_n_s32(table[vgetq_lane_u32(idx, 0)]);
    r = vsetq_lane_s32(table[vgetq_lane_u32(idx, 1)], r, 1);
    r = vsetq_lane_s32(table[vgetq_lane_u32(idx, 2)], r, 2);
    return vsetq_lane_s32(table[vgetq_lane_u32(idx, 3)], r, 3);
}

// log2_q11 of four uint32 in [2^15, 2^32): k = 16 - clz(v) dropped bits,
// the table at (v >> k) - 32768, plus 2048 k (the scalar's log2_q11).
inline int32x4_t log2_q11_u32(const std::uint16_t* table, uint32x4_t v) {
    const int32x4_t k = vsubq_s32(vdupq_n_s32(16), vreinterpretq_s32_u32(vclzq_u32(v)));
    const uint32x4_t idx = vsubq_u32(vshlq_u32(v, vnegq_s32(k)), vdupq_n_u32(32768));
    return vaddq_s32(table_at(table, idx), vshlq_n_s32(k, 11));
}

// log2_q11 of two integer doubles in [2^15, 2^53): their 16 leading bits
// are the implicit 1 and the top 15 mantissa bits (the index less 32768),
// and the dropped bit count is the exponent less 15 (the scalar's uint64
// log2_q11 of the same integers).
inline int64x2_t log2_q11_f64(const std::uint16_t* table, float64x2_t v) {
    const uint64x2_t bits = vreinterpretq_u64_f64(v);
    const uint64x2_t idx = vandq_u64(vshrq_n_u64(bits, 37), vdupq_n_u64(0x7FFF));
    const int64x2_t dropped =
        vsubq_s64(vreinterpretq_s64_u64(vshrq_n_u64(bits, 52)), vdupq_n_s64(1023 + 15));
    int64x2_t entry = vdupq_n_s64(table[vgetq_lane_u64(idx, 0)]);
    entry = vsetq_lane_s64(table[vgetq_lane_u64(idx, 1)], entry, 1);
    return vaddq_s64(entry, vshlq_n_s64(dropped, 11));
}

// The gain terms of two pixels (lanes of `need` set: the log branch with
// sigma12 > 0 and sigma2_sq > 0), as the scalar computes them:
//   g_raw = s12 / (s1 + eps), sv = s2 - g_raw * s12,
//   sv_sq = sv > 0 ? trunc(sv) : 0, g = g_raw < limit ? g_raw : limit,
//   numer1 = sv_sq + nsq, numer1_tmp = trunc(g * g * s1) + numer1.
// With |g| <= 1024 the product is below 2^51 and the sum below 2^52, so the
// int64 sum of the scalar is exact in a double. Lanes not needed get nsq as
// the argument (a harmless index) and 0 as the result.
inline int64x2_t gain_terms(const std::uint16_t* table, int32x2_t s1, int32x2_t s2, int32x2_t s12,
                            uint32x2_t need, float64x2_t limit) {
    const float64x2_t eps = vdupq_n_f64(65536 * 1.0e-10);
    const float64x2_t zero = vdupq_n_f64(0.0);
    const float64x2_t s1d = vcvtq_f64_s64(vmovl_s32(s1));
    const float64x2_t s2d = vcvtq_f64_s64(vmovl_s32(s2));
    const float64x2_t s12d = vcvtq_f64_s64(vmovl_s32(s12));
    const float64x2_t g_raw = vdivq_f64(s12d, vaddq_f64(s1d, eps));
    const float64x2_t sv = vsubq_f64(s2d, vmulq_f64(g_raw, s12d));
    const float64x2_t sv_sq = vbslq_f64(vcgtq_f64(sv, zero), vrndq_f64(sv), zero);
    const float64x2_t g = vbslq_f64(vcltq_f64(g_raw, limit), g_raw, limit);
    const float64x2_t nsq = vdupq_n_f64(static_cast<double>(kSigmaNsq));
    const float64x2_t numer1 = vaddq_f64(sv_sq, nsq);
    const float64x2_t product = vrndq_f64(vmulq_f64(vmulq_f64(g, g), s1d));
    const float64x2_t numer1_tmp = vaddq_f64(product, numer1);
    const uint64x2_t mask = vreinterpretq_u64_s64(vmovl_s32(vreinterpret_s32_u32(need)));
    const int64x2_t diff = vsubq_s64(log2_q11_f64(table, vbslq_f64(mask, numer1_tmp, nsq)),
                                     log2_q11_f64(table, vbslq_f64(mask, numer1, nsq)));
    return vandq_s64(diff, vreinterpretq_s64_u64(mask));
}

struct AccumulateLanes {
    int64x2_t num_log = vdupq_n_s64(0);
    int64x2_t den_log = vdupq_n_s64(0);
    int64x2_t num_non_log = vdupq_n_s64(0);
    int32x4_t den_non_log = vdupq_n_s32(0);  // minus the count per lane
};

// Four pixels; lanes of `valid` clear are ignored.
inline void accumulate4(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                        const std::int32_t* sigma12, uint32x4_t valid, const std::uint16_t* table,
                        float64x2_t limit, AccumulateLanes& acc) {
    const int32x4_t zero = vdupq_n_s32(0);
    const int32x4_t nsq = vdupq_n_s32(kSigmaNsq);
    const int32x4_t s1 = vld1q_s32(sigma1_sq);
    const int32x4_t s2 = vmaxq_s32(vld1q_s32(sigma2_sq), zero);
    const int32x4_t s12 = vld1q_s32(sigma12);
    const uint32x4_t low = vandq_u32(vcltq_s32(s1, nsq), valid);
    const uint32x4_t in_log = vbicq_u32(valid, low);

    // sigma1_sq < nsq: sigma2_sq and a count.
    const int32x4_t s2_low = vandq_s32(s2, vreinterpretq_s32_u32(low));
    acc.num_non_log = vaddw_high_s32(vaddw_s32(acc.num_non_log, vget_low_s32(s2_low)), s2_low);
    acc.den_non_log = vaddq_s32(acc.den_non_log, vreinterpretq_s32_u32(low));

    // Otherwise log2(nsq + sigma1_sq) - 17 (both Q11); nsq + s1 < 2^32.
    const uint32x4_t v = vbslq_u32(in_log, vreinterpretq_u32_s32(vaddq_s32(nsq, s1)),
                                   vreinterpretq_u32_s32(nsq));
    const int32x4_t den = vandq_s32(vsubq_s32(log2_q11_u32(table, v), vdupq_n_s32(2048 * 17)),
                                    vreinterpretq_s32_u32(in_log));
    acc.den_log = vaddw_high_s32(vaddw_s32(acc.den_log, vget_low_s32(den)), den);

    const uint32x4_t need =
        vandq_u32(in_log, vandq_u32(vcgtq_s32(s12, zero), vcgtq_s32(s2, zero)));
    if (vgetq_lane_u64(vreinterpretq_u64_u32(need), 0))
        acc.num_log = vaddq_s64(acc.num_log, gain_terms(table, vget_low_s32(s1), vget_low_s32(s2),
                                                        vget_low_s32(s12), vget_low_u32(need),
                                                        limit));
    if (vgetq_lane_u64(vreinterpretq_u64_u32(need), 1))
        acc.num_log = vaddq_s64(acc.num_log, gain_terms(table, vget_high_s32(s1), vget_high_s32(s2),
                                                        vget_high_s32(s12), vget_high_u32(need),
                                                        limit));
}

void accumulate(const std::int32_t* sigma1_sq, const std::int32_t* sigma2_sq,
                const std::int32_t* sigma12, int w, const std::uint16_t* log2_q11_table,
                double gain_limit, VifSums* sums) {
    // Beyond |g| <= 1024 the gain product may not be exact in a double: the
    // scalar's int64 arithmetic is the reference there (the extractor's
    // limit is at most 100). A NaN limit goes there too.
    if (!(gain_limit <= 1024.0 && gain_limit >= -1024.0)) {
        vif_accumulate(sigma1_sq, sigma2_sq, sigma12, w, log2_q11_table, gain_limit, sums);
        return;
    }
    const float64x2_t limit = vdupq_n_f64(gain_limit);
    AccumulateLanes acc;
    int j = 0;
    for (; j + 4 <= w; j += 4)
        accumulate4(sigma1_sq + j, sigma2_sq + j, sigma12 + j, vdupq_n_u32(~0u), log2_q11_table,
                    limit, acc);
    if (j < w) {
        const int n = w - j;
        std::int32_t a[4] = {}, b[4] = {}, c[4] = {};
        for (int i = 0; i < n; ++i) {
            a[i] = sigma1_sq[j + i];
            b[i] = sigma2_sq[j + i];
            c[i] = sigma12[j + i];
        }
        const std::int32_t lanes[4] = {0, 1, 2, 3};
        const uint32x4_t valid = vcltq_s32(vld1q_s32(lanes), vdupq_n_s32(n));
        accumulate4(a, b, c, valid, log2_q11_table, limit, acc);
    }
    sums->num_log += vaddvq_s64(acc.num_log);
    sums->den_log += vaddvq_s64(acc.den_log);
    sums->num_non_log += vaddvq_s64(acc.num_non_log);
    sums->den_non_log -= vaddlvq_s32(acc.den_non_log);
}

}  // namespace

// Every VIF kernel has a twin at this level (VifKernels order).
void vif_init_neon(VifKernels& k) {
    k = VifKernels{
        stat_vertical_u8,
        stat_vertical_u16,
        stat_horizontal,
        stat_row_u8,
        stat_row_u16,
        accumulate,
        subsample_vertical<std::uint8_t>,
        subsample_vertical<std::uint16_t>,
        subsample_horizontal,
    };
}

}  // namespace vmafpp::vif
