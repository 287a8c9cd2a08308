// Scalar cambi kernels: the reference arithmetic (libvmaf's cambi.c).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "cambi/cambi_c_values_loop.hpp"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_mode_loop.hpp"

namespace vmafpp::cambi {

const float* reciprocal_table() {
    // libvmaf's table was printed with 9 significant digits and read back
    // as float literals: reproduce that round trip rather than 1.0f / i.
    // Not with snprintf and strtof (4225 of each: 8M instructions of every
    // process's start-up, more than a 1080p frame's spatial mask) but in
    // doubles: m = the double 1.0 / i scaled by the power of ten that puts
    // it in [1e8, 1e9), rounded to an integer (the 9 digits), then m / 10^k
    // as float. Each
    // step rounds, so this is not the round trip by construction; the unit
    // test CambiKernels.ReciprocalTableIsTheNineDigitRoundTrip compares
    // every entry with snprintf and strtof.
    static const auto* table = [] {
        static float t[kReciprocalCount];
        t[0] = 0.0f;
        // 10^8 .. 10^12, exact in double; 1 / i >= 1 / 4225 > 10^-4.
        constexpr double kTens[] = {1e8, 1e9, 1e10, 1e11, 1e12};
        for (int i = 1; i < kReciprocalCount; ++i) {
            const double d = 1.0 / i;
            int k = 0;
            while (d * kTens[k] < 1e8) ++k;
            const double m = std::nearbyint(d * kTens[k]);
            t[i] = static_cast<float>(m / kTens[k]);
        }
        return t;
    }();
    return table;
}

namespace {

// 1 where a pixel equals its right and lower neighbours (edges count as
// equal).
void flat_row(const std::uint16_t* image, std::ptrdiff_t stride, int w, int h, int y,
              std::uint32_t* out) {
    const std::uint16_t* row = image + y * stride;
    const std::uint16_t* below = y == h - 1 ? row : row + stride;
    for (int x = 0; x < w - 1; ++x)
        out[x] = (row[x] == row[x + 1]) & (row[x] == below[x]) ? 1u : 0u;
    out[w - 1] = row[w - 1] == below[w - 1] ? 1u : 0u;
}

// The 7x7 box count as column sums over the window's rows (a ring of the
// last 8 flat rows: the row entering is added, the row leaving subtracted),
// then the 7 column sums around each pixel, zeros beyond the edges.
void spatial_mask_scalar(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                         int w, int h, int threshold, std::uint32_t* scratch) {
    constexpr int pad = kMaskFilterSize / 2;
    constexpr int ring = kMaskFilterSize + 1;
    std::uint32_t* padded = scratch;  // [pad zeros, w column sums, pad zeros]
    std::uint32_t* cols = padded + pad;
    std::uint32_t* flat = padded + w + 2 * pad;  // ring rows of w
    std::memset(padded, 0, sizeof(std::uint32_t) * static_cast<std::size_t>(w + 2 * pad));
    auto flat_of = [&](int y) { return flat + static_cast<std::ptrdiff_t>(y % ring) * w; };
    for (int y = 0; y < pad && y < h; ++y) {
        std::uint32_t* f = flat_of(y);
        flat_row(image, stride, w, h, y, f);
        for (int x = 0; x < w; ++x) cols[x] += f[x];
    }
    const std::uint32_t t = static_cast<std::uint32_t>(threshold);
    for (int y = 0; y < h; ++y) {
        if (y + pad < h) {
            std::uint32_t* f = flat_of(y + pad);
            flat_row(image, stride, w, h, y + pad, f);
            for (int x = 0; x < w; ++x) cols[x] += f[x];
        }
        if (y - pad - 1 >= 0) {
            const std::uint32_t* f = flat_of(y - pad - 1);
            for (int x = 0; x < w; ++x) cols[x] -= f[x];
        }
        std::uint16_t* out = mask + y * stride;
        for (int x = 0; x < w; ++x) {
            const std::uint32_t* p = padded + x;
            const std::uint32_t sum = p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6];
            out[x] = sum > t ? 1 : 0;
        }
    }
}

void load_u8_scalar(const std::uint8_t* src, std::ptrdiff_t src_stride, std::uint16_t* image,
                    std::ptrdiff_t stride, int w, int h, bool dither) {
    for (int y = 0; y < h; ++y) {
        const std::uint8_t* in = src + y * src_stride;
        std::uint16_t* out = image + y * stride;
        for (int x = 0; x < w; ++x) out[x] = static_cast<std::uint16_t>(in[x] << 2);
    }
    if (dither) anti_dither(image, stride, w, h);
}

void decimate_scalar(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) image[y * stride + x] = image[2 * y * stride + 2 * x];
}

