#include "vmafpp/model.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/capped_file.hpp"
#include "model/embedded_models.hpp"
#include "model/model_options.hpp"
#include "model/svm.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"

namespace vmafpp {
namespace detail {

using Json = nlohmann::json;

struct ScoreTransform {
    bool enabled = false;
    std::optional<double> p0, p1, p2;
    bool knots_enabled = false;
    std::vector<std::pair<double, double>> knots;  // (x, y)
    bool out_lte_in = false;
    bool out_gte_in = false;
};

struct ModelFeature {
    std::string name;
    double slope = 0.0;
    double intercept = 0.0;
    std::vector<std::pair<std::string, std::string>> options;
    std::size_t request = 0;  // index into ModelData::requests
};

enum class Norm { none, linear_rescale };
enum class ModelType { nusvr, bootstrap, residue_bootstrap };

// One nu-SVR model: a model file, or one member of a bootstrap collection.
struct SingleModel {
    std::string name;
    ModelType type = ModelType::nusvr;
    Norm norm = Norm::none;
    double slope = 0.0;
    double intercept = 0.0;
    std::vector<ModelFeature> features;
    bool clip_enabled = false;
    double clip_min = 0.0;
    double clip_max = 0.0;
    ScoreTransform transform;
    bool chroma_correction = false;
    double chroma_parameter = 0.0;
    std::size_t guiding = 0;  // the "adm3" feature
    std::size_t guided = 0;   // the "speed_chroma" feature
    SvrModel svm;

    double raw_prediction(std::span<const double> values) const;
    double transformed(double y) const;
    double clipped(double y) const;
    double final_score(double raw) const { return clipped(transformed(raw)); }
};

struct ModelData {
    std::string name;
    std::string label;
    bool collection = false;
    // members[0] is the main model; for a collection members[1..] are the
    // bootstrap models "<name>_0001"...
    std::vector<SingleModel> members;
    std::vector<FeatureRequest> requests;
};

namespace {

// --- JSON reading -----------------------------------------------------------

class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw Error(source_ + ": " + where + ": " + what);
    }

    double number(const Json& j, const std::string& where) const {
        if (!j.is_number()) fail(where, "expected a number");
        const double v = j.get<double>();
        if (!std::isfinite(v)) fail(where, "non-finite number");
        return v;
    }

    std::string string(const Json& j, const std::string& where) const {
        if (!j.is_string()) fail(where, "expected a string");
        return j.get<std::string>();
    }

    const Json& member(const Json& obj, const char* key, const std::string& where) const {
        const auto it = obj.find(key);
        if (it == obj.end()) fail(where, std::string("missing \"") + key + "\"");
        return *it;
    }

    std::vector<double> numbers(const Json& j, const std::string& where) const {
        if (!j.is_array()) fail(where, "expected an array of numbers");
        std::vector<double> out;
        for (std::size_t i = 0; i < j.size(); ++i)
            out.push_back(number(j[i], where + "[" + std::to_string(i) + "]"));
        return out;
    }

