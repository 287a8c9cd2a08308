// libvmaf 3.2.0's CUDA entry points (libvmaf_cuda.h), the ones FFmpeg's
// libvmaf_cuda filter calls: vmaf_cuda_state_init, vmaf_cuda_import_state,
// vmaf_cuda_preallocate_pictures, vmaf_cuda_fetch_preallocated_picture, and
// device pictures read by vmaf_read_pictures (libvmaf.cpp calls download()).
//
// The driver API (libcuda.so.1) is opened with dlopen on first use and the
// dozen functions used are declared here, so libvmaf.so builds without the
// CUDA toolkit, links no CUDA library, and a machine without a driver or a
// GPU gets libvmaf's -EINVAL and a one-line message from
// vmaf_cuda_state_init(). VMAFPP_CUDA_DRIVER names another driver library
// to open (a driver outside the loader's path; the tests' fake one).
//
// A device picture is downloaded into the session's host picture in
// vmaf_read_pictures() (cuMemcpy2D, device to pageable host: the call returns
// once the copy is complete, and it is ordered after the caller's copies
// into the picture on the legacy default stream, which is how FFmpeg fills
// it) and scored by the same extractors as a host picture, so the values
// are the CLI's bits. We chose this over scoring in device memory because
// it is right by construction and could be checked without a GPU; handing
// the planes to the CUDA backend's frame store without the round trip is
// the next step, once a GPU can check it.
#include "libvmaf_cuda.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_set>
#include <vector>

#include "libvmaf/libvmaf_cuda.h"

namespace vmafpp::capi_cuda {
namespace {

// The driver API's types and the one structure used, as cuda.h declares them
// (CUdeviceptr is 64-bit on every 64-bit target; CUDA_MEMCPY2D_v2's layout).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
constexpr CUresult kSuccess = 0;
constexpr int kMemoryTypeHost = 1;
constexpr int kMemoryTypeDevice = 2;

struct Memcpy2D {
    std::size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void* srcHost;
    CUdeviceptr srcDevice;
    void* srcArray;
    std::size_t srcPitch;
    std::size_t dstXInBytes, dstY;
    int dstMemoryType;
    void* dstHost;
    CUdeviceptr dstDevice;
    void* dstArray;
    std::size_t dstPitch;
    std::size_t WidthInBytes, Height;
};

// The driver's exported names: cuda.h maps cuMemAlloc to cuMemAlloc_v2 and
// so on since CUDA 3.2 (cuDevicePrimaryCtxRelease_v2 since 11.0).
struct Driver {
    CUresult (*init)(unsigned);
    CUresult (*device_get)(CUdevice*, int);
    CUresult (*primary_ctx_retain)(CUcontext*, CUdevice);
    CUresult (*primary_ctx_release)(CUdevice);
    CUresult (*ctx_push)(CUcontext);
    CUresult (*ctx_pop)(CUcontext*);
    CUresult (*ctx_get_device)(CUdevice*);
    CUresult (*mem_alloc)(CUdeviceptr*, std::size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*mem_alloc_host)(void**, std::size_t);
    CUresult (*mem_free_host)(void*);
    CUresult (*memset_d8)(CUdeviceptr, unsigned char, std::size_t);
    CUresult (*memcpy_2d)(const Memcpy2D*);
    CUresult (*error_string)(CUresult, const char**);  // optional
};

void log_line(VmafLogLevel level, const std::string& what) {
    if (level >= VMAF_LOG_LEVEL_ERROR) std::fprintf(stderr, "libvmaf (vmafpp): %s\n", what.c_str());
}

template <class F>
bool bind(void* lib, const char* name, F& fn) {
    fn = reinterpret_cast<F>(dlsym(lib, name));
    return fn != nullptr;
}

struct LoadedDriver {
    Driver fns{};
    std::string error;  // empty when loaded
};

// Opens the driver once per process; the handle is never closed (the
// driver's own threads may outlive any one state).
const LoadedDriver& loaded_driver() {
    static const LoadedDriver d = [] {
        LoadedDriver r;
        const char* env = std::getenv("VMAFPP_CUDA_DRIVER");
        const char* path = env && *env ? env : "libcuda.so.1";
        void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char* why = dlerror();
            r.error = std::string("no CUDA driver (") + (why ? why : path) + ")";
            return r;
        }
        Driver& f = r.fns;
        const char* missing = nullptr;
        const auto need = [&](const char* name, auto& fn) {
            if (!missing && !bind(lib, name, fn)) missing = name;
        };
        need("cuInit", f.init);
        need("cuDeviceGet", f.device_get);
        need("cuDevicePrimaryCtxRetain", f.primary_ctx_retain);
        need("cuDevicePrimaryCtxRelease_v2", f.primary_ctx_release);
        need("cuCtxPushCurrent_v2", f.ctx_push);
        need("cuCtxPopCurrent_v2", f.ctx_pop);
        need("cuCtxGetDevice", f.ctx_get_device);
        need("cuMemAlloc_v2", f.mem_alloc);
        need("cuMemFree_v2", f.mem_free);
        need("cuMemAllocHost_v2", f.mem_alloc_host);
        need("cuMemFreeHost", f.mem_free_host);
        need("cuMemsetD8_v2", f.memset_d8);
        need("cuMemcpy2D_v2", f.memcpy_2d);
        bind(lib, "cuGetErrorString", f.error_string);
        if (missing) r.error = std::string("the CUDA driver ") + path + " lacks " + missing;
        return r;
    }();
    return d;
}

std::string describe(const Driver& drv, CUresult r) {
    const char* s = nullptr;
    if (drv.error_string && drv.error_string(r, &s) == kSuccess && s) return s;
    return "CUDA error " + std::to_string(r);
}

}  // namespace

