#include "adm/float_adm_kernels.hpp"

#include <cmath>

#include "adm/float_adm_taps.hpp"

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define VMAFPP_ADM_RCP_DIVISION 1
#endif

namespace vmafpp::float_adm {

namespace {

// db2 analysis filters; libvmaf stores the double literals in float arrays.
constexpr float kLo[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f,
                          -0.129409522550921f};
constexpr float kHi[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f,
                          -0.482962913144690f};

// libvmaf's FLOAT_ONE_BY_30 / FLOAT_ONE_BY_15 are unsuffixed, i.e. doubles:
// the products with them are formed in double and rounded once to float.
constexpr double kOneBy30 = 0.0333333351;
constexpr double kOneBy15 = 0.0666666701;

// sum_j x^p with libvmaf's special case: p == 3 multiplies (x*x)*x in float,
// any other p calls powf with p narrowed to float.
inline float power_term(float x, double p_norm) {
    return p_norm == 3.0 ? x * x * x : std::pow(x, static_cast<float>(p_norm));
}

// powf(w * h * weight, 1 / p): the count is an int product, times a double
// weight, narrowed to float for powf; the exponent is the double 1.0 / p
// narrowed to float.
inline float noise_floor(int w, int h, double weight, double p_norm) {
    return std::pow(static_cast<float>((w * h) * weight), static_cast<float>(1.0 / p_norm));
}

inline float pnorm_root(float sum, double p_norm) {
    return std::pow(sum, static_cast<float>(1.0 / p_norm));
}

// A scale's value from the frame sums of its three bands (h, v, d) over the
// `inner` region: each band's p-norm root plus the noise floor, the three
// added in that order, all float (den_scale and contrast_masked_sum).
inline float bands_pnorm(float acc_h, float acc_v, float acc_d, const Region& inner,
                         double noise_weight, double p_norm) {
    const float noise = noise_floor(inner.right - inner.left, inner.bottom - inner.top,
                                    noise_weight, p_norm);
    const float h = pnorm_root(acc_h, p_norm) + noise;
    const float v = pnorm_root(acc_v, p_norm) + noise;
    const float d = pnorm_root(acc_d, p_norm) + noise;
    return h + v + d;
}

// 3x3 masking sum of one band around column j of row `mid`: float, row by row
// left to right, the centre replaced by the double product |c| * (1/15)
// rounded to float.
inline float band_threshold(const float* up, const float* mid, const float* down,
                            const float* centre, int jm, int j, int jp) {
    float s = 0.0f;
    s += up[jm];
    s += up[j];
    s += up[jp];
    s += mid[jm];
    s = static_cast<float>(static_cast<double>(s) +
                           kOneBy15 * static_cast<double>(std::fabs(centre[j])));
    s += mid[jp];
    s += down[jm];
    s += down[j];
    s += down[jp];
    return s;
}

}  // namespace

Region scored_region(int w, int h, double border_factor) {
    Region r;
    r.left = static_cast<int>(w * border_factor - 0.5);
    r.top = static_cast<int>(h * border_factor - 0.5);
    r.right = w - r.left;
    r.bottom = h - r.top;
    return r;
}

Region filtered_region(int w, int h, double border_factor) {
    Region r;
    r.left = static_cast<int>(w * border_factor - 0.5 - 1);
    r.top = static_cast<int>(h * border_factor - 0.5 - 1);
    // Computed from the unclipped left/top, then clipped, as libvmaf does.
    r.right = w - r.left + 2;
    r.bottom = h - r.top + 2;
    if (r.left < 0) r.left = 0;
    if (r.right > w) r.right = w;
    if (r.top < 0) r.top = 0;
    if (r.bottom > h) r.bottom = h;
    return r;
}

void dwt_tap_indices(int n, int* tap0, int* tap1, int* tap2, int* tap3) {
    const auto reflect_end = [n](int k) { return k >= n ? 2 * n - k - 1 : k; };
    for (int i = 0; i < (n + 1) / 2; ++i) {
        const int k0 = 2 * i - 1;
        tap0[i] = k0 < 0 ? -k0 : reflect_end(k0);
        tap1[i] = reflect_end(2 * i);
        tap2[i] = reflect_end(2 * i + 1);
        tap3[i] = reflect_end(2 * i + 2);
    }
}

void dwt2(const float* src, std::ptrdiff_t src_stride, int w, int h,
          const int* const row_taps[4], const int* const col_taps[4], const Bands& dst,
          std::ptrdiff_t dst_stride, float* tmp_lo, float* tmp_hi, bool lo_only) {
    const int out_w = (w + 1) / 2;
    const int out_h = (h + 1) / 2;
    for (int i = 0; i < out_h; ++i) {
        const float* r0 = src + row_taps[0][i] * src_stride;
        const float* r1 = src + row_taps[1][i] * src_stride;
        const float* r2 = src + row_taps[2][i] * src_stride;
        const float* r3 = src + row_taps[3][i] * src_stride;
        // Vertical pass over the whole row; each sum starts at 0 and adds the
        // taps in order (float), as libvmaf's accumulator does.
        for (int j = 0; j < w; ++j) tmp_lo[j] = dwt_taps(kLo, r0[j], r1[j], r2[j], r3[j]);
        if (!lo_only)
            for (int j = 0; j < w; ++j) tmp_hi[j] = dwt_taps(kHi, r0[j], r1[j], r2[j], r3[j]);
        float* a = dst.a + i * dst_stride;
        for (int j = 0; j < out_w; ++j)
            a[j] = dwt_taps(kLo, tmp_lo[col_taps[0][j]], tmp_lo[col_taps[1][j]],
                            tmp_lo[col_taps[2][j]], tmp_lo[col_taps[3][j]]);
        if (lo_only) continue;
        float* v = dst.v + i * dst_stride;
        float* hh = dst.h + i * dst_stride;
        float* d = dst.d + i * dst_stride;
        for (int j = 0; j < out_w; ++j) {
            const int c0 = col_taps[0][j], c1 = col_taps[1][j];
            const int c2 = col_taps[2][j], c3 = col_taps[3][j];
            // vertical low-pass, horizontal high-pass; then the reverse; then both high
            v[j] = dwt_taps(kHi, tmp_lo[c0], tmp_lo[c1], tmp_lo[c2], tmp_lo[c3]);
            hh[j] = dwt_taps(kLo, tmp_hi[c0], tmp_hi[c1], tmp_hi[c2], tmp_hi[c3]);
            d[j] = dwt_taps(kHi, tmp_hi[c0], tmp_hi[c1], tmp_hi[c2], tmp_hi[c3]);
        }
    }
}

float divide(float n, float d) {
#ifdef VMAFPP_ADM_RCP_DIVISION
    // rcpss is a table approximation (about 12 bits) whose exact bits are the
    // CPU's; libvmaf uses the same instruction, so results match it on the
    // same kind of CPU. One Newton-Raphson step in float: r + r * (1 - d * r).
    const float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
    return n * (r + r * (1.0f - d * r));
#else
    return n / d;
#endif
}

namespace {

// Restored sample of one band: the reference scaled by the clamped ratio
// dis/ref; when the angle test passes, the gain may grow to
// enhn_gain_limit but never past the distorted sample. The product with the
// limit is a double, compared in double and narrowed only when chosen.
inline float restore(float o, float t, bool angle_flag, double gain_limit) {
    constexpr float kEps = 1e-30f;
    float k = divide(t, o + kEps);
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    float rst = k * o;
    if (angle_flag && rst > 0.0) {
        const double g = rst * gain_limit;
        rst = g < t ? static_cast<float>(g) : t;
    }
    if (angle_flag && rst < 0.0) {
        const double g = rst * gain_limit;
        rst = g > t ? static_cast<float>(g) : t;
    }
    return rst;
}

}  // namespace

void decouple(const Bands& ref, const Bands& dis, const Bands& r, const Bands& a,
              std::ptrdiff_t stride, const Region& region, double enhn_gain_limit) {
    // cos(1 degree)^2 formed in double, stored as float.
    const float cos_1deg_sq = static_cast<float>(std::cos(1.0 * M_PI / 180.0) *
                                                 std::cos(1.0 * M_PI / 180.0));
    for (int i = region.top; i < region.bottom; ++i) {
        const std::ptrdiff_t row = i * stride;
        for (int j = region.left; j < region.right; ++j) {
            const std::ptrdiff_t k = row + j;
            const float oh = ref.h[k], ov = ref.v[k], od = ref.d[k];
            const float th = dis.h[k], tv = dis.v[k], td = dis.d[k];
            // Angle between (oh, ov) and (th, tv) below one degree, without
            // atan: dot >= 0 and dot^2 >= cos^2(1deg) * |o|^2 * |t|^2, all float,
            // products left to right.
            const float ot_dp = oh * th + ov * tv;
            const float o_mag_sq = oh * oh + ov * ov;
            const float t_mag_sq = th * th + tv * tv;
            const bool angle_flag =
                ot_dp >= 0.0f && ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq;
            const float rh = restore(oh, th, angle_flag, enhn_gain_limit);
            const float rv = restore(ov, tv, angle_flag, enhn_gain_limit);
            const float rd = restore(od, td, angle_flag, enhn_gain_limit);
            r.h[k] = rh;
            r.v[k] = rv;
            r.d[k] = rd;
            a.h[k] = th - rh;
            a.v[k] = tv - rv;
            a.d[k] = td - rd;
        }
    }
}

void csf(const Bands& src, const Bands& out, const Bands& masked, std::ptrdiff_t stride,
         const Region& region, float factor1, float factor2) {
    const float* const s[3] = {src.h, src.v, src.d};
    float* const o[3] = {out.h, out.v, out.d};
    float* const m[3] = {masked.h, masked.v, masked.d};
    const float factor[3] = {factor1, factor1, factor2};
    for (int t = 0; t < 3; ++t) {
        for (int i = region.top; i < region.bottom; ++i) {
            const std::ptrdiff_t row = i * stride;
            for (int j = region.left; j < region.right; ++j) {
                const float val = factor[t] * s[t][row + j];
                o[t][row + j] = val;
                m[t][row + j] = static_cast<float>(kOneBy30 * static_cast<double>(std::fabs(val)));
            }
        }
    }
}

float den_scale(const Bands& ref, std::ptrdiff_t stride, const Region& inner, float factor1,
                float factor2, double noise_weight, double p_norm) {
    float acc_h = 0.0f, acc_v = 0.0f, acc_d = 0.0f;
    for (int i = inner.top; i < inner.bottom; ++i) {
        const float* rh = ref.h + i * stride;
        const float* rv = ref.v + i * stride;
        const float* rd = ref.d + i * stride;
        // Per-row float partial sums, added to the frame sums row by row.
        float row_h = 0.0f, row_v = 0.0f, row_d = 0.0f;
        for (int j = inner.left; j < inner.right; ++j) {
            row_h += power_term(std::fabs(factor1 * rh[j]), p_norm);
            row_v += power_term(std::fabs(factor1 * rv[j]), p_norm);
            row_d += power_term(std::fabs(factor2 * rd[j]), p_norm);
        }
        acc_h += row_h;
        acc_v += row_v;
        acc_d += row_d;
    }
    return bands_pnorm(acc_h, acc_v, acc_d, inner, noise_weight, p_norm);
}

float contrast_masked_sum(const Bands& x, const Bands& masker, const Bands& masker_flt,
                          std::ptrdiff_t stride, int w, int h, const Region& inner,
                          float factor1, float factor2, double noise_weight, bool bypass_cm,
                          double p_norm) {
    const float* const c[3] = {masker.h, masker.v, masker.d};
    const float* const f[3] = {masker_flt.h, masker_flt.v, masker_flt.d};
    float acc_h = 0.0f, acc_v = 0.0f, acc_d = 0.0f;
    for (int i = inner.top; i < inner.bottom; ++i) {
        // Neighbour rows reflect differently at the two edges, as libvmaf's
        // edge cases do: row -1 reads row 1, row h reads row h-1.
        const int up = i == 0 ? 1 : i - 1;
        const int down = i == h - 1 ? h - 1 : i + 1;
        const float* xh = x.h + i * stride;
        const float* xv = x.v + i * stride;
        const float* xd = x.d + i * stride;
        float row_h = 0.0f, row_v = 0.0f, row_d = 0.0f;
        for (int j = inner.left; j < inner.right; ++j) {
            // Same reflection for columns: -1 -> 1, w -> w-1.
            const int jm = j == 0 ? 1 : j - 1;
            const int jp = j == w - 1 ? w - 1 : j + 1;
            float thr = 0.0f;
            if (!bypass_cm) {
                // Sum of the three band thresholds, float, in order h, v, d.
                for (int t = 0; t < 3; ++t)
                    thr += band_threshold(f[t] + up * stride, f[t] + i * stride,
                                          f[t] + down * stride, c[t] + i * stride, jm, j, jp);
            }
            float eh = std::fabs(xh[j] * factor1) - thr;
            float ev = std::fabs(xv[j] * factor1) - thr;
            float ed = std::fabs(xd[j] * factor2) - thr;
            eh = eh < 0.0f ? 0.0f : eh;
            ev = ev < 0.0f ? 0.0f : ev;
            ed = ed < 0.0f ? 0.0f : ed;
            row_h += power_term(eh, p_norm);
            row_v += power_term(ev, p_norm);
            row_d += power_term(ed, p_norm);
        }
        acc_h += row_h;
        acc_v += row_v;
        acc_d += row_d;
    }
    return bands_pnorm(acc_h, acc_v, acc_d, inner, noise_weight, p_norm);
}

}  // namespace vmafpp::float_adm

namespace vmafpp::float_adm {

const FloatAdmKernels& float_adm_kernels_scalar() {
    static const FloatAdmKernels k{&dwt2, &decouple, &csf, &den_scale, &contrast_masked_sum};
    return k;
}

}  // namespace vmafpp::float_adm
