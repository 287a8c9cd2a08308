// CAMBI's CUDA twin (cambi::CambiTwin), the Vulkan twin's stages
// (vk_cambi_twin.cpp) as launches on one stream: the 10-bit load (with the
// sample check), the anti-dithering below a 10-bit encode, the spatial mask,
// and per scale the decimation of picture and mask, the mode filter and the
// c-values (one thread per column walks every row: no loop limit here), then
// one readback of the five scales' c-values, which the host pools with the
// scalar's code (cambi.cpp). Each thread calls one function of
// cambi/cambi_cuda_math.cuh, which the host test runs over the same grid.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cambi/cambi_cuda_math.cuh"
#include "cuda/cuda_context.cuh"
#include "cuda/cuda_twins.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::cuda {

namespace {

using cambi::kScales;

// The grid spans the larger of the input and output sizes, so the check
// sees every input sample (the first above the maximum by atomicMin).
template <class T>
__global__ void cambi_load(const T* src, int in_w, int in_h, const std::int32_t* cols,
                           const std::int32_t* rows, int w, int h, int stride, int bpc, int check_max,
                           std::uint16_t* image, unsigned* first_bad) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (check_max && x < in_w && y < in_h) {
        const std::int64_t i = static_cast<std::int64_t>(y) * in_w + x;
        if (static_cast<std::uint32_t>(src[i]) > (1u << bpc) - 1u)
            atomicMin(first_bad, static_cast<unsigned>(i));
    }
    if (x < w && y < h)
        image[static_cast<std::int64_t>(y) * stride + x] =
            cambi::dev::load_sample(src, in_w, cols, rows, bpc, x, y);
}

__global__ void cambi_dither(const std::uint16_t* src, int w, int h, int stride, std::uint16_t* dst) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x < w) dst[static_cast<std::int64_t>(y) * stride + x] = cambi::dev::dither_sample(src, w, h, stride, x, y);
}

__global__ void cambi_mask(const std::uint16_t* image, int w, int h, int stride, int threshold,
                           std::uint16_t* mask) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x < w)
        mask[static_cast<std::int64_t>(y) * stride + x] =
            cambi::dev::mask_sample(image, w, h, stride, threshold, x, y);
}

// Picture and mask at once: out[y][x] = in[2y][2x] for the new w x h.
__global__ void cambi_decimate(const std::uint16_t* image, const std::uint16_t* mask, int w,
                               int stride, std::uint16_t* image_out, std::uint16_t* mask_out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x >= w) return;
    const std::int64_t from = 2 * (static_cast<std::int64_t>(y) * stride + x);
    image_out[static_cast<std::int64_t>(y) * stride + x] = image[from];
    mask_out[static_cast<std::int64_t>(y) * stride + x] = mask[from];
}

__global__ void cambi_mode(const std::uint16_t* src, int w, int h, int stride, std::uint16_t* dst) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x < w) dst[static_cast<std::int64_t>(y) * stride + x] = cambi::dev::mode_sample(src, w, h, stride, x, y);
}

__global__ void cambi_c_values(const std::uint16_t* image, const std::uint16_t* mask,
                               cambi::dev::CValueParams p, const std::int32_t* tables,
                               const float* recip, std::uint32_t* hist, float* out) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (x < p.w)
        cambi::dev::c_values_column(image, mask, p, tables, tables + p.num_diffs, recip, hist, out, x);
}

