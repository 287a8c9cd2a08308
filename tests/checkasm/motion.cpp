// checkasm module "motion": every MotionKernels entry of every SIMD level
// against motion_kernels_scalar(): every width 3..64 and random wider ones,
// heights 3..24, hostile sample fills at 8..16 bits (any 16-bit value at any
// bpc), every bpc 1..16 for the high-bit-depth frame (bpc 1 reaches vertical
// outputs near +-2^31, the whole range the horizontal pass must take),
// differences near +-2^(bpc-1) that put vertical outputs at the int16 limits,
// and near +-2^bpc (8-bit: +-255) that put them at the limits of the wide
// tier's 17 bits (motion_frame_loop.hpp's WideShift).
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

using MotionLevel = TableLevel<MotionKernels>;

constexpr int kMaxHeight = 24;

// The previous and current picture, each row against a guard page (after
// or before it, the same for every row of a picture), rows a page apart.
template <class T>
struct Frames {
    GuardedRows prev_mem{kMaxHeight, kMaxWidth * sizeof(T)};
    GuardedRows cur_mem{kMaxHeight, kMaxWidth * sizeof(T)};
    const T* prev = nullptr;
    const T* cur = nullptr;
    std::ptrdiff_t prev_stride = 0, cur_stride = 0;
    std::string fill;

    // Hostile fills, one per picture, or differences near +-2^(bpc-1)
    // (near = 1, "near_int16") or near +-2^bpc ("near_wide", samples at
    // most 2^14 - 1, 255 at 8 bits) on every row, so the vertical pass gives
    // y near the int16 limits, +-2^15 (a twin may keep y as int16 when it
    // fits), or near +-2^16 (the wide tier's limits).
    void make(Rng& rng, int w, int h, std::uint64_t max, int near, int bpc) {
        const Fill fp = random_fill(rng);
        const Fill fc = rng() % 5 == 0 ? fp : random_fill(rng);
        const bool negative = rng() % 2 == 0;
        const bool near_fill = near != 0;
        fill = near_fill ? std::string(near == 1 ? "near_int16" : "near_wide") +
                                (negative ? "(-)" : "(+)")
                          : std::string(fill_name(fp)) + "/" + fill_name(fc);
        // 16-bit: sometimes one row of cur alone with samples in [2^14, 2^15)
        // (a twin may take int16 differences only from rows below 2^14).
        int wide_row = -1;
        if constexpr (sizeof(T) == 2) {
            if (rng() % 4 == 0) {
                wide_row = static_cast<int>(rng() % static_cast<std::uint64_t>(h));
                fill += "+wide_row(" + std::to_string(wide_row) + ")";
            }
        }
        for (int pic = 0; pic < 2; ++pic) {
            GuardedRows& mem = pic == 0 ? prev_mem : cur_mem;
            const bool at_end = rng() & 1;
            for (int y = 0; y < h; ++y) {
                T* row = mem.row<T>(y, static_cast<std::size_t>(w), at_end);
                if (near_fill) {
                    const bool high = (pic == 0) != negative;
                    // near_wide stays below 2^14 (255 at 8 bits), where the
                    // fused frame takes samples.
                    const std::uint64_t half = std::uint64_t{1} << (bpc - 1);
                    const std::uint64_t cap = sizeof(T) == 1 ? 255 : (1u << 14) - 1;
                    for (int i = 0; i < w; ++i) {
                        const std::uint64_t v = near == 1 ? half - 1 + rng() % 3
                                                          : std::min(2 * half - 1 + rng() % 3, cap);
                        row[i] = static_cast<T>(high ? v : 0);
                    }
                } else {
                    fill_samples(
                        rng, pic == 0 ? fp : fc, max, static_cast<std::size_t>(w),
                        [&](std::size_t i, std::uint64_t v) { row[i] = static_cast<T>(v); });
                }
            }
            if (pic == 1 && wide_row >= 0) {
                T* row = mem.row<T>(wide_row, static_cast<std::size_t>(w), at_end);
                for (int i = 0; i < w; ++i)
                    row[i] = static_cast<T>((1u << 14) + rng() % (1u << 14));
            }
            const T* first = mem.row<T>(0, static_cast<std::size_t>(w), at_end);
            const std::ptrdiff_t stride =
                mem.row<T>(1, static_cast<std::size_t>(w), at_end) - first;
            (pic == 0 ? prev : cur) = first;
            (pic == 0 ? prev_stride : cur_stride) = stride;
        }
    }
};

