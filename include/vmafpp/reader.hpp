// Frame-by-frame readers for Y4M and raw planar YUV files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "vmafpp/picture.hpp"

namespace vmafpp {

struct VideoInfo {
    int width = 0;
    int height = 0;
    int bpc = 8;
    PixelFormat format = PixelFormat::yuv420;
    std::string header;  // the Y4M header line without its newline; empty for raw
};

// Streams one picture at a time; memory does not grow with clip length.
class VideoReader {
public:
    virtual ~VideoReader() = default;
    virtual const VideoInfo& info() const = 0;
    // Fills `pic` (reallocated if its geometry differs) with the next frame.
    // Returns false at a clean end of file; throws vmafpp::Error on a frame cut
    // short or a malformed frame header.
    virtual bool read(Picture& pic) = 0;
    // Skips n frames (same errors as read()); returns how many were skipped.
    virtual unsigned skip(unsigned n);
};

struct RawFormat {
    int width = 0;
    int height = 0;
    int bpc = 8;
    PixelFormat format = PixelFormat::yuv420;
};

// "-" reads standard input.
std::unique_ptr<VideoReader> open_y4m(const std::string& path);
std::unique_ptr<VideoReader> open_raw_yuv(const std::string& path, const RawFormat& format);
// Raw YUV when `raw` has a size (libvmaf's CLI: -w/-h given), otherwise Y4M.
std::unique_ptr<VideoReader> open_video(const std::string& path, const RawFormat& raw = {});

}  // namespace vmafpp
