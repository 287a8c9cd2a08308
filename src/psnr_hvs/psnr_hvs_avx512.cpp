// AVX-512 twin of psnr_hvs's plane kernel: psnr_hvs_simd.hpp over sixteen
// int32 and float lanes, one 8x8 block per lane; rows end with groups of
// eight (the AVX2 twin's lanes, psnr_hvs_avx2_lanes.hpp) and then scalar
// blocks. Sixteen lanes halve the vector work per block; the plane's error
// sum stays one chain per block.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "dispatch/x86_lanes.hpp"
#include "psnr_hvs/psnr_hvs_avx2_lanes.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "psnr_hvs/psnr_hvs_simd.hpp"

namespace vmafpp::psnr_hvs {

namespace {

using psnr_hvs::simd::Avx2;

struct Avx512 {
    VMAFPP_X86_FLOAT_LANES(16, __m512, _mm512, )
    VMAFPP_X86_INT_LANES(__m512i, _mm512, si512)
    VMAFPP_X86_INT_FLOAT(_mm512)
    using M = __mmask16;
    static M gt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
    static M lt(F a, F b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
    static F select(M m, F a, F b) { return _mm512_mask_blend_ps(m, b, a); }
    static F zero_where(M m, F a) { return _mm512_maskz_mov_ps(static_cast<M>(~m), a); }
    // block_row (psnr_hvs_avx2_lanes.hpp) of blocks 0..7 and 8..15.
    template <class T>
    static void block_row(const T* row, I out[8]) {
        Avx2::I lo[8], hi[8];
        Avx2::block_row(row, lo);
        Avx2::block_row(row + 8 * kStep, hi);
        for (int j = 0; j < 8; ++j)
            out[j] = _mm512_inserti64x4(_mm512_castsi256_si512(lo[j]), hi[j], 1);
    }
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
    using psnr_hvs::simd::plane;
    return bpc > 8 ? plane<Avx512, Avx2, std::uint16_t>(ref, ref_stride, dis, dis_stride, w, h, bpc,
                                                        csf)
                   : plane<Avx512, Avx2, std::uint8_t>(ref, ref_stride, dis, dis_stride, w, h, bpc,
                                                       csf);
}

}  // namespace

void psnr_hvs_init_avx512(PsnrHvsKernels& k) { k.plane = plane_avx512; }

}  // namespace vmafpp::psnr_hvs
