// libvmaf 3.2.0's C API over vmafpp. Pictures pushed by the caller go through
// vmafpp::Scorer (the CLI's extractors and pipeline), so the values are the
// CLI's bits. No C++ exception leaves this file: every entry point catches and
// returns libvmaf's negative errno codes.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "libvmaf_cuda.hpp"
#include "vmafpp/output.hpp"
#include "vmafpp/scorer.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/vmafpp.hpp"

// The libvmaf release whose API and output this library reproduces: what
// vmaf_version() returns and vmaf_write_output() writes as "version", as
// libvmaf 3.2.0 does (its goldens in tests/corpus/golden say "3.2.0").
static constexpr char kLibvmafVersion[] = "3.2.0";

struct VmafFeatureDictionary {
    std::vector<std::pair<std::string, std::string>> entries;
};

namespace {

// A model as loaded, with the overloads applied so far. As in libvmaf, each
// handle is its own model: vmaf_model_collection_load() returns member 0
// (named NAME) as the VmafModel and members 1..N (NAME_0001..) as the
// collection, two states loaded from the same file, so an overload of one
// handle leaves the other alone and scoring one never scores the other.
struct ModelState {
    vmafpp::ModelConfig config;
    vmafpp::Model model;
};

}  // namespace

struct VmafModel {
    std::shared_ptr<ModelState> state;
};
struct VmafModelCollection {
    std::shared_ptr<ModelState> state;
};
struct VmafRef {
    std::atomic<long> count{1};
};

namespace {

struct PicturePool {
    VmafPictureConfiguration cfg{};
    std::atomic<unsigned> outstanding{0};
};

// What VmafPicture::priv points to for pictures this library allocated.
struct PicturePriv {
    void* buffer = nullptr;
    std::shared_ptr<PicturePool> pool;  // set for preallocated pictures
};

}  // namespace

struct VmafContext {
    VmafConfiguration cfg{};
    std::vector<std::string> features;                // extractor specs, in order of use
    std::optional<vmafpp::FrameGeometry> geometry;
    std::unique_ptr<vmafpp::Scorer> scorer;
    std::optional<vmafpp::ScoreRun> run;              // after the flush
    std::vector<std::tuple<std::string, unsigned, double>> imported;  // before the flush
    std::shared_ptr<PicturePool> pool;
    unsigned pic_cnt = 0;
    bool flushed = false;
    vmafpp::capi_cuda::ContextCuda cuda;  // libvmaf_cuda.h's state and pictures
};

// libvmaf_cuda.cpp's access to the context (libvmaf_cuda.hpp).
vmafpp::capi_cuda::ContextCuda& vmafpp::capi_cuda::context_cuda(VmafContext* vmaf) { return vmaf->cuda; }
VmafLogLevel vmafpp::capi_cuda::log_level(const VmafContext* vmaf) { return vmaf->cfg.log_level; }

namespace {

void log_error(VmafContext* vmaf, const char* what) {
    if (!vmaf || vmaf->cfg.log_level >= VMAF_LOG_LEVEL_ERROR)
        std::fprintf(stderr, "libvmaf (vmafpp): %s\n", what);
}

// Runs `body`, turning exceptions into libvmaf's codes.
template <class F>
int guarded(VmafContext* vmaf, F&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        log_error(vmaf, "out of memory");
        return -ENOMEM;
    } catch (const std::exception& e) {
        log_error(vmaf, e.what());
        return -EINVAL;
    } catch (...) {
        return -EINVAL;
    }
}

vmafpp::PixelFormat to_format(VmafPixelFormat f) {
    switch (f) {
        case VMAF_PIX_FMT_YUV420P: return vmafpp::PixelFormat::yuv420;
        case VMAF_PIX_FMT_YUV422P: return vmafpp::PixelFormat::yuv422;
        case VMAF_PIX_FMT_YUV444P: return vmafpp::PixelFormat::yuv444;
        default: return vmafpp::PixelFormat::yuv400;
    }
}

bool valid_format(int f) { return f >= VMAF_PIX_FMT_YUV420P && f <= VMAF_PIX_FMT_YUV400P; }