    const std::string& source() const { return source_; }

private:
    std::string source_;
};

// libvmaf's piecewise-linear mapping runs only on knots with increasing x
// and non-decreasing y; it rejects others per call, which we do at load.
void check_knots(const Reader& r, const std::vector<std::pair<double, double>>& knots,
                 const std::string& where) {
    for (std::size_t i = 0; i + 1 < knots.size(); ++i)
        if (!(knots[i].first < knots[i + 1].first && knots[i].second <= knots[i + 1].second))
            r.fail(where, "knots need increasing x and non-decreasing y");
}

ScoreTransform read_transform(const Reader& r, const Json& j, bool enable_transform,
                              const std::string& where) {
    if (!j.is_object()) r.fail(where, "expected an object");
    ScoreTransform t;
    auto coefficient = [&](const char* key, std::optional<double>& out) {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) return;
        out = r.number(*it, where + "." + key);
    };
    if (const auto it = j.find("enabled"); it != j.end()) {
        if (!it->is_boolean()) r.fail(where + ".enabled", "expected true or false");
        t.enabled = it->get<bool>();
    }
    coefficient("p0", t.p0);
    coefficient("p1", t.p1);
    coefficient("p2", t.p2);
    if (const auto it = j.find("knots"); it != j.end() && !it->is_null()) {
        if (!it->is_array()) r.fail(where + ".knots", "expected an array of [x, y] pairs");
        if (it->size() > 10) r.fail(where + ".knots", "at most 10 knots");
        for (std::size_t i = 0; i < it->size(); ++i) {
            const std::string w = where + ".knots[" + std::to_string(i) + "]";
            const auto xy = r.numbers((*it)[i], w);
            if (xy.size() != 2) r.fail(w, "expected [x, y]");
            t.knots.emplace_back(xy[0], xy[1]);
        }
        t.knots_enabled = true;
        check_knots(r, t.knots, where + ".knots");
    }
    // libvmaf stores these as the strings "true"/"false".
    auto rectify = [&](const char* key, bool& out) {
        const auto it = j.find(key);
        if (it == j.end()) return;
        out = r.string(*it, where + "." + key) == "true";
    };
    rectify("out_lte_in", t.out_lte_in);
    rectify("out_gte_in", t.out_gte_in);
    if (enable_transform) t.enabled = true;
    return t;
}

std::vector<std::pair<std::string, std::string>> read_options(const Reader& r, const Json& j,
                                                              const std::string& where) {
    if (!j.is_object()) r.fail(where, "expected an object");
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, value] : j.items()) {
        std::string text;
        if (value.is_boolean())
            text = value.get<bool>() ? "true" : "false";
        else if (value.is_number())
            text = normalized_number(r.number(value, where + "." + key));
        else if (value.is_string())
            text = value.get<std::string>();
        else
            r.fail(where + "." + key, "expected a number, boolean or string");
        out.emplace_back(key, text);
    }
    return out;
}

// Finds the one feature whose name contains `part`, as libvmaf's
// chroma-from-luma correction does.
std::size_t feature_containing(const Reader& r, const SingleModel& m, const char* part) {
    std::optional<std::size_t> found;
    for (std::size_t i = 0; i < m.features.size(); ++i) {
        if (m.features[i].name.find(part) == std::string::npos) continue;
        if (found) r.fail("model_dict.chroma_correction_parameter",
                          std::string("more than one feature contains \"") + part + "\"");
        found = i;
    }
    if (!found) r.fail("model_dict.chroma_correction_parameter",
                       std::string("no feature contains \"") + part + "\"");
    return *found;
}

