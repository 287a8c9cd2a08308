// What the golden tests of every backend share: the CLI's JSON for a corpus
// pair, every value of a golden compared bit for bit, and one extractor run
// on the CPU scalar and on a device over the same noise frames.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "device/backend.hpp"
#include "support/corpus.hpp"
#include "support/feature_run.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::test {

// The CLI's --json --precision max output for `pair` with `args`, written
// to the work folder under `tag`; an empty object (and a failure) when the
// run fails.
inline nlohmann::json cli_json(const std::string& pair, const std::string& args,
                               const std::string& tag) {
    const auto out = work_dir() / (pair + "." + tag + ".json");
    const std::string cmd = std::string(VMAFPP_CLI) + " -r '" + clip(pair, "ref").string() +
                            "' -d '" + clip(pair, "dis").string() +
                            "' -q --json --precision max -o '" + out.string() + "' " + args;
    std::string log;
    const int rc = run_command(cmd, &log);
    EXPECT_EQ(rc, 0) << cmd << "\n" << log;
    std::ifstream in(out);
    if (rc != 0 || !in) {
        ADD_FAILURE() << "no output from " << cmd << "\n" << log;
        return nlohmann::json::object();
    }
    return nlohmann::json::parse(in);
}

// Every per-frame and pooled value of `want` in `got`, bit for bit (the
// goldens print %.17g, which round-trips; null stays null); with
// `same_key_count`, also no key in a frame of `got` that `want` lacks.
// Returns how many values were compared.
inline int expect_same_json_values(const nlohmann::json& got, const nlohmann::json& want,
                                   const std::string& what, bool same_key_count = false) {
    int compared = 0;
    EXPECT_TRUE(got.contains("frames")) << what;
    if (!got.contains("frames")) return 0;
    EXPECT_EQ(got["frames"].size(), want["frames"].size()) << what;
    if (got["frames"].size() != want["frames"].size()) return 0;
    for (std::size_t i = 0; i < want["frames"].size(); ++i) {
        const nlohmann::json& w = want["frames"][i]["metrics"];
        const nlohmann::json& g = got["frames"][i]["metrics"];
        if (same_key_count) {
            EXPECT_EQ(g.size(), w.size()) << what << " frame " << i;
        }
        for (const auto& [key, value] : w.items()) {
            if (!g.contains(key)) {
                ADD_FAILURE() << what << " frame " << i << " lacks " << key;
                continue;
            }
            ++compared;
            if (value.is_null())
                EXPECT_TRUE(g[key].is_null()) << what << " frame " << i << " " << key;
            else
                EXPECT_EQ(g[key].get<double>(), value.get<double>())
                    << what << " frame " << i << " " << key;
        }
    }
    for (const auto& [key, pooled] : want["pooled_metrics"].items())
        for (const auto& [method, value] : pooled.items()) {
            if (value.is_null()) continue;
            if (!got["pooled_metrics"].contains(key)) {
                ADD_FAILURE() << what << " lacks pooled " << key;
                break;
            }
            ++compared;
            EXPECT_EQ(got["pooled_metrics"][key][method].get<double>(), value.get<double>())
                << what << " pooled " << key << " " << method;
        }
    return compared;
}

// `want` with a model's keys renamed for a run that names the model
// `name` (`-m version=...:name=<name>`): "vmaf" becomes `name` and every
// "vmaf_<x>" (a bootstrap model's vmaf_0001, vmaf_bagging, ...) `name`_<x>,
// in the frames and the pooled metrics; feature keys keep their names.
inline nlohmann::json with_model_named(const nlohmann::json& want, const std::string& name) {
    const auto renamed = [&](const std::string& key) {
        if (key == "vmaf") return name;
        if (key.rfind("vmaf_", 0) == 0) return name + key.substr(4);
        return key;
    };
    const auto rename_keys = [&](const nlohmann::json& in) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [key, value] : in.items()) out[renamed(key)] = value;
        return out;
    };
    nlohmann::json out = want;
    for (auto& frame : out["frames"]) frame["metrics"] = rename_keys(frame["metrics"]);
    out["pooled_metrics"] = rename_keys(want["pooled_metrics"]);
    return out;
}

// `feature` with `opts` over `frames` noise frame pairs (reference seed
// ref_seed(f), distorted seed dis_seed(f)), once with the CPU scalar
// kernels into `cpu` and once on device 0 of `backend` into `device`.
// `store_slots` 0: the device extractor's twins are handed the pictures;
// N: they read them from a session frame store of N slots
// (device::make_frame_store) that each frame is put into first, as the
// frame pipeline does (3 holds motion's five-frame window).
template <class RefSeed, class DisSeed>
void run_scalar_and_device(Backend backend, const FeatureInfo& info, const OptionValues& opts,
                           const FrameGeometry& geo, unsigned frames, RefSeed ref_seed,
                           DisSeed dis_seed, RecordingSink& cpu, RecordingSink& device,
                           unsigned store_slots = 0) {
    Compute on_cpu;
    on_cpu.simd = SimdLevel::scalar;
    Compute on_device = on_cpu;
    on_device.backend = backend;
    if (store_slots) {
        on_device.frames = device::make_frame_store(on_device, geo, store_slots);
        EXPECT_TRUE(on_device.frames) << "no frame store on " << backend_name(backend);
    }
    auto a = info.create(opts, geo, on_cpu);
    auto b = info.create(opts, geo, on_device);
    for (unsigned f = 0; f < frames; ++f) {
        const Picture r = noise_picture(geo.width, geo.height, geo.bpc, geo.format, ref_seed(f));
        const Picture d = noise_picture(geo.width, geo.height, geo.bpc, geo.format, dis_seed(f));
        a->extract(r, d, f, cpu);
        if (on_device.frames) on_device.frames->put(f, r, d);
        b->extract(r, d, f, device);
    }
    a->flush(cpu);
    b->flush(device);
}

// Two noise frames of w x h 4:2:0 at `bpc` through `feature` (debug keys
// on, ADM's gain limit `gain` if given) on the CPU scalar and on `backend`
// (through a frame store of `store_slots` slots if not 0):
// every value equal; stops at the first difference. Returns how many values
// were compared.
inline int expect_device_equals_cpu(Backend backend, const std::string& feature, int w, int h,
                                    int bpc, const std::string& gain = "",
                                    unsigned store_slots = 0) {
    const FeatureInfo* info = find_feature(feature);
    OptionValues opts = options_for(*info, {{"debug", "true"}});
    if (!gain.empty()) opts.set("adm_enhn_gain_limit", gain);
    RecordingSink cpu, device;
    run_scalar_and_device(
        backend, *info, opts, FrameGeometry{w, h, bpc, PixelFormat::yuv420}, 2,
        [](unsigned f) { return 7 + f; }, [](unsigned f) { return 1000 + f; }, cpu, device,
        store_slots);
    int compared = 0;
    EXPECT_EQ(cpu.order, device.order) << feature << " " << w << "x" << h;
    for (const auto& [key, frames] : cpu.values)
        for (const auto& [f, v] : frames) {
            ++compared;
            const double got = device.values[key][f];
            if (got != v) {
                ADD_FAILURE() << feature << " " << w << "x" << h << " bpc " << bpc << " " << key
                              << " frame " << f << ": device " << g17(got) << " cpu " << g17(v);
                return compared;
            }
        }
    return compared;
}

}  // namespace vmafpp::test
