/* A stand-in for the CUDA driver (libcuda.so.1) with the few functions
 * libvmaf.so's libvmaf_cuda.cpp and vmaf_cuda_capi_test.c call, over host
 * memory, loaded through VMAFPP_CUDA_DRIVER by the C API tests only.
 *
 * It proves the API's bookkeeping, not a GPU: that the library makes a
 * context current around every call on its memory, copies the planes the
 * caller wrote with the right pitches and sizes, stays inside its
 * allocations, and frees every allocation and releases the primary context
 * it retained. What it cannot prove (the real driver's stream ordering,
 * pinned memory, a device's memory) needs a GPU.
 *
 * To keep it honest: a device address is the host address with bit 62 set,
 * a non-canonical x86-64 address, so code that reads device memory with
 * memcpy faults as it would on a GPU; cuMemcpy2D refuses a copy that leaves
 * a device allocation or runs with no current context; and
 * vmafpp_fake_cuda_counts() reports what is still allocated or retained. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st {
    int created; /* a cuCtxCreate context still alive */
} *CUcontext;

enum {
    SUCCESS = 0,
    ERROR_INVALID_VALUE = 1,
    ERROR_OUT_OF_MEMORY = 2,
    ERROR_NOT_INITIALIZED = 3,
    ERROR_INVALID_DEVICE = 101,
    ERROR_INVALID_CONTEXT = 201,
};

typedef struct Memcpy2D { /* CUDA_MEMCPY2D_v2's layout */
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} Memcpy2D;

#define DEVICE_TAG (1ull << 62)
#define MAX_ALLOCS 256
#define MAX_CREATED 4
#define MAX_DEPTH 16

typedef struct Allocation {
    void *host;
    size_t size;
    int device; /* 1: cuMemAlloc, 0: cuMemAllocHost */
} Allocation;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Allocation allocs[MAX_ALLOCS];
static int initialized, primary_retains;
static struct CUctx_st primary, created[MAX_CREATED];
static __thread CUcontext stack[MAX_DEPTH];
static __thread int depth;

static int valid_context(CUcontext c)
{
    if (c == &primary) return primary_retains > 0;
    for (int i = 0; i < MAX_CREATED; i++)
        if (c == &created[i]) return created[i].created;
    return 0;
}

static int current_ok(void)
{
    return initialized && depth > 0 && valid_context(stack[depth - 1]);
}

CUresult cuInit(unsigned flags)
{
    if (flags) return ERROR_INVALID_VALUE;
    initialized = 1;
    return SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal)
{
    if (!initialized) return ERROR_NOT_INITIALIZED;
    if (ordinal != 0) return ERROR_INVALID_DEVICE;
    *dev = 0;
    return SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
    if (!initialized) return ERROR_NOT_INITIALIZED;
    *count = 1;
    return SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev)
{
    if (!initialized) return ERROR_NOT_INITIALIZED;
    if (dev != 0) return ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    primary_retains++;
    pthread_mutex_unlock(&lock);
    *ctx = &primary;
    return SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    if (dev != 0) return ERROR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    const int ok = primary_retains > 0;
    if (ok) primary_retains--;
    pthread_mutex_unlock(&lock);
    return ok ? SUCCESS : ERROR_INVALID_CONTEXT;
}

/* The caller's own context (FFmpeg's hwcontext makes one), made current. */
CUresult cuCtxCreate_v2(CUcontext *ctx, unsigned flags, CUdevice dev)
{
    (void)flags;
    if (!initialized) return ERROR_NOT_INITIALIZED;
    if (dev != 0) return ERROR_INVALID_DEVICE;
    if (depth == MAX_DEPTH) return ERROR_OUT_OF_MEMORY;
    pthread_mutex_lock(&lock);
    CUcontext c = NULL;
    for (int i = 0; i < MAX_CREATED && !c; i++)
        if (!created[i].created) c = &created[i];
    if (c) c->created = 1;
    pthread_mutex_unlock(&lock);
    if (!c) return ERROR_OUT_OF_MEMORY;
    stack[depth++] = c;
    *ctx = c;
    return SUCCESS;
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    if (!valid_context(ctx) || ctx == &primary) return ERROR_INVALID_CONTEXT;
    ctx->created = 0;
    for (int i = 0; i < depth; i++)
        if (stack[i] == ctx) { /* destroying pops it, as the driver does */
            memmove(stack + i, stack + i + 1, sizeof(*stack) * (size_t)(depth - i - 1));
            depth--;
            i--;
        }
    return SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    if (!initialized) return ERROR_NOT_INITIALIZED;
    if (!valid_context(ctx)) return ERROR_INVALID_CONTEXT;
    if (depth == MAX_DEPTH) return ERROR_OUT_OF_MEMORY;
    stack[depth++] = ctx;
    return SUCCESS;
}

CUresult cuCtxPopCurrent_v2(CUcontext *ctx)
{
    if (depth == 0) return ERROR_INVALID_CONTEXT;
    CUcontext c = stack[--depth];
    if (ctx) *ctx = c;
    return SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev)
{
    if (!current_ok()) return ERROR_INVALID_CONTEXT;
    *dev = 0;
    return SUCCESS;
}

