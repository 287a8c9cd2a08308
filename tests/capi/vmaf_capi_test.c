/* Drives libvmaf's C API the way FFmpeg's libavfilter/vf_libvmaf.c (5.1 and
 * later) does: vmaf_init, model load (collection load as the fallback),
 * vmaf_use_features_from_model, a --feature-like dictionary with
 * vmaf_use_feature, one vmaf_picture_alloc per frame filled row by row from
 * a frame with its own line size, vmaf_read_pictures(..., frame_cnt++), the
 * NULL/NULL flush, vmaf_score_pooled over 0..frame_cnt-1, vmaf_write_output,
 * destroy, close. Built against the installed libvmaf.pc only.
 *
 *   vmaf_capi_test REF.y4m DIS.y4m THREADS OUT.json [options] [--print KEY...]
 *     prints "pooled vmaf <%.17g>" (and a collection's pooled bootstrap
 *     scores) and, for each KEY and scored frame, "KEY FRAME <%.17g>".
 *   --model-path PATH [--conf-interval]: FFmpeg 5.1's deprecated options
 *     model_path and enable_conf_interval. As the filter does, PATH is loaded
 *     first, named "vmaf" (a collection with --conf-interval), its features
 *     used and never scored; then the filter's `model` option (default
 *     version=vmaf_v0.6.1, also named "vmaf") is loaded, used and pooled.
 *   --unscored model|collection:VERSION:NAME: after the scored model, a model
 *     or collection whose features are used and which is never scored.
 *   vmaf_capi_test --invalid REF.y4m
 *     checks that invalid calls return libvmaf 3.2.0's error codes (a table
 *     of misuses); prints "invalid: ok".
 */
#include <libvmaf.h>

#include "capi_test_common.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vf_libvmaf.c's copy_picture_data: a fresh picture, filled row by row. */
static int copy_picture_data(const Frame *src, VmafPicture *dst)
{
    const int bytes_per_value = src->bpc > 8 ? 2 : 1;
    int err = vmaf_picture_alloc(dst, src->fmt, src->bpc, src->w, src->h);
    if (err) return err;
    for (unsigned i = 0; i < 3; i++) {
        uint8_t *src_data = src->data[i];
        uint8_t *dst_data = dst->data[i];
        for (unsigned j = 0; j < dst->h[i]; j++) {
            memcpy(dst_data, src_data, bytes_per_value * dst->w[i]);
            src_data += src->linesize[i];
            dst_data += dst->stride[i];
        }
    }
    return 0;
}

