// checkasm module "motion": every MotionKernels entry of every SIMD level
// against motion_kernels_scalar(): every width 1..64 and random wider ones,
// hostile sample fills at 8..16 bits (any 16-bit value at any bpc), every
// bpc 1..16 for the high-bit-depth pass, and horizontal inputs from the
// vertical pass as well as the whole range the scalar defines.
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

template <class T>
void check_diff_vertical(Context& ctx, const MotionLevel& L) {
    constexpr bool k8 = sizeof(T) == 1;
    if (!ctx.check(k8 ? "motion_diff_vertical_u8" : "motion_diff_vertical_u16", L.level)) return;
    Rng rng = ctx.rng();
    FrameRows<T> rows;
    Canaried<std::int32_t> a(kMaxWidth), b(kMaxWidth);
    auto run = [&](const MotionKernels& k, int w, int bpc, Canaried<std::int32_t>& o) {
        o.poison();
        if constexpr (k8)
            return k.diff_vertical_u8(rows.prev.data(), rows.cur.data(), w, o.data());
        else
            return k.diff_vertical_u16(rows.prev.data(), rows.cur.data(), w, bpc, o.data());
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        // bpc: the extractor's 9..16 mostly, any defined one sometimes; the
        // samples may use all 16 bits whatever bpc says.
        const int bpc = k8 ? 8 : (rng() % 4 == 0 ? 1 + static_cast<int>(rng() % 16) : 9 + static_cast<int>(rng() % 8));
        static constexpr int kBits[] = {8, 9, 10, 12, 16};
        const int bits = k8 ? 8 : (rng() % 3 == 0 ? kBits[rng() % std::size(kBits)] : bpc < 8 ? 8 : bpc);
        rows.make(rng, w, (1u << bits) - 1);
        const std::string what = "w=" + std::to_string(w) + " bpc=" + std::to_string(bpc) + " bits=" +
                                 std::to_string(bits) + " fill=" + rows.fill;
        ctx.at_band(band, what);
        const std::int32_t ra = run(motion::motion_kernels_scalar(), w, bpc, a);
        const std::int32_t rb = run(*L.kernels, w, bpc, b);
        ctx.band();
        if (!compare_output(ctx, band, what, "out", a, b, static_cast<std::size_t>(w), L.level.name)) continue;
        if (ra != rb)
            ctx.fail(band) << what << ": returned OR scalar " << ra << ", " << L.level.name << " " << rb;
    }
    if (ctx.benching()) {
        rows.make(rng, 1920, k8 ? 255 : 1023);
        ctx.bench([&] { run(motion::motion_kernels_scalar(), 1920, 10, a); }, [&] { run(*L.kernels, 1920, 10, b); });
    }
    ctx.done();
}

