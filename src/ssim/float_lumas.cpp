#include "ssim/float_lumas.hpp"

#include <cstddef>

#include "base/float_image.hpp"

namespace vmafpp::ssim {

FloatLumas::FloatLumas(int w, int h, int bpc)
    : w_(w), h_(h), bpc_(bpc),
      ref_(detail::make_large_array<float>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h))),
      dis_(detail::make_large_array<float>(static_cast<std::size_t>(w) * static_cast<std::size_t>(h))) {}

void FloatLumas::share_with(FeatureExtractor& earlier) {
    if (!source_) source_ = dynamic_cast<const FloatLumas*>(&earlier);
}

FloatLumas::Frame FloatLumas::convert(const Picture& ref, const Picture& dis, unsigned frame,
                                      bool keep) {
    held_ = false;
    if (source_ && source_->holds(frame, w_, h_, bpc_))
        return {source_->ref_.get(), source_->dis_.get()};
    plane_to_float(ref.luma(), bpc_, 0.0f, ref_.get(), w_);
    plane_to_float(dis.luma(), bpc_, 0.0f, dis_.get(), w_);
    held_ = keep;
    held_frame_ = frame;
    return {ref_.get(), dis_.get()};
}

}  // namespace vmafpp::ssim
