// AVX2 twin of psnr_hvs's plane kernel: psnr_hvs_simd.hpp over eight int32
// and float lanes, one 8x8 block per lane.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "psnr_hvs/psnr_hvs_avx2_lanes.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"
#include "psnr_hvs/psnr_hvs_simd.hpp"

namespace vmafpp::psnr_hvs {

namespace {

float plane_avx2(const std::uint8_t* ref, std::ptrdiff_t ref_stride, const std::uint8_t* dis,
                 std::ptrdiff_t dis_stride, int w, int h, int bpc, const psnr_hvs::Table8x8& csf) {
    using psnr_hvs::simd::Avx2;
    using psnr_hvs::simd::plane;
    return bpc > 8 ? plane<Avx2, Avx2, std::uint16_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf)
                   : plane<Avx2, Avx2, std::uint8_t>(ref, ref_stride, dis, dis_stride, w, h, bpc, csf);
}

}  // namespace

void psnr_hvs_init_avx2(PsnrHvsKernels& k) { k.plane = plane_avx2; }

}  // namespace vmafpp::psnr_hvs