// libvmaf's plane sizes: chroma floor(w/2) (and floor(h/2) for 4:2:0).
void plane_sizes(VmafPixelFormat fmt, unsigned w, unsigned h, unsigned (&pw)[3], unsigned (&ph)[3]) {
    const unsigned sx = fmt != VMAF_PIX_FMT_YUV444P, sy = fmt == VMAF_PIX_FMT_YUV420P;
    pw[0] = w;
    ph[0] = h;
    pw[1] = pw[2] = fmt == VMAF_PIX_FMT_YUV400P ? 0 : w >> sx;
    ph[1] = ph[2] = fmt == VMAF_PIX_FMT_YUV400P ? 0 : h >> sy;
}

int alloc_picture(VmafPicture* pic, VmafPixelFormat fmt, unsigned bpc, unsigned w, unsigned h,
                  std::shared_ptr<PicturePool> pool) {
    if (!pic || !valid_format(fmt) || bpc < 8 || bpc > 16 || w == 0 || h == 0 ||
        w > (1u << 16) || h > (1u << 16))
        return -EINVAL;
    std::memset(pic, 0, sizeof(*pic));
    pic->pix_fmt = fmt;
    pic->bpc = bpc;
    plane_sizes(fmt, w, h, pic->w, pic->h);
    constexpr std::size_t kAlign = 32;  // libvmaf's DATA_ALIGN
    const std::size_t bps = bpc > 8 ? 2 : 1;
    std::size_t offset[3] = {}, total = 0;
    for (int p = 0; p < 3; ++p) {
        pic->stride[p] = std::ptrdiff_t((pic->w[p] + kAlign - 1) / kAlign * kAlign * bps);
        offset[p] = total;
        total += std::size_t(pic->stride[p]) * pic->h[p];
    }
    void* buffer = std::aligned_alloc(kAlign, (total + kAlign - 1) / kAlign * kAlign);
    if (!buffer) return -ENOMEM;
    std::memset(buffer, 0, total);
    auto* priv = new (std::nothrow) PicturePriv{buffer, std::move(pool)};
    auto* ref = new (std::nothrow) VmafRef;
    if (!priv || !ref) {
        delete priv;
        delete ref;
        std::free(buffer);
        return -ENOMEM;
    }
    for (int p = 0; p < 3; ++p)
        pic->data[p] = pic->h[p] ? static_cast<std::uint8_t*>(buffer) + offset[p] : nullptr;
    pic->priv = priv;
    pic->ref = ref;
    if (priv->pool) ++priv->pool->outstanding;
    return 0;
}

void release_picture(VmafPicture* pic);

// Whether `in` is a picture of vmaf_picture_alloc's (not of a pool, not a
// CUDA one): its planes stay as they are until its last reference goes.
bool plain_picture(const VmafPicture& in) {
    if (!in.ref || !in.priv || vmafpp::capi_cuda::owns_picture(in)) return false;
    return !static_cast<const PicturePriv*>(in.priv)->pool;
}

// A second reference to a plain picture, as vmaf_picture_ref() would take:
// what keeps its planes while the scorer reads them in place. It goes on
// whichever of the scorer's threads scored the frame (release_picture only
// counts down and frees).
std::shared_ptr<const void> picture_reference(const VmafPicture& in) {
    in.ref->count.fetch_add(1);
    auto* held = new VmafPicture(in);
    return std::shared_ptr<const void>(held, [](const void* p) {
        auto* pic = static_cast<VmafPicture*>(const_cast<void*>(p));
        release_picture(pic);
        delete pic;
    });
}

