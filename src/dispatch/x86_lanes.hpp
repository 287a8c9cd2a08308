// The plain lane operations of a generic twin's vector struct on x86,
// written once for every width. Inside a struct,
// VMAFPP_X86_FLOAT_LANES(lanes, FT, PF, fname) declares kLanes and the float
// vector F = FT with its operations (below), and
// VMAFPP_X86_LANES(lanes, FT, PF, fname, DT, PD, dname) declares kLanes, the
// float vector F = FT and the double vector D = DT of as many lanes, and
// defines fname##set, load, store, add, sub, mul, div of F over the
// intrinsics whose names begin with PF (_mm, _mm256), dname##set, load,
// store, add, sub, mul, div, sqrt of D over PD (_mm256, _mm512), widen (F to
// D) and narrow (D to F); VMAFPP_X86_DOUBLE_LANES(DT, PD, dname) declares
// D and its operations alone. So each ISA file writes only the operations whose
// instructions differ between widths (compares, masks). Float loads and
// stores are unaligned, double ones aligned (the twins keep doubles in their
// own alignas buffers). Each is one IEEE operation, rounded as the scalar's
// C expression is; widen is exact and narrow rounds to nearest, as a C cast.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#define VMAFPP_X86_BINARY(T, op, intrinsic) \
    static T op(T a, T b) { return intrinsic(a, b); }

