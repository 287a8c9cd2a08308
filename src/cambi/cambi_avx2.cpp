// AVX2 twins of the cambi kernels: the c-value loop with its histogram
// ranges counted 16 cells at a time, the mode filter 16 columns at a time,
// the spatial mask (flat flags, column sums and the 7-wide box) 16 pixels at
// a time, and the decimation 16 outputs at a time. The AVX-512 levels use the
// mask and decimation twins as they are. Integer kernels: the twins compute
// the scalar's values exactly, edges and tails by the scalar's code.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

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
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out);
};

// c_values_row for 8 pixels at a time, each lane c_value_pixel's steps:
// the histogram counts gathered (32-bit loads at 16-bit cells, the high half
// dropped; a lane whose test fails loads nothing), the product
// weight * p0 * p in int32 (counts are at most window^2 <= 4225 and weights
// at most 9: below 2^31), converted to float as static_cast does, times
// the gathered reciprocal, and the running maximum taken where val > c.
// The last cell a load touches is one past a counted cell: within the
// histograms' padding.
void c_values_row_avx2(const std::uint16_t* image, const std::uint16_t* mask, int w,
                       const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                       float* out) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i low = _mm256_set1_epi32(0xffff);
    const __m256i band_base = _mm256_set1_epi32(s.band_base);
    const __m256i band_size = _mm256_set1_epi32(s.band_size);
    const __m256i nd = _mm256_set1_epi32(s.num_diffs);
    const __m256i vlt = _mm256_set1_epi32(s.vlt_luma);
    const __m256i width = _mm256_set1_epi32(w);
    const int* cells = reinterpret_cast<const int*>(hist);
    int x = 0;
    for (; x + 8 <= w; x += 8) {
        const __m256i m = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(mask + x)));
        const __m256i img = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(image + x)));
        const __m256i compact = _mm256_sub_epi32(img, band_base);
        const __m256i valid = _mm256_andnot_si256(
            _mm256_cmpeq_epi32(m, zero),
            _mm256_and_si256(_mm256_cmpgt_epi32(compact, _mm256_set1_epi32(-1)),
                             _mm256_cmpgt_epi32(band_size, compact)));
        if (_mm256_testz_si256(valid, valid)) {
            _mm256_storeu_ps(out + x, _mm256_setzero_ps());
            continue;
        }
        const __m256i v = _mm256_add_epi32(img, nd);
        const __m256i at = _mm256_add_epi32(_mm256_mullo_epi32(compact, width),
                                            _mm256_add_epi32(lanes, _mm256_set1_epi32(x)));
        const __m256i p0 = _mm256_and_si256(_mm256_mask_i32gather_epi32(zero, cells, at, valid, 2), low);
        __m256 c = _mm256_setzero_ps();
        for (int d = 0; d < s.num_diffs; ++d) {
            // Scored where v <= tvi[d] and v + d + 1 > vlt (c_value_pixel's skip, negated).
            const __m256i tested = _mm256_and_si256(
                valid, _mm256_andnot_si256(_mm256_cmpgt_epi32(v, _mm256_set1_epi32(s.tvi[d])),
                                           _mm256_cmpgt_epi32(_mm256_add_epi32(v, _mm256_set1_epi32(d + 1)), vlt)));
            if (_mm256_testz_si256(tested, tested)) continue;
            const __m256i step = _mm256_set1_epi32((d + 1) * w);
            const __m256i p1 = _mm256_and_si256(
                _mm256_mask_i32gather_epi32(zero, cells, _mm256_add_epi32(at, step), tested, 2), low);
            const __m256i below = _mm256_and_si256(
                tested, _mm256_cmpgt_epi32(compact, _mm256_set1_epi32(d)));  // compact - d - 1 >= 0
            const __m256i p2 = _mm256_and_si256(
                _mm256_mask_i32gather_epi32(zero, cells, _mm256_sub_epi32(at, step), below, 2), low);
            const __m256i p = _mm256_max_epi32(p1, p2);
            const __m256i prod = _mm256_mullo_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(s.weights[d]), p0), p);
            const __m256 r = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), recip, _mm256_add_epi32(p, p0),
                                                      _mm256_castsi256_ps(tested), 4);
            const __m256 val = _mm256_mul_ps(_mm256_cvtepi32_ps(prod), r);
            const __m256 better = _mm256_and_ps(_mm256_cmp_ps(val, c, _CMP_GT_OQ), _mm256_castsi256_ps(tested));
            c = _mm256_blendv_ps(c, val, better);
        }
        _mm256_storeu_ps(out + x, c);
    }
    c_values_row(image, mask, w, s, hist, recip, out, x);
}

void Avx2Isa::row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                  const std::uint16_t* hist, const float* recip, float* out) {
    c_values_row_avx2(image, mask, w, s, hist, recip, out);
}

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

// 1 where row[x] equals row[x + 1] and below[x] (the last column compares
// with itself on the right): 16 flags as 16-bit 0/1.
inline __m256i flat16(const std::uint16_t* row, const std::uint16_t* below, int x) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + x));
    const __m256i r = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + x + 1));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(below + x));
    const __m256i eq = _mm256_and_si256(_mm256_cmpeq_epi16(v, r), _mm256_cmpeq_epi16(v, b));
    return _mm256_srli_epi16(eq, 15);
}