class CudaCambi final : public cambi::CambiTwin {
public:
    CudaCambi(unsigned device, int alloc_w, int alloc_h, const cambi::ContrastSetup& setup)
        : device_(device), alloc_w_(alloc_w), alloc_h_(alloc_h), setup_(setup) {
        select_device(device_);
        stream_ = std::make_unique<Stream>();
        const std::size_t pixels = static_cast<std::size_t>(alloc_w) * alloc_h;
        for (auto& b : image_) b = DeviceArray<std::uint16_t>(pixels);
        for (auto& b : masks_) b = DeviceArray<std::uint16_t>(pixels);
        hist_ = DeviceArray<std::uint32_t>(
            static_cast<std::size_t>(setup.band_size + setup.num_diffs + 1) * alloc_w);
        std::vector<std::int32_t> tables(2 * static_cast<std::size_t>(setup.num_diffs));
        for (int d = 0; d < setup.num_diffs; ++d) {
            tables[static_cast<std::size_t>(d)] = setup.tvi[d];
            tables[static_cast<std::size_t>(setup.num_diffs + d)] = setup.weights[d];
        }
        tables_ = DeviceArray<std::int32_t>(tables.size());
        check(cudaMemcpy(tables_.get(), tables.data(), tables.size() * 4, cudaMemcpyHostToDevice), "upload");
        recip_ = DeviceArray<float>(cambi::kReciprocalCount);
        check(cudaMemcpy(recip_.get(), cambi::reciprocal_table(), cambi::kReciprocalCount * 4,
                         cudaMemcpyHostToDevice),
              "upload");
        first_bad_ = DeviceArray<unsigned>(1);
        first_bad_host_ = PinnedArray<unsigned>(1);
        int w = alloc_w, h = alloc_h;
        std::size_t total = 0;
        for (int s = 0; s < kScales; ++s) {
            // The largest each scale can be (scale 0 without the speed-up).
            c_base_[s] = total;
            total += static_cast<std::size_t>(w) * h;
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        c_ = DeviceArray<float>(total);
        c_host_ = PinnedArray<float>(total);
    }

    void run(const cambi::CambiPicture& p) override {
        if (p.w > alloc_w_ || p.h > alloc_h_ || p.in_w <= 0 || p.in_h <= 0)
            throw Error("internal error: a picture larger than the cambi twin was made for");
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        const cudaStream_t st = stream_->get();
        upload(p);
        const int check_max = p.bpc != 8 && p.bpc != 16;
        // Every byte 0xff: cambi::kNoBadSample.
        check(cudaMemsetAsync(first_bad_.get(), 0xff, 4, st), "cudaMemsetAsync");
        const int stride = alloc_w_;
        int w = p.w, h = p.h;
        const dim3 load_grid(groups(std::max(w, p.in_w), kBlock), std::max(h, p.in_h));
        if (p.bpc > 8)
            cambi_load<<<load_grid, kBlock, 0, st>>>(reinterpret_cast<const std::uint16_t*>(in_.get()),
                                                     p.in_w, p.in_h, cols_.get(), rows_.get(), w, h,
                                                     stride, p.bpc, check_max, image_[0].get(),
                                                     first_bad_.get());
        else
            cambi_load<<<load_grid, kBlock, 0, st>>>(in_.get(), p.in_w, p.in_h, cols_.get(),
                                                     rows_.get(), w, h, stride, p.bpc, check_max,
                                                     image_[0].get(), first_bad_.get());
        int cur = 0;
        if (p.dither) {
            cambi_dither<<<dim3(groups(w, kBlock), h), kBlock, 0, st>>>(image_[0].get(), w, h, stride,
                                                                       image_[1].get());
            cur = 1;
        }
        cambi_mask<<<dim3(groups(w, kBlock), h), kBlock, 0, st>>>(image_[cur].get(), w, h, stride,
                                                                 p.mask_threshold, masks_[0].get());
        int mcur = 0;
        for (int s = 0; s < kScales; ++s) {
            if (s > 0 || p.speedup) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
                cambi_decimate<<<dim3(groups(w, kBlock), h), kBlock, 0, st>>>(
                    image_[cur].get(), masks_[mcur].get(), w, stride, image_[1 - cur].get(),
                    masks_[1 - mcur].get());
                cur = 1 - cur;
                mcur = 1 - mcur;
            }
            cambi_mode<<<dim3(groups(w, kBlock), h), kBlock, 0, st>>>(image_[cur].get(), w, h, stride,
                                                                     image_[1 - cur].get());
            cur = 1 - cur;
            const cambi::dev::CValueParams cp{w, h, stride, p.window >> 1, setup_.band_base,
                                              setup_.band_size, setup_.num_diffs, setup_.vlt_luma};
            cambi_c_values<<<groups(w, kBlock), kBlock, 0, st>>>(image_[cur].get(), masks_[mcur].get(),
                                                                 cp, tables_.get(), recip_.get(),
                                                                 hist_.get(), c_.get() + c_base_[s]);
            sizes_[s] = static_cast<std::size_t>(w) * h;
        }
        for (int s = 0; s < kScales; ++s)
            check(cudaMemcpyAsync(c_host_.get() + c_base_[s], c_.get() + c_base_[s], sizes_[s] * 4,
                                  cudaMemcpyDeviceToHost, st),
                  "readback");
        check(cudaMemcpyAsync(first_bad_host_.get(), first_bad_.get(), 4, cudaMemcpyDeviceToHost, st),
              "readback");
        stream_->sync("cambi");
        report_bad_sample(p);
    }

