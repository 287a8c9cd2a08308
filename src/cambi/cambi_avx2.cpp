// AVX2 twins of the cambi kernels: the c-value loop with its histogram
// ranges counted 16 cells at a time, the mode filter 16 columns at a time,
// the spatial mask (flat flags, column sums and the 7-wide box in 16-bit
// lanes) 16 pixels at a time, the decimation 16 outputs at a time, the
// pooling sums of a row 8 values at a time and the conversion of 8-bit luma
// with the anti-dithering 16 samples at a time. Integer kernels: the twins
// compute the scalar's values exactly, edges and tails by the scalar's code.
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
    // 16 columns' histogram rows as 16-bit compacts, 0xffff for none:
    // row_of's uint16(v - base) < size, unsigned (c <= size - 1 as
    // min(c, size - 1) == c, with 1 <= size <= 0xffff).
    static constexpr int kScanLanes = 16;
    static __m256i in_band(const std::uint16_t* image, const std::uint16_t* mask, int base, int size,
                           __m256i* compact) {
        const __m256i m = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mask));
        const __m256i c = _mm256_sub_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(image)),
                                           _mm256_set1_epi16(static_cast<short>(base)));
        const __m256i last = _mm256_set1_epi16(static_cast<short>(size - 1));
        *compact = c;
        return _mm256_andnot_si256(_mm256_cmpeq_epi16(m, _mm256_setzero_si256()),
                                   _mm256_cmpeq_epi16(_mm256_min_epu16(c, last), c));
    }
    // One bit per 16-bit lane from the byte mask (BMI2 is part of the level).
    static std::uint32_t lanes(__m256i v) {
        return _pext_u32(static_cast<std::uint32_t>(_mm256_movemask_epi8(v)), 0x55555555u);
    }
    static std::uint32_t counted(const std::uint16_t* image, const std::uint16_t* mask, int base, int size) {
        __m256i c;
        return lanes(in_band(image, mask, base, size, &c));
    }
    static std::uint32_t moved(const std::uint16_t* old_image, const std::uint16_t* old_mask,
                               const std::uint16_t* new_image, const std::uint16_t* new_mask, int base,
                               int size) {
        __m256i c_old, c_new;
        const __m256i none = _mm256_set1_epi16(-1);
        const __m256i in_old = in_band(old_image, old_mask, base, size, &c_old);
        const __m256i in_new = in_band(new_image, new_mask, base, size, &c_new);
        const __m256i k_old = _mm256_blendv_epi8(none, c_old, in_old);
        const __m256i k_new = _mm256_blendv_epi8(none, c_new, in_new);
        return lanes(_mm256_cmpeq_epi16(k_old, k_new)) ^ 0xffffu;
    }
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
    static void sums(const float* row, int n, CValueSums& sums);
};

