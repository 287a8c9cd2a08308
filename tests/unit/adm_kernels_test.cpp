// Integer ADM kernels and the places where vmafpp deliberately differs from
// libvmaf: the scale-0 centre tap kept in int32, the exact excess for every
// threshold, and pictures below libvmaf's well-defined size.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_kernels.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::adm {
namespace {

struct MapSink final : FeatureSink {
    std::vector<std::pair<std::string, double>> values;
    void append(std::string_view key, unsigned, double value) override {
        values.emplace_back(std::string(key), value);
    }
    double get(const std::string& key) const {
        for (const auto& [k, v] : values)
            if (k == key) return v;
        ADD_FAILURE() << "no key " << key;
        return std::nan("");
    }
};

Picture grey_picture(int w, int h, int value) {
    Picture p(w, h, 8, PixelFormat::yuv420);
    for (int pl = 0; pl < p.plane_count(); ++pl)
        for (int y = 0; y < p.planes[pl].height(); ++y)
            for (int x = 0; x < p.planes[pl].width(); ++x)
                p.planes[pl].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(pl ? 128 : value);
    return p;
}

void draw_patch(Picture& p, int x0, int y0, int value) {
    for (int y = y0; y < y0 + 8; ++y)
        for (int x = x0; x < x0 + 8; ++x)
            p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(value);
}

// 64x64: overlapping 8x8 patches of 0 and 255 that leave one- and two-pixel
// slivers of 0 inside 255. Their scale-0 h/v coefficients reach |csf| >=
// 15360 (centre tap >= 32768) while the neighbours stay weak, so libvmaf's
// int16 narrowing of the centre tap makes some thresholds negative; with the
// reference flat the restored band is 0 and only a negative threshold can
// give an excess. (Found by a search with the narrowing planted.)
Picture patch_picture() {
    Picture p = grey_picture(64, 64, 128);
    draw_patch(p, 27, 31, 255);
    draw_patch(p, 22, 24, 0);
    draw_patch(p, 30, 35, 0);
    draw_patch(p, 24, 24, 255);
    draw_patch(p, 25, 31, 0);
    draw_patch(p, 27, 32, 0);
    return p;
}

std::unique_ptr<FeatureExtractor> make_adm(int w, int h, int bpc = 8,
                                           std::vector<std::pair<std::string, std::string>> opts = {}) {
    const FeatureInfo* info = find_feature("adm");
    EXPECT_NE(info, nullptr);
    OptionValues v(info->options);
    for (const auto& [k, val] : opts) v.set(k, val);
    return info->create(v, FrameGeometry{w, h, bpc, PixelFormat::yuv420});
}

// Precondition of the next test: the layout really reaches the int16 wrap.
TEST(AdmCentreTap, PatchLayoutWouldWrapInInt16) {
    const Picture dis = patch_picture();
    const int bw = 32, bh = 32, stride = 32;
    std::vector<std::int16_t> scratch(4 * (64 + 3));
    std::vector<std::int16_t> approx(stride * bh);
    std::vector<std::int16_t> bands(3 * stride * bh), csf(3 * stride * bh), flt(3 * stride * bh);
    std::int16_t* b[3];
    std::int16_t* c[3];
    std::int16_t* f[3];
    for (int t = 0; t < 3; ++t) {
        b[t] = bands.data() + t * stride * bh;
        c[t] = csf.data() + t * stride * bh;
        f[t] = flt.data() + t * stride * bh;
    }
    dwt_s0_u8(dis.luma().row<std::uint8_t>(0), dis.luma().stride(), 64, 64, 0, 32, scratch.data(),
              approx.data(), b, stride);
    // With a flat reference the additive band is the distorted band itself.
    const Rect all{0, 0, bw, bh};
    const int shift[3] = {15, 15, 17};
    const std::int32_t round[3] = {16384, 16384, 65535};
    const std::uint16_t rf[3] = {36453, 36453, 49417};
    for (int t = 0; t < 3; ++t) csf_s0(b[t], stride, all, rf[t], shift[t], round[t], c[t], f[t]);

    const Rect region{2, 2, 30, 30};  // (int)(32 * 0.1 - 0.5) = 2
    std::vector<std::int32_t> thr(bw);
    int negative_if_wrapped = 0, negative = 0;
    for (int y = region.y0; y < region.y1; ++y) {
        cm_threshold_row_s0(c, f, stride, bw, bh, y, region.x0, region.x1, thr.data());
        for (int x = region.x0; x < region.x1; ++x) {
            std::int32_t wrapped = thr[x - region.x0];
            for (int t = 0; t < 3; ++t) {
                const std::int32_t tap = (8738 * std::abs(std::int32_t{c[t][y * stride + x]}) + 2048) >> 12;
                wrapped += static_cast<std::int16_t>(tap) - tap;
            }
            negative_if_wrapped += wrapped < 0;
            negative += thr[x - region.x0] < 0;
        }
    }
    EXPECT_EQ(negative, 0);
    EXPECT_GT(negative_if_wrapped, 0);
}

// float ADM gives exactly 1 here; libvmaf's integer ADM, through the wrap,
// does not (the same kind of layout gave 1.0829 in the upstream study).
TEST(AdmCentreTap, FlatReferenceAgainstPatchesScoresOne) {
    auto fex = make_adm(64, 64);
    MapSink sink;
    fex->extract(grey_picture(64, 64, 128), patch_picture(), 0, sink);
    EXPECT_EQ(sink.get("integer_adm_scale0"), 1.0);
}

// The picture of the upstream study (research note 1402): flat grey 128 and,
// every 16 pixels from (1, 1), a 4x2 patch whose rows are 255 0 0 0.
// libvmaf 3.2.0's scalar path gives 1.0829225419556654 (64x64) and
// 1.075425... (24x24) through its int16 wrap of the centre tap; float ADM
// gives 1.
Picture isolated_patches(int w, int h) {
    Picture p = grey_picture(w, h, 128);
    constexpr std::uint8_t kPatch[4] = {255, 0, 0, 0};
    for (int y = 1; y + 1 < h; y += 16)
        for (int x = 1; x + 4 <= w; x += 16)
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 4; ++dx)
                    p.planes[0].row<std::uint8_t>(y + dy)[x + dx] = kPatch[dx];
    return p;
}

