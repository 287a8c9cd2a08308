// NEON twins of the cambi kernels (AArch64 Advanced SIMD): the c-value loop
// with its histogram ranges counted 8 cells at a time and its scans 16
// columns at a time, the c-values of a row 4 pixels at a time (the
// histogram cells loaded lane by lane: NEON has no gather), the mode filter
// 8 columns at a time, the spatial mask (flat flags, column sums and the
// 7-wide box in 16-bit lanes) 8 pixels at a time, the decimation 8 outputs
// at a time, the pooling sums of a row 4 values at a time and the conversion
// of 8-bit luma with the anti-dithering 16 samples at a time. Integer
// kernels but for the c-values (the scalar's float operations, lane by
// lane, no fused multiply-add): the twins compute the scalar's values
// exactly, edges and tails by the scalar's code.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cambi/cambi_c_values_loop.hpp"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_mode_loop.hpp"

namespace vmafpp::cambi {

namespace {

// 8 ones then 8 zeros: loaded from (8 - n), the first n lanes are 1.
alignas(16) const std::uint16_t kOnesThenZeros[16] = {1, 1, 1, 1, 1, 1, 1, 1,
                                                      0, 0, 0, 0, 0, 0, 0, 0};
// Lane i's bit, to turn an all-ones/all-zeros lane mask into a bit mask.
alignas(16) const std::uint16_t kLaneBits16[8] = {1, 2, 4, 8, 16, 32, 64, 128};

// One bit per 16-bit lane of a lane mask.
inline std::uint32_t lane_bits(uint16x8_t m) {
    return vaddvq_u16(vandq_u16(m, vld1q_u16(kLaneBits16)));
}

struct NeonIsa {
    // 16 columns (two registers of 8) of histogram rows as 16-bit compacts,
    // 0xffff for none: row_of's uint16(v - base) < size, unsigned (c <=
    // size - 1, with 1 <= size <= 0xffff).
    static constexpr int kScanLanes = 16;
    static uint16x8_t in_band(const std::uint16_t* image, const std::uint16_t* mask, int base,
                              int size, uint16x8_t* compact) {
        const uint16x8_t c =
            vsubq_u16(vld1q_u16(image), vdupq_n_u16(static_cast<std::uint16_t>(base)));
        *compact = c;
        const uint16x8_t masked = vtstq_u16(vld1q_u16(mask), vld1q_u16(mask));
        return vandq_u16(masked, vcleq_u16(c, vdupq_n_u16(static_cast<std::uint16_t>(size - 1))));
    }
    static std::uint32_t counted(const std::uint16_t* image, const std::uint16_t* mask, int base,
                                 int size) {
        uint16x8_t c;
        const std::uint32_t lo = lane_bits(in_band(image, mask, base, size, &c));
        const std::uint32_t hi = lane_bits(in_band(image + 8, mask + 8, base, size, &c));
        return lo | hi << 8;
    }
    static uint16x8_t moved8(const std::uint16_t* old_image, const std::uint16_t* old_mask,
                             const std::uint16_t* new_image, const std::uint16_t* new_mask,
                             int base, int size) {
        uint16x8_t c_old, c_new;
        const uint16x8_t none = vdupq_n_u16(0xffff);
        const uint16x8_t in_old = in_band(old_image, old_mask, base, size, &c_old);
        const uint16x8_t in_new = in_band(new_image, new_mask, base, size, &c_new);
        return vmvnq_u16(vceqq_u16(vbslq_u16(in_old, c_old, none), vbslq_u16(in_new, c_new, none)));
    }
    static std::uint32_t moved(const std::uint16_t* old_image, const std::uint16_t* old_mask,
                               const std::uint16_t* new_image, const std::uint16_t* new_mask,
                               int base, int size) {
        const std::uint32_t lo =
            lane_bits(moved8(old_image, old_mask, new_image, new_mask, base, size));
        const std::uint32_t hi =
            lane_bits(moved8(old_image + 8, old_mask + 8, new_image + 8, new_mask + 8, base, size));
        return lo | hi << 8;
    }
    // row[0, n) +/- 1: whole vectors, then one vector whose lanes past n add
    // 0 (the cells there are read and written back unchanged:
    // kHistogramPadding).
    static void inc(std::uint16_t* row, int n) {
        const uint16x8_t one = vdupq_n_u16(1);
        int i = 0;
        for (; i + 8 <= n; i += 8) vst1q_u16(row + i, vaddq_u16(vld1q_u16(row + i), one));
        if (i < n)
            vst1q_u16(row + i,
                      vaddq_u16(vld1q_u16(row + i), vld1q_u16(kOnesThenZeros + 8 - (n - i))));
    }
    static void dec(std::uint16_t* row, int n) {
        const uint16x8_t one = vdupq_n_u16(1);
        int i = 0;
        for (; i + 8 <= n; i += 8) vst1q_u16(row + i, vsubq_u16(vld1q_u16(row + i), one));
        if (i < n)
            vst1q_u16(row + i,
                      vsubq_u16(vld1q_u16(row + i), vld1q_u16(kOnesThenZeros + 8 - (n - i))));
    }
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
    for (; i < n; ++i) {
        const float v = row[i];
        if (v == 0.0f) continue;
        ++nonzero;
        if (!(v >= 0.5f) || !(v < 65536.0f))
            in_range = false;
        else
            units += static_cast<std::int64_t>(static_cast<double>(v) * 16777216.0);
    }
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

void c_values_neon(const std::uint16_t* image, const std::uint16_t* mask, std::ptrdiff_t stride,
                   int w, int h, int window, const ContrastSetup& s, float* c_values,
                   std::uint16_t* histograms, CValueSums& sums) {
    c_values_loop<NeonIsa>(image, mask, stride, w, h, window, s, c_values, histograms, sums);
}

// mode3 of 8 columns: the smallest, replaced by b where b == c, then by a
// where a equals b or c (the order of mode3's tests).
struct NeonModeIsa {
    static constexpr int kLanes = 8;
    static void mode3(std::uint16_t* out, const std::uint16_t* a, const std::uint16_t* b,
                      const std::uint16_t* c) {
        const uint16x8_t va = vld1q_u16(a), vb = vld1q_u16(b), vc = vld1q_u16(c);
        const uint16x8_t a_shared = vorrq_u16(vceqq_u16(va, vb), vceqq_u16(va, vc));
        uint16x8_t r = vminq_u16(vminq_u16(va, vb), vc);
        r = vbslq_u16(vceqq_u16(vb, vc), vb, r);
        r = vbslq_u16(a_shared, va, r);
        vst1q_u16(out, r);
    }
};

void filter_mode_neon(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                      std::uint16_t* buffer) {
    filter_mode_loop<NeonModeIsa>(image, stride, w, h, buffer);
}

// The spatial mask in 16-bit lanes, 8 pixels a vector: flags are 0/1,
// column sums over at most 7 rows at most 7, box sums at most 49, so
// nothing wraps, and `sum > threshold` is the unsigned 16-bit compare with
// the full threshold. The scratch (9w + 14 uint32) holds, as uint16, the
// padded column sums (3 zeros, w sums, 3 zeros) and a ring of 8 flag rows
// of w. Tails take the scalar's steps.
void spatial_mask_neon(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                       int w, int h, int threshold, std::uint32_t* scratch) {
    constexpr int pad = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    auto* padded = reinterpret_cast<std::uint16_t*>(scratch);
    std::uint16_t* cols = padded + pad;
    std::uint16_t* flat = padded + w + 2 * pad;
    for (int i = 0; i < w + 2 * pad; ++i) padded[i] = 0;
    auto flat_of = [&](int y) { return flat + static_cast<std::ptrdiff_t>(y % ring) * w; };
    // Row y's flags into `in` and cols += in - leaving (leaving may be
    // null). Vectors while row[x + 8] exists.
    auto update = [&](int y, std::uint16_t* in, const std::uint16_t* leaving) {
        const std::uint16_t* row = image + y * stride;
        const std::uint16_t* below = y == h - 1 ? row : row + stride;
        int x = 0;
        for (; x + 8 < w; x += 8) {
            const uint16x8_t v = vld1q_u16(row + x);
            const uint16x8_t eq =
                vandq_u16(vceqq_u16(v, vld1q_u16(row + x + 1)), vceqq_u16(v, vld1q_u16(below + x)));
            const uint16x8_t f = vshrq_n_u16(eq, 15);
            vst1q_u16(in + x, f);
            uint16x8_t c = vaddq_u16(vld1q_u16(cols + x), f);
            if (leaving) c = vsubq_u16(c, vld1q_u16(leaving + x));
            vst1q_u16(cols + x, c);
        }
        for (; x < w; ++x) {
            const std::uint16_t right = x < w - 1 ? row[x + 1] : row[x];
            in[x] = (row[x] == right) & (row[x] == below[x]) ? 1 : 0;
            cols[x] = static_cast<std::uint16_t>(cols[x] + in[x] - (leaving ? leaving[x] : 0));
        }
    };
    for (int y = 0; y < pad && y < h; ++y) update(y, flat_of(y), nullptr);
    const uint16x8_t tv = vdupq_n_u16(static_cast<std::uint16_t>(threshold));
    const uint16x8_t one = vdupq_n_u16(1);
    for (int y = 0; y < h; ++y) {
        const std::uint16_t* leaving = y - pad - 1 >= 0 ? flat_of(y - pad - 1) : nullptr;
        if (y + pad < h) {
            update(y + pad, flat_of(y + pad), leaving);
        } else if (leaving) {
            for (int x = 0; x < w; ++x) cols[x] = static_cast<std::uint16_t>(cols[x] - leaving[x]);
        }
        // Output x sums padded[x .. x + 6]: a vector of 8 reads up to
        // padded[x + 13] <= padded[w + 5], the last zero.
        std::uint16_t* out = mask + y * stride;
        int x = 0;
        for (; x + 8 <= w; x += 8) {
            const std::uint16_t* p = padded + x;
            uint16x8_t sum = vld1q_u16(p);
            for (int k = 1; k < kMaskFilterSize; ++k) sum = vaddq_u16(sum, vld1q_u16(p + k));
            vst1q_u16(out + x, vandq_u16(vcgtq_u16(sum, tv), one));
        }
        for (; x < w; ++x) {
            const std::uint16_t* p = padded + x;
            const int sum = p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6];
            out[x] = sum > threshold ? 1 : 0;
        }
    }
}

// image[y][x] = image[2y][2x] in place, 8 outputs from 16 inputs (vld2's
// even lanes): row y is written only after rows 0 .. 2y - 1 were read, and
// within row 0 output x reads 2x >= x, so reading a vector's inputs before
// storing it changes nothing. Vectors while x + 8 < w: the inputs end at
// 2x + 15 <= 2w - 3, inside the previous scale's row (at least 2w - 1
// wide).
void decimate_neon(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    for (int y = 0; y < h; ++y) {
        std::uint16_t* out = image + y * stride;
        const std::uint16_t* in = image + 2 * y * stride;
        int x = 0;
        for (; x + 8 < w; x += 8) vst1q_u16(out + x, vld2q_u16(in + 2 * x).val[0]);
        for (; x < w; ++x) out[x] = in[2 * x];
    }
}

// load_u8_scalar's values directly (see LoadU8Fn): with dither, a + b +
// c + d inside (at most 4 * 255, no wrap), 2 (a + c) in the last column,
// 2 (a + b) in the last row, 4a in the corner; else a << 2. Row y reads
// only source rows y and y + 1, so rows are independent. Vectors of 16
// while x + 16 < w (a[x + 16] exists, and with no dither while x + 16 <=
// w), the rest one sample at a time.
void load_u8_neon(const std::uint8_t* src, std::ptrdiff_t src_stride, std::uint16_t* image,
                  std::ptrdiff_t stride, int w, int h, bool dither) {
    for (int y = 0; y < h; ++y) {
        const std::uint8_t* a = src + y * src_stride;
        std::uint16_t* out = image + y * stride;
        int x = 0;
        if (!dither) {
            for (; x + 16 <= w; x += 16) {
                const uint8x16_t v = vld1q_u8(a + x);
                vst1q_u16(out + x, vshll_n_u8(vget_low_u8(v), 2));
                vst1q_u16(out + x + 8, vshll_high_n_u8(v, 2));
            }
            for (; x < w; ++x) out[x] = static_cast<std::uint16_t>(a[x] << 2);
            continue;
        }
        // The last row pairs each sample with itself below.
        const std::uint8_t* b = y + 1 < h ? a + src_stride : a;
        for (; x + 16 < w; x += 16) {
            const uint8x16_t a0 = vld1q_u8(a + x), a1 = vld1q_u8(a + x + 1);
            const uint8x16_t b0 = vld1q_u8(b + x), b1 = vld1q_u8(b + x + 1);
            const uint16x8_t lo = vaddq_u16(vaddl_u8(vget_low_u8(a0), vget_low_u8(a1)),
                                            vaddl_u8(vget_low_u8(b0), vget_low_u8(b1)));
            const uint16x8_t hi = vaddq_u16(vaddl_high_u8(a0, a1), vaddl_high_u8(b0, b1));
            vst1q_u16(out + x, lo);
            vst1q_u16(out + x + 8, hi);
        }
        for (; x < w - 1; ++x)
            out[x] = static_cast<std::uint16_t>(a[x] + a[x + 1] + b[x] + b[x + 1]);
        out[w - 1] = static_cast<std::uint16_t>(2 * (a[w - 1] + b[w - 1]));
    }
}

}  // namespace

void cambi_init_neon(CambiKernels& k) {
    k.load_u8 = &load_u8_neon;
    k.spatial_mask = &spatial_mask_neon;
    k.decimate = &decimate_neon;
    k.c_values = &c_values_neon;
    k.c_value_sums = &c_value_sums_neon;
    k.filter_mode = &filter_mode_neon;
}

}  // namespace vmafpp::cambi
