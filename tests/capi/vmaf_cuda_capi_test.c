/* Drives libvmaf_cuda.h the way FFmpeg's libvmaf_cuda filter
 * (libavfilter/vf_libvmaf.c, 6.1 and later) does: the caller's CUDA context
 * (FFmpeg's hwcontext makes one), vmaf_init, vmaf_cuda_state_init with that
 * context, vmaf_cuda_import_state, vmaf_cuda_preallocate_pictures (DEVICE),
 * model and features, then per frame two vmaf_cuda_fetch_preallocated_picture
 * filled device to device with cuMemcpy2D between cuCtxPushCurrent and
 * cuCtxPopCurrent, vmaf_read_pictures(..., frame_cnt++), the flush,
 * vmaf_score_pooled, vmaf_write_output, close. The decoder's frames are the
 * Y4M frames uploaded to device buffers with their own line sizes. FFmpeg
 * copies the luma plane only (its loop breaks after plane 0), as method
 * device_luma does; method device copies every plane, so that chroma
 * features check the chroma downloads.
 * Built against the installed libvmaf.pc, `#include <libvmaf_cuda.h>` as
 * FFmpeg spells it.
 *
 * The driver is the one libvmaf.so opens: VMAFPP_CUDA_DRIVER, else
 * libcuda.so.1. Without a GPU the tests name fake_libcuda.c's library, which
 * checks the API's bookkeeping over host memory, not a GPU.
 *
 *   vmaf_cuda_capi_test REF.y4m DIS.y4m THREADS OUT.json device|device_luma|pinned|host
 *                       [--feature NAME=k=v:k=v] [--print KEY...]
 *     device: the FFmpeg sequence above; pinned and host: the other two
 *     preallocation methods with libvmaf's own context (cu_ctx NULL), filled
 *     row by row on the host. Prints "pooled vmaf <%.17g>" and, for each KEY
 *     and frame, "KEY FRAME <%.17g>".
 *   vmaf_cuda_capi_test --no-driver REF.y4m
 *     with no driver to open: the error paths; prints "no-driver: ok".
 *   vmaf_cuda_capi_test --invalid REF.y4m
 *     with a driver: the error paths, the state's and pictures' lifetimes;
 *     prints "invalid: ok".
 */
#include <libvmaf.h>
#include <libvmaf_cuda.h>

#include "capi_test_common.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct Memcpy2D { /* CUDA_MEMCPY2D_v2 */
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
enum { MEM_HOST = 1, MEM_DEVICE = 2 };

/* The driver functions a caller like FFmpeg uses itself. */
static struct {
    CUresult (*init)(unsigned);
    CUresult (*device_get)(CUdevice *, int);
    CUresult (*ctx_create)(CUcontext *, unsigned, CUdevice);
    CUresult (*ctx_destroy)(CUcontext);
    CUresult (*ctx_push)(CUcontext);
    CUresult (*ctx_pop)(CUcontext *);
    CUresult (*mem_alloc)(CUdeviceptr *, size_t);
    CUresult (*mem_free)(CUdeviceptr);
    CUresult (*memcpy_2d)(const Memcpy2D *);
    /* fake_libcuda.c's only; NULL with a real driver */
    void (*fake_counts)(int *, int *, int *, int *);
} cu;

static int load_driver(void)
{
    const char *path = getenv("VMAFPP_CUDA_DRIVER");
    void *lib = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    *(void **)&cu.init = dlsym(lib, "cuInit");
    *(void **)&cu.device_get = dlsym(lib, "cuDeviceGet");
    *(void **)&cu.ctx_create = dlsym(lib, "cuCtxCreate_v2");
    *(void **)&cu.ctx_destroy = dlsym(lib, "cuCtxDestroy_v2");
    *(void **)&cu.ctx_push = dlsym(lib, "cuCtxPushCurrent_v2");
    *(void **)&cu.ctx_pop = dlsym(lib, "cuCtxPopCurrent_v2");
    *(void **)&cu.mem_alloc = dlsym(lib, "cuMemAlloc_v2");
    *(void **)&cu.mem_free = dlsym(lib, "cuMemFree_v2");
    *(void **)&cu.memcpy_2d = dlsym(lib, "cuMemcpy2D_v2");
    *(void **)&cu.fake_counts = dlsym(lib, "vmafpp_fake_cuda_counts");
    return cu.init && cu.device_get && cu.ctx_create && cu.ctx_destroy && cu.ctx_push && cu.ctx_pop &&
                   cu.mem_alloc && cu.mem_free && cu.memcpy_2d
               ? 0
               : -1;
}

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);     \
            return 1;                                                              \
        }                                                                          \
    } while (0)