// Row y's flat flags into `in` (a ring row), and cols += in - out (out: the
// ring row leaving the window, or null). Vectors while row[x + 16] exists.
void flat_row_update(const std::uint16_t* image, std::ptrdiff_t stride, int w, int h, int y,
                     std::uint32_t* in, const std::uint32_t* out, std::uint32_t* cols) {
    const std::uint16_t* row = image + y * stride;
    const std::uint16_t* below = y == h - 1 ? row : row + stride;
    int x = 0;
    for (; x + 16 < w; x += 16) {
        const __m256i f = flat16(row, below, x);
        const __m256i lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(f));
        const __m256i hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(f, 1));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(in + x), lo);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(in + x + 8), hi);
        __m256i c0 = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(cols + x)), lo);
        __m256i c1 = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(cols + x + 8)), hi);
        if (out) {
            c0 = _mm256_sub_epi32(c0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(out + x)));
            c1 = _mm256_sub_epi32(c1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(out + x + 8)));
        }
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(cols + x), c0);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(cols + x + 8), c1);
    }
    for (; x < w; ++x) {
        const std::uint16_t right = x < w - 1 ? row[x + 1] : row[x];
        in[x] = (row[x] == right) & (row[x] == below[x]) ? 1u : 0u;
        cols[x] += in[x] - (out ? out[x] : 0u);
    }
}

// mask = (sum of the 7 column sums around x) > t. padded[x .. x + 6] are
// those sums (pad zeros on both sides), so a vector of 8 outputs reads up
// to padded[x + 13] <= padded[w + 5], the last zero. Sums are at most 49
// and t at most 0xffff (mask_threshold), so signed compares are exact.
void box_row(const std::uint32_t* padded, std::uint16_t* out, int w, int threshold) {
    const __m256i t = _mm256_set1_epi32(threshold);
    const __m256i one = _mm256_set1_epi32(1);
    auto sum8 = [&](int x) {
        const std::uint32_t* p = padded + x;
        __m256i s = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        for (int k = 1; k < kMaskFilterSize; ++k)
            s = _mm256_add_epi32(s, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + k)));
        return _mm256_and_si256(_mm256_cmpgt_epi32(s, t), one);
    };
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        // packus interleaves 128-bit halves: [a0-3 b0-3 a4-7 b4-7]; 0xD8 restores order.
        const __m256i m = _mm256_permute4x64_epi64(_mm256_packus_epi32(sum8(x), sum8(x + 8)), 0xD8);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + x), m);
    }
    for (; x < w; ++x) {
        const std::uint32_t* p = padded + x;
        const std::uint32_t sum = p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6];
        out[x] = sum > static_cast<std::uint32_t>(threshold) ? 1 : 0;
    }
}

// spatial_mask_scalar's ring of flat rows and running column sums, with the
// flags, the sums and the box in vectors.
void spatial_mask_avx2(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                       int w, int h, int threshold, std::uint32_t* scratch) {
    constexpr int pad = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    std::uint32_t* padded = scratch;
    std::uint32_t* cols = padded + pad;
    std::uint32_t* flat = padded + w + 2 * pad;
    std::memset(padded, 0, sizeof(std::uint32_t) * static_cast<std::size_t>(w + 2 * pad));
    auto flat_of = [&](int y) { return flat + static_cast<std::ptrdiff_t>(y % ring) * w; };
    for (int y = 0; y < pad && y < h; ++y) flat_row_update(image, stride, w, h, y, flat_of(y), nullptr, cols);
    for (int y = 0; y < h; ++y) {
        const std::uint32_t* leaving = y - pad - 1 >= 0 ? flat_of(y - pad - 1) : nullptr;
        if (y + pad < h) {
            flat_row_update(image, stride, w, h, y + pad, flat_of(y + pad), leaving, cols);
        } else if (leaving) {
            for (int x = 0; x < w; ++x) cols[x] -= leaving[x];
        }
        box_row(padded, mask + y * stride, w, threshold);
    }
}

// image[y][x] = image[2y][2x] in place, 16 outputs from 32 inputs: row y is
// written only after rows 0 .. 2y - 1 were read, and within row 0 output x
// reads 2x >= x, so reading a vector's inputs before storing it changes
// nothing. Vectors while x + 16 < w: the inputs end at 2x + 31 <= 2w - 3,
// inside the previous scale's row (at least 2w - 1 wide).
void decimate_avx2(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    const __m256i low = _mm256_set1_epi32(0xffff);
    for (int y = 0; y < h; ++y) {
        std::uint16_t* out = image + y * stride;
        const std::uint16_t* in = image + 2 * y * stride;
        int x = 0;
        for (; x + 16 < w; x += 16) {
            const __m256i a = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 2 * x)), low);
            const __m256i b = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 2 * x + 16)), low);
            const __m256i even = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + x), even);
        }
        for (; x < w; ++x) out[x] = in[2 * x];
    }
}

}  // namespace

void cambi_init_avx2(CambiKernels& k) {
    k.spatial_mask = &spatial_mask_avx2;
    k.decimate = &decimate_avx2;
    k.c_values = &c_values_avx2;
    k.filter_mode = &filter_mode_avx2;
}

}  // namespace vmafpp::cambi
