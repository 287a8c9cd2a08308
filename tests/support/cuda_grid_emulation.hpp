// Grid emulation of the CUDA twins: the same per-thread functions the CUDA
// kernels call (src/*/*_cuda_math.cuh), run on the host over the whole grid
// with the CUDA twins' buffer layouts and launch order (src/cuda/
// cuda_twins.cu). Row sums are added in uint64 / uint32, wrapping, as the
// kernels' reductions do (in any order: the additions are associative). So
// the device arithmetic is checked against the scalar kernels without a
// device; the device tests then check the launches themselves.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "adm/adm.hpp"
#include "adm/adm_cuda_math.cuh"
#include "adm/adm_twin.hpp"
#include "cambi/cambi_cuda_math.cuh"
#include "cambi/cambi_kernels.hpp"
#include "cambi/cambi_twin.hpp"
#include "device/backend.hpp"
#include "motion/motion_twin.hpp"
#include "speed/speed_cuda_math.cuh"
#include "speed/speed_gsm.hpp"
#include "speed/speed_twin.hpp"
#include "vif/vif_twin.hpp"
#include "motion/motion_cuda_math.cuh"
#include "vif/vif_cuda_math.cuh"
#include "vif/vif_kernels.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::devtest {

// h rows of w samples of type T from a strided (bytes) plane, packed.
template <class T>
std::vector<T> pack_plane(const void* src, std::ptrdiff_t stride, int w, int h) {
    std::vector<T> out(static_cast<std::size_t>(w) * h);
    for (int y = 0; y < h; ++y)
        std::memcpy(out.data() + static_cast<std::size_t>(y) * w,
                    static_cast<const char*>(src) + y * stride,
                    static_cast<std::size_t>(w) * sizeof(T));
    return out;
}

class EmulatedMotion final : public motion::MotionTwin {
public:
    EmulatedMotion(int w, int h, int bpc) : w_(w), h_(h), bpc_(bpc) {}
    std::uint64_t sad(const void* prev, std::ptrdiff_t ps, const void* cur,
                      std::ptrdiff_t cs) override {
        return bpc_ == 8 ? run<std::uint8_t>(prev, ps, cur, cs)
                         : run<std::uint16_t>(prev, ps, cur, cs);
    }

private:
    template <class T>
    std::uint64_t run(const void* prev, std::ptrdiff_t ps, const void* cur, std::ptrdiff_t cs) {
        const auto p = pack_plane<T>(prev, ps, w_, h_), c = pack_plane<T>(cur, cs, w_, h_);
        std::uint64_t total = 0;
        for (int y = 0; y < h_; ++y) {
            std::uint32_t row = 0;
            for (int x = 0; x < w_; ++x)
                row += motion::dev::abs_filtered(p.data(), c.data(), w_, h_, bpc_, x, y);
            total += row;
        }
        return total;
    }
    int w_, h_, bpc_;
};

class EmulatedVif final : public vif::VifTwin {
public:
    EmulatedVif(int w, int h, int bpc, std::optional<double> accumulate_gain_limit = std::nullopt)
        : bpc_(bpc), gain_(accumulate_gain_limit) {
        w_[0] = w;
        h_[0] = h;
        for (int s = 1; s < 4; ++s) w_[s] = w_[s - 1] / 2, h_[s] = h_[s - 1] / 2;
        for (int s = 0; s < 4; ++s)
            sigma_[s].assign(3 * static_cast<std::size_t>(w_[s]) * h_[s], 0);
    }
    void run(const void* ref, std::ptrdiff_t rs, const void* dis, std::ptrdiff_t ds,
             bool skip_scale0) override {
        if (bpc_ == 8)
            scale0<std::uint8_t>(ref, rs, dis, ds, skip_scale0);
        else
            scale0<std::uint16_t>(ref, rs, dis, ds, skip_scale0);
        for (int s = 1; s < 4; ++s) {
            const std::size_t n = static_cast<std::size_t>(w_[s]) * h_[s];
            scale(scaled_.data(), scaled_.data() + n, s, 16, false);
        }
    }
    const std::int32_t* sigma(int s) const override { return sigma_[s].data(); }

