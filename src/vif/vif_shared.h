// What integer VIF's scalar kernels (vif_kernels_scalar.cpp), its CUDA twin
// (vif_cuda_math.cuh, cuda/) and its Vulkan shaders (vif_*.comp, vulkan/)
// share, defined once (HACKING.md, "One arithmetic, one place"): the
// shaders' push constants, in the subset of C++ that GLSL parses too
// (device/shared_lang.h), and, for C++ and CUDA only (the shaders leave it
// to the host), vif_accumulate's step of one sample. The SIMD twins are
// other arithmetic for the same values; checkasm holds them to the scalar.
#ifndef VMAFPP_VIF_SHARED_H
#define VMAFPP_VIF_SHARED_H

#include "../device/shared_lang.h"
#ifdef __cplusplus
namespace vmafpp::vif {
#endif

// vif_stat_vertical.comp: the means and second moments of scale `scale`.
struct VifStatPush {
    int32_t w;
    int32_t h;
    int32_t kind;  // 0: 8-bit packed, 1: 16-bit packed, 2: a scale's uint16 rows
    int32_t ref_base;
    int32_t dis_base;
    int32_t scale;
    int32_t shift_mu;
    int32_t shift_sq;
};
// vif_stat_horizontal.comp: sigma1_sq, sigma2_sq, sigma12.
struct VifSigmaPush {
    int32_t w;
    int32_t h;
    int32_t scale;
    int32_t out_base;
};
// vif_reduce_vertical.comp: the vertical pass of the reduction to scale + 1.
struct VifReducePush {
    int32_t w;
    int32_t h;
    int32_t kind;
    int32_t ref_base;
    int32_t dis_base;
    int32_t scale;
    int32_t shift;
    int32_t out_h;
};
// vif_reduce_horizontal.comp: its horizontal pass.
struct VifReduceRowPush {
    int32_t w;
    int32_t out_w;
    int32_t out_h;
    int32_t scale;
};

#ifdef __cplusplus

// sigma1_sq below this (2 in Q16) counts as noise: libvmaf's sigma_nsq.
constexpr int32_t kSigmaNsq = 65536 << 1;

// log2(v) in Q11 from vif_log2_table(): keep the 16 leading bits of v and
// add 2048 per dropped bit. Needs v >= 2^15 (every caller has v >= 2^17).
VMAFPP_HD int32_t vif_log2_q11(const uint16_t* table, uint64_t v) {
    const int k = 48 - vmafpp::dev::count_leading_zeros64(v);
    return int32_t(table[(v >> k) - 32768u]) + 2048 * k;
}

// vif_accumulate's terms of one sample (sigma1_sq s1, sigma2_sq s2_raw,
// sigma12 s12), added to acc = {num_log, den_log, num_non_log,
// den_non_log} with libvmaf's double operations in libvmaf's order (the
// host has fp-contract off, the device --fmad=false and IEEE division). The
// sums are integers, so the order of the samples is free.
VMAFPP_HD void vif_accumulate_sample(int32_t s1, int32_t s2_raw, int32_t s12,
                                     const uint16_t* table, double gain_limit, int64_t acc[4]) {
    // libvmaf's epsilon, 65536 * 1e-10 evaluated in double.
    const double eps = 65536 * 1.0e-10;
    const int32_t s2 = s2_raw > 0 ? s2_raw : 0;
    if (s1 < kSigmaNsq) {
        acc[2] += s2;
        acc[3] += 1;
        return;
    }
    // s1 < 2^31, so nsq + s1 < 2^32: the uint32 sum is exact.
    acc[1] += vif_log2_q11(table, uint32_t(kSigmaNsq) + uint32_t(s1)) - 2048 * 17;
    if (s12 <= 0 || s2 <= 0) return;
    const double g_raw = s12 / (s1 + eps);
    const double sv = s2 - g_raw * s12;
    // g_raw * s12 > 0, so sv < s2 <= INT32_MAX: truncating a positive sv is
    // defined; libvmaf clamps every non-positive result to 0.
    const int32_t sv_sq = sv > 0.0 ? int32_t(sv) : 0;
    const double g = g_raw < gain_limit ? g_raw : gain_limit;
    const uint32_t numer1 = uint32_t(sv_sq) + kSigmaNsq;
    // g <= 100 and s1 < 2^31: the product is below 2^45, exact in int64
    // after truncation toward zero (it is positive).
    const int64_t numer1_tmp = int64_t(g * g * s1) + numer1;
    acc[0] += vif_log2_q11(table, uint64_t(numer1_tmp)) - vif_log2_q11(table, numer1);
}

#endif  // __cplusplus

#ifdef __cplusplus
}  // namespace vmafpp::vif
#endif
#endif
