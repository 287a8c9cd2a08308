// Behaviour of the float extractors outside the corpus goldens: synthetic
// pictures with known answers, options and keys, size and depth limits, the
// names the float models ask for, and the temporal protocol of float_motion.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"

namespace vmafpp {
namespace {

// Records what an extractor writes.
class MapSink final : public FeatureSink {
public:
    void append(std::string_view key, unsigned frame, double value) override {
        values[std::string(key)][frame] = value;
    }
    bool has(const std::string& key, unsigned frame) const {
        auto it = values.find(key);
        return it != values.end() && it->second.count(frame);
    }
    double at(const std::string& key, unsigned frame) const { return values.at(key).at(frame); }
    std::map<std::string, std::map<unsigned, double>> values;
};

Picture flat(int w, int h, int bpc, int value, PixelFormat fmt = PixelFormat::yuv420) {
    Picture p(w, h, bpc, fmt);
    for (int k = 0; k < p.plane_count(); ++k) {
        Plane& pl = p.planes[k];
        for (int y = 0; y < pl.height(); ++y)
            for (int x = 0; x < pl.width(); ++x) {
                if (bpc > 8)
                    pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(value);
                else
                    pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(value);
            }
    }
    return p;
}

void set_luma(Picture& p, int x, int y, int value) {
    if (p.bpc > 8)
        p.planes[0].row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(value);
    else
        p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(value);
}

// A deterministic textured picture (no two neighbours equal in general).
Picture textured(int w, int h, int bpc, unsigned seed) {
    Picture p = flat(w, h, bpc, 0);
    unsigned s = seed;
    const int maxv = (1 << bpc) - 1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            s = s * 1664525u + 1013904223u;
            const int smooth = (x * 3 + y * 5) % 200;
            set_luma(p, x, y, std::min(maxv, (smooth + static_cast<int>(s >> 26)) << (bpc - 8)));
        }
    return p;
}

const FeatureInfo& feature(const char* name) {
    const FeatureInfo* f = find_feature(name);
    if (!f) throw Error(std::string("no feature ") + name);
    return *f;
}

std::unique_ptr<FeatureExtractor> make(const char* name, const Picture& like,
                                       const std::vector<std::pair<std::string, std::string>>&
                                           opts = {}) {
    const FeatureInfo& f = feature(name);
    OptionValues o(f.options);
    for (const auto& [k, v] : opts) o.set(k, v);
    return f.create(o, FrameGeometry{like.width, like.height, like.bpc, like.format});
}

// ---- ADM ------------------------------------------------------------------

// Flat grey reference, distorted copy with 8x8 patches of black and white.
// The reference has no detail at all, so nothing of the distortion can be
// "restored": detail loss is only the noise floor on both sides of the ratio,
// and every scale scores exactly 1; the patches are all additive impairment.
TEST(FloatAdm, FlatAgainstPatchesScoresOneAtScale0) {
    const Picture ref = flat(64, 64, 8, 128);
    Picture dis = flat(64, 64, 8, 128);
    for (int by = 0; by < 4; ++by)
        for (int bx = 0; bx < 4; ++bx)
            for (int y = 0; y < 8; ++y)
                for (int x = 0; x < 8; ++x)
                    set_luma(dis, 16 * bx + 4 + x, 16 * by + 4 + y, (bx + by) % 2 ? 255 : 0);
    auto adm = make("float_adm", ref);
    MapSink sink;
    adm->extract(ref, dis, 0, sink);
    EXPECT_EQ(sink.at("adm_scale0", 0), 1.0);
    EXPECT_EQ(sink.at("adm_scale1", 0), 1.0);
    EXPECT_EQ(sink.at("aim", 0), 1.0);
}

TEST(FloatAdm, IdenticalTexturedPicturesScoreOne) {
    const Picture p = textured(96, 80, 8, 7);
    auto adm = make("float_adm", p);
    MapSink sink;
    adm->extract(p, p, 0, sink);
    // An undistorted picture is fully restored: num == den at every scale.
    for (int s = 0; s < 4; ++s)
        EXPECT_EQ(sink.at("adm_scale" + std::to_string(s), 0), 1.0) << s;
    EXPECT_EQ(sink.at("adm2", 0), 1.0);
}

TEST(FloatAdm, GainLimitKeysAndDebugOutputs) {
    const Picture p = textured(64, 48, 8, 3);
    auto adm = make("float_adm", p, {{"adm_enhn_gain_limit", "1.0"}, {"debug", "true"}});
    MapSink sink;
    adm->extract(p, textured(64, 48, 8, 4), 5, sink);
    EXPECT_TRUE(sink.has("adm2_egl_1", 5));
    EXPECT_TRUE(sink.has("adm_scale3_egl_1", 5));
    EXPECT_TRUE(sink.has("adm_num_egl_1", 5));
    EXPECT_TRUE(sink.has("adm_den_scale0_egl_1", 5));
    EXPECT_FALSE(sink.has("adm2", 5));
    // adm_scale<k> is the ratio of the debug numerator and denominator.
    EXPECT_EQ(sink.at("adm_scale2_egl_1", 5),
              sink.at("adm_num_scale2_egl_1", 5) / sink.at("adm_den_scale2_egl_1", 5));
}

TEST(FloatAdm, SkipScale0AndSkipAimScale) {
    const Picture a = textured(64, 64, 8, 1), b = textured(64, 64, 8, 2);
    MapSink plain, skipped;
    make("float_adm", a)->extract(a, b, 0, plain);
    make("float_adm", a, {{"adm_skip_scale0", "true"}})->extract(a, b, 0, skipped);
    // Scale 0 contributes 0 / 1e-10; the other scales do not depend on it.
    EXPECT_EQ(skipped.at("adm_scale0_ssz", 0), 0.0);
    EXPECT_EQ(skipped.at("adm_scale2_ssz", 0), plain.at("adm_scale2", 0));
    EXPECT_NE(skipped.at("adm2_ssz", 0), plain.at("adm2", 0));
}

TEST(FloatAdm, RejectsTooSmallAndUnsupportedDepth) {
    EXPECT_THROW(make("float_adm", flat(16, 64, 8, 0)), Error);
    EXPECT_THROW(make("float_adm", flat(64, 16, 8, 0)), Error);
    EXPECT_NO_THROW(make("float_adm", flat(17, 17, 8, 0, PixelFormat::yuv444)));
    EXPECT_THROW(make("float_adm", flat(64, 64, 9, 0)), Error);
}

TEST(FloatAdm, SmallestFrameIsDeterministic) {
    // At the minimum size the edge reflections reach every band border.
    const Picture a = textured(17, 17, 8, 11);
    const Picture b = textured(17, 17, 8, 12);
    auto adm = make("float_adm", a);
    MapSink s1, s2;
    adm->extract(a, b, 0, s1);
    adm->extract(a, b, 1, s2);
    EXPECT_TRUE(std::isfinite(s1.at("adm2", 0)));
    EXPECT_EQ(s1.at("adm2", 0), s2.at("adm2", 1));
}

// ---- VIF ------------------------------------------------------------------

TEST(FloatVif, IdenticalPicturesScoreOne) {
    const Picture p = textured(128, 96, 8, 5);
    MapSink sink;
    make("float_vif", p)->extract(p, p, 0, sink);
    for (int s = 0; s < 4; ++s)
        EXPECT_NEAR(sink.at("vif_scale" + std::to_string(s), 0), 1.0, 1e-6) << s;
}

TEST(FloatVif, OptionsKeysAndLimits) {
    const Picture p = textured(64, 64, 10, 5), q = textured(64, 64, 10, 6);
    MapSink sink;
    make("float_vif", p, {{"vif_enhn_gain_limit", "1"}})->extract(p, q, 2, sink);
    for (int s = 0; s < 4; ++s) EXPECT_TRUE(sink.has("vif_scale" + std::to_string(s) + "_egl_1", 2));
    MapSink skip;
    make("float_vif", p, {{"vif_skip_scale0", "true"}, {"debug", "true"}})->extract(p, q, 0, skip);
    EXPECT_EQ(skip.at("vif_scale0_ssclz", 0), 0.0);
    EXPECT_EQ(skip.at("vif_den_scale0_ssclz", 0), -1.0);
    EXPECT_THROW(make("float_vif", p, {{"vif_kernelscale", "0.9"}}), Error);
    EXPECT_NO_THROW(make("float_vif", p, {{"vif_kernelscale", "0.5"}}));
    // 16 rows: scale 3 would have 2 rows for a 3-tap filter; 15 leaves 1.
    EXPECT_NO_THROW(make("float_vif", flat(64, 16, 8, 0)));
    EXPECT_THROW(make("float_vif", flat(64, 15, 8, 0)), Error);
    EXPECT_THROW(make("float_vif", flat(64, 64, 12, 0), {{"vif_kernelscale", "4"}}), Error);
}

TEST(FloatVif, PrescaleChangesKeyAndSize) {
    const Picture p = textured(64, 64, 8, 5), q = textured(64, 64, 8, 9);
    MapSink sink;
    make("float_vif", p, {{"vif_prescale", "2"}})->extract(p, q, 0, sink);
    EXPECT_TRUE(sink.has("vif_scale3_ps_2", 0));
    EXPECT_THROW(make("float_vif", p, {{"vif_prescale", "0.2"}}), Error);  // 13x13 left
}

// ---- Motion ---------------------------------------------------------------

Picture shifted(int w, int h, int shift) {
    Picture p = flat(w, h, 8, 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) set_luma(p, x, y, ((x + shift) * 7 + y * 3) % 251);
    return p;
}

TEST(FloatMotion, TemporalProtocol) {
    auto m = make("float_motion", shifted(32, 32, 0));
    MapSink sink;
    for (unsigned f = 0; f < 4; ++f) m->extract(shifted(32, 32, f * f), shifted(32, 32, 0), f, sink);
    m->flush(sink);
    EXPECT_EQ(sink.at("motion2", 0), 0.0);
    EXPECT_EQ(sink.at("motion", 0), 0.0);
    // motion2 of frame n is min(motion(n), motion(n+1)); the last frame keeps
    // its own motion.
    for (unsigned f = 1; f < 3; ++f)
        EXPECT_EQ(sink.at("motion2", f), std::min(sink.at("motion", f), sink.at("motion", f + 1)));
    EXPECT_EQ(sink.at("motion2", 3), sink.at("motion", 3));
    EXPECT_EQ(sink.at("motion3", 0), sink.at("motion", 1));
    EXPECT_GT(sink.at("motion", 3), sink.at("motion", 1));
}

TEST(FloatMotion, SingleFrameAndForceZero) {
    const Picture p = shifted(32, 32, 0);
    auto m = make("float_motion", p);
    MapSink one;
    m->extract(p, p, 0, one);
    m->flush(one);
    EXPECT_EQ(one.at("motion3", 0), 0.0);
    EXPECT_EQ(one.at("motion2", 0), 0.0);

    auto z = make("float_motion", p, {{"motion_force_zero", "true"}});
    MapSink zero;
    z->extract(p, p, 0, zero);
    z->extract(shifted(32, 32, 5), p, 1, zero);
    z->flush(zero);
    EXPECT_EQ(zero.at("motion2_force_0", 1), 0.0);
    EXPECT_EQ(zero.at("motion3_force_0", 1), 0.0);
    EXPECT_EQ(zero.values.at("motion2_force_0").size(), 2u);
}

TEST(FloatMotion, OptionsAndLimits) {
    const Picture p = shifted(40, 30, 0), q = shifted(40, 30, 3);
    for (const char* opt : {"motion_add_uv", "motion_add_scale1"}) {
        auto m = make("float_motion", p, {{opt, "true"}});
        MapSink s;
        m->extract(p, p, 0, s);
        m->extract(q, p, 1, s);
        m->flush(s);
        EXPECT_EQ(s.values.size(), 3u) << opt;
    }
    // The no-op filter (size 1) gives the plain SAD: every sample moved.
    auto m = make("float_motion", p, {{"motion_filter_size", "1"}});
    MapSink s;
    m->extract(p, p, 0, s);
    m->extract(q, p, 1, s);
    EXPECT_GT(s.at("motion_mfs_1", 1), 0.0);
    EXPECT_THROW(make("float_motion", flat(32, 32, 8, 0, PixelFormat::yuv400),
                      {{"motion_add_uv", "true"}}),
                 Error);
    EXPECT_THROW(make("float_motion", flat(2, 32, 8, 0, PixelFormat::yuv444)), Error);
}

// ---- PSNR / ANSNR / moment ------------------------------------------------

TEST(FloatPsnr, KnownValuesPerDepth) {
    for (int bpc : {8, 10, 12, 16}) {
        const int one8 = 1 << (bpc - 8);  // one 8-bit step
        const Picture a = flat(24, 20, bpc, 100 * one8);
        Picture b = flat(24, 20, bpc, 100 * one8);
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 24; ++x) set_luma(b, x, y, 102 * one8);  // error 2, mse 4
        MapSink same, diff;
        make("float_psnr", a)->extract(a, a, 0, same);
        make("float_psnr", a)->extract(a, b, 0, diff);
        const double peak = ((1 << bpc) - 1) / static_cast<double>(one8);
        EXPECT_EQ(same.at("float_psnr", 0), 6.0 * bpc + 12.0) << bpc;  // the cap
        EXPECT_EQ(diff.at("float_psnr", 0), 10 * std::log10(peak * peak / 4.0)) << bpc;
    }
}

