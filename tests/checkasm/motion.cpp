// checkasm module "motion": every MotionKernels entry of every SIMD level
// against motion_kernels_scalar(): every width 3..64 and random wider ones,
// hostile sample fills at 8..16 bits (any 16-bit value at any bpc), every
// bpc 1..16 for the high-bit-depth row (bpc 1 reaches vertical outputs near
// +-2^31, the whole range the horizontal pass must take), and differences
// near +-128 that put 8-bit vertical outputs at the int16 limits.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "motion/motion_kernels.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {
namespace {

using motion::kRadius;
using motion::kTaps;
using motion::MotionKernels;

constexpr int kMaxWidth = 2100;

struct MotionLevel {
    Level level;
    const MotionKernels* kernels;
};

std::vector<MotionLevel> motion_levels() {
    std::vector<MotionLevel> out;
#if VMAFPP_X86_KERNELS
    out.push_back({{"avx2", kCpuAvx2}, &motion::motion_kernels_avx2()});
    out.push_back({{"avx512", kCpuAvx2 | kCpuAvx512}, &motion::motion_kernels_avx512()});
#endif
    return out;
}

// Row pointers for the previous and current picture, distinct or repeated
// (the mirrored edge rows), in guarded memory.
template <class T>
struct FrameRows {
    GuardedRows mem{2 * kTaps, kMaxWidth * sizeof(T)};
    std::array<const T*, kTaps> prev{}, cur{};
    std::string fill;

    void make(Rng& rng, int w, std::uint64_t max) {
        const Fill fp = random_fill(rng);
        const Fill fc = rng() % 5 == 0 ? fp : random_fill(rng);
        fill = std::string(fill_name(fp)) + "/" + fill_name(fc);
        std::array<T*, 2 * kTaps> rows{};
        for (int k = 0; k < 2 * kTaps; ++k) {
            T* row = mem.row<T>(k, static_cast<std::size_t>(w), rng() & 1);
            fill_samples(rng, k < kTaps ? fp : fc, max, static_cast<std::size_t>(w),
                         [&](std::size_t i, std::uint64_t v) { row[i] = static_cast<T>(v); });
            rows[k] = row;
        }
        const bool repeat = rng() % 2 == 0;
        for (int k = 0; k < kTaps; ++k) {
            prev[k] = rows[repeat ? rng() % kTaps : k];
            cur[k] = rows[kTaps + (repeat ? rng() % kTaps : k)];
        }
    }
};

// Samples whose difference is near +-128 on every row of a band, so the
// vertical pass gives y near the int16 limits, +-2^15 (a twin may keep y as
// int16 when it fits).
template <class T>
void make_near_int16(FrameRows<T>& rows, Rng& rng, int w) {
    std::array<T*, 2 * kTaps> r{};
    const bool negative = rng() % 2 == 0;
    for (int k = 0; k < 2 * kTaps; ++k) {
        r[k] = rows.mem.template row<T>(k, static_cast<std::size_t>(w), rng() & 1);
        const bool high = (k < kTaps) != negative;
        for (int i = 0; i < w; ++i)
            r[k][i] = static_cast<T>(high ? 127 + rng() % 3 : 0);
    }
    for (int k = 0; k < kTaps; ++k) {
        rows.prev[k] = r[k];
        rows.cur[k] = r[kTaps + k];
    }
    rows.fill = negative ? "near_int16(-)" : "near_int16(+)";
}

template <class T>
void check_sad_row(Context& ctx, const MotionLevel& L) {
    constexpr bool k8 = sizeof(T) == 1;
    if (!ctx.check(k8 ? "motion_sad_row_u8" : "motion_sad_row_u16", L.level)) return;
    Rng rng = ctx.rng();
    FrameRows<T> rows;
    // The scratch sits against a guard page: a twin must stay within
    // motion_scratch_size(w); its contents on entry are random.
    GuardedRows scratch_mem(1, motion::motion_scratch_size(kMaxWidth) * sizeof(std::int32_t));
    auto run = [&](const MotionKernels& k, int w, int bpc) {
        const std::size_t n = static_cast<std::size_t>(motion::motion_scratch_size(w));
        std::int32_t* scratch = scratch_mem.row<std::int32_t>(0, n, true);
        for (std::size_t i = 0; i < n; ++i) scratch[i] = static_cast<std::int32_t>(rng());
        if constexpr (k8)
            return k.sad_row_u8(rows.prev.data(), rows.cur.data(), w, scratch);
        else
            return k.sad_row_u16(rows.prev.data(), rows.cur.data(), w, bpc, scratch);
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        // The extractor needs w > kRadius (mirrored padding).
        const int w = std::max(band_width(rng, band, kMaxWidth), kRadius + 1);
        // bpc: the extractor's 9..16 mostly, any defined one sometimes; the
        // samples may use all 16 bits whatever bpc says.
        const int bpc = k8 ? 8 : (rng() % 4 == 0 ? 1 + static_cast<int>(rng() % 16) : 9 + static_cast<int>(rng() % 8));
        static constexpr int kBits[] = {8, 9, 10, 12, 16};
        const int bits = k8 ? 8 : (rng() % 3 == 0 ? kBits[rng() % std::size(kBits)] : bpc < 8 ? 8 : bpc);
        if (rng() % 8 == 0)
            make_near_int16(rows, rng, w);
        else
            rows.make(rng, w, (1u << bits) - 1);
        const std::string what = "w=" + std::to_string(w) + " bpc=" + std::to_string(bpc) + " bits=" +
                                 std::to_string(bits) + " fill=" + rows.fill;
        ctx.at_band(band, what);
        const std::uint32_t a = run(motion::motion_kernels_scalar(), w, bpc);
        const std::uint32_t b = run(*L.kernels, w, bpc);
        ctx.band();
        if (a != b) ctx.fail(band) << what << ": sum scalar " << a << ", " << L.level.name << " " << b;
    }
    if (ctx.benching()) {
        rows.make(rng, 1920, k8 ? 255 : 1023);
        ctx.bench([&] { (void)run(motion::motion_kernels_scalar(), 1920, 10); },
                  [&] { (void)run(*L.kernels, 1920, 10); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(motion) {
    for (const MotionLevel& L : motion_levels()) {
        check_sad_row<std::uint8_t>(ctx, L);
        check_sad_row<std::uint16_t>(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
