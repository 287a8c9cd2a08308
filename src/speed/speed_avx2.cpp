// AVX2 twins of SpEED's covariance and vertical kernels, speed_simd.hpp
// over eight float lanes (this file alone is compiled with -mavx2 -mbmi2;
// -ffp-contract=off applies as everywhere and no FMA intrinsic is used, so
// every operation rounds where the scalar's does).
//
// Four doubles per register, so a block row's five offsets take two
// registers (columns 0-3 and 4-7; only lane 0 of the second is used). Loads
// take 8 consecutive samples from column j, the contract's slack after each
// row.
#include <immintrin.h>

#include <cstdint>

#include "dispatch/x86_lanes.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_simd.hpp"

namespace vmafpp::speed {

namespace {

// speed_simd.hpp's vector: eight floats in a ymm, doubles four to a ymm.
struct Avx2 {
    VMAFPP_X86_FLOAT_LANES(8, __m256, _mm256, )
    static F zero() { return _mm256_setzero_ps(); }
    static float first(F v) { return _mm256_cvtss_f32(v); }
    template <bool kWide>
    static F samples(const std::uint8_t* p, int j) {
        if constexpr (kWide)
            return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128(
                reinterpret_cast<const __m128i*>(reinterpret_cast<const std::uint16_t*>(p) + j))));
        return _mm256_cvtepi32_ps(
            _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + j))));
    }

    using M = F;
    static M mzero() { return zero(); }
    static M madd(M m, const float* p) { return add(m, load(p)); }
    static void mstore(float* lanes, M m) { store(lanes, m); }

    VMAFPP_X86_DOUBLE_LANES(__m256d, _mm256, d)
    static constexpr int kDoubleLanes = 4, kRowRegs = 2;
    static void dstoreu(double* p, D v) { _mm256_storeu_pd(p, v); }
    static D row_doubles(const float* p, int q) { return _mm256_cvtps_pd(_mm_loadu_ps(p + 4 * q)); }
};

}  // namespace

void speed_init_avx2(SpeedKernels& k) {
    fill_kernels<Avx2>(k);
    k.covariance = covariance_packed<Avx2>;
    k.matmul = matmul_simd<Avx2>;
}

}  // namespace vmafpp::speed
