// checkasm module "adm": every AdmKernels entry of every SIMD level that has
// its own twin, against adm_kernels_scalar(), on generated bands: full int16 and
// int32 ranges, 3x4 blocks of -32768 / 32767, -32768 pairs in the angle
// test, negative thresholds and thresholds >= 2^19, gain limits 1, 1.2, 1.5,
// 100 and random ones in [1, 100), rfactors up to 2^16 - 1 / 2^32 - 1, every
// width 1..70 and random wider ones (all residues of the 4-, 8- and 16-lane
// blocks), random regions and strides. Outputs are 2-D bands with guard
// samples on every side, pre-filled with a pattern; the first difference
// anywhere (a guard sample is marked [guard]) fails the band.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "adm/adm_kernels.hpp"
#include "checkasm/checkasm.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {
namespace {

using namespace vmafpp::adm;

class Gen {
public:
    explicit Gen(Rng rng) : rng_(rng) {}
    std::uint64_t u64() { return rng_(); }
    int uniform(int lo, int hi) { return lo + static_cast<int>(u64() % static_cast<std::uint64_t>(hi - lo + 1)); }
    bool chance(int percent) { return uniform(0, 99) < percent; }
    template <class T>
    T pick(std::initializer_list<T> v) { return v.begin()[uniform(0, static_cast<int>(v.size()) - 1)]; }

    // An int16 value under one of several distributions chosen per band.
    std::int16_t i16(int mode) {
        switch (mode) {
            case 0: return static_cast<std::int16_t>(u64());                    // full range
            case 1: return pick<std::int16_t>({-32768, 32767, 0, -1, 1, -32767, 15360, -15360});
            case 2: return static_cast<std::int16_t>(uniform(-300, 300));        // decoder-like
            case 3: return static_cast<std::int16_t>(uniform(-40, 40));
            default: return chance(50) ? std::int16_t{-32768} : static_cast<std::int16_t>(u64());
        }
    }
    std::int32_t i32(int mode) {
        switch (mode) {
            case 0: return static_cast<std::int32_t>(u64());
            case 1: return pick<std::int32_t>({INT32_MIN, INT32_MAX, 0, -1, 1, 1 << 30, -(1 << 30), 65536});
            case 2: return uniform(-100000, 100000);
            case 3: return uniform(-300, 300);
            default: return chance(50) ? INT32_MIN : static_cast<std::int32_t>(u64() >> 40);
        }
    }

private:
    Rng rng_;
};

// A w x h band of T with `guard` samples on every side, pre-filled with a
// pattern (so a stray store shows), addressed from its first in-band sample.
template <class T>
struct Band {
    static constexpr int guard = 24;
    int w = 0, h = 0;
    std::ptrdiff_t stride = 0;
    std::vector<T> mem;
    Band(int w_, int h_, std::ptrdiff_t stride_) : w(w_), h(h_), stride(stride_) {
        mem.resize(static_cast<std::size_t>((h + 2 * guard) * stride + 2 * guard));
        for (std::size_t i = 0; i < mem.size(); ++i) mem[i] = static_cast<T>(0x5A5A5A5A5A5A5A5Aull ^ (i * 0x3F));
    }
    T* at(int x, int y) { return mem.data() + (y + guard) * stride + guard + x; }
    T* origin() { return at(0, 0); }
};

// First difference of two equally laid-out buffers as "(x, y)" relative to
// the band origin (negative or past the band: a guard sample).
template <class T>
bool band_difference(const Band<T>& s, const Band<T>& v, std::string& where) {
    for (std::size_t i = 0; i < s.mem.size(); ++i) {
        if (s.mem[i] != v.mem[i]) {
            const std::ptrdiff_t off = static_cast<std::ptrdiff_t>(i) - (Band<T>::guard * s.stride + Band<T>::guard);
            const std::ptrdiff_t y = off >= 0 ? off / s.stride : -((-off + s.stride - 1) / s.stride);
            const std::ptrdiff_t x = off - y * s.stride;
            char buf[160];
            std::snprintf(buf, sizeof buf, "(x=%td, y=%td)%s: scalar %" PRId64 ", simd %" PRId64, x, y,
                          (x < 0 || y < 0 || x >= s.w || y >= s.h) ? " [guard]" : "",
                          static_cast<std::int64_t>(s.mem[i]), static_cast<std::int64_t>(v.mem[i]));
            where = buf;
            return true;
        }
    }
    return false;
}

struct Failure {
    bool failed = false;
    std::string text;
};

template <class T>
void compare(const char* name, const Band<T>& s, const Band<T>& v, Failure& f) {
    if (f.failed) return;
    std::string where;
    if (band_difference(s, v, where)) {
        f.failed = true;
        f.text = std::string(name) + " " + where;
    }
}

void compare_values(const char* name, const std::int64_t* s, const std::int64_t* v, int n, Failure& f) {
    for (int i = 0; i < n && !f.failed; ++i)
        if (s[i] != v[i]) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "%s[%d]: scalar %" PRId64 ", simd %" PRId64, name, i, s[i], v[i]);
            f.failed = true;
            f.text = buf;
        }
}

Rect random_region(Gen& g, int w, int h, int min_w) {
    Rect r;
    if (g.chance(30)) return {0, 0, w, h};
    r.x0 = g.uniform(0, w - min_w);
    r.x1 = g.uniform(r.x0 + min_w, w);
    r.y0 = g.uniform(0, h - 1);
    r.y1 = g.uniform(r.y0 + 1, h);
    return r;
}

std::ptrdiff_t random_stride(Gen& g, int w) { return w + g.pick<int>({0, 0, 1, 3, 8, 17}); }

// Band widths: every residue modulo 16 and 8 turns up, plus some wide ones.
int random_width(Gen& g, int lo) { return g.chance(10) ? g.uniform(lo, 260) : g.uniform(lo, 70); }

template <class T, class Fill>
void fill_band(Band<T>& b, Fill fill) {
    for (int y = 0; y < b.h; ++y)
        for (int x = 0; x < b.w; ++x) *b.at(x, y) = fill(x, y);
}

