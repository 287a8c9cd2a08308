// The CUDA twins (cuda_twins.hpp). Each kernel maps its threads onto the
// grid of one stage and calls that stage's per-thread function; the row
// sums are reduced per block in uint64 / uint32 additions, which wrap and
// are associative, so any order gives the scalar's sums.
#include "cuda/cuda_twins.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "adm/adm_cuda_math.cuh"
#include "motion/motion_cuda_math.cuh"
#include "vif/vif_cuda_math.cuh"
#include "vif/vif_kernels.hpp"
#include "cuda/cuda_context.cuh"
#include "cuda/cuda_frame_store.cuh"
#include "vmafpp/error.hpp"

namespace vmafpp::cuda {

namespace {

// ---------------------------------------------------------------------------
// Kernels: block (x = column group), grid y = row.

template <class T>
__global__ void motion_rows(const T* prev, const T* cur, int w, int h, int bpc,
                            std::uint32_t* rows) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    const std::uint32_t v = x < w ? motion::dev::abs_filtered(prev, cur, w, h, bpc, x, y) : 0u;
    const std::uint32_t sum = block_sum(v);
    if (threadIdx.x == 0) atomicAdd(rows + y, sum);
}

template <class T>
__global__ void vif_stat_v(const T* ref, const T* dis, int w, int h, int scale, int shift_mu,
                           int shift_sq, std::uint32_t* mom) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x < w)
        vif::dev::stat_vertical(ref, dis, w, h, scale, shift_mu, shift_sq, x, blockIdx.y, mom);
}

__global__ void vif_stat_h(const std::uint32_t* mom, int w, int h, int scale, std::int32_t* sigma) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x < w) vif::dev::stat_horizontal(mom, w, h, scale, x, blockIdx.y, sigma);
}

// vif_accumulate's sums of one scale's n samples into sums[0..3]
// (num_log, den_log, num_non_log, den_non_log), added modulo 2^64: the
// integer total whatever the order.
__global__ void vif_accumulate(const std::int32_t* sigma, std::int64_t n,
                               const std::uint16_t* table, double gain_limit,
                               unsigned long long* sums) {
    std::int64_t acc[4] = {0, 0, 0, 0};
    const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += step)
        vif::vif_accumulate_sample(sigma[i], sigma[n + i], sigma[2 * n + i], table, gain_limit,
                                    acc);
    for (int k = 0; k < 4; ++k) {
        const unsigned long long total = block_sum(static_cast<unsigned long long>(acc[k]));
        if (threadIdx.x == 0) atomicAdd(sums + k, total);
    }
}

template <class T>
__global__ void vif_reduce_v(const T* ref, const T* dis, int w, int h, int scale, int shift,
                             int out_h, std::uint32_t* conv) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x < w) vif::dev::reduce_vertical(ref, dis, w, h, scale, shift, out_h, x, blockIdx.y, conv);
}

__global__ void vif_reduce_h(const std::uint32_t* conv, int w, int out_w, int out_h, int scale,
                             std::uint16_t* dst) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (j < out_w) vif::dev::reduce_horizontal(conv, w, out_w, out_h, scale, j, blockIdx.y, dst);
}

// grid z = picture: its source and its four bands.
template <class T>
__global__ void adm_dwt(const T* src0, const T* src1, int in_w, int in_h, int scale, int bpc,
                        int out_w, int out_h, std::int32_t* bands) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y);
    if (j >= out_w) return;
    std::int32_t v[4];
    adm::dev::dwt_sample(blockIdx.z == 0 ? src0 : src1, in_w, in_h, scale, bpc, i, j, v);
    const std::int64_t n = static_cast<std::int64_t>(out_w) * out_h;
    std::int32_t* out = bands + blockIdx.z * 4 * n + static_cast<std::int64_t>(i) * out_w + j;
    for (int b = 0; b < 4; ++b) out[b * n] = v[b];
}

__global__ void adm_decouple(const std::int32_t* bands, std::int64_t n, int scale, double gain,
                             float cos_sq, std::int32_t* dec) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) adm::dev::decouple_sample(bands, n, scale, i, gain, cos_sq, dec);
}

