// The AVX-512 statistics kernels built for the avx512icl level: the same
// source with VNNI available, so its multiply-adds into an accumulator are
// single vpdpwssd instructions (see madd_add there), exported as
// vif_stat_*_avx512icl. One source keeps the two levels' arithmetic
// identical by construction; checkasm still compares both with the scalar.
#define VMAFPP_VIF_STATS_SUFFIX _avx512icl
#define VMAFPP_VIF_STATS_LEVEL SimdLevel::avx512icl
#include "vif_stats_avx512.cpp"
