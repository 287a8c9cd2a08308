// The feature extractor plug-in interface and its registry. A feature
// folder includes only this header (and its own): it defines
// `FeatureInfo <name>_info()`, and one line in src/engine/feature_list.hpp
// registers it. A caller's extractor joins by register_feature().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/aggregate.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/export.hpp"
#include "vmafpp/options.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {

// Where extractors write per-frame values. Thread-safe: non-temporal extractors
// of different frames write concurrently.
class VMAFPP_API FeatureSink {
public:
    virtual ~FeatureSink() = default;
    virtual void append(std::string_view key, unsigned frame, double value) = 0;
    // Frame `frame`'s sums of aggregate `key`. Sinks that do not collect
    // aggregates throw: a dropped value would be a silent loss.
    virtual void add_aggregate_sums(std::string_view key, unsigned frame, const AggregateSums& sums);
};

class VMAFPP_API FeatureExtractor {
public:
    virtual ~FeatureExtractor() = default;

    // Scores one frame pair. A non-temporal extractor may be called for frames
    // in any order, from several instances at once (one per worker); a temporal
    // one is called once per frame, in increasing frame order, from one
    // instance.
    virtual void extract(const Picture& ref, const Picture& dis, unsigned frame,
                         FeatureSink& sink) = 0;

    // End of stream: temporal extractors write what they held back.
    virtual void flush(FeatureSink& /*sink*/) {}

    // Right after a non-temporal instance is made, it meets every instance
    // made before it for the same worker, in their order; on every frame
    // that worker runs those first, on the same pictures and thread. An
    // extractor whose work overlaps an earlier one's (VIF at another gain
    // limit: the same statistics) may have the earlier one compute its
    // values too, but must still compute them itself for any frame nothing
    // was handed over.
    virtual void meet(FeatureExtractor& /*earlier*/) {}
};

// A value an extractor writes: libvmaf's provided feature name (what models
// ask for) and the alias libvmaf writes it under.
struct ProvidedFeature {
    std::string name;   // e.g. "VMAF_integer_feature_adm2_score"
    std::string alias;  // e.g. "integer_adm2"; empty: written under `name`
    const std::string& output_name() const { return alias.empty() ? name : alias; }
    bool answers_to(std::string_view n) const { return n == name || (!alias.empty() && n == alias); }
};

// What an extractor instance is built from.
struct ExtractorSetup {
    const OptionValues& options;
    FrameGeometry geometry;
    // Where it runs: the session's backend, device and SIMD level. A CPU
    // extractor takes its kernel tables from compute.simd
    // (<feature>_kernels_for); nothing process-wide decides it.
    Compute compute;
    // The key of every provided feature, in FeatureInfo::provided order: its
    // output name followed by the options' key suffix.
    std::vector<std::string> keys;
};

// The frames around frame n whose pictures an extractor must have seen (from
// its first extract() call on) for frame n's values to be those of a run over
// the whole input: what a --frame_range run reads beyond its range.
struct FrameContext {
    unsigned before = 0;
    unsigned after = 0;
    // Some value depends on every frame of the run in a way frame ranges
    // cannot carry (an aggregate that is not AggregateSums): the run cannot
    // be split into frame ranges.
    bool whole_run = false;
};

