// What integer ADM's scalar kernels (adm_scalar.cpp via adm_gain_limit.hpp),
// its CUDA twin (adm_cuda_math.cuh, cuda/) and its Vulkan shaders
// (adm_*.comp, vulkan/) share, defined once (HACKING.md, "One arithmetic,
// one place") in the subset of C++ that GLSL parses too
// (device/shared_lang.h): the shaders' push constants and the gain-limit
// product in 64-bit integers, adm_gain_limit_product() (the argument is
// adm_gain_limit.cpp's).
#ifndef VMAFPP_ADM_SHARED_H
#define VMAFPP_ADM_SHARED_H

#include "../device/shared_lang.h"
#ifdef __cplusplus
namespace vmafpp::adm {
#endif

// adm_dwt.comp: one level of the DWT of both pictures.
struct AdmDwtPush {
    int32_t in_w;
    int32_t in_h;
    int32_t out_w;
    int32_t out_h;
    int32_t scale;
    int32_t kind;
    int32_t bpc;
    int32_t base0;  // the first picture's samples
    int32_t base1;  // the second's
};
// adm_decouple.comp: the limit is gain_m * 2^-gain_s (GainLimitFixed).
struct AdmDecouplePush {
    int32_t n;
    int32_t scale;
    uint32_t gain_m_lo;
    uint32_t gain_m_hi;
    int32_t gain_s;
    uint32_t cos_sq_bits;  // the float cos^2(1 degree) the scalar code uses
};
// adm_cm.comp and adm_den.comp, and the CUDA twin's masking and
// denominator (adm_cuda_math.cuh): one scale's pooling region, each
// orientation's factors and shifts, the denominator's shifts
// (adm::pool_push fills it from AdmDeviceParams).
struct AdmPoolPush {
    int32_t w;
    int32_t h;
    int32_t x0;
    int32_t x1;
    int32_t y0;
    int32_t y1;
    int32_t scale;
    uint32_t rfactor[3];
    int32_t sub[3];
    int32_t sq[3];
    int32_t cub[3];
    int32_t den_sq;
    int32_t den_cub;
};
// adm_gain_limit.comp: the product over a buffer (the device test).
struct AdmGainPush {
    uint32_t m_lo;
    uint32_t m_hi;
    int32_t s;
    int32_t n;
};

// bitlen(x) <= bitlen(y) without a bit scan: bitlen(x) > bitlen(y) exactly
// when x's top bit is above every bit of y, i.e. y < x and y < (x ^ y).
VMAFPP_HD bool adm_bitlen_at_most(uint64_t x, uint64_t y) { return !(y < x && y < (x ^ y)); }

// trunc(fl(rst * gain)) for the limit gain = m * 2^-s (m in [2^52, 2^53),
// s in [32, 62]) from 64-bit integer operations only: no floating point, no
// 128-bit integer, no bit scan.
VMAFPP_HD int64_t adm_gain_limit_product(int32_t rst, uint64_t m, int32_t s) {
    const uint64_t a = rst < 0 ? uint64_t(0) - uint64_t(int64_t(rst)) : uint64_t(rst);
    // P = hi * 2^32 + lo from two 64-bit products: a * m_lo < 2^31 * 2^32,
    // a * m_hi < 2^31 * 2^21.
    const uint64_t m_lo = m & uint64_t(0xffffffffu);
    const uint64_t m_hi = m >> 32;
    const uint64_t p_lo = a * m_lo;
    const uint64_t lo = p_lo & uint64_t(0xffffffffu);
    const uint64_t hi = a * m_hi + (p_lo >> 32);  // < 2^53
    const int32_t s_hi = s - 32;                   // in [0, 30]
    const uint64_t n = hi >> s_hi;
    const uint64_t f = ((hi & ((uint64_t(1) << s_hi) - uint64_t(1))) << 32) | lo;
    const uint64_t d = (uint64_t(1) << s) - f;  // in [1, 2^s]
    uint64_t g;
    if (s <= 54) {
        g = d << (54 - s);  // <= 2^54
    } else {
        const int32_t k = s - 54;
        g = (d + ((uint64_t(1) << k) - uint64_t(1))) >> k;  // ceil(d / 2^k) >= 1
    }
    const uint64_t t = adm_bitlen_at_most(g - uint64_t(1), n) ? n + uint64_t(1) : n;
    return rst < 0 ? -int64_t(t) : int64_t(t);
}

#ifdef __cplusplus
}  // namespace vmafpp::adm
#endif
#endif
