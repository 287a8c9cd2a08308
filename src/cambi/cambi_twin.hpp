// CAMBI's device twin: every per-pixel stage of a picture's score runs on
// the device (the 10-bit conversion with its nearest resize, the
// anti-dithering, the spatial mask, and at each of the five scales the
// decimation, the 3x3 mode filter and the c-values from the windowed
// histograms); the host reads back the c-values and finishes each scale
// with the scalar's own code (c_value_sums, the heat map, spatial_pooling,
// whose double sum of the top k must follow libvmaf's quick_select order).
//
// Where libvmaf computes in floating point, the device computes:
// - the resize positions (float steps, fx += rx): on the host, with the
//   scalar's loop, into index tables; the device only gathers;
// - a c-value, float(weight * p0 * p) * recip[p0 + p]: the integer product
//   exactly in int32, its conversion to float rounded to nearest-even in
//   integers (an exact emulation: 24 significant bits kept, the rest
//   rounded as the conversion rounds), then one binary32 multiplication,
//   which Vulkan (OpFMul) and CUDA (__fmul_rn) round correctly;
// - the pooling's double sums and every double of the score: on the host.
// Nothing on the device is double; every other value is an integer.
// A device backend registers its implementation under `kind`
// (device::BackendInfo::add_twin); the extractor asks for it with
// device::make_twin<cambi::CambiTwin>. Vulkan: src/vulkan/vk_cambi_twin.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "cambi/cambi_kernels.hpp"
#include "device/backend.hpp"

namespace vmafpp::cambi {

// What one picture's c-values depend on besides its samples.
struct CambiPicture {
    const std::uint8_t* luma = nullptr;  // in_w x in_h samples, rows `stride` bytes apart
    std::ptrdiff_t stride = 0;
    int in_w = 0, in_h = 0, bpc = 8;
    int w = 0, h = 0;           // the size CAMBI scores at (nearest resize when smaller)
    int window = 0;             // the scaled window
    bool dither = false;        // enc_bitdepth < 10: anti_dither after the conversion
    bool speedup = false;       // decimate before scale 0
    int mask_threshold = 0;
};

// cambi.cpp's to_10_bits positions, for a twin's tables: the n rows or
// columns of the nearest resize from in_n, stepped in float as the scalar
// does (the identity when the sizes agree).
std::vector<std::int32_t> nearest_positions(int in_n, int n);

// A twin's index (y * in_w + x) of the first sample above the bit depth's
// maximum when there is none.
constexpr std::uint32_t kNoBadSample = 0xffffffffu;
// Throws the scalar's error for the sample at `index` of p's luma, a twin's
// first sample above the bit depth's maximum, unless index is kNoBadSample.
void throw_if_bad_sample(const CambiPicture& p, std::uint32_t index);

class CambiTwin {
public:
    static constexpr std::string_view kind = "cambi";
    // Made for compute's device, for pictures up to alloc_w x alloc_h scored
    // with `setup` (its tables are copied).
    using Factory = std::function<std::unique_ptr<CambiTwin>(
        const Compute& compute, int alloc_w, int alloc_h, const ContrastSetup& setup)>;

    virtual ~CambiTwin() = default;
    // Runs every stage of `p` and reads back the c-values of the five
    // scales. Throws vmafpp::Error, as the scalar does, for a sample above
    // the bit depth's maximum.
    virtual void run(const CambiPicture& p) = 0;
    // After run(): scale s's c-values, w_s * h_s floats, rows w_s apart
    // (writable: spatial_pooling reorders them).
    virtual float* c_values(int s) = 0;
};

}  // namespace vmafpp::cambi
