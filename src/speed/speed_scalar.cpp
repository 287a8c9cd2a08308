// SpEED's scalar reference kernels (libvmaf speed.c, compute_mean and
// compute_cov_kernel_scalar).
#include "speed/speed_kernels.hpp"

namespace vmafpp {

namespace speed {

Dimensions dimensions(int w, int h, double prescale) {
    Dimensions d;
    d.width = w;
    d.height = h;
    d.scaled_w = static_cast<int>(w * prescale + 0.5);
    d.scaled_h = static_cast<int>(h * prescale + 0.5);
    d.op_w = d.scaled_w >> kScales;
    d.op_h = d.scaled_h >> kScales;
    d.trunc_w = d.op_w / kBlock * kBlock;
    d.trunc_h = d.op_h / kBlock * kBlock;
    d.blocks_x = d.trunc_w / kBlock;
    d.blocks_y = d.trunc_h / kBlock;
    d.sub_w = d.trunc_w - kBlock + 1;
    d.sub_h = d.trunc_h - kBlock + 1;
    return d;
}

}  // namespace speed

namespace {

using speed::kBlock;
using speed::kBlockElems;

void covariance_scalar(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                       float* cov) {
    const float size_f = static_cast<float>(static_cast<std::size_t>(sub_w) * sub_h);
    const double size_d = static_cast<double>(static_cast<std::size_t>(sub_w) * sub_h);
    for (int p = 0; p < kBlockElems; ++p) {
        const float* s = d + (p / kBlock) * stride + p % kBlock;
        float sum = 0;
        for (int i = 0; i < sub_h; ++i)
            for (int j = 0; j < sub_w; ++j) sum += s[i * stride + j];
        mean[p] = sum / size_f;
    }
    for (int x = 0; x < kBlockElems; ++x) {
        const float* sx = d + (x / kBlock) * stride + x % kBlock;
        const double mx = mean[x];
        for (int y = 0; y <= x; ++y) {
            const float* sy = d + (y / kBlock) * stride + y % kBlock;
            const double my = mean[y];
            double sum = 0;
            for (int i = 0; i < sub_h; ++i)
                for (int j = 0; j < sub_w; ++j) {
                    const double vx = sx[i * stride + j];
                    const double vy = sy[i * stride + j];
                    sum += (vx - mx) * (vy - my);
                }
            const float c = static_cast<float>(sum / size_d);
            cov[x * kBlockElems + y] = c;
            cov[y * kBlockElems + x] = c;
        }
    }
}

}  // namespace

const SpeedKernels& speed_kernels_scalar() {
    static const SpeedKernels k{&covariance_scalar};
    return k;
}

}  // namespace vmafpp
