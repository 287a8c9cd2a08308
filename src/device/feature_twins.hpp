// The twins of the extractors that upload their own planes (SpEED reads
// chroma and the previous frame, CAMBI its own resized luma): which backend
// has them, and the factories their extractors call. Their interfaces sit
// beside the features (src/speed/speed_twin.hpp, src/cambi/cambi_twin.hpp).
#pragma once

#include <string_view>

#include "vmafpp/compute.hpp"

namespace vmafpp::device {

// speed_chroma, speed_temporal, cambi.
bool is_feature_twin(std::string_view feature);
// Whether `backend` computes that feature on the device (Vulkan).
bool has_feature_twin(Backend backend, std::string_view feature);

}  // namespace vmafpp::device