SingleModel read_model_dict(const Reader& r, const Json& root, const ModelConfig& cfg,
                            const std::string& prefix) {
    if (!root.is_object()) r.fail(prefix.empty() ? "top level" : prefix, "expected an object");
    const std::string where = prefix + "model_dict";
    const Json& d = r.member(root, "model_dict", prefix.empty() ? "top level" : prefix);
    if (!d.is_object()) r.fail(where, "expected an object");

    SingleModel m;
    const std::string type = r.string(r.member(d, "model_type", where), where + ".model_type");
    if (type == "LIBSVMNUSVR") m.type = ModelType::nusvr;
    else if (type == "BOOTSTRAP_LIBSVMNUSVR") m.type = ModelType::bootstrap;
    else if (type == "RESIDUEBOOTSTRAP_LIBSVMNUSVR") m.type = ModelType::residue_bootstrap;
    else r.fail(where + ".model_type", "unsupported \"" + type + "\"");

    const std::string norm = r.string(r.member(d, "norm_type", where), where + ".norm_type");
    if (norm == "linear_rescale") m.norm = Norm::linear_rescale;
    else if (norm == "none") m.norm = Norm::none;
    else r.fail(where + ".norm_type", "unsupported \"" + norm + "\"");

    const Json& names = r.member(d, "feature_names", where);
    if (!names.is_array() || names.empty())
        r.fail(where + ".feature_names", "expected a non-empty array of strings");
    if (names.size() > 64) r.fail(where + ".feature_names", "at most 64 features");
    for (std::size_t i = 0; i < names.size(); ++i) {
        ModelFeature f;
        f.name = r.string(names[i], where + ".feature_names[" + std::to_string(i) + "]");
        m.features.push_back(std::move(f));
    }
    const std::size_t n = m.features.size();

    if (m.norm == Norm::linear_rescale) {
        // First entry is the score's, then one per feature.
        const auto slopes = r.numbers(r.member(d, "slopes", where), where + ".slopes");
        const auto intercepts =
            r.numbers(r.member(d, "intercepts", where), where + ".intercepts");
        if (slopes.size() != n + 1)
            r.fail(where + ".slopes", "expected " + std::to_string(n + 1) + " numbers, found " +
                                          std::to_string(slopes.size()));
        if (intercepts.size() != n + 1)
            r.fail(where + ".intercepts", "expected " + std::to_string(n + 1) +
                                              " numbers, found " +
                                              std::to_string(intercepts.size()));
        m.slope = slopes[0];
        m.intercept = intercepts[0];
        for (std::size_t i = 0; i < n; ++i) {
            m.features[i].slope = slopes[i + 1];
            m.features[i].intercept = intercepts[i + 1];
        }
    }

    if (const auto it = d.find("feature_opts_dicts"); it != d.end()) {
        if (!it->is_array()) r.fail(where + ".feature_opts_dicts", "expected an array");
        if (it->size() > n)
            r.fail(where + ".feature_opts_dicts", "more entries than feature_names");
        for (std::size_t i = 0; i < it->size(); ++i)
            m.features[i].options = read_options(
                r, (*it)[i], where + ".feature_opts_dicts[" + std::to_string(i) + "]");
    }

    if (const auto it = d.find("score_clip"); it != d.end()) {
        const auto clip = r.numbers(*it, where + ".score_clip");
        if (clip.size() != 2) r.fail(where + ".score_clip", "expected [min, max]");
        m.clip_enabled = !cfg.disable_clip;
        m.clip_min = clip[0];
        m.clip_max = clip[1];
    }

    if (const auto it = d.find("score_transform"); it != d.end())
        m.transform = read_transform(r, *it, cfg.enable_transform, where + ".score_transform");

    if (const auto it = d.find("chroma_correction_parameter"); it != d.end()) {
        m.chroma_parameter = r.number(*it, where + ".chroma_correction_parameter");
        // libvmaf skips the prediction for 0 and returns no score.
        if (m.chroma_parameter == 0.0)
            r.fail(where + ".chroma_correction_parameter", "must not be 0");
        m.chroma_correction = true;
        m.guiding = feature_containing(r, m, "adm3");
        m.guided = feature_containing(r, m, "speed_chroma");
    }

    const std::string svm_text = r.string(r.member(d, "model", where), where + ".model");
    m.svm = SvrModel::parse(svm_text, r.source() + ": " + where + ".model");
    return m;
}

// --- prediction ---------------------------------------------------------------

}  // namespace

double SingleModel::raw_prediction(std::span<const double> values) const {
    const std::size_t n = features.size();
    double x[64];
    for (std::size_t i = 0; i < n; ++i) {
        double v = values[features[i].request];
        if (norm == Norm::linear_rescale) v = features[i].slope * v + features[i].intercept;
        x[i] = v;
    }
    if (chroma_correction) {
        // Replace a zero chroma feature by one derived from ADM3, both
        // compared and derived in unnormalised units.
        auto unnormalized = [&](std::size_t i) {
            return norm == Norm::linear_rescale
                       ? (x[i] - features[i].intercept) / features[i].slope
                       : x[i];
        };
        const double guiding_value = unnormalized(guiding);
        if (unnormalized(guided) == 0.0) {
            double corrected = (-chroma_parameter * guiding_value) + chroma_parameter;
            if (norm == Norm::linear_rescale)
                corrected = features[guided].slope * corrected + features[guided].intercept;
            x[guided] = corrected;
        }
    }
    double prediction = svm.predict(std::span<const double>(x, n));
    if (norm == Norm::linear_rescale) prediction = (prediction - intercept) / slope;
    return prediction;
}

