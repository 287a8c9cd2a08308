// The backend registry: every compute backend (cpu, and the device backends
// of src/vulkan/, src/cuda/, or one a test registers) is one BackendInfo:
// its name, whether this build has it, how it lists its devices, the frame
// store of a session, and a factory per kind of device twin it implements.
// The twin interfaces live beside their features (src/<feature>/
// <feature>_twin.hpp); this folder knows none of them: a factory is kept
// under its twin's `kind` and typed again by make_twin<Twin>() in the
// feature's extractor. A feature says which twins it uses in
// FeatureInfo::device_twins; it runs on a device backend when that backend
// registered every one of them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "vmafpp/compute.hpp"
#include "vmafpp/feature.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {

// A session's device copies of the luma planes of its recent frames, so that
// each picture pair is uploaded once per frame whatever the number of twins.
// The frame pipeline puts every frame, in order, on its reading thread before
// any extractor sees it; the twins of the session read them by frame number
// (MotionTwin::sad_of_frames, VifTwin::run_frame, AdmTwin::run_frame). It
// keeps the last `slots` frames: the pipeline sizes it so that a frame is
// overwritten only after every extractor is done with it (the frames in
// flight plus motion's two frames of history). Uploads of frame n + 1 run
// while the workers compute frame n.
// The public headers know it only as Compute::frames, an opaque handle.
class SessionFrames {
public:
    virtual ~SessionFrames() = default;
    // The luma planes of frame `frame`'s reference and distorted pictures.
    virtual void put(unsigned frame, const Picture& ref, const Picture& dis) = 0;
};

}  // namespace vmafpp

namespace vmafpp::device {

// What a backend makes and its twins read (vk::make_frame_store, ...).
using FrameStore = SessionFrames;

// Seconds spent per stage since a twin was made (the device benchmarks).
struct TwinTimes {
    double upload = 0;    // copying the pictures to the device
    double compute = 0;   // launching the kernels and waiting for them
    double readback = 0;  // copying the results back and reading them
    unsigned frames = 0;
};

// Throws the internal error of a twin asked for a stored frame while it was
// made without a frame store (the twins' default sad_of_frames/run_frame).
[[noreturn]] void no_frame_store(const char* twin);

class BackendInfo {
public:
    using DeviceList = std::function<std::string()>;
    using FrameStoreMaker = std::function<std::shared_ptr<FrameStore>(
        unsigned device, const FrameGeometry& geometry, unsigned slots)>;

    BackendInfo() = default;
    // A backend this build has.
    BackendInfo(std::string name_, DeviceList devices, FrameStoreMaker frame_store)
        : name(std::move(name_)),
          built(true),
          describe_devices(std::move(devices)),
          make_frame_store(std::move(frame_store)) {}

    std::string name;  // what --backend takes
    // Whether this build has it; a known backend that is not built is still
    // listed, so that --backend names it as "not built" instead of unknown.
    bool built = false;
    // One line per device, "<index>: <name> (...)"; throws vmafpp::Error when
    // the driver cannot be loaded.
    DeviceList describe_devices;
    // The frame store of a session on `device` (nullptr: the twins are
    // handed host pictures, FrameStore-less).
    FrameStoreMaker make_frame_store;

    // Registers the backend's factory of twins of type Twin (which declares
    // `kind` and `Factory`, see motion/motion_twin.hpp).
    template <class Twin>
    void add_twin(typename Twin::Factory factory) {
        twins_.push_back({std::string(Twin::kind),
                          std::make_shared<const typename Twin::Factory>(std::move(factory))});
    }
    // Registers make(compute.device, args...) as Twin's factory, where args
    // are the factory's own (the common shape of a backend's twin makers),
    // with the session's frame store as a last argument when kFrames (twins
    // that read stored frames).
    template <class Twin, bool kFrames = false, class Make>
    void add_device_twin(Make make) {
        add_twin<Twin>([make](const Compute& c, auto&&... args) {
            if constexpr (kFrames)
                return make(c.device, std::forward<decltype(args)>(args)..., c.frames);
            else
                return make(c.device, std::forward<decltype(args)>(args)...);
        });
    }
    // The factory registered for `Twin`, or nullptr.
    template <class Twin>
    const typename Twin::Factory* twin() const {
        return static_cast<const typename Twin::Factory*>(factory_of(Twin::kind));
    }
    bool has_twin(std::string_view kind) const { return factory_of(kind) != nullptr; }

private:
    struct Factory {
        std::string kind;
        std::shared_ptr<const void> make;  // a Twin::Factory, typed by twin<Twin>()
    };
    const void* factory_of(std::string_view kind) const;
    std::vector<Factory> twins_;
};

// Adds a backend under a new Backend value (a test's fake one, or a backend
// loaded at run time) and returns that value; its name must be new. The
// built-in backends are registered by the one list (backend_list.cpp).
Backend register_backend(BackendInfo info);
// The backend `backend` names; nullptr for a value no backend has.
const BackendInfo* find_backend(Backend backend);

// The twin of `compute`'s backend for this kind, or nullptr where the backend
// (the CPU among them) has none: the extractor then runs its CPU kernels.
// A twin made with compute.frames reads its pictures from that store.
template <class Twin, class... Args>
std::unique_ptr<Twin> make_twin(const Compute& compute, Args&&... args) {
    if (compute.backend == Backend::cpu) return nullptr;
    const BackendInfo* backend = find_backend(compute.backend);
    const typename Twin::Factory* make = backend ? backend->twin<Twin>() : nullptr;
    return make ? (*make)(compute, std::forward<Args>(args)...) : nullptr;
}

// Whether `feature` runs on `compute`'s device: a device backend that
// registered every twin in feature.device_twins (none: CPU only).
bool runs_on_device(const Compute& compute, const FeatureInfo& feature);

// The frame store of a session on `compute`'s device backend holding `slots`
// frames of `geometry`, or nullptr on the CPU (or a backend without one).
std::shared_ptr<FrameStore> make_frame_store(const Compute& compute, const FrameGeometry& geometry,
                                             unsigned slots);

// When `compute` names a device backend and `feature` does not run there:
// with compute.device_only throws the one-line vmafpp::Error
// "--device_only: <feature> has no <backend> twin ...", else notes once per
// feature and process on stderr that it runs on the CPU.
void place_on_cpu_or_refuse(const Compute& compute, const FeatureInfo& feature);

}  // namespace vmafpp::device
