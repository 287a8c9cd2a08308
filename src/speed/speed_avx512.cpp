// AVX-512 twins of SpEED's covariance and vertical kernels, speed_simd.hpp
// over sixteen float lanes (this file alone is compiled with the AVX-512
// flags; -ffp-contract=off applies as everywhere and no FMA intrinsic is
// used, so every operation rounds where the scalar's does).
//
// What the vectors buy is five (means) or up to 25 (covariances) sums per
// instruction and independent dependency chains: a block row's five offsets
// sit in one register of eight floats (means) or eight doubles (lanes 5..7
// computed and dropped). Loads take 8 consecutive samples from column j,
// the contract's 8 floats of slack after each row.
#include <immintrin.h>

#include <cstdint>

#include "dispatch/x86_lanes.hpp"
#include "speed/speed_kernels.hpp"
#include "speed/speed_simd.hpp"

namespace vmafpp::speed {

namespace {

// speed_simd.hpp's vector: sixteen floats in a zmm; a block row's means in
// a ymm, its doubles in a zmm.
struct Avx512 {
    VMAFPP_X86_FLOAT_LANES(16, __m512, _mm512, )
    static F zero() { return _mm512_setzero_ps(); }
    static float first(F v) { return _mm512_cvtss_f32(v); }
    template <bool kWide>
    static F samples(const std::uint8_t* p, int j) {
        if constexpr (kWide)
            return _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256(
                reinterpret_cast<const __m256i*>(reinterpret_cast<const std::uint16_t*>(p) + j))));
        return _mm512_cvtepi32_ps(
            _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + j))));
    }

    using M = __m256;
    static M mzero() { return _mm256_setzero_ps(); }
    static M madd(M m, const float* p) { return _mm256_add_ps(m, _mm256_loadu_ps(p)); }
    static void mstore(float* lanes, M m) { _mm256_storeu_ps(lanes, m); }

    VMAFPP_X86_DOUBLE_LANES(__m512d, _mm512, d)
    static constexpr int kDoubleLanes = 8, kRowRegs = 1;
    static void dstoreu(double* p, D v) { _mm512_storeu_pd(p, v); }
    static D row_doubles(const float* p, int) { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
};

}  // namespace

void speed_init_avx512(SpeedKernels& k) {
    fill_kernels<Avx512>(k);
    k.covariance = covariance_packed<Avx512>;
}

}  // namespace vmafpp::speed