// c_value_sums_scalar 8 values at a time. A lane in [0.5, 65536) (ordered
// compares: NaN is out) gives u = v * 2^24, exact in float (a power-of-two
// scale that stays finite) and an integer in [2^23, 2^40); other lanes give
// 0. AVX2 has no float-to-int64 conversion: u + 2^52 is exact in a double
// (below 2^53), and its bits are 0x4330000000000000 + u.
void c_value_sums_avx2(const float* row, int n, CValueSums& sums) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 top = _mm256_set1_ps(65536.0f);
    const __m256 scale = _mm256_set1_ps(16777216.0f);
    const __m256d magic = _mm256_set1_pd(4503599627370496.0);  // 2^52
    const __m256i magic_bits = _mm256_set1_epi64x(0x4330000000000000);
    __m256i acc = _mm256_setzero_si256();
    std::int64_t nonzero = 0;
    int outside = 0;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(row + i);
        // Most c-values are 0 (unmasked pixels): 8 whose bits are all zero
        // (+0; -0 and anything else go on) change nothing.
        if (_mm256_testz_si256(_mm256_castps_si256(v), _mm256_castps_si256(v))) continue;
        const __m256 in = _mm256_and_ps(_mm256_cmp_ps(v, half, _CMP_GE_OQ), _mm256_cmp_ps(v, top, _CMP_LT_OQ));
        const int nz = _mm256_movemask_ps(_mm256_cmp_ps(v, zero, _CMP_NEQ_UQ));
        nonzero += __builtin_popcount(static_cast<unsigned>(nz));
        outside |= nz & ~_mm256_movemask_ps(in);
        const __m256 u = _mm256_and_ps(_mm256_mul_ps(v, scale), in);
        const __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(u)), magic);
        const __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(u, 1)), magic);
        acc = _mm256_add_epi64(acc, _mm256_sub_epi64(_mm256_castpd_si256(lo), magic_bits));
        acc = _mm256_add_epi64(acc, _mm256_sub_epi64(_mm256_castpd_si256(hi), magic_bits));
    }
    alignas(32) std::int64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
    std::int64_t units = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    bool in_range = outside == 0;
    for (; i < n; ++i) {
        const float v = row[i];
        if (v == 0.0f) continue;
        ++nonzero;
        if (!(v >= 0.5f) || !(v < 65536.0f))
            in_range = false;
        else
            units += static_cast<std::int64_t>(static_cast<double>(v) * 16777216.0);
    }
    fold_c_value_sums(sums, units, nonzero, in_range);
}

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

void Avx2Isa::sums(const float* row, int n, CValueSums& sums) { c_value_sums_avx2(row, n, sums); }

void c_values_avx2(const std::uint16_t* image, const std::uint16_t* mask, std::ptrdiff_t stride,
                   int w, int h, int window, const ContrastSetup& s, float* c_values,
                   std::uint16_t* histograms, CValueSums& sums) {
    c_values_loop<Avx2Isa>(image, mask, stride, w, h, window, s, c_values, histograms, sums);
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

// The spatial mask in 16-bit lanes, 16 pixels a vector: flags are 0/1,
// column sums over at most 7 rows at most 7, box sums at most 49, so
// nothing wraps, and `sum > threshold` is the signed 16-bit compare with the
// threshold clamped to 0x7fff (no sum reaches it). The scratch (9w + 14
// uint32) holds, as uint16, the padded column sums (3 zeros, w sums, 3
// zeros) and a ring of 8 flag rows of w. Tails take the scalar's steps.
void spatial_mask_avx2(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                       int w, int h, int threshold, std::uint32_t* scratch) {
    constexpr int pad = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    auto* padded = reinterpret_cast<std::uint16_t*>(scratch);
    std::uint16_t* cols = padded + pad;
    std::uint16_t* flat = padded + w + 2 * pad;
    for (int i = 0; i < w + 2 * pad; ++i) padded[i] = 0;
    auto flat_of = [&](int y) { return flat + static_cast<std::ptrdiff_t>(y % ring) * w; };
    auto load = [](const std::uint16_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); };
    auto store = [](std::uint16_t* p, __m256i v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); };
    // Row y's flags into `in` and cols += in - leaving (leaving may be
    // null). Vectors while row[x + 16] exists.
    auto update = [&](int y, std::uint16_t* in, const std::uint16_t* leaving) {
        const std::uint16_t* row = image + y * stride;
        const std::uint16_t* below = y == h - 1 ? row : row + stride;
        int x = 0;
        for (; x + 16 < w; x += 16) {
            const __m256i v = load(row + x);
            const __m256i eq = _mm256_and_si256(_mm256_cmpeq_epi16(v, load(row + x + 1)),
                                                _mm256_cmpeq_epi16(v, load(below + x)));
            const __m256i f = _mm256_srli_epi16(eq, 15);
            store(in + x, f);
            __m256i c = _mm256_add_epi16(load(cols + x), f);
            if (leaving) c = _mm256_sub_epi16(c, load(leaving + x));
            store(cols + x, c);
        }
        for (; x < w; ++x) {
            const std::uint16_t right = x < w - 1 ? row[x + 1] : row[x];
            in[x] = (row[x] == right) & (row[x] == below[x]) ? 1 : 0;
            cols[x] = static_cast<std::uint16_t>(cols[x] + in[x] - (leaving ? leaving[x] : 0));
        }
    };
    for (int y = 0; y < pad && y < h; ++y) update(y, flat_of(y), nullptr);
    const int t = static_cast<unsigned>(threshold) > 0x7fffu ? 0x7fff : threshold;
    const __m256i tv = _mm256_set1_epi16(static_cast<short>(t));
    const __m256i one = _mm256_set1_epi16(1);
    for (int y = 0; y < h; ++y) {
        const std::uint16_t* leaving = y - pad - 1 >= 0 ? flat_of(y - pad - 1) : nullptr;
        if (y + pad < h) {
            update(y + pad, flat_of(y + pad), leaving);
        } else if (leaving) {
            for (int x = 0; x < w; ++x) cols[x] = static_cast<std::uint16_t>(cols[x] - leaving[x]);
        }
        // Output x sums padded[x .. x + 6]: a vector of 16 reads up to
        // padded[x + 21] <= padded[w + 5], the last zero.
        std::uint16_t* out = mask + y * stride;
        int x = 0;
        for (; x + 16 <= w; x += 16) {
            const std::uint16_t* p = padded + x;
            __m256i sum = load(p);
            for (int k = 1; k < kMaskFilterSize; ++k) sum = _mm256_add_epi16(sum, load(p + k));
            store(out + x, _mm256_and_si256(_mm256_cmpgt_epi16(sum, tv), one));
        }
        for (; x < w; ++x) {
            const std::uint16_t* p = padded + x;
            const int sum = p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6];
            out[x] = sum > t ? 1 : 0;
        }
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

