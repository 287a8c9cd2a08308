// Scalar ciede kernels: the reference arithmetic. libvmaf's C rounds to
// float wherever a value is stored in a float (locals, parameters, return
// values of its float helpers) and computes in double wherever an operand
// or a math function (sqrt, pow, sin, cos, atan2, exp) is double; every
// cast below marks one of those roundings.
#include <cmath>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "ciede/ciede_kernels.hpp"

namespace vmafpp::ciede {


namespace {

constexpr double kPi = 3.14159265358979323846;  // M_PI

// sRGB transfer to linear light.
double linearize(double c) {
    if (c > 10. / 255.) return std::pow((c + 0.055) * (1.0 / 1.055), 2.4);
    return c * (1.0 / 12.92);
}

// CIELAB's f(t), rounded to float.
float lab_f(double t) {
    const double kappa = 24389.0 / 27.0;
    const double epsilon = 216.0 / 24389.0;
    if (t > epsilon) return static_cast<float>(std::pow(t, 1.0 / 3.0));
    return static_cast<float>((kappa * t + 16.0) * (1.0 / 116.0));
}

// Hue angle in [0, 2 pi) of (a, b) = (y, x); 0 for the origin.
float hue_angle(float x, float y) {
    if (x == 0.0 && y == 0.0) return 0.0f;
    float h = static_cast<float>(std::atan2(static_cast<double>(x), static_cast<double>(y)));
    if (h < 0.0) h = static_cast<float>(h + 2. * kPi);
    return h;
}

float hue_difference(float c1, float c2, float h1, float h2) {
    if (c1 == 0.0 || c2 == 0.0) return 0.0f;
    const float d = h2 - h1;
    if (std::fabs(h1 - h2) <= kPi) return d;  // fabsf: a float difference
    if (h2 <= h1) return static_cast<float>(d + 2. * kPi);
    return static_cast<float>(d - 2. * kPi);
}

float mean_hue(float h1, float h2) {
    const float sum = h1 + h2;
    if (std::fabs(static_cast<double>(h1 - h2)) > kPi)
        return static_cast<float>((sum + 2.0 * kPi) / 2.0);
    return static_cast<float>(sum / 2.0);
}

}  // namespace

// T in double, before its rounding to float.
double hue_weight_t_double(double h) {
    return 1.0 - 0.17 * std::cos(h - kPi / 6.0) + 0.24 * std::cos(2.0 * h) +
           0.32 * std::cos(3.0 * h + kPi / 30.0) - 0.20 * std::cos(4.0 * h - 7.0 * kPi / 20.0);
}

namespace {

float hue_weight_t(float hbar) { return static_cast<float>(hue_weight_t_double(hbar)); }

float to_degrees(float radians) { return static_cast<float>(radians * (180.0 / kPi)); }
float to_radians(float degrees) { return static_cast<float>(degrees * (kPi / 180.0)); }

// The rotation term R_T, from float powers (powf(25, 7) is 6103515648 in
// float; powf(x, 2) is x * x).
float rotation_term(float cbar, float hbar) {
    const float d = static_cast<float>((to_degrees(hbar) - 275.0) * (1.0 / 25.0));
    const float c7 = std::pow(cbar, 7.0f);
    const float ratio = c7 / (c7 + 6103515648.0f);
    const float angle = to_radians(static_cast<float>(60.0 * std::exp(-static_cast<double>(d * d))));
    return static_cast<float>(-2.0 * std::sqrt(static_cast<double>(ratio)) *
                              std::sin(static_cast<double>(angle)));
}

// sqrt(x^2 + y^2) of two floats, squared in double, rounded to float.
float hypot_f(float x, float y) {
    const double dx = x, dy = y;
    return static_cast<float>(std::sqrt(dx * dx + dy * dy));
}

}  // namespace

Lab lab_from_yuv(double y, double u, double v, int bpc) {
    const double scale = 1 << (bpc - 8);
    y = (y - 16. * scale) * (1. / (219. * scale));
    u = (u - 128. * scale) * (1. / (224. * scale));
    v = (v - 128. * scale) * (1. / (224. * scale));

    // BT.709 Y'CbCr to R'G'B'.
    const double r = linearize(y + 1.28033 * v);
    const double g = linearize(y - 0.21482 * u - 0.38059 * v);
    const double b = linearize(y + 2.12798 * u);

    // Linear RGB to XYZ, normalised to the D65 white, through f.
    const double x =
        lab_f((r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894) *
              (1.0 / 0.95047));
    const double yy =
        lab_f(r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958);
    const double z =
        lab_f((r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677) *
              (1.0 / 1.08883));

    Lab lab;
    lab.l = static_cast<float>((116.0 * yy) - 16.0);
    lab.a = static_cast<float>(500.0 * (x - yy));
    lab.b = static_cast<float>(200.0 * (yy - z));
    return lab;
}

float delta_e_2000(const Lab& c1, const Lab& c2) {
    // The weights kL, kC, kH: floats from double constants.
    const float k_l = static_cast<float>(0.65), k_c = static_cast<float>(1.0),
                k_h = static_cast<float>(4.0);

    const float delta_l = c2.l - c1.l;
    const float l_bar = (c1.l + c2.l) / 2;
    const float chroma1 = hypot_f(c1.a, c1.b);
    const float chroma2 = hypot_f(c2.a, c2.b);
    const float c_bar = (chroma1 + chroma2) / 2;

    // a' = a (1 + G) with G = (1 - sqrt(c^7 / (c^7 + 25^7))) / 2, in double.
    const double c_bar7 = std::pow(static_cast<double>(c_bar), 7.0);
    const double g = 1 - std::sqrt(c_bar7 / (c_bar7 + 6103515625.0));
    const float a1 = static_cast<float>(c1.a + (c1.a / 2) * g);
    const float a2 = static_cast<float>(c2.a + (c2.a / 2) * g);

    const float cp1 = hypot_f(a1, c1.b);
    const float cp2 = hypot_f(a2, c2.b);
    const float cp_bar = (cp1 + cp2) / 2;
    const float delta_c = cp2 - cp1;

    const double lm = static_cast<double>(l_bar - 50);
    const double lm2 = lm * lm;
    const float s_l = static_cast<float>(1. + ((0.015 * lm2) / std::sqrt(20 + lm2)));
    const float s_c = static_cast<float>(1. + 0.045 * cp_bar);

    const float h1 = hue_angle(c1.b, a1);
    const float h2 = hue_angle(c2.b, a2);
    const float dh = hue_difference(chroma1, chroma2, h1, h2);
    const float delta_h = static_cast<float>(2.0 * std::sqrt(static_cast<double>(cp1 * cp2)) *
                                             std::sin(dh / 2.0));
    const float h_bar = mean_hue(h1, h2);
    const float t = hue_weight_t(h_bar);
    const float s_h = static_cast<float>(1.0 + 0.015 * cp_bar * t);
    const float r_t = rotation_term(cp_bar, h_bar);

    const float lightness = delta_l / (k_l * s_l);
    const float chroma = delta_c / (k_c * s_c);
    const float hue = delta_h / (k_h * s_h);
    const double dl = lightness, dc = chroma, dhh = hue;
    return static_cast<float>(
        std::sqrt(dl * dl + dc * dc + dhh * dhh + static_cast<double>(r_t * chroma * hue)));
}


// A pixel whose reference and distorted triples are equal differs by +0:
// every difference in delta_e_2000 is then +0 (dL, dC, and dH = 2 sqrt(.)
// sin(+0 / 2)), every divisor (kL SL, kC SC, kH SH) is positive, the
// rotation term times +0 is -0, and sqrt(+0 + ... + -0) = sqrt(+0) = +0 (no
// Lab value is NaN or infinite: the conversion's inputs are bounded).
// CiedeIdentical (tests/unit/ciede_test.cpp) checks it on random triples.
// The others are handled kBlock at a time: the kernel table's keys finds
// them with their sets, which are prefetched, then looked up (the loads
// overlapping; spreading the fetches of the next blocks between slices of
// the delta E kernel instead gained nothing measurable: the lookups are
// bound by the misses the memory system can have in flight; measured again
// with the groups from the keys kernel, the next block's keys and index
// fetches before this block's delta E and its value fetches halfway
// through it: ciede alone unchanged); the triples not remembered are converted together by the
// table's lab kernel and remembered; all are packed into the delta E
// kernel's arrays. The row's sum, one long chain of dependent additions, is
// interleaved with the next block's lookups (one of the previous block's
// pixels, in order, per lookup), so that the two overlap.
namespace {

// out[x] = out[x - 1] for the pixels x0 <= x < x1 marked kSameAsLeft, left
// to right (runs copy along). Marks are few (natural video: one pixel in
// seven; noise: one in fifty), so four pixels are tested at once (SSE2 is
// x86-64's baseline) and copied one by one only where one is marked.
void take_left_values(float* out, int x0, int x1) {
    int x = x0;
#if defined(__SSE2__)
    const __m128 mark = _mm_set1_ps(kSameAsLeft);
    for (; x + 4 <= x1; x += 4) {
        if (_mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(out + x), mark)) == 0) continue;
        for (int j = x; j < x + 4; ++j)
            if (out[j] == kSameAsLeft) out[j] = out[j - 1];
    }
#endif
    for (; x < x1; ++x)
        if (out[x] == kSameAsLeft) out[x] = out[x - 1];
}

