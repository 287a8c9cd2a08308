// NEON twins of float VIF's blurs (blur, blur_squared, blur_product,
// blur_decimate). Each pass keeps the scalar's order per output: the sum
// starts at 0 and adds f[k] * sample for k ascending, products and sums
// float (fmul by element, then fadd; never a fused multiply-add). The lanes
// hold neighbouring outputs (columns) of one pass, sixteen at a time in
// registers across all taps (the scalar's loops, vectorised by GCC, keep
// their partial sums in memory), then four; leftover columns run the
// scalar's arithmetic. The decimating horizontal pass takes every second
// sample with vld2q.
#include <arm_neon.h>

#include <cstddef>

#include "float_vif/float_vif_kernels.hpp"

namespace vmafpp::float_vif {

namespace {

// What the vertical pass filters: a picture, its square or the product of
// two; row(y) binds one (reflected) row, read four or sixteen samples at a
// time or one at a time.
struct Plain {
    const float* src;
    std::ptrdiff_t stride;
    struct Row {
        const float* p;
        float at(int x) const { return p[x]; }
        float32x4_t at4(int x) const { return vld1q_f32(p + x); }
        float32x4x4_t at16(int x) const { return vld1q_f32_x4(p + x); }
    };
    Row row(int y) const { return {src + y * stride}; }
};
struct Squared {
    const float* src;
    std::ptrdiff_t stride;
    struct Row {
        const float* p;
        float at(int x) const { return p[x] * p[x]; }
        float32x4_t at4(int x) const {
            const float32x4_t v = vld1q_f32(p + x);
            return vmulq_f32(v, v);
        }
        float32x4x4_t at16(int x) const {
            float32x4x4_t v = vld1q_f32_x4(p + x);
            for (float32x4_t& q : v.val) q = vmulq_f32(q, q);
            return v;
        }
    };
    Row row(int y) const { return {src + y * stride}; }
};
struct Product {
    const float* a;
    std::ptrdiff_t a_stride;
    const float* b;
    std::ptrdiff_t b_stride;
    struct Row {
        const float* pa;
        const float* pb;
        float at(int x) const { return pa[x] * pb[x]; }
        float32x4_t at4(int x) const { return vmulq_f32(vld1q_f32(pa + x), vld1q_f32(pb + x)); }
        float32x4x4_t at16(int x) const {
            float32x4x4_t va = vld1q_f32_x4(pa + x);
            const float32x4x4_t vb = vld1q_f32_x4(pb + x);
            for (int q = 0; q < 4; ++q) va.val[q] = vmulq_f32(va.val[q], vb.val[q]);
            return va;
        }
    };
    Row row(int y) const { return {a + y * a_stride, b + y * b_stride}; }
};

// acc + f * v, the product rounded before the sum (fmul by element, then fadd).
inline float32x4_t add_tap(float32x4_t acc, float32x4_t v, float f) {
    return vaddq_f32(acc, vmulq_n_f32(v, f));
}

// Vertical pass of output row i into out[0 .. w): per column, sum over taps k
// of f[k] * sample(reflected row i - r + k). Sixteen columns at a time in
// four accumulators, then four, then one.
template <class Sample>
void vertical_pass(const float* f, int fw, int i, int w, int h, float* out, const Sample& s) {
    const int r = fw / 2;
    typename Sample::Row rows[kMaxFilterWidth];
    for (int k = 0; k < fw; ++k) rows[k] = s.row(reflect(i - r + k, h));
    int j = 0;
    for (; j + 16 <= w; j += 16) {
        float32x4x4_t acc;
        for (float32x4_t& q : acc.val) q = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            const float32x4x4_t v = rows[k].at16(j);
            for (int q = 0; q < 4; ++q) acc.val[q] = add_tap(acc.val[q], v.val[q], f[k]);
        }
        vst1q_f32_x4(out + j, acc);
    }
    for (; j + 4 <= w; j += 4) {
        float32x4_t acc = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) acc = add_tap(acc, rows[k].at4(j), f[k]);
        vst1q_f32(out + j, acc);
    }
    for (; j < w; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc += f[k] * rows[k].at(j);
        out[j] = acc;
    }
}