// Fills a band under a random mode; sometimes overlays 3x4 blocks of one
// extreme value.
void fill_i16(Gen& g, Band<std::int16_t>& b, int mode) {
    fill_band(b, [&](int, int) { return g.i16(mode); });
    if (g.chance(30)) {
        const std::int16_t v = g.pick<std::int16_t>({-32768, 32767});
        const int bx = g.uniform(0, b.w - 1), by = g.uniform(0, b.h - 1);
        for (int y = by; y < std::min(b.h, by + 3); ++y)
            for (int x = bx; x < std::min(b.w, bx + 4); ++x) *b.at(x, y) = v;
    }
}
void fill_i32(Gen& g, Band<std::int32_t>& b, int mode) {
    fill_band(b, [&](int, int) { return g.i32(mode); });
}

// --------------------------------------------------------------------------
// One check per kernel family: builds a case, runs both sets, compares.

// The rows a DWT case asks for: all of them or, in half the cases, a strip
// (as ADM's strip loop does); a fifth of the cases want the approximation
// alone (no h/v/d bands).
struct DwtRows {
    int y0 = 0, y1 = 0;
    bool approx_only = false;
    DwtRows(Gen& g, int oh) : y1(oh) {
        if (g.chance(50)) {
            y0 = g.uniform(0, oh - 1);
            y1 = g.uniform(y0 + 1, oh);
        }
        approx_only = g.chance(20);
    }
    std::string text() const {
        return " rows=[" + std::to_string(y0) + "," + std::to_string(y1) + ")" +
               (approx_only ? " approx-only" : "");
    }
};

// The scalar and SIMD outputs of one DWT case (ow x rows bands, poisoned
// alike), and their comparison.
template <class T>
struct DwtOutputs {
    Band<T> as, av;
    Band<T> bands_s[3], bands_v[3];
    T* hs_bands[3];
    T* hv_bands[3];
    bool approx_only;
    DwtOutputs(int ow, const DwtRows& r, std::ptrdiff_t bs)
        : as(ow, r.y1 - r.y0, bs),
          av(ow, r.y1 - r.y0, bs),
          bands_s{{ow, r.y1 - r.y0, bs}, {ow, r.y1 - r.y0, bs}, {ow, r.y1 - r.y0, bs}},
          bands_v{{ow, r.y1 - r.y0, bs}, {ow, r.y1 - r.y0, bs}, {ow, r.y1 - r.y0, bs}},
          approx_only(r.approx_only) {
        for (int t = 0; t < 3; ++t) {
            hs_bands[t] = bands_s[t].origin();
            hv_bands[t] = bands_v[t].origin();
        }
    }
    T* const* hs() { return approx_only ? nullptr : hs_bands; }
    T* const* hv() { return approx_only ? nullptr : hv_bands; }
    Failure compare_all() const {
        Failure f;
        compare("band_a", as, av, f);
        compare("band_h", bands_s[0], bands_v[0], f);
        compare("band_v", bands_s[1], bands_v[1], f);
        compare("band_d", bands_s[2], bands_v[2], f);
        return f;
    }
};

Failure check_dwt_s0(Gen& g, const AdmKernels& k, std::string& desc, bool u16) {
    const int w = random_width(g, 3), h = g.uniform(3, 9);
    const int bpc = u16 ? g.uniform(9, 16) : 8;
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    const std::ptrdiff_t bs = random_stride(g, ow);
    const int mode = g.uniform(0, 3);
    std::vector<std::uint16_t> src16(static_cast<std::size_t>(w * h));
    std::vector<std::uint8_t> src8(static_cast<std::size_t>(w * h));
    for (std::size_t i = 0; i < src16.size(); ++i) {
        std::uint32_t v = 0;
        const std::uint32_t max = u16 ? ((1u << bpc) - 1) : 255u;
        switch (mode) {
            case 0: v = static_cast<std::uint32_t>(g.u64()) & max; break;
            case 1: v = g.chance(50) ? max : 0; break;
            case 2: v = static_cast<std::uint32_t>(g.u64() & 0xffff) & (u16 ? 0xffffu : 0xffu); break;  // beyond bpc
            default: v = static_cast<std::uint32_t>(g.uniform(0, 7)) + max / 2; break;
        }
        src16[i] = static_cast<std::uint16_t>(v);
        src8[i] = static_cast<std::uint8_t>(v);
    }
    const DwtRows r(g, oh);
    desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " bpc=" + std::to_string(bpc) +
           " mode=" + std::to_string(mode) + r.text();
    DwtOutputs<std::int16_t> o(ow, r, bs);
    std::vector<std::int16_t> scratch_s(4 * static_cast<std::size_t>(w + 3)), scratch_v(scratch_s.size());
    if (u16) {
        adm_kernels_scalar().dwt_s0_u16(src16.data(), w, w, h, bpc, r.y0, r.y1, scratch_s.data(),
                                    o.as.origin(), o.hs(), bs);
        k.dwt_s0_u16(src16.data(), w, w, h, bpc, r.y0, r.y1, scratch_v.data(), o.av.origin(),
                     o.hv(), bs);
    } else {
        adm_kernels_scalar().dwt_s0_u8(src8.data(), w, w, h, r.y0, r.y1, scratch_s.data(),
                                   o.as.origin(), o.hs(), bs);
        k.dwt_s0_u8(src8.data(), w, w, h, r.y0, r.y1, scratch_v.data(), o.av.origin(), o.hv(), bs);
    }
    return o.compare_all();
}

