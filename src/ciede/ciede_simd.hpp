// The SIMD twins' CIEDE2000 and Y'CbCr-to-Lab conversion (lab_lanes, its
// own proof below), written once over an ISA's double-vector operations V
// (ciede_avx2.cpp: four lanes, ciede_avx512.cpp: eight), as simdjson writes
// its generic code once per implementation.
//
// Why the bits are the scalar's. delta_e_2000 (ciede_scalar.cpp) is IEEE
// float and double arithmetic, which the twins repeat operation for
// operation (a float operation done in double and rounded to float gives the
// float operation's result: double has more than 2 * 24 + 2 bits, so the
// double rounding is innocuous for +, -, *, / and sqrt), plus calls to libm
// (pow, atan2, sin, cos, exp, powf) whose bits are libm's own. The twins
// call powf as the scalar does. For the others they compute their own
// approximations, within 2^-48 of libm's results (relative; absolute for
// cos), the bound checkasm's ciede_libm holds them to (the largest
// difference it sees is under 2^-50). Every libm result reaches the output
// only through one rounding to float, a few double operations later, that
// the scalar performs at one of eight points (the two a', the two hue
// angles, delta H, T, 60 exp(.), R_T). At each point the twin has a double v
// within e = |v| 2^-40 of the scalar's (T: 2^-40 absolute; the error budget,
// at most 2^-47, is spelled out at each point, a margin of 2^7), so where
// float(v - e) == float(v + e) every value the
// scalar may hold rounds to that same float, which is then exact, and so is
// everything computed from it. A lane where some point does not settle
// (about one pixel in 10^4) is recomputed by the scalar delta_e_2000.
// Where v is zero it is the scalar's zero, sign included: each such case
// below is an exact zero factor or argument, which both compute exactly.
#pragma once

#include <cstdint>

#include "ciede/ciede_kernels.hpp"

namespace vmafpp::ciede::simd {
// Everything here has internal linkage, so each ISA file's instances are
// compiled with its own flags and never shared with other code
// (HACKING.md, "Where a loop lives").
namespace {

constexpr double kPi = 3.14159265358979323846;  // M_PI, as the scalar's

constexpr double kSettle = kCiedeSettle;

// Taylor coefficients from 1/first! on: 1/first!, 1/(first+1)!, ... or,
// alternating, -1/first!, +1/(first+2)!, -1/(first+4)!, ... (each factorial
// exact in double up to 18!; the last few are rounded, far below the
// series' own error).
struct Taylor {
    double c[24] = {};
    constexpr Taylor(int first, int n, bool alternate) {
        double f = 1.0;
        for (int i = 2; i <= first; ++i) f *= i;
        for (int j = 0; j < n; ++j) {
            const int m = first + (alternate ? 2 * j : j);
            if (j > 0) {
                if (alternate)
                    f *= static_cast<double>(m - 1) * static_cast<double>(m);
                else
                    f *= m;
            }
            c[j] = (alternate && !(j & 1) ? -1.0 : 1.0) / f;
        }
    }
};

// atan u = u + u z P(z), z = u^2, |u| <= 7/16: fdlibm's minimax
// coefficients (s_atan.c's aT, negated), accurate to well under 2^-52 there.
struct AtanPoly {
    double c[11] = {-3.33333333333329318027e-01, 1.99999999998764832476e-01,
                    -1.42857142725034663711e-01, 1.11111104054623557880e-01,
                    -9.09088713343650656196e-02, 7.69187620504482999495e-02,
                    -6.66107313738753120669e-02, 5.83357013379057348645e-02,
                    -4.97687799461593236017e-02, 3.65315727442169155270e-02,
                    -1.62858201153657823623e-02};
};

// sin r = r + r z (-1/3! + z/5! - ... - z^6/15!), z = r^2, |r| <= pi/4: the
// first omitted term, r^17/17!, is below 2^-54 |r|.
constexpr int kSinTerms = 7;
inline constexpr Taylor kSin(3, kSinTerms, true);
// sin x = x + x z (-1/3! + z/5! - ... + z^8/19!), z = x^2, |x| <= 1.6 (no
// reduction): the first omitted term, x^21/21!, is below 2^-51.9 |x|.
constexpr int kSinWideTerms = 9;
inline constexpr Taylor kSinWide(3, kSinWideTerms, true);
// cos r = 1 + z (-1/2! + z/4! - ... - z^7/16!): omitted r^18/18! < 2^-58.
constexpr int kCosTerms = 8;
inline constexpr Taylor kCos(2, kCosTerms, true);
// exp r = 1 + r (1 + r/2! + ... + r^12/13!), |r| <= ln2/2: omitted
// r^14/14! < 2^-57.
inline constexpr Taylor kExp(1, 13, false);
inline constexpr AtanPoly kAtan;
// fdlibm's ln 2 in two parts: ln2_hi has 32 significant bits.
constexpr double kLn2Hi = 0x1.62e42feep-1, kLn2Lo = 0x1.a39ef35793c76p-33;

// 1/3, 1/5, ..., 1/21: atanh's series after its first term, in z = s^2.
struct AtanhTail {
    double c[10] = {};
    constexpr AtanhTail() {
        for (int j = 0; j < 10; ++j) c[j] = 1.0 / (2 * j + 3);
    }
};
inline constexpr AtanhTail kAtanhTail;

// v rounded to float and back (round to nearest, as a C cast): the
// scalar's float that a double result is stored in.
template <class V>
typename V::D f32(typename V::D v) {
    return V::widen(V::narrow(v));
}

template <class V>
struct Math {
    using D = typename V::D;
    using F = typename V::F;
    using M = typename V::M;

