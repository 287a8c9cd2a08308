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
              std::ptrdiff_t dst_stride, int w, int h) {
    const int r = fw / 2;
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            float acc = 0.0f;
            for (int fi = 0; fi < fw; ++fi) {
                const float* row = src + reflect_repeat(i - r + fi, h) * src_stride;
                float inner = 0.0f;
                for (int fj = 0; fj < fw; ++fj)
                    inner += f[fi * fw + fj] * row[reflect_repeat(j - r + fj, w)];
                acc += inner;
            }
            dst[i * dst_stride + j] = acc;
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