    float* c_values(int s) override { return c_host_.get() + c_base_[s]; }

private:
    // The picture packed (rows in_w samples apart) and, when the sizes
    // change, the resize tables.
    void upload(const cambi::CambiPicture& p) {
        const int bytes = p.bpc > 8 ? 2 : 1;
        const std::size_t row = static_cast<std::size_t>(p.in_w) * bytes;
        const std::size_t need = row * p.in_h;
        if (in_bytes_ < need) {
            in_host_ = PinnedArray<unsigned char>(need);
            in_ = DeviceArray<unsigned char>(need);
            in_bytes_ = need;
        }
        pack_rows(in_host_.get(), p.luma, p.stride, row, p.in_h);
        check(cudaMemcpyAsync(in_.get(), in_host_.get(), need, cudaMemcpyHostToDevice, stream_->get()),
              "upload");
        if (p.in_w != tables_in_w_ || p.in_h != tables_in_h_ || p.w != tables_w_ || p.h != tables_h_) {
            const std::vector<std::int32_t> cols = cambi::nearest_positions(p.in_w, p.w);
            const std::vector<std::int32_t> rows = cambi::nearest_positions(p.in_h, p.h);
            cols_ = DeviceArray<std::int32_t>(cols.size());
            rows_ = DeviceArray<std::int32_t>(rows.size());
            check(cudaMemcpy(cols_.get(), cols.data(), cols.size() * 4, cudaMemcpyHostToDevice), "upload");
            check(cudaMemcpy(rows_.get(), rows.data(), rows.size() * 4, cudaMemcpyHostToDevice), "upload");
            tables_in_w_ = p.in_w, tables_in_h_ = p.in_h, tables_w_ = p.w, tables_h_ = p.h;
        }
    }

    // The scalar's error for the first sample above the bit depth's maximum.
    void report_bad_sample(const cambi::CambiPicture& p) const {
        cambi::throw_if_bad_sample(p, *first_bad_host_.get());
    }

    unsigned device_;
    int alloc_w_, alloc_h_;
    cambi::ContrastSetup setup_;  // its tables are copied to tables_
    DeviceArray<std::uint16_t> image_[2], masks_[2];
    DeviceArray<std::uint32_t> hist_;
    DeviceArray<std::int32_t> tables_, cols_, rows_;
    DeviceArray<float> recip_, c_;
    DeviceArray<unsigned> first_bad_;
    PinnedArray<unsigned> first_bad_host_;
    PinnedArray<float> c_host_;
    PinnedArray<unsigned char> in_host_;
    DeviceArray<unsigned char> in_;
    std::size_t in_bytes_ = 0;
    std::size_t c_base_[kScales] = {}, sizes_[kScales] = {};
    int tables_in_w_ = -1, tables_in_h_ = -1, tables_w_ = -1, tables_h_ = -1;
    std::unique_ptr<Stream> stream_;  // last: destroyed first (Stream::~Stream)
};

}  // namespace

std::unique_ptr<cambi::CambiTwin> make_cambi_twin(unsigned device, int alloc_w, int alloc_h,
                                                   const cambi::ContrastSetup& setup) {
    return std::make_unique<CudaCambi>(device, alloc_w, alloc_h, setup);
}

}  // namespace vmafpp::cuda