template <class T>
void check_sad(Context& ctx, const MotionLevel& L) {
    constexpr bool k8 = sizeof(T) == 1;
    if (!ctx.check(k8 ? "motion_sad_u8" : "motion_sad_u16", L.level)) return;
    Rng rng = ctx.rng();
    Frames<T> frames;
    // The scratch sits against a guard page: a twin must stay within
    // motion_scratch_size(w); its contents on entry are random.
    GuardedRows scratch_mem(1, motion::motion_scratch_size(kMaxWidth) * sizeof(std::int32_t));
    // The copy of cur, when asked for, with canaries around w * h samples.
    Canaried<T> keep(static_cast<std::size_t>(kMaxWidth) * kMaxHeight);
    bool keeping = true;
    auto run = [&](const MotionKernels& k, int w, int h, int bpc) {
        const std::size_t n = static_cast<std::size_t>(motion::motion_scratch_size(w));
        std::int32_t* scratch = scratch_mem.row<std::int32_t>(0, n, true);
        for (std::size_t i = 0; i < n; ++i) scratch[i] = static_cast<std::int32_t>(rng());
        keep.poison();
        T* kept = keeping ? keep.data() : nullptr;
        if constexpr (k8)
            return k.sad_u8(frames.prev, frames.prev_stride, frames.cur, frames.cur_stride, w, h,
                            kept, scratch);
        else
            return k.sad_u16(frames.prev, frames.prev_stride, frames.cur, frames.cur_stride, w, h,
                             bpc, kept, scratch);
    };
    // The copy must equal cur, row by row, and stay within w * h samples.
    auto check_keep = [&](int band, const std::string& what, int w, int h) {
        long long where = 0;
        if (!keep.canaries_intact(&where, static_cast<std::size_t>(w) * h)) {
            ctx.fail(band) << what << ": " << L.level.name << " wrote keep[" << where
                           << "] outside [0, " << w * h << ")";
            return;
        }
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (keep[static_cast<std::size_t>(y) * w + x] !=
                    frames.cur[y * frames.cur_stride + x]) {
                    ctx.fail(band) << what << ": " << L.level.name << " keep[" << y << "][" << x
                                   << "] " << +keep[static_cast<std::size_t>(y) * w + x] << ", cur "
                                   << +frames.cur[y * frames.cur_stride + x];
                    return;
                }
    };
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        // The extractor needs w, h > kRadius (mirrored padding).
        const int w = std::max(band_width(rng, band, kMaxWidth), kRadius + 1);
        const int h = kRadius + 1 + static_cast<int>(rng() % (kMaxHeight - kRadius));
        // bpc: the extractor's 9..16 mostly, any defined one sometimes; the
        // samples may use all 16 bits whatever bpc says (bpc 1 gives vertical
        // outputs near +-2^31, the whole range the horizontal pass takes).
        const int bpc = k8 ? 8
                           : (rng() % 4 == 0 ? 1 + static_cast<int>(rng() % 16)
                                             : 9 + static_cast<int>(rng() % 8));
        static constexpr int kBits[] = {8, 9, 10, 12, 14, 15, 16};
        const int bits = k8 ? 8
                            : (rng() % 3 == 0 ? kBits[rng() % std::size(kBits)]
                               : bpc < 8      ? 8
                                              : bpc);
        const int near = rng() % 8 != 0 ? 0 : 1 + static_cast<int>(rng() % 2);
        frames.make(rng, w, h, (1u << bits) - 1, near, bpc);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " bpc=" + std::to_string(bpc) + " bits=" + std::to_string(bits) +
                                 " fill=" + frames.fill;
        keeping = rng() % 4 != 0;
        ctx.at_band(band, what);
        const std::uint64_t a = run(motion::motion_kernels_scalar(), w, h, bpc);
        const std::uint64_t b = run(*L.kernels, w, h, bpc);
        ctx.band();
        if (a != b) {
            ctx.fail(band) << what << ": sad scalar " << a << ", " << L.level.name << " " << b;
            continue;
        }
        if (keeping) check_keep(band, what, w, h);
    }
    if (ctx.benching()) {
        frames.make(rng, 1920, kMaxHeight, k8 ? 255 : 1023, 0, k8 ? 8 : 10);
        ctx.bench([&] { (void)run(motion::motion_kernels_scalar(), 1920, kMaxHeight, 10); },
                  [&] { (void)run(*L.kernels, 1920, kMaxHeight, 10); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(motion) {
    for (const MotionLevel& L : simd_tables(ctx, &motion::motion_kernels_for)) {
        if (L.owns(&MotionKernels::sad_u8)) check_sad<std::uint8_t>(ctx, L);
        if (L.owns(&MotionKernels::sad_u16)) check_sad<std::uint16_t>(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