// A vmafpp picture of a caller's picture: the scorer's view_from checks
// every plane's size, stride and data (its message goes to the log) and
// reads a plain picture's planes in place; a pool's picture (which the
// caller's pool needs back at once) and a caller-made one (no reference to
// hold) are copied, a device picture downloaded. -EINVAL when its format or
// bit depth is not the session's.
int take_picture(VmafContext* vmaf, const VmafPicture& in, const vmafpp::Scorer& scorer,
                 const char* which, vmafpp::Picture& out) {
    const vmafpp::FrameGeometry& g = scorer.geometry();
    if (int(in.bpc) != g.bpc || to_format(in.pix_fmt) != g.format) return -EINVAL;
    vmafpp::PlaneView planes[3];
    const std::size_t count = g.format == vmafpp::PixelFormat::yuv400 ? 1 : 3;
    for (std::size_t p = 0; p < count; ++p)
        planes[p] = {in.data[p], int(std::min<unsigned>(in.w[p], INT_MAX)),
                     int(std::min<unsigned>(in.h[p], INT_MAX)), in.stride[p]};
    // A picture of vmaf_cuda_fetch_preallocated_picture()'s DEVICE pool:
    // data[] are device addresses, so the planes are checked without being
    // read and copied by the driver (libvmaf_cuda.cpp).
    if (vmafpp::capi_cuda::is_device_picture(in)) {
        scorer.check_planes({planes, count}, which);
        out = scorer.make_picture();
        return vmafpp::capi_cuda::download(vmaf, in, out, out.has_chroma() ? 3 : 1);
    }
    if (plain_picture(in))
        out = scorer.view_from({planes, count}, which, picture_reference(in));
    else
        out = scorer.picture_from({planes, count}, which);
    return 0;
}

int start_session(VmafContext* vmaf, const VmafPicture& ref) {
    if (!valid_format(ref.pix_fmt) || ref.bpc < 8 || ref.bpc > 16 || ref.w[0] == 0 || ref.h[0] == 0)
        return -EINVAL;
    vmafpp::ScoreConfig cfg;
    cfg.no_prediction = true;  // models are scored here, at the flush or on request
    cfg.features = vmaf->features;
    cfg.threads = vmaf->cfg.n_threads;
    cfg.subsample = vmaf->cfg.n_subsample;
    cfg.compute.cpumask = unsigned(vmaf->cfg.cpumask);
    cfg.compute.gpumask = vmaf->cfg.gpumask ? 1u : 0u;
    const vmafpp::FrameGeometry g{int(ref.w[0]), int(ref.h[0]), int(ref.bpc), to_format(ref.pix_fmt)};
    vmaf->scorer = std::make_unique<vmafpp::Scorer>(cfg, g);
    vmaf->geometry = g;
    return 0;
}

unsigned subsample_of(const VmafContext* vmaf) {
    return vmaf->cfg.n_subsample > 1 ? vmaf->cfg.n_subsample : 1;
}

bool has_value(const VmafContext* vmaf, const std::string& key, unsigned index) {
    return vmaf->run && vmaf->run->values.value(key, index).has_value();
}

// The handle's model at one frame from the collected features, every
// output in Model::output_names() order; -EINVAL when a feature is missing
// there (libvmaf: "no feature ... at index").
int predict_outputs(const VmafContext* vmaf, const ModelState& st, unsigned index,
                    std::vector<vmafpp::ScoreOutput>& out) {
    if (!vmaf->run) return -EINVAL;
    std::vector<double> x;
    for (const auto& req : st.model.features()) {
        const auto v = vmaf->run->values.value(req.key, index);
        if (!v) return -EINVAL;
        x.push_back(*v);
    }
    out = st.model.predict(x);
    return 0;
}

// libvmaf's collector refuses to overwrite a value: -EINVAL.
int append_once(VmafContext* vmaf, const std::string& key, unsigned index, double value) {
    if (has_value(vmaf, key, index)) return -EINVAL;
    vmaf->run->values.append(key, index, value);
    return 0;
}

