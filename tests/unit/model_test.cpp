// The model evaluator against libvmaf 3.2.0's goldens: the golden feature
// values of each frame go in, the golden `vmaf` (and bootstrap) scores and
// their pooled values must come out bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/corpus.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/model.hpp"
#include "vmafpp/results.hpp"

namespace vmafpp {
namespace {

using nlohmann::json;

std::string model_path(const std::string& file) {
    return (std::filesystem::path(VMAFPP_MODEL_DIR) / file).string();
}

ModelConfig by_version(const std::string& v) {
    ModelConfig c;
    c.version = v;
    return c;
}

ModelConfig by_path(const std::string& file) {
    ModelConfig c;
    c.path = model_path(file);
    return c;
}

// Golden key of each feature the model reads. With the extractor registered
// the model must name the same key itself; without it (extractors land on
// other branches) the expected key comes from `expected_keys`.
std::vector<std::string> golden_keys(const Model& model,
                                     const std::map<std::string, std::string>& expected_keys) {
    std::vector<std::string> keys;
    for (const auto& f : model.features()) {
        const auto it = expected_keys.find(f.feature_name);
        const std::string expected =
            it != expected_keys.end() ? it->second : feature_output_name(f.feature_name);
        if (find_feature_providing(f.feature_name)) {
            EXPECT_EQ(f.key, expected) << f.feature_name;
        }
        keys.push_back(expected);
    }
    return keys;
}

// Runs every golden frame through the model; checks every output of
// output_names() per frame and pooled.
void check_against_golden(const std::string& pair, const std::string& file, const Model& model,
                          const std::map<std::string, std::string>& expected_keys = {},
                          unsigned frame_count = 0, unsigned subsample = 1) {
    SCOPED_TRACE(pair + "/" + file);
    const json g = test::golden(pair, file);
    const auto keys = golden_keys(model, expected_keys);
    const auto names = model.output_names();
    if (frame_count == 0) frame_count = static_cast<unsigned>(g["frames"].size());

    std::map<std::string, std::vector<std::optional<double>>> predicted;
    for (const auto& frame : g["frames"]) {
        const unsigned n = frame["frameNum"].get<unsigned>();
        const json& metrics = frame["metrics"];
        std::vector<double> values;
        for (const auto& k : keys) values.push_back(metrics.at(k).get<double>());
        const auto scores = model.predict(values);
        ASSERT_EQ(scores.size(), names.size());
        for (std::size_t i = 0; i < scores.size(); ++i) {
            ASSERT_EQ(scores[i].name, names[i]);
            EXPECT_EQ(scores[i].value, metrics.at(names[i]).get<double>())
                << "frame " << n << " " << names[i];
            auto& v = predicted[names[i]];
            if (v.size() <= n) v.resize(n + 1);
            v[n] = scores[i].value;
        }
    }
    for (const auto& name : names) {
        const auto pooled = pool(predicted[name], frame_count, subsample);
        ASSERT_TRUE(pooled.has_value()) << name;
        const json& gp = g["pooled_metrics"].at(name);
        EXPECT_EQ(pooled->min, gp["min"].get<double>()) << name;
        EXPECT_EQ(pooled->max, gp["max"].get<double>()) << name;
        EXPECT_EQ(pooled->mean, gp["mean"].get<double>()) << name;
        EXPECT_EQ(pooled->harmonic_mean, gp["harmonic_mean"].get<double>()) << name;
    }
}

TEST(Model, DefaultModelReproducesEveryGoldenFrameAndPool) {
    const Model model = Model::load(by_version("vmaf_v0.6.1"));
    ASSERT_EQ(model.features().size(), 6u);
    int pairs = 0;
    for (const auto& pair : test::corpus_pairs()) {
        if (!test::has_golden(pair, "default.json")) continue;
        check_against_golden(pair, "default.json", model);
        ++pairs;
    }
    EXPECT_EQ(pairs, 22);
}

TEST(Model, SubsampleAndFrameCountGoldens) {
    const Model model = Model::load(by_version("vmaf_v0.6.1"));
    int runs = 0;
    for (const auto& pair : test::corpus_pairs()) {
        const unsigned frames = test::manifest_entry(pair)["frames"].get<unsigned>();
        if (test::has_golden(pair, "subsample3.json")) {
            check_against_golden(pair, "subsample3.json", model, {}, frames, 3);
            ++runs;
        }
        if (test::has_golden(pair, "frame_cnt5.json")) {
            check_against_golden(pair, "frame_cnt5.json", model, {}, 5, 1);
            ++runs;
        }
        if (test::has_golden(pair, "skip_ref2_dist1.json")) {
            check_against_golden(pair, "skip_ref2_dist1.json", model);
            ++runs;
        }
    }
    EXPECT_EQ(runs, 9);
}

TEST(Model, FourKModelFromPath) {
    const Model model = Model::load(by_path("vmaf_4k_v0.6.1.json"));
    int pairs = 0;
    for (const auto& pair : test::corpus_pairs()) {
        if (!test::has_golden(pair, "model_vmaf_4k_v0.6.1.json")) continue;
        check_against_golden(pair, "model_vmaf_4k_v0.6.1.json", model);
        ++pairs;
    }
    EXPECT_EQ(pairs, 3);
}

TEST(Model, NegModelReadsGainLimitedFeatures) {
    const Model model = Model::load(by_version("vmaf_v0.6.1neg"));
    // The model's feature_opts_dicts set both gain limits to 1.0, which
    // libvmaf's dictionary stores as "1".
    for (const auto& f : model.features()) {
        if (f.feature_name.find("adm2") != std::string::npos) {
            EXPECT_EQ(f.options, (std::vector<std::pair<std::string, std::string>>{
                                     {"adm_enhn_gain_limit", "1"}}));
        }
        if (f.feature_name.find("motion2") != std::string::npos) {
            EXPECT_TRUE(f.options.empty());
        }
    }
    const std::map<std::string, std::string> keys = {
        {"VMAF_integer_feature_adm2_score", "integer_adm2_egl_1"},
        {"VMAF_integer_feature_motion2_score", "integer_motion2"},
        {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0_egl_1"},
        {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1_egl_1"},
        {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2_egl_1"},
        {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3_egl_1"},
    };
    int pairs = 0;
    for (const auto& pair : test::corpus_pairs()) {
        if (!test::has_golden(pair, "model_vmaf_v0.6.1neg.json")) continue;
        check_against_golden(pair, "model_vmaf_v0.6.1neg.json", model, keys);
        ++pairs;
    }
    EXPECT_EQ(pairs, 3);
}

TEST(Model, BootstrapCollectionGivesEveryOutput) {
    const Model model = Model::load(by_path("vmaf_b_v0.6.3.json"));
    ASSERT_TRUE(model.is_collection());
    const auto names = model.output_names();
    ASSERT_EQ(names.size(), 25u);
    EXPECT_EQ(names[0], "vmaf");
    EXPECT_EQ(names[1], "vmaf_0001");
    EXPECT_EQ(names[20], "vmaf_0020");
    EXPECT_EQ(names[21], "vmaf_bagging");
    EXPECT_EQ(names[22], "vmaf_stddev");
    EXPECT_EQ(names[23], "vmaf_ci_p95_lo");
    EXPECT_EQ(names[24], "vmaf_ci_p95_hi");
    EXPECT_EQ(model.features().size(), 6u);  // shared by all 21 models
    int pairs = 0;
    for (const auto& pair : test::corpus_pairs()) {
        if (!test::has_golden(pair, "model_vmaf_b_v0.6.3.json")) continue;
        check_against_golden(pair, "model_vmaf_b_v0.6.3.json", model);
        ++pairs;
    }
    EXPECT_EQ(pairs, 3);
}

TEST(Model, EmbeddedModelEqualsItsFile) {
    const auto versions = builtin_model_versions();
    EXPECT_EQ(versions.size(), 17u);
    const Model a = Model::load(by_version("vmaf_b_v0.6.3"));
    const Model b = Model::load(by_path("vmaf_b_v0.6.3.json"));
    const std::vector<double> x = {0.93, 3.5, 0.41, 0.77, 0.86, 0.91};
    const auto sa = a.predict(x);
    const auto sb = b.predict(x);
    ASSERT_EQ(sa.size(), sb.size());
    for (std::size_t i = 0; i < sa.size(); ++i) EXPECT_EQ(sa[i].value, sb[i].value);
}

TEST(Model, NameOptionRenamesEveryOutput) {
    ModelConfig c = by_version("vmaf_b_v0.6.3");
    c.name = "bs";
    const Model model = Model::load(c);
    const auto names = model.output_names();
    EXPECT_EQ(names.front(), "bs");
    EXPECT_EQ(names[1], "bs_0001");
    EXPECT_EQ(names.back(), "bs_ci_p95_hi");
}

TEST(Model, KeyedPredictLooksUpFeatureKeys) {
    const Model model = Model::load(by_version("vmaf_v0.6.1"));
    const json g = test::golden("p02_coffee_576x324_420p8_x264crf35", "default.json");
    const json& m = g["frames"][3]["metrics"];
    const auto scores =
        model.predict([&](std::string_view key) { return m.at(std::string(key)).get<double>(); });
    ASSERT_EQ(scores.size(), 1u);
    EXPECT_EQ(scores[0].name, "vmaf");
    EXPECT_EQ(scores[0].value, m["vmaf"].get<double>());
}

// --- transform and clip --------------------------------------------------------

double single_score(const Model& m, const std::vector<double>& x) { return m.predict(x)[0].value; }

TEST(Model, DisableClipAndEnableTransform) {
    const json file = json::parse(std::ifstream(model_path("vmaf_v0.6.1.json")));
    const json& t = file["model_dict"]["score_transform"];
    const double p0 = t["p0"], p1 = t["p1"], p2 = t["p2"];

    // Identical features score above 100 before the clip.
    const std::vector<double> x = {1.0000012, 12.0, 1.0, 1.0, 1.0, 1.0};
    ModelConfig raw_cfg = by_version("vmaf_v0.6.1");
    raw_cfg.disable_clip = true;
    const double raw = single_score(Model::load(raw_cfg), x);
    EXPECT_GT(raw, 100.0);
    EXPECT_EQ(single_score(Model::load(by_version("vmaf_v0.6.1")), x), 100.0);

    raw_cfg.enable_transform = true;
    double expected = 0.;
    expected += p0;
    expected += p1 * raw;
    expected += p2 * raw * raw;
    expected = expected < raw ? raw : expected;  // out_gte_in
    EXPECT_EQ(single_score(Model::load(raw_cfg), x), expected);

    // A low score, where the polynomial lifts it.
    const std::vector<double> low = {0.85, 2.0, 0.35, 0.65, 0.75, 0.8};
    ModelConfig plain = by_version("vmaf_v0.6.1");
    const double low_raw = single_score(Model::load(plain), low);
    ASSERT_GT(low_raw, 10.0);
    ASSERT_LT(low_raw, 90.0);
    plain.enable_transform = true;
    const double lifted = single_score(Model::load(plain), low);
    const double poly = p0 + p1 * low_raw + p2 * low_raw * low_raw;
    EXPECT_GT(lifted, low_raw);
    EXPECT_EQ(lifted, std::min(std::max(poly, low_raw), 100.0));
}

// A one-vector SVM: with x equal to the support vector the kernel is 1, so
// the raw score is coef - rho = 0.5 + 0.25.
std::string tiny_model(const std::string& extra) {
    return R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "none",
      "feature_names": ["VMAF_integer_feature_adm2_score"],
      "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\nrho -0.25\nSV\n0.5 1:0.3 \n")" +
           extra + "}}";
}

double tiny_score(const std::string& extra, double x = 0.3, ModelConfig cfg = {}) {
    cfg.path = "tiny";
    return single_score(Model::parse(tiny_model(extra), cfg, "tiny"), {x});
}

TEST(Model, TinySvmArithmetic) {
    EXPECT_EQ(tiny_score(""), 0.75);
    const double d = 1.3 - 0.3;
    EXPECT_EQ(tiny_score("", 1.3), 0.5 * std::exp(-0.5 * (d * d)) - -0.25);
}

TEST(Model, PiecewiseLinearKnots) {
    const std::string knots =
        R"(, "score_transform": {"enabled": true, "knots": [[0.0, 0.0], [0.5, 2.0], [1.0, 2.5]]})";
    // 0.75 lies in the second segment: slope (2.5 - 2) / 0.5, offset 2 - 0.5 * slope.
    const double slope = (2.5 - 2.0) / (1.0 - 0.5);
    const double offset = 2.0 - (0.5 * slope);
    EXPECT_EQ(tiny_score(knots), slope * 0.75 + offset);
    // Without "enabled" the transform only runs with enable_transform.
    const std::string off =
        R"(, "score_transform": {"knots": [[0.0, 0.0], [0.5, 2.0], [1.0, 2.5]]})";
    EXPECT_EQ(tiny_score(off), 0.75);
    ModelConfig on;
    on.enable_transform = true;
    EXPECT_EQ(tiny_score(off, 0.3, on), slope * 0.75 + offset);
    // Rectification caps the output at the input.
    const std::string capped = R"(, "score_transform": {"enabled": true, "p0": 10.0, "out_lte_in": "true"})";
    EXPECT_EQ(tiny_score(capped), 0.75);
    // A horizontal last segment extends above the knots.
    const std::string flat =
        R"(, "score_transform": {"enabled": true, "knots": [[0.0, 0.0], [0.25, 1.0], [0.5, 1.0]]})";
    EXPECT_EQ(tiny_score(flat), 1.0);
}

TEST(Model, ClipRange) {
    EXPECT_EQ(tiny_score(R"(, "score_clip": [0.0, 0.5])"), 0.5);
    EXPECT_EQ(tiny_score(R"(, "score_clip": [0.9, 1.5])"), 0.9);
    ModelConfig no_clip;
    no_clip.disable_clip = true;
    EXPECT_EQ(tiny_score(R"(, "score_clip": [0.0, 0.5])", 0.3, no_clip), 0.75);
}

// --- configuration and errors ----------------------------------------------------

TEST(ModelConfig, ParsesLibvmafModelStrings) {
    const auto c = parse_model_config(
        "version=vmaf_v0.6.1:name=foo:disable_clip:enable_transform=true:adm.adm_enhn_gain_limit=1.2");
    EXPECT_EQ(c.version, "vmaf_v0.6.1");
    EXPECT_EQ(c.name, "foo");
    EXPECT_TRUE(c.disable_clip);
    EXPECT_TRUE(c.enable_transform);
    ASSERT_EQ(c.overrides.size(), 1u);
    EXPECT_EQ(c.overrides[0].extractor, "adm");
    EXPECT_EQ(c.overrides[0].option, "adm_enhn_gain_limit");
    EXPECT_EQ(c.overrides[0].value, "1.2");
    EXPECT_EQ(parse_model_config("path=/x/y.json").path, "/x/y.json");
    EXPECT_THROW(parse_model_config("name=foo"), Error);
    EXPECT_THROW(parse_model_config("version=a:path=b"), Error);
    EXPECT_THROW(parse_model_config("version=a:bogus"), Error);
    EXPECT_THROW(parse_model_config("version=a:disable_clip=maybe"), Error);
}

TEST(ModelConfig, OverrideNeedsAnExtractorOfTheModel) {
    ModelConfig c = by_version("vmaf_v0.6.1");
    c.overrides.push_back({"nosuch", "x", "1"});
    EXPECT_THROW(Model::load(c), Error);
}

TEST(ModelConfig, OverrideChangesKeyWhenAdmIsRegistered) {
    const FeatureInfo* adm = find_feature_providing("VMAF_integer_feature_adm2_score");
    if (!adm) GTEST_SKIP() << "integer ADM extractor not registered on this branch";
    ModelConfig c = by_version("vmaf_v0.6.1");
    c.overrides.push_back({adm->name, "adm_enhn_gain_limit", "1.2"});
    const Model m = Model::load(c);
    EXPECT_EQ(m.features()[0].key, "integer_adm2_egl_1.2");
}

// "<extractor>.<option>=<value>" reaches every feature of that extractor
// and only those; numbers are normalised like libvmaf's ("1.0" -> "1").
TEST(ModelConfig, OverrideReachesEveryFeatureOfTheExtractor) {
    const FeatureInfo* vif = find_feature_providing("VMAF_integer_feature_vif_scale0_score");
    if (!vif) GTEST_SKIP() << "integer VIF extractor not registered on this branch";
    ModelConfig c = by_version("vmaf_v0.6.1");
    c.overrides.push_back({vif->name, "vif_enhn_gain_limit", "1.0"});
    const Model m = Model::load(c);
    int changed = 0;
    for (const auto& f : m.features()) {
        if (f.extractor != vif->name) {
            EXPECT_TRUE(f.options.empty()) << f.feature_name;
            continue;
        }
        ++changed;
        EXPECT_EQ(f.options, (std::vector<std::pair<std::string, std::string>>{
                                 {"vif_enhn_gain_limit", "1"}}));
        EXPECT_EQ(f.key, feature_output_name(f.feature_name) + "_egl_1");
    }
    EXPECT_EQ(changed, 4);
}

void expect_error(const std::string& text, const std::string& fragment) {
    ModelConfig c;
    c.path = "bad.json";
    try {
        Model::parse(text, c, "bad.json");
        ADD_FAILURE() << "no error for: " << fragment;
    } catch (const Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(fragment), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

TEST(ModelErrors, MissingOrUnknownModel) {
    EXPECT_THROW(Model::load(by_version("vmaf_v9")), Error);
    ModelConfig c;
    c.path = "/nonexistent/model.json";
    try {
        Model::load(c);
        ADD_FAILURE();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/model.json"), std::string::npos);
    }
}

TEST(ModelErrors, BadJsonAndFields) {
    expect_error("{\"model_dict\": ", "invalid JSON");
    expect_error("[1, 2]", "expected an object");
    expect_error("{\"param_dict\": {}}", "neither");
    const std::string ok = tiny_model("");
    auto without = [&](const std::string& field_and_value) {
        std::string t = ok;
        const auto pos = t.find(field_and_value);
        EXPECT_NE(pos, std::string::npos) << field_and_value;
        t.erase(pos, field_and_value.size());
        return t;
    };
    expect_error(without(R"("model_type": "LIBSVMNUSVR",)"), "missing \"model_type\"");
    expect_error(without(R"("norm_type": "none",)"), "missing \"norm_type\"");
    expect_error(without(R"("feature_names": ["VMAF_integer_feature_adm2_score"],)"),
                 "missing \"feature_names\"");
    expect_error(tiny_model(R"(, "norm_type": "bogus")"), "bogus");
    // linear_rescale needs one slope and intercept per feature plus one.
    std::string lin = ok;
    lin.replace(lin.find("\"none\""), 6, "\"linear_rescale\"");
    expect_error(lin, "missing \"slopes\"");
    expect_error(lin.substr(0, lin.size() - 2) + R"(, "slopes": [1.0], "intercepts": [0.0, 0.0]}})",
                 "expected 2 numbers, found 1");
}

TEST(ModelErrors, NonFiniteNumbers) {
    expect_error(tiny_model(R"(, "score_clip": [0.0, 1e999])"), "overflow");
    std::string svm_inf = tiny_model("");
    svm_inf.replace(svm_inf.find("gamma 0.5"), 9, "gamma inf");
    expect_error(svm_inf, "non-finite");
    std::string svm_nan = tiny_model("");
    svm_nan.replace(svm_nan.find("1:0.3"), 5, "1:nan");
    expect_error(svm_nan, "non-finite");
    expect_error("{\"model_dict\": NaN}", "invalid JSON");
}

TEST(ModelErrors, BadSvmText) {
    std::string t = tiny_model("");
    t.replace(t.find("kernel_type rbf"), 15, "kernel_type linear");
    expect_error(t, "kernel_type");
    t = tiny_model("");
    t.replace(t.find("total_sv 1"), 10, "total_sv 2");
    expect_error(t, "support vectors");
    t = tiny_model("");
    t.replace(t.find("1:0.3"), 5, "2:0.3 1:0.1");
    expect_error(t, "indices");
}

TEST(ModelErrors, CollectionNeedsMembers) {
    const std::string member = R"({"model_dict": {"model_type": "BOOTSTRAP_LIBSVMNUSVR", "norm_type": "none",
      "feature_names": ["VMAF_integer_feature_adm2_score"],
      "model": "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 1\nrho -0.25\nSV\n0.5 1:0.3 \n"}})";
    expect_error("{\"0\": " + member + "}", "collection");
    ModelConfig c;
    c.path = "c.json";
    const Model m = Model::parse("{\"0\": " + member + ", \"1\": " + member + "}", c, "c.json");
    const auto s = m.predict(std::vector<double>{0.3});
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[1].name, "vmaf_0001");
    EXPECT_EQ(s[2].value, 0.75);  // bagging of one member
    EXPECT_EQ(s[3].value, 0.0);   // stddev
}

}  // namespace
}  // namespace vmafpp

namespace vmafpp {
namespace {

TEST(Model, EveryEmbeddedModelLoadsAndPredicts) {
    for (const auto& version : builtin_model_versions()) {
        SCOPED_TRACE(version);
        const Model m = Model::load(by_version(version));
        const std::vector<double> x(m.features().size(), 0.5);
        for (const auto& s : m.predict(x)) EXPECT_TRUE(std::isfinite(s.value)) << s.name;
    }
}

// vmaf_v1.0.16 models replace a zero chroma-speed feature by
// c * (1 - adm3); feeding that value directly must give (nearly: the
// correction goes through normalise/denormalise) the same score.
TEST(Model, ChromaCorrectionReplacesZeroSpeedChroma) {
    const Model m = Model::load(by_version("vmaf_v1.0.16_3d0h"));
    std::size_t adm3 = 99, speed = 99;
    for (std::size_t i = 0; i < m.features().size(); ++i) {
        if (m.features()[i].feature_name.find("adm3") != std::string::npos) adm3 = i;
        if (m.features()[i].feature_name.find("speed_chroma") != std::string::npos) speed = i;
    }
    ASSERT_LT(adm3, m.features().size());
    ASSERT_LT(speed, m.features().size());
    std::vector<double> x = {3.0, 0.0, 0.97, 2.5};
    x[adm3] = 0.97;
    x[speed] = 0.0;
    const double corrected = m.predict(x)[0].value;
    x[speed] = 120.0 * (1.0 - 0.97);
    EXPECT_NEAR(m.predict(x)[0].value, corrected, 1e-9);
    x[speed] = 0.5;
    EXPECT_GT(std::fabs(m.predict(x)[0].value - corrected), 1e-3);
}

}  // namespace
}  // namespace vmafpp
