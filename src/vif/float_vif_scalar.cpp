#include "vif/float_vif_kernels.hpp"
#include "vif/float_vif_scale.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace vmafpp::float_vif {

namespace {

constexpr float kValidKernelscales[] = {
    1.0f,          1.0f / 2.0f,  3.0f / 2.0f,  2.0f,         2.0f / 3.0f,  24.0f / 10.0f,
    360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f,  3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f,
    3.0f,          1.0f / 2.25f, 1.4746f,      1.54f,        1.6f,         1.06667f,
    0.711111f,     0.740740f,    1.111111f,
};

// Vertical pass of output row i into row[r .. r + w): sum over taps k of
// f[k] * sample(reflected row i - r + k, column), float, from 0, k ascending.
// Looping k outside the column loop keeps that per-column order.
template <class Sample>
void vertical_pass(const float* f, int fw, int i, int w, int h, float* out, Sample sample) {
    const int r = fw / 2;
    for (int j = 0; j < w; ++j) out[j] = 0.0f;
    for (int k = 0; k < fw; ++k) {
        const float c = f[k];
        const int y = reflect(i - r + k, h);
        for (int j = 0; j < w; ++j) out[j] += c * sample(y, j);
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

// Horizontal pass: dst[j] = sum_k f[k] * row[j + k] for j = 0, step, 2*step..
// (< w), written to dst[j / step].
void horizontal_pass(const float* f, int fw, const float* row, int w, int step, float* dst) {
    const int n = (w + step - 1) / step;
    for (int o = 0; o < n; ++o) dst[o] = 0.0f;
    for (int k = 0; k < fw; ++k) {
        const float c = f[k];
        const float* src = row + k;
        if (step == 1) {
            for (int o = 0; o < n; ++o) dst[o] += c * src[o];
        } else {
            for (int o = 0; o < n; ++o) dst[o] += c * src[o * step];
        }
    }
}

template <class Sample>
void separable(const float* f, int fw, float* dst, std::ptrdiff_t dst_stride, int w, int h,
               float* row, Sample sample) {
    const int r = fw / 2;
    for (int i = 0; i < h; ++i) {
        vertical_pass(f, fw, i, w, h, row + r, sample);
        pad_row(row, w, r);
        horizontal_pass(f, fw, row, w, 1, dst + i * dst_stride);
    }
}

}  // namespace

bool valid_kernelscale(float kernelscale) {
    for (float v : kValidKernelscales)
        if (std::fabs(kernelscale - v) < 1e-3) return true;
    return false;
}

int filter_width(int scale, float kernelscale) {
    const int n = (1 << (4 - scale)) + 1;
    // ceil of the float product (taken in double, as C's ceil), made odd.
    int width = static_cast<int>(std::ceil(static_cast<double>(n * kernelscale)));
    if (width % 2 == 0) width += 1;
    return width < 3 ? 3 : width;
}

void gaussian(float* out, int size, float stdev) {
    const int half = (size - 1) / 2;
    float sum = 0.0f;
    for (int i = 0; i < size; ++i) {
        const float x = static_cast<float>(i - half);
        // exp(-0.5 * x / s * x / s) in double, left to right; the density's
        // denominator 1 / (s * sqrt(2 pi)) is a double narrowed to float.
        const float num = static_cast<float>(
            std::exp(-0.5 * x / static_cast<double>(stdev) * x / static_cast<double>(stdev)));
        const float den = static_cast<float>(1 / (stdev * std::sqrt(2 * M_PI)));
        out[i] = num / den;
        sum += out[i];
    }
    for (int i = 0; i < size; ++i) out[i] /= sum;
}

void gaussian_filter(float* out, int scale, float kernelscale) {
    const int size = filter_width(scale, kernelscale);
    gaussian(out, size, size / 5.0f);
}

void blur(const float* f, int fw, const float* src, std::ptrdiff_t src_stride, float* dst,
          std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row,
              [=](int y, int x) { return src[y * src_stride + x]; });
}

void blur_squared(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                  float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row, [=](int y, int x) {
        const float v = src[y * src_stride + x];
        return v * v;
    });
}

void blur_product(const float* f, int fw, const float* a, std::ptrdiff_t a_stride,
                  const float* b, std::ptrdiff_t b_stride, float* dst,
                  std::ptrdiff_t dst_stride, int w, int h, float* row) {
    separable(f, fw, dst, dst_stride, w, h, row,
              [=](int y, int x) { return a[y * a_stride + x] * b[y * b_stride + x]; });
}

