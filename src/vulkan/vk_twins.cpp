#include "vulkan/vk_twins.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "adm/adm_gain_limit.hpp"
#include "adm/adm_shared.h"
#include "motion/motion_shared.h"
#include "vif/vif_shared.h"
#include "vmafpp/error.hpp"
#include "vulkan/vk_context.hpp"

namespace vmafpp::vk {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Copies h rows of w samples of `bytes` each into dst, rows w apart.
void pack_rows(void* dst, const void* src, std::ptrdiff_t stride, int w, int h, int bytes) {
    const std::size_t row = static_cast<std::size_t>(w) * bytes;
    for (int y = 0; y < h; ++y)
        std::memcpy(static_cast<char*>(dst) + y * row, static_cast<const char*>(src) + y * stride, row);
}

// Samples per 32-bit word, rounded so that the second picture starts on a word.
int aligned_samples(int n) { return (n + 3) / 4 * 4; }

// The session's frame store (make_frame_store).
class VulkanFrameStore final : public device::FrameStore {
public:
    VulkanFrameStore(unsigned device, int w, int h, int bpc, unsigned slots)
        : ctx_(context_for(device)),
          w_(w),
          h_(h),
          bytes_(bpc > 8 ? 2 : 1),
          dis_base_(aligned_samples(w * h)),
          direct_(ctx_->unified_memory()),
          slots_(slots < 1 ? 1 : slots) {
        const std::size_t bytes = 2 * static_cast<std::size_t>(dis_base_) * bytes_;
        VkDevice dev = ctx_->device();
        if (!direct_) {
            VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
            pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
            pi.queueFamilyIndex = ctx_->queue_family();
            check(vkCreateCommandPool(dev, &pi, nullptr, &pool_), "vkCreateCommandPool");
        }
        for (Slot& slot : slots_) {
            slot.pics = std::make_unique<Buffer>(
                ctx_, bytes, direct_ ? Buffer::Memory::mapped : Buffer::Memory::device_local);
            if (direct_) continue;
            slot.staging = std::make_unique<Buffer>(ctx_, bytes);
            VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            ai.commandPool = pool_;
            ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            ai.commandBufferCount = 1;
            check(vkAllocateCommandBuffers(dev, &ai, &slot.cmd), "vkAllocateCommandBuffers");
            VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            check(vkCreateFence(dev, &fi, nullptr, &slot.fence), "vkCreateFence");
        }
    }

    ~VulkanFrameStore() override {
        VkDevice dev = ctx_->device();
        for (Slot& slot : slots_) {
            if (slot.pending) vkWaitForFences(dev, 1, &slot.fence, VK_TRUE, UINT64_MAX);
            if (slot.fence) vkDestroyFence(dev, slot.fence, nullptr);
        }
        if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
    }

