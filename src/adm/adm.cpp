#include "adm/adm.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "adm/adm_pooling.hpp"
#include "vmafpp/error.hpp"

namespace vmafpp::adm {

namespace {

// libvmaf's C conversion `int left = w * 0.1 - 0.5;` truncates toward zero.
Rect pooling_region(int w, int h) {
    const int left = static_cast<int>(w * 0.1 - 0.5);
    const int top = static_cast<int>(h * 0.1 - 0.5);
    return {left, top, w - left, h - top};
}

// The masking threshold reads flt one sample beyond the pooling region, so
// decouple covers that halo, where the masking kernels derive csf and flt
// from the decoupled bands (libvmaf computes a larger region; only these
// samples are ever read).
Rect halo_region(Rect r, int w, int h) {
    return {std::max(r.x0 - 1, 0), std::max(r.y0 - 1, 0), std::min(r.x1 + 1, w),
            std::min(r.y1 + 1, h)};
}

// ceil(log2(n) + offset) in double as libvmaf computes its shifts; n >= 2.
int ceil_log2(int n, double offset = 0.0) {
    return static_cast<int>(std::ceil(std::log2(n) + offset));
}

// 2^(e) where libvmaf forms e in uint32 arithmetic (a wrapped exponent gives
// +inf, as there).
double pow2_u32(std::uint32_t e) { return std::pow(2, static_cast<double>(e)); }

float cbrtf_like_libvmaf(float v) { return std::pow(v, 1.0f / 3.0f); }

// powf((area) * noise_weight, 1/3): int area times double, then float.
float noise_term(Rect r, double noise_weight) {
    const int area = r.height() * r.width();
    return cbrtf_like_libvmaf(static_cast<float>(area * noise_weight));
}

// Denominator of one scale from the three cube sums; `scale_div` is the
// power of two libvmaf divides them by. rfactor is cubed in double after.
float den_from_sums(const std::uint64_t acc[3], double scale_div, const CsfFactors& f, Rect r,
                    double noise_weight) {
    const float rf[3] = {f.hv, f.hv, f.d};
    const float add = noise_term(r, noise_weight);
    float out[3];
    for (int t = 0; t < 3; ++t) {
        const double csf = static_cast<double>(static_cast<double>(acc[t]) / scale_div) *
                           std::pow(static_cast<double>(rf[t]), 3);
        out[t] = cbrtf_like_libvmaf(static_cast<float>(csf)) + add;
    }
    return out[0] + out[1] + out[2];
}

float num_from_cubes(const float cubes[3], Rect r, double noise_weight) {
    float out[3];
    for (int t = 0; t < 3; ++t)
        out[t] = cbrtf_like_libvmaf(cubes[t]) + noise_term(r, noise_weight);
    return out[0] + out[1] + out[2];
}

void check_options(const AdmOptions& o) {
    // libvmaf's extract() fails with -EINVAL below 3 H at 1080 lines: its
    // 16-bit pipeline cannot represent lower angular frequencies.
    if (o.csf.norm_view_dist * o.csf.ref_display_height < 3.0 * 1080)
        throw Error("adm: adm_norm_view_dist * adm_ref_display_height must be at least 3240 "
                    "(3.0 * 1080)");
    if ((o.csf.mode == CsfMode::barten_watson_blend ||
         o.csf.mode == CsfMode::barten_watson_blend_mae) &&
        !blend_table_exists(o.csf.norm_view_dist, o.csf.ref_display_height))
        throw Error("adm: adm_csf_mode=" + std::to_string(static_cast<int>(o.csf.mode)) +
                    " has no table for adm_ref_display_height=" +
                    std::to_string(o.csf.ref_display_height) +
                    " and this adm_norm_view_dist (tables: 1080 at 3 or 5, 2160 at 1.5, 3 or "
                    "5, 720 at 5)");
}

// The strip schedule of every scale. The stages after the DWT run on strips
// of kStripRows rows of the pooling region; a strip's DWT bands and their
// decoupled parts live only in strip buffers of kStripRows + 2 rows (band
// row g at buffer row g - base), which stay in the core's cache while the
// pooling and both masking passes read them. Only the approximation bands,
// the next scale's input, are kept whole. Every kernel folds its rows into
// its accumulators in row order, so strips give the sums of one call over
// the whole region.
//
// Masking rows [y0, y1) read the decoupled rows [y0 - 1, y1 + 1), reflected
// at the band's edges, which stay at the same place in the buffers'
// coordinates (rows shifted by base, height h - base). The two rows a strip
// shares with the previous one move to the top of the buffers.
//
// dwt(y0, y1, base) writes the DWT's band rows [y0, y1): the approximation
// into its whole band, h/v/d into the strip buffers at row - base, or
// nowhere when base is std::nullopt (rows outside the halo, which only the
// next scale reads). decouple(rows) splits rows of the strip buffers, and
// pool(rows, base) reads the strip's region rows; rows are given in buffer
// coordinates.
template <class T, class Dwt, class Decouple, class Pool>
void for_each_strip(Rect region, Rect halo, int h, std::ptrdiff_t stride,
                    const std::array<T**, 4>& sets, Dwt dwt, Decouple decouple, Pool pool) {
    dwt(0, halo.y0, std::nullopt);
    int base = halo.y0, ready = halo.y0;  // rows [base, ready) are in the buffers
    for (int y0 = region.y0; y0 < region.y1; y0 += kStripRows) {
        const int y1 = std::min(y0 + kStripRows, region.y1);
        const int b0 = std::max(y0 - 1, 0), b1 = std::min(y1 + 1, h);
        if (b0 > base) {
            const std::size_t keep = static_cast<std::size_t>(ready - b0) * stride;
            const std::ptrdiff_t from = static_cast<std::ptrdiff_t>(b0 - base) * stride;
            for (T** set : sets)
                for (int t = 0; t < 3; ++t)
                    std::memmove(set[t], set[t] + from, keep * sizeof(T));
            base = b0;
        }
        dwt(ready, b1, base);
        decouple(Rect{halo.x0, ready - base, halo.x1, b1 - base});
        ready = b1;
        pool(Rect{region.x0, y0 - base, region.x1, y1 - base}, base);
    }
    dwt(ready, h, std::nullopt);
}

// Where band row y0 of h, v and d goes in the strip buffers `strips` whose
// row 0 is band row *base (out, returned), or nullptr without a base.
template <class T>
T* const* strip_rows(T* const* strips, int y0, std::optional<int> base, std::ptrdiff_t stride,
                     T* (&out)[3]) {
    if (!base) return nullptr;
    for (int t = 0; t < 3; ++t)
        out[t] = strips[t] + static_cast<std::ptrdiff_t>(y0 - *base) * stride;
    return out;
}

// A device's row sums of one scale, [den, dlm, aim][h, v, d][row], folded
// as the kernels fold theirs: den += (row + round) >> den_shift in uint64,
// dlm and aim += (row + round) >> row_shift modulo 2^64, arithmetic shift.
void fold_device_rows(const std::int64_t* rows, int n, int den_shift, int row_shift, bool aim,
                      std::uint64_t den[3], std::int64_t num[3], std::int64_t aim_acc[3]) {
    const std::uint64_t den_round = den_shift > 0 ? std::uint64_t{1} << (den_shift - 1) : 0;
    const std::uint64_t round = row_shift > 0 ? std::uint64_t{1} << (row_shift - 1) : 0;
    auto fold = [&](std::int64_t acc, std::int64_t row) {
        const auto r = static_cast<std::int64_t>(static_cast<std::uint64_t>(row) + round) >> row_shift;
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(acc) + static_cast<std::uint64_t>(r));
    };
    for (int t = 0; t < 3; ++t)
        for (int y = 0; y < n; ++y) {
            den[t] += (static_cast<std::uint64_t>(rows[t * n + y]) + den_round) >> den_shift;
            num[t] = fold(num[t], rows[(3 + t) * n + y]);
            if (aim) aim_acc[t] = fold(aim_acc[t], rows[(6 + t) * n + y]);
        }
}

}  // namespace

