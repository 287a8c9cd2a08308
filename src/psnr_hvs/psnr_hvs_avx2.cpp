// AVX2 twin of psnr_hvs's plane kernel: eight horizontally adjacent blocks
// at once, one block per lane. Every lane runs its block's scalar sequence
// (the float sums of the means, variances and masking in row-major order, the
// integer DCT, the per-coefficient errors), so each lane holds the scalar's
// bits; the plane's error sum, one chain through every block in row-major
// block order, is then added lane by lane, coefficient by coefficient, as
// the scalar adds it. Rows end with the scalar block (add_block_error).
#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp {

namespace {

using psnr_hvs::Table8x8;

constexpr int kLanes = 8;

// Eight int32 lanes with the operators fdct8_lifting uses.
struct I8 {
    __m256i v;
    friend I8 operator+(I8 a, I8 b) { return {_mm256_add_epi32(a.v, b.v)}; }
    friend I8 operator-(I8 a, I8 b) { return {_mm256_sub_epi32(a.v, b.v)}; }
};

struct VectorDctOps {
    // (a + (a < 0)) >> 1: a - (a >> 31) adds one to a negative a.
    static I8 half(I8 a) { return {_mm256_srai_epi32(_mm256_sub_epi32(a.v, _mm256_srai_epi32(a.v, 31)), 1)}; }
    // 32-bit products: the scalar forms them in 64 bits, but for samples of
    // up to 12 bits (psnr_hvs refuses more) they fit 32 bits (checkasm's
    // psnr_hvs_plane bands at 12 bits with extreme fills hold the twin to
    // the scalar there).
    static I8 lift(I8 u, std::int32_t c, int s) {
        const __m256i p = _mm256_mullo_epi32(u.v, _mm256_set1_epi32(c));
        return {_mm256_srai_epi32(_mm256_add_epi32(p, _mm256_set1_epi32(1 << (s - 1))), s)};
    }
};

// Coefficients of eight blocks: c[t] holds coefficient t (row-major) of each.
struct Blocks {
    I8 c[64];
    __m256 var_ratio;
};

template <class T>
void load_blocks(const std::uint8_t* base, std::ptrdiff_t stride, int x, int y, Blocks& b) {
    alignas(32) std::int32_t lanes[kLanes];
    for (int i = 0; i < 8; ++i) {
        const T* row = reinterpret_cast<const T*>(base + (y + i) * stride) + x;
        for (int j = 0; j < 8; ++j) {
            for (int k = 0; k < kLanes; ++k) lanes[k] = row[k * psnr_hvs::kStep + j];
            b.c[i * 8 + j].v = _mm256_load_si256(reinterpret_cast<const __m256i*>(lanes));
        }
    }
    // Means and unbiased variances of the block and of its 4x4 quadrants,
    // each sum a float chain in row-major order, as load_block's.
    __m256 gmean = _mm256_setzero_ps();
    __m256 qmean[4] = {gmean, gmean, gmean, gmean};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const __m256 v = _mm256_cvtepi32_ps(b.c[i * 8 + j].v);
            const int q = ((i & 4) >> 2) + ((j & 4) >> 1);
            gmean = _mm256_add_ps(gmean, v);
            qmean[q] = _mm256_add_ps(qmean[q], v);
        }
    gmean = _mm256_div_ps(gmean, _mm256_set1_ps(64.f));
    for (__m256& m : qmean) m = _mm256_div_ps(m, _mm256_set1_ps(16.f));
    __m256 gvar = _mm256_setzero_ps();
    __m256 qvar[4] = {gvar, gvar, gvar, gvar};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            const __m256 v = _mm256_cvtepi32_ps(b.c[i * 8 + j].v);
            const int q = ((i & 4) >> 2) + ((j & 4) >> 1);
            const __m256 dg = _mm256_sub_ps(v, gmean);
            const __m256 dq = _mm256_sub_ps(v, qmean[q]);
            gvar = _mm256_add_ps(gvar, _mm256_mul_ps(dg, dg));
            qvar[q] = _mm256_add_ps(qvar[q], _mm256_mul_ps(dq, dq));
        }
    gvar = _mm256_mul_ps(gvar, _mm256_set1_ps(1 / 63.f * 64));
    for (__m256& v : qvar) v = _mm256_mul_ps(v, _mm256_set1_ps(1 / 15.f * 16));
    const __m256 qsum =
        _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(qvar[0], qvar[1]), qvar[2]), qvar[3]);
    const __m256 positive = _mm256_cmp_ps(gvar, _mm256_setzero_ps(), _CMP_GT_OQ);
    b.var_ratio = _mm256_blendv_ps(gvar, _mm256_div_ps(qsum, gvar), positive);
}

