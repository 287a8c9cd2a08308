// Device twin of SpEED's float picture (Gsm::prepare's source): libvmaf's
// picture_copy float of plane a (float(v) + -128 at 8 bits, float(v) /
// 2^(bpc-8) + -128 above), minus that of plane b for speed_temporal's
// difference, then, when speed_prescale changes the size, the scalar's
// nearest or bilinear sample of it (float_vif::scale_nearest,
// scale_bilinear). The coordinates (source columns and rows and the
// bilinear fractions) depend only on the sizes: the host computes them once
// with the scalar's own expressions (double then float) into the tables, so
// the shader does only float additions, subtractions and multiplications.
// Vulkan rounds those correctly; `precise` forbids fusing or reordering
// them, so every value is the scalar's float. Division by 2^(bpc-8) is a
// multiplication by its exact reciprocal (both are exact). No float64.
#version 450

layout(local_size_x = 64) in;

// Rows w samples apart, packed 4 (8-bit) or 2 (16-bit) samples per word.
layout(std430, binding = 0) readonly buffer A { uint a_pics[]; };
layout(std430, binding = 1) readonly buffer B { uint b_pics[]; };
// Per output column / row: first source index, second source index, and
// the bilinear fraction's float bits.
layout(std430, binding = 2) readonly buffer Cols { int col_tab[]; };
layout(std430, binding = 3) readonly buffer Rows { int row_tab[]; };
layout(std430, binding = 4) writeonly buffer Out { float pic[]; };

layout(push_constant) uniform Params {
    int w;       // source plane
    int h;
    int sw;      // output (the scaled size; w x h for method 0)
    int sh;
    int bpc;
    int has_b;   // 1: a - b
    int method;  // 0: the plane itself, 1: nearest, 2: bilinear
    int unused;
} p;

uint word_sample(uint word, int i, int bytes) {
    return bytes == 1 ? (word >> (8 * (i & 3))) & 0xffu : (word >> (16 * (i & 1))) & 0xffffu;
}

// picture_copy's float of one sample.
float to_float(uint v) {
    precise float f = float(v);
    if (p.bpc == 8) {
        precise float r = f + -128.0;
        return r;
    }
    // 2^-(bpc-8), exact.
    const float inv = uintBitsToFloat(uint(127 + 8 - p.bpc) << 23);
    precise float r = f * inv + -128.0;
    return r;
}

float value_at(int x, int y) {
    const int i = y * p.w + x;
    const int bytes = p.bpc == 8 ? 1 : 2;
    const int word = bytes == 1 ? i >> 2 : i >> 1;
    precise float v = to_float(word_sample(a_pics[word], i, bytes));
    if (p.has_b != 0) {
        precise float d = v - to_float(word_sample(b_pics[word], i, bytes));
        return d;
    }
    return v;
}

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    if (x >= p.sw) return;
    precise float out_v;
    if (p.method == 0) {
        out_v = value_at(x, y);
    } else if (p.method == 1) {
        out_v = value_at(col_tab[3 * x], row_tab[3 * y]);
    } else {
        const int x1 = col_tab[3 * x], x2 = col_tab[3 * x + 1];
        const int y1 = row_tab[3 * y], y2 = row_tab[3 * y + 1];
        const float dx = intBitsToFloat(col_tab[3 * x + 2]);
        const float dy = intBitsToFloat(row_tab[3 * y + 2]);
        // Weights multiplied first, the four terms added left to right.
        precise float ex = 1.0 - dx;
        precise float ey = 1.0 - dy;
        precise float t0 = ey * ex * value_at(x1, y1);
        precise float t1 = ey * dx * value_at(x2, y1);
        precise float t2 = dy * ex * value_at(x1, y2);
        precise float t3 = dy * dx * value_at(x2, y2);
        out_v = t0 + t1 + t2 + t3;
    }
    pic[y * p.sw + x] = out_v;
}
