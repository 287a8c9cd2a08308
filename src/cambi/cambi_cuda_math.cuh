// Per-thread arithmetic of CAMBI's CUDA twin (src/cuda/cuda_cambi_twin.cu),
// for nvcc and the host compiler alike (device/device_math.hpp): one
// function per stage, each giving one output from its input as the Vulkan
// shaders do (cambi_load, cambi_dither, cambi_mask, cambi_decimate,
// cambi_mode, cambi_c_values; their comments say why each equals the
// scalar's in-place stage). Integers, but for the c-value: the scalar's own
// float(weight * p0 * p) * recip[p + p0], whose int32 product is exact (at
// most 9 * 4225^2 < 2^31); the conversion (cvt.rn on the device, the host's
// round-to-nearest) and the one binary32 multiplication (--fmad=false on the
// device, -ffp-contract=off on the host) are correctly rounded on both, so
// the value is the scalar's. No double. The host test runs these functions
// over the twin's grid (tests/support/cuda_grid_emulation.hpp).
#pragma once

#include <cstdint>

#include "device/device_math.hpp"

namespace vmafpp::cambi::dev {

// A sample of bpc bits converted to 10: rounded down-shift above 10 bits,
// up-shift below.
VMAFPP_HD std::uint32_t to_10_bits(std::uint32_t v, int bpc) {
    if (bpc > 10) return (v + (1u << (bpc - 11))) >> (bpc - 10);
    return v << (10 - bpc);
}

// The 10-bit sample of the scored picture at (x, y): the input's at the
// nearest-resize positions (cols[x], rows[y], the host's float steps),
// rows in_w samples apart.
template <class T>
VMAFPP_HD std::uint16_t load_sample(const T* src, int in_w, const std::int32_t* cols,
                                    const std::int32_t* rows, int bpc, int x, int y) {
    const std::int64_t i = static_cast<std::int64_t>(rows[y]) * in_w + cols[x];
    return static_cast<std::uint16_t>(to_10_bits(src[i], bpc));
}

// anti_dither's output at (x, y): the 2x2 block's mean inside, the pair's
// on the last column and row, the sample itself at the last corner.
VMAFPP_HD std::uint16_t dither_sample(const std::uint16_t* src, int w, int h, int stride, int x,
                                      int y) {
    const std::int64_t i = static_cast<std::int64_t>(y) * stride + x;
    const bool last_x = x == w - 1, last_y = y == h - 1;
    std::uint32_t v;
    if (!last_x && !last_y)
        v = (std::uint32_t{src[i]} + src[i + 1] + src[i + stride] + src[i + stride + 1]) >> 2;
    else if (!last_y)
        v = (std::uint32_t{src[i]} + src[i + stride]) >> 1;
    else if (!last_x)
        v = (std::uint32_t{src[i]} + src[i + 1]) >> 1;
    else
        v = src[i];
    return static_cast<std::uint16_t>(v);
}

// Whether (x, y) is flat: equal to its right and lower neighbours (the last
// column compares only below, the last row with itself below).
VMAFPP_HD std::uint32_t flat_at(const std::uint16_t* image, int w, int h, int stride, int x, int y) {
    const std::int64_t i = static_cast<std::int64_t>(y) * stride + x;
    const std::int64_t below = y == h - 1 ? i : i + stride;
    if (x == w - 1) return image[i] == image[below] ? 1u : 0u;
    return image[i] == image[i + 1] && image[i] == image[below] ? 1u : 0u;
}

// spatial_mask at (x, y): 1 where more than `threshold` pixels of the 7x7
// window (clipped) are flat.
VMAFPP_HD std::uint16_t mask_sample(const std::uint16_t* image, int w, int h, int stride,
                                    int threshold, int x, int y) {
    std::uint32_t count = 0;
    const int y0 = y - 3 > 0 ? y - 3 : 0, y1 = y + 3 < h - 1 ? y + 3 : h - 1;
    const int x0 = x - 3 > 0 ? x - 3 : 0, x1 = x + 3 < w - 1 ? x + 3 : w - 1;
    for (int yy = y0; yy <= y1; ++yy)
        for (int xx = x0; xx <= x1; ++xx) count += flat_at(image, w, h, stride, xx, yy);
    return count > static_cast<std::uint32_t>(threshold) ? 1 : 0;
}

// The value two of three share, else the smallest.
VMAFPP_HD std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    if (a <= b && a <= c) return a;
    return b <= c ? b : c;
}

// A row's mode across at x (the first and last column kept).
VMAFPP_HD std::uint16_t mode_across(const std::uint16_t* src, int w, int stride, int x, int y) {
    const std::int64_t i = static_cast<std::int64_t>(y) * stride + x;
    if (x == 0 || x == w - 1) return src[i];
    return mode3(src[i - 1], src[i], src[i + 1]);
}