struct VMAFPP_API FeatureInfo {
    std::string name;  // libvmaf's extractor name: "adm", "vif", "motion", ...
    std::vector<OptionSpec> options;
    // Every value the extractor can write, in libvmaf's write order; models
    // find the extractor by these names (or aliases).
    std::vector<ProvidedFeature> provided;
    bool temporal = false;
    // libvmaf's VMAF_FEATURE_EXTRACTOR_TEMPORAL flag, which decides where its
    // keys go in the output: with worker threads libvmaf runs such an
    // extractor on the reading thread before it queues the frame, so its keys
    // come before those of every other extractor (psnr, float_motion). Not
    // the same as `temporal` (vmafpp's integer motion is temporal, libvmaf's
    // is not, and is written after adm).
    bool runs_first = false;
    // The kinds of device twin an instance uses (MotionTwin::kind, ...,
    // src/<feature>/<feature>_twin.hpp); on a device backend that registered
    // all of them the extractor computes on the device, elsewhere on the
    // CPU. Empty: CPU only.
    std::vector<std::string> device_twins;
    // Whether an instance with these options reads planes[1] and [2]; empty
    // means luma only. When no active extractor reads chroma, the readers skip
    // it and pictures have no chroma storage (see Picture): a wrong "luma
    // only" would crash or score empty planes. FeatureRegistry.
    // ChromaDeclarations (tests/unit) checks every entry.
    std::function<bool(const OptionValues&)> reads_chroma;
    // Whether an instance with these options reads the reference picture;
    // empty means it does. When no active extractor reads it (a no-reference
    // run: cambi without full_ref), score() has the reference reader check
    // each frame's framing without reading its samples, and the extractors
    // get a reference picture without planes (VideoReader::set_samples_unread).
    std::function<bool(const OptionValues&)> reads_reference;
    // The context an instance with these options needs (temporal extractors;
    // empty means none). ChunkMerge tests (tests/unit/chunk_merge_test.cpp)
    // check it: a range run must equal the whole run on its frames.
    std::function<FrameContext(const OptionValues&)> context;
    // The aggregate `key` of totals this extractor added to a sink (see
    // AggregateSums); empty for extractors without aggregates.
    std::function<double(std::string_view key, const AggregateSums& totals)> aggregate_from_sums;
    // Builds an instance. Throws vmafpp::Error when the geometry is
    // unsupported (e.g. too small), with a message that states the limit.
    std::function<std::unique_ptr<FeatureExtractor>(const ExtractorSetup&)> make;

    // make() with the setup filled in: the keys from `provided` and the
    // options, and `compute` (by default the CPU at the best level allowed).
    std::unique_ptr<FeatureExtractor> create(const OptionValues& options,
                                             const FrameGeometry& geometry,
                                             const Compute& compute = Compute::best_cpu()) const;
    // The provided feature called `name` (or aliased so); nullptr if none.
    const ProvidedFeature* find_provided(std::string_view name) const;
    // The key an instance with `options` writes provided feature `name` under
    // (its output name and the key suffix). Throws vmafpp::Error if the
    // extractor does not provide it.
    std::string key(const OptionValues& options, std::string_view name) const;
};

// One extractor to run and its option values.
struct ExtractorSpec {
    const FeatureInfo* info = nullptr;
    OptionValues options;
};

// Every extractor: the built-ins in a fixed order, then the registered ones
// in the order they were registered (a copy: registration may go on).
VMAFPP_API std::vector<FeatureInfo> feature_registry();
// Adds an extractor of the caller's: from then on find_feature(), --feature
// strings (parse_feature_spec, ScoreConfig::features) and models' feature
// names find it as they find a built-in. Throws vmafpp::Error when its name
// is empty or taken, it has no make() or no provided feature, or a provided
// name or alias is another extractor's. An extractor stays registered for
// the life of the process.
VMAFPP_API const FeatureInfo& register_feature(FeatureInfo info);
// "name=opt=val:opt=val" -> the extractor and its options. Throws
// vmafpp::Error for an unknown feature or option, or a bad value.
VMAFPP_API ExtractorSpec parse_feature_spec(std::string_view spec);
// nullptr when unknown.
VMAFPP_API const FeatureInfo* find_feature(std::string_view name);
// The extractor that provides a feature (by unaliased or aliased name).
VMAFPP_API const FeatureInfo* find_feature_providing(std::string_view feature_name);
// libvmaf's output name of a provided feature ("VMAF_integer_feature_adm2_score"
// -> "integer_adm2"); names no extractor provides are returned unchanged.
VMAFPP_API std::string feature_output_name(std::string_view feature_name);

}  // namespace vmafpp
