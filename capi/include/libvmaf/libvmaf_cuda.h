/* libvmaf 3.2.0-compatible C API of vmafpp: the CUDA entry points FFmpeg's
 * libvmaf_cuda filter calls (FFmpeg 6.1 and later). Types, enum values and
 * signatures are libvmaf 3.2.0's, so a program compiled against libvmaf's
 * libvmaf_cuda.h links and runs against this libvmaf.so unchanged.
 *
 * The CUDA driver (libcuda.so.1) is opened at run time; without it
 * vmaf_cuda_state_init() returns a negative errno code. Device pictures
 * (VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE) hold CUdeviceptr values
 * in data[] and pitches in stride[]; vmaf_read_pictures() takes them. */
#ifndef __VMAF_CUDA_H__
#define __VMAF_CUDA_H__

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafCudaState VmafCudaState;

typedef struct VmafCudaConfiguration {
    void *cu_ctx; /* a CUcontext of the caller's, or NULL: device 0's primary context */
} VmafCudaConfiguration;

/* Opens the driver and the context; 0 or a negative errno code. */
int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg);

/* Lets vmaf read device pictures of cu_state's context. The context's
 * resources are released once every VmafContext it was imported into is
 * closed and every picture it allocated is released. */
int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state);

enum VmafCudaPicturePreallocationMethod {
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/* Pictures of cfg.pic_params for vmaf_cuda_fetch_preallocated_picture():
 * in device memory (DEVICE), host memory (HOST) or page-locked host memory
 * (HOST_PINNED); DEVICE and HOST_PINNED need vmaf_cuda_import_state() first. */
int vmaf_cuda_preallocate_pictures(VmafContext *vmaf,
                                   VmafCudaPictureConfiguration cfg);

/* One picture of the preallocated kind; hand it to vmaf_read_pictures()
 * (which releases it) or release it with vmaf_picture_unref(). */
int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_CUDA_H__ */
