// The gain-limit product of adm_shared.h over a buffer of samples,
// for the test that checks it on the device against (int64_t)((double)rst
// * gain) (tests/unit/vulkan_gain_limit_test.cpp).
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "adm_shared.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Rst { int rst[]; };
layout(std430, binding = 1) writeonly buffer Out { int64_t products[]; };

layout(push_constant) uniform Push { AdmGainPush p; };

void main() {
    const int i = int(gl_GlobalInvocationID.x);
    if (i >= p.n) return;
    products[i] = adm_gain_limit_product(rst[i], (uint64_t(p.m_hi) << 32) | p.m_lo, p.s);
}
