// AVX-512 twins of the cambi kernels: the c-value loop with its histogram
// ranges counted 32 cells at a time, the last cells under a lane mask, and
// its c-values 16 pixels at a time, and the pooling sums of each row 16
// at a time; the mode filter 32 columns at a time; the conversion of 8-bit
// luma with the anti-dithering, the decimation and the spatial mask 32
// samples at a time.
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
    // 32 columns' histogram rows as 16-bit compacts, 0xffff for none:
    // row_of's uint16(v - base) < size, unsigned, with size <= 0xffff.
    static constexpr int kScanLanes = 32;
    static __m512i compacts(const std::uint16_t* image, const std::uint16_t* mask, int base, int size) {
        const __m512i m = _mm512_loadu_si512(mask);
        const __m512i c = _mm512_sub_epi16(_mm512_loadu_si512(image), _mm512_set1_epi16(static_cast<short>(base)));
        const __mmask32 in = _mm512_test_epi16_mask(m, m) &
                             _mm512_cmplt_epu16_mask(c, _mm512_set1_epi16(static_cast<short>(size)));
        return _mm512_mask_blend_epi16(in, _mm512_set1_epi16(-1), c);
    }
    static std::uint32_t counted(const std::uint16_t* image, const std::uint16_t* mask, int base, int size) {
        const __m512i m = _mm512_loadu_si512(mask);
        const __m512i c = _mm512_sub_epi16(_mm512_loadu_si512(image), _mm512_set1_epi16(static_cast<short>(base)));
        return _mm512_test_epi16_mask(m, m) &
               _mm512_cmplt_epu16_mask(c, _mm512_set1_epi16(static_cast<short>(size)));
    }
    static std::uint32_t moved(const std::uint16_t* old_image, const std::uint16_t* old_mask,
                               const std::uint16_t* new_image, const std::uint16_t* new_mask, int base,
                               int size) {
        return _mm512_cmpneq_epi16_mask(compacts(old_image, old_mask, base, size),
                                        compacts(new_image, new_mask, base, size));
    }
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
    static void sums(const float* row, int n, CValueSums& sums);
};

// c_value_sums_scalar 16 values at a time, the tail under a lane mask (its
// zeroed lanes count as zeros). A lane in [0.5, 65536) (ordered compares:
// NaN is out) gives u = v * 2^24, exact in float and an integer in
// [2^23, 2^40), which vcvttps2qq converts to int64 exactly; other lanes 0.
void c_value_sums_avx512(const float* row, int n, CValueSums& sums) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512 half = _mm512_set1_ps(0.5f);
    const __m512 top = _mm512_set1_ps(65536.0f);
    const __m512 scale = _mm512_set1_ps(16777216.0f);
    __m512i acc = _mm512_setzero_si512();
    std::int64_t nonzero = 0;
    unsigned outside = 0;
    auto add = [&](__m512 v) {
        const __mmask16 nz = _mm512_cmp_ps_mask(v, zero, _CMP_NEQ_UQ);
        const __mmask16 in = _mm512_cmp_ps_mask(v, half, _CMP_GE_OQ) & _mm512_cmp_ps_mask(v, top, _CMP_LT_OQ);
        nonzero += __builtin_popcount(static_cast<unsigned>(nz));
        outside |= static_cast<unsigned>(nz & ~in);
        const __m512 u = _mm512_maskz_mul_ps(in, v, scale);
        acc = _mm512_add_epi64(acc, _mm512_cvttps_epi64(_mm512_castps512_ps256(u)));
        acc = _mm512_add_epi64(acc, _mm512_cvttps_epi64(_mm512_extractf32x8_ps(u, 1)));
    };
    int i = 0;
    // Most c-values are 0 (unmasked pixels): 64 whose bits are all zero
    // (+0; -0 and anything else go through add) change nothing.
    for (; i + 64 <= n; i += 64) {
        const __m512 a = _mm512_loadu_ps(row + i), b = _mm512_loadu_ps(row + i + 16);
        const __m512 c = _mm512_loadu_ps(row + i + 32), d = _mm512_loadu_ps(row + i + 48);
        const __m512i any = _mm512_or_si512(
            _mm512_or_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)),
            _mm512_or_si512(_mm512_castps_si512(c), _mm512_castps_si512(d)));
        if (!_mm512_test_epi32_mask(any, any)) continue;
        add(a);
        add(b);
        add(c);
        add(d);
    }
    for (; i + 16 <= n; i += 16) add(_mm512_loadu_ps(row + i));
    if (i < n) add(_mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << (n - i)) - 1), row + i));
    fold_c_value_sums(sums, _mm512_reduce_add_epi64(acc), nonzero, outside == 0);
}

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

void Avx512Isa::sums(const float* row, int n, CValueSums& sums) { c_value_sums_avx512(row, n, sums); }

