// checkasm module "vif": every VifKernels entry of every SIMD level against
// vif_kernels_scalar(), on the libvmaf filters and on random ones (taps 1..17,
// any uint16 coefficient, symmetric or not; taps below 32768 summing to at
// most 65536, which the SIMD fast paths need, symmetric or not, and just
// past those bounds),
// every width 1..64 and random wider ones, hostile
// sample fills at 8..16 bits, shifts beyond the ones the extractor uses, and
// full-range 32-bit inputs for the kernels that take them.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "vif/vif_kernels.hpp"
#include "vif/vif_shared.h"
#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {
namespace {

using vif::kMaxHalf;
using vif::VifKernels;
using vif::VifStatRow;
using vif::VifSums;

constexpr int kMaxTaps = 2 * kMaxHalf + 1;
constexpr int kMaxWidth = 2100;  // crosses the scalar's 256-column blocks several times
constexpr std::int32_t kNsq = 65536 << 1;

using VifLevel = TableLevel<VifKernels>;

// A filter for one band: one of libvmaf's four, or random taps.
struct Filter {
    std::array<std::uint16_t, kMaxTaps> c{};
    int taps = 0;
    std::string name;
};

// Random taps below 32768 (a signed 16-bit coefficient) whose sum is
// exactly `total` where the tap count allows it: the shape of libvmaf's
// filters, which the SIMD kernels' fast paths require.
void signed_taps(Rng& rng, Filter& f, std::uint32_t total) {
    std::uint32_t left = total;
    for (int t = 0; t < f.taps; ++t) {
        const std::uint32_t rest = static_cast<std::uint32_t>(f.taps - 1 - t) * 32767u;
        const std::uint32_t lo = left > rest ? left - rest : 0u;
        const std::uint32_t hi = std::min<std::uint32_t>(left, 32767u);
        const std::uint32_t c = lo >= hi ? hi : (rng() % 3 == 0 ? hi : lo + static_cast<std::uint32_t>(rng() % (hi - lo + 1)));
        f.c[t] = static_cast<std::uint16_t>(c);
        left -= c;
    }
    std::shuffle(f.c.begin(), f.c.begin() + f.taps, rng);
}

// Makes f symmetric (c_t = c_taps-1-t, as libvmaf's filters are, which the
// AVX2 8-bit row folds) by lowering the larger tap of each mirrored pair:
// taps stay below 32768 and the sum does not grow.
void make_symmetric(Filter& f) {
    for (int t = 0; t < f.taps / 2; ++t) {
        const std::uint16_t c = std::min(f.c[t], f.c[f.taps - 1 - t]);
        f.c[t] = f.c[f.taps - 1 - t] = c;
    }
    f.name += "_sym";
}

Filter pick_filter(Rng& rng) {
    Filter f;
    if (rng() % 4 != 0) {
        const int s = static_cast<int>(rng() % vif::kScales);
        f.taps = vif::kFilterTaps[s];
        std::copy_n(vif::kFilters[s], f.taps, f.c.begin());
        f.name = "libvmaf" + std::to_string(s);
        return f;
    }
    f.taps = 1 + static_cast<int>(rng() % kMaxTaps);
    const std::string taps = "(" + std::to_string(f.taps) + ")";
    switch (rng() % 6) {
        case 0:
            for (int t = 0; t < f.taps; ++t) f.c[t] = 65535;
            f.name = "all65535" + taps;
            break;
        case 1:
            // Taps below 32768 summing to 65536 (or as close as the count
            // allows), the largest sum the fast paths take.
            signed_taps(rng, f, 65536);
            f.name = "signed_sum65536" + taps;
            if (rng() % 2 == 0) make_symmetric(f);
            break;
        case 2:
            signed_taps(rng, f, static_cast<std::uint32_t>(rng() % 65537));
            f.name = "signed_small_sum" + taps;
            if (rng() % 2 == 0) make_symmetric(f);
            break;
        case 3: {
            // Just outside a fast path: one tap of 32768, or a sum of 65537.
            signed_taps(rng, f, 65536);
            const int t = static_cast<int>(rng() % f.taps);
            if (rng() % 2 == 0 || f.c[t] == 32767) {
                f.c[t] = 32768;
                f.name = "one32768" + taps;
            } else {
                f.c[t] = static_cast<std::uint16_t>(f.c[t] + 1);
                f.name = "sum_plus1" + taps;
            }
            break;
        }
        default:
            for (int t = 0; t < f.taps; ++t) f.c[t] = rng() % 4 == 0 ? 65535 - rng() % 3 : rng() % 65536;
            // Half of them symmetric, as libvmaf's filters are.
            if (rng() % 2 == 0)
                for (int t = 0; t < f.taps / 2; ++t) f.c[f.taps - 1 - t] = f.c[t];
            f.name = "random" + taps;
            break;
    }
    return f;
}

// The reduction's vertical pass may take another path when every tap is
// below 2^15 (AVX-512: two taps per multiply-add): a quarter of its filters
// are random ones of that kind, up to 32767 (sums at their extreme), a
// third of those with one tap of exactly 2^15 (which must not take it).
Filter pick_reduction_filter(Rng& rng) {
    if (rng() % 4 != 0) return pick_filter(rng);
    Filter f;
    f.taps = 1 + static_cast<int>(rng() % kMaxTaps);
    const bool boundary = rng() % 3 == 0;
    for (int t = 0; t < f.taps; ++t)
        f.c[t] = static_cast<std::uint16_t>(rng() % 4 == 0 ? 32767 : rng() % 32768);
    if (boundary) f.c[rng() % f.taps] = 32768;
    f.name = std::string(boundary ? "below2^15_one2^15" : "below2^15") + "(" + std::to_string(f.taps) + ")";
    return f;
}

Filter libvmaf_filter(int s) {
    Filter f;
    f.taps = vif::kFilterTaps[s];
    std::copy_n(vif::kFilters[s], f.taps, f.c.begin());
    f.name = "libvmaf" + std::to_string(s);
    return f;
}

// Sample bit depths for the 16-bit kernels: the extractor's, and 16.
int pick_bits(Rng& rng) {
    static constexpr int kBits[] = {8, 9, 10, 12, 14, 16, 16};
    return kBits[rng() % std::size(kBits)];
}

// 2 * kMaxTaps rows of samples in guarded memory: taps row pointers for the
// reference and the distorted picture, distinct or repeated (as the mirrored
// edge rows are).
template <class T>
struct SampleRows {
    GuardedRows mem{2 * kMaxTaps, kMaxWidth * sizeof(T)};
    std::array<const T*, kMaxTaps> ref{}, dis{};
    std::string fill;

