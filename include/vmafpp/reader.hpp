// Frame-by-frame readers for Y4M and raw planar YUV files.
//
// Errors are vmafpp::Error with a one-line message that starts with the path
// ("-" for standard input) and, for a frame, its number counted from 0.
//
// Chroma planes of odd-sized 4:2:0 / 4:2:2 pictures are floor(w/2) wide (and
// floor(h/2) high for 4:2:0) as in libvmaf. Raw files store them so (libvmaf's
// convention); Y4M files store ceil-sized planes, and the reader drops their
// last column / row. libvmaf cannot read such a Y4M at all; its goldens for
// them come from raw files cropped the same way, and the models read luma only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "vmafpp/export.hpp"
#include "vmafpp/picture.hpp"

namespace vmafpp {

struct VideoInfo {
    int width = 0;
    int height = 0;
    int bpc = 8;
    PixelFormat format = PixelFormat::yuv420;
    std::string header;  // the Y4M header line without its newline; empty for raw
    // Frame rate when the file says (Y4M's F field, a container's rate);
    // 0/0 when unknown (raw YUV).
    int fps_num = 0;
    int fps_den = 0;
    // Frames in the file when known before reading (a regular file of whole
    // frames, a container that records it); -1 otherwise. A hint for the
    // progress line and mismatch warnings, never used to frame the file.
    long long frames = -1;
};

// Streams one picture at a time; memory does not grow with clip length.
class VMAFPP_API VideoReader {
public:
    virtual ~VideoReader() = default;
    virtual const VideoInfo& info() const = 0;
    // Fills `pic` (reallocated only if its geometry differs, so a reused
    // Picture costs no allocation per frame) with the next frame. Returns false
    // at a clean end of file; throws vmafpp::Error on a frame cut short (never
    // dropped silently), a malformed FRAME line, or samples above the bit depth.
    virtual bool read(Picture& pic) = 0;
    // Skips n frames (same framing errors as read(); samples are not
    // inspected); returns how many were skipped.
    virtual unsigned skip(unsigned n);
    // true: later read()s fill luma only and give pictures without chroma
    // storage (Picture::has_chroma() false); a file's chroma bytes are skipped
    // (seeked over in a regular file) with the same framing errors. score()
    // sets it when no extractor reads chroma. A reader may ignore it.
    virtual void set_luma_only(bool /*luma_only*/) {}
    // true: later read()s check each frame's framing and that its bytes are
    // there (the errors read() gives for a frame cut short or a malformed
    // FRAME line) but read none of its samples, seeking over them in a
    // regular file: the picture has the video's geometry and no planes.
    // score() sets it for the reference when no extractor reads the
    // reference (FeatureInfo::reads_reference). A reader may ignore it.
    virtual void set_samples_unread(bool /*unread*/) {}
};

struct RawFormat {
    int width = 0;
    int height = 0;
    int bpc = 8;
    PixelFormat format = PixelFormat::yuv420;
};

// "-" reads standard input. Y4M: chroma tags C420, C420jpeg, C420mpeg2,
// C420paldv, C422, C444, Cmono and C420pN, C422pN, C444pN, CmonoN (N = 9..16,
// little-endian); progressive only. Sizes 1..32768 per side, at most 2^28
// pixels. Raw: any format of PixelFormat, 8..16 bits.
VMAFPP_API std::unique_ptr<VideoReader> open_y4m(const std::string& path);
VMAFPP_API std::unique_ptr<VideoReader> open_raw_yuv(const std::string& path,
                                                     const RawFormat& format);
// Raw YUV when `raw` has a size (libvmaf's CLI: -w/-h given), otherwise Y4M
// (by its signature) or, for anything else, FFmpeg's libraries.
VMAFPP_API std::unique_ptr<VideoReader> open_video(const std::string& path,
                                                   const RawFormat& raw = {});

// Scales every picture of `in` to width x height with libswscale (`scaler`:
// bicubic, bilinear, lanczos, spline, neighbor, ...; the same filter as
// `ffmpeg -vf scale=W:H:flags=<scaler>`); `in` itself when its size is that
// already. `what` names the input in errors. Needs FFmpeg in the build.
VMAFPP_API std::unique_ptr<VideoReader> scale_video(std::unique_ptr<VideoReader> in, int width,
                                                    int height, const std::string& scaler,
                                                    const std::string& what);

}  // namespace vmafpp