// One block per region row (x) and orientation (y).
__global__ void adm_den(adm::dev::PoolParams p, const std::int32_t* bands, std::int64_t* rows) {
    const int y = p.y0 + static_cast<int>(blockIdx.x);
    const int t = static_cast<int>(blockIdx.y);
    std::uint64_t sum = 0;
    for (int x = p.x0 + static_cast<int>(threadIdx.x); x < p.x1; x += kBlock)
        sum += adm::dev::den_cube(p, bands, t, x, y);
    sum = block_sum(sum);
    if (threadIdx.x == 0) rows[t * (p.y1 - p.y0) + (y - p.y0)] = static_cast<std::int64_t>(sum);
}

// One block per region row (x) and pass (y: 0 DLM, 1 AIM).
__global__ void adm_cm(adm::dev::PoolParams p, const std::int32_t* dec, std::int64_t* rows) {
    const int y = p.y0 + static_cast<int>(blockIdx.x);
    const int pass = static_cast<int>(blockIdx.y);
    std::uint64_t sum[3] = {0, 0, 0};
    for (int x = p.x0 + static_cast<int>(threadIdx.x); x < p.x1; x += kBlock) {
        std::int64_t c[3];
        adm::dev::cm_cubes(p, dec, pass, x, y, c);
        for (int t = 0; t < 3; ++t) sum[t] += static_cast<std::uint64_t>(c[t]);
    }
    const int rh = p.y1 - p.y0;
    for (int t = 0; t < 3; ++t) {
        const std::uint64_t total = block_sum(sum[t]);
        if (threadIdx.x == 0)
            rows[((1 + pass) * 3 + t) * rh + (y - p.y0)] = static_cast<std::int64_t>(total);
    }
}

__global__ void gain_products(const std::int32_t* rst, std::int64_t n, double gain,
                              std::int64_t* out) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = adm::gain_product_double(rst[i], gain);
}

// ---------------------------------------------------------------------------
// Twins

class CudaMotion final : public motion::MotionTwin {
public:
    CudaMotion(unsigned device, int w, int h, int bpc, std::shared_ptr<device::FrameStore> frames)
        : device_(device), layout_(w, h, bpc), own_(layout_) {
        select_device(device_);
        store_ = cuda_store(frames, device, w, h, bpc);
        stream_ = std::make_unique<Stream>();
        rows_host_ = PinnedArray<std::uint32_t>(h);
        rows_ = DeviceArray<std::uint32_t>(h);
    }

    std::uint64_t sad(const void* prev, std::ptrdiff_t prev_stride, const void* cur,
                      std::ptrdiff_t cur_stride) override {
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        const auto t0 = Clock::now();
        // prev where a pair has its reference, cur where it has its distorted.
        const unsigned char* pics = own_.upload(prev, prev_stride, cur, cur_stride, stream_->get());
        times.upload += seconds_since(t0);
        return compute(pics, pics + layout_.dis);
    }

    std::uint64_t sad_of_frames(unsigned prev, unsigned cur) override {
        if (!store_) return MotionTwin::sad_of_frames(prev, cur);
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        const cudaStream_t s = stream_->get();
        return compute(store_->frame_on(prev, s), store_->frame_on(cur, s));
    }

private:
    // The SAD of the two planes (device pointers), once the work queued on
    // the stream before (their uploads) is done.
    std::uint64_t compute(const unsigned char* prev, const unsigned char* cur) {
        auto t0 = Clock::now();
        const int w = layout_.w, h = layout_.h, bpc = layout_.bpc;
        const cudaStream_t s = stream_->get();
        check(cudaMemsetAsync(rows_.get(), 0, rows_.bytes(), s), "cudaMemsetAsync");
        const dim3 grid(groups(w, kBlock), h);
        if (layout_.sample_bytes == 1)
            motion_rows<<<grid, kBlock, 0, s>>>(prev, cur, w, h, bpc, rows_.get());
        else
            motion_rows<<<grid, kBlock, 0, s>>>(reinterpret_cast<const std::uint16_t*>(prev),
                                                reinterpret_cast<const std::uint16_t*>(cur), w, h,
                                                bpc, rows_.get());
        check(cudaMemcpyAsync(rows_host_.get(), rows_.get(), rows_.bytes(), cudaMemcpyDeviceToHost,
                              s),
              "readback");
        stream_->sync("motion");
        times.compute += seconds_since(t0);

        t0 = Clock::now();
        // Row by row in uint64, as the scalar adds its uint32 row sums.
        std::uint64_t total = 0;
        for (int i = 0; i < h; ++i) total += rows_host_.get()[i];
        times.readback += seconds_since(t0);
        ++times.frames;
        return total;
    }

