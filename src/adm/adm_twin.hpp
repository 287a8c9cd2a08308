// Integer ADM's device twin: the interface a device backend implements
// (src/vulkan/, src/cuda/) and registers under `kind`
// (device::BackendInfo::add_twin); the extractor asks for it with
// device::make_twin<adm::AdmTwin>. It returns exactly the integers of the
// scalar kernels; AdmEngine finalises them on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "adm/adm.hpp"
#include "adm/adm_shared.h"
#include "device/backend.hpp"

namespace vmafpp::adm {

// Integer ADM's integer stages for a w x h picture pair: per scale the DWT
// of both pictures, the decoupling (angle test, ratio, gain limit), and the
// pooling region's raw row sums of the denominator and of the DLM and AIM
// masking, which AdmEngine::compute_from_rows folds and finalises on the
// host exactly as its own kernels' sums.
// Scale s's pooling parameters as the device kernels take them.
inline AdmPoolPush pool_push(const AdmDeviceParams& q, int s) {
    AdmPoolPush p{};
    p.w = q.bw, p.h = q.bh, p.x0 = q.region.x0, p.x1 = q.region.x1, p.y0 = q.region.y0,
    p.y1 = q.region.y1, p.scale = s;
    for (int t = 0; t < 3; ++t) {
        p.rfactor[t] = q.rfactor[t];
        p.sub[t] = q.shifts[t].sub;
        p.sq[t] = q.shifts[t].sq;
        p.cub[t] = q.shifts[t].cub;
    }
    p.den_sq = q.den_sq;
    p.den_cub = q.den_cub;
    return p;
}

class AdmTwin {
public:
    static constexpr std::string_view kind = "adm";
    // `scales`: kScales entries, AdmEngine::device_params(s) of each scale.
    using Factory = std::function<std::unique_ptr<AdmTwin>(
        const Compute& compute, int w, int h, int bpc, const AdmDeviceParams* scales,
        double gain_limit, bool skip_scale0, bool skip_aim)>;

    virtual ~AdmTwin() = default;
    virtual void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
                     std::ptrdiff_t dis_stride) = 0;
    // The same on frame `frame` of the session's FrameStore.
    virtual void run_frame(unsigned /*frame*/) { device::no_frame_store("adm"); }
    // After run(): scale s's rows, [den, dlm, aim][h, v, d][region row].
    virtual const std::int64_t* rows(int s) const = 0;
    // For the kernel harness: the stages after the DWT (decouple, masking,
    // denominator) of scale s on given reference and distorted h, v, d
    // bands (band-sized, rows bw apart; int16 values at scale 0); rows(s)
    // then holds their row sums.
    virtual void run_on_bands(int s, const std::int32_t* const ref_hvd[3],
                              const std::int32_t* const dis_hvd[3]) = 0;
    device::TwinTimes times;
};

}  // namespace vmafpp::adm