    // The reading thread, in frame order.
    void put(unsigned frame, const Picture& ref, const Picture& dis) override {
        Slot& slot = slots_[frame % slots_.size()];
        VkDevice dev = ctx_->device();
        if (slot.pending) {
            // The copy of frame - slots out of this staging buffer.
            check(vkWaitForFences(dev, 1, &slot.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
            check(vkResetFences(dev, 1, &slot.fence), "vkResetFences");
            slot.pending = false;
        }
        char* dst = (direct_ ? slot.pics : slot.staging)->as<char>();
        pack_rows(dst, ref.luma().row<std::uint8_t>(0), ref.luma().stride(), w_, h_, bytes_);
        pack_rows(dst + static_cast<std::size_t>(dis_base_) * bytes_, dis.luma().row<std::uint8_t>(0),
                  dis.luma().stride(), w_, h_, bytes_);
        if (!direct_) {
            // Submitted now, finished before any twin's later submission reads
            // it (Stream::begin's transfer-to-compute barrier).
            check(vkResetCommandBuffer(slot.cmd, 0), "vkResetCommandBuffer");
            VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
            bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
            check(vkBeginCommandBuffer(slot.cmd, &bi), "vkBeginCommandBuffer");
            const VkBufferCopy region{0, 0, slot.pics->size()};
            vkCmdCopyBuffer(slot.cmd, slot.staging->handle(), slot.pics->handle(), 1, &region);
            check(vkEndCommandBuffer(slot.cmd), "vkEndCommandBuffer");
            ctx_->submit(slot.cmd, slot.fence);
            slot.pending = true;
        }
        slot.frame.store(frame, std::memory_order_release);
    }

    // The slot holding frame `frame`, for a twin's dispatch. The pipeline
    // sizes the store so that it is not overwritten while a twin reads it.
    const Buffer& frame_buffer(unsigned frame) const {
        const Slot& slot = slots_[frame % slots_.size()];
        if (slot.frame.load(std::memory_order_acquire) != frame)
            throw Error("internal error: frame " + std::to_string(frame) +
                        " is not in the vulkan frame store");
        return *slot.pics;
    }

    const Context* context() const { return ctx_.get(); }

private:
    static void check(VkResult r, const char* what) {
        if (r != VK_SUCCESS)
            throw Error(std::string("vulkan: ") + what + " failed (VkResult " + std::to_string(r) + ")");
    }

    struct Slot {
        std::unique_ptr<Buffer> pics, staging;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        bool pending = false;  // a copy was submitted and not yet waited for
        std::atomic<unsigned> frame{~0u};
    };

    std::shared_ptr<Context> ctx_;
    int w_, h_, bytes_, dis_base_;
    bool direct_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::vector<Slot> slots_;
};

// The Vulkan store of a twin's session (nullptr: none), on the twin's device.
std::shared_ptr<VulkanFrameStore> vulkan_store(const std::shared_ptr<device::FrameStore>& frames,
                                               const Context& ctx) {
    if (!frames) return nullptr;
    auto store = std::dynamic_pointer_cast<VulkanFrameStore>(frames);
    if (!store || store->context() != &ctx)
        throw Error("internal error: a vulkan twin was given another device's frame store");
    return store;
}

// What every twin holds first: its device's context and the session's frame
// store on that device (nullptr: none, the twin uploads its own pictures).
class TwinDevice {
protected:
    TwinDevice(unsigned device, const std::shared_ptr<device::FrameStore>& frames)
        : ctx_(context_for(device)), store_(vulkan_store(frames, *ctx_)) {}

    std::shared_ptr<Context> ctx_;
    std::shared_ptr<VulkanFrameStore> store_;
};


class VulkanMotion final : public MotionTwin, private TwinDevice {
public:
    VulkanMotion(unsigned device, int w, int h, int bpc, std::shared_ptr<device::FrameStore> frames)
        : TwinDevice(device, frames),
          w_(w),
          h_(h),
          bpc_(bpc),
          bytes_(bpc > 8 ? 2 : 1),
          rows_(ctx_, static_cast<std::size_t>(h) * 4),
          stream_(ctx_),
          kernel_(ctx_->kernel("motion", 3, sizeof(motion::MotionPush))) {}

    std::uint64_t sad(const void* prev, std::ptrdiff_t prev_stride, const void* cur,
                      std::ptrdiff_t cur_stride) override {
        auto t0 = Clock::now();
        if (!prev_) {
            // Whole 32-bit words: the shader reads the last samples' word.
            const std::size_t bytes = static_cast<std::size_t>(aligned_samples(w_ * h_)) * bytes_;
            prev_ = std::make_unique<Buffer>(ctx_, bytes);
            cur_ = std::make_unique<Buffer>(ctx_, bytes);
        }
        pack_rows(prev_->data(), prev, prev_stride, w_, h_, bytes_);
        pack_rows(cur_->data(), cur, cur_stride, w_, h_, bytes_);
        times.upload += seconds_since(t0);
        return compute(*prev_, *cur_);
    }

    std::uint64_t sad_of_frames(unsigned prev, unsigned cur) override {
        if (!store_) return MotionTwin::sad_of_frames(prev, cur);
        return compute(store_->frame_buffer(prev), store_->frame_buffer(cur));
    }

private:
    std::uint64_t compute(const Buffer& prev, const Buffer& cur) {
        auto t0 = Clock::now();
        std::memset(rows_.data(), 0, rows_.size());
        const motion::MotionPush params{w_, h_, bpc_, 0};
        stream_.begin();
        stream_.dispatch(kernel_, {&prev, &cur, &rows_}, &params, groups(w_, 64), h_);
        stream_.submit_and_wait();
        times.compute += seconds_since(t0);

        t0 = Clock::now();
        // Row by row in uint64, as the scalar adds its uint32 row sums.
        std::uint64_t total = 0;
        const std::uint32_t* rows = rows_.as<std::uint32_t>();
        for (int i = 0; i < h_; ++i) total += rows[i];
        times.readback += seconds_since(t0);
        ++times.frames;
        return total;
    }

    int w_, h_, bpc_, bytes_;
    std::unique_ptr<Buffer> prev_, cur_;  // sad()'s own uploads
    Buffer rows_;
    Stream stream_;
    const Kernel& kernel_;
};


constexpr int kVifScales = 4;

class VulkanVif final : public VifTwin, private TwinDevice {
public:
    VulkanVif(unsigned device, int w, int h, int bpc, std::shared_ptr<device::FrameStore> frames)
        : TwinDevice(device, frames),
          bpc_(bpc),
          bytes_(bpc > 8 ? 2 : 1),
          stream_(ctx_),
          stat_v_(ctx_->kernel("vif_stat_vertical", 2, sizeof(vif::VifStatPush))),
          stat_h_(ctx_->kernel("vif_stat_horizontal", 2, sizeof(vif::VifSigmaPush))),
          reduce_v_(ctx_->kernel("vif_reduce_vertical", 2, sizeof(vif::VifReducePush))),
          reduce_h_(ctx_->kernel("vif_reduce_horizontal", 2, sizeof(vif::VifReduceRowPush))) {
        w_[0] = w;
        h_[0] = h;
        std::size_t sigma_words = 0;
        for (int s = 0; s < kVifScales; ++s) {
            if (s > 0) {
                w_[s] = w_[s - 1] / 2;
                h_[s] = h_[s - 1] / 2;
            }
            sigma_base_[s] = sigma_words;
            sigma_words += 3 * static_cast<std::size_t>(w_[s]) * h_[s];
        }
        dis_base_ = aligned_samples(w * h);
        const std::size_t n0 = static_cast<std::size_t>(w) * h;
        moments_ = std::make_unique<Buffer>(ctx_, 5 * n0 * 4);
        conv_ = std::make_unique<Buffer>(ctx_, 2 * static_cast<std::size_t>(w) * h_[1] * 4);
        sigma_ = std::make_unique<Buffer>(ctx_, sigma_words * 4);
        for (int s = 1; s < kVifScales; ++s)
            scaled_[s] = std::make_unique<Buffer>(ctx_, 2 * static_cast<std::size_t>(w_[s]) * h_[s] * 4);
    }

    void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis, std::ptrdiff_t dis_stride,
             bool skip_scale0) override {
        auto t0 = Clock::now();
        if (!pics_)
            pics_ = std::make_unique<Buffer>(ctx_, 2 * static_cast<std::size_t>(dis_base_) * bytes_);
        char* base = pics_->as<char>();
        pack_rows(base, ref, ref_stride, w_[0], h_[0], bytes_);
        pack_rows(base + static_cast<std::size_t>(dis_base_) * bytes_, dis, dis_stride, w_[0], h_[0],
                  bytes_);
        times.upload += seconds_since(t0);
        compute(*pics_, skip_scale0);
    }

    void run_frame(unsigned frame, bool skip_scale0) override {
        if (!store_) return VifTwin::run_frame(frame, skip_scale0);
        compute(store_->frame_buffer(frame), skip_scale0);
    }

    const std::int32_t* sigma(int s) const override {
        return sigma_->as<std::int32_t>() + sigma_base_[s];
    }

private:
    // Every scale's statistics and reductions from `pics` (the layout of a
    // frame store slot).
    void compute(const Buffer& pics, bool skip_scale0) {
        const auto t0 = Clock::now();
        stream_.begin();
        for (int s = 0; s < kVifScales; ++s) {
            // Scale 0 is the uploaded picture (bytes or uint16), later scales
            // one sample per word: ref plane, then dis plane.
            const Buffer* src = s == 0 ? &pics : scaled_[s].get();
            const std::int32_t kind = s == 0 ? (bytes_ == 1 ? 0 : 1) : 2;
            const std::int32_t ref_base = 0;
            const std::int32_t dis_base = s == 0 ? dis_base_ : w_[s] * h_[s];
            const std::uint32_t gx = groups(w_[s], 64);
            if (s > 0 || !skip_scale0) {
                // Scale 0 keeps its bit depth (means by bpc bits, moments by
                // 2 (bpc - 8)); later scales are 16-bit and shift 16, 16.
                const vif::VifStatPush sp{w_[s], h_[s], kind, ref_base, dis_base, s,
                                       s == 0 ? bpc_ : 16, s == 0 ? 2 * (bpc_ - 8) : 16};
                stream_.dispatch(stat_v_, {src, moments_.get()}, &sp, gx, h_[s]);
                const vif::VifSigmaPush hp{w_[s], h_[s], s, static_cast<std::int32_t>(sigma_base_[s])};
                stream_.dispatch(stat_h_, {moments_.get(), sigma_.get()}, &hp, gx, h_[s]);
            }
            if (s + 1 < kVifScales) {
                const vif::VifReducePush rp{w_[s], h_[s], kind, ref_base, dis_base, s,
                                         s == 0 ? bpc_ : 16, h_[s + 1]};
                stream_.dispatch(reduce_v_, {src, conv_.get()}, &rp, gx, h_[s + 1]);
                const vif::VifReduceRowPush rr{w_[s], w_[s + 1], h_[s + 1], s};
                stream_.dispatch(reduce_h_, {conv_.get(), scaled_[s + 1].get()}, &rr,
                                 groups(w_[s + 1], 64), h_[s + 1]);
            }
        }
        stream_.submit_and_wait();
        times.compute += seconds_since(t0);
        ++times.frames;
    }

    int bpc_, bytes_;
    int w_[kVifScales] = {}, h_[kVifScales] = {};
    std::size_t sigma_base_[kVifScales] = {};
    std::int32_t dis_base_ = 0;
    std::unique_ptr<Buffer> pics_, moments_, conv_, sigma_, scaled_[kVifScales];
    Stream stream_;
    const Kernel& stat_v_;
    const Kernel& stat_h_;
    const Kernel& reduce_v_;
    const Kernel& reduce_h_;
};


class VulkanAdm final : public AdmTwin, private TwinDevice {
public:
    VulkanAdm(unsigned device, int w, int h, int bpc, const adm::AdmDeviceParams scales[adm::kScales],
              double gain_limit, bool skip_scale0, bool skip_aim,
              std::shared_ptr<device::FrameStore> frames)
        : TwinDevice(device, frames),
          w_(w),
          h_(h),
          bpc_(bpc),
          bytes_(bpc > 8 ? 2 : 1),
          skip_scale0_(skip_scale0),
          skip_aim_(skip_aim),
          stream_(ctx_),
          dwt_(ctx_->kernel("adm_dwt", 2, sizeof(adm::AdmDwtPush))),
          decouple_(ctx_->kernel("adm_decouple", 2, sizeof(adm::AdmDecouplePush))),
          cm_(ctx_->kernel("adm_cm", 2, sizeof(adm::AdmPoolPush))),
          den_(ctx_->kernel("adm_den", 2, sizeof(adm::AdmPoolPush))) {
        const adm::GainLimitFixed g = adm::gain_limit_fixed(gain_limit);
        gain_m_ = g.m;
        gain_s_ = g.s;
        // The float the scalar angle test uses: cos(1 deg)^2 in double, then float.
        const float cos_sq = static_cast<float>(std::cos(1.0 * M_PI / 180.0) *
                                                std::cos(1.0 * M_PI / 180.0));
        std::memcpy(&cos_sq_bits_, &cos_sq, 4);
        dis_base_ = aligned_samples(w * h);
        for (int s = 0; s < adm::kScales; ++s) {
            p_[s] = scales[s];
            const std::size_t n = static_cast<std::size_t>(p_[s].bw) * p_[s].bh;
            bands_[s] = std::make_unique<Buffer>(ctx_, 8 * n * 4);
            dec_[s] = std::make_unique<Buffer>(ctx_, 6 * n * 4);
            rows_[s] = std::make_unique<Buffer>(ctx_, 9 * static_cast<std::size_t>(p_[s].region.height()) * 8);
        }
    }