    unsigned device_;
    PairLayout layout_;
    std::shared_ptr<CudaFrameStore> store_;
    OwnPictures own_;  // sad()'s pictures
    PinnedArray<std::uint32_t> rows_host_;
    DeviceArray<std::uint32_t> rows_;
    std::unique_ptr<Stream> stream_;  // last: destroyed first (Stream::~Stream)
};

constexpr int kVifScales = 4;

class CudaVif final : public vif::VifTwin {
public:
    CudaVif(unsigned device, int w, int h, int bpc, std::optional<double> accumulate_gain_limit,
            std::shared_ptr<device::FrameStore> frames)
        : device_(device),
          bpc_(bpc),
          bytes_(bpc > 8 ? 2 : 1),
          layout_(w, h, bpc),
          own_(layout_),
          gain_(accumulate_gain_limit) {
        select_device(device_);
        store_ = cuda_store(frames, device, w, h, bpc);
        stream_ = std::make_unique<Stream>();
        w_[0] = w;
        h_[0] = h;
        std::size_t sigma_n = 0;
        for (int s = 0; s < kVifScales; ++s) {
            if (s > 0) w_[s] = w_[s - 1] / 2, h_[s] = h_[s - 1] / 2;
            sigma_base_[s] = sigma_n;
            sigma_n += 3 * static_cast<std::size_t>(w_[s]) * h_[s];
        }
        const std::size_t n0 = static_cast<std::size_t>(w) * h;
        mom_ = DeviceArray<std::uint32_t>(5 * n0);
        conv_ = DeviceArray<std::uint32_t>(2 * static_cast<std::size_t>(w) * h_[1]);
        sigma_ = DeviceArray<std::int32_t>(sigma_n);
        // Pinned room for the sigma planes only where the host accumulates them.
        if (!gain_) sigma_host_ = PinnedArray<std::int32_t>(sigma_n);
        for (int s = 1; s < kVifScales; ++s)
            scaled_[s] = DeviceArray<std::uint16_t>(2 * static_cast<std::size_t>(w_[s]) * h_[s]);
        if (gain_) {
            constexpr std::size_t kTable = 32769;
            log2_ = DeviceArray<std::uint16_t>(kTable);
            check(
                cudaMemcpy(log2_.get(), vif::vif_log2_table(), kTable * 2, cudaMemcpyHostToDevice),
                "upload");
            sums_ = DeviceArray<unsigned long long>(4 * kVifScales);
            sums_host_ = PinnedArray<unsigned long long>(4 * kVifScales);
        }
    }

    void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis, std::ptrdiff_t dis_stride,
             bool skip_scale0) override {
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        const auto t0 = Clock::now();
        const unsigned char* pics = own_.upload(ref, ref_stride, dis, dis_stride, stream_->get());
        times.upload += seconds_since(t0);
        compute(pics, skip_scale0);
    }

    void run_frame(unsigned frame, bool skip_scale0) override {
        if (!store_) return VifTwin::run_frame(frame, skip_scale0);
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        compute(store_->frame_on(frame, stream_->get()), skip_scale0);
    }

    const std::int32_t* sigma(int s) const override {
        return sigma_host_.get() ? sigma_host_.get() + sigma_base_[s] : nullptr;
    }

    bool sums(int s, vif::VifSums* out) const override {
        if (!gain_) return false;
        const unsigned long long* v = sums_host_.get() + 4 * s;
        out->num_log = static_cast<std::int64_t>(v[0]);
        out->den_log = static_cast<std::int64_t>(v[1]);
        out->num_non_log = static_cast<std::int64_t>(v[2]);
        out->den_non_log = static_cast<std::int64_t>(v[3]);
        return true;
    }

