// SpEED's model fit and score (libvmaf speed.c est_params, get_speed_score)
// and its picture preparation (filter_and_downscale).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/float_image.hpp"
#include "speed/speed_kernels.hpp"

namespace vmafpp::speed {

// libvmaf's frame scaling methods (vif_scale_frame_s).
enum class ScaleMethod { nearest, bilinear, bicubic, lanczos4 };

// The options of speed_chroma and speed_temporal (their defaults are the
// option tables' in speed.cpp).
struct Params {
    float kernelscale;
    double prescale;
    ScaleMethod method;
    float sigma_nn;
    float nn_floor;
    int weight_var_mode;  // speed_chroma's; 0 in speed_temporal
};

// Entropy and variance of every block of one picture.
struct BlockStats {
    std::vector<float> entropy;
    std::vector<float> variance;
    bool singular = false;  // libvmaf's est_params error: zero solution used
};

class Gsm {
public:
    Gsm(const Dimensions& dims, const Params& params, const SpeedKernels& kernels);

    // A plane as libvmaf's picture_copy makes it float (sample / 2^(bpc-8)
    // - 128), or the difference of two such planes (speed_temporal), read
    // in place: width x height of dims from (0, 0).
    struct Samples {
        const std::uint8_t* a = nullptr;
        std::ptrdiff_t a_stride = 0;  // bytes
        const std::uint8_t* b = nullptr;  // subtracted when not null
        std::ptrdiff_t b_stride = 0;
        int bpc = 8;  // 8, 10, 12 or 16
    };
    // filter_and_downscale then est_params. Fills `out`.
    void analyse(const Samples& s, BlockStats& out);

    // get_speed_score of two analysed pictures.
    float score(const BlockStats& ref, const BlockStats& dis) const;

    const Dimensions& dims() const { return dims_; }
    const Params& params() const { return p_; }
    // The antialias (before decimation) and local-mean filters' taps.
    const float* aa_filter() const { return aa_filter_; }
    int aa_width() const { return aa_width_; }
    const float* dc_filter() const { return dc_filter_; }
    int dc_width() const { return dc_width_; }

    // A device twin that prepares the picture (device::SpeedTwin); analyse
    // then runs only estimate() on the host. Not owned.
    struct Preparer {
        virtual ~Preparer() = default;
        virtual void prepare(const Samples& s, float* low, std::ptrdiff_t stride) = 0;
    };
    void prepare_with(Preparer* twin) { twin_ = twin; }
    // The prepared picture of the last analyse() (the twins' kernel tests).
    const FloatImage& prepared() const { return low_; }

private:
    template <class Rows>
    void prepare(const Rows& src);
    void estimate(BlockStats& out);

    Dimensions dims_;
    Params p_;
    Preparer* twin_ = nullptr;
    const SpeedKernels& k_;
    int aa_width_ = 0, dc_width_ = 0;  // antialias and local-mean filter taps
    float aa_filter_[128] = {};
    float dc_filter_[128] = {};
    std::vector<std::pair<int, int>> runs_;  // columns the antialias blur needs
    FloatImage full_, scaled_;         // the float and prescaled pictures (prescale != 1)
    FloatImage low_;                   // decimated picture (op_w x op_h)
    FloatImage low_blur_;
    std::vector<float> row_;           // one padded row of the blurs
    std::vector<float> mean_, cov_, eig_, indep_, sol_, work_;
};

// The picture's prescale leaves it unchanged (libvmaf: |prescale - 1| < 1e-3).
bool prescale_is_identity(double prescale);
// Whether Gsm::prepare resamples the picture: a prescale libvmaf applies
// that changes the size (else the picture is copied as it is).
bool prescale_resizes(const Dimensions& d, double prescale);

// Where scale_nearest / scale_bilinear read output sample i of a dimension
// scaled from src_n to dst_n samples: source indices i1 and i2 (nearest:
// i1 only) and the float fraction of i2 (the scalar's coordinate arithmetic
// exactly, for the device twins' tables).
struct ScaleTap {
    int i1 = 0, i2 = 0;
    float frac = 0.0f;
};
ScaleTap nearest_tap(int i, int src_n, int dst_n);
ScaleTap bilinear_tap(int i, int src_n, int dst_n);

// Where bicubic_at / lanczos_at read output sample i of a dimension scaled
// from src_n to dst_n samples: the n (4 or 9) mirrored source indices and
// their float weights (bicubic_weight(k - dx), lanczos_weight(k - dx, 4),
// k from -1 or -4 up), from the scalar's own coordinate, floor, mirror and
// weight functions (lanczos_weight is a double expression narrowed to
// float: the device twins read these tables and compute no weight). The
// twins then form weight_x * weight_y and the sums in the scalar's order.
constexpr int kMaxKernelTaps = 9;
struct KernelTaps {
    int n = 0;
    int index[kMaxKernelTaps] = {};
    float weight[kMaxKernelTaps] = {};
};
KernelTaps bicubic_taps(int i, int src_n, int dst_n);
KernelTaps lanczos_taps(int i, int src_n, int dst_n);

}  // namespace vmafpp::speed
