// The Vulkan device twins against the scalar kernels (a checkasm-like
// harness): every shader's integers on generated and hostile inputs, the
// gain-limit product on the device against the double product, and a scan
// of every embedded SPIR-V module for the Float64 capability. On a machine
// without a Vulkan device (or a build without the backend) the tests skip;
// CI and this project's machines run them on Mesa's lavapipe.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_gain_limit.hpp"
#include "adm/adm_kernels.hpp"
#include "motion/motion_kernels.hpp"
#include "vif/vif_kernels.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_context.hpp"
#include "vulkan/vk_twins.hpp"
#endif

namespace vmafpp {
namespace {

#if VMAFPP_HAVE_VULKAN

// Whether device 0 can run the shaders; the reason otherwise.
bool device_ready(std::string* why) {
    try {
        const auto devices = vk::list_devices();
        if (devices.empty()) {
            *why = "no Vulkan device";
            return false;
        }
        if (!devices[0].int64) {
            *why = "device 0 lacks shaderInt64";
            return false;
        }
        return true;
    } catch (const Error& e) {
        *why = e.what();
        return false;
    }
}

// Holds device 0's context for the whole test program: a twin made while
// another holds it reuses the device and its compiled pipelines.
std::shared_ptr<vk::Context> keep_device() {
    static std::shared_ptr<vk::Context> ctx = vk::context_for(0);
    return ctx;
}

#define VMAFPP_NEED_DEVICE()                                           \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
        keep_device();                                                 \
    } while (0)

// SPIR-V: a 5-word header, then instructions whose first word is
// (word count << 16) | opcode. OpCapability is opcode 17, Float64 is 10.
TEST(VulkanSpirv, NoShaderDeclaresFloat64) {
    int shaders = 0;
    for (const vk::EmbeddedShader& s : vk::embedded_spirv()) {
        ++shaders;
        ASSERT_GE(s.count, 5u) << s.name;
        ASSERT_EQ(s.words[0], 0x07230203u) << s.name << ": not SPIR-V";
        int capabilities = 0;
        for (std::size_t i = 5; i < s.count;) {
            const std::uint32_t op = s.words[i] & 0xffffu, n = s.words[i] >> 16;
            ASSERT_GT(n, 0u) << s.name << ": malformed instruction at word " << i;
            if (op == 17) {
                ++capabilities;
                EXPECT_NE(s.words[i + 1], 10u) << s.name << " declares OpCapability Float64";
            }
            i += n;
        }
        EXPECT_GT(capabilities, 0) << s.name << ": no OpCapability found; the parse is wrong";
    }
    EXPECT_GE(shaders, 6) << "the embedded table lost shaders";
}

// adm_gain_limit_product() on the device against (int64_t)((double)rst * gain)
// on the seeds' sweep: every sample in [-300000, 300000] at 1.2, 1.5, 100, 1
// and the neighbours of 1, and random limits in [1, 100) with random
// samples over the whole int32 range.
TEST(VulkanGainProduct, MatchesTheDoubleProductOnTheDevice) {
    VMAFPP_NEED_DEVICE();
    std::vector<std::int32_t> dense;
    for (int r = -300000; r <= 300000; ++r) dense.push_back(r);
    std::vector<std::int64_t> got(dense.size());
    std::uint64_t compared = 0;
    auto check = [&](const std::vector<std::int32_t>& rst, double gain) {
        const adm::GainLimitFixed f = adm::gain_limit_fixed(gain);
        got.resize(rst.size());
        vk::gain_products_on_device(0, rst.data(), rst.size(), f.m, f.s, got.data());
        int bad = 0;
        for (std::size_t i = 0; i < rst.size(); ++i) {
            ++compared;
            const std::int64_t want = adm::gain_product_double(rst[i], gain);
            if (got[i] != want && bad++ < 3)
                ADD_FAILURE() << "rst " << rst[i] << " gain " << std::to_string(gain) << " device "
                              << got[i] << " double " << want;
        }
    };
    for (double g : {1.2, 1.5, 100.0, 1.0, std::nextafter(1.0, 0.0), std::nextafter(1.0, 2.0)})
        check(dense, g);
    std::mt19937_64 rng(1413);
    std::uniform_real_distribution<double> limit(1.0, 100.0);
    std::uniform_int_distribution<std::int32_t> sample(INT32_MIN, INT32_MAX);
    for (int k = 0; k < 40; ++k) {
        std::vector<std::int32_t> rst(20000);
        for (auto& r : rst) r = sample(rng);
        rst[0] = INT32_MIN;
        rst[1] = INT32_MAX;
        check(rst, limit(rng));
    }
    RecordProperty("pairs", std::to_string(compared));
}

// Pictures for the harness: uniform noise, or hostile patterns that push
// every accumulator to its bound (all maximum against all zero, one-sample
// checkerboards of the extremes, an impulse on a flat field).
enum class Pattern { noise, max_vs_zero, checker, impulse };

std::vector<std::uint16_t> make_plane(Pattern pat, int w, int h, int bpc, bool second,
                                      std::mt19937& rng) {
    const std::uint16_t top = static_cast<std::uint16_t>((1u << bpc) - 1);
    std::vector<std::uint16_t> p(static_cast<std::size_t>(w) * h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            std::uint16_t v = 0;
            switch (pat) {
                case Pattern::noise: v = static_cast<std::uint16_t>(rng() & top); break;
                case Pattern::max_vs_zero: v = second ? 0 : top; break;
                case Pattern::checker: v = ((x + y + second) & 1) ? top : 0; break;
                case Pattern::impulse:
                    v = (x == w / 2 && y == h / 3) != second ? top : top / 2;
                    break;
            }
            p[static_cast<std::size_t>(y) * w + x] = v;
        }
    return p;
}

// The plane as the kernels read it: bytes for 8-bit, else uint16.
struct Samples {
    std::vector<std::uint8_t> u8;
    std::vector<std::uint16_t> u16;
    const void* data() const { return u8.empty() ? static_cast<const void*>(u16.data()) : u8.data(); }
};
Samples as_samples(const std::vector<std::uint16_t>& p, int bpc) {
    Samples s;
    if (bpc == 8)
        s.u8.assign(p.begin(), p.end());
    else
        s.u16 = p;
    return s;
}

constexpr Pattern kPatterns[] = {Pattern::noise, Pattern::max_vs_zero, Pattern::checker,
                                 Pattern::impulse};

TEST(VulkanMotion, SadMatchesTheScalarKernel) {
    VMAFPP_NEED_DEVICE();
    std::mt19937 rng(23);
    int cases = 0;
    const int sizes[][2] = {{3, 3}, {4, 7}, {17, 64}, {64, 17}, {65, 33}, {130, 9}, {261, 40}};
    for (int bpc : {8, 10, 12, 16})
        for (const auto& wh : sizes)
            for (Pattern pat : kPatterns) {
                const int w = wh[0], h = wh[1];
                const Samples prev = as_samples(make_plane(pat, w, h, bpc, false, rng), bpc);
                const Samples cur = as_samples(make_plane(pat, w, h, bpc, true, rng), bpc);
                std::vector<std::int32_t> scratch(motion::motion_scratch_size(w));
                const std::uint64_t want =
                    bpc == 8 ? motion::motion_sad_u8(prev.u8.data(), w, cur.u8.data(), w, w, h,
                                                     nullptr, scratch.data())
                             : motion::motion_sad_u16(prev.u16.data(), w, cur.u16.data(), w, w, h,
                                                      bpc, nullptr, scratch.data());
                const auto twin = vk::make_motion_twin(0, w, h, bpc);
                const std::ptrdiff_t stride = std::ptrdiff_t{w} * (bpc > 8 ? 2 : 1);
                EXPECT_EQ(twin->sad(prev.data(), stride, cur.data(), stride), want)
                    << w << "x" << h << " bpc " << bpc << " pattern " << static_cast<int>(pat);
                ++cases;
            }
    RecordProperty("cases", std::to_string(cases));
}

// The scalar VIF pipeline of one picture pair, scale by scale: the
// statistics rows (vif_stat_row_*) and the reductions, as the extractor
// runs them, compared with the twin's sigma planes sample by sample.
void expect_vif_twin_matches(const std::vector<std::uint16_t>& ref16,
                             const std::vector<std::uint16_t>& dis16, int w0, int h0, int bpc,
                             const std::string& what) {
    using namespace vif;
    const auto& k = vif_kernels_scalar();
    const auto twin = vk::make_vif_twin(0, w0, h0, bpc);
    const Samples ref0 = as_samples(ref16, bpc), dis0 = as_samples(dis16, bpc);
    const std::ptrdiff_t stride0 = std::ptrdiff_t{w0} * (bpc > 8 ? 2 : 1);
    twin->run(ref0.data(), stride0, dis0.data(), stride0, false);

    std::vector<std::uint16_t> ref = ref16, dis = dis16;
    int w = w0, h = h0;
    int mismatches = 0;
    auto reflect = [](int i, int n) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); };
    for (int s = 0; s < kScales; ++s) {
        const bool bytes = s == 0 && bpc == 8;
        const int taps = kFilterTaps[s], half = taps / 2;
        std::vector<std::uint32_t> scratch(vif_stat_row_scratch(w));
        std::vector<std::int32_t> s1(w), s2(w), s12(w);
        const std::int32_t* dev = twin->sigma(s);
        const std::size_t n = static_cast<std::size_t>(w) * h;
        for (int i = 0; i < h; ++i) {
            std::array<const std::uint8_t*, 17> r8{}, d8{};
            std::array<const std::uint16_t*, 17> r16{}, d16{};
            for (int t = 0; t < taps; ++t) {
                const std::size_t o = static_cast<std::size_t>(reflect(i - half + t, h)) * w;
                r8[t] = ref0.u8.data() + o;
                d8[t] = dis0.u8.data() + o;
                r16[t] = ref.data() + o;
                d16[t] = dis.data() + o;
            }
            if (bytes)
                k.stat_row_u8(r8.data(), d8.data(), kFilters[s], taps, w, scratch.data(), s1.data(),
                              s2.data(), s12.data(), nullptr);
            else
                k.stat_row_u16(r16.data(), d16.data(), kFilters[s], taps, w, s == 0 ? bpc : 16,
                               s == 0 ? 2 * (bpc - 8) : 16, scratch.data(), s1.data(), s2.data(),
                               s12.data());
            for (int x = 0; x < w; ++x) {
                const std::size_t o = static_cast<std::size_t>(i) * w + x;
                if ((dev[o] != s1[x] || dev[n + o] != s2[x] || dev[2 * n + o] != s12[x]) &&
                    mismatches++ < 3)
                    ADD_FAILURE() << what << " scale " << s << " (" << x << ", " << i
                                  << "): device " << dev[o] << " " << dev[n + o] << " "
                                  << dev[2 * n + o] << ", scalar " << s1[x] << " " << s2[x] << " "
                                  << s12[x];
            }
        }
        if (s + 1 == kScales) break;
        // Reduce to scale s + 1.
        const int ft = kFilterTaps[s + 1], fh = ft / 2;
        const int ow = w / 2, oh = h / 2;
        std::vector<std::uint32_t> cr(w + 2 * kMaxHalf), cd(w + 2 * kMaxHalf);
        std::vector<std::uint16_t> nr(static_cast<std::size_t>(ow) * oh), nd(nr.size());
        for (int oi = 0; oi < oh; ++oi) {
            std::array<const std::uint8_t*, 17> r8{}, d8{};
            std::array<const std::uint16_t*, 17> r16{}, d16{};
            for (int t = 0; t < ft; ++t) {
                const std::size_t o = static_cast<std::size_t>(reflect(2 * oi - fh + t, h)) * w;
                r8[t] = ref0.u8.data() + o;
                d8[t] = dis0.u8.data() + o;
                r16[t] = ref.data() + o;
                d16[t] = dis.data() + o;
            }
            const int shift = s == 0 ? bpc : 16;
            if (bytes)
                k.subsample_vertical_u8(r8.data(), d8.data(), kFilters[s + 1], ft, w, shift,
                                        cr.data() + kMaxHalf, cd.data() + kMaxHalf);
            else
                k.subsample_vertical_u16(r16.data(), d16.data(), kFilters[s + 1], ft, w, shift,
                                         cr.data() + kMaxHalf, cd.data() + kMaxHalf);
            vif_mirror_pad(cr.data() + kMaxHalf, w, fh);
            vif_mirror_pad(cd.data() + kMaxHalf, w, fh);
            k.subsample_horizontal(cr.data() + kMaxHalf, cd.data() + kMaxHalf, kFilters[s + 1], ft,
                                   ow, nr.data() + static_cast<std::size_t>(oi) * ow,
                                   nd.data() + static_cast<std::size_t>(oi) * ow);
        }
        ref = std::move(nr);
        dis = std::move(nd);
        w = ow;
        h = oh;
    }
}

