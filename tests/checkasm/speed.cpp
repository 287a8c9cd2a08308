// checkasm module "speed": SpeedKernels::covariance of every SIMD level
// against speed_kernels_scalar(), bit for bit (means and the whole 25x25
// matrix compared as bytes): windows of every width 1..64 (every vector
// tail) and random wider ones, heights 1..24, pictures of uniform noise at
// several magnitudes, constant pictures (all covariances 0), integers, tiny
// values near the float denormals, and one large outlier. The picture sits
// in page-guarded memory that ends 3 floats after the window's last row,
// the slack the contract allows, so a read past it faults.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <string>

#include "checkasm/checkasm.hpp"
#include "speed/speed_kernels.hpp"
#include "vmafpp/cpu.hpp"

namespace vmafpp::checkasm {
namespace {

using speed::kBlock;
using speed::kBlockElems;

constexpr int kMaxSubW = 160;
constexpr int kMaxSubH = 24;
constexpr int kSlack = 3;

using SpeedLevel = TableLevel<SpeedKernels>;

const char* const kFills[] = {"noise(1)", "noise(100)", "noise(1e6)", "constant",
                              "integers", "tiny",       "outlier"};

float sample(Rng& rng, int fill, float constant) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    switch (fill) {
        case 0: return u(rng);
        case 1: return 100.0f * u(rng);
        case 2: return 1e6f * u(rng);
        case 3: return constant;
        case 4: return static_cast<float>(static_cast<int>(rng() % 511) - 255);
        case 5: return 1e-35f * u(rng);
        default: return rng() % 97 == 0 ? 3e4f * u(rng) : u(rng);
    }
}

void check_covariance(Context& ctx, const SpeedLevel& L) {
    if (!ctx.check("speed_covariance", L.level)) return;
    Rng rng = ctx.rng();
    const std::size_t max_stride = kMaxSubW + kBlock - 1 + kSlack + 16;
    GuardedRows mem(1, max_stride * (kMaxSubH + kBlock - 1) * sizeof(float));
    Canaried<float> mean_a(kBlockElems), mean_b(kBlockElems);
    Canaried<float> cov_a(kBlockElems * kBlockElems), cov_b(kBlockElems * kBlockElems);
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int sub_w = band_width(rng, band, kMaxSubW);
        const int sub_h = 1 + static_cast<int>(rng() % kMaxSubH);
        // Row length plus the slack, plus 0..16 more floats of stride.
        const std::ptrdiff_t stride = sub_w + kBlock - 1 + kSlack + static_cast<int>(rng() % 17);
        const int rows = sub_h + kBlock - 1;
        // The last row's slack ends at the guard page.
        const std::size_t n = static_cast<std::size_t>((rows - 1) * stride + sub_w + kBlock - 1 + kSlack);
        float* d = mem.row<float>(0, n, true);
        const int fill = static_cast<int>(rng() % (sizeof(kFills) / sizeof(kFills[0])));
        const float constant = 50.0f * std::uniform_real_distribution<float>(-1, 1)(rng);
        for (std::size_t i = 0; i < n; ++i) d[i] = sample(rng, fill, constant);
        const std::string what = "sub=" + std::to_string(sub_w) + "x" + std::to_string(sub_h) +
                                 " stride=" + std::to_string(stride) + " fill=" + kFills[fill];
        ctx.at_band(band, what);
        mean_a.poison();
        mean_b.poison();
        cov_a.poison();
        cov_b.poison();
        speed_kernels_scalar().covariance(d, stride, sub_w, sub_h, mean_a.data(), cov_a.data());
        L.kernels->covariance(d, stride, sub_w, sub_h, mean_b.data(), cov_b.data());
        ctx.band();
        long long where = 0;
        if (!mean_b.canaries_intact(&where, kBlockElems) ||
            !cov_b.canaries_intact(&where, kBlockElems * kBlockElems)) {
            ctx.fail(band) << what << ": wrote outside mean[0, 25) or cov[0, 625) at " << where;
            continue;
        }
        for (int i = 0; i < kBlockElems; ++i)
            if (std::memcmp(&mean_a[i], &mean_b[i], sizeof(float)) != 0) {
                ctx.fail(band) << std::setprecision(9) << what << ": mean[" << i << "] scalar " << mean_a[i] << ", "
                               << L.level.name << " " << mean_b[i];
                break;
            }
        if (!ctx.ok()) continue;
        for (int i = 0; i < kBlockElems * kBlockElems; ++i)
            if (std::memcmp(&cov_a[i], &cov_b[i], sizeof(float)) != 0) {
                ctx.fail(band) << std::setprecision(9) << what << ": cov[" << i / kBlockElems << "][" << i % kBlockElems
                               << "] scalar " << cov_a[i] << ", " << L.level.name << " "
                               << cov_b[i];
                break;
            }
    }
    if (ctx.benching()) {
        // A 1080p luma plane decimated by 16: 116 x 61 windows.
        const int sub_w = 116, sub_h = 20;
        const std::ptrdiff_t stride = sub_w + kBlock - 1 + kSlack;
        const std::size_t n =
            static_cast<std::size_t>((sub_h + kBlock - 2) * stride + sub_w + kBlock - 1 + kSlack);
        float* d = mem.row<float>(0, n, true);
        for (std::size_t i = 0; i < n; ++i) d[i] = sample(rng, 1, 0);
        ctx.bench(
            [&] { speed_kernels_scalar().covariance(d, stride, sub_w, sub_h, mean_a.data(), cov_a.data()); },
            [&] { L.kernels->covariance(d, stride, sub_w, sub_h, mean_b.data(), cov_b.data()); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(speed) {
    for (const SpeedLevel& L : simd_tables(ctx, &speed_kernels_for))
        if (L.owns(&SpeedKernels::covariance)) check_covariance(ctx, L);
}

}  // namespace vmafpp::checkasm