    static D c(double v) { return V::set(v); }

    // coeff[0] + z coeff[1] + ... + z^(N-1) coeff[N-1], each step
    // p z + coeff[i] by V::fma: fused on x86 (one rounding a step instead of
    // two, so the error bounds below, worked out for two, still hold), the
    // product and the sum on NEON.
    template <int N>
    static D horner(D z, const double* coeff) {
        D p = c(coeff[N - 1]);
        for (int i = N - 2; i >= 0; --i) p = V::fma(p, z, c(coeff[i]));
        return p;
    }

    // x = k pi/2 + r: Cody and Waite's reduction with fdlibm's three parts
    // of pi/2 (33, 33 and 33 bits): k P1 and k P2 are exact for |k| < 2^20
    // and x - k P1 is exact (Sterbenz), so r has a relative error near
    // 2^-52 even where it cancels down to 2^-24 (delta H's argument is a
    // float / 2, never closer to a multiple of pi/2 than that).
    struct Quadrant {
        D r, z;
        M odd, negate;  // k odd; k mod 4 in {2, 3}
    };
    static Quadrant reduce(D x) {
        constexpr double p1 = 0x1.921fb544p+0, p2 = 0x1.0b4611a6p-34, p3 = 0x1.3198a2ep-69;
        const D k = V::round(V::mul(x, c(2.0 / kPi)));
        D r = V::sub(x, V::mul(k, c(p1)));
        r = V::sub(r, V::mul(k, c(p2)));
        r = V::sub(r, V::mul(k, c(p3)));
        return {r, V::mul(r, r), V::bit(k, 1), V::bit(k, 2)};
    }
    static D sin_poly(D r, D z) {
        return V::add(r, V::mul(V::mul(r, z), horner<kSinTerms>(z, kSin.c)));
    }
    static D cos_poly(D z) { return V::add(c(1.0), V::mul(z, horner<kCosTerms>(z, kCos.c))); }

    // sin x for |x| <= 1.6 (kSinDomain), the arguments delta_e_2000 passes
    // (dh / 2 with |dh| <= float(pi); R_T's angle, in [0, pi/3]), by one
    // series without a reduction: two thirds of the operations of a
    // reduction and both quadrant polynomials. The series' truncation is
    // below 2^-51.9 |x| and sin x >= 0.62 |x| there. As x (1 + z P): the
    // factor 1 + z P lies in [0.62, 1], its roundings (a few 2^-53 of
    // z P <= 0.43 in the Horner steps, one in the fused last step) are
    // under 2^-51 of it, and the product adds one: within 2^-50 of sin x,
    // relative. sin(+-0) = x (1 + 0) = +-0 exactly, as libm's, with no
    // compare and blend (x + x z P would make -0 +0); 3 operations fewer
    // than x + (x z) P and its zero test.
    // Lanes outside the domain are the caller's to reject (in_sin_domain).
    static D sin(D x) {
        const D z = V::mul(x, x);
        return V::mul(x, V::fma(z, horner<kSinWideTerms>(z, kSinWide.c), c(1.0)));
    }
    static constexpr double kSinDomain = 1.6;
    static M in_sin_domain(D x) { return V::le(V::abs(x), c(kSinDomain)); }
    // cos x and sin x from one reduction, |x| < 2^19.
    static void cos_sin(D x, D& cx, D& sx) {
        const Quadrant q = reduce(x);
        const D sp = sin_poly(q.r, q.z), cp = cos_poly(q.z);
        // k mod 4 = 0, 1, 2, 3: (cos, sin) = (c, s), (-s, c), (-c, -s), (s, -c).
        const D c0 = V::select(q.odd, sp, cp), s0 = V::select(q.odd, cp, sp);
        // The negations by flipping the sign bit where masked (an AND and an
        // XOR, not a negation and a blend).
        cx = V::flip(V::mask_xor(q.odd, q.negate), c0);
        sx = V::flip(q.negate, s0);
    }