AdmEngine::AdmEngine(int width, int height, int bpc, const AdmOptions& options,
                     const AdmKernels& kernels)
    : width_(width), height_(height), bpc_(bpc), opt_(options), k_(kernels) {
    if (width < kMinSize || height < kMinSize)
        throw Error("adm: picture " + std::to_string(width) + "x" + std::to_string(height) +
                    " is too small, the minimum is " + std::to_string(kMinSize) + "x" +
                    std::to_string(kMinSize));
    if (bpc < 8 || bpc > 16) throw Error("adm: bpc must be 8..16");
    check_options(opt_);

    fixed_factors_s0(opt_.csf, rfactor_s0_);
    for (int s = 0; s < kScales; ++s) {
        factors_[s] = csf_factors(opt_.csf, s);
        if (s > 0) fixed_factors_s123(opt_.csf, s, rfactor_s123_[s]);
    }

    const int bw0 = (width + 1) / 2, bh0 = (height + 1) / 2;
    const int bw1 = (bw0 + 1) / 2, bh1 = (bh0 + 1) / 2;
    stride_ = (bw0 + 15) / 16 * 16;
    stride1_ = (bw1 + 15) / 16 * 16;
    const std::size_t n0 = static_cast<std::size_t>(stride_) * bh0;
    const std::size_t n1 = static_cast<std::size_t>(stride1_) * bh1;

    // Only the approximation bands of scale 0 are kept whole; its h/v/d
    // bands and their decoupled parts live in strips (see for_each_strip()),
    // 12 strips of strip_ samples. Scale 0's approximations (int16, every
    // value fits), then per picture scale 1's (n1 samples; scale 3's
    // overwrite them once scale 2 has read them) and scale 2's (n2). Scales
    // 1-3 in strips likewise; scale 1's stride serves all three.
    const int bh2 = (bh1 + 1) / 2;
    const std::size_t n2 = static_cast<std::size_t>(stride1_) * bh2;
    strip_ = static_cast<std::size_t>(stride_) * (kStripRows + 2);
    strip1_ = static_cast<std::size_t>(stride1_) * (kStripRows + 2);
    n0_ = n0;
    n1_ = n1;
    n12_ = n1 + n2;
    detail::ScratchLayout layout;
    at_.s0 = layout.take<std::int16_t>(strip_ * 12);
    at_.approx16 = layout.take<std::int16_t>(n0 * 2);
    at_.approx = layout.take<std::int32_t>(n12_ * 2);
    at_.s123 = layout.take<std::int32_t>(strip1_ * 12);
    at_.dwt16 = layout.take<std::int16_t>(4 * static_cast<std::size_t>(width + 3));
    at_.dwt32 = layout.take<std::int32_t>(4 * static_cast<std::size_t>(bw0 + 3));
    at_.thr32 = layout.take<std::int32_t>(static_cast<std::size_t>(bw0));
    at_.thr64 = layout.take<std::int64_t>(static_cast<std::size_t>(bw0));
    frame_scratch_ = detail::FrameScratch(layout.bytes());
}

