#include "vmafpp/compute.hpp"

namespace vmafpp {

// The backends themselves (backend_name, parse_backend, resolve_compute)
// are the registry's: src/device/backend_registry.cpp.
Compute Compute::best_cpu() {
    Compute c;
    c.simd = simd_level(0);
    return c;
}

}  // namespace vmafpp
