// CAMBI's Vulkan twin: one command buffer per picture records the 10-bit
// load (cambi_load, then cambi_dither when the encode is below 10 bits), the
// spatial mask, and per scale the decimation of picture and mask, the mode
// filter and the c-values (cambi_c_values), ping-ponging between two
// picture buffers; one submit per scale, then the host reads the five scales'
// c-values (1/1 + 1/4 + ... of the picture) and pools them with the
// scalar's code (cambi.cpp). See src/cambi/cambi_twin.hpp for what is
// computed how.
#include "vulkan/vk_cambi_twin.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "vmafpp/error.hpp"
#include "vulkan/vk_context.hpp"

namespace vmafpp::vk {

namespace {

using cambi::kScales;

struct LoadParams {
    std::int32_t in_w, in_h, w, h, stride, bpc, check, unused;
};
struct PlaneParams {
    std::int32_t w, h, stride, extra;  // extra: the mask threshold, else unused
};
struct CValueParams {
    std::int32_t w, h, stride, pad, band_base, band_size, num_diffs, vlt_luma;
    std::int32_t first, y0, y1, unused;
};

// Rows of c-values per dispatch: each row costs an invocation about
// 2 * window + num_diffs loop iterations, and lavapipe stops a loop nest
// after 65535 (llvmpipe's loop limiter); half that leaves a margin.
int rows_per_dispatch(int window, int num_diffs) {
    return std::max(1, 32768 / (2 * window + num_diffs + 8));
}


class VulkanCambi final : public cambi::CambiTwin {
public:
    VulkanCambi(unsigned device, int alloc_w, int alloc_h, const cambi::ContrastSetup& setup)
        : ctx_(context_for(device)),
          alloc_w_(alloc_w),
          alloc_h_(alloc_h),
          setup_(setup),
          stream_(ctx_),
          load_(ctx_->kernel("cambi_load", 5, sizeof(LoadParams))),
          dither_(ctx_->kernel("cambi_dither", 2, sizeof(PlaneParams))),
          mask_(ctx_->kernel("cambi_mask", 2, sizeof(PlaneParams))),
          decimate_(ctx_->kernel("cambi_decimate", 4, sizeof(PlaneParams))),
          mode_(ctx_->kernel("cambi_mode", 2, sizeof(PlaneParams))),
          c_values_(ctx_->kernel("cambi_c_values", 6, sizeof(CValueParams))) {
        const std::size_t pixels = static_cast<std::size_t>(alloc_w) * alloc_h;
        for (auto& b : image_) b = buffer(pixels);
        for (auto& b : masks_) b = buffer(pixels);
        const std::size_t rows = static_cast<std::size_t>(setup.band_size + setup.num_diffs + 1);
        hist_ = buffer(rows * alloc_w);
        std::vector<std::int32_t> tables(2 * static_cast<std::size_t>(setup.num_diffs));
        for (int d = 0; d < setup.num_diffs; ++d) {
            tables[static_cast<std::size_t>(d)] = setup.tvi[d];
            tables[static_cast<std::size_t>(setup.num_diffs + d)] = setup.weights[d];
        }
        setup_buf_ = buffer(tables.size());
        std::memcpy(setup_buf_->data(), tables.data(), tables.size() * 4);
        recip_ = buffer(cambi::kReciprocalCount);
        std::memcpy(recip_->data(), cambi::reciprocal_table(), cambi::kReciprocalCount * 4);
        first_bad_ = buffer(1);
        int w = alloc_w, h = alloc_h;
        for (int s = 0; s < kScales; ++s) {
            // The largest each scale can be (scale 0 without the speed-up).
            c_[s] = buffer(static_cast<std::size_t>(w) * h);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
    }

    void run(const cambi::CambiPicture& p) override {
        if (p.w > alloc_w_ || p.h > alloc_h_ || p.in_w <= 0 || p.in_h <= 0)
            throw Error("internal error: a picture larger than the cambi twin was made for");
        upload(p);
        const bool check = p.bpc != 8 && p.bpc != 16;
        *first_bad_->as<std::uint32_t>() = cambi::kNoBadSample;
        const std::int32_t stride = alloc_w_;
        int w = p.w, h = p.h;
        stream_.begin();
        const LoadParams lp{p.in_w, p.in_h, w, h, stride, p.bpc, check ? 1 : 0, 0};
        stream_.dispatch(load_, {in_.get(), cols_.get(), rows_.get(), image_[0].get(), first_bad_.get()},
                         &lp, groups(std::max(w, p.in_w), 64), std::max(h, p.in_h));
        int cur = 0;
        if (p.dither) {
            const PlaneParams dp{w, h, stride, 0};
            stream_.dispatch(dither_, {image_[0].get(), image_[1].get()}, &dp, groups(w, 64), h);
            cur = 1;
        }
        const PlaneParams mp{w, h, stride, p.mask_threshold};
        stream_.dispatch(mask_, {image_[cur].get(), masks_[0].get()}, &mp, groups(w, 64), h);
        int mcur = 0;
        for (int s = 0; s < kScales; ++s) {
            if (s > 0 || p.speedup) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
                const PlaneParams pp{w, h, stride, 0};
                stream_.dispatch(decimate_, {image_[cur].get(), masks_[mcur].get(),
                                             image_[1 - cur].get(), masks_[1 - mcur].get()},
                                 &pp, groups(w, 64), h);
                cur = 1 - cur;
                mcur = 1 - mcur;
            }
            const PlaneParams pp{w, h, stride, 0};
            stream_.dispatch(mode_, {image_[cur].get(), image_[1 - cur].get()}, &pp, groups(w, 64), h);
            cur = 1 - cur;
            record_c_values(image_[cur].get(), masks_[mcur].get(), c_[s].get(), w, h, p.window);
            // One submission per scale: a Stream records at most 64
            // dispatches, and an 8K scale 0 takes about 20 slices.
            stream_.submit_and_wait();
            if (s + 1 < kScales) stream_.begin();
        }
        report_bad_sample(p);
    }

