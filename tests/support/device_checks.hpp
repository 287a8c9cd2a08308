// The device-twin harness shared by the Vulkan and CUDA tests (and the CUDA
// grid emulation): each check compares the twins a maker gives with the
// scalar kernels on generated and hostile inputs (device_inputs.hpp).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_gain_limit.hpp"
#include "adm/adm_kernels.hpp"
#include "adm/adm_twin.hpp"
#include "device/backend.hpp"
#include "motion/motion_twin.hpp"
#include "vif/vif_twin.hpp"
#include "motion/motion_kernels.hpp"
#include "support/device_inputs.hpp"
#include "vif/vif_kernels.hpp"

namespace vmafpp::devtest {

using MotionMaker = std::function<std::unique_ptr<motion::MotionTwin>(int w, int h, int bpc)>;
using VifMaker = std::function<std::unique_ptr<vif::VifTwin>(int w, int h, int bpc)>;
using AdmMaker = std::function<std::unique_ptr<adm::AdmTwin>(
    int w, int h, int bpc, const adm::AdmDeviceParams scales[adm::kScales], double gain,
    bool skip_scale0, bool skip_aim)>;

// A device's gain products (rst * gain, truncated, as the seeds define it):
// out[i] for rst[0, n) at limit `gain`.
using GainProducts =
    std::function<void(const std::int32_t* rst, std::size_t n, double gain, std::int64_t* out)>;

// Every rst in [-300000, 300000] at the goldens' limits, 100, 1 and both
// neighbours of 1, then 40 random limits in [1, 100] over 20000 random
// int32 samples each (both extremes included), against the host's double
// product; at most three failures are reported per limit. Returns how many
// pairs were compared.
inline std::uint64_t check_gain_products(const GainProducts& device_products) {
    std::vector<std::int32_t> dense;
    for (int r = -300000; r <= 300000; ++r) dense.push_back(r);
    std::vector<std::int64_t> got;
    std::uint64_t compared = 0;
    auto check = [&](const std::vector<std::int32_t>& rst, double gain) {
        got.assign(rst.size(), 0);
        device_products(rst.data(), rst.size(), gain, got.data());
        int bad = 0;
        for (std::size_t i = 0; i < rst.size(); ++i) {
            ++compared;
            const std::int64_t want = adm::gain_product_double(rst[i], gain);
            if (got[i] != want && bad++ < 3)
                ADD_FAILURE() << "rst " << rst[i] << " gain " << std::to_string(gain) << " device "
                              << got[i] << " double " << want;
        }
    };
    for (double g : {1.2, 1.5, 100.0, 1.0, std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0)})
        check(dense, g);
    std::mt19937_64 rng(1413);
    std::uniform_real_distribution<double> limit(1.0, 100.0);
    std::uniform_int_distribution<std::int32_t> sample(INT32_MIN, INT32_MAX);
    for (int k = 0; k < 40; ++k) {
        std::vector<std::int32_t> rst(20000);
        for (auto& r : rst) r = sample(rng);
        rst[0] = INT32_MIN;
        rst[1] = INT32_MAX;
        check(rst, limit(rng));
    }
    return compared;
}

// motion_sad_* against the twins `make` gives, over sizes, depths and patterns.
inline void check_motion_twins(const MotionMaker& make) {
    std::mt19937 rng(23);
    int cases = 0;
    const int sizes[][2] = {{3, 3}, {4, 7}, {17, 64}, {64, 17}, {65, 33}, {130, 9}, {261, 40}};
    for (int bpc : {8, 10, 12, 16})
        for (const auto& wh : sizes)
            for (Pattern pat : kPatterns) {
                const int w = wh[0], h = wh[1];
                const Samples prev = as_samples(make_plane(pat, w, h, bpc, false, rng), bpc);
                const Samples cur = as_samples(make_plane(pat, w, h, bpc, true, rng), bpc);
                std::vector<std::int32_t> scratch(motion::motion_scratch_size(w));
                const std::uint64_t want =
                    bpc == 8 ? motion::motion_sad_u8(prev.u8.data(), w, cur.u8.data(), w, w, h,
                                                     nullptr, scratch.data())
                             : motion::motion_sad_u16(prev.u16.data(), w, cur.u16.data(), w, w, h,
                                                      bpc, nullptr, scratch.data());
                const auto twin = make(w, h, bpc);
                const std::ptrdiff_t stride = std::ptrdiff_t{w} * (bpc > 8 ? 2 : 1);
                EXPECT_EQ(twin->sad(prev.data(), stride, cur.data(), stride), want)
                    << w << "x" << h << " bpc " << bpc << " pattern " << static_cast<int>(pat);
                ++cases;
            }
    ::testing::Test::RecordProperty("cases", std::to_string(cases));
}