// dwt_s123 (T = int32_t, scales 1-3) or dwt_s1 (T = int16_t, the int16
// scale-0 approximation, scale 1).
template <class T>
Failure check_dwt_scale(Gen& g, const AdmKernels& k, std::string& desc) {
    constexpr bool s1 = sizeof(T) == 2;
    const int w = random_width(g, 3), h = g.uniform(3, 9), scale = s1 ? 1 : g.uniform(1, 3);
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    const std::ptrdiff_t bs = random_stride(g, ow), ss = random_stride(g, w);
    const int mode = g.uniform(0, 4);
    std::vector<T> src(static_cast<std::size_t>(ss * h));
    for (auto& v : src) {
        if constexpr (s1)
            v = g.i16(mode);
        else
            v = g.i32(mode);
    }
    const DwtRows r(g, oh);
    desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " scale=" + std::to_string(scale) +
           " mode=" + std::to_string(mode) + r.text();
    DwtOutputs<std::int32_t> o(ow, r, bs);
    std::vector<std::int32_t> scratch_s(4 * static_cast<std::size_t>(w + 3)), scratch_v(scratch_s.size());
    if constexpr (s1) {
        adm_kernels_scalar().dwt_s1(src.data(), ss, w, h, r.y0, r.y1, scratch_s.data(), o.as.origin(),
                                o.hs(), bs);
        k.dwt_s1(src.data(), ss, w, h, r.y0, r.y1, scratch_v.data(), o.av.origin(), o.hv(), bs);
    } else {
        adm_kernels_scalar().dwt_s123(src.data(), ss, w, h, scale, r.y0, r.y1, scratch_s.data(),
                                  o.as.origin(), o.hs(), bs);
        k.dwt_s123(src.data(), ss, w, h, scale, r.y0, r.y1, scratch_v.data(), o.av.origin(),
                   o.hv(), bs);
    }
    return o.compare_all();
}

double random_gain(Gen& g) {
    if (g.chance(80)) return g.pick<double>({1.0, 1.2, 1.5, 100.0});
    // Integral gains at the edges of the AVX-512 scale-0 products: int16
    // (vpmaddwd) up to 32767 and from -32768, int32 (vpmulld) beyond.
    if (g.chance(25)) return g.pick<double>({32767.0, -32768.0, -3.0, 32768.0, 65535.0, -40000.0});
    return 1.0 + static_cast<double>(g.u64() % 99000000) / 1e6;
}

// The scalar's and the twin's decouple of the six bands `nin` (ref h, v, d,
// then dis h, v, d) at `gain` into out and outv, compared band by band,
// each name followed by " (" + what + ")".
template <class T>
void compare_decouple(const AdmKernels& k, std::ptrdiff_t stride, Rect region, double gain,
                      std::vector<Band<T>>& nin, std::vector<Band<T>>& out,
                      std::vector<Band<T>>& outv, const std::string& what, Failure& f) {
    const T* nref[3] = {nin[0].origin(), nin[1].origin(), nin[2].origin()};
    const T* ndis[3] = {nin[3].origin(), nin[4].origin(), nin[5].origin()};
    T* rs[3] = {out[0].origin(), out[1].origin(), out[2].origin()};
    T* as[3] = {out[3].origin(), out[4].origin(), out[5].origin()};
    T* rv[3] = {outv[0].origin(), outv[1].origin(), outv[2].origin()};
    T* av[3] = {outv[3].origin(), outv[4].origin(), outv[5].origin()};
    if constexpr (sizeof(T) == 2) {
        adm_kernels_scalar().decouple_s0(nref, ndis, stride, region, gain, rs, as);
        k.decouple_s0(nref, ndis, stride, region, gain, rv, av);
    } else {
        adm_kernels_scalar().decouple_s123(nref, ndis, stride, region, gain, rs, as);
        k.decouple_s123(nref, ndis, stride, region, gain, rv, av);
    }
    static constexpr const char* kBands[6] = {"r_h", "r_v", "r_d", "a_h", "a_v", "a_d"};
    for (int i = 0; i < 6; ++i)
        compare((std::string(kBands[i]) + " (" + what + ")").c_str(), out[i], outv[i], f);
}

// A decouple case of scales 1-3 once more (nin: its bands, h and v of ref
// and dis replaced here), at gain 100: ref h = +-(bound - 1 .. bound + 1)
// with bound = (2^31 - 1) / 100, v = 0, and the distorted h at the int32
// extreme of the same sign, so the angle passes, k = 2^15 and rst * 100
// sits at the edge of int32, where the limited value is either the exact
// product or t.
void check_decouple_int32_edge(const AdmKernels& k, int w, int h, std::ptrdiff_t stride,
                               Rect region, std::vector<Band<std::int32_t>>& nin,
                               std::vector<Band<std::int32_t>>& out,
                               std::vector<Band<std::int32_t>>& outv, Failure& f) {
    using T = std::int32_t;
    const std::int64_t bound = 0x7fffffff / 100;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const bool neg = (x / 3 + y) % 2 != 0;
            const std::int64_t m = bound - 1 + x % 3;
            *nin[0].at(x, y) = static_cast<T>(neg ? -m : m);
            *nin[1].at(x, y) = 0;
            *nin[3].at(x, y) = neg ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
            *nin[4].at(x, y) = 0;
        }
    compare_decouple(k, stride, region, 100.0, nin, out, outv, "int32 edge", f);
}

