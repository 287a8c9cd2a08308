// SpEED's CUDA twin (speed::SpeedTwin): Gsm::prepare in five launches, as
// the Vulkan twin's five dispatches (vk_speed_twin.cpp): the float picture
// (prescaled; a bicubic or lanczos4 prescale in a sixth launch over the
// whole float picture, speed_scale), the vertical and horizontal antialias blur decimating by 16,
// then both passes of the local mean, the second subtracting it. Each thread
// calls one function of speed/speed_cuda_math.cuh, which the host test runs
// over the same grid (tests/support/cuda_grid_emulation.hpp). The host reads
// back the op_w x op_h picture (1/256 of the plane) and fits the model on it
// with the scalar's own code.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "cuda/cuda_context.cuh"
#include "cuda/cuda_twins.hpp"
#include "speed/speed_cuda_math.cuh"
#include "vmafpp/error.hpp"

namespace vmafpp::cuda {

namespace {

template <class T>
__global__ void speed_picture(const T* a, const T* b, int w, int sw, int sh, int bpc, int method,
                              const speed::dev::Tap* cols, const speed::dev::Tap* rows,
                              float* pic) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x >= sw || y >= sh) return;
    pic[static_cast<std::int64_t>(y) * sw + x] =
        speed::dev::picture_sample(a, b, w, bpc, method, cols, rows, x, y);
}

__global__ void speed_scale(const float* full, int w, int sw, int sh, int taps,
                            const speed::dev::KernelTap* cols, const speed::dev::KernelTap* rows,
                            float* pic) {
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y);
    if (x >= sw || y >= sh) return;
    pic[static_cast<std::int64_t>(y) * sw + x] =
        speed::dev::kernel_sample(full, w, taps, taps == 9, cols, rows, x, y);
}

__global__ void speed_vertical(const float* src, const float* f, int w, int h, int rows, int step,
                               int fw, float* dst) {
    const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y);
    if (j >= w || i >= rows) return;
    dst[static_cast<std::int64_t>(i) * w + j] = speed::dev::blur_vertical(src, f, w, h, step, fw, j, i);
}

// With a minuend, dst = minuend - the blur (the picture minus its local mean).
__global__ void speed_horizontal(const float* src, const float* f, int w, int n, int step, int fw,
                                 const float* minuend, float* dst) {
    const int o = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = static_cast<int>(blockIdx.y);
    if (o >= n) return;
    const float blur = speed::dev::blur_horizontal(src, f, w, step, fw, o, i);
    const std::int64_t at = static_cast<std::int64_t>(i) * n + o;
    dst[at] = minuend ? minuend[at] - blur : blur;
}

// dst becomes a device copy of data[0, n).
template <class T>
void upload_array(DeviceArray<T>& dst, const T* data, std::size_t n) {
    dst = DeviceArray<T>(n);
    if (n) check(cudaMemcpy(dst.get(), data, n * sizeof(T), cudaMemcpyHostToDevice), "upload");
}

class CudaSpeed final : public speed::SpeedTwin {
public:
    CudaSpeed(unsigned device, const speed::Gsm& gsm, bool difference)
        : device_(device),
          d_(gsm.dims()),
          difference_(difference),
          method_(speed_method(gsm)),
          taps_(kernel_taps(gsm)) {
        select_device(device_);
        stream_ = std::make_unique<Stream>();
        const std::vector<speed::dev::Tap> cols = speed_taps(d_.width, d_.scaled_w, method_);
        const std::vector<speed::dev::Tap> rows = speed_taps(d_.height, d_.scaled_h, method_);
        upload_array(cols_, cols.data(), cols.size());
        upload_array(rows_, rows.data(), rows.size());
        if (taps_) {
            const speed::ScaleMethod m = gsm.params().method;
            const std::vector<speed::dev::KernelTap> kc = speed::dev::kernel_taps(d_.width, d_.scaled_w, m);
            const std::vector<speed::dev::KernelTap> kr = speed::dev::kernel_taps(d_.height, d_.scaled_h, m);
            upload_array(kernel_cols_, kc.data(), kc.size());
            upload_array(kernel_rows_, kr.data(), kr.size());
            full_ = DeviceArray<float>(static_cast<std::size_t>(d_.width) * d_.height);
        }
        aa_width_ = gsm.aa_width();
        dc_width_ = gsm.dc_width();
        upload_array(aa_, gsm.aa_filter(), static_cast<std::size_t>(aa_width_));
        upload_array(dc_, gsm.dc_filter(), static_cast<std::size_t>(dc_width_));
        const std::size_t op = static_cast<std::size_t>(d_.op_w) * d_.op_h;
        pic_ = DeviceArray<float>(static_cast<std::size_t>(d_.scaled_w) * d_.scaled_h);
        mid_ = DeviceArray<float>(static_cast<std::size_t>(d_.scaled_w) * d_.op_h);
        low_ = DeviceArray<float>(op);
        blur_ = DeviceArray<float>(op);
        out_ = DeviceArray<float>(op);
        out_host_ = PinnedArray<float>(op);
    }

