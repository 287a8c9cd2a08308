// NEON twins of the cambi kernels (AArch64 Advanced SIMD): the integer
// kernels of cambi_lanes_loop.hpp over 8 16-bit lanes (histogram counts and
// scans, mode filter, spatial mask, decimation, conversion of 8-bit luma),
// and here the c-values of a row 4 pixels at a time (the histogram cells
// loaded lane by lane: NEON has no gather) and the pooling sums of a row 4
// values at a time. The c-values are the scalar's float operations, lane
// by lane, no fused multiply-add; the other kernels are integer: the twins
// compute the scalar's values exactly, edges and tails by the scalar's code.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_lanes_loop.hpp"

namespace vmafpp::cambi {

namespace {

// Lane i's bit, to turn an all-ones/all-zeros lane mask into a bit mask.
alignas(16) const std::uint16_t kLaneBits16[8] = {1, 2, 4, 8, 16, 32, 64, 128};

// cambi_lanes_loop.hpp's vector: 8 samples in a q register; masks are
// vectors.
struct NeonLanes {
    static constexpr int kLanes = 8;
    using V = uint16x8_t;
    static V load(const std::uint16_t* p) { return vld1q_u16(p); }
    static void store(std::uint16_t* p, V v) { vst1q_u16(p, v); }
    static V set(std::uint16_t x) { return vdupq_n_u16(x); }
#define VMAFPP_CAMBI_NEON_BINARY(op, intrinsic) \
    static V op(V a, V b) { return intrinsic(a, b); }
    VMAFPP_CAMBI_NEON_BINARY(add, vaddq_u16) VMAFPP_CAMBI_NEON_BINARY(sub, vsubq_u16)
    VMAFPP_CAMBI_NEON_BINARY(eq, vceqq_u16) VMAFPP_CAMBI_NEON_BINARY(min, vminq_u16)
    VMAFPP_CAMBI_NEON_BINARY(gt, vcgtq_u16) VMAFPP_CAMBI_NEON_BINARY(band, vandq_u16)
    VMAFPP_CAMBI_NEON_BINARY(bor, vorrq_u16)
#undef VMAFPP_CAMBI_NEON_BINARY
    static V select(V m, V a, V b) { return vbslq_u16(m, a, b); }
    static V widen(const std::uint8_t* p) { return vmovl_u8(vld1_u8(p)); }
    static V evens(const std::uint16_t* p) { return vld2q_u16(p).val[0]; }
    static std::uint32_t bits(V m) { return vaddvq_u16(vandq_u16(m, vld1q_u16(kLaneBits16))); }
};

struct NeonIsa : CountLanes<NeonLanes> {
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w,
                    const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                    float* out);
    static void sums(const float* row, int n, CValueSums& sums);
};

// c_value_sums_scalar 4 values at a time. A lane in [0.5, 65536) (ordered
// compares: NaN is out) gives u = v * 2^24, exact in float (a power-of-two
// scale that stays finite) and an integer in [2^23, 2^40), exact in double
// and converted to int64 exactly; other lanes give 0.
void c_value_sums_neon(const float* row, int n, CValueSums& sums) {
    const float32x4_t half = vdupq_n_f32(0.5f);
    const float32x4_t top = vdupq_n_f32(65536.0f);
    const float32x4_t scale = vdupq_n_f32(16777216.0f);
    int64x2_t acc = vdupq_n_s64(0);
    std::int64_t nonzero = 0;
    uint32x4_t outside = vdupq_n_u32(0);
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        const float32x4_t v = vld1q_f32(row + i);
        const uint32x4_t bits = vreinterpretq_u32_f32(v);
        // Most c-values are 0 (unmasked pixels): 4 whose bits are all zero
        // (+0; -0 and anything else go on) change nothing.
        if (vmaxvq_u32(bits) == 0) continue;
        const uint32x4_t in = vandq_u32(vcgeq_f32(v, half), vcltq_f32(v, top));
        const uint32x4_t nz = vmvnq_u32(vceqzq_f32(v));  // NaN counts
        nonzero += vaddvq_u32(vshrq_n_u32(nz, 31));
        outside = vorrq_u32(outside, vbicq_u32(nz, in));
        const float32x4_t u =
            vreinterpretq_f32_u32(vandq_u32(vreinterpretq_u32_f32(vmulq_f32(v, scale)), in));
        acc = vaddq_s64(acc, vcvtq_s64_f64(vcvt_f64_f32(vget_low_f32(u))));
        acc = vaddq_s64(acc, vcvtq_s64_f64(vcvt_high_f64_f32(u)));
    }
    std::int64_t units = vgetq_lane_s64(acc, 0) + vgetq_lane_s64(acc, 1);
    bool in_range = vmaxvq_u32(outside) == 0;
    c_value_sums_steps(row, i, n, units, nonzero, in_range);
    fold_c_value_sums(sums, units, nonzero, in_range);
}

