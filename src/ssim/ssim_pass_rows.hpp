// The SIMD twins' SSIM pass and statistics, written once for every vector
// width (HACKING.md, "Where a loop lives"): each ISA file instantiates them
// with its own vector type `V` from its own anonymous namespace.
//
// The pass fuses what ssim_pass composes from the table's kernels (two
// convolutions of the pictures, the three products, three convolutions of
// them, the statistics) into one walk down the rows: each input row is
// filtered horizontally into a ring of the last kWindow filtered rows of
// all five quantities, and each output row is filtered vertically from the
// ring and turned into statistics at once, while its values are still in
// registers. No value changes: every filtered value is the same double sum
// of the same float products in the same tap order, rounded to float once,
// as convolve computes it (ref^2 is float(ref * ref) before its taps, as
// products stores it), and the statistics are added to the four double sums
// in sample order. Only the memory traffic of the six w x h images is gone.
//
// V provides, for kLanes adjacent samples: F (floats) and D (the same lanes
// as doubles); load/store of F; set, add, sub, mul, div of F; widen (F to D,
// exact) and narrow (D to F, rounded to nearest as a C cast); dset, dadd,
// dmul, ddiv, dsqrt of D, dstore (D to kLanes doubles, aligned) and dloadu
// (kLanes doubles, unaligned, each ISA file's own): the rest is what
// dispatch/x86_lanes.hpp's macros define;
// fsqrt(v) (the correctly rounded float square root);
// zero_if_negative(v) (v < 0 ? +0 : v, NaN kept: libvmaf's MAX(0.0, v)) and
// zero_if_negative_and_flat(cov, sd) ((cov < 0 && sd <= 0) ? +0 : cov).
// Each ISA file's init is install_twins<V> (the convolution, statistics,
// pass and decimation, all here).
#pragma once

#include <cstddef>

#include "ssim/ssim_kernels.hpp"