// Reflects the vertical result into the r pad samples on each side.
void pad_row(float* row, int w, int r) {
    float* mid = row + r;
    for (int m = 1; m <= r; ++m) {
        row[r - m] = mid[m];
        mid[w - 1 + m] = mid[w - 1 - m];
    }
}

// dst[o] = sum_k f[k] * row[o + k] for o < w.
void horizontal_pass(const float* f, int fw, const float* row, int w, float* dst) {
    int o = 0;
    for (; o + 16 <= w; o += 16) {
        float32x4x4_t acc;
        for (float32x4_t& q : acc.val) q = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            const float32x4x4_t v = vld1q_f32_x4(row + o + k);
            for (int q = 0; q < 4; ++q) acc.val[q] = add_tap(acc.val[q], v.val[q], f[k]);
        }
        vst1q_f32_x4(dst + o, acc);
    }
    for (; o + 4 <= w; o += 4) {
        float32x4_t acc = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) acc = add_tap(acc, vld1q_f32(row + o + k), f[k]);
        vst1q_f32(dst + o, acc);
    }
    for (; o < w; ++o) {
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc += f[k] * row[o + k];
        dst[o] = acc;
    }
}

// dst[o] = sum_k f[k] * row[2 * o + k] for o < n: vld2q takes the even
// samples (its odd ones, the last of them one past the kept samples, stay
// inside the padded row of n * 2 + fw - 1 or more).
void horizontal_pass_decimate(const float* f, int fw, const float* row, int n, float* dst) {
    int o = 0;
    for (; o + 8 <= n; o += 8) {
        float32x4_t lo = vdupq_n_f32(0.0f), hi = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) {
            lo = add_tap(lo, vld2q_f32(row + 2 * o + k).val[0], f[k]);
            hi = add_tap(hi, vld2q_f32(row + 2 * o + 8 + k).val[0], f[k]);
        }
        vst1q_f32(dst + o, lo);
        vst1q_f32(dst + o + 4, hi);
    }
    for (; o + 4 <= n; o += 4) {
        float32x4_t acc = vdupq_n_f32(0.0f);
        for (int k = 0; k < fw; ++k) acc = add_tap(acc, vld2q_f32(row + 2 * o + k).val[0], f[k]);
        vst1q_f32(dst + o, acc);
    }
    for (; o < n; ++o) {
        float acc = 0.0f;
        for (int k = 0; k < fw; ++k) acc += f[k] * row[2 * o + k];
        dst[o] = acc;
    }
}

template <class Sample>
void separable(const float* f, int fw, float* dst, std::ptrdiff_t dst_stride, int w, int h,
               float* row, const Sample& s) {
    const int r = fw / 2;
    for (int i = 0; i < h; ++i) {
        vertical_pass(f, fw, i, w, h, row + r, s);
        pad_row(row, w, r);
        horizontal_pass(f, fw, row, w, dst + i * dst_stride);
    }
}

void blur_neon(const float* f, int fw, const float* src, std::ptrdiff_t src_stride, float* dst,
               std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, Plain{src, src_stride});
}

void blur_squared_neon(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                       float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, Squared{src, src_stride});
}

void blur_product_neon(const float* f, int fw, const float* a, std::ptrdiff_t a_stride,
                       const float* b, std::ptrdiff_t b_stride, float* dst,
                       std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, Product{a, a_stride, b, b_stride});
}

void blur_decimate_neon(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                        float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row) {
    const int r = fw / 2;
    const Plain s{src, src_stride};
    for (int i = 0; i < h / 2; ++i) {
        vertical_pass(f, fw, 2 * i, w, h, row + r, s);
        pad_row(row, w, r);
        horizontal_pass_decimate(f, fw, row, w / 2, dst + i * dst_stride);
    }
}

}  // namespace

void float_vif_init_neon(FloatVifKernels& k) {
    k.blur = &blur_neon;
    k.blur_squared = &blur_squared_neon;
    k.blur_product = &blur_product_neon;
    k.blur_decimate = &blur_decimate_neon;
}

}  // namespace vmafpp::float_vif
