// Device twin of cambi's c-values (cambi_c_values_loop.hpp, c_value_pixel).
// One invocation per column x walks the rows as libvmaf's
// calculate_c_values does: rows [0, pad) enter first, then for row y row
// y + pad enters and row y - pad - 1 leaves, and row y's pixel is scored.
// The invocation keeps only its own column of the histograms: hist[v][x]
// counts the masked pixels of value v (in the band) in columns
// [x - pad, x + pad] of the rows in the window, exactly the cells the
// scalar's +1/-1 updates leave there (integer counts: any order).
//
// The c-value: the largest over d of weight[d] * p0 * p / (p0 + p) as
// libvmaf computes it, float(weight * p0 * p) * recip[p + p0]. The integer
// product is exact in int32 (at most 9 * 4225^2 < 2^31); its conversion to
// float is done in integers, rounded to nearest-even to 24 significant bits
// (what the C conversion does), so no conversion precision rule of the
// device is relied on; the one binary32 multiplication is correctly rounded
// in Vulkan (OpFMul) and `precise` keeps it unfused. No float64.
//
// The walk is split over dispatches (the histograms stay in `hist`, each
// column owned by its invocation): `first` zeroes the column and counts
// rows [0, pad); then each dispatch scores rows [y0, y1). lavapipe ends a
// loop nest after 65535 iterations in all (llvmpipe's loop limiter), so no
// dispatch may run a whole picture's rows; the host keeps every dispatch's
// iterations well below that.
#version 450

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Image { uint image[]; };
layout(std430, binding = 1) readonly buffer Mask { uint mask[]; };
layout(std430, binding = 2) buffer Hist { uint hist[]; };
// tvi[d] (num_diffs), then weight[d] (num_diffs).
layout(std430, binding = 3) readonly buffer Setup { int setup[]; };
layout(std430, binding = 4) readonly buffer Recip { float recip[]; };
layout(std430, binding = 5) writeonly buffer CValues { float c_values[]; };

layout(push_constant) uniform Params {
    int w;
    int h;
    int stride;      // of image and mask
    int pad;         // window >> 1
    int band_base;
    int band_size;   // hist holds band_size + num_diffs + 1 rows of w
    int num_diffs;
    int vlt_luma;
    int first;       // 1: zero the column and count rows [0, pad)
    int y0, y1;      // else score rows [y0, y1)
    int unused;
} p;

// The histogram row of a masked pixel in the band, or -1.
int row_of(int i) {
    if (mask[i] == 0u) return -1;
    const uint compact = (image[i] - uint(p.band_base)) & 0xffffu;
    return compact < uint(p.band_size) ? int(compact) : -1;
}

// Counts picture row r's pixels of columns [x - pad, x + pad] into (+1) or
// out of (-1) column x.
void update(int x, int r, int delta) {
    const int base = r * p.stride;
    for (int xx = max(x - p.pad, 0); xx <= min(x + p.pad, p.w - 1); ++xx) {
        const int v = row_of(base + xx);
        if (v >= 0) hist[v * p.w + x] = uint(int(hist[v * p.w + x]) + delta);
    }
}

// float(n) for 0 <= n < 2^31, rounded to nearest-even in integers.
float to_float_rn(int n) {
    if (n < (1 << 24)) return float(n);  // exact
    const int shift = findMSB(n) - 23;   // 1 .. 7
    uint q = uint(n) >> shift;
    const uint r = uint(n) & ((1u << shift) - 1u);
    const uint half_ = 1u << (shift - 1);
    if (r > half_ || (r == half_ && (q & 1u) == 1u)) q += 1u;  // q <= 2^24: exact below
    precise float f = float(q) * uintBitsToFloat(uint(127 + shift) << 23);
    return f;
}

float c_value(int x, int i) {
    const int v = int(image[i]) + p.num_diffs;
    const int compact = v - (p.band_base + p.num_diffs);
    if (compact < 0 || compact >= p.band_size) return 0.0;
    const int p0 = int(hist[compact * p.w + x]);
    float c = 0.0;
    for (int d = 0; d < p.num_diffs; ++d) {
        if (v > setup[d] || v + d + 1 <= p.vlt_luma) continue;
        const int up = compact + d + 1, down = compact - d - 1;
        const int p1 = int(hist[up * p.w + x]);
        const int p2 = down >= 0 ? int(hist[down * p.w + x]) : 0;
        const int q = p1 > p2 ? p1 : p2;
        precise float val = to_float_rn(setup[p.num_diffs + d] * p0 * q) * recip[q + p0];
        if (val > c) c = val;
    }
    return c;
}

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    if (x >= p.w) return;
    if (p.first != 0) {
        const int rows = p.band_size + p.num_diffs + 1;
        for (int v = 0; v < rows; ++v) hist[v * p.w + x] = 0u;
        for (int y = 0; y < p.pad && y < p.h; ++y) update(x, y, 1);
        return;
    }
    for (int y = p.y0; y < p.y1; ++y) {
        if (y - p.pad - 1 >= 0) update(x, y - p.pad - 1, -1);
        if (y + p.pad < p.h) update(x, y + p.pad, 1);
        const int i = y * p.stride + x;
        c_values[y * p.w + x] = mask[i] != 0u ? c_value(x, i) : 0.0;
    }
}
