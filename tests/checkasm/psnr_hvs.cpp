// checkasm module "psnr_hvs": the plane kernel twins of every SIMD level
// against psnr_hvs_kernels_scalar(), bit for bit (memcmp of the float):
// every width 8..232 (rows of 1 to 33 blocks: every split into groups of
// sixteen, of eight and scalar tails) and random wider ones, heights 8..40,
// 8/10/12 bits, the checkasm fills (flat, extremes, alternating 0/max: the largest DCT
// coefficients and products the twin's 32-bit arithmetic must hold), rows
// with stride padding, the luma and both chroma tables.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmafpp::checkasm {
namespace {

using namespace psnr_hvs;  // the kernels (src/psnr_hvs/psnr_hvs_kernels.hpp)

using PsnrHvsLevel = TableLevel<PsnrHvsKernels>;

constexpr int kMaxWidth = 400;
constexpr int kMaxHeight = 40;

// The scalar DCT's lifts, watched: a lift whose u is negative and whose
// u * c + 2^(s-1) is a multiple of 2^s sits where a product off by one for
// negative u (floor of one less) changes the lift. Every c is odd, so that
// takes u = -2^(s-1) times an odd number (-4096, -12288, ... for s = 13).
// From 8-bit samples no lift reaches that: the DCT is linear up to its
// roundings, and the block of 0s and 255s that drives a lift's u furthest
// (each sample at the end its weight's sign picks) gives |u| <= 2039 at
// every lift of both passes, against 4096 for s = 13, so such a slip in the
// 8-bit lifts (DctLanes16) changes nothing on any input. From 12-bit
// samples it does: a block of random 0s and 4095s takes such a lift about 1
// time in 80 (none in 2 million random 10-bit blocks), so every 8th 16-bit
// band is a 12-bit plane built to hold one.
thread_local bool g_lift_at_boundary = false;

struct WatchedDctOps {
    static std::int32_t half(std::int32_t a) { return ScalarDctOps::half(a); }
    static std::int32_t lift(std::int32_t u, std::int32_t c, int s) {
        const std::int64_t x = static_cast<std::int64_t>(u) * c + (std::int64_t{1} << (s - 1));
        if (u < 0 && x % (std::int64_t{1} << s) == 0) g_lift_at_boundary = true;
        return ScalarDctOps::lift(u, c, s);
    }
};

// Whether a block of the plane (the kernel's 8x8 blocks every kStep samples)
// takes a lift at the boundary above.
template <class T>
bool has_boundary_lift(const std::vector<T>& plane, int stride, int w, int h) {
    g_lift_at_boundary = false;
    for (int y = 0; y + 8 <= h; y += kStep)
        for (int x = 0; x + 8 <= w; x += kStep) {
            std::int32_t b[64];
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j) b[i * 8 + j] = plane[(y + i) * stride + x + j];
            fdct8x8_lifting<WatchedDctOps>(b);
        }
    return g_lift_at_boundary;
}

template <class T>
void check_plane(Context& ctx, const PsnrHvsLevel& L) {
    constexpr bool k8 = sizeof(T) == 1;
    if (!ctx.check(k8 ? "psnr_hvs_plane_u8" : "psnr_hvs_plane_u16", L.level)) return;
    Rng rng = ctx.rng();
    std::vector<T> ref, dis;
    const psnr_hvs::Table8x8* tables[3] = {&psnr_hvs::kCsfLuma, &psnr_hvs::kCsfCb,
                                           &psnr_hvs::kCsfCr};
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 225 ? 8 + band : 8 + static_cast<int>(rng() % (kMaxWidth - 8));
        const int h = 8 + static_cast<int>(rng() % (kMaxHeight - 8));
        const int stride = w + static_cast<int>(rng() % 9);
        int bpc = k8 ? 8 : (rng() % 2 ? 10 : 12);
        // Every 8th 16-bit band: 12-bit planes of extremes until one takes
        // a lift at the boundary (has_boundary_lift; a try or two).
        const bool boundary = !k8 && band % 8 == 7;
        if (boundary) bpc = 12;
        const std::uint64_t max = (std::uint64_t{1} << bpc) - 1;
        Fill fr = Fill::extremes, fd = Fill::extremes;
        for (int attempt = 0; attempt < (boundary ? 200 : 1); ++attempt) {
            if (!boundary) {
                fr = random_fill(rng);
                fd = rng() % 4 == 0 ? fr : random_fill(rng);
            }
            ref.assign(static_cast<std::size_t>(stride) * h, 0);
            dis.assign(static_cast<std::size_t>(stride) * h, 0);
            for (int y = 0; y < h; ++y) {
                fill_samples(rng, fr, max, static_cast<std::size_t>(w),
                             [&](std::size_t i, std::uint64_t v) { ref[y * stride + i] = T(v); });
                fill_samples(rng, fd, max, static_cast<std::size_t>(w),
                             [&](std::size_t i, std::uint64_t v) { dis[y * stride + i] = T(v); });
            }
            if (boundary && (has_boundary_lift(ref, stride, w, h) || has_boundary_lift(dis, stride, w, h)))
                break;
        }
        const psnr_hvs::Table8x8& csf = *tables[rng() % 3];
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " bpc=" + std::to_string(bpc) + " fill=" +
                                 (boundary ? std::string("lift_boundary")
                                           : fill_name(fr) + std::string("/") + fill_name(fd));
        ctx.at_band(band, what);
        const auto* r = reinterpret_cast<const std::uint8_t*>(ref.data());
        const auto* d = reinterpret_cast<const std::uint8_t*>(dis.data());
        const std::ptrdiff_t bytes = static_cast<std::ptrdiff_t>(stride) * sizeof(T);
        const float want = psnr_hvs_kernels_scalar().plane(r, bytes, d, bytes, w, h, bpc, csf);
        const float got = L.kernels->plane(r, bytes, d, bytes, w, h, bpc, csf);
        ctx.band();
        if (std::memcmp(&want, &got, sizeof(float)) != 0)
            ctx.fail(band) << what << ": scalar " << want << ", " << L.level.name << " " << got;
    }
    if (ctx.benching()) {
        const int w = 1920, h = 64;
        ref.assign(static_cast<std::size_t>(w) * h, 0);
        dis.assign(static_cast<std::size_t>(w) * h, 0);
        for (auto& v : ref) v = T(rng() % 256);
        for (auto& v : dis) v = T(rng() % 256);
        const auto* r = reinterpret_cast<const std::uint8_t*>(ref.data());
        const auto* d = reinterpret_cast<const std::uint8_t*>(dis.data());
        const std::ptrdiff_t bytes = static_cast<std::ptrdiff_t>(w) * sizeof(T);
        ctx.bench(
            [&] {
                (void)psnr_hvs_kernels_scalar().plane(r, bytes, d, bytes, w, h, k8 ? 8 : 10,
                                                      psnr_hvs::kCsfLuma);
            },
            [&] { (void)L.kernels->plane(r, bytes, d, bytes, w, h, k8 ? 8 : 10, psnr_hvs::kCsfLuma); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(psnr_hvs) {
    for (const PsnrHvsLevel& L : simd_tables(ctx, &psnr_hvs_kernels_for)) {
        if (!L.owns(&PsnrHvsKernels::plane)) continue;
        check_plane<std::uint8_t>(ctx, L);
        check_plane<std::uint16_t>(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
