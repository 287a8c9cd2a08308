// Shared by the VIF shaders: libvmaf's four Q16 filters (vif_kernels.hpp
// kFilter0..3), the mirror and the sample loads.
const uint kFilter0[17] = uint[](489u, 935u, 1640u, 2640u, 3896u, 5274u, 6547u, 7455u, 7784u,
                                 7455u, 6547u, 5274u, 3896u, 2640u, 1640u, 935u, 489u);
const uint kFilter1[9] = uint[](1244u, 3663u, 7925u, 12590u, 14692u, 12590u, 7925u, 3663u, 1244u);
const uint kFilter2[5] = uint[](3571u, 16004u, 26386u, 16004u, 3571u);
const uint kFilter3[3] = uint[](10904u, 43728u, 10904u);
const int kFilterTaps[4] = int[](17, 9, 5, 3);

uint filter_tap(int f, int t) {
    if (f == 0) return kFilter0[t];
    if (f == 1) return kFilter1[t];
    if (f == 2) return kFilter2[t];
    return kFilter3[t];
}

// Sample -k is k, sample n-1+k is n-1-k.
int reflect(int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); }

// 0: bytes packed 4 per word; 1: uint16 packed 2 per word; 2: one per word.
#define VIF_LOAD(buf, kind, i) \
    ((kind) == 0 ? ((buf[(i) >> 2] >> (8 * ((i) & 3))) & 0xffu) \
                 : ((kind) == 1 ? ((buf[(i) >> 1] >> (16 * ((i) & 1))) & 0xffffu) : buf[(i)]))
