// Device twin of motion_sad_u8 / motion_sad_u16 (motion_kernels_scalar.cpp):
// one invocation per output sample computes the vertical pass of prev - cur
// at the five columns around it (mirrored), the horizontal pass and its
// absolute value; the workgroup adds its values in uint32 and adds the sum
// to its row's uint32 total with one atomic. uint32 addition wraps and is
// associative and commutative, so the row total is the scalar's per-row
// uint32 sum whatever the order; the host adds the rows in uint64.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_GOOGLE_include_directive : require
#include "motion_shared.h"

layout(local_size_x = 64) in;

// prev and cur (each from sample 0 of its buffer: a frame store slot holds
// the frame's reference there), rows w samples apart, packed 4 (8-bit) or 2
// (16-bit) samples per word.
layout(std430, binding = 0) readonly buffer Prev { uint prev_pics[]; };
layout(std430, binding = 1) readonly buffer Cur { uint cur_pics[]; };
layout(std430, binding = 2) buffer RowSums { uint row_sum[]; };

layout(push_constant) uniform Push { MotionPush p; };

shared uint partial[64];

int prev_at(int i) {
    if (p.bpc == 8) return int((prev_pics[i >> 2] >> (8 * (i & 3))) & 0xffu);
    return int((prev_pics[i >> 1] >> (16 * (i & 1))) & 0xffffu);
}

int cur_at(int i) {
    if (p.bpc == 8) return int((cur_pics[i >> 2] >> (8 * (i & 3))) & 0xffu);
    return int((cur_pics[i >> 1] >> (16 * (i & 1))) & 0xffffu);
}

// Sample -k is k, sample n-1+k is n-1-k.
int mirror(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

// The vertical pass of prev - cur at column x of output row y.
int vertical(int x, int y) {
    if (p.bpc == 8) {
        int acc = 0;
        for (int k = 0; k < 5; ++k) {
            const int at = mirror(y - 2 + k, p.h) * p.w + x;
            acc += motion_tap(k) * (prev_at(at) - cur_at(at));
        }
        return motion_vertical_round_u8(acc);
    }
    int64_t acc = 0;
    for (int k = 0; k < 5; ++k) {
        const int at = mirror(y - 2 + k, p.h) * p.w + x;
        acc += int64_t(motion_tap(k)) * int64_t(prev_at(at) - cur_at(at));
    }
    return motion_vertical_round(acc, p.bpc);
}

void main() {
    const int x = int(gl_GlobalInvocationID.x);
    const int y = int(gl_WorkGroupID.y);
    uint value = 0u;
    if (x < p.w) {
        int64_t acc = 0;
        for (int k = 0; k < 5; ++k)
            acc += int64_t(motion_tap(k)) * int64_t(vertical(mirror(x - 2 + k, p.w), y));
        value = motion_abs_filtered(acc);
    }
    const uint lane = gl_LocalInvocationID.x;
    partial[lane] = value;
    barrier();
    for (uint half_n = 32u; half_n > 0u; half_n >>= 1) {
        if (lane < half_n) partial[lane] += partial[lane + half_n];
        barrier();
    }
    if (lane == 0u) atomicAdd(row_sum[y], partial[0]);
}