// libvmaf's vmaf_score_at_index: the collector is keyed by name, so a value
// already there under the model's name is the answer, whichever handle
// wrote it; otherwise the handle's own model predicts (member 0 for the
// VmafModel of a collection load) and its score is appended under its name.
// Models are scored only when asked: nothing is predicted at the flush, so
// vmaf_write_output() writes only the models a caller scored.
int score_model_at(VmafContext* vmaf, const ModelState& st, unsigned index, double* score) {
    if (has_value(vmaf, st.config.name, index)) {
        *score = *vmaf->run->values.value(st.config.name, index);
        return 0;
    }
    std::vector<vmafpp::ScoreOutput> out;
    if (const int err = predict_outputs(vmaf, st, index, out)) return err;
    const vmafpp::ScoreOutput& main = out.front();  // "<name>": the model, or member 0
    if (const int err = append_once(vmaf, main.name, index, main.value)) return err;
    *score = main.value;
    return 0;
}

// libvmaf's vmaf_score_at_index_model_collection: members 1..N predict and
// each is appended under its name, then the bagging score, stddev and CI.
// Nothing is looked up first, so a second call at the same index finds
// NAME_0001 written and returns -EINVAL, as libvmaf's does; of the four
// statistics, libvmaf keeps the error of all but the bagging score's append.
int score_collection_at(VmafContext* vmaf, const ModelState& st, unsigned index,
                        VmafModelCollectionScore* score) {
    std::vector<vmafpp::ScoreOutput> out;
    if (const int err = predict_outputs(vmaf, st, index, out)) return err;
    const std::size_t stats = out.size() - 4;  // members end where the statistics begin
    for (std::size_t i = 1; i < stats; ++i)
        if (const int err = append_once(vmaf, out[i].name, index, out[i].value)) return err;
    VmafModelCollectionScore s{};
    s.type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    s.bootstrap.bagging_score = out[stats].value;
    s.bootstrap.stddev = out[stats + 1].value;
    s.bootstrap.ci.p95.lo = out[stats + 2].value;
    s.bootstrap.ci.p95.hi = out[stats + 3].value;
    *score = s;
    append_once(vmaf, out[stats].name, index, out[stats].value);
    int err = 0;
    for (std::size_t i = stats + 1; i < out.size(); ++i)
        err |= append_once(vmaf, out[i].name, index, out[i].value);
    return err;
}

int flush(VmafContext* vmaf) {
    if (vmaf->scorer) {
        vmaf->run.emplace(vmaf->scorer->finish());
        vmaf->scorer.reset();
    }
    vmaf->flushed = true;
    if (!vmaf->run) return 0;  // nothing was read
    for (const auto& [key, index, value] : vmaf->imported)
        if (!has_value(vmaf, key, index)) vmaf->run->values.append(key, index, value);
    return 0;
}

int feature_value(VmafContext* vmaf, const std::string& key, double* score, unsigned index) {
    if (!has_value(vmaf, key, index)) return -EINVAL;
    *score = *vmaf->run->values.value(key, index);
    return 0;
}

// libvmaf's vmaf_feature_score_pooled: frames index_low..index_high that
// subsampling keeps, min/max starting at index_low.
int pool_feature(VmafContext* vmaf, const std::string& key, VmafPoolingMethod method,
                 double* score, unsigned low, unsigned high) {
    if (low > high || method <= VMAF_POOL_METHOD_UNKNOWN || method >= VMAF_POOL_METHOD_NB)
        return -EINVAL;
    unsigned count = 0;
    double min = 0., max = 0., sum = 0., inverse_sum = 0.;
    for (std::uint64_t j = low; j <= high; ++j) {  // 64-bit: high may be UINT_MAX
        const unsigned i = unsigned(j);
        if (subsample_of(vmaf) > 1 && i % subsample_of(vmaf)) continue;
        ++count;
        double s;
        if (const int err = feature_value(vmaf, key, &s, i)) return err;
        sum += s;
        inverse_sum += 1. / (s + 1.);
        if (i == low || s < min) min = s;
        if (i == low || s > max) max = s;
    }
    switch (method) {
        case VMAF_POOL_METHOD_MIN: *score = min; break;
        case VMAF_POOL_METHOD_MAX: *score = max; break;
        case VMAF_POOL_METHOD_MEAN: *score = sum / count; break;
        default: *score = count / inverse_sum - 1.0; break;
    }
    return 0;
}

