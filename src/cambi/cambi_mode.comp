// Device twin of cambi's 3x3 mode filter (cambi_mode_loop.hpp): rows 1..h-2
// become the mode of three, down the column, of the rows' modes of three
// across (first and last column kept across); the first and last rows are
// kept. mode3 is the value two share, else the smallest. The scalar
// filters in place through a ring of three lines, which reads only
// unfiltered rows: each output is a function of the input. Integers.
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

uint mode3(uint a, uint b, uint c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    if (a <= b && a <= c) return a;
    return b <= c ? b : c;
}

// The row's mode across at x (the ends kept).
uint across(int x, int y) {
    const int i = y * p.stride + x;
    if (x == 0 || x == p.w - 1) return src[i];
    return mode3(src[i - 1], src[i], src[i + 1]);
}

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    if (x >= p.w || y >= p.h) return;
    const int i = y * p.stride + x;
    if (y == 0 || y == p.h - 1)
        dst[i] = src[i];
    else
        dst[i] = mode3(across(x, y - 1), across(x, y), across(x, y + 1));
}
