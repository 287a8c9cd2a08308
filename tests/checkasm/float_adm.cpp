// checkasm module "float_adm": the twins of float ADM's DWT (all four bands
// or the approximation alone, a third of the calls in place as float_adm
// runs scales 1-3), decouple (distorted bands unrelated to, equal to, or a
// scaled and noisy copy of the reference, so that the angle test and both
// gain limits are met; libvmaf's gain limit and others), CSF and the p-norm
// sums (den_scale, contrast_masked_sum: returned floats compared), every SIMD
// level against the scalar table, bit for bit (memcmp per float) over the
// whole output buffers (a twin must leave what lies outside its region
// alone). Sizes: every width 2..64 and random wider ones up to 200, heights
// 2..24; regions random rectangles of the band, empty ones included.
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <string>
#include <vector>

#include "checkasm/checkasm.hpp"
#include "adm/float_adm_kernels.hpp"

namespace vmafpp::checkasm {
namespace {

using float_adm::Bands;
using float_adm::FloatAdmKernels;
using float_adm::Region;
using AdmLevel = TableLevel<FloatAdmKernels>;

constexpr int kMaxW = 200;
constexpr int kMaxH = 24;

float sample(Rng& rng, int kind) {
    const double u = static_cast<double>(rng() % (1u << 24)) / (1u << 24);
    switch (kind) {
        case 0:
            return static_cast<float>(rng() % 256) - 128.0f;
        case 1:
            return static_cast<float>((u - 0.5) * 1e4);
        case 2:
            return static_cast<float>((u - 0.5) * 1e-20);
        case 3:
            return static_cast<float>((u - 0.5) * 1e30);
        default:
            return rng() % 2 ? 0.0f : -0.0f;
    }
}

void fill(Rng& rng, std::vector<float>& v, std::size_t n) {
    const int kind = static_cast<int>(rng() % 5);
    v.resize(n);
    for (float& x : v) x = sample(rng, rng() % 8 == 0 ? static_cast<int>(rng() % 5) : kind);
}

// First differing float (bits) of two buffers, or -1.
long long first_diff(const std::vector<float>& a, const std::vector<float>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) return static_cast<long long>(i);
    return -1;
}

Region random_region(Rng& rng, int w, int h) {
    Region r;
    r.left = static_cast<int>(rng() % static_cast<unsigned>(w + 1));
    r.right = r.left + static_cast<int>(rng() % static_cast<unsigned>(w - r.left + 1));
    r.top = static_cast<int>(rng() % static_cast<unsigned>(h + 1));
    r.bottom = r.top + static_cast<int>(rng() % static_cast<unsigned>(h - r.top + 1));
    if (rng() % 2) r = {0, h, 0, w};  // the whole band half the time
    return r;
}

// Four band buffers of w x h (stride w) and their Bands view.
struct BandSet {
    std::vector<float> b[4];
    Bands view() { return {b[0].data(), b[1].data(), b[2].data(), b[3].data()}; }
};

bool compare_sets(Context& ctx, int band, const std::string& what, const char* level,
                  const BandSet& want, const BandSet& got, const char* name) {
    static const char* kBand[4] = {"a", "h", "v", "d"};
    for (int q = 0; q < 4; ++q) {
        const long long at = first_diff(want.b[q], got.b[q]);
        if (at < 0) continue;
        ctx.fail(band) << std::setprecision(9) << what << ": " << name << "." << kBand[q] << "["
                       << at << "] scalar " << want.b[q][at] << ", " << level << " "
                       << got.b[q][at];
        return false;
    }
    return true;
}

void check_dwt2(Context& ctx, const AdmLevel& L) {
    if (!ctx.check("float_adm_dwt2", L.level)) return;
    Rng rng = ctx.rng();
    std::vector<float> src;
    std::vector<int> rt[4], ct[4];
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 63 ? 2 + band : 2 + static_cast<int>(rng() % (kMaxW - 1));
        const int h = 2 + static_cast<int>(rng() % (kMaxH - 1));
        const bool lo_only = rng() % 4 == 0;
        const bool in_place = rng() % 3 == 0;
        const int ow = (w + 1) / 2, oh = (h + 1) / 2;
        for (auto& t : rt) t.resize(static_cast<std::size_t>(oh));
        for (auto& t : ct) t.resize(static_cast<std::size_t>(ow));
        float_adm::dwt_tap_indices(h, rt[0].data(), rt[1].data(), rt[2].data(), rt[3].data());
        float_adm::dwt_tap_indices(w, ct[0].data(), ct[1].data(), ct[2].data(), ct[3].data());
        const int* rows[4] = {rt[0].data(), rt[1].data(), rt[2].data(), rt[3].data()};
        const int* cols[4] = {ct[0].data(), ct[1].data(), ct[2].data(), ct[3].data()};
        fill(rng, src, static_cast<std::size_t>(w) * h);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 (lo_only ? " lo_only" : "") + (in_place ? " in_place" : "");
        ctx.at_band(band, what);
        BandSet out[2];
        std::vector<float> tlo(static_cast<std::size_t>(w)), thi(tlo.size());
        for (int s = 0; s < 2; ++s) {
            for (auto& b : out[s].b) b.assign(static_cast<std::size_t>(w) * h, 1.5f);
            if (in_place) out[s].b[0] = src;
            const FloatAdmKernels& k = s == 0 ? float_adm::float_adm_kernels_scalar() : *L.kernels;
            k.dwt2(in_place ? out[s].b[0].data() : src.data(), w, w, h, rows, cols, out[s].view(),
                   w, tlo.data(), thi.data(), lo_only);
        }
        ctx.band();
        compare_sets(ctx, band, what, L.level.name, out[0], out[1], "band");
    }
    ctx.done();
}

