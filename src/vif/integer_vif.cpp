// libvmaf 3.2.0's integer VIF extractor ("vif"): four scales of the visual
// information fidelity of the luma plane, each written as num / den.
//
// Pipeline per frame (all integer until the per-pixel gain in
// vif_accumulate): scale 0 is the picture itself; scale s+1 is scale s
// low-passed with filter s+1 and decimated by 2 in both directions (only the
// kept samples are computed: every output depends on its own neighbourhood
// only, so skipping the dropped ones changes nothing). Picture edges are
// mirrored without repeating the edge sample, at every scale.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "vif/vif_options.hpp"
#include "base/frame_scratch.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vif/vif_twin.hpp"

namespace vmafpp {

namespace {

using vif::kFilters;
using vif::kFilterTaps;
using vif::kMaxHalf;
using vif::kScales;
using vif::VifSums;

// Every scale must be wide and tall enough for its widest mirror: statistics
// at scale s need (taps_s / 2) + 1 samples, the reduction from s needs
// (taps_{s+1} / 2) + 1. Scale 3 is floor(size / 8) and needs 2, scale 2
// (floor(size / 4)) needs 3, scale 1 needs 5, scale 0 needs 9: 16 is the
// smallest size for which every mirrored sample is a real one. Below it,
// libvmaf's filters read padding it never wrote; from 16 up its results are
// defined (its default, scalar and AVX2 runs agree on p21, 18x18).
constexpr int kMinSize = 16;

// Sample -k is sample k, sample size-1+k is sample size-1-k.
constexpr int reflect(int i, int size) {
    if (i < 0) return -i;
    if (i >= size) return 2 * (size - 1) - i;
    return i;
}

struct ScaleSize {
    int w = 0;
    int h = 0;
};

// What a "vif" instance reads from its options (vif_table()).
struct VifParams {
    bool debug;
    double gain_limit;
    bool skip_scale0;
};

// libvmaf's options, in its order, each with the field it fills.
const OptionTable<VifParams>& vif_table() {
    using T = OptionType;
    using P = VifParams;
    static const OptionTable<VifParams> table = OptionTable<VifParams>{}
        .add({"debug", "", T::boolean, 0.0, 0.0, 1.0, false,
              "debug mode: enable additional output"}, &P::debug)
        .add({"vif_enhn_gain_limit", "egl", T::number, 100.0, 1.0, 100.0, true,
              "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is "
              "completely disabled"}, &P::gain_limit)
        .add({"vif_skip_scale0", "ssclz", T::boolean, 0.0, 0.0, 1.0, true,
              "when set, skip scale 0 calculations"}, &P::skip_scale0);
    return table;
}

class IntegerVif final : public FeatureExtractor, public detail::SharesFrameScratch {
public:
    explicit IntegerVif(const ExtractorSetup& setup)
        : IntegerVif(vif_table().read(setup.options), setup.geometry, setup.compute.simd,
                     setup.keys) {
        device_ = device::make_twin<vif::VifTwin>(setup.compute, size_[0].w, size_[0].h, bpc_,
                                                  gain_limit_);
        // The session uploads each frame once (device::FrameStore).
        from_store_ = device_ && setup.compute.frames != nullptr;
    }

