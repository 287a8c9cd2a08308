// CAMBI twins against the scalar, for every backend's test
// (vulkan_cambi_test.cpp, cuda_cambi_test.cpp):
// - the c-values of all five scales, bit for bit, against the scalar
//   kernels run in the extractor's order (10-bit pictures of the scored
//   size), including windows whose products weight * p0 * p pass 2^24;
// - the extractor's scores (cambi, cambi_source, cambi_full_reference) on
//   the CPU scalar and on a backend, over generated pictures
//   (banding-prone ramps, flat areas, noise, blocks at 0 and at the
//   largest sample) at 8, 10, 12 and 16 bits, with the options the models
//   and the CTC presets use (full_ref, enc_width/height and enc_bitdepth,
//   the high-resolution speed-up, max_log_contrast, the PQ eotf, the
//   visibility threshold, topk, window_size), sizes from the smallest
//   CAMBI accepts through odd ones to 2160p;
// - a sample above the bit depth refused with the scalar's message.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_twin.hpp"
#include "support/backend_run.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::devtest {

// A backend's twin for pictures up to w x h scored with `setup`.
using CambiMaker = std::function<std::unique_ptr<cambi::CambiTwin>(int w, int h,
                                                                    const cambi::ContrastSetup& setup)>;

enum class CambiPattern { ramp, flat, noise, extremes, stripes, mixed, uneven };

// A sample of pattern p at (x, y) for a w x h picture of `bpc` bits.
inline unsigned pattern_sample(CambiPattern p, int x, int y, int w, int h, int bpc, std::mt19937& rng) {
    const unsigned max = (1u << bpc) - 1u;
    // A slow diagonal ramp: wide flat bands one code value apart.
    const unsigned ramp = static_cast<unsigned>(
        (static_cast<std::uint64_t>(x + y) * (max / 8)) / static_cast<unsigned>(w + h)) + max / 3;
    switch (p) {
        case CambiPattern::ramp: return ramp;
        case CambiPattern::flat: return max / 2 + 1;
        case CambiPattern::noise: return rng() % (max + 1);
        case CambiPattern::extremes: return ((x / 9) + (y / 7)) % 2 ? max : 0;
        case CambiPattern::stripes: {
            // Two values 4 (10-bit) codes apart in 32-column stripes: at 4K
            // with a window of 65 the products pass 2^24.
            const unsigned step = bpc >= 10 ? 4u << (bpc - 10) : 1u;
            return max / 2 + ((x / 32) % 2 ? step : 0);
        }
        case CambiPattern::uneven: {
            // Stripes of uneven widths (19 to 46 columns) whose values step
            // by 6 and 7 (10-bit): with 8 contrasts and a window of 65,
            // weight 5 * p0 * p passes 2^24 with odd products, whose float
            // conversion rounds (ties included).
            unsigned s = 12345u, left = 0, k = 0;
            for (;;) {
                s = s * 1664525u + 1013904223u;
                const unsigned width = 19u + (s >> 27);
                if (static_cast<unsigned>(x) < left + width) break;
                left += width;
                ++k;
            }
            const unsigned steps[4] = {0, 6, 13, 7};
            const unsigned scale = bpc >= 10 ? 1u << (bpc - 10) : 1u;
            return max / 2 + steps[k % 4] * scale;
        }
        case CambiPattern::mixed:
            if (x < w / 3) return ramp;
            if (y < h / 2) return (x / 16 + y / 16) % 3 ? max / 4 : max / 4 + 1;
            return rng() % 4 == 0 ? rng() % (max + 1) : max / 5;
    }
    return 0;
}

// A picture of pattern p in every plane (CAMBI reads the luma only; SpEED's
// twins read the chroma too), the luma drawn first.
inline Picture make_cambi_picture(int w, int h, int bpc, CambiPattern p, unsigned seed) {
    Picture pic(w, h, bpc, PixelFormat::yuv420);
    std::mt19937 rng(seed);
    for (Plane& l : pic.planes)
        for (int y = 0; y < l.height(); ++y)
            for (int x = 0; x < l.width(); ++x) {
                const unsigned v = pattern_sample(p, x, y, l.width(), l.height(), bpc, rng);
                if (bpc > 8)
                    l.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
                else
                    l.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            }
    return pic;
}

