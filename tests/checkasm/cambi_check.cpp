// checkasm module "cambi": every CambiKernels entry a SIMD level puts in,
// against cambi_kernels_scalar():
// - cambi_c_values: every width 1..64 then random ones up to 300, heights
//   pad+1.. pad+40, windows 3..65 (odd), num_diffs 1..32, tvi thresholds,
//   vlt and band as the extractor derives them or random; 10-bit pictures
//   that are flat, banded (a few values, so histogram counts run high), or
//   noise; masks all set, empty, or random at any density. Compares every
//   c-value (bits), the histograms left at the end, and canaries around
//   both (the histograms' padding may be rewritten unchanged).
// - cambi_filter_mode: widths 1..64 then up to 2100, heights 1..12, fills
//   with few values (ties decide mode3) or any 16-bit value; compares the
//   whole picture, stride padding included.
// - cambi_spatial_mask: widths 1..64 then up to 700, heights 1..40, the
//   pictures of cambi_c_values (flat ones set every flag, few values make
//   ragged runs), thresholds 0..50 (all, none and every count between) and
//   0xffff; compares the mask, stride padding included.
// - cambi_decimate: widths 1..64 then up to 1100 of the previous scale
//   (even and odd), any 16-bit values, in place; compares the whole buffer.
// Pictures are ordinary buffers (the kernels take one pointer and a
// stride), not guard pages; canaries catch writes outside.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cambi/cambi_kernels.hpp"
#include "checkasm/checkasm.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {
namespace {

using cambi::CambiKernels;
using CambiLevel = TableLevel<CambiKernels>;

constexpr int kWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                              8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// A 10-bit picture: flat, banded in a few values around a base, or noise.
std::string fill_picture(Rng& rng, std::vector<std::uint16_t>& p, int w, int h,
                         std::ptrdiff_t stride) {
    const int kind = static_cast<int>(rng() % 4);
    const int base = static_cast<int>(rng() % 1024);
    const int spread = 1 + static_cast<int>(rng() % 12);
    const int run = 1 + static_cast<int>(rng() % 20);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int v = base;
            if (kind == 1) v = base + (x / run + y / run) % spread;
            if (kind == 2) v = base + static_cast<int>(rng() % static_cast<unsigned>(spread));
            if (kind == 3) v = static_cast<int>(rng() % 1024);
            p[static_cast<std::size_t>(y * stride + x)] = static_cast<std::uint16_t>(std::min(v, 1023));
        }
    static const char* const names[] = {"flat", "banded", "few_values", "noise"};
    return names[kind];
}

void check_c_values(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_c_values", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxWidth = 300;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int window = 3 + 2 * static_cast<int>(rng() % 32);
        const int pad = window >> 1;
        const int w = std::max(band_width(rng, band, kMaxWidth), pad + 1);
        const int h = pad + 1 + static_cast<int>(rng() % 40);
        const std::ptrdiff_t stride = w + static_cast<int>(rng() % 40);
        std::vector<std::uint16_t> image(static_cast<std::size_t>(stride * h));
        std::vector<std::uint16_t> mask(static_cast<std::size_t>(stride * h));
        const std::string fill = fill_picture(rng, image, w, h, stride);
        const int density = static_cast<int>(rng() % 101);
        for (auto& m : mask) m = static_cast<int>(rng() % 100) < density ? 1 : 0;

        const int nd = 1 << (rng() % 6);
        std::vector<std::uint16_t> tvi(static_cast<std::size_t>(nd));
        int t = static_cast<int>(rng() % 1024);
        for (int d = 0; d < nd; ++d) {
            t = std::min(1023, t + static_cast<int>(rng() % 8));
            tvi[static_cast<std::size_t>(d)] = static_cast<std::uint16_t>(t + nd);
        }
        cambi::ContrastSetup s;
        s.num_diffs = nd;
        s.tvi = tvi.data();
        s.weights = kWeights;
        s.vlt_luma = rng() % 3 == 0 ? static_cast<int>(rng() % 1024) : 0;
        const int lo = s.vlt_luma - 3 * nd + 1;
        s.band_base = lo > 0 ? lo : 0;
        s.band_size = tvi.back() + 1 - s.band_base;
        if (s.band_size <= 0) {
            s.band_base = 0;
            s.band_size = tvi.back() + 1;
        }
        const std::size_t cells =
            static_cast<std::size_t>(s.band_size) * w + cambi::kHistogramPadding;
        const std::size_t pixels = static_cast<std::size_t>(w) * h;
        Canaried<float> c_ref(pixels), c_got(pixels);
        Canaried<std::uint16_t> h_ref(cells), h_got(cells);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " window=" + std::to_string(window) + " nd=" + std::to_string(nd) +
                                 " vlt=" + std::to_string(s.vlt_luma) + " fill=" + fill +
                                 " mask%=" + std::to_string(density);
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().c_values(image.data(), mask.data(), stride, w, h, window, s,
                                               c_ref.data(), h_ref.data());
        L.kernels->c_values(image.data(), mask.data(), stride, w, h, window, s, c_got.data(),
                            h_got.data());
        ctx.band();
        if (!compare_output(ctx, band, what, "c_values", c_ref, c_got, pixels, L.level.name))
            continue;
        compare_output(ctx, band, what, "histograms", h_ref, h_got, cells, L.level.name);
    }
    ctx.done();
}