void AdmEngine::bind() {
    std::byte* block = frame_scratch_.get();
    if (block == bound_) return;
    bound_ = block;
    s0_.place(reinterpret_cast<std::int16_t*>(block + at_.s0), strip_);
    s123_.place(reinterpret_cast<std::int32_t*>(block + at_.s123), strip1_);
    auto* approx16 = reinterpret_cast<std::int16_t*>(block + at_.approx16);
    auto* approx = reinterpret_cast<std::int32_t*>(block + at_.approx);
    for (int pic = 0; pic < 2; ++pic) {
        approx0_[pic] = approx16 + pic * n0_;
        approx_ptr_[pic][0] = approx + pic * n12_;
        approx_ptr_[pic][1] = approx_ptr_[pic][0] + n1_;
    }
    dwt_scratch16_ = reinterpret_cast<std::int16_t*>(block + at_.dwt16);
    dwt_scratch32_ = reinterpret_cast<std::int32_t*>(block + at_.dwt32);
    thr32_ = reinterpret_cast<std::int32_t*>(block + at_.thr32);
    thr64_ = reinterpret_cast<std::int64_t*>(block + at_.thr64);
}

void AdmEngine::dwt_scale0_rows(const Plane& ref, const Plane& dis, int y0, int y1,
                                std::optional<int> base) {
    const Plane* planes[2] = {&ref, &dis};
    std::int16_t* const* strips[2] = {s0_.ref, s0_.dis};
    for (int pic = 0; pic < 2; ++pic) {
        const Plane& p = *planes[pic];
        std::int16_t* a = approx0_[pic] + static_cast<std::ptrdiff_t>(y0) * stride_;
        std::int16_t* hvd[3];
        std::int16_t* const* out = strip_rows(strips[pic], y0, base, stride_, hvd);
        if (bpc_ == 8)
            k_.dwt_s0_u8(p.row<std::uint8_t>(0), p.stride(), width_, height_, y0, y1,
                         dwt_scratch16_, a, out, stride_);
        else
            k_.dwt_s0_u16(p.row<std::uint16_t>(0), p.stride() / 2, width_, height_, bpc_, y0, y1,
                          dwt_scratch16_, a, out, stride_);
    }
}

