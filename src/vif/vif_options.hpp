// Integer VIF's ("vif") option specs, in libvmaf's order; float VIF takes the
// ones libvmaf declares identically for both from here.
#pragma once

#include <vector>

#include "vmafpp/options.hpp"

namespace vmafpp::vif {

std::vector<OptionSpec> integer_vif_options();

}  // namespace vmafpp::vif
