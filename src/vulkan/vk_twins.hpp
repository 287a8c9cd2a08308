// The device twins of the integer extractors' kernels on the Vulkan
// backend, behind interfaces without Vulkan types (the extractors include
// this header only when VMAFPP_HAVE_VULKAN is set). A twin returns exactly
// the integers of the scalar kernels; the extractor keeps its own double
// finalisation, so the scores are the scalar's bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "adm/adm.hpp"

namespace vmafpp::vk {

// Seconds spent per stage since the twin was made (bench/vulkan_bench).
struct TwinTimes {
    double upload = 0;    // copying the pictures into the mapped buffers
    double compute = 0;   // recording, submission and the wait for the fence
    double readback = 0;  // reading results out of the mapped buffers
    unsigned frames = 0;
};

// motion_sad_u8 / motion_sad_u16 of a w x h pair (prev, cur; strides in
// bytes; `bpc` 8 reads bytes, 9..16 reads uint16 samples).
class MotionTwin {
public:
    virtual ~MotionTwin() = default;
    virtual std::uint64_t sad(const void* prev, std::ptrdiff_t prev_stride, const void* cur,
                              std::ptrdiff_t cur_stride) = 0;
    TwinTimes times;
};
std::unique_ptr<MotionTwin> make_motion_twin(unsigned device, int w, int h, int bpc);

// The integer stages of integer VIF for a w x h picture pair: per scale,
// the statistics sigma1_sq, sigma2_sq, sigma12 of every sample (what
// vif_stat_row_* give the extractor row by row) and the reductions between
// scales. The host then runs vif_accumulate on the rows (its per-sample
// double arithmetic stays on the CPU: no Float64 on the device).
class VifTwin {
public:
    virtual ~VifTwin() = default;
    // Strides in bytes. Scale 0's statistics are skipped when asked.
    virtual void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
                     std::ptrdiff_t dis_stride, bool skip_scale0) = 0;
    // After run(): the three planes of scale s, each w_s * h_s int32, rows
    // w_s apart, in the order sigma1_sq, sigma2_sq, sigma12.
    virtual const std::int32_t* sigma(int s) const = 0;
    TwinTimes times;
};
std::unique_ptr<VifTwin> make_vif_twin(unsigned device, int w, int h, int bpc);

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
std::unique_ptr<AdmTwin> make_adm_twin(unsigned device, int w, int h, int bpc,
                                       const adm::AdmDeviceParams scales[adm::kScales],
                                       double gain_limit, bool skip_scale0, bool skip_aim);

// Whether the extractor named `feature` runs on the Vulkan device.
bool has_device_twin(std::string_view feature);
// Writes "vmafpp: <feature> has no vulkan twin; it runs on the CPU" to
// stderr, once per feature and process.
void note_cpu_fallback(std::string_view feature);

// The gain-limit product adm_gain_limit_product() on the device, for the
// test that sweeps it against the double product: out[i] =
// trunc(fl(rst[i] * gain)) with the limit given as m * 2^-s
// (adm::gain_limit_fixed).
void gain_products_on_device(unsigned device, const std::int32_t* rst, std::size_t n,
                             std::uint64_t m, int s, std::int64_t* out);

}  // namespace vmafpp::vk