    // The device's vif_accumulate: every sample of the scale's sigma planes.
    bool sums(int s, vif::VifSums* out) const override {
        if (!gain_) return false;
        const std::int64_t n = std::int64_t{w_[s]} * h_[s];
        const std::int32_t* p = sigma_[s].data();
        std::int64_t acc[4] = {};
        for (std::int64_t i = 0; i < n; ++i)
            vif::vif_accumulate_sample(p[i], p[n + i], p[2 * n + i], vif::vif_log2_table(), *gain_,
                                        acc);
        *out = vif::VifSums{acc[0], acc[1], acc[2], acc[3]};
        return true;
    }

private:
    template <class T>
    void scale0(const void* ref, std::ptrdiff_t rs, const void* dis, std::ptrdiff_t ds, bool skip) {
        const auto r = pack_plane<T>(ref, rs, w_[0], h_[0]),
                   d = pack_plane<T>(dis, ds, w_[0], h_[0]);
        scale(r.data(), d.data(), 0, bpc_, skip);
    }
    // Statistics of scale s (unless skipped) and the reduction to s + 1,
    // which replaces scaled_.
    template <class T>
    void scale(const T* r, const T* d, int s, int shift, bool skip) {
        const int w = w_[s], h = h_[s];
        if (!skip) {
            std::vector<std::uint32_t> mom(5 * static_cast<std::size_t>(w) * h);
            for (int i = 0; i < h; ++i)
                for (int x = 0; x < w; ++x)
                    vif::dev::stat_vertical(r, d, w, h, s, shift, s == 0 ? 2 * (bpc_ - 8) : 16, x,
                                            i, mom.data());
            for (int i = 0; i < h; ++i)
                for (int x = 0; x < w; ++x)
                    vif::dev::stat_horizontal(mom.data(), w, h, s, x, i, sigma_[s].data());
        }
        if (s + 1 == 4) return;
        const int oh = h_[s + 1], ow = w_[s + 1];
        std::vector<std::uint32_t> conv(2 * static_cast<std::size_t>(w) * oh);
        for (int oi = 0; oi < oh; ++oi)
            for (int x = 0; x < w; ++x)
                vif::dev::reduce_vertical(r, d, w, h, s, shift, oh, x, oi, conv.data());
        std::vector<std::uint16_t> next(2 * static_cast<std::size_t>(ow) * oh);
        for (int oi = 0; oi < oh; ++oi)
            for (int j = 0; j < ow; ++j)
                vif::dev::reduce_horizontal(conv.data(), w, ow, oh, s, j, oi, next.data());
        scaled_ = std::move(next);
    }
    int bpc_;
    std::optional<double> gain_;
    int w_[4] = {}, h_[4] = {};
    std::vector<std::int32_t> sigma_[4];
    std::vector<std::uint16_t> scaled_;
};

// The plain-value parameters of a scale (what the CUDA twin hands its kernels).
class EmulatedAdm final : public adm::AdmTwin {
public:
    EmulatedAdm(int w, int h, int bpc, const adm::AdmDeviceParams scales[adm::kScales], double gain,
                bool skip_scale0, bool skip_aim)
        : w_(w), h_(h), bpc_(bpc), gain_(gain), skip_scale0_(skip_scale0), skip_aim_(skip_aim) {
        cos_sq_ = static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0));
        for (int s = 0; s < adm::kScales; ++s) {
            q_[s] = scales[s];
            const std::size_t n = static_cast<std::size_t>(q_[s].bw) * q_[s].bh;
            bands_[s].assign(8 * n, 0);
            dec_[s].assign(6 * n, 0);
            rows_[s].assign(9 * static_cast<std::size_t>(q_[s].region.height()), 0);
        }
    }
    void run(const void* ref, std::ptrdiff_t rs, const void* dis, std::ptrdiff_t ds) override {
        if (bpc_ == 8)
            dwt0<std::uint8_t>(ref, rs, dis, ds);
        else
            dwt0<std::uint16_t>(ref, rs, dis, ds);
        if (!skip_scale0_) pool(0);
        for (int s = 1; s < adm::kScales; ++s) {
            const int in_w = q_[s - 1].bw, in_h = q_[s - 1].bh;
            const std::size_t n_in = static_cast<std::size_t>(in_w) * in_h;
            for (int pic = 0; pic < 2; ++pic)
                dwt(bands_[s - 1].data() + pic * 4 * n_in, in_w, in_h, s, pic);
            pool(s);
        }
    }
    const std::int64_t* rows(int s) const override { return rows_[s].data(); }
    void run_on_bands(int s, const std::int32_t* const ref_hvd[3],
                      const std::int32_t* const dis_hvd[3]) override {
        const std::size_t n = static_cast<std::size_t>(q_[s].bw) * q_[s].bh;
        for (int t = 0; t < 3; ++t) {
            std::memcpy(bands_[s].data() + (1 + t) * n, ref_hvd[t], n * 4);
            std::memcpy(bands_[s].data() + (5 + t) * n, dis_hvd[t], n * 4);
        }
        pool(s);
    }