TEST(AdmCentreTap, IsolatedPatchesScoreOneAt64And24) {
    for (int size : {64, 24}) {
        auto fex = make_adm(size, size);
        MapSink sink;
        fex->extract(grey_picture(size, size, 128), isolated_patches(size, size), 0, sink);
        const double s0 = sink.get("integer_adm_scale0");
        EXPECT_EQ(s0, 1.0) << size << "x" << size << ": " << std::setprecision(17) << s0;
    }
}

// Independent reference of the excess: exact in 128-bit arithmetic.
std::int64_t excess_reference(std::int64_t m, std::int64_t t, int sub) {
    const __int128 e = static_cast<__int128>(m) - static_cast<__int128>(t) * (__int128{1} << sub);
    if (e < 0) return 0;
    if (e > std::numeric_limits<std::int32_t>::max()) return std::numeric_limits<std::int32_t>::max();
    return static_cast<std::int64_t>(e);
}

std::int64_t cube_reference(std::int64_t e, int sq, int cub) {
    // libvmaf: int32 narrowing of the rounded square, arithmetic shift.
    const auto e2 = static_cast<std::int32_t>(static_cast<std::uint32_t>(
        static_cast<std::uint64_t>((e * e + (std::int64_t{1} << (sq - 1))) >> sq)));
    const __int128 v = static_cast<__int128>(e2) * e + (cub > 0 ? (__int128{1} << (cub - 1)) : 0);
    return static_cast<std::int64_t>(v >> cub);  // arithmetic on gcc/clang
}

