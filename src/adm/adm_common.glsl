// Shared by the integer ADM shaders (the scalar twins are in adm_scalar.cpp).

// adm_kernels.hpp reflect_index(): -1 -> 1, n -> n - 1, n + 1 -> n - 2.
int adm_reflect(int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - 1 - k : k); }

// int16 narrowing modulo 2^16.
int adm_int16(int v) { return (v << 16) >> 16; }

// |v| as uint32 (|INT32_MIN| = 2^31).
uint adm_magnitude(int v) { return v < 0 ? 0u - uint(v) : uint(v); }

// 0 for a zero shift, else 2^(shift - 1).
int64_t adm_round_term(int shift) { return shift > 0 ? int64_t(1) << (shift - 1) : int64_t(0); }

// Packed picture samples: 0 bytes, 1 uint16, 2 one int32 per word.
#define ADM_LOAD(buf, kind, i) \
    ((kind) == 0 ? int((buf[(i) >> 2] >> (8 * ((i) & 3))) & 0xffu) \
                 : ((kind) == 1 ? int((buf[(i) >> 1] >> (16 * ((i) & 1))) & 0xffffu) : int(buf[(i)])))