// The scalar kernels' c-values of every scale of a 10-bit w x h picture,
// in the extractor's order (mask, then per scale decimate, mode filter,
// c-values).
inline std::vector<std::vector<float>> scalar_c_values(std::vector<std::uint16_t> image, int w, int h,
                                                int window, bool speedup, int threshold,
                                                const cambi::ContrastSetup& s) {
    const cambi::CambiKernels& k = cambi::cambi_kernels_scalar();
    const std::ptrdiff_t stride = w;
    std::vector<std::uint16_t> mask(image.size());
    std::vector<std::uint32_t> scratch(cambi::spatial_mask_scratch(w));
    k.spatial_mask(image.data(), stride, mask.data(), w, h, threshold, scratch.data());
    std::vector<std::uint16_t> buffer(3 * static_cast<std::size_t>(w));
    std::vector<std::uint16_t> hist(cambi::c_values_cells(w, window, s.band_size));
    std::vector<std::vector<float>> out;
    for (int sc = 0; sc < cambi::kScales; ++sc) {
        if (sc > 0 || speedup) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            k.decimate(image.data(), stride, w, h);
            k.decimate(mask.data(), stride, w, h);
        }
        k.filter_mode(image.data(), stride, w, h, buffer.data());
        std::vector<float> c(static_cast<std::size_t>(w) * h);
        cambi::CValueSums sums;
        k.c_values(image.data(), mask.data(), stride, w, h, window, s, c.data(), hist.data(), sums);
        out.push_back(std::move(c));
    }
    return out;
}

struct Contrast {
    std::vector<std::uint16_t> tvi;
    std::vector<int> weights;
    cambi::ContrastSetup s;
};

// Every difference visible (or only those at or below `tvi_top`), the
// visibility threshold `vlt`.
inline Contrast make_setup(int num_diffs, int tvi_top, int vlt) {
    static const int kWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                     8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
    Contrast st;
    for (int d = 0; d < num_diffs; ++d) {
        st.tvi.push_back(static_cast<std::uint16_t>(tvi_top - (num_diffs - 1 - d) * 3 + num_diffs));
        st.weights.push_back(kWeights[d]);
    }
    st.s.num_diffs = num_diffs;
    st.s.tvi = st.tvi.data();
    st.s.weights = st.weights.data();
    st.s.vlt_luma = vlt;
    const int lo = vlt - 3 * num_diffs + 1;
    st.s.band_base = lo > 0 ? lo : 0;
    st.s.band_size = st.tvi.back() + 1 - st.s.band_base;
    return st;
}

// The first c-value of any scale where the twin differs from the scalar, or "".
inline std::string compare_c_values(int w, int h, CambiPattern p, int window, bool speedup,
                                    const Contrast& st, const CambiMaker& make) {
    const Picture pic = make_cambi_picture(w, h, 10, p, 5u + w);
    std::vector<std::uint16_t> image(static_cast<std::size_t>(w) * h);
    for (int y = 0; y < h; ++y)
        std::memcpy(&image[static_cast<std::size_t>(y) * w], pic.planes[0].row<std::uint16_t>(y), 2 * w);
    const int threshold = 12;
    const auto want = scalar_c_values(image, w, h, window, speedup, threshold, st.s);
    auto twin = make(w, h, st.s);
    cambi::CambiPicture dp;
    dp.luma = pic.planes[0].row<std::uint8_t>(0);
    dp.stride = pic.planes[0].stride();
    dp.in_w = dp.w = w;
    dp.in_h = dp.h = h;
    dp.bpc = 10;
    dp.window = window;
    dp.speedup = speedup;
    dp.mask_threshold = threshold;
    twin->run(dp);
    for (int s = 0; s < cambi::kScales; ++s) {
        const float* got = twin->c_values(s);
        for (std::size_t i = 0; i < want[static_cast<std::size_t>(s)].size(); ++i)
            if (std::memcmp(&got[i], &want[static_cast<std::size_t>(s)][i], 4) != 0)
                return "scale " + std::to_string(s) + " c-value " + std::to_string(i) + ": device " +
                       test::g17(got[i]) + ", scalar " + test::g17(want[static_cast<std::size_t>(s)][i]);
    }
    return "";
}

