// Compressed video through FFmpeg's libraries (libavformat demuxes,
// libavcodec decodes on its own thread, a bounded queue hands frames over).
#pragma once

#include <memory>
#include <string>

#include "vmafpp/reader.hpp"

namespace vmafpp::io {

// Whether this build links FFmpeg (CMake option VMAFPP_WITH_FFMPEG).
bool ffmpeg_available();
// Any container and codec FFmpeg decodes. Pixel formats the scorer reads
// (planar YUV 4:2:0/4:2:2/4:4:4 and gray, 8..16 bits little-endian, full or
// limited range) go to it sample for sample; other formats (semi-planar,
// packed, RGB) are converted by libswscale to planar YUV of their
// subsampling and bit depth. Throws vmafpp::Error naming `path` for a file
// FFmpeg cannot open, no video stream, an unknown codec or a decoding error.
std::unique_ptr<VideoReader> open_ffmpeg(const std::string& path);

}  // namespace vmafpp::io
