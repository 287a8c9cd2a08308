// Device twin of cambi's anti_dither (cambi_scalar.cpp). The scalar works in
// place left to right, top to bottom, but reads only samples to the right
// and below, which it has not written yet: each output is a function of the
// input alone. Inside (a + b + c + d) >> 2 of the 2x2 block, the last column
// (a + c) >> 1, the last row (a + b) >> 1, the last sample kept. Integers.
#version 450

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { uint src[]; };
layout(std430, binding = 1) writeonly buffer Out { uint dst[]; };

layout(push_constant) uniform Params {
    int w;
    int h;
    int stride;
    int unused;
} p;

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    if (x >= p.w || y >= p.h) return;
    const int i = y * p.stride + x;
    const bool last_x = x == p.w - 1, last_y = y == p.h - 1;
    uint v;
    if (!last_x && !last_y)
        v = (src[i] + src[i + 1] + src[i + p.stride] + src[i + p.stride + 1]) >> 2;
    else if (!last_y)
        v = (src[i] + src[i + p.stride]) >> 1;
    else if (!last_x)
        v = (src[i] + src[i + 1]) >> 1;
    else
        v = src[i];
    dst[i] = v & 0xffffu;
}
