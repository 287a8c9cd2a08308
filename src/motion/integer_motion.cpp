// libvmaf 3.2.0's integer motion extractor ("motion"), a temporal extractor.
//
// extract(frame n) writes VMAF_integer_feature_motion_sad_score[n] (and, with
// debug, integer_motion[n], the same value): the motion between reference
// frames n-1 and n (n-2 and n with the five-frame window), 0 for the first
// frame(s). flush() then writes integer_motion2 and integer_motion3 for every
// frame, in frame order, alternating motion2[i], motion3[i]:
//   motion2[i] = 0 for i < first, else min(sad[i-stride+1], sad[i+1]) where
//                both exist (the lower one only from `first` on), sad[i+1]
//                alone when i-stride+1 is too early, sad[i] for the last frame;
//   motion3[i] = blend(motion2[i]) capped at motion_max_val, optionally
//                averaged with the previous frame's; the first frame(s) take
//                the capped blend of sad[first] (0 when there is no later frame).
// with first = 1 and stride = 1, or first = 2 and stride = 2 for the
// five-frame window. So the keys are first written in the order sad,
// [integer_motion,] integer_motion2, integer_motion3, as libvmaf writes them.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/extractor_info.hpp"
#include "base/option_table.hpp"
#include "motion/motion_options.hpp"
#include "base/large_alloc.hpp"
#include "motion/motion_kernels.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "motion/motion_twin.hpp"

namespace vmafpp {

namespace {

using motion::kRadius;

// The 5-tap mirror needs 3 samples in each direction.
constexpr int kMinSize = kRadius + 1;

// libvmaf's blend: score * factor + (1 - factor) * min(offset, score), in
// this order.
double blend(double score, double factor, double offset) {
    const double low = offset < score ? offset : score;
    return score * factor + (1 - factor) * low;
}

double cap(double v, double max) { return v < max ? v : max; }

// What a "motion" instance reads from its options (motion_table()).
struct MotionParams {
    bool force_zero;
    double blend_factor;
    double blend_offset;
    double fps_weight;
    double max_val;
    bool five_frame;
    bool moving_average;
    bool debug;
};

// libvmaf's options, in its order, each with the field it fills.
const OptionTable<MotionParams>& motion_table() {
    using T = OptionType;
    using P = MotionParams;
    static const OptionTable<MotionParams> table = OptionTable<MotionParams>{}
        .add({"motion_force_zero", "force_0", T::boolean, 0.0, 0.0, 1.0, true,
              "forcing motion score to zero"}, &P::force_zero)
        .add({"motion_blend_factor", "mbf", T::number, 1.0, 0.0, 1.0, true,
              "blend motion score given an offset"}, &P::blend_factor)
        .add({"motion_blend_offset", "mbo", T::number, 40.0, 0.0, 1000.0, true,
              "blend motion score starting from this offset"}, &P::blend_offset)
        .add({"motion_fps_weight", "mfw", T::number, 1.0, 0.0, 5.0, true,
              "fps-aware multiplicative weight/correction"}, &P::fps_weight)
        .add({"motion_max_val", "mmxv", T::number, 10000.0, 0.0, 10000.0, true,
              "maximum value allowed; larger values will be clipped to this value"}, &P::max_val)
        .add({"motion_five_frame_window", "mffw", T::boolean, 0.0, 0.0, 1.0, true,
              "use five-frame temporal window"}, &P::five_frame)
        .add({"motion_moving_average", "mma", T::boolean, 0.0, 0.0, 1.0, true,
              "use moving average for motion scores after first frame"}, &P::moving_average)
        .add({"debug", "", T::boolean, 0.0, 0.0, 1.0, false,
              "debug mode: enable additional output"}, &P::debug);
    return table;
}

class IntegerMotion final : public FeatureExtractor {
public:
    explicit IntegerMotion(const ExtractorSetup& setup)
        : IntegerMotion(motion_table().read(setup.options), setup.geometry, setup.compute.simd,
                        setup.keys) {
        // The SAD on the device; the history stays on the host.
        if (!force_zero_) device_ = device::make_twin<motion::MotionTwin>(setup.compute, w_, h_, bpc_);
        // The session uploads each frame once (device::FrameStore): the
        // twin reads both frames there and the host keeps no copies.
        from_store_ = device_ && setup.compute.frames != nullptr;
    }

