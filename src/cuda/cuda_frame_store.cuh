// The CUDA backend's frame store (device::FrameStore), what its twins read
// each frame from: the class, for the twins (cuda_twins.cu), and how a twin
// finds its session's store. Made by make_frame_store (cuda_frame_store.cu).
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "cuda/cuda_context.cuh"
#include "device/backend.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp::cuda {

// The test knob VMAFPP_CUDA_UPLOAD_DELAY_US (cuda_frame_store.cu).
unsigned upload_delay_us();
// Queues `us` microseconds of idling on `stream` (the knob's delay).
void idle_on(cudaStream_t stream, unsigned us);

// The session's frame store (make_frame_store)
//
// Each frame's pair is packed on the reading thread into one of kStaging
// pinned staging buffers, copied on the store's own upload stream into the
// frame's slot of device memory (a ring of `slots`, frame % slots), and the
// slot's event is recorded after the copy. A twin that reads the frame makes
// its own stream wait for that event (frame_on()), so its kernels start
// only once the copy is complete, while the upload stream is free to copy
// the next frame: with worker threads, the upload of frame n + 1 overlaps
// the compute of frame n. Nothing is allocated after the constructor.
//
// Why nothing is overwritten while it is still read:
//  - A staging buffer is rewritten (put of frame f) only after its event
//    says that the copy out of it (frame f - kStaging) has finished
//    (wait_on_host): the host never races an asynchronous copy.
//  - A slot is rewritten (the copy of frame f into frame f - slots's slot)
//    only when every twin is done with frame f - slots: the pipeline calls
//    put(f) only after every extractor returned from frames before
//    f - slots + 1 (the frames in flight plus motion's two frames of
//    history, FramePipeline sizes the ring for it), and every twin waits
//    for its own stream (its readback) before it returns, so the kernels
//    that read the slot finished before put(f) was even called. (A twin
//    that one day returns before its kernels finish must make the upload
//    stream wait for an event of its own before the slot is rewritten.)
//  - A twin's cudaStreamWaitEvent on a slot's event comes after the
//    record() of the frame it reads (put(f) returns before the pipeline
//    hands frame f to any extractor; the slot's frame number is published
//    with release/acquire) and before the next record() on that event (the
//    put of frame f + slots, by the argument above), so it waits for exactly
//    frame f's copy.
class CudaFrameStore final : public device::FrameStore {
public:
    static constexpr unsigned kStaging = 2;  // packing frame n + 1 while n is copied

    CudaFrameStore(unsigned device, int w, int h, int bpc, unsigned slots)
        : device_(device), layout_(w, h, bpc), slot_count_(slots < 1 ? 1 : slots) {
        select_device(device_);
        upload_ = std::make_unique<Stream>();
        slots_ = std::make_unique<Slot[]>(slot_count_);
        for (unsigned i = 0; i < slot_count_; ++i)
            slots_[i].pics = DeviceArray<unsigned char>(layout_.bytes);
        staging_ = std::make_unique<Staging[]>(kStaging);
        for (unsigned i = 0; i < kStaging; ++i) {
            staging_[i].host = PinnedArray<unsigned char>(layout_.bytes);
            std::memset(staging_[i].host.get(), 0, layout_.bytes);  // the gap between the planes
        }
        delay_us_ = upload_delay_us();
    }

    // The reading thread, in frame order.
    void put(unsigned frame, const Picture& ref, const Picture& dis) override {
        const Plane& r = ref.luma();
        const Plane& d = dis.luma();
        if (!layout_.same(r.width(), r.height(), ref.bpc) ||
            !layout_.same(d.width(), d.height(), dis.bpc))
            throw Error(
                "internal error: a picture of another geometry reached the cuda frame store");
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        Slot& slot = slots_[frame % slot_count_];
        Staging& staging = staging_[frame % kStaging];
        // Until the copy below is queued, the slot holds no frame a twin may read.
        slot.frame.store(kNoFrame, std::memory_order_relaxed);
        staging.copied.wait_on_host("upload");  // the copy of frame - kStaging out of it
        layout_.pack(staging.host.get(), r.row<std::uint8_t>(0), r.stride(), d.row<std::uint8_t>(0),
                     d.stride());
        const cudaStream_t s = upload_->get();
        if (delay_us_) idle_on(s, delay_us_);
        check(cudaMemcpyAsync(slot.pics.get(), staging.host.get(), layout_.bytes,
                              cudaMemcpyHostToDevice, s),
              "upload");
        staging.copied.record(s);
        slot.uploaded.record(s);
        slot.frame.store(frame, std::memory_order_release);
    }

    // Frame `frame`'s pair (PairLayout) for kernels queued next on `stream`,
    // which now waits for its upload. Throws if the frame is not in the
    // store (never stale data).
    const unsigned char* frame_on(unsigned frame, cudaStream_t stream) const {
        const Slot& slot = slots_[frame % slot_count_];
        if (slot.frame.load(std::memory_order_acquire) != frame)
            throw Error("internal error: frame " + std::to_string(frame) +
                        " is not in the cuda frame store");
        slot.uploaded.make_wait(stream);
        return slot.pics.get();
    }

    unsigned device() const { return device_; }
    const PairLayout& layout() const { return layout_; }

private:
    static constexpr unsigned kNoFrame = ~0u;
    struct Slot {
        DeviceArray<unsigned char> pics;
        Event uploaded;  // recorded after the copy of the frame it holds
        std::atomic<unsigned> frame{kNoFrame};
    };
    struct Staging {
        PinnedArray<unsigned char> host;
        Event copied;  // recorded after the latest copy out of it
    };

    unsigned device_;
    PairLayout layout_;
    unsigned slot_count_;
    unsigned delay_us_ = 0;
    // Made in the constructor's body, once the device is selected (events
    // belong to the device current when they are made). The stream is
    // declared last, so it is destroyed first, waiting for the copies that
    // still read the pinned buffers.
    std::unique_ptr<Slot[]> slots_;
    std::unique_ptr<Staging[]> staging_;
    std::unique_ptr<Stream> upload_;
};

// The CUDA store of a twin's session (nullptr: none), for a twin of
// `device` and the pair w x h at bpc.
inline std::shared_ptr<CudaFrameStore> cuda_store(const std::shared_ptr<device::FrameStore>& frames,
                                           unsigned device, int w, int h, int bpc) {
    if (!frames) return nullptr;
    auto store = std::dynamic_pointer_cast<CudaFrameStore>(frames);
    if (!store || store->device() != device)
        throw Error("internal error: a cuda twin was given another device's frame store");
    if (!store->layout().same(w, h, bpc))
        throw Error("internal error: a cuda twin was given a frame store of another geometry");
    return store;
}

}  // namespace vmafpp::cuda
