// checkasm module "ciede": the delta E twins of every SIMD level against
// ciede_kernels_scalar(), bit for bit (memcmp of every float), and the
// twins' libm approximations against libm within the bound their proof of
// exactness assumes (ciede_simd.hpp), the Lab cache keys of a row part
// (ciede_keys, at check_keys), and the conversion of triples to Lab
// (ciede_lab, at check_lab).
//
// ciede_delta_e: even bands score rows of Y'CbCr triples through
// ciede::delta_e_row with each table (widths 1..64 and wider, 8, 10, 12 and
// 16 bits) with fills that reach every branch of delta_e_2000: random
// triples, greys (a = b = 0: hue angle 0, chroma 0), near-greys (tiny a, b:
// hue angles of every quadrant), one channel changed, equal pixels, the
// extreme samples, runs of repeated pixels (kSameAsLeft); the rows' double
// sums (delta_e_row adds them as it goes)
// must be the pixel-order sum. Odd bands call the kernel on Lab values no conversion
// gives: +-0, subnormal and large a and b, equal hues, opposite hues. (No
// pair is known where the twin's own approximation rounds to another float
// than libm's at one of its rounding points, the case its fallback to the
// scalar is for: none in 614 M random pairs, nor in every float hue of
// [2^-10, 2 pi] for T and exp. The settle test itself is ciede_libm's.)
//
// ciede_libm: pow(x, 7) on floats 1e-30..1e3, atan2 on float pairs of every
// sign, ratio and magnitude (and one zero), sin on the arguments delta H and
// R_T pass (a float / 2 in [-pi, pi], among them those nearest +-pi and
// tiny ones, and +-0; a float in [0, pi/3]: the twins' sin covers only
// |x| <= 1.6), cos on [-10, 40], exp on
// [-700, 8]; relative error at most 2^-48 (cos: absolute); T on float hues
// up to 3 pi, within 2^-46 absolute; pow(x, 2.4) on [0.08, 3] and
// pow(x, 1/3) on [0.008, 10], within 2^-46 relative. And the tests that
// a rounding is settled (settle: the window |x| 2^-40; settle_t: T's,
// 2^-40), on windows at and around float midpoints over the whole float
// range, powers of two, values below float's subnormals, zeros, infinities
// and NaN: the twin may call a rounding unsettled that is not, never the
// reverse.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "ciede/ciede_kernels.hpp"

