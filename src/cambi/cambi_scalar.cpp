// Scalar cambi kernels: the reference arithmetic (libvmaf's cambi.c).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cambi/cambi_kernels.hpp"

namespace vmafpp::cambi {

const float* reciprocal_table() {
    // libvmaf's table was printed with 9 significant digits and read back
    // as float literals: reproduce that round trip rather than 1.0f / i.
    static const auto* table = [] {
        static float t[kReciprocalCount];
        t[0] = 0.0f;
        for (int i = 1; i < kReciprocalCount; ++i) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.9g", 1.0 / i);
            t[i] = std::strtof(buf, nullptr);
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
    for (int x = 0; x < w; ++x) {
        const bool right = x == w - 1 || row[x] == row[x + 1];
        out[x] = right && row[x] == below[x] ? 1u : 0u;
    }
}

// The 7x7 box count as column sums over the window's rows, kept by adding
// the row entering and removing the row leaving, then summed across.
void spatial_mask_scalar(const std::uint16_t* image, std::ptrdiff_t stride, std::uint16_t* mask,
                         int w, int h, int threshold, std::uint32_t* scratch) {
    constexpr int pad = kMaskFilterSize / 2;
    std::uint32_t* cols = scratch;
    std::uint32_t* flat = scratch + w;
    std::memset(cols, 0, sizeof(std::uint32_t) * static_cast<std::size_t>(w));
    for (int y = 0; y < pad && y < h; ++y) {
        flat_row(image, stride, w, h, y, flat);
        for (int x = 0; x < w; ++x) cols[x] += flat[x];
    }
    for (int y = 0; y < h; ++y) {
        if (y + pad < h) {
            flat_row(image, stride, w, h, y + pad, flat);
            for (int x = 0; x < w; ++x) cols[x] += flat[x];
        }
        if (y - pad - 1 >= 0) {
            flat_row(image, stride, w, h, y - pad - 1, flat);
            for (int x = 0; x < w; ++x) cols[x] -= flat[x];
        }
        std::uint32_t sum = 0;
        for (int x = 0; x < pad && x < w; ++x) sum += cols[x];
        std::uint16_t* out = mask + y * stride;
        for (int x = 0; x < w; ++x) {
            if (x + pad < w) sum += cols[x + pad];
            if (x - pad - 1 >= 0) sum -= cols[x - pad - 1];
            out[x] = sum > static_cast<std::uint32_t>(threshold) ? 1 : 0;
        }
    }
}

void decimate_scalar(std::uint16_t* image, std::ptrdiff_t stride, int w, int h) {
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) image[y * stride + x] = image[2 * y * stride + 2 * x];
}

inline std::uint16_t min3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    if (a <= b && a <= c) return a;
    return b <= c ? b : c;
}

inline std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return min3(a, b, c);
}

// Rows are filtered across into a ring of three lines; once three are
// there, the middle picture row gets the mode down the ring (mode3 does not
// depend on the order of its arguments).
void filter_mode_scalar(std::uint16_t* image, std::ptrdiff_t stride, int w, int h,
                        std::uint16_t* buffer) {
    int line = 0;
    for (int y = 0; y < h; ++y) {
        const std::uint16_t* row = image + y * stride;
        std::uint16_t* out = buffer + line * w;
        out[0] = row[0];
        for (int x = 1; x < w - 1; ++x) out[x] = mode3(row[x - 1], row[x], row[x + 1]);
        out[w - 1] = row[w - 1];
        if (y > 1) {
            std::uint16_t* dst = image + (y - 1) * stride;
            for (int x = 0; x < w; ++x) dst[x] = mode3(buffer[x], buffer[w + x], buffer[2 * w + x]);
        }
        line = line == 2 ? 0 : line + 1;
    }
}

// The histograms: row (v - band_base) counts, for each column x, the
// masked pixels of value v in the columns [x - pad, x + pad] (clipped) of the
// picture rows currently in the window.
struct Histograms {
    std::uint16_t* h;
    int w, pad, band_base, band_size;

    // The histogram row of a masked pixel in the band, else nullptr.
    std::uint16_t* row_of(std::uint16_t mask, std::uint16_t v) const {
        if (!mask) return nullptr;
        const unsigned compact = static_cast<std::uint16_t>(v - band_base);
        if (compact >= static_cast<unsigned>(band_size)) return nullptr;
        return h + static_cast<std::ptrdiff_t>(compact) * w;
    }
    int left(int x) const { return x - pad > 0 ? x - pad : 0; }
    int right(int x) const { return x + pad + 1 < w ? x + pad + 1 : w; }

