// Working memory an extractor needs only while it scores one frame (ADM's
// bands and approximations, VIF's scaled pictures), shared by the
// extractors one worker runs one after another.
//
// Each such extractor owns a FrameScratch of the bytes it needs. In meet()
// (vmafpp/feature.hpp) it joins the pool of an earlier instance of the same
// worker, so the worker holds one block of the largest need instead of one
// per extractor: fresh pages cost a page fault and the kernel's zeroing on
// first touch, which in a short run weighs as much as a whole extractor.
//
// Why sharing is safe: the pipeline calls a worker's instances one after
// another on that worker's thread, each extract() returning before the next
// starts (FramePipeline::Impl::run_stateless), and an instance that meets
// another is never called on another thread. A user writes every byte of the
// block it reads during the same extract() call before reading it, and keeps
// nothing there from one call to the next (the same frame scored twice
// finds what the other extractors left). tests/unit/frame_scratch_test.cpp
// runs ADM and VIF sharing one pool in both orders against each alone.
#pragma once

#include <cstddef>
#include <memory>

#include "base/large_alloc.hpp"

namespace vmafpp {
class FeatureExtractor;
}

namespace vmafpp::detail {

// Offsets of a user's regions in its block, each on a 64-byte boundary.
class ScratchLayout {
public:
    template <class T>
    std::size_t take(std::size_t count) {
        const std::size_t at = (end_ + 63) / 64 * 64;
        end_ = at + count * sizeof(T);
        return at;
    }
    std::size_t bytes() const { return end_; }

private:
    std::size_t end_ = 0;
};

class FrameScratch {
public:
    explicit FrameScratch(std::size_t bytes = 0);

    // Uses `other`'s pool from now on (grown to this user's need when it is
    // first used). Ignored when this one's pool already has other users.
    void share(FrameScratch& other);
    bool shares_with(const FrameScratch& other) const { return pool_ == other.pool_; }

    // The block: at least the bytes of every user of the pool, 64-byte
    // aligned, contents left by whichever user ran last. Allocated on the
    // first call, so an instance that never scores on the host (a device
    // twin's, the session's probe) touches nothing. Valid until the next
    // get() of any user of the pool.
    std::byte* get();
    // The bytes get() returns: the largest need of the pool's users.
    std::size_t size() const { return pool_->needed; }

private:
    struct Pool {
        std::unique_ptr<std::byte[], LargeFree> block;
        std::size_t allocated = 0;
        std::size_t needed = 0;
    };
    std::shared_ptr<Pool> pool_;
    std::size_t bytes_;
};

// The base of an extractor that has a FrameScratch, so that meet() finds an
// earlier one's whatever its type.
class SharesFrameScratch {
public:
    virtual FrameScratch& frame_scratch() = 0;

protected:
    ~SharesFrameScratch() = default;
    // From meet(): joins `earlier`'s pool when it has one.
    void share_frame_scratch(FeatureExtractor& earlier);
};

}  // namespace vmafpp::detail
