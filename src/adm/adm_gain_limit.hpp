// The enhancement gain limit of integer ADM's decouple stage.
//
// libvmaf assigns MIN(rst * gain, t) (a double) to an integer, which truncates
// toward zero. Because t is an integer, trunc(min(p, t)) == min(trunc(p), t)
// and likewise for max, so every implementation needs only the truncated
// double product trunc(fl(rst * gain)) followed by an integer min or max.
// fl() matters: 5 * 1.2 is 6 in double although 1.2 is stored as
// 1.1999999999999999556.
#pragma once

#include <cstdint>

#include "adm/adm_shared.h"

namespace vmafpp::adm {

// trunc(fl(rst * gain)) with the double product, as the scalar kernels and
// the CUDA twin (which has binary64) use it. |rst| <= 2^31 and
// 1 <= gain <= 100, so the result fits easily in int64.
VMAFPP_HD std::int64_t gain_product_double(std::int32_t rst, double gain) {
    return static_cast<std::int64_t>(static_cast<double>(rst) * gain);
}

// A gain limit written as M * 2^-s with M in [2^52, 2^53) (the binary64
// significand of gain, exact). Only valid for 1 <= gain < 2^21 (s >= 32).
struct GainLimitFixed {
    std::uint64_t m = 0;
    int s = 0;
};
GainLimitFixed gain_limit_fixed(double gain);

// trunc(fl(rst * gain)) using 64-bit integer operations only: no floating
// point, no 128-bit integer, no bit scan (adm_shared.h's
// adm_gain_limit_product, which the Vulkan shaders include). Equal to
// gain_product_double() for every |rst| <= 2^31 and every limit
// gain_limit_fixed() accepts.
inline std::int64_t gain_product_integer(std::int32_t rst, GainLimitFixed limit) {
    return adm_gain_limit_product(rst, limit.m, limit.s);
}

}  // namespace vmafpp::adm
