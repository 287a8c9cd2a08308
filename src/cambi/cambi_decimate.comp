// Device twin of cambi's decimate (cambi_scalar.cpp) on the picture and its
// mask at once: out[y][x] = in[2y][2x] for the new w x h. The scalar works
// in place, reading only positions it has not written; out of place here.
#version 450

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer ImageIn { uint image_in[]; };
layout(std430, binding = 1) readonly buffer MaskIn { uint mask_in[]; };
layout(std430, binding = 2) writeonly buffer ImageOut { uint image_out[]; };
layout(std430, binding = 3) writeonly buffer MaskOut { uint mask_out[]; };

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
    const int from = 2 * y * p.stride + 2 * x;
    image_out[y * p.stride + x] = image_in[from];
    mask_out[y * p.stride + x] = mask_in[from];
}
