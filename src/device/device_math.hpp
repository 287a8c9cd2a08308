// What the per-thread arithmetic of the CUDA kernels (src/*/*_cuda_math.cuh)
// needs to be compiled by both nvcc (device code) and the host compiler:
// the kernels are thin loops over these functions, and the host test
// (tests/unit/cuda_kernels_test.cpp) runs the same functions over the whole
// grid on the CPU and compares them with the scalar kernels.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define VMAFPP_HD __host__ __device__ __forceinline__
#else
#define VMAFPP_HD inline
#endif

namespace vmafpp::dev {

VMAFPP_HD std::int64_t min64(std::int64_t a, std::int64_t b) { return a < b ? a : b; }
VMAFPP_HD std::int64_t max64(std::int64_t a, std::int64_t b) { return a > b ? a : b; }
VMAFPP_HD std::int64_t clamp64(std::int64_t v, std::int64_t lo, std::int64_t hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

// |v| as uint32 (|INT32_MIN| = 2^31).
VMAFPP_HD std::uint32_t magnitude(std::int32_t v) {
    return v < 0 ? 0u - static_cast<std::uint32_t>(v) : static_cast<std::uint32_t>(v);
}

// int16 narrowing modulo 2^16, sign-extended.
VMAFPP_HD std::int32_t narrow16(std::int64_t v) { return static_cast<std::int16_t>(v); }

// 0 for a zero shift, else 2^(shift - 1).
VMAFPP_HD std::int64_t round_term(int shift) {
    return shift > 0 ? std::int64_t{1} << (shift - 1) : 0;
}

// The number of leading zero bits of a non-zero v.
VMAFPP_HD int count_leading_zeros(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
    return __clz(static_cast<int>(v));
#else
    return __builtin_clz(v);
#endif
}

VMAFPP_HD int count_leading_zeros64(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
    return __clzll(static_cast<long long>(v));
#else
    return __builtin_clzll(v);
#endif
}

// A product of two int64 modulo 2^64 (no signed overflow).
VMAFPP_HD std::int64_t mul_wrapping(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
VMAFPP_HD std::int64_t add_wrapping(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

}  // namespace vmafpp::dev
