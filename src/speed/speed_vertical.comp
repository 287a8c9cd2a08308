// The vertical pass of SpEED's blurs (speed_gsm.cpp's blur_decimate16 and
// float_vif::blur): out[i][j] = float sum over taps k, from 0, k ascending,
// of f[k] * in[reflect(step * i - r + k, h)][j], for rows i < rows (step 16:
// the rows the decimation keeps; step 1: every row). `precise`: no fused
// multiply-add, no reordering, so each sum is the scalar's float. No float64.
#version 450

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) readonly buffer Filter { float f[]; };
layout(std430, binding = 2) writeonly buffer Out { float dst[]; };

layout(push_constant) uniform Params {
    int w;
    int h;
    int rows;
    int step_;
    int fw;
    int unused0, unused1, unused2;
} p;

// float_vif::reflect: -k is k, n - 1 + k is n - 1 - k.
int reflect_at(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 2 : k); }

void main() {
    const int j = int(gl_GlobalInvocationID.x);
    const int i = int(gl_WorkGroupID.y);
    if (j >= p.w || i >= p.rows) return;
    const int r = p.fw / 2;
    precise float acc = 0.0;
    for (int k = 0; k < p.fw; ++k) {
        const int y = reflect_at(p.step_ * i - r + k, p.h);
        precise float term = f[k] * src[y * p.w + j];
        acc = acc + term;
    }
    dst[i * p.w + j] = acc;
}