void check_decouple(Context& ctx, const AdmLevel& L) {
    if (!ctx.check("float_adm_decouple", L.level)) return;
    Rng rng = ctx.rng();
    static const double kGain[] = {100.0, 1.0, 1.2, 0.5};
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 64 ? 1 + band : 1 + static_cast<int>(rng() % kMaxW);
        const int h = 1 + static_cast<int>(rng() % kMaxH);
        const std::size_t n = static_cast<std::size_t>(w) * h;
        BandSet ref, dis;
        for (auto& b : ref.b) fill(rng, b, n);
        const int relation = static_cast<int>(rng() % 3);  // unrelated, equal, scaled
        const float scale = static_cast<float>(rng() % 300) / 100.0f - 0.5f;
        for (int q = 0; q < 4; ++q) {
            fill(rng, dis.b[q], n);
            if (relation == 1) dis.b[q] = ref.b[q];
            if (relation == 2)
                for (std::size_t i = 0; i < n; ++i)
                    dis.b[q][i] = ref.b[q][i] * scale + static_cast<float>(rng() % 3) - 1.0f;
        }
        const double gain = kGain[rng() % 4];
        const Region reg = random_region(rng, w, h);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) +
                                 " relation=" + std::to_string(relation) +
                                 " gain_limit=" + std::to_string(gain);
        ctx.at_band(band, what);
        BandSet r[2], a[2];
        for (int s = 0; s < 2; ++s) {
            for (auto& b : r[s].b) b.assign(n, 2.5f);
            for (auto& b : a[s].b) b.assign(n, 3.5f);
            const FloatAdmKernels& k = s == 0 ? float_adm::float_adm_kernels_scalar() : *L.kernels;
            k.decouple(ref.view(), dis.view(), r[s].view(), a[s].view(), w, reg, gain);
        }
        ctx.band();
        if (compare_sets(ctx, band, what, L.level.name, r[0], r[1], "r"))
            compare_sets(ctx, band, what, L.level.name, a[0], a[1], "a");
    }
    ctx.done();
}

void check_csf(Context& ctx, const AdmLevel& L) {
    if (!ctx.check("float_adm_csf", L.level)) return;
    Rng rng = ctx.rng();
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 64 ? 1 + band : 1 + static_cast<int>(rng() % kMaxW);
        const int h = 1 + static_cast<int>(rng() % kMaxH);
        const std::size_t n = static_cast<std::size_t>(w) * h;
        BandSet src;
        for (auto& b : src.b) fill(rng, b, n);
        const float f1 = sample(rng, 1) / 1000.0f, f2 = sample(rng, 1) / 1000.0f;
        const Region reg = random_region(rng, w, h);
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h);
        ctx.at_band(band, what);
        BandSet out[2], masked[2];
        for (int s = 0; s < 2; ++s) {
            for (auto& b : out[s].b) b.assign(n, 2.5f);
            for (auto& b : masked[s].b) b.assign(n, 3.5f);
            const FloatAdmKernels& k = s == 0 ? float_adm::float_adm_kernels_scalar() : *L.kernels;
            k.csf(src.view(), out[s].view(), masked[s].view(), w, reg, f1, f2);
        }
        ctx.band();
        if (compare_sets(ctx, band, what, L.level.name, out[0], out[1], "out"))
            compare_sets(ctx, band, what, L.level.name, masked[0], masked[1], "masked");
    }
    ctx.done();
}