#define CHECK_OK(call) CHECK((call) == 0)
#define CHECK_EINVAL(call) CHECK((call) == -EINVAL)

/* Frees the frame's device copies (upload_frame), then the frame. */
static void y4m_close_device(Y4m *y)
{
    for (int i = 0; i < 3; i++)
        if (y->frame.dev[i]) cu.mem_free(y->frame.dev[i]);
    y4m_close(y);
}

static int plane_height(const Frame *fr, int i) { return i ? fr->ch : fr->h; }

static CUresult copy_2d(int src_type, const void *src_host, CUdeviceptr src_dev, size_t src_pitch,
                        int dst_type, void *dst_host, CUdeviceptr dst_dev, size_t dst_pitch,
                        size_t width, size_t height)
{
    Memcpy2D m = {0};
    m.srcMemoryType = src_type;
    m.srcHost = src_host;
    m.srcDevice = src_dev;
    m.srcPitch = src_pitch;
    m.dstMemoryType = dst_type;
    m.dstHost = dst_host;
    m.dstDevice = dst_dev;
    m.dstPitch = dst_pitch;
    m.WidthInBytes = width;
    m.Height = height;
    return cu.memcpy_2d(&m);
}

/* The decoder's part: the frame into its device buffers (context current). */
static int upload_frame(Frame *fr)
{
    const size_t bps = fr->bpc > 8 ? 2 : 1;
    for (int i = 0; i < 3; i++) {
        const int h = plane_height(fr, i);
        if (!h) continue;
        if (!fr->dev[i] && cu.mem_alloc(&fr->dev[i], (size_t)fr->linesize[i] * h)) return -1;
        if (copy_2d(MEM_HOST, fr->data[i], 0, fr->linesize[i], MEM_DEVICE, NULL, fr->dev[i],
                    fr->linesize[i], (size_t)(i ? fr->cw : fr->w) * bps, h))
            return -1;
    }
    return 0;
}

/* vf_libvmaf.c's copy_picture_data_cuda: fetch, then device to device. */
static int copy_picture_data_cuda(VmafContext *vmaf, CUcontext ctx, const Frame *src, VmafPicture *dst,
                                  unsigned planes)
{
    int err = vmaf_cuda_fetch_preallocated_picture(vmaf, dst);
    if (err) return err;
    if (cu.ctx_push(ctx)) return -1;
    for (unsigned i = 0; i < planes && dst->h[i]; i++)
        if (copy_2d(MEM_DEVICE, NULL, src->dev[i], src->linesize[i], MEM_DEVICE, NULL,
                    (CUdeviceptr)(uintptr_t)dst->data[i], dst->stride[i],
                    dst->w[i] * ((dst->bpc + 7) / 8), dst->h[i]))
            return -1;
    return cu.ctx_pop(NULL) ? -1 : 0;
}

/* Host-side fill of a pinned or host picture, row by row. */
static int copy_picture_data_host(VmafContext *vmaf, const Frame *src, VmafPicture *dst)
{
    int err = vmaf_cuda_fetch_preallocated_picture(vmaf, dst);
    if (err) return err;
    for (unsigned i = 0; i < 3 && dst->h[i]; i++)
        for (unsigned r = 0; r < dst->h[i]; r++)
            memcpy((uint8_t *)dst->data[i] + r * dst->stride[i], src->data[i] + (size_t)r * src->linesize[i],
                   dst->w[i] * ((dst->bpc + 7) / 8));
    return 0;
}

/* With the fake driver: nothing allocated, retained or left current. */
static int driver_is_clean(void)
{
    if (!cu.fake_counts) return 1;
    int dev, host, retains, depth;
    cu.fake_counts(&dev, &host, &retains, &depth);
    if (dev || host || retains || depth)
        fprintf(stderr, "fake driver: %d device and %d pinned allocations, %d primary retains, "
                        "context depth %d left\n", dev, host, retains, depth);
    return !dev && !host && !retains && !depth;
}

