// Integer ADM's ("adm") option specs, in libvmaf's order; float ADM takes the
// ones libvmaf declares identically for both from here.
#pragma once

#include <vector>

#include "adm/adm.hpp"
#include "vmafpp/options.hpp"

namespace vmafpp::adm {

std::vector<OptionSpec> integer_adm_options();
// The engine options of integer ADM's option defaults.
AdmOptions default_adm_options();

}  // namespace vmafpp::adm
