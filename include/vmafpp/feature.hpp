// The feature extractor plug-in interface and its registry.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/options.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {

// Where extractors write per-frame values. Thread-safe: non-temporal extractors
// of different frames write concurrently.
class FeatureSink {
public:
    virtual ~FeatureSink() = default;
    virtual void append(std::string_view key, unsigned frame, double value) = 0;
};

struct FrameGeometry {
    int width = 0;
    int height = 0;
    int bpc = 8;
    PixelFormat format = PixelFormat::yuv420;
};

class FeatureExtractor {
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
};

struct FeatureInfo {
    std::string name;  // libvmaf's extractor name: "adm", "vif", "motion", ...
    std::vector<OptionSpec> options;
    // libvmaf's provided feature names (unaliased), used to find the
    // extractor a model needs, e.g. "VMAF_integer_feature_adm2_score".
    std::vector<std::string> provided_features;
    bool temporal = false;
    // Whether an instance with these options reads planes[1] and [2]; empty
    // means luma only. When no active extractor reads chroma, the readers skip
    // it and pictures have no chroma storage (see Picture): a wrong "luma
    // only" would crash or score empty planes. FeatureRegistry.
    // ChromaDeclarations (tests/unit) checks every entry.
    std::function<bool(const OptionValues&)> reads_chroma;
    // Builds an instance for pictures of one geometry. Throws vmafpp::Error
    // when the geometry is unsupported (e.g. too small), with a message that
    // states the limit.
    std::function<std::unique_ptr<FeatureExtractor>(const OptionValues&,
                                                    const FrameGeometry&)>
        create;
};

// One extractor to run and its option values.
struct ExtractorSpec {
    const FeatureInfo* info = nullptr;
    OptionValues options;
};

// Every built-in extractor, in a fixed order.
const std::vector<FeatureInfo>& feature_registry();
// nullptr when unknown.
const FeatureInfo* find_feature(std::string_view name);
// The extractor that provides a feature (by unaliased or aliased name).
const FeatureInfo* find_feature_providing(std::string_view feature_name);

}  // namespace vmafpp