// Floats only: kLanes, F and its operations.
#define VMAFPP_X86_FLOAT_LANES(lanes, FT, PF, fname)                                            \
    static constexpr int kLanes = lanes;                                                        \
    using F = FT;                                                                               \
    static F fname##set(float v) { return PF##_set1_ps(v); }                                    \
    static F fname##load(const float* p) { return PF##_loadu_ps(p); }                           \
    static void fname##store(float* p, F v) { PF##_storeu_ps(p, v); }                           \
    VMAFPP_X86_BINARY(F, fname##add, PF##_add_ps) VMAFPP_X86_BINARY(F, fname##sub, PF##_sub_ps) \
    VMAFPP_X86_BINARY(F, fname##mul, PF##_mul_ps) VMAFPP_X86_BINARY(F, fname##div, PF##_div_ps)

// Doubles only: D = DT and its operations, for a struct whose float vector
// has another lane count (SpEED's covariance: doubles of a float row).
#define VMAFPP_X86_DOUBLE_LANES(DT, PD, dname)                                                  \
    using D = DT;                                                                               \
    static D dname##set(double v) { return PD##_set1_pd(v); }                                   \
    static D dname##load(const double* p) { return PD##_load_pd(p); }                           \
    static void dname##store(double* p, D v) { PD##_store_pd(p, v); }                           \
    VMAFPP_X86_BINARY(D, dname##add, PD##_add_pd) VMAFPP_X86_BINARY(D, dname##sub, PD##_sub_pd) \
    VMAFPP_X86_BINARY(D, dname##mul, PD##_mul_pd) VMAFPP_X86_BINARY(D, dname##div, PD##_div_pd) \
    static D dname##sqrt(D a) { return PD##_sqrt_pd(a); }

#define VMAFPP_X86_LANES(lanes, FT, PF, fname, DT, PD, dname)                                   \
    VMAFPP_X86_FLOAT_LANES(lanes, FT, PF, fname)                                                \
    VMAFPP_X86_DOUBLE_LANES(DT, PD, dname)                                                      \
    static D widen(F v) { return PD##_cvtps_pd(v); }                                            \
    static F narrow(D v) { return PD##_cvtpd_ps(v); }

// neg, abs and copysign of the double vector D by its sign bit, over the
// intrinsics whose names begin with PD (_mm256, _mm512): exact, as the
// scalar's -x, fabs and copysign.
#define VMAFPP_X86_DOUBLE_SIGNS(PD)                                                  \
    static D neg(D a) { return PD##_xor_pd(a, PD##_set1_pd(-0.0)); }                 \
    static D abs(D a) { return PD##_andnot_pd(PD##_set1_pd(-0.0), a); }              \
    static D copysign(D mag, D sign) {                                               \
        return PD##_or_pd(PD##_andnot_pd(PD##_set1_pd(-0.0), mag),                   \
                          PD##_and_pd(PD##_set1_pd(-0.0), sign));                    \
    }

// Integer lanes: I = IT with load_i, store_i (unaligned), set_i32, set_i16,
// add_i32, sub_i32, add_i16, mullo_i32 (the low 32 bits of the product),
// madd_i16 (pairs of int16 products added in int32), and_i, or_i, xor_i,
// abs_i32, sar_i32 / shl_i32 / shr_i32 (arithmetic, left, logical shift of
// the int32 lanes by n) and shl_i32_by / shr_i32_by (by the count in an
// xmm), over PI (_mm256, _mm512); SI names the whole register (si256,
// si512). VMAFPP_X86_INT_FLOAT adds to_float (int32 to float, rounded as a
// C cast) for a struct whose F has as many lanes.
#define VMAFPP_X86_INT_LANES(IT, PI, SI)                                                         \
    using I = IT;                                                                                \
    static I load_i(const void* p) { return PI##_loadu_##SI(static_cast<const I*>(p)); }         \
    static void store_i(void* p, I v) { PI##_storeu_##SI(static_cast<I*>(p), v); }              \
    static I set_i32(std::int32_t v) { return PI##_set1_epi32(v); }                             \
    static I set_i16(std::int16_t v) { return PI##_set1_epi16(v); }                             \
    VMAFPP_X86_BINARY(I, add_i32, PI##_add_epi32) VMAFPP_X86_BINARY(I, sub_i32, PI##_sub_epi32)  \
    VMAFPP_X86_BINARY(I, add_i16, PI##_add_epi16) VMAFPP_X86_BINARY(I, madd_i16, PI##_madd_epi16) \
    VMAFPP_X86_BINARY(I, mullo_i32, PI##_mullo_epi32) VMAFPP_X86_BINARY(I, and_i, PI##_and_##SI) \
    VMAFPP_X86_BINARY(I, or_i, PI##_or_##SI) VMAFPP_X86_BINARY(I, xor_i, PI##_xor_##SI)          \
    static I abs_i32(I a) { return PI##_abs_epi32(a); }                                          \
    static I sar_i32(I a, int n) { return PI##_srai_epi32(a, n); }                               \
    static I shl_i32(I a, int n) { return PI##_slli_epi32(a, n); }                               \
    static I shr_i32(I a, int n) { return PI##_srli_epi32(a, n); }                               \
    static I shl_i32_by(I a, __m128i n) { return PI##_sll_epi32(a, n); }                         \
    static I shr_i32_by(I a, __m128i n) { return PI##_srl_epi32(a, n); }

#define VMAFPP_X86_INT_FLOAT(PI) \
    static F to_float(I a) { return PI##_cvtepi32_ps(a); }

namespace vmafpp {
// Internal linkage: each ISA file compiles its own copy with its own flags.
namespace {

// The AVX2 twins' row tails: columns [j, j + n) of the first `rows` row
// pointers of two pictures (a: reference or previous, b: distorted or
// current), copied into zero-filled rows of kLanes samples that a_ptr and
// b_ptr point at, so that one more vector step can run on them without
// reading past the real rows.
template <class T, int kLanes, int kRows>
struct TailRows {
    TailRows(const T* const* a_rows, const T* const* b_rows, int rows, std::ptrdiff_t j, int n) {
        for (int t = 0; t < rows; ++t) {
            std::memcpy(a[t], a_rows[t] + j, n * sizeof(T));
            std::memcpy(b[t], b_rows[t] + j, n * sizeof(T));
            a_ptr[t] = a[t];
            b_ptr[t] = b[t];
        }
    }
    T a[kRows][kLanes] = {};
    T b[kRows][kLanes] = {};
    const T* a_ptr[kRows] = {};
    const T* b_ptr[kRows] = {};
};

}  // namespace
}  // namespace vmafpp
