// checkasm module "cambi": every CambiKernels entry a SIMD level puts in,
// against cambi_kernels_scalar():
// - cambi_c_values: every width 1..64 then random ones up to 300, heights
//   pad+1.. pad+40, windows 3..65 (odd), num_diffs 1..32, tvi thresholds,
//   vlt and band as the extractor derives them or random; 10-bit pictures
//   that are flat, banded (a few values, so histogram counts run high), or
//   noise; masks all set, empty, or random at any density. Compares every
//   c-value (bits), the histograms left at the end (the counts start at 0
//   and must end at 0, the scalar's too), and canaries around both (the
//   histograms' padding may be rewritten unchanged; the scratch rows after
//   it, c_values_cells, start at 0 and must end at 0).
//   Also compares the pooling sums it gathers (CValueSums). The flat and
//   banded fills make the twins' runs of one histogram row (ramp updates),
//   flat ones with dense masks past kMaxRun (256) columns at widths over
//   256, and the blocks whose valid pixels share a value (contiguous loads).
// - cambi_c_value_sums: rows of c-values as the kernel makes them at any
//   density, rows with hostile floats (-0, below 0.5, denormals, 65536 and
//   past it, infinities, NaN, negatives) and rows near 65536 that cross the
//   2^53 limit; sums that start empty, out of range, past or near the
//   limit; the row against a guard page; widths 1..64, then up to 2100,
//   some up to 9000.
// - cambi_load_u8: 8-bit luma rows against guard pages, widths 1..64 then
//   up to 2100, heights 1..12, hostile fills, with and without the
//   anti-dithering; compares the image, stride padding included.
// - cambi_filter_mode: widths 1..64 then up to 2100, heights 1..12, fills
//   with few values (ties decide mode3) or any 16-bit value; compares the
//   whole picture, stride padding included.
// - cambi_spatial_mask: widths 1..64 then up to 700, heights 1..40, the
//   pictures of cambi_c_values (flat ones set every flag, few values make
//   ragged runs) or two or three of any 16-bit values, against a guard page
//   (stride = w a quarter of the time), thresholds 0..50 (all, none and every
//   count between), 0xffff and 0xff; compares the mask, stride padding
//   included. cambi_spatial_mask_half: the same pictures, the decimated
//   corner compared (nothing written outside the w x h mask).
// - cambi_decimate: widths 1..64 then up to 1100 of the previous scale
//   (even and odd), any 16-bit values, in place, the used rows against a
//   guard page (stride = w a quarter of the time); compares the whole
//   buffer.
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

std::string sums_text(const cambi::CValueSums& s) {
    return "(units " + std::to_string(s.units) + ", nonzero " + std::to_string(s.nonzero) +
           ", exact " + (s.exact ? "true" : "false") + ", in_range " +
           (s.in_range ? "true" : "false") + ")";
}

