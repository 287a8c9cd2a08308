// The CUDA twins' arithmetic against the scalar kernels, twice:
// - CudaEmulation.*: the per-thread functions the CUDA kernels call
//   (src/*/*_cuda_math.cuh), run on the host over the whole grid
//   (support/cuda_grid_emulation.hpp). These need no GPU and no nvcc and
//   run everywhere.
// - CudaDevice.*: the same checks on the CUDA twins on device 0; they skip
//   where the build lacks the backend or the machine a CUDA device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_gain_limit.hpp"
#include "support/cuda_grid_emulation.hpp"
#include "support/device_checks.hpp"
#include "support/device_inputs.hpp"
#include "support/feature_run.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/error.hpp"

#if VMAFPP_HAVE_CUDA
#include "cuda/cuda_twins.hpp"
#endif

namespace vmafpp {
namespace {

using namespace devtest;

MotionMaker emulated_motion() {
    return [](int w, int h, int bpc) { return std::make_unique<EmulatedMotion>(w, h, bpc); };
}
VifMaker emulated_vif() {
    return [](int w, int h, int bpc) { return std::make_unique<EmulatedVif>(w, h, bpc); };
}
AdmMaker emulated_adm() {
    return [](int w, int h, int bpc, const adm::AdmDeviceParams* p, double gain, bool skip0,
              bool skip_aim) {
        return std::make_unique<EmulatedAdm>(w, h, bpc, p, gain, skip0, skip_aim);
    };
}

// ADM from a twin's row sums (AdmEngine::compute_from_rows, the extractor's
// path) against AdmEngine::compute with the scalar kernels on the seeds'
// pictures: every score, num and den of every scale, bit for bit, at every
// golden gain limit and 100, at 8, 10, 12 and 16 bits, odd sizes down to
// the minimum (17x17), with adm_skip_scale0 and adm_skip_aim too.
void check_adm_twins_on_pictures(const AdmMaker& make) {
    int compared = 0;
    const int sizes[][2] = {{17, 17}, {24, 24}, {64, 64}, {67, 21}, {35, 19}};
    const bool skips[][2] = {{false, false}, {true, false}, {false, true}};
    for (Trap trap :
         {Trap::flat_patches, Trap::stripes, Trap::impulses, Trap::blocks, Trap::contrast})
        for (int bpc : {8, 10, 12, 16})
            for (const auto& wh : sizes)
                for (double gain : {1.0, 1.2, 1.5, 100.0})
                    for (const auto& skip : skips) {
                        if ((skip[0] || skip[1]) && gain != 1.2) continue;
                        std::mt19937 rng(static_cast<unsigned>(wh[0] * 131 + bpc));
                        const Picture ref = trap_picture(trap, wh[0], wh[1], bpc, false, rng);
                        const Picture dis = trap_picture(trap, wh[0], wh[1], bpc, true, rng);
                        adm::AdmOptions o;
                        o.gain_limit = gain;
                        o.skip_scale0 = skip[0];
                        o.skip_aim = skip[1];
                        adm::AdmEngine cpu(wh[0], wh[1], bpc, o);
                        adm::AdmEngine host(wh[0], wh[1], bpc, o);
                        adm::AdmDeviceParams p[adm::kScales];
                        for (int s = 0; s < adm::kScales; ++s) p[s] = host.device_params(s);
                        const auto twin = make(wh[0], wh[1], bpc, p, gain, skip[0], skip[1]);
                        const Plane& rl = ref.luma();
                        const Plane& dl = dis.luma();
                        twin->run(rl.row<std::uint8_t>(0), rl.stride(), dl.row<std::uint8_t>(0),
                                  dl.stride());
                        const std::int64_t* rows[adm::kScales];
                        for (int s = 0; s < adm::kScales; ++s) rows[s] = twin->rows(s);
                        const adm::AdmScores want = cpu.compute(rl, dl);
                        const adm::AdmScores got = host.compute_from_rows(rows);
                        const std::string what =
                            "trap " + std::to_string(static_cast<int>(trap)) + " " +
                            std::to_string(wh[0]) + "x" + std::to_string(wh[1]) + " bpc " +
                            std::to_string(bpc) + " gain " + std::to_string(gain) + " skip " +
                            std::to_string(skip[0]) + std::to_string(skip[1]);
                        auto expect = [&](double g, double w, const char* key) {
                            ++compared;
                            EXPECT_EQ(g, w) << what << " " << key << ": twin " << test::g17(g)
                                            << " cpu " << test::g17(w);
                        };
                        expect(got.adm2, want.adm2, "adm2");
                        expect(got.aim, want.aim, "aim");
                        expect(got.adm3, want.adm3, "adm3");
                        expect(got.num, want.num, "num");
                        expect(got.den, want.den, "den");
                        for (int s = 0; s < adm::kScales; ++s) {
                            expect(got.scale[s], want.scale[s], "scale");
                            expect(got.num_scale[s], want.num_scale[s], "num_scale");
                            expect(got.den_scale[s], want.den_scale[s], "den_scale");
                        }
                    }
    ::testing::Test::RecordProperty("values", std::to_string(compared));
}

TEST(CudaEmulation, MotionSadMatchesTheScalarKernel) { check_motion_twins(emulated_motion()); }

TEST(CudaEmulation, VifStatisticsAndReductionsMatchTheScalarKernels) {
    check_vif_twins(emulated_vif());
}

// (vif_accumulate's step of one sample is vif_shared.h's
// vif_accumulate_sample, which the scalar's vif_accumulate runs: one
// definition, so no test compares the two.)

// A VIF twin that accumulates on the device (sums()) against the host's
// vif_accumulate over the emulated sigma planes (which equal the scalar's,
// VifStatisticsAndReductionsMatchTheScalarKernels), every scale, at 8, 10,
// 12 and 16 bits, skipping scale 0 or not.
void check_vif_sums(const VifMaker& make_sums) {
    std::mt19937 rng(77);
    int compared = 0;
    const int sizes[][2] = {{16, 16}, {67, 21}, {130, 35}};
    for (int bpc : {8, 10, 12, 16})
        for (const auto& wh : sizes)
            for (Pattern pat : kPatterns)
                for (bool skip0 : {false, true}) {
                    const int w = wh[0], h = wh[1];
                    const Samples ref = as_samples(make_plane(pat, w, h, bpc, false, rng), bpc);
                    const Samples dis = as_samples(make_plane(pat, w, h, bpc, true, rng), bpc);
                    const std::ptrdiff_t stride = std::ptrdiff_t{w} * (bpc > 8 ? 2 : 1);
                    EmulatedVif host(w, h, bpc);
                    host.run(ref.data(), stride, dis.data(), stride, skip0);
                    const auto twin = make_sums(w, h, bpc);
                    twin->run(ref.data(), stride, dis.data(), stride, skip0);
                    int sw = w, sh = h;
                    for (int s = 0; s < vif::kScales; ++s, sw /= 2, sh /= 2) {
                        if (s == 0 && skip0) continue;
                        vif::VifSums want, got;
                        const std::size_t n = static_cast<std::size_t>(sw) * sh;
                        for (int i = 0; i < sh; ++i) {
                            const std::int32_t* p =
                                host.sigma(s) + static_cast<std::size_t>(i) * sw;
                            vif::vif_kernels_scalar().accumulate(
                                p, p + n, p + 2 * n, sw, vif::vif_log2_table(), 100.0, &want);
                        }
                        ASSERT_TRUE(twin->sums(s, &got));
                        ++compared;
                        EXPECT_TRUE(got.num_log == want.num_log && got.den_log == want.den_log &&
                                    got.num_non_log == want.num_non_log &&
                                    got.den_non_log == want.den_non_log)
                            << w << "x" << h << " bpc " << bpc << " scale " << s << ": num_log "
                            << got.num_log << " / " << want.num_log << ", den_log " << got.den_log
                            << " / " << want.den_log;
                    }
                }
    ::testing::Test::RecordProperty("scales", std::to_string(compared));
}

TEST(CudaEmulation, VifDeviceSumsMatchTheHostAccumulate) {
    check_vif_sums(
        [](int w, int h, int bpc) { return std::make_unique<EmulatedVif>(w, h, bpc, 100.0); });
}

TEST(CudaEmulation, AdmStagesOnHostileBandsMatchTheScalarKernels) {
    check_adm_twins_on_bands(emulated_adm());
}

TEST(CudaEmulation, AdmSeedsPicturesMatchTheCpuScalar) {
    check_adm_twins_on_pictures(emulated_adm());
}

#if VMAFPP_HAVE_CUDA

// Whether device 0 exists; the reason otherwise (no driver, no device).
bool device_ready(std::string* why) {
    try {
        if (cuda::device_count() > 0) return true;
        *why = "no CUDA device";
    } catch (const Error& e) {
        *why = e.what();
    }
    return false;
}

#define VMAFPP_NEED_CUDA()                                             \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
    } while (0)

// The decouple kernel's gain product on the device against
// (int64_t)((double)rst * gain) on the host, on the seeds' sweep: every
// sample in [-300000, 300000] at 1.2, 1.5, 100, 1 and the neighbours of 1,
// and random limits in [1, 100) with random samples over the int32 range.
TEST(CudaDevice, GainProductMatchesTheHostDoubleProduct) {
    VMAFPP_NEED_CUDA();
    const std::uint64_t compared = check_gain_products(
        [](const std::int32_t* rst, std::size_t n, double gain, std::int64_t* out) {
            cuda::gain_products_on_device(0, rst, n, gain, out);
        });
    RecordProperty("pairs", std::to_string(compared));
}

TEST(CudaDevice, MotionSadMatchesTheScalarKernel) {
    VMAFPP_NEED_CUDA();
    check_motion_twins([](int w, int h, int bpc) { return cuda::make_motion_twin(0, w, h, bpc); });
}

TEST(CudaDevice, VifStatisticsAndReductionsMatchTheScalarKernels) {
    VMAFPP_NEED_CUDA();
    check_vif_twins([](int w, int h, int bpc) { return cuda::make_vif_twin(0, w, h, bpc); });
}

TEST(CudaDevice, VifDeviceSumsMatchTheHostAccumulate) {
    VMAFPP_NEED_CUDA();
    check_vif_sums([](int w, int h, int bpc) { return cuda::make_vif_twin(0, w, h, bpc, 100.0); });
}

AdmMaker cuda_adm() {
    return
        [](int w, int h, int bpc, const adm::AdmDeviceParams* p, double gain, bool skip0,
           bool skip_aim) { return cuda::make_adm_twin(0, w, h, bpc, p, gain, skip0, skip_aim); };
}

TEST(CudaDevice, AdmStagesOnHostileBandsMatchTheScalarKernels) {
    VMAFPP_NEED_CUDA();
    check_adm_twins_on_bands(cuda_adm());
}

TEST(CudaDevice, AdmSeedsPicturesMatchTheCpuScalar) {
    VMAFPP_NEED_CUDA();
    check_adm_twins_on_pictures(cuda_adm());
}

#else

TEST(CudaDevice, MotionSadMatchesTheScalarKernel) {
    GTEST_SKIP() << "skipped: this vmafpp was built without the CUDA backend";
}

#endif

}  // namespace
}  // namespace vmafpp