    void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis, std::ptrdiff_t dis_stride) override {
        auto t0 = Clock::now();
        if (!pics_)
            pics_ = std::make_unique<Buffer>(ctx_, 2 * static_cast<std::size_t>(dis_base_) * bytes_);
        char* base = pics_->as<char>();
        pack_rows(base, ref, ref_stride, w_, h_, bytes_);
        pack_rows(base + static_cast<std::size_t>(dis_base_) * bytes_, dis, dis_stride, w_, h_, bytes_);
        times.upload += seconds_since(t0);
        compute(*pics_);
    }

    void run_frame(unsigned frame) override {
        if (!store_) return AdmTwin::run_frame(frame);
        compute(store_->frame_buffer(frame));
    }

    void compute(const Buffer& pics) {
        const auto t0 = Clock::now();
        stream_.begin();
        for (int s = 0; s < adm::kScales; ++s) {
            const adm::AdmDeviceParams& q = p_[s];
            const int in_w = s == 0 ? w_ : p_[s - 1].bw, in_h = s == 0 ? h_ : p_[s - 1].bh;
            const std::int32_t n_in = s == 0 ? dis_base_ : 4 * in_w * in_h;
            const adm::AdmDwtPush dp{in_w, in_h, q.bw, q.bh, s, s == 0 ? (bytes_ == 1 ? 0 : 1) : 2,
                                  bpc_, 0, n_in};
            stream_.dispatch(dwt_, {s == 0 ? &pics : bands_[s - 1].get(), bands_[s].get()}, &dp,
                             groups(q.bw, 64), q.bh, 2);
            if (s == 0 && skip_scale0_) continue;
            record_pooling(s);
        }
        stream_.submit_and_wait();
        times.compute += seconds_since(t0);
        ++times.frames;
    }