TEST(VulkanVif, StatisticsAndReductionsMatchTheScalarKernels) {
    VMAFPP_NEED_DEVICE();
    std::mt19937 rng(1402);
    const int sizes[][2] = {{16, 16}, {17, 64}, {64, 17}, {67, 21}, {130, 35}, {261, 40}};
    for (int bpc : {8, 10, 12, 16})
        for (const auto& wh : sizes)
            for (Pattern pat : kPatterns)
                expect_vif_twin_matches(make_plane(pat, wh[0], wh[1], bpc, false, rng),
                                        make_plane(pat, wh[0], wh[1], bpc, true, rng), wh[0],
                                        wh[1], bpc,
                                        std::to_string(wh[0]) + "x" + std::to_string(wh[1]) +
                                            " bpc " + std::to_string(bpc) + " pattern " +
                                            std::to_string(static_cast<int>(pat)));
}

// The seeds' pictures (research-1402 and -1413) as reference / distorted
// luma: a flat reference against 3x3 patches of the extremes, one-pixel
// vertical stripes against the same stripes shifted on every third row,
// salt-and-pepper impulses on a gradient, 6x10 blocks against a horizontal
// blur of them, and a picture whose contrast the distorted copy doubles
// (the angle test passes and the gain limit acts).
enum class Trap { flat_patches, stripes, impulses, blocks, contrast };