bool compare_sums(Context& ctx, int band, const std::string& what, const cambi::CValueSums& ref,
                  const cambi::CValueSums& got, const char* level) {
    if (ref.units == got.units && ref.nonzero == got.nonzero && ref.exact == got.exact &&
        ref.in_range == got.in_range)
        return true;
    ctx.fail(band) << what << ": sums scalar " << sums_text(ref) << ", " << level << " "
                   << sums_text(got);
    return false;
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
        // The counts and their padding, compared; then the scratch rows,
        // whose content is the kernel's own (canaries past them).
        const std::size_t cells =
            static_cast<std::size_t>(s.band_size) * w + cambi::kHistogramPadding;
        const std::size_t all_cells = cambi::c_values_cells(w, window, s.band_size);
        const std::size_t pixels = static_cast<std::size_t>(w) * h;
        Canaried<float> c_ref(pixels), c_got(pixels);
        Canaried<std::uint16_t> h_ref(all_cells), h_got(all_cells);
        // The counts and scratch rows start at 0 (CValuesFn); the padding
        // keeps the pattern, which a twin may only write back unchanged.
        const std::size_t counted = static_cast<std::size_t>(s.band_size) * w;
        for (auto* hist : {&h_ref, &h_got}) {
            std::fill(hist->data(), hist->data() + counted, std::uint16_t{0});
            std::fill(hist->data() + cells, hist->data() + all_cells, std::uint16_t{0});
        }
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " window=" + std::to_string(window) + " nd=" + std::to_string(nd) +
                                 " vlt=" + std::to_string(s.vlt_luma) + " fill=" + fill +
                                 " mask%=" + std::to_string(density);
        ctx.at_band(band, what);
        // Sums left over from an earlier call: the kernel must reset them.
        cambi::CValueSums sums_ref{12345, 678, false, false}, sums_got{-1, -1, false, false};
        cambi::cambi_kernels_scalar().c_values(image.data(), mask.data(), stride, w, h, window, s,
                                               c_ref.data(), h_ref.data(), sums_ref);
        L.kernels->c_values(image.data(), mask.data(), stride, w, h, window, s, c_got.data(),
                            h_got.data(), sums_got);
        ctx.band();
        // And end at 0 (the scalar's too: the next call starts from them).
        const auto nonzero = std::find_if(h_ref.data(), h_ref.data() + counted,
                                          [](std::uint16_t v) { return v != 0; });
        if (nonzero != h_ref.data() + counted) {
            ctx.fail(band) << what << ": scalar left count " << *nonzero << " at cell "
                           << (nonzero - h_ref.data());
            continue;
        }
        if (!compare_output(ctx, band, what, "c_values", c_ref, c_got, pixels, L.level.name))
            continue;
        long long where = 0;
        if (!h_got.canaries_intact(&where, all_cells)) {
            ctx.fail(band) << what << ": wrote histograms[" << where << "] outside [0, " << all_cells
                           << ")";
            continue;
        }
        if (const long long i = first_difference(h_ref.data(), h_got.data(), cells); i >= 0) {
            ctx.fail(band) << what << ": histograms[" << i << "] scalar " << h_ref[i] << ", "
                           << L.level.name << " " << h_got[i];
            continue;
        }
        // The scratch rows end at 0 too: a wider call counts there.
        const auto dirty = std::find_if(h_got.data() + cells, h_got.data() + all_cells,
                                        [](std::uint16_t v) { return v != 0; });
        if (dirty != h_got.data() + all_cells) {
            ctx.fail(band) << what << ": " << L.level.name << " left scratch cell "
                           << (dirty - h_got.data()) << " at " << *dirty;
            continue;
        }
        compare_sums(ctx, band, what, sums_ref, sums_got, L.level.name);
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

// half: spatial_mask_half, the decimated corner compared.
void check_spatial_mask(Context& ctx, const CambiLevel& L, bool half) {
    if (!ctx.check(half ? "cambi_spatial_mask_half" : "cambi_spatial_mask", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxWidth = 700, kMaxHeight = 40;
    GuardedRows mem(1, static_cast<std::size_t>(kMaxWidth + 40) * kMaxHeight * sizeof(std::uint16_t));
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const int h = 1 + static_cast<int>(rng() % kMaxHeight);
        const std::ptrdiff_t stride = w + (rng() % 4 == 0 ? 0 : static_cast<int>(rng() % 40));
        const std::size_t n = static_cast<std::size_t>(stride * h);
        // The picture against a guard page, before or after it.
        const bool at_end = rng() % 2 == 0;
        std::uint16_t* image = mem.row<std::uint16_t>(0, n, at_end);
        std::vector<std::uint16_t> pic(n);
        std::string fill = fill_picture(rng, pic, w, h, stride);
        if (rng() % 4 == 0) {
            // Any 16-bit values, two or three of them (runs of equal ones).
            const std::uint16_t base = static_cast<std::uint16_t>(rng());
            const unsigned spread = 2 + static_cast<unsigned>(rng() % 2);
            for (auto& v : pic) v = static_cast<std::uint16_t>(base + (rng() % 4 == 0 ? rng() % spread : 0));
            fill = "16bit_few";
        }
        std::memcpy(image, pic.data(), n * sizeof(std::uint16_t));
        fill += at_end ? " guard=after" : " guard=before";
        // Every count from 0 to 49 decides some pixel; 0xffff none.
        const int threshold = rng() % 8 == 0 ? 0xffff - static_cast<int>(rng() % 2) * 0xff00
                                             : static_cast<int>(rng() % 51);
        Canaried<std::uint16_t> ref(n), got(n);
        for (std::size_t i = 0; i < n; ++i) ref[i] = got[i] = static_cast<std::uint16_t>(rng());
        std::vector<std::uint32_t> scratch_ref(cambi::spatial_mask_scratch(w));
        std::vector<std::uint32_t> scratch_got(cambi::spatial_mask_scratch(w));
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " threshold=" + std::to_string(threshold) + " fill=" + fill;
        ctx.at_band(band, what);
        if (!half) {
            cambi::cambi_kernels_scalar().spatial_mask(image, stride, ref.data(), w, h, threshold,
                                                       scratch_ref.data());
            L.kernels->spatial_mask(image, stride, got.data(), w, h, threshold, scratch_got.data());
            ctx.band();
            compare_output(ctx, band, what, "mask", ref, got, n, L.level.name);
            continue;
        }
        cambi::cambi_kernels_scalar().spatial_mask_half(image, stride, ref.data(), w, h, threshold,
                                                        scratch_ref.data());
        L.kernels->spatial_mask_half(image, stride, got.data(), w, h, threshold, scratch_got.data());
        ctx.band();
        // Only the decimated corner is specified; nothing past the w x h
        // mask may be written.
        long long where = 0;
        if (!got.canaries_intact(&where, n)) {
            ctx.fail(band) << what << ": wrote mask[" << where << "] outside [0, " << n << ")";
            continue;
        }
        for (int y = 0; y < (h + 1) / 2 && ctx.ok(); ++y)
            for (int x = 0; x < (w + 1) / 2; ++x) {
                const std::size_t i = static_cast<std::size_t>(y * stride + x);
                if (ref[i] != got[i]) {
                    ctx.fail(band) << what << ": mask[" << y << "][" << x << "] scalar " << ref[i]
                                   << ", " << L.level.name << " " << got[i];
                    break;
                }
            }
    }
    ctx.done();
}

void check_decimate(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_decimate", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxWidth = 1100, kMaxHeight = 24;
    GuardedRows mem(1, static_cast<std::size_t>(kMaxWidth + 40) * kMaxHeight * sizeof(std::uint16_t));
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int big_w = band_width(rng, band, kMaxWidth);
        const int big_h = 1 + static_cast<int>(rng() % kMaxHeight);
        const int w = (big_w + 1) >> 1, h = (big_h + 1) >> 1;
        const std::ptrdiff_t stride = big_w + (rng() % 4 == 0 ? 0 : static_cast<int>(rng() % 40));
        // The picture's used part, rows up to 2h - 2, against a guard page
        // (before or after it): a read or write outside it faults.
        const std::size_t n = static_cast<std::size_t>(stride * (2 * h - 2) + big_w);
        const bool at_end = rng() % 2 == 0;
        std::uint16_t* got = mem.row<std::uint16_t>(0, n, at_end);
        Canaried<std::uint16_t> ref(n);
        for (std::size_t i = 0; i < n; ++i) got[i] = ref[i] = static_cast<std::uint16_t>(rng());
        const std::string what = "from " + std::to_string(big_w) + "x" + std::to_string(big_h) +
                                 " to " + std::to_string(w) + "x" + std::to_string(h) +
                                 (at_end ? " guard=after" : " guard=before");
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().decimate(ref.data(), stride, w, h);
        L.kernels->decimate(got, stride, w, h);
        ctx.band();
        const long long i = first_difference(ref.data(), got, n);
        if (i >= 0)
            ctx.fail(band) << what << ": image[" << i << "] scalar " << ref[static_cast<std::size_t>(i)]
                           << ", " << L.level.name << " " << got[i];
    }
    ctx.done();
}

// load_u8: 8-bit luma of widths 1..64 then up to 2100, heights 1..12, every
// source row against a guard page (before or after it, at random), hostile
// fills (fill_samples: 0, 255, alternating, ramps, noise), with and without
// the anti-dithering; compares the whole image buffer, stride padding
// included.
void check_load_u8(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_load_u8", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxWidth = 2100, kMaxHeight = 12;
    GuardedRows mem(kMaxHeight, kMaxWidth);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const int h = 1 + static_cast<int>(rng() % kMaxHeight);
        const bool at_end = rng() % 2 == 0;
        const Fill fill = random_fill(rng);
        // Rows sit in their own guarded slots, a fixed distance apart.
        const std::uint8_t* first = mem.row<std::uint8_t>(0, static_cast<std::size_t>(w), at_end);
        const std::ptrdiff_t src_stride =
            mem.row<std::uint8_t>(1, static_cast<std::size_t>(w), at_end) - first;
        for (int y = 0; y < h; ++y) {
            std::uint8_t* row = mem.row<std::uint8_t>(y, static_cast<std::size_t>(w), at_end);
            fill_samples(rng, fill, 255, static_cast<std::size_t>(w),
                         [&](std::size_t i, std::uint64_t v) { row[i] = static_cast<std::uint8_t>(v); });
        }
        const bool dither = rng() % 4 != 0;
        const std::ptrdiff_t stride = w + static_cast<int>(rng() % 40);
        const std::size_t n = static_cast<std::size_t>(stride * h);
        Canaried<std::uint16_t> ref(n), got(n);
        for (std::size_t i = 0; i < n; ++i) ref[i] = got[i] = static_cast<std::uint16_t>(rng());
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " fill=" + fill_name(fill) + (dither ? " dither" : " no_dither") +
                                 (at_end ? " guard=after" : " guard=before");
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().load_u8(first, src_stride, ref.data(), stride, w, h, dither);
        L.kernels->load_u8(first, src_stride, got.data(), stride, w, h, dither);
        ctx.band();
        compare_output(ctx, band, what, "image", ref, got, n, L.level.name);
    }
    ctx.done();
}