private:
    // Every scale of the pair at `pics` (PairLayout, on the device), once the
    // work queued on the stream before (its upload) is done; then the sums
    // or the sigma planes are read back.
    void compute(const unsigned char* pics, bool skip_scale0) {
        const auto t0 = Clock::now();
        if (gain_)
            check(cudaMemsetAsync(sums_.get(), 0, sums_.bytes(), stream_->get()),
                  "cudaMemsetAsync");
        if (bytes_ == 1)
            scale(0, pics, pics + layout_.dis, bpc_, skip_scale0);
        else
            scale(0, reinterpret_cast<const std::uint16_t*>(pics),
                  reinterpret_cast<const std::uint16_t*>(pics + layout_.dis), bpc_, skip_scale0);
        for (int s = 1; s < kVifScales; ++s) {
            const std::size_t n = static_cast<std::size_t>(w_[s]) * h_[s];
            scale(s, scaled_[s].get(), scaled_[s].get() + n, 16, false);
        }
        if (gain_) {
            check(cudaMemcpyAsync(sums_host_.get(), sums_.get(), sums_.bytes(),
                                  cudaMemcpyDeviceToHost, stream_->get()),
                  "readback");
        } else {
            const std::size_t first = skip_scale0 ? sigma_base_[1] : 0;
            check(
                cudaMemcpyAsync(sigma_host_.get() + first, sigma_.get() + first,
                                sigma_.bytes() - first * 4, cudaMemcpyDeviceToHost, stream_->get()),
                "readback");
        }
        stream_->sync("vif");
        times.compute += seconds_since(t0);
        ++times.frames;
    }

    // Scale s's statistics (unless skipped) and its reduction to s + 1.
    template <class T>
    void scale(int s, const T* ref, const T* dis, int shift, bool skip) {
        const cudaStream_t st = stream_->get();
        const int w = w_[s], h = h_[s];
        if (!skip) {
            const dim3 grid(groups(w, kBlock), h);
            vif_stat_v<<<grid, kBlock, 0, st>>>(ref, dis, w, h, s, shift,
                                                s == 0 ? 2 * (bpc_ - 8) : 16, mom_.get());
            vif_stat_h<<<grid, kBlock, 0, st>>>(mom_.get(), w, h, s, sigma_.get() + sigma_base_[s]);
            if (gain_) {
                const std::int64_t n = static_cast<std::int64_t>(w) * h;
                const unsigned blocks = groups(n, kBlock) < 1024 ? groups(n, kBlock) : 1024;
                vif_accumulate<<<blocks, kBlock, 0, st>>>(sigma_.get() + sigma_base_[s], n,
                                                          log2_.get(), *gain_, sums_.get() + 4 * s);
            }
        }
        if (s + 1 == kVifScales) return;
        const int out_w = w_[s + 1], out_h = h_[s + 1];
        vif_reduce_v<<<dim3(groups(w, kBlock), out_h), kBlock, 0, st>>>(ref, dis, w, h, s, shift,
                                                                        out_h, conv_.get());
        vif_reduce_h<<<dim3(groups(out_w, kBlock), out_h), kBlock, 0, st>>>(
            conv_.get(), w, out_w, out_h, s, scaled_[s + 1].get());
    }

    unsigned device_;
    int bpc_, bytes_;
    PairLayout layout_;
    std::shared_ptr<CudaFrameStore> store_;
    OwnPictures own_;  // run()'s pictures
    int w_[kVifScales] = {}, h_[kVifScales] = {};
    std::size_t sigma_base_[kVifScales] = {};
    DeviceArray<std::uint32_t> mom_, conv_;
    DeviceArray<std::int32_t> sigma_;
    PinnedArray<std::int32_t> sigma_host_;
    DeviceArray<std::uint16_t> scaled_[kVifScales];
    std::optional<double> gain_;  // accumulate on the device with this gain limit
    DeviceArray<std::uint16_t> log2_;
    DeviceArray<unsigned long long> sums_;
    PinnedArray<unsigned long long> sums_host_;
    std::unique_ptr<Stream> stream_;  // last: destroyed first (Stream::~Stream)
};

