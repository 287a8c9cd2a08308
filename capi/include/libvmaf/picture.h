/* libvmaf 3.2.0-compatible C API of vmafpp: pictures. The layout of
 * VmafPicture is libvmaf's: callers write data[] through stride[]. */
#ifndef __VMAF_PICTURE_H__
#define __VMAF_PICTURE_H__

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P,
};

typedef struct VmafRef VmafRef;

typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;              /* 8..16; samples above 8 bits are uint16_t */
    unsigned w[3], h[3];       /* chroma: floor(w/2), floor(h/2) when subsampled */
    ptrdiff_t stride[3];       /* in bytes */
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* Zeroed planes of the given format; release with vmaf_picture_unref() or
 * hand to vmaf_read_pictures(), which releases them. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);

int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_PICTURE_H__ */
