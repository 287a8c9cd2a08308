// Device twin of cambi's to_10_bits (cambi.cpp) and load_u8: each sample of
// the w x h picture CAMBI scores is the input sample at (col[x], row[y]) (the
// nearest-resize positions, stepped in float by the host with the scalar's
// loop; the identity when the sizes agree) converted to 10 bits:
// (v + 2^(down-1)) >> down above 10 bits, v << up below. Integers only.
// Also finds, over the whole input, the first sample in raster order above
// the bit depth's maximum (atomicMin of its index), which the host reports
// as the scalar does.
#version 450

layout(local_size_x = 64) in;

// The input plane, rows in_w samples apart, packed 4 (8-bit) or 2 (16-bit)
// samples per word.
layout(std430, binding = 0) readonly buffer In { uint src[]; };
layout(std430, binding = 1) readonly buffer Cols { int col_tab[]; };
layout(std430, binding = 2) readonly buffer Rows { int row_tab[]; };
layout(std430, binding = 3) writeonly buffer Out { uint image[]; };
layout(std430, binding = 4) buffer FirstBad { uint first_bad; };

layout(push_constant) uniform Params {
    int in_w;
    int in_h;
    int w;       // the output size
    int h;
    int stride;  // of the output, in samples
    int bpc;
    int check;   // 1: look for samples above (1 << bpc) - 1
    int unused;
} p;

uint sample_at(int i) {
    if (p.bpc == 8) return (src[i >> 2] >> (8 * (i & 3))) & 0xffu;
    return (src[i >> 1] >> (16 * (i & 1))) & 0xffffu;
}

uint to_10_bits(uint v) {
    const int down = p.bpc > 10 ? p.bpc - 10 : 0;
    const int up = p.bpc < 10 ? 10 - p.bpc : 0;
    if (down > 0) return (v + (1u << (down - 1))) >> down;
    return v << up;
}

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    // The check covers every input sample (the grid spans the larger of
    // the two sizes).
    if (p.check != 0 && x < p.in_w && y < p.in_h) {
        const int i = y * p.in_w + x;
        if (sample_at(i) > (1u << p.bpc) - 1u) atomicMin(first_bad, uint(i));
    }
    if (x >= p.w || y >= p.h) return;
    image[y * p.stride + x] = to_10_bits(sample_at(row_tab[y] * p.in_w + col_tab[x]));
}
