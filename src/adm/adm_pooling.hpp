// A step of libvmaf's ADM pooling that integer ADM (src/adm) and float ADM
// (src/float_adm) share.
#pragma once

namespace vmafpp {

// libvmaf's numden_limit: a numerator or denominator below 1e-10 per
// 1920x1080 pixels counts as 0 (same double expression in both ADMs).
inline void zero_tiny_num_den(double& num, double& den, int width, int height) {
    const double limit = 1e-10 * (width * height) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
}

}  // namespace vmafpp