template <class Table>
double delta_e_row_with(const Table table, const CiedeKernels& k,
                        const std::uint16_t* const ref[3], const std::uint16_t* const dis[3],
                        int w, float* out, double sum) {
    constexpr int kBlock = 256;
    constexpr int kRoom = kBlock + kLabKeysSlack;
    float lab[6][kBlock];
    float de[kBlock];
    int where[kRoom];
    std::uint64_t keys[2][kRoom];
    std::uint32_t sets[2][kRoom];
    const LabKeys found{{keys[0], keys[1]}, {sets[0], sets[1]}, where};
    // The block's lookups that missed: 2 i + side, and their triples.
    int missed[2 * kBlock];
    std::uint16_t triple[3][2 * kBlock];
    ciede::Lab converted[2 * kBlock];
    const auto put = [&lab](int i, int side, const ciede::Lab& v) {
        lab[3 * side][i] = v.l, lab[3 * side + 1][i] = v.a, lab[3 * side + 2][i] = v.b;
    };
    for (int x0 = 0; x0 < w; x0 += kBlock) {
        const int x1 = x0 + kBlock < w ? x0 + kBlock : w;
        const int n = k.keys(ref, dis, x0, x1, Table::bits, Table::kSets, out, found);
        // Two passes: the index entries (LabBlocks), then the values where
        // the index names their block; a row's lookups land anywhere in
        // megabytes, and issued together the fetches overlap.
        for (int i = 0; i < n; ++i) {
            table.prefetch_index(sets[0][i]);
            table.prefetch_index(sets[1][i]);
        }
        for (int i = 0; i < n; ++i) {
            table.prefetch(keys[0][i], sets[0][i]);
            table.prefetch(keys[1][i], sets[1][i]);
        }
        // The previous (whole) block's pixels, in order, one per lookup.
        const float* previous = x0 > 0 ? out + x0 - kBlock : nullptr;
        int summed = x0 > 0 ? 0 : kBlock;
        int misses = 0;
        for (int i = 0; i < n; ++i) {
            if (summed < kBlock) sum += previous[summed++];
            for (int side = 0; side < 2; ++side) {
                ciede::Lab v;
                if (table.find(keys[side][i], sets[side][i], &v)) {
                    put(i, side, v);
                    continue;
                }
                for (int c = 0; c < 3; ++c) triple[c][misses] = Table::component(keys[side][i], c);
                missed[misses++] = 2 * i + side;
            }
        }
        while (summed < kBlock) sum += previous[summed++];
        if (misses > 0) {
            k.lab(triple[0], triple[1], triple[2], misses, table.bpc, converted);
            for (int j = 0; j < misses; ++j) {
                const int i = missed[j] >> 1, side = missed[j] & 1;
                table.insert(keys[side][i], sets[side][i], converted[j]);
                put(i, side, converted[j]);
            }
        }
        k.delta_e(LabPairs{lab[0], lab[1], lab[2], lab[3], lab[4], lab[5]}, n, de);
        for (int i = 0; i < n; ++i) out[where[i]] = de[i];
        take_left_values(out, x0, x1);
    }
    // The last block.
    for (int x = (w - 1) / kBlock * kBlock; x < w; ++x) sum += out[x];
    return sum;
}

