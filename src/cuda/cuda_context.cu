// The CUDA backend's device list (cuda_twins.hpp: device_count,
// describe_devices).
#include "cuda/cuda_context.cuh"

namespace vmafpp::cuda {

int device_count() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorNoDevice) {
        cudaGetLastError();
        return 0;
    }
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw Error("--backend cuda: no CUDA device (" + reason(e) + ")");
    }
    return n;
}

std::string describe_devices() {
    const int n = device_count();
    if (n == 0) throw Error("--backend cuda: no CUDA device (the driver reports none)");
    std::string out;
    for (int i = 0; i < n; ++i) {
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, i), "cudaGetDeviceProperties");
        out += std::to_string(i) + ": " + prop.name + " (compute capability " +
               std::to_string(prop.major) + "." + std::to_string(prop.minor) + ", " +
               std::to_string(prop.totalGlobalMem >> 20) + " MiB)\n";
    }
    return out;
}

}  // namespace vmafpp::cuda
