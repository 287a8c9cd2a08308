// The built-in feature extractors, one line each, in registry order (the
// order `--help` and error messages list them in). Each feature folder
// defines `FeatureInfo <factory>()` in namespace vmafpp and includes only the
// plug-in interface (vmafpp/feature.hpp); registry.cpp expands this list to
// declare and call every factory. Adding a feature: its folder, a line here,
// and its folder's name in src/CMakeLists.txt.
#pragma once

#define VMAFPP_FEATURE_LIST(X)                  \
    X(integer_adm_info)     /* src/adm */        \
    X(integer_motion_info)  /* src/motion */     \
    X(integer_vif_info)     /* src/vif */        \
    X(float_adm_info)       /* src/float_adm */  \
    X(float_vif_info)       /* src/float_vif */  \
    X(float_motion_info)    /* src/float_motion */ \
    X(float_psnr_info)      /* src/psnr */       \
    X(float_ansnr_info)     /* src/ansnr */      \
    X(float_moment_info)    /* src/moment */     \
    X(integer_psnr_info)    /* src/psnr ("psnr") */ \
    X(float_ssim_info)      /* src/ssim */       \
    X(float_ms_ssim_info)   /* src/ssim */       \
    X(ciede_info)           /* src/ciede */      \
    X(psnr_hvs_info)        /* src/psnr_hvs */   \
    X(cambi_info)           /* src/cambi */      \
    X(speed_chroma_info)    /* src/speed */      \
    X(speed_temporal_info)  /* src/speed */