// A row of c-values: as the kernel makes them (weight * p0 * p in float times
// the reciprocal, counts up to the largest window's 4225), at any density of
// zeros, and with hostile values sprinkled in: -0, values below 0.5
// (denormals too), the ends of [0.5, 65536) and just past them, infinities,
// NaN, negatives; or every value near 65536, so that a row of 8192 crosses
// the 2^53 limit of the exact sum.
std::string fill_c_values(Rng& rng, float* row, int n) {
    const float* recip = cambi::reciprocal_table();
    const int zero_percent = static_cast<int>(rng() % 101);
    const int kind = static_cast<int>(rng() % 4);  // 0, 1 ordinary; 2 hostile; 3 near 65536
    const int max_count = 1 + static_cast<int>(rng() % (rng() % 2 ? 4 : 4225));
    static const float hostile[] = {-0.0f, 0.25f, 1e-45f, 1.17549435e-38f, 0.49999997f, 0.5f,
                                    65535.996f, 65536.0f, 1e30f, -0.5f, -65536.0f,
                                    __builtin_inff(), -__builtin_inff(), __builtin_nanf("")};
    for (int i = 0; i < n; ++i) {
        float& v = row[i];
        if (static_cast<int>(rng() % 100) < zero_percent) {
            v = 0.0f;
        } else if (kind == 3) {
            v = 65535.996f - static_cast<float>(rng() % 1024);
        } else if (kind == 2 && rng() % 8 == 0) {
            v = hostile[rng() % (sizeof hostile / sizeof hostile[0])];
        } else {
            const int wt = 1 + static_cast<int>(rng() % 9);
            const int p0 = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_count));
            const int p = 1 + static_cast<int>(rng() % static_cast<unsigned>(max_count));
            v = static_cast<float>(wt * p0 * p) * recip[(p0 + p) % cambi::kReciprocalCount];
        }
    }
    static const char* const names[] = {"c_values", "c_values", "hostile", "near_65536"};
    return std::string(names[kind]) + " zero%=" + std::to_string(zero_percent);
}

