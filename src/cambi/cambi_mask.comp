// Device twin of cambi's spatial_mask (cambi_scalar.cpp): mask = 1 where
// more than `threshold` pixels of the 7x7 window around (x, y), clipped to
// the picture, are flat (equal to their right and lower neighbours; the
// last column compares only below, the last row with itself below).
// Integer counts: any order gives the scalar's.
#version 450

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Image { uint image[]; };
layout(std430, binding = 1) writeonly buffer Mask { uint mask[]; };

layout(push_constant) uniform Params {
    int w;
    int h;
    int stride;
    int threshold;
} p;

uint flat_at(int x, int y) {
    const int i = y * p.stride + x;
    const int below = y == p.h - 1 ? i : i + p.stride;
    if (x == p.w - 1) return image[i] == image[below] ? 1u : 0u;
    return image[i] == image[i + 1] && image[i] == image[below] ? 1u : 0u;
}

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    if (x >= p.w || y >= p.h) return;
    uint count = 0u;
    for (int yy = max(y - 3, 0); yy <= min(y + 3, p.h - 1); ++yy)
        for (int xx = max(x - 3, 0); xx <= min(x + 3, p.w - 1); ++xx) count += flat_at(xx, yy);
    mask[y * p.stride + x] = count > uint(p.threshold) ? 1u : 0u;
}
