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
        const int bpc = k8 ? 8 : (rng() % 2 ? 10 : 12);
        const std::uint64_t max = (std::uint64_t{1} << bpc) - 1;
        const Fill fr = random_fill(rng);
        const Fill fd = rng() % 4 == 0 ? fr : random_fill(rng);
        ref.assign(static_cast<std::size_t>(stride) * h, 0);
        dis.assign(static_cast<std::size_t>(stride) * h, 0);
        for (int y = 0; y < h; ++y) {
            fill_samples(rng, fr, max, static_cast<std::size_t>(w),
                         [&](std::size_t i, std::uint64_t v) { ref[y * stride + i] = T(v); });
            fill_samples(rng, fd, max, static_cast<std::size_t>(w),
                         [&](std::size_t i, std::uint64_t v) { dis[y * stride + i] = T(v); });
        }
        const psnr_hvs::Table8x8& csf = *tables[rng() % 3];
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " bpc=" + std::to_string(bpc) + " fill=" + fill_name(fr) + "/" +
                                 fill_name(fd);
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