void AdmEngine::dwt_s123_rows(int scale, int in_w, int in_h, int y0, int y1,
                              std::optional<int> base) {
    // Scale 1 reads scale 0's int16 approximation (stride_) and writes
    // slot 0, scale 2 reads slot 0 and writes slot 1, scale 3 reads slot 1
    // and writes slot 0.
    const int in = scale == 3 ? 1 : 0, out = scale == 2 ? 1 : 0;
    std::int32_t* const* strips[2] = {s123_.ref, s123_.dis};
    for (int pic = 0; pic < 2; ++pic) {
        std::int32_t* a = approx_ptr_[pic][out] + static_cast<std::ptrdiff_t>(y0) * stride1_;
        std::int32_t* hvd[3];
        std::int32_t* const* keep = strip_rows(strips[pic], y0, base, stride1_, hvd);
        if (scale == 1)
            k_.dwt_s1(approx0_[pic], stride_, in_w, in_h, y0, y1, dwt_scratch32_, a, keep,
                      stride1_);
        else
            k_.dwt_s123(approx_ptr_[pic][in], stride1_, in_w, in_h, scale, y0, y1,
                        dwt_scratch32_, a, keep, stride1_);
    }
}

AdmEngine::ScaleResult AdmEngine::scale0(const Plane* ref_pic, const Plane* dis_pic,
                                          const std::int64_t* device_rows) {
    const int w = (width_ + 1) / 2, h = (height_ + 1) / 2;
    const Rect region = pooling_region(w, h);
    const Rect halo = halo_region(region, w, h);
    ScaleResult out;

    // Denominator: cubes of the reference bands, each row rounded down by
    // 2^max(0, ceil(log2(area) - 20)); the rest is 2^18 (3 * Q6).
    const int den_shift = std::max(0, ceil_log2(region.width() * region.height(), -20.0));
    std::uint64_t den_acc[3] = {0, 0, 0};

    // Q formats: x = band (Q6) * rfactor (Q21 h/v, Q23 d); T is compared
    // after 2^10 (h/v) or 2^12 (d). Cubes are rounded by 2^29 / 2^30 after
    // squaring, by 2^ceil(log2(w) - 4) (h/v) or 2^ceil(log2(w) - 3) (d) after
    // cubing, and each row by 2^ceil(log2(h)); the rest, 2^52 (h/v) or 2^57
    // (d), is divided out in double.
    const int cub_hv = ceil_log2(w, -4.0);
    const int cub_d = ceil_log2(w, -3.0);
    const int row_shift = ceil_log2(h);
    const CubeShifts shifts[3] = {{10, 29, cub_hv}, {10, 29, cub_hv}, {12, 30, cub_d}};
    std::int64_t num_acc[3] = {0, 0, 0}, aim_acc[3] = {0, 0, 0};

    // DLM: the restored part masked by the additive part's CSF; AIM: the
    // additive part masked by the restored part's. The masking kernel
    // derives the masker's csf / flt rows itself.
    StripBands<std::int16_t>& b = s0_;
    if (device_rows)
        fold_device_rows(device_rows, region.height(), den_shift, row_shift, !opt_.skip_aim, den_acc,
                         num_acc, aim_acc);
    else
    for_each_strip(
        region, halo, h, stride_, b.sets(),
        [&](int y0, int y1, std::optional<int> base) {
            dwt_scale0_rows(*ref_pic, *dis_pic, y0, y1, base);
        },
        [&](Rect rows) { k_.decouple_s0(b.ref, b.dis, stride_, rows, opt_.gain_limit, b.r, b.a); },
        [&](Rect rows, int base) {
            k_.den_accumulate_s0(b.ref, stride_, rows, den_shift, den_acc);
            k_.cm_accumulate_s0(b.r, b.a, stride_, w, h - base, rows, rfactor_s0_, shifts,
                                row_shift, thr32_, num_acc);
            if (!opt_.skip_aim)
                k_.cm_accumulate_s0(b.a, b.r, stride_, w, h - base, rows, rfactor_s0_, shifts,
                                    row_shift, thr32_, aim_acc);
        });

    out.den =
        den_from_sums(den_acc, std::pow(2, 18 - den_shift), factors_[0], region, opt_.noise_weight);
    // int64 / double, then float (libvmaf's f_accum).
    auto masked_sum = [&](const std::int64_t acc[3], double noise) -> float {
        const float cubes[3] = {
            static_cast<float>(static_cast<double>(acc[0]) /
                               pow2_u32(52u - static_cast<std::uint32_t>(cub_hv + row_shift))),
            static_cast<float>(static_cast<double>(acc[1]) /
                               pow2_u32(52u - static_cast<std::uint32_t>(cub_hv + row_shift))),
            static_cast<float>(static_cast<double>(acc[2]) /
                               pow2_u32(57u - static_cast<std::uint32_t>(cub_d + row_shift)))};
        return num_from_cubes(cubes, region, noise);
    };
    // AIM has no noise floor.
    out.num = masked_sum(num_acc, opt_.noise_weight);
    if (!opt_.skip_aim) out.aim = masked_sum(aim_acc, 0.0);
    return out;
}

