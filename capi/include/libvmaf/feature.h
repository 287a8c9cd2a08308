/* libvmaf 3.2.0-compatible C API of vmafpp: feature option dictionaries. */
#ifndef __VMAF_FEATURE_H__
#define __VMAF_FEATURE_H__

#ifdef __cplusplus
extern "C" {
#endif

/* Options of one feature extractor, e.g. "adm_enhn_gain_limit" = "1.0". */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Adds or replaces key=val; *dict == NULL starts a new dictionary. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);

/* Frees *dict and sets it to NULL. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* __VMAF_FEATURE_H__ */