void blur_decimate(const float* f, int fw, const float* src, std::ptrdiff_t src_stride,
                   float* dst, std::ptrdiff_t dst_stride, int w, int h, float* row) {
    const int r = fw / 2;
    const auto sample = [=](int y, int x) { return src[y * src_stride + x]; };
    for (int i = 0; i < h / 2; ++i) {
        vertical_pass(f, fw, 2 * i, w, h, row + r, sample);
        pad_row(row, w, r);
        // Columns 0, 2, .., 2 * (w / 2 - 1): w / 2 outputs.
        horizontal_pass(f, fw, row, (w / 2) * 2 - 1, 2, dst + i * dst_stride);
    }
}

float log2_approx(float x) {
    constexpr float poly[9] = {-0.012671635276421f, 0.064841182402670f, -0.157048836463065f,
                               0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                               -0.721314327952201f, 1.442694803896991f, 0.0f};
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const std::uint32_t exponent = (bits & 0x7F800000u) >> 23;
    const std::uint32_t mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;  // in [1, 2)
    float mantissa;
    std::memcpy(&mantissa, &mantissa_bits, sizeof mantissa);
    const float t = mantissa - 1.0f;
    float p = 0.0f;
    for (float c : poly) p = p * t + c;
    const float v = static_cast<float>(static_cast<std::int32_t>(exponent) - 127) + p;
    // libvmaf returns early for 0 and negative arguments; selecting at the end
    // gives the same values without a branch.
    return x == 0 ? -std::numeric_limits<float>::infinity()
                  : (x < 0 ? std::numeric_limits<float>::quiet_NaN() : v);
}

namespace {

// Variances and covariance of one sample as libvmaf forms them (float), with
// the variances clipped at 0.
struct Moments {
    float s1, s2, s12;
};
inline Moments local_moments(float m1, float m2, float xx, float yy, float xy) {
    float s1 = xx - m1 * m1;
    float s2 = yy - m2 * m2;
    const float s12 = xy - m1 * m2;
    s1 = s1 > 0.0f ? s1 : 0.0f;
    s2 = s2 > 0.0f ? s2 : 0.0f;
    return {s1, s2, s12};
}

constexpr float kStatEps = 1.0e-10f;

}  // namespace

VifSums statistic(const float* mu1, const float* mu2, const float* xx, const float* yy,
                  const float* xy, std::ptrdiff_t stride, int w, int h,
                  double enhn_gain_limit, double sigma_nsq, float* scratch) {
    constexpr float eps = kStatEps;
    // powf of the narrowed variance, divided in double, stored as float.
    const float sigma_max_inv =
        static_cast<float>(std::pow(static_cast<float>(sigma_nsq), 2.0f) / (255.0 * 255.0));
    const float gain_limit = static_cast<float>(enhn_gain_limit);
    float* num_log = scratch;
    float* den_log = scratch + w;
    VifSums sums;
    for (int i = 0; i < h; ++i) {
        const std::ptrdiff_t row = i * stride;
        // Three passes over the row (log arguments, logs, selection and sums)
        // so the first two have no data-dependent control flow; each sample's
        // arithmetic is libvmaf's, and the sums keep its order.
        for (int j = 0; j < w; ++j) {
            Moments m = local_moments(mu1[row + j], mu2[row + j], xx[row + j], yy[row + j],
                                      xy[row + j]);
            float g = m.s12 / (m.s1 + eps);
            float sv_sq = m.s2 - g * m.s12;
            // libvmaf's three ifs, in order, as selects.
            const bool s1_tiny = m.s1 < eps;
            g = s1_tiny ? 0.0f : g;
            sv_sq = s1_tiny ? m.s2 : sv_sq;
            const float s1 = s1_tiny ? 0.0f : m.s1;
            const bool s2_tiny = m.s2 < eps;
            g = s2_tiny ? 0.0f : g;
            sv_sq = s2_tiny ? 0.0f : sv_sq;
            const bool g_negative = g < 0.0f;
            sv_sq = g_negative ? m.s2 : sv_sq;
            g = g_negative ? 0.0f : g;
            sv_sq = sv_sq > eps ? sv_sq : eps;
            g = g < gain_limit ? g : gain_limit;
            // sigma_nsq is a double: both log arguments are formed in double
            // (the float numerator widened) and narrowed to float for the log.
            num_log[j] = static_cast<float>(
                1.0 + static_cast<double>(g * g * s1) / (static_cast<double>(sv_sq) + sigma_nsq));
            den_log[j] = static_cast<float>(1.0 + static_cast<double>(s1) / sigma_nsq);
        }
        for (int j = 0; j < w; ++j) {
            num_log[j] = log2_approx(num_log[j]);
            den_log[j] = log2_approx(den_log[j]);
        }
        float row_num = 0.0f, row_den = 0.0f;
        for (int j = 0; j < w; ++j) {
            const Moments m = local_moments(mu1[row + j], mu2[row + j], xx[row + j], yy[row + j],
                                            xy[row + j]);
            const float s1 = m.s1 < eps ? 0.0f : m.s1;
            float num = m.s12 < 0.0f ? 0.0f : num_log[j];
            float den = den_log[j];
            const bool low_variance = s1 < sigma_nsq;
            num = low_variance ? 1.0f - m.s2 * sigma_max_inv : num;
            den = low_variance ? 1.0f : den;
            row_num += num;
            row_den += den;
        }
        sums.num += row_num;
        sums.den += row_den;
    }
    return sums;
}

