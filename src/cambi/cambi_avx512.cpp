// AVX-512 twins of the cambi kernels: the c-value loop with its histogram
// ranges counted 32 cells at a time, the last cells under a lane mask.
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
};

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
