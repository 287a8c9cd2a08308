// SIMD dispatch: which kernel tables run, and that every level scores
// exactly like the scalar code, end to end.
//
// - The level comes from a session's cpumask (--cpumask,
//   ScoreConfig::compute) and the VMAFPP_CPUMASK environment variable, and
//   the tables the extractors pick follow it; `vmafpp --version` names it.
// - For every corpus pair, the CLI's JSON at --cpumask 4294967295 (scalar),
//   --cpumask 48 (AVX-512 off: AVX2 at most), --cpumask 32 (AVX-512 without
//   the ICL level, on a CPU that has ICL) and the default (the best level
//   the CPU has) are identical at
//   --precision max, for every registered feature (-n), and for the default
//   model when every feature it needs is registered.
// - A width scan: generated pictures of every width 16..260 (every residue of
//   every vector length, every tail) with hostile content, scored in-process
//   by every registered extractor at each level, values compared bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "motion/motion_kernels.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vif/vif_kernels.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/cpu.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/reader.hpp"

// tests/CMakeLists.txt: the emulator of a cross build ("" natively).
#ifndef VMAFPP_TEST_EMULATOR
#define VMAFPP_TEST_EMULATOR ""
#endif

namespace vmafpp {
namespace {

using nlohmann::json;

constexpr unsigned kScalarMask = 4294967295u;
constexpr unsigned kAvx2Mask = 48u;    // AVX-512 and AVX-512 ICL off
constexpr unsigned kAvx512Mask = 32u;  // AVX-512 ICL off

[[maybe_unused]] bool machine_has_avx2() { return (detected_cpu_flags() & kCpuAvx2) != 0; }
bool machine_has_avx512() {
    return (detected_cpu_flags() & (kCpuAvx2 | kCpuAvx512)) == (kCpuAvx2 | kCpuAvx512);
}
bool machine_has_avx512icl() {
    return machine_has_avx512() && (detected_cpu_flags() & kCpuAvx512Icl) != 0;
}
// The one mask bit that leaves the scalar code: AVX2's on x86-64 (it turns
// every level above off), NEON's on AArch64.
#if VMAFPP_ARM_KERNELS
constexpr unsigned kNoSimdBit = kCpuNeon;
#else
constexpr unsigned kNoSimdBit = kCpuAvx2;
#endif
const std::string kNoSimdEnv = "VMAFPP_CPUMASK=" + std::to_string(kNoSimdBit) + " ";
// Whether this CPU (as VMAFPP_CPUMASK shows it) has a level above scalar:
// AVX2 on x86-64, NEON on AArch64.
bool machine_has_simd() {
#if VMAFPP_ARM_KERNELS
    return (detected_cpu_flags() & kCpuNeon) != 0;
#else
    return machine_has_avx2();
#endif
}
// A comparison of levels on a CPU without a SIMD level would compare the
// scalar code with itself: such a test skips, naming the level it needs.
#define VMAFPP_SKIP_WITHOUT_AVX2()                                                 \
    do {                                                                           \
        if (!machine_has_simd())                                                   \
            GTEST_SKIP() << "needs AVX2 (NEON on AArch64): every level here is the scalar code"; \
    } while (0)

// What the default dispatch must pick on this machine.
SimdLevel best_level_here() {
#if VMAFPP_X86_KERNELS
    if (machine_has_avx512icl()) return SimdLevel::avx512icl;
    if (machine_has_avx512()) return SimdLevel::avx512;
    if (machine_has_avx2()) return SimdLevel::avx2;
#elif VMAFPP_ARM_KERNELS
    if (detected_cpu_flags() & kCpuNeon) return SimdLevel::neon;
#endif
    return SimdLevel::scalar;
}

TEST(SimdDispatch, CpuMaskSelectsTheLevel) {
    // A mask the process started with hides its levels from the detection.
    if (const char* at_start = std::getenv("VMAFPP_CPUMASK")) {
        EXPECT_EQ(detected_cpu_flags() & static_cast<unsigned>(std::strtoul(at_start, nullptr, 0)), 0u)
            << "VMAFPP_CPUMASK=" << at_start;
    }
    EXPECT_EQ(simd_level(kScalarMask), SimdLevel::scalar);
    EXPECT_STREQ(simd_level_name(simd_level(kScalarMask)), "scalar");
    EXPECT_EQ(simd_level(0), best_level_here());
    EXPECT_EQ(Compute::best_cpu().simd, best_level_here());
#if VMAFPP_ARM_KERNELS
    // AArch64's bit 0 is NEON (libvmaf's arm/cpu.h): masking it is the
    // scalar code; x86's bits mean nothing here.
    EXPECT_EQ(simd_level(kCpuNeon), SimdLevel::scalar);
    EXPECT_EQ(simd_level(kAvx2Mask), best_level_here());
    if (best_level_here() == SimdLevel::neon) {
        EXPECT_STREQ(simd_level_name(simd_level(0)), "neon");
    }
#else
    // Masking AVX2 alone (bit 3) is enough for scalar, and turns AVX-512 off
    // too, even with bit 4 clear.
    EXPECT_EQ(simd_level(kCpuAvx2), SimdLevel::scalar);
    EXPECT_EQ(simd_level(kCpuAvx2 | kCpuSse2), SimdLevel::scalar);
    EXPECT_EQ(simd_level(kAvx2Mask), machine_has_avx2() ? SimdLevel::avx2 : SimdLevel::scalar);
    EXPECT_EQ(simd_level(kCpuAvx512), machine_has_avx2() ? SimdLevel::avx2 : SimdLevel::scalar);
#endif
#if VMAFPP_X86_KERNELS
    if (machine_has_avx512())
        EXPECT_EQ(simd_level(kAvx512Mask), SimdLevel::avx512);
    else
        GTEST_LOG_(INFO) << "this machine has no AVX-512: the avx512 level is not checked";
    if (machine_has_avx512icl()) {
        EXPECT_STREQ(simd_level_name(simd_level(0)), "avx512icl");
        // Masking AVX-512 (bit 4) turns the ICL level off too.
        EXPECT_EQ(simd_level(kCpuAvx512), SimdLevel::avx2);
    } else {
        GTEST_LOG_(INFO) << "this machine has no AVX-512 ICL: the avx512icl level is not checked";
    }
#endif
}

// The ladder: the scalar level is the scalar table; each level above starts
// from the level below and replaces only its own twins, where this CPU (as
// VMAFPP_CPUMASK shows it) has the level; a level it lacks is the level
// below's table, as on a smaller CPU.
TEST(SimdDispatch, TablesClimbTheLadder) {
    const vif::VifKernels& vs = vif::vif_kernels_for(SimdLevel::scalar);
    EXPECT_EQ(vs.stat_row_u8, vif::vif_kernels_scalar().stat_row_u8);
    EXPECT_EQ(vs.accumulate, vif::vif_kernels_scalar().accumulate);
    EXPECT_EQ(motion::motion_kernels_for(SimdLevel::scalar).sad_u8,
              motion::motion_kernels_scalar().sad_u8);
#if VMAFPP_X86_KERNELS
    const vif::VifKernels& v2 = vif::vif_kernels_for(SimdLevel::avx2);
    const vif::VifKernels& v5 = vif::vif_kernels_for(SimdLevel::avx512);
    const vif::VifKernels& vi = vif::vif_kernels_for(SimdLevel::avx512icl);
    // Each of these levels has a VIF statistics twin of its own.
    const auto climbs = [](bool has_level, auto above, auto below, const char* what) {
        if (has_level)
            EXPECT_NE(above, below) << what << ": the level's own twin";
        else
            EXPECT_EQ(above, below) << what << ": the level below's, the CPU lacks the level";
    };
    climbs(machine_has_avx2(), v2.stat_row_u8, vs.stat_row_u8, "avx2 stat_row_u8");
    climbs(machine_has_avx512(), v5.stat_row_u8, v2.stat_row_u8, "avx512 stat_row_u8");
    climbs(machine_has_avx512icl(), vi.stat_row_u8, v5.stat_row_u8, "avx512icl stat_row_u8");
    EXPECT_EQ(vi.accumulate, v5.accumulate);  // no ICL twin: inherited
    EXPECT_EQ(vi.subsample_vertical_u16, v5.subsample_vertical_u16);
    // The reduction's horizontal pass has a VNNI build (vif_stats_avx512.cpp).
    climbs(machine_has_avx512icl(), vi.subsample_horizontal, v5.subsample_horizontal,
           "avx512icl subsample_horizontal");
    const auto& m5 = motion::motion_kernels_for(SimdLevel::avx512);
    climbs(machine_has_avx2(), motion::motion_kernels_for(SimdLevel::avx2).sad_u8,
           motion::motion_kernels_scalar().sad_u8, "avx2 sad_u8");
    EXPECT_EQ(motion::motion_kernels_for(SimdLevel::avx512icl).sad_u8, m5.sad_u8);
#elif VMAFPP_ARM_KERNELS
    // NEON starts from the scalar table: its own twins where the CPU has it.
    const bool neon = (detected_cpu_flags() & kCpuNeon) != 0;
    const vif::VifKernels& vn = vif::vif_kernels_for(SimdLevel::neon);
    EXPECT_EQ(vn.stat_row_u8 != vs.stat_row_u8, neon) << "neon stat_row_u8";
    EXPECT_EQ(vn.accumulate, vs.accumulate);  // no NEON twin: the scalar's
    EXPECT_EQ(motion::motion_kernels_for(SimdLevel::neon).sad_u8 !=
                  motion::motion_kernels_scalar().sad_u8,
              neon)
        << "neon sad_u8";
#endif
}

// A mask set while the process runs lowers the level; the one it started
// with (the smaller CPU a masked run emulates) is put back, for the CLI runs
// of later tests.
TEST(SimdDispatch, EnvironmentMaskSelectsScalar) {
    const char* at_start = std::getenv("VMAFPP_CPUMASK");
    const std::string saved = at_start ? at_start : "";
    ASSERT_EQ(setenv("VMAFPP_CPUMASK", std::to_string(kNoSimdBit).c_str(), 1), 0);
    EXPECT_EQ(simd_level(), SimdLevel::scalar);
    EXPECT_EQ(Compute::best_cpu().simd, SimdLevel::scalar);
    ASSERT_EQ(at_start ? setenv("VMAFPP_CPUMASK", saved.c_str(), 1) : unsetenv("VMAFPP_CPUMASK"), 0);
    EXPECT_EQ(simd_level(), best_level_here());
}

// VMAFPP_CPUMASK at start makes the whole process a smaller CPU: the
// detection itself hides the masked levels (CpuMaskSelectsTheLevel checks
// that in the child) and the kernel tables follow it (TablesClimbTheLadder).
TEST(SimdDispatch, EnvironmentMaskAtStartIsASmallerCpu) {
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
#if VMAFPP_ARM_KERNELS
    const char* const masks[] = {"1", "4294967295"};
#else
    const char* const masks[] = {"16", "48", "8", "4294967295"};
#endif
    for (const char* mask : masks) {
        const std::string cmd = std::string("VMAFPP_CPUMASK=") + mask + " " + VMAFPP_TEST_EMULATOR +
                                " '" + self + "' --gtest_brief=1 --gtest_filter=SimdDispatch.CpuMaskSelectsTheLevel:"
                                "SimdDispatch.TablesClimbTheLadder 2>&1";
        std::string out;
        EXPECT_EQ(test::run_command(cmd, &out), 0) << cmd << "\n" << out;
    }
}

std::string version_line(const std::string& prefix, const std::string& args) {
    std::string out;
    const int rc = test::run_command(prefix + std::string(VMAFPP_CLI) + " --version " + args, &out);
    EXPECT_EQ(rc, 0) << out;
    return out;
}

TEST(SimdDispatch, VersionNamesTheLevelThatRuns) {
    EXPECT_NE(version_line("", "--cpumask 4294967295").find("(SIMD: scalar)"), std::string::npos);
    EXPECT_NE(version_line(kNoSimdEnv, "").find("(SIMD: scalar)"), std::string::npos);
    const std::string best = std::string("(SIMD: ") + simd_level_name(best_level_here()) + ")";
    EXPECT_NE(version_line("", "").find(best), std::string::npos);
#if !VMAFPP_ARM_KERNELS
    const std::string avx2 = machine_has_avx2() ? "(SIMD: avx2)" : "(SIMD: scalar)";
    EXPECT_NE(version_line("", "--cpumask 48").find(avx2), std::string::npos);
#else
    EXPECT_NE(version_line("", "--cpumask 1").find("(SIMD: scalar)"), std::string::npos);
#endif
    if (machine_has_avx512icl()) {
        EXPECT_NE(version_line("", "--cpumask 32").find("(SIMD: avx512)"), std::string::npos);
    }
}

// ---------------------------------------------------------------------------
// Corpus, through the CLI.

// --feature for every registered extractor that scores the geometry of the
// clip at `ref` with default options (float_ms_ssim, for one, needs 176x176
// as in libvmaf): a level comparison needs a run that scores.
std::string all_feature_args(const std::string& ref) {
    const VideoInfo info = open_video(ref)->info();
    const FrameGeometry g{info.width, info.height, info.bpc, info.format};
    std::string args;
    for (const auto& f : feature_registry()) {
        try {
            (void)f.create(OptionValues(f.options), g);
        } catch (const Error&) {
            continue;
        }
        args += " --feature " + f.name;
    }
    return args;
}

struct CliRun {
    int rc = -1;
    std::string log;
    json out;
};

CliRun run_cli(const std::string& ref, const std::string& dis, const std::string& args,
               const std::string& tag) {
    CliRun r;
    const auto path = test::work_dir() / ("simd." + tag + ".json");
    std::filesystem::remove(path);
    const std::string cmd = std::string(VMAFPP_CLI) + " -r '" + ref + "' -d '" + dis +
                            "' -q --json --precision max -o '" + path.string() + "' " + args;
    r.rc = test::run_command(cmd, &r.log);
    r.log = cmd + "\n" + r.log;
    if (r.rc != 0) return r;
    std::ifstream in(path);
    if (!in) {
        r.rc = -1;
        r.log += "\n(no output file)";
        return r;
    }
    r.out = json::parse(in);
    // The only field that may differ between runs.
    r.out.erase("fps");
    return r;
}

// The dispatch levels give the same JSON (or the same refusal). Returns
// whether they scored.
bool expect_levels_agree(const std::string& ref, const std::string& dis, const std::string& args,
                         const std::string& tag, bool must_succeed) {
    const CliRun scalar = run_cli(ref, dis, args + " --cpumask 4294967295", tag + ".scalar");
    const CliRun avx2 = run_cli(ref, dis, args + " --cpumask 48", tag + ".avx2");
    const CliRun best = run_cli(ref, dis, args, tag + ".default");
    if (machine_has_avx512icl()) {
        // The default is the ICL level here: AVX-512 alone needs its own run.
        const CliRun avx512 = run_cli(ref, dis, args + " --cpumask 32", tag + ".avx512");
        EXPECT_EQ(avx512.rc, scalar.rc) << avx512.log;
        if (avx512.rc == 0 && scalar.rc == 0) {
            EXPECT_TRUE(avx512.out == scalar.out) << tag << ": --cpumask 32 differs from scalar";
        }
    }
    if (must_succeed) {
        EXPECT_EQ(scalar.rc, 0) << scalar.log;
    }
    EXPECT_EQ(avx2.rc, scalar.rc) << avx2.log;
    EXPECT_EQ(best.rc, scalar.rc) << best.log;
    if (scalar.rc != 0 || avx2.rc != 0 || best.rc != 0) return false;
    EXPECT_GT(scalar.out["frames"].size(), 0u) << scalar.log;
    // json equality compares the doubles exactly (%.17g round-trips).
    EXPECT_TRUE(avx2.out == scalar.out) << tag << ": --cpumask 48 differs from scalar";
    EXPECT_TRUE(best.out == scalar.out) << tag << ": default dispatch differs from scalar";
    return true;
}

bool is_target(const std::string& pair) { return pair.rfind("p21_", 0) != 0; }

class SimdCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(SimdCorpus, EveryLevelGivesTheSameJson) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    const std::string pair = GetParam();
    const std::string ref = test::clip(pair, "ref").string();
    const std::string dis = test::clip(pair, "dis").string();
    // p21 (18x18) is not a target: a registered extractor may refuse it, but
    // then at every level alike.
    expect_levels_agree(ref, dis, "-n" + all_feature_args(ref), pair + ".features", is_target(pair));
}

TEST_P(SimdCorpus, DefaultModelWhenItsFeaturesAreRegistered) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    const std::string pair = GetParam();
    const CliRun probe = run_cli(test::clip(pair, "ref").string(), test::clip(pair, "dis").string(),
                                 "--cpumask 4294967295 --frame_cnt 1", pair + ".probe");
    if (probe.rc != 0 && probe.log.find("no feature extractor provides") != std::string::npos)
        GTEST_SKIP() << "the default model needs an extractor not registered yet: " << probe.log;
    expect_levels_agree(test::clip(pair, "ref").string(), test::clip(pair, "dis").string(), "",
                        pair + ".model", is_target(pair));
}