namespace vmafpp::checkasm {
namespace {

using namespace ciede;  // the kernels (src/ciede/ciede_kernels.hpp)

using CiedeLevel = TableLevel<CiedeKernels>;

constexpr int kMaxWidth = 700;

enum class Colour { random, grey, near_grey, one_channel, equal, extremes, repeats, count };

const char* colour_name(Colour c) {
    static const char* const names[] = {"random", "grey",  "near_grey",
                                        "one_channel", "equal", "extremes", "repeats"};
    return names[static_cast<int>(c)];
}

// Fills w pixels of ref and dis (three planes each) with colour c.
void fill_row(Rng& rng, Colour c, int bpc, int w, std::vector<std::uint16_t> ref[3],
              std::vector<std::uint16_t> dis[3]) {
    const std::uint32_t max = (1u << bpc) - 1, mid = 128u << (bpc - 8);
    const auto any = [&] { return static_cast<std::uint16_t>(rng() % (max + 1)); };
    const auto near = [&](std::uint32_t centre, std::uint32_t spread) {
        const std::int64_t v = static_cast<std::int64_t>(centre) +
                               static_cast<std::int64_t>(rng() % (2 * spread + 1)) - spread;
        return static_cast<std::uint16_t>(v < 0 ? 0 : v > max ? max : v);
    };
    for (int p = 0; p < 3; ++p) {
        ref[p].assign(static_cast<std::size_t>(w), 0);
        dis[p].assign(static_cast<std::size_t>(w), 0);
    }
    for (int x = 0; x < w; ++x) {
        for (int p = 0; p < 3; ++p) {
            switch (c) {
                case Colour::random:
                case Colour::one_channel:
                case Colour::equal:
                case Colour::repeats:
                    ref[p][x] = any();
                    dis[p][x] = any();
                    break;
                case Colour::grey:
                    ref[p][x] = p == 0 ? any() : static_cast<std::uint16_t>(mid);
                    dis[p][x] = p == 0 ? any() : static_cast<std::uint16_t>(mid);
                    break;
                case Colour::near_grey:
                    ref[p][x] = p == 0 ? any() : near(mid, 2);
                    dis[p][x] = p == 0 ? any() : near(mid, 2);
                    break;
                case Colour::extremes:
                    ref[p][x] = static_cast<std::uint16_t>(rng() % 2 ? max : 0);
                    dis[p][x] = static_cast<std::uint16_t>(rng() % 2 ? max : 0);
                    break;
                case Colour::count: break;
            }
        }
        if (c == Colour::one_channel) {
            for (int p = 0; p < 3; ++p) dis[p][x] = ref[p][x];
            dis[rng() % 3][x] = any();
        }
        if (c == Colour::equal && rng() % 2)
            for (int p = 0; p < 3; ++p) dis[p][x] = ref[p][x];
        // Runs of one pixel (both triples its left neighbour's), some of
        // equal triples, and pixels that repeat only one side.
        if (c == Colour::repeats && x > 0 && rng() % 4 != 0) {
            const unsigned sides = rng() % 8;
            for (int p = 0; p < 3; ++p) {
                if (sides != 1) ref[p][x] = ref[p][x - 1];
                if (sides != 2) dis[p][x] = dis[p][x - 1];
            }
        }
        if (c == Colour::repeats && rng() % 16 == 0)
            for (int p = 0; p < 3; ++p) dis[p][x] = ref[p][x];
    }
}

// Both rows, fresh caches; the first differing pixel into ctx's failure.
bool rows_match(Context& ctx, const CiedeLevel& L, int band, const std::string& what, int bpc,
                int w, const std::vector<std::uint16_t> ref[3],
                const std::vector<std::uint16_t> dis[3]) {
    const std::uint16_t* r[3] = {ref[0].data(), ref[1].data(), ref[2].data()};
    const std::uint16_t* d[3] = {dis[0].data(), dis[1].data(), dis[2].data()};
    std::vector<float> want(static_cast<std::size_t>(w)), got(static_cast<std::size_t>(w) + 2);
    const float canary = -12345.0f;
    got.front() = got.back() = canary;
    ciede::LabCache scalar_labs(bpc), simd_labs(bpc);
    // Sums from an inexact start, so that every addition rounds.
    const double start = 1.0 / 3.0;
    const double want_sum =
        ciede::delta_e_row(ciede_kernels_scalar(), r, d, w, scalar_labs, want.data(), start);
    const double got_sum =
        ciede::delta_e_row(*L.kernels, r, d, w, simd_labs, got.data() + 1, start);
    ctx.band();
    if (got.front() != canary || got.back() != canary) {
        ctx.fail(band) << what << ": wrote outside [0, " << w << ")";
        return false;
    }
    // The row's sum, in pixel order, from the scalar's values.
    double in_order = start;
    for (float v : want) in_order += v;
    if (std::memcmp(&want_sum, &in_order, sizeof(double)) != 0 ||
        std::memcmp(&got_sum, &in_order, sizeof(double)) != 0) {
        ctx.fail(band) << what << ": row sum " << in_order << " in pixel order, scalar row "
                       << want_sum << ", " << L.level.name << " " << got_sum;
        return false;
    }
    // The scalar row itself against each pixel's own conversion and delta
    // E (the row's shared steps: the Lab cache, the pixels that repeat
    // their left neighbour).
    for (int x = 0; x < w; ++x) {
        const ciede::Lab a = ciede::lab_from_yuv(r[0][x], r[1][x], r[2][x], bpc);
        const ciede::Lab b = ciede::lab_from_yuv(d[0][x], d[1][x], d[2][x], bpc);
        const bool equal = r[0][x] == d[0][x] && r[1][x] == d[1][x] && r[2][x] == d[2][x];
        const float direct = equal ? 0.0f : ciede::delta_e_2000(a, b);
        if (std::memcmp(&want[x], &direct, sizeof(float)) != 0) {
            ctx.fail(band) << what << ": [" << x << "] scalar row " << want[x]
                           << ", the pixel's own delta E " << direct;
            return false;
        }
    }
    for (int x = 0; x < w; ++x) {
        if (std::memcmp(&want[x], &got[x + 1], sizeof(float)) != 0) {
            ctx.fail(band) << what << ": [" << x << "] ref (" << r[0][x] << "," << r[1][x] << ","
                           << r[2][x] << ") dis (" << d[0][x] << "," << d[1][x] << "," << d[2][x]
                           << "): scalar " << want[x] << ", " << L.level.name << " " << got[x + 1];
            return false;
        }
    }
    return true;
}

// One Lab value no conversion gives.
float hostile_lab(Rng& rng, bool lightness) {
    const float big = lightness ? 400.0f : 3000.0f;
    switch (rng() % 8) {
        case 0: return 0.0f;
        case 1: return -0.0f;
        case 2: return (rng() % 2 ? -1.0f : 1.0f) * 1e-40f * static_cast<float>(rng() % 1000);
        case 3: return (rng() % 2 ? -1.0f : 1.0f) * 1e-20f * static_cast<float>(rng() % 1000);
        case 4: return (rng() % 2 ? -big : big) * static_cast<float>(rng() % 1000) / 1000.0f;
        default: return (rng() % 2 ? -150.0f : 150.0f) * static_cast<float>(rng() % 100000) / 1e5f;
    }
}

// n random hostile pairs; some share a hue, some are opposite.
void fill_hostile(Rng& rng, int n, std::vector<float> lab[6]) {
    for (auto& v : std::span(lab, 6)) v.assign(static_cast<std::size_t>(n), 0.0f);
    for (int i = 0; i < n; ++i) {
        for (int c = 0; c < 6; ++c) lab[c][i] = hostile_lab(rng, c % 3 == 0);
        const float s = static_cast<float>(rng() % 100) / 16.0f;
        if (rng() % 4 == 0) lab[4][i] = lab[1][i] * s, lab[5][i] = lab[2][i] * s;
        if (rng() % 4 == 0) lab[4][i] = -lab[1][i] * s, lab[5][i] = -lab[2][i] * s;
    }
}

bool lab_band_matches(Context& ctx, const CiedeLevel& L, int band, int n, std::vector<float> lab[6]) {
    const LabPairs in{lab[0].data(), lab[1].data(), lab[2].data(),
                      lab[3].data(), lab[4].data(), lab[5].data()};
    std::vector<float> want(static_cast<std::size_t>(n)), got(static_cast<std::size_t>(n) + 2);
    const float canary = -12345.0f;
    got.front() = got.back() = canary;
    ciede_kernels_scalar().delta_e(in, n, want.data());
    L.kernels->delta_e(in, n, got.data() + 1);
    ctx.band();
    if (got.front() != canary || got.back() != canary) {
        ctx.fail(band) << "n=" << n << ": wrote outside [0, n)";
        return false;
    }
    for (int i = 0; i < n; ++i) {
        if (std::memcmp(&want[i], &got[i + 1], sizeof(float)) != 0) {
            ctx.fail(band) << "n=" << n << " [" << i << "] Lab (" << lab[0][i] << "," << lab[1][i]
                           << "," << lab[2][i] << ") (" << lab[3][i] << "," << lab[4][i] << ","
                           << lab[5][i] << "): scalar " << want[i] << ", " << L.level.name << " "
                           << got[i + 1];
            return false;
        }
    }
    return true;
}

void check_delta_e(Context& ctx, const CiedeLevel& L) {
    if (!ctx.check("ciede_delta_e", L.level)) return;
    Rng rng = ctx.rng();
    const int depths[] = {8, 10, 12, 16};
    std::vector<std::uint16_t> ref[3], dis[3];
    std::vector<float> lab[6];
    int band = 0;
    for (int b = 0; b < ctx.bands() && ctx.ok(); ++b, ++band) {
        const int w = band_width(rng, b / 2, kMaxWidth);
        if (b % 2) {
            fill_hostile(rng, w, lab);
            ctx.at_band(band, "hostile Lab n=" + std::to_string(w));
            lab_band_matches(ctx, L, band, w, lab);
            continue;
        }
        const int bpc = depths[rng() % 4];
        const Colour c = static_cast<Colour>(rng() % static_cast<int>(Colour::count));
        fill_row(rng, c, bpc, w, ref, dis);
        const std::string what = "w=" + std::to_string(w) + " bpc=" + std::to_string(bpc) +
                                 " colour=" + colour_name(c);
        ctx.at_band(band, what);
        rows_match(ctx, L, band, what, bpc, w, ref, dis);
    }
    if (ctx.benching()) {
        const int n = 256;
        fill_row(rng, Colour::random, 8, n, ref, dis);
        for (auto& v : std::span(lab, 6)) v.resize(n);
        for (int i = 0; i < n; ++i) {
            const ciede::Lab a = ciede::lab_from_yuv(ref[0][i], ref[1][i], ref[2][i], 8);
            const ciede::Lab b = ciede::lab_from_yuv(dis[0][i], dis[1][i], dis[2][i], 8);
            lab[0][i] = a.l, lab[1][i] = a.a, lab[2][i] = a.b;
            lab[3][i] = b.l, lab[4][i] = b.a, lab[5][i] = b.b;
        }
        const LabPairs in{lab[0].data(), lab[1].data(), lab[2].data(),
                          lab[3].data(), lab[4].data(), lab[5].data()};
        std::vector<float> out(n);
        ctx.bench([&] { ciede_kernels_scalar().delta_e(in, n, out.data()); },
                  [&] { L.kernels->delta_e(in, n, out.data()); });
    }
    ctx.done();
}

// ciede_keys: the differing pixels of a row part with their Lab cache keys
// and sets, both key widths (bits 10 up to 10-bit samples, 16 above) and,
// for 8-bit samples, either kind of set (hashed or LabBlocks' groups), any
// part x0 .. x1 of a row (lengths 0 .. 64 and longer, any start), rows of
// every colour (equal pixels in runs and alone); the count, every key, set
// and column, the zeros written for equal pixels, and nothing else of out
// (poisoned) nor past the arrays' slack.
constexpr std::uint64_t kPoison = 0xA5A5A5A5A5A5A5A5ull;

void check_keys(Context& ctx, const CiedeLevel& L) {
    if (!ctx.check("ciede_keys", L.level)) return;
    Rng rng = ctx.rng();
    const int depths[] = {8, 10, 12, 16};
    std::vector<std::uint16_t> ref[3], dis[3];
    struct Found {
        std::vector<std::uint64_t> key[2];
        std::vector<std::uint32_t> set[2];
        std::vector<int> where;
        std::vector<float> out;
        LabKeys view(int at) {
            return {{key[0].data() + at, key[1].data() + at},
                    {set[0].data() + at, set[1].data() + at},
                    where.data() + at};
        }
        void poison(std::size_t room, int w) {
            for (auto& k : key) k.assign(room, kPoison);
            for (auto& s : set) s.assign(room, 0xA5A5A5A5u);
            where.assign(room, -7);
            out.assign(static_cast<std::size_t>(w), -12345.0f);
        }
    } want, got;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        const int bpc = depths[rng() % 4];
        const Colour c = static_cast<Colour>(rng() % static_cast<int>(Colour::count));
        fill_row(rng, c, bpc, w, ref, dis);
        // Runs of equal pixels too.
        if (rng() % 2)
            for (int x = 0; x < w; ++x)
                if ((x / 5) % 3 == 0)
                    for (int p = 0; p < 3; ++p) dis[p][x] = ref[p][x];
        const int x0 = static_cast<int>(rng() % static_cast<unsigned>(w + 1));
        const int x1 = x0 + static_cast<int>(rng() % static_cast<unsigned>(w - x0 + 1));
        const int bits = bpc <= 10 ? 10 : 16;
        const LabSets sets = bpc == 8 && rng() % 2 ? LabSets::groups : LabSets::hashed;
        const std::string what = "w=" + std::to_string(w) + " x0=" + std::to_string(x0) +
                                 " x1=" + std::to_string(x1) + " bpc=" + std::to_string(bpc) +
                                 " colour=" + colour_name(c) +
                                 (sets == LabSets::groups ? " groups" : " hashed");
        ctx.at_band(band, what);
        const std::size_t room = static_cast<std::size_t>(x1 - x0) + kLabKeysSlack + 1;
        want.poison(room, w);
        got.poison(room, w);
        const std::uint16_t* r[3] = {ref[0].data(), ref[1].data(), ref[2].data()};
        const std::uint16_t* d[3] = {dis[0].data(), dis[1].data(), dis[2].data()};
        const int n =
            ciede_kernels_scalar().keys(r, d, x0, x1, bits, sets, want.out.data(), want.view(0));
        const int m = L.kernels->keys(r, d, x0, x1, bits, sets, got.out.data(), got.view(0));
        ctx.band();
        if (n != m) {
            ctx.fail(band) << what << ": " << n << " differing pixels, " << L.level.name << " "
                           << m;
            continue;
        }
        bool same = want.out == got.out;
        for (int i = 0; same && i < n; ++i)
            same = want.key[0][i] == got.key[0][i] && want.key[1][i] == got.key[1][i] &&
                   want.set[0][i] == got.set[0][i] && want.set[1][i] == got.set[1][i] &&
                   want.where[i] == got.where[i];
        // Past the slack every array is as poisoned.
        const std::size_t past = static_cast<std::size_t>(n) + kLabKeysSlack;
        same = same && (past >= room || (got.key[0][past] == kPoison && got.key[1][past] == kPoison &&
                                         got.where[past] == -7));
        if (!same) ctx.fail(band) << what << ": keys, sets, columns or out differ";
    }
    ctx.done();
}

// A float in [lo, hi], uniform in its logarithm (lo > 0).
double log_uniform(Rng& rng, double lo, double hi) {
    const double u = static_cast<double>(rng() >> 11) * 0x1p-53;
    return static_cast<float>(lo * std::pow(hi / lo, u));
}
double uniform(Rng& rng, double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1p-53);
}

