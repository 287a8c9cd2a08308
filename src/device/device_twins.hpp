// The device twins of the integer extractors' kernels, behind interfaces
// without any backend's types: the Vulkan backend (src/vulkan/vk_twins.*)
// and the CUDA backend (src/cuda/cuda_twins.*) implement them, and the
// extractors ask make_*_twin() for the one their session's Compute names
// (nullptr on the CPU backend). A twin returns exactly the integers of the
// scalar kernels; the extractor keeps its own double finalisation, so the
// scores are the scalar's bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "adm/adm.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp::device {

// A session's device copies of the luma planes of its recent frames, so that
// each picture pair is uploaded once per frame whatever the number of twins.
// The frame pipeline puts every frame, in order, on its reading thread before
// any extractor sees it; the twins of the session read them by frame number
// (MotionTwin::sad_of_frames, VifTwin::run_frame, AdmTwin::run_frame). It
// keeps the last `slots` frames: the pipeline sizes it so that a frame is
// overwritten only after every extractor is done with it (the frames in
// flight plus motion's two frames of history). Uploads of frame n + 1 run
// while the workers compute frame n.
class FrameStore {
public:
    virtual ~FrameStore() = default;
    // The luma planes of frame `frame`'s reference and distorted pictures.
    virtual void put(unsigned frame, const Picture& ref, const Picture& dis) = 0;
};

// Seconds spent per stage since the twin was made (the device benchmarks).
struct TwinTimes {
    double upload = 0;    // copying the pictures to the device
    double compute = 0;   // launching the kernels and waiting for them
    double readback = 0;  // copying the results back and reading them
    unsigned frames = 0;
};

// motion_sad_u8 / motion_sad_u16 of a w x h pair (prev, cur; strides in
// bytes; `bpc` 8 reads bytes, 9..16 reads uint16 samples).
class MotionTwin {
public:
    virtual ~MotionTwin() = default;
    virtual std::uint64_t sad(const void* prev, std::ptrdiff_t prev_stride, const void* cur,
                              std::ptrdiff_t cur_stride) = 0;
    // The same on the reference lumas of two frames of the session's
    // FrameStore (a twin made with one).
    virtual std::uint64_t sad_of_frames(unsigned prev, unsigned cur);
    TwinTimes times;
};

// The integer stages of integer VIF for a w x h picture pair: per scale,
// the statistics sigma1_sq, sigma2_sq, sigma12 of every sample (what
// vif_stat_row_* give the extractor row by row) and the reductions between
// scales. The host then runs vif_accumulate on the rows, unless the twin
// accumulates on the device (sums()).
class VifTwin {
public:
    virtual ~VifTwin() = default;
    // Strides in bytes. Scale 0's statistics are skipped when asked.
    virtual void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
                     std::ptrdiff_t dis_stride, bool skip_scale0) = 0;
    // The same on frame `frame` of the session's FrameStore.
    virtual void run_frame(unsigned frame, bool skip_scale0);
    // After run(): the three planes of scale s, each w_s * h_s int32, rows
    // w_s apart, in the order sigma1_sq, sigma2_sq, sigma12.
    virtual const std::int32_t* sigma(int s) const = 0;
    // A twin made with a gain limit to accumulate with may compute
    // vif_accumulate's sums of every scale on the device: then, after run(),
    // this writes scale s's sums and returns true, and sigma() is not read
    // back (it may return nullptr). false: the host accumulates sigma().
    virtual bool sums(int s, vif::VifSums* out) const {
        (void)s, (void)out;
        return false;
    }
    TwinTimes times;
};

// Integer ADM's integer stages for a w x h picture pair: per scale the DWT
// of both pictures, the decoupling (angle test, ratio, gain limit), and the
// pooling region's raw row sums of the denominator and of the DLM and AIM
// masking, which AdmEngine::compute_from_rows folds and finalises on the
// host exactly as its own kernels' sums. `scales` holds
// AdmEngine::device_params(s) of each scale.
class AdmTwin {
public:
    virtual ~AdmTwin() = default;
    virtual void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
                     std::ptrdiff_t dis_stride) = 0;
    // The same on frame `frame` of the session's FrameStore.
    virtual void run_frame(unsigned frame);
    // After run(): scale s's rows, [den, dlm, aim][h, v, d][region row].
    virtual const std::int64_t* rows(int s) const = 0;
    // For the kernel harness: the stages after the DWT (decouple, masking,
    // denominator) of scale s on given reference and distorted h, v, d
    // bands (band-sized, rows bw apart; int16 values at scale 0); rows(s)
    // then holds their row sums.
    virtual void run_on_bands(int s, const std::int32_t* const ref_hvd[3],
                              const std::int32_t* const dis_hvd[3]) = 0;
    TwinTimes times;
};

// The frame store of a session on `compute`'s device backend holding `slots`
// frames of `geometry` (vk::make_frame_store, cuda::make_frame_store), or
// nullptr on the CPU.
std::shared_ptr<FrameStore> make_frame_store(const Compute& compute, const FrameGeometry& geometry,
                                             unsigned slots);

// The twin of `compute`'s backend and device, or nullptr on the CPU. A twin
// made with compute.frames reads its pictures from that store
// (sad_of_frames, run_frame).
std::unique_ptr<MotionTwin> make_motion_twin(const Compute& compute, int w, int h, int bpc);
// `accumulate_gain_limit`: vif_enhn_gain_limit, for a twin that accumulates
// on the device (sums()); without it every twin returns sigma().
std::unique_ptr<VifTwin> make_vif_twin(const Compute& compute, int w, int h, int bpc,
                                       std::optional<double> accumulate_gain_limit = std::nullopt);
std::unique_ptr<AdmTwin> make_adm_twin(const Compute& compute, int w, int h, int bpc,
                                       const adm::AdmDeviceParams scales[adm::kScales],
                                       double gain_limit, bool skip_scale0, bool skip_aim);

// Whether the extractor `feature` (libvmaf's name) has device twins that
// read the session's FrameStore (motion, vif and adm, on every device
// backend); and whether it has a twin on `backend` (those, and the twins
// of device/feature_twins.hpp: SpEED's and CAMBI's, which upload their own
// planes).
bool has_twin(std::string_view feature);
bool has_twin(Backend backend, std::string_view feature);

// When `compute` names a device backend and the extractor `feature` has no
// twin there: with compute.device_only throws the one-line vmafpp::Error
// "--device_only: <feature> has no <backend> twin ...", else notes once per
// feature and process on stderr that it runs on the CPU.
void place_on_cpu_or_refuse(const Compute& compute, std::string_view feature);

}  // namespace vmafpp::device