    // CIEDE2000's hue weight T(h) in double, before the scalar's rounding to
    // float: 1 - 0.17 cos(h - pi/6) + 0.24 cos 2h + 0.32 cos(3h + pi/30) -
    // 0.20 cos(4h - 7 pi/20), a trigonometric polynomial of degree 4, so
    // T = P(cos h) + sin h Q(cos h) with P of degree 4 and Q of degree 3
    // (cos nh and sin nh / sin h by Chebyshev's polynomials; coefficients
    // below), from one reduction instead of four and nine fused steps
    // instead of the angle sums' 36 operations (ciede alone, 2 frames 1080p
    // at AVX2: 1,607 M -> 1,582 M instructions). The error against the
    // scalar's: cos h and sin h within 2^-52, times the polynomials' slopes
    // (sum k |A_k| = 10.2, sum k |B_k| = 5.3, |Q| <= 2.4): 2^-47.8; the
    // nine roundings of values below 3: 2^-48.8; libm's cosines of the
    // rounded arguments (fl(3h + pi/30), ...) differ from the exact angles'
    // by the arguments' rounding, half an ulp of 4 h + 2 < 2^6, times the
    // weights: 2^-49.5; in all under 2^-46.9 (checkasm's ciede_libm holds
    // T to 2^-46; the settle window is 2^-40).
    struct HueWeightPoly {
        // cos(pi/6), sin(pi/6), cos(pi/30), sin(pi/30), cos(7 pi/20), sin(7 pi/20).
        static constexpr double k1c = 0.86602540378443864676, k1s = 0.5;
        static constexpr double k3c = 0.99452189536827333692, k3s = 0.10452846326765347140;
        static constexpr double k4c = 0.45399049973954679156, k4s = 0.89100652418836786236;
        // cos 2h = 2c^2 - 1, cos 3h = 4c^3 - 3c, cos 4h = 8c^4 - 8c^2 + 1;
        // sin 3h = s (4c^2 - 1), sin 4h = s (8c^3 - 4c).
        static constexpr double a[5] = {1.0 - 0.24 - 0.20 * k4c, -0.17 * k1c - 0.96 * k3c,
                                        0.48 + 1.6 * k4c, 1.28 * k3c, -1.6 * k4c};
        static constexpr double b[4] = {-0.17 * k1s + 0.32 * k3s, 0.8 * k4s, -1.28 * k3s,
                                        -1.6 * k4s};
    };
    static D hue_weight(D h) {
        D ch, sh;
        cos_sin(h, ch, sh);
        const D p = horner<5>(ch, HueWeightPoly::a), q = horner<4>(ch, HueWeightPoly::b);
        return V::fma(sh, q, p);
    }

    // exp x for |x| < 700: x = k ln2 + r with fdlibm's two-part ln 2
    // (k ln2_hi exact for |k| < 2^21), exp x = 2^k exp r.
    static D exp(D x) {
        const D k = V::round(V::mul(x, c(1.0 / 0.69314718055994530942)));
        D r = V::sub(x, V::mul(k, c(kLn2Hi)));
        r = V::sub(r, V::mul(k, c(kLn2Lo)));
        const D e = V::add(c(1.0), V::mul(r, horner<13>(r, kExp.c)));
        return V::mul(e, V::exp2i(k));
    }

    // atan2(y, x) for float y, x not both zero: with s <= b the smaller and
    // larger of |y|, |x|, atan(s / b) directly, or above tan(pi/8) as pi/4 +
    // atan((s - b) / (s + b)) (|u| <= tan(pi/8) either way; s - b and s + b
    // of two floats are exact in double, so u has one rounding); then pi/2 -
    // a where |y| > |x|, pi - a where x < 0, and y's sign. Every result but
    // the first case is at least pi/8, so the constants' roundings stay near
    // 2^-53 relative.
    static D atan2(D y, D x) {
        const D ay = V::abs(y), ax = V::abs(x);
        const M steep = V::gt(ay, ax);
        const D s = V::min(ay, ax), b = V::max(ay, ax);
        const M far = V::gt(s, V::mul(b, c(0.41421356237309503)));
        // s - b over s + b where far, else s - (+0) over b + (+0), which are
        // s and b exactly (and +0 stays +0): ANDs and no blends.
        const D u = V::div(V::sub(s, V::keep(far, b)), V::add(b, V::keep(far, s)));
        const D z = V::mul(u, u);
        D a = V::add(u, V::mul(V::mul(u, z), horner<11>(z, kAtan.c)));
        // pi/4 + a where far (a - (-pi/4)); a - (+0) = a elsewhere.
        a = V::sub(a, V::keep(far, c(-kPi / 4)));
        a = V::select(steep, V::sub(c(kPi / 2), a), a);
        a = V::select(V::lt(x, c(0.0)), V::sub(c(kPi), a), a);
        return V::copysign(a, y);
    }

    // ln x for a positive normal x: x = 2^k m with m in [sqrt(1/2), sqrt(2))
    // (m - 1 then exact, by Sterbenz), ln m = 2 atanh s = 2 s (1 + z/3 + z^2/5
    // + ... + z^10/21), s = (m - 1) / (m + 1), z = s^2 <= 0.0295 (the first
    // omitted term, z^11/23, is below 2^-60); k ln 2 in fdlibm's two parts.
    // s has two roundings (m + 1, the quotient), so ln m is within 2^-51
    // relative, under 2^-52.5 absolute (|ln m| <= 0.347); with the last
    // sum's rounding the result is within 2^-50 absolute for |ln x| < 8.
    static D log(D x) {
        D m, k;
        V::split(x, m, k);
        const M big = V::gt(m, c(1.4142135623730951));
        m = V::select(big, V::mul(m, c(0.5)), m);
        k = V::select(big, V::add(k, c(1.0)), k);
        const D s = V::div(V::sub(m, c(1.0)), V::add(m, c(1.0)));
        const D z = V::mul(s, s);
        const D two_s = V::add(s, s);
        const D ln_m = V::add(two_s, V::mul(two_s, V::mul(z, horner<10>(z, kAtanhTail.c))));
        return V::add(V::mul(k, c(kLn2Hi)), V::add(V::mul(k, c(kLn2Lo)), ln_m));
    }

    // pow(x, y) = exp(y ln x) for a positive normal x and |y ln x| < 8: ln x
    // within 2^-50 absolute, so y ln x within |y| 2^-50 + 2^-50 (its own
    // rounding), which exp turns into a relative error; with exp's own, the
    // result is within 2^-47.5 relative for |y| <= 2.4 (checkasm's
    // ciede_libm holds it to 2^-46).
    static D pow(D x, D y) { return exp(V::mul(y, log(x))); }