// One CUDA context and the driver that made it; released (the primary
// context's retain) when the last state, context, pool or picture drops it.
struct Device {
    const Driver& drv;
    CUcontext ctx = nullptr;
    CUdevice dev = 0;
    bool retained_primary = false;

    explicit Device(const Driver& d) : drv(d) {}
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    ~Device() {
        if (retained_primary) drv.primary_ctx_release(dev);
    }
};

namespace {

// Makes the device's context current on this thread for one scope, as every
// driver call on its memory needs.
class CurrentContext {
public:
    explicit CurrentContext(const Device& d) : d_(d), result_(d.drv.ctx_push(d.ctx)) {}
    ~CurrentContext() {
        CUcontext popped;
        if (result_ == kSuccess) d_.drv.ctx_pop(&popped);
    }
    CurrentContext(const CurrentContext&) = delete;
    CurrentContext& operator=(const CurrentContext&) = delete;
    CUresult result() const { return result_; }

private:
    const Device& d_;
    CUresult result_;
};

enum class Memory { device, pinned };

// Planes of one picture in one buffer: libvmaf's plane sizes (chroma
// floor(w/2), floor(h/2) for 4:2:0), rows padded to `align` bytes.
struct Layout {
    unsigned w[3]{}, h[3]{};
    std::size_t stride[3]{}, offset[3]{};
    std::size_t bytes = 0;
};

Layout layout_of(const VmafCudaPictureConfiguration& cfg, std::size_t align) {
    const auto& p = cfg.pic_params;
    const unsigned sx = p.pix_fmt != VMAF_PIX_FMT_YUV444P, sy = p.pix_fmt == VMAF_PIX_FMT_YUV420P;
    const bool chroma = p.pix_fmt != VMAF_PIX_FMT_YUV400P;
    const std::size_t bps = p.bpc > 8 ? 2 : 1;
    Layout l;
    for (int i = 0; i < 3; ++i) {
        l.w[i] = i == 0 ? p.w : chroma ? p.w >> sx : 0;
        l.h[i] = i == 0 ? p.h : chroma ? p.h >> sy : 0;
        l.stride[i] = (l.w[i] * bps + align - 1) / align * align;
        l.offset[i] = l.bytes;
        l.bytes += l.stride[i] * l.h[i];
    }
    return l;
}

bool valid_params(const VmafCudaPictureConfiguration& cfg) {
    const auto& p = cfg.pic_params;
    return p.pix_fmt >= VMAF_PIX_FMT_YUV420P && p.pix_fmt <= VMAF_PIX_FMT_YUV400P && p.bpc >= 8 &&
           p.bpc <= 16 && p.w > 0 && p.h > 0 && p.w <= (1u << 16) && p.h <= (1u << 16);
}

}  // namespace

