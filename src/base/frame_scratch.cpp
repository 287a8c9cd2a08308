#include "base/frame_scratch.hpp"

#include <algorithm>

#include "vmafpp/feature.hpp"

namespace vmafpp::detail {

FrameScratch::FrameScratch(std::size_t bytes) : pool_(std::make_shared<Pool>()), bytes_(bytes) {
    pool_->needed = bytes;
}

void FrameScratch::share(FrameScratch& other) {
    if (pool_ == other.pool_ || pool_.use_count() > 1) return;
    other.pool_->needed = std::max(other.pool_->needed, bytes_);
    pool_ = other.pool_;
}

std::byte* FrameScratch::get() {
    Pool& p = *pool_;
    if (p.allocated < p.needed) {
        // The old block first: its contents need not survive (see the header).
        p.block.reset();
        p.allocated = 0;
        p.block = make_large_array<std::byte>(p.needed);
        p.allocated = p.needed;
    }
    return p.block.get();
}

void SharesFrameScratch::share_frame_scratch(FeatureExtractor& earlier) {
    if (auto* other = dynamic_cast<SharesFrameScratch*>(&earlier))
        frame_scratch().share(other->frame_scratch());
}

}  // namespace vmafpp::detail