// Polynomial, then piecewise-linear mapping, then rectification against the
// input; libvmaf's quality_runner order.
double SingleModel::transformed(double y_in) const {
    const ScoreTransform& t = transform;
    if (!t.enabled) return y_in;

    double y = y_in;
    if (t.p0 || t.p1 || t.p2) {
        double out = 0.0;
        if (t.p0) out += *t.p0;
        if (t.p1) out += *t.p1 * y_in;
        if (t.p2) out += *t.p2 * y_in * y_in;
        y = out;
    }

    if (t.knots_enabled && t.knots.size() > 1) {
        // Every segment that covers x overwrites the result, and the first
        // and last segments extend below and above the knots; a later
        // covering segment wins, as in libvmaf.
        const double x = y;
        const std::size_t segments = t.knots.size() - 1;
        double slope = 0.0, offset = 0.0;
        y = 0.0;
        for (std::size_t s = 0; s < segments; ++s) {
            const auto [x0, y0] = t.knots[s];
            const auto [x1, y1] = t.knots[s + 1];
            const bool covered = x0 <= x && x <= x1;
            const bool below = s == 0 && x < x0;
            const bool above = s == segments - 1 && x > x1;
            if (y0 == y1) {
                if (covered || below || above) y = y0;
            } else {
                if (x0 == 0.0) {
                    offset = y0;
                    slope = (y1 - offset) / x1;
                } else {
                    slope = (y1 - y0) / (x1 - x0);
                    offset = y0 - (x0 * slope);
                }
                if (covered || below || above) y = slope * x + offset;
            }
        }
    }

    if (t.out_lte_in) y = (y > y_in) ? y_in : y;
    if (t.out_gte_in) y = (y < y_in) ? y_in : y;
    return y;
}

double SingleModel::clipped(double y) const {
    if (!clip_enabled) return y;
    y = (y < clip_min) ? clip_min : y;
    y = (y > clip_max) ? clip_max : y;
    return y;
}

