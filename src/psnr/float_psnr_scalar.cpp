#include "psnr/float_psnr_kernels.hpp"

#include <cmath>

#include "base/c_macros.hpp"

namespace vmafpp::float_psnr {

double squared_error_sum(const float* a, std::ptrdiff_t a_stride, const float* b,
                         std::ptrdiff_t b_stride, int w, int h) {
    double sum = 0.0;
    for (int i = 0; i < h; ++i) {
        const float* ra = a + i * a_stride;
        const float* rb = b + i * b_stride;
        for (int j = 0; j < w; ++j) {
            const float d = ra[j] - rb[j];
            sum += d * d;  // float square, double accumulation
        }
    }
    return sum;
}

double psnr_from_sum(double sum, int w, int h, double peak, double psnr_max) {
    const double mse = sum / (w * h);
    return c_min(10 * std::log10(peak * peak / c_max(mse, 1e-10)), psnr_max);
}

PsnrConstants psnr_constants(int bpc) {
    switch (bpc) {
        case 10: return {255.75, 72.0};
        case 12: return {255.9375, 84.0};
        case 16: return {255.99609375, 108.0};
        default: return {255.0, 60.0};
    }
}

}  // namespace vmafpp::float_psnr