// The preallocated pictures of one vmaf_cuda_preallocate_pictures() call.
// Buffers given back are kept for the next fetch (FFmpeg fetches two per
// frame, and vmaf_read_pictures gives both back before it returns), so a
// run allocates device memory once, not per frame.
struct Pool {
    VmafCudaPictureConfiguration cfg{};
    std::shared_ptr<Device> device;  // none for HOST
    Memory memory = Memory::device;
    Layout layout;
    std::mutex mutex;
    std::vector<std::uintptr_t> idle;  // device addresses or pinned host pointers

    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool() {
        if (!device || idle.empty()) return;
        const CurrentContext current(*device);
        if (current.result() != kSuccess) return;
        for (std::uintptr_t b : idle) free_buffer(b);
    }

    // A zeroed buffer of layout.bytes: pictures start as vmaf_picture_alloc's
    // do, so planes a caller does not fill (FFmpeg copies luma only) are
    // zeros, not another allocation's leftovers.
    CUresult new_buffer(std::uintptr_t& out) {
        if (memory == Memory::pinned) {
            void* p = nullptr;
            const CUresult r = device->drv.mem_alloc_host(&p, layout.bytes);
            if (r == kSuccess) {
                std::memset(p, 0, layout.bytes);
                out = reinterpret_cast<std::uintptr_t>(p);
            }
            return r;
        }
        CUdeviceptr d = 0;
        CUresult r = device->drv.mem_alloc(&d, layout.bytes);
        if (r == kSuccess) {
            r = device->drv.memset_d8(d, 0, layout.bytes);
            if (r != kSuccess) device->drv.mem_free(d);
        }
        if (r == kSuccess) out = std::uintptr_t(d);
        return r;
    }

    void free_buffer(std::uintptr_t b) {
        if (memory == Memory::pinned)
            device->drv.mem_free_host(reinterpret_cast<void*>(b));
        else
            device->drv.mem_free(CUdeviceptr(b));
    }

    // Fills `out` with an idle buffer or a new one (the context current).
    CUresult take(std::uintptr_t& out) {
        {
            const std::lock_guard lock(mutex);
            if (!idle.empty()) {
                out = idle.back();
                idle.pop_back();
                return kSuccess;
            }
        }
        const CurrentContext current(*device);
        if (current.result() != kSuccess) return current.result();
        return new_buffer(out);
    }

    void give_back(std::uintptr_t b) {
        const std::lock_guard lock(mutex);
        idle.push_back(b);
    }
};

