// checkasm module "speed": SpeedKernels::covariance (and ::vertical and
// ::matmul, below) of every SIMD level
// against speed_kernels_scalar(), bit for bit (means and the whole 25x25
// matrix compared as bytes): windows of every width 1..64 (every vector
// tail) and random wider ones, heights 1..24, pictures of uniform noise at
// several magnitudes, constant pictures (all covariances 0), integers, tiny
// values near the float denormals, one large outlier, and a few +-1e9
// among noise (sums whose order shows). The picture sits
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

using namespace speed;  // the kernels (src/speed/speed_kernels.hpp)

using speed::kBlock;
using speed::kBlockElems;

constexpr int kMaxSubW = 160;
constexpr int kMaxSubH = 24;
constexpr int kSlack = 3;

using SpeedLevel = TableLevel<SpeedKernels>;

const char* const kFills[] = {"noise(1)", "noise(100)", "noise(1e6)", "constant",
                              "integers", "tiny",       "outlier",    "cancel"};

float sample(Rng& rng, int fill, float constant) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    switch (fill) {
        case 0: return u(rng);
        case 1: return 100.0f * u(rng);
        case 2: return 1e6f * u(rng);
        case 3: return constant;
        case 4: return static_cast<float>(static_cast<int>(rng() % 511) - 255);
        case 5: return 1e-35f * u(rng);
        case 6: return rng() % 97 == 0 ? 3e4f * u(rng) : u(rng);
        // Noise with a few +-1e9: products of two of them (+-1e18) absorb
        // the small ones (ulp 128) until they cancel, so a double sum taken
        // in another order than the scalar's shows in the narrowed result.
        default: return rng() % 40 == 0 ? (rng() % 2 ? 1e9f : -1e9f) : u(rng);
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

// The vertical pass: every column range [j0, j1) with j1 - j0 from 1 to 64
// first (every vector tail) then wider, any start, 1..37 taps (the antialias
// blur's widths at every kernel scale) of random or Gaussian weights, 8, 10,
// 12 and 16 bits with hostile fills, one plane or the difference of two.
// Each tap's row is its own guarded row ending right after column j1 - 1 (or
// starting at column j0), so a read outside [j0, j1) faults.
void check_vertical(Context& ctx, const SpeedLevel& L) {
    if (!ctx.check("speed_vertical", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMaxTaps = 37, kMaxCols = 2100;
    GuardedRows mem_a(kMaxTaps, kMaxCols * 2), mem_b(kMaxTaps, kMaxCols * 2);
    Canaried<float> out_a(kMaxCols), out_b(kMaxCols);
    float f[kMaxTaps];
    static const int kDepths[] = {8, 10, 12, 16};
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int n = band_width(rng, band, kMaxCols - 200);
        const int j0 = static_cast<int>(rng() % 200);
        const int j1 = j0 + n;
        const int fw = 1 + static_cast<int>(rng() % kMaxTaps);
        const int bpc = kDepths[rng() % 4];
        const bool diff = rng() & 1;
        const bool at_end = rng() & 1;
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (int k = 0; k < fw; ++k) f[k] = rng() % 2 ? u(rng) : 1.0f / static_cast<float>(fw);
        const std::uint8_t* a[kMaxTaps];
        const std::uint8_t* b[kMaxTaps];
        const std::size_t bytes = bpc == 8 ? 1 : 2;
        const Fill fa = random_fill(rng), fb = random_fill(rng);
        const std::uint64_t max = (std::uint64_t{1} << bpc) - 1;
        for (int k = 0; k < fw; ++k)
            for (int pic = 0; pic < (diff ? 2 : 1); ++pic) {
                GuardedRows& mem = pic == 0 ? mem_a : mem_b;
                // Columns j0..j1-1 are the real ones; the row pointer is
                // column 0's (j0 columns before the first readable one).
                std::uint8_t* data = mem.row<std::uint8_t>(k, static_cast<std::size_t>(n) * bytes, at_end);
                fill_samples(rng, pic == 0 ? fa : fb, max, static_cast<std::size_t>(n),
                             [&](std::size_t i, std::uint64_t v) {
                                 if (bytes == 1)
                                     data[i] = static_cast<std::uint8_t>(v);
                                 else
                                     reinterpret_cast<std::uint16_t*>(data)[i] =
                                         static_cast<std::uint16_t>(v);
                             });
                (pic == 0 ? a : b)[k] = data - static_cast<std::ptrdiff_t>(j0) * static_cast<std::ptrdiff_t>(bytes);
            }
        const std::string what = "cols=[" + std::to_string(j0) + "," + std::to_string(j1) +
                                 ") taps=" + std::to_string(fw) + " bpc=" + std::to_string(bpc) +
                                 (diff ? " diff" : "") + " fill=" + fill_name(fa) +
                                 (diff ? std::string("/") + fill_name(fb) : std::string());
        ctx.at_band(band, what);
        out_a.poison();
        out_b.poison();
        speed_kernels_scalar().vertical(f, fw, a, diff ? b : nullptr, bpc, j0, j1, out_a.data());
        L.kernels->vertical(f, fw, a, diff ? b : nullptr, bpc, j0, j1, out_b.data());
        ctx.band();
        long long where = 0;
        if (!out_b.canaries_intact(&where, static_cast<std::size_t>(j1)) ||
            std::memcmp(out_b.data(), out_a.data(), sizeof(float) * static_cast<std::size_t>(j0)) != 0) {
            ctx.fail(band) << what << ": wrote mid[] outside [j0, j1)";
            continue;
        }
        for (int j = j0; j < j1; ++j)
            if (std::memcmp(&out_a[static_cast<std::size_t>(j)], &out_b[static_cast<std::size_t>(j)], sizeof(float)) != 0) {
                ctx.fail(band) << std::setprecision(9) << what << ": mid[" << j << "] scalar "
                               << out_a[static_cast<std::size_t>(j)] << ", " << L.level.name << " "
                               << out_b[static_cast<std::size_t>(j)];
                break;
            }
    }
    if (ctx.benching()) {
        // One 1080p chroma row of the 9-tap antialias blur, 8 bits.
        const int n = 960, fw = 9;
        const std::uint8_t* a[fw];
        for (int k = 0; k < fw; ++k) {
            std::uint8_t* data = mem_a.row<std::uint8_t>(k, n, false);
            for (int i = 0; i < n; ++i) data[i] = static_cast<std::uint8_t>(rng());
            a[k] = data;
            f[k] = 1.0f / fw;
        }
        ctx.bench([&] { speed_kernels_scalar().vertical(f, fw, a, nullptr, 8, 0, n, out_a.data()); },
                  [&] { L.kernels->vertical(f, fw, a, nullptr, 8, 0, n, out_b.data()); });
    }
    ctx.done();
}

// The matrix product: r, m, c from 1 to 80 (every vector tail of c; the
// model fit's 25 x 25 and 25 x blocks among them), x and y of the
// covariance's fills (noise at several magnitudes, constants, integers,
// near-denormals, an outlier), compared as bytes. x and y each end at a
// guard page, dst between canaries.
void check_matmul(Context& ctx, const SpeedLevel& L) {
    if (!ctx.check("speed_matmul", L.level)) return;
    Rng rng = ctx.rng();
    constexpr int kMax = 80;
    GuardedRows mem_x(1, kMax * kMax * sizeof(float)), mem_y(1, kMax * kMax * sizeof(float));
    Canaried<float> dst_a(kMax * kMax), dst_b(kMax * kMax);
    constexpr int kFillCount = static_cast<int>(sizeof(kFills) / sizeof(kFills[0]));
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const bool model = rng() % 4 == 0;
        const int r = model ? kBlockElems : 1 + static_cast<int>(rng() % kMax);
        const int m = model ? kBlockElems : 1 + static_cast<int>(rng() % kMax);
        const int c = model && rng() % 2 ? kBlockElems : 1 + static_cast<int>(rng() % kMax);
        const std::size_t nx = static_cast<std::size_t>(r) * m, ny = static_cast<std::size_t>(m) * c;
        float* x = mem_x.row<float>(0, nx, true);
        float* y = mem_y.row<float>(0, ny, true);
        const int fx = static_cast<int>(rng() % kFillCount), fy = static_cast<int>(rng() % kFillCount);
        const float constant = 50.0f * std::uniform_real_distribution<float>(-1, 1)(rng);
        for (std::size_t i = 0; i < nx; ++i) x[i] = sample(rng, fx, constant);
        for (std::size_t i = 0; i < ny; ++i) y[i] = sample(rng, fy, constant);
        const std::string what = std::to_string(r) + "x" + std::to_string(m) + " * " + std::to_string(m) + "x" +
                                 std::to_string(c) + " fill=" + kFills[fx] + "/" + kFills[fy];
        ctx.at_band(band, what);
        dst_a.poison();
        dst_b.poison();
        const std::size_t nd = static_cast<std::size_t>(r) * c;
        speed_kernels_scalar().matmul(dst_a.data(), x, y, r, m, c);
        L.kernels->matmul(dst_b.data(), x, y, r, m, c);
        ctx.band();
        long long where = 0;
        if (!dst_b.canaries_intact(&where, nd)) {
            ctx.fail(band) << what << ": wrote outside dst[0, " << nd << ") at " << where;
            continue;
        }
        for (std::size_t i = 0; i < nd; ++i)
            if (std::memcmp(&dst_a[i], &dst_b[i], sizeof(float)) != 0) {
                ctx.fail(band) << std::setprecision(9) << what << ": dst[" << i / c << "][" << i % c
                               << "] scalar " << dst_a[i] << ", " << L.level.name << " " << dst_b[i];
                break;
            }
    }
    if (ctx.benching()) {
        const int n = kBlockElems;
        float* x = mem_x.row<float>(0, n * n, true);
        float* y = mem_y.row<float>(0, n * n, true);
        for (int i = 0; i < n * n; ++i) x[i] = sample(rng, 0, 0), y[i] = sample(rng, 0, 0);
        ctx.bench([&] { speed_kernels_scalar().matmul(dst_a.data(), x, y, n, n, n); },
                  [&] { L.kernels->matmul(dst_b.data(), x, y, n, n, n); });
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(speed) {
    for (const SpeedLevel& L : simd_tables(ctx, &speed_kernels_for)) {
        if (L.owns(&SpeedKernels::covariance)) check_covariance(ctx, L);
        if (L.owns(&SpeedKernels::vertical)) check_vertical(ctx, L);
        if (L.owns(&SpeedKernels::matmul)) check_matmul(ctx, L);
    }
}

}  // namespace vmafpp::checkasm