std::uint16_t trap_sample(Trap trap, int x, int y, int w, int top, bool dis, std::mt19937& rng) {
    const int mid = top / 2;
    switch (trap) {
        case Trap::flat_patches: {
            // 8x8 patches of one-sample lines every fourth row, column or
            // both: the h and v bands reach 64 * top * 0.84 * 1.41 (about
            // 19300 at 8 bits), whose scale-0 csf (x 36453 / 2^15) passes
            // 15360, where an int16 centre tap would wrap (research-1402).
            if (!dis) return static_cast<std::uint16_t>(mid);
            const int kind = (x / 8 + y / 8) % 4;
            const bool on = kind == 0 ? y % 4 == 1 : kind == 1 ? x % 4 == 1 : kind == 2 ? (x % 4 == 1 || y % 4 == 1) : false;
            return static_cast<std::uint16_t>(kind == 3 ? mid : (on ? top : 0));
        }
        case Trap::stripes: {
            const int shift = dis && y % 3 == 0 ? 1 : 0;
            return static_cast<std::uint16_t>(((x + shift) & 1) ? top : 0);
        }
        case Trap::impulses: {
            const int g = static_cast<int>(static_cast<long long>(top) * x / (w - 1));
            if (dis && rng() % 7 == 0) return static_cast<std::uint16_t>(rng() & 1 ? top : 0);
            return static_cast<std::uint16_t>(g);
        }
        case Trap::blocks: {
            auto block = [&](int xx) { return ((xx / 6 + y / 10) & 1) ? top : top / 8; };
            if (!dis) return static_cast<std::uint16_t>(block(x));
            const int l = block(x > 0 ? x - 1 : 0), c = block(x), r = block(x + 1 < w ? x + 1 : x);
            return static_cast<std::uint16_t>((l + 2 * c + r) / 4);
        }
        case Trap::contrast: {
            const int v = mid + static_cast<int>((rng() % 64) - 32) * (top / 255);
            if (!dis) return static_cast<std::uint16_t>(v);
            return static_cast<std::uint16_t>(std::clamp(mid + 2 * (v - mid), 0, top));
        }
    }
    return 0;
}