TEST(AdmExcess, Scale0ExactForEveryThreshold) {
    std::mt19937 rng(3);
    const std::int32_t thresholds[] = {0,        1,        -1,       -786432, 996120,
                                       1 << 19,  (1 << 19) - 1, (1 << 21) - 1, 1 << 21, -(1 << 19),
                                       524288 + 7, 32767,  -32768};
    for (int sub : {10, 12}) {
        for (std::int32_t t : thresholds) {
            for (int k = 0; k < 2000; ++k) {
                const std::int16_t src = static_cast<std::int16_t>(rng());
                const std::uint16_t rf = static_cast<std::uint16_t>(rng());
                const CubeShifts s{sub, sub == 10 ? 29 : 30, static_cast<int>(rng() % 8)};
                const std::int64_t m = std::abs(std::int32_t{src} * rf);
                const std::int64_t want = cube_reference(excess_reference(m, t, sub), s.sq, s.cub);
                EXPECT_EQ(cm_row_sum_s0(&src, &t, 1, rf, s), want)
                    << "src=" << src << " rf=" << rf << " T=" << t << " sub=" << sub;
            }
        }
    }
}

TEST(AdmExcess, Scale0LargeExcessKeepsInt32SquareNarrowing) {
    // e = 32767 * 65535 (no threshold): e^2 >> 29 passes 2^31, so libvmaf's
    // int32 narrowing makes the square negative and the cube shift arithmetic.
    const std::int16_t src = 32767;
    const std::int32_t t = 0;
    const CubeShifts s{10, 29, 3};
    const std::int64_t got = cm_row_sum_s0(&src, &t, 1, 65535, s);
    EXPECT_EQ(got, cube_reference(32767LL * 65535, 29, 3));
    EXPECT_LT(got, 0);
    // A negative threshold with |T| * 2^12 past 2^31 clamps to INT32_MAX.
    const std::int32_t tn = -(1 << 20);
    EXPECT_EQ(cm_row_sum_s0(&src, &tn, 1, 65535, CubeShifts{12, 30, 5}),
              cube_reference(std::numeric_limits<std::int32_t>::max(), 30, 5));
    // A threshold with T * 2^12 >= 2^31 masks the sample completely.
    const std::int32_t tp = 1 << 19;
    EXPECT_EQ(cm_row_sum_s0(&src, &tp, 1, 65535, CubeShifts{12, 30, 5}), 0);
}

TEST(AdmExcess, Scales123ExactForEveryThreshold) {
    std::mt19937_64 rng(5);
    const std::int64_t thresholds[] = {0, -27, 1, -1, 1LL << 31, (1LL << 31) - 1, -(1LL << 32),
                                       2147483647LL * 2, 123456789};
    for (std::int64_t t : thresholds) {
        for (int k = 0; k < 4000; ++k) {
            const std::int32_t src = static_cast<std::int32_t>(rng());
            const std::uint32_t rf = static_cast<std::uint32_t>(rng());
            const CubeShifts s{0, 30, static_cast<int>(rng() % 12)};
            const auto x = static_cast<std::int32_t>(static_cast<std::uint32_t>(
                static_cast<std::uint64_t>((src * std::int64_t{rf} + (1LL << 27)) >> 28)));
            const std::int64_t m = x < 0 ? -static_cast<std::int64_t>(x) : x;
            const std::int64_t want = cube_reference(excess_reference(m, t, 0), s.sq, s.cub);
            EXPECT_EQ(cm_row_sum_s123(&src, &t, 1, rf, s), want) << "src=" << src << " T=" << t;
        }
    }
}

// ---------------------------------------------------------------------------
// Picture sizes