namespace {

// What VmafPicture::priv points to for this file's pictures. Their `ref` is
// a non-null token (this object's address), never a VmafRef: libvmaf.cpp
// hands them to release_picture() before it touches `ref`.
struct CudaPicture {
    std::shared_ptr<Pool> pool;
    std::uintptr_t buffer = 0;
};

// The pictures this file handed out and not yet released. libvmaf.cpp's own
// pictures have a priv of their own type, so ownership is looked up here,
// never inferred from the bytes priv points to.
std::mutex live_mutex;
std::unordered_set<const void*> live;

CudaPicture* live_picture(const VmafPicture& pic) {
    const std::lock_guard lock(live_mutex);
    return live.count(pic.priv) ? static_cast<CudaPicture*>(pic.priv) : nullptr;
}

void fill_picture(VmafPicture* pic, const Pool& pool, std::uintptr_t buffer, CudaPicture* priv) {
    std::memset(pic, 0, sizeof(*pic));
    pic->pix_fmt = pool.cfg.pic_params.pix_fmt;
    pic->bpc = pool.cfg.pic_params.bpc;
    for (int i = 0; i < 3; ++i) {
        pic->w[i] = pool.layout.w[i];
        pic->h[i] = pool.layout.h[i];
        pic->stride[i] = std::ptrdiff_t(pool.layout.stride[i]);
        pic->data[i] = pool.layout.h[i] ? reinterpret_cast<void*>(buffer + pool.layout.offset[i]) : nullptr;
    }
    pic->priv = priv;
    pic->ref = reinterpret_cast<VmafRef*>(priv);
}

int fetch_from_pool(VmafContext* vmaf, const std::shared_ptr<Pool>& pool, VmafPicture* pic) {
    std::uintptr_t buffer = 0;
    const CUresult r = pool->take(buffer);
    if (r != kSuccess) {
        log_line(log_level(vmaf), "vmaf_cuda_fetch_preallocated_picture: " +
                                      describe(pool->device->drv, r));
        return -ENOMEM;
    }
    auto* priv = new (std::nothrow) CudaPicture{pool, buffer};
    if (!priv) {
        pool->give_back(buffer);
        return -ENOMEM;
    }
    try {
        const std::lock_guard lock(live_mutex);
        live.insert(priv);
    } catch (...) {
        pool->give_back(buffer);
        delete priv;
        return -ENOMEM;
    }
    fill_picture(pic, *pool, buffer, priv);
    return 0;
}

// Whether `in` still has the planes its pool gave it: data[] and stride[]
// are only read here, and a picture whose fields were changed must not
// send the driver to another allocation.
bool planes_as_allocated(const VmafPicture& in, const CudaPicture& p) {
    const Layout& l = p.pool->layout;
    for (int i = 0; i < 3; ++i) {
        const void* want = l.h[i] ? reinterpret_cast<void*>(p.buffer + l.offset[i]) : nullptr;
        if (in.data[i] != want || in.stride[i] != std::ptrdiff_t(l.stride[i]) || in.w[i] != l.w[i] ||
            in.h[i] != l.h[i])
            return false;
    }
    return true;
}

}  // namespace

bool is_device_picture(const VmafPicture& pic) {
    const CudaPicture* p = live_picture(pic);
    return p && p->pool->memory == Memory::device;
}

int download(VmafContext* vmaf, const VmafPicture& in, vmafpp::Picture& out, int planes) {
    const CudaPicture* p = live_picture(in);
    if (!p) return -EINVAL;
    const ContextCuda& cuda = context_cuda(vmaf);
    if (!cuda.device || cuda.device->ctx != p->pool->device->ctx) {
        log_line(log_level(vmaf), "vmaf_read_pictures: a CUDA device picture needs "
                                  "vmaf_cuda_import_state() of its CUDA context on this VmafContext");
        return -EINVAL;
    }
    if (!planes_as_allocated(in, *p)) {
        log_line(log_level(vmaf), "vmaf_read_pictures: a CUDA device picture's data or stride "
                                  "is not the one vmaf_cuda_fetch_preallocated_picture() gave");
        return -EINVAL;
    }
    const Device& d = *p->pool->device;
    const CurrentContext current(d);
    CUresult r = current.result();
    for (int i = 0; i < planes && r == kSuccess; ++i) {
        vmafpp::Plane& dst = out.planes[i];
        Memcpy2D m{};
        m.srcMemoryType = kMemoryTypeDevice;
        m.srcDevice = CUdeviceptr(reinterpret_cast<std::uintptr_t>(in.data[i]));
        m.srcPitch = std::size_t(in.stride[i]);
        m.dstMemoryType = kMemoryTypeHost;
        m.dstHost = dst.data();
        m.dstPitch = std::size_t(dst.stride());
        m.WidthInBytes = std::size_t(dst.width()) * std::size_t(dst.bytes_per_sample());
        m.Height = std::size_t(dst.height());
        r = d.drv.memcpy_2d(&m);
    }
    if (r != kSuccess) {
        log_line(log_level(vmaf), "vmaf_read_pictures: copying a CUDA device picture: " + describe(d.drv, r));
        return -EIO;
    }
    return 0;
}

bool owns_picture(const VmafPicture& pic) { return live_picture(pic) != nullptr; }

