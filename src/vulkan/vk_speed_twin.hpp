// SpEED's device twin on Vulkan (speed::SpeedTwin, src/speed/speed_twin.hpp).
#pragma once

#include <memory>

#include "speed/speed_twin.hpp"

namespace vmafpp::vk {

// The twin for `gsm`'s geometry and options (any prescale method:
// nearest, bilinear, bicubic, lanczos4); `difference`: speed_temporal's a - b.
std::unique_ptr<speed::SpeedTwin> make_speed_twin(unsigned device, const speed::Gsm& gsm,
                                                   bool difference);

}  // namespace vmafpp::vk