AdmEngine::ScaleResult AdmEngine::scale123(int scale, int in_w, int in_h,
                                            const std::int64_t* device_rows) {
    const int w = (in_w + 1) / 2, h = (in_h + 1) / 2;
    const Rect region = pooling_region(w, h);
    const Rect halo = halo_region(region, w, h);
    ScaleResult out;

    // Denominator: squares rounded by 2^{31, 30, 31}, cubes by the region
    // width, rows by the region height; the rest, 2^{32, 27, 23} divided by
    // those, in double (exponent formed in uint32 as libvmaf does).
    static constexpr int kDenSq[3] = {31, 30, 31};
    static constexpr std::uint32_t kDenConvert[3] = {32, 27, 23};
    const int den_cub = ceil_log2(region.width());
    const int den_row = ceil_log2(region.height());
    std::uint64_t den_acc[3] = {0, 0, 0};

    // Masking: squares by 2^30, cubes by 2^ceil(log2(w)), rows by
    // 2^ceil(log2(h)); the remaining 2^{45, 39, 36} over those is a float.
    static constexpr std::uint32_t kNumConvert[3] = {45, 39, 36};
    const int cub = ceil_log2(w);
    const int row_shift = ceil_log2(h);
    const CubeShifts shifts{0, 30, cub};
    const std::uint32_t* rf = rfactor_s123_[scale];
    std::int64_t num_acc[3] = {0, 0, 0}, aim_acc[3] = {0, 0, 0};

    // The strips of scale0(), on int32 bands.
    StripBands<std::int32_t>& b = s123_;
    if (device_rows)
        fold_device_rows(device_rows, region.height(), den_row, row_shift, !opt_.skip_aim, den_acc,
                         num_acc, aim_acc);
    else
    for_each_strip(
        region, halo, h, stride1_, b.sets(),
        [&](int y0, int y1, std::optional<int> base) {
            dwt_s123_rows(scale, in_w, in_h, y0, y1, base);
        },
        [&](Rect rows) {
            k_.decouple_s123(b.ref, b.dis, stride1_, rows, opt_.gain_limit, b.r, b.a);
        },
        [&](Rect rows, int base) {
            k_.den_accumulate_s123(b.ref, stride1_, rows, kDenSq[scale - 1], den_cub, den_row,
                                   den_acc);
            k_.cm_accumulate_s123(b.r, b.a, stride1_, w, h - base, rows, rf, shifts, row_shift,
                                  thr64_, num_acc);
            if (!opt_.skip_aim)
                k_.cm_accumulate_s123(b.a, b.r, stride1_, w, h - base, rows, rf, shifts, row_shift,
                                      thr64_, aim_acc);
        });

    out.den = den_from_sums(
        den_acc,
        pow2_u32(kDenConvert[scale - 1] - static_cast<std::uint32_t>(den_row) -
                 static_cast<std::uint32_t>(den_cub)),
        factors_[scale], region, opt_.noise_weight);
    const float final_div = static_cast<float>(
        pow2_u32(kNumConvert[scale - 1] - static_cast<std::uint32_t>(cub) -
                 static_cast<std::uint32_t>(row_shift)));
    auto masked_sum = [&](const std::int64_t acc[3], double noise) -> float {
        // int64 converted to float, then a float division (libvmaf divides
        // by a float there).
        const float cubes[3] = {static_cast<float>(acc[0]) / final_div,
                                static_cast<float>(acc[1]) / final_div,
                                static_cast<float>(acc[2]) / final_div};
        return num_from_cubes(cubes, region, noise);
    };
    out.num = masked_sum(num_acc, opt_.noise_weight);
    if (!opt_.skip_aim) out.aim = masked_sum(aim_acc, 0.0);
    return out;
}

