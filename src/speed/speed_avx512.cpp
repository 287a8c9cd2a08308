// AVX-512 twin of SpEED's covariance kernel (this file alone is compiled
// with the AVX-512 flags; -ffp-contract=off applies as everywhere and no FMA
// intrinsic is used, so every operation rounds where the scalar's does).
//
// Vector lanes never split one sum: lane c of a vector carries the sum of
// block column offset c (five of the eight lanes are used), and each lane
// adds its terms in the scalar's order (rows, then columns), so every mean
// and covariance is the scalar's to the bit. What the vectors buy is five
// (means) or up to 25 (covariances) sums per instruction and independent
// dependency chains. Loads take 8 consecutive samples from column j, the
// contract's 8 floats of slack after each row.
#include <immintrin.h>

#include <cstdint>

#include "dispatch/x86_lanes.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_simd.hpp"

namespace vmafpp::speed {

namespace {

using speed::kBlock;
using speed::kBlockElems;

void covariance_avx512(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                       float* cov) {
    const float size_f = static_cast<float>(static_cast<std::size_t>(sub_w) * sub_h);
    const double size_d = static_cast<double>(static_cast<std::size_t>(sub_w) * sub_h);

    // Means: one float accumulator per block row r, lane c = offset (r, c).
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

    // Means of each block row as doubles, lanes 5..7 zero.
    __m512d my[kBlock];
    for (int r = 0; r < kBlock; ++r) {
        alignas(64) double m[8] = {};
        for (int c = 0; c < kBlock; ++c) m[c] = mean[r * kBlock + c];
        my[r] = _mm512_load_pd(m);
    }

    // Covariance of x = (rx, cx) with every y in block rows 0..rx at once:
    // accumulator ry, lane cy holds the pair (x, (ry, cy)).
    for (int x = 0; x < kBlockElems; ++x) {
        const int rx = x / kBlock, cx = x % kBlock;
        const __m512d mx = _mm512_set1_pd(mean[x]);
        __m512d acc[kBlock];
        for (int r = 0; r <= rx; ++r) acc[r] = _mm512_setzero_pd();
        for (int i = 0; i < sub_h; ++i) {
            const float* xs = d + (rx + i) * stride + cx;
            for (int j = 0; j < sub_w; ++j) {
                const __m512d vx = _mm512_sub_pd(_mm512_set1_pd(xs[j]), mx);
                for (int r = 0; r <= rx; ++r) {
                    const __m512d vy = _mm512_sub_pd(
                        _mm512_cvtps_pd(_mm256_loadu_ps(d + (r + i) * stride + j)), my[r]);
                    acc[r] = _mm512_add_pd(acc[r], _mm512_mul_pd(vx, vy));
                }
            }
        }
        for (int r = 0; r <= rx; ++r) {
            alignas(64) double lanes[8];
            _mm512_store_pd(lanes, acc[r]);
            store_covariances(lanes, r, x, size_d, cov);
        }
    }
}

// speed_simd.hpp's vector: sixteen floats in a zmm.
struct Avx512 {
    VMAFPP_X86_FLOAT_LANES(16, __m512, _mm512, )
    static F zero() { return _mm512_setzero_ps(); }
    static float first(F v) { return _mm512_cvtss_f32(v); }
    template <bool kWide>
    static F samples(const std::uint8_t* p, int j) {
        if constexpr (kWide)
            return _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256(
                reinterpret_cast<const __m256i*>(reinterpret_cast<const std::uint16_t*>(p) + j))));
        return _mm512_cvtepi32_ps(
            _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j))));
    }
};

}  // namespace

void speed_init_avx512(SpeedKernels& k) {
    k.covariance = covariance_avx512;
    k.vertical = vertical_simd<Avx512>;
}

}  // namespace vmafpp::speed
