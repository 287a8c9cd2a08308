// libvmaf's integer "psnr" extractor: PSNR of each plane on the integer
// samples, capped at 6 * bpc + 12 dB (60 dB for 8-bit) unless min_sse sets
// the cap.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "base/c_macros.hpp"
#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp {

namespace {

// What a "psnr" instance reads from its options (psnr_table()).
struct PsnrParams {
    bool enable_chroma;
    bool enable_mse;
    bool enable_apsnr;
    bool reduced_hbd_peak;
    double min_sse;
};

// libvmaf's options, in its order, each with the field it fills.
const OptionTable<PsnrParams>& psnr_table() {
    using T = OptionType;
    using P = PsnrParams;
    static const OptionTable<PsnrParams> table = OptionTable<PsnrParams>{}
        .add({"enable_chroma", "", T::boolean, 1, 0, 1, false,
              "enable calculation for chroma channels"}, &P::enable_chroma)
        .add({"enable_mse", "", T::boolean, 0, 0, 1, false, "enable MSE calculation"},
             &P::enable_mse)
        .add({"enable_apsnr", "", T::boolean, 0, 0, 1, false, "enable APSNR calculation"},
             &P::enable_apsnr)
        .add({"reduced_hbd_peak", "", T::boolean, 0, 0, 1, false,
              "reduce hbd peak value to align with scaled 8-bit content"}, &P::reduced_hbd_peak)
        .add({"min_sse", "", T::number, 0.0, 0.0, std::numeric_limits<double>::max(), false,
              "constrain the minimum possible sse"}, &P::min_sse);
    return table;
}

// Sum of squared differences of one plane. 8-bit: per-row uint32 sums (a row
// of up to 66051 samples cannot wrap: 255^2 * 66051 < 2^32), added into a
// uint64; high bit depth: every uint32 square straight into the uint64.
std::uint64_t plane_sse(const Plane& a, const Plane& b, bool high_depth) {
    std::uint64_t sse = 0;
    for (int y = 0; y < a.height(); ++y) {
        if (!high_depth) {
            const std::uint8_t* ra = a.row<std::uint8_t>(y);
            const std::uint8_t* rb = b.row<std::uint8_t>(y);
            std::uint32_t row = 0;  // unsigned: wraps like libvmaf's, never UB
            for (int x = 0; x < a.width(); ++x) {
                const int e = ra[x] - rb[x];
                row += static_cast<std::uint32_t>(e * e);
            }
            sse += row;
        } else {
            const std::uint16_t* ra = a.row<std::uint16_t>(y);
            const std::uint16_t* rb = b.row<std::uint16_t>(y);
            for (int x = 0; x < a.width(); ++x) {
                const auto e = static_cast<std::uint32_t>(std::abs(ra[x] - rb[x]));
                sse += e * e;  // <= 65535^2, fits uint32
            }
        }
    }
    return sse;
}

// libvmaf's APSNR: the PSNR of the whole run's summed SSE of a plane. 0/0
// pixels (a plane not scored) give NaN in the difference of logs and -inf as
// the cap, and libvmaf's MIN macro (NaN < x is false) then yields the cap.
double apsnr_from_sums(std::string_view /*key*/, const AggregateSums& s) {
    if (s.fixed.size() != 1 || s.totals.size() != 2)
        throw Error("psnr: APSNR sums are {SSE, pixels} with the peak's square fixed");
    const auto peak_sq = static_cast<std::uint32_t>(s.fixed[0]);
    const std::uint64_t sse = s.totals[0], pixels = s.totals[1];
    const double apsnr = 10 * (std::log10(static_cast<double>(peak_sq)) +
                               std::log10(static_cast<double>(pixels)) -
                               std::log10(static_cast<double>(sse)));
    // The product is uint64 arithmetic (it wraps past 2^64, as libvmaf's
    // does, after about 10^9 pixels at 16 bits).
    const std::uint64_t cap_arg = std::uint64_t{peak_sq} * pixels * 2;
    const double max_apsnr = std::ceil(10 * std::log10(static_cast<double>(cap_arg)));
    return c_min(apsnr, max_apsnr);
}

class Psnr final : public FeatureExtractor {
public:
    static void check(const ExtractorSetup& s) {
        const int bpc = s.geometry.bpc;
        if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
            throw Error("psnr supports 8, 10, 12 and 16 bits per component (got " +
                        std::to_string(bpc) + ")");
    }

