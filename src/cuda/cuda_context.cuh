// The CUDA backend's runtime layer, what its frame store and twins share
// (as vk_context.hpp is the Vulkan one's): error checks, device choice,
// owned device and pinned arrays, streams and events, the layout of a
// picture pair in device memory and a twin's own upload, and the block
// reduction the kernels end with. Included only by the backend's .cu files.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "cuda/cuda_twins.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::cuda {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

inline std::string reason(cudaError_t e) {
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

inline void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    cudaGetLastError();  // clears a non-sticky error
    if (e == cudaErrorMemoryAllocation)
        throw Error(std::string("cuda: out of memory during ") + what);
    throw Error(std::string("cuda: ") + what + " failed (" + reason(e) + ")");
}

// Makes `index` the calling thread's device, or says why it cannot be.
inline void select_device(unsigned index) {
    const int n = device_count();
    if (n == 0) throw Error("--backend cuda: no CUDA device (the driver reports none)");
    if (index >= static_cast<unsigned>(n))
        throw Error("--backend cuda: no device " + std::to_string(index) + " (found " +
                    std::to_string(n) + "; --list-devices lists them)");
    check(cudaSetDevice(static_cast<int>(index)), "cudaSetDevice");
}

// Where a CudaArray lives: device memory, or pinned (page-locked) host
// memory, which asynchronous copies move at full bus speed.
struct DeviceMemory {
    static constexpr const char* kAlloc = "cudaMalloc";
    static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMalloc(p, bytes); }
    static void release(void* p) { cudaFree(p); }
};
struct PinnedMemory {
    static constexpr const char* kAlloc = "cudaMallocHost";
    static cudaError_t allocate(void** p, std::size_t bytes) { return cudaMallocHost(p, bytes); }
    static void release(void* p) { cudaFreeHost(p); }
};

// n elements of T in `Memory`, owned (movable, not copyable).
template <class T, class Memory>
class CudaArray {
public:
    CudaArray() = default;
    explicit CudaArray(std::size_t n) : n_(n) {
        check(Memory::allocate(reinterpret_cast<void**>(&p_), (n ? n : 1) * sizeof(T)),
              Memory::kAlloc);
    }
    CudaArray(const CudaArray&) = delete;
    CudaArray& operator=(const CudaArray&) = delete;
    CudaArray& operator=(CudaArray&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        return *this;
    }
    ~CudaArray() {
        if (p_) Memory::release(p_);
    }
    T* get() const { return p_; }
    std::size_t bytes() const { return n_ * sizeof(T); }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};
template <class T>
using DeviceArray = CudaArray<T, DeviceMemory>;
template <class T>
using PinnedArray = CudaArray<T, PinnedMemory>;

class Stream {
public:
    explicit Stream() {
        check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate");
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    // Waits for the stream's work first: the buffers it reads are freed
    // after it (an owner declares its stream after them), even when a call
    // threw between queuing work and waiting for it.
    ~Stream() {
        cudaStreamSynchronize(s_);
        cudaStreamDestroy(s_);
    }
    cudaStream_t get() const { return s_; }
    void sync(const char* what) const {
        check(cudaGetLastError(), what);
        check(cudaStreamSynchronize(s_), what);
    }

private:
    cudaStream_t s_ = nullptr;
};

// A marker in a stream's work (timing off: only ordering is asked of it).
// record() marks the point reached by the work queued so far; a stream that
// waits for it (cudaStreamWaitEvent) runs its later work only after that
// point, and wait_on_host() blocks the calling thread until then. Both
// refer to the latest record() made before they are called.
class Event {
public:
    Event() { check(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreate"); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { cudaEventDestroy(e_); }
    void record(cudaStream_t s) { check(cudaEventRecord(e_, s), "cudaEventRecord"); }
    // Never recorded: returns at once.
    void wait_on_host(const char* what) const { check(cudaEventSynchronize(e_), what); }
    void make_wait(cudaStream_t s) const {
        check(cudaStreamWaitEvent(s, e_, 0), "cudaStreamWaitEvent");
    }

private:
    cudaEvent_t e_ = nullptr;
};

inline unsigned groups(long long n, unsigned per) { return static_cast<unsigned>((n + per - 1) / per); }

// Copies h rows of `row_bytes` from a strided plane into dst, rows packed.
inline void pack_rows(void* dst, const void* src, std::ptrdiff_t stride, std::size_t row_bytes, int h) {
    for (int y = 0; y < h; ++y)
        std::memcpy(static_cast<char*>(dst) + y * row_bytes,
                    static_cast<const char*>(src) + y * stride, row_bytes);
}

// Where a picture pair lies in device memory, the same for the frame store's
// slots and a twin's own upload: the reference luma from byte 0, rows
// packed (w samples apart), and the distorted luma from `dis`, the next
// multiple of 256 bytes (so both planes start on the alignment cudaMalloc
// gives, and a row's first loads are whole transactions).
struct PairLayout {
    PairLayout(int w, int h, int bpc)
        : w(w),
          h(h),
          bpc(bpc),
          sample_bytes(bpc > 8 ? 2 : 1),
          row(static_cast<std::size_t>(w) * sample_bytes),
          plane(row * h),
          dis((plane + 255) / 256 * 256),
          bytes(dis + plane) {}
    int w, h, bpc, sample_bytes;
    std::size_t row, plane, dis, bytes;

    // Both pictures' luma packed into `host` (bytes() bytes).
    void pack(unsigned char* host, const void* ref, std::ptrdiff_t ref_stride, const void* dis_,
              std::ptrdiff_t dis_stride) const {
        pack_rows(host, ref, ref_stride, row, h);
        pack_rows(host + dis, dis_, dis_stride, row, h);
    }
    bool same(int w_, int h_, int bpc_) const { return w == w_ && h == h_ && bpc == bpc_; }
};

// A twin's own copy of one picture pair, for the calls with host pointers
// (MotionTwin::sad, VifTwin::run, AdmTwin::run: the kernel tests, twins made
// without a frame store): pinned staging and device planes in PairLayout,
// made on the first call, so a twin that reads a frame store allocates
// neither. The copy is queued on the twin's own stream, so the kernels
// queued after it on that stream read it complete. The staging is written
// again only at the twin's next call, after this call waited for its
// stream (the readback): the copy out of it has finished by then.
class OwnPictures {
public:
    explicit OwnPictures(const PairLayout& layout) : layout_(layout) {}
    // The device pair, its copy queued on `stream`.
    const unsigned char* upload(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
                                std::ptrdiff_t dis_stride, cudaStream_t stream) {
        if (!host_.get()) {
            host_ = PinnedArray<unsigned char>(layout_.bytes);
            std::memset(host_.get(), 0, layout_.bytes);  // the gap between the planes
            pics_ = DeviceArray<unsigned char>(layout_.bytes);
        }
        layout_.pack(host_.get(), ref, ref_stride, dis, dis_stride);
        check(cudaMemcpyAsync(pics_.get(), host_.get(), layout_.bytes, cudaMemcpyHostToDevice,
                              stream),
              "upload");
        return pics_.get();
    }

private:
    PairLayout layout_;
    PinnedArray<unsigned char> host_;
    DeviceArray<unsigned char> pics_;
};

constexpr unsigned kBlock = 128;

// The sum of every thread's v in the block (kBlock threads), in thread 0.
template <class T>
__device__ T block_sum(T v) {
    __shared__ T partial[kBlock];
    partial[threadIdx.x] = v;
    __syncthreads();
    for (unsigned half = kBlock / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    const T total = partial[0];
    __syncthreads();  // the array is reused by the next call
    return total;
}

}  // namespace vmafpp::cuda