void check_abs_sum_horizontal(Context& ctx, const MotionLevel& L) {
    if (!ctx.check("motion_abs_sum_horizontal", L.level)) return;
    Rng rng = ctx.rng();
    GuardedRows mem(1, (kMaxWidth + 2 * kRadius) * sizeof(std::int32_t));
    FrameRows<std::uint16_t> px;
    std::vector<std::int32_t> filtered(kMaxWidth);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band_width(rng, band, kMaxWidth);
        std::int32_t* row = mem.row<std::int32_t>(0, static_cast<std::size_t>(w) + 2 * kRadius, rng() & 1) + kRadius;
        const unsigned mode = static_cast<unsigned>(rng() % 4);
        std::string fill;
        if (mode == 0) {
            // What the vertical pass gives: |v| < 2^16 at 8 bits, < 2^23 at 9 bits.
            const int bpc = rng() % 2 ? 8 : 9 + static_cast<int>(rng() % 8);
            px.make(rng, w, bpc == 8 ? 255 : 65535);
            if (bpc == 8) {
                std::array<const std::uint8_t*, kTaps> p8{}, c8{};
                std::vector<std::uint8_t> buf(2 * kTaps * static_cast<std::size_t>(w));
                for (int k = 0; k < kTaps; ++k) {
                    for (int i = 0; i < w; ++i) {
                        buf[k * w + i] = static_cast<std::uint8_t>(px.prev[k][i]);
                        buf[(kTaps + k) * w + i] = static_cast<std::uint8_t>(px.cur[k][i]);
                    }
                    p8[k] = buf.data() + k * w;
                    c8[k] = buf.data() + (kTaps + k) * w;
                }
                motion::motion_diff_vertical_u8(p8.data(), c8.data(), w, filtered.data());
            } else {
                motion::motion_diff_vertical_u16(px.prev.data(), px.cur.data(), w, bpc, filtered.data());
            }
            std::copy_n(filtered.begin(), w, row);
            for (int k = 1; k <= kRadius; ++k) {
                row[-k] = row[std::min(k, w - 1)];
                row[w - 1 + k] = row[std::max(w - 1 - k, 0)];
            }
            fill = "from_vertical(bpc " + std::to_string(bpc) + ", " + px.fill + ")";
        } else {
            // The whole range the scalar defines: |v| <= INT32_MAX.
            static constexpr std::int32_t kSpecial[] = {-INT32_MAX, -INT32_MAX + 1, -65536, -1, 0, 1,
                                                        65535, 1 << 23, INT32_MAX - 1, INT32_MAX};
            // Every fifth "16bit" band is int16 samples instead, their extremes
            // frequent and, in a third of the rows, one sample just outside
            // (a twin may stage int16 samples by blocks). Same draws per
            // sample, so the other bands see the same sequence.
            const bool int16 = mode == 3 && band % 5 == 4;
            static constexpr std::int32_t kInt16[] = {-32768, -32767, 32766, 32767};
            for (int i = -kRadius; i < w + kRadius; ++i) {
                std::int32_t v = 0;
                if (mode == 1) v = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng()));
                else if (mode == 2) v = kSpecial[rng() % std::size(kSpecial)];
                else if (int16) {
                    const std::uint64_t r = rng();
                    v = r % 8 == 0 ? kInt16[(r >> 3) % 4] : static_cast<std::int32_t>((r >> 3) % 65536) - 32768;
                } else v = static_cast<std::int32_t>(rng() % 131071) - 65535;
                row[i] = v == INT32_MIN ? -INT32_MAX : v;
            }
            if (int16 && band % 3 == 0) row[static_cast<int>(band % (w + 2 * kRadius)) - kRadius] = band % 2 ? 32768 : -32769;
            fill = mode == 1 ? "full32" : mode == 2 ? "special" : int16 ? (band % 3 == 0 ? "int16+one_outside" : "int16") : "16bit";
        }
        const std::string what = "w=" + std::to_string(w) + " fill=" + fill;
        ctx.at_band(band, what);
        const std::uint32_t a = motion::motion_abs_sum_horizontal(row, w);
        const std::uint32_t b = L.kernels->abs_sum_horizontal(row, w);
        ctx.band();
        if (a != b) ctx.fail(band) << what << ": sum scalar " << a << ", " << L.level.name << " " << b;
    }
    if (ctx.benching()) {
        std::int32_t* row = mem.row<std::int32_t>(0, 1920 + 2 * kRadius, true) + kRadius;
        for (int i = -kRadius; i < 1920 + kRadius; ++i) row[i] = static_cast<std::int32_t>(rng() % 4001) - 2000;
        ctx.bench([&] { (void)motion::motion_abs_sum_horizontal(row, 1920); },
                  [&] { (void)L.kernels->abs_sum_horizontal(row, 1920); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(motion) {
    for (const MotionLevel& L : motion_levels()) {
        check_diff_vertical<std::uint8_t>(ctx, L);
        check_diff_vertical<std::uint16_t>(ctx, L);
        check_abs_sum_horizontal(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