int load_model(VmafModel** model, VmafModelCollection** collection, const VmafModelConfig* cfg,
               const char* version, const char* path) {
    if (!model || (!version && !path)) return -EINVAL;
    vmafpp::ModelConfig mc;
    if (version) mc.version = version;
    if (path) mc.path = path;
    if (cfg && cfg->name) mc.name = cfg->name;
    const std::uint64_t flags = cfg ? cfg->flags : 0;
    mc.disable_clip = flags & VMAF_MODEL_FLAG_DISABLE_CLIP;
    mc.enable_transform = flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM;
    // vmafpp applies a model's transform when the model enables it; turning
    // an enabled one off is not implemented, so refuse rather than score wrong.
    if (flags & VMAF_MODEL_FLAG_DISABLE_TRANSFORM)
        throw vmafpp::Error("VMAF_MODEL_FLAG_DISABLE_TRANSFORM is not supported");
    auto st = std::make_shared<ModelState>(ModelState{mc, vmafpp::Model::load(mc)});
    // libvmaf reads a collection only through the collection loaders (its
    // CLI tries vmaf_model_load first and falls back on this -EINVAL).
    if (!collection && st->model.is_collection())
        throw vmafpp::Error("model " + mc.label() + " is a model collection (vmaf_model_collection_load)");
    if (collection && !st->model.is_collection())
        throw vmafpp::Error("model " + mc.label() + " is not a model collection");
    auto members = collection ? std::make_shared<ModelState>(ModelState{mc, vmafpp::Model::load(mc)})
                              : nullptr;
    *model = new VmafModel{st};
    if (collection) *collection = new VmafModelCollection{members};
    return 0;
}

// Applies dict as overloads of `extractor`'s options; a model that takes no
// feature from that extractor is left alone, as libvmaf does.
void overload(ModelState& st, const std::string& extractor, const VmafFeatureDictionary& dict) {
    bool used = false;
    for (const auto& req : st.model.features()) used = used || req.extractor == extractor;
    if (!used) return;
    vmafpp::ModelConfig mc = st.config;
    for (const auto& [k, v] : dict.entries) mc.overrides.push_back({extractor, k, v});
    st.model = vmafpp::Model::load(mc);
    st.config = std::move(mc);
}

// An extractor spec string as --feature takes it: "name=opt=val:opt=val".
std::string feature_spec(const std::string& name,
                         const std::vector<std::pair<std::string, std::string>>& options) {
    std::string spec = name;
    for (std::size_t i = 0; i < options.size(); ++i) {
        const auto& [k, v] = options[i];
        if (k.find_first_of(":=") != std::string::npos || v.find_first_of(":=") != std::string::npos)
            throw vmafpp::Error("feature " + name + ": option " + k + "=" + v +
                                " contains ':' or '='");
        spec += (i ? ":" : "=") + k + "=" + v;
    }
    return spec;
}

int use_model(VmafContext* vmaf, const std::shared_ptr<ModelState>& st) {
    if (vmaf->scorer || vmaf->flushed) return -EINVAL;  // extractors are fixed by then
    std::vector<std::string> specs;
    for (const auto& req : st->model.features()) {
        if (req.extractor.empty())
            throw vmafpp::Error("model " + st->model.label() + ": no feature extractor provides \"" +
                                req.feature_name + "\"");
        specs.push_back(feature_spec(req.extractor, req.options));
    }
    for (auto& s : specs) vmafpp::parse_feature_spec(s);  // validates before any change
    vmaf->features.insert(vmaf->features.end(), specs.begin(), specs.end());
    return 0;
}

void release_picture(VmafPicture* pic) {
    if (vmafpp::capi_cuda::release_picture(pic)) return;  // a device or pinned picture
    auto* priv = static_cast<PicturePriv*>(pic->priv);
    if (pic->ref->count.fetch_sub(1) == 1) {
        if (priv) {
            std::free(priv->buffer);
            if (priv->pool) --priv->pool->outstanding;
            delete priv;
        }
        delete pic->ref;
    }
    std::memset(pic, 0, sizeof(*pic));
}

}  // namespace