INSTANTIATE_TEST_SUITE_P(Corpus, SimdCorpus, ::testing::ValuesIn(test::corpus_pairs()),
                         [](const auto& info) { return info.param.substr(0, 3); });

// ---------------------------------------------------------------------------
// Width scan, in process.

// Content meant to reach every path: a textured, moving reference with
// saturated patches, alternating columns and flat areas; the distorted
// picture is the reference with noise, a brightness shift and dropped detail.
Picture generated(int w, int h, int bpc, int frame, bool distorted, std::uint32_t seed) {
    Picture p(w, h, bpc, PixelFormat::yuv420);
    const int top = (1 << bpc) - 1;
    std::mt19937 rng(seed * 7919u + static_cast<unsigned>(frame) * 31u + (distorted ? 1u : 0u));
    std::uniform_int_distribution<int> noise(-(top / 16), top / 16);
    for (int pl = 0; pl < p.plane_count(); ++pl) {
        Plane& plane = p.planes[pl];
        for (int y = 0; y < plane.height(); ++y)
            for (int x = 0; x < plane.width(); ++x) {
                const int xs = x + 3 * frame;
                int v = ((xs * 37 + y * 11) % 256) * top / 255;
                if ((xs / 9 + y / 7) % 5 == 0) v = top;                  // saturated patch
                else if ((xs / 13 + y / 5) % 7 == 0) v = 0;              // black patch
                else if ((y / 4) % 6 == 1) v = (xs & 1) ? top : 0;       // alternating columns
                if (distorted) {
                    v += noise(rng);
                    if (frame % 2 == 1) v = v / 2 + top / 4;             // contrast loss
                    if ((x / 17 + y / 3) % 4 == 0) v = top / 2;          // dropped detail
                }
                v = std::clamp(v, 0, top);
                if (bpc == 8)
                    plane.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    plane.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

struct FeatureValues {
    bool refused = false;
    std::string error;
    std::map<std::string, std::map<unsigned, double>> values;
};

// Every registered extractor (debug on where it has the option, for the
// extra keys) over `frames` generated frame pairs.
std::map<std::string, FeatureValues> score_all(int w, int h, int bpc, int frames, unsigned cpumask) {
    ComputeConfig config;
    config.cpumask = cpumask;
    const Compute compute = resolve_compute(config);
    std::vector<Picture> ref, dis;
    for (int f = 0; f < frames; ++f) {
        ref.push_back(generated(w, h, bpc, f, false, static_cast<std::uint32_t>(w * 16 + bpc)));
        dis.push_back(generated(w, h, bpc, f, true, static_cast<std::uint32_t>(w * 16 + bpc)));
    }
    std::map<std::string, FeatureValues> out;
    for (const auto& info : feature_registry()) {
        FeatureValues& fv = out[info.name];
        OptionValues opts(info.options);
        for (const auto& spec : info.options)
            if (spec.name == "debug") opts.set("debug", "true");
        test::RecordingSink sink;
        try {
            auto fex = info.create(opts, FrameGeometry{w, h, bpc, PixelFormat::yuv420}, compute);
            for (int f = 0; f < frames; ++f) fex->extract(ref[f], dis[f], static_cast<unsigned>(f), sink);
            fex->flush(sink);
        } catch (const Error& e) {
            fv.refused = true;
            fv.error = e.what();
            continue;
        }
        fv.values = std::move(sink.values);
    }
    return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same(const std::map<std::string, FeatureValues>& want,
                 const std::map<std::string, FeatureValues>& got, const std::string& what) {
    for (const auto& [feature, fv] : want) {
        const FeatureValues& g = got.at(feature);
        ASSERT_EQ(g.refused, fv.refused) << what << " " << feature << ": " << fv.error << g.error;
        ASSERT_EQ(g.values.size(), fv.values.size()) << what << " " << feature;
        for (const auto& [key, frames] : fv.values) {
            ASSERT_TRUE(g.values.count(key)) << what << " lacks " << key;
            for (const auto& [n, v] : frames) {
                const double gv = g.values.at(key).at(n);
                ASSERT_TRUE(same_bits(gv, v)) << what << " " << key << " frame " << n << ": scalar "
                                              << v << ", got " << gv;
            }
        }
    }
}

void width_scan(int bpc, int h, int first, int last, int frames) {
    int scored = 0;
    for (int w = first; w <= last; ++w) {
        const auto scalar = score_all(w, h, bpc, frames, kScalarMask);
        const auto avx2 = score_all(w, h, bpc, frames, kAvx2Mask);
        const auto best = score_all(w, h, bpc, frames, 0);
        const std::string what = std::to_string(w) + "x" + std::to_string(h) + " " +
                                 std::to_string(bpc) + "-bit";
        if (machine_has_avx512icl())
            expect_same(scalar, score_all(w, h, bpc, frames, kAvx512Mask), what + " --cpumask 32");
        expect_same(scalar, avx2, what + " --cpumask 48");
        expect_same(scalar, best, what + " default");
        if (::testing::Test::HasFatalFailure()) return;
        for (const auto& [name, fv] : scalar) scored += fv.refused ? 0 : 1;
    }
    // The scan means something only if extractors accepted these sizes.
    EXPECT_GT(scored, 0);
}

TEST(SimdWidthScan, EightBitEveryWidth16To260) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    width_scan(8, 36, 16, 260, 3);
}
TEST(SimdWidthScan, TenBitEveryWidth16To260) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    width_scan(10, 20, 16, 260, 2);
}
TEST(SimdWidthScan, TwelveAndSixteenBitWidths16To80) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    width_scan(12, 17, 16, 80, 2);
    width_scan(16, 17, 16, 80, 2);
}

// ---------------------------------------------------------------------------
// Width scan through the CLI (Y4M files): a sample of widths here, every
// width in the "slow" variant (ctest -L slow; it runs SimdWidthScanCli.*).

void write_y4m(const std::string& path, int w, int h, int bpc, int frames, bool distorted) {
    std::ofstream out(path, std::ios::binary);
    out << "YUV4MPEG2 W" << w << " H" << h << " F25:1 Ip A1:1 "
        << (bpc == 8 ? std::string("C420jpeg") : "C420p" + std::to_string(bpc)) << "\n";
    for (int f = 0; f < frames; ++f) {
        const Picture p = generated(w, h, bpc, f, distorted, static_cast<std::uint32_t>(w * 16 + bpc));
        out << "FRAME\n";
        // Y4M chroma is ceil-sized; our planes are floor-sized: repeat the last sample.
        for (int pl = 0; pl < 3; ++pl) {
            const int pw = pl == 0 ? w : (w + 1) / 2, ph = pl == 0 ? h : (h + 1) / 2;
            const Plane& plane = p.planes[pl];
            for (int y = 0; y < ph; ++y)
                for (int x = 0; x < pw; ++x) {
                    const int sx = std::min(x, plane.width() - 1), sy = std::min(y, plane.height() - 1);
                    if (bpc == 8) {
                        out.put(static_cast<char>(plane.row<std::uint8_t>(sy)[sx]));
                    } else {
                        const std::uint16_t v = plane.row<std::uint16_t>(sy)[sx];
                        out.put(static_cast<char>(v & 0xff));
                        out.put(static_cast<char>(v >> 8));
                    }
                }
        }
    }
}

void cli_width_scan(int bpc, int h, const std::vector<int>& widths) {
    const auto dir = test::work_dir() / "simd_widths";
    std::filesystem::create_directories(dir);
    // A registered extractor may refuse the narrowest widths (e.g. ADM below
    // its minimum), at every level alike; most widths must score.
    int scored = 0;
    for (int w : widths) {
        const std::string tag = std::to_string(w) + "x" + std::to_string(h) + "p" + std::to_string(bpc);
        const std::string ref = (dir / (tag + "_ref.y4m")).string();
        const std::string dis = (dir / (tag + "_dis.y4m")).string();
        write_y4m(ref, w, h, bpc, 3, false);
        write_y4m(dis, w, h, bpc, 3, true);
        scored += expect_levels_agree(ref, dis, "-n" + all_feature_args(ref), "width." + tag, false) ? 1 : 0;
    }
    EXPECT_GE(scored, static_cast<int>(widths.size()) - 2);
}

std::vector<int> sampled_widths() {
    // Around every multiple of 8, 16 and 32 up to 80, then a few wide ones.
    std::vector<int> w;
    for (int base : {16, 32, 48, 64, 80})
        for (int d : {-1, 0, 1, 7}) w.push_back(base + d);
    for (int x : {131, 255, 256, 257, 260}) w.push_back(x);
    std::erase_if(w, [](int x) { return x < 16; });
    return w;
}

std::vector<int> all_widths() {
    std::vector<int> w;
    for (int x = 16; x <= 260; ++x) w.push_back(x);
    return w;
}

bool long_run() { return std::getenv("VMAFPP_SLOW_TESTS") != nullptr; }

TEST(SimdWidthScanCli, EightBit) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    cli_width_scan(8, 36, long_run() ? all_widths() : sampled_widths());
}
TEST(SimdWidthScanCli, TenBit) {
    VMAFPP_SKIP_WITHOUT_AVX2();
    cli_width_scan(10, 20, long_run() ? all_widths() : sampled_widths());
}

}  // namespace
}  // namespace vmafpp