struct ScalarModeIsa {
    static constexpr int kLanes = 1;
    static void mode3(std::uint16_t* out, const std::uint16_t* a, const std::uint16_t* b,
                      const std::uint16_t* c) {
        out[0] = mode3_scalar(a[0], b[0], c[0]);
    }
};

void filter_mode_scalar(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                        std::uint16_t* buffer) {
    filter_mode_loop<ScalarModeIsa>(image, stride, w, h, buffer);
}

// Ranges counted up and down one sample at a time.
struct ScalarIsa {
    static constexpr int kScanLanes = 0;
    // One column at a time: the reference for the twins' merged runs.
    static constexpr bool kRuns = false;
    static void inc(std::uint16_t* row, int n) {
        for (int i = 0; i < n; ++i) ++row[i];
    }
    static void dec(std::uint16_t* row, int n) {
        for (int i = 0; i < n; ++i) --row[i];
    }
    static void row(const std::uint16_t* image, const std::uint16_t* mask, int w, const ContrastSetup& s,
                    const std::uint16_t* hist, const float* recip, float* out) {
        c_values_row(image, mask, w, s, hist, recip, out);
    }
    static void sums(const float* row, int n, CValueSums& sums) { c_value_sums_scalar(row, n, sums); }
};

void c_values_scalar(const std::uint16_t* image, const std::uint16_t* mask, std::ptrdiff_t stride,
                     int w, int h, int window, const ContrastSetup& s, float* c_values,
                     std::uint16_t* histograms, CValueSums& sums) {
    c_values_loop<ScalarIsa>(image, mask, stride, w, h, window, s, c_values, histograms, sums);
}

}  // namespace

void anti_dither(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    const std::ptrdiff_t s = stride;
    for (int y = 0; y < h - 1; ++y) {
        std::uint16_t* r = image + y * s;
        for (int x = 0; x < w - 1; ++x)
            r[x] = static_cast<std::uint16_t>((r[x] + r[x + 1] + r[s + x] + r[s + x + 1]) >> 2);
        r[w - 1] = static_cast<std::uint16_t>((r[w - 1] + r[s + w - 1]) >> 1);
    }
    std::uint16_t* r = image + (h - 1) * s;
    for (int x = 0; x < w - 1; ++x) r[x] = static_cast<std::uint16_t>((r[x] + r[x + 1]) >> 1);
}

// v * 2^24 of a v in [0.5, 65536) is exact in a double (a multiple of 2^-24
// scaled by a power of two) and an integer below 2^40.
void c_value_sums_scalar(const float* row, int n, CValueSums& sums) {
    std::int64_t units = 0, nonzero = 0;
    bool in_range = true;
    c_value_sums_steps(row, 0, n, units, nonzero, in_range);
    fold_c_value_sums(sums, units, nonzero, in_range);
}

namespace {

// libvmaf's quick_select: afterwards arr[0, k) holds the k largest values,
// in the order its swaps leave them.
void quick_select(float* arr, int n, int k) {
    if (n == k) return;
    int left = 0, right = n - 1;
    while (left < right) {
        const float pivot = arr[k];
        int i = left, j = right;
        do {
            while (arr[i] > pivot) ++i;
            while (arr[j] < pivot) --j;
            if (i <= j) {
                const float t = arr[i];
                arr[i] = arr[j];
                arr[j] = t;
                ++i;
                --j;
            }
        } while (i <= j);
        if (j < k) left = i;
        if (k < i) right = j;
    }
}

int topk_count(double topk, int n) {
    const int k = static_cast<int>(topk * n);
    return k < 1 ? 1 : (k > n ? n : k);
}

}  // namespace

double pooling_quick_select(float* c, double topk, int w, int h) {
    const int n = w * h;
    const int k = topk_count(topk, n);
    quick_select(c, n, k);
    double sum = 0;
    for (int i = 0; i < k; ++i) sum += c[i];
    return sum / k;
}

