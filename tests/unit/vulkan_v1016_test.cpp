// The v1.0.16 models entirely on Vulkan (--device_only: CAMBI, SpEED, ADM and
// motion all on the device): per corpus pair, one CLI run of the three
// models that have goldens (3d0h, hfr_3d0h, 3d0h_2160, named so that their
// keys differ) against every golden libvmaf made of them, and one run of
// -n --feature cambi --feature speed_chroma --feature speed_temporal and
// cambi_opts' cambi against features_other's cambi, features_speed and
// cambi_opts; every key bit for bit. The models without goldens (5d0h,
// 1d5h_2160, the other hfr variants) are compared with the CPU scalar's
// CLI run on the largest pairs. Skips without a Vulkan device.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/backend_run.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"

#if VMAFPP_HAVE_VULKAN
#include "vulkan/vk_context.hpp"
#endif

namespace vmafpp {
namespace {

using nlohmann::json;

#if VMAFPP_HAVE_VULKAN

bool device_ready(std::string* why) {
    try {
        const auto devices = vk::list_devices();
        if (devices.empty() || !devices[0].int64) {
            *why = devices.empty() ? "no Vulkan device" : "device 0 lacks shaderInt64";
            return false;
        }
        return true;
    } catch (const Error& e) {
        *why = e.what();
        return false;
    }
}

#define VMAFPP_NEED_DEVICE()                                           \
    do {                                                               \
        std::string why_;                                              \
        if (!device_ready(&why_)) GTEST_SKIP() << "skipped: " << why_; \
    } while (0)

struct ModelGolden {
    const char* version;
    const char* name;  // the run's name for it
};
const ModelGolden kModels[] = {
    {"vmaf_v1.0.16_3d0h", "m3d0h"},
    {"vmaf_v1.0.16_hfr_3d0h", "mhfr"},
    {"vmaf_v1.0.16_3d0h_2160", "m2160"},
};

// `want` with only the keys whose name starts with `prefix` (frames and pooled).
json only_keys(const json& want, const std::string& prefix) {
    json out = want;
    for (auto& frame : out["frames"]) {
        json m = json::object();
        for (const auto& [k, v] : frame["metrics"].items())
            if (k.rfind(prefix, 0) == 0) m[k] = v;
        frame["metrics"] = m;
    }
    json pooled = json::object();
    for (const auto& [k, v] : want["pooled_metrics"].items())
        if (k.rfind(prefix, 0) == 0) pooled[k] = v;
    out["pooled_metrics"] = pooled;
    return out;
}

class VulkanV1016 : public ::testing::TestWithParam<std::string> {};

TEST_P(VulkanV1016, ModelGoldensFromOneDeviceOnlyRun) {
    VMAFPP_NEED_DEVICE();
    const std::string& pair = GetParam();
    std::string args = "--backend vulkan --device_only --threads 2";
    int files = 0;
    for (const ModelGolden& m : kModels)
        if (test::has_golden(pair, std::string("model_") + m.version + ".json")) {
            args += std::string(" -m version=") + m.version + ":name=" + m.name;
            ++files;
        }
    if (!files) GTEST_SKIP() << "no v1.0.16 model golden for this pair";
    const json got = test::cli_json(pair, args, "vulkan.v1016");
    int compared = 0;
    for (const ModelGolden& m : kModels) {
        const std::string file = std::string("model_") + m.version + ".json";
        if (!test::has_golden(pair, file)) continue;
        compared += test::expect_same_json_values(
            got, test::with_model_named(test::golden(pair, file), m.name), pair + " " + file);
    }
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(compared, 10);
}

TEST_P(VulkanV1016, CambiAndSpeedFeatureGoldensOnTheDevice) {
    VMAFPP_NEED_DEVICE();
    const std::string& pair = GetParam();
    // The goldens to compare, and the keys of each (a golden of a feature
    // libvmaf cannot score on the pair has no frames).
    std::vector<std::pair<json, std::string>> wanted;
    for (const auto& [file, prefix] : {std::pair<const char*, const char*>{"features_speed.json", ""},
                                       {"features_other.json", "cambi"},
                                       {"cambi_opts.json", ""}}) {
        if (!test::has_golden(pair, file)) continue;
        json want = test::golden(pair, file);
        if (*prefix) want = only_keys(want, prefix);
        if (want["frames"].empty() || want["frames"][0]["metrics"].empty()) continue;
        wanted.emplace_back(want, file);
    }
    if (wanted.empty()) GTEST_SKIP() << "neither CAMBI nor SpEED scores this pair";
    const json got = test::cli_json(
        pair,
        "--backend vulkan --device_only --threads 2 -n --feature cambi --feature speed_chroma "
        "--feature speed_temporal --feature cambi=full_ref=true:topk=0.2:window_size=45:"
        "tvi_threshold=0.012:max_log_contrast=3",
        "vulkan.cambi_speed");
    int compared = 0;
    for (const auto& [want, file] : wanted)
        compared += test::expect_same_json_values(got, want, pair + " " + file);
    RecordProperty("values", std::to_string(compared));
    EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, VulkanV1016, ::testing::ValuesIn(test::target_pairs()),
                         [](const auto& info) { return info.param; });

// Every v1.0.16 model (those without goldens too) on the device equals the
// CPU scalar's run of the CLI, every key, on a 4:2:0 8-bit and a 4:4:4
// 10-bit pair.
TEST(VulkanV1016Models, EveryModelEqualsTheCpuScalar) {
    VMAFPP_NEED_DEVICE();
    std::string models;
    int n = 0;
    for (const char* v : {"3d0h", "5d0h", "1d5h_2160", "3d0h_2160", "hfr_3d0h", "hfr_5d0h",
                          "hfr_1d5h_2160", "hfr_3d0h_2160"})
        models += std::string(" -m version=vmaf_v1.0.16_") + v + ":name=m" + std::to_string(n++);
    int compared = 0;
    for (const char* pair : {"p01_astronaut_576x324_420p8_x264crf23", "p13_moon_352x288_444p10_x264crf30"}) {
        const json cpu = test::cli_json(pair, "--cpumask 4294967295 --threads 2" + models, "v1016.cpu");
        const json dev = test::cli_json(pair, "--backend vulkan --device_only --threads 2" + models,
                                        "v1016.vulkan");
        compared += test::expect_same_json_values(dev, cpu, std::string(pair) + " all models", true);
    }
    EXPECT_GT(compared, 100);
}

// CAMBI's heat maps (written on the host from the device's c-values) are
// the CPU scalar's, byte for byte, at every scale.
TEST(VulkanCambiHeatmaps, EqualTheCpuScalarsFiles) {
    VMAFPP_NEED_DEVICE();
    const std::string pair = "p01_astronaut_576x324_420p8_x264crf23";
    const auto cpu_dir = test::work_dir() / "heatmaps_cpu", dev_dir = test::work_dir() / "heatmaps_vulkan";
    std::filesystem::remove_all(cpu_dir);
    std::filesystem::remove_all(dev_dir);
    const std::string io = " -r '" + test::clip(pair, "ref").string() + "' -d '" +
                           test::clip(pair, "dis").string() + "' -q -n --frame_cnt 3 -o /dev/null";
    std::string log;
    ASSERT_EQ(test::run_command(std::string(VMAFPP_CLI) + " --cpumask 4294967295 --feature cambi=heatmaps_path=" +
                                    cpu_dir.string() + io, &log), 0) << log;
    ASSERT_EQ(test::run_command(std::string(VMAFPP_CLI) + " --backend vulkan --device_only "
                                "--feature cambi=heatmaps_path=" + dev_dir.string() + io, &log), 0) << log;
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(cpu_dir)) {
        const auto read = [](const std::filesystem::path& p) {
            std::ifstream in(p, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const std::string a = read(e.path()), b = read(dev_dir / e.path().filename());
        EXPECT_FALSE(a.empty()) << e.path();
        EXPECT_TRUE(a == b) << e.path().filename() << " differs on the device";
        ++files;
    }
    EXPECT_EQ(files, 5);
}

#endif

}  // namespace
}  // namespace vmafpp