namespace {

// Linear interpolation between the sorted scores around rank
// perc * (n - 1) / 100, as libvmaf computes its confidence interval.
double percentile(const std::vector<double>& sorted, double perc) {
    const double p = perc * static_cast<double>(sorted.size() - 1) / 100.;
    const int lo = static_cast<int>(std::floor(p));
    const int hi = static_cast<int>(std::ceil(p));
    if (lo == hi) return sorted[static_cast<std::size_t>(lo)];
    return sorted[static_cast<std::size_t>(lo)] * (hi - p) +
           sorted[static_cast<std::size_t>(hi)] * (p - lo);
}

void append_bootstrap_scores(const ModelData& d, std::span<const double> values,
                             std::vector<ScoreOutput>& out) {
    const std::size_t count = d.members.size() - 1;
    std::vector<double> raw(count);
    for (std::size_t i = 0; i < count; ++i) {
        const SingleModel& m = d.members[i + 1];
        raw[i] = m.raw_prediction(values);
        out.push_back({m.name, m.final_score(raw[i])});
    }

    // Statistics of the untransformed, unclipped member scores, summed in
    // member order (double), as libvmaf does.
    double sum = 0.;
    for (double s : raw) sum += s;
    const double mean = sum / static_cast<double>(count);
    double ssd = 0.;
    for (double s : raw) ssd += std::pow(s - mean, 2);
    double stddev = std::sqrt(ssd / static_cast<double>(count));

    std::vector<double> sorted = raw;
    std::sort(sorted.begin(), sorted.end());
    double lo = percentile(sorted, 2.5);
    double hi = percentile(sorted, 97.5);

    // The stddev is scaled by the slope of transform + clip around the mean,
    // using the first bootstrap member's transform and clip.
    const SingleModel& first = d.members[1];
    const double delta = 0.01;
    const double plus = first.final_score(mean + delta);
    const double minus = first.final_score(mean - delta);
    stddev *= (plus - minus) / (2.0 * delta);

    out.push_back({d.name + "_bagging", first.final_score(mean)});
    out.push_back({d.name + "_stddev", stddev});
    out.push_back({d.name + "_ci_p95_lo", first.final_score(lo)});
    out.push_back({d.name + "_ci_p95_hi", first.final_score(hi)});
}

// libvmaf's largest model (vmaf_b_v0.6.3.json) is 0.4 MB; anything near this
// limit is not a model, and reading it whole would cost its size in memory.
constexpr FileKind kModelFile{"model file", "a model", std::uint64_t{64} << 20};

// Applies `<extractor>.<option>=<value>` overrides to the features the
// extractor provides; the later value wins, as in libvmaf's dictionary merge.
void apply_overrides(SingleModel& m, const ModelConfig& cfg, std::vector<bool>& used) {
    for (std::size_t o = 0; o < cfg.overrides.size(); ++o) {
        const auto& ov = cfg.overrides[o];
        const std::string value = normalize_option_value(ov.value);
        for (auto& f : m.features) {
            const FeatureInfo* info = find_feature_providing(f.name);
            if (!info || info->name != ov.extractor) continue;
            used[o] = true;
            auto it = std::find_if(f.options.begin(), f.options.end(),
                                   [&](const auto& kv) { return kv.first == ov.option; });
            if (it != f.options.end()) it->second = value;
            else f.options.emplace_back(ov.option, value);
        }
    }
}

FeatureRequest make_request(const ModelFeature& f, const std::string& source) {
    FeatureRequest req;
    req.feature_name = f.name;
    req.options = f.options;
    const FeatureInfo* info = find_feature_providing(f.name);
    if (!info) {
        req.key = feature_output_name(f.name);
        return req;
    }
    req.extractor = info->name;
    OptionValues values(info->options);
    for (const auto& [name, value] : f.options) {
        try {
            values.set(name, value);
        } catch (const Error& e) {
            throw Error(source + ": feature " + f.name + ": " + e.what());
        }
    }
    req.key = info->key(values, f.name);
    return req;
}

void resolve_requests(ModelData& d) {
    for (auto& m : d.members) {
        for (auto& f : m.features) {
            FeatureRequest req = make_request(f, d.label);
            auto same = [&](const FeatureRequest& r) {
                return r.feature_name == req.feature_name && r.key == req.key &&
                       r.options == req.options;
            };
            auto it = std::find_if(d.requests.begin(), d.requests.end(), same);
            if (it == d.requests.end()) {
                f.request = d.requests.size();
                d.requests.push_back(std::move(req));
            } else {
                f.request = static_cast<std::size_t>(it - d.requests.begin());
            }
        }
    }
}

std::unique_ptr<ModelData> build(std::string_view text, const ModelConfig& cfg,
                                 std::string_view source) {
    if (cfg.name.empty()) throw Error(std::string(source) + ": model name must not be empty");
    const Reader r{std::string(source)};
    Json root;
    try {
        root = Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) {  // syntax errors and number overflow
        throw Error(std::string(source) + ": invalid JSON: " + e.what());
    }
    if (!root.is_object()) r.fail("top level", "expected an object");

    auto data = std::make_unique<ModelData>();
    data->name = cfg.name;
    data->label = cfg.label().empty() ? std::string(source) : cfg.label();
    if (root.contains("model_dict")) {
        data->members.push_back(read_model_dict(r, root, cfg, ""));
        data->members[0].name = cfg.name;
    } else if (root.contains("0")) {
        // A collection: "0" is the main model, "1".."N" the bootstrap
        // members named "<name>_0001".."<name>_NNNN".
        data->collection = true;
        for (std::size_t i = 0;; ++i) {
            const std::string key = std::to_string(i);
            const auto it = root.find(key);
            if (it == root.end()) break;
            SingleModel m = read_model_dict(r, *it, cfg, "\"" + key + "\".");
            if (i == 0) {
                m.name = cfg.name;
            } else {
                char suffix[32];
                std::snprintf(suffix, sizeof suffix, "_%04zu", i);
                m.name = cfg.name + suffix;
            }
            data->members.push_back(std::move(m));
        }
        if (data->members.size() < 2)
            r.fail("top level", "a model collection needs members \"1\", \"2\", ...");
        for (std::size_t i = 1; i < data->members.size(); ++i) {
            if (data->members[i].type == ModelType::nusvr)
                r.fail("\"" + std::to_string(i) + "\".model_dict.model_type",
                       "collection members must be BOOTSTRAP_LIBSVMNUSVR or "
                       "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
            if (data->members[i].type != data->members[1].type)
                r.fail("\"" + std::to_string(i) + "\".model_dict.model_type",
                       "collection members must share one model_type");
        }
    } else {
        r.fail("top level", "neither \"model_dict\" nor a model collection");
    }

    std::vector<bool> used(cfg.overrides.size(), false);
    for (auto& m : data->members) apply_overrides(m, cfg, used);
    for (std::size_t o = 0; o < used.size(); ++o)
        if (!used[o])
            throw Error(std::string(source) + ": option " + cfg.overrides[o].extractor + "." +
                        cfg.overrides[o].option + ": the model uses no feature of extractor \"" +
                        cfg.overrides[o].extractor + "\"");
    resolve_requests(*data);
    return data;
}

}  // namespace
}  // namespace detail

