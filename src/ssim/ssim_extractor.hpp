// What float_ssim and float_ms_ssim hold alike: the shared float lumas, the
// keys, the kernels of the session's level and the options that shape what
// they write (enable_lcs; enable_db, clipped at clip_db's ceiling).
#pragma once

#include <string>
#include <vector>

#include "ssim/float_lumas.hpp"
#include "ssim/ssim_db.hpp"
#include "ssim/ssim_kernels.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::ssim {

class SsimExtractor : public FeatureExtractor, public FloatLumas {
protected:
    SsimExtractor(const ExtractorSetup& s, const SsimParams& p)
        : FloatLumas(s.geometry.width, s.geometry.height, s.geometry.bpc),
          keys_(s.keys),
          k_(ssim_kernels_for(s.compute.simd)),
          enable_lcs_(p.enable_lcs),
          enable_db_(p.enable_db),
          max_db_(max_db(p.clip_db, s.geometry.bpc, s.geometry.width, s.geometry.height)) {}

    // The first value either writes: `score`, in dB with enable_db.
    double scored(double score) const { return enable_db_ ? to_db(score, max_db_) : score; }

    std::vector<std::string> keys_;  // in the extractor's provided order
    const SsimKernels& k_;
    bool enable_lcs_;

private:
    bool enable_db_;
    double max_db_;
};

}  // namespace vmafpp::ssim
