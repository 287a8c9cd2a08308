// SpEED's Vulkan twin: Gsm::prepare in five dispatches (speed_picture,
// speed_vertical and speed_horizontal with step 16 for the antialias blur
// and decimation, then both passes with step 1 for the local mean and its
// subtraction), six with a bicubic or lanczos4 prescale (speed_picture
// makes the float picture, speed_scale scales it), each float operation
// the scalar's, in its order (see the shaders). The host reads back the
// op_w x op_h picture (1/256 of the plane) and fits the model on it with
// the scalar's own code.
#include "vulkan/vk_speed_twin.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

#include "speed/speed_shared.h"
#include "vmafpp/error.hpp"
#include "vulkan/vk_context.hpp"

namespace vmafpp::vk {

namespace {

struct PictureParams {
    std::int32_t w, h, sw, sh, bpc, has_b, method, unused;
};
struct VerticalParams {
    std::int32_t w, h, rows, step, fw, unused0, unused1, unused2;
};
struct HorizontalParams {
    std::int32_t w, rows, n, step, fw, subtract, unused0, unused1;
};

// Bytes of a buffer of n 32-bit words (at least one: Vulkan has no empty buffer).
std::size_t words(std::size_t n) { return (n ? n : 1) * 4; }

// The scale tables of speed_picture.comp: (i1, i2, fraction bits) per output.
std::vector<std::int32_t> scale_table(int src_n, int dst_n, int method) {
    std::vector<std::int32_t> t(3 * static_cast<std::size_t>(dst_n), 0);
    for (int i = 0; i < dst_n && method != 0; ++i) {
        const speed::ScaleTap tap =
            method == 1 ? speed::nearest_tap(i, src_n, dst_n) : speed::bilinear_tap(i, src_n, dst_n);
        t[3 * i] = tap.i1;
        t[3 * i + 1] = tap.i2;
        std::memcpy(&t[3 * i + 2], &tap.frac, 4);
    }
    return t;
}

// The tables of speed_scale.comp: per output sample, kMaxKernelTaps source
// indices then kMaxKernelTaps weights' bits (the unused tail zero).
std::vector<std::int32_t> kernel_table(int src_n, int dst_n, speed::ScaleMethod method) {
    constexpr int kWords = 2 * speed::kMaxKernelTaps;
    std::vector<std::int32_t> t(kWords * static_cast<std::size_t>(dst_n), 0);
    for (int i = 0; i < dst_n; ++i) {
        const speed::KernelTaps taps = method == speed::ScaleMethod::bicubic
                                           ? speed::bicubic_taps(i, src_n, dst_n)
                                           : speed::lanczos_taps(i, src_n, dst_n);
        std::int32_t* row = &t[kWords * static_cast<std::size_t>(i)];
        for (int k = 0; k < taps.n; ++k) {
            row[k] = taps.index[k];
            std::memcpy(&row[speed::kMaxKernelTaps + k], &taps.weight[k], 4);
        }
    }
    return t;
}

class VulkanSpeed final : public speed::SpeedTwin {
public:
    VulkanSpeed(unsigned device, const speed::Gsm& gsm, bool difference)
        : ctx_(context_for(device)),
          d_(gsm.dims()),
          difference_(difference),
          stream_(ctx_),
          picture_(ctx_->kernel("speed_picture", 5, sizeof(PictureParams))),
          vertical_(ctx_->kernel("speed_vertical", 3, sizeof(VerticalParams))),
          horizontal_(ctx_->kernel("speed_horizontal", 4, sizeof(HorizontalParams))) {
        const speed::Params& p = gsm.params();
        const bool same = speed::prescale_is_identity(p.prescale) ||
                          (d_.scaled_w == d_.width && d_.scaled_h == d_.height);
        const bool kernel = !same && (p.method == speed::ScaleMethod::bicubic ||
                                      p.method == speed::ScaleMethod::lanczos4);
        // speed_picture's method: a kernel prescale reads the plain picture.
        method_ = same || kernel ? 0 : (p.method == speed::ScaleMethod::nearest ? 1 : 2);
        const std::size_t plane = static_cast<std::size_t>(d_.width) * d_.height;
        a_ = std::make_unique<Buffer>(ctx_, words((plane + 3) / 4 * 2));
        b_ = std::make_unique<Buffer>(ctx_, difference ? words((plane + 3) / 4 * 2) : 4);
        const std::vector<std::int32_t> cols = scale_table(d_.width, d_.scaled_w, method_);
        const std::vector<std::int32_t> rows = scale_table(d_.height, d_.scaled_h, method_);
        cols_ = upload(cols.data(), cols.size());
        rows_ = upload(rows.data(), rows.size());
        if (kernel) {
            scale_ = &ctx_->kernel("speed_scale", 4, sizeof(speed::SpeedScalePush));
            taps_ = p.method == speed::ScaleMethod::bicubic ? 4 : 9;
            const std::vector<std::int32_t> kc = kernel_table(d_.width, d_.scaled_w, p.method);
            const std::vector<std::int32_t> kr = kernel_table(d_.height, d_.scaled_h, p.method);
            kernel_cols_ = upload(kc.data(), kc.size());
            kernel_rows_ = upload(kr.data(), kr.size());
            full_ = std::make_unique<Buffer>(ctx_, words(plane));
        }
        aa_ = upload(gsm.aa_filter(), static_cast<std::size_t>(gsm.aa_width()));
        dc_ = upload(gsm.dc_filter(), static_cast<std::size_t>(gsm.dc_width()));
        aa_width_ = gsm.aa_width();
        dc_width_ = gsm.dc_width();
        const std::size_t scaled = static_cast<std::size_t>(d_.scaled_w) * d_.scaled_h;
        const std::size_t op = static_cast<std::size_t>(d_.op_w) * d_.op_h;
        pic_ = std::make_unique<Buffer>(ctx_, words(scaled));
        mid_ = std::make_unique<Buffer>(ctx_, words(static_cast<std::size_t>(d_.scaled_w) * d_.op_h));
        low_ = std::make_unique<Buffer>(ctx_, words(op));
        blur_ = std::make_unique<Buffer>(ctx_, words(op));
        out_ = std::make_unique<Buffer>(ctx_, words(op));
    }

