// The kernel contract of libvmaf's ciede extractor: the CIEDE2000 colour
// difference of every pixel, from 4:4:4 Y'CbCr samples through BT.709 R'G'B',
// linear RGB, XYZ (D65) and CIELAB, in libvmaf's mix of float and double.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "base/large_alloc.hpp"
#include "dispatch/kernel_decl.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::ciede {


struct Lab {
    float l = 0.0f;
    float a = 0.0f;
    float b = 0.0f;
};

// One limited-range Y'CbCr sample of bit depth bpc to CIELAB. All in
// double: y' = (y - 16 s) * (1 / (219 s)), cb, cr likewise around 128 s with
// 224 s (s = 2^(bpc-8)); BT.709 R'G'B'; the sRGB curve (threshold 10/255,
// pow(., 2.4)); XYZ; each of X/Xn, Y, Z/Zn through the CIELAB f (cube root by
// pow(., 1/3) above 216/24389) and rounded to float there; L, a, b rounded
// to float.
Lab lab_from_yuv(double y, double u, double v, int bpc);

// CIEDE2000's hue weight T(h) in double, as libvmaf computes it (four libm
// cosines) before rounding it to float.
double hue_weight_t_double(double h);

// CIEDE2000 with kL = 0.65, kC = 1, kH = 4: every intermediate a float,
// computed in double where libvmaf's C promotes (sqrt, pow, trigonometry,
// double constants), in libvmaf's order.
float delta_e_2000(const Lab& c1, const Lab& c2);

// lab_from_yuv of one bit depth, remembered (LabCache): the conversion is a
// pure function of the (y, u, v) triple, so a remembered value has the bits
// of a computed one; a frame of natural video has about 130 000 distinct
// triples in 2 million pixels (1080p), so most pixels skip its six pow()
// calls. 8-bit triples are remembered in blocks per chroma pair and luma
// group (LabBlocks),
// deeper ones in a hashed table (LabTable): a key's set (the top kLabSetBits
// bits of key * kLabHash, a multiplicative hash) holds two slots, which a
// lookup checks both; a new key takes the first and moves the first's to
// the second. When the table held 8-bit triples too, on the corpus's natural
// 1080p pair (p19), a direct-mapped table of 2^18 slots missed 8.8% of the
// lookups, mostly on collisions (2^19: 3.9%, 2^20: 2.0%; two ways of 2^18
// sets: 3.2%). The table is larger than the L2 cache and hit in no order, so
// slots are small: up to 10 bits a key fits 32 bits and a slot 16 bytes (a
// set 32, 8 MiB in all); above, 24 bytes (12 MiB).
inline constexpr int kLabSetBits = 18;

// Which table's sets a keys kernel writes: LabTable's hash of the key, or
// the group (y >> 4, u, v) that indexes a LabBlocks block, for 8-bit
// samples in 10-bit keys only.
enum class LabSets { hashed, groups };
inline constexpr std::uint64_t kLabHash = 0x9E3779B97F4A7C15ull;

// The view a row works through: the slots' address and the key layout as
// plain values, which the row's loop keeps in registers.
template <class Key>
struct LabTable {
    struct Slot {
        Key key = 0;  // 0: empty (a real key has `valid` set)
        Lab lab;
    };
    static constexpr int kWays = 2;
    // Per component in a key: 10 bits in a 32-bit key, else 16; then the
    // bit that marks a slot in use.
    static constexpr int bits = sizeof(Key) == 4 ? 10 : 16;
    static constexpr std::uint64_t valid = std::uint64_t{1} << (3 * bits);

    Slot* slots;
    int bpc;