namespace vmafpp::ssim {
namespace {

constexpr int kQuantities = 5;  // mu_r, mu_c, ref^2, cmp^2, ref * cmp
constexpr int kMaxDecimateTaps = 16;  // the twins' kernel width and factor

// Tap k of the window, from the plain half table (no std::array member is
// instantiated in an ISA file).
constexpr float gaussian_tap(int k) {
    return kGaussianHalf[k < kWindow - 1 - k ? k : kWindow - 1 - k];
}

// The statistics of kLanes samples as doubles: l * c * s, l, c, s.
template <class V>
struct LaneStats {
    typename V::D lcs, l, c, s;
};

// stats_scalar's per-sample formula on kLanes samples at once: the same
// float and double operations in the same order, so each lane holds the
// scalar's bits.
template <class V>
[[gnu::always_inline]] inline LaneStats<V> lane_stats(typename V::F mr, typename V::F mc, typename V::F ref_sq,
                        typename V::F cmp_sq, typename V::F both) {
    using F = typename V::F;
    using D = typename V::D;
    const F c1 = V::set(kStabilizerC1), c2 = V::set(kStabilizerC2), c3 = V::set(kStabilizerC3);
    const F var_r = V::zero_if_negative(V::sub(ref_sq, V::mul(mr, mr)));
    const F var_c = V::zero_if_negative(V::sub(cmp_sq, V::mul(mc, mc)));
    const F cov = V::sub(both, V::mul(mr, mc));
    // float(sqrt(double(x))) of a float x is the correctly rounded float
    // square root of x: rounding the double root (53 bits >= 2 * 24 + 2) to
    // float rounds as once (double rounding is innocuous for sqrt), for
    // every x, NaN, infinity and subnormals included. So the float root
    // (four times the lanes per divider step) gives the scalar's bits.
    const F sd = V::fsqrt(V::mul(var_r, var_c));
    // (2.0 * mr * mc + C1) / l_den: 2.0 * mr, then * mc, then + C1, in double.
    const F l_den = V::add(V::add(V::mul(mr, mr), V::mul(mc, mc)), c1);
    const D two = V::dset(2.0);
    const D l = V::ddiv(V::dadd(V::dmul(V::dmul(two, V::widen(mr)), V::widen(mc)), V::widen(c1)),
                        V::widen(l_den));
    const F c_den = V::add(V::add(var_r, var_c), c2);
    const D c = V::ddiv(V::dadd(V::dmul(two, V::widen(sd)), V::widen(c2)), V::widen(c_den));
    const F cov_clamped = V::zero_if_negative_and_flat(cov, sd);
    const D s = V::widen(V::div(V::add(cov_clamped, c3), V::add(sd, c3)));
    return {V::dmul(V::dmul(l, c), s), l, c, s};
}

// The first `valid` lanes of `st` added to `sums`, lane after lane: the
// sample order of the scalar's four sums.
template <class V>
[[gnu::always_inline]] inline void add_lanes(const LaneStats<V>& st, int valid, double& ssim, double& l, double& c,
               double& s) {
    alignas(64) double lcs_v[V::kLanes], l_v[V::kLanes], c_v[V::kLanes], s_v[V::kLanes];
    V::dstore(lcs_v, st.lcs);
    V::dstore(l_v, st.l);
    V::dstore(c_v, st.c);
    V::dstore(s_v, st.s);
    if (valid == V::kLanes) {
#pragma GCC unroll 16
        for (int j = 0; j < V::kLanes; ++j) {
            ssim += lcs_v[j];
            l += l_v[j];
            c += c_v[j];
            s += s_v[j];
        }
        return;
    }
    for (int j = 0; j < valid; ++j) {
        ssim += lcs_v[j];
        l += l_v[j];
        c += c_v[j];
        s += s_v[j];
    }
}

// StatsFn: whole vectors, then the last n % kLanes samples staged into
// zero-padded vectors (their extra lanes are computed and dropped).
template <class V>
SsimSums stats_rows(const float* mu_r, const float* mu_c, const float* ref_sq,
                    const float* cmp_sq, const float* both, int n) {
    constexpr int N = V::kLanes;
    double ssim = 0.0, l = 0.0, c = 0.0, s = 0.0;
    int i = 0;
    for (; i + N <= n; i += N)
        add_lanes<V>(lane_stats<V>(V::load(mu_r + i), V::load(mu_c + i), V::load(ref_sq + i),
                                   V::load(cmp_sq + i), V::load(both + i)),
                     N, ssim, l, c, s);
    if (i < n) {
        float staged[kQuantities][N] = {};
        const float* from[kQuantities] = {mu_r, mu_c, ref_sq, cmp_sq, both};
        for (int q = 0; q < kQuantities; ++q)
            for (int j = 0; j < n - i; ++j) staged[q][j] = from[q][i + j];
        add_lanes<V>(lane_stats<V>(V::load(staged[0]), V::load(staged[1]), V::load(staged[2]),
                                   V::load(staged[3]), V::load(staged[4])),
                     n - i, ssim, l, c, s);
    }
    SsimSums sums;
    sums.ssim = ssim;
    sums.l = l;
    sums.c = c;
    sums.s = s;
    return sums;
}

// The ring of the last kWindow horizontally filtered rows. A slot holds
// one row of all five quantities, kLanes columns of each in turn: chunk j's
// quantity q at base + slot * slot_floats + (j * kQuantities + q) * kLanes,
// so one pointer per row reaches every quantity of a chunk. Rows are
// whole chunks (ceil(ow / kLanes)); the last chunk's columns past ow hold
// finite filler, computed and never summed.
struct PassRing {
    float* base;
    std::ptrdiff_t slot_floats;
    float* slot(int s) const { return base + s * slot_floats; }
};

// The horizontal filter shares products between taps: the window is
// symmetric, so tap k and tap kWindow - 1 - k are the same float, and a
// sample meets each of the kHalfTaps distinct taps at two outputs (the
// centre tap at one). Each sample's float(sample * tap) is computed once per
// distinct tap and quantity, widened to double and kept in a block of
// kRowBlock outputs' products (in L1); each output then adds the products
// its taps pick, from 0, in tap order: the same double sum of the same
// float products as convolve's, without the products and conversions of the
// other ten taps.
constexpr int kHalfTaps = kWindow / 2 + 1;
constexpr int kRowBlock = 64;  // outputs per block: a multiple of every kLanes

// The distinct tap of window position k.
constexpr int half_tap(int k) { return k < kWindow - 1 - k ? k : kWindow - 1 - k; }

// The widened products of one block's samples: quantity q, distinct tap d,
// sample j of the block at at(q, d) + j. Rows hold kRowBlock + kWindow - 1
// samples rounded up to whole vectors of 16.
struct RowProducts {
    static constexpr int kStride = (kRowBlock + kWindow - 1 + 15) / 16 * 16;
    alignas(64) double d[kQuantities][kHalfTaps][kStride];
};

// Samples j .. j + kLanes - 1 of r and c turned into the five quantities'
// products with every distinct tap, stored at sample j of `p`. ref^2 is
// float(r * r) before its tap, as products computes it.
template <class V>
[[gnu::always_inline]] inline void sample_products(typename V::F a, typename V::F b,
                                                   RowProducts& p, int j) {
    using F = typename V::F;
    const F q[kQuantities] = {a, b, V::mul(a, a), V::mul(b, b), V::mul(a, b)};
#pragma GCC unroll 6
    for (int d = 0; d < kHalfTaps; ++d) {
        const F tap = V::set(gaussian_tap(d));
#pragma GCC unroll 5
        for (int k = 0; k < kQuantities; ++k) V::dstore(p.d[k][d] + j, V::widen(V::mul(q[k], tap)));
    }
}

// kLanes horizontally filtered outputs of the five quantities, outputs x ..
// x + kLanes - 1 of the block, stored at out + q * kLanes: each a double
// sum from 0 of the block's products in tap order, rounded to float once.
template <class V>
[[gnu::always_inline]] inline void sum_products(const RowProducts& p, int x, float* out) {
#pragma GCC unroll 5
    for (int q = 0; q < kQuantities; ++q) {
        typename V::D acc = V::dset(0.0);
#pragma GCC unroll 11
        for (int k = 0; k < kWindow; ++k) acc = V::dadd(acc, V::dloadu(p.d[q][half_tap(k)] + x + k));
        V::store(out + q * V::kLanes, V::narrow(acc));
    }
}

// One input row (w = ow + kWindow - 1 samples) filtered into a ring slot,
// kRowBlock outputs at a time. The last block's outputs are rounded up to
// whole vectors; the samples their filler lanes read past the row's end are
// 0 (staged), and their values land past ow in the last chunk.
template <class V>
void filter_row(const float* r, const float* c, int ow, float* out) {
    constexpr int N = V::kLanes;
    const int w = ow + kWindow - 1;
    RowProducts p;
    for (int x0 = 0; x0 < ow; x0 += kRowBlock) {
        const int outputs = (ow - x0 < kRowBlock ? ow - x0 : kRowBlock);
        const int vectors = (outputs + N - 1) / N;
        const int samples = vectors * N + kWindow - 1;  // the products the sums read
        int j = 0;
        for (; j < samples && x0 + j + N <= w; j += N)
            sample_products<V>(V::load(r + x0 + j), V::load(c + x0 + j), p, j);
        for (; j < samples; j += N) {
            float rs[N] = {}, cs[N] = {};
            for (int i = 0; i < N && x0 + j + i < w; ++i) {
                rs[i] = r[x0 + j + i];
                cs[i] = c[x0 + j + i];
            }
            sample_products<V>(V::load(rs), V::load(cs), p, j);
        }
        for (int v = 0; v < vectors; ++v, out += kQuantities * N) sum_products<V>(p, v * N, out);
    }
}

// The four sums, kept in registers through a row.
struct Sums4 {
    double ssim = 0.0, l = 0.0, c = 0.0, s = 0.0;
};

// Output row `oy`: the vertical filter of every quantity from the ring's
// rows oy..oy+kWindow-1 (slots (oy + k) % kWindow), kLanes columns at a
// time, each chunk's statistics added to the sums at once.
template <class V>
Sums4 output_row(const PassRing& ring, int oy, int ow, Sums4 sums) {
    constexpr int N = V::kLanes;
    using D = typename V::D;
    const float* rows[kWindow];
    for (int k = 0; k < kWindow; ++k) rows[k] = ring.slot((oy + k) % kWindow);
    double ssim = sums.ssim, l = sums.l, c = sums.c, s = sums.s;
    for (int x = 0; x < ow; x += N) {
        const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(x) * kQuantities;
        // One quantity's sum at a time: the products go straight into the
        // sum, none is held (55 held products spill to the stack).
        typename V::F f[kQuantities];
#pragma GCC unroll 1
        for (int q = 0; q < kQuantities; ++q) {
            D acc = V::dset(0.0);
#pragma GCC unroll 11
            for (int k = 0; k < kWindow; ++k)
                acc = V::dadd(acc, V::widen(V::mul(V::load(rows[k] + at + q * N),
                                                   V::set(gaussian_tap(k)))));
            f[q] = V::narrow(acc);
        }
        const LaneStats<V> st = lane_stats<V>(f[0], f[1], f[2], f[3], f[4]);
        add_lanes<V>(st, ow - x < N ? ow - x : N, ssim, l, c, s);
    }
    return {ssim, l, c, s};
}

// PassFn.
template <class V>
SsimSums fused_pass(const float* ref, const float* cmp, int w, int h, SsimScratch& scratch) {
    constexpr int N = V::kLanes;
    const int ow = w - kWindow + 1;
    const PassRing ring{scratch.ring(), static_cast<std::ptrdiff_t>((ow + N - 1) / N) * N * kQuantities};
    Sums4 sums;
    for (int y = 0; y < h; ++y) {
        const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(y) * w;
        filter_row<V>(ref + at, cmp + at, ow, ring.slot(y % kWindow));
        if (y >= kWindow - 1) sums = output_row<V>(ring, y - (kWindow - 1), ow, sums);
    }
    SsimSums out;
    out.ssim = sums.ssim;
    out.l = sums.l;
    out.c = sums.c;
    out.s = sums.s;
    return out;
}

// DecimateFn for any factor f: output (ox, oy) is the kernel around input
// (f ox, f oy). Each input row the kernel needs is first widened by its
// mirrored samples on both sides (the values IQA's symmetric boundary
// reads, so edges need no other case) and split into its f phases; tap b
// (0 .. kw - 1, offset b - r) of output ox then reads element ox + b / f of
// phase b % f, so kLanes adjacent outputs take one contiguous load per tap.
// Every output's sum runs over the taps row by row, left to right, as the
// scalar's. In place (src == dst) only where reads_stay_ahead holds
// (ssim_kernels.hpp).
struct PhaseRows {
    int len = 0;  // floats in each phase of a row
    int phases = 0;
    int slots = 0;
    float* data = nullptr;
    int* held = nullptr;  // the input row each slot holds, or -1