    void prepare(const speed::Gsm::Samples& s, float* low, std::ptrdiff_t stride) override {
        const int bytes = s.bpc > 8 ? 2 : 1;
        pack(a_->as<char>(), s.a, s.a_stride, bytes);
        if (s.b) {
            if (!difference_) throw Error("internal error: a difference given to a plane speed twin");
            pack(b_->as<char>(), s.b, s.b_stride, bytes);
        }
        const int sw = d_.scaled_w, sh = d_.scaled_h, ow = d_.op_w, oh = d_.op_h;
        // The float picture: prescaled by speed_picture itself (nearest,
        // bilinear), or whole into full_ for speed_scale.
        const int pw = scale_ ? d_.width : sw, ph = scale_ ? d_.height : sh;
        const PictureParams pp{d_.width, d_.height, pw, ph, s.bpc, s.b ? 1 : 0, method_, 0};
        const VerticalParams decimate_v{sw, sh, oh, 16, aa_width_, 0, 0, 0};
        const HorizontalParams decimate_h{sw, oh, ow, 16, aa_width_, 0, 0, 0};
        const VerticalParams mean_v{ow, oh, oh, 1, dc_width_, 0, 0, 0};
        const HorizontalParams mean_h{ow, oh, ow, 1, dc_width_, 1, 0, 0};
        stream_.begin();
        Buffer* picture = scale_ ? full_.get() : pic_.get();
        stream_.dispatch(picture_, {a_.get(), b_.get(), cols_.get(), rows_.get(), picture}, &pp,
                         groups(pw, 64), ph);
        if (scale_) {
            const speed::SpeedScalePush sp{d_.width, d_.height, sw, sh, taps_, taps_ == 9 ? 1 : 0, 0, 0};
            stream_.dispatch(*scale_, {full_.get(), kernel_cols_.get(), kernel_rows_.get(), pic_.get()},
                             &sp, groups(sw, 64), sh);
        }
        stream_.dispatch(vertical_, {pic_.get(), aa_.get(), mid_.get()}, &decimate_v, groups(sw, 64), oh);
        stream_.dispatch(horizontal_, {mid_.get(), aa_.get(), low_.get(), low_.get()}, &decimate_h,
                         groups(ow, 64), oh);
        stream_.dispatch(vertical_, {low_.get(), dc_.get(), blur_.get()}, &mean_v, groups(ow, 64), oh);
        stream_.dispatch(horizontal_, {blur_.get(), dc_.get(), low_.get(), out_.get()}, &mean_h,
                         groups(ow, 64), oh);
        stream_.submit_and_wait();
        const float* out = out_->as<float>();
        for (int y = 0; y < oh; ++y)
            std::memcpy(low + y * stride, out + static_cast<std::size_t>(y) * ow, sizeof(float) * ow);
    }

private:
    std::unique_ptr<Buffer> upload(const void* data, std::size_t n) {
        auto b = std::make_unique<Buffer>(ctx_, words(n));
        if (n) std::memcpy(b->data(), data, n * 4);
        return b;
    }

    // The plane's rows packed w samples apart (the shaders' layout).
    void pack(char* dst, const std::uint8_t* src, std::ptrdiff_t stride, int bytes) const {
        const std::size_t row = static_cast<std::size_t>(d_.width) * bytes;
        for (int y = 0; y < d_.height; ++y) std::memcpy(dst + y * row, src + y * stride, row);
    }

    std::shared_ptr<Context> ctx_;
    speed::Dimensions d_;
    bool difference_;
    int method_ = 0, aa_width_ = 0, dc_width_ = 0;
    Stream stream_;
    const Kernel& picture_;
    const Kernel& vertical_;
    const Kernel& horizontal_;
    const Kernel* scale_ = nullptr;  // a bicubic or lanczos4 prescale's
    int taps_ = 0;
    std::unique_ptr<Buffer> a_, b_, cols_, rows_, aa_, dc_, pic_, mid_, low_, blur_, out_;
    std::unique_ptr<Buffer> kernel_cols_, kernel_rows_, full_;
};

}  // namespace

std::unique_ptr<speed::SpeedTwin> make_speed_twin(unsigned device, const speed::Gsm& gsm,
                                                   bool difference) {
    return std::make_unique<VulkanSpeed>(device, gsm, difference);
}

}  // namespace vmafpp::vk