// A decouple case once more (nin: its bands, all six replaced here, no
// further draws): reference (h, v) of magnitude 16000..23000 (times 2^15
// at scales 1-3, where the float conversions round too) at a hashed
// direction, the distorted (h, v) that turned by 1 degree +- 4e-5 radians
// and scaled by 0.8 or 1.3, at gain 100. Rounded to integers the angles
// fall within a few 1e-5 radians of 1 degree, where single-precision
// arithmetic cannot decide the scalar's double test (the twins' float
// shortcuts must defer to it there), and with the gain the decision shows:
// where the test passes r is t, where it fails r is about min(t, o).
template <class T>
void check_decouple_near_1deg_large(const AdmKernels& k, int w, int h, std::ptrdiff_t stride,
                                    Rect region, std::vector<Band<T>>& nin,
                                    std::vector<Band<T>>& out, std::vector<Band<T>>& outv,
                                    Failure& f) {
    const double unit = sizeof(T) == 2 ? 1.0 : 32768.0;
    const double pi = 3.14159265358979323846;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::uint64_t hash = (static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull) ^
                                       (static_cast<std::uint64_t>(y) * 0xC2B2AE3D27D4EB4Full);
            const std::uint64_t mix = hash ^ (hash >> 29);
            const double mag = (16000.0 + static_cast<double>(mix % 7001)) * unit;
            const double dir = static_cast<double>((mix >> 13) % 6284) * 1e-3;
            const double turn = pi / 180 + (static_cast<double>((mix >> 27) % 2001) - 1000.0) * 4e-8;
            const double scale = (mix >> 40) % 2 ? 1.3 : 0.8;
            *nin[0].at(x, y) = static_cast<T>(std::lround(mag * std::cos(dir)));
            *nin[1].at(x, y) = static_cast<T>(std::lround(mag * std::sin(dir)));
            *nin[2].at(x, y) = static_cast<T>((mix >> 20) % 2001 - 1000);
            *nin[3].at(x, y) = static_cast<T>(std::lround(scale * mag * std::cos(dir + turn)));
            *nin[4].at(x, y) = static_cast<T>(std::lround(scale * mag * std::sin(dir + turn)));
            *nin[5].at(x, y) = static_cast<T>((mix >> 31) % 2001 - 1000);
        }
    compare_decouple(k, stride, region, 100.0, nin, out, outv, "near 1 degree, large", f);
}

// The scalar's angle test for reference (oh, ov) and distorted (th, tv), in
// its own arithmetic (adm_scalar.cpp's angle_within_1deg: each sum through
// float, then double): d*d - cos^2 o t over cos^2 o t, >= 0 where the test
// passes. The sums stay far inside int64 for the magnitudes used here.
// `float_differs`: whether the same comparison with single-precision products
// of the same float sums (D = fl(d d), P = fl(fl(c o) t), the shortcut the
// twins take where a margin allows it) decides the other way.
double angle_margin_rel(std::int64_t oh, std::int64_t ov, std::int64_t th, std::int64_t tv,
                        bool* float_differs = nullptr) {
    const double pi = 3.14159265358979323846;
    const float cos_sq = static_cast<float>(std::cos(pi / 180) * std::cos(pi / 180));
    const float fd = static_cast<float>(oh * th + ov * tv);
    const float fo = static_cast<float>(oh * oh + ov * ov);
    const float ft = static_cast<float>(th * th + tv * tv);
    const double d = static_cast<double>(fd) / 4096.0;
    const double o = static_cast<double>(fo) / 4096.0;
    const double t = static_cast<double>(ft) / 4096.0;
    const double p = static_cast<double>(cos_sq) * o * t;
    const double margin = (d * d - p) / p;
    if (float_differs) {
        const float dd = fd * fd;
        const float pf = cos_sq * fo * ft;
        *float_differs = (dd >= pf) != (margin >= 0);
    }
    return margin;
}

// A decouple case once more (nin: its bands, all six replaced here, no
// further draws), at gain 100: one sample in 16 (a hash of the position picks
// it) has a distorted (h, v) whose angle to the reference's sits within
// about 1.5e-7 (relative, in the scalar's d^2 against cos^2 o t) of the
// 1-degree threshold, on either side: the integer (h, v) nearest a target
// margin is searched in the scalar's own arithmetic, preferring one that
// single-precision products of the same sums decide the other way. Every
// other sample turns by 0 or 10 degrees, far from the threshold. The twins'
// float tests must defer a sample that close to the exact test; a lone one
// decides its block by itself, so a float test without its margin on either side shows here
// (where every sample is near 1 degree, as in the cases above, nearly every
// block has an undecided sample and takes the exact test whole).
template <class T>
void check_decouple_lone_near_1deg(const AdmKernels& k, int w, int h, std::ptrdiff_t stride,
                                   Rect region, std::vector<Band<T>>& nin,
                                   std::vector<Band<T>>& out, std::vector<Band<T>>& outv,
                                   Failure& f) {
    const double unit = sizeof(T) == 2 ? 1.0 : 32768.0;
    const double pi = 3.14159265358979323846;
    const double cos1 = std::cos(pi / 180);
    // The case's geometry salts the hash, so that cases differ in their
    // samples as well as their layout.
    const std::uint64_t salt =
        (static_cast<std::uint64_t>(w) << 48) ^ (static_cast<std::uint64_t>(h) << 40) ^
        (static_cast<std::uint64_t>(stride) << 24) ^ (static_cast<std::uint64_t>(region.x0) << 12) ^
        static_cast<std::uint64_t>(region.x1) ^ (static_cast<std::uint64_t>(region.y1 - region.y0) << 36);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::uint64_t hash = (static_cast<std::uint64_t>(x) * 0xD6E8FEB86659FD93ull) ^
                                 (static_cast<std::uint64_t>(y) * 0x9E3779B97F4A7C15ull) ^ salt;
            hash *= 0xBF58476D1CE4E5B9ull;  // splitmix64's mixing of the salted position
            hash ^= hash >> 27;
            const std::uint64_t mix = hash ^ (hash >> 31);
            const double mag = (16000.0 + static_cast<double>(mix % 7001)) * unit;
            const double dir = static_cast<double>((mix >> 13) % 6284) * 1e-3;
            const double scale = (mix >> 40) % 2 ? 1.3 : 0.8;
            const std::int64_t oh = std::llround(mag * std::cos(dir));
            const std::int64_t ov = std::llround(mag * std::sin(dir));
            std::int64_t th, tv;
            if ((mix >> 44) % 16 == 0) {
                // The target margin in [-1.5e-7, 1.5e-7], never 0, and the
                // turn whose cos^2 is that far from cos^2(1 degree).
                const double target = (static_cast<double>((mix >> 48) % 3001) - 1500.5) * 1e-10;
                const double turn = std::acos(cos1 * std::sqrt(1.0 + target));
                const double ch = scale * mag * std::cos(dir + turn);
                const double cv = scale * mag * std::sin(dir + turn);
                // Among the candidates on the target's side, one that
                // single-precision products decide wrongly comes first
                // (float errs far more often towards passing, so without
                // this preference a lone sample that float fails wrongly is
                // rare), then the one nearest the target.
                double best = 2.0;
                th = std::llround(ch);
                tv = std::llround(cv);
                for (int i = -16; i <= 16; ++i)
                    for (int j = -16; j <= 16; ++j) {
                        const std::int64_t ch_i = std::llround(ch) + i, cv_j = std::llround(cv) + j;
                        bool float_differs = false;
                        const double m = angle_margin_rel(oh, ov, ch_i, cv_j, &float_differs);
                        if ((m >= 0) != (target >= 0)) continue;  // the target's side only
                        const double rank = std::fabs(m - target) + (float_differs ? 0.0 : 1.0);
                        if (rank < best) {
                            best = rank;
                            th = ch_i;
                            tv = cv_j;
                        }
                    }
            } else {
                const double turn = (mix >> 45) % 2 ? 0.0 : 10.0 * pi / 180;
                th = std::llround(scale * mag * std::cos(dir + turn));
                tv = std::llround(scale * mag * std::sin(dir + turn));
            }
            *nin[0].at(x, y) = static_cast<T>(oh);
            *nin[1].at(x, y) = static_cast<T>(ov);
            *nin[2].at(x, y) = static_cast<T>((mix >> 20) % 2001 - 1000);
            *nin[3].at(x, y) = static_cast<T>(th);
            *nin[4].at(x, y) = static_cast<T>(tv);
            *nin[5].at(x, y) = static_cast<T>((mix >> 31) % 2001 - 1000);
        }
    compare_decouple(k, stride, region, 100.0, nin, out, outv, "lone sample near 1 degree", f);
}