TEST(AdmSize, RefusesBelowMinimumWithTheLimitInTheMessage) {
    for (auto [w, h] : {std::pair{16, 16}, std::pair{16, 64}, std::pair{64, 16}}) {
        try {
            make_adm(w, h);
            ADD_FAILURE() << w << "x" << h << " accepted";
        } catch (const Error& e) {
            EXPECT_EQ(std::string(e.what()), "adm: picture " + std::to_string(w) + "x" +
                                                 std::to_string(h) +
                                                 " is too small, the minimum is 17x17");
        }
    }
    EXPECT_NO_THROW(make_adm(17, 17));
}

Picture noise_picture(int w, int h, int bpc, unsigned seed) {
    Picture p(w, h, bpc, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    const int max = (1 << bpc) - 1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const int v = static_cast<int>(rng() % static_cast<unsigned>(max + 1));
            if (bpc == 8)
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

// Small pictures (the valgrind target): every value finite and repeatable,
// also from a second instance.
class AdmTiny : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(AdmTiny, FiniteAndDeterministic) {
    const auto [w, h, bpc] = GetParam();
    const Picture ref = noise_picture(w, h, bpc, 1);
    Picture dis = noise_picture(w, h, bpc, 2);
    MapSink a, b;
    make_adm(w, h, bpc, {{"debug", "true"}})->extract(ref, dis, 0, a);
    auto second = make_adm(w, h, bpc, {{"debug", "true"}});
    second->extract(ref, ref, 0, b);  // something else in between
    b.values.clear();
    second->extract(ref, dis, 0, b);
    ASSERT_EQ(a.values.size(), 7u + 11u);
    ASSERT_EQ(a.values.size(), b.values.size());
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        EXPECT_TRUE(std::isfinite(a.values[i].second)) << a.values[i].first;
        EXPECT_EQ(a.values[i].second, b.values[i].second) << a.values[i].first;
    }
}

INSTANTIATE_TEST_SUITE_P(Sizes, AdmTiny,
                         ::testing::Values(std::tuple{17, 17, 8}, std::tuple{24, 24, 8},
                                           std::tuple{18, 18, 8}, std::tuple{17, 33, 10},
                                           std::tuple{33, 17, 16}, std::tuple{24, 24, 12}));

}  // namespace
}  // namespace vmafpp::adm