class CudaAdm final : public adm::AdmTwin {
public:
    CudaAdm(unsigned device, int w, int h, int bpc, const adm::AdmDeviceParams scales[adm::kScales],
            double gain_limit, bool skip_scale0, bool skip_aim,
            std::shared_ptr<device::FrameStore> frames)
        : device_(device),
          w_(w),
          h_(h),
          bpc_(bpc),
          bytes_(bpc > 8 ? 2 : 1),
          gain_(gain_limit),
          skip_scale0_(skip_scale0),
          skip_aim_(skip_aim),
          layout_(w, h, bpc),
          own_(layout_) {
        select_device(device_);
        store_ = cuda_store(frames, device, w, h, bpc);
        stream_ = std::make_unique<Stream>();
        // The float the scalar angle test uses: cos(1 deg)^2 in double, then float.
        cos_sq_ = static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0));
        std::size_t rows_n = 0;
        for (int s = 0; s < adm::kScales; ++s) {
            q_[s] = scales[s];
            p_[s] = adm::pool_push(q_[s], s);
            const std::size_t n = static_cast<std::size_t>(q_[s].bw) * q_[s].bh;
            bands_[s] = DeviceArray<std::int32_t>(8 * n);
            dec_[s] = DeviceArray<std::int32_t>(6 * n);
            rows_base_[s] = rows_n;
            rows_n += 9 * static_cast<std::size_t>(q_[s].region.height());
        }
        rows_ = DeviceArray<std::int64_t>(rows_n);
        rows_host_ = PinnedArray<std::int64_t>(rows_n);
        // Rows a skipped stage never writes read as 0.
        check(cudaMemsetAsync(rows_.get(), 0, rows_.bytes(), stream_->get()), "cudaMemsetAsync");
        stream_->sync("cudaMemsetAsync");
    }

    void run(const void* ref, std::ptrdiff_t ref_stride, const void* dis,
             std::ptrdiff_t dis_stride) override {
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        const auto t0 = Clock::now();
        const unsigned char* pics = own_.upload(ref, ref_stride, dis, dis_stride, stream_->get());
        times.upload += seconds_since(t0);
        compute(pics);
    }

    void run_frame(unsigned frame) override {
        if (!store_) return AdmTwin::run_frame(frame);
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        compute(store_->frame_on(frame, stream_->get()));
    }

    const std::int64_t* rows(int s) const override { return rows_host_.get() + rows_base_[s]; }

    void run_on_bands(int s, const std::int32_t* const ref_hvd[3],
                      const std::int32_t* const dis_hvd[3]) override {
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        const std::size_t n = static_cast<std::size_t>(q_[s].bw) * q_[s].bh;
        const cudaStream_t st = stream_->get();
        for (int t = 0; t < 3; ++t) {
            check(cudaMemcpyAsync(bands_[s].get() + (1 + t) * n, ref_hvd[t], n * 4,
                                  cudaMemcpyHostToDevice, st),
                  "upload");
            check(cudaMemcpyAsync(bands_[s].get() + (5 + t) * n, dis_hvd[t], n * 4,
                                  cudaMemcpyHostToDevice, st),
                  "upload");
        }
        pool(s);
        check(cudaMemcpyAsync(rows_host_.get(), rows_.get(), rows_.bytes(), cudaMemcpyDeviceToHost,
                              st),
              "readback");
        stream_->sync("adm");
    }