// A feature's scores (cambi's, SpEED's) on the CPU scalar and on `backend`,
// every value equal, over frames of make_cambi_picture.
inline int expect_feature_scores_equal(const char* feature, Backend backend, int w, int h, int bpc,
                                       CambiPattern ref, CambiPattern dis,
                                       const std::vector<std::pair<std::string, std::string>>& options,
                                       unsigned frames = 2) {
    const FeatureInfo* info = find_feature(feature);
    OptionValues opts = test::options_for(*info, {});
    for (const auto& [k, v] : options) opts.set(k, v);
    Compute cpu;
    cpu.simd = SimdLevel::scalar;
    Compute dev = cpu;
    dev.backend = backend;
    const FrameGeometry geo{w, h, bpc, PixelFormat::yuv420};
    auto a = info->create(opts, geo, cpu);
    auto b = info->create(opts, geo, dev);
    test::RecordingSink sa, sb;
    for (unsigned f = 0; f < frames; ++f) {
        const Picture r = make_cambi_picture(w, h, bpc, ref, 3u + f);
        const Picture d = make_cambi_picture(w, h, bpc, dis, 17u + f);
        a->extract(r, d, f, sa);
        b->extract(r, d, f, sb);
    }
    std::string what = std::string(feature) + " " + std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bpc) +
                       "-bit patterns " + std::to_string(static_cast<int>(ref)) + "/" +
                       std::to_string(static_cast<int>(dis));
    for (const auto& [k, v] : options) what += " " + k + "=" + v;
    EXPECT_EQ(sa.order, sb.order) << what;
    int compared = 0;
    for (const auto& [key, frames] : sa.values)
        for (const auto& [f, v] : frames) {
            ++compared;
            EXPECT_EQ(test::g17(sb.values[key][f]), test::g17(v)) << what << " " << key << " frame " << f;
        }
    EXPECT_GT(compared, 0) << what;
    return compared;
}

inline int expect_scores_equal(Backend backend, int w, int h, int bpc, CambiPattern ref, CambiPattern dis,
                               const std::vector<std::pair<std::string, std::string>>& options,
                               unsigned frames = 2) {
    return expect_feature_scores_equal("cambi", backend, w, h, bpc, ref, dis, options, frames);
}

// Every stage's c-values on the model's 4 contrasts and patterns, the
// speed-up, 32 contrasts with a band cut by the visibility threshold and
// tvi, and one contrast.
inline void expect_c_values_of_every_scale(const CambiMaker& make) {
    const Contrast four = make_setup(4, 1023, 0);
    for (CambiPattern p : {CambiPattern::ramp, CambiPattern::mixed, CambiPattern::noise, CambiPattern::extremes})
        EXPECT_EQ(compare_c_values(241, 217, p, 9, false, four, make), "") << static_cast<int>(p);
    EXPECT_EQ(compare_c_values(300, 250, CambiPattern::mixed, 15, true, four, make), "");
    const Contrast wide = make_setup(32, 700, 300);
    EXPECT_EQ(compare_c_values(257, 233, CambiPattern::mixed, 11, false, wide, make), "");
    const Contrast one = make_setup(1, 900, 0);
    EXPECT_EQ(compare_c_values(233, 216, CambiPattern::ramp, 7, false, one, make), "");
}