private:
    template <class T>
    void dwt0(const void* ref, std::ptrdiff_t rs, const void* dis, std::ptrdiff_t ds) {
        const auto r = pack_plane<T>(ref, rs, w_, h_), d = pack_plane<T>(dis, ds, w_, h_);
        dwt(r.data(), w_, h_, 0, 0);
        dwt(d.data(), w_, h_, 0, 1);
    }
    template <class T>
    void dwt(const T* src, int in_w, int in_h, int s, int pic) {
        const int bw = q_[s].bw, bh = q_[s].bh;
        const std::size_t n = static_cast<std::size_t>(bw) * bh;
        std::int32_t* out = bands_[s].data() + pic * 4 * n;
        for (int i = 0; i < bh; ++i)
            for (int j = 0; j < bw; ++j) {
                std::int32_t v[4];
                adm::dev::dwt_sample(src, in_w, in_h, s, bpc_, i, j, v);
                for (int b = 0; b < 4; ++b)
                    out[b * n + static_cast<std::size_t>(i) * bw + j] = v[b];
            }
    }
    void pool(int s) {
        const adm::dev::PoolParams p = adm::pool_push(q_[s], s);
        const std::int64_t n = std::int64_t{p.w} * p.h;
        for (std::int64_t i = 0; i < n; ++i)
            adm::dev::decouple_sample(bands_[s].data(), n, s, i, gain_, cos_sq_, dec_[s].data());
        const int rh = p.y1 - p.y0;
        std::int64_t* rows = rows_[s].data();
        for (int y = p.y0; y < p.y1; ++y) {
            for (int t = 0; t < 3; ++t) {
                std::uint64_t den = 0;
                for (int x = p.x0; x < p.x1; ++x)
                    den += adm::dev::den_cube(p, bands_[s].data(), t, x, y);
                rows[t * rh + (y - p.y0)] = static_cast<std::int64_t>(den);
            }
            for (int pass = 0; pass < (skip_aim_ ? 1 : 2); ++pass) {
                std::uint64_t sum[3] = {};
                for (int x = p.x0; x < p.x1; ++x) {
                    std::int64_t c[3];
                    adm::dev::cm_cubes(p, dec_[s].data(), pass, x, y, c);
                    for (int t = 0; t < 3; ++t) sum[t] += static_cast<std::uint64_t>(c[t]);
                }
                for (int t = 0; t < 3; ++t)
                    rows[((1 + pass) * 3 + t) * rh + (y - p.y0)] =
                        static_cast<std::int64_t>(sum[t]);
            }
        }
    }
    int w_, h_, bpc_;
    double gain_;
    bool skip_scale0_, skip_aim_;
    float cos_sq_;
    adm::AdmDeviceParams q_[adm::kScales];
    std::vector<std::int32_t> bands_[adm::kScales], dec_[adm::kScales];
    std::vector<std::int64_t> rows_[adm::kScales];
};

