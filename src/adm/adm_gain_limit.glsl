// adm_gain_limit_product(): trunc(fl(rst * gain)) from 64-bit integer
// operations only, the device form of adm::gain_product_integer()
// (adm_gain_limit.cpp has the argument). The limit is m * 2^-s with m in
// [2^52, 2^53) and s in [32, 62].

// bitlen(x) <= bitlen(y) without a bit scan.
bool adm_bitlen_at_most(uint64_t x, uint64_t y) { return !(y < x && y < (x ^ y)); }

int64_t adm_gain_limit_product(int rst, uint64_t m, int s) {
    const uint64_t a = rst < 0 ? uint64_t(-int64_t(rst)) : uint64_t(rst);
    const uint64_t m_lo = m & 0xfffffffful;
    const uint64_t m_hi = m >> 32;
    const uint64_t p_lo = a * m_lo;
    const uint64_t lo = p_lo & 0xfffffffful;
    const uint64_t hi = a * m_hi + (p_lo >> 32);
    const int s_hi = s - 32;
    const uint64_t n = hi >> s_hi;
    const uint64_t f = ((hi & ((uint64_t(1) << s_hi) - 1ul)) << 32) | lo;
    const uint64_t d = (uint64_t(1) << s) - f;
    uint64_t g;
    if (s <= 54) {
        g = d << (54 - s);
    } else {
        const int k = s - 54;
        g = (d + ((uint64_t(1) << k) - 1ul)) >> k;
    }
    const uint64_t t = adm_bitlen_at_most(g - 1ul, n) ? n + 1ul : n;
    return rst < 0 ? -int64_t(t) : int64_t(t);
}