// Every c-value is 0 or a float of at least 0.5 (weight * p0 * p / (p0 + p)
// with counts >= 1), so a multiple of 2^-24; a float of at least 2^(e - 127)
// (biased exponent e) is a multiple of 2^(e - 150). libvmaf's result is the
// double sum, in its quick_select's order, of the k largest values, over k.
// When the smallest of those k values has exponent e, all are multiples of
// g = 2^(e - 150), and so is every partial sum; if their total is below
// 2^53 g, every partial sum is exact in a double, whatever the order and
// whichever of equal values quick_select picks: the result is the exact
// total over k. In units of 2^-24 that bound is 2^(e - 73) (2^53 for
// e = 126, values from 0.5). Zeros add nothing.
// - With every value in range, at most k nonzero and their total below 2^53
//   units (CValueSums::exact), that is the sum of all, known without
//   reading `c`.
// - Otherwise, with every value in range and fewer than 2^23 values (so
//   that int64 sums of values below 2^40 units cannot overflow), the k
//   largest are found by their bits (positive floats order as their bit
//   patterns): the nonzero values are counted and summed in buckets of
//   their top 16 bits (sign, exponent, 7 mantissa bits; 0.5 .. 65536 spans
//   2176 of them), the buckets above the k-th largest value are taken
//   whole, and only the values in its bucket are selected one by one. The
//   bucket of the smallest selected value gives e; a total at or above
//   2^(e - 73) units takes libvmaf's quick_select.
// - Anything else (a value under 0.5 but above 0, or 65536 and over, NaN, a
//   larger picture) takes libvmaf's quick_select.
double spatial_pooling(float* c, double topk, int w, int h, const CValueSums& sums,
                       std::vector<float>& scratch) {
    const int n = w * h;
    const int k = topk_count(topk, n);
    constexpr double unit = 16777216.0;  // 2^24
    if (!sums.in_range) return pooling_quick_select(c, topk, w, h);
    if (sums.exact && sums.nonzero <= k) return static_cast<double>(sums.units) / unit / k;
    if (n >= (1 << 23)) return pooling_quick_select(c, topk, w, h);
    constexpr std::uint32_t first_bucket = 0x3f00;              // 0.5f >> 16
    constexpr int buckets = (0x47800000 >> 16) - first_bucket;  // up to 65536.0f
    std::uint32_t count[buckets] = {};
    std::int64_t sum[buckets] = {};
    for (int i = 0; i < n; ++i) {
        const float v = c[i];
        if (v == 0.0f) continue;
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        const std::uint32_t b = (bits >> 16) - first_bucket;
        sum[b] += static_cast<std::int64_t>(static_cast<double>(v) * unit);
        ++count[b];
    }
    std::int64_t total = 0;
    int smallest = 0;  // the bucket of the smallest value taken
    if (sums.nonzero <= k) {
        for (int b = 0; b < buckets; ++b) total += sum[b];
        while (smallest < buckets - 1 && count[smallest] == 0) ++smallest;
    } else {
        // The bucket of the k-th largest value, and what lies above it.
        std::int64_t above = 0;
        std::uint32_t wanted = static_cast<std::uint32_t>(k);
        int kth = buckets - 1;
        for (; kth > 0 && count[kth] < wanted; --kth) {
            wanted -= count[kth];
            above += sum[kth];
        }
        scratch.clear();
        for (int i = 0; i < n; ++i) {
            std::uint32_t bits;
            std::memcpy(&bits, &c[i], sizeof bits);
            if (c[i] != 0.0f && (bits >> 16) - first_bucket == static_cast<std::uint32_t>(kth))
                scratch.push_back(c[i]);
        }
        std::nth_element(scratch.begin(), scratch.begin() + (wanted - 1), scratch.end(),
                         [](float a, float b) { return a > b; });
        total = above;
        for (std::uint32_t i = 0; i < wanted; ++i)
            total += static_cast<std::int64_t>(static_cast<double>(scratch[i]) * unit);
        smallest = kth;
    }
    // The biased exponent of the bucket's values: bits 7..14 of its top 16.
    const int e = static_cast<int>(((static_cast<std::uint32_t>(smallest) + first_bucket) >> 7) & 0xff);
    const int shift = e - 73;  // 53 .. 69
    if (shift < 63 && total >= (std::int64_t{1} << shift)) return pooling_quick_select(c, topk, w, h);
    // total is a multiple of 2^(e - 126) below 2^(e - 73): exact in a double.
    return static_cast<double>(total) / unit / k;
}

// The sums row by row, as c_values gathers them.
double spatial_pooling(float* c, double topk, int w, int h, std::vector<float>& scratch) {
    CValueSums sums;
    for (int y = 0; y < h; ++y) c_value_sums_scalar(c + static_cast<std::ptrdiff_t>(y) * w, w, sums);
    return spatial_pooling(c, topk, w, h, sums, scratch);
}

namespace {

// The whole mask, then its decimation, in place.
void spatial_mask_half_scalar(const std::uint16_t* image, std::ptrdiff_t stride,
                              std::uint16_t* mask, int w, int h, int threshold,
                              std::uint32_t* scratch) {
    spatial_mask_scalar(image, stride, mask, w, h, threshold, scratch);
    decimate_scalar(mask, stride, (w + 1) >> 1, (h + 1) >> 1);
}

}  // namespace

const CambiKernels& cambi_kernels_scalar() {
    static const CambiKernels k{&spatial_mask_scalar, &decimate_scalar,   &filter_mode_scalar,
                                &c_values_scalar,     &c_value_sums_scalar, &load_u8_scalar,
                                &spatial_mask_half_scalar};
    return k;
}

}  // namespace vmafpp::cambi
