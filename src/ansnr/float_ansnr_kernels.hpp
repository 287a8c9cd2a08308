// Scalar kernels of libvmaf's float_ansnr (ansnr.c, ansnr_tools.c).
#pragma once

#include <cstddef>

namespace vmafpp::float_ansnr {

// The reference is smoothed by a 3x3 binomial filter, the distorted picture
// by a 5x5 approximation of the contrast sensitivity (sum 571).
extern const float kRefFilter[9];
extern const float kDisFilter[25];

// 2-D filtering of a w x h picture with an fw x fw filter; samples outside
// reflect with the edge repeated (-1 -> 0, n -> n-1). Each output sums, in
// float, one partial sum per filter row (taps left to right), rows top to
// bottom. w and h must be larger than fw / 2. scratch holds
// filter2d_scratch_size(fw, w) floats.
void filter2d(const float* f, int fw, const float* src, std::ptrdiff_t src_stride, float* dst,
              std::ptrdiff_t dst_stride, int w, int h, float* scratch);
inline int filter2d_scratch_size(int fw, int w) { return fw * (w + fw) + w; }

struct SignalNoise {
    float signal = 0.0f;  // sum of ref^2
    float noise = 0.0f;   // sum of (ref - dis)^2
};
// Per-row float partial sums, added row by row (float).
SignalNoise signal_noise(const float* ref, std::ptrdiff_t ref_stride, const float* dis,
                         std::ptrdiff_t dis_stride, int w, int h);

}  // namespace vmafpp::float_ansnr
