// What ADM's SIMD twins (adm_kernels.hpp) share across instruction sets,
// written once without intrinsics. Everything sits in an anonymous
// namespace, so each ISA file compiles its own copy with its own flags
// (HACKING.md, "Where a loop lives").
#pragma once

#include <cstddef>
#include <cstdint>

#include "adm/adm_kernels.hpp"

namespace vmafpp::adm {
namespace {

// What both scales' decoupling reads besides the bands: the centre of
// libvmaf's division table (entry i is 2^30 / i with i's sign), cos^2(1
// degree) and the gain limit, the last two in every lane of Lanes::set(v)'s
// double vector.
template <class Lanes>
struct DecoupleConstantsOf {
    using D = decltype(Lanes::set(0.0));
    explicit DecoupleConstantsOf(double gain_limit)
        : div(div_lookup() + 32768),
          cos_sq(Lanes::set(static_cast<double>(cos_1deg_sq()))),
          gain(Lanes::set(gain_limit)) {}
    const std::int32_t* div;
    D cos_sq;
    D gain;
};

// The three band rows a ring threshold reads for output row y (rows y - 1,
// y and y + 1, reflected at the band's edges): three slots, each holding one
// band row's S and its centre taps, filled by fill(r, s, taps) when row r is
// not in a slot and kept while it is one of the three in use, so that each
// band row is filled once per band however the output rows walk. Shared by
// the AVX2 and AVX-512 masking of every scale; the vector sums over these
// rows stay in the ISA files.
class ThresholdRing {
public:
    struct Rows {
        const std::int32_t* above;
        const std::int32_t* centre;
        const std::int32_t* centre_taps;
        const std::int32_t* below;
    };
    // The slots are rows s_rows + i * stride and tap_rows + i * stride.
    ThresholdRing(int h, std::int32_t* s_rows, std::int32_t* tap_rows, std::ptrdiff_t stride)
        : h_(h) {
        for (int i = 0; i < 3; ++i) {
            s_[i] = s_rows + i * stride;
            taps_[i] = tap_rows + i * stride;
            tag_[i] = -1;
        }
    }

    template <class Fill>
    Rows rows(int y, Fill&& fill) {
        const int ya = reflect_index(y - 1, h_), yb = reflect_index(y + 1, h_);
        const std::int32_t* above = s_[slot_of_row(ya, y, yb, fill)];
        const int centre = slot_of_row(y, ya, yb, fill);
        const std::int32_t* below = s_[slot_of_row(yb, ya, y, fill)];
        return {above, s_[centre], taps_[centre], below};
    }

private:
    // The slot of band row r, filled if r is not in one; `keep1` and `keep2`
    // are the other two rows of this output row.
    template <class Fill>
    int slot_of_row(int r, int keep1, int keep2, Fill& fill) {
        int slot = -1;
        for (int i = 0; i < 3; ++i)
            if (tag_[i] == r) return i;
        for (int i = 0; i < 3 && slot < 0; ++i)
            if (tag_[i] != keep1 && tag_[i] != keep2) slot = i;
        fill(r, s_[slot], taps_[slot]);
        tag_[slot] = r;
        return slot;
    }

    int h_;
    std::int32_t* s_[3];
    std::int32_t* taps_[3];
    int tag_[3];
};

}  // namespace
}  // namespace vmafpp::adm
