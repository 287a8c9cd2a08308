// Integer ADM (libvmaf 3.2.0's "adm" extractor) on one luma plane pair:
// four DWT levels, each decoupled, CSF-weighted, masked and pooled, with
// its working buffers in one block that other extractors of the same
// worker may share (base/frame_scratch.hpp).
//
// Where vmafpp deliberately differs from libvmaf (inputs a decoded picture
// cannot produce, and pictures below 33 pixels where libvmaf reads memory it
// never wrote), see docs of the kernels in adm_kernels.hpp and kMinSize.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "adm/adm_csf.hpp"
#include "adm/adm_kernels.hpp"
#include "base/frame_scratch.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp::adm {

// Smallest width and height accepted. Every band must be at least 2x2 and
// every DWT input at least 3x3 so that each reflected index is inside the
// band: 17 -> 9 -> 5 -> 3 -> 2. libvmaf itself is only well defined from 33
// (its index table reads row/column -1 of a 3-wide scale-3 input); from 33
// up the results are identical, below it vmafpp reflects -1 to 1 as libvmaf
// does everywhere else.
inline constexpr int kMinSize = 17;

// Pooling-region rows per strip, at every scale (see for_each_strip() in
// adm.cpp): 16, 32 and 64 measured alike for scale 0; the strip buffers take
// (32 + 2) rows.
inline constexpr int kStripRows = 32;

// Integer ADM's options; its option table (integer_adm.cpp) fills them,
// and default_adm_options() (adm_options.hpp) holds its defaults.
struct AdmOptions {
    double gain_limit;
    CsfParams csf;
    double noise_weight;
    double dlm_weight;
    double min_val;
    bool skip_aim;
    bool skip_scale0;
};

struct AdmScores {
    double adm2 = 0.0;  // num / den
    double aim = 0.0;
    double adm3 = 0.0;
    double scale[kScales] = {};
    double num = 0.0;
    double den = 0.0;
    double num_scale[kScales] = {};
    double den_scale[kScales] = {};
};

// What a device twin needs to compute one scale's row sums (AdmEngine::
// device_params): the band size, the pooling region, the CSF factors and
// the cube shifts of the masking (per orientation h, v, d) and of the
// denominator.
struct AdmDeviceParams {
    int bw = 0, bh = 0;
    Rect region;
    std::uint32_t rfactor[3] = {};
    CubeShifts shifts[3];
    int den_sq = 0, den_cub = 0;  // scales 1-3
};

class AdmEngine {
public:
    // Throws vmafpp::Error when the geometry is below kMinSize or the
    // options describe a condition libvmaf refuses or cannot score.
    AdmEngine(int width, int height, int bpc, const AdmOptions& options,
              const AdmKernels& kernels = adm_kernels_scalar());

    AdmScores compute(const Plane& ref, const Plane& dis);

    // The parameters of `scale` for a device twin.
    AdmDeviceParams device_params(int scale) const;
    // compute() from row sums a device made: per scale (scale 0 only without
    // skip_scale0), the pooling region's raw row sums as
    // [den, dlm, aim][h, v, d][region row] (den as uint64 bits; aim unused
    // with skip_aim), folded and finalised exactly as compute() does.
    AdmScores compute_from_rows(const std::int64_t* const rows[kScales]);

    // compute()'s working memory, which an extractor may share with the
    // others of its worker (base/frame_scratch.hpp).
    detail::FrameScratch& frame_scratch() { return frame_scratch_; }

private:
    // One scale's strips (see for_each_strip() in adm.cpp): the h, v and d
    // rows of both pictures' bands and of their restored and additive parts,
    // `strip` samples each, one after another from `p`.
    template <class T>
    struct StripBands {
        void place(T* p, std::size_t strip) {
            for (T** set : sets())
                for (int t = 0; t < 3; ++t, p += strip) set[t] = p;
        }
        // The four sets in the order for_each_strip() takes them.
        std::array<T**, 4> sets() { return {ref, dis, r, a}; }

        T* ref[3] = {};
        T* dis[3] = {};
        T* r[3] = {};  // restored
        T* a[3] = {};  // additive
    };

    struct ScaleResult {
        float num = 0.0f;
        float den = 0.0f;
        float aim = 0.0f;
    };

    // Scale-0 DWT rows [y0, y1) of both pictures: the approximations into
    // their whole-band buffers, h/v/d into the strip buffers at row i - base
    // (with no base, h/v/d are not computed).
    void dwt_scale0_rows(const Plane& ref, const Plane& dis, int y0, int y1,
                         std::optional<int> base);
    // The same for scale 1-3 of the previous scale's in_w x in_h
    // approximations.
    void dwt_s123_rows(int scale, int in_w, int in_h, int y0, int y1, std::optional<int> base);
    // With `device_rows` (a device's row sums), the strips are not run.
    ScaleResult scale0(const Plane* ref, const Plane* dis, const std::int64_t* device_rows);
    ScaleResult scale123(int scale, int in_w, int in_h, const std::int64_t* device_rows);
    AdmScores compute_scales(const Plane* ref, const Plane* dis, const std::int64_t* const* rows);

    int width_, height_, bpc_;
    AdmOptions opt_;
    const AdmKernels& k_;
    std::ptrdiff_t stride_;   // of the scale-0 bands and approximation, in samples
    std::ptrdiff_t stride1_;  // of the scale 1-3 bands and approximations

    std::uint16_t rfactor_s0_[3];
    std::uint32_t rfactor_s123_[kScales][3];
    CsfFactors factors_[kScales];

    // Every working buffer lies in one block of frame_scratch_, at the
    // offsets below; bind() points the members at it before each frame.
    // Left uninitialised on purpose: every sample a kernel reads was written
    // by an earlier stage of the same frame (which is what lets other
    // extractors share the block, base/frame_scratch.hpp), and valgrind can
    // check that.
    void bind();
    detail::FrameScratch frame_scratch_;
    std::byte* bound_ = nullptr;  // the block the members point into
    struct Offsets {
        std::size_t s0, approx16, approx, s123, dwt16, dwt32, thr32, thr64;
    } at_{};
    std::size_t strip_ = 0, strip1_ = 0, n0_ = 0, n1_ = 0, n12_ = 0;  // in samples

    // scale 0: strips of kStripRows + 2 rows (see for_each_strip() in adm.cpp)
    StripBands<std::int16_t> s0_;
    // approximation bands: scale 0's of each picture in int16; then
    // [picture][slot], slot 0 holding scale 1's (later scale 3's), slot 1
    // scale 2's
    std::int16_t* approx0_[2] = {};
    std::int32_t* approx_ptr_[2][2] = {};
    // scales 1-3: strips as for scale 0
    StripBands<std::int32_t> s123_;
    // scratch
    std::int16_t* dwt_scratch16_ = nullptr;
    std::int32_t* dwt_scratch32_ = nullptr;
    std::int32_t* thr32_ = nullptr;
    std::int64_t* thr64_ = nullptr;
};

}  // namespace vmafpp::adm