// SpEED's CUDA twin (cuda_speed_twin.cu): its five launches in order (six
// with a bicubic or lanczos4 prescale), each over its whole grid, into
// buffers laid out as the twin's.
class EmulatedSpeed final : public speed::SpeedTwin {
public:
    EmulatedSpeed(const speed::Gsm& gsm, bool difference)
        : d_(gsm.dims()), difference_(difference) {
        const speed::Params& p = gsm.params();
        using M = speed::ScaleMethod;
        const bool resizes = speed::prescale_resizes(d_, p.prescale);
        if (resizes && (p.method == M::bicubic || p.method == M::lanczos4)) {
            taps_ = p.method == M::bicubic ? 4 : 9;
            kernel_cols_ = speed::dev::kernel_taps(d_.width, d_.scaled_w, p.method);
            kernel_rows_ = speed::dev::kernel_taps(d_.height, d_.scaled_h, p.method);
        } else if (resizes) {
            method_ = p.method == M::nearest ? 1 : 2;
        }
        for (int i = 0; i < d_.scaled_w && method_; ++i) cols_.push_back(tap(i, d_.width, d_.scaled_w));
        for (int i = 0; i < d_.scaled_h && method_; ++i) rows_.push_back(tap(i, d_.height, d_.scaled_h));
        aa_.assign(gsm.aa_filter(), gsm.aa_filter() + gsm.aa_width());
        dc_.assign(gsm.dc_filter(), gsm.dc_filter() + gsm.dc_width());
    }
    void prepare(const speed::Gsm::Samples& s, float* low, std::ptrdiff_t stride) override {
        if (s.b && !difference_) throw Error("internal error: a difference given to a plane twin");
        if (s.bpc == 8)
            run<std::uint8_t>(s, low, stride);
        else
            run<std::uint16_t>(s, low, stride);
    }

private:
    speed::dev::Tap tap(int i, int src_n, int dst_n) const {
        const speed::ScaleTap t =
            method_ == 1 ? speed::nearest_tap(i, src_n, dst_n) : speed::bilinear_tap(i, src_n, dst_n);
        return speed::dev::Tap{t.i1, t.i2, t.frac};
    }
    template <class T>
    void run(const speed::Gsm::Samples& s, float* low, std::ptrdiff_t stride) {
        const auto a = pack_plane<T>(s.a, s.a_stride, d_.width, d_.height);
        const auto b = s.b ? pack_plane<T>(s.b, s.b_stride, d_.width, d_.height) : std::vector<T>();
        const int sw = d_.scaled_w, sh = d_.scaled_h, ow = d_.op_w, oh = d_.op_h;
        const int fa = static_cast<int>(aa_.size()), fd = static_cast<int>(dc_.size());
        std::vector<float> pic(static_cast<std::size_t>(sw) * sh), mid(static_cast<std::size_t>(sw) * oh);
        std::vector<float> lo(static_cast<std::size_t>(ow) * oh), blur(lo.size());
        if (taps_) {
            const int w = d_.width, h = d_.height;
            std::vector<float> full(static_cast<std::size_t>(w) * h);
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    full[static_cast<std::size_t>(y) * w + x] = speed::dev::picture_sample(
                        a.data(), s.b ? b.data() : nullptr, w, s.bpc, 0, cols_.data(), rows_.data(), x, y);
            for (int y = 0; y < sh; ++y)
                for (int x = 0; x < sw; ++x)
                    pic[static_cast<std::size_t>(y) * sw + x] = speed::dev::kernel_sample(
                        full.data(), w, taps_, taps_ == 9, kernel_cols_.data(), kernel_rows_.data(), x, y);
        } else {
            for (int y = 0; y < sh; ++y)
                for (int x = 0; x < sw; ++x)
                    pic[static_cast<std::size_t>(y) * sw + x] = speed::dev::picture_sample(
                        a.data(), s.b ? b.data() : nullptr, d_.width, s.bpc, method_, cols_.data(),
                        rows_.data(), x, y);
        }
        for (int i = 0; i < oh; ++i)
            for (int j = 0; j < sw; ++j)
                mid[static_cast<std::size_t>(i) * sw + j] =
                    speed::dev::blur_vertical(pic.data(), aa_.data(), sw, sh, 16, fa, j, i);
        for (int i = 0; i < oh; ++i)
            for (int o = 0; o < ow; ++o)
                lo[static_cast<std::size_t>(i) * ow + o] =
                    speed::dev::blur_horizontal(mid.data(), aa_.data(), sw, 16, fa, o, i);
        for (int i = 0; i < oh; ++i)
            for (int j = 0; j < ow; ++j)
                blur[static_cast<std::size_t>(i) * ow + j] =
                    speed::dev::blur_vertical(lo.data(), dc_.data(), ow, oh, 1, fd, j, i);
        for (int i = 0; i < oh; ++i)
            for (int o = 0; o < ow; ++o)
                low[i * stride + o] = lo[static_cast<std::size_t>(i) * ow + o] -
                                      speed::dev::blur_horizontal(blur.data(), dc_.data(), ow, 1, fd, o, i);
    }
    speed::Dimensions d_;
    bool difference_;
    int method_ = 0;
    int taps_ = 0;  // 4: bicubic, 9: lanczos4 (speed_scale's launch)
    std::vector<speed::dev::Tap> cols_, rows_;
    std::vector<speed::dev::KernelTap> kernel_cols_, kernel_rows_;
    std::vector<float> aa_, dc_;
};