// A scale-0 decouple case once more (nin: scratch bands, no further
// draws): the case's bands with most distorted samples and a fifth of the
// reference samples zeroed (a hash of the position picks the survivors), so
// that many 16-sample blocks have no sample whose ref and dis are both
// non-zero (flat content, where the twins may skip the division), and the
// survivors sit at every lane position.
void check_decouple_sparse(const AdmKernels& k, int w, int h, std::ptrdiff_t stride, Rect region,
                           double gain, std::vector<Band<std::int16_t>>& in,
                           std::vector<Band<std::int16_t>>& nin,
                           std::vector<Band<std::int16_t>>& out,
                           std::vector<Band<std::int16_t>>& outv, Failure& f) {
    using T = std::int16_t;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::uint64_t hash = static_cast<std::uint64_t>(x) * 2654435761u + static_cast<std::uint64_t>(y) * 40503u;
            for (int t = 0; t < 3; ++t) {
                const std::uint64_t m = hash ^ (static_cast<std::uint64_t>(t) * 0x9E3779B9u);
                *nin[t].at(x, y) = (m >> 3) % 5 == 0 ? T{0} : *in[t].at(x, y);
                *nin[3 + t].at(x, y) = (m >> 7) % 29 == 0 ? *in[3 + t].at(x, y) : T{0};
            }
        }
    compare_decouple(k, stride, region, gain, nin, out, outv, "sparse", f);
}

template <class T>
Failure check_decouple(Gen& g, const AdmKernels& k, std::string& desc) {
    constexpr bool s0 = sizeof(T) == 2;
    const int w = random_width(g, 2), h = g.uniform(2, 6);
    const std::ptrdiff_t stride = random_stride(g, w);
    const Rect region = random_region(g, w, h, 1);
    const double gain = random_gain(g);
    const int mode_o = g.uniform(0, 4), mode_t = g.chance(30) ? mode_o : g.uniform(0, 4);
    desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " region=[" + std::to_string(region.x0) +
           "," + std::to_string(region.x1) + ")x[" + std::to_string(region.y0) + "," +
           std::to_string(region.y1) + ") gain=" + std::to_string(gain) + " modes=" +
           std::to_string(mode_o) + "," + std::to_string(mode_t);
    std::vector<Band<T>> in;
    for (int i = 0; i < 6; ++i) in.emplace_back(w, h, stride);
    for (int i = 0; i < 6; ++i) {
        if constexpr (s0)
            fill_i16(g, in[i], i < 3 ? mode_o : mode_t);
        else
            fill_i32(g, in[i], i < 3 ? mode_o : mode_t);
    }
    // Some cases: the distorted bands a scaled copy of the reference (angle
    // passes, the gain limit acts), or equal to it.
    if (g.chance(40)) {
        const int num = g.uniform(1, 3), den = g.pick<int>({1, 2});
        for (int t = 0; t < 3; ++t)
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    *in[3 + t].at(x, y) = static_cast<T>(static_cast<std::int64_t>(*in[t].at(x, y)) * num / den);
    }
    std::vector<Band<T>> out;
    for (int i = 0; i < 6; ++i) out.emplace_back(w, h, stride);
    const T* ref[3] = {in[0].origin(), in[1].origin(), in[2].origin()};
    const T* dis[3] = {in[3].origin(), in[4].origin(), in[5].origin()};
    T* rs[3] = {out[0].origin(), out[1].origin(), out[2].origin()};
    T* as[3] = {out[3].origin(), out[4].origin(), out[5].origin()};
    std::vector<Band<T>> outv;
    for (int i = 0; i < 6; ++i) outv.emplace_back(w, h, stride);
    T* rv[3] = {outv[0].origin(), outv[1].origin(), outv[2].origin()};
    T* av[3] = {outv[3].origin(), outv[4].origin(), outv[5].origin()};
    if constexpr (s0) {
        adm_kernels_scalar().decouple_s0(ref, dis, stride, region, gain, rs, as);
        k.decouple_s0(ref, dis, stride, region, gain, rv, av);
    } else {
        adm_kernels_scalar().decouple_s123(ref, dis, stride, region, gain, rs, as);
        k.decouple_s123(ref, dis, stride, region, gain, rv, av);
    }
    Failure f;
    const char* names[6] = {"r_h", "r_v", "r_d", "a_h", "a_v", "a_d"};
    for (int i = 0; i < 6; ++i) compare(names[i], out[i], outv[i], f);
    if (f.failed) return f;
    // The same case again with (h, v) of the distorted bands the reference's
    // turned by 1 degree plus up to 3e-6 radians (a hash of the position, no
    // further draws): there the angle test's float roundings decide, which
    // random bands almost never reach. Scales 1-3 take the reference >> 7,
    // the magnitudes of pictures (products below 2^51).
    std::vector<Band<T>> nin;
    for (int i = 0; i < 6; ++i) nin.emplace_back(w, h, stride);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::int64_t oh = s0 ? *in[0].at(x, y) : *in[0].at(x, y) >> 7;
            const std::int64_t ov = s0 ? *in[1].at(x, y) : *in[1].at(x, y) >> 7;
            const std::int64_t od = s0 ? *in[2].at(x, y) : *in[2].at(x, y) >> 7;
            const std::uint64_t hash = static_cast<std::uint64_t>(x * 7919 + y * 104729) ^
                                       static_cast<std::uint64_t>(oh);
            const double th = 3.14159265358979323846 / 180 +
                              (static_cast<double>(hash % 2001) - 1000.0) * 3e-9;
            auto clamp_t = [](double v) {
                const double lo = static_cast<double>(std::numeric_limits<T>::min());
                const double hi = static_cast<double>(std::numeric_limits<T>::max());
                return static_cast<T>(std::llround(std::min(std::max(v, lo), hi)));
            };
            *nin[0].at(x, y) = static_cast<T>(oh);
            *nin[1].at(x, y) = static_cast<T>(ov);
            *nin[2].at(x, y) = static_cast<T>(od);
            *nin[3].at(x, y) = clamp_t(oh * std::cos(th) - ov * std::sin(th));
            *nin[4].at(x, y) = clamp_t(oh * std::sin(th) + ov * std::cos(th));
            *nin[5].at(x, y) = *in[5].at(x, y);
        }
    // At scale 0 with the gain negated: the twins' path for a negative gain,
    // where r can leave int16 and wraps (random gains are >= 1).
    compare_decouple(k, stride, region, s0 ? -gain : gain, nin, out, outv, "1 degree", f);
    if constexpr (s0) {
        if (!f.failed) check_decouple_near_1deg_large(k, w, h, stride, region, nin, out, outv, f);
        if (!f.failed) check_decouple_lone_near_1deg(k, w, h, stride, region, nin, out, outv, f);
        if (!f.failed) check_decouple_sparse(k, w, h, stride, region, gain, in, nin, out, outv, f);
    } else {
        if (!f.failed) check_decouple_int32_edge(k, w, h, stride, region, nin, out, outv, f);
        if (!f.failed) check_decouple_near_1deg_large(k, w, h, stride, region, nin, out, outv, f);
        if (!f.failed) check_decouple_lone_near_1deg(k, w, h, stride, region, nin, out, outv, f);
    }
    return f;
}