    static std::uint64_t key(std::uint16_t y, std::uint16_t u, std::uint16_t v) {
        return valid | y | (std::uint64_t{u} << bits) | (std::uint64_t{v} << (2 * bits));
    }
    static std::uint32_t set_of(std::uint64_t key) {
        return static_cast<std::uint32_t>((key * kLabHash) >> (64 - kLabSetBits));
    }
    static constexpr LabSets kSets = LabSets::hashed;
    // Starts loading a set, so that a row can fetch its pixels' sets before
    // it reads them.
    void prefetch(std::uint64_t /*key*/, std::uint32_t set) const {
        __builtin_prefetch(slots + kWays * std::size_t{set});
    }
    void prefetch_index(std::uint32_t /*set*/) const {}  // no index
    // The key's (y, u, v).
    static std::uint16_t component(std::uint64_t key, int c) {
        return static_cast<std::uint16_t>(key >> (c * bits) & ((std::uint64_t{1} << bits) - 1));
    }
    // The remembered value of key into *lab, if there is one.
    bool find(std::uint64_t key, std::uint32_t set, Lab* lab) const {
        const Slot* s = slots + kWays * std::size_t{set};
        const Key k = static_cast<Key>(key);
        if (s[0].key == k) return *lab = s[0].lab, true;
        if (s[1].key == k) return *lab = s[1].lab, true;
        return false;
    }
    // Remembers key's value: the first slot of its set, the first's earlier
    // key moved to the second (unless key is there already: a row may find
    // the same missing key twice).
    void insert(std::uint64_t key, std::uint32_t set, const Lab& lab) const {
        Slot* s = slots + kWays * std::size_t{set};
        const Key k = static_cast<Key>(key);
        if (s[0].key != k) s[1] = s[0];
        s[0].key = k;
        s[0].lab = lab;
    }
};

// lab_from_yuv of 8-bit triples, remembered in blocks: a block holds the Lab
// values of 16 consecutive luma values (y >> 4) of one (u, v) pair, computed
// on first use (a NaN L marks one not yet computed; a computed L is finite).
// Pixels near each other share a chroma pair more often than not (4:2:0
// gives every chroma sample to two neighbours; natural chroma is smooth) and
// have similar luma, so a row's lookups stay within a few blocks that the
// caches hold, where a hashed table is read at random. Blocks are taken from
// a pool of kCapacity in turn, as a ring: before the ring comes round to a
// run of kCapacity / kRuns blocks, the run's blocks are forgotten (the
// oldest), so that noise-like content costs conversions, never memory
// (forgetting an eighth at a time, not the whole pool, misses 4.1% of the
// synthetic pair's lookups instead of 4.9%). Keys have
// LabTable<std::uint32_t>'s layout (10 bits a component). A key's "set" is
// its group (the index entry that names its block), which the keys kernel
// writes (LabSets::groups) and the prefetches, find and insert read: on the
// synthetic 1080p pair, working the group out from the key in each of them
// took 14% of ciede's instructions, and in a pass of its own after the keys
// kernel (which then wrote hashed sets, unread), 6%.
// Why 16 luma values, not all 256 of a pair: noisy chroma uses many pairs
// with few luma values each (the synthetic 1080p testsrc2 + noise pair:
// 23 000 pairs a frame, 15 luma values each on average), so whole-pair
// blocks (3 KiB, 8192 in the same memory) were mostly empty, the pool was
// emptied 12 times a frame, a quarter of the lookups missed and taking a
// block (marking 256 values) was a third of ciede's time; blocks of 16 miss
// 4.8% of those lookups, and on the natural p19 as many as before (1.4%).
// The index (4 MiB), the pool (19.5 MiB) and its owners (0.4 MiB) together
// take less memory than the whole-pair pool (24 MiB) and its index took.
struct LabBlocks {
    static constexpr int bits = 10;
    static constexpr int kBlockValues = 16;
    static constexpr int kBlockShift = 4;  // log2(kBlockValues)
    static constexpr std::uint32_t kCapacity =
        (std::uint32_t{39} << 19) / (kBlockValues * sizeof(Lab));  // 19.5 MiB of blocks
    static constexpr std::uint32_t kRuns = 8;
    static constexpr std::uint32_t kRun = kCapacity / kRuns;
    static_assert(kCapacity % kRuns == 0);
    // Blocks an index may name: (u, v) pairs times luma groups.
    static constexpr std::uint32_t kGroups = (1u << 16) << (8 - kBlockShift);

