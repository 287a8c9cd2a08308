#include <chrono>
#include <map>
#include <string>

#include "engine/pipeline.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {

std::string version() { return VMAFPP_VERSION_STRING; }

ExtractorSpec parse_feature_spec(std::string_view spec) {
    const std::size_t eq = spec.find('=');
    const std::string name(spec.substr(0, eq));
    if (name.empty()) throw Error("--feature: empty feature name in \"" + std::string(spec) + "\"");
    const FeatureInfo* info = find_feature(name);
    if (!info) {
        std::string known;
        for (const auto& f : feature_registry()) known += (known.empty() ? "" : ", ") + f.name;
        throw Error("unknown feature \"" + name + "\" (available: " + known + ")");
    }
    ExtractorSpec out{info, OptionValues(info->options)};
    if (eq == std::string_view::npos) return out;
    std::string_view rest = spec.substr(eq + 1);
    while (!rest.empty()) {
        const std::size_t colon = rest.find(':');
        const std::string_view item = rest.substr(0, colon);
        const std::size_t e = item.find('=');
        if (e == std::string_view::npos || e == 0)
            throw Error("feature " + name + ": bad option string \"" + std::string(item) +
                        "\" (expected option=value)");
        const std::string opt(item.substr(0, e));
        if (!out.options.has(opt)) {
            std::string known;
            for (const auto& s : info->options) known += (known.empty() ? "" : ", ") + s.name;
            throw Error("feature " + name + ": unknown option \"" + opt + "\" (options: " +
                        (known.empty() ? "none" : known) + ")");
        }
        out.options.set(opt, item.substr(e + 1));
        if (colon == std::string_view::npos) break;
        rest = rest.substr(colon + 1);
    }
    return out;
}

namespace {

// Same extractor and same feature parameters: the two write the same keys
// (options that are not parameters only add debug keys or skip a part), so
// two instances would write every shared key twice.
bool same_values(const ExtractorSpec& a, const ExtractorSpec& b) {
    if (a.info != b.info) return false;
    for (const auto& s : a.info->options)
        if (s.feature_param && !a.options.same_value(b.options, s.name)) return false;
    return true;
}

// Widens `into` to write every key `other` asks for too (libvmaf instead runs
// both and drops the second one's keys, e.g. the model's adm plus
// --feature adm=debug=true loses the debug outputs).
void merge_outputs(ExtractorSpec& into, const ExtractorSpec& other) {
    for (const auto& s : into.info->options) {
        if (s.feature_param) continue;
        if (into.options.same_value(other.options, s.name)) continue;
        if (s.type != OptionType::boolean)
            throw Error("feature " + into.info->name + " is requested twice with different " +
                        s.name + " values");
        into.options.set(s.name, s.true_is_more_complete ? "true" : "false");
    }
}

void add_unique(std::vector<ExtractorSpec>& specs, ExtractorSpec spec) {
    for (auto& s : specs)
        if (same_values(s, spec)) {
            merge_outputs(s, spec);
            return;
        }
    specs.push_back(std::move(spec));
}

ExtractorSpec spec_for_model_feature(const Model& model, const FeatureRequest& req) {
    const FeatureInfo* info = req.extractor.empty() ? nullptr : find_feature(req.extractor);
    if (!info)
        throw Error("model " + model.label() + ": no feature extractor provides \"" +
                    req.feature_name + "\"");
    ExtractorSpec spec{info, OptionValues(info->options)};
    for (const auto& [k, v] : req.options) spec.options.set(k, v);
    return spec;
}

// Every model output and every feature key is one column of the results:
// two models writing "vmaf", or a model named like a feature key, would
// write one key twice. libvmaf refuses such runs too; say so before any frame
// is read.
void check_unique_outputs(const std::vector<Model>& models, const std::vector<ExtractorSpec>& specs) {
    std::map<std::string, std::string> writer;  // key -> who writes it
    for (const auto& s : specs) {
        const std::string suffix = s.options.key_suffix();
        for (const auto& p : s.info->provided)
            writer.emplace(p.output_name() + suffix, "feature " + s.info->name);
    }
    for (const auto& m : models)
        for (const auto& out : m.output_names()) {
            const auto [it, fresh] = writer.emplace(out, "model " + m.label());
            if (!fresh)
                throw Error("model " + m.label() + " writes \"" + out + "\", which " + it->second +
                            " writes too: give each model a unique name (-m ...:name=NAME)");
        }
}

void check_compatible(const VideoInfo& r, const VideoInfo& d) {
    auto fmt = [](PixelFormat f) {
        switch (f) {
            case PixelFormat::yuv400: return "4:0:0";
            case PixelFormat::yuv420: return "4:2:0";
            case PixelFormat::yuv422: return "4:2:2";
            default: return "4:4:4";
        }
    };
    auto describe = [&](const VideoInfo& v) {
        return std::to_string(v.width) + "x" + std::to_string(v.height) + " " + fmt(v.format) +
               " " + std::to_string(v.bpc) + "-bit";
    };
    if (r.width != d.width || r.height != d.height || r.format != d.format || r.bpc != d.bpc)
        throw Error("reference and distorted differ: reference is " + describe(r) +
                    ", distorted is " + describe(d));
}

}  // namespace

