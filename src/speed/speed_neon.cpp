// NEON twins of SpEED's covariance and vertical-blur kernels (AArch64
// Advanced SIMD: IEEE float and double arithmetic, round to nearest; no
// fused multiply-add is used, so every operation rounds where the scalar's
// does).
//
// As in the x86 twins, a lane never splits one sum: lane c carries block
// column offset c and adds its terms in the scalar's order. Two doubles per
// register, so a block row's five offsets take three registers (columns
// 0-1, 2-3 and 4-5; lane 5 is computed and dropped); the means take a float
// register for columns 0-3 and a half register for 4-5. Loads reach column
// j + 5, within the contract's 3 floats of slack after each row.
#include <arm_neon.h>

#include <cstdint>

#include "speed/speed_kernels.hpp"

namespace vmafpp::speed {

namespace {

using speed::kBlock;
using speed::kBlockElems;

// Samples j .. j + 5 of a row as doubles, less the block row's means.
struct Centred {
    float64x2_t c01, c23, c45;
};

inline Centred centred(const float* ys, const float64x2_t my[3]) {
    const float32x4_t a = vld1q_f32(ys);
    const float32x2_t b = vld1_f32(ys + 4);
    return {vsubq_f64(vcvt_f64_f32(vget_low_f32(a)), my[0]), vsubq_f64(vcvt_high_f64_f32(a), my[1]),
            vsubq_f64(vcvt_f64_f32(b), my[2])};
}

void covariance_neon(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                     float* cov) {
    const float size_f = static_cast<float>(static_cast<std::size_t>(sub_w) * sub_h);
    const double size_d = static_cast<double>(static_cast<std::size_t>(sub_w) * sub_h);

    float32x4_t msum_lo[kBlock];
    float32x2_t msum_hi[kBlock];
    for (int r = 0; r < kBlock; ++r) {
        msum_lo[r] = vdupq_n_f32(0.0f);
        msum_hi[r] = vdup_n_f32(0.0f);
    }
    for (int i = 0; i < sub_h; ++i)
        for (int j = 0; j < sub_w; ++j)
            for (int r = 0; r < kBlock; ++r) {
                const float* p = d + (r + i) * stride + j;
                msum_lo[r] = vaddq_f32(msum_lo[r], vld1q_f32(p));
                msum_hi[r] = vadd_f32(msum_hi[r], vld1_f32(p + 4));
            }
    for (int r = 0; r < kBlock; ++r) {
        float lanes[6];
        vst1q_f32(lanes, msum_lo[r]);
        vst1_f32(lanes + 4, msum_hi[r]);
        for (int c = 0; c < kBlock; ++c) mean[r * kBlock + c] = lanes[c] / size_f;
    }

    // Means of each block row as doubles, lane 5 zero.
    float64x2_t my[kBlock][3];
    for (int r = 0; r < kBlock; ++r) {
        double m[6] = {};
        for (int c = 0; c < kBlock; ++c) m[c] = mean[r * kBlock + c];
        for (int q = 0; q < 3; ++q) my[r][q] = vld1q_f64(m + 2 * q);
    }

    // Covariance of x = (rx, cx) with every y in block rows 0..rx at once.
    for (int x = 0; x < kBlockElems; ++x) {
        const int rx = x / kBlock, cx = x % kBlock;
        const float64x2_t mx = vdupq_n_f64(mean[x]);
        float64x2_t acc[kBlock][3];
        for (int r = 0; r <= rx; ++r) acc[r][0] = acc[r][1] = acc[r][2] = vdupq_n_f64(0.0);
        for (int i = 0; i < sub_h; ++i) {
            const float* xs = d + (rx + i) * stride + cx;
            for (int j = 0; j < sub_w; ++j) {
                const float64x2_t vx = vsubq_f64(vdupq_n_f64(xs[j]), mx);
                for (int r = 0; r <= rx; ++r) {
                    const Centred y = centred(d + (r + i) * stride + j, my[r]);
                    acc[r][0] = vaddq_f64(acc[r][0], vmulq_f64(vx, y.c01));
                    acc[r][1] = vaddq_f64(acc[r][1], vmulq_f64(vx, y.c23));
                    acc[r][2] = vaddq_f64(acc[r][2], vmulq_f64(vx, y.c45));
                }
            }
        }
        for (int r = 0; r <= rx; ++r) {
            double lanes[6];
            for (int q = 0; q < 3; ++q) vst1q_f64(lanes + 2 * q, acc[r][q]);
            for (int c = 0; c < kBlock; ++c) {
                const int y = r * kBlock + c;
                if (y > x) break;
                const float v = static_cast<float>(lanes[c] / size_d);
                cov[x * kBlockElems + y] = v;
                cov[y * kBlockElems + x] = v;
            }
        }
    }
}

// picture_copy's float of 8 samples at column j (two registers): float(v)
// + -128 at 8 bits, float(v) * 2^-(bpc-8) + -128 above, which is the
// scalar's float(v) / 2^(bpc-8) exactly (scaling by a power of two does not
// round for these magnitudes).
struct F8 {
    float32x4_t lo, hi;
};

template <bool kWide>
inline F8 picture_floats(const std::uint8_t* p, int j, float32x4_t inv_scale) {
    const float32x4_t offset = vdupq_n_f32(-128.0f);
    uint16x8_t w;
    if constexpr (kWide)
        w = vld1q_u16(reinterpret_cast<const std::uint16_t*>(p) + j);
    else
        w = vmovl_u8(vld1_u8(p + j));
    float32x4_t lo = vcvtq_f32_u32(vmovl_u16(vget_low_u16(w)));
    float32x4_t hi = vcvtq_f32_u32(vmovl_high_u16(w));
    if constexpr (kWide) {
        lo = vmulq_f32(lo, inv_scale);
        hi = vmulq_f32(hi, inv_scale);
    } else {
        (void)inv_scale;
    }
    return {vaddq_f32(lo, offset), vaddq_f32(hi, offset)};
}

template <bool kWide, bool kDiff>
void vertical_columns(const float* f, int fw, const std::uint8_t* const* a,
                      const std::uint8_t* const* b, float inv, int j0, int j1, float* mid) {
    const float32x4_t inv_scale = vdupq_n_f32(inv);
    int j = j0;
    for (; j + 8 <= j1; j += 8) {
        float32x4_t acc_lo = vdupq_n_f32(0.0f), acc_hi = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            F8 v = picture_floats<kWide>(a[k], j, inv_scale);
            if constexpr (kDiff) {
                const F8 u = picture_floats<kWide>(b[k], j, inv_scale);
                v.lo = vsubq_f32(v.lo, u.lo);
                v.hi = vsubq_f32(v.hi, u.hi);
            }
            const float32x4_t tap = vdupq_n_f32(f[k]);
            acc_lo = vaddq_f32(acc_lo, vmulq_f32(tap, v.lo));
            acc_hi = vaddq_f32(acc_hi, vmulq_f32(tap, v.hi));
        }
        vst1q_f32(mid + j, acc_lo);
        vst1q_f32(mid + j + 4, acc_hi);
    }
    // The last columns one at a time, the same operations in scalar form.
    const float scale = 1.0f / inv;
    for (; j < j1; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            float v;
            if constexpr (kWide)
                v = static_cast<float>(reinterpret_cast<const std::uint16_t*>(a[k])[j]) / scale +
                    -128.0f;
            else
                v = static_cast<float>(a[k][j]) + -128.0f;
            if constexpr (kDiff) {
                float w;
                if constexpr (kWide)
                    w = static_cast<float>(reinterpret_cast<const std::uint16_t*>(b[k])[j]) /
                            scale +
                        -128.0f;
                else
                    w = static_cast<float>(b[k][j]) + -128.0f;
                v = v - w;
            }
            acc += f[k] * v;
        }
        mid[j] = acc;
    }
}

void vertical_neon(const float* f, int fw, const std::uint8_t* const* a,
                   const std::uint8_t* const* b, int bpc, int j0, int j1, float* mid) {
    const float inv = bpc == 8 ? 1.0f : 1.0f / static_cast<float>(1 << (bpc - 8));
    if (bpc == 8) {
        if (b)
            vertical_columns<false, true>(f, fw, a, b, inv, j0, j1, mid);
        else
            vertical_columns<false, false>(f, fw, a, b, inv, j0, j1, mid);
    } else {
        if (b)
            vertical_columns<true, true>(f, fw, a, b, inv, j0, j1, mid);
        else
            vertical_columns<true, false>(f, fw, a, b, inv, j0, j1, mid);
    }
}

}  // namespace

void speed_init_neon(SpeedKernels& k) {
    k.covariance = covariance_neon;
    k.vertical = vertical_neon;
}

}  // namespace vmafpp::speed