bool release_picture(VmafPicture* pic) {
    CudaPicture* p;
    {
        const std::lock_guard lock(live_mutex);
        if (!live.erase(pic->priv)) return false;
        p = static_cast<CudaPicture*>(pic->priv);
    }
    p->pool->give_back(p->buffer);
    delete p;  // the last picture of a closed context's pool frees its buffers
    std::memset(pic, 0, sizeof(*pic));
    return true;
}

}  // namespace vmafpp::capi_cuda

// The state vmaf_cuda_state_init() returns. libvmaf 3.2.0 has no call that
// frees it, and vmaf_close() releases what the imported copy holds; here the
// first import hands the context over to the VmafContext (`imported` then
// lets more VmafContexts share it while one is open), so closing the last
// one releases the primary context as libvmaf's close does. Every state is
// listed in `states` until it is released and a later state_init or import
// frees it: an import looks its pointer up there first, so a released
// state's pointer is refused rather than used after free, and a state never
// imported stays reachable (libvmaf leaks it).
struct VmafCudaState {
    std::mutex mutex;
    std::shared_ptr<vmafpp::capi_cuda::Device> owned;
    std::weak_ptr<vmafpp::capi_cuda::Device> imported;
};

namespace {

using namespace vmafpp::capi_cuda;

std::mutex states_mutex;
// Never destroyed: states still listed at exit stay reachable.
auto& states = *new std::unordered_set<VmafCudaState*>;

bool released(VmafCudaState* s) {
    const std::lock_guard lock(s->mutex);
    return !s->owned && s->imported.expired();
}

// Frees the states whose context is released (states_mutex held).
void free_released_states() {
    for (auto it = states.begin(); it != states.end();)
        if (released(*it)) {
            delete *it;
            it = states.erase(it);
        } else {
            ++it;
        }
}

void log_always(const std::string& what) { log_line(VMAF_LOG_LEVEL_ERROR, what); }

// libvmaf: the caller's context, or device 0's primary context (retained
// here, released with the Device).
int open_context(const Driver& drv, void* cu_ctx, Device& d) {
    if (cu_ctx) {
        d.ctx = static_cast<CUcontext>(cu_ctx);
        const CurrentContext current(d);
        CUresult r = current.result();
        if (r == kSuccess) r = drv.ctx_get_device(&d.dev);
        if (r != kSuccess) {
            log_always("vmaf_cuda_state_init: cu_ctx is not a usable CUDA context: " + describe(drv, r));
            return -EINVAL;
        }
        return 0;
    }
    CUresult r = drv.device_get(&d.dev, 0);
    if (r == kSuccess) r = drv.primary_ctx_retain(&d.ctx, d.dev);
    if (r != kSuccess) {
        log_always("vmaf_cuda_state_init: no CUDA device 0: " + describe(drv, r));
        return -EINVAL;
    }
    d.retained_primary = true;
    return 0;
}

int state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
    const LoadedDriver& loaded = loaded_driver();
    if (!loaded.error.empty()) {
        log_always("vmaf_cuda_state_init: " + loaded.error);
        return -EINVAL;
    }
    const Driver& drv = loaded.fns;
    if (const CUresult r = drv.init(0); r != kSuccess) {
        log_always("vmaf_cuda_state_init: cuInit failed: " + describe(drv, r));
        return -EINVAL;
    }
    auto device = std::make_shared<Device>(drv);
    if (const int err = open_context(drv, cfg.cu_ctx, *device)) return err;
    auto state = std::make_unique<VmafCudaState>();
    state->owned = std::move(device);
    const std::lock_guard lock(states_mutex);
    free_released_states();
    states.insert(state.get());
    *cu_state = state.release();
    return 0;
}

int import_state(VmafContext* vmaf, VmafCudaState* state) {
    ContextCuda& cuda = context_cuda(vmaf);
    const std::lock_guard listed(states_mutex);
    free_released_states();
    if (!states.count(state)) {
        log_line(log_level(vmaf), "vmaf_cuda_import_state: not a VmafCudaState of vmaf_cuda_state_init(), "
                                  "or one released when the VmafContexts it was imported into were closed");
        return -EINVAL;
    }
    const std::lock_guard lock(state->mutex);
    std::shared_ptr<Device> d = state->owned ? state->owned : state->imported.lock();
    if (!d) {
        log_line(log_level(vmaf), "vmaf_cuda_import_state: this VmafCudaState was released "
                                  "when the VmafContexts it was imported into were closed");
        return -EINVAL;
    }
    if (cuda.device && cuda.device != d) {
        log_line(log_level(vmaf), "vmaf_cuda_import_state: this VmafContext already has another CUDA state");
        return -EINVAL;
    }
    state->imported = d;
    state->owned.reset();
    cuda.device = std::move(d);
    return 0;
}