static CUresult add_allocation(void **host, size_t size, int device)
{
    if (!current_ok()) return ERROR_INVALID_CONTEXT;
    if (!size) return ERROR_INVALID_VALUE;
    void *p = malloc(size);
    if (!p) return ERROR_OUT_OF_MEMORY;
    memset(p, 0xa5, size); /* cuMemAlloc does not clear */
    pthread_mutex_lock(&lock);
    int slot = -1;
    for (int i = 0; i < MAX_ALLOCS && slot < 0; i++)
        if (!allocs[i].host) slot = i;
    if (slot >= 0) allocs[slot] = (Allocation){p, size, device};
    pthread_mutex_unlock(&lock);
    if (slot < 0) {
        free(p);
        return ERROR_OUT_OF_MEMORY;
    }
    *host = p;
    return SUCCESS;
}

static CUresult remove_allocation(void *host, int device)
{
    if (!current_ok()) return ERROR_INVALID_CONTEXT;
    pthread_mutex_lock(&lock);
    int found = 0;
    for (int i = 0; i < MAX_ALLOCS && !found; i++)
        if (allocs[i].host == host && allocs[i].device == device) {
            allocs[i].host = NULL;
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    if (!found) return ERROR_INVALID_VALUE;
    free(host);
    return SUCCESS;
}

/* The host address of device range [d, d + size), or NULL if it is not
 * inside one device allocation. */
static uint8_t *device_range(CUdeviceptr d, size_t size)
{
    if (!(d & DEVICE_TAG)) return NULL;
    uint8_t *p = (uint8_t *)(uintptr_t)(d & ~DEVICE_TAG);
    uint8_t *hit = NULL;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_ALLOCS && !hit; i++) {
        uint8_t *b = allocs[i].host;
        if (b && allocs[i].device && p >= b && size <= allocs[i].size &&
            (size_t)(p - b) <= allocs[i].size - size)
            hit = p;
    }
    pthread_mutex_unlock(&lock);
    return hit;
}

CUresult cuMemAlloc_v2(CUdeviceptr *d, size_t size)
{
    void *p;
    CUresult r = add_allocation(&p, size, 1);
    if (r == SUCCESS) *d = (CUdeviceptr)(uintptr_t)p | DEVICE_TAG;
    return r;
}

CUresult cuMemFree_v2(CUdeviceptr d)
{
    if (!(d & DEVICE_TAG)) return ERROR_INVALID_VALUE;
    return remove_allocation((void *)(uintptr_t)(d & ~DEVICE_TAG), 1);
}

CUresult cuMemAllocHost_v2(void **p, size_t size)
{
    return add_allocation(p, size, 0);
}

CUresult cuMemFreeHost(void *p)
{
    return remove_allocation(p, 0);
}

CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char value, size_t n)
{
    if (!current_ok()) return ERROR_INVALID_CONTEXT;
    uint8_t *p = device_range(d, n);
    if (!p) return ERROR_INVALID_VALUE;
    memset(p, value, n);
    return SUCCESS;
}

/* One side of a 2D copy as a host address: rows of `width` bytes `pitch`
 * apart, all inside one device allocation for device memory. */
static uint8_t *side(int type, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t pitch,
                     size_t width, size_t height)
{
    if (pitch < width || height == 0) return NULL;
    if (type == 1) return (uint8_t *)host + y * pitch + x;
    if (type != 2) return NULL;
    uint8_t *first = device_range(dev + y * pitch + x, (height - 1) * pitch + width);
    return first;
}

CUresult cuMemcpy2D_v2(const Memcpy2D *m)
{
    if (!current_ok()) return ERROR_INVALID_CONTEXT;
    if (!m || m->WidthInBytes == 0) return ERROR_INVALID_VALUE;
    const uint8_t *src = side(m->srcMemoryType, m->srcHost, m->srcDevice, m->srcXInBytes, m->srcY,
                              m->srcPitch, m->WidthInBytes, m->Height);
    uint8_t *dst = side(m->dstMemoryType, m->dstHost, m->dstDevice, m->dstXInBytes, m->dstY,
                        m->dstPitch, m->WidthInBytes, m->Height);
    if (!src || !dst) return ERROR_INVALID_VALUE;
    for (size_t r = 0; r < m->Height; r++)
        memcpy(dst + r * m->dstPitch, src + r * m->srcPitch, m->WidthInBytes);
    return SUCCESS;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
    switch (r) {
    case SUCCESS: *s = "no error"; return SUCCESS;
    case ERROR_INVALID_VALUE: *s = "invalid argument (fake driver)"; return SUCCESS;
    case ERROR_OUT_OF_MEMORY: *s = "out of memory (fake driver)"; return SUCCESS;
    case ERROR_NOT_INITIALIZED: *s = "initialization error (fake driver)"; return SUCCESS;
    case ERROR_INVALID_DEVICE: *s = "invalid device ordinal (fake driver)"; return SUCCESS;
    case ERROR_INVALID_CONTEXT: *s = "invalid device context (fake driver)"; return SUCCESS;
    default: *s = NULL; return ERROR_INVALID_VALUE;
    }
}

/* The test's view: live device and pinned allocations, primary context
 * retains, and the calling thread's context stack depth. */
void vmafpp_fake_cuda_counts(int *device_allocs, int *host_allocs, int *retains, int *stack_depth)
{
    pthread_mutex_lock(&lock);
    *device_allocs = *host_allocs = 0;
    for (int i = 0; i < MAX_ALLOCS; i++)
        if (allocs[i].host) ++*(allocs[i].device ? device_allocs : host_allocs);
    *retains = primary_retains;
    pthread_mutex_unlock(&lock);
    *stack_depth = depth;
}