namespace vmafpp::adm {
namespace {

// Inputs no decoded picture produces (the ends of the int16 / int32 ranges)
// through every kernel: run under -DVMAFPP_SANITIZE=ON this shows the
// kernels have no undefined behaviour there; the results must repeat.
template <class T>
std::vector<T> extreme_band(std::mt19937_64& rng, std::size_t n) {
    const T picks[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), 0, 1,
                       static_cast<T>(-1), static_cast<T>(std::numeric_limits<T>::min() + 1)};
    std::vector<T> v(n);
    for (auto& x : v) x = rng() % 3 ? picks[rng() % 6] : static_cast<T>(rng());
    return v;
}

template <class T>
std::int64_t run_all_kernels(unsigned seed) {
    constexpr int w = 24, h = 20, stride = 24;
    constexpr std::size_t n = stride * h;
    std::mt19937_64 rng(seed);
    std::vector<std::vector<T>> in;
    for (int k = 0; k < 6; ++k) in.push_back(extreme_band<T>(rng, n));
    std::vector<std::vector<T>> out(12, std::vector<T>(n));
    const T* ref[3] = {in[0].data(), in[1].data(), in[2].data()};
    const T* dis[3] = {in[3].data(), in[4].data(), in[5].data()};
    T* r[3] = {out[0].data(), out[1].data(), out[2].data()};
    T* a[3] = {out[3].data(), out[4].data(), out[5].data()};
    T* c[3] = {out[6].data(), out[7].data(), out[8].data()};
    T* f[3] = {out[9].data(), out[10].data(), out[11].data()};
    const Rect all{0, 0, w, h};
    std::int64_t acc[3] = {0, 0, 0};
    std::uint64_t den[3] = {0, 0, 0};
    for (double gain : {1.0, 1.2, 100.0}) {
        if constexpr (sizeof(T) == 2) {
            decouple_s0(ref, dis, stride, all, gain, r, a);
            const std::uint16_t rf[3] = {65535, 36453, 49417};
            const int shift[3] = {15, 15, 17};
            const std::int32_t round[3] = {16384, 16384, 65535};
            for (int t = 0; t < 3; ++t) csf_s0(a[t], stride, all, rf[t], shift[t], round[t], c[t], f[t]);
            const CubeShifts s[3] = {{10, 29, 0}, {10, 29, 1}, {12, 30, 5}};
            std::vector<std::int32_t> thr(w);
            cm_accumulate_s0(r, a, stride, w, h, Rect{1, 1, w - 1, h - 1}, rf, s, 5, thr.data(),
                             acc);
            den_accumulate_s0(ref, stride, all, 3, den);
        } else {
            decouple_s123(ref, dis, stride, all, gain, r, a);
            const std::uint32_t rf[3] = {0xffffffffu, 137373792u, 61414028u};
            for (int t = 0; t < 3; ++t) csf_s123(a[t], stride, all, rf[t], c[t], f[t]);
            std::vector<std::int64_t> thr(w);
            cm_accumulate_s123(r, a, stride, w, h, all, rf, CubeShifts{0, 30, 5}, 5, thr.data(),
                               acc);
            den_accumulate_s123(ref, stride, all, 31, 5, 5, den);
        }
    }
    std::uint64_t digest = static_cast<std::uint64_t>(acc[0]) ^ (static_cast<std::uint64_t>(acc[1]) * 3) ^
                           (static_cast<std::uint64_t>(acc[2]) * 7);
    for (auto& o : out)
        for (T v : o) digest = digest * 31 + static_cast<std::uint64_t>(v);
    return static_cast<std::int64_t>(digest ^ (den[0] + den[1] + den[2]));
}

TEST(AdmKernelsExtreme, NoUndefinedBehaviourAtRangeEnds) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        EXPECT_EQ(run_all_kernels<std::int16_t>(seed), run_all_kernels<std::int16_t>(seed));
        EXPECT_EQ(run_all_kernels<std::int32_t>(seed), run_all_kernels<std::int32_t>(seed));
    }
    // The DWTs on full-range inputs: 16-bit samples alternating 0 / 65535
    // make the scale-0 partial sums pass 2^31, int32 bands at the ends of
    // the range overflow the int64 -> int32 narrowing of scales 1-3.
    std::vector<std::uint16_t> pic(40 * 40);
    for (int i = 0; i < 40 * 40; ++i) pic[i] = (i + i / 40) % 2 ? 65535 : 0;
    std::vector<std::int16_t> s16(4 * 43);
    std::vector<std::int16_t> band_a(20 * 20);
    std::vector<std::int32_t> s32(4 * 23);
    std::vector<std::int16_t> b16(3 * 20 * 20);
    std::vector<std::int32_t> b32(4 * 10 * 10);
    std::int16_t* h16[3] = {b16.data(), b16.data() + 400, b16.data() + 800};
    dwt_s0_u16(pic.data(), 40, 40, 40, 16, 0, 20, s16.data(), band_a.data(), h16, 20);
    std::mt19937_64 rng(9);
    const auto extreme = extreme_band<std::int32_t>(rng, 20 * 20);
    std::int32_t* h32[3] = {b32.data() + 100, b32.data() + 200, b32.data() + 300};
    for (int scale = 1; scale <= 3; ++scale)
        dwt_s123(extreme.data(), 20, 20, 20, scale, 0, 10, s32.data(), b32.data(), h32, 10);
    const auto extreme16 = extreme_band<std::int16_t>(rng, 20 * 20);
    dwt_s1(extreme16.data(), 20, 20, 20, 0, 10, s32.data(), b32.data(), h32, 10);
    SUCCEED();
}

}  // namespace
}  // namespace vmafpp::adm