// The scalar VIF pipeline of one picture pair, scale by scale: the
// statistics rows (vif_stat_row_*) and the reductions, as the extractor
// runs them, compared with the twin's sigma planes sample by sample.
inline void expect_vif_twin_matches(vif::VifTwin& twin, const std::vector<std::uint16_t>& ref16,
                                    const std::vector<std::uint16_t>& dis16, int w0, int h0,
                                    int bpc, const std::string& what) {
    using namespace vif;
    const auto& k = vif_kernels_scalar();
    const Samples ref0 = as_samples(ref16, bpc), dis0 = as_samples(dis16, bpc);
    const std::ptrdiff_t stride0 = std::ptrdiff_t{w0} * (bpc > 8 ? 2 : 1);
    twin.run(ref0.data(), stride0, dis0.data(), stride0, false);

    std::vector<std::uint16_t> ref = ref16, dis = dis16;
    int w = w0, h = h0;
    int mismatches = 0;
    auto reflect = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); };
    for (int s = 0; s < kScales; ++s) {
        const bool bytes = s == 0 && bpc == 8;
        const int taps = kFilterTaps[s], half = taps / 2;
        std::vector<std::uint32_t> scratch(vif_stat_row_scratch(w));
        std::vector<std::int32_t> s1(w), s2(w), s12(w);
        const std::int32_t* dev = twin.sigma(s);
        const std::size_t n = static_cast<std::size_t>(w) * h;
        for (int i = 0; i < h; ++i) {
            std::array<const std::uint8_t*, 17> r8{}, d8{};
            std::array<const std::uint16_t*, 17> r16{}, d16{};
            for (int t = 0; t < taps; ++t) {
                const std::size_t o = static_cast<std::size_t>(reflect(i - half + t, h)) * w;
                r8[t] = ref0.u8.data() + o;
                d8[t] = dis0.u8.data() + o;
                r16[t] = ref.data() + o;
                d16[t] = dis.data() + o;
            }
            if (bytes)
                k.stat_row_u8(r8.data(), d8.data(), kFilters[s], taps, w, scratch.data(), s1.data(),
                              s2.data(), s12.data(), nullptr);
            else
                k.stat_row_u16(r16.data(), d16.data(), kFilters[s], taps, w, s == 0 ? bpc : 16,
                               s == 0 ? 2 * (bpc - 8) : 16, scratch.data(), s1.data(), s2.data(),
                               s12.data());
            for (int x = 0; x < w; ++x) {
                const std::size_t o = static_cast<std::size_t>(i) * w + x;
                if ((dev[o] != s1[x] || dev[n + o] != s2[x] || dev[2 * n + o] != s12[x]) &&
                    mismatches++ < 3)
                    ADD_FAILURE() << what << " scale " << s << " (" << x << ", " << i
                                  << "): device " << dev[o] << " " << dev[n + o] << " "
                                  << dev[2 * n + o] << ", scalar " << s1[x] << " " << s2[x] << " "
                                  << s12[x];
            }
        }
        if (s + 1 == kScales) break;
        // Reduce to scale s + 1.
        const int ft = kFilterTaps[s + 1], fh = ft / 2;
        const int ow = w / 2, oh = h / 2;
        std::vector<std::uint32_t> cr(w + 2 * kMaxHalf), cd(w + 2 * kMaxHalf);
        std::vector<std::uint16_t> nr(static_cast<std::size_t>(ow) * oh), nd(nr.size());
        for (int oi = 0; oi < oh; ++oi) {
            std::array<const std::uint8_t*, 17> r8{}, d8{};
            std::array<const std::uint16_t*, 17> r16{}, d16{};
            for (int t = 0; t < ft; ++t) {
                const std::size_t o = static_cast<std::size_t>(reflect(2 * oi - fh + t, h)) * w;
                r8[t] = ref0.u8.data() + o;
                d8[t] = dis0.u8.data() + o;
                r16[t] = ref.data() + o;
                d16[t] = dis.data() + o;
            }
            const int shift = s == 0 ? bpc : 16;
            if (bytes)
                k.subsample_vertical_u8(r8.data(), d8.data(), kFilters[s + 1], ft, w, shift,
                                        cr.data() + kMaxHalf, cd.data() + kMaxHalf);
            else
                k.subsample_vertical_u16(r16.data(), d16.data(), kFilters[s + 1], ft, w, shift,
                                         cr.data() + kMaxHalf, cd.data() + kMaxHalf);
            vif_mirror_pad(cr.data() + kMaxHalf, w, fh);
            vif_mirror_pad(cd.data() + kMaxHalf, w, fh);
            k.subsample_horizontal(cr.data() + kMaxHalf, cd.data() + kMaxHalf, kFilters[s + 1], ft,
                                   ow, nr.data() + static_cast<std::size_t>(oi) * ow,
                                   nd.data() + static_cast<std::size_t>(oi) * ow);
        }
        ref = std::move(nr);
        dis = std::move(nd);
        w = ow;
        h = oh;
    }
}