    float* c_values(int s) override { return c_[s]->as<float>(); }

private:
    // The c-values walk: the histograms' first rows, then the rows in
    // slices (rows_per_dispatch).
    void record_c_values(const Buffer* image, const Buffer* mask, const Buffer* out, int w, int h,
                         int window) {
        CValueParams cp{w, h, alloc_w_, window >> 1, setup_.band_base, setup_.band_size,
                        setup_.num_diffs, setup_.vlt_luma, 1, 0, 0, 0};
        const auto dispatch = [&] {
            stream_.dispatch(c_values_, {image, mask, hist_.get(), setup_buf_.get(), recip_.get(), out},
                             &cp, groups(w, 64));
        };
        dispatch();
        cp.first = 0;
        const int slice = rows_per_dispatch(window, setup_.num_diffs);
        for (int y = 0; y < h; y += slice) {
            cp.y0 = y;
            cp.y1 = std::min(h, y + slice);
            dispatch();
        }
    }

    std::unique_ptr<Buffer> buffer(std::size_t words) {
        return std::make_unique<Buffer>(ctx_, (words ? words : 1) * 4);
    }

    // The picture packed (rows in_w samples apart) and, when the sizes
    // change, the resize tables.
    void upload(const cambi::CambiPicture& p) {
        const int bytes = p.bpc > 8 ? 2 : 1;
        const std::size_t row = static_cast<std::size_t>(p.in_w) * bytes;
        const std::size_t need = (row * p.in_h + 3) / 4;
        if (!in_ || in_->size() < need * 4) in_ = buffer(need);
        char* dst = in_->as<char>();
        for (int y = 0; y < p.in_h; ++y) std::memcpy(dst + y * row, p.luma + y * p.stride, row);
        if (p.in_w != tables_in_w_ || p.in_h != tables_in_h_ || p.w != tables_w_ || p.h != tables_h_) {
            const std::vector<std::int32_t> cols = cambi::nearest_positions(p.in_w, p.w);
            const std::vector<std::int32_t> rows = cambi::nearest_positions(p.in_h, p.h);
            cols_ = buffer(cols.size());
            rows_ = buffer(rows.size());
            std::memcpy(cols_->data(), cols.data(), cols.size() * 4);
            std::memcpy(rows_->data(), rows.data(), rows.size() * 4);
            tables_in_w_ = p.in_w, tables_in_h_ = p.in_h, tables_w_ = p.w, tables_h_ = p.h;
        }
    }

    // The scalar's error for the first sample above the bit depth's maximum.
    void report_bad_sample(const cambi::CambiPicture& p) const {
        cambi::throw_if_bad_sample(p, *first_bad_->as<std::uint32_t>());
    }

    std::shared_ptr<Context> ctx_;
    int alloc_w_, alloc_h_;
    cambi::ContrastSetup setup_;  // its tables are copied to setup_buf_
    Stream stream_;
    const Kernel& load_;
    const Kernel& dither_;
    const Kernel& mask_;
    const Kernel& decimate_;
    const Kernel& mode_;
    const Kernel& c_values_;
    std::unique_ptr<Buffer> image_[2], masks_[2], hist_, setup_buf_, recip_, first_bad_, in_, cols_,
        rows_;
    std::unique_ptr<Buffer> c_[kScales];
    int tables_in_w_ = -1, tables_in_h_ = -1, tables_w_ = -1, tables_h_ = -1;
};

}  // namespace

std::unique_ptr<cambi::CambiTwin> make_cambi_twin(unsigned device, int alloc_w, int alloc_h,
                                                   const cambi::ContrastSetup& setup) {
    return std::make_unique<VulkanCambi>(device, alloc_w, alloc_h, setup);
}

}  // namespace vmafpp::vk
