// The whole scoring pipeline on tiny pictures. The first 8 bytes choose the
// geometry (1..48 per side), format, bit depth, frame count, which features
// and model run and the thread count; the rest is cycled into the reference
// and distorted raw YUV samples. score() must either refuse with a one-line
// vmafpp::Error (pictures below an extractor's minimum) or return a value
// for every key and frame, none of them NaN.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "io/open_source.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/vmafpp.hpp"

using namespace vmafpp;

namespace {

constexpr PixelFormat kFormats[4] = {PixelFormat::yuv420, PixelFormat::yuv422,
                                     PixelFormat::yuv444, PixelFormat::yuv400};
constexpr int kDepths[5] = {8, 9, 10, 12, 16};
const char* const kFeatures[] = {"float_adm", "float_vif", "float_motion", "float_psnr",
                                 "float_ansnr", "float_moment", "psnr", "adm=debug=true"};

std::size_t frame_bytes(int w, int h, PixelFormat f, int bpc) {
    const std::size_t luma = std::size_t(w) * std::size_t(h);
    std::size_t chroma = 0;
    if (f == PixelFormat::yuv420) chroma = std::size_t(w / 2) * std::size_t(h / 2);
    if (f == PixelFormat::yuv422) chroma = std::size_t(w / 2) * std::size_t(h);
    if (f == PixelFormat::yuv444) chroma = luma;
    return (luma + 2 * chroma) * (bpc > 8 ? 2 : 1);
}

// Raw samples cycled from `src`; 16-bit samples masked to the bit depth (the
// raw reader refuses out-of-range samples, which fuzz_raw covers).
std::string raw_video(const std::uint8_t* src, std::size_t n, std::size_t offset,
                      std::size_t bytes, int bpc) {
    std::string out(bytes, '\0');
    for (std::size_t i = 0; n > 0 && i < bytes; ++i)
        out[i] = static_cast<char>(src[(offset + i) % n]);
    if (bpc > 8)
        for (std::size_t i = 1; i < bytes; i += 2)
            out[i] = static_cast<char>(static_cast<unsigned char>(out[i]) & ((1u << (bpc - 8)) - 1));
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 8) return 0;
    RawFormat fmt;
    fmt.width = 1 + data[0] % 48;
    fmt.height = 1 + data[1] % 48;
    fmt.format = kFormats[data[2] % 4];
    fmt.bpc = kDepths[data[3] % 5];
    const int frames = 1 + data[4] % 3;
    const unsigned feature_bits = data[5];
    ScoreConfig cfg;
    cfg.threads = data[6] % 3;
    cfg.no_prediction = data[7] % 2 == 1;
    if (!cfg.no_prediction && (data[7] & 2)) {
        ModelConfig neg;
        neg.version = "vmaf_v0.6.1neg";
        cfg.models.push_back(neg);
    }
    for (unsigned k = 0; k < 8; ++k)
        if (feature_bits & (1u << k)) cfg.features.emplace_back(kFeatures[k]);
    if (cfg.no_prediction && cfg.features.empty()) cfg.features.emplace_back("vif");

    const std::uint8_t* samples = data + 8;
    const std::size_t n = size - 8;
    const std::size_t bytes = frame_bytes(fmt.width, fmt.height, fmt.format, fmt.bpc) * frames;
    const std::string ref = raw_video(samples, n, 0, bytes, fmt.bpc);
    const std::string dis = raw_video(samples, n, n / 2 + 1, bytes, fmt.bpc);
    try {
        auto r = io::open_raw_source(std::make_unique<io::ByteSource>("ref", ref.data(), ref.size()), fmt);
        auto d = io::open_raw_source(std::make_unique<io::ByteSource>("dis", dis.data(), dis.size()), fmt);
        const ScoreRun run = score(*r, *d, cfg);
        if (run.frames != unsigned(frames)) std::abort();
        for (const auto& key : run.values.keys())
            for (unsigned f = 0; f < run.frames; ++f) {
                const auto v = run.values.value(key, f);
                if (!v || std::isnan(*v)) std::abort();
            }
    } catch (const Error& e) {
        const std::string msg = e.what();
        if (msg.empty() || msg.find('\n') != std::string::npos) std::abort();
    }
    return 0;
}