    // pow(x, 7) for a float x >= 0: x^2 exact, three more roundings.
    static D pow7(D x) {
        const D x2 = V::mul(x, x);
        return V::mul(V::mul(x2, x2), V::mul(x2, x));
    }

    // v rounded to float where that float is certain for every v' with
    // |v' - v| <= |e| (settled): then v - e, v and v + e round to one float
    // (rounding is monotonic), so narrow(v - e) is narrow(v) and the
    // point's own rounding is not done again; in a lane that does not
    // settle, f is a neighbour and the lane is the scalar's anyway. The two
    // roundings are compared as floats, not widened back to doubles (the
    // same test: widening is exact): 6 operations fewer at each of the
    // delta E's eight points.
    struct Rounded {
        F f;
        M settled;
    };
    static Rounded rounded(D v, D e) {
        const F lo = V::narrow(V::sub(v, e)), hi = V::narrow(V::add(v, e));
        return {lo, V::feq(lo, hi)};
    }
    static M settles(D v, D e) { return rounded(v, e).settled; }
    // The window of most roundings, relative, and T's, absolute. (Tested
    // and left out: at AVX2 a test on the bits of v, its 29 bits below
    // float's more than 2^13 ulps (T: 2^16, T >= 2^-4) from the tie, v in
    // float's normal range or below 2^-151, 9 integer operations instead of
    // two roundings to float and back: the delta E kernel 2% faster in
    // checkasm's bench, ciede alone unchanged, 1% more instructions.)
    // (The window's e = v 2^-40 keeps v's sign: v - e and v + e are the
    // same two ends either way.)
    static Rounded rounded_rel(D v) { return rounded(v, V::mul(v, c(kSettle))); }
    static Rounded rounded_t(D v) { return rounded(v, c(kSettle)); }
    static M settles_rel(D v) { return rounded_rel(v).settled; }
    static M settles_t(D v) { return rounded_t(v).settled; }
};

// Two vectors of V as one of twice the lanes, every operation issued for
// both: delta_e_2000 is one long dependency chain per vector (hundreds of
// operations, divisions and square roots among them), too long for the
// out-of-order window to overlap one vector's chain with the next one's, so
// the twins interleave chains in the instruction stream instead: four
// (FourChains), measured against one and two on our Zen 5 VM (ciede alone,
// 1080p, AVX-512: 0.72, 0.60 and 0.55 s of CPU for 10 frames; AVX2: 1.25,
// 0.92, 0.81), and again on the Sapphire Rapids VM at AVX2 (checkasm's
// bench, 256 pairs: two chains 8.9 us, four 7.8 us). What bounds it there is
// the vector ports, not the divider: with every double square root taken
// out (timing only, wrong values) ciede alone ran 10% faster, while the
// kernel has about 140 vector uops a pixel (a quarter of them conversions
// between float and double, each 2 uops on Intel cores).
template <class V>
struct Twice {
    static constexpr int kLanes = 2 * V::kLanes;
    struct D {
        typename V::D lo, hi;
    };
    struct M {
        typename V::M lo, hi;
    };
    static D set(double v) { return {V::set(v), V::set(v)}; }
    static D load(const double* p) { return {V::load(p), V::load(p + V::kLanes)}; }
    static void store(double* p, D v) { V::store(p, v.lo), V::store(p + V::kLanes, v.hi); }
// Each half by V's operation of the same name.
#define VMAFPP_CIEDE_HALVES(R, T, op) \
    static R op(T a, T b) { return {V::op(a.lo, b.lo), V::op(a.hi, b.hi)}; }
#define VMAFPP_CIEDE_HALF(R, T, op) \
    static R op(T a) { return {V::op(a.lo), V::op(a.hi)}; }
    VMAFPP_CIEDE_HALVES(D, D, add) VMAFPP_CIEDE_HALVES(D, D, sub)
    VMAFPP_CIEDE_HALVES(D, D, mul) VMAFPP_CIEDE_HALVES(D, D, div)
    VMAFPP_CIEDE_HALF(D, D, sqrt) VMAFPP_CIEDE_HALF(D, D, neg)
    VMAFPP_CIEDE_HALF(D, D, abs) VMAFPP_CIEDE_HALF(D, D, round)
    VMAFPP_CIEDE_HALVES(D, D, copysign)
    VMAFPP_CIEDE_HALVES(M, D, lt) VMAFPP_CIEDE_HALVES(M, D, le)
    VMAFPP_CIEDE_HALVES(M, D, gt) VMAFPP_CIEDE_HALVES(M, D, eq)
    VMAFPP_CIEDE_HALVES(M, M, mask_and) VMAFPP_CIEDE_HALVES(M, M, mask_or)
    VMAFPP_CIEDE_HALVES(M, M, mask_xor)
    static unsigned bits(M m) { return V::bits(m.lo) | V::bits(m.hi) << V::kLanes; }
    static D fma(D a, D b, D c) { return {V::fma(a.lo, b.lo, c.lo), V::fma(a.hi, b.hi, c.hi)}; }
    static D select(M m, D a, D b) { return {V::select(m.lo, a.lo, b.lo), V::select(m.hi, a.hi, b.hi)}; }
    static D keep(M m, D a) { return {V::keep(m.lo, a.lo), V::keep(m.hi, a.hi)}; }
    static D drop(M m, D a) { return {V::drop(m.lo, a.lo), V::drop(m.hi, a.hi)}; }
    static D flip(M m, D a) { return {V::flip(m.lo, a.lo), V::flip(m.hi, a.hi)}; }
    VMAFPP_CIEDE_HALVES(D, D, min) VMAFPP_CIEDE_HALVES(D, D, max)
    static M bit(D k, int b) { return {V::bit(k.lo, b), V::bit(k.hi, b)}; }
    VMAFPP_CIEDE_HALF(D, D, exp2i)
    static void split(D x, D& m, D& k) { V::split(x.lo, m.lo, k.lo), V::split(x.hi, m.hi, k.hi); }
    struct F {
        typename V::F lo, hi;
    };
    static F fset(float v) { return {V::fset(v), V::fset(v)}; }
    static F fload(const float* p) { return {V::fload(p), V::fload(p + V::kLanes)}; }
    static void fstore(float* p, F v) { V::fstore(p, v.lo), V::fstore(p + V::kLanes, v.hi); }
    VMAFPP_CIEDE_HALVES(F, F, fadd) VMAFPP_CIEDE_HALVES(F, F, fsub)
    VMAFPP_CIEDE_HALVES(F, F, fmul) VMAFPP_CIEDE_HALVES(F, F, fdiv)
    VMAFPP_CIEDE_HALF(D, F, widen) VMAFPP_CIEDE_HALF(F, D, narrow)
    VMAFPP_CIEDE_HALF(M, F, fzero) VMAFPP_CIEDE_HALF(F, F, powf7)
    VMAFPP_CIEDE_HALVES(M, F, feq)
#undef VMAFPP_CIEDE_HALVES
#undef VMAFPP_CIEDE_HALF
};

template <class V>
using FourChains = Twice<Twice<V>>;

// delta_e_2000 of V::kLanes pixels; *settled gets a bit per lane whose
// value is exact (the others are to be recomputed by the scalar). Values
// the scalar holds in floats are F lanes where they only meet other floats
// (float operations, done as such) and D lanes (widened, exactly) where they
// enter double arithmetic; a double result the scalar stores in a float is
// narrowed (f: narrowed and widened back, where only doubles read it).
template <class V>
typename V::F delta_e_2000(const LabPairs& in, unsigned* settled) {
    using D = typename V::D;
    using F = typename V::F;
    using M = typename V::M;
    using X = Math<V>;
    const auto c = [](double v) { return V::set(v); };
    const auto f = [](D v) { return f32<V>(v); };
    const F l1 = V::fload(in.l1), fa1 = V::fload(in.a1), fb1 = V::fload(in.b1);
    const F l2 = V::fload(in.l2), fa2 = V::fload(in.a2), fb2 = V::fload(in.b2);
    const D ca1 = V::widen(fa1), b1 = V::widen(fb1), ca2 = V::widen(fa2), b2 = V::widen(fb2);
    const D half = c(0.5), two_pi = c(2. * kPi), minus_two_pi = c(-2. * kPi), zero = c(0.0);
    // x / 2 of a float is x * 0.5f: both round the same exact value.
    const F fhalf = V::fset(0.5f);

    // sqrt(x^2 + y^2) in double, rounded to float.
    const auto hypot_f = [&](D x, D y) {
        return V::narrow(V::sqrt(V::add(V::mul(x, x), V::mul(y, y))));
    };
    const F delta_l = V::fsub(l2, l1);
    const F l_bar = V::fmul(V::fadd(l1, l2), fhalf);
    const F chroma1 = hypot_f(ca1, b1), chroma2 = hypot_f(ca2, b2);
    const F c_bar = V::fmul(V::fadd(chroma1, chroma2), fhalf);

    // G and a'. The twin's c^7 is within 2^-48 (relative) of libm's pow;
    // q = c^7 / (c^7 + 25^7) then differs by under 2^-48 relative, sqrt q
    // (<= 1) by 2^-49 absolute, and g = 1 - sqrt q (both computed with the
    // same roundings) by under 2^-48 absolute. v = a + (a/2) g has |v| >= |a|,
    // so the twin's v is within |a|/2 2^-48 + 2 ulp < |v| 2^-47 of the
    // scalar's. a = 0
    // gives v = a exactly in both (g >= 0). Below c = 1e-30 both q are under
    // 1e-220, and both g are exactly 1.
    const D c7 = X::pow7(V::widen(c_bar));
    const D g = V::sub(c(1.0), V::sqrt(V::div(c7, V::add(c7, c(6103515625.0)))));
    const D va1 = V::add(ca1, V::mul(V::widen(V::fmul(fa1, fhalf)), g));
    const D va2 = V::add(ca2, V::mul(V::widen(V::fmul(fa2, fhalf)), g));
    const auto ra1 = X::rounded_rel(va1), ra2 = X::rounded_rel(va2);
    M ok = V::mask_and(ra1.settled, ra2.settled);
    const D a1 = V::widen(ra1.f), a2 = V::widen(ra2.f);

    const F cp1 = hypot_f(a1, b1), cp2 = hypot_f(a2, b2);
    const F cp_bar = V::fmul(V::fadd(cp1, cp2), fhalf);
    const D cp_bar_d = V::widen(cp_bar);
    const F delta_c = V::fsub(cp2, cp1);

    const D lm = V::widen(V::fsub(l_bar, V::fset(50.0f)));
    const D lm2 = V::mul(lm, lm);
    const F s_l =
        V::narrow(V::add(c(1.0), V::div(V::mul(c(0.015), lm2), V::sqrt(V::add(c(20.0), lm2)))));
    const F s_c = V::narrow(V::add(c(1.0), V::mul(c(0.045), cp_bar_d)));

    // Hue angles: v within |v| 2^-48 of libm's atan2. y = +-0 with
    // x > 0 gives +-0 in both; y = x = 0 is the scalar's early 0.
    const auto hue_angle = [&](D x, D y, M& settled) __attribute__((always_inline)) {
        const M origin = V::mask_and(V::eq(x, zero), V::eq(y, zero));
        const D v = X::atan2(x, y);
        const auto rv = X::rounded_rel(v);
        settled = V::mask_or(origin, rv.settled);
        // One rounding to float for both cases: f(h) = h for a float's h.
        const D h = V::widen(rv.f);
        // h + 2 pi where h < 0, as h - (-2 pi); h - (+0) = h elsewhere, -0
        // included: ANDs instead of blends, here and below.
        return V::drop(origin, f(V::sub(h, V::keep(V::lt(h, zero), minus_two_pi))));
    };
    M ok_h1, ok_h2;
    const D h1 = hue_angle(b1, a1, ok_h1);
    const D h2 = hue_angle(b2, a2, ok_h2);
    ok = V::mask_and(ok, V::mask_and(ok_h1, ok_h2));

    // hue_difference. The scalar's |h1 - h2| is |d| (a float difference
    // rounds to nearest, symmetrically), and each selection rounds once.
    // Where |d| > pi, d + 2 pi if h2 <= h1 (then d < 0), else d - 2 pi (d > 0):
    // d - copysign(2 pi, d) either way.
    const D d = f(V::sub(h2, h1));
    const M near = V::le(V::abs(d), c(kPi));
    D dh = V::select(near, d, f(V::sub(d, V::copysign(two_pi, d))));
    dh = V::drop(V::mask_or(V::fzero(chroma1), V::fzero(chroma2)), dh);

    // delta H = (2 sqrt(c1' c2')) sin(dh / 2): sin within 2^-48 of libm's,
    // one product rounding: |v| 2^-47. Zero
    // exactly when a factor is: sqrt(+0), or sin(+-0) = +-0 in both. dh / 2
    // is within Math::sin's domain (|dh| <= float(pi): hue_difference
    // wraps every difference of hues in [0, float(2 pi)]); a lane outside
    // would be the scalar's.
    const D half_dh = V::mul(dh, half);
    const D vdh = V::mul(V::mul(c(2.0), V::sqrt(V::widen(V::fmul(cp1, cp2)))), X::sin(half_dh));
    const auto rdh = X::rounded_rel(vdh);
    ok = V::mask_and(ok, V::mask_and(rdh.settled, X::in_sin_domain(half_dh)));
    const F delta_h = rdh.f;

    // mean_hue.
    const D hsum = f(V::add(h1, h2));
    // (hsum + 2 pi) / 2 where |d| > pi, as hsum - (-2 pi); hsum - (+0) elsewhere.
    const D h_bar = f(V::mul(V::sub(hsum, V::drop(near, minus_two_pi)), half));

    // T: within 2^-47 of the scalar's, absolute (Math::hue_weight).
    const D vt = X::hue_weight(h_bar);
    const auto rt = X::rounded_t(vt);
    ok = V::mask_and(ok, rt.settled);
    const D t = V::widen(rt.f);
    const F s_h = V::narrow(V::add(c(1.0), V::mul(V::mul(c(0.015), cp_bar_d), t)));

    // rotation_term: powf as the scalar calls it; 60 exp(-d^2) within
    // |v| 2^-47 (exp's 2^-48, one product); R_T = (-2 sqrt(ratio)) sin(angle)
    // as delta H (angle >= +0; sin(+0) = +0 in both).
    const D deg = f(V::mul(h_bar, c(180.0 / kPi)));
    const F dd = V::narrow(V::mul(V::sub(deg, c(275.0)), c(1.0 / 25.0)));
    const F cp7 = V::powf7(cp_bar);
    const F ratio = V::fdiv(cp7, V::fadd(cp7, V::fset(6103515648.0f)));
    const D e_arg = V::neg(V::widen(V::fmul(dd, dd)));
    const D vangle = V::mul(c(60.0), X::exp(e_arg));
    const auto rangle = X::rounded_rel(vangle);
    ok = V::mask_and(ok, V::mask_and(rangle.settled, V::gt(e_arg, c(-700.0))));
    const D angle = f(V::mul(V::widen(rangle.f), c(kPi / 180.0)));
    const D vrt = V::mul(V::mul(c(-2.0), V::sqrt(V::widen(ratio))), X::sin(angle));
    const auto rrt = X::rounded_rel(vrt);
    ok = V::mask_and(ok, V::mask_and(rrt.settled, X::in_sin_domain(angle)));
    const F r_t = rrt.f;

    const F lightness = V::fdiv(delta_l, V::fmul(V::fset(0.65f), s_l));
    const F chroma = V::fdiv(delta_c, s_c);  // kC = 1: kC SC = SC
    const F hue = V::fdiv(delta_h, V::fmul(V::fset(4.0f), s_h));
    const D rch = V::widen(V::fmul(V::fmul(r_t, chroma), hue));
    const D dl = V::widen(lightness), dc = V::widen(chroma), dhh = V::widen(hue);
    const D sum = V::add(V::add(V::add(V::mul(dl, dl), V::mul(dc, dc)), V::mul(dhh, dhh)), rch);
    *settled = V::bits(ok);
    return V::narrow(V::sqrt(sum));
}

// The twins' CiedeDeltaEFn: V::kLanes pairs at a time, the last group
// padded with copies of the last pair; unsettled lanes rescored by the
// scalar delta_e_2000 (ciede_scalar.cpp: baseline code).
template <class V>
void delta_e(const LabPairs& in, int n, float* out) {
    constexpr int kL = V::kLanes;
    for (int i = 0; i < n; i += kL) {
        alignas(64) float pad[6][kL];
        alignas(64) float de[kL];
        const float* const src[6] = {in.l1, in.a1, in.b1, in.l2, in.a2, in.b2};
        LabPairs lanes{in.l1 + i, in.a1 + i, in.b1 + i, in.l2 + i, in.a2 + i, in.b2 + i};
        if (i + kL > n) {
            for (int c = 0; c < 6; ++c)
                for (int j = 0; j < kL; ++j) pad[c][j] = src[c][i + j < n ? i + j : n - 1];
            lanes = LabPairs{pad[0], pad[1], pad[2], pad[3], pad[4], pad[5]};
        }
        unsigned settled = 0;
        const typename V::F v = delta_e_2000<V>(lanes, &settled);
        constexpr unsigned kAll = kL >= 32 ? ~0u : (1u << kL) - 1;
        if (settled == kAll && i + kL <= n) {  // the common case: stored at once
            V::fstore(out + i, v);
            continue;
        }
        V::fstore(de, v);
        for (int j = 0; j < kL && i + j < n; ++j) {
            const int k = i + j;
            out[k] = (settled >> j) & 1
                         ? de[j]
                         : ciede::delta_e_2000(Lab{in.l1[k], in.a1[k], in.b1[k]},
                                               Lab{in.l2[k], in.a2[k], in.b2[k]});
        }
    }
}

// lab_from_yuv (ciede_scalar.cpp) of V::kLanes triples, already in double
// (scale = 2^(bpc - 8));
// *settled gets a bit per lane whose L, a, b are the scalar's. Everything
// but pow is the scalar's double arithmetic, operation for operation, so
// only the three roundings to float of the CIELAB f values can differ:
//  - each of r, g, b is either the scalar's bits (the linear branch, chosen
//    by the same comparison of the same value) or pow(., 2.4) within
//    (2^-46 + 2^-52) of its value, relative (ours; libm's, 0.52 ulp);
//  - a sum t = (r k1 + g k2 + b k3) s then differs from the scalar's by at
//    most M (2^-46 + 2^-52) plus both sides' six roundings, under
//    M 2^-45.7 in all, M = (|r k1| + |g k2| + |b k3|) s; the twin allows
//    E = M 2^-44. M, not |t|: out-of-gamut colours (a negative linear
//    component) cancel in the sum;
//  - f's branch (t > 216/24389) is certain where |t - eps| > E;
//  - f = t^(1/3) is then within f (2^-46 + 2^-52) of its value at the
//    twin's t and within f E / (3 (t - E)) of it at the scalar's: the twin
//    allows f (2^-45 + E / (t - E)); the linear f = (kappa t + 16) / 116
//    within 2 (kappa / 116) E + |f| 2^-48;
//  - where f rounds to one float across that window (Math::settles), the
//    float is the scalar's, and L, a, b, computed from the three floats as
//    the scalar does, are too.
template <class V>
void lab_lanes(typename V::D y, typename V::D u, typename V::D v, double scale,
               float* l_out, float* a_out, float* b_out, unsigned* settled) {
    using D = typename V::D;
    using M = typename V::M;
    using X = Math<V>;
    const auto c = [](double x) { return V::set(x); };
    y = V::mul(V::sub(y, c(16. * scale)), c(1. / (219. * scale)));
    u = V::mul(V::sub(u, c(128. * scale)), c(1. / (224. * scale)));
    v = V::mul(V::sub(v, c(128. * scale)), c(1. / (224. * scale)));
    const auto linearize = [&](D s) {
        const D curve = X::pow(V::mul(V::add(s, c(0.055)), c(1.0 / 1.055)), c(2.4));
        return V::select(V::gt(s, c(10. / 255.)), curve, V::mul(s, c(1.0 / 12.92)));
    };
    const D r = linearize(V::add(y, V::mul(c(1.28033), v)));
    const D g = linearize(V::sub(V::sub(y, V::mul(c(0.21482), u)), V::mul(c(0.38059), v)));
    const D b = linearize(V::add(y, V::mul(c(2.12798), u)));
    const D ar = V::abs(r), ag = V::abs(g), ab = V::abs(b);
    M ok = V::eq(c(0.0), c(0.0));
    // CIELAB's f of one XYZ sum, rounded to float where certain.
    const auto lab_f = [&](double k1, double k2, double k3, double s) {
        D t = V::add(V::add(V::mul(r, c(k1)), V::mul(g, c(k2))), V::mul(b, c(k3)));
        D mag = V::add(V::add(V::mul(ar, c(k1)), V::mul(ag, c(k2))), V::mul(ab, c(k3)));
        if (s != 1.0) t = V::mul(t, c(s)), mag = V::mul(mag, c(s));
        constexpr double kappa = 24389.0 / 27.0, epsilon = 216.0 / 24389.0;
        const D e_t = V::mul(mag, c(0x1p-44));
        const M cube = V::gt(t, c(epsilon));
        ok = V::mask_and(ok, V::gt(V::abs(V::sub(t, c(epsilon))), e_t));
        const D root = X::pow(t, c(1.0 / 3.0));
        const D e_root = V::mul(root, V::add(c(0x1p-45), V::div(e_t, V::sub(t, e_t))));
        const D line = V::mul(V::add(V::mul(c(kappa), t), c(16.0)), c(1.0 / 116.0));
        const D e_line = V::add(V::mul(c(2.0 * kappa / 116.0), e_t), V::mul(V::abs(line), c(0x1p-48)));
        const D f = V::select(cube, root, line);
        const auto rf = X::rounded(f, V::select(cube, e_root, e_line));
        ok = V::mask_and(ok, rf.settled);
        return V::widen(rf.f);
    };
    const D fx = lab_f(0.4124564390896921, 0.357576077643909, 0.18043748326639894, 1.0 / 0.95047);
    const D fy = lab_f(0.21267285140562248, 0.715152155287818, 0.07217499330655958, 1.0);
    const D fz = lab_f(0.019333895582329317, 0.119192025881303, 0.9503040785363677, 1.0 / 1.08883);
    V::fstore(l_out, V::narrow(V::sub(V::mul(c(116.0), fy), c(16.0))));
    V::fstore(a_out, V::narrow(V::mul(c(500.0), V::sub(fx, fy))));
    V::fstore(b_out, V::narrow(V::mul(c(200.0), V::sub(fy, fz))));
    *settled = V::bits(ok);
}

// The twins' CiedeLabFn: V::kLanes triples at a time (the last group padded
// with copies of the last triple); unsettled lanes converted by the scalar
// lab_from_yuv (baseline code).
template <class V>
void lab(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n, int bpc,
         Lab* out) {
    constexpr int kL = V::kLanes;
    const double scale = 1 << (bpc - 8);
    for (int i = 0; i < n; i += kL) {
        alignas(64) double py[kL], pu[kL], pv[kL];
        for (int j = 0; j < kL; ++j) {
            const int at = i + j < n ? i + j : n - 1;
            py[j] = y[at], pu[j] = u[at], pv[j] = v[at];
        }
        alignas(64) float l[kL], a[kL], b[kL];
        unsigned settled = 0;
        lab_lanes<V>(V::load(py), V::load(pu), V::load(pv), scale, l, a, b, &settled);
        for (int j = 0; j < kL && i + j < n; ++j)
            out[i + j] = (settled >> j) & 1 ? Lab{l[j], a[j], b[j]}
                                            : lab_from_yuv(y[i + j], u[i + j], v[i + j], bpc);
    }
}

// The twins' CiedeLibmFn: their approximations, V::kLanes values at a time
// (the tail through a padded copy).
template <class V>
void libm(CiedeLibm fn, const double* x, const double* y, int n, double* out) {
    using D = typename V::D;
    constexpr int kL = V::kLanes;
    const auto eval = [fn](D vx, D vy) {
        switch (fn) {
            case CiedeLibm::pow7: return Math<V>::pow7(vx);
            case CiedeLibm::atan2: return Math<V>::atan2(vy, vx);
            case CiedeLibm::sin: return Math<V>::sin(vx);
            case CiedeLibm::cos: {
                D cx, sx;
                Math<V>::cos_sin(vx, cx, sx);
                return cx;
            }
            case CiedeLibm::hue_weight: return Math<V>::hue_weight(vx);
            case CiedeLibm::settle:
                return V::select(Math<V>::settles_rel(vx), V::set(1.0), V::set(0.0));
            case CiedeLibm::settle_t:
                return V::select(Math<V>::settles_t(vx), V::set(1.0), V::set(0.0));
            case CiedeLibm::pow: return Math<V>::pow(vx, vy);
            case CiedeLibm::exp: break;
        }
        return Math<V>::exp(vx);
    };
    for (int i = 0; i < n; i += kL) {
        alignas(64) double px[kL], py[kL], po[kL];
        for (int j = 0; j < kL; ++j) {
            px[j] = x[i + j < n ? i + j : n - 1];
            py[j] = y != nullptr ? y[i + j < n ? i + j : n - 1] : 1.0;
        }
        V::store(po, eval(V::load(px), V::load(py)));
        for (int j = 0; j < kL && i + j < n; ++j) out[i + j] = po[j];
    }
}

// A keys twin's last columns x .. x1 - 1 (those its vectors leave) by the
// scalar's loop, appended at n; returns the new count.
inline int keys_tail(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x,
                     int x1, int bits, LabSets sets, float* out, const LabKeys& keys, int n) {
    if (x >= x1) return n;
    return n + ciede_kernels_scalar().keys(ref, dis, x, x1, bits, sets, out,
                                           LabKeys{{keys.key[0] + n, keys.key[1] + n},
                                                   {keys.set[0] + n, keys.set[1] + n},
                                                   keys.where + n});
}

// A level's table entries from V (its keys twin, if any, is its own):
// delta E in four interleaved chains, the conversion in two, libm alone.
template <class V>
void install_twins(CiedeKernels& k) {
    k.delta_e = delta_e<FourChains<V>>;
    k.libm = libm<V>;
    k.lab = lab<Twice<V>>;
}

}  // namespace
}  // namespace vmafpp::ciede::simd