struct LibmCase {
    CiedeLibm fn;
    const char* name;
    bool absolute;
};

// n arguments of fn, drawn from the domain the twin's proof covers.
void draw_arguments(Rng& rng, CiedeLibm fn, int n, std::vector<double>& x, std::vector<double>& y) {
    constexpr double kPi = 3.14159265358979323846;
    x.resize(static_cast<std::size_t>(n));
    y.assign(static_cast<std::size_t>(n), 1.0);
    for (int i = 0; i < n; ++i) {
        const int kind = static_cast<int>(rng() % 4);
        switch (fn) {
            case CiedeLibm::pow7:
                x[i] = kind == 0 ? static_cast<double>(rng() % 300) : log_uniform(rng, 1e-30, 1e3);
                break;
            case CiedeLibm::atan2: {
                const auto side = [&] {
                    const double m = log_uniform(rng, 1e-30, 1e3);
                    return rng() % 2 ? -m : m;
                };
                x[i] = side();
                y[i] = kind == 0 ? x[i] * static_cast<float>(uniform(rng, 0.3, 0.5))  // near tan(pi/8)
                       : kind == 1 ? (rng() % 2 ? -0.0 : 0.0)
                       : kind == 2 ? (rng() % 2 ? x[i] : -x[i])
                                   : side();
                if (kind == 1 && rng() % 2) std::swap(x[i], y[i]);
                break;
            }
            case CiedeLibm::sin:
                if (kind == 0) {
                    // delta H's widest: a float dh / 2 nearest +-pi / 2
                    // (float(pi) is above pi), and +-0.
                    float f = static_cast<float>(kPi);
                    for (int s = static_cast<int>(rng() % 6); s > 0; --s) f = std::nextafter(f, 0.0f);
                    x[i] = rng() % 8 == 0 ? 0.0 : static_cast<double>(f) / 2.0;
                    if (rng() % 2) x[i] = -x[i];
                } else if (kind == 1) {
                    x[i] = static_cast<float>(uniform(rng, 0.0, kPi / 3));  // R_T's angle
                } else if (kind == 2) {
                    x[i] = static_cast<float>(log_uniform(rng, 1e-30, kPi)) / (rng() % 2 ? 2.0 : -2.0);
                } else {
                    x[i] = static_cast<float>(uniform(rng, -kPi, kPi)) / 2.0;
                }
                break;
            case CiedeLibm::cos: x[i] = uniform(rng, -10.0, 40.0); break;
            case CiedeLibm::hue_weight:
                // A float mean hue: [0, 2 pi), and up to 3 pi (mean_hue's
                // wrapped case).
                x[i] = static_cast<float>(uniform(rng, 0.0, kind == 0 ? 3 * kPi : 2 * kPi));
                break;
            case CiedeLibm::exp:
                x[i] = kind == 0   ? -static_cast<double>(static_cast<float>(uniform(rng, 0.0, 1.0)))
                       : kind == 1 ? uniform(rng, 0.0, 8.0)  // the conversion's pow
                                   : -log_uniform(rng, 1e-30, 700.0);
                break;
            case CiedeLibm::pow:
                // The conversion's: pow(., 2.4) of (c + 0.055) / 1.055 above
                // its threshold, and cube roots of the XYZ sums above
                // 216/24389, with some margin.
                if (kind % 2) {
                    y[i] = 2.4;
                    x[i] = uniform(rng, 0.08, 3.0);
                } else {
                    y[i] = 1.0 / 3.0;
                    x[i] = kind == 0 ? uniform(rng, 0.008, 10.0) : log_uniform(rng, 0.008, 10.0);
                }
                break;
            case CiedeLibm::settle: {
                // Near the midpoint of a float and its successor, a few
                // windows away on either side, and anywhere; one draw in
                // four of either from the whole float range (subnormal and
                // huge floats, powers of two: the twin's test by the
                // double's bits has cases at each), or a value below float's
                // subnormals, a zero, an infinity or a NaN.
                const double sign = rng() % 2 ? -1.0 : 1.0;
                const int range = static_cast<int>(rng() % 8);
                float f = static_cast<float>(log_uniform(rng, 1e-30, 1e3));
                if (range == 0) f = static_cast<float>(log_uniform(rng, 1e-45, 3e38));
                if (range == 1) f = std::ldexp(1.0f, static_cast<int>(rng() % 250) - 140);
                f *= static_cast<float>(sign);
                const double mid = (static_cast<double>(f) + std::nextafter(f, 2 * f)) / 2;
                x[i] = kind == 3 ? static_cast<double>(f) + f * 0x1p-30 * uniform(rng, -1.0, 1.0)
                                 : mid + std::fabs(mid) * kCiedeSettle * uniform(rng, -3.0, 3.0);
                if (range == 2) x[i] = sign * 1e-60 * std::pow(1e16, uniform(rng, 0.0, 1.0));
                if (range == 3 && kind == 0) x[i] = sign * 0.0;
                if (range == 3 && kind == 1) x[i] = sign * HUGE_VAL;
                if (range == 3 && kind == 2) x[i] = std::nan("");
                break;
            }
            case CiedeLibm::settle_t: {
                // T's window, 2^-40 absolute: around midpoints of floats
                // in [0.05, 2] (below 2^-4 too), and anywhere.
                const float f = static_cast<float>(uniform(rng, 0.05, 2.0));
                const double mid = (static_cast<double>(f) + std::nextafter(f, 2 * f)) / 2;
                x[i] = kind == 3 ? static_cast<double>(f) + f * 0x1p-30 * uniform(rng, -1.0, 1.0)
                                 : mid + kCiedeSettle * uniform(rng, -3.0, 3.0);
                break;
            }
        }
    }
}

