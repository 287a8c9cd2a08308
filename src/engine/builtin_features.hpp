// One factory per built-in extractor; each lives in its feature's folder.
#pragma once

#include "vmafpp/feature.hpp"

namespace vmafpp {

// Add a line here and to feature_registry() when a feature folder lands.
FeatureInfo integer_adm_info();     // src/adm
FeatureInfo integer_vif_info();     // src/vif
FeatureInfo integer_motion_info();  // src/motion
FeatureInfo float_adm_info();       // src/float_adm
FeatureInfo float_vif_info();       // src/float_vif
FeatureInfo float_motion_info();    // src/float_motion
FeatureInfo float_psnr_info();      // src/psnr
FeatureInfo float_ansnr_info();     // src/ansnr
FeatureInfo float_moment_info();    // src/moment
FeatureInfo integer_psnr_info();    // src/psnr ("psnr")

}  // namespace vmafpp