template <class T>
Failure check_csf(Gen& g, const AdmKernels& k, std::string& desc) {
    constexpr bool s0 = sizeof(T) == 2;
    const int w = random_width(g, 2), h = g.uniform(1, 5);
    const std::ptrdiff_t stride = random_stride(g, w);
    const Rect region = random_region(g, w, h, 1);
    const int mode = g.uniform(0, 4);
    Band<T> src(w, h, stride), cs(w, h, stride), fs(w, h, stride), cv(w, h, stride), fv(w, h, stride);
    if constexpr (s0)
        fill_i16(g, src, mode);
    else
        fill_i32(g, src, mode);
    if constexpr (s0) {
        const std::uint16_t rf = g.chance(20) ? std::uint16_t{65535} : static_cast<std::uint16_t>(g.u64());
        const bool d = g.chance(50);
        const int shift = d ? 17 : 15;
        const std::int32_t round = d ? 65535 : 16384;
        desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " rfactor=" + std::to_string(rf) +
               " shift=" + std::to_string(shift) + " mode=" + std::to_string(mode);
        adm_kernels_scalar().csf_s0(src.origin(), stride, region, rf, shift, round, cs.origin(), fs.origin());
        k.csf_s0(src.origin(), stride, region, rf, shift, round, cv.origin(), fv.origin());
    } else {
        const std::uint32_t rf = g.chance(20) ? 0xffffffffu : static_cast<std::uint32_t>(g.u64());
        desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " rfactor=" + std::to_string(rf) +
               " mode=" + std::to_string(mode);
        adm_kernels_scalar().csf_s123(src.origin(), stride, region, rf, cs.origin(), fs.origin());
        k.csf_s123(src.origin(), stride, region, rf, cv.origin(), fv.origin());
    }
    Failure f;
    compare("csf", cs, cv, f);
    compare("flt", fs, fv, f);
    return f;
}