    void add_row(const std::uint16_t* image, const std::uint16_t* mask) const {
        for (int x = 0; x < w; ++x)
            if (std::uint16_t* r = row_of(mask[x], image[x]))
                for (int i = left(x); i < right(x); ++i) ++r[i];
    }
    void remove_row(const std::uint16_t* image, const std::uint16_t* mask) const {
        for (int x = 0; x < w; ++x)
            if (std::uint16_t* r = row_of(mask[x], image[x]))
                for (int i = left(x); i < right(x); ++i) --r[i];
    }
    // remove_row(old) then add_row(new), skipping a column whose two pixels
    // cancel.
    void slide(const std::uint16_t* old_image, const std::uint16_t* old_mask,
               const std::uint16_t* new_image, const std::uint16_t* new_mask) const {
        for (int x = 0; x < w; ++x) {
            std::uint16_t* out = row_of(old_mask[x], old_image[x]);
            std::uint16_t* in = row_of(new_mask[x], new_image[x]);
            if (out == in) continue;
            const int l = left(x), r = right(x);
            if (out)
                for (int i = l; i < r; ++i) --out[i];
            if (in)
                for (int i = l; i < r; ++i) ++in[i];
        }
    }
};

// libvmaf's c_value_pixel: v is the 10-bit value plus num_diffs.
inline float c_value_pixel(const std::uint16_t* hist, int w, int x, int v, const ContrastSetup& s,
                           const float* recip) {
    const int compact = v - (s.band_base + s.num_diffs);
    if (static_cast<unsigned>(compact) >= static_cast<unsigned>(s.band_size)) return 0.0f;
    const std::uint16_t p0 = hist[compact * w + x];
    float c = 0.0f;
    for (int d = 0; d < s.num_diffs; ++d) {
        if (v > s.tvi[d] || v + d + 1 <= s.vlt_luma) continue;
        const int up = compact + d + 1, down = compact - d - 1;
        const std::uint16_t p1 = hist[up * w + x];
        const std::uint16_t p2 = down >= 0 ? hist[down * w + x] : 0;
        const std::uint16_t p = p1 > p2 ? p1 : p2;
        const float val = static_cast<float>(s.weights[d] * p0 * p) * recip[p + p0];
        if (val > c) c = val;
    }
    return c;
}

void c_values_row(const std::uint16_t* image, const std::uint16_t* mask, int w,
                  const ContrastSetup& s, const std::uint16_t* hist, const float* recip,
                  float* out) {
    for (int x = 0; x < w; ++x)
        if (mask[x]) out[x] = c_value_pixel(hist, w, x, image[x] + s.num_diffs, s, recip);
}

void c_values_scalar(const std::uint16_t* image, const std::uint16_t* mask, std::ptrdiff_t stride,
                     int w, int h, int window, const ContrastSetup& s, float* c_values,
                     std::uint16_t* histograms) {
    const int pad = window >> 1;
    const float* recip = reciprocal_table();
    std::memset(c_values, 0, sizeof(float) * static_cast<std::size_t>(w) * h);
    std::memset(histograms, 0, sizeof(std::uint16_t) * static_cast<std::size_t>(w) * s.band_size);
    const Histograms hist{histograms, w, pad, s.band_base, s.band_size};
    // Rows [0, pad) first; then row y enters the window when y - pad is
    // scored and leaves after y + pad is.
    for (int y = 0; y < pad; ++y) hist.add_row(image + y * stride, mask + y * stride);
    for (int y = 0; y < h; ++y) {
        const int in = y + pad, out = y - pad - 1;
        if (in < h && out >= 0)
            hist.slide(image + out * stride, mask + out * stride, image + in * stride,
                       mask + in * stride);
        else if (in < h)
            hist.add_row(image + in * stride, mask + in * stride);
        else if (out >= 0)
            hist.remove_row(image + out * stride, mask + out * stride);
        c_values_row(image + y * stride, mask + y * stride, w, s, histograms, recip,
                     c_values + static_cast<std::ptrdiff_t>(y) * w);
    }
}

}  // namespace

const CambiKernels& cambi_kernels_scalar() {
    static const CambiKernels k{&spatial_mask_scalar, &decimate_scalar, &filter_mode_scalar,
                                &c_values_scalar};
    return k;
}

}  // namespace vmafpp::cambi
