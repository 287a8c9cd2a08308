// NEON twin of float motion's mean_abs_diff. A row's sum is sequential, so
// the lanes hold four rows, not four columns: four columns of each of four
// rows are loaded, |a - b| taken per sample (fabs clears the sign bit, as
// vabsq does), the 4x4 block transposed so that each lane then meets its
// row's columns in order, and added one column at a time. Leftover columns
// and rows, and the row-by-row total, are the scalar's loops.
#include <arm_neon.h>

#include <cmath>
#include <cstddef>

#include "motion/float_motion_kernels.hpp"

namespace vmafpp::float_motion {

namespace {

// Adds columns j..j+3 of four rows, |a - b|, to each row's lane in column order.
inline float32x4_t add_block(float32x4_t acc, const float* const* ra, const float* const* rb,
                             int j) {
    float32x4_t d[4];
    for (int r = 0; r < 4; ++r)
        d[r] = vabsq_f32(vsubq_f32(vld1q_f32(ra[r] + j), vld1q_f32(rb[r] + j)));
    // Transpose: c[k] holds column j + k of the four rows.
    const float32x4_t lo01 = vtrn1q_f32(d[0], d[1]), hi01 = vtrn2q_f32(d[0], d[1]);
    const float32x4_t lo23 = vtrn1q_f32(d[2], d[3]), hi23 = vtrn2q_f32(d[2], d[3]);
    const auto f64 = [](float32x4_t v) { return vreinterpretq_f64_f32(v); };
    const float32x4_t c0 = vreinterpretq_f32_f64(vtrn1q_f64(f64(lo01), f64(lo23)));
    const float32x4_t c1 = vreinterpretq_f32_f64(vtrn1q_f64(f64(hi01), f64(hi23)));
    const float32x4_t c2 = vreinterpretq_f32_f64(vtrn2q_f64(f64(lo01), f64(lo23)));
    const float32x4_t c3 = vreinterpretq_f32_f64(vtrn2q_f64(f64(hi01), f64(hi23)));
    acc = vaddq_f32(acc, c0);
    acc = vaddq_f32(acc, c1);
    acc = vaddq_f32(acc, c2);
    return vaddq_f32(acc, c3);
}

float row_sum(const float* a, const float* b, int from, int w, float row) {
    for (int j = from; j < w; ++j) row += std::fabs(a[j] - b[j]);
    return row;
}

float mean_abs_diff_neon(const float* a, std::ptrdiff_t a_stride, const float* b,
                         std::ptrdiff_t b_stride, int w, int h) {
    float sum = 0.0f;
    int i = 0;
    for (; i + 4 <= h; i += 4) {
        const float* ra[4];
        const float* rb[4];
        for (int r = 0; r < 4; ++r) {
            ra[r] = a + (i + r) * a_stride;
            rb[r] = b + (i + r) * b_stride;
        }
        float32x4_t acc = vdupq_n_f32(0.0f);
        int j = 0;
        for (; j + 4 <= w; j += 4) acc = add_block(acc, ra, rb, j);
        float rows[4];
        vst1q_f32(rows, acc);
        for (int r = 0; r < 4; ++r) sum += row_sum(ra[r], rb[r], j, w, rows[r]);
    }
    for (; i < h; ++i) sum += row_sum(a + i * a_stride, b + i * b_stride, 0, w, 0.0f);
    return sum / static_cast<float>(w * h);
}

}  // namespace

void float_motion_init_neon(FloatMotionKernels& k) { k.mean_abs_diff = &mean_abs_diff_neon; }

}  // namespace vmafpp::float_motion
