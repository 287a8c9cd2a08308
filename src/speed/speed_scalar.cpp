// SpEED's scalar reference kernels (libvmaf speed.c, compute_mean and
// compute_cov_kernel_scalar).
#include "speed/speed_kernels.hpp"

namespace vmafpp::speed {


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

template <class T>
float picture_float(const std::uint8_t* row, int j, float scaler) {
    const T v = reinterpret_cast<const T*>(row)[j];
    if constexpr (sizeof(T) == 1)
        return static_cast<float>(v) + -128.0f;
    else
        return static_cast<float>(v) / scaler + -128.0f;
}

template <class T>
void vertical_generic(const float* f, int fw, const std::uint8_t* const* a,
                      const std::uint8_t* const* b, float scaler, int j0, int j1, float* mid) {
    for (int j = j0; j < j1; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            float v = picture_float<T>(a[k], j, scaler);
            if (b) v = v - picture_float<T>(b[k], j, scaler);
            acc += f[k] * v;
        }
        mid[j] = acc;
    }
}

void vertical_scalar(const float* f, int fw, const std::uint8_t* const* a,
                     const std::uint8_t* const* b, int bpc, int j0, int j1, float* mid) {
    if (bpc == 8)
        vertical_generic<std::uint8_t>(f, fw, a, b, 1.0f, j0, j1, mid);
    else
        vertical_generic<std::uint16_t>(f, fw, a, b, static_cast<float>(1 << (bpc - 8)), j0, j1,
                                        mid);
}

// dst zeroed, then += x[i][k] * y[k][j] with k ascending for each element
// (speed.c's order), the rows of y walked contiguously.
void matmul_scalar(float* dst, const float* x, const float* y, int r, int m, int c) {
    for (int i = 0; i < r * c; ++i) dst[i] = 0;
    for (int i = 0; i < r; ++i)
        for (int k = 0; k < m; ++k) {
            const float a = x[i * m + k];
            float* out = dst + i * c;
            const float* row = y + k * c;
            for (int j = 0; j < c; ++j) out[j] += a * row[j];
        }
}

}  // namespace

const SpeedKernels& speed_kernels_scalar() {
    static const SpeedKernels k{&covariance_scalar, &vertical_scalar, &matmul_scalar};
    return k;
}

}  // namespace vmafpp::speed