    IntegerVif(const VifParams& opts, const FrameGeometry& geo, SimdLevel simd,
               const std::vector<std::string>& keys)
        : kernels_(&vif::vif_kernels_for(simd)),
          log2_table_(vif::vif_log2_table()),
          gain_limit_(opts.gain_limit),
          skip_scale0_(opts.skip_scale0),
          debug_(opts.debug),
          bpc_(geo.bpc) {
        if (geo.width < kMinSize || geo.height < kMinSize)
            throw Error("vif: picture " + std::to_string(geo.width) + "x" +
                        std::to_string(geo.height) + " is too small, the minimum is " +
                        std::to_string(kMinSize) + "x" + std::to_string(kMinSize));
        if (geo.bpc < 8 || geo.bpc > 16)
            throw Error("vif: " + std::to_string(geo.bpc) + "-bit pictures are not supported");

        size_[0] = {geo.width, geo.height};
        for (int s = 1; s < kScales; ++s) size_[s] = {size_[s - 1].w / 2, size_[s - 1].h / 2};

        // The reduction's two rows, each with kMaxHalf mirrored samples on
        // either side.
        row_len_ = static_cast<std::size_t>(geo.width) + 2 * kMaxHalf;
        rows_.assign(2 * row_len_, 0u);
        conv_ref_ = row(0);
        conv_dis_ = row(1);
        sigma_.assign(3 * static_cast<std::size_t>(geo.width), 0);
        row_scratch_.assign(vif::vif_stat_row_scratch(geo.width), 0u);

        // The scaled pictures, in one block other extractors of this worker
        // may share (meet()): every sample is written by the reduction of
        // the scale above before the same frame reads it.
        detail::ScratchLayout layout;
        for (int s = 1; s < kScales; ++s) {
            const std::size_t n = static_cast<std::size_t>(size_[s].w) * size_[s].h;
            scaled_at_[s][0] = layout.take<std::uint16_t>(n);
            scaled_at_[s][1] = layout.take<std::uint16_t>(n);
        }
        frame_scratch_ = detail::FrameScratch(layout.bytes());

        // In vif_provided() order.
        for (int s = 0; s < kScales; ++s) {
            score_key_[s] = keys[s];
            num_key_[s] = keys[kScales + 3 + 2 * s];
            den_key_[s] = keys[kScales + 4 + 2 * s];
        }
        vif_key_ = keys[kScales];
        vif_num_key_ = keys[kScales + 1];
        vif_den_key_ = keys[kScales + 2];
    }

    void extract(const Picture& ref, const Picture& dis, unsigned frame,
                 FeatureSink& sink) override {
        // The kernels read samples of the type and extent fixed at create().
        if (!matches(ref) || !matches(dis))
            throw Error("vif: picture geometry differs from the one the extractor was made for");
        std::array<float, kScales> num{}, den{};
        if (device_) {
            device_scales(ref.luma(), dis.luma(), frame, num, den);
            write(num, den, frame, sink);
            return;
        }
        if (handed_over_ && handed_frame_ == frame) {
            handed_over_ = false;
            write(handed_num_, handed_den_, frame, sink);
            return;
        }
        for (Follower& f : followers_) f.sums = {};
        bind();
        if (bpc_ == 8)
            run_scales<std::uint8_t>(ref.luma(), dis.luma(), num, den);
        else
            run_scales<std::uint16_t>(ref.luma(), dis.luma(), num, den);
        write(num, den, frame, sink);
        for (Follower& f : followers_) {
            IntegerVif& v = *f.vif;
            for (int s = skip_scale0_ ? 1 : 0; s < kScales; ++s)
                to_num_den(f.sums[s], v.handed_num_[s], v.handed_den_[s]);
            v.handed_frame_ = frame;
            v.handed_over_ = true;
        }
    }

    // A later instance of the same worker that differs from this one only in
    // its gain limit, which only vif_accumulate reads: this one accumulates
    // its sums too, from the same statistics rows, and hands them over.
    void meet(FeatureExtractor& earlier) override {
        if (!device_) share_frame_scratch(earlier);
        auto* leader = dynamic_cast<IntegerVif*>(&earlier);
        if (!leader || leading_or_following() || leader->following_ || device_ ||
            leader->device_ || leader->kernels_ != kernels_ || leader->bpc_ != bpc_ ||
            leader->skip_scale0_ != skip_scale0_ || leader->size_[0].w != size_[0].w ||
            leader->size_[0].h != size_[0].h)
            return;
        leader->followers_.push_back({this, {}});
        following_ = true;
    }

    detail::FrameScratch& frame_scratch() override { return frame_scratch_; }

private:
    // Points scaled_ref_/scaled_dis_ into the scratch block.
    void bind() {
        std::byte* block = frame_scratch_.get();
        for (int s = 1; s < kScales; ++s) {
            scaled_ref_[s] = reinterpret_cast<std::uint16_t*>(block + scaled_at_[s][0]);
            scaled_dis_[s] = reinterpret_cast<std::uint16_t*>(block + scaled_at_[s][1]);
        }
    }

    bool leading_or_following() const { return following_ || !followers_.empty(); }

