// Where a scoring session computes: the backend, its device, and the CPU's
// SIMD level. Chosen once per session (ScoreConfig::compute) and handed to
// every extractor's create(); nothing process-wide is changed, so two
// sessions in one process may run with different choices at the same time.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "vmafpp/cpu.hpp"
#include "vmafpp/export.hpp"

namespace vmafpp {

namespace device {
class FrameStore;  // src/device/backend.hpp
}

// A compute backend. A device backend runs the extractors that have device
// twins on that device and the others on the CPU; only the backends listed
// by built_backends() can be chosen. The values named here are the built-in
// backends' (src/device/backend_list.cpp); a backend registered later
// (a test's) takes a further value.
enum class Backend : unsigned { cpu, vulkan, cuda };

// "cpu", "vulkan", "cuda", or a registered backend's name.
VMAFPP_API const char* backend_name(Backend backend);
// Throws vmafpp::Error for an unknown name or a backend this build lacks,
// naming the ones it has.
VMAFPP_API Backend parse_backend(std::string_view name);
// The backends this build can run, cpu first.
VMAFPP_API std::vector<Backend> built_backends();

// One line per device of a device backend ("<index>: <name> (<type>, ...)"),
// the --device index first. Throws vmafpp::Error when the backend is not
// built or its driver cannot be loaded.
VMAFPP_API std::string describe_devices(Backend backend);

// A session's request, in libvmaf's terms.
struct ComputeConfig {
    Backend backend = Backend::cpu;
    // libvmaf --cpumask: a set bit disables that SIMD level (vmafpp::CpuFlag);
    // the VMAFPP_CPUMASK environment variable disables more.
    unsigned cpumask = 0;
    // libvmaf --gpumask: any set bit keeps every extractor off the GPU (libvmaf
    // then scores on the CPU), whatever `backend` asks for.
    unsigned gpumask = 0;
    // Which device of a device backend (0 = the first).
    unsigned device = 0;
    // Refuse instead of falling back: every extractor of the session must
    // have a twin on `backend` (an extractor without one is an Error when the
    // session is made, not a CPU run with a note), and a request that
    // resolves to the CPU (backend cpu, a non-zero gpumask) is an Error.
    bool device_only = false;
};

// The resolved choice every extractor of a session is created with.
struct VMAFPP_API Compute {
    Backend backend = Backend::cpu;
    unsigned device = 0;
    // The SIMD level CPU kernels run at: the best level with kernels that
    // the CPU, the session's cpumask and VMAFPP_CPUMASK allow.
    SimdLevel simd = SimdLevel::scalar;
    // ComputeConfig::device_only: an extractor without a twin on `backend`
    // refuses to be made.
    bool device_only = false;
    // Set by a device session's frame pipeline (internal): the device copies
    // of each frame's luma, uploaded once per frame and read by every twin of
    // the session. nullptr: each twin uploads the pictures it is given.
    std::shared_ptr<device::FrameStore> frames;

    // The CPU backend at the best level this machine allows (cpumask 0).
    static Compute best_cpu();
};

// Resolves a request: the SIMD level from the cpumask, the backend unless
// gpumask forbids the GPU. Throws vmafpp::Error for a backend this build
// lacks, and for device_only with the CPU backend or a non-zero gpumask.
VMAFPP_API Compute resolve_compute(const ComputeConfig& config);

}  // namespace vmafpp
