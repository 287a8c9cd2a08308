// Integer motion's ("motion") option specs, in libvmaf's order; float motion
// takes the ones libvmaf declares identically for both from here.
#pragma once

#include <vector>

#include "vmafpp/options.hpp"

namespace vmafpp::motion {

std::vector<OptionSpec> integer_motion_options();

}  // namespace vmafpp::motion
