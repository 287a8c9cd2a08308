#include <algorithm>
#include <chrono>
#include <map>
#include <string>

#include "base/format_name.hpp"
#include "device/backend.hpp"
#include "engine/pipeline.hpp"
#include "engine/session_plan.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/vmafpp.hpp"
#include "vmafpp/feature.hpp"

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
    // "adm=" names no option: refused like "adm=:", not read as plain "adm".
    if (rest.empty())
        throw Error("feature " + name + ": no option after \"=\" (expected " + name +
                    "=option=value)");
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
    auto describe = [&](const VideoInfo& v) {
        return std::to_string(v.width) + "x" + std::to_string(v.height) + " " + chroma_format_name(v.format) +
               " " + std::to_string(v.bpc) + "-bit";
    };
    if (r.width != d.width || r.height != d.height || r.format != d.format || r.bpc != d.bpc)
        throw Error("reference and distorted differ: reference is " + describe(r) +
                    ", distorted is " + describe(d));
}

// A --feature whose extractor cannot score this input (float_ms_ssim below
// 176x176, psnr_hvs above 12 bits, ...) is left out with a warning, as
// libvmaf's CLI leaves it out (with worker threads it drops the extractor and
// writes every other key), so that a preset or a list of features gives
// libvmaf's output. A model's features cannot be left out: the first
// `model_specs` entries fail the run. Nothing left to compute is an error.
// With --device_only an extractor without a device twin is no input it
// cannot score but a refused request: the run fails, whichever list it is in.
void leave_out_unscorable(std::vector<ExtractorSpec>& specs, std::size_t model_specs,
                          const FrameGeometry& geometry, const Compute& compute,
                          const std::function<void(const std::string&)>& on_warning) {
    if (compute.device_only)
        for (const ExtractorSpec& s : specs) device::place_on_cpu_or_refuse(compute, *s.info);
    std::vector<ExtractorSpec> kept;
    std::string last_reason;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (i >= model_specs) {
            try {
                specs[i].info->create(specs[i].options, geometry, compute);
            } catch (const Error& e) {
                last_reason = e.what();
                if (on_warning) on_warning(last_reason + "; " + specs[i].info->name + " left out");
                continue;
            }
        }
        kept.push_back(std::move(specs[i]));
    }
    if (kept.empty()) throw Error(last_reason);
    specs = std::move(kept);
}

// The frames a range run reads: `lead` context frames before the range,
// `count` in it, up to `after` after it.
struct ReadWindow {
    unsigned start = 0;  // input frame of the first frame read
    unsigned lead = 0;
    unsigned count = 0xffffffffu;
    unsigned after = 0;
};

std::string range_text(const FrameRange& r) {
    return std::to_string(r.begin) + ":" + std::to_string(r.end);
}

// The widest context the extractors need; refuses extractors whose values
// depend on the whole run.
ReadWindow read_window(const ScoreConfig& config, const std::vector<ExtractorSpec>& specs) {
    ReadWindow w;
    if (!config.frame_range) return w;
    const FrameRange& r = *config.frame_range;
    if (r.begin >= r.end)
        throw Error("--frame_range " + range_text(r) + " is empty: A:B scores frames A..B-1, A < B");
    if (config.frame_cnt)
        throw Error("--frame_range and --frame_cnt cannot be combined (the range says which frames)");
    FrameContext need;
    for (const auto& s : specs) {
        if (!s.info->context) continue;
        const FrameContext c = s.info->context(s.options);
        if (c.whole_run)
            throw Error("feature " + s.info->name +
                        " with these options has a value of the whole run (e.g. psnr's "
                        "enable_apsnr): it cannot be scored in frame ranges");
        need.before = std::max(need.before, c.before);
        need.after = std::max(need.after, c.after);
    }
    w.lead = std::min(r.begin, need.before);
    w.start = r.begin - w.lead;
    w.count = r.end - r.begin;
    w.after = need.after;
    return w;
}

}  // namespace

namespace detail {

RunPlan plan_run(const ScoreConfig& config, const FrameGeometry& geometry, const Compute& compute) {
    RunPlan plan;
    std::vector<ExtractorSpec>& specs = plan.specs;
    if (!config.no_prediction) {
        std::vector<ModelConfig> models = config.models;
        if (models.empty()) {
            ModelConfig def;
            def.version = "vmaf_v0.6.1";
            models.push_back(def);
        }
        for (const auto& mc : models) plan.models.push_back(Model::load(mc));
        for (const auto& m : plan.models)
            for (const auto& req : m.features()) add_unique(specs, spec_for_model_feature(m, req));
    }
    const std::size_t model_specs = specs.size();
    for (const auto& f : config.features) add_unique(specs, parse_feature_spec(f));
    if (specs.empty()) throw Error("nothing to compute: no model and no --feature");
    check_unique_outputs(plan.models, specs);
    leave_out_unscorable(specs, model_specs, geometry, compute, config.on_warning);
    for (const auto& s : specs) {
        plan.chroma = plan.chroma || (s.info->reads_chroma && s.info->reads_chroma(s.options));
        plan.reference =
            plan.reference || !s.info->reads_reference || s.info->reads_reference(s.options);
    }
    return plan;
}

void predict_models(ScoreRun& run) {
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
}

}  // namespace detail

Results ScoreRun::results() const {
    Results r;
    r.version = version();
    r.width = width;
    r.height = height;
    r.fps = seconds > 0 ? frames / seconds : 0.0;
    r.subsample = subsample;
    r.frame_count = frames;
    r.first_frame = first_frame;
    for (const auto& key : values.keys()) {
        Results::Metric m{key, {}};
        m.values.resize(frames);
        for (unsigned f = 0; f < frames; ++f)
            if (scored(f)) m.values[f] = values.value(key, f);
        r.metrics.push_back(std::move(m));
    }
    r.aggregate = values.aggregates();
    return r;
}

