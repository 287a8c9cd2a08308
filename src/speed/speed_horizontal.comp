// The horizontal pass of SpEED's blurs: out[i][o] = float sum over taps k,
// from 0, k ascending, of f[k] * in[i][reflect(step * o - r + k, w)] for
// o < n (the scalar's row padded by reflection, pad_row), and with
// `subtract` minuend[i][o] minus that sum (Gsm::prepare's picture minus its
// local mean). `precise`: the scalar's float operations, in its order.
#version 450

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) readonly buffer Filter { float f[]; };
layout(std430, binding = 2) readonly buffer Minuend { float minuend[]; };
layout(std430, binding = 3) writeonly buffer Out { float dst[]; };

layout(push_constant) uniform Params {
    int w;
    int rows;
    int n;
    int step_;
    int fw;
    int subtract;
    int unused0, unused1;
} p;

int reflect_at(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 2 : k); }

void main() {
    const int o = int(gl_GlobalInvocationID.x);
    const int i = int(gl_WorkGroupID.y);
    if (o >= p.n || i >= p.rows) return;
    const int r = p.fw / 2;
    precise float acc = 0.0;
    for (int k = 0; k < p.fw; ++k) {
        precise float term = f[k] * src[i * p.w + reflect_at(p.step_ * o - r + k, p.w)];
        acc = acc + term;
    }
    if (p.subtract != 0) {
        precise float d = minuend[i * p.n + o] - acc;
        dst[i * p.n + o] = d;
    } else {
        dst[i * p.n + o] = acc;
    }
}