extern "C" {

int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val) {
    if (!dict || !key || !val) return -EINVAL;
    return guarded(nullptr, [&] {
        if (!*dict) *dict = new VmafFeatureDictionary;
        for (auto& [k, v] : (*dict)->entries)
            if (k == key) {
                v = val;
                return 0;
            }
        (*dict)->entries.emplace_back(key, val);
        return 0;
    });
}

int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict) {
    if (!dict) return -EINVAL;
    delete *dict;
    *dict = nullptr;
    return 0;
}

int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version) {
    if (!version) return -EINVAL;
    return guarded(nullptr, [&] { return load_model(model, nullptr, cfg, version, nullptr); });
}

int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path) {
    if (!path) return -EINVAL;
    return guarded(nullptr, [&] { return load_model(model, nullptr, cfg, nullptr, path); });
}

int vmaf_model_feature_overload(VmafModel* model, const char* feature_name,
                                VmafFeatureDictionary* opts_dict) {
    if (!model || !feature_name || !opts_dict) return -EINVAL;
    const int err = guarded(nullptr, [&] {
        overload(*model->state, feature_name, *opts_dict);
        return 0;
    });
    vmaf_feature_dictionary_free(&opts_dict);
    return err;
}

void vmaf_model_destroy(VmafModel* model) { delete model; }

int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** model_collection,
                               VmafModelConfig* cfg, const char* version) {
    if (!model_collection || !version) return -EINVAL;
    return guarded(nullptr, [&] { return load_model(model, model_collection, cfg, version, nullptr); });
}

int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** model_collection,
                                         VmafModelConfig* cfg, const char* path) {
    if (!model_collection || !path) return -EINVAL;
    return guarded(nullptr, [&] { return load_model(model, model_collection, cfg, nullptr, path); });
}

int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** model_collection,
                                           const char* feature_name,
                                           VmafFeatureDictionary* opts_dict) {
    if (!model_collection || !*model_collection || !feature_name || !opts_dict) return -EINVAL;
    const int err = guarded(nullptr, [&] {
        overload(*(*model_collection)->state, feature_name, *opts_dict);
        // libvmaf overloads the members, then the model, whose absence is -EINVAL.
        if (!model) return -EINVAL;
        overload(*model->state, feature_name, *opts_dict);
        return 0;
    });
    vmaf_feature_dictionary_free(&opts_dict);
    return err;
}

void vmaf_model_collection_destroy(VmafModelCollection* model_collection) { delete model_collection; }

int vmaf_picture_alloc(VmafPicture* pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w,
                       unsigned h) {
    return guarded(nullptr, [&] { return alloc_picture(pic, pix_fmt, bpc, w, h, nullptr); });
}

int vmaf_picture_unref(VmafPicture* pic) {
    if (!pic || !pic->ref) return -EINVAL;
    release_picture(pic);
    return 0;
}

int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg) {
    if (!vmaf) return -EINVAL;
    return guarded(nullptr, [&] {
        *vmaf = new VmafContext;
        (*vmaf)->cfg = cfg;
        return 0;
    });
}

int vmaf_close(VmafContext* vmaf) {
    if (!vmaf) return -EINVAL;
    // The pipeline's destructor waits for frames in flight and drops their errors.
    delete vmaf;
    return 0;
}

int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model) {
    if (!vmaf || !model) return -EINVAL;
    return guarded(vmaf, [&] { return use_model(vmaf, model->state); });
}

int vmaf_use_features_from_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection) {
    if (!vmaf || !model_collection) return -EINVAL;
    return guarded(vmaf, [&] { return use_model(vmaf, model_collection->state); });
}

int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts_dict) {
    if (!vmaf || !feature_name) return -EINVAL;
    if (vmaf->scorer || vmaf->flushed) return -EINVAL;
    // As libvmaf: an unknown extractor leaves the dictionary to the caller;
    // otherwise it is consumed.
    if (!vmafpp::find_feature(feature_name)) {
        log_error(vmaf, (std::string("unknown feature extractor \"") + feature_name + "\"").c_str());
        return -EINVAL;
    }
    const int err = guarded(vmaf, [&] {
        const std::string spec =
            feature_spec(feature_name, opts_dict ? opts_dict->entries
                                                 : std::vector<std::pair<std::string, std::string>>{});
        vmafpp::parse_feature_spec(spec);
        vmaf->features.push_back(spec);
        return 0;
    });
    vmaf_feature_dictionary_free(&opts_dict);
    return err;
}