// Histogram cells hist[at[i]] of the lanes whose mask is set, 0 elsewhere
// (a lane whose test fails loads nothing).
inline uint32x4_t cells(const std::uint16_t* hist, int32x4_t at, uint32x4_t live) {
    std::int32_t i[4];
    std::uint32_t m[4], v[4];
    vst1q_s32(i, at);
    vst1q_u32(m, live);
    for (int k = 0; k < 4; ++k) v[k] = m[k] ? hist[i[k]] : 0u;
    return vld1q_u32(v);
}

// recip[idx[i]] of the lanes whose mask is set, 0 elsewhere.
inline float32x4_t reciprocals(const float* recip, uint32x4_t idx, uint32x4_t live) {
    std::uint32_t i[4], m[4];
    float v[4];
    vst1q_u32(i, idx);
    vst1q_u32(m, live);
    for (int k = 0; k < 4; ++k) v[k] = m[k] ? recip[i[k]] : 0.0f;
    return vld1q_f32(v);
}

// c_values_row for 4 pixels at a time, each lane c_value_pixel's steps:
// the histogram counts loaded lane by lane, the product weight * p0 * p in
// int32 (counts are at most window^2 <= 4225 and weights at most 9: below
// 2^31), converted to float as static_cast does, times the reciprocal, and
// the running maximum taken where val > c.
void c_values_row_neon(const std::uint16_t* image, const std::uint16_t* mask, int w,
                       const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                       float* out) {
    alignas(16) static const std::int32_t kLanes[4] = {0, 1, 2, 3};
    const int32x4_t lanes = vld1q_s32(kLanes);
    const int32x4_t band_base = vdupq_n_s32(s.band_base);
    const int32x4_t band_size = vdupq_n_s32(s.band_size);
    const int32x4_t nd = vdupq_n_s32(s.num_diffs);
    const int32x4_t vlt = vdupq_n_s32(s.vlt_luma);
    const int32x4_t width = vdupq_n_s32(w);
    int x = 0;
    for (; x + 4 <= w; x += 4) {
        const uint32x4_t m = vmovl_u16(vld1_u16(mask + x));
        const int32x4_t img = vreinterpretq_s32_u32(vmovl_u16(vld1_u16(image + x)));
        const int32x4_t compact = vsubq_s32(img, band_base);
        const uint32x4_t valid =
            vandq_u32(vtstq_u32(m, m),
                      vandq_u32(vcgeq_s32(compact, vdupq_n_s32(0)), vcgtq_s32(band_size, compact)));
        if (vmaxvq_u32(valid) == 0) {
            vst1q_f32(out + x, vdupq_n_f32(0.0f));
            continue;
        }
        const int32x4_t v = vaddq_s32(img, nd);
        const int32x4_t at = vaddq_s32(vmulq_s32(compact, width), vaddq_s32(lanes, vdupq_n_s32(x)));
        const uint32x4_t p0 = cells(hist, at, valid);
        float32x4_t c = vdupq_n_f32(0.0f);
        for (int d = 0; d < s.num_diffs; ++d) {
            // Scored where v <= tvi[d] and v + d + 1 > vlt (c_value_pixel's skip, negated).
            const uint32x4_t tested =
                vandq_u32(valid, vandq_u32(vcleq_s32(v, vdupq_n_s32(s.tvi[d])),
                                           vcgtq_s32(vaddq_s32(v, vdupq_n_s32(d + 1)), vlt)));
            if (vmaxvq_u32(tested) == 0) continue;
            const int32x4_t step = vdupq_n_s32((d + 1) * w);
            const uint32x4_t p1 = cells(hist, vaddq_s32(at, step), tested);
            // compact - d - 1 >= 0
            const uint32x4_t below = vandq_u32(tested, vcgtq_s32(compact, vdupq_n_s32(d)));
            const uint32x4_t p2 = cells(hist, vsubq_s32(at, step), below);
            const uint32x4_t p = vmaxq_u32(p1, p2);
            const int32x4_t prod = vreinterpretq_s32_u32(
                vmulq_u32(vmulq_u32(vdupq_n_u32(static_cast<std::uint32_t>(s.weights[d])), p0), p));
            const float32x4_t r = reciprocals(recip, vaddq_u32(p, p0), tested);
            const float32x4_t val = vmulq_f32(vcvtq_f32_s32(prod), r);
            const uint32x4_t better = vandq_u32(vcgtq_f32(val, c), tested);
            c = vbslq_f32(better, val, c);
        }
        vst1q_f32(out + x, c);
    }
    c_values_row(image, mask, w, s, hist, recip, out, x);
}

void NeonIsa::row(const std::uint16_t* image, const std::uint16_t* mask, int w,
                  const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                  float* out) {
    c_values_row_neon(image, mask, w, s, hist, recip, out);
}

void NeonIsa::sums(const float* row, int n, CValueSums& sums) { c_value_sums_neon(row, n, sums); }

}  // namespace

void cambi_init_neon(CambiKernels& k) { install_lanes<NeonLanes, NeonIsa>(k); }

}  // namespace vmafpp::cambi
