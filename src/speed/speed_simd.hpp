// What SpEED's SIMD twins (speed_kernels.hpp) share across vector widths
// (HACKING.md, "Where a loop lives"): the vertical kernel, written once, which
// each ISA file instantiates with its own vector type `V` from its own
// anonymous namespace, and the covariance kernel's last step.
//
// Lanes hold different columns, never parts of one sum: each column adds its
// fw products in the scalar's tap order, as floats, so the bits are the
// scalar's.
//
// V provides, for kLanes adjacent columns: F (floats) with set, add, sub,
// mul and store (dispatch/x86_lanes.hpp's VMAFPP_X86_FLOAT_LANES); zero;
// first (lane 0 as a float); and samples<kWide>(p, j), the kLanes samples at
// column j (16-bit when kWide, else 8-bit) converted to float, exactly.
#pragma once

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

}  // namespace
}  // namespace vmafpp::speed
