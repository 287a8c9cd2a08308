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

#include "speed/speed_kernels.hpp"

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
            for (int c = 0; c < kBlock; ++c) {
                const int y = r * kBlock + c;
                if (y > x) break;
                const float v = static_cast<float>(lanes[c] / size_d);
                cov[x * kBlockElems + y] = v;
                cov[y * kBlockElems + x] = v;
            }
        }
    }
}


// picture_copy's float of 16 samples at column j: float(v) + -128 at 8
// bits, float(v) * 2^-(bpc-8) + -128 above, which is the scalar's
// float(v) / 2^(bpc-8) exactly (scaling by a power of two does not round
// for these magnitudes).
template <bool kWide>
inline __m512 picture_floats(const std::uint8_t* p, int j, __m512 inv_scale) {
    const __m512 offset = _mm512_set1_ps(-128.0f);
    if constexpr (kWide) {
        const __m512i w = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(reinterpret_cast<const std::uint16_t*>(p) + j)));
        return _mm512_add_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(w), inv_scale), offset);
    } else {
        (void)inv_scale;
        const __m512i w = _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j)));
        return _mm512_add_ps(_mm512_cvtepi32_ps(w), offset);
    }
}

template <bool kWide, bool kDiff>
void vertical_columns(const float* f, int fw, const std::uint8_t* const* a,
                      const std::uint8_t* const* b, __m512 inv_scale, int j0, int j1,
                      float* mid) {
    int j = j0;
    for (; j + 16 <= j1; j += 16) {
        __m512 acc = _mm512_setzero_ps();
        for (int k = 0; k < fw; ++k) {
            __m512 v = picture_floats<kWide>(a[k], j, inv_scale);
            if constexpr (kDiff) v = _mm512_sub_ps(v, picture_floats<kWide>(b[k], j, inv_scale));
            acc = _mm512_add_ps(acc, _mm512_mul_ps(_mm512_set1_ps(f[k]), v));
        }
        _mm512_storeu_ps(mid + j, acc);
    }
    // The last columns one at a time, the same operations in scalar form.
    const float scale = 1.0f / _mm512_cvtss_f32(inv_scale);
    for (; j < j1; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            float v;
            if constexpr (kWide)
                v = static_cast<float>(reinterpret_cast<const std::uint16_t*>(a[k])[j]) / scale + -128.0f;
            else
                v = static_cast<float>(a[k][j]) + -128.0f;
            if constexpr (kDiff) {
                float w;
                if constexpr (kWide)
                    w = static_cast<float>(reinterpret_cast<const std::uint16_t*>(b[k])[j]) / scale + -128.0f;
                else
                    w = static_cast<float>(b[k][j]) + -128.0f;
                v = v - w;
            }
            acc += f[k] * v;
        }
        mid[j] = acc;
    }
}

void vertical_avx512(const float* f, int fw, const std::uint8_t* const* a,
                  const std::uint8_t* const* b, int bpc, int j0, int j1, float* mid) {
    const __m512 inv = _mm512_set1_ps(bpc == 8 ? 1.0f : 1.0f / static_cast<float>(1 << (bpc - 8)));
    if (bpc == 8) {
        if (b) vertical_columns<false, true>(f, fw, a, b, inv, j0, j1, mid);
        else vertical_columns<false, false>(f, fw, a, b, inv, j0, j1, mid);
    } else {
        if (b) vertical_columns<true, true>(f, fw, a, b, inv, j0, j1, mid);
        else vertical_columns<true, false>(f, fw, a, b, inv, j0, j1, mid);
    }
}

}  // namespace

void speed_init_avx512(SpeedKernels& k) {
    k.covariance = covariance_avx512;
    k.vertical = vertical_avx512;
}

}  // namespace vmafpp::speed
