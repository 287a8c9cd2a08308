// AVX2 twin of SpEED's covariance kernel (this file alone is compiled with
// -mavx2 -mbmi2; -ffp-contract=off applies as everywhere and no FMA
// intrinsic is used, so every operation rounds where the scalar's does).
//
// As in the AVX-512 twin, a lane never splits one sum: lane c carries block
// column offset c, each lane adds its terms in the scalar's order. Four
// doubles per register, so a block row's five offsets take two registers
// (columns 0-3 and 4-7; only lane 0 of the second is used). Loads take 8
// consecutive samples from column j, the contract's slack after each row.
#include <immintrin.h>

#include <cstdint>

#include "dispatch/x86_lanes.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_simd.hpp"

namespace vmafpp::speed {

namespace {

using speed::kBlock;
using speed::kBlockElems;

void covariance_avx2(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                     float* cov) {
    const float size_f = static_cast<float>(static_cast<std::size_t>(sub_w) * sub_h);
    const double size_d = static_cast<double>(static_cast<std::size_t>(sub_w) * sub_h);

    __m256 msum[kBlock];
    for (int r = 0; r < kBlock; ++r) msum[r] = _mm256_setzero_ps();
    for (int i = 0; i < sub_h; ++i)
        for (int j = 0; j < sub_w; ++j)
            for (int r = 0; r < kBlock; ++r)
                msum[r] = _mm256_add_ps(msum[r], _mm256_loadu_ps(d + (r + i) * stride + j));
    for (int r = 0; r < kBlock; ++r) {
        alignas(32) float lanes[8];
        _mm256_store_ps(lanes, msum[r]);
        for (int c = 0; c < kBlock; ++c) mean[r * kBlock + c] = lanes[c] / size_f;
    }

    __m256d my_lo[kBlock], my_hi[kBlock];
    for (int r = 0; r < kBlock; ++r) {
        alignas(32) double m[8] = {};
        for (int c = 0; c < kBlock; ++c) m[c] = mean[r * kBlock + c];
        my_lo[r] = _mm256_load_pd(m);
        my_hi[r] = _mm256_load_pd(m + 4);
    }

    for (int x = 0; x < kBlockElems; ++x) {
        const int rx = x / kBlock, cx = x % kBlock;
        const __m256d mx = _mm256_set1_pd(mean[x]);
        __m256d lo[kBlock], hi[kBlock];
        for (int r = 0; r <= rx; ++r) lo[r] = hi[r] = _mm256_setzero_pd();
        for (int i = 0; i < sub_h; ++i) {
            const float* xs = d + (rx + i) * stride + cx;
            for (int j = 0; j < sub_w; ++j) {
                const __m256d vx = _mm256_sub_pd(_mm256_set1_pd(xs[j]), mx);
                for (int r = 0; r <= rx; ++r) {
                    const float* ys = d + (r + i) * stride + j;
                    const __m256d y_lo = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(ys)), my_lo[r]);
                    const __m256d y_hi =
                        _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(ys + 4)), my_hi[r]);
                    lo[r] = _mm256_add_pd(lo[r], _mm256_mul_pd(vx, y_lo));
                    hi[r] = _mm256_add_pd(hi[r], _mm256_mul_pd(vx, y_hi));
                }
            }
        }
        for (int r = 0; r <= rx; ++r) {
            alignas(32) double lanes[8];
            _mm256_store_pd(lanes, lo[r]);
            _mm256_store_pd(lanes + 4, hi[r]);
            store_covariances(lanes, r, x, size_d, cov);
        }
    }
}

// speed_simd.hpp's vector: eight floats in a ymm.
struct Avx2 {
    VMAFPP_X86_FLOAT_LANES(8, __m256, _mm256, )
    static F zero() { return _mm256_setzero_ps(); }
    static float first(F v) { return _mm256_cvtss_f32(v); }
    template <bool kWide>
    static F samples(const std::uint8_t* p, int j) {
        if constexpr (kWide)
            return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(
                reinterpret_cast<const __m128i*>(reinterpret_cast<const std::uint16_t*>(p) + j))));
        return _mm256_cvtepi32_ps(
            _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + j))));
    }
};

}  // namespace

void speed_init_avx2(SpeedKernels& k) {
    k.covariance = covariance_avx2;
    k.vertical = vertical_simd<Avx2>;
}

}  // namespace vmafpp::speed
