// NEON twins of the motion kernels (AArch64 Advanced SIMD, part of every
// ARMv8-A CPU: this file needs no -m flag and is built only for AArch64).
// Each returns the scalar kernel's integers bit for bit on any input the
// scalar defines. The fused frame is motion_frame_loop.hpp's (sad_int16),
// instantiated with the `Neon` policy below; the general path's passes
// (diff_vertical, abs_sum_int32) are defined here. Columns that do not fill
// a vector are finished by the scalar kernels themselves (general path) or
// through zero-filled copies (fused frame), so no input is read past a row's
// end. No standard-library template is used (see motion_frame_loop.hpp).
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "motion/motion_frame_loop.hpp"
#include "motion/motion_kernels.hpp"

namespace vmafpp::motion {

namespace {

static_assert(kTaps == 5, "the passes below name the five taps");
// Every tap is below 2^15: it is also a positive int16 (vmull_n_s16).
static_assert(kFilter[0] < 32768 && kFilter[1] < 32768 && kFilter[2] < 32768,
              "taps must be positive int16");
constexpr std::int16_t kC0 = static_cast<std::int16_t>(kFilter[0]);
constexpr std::int16_t kC1 = static_cast<std::int16_t>(kFilter[1]);
constexpr std::int16_t kC2 = static_cast<std::int16_t>(kFilter[2]);
constexpr std::int16_t kC3 = static_cast<std::int16_t>(kFilter[3]);
constexpr std::int16_t kC4 = static_cast<std::int16_t>(kFilter[4]);

// ---------------------------------------------------------------------------
// The general path (any row the fused frame cannot take, and 15/16-bit
// samples): the scalar's int32 rows, 8 (vertical) or 4 (horizontal)
// columns per step.

// Columns [j, w) of a vertical pass by the scalar kernel itself.
template <class T, class Scalar>
std::int32_t scalar_columns(const T* const* prev_rows, const T* const* cur_rows, int j, int w,
                            std::int32_t* out, Scalar scalar) {
    if (j >= w) return 0;
    const T* p[kTaps];
    const T* c[kTaps];
    for (int k = 0; k < kTaps; ++k) {
        p[k] = prev_rows[k] + j;
        c[k] = cur_rows[k] + j;
    }
    return scalar(p, c, w - j, out + j);
}

// The bitwise OR of the four lanes (the vertical passes' return value).
inline std::int32_t or_lanes(int32x4_t v) {
    return vgetq_lane_s32(v, 0) | vgetq_lane_s32(v, 1) | vgetq_lane_s32(v, 2) |
           vgetq_lane_s32(v, 3);
}

// 8-bit: differences fit int16 and the taps are positive int16, so the
// widening multiply-adds are exact; |sum| <= 65536 * 255 < 2^24 in int32, as
// in the scalar. vrshrq_n_s32(x, 8) is (x + 2^7) >> 8 with an arithmetic
// shift (floor), the scalar's expression, without an intermediate overflow.
std::int32_t diff_vertical(const std::uint8_t* const* prev_rows,
                           const std::uint8_t* const* cur_rows, int w, int /*bpc*/,
                           std::int32_t* out) {
    int32x4_t any = vdupq_n_s32(0);
    int j = 0;
    for (; j + 8 <= w; j += 8) {
        int16x8_t d[kTaps];
        for (int k = 0; k < kTaps; ++k)
            d[k] = vreinterpretq_s16_u16(vsubl_u8(vld1_u8(prev_rows[k] + j), vld1_u8(cur_rows[k] + j)));
        int32x4_t lo = vmull_n_s16(vget_low_s16(d[0]), kC0);
        int32x4_t hi = vmull_high_n_s16(d[0], kC0);
        lo = vmlal_n_s16(lo, vget_low_s16(d[1]), kC1);
        hi = vmlal_high_n_s16(hi, d[1], kC1);
        lo = vmlal_n_s16(lo, vget_low_s16(d[2]), kC2);
        hi = vmlal_high_n_s16(hi, d[2], kC2);
        lo = vmlal_n_s16(lo, vget_low_s16(d[3]), kC3);
        hi = vmlal_high_n_s16(hi, d[3], kC3);
        lo = vmlal_n_s16(lo, vget_low_s16(d[4]), kC4);
        hi = vmlal_high_n_s16(hi, d[4], kC4);
        lo = vrshrq_n_s32(lo, 8);
        hi = vrshrq_n_s32(hi, 8);
        vst1q_s32(out + j, lo);
        vst1q_s32(out + j + 4, hi);
        any = vorrq_s32(any, vorrq_s32(lo, hi));
    }
    return or_lanes(any) |
           scalar_columns(prev_rows, cur_rows, j, w, out,
                          [](const std::uint8_t* const* p, const std::uint8_t* const* c, int n,
                             std::int32_t* o) { return motion_diff_vertical_u8(p, c, n, o); });
}

// 9..16 bits. The scalar's 64-bit sum(c * (p - q)) is P - Q with
// P = sum(c * p) and Q = sum(c * q), each at most 65536 * 65535 (the taps
// sum to 65536): exact in uint32, and so is P' = P + 2^(bpc-1). With
// P' = Ph 2^bpc + Pl and Q = Qh 2^bpc + Ql, floor((P' - Q) / 2^bpc) is
// Ph - Qh, less one when Pl < Ql (|Pl - Ql| < 2^bpc); the result lies within
// 2^32 / 2^9 of zero, so int32 holds it as the scalar's cast does.
std::int32_t diff_vertical(const std::uint16_t* const* prev_rows,
                           const std::uint16_t* const* cur_rows, int w, int bpc,
                           std::int32_t* out) {
    const int32x4_t down = vdupq_n_s32(-bpc);
    const uint32x4_t round = vdupq_n_u32(1u << (bpc - 1));
    const uint32x4_t low_mask = vdupq_n_u32((1u << bpc) - 1u);
    int32x4_t any = vdupq_n_s32(0);
    int j = 0;
    for (; j + 4 <= w; j += 4) {
        uint32x4_t p = round, q = vdupq_n_u32(0);
        for (int k = 0; k < kTaps; ++k) {
            p = vmlal_n_u16(p, vld1_u16(prev_rows[k] + j), kFilter[k]);
            q = vmlal_n_u16(q, vld1_u16(cur_rows[k] + j), kFilter[k]);
        }
        const int32x4_t high = vsubq_s32(vreinterpretq_s32_u32(vshlq_u32(p, down)),
                                         vreinterpretq_s32_u32(vshlq_u32(q, down)));
        // All ones (-1) where the low part of Q exceeds that of P'.
        const int32x4_t borrow =
            vreinterpretq_s32_u32(vcgtq_u32(vandq_u32(q, low_mask), vandq_u32(p, low_mask)));
        const int32x4_t v = vaddq_s32(high, borrow);
        vst1q_s32(out + j, v);
        any = vorrq_s32(any, v);
    }
    return or_lanes(any) | scalar_columns(prev_rows, cur_rows, j, w, out,
                                          [bpc](const std::uint16_t* const* p,
                                                const std::uint16_t* const* c, int n,
                                                std::int32_t* o) {
                                              return motion_diff_vertical_u16(p, c, n, bpc, o);
                                          });
}

// |(sum(c * row[j - 2 + k]) + 2^15) >> 16| of 4 columns in uint32 lanes. The
// rows of the general path lie within 2^32 / 2^8 of zero, so each product
// needs up to 39 bits: int64 lanes (vmull_n_s32). vrshrq_n_s64(x, 16) is
// (x + 2^15) >> 16 with an arithmetic shift, and vmovn_s64 keeps the low 32
// bits, the scalar's cast to int32.
inline uint32x4_t abs_filtered_step(const std::int32_t* row) {
    int32x4_t r[kTaps];
    for (int k = 0; k < kTaps; ++k) r[k] = vld1q_s32(row - kRadius + k);
    int64x2_t lo = vmull_n_s32(vget_low_s32(r[0]), kFilter[0]);
    int64x2_t hi = vmull_high_n_s32(r[0], kFilter[0]);
    for (int k = 1; k < kTaps; ++k) {
        lo = vmlal_n_s32(lo, vget_low_s32(r[k]), kFilter[k]);
        hi = vmlal_high_n_s32(hi, r[k], kFilter[k]);
    }
    const int32x4_t v = vcombine_s32(vmovn_s64(vrshrq_n_s64(lo, 16)), vmovn_s64(vrshrq_n_s64(hi, 16)));
    return vreinterpretq_u32_s32(vabsq_s32(v));
}

template <class T>
std::uint32_t abs_sum_int32(const std::int32_t* row, int w) {
    // uint32 lanes: the scalar's uint32 sum wraps, and wrapping addition does
    // not depend on the order.
    uint32x4_t sum = vdupq_n_u32(0);
    int j = 0;
    for (; j + 4 <= w; j += 4) sum = vaddq_u32(sum, abs_filtered_step(row + j));
    std::uint32_t total = vaddvq_u32(sum);
    // The last columns read row[j - 2, w + 2), which the row holds (padded).
    if (j < w) total += motion_abs_sum_horizontal(row + j, w - j);
    return total;
}

// ---------------------------------------------------------------------------
// The fused frame (8-bit, and 9- to 14-bit samples below 2^14): 16 columns
// per step, int32 lanes in pairs of vectors (lanes 0-3, 4-7).

using Vec = int32x4x2_t;

inline Vec vec_or(Vec a, Vec b) {
    return {{vorrq_s32(a.val[0], b.val[0]), vorrq_s32(a.val[1], b.val[1])}};
}

// The int16 vertical pass y = (sum + 2^(s-1)) >> s of motion_frame_loop.hpp
// (its VerticalShift comment proves the form): e = sum + 2^(s-1) + 2^(s+15)
// lies in [0, 2^(s+16)) exactly when y lies in int16, and then e >> s
// (logical) is y + 2^15.
struct Shift {
    explicit Shift(int s)
        : bias(vdupq_n_s32((1 << (s - 1)) + (1 << (s + 15)))),
          outside(vdupq_n_u32(~((1u << (s + 16)) - 1u))),
          down(vdupq_n_s32(-s)) {}
    int32x4_t bias;
    uint32x4_t outside;  // the bits that put y outside int16
    int32x4_t down;      // shift right by s
};

// d[0, 16) = p - c; c copied to keep unless it is null; `wide` collects the
// 16-bit samples' bits (d is exact in int16 when none reaches 2^14; 8-bit
// differences always are).
inline void diff16(const std::uint8_t* p, const std::uint8_t* c, std::int16_t* d,
                   std::uint8_t* keep, Vec& /*wide*/) {
    const uint8x16_t pv = vld1q_u8(p);
    const uint8x16_t cv = vld1q_u8(c);
    if (keep) vst1q_u8(keep, cv);
    vst1q_s16(d, vreinterpretq_s16_u16(vsubl_u8(vget_low_u8(pv), vget_low_u8(cv))));
    vst1q_s16(d + 8, vreinterpretq_s16_u16(vsubl_high_u8(pv, cv)));
}
inline void diff16(const std::uint16_t* p, const std::uint16_t* c, std::int16_t* d,
                   std::uint16_t* keep, Vec& wide) {
    const uint16x8_t p0 = vld1q_u16(p), p1 = vld1q_u16(p + 8);
    const uint16x8_t c0 = vld1q_u16(c), c1 = vld1q_u16(c + 8);
    if (keep) {
        vst1q_u16(keep, c0);
        vst1q_u16(keep + 8, c1);
    }
    wide = vec_or(wide, {{vreinterpretq_s32_u16(vorrq_u16(p0, c0)),
                          vreinterpretq_s32_u16(vorrq_u16(p1, c1))}});
    vst1q_s16(d, vreinterpretq_s16_u16(vsubq_u16(p0, c0)));
    vst1q_s16(d + 8, vreinterpretq_s16_u16(vsubq_u16(p1, c1)));
}

// Eight columns of y: the symmetric taps pair d0 + d4 and d1 + d3 (each
// within 2^15 of zero for |d| < 2^14), and the widening multiply-adds by
// positive int16 taps give |sum| < 65536 * 2^14 = 2^30, exact in int32;
// e adds under 2^29 + 2^13 more, still below 2^31.
inline uint16x8_t vertical8(const std::int16_t* const* d, std::ptrdiff_t j, const Shift& sh,
                            int32x4_t& bits) {
    const int16x8_t d2 = vld1q_s16(d[2] + j);
    const int16x8_t s04 = vaddq_s16(vld1q_s16(d[0] + j), vld1q_s16(d[4] + j));
    const int16x8_t s13 = vaddq_s16(vld1q_s16(d[1] + j), vld1q_s16(d[3] + j));
    int32x4_t lo = vmlal_n_s16(sh.bias, vget_low_s16(s04), kC0);
    int32x4_t hi = vmlal_high_n_s16(sh.bias, s04, kC0);
    lo = vmlal_n_s16(lo, vget_low_s16(s13), kC1);
    hi = vmlal_high_n_s16(hi, s13, kC1);
    lo = vmlal_n_s16(lo, vget_low_s16(d2), kC2);
    hi = vmlal_high_n_s16(hi, d2, kC2);
    bits = vorrq_s32(bits, vorrq_s32(lo, hi));
    // e >> s is y + 2^15 when y fits (else the row is not used): its low 16
    // bits with the top bit flipped are y.
    const uint16x8_t biased = vcombine_u16(vmovn_u32(vshlq_u32(vreinterpretq_u32_s32(lo), sh.down)),
                                           vmovn_u32(vshlq_u32(vreinterpretq_u32_s32(hi), sh.down)));
    return veorq_u16(biased, vdupq_n_u16(0x8000));
}

// |(sum + 2^15) >> 16| of the 8 outputs whose first tap pair is s[0, 1]
// (outputs at s + 2t, t < 8): vld2q splits even and odd samples, so output
// t is c0 e[t] + c1 o[t] + c2 e[t+1] + c3 o[t+1] + c4 e[t+2]. The samples
// lie in [-2^15, 2^15) and the taps are positive with sum 65536, so every
// partial sum from 2^15 up lies in [-2^31 + 2^15, 2^31 - 2^15]: int32 holds
// the scalar's int64 sum exactly; >> 16 of it is in [-2^15, 2^15), whose
// absolute value cannot overflow.
inline Vec abs_filtered_pairs8(const std::int16_t* s) {
    const int16x8x2_t a = vld2q_s16(s);
    const int16x8x2_t b = vld2q_s16(s + 2);
    const int16x8_t e2 = vld2q_s16(s + 4).val[0];
    const int32x4_t half = vdupq_n_s32(32768);
    int32x4_t lo = vmlal_n_s16(half, vget_low_s16(a.val[0]), kC0);
    int32x4_t hi = vmlal_high_n_s16(half, a.val[0], kC0);
    lo = vmlal_n_s16(lo, vget_low_s16(a.val[1]), kC1);
    hi = vmlal_high_n_s16(hi, a.val[1], kC1);
    lo = vmlal_n_s16(lo, vget_low_s16(b.val[0]), kC2);
    hi = vmlal_high_n_s16(hi, b.val[0], kC2);
    lo = vmlal_n_s16(lo, vget_low_s16(b.val[1]), kC3);
    hi = vmlal_high_n_s16(hi, b.val[1], kC3);
    lo = vmlal_n_s16(lo, vget_low_s16(e2), kC4);
    hi = vmlal_high_n_s16(hi, e2, kC4);
    return {{vabsq_s32(vshrq_n_s32(lo, 16)), vabsq_s32(vshrq_n_s32(hi, 16))}};
}

// The fused frame's passes for motion_frame_loop.hpp: kStep int16 columns
// per step, Vec the kStep / 2 int32 lanes of one parity of outputs.
struct Neon {
    using Vec = motion::Vec;
    using Shift = motion::Shift;
    static constexpr int kStep = 16;
    static Vec zero() { return {{vdupq_n_s32(0), vdupq_n_s32(0)}}; }
    static Vec set1(int v) { return {{vdupq_n_s32(v), vdupq_n_s32(v)}}; }
    static void store(std::int16_t* p, Vec v) {
        vst1q_s16(p, vreinterpretq_s16_s32(v.val[0]));
        vst1q_s16(p + 8, vreinterpretq_s16_s32(v.val[1]));
    }
    static Vec add(Vec a, Vec b) {
        return {{vaddq_s32(a.val[0], b.val[0]), vaddq_s32(a.val[1], b.val[1])}};
    }
    // b's lanes [0, n) added to a's.
    static Vec add_first(Vec a, int n, Vec b) {
        static constexpr std::int32_t kLane[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        const int32x4_t nv = vdupq_n_s32(n);
        const uint32x4_t m0 = vcltq_s32(vld1q_s32(kLane), nv);
        const uint32x4_t m1 = vcltq_s32(vld1q_s32(kLane + 4), nv);
        return add(a, {{vandq_s32(b.val[0], vreinterpretq_s32_u32(m0)),
                        vandq_s32(b.val[1], vreinterpretq_s32_u32(m1))}});
    }
    static std::uint32_t sum_lanes(Vec v) {
        return vaddvq_u32(vaddq_u32(vreinterpretq_u32_s32(v.val[0]), vreinterpretq_u32_s32(v.val[1])));
    }
    // d[j, j + 16) = p - c of the n <= 16 columns from j, 0 past them: a
    // partial step works on zero-filled copies, never reading past the row.
    template <class T>
    static void diff_step(const T* p, const T* c, int j, int n, std::int16_t* d, T* keep,
                          Vec& wide) {
        if (n == kStep) {
            diff16(p + j, c + j, d + j, keep ? keep + j : nullptr, wide);
            return;
        }
        T pt[kStep] = {}, ct[kStep] = {};
        std::memcpy(pt, p + j, n * sizeof(T));
        std::memcpy(ct, c + j, n * sizeof(T));
        if (keep) std::memcpy(keep + j, ct, n * sizeof(T));
        diff16(pt, ct, d + j, static_cast<T*>(nullptr), wide);
    }
    // No 16-bit sample reached 2^14.
    static bool narrow(Vec wide) {
        const uint16x8_t w16 = vreinterpretq_u16_s32(vorrq_s32(wide.val[0], wide.val[1]));
        return vmaxvq_u16(vandq_u16(w16, vdupq_n_u16(0xC000))) == 0;
    }
    static void vertical_step(const std::int16_t* const* d, int j, std::int16_t* y,
                              const Shift& sh, Vec& bits, Vec& any) {
        const uint16x8_t y0 = vertical8(d, j, sh, bits.val[0]);
        const uint16x8_t y1 = vertical8(d, j + 8, sh, bits.val[1]);
        vst1q_s16(y + j, vreinterpretq_s16_u16(y0));
        vst1q_s16(y + j + 8, vreinterpretq_s16_u16(y1));
        any = vec_or(any, {{vreinterpretq_s32_u16(y0), vreinterpretq_s32_u16(y1)}});
    }
    static bool fits(Vec bits, const Shift& sh) {
        const uint32x4_t b = vreinterpretq_u32_s32(vorrq_s32(bits.val[0], bits.val[1]));
        return vmaxvq_u32(vandq_u32(b, sh.outside)) == 0;
    }
    static bool nonzero(Vec any) {
        return vmaxvq_u32(vreinterpretq_u32_s32(vorrq_s32(any.val[0], any.val[1]))) != 0;
    }
    static Vec abs_filtered_pairs(const std::int16_t* s) { return abs_filtered_pairs8(s); }
    // No wide tier (motion_frame_loop.hpp) yet: rows with y outside int16
    // take the general path.
    static constexpr bool kWide = false;
    struct WideShift {
        explicit WideShift(int) {}
    };
};

}  // namespace

void motion_init_neon(MotionKernels& k) { fill_kernels<Neon>(k); }

}  // namespace vmafpp::motion
