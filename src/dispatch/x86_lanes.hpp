// The plain lane operations of a generic twin's vector struct on x86,
// written once for every width. Inside a struct,
// VMAFPP_X86_FLOAT_LANES(lanes, FT, PF, fname) declares kLanes and the float
// vector F = FT with its operations (below), and
// VMAFPP_X86_LANES(lanes, FT, PF, fname, DT, PD, dname) declares kLanes, the
// float vector F = FT and the double vector D = DT of as many lanes, and
// defines fname##set, load, store, add, sub, mul, div of F over the
// intrinsics whose names begin with PF (_mm, _mm256), dname##set, load,
// store, add, sub, mul, div, sqrt of D over PD (_mm256, _mm512), widen (F to
// D) and narrow (D to F); so each ISA file writes only the operations whose
// instructions differ between widths (compares, masks). Float loads and
// stores are unaligned, double ones aligned (the twins keep doubles in their
// own alignas buffers). Each is one IEEE operation, rounded as the scalar's
// C expression is; widen is exact and narrow rounds to nearest, as a C cast.
#pragma once

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

#define VMAFPP_X86_LANES(lanes, FT, PF, fname, DT, PD, dname)                                   \
    VMAFPP_X86_FLOAT_LANES(lanes, FT, PF, fname)                                                \
    using D = DT;                                                                               \
    static D dname##set(double v) { return PD##_set1_pd(v); }                                   \
    static D dname##load(const double* p) { return PD##_load_pd(p); }                           \
    static void dname##store(double* p, D v) { PD##_store_pd(p, v); }                           \
    VMAFPP_X86_BINARY(D, dname##add, PD##_add_pd) VMAFPP_X86_BINARY(D, dname##sub, PD##_sub_pd) \
    VMAFPP_X86_BINARY(D, dname##mul, PD##_mul_pd) VMAFPP_X86_BINARY(D, dname##div, PD##_div_pd) \
    static D dname##sqrt(D a) { return PD##_sqrt_pd(a); }                                       \
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