int preallocate(VmafContext* vmaf, const VmafCudaPictureConfiguration& cfg) {
    ContextCuda& cuda = context_cuda(vmaf);
    const auto method = cfg.pic_prealloc_method;
    if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE) {
        cuda.pool.reset();  // libvmaf: nothing to fetch afterwards
        return 0;
    }
    if (method != VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE &&
        method != VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST &&
        method != VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED) {
        log_line(log_level(vmaf), "vmaf_cuda_preallocate_pictures: unknown preallocation method " +
                                      std::to_string(int(method)));
        return -EINVAL;
    }
    if (!valid_params(cfg)) {
        log_line(log_level(vmaf), "vmaf_cuda_preallocate_pictures: invalid picture parameters");
        return -EINVAL;
    }
    auto pool = std::make_shared<Pool>();
    pool->cfg = cfg;
    if (method != VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST) {
        if (!cuda.device) {
            log_line(log_level(vmaf), "vmaf_cuda_preallocate_pictures: DEVICE and HOST_PINNED "
                                      "pictures need vmaf_cuda_import_state() first");
            return -EINVAL;
        }
        pool->device = cuda.device;
        pool->memory = method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE ? Memory::device
                                                                               : Memory::pinned;
        // Device rows start on 256 bytes, as cuMemAllocPitch's; pinned ones
        // on 32, vmaf_picture_alloc's (and libvmaf's pinned pictures').
        pool->layout = layout_of(cfg, pool->memory == Memory::device ? 256 : 32);
        // One frame's pair now, so a missing device shows here, not mid-run.
        const CurrentContext current(*pool->device);
        CUresult r = current.result();
        for (int i = 0; i < 2 && r == kSuccess; ++i) {
            std::uintptr_t b = 0;
            r = pool->new_buffer(b);
            if (r == kSuccess) pool->idle.push_back(b);
        }
        if (r != kSuccess) {
            log_line(log_level(vmaf), "vmaf_cuda_preallocate_pictures: " + describe(pool->device->drv, r));
            return -ENOMEM;
        }
    }
    cuda.pool = std::move(pool);
    return 0;
}

int fetch(VmafContext* vmaf, VmafPicture* pic) {
    const std::shared_ptr<Pool> pool = context_cuda(vmaf).pool;
    if (!pool) {
        log_line(log_level(vmaf), "vmaf_cuda_fetch_preallocated_picture: no pictures were preallocated "
                                  "(vmaf_cuda_preallocate_pictures with DEVICE, HOST or HOST_PINNED)");
        return -EINVAL;
    }
    if (!pool->device) {
        const auto& p = pool->cfg.pic_params;
        return vmaf_picture_alloc(pic, p.pix_fmt, p.bpc, p.w, p.h);
    }
    return fetch_from_pool(vmaf, pool, pic);
}

// No exception leaves the C entry points: libvmaf's codes instead.
template <class F>
int guarded(F&& body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return -ENOMEM;
    } catch (...) {
        return -EINVAL;
    }
}

}  // namespace

extern "C" {

int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
    if (!cu_state) return -EINVAL;
    *cu_state = nullptr;
    return guarded([&] { return state_init(cu_state, cfg); });
}

int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state) {
    if (!vmaf || !cu_state) return -EINVAL;
    return guarded([&] { return import_state(vmaf, cu_state); });
}

int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg) {
    if (!vmaf) return -EINVAL;
    return guarded([&] { return preallocate(vmaf, cfg); });
}

int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
    if (!vmaf || !pic) return -EINVAL;
    return guarded([&] { return fetch(vmaf, pic); });
}

}  // extern "C"