    // Every row's statistics into the sums of this instance's gain limit
    // and of each follower's.
    void accumulate_row(const std::int32_t* s1, const std::int32_t* s2, const std::int32_t* s12,
                        int w, int s, VifSums& sums) {
        kernels_->accumulate(s1, s2, s12, w, log2_table_, gain_limit_, &sums);
        for (Follower& f : followers_)
            kernels_->accumulate(s1, s2, s12, w, log2_table_, f.vif->gain_limit_, &f.sums[s]);
    }

    bool matches(const Picture& p) const {
        return p.width == size_[0].w && p.height == size_[0].h && p.bpc == bpc_;
    }

    std::uint32_t* row(int k) { return rows_.data() + k * row_len_ + kMaxHalf; }

    template <class T>
    void run_scales(const Plane& ref_plane, const Plane& dis_plane, std::array<float, kScales>& num,
                    std::array<float, kScales>& den) {
        const T* ref = ref_plane.row<T>(0);
        const T* dis = dis_plane.row<T>(0);
        const std::ptrdiff_t stride = ref_plane.stride() / std::ptrdiff_t{sizeof(T)};
        const std::ptrdiff_t dis_stride = dis_plane.stride() / std::ptrdiff_t{sizeof(T)};
        // An 8-bit scale 0 is reduced inside its statistics pass, on the
        // even rows, from the samples that pass has loaded.
        const bool reduced_in_statistics = sizeof(T) == 1 && !skip_scale0_;
        if (!skip_scale0_) {
            // Scale 0 keeps the picture's own bit depth: the means are
            // normalised by `bpc` bits and the moments by 2 * (bpc - 8), so
            // every later step sees 8-bit units.
            const VifSums sums = statistics(ref, stride, dis, dis_stride, 0, bpc_, 2 * (bpc_ - 8));
            to_num_den(sums, num[0], den[0]);
        }
        if (!reduced_in_statistics) reduce(ref, stride, dis, dis_stride, 0, bpc_);
        for (int s = 1; s < kScales; ++s) {
            const std::uint16_t* r = scaled_ref_[s];
            const std::uint16_t* d = scaled_dis_[s];
            const std::ptrdiff_t st = size_[s].w;
            const VifSums sums = statistics(r, st, d, st, s, 16, 16);
            to_num_den(sums, num[s], den[s]);
            if (s + 1 < kScales) reduce(r, st, d, st, s, 16);
        }
    }

    // The scales' statistics on the device, then the same row-by-row
    // accumulation (or the device's integer sums of it) and finalisation as
    // the CPU path.
    void device_scales(const Plane& ref, const Plane& dis, unsigned frame,
                       std::array<float, kScales>& num, std::array<float, kScales>& den) {
        if (from_store_)
            device_->run_frame(frame, skip_scale0_);
        else
            device_->run(ref.row<std::uint8_t>(0), ref.stride(), dis.row<std::uint8_t>(0),
                         dis.stride(), skip_scale0_);
        for (int s = skip_scale0_ ? 1 : 0; s < kScales; ++s) {
            const int w = size_[s].w;
            const std::size_t n = static_cast<std::size_t>(w) * size_[s].h;
            VifSums sums;
            if (device_->sums(s, &sums)) {
                to_num_den(sums, num[s], den[s]);
                continue;
            }
            const std::int32_t* s1 = device_->sigma(s);
            for (int i = 0; i < size_[s].h; ++i) {
                const std::size_t o = static_cast<std::size_t>(i) * w;
                kernels_->accumulate(s1 + o, s1 + n + o, s1 + 2 * n + o, w, log2_table_,
                                     gain_limit_, &sums);
            }
            to_num_den(sums, num[s], den[s]);
        }
    }

