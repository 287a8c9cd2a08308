// CAMBI's device twin on Vulkan (cambi::CambiTwin, src/cambi/cambi_twin.hpp).
#pragma once

#include <memory>

#include "cambi/cambi_twin.hpp"

namespace vmafpp::vk {

std::unique_ptr<cambi::CambiTwin> make_cambi_twin(unsigned device, int alloc_w, int alloc_h,
                                                   const cambi::ContrastSetup& setup);

}  // namespace vmafpp::vk
