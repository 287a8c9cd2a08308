// Integer motion's device twin: the interface a device backend implements
// (src/vulkan/, src/cuda/) and registers under `kind`
// (device::BackendInfo::add_twin); the extractor asks for it with
// device::make_twin<motion::MotionTwin>. It returns exactly the scalar
// kernel's SAD; the extractor keeps the history and the scores on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "device/backend.hpp"

namespace vmafpp::motion {

// motion_sad_u8 / motion_sad_u16 of a w x h pair (prev, cur; strides in
// bytes; `bpc` 8 reads bytes, 9..16 reads uint16 samples).
class MotionTwin {
public:
    static constexpr std::string_view kind = "motion";
    // Made for compute's device (and its frame store, compute.frames).
    using Factory =
        std::function<std::unique_ptr<MotionTwin>(const Compute& compute, int w, int h, int bpc)>;

    virtual ~MotionTwin() = default;
    virtual std::uint64_t sad(const void* prev, std::ptrdiff_t prev_stride, const void* cur,
                              std::ptrdiff_t cur_stride) = 0;
    // The same on the reference lumas of two frames of the session's
    // FrameStore (a twin made with one).
    virtual std::uint64_t sad_of_frames(unsigned /*prev*/, unsigned /*cur*/) {
        device::no_frame_store("motion");
    }
    device::TwinTimes times;
};

}  // namespace vmafpp::motion
