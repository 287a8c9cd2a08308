// Integer VIF's device twin: the interface a device backend implements
// (src/vulkan/, src/cuda/) and registers under `kind`
// (device::BackendInfo::add_twin); the extractor asks for it with
// device::make_twin<vif::VifTwin>. It returns exactly the integers of the
// scalar kernels; the extractor keeps its double finalisation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "device/backend.hpp"
#include "vif/vif_kernels.hpp"

namespace vmafpp::vif {

// The integer stages of integer VIF for a w x h picture pair: per scale,
// the statistics sigma1_sq, sigma2_sq, sigma12 of every sample (what
// vif_stat_row_* give the extractor row by row) and the reductions between
// scales. The host then runs vif_accumulate on the rows, unless the twin
// accumulates on the device (sums()).
class VifTwin {
public:
    static constexpr std::string_view kind = "vif";
    // `accumulate_gain_limit`: vif_enhn_gain_limit, for a twin that
    // accumulates on the device (sums()); a backend may ignore it, and
    // without it every twin returns sigma().
    using Factory = std::function<std::unique_ptr<VifTwin>(
        const Compute& compute, int w, int h, int bpc, std::optional<double> accumulate_gain_limit)>;

    virtual ~VifTwin() = default;
    // Strides in bytes. Scale 0's statistics are skipped when asked.
    virtual void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
                     std::ptrdiff_t dis_stride, bool skip_scale0) = 0;
    // The same on frame `frame` of the session's FrameStore.
    virtual void run_frame(unsigned /*frame*/, bool /*skip_scale0*/) { device::no_frame_store("vif"); }
    // After run(): the three planes of scale s, each w_s * h_s int32, rows
    // w_s apart, in the order sigma1_sq, sigma2_sq, sigma12.
    virtual const std::int32_t* sigma(int s) const = 0;
    // A twin made with a gain limit to accumulate with may compute
    // vif_accumulate's sums of every scale on the device: then, after run(),
    // this writes scale s's sums and returns true, and sigma() is not read
    // back (it may return nullptr). false: the host accumulates sigma().
    virtual bool sums(int s, VifSums* out) const {
        (void)s, (void)out;
        return false;
    }
    device::TwinTimes times;
};

}  // namespace vmafpp::vif
