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
// libvmaf's own float ADM values depend on the CPU. The goldens come from an
// AMD EPYC; this fingerprint of rcpss (recorded on the AMD EPYC these tests
// were written on, whose values reproduce the goldens) tells whether this CPU
// is of the same kind. When it is not, the float ADM keys are not comparable
// with the goldens (every other key still is).
inline bool rcp_matches_golden_cpu() {
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
    return h == 0xcff014a4ce1aae03ull;
#else
    return false;
#endif
}

// The keys float_adm writes (features_float.json and the float models' goldens).
inline const std::vector<std::string>& float_adm_keys() {
    static const std::vector<std::string> keys = {"adm2",       "aim",        "adm3",
                                                  "adm_scale0", "adm_scale1", "adm_scale2",
                                                  "adm_scale3"};
    return keys;
}

}  // namespace vmafpp::test