    // keys in motion_provided() order: sad, motion, motion2, motion3.
    IntegerMotion(const MotionParams& opts, const FrameGeometry& geo, SimdLevel simd,
                  const std::vector<std::string>& keys)
        : kernels_(&motion::motion_kernels_for(simd)),
          w_(geo.width),
          h_(geo.height),
          bpc_(geo.bpc),
          force_zero_(opts.force_zero),
          blend_factor_(opts.blend_factor),
          blend_offset_(opts.blend_offset),
          fps_weight_(opts.fps_weight),
          max_val_(opts.max_val),
          five_frame_(opts.five_frame),
          moving_average_(opts.moving_average),
          debug_(opts.debug),
          first_(five_frame_ ? 2u : 1u),
          sad_key_(keys[0]),
          motion_key_(keys[1]),
          motion2_key_(keys[2]),
          motion3_key_(keys[3]) {
        if (w_ < kMinSize || h_ < kMinSize)
            throw Error("motion: picture " + std::to_string(w_) + "x" + std::to_string(h_) +
                        " is too small, the minimum is " + std::to_string(kMinSize) + "x" +
                        std::to_string(kMinSize));
        if (bpc_ < 8 || bpc_ > 16)
            throw Error("motion: " + std::to_string(bpc_) + "-bit pictures are not supported");
        sample_bytes_ = bpc_ > 8 ? 2 : 1;
        scratch_.assign(static_cast<std::size_t>(motion::motion_scratch_size(w_)), 0);
        if (!force_zero_) {
            // Frames n - first_ - 1 .. n - 1 while frame n is scored against
            // n - first_ and copied into the slot of n - first_ - 1.
            history_.resize(first_ + 1);
            // Left unwritten: a slot is read only after remember() or the
            // kernel filled it, so the frames before frame 1 touch one.
            for (auto& h : history_)
                h.samples = detail::make_large_array<std::uint8_t>(static_cast<std::size_t>(w_) * h_ *
                                                                   sample_bytes_);
        }
    }

    void extract(const Picture& ref, const Picture& /*dis*/, unsigned frame,
                 FeatureSink& sink) override {
        if (ref.width != w_ || ref.height != h_ || ref.bpc != bpc_)
            throw Error("motion: picture geometry differs from the one the extractor was made for");
        double score = 0.0;
        if (!force_zero_) {
            Stored& slot = free_slot();
            if (frame >= first_)
                score = motion_against(ref.luma(), frame - first_, frame, slot);
            else if (!from_store_)
                remember(ref.luma(), slot);
            slot.frame = frame;
        }
        record(frame, score);
        sink.append(sad_key_, frame, score);
        if (debug_) sink.append(motion_key_, frame, score);
    }

    void flush(FeatureSink& sink) override {
        if (flushed_) return;
        flushed_ = true;
        // libvmaf scores the frames 0..n-1 that have a SAD score, n being the
        // first frame without one.
        unsigned n = 0;
        while (sad(n)) ++n;
        if (n == 0) return;

        const unsigned stride = five_frame_ ? 2u : 1u;
        double stamp = 0.0;
        if (n > first_)
            if (const auto s = sad(first_))
                stamp = cap(blend(*s, blend_factor_, blend_offset_), max_val_);

        double prev_processed = 0.0;
        for (unsigned i = 0; i < n; ++i) {
            double motion2 = 0.0;
            if (i >= first_) {
                const int lo_idx = static_cast<int>(i) - static_cast<int>(stride - 1);
                const auto hi = sad(i + 1);
                if (!hi)
                    motion2 = *sad(i);
                else if (lo_idx >= static_cast<int>(first_)) {
                    const double lo = *sad(static_cast<unsigned>(lo_idx));
                    motion2 = lo < *hi ? lo : *hi;
                } else
                    motion2 = *hi;
            }
            sink.append(motion2_key_, i, motion2);

            double motion3 = stamp;
            if (i < first_) {
                prev_processed = stamp;
            } else {
                const double processed =
                    cap(blend(motion2, blend_factor_, blend_offset_), max_val_);
                motion3 = moving_average_ ? (processed + prev_processed) / 2.0 : processed;
                prev_processed = processed;
            }
            sink.append(motion3_key_, i, motion3);
        }
    }

private:
    struct Stored {
        // w x h luma, rows w samples apart
        std::unique_ptr<std::uint8_t[], detail::LargeFree> samples;
        std::optional<unsigned> frame;
    };

    // The capped, fps-weighted mean absolute filtered difference between the
    // stored reference frame `past` and the current one, which the kernel
    // copies into `keep` on the way.
    double motion_against(const Plane& cur, unsigned past, unsigned frame, Stored& keep) {
        const Stored* prev = nullptr;
        for (const auto& h : history_)
            if (h.frame == past) prev = &h;
        if (!prev)
            throw Error("motion: frame " + std::to_string(frame) + " arrived without frame " +
                        std::to_string(past) + "; it needs every frame, in order");
        const std::uint64_t sad = from_store_ ? device_->sad_of_frames(past, frame)
                                  : bpc_ == 8 ? sum_abs<std::uint8_t>(*prev, cur, keep)
                                              : sum_abs<std::uint16_t>(*prev, cur, keep);
        // libvmaf: (double)sad / 256. / (w * h) * fps_weight, the pixel count
        // an unsigned int product, then capped at motion_max_val.
        const unsigned pixels = static_cast<unsigned>(w_) * static_cast<unsigned>(h_);
        return cap(static_cast<double>(sad) / 256. / pixels * fps_weight_, max_val_);
    }

