// AVX2 twins of the cambi kernels: the c-value loop with its histogram
// ranges counted 16 cells at a time.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "cambi/cambi_c_values_loop.hpp"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_mode_loop.hpp"

namespace vmafpp::cambi {

namespace {

// 16 ones then 16 zeros: loaded from (16 - n), the first n lanes are 1.
alignas(32) const std::uint16_t kOnesThenZeros[32] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

// row[0, n) +/- 1: whole vectors, then one vector whose lanes past n add 0
// (the cells there are read and written back unchanged: kHistogramPadding).
struct Avx2Isa {
    static __m256i tail(int n) {
        return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kOnesThenZeros + 16 - n));
    }
    static void inc(std::uint16_t* row, int n) {
        const __m256i one = _mm256_set1_epi16(1);
        int i = 0;
        for (; i + 16 <= n; i += 16) {
            __m256i* p = reinterpret_cast<__m256i*>(row + i);
            _mm256_storeu_si256(p, _mm256_add_epi16(_mm256_loadu_si256(p), one));
        }
        if (i < n) {
            __m256i* p = reinterpret_cast<__m256i*>(row + i);
            _mm256_storeu_si256(p, _mm256_add_epi16(_mm256_loadu_si256(p), tail(n - i)));
        }
    }
    static void dec(std::uint16_t* row, int n) {
        const __m256i one = _mm256_set1_epi16(1);
        int i = 0;
        for (; i + 16 <= n; i += 16) {
            __m256i* p = reinterpret_cast<__m256i*>(row + i);
            _mm256_storeu_si256(p, _mm256_sub_epi16(_mm256_loadu_si256(p), one));
        }
        if (i < n) {
            __m256i* p = reinterpret_cast<__m256i*>(row + i);
            _mm256_storeu_si256(p, _mm256_sub_epi16(_mm256_loadu_si256(p), tail(n - i)));
        }
    }
};

void c_values_avx2(const std::uint16_t* image, const std::uint16_t* mask, std::ptrdiff_t stride,
                   int w, int h, int window, const ContrastSetup& s, float* c_values,
                   std::uint16_t* histograms) {
    c_values_loop<Avx2Isa>(image, mask, stride, w, h, window, s, c_values, histograms);
}

// mode3 of 16 columns: the smallest, replaced by b where b == c, then by a
// where a equals b or c (the order of mode3's tests).
struct Avx2ModeIsa {
    static constexpr int kLanes = 16;
    static void mode3(std::uint16_t* out, const std::uint16_t* a, const std::uint16_t* b,
                      const std::uint16_t* c) {
        const __m256i va = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));
        const __m256i vb = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
        const __m256i vc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c));
        const __m256i a_shared =
            _mm256_or_si256(_mm256_cmpeq_epi16(va, vb), _mm256_cmpeq_epi16(va, vc));
        __m256i r = _mm256_min_epu16(_mm256_min_epu16(va, vb), vc);
        r = _mm256_blendv_epi8(r, vb, _mm256_cmpeq_epi16(vb, vc));
        r = _mm256_blendv_epi8(r, va, a_shared);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), r);
    }
};

void filter_mode_avx2(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                    std::uint16_t* buffer) {
    filter_mode_loop<Avx2ModeIsa>(image, stride, w, h, buffer);
}

}  // namespace

void cambi_init_avx2(CambiKernels& k) {
    k.c_values = &c_values_avx2;
    k.filter_mode = &filter_mode_avx2;
}

}  // namespace vmafpp::cambi