int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value,
                              unsigned index) {
    if (!vmaf || !feature_name) return -EINVAL;
    return guarded(vmaf, [&] {
        if (vmaf->run) {
            if (has_value(vmaf, feature_name, index)) return -EINVAL;
            vmaf->run->values.append(feature_name, index, value);
        } else {
            for (const auto& [k, i, v] : vmaf->imported)
                if (k == feature_name && i == index) return -EINVAL;
            vmaf->imported.emplace_back(feature_name, index, value);
        }
        return 0;
    });
}

int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index) {
    if (!vmaf || vmaf->flushed) return -EINVAL;
    if (!ref != !dist) return -EINVAL;
    return guarded(vmaf, [&] {
        if (!ref) return flush(vmaf);
        // Frames are scored in order: temporal features need the previous ones.
        if (index != vmaf->pic_cnt) return -EINVAL;
        if (ref->w[0] != dist->w[0] || ref->h[0] != dist->h[0] || ref->bpc != dist->bpc ||
            ref->pix_fmt != dist->pix_fmt)
            return -EINVAL;
        if (!vmaf->scorer)
            if (const int err = start_session(vmaf, *ref)) return err;
        vmafpp::Picture r, d;
        if (const int err = take_picture(vmaf, *ref, *vmaf->scorer, "reference", r)) return err;
        if (const int err = take_picture(vmaf, *dist, *vmaf->scorer, "distorted", d)) return err;
        vmaf->scorer->push(std::move(r), std::move(d));
        ++vmaf->pic_cnt;
        if (ref->ref) release_picture(ref);
        if (dist->ref) release_picture(dist);
        return 0;
    });
}

int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index) {
    if (!vmaf || !model || !score) return -EINVAL;
    return guarded(vmaf, [&] { return score_model_at(vmaf, *model->state, index, score); });
}

int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                         VmafModelCollectionScore* score, unsigned index) {
    if (!vmaf || !model_collection || !score) return -EINVAL;
    return guarded(vmaf, [&] { return score_collection_at(vmaf, *model_collection->state, index, score); });
}

int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score,
                                unsigned index) {
    if (!vmaf || !feature_name || !score) return -EINVAL;
    return guarded(vmaf, [&] { return feature_value(vmaf, feature_name, score, index); });
}

// As libvmaf: every kept frame is scored first (appending what was not
// there), then the values under the model's name are pooled; a method past
// the last one is refused only by the pooling, after the scoring.
int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, VmafPoolingMethod pool_method,
                      double* score, unsigned index_low, unsigned index_high) {
    if (!vmaf || !model || !score || index_low > index_high || pool_method == VMAF_POOL_METHOD_UNKNOWN)
        return -EINVAL;
    return guarded(vmaf, [&] {
        for (std::uint64_t i = index_low; i <= index_high; ++i) {
            if (i % subsample_of(vmaf)) continue;
            double s;
            if (const int err = score_model_at(vmaf, *model->state, unsigned(i), &s)) return err;
        }
        return pool_feature(vmaf, model->state->config.name, pool_method, score, index_low,
                            index_high);
    });
}

