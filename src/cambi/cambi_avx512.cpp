// AVX-512 twins of the cambi kernels: the c-value loop with its histogram
// ranges counted 32 cells at a time, the last cells under a lane mask, and
// its c-values 16 pixels at a time; the mode filter 32 columns at a time.
// GCC 12's AVX-512 headers build their "undefined" vectors by
// self-initialisation (GCC PR 105593), which the uninitialised-use warnings
// report wherever such an intrinsic is inlined; they concern the header, so
// they are off for this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cambi/cambi_c_values_loop.hpp"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_mode_loop.hpp"

namespace vmafpp::cambi {

namespace {

// row[0, n) +/- 1; the masked tail touches no cell past n.
struct Avx512Isa {
    static __mmask32 first(int n) { return static_cast<__mmask32>((std::uint64_t{1} << n) - 1); }
    static void inc(std::uint16_t* row, int n) {
        const __m512i one = _mm512_set1_epi16(1);
        int i = 0;
        for (; i + 32 <= n; i += 32)
            _mm512_storeu_si512(row + i, _mm512_add_epi16(_mm512_loadu_si512(row + i), one));
        if (i < n) {
            const __mmask32 m = first(n - i);
            const __m512i v = _mm512_maskz_loadu_epi16(m, row + i);
            _mm512_mask_storeu_epi16(row + i, m, _mm512_add_epi16(v, one));
        }
    }
    static void dec(std::uint16_t* row, int n) {
        const __m512i one = _mm512_set1_epi16(1);
        int i = 0;
        for (; i + 32 <= n; i += 32)
            _mm512_storeu_si512(row + i, _mm512_sub_epi16(_mm512_loadu_si512(row + i), one));
        if (i < n) {
            const __mmask32 m = first(n - i);
            const __m512i v = _mm512_maskz_loadu_epi16(m, row + i);
            _mm512_mask_storeu_epi16(row + i, m, _mm512_sub_epi16(v, one));
        }
    }
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out);
};

// c_values_row for 16 pixels at a time: the AVX2 twin's steps (see
// cambi_avx2.cpp) with lane masks in mask registers.
void Avx512Isa::row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i low = _mm512_set1_epi32(0xffff);
    const __m512i band_size = _mm512_set1_epi32(s.band_size);
    const __m512i nd = _mm512_set1_epi32(s.num_diffs);
    const __m512i vlt = _mm512_set1_epi32(s.vlt_luma);
    const __m512i width = _mm512_set1_epi32(w);
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        const __m512i m = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask + x)));
        const __m512i img = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(image + x)));
        const __m512i compact = _mm512_sub_epi32(img, _mm512_set1_epi32(s.band_base));
        // 0 <= compact < band_size as one unsigned compare.
        const __mmask16 valid = _mm512_test_epi32_mask(m, m) & _mm512_cmplt_epu32_mask(compact, band_size);
        if (!valid) {
            _mm512_storeu_ps(out + x, _mm512_setzero_ps());
            continue;
        }
        const __m512i v = _mm512_add_epi32(img, nd);
        const __m512i at = _mm512_add_epi32(_mm512_mullo_epi32(compact, width),
                                            _mm512_add_epi32(lanes, _mm512_set1_epi32(x)));
        const __m512i p0 = _mm512_and_si512(_mm512_mask_i32gather_epi32(zero, valid, at, hist, 2), low);
        __m512 c = _mm512_setzero_ps();
        for (int d = 0; d < s.num_diffs; ++d) {
            const __mmask16 tested =
                valid & _mm512_cmple_epi32_mask(v, _mm512_set1_epi32(s.tvi[d])) &
                _mm512_cmpgt_epi32_mask(_mm512_add_epi32(v, _mm512_set1_epi32(d + 1)), vlt);
            if (!tested) continue;
            const __m512i step = _mm512_set1_epi32((d + 1) * w);
            const __m512i p1 = _mm512_and_si512(
                _mm512_mask_i32gather_epi32(zero, tested, _mm512_add_epi32(at, step), hist, 2), low);
            const __mmask16 below = tested & _mm512_cmpgt_epi32_mask(compact, _mm512_set1_epi32(d));
            const __m512i p2 = _mm512_and_si512(
                _mm512_mask_i32gather_epi32(zero, below, _mm512_sub_epi32(at, step), hist, 2), low);
            const __m512i p = _mm512_max_epi32(p1, p2);
            const __m512i prod = _mm512_mullo_epi32(_mm512_mullo_epi32(_mm512_set1_epi32(s.weights[d]), p0), p);
            const __m512 r = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), tested, _mm512_add_epi32(p, p0), recip, 4);
            const __m512 val = _mm512_mul_ps(_mm512_cvtepi32_ps(prod), r);
            c = _mm512_mask_blend_ps(tested & _mm512_cmp_ps_mask(val, c, _CMP_GT_OQ), c, val);
        }
        _mm512_storeu_ps(out + x, c);
    }
    c_values_row(image, mask, w, s, hist, recip, out, x);
}

void c_values_avx512(const std::uint16_t* image, const std::uint16_t* mask,
                     std::ptrdiff_t stride, int w, int h, int window, const ContrastSetup& s,
                     float* c_values, std::uint16_t* histograms) {
    c_values_loop<Avx512Isa>(image, mask, stride, w, h, window, s, c_values, histograms);
}

// mode3 of 32 columns: the smallest, replaced by b where b == c, then by a
// where a equals b or c (the order of mode3's tests).
struct Avx512ModeIsa {
    static constexpr int kLanes = 32;
    static void mode3(std::uint16_t* out, const std::uint16_t* a, const std::uint16_t* b,
                      const std::uint16_t* c) {
        const __m512i va = _mm512_loadu_si512(a);
        const __m512i vb = _mm512_loadu_si512(b);
        const __m512i vc = _mm512_loadu_si512(c);
        const __mmask32 a_shared = _mm512_cmpeq_epi16_mask(va, vb) | _mm512_cmpeq_epi16_mask(va, vc);
        __m512i r = _mm512_min_epu16(_mm512_min_epu16(va, vb), vc);
        r = _mm512_mask_blend_epi16(_mm512_cmpeq_epi16_mask(vb, vc), r, vb);
        r = _mm512_mask_blend_epi16(a_shared, r, va);
        _mm512_storeu_si512(out, r);
    }
};

void filter_mode_avx512(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                    std::uint16_t* buffer) {
    filter_mode_loop<Avx512ModeIsa>(image, stride, w, h, buffer);
}

}  // namespace

void cambi_init_avx512(CambiKernels& k) {
    k.c_values = &c_values_avx512;
    k.filter_mode = &filter_mode_avx512;
}

}  // namespace vmafpp::cambi
