// Per-thread arithmetic of SpEED's CUDA twin (src/cuda/cuda_speed_twin.cu),
// for nvcc and the host compiler alike (device/device_math.hpp): the same
// float operations, in the same order, as the Vulkan shaders
// (speed_picture.comp, speed_scale.comp, speed_vertical.comp,
// speed_horizontal.comp) and the scalar Gsm::prepare. nvcc builds these with --fmad=false and the host with
// -ffp-contract=off, so no product is fused into a sum and every value is a
// correctly rounded binary32: the scalar's float. No double.
#pragma once

#include <cstdint>

#include <vector>

#include "device/device_math.hpp"
#include "speed/speed_gsm.hpp"

namespace vmafpp::speed::dev {

// One output column or row of a prescale (speed::ScaleTap, computed on the
// host with the scalar's double-then-float expressions): the source
// indices and the bilinear fraction.
struct Tap {
    std::int32_t i1, i2;
    float frac;
};

// Sample -k is k, sample n-1+k is n-1-k (float_vif::reflect).
VMAFPP_HD int reflect(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 2 : k); }

// 2^-(bpc-8), exact: the scalar's division by 2^(bpc-8) as a multiplication.
VMAFPP_HD float depth_scale(int bpc) {
    float s = 1.0f;
    for (int i = 8; i < bpc; ++i) s = s * 0.5f;
    return s;
}

// picture_copy's float of one sample: v - 128 at 8 bits, v / 2^(bpc-8) - 128 above.
VMAFPP_HD float sample_float(std::uint32_t v, int bpc) {
    const float f = static_cast<float>(v);
    if (bpc == 8) return f + -128.0f;
    const float scaled = f * depth_scale(bpc);
    return scaled + -128.0f;
}

// The float picture at (x, y) of plane a, minus plane b's for a difference
// (b non-null); rows w samples apart.
template <class T>
VMAFPP_HD float plane_value(const T* a, const T* b, int w, int bpc, int x, int y) {
    const std::int64_t i = static_cast<std::int64_t>(y) * w + x;
    const float v = sample_float(a[i], bpc);
    if (!b) return v;
    const float d = v - sample_float(b[i], bpc);
    return d;
}

// Output (x, y) of the prescaled picture: method 0 the plane itself, 1
// nearest, 2 bilinear (weights multiplied first, the four terms added left
// to right, as float_vif::scale_bilinear).
template <class T>
VMAFPP_HD float picture_sample(const T* a, const T* b, int w, int bpc, int method,
                               const Tap* cols, const Tap* rows, int x, int y) {
    if (method == 0) return plane_value(a, b, w, bpc, x, y);
    const Tap cx = cols[x], cy = rows[y];
    if (method == 1) return plane_value(a, b, w, bpc, cx.i1, cy.i1);
    const float dx = cx.frac, dy = cy.frac;
    const float ex = 1.0f - dx, ey = 1.0f - dy;
    const float w0 = ey * ex, w1 = ey * dx, w2 = dy * ex, w3 = dy * dx;
    const float t0 = w0 * plane_value(a, b, w, bpc, cx.i1, cy.i1);
    const float t1 = w1 * plane_value(a, b, w, bpc, cx.i2, cy.i1);
    const float t2 = w2 * plane_value(a, b, w, bpc, cx.i1, cy.i2);
    const float t3 = w3 * plane_value(a, b, w, bpc, cx.i2, cy.i2);
    const float s01 = t0 + t1;
    const float s012 = s01 + t2;
    return s012 + t3;
}

// One output column or row of a bicubic or lanczos4 prescale
// (speed::KernelTaps, computed on the host with the scalar's functions):
// the mirrored source indices and the one-dimensional float weights.
struct KernelTap {
    std::int32_t index[kMaxKernelTaps];
    float weight[kMaxKernelTaps];
};

// The host's table of KernelTaps for a dimension scaled from src_n to dst_n
// samples (the launches' and the emulation's).
inline std::vector<KernelTap> kernel_taps(int src_n, int dst_n, ScaleMethod method) {
    std::vector<KernelTap> t(static_cast<std::size_t>(dst_n), KernelTap{});
    for (int i = 0; i < dst_n; ++i) {
        const KernelTaps k = method == ScaleMethod::bicubic ? bicubic_taps(i, src_n, dst_n)
                                                            : lanczos_taps(i, src_n, dst_n);
        for (int j = 0; j < k.n; ++j) {
            t[static_cast<std::size_t>(i)].index[j] = k.index[j];
            t[static_cast<std::size_t>(i)].weight[j] = k.weight[j];
        }
    }
    return t;
}

// Output (x, y) of scale_with's bicubic_at (taps 4) or lanczos_at (taps 9,
// divide): weight = wx * wy, value += sample * weight (lanczos: weight_sum
// += weight first), rows outer, columns inner; lanczos divides the value by
// the weight sum, a correctly rounded float division here (nvcc's default
// IEEE division, the host's division in the emulation), as the scalar's.
VMAFPP_HD float kernel_sample(const float* src, int w, int taps, bool divide, const KernelTap* cols,
                              const KernelTap* rows, int x, int y) {
    const KernelTap& cx = cols[x];
    const KernelTap& cy = rows[y];
    float value = 0.0f, weight_sum = 0.0f;
    for (int j = 0; j < taps; ++j) {
        const float* row = src + static_cast<std::int64_t>(cy.index[j]) * w;
        for (int i = 0; i < taps; ++i) {
            const float weight = cx.weight[i] * cy.weight[j];
            weight_sum = weight_sum + weight;
            const float term = row[cx.index[i]] * weight;
            value = value + term;
        }
    }
    if (divide) return value / weight_sum;
    return value;
}

// The vertical blur pass at output (j, i): the float sum over taps k
// ascending of f[k] * src[reflect(step * i - fw / 2 + k, h)][j]; step 16
// keeps the rows the decimation keeps, step 1 every row.
VMAFPP_HD float blur_vertical(const float* src, const float* f, int w, int h, int step, int fw,
                              int j, int i) {
    const int r = fw / 2;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) {
        const int y = reflect(step * i - r + k, h);
        const float term = f[k] * src[static_cast<std::int64_t>(y) * w + j];
        acc = acc + term;
    }
    return acc;
}

// The horizontal blur pass at output (o, i) of rows w floats apart.
VMAFPP_HD float blur_horizontal(const float* src, const float* f, int w, int step, int fw, int o,
                                int i) {
    const int r = fw / 2;
    float acc = 0.0f;
    for (int k = 0; k < fw; ++k) {
        const float term = f[k] * src[static_cast<std::int64_t>(i) * w + reflect(step * o - r + k, w)];
        acc = acc + term;
    }
    return acc;
}

}  // namespace vmafpp::speed::dev