void check_libm(Context& ctx, const CiedeLevel& L) {
    if (!ctx.check("ciede_libm", L.level)) return;
    Rng rng = ctx.rng();
    const LibmCase cases[] = {{CiedeLibm::pow7, "pow7", false},
                              {CiedeLibm::atan2, "atan2", false},
                              {CiedeLibm::sin, "sin", false},
                              {CiedeLibm::cos, "cos", true},
                              {CiedeLibm::exp, "exp", false},
                              {CiedeLibm::hue_weight, "hue_weight", true},
                              {CiedeLibm::settle, "settle", false},
                              {CiedeLibm::settle_t, "settle_t", true},
                              {CiedeLibm::pow, "pow", false}};
    constexpr int kCases = sizeof(cases) / sizeof(cases[0]);
    constexpr int kPerBand = 257;  // a tail at every lane count
    std::vector<double> x, y, want(kPerBand), got(kPerBand);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const LibmCase& lc = cases[band % kCases];
        draw_arguments(rng, lc.fn, kPerBand, x, y);
        ctx.at_band(band, lc.name);
        ciede_kernels_scalar().libm(lc.fn, x.data(), y.data(), kPerBand, want.data());
        L.kernels->libm(lc.fn, x.data(), y.data(), kPerBand, got.data());
        ctx.band();
        const bool settle = lc.fn == CiedeLibm::settle || lc.fn == CiedeLibm::settle_t;
        for (int i = 0; i < kPerBand && settle; ++i) {
            if (got[i] == 1.0 && want[i] != 1.0) {
                ctx.fail(band) << lc.name << "(" << x[i] << "): " << L.level.name
                               << " settles where a value within the window rounds elsewhere";
                break;
            }
        }
        for (int i = 0; i < kPerBand && !settle; ++i) {
            const double err = std::fabs(got[i] - want[i]);
            const double bound = (lc.fn == CiedeLibm::hue_weight || lc.fn == CiedeLibm::pow
                                      ? 0x1p-46
                                      : 0x1p-48) *
                                 (lc.absolute ? 1.0 : std::fabs(want[i]));
            const bool zero_ok = want[i] != 0.0 || std::memcmp(&want[i], &got[i], sizeof(double)) == 0;
            if (!(err <= bound) || !zero_ok) {
                ctx.fail(band) << lc.name << "(" << x[i] << (lc.fn == CiedeLibm::atan2 ? ", " : "")
                               << (lc.fn == CiedeLibm::atan2 ? std::to_string(y[i]) : "")
                               << (lc.fn == CiedeLibm::pow ? ", " + std::to_string(y[i]) : "")
                               << "): libm " << want[i] << ", " << L.level.name << " " << got[i]
                               << " (error " << err << ", bound " << bound << ")";
                break;
            }
        }
    }
    ctx.done();
}

}  // namespace

