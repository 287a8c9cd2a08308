// The backend registry (device/backend.hpp) and what vmafpp/compute.hpp
// says of backends: names, the built list, device lists, the resolved
// Compute of a session.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "device/backend.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp {

namespace device {

// backend_list.cpp: the one list of the backends vmafpp knows.
std::vector<std::pair<Backend, BackendInfo>> known_backends();

namespace {

struct Entry {
    Backend id;
    std::unique_ptr<const BackendInfo> info;  // never moved: names and factories stay put
};

// Registrations may come while sessions run (a test's fake backend), so
// every lookup holds the mutex; entries are never removed.
struct Registry {
    std::mutex mutex;
    std::vector<Entry> entries;
    unsigned next_id = 0;

    Registry() {
        for (auto& [id, info] : known_backends()) {
            entries.push_back({id, std::make_unique<const BackendInfo>(std::move(info))});
            next_id = std::max(next_id, static_cast<unsigned>(id) + 1);
        }
    }
};

Registry& registry() {
    static Registry r;
    return r;
}

std::vector<const Entry*> snapshot() {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    std::vector<const Entry*> out;
    for (const Entry& e : r.entries) out.push_back(&e);
    return out;
}

}  // namespace

[[noreturn]] void no_frame_store(const char* twin) {
    throw Error(std::string("internal error: this ") + twin + " twin reads no frame store");
}

const void* BackendInfo::factory_of(std::string_view kind) const {
    for (const Factory& f : twins_)
        if (f.kind == kind) return f.make.get();
    return nullptr;
}

Backend register_backend(BackendInfo info) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    for (const Entry& e : r.entries)
        if (e.info->name == info.name)
            throw Error("internal error: backend " + info.name + " is registered twice");
    const Backend id = static_cast<Backend>(r.next_id++);
    r.entries.push_back({id, std::make_unique<const BackendInfo>(std::move(info))});
    return id;
}

const BackendInfo* find_backend(Backend backend) {
    for (const Entry* e : snapshot())
        if (e->id == backend) return e->info.get();
    return nullptr;
}

bool runs_on_device(const Compute& compute, const FeatureInfo& feature) {
    if (compute.backend == Backend::cpu || feature.device_twins.empty()) return false;
    const BackendInfo* backend = find_backend(compute.backend);
    if (!backend) return false;
    for (const std::string& kind : feature.device_twins)
        if (!backend->has_twin(kind)) return false;
    return true;
}

std::shared_ptr<FrameStore> make_frame_store(const Compute& compute, const FrameGeometry& geometry,
                                             unsigned slots) {
    if (compute.backend == Backend::cpu) return nullptr;
    const BackendInfo* backend = find_backend(compute.backend);
    if (!backend || !backend->make_frame_store) return nullptr;
    return backend->make_frame_store(compute.device, geometry, slots);
}

void place_on_cpu_or_refuse(const Compute& compute, const FeatureInfo& feature) {
    if (compute.backend == Backend::cpu || runs_on_device(compute, feature)) return;
    const std::string backend = backend_name(compute.backend);
    if (compute.device_only)
        throw Error("--device_only: " + feature.name + " has no " + backend +
                    " twin (without --device_only it runs on the CPU)");
    static std::mutex mutex;
    static std::set<std::string, std::less<>> noted;
    std::lock_guard lock(mutex);
    if (!noted.insert(backend + "/" + feature.name).second) return;
    std::fprintf(stderr, "vmafpp: %s has no %s twin; it runs on the CPU\n", feature.name.c_str(),
                 backend.c_str());
}

}  // namespace device

namespace {

const device::BackendInfo* built(Backend backend) {
    const device::BackendInfo* info = device::find_backend(backend);
    return info && info->built ? info : nullptr;
}

std::string built_list() {
    std::string out;
    for (Backend b : built_backends()) out += (out.empty() ? "" : ", ") + std::string(backend_name(b));
    return out;
}

// "vulkan or cuda": the device backends this build has, for --device_only's error.
std::string device_list() {
    std::string out;
    for (Backend b : built_backends())
        if (b != Backend::cpu) out += (out.empty() ? "" : " or ") + std::string(backend_name(b));
    return out.empty() ? "none: this vmafpp is built without device backends" : out;
}

[[noreturn]] void not_built(Backend backend) {
    throw Error("backend " + std::string(backend_name(backend)) +
                " is not built into this vmafpp (built: " + built_list() + ")");
}

}  // namespace

const char* backend_name(Backend backend) {
    const device::BackendInfo* info = device::find_backend(backend);
    return info ? info->name.c_str() : "unknown";
}

std::vector<Backend> built_backends() {
    std::vector<Backend> out;
    for (const auto* e : device::snapshot())
        if (e->info->built) out.push_back(e->id);
    return out;
}

Backend parse_backend(std::string_view name) {
    for (const auto* e : device::snapshot()) {
        if (name != e->info->name) continue;
        if (!e->info->built) not_built(e->id);
        return e->id;
    }
    throw Error("unknown backend \"" + std::string(name) + "\" (built: " + built_list() + ")");
}

std::string describe_devices(Backend backend) {
    const device::BackendInfo* info = built(backend);
    if (!info) not_built(backend);
    return info->describe_devices();
}

Compute resolve_compute(const ComputeConfig& config) {
    if (!built(config.backend)) not_built(config.backend);
    Compute c;
    c.simd = simd_level(config.cpumask);
    // libvmaf: a non-zero gpumask keeps every extractor on the CPU.
    c.backend = config.gpumask != 0 ? Backend::cpu : config.backend;
    c.device = c.backend == Backend::cpu ? 0 : config.device;
    if (config.device_only) {
        if (config.backend == Backend::cpu)
            throw Error("--device_only needs a device backend (--backend " + device_list() + ")");
        if (config.gpumask != 0)
            throw Error("--device_only: --gpumask " + std::to_string(config.gpumask) +
                        " keeps every extractor on the CPU");
        c.device_only = true;
    }
    return c;
}

}  // namespace vmafpp