Results ScoreRun::results() const {
    Results r;
    r.version = version();
    r.width = width;
    r.height = height;
    r.fps = seconds > 0 ? frames / seconds : 0.0;
    r.subsample = subsample;
    r.frame_count = frames;
    for (const auto& key : values.keys()) {
        Results::Metric m{key, {}};
        m.values.resize(frames);
        for (unsigned f = 0; f < frames; ++f)
            if (scored(f)) m.values[f] = values.value(key, f);
        r.metrics.push_back(std::move(m));
    }
    return r;
}

std::optional<Pooled> ScoreRun::pooled(std::string_view key) const {
    std::vector<std::optional<double>> v(frames);
    for (unsigned f = 0; f < frames; ++f) v[f] = values.value(key, f);
    return pool(v, frames, subsample);
}

ScoreRun score(VideoReader& ref, VideoReader& dis, const ScoreConfig& config) {
    const auto t0 = std::chrono::steady_clock::now();
    check_compatible(ref.info(), dis.info());
    const Compute compute = resolve_compute(config.compute);

    ScoreRun run;
    run.compute = compute;
    run.subsample = config.subsample == 0 ? 1 : config.subsample;

    std::vector<ExtractorSpec> specs;
    if (!config.no_prediction) {
        std::vector<ModelConfig> models = config.models;
        if (models.empty()) {
            ModelConfig def;
            def.version = "vmaf_v0.6.1";
            models.push_back(def);
        }
        for (const auto& mc : models) run.models.push_back(Model::load(mc));
        for (const auto& m : run.models)
            for (const auto& req : m.features()) add_unique(specs, spec_for_model_feature(m, req));
    }
    for (const auto& f : config.features) add_unique(specs, parse_feature_spec(f));
    if (specs.empty()) throw Error("nothing to compute: no model and no --feature");
    check_unique_outputs(run.models, specs);

    bool chroma = false;
    for (const auto& s : specs)
        chroma = chroma || (s.info->reads_chroma && s.info->reads_chroma(s.options));
    ref.set_luma_only(!chroma);
    dis.set_luma_only(!chroma);

    const VideoInfo& info = ref.info();
    run.width = unsigned(info.width);
    run.height = unsigned(info.height);
    const FrameGeometry geometry{info.width, info.height, info.bpc, info.format};
    PipelineOptions popts;
    popts.threads = config.threads;
    popts.subsample = run.subsample;
    popts.compute = compute;
    FramePipeline pipeline(std::move(specs), geometry, popts, run.values);

    if (ref.skip(config.frame_skip_ref) != config.frame_skip_ref)
        throw Error("--frame_skip_ref " + std::to_string(config.frame_skip_ref) +
                    " skips past the end of the reference");
    if (dis.skip(config.frame_skip_dist) != config.frame_skip_dist)
        throw Error("--frame_skip_dist " + std::to_string(config.frame_skip_dist) +
                    " skips past the end of the distorted video");

    for (unsigned i = 0; config.frame_cnt == 0 || i < config.frame_cnt; ++i) {
        auto slot = pipeline.acquire();
        const bool got_ref = ref.read(slot->ref);
        const bool got_dis = dis.read(slot->dis);
        if (!got_ref && !got_dis) break;
        if (got_ref != got_dis) {
            const std::string shorter = got_ref ? "the distorted video" : "the reference";
            const std::string longer = got_ref ? "reference" : "distorted video";
            // Unequal skips make unequal lengths expected: score the common
            // part, as libvmaf does. Otherwise the inputs do not belong together.
            if (config.frame_skip_ref == config.frame_skip_dist)
                throw Error(shorter + " ended after " + std::to_string(i) + " frames, before the " +
                            longer + " (use --frame_cnt to score a common prefix)");
            if (config.on_warning)
                config.on_warning(shorter + " ended after " + std::to_string(i) +
                                  " frames; scored the frames both inputs have");
            break;
        }
        pipeline.submit(std::move(slot));
        ++run.frames;
        if (config.on_frame) config.on_frame(run.frames);
    }
    if (run.frames == 0) throw Error("no frames to score: the inputs are empty");
    pipeline.finish();

    for (const auto& m : run.models) {
        std::vector<double> x(m.features().size());
        for (unsigned f = 0; f < run.frames; ++f) {
            if (!run.scored(f)) continue;
            for (std::size_t k = 0; k < x.size(); ++k) {
                const auto v = run.values.value(m.features()[k].key, f);
                if (!v)
                    throw Error("internal error: feature " + m.features()[k].key +
                                " missing at frame " + std::to_string(f));
                x[k] = *v;
            }
            for (const auto& out : m.predict(x)) run.values.append(out.name, f, out.value);
        }
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return run;
}

}  // namespace vmafpp