#define CHECK_NEG(call)                                                    \
    do {                                                                   \
        int r_ = (call);                                                   \
        if (r_ >= 0) {                                                     \
            fprintf(stderr, "%s:%d: %s returned %d, expected < 0\n",       \
                    __FILE__, __LINE__, #call, r_);                        \
            return 1;                                                      \
        }                                                                  \
    } while (0)
/* The code libvmaf 3.2.0 returns for a misuse, exactly. */
#define CHECK_ERR(call, code)                                              \
    do {                                                                   \
        int r_ = (call);                                                   \
        if (r_ != (code)) {                                                \
            fprintf(stderr, "%s:%d: %s returned %d, libvmaf returns %d\n", \
                    __FILE__, __LINE__, #call, r_, (code));                \
            return 1;                                                      \
        }                                                                  \
    } while (0)
#define CHECK_OK(call)                                                     \
    do {                                                                   \
        int r_ = (call);                                                   \
        if (r_ < 0) {                                                      \
            fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, \
                    #call, r_);                                            \
            return 1;                                                      \
        }                                                                  \
    } while (0)

static int invalid_calls(const char *ref_path)
{
    Y4m in;
    if (y4m_open(&in, ref_path) || y4m_read(&in) != 1) return 1;
    const Frame *fr = &in.frame;
    VmafConfiguration cfg = {.log_level = VMAF_LOG_LEVEL_NONE};
    VmafContext *vmaf = NULL;
    VmafModel *model = NULL;
    VmafModelConfig mcfg = {.name = "vmaf"};
    VmafPicture a, b;
    double score;

    CHECK_NEG(vmaf_init(NULL, cfg));
    CHECK_NEG(vmaf_model_load(&model, &mcfg, "no_such_model"));
    CHECK_NEG(vmaf_model_load_from_path(&model, &mcfg, "/nonexistent/model.json"));
    CHECK_NEG(vmaf_model_load(NULL, &mcfg, "vmaf_v0.6.1"));
    CHECK_NEG(vmaf_picture_alloc(NULL, VMAF_PIX_FMT_YUV420P, 8, 16, 16));
    CHECK_NEG(vmaf_picture_alloc(&a, VMAF_PIX_FMT_UNKNOWN, 8, 16, 16));
    CHECK_NEG(vmaf_picture_alloc(&a, VMAF_PIX_FMT_YUV420P, 17, 16, 16));
    CHECK_NEG(vmaf_picture_unref(NULL));
    CHECK_NEG(vmaf_feature_dictionary_set(NULL, "a", "b"));
    CHECK_NEG(vmaf_close(NULL));
    CHECK_NEG(vmaf_read_pictures(NULL, NULL, NULL, 0));

    CHECK_OK(vmaf_init(&vmaf, cfg));
    CHECK_OK(vmaf_model_load(&model, &mcfg, "vmaf_v0.6.1"));
    CHECK_NEG(vmaf_use_features_from_model(vmaf, NULL));
    CHECK_OK(vmaf_use_features_from_model(vmaf, model));
    CHECK_NEG(vmaf_use_feature(vmaf, "no_such_feature", NULL));
    VmafFeatureDictionary *d = NULL;
    CHECK_OK(vmaf_feature_dictionary_set(&d, "no_such_option", "1"));
    CHECK_NEG(vmaf_use_feature(vmaf, "psnr", d)); /* consumed, as libvmaf */

    /* Scores before any picture, and a write before the flush. */
    CHECK_NEG(vmaf_score_at_index(vmaf, model, &score, 0));
    CHECK_NEG(vmaf_feature_score_at_index(vmaf, "vif_scale0", &score, 0));
    CHECK_NEG(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_JSON));

    /* One picture without the other; pictures of different sizes; out of order. */
    CHECK_OK(copy_picture_data(fr, &a));
    CHECK_NEG(vmaf_read_pictures(vmaf, &a, NULL, 0));
    CHECK_OK(vmaf_picture_alloc(&b, fr->fmt, fr->bpc, fr->w - 2, fr->h));
    CHECK_NEG(vmaf_read_pictures(vmaf, &a, &b, 0));
    CHECK_OK(vmaf_picture_unref(&b));
    CHECK_OK(vmaf_picture_alloc(&b, fr->fmt, fr->bpc == 8 ? 10 : 8, fr->w, fr->h));
    CHECK_NEG(vmaf_read_pictures(vmaf, &a, &b, 0));
    CHECK_OK(vmaf_picture_unref(&b));
    CHECK_OK(copy_picture_data(fr, &b));
    CHECK_NEG(vmaf_read_pictures(vmaf, &a, &b, 5));
    /* A caller's own picture with a missing plane. */
    VmafPicture bare = a;
    bare.data[0] = NULL;
    bare.ref = NULL;
    CHECK_NEG(vmaf_read_pictures(vmaf, &bare, &b, 0));
    /* Too small a stride. */
    bare = a;
    bare.stride[0] = 1;
    bare.ref = NULL;
    CHECK_NEG(vmaf_read_pictures(vmaf, &bare, &b, 0));

    CHECK_OK(vmaf_read_pictures(vmaf, &a, &b, 0)); /* both released */
    if (a.ref || b.ref || a.data[0]) {
        fprintf(stderr, "pictures not released by vmaf_read_pictures\n");
        return 1;
    }
    /* A picture of another size after the first one. */
    CHECK_OK(vmaf_picture_alloc(&a, fr->fmt, fr->bpc, fr->w + 2, fr->h));
    CHECK_OK(vmaf_picture_alloc(&b, fr->fmt, fr->bpc, fr->w + 2, fr->h));
    CHECK_NEG(vmaf_read_pictures(vmaf, &a, &b, 1));
    CHECK_OK(vmaf_picture_unref(&a));
    CHECK_OK(vmaf_picture_unref(&b));
    CHECK_NEG(vmaf_picture_unref(&a)); /* already released */

    CHECK_OK(vmaf_read_pictures(vmaf, NULL, NULL, 0));
    /* Reading, or flushing again, after the flush. */
    CHECK_OK(copy_picture_data(fr, &a));
    CHECK_OK(copy_picture_data(fr, &b));
    CHECK_NEG(vmaf_read_pictures(vmaf, &a, &b, 1));
    CHECK_NEG(vmaf_read_pictures(vmaf, NULL, NULL, 0));
    CHECK_OK(vmaf_picture_unref(&a));
    CHECK_OK(vmaf_picture_unref(&b));

    /* Models, each misuse with the code libvmaf 3.2.0 returns (libvmaf.c,
     * predict.c, model.c, read_json_model.c). Its collector keeps values by
     * name, a model is scored only when asked (the flush scores none), and a
     * value once written is never overwritten. */
    VmafModel *float_model = NULL, *member0 = NULL, *not_loaded = NULL;
    VmafModelCollection *collection = NULL, *no_collection = NULL;
    /* A collection's file is no model (libvmaf's CLI relies on this -EINVAL
     * to fall back on the collection loader); a model's is no collection. */
    CHECK_ERR(vmaf_model_load(&not_loaded, &mcfg, "vmaf_b_v0.6.3"), -EINVAL);
    CHECK_ERR(vmaf_model_collection_load(&not_loaded, &no_collection, &mcfg, "vmaf_v0.6.1"), -EINVAL);
    if (not_loaded || no_collection) {
        fprintf(stderr, "a failed load returned a handle\n");
        return 1;
    }
    /* Another model named "vmaf", never registered: vmaf_v0.6.1 has not been
     * scored, so nothing is under "vmaf" yet, and its float features were
     * never extracted: -EINVAL, not vmaf_v0.6.1's score. */
    CHECK_OK(vmaf_model_load(&float_model, &mcfg, "vmaf_float_v0.6.1"));
    CHECK_ERR(vmaf_score_at_index(vmaf, float_model, &score, 0), -EINVAL);
    CHECK_ERR(vmaf_score_pooled(vmaf, float_model, VMAF_POOL_METHOD_MEAN, &score, 0, 0), -EINVAL);
    /* Once vmaf_v0.6.1 wrote "vmaf" at frame 0, libvmaf answers any model
     * named "vmaf" there from the collector, without predicting. */
    double v061 = -1;
    CHECK_ERR(vmaf_score_at_index(vmaf, model, &v061, 0), 0);
    score = -2;
    CHECK_ERR(vmaf_score_at_index(vmaf, float_model, &score, 0), 0);
    if (score != v061) {
        fprintf(stderr, "vmaf_score_at_index: %.17g is not the value under \"vmaf\", %.17g\n", score, v061);
        return 1;
    }
    /* A collection load's model is member 0, also "vmaf": the same lookup.
     * Members 1..N write vmaf_0001.. once per frame: a second call at the
     * same frame, or a pooling over it, is refused. */
    CHECK_OK(vmaf_model_collection_load(&member0, &collection, &mcfg, "vmaf_b_v0.6.3"));
    score = -2;
    CHECK_ERR(vmaf_score_at_index(vmaf, member0, &score, 0), 0);
    if (score != v061) {
        fprintf(stderr, "member 0: %.17g is not the value under \"vmaf\", %.17g\n", score, v061);
        return 1;
    }
    VmafModelCollectionScore cs;
    CHECK_ERR(vmaf_score_at_index_model_collection(vmaf, collection, &cs, 0), 0);
    CHECK_ERR(vmaf_score_at_index_model_collection(vmaf, collection, &cs, 0), -EINVAL);
    CHECK_ERR(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_MEAN, &cs, 0, 0), -EINVAL);
    CHECK_ERR(vmaf_score_at_index_model_collection(vmaf, collection, &cs, 1), -EINVAL); /* no frame 1 */
    CHECK_ERR(vmaf_score_pooled_model_collection(vmaf, collection, VMAF_POOL_METHOD_UNKNOWN, &cs, 0, 0), -EINVAL);
    CHECK_ERR(vmaf_feature_score_at_index(vmaf, "vmaf_0001", &score, 0), 0);
    /* The collection's overload also overloads the model, whose absence is -EINVAL. */
    VmafFeatureDictionary *od = NULL;
    CHECK_OK(vmaf_feature_dictionary_set(&od, "adm_enhn_gain_limit", "1.2"));
    CHECK_ERR(vmaf_model_collection_feature_overload(NULL, &collection, "adm", od), -EINVAL);
    vmaf_model_destroy(member0);
    vmaf_model_collection_destroy(collection);
    vmaf_model_destroy(float_model);

    CHECK_ERR(vmaf_score_at_index(vmaf, model, &score, 0), 0);
    CHECK_ERR(vmaf_score_at_index(vmaf, model, &score, 1), -EINVAL); /* no such frame */
    CHECK_ERR(vmaf_score_at_index(vmaf, model, NULL, 0), -EINVAL);
    CHECK_ERR(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &score, 1, 0), -EINVAL);
    CHECK_ERR(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_UNKNOWN, &score, 0, 0), -EINVAL);
    CHECK_ERR(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_NB, &score, 0, 0), -EINVAL);
    CHECK_ERR(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &score, 0, 4294967295u), -EINVAL);
    CHECK_ERR(vmaf_feature_score_pooled(vmaf, "no_such_key", VMAF_POOL_METHOD_MEAN, &score, 0, 0), -EINVAL);
    CHECK_ERR(vmaf_feature_score_pooled(vmaf, "vmaf", VMAF_POOL_METHOD_UNKNOWN, &score, 0, 0), -EINVAL);
    CHECK_NEG(vmaf_write_output(vmaf, NULL, VMAF_OUTPUT_FORMAT_JSON)); /* libvmaf: fopen(NULL) */
    CHECK_ERR(vmaf_write_output(vmaf, "/dev/null", VMAF_OUTPUT_FORMAT_NONE), -EINVAL);
    CHECK_ERR(vmaf_write_output(vmaf, "/nonexistent/dir/x.json", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
    CHECK_ERR(vmaf_import_feature_score(vmaf, "integer_vif_scale0", 1.0, 0), -EINVAL); /* already written */
    CHECK_ERR(vmaf_import_feature_score(vmaf, "vmaf", 1.0, 0), -EINVAL);              /* scored above */
    CHECK_NEG(vmaf_preallocate_pictures(vmaf, (VmafPictureConfiguration){{0, 0, 8, VMAF_PIX_FMT_YUV420P}, 1}));
    CHECK_NEG(vmaf_fetch_preallocated_picture(vmaf, &a)); /* no pool */
    CHECK_OK(vmaf_preallocate_pictures(vmaf, (VmafPictureConfiguration){{16, 16, 8, VMAF_PIX_FMT_YUV420P}, 1}));
    CHECK_OK(vmaf_fetch_preallocated_picture(vmaf, &a));
    CHECK_NEG(vmaf_fetch_preallocated_picture(vmaf, &b)); /* pool of one, taken */
    CHECK_OK(vmaf_picture_unref(&a));
    CHECK_OK(vmaf_fetch_preallocated_picture(vmaf, &a));
    CHECK_OK(vmaf_picture_unref(&a));

    vmaf_model_destroy(model);
    CHECK_OK(vmaf_close(vmaf));
    if (strncmp(vmaf_version(), "3.2.0", 5)) return 1;
    y4m_close(&in);
    printf("invalid: ok\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "--invalid")) return invalid_calls(argv[2]);
    if (argc < 5) {
        fprintf(stderr, "usage: %s REF DIS THREADS OUT.json [--model VERSION] [--collection]\n"
                        "  [--overload EXTRACTOR=k=v] [--feature NAME=k=v:k=v] [--subsample N]\n"
                        "  [--model-path PATH [--conf-interval]] [--unscored model|collection:VERSION:NAME]\n"
                        "  [--print KEY...]\n",
                argv[0]);
        return 2;
    }
    Y4m ref, dis;
    if (y4m_open(&ref, argv[1]) || y4m_open(&dis, argv[2])) {
        fprintf(stderr, "cannot read the Y4M inputs\n");
        return 1;
    }
    const char *version = "vmaf_v0.6.1", *feature = NULL, *overload = NULL, *model_path = NULL;
    char unscored[256] = "";
    int collection = 0, conf_interval = 0, argi = 5;
    unsigned subsample = 1;
    for (; argi < argc && strcmp(argv[argi], "--print"); argi++) {
        if (!strcmp(argv[argi], "--collection")) collection = 1;
        else if (!strcmp(argv[argi], "--conf-interval")) conf_interval = 1;
        else if (argi + 1 >= argc) return 2;
        else if (!strcmp(argv[argi], "--model-path")) model_path = argv[++argi];
        else if (!strcmp(argv[argi], "--unscored")) snprintf(unscored, sizeof(unscored), "%s", argv[++argi]);
        else if (!strcmp(argv[argi], "--model")) version = argv[++argi];
        else if (!strcmp(argv[argi], "--feature")) feature = argv[++argi];
        else if (!strcmp(argv[argi], "--overload")) overload = argv[++argi];
        else if (!strcmp(argv[argi], "--subsample")) subsample = (unsigned)atoi(argv[++argi]);
        else return 2;
    }

    VmafConfiguration cfg = {
        .log_level = VMAF_LOG_LEVEL_ERROR,
        .n_subsample = subsample,
        .n_threads = (unsigned)atoi(argv[3]),
    };
    VmafContext *vmaf = NULL;
    CHECK_OK(vmaf_init(&vmaf, cfg));

    /* vf_libvmaf.c's parse_deprecated_options: model_path's model (or, with
     * enable_conf_interval, collection) named "vmaf"; the collection's
     * members' features are used, the model handle is never used. Neither
     * is ever scored: the filter pools only its `model` option's models. */
    VmafModelConfig model_cfg = {.name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT};
    VmafModel *old_model = NULL;
    VmafModelCollection *old_collection = NULL;
    if (model_path && conf_interval) {
        CHECK_OK(vmaf_model_collection_load_from_path(&old_model, &old_collection, &model_cfg, model_path));
        CHECK_OK(vmaf_use_features_from_model_collection(vmaf, old_collection));
    } else if (model_path) {
        CHECK_OK(vmaf_model_load_from_path(&old_model, &model_cfg, model_path));
        CHECK_OK(vmaf_use_features_from_model(vmaf, old_model));
    }

    VmafModel *model = NULL;
    VmafModelCollection *model_collection = NULL;
    if (collection)
        CHECK_OK(vmaf_model_collection_load(&model, &model_collection, &model_cfg, version));
    else
        CHECK_OK(vmaf_model_load(&model, &model_cfg, version));
    if (overload) { /* "adm=adm_enhn_gain_limit=1.2", the filter's model option "adm.x=y" */
        char spec[256];
        VmafFeatureDictionary *dict = NULL;
        snprintf(spec, sizeof(spec), "%s", overload);
        CHECK_OK(parse_options(spec, &dict));
        if (model_collection)
            CHECK_OK(vmaf_model_collection_feature_overload(model, &model_collection, spec, dict));
        else
            CHECK_OK(vmaf_model_feature_overload(model, spec, dict));
    }
    CHECK_OK(vmaf_use_features_from_model(vmaf, model));
    if (model_collection) CHECK_OK(vmaf_use_features_from_model_collection(vmaf, model_collection));

    /* "model|collection:VERSION:NAME": registered after the scored model and
     * never scored, so none of its outputs may reach vmaf_write_output. */
    VmafModel *unscored_model = NULL;
    VmafModelCollection *unscored_collection = NULL;
    if (unscored[0]) {
        char *kind = unscored, *uversion = strchr(kind, ':'), *uname = NULL;
        if (!uversion || !(uname = strchr(uversion + 1, ':'))) return 2;
        *uversion++ = '\0';
        *uname++ = '\0';
        VmafModelConfig ucfg = {.name = uname, .flags = VMAF_MODEL_FLAGS_DEFAULT};
        if (!strcmp(kind, "collection")) {
            CHECK_OK(vmaf_model_collection_load(&unscored_model, &unscored_collection, &ucfg, uversion));
            CHECK_OK(vmaf_use_features_from_model_collection(vmaf, unscored_collection));
        } else {
            CHECK_OK(vmaf_model_load(&unscored_model, &ucfg, uversion));
            CHECK_OK(vmaf_use_features_from_model(vmaf, unscored_model));
        }
    }

    if (feature) { /* FFmpeg's feature option */
        char spec[256];
        VmafFeatureDictionary *dict = NULL;
        snprintf(spec, sizeof(spec), "%s", feature);
        CHECK_OK(parse_options(spec, &dict));
        CHECK_OK(vmaf_use_feature(vmaf, spec, dict));
    }

    unsigned frame_cnt = 0;
    for (;;) {
        const int r = y4m_read(&ref), d = y4m_read(&dis);
        if (r < 0 || d < 0 || r != d) return 1;
        if (!r) break;
        VmafPicture pic_ref, pic_dist;
        CHECK_OK(copy_picture_data(&ref.frame, &pic_ref));
        CHECK_OK(copy_picture_data(&dis.frame, &pic_dist));
        CHECK_OK(vmaf_read_pictures(vmaf, &pic_ref, &pic_dist, frame_cnt++));
    }
    CHECK_OK(vmaf_read_pictures(vmaf, NULL, NULL, 0));

    double vmaf_score;
    CHECK_OK(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &vmaf_score, 0, frame_cnt - 1));
    printf("pooled vmaf %.17g\n", vmaf_score);
    if (model_collection) {
        VmafModelCollectionScore cs;
        CHECK_OK(vmaf_score_pooled_model_collection(vmaf, model_collection, VMAF_POOL_METHOD_MEAN,
                                                    &cs, 0, frame_cnt - 1));
        printf("pooled vmaf_bagging %.17g\n", cs.bootstrap.bagging_score);
        printf("pooled vmaf_stddev %.17g\n", cs.bootstrap.stddev);
        printf("pooled vmaf_ci_p95_lo %.17g\n", cs.bootstrap.ci.p95.lo);
        printf("pooled vmaf_ci_p95_hi %.17g\n", cs.bootstrap.ci.p95.hi);
    }
    CHECK_OK(vmaf_write_output(vmaf, argv[4], VMAF_OUTPUT_FORMAT_JSON));

    for (int i = argi + 1; argi < argc && i < argc; i++)
        for (unsigned f = 0; f < frame_cnt; f += subsample) {
            double v;
            CHECK_OK(vmaf_feature_score_at_index(vmaf, argv[i], &v, f));
            printf("%s %u %.17g\n", argv[i], f, v);
        }

    vmaf_model_destroy(model);
    if (model_collection) vmaf_model_collection_destroy(model_collection);
    if (old_model) vmaf_model_destroy(old_model);
    if (old_collection) vmaf_model_collection_destroy(old_collection);
    if (unscored_model) vmaf_model_destroy(unscored_model);
    if (unscored_collection) vmaf_model_collection_destroy(unscored_collection);
    CHECK_OK(vmaf_close(vmaf));
    y4m_close(&ref);
    y4m_close(&dis);
    return 0;
}