// ciede_lab: the twins' conversion of triples against lab_from_yuv, bit for
// bit (memcmp of L, a, b), at 8, 10, 12 and 16 bits: any triple; dark ones
// near grey, where an XYZ sum crosses the cube root's threshold 216/24389
// (a grey of y' about 0.1: 8-bit y about 38); saturated ones (u or v at an
// end: out-of-gamut colours, whose negative linear components cancel in the
// sums); and the extreme samples. A canary past the n-th output.
void check_lab(Context& ctx, const CiedeLevel& L) {
    if (!ctx.check("ciede_lab", L.level)) return;
    Rng rng = ctx.rng();
    const int depths[] = {8, 10, 12, 16};
    const char* const kinds[] = {"any", "dark", "saturated", "extremes"};
    std::vector<std::uint16_t> t[3];
    std::vector<ciede::Lab> want, got;
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int n = band_width(rng, band, kMaxWidth);
        const int bpc = depths[rng() % 4];
        const int kind = static_cast<int>(rng() % 4);
        const std::uint32_t max = (1u << bpc) - 1, s = 1u << (bpc - 8);
        const auto in = [&](std::uint32_t lo, std::uint32_t hi) {
            return static_cast<std::uint16_t>(lo + rng() % (hi - lo + 1));
        };
        for (auto& p : t) p.resize(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            if (kind == 0) {
                for (auto& p : t) p[i] = in(0, max);
            } else if (kind == 1) {
                t[0][i] = in(16 * s, 60 * s);
                t[1][i] = in(124 * s, 132 * s);
                t[2][i] = in(124 * s, 132 * s);
            } else if (kind == 2) {
                t[0][i] = in(0, max);
                t[1][i] = rng() % 2 ? in(0, 20 * s) : in(236 * s, max);
                t[2][i] = rng() % 2 ? in(0, 20 * s) : in(236 * s, max);
            } else {
                for (auto& p : t) p[i] = rng() % 2 ? 0 : static_cast<std::uint16_t>(max);
            }
        }
        const std::string what = "n=" + std::to_string(n) + " bpc=" + std::to_string(bpc) +
                                 " kind=" + kinds[kind];
        ctx.at_band(band, what);
        const ciede::Lab canary{-1.5f, -2.5f, -3.5f};
        want.assign(static_cast<std::size_t>(n) + 1, canary);
        got.assign(static_cast<std::size_t>(n) + 1, canary);
        ciede_kernels_scalar().lab(t[0].data(), t[1].data(), t[2].data(), n, bpc, want.data());
        L.kernels->lab(t[0].data(), t[1].data(), t[2].data(), n, bpc, got.data());
        ctx.band();
        for (int i = 0; i <= n; ++i) {
            const ciede::Lab& w = want[i];
            const ciede::Lab& g = got[i];
            if (std::memcmp(&w.l, &g.l, sizeof(float)) != 0 ||
                std::memcmp(&w.a, &g.a, sizeof(float)) != 0 ||
                std::memcmp(&w.b, &g.b, sizeof(float)) != 0) {
                ctx.fail(band) << what << ": " << (i == n ? "wrote past n" : "triple ")
                               << (i == n ? "" : std::to_string(t[0][i]) + " " +
                                                     std::to_string(t[1][i]) + " " +
                                                     std::to_string(t[2][i]))
                               << ": scalar " << w.l << " " << w.a << " " << w.b << ", "
                               << L.level.name << " " << g.l << " " << g.a << " " << g.b;
                break;
            }
        }
    }
    ctx.done();
}

CHECKASM_MODULE(ciede) {
    for (const CiedeLevel& L : simd_tables(ctx, &ciede_kernels_for)) {
        if (L.owns(&CiedeKernels::delta_e)) check_delta_e(ctx, L);
        if (L.owns(&CiedeKernels::libm)) check_libm(ctx, L);
        if (L.owns(&CiedeKernels::keys)) check_keys(ctx, L);
        if (L.owns(&CiedeKernels::lab)) check_lab(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
