/* What the C API tests share (vmaf_capi_test.c, vmaf_cuda_capi_test.c): Y4M
 * clips read into frames laid out as FFmpeg hands them to its libvmaf filters,
 * and the filter's feature-option syntax. Header-only: each test is one
 * translation unit that run_install_test.sh compiles against libvmaf.pc. */
#ifndef VMAFPP_TESTS_CAPI_TEST_COMMON_H
#define VMAFPP_TESTS_CAPI_TEST_COMMON_H

#include <libvmaf.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decoded frame as FFmpeg hands it to the filter: planes with line sizes
 * (chroma ceil(w/2) like AVFrame), not libvmaf's layout. */
typedef struct Frame {
    int w, h, bpc, cw, ch;
    enum VmafPixelFormat fmt;
    uint8_t *data[3];
    int linesize[3];
    /* The planes' device copies (CUdeviceptr) where a test uploads them
     * (vmaf_cuda_capi_test.c, which frees them); 0 elsewhere. */
    unsigned long long dev[3];
} Frame;

typedef struct Y4m {
    FILE *f;
    Frame frame;
} Y4m;

static int y4m_open(Y4m *y, const char *path)
{
    char header[512];
    memset(y, 0, sizeof(*y));
    y->f = fopen(path, "rb");
    if (!y->f || !fgets(header, sizeof(header), y->f) || strncmp(header, "YUV4MPEG2 ", 10))
        return -1;
    Frame *fr = &y->frame;
    fr->bpc = 8;
    fr->fmt = VMAF_PIX_FMT_YUV420P;
    for (char *tok = strtok(header + 10, " \n"); tok; tok = strtok(NULL, " \n")) {
        if (tok[0] == 'W') fr->w = atoi(tok + 1);
        if (tok[0] == 'H') fr->h = atoi(tok + 1);
        if (tok[0] == 'C') {
            if (!strncmp(tok + 1, "444", 3)) fr->fmt = VMAF_PIX_FMT_YUV444P;
            else if (!strncmp(tok + 1, "422", 3)) fr->fmt = VMAF_PIX_FMT_YUV422P;
            else if (!strncmp(tok + 1, "mono", 4)) fr->fmt = VMAF_PIX_FMT_YUV400P;
            const char *p = strchr(tok, 'p');
            if (p && p[1] >= '0' && p[1] <= '9') fr->bpc = atoi(p + 1);
        }
    }
    const int sx = fr->fmt != VMAF_PIX_FMT_YUV444P, sy = fr->fmt == VMAF_PIX_FMT_YUV420P;
    fr->cw = fr->fmt == VMAF_PIX_FMT_YUV400P ? 0 : (fr->w + sx) >> sx;
    fr->ch = fr->fmt == VMAF_PIX_FMT_YUV400P ? 0 : (fr->h + sy) >> sy;
    const int bps = fr->bpc > 8 ? 2 : 1;
    for (int i = 0; i < 3; i++) {
        const int w = i ? fr->cw : fr->w, h = i ? fr->ch : fr->h;
        fr->linesize[i] = (w * bps + 63) / 64 * 64 + 64; /* padded, as decoders do */
        fr->data[i] = calloc((size_t)fr->linesize[i] * (h ? h : 1), 1);
    }
    return fr->w > 0 && fr->h > 0 ? 0 : -1;
}

static int y4m_read(Y4m *y)
{
    char line[256];
    if (!fgets(line, sizeof(line), y->f)) return 0;
    if (strncmp(line, "FRAME", 5)) return -1;
    Frame *fr = &y->frame;
    const int bps = fr->bpc > 8 ? 2 : 1;
    for (int i = 0; i < 3; i++) {
        const int w = i ? fr->cw : fr->w, h = i ? fr->ch : fr->h;
        for (int r = 0; r < h; r++)
            if (fread(fr->data[i] + (size_t)r * fr->linesize[i], bps, w, y->f) != (size_t)w)
                return -1;
    }
    return 1;
}

static void y4m_close(Y4m *y)
{
    for (int i = 0; i < 3; i++) free(y->frame.data[i]);
    if (y->f) fclose(y->f);
}

/* "name=k=v:k=v" into a dictionary; the name stays in spec. */
static int parse_options(char *spec, VmafFeatureDictionary **dict)
{
    char *opts = strchr(spec, '=');
    if (opts) *opts++ = '\0';
    for (char *kv = opts ? strtok(opts, ":") : NULL; kv; kv = strtok(NULL, ":")) {
        char *eq = strchr(kv, '=');
        if (!eq) return -EINVAL;
        *eq = '\0';
        int err = vmaf_feature_dictionary_set(dict, kv, eq + 1);
        if (err) return err;
    }
    return 0;
}

#endif
