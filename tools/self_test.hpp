// vmafpp --self-test: every device twin of a backend against the CPU scalar
// kernels on built-in synthetic pictures (tools/self_test.cpp).
#pragma once

#include <cstdio>

#include "vmafpp/compute.hpp"

namespace vmafpp_cli {

// Scores each feature that has a twin on `compute.backend` (found by asking
// for a --device_only session of every registered feature), and the models
// whose features all have twins, on the device and on the CPU at the
// scalar level, and compares every value bit for bit. Writes one line per
// twin to `out` ("vulkan motion: ok (18 values)" or "...: MISMATCH ...") and
// returns 0 when all match, 1 otherwise (also when the backend has no
// device or no twin at all).
int self_test(const vmafpp::ComputeConfig& compute, std::FILE* out);

}  // namespace vmafpp_cli