// CAMBI's CUDA twin (cuda_cambi_twin.cu): its launches in order, each over
// its whole grid, into buffers laid out as the twin's (rows alloc_w apart,
// the picture and mask ping-ponging between two buffers each).
class EmulatedCambi final : public cambi::CambiTwin {
public:
    EmulatedCambi(int alloc_w, int alloc_h, const cambi::ContrastSetup& setup)
        : alloc_w_(alloc_w), alloc_h_(alloc_h), setup_(setup) {
        const std::size_t pixels = static_cast<std::size_t>(alloc_w) * alloc_h;
        for (auto& b : image_) b.assign(pixels, 0);
        for (auto& b : masks_) b.assign(pixels, 0);
        hist_.assign(static_cast<std::size_t>(setup.band_size + setup.num_diffs + 1) * alloc_w, 0);
        for (int d = 0; d < setup.num_diffs; ++d) tables_.push_back(setup.tvi[d]);
        for (int d = 0; d < setup.num_diffs; ++d) tables_.push_back(setup.weights[d]);
    }
    void run(const cambi::CambiPicture& p) override {
        if (p.bpc > 8)
            run_typed<std::uint16_t>(p);
        else
            run_typed<std::uint8_t>(p);
    }
    float* c_values(int s) override { return c_[s].data(); }

private:
    template <class T>
    void run_typed(const cambi::CambiPicture& p) {
        const auto in = pack_plane<T>(p.luma, p.stride, p.in_w, p.in_h);
        // The twin's resize positions (its host code, shared with the Vulkan twin).
        const auto cols = cambi::nearest_positions(p.in_w, p.w);
        const auto rows = cambi::nearest_positions(p.in_h, p.h);
        const int stride = alloc_w_;
        std::uint32_t first_bad = cambi::kNoBadSample;
        if (p.bpc != 8 && p.bpc != 16)
            for (std::int64_t i = 0; i < std::int64_t{p.in_w} * p.in_h; ++i)
                if (static_cast<std::uint32_t>(in[static_cast<std::size_t>(i)]) > (1u << p.bpc) - 1u &&
                    static_cast<std::uint32_t>(i) < first_bad)
                    first_bad = static_cast<std::uint32_t>(i);
        int w = p.w, h = p.h;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                image_[0][static_cast<std::size_t>(y) * stride + x] =
                    cambi::dev::load_sample(in.data(), p.in_w, cols.data(), rows.data(), p.bpc, x, y);
        int cur = 0;
        if (p.dither) {
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    image_[1][static_cast<std::size_t>(y) * stride + x] =
                        cambi::dev::dither_sample(image_[0].data(), w, h, stride, x, y);
            cur = 1;
        }
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                masks_[0][static_cast<std::size_t>(y) * stride + x] = cambi::dev::mask_sample(
                    image_[cur].data(), w, h, stride, p.mask_threshold, x, y);
        int mcur = 0;
        for (int s = 0; s < cambi::kScales; ++s) {
            if (s > 0 || p.speedup) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x) {
                        const std::size_t to = static_cast<std::size_t>(y) * stride + x;
                        image_[1 - cur][to] = image_[cur][2 * to];
                        masks_[1 - mcur][to] = masks_[mcur][2 * to];
                    }
                cur = 1 - cur;
                mcur = 1 - mcur;
            }
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    image_[1 - cur][static_cast<std::size_t>(y) * stride + x] =
                        cambi::dev::mode_sample(image_[cur].data(), w, h, stride, x, y);
            cur = 1 - cur;
            const cambi::dev::CValueParams cp{w, h, stride, p.window >> 1, setup_.band_base,
                                              setup_.band_size, setup_.num_diffs, setup_.vlt_luma};
            c_[s].assign(static_cast<std::size_t>(w) * h, 0.0f);
            for (int x = 0; x < w; ++x)
                cambi::dev::c_values_column(image_[cur].data(), masks_[mcur].data(), cp,
                                            tables_.data(), tables_.data() + setup_.num_diffs,
                                            cambi::reciprocal_table(), hist_.data(), c_[s].data(), x);
        }
        cambi::throw_if_bad_sample(p, first_bad);
    }
    int alloc_w_, alloc_h_;
    cambi::ContrastSetup setup_;
    std::vector<std::uint16_t> image_[2], masks_[2];
    std::vector<std::uint32_t> hist_;
    std::vector<std::int32_t> tables_;
    std::vector<float> c_[cambi::kScales];
};

// The CUDA SpEED and CAMBI twins' grid emulation as a backend
// ("cuda-emulation"), registered once per process, so the extractors'
// scores can be compared through their own twin seam.
inline Backend emulation_backend() {
    static const Backend id = [] {
        device::BackendInfo b(
            "cuda-emulation", [] { return std::string("0: the host, emulating the CUDA grid\n"); },
            [](unsigned, const FrameGeometry&, unsigned) { return std::shared_ptr<device::FrameStore>(); });
        b.add_twin<cambi::CambiTwin>(
            [](const Compute&, int w, int h, const cambi::ContrastSetup& setup) {
                return std::make_unique<EmulatedCambi>(w, h, setup);
            });
        b.add_twin<speed::SpeedTwin>([](const Compute&, const speed::Gsm& gsm, bool difference) {
            return std::make_unique<EmulatedSpeed>(gsm, difference);
        });
        return device::register_backend(std::move(b));
    }();
    return id;
}

}  // namespace vmafpp::devtest