// CiedeKeysFn, with the keys of LabTable<Key> and the sets of Table.
template <class Key, class Table>
int keys_with(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x0,
              int x1, float* out, const LabKeys& keys) {
    int n = 0;
    for (int x = x0; x < x1; ++x) {
        if (ref[0][x] == dis[0][x] && ref[1][x] == dis[1][x] && ref[2][x] == dis[2][x]) {
            out[x] = 0.0f;
            continue;
        }
        if (x > 0 && ref[0][x] == ref[0][x - 1] && ref[1][x] == ref[1][x - 1] &&
            ref[2][x] == ref[2][x - 1] && dis[0][x] == dis[0][x - 1] &&
            dis[1][x] == dis[1][x - 1] && dis[2][x] == dis[2][x - 1]) {
            out[x] = kSameAsLeft;
            continue;
        }
        keys.key[0][n] = ciede::LabTable<Key>::key(ref[0][x], ref[1][x], ref[2][x]);
        keys.key[1][n] = ciede::LabTable<Key>::key(dis[0][x], dis[1][x], dis[2][x]);
        keys.set[0][n] = Table::set_of(keys.key[0][n]);
        keys.set[1][n] = Table::set_of(keys.key[1][n]);
        keys.where[n++] = x;
    }
    return n;
}