    // The four information sums of scale s, whose samples are ref/dis.
    template <class T>
    VifSums statistics(const T* ref, std::ptrdiff_t ref_stride, const T* dis,
                       std::ptrdiff_t dis_stride, int s, int shift_mu, int shift_sq) {
        const int w = size_[s].w;
        const int h = size_[s].h;
        const int taps = kFilterTaps[s];
        const int half = taps / 2;
        std::array<const T*, 2 * kMaxHalf + 1> ref_rows{}, dis_rows{};
        std::int32_t* s1 = sigma_.data();
        std::int32_t* s2 = s1 + w;
        std::int32_t* s12 = s2 + w;
        VifSums sums;
        for (int i = 0; i < h; ++i) {
            for (int t = 0; t < taps; ++t) {
                const int y = reflect(i - half + t, h);
                ref_rows[t] = ref + y * ref_stride;
                dis_rows[t] = dis + y * dis_stride;
            }
            // Whole rows per pass. Column chunks (vertical pass of chunk c,
            // then horizontal pass and accumulation of chunk c - 1, so that a
            // chunk stays in L1) gave no measurable gain at 1080p: the passes
            // are bound by their multiplies, not by L2, and the extra calls
            // added 2.8% instructions and 16% more L1 data misses (cachegrind).
            // One fused call per row, so SIMD levels keep the vertical sums
            // as their horizontal pass reads them (8-bit samples are scale 0
            // only).
            if constexpr (sizeof(T) == 1) {
                // Output row i / 2 of scale 1 is reduced from the rows
                // around row i, which this call has loaded (s is 0).
                const bool reduces = i % 2 == 0 && i / 2 < size_[1].h;
                const vif::VifRowReduce reduction{kFilters[1], kFilterTaps[1], bpc_, conv_ref_,
                                                  conv_dis_};
                kernels_->stat_row_u8(ref_rows.data(), dis_rows.data(), kFilters[s], taps, w,
                                      row_scratch_.data(), s1, s2, s12,
                                      reduces ? &reduction : nullptr);
                if (reduces) reduce_horizontal(0, i / 2);
            } else {
                kernels_->stat_row_u16(ref_rows.data(), dis_rows.data(), kFilters[s], taps, w,
                                       shift_mu, shift_sq, row_scratch_.data(), s1, s2, s12);
            }
            accumulate_row(s1, s2, s12, w, s, sums);
        }
        return sums;
    }

    // Low-passes scale s with filter s+1 and keeps the even rows and columns
    // as scale s+1. The vertical pass is normalised by `shift` bits (bpc at
    // scale 0, giving 16-bit samples; 16 afterwards).
    template <class T>
    void reduce(const T* ref, std::ptrdiff_t ref_stride, const T* dis, std::ptrdiff_t dis_stride,
                int s, int shift) {
        const int w = size_[s].w;
        const int h = size_[s].h;
        const int taps = kFilterTaps[s + 1];
        const int half = taps / 2;
        const std::uint16_t* filter = kFilters[s + 1];
        const ScaleSize out = size_[s + 1];
        std::array<const T*, 2 * kMaxHalf + 1> ref_rows{}, dis_rows{};
        for (int oi = 0; oi < out.h; ++oi) {
            const int i = 2 * oi;
            for (int t = 0; t < taps; ++t) {
                const int y = reflect(i - half + t, h);
                ref_rows[t] = ref + y * ref_stride;
                dis_rows[t] = dis + y * dis_stride;
            }
            if constexpr (sizeof(T) == 1)
                kernels_->subsample_vertical_u8(ref_rows.data(), dis_rows.data(), filter, taps, w,
                                                shift, conv_ref_, conv_dis_);
            else
                kernels_->subsample_vertical_u16(ref_rows.data(), dis_rows.data(), filter, taps, w,
                                                 shift, conv_ref_, conv_dis_);
            reduce_horizontal(s, oi);
        }
    }

    // The horizontal half of the reduction: conv_ref_/conv_dis_ hold the
    // vertical pass of output row oi of scale s + 1.
    void reduce_horizontal(int s, int oi) {
        const int w = size_[s].w;
        const int taps = kFilterTaps[s + 1];
        const ScaleSize out = size_[s + 1];
        vif::vif_mirror_pad(conv_ref_, w, taps / 2);
        vif::vif_mirror_pad(conv_dis_, w, taps / 2);
        const std::size_t o = static_cast<std::size_t>(oi) * out.w;
        kernels_->subsample_horizontal(conv_ref_, conv_dis_, kFilters[s + 1], taps, out.w,
                                       scaled_ref_[s + 1] + o, scaled_dis_[s + 1] + o);
    }

    // libvmaf keeps num and den of each scale as float, computed in double
    // from the integer sums in this order.
    static void to_num_den(const VifSums& sums, float& num, float& den) {
        const double num_log = static_cast<double>(sums.num_log);
        const double den_log = static_cast<double>(sums.den_log);
        const double num_non_log = static_cast<double>(sums.num_non_log);
        const double den_non_log = static_cast<double>(sums.den_non_log);
        num = static_cast<float>(num_log / 2048.0 +
                                 (den_non_log - (num_non_log / 16384.0) / 65025.0));
        den = static_cast<float>(den_log / 2048.0 + den_non_log);
    }