    explicit Psnr(const ExtractorSetup& s) : Psnr(s, psnr_table().read(s.options)) {}

    Psnr(const ExtractorSetup& s, const PsnrParams& o)
        : keys_(s.keys), bpc_(s.geometry.bpc), enable_mse_(o.enable_mse),
          enable_apsnr_(o.enable_apsnr),
          planes_(o.enable_chroma && s.geometry.format != PixelFormat::yuv400 ? 3 : 1) {
        const FrameGeometry& g = s.geometry;
        // 8-bit uses 255 regardless; above, (2^bpc - 1) or 255 * 2^(bpc-8).
        peak_ = o.reduced_hbd_peak ? 255u << (g.bpc - 8) : (1u << g.bpc) - 1;
        const double min_sse = o.min_sse;
        for (int p = 0; p < 3; ++p) {
            if (min_sse != 0.0) {
                // libvmaf halves chroma sizes for any subsampled format
                // (horizontal unless 4:4:4, vertical only for 4:2:0).
                const bool sub_h = g.format != PixelFormat::yuv444;
                const bool sub_v = g.format == PixelFormat::yuv420;
                const unsigned w = (p && sub_h) ? g.width / 2 : g.width;
                const unsigned h = (p && sub_v) ? g.height / 2 : g.height;
                const double mse = min_sse / (w * h);
                psnr_max_[p] = std::ceil(10. * std::log10((peak_ * peak_) / mse));
            } else {
                psnr_max_[p] = (6 * g.bpc) + 12;
            }
        }
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        const bool high = bpc_ > 8;
        // libvmaf's 8-bit path hard-codes a peak of 255 (an int square).
        const double peak_sq = high ? static_cast<double>(peak_ * peak_) : 255 * 255;
        for (int p = 0; p < planes_; ++p) {
            const Plane& a = ref.planes[p];
            const std::uint64_t sse = plane_sse(a, dis.planes[p], high);
            const unsigned n = static_cast<unsigned>(a.width()) * static_cast<unsigned>(a.height());
            if (enable_apsnr_) add_apsnr_sums(sink, p, frame, sse, n);
            const double mse = static_cast<double>(sse) / n;
            sink.append(keys_[p], frame,
                        c_min(10. * std::log10(peak_sq / c_max(mse, 1e-16)), psnr_max_[p]));
            if (enable_mse_) sink.append(keys_[3 + p], frame, mse);
        }
        // libvmaf writes all three APSNRs even when only luma is scored
        // (its loop runs to 3): the planes not scored sum 0 SSE of 0 pixels.
        if (enable_apsnr_)
            for (int p = planes_; p < 3; ++p) add_apsnr_sums(sink, p, frame, 0, 0);
    }

private:
    // One frame's APSNR sums of plane p: totals {SSE, pixels}, and the
    // peak's square (a uint32, as libvmaf's `s->peak * s->peak`) fixed.
    void add_apsnr_sums(FeatureSink& sink, int p, unsigned frame, std::uint64_t sse, std::uint64_t n) const {
        static const char* const kNames[3] = {"apsnr_y", "apsnr_cb", "apsnr_cr"};
        sink.add_aggregate_sums(kNames[p], frame,
                                AggregateSums{"psnr", {std::uint32_t(peak_ * peak_)}, {sse, n}});
    }

    std::vector<std::string> keys_;  // psnr_y, _cb, _cr, then mse_y, _cb, _cr
    int bpc_;
    bool enable_mse_;
    bool enable_apsnr_;
    int planes_;
    std::uint32_t peak_ = 255;
    double psnr_max_[3] = {};
};

}  // namespace

FeatureInfo integer_psnr_info() {
    // Temporal, as libvmaf flags it (its APSNR once summed in one instance),
    // so that with worker threads its keys come first (runs_first) and the
    // order of keys stays libvmaf's.
    FeatureInfo info = extractor_info<Psnr>("psnr", psnr_table().specs(),
                                            {{"psnr_y", ""}, {"psnr_cb", ""}, {"psnr_cr", ""},
                                             {"mse_y", ""}, {"mse_cb", ""}, {"mse_cr", ""}},
                                            /*temporal=*/true);
    info.runs_first = true;
    // Per-frame values need no other frame; APSNR's sums merge (AggregateSums).
    info.aggregate_from_sums = apsnr_from_sums;
    info.reads_chroma = [](const OptionValues& o) { return psnr_table().read(o).enable_chroma; };
    return info;
}

}  // namespace vmafpp