Picture trap_picture(Trap trap, int w, int h, int bpc, bool dis, std::mt19937& rng) {
    Picture p(w, h, bpc, PixelFormat::yuv400);
    const int top = (1 << bpc) - 1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::uint16_t v = trap_sample(trap, x, y, w, top, dis, rng);
            if (bpc > 8)
                p.planes[0].row<std::uint16_t>(y)[x] = v;
            else
                p.planes[0].row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
        }
    return p;
}

// The ADM twin (DWT, decouple with the angle test and the gain product,
// masking with the int32 centre tap and the exact excess, denominator) on
// the seeds' pictures, every gain limit of the goldens and 100, against the
// CPU scalar: every debug value of every scale, bit for bit.
TEST(VulkanAdm, SeedsPicturesMatchTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    const FeatureInfo* info = find_feature("adm");
    int compared = 0;
    const int sizes[][2] = {{24, 24}, {64, 64}, {96, 64}, {67, 21}};
    for (Trap trap : {Trap::flat_patches, Trap::stripes, Trap::impulses, Trap::blocks, Trap::contrast})
        for (int bpc : {8, 10, 16})
            for (const auto& wh : sizes)
                for (const char* gain : {"1", "1.2", "1.5", "100"}) {
                    std::mt19937 rng(static_cast<unsigned>(wh[0] * 131 + bpc));
                    const Picture ref = trap_picture(trap, wh[0], wh[1], bpc, false, rng);
                    const Picture dis = trap_picture(trap, wh[0], wh[1], bpc, true, rng);
                    OptionValues opts =
                        test::options_for(*info, {{"debug", "true"}, {"adm_enhn_gain_limit", gain}});
                    const FrameGeometry geo{wh[0], wh[1], bpc, PixelFormat::yuv400};
                    Compute cpu;
                    cpu.simd = SimdLevel::scalar;
                    Compute dev = cpu;
                    dev.backend = Backend::vulkan;
                    test::RecordingSink a, b;
                    info->create(opts, geo, cpu)->extract(ref, dis, 0, a);
                    info->create(opts, geo, dev)->extract(ref, dis, 0, b);
                    for (const auto& [key, frames] : a.values) {
                        ++compared;
                        EXPECT_EQ(b.values[key][0], frames.at(0))
                            << "trap " << static_cast<int>(trap) << " " << wh[0] << "x" << wh[1]
                            << " bpc " << bpc << " gain " << gain << " " << key << ": device "
                            << test::g17(b.values[key][0]) << " cpu " << test::g17(frames.at(0));
                    }
                }
    RecordProperty("values", std::to_string(compared));
}