// Windows of 65 with two values 4 apart in wide stripes: weight 4 * p0 * p
// passes 2^24 (even products: the conversion is exact, as it always is with
// the default 4 contrasts); with 8 contrasts and uneven stripes 6 and 7
// apart, weight 5 makes odd products past 2^24, which the conversion
// rounds, ties included.
inline void expect_c_values_past_two_to_the_24(const CambiMaker& make) {
    const Contrast four = make_setup(4, 1023, 0);
    EXPECT_EQ(compare_c_values(1200, 1100, CambiPattern::stripes, 65, false, four, make), "");
    const Contrast eight = make_setup(8, 1023, 0);
    EXPECT_EQ(compare_c_values(1200, 1100, CambiPattern::uneven, 65, false, eight, make), "");
}

inline void expect_scores_at_every_depth(Backend backend) {
    using P = CambiPattern;
    for (int bpc : {8, 10, 12, 16})
        for (P p : {P::ramp, P::flat, P::noise, P::extremes, P::mixed})
            expect_scores_equal(backend, 219, 217, bpc, p, p, {});
    expect_scores_equal(backend, 216, 216, 8, P::mixed, P::ramp, {});  // the smallest square
    expect_scores_equal(backend, 216, 140, 10, P::mixed, P::ramp, {});  // one side of 216
    expect_scores_equal(backend, 333, 251, 9, P::ramp, P::mixed, {});   // odd
}

inline void expect_scores_with_the_options(Backend backend) {
    using P = CambiPattern;
    expect_scores_equal(backend, 480, 270, 10, P::mixed, P::ramp, {{"full_ref", "true"}});
    expect_scores_equal(backend, 480, 270, 8, P::ramp, P::mixed,
                        {{"full_ref", "true"}, {"enc_width", "320"}, {"enc_height", "180"}});
    expect_scores_equal(backend, 500, 300, 10, P::mixed, P::mixed, {{"enc_bitdepth", "8"}});
    expect_scores_equal(backend, 500, 300, 12, P::mixed, P::mixed, {{"enc_bitdepth", "10"}});
    expect_scores_equal(backend, 400, 300, 10, P::mixed, P::ramp, {{"enc_width", "270"}, {"enc_height", "216"}});
    for (const char* mlc : {"0", "3", "5"})
        expect_scores_equal(backend, 300, 240, 10, P::ramp, P::mixed, {{"max_log_contrast", mlc}});
    expect_scores_equal(backend, 300, 240, 10, P::mixed, P::ramp, {{"eotf", "pq"}});
    expect_scores_equal(backend, 300, 240, 10, P::mixed, P::ramp, {{"cambi_vis_lum_threshold", "20"}});
    expect_scores_equal(backend, 300, 240, 10, P::mixed, P::noise, {{"topk", "0.1"}, {"window_size", "127"}});
    expect_scores_equal(backend, 300, 240, 8, P::noise, P::mixed, {{"cambi_topk", "1.0"}, {"window_size", "15"}});
    expect_scores_equal(backend, 1920, 1080, 10, P::mixed, P::ramp, {{"cambi_high_res_speedup", "1080"}});
}

// A sample above the bit depth's maximum: the scalar's one-line error.
inline void expect_a_sample_above_the_depth_refused(Backend backend) {
    const FeatureInfo* info = find_feature("cambi");
    const OptionValues opts = test::options_for(*info, {});
    Compute dev;
    dev.backend = backend;
    auto b = info->create(opts, FrameGeometry{240, 220, 10, PixelFormat::yuv420}, dev);
    Picture p = make_cambi_picture(240, 220, 10, CambiPattern::flat, 1);
    p.planes[0].row<std::uint16_t>(100)[7] = 1500;
    p.planes[0].row<std::uint16_t>(150)[3] = 2000;
    test::RecordingSink sink;
    try {
        b->extract(p, p, 0, sink);
        ADD_FAILURE() << "accepted a 10-bit sample of 1500";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "cambi: the input has the value 1500, above the maximum of 1023 for 10 bits");
    }
}

}  // namespace vmafpp::devtest
