// The CUDA device benchmark: frames per second of the integer extractors
// with device twins (adm, vif, motion) on the device and on the CPU in the same
// run, and the share of the twins' time spent uploading the pictures (packing
// into pinned memory and the copy), computing (launches, the wait, the copy
// of the results) and reading back (the host's sum of motion's rows), and
// the three twins each uploading their pictures against the three reading
// one session frame store (one upload per frame, cuda::make_frame_store).
//
//   vmafpp_cuda_bench [--device N] [--width W] [--height H] [--bpc B] [--frames F]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_twins.hpp"
#include "adm/adm_twin.hpp"
#include "device/backend.hpp"
#include "motion/motion_twin.hpp"
#include "vif/vif_twin.hpp"
#include "vmafpp/compute.hpp"
#include "vmafpp/error.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/options.hpp"
#include "vmafpp/picture.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct NullSink final : vmafpp::FeatureSink {
    void append(std::string_view, unsigned, double) override {}
};

vmafpp::Picture noise(int w, int h, int bpc, unsigned seed) {
    vmafpp::Picture p(w, h, bpc, vmafpp::PixelFormat::yuv420);
    unsigned s = seed;
    for (int k = 0; k < p.plane_count(); ++k) {
        vmafpp::Plane& pl = p.planes[k];
        for (int y = 0; y < pl.height(); ++y)
            for (int x = 0; x < pl.width(); ++x) {
                s = s * 1664525u + 1013904223u;
                const unsigned v = (s >> 8) & ((1u << bpc) - 1);
                if (bpc > 8)
                    pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
                else
                    pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            }
    }
    return p;
}

// Seconds for `frames` frames of one extractor on `compute`.
double run(const char* name, const vmafpp::Compute& compute,
           const std::vector<vmafpp::Picture>& ref, const std::vector<vmafpp::Picture>& dis,
           int frames) {
    const vmafpp::FeatureInfo* info = vmafpp::find_feature(name);
    const vmafpp::OptionValues opts(info->options);
    const vmafpp::Picture& p = ref[0];
    auto ex = info->create(opts, {p.width, p.height, p.bpc, vmafpp::PixelFormat::yuv420}, compute);
    NullSink sink;
    // One frame of warm-up (pipelines, first-touch of buffers).
    ex->extract(ref[0], dis[0], 0, sink);
    const auto t0 = Clock::now();
    for (int f = 1; f <= frames; ++f)
        ex->extract(ref[f % ref.size()], dis[f % dis.size()], f, sink);
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

void shares(const char* what, const vmafpp::device::TwinTimes& t, double host) {
    const double total = t.upload + t.compute + t.readback + host;
    std::printf("  %-7s device stages: upload %5.1f%%  compute %5.1f%%  readback+host %5.1f%%\n",
                what, 100 * t.upload / total, 100 * t.compute / total,
                100 * (t.readback + host) / total);
}

}  // namespace