void c_values_avx512(const std::uint16_t* image, const std::uint16_t* mask,
                     std::ptrdiff_t stride, int w, int h, int window, const ContrastSetup& s,
                     float* c_values, std::uint16_t* histograms, CValueSums& sums) {
    c_values_loop<Avx512Isa>(image, mask, stride, w, h, window, s, c_values, histograms, sums);
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

// First n lanes (n <= 32 for the 32-bit mask, n <= 64 for the 64-bit one).
inline __mmask32 first32(int n) { return static_cast<__mmask32>((std::uint64_t{1} << n) - 1); }
inline __mmask64 first64(int n) {
    return n >= 64 ? ~__mmask64{0} : static_cast<__mmask64>((std::uint64_t{1} << n) - 1);
}

// 32 samples of 8-bit luma, zero-extended to 16 bits (lanes past m zero).
inline __m512i u8x32(const std::uint8_t* p, __mmask32 m = ~__mmask32{0}) {
    return _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, p));
}

// load_u8_scalar's values directly (see LoadU8Fn): with dither, a + b +
// c + d inside (at most 4 * 255, no wrap), 2 (a + c) in the last column,
// 2 (a + b) in the last row, 4a in the corner; else a << 2. Row y reads
// only source rows y and y + 1, so the rows are independent. Whole vectors
// while x + 32 < w (a[x + 32] exists); the rest under lane masks, whose
// loads touch nothing at or past column w.
void load_u8_avx512(const std::uint8_t* src, std::ptrdiff_t src_stride, std::uint16_t* image,
                    std::ptrdiff_t stride, int w, int h, bool dither) {
    for (int y = 0; y < h; ++y) {
        const std::uint8_t* a = src + y * src_stride;
        std::uint16_t* out = image + y * stride;
        if (!dither) {
            int x = 0;
            for (; x + 32 <= w; x += 32)
                _mm512_storeu_si512(out + x, _mm512_slli_epi16(u8x32(a + x), 2));
            if (x < w) {
                const __mmask32 m = first32(w - x);
                _mm512_mask_storeu_epi16(out + x, m, _mm512_slli_epi16(u8x32(a + x, m), 2));
            }
            continue;
        }
        // The last row pairs each sample with itself below: (a + b) * 2 and
        // a * 4 are a + b + a + b and a + a + a + a.
        const std::uint8_t* b = y + 1 < h ? a + src_stride : a;
        int x = 0;
        for (; x + 32 < w; x += 32) {
            const __m512i s = _mm512_add_epi16(_mm512_add_epi16(u8x32(a + x), u8x32(a + x + 1)),
                                               _mm512_add_epi16(u8x32(b + x), u8x32(b + x + 1)));
            _mm512_storeu_si512(out + x, s);
        }
        const int n = w - 1 - x;  // inner samples left, 0 .. 31
        if (n > 0) {
            const __mmask32 m = first32(n);
            const __m512i s =
                _mm512_add_epi16(_mm512_add_epi16(u8x32(a + x, m), u8x32(a + x + 1, m)),
                                 _mm512_add_epi16(u8x32(b + x, m), u8x32(b + x + 1, m)));
            _mm512_mask_storeu_epi16(out + x, m, s);
        }
        out[w - 1] = static_cast<std::uint16_t>(2 * (a[w - 1] + b[w - 1]));
    }
}

// image[y][x] = image[2y][2x] in place, 32 outputs from 64 inputs (one
// two-source word permutation). Row y is written only after rows
// 0 .. 2y - 1 were read, and within row 0 a vector's outputs x .. x + 31
// lie below the next vector's inputs (from 2x + 64), so loading a vector's
// inputs before storing it changes nothing. Whole vectors while x + 32 < w:
// inputs up to 2x + 63 <= 2w - 3, inside the previous scale's row (at least
// 2w - 1 wide); the last n outputs read their 2n - 1 inputs under masks.
void decimate_avx512(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    // Word i of the permutation is 2i (i < 32): dword j holds 4j and 4j + 2.
    const __m512i four_j = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
    const __m512i even = _mm512_or_si512(
        four_j, _mm512_slli_epi32(_mm512_add_epi32(four_j, _mm512_set1_epi32(2)), 16));
    for (int y = 0; y < h; ++y) {
        std::uint16_t* out = image + y * stride;
        const std::uint16_t* in = image + 2 * y * stride;
        int x = 0;
        for (; x + 32 < w; x += 32) {
            const __m512i a = _mm512_loadu_si512(in + 2 * x);
            const __m512i b = _mm512_loadu_si512(in + 2 * x + 32);
            _mm512_storeu_si512(out + x, _mm512_permutex2var_epi16(a, even, b));
        }
        const int n = w - x;  // 1 .. 32
        const __mmask64 m = first64(2 * n - 1);
        const __m512i a = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(m), in + 2 * x);
        const __m512i b = _mm512_maskz_loadu_epi16(static_cast<__mmask32>(m >> 32), in + 2 * x + 32);
        _mm512_mask_storeu_epi16(out + x, first32(n), _mm512_permutex2var_epi16(a, even, b));
    }
}