// The 3x3 mode filter at (x, y): the first and last rows kept.
VMAFPP_HD std::uint16_t mode_sample(const std::uint16_t* src, int w, int h, int stride, int x,
                                    int y) {
    if (y == 0 || y == h - 1) return src[static_cast<std::int64_t>(y) * stride + x];
    return mode3(mode_across(src, w, stride, x, y - 1), mode_across(src, w, stride, x, y),
                 mode_across(src, w, stride, x, y + 1));
}

// What the c-values of one scale depend on besides the pictures.
struct CValueParams {
    int w, h, stride, pad;  // pad: window >> 1
    int band_base, band_size, num_diffs, vlt_luma;
};

// The histogram row of (image, mask)[i] when it is masked and in the band, or -1.
VMAFPP_HD int histogram_row(const std::uint16_t* image, const std::uint16_t* mask,
                            const CValueParams& p, std::int64_t i) {
    if (!mask[i]) return -1;
    const std::uint32_t compact = static_cast<std::uint16_t>(image[i] - p.band_base);
    return compact < static_cast<std::uint32_t>(p.band_size) ? static_cast<int>(compact) : -1;
}

// Picture row r's pixels of columns [x - pad, x + pad] counted into (+1)
// or out of (-1) column x of the histograms (rows w apart); integer
// counts, so any order gives the scalar's.
VMAFPP_HD void histogram_update(const std::uint16_t* image, const std::uint16_t* mask,
                                const CValueParams& p, std::uint32_t* hist, int x, int r,
                                std::uint32_t delta) {
    const std::int64_t base = static_cast<std::int64_t>(r) * p.stride;
    const int l = x - p.pad > 0 ? x - p.pad : 0, e = x + p.pad < p.w - 1 ? x + p.pad : p.w - 1;
    for (int xx = l; xx <= e; ++xx) {
        const int v = histogram_row(image, mask, p, base + xx);
        if (v >= 0) hist[static_cast<std::int64_t>(v) * p.w + x] += delta;
    }
}

// libvmaf's c_value_pixel at column x for the 10-bit value `value`:
// tvi[d], weights[d] for d < num_diffs.
VMAFPP_HD float c_value(const std::uint32_t* hist, const CValueParams& p,
                        const std::int32_t* tvi, const std::int32_t* weights, const float* recip,
                        int x, int value) {
    const int v = value + p.num_diffs;
    const int compact = v - (p.band_base + p.num_diffs);
    if (compact < 0 || compact >= p.band_size) return 0.0f;
    const std::int32_t p0 = static_cast<std::int32_t>(hist[static_cast<std::int64_t>(compact) * p.w + x]);
    float c = 0.0f;
    for (int d = 0; d < p.num_diffs; ++d) {
        if (v > tvi[d] || v + d + 1 <= p.vlt_luma) continue;
        const int up = compact + d + 1, down = compact - d - 1;
        const std::int32_t p1 = static_cast<std::int32_t>(hist[static_cast<std::int64_t>(up) * p.w + x]);
        const std::int32_t p2 =
            down >= 0 ? static_cast<std::int32_t>(hist[static_cast<std::int64_t>(down) * p.w + x]) : 0;
        const std::int32_t q = p1 > p2 ? p1 : p2;
        const float val = static_cast<float>(weights[d] * p0 * q) * recip[q + p0];
        if (val > c) c = val;
    }
    return c;
}

// calculate_c_values for column x, walking the rows as libvmaf does: rows
// [0, pad) enter first; for row y, row y - pad - 1 leaves and row y + pad
// enters, then row y's pixel is scored. The thread owns column x of the
// histograms (band_size + num_diffs + 1 rows of w counts).
VMAFPP_HD void c_values_column(const std::uint16_t* image, const std::uint16_t* mask,
                               const CValueParams& p, const std::int32_t* tvi,
                               const std::int32_t* weights, const float* recip,
                               std::uint32_t* hist, float* out, int x) {
    const int rows = p.band_size + p.num_diffs + 1;
    for (int v = 0; v < rows; ++v) hist[static_cast<std::int64_t>(v) * p.w + x] = 0;
    for (int y = 0; y < p.pad && y < p.h; ++y) histogram_update(image, mask, p, hist, x, y, 1u);
    for (int y = 0; y < p.h; ++y) {
        if (y - p.pad - 1 >= 0) histogram_update(image, mask, p, hist, x, y - p.pad - 1, ~0u);
        if (y + p.pad < p.h) histogram_update(image, mask, p, hist, x, y + p.pad, 1u);
        const std::int64_t i = static_cast<std::int64_t>(y) * p.stride + x;
        out[static_cast<std::int64_t>(y) * p.w + x] =
            mask[i] ? c_value(hist, p, tvi, weights, recip, x, image[i]) : 0.0f;
    }
}

}  // namespace vmafpp::cambi::dev