int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* model_collection,
                                       VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore* score, unsigned index_low,
                                       unsigned index_high) {
    if (!vmaf || !model_collection || !score || index_low > index_high ||
        pool_method == VMAF_POOL_METHOD_UNKNOWN)
        return -EINVAL;
    return guarded(vmaf, [&] {
        const ModelState& st = *model_collection->state;
        for (std::uint64_t i = index_low; i <= index_high; ++i) {
            if (i % subsample_of(vmaf)) continue;
            VmafModelCollectionScore s;
            if (const int err = score_collection_at(vmaf, st, unsigned(i), &s)) return err;
        }
        // libvmaf pools all four whatever fails, each written where it succeeds.
        const std::string& n = st.config.name;
        score->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
        int err = pool_feature(vmaf, n + "_bagging", pool_method, &score->bootstrap.bagging_score,
                               index_low, index_high);
        err |= pool_feature(vmaf, n + "_stddev", pool_method, &score->bootstrap.stddev, index_low,
                            index_high);
        err |= pool_feature(vmaf, n + "_ci_p95_lo", pool_method, &score->bootstrap.ci.p95.lo,
                            index_low, index_high);
        err |= pool_feature(vmaf, n + "_ci_p95_hi", pool_method, &score->bootstrap.ci.p95.hi,
                            index_low, index_high);
        return err;
    });
}

int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name,
                              VmafPoolingMethod pool_method, double* score, unsigned index_low,
                              unsigned index_high) {
    if (!vmaf || !feature_name || !score) return -EINVAL;
    return guarded(vmaf, [&] {
        return pool_feature(vmaf, feature_name, pool_method, score, index_low, index_high);
    });
}

int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg) {
    if (!vmaf || vmaf->pool || cfg.pic_cnt == 0 || !valid_format(cfg.pic_params.pix_fmt) ||
        cfg.pic_params.bpc < 8 || cfg.pic_params.bpc > 16 || cfg.pic_params.w == 0 ||
        cfg.pic_params.h == 0)
        return -EINVAL;
    return guarded(vmaf, [&] {
        vmaf->pool = std::make_shared<PicturePool>();
        vmaf->pool->cfg = cfg;
        return 0;
    });
}

// libvmaf waits for a picture to come back to its pool. Here pictures come
// back as soon as vmaf_read_pictures() has copied them, so a pool that is
// empty can only refill through the caller: -EAGAIN instead of waiting forever.
int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
    if (!vmaf || !pic || !vmaf->pool) return -EINVAL;
    return guarded(vmaf, [&] {
        const VmafPictureConfiguration& c = vmaf->pool->cfg;
        if (vmaf->pool->outstanding >= c.pic_cnt) return -EAGAIN;
        return alloc_picture(pic, c.pic_params.pix_fmt, c.pic_params.bpc, c.pic_params.w,
                             c.pic_params.h, vmaf->pool);
    });
}

int vmaf_write_output(VmafContext* vmaf, const char* output_path, VmafOutputFormat fmt) {
    if (!vmaf || !output_path) return -EINVAL;
    return guarded(vmaf, [&] {
        vmafpp::OutputFormat f;
        switch (fmt) {
            case VMAF_OUTPUT_FORMAT_XML: f = vmafpp::OutputFormat::xml; break;
            case VMAF_OUTPUT_FORMAT_JSON: f = vmafpp::OutputFormat::json; break;
            case VMAF_OUTPUT_FORMAT_CSV: f = vmafpp::OutputFormat::csv; break;
            case VMAF_OUTPUT_FORMAT_SUB: f = vmafpp::OutputFormat::sub; break;
            default: return -EINVAL;
        }
        if (!vmaf->run) {
            log_error(vmaf, "vmaf_write_output: no scores yet (flush with vmaf_read_pictures(vmaf, NULL, NULL, 0))");
            return -EINVAL;
        }
        std::ofstream out(output_path, std::ios::binary);
        if (!out) {
            log_error(vmaf, (std::string("could not open file: ") + output_path).c_str());
            return -EINVAL;
        }
        // libvmaf's files say the library's version: what its callers parse.
        vmafpp::Results results = vmaf->run->results();
        results.version = kLibvmafVersion;
        vmafpp::write_results(out, results, f, vmafpp::Precision::legacy());
        out.close();
        return out ? 0 : -EIO;
    });
}

// Exactly libvmaf's version string: callers compare or parse it (FFmpeg
// prints it, scripts split it at the dots). vmafpp's own version is
// vmafpp::version() and the vmafpp CLI's --version.
const char* vmaf_version(void) { return kLibvmafVersion; }

}  // extern "C"
