// float ADM's 4-tap DWT accumulate, for the scalar kernels and the scalar
// steps of their twins. In an anonymous namespace, as the shared loops
// (HACKING.md, "Where a loop lives"): every copy is compiled with its
// including file's flags.
#pragma once

namespace vmafpp::float_adm {
namespace {

// One output of a 4-tap DWT filter `k` as libvmaf's accumulator forms it:
// from 0, each tap's product added in order (float).
inline float dwt_taps(const float* k, float s0, float s1, float s2, float s3) {
    float acc = 0.0f;
    acc += k[0] * s0;
    acc += k[1] * s1;
    acc += k[2] * s2;
    acc += k[3] * s3;
    return acc;
}

}  // namespace
}  // namespace vmafpp::float_adm
