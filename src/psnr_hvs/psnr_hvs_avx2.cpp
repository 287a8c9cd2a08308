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

// Block k's row of eight samples starting at p, zero-extended to int32.
inline __m256i row_of(const std::uint8_t* p) {
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
inline __m256i row_of(const std::uint16_t* p) {
    return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// Row i of the eight blocks: r[k] holds block k's samples (lane j = column
// j), and the 8x8 transpose turns it into c[j] (lane k = block k), the
// layout of Blocks. Only whole int32 lanes move, so the values are the
// samples themselves.
inline void transpose8x8(const __m256i r[8], I8 c[8]) {
    __m256i t[8], u[8];
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(r[k], r[k + 1]);      // k0 k+1,0 k1 k+1,1 | 4, 5
        t[k + 1] = _mm256_unpackhi_epi32(r[k], r[k + 1]);  // columns 2, 3 | 6, 7
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);          // column 0 | 4 of rows k..k+3
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);      // column 1 | 5
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);  // column 2 | 6
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);  // column 3 | 7
    }
    for (int j = 0; j < 4; ++j) {
        c[j].v = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);
        c[j + 4].v = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31);
    }
}

template <class T>
void load_blocks(const std::uint8_t* base, std::ptrdiff_t stride, int x, int y, Blocks& b) {
    for (int i = 0; i < 8; ++i) {
        // Block k's row starts at x + 7k; the last ends at x + 56 <= w - 1.
        const T* row = reinterpret_cast<const T*>(base + (y + i) * stride) + x;
        __m256i r[kLanes];
        for (int k = 0; k < kLanes; ++k) r[k] = row_of(row + k * psnr_hvs::kStep);
        transpose8x8(r, b.c + i * 8);
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

// The plane's error sum, one float chain through every coefficient of every
// block in block order, is the plane's critical path: a group's 512 terms
// are left pending and added a slice at a time between the phases of the
// next group, whose work does not depend on them, so the chain's latency
// hides behind it. The order of the terms is unchanged: a group's terms
// (lane after lane, coefficients in row-major order within each) are all
// added before the next group's or a row's scalar tail blocks.
struct PendingSum {
    float sum = 0.0f;
    const float (*err)[kLanes] = nullptr;  // err[t][k]: coefficient t of lane k
    int next = 0, end = 0;                 // term i is lane i / 64, coefficient i % 64

    void add(int count) {
        const int stop = next + count < end ? next + count : end;
        // A local chain: err may alias `sum` as far as the compiler knows.
        float s = sum;
        for (int i = next; i < stop; ++i) s += err[i % 64][i / 64];
        sum = s;
        next = stop > next ? stop : next;
    }
    void finish() { add(end - next); }
    void start(const float (*e)[kLanes]) {
        err = e;
        next = 0;
        end = 64 * kLanes;
    }
};

// One slice of the pending terms between two phases of a group: seven
// phases take the 512 terms.
constexpr int kSlice = 74;

template <class T>
float plane_avx2_t(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                   std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    Table8x8 mask;
    psnr_hvs::mask_table(csf, mask);
    PendingSum pending;
    int blocks = 0;
    Blocks s, d;
    alignas(32) float err[2][64][kLanes];  // this group's and the pending group's
    int buf = 0;
    for (int y = 0; y < h - 7; y += psnr_hvs::kStep) {
        int x = 0;
        // Eight blocks need the last one's start, x + 49, at most w - 8.
        for (; x + (kLanes - 1) * psnr_hvs::kStep < w - 7; x += kLanes * psnr_hvs::kStep) {
            load_blocks<T>(ref, ref_stride, x, y, s);
            pending.add(kSlice);
            load_blocks<T>(dis, dis_stride, x, y, d);
            pending.add(kSlice);
            transform(s);
            pending.add(kSlice);
            transform(d);
            pending.add(kSlice);
            __m256 threshold = masking(s, mask);
            pending.add(kSlice);
            const __m256 d_mask = masking(d, mask);
            pending.add(kSlice);
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
                _mm256_store_ps(err[buf][t], _mm256_mul_ps(ec, ec));
            }
            pending.finish();  // the previous group, before this one's terms
            pending.start(err[buf]);
            buf ^= 1;
            blocks += kLanes;
        }
        pending.finish();  // before the row's scalar blocks
        for (; x < w - 7; x += psnr_hvs::kStep, ++blocks)
            psnr_hvs::add_block_error(ref, ref_stride, dis, dis_stride, x, y, bpc, mask, csf,
                                      pending.sum);
    }
    pending.finish();
    return psnr_hvs::normalised_error(pending.sum, blocks, bpc);
}

float plane_avx2(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                 std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    return bpc > 8 ? plane_avx2_t<std::uint16_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf)
                   : plane_avx2_t<std::uint8_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf);
}

}  // namespace

void psnr_hvs_init_avx2(PsnrHvsKernels& k) { k.plane = plane_avx2; }

}  // namespace vmafpp