// 16 samples of 8-bit luma, zero-extended to 16 bits.
inline __m256i u8x16(const std::uint8_t* p) {
    return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// load_u8_scalar's values directly (see LoadU8Fn): with dither, a + b +
// c + d inside (at most 4 * 255, no wrap), 2 (a + c) in the last column,
// 2 (a + b) in the last row, 4a in the corner; else a << 2. Row y reads
// only source rows y and y + 1, so rows are independent. Vectors while
// x + 16 < w (a[x + 16] exists, and with no dither while x + 16 <= w), the
// rest one sample at a time.
void load_u8_avx2(const std::uint8_t* src, std::ptrdiff_t src_stride, std::uint16_t* image,
                  std::ptrdiff_t stride, int w, int h, bool dither) {
    for (int y = 0; y < h; ++y) {
        const std::uint8_t* a = src + y * src_stride;
        std::uint16_t* out = image + y * stride;
        int x = 0;
        if (!dither) {
            for (; x + 16 <= w; x += 16)
                _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + x), _mm256_slli_epi16(u8x16(a + x), 2));
            for (; x < w; ++x) out[x] = static_cast<std::uint16_t>(a[x] << 2);
            continue;
        }
        // The last row pairs each sample with itself below.
        const std::uint8_t* b = y + 1 < h ? a + src_stride : a;
        for (; x + 16 < w; x += 16) {
            const __m256i s = _mm256_add_epi16(_mm256_add_epi16(u8x16(a + x), u8x16(a + x + 1)),
                                               _mm256_add_epi16(u8x16(b + x), u8x16(b + x + 1)));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + x), s);
        }
        for (; x < w - 1; ++x) out[x] = static_cast<std::uint16_t>(a[x] + a[x + 1] + b[x] + b[x + 1]);
        out[w - 1] = static_cast<std::uint16_t>(2 * (a[w - 1] + b[w - 1]));
    }
}

}  // namespace

void cambi_init_avx2(CambiKernels& k) {
    k.load_u8 = &load_u8_avx2;
    k.spatial_mask = &spatial_mask_avx2;
    k.decimate = &decimate_avx2;
    k.c_values = &c_values_avx2;
    k.c_value_sums = &c_value_sums_avx2;
    k.filter_mode = &filter_mode_avx2;
}

}  // namespace vmafpp::cambi