// c_value_sums: one row (widths 1..64, then up to 2100, some up to 9000),
// read from against a guard page, added to sums that start empty, past the
// 2^53 limit, with a value out of range, or just below the limit.
void check_c_value_sums(Context& ctx, const CambiLevel& L) {
    if (!ctx.check("cambi_c_value_sums", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxWidth = 9000;
    GuardedRows mem(1, kMaxWidth * sizeof(float));
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int n = band >= 64 && rng() % 8 == 0 ? 1 + static_cast<int>(rng() % kMaxWidth)
                                                  : band_width(rng, band, 2100);
        const bool at_end = rng() % 2 == 0;
        float* row = mem.row<float>(0, static_cast<std::size_t>(n), at_end);
        const std::string fill = fill_c_values(rng, row, n);
        cambi::CValueSums start;
        const int state = static_cast<int>(rng() % 5);
        if (state == 1) start = {static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 50)), 17, false, false};
        if (state == 2) start = {static_cast<std::int64_t>(rng() % (std::uint64_t{1} << 50)), 17, false, true};
        if (state >= 3)
            start = {cambi::kCValueUnitsLimit - 1 - static_cast<std::int64_t>(rng() % (std::uint64_t{1} << (rng() % 48))),
                     static_cast<std::int64_t>(rng() % 100000), true, true};
        static const char* const states[] = {"empty", "out_of_range", "over_limit", "near_limit",
                                             "near_limit"};
        const std::string what = "n=" + std::to_string(n) + " fill=" + fill + " start=" +
                                 states[state] + (at_end ? " guard=after" : " guard=before");
        cambi::CValueSums ref = start, got = start;
        ctx.at_band(band, what);
        cambi::cambi_kernels_scalar().c_value_sums(row, n, ref);
        L.kernels->c_value_sums(row, n, got);
        ctx.band();
        compare_sums(ctx, band, what, ref, got, L.level.name);
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(cambi) {
    for (const CambiLevel& L : simd_tables(ctx, &cambi::cambi_kernels_for)) {
        if (L.owns(&CambiKernels::c_values)) check_c_values(ctx, L);
        if (L.owns(&CambiKernels::c_value_sums)) check_c_value_sums(ctx, L);
        if (L.owns(&CambiKernels::load_u8)) check_load_u8(ctx, L);
        if (L.owns(&CambiKernels::filter_mode)) check_filter_mode(ctx, L);
        if (L.owns(&CambiKernels::spatial_mask)) check_spatial_mask(ctx, L, false);
        if (L.owns(&CambiKernels::spatial_mask_half)) check_spatial_mask(ctx, L, true);
        if (L.owns(&CambiKernels::decimate)) check_decimate(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