AdmScores AdmEngine::compute(const Plane& ref, const Plane& dis) {
    bind();
    return compute_scales(&ref, &dis, nullptr);
}

AdmScores AdmEngine::compute_from_rows(const std::int64_t* const rows[kScales]) {
    return compute_scales(nullptr, nullptr, rows);
}

AdmDeviceParams AdmEngine::device_params(int scale) const {
    AdmDeviceParams p;
    int w = (width_ + 1) / 2, h = (height_ + 1) / 2;
    for (int s = 0; s < scale; ++s) {
        w = (w + 1) / 2;
        h = (h + 1) / 2;
    }
    p.bw = w;
    p.bh = h;
    p.region = pooling_region(w, h);
    // The shifts of scale0() and scale123(), computed the same way.
    if (scale == 0) {
        const int cub_hv = ceil_log2(w, -4.0), cub_d = ceil_log2(w, -3.0);
        p.shifts[0] = p.shifts[1] = {10, 29, cub_hv};
        p.shifts[2] = {12, 30, cub_d};
        for (int t = 0; t < 3; ++t) p.rfactor[t] = rfactor_s0_[t];
    } else {
        static constexpr int kDenSq[3] = {31, 30, 31};
        for (int t = 0; t < 3; ++t) {
            p.shifts[t] = {0, 30, ceil_log2(w)};
            p.rfactor[t] = rfactor_s123_[scale][t];
        }
        p.den_sq = kDenSq[scale - 1];
        p.den_cub = ceil_log2(p.region.width());
    }
    return p;
}

AdmScores AdmEngine::compute_scales(const Plane* ref, const Plane* dis,
                                    const std::int64_t* const* rows) {
    AdmScores s;
    double num = 0.0, den = 0.0, aim_num = 0.0;

    // The size of scale 0's bands, then of each later scale's input.
    int w = (width_ + 1) / 2, h = (height_ + 1) / 2;

    for (int scale = 0; scale < kScales; ++scale) {
        ScaleResult r;
        if (scale == 0) {
            if (opt_.skip_scale0) {
                if (!rows) dwt_scale0_rows(*ref, *dis, 0, h, std::nullopt);
                r.den = 1e-10f;  // libvmaf's guard against 0 / 0
            } else {
                r = scale0(ref, dis, rows ? rows[0] : nullptr);
            }
        } else {
            r = scale123(scale, w, h, rows ? rows[scale] : nullptr);
            w = (w + 1) / 2;
            h = (h + 1) / 2;
        }
        // Summed in scale order in double, from the float per-scale values.
        num += r.num;
        den += r.den;
        aim_num += r.aim;
        s.num_scale[scale] = r.num;
        s.den_scale[scale] = r.den;
    }

    zero_tiny_num_den(num, den, width_, height_);
    if (den == 0.0) {
        s.adm2 = 1.0;
        // libvmaf leaves AIM unset here (it writes an uninitialised double);
        // no reference structure and no noise floor: no additive impairment.
        s.aim = 0.0;
    } else {
        s.aim = aim_num / den;
        s.adm2 = num / den;
    }
    s.num = num;
    s.den = den;
    const double dlm = s.adm2 * opt_.dlm_weight + (1 - s.aim) * (1 - opt_.dlm_weight);
    s.adm3 = dlm > opt_.min_val ? dlm : opt_.min_val;
    for (int k = 0; k < kScales; ++k) s.scale[k] = s.num_scale[k] / s.den_scale[k];
    return s;
}

}  // namespace vmafpp::adm