static VmafCudaPictureConfiguration picture_cfg(const Frame *fr, enum VmafCudaPicturePreallocationMethod m)
{
    VmafCudaPictureConfiguration c;
    memset(&c, 0, sizeof(c));
    c.pic_params.w = (unsigned)fr->w;
    c.pic_params.h = (unsigned)fr->h;
    c.pic_params.bpc = (unsigned)fr->bpc;
    c.pic_params.pix_fmt = fr->fmt;
    c.pic_prealloc_method = m;
    return c;
}

/* Error paths where no driver can be opened. */
static int no_driver(const char *ref_path)
{
    Y4m in;
    CHECK(y4m_open(&in, ref_path) == 0 && y4m_read(&in) == 1);
    const Frame *fr = &in.frame;
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR};
    VmafCudaConfiguration cuda_cfg = {.cu_ctx = NULL};
    VmafCudaState *state = (VmafCudaState *)&cfg; /* must be cleared */
    VmafContext *vmaf = NULL;
    VmafPicture a, b;

    CHECK_EINVAL(vmaf_cuda_state_init(NULL, cuda_cfg));
    CHECK_EINVAL(vmaf_cuda_state_init(&state, cuda_cfg)); /* libvmaf's code for "no CUDA" */
    CHECK(state == NULL);
    CHECK_EINVAL(vmaf_cuda_state_init(&state, cuda_cfg)); /* and again, not a crash */
    CHECK_OK(vmaf_init(&vmaf, cfg));
    CHECK_EINVAL(vmaf_cuda_import_state(vmaf, NULL));
    CHECK_EINVAL(vmaf_cuda_import_state(NULL, NULL));
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(NULL, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST)));
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(vmaf, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE)));
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(vmaf, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED)));
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(vmaf, picture_cfg(fr, (enum VmafCudaPicturePreallocationMethod)4)));
    CHECK_EINVAL(vmaf_cuda_fetch_preallocated_picture(vmaf, &a)); /* nothing preallocated */
    CHECK_OK(vmaf_cuda_preallocate_pictures(vmaf, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE)));
    CHECK_EINVAL(vmaf_cuda_fetch_preallocated_picture(vmaf, &a)); /* libvmaf: NONE fetches nothing */
    CHECK_EINVAL(vmaf_cuda_fetch_preallocated_picture(NULL, &a));

    /* HOST pictures need no device: a frame scored from them. */
    CHECK_OK(vmaf_use_feature(vmaf, "psnr", NULL));
    CHECK_OK(vmaf_cuda_preallocate_pictures(vmaf, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST)));
    CHECK_EINVAL(vmaf_cuda_fetch_preallocated_picture(vmaf, NULL));
    CHECK_OK(copy_picture_data_host(vmaf, fr, &a));
    CHECK_OK(copy_picture_data_host(vmaf, fr, &b));
    CHECK_OK(vmaf_read_pictures(vmaf, &a, &b, 0));
    CHECK(!a.ref && !b.ref);
    CHECK_OK(vmaf_read_pictures(vmaf, NULL, NULL, 0));
    double psnr;
    CHECK_OK(vmaf_feature_score_at_index(vmaf, "psnr_y", &psnr, 0));
    CHECK(psnr == (fr->bpc == 8 ? 60.0 : 72.0)); /* identical pictures: psnr's cap */
    CHECK_OK(vmaf_close(vmaf));
    y4m_close_device(&in);
    printf("no-driver: ok\n");
    return 0;
}

