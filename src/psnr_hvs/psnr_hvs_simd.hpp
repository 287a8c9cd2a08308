// The SIMD twins of psnr_hvs's plane kernel, written once over an ISA's
// vector operations V (psnr_hvs_avx2.cpp: eight lanes; psnr_hvs_avx512.cpp:
// sixteen, finishing rows with eight): V::kLanes horizontally adjacent blocks
// at once, one block per lane. Every lane runs its block's scalar sequence
// (the float sums of the means, variances and masking in row-major order,
// the integer DCT, the per-coefficient errors), so each lane holds the
// scalar's bits; the plane's error sum, one chain through every block in
// row-major block order, is then added lane by lane, coefficient by
// coefficient, as the scalar adds it. Rows end with the scalar block
// (add_block_error).
//
// V gives: kLanes; F (float lanes) with set, add, sub, mul, div, store
// (dispatch/x86_lanes.hpp's VMAFPP_X86_FLOAT_LANES, neon_lanes.hpp's
// VMAFPP_NEON_FLOAT_LANES); I (int32 lanes) with set_i32, load_i, add_i32,
// sub_i32, mullo_i32 (low 32 bits of the product), sar_i32 (arithmetic
// right shift), abs_i32 and to_float (VMAFPP_X86_INT_LANES, _INT_FLOAT); M (a lane mask) with gt, lt,
// select (m ? a : b), zero_where (m ? 0 : a); sqrt_div32 (float(sqrt(x) /
// 32), the square root in double: dividing by 32 is exact in double, one
// rounding to float follows). Optionally block_row(row, out): out[j] the
// int32 lanes of sample j of each block's row (the x86 twins' transpose;
// without it the samples are staged lane by lane). The DCT's operations on I are written
// here once (Int32, DctLanes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp::psnr_hvs::simd {
// Everything here has internal linkage, so each ISA file's instances are
// compiled with its own flags (HACKING.md, "Where a loop lives").
namespace {

// V's int32 lanes with the operators fdct8_lifting uses.
template <class V>
struct Int32 {
    typename V::I v;
    friend Int32 operator+(Int32 a, Int32 b) { return {V::add_i32(a.v, b.v)}; }
    friend Int32 operator-(Int32 a, Int32 b) { return {V::sub_i32(a.v, b.v)}; }
};

// fdct8_lifting's Ops on V's lanes.
template <class V>
struct DctLanes {
    // (a + (a < 0)) >> 1: a - (a >> 31) adds one to a negative a.
    static Int32<V> half(Int32<V> a) { return {V::sar_i32(V::sub_i32(a.v, V::sar_i32(a.v, 31)), 1)}; }
    // 32-bit products: the scalar forms them in 64 bits, but for samples of
    // up to 12 bits (psnr_hvs refuses more) they fit 32 bits (checkasm's
    // psnr_hvs_plane bands at 12 bits with extreme fills hold the twins to
    // the scalar there).
    static Int32<V> lift(Int32<V> u, std::int32_t c, int s) {
        return {V::sar_i32(V::add_i32(V::mullo_i32(u.v, V::set_i32(c)), V::set_i32(1 << (s - 1))), s)};
    }
};

// DctLanes for 8-bit samples: every value a lift multiplies, and every
// coefficient, is below 2^15 in magnitude (interval arithmetic through
// fdct8_lifting's two passes from samples in [0, 255]: |u| <= 26980 at a
// lift, |coefficient| <= 28929), so the lanes' low 16 bits are the value,
// and vpmaddwd of them with c (high half 0) is the exact product u * c: one
// instruction, against vpmulld's two and twice its latency.
template <class V>
struct DctLanes16 : DctLanes<V> {
    static Int32<V> lift(Int32<V> u, std::int32_t c, int s) {
        return {V::sar_i32(V::add_i32(V::madd_i16(u.v, V::set_i32(c)), V::set_i32(1 << (s - 1))), s)};
    }
};

// The DCT's operations for samples of type T: the 16-bit products where V has
// them and the samples are 8-bit.
template <class V, class T>
using DctOpsFor = std::conditional_t<
    sizeof(T) == 1 && requires(typename V::I a) { V::madd_i16(a, a); }, DctLanes16<V>, DctLanes<V>>;

// Coefficients of V::kLanes blocks: c[t] holds coefficient t (row-major) of
// each.
template <class V>
struct Blocks {
    Int32<V> c[64];
    typename V::F var_ratio;
};

// fn(v, q) for the 64 samples of the blocks in row-major order: v their
// floats, q their 4x4 quadrant.
template <class V, class Fn>
[[gnu::always_inline]] inline void each_sample(const Blocks<V>& b, Fn fn) {
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            fn(V::to_float(b.c[i * 8 + j].v), ((i & 4) >> 2) + ((j & 4) >> 1));
}

template <class V, class T>
void load_blocks(const std::uint8_t* base, std::ptrdiff_t stride, int x, int y, Blocks<V>& b) {
    using F = typename V::F;
    for (int i = 0; i < 8; ++i) {
        const T* row = reinterpret_cast<const T*>(base + (y + i) * stride) + x;
        if constexpr (requires(typename V::I* out) { V::block_row(row, out); }) {
            // The ISA's transpose of the blocks' rows.
            typename V::I v[8];
            V::block_row(row, v);
            for (int j = 0; j < 8; ++j) b.c[i * 8 + j] = {v[j]};
        } else {
            alignas(64) std::int32_t lanes[V::kLanes];
            for (int j = 0; j < 8; ++j) {
                for (int k = 0; k < V::kLanes; ++k) lanes[k] = row[k * kStep + j];
                b.c[i * 8 + j] = {V::load_i(lanes)};
            }
        }
    }
    // Means and unbiased variances of the block and of its 4x4 quadrants,
    // each sum a float chain in row-major order, as load_block's.
    F gmean = V::set(0.0f);
    F qmean[4] = {gmean, gmean, gmean, gmean};
    each_sample(b, [&](F v, int q) {
        gmean = V::add(gmean, v);
        qmean[q] = V::add(qmean[q], v);
    });
    gmean = V::div(gmean, V::set(64.f));
    for (F& m : qmean) m = V::div(m, V::set(16.f));
    F gvar = V::set(0.0f);
    F qvar[4] = {gvar, gvar, gvar, gvar};
    each_sample(b, [&](F v, int q) {
        const F dg = V::sub(v, gmean);
        const F dq = V::sub(v, qmean[q]);
        gvar = V::add(gvar, V::mul(dg, dg));
        qvar[q] = V::add(qvar[q], V::mul(dq, dq));
    });
    gvar = V::mul(gvar, V::set(1 / 63.f * 64));
    for (F& v : qvar) v = V::mul(v, V::set(1 / 15.f * 16));
    const F qsum = V::add(V::add(V::add(qvar[0], qvar[1]), qvar[2]), qvar[3]);
    b.var_ratio = V::select(V::gt(gvar, V::set(0.0f)), V::div(qsum, gvar), gvar);
}

// fdct8x8 of each lane's block: columns into a scratch, then its columns.
template <class V, class Ops>
void transform(Blocks<V>& b) {
    using I = Int32<V>;
    I scratch[64];
    for (int i = 0; i < 8; ++i) {
        I t[8];
        for (int k = 0; k < 8; ++k) t[k] = b.c[k * 8 + i];
        fdct8_lifting<Ops>(t);
        for (int k = 0; k < 8; ++k) scratch[8 * i + k] = t[k];
    }
    for (int i = 0; i < 8; ++i) {
        I t[8];
        for (int k = 0; k < 8; ++k) t[k] = scratch[k * 8 + i];
        fdct8_lifting<Ops>(t);
        for (int k = 0; k < 8; ++k) b.c[8 * i + k] = t[k];
    }
}

// masking(): the AC coefficients' float(c * c) * mask summed in row-major
// order, times the variance ratio, square root in double, over 32.
template <class V, class Ops>
typename V::F masking(const Blocks<V>& b, const Table8x8& mask) {
    typename V::F m = V::set(0.0f);
    for (int t = 1; t < 64; ++t) {
        const typename V::I c = b.c[t].v;
        typename V::I square;
        if constexpr (std::is_same_v<Ops, DctLanes16<V>>)
            // |c| < 2^15: c's low 16 bits times themselves, the high half's
            // product zeroed by the mask.
            square = V::madd_i16(c, V::and_i(c, V::set_i32(0xFFFF)));
        else
            square = V::mullo_i32(c, c);
        m = V::add(m, V::mul(V::to_float(square), V::set(mask[t / 8][t % 8])));
    }
    return V::sqrt_div32(V::mul(m, b.var_ratio));
}

// The errors of V::kLanes blocks starting at x, added to sum in the
// scalar's order.
template <class V, class T>
void add_group_error(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                     std::ptrdiff_t dis_stride, int x, int y, const Table8x8& mask,
                     const Table8x8& csf, float& sum) {
    using F = typename V::F;
    Blocks<V> s, d;
    alignas(64) float err[64][V::kLanes];
    load_blocks<V, T>(ref, ref_stride, x, y, s);
    load_blocks<V, T>(dis, dis_stride, x, y, d);
    using Ops = DctOpsFor<V, T>;
    transform<V, Ops>(s);
    transform<V, Ops>(d);
    F threshold = masking<V, Ops>(s, mask);
    const F d_mask = masking<V, Ops>(d, mask);
    threshold = V::select(V::gt(d_mask, threshold), d_mask, threshold);
    for (int t = 0; t < 64; ++t) {
        // |s - d| in int32, then float, as std::abs of the difference.
        F e = V::to_float(V::abs_i32(V::sub_i32(s.c[t].v, d.c[t].v)));
        if (t != 0) {
            const F lim = V::div(threshold, V::set(mask[t / 8][t % 8]));
            e = V::zero_where(V::lt(e, lim), V::sub(e, lim));
        }
        const F ec = V::mul(e, V::set(csf[t / 8][t % 8]));
        V::store(err[t], V::mul(ec, ec));
    }
    for (int k = 0; k < V::kLanes; ++k)
        for (int t = 0; t < 64; ++t) sum += err[t][k];
}

// The plane: groups of Wide's lanes, then of Narrow's, then single scalar
// blocks, left to right, so the sum meets the blocks in the scalar's order.
template <class Wide, class Narrow, class T>
float plane(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
            std::ptrdiff_t dis_stride, int w, int h, int bpc, const Table8x8& csf) {
    Table8x8 mask;
    mask_table(csf, mask);
    float sum = 0.0f;
    int blocks = 0;
    for (int y = 0; y < h - 7; y += kStep) {
        int x = 0;
        // A group of n blocks needs its last one's start, x + 7 (n - 1), at
        // most w - 8.
        for (; x + (Wide::kLanes - 1) * kStep < w - 7; x += Wide::kLanes * kStep) {
            add_group_error<Wide, T>(ref, ref_stride, dis, dis_stride, x, y, mask, csf, sum);
            blocks += Wide::kLanes;
        }
        for (; x + (Narrow::kLanes - 1) * kStep < w - 7; x += Narrow::kLanes * kStep) {
            add_group_error<Narrow, T>(ref, ref_stride, dis, dis_stride, x, y, mask, csf, sum);
            blocks += Narrow::kLanes;
        }
        for (; x < w - 7; x += kStep, ++blocks)
            add_block_error(ref, ref_stride, dis, dis_stride, x, y, bpc, mask, csf, sum);
    }
    return normalised_error(sum, blocks, bpc);
}

}  // namespace
}  // namespace vmafpp::psnr_hvs::simd