    PhaseRows(int len_, int phases_, int slots_) : len(len_), phases(phases_), slots(slots_) {
        data = new float[static_cast<std::size_t>(phases) * len * slots];
        held = new int[static_cast<std::size_t>(slots)];
        for (int i = 0; i < slots; ++i) held[i] = -1;
    }
    ~PhaseRows() {
        delete[] data;
        delete[] held;
    }
    PhaseRows(const PhaseRows&) = delete;
    PhaseRows& operator=(const PhaseRows&) = delete;
    float* phase(int slot, int p) const {
        return data + static_cast<std::ptrdiff_t>(slot * phases + p) * len;
    }
};

// IQA's symmetric boundary, once: -1 - i before the start, 2n - 1 - i past
// the end.
constexpr int mirror_once(int i, int n) { return i < 0 ? -1 - i : i < n ? i : 2 * n - 1 - i; }

// Elements lo .. hi - 1 of every phase from `in` (column -r), element m of
// phase p being in[F m + p]: one pass over the row for all F phases, with F
// a constant, so the compiler turns the strided reads into vector loads and
// shuffles.
template <int F>
inline void deinterleave(const float* in, const PhaseRows& rows, int slot, int lo, int hi) {
    float* __restrict out[F];
    for (int p = 0; p < F; ++p) out[p] = rows.phase(slot, p);
    const float* __restrict from = in;
    for (int m = lo; m < hi; ++m)
        for (int p = 0; p < F; ++p) out[p][m] = from[F * m + p];
}

// Row `row` of src as IQA's symmetric boundary extends it, from column -r,
// into the slot's phases: element m of phase p is column f m + p - r,
// mirrored once; columns past 2w - 1, read only by the filler lanes of the
// last outputs, are 0.
inline void split_row(const float* src, int w, int row, int r, const PhaseRows& rows, int slot) {
    const float* in = src + static_cast<std::ptrdiff_t>(row) * w;
    const int f = rows.phases;
    auto edge = [&](int i) { return i < 2 * w ? in[mirror_once(i, w)] : 0.0f; };
    // Elements lo .. hi - 1 read columns 0 .. w - 1 directly in every phase.
    int lo = 0, hi = rows.len;
    for (int p = 0; p < f; ++p) {
        const int lo_p = p >= r ? 0 : (r - p + f - 1) / f;
        const int hi_p = (w + r - p + f - 1) / f;
        lo = lo_p > lo ? lo_p : lo;
        hi = hi_p < hi ? hi_p : hi;
    }
    if (hi < lo) hi = lo;
    for (int p = 0; p < f; ++p) {
        float* out = rows.phase(slot, p);
        for (int m = 0; m < lo; ++m) out[m] = edge(f * m + p - r);
        for (int m = hi; m < rows.len; ++m) out[m] = edge(f * m + p - r);
    }
    const float* first = in - r;  // column -r: read only at elements lo and up
    switch (f) {
        case 2: deinterleave<2>(first, rows, slot, lo, hi); break;
        case 3: deinterleave<3>(first, rows, slot, lo, hi); break;
        case 4: deinterleave<4>(first, rows, slot, lo, hi); break;
        default:
            for (int p = 0; p < f; ++p) {
                float* out = rows.phase(slot, p);
                for (int m = lo; m < hi; ++m) out[m] = in[f * m + p - r];
            }
    }
}

template <class V>
void decimate_phased(const float* src, int w, int h, int factor, const float* kernel, int kw,
                     float* dst) {
    constexpr int N = V::kLanes;
    using D = typename V::D;
    const int sw = decimated_size(w, factor), sh = decimated_size(h, factor);
    const int r = kw / 2;
    // Outputs in whole vectors, plus the taps' reach (kw - 1) / f.
    const int len = (sw + N - 1) / N * N + (kw - 1) / factor + 1;
    // One output's rows are at most kw distinct, consecutive rows (mirrored
    // at the edges too), so row % slots never maps two of them to one slot.
    PhaseRows rows(len, factor, kw + 2);
    const float* at[kMaxDecimateTaps * kMaxDecimateTaps];  // per tap, the element of output 0
    for (int oy = 0; oy < sh; ++oy) {
        for (int a = 0; a < kw; ++a) {
            const int row = mirror_once(factor * oy + a - r, h);
            const int slot = row % rows.slots;
            if (rows.held[slot] != row) {
                split_row(src, w, row, r, rows, slot);
                rows.held[slot] = row;
            }
            for (int b = 0; b < kw; ++b) at[a * kw + b] = rows.phase(slot, b % factor) + b / factor;
        }
        float* out = dst + static_cast<std::ptrdiff_t>(oy) * sw;
        const int taps = kw * kw;
        int ox = 0;
        // Four vectors of outputs at a time: each tap's pointer and weight
        // are loaded once for all, and their sums are four dependency chains.
        // (Tested and left out: MS-SSIM's low-pass computing each element's
        // product with each distinct tap of a symmetric kernel row once, 5
        // instead of 9 a row and output, widened into a block of products in
        // L1 that the 81 sums read back, as the fused pass's horizontal
        // filter does: 10% slower in checkasm's bench at AVX2, the sums'
        // unaligned double loads and additions being the bound.)
        for (; ox + 4 * N <= sw; ox += 4 * N) {
            D acc0 = V::dset(0.0), acc1 = V::dset(0.0), acc2 = V::dset(0.0), acc3 = V::dset(0.0);
            for (int t = 0; t < taps; ++t) {
                const typename V::F tap = V::set(kernel[t]);
                const float* in = at[t] + ox;
                acc0 = V::dadd(acc0, V::widen(V::mul(V::load(in), tap)));
                acc1 = V::dadd(acc1, V::widen(V::mul(V::load(in + N), tap)));
                acc2 = V::dadd(acc2, V::widen(V::mul(V::load(in + 2 * N), tap)));
                acc3 = V::dadd(acc3, V::widen(V::mul(V::load(in + 3 * N), tap)));
            }
            V::store(out + ox, V::narrow(acc0));
            V::store(out + ox + N, V::narrow(acc1));
            V::store(out + ox + 2 * N, V::narrow(acc2));
            V::store(out + ox + 3 * N, V::narrow(acc3));
        }
        for (; ox + 2 * N <= sw; ox += 2 * N) {
            D acc0 = V::dset(0.0), acc1 = V::dset(0.0);
            for (int t = 0; t < taps; ++t) {
                const typename V::F tap = V::set(kernel[t]);
                const float* in = at[t] + ox;
                acc0 = V::dadd(acc0, V::widen(V::mul(V::load(in), tap)));
                acc1 = V::dadd(acc1, V::widen(V::mul(V::load(in + N), tap)));
            }
            V::store(out + ox, V::narrow(acc0));
            V::store(out + ox + N, V::narrow(acc1));
        }
        for (; ox < sw; ox += N) {
            D acc = V::dset(0.0);
            for (int t = 0; t < taps; ++t)
                acc = V::dadd(acc, V::widen(V::mul(V::load(at[t] + ox), V::set(kernel[t]))));
            if (ox + N <= sw) {
                V::store(out + ox, V::narrow(acc));
            } else {
                float staged[N];
                V::store(staged, V::narrow(acc));
                for (int j = 0; j < sw - ox; ++j) out[ox + j] = staged[j];
            }
        }
    }
}

// One output of ConvolveFn's formula: a double sum, from 0, of
// float(in[k * step] * taps[k]) for k = 0 .. n - 1, rounded to float once.
// The scalar table's convolve and the twins' last columns.
inline float tap_sum(const float* in, std::ptrdiff_t step, const float* taps, int n) {
    double sum = 0.0;
    for (int k = 0; k < n; ++k) sum += in[k * step] * taps[k];
    return static_cast<float>(sum);
}

// tap_sum of 2 kLanes adjacent outputs (in[0 .. 2 kLanes - 1] and the same
// columns of the rows k * step below): two vectors of sums, two dependency
// chains.
template <class V>
[[gnu::always_inline]] inline void tap_sums(const float* in, std::ptrdiff_t step,
                                            const float* taps, int n, float* out) {
    constexpr int N = V::kLanes;
    typename V::D lo = V::dset(0.0), hi = V::dset(0.0);
    for (int k = 0; k < n; ++k) {
        const typename V::F tap = V::set(taps[k]);
        const float* p = in + k * step;
        lo = V::dadd(lo, V::widen(V::mul(V::load(p), tap)));
        hi = V::dadd(hi, V::widen(V::mul(V::load(p + N), tap)));
    }
    V::store(out, V::narrow(lo));
    V::store(out + N, V::narrow(hi));
}

// ConvolveFn: each pass 2 kLanes outputs at a time, the rest by tap_sum.
// A vector of the horizontal pass reads in[x + k + 2 kLanes - 1] <=
// in[ow - 1 + n - 1] = in[w - 1]: inside the row. The vertical pass reads
// only the cache, so dst may be src.
template <class V>
void convolve_rows(const float* src, int w, int h, const float* taps, int n, float* dst,
                   float* cache) {
    constexpr int step = 2 * V::kLanes;
    const int ow = w - n + 1;
    const int oh = h - n + 1;
    for (int y = 0; y < h; ++y) {
        const float* in = src + static_cast<std::ptrdiff_t>(y) * w;
        float* out = cache + static_cast<std::ptrdiff_t>(y) * ow;
        int x = 0;
        for (; x + step <= ow; x += step) tap_sums<V>(in + x, 1, taps, n, out + x);
        for (; x < ow; ++x) out[x] = tap_sum(in + x, 1, taps, n);
    }
    for (int y = 0; y < oh; ++y) {
        const float* col = cache + static_cast<std::ptrdiff_t>(y) * ow;
        float* out = dst + static_cast<std::ptrdiff_t>(y) * ow;
        int x = 0;
        for (; x + step <= ow; x += step) tap_sums<V>(col + x, ow, taps, n, out + x);
        for (; x < ow; ++x) out[x] = tap_sum(col + x, ow, taps, n);
    }
}

// DecimateFn of a twin: the phased decimation where it gives the scalar's
// bits, the scalar elsewhere.
template <class V>
void decimate_rows(const float* src, int w, int h, int factor, const float* kernel, int kw,
                   float* dst) {
    if (kw > kMaxDecimateTaps || factor > kMaxDecimateTaps ||
        (src == dst && !reads_stay_ahead(w, h, factor, kw))) {
        ssim_kernels_scalar().decimate(src, w, h, factor, kernel, kw, dst);
        return;
    }
    decimate_phased<V>(src, w, h, factor, kernel, kw, dst);
}

// A level's table entries, all from V: every kernel but products (which
// the fused pass makes unneeded on the measured path).
template <class V>
void install_twins(SsimKernels& k) {
    k.convolve = convolve_rows<V>;
    k.stats = stats_rows<V>;
    k.decimate = decimate_rows<V>;
    k.pass = fused_pass<V>;
}

}  // namespace
}  // namespace vmafpp::ssim
