#include "ansnr/float_ansnr_kernels.hpp"

namespace vmafpp::float_ansnr {

// Double quotients stored as float, as libvmaf's tables are.
const float kRefFilter[9] = {
    static_cast<float>(1.0 / 16.0), static_cast<float>(2.0 / 16.0), static_cast<float>(1.0 / 16.0),
    static_cast<float>(2.0 / 16.0), static_cast<float>(4.0 / 16.0), static_cast<float>(2.0 / 16.0),
    static_cast<float>(1.0 / 16.0), static_cast<float>(2.0 / 16.0), static_cast<float>(1.0 / 16.0),
};

#define VMAFPP_D(n) static_cast<float>(n / 571.0)
const float kDisFilter[25] = {
    VMAFPP_D(2.0),  VMAFPP_D(7.0),  VMAFPP_D(12.0),  VMAFPP_D(7.0),  VMAFPP_D(2.0),
    VMAFPP_D(7.0),  VMAFPP_D(31.0), VMAFPP_D(52.0),  VMAFPP_D(31.0), VMAFPP_D(7.0),
    VMAFPP_D(12.0), VMAFPP_D(52.0), VMAFPP_D(127.0), VMAFPP_D(52.0), VMAFPP_D(12.0),
    VMAFPP_D(7.0),  VMAFPP_D(31.0), VMAFPP_D(52.0),  VMAFPP_D(31.0), VMAFPP_D(7.0),
    VMAFPP_D(2.0),  VMAFPP_D(7.0),  VMAFPP_D(12.0),  VMAFPP_D(7.0),  VMAFPP_D(2.0),
};
#undef VMAFPP_D

namespace {
inline int reflect_repeat(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k); }
}  // namespace

void filter2d(const float* f, int fw, const float* src, std::ptrdiff_t src_stride, float* dst,
              std::ptrdiff_t dst_stride, int w, int h, float* scratch) {
    const int r = fw / 2;
    const int padded = w + 2 * r;
    float* rows = scratch;                         // fw padded source rows
    float* inner = scratch + fw * padded;          // one filter row's partial sums
    for (int i = 0; i < h; ++i) {
        for (int fi = 0; fi < fw; ++fi) {
            const float* s = src + reflect_repeat(i - r + fi, h) * src_stride;
            float* p = rows + fi * padded;
            for (int j = 0; j < padded; ++j) p[j] = s[reflect_repeat(j - r, w)];
        }
        float* out = dst + i * dst_stride;
        for (int j = 0; j < w; ++j) out[j] = 0.0f;
        // Per output: for each filter row a float partial sum of its taps
        // left to right, then the partial sums added top to bottom. Looping
        // columns innermost keeps that order for every output.
        for (int fi = 0; fi < fw; ++fi) {
            const float* p = rows + fi * padded;
            for (int j = 0; j < w; ++j) inner[j] = 0.0f;
            for (int fj = 0; fj < fw; ++fj) {
                const float c = f[fi * fw + fj];
                for (int j = 0; j < w; ++j) inner[j] += c * p[j + fj];
            }
            for (int j = 0; j < w; ++j) out[j] += inner[j];
        }
    }
}

SignalNoise signal_noise(const float* ref, std::ptrdiff_t ref_stride, const float* dis,
                         std::ptrdiff_t dis_stride, int w, int h) {
    SignalNoise out;
    for (int i = 0; i < h; ++i) {
        const float* r = ref + i * ref_stride;
        const float* d = dis + i * dis_stride;
        float sig = 0.0f, noise = 0.0f;
        for (int j = 0; j < w; ++j) {
            sig += r[j] * r[j];
            noise += (r[j] - d[j]) * (r[j] - d[j]);
        }
        out.signal += sig;
        out.noise += noise;
    }
    return out;
}

}  // namespace vmafpp::float_ansnr
