// The loop-reordered float kernels against per-output loops written the way
// the definitions read (one output at a time, taps in order): the reordering
// must not change a single bit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ansnr/float_ansnr_kernels.hpp"
#include "vif/float_vif_kernels.hpp"

namespace vmafpp {
namespace {

std::vector<float> noise_image(int w, int h, std::ptrdiff_t stride, unsigned seed) {
    std::vector<float> v(static_cast<std::size_t>(stride * h), 0.0f);
    unsigned s = seed;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            s = s * 1664525u + 1013904223u;
            v[y * stride + x] = static_cast<float>(static_cast<int>(s >> 24) - 128) / 3.0f;
        }
    return v;
}

// Separable blur, one output at a time: vertical sums into a row, then the
// horizontal sum, each float from 0 with taps in order.
std::vector<float> naive_blur(const float* f, int fw, const std::vector<float>& src, int w, int h,
                              std::ptrdiff_t stride, int mode, const std::vector<float>* other) {
    std::vector<float> out(static_cast<std::size_t>(stride * h), 0.0f), tmp(w);
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            float acc = 0;
            for (int k = 0; k < fw; ++k) {
                const int y = float_vif::reflect(i - fw / 2 + k, h);
                const float a = src[y * stride + j];
                const float v = mode == 0 ? a : (mode == 1 ? a * a : a * (*other)[y * stride + j]);
                acc += f[k] * v;
            }
            tmp[j] = acc;
        }
        for (int j = 0; j < w; ++j) {
            float acc = 0;
            for (int k = 0; k < fw; ++k) acc += f[k] * tmp[float_vif::reflect(j - fw / 2 + k, w)];
            out[i * stride + j] = acc;
        }
    }
    return out;
}

TEST(FloatKernels, VifBlursMatchPerOutputLoops) {
    for (int scale = 0; scale < 4; ++scale) {
        const int w = 37 + scale, h = 29 - scale;
        const std::ptrdiff_t stride = 48;
        float f[float_vif::kMaxFilterWidth];
        float_vif::gaussian_filter(f, scale, 1.0f);
        const int fw = float_vif::filter_width(scale, 1.0f);
        const auto a = noise_image(w, h, stride, 1 + scale), b = noise_image(w, h, stride, 9);
        std::vector<float> row(w + fw), out(static_cast<std::size_t>(stride * h));
        float_vif::blur(f, fw, a.data(), stride, out.data(), stride, w, h, row.data());
        const auto want0 = naive_blur(f, fw, a, w, h, stride, 0, nullptr);
        float_vif::blur_squared(f, fw, a.data(), stride, out.data() + 0, stride, w, h, row.data());
        const auto got1 = out;
        float_vif::blur(f, fw, a.data(), stride, out.data(), stride, w, h, row.data());
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) ASSERT_EQ(out[y * stride + x], want0[y * stride + x]);
        const auto want1 = naive_blur(f, fw, a, w, h, stride, 1, nullptr);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) ASSERT_EQ(got1[y * stride + x], want1[y * stride + x]);
        float_vif::blur_product(f, fw, a.data(), stride, b.data(), stride, out.data(), stride, w, h,
                                row.data());
        const auto want2 = naive_blur(f, fw, a, w, h, stride, 2, &b);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) ASSERT_EQ(out[y * stride + x], want2[y * stride + x]);
        // Decimation keeps the even rows and columns of the same blur.
        std::vector<float> dec(static_cast<std::size_t>(stride * h));
        float_vif::blur_decimate(f, fw, a.data(), stride, dec.data(), stride, w, h, row.data());
        for (int y = 0; y < h / 2; ++y)
            for (int x = 0; x < w / 2; ++x)
                ASSERT_EQ(dec[y * stride + x], want0[2 * y * stride + 2 * x]) << scale;
    }
}

TEST(FloatKernels, AnsnrFilterMatchesPerOutputLoops) {
    const int w = 23, h = 17;
    const std::ptrdiff_t stride = 32;
    const auto src = noise_image(w, h, stride, 5);
    std::vector<float> out(static_cast<std::size_t>(stride * h)),
        scratch(float_ansnr::filter2d_scratch_size(5, w));
    const auto refl = [](int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k); };
    for (int fw : {3, 5}) {
        const float* f = fw == 3 ? float_ansnr::kRefFilter : float_ansnr::kDisFilter;
        float_ansnr::filter2d(f, fw, src.data(), stride, out.data(), stride, w, h, scratch.data());
        for (int i = 0; i < h; ++i)
            for (int j = 0; j < w; ++j) {
                float acc = 0;
                for (int fi = 0; fi < fw; ++fi) {
                    float inner = 0;
                    for (int fj = 0; fj < fw; ++fj)
                        inner += f[fi * fw + fj] *
                                 src[refl(i - fw / 2 + fi, h) * stride + refl(j - fw / 2 + fj, w)];
                    acc += inner;
                }
                ASSERT_EQ(out[i * stride + j], acc) << fw << " " << i << " " << j;
            }
    }
}

TEST(FloatKernels, Log2ApproxSpecialValues) {
    EXPECT_EQ(float_vif::log2_approx(1.0f), 0.0f);
    EXPECT_EQ(float_vif::log2_approx(8.0f), 3.0f);
    EXPECT_TRUE(std::isinf(float_vif::log2_approx(0.0f)));
    EXPECT_TRUE(std::isnan(float_vif::log2_approx(-1.0f)));
    EXPECT_NEAR(float_vif::log2_approx(3.0f), std::log2(3.0f), 1e-4);
}

// float_vif::scale_bilinear (float VIF's and SpEED's bilinear prescale,
// through float_vif_scale.hpp's resample): libvmaf's sample point
// (i + 0.5) * ratio - 0.5 and its four weights. Halving a 4x4 picture puts
// every point midway between four samples of a ramp of squares, so each
// output is their mean, exact in float, and a shifted point or a wrong
// weight changes it.
TEST(FloatKernels, ScaleBilinearSamplesLibvmafsPoints) {
    float src[16];
    for (int i = 0; i < 16; ++i) src[i] = static_cast<float>(i * i);
    float dst[4] = {};
    float_vif::scale_bilinear(src, 4, 4, 4, dst, 2, 2, 2);
    const float want[4] = {(0 + 1 + 16 + 25) / 4.0f, (4 + 9 + 36 + 49) / 4.0f,
                           (64 + 81 + 144 + 169) / 4.0f, (100 + 121 + 196 + 225) / 4.0f};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(dst[i], want[i]) << "output " << i;
}

}  // namespace
}  // namespace vmafpp