    void run_on_bands(int s, const std::int32_t* const ref_hvd[3],
                      const std::int32_t* const dis_hvd[3]) override {
        const std::size_t n = static_cast<std::size_t>(p_[s].bw) * p_[s].bh;
        std::int32_t* b = bands_[s]->as<std::int32_t>();
        for (int t = 0; t < 3; ++t) {
            std::memcpy(b + (1 + t) * n, ref_hvd[t], n * 4);
            std::memcpy(b + (5 + t) * n, dis_hvd[t], n * 4);
        }
        stream_.begin();
        record_pooling(s);
        stream_.submit_and_wait();
    }

    const std::int64_t* rows(int s) const override { return rows_[s]->as<std::int64_t>(); }

private:
    // Decouple, denominator and masking of scale s, from its bands.
    void record_pooling(int s) {
        const adm::AdmDeviceParams& q = p_[s];
        const adm::AdmDecouplePush cp{q.bw * q.bh, s, static_cast<std::uint32_t>(gain_m_),
                                   static_cast<std::uint32_t>(gain_m_ >> 32), gain_s_,
                                   cos_sq_bits_};
        stream_.dispatch(decouple_, {bands_[s].get(), dec_[s].get()}, &cp,
                         groups(q.bw * q.bh, 64));
        const adm::AdmPoolPush pp = adm::pool_push(q, s);
        const int region_rows = q.region.height();
        stream_.dispatch(den_, {bands_[s].get(), rows_[s].get()}, &pp, region_rows, 1, 3);
        stream_.dispatch(cm_, {dec_[s].get(), rows_[s].get()}, &pp, region_rows, 1,
                         skip_aim_ ? 1 : 2);
    }