// fdct8x8 of each lane's block: columns into a scratch, then its columns.
void transform(Blocks& b) {
    I8 scratch[64];
    for (int i = 0; i < 8; ++i) {
        I8 t[8];
        for (int k = 0; k < 8; ++k) t[k] = b.c[k * 8 + i];
        psnr_hvs::fdct8_lifting<VectorDctOps>(t);
        for (int k = 0; k < 8; ++k) scratch[8 * i + k] = t[k];
    }
    for (int i = 0; i < 8; ++i) {
        I8 t[8];
        for (int k = 0; k < 8; ++k) t[k] = scratch[k * 8 + i];
        psnr_hvs::fdct8_lifting<VectorDctOps>(t);
        for (int k = 0; k < 8; ++k) b.c[8 * i + k] = t[k];
    }
}

// masking(): the AC coefficients' float(c * c) * mask summed in row-major
// order, times the variance ratio, square root in double, over 32.
__m256 masking(const Blocks& b, const Table8x8& mask) {
    __m256 m = _mm256_setzero_ps();
    for (int t = 1; t < 64; ++t) {
        const __m256 sq = _mm256_cvtepi32_ps(_mm256_mullo_epi32(b.c[t].v, b.c[t].v));
        m = _mm256_add_ps(m, _mm256_mul_ps(sq, _mm256_set1_ps(mask[t / 8][t % 8])));
    }
    const __m256 x = _mm256_mul_ps(m, b.var_ratio);
    const __m256d lo = _mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)));
    const __m256d hi = _mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)));
    // Dividing by 32 is exact in double; one rounding to float follows.
    const __m256d k32 = _mm256_set1_pd(32.0);
    return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_div_pd(hi, k32)),
                           _mm256_cvtpd_ps(_mm256_div_pd(lo, k32)));
}

template <class T>
float plane_avx2_t(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                   std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    Table8x8 mask;
    psnr_hvs::mask_table(csf, mask);
    float sum = 0.0f;
    int blocks = 0;
    Blocks s, d;
    alignas(32) float err[64][kLanes];
    for (int y = 0; y < h - 7; y += psnr_hvs::kStep) {
        int x = 0;
        // Eight blocks need the last one's start, x + 49, at most w - 8.
        for (; x + (kLanes - 1) * psnr_hvs::kStep < w - 7; x += kLanes * psnr_hvs::kStep) {
            load_blocks<T>(ref, ref_stride, x, y, s);
            load_blocks<T>(dis, dis_stride, x, y, d);
            transform(s);
            transform(d);
            __m256 threshold = masking(s, mask);
            const __m256 d_mask = masking(d, mask);
            threshold = _mm256_blendv_ps(threshold, d_mask,
                                         _mm256_cmp_ps(d_mask, threshold, _CMP_GT_OQ));
            for (int t = 0; t < 64; ++t) {
                // |s - d| in int32, then float, as std::abs of the difference.
                __m256 e = _mm256_cvtepi32_ps(_mm256_abs_epi32(_mm256_sub_epi32(s.c[t].v, d.c[t].v)));
                if (t != 0) {
                    const __m256 lim = _mm256_div_ps(threshold, _mm256_set1_ps(mask[t / 8][t % 8]));
                    const __m256 below = _mm256_cmp_ps(e, lim, _CMP_LT_OQ);
                    e = _mm256_andnot_ps(below, _mm256_sub_ps(e, lim));
                }
                const __m256 ec = _mm256_mul_ps(e, _mm256_set1_ps(csf[t / 8][t % 8]));
                _mm256_store_ps(err[t], _mm256_mul_ps(ec, ec));
            }
            for (int k = 0; k < kLanes; ++k)
                for (int t = 0; t < 64; ++t) sum += err[t][k];
            blocks += kLanes;
        }
        for (; x < w - 7; x += psnr_hvs::kStep, ++blocks)
            psnr_hvs::add_block_error(ref, ref_stride, dis, dis_stride, x, y, bpc, mask, csf, sum);
    }
    return psnr_hvs::normalised_error(sum, blocks, bpc);
}

float plane_avx2(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                 std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    return bpc > 8 ? plane_avx2_t<std::uint16_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf)
                   : plane_avx2_t<std::uint8_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf);
}

}  // namespace

void psnr_hvs_init_avx2(PsnrHvsKernels& k) { k.plane = plane_avx2; }

}  // namespace vmafpp