TEST(FloatMoment, FlatPictures) {
    const Picture a = flat(30, 20, 10, 400), b = flat(30, 20, 10, 64);
    MapSink s;
    make("float_moment", a)->extract(a, b, 3, s);
    EXPECT_EQ(s.at("float_moment_ref1st", 3), 100.0);
    EXPECT_EQ(s.at("float_moment_dis1st", 3), 16.0);
    EXPECT_EQ(s.at("float_moment_ref2nd", 3), 10000.0);
    EXPECT_EQ(s.at("float_moment_dis2nd", 3), 256.0);
}

// Straightforward double-precision ANSNR (same filters and reflection) to
// check the wiring; float rounding keeps the two a few 1e-6 apart.
TEST(FloatAnsnr, CloseToDoublePrecisionDefinition) {
    const Picture a = textured(48, 40, 8, 21), b = textured(48, 40, 8, 22);
    MapSink s;
    make("float_ansnr", a)->extract(a, b, 0, s);
    const auto at = [](const Picture& p, int x, int y) {
        const auto refl = [](int k, int n) { return k < 0 ? -k : (k >= n ? 2 * n - k - 1 : k); };
        return p.planes[0].row<std::uint8_t>(refl(y, p.height))[refl(x, p.width)] - 128.0;
    };
    const double fr[3] = {1, 2, 1};
    const double fd[5][5] = {{2, 7, 12, 7, 2},
                             {7, 31, 52, 31, 7},
                             {12, 52, 127, 52, 12},
                             {7, 31, 52, 31, 7},
                             {2, 7, 12, 7, 2}};
    double sig = 0, noise = 0;
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 48; ++x) {
            double r = 0, d = 0;
            for (int i = -1; i <= 1; ++i)
                for (int j = -1; j <= 1; ++j) r += fr[i + 1] * fr[j + 1] / 16.0 * at(a, x + j, y + i);
            for (int i = -2; i <= 2; ++i)
                for (int j = -2; j <= 2; ++j) d += fd[i + 2][j + 2] / 571.0 * at(b, x + j, y + i);
            sig += r * r;
            noise += (r - d) * (r - d);
        }
    EXPECT_NEAR(s.at("float_ansnr", 0), 10 * std::log10(sig / noise), 1e-4);
    EXPECT_NEAR(s.at("float_anpsnr", 0), 10 * std::log10(255.0 * 255 * 48 * 40 / noise), 1e-4);
}