    template <class T>
    std::uint64_t sum_abs(const Stored& prev, const Plane& cur_plane, Stored& keep) {
        const T* past = reinterpret_cast<const T*>(prev.samples.get());
        T* kept = reinterpret_cast<T*>(keep.samples.get());
        const T* cur = cur_plane.row<T>(0);
        if (device_) {
            const std::uint64_t sad = device_->sad(past, std::ptrdiff_t{w_} * std::ptrdiff_t{sizeof(T)},
                                                   cur, cur_plane.stride());
            remember(cur_plane, keep);
            return sad;
        }
        const std::ptrdiff_t cur_stride = cur_plane.stride() / std::ptrdiff_t{sizeof(T)};
        if constexpr (sizeof(T) == 1)
            return kernels_->sad_u8(past, w_, cur, cur_stride, w_, h_, kept, scratch_.data());
        else
            return kernels_->sad_u16(past, w_, cur, cur_stride, w_, h_, bpc_, kept,
                                     scratch_.data());
    }

    // An empty slot, else the one with the oldest frame (never the one
    // motion_against reads).
    Stored& free_slot() {
        Stored* slot = &history_[0];
        for (auto& h : history_)
            if (!h.frame || (slot->frame && *h.frame < *slot->frame)) slot = &h;
        return *slot;
    }

    // Keeps a reference luma that is not scored (the first frame or two).
    void remember(const Plane& luma, Stored& slot) {
        const std::size_t row_bytes = static_cast<std::size_t>(w_) * sample_bytes_;
        for (int y = 0; y < h_; ++y)
            std::memcpy(slot.samples.get() + y * row_bytes, luma.row<std::uint8_t>(y), row_bytes);
    }

    void record(unsigned frame, double score) {
        if (frame >= sad_.size()) sad_.resize(std::max<std::size_t>(frame + 1, 2 * sad_.size()));
        sad_[frame] = score;
    }

    std::optional<double> sad(unsigned frame) const {
        if (frame >= sad_.size()) return std::nullopt;
        return sad_[frame];
    }

    const motion::MotionKernels* kernels_;
    std::unique_ptr<motion::MotionTwin> device_;
    bool from_store_ = false;
    int w_, h_, bpc_;
    int sample_bytes_ = 1;
    bool force_zero_;
    double blend_factor_, blend_offset_, fps_weight_, max_val_;
    bool five_frame_, moving_average_, debug_;
    unsigned first_;
    std::string sad_key_, motion_key_, motion2_key_, motion3_key_;

    std::vector<std::int32_t> scratch_;
    std::vector<Stored> history_;
    std::vector<std::optional<double>> sad_;
    bool flushed_ = false;
};

}  // namespace

std::vector<OptionSpec> motion::integer_motion_options() { return motion_table().specs(); }

FeatureInfo integer_motion_info() {
    FeatureInfo info =
        extractor_info<IntegerMotion>("motion", motion_table().specs(),
                                      {{"VMAF_integer_feature_motion_sad_score", ""},
                                       {"VMAF_integer_feature_motion_score", "integer_motion"},
                                       {"VMAF_integer_feature_motion2_score", "integer_motion2"},
                                       {"VMAF_integer_feature_motion3_score", "integer_motion3"}},
                                      /*temporal=*/true);
    info.device_twins = {std::string(motion::MotionTwin::kind)};
    // motion2[i] takes sad[i + 1] (one frame after) and, from `first` on,
    // sad[i - stride + 1]: sad[i] (frames i-1, i) or, with the five-frame
    // window, sad[i - 1] (frames i-3, i-1), which must also be at least
    // `first` frames into the run to be taken, as in the whole run: 1 or 3
    // frames before. The moving average adds the previous frame's motion2.
    // The flush's stamp, sad[first], serves the frames below `first` (and
    // frame `first`'s moving average): a range starting there reads from
    // frame 0, and up to frame `first`, so `first` frames after.
    info.context = [](const OptionValues& o) {
        const MotionParams p = motion_table().read(o);
        const bool five = p.five_frame;
        FrameContext c;
        c.before = (five ? 3u : 1u) + (p.moving_average ? 1u : 0u);
        c.after = five ? 2u : 1u;
        return c;
    };
    return info;
}

}  // namespace vmafpp