namespace {

// Both scalers copy a picture whose size does not change (libvmaf's
// memcpy); true when it did.
bool copy_same_size(const float* src, std::ptrdiff_t src_stride, int src_w, int src_h,
                    float* dst, std::ptrdiff_t dst_stride, int dst_w, int dst_h) {
    if (src_w != dst_w || src_h != dst_h) return false;
    for (int y = 0; y < dst_h; ++y)
        std::memcpy(dst + y * dst_stride, src + y * src_stride, sizeof(float) * dst_w);
    return true;
}

}  // namespace

void scale_nearest(const float* src, std::ptrdiff_t src_stride, int src_w, int src_h,
                   float* dst, std::ptrdiff_t dst_stride, int dst_w, int dst_h) {
    if (copy_same_size(src, src_stride, src_w, src_h, dst, dst_stride, dst_w, dst_h)) return;
    const float ratio_x = static_cast<float>(src_w) / dst_w;
    const float ratio_y = static_cast<float>(src_h) / dst_h;
    for (int y = 0; y < dst_h; ++y) {
        const int sy = static_cast<int>(y * ratio_y);
        for (int x = 0; x < dst_w; ++x)
            dst[y * dst_stride + x] = src[sy * src_stride + static_cast<int>(x * ratio_x)];
    }
}

namespace {

float bilinear_at(const float* src, std::ptrdiff_t stride, int w, int h, float x, float y) {
    const int x1 = static_cast<int>(mirror_f(std::floor(x), 0, static_cast<float>(w - 1)));
    const int x2 = static_cast<int>(mirror_f(std::ceil(x), 0, static_cast<float>(w - 1)));
    const int y1 = static_cast<int>(mirror_f(std::floor(y), 0, static_cast<float>(h - 1)));
    const int y2 = static_cast<int>(mirror_f(std::ceil(y), 0, static_cast<float>(h - 1)));
    const float dx = x - x1;
    const float dy = y - y1;
    // Float, weights multiplied first, the four terms added left to right.
    return (1 - dy) * (1 - dx) * src[y1 * stride + x1] + (1 - dy) * dx * src[y1 * stride + x2] +
           dy * (1 - dx) * src[y2 * stride + x1] + dy * dx * src[y2 * stride + x2];
}

}  // namespace

void scale_bilinear(const float* src, std::ptrdiff_t src_stride, int src_w, int src_h,
                    float* dst, std::ptrdiff_t dst_stride, int dst_w, int dst_h) {
    if (copy_same_size(src, src_stride, src_w, src_h, dst, dst_stride, dst_w, dst_h)) return;
    resample(src, src_stride, src_w, src_h, dst, dst_stride, dst_w, dst_h, bilinear_at);
}

}  // namespace vmafpp::float_vif

namespace vmafpp::float_vif {

const FloatVifKernels& float_vif_kernels_scalar() {
    static const FloatVifKernels k{&blur, &blur_squared, &blur_product, &blur_decimate,
                                       &statistic};
    return k;
}

}  // namespace vmafpp::float_vif
