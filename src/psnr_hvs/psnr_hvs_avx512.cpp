// AVX-512 twin of psnr_hvs's plane kernel: psnr_hvs_simd.hpp over sixteen
// int32 and float lanes, one 8x8 block per lane; rows end with groups of
// eight (the AVX2 twin's lanes, psnr_hvs_avx2_lanes.hpp) and then scalar
// blocks. Sixteen lanes halve the vector work per block; the plane's error
// sum stays one chain per block.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "psnr_hvs/psnr_hvs_avx2_lanes.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "psnr_hvs/psnr_hvs_simd.hpp"

namespace vmafpp::psnr_hvs {

namespace {

struct Avx512 {
    static constexpr int kLanes = 16;

    // Sixteen int32 lanes with the operators fdct8_lifting uses.
    struct I {
        __m512i v;
        friend I operator+(I a, I b) { return {_mm512_add_epi32(a.v, b.v)}; }
        friend I operator-(I a, I b) { return {_mm512_sub_epi32(a.v, b.v)}; }
    };
    struct Dct {
        // (a + (a < 0)) >> 1: a - (a >> 31) adds one to a negative a.
        static I half(I a) {
            return {_mm512_srai_epi32(_mm512_sub_epi32(a.v, _mm512_srai_epi32(a.v, 31)), 1)};
        }
        // 32-bit products, as the AVX2 twin's (psnr_hvs_avx2.cpp).
        static I lift(I u, std::int32_t c, int s) {
            const __m512i p = _mm512_mullo_epi32(u.v, _mm512_set1_epi32(c));
            return {_mm512_srai_epi32(_mm512_add_epi32(p, _mm512_set1_epi32(1 << (s - 1))), s)};
        }
    };
    using F = __m512;
    using M = __mmask16;

    static I load_i32(const std::int32_t* p) { return {_mm512_load_si512(p)}; }
    static F to_float(I a) { return _mm512_cvtepi32_ps(a.v); }
    static F set(float v) { return _mm512_set1_ps(v); }
    static F add(F a, F b) { return _mm512_add_ps(a, b); }
    static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
    static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
    static F div(F a, F b) { return _mm512_div_ps(a, b); }
    static M gt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
    static F select(M m, F a, F b) { return _mm512_mask_blend_ps(m, b, a); }
    static F zero_where(M m, F a) { return _mm512_maskz_mov_ps(static_cast<M>(~m), a); }
    static I abs_diff(I a, I b) { return {_mm512_abs_epi32(_mm512_sub_epi32(a.v, b.v))}; }
    static I square(I a) { return {_mm512_mullo_epi32(a.v, a.v)}; }
    static void store(float* p, F v) { _mm512_store_ps(p, v); }
    // float(sqrt(double(x)) / 32): dividing by 32 is exact in double, one
    // rounding to float follows.
    static F sqrt_div32(F x) {
        const __m512d k32 = _mm512_set1_pd(32.0);
        const __m512d lo = _mm512_sqrt_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(x)));
        const __m512d hi = _mm512_sqrt_pd(_mm512_cvtps_pd(_mm512_extractf32x8_ps(x, 1)));
        return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(_mm512_div_pd(lo, k32))),
                                  _mm512_cvtpd_ps(_mm512_div_pd(hi, k32)), 1);
    }
};


float plane_avx512(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                   std::ptrdiff_t dis_stride, int w, int h, int bpc,
                   const psnr_hvs::Table8x8& csf) {
    using psnr_hvs::simd::Avx2;
    using psnr_hvs::simd::plane;
    return bpc > 8 ? plane<Avx512, Avx2, std::uint16_t>(ref, ref_stride, dis, dis_stride, w,
                                                             h, bpc, csf)
                   : plane<Avx512, Avx2, std::uint8_t>(ref, ref_stride, dis, dis_stride, w,
                                                            h, bpc, csf);
}

}  // namespace

void psnr_hvs_init_avx512(PsnrHvsKernels& k) { k.plane = plane_avx512; }

}  // namespace vmafpp::psnr_hvs
