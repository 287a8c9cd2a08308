// Push-style scoring: the caller hands frame pairs in one by one (as a
// decoder produces them) instead of score() reading two VideoReaders. Same
// extractors, same pipeline, same values as score() for the same frames.
//
//   vmafpp::ScoreConfig cfg;                       // default model vmaf_v0.6.1
//   vmafpp::Scorer s(cfg, {1920, 1080, 8, vmafpp::PixelFormat::yuv420});
//   for (int frame = 0; frame < 3; ++frame) {      // as a decoder hands them over
//       vmafpp::Picture ref = s.make_picture(), dis = s.make_picture();
//       for (int y = 0; y < 1080; ++y)             // and planes[1], [2] if reads_chroma()
//           for (int x = 0; x < 1920; ++x) {
//               ref.planes[0].row<std::uint8_t>(y)[x] = std::uint8_t(x + y + frame);
//               dis.planes[0].row<std::uint8_t>(y)[x] = std::uint8_t((x + y + frame) | 1);
//           }
//       s.push(std::move(ref), std::move(dis));
//   }
//   vmafpp::ScoreRun run = s.finish();
//   double mean = run.pooled("vmaf")->mean;
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "vmafpp/export.hpp"
#include "vmafpp/vmafpp.hpp"

namespace vmafpp {

class VMAFPP_API Scorer {
public:
    // Loads the models and creates every extractor for `geometry`; throws
    // vmafpp::Error for bad options or a geometry an extractor refuses.
    // frame_cnt, frame_skip_* and on_warning of the config do not apply.
    Scorer(const ScoreConfig& config, const FrameGeometry& geometry);
    ~Scorer();
    Scorer(const Scorer&) = delete;
    Scorer& operator=(const Scorer&) = delete;

    const FrameGeometry& geometry() const;
    // Whether push() needs chroma planes (an extractor reads them);
    // otherwise only luma is read and chroma planes may be empty.
    bool reads_chroma() const;
    // A zeroed picture of the session's geometry, chroma only when read.
    Picture make_picture() const;

    // The entry for planes the caller owns (the Python module, the C API):
    // a picture of the session that reads them in place (Plane::view, no
    // copy), after checking each one once, here: luma width x height;
    // chroma, where the format has it, subsampled as the format says
    // (floor, as libvmaf's pictures, or ceil, as Y4M's; the floor part is
    // read); a stride of at least a row's bytes; data not null. `planes` is
    // Y alone (when reads_chroma() is false or the format is 4:0:0) or Y, U,
    // V. Throws vmafpp::Error naming `which` ("reference"), the plane and
    // both shapes. The picture holds `keep_alive` (see Plane::view): the
    // planes must stay readable and unchanged while it or a picture it is
    // moved to lives.
    Picture view_from(std::span<const PlaneView> planes, const char* which,
                      std::shared_ptr<const void> keep_alive = nullptr) const;
    // view_from's checks, then a copy: for planes that may change or go
    // away as soon as the call returns.
    Picture picture_from(std::span<const PlaneView> planes, const char* which) const;
    // view_from's checks alone, for planes the library cannot read itself
    // (the C API's CUDA device pictures, copied by the driver).
    void check_planes(std::span<const PlaneView> planes, const char* which) const;
    // Scores the next frame pair from the caller's planes without copying
    // them. The session reads them until that frame is scored (later than
    // push() returns when it has worker threads), then drops its copies of
    // `keep_alive`, on whichever of its threads scored the frame: the
    // caller keeps the planes readable and unchanged until the last copy of
    // `keep_alive` is gone. With `keep_alive` null, until finish() returns
    // or the Scorer is destroyed.
    void push(std::span<const PlaneView> ref, std::span<const PlaneView> dis,
              std::shared_ptr<const void> keep_alive = nullptr);

    // Scores the next frame pair. Throws vmafpp::Error for a picture of
    // another geometry or bit depth, a sample above the bit depth, after
    // finish(), or an error an extractor raised.
    void push(Picture ref, Picture dis);
    unsigned frames() const;

    // Waits for every frame, flushes temporal extractors and predicts the
    // models. Once; throws vmafpp::Error when no frame was pushed.
    ScoreRun finish();

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace vmafpp