void check_filter_mode(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_filter_mode", L.level)) return;
    Rng rng = ctx.rng();
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, 2100);
        const int h = 1 + static_cast<int>(rng() % 12);
        const std::ptrdiff_t stride = w + static_cast<int>(rng() % 40);
        const std::size_t n = static_cast<std::size_t>(stride * h);
        Canaried<std::uint16_t> ref(n), got(n);
        const int values = 1 + static_cast<int>(rng() % 5);
        const bool any = rng() % 4 == 0;
        const std::uint16_t base = static_cast<std::uint16_t>(rng());
        for (std::size_t i = 0; i < n; ++i)
            ref[i] = static_cast<std::uint16_t>(
                any ? rng() : base + rng() % static_cast<unsigned>(values));
        std::memcpy(got.data(), ref.data(), n * sizeof(std::uint16_t));
        std::vector<std::uint16_t> buf_ref(static_cast<std::size_t>(3 * w));
        std::vector<std::uint16_t> buf_got(static_cast<std::size_t>(3 * w));
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 (any ? " any 16-bit" : " values=" + std::to_string(values));
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().filter_mode(ref.data(), stride, w, h, buf_ref.data());
        L.kernels->filter_mode(got.data(), stride, w, h, buf_got.data());
        ctx.band();
        compare_output(ctx, band, what, "image", ref, got, n, L.level.name);
    }
    ctx.done();
}

void check_spatial_mask(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_spatial_mask", L.level)) return;
    Rng rng = ctx.rng();
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, 700);
        const int h = 1 + static_cast<int>(rng() % 40);
        const std::ptrdiff_t stride = w + static_cast<int>(rng() % 40);
        const std::size_t n = static_cast<std::size_t>(stride * h);
        std::vector<std::uint16_t> image(n);
        const std::string fill = fill_picture(rng, image, w, h, stride);
        const int threshold = rng() % 8 == 0 ? 0xffff : static_cast<int>(rng() % 51);
        Canaried<std::uint16_t> ref(n), got(n);
        for (std::size_t i = 0; i < n; ++i) ref[i] = got[i] = static_cast<std::uint16_t>(rng());
        std::vector<std::uint32_t> scratch_ref(cambi::spatial_mask_scratch(w));
        std::vector<std::uint32_t> scratch_got(cambi::spatial_mask_scratch(w));
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " threshold=" + std::to_string(threshold) + " fill=" + fill;
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().spatial_mask(image.data(), stride, ref.data(), w, h, threshold,
                                                   scratch_ref.data());
        L.kernels->spatial_mask(image.data(), stride, got.data(), w, h, threshold, scratch_got.data());
        ctx.band();
        compare_output(ctx, band, what, "mask", ref, got, n, L.level.name);
    }
    ctx.done();
}

void check_decimate(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_decimate", L.level)) return;
    Rng rng = ctx.rng();
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int big_w = band_width(rng, band, 1100);
        const int big_h = 1 + static_cast<int>(rng() % 24);
        const int w = (big_w + 1) >> 1, h = (big_h + 1) >> 1;
        const std::ptrdiff_t stride = big_w + static_cast<int>(rng() % 40);
        const std::size_t n = static_cast<std::size_t>(stride * big_h);
        Canaried<std::uint16_t> ref(n), got(n);
        for (std::size_t i = 0; i < n; ++i) ref[i] = got[i] = static_cast<std::uint16_t>(rng());
        const std::string what = "from " + std::to_string(big_w) + "x" + std::to_string(big_h) +
                                 " to " + std::to_string(w) + "x" + std::to_string(h);
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().decimate(ref.data(), stride, w, h);
        L.kernels->decimate(got.data(), stride, w, h);
        ctx.band();
        compare_output(ctx, band, what, "image", ref, got, n, L.level.name);
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(cambi) {
    for (const CambiLevel& L : simd_tables(ctx, &cambi::cambi_kernels_for)) {
        if (L.owns(&CambiKernels::c_values)) check_c_values(ctx, L);
        if (L.owns(&CambiKernels::filter_mode)) check_filter_mode(ctx, L);
        if (L.owns(&CambiKernels::spatial_mask)) check_spatial_mask(ctx, L);
        if (L.owns(&CambiKernels::decimate)) check_decimate(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