template <class T>
Failure check_masking(Gen& g, const AdmKernels& k, std::string& desc) {
    constexpr bool s0 = sizeof(T) == 2;
    const int w = random_width(g, 2), h = g.uniform(2, 6);
    const std::ptrdiff_t stride = random_stride(g, w);
    const Rect region = random_region(g, w, h, 1);
    std::vector<Band<T>> b;
    for (int i = 0; i < 9; ++i) b.emplace_back(w, h, stride);
    const int mode_x = g.uniform(0, 4), mode_c = g.uniform(0, 4), mode_f = g.uniform(0, 4);
    for (int i = 0; i < 9; ++i) {
        const int mode = i < 3 ? mode_x : (i < 6 ? mode_c : mode_f);
        if constexpr (s0)
            fill_i16(g, b[i], mode);
        else
            fill_i32(g, b[i], mode);
    }
    const T* x[3] = {b[0].origin(), b[1].origin(), b[2].origin()};
    const T* c[3] = {b[3].origin(), b[4].origin(), b[5].origin()};
    // b[6..8] (the flt bands before the masking kernels computed their own)
    // are still drawn so that the recorded failure lines replay with their seeds.
    const int row_shift = g.uniform(0, 12);
    std::int64_t acc_s[3], acc_v[3];
    for (int t = 0; t < 3; ++t) acc_s[t] = acc_v[t] = static_cast<std::int64_t>(g.u64() >> 20) - (std::int64_t{1} << 43);
    using Thr = std::conditional_t<s0, std::int32_t, std::int64_t>;
    std::vector<Thr> thr_s(static_cast<std::size_t>(region.width())), thr_v(thr_s.size());
    if constexpr (s0) {
        std::uint16_t rf[3];
        CubeShifts sh[3];
        for (int t = 0; t < 3; ++t) {
            rf[t] = g.chance(20) ? std::uint16_t{65535} : static_cast<std::uint16_t>(g.u64());
            const bool d = t == 2;
            sh[t] = g.chance(70) ? CubeShifts{d ? 12 : 10, d ? 30 : 29, g.uniform(0, 8)}
                                 : CubeShifts{g.uniform(0, 12), g.uniform(0, 30), g.uniform(0, 12)};
        }
        desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " region=[" + std::to_string(region.x0) +
               "," + std::to_string(region.x1) + ")x[" + std::to_string(region.y0) + "," +
               std::to_string(region.y1) + ") modes x,csf,flt=" + std::to_string(mode_x) + "," +
               std::to_string(mode_c) + "," + std::to_string(mode_f) + " sub/sq/cub=" +
               std::to_string(sh[0].sub) + "/" + std::to_string(sh[0].sq) + "/" + std::to_string(sh[0].cub);
        // The masker bands (csf / flt are derived inside the kernel); the
        // flt bands of this case are unused.
        adm_kernels_scalar().cm_accumulate_s0(x, c, stride, w, h, region, rf, sh, row_shift,
                                          thr_s.data(), acc_s);
        k.cm_accumulate_s0(x, c, stride, w, h, region, rf, sh, row_shift, thr_v.data(), acc_v);
        // The same case again with the factors at the 16-bit edges (2^15
        // and 2^15 - 1 for h / v, 2^16 - 1 and 2^15 for d) and every third
        // masker sample at an extreme (-2^15, 2^15 - 1, -1), no further draws:
        // the products a 16-bit csf must get right.
        const std::uint16_t rf_edge[2][3] = {{32768, 32767, 65535}, {32767, 32768, 32768}};
        const std::int16_t extremes[3] = {-32768, 32767, -1};
        std::vector<Band<std::int16_t>> me;
        for (int t = 0; t < 3; ++t) me.emplace_back(w, h, stride);
        for (int t = 0; t < 3; ++t)
            fill_band(me[static_cast<std::size_t>(t)], [&](int xx, int yy) {
                return (xx + yy + t) % 3 == 0 ? extremes[(xx + 2 * yy + t) % 3]
                                              : *b[static_cast<std::size_t>(3 + t)].at(xx, yy);
            });
        const std::int16_t* ce[3] = {me[0].origin(), me[1].origin(), me[2].origin()};
        Failure f;
        compare_values("acc", acc_s, acc_v, 3, f);
        for (int e = 0; e < 2 && !f.failed; ++e) {
            std::int64_t ae_s[3] = {acc_s[0], acc_s[1], acc_s[2]};
            std::int64_t ae_v[3] = {acc_s[0], acc_s[1], acc_s[2]};
            adm_kernels_scalar().cm_accumulate_s0(x, ce, stride, w, h, region, rf_edge[e], sh,
                                                  row_shift, thr_s.data(), ae_s);
            k.cm_accumulate_s0(x, ce, stride, w, h, region, rf_edge[e], sh, row_shift,
                               thr_v.data(), ae_v);
            compare_values(e == 0 ? "acc (edge factors 1)" : "acc (edge factors 2)", ae_s, ae_v, 3, f);
        }
        return f;
    } else {
        std::uint32_t rf[3];
        for (int t = 0; t < 3; ++t) rf[t] = g.chance(20) ? 0xffffffffu : static_cast<std::uint32_t>(g.u64());
        const CubeShifts sh = g.chance(70) ? CubeShifts{0, 30, g.uniform(1, 10)}
                                           : CubeShifts{0, g.uniform(0, 30), g.uniform(0, 12)};
        desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " region=[" + std::to_string(region.x0) +
               "," + std::to_string(region.x1) + ")x[" + std::to_string(region.y0) + "," +
               std::to_string(region.y1) + ") modes=" + std::to_string(mode_x) + "," + std::to_string(mode_c) +
               "," + std::to_string(mode_f) + " sq/cub=" + std::to_string(sh.sq) + "/" + std::to_string(sh.cub);
        adm_kernels_scalar().cm_accumulate_s123(x, c, stride, w, h, region, rf, sh, row_shift,
                                            thr_s.data(), acc_s);
        k.cm_accumulate_s123(x, c, stride, w, h, region, rf, sh, row_shift, thr_v.data(), acc_v);
        // x = int32((s * 2^28 + 2^27) >> 28) is INT32_MIN for s = INT32_MIN,
        // the one |x| (2^31) outside int32, which random factors almost
        // never produce. The same case again with it at every other sample
        // of h (no further draws, so recorded seeds replay unchanged).
        Band<std::int32_t> xm(w, h, stride);
        fill_band(xm, [&](int xx, int yy) {
            return (xx + yy) % 2 ? std::numeric_limits<std::int32_t>::min() : *b[0].at(xx, yy);
        });
        const T* x2[3] = {xm.origin(), x[1], x[2]};
        const std::uint32_t rf2[3] = {1u << 28, rf[1], rf[2]};
        std::int64_t acc2_s[3] = {acc_s[0], acc_s[1], acc_s[2]};
        std::int64_t acc2_v[3] = {acc_s[0], acc_s[1], acc_s[2]};
        adm_kernels_scalar().cm_accumulate_s123(x2, c, stride, w, h, region, rf2, sh, row_shift,
                                            thr_s.data(), acc2_s);
        k.cm_accumulate_s123(x2, c, stride, w, h, region, rf2, sh, row_shift, thr_v.data(), acc2_v);
        // A zero masker: csf 0, so every flt and centre tap is -1 and T = -27
        // at every sample; the negative thresholds, where the excess is |x| +
        // 27, which other maskers almost never give (no further draws either).
        Band<std::int32_t> zm(w, h, stride);
        fill_band(zm, [](int, int) { return 0; });
        const T* cz[3] = {zm.origin(), zm.origin(), zm.origin()};
        std::int64_t acc3_s[3] = {acc_s[0], acc_s[1], acc_s[2]};
        std::int64_t acc3_v[3] = {acc_s[0], acc_s[1], acc_s[2]};
        adm_kernels_scalar().cm_accumulate_s123(x, cz, stride, w, h, region, rf, sh, row_shift,
                                                thr_s.data(), acc3_s);
        k.cm_accumulate_s123(x, cz, stride, w, h, region, rf, sh, row_shift, thr_v.data(), acc3_v);
        Failure f;
        compare_values("acc", acc_s, acc_v, 3, f);
        compare_values("acc (x = INT32_MIN)", acc2_s, acc2_v, 3, f);
        compare_values("acc (zero masker)", acc3_s, acc3_v, 3, f);
        return f;
    }
    Failure f;
    compare_values("acc", acc_s, acc_v, 3, f);
    return f;
}