    int w_, h_, bpc_, bytes_;
    bool skip_scale0_, skip_aim_;
    std::uint64_t gain_m_ = 0;
    int gain_s_ = 0;
    std::uint32_t cos_sq_bits_ = 0;
    std::int32_t dis_base_ = 0;
    adm::AdmDeviceParams p_[adm::kScales];
    std::unique_ptr<Buffer> pics_, bands_[adm::kScales], dec_[adm::kScales], rows_[adm::kScales];
    Stream stream_;
    const Kernel& dwt_;
    const Kernel& decouple_;
    const Kernel& cm_;
    const Kernel& den_;
};

}  // namespace

std::shared_ptr<device::FrameStore> make_frame_store(unsigned device, const FrameGeometry& g,
                                                     unsigned slots) {
    return std::make_shared<VulkanFrameStore>(device, g.width, g.height, g.bpc, slots);
}

std::unique_ptr<AdmTwin> make_adm_twin(unsigned device, int w, int h, int bpc,
                                       const adm::AdmDeviceParams scales[adm::kScales],
                                       double gain_limit, bool skip_scale0, bool skip_aim,
                                       std::shared_ptr<device::FrameStore> frames) {
    return std::make_unique<VulkanAdm>(device, w, h, bpc, scales, gain_limit, skip_scale0, skip_aim,
                                       std::move(frames));
}

std::unique_ptr<MotionTwin> make_motion_twin(unsigned device, int w, int h, int bpc,
                                             std::shared_ptr<device::FrameStore> frames) {
    return std::make_unique<VulkanMotion>(device, w, h, bpc, std::move(frames));
}

std::unique_ptr<VifTwin> make_vif_twin(unsigned device, int w, int h, int bpc,
                                       std::shared_ptr<device::FrameStore> frames) {
    return std::make_unique<VulkanVif>(device, w, h, bpc, std::move(frames));
}


void gain_products_on_device(unsigned device, const std::int32_t* rst, std::size_t n,
                             std::uint64_t m, int s, std::int64_t* out) {
    auto ctx = context_for(device);
    const Kernel& k = ctx->kernel("adm_gain_limit", 2, sizeof(adm::AdmGainPush));
    Buffer in(ctx, n * 4), products(ctx, n * 8);
    std::memcpy(in.data(), rst, n * 4);
    Stream stream(ctx);
    const adm::AdmGainPush params{static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(m >> 32), s,
                            static_cast<std::int32_t>(n)};
    stream.begin();
    stream.dispatch(k, {&in, &products}, &params, groups(static_cast<std::uint32_t>(n), 64));
    stream.submit_and_wait();
    std::memcpy(out, products.data(), n * 8);
}

}  // namespace vmafpp::vk
