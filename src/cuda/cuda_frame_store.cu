// The CUDA backend's frame store: make_frame_store and the upload-delay test
// knob (the class and its ordering argument: cuda_frame_store.cuh).
#include "cuda/cuda_frame_store.cuh"

#include <cstdlib>

namespace vmafpp::cuda {

// The test knob VMAFPP_CUDA_UPLOAD_DELAY_US: microseconds the upload stream
// idles before each frame's copy (0: none). A twin that did not wait for
// the upload of the frame it reads would then read the slot's previous
// frame, and the device tests would see it (CudaFrameStore.*).
unsigned upload_delay_us() {
    const char* v = std::getenv("VMAFPP_CUDA_UPLOAD_DELAY_US");
    return v ? static_cast<unsigned>(std::strtoul(v, nullptr, 10)) : 0u;
}

namespace {

__global__ void idle_for(unsigned us) {
    for (unsigned i = 0; i < us; ++i) __nanosleep(1000);
}

}  // namespace

void idle_on(cudaStream_t stream, unsigned us) {
    idle_for<<<1, 1, 0, stream>>>(us);
    check(cudaGetLastError(), "the upload delay");
}

std::shared_ptr<device::FrameStore> make_frame_store(unsigned device, const FrameGeometry& g,
                                                     unsigned slots) {
    return std::make_shared<CudaFrameStore>(device, g.width, g.height, g.bpc, slots);
}

}  // namespace vmafpp::cuda