// Hostile bands for the ADM stages after the DWT (research-1402 and -1413):
// dense fills of either sign and non-negative ones over the band type's
// whole range, one full-range event among zeros, 3x4 blocks of the
// extremes, h = v = -32768 in the distorted bands (the angle test's int32
// wrap), and distorted = 2 x reference (the angle test passes, the gain
// limit acts) and = reference x 0.8.
enum class BandFill { dense, positive, event, blocks, min_hv, doubled, shrunk };

void fill_bands(BandFill fill, int scale, int bw, int bh, std::mt19937_64& rng,
                std::vector<std::int32_t> (&ref)[3], std::vector<std::int32_t> (&dis)[3]) {
    const std::int64_t lo = scale == 0 ? -32768 : INT32_MIN, hi = scale == 0 ? 32767 : INT32_MAX;
    const std::size_t n = static_cast<std::size_t>(bw) * bh;
    auto any = [&](std::int64_t a, std::int64_t b) {
        return static_cast<std::int32_t>(a + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(b - a + 1)));
    };
    const std::int64_t typical = scale == 0 ? 4000 : (std::int64_t{1} << 24);
    for (int t = 0; t < 3; ++t) {
        ref[t].assign(n, 0);
        dis[t].assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            switch (fill) {
                case BandFill::dense: ref[t][i] = any(lo, hi); dis[t][i] = any(lo, hi); break;
                case BandFill::positive: ref[t][i] = any(0, hi); dis[t][i] = any(0, hi); break;
                case BandFill::event: break;
                case BandFill::blocks:
                case BandFill::min_hv:
                    ref[t][i] = any(-typical, typical);
                    dis[t][i] = any(-typical, typical);
                    break;
                case BandFill::doubled:
                case BandFill::shrunk:
                    ref[t][i] = any(-typical, typical);
                    dis[t][i] = static_cast<std::int32_t>(std::clamp<std::int64_t>(
                        fill == BandFill::doubled ? 2 * std::int64_t{ref[t][i]} + any(-3, 3)
                                                  : ref[t][i] * 4 / 5,
                        lo, hi));
                    break;
            }
        }
    }
    const std::size_t at = rng() % n;
    switch (fill) {
        case BandFill::event:
            (rng() & 1 ? ref : dis)[rng() % 3][at] = static_cast<std::int32_t>(rng() & 1 ? lo : hi);
            break;
        case BandFill::blocks:
            for (int x0 = 0; x0 < bw; x0 += 5)
                for (int y = 0; y < std::min(bh, 4); ++y)
                    for (int x = x0; x < std::min(bw, x0 + 3); ++x)
                        dis[(x0 / 5) % 3][static_cast<std::size_t>(y) * bw + x] =
                            static_cast<std::int32_t>((x0 / 5) & 1 ? lo : hi);
            break;
        case BandFill::min_hv:
            for (std::size_t i = 0; i < n; i += 3) dis[0][i] = dis[1][i] = static_cast<std::int32_t>(lo);
            break;
        default: break;
    }
}

