// Whether this CPU computes libvmaf's float ADM the way the goldens' machine did.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace vmafpp::test {

// float_adm divides with rcpss plus one Newton step, as libvmaf does on x86.
// rcpss is a CPU-specific table: Intel and AMD return different bits, so
// libvmaf's own float ADM values depend on the CPU. A fingerprint of rcpss
// (a hash of its results over a grid of arguments) names the table.
inline std::uint64_t rcp_fingerprint() {
#if defined(__x86_64__)
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint32_t m = 0; m < (1u << 23); m += 37)
        for (std::uint32_t e : {100u, 127u, 150u}) {
            const std::uint32_t bits = (e << 23) | m;
            float x;
            std::memcpy(&x, &bits, 4);
            const float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
            std::uint32_t rb;
            std::memcpy(&rb, &r, 4);
            h = (h ^ rb) * 1099511628211ull;
        }
    return h;
#else
    return 0;
#endif
}

// features_float.json comes from an AMD EPYC (this fingerprint reproduces
// its float ADM values); features_float.intel.json is libvmaf 3.2.0's same
// run on an Intel Xeon (Sapphire Rapids), made by
// tests/corpus/tools/float_adm_rcp_goldens.py: its other keys equal
// features_float.json's, which the tool checks.
inline bool rcp_matches_golden_cpu() { return rcp_fingerprint() == 0xcff014a4ce1aae03ull; }
inline bool rcp_matches_intel_golden() { return rcp_fingerprint() == 0x91e0fabaef32de03ull; }

// The golden file whose float ADM keys this CPU must reproduce: the AMD
// machine's features_float.json, the Intel one, or none (another rcpss
// table: the float ADM keys are not comparable with any golden here).
inline std::string float_adm_golden_file() {
    if (rcp_matches_golden_cpu()) return "features_float.json";
    if (rcp_matches_intel_golden()) return "features_float.intel.json";
    return "";
}

// The keys float_adm writes (features_float.json and the float models' goldens).
inline const std::vector<std::string>& float_adm_keys() {
    static const std::vector<std::string> keys = {"adm2",       "aim",        "adm3",
                                                  "adm_scale0", "adm_scale1", "adm_scale2",
                                                  "adm_scale3"};
    return keys;
}

}  // namespace vmafpp::test
