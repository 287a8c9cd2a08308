// What SpEED's SIMD twins (speed_kernels.hpp) share across vector widths
// (HACKING.md, "Where a loop lives"): the vertical and covariance kernels,
// written once, which each ISA file (AVX2, AVX-512, NEON) instantiates with
// its own vector type `V` from its own anonymous namespace.
//
// Lanes hold different columns (vertical) or block offsets (covariance),
// never parts of one sum: each lane adds its terms in the scalar's order
// (taps; rows, then columns), as the scalar's type, so the bits are the
// scalar's.
//
// V provides, for the vertical pass over kLanes adjacent columns: F (floats)
// with set, add, sub, mul and store (dispatch/x86_lanes.hpp's
// VMAFPP_X86_FLOAT_LANES); zero; first (lane 0 as a float); and
// samples<kWide>(p, j), the kLanes samples at column j (16-bit when kWide,
// else 8-bit) converted to float, exactly.
//
// For the covariance: M, a float accumulator of a block row's kBlock
// offsets, with mzero, madd(m, p) (m plus the floats from p on, lane by
// lane) and mstore(lanes, m) (at most 8 floats); D, doubles, with dset,
// dload, dstore (aligned), dadd, dsub, dmul (VMAFPP_X86_DOUBLE_LANES) and,
// for covariance_packed, dstoreu (unaligned);
// kRowRegs registers of kDoubleLanes lanes covering a block row (at most 8
// lanes); and row_doubles(p, q), the floats of register q (p[q *
// kDoubleLanes] on) widened to double, exactly. Every load stays within 8
// floats of column j, the contract's slack.
#pragma once

#include <cstddef>
#include <cstdint>

#include "speed/speed_kernels.hpp"