// The spatial mask in 16-bit lanes, 32 pixels a vector: flags are 0/1,
// column sums over at most 7 rows at most 7, box sums at most 49, so
// nothing wraps. The scratch (9w + 14 uint32) holds, as uint16, the padded
// column sums (3 zeros, w sums, 3 zeros) and a ring of 8 flag rows of w.
// `sum > threshold` for a threshold above 0xffff is never true, as for
// 0xffff: the threshold is clamped to 0xffff and compared unsigned.
void spatial_mask_avx512(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                         int w, int h, int threshold, std::uint32_t* scratch) {
    constexpr int pad = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    auto* padded = reinterpret_cast<std::uint16_t*>(scratch);
    std::uint16_t* cols = padded + pad;
    std::uint16_t* flat = padded + w + 2 * pad;
    for (int i = 0; i < w + 2 * pad; ++i) padded[i] = 0;
    auto flat_of = [&](int y) { return flat + static_cast<std::ptrdiff_t>(y % ring) * w; };
    const __m512i one = _mm512_set1_epi16(1);
    // Row y's flags into `in` and cols += in - leaving (leaving may be null).
    // Lanes past w are neither read nor written; the right neighbour of the
    // last column is itself (the load of row[x + 1] stops one lane short
    // and keeps row[x] there).
    auto update = [&](int y, std::uint16_t* in, const std::uint16_t* leaving) {
        const std::uint16_t* row = image + y * stride;
        const std::uint16_t* below = y == h - 1 ? row : row + stride;
        for (int x = 0; x < w; x += 32) {
            const __mmask32 m = first32(w - x < 32 ? w - x : 32);
            const __mmask32 m_right = first32(w - x - 1 < 32 ? w - x - 1 : 32);
            const __m512i v = _mm512_maskz_loadu_epi16(m, row + x);
            const __m512i r = _mm512_mask_loadu_epi16(v, m_right, row + x + 1);
            const __m512i b = _mm512_maskz_loadu_epi16(m, below + x);
            const __mmask32 eq = _mm512_cmpeq_epi16_mask(v, r) & _mm512_cmpeq_epi16_mask(v, b);
            const __m512i f = _mm512_maskz_mov_epi16(eq, one);
            _mm512_mask_storeu_epi16(in + x, m, f);
            __m512i c = _mm512_add_epi16(_mm512_maskz_loadu_epi16(m, cols + x), f);
            if (leaving) c = _mm512_sub_epi16(c, _mm512_maskz_loadu_epi16(m, leaving + x));
            _mm512_mask_storeu_epi16(cols + x, m, c);
        }
    };
    for (int y = 0; y < pad && y < h; ++y) update(y, flat_of(y), nullptr);
    const __m512i t = _mm512_set1_epi16(static_cast<short>(
        static_cast<unsigned>(threshold) > 0xffffu ? 0xffff : threshold));
    for (int y = 0; y < h; ++y) {
        const std::uint16_t* leaving = y - pad - 1 >= 0 ? flat_of(y - pad - 1) : nullptr;
        if (y + pad < h) {
            update(y + pad, flat_of(y + pad), leaving);
        } else if (leaving) {
            for (int x = 0; x < w; x += 32) {
                const __mmask32 m = first32(w - x < 32 ? w - x : 32);
                const __m512i c = _mm512_sub_epi16(_mm512_maskz_loadu_epi16(m, cols + x),
                                                   _mm512_maskz_loadu_epi16(m, leaving + x));
                _mm512_mask_storeu_epi16(cols + x, m, c);
            }
        }
        // Output x sums padded[x .. x + 6]; the last lane of a vector reads
        // padded[x + 37], within the w + 6 sums for every lane below w.
        std::uint16_t* out = mask + y * stride;
        for (int x = 0; x < w; x += 32) {
            const __mmask32 m = first32(w - x < 32 ? w - x : 32);
            __m512i sum = _mm512_maskz_loadu_epi16(m, padded + x);
            for (int k = 1; k < kMaskFilterSize; ++k)
                sum = _mm512_add_epi16(sum, _mm512_maskz_loadu_epi16(m, padded + x + k));
            _mm512_mask_storeu_epi16(out + x, m, _mm512_maskz_mov_epi16(_mm512_cmpgt_epu16_mask(sum, t), one));
        }
    }
}

}  // namespace

void cambi_init_avx512(CambiKernels& k) {
    k.load_u8 = &load_u8_avx512;
    k.decimate = &decimate_avx512;
    k.spatial_mask = &spatial_mask_avx512;
    k.c_values = &c_values_avx512;
    k.c_value_sums = &c_value_sums_avx512;
    k.filter_mode = &filter_mode_avx512;
}

}  // namespace vmafpp::cambi