Model::Model(std::unique_ptr<detail::ModelData> data) : data_(std::move(data)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::parse(std::string_view json_text, const ModelConfig& config,
                   std::string_view source) {
    return Model(detail::build(json_text, config, source));
}

Model Model::load(const ModelConfig& config) {
    if (!config.version.empty() && !config.path.empty())
        throw Error("model: give either version= or path=, not both");
    if (!config.path.empty()) return parse(detail::read_capped_file(config.path, detail::kModelFile), config, config.path);
    if (config.version.empty()) throw Error("model: version= or path= is required");
    for (const auto& m : detail::embedded_models())
        if (m.version == config.version) return parse(m.text, config, config.version);
    std::string known;
    for (const auto& v : builtin_model_versions()) known += (known.empty() ? "" : ", ") + v;
    throw Error("unknown model version \"" + config.version + "\" (built in: " +
                (known.empty() ? "none" : known) + ")");
}

const std::string& Model::name() const { return data_->name; }
const std::string& Model::label() const { return data_->label; }
bool Model::is_collection() const { return data_->collection; }
const std::vector<FeatureRequest>& Model::features() const { return data_->requests; }

std::vector<std::string> Model::output_names() const {
    std::vector<std::string> out;
    for (const auto& m : data_->members) out.push_back(m.name);
    if (data_->collection)
        for (const char* s : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"})
            out.push_back(data_->name + s);
    return out;
}

std::vector<ScoreOutput> Model::predict(std::span<const double> values) const {
    if (values.size() != data_->requests.size())
        throw Error("model " + data_->label + ": " + std::to_string(values.size()) +
                    " feature values given, " + std::to_string(data_->requests.size()) +
                    " needed");
    std::vector<ScoreOutput> out;
    const detail::SingleModel& main = data_->members[0];
    out.push_back({main.name, main.final_score(main.raw_prediction(values))});
    if (data_->collection) detail::append_bootstrap_scores(*data_, values, out);
    // A model file can hold finite numbers that still overflow (a huge
    // negative gamma makes exp() infinite, and inf - inf is NaN): say so
    // rather than print NaN as a score.
    for (const auto& o : out)
        if (std::isnan(o.value))
            throw Error("model " + data_->label + ": " + o.name +
                        " is not a number for these feature values (the model's numbers overflow)");
    return out;
}

std::vector<ScoreOutput> Model::predict(
    const std::function<double(std::string_view key)>& feature_value) const {
    std::vector<double> values;
    values.reserve(data_->requests.size());
    for (const auto& r : data_->requests) values.push_back(feature_value(r.key));
    return predict(values);
}

std::vector<std::string> builtin_model_versions() {
    std::vector<std::string> out;
    for (const auto& m : detail::embedded_models()) out.emplace_back(m.version);
    return out;
}

}  // namespace vmafpp
