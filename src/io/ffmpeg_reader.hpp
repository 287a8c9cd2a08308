// Compressed video through FFmpeg's libraries (libavformat demuxes,
// libavcodec decodes on its own thread, a bounded queue hands frames over).
#pragma once

#include <memory>
#include <string>

#include "vmafpp/reader.hpp"

namespace vmafpp::io {

class ByteSource;

// Whether this build links FFmpeg (CMake option VMAFPP_WITH_FFMPEG).
bool ffmpeg_available();
// Any container and codec FFmpeg decodes. Pixel formats the scorer reads
// (planar YUV 4:2:0/4:2:2/4:4:4 and gray, 8..16 bits little-endian, full or
// limited range) go to it sample for sample; other formats (semi-planar,
// packed, RGB) are converted by libswscale to planar YUV of their
// subsampling and bit depth. Throws vmafpp::Error naming `path` for a file
// FFmpeg cannot open, no video stream, an unknown codec or a decoding error.
//
// A first skip(n) before any read decodes from the keyframe before frame n
// when the file proves that exact (see FfmpegReader::plan_seek), else from
// the start; either way the frames kept are those a whole decode numbers n on.
//
// FFmpeg reads the file through a descriptor vmafpp opened, never by name:
// no name is an FFmpeg URL or protocol, and nested opens (playlists, concat
// scripts, external references) are refused.
std::unique_ptr<VideoReader> open_ffmpeg(const std::string& path);
// The same over an open source whose bytes nothing has consumed (only
// peeked at): a pipe, fifo or standard input is read once, from there.
std::unique_ptr<VideoReader> open_ffmpeg_source(std::unique_ptr<ByteSource> src);
// The frame the reader's decoding began at (a keyframe seek: > 0); 0 for
// other readers. For tests.
unsigned ffmpeg_decoding_began_at(const VideoReader& reader);

}  // namespace vmafpp::io