int main(int argc, char** argv) {
    int w = 1920, h = 1080, bpc = 8, frames = 20;
    unsigned device = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        const int v = std::atoi(argv[i + 1]);
        if (a == "--width")
            w = v;
        else if (a == "--height")
            h = v;
        else if (a == "--bpc")
            bpc = v;
        else if (a == "--frames")
            frames = v;
        else if (a == "--device")
            device = static_cast<unsigned>(v);
        else {
            std::fprintf(stderr, "vmafpp_cuda_bench: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    try {
        std::printf("%s%dx%d %d-bit, %d frames after one warm-up frame\n",
                    vmafpp::cuda::describe_devices().c_str(), w, h, bpc, frames);
        std::vector<vmafpp::Picture> ref, dis;
        for (unsigned k = 0; k < 3; ++k) {
            ref.push_back(noise(w, h, bpc, 11 + k));
            dis.push_back(noise(w, h, bpc, 101 + k));
        }
        vmafpp::Compute cpu = vmafpp::Compute::best_cpu();
        vmafpp::Compute scalar = cpu;
        scalar.simd = vmafpp::SimdLevel::scalar;
        vmafpp::Compute dev = scalar;
        dev.backend = vmafpp::Backend::cuda;
        dev.device = device;
        for (const char* name : {"adm", "vif", "motion"}) {
            const double s_dev = run(name, dev, ref, dis, frames);
            const double s_scalar = run(name, scalar, ref, dis, frames);
            const double s_cpu = run(name, cpu, ref, dis, frames);
            std::printf(
                "%-7s cuda %8.2f fps | cpu scalar %8.2f fps | cpu best SIMD %8.2f fps | "
                "cuda / scalar %.2fx | cuda / best SIMD %.2fx\n",
                name, frames / s_dev, frames / s_scalar, frames / s_cpu, s_scalar / s_dev,
                s_cpu / s_dev);
        }
        // The stage shares, from the twins themselves.
        const vmafpp::Picture& r = ref[0];
        const vmafpp::Picture& d = dis[0];
        vmafpp::adm::AdmDeviceParams params[vmafpp::adm::kScales];
        const vmafpp::adm::AdmEngine engine(w, h, bpc, vmafpp::adm::AdmOptions{});
        for (int s = 0; s < vmafpp::adm::kScales; ++s) params[s] = engine.device_params(s);
        auto adm = vmafpp::cuda::make_adm_twin(device, w, h, bpc, params, 100.0, false, false);
        auto vif = vmafpp::cuda::make_vif_twin(device, w, h, bpc,
                                               100.0);  // as the extractor: sums on the device
        auto motion = vmafpp::cuda::make_motion_twin(device, w, h, bpc);
        auto t0 = Clock::now();
        for (int f = 0; f < frames; ++f) {
            adm->run(r.luma().row<std::uint8_t>(0), r.luma().stride(),
                     d.luma().row<std::uint8_t>(0), d.luma().stride());
            vif->run(r.luma().row<std::uint8_t>(0), r.luma().stride(),
                     d.luma().row<std::uint8_t>(0), d.luma().stride(), false);
            motion->sad(r.luma().row<std::uint8_t>(0), r.luma().stride(),
                        d.luma().row<std::uint8_t>(0), d.luma().stride());
        }
        const double s_own = std::chrono::duration<double>(Clock::now() - t0).count();

        // The same three twins reading a session's frame store, as a CLI
        // run's: one upload per frame on the store's stream (a new pair each
        // frame, as the pipeline puts them), on one thread (no overlap).
        const auto store = vmafpp::cuda::make_frame_store(
            device, vmafpp::FrameGeometry{w, h, bpc, vmafpp::PixelFormat::yuv420}, 3);
        auto adm_s =
            vmafpp::cuda::make_adm_twin(device, w, h, bpc, params, 100.0, false, false, store);
        auto vif_s = vmafpp::cuda::make_vif_twin(device, w, h, bpc, 100.0, store);
        auto motion_s = vmafpp::cuda::make_motion_twin(device, w, h, bpc, store);
        double s_put = 0;
        t0 = Clock::now();
        for (int f = 0; f < frames; ++f) {
            const auto p0 = Clock::now();
            store->put(static_cast<unsigned>(f), ref[f % ref.size()], dis[f % dis.size()]);
            s_put += std::chrono::duration<double>(Clock::now() - p0).count();
            adm_s->run_frame(static_cast<unsigned>(f));
            vif_s->run_frame(static_cast<unsigned>(f), false);
            if (f > 0)
                motion_s->sad_of_frames(static_cast<unsigned>(f - 1), static_cast<unsigned>(f));
        }
        const double s_store = std::chrono::duration<double>(Clock::now() - t0).count();
        std::printf(
            "adm+vif+motion twins: each uploading %8.2f fps | one frame store %8.2f fps "
            "(put %.3f ms/frame on the host)\n",
            frames / s_own, frames / s_store, 1e3 * s_put / frames);
        // The host's VIF part (vif_accumulate over every scale) is timed by
        // the extractor run above as part of its fps; here the shares of the
        // twin's own stages.
        shares("adm", adm->times, 0.0);
        shares("vif", vif->times, 0.0);
        shares("motion", motion->times, 0.0);
    } catch (const vmafpp::Error& e) {
        std::fprintf(stderr, "vmafpp_cuda_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