private:
    // Every scale of the pair at `pics` (PairLayout, on the device), once the
    // work queued on the stream before (its upload) is done; then the row
    // sums are read back.
    void compute(const unsigned char* pics) {
        const auto t0 = Clock::now();
        const cudaStream_t st = stream_->get();
        const unsigned char* ref = pics;
        const unsigned char* dis = pics + layout_.dis;
        for (int s = 0; s < adm::kScales; ++s) {
            const adm::AdmDeviceParams& q = q_[s];
            const dim3 grid(groups(q.bw, kBlock), q.bh, 2);
            if (s == 0 && bytes_ == 1) {
                adm_dwt<<<grid, kBlock, 0, st>>>(ref, dis, w_, h_, 0, bpc_, q.bw, q.bh,
                                                 bands_[0].get());
            } else if (s == 0) {
                adm_dwt<<<grid, kBlock, 0, st>>>(reinterpret_cast<const std::uint16_t*>(ref),
                                                 reinterpret_cast<const std::uint16_t*>(dis), w_,
                                                 h_, 0, bpc_, q.bw, q.bh, bands_[0].get());
            } else {
                // The previous scale's approximation a of each picture.
                const int in_w = q_[s - 1].bw, in_h = q_[s - 1].bh;
                const std::int64_t n_in = static_cast<std::int64_t>(in_w) * in_h;
                adm_dwt<<<grid, kBlock, 0, st>>>(bands_[s - 1].get(),
                                                 bands_[s - 1].get() + 4 * n_in, in_w, in_h, s,
                                                 bpc_, q.bw, q.bh, bands_[s].get());
            }
            if (s == 0 && skip_scale0_) continue;
            pool(s);
        }
        check(cudaMemcpyAsync(rows_host_.get(), rows_.get(), rows_.bytes(), cudaMemcpyDeviceToHost,
                              st),
              "readback");
        stream_->sync("adm");
        times.compute += seconds_since(t0);
        ++times.frames;
    }

    // Decouple, denominator and masking of scale s, from its bands.
    void pool(int s) {
        const cudaStream_t st = stream_->get();
        const adm::dev::PoolParams& p = p_[s];
        const std::int64_t n = static_cast<std::int64_t>(p.w) * p.h;
        adm_decouple<<<groups(n, kBlock), kBlock, 0, st>>>(bands_[s].get(), n, s, gain_, cos_sq_,
                                                           dec_[s].get());
        const unsigned rh = static_cast<unsigned>(p.y1 - p.y0);
        std::int64_t* rows = rows_.get() + rows_base_[s];
        adm_den<<<dim3(rh, 3), kBlock, 0, st>>>(p, bands_[s].get(), rows);
        adm_cm<<<dim3(rh, skip_aim_ ? 1 : 2), kBlock, 0, st>>>(p, dec_[s].get(), rows);
    }

    unsigned device_;
    int w_, h_, bpc_, bytes_;
    double gain_;
    bool skip_scale0_, skip_aim_;
    float cos_sq_ = 0;
    adm::AdmDeviceParams q_[adm::kScales];
    adm::dev::PoolParams p_[adm::kScales];
    std::size_t rows_base_[adm::kScales] = {};
    PairLayout layout_;
    std::shared_ptr<CudaFrameStore> store_;
    OwnPictures own_;  // run()'s pictures
    DeviceArray<std::int32_t> bands_[adm::kScales], dec_[adm::kScales];
    DeviceArray<std::int64_t> rows_;
    PinnedArray<std::int64_t> rows_host_;
    std::unique_ptr<Stream> stream_;  // last: destroyed first (Stream::~Stream)
};

}  // namespace

std::unique_ptr<motion::MotionTwin> make_motion_twin(unsigned device, int w, int h, int bpc,
                                                     std::shared_ptr<device::FrameStore> frames) {
    return std::make_unique<CudaMotion>(device, w, h, bpc, std::move(frames));
}

std::unique_ptr<vif::VifTwin> make_vif_twin(unsigned device, int w, int h, int bpc,
                                               std::optional<double> accumulate_gain_limit,
                                               std::shared_ptr<device::FrameStore> frames) {
    return std::make_unique<CudaVif>(device, w, h, bpc, accumulate_gain_limit, std::move(frames));
}

std::unique_ptr<adm::AdmTwin> make_adm_twin(unsigned device, int w, int h, int bpc,
                                               const adm::AdmDeviceParams scales[adm::kScales],
                                               double gain_limit, bool skip_scale0, bool skip_aim,
                                               std::shared_ptr<device::FrameStore> frames) {
    return std::make_unique<CudaAdm>(device, w, h, bpc, scales, gain_limit, skip_scale0, skip_aim,
                                     std::move(frames));
}

void gain_products_on_device(unsigned device, const std::int32_t* rst, std::size_t n, double gain,
                             std::int64_t* out) {
    select_device(device);
    const Stream stream;
    DeviceArray<std::int32_t> in(n);
    DeviceArray<std::int64_t> products(n);
    check(cudaMemcpyAsync(in.get(), rst, n * 4, cudaMemcpyHostToDevice, stream.get()), "upload");
    gain_products<<<groups(static_cast<long long>(n), kBlock), kBlock, 0, stream.get()>>>(
        in.get(), static_cast<std::int64_t>(n), gain, products.get());
    check(cudaMemcpyAsync(out, products.get(), n * 8, cudaMemcpyDeviceToHost, stream.get()),
          "readback");
    stream.sync("gain products");
}

}  // namespace vmafpp::cuda