// den_scale and contrast_masked_sum: the p-norm sums of random bands (the
// masker the CSF of random bands, as float_adm forms it) over random inner
// regions; p 3 (products) or others (powf), bypass_cm now and then.
void check_sums(Context& ctx, const AdmLevel& L, bool masked) {
    if (!ctx.check(masked ? "float_adm_contrast_masked_sum" : "float_adm_den_scale", L.level))
        return;
    Rng rng = ctx.rng();
    static const double kP[] = {3.0, 3.0, 2.0, 4.5};
    for (int band = 0; band < ctx.bands() && ctx.ok(); ++band) {
        const int w = band < 64 ? 2 + band : 2 + static_cast<int>(rng() % (kMaxW - 1));
        const int h = 2 + static_cast<int>(rng() % (kMaxH - 1));
        const std::size_t n = static_cast<std::size_t>(w) * h;
        // x and the masker's source of one magnitude mostly (as float_adm's
        // restored and impairment bands are), so that thresholds neither
        // swamp every sample nor vanish.
        BandSet xs, src, out, flt;
        const int kind = rng() % 4 == 0 ? -1 : static_cast<int>(rng() % 2);
        for (int q = 0; q < 4; ++q) {
            fill(rng, xs.b[q], n);
            fill(rng, src.b[q], n);
            if (kind >= 0)
                for (std::size_t i = 0; i < n; ++i) {
                    xs.b[q][i] = sample(rng, kind);
                    src.b[q][i] = sample(rng, kind);
                }
            out.b[q].assign(n, 0.0f);
            flt.b[q].assign(n, 0.0f);
        }
        const float f1 = sample(rng, 0) / 100.0f, f2 = sample(rng, 0) / 100.0f;
        float_adm::float_adm_kernels_scalar().csf(src.view(), out.view(), flt.view(), w,
                                                  Region{0, h, 0, w}, f1, f2);
        Region inner = random_region(rng, w, h);
        if (inner.left == inner.right || inner.top == inner.bottom) inner = Region{0, h, 0, w};
        const double p = kP[rng() % 4];
        const double noise = static_cast<double>(rng() % 1000) / 1e4;
        const bool bypass = rng() % 5 == 0;
        const std::string what = "w=" + std::to_string(w) + " h=" + std::to_string(h) + " inner=[" +
                                 std::to_string(inner.top) + "," + std::to_string(inner.bottom) +
                                 ")x[" + std::to_string(inner.left) + "," +
                                 std::to_string(inner.right) + ") p=" + std::to_string(p) +
                                 (bypass ? " bypass_cm" : "");
        ctx.at_band(band, what);
        float got[2];
        for (int s = 0; s < 2; ++s) {
            const FloatAdmKernels& k = s == 0 ? float_adm::float_adm_kernels_scalar() : *L.kernels;
            got[s] = masked ? k.contrast_masked_sum(xs.view(), out.view(), flt.view(), w, w, h,
                                                    inner, f1, f2, noise, bypass, p)
                            : k.den_scale(xs.view(), w, inner, f1, f2, noise, p);
        }
        ctx.band();
        if (std::memcmp(&got[0], &got[1], sizeof(float)) != 0)
            ctx.fail(band) << std::setprecision(9) << what << ": scalar " << got[0] << ", "
                           << L.level.name << " " << got[1];
    }
    ctx.done();
}

}  // namespace

CHECKASM_MODULE(float_adm) {
    for (const AdmLevel& L : simd_tables(ctx, &float_adm::float_adm_kernels_for)) {
        if (L.owns(&FloatAdmKernels::dwt2)) check_dwt2(ctx, L);
        if (L.owns(&FloatAdmKernels::decouple)) check_decouple(ctx, L);
        if (L.owns(&FloatAdmKernels::csf)) check_csf(ctx, L);
        if (L.owns(&FloatAdmKernels::den_scale)) check_sums(ctx, L, false);
        if (L.owns(&FloatAdmKernels::contrast_masked_sum)) check_sums(ctx, L, true);
    }
}

}  // namespace vmafpp::checkasm