template <class T>
Failure check_den(Gen& g, const AdmKernels& k, std::string& desc) {
    constexpr bool s0 = sizeof(T) == 2;
    const int w = random_width(g, 1), h = g.uniform(1, 5);
    const std::ptrdiff_t stride = random_stride(g, w);
    const Rect region = random_region(g, w, h, 1);
    const int mode = g.uniform(0, 4);
    std::vector<Band<T>> b;
    for (int i = 0; i < 3; ++i) b.emplace_back(w, h, stride);
    for (auto& band : b) {
        if constexpr (s0)
            fill_i16(g, band, mode);
        else
            fill_i32(g, band, mode);
    }
    const T* p[3] = {b[0].origin(), b[1].origin(), b[2].origin()};
    const int row_shift = g.uniform(0, 20);
    std::uint64_t acc_s[3] = {0, 0, 0}, acc_v[3] = {0, 0, 0};
    desc = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " mode=" + std::to_string(mode);
    if constexpr (s0) {
        adm_kernels_scalar().den_accumulate_s0(p, stride, region, row_shift, acc_s);
        k.den_accumulate_s0(p, stride, region, row_shift, acc_v);
    } else {
        const int sq = g.uniform(28, 31), cub = g.uniform(0, 10);
        adm_kernels_scalar().den_accumulate_s123(p, stride, region, sq, cub, row_shift, acc_s);
        k.den_accumulate_s123(p, stride, region, sq, cub, row_shift, acc_v);
    }
    Failure f;
    std::int64_t s[3], v[3];
    for (int t = 0; t < 3; ++t) {
        s[t] = static_cast<std::int64_t>(acc_s[t]);
        v[t] = static_cast<std::int64_t>(acc_v[t]);
    }
    compare_values("acc", s, v, 3, f);
    return f;
}

using AdmLevel = TableLevel<AdmKernels>;

using CaseFn = Failure (*)(Gen&, const AdmKernels&, std::string&);

// Runs ctx.bands() generated cases of one kernel family at one level.
void run_family(Context& ctx, const AdmLevel& L, const char* name, CaseFn fn) {
    if (!ctx.check(std::string("adm_") + name, L.level)) return;
    Gen g(ctx.rng());
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        std::string desc;
        const Failure f = fn(g, *L.kernels, desc);
        ctx.band();
        if (f.failed) ctx.fail(band) << desc << ": " << f.text;
    }
    ctx.done();
}

Failure dwt_s0_u8_case(Gen& g, const AdmKernels& k, std::string& d) { return check_dwt_s0(g, k, d, false); }
Failure dwt_s0_u16_case(Gen& g, const AdmKernels& k, std::string& d) { return check_dwt_s0(g, k, d, true); }

}  // namespace

CHECKASM_MODULE(adm) {
    for (const AdmLevel& L : simd_tables(ctx, &adm_kernels_for)) {
        if (L.owns(&AdmKernels::dwt_s0_u8)) run_family(ctx, L, "dwt_s0_u8", dwt_s0_u8_case);
        if (L.owns(&AdmKernels::dwt_s0_u16)) run_family(ctx, L, "dwt_s0_u16", dwt_s0_u16_case);
        if (L.owns(&AdmKernels::dwt_s123)) run_family(ctx, L, "dwt_s123", check_dwt_scale<std::int32_t>);
        if (L.owns(&AdmKernels::dwt_s1)) run_family(ctx, L, "dwt_s1", check_dwt_scale<std::int16_t>);
        if (L.owns(&AdmKernels::decouple_s0)) run_family(ctx, L, "decouple_s0", check_decouple<std::int16_t>);
        if (L.owns(&AdmKernels::decouple_s123))
            run_family(ctx, L, "decouple_s123", check_decouple<std::int32_t>);
        if (L.owns(&AdmKernels::csf_s0)) run_family(ctx, L, "csf_s0", check_csf<std::int16_t>);
        if (L.owns(&AdmKernels::csf_s123)) run_family(ctx, L, "csf_s123", check_csf<std::int32_t>);
        if (L.owns(&AdmKernels::cm_accumulate_s0))
            run_family(ctx, L, "cm_accumulate_s0", check_masking<std::int16_t>);
        if (L.owns(&AdmKernels::cm_accumulate_s123))
            run_family(ctx, L, "cm_accumulate_s123", check_masking<std::int32_t>);
        if (L.owns(&AdmKernels::den_accumulate_s0))
            run_family(ctx, L, "den_accumulate_s0", check_den<std::int16_t>);
        if (L.owns(&AdmKernels::den_accumulate_s123))
            run_family(ctx, L, "den_accumulate_s123", check_den<std::int32_t>);
    }
}

}  // namespace vmafpp::checkasm