// The ADM twin's decouple, denominator and masking shaders on hostile
// bands of every scale against the scalar kernels (decouple_*,
// den_accumulate_*, cm_accumulate_* over one region row at a time with no
// row shift, which is the raw row sum), at gain limits 1, 1.2, 1.5, 100.
TEST(VulkanAdm, StagesOnHostileBandsMatchTheScalarKernels) {
    VMAFPP_NEED_DEVICE();
    std::mt19937_64 rng(1402);
    int rows_compared = 0;
    const int sizes[][2] = {{48, 24}, {134, 42}};
    for (const auto& wh : sizes)
        for (const double gain : {1.0, 1.2, 1.5, 100.0}) {
            adm::AdmOptions options;
            options.gain_limit = gain;
            const adm::AdmEngine engine(wh[0], wh[1], 8, options);
            adm::AdmDeviceParams params[adm::kScales];
            for (int s = 0; s < adm::kScales; ++s) params[s] = engine.device_params(s);
            const auto twin = vk::make_adm_twin(0, wh[0], wh[1], 8, params, gain, false, false);
            for (int s = 0; s < adm::kScales; ++s)
                for (BandFill fill : {BandFill::dense, BandFill::positive, BandFill::event,
                                      BandFill::blocks, BandFill::min_hv, BandFill::doubled,
                                      BandFill::shrunk}) {
                    const adm::AdmDeviceParams& q = params[s];
                    const int bw = q.bw, bh = q.bh;
                    const std::size_t n = static_cast<std::size_t>(bw) * bh;
                    std::vector<std::int32_t> ref[3], dis[3];
                    fill_bands(fill, s, bw, bh, rng, ref, dis);
                    const std::int32_t* rp[3] = {ref[0].data(), ref[1].data(), ref[2].data()};
                    const std::int32_t* dp[3] = {dis[0].data(), dis[1].data(), dis[2].data()};
                    twin->run_on_bands(s, rp, dp);
                    const std::int64_t* rows = twin->rows(s);
                    const adm::Rect reg = q.region;
                    const int rh = reg.height();
                    ASSERT_LE(rh, 64);
                    const std::string what = "scale " + std::to_string(s) + " " +
                                             std::to_string(bw) + "x" + std::to_string(bh) +
                                             " gain " + std::to_string(gain) + " fill " +
                                             std::to_string(static_cast<int>(fill));
                    std::int64_t want[3][3][64];  // [den, dlm, aim][t][row]
                    if (s == 0) {
                        std::vector<std::int16_t> r16[3], d16[3], r[3], a[3];
                        std::int16_t *rq[3], *dq[3], *ro[3], *ao[3];
                        for (int t = 0; t < 3; ++t) {
                            r16[t].assign(ref[t].begin(), ref[t].end());
                            d16[t].assign(dis[t].begin(), dis[t].end());
                            r[t].assign(n, 0);
                            a[t].assign(n, 0);
                            rq[t] = r16[t].data(), dq[t] = d16[t].data();
                            ro[t] = r[t].data(), ao[t] = a[t].data();
                        }
                        adm::decouple_s0(rq, dq, bw, adm::Rect{0, 0, bw, bh}, gain, ro, ao);
                        const std::uint16_t rf[3] = {static_cast<std::uint16_t>(q.rfactor[0]),
                                                     static_cast<std::uint16_t>(q.rfactor[1]),
                                                     static_cast<std::uint16_t>(q.rfactor[2])};
                        std::vector<std::int32_t> thr(bw);
                        for (int y = reg.y0; y < reg.y1; ++y) {
                            const adm::Rect row{reg.x0, y, reg.x1, y + 1};
                            std::uint64_t den[3] = {};
                            std::int64_t dlm[3] = {}, aim[3] = {};
                            adm::den_accumulate_s0(rq, bw, row, 0, den);
                            adm::cm_accumulate_s0(ro, ao, bw, bw, bh, row, rf, q.shifts, 0, thr.data(), dlm);
                            adm::cm_accumulate_s0(ao, ro, bw, bw, bh, row, rf, q.shifts, 0, thr.data(), aim);
                            for (int t = 0; t < 3; ++t) {
                                want[0][t][y - reg.y0] = static_cast<std::int64_t>(den[t]);
                                want[1][t][y - reg.y0] = dlm[t];
                                want[2][t][y - reg.y0] = aim[t];
                            }
                        }
                    } else {
                        std::vector<std::int32_t> r[3], a[3];
                        std::int32_t *ro[3], *ao[3];
                        for (int t = 0; t < 3; ++t) {
                            r[t].assign(n, 0);
                            a[t].assign(n, 0);
                            ro[t] = r[t].data(), ao[t] = a[t].data();
                        }
                        adm::decouple_s123(rp, dp, bw, adm::Rect{0, 0, bw, bh}, gain, ro, ao);
                        std::vector<std::int64_t> thr(bw);
                        for (int y = reg.y0; y < reg.y1; ++y) {
                            const adm::Rect row{reg.x0, y, reg.x1, y + 1};
                            std::uint64_t den[3] = {};
                            std::int64_t dlm[3] = {}, aim[3] = {};
                            adm::den_accumulate_s123(rp, bw, row, q.den_sq, q.den_cub, 0, den);
                            adm::cm_accumulate_s123(ro, ao, bw, bw, bh, row, q.rfactor, q.shifts[0], 0, thr.data(), dlm);
                            adm::cm_accumulate_s123(ao, ro, bw, bw, bh, row, q.rfactor, q.shifts[0], 0, thr.data(), aim);
                            for (int t = 0; t < 3; ++t) {
                                want[0][t][y - reg.y0] = static_cast<std::int64_t>(den[t]);
                                want[1][t][y - reg.y0] = dlm[t];
                                want[2][t][y - reg.y0] = aim[t];
                            }
                        }
                    }
                    int bad = 0;
                    for (int k = 0; k < 3; ++k)
                        for (int t = 0; t < 3; ++t)
                            for (int y = 0; y < rh; ++y) {
                                ++rows_compared;
                                if (rows[(k * 3 + t) * rh + y] != want[k][t][y] && bad++ < 2)
                                    ADD_FAILURE() << what << " " << (k == 0 ? "den" : k == 1 ? "dlm" : "aim")
                                                  << " orientation " << t << " row " << y + reg.y0
                                                  << ": device " << rows[(k * 3 + t) * rh + y]
                                                  << " scalar " << want[k][t][y];
                            }
                }
        }
    RecordProperty("rows", std::to_string(rows_compared));
}

#else

TEST(VulkanSpirv, NoShaderDeclaresFloat64) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the Vulkan backend";
}

#endif

}  // namespace
}  // namespace vmafpp
