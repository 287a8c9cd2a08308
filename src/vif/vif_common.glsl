// Shared by the VIF shaders: libvmaf's four Q16 filters (vif_kernels.hpp
// kFilter0..3), the mirror and the sample loads.
// The four filters one after another (17 + 9 + 5 + 3 taps), filter f from
// kFilterStart[f]: one flat table keeps the lookup a single indexed load.
const uint kFilters[34] = uint[](
    489u, 935u, 1640u, 2640u, 3896u, 5274u, 6547u, 7455u, 7784u, 7455u, 6547u, 5274u, 3896u,
    2640u, 1640u, 935u, 489u,
    1244u, 3663u, 7925u, 12590u, 14692u, 12590u, 7925u, 3663u, 1244u,
    3571u, 16004u, 26386u, 16004u, 3571u,
    10904u, 43728u, 10904u);
const int kFilterStart[4] = int[](0, 17, 26, 31);
const int kFilterTaps[4] = int[](17, 9, 5, 3);

uint filter_tap(int f, int t) { return kFilters[kFilterStart[f] + t]; }

// Sample -k is k, sample n-1+k is n-1-k.
int reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

// 0: bytes packed 4 per word; 1: uint16 packed 2 per word; 2: one per word.
#define VIF_LOAD(buf, kind, i) \
    ((kind) == 0 ? ((buf[(i) >> 2] >> (8 * ((i) & 3))) & 0xffu) \
                 : ((kind) == 1 ? ((buf[(i) >> 1] >> (16 * ((i) & 1))) & 0xffffu) : buf[(i)]))