inline void check_vif_twins(const VifMaker& make) {
    std::mt19937 rng(1402);
    const int sizes[][2] = {{16, 16}, {17, 64}, {64, 17}, {67, 21}, {130, 35}, {261, 40}};
    for (int bpc : {8, 10, 12, 16})
        for (const auto& wh : sizes)
            for (Pattern pat : kPatterns)
                expect_vif_twin_matches(
                    *make(wh[0], wh[1], bpc), make_plane(pat, wh[0], wh[1], bpc, false, rng),
                    make_plane(pat, wh[0], wh[1], bpc, true, rng), wh[0], wh[1], bpc,
                    std::to_string(wh[0]) + "x" + std::to_string(wh[1]) + " bpc " +
                        std::to_string(bpc) + " pattern " + std::to_string(static_cast<int>(pat)));
}

// The ADM twin's decouple, denominator and masking shaders on hostile
// bands of every scale against the scalar kernels (decouple_*,
// den_accumulate_*, cm_accumulate_* over one region row at a time with no
// row shift, which is the raw row sum), at gain limits 1, 1.2, 1.5, 100.
inline void check_adm_twins_on_bands(const AdmMaker& make) {
    std::mt19937_64 rng(1402);
    int rows_compared = 0;
    const int sizes[][2] = {{48, 24}, {134, 42}};
    for (const auto& wh : sizes)
        for (const double gain : {1.0, 1.2, 1.5, 100.0}) {
            adm::AdmOptions options;
            options.gain_limit = gain;
            const adm::AdmEngine engine(wh[0], wh[1], 8, options);
            adm::AdmDeviceParams params[adm::kScales];
            for (int s = 0; s < adm::kScales; ++s) params[s] = engine.device_params(s);
            const auto twin = make(wh[0], wh[1], 8, params, gain, false, false);
            for (int s = 0; s < adm::kScales; ++s)
                for (BandFill fill :
                     {BandFill::dense, BandFill::positive, BandFill::event, BandFill::blocks,
                      BandFill::min_hv, BandFill::doubled, BandFill::shrunk}) {
                    const adm::AdmDeviceParams& q = params[s];
                    const int bw = q.bw, bh = q.bh;
                    const std::size_t n = static_cast<std::size_t>(bw) * bh;
                    std::vector<std::int32_t> ref[3], dis[3];
                    fill_bands(fill, s, bw, bh, rng, ref, dis);
                    const std::int32_t* rp[3] = {ref[0].data(), ref[1].data(), ref[2].data()};
                    const std::int32_t* dp[3] = {dis[0].data(), dis[1].data(), dis[2].data()};
                    twin->run_on_bands(s, rp, dp);
                    const std::int64_t* rows = twin->rows(s);
                    const adm::Rect reg = q.region;
                    const int rh = reg.height();
                    ASSERT_LE(rh, 64);
                    const std::string what = "scale " + std::to_string(s) + " " +
                                             std::to_string(bw) + "x" + std::to_string(bh) +
                                             " gain " + std::to_string(gain) + " fill " +
                                             std::to_string(static_cast<int>(fill));
                    std::int64_t want[3][3][64];  // [den, dlm, aim][t][row]
                    if (s == 0) {
                        std::vector<std::int16_t> r16[3], d16[3], r[3], a[3];
                        std::int16_t *rq[3], *dq[3], *ro[3], *ao[3];
                        for (int t = 0; t < 3; ++t) {
                            r16[t].assign(ref[t].begin(), ref[t].end());
                            d16[t].assign(dis[t].begin(), dis[t].end());
                            r[t].assign(n, 0);
                            a[t].assign(n, 0);
                            rq[t] = r16[t].data(), dq[t] = d16[t].data();
                            ro[t] = r[t].data(), ao[t] = a[t].data();
                        }
                        adm::decouple_s0(rq, dq, bw, adm::Rect{0, 0, bw, bh}, gain, ro, ao);
                        const std::uint16_t rf[3] = {static_cast<std::uint16_t>(q.rfactor[0]),
                                                     static_cast<std::uint16_t>(q.rfactor[1]),
                                                     static_cast<std::uint16_t>(q.rfactor[2])};
                        std::vector<std::int32_t> thr(bw);
                        for (int y = reg.y0; y < reg.y1; ++y) {
                            const adm::Rect row{reg.x0, y, reg.x1, y + 1};
                            std::uint64_t den[3] = {};
                            std::int64_t dlm[3] = {}, aim[3] = {};
                            adm::den_accumulate_s0(rq, bw, row, 0, den);
                            adm::cm_accumulate_s0(ro, ao, bw, bw, bh, row, rf, q.shifts, 0,
                                                  thr.data(), dlm);
                            adm::cm_accumulate_s0(ao, ro, bw, bw, bh, row, rf, q.shifts, 0,
                                                  thr.data(), aim);
                            for (int t = 0; t < 3; ++t) {
                                want[0][t][y - reg.y0] = static_cast<std::int64_t>(den[t]);
                                want[1][t][y - reg.y0] = dlm[t];
                                want[2][t][y - reg.y0] = aim[t];
                            }
                        }
                    } else {
                        std::vector<std::int32_t> r[3], a[3];
                        std::int32_t *ro[3], *ao[3];
                        for (int t = 0; t < 3; ++t) {
                            r[t].assign(n, 0);
                            a[t].assign(n, 0);
                            ro[t] = r[t].data(), ao[t] = a[t].data();
                        }
                        adm::decouple_s123(rp, dp, bw, adm::Rect{0, 0, bw, bh}, gain, ro, ao);
                        std::vector<std::int64_t> thr(bw);
                        for (int y = reg.y0; y < reg.y1; ++y) {
                            const adm::Rect row{reg.x0, y, reg.x1, y + 1};
                            std::uint64_t den[3] = {};
                            std::int64_t dlm[3] = {}, aim[3] = {};
                            adm::den_accumulate_s123(rp, bw, row, q.den_sq, q.den_cub, 0, den);
                            adm::cm_accumulate_s123(ro, ao, bw, bw, bh, row, q.rfactor, q.shifts[0],
                                                    0, thr.data(), dlm);
                            adm::cm_accumulate_s123(ao, ro, bw, bw, bh, row, q.rfactor, q.shifts[0],
                                                    0, thr.data(), aim);
                            for (int t = 0; t < 3; ++t) {
                                want[0][t][y - reg.y0] = static_cast<std::int64_t>(den[t]);
                                want[1][t][y - reg.y0] = dlm[t];
                                want[2][t][y - reg.y0] = aim[t];
                            }
                        }
                    }
                    int bad = 0;
                    for (int k = 0; k < 3; ++k)
                        for (int t = 0; t < 3; ++t)
                            for (int y = 0; y < rh; ++y) {
                                ++rows_compared;
                                if (rows[(k * 3 + t) * rh + y] != want[k][t][y] && bad++ < 2)
                                    ADD_FAILURE() << what << " "
                                                  << (k == 0   ? "den"
                                                      : k == 1 ? "dlm"
                                                               : "aim")
                                                  << " orientation " << t << " row " << y + reg.y0
                                                  << ": device " << rows[(k * 3 + t) * rh + y]
                                                  << " scalar " << want[k][t][y];
                            }
                }
        }
    ::testing::Test::RecordProperty("rows", std::to_string(rows_compared));
}

}  // namespace vmafpp::devtest
