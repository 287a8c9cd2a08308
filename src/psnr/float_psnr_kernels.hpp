// Scalar kernels of libvmaf's float_psnr (psnr.c) and the picture-wide sums
// float_moment (moment.c) uses.
#pragma once

#include <cstddef>

namespace vmafpp::float_psnr {

// Sum over a w x h picture of (a - b)^2: each difference and square in float,
// accumulated in one double in row-major order (no per-row partial sums).
double squared_error_sum(const float* a, std::ptrdiff_t a_stride, const float* b,
                         std::ptrdiff_t b_stride, int w, int h);

// libvmaf's PSNR from a squared-error sum: mse = sum / (w * h) (double),
// min(10 * log10(peak^2 / max(mse, 1e-10)), psnr_max).
double psnr_from_sum(double sum, int w, int h, double peak, double psnr_max);

// Peak and cap libvmaf uses for a bit depth (the float pictures are scaled to
// the 8-bit range, so the peak is (2^bpc - 1) / 2^(bpc - 8)).
struct PsnrConstants {
    double peak = 255.0;
    double psnr_max = 60.0;
};
PsnrConstants psnr_constants(int bpc);

}  // namespace vmafpp::float_psnr