// ---- Registry and models --------------------------------------------------

TEST(FloatFeatures, ProvideWhatTheFloatModelsNeed) {
    for (const char* model : {"vmaf_float_v0.6.1.json", "vmaf_float_v0.6.1neg.json",
                              "vmaf_float_4k_v0.6.1.json", "vmaf_float_b_v0.6.3.json"}) {
        std::ifstream in(std::string(VMAFPP_MODEL_DIR) + "/" + model);
        ASSERT_TRUE(in) << model;
        const auto j = nlohmann::json::parse(in);
        // A bootstrap collection is an object of numbered models.
        const auto& m = j.contains("model_dict") ? j["model_dict"] : j["0"]["model_dict"];
        const auto& names = m["feature_names"];
        ASSERT_FALSE(names.empty());
        for (std::size_t i = 0; i < names.size(); ++i) {
            const std::string name = names[i];
            const FeatureInfo* f = find_feature_providing(name);
            ASSERT_NE(f, nullptr) << model << ": " << name;
            EXPECT_EQ(f->name.rfind("float_", 0), 0u) << name;
            if (!m.contains("feature_opts_dicts")) continue;
            // Each option the model sets exists and is accepted.
            OptionValues o(f->options);
            for (const auto& [k, v] : m["feature_opts_dicts"][i].items()) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%g", v.get<double>());
                EXPECT_NO_THROW(o.set(k, buf)) << model << ": " << k;
            }
            EXPECT_FALSE(f->key(o, name).empty());
        }
    }
}

TEST(FloatFeatures, RegisteredWithTemporalFlag) {
    for (const char* n : {"float_adm", "float_vif", "float_psnr", "float_ansnr", "float_moment"})
        EXPECT_FALSE(feature(n).temporal) << n;
    EXPECT_TRUE(feature("float_motion").temporal);
    EXPECT_EQ(find_feature_providing("adm2")->name, "float_adm");
    EXPECT_EQ(find_feature_providing("vif_scale3")->name, "float_vif");
    EXPECT_EQ(find_feature_providing("motion2")->name, "float_motion");
}

}  // namespace
}  // namespace vmafpp