/* Error paths and lifetimes with a driver. */
static int invalid_calls(const char *ref_path)
{
    Y4m in;
    CHECK(load_driver() == 0);
    CHECK(y4m_open(&in, ref_path) == 0 && y4m_read(&in) == 1);
    Frame *fr = &in.frame;
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR};
    VmafContext *a = NULL, *b = NULL, *c = NULL;
    VmafCudaState *own = NULL, *primary = NULL;
    VmafPicture p, q, saved;
    CUdevice dev;
    CUcontext ctx;

    CHECK_OK(cu.init(0));
    CHECK_OK(cu.device_get(&dev, 0));
    CHECK_OK(cu.ctx_create(&ctx, 0, dev)); /* and current, as cuCtxCreate leaves it */
    CHECK_OK(upload_frame(fr));
    CHECK_OK(cu.ctx_pop(NULL));
    CHECK_EINVAL(vmaf_cuda_state_init(NULL, (VmafCudaConfiguration){.cu_ctx = ctx}));
    if (cu.fake_counts) { /* a real driver may fault on a pointer that is no context */
        int not_a_context;
        CHECK_EINVAL(vmaf_cuda_state_init(&own, (VmafCudaConfiguration){.cu_ctx = &not_a_context}));
        CHECK(own == NULL);
    }
    CHECK_OK(vmaf_cuda_state_init(&own, (VmafCudaConfiguration){.cu_ctx = ctx}));
    CHECK_OK(vmaf_cuda_state_init(&primary, (VmafCudaConfiguration){.cu_ctx = NULL}));
    CHECK_OK(vmaf_init(&a, cfg));
    CHECK_OK(vmaf_init(&b, cfg));
    CHECK_OK(vmaf_init(&c, cfg));
    CHECK_EINVAL(vmaf_cuda_import_state(NULL, own));
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(a, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE)));
    CHECK_OK(vmaf_cuda_import_state(a, own));
    CHECK_OK(vmaf_cuda_import_state(a, own)); /* the same state again */
    CHECK_EINVAL(vmaf_cuda_import_state(a, primary)); /* another one */
    CHECK_OK(vmaf_cuda_import_state(b, own)); /* a second context while a is open */
    CHECK_OK(vmaf_cuda_import_state(c, primary));

    VmafCudaPictureConfiguration bad = picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE);
    bad.pic_prealloc_method = (enum VmafCudaPicturePreallocationMethod)7;
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(a, bad));
    bad = picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE);
    bad.pic_params.w = 0;
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(a, bad));
    bad.pic_params.w = (unsigned)fr->w;
    bad.pic_params.bpc = 17;
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(a, bad));
    bad.pic_params.bpc = (unsigned)fr->bpc;
    bad.pic_params.pix_fmt = VMAF_PIX_FMT_UNKNOWN;
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(a, bad));
    CHECK_EINVAL(vmaf_cuda_fetch_preallocated_picture(a, &p)); /* nothing preallocated yet */
    CHECK_OK(vmaf_cuda_preallocate_pictures(a, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE)));
    CHECK_OK(vmaf_cuda_preallocate_pictures(b, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE)));
    CHECK_OK(vmaf_use_feature(a, "psnr", NULL));
    CHECK_OK(vmaf_use_feature(b, "psnr", NULL));
    CHECK_OK(vmaf_use_feature(c, "psnr", NULL));

    /* A fresh device picture is zeros, as vmaf_picture_alloc's: planes a
     * caller leaves alone (FFmpeg fills luma only) are not leftovers. */
    CHECK_OK(vmaf_cuda_fetch_preallocated_picture(a, &p));
    CHECK(p.ref && p.data[0] && p.stride[0] >= (ptrdiff_t)p.w[0] * (p.bpc > 8 ? 2 : 1));
    CHECK(p.w[0] == (unsigned)fr->w && p.h[0] == (unsigned)fr->h && p.bpc == (unsigned)fr->bpc);
    {
        const int last = fr->fmt == VMAF_PIX_FMT_YUV400P ? 0 : 2;
        const size_t row = p.w[last] * (p.bpc > 8 ? 2 : 1);
        uint8_t *host = malloc(row * p.h[last]);
        CHECK(host);
        CHECK_OK(cu.ctx_push(ctx));
        CHECK_OK(copy_2d(MEM_DEVICE, NULL, (CUdeviceptr)(uintptr_t)p.data[last], p.stride[last], MEM_HOST,
                         host, 0, row, row, p.h[last]));
        CHECK_OK(cu.ctx_pop(NULL));
        for (size_t i = 0; i < row * p.h[last]; i++) CHECK(host[i] == 0);
        free(host);
    }
    CHECK_OK(vmaf_picture_unref(&p));
    CHECK(!p.ref && !p.data[0]);
    CHECK_EINVAL(vmaf_picture_unref(&p));

    /* Device pictures read by a context without imported state, and with
     * planes that are not the ones fetched: refused, still the caller's. */
    CHECK_OK(copy_picture_data_cuda(a, ctx, fr, &p, 3));
    CHECK_OK(copy_picture_data_cuda(a, ctx, fr, &q, 3));
    VmafContext *plain = NULL;
    CHECK_OK(vmaf_init(&plain, cfg));
    CHECK_OK(vmaf_use_feature(plain, "psnr", NULL));
    CHECK_EINVAL(vmaf_read_pictures(plain, &p, &q, 0));
    CHECK(p.ref && q.ref);
    CHECK_OK(vmaf_close(plain));
    CHECK_EINVAL(vmaf_read_pictures(c, &p, &q, 0)); /* c imported another context */
    saved = p;
    saved.data[0] = (uint8_t *)saved.data[0] + 64;
    CHECK_EINVAL(vmaf_read_pictures(a, &saved, &q, 0));
    saved = p;
    saved.stride[0] += 256;
    CHECK_EINVAL(vmaf_read_pictures(a, &saved, &q, 0));
    saved = p;
    saved.w[1] = saved.w[0]; /* a chroma plane claiming the luma's width */
    CHECK_EINVAL(vmaf_read_pictures(a, &saved, &q, 0));
    CHECK_OK(vmaf_read_pictures(a, &p, &q, 0)); /* both released */
    CHECK(!p.ref && !q.ref && !p.data[0]);

    /* Pictures of another size than the session's. */
    VmafContext *d = NULL;
    CHECK_OK(vmaf_init(&d, cfg));
    CHECK_OK(vmaf_cuda_import_state(d, own));
    VmafCudaPictureConfiguration small = picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE);
    small.pic_params.w -= 2;
    CHECK_OK(vmaf_cuda_preallocate_pictures(d, small));
    CHECK_OK(vmaf_use_feature(d, "psnr", NULL));
    CHECK_OK(vmaf_cuda_fetch_preallocated_picture(d, &p));
    CHECK_OK(vmaf_cuda_fetch_preallocated_picture(d, &q));
    CHECK_OK(vmaf_picture_alloc(&saved, fr->fmt, (unsigned)fr->bpc, (unsigned)fr->w, (unsigned)fr->h));
    CHECK(vmaf_read_pictures(d, &saved, &p, 0) < 0);
    CHECK_OK(vmaf_picture_unref(&saved));
    CHECK_OK(vmaf_read_pictures(d, &p, &q, 0)); /* the first picture sets the size */
    CHECK_OK(vmaf_close(d));

    /* Pinned pictures, and a device picture that outlives its context. */
    CHECK_EINVAL(vmaf_cuda_preallocate_pictures(NULL, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED)));
    CHECK_OK(vmaf_cuda_preallocate_pictures(c, picture_cfg(fr, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED)));
    CHECK_OK(copy_picture_data_host(c, fr, &p));
    CHECK_OK(copy_picture_data_host(c, fr, &q));
    CHECK_OK(vmaf_read_pictures(c, &p, &q, 0));
    CHECK_OK(vmaf_cuda_fetch_preallocated_picture(c, &p));
    CHECK_OK(vmaf_cuda_fetch_preallocated_picture(b, &q));
    CHECK_OK(vmaf_read_pictures(c, NULL, NULL, 0));
    CHECK_OK(vmaf_read_pictures(a, NULL, NULL, 0));
    double psnr;
    CHECK_OK(vmaf_feature_score_at_index(a, "psnr_y", &psnr, 0));
    CHECK(psnr == (fr->bpc == 8 ? 60.0 : 72.0));
    CHECK_OK(vmaf_feature_score_at_index(c, "psnr_y", &psnr, 0));
    CHECK(psnr == (fr->bpc == 8 ? 60.0 : 72.0));
    CHECK_OK(vmaf_close(a));
    CHECK_OK(vmaf_close(b));
    CHECK_OK(vmaf_close(c));
    CHECK_OK(vmaf_picture_unref(&p));
    CHECK_OK(vmaf_picture_unref(&q));

    /* Every context the states were imported into is closed: released, as
     * libvmaf's vmaf_close releases them, and refused from now on. */
    CHECK_OK(vmaf_init(&a, cfg));
    CHECK_EINVAL(vmaf_cuda_import_state(a, own));
    CHECK_EINVAL(vmaf_cuda_import_state(a, primary));
    CHECK_OK(vmaf_close(a));
    CHECK_OK(cu.ctx_push(ctx));
    y4m_close_device(&in);
    CHECK_OK(cu.ctx_pop(NULL));
    CHECK_OK(cu.ctx_destroy(ctx));
    CHECK(driver_is_clean());
    printf("invalid: ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--no-driver")) return no_driver(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "--invalid")) return invalid_calls(argv[2]);
    if (argc < 6) {
        fprintf(stderr, "usage: %s REF DIS THREADS OUT.json device|device_luma|pinned|host [--feature NAME=k=v] "
                        "[--print KEY...]\n", argv[0]);
        return 2;
    }
    enum VmafCudaPicturePreallocationMethod method;
    const unsigned planes = strcmp(argv[5], "device_luma") ? 3 : 1;
    if (!strcmp(argv[5], "device") || planes == 1) method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;
    else if (!strcmp(argv[5], "pinned")) method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED;
    else if (!strcmp(argv[5], "host")) method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST;
    else return 2;
    const char *feature = NULL;
    int argi = 6;
    for (; argi < argc && strcmp(argv[argi], "--print"); argi++) {
        if (!strcmp(argv[argi], "--feature") && argi + 1 < argc) feature = argv[++argi];
        else return 2;
    }
    Y4m ref, dis;
    CHECK(load_driver() == 0);
    CHECK(y4m_open(&ref, argv[1]) == 0 && y4m_open(&dis, argv[2]) == 0);

    /* FFmpeg's hwcontext: the caller's own context; the other methods take
     * libvmaf's (device 0's primary context). */
    CUdevice dev;
    CUcontext ctx = NULL;
    CHECK_OK(cu.init(0));
    CHECK_OK(cu.device_get(&dev, 0));
    CHECK_OK(cu.ctx_create(&ctx, 0, dev));
    CHECK_OK(cu.ctx_pop(NULL));

    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = (unsigned)atoi(argv[3])};
    VmafCudaConfiguration cuda_cfg = {.cu_ctx = method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE ? ctx : NULL};
    VmafContext *vmaf = NULL;
    VmafCudaState *cu_state = NULL;
    CHECK_OK(vmaf_init(&vmaf, cfg));
    CHECK_OK(vmaf_cuda_state_init(&cu_state, cuda_cfg));
    CHECK_OK(vmaf_cuda_import_state(vmaf, cu_state));
    CHECK_OK(vmaf_cuda_preallocate_pictures(vmaf, picture_cfg(&ref.frame, method)));

    VmafModelConfig model_cfg = {.name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT};
    VmafModel *model = NULL;
    CHECK_OK(vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1"));
    CHECK_OK(vmaf_use_features_from_model(vmaf, model));
    if (feature) {
        char spec[256];
        VmafFeatureDictionary *dict = NULL;
        snprintf(spec, sizeof(spec), "%s", feature);
        CHECK_OK(parse_options(spec, &dict));
        CHECK_OK(vmaf_use_feature(vmaf, spec, dict));
    }

    unsigned frame_cnt = 0;
    for (;;) {
        const int r = y4m_read(&ref), d = y4m_read(&dis);
        CHECK(r >= 0 && d >= 0 && r == d);
        if (!r) break;
        VmafPicture pic_ref, pic_dist;
        if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE) {
            CHECK_OK(cu.ctx_push(ctx));
            CHECK_OK(upload_frame(&ref.frame));
            CHECK_OK(upload_frame(&dis.frame));
            CHECK_OK(cu.ctx_pop(NULL));
            CHECK_OK(copy_picture_data_cuda(vmaf, ctx, &ref.frame, &pic_ref, planes));
            CHECK_OK(copy_picture_data_cuda(vmaf, ctx, &dis.frame, &pic_dist, planes));
        } else {
            CHECK_OK(copy_picture_data_host(vmaf, &ref.frame, &pic_ref));
            CHECK_OK(copy_picture_data_host(vmaf, &dis.frame, &pic_dist));
        }
        CHECK_OK(vmaf_read_pictures(vmaf, &pic_ref, &pic_dist, frame_cnt++));
    }
    CHECK_OK(vmaf_read_pictures(vmaf, NULL, NULL, 0));
    double vmaf_score;
    CHECK_OK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &vmaf_score, 0, frame_cnt - 1));
    printf("pooled vmaf %.17g\n", vmaf_score);
    CHECK_OK(vmaf_write_output(vmaf, argv[4], VMAF_OUTPUT_FORMAT_JSON));
    for (int i = argi + 1; argi < argc && i < argc; i++)
        for (unsigned f = 0; f < frame_cnt; f++) {
            double v;
            CHECK_OK(vmaf_feature_score_at_index(vmaf, argv[i], &v, f));
            printf("%s %u %.17g\n", argv[i], f, v);
        }
    vmaf_model_destroy(model);
    CHECK_OK(vmaf_close(vmaf));
    CHECK_OK(cu.ctx_push(ctx));
    y4m_close_device(&ref);
    y4m_close_device(&dis);
    CHECK_OK(cu.ctx_pop(NULL));
    CHECK_OK(cu.ctx_destroy(ctx));
    CHECK(driver_is_clean());
    return 0;
}