    static constexpr int bpc = 8;
    std::uint32_t* index;  // per (u, v, y >> 4) group: 0, or 1 + its block
    Lab* pool;             // kCapacity blocks of kBlockValues
    std::uint32_t* owner;  // per block, its group
    std::uint32_t* next;   // the block to take next

    static std::uint64_t key(std::uint16_t y, std::uint16_t u, std::uint16_t v) {
        return LabTable<std::uint32_t>::key(y, u, v);
    }
    static constexpr LabSets kSets = LabSets::groups;
    static std::uint32_t set_of(std::uint64_t key) { return group_of(key); }
    // Starts loading the key's index entry, then (a pass later) its value
    // where the index names its block. On the synthetic 1080p pair at AVX2
    // the lookups took a third of ciede's time (most of it waiting for the
    // pool's misses) before the prefetches and 2 MiB pages, a fifth after.
    // (Fetching the values from within the lookup loop, 16 or 48 lookups
    // ahead, instead of in a pass of their own measured the same.)
    void prefetch_index(std::uint32_t group) const { touch(index + group); }
    void prefetch(std::uint64_t key, std::uint32_t group) const {
        const std::uint32_t b = index[group];
        if (b != 0) touch(pool + std::size_t{b - 1} * kBlockValues + (component(key, 0) & (kBlockValues - 1)));
    }
    static std::uint16_t component(std::uint64_t key, int c) {
        return LabTable<std::uint32_t>::component(key, c);
    }
    bool find(std::uint64_t key, std::uint32_t group, Lab* lab) const {
        const std::uint32_t b = index[group];
        if (b == 0) return false;
        const Lab& e = pool[std::size_t{b - 1} * kBlockValues + (component(key, 0) & (kBlockValues - 1))];
        if (e.l != e.l) return false;
        *lab = e;
        return true;
    }
    void insert(std::uint64_t key, std::uint32_t group, const Lab& lab) const {
        std::uint32_t b = index[group];
        if (b == 0) b = take(group);
        pool[std::size_t{b - 1} * kBlockValues + (component(key, 0) & (kBlockValues - 1))] = lab;
    }

private:
    // A prefetch GCC keeps: it dropped __builtin_prefetch of an address
    // loaded from the index (GCC 12, -O2).
    static void touch(const void* p) {
#if defined(__x86_64__)
        asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
        __builtin_prefetch(p);
#endif
    }
    // The key's block group: its (u, v) pair (two 8-bit components in 10-bit
    // fields) and y >> 4.
    static std::uint32_t group_of(std::uint64_t key) {
        const std::uint32_t pair = static_cast<std::uint32_t>(component(key, 1)) |
                                   static_cast<std::uint32_t>(component(key, 2)) << 8;
        return pair << (8 - kBlockShift) | component(key, 0) >> kBlockShift;
    }
    // Blocks b0 .. b1 - 1 forgotten: their groups' index entries cleared
    // (where a block was never taken, its owner, 0, does not name it).
    void forget(std::uint32_t b0, std::uint32_t b1) const {
        for (std::uint32_t b = b0; b < b1; ++b)
            if (index[owner[b]] == b + 1) index[owner[b]] = 0;
    }
    // The next block of the ring for `group`, its values marked not
    // computed; the run it starts forgotten first.
    std::uint32_t take(std::uint32_t group) const {
        const std::uint32_t b = *next;
        if (b % kRun == 0) forget(b, b + kRun);
        *next = b + 1 == kCapacity ? 0 : b + 1;
        owner[b] = group;
        Lab* block = pool + std::size_t{b} * kBlockValues;
        const float nan = __builtin_nanf("");
        for (int i = 0; i < kBlockValues; ++i) block[i].l = nan;
        index[group] = b + 1;
        return b + 1;
    }
};

