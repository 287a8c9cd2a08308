// The kernel contract of libvmaf's ciede extractor: the CIEDE2000 colour
// difference of every pixel, from 4:4:4 Y'CbCr samples through BT.709 R'G'B',
// linear RGB, XYZ (D65) and CIELAB, in libvmaf's mix of float and double.
#pragma once

#include <cstdint>

#include "vmafpp/cpu.hpp"

namespace vmafpp {

namespace ciede {

struct Lab {
    float l = 0.0f;
    float a = 0.0f;
    float b = 0.0f;
};

// One limited-range Y'CbCr sample of bit depth bpc to CIELAB. All in
// double: y' = (y - 16 s) * (1 / (219 s)), cb, cr likewise around 128 s with
// 224 s (s = 2^(bpc-8)); BT.709 R'G'B'; the sRGB curve (threshold 10/255,
// pow(., 2.4)); XYZ; each of X/Xn, Y, Z/Zn through the CIELAB f (cube root by
// pow(., 1/3) above 216/24389) and rounded to float there; L, a, b rounded
// to float.
Lab lab_from_yuv(double y, double u, double v, int bpc);

// CIEDE2000 with kL = 0.65, kC = 1, kH = 4: every intermediate a float,
// computed in double where libvmaf's C promotes (sqrt, pow, trigonometry,
// double constants), in libvmaf's order.
float delta_e_2000(const Lab& c1, const Lab& c2);

}  // namespace ciede

// delta_e_2000 of each pixel of one row: ref[k] and dis[k] are the Y, U and
// V samples (k = 0, 1, 2) of w pixels at full resolution (chroma already
// expanded), of bit depth bpc (8, 10, 12 or 16); writes w floats.
using CiedeRowFn = void (*)(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3],
                            int w, int bpc, float* out);

struct CiedeKernels {
    CiedeRowFn row = nullptr;
};

const CiedeKernels& ciede_kernels_scalar();
// The table for a SIMD level (the kernel-table ladder; no twins yet, so
// every level has the scalar kernel).
const CiedeKernels& ciede_kernels_for(SimdLevel level);

}  // namespace vmafpp