std::optional<Pooled> ScoreRun::pooled(std::string_view key) const {
    std::vector<std::optional<double>> v(frames);
    for (unsigned f = 0; f < frames; ++f) v[f] = values.value(key, f);
    return pool(v, frames, subsample, first_frame);
}

namespace {

// The rest of score() for a frame range: skips to the window, reads it, and
// keeps the range's values. Either input ending is the end of the pair.
ScoreRun score_range(VideoReader& ref, VideoReader& dis, const ScoreConfig& config,
                     const ReadWindow& window, FramePipeline& pipeline, ScoreRun& run,
                     std::chrono::steady_clock::time_point t0) {
    const FrameRange& r = *config.frame_range;
    const unsigned skipped = std::min(ref.skip(window.start), dis.skip(window.start));
    unsigned read = 0;
    const unsigned wanted = window.lead + window.count + window.after;
    bool ended = skipped < window.start;
    while (!ended && read < wanted) {
        auto slot = pipeline.acquire();
        if (!ref.read(slot->ref) || !dis.read(slot->dis)) {
            ended = true;
            break;
        }
        pipeline.submit(std::move(slot));
        ++read;
        if (config.on_frame) config.on_frame(read);
    }
    if (read < window.lead + window.count) {
        const unsigned frames = skipped < window.start ? skipped : window.start + read;
        throw Error("--frame_range " + range_text(r) + " reaches past the end of the pair, which has " +
                    std::to_string(frames) + " frames");
    }
    // Is there a frame after the range? Known when the window reached past
    // it; else one more frame header tells.
    if (!ended && read == window.lead + window.count)
        ended = ref.skip(1) == 0 || dis.skip(1) == 0;
    run.ends_input = ended && read == window.lead + window.count;
    pipeline.finish();
    run.frames = window.count;
    run.first_frame = r.begin;
    detail::predict_models(run);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::move(run);
}

}  // namespace

ScoreRun score(VideoReader& ref, VideoReader& dis, const ScoreConfig& config) {
    const auto t0 = std::chrono::steady_clock::now();
    check_compatible(ref.info(), dis.info());
    const Compute compute = resolve_compute(config.compute);

    ScoreRun run;
    run.compute = compute;
    run.subsample = config.subsample == 0 ? 1 : config.subsample;

    const VideoInfo& info = ref.info();
    const FrameGeometry geometry{info.width, info.height, info.bpc, info.format};
    detail::RunPlan plan = detail::plan_run(config, geometry, compute);
    run.models = std::move(plan.models);
    ref.set_luma_only(!plan.chroma);
    dis.set_luma_only(!plan.chroma);
    // A no-reference run on the CPU reads no reference samples (a device
    // backend's frame store uploads both pictures, so it keeps them).
    ref.set_samples_unread(!plan.reference && compute.backend == Backend::cpu);

    run.width = unsigned(info.width);
    run.height = unsigned(info.height);
    const ReadWindow window = read_window(config, plan.specs);
    PipelineOptions popts;
    popts.threads = config.threads;
    popts.subsample = run.subsample;
    popts.compute = compute;
    if (config.frame_range) {
        popts.first_frame = window.start;
        popts.keep_begin = window.lead;
        popts.keep_end = window.lead + window.count;
        run.values.keep_frames(window.lead, window.count);
    }
    FramePipeline pipeline(std::move(plan.specs), geometry, popts, run.values);

    if (ref.skip(config.frame_skip_ref) != config.frame_skip_ref)
        throw Error("--frame_skip_ref " + std::to_string(config.frame_skip_ref) +
                    " skips past the end of the reference");
    if (dis.skip(config.frame_skip_dist) != config.frame_skip_dist)
        throw Error("--frame_skip_dist " + std::to_string(config.frame_skip_dist) +
                    " skips past the end of the distorted video");
    if (config.frame_range) return score_range(ref, dis, config, window, pipeline, run, t0);

    int no_frames_in = 0;  // 1: the reference, 2: the distorted video had no frame left
    for (unsigned i = 0; config.frame_cnt == 0 || i < config.frame_cnt; ++i) {
        auto slot = pipeline.acquire();
        const bool got_ref = ref.read(slot->ref);
        const bool got_dis = dis.read(slot->dis);
        if (!got_ref && !got_dis) break;
        if (got_ref != got_dis) {
            // As libvmaf's CLI: the common frames are scored and the shorter
            // input is named in a warning.
            const std::string shorter = got_ref ? "the distorted video" : "the reference";
            const std::string longer = got_ref ? "the reference" : "the distorted video";
            if (config.on_warning && i > 0)
                config.on_warning(shorter + " ended after " + std::to_string(i) +
                                  " frames, before " + longer + "; scored the " +
                                  std::to_string(i) + " frames both have");
            if (i == 0) no_frames_in = got_ref ? 2 : 1;
            break;
        }
        pipeline.submit(std::move(slot));
        ++run.frames;
        if (config.on_frame) config.on_frame(run.frames);
    }
    if (run.frames == 0) {
        const bool in_dis = no_frames_in == 2;
        const unsigned skipped = in_dis ? config.frame_skip_dist : config.frame_skip_ref;
        std::string why = no_frames_in == 0 ? "the inputs have no frames"
                          : in_dis          ? "the distorted video has no frames"
                                            : "the reference has no frames";
        if (no_frames_in != 0 && skipped > 0)
            why += " after --frame_skip_" + std::string(in_dis ? "dist " : "ref ") +
                   std::to_string(skipped);
        throw Error("no frames to score: " + why);
    }
    pipeline.finish();

    detail::predict_models(run);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return run;
}

}  // namespace vmafpp