// The remembered conversions of one bit depth: LabBlocks for 8 bits, else a
// LabTable (32-bit keys up to 10 bits, 64-bit above).
class LabCache {
public:
    explicit LabCache(int bpc) : bpc_(bpc) {
        if (bpc == 8) {
            index_.resize(LabBlocks::kGroups);
            owner_.resize(LabBlocks::kCapacity);
            // Untouched until a block is taken (a large allocation is mapped
            // on demand); in 2 MiB pages where the system gives them, as the
            // index: lookups land anywhere in both, and with 4 KiB pages
            // nearly every one of them missed the TLB.
            pool_ = detail::make_large_array<Lab>(std::size_t{LabBlocks::kCapacity} *
                                                  LabBlocks::kBlockValues);
        } else if (bpc <= 10) {
            narrow_.resize(kSlots);
        } else {
            wide_.resize(kSlots);
        }
    }
    // fn(table) with this bit depth's table.
    template <class Fn>
    decltype(auto) visit(Fn&& fn) {
        if (pool_) return fn(LabBlocks{index_.data(), pool_.get(), owner_.data(), &next_});
        if (!narrow_.empty()) return fn(LabTable<std::uint32_t>{narrow_.data(), bpc_});
        return fn(LabTable<std::uint64_t>{wide_.data(), bpc_});
    }
    // The value of one triple, remembered or computed (by the scalar
    // conversion) and remembered.
    Lab lab(std::uint16_t y, std::uint16_t u, std::uint16_t v) {
        return visit([&](const auto& t) {
            const std::uint64_t key = t.key(y, u, v);
            const std::uint32_t set = t.set_of(key);
            Lab lab;
            if (!t.find(key, set, &lab)) {
                lab = lab_from_yuv(y, u, v, bpc_);
                t.insert(key, set, lab);
            }
            return lab;
        });
    }
    int bpc() const { return bpc_; }

private:
    static constexpr std::size_t kSlots = std::size_t{2} << kLabSetBits;  // two a set
    int bpc_;
    std::vector<std::uint32_t, detail::LargeAllocator<std::uint32_t>> index_;
    std::vector<std::uint32_t> owner_;
    std::unique_ptr<Lab[], detail::LargeFree> pool_;
    std::uint32_t next_ = 0;
    std::vector<LabTable<std::uint32_t>::Slot> narrow_;  // 16 bytes a slot
    std::vector<LabTable<std::uint64_t>::Slot> wide_;    // 24 bytes a slot
};


// n pixels' reference and distorted Lab values, structure of arrays.
struct LabPairs {
    const float *l1, *a1, *b1, *l2, *a2, *b2;
};

// out[i] = delta_e_2000 of pair i, i < n.
using CiedeDeltaEFn = void (*)(const LabPairs& in, int n, float* out);

// Where a row part's differing pixels are looked up: for the i-th pixel
// whose reference and distorted triples differ, key[0][i] and set[0][i]
// are its reference triple's Lab cache key (`bits` per component, 10 or 16
// as the table's width, then the bit above them: LabTable::key) and set
// (LabSets: LabTable::set_of, or LabBlocks::set_of), key[1] and set[1] its
// distorted triple's, where[i] its column.
struct LabKeys {
    std::uint64_t* key[2];
    std::uint32_t* set[2];
    int* where;
};
// Columns x0 .. x1 - 1 of the rows ref[c], dis[c] (Y, U, V): out[x] = +0
// for every pixel whose triples are equal; out[x] = kSameAsLeft for every
// other pixel whose two triples are those of pixel x - 1 (x > 0: column
// x0 - 1 is read too), whose delta E it then has; the others into `keys` in
// column order; returns their count n. May write up to kLabKeysSlack entries
// past n in each of keys' arrays.
inline constexpr int kLabKeysSlack = 16;
// The mark of a pixel that takes its left neighbour's delta E: no delta E
// is negative (a square root, or NaN).
inline constexpr float kSameAsLeft = -1.0f;
using CiedeKeysFn = int (*)(const std::uint16_t* const ref[3], const std::uint16_t* const dis[3],
                            int x0, int x1, int bits, LabSets sets, float* out,
                            const LabKeys& keys);