    void make(Rng& rng, int w, int taps, std::uint64_t max) {
        const Fill fr = random_fill(rng);
        const Fill fd = rng() % 5 == 0 ? fr : random_fill(rng);
        fill = std::string(fill_name(fr)) + "/" + fill_name(fd);
        std::array<T*, 2 * kMaxTaps> rows{};
        for (int k = 0; k < 2 * kMaxTaps; ++k) {
            T* row = mem.row<T>(k, static_cast<std::size_t>(w), rng() & 1);
            fill_samples(rng, k < kMaxTaps ? fr : fd, max, static_cast<std::size_t>(w),
                         [&](std::size_t i, std::uint64_t v) { row[i] = static_cast<T>(v); });
            rows[k] = row;
        }
        const bool repeat = rng() % 2 == 0;
        for (int t = 0; t < taps; ++t) {
            ref[t] = rows[repeat ? rng() % kMaxTaps : t];
            dis[t] = rows[kMaxTaps + (repeat ? rng() % kMaxTaps : t)];
        }
    }
};

// Five output rows (a VifStatRow) with canaries.
struct StatOut {
    std::array<Canaried<std::uint32_t>, 5> rows{Canaried<std::uint32_t>(kMaxWidth),
                                                Canaried<std::uint32_t>(kMaxWidth),
                                                Canaried<std::uint32_t>(kMaxWidth),
                                                Canaried<std::uint32_t>(kMaxWidth),
                                                Canaried<std::uint32_t>(kMaxWidth)};
    VifStatRow view() {
        for (auto& r : rows) r.poison();
        return {rows[0].data(), rows[1].data(), rows[2].data(), rows[3].data(), rows[4].data()};
    }
};
constexpr const char* kStatNames[5] = {"mu1", "mu2", "xx", "yy", "xy"};

bool compare_stat(Context& ctx, int band, const std::string& what, const StatOut& a,
                  const StatOut& b, int w, const char* level) {
    for (int k = 0; k < 5; ++k)
        if (!compare_output(ctx, band, what, kStatNames[k], a.rows[k], b.rows[k],
                            static_cast<std::size_t>(w), level))
            return false;
    return true;
}

// The three sigma rows of a statistics kernel (sigma1_sq, sigma2_sq, sigma12).
using SigmaOut = std::array<Canaried<std::int32_t>, 3>;
SigmaOut sigma_out() {
    return {Canaried<std::int32_t>(kMaxWidth), Canaried<std::int32_t>(kMaxWidth), Canaried<std::int32_t>(kMaxWidth)};
}
bool compare_sigma(Context& ctx, int band, const std::string& what, const SigmaOut& a, const SigmaOut& b, int w,
                   const char* level) {
    static constexpr const char* kNames[3] = {"sigma1_sq", "sigma2_sq", "sigma12"};
    for (int k = 0; k < 3; ++k)
        if (!compare_output(ctx, band, what, kNames[k], a[k], b[k], static_cast<std::size_t>(w), level)) return false;
    return true;
}

// ---------------------------------------------------------------------------

void check_stat_vertical_u8(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_stat_vertical_u8", L.level)) return;
    Rng rng = ctx.rng();
    SampleRows<std::uint8_t> rows;
    StatOut a, b;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const Filter f = pick_filter(rng);
        rows.make(rng, w, f.taps, 255);
        const std::string what = "w=" + std::to_string(w) + " filter=" + f.name + " fill=" + rows.fill;
        ctx.at_band(band, what);
        vif::vif_stat_vertical_u8(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, a.view());
        L.kernels->stat_vertical_u8(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, b.view());
        ctx.band();
        compare_stat(ctx, band, what, a, b, w, L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(0);
        rows.make(rng, 1920, f.taps, 255);
        const VifStatRow va = a.view(), vb = b.view();
        ctx.bench([&] { vif::vif_stat_vertical_u8(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, 1920, va); },
                  [&] { L.kernels->stat_vertical_u8(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, 1920, vb); });
    }
    ctx.done();
}

// The fused 8-bit row: vertical pass, mirror, horizontal pass, and in half
// the bands the reduction of the middle rows (any filter that fits inside
// the statistics rows, any defined shift). Its scratch starts poisoned (and
// at a random offset, for the alignment), so no kernel may depend on what a
// previous call left there.
void check_stat_row_u8(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_stat_row_u8", L.level)) return;
    Rng rng = ctx.rng();
    SampleRows<std::uint8_t> rows;
    SigmaOut a = sigma_out();
    auto b = a;
    std::array<Canaried<std::uint32_t>, 2> ra{Canaried<std::uint32_t>(kMaxWidth), Canaried<std::uint32_t>(kMaxWidth)};
    auto rb = ra;
    std::vector<std::uint32_t> scratch(vif::vif_stat_row_scratch(kMaxWidth) + 16);
    auto run = [&](const VifKernels& k, const Filter& f, const Filter* rf, int shift, int w,
                   SigmaOut& o, std::array<Canaried<std::uint32_t>, 2>& ro,
                   std::size_t offset) {
        for (auto& r : o) r.poison();
        for (auto& r : ro) r.poison();
        std::fill(scratch.begin(), scratch.end(), 0xA5A5A5A5u);
        const vif::VifRowReduce red{rf ? rf->c.data() : nullptr, rf ? rf->taps : 0, shift, ro[0].data(),
                                    ro[1].data()};
        k.stat_row_u8(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, scratch.data() + offset,
                      o[0].data(), o[1].data(), o[2].data(), rf ? &red : nullptr);
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const Filter f = pick_filter(rng);
        // The mirror needs w > taps / 2.
        const int w = std::max(band_width(rng, band, kMaxWidth), f.taps / 2 + 1);
        rows.make(rng, w, f.taps, 255);
        const std::size_t offset = rng() % 16;
        // A reduction whose rows lie inside the statistics rows, or none.
        Filter r = pick_filter(rng);
        const int row_offset = f.taps / 2 - r.taps / 2;
        const bool reduces = rng() % 2 == 0 && row_offset >= 0 && row_offset + r.taps <= f.taps;
        const int shift = rng() % 3 == 0 ? static_cast<int>(rng() % 32) : 8;
        std::string what = "w=" + std::to_string(w) + " filter=" + f.name + " fill=" + rows.fill + " scratch+" +
                           std::to_string(offset);
        if (reduces) what += " reduce=" + r.name + " shift=" + std::to_string(shift);
        ctx.at_band(band, what);
        run(vif::vif_kernels_scalar(), f, reduces ? &r : nullptr, shift, w, a, ra, offset);
        run(*L.kernels, f, reduces ? &r : nullptr, shift, w, b, rb, offset);
        ctx.band();
        if (compare_sigma(ctx, band, what, a, b, w, L.level.name) && reduces && compare_output(ctx, band, what, "ref_out", ra[0], rb[0], static_cast<std::size_t>(w), L.level.name))
            compare_output(ctx, band, what, "dis_out", ra[1], rb[1], static_cast<std::size_t>(w), L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(0);
        const Filter r = libvmaf_filter(1);
        rows.make(rng, 1920, f.taps, 255);
        ctx.bench([&] { run(vif::vif_kernels_scalar(), f, &r, 8, 1920, a, ra, 0); },
                  [&] { run(*L.kernels, f, &r, 8, 1920, b, rb, 0); });
    }
    ctx.done();
}

// The extractor's shifts (scale 0 of a bpc-bit picture, later scales), and
// any other defined pair.
void pick_stat_shifts(Rng& rng, int bits, int* shift_mu, int* shift_sq) {
    const unsigned r = static_cast<unsigned>(rng() % 4);
    if (r == 0) {
        *shift_mu = 16;
        *shift_sq = 16;
    } else if (r == 1) {
        *shift_mu = static_cast<int>(rng() % 32);
        *shift_sq = static_cast<int>(rng() % 33);
    } else {
        const int bpc = std::max(bits, 9);
        *shift_mu = bpc;
        *shift_sq = 2 * (bpc - 8);
    }
}

// The fused 16-bit row, checked as the 8-bit one: poisoned scratch at a
// random offset, any sample depth and any defined pair of shifts.
void check_stat_row_u16(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_stat_row_u16", L.level)) return;
    Rng rng = ctx.rng();
    SampleRows<std::uint16_t> rows;
    SigmaOut a = sigma_out();
    auto b = a;
    std::vector<std::uint32_t> scratch(vif::vif_stat_row_scratch(kMaxWidth) + 16);
    auto run = [&](const VifKernels& k, const Filter& f, int w, int shift_mu, int shift_sq,
                   SigmaOut& o, std::size_t offset) {
        for (auto& r : o) r.poison();
        std::fill(scratch.begin(), scratch.end(), 0xA5A5A5A5u);
        k.stat_row_u16(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, shift_mu, shift_sq,
                       scratch.data() + offset, o[0].data(), o[1].data(), o[2].data());
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const Filter f = pick_filter(rng);
        // The mirror needs w > taps / 2.
        const int w = std::max(band_width(rng, band, kMaxWidth), f.taps / 2 + 1);
        const int bits = pick_bits(rng);
        rows.make(rng, w, f.taps, (1u << bits) - 1);
        int shift_mu = 0, shift_sq = 0;
        pick_stat_shifts(rng, bits, &shift_mu, &shift_sq);
        const std::size_t offset = rng() % 16;
        const std::string what = "w=" + std::to_string(w) + " filter=" + f.name + " bits=" +
                                 std::to_string(bits) + " shift_mu=" + std::to_string(shift_mu) +
                                 " shift_sq=" + std::to_string(shift_sq) + " fill=" + rows.fill +
                                 " scratch+" + std::to_string(offset);
        ctx.at_band(band, what);
        run(vif::vif_kernels_scalar(), f, w, shift_mu, shift_sq, a, offset);
        run(*L.kernels, f, w, shift_mu, shift_sq, b, offset);
        ctx.band();
        compare_sigma(ctx, band, what, a, b, w, L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(1);
        rows.make(rng, 960, f.taps, 65535);
        ctx.bench([&] { run(vif::vif_kernels_scalar(), f, 960, 16, 16, a, 0); },
                  [&] { run(*L.kernels, f, 960, 16, 16, b, 0); });
    }
    ctx.done();
}

void check_stat_vertical_u16(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_stat_vertical_u16", L.level)) return;
    Rng rng = ctx.rng();
    SampleRows<std::uint16_t> rows;
    StatOut a, b;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const Filter f = pick_filter(rng);
        const int bits = pick_bits(rng);
        rows.make(rng, w, f.taps, (1u << bits) - 1);
        int shift_mu = 0, shift_sq = 0;
        pick_stat_shifts(rng, bits, &shift_mu, &shift_sq);
        const std::string what = "w=" + std::to_string(w) + " filter=" + f.name + " bits=" +
                                 std::to_string(bits) + " shift_mu=" + std::to_string(shift_mu) +
                                 " shift_sq=" + std::to_string(shift_sq) + " fill=" + rows.fill;
        ctx.at_band(band, what);
        vif::vif_stat_vertical_u16(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, shift_mu, shift_sq, a.view());
        L.kernels->stat_vertical_u16(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, shift_mu, shift_sq, b.view());
        ctx.band();
        compare_stat(ctx, band, what, a, b, w, L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(0);
        rows.make(rng, 1920, f.taps, 1023);
        const VifStatRow va = a.view(), vb = b.view();
        ctx.bench([&] { vif::vif_stat_vertical_u16(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, 1920, 10, 4, va); },
                  [&] { L.kernels->stat_vertical_u16(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, 1920, 10, 4, vb); });
    }
    ctx.done();
}

// Vertically filtered statistics of generated 8-bit content, as the
// extractor feeds the horizontal pass: w columns plus `half` mirrored ones on
// each side (random ones where the row is too narrow to mirror).
void realistic_stat_rows(Rng& rng, int w, int half, std::array<std::vector<std::uint32_t>, 5>& out) {
    std::array<std::vector<std::uint8_t>, 2 * kMaxTaps> pixels;
    std::array<const std::uint8_t*, kMaxTaps> ref{}, dis{};
    const int base = static_cast<int>(rng() % 256);
    const int spread = 1 + static_cast<int>(rng() % 40);
    const int noise = static_cast<int>(rng() % 12);
    for (int k = 0; k < kMaxTaps; ++k) {
        pixels[k].resize(w);
        pixels[kMaxTaps + k].resize(w);
        for (int i = 0; i < w; ++i) {
            const int v = std::clamp(base + static_cast<int>(rng() % (2 * spread + 1)) - spread, 0, 255);
            const int d = std::clamp(v + static_cast<int>(rng() % (2 * noise + 1)) - noise, 0, 255);
            pixels[k][i] = static_cast<std::uint8_t>(v);
            pixels[kMaxTaps + k][i] = static_cast<std::uint8_t>(d);
        }
        ref[k] = pixels[k].data();
        dis[k] = pixels[kMaxTaps + k].data();
    }
    for (auto& r : out) r.assign(static_cast<std::size_t>(w) + 2 * half, 0);
    const VifStatRow row{out[0].data() + half, out[1].data() + half, out[2].data() + half,
                         out[3].data() + half, out[4].data() + half};
    vif::vif_stat_vertical_u8(ref.data(), dis.data(), vif::kFilter0, 17, w, row);
    for (auto& r : out) {
        std::uint32_t* p = r.data() + half;
        if (w > half) {
            vif::vif_mirror_pad(p, w, half);
        } else {
            for (int k = 1; k <= half; ++k) {
                p[-k] = p[0];
                p[w - 1 + k] = p[w - 1];
            }
        }
    }
}

// Padded uint32 input rows for the horizontal kernels.
struct PaddedRows {
    GuardedRows mem;
    std::array<std::uint32_t*, 5> rows{};
    std::string fill;
    explicit PaddedRows(int count) : mem(count, (2 * kMaxWidth + 2 * kMaxHalf + 8) * sizeof(std::uint32_t)) {}
    // `count` rows of n + 2 * half elements; rows[k] points at element 0.
    void place(Rng& rng, int count, int n, int half) {
        const bool at_end = rng() & 1;
        for (int k = 0; k < count; ++k)
            rows[k] = mem.row<std::uint32_t>(k, static_cast<std::size_t>(n) + 2 * half, at_end) + half;
    }
};

void fill_u32_row(Rng& rng, Fill f, std::uint64_t max, std::uint32_t* p, std::size_t n) {
    fill_samples(rng, f, max, n, [&](std::size_t i, std::uint64_t v) { p[i] = static_cast<std::uint32_t>(v); });
}

void check_stat_horizontal(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_stat_horizontal", L.level)) return;
    Rng rng = ctx.rng();
    PaddedRows in(5);
    SigmaOut a = sigma_out();
    auto b = a;
    std::array<std::vector<std::uint32_t>, 5> real;
    auto run = [&](const VifKernels& k, const Filter& f, int w, SigmaOut& o) {
        for (auto& r : o) r.poison();
        const VifStatRow row{in.rows[0], in.rows[1], in.rows[2], in.rows[3], in.rows[4]};
        k.stat_horizontal(row, f.c.data(), f.taps, w, o[0].data(), o[1].data(), o[2].data());
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const Filter f = pick_filter(rng);
        const int half = f.taps / 2;
        in.place(rng, 5, w, half);
        const std::size_t n = static_cast<std::size_t>(w) + 2 * half;
        const unsigned mode = static_cast<unsigned>(rng() % 3);
        if (mode == 0) {
            // The extractor's ranges: means below 2^16, moments below 2^32.
            const Fill fill = random_fill(rng);
            in.fill = std::string("ranged/") + fill_name(fill);
            for (int k = 0; k < 5; ++k) fill_u32_row(rng, fill, k < 2 ? 65535 : 0xFFFFFFFFu, in.rows[k] - half, n);
        } else if (mode == 1) {
            const Fill fill = random_fill(rng);
            in.fill = std::string("full32/") + fill_name(fill);
            for (int k = 0; k < 5; ++k) fill_u32_row(rng, fill, 0xFFFFFFFFu, in.rows[k] - half, n);
        } else {
            in.fill = "from_pixels";
            realistic_stat_rows(rng, w, half, real);
            for (int k = 0; k < 5; ++k) std::copy(real[k].begin(), real[k].end(), in.rows[k] - half);
        }
        const std::string what = "w=" + std::to_string(w) + " filter=" + f.name + " fill=" + in.fill;
        ctx.at_band(band, what);
        run(vif::vif_kernels_scalar(), f, w, a);
        run(*L.kernels, f, w, b);
        ctx.band();
        compare_sigma(ctx, band, what, a, b, w, L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(0);
        in.place(rng, 5, 1920, 8);
        realistic_stat_rows(rng, 1920, 8, real);
        for (int k = 0; k < 5; ++k) std::copy(real[k].begin(), real[k].end(), in.rows[k] - 8);
        ctx.bench([&] { run(vif::vif_kernels_scalar(), f, 1920, a); }, [&] { run(*L.kernels, f, 1920, b); });
    }
    ctx.done();
}

// A pixel where the gain branch's truncation of g * g * s1 shows: p = g * g
// * s1 (g = s12 / (s1 + eps) below the limit) has a fraction of at least
// 1 - 2^-23, and numer1 is chosen so that the scalar's numer1_tmp =
// trunc(p) + numer1 is k * 2^15 - 1 in [2^30, 2^31), the last value below a
// change of log2_q11. Without the truncation, p + numer1 in double (ulp
// 2^-22 there) rounds up to k * 2^15 and the log changes; on random sigmas
// that needs a carry into the 16 leading bits, which almost never happens.
struct TruncationPixel {
    std::int32_t s1 = 0, s2 = 0, s12 = 0;
};

TruncationPixel find_truncation_pixel(const std::uint16_t* table) {
    const double eps = 65536 * 1.0e-10;  // as vif_accumulate_sample
    // The first such pixel has s1 = 132222 (4.7M candidates, a few ms).
    for (std::int32_t s1 = kNsq; s1 < 2 * kNsq; ++s1)
        for (std::int32_t s12 = 2 * s1; s12 < 2 * s1 + 4096; ++s12) {
            const double g = s12 / (s1 + eps);
            const double p = g * g * s1;
            if (p - std::floor(p) < 1.0 - 0x1p-23) continue;
            const auto whole = static_cast<std::int64_t>(p);
            for (std::int64_t k = (std::int64_t{1} << 15) + 1; k < (std::int64_t{1} << 16) - 8; ++k) {
                const std::int64_t x = k << 15;  // the changed log's argument
                if (vif::vif_log2_q11(table, std::uint64_t(x - 1)) == vif::vif_log2_q11(table, std::uint64_t(x)))
                    continue;
                const std::int64_t numer1 = x - 1 - whole;
                if (static_cast<double>(numer1) + p != static_cast<double>(x)) continue;
                // s2 with trunc(s2 - g * s12) = numer1 - nsq.
                const std::int64_t sv_sq = numer1 - kNsq;
                for (std::int64_t s2 = sv_sq + static_cast<std::int64_t>(g * s12) - 2;
                     s2 <= sv_sq + static_cast<std::int64_t>(g * s12) + 2; ++s2) {
                    const double sv = static_cast<double>(s2) - g * s12;
                    if (s2 <= INT32_MAX && sv > 0.0 && static_cast<std::int64_t>(sv) == sv_sq)
                        return {s1, static_cast<std::int32_t>(s2), s12};
                }
            }
        }
    throw std::logic_error("vif_accumulate: no pixel shows the gain product's truncation");
}

// sigma rows for vif_accumulate.
struct SigmaRows {
    explicit SigmaRows(int max_width) : mem(3, static_cast<std::size_t>(max_width) * sizeof(std::int32_t)) {}
    GuardedRows mem;
    std::array<std::int32_t*, 3> rows{};
    std::string fill;

    void make(Rng& rng, int w, const TruncationPixel& carry) {
        const bool at_end = rng() & 1;
        for (int k = 0; k < 3; ++k) rows[k] = mem.row<std::int32_t>(k, static_cast<std::size_t>(w), at_end);
        const unsigned mode = static_cast<unsigned>(rng() % 7);
        static constexpr std::int32_t kSpecial[] = {INT32_MIN, INT32_MIN + 1, -kNsq, -1, 0, 1, 2,
                                                    kNsq - 1, kNsq, kNsq + 1, 65535, 65536,
                                                    1 << 30, INT32_MAX - 1, INT32_MAX};
        for (int i = 0; i < w; ++i) {
            std::int32_t v[3];
            for (int k = 0; k < 3; ++k) {
                switch (mode) {
                    case 0: v[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng())); break;
                    case 1: v[k] = kSpecial[rng() % std::size(kSpecial)]; break;
                    case 2:  // around the sigma_nsq threshold, small covariances
                        v[k] = k == 0 ? kNsq - 4 + static_cast<std::int32_t>(rng() % 9)
                                      : static_cast<std::int32_t>(rng() % 41) - 20;
                        break;
                    case 3:  // moderate: what real pictures give
                        v[k] = k == 0 ? static_cast<std::int32_t>(rng() % (1u << 24))
                                      : static_cast<std::int32_t>(rng() % (1u << 25)) - (1 << 23);
                        break;
                    case 4:  // large variances, gains of every size
                        v[k] = k == 0 ? kNsq + static_cast<std::int32_t>(rng() % (1u << 30))
                                      : static_cast<std::int32_t>(rng() % (1u << 31));
                        break;
                    case 6:  // find_truncation_pixel's, among moderate ones
                        v[k] = k == 0 ? carry.s1 : k == 1 ? carry.s2 : carry.s12;
                        if (rng() % 4 == 0) v[k] = static_cast<std::int32_t>(rng() % (1u << 24));
                        break;
                    default: v[k] = 0; break;
                }
            }
            rows[0][i] = v[0];
            rows[1][i] = v[1];
            rows[2][i] = v[2];
        }
        static constexpr const char* kModes[] = {"full32",   "special",     "threshold", "moderate",
                                                 "large",    "from_pixels", "truncation"};
        fill = kModes[mode];
        if (mode == 5) {
            std::array<std::vector<std::uint32_t>, 5> st;
            realistic_stat_rows(rng, w, 8, st);
            const VifStatRow row{st[0].data() + 8, st[1].data() + 8, st[2].data() + 8, st[3].data() + 8,
                                 st[4].data() + 8};
            vif::vif_stat_horizontal(row, vif::kFilter0, 17, w, rows[0], rows[1], rows[2]);
        }
    }
};

double pick_gain_limit(Rng& rng) {
    // The SIMD twins compute |limit| <= 1024 themselves (1024 the edge) and
    // defer to the scalar beyond it (1025, 1e6, -32768, -40000.5).
    static constexpr double kLimits[] = {100.0, 1.0,    1.2,      1.5,      0.5,     0.0,
                                         -3.0,  1000.0, 1024.0,   1.0e6,    -32768.0, -40000.5,
                                         1025.0};
    if (rng() % 3 == 0) return 1.0 + static_cast<double>(rng() % 99001) / 1000.0;
    return kLimits[rng() % std::size(kLimits)];
}

void check_accumulate(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_accumulate", L.level)) return;
    Rng rng = ctx.rng();
    // Every 50th band is a row longer than 4096 steps of 16 pixels, where
    // the AVX-512 twin flushes its per-lane sums.
    constexpr int kLongWidth = 4096 * 16 + 4100;
    SigmaRows short_rows(kMaxWidth), long_rows(kLongWidth);
    const std::uint16_t* table = vif::vif_log2_table();
    static const TruncationPixel carry = find_truncation_pixel(table);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const bool long_row = band % 50 == 49;
        const int w = long_row ? kLongWidth - static_cast<int>(rng() % 4200) : band_width(rng, band, kMaxWidth);
        SigmaRows& s = long_row ? long_rows : short_rows;
        s.make(rng, w, carry);
        // The truncation pixel's g (about 2) must stay below the limit.
        const double gain = s.fill == "truncation" ? 100.0 : pick_gain_limit(rng);
        // Both start from the same non-zero sums: the kernel adds to them.
        VifSums a;
        a.num_log = static_cast<std::int64_t>(rng() % 1000000) - 500000;
        a.den_log = static_cast<std::int64_t>(rng() % 1000000);
        a.num_non_log = static_cast<std::int64_t>(rng() % 1000000);
        a.den_non_log = static_cast<std::int64_t>(rng() % 1000);
        VifSums b = a;
        char g[32];
        std::snprintf(g, sizeof g, "%.17g", gain);
        const std::string what = "w=" + std::to_string(w) + " gain_limit=" + g + " fill=" + s.fill;
        ctx.at_band(band, what);
        vif::vif_accumulate(s.rows[0], s.rows[1], s.rows[2], w, table, gain, &a);
        L.kernels->accumulate(s.rows[0], s.rows[1], s.rows[2], w, table, gain, &b);
        ctx.band();
        const char* field = a.num_log != b.num_log             ? "num_log"
                            : a.den_log != b.den_log           ? "den_log"
                            : a.num_non_log != b.num_non_log   ? "num_non_log"
                            : a.den_non_log != b.den_non_log   ? "den_non_log"
                                                               : nullptr;
        if (field)
            ctx.fail(band) << what << ": sums (num_log, den_log, num_non_log, den_non_log) scalar ("
                           << a.num_log << ", " << a.den_log << ", " << a.num_non_log << ", "
                           << a.den_non_log << "), " << L.level.name << " (" << b.num_log << ", "
                           << b.den_log << ", " << b.num_non_log << ", " << b.den_non_log
                           << "); first differing: " << field;
    }
    if (ctx.benching()) {
        // Realistic rows: the branch mix of a picture.
        std::array<std::vector<std::uint32_t>, 5> st;
        realistic_stat_rows(rng, 1920, 8, st);
        std::vector<std::int32_t> s1(1920), s2(1920), s12(1920);
        const VifStatRow row{st[0].data() + 8, st[1].data() + 8, st[2].data() + 8, st[3].data() + 8, st[4].data() + 8};
        vif::vif_stat_horizontal(row, vif::kFilter0, 17, 1920, s1.data(), s2.data(), s12.data());
        VifSums a, b;
        ctx.bench([&] { vif::vif_accumulate(s1.data(), s2.data(), s12.data(), 1920, table, 100.0, &a); },
                  [&] { L.kernels->accumulate(s1.data(), s2.data(), s12.data(), 1920, table, 100.0, &b); });
    }
    ctx.done();
}

template <class T>
void check_subsample_vertical(Context& ctx, const VifLevel& L) {
    constexpr bool k8 = sizeof(T) == 1;
    if (!ctx.check(k8 ? "vif_subsample_vertical_u8" : "vif_subsample_vertical_u16", L.level)) return;
    Rng rng = ctx.rng();
    SampleRows<T> rows;
    Canaried<std::uint32_t> ar(kMaxWidth), ad(kMaxWidth), br(kMaxWidth), bd(kMaxWidth);
    auto run = [&](const VifKernels& k, const Filter& f, int w, int shift, Canaried<std::uint32_t>& r,
                   Canaried<std::uint32_t>& d) {
        r.poison();
        d.poison();
        if constexpr (k8)
            k.subsample_vertical_u8(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, shift, r.data(), d.data());
        else
            k.subsample_vertical_u16(rows.ref.data(), rows.dis.data(), f.c.data(), f.taps, w, shift, r.data(), d.data());
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const Filter f = pick_reduction_filter(rng);
        const int bits = k8 ? 8 : pick_bits(rng);
        rows.make(rng, w, f.taps, (1u << bits) - 1);
        // The extractor's shift (bpc from scale 0, 16 later) or any other.
        const unsigned r = static_cast<unsigned>(rng() % 3);
        const int shift = r == 0 ? 16 : r == 1 ? static_cast<int>(rng() % 32) : std::max(bits, 8);
        const std::string what = "w=" + std::to_string(w) + " filter=" + f.name + " bits=" +
                                 std::to_string(bits) + " shift=" + std::to_string(shift) + " fill=" + rows.fill;
        ctx.at_band(band, what);
        run(vif::vif_kernels_scalar(), f, w, shift, ar, ad);
        run(*L.kernels, f, w, shift, br, bd);
        ctx.band();
        if (compare_output(ctx, band, what, "ref_out", ar, br, static_cast<std::size_t>(w), L.level.name))
            compare_output(ctx, band, what, "dis_out", ad, bd, static_cast<std::size_t>(w), L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(1);
        rows.make(rng, 1920, f.taps, k8 ? 255 : 1023);
        const int shift = k8 ? 8 : 10;
        ctx.bench([&] { run(vif::vif_kernels_scalar(), f, 1920, shift, ar, ad); },
                  [&] { run(*L.kernels, f, 1920, shift, br, bd); });
    }
    ctx.done();
}

// Puts outputs of the reduction's horizontal pass exactly on its rounding
// boundary (sum c v = 2^15 modulo 2^16, where (sum + 2^15) >> 16 carries
// and a rounding term of 2^15 - 1 would not), which random samples reach
// once in 2^16 outputs: left to right, each output's last sample (read by
// no earlier output) is solved for where its tap allows. Samples stay
// below 2^16.
void put_on_rounding_boundaries(std::uint32_t* row, const Filter& f, int out_w) {
    const int half = f.taps / 2;
    const std::uint32_t c = f.c[f.taps - 1];
    if (c == 0) return;
    const int zeros = std::countr_zero(c);
    const std::uint32_t odd = c >> zeros;
    std::uint32_t inverse = odd;  // odd * inverse = 1 modulo 2^16 (Newton's steps)
    for (int i = 0; i < 4; ++i) inverse *= 2u - odd * inverse;
    for (int j = 0; j < out_w; ++j) {
        const std::uint32_t* r = row + 2 * j - half;
        std::uint32_t s = 0;
        for (int t = 0; t + 1 < f.taps; ++t) s += f.c[t] * r[t];
        const std::uint32_t need = (32768u - s) & 0xFFFFu;  // c * v = need modulo 2^16
        if ((need & ((1u << zeros) - 1u)) != 0) continue;
        row[2 * j + half] = ((need >> zeros) * inverse) & (0xFFFFu >> zeros);
    }
}

void check_subsample_horizontal(Context& ctx, const VifLevel& L) {
    if (!ctx.check("vif_subsample_horizontal", L.level)) return;
    Rng rng = ctx.rng();
    PaddedRows in(2);
    Canaried<std::uint16_t> ar(kMaxWidth), ad(kMaxWidth), br(kMaxWidth), bd(kMaxWidth);
    auto run = [&](const VifKernels& k, const Filter& f, int out_w, Canaried<std::uint16_t>& r,
                   Canaried<std::uint16_t>& d) {
        r.poison();
        d.poison();
        k.subsample_horizontal(in.rows[0], in.rows[1], f.c.data(), f.taps, out_w, r.data(), d.data());
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int out_w = band_width(rng, band, kMaxWidth / 2);
        const Filter f = pick_reduction_filter(rng);
        const int half = f.taps / 2;
        // The kernel reads in[-half, 2 * (out_w - 1) + half].
        const int n = 2 * out_w - 1;
        in.place(rng, 2, n, half);
        const Fill fill = random_fill(rng);
        const bool full = rng() % 3 == 0;
        in.fill = std::string(full ? "full32/" : "16bit/") + fill_name(fill);
        for (int k = 0; k < 2; ++k)
            fill_u32_row(rng, fill, full ? 0xFFFFFFFFu : 65535, in.rows[k] - half, static_cast<std::size_t>(n) + 2 * half);
        if (!full && rng() % 4 == 0) {
            for (int k = 0; k < 2; ++k) put_on_rounding_boundaries(in.rows[k], f, out_w);
            in.fill += "+rounding_boundaries";
        }
        // 16-bit rows with one sample of 2^16 or more: a twin that stages
        // 16-bit samples by blocks must take its general path for that block.
        if (!full && rng() % 4 == 0) {
            const std::size_t at = rng() % (static_cast<std::size_t>(n) + 2 * half);
            in.rows[rng() % 2][static_cast<std::ptrdiff_t>(at) - half] = 65536u + static_cast<std::uint32_t>(rng() % 65536);
            in.fill += "+one_above_16bit";
        }
        const std::string what = "out_w=" + std::to_string(out_w) + " filter=" + f.name + " fill=" + in.fill;
        ctx.at_band(band, what);
        run(vif::vif_kernels_scalar(), f, out_w, ar, ad);
        run(*L.kernels, f, out_w, br, bd);
        ctx.band();
        if (compare_output(ctx, band, what, "ref_out", ar, br, static_cast<std::size_t>(out_w), L.level.name))
            compare_output(ctx, band, what, "dis_out", ad, bd, static_cast<std::size_t>(out_w), L.level.name);
    }
    if (ctx.benching()) {
        const Filter f = libvmaf_filter(1);
        in.place(rng, 2, 1919, 4);
        for (int k = 0; k < 2; ++k) fill_u32_row(rng, Fill::smooth_noise, 65535, in.rows[k] - 4, 1919 + 8);
        ctx.bench([&] { run(vif::vif_kernels_scalar(), f, 960, ar, ad); }, [&] { run(*L.kernels, f, 960, br, bd); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(vif) {
    for (const VifLevel& L : simd_tables(ctx, &vif::vif_kernels_for)) {
        auto own = [&L](auto member) { return L.owns(member); };
        if (own(&VifKernels::stat_vertical_u8)) check_stat_vertical_u8(ctx, L);
        if (own(&VifKernels::stat_vertical_u16)) check_stat_vertical_u16(ctx, L);
        if (own(&VifKernels::stat_horizontal)) check_stat_horizontal(ctx, L);
        if (own(&VifKernels::stat_row_u8)) check_stat_row_u8(ctx, L);
        if (own(&VifKernels::stat_row_u16)) check_stat_row_u16(ctx, L);
        if (own(&VifKernels::accumulate)) check_accumulate(ctx, L);
        if (own(&VifKernels::subsample_vertical_u8)) check_subsample_vertical<std::uint8_t>(ctx, L);
        if (own(&VifKernels::subsample_vertical_u16))
            check_subsample_vertical<std::uint16_t>(ctx, L);
        if (own(&VifKernels::subsample_horizontal)) check_subsample_horizontal(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