namespace vmafpp::speed {
namespace {

// picture_copy's float of sample j of row p, the scalar's form.
template <bool kWide>
inline float sample_float(const std::uint8_t* p, int j, float scale) {
    if constexpr (kWide)
        return static_cast<float>(reinterpret_cast<const std::uint16_t*>(p)[j]) / scale + -128.0f;
    else
        return static_cast<float>(p[j]) + -128.0f;
}

// picture_copy's floats of the kLanes samples at column j: float(v) + -128
// at 8 bits, float(v) * 2^-(bpc-8) + -128 above, which is the scalar's
// float(v) / 2^(bpc-8) exactly (scaling by a power of two does not round
// for these magnitudes).
template <class V, bool kWide>
typename V::F picture_floats(const std::uint8_t* p, int j, typename V::F inv_scale) {
    const typename V::F offset = V::set(-128.0f);
    if constexpr (kWide) return V::add(V::mul(V::template samples<true>(p, j), inv_scale), offset);
    (void)inv_scale;
    return V::add(V::template samples<false>(p, j), offset);
}

template <class V, bool kWide, bool kDiff>
void vertical_columns(const float* f, int fw, const std::uint8_t* const* a,
                      const std::uint8_t* const* b, typename V::F inv_scale, int j0, int j1,
                      float* mid) {
    using F = typename V::F;
    int j = j0;
    for (; j + V::kLanes <= j1; j += V::kLanes) {
        F acc = V::zero();
        for (int k = 0; k < fw; ++k) {
            F v = picture_floats<V, kWide>(a[k], j, inv_scale);
            if constexpr (kDiff) v = V::sub(v, picture_floats<V, kWide>(b[k], j, inv_scale));
            acc = V::add(acc, V::mul(V::set(f[k]), v));
        }
        V::store(mid + j, acc);
    }
    // The last columns one at a time, the same operations in scalar form.
    const float scale = 1.0f / V::first(inv_scale);
    for (; j < j1; ++j) {
        float acc = 0;
        for (int k = 0; k < fw; ++k) {
            float v = sample_float<kWide>(a[k], j, scale);
            if constexpr (kDiff) v = v - sample_float<kWide>(b[k], j, scale);
            acc += f[k] * v;
        }
        mid[j] = acc;
    }
}

// The covariances of x with block row r from its accumulator's lanes (lane c:
// the pair (x, (r, c))), each sum divided by the block's size and rounded to
// float as the scalar's, stored at both (x, y) and (y, x) for y <= x.
inline void store_covariances(const double* lanes, int r, int x, double size_d, float* cov) {
    for (int c = 0; c < kBlock; ++c) {
        const int y = r * kBlock + c;
        if (y > x) break;
        const float v = static_cast<float>(lanes[c] / size_d);
        cov[x * kBlockElems + y] = v;
        cov[y * kBlockElems + x] = v;
    }
}

// covariance_packed's row of centred samples (25 used, padded so that
// whole registers of up to 8 doubles cover them) and positions per chunk.
constexpr int kPackedStride = 32;
constexpr int kPackedChunk = 64;

// The 25 means of the window positions (in float, the scalar's sums and
// division) into mean, and each block row's means as doubles into my, the
// lanes past kBlock zero: the start of both covariance kernels.
template <class V>
inline void window_means(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                         typename V::D (&my)[kBlock][V::kRowRegs]) {
    constexpr int kRegs = V::kRowRegs, kRowLanes = V::kRowRegs * V::kDoubleLanes;
    const float size_f = static_cast<float>(static_cast<std::size_t>(sub_w) * sub_h);
    typename V::M msum[kBlock];
    for (int r = 0; r < kBlock; ++r) msum[r] = V::mzero();
    for (int i = 0; i < sub_h; ++i)
        for (int j = 0; j < sub_w; ++j)
            for (int r = 0; r < kBlock; ++r) msum[r] = V::madd(msum[r], d + (r + i) * stride + j);
    for (int r = 0; r < kBlock; ++r) {
        alignas(64) float lanes[8];
        V::mstore(lanes, msum[r]);
        for (int c = 0; c < kBlock; ++c) mean[r * kBlock + c] = lanes[c] / size_f;
    }
    for (int r = 0; r < kBlock; ++r) {
        alignas(64) double m[kRowLanes] = {};
        for (int c = 0; c < kBlock; ++c) m[c] = mean[r * kBlock + c];
        for (int q = 0; q < kRegs; ++q) my[r][q] = V::dload(m + q * V::kDoubleLanes);
    }
}

// The 25 means and the covariance matrix (SpeedCovarianceFn). Means: one
// float accumulator per block row r, lane c = offset (r, c). Covariances of
// x = (rx, cx) with every y in block rows 0..rx at once: accumulator ry,
// lane cy holds the pair (x, (ry, cy)).
template <class V>
void covariance_simd(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                     float* cov) {
    using D = typename V::D;
    constexpr int kRegs = V::kRowRegs, kRowLanes = V::kRowRegs * V::kDoubleLanes;
    const double size_d = static_cast<double>(static_cast<std::size_t>(sub_w) * sub_h);

    D my[kBlock][kRegs];
    window_means<V>(d, stride, sub_w, sub_h, mean, my);

    for (int x = 0; x < kBlockElems; ++x) {
        const int rx = x / kBlock, cx = x % kBlock;
        const D mx = V::dset(mean[x]);
        D acc[kBlock][kRegs];
        for (int r = 0; r <= rx; ++r)
            for (int q = 0; q < kRegs; ++q) acc[r][q] = V::dset(0.0);
        for (int i = 0; i < sub_h; ++i) {
            const float* xs = d + (rx + i) * stride + cx;
            for (int j = 0; j < sub_w; ++j) {
                const D vx = V::dsub(V::dset(xs[j]), mx);
                for (int r = 0; r <= rx; ++r) {
                    const float* ys = d + (r + i) * stride + j;
                    for (int q = 0; q < kRegs; ++q) {
                        const D vy = V::dsub(V::row_doubles(ys, q), my[r][q]);
                        acc[r][q] = V::dadd(acc[r][q], V::dmul(vx, vy));
                    }
                }
            }
        }
        for (int r = 0; r <= rx; ++r) {
            alignas(64) double lanes[kRowLanes];
            for (int q = 0; q < kRegs; ++q) V::dstore(lanes + q * V::kDoubleLanes, acc[r][q]);
            store_covariances(lanes, r, x, size_d, cov);
        }
    }
}

// The covariances of the packed form (covariance_packed): acc[y] +=
// u[x] * u[y] over the positions of a chunk for the y of kNq registers
// from 0 (the pairs (x, 0..kNq kDoubleLanes - 1); those past x are dropped).
template <class V, int kNq>
inline void accumulate_pairs(double* acc, const double* u, int n, int x) {
    using D = typename V::D;
    constexpr int L = V::kDoubleLanes;
    D a[kNq];
    for (int q = 0; q < kNq; ++q) a[q] = V::dload(acc + q * L);
    for (int p = 0; p < n; ++p) {
        const double* up = u + p * kPackedStride;
        const D vx = V::dset(up[x]);
        for (int q = 0; q < kNq; ++q) a[q] = V::dadd(a[q], V::dmul(vx, V::dload(up + q * L)));
    }
    for (int q = 0; q < kNq; ++q) V::dstore(acc + q * L, a[q]);
}

template <class V>
inline void accumulate_pairs_of(double* acc, const double* u, int n, int x) {
    constexpr int L = V::kDoubleLanes;
    static_assert(L == 2 || L == 4 || L == 8, "kPackedStride / L registers cover the 25 offsets");
    switch (x / L + 1) {
        case 1: accumulate_pairs<V, 1>(acc, u, n, x); break;
        case 2: accumulate_pairs<V, 2>(acc, u, n, x); break;
        case 3: accumulate_pairs<V, 3>(acc, u, n, x); break;
        case 4: accumulate_pairs<V, 4>(acc, u, n, x); break;
        case 5: accumulate_pairs<V, 5>(acc, u, n, x); break;
        case 6: accumulate_pairs<V, 6>(acc, u, n, x); break;
        case 7: accumulate_pairs<V, 7>(acc, u, n, x); break;
        default: break;  // L == 2 is not packed (kNq up to 13)
    }
}

// The 25 means and the covariance matrix (SpeedCovarianceFn), the pairs
// packed: at each position (i, j) of the window the 25 centred samples
// u[y] = double(d at y) - double(mean[y]) (the scalar's subtraction) are
// laid out side by side, and for each x the pairs (x, y <= x) take
// ceil((x + 1) / kDoubleLanes) registers: u[x] * u[y0 ..] added to the
// sums, positions in the scalar's order (rows, then columns). 91 four-lane
// registers per position instead of covariance_simd's 150 (two registers
// per block row, five of eight lanes used), and the widening and centring
// done once per position instead of once per x. Positions go by chunks of
// a row (the u of a chunk, kPackedChunk x kPackedStride doubles, stay in
// L1; the sums in memory between chunks).
//
// Measured (callgrind, speed_chroma with v1.0.16's options on p19x5, 20
// frames 1080p, AVX2): 116.0M -> 39.4M instructions. The AVX2 and AVX-512
// tables take it; NEON keeps covariance_simd (not measured there).
template <class V>
void covariance_packed(const float* d, std::ptrdiff_t stride, int sub_w, int sub_h, float* mean,
                       float* cov) {
    using D = typename V::D;
    constexpr int kRegs = V::kRowRegs, kRowLanes = V::kRowRegs * V::kDoubleLanes;
    static_assert(kRowLanes >= kBlock && (kBlock - 1) * kBlock + kRowLanes <= kPackedStride,
                  "a block row's registers cover its five offsets within the packed row");
    const double size_d = static_cast<double>(static_cast<std::size_t>(sub_w) * sub_h);

    D my[kBlock][kRegs];
    window_means<V>(d, stride, sub_w, sub_h, mean, my);

    alignas(64) double acc[kBlockElems][kPackedStride] = {};
    // Lanes past offset 24 hold whatever the last block row's registers
    // leave there (their pairs are dropped).
    alignas(64) double u[kPackedChunk * kPackedStride] = {};
    for (int i = 0; i < sub_h; ++i)
        for (int j0 = 0; j0 < sub_w; j0 += kPackedChunk) {
            const int n = sub_w - j0 < kPackedChunk ? sub_w - j0 : kPackedChunk;
            for (int p = 0; p < n; ++p)
                // Block rows in order: each one's registers reach past its
                // five offsets into the next one's, which it then writes.
                for (int r = 0; r < kBlock; ++r)
                    for (int q = 0; q < kRegs; ++q)
                        V::dstoreu(u + p * kPackedStride + r * kBlock + q * V::kDoubleLanes,
                                   V::dsub(V::row_doubles(d + (r + i) * stride + j0 + p, q), my[r][q]));
            for (int x = 0; x < kBlockElems; ++x) accumulate_pairs_of<V>(acc[x], u, n, x);
        }
    for (int x = 0; x < kBlockElems; ++x)
        for (int y = 0; y <= x; ++y) {
            const float v = static_cast<float>(acc[x][y] / size_d);
            cov[x * kBlockElems + y] = v;
            cov[y * kBlockElems + x] = v;
        }
}

template <class V>
void vertical_simd(const float* f, int fw, const std::uint8_t* const* a,
                   const std::uint8_t* const* b, int bpc, int j0, int j1, float* mid) {
    const typename V::F inv = V::set(bpc == 8 ? 1.0f : 1.0f / static_cast<float>(1 << (bpc - 8)));
    if (bpc == 8) {
        if (b)
            vertical_columns<V, false, true>(f, fw, a, b, inv, j0, j1, mid);
        else
            vertical_columns<V, false, false>(f, fw, a, b, inv, j0, j1, mid);
    } else {
        if (b)
            vertical_columns<V, true, true>(f, fw, a, b, inv, j0, j1, mid);
        else
            vertical_columns<V, true, false>(f, fw, a, b, inv, j0, j1, mid);
    }
}

// kN vectors of row i of dst = x * y from column j (SpeedMatmulFn), each
// lane one element: 0, then + x[i][k] * y[k][j] for k ascending, the
// scalar's operations on each element, the sums kept in registers across k
// (the scalar's compiled loop loads and stores every row of dst once per k).
template <class V, int kN>
inline void matmul_vectors(float* dst, const float* xi, const float* y, int m, int c, int j) {
    using F = typename V::F;
    F acc[kN];
    for (int n = 0; n < kN; ++n) acc[n] = V::zero();
    for (int k = 0; k < m; ++k) {
        const F a = V::set(xi[k]);
        const float* yk = y + static_cast<std::ptrdiff_t>(k) * c + j;
        for (int n = 0; n < kN; ++n) acc[n] = V::add(acc[n], V::mul(a, V::load(yk + n * V::kLanes)));
    }
    for (int n = 0; n < kN; ++n) V::store(dst + j + n * V::kLanes, acc[n]);
}

// SpeedMatmulFn: up to four vectors of a row at once, then the last
// columns one at a time in the same order.
template <class V>
void matmul_simd(float* dst, const float* x, const float* y, int r, int m, int c) {
    constexpr int L = V::kLanes;
    for (int i = 0; i < r; ++i) {
        const float* xi = x + static_cast<std::ptrdiff_t>(i) * m;
        float* di = dst + static_cast<std::ptrdiff_t>(i) * c;
        int j = 0;
        for (; j + 4 * L <= c; j += 4 * L) matmul_vectors<V, 4>(di, xi, y, m, c, j);
        switch ((c - j) / L) {
            case 3: matmul_vectors<V, 3>(di, xi, y, m, c, j); break;
            case 2: matmul_vectors<V, 2>(di, xi, y, m, c, j); break;
            case 1: matmul_vectors<V, 1>(di, xi, y, m, c, j); break;
            default: break;
        }
        j += (c - j) / L * L;
        for (; j < c; ++j) {
            float acc = 0;
            for (int k = 0; k < m; ++k) acc += xi[k] * y[static_cast<std::ptrdiff_t>(k) * c + j];
            di[j] = acc;
        }
    }
}

// The table of a twin: both kernels written here, over V.
template <class V>
void fill_kernels(SpeedKernels& k) {
    k.covariance = covariance_simd<V>;
    k.vertical = vertical_simd<V>;
}

}  // namespace
}  // namespace vmafpp::speed