// The libm functions whose results delta_e_2000 rounds, as a level computes
// them: the scalar calls libm (pow(x, 7), atan2(y, x), sin, cos, exp); a
// twin evaluates its own approximations (ciede_simd.hpp), which checkasm's
// ciede_libm holds within 2^-48 of libm's results (relative; absolute for
// cos). hue_weight is CIEDE2000's T(h) in double before its rounding to
// float (the scalar's four libm cosines; the twins' one reduction and
// angle sums), held to 2^-46 absolute. y is read by atan2 only. settle is
// the twins' test that a rounding to float is certain: 1 where every value
// within |x| kCiedeSettle of x rounds to one float, else 0; the scalar
// answers it in long double with 0.99 of that window (a twin may answer 0
// more often, never 1 where the scalar says 0). settle_t is the same test
// with the absolute window kCiedeSettle, the one T's rounding takes (T >=
// 2^-4; below, a twin may answer 0). For checkasm.
// sin is held on |x| <= 1.6 only (the twins evaluate it there, without a
// reduction; delta_e_2000's arguments lie within). pow is pow(x, y) for the
// conversion's two exponents (y = 2.4, 1/3; x in [0.08, 3] and [0.008,
// 10]), held to 2^-46 relative: the bound the twins' conversion
// (CiedeLabFn) assumes.
enum class CiedeLibm { pow7, atan2, sin, cos, exp, hue_weight, settle, pow, settle_t };

// The relative distance from a twin's double to the scalar's at which one
// of its roundings to float still counts as settled (ciede_simd.hpp).
inline constexpr double kCiedeSettle = 0x1p-40;
using CiedeLibmFn = void (*)(CiedeLibm fn, const double* x, const double* y, int n,
                             double* out);

// out[i] = lab_from_yuv(y[i], u[i], v[i], bpc), i < n: the Lab cache's
// misses, converted together. The twins compute pow by their own
// approximation and keep a lane only where each rounding to float is
// certain (ciede_simd.hpp, lab_lanes); the others take the scalar's.
using CiedeLabFn = void (*)(const std::uint16_t* y, const std::uint16_t* u,
                            const std::uint16_t* v, int n, int bpc, ciede::Lab* out);

struct CiedeKernels {
    CiedeDeltaEFn delta_e = nullptr;
    CiedeLibmFn libm = nullptr;
    CiedeKeysFn keys = nullptr;
    CiedeLabFn lab = nullptr;
};

const CiedeKernels& ciede_kernels_scalar();
// The table for a SIMD level (the kernel-table ladder): AVX2 and AVX-512
// have twins of delta_e, libm and lab (ciede_simd.hpp) and of keys (their
// own: AVX-512 compresses with vpcompress, AVX2 with permutation tables).
extern KernelsFor<CiedeKernels>& ciede_kernels_for;
// AArch64: delta_e, libm and lab over two double lanes (ciede_neon.cpp).
KernelInit<CiedeKernels> ciede_init_avx2, ciede_init_avx512, ciede_init_neon;


// delta_e_2000 of each pixel of one row with kernels k: ref[c] and dis[c]
// are the Y, U and V samples (c = 0, 1, 2) of w pixels at full resolution
// (chroma already expanded), of bit depth labs.bpc() (8, 10, 12 or 16);
// writes w floats and returns sum + out[0] + out[1] + ... + out[w - 1], in
// that order (libvmaf's row-major double sum). The Lab lookups stay here, in
// baseline code: LabCache is not for ISA files (its inline members would be
// compiled with their flags).
double delta_e_row(const CiedeKernels& k, const std::uint16_t* const ref[3],
                   const std::uint16_t* const dis[3], int w, LabCache& labs, float* out,
                   double sum);


}  // namespace vmafpp::ciede