int keys_scalar(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3], int x0,
                int x1, int bits, LabSets sets, float* out, const LabKeys& keys) {
    using Narrow = ciede::LabTable<std::uint32_t>;
    if (sets == LabSets::groups) return keys_with<std::uint32_t, ciede::LabBlocks>(ref, dis, x0, x1, out, keys);
    return bits == Narrow::bits ? keys_with<std::uint32_t, Narrow>(ref, dis, x0, x1, out, keys)
                                : keys_with<std::uint64_t, ciede::LabTable<std::uint64_t>>(
                                      ref, dis, x0, x1, out, keys);
}

}  // namespace

double delta_e_row(const CiedeKernels& k, const std::uint16_t* const ref[3],
                   const std::uint16_t* const dis[3], int w, LabCache& labs, float* out,
                   double sum) {
    return labs.visit([&](auto table) { return delta_e_row_with(table, k, ref, dis, w, out, sum); });
}

namespace {

void delta_e_scalar(const LabPairs& in, int n, float* out) {
    for (int i = 0; i < n; ++i)
        out[i] = ciede::delta_e_2000(ciede::Lab{in.l1[i], in.a1[i], in.b1[i]},
                                     ciede::Lab{in.l2[i], in.a2[i], in.b2[i]});
}

void lab_scalar(const std::uint16_t* y, const std::uint16_t* u, const std::uint16_t* v, int n,
                int bpc, ciede::Lab* out) {
    for (int i = 0; i < n; ++i) out[i] = ciede::lab_from_yuv(y[i], u[i], v[i], bpc);
}

void libm_scalar(CiedeLibm fn, const double* x, const double* y, int n, double* out) {
    for (int i = 0; i < n; ++i) {
        switch (fn) {
            case CiedeLibm::pow7: out[i] = std::pow(x[i], 7.0); break;
            case CiedeLibm::atan2: out[i] = std::atan2(y[i], x[i]); break;
            case CiedeLibm::sin: out[i] = std::sin(x[i]); break;
            case CiedeLibm::cos: out[i] = std::cos(x[i]); break;
            case CiedeLibm::exp: out[i] = std::exp(x[i]); break;
            case CiedeLibm::hue_weight: out[i] = ciede::hue_weight_t_double(x[i]); break;
            case CiedeLibm::pow: out[i] = std::pow(x[i], y[i]); break;
            case CiedeLibm::settle: {
                // x87 long double: 64 bits of mantissa hold x +- 0.99 e
                // exactly enough (e = |x| 2^-40), then one rounding.
                const long double v = x[i], e = 0.99L * std::fabs(v) * kCiedeSettle;
                out[i] = static_cast<float>(v - e) == static_cast<float>(v + e) ? 1.0 : 0.0;
                break;
            }
            case CiedeLibm::settle_t: {
                const long double v = x[i], e = 0.99L * kCiedeSettle;
                out[i] = static_cast<float>(v - e) == static_cast<float>(v + e) ? 1.0 : 0.0;
                break;
            }
        }
    }
}

}  // namespace

const CiedeKernels& ciede_kernels_scalar() {
    static const CiedeKernels k{&delta_e_scalar, &libm_scalar, &keys_scalar, &lab_scalar};
    return k;
}

}  // namespace vmafpp::ciede