    void prepare(const speed::Gsm::Samples& s, float* low, std::ptrdiff_t stride) override {
        if (s.b && !difference_)
            throw Error("internal error: a difference given to a plane speed twin");
        check(cudaSetDevice(static_cast<int>(device_)), "cudaSetDevice");
        // Planes a and b as a picture pair (a twice without b), made for
        // the first call's depth.
        if (!layout_ || layout_->bpc != s.bpc) {
            layout_ = std::make_unique<PairLayout>(d_.width, d_.height, s.bpc);
            own_ = std::make_unique<OwnPictures>(*layout_);
        }
        const PairLayout& l = *layout_;
        const unsigned char* pics = own_->upload(s.a, s.a_stride, s.b ? s.b : s.a,
                                                 s.b ? s.b_stride : s.a_stride, stream_->get());
        if (l.sample_bytes == 1)
            launch(pics, s.b ? pics + l.dis : nullptr, s.bpc);
        else
            launch(reinterpret_cast<const std::uint16_t*>(pics),
                   s.b ? reinterpret_cast<const std::uint16_t*>(pics + l.dis) : nullptr, s.bpc);
        const std::size_t op = static_cast<std::size_t>(d_.op_w) * d_.op_h;
        check(cudaMemcpyAsync(out_host_.get(), out_.get(), op * 4, cudaMemcpyDeviceToHost,
                              stream_->get()),
              "readback");
        stream_->sync("speed");
        for (int y = 0; y < d_.op_h; ++y)
            std::memcpy(low + y * stride, out_host_.get() + static_cast<std::size_t>(y) * d_.op_w,
                        sizeof(float) * d_.op_w);
    }

private:
    // speed_picture's method: 0 the plane itself (also the picture a
    // bicubic or lanczos4 prescale reads), 1 nearest, 2 bilinear.
    static int speed_method(const speed::Gsm& gsm) {
        const speed::Params& p = gsm.params();
        if (!speed::prescale_resizes(gsm.dims(), p.prescale)) return 0;
        if (p.method == speed::ScaleMethod::nearest) return 1;
        if (p.method == speed::ScaleMethod::bilinear) return 2;
        return 0;
    }

    // speed_scale's taps: 4 (bicubic), 9 (lanczos4) or 0 (no such prescale).
    static int kernel_taps(const speed::Gsm& gsm) {
        const speed::Params& p = gsm.params();
        if (!speed::prescale_resizes(gsm.dims(), p.prescale)) return 0;
        if (p.method == speed::ScaleMethod::bicubic) return 4;
        return p.method == speed::ScaleMethod::lanczos4 ? 9 : 0;
    }

    // The prescale's taps per output column or row (none for method 0).
    static std::vector<speed::dev::Tap> speed_taps(int src_n, int dst_n, int method) {
        std::vector<speed::dev::Tap> t(method == 0 ? 0 : static_cast<std::size_t>(dst_n));
        for (std::size_t i = 0; i < t.size(); ++i) {
            const int o = static_cast<int>(i);
            const speed::ScaleTap tap = method == 1 ? speed::nearest_tap(o, src_n, dst_n)
                                                    : speed::bilinear_tap(o, src_n, dst_n);
            t[i] = speed::dev::Tap{tap.i1, tap.i2, tap.frac};
        }
        return t;
    }

    template <class T>
    void launch(const T* a, const T* b, int bpc) {
        const cudaStream_t st = stream_->get();
        const int sw = d_.scaled_w, sh = d_.scaled_h, ow = d_.op_w, oh = d_.op_h;
        if (taps_) {
            const int w = d_.width, h = d_.height;
            speed_picture<<<dim3(groups(w, kBlock), h), kBlock, 0, st>>>(
                a, b, w, w, h, bpc, 0, cols_.get(), rows_.get(), full_.get());
            speed_scale<<<dim3(groups(sw, kBlock), sh), kBlock, 0, st>>>(
                full_.get(), w, sw, sh, taps_, kernel_cols_.get(), kernel_rows_.get(), pic_.get());
        } else {
            speed_picture<<<dim3(groups(sw, kBlock), sh), kBlock, 0, st>>>(
                a, b, d_.width, sw, sh, bpc, method_, cols_.get(), rows_.get(), pic_.get());
        }
        speed_vertical<<<dim3(groups(sw, kBlock), oh), kBlock, 0, st>>>(
            pic_.get(), aa_.get(), sw, sh, oh, 16, aa_width_, mid_.get());
        speed_horizontal<<<dim3(groups(ow, kBlock), oh), kBlock, 0, st>>>(
            mid_.get(), aa_.get(), sw, ow, 16, aa_width_, nullptr, low_.get());
        speed_vertical<<<dim3(groups(ow, kBlock), oh), kBlock, 0, st>>>(
            low_.get(), dc_.get(), ow, oh, oh, 1, dc_width_, blur_.get());
        speed_horizontal<<<dim3(groups(ow, kBlock), oh), kBlock, 0, st>>>(
            blur_.get(), dc_.get(), ow, ow, 1, dc_width_, low_.get(), out_.get());
    }

    unsigned device_;
    speed::Dimensions d_;
    bool difference_;
    int method_;
    int taps_;
    int aa_width_ = 0, dc_width_ = 0;
    std::unique_ptr<PairLayout> layout_;
    std::unique_ptr<OwnPictures> own_;
    DeviceArray<speed::dev::Tap> cols_, rows_;
    DeviceArray<speed::dev::KernelTap> kernel_cols_, kernel_rows_;
    DeviceArray<float> aa_, dc_, pic_, mid_, low_, blur_, out_, full_;
    PinnedArray<float> out_host_;
    std::unique_ptr<Stream> stream_;  // last: destroyed first (Stream::~Stream)
};

}  // namespace

std::unique_ptr<speed::SpeedTwin> make_speed_twin(unsigned device, const speed::Gsm& gsm,
                                                   bool difference) {
    return std::make_unique<CudaSpeed>(device, gsm, difference);
}

}  // namespace vmafpp::cuda