    void write(const std::array<float, kScales>& num, const std::array<float, kScales>& den,
               unsigned frame, FeatureSink& sink) const {
        // The per-scale score is a float division, widened afterwards.
        sink.append(score_key_[0], frame,
                    skip_scale0_ ? 0.0 : static_cast<double>(num[0] / den[0]));
        for (int s = 1; s < kScales; ++s)
            sink.append(score_key_[s], frame, static_cast<double>(num[s] / den[s]));
        if (!debug_) return;

        // Totals in double, summed from the lowest used scale up.
        const int first = skip_scale0_ ? 1 : 0;
        double total_num = static_cast<double>(num[first]);
        double total_den = static_cast<double>(den[first]);
        for (int s = first + 1; s < kScales; ++s) {
            total_num = total_num + static_cast<double>(num[s]);
            total_den = total_den + static_cast<double>(den[s]);
        }
        sink.append(vif_key_, frame, total_den == 0.0 ? 1.0 : total_num / total_den);
        sink.append(vif_num_key_, frame, total_num);
        sink.append(vif_den_key_, frame, total_den);
        for (int s = 0; s < kScales; ++s) {
            // A skipped scale 0 reports num 0 and den -1.
            const bool skipped = s == 0 && skip_scale0_;
            sink.append(num_key_[s], frame, skipped ? 0.0 : static_cast<double>(num[s]));
            sink.append(den_key_[s], frame, skipped ? -1.0 : static_cast<double>(den[s]));
        }
    }

    const vif::VifKernels* kernels_;
    std::unique_ptr<vif::VifTwin> device_;
    bool from_store_ = false;
    const std::uint16_t* log2_table_;
    double gain_limit_;
    bool skip_scale0_;
    bool debug_;
    int bpc_;

    std::array<ScaleSize, kScales> size_{};
    std::size_t row_len_ = 0;
    std::vector<std::uint32_t> rows_;
    std::uint32_t* conv_ref_ = nullptr;
    std::uint32_t* conv_dis_ = nullptr;
    std::vector<std::int32_t> sigma_;
    std::vector<std::uint32_t> row_scratch_;  // the fused rows' (vif_stat_row_scratch)
    // scaled_*[s] holds scale s (s >= 1), w x h samples, rows w apart, at
    // scaled_at_[s][picture] in the block of frame_scratch_.
    detail::FrameScratch frame_scratch_;
    std::array<std::array<std::size_t, 2>, kScales> scaled_at_{};
    std::array<std::uint16_t*, kScales> scaled_ref_{}, scaled_dis_{};

    std::array<std::string, kScales> score_key_, num_key_, den_key_;
    std::string vif_key_, vif_num_key_, vif_den_key_;

    // Sharing the statistics with instances at other gain limits (meet()).
    struct Follower {
        IntegerVif* vif;
        std::array<VifSums, kScales> sums;
    };
    std::vector<Follower> followers_;
    bool following_ = false;
    // What a leader handed over, and for which frame.
    bool handed_over_ = false;
    unsigned handed_frame_ = 0;
    std::array<float, kScales> handed_num_{}, handed_den_{};
};

// The scale scores, then the debug values: integer_vif, its num and den,
// and the num and den of every scale.
std::vector<ProvidedFeature> vif_provided() {
    std::vector<ProvidedFeature> p;
    append_scale_features(p, kScales, "VMAF_integer_feature_vif_scale", "_score",
                          "integer_vif_scale");
    p.insert(p.end(), {{"integer_vif", ""}, {"integer_vif_num", ""}, {"integer_vif_den", ""}});
    append_num_den_scales(p, kScales, "integer_vif");
    return p;
}

}  // namespace

std::vector<OptionSpec> vif::integer_vif_options() { return vif_table().specs(); }

FeatureInfo integer_vif_info() {
    FeatureInfo info = extractor_info<IntegerVif>("vif", vif_table().specs(), vif_provided());
    info.device_twins = {std::string(vif::VifTwin::kind)};
    return info;
}

}  // namespace vmafpp
