// The frame's lumas as compact floats (w x h, scaled to the 8-bit range, no
// offset): the input of float_ssim and float_ms_ssim. Instances of one
// worker share them (FeatureExtractor::meet): the first converts, a later
// one reads its floats instead of converting the same pictures again.
#pragma once

#include <memory>

#include "base/large_alloc.hpp"
#include "vmafpp/feature.hpp"

namespace vmafpp::ssim {

class FloatLumas {
public:
    FloatLumas(int w, int h, int bpc);
    // Polymorphic: a later instance finds this part of an earlier one by
    // dynamic_cast.
    virtual ~FloatLumas() = default;

    // From meet(): read an earlier instance's lumas wherever it holds them.
    void share_with(FeatureExtractor& earlier);

    struct Frame {
        const float* ref;
        const float* dis;
    };
    // The lumas of `frame`: the earlier instance's if it holds them, else
    // converted into this instance's buffers. With `keep` the caller leaves
    // those buffers whole until its next convert(), and later instances may
    // read them; without, it may write over them (own_ref, own_dis).
    Frame convert(const Picture& ref, const Picture& dis, unsigned frame, bool keep);
    float* own_ref() { return ref_.get(); }
    float* own_dis() { return dis_.get(); }

private:
    bool holds(unsigned frame, int w, int h, int bpc) const {
        return held_ && frame == held_frame_ && w == w_ && h == h_ && bpc == bpc_;
    }

    int w_, h_, bpc_;
    std::unique_ptr<float[], detail::LargeFree> ref_, dis_;
    const FloatLumas* source_ = nullptr;  // an earlier instance's
    bool held_ = false;                   // ref_ and dis_ hold frame held_frame_'s, whole
    unsigned held_frame_ = 0;
};

}  // namespace vmafpp::ssim
