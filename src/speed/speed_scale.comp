// Device twin of SpEED's bicubic and lanczos4 prescales (speed_gsm.cpp's
// scale_with with bicubic_at or lanczos_at) of the float picture
// speed_picture.comp made (method 0). Where an output sample reads and with
// which weight depends only on the sizes: the host computes, per output
// column and row, the mirrored source indices and the one-dimensional
// weights with the scalar's own functions (speed::bicubic_taps,
// lanczos_taps: the coordinate is a double expression narrowed to float,
// lanczos' weight a double expression narrowed to float), so the shader
// computes no weight and declares no Float64. What it computes is float:
// weight = wx * wy, then value += sample * weight (and, for lanczos,
// weight_sum += weight first), rows outer and columns inner as the scalar's
// loops; Vulkan rounds OpFMul and OpFAdd correctly and `precise` forbids
// fusing or reordering them, so each is the scalar's float. lanczos_at's
// final value / weight_sum is not left to OpFDiv (2.5 ULP in Vulkan): it is
// speed_divide_bits (speed_shared.h), the correctly rounded quotient in
// integers, proven there.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_GOOGLE_include_directive : require
#include "speed_shared.h"

layout(local_size_x = 64) in;

// The picture, rows w floats apart.
layout(std430, binding = 0) readonly buffer In { float src[]; };
// Per output column / row, 2 * kMaxKernelTaps words: the taps' source
// indices, then their weights' float bits.
layout(std430, binding = 1) readonly buffer Cols { int col_tab[]; };
layout(std430, binding = 2) readonly buffer Rows { int row_tab[]; };
layout(std430, binding = 3) writeonly buffer Out { float dst[]; };

layout(push_constant) uniform Push { SpeedScalePush p; };

const int kTapWords = 18;  // 2 * speed::kMaxKernelTaps
const int kWeights = 9;

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    if (x >= p.sw || y >= p.sh) return;
    const int cx = kTapWords * x, cy = kTapWords * y;
    precise float value = 0.0;
    precise float weight_sum = 0.0;
    for (int j = 0; j < p.taps; ++j) {
        const int row = row_tab[cy + j] * p.w;
        const float wy = intBitsToFloat(row_tab[cy + kWeights + j]);
        for (int i = 0; i < p.taps; ++i) {
            const float wx = intBitsToFloat(col_tab[cx + kWeights + i]);
            precise float weight = wx * wy;
            weight_sum = weight_sum + weight;
            precise float term = src[row + col_tab[cx + i]] * weight;
            value = value + term;
        }
    }
    if (p.divide != 0)
        value = uintBitsToFloat(speed_divide_bits(floatBitsToUint(value), floatBitsToUint(weight_sum)));
    dst[y * p.sw + x] = value;
}
